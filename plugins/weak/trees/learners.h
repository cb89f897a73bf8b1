/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Trees plugin: the four tree learners of the LogitBoost family (Sun, Reid
 * & Zhou 2014, spec §2-4), as one learner type with a kind:
 *
 *   AOSO   one vector tree per iteration, each node and leaf with its own
 *          one-vs-one class pair (r, s) chosen by rule (33) (or (32));
 *          optionally one pair for the whole tree (the paper's ablation)
 *   DIAG   one vector tree updating all k classes with the diagonal Newton
 *          step G_k / H_k (K-LogitBoost with the klogit loss)
 *   CLASS  k scalar trees per iteration, tree c on class c's gradient and
 *          Hessian diagonal (LogitBoost, Li's robust form; MART with the
 *          first-order split)
 *   ABC    k - 1 scalar trees against a base class b (ABC-LogitBoost,
 *          ABC-MART), b chosen each iteration by trying all k (their
 *          training losses after the step) or as the worst class
 *
 * All read the request's G = -dL/dF (for the logistic loss r - p), H (the
 * Hessian diagonal) and, for pairs, Hu (its rank-one off-diagonal part).
 */
#ifndef BL_TREES_LEARNERS_H
#define BL_TREES_LEARNERS_H

#include <boostlab/boostlab.h>

#include "grow.h"
#include "tree.h"

enum tl_kind { TL_AOSO, TL_DIAG, TL_CLASS, TL_ABC };

struct tl_opts {
    enum tl_kind kind;
    struct grow_params gp;
    double max_step;     /* leaf values clamped to [-max_step, max_step]   */
    int first_order;     /* AOSO: pair rule (32) instead of (33)           */
    int fixed_pair;      /* AOSO: the root's pair for every node and leaf  */
    int float_leaves;    /* AOSO: leaf values rounded to float (the authors'
                            code), for side-by-side runs with it           */
    int naive_residuals; /* AOSO: G = [r = y] - p, H = p (1 - p) from the
                            softmax's p = Hu, as the authors' code         */
    int gradient_split;  /* CLASS, ABC: first-order (MART) split gain      */
    int kscale;          /* CLASS: leaf values times (k - 1) / k           */
    int base_worst;      /* ABC: worst class instead of trying all k       */
};

struct tl;

struct tl *tl_new(const struct tl_opts *o, const struct bl_train *tr, int nthreads);
void tl_free(struct tl *L);
/* One boosting iteration's trees: a forest in res->hyp, outputs in res->out. */
int tl_fit(struct tl *L, const struct bl_fit_request *req, struct bl_fit_result *res,
           char *err, size_t errcap);

#endif

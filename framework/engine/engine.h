/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The generic boosting loop, the engine's one entry point.  Each iteration
 * runs the same phases: the loss gives dual weights (its negative
 * gradient); the weak learner returns the hypothesis that best answers
 * them (the most violated dual constraint); the solver sets coefficients
 * (the new row, or all rows for a totally corrective solver; shrinkage
 * scales a stage-wise row); the scores and the loss are updated; the
 * iteration is recorded (train loss, train/test error, edge, the time of
 * each phase).  With `solver = none` every coefficient is 1: the weak
 * learner's outputs are the step (trees with Newton leaf values), scaled
 * by shrinkage.  The score space (class, coded, code, projected inputs or
 * outputs) is chosen once from the plugins: run.h.
 */
#ifndef BL_ENGINE_ENGINE_H
#define BL_ENGINE_ENGINE_H

#include <boostlab/data.h>
#include <stdint.h>

#include "../plugin/params.h"
#include "model.h"
#include "param.h"

enum bl_stop {
    BL_STOP_BUDGET = 0,   /* ran the number of iterations asked for      */
    BL_STOP_DUAL = 1,     /* no weak hypothesis violates a dual constraint
                             by more than nu + eps: optimal (spec eq. 9)  */
    BL_STOP_LOSS = 2,     /* the training loss fell to loss_tol (the
                             LogitBoost papers' convergence, 1e-16)       */
    BL_STOP_STALL = 3     /* the objective's relative decrease fell below
                             rel_tol (RBoost-proj's rule)                 */
};

/* Per-iteration record; entry j describes the model with j+1 terms. */
typedef struct bl_curve {
    size_t n, cap;
    double *train_loss, *train_err, *test_err, *edge;
    double *t_weak, *t_coef, *t_book;    /* seconds per phase */
    int *solver_iters;
    size_t *trees;                       /* trees added so far (cumulative) */
    enum bl_stop stop;
    /* the empty model (F = 0), for runs that stop before their first term */
    double train_loss0, train_err0, test_err0;
} bl_curve;

typedef struct bl_boost_cfg {
    bl_boost_param param;
    /* the plugins with their parameters; solver, coding and projection
     * are NULL when not used (no solver: every coefficient is 1) */
    const bl_paramset *loss, *weak, *solver, *coding, *projection;
    int iterations;
    uint64_t seed;
    /* Called after each iteration (may be NULL). */
    void (*on_iter)(void *user, size_t done, size_t total);
    void *user;
    int max_bins;   /* of views the engine quantizes itself (projected
                       inputs); 0 = 256 */
    /* m example weights (non-negative, finite), or NULL: unweighted.  The
     * loss becomes sum_i w_i l_i (weighted.h), so the curve's train loss
     * is weighted; its train error stays the unweighted error rate. */
    const double *weights;
    /* Sparse test inputs (Xtest then gives only m and d), or NULL. */
    const struct bl_sparse *test_sparse;
} bl_boost_cfg;

/* Train on `train`; if Xtest is not NULL also track the test error on
 * (Xtest, ytest).  `model` must be initialised (bl_model_init) for the
 * weak plugin of cfg->algo; `curve` is filled (free with bl_curve_free). */
int bl_boost(const bl_boost_cfg *cfg, const struct bl_train *train,
             const struct bl_matrix *Xtest, const int *ytest, bl_model *model,
             bl_curve *curve, bl_error *err);

/* Append one (uninitialised) entry, growing every column. */
void bl_curve_push(bl_curve *c);
void bl_curve_free(bl_curve *c);

#endif

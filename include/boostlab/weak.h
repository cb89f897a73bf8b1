/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * boostlab plugin SDK: the weak-learner role.  Given the dual weights (the
 * loss's negative gradient) a weak learner returns the hypothesis that best
 * answers them, i.e. the most violated dual constraint, with its "edge".
 * A hypothesis outputs either one value per example (outdim 1; the engine
 * spreads it over classes with a coefficient row) or one value per class
 * (outdim k, e.g. vector trees).
 */
#ifndef BOOSTLAB_WEAK_H
#define BOOSTLAB_WEAK_H

#include "data.h"
#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the engine asks for in one boosting iteration. */
struct bl_fit_request {
    const double *G;   /* m x c dual weights, row-major (= -dL/dF)         */
    size_t c;          /* columns of G: k, or 1 for a binary problem       */
    const double *H;   /* m x c Hessian diagonal, or NULL if not available */
    uint64_t seed;     /* for randomised learners; same seed, same answer  */
};

/* What the weak learner answers. */
struct bl_fit_result {
    void *hyp;         /* new hypothesis, freed with free_hyp              */
    size_t outdim;     /* 1 or c                                          */
    double edge;       /* value of the dual constraint (>= 0); the engine
                          stops when it is <= nu + eps                    */
    double *out;       /* host-allocated m x c: fill with the hypothesis'
                          outputs on the training examples (m x outdim)   */
};

struct bl_weak_ops {
    /* New learner bound to one training set; precompute what it needs
     * (sort orders, histograms).  The training set outlives the learner. */
    void *(*create)(const struct bl_host *host, const union bl_value *params,
                    const struct bl_train *train, char err[BL_ERR_MAX]);
    void (*destroy)(void *self);

    /* Solve one weak-learning problem.  Returns 0, or -1 with err set. */
    int (*fit)(void *self, const struct bl_fit_request *req,
               struct bl_fit_result *res, char err[BL_ERR_MAX]);

    /* Hypotheses do not need the learner: they are predicted, saved and
     * loaded on their own (model files, boostlab predict). */
    size_t (*outdim)(const void *hyp);
    /* out is X->m x outdim, row-major. */
    void (*predict)(const void *hyp, const struct bl_matrix *X, double *out);
    /* One line of text without newline; returns the length it needs (like
     * snprintf), writing at most cap bytes. */
    int (*save)(const void *hyp, char *buf, size_t cap);
    /* Parse what save wrote; NULL with err set on a malformed line.  d is
     * the number of features of the model's data. */
    void *(*load)(const char *text, size_t d, char err[BL_ERR_MAX]);
    void (*free_hyp)(void *hyp);
};

#ifdef __cplusplus
}
#endif
#endif

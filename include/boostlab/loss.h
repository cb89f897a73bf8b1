/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * boostlab plugin SDK: the loss role.  A loss is a function of the score
 * matrix F (m x k, row-major: F[i*k + r] is the score of class r for
 * example i).  Its negative gradient -dL/dF is what the engine hands the
 * weak learner as "dual weights": for the margin losses of Shen et al. it
 * equals their edge weights c_ir, so the weak learner's best answer is the
 * most violated dual constraint.
 */
#ifndef BOOSTLAB_LOSS_H
#define BOOSTLAB_LOSS_H

#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

enum bl_hess_form {
    BL_HESS_DIAG = 1   /* out is m x k: d2L / dF_ir^2                       */
};

struct bl_loss_ops {
    /* New instance; params follow the descriptor's schema.  NULL on error,
     * with a message in err. */
    void *(*create)(const struct bl_host *host, const union bl_value *params,
                    char err[BL_ERR_MAX]);
    void (*destroy)(void *self);

    /* L(F); when grad is not NULL also dL/dF (m x k).  Must stay finite for
     * any finite F (use max-shifted log-sum-exp, log1p, etc.). */
    double (*eval)(void *self, const int *y, size_t m, size_t k,
                   const double *F, double *grad);

    /* Optional (may be NULL): second derivatives in the requested form.
     * Returns 0, or -1 if the form is not supported. */
    int (*hessian)(void *self, const int *y, size_t m, size_t k,
                   const double *F, enum bl_hess_form form, double *out);

    /* Optional fast path for the stage-wise row problem
     *     phi(w) = L(F + s w^T),  w in R^k,  s_i in {-1,+1}
     * Returns a prepared object (or NULL to let the host use eval) whose
     * row_eval gives phi(w) and its gradient in less than O(mk). */
    void *(*row_prepare)(void *self, const int *y, size_t m, size_t k,
                         const double *F, const double *s);
    double (*row_eval)(void *row, const double *w, double *grad);
    void (*row_free)(void *row);
};

#ifdef __cplusplus
}
#endif
#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The smooth objectives the engine hands a coefficient solver: the loss as
 * a function of the newest coefficient row (stage-wise) or of all rows
 * (totally corrective), with gradients by the chain rule through F.  In
 * code space (loss.h eval_coded) the same objectives run on the
 * code scores f (m x c) with the loss's eval_coded and targets Y: every
 * "k" below is then the number of code columns c.  A stage-wise row
 * objective on a loss's fast path also carries the loss's row Hessian
 * (loss.h row_hessian) for the solver, when the loss has one. */
#ifndef BL_ENGINE_OBJECTIVE_H
#define BL_ENGINE_OBJECTIVE_H

#include <boostlab/loss.h>
#include <boostlab/solver.h>
#include <stddef.h>

typedef struct bl_coefobj {
    const struct bl_loss_ops *ops;
    void *loss;
    const int *y;
    size_t m, k;
    /* stage-wise: F + s w^T, s is m x sdim (sdim 1 or k) */
    const double *F, *s;
    size_t sdim;
    void *fast;            /* loss's row fast path, when it offers one */
    bl_loss_row_hessian_fn row_hessian; /* its Hessian (bl_coefobj_objective) */
    /* totally corrective: F = sum_j out[j] (x) W[j] over t terms */
    size_t t;
    const double *const *out;
    const size_t *outdim;
    /* code space: eval_coded with targets Y (m x k) instead of eval with y */
    bl_loss_coded_fn coded;
    const double *Y;
    /* scratch, m x k each */
    double *Fw, *grad;
    long evals;
} bl_coefobj;

/* Row objective over w in R^k.  Uses the loss's fast path when sdim == 1
 * and the loss offers one. */
void bl_coefobj_row(bl_coefobj *o, const struct bl_loss_ops *ops, void *loss, const int *y,
                    size_t m, size_t k, const double *F, const double *s, size_t sdim,
                    double *scratch_Fw, double *scratch_grad);
/* All-rows objective over W in R^{t x k}. */
void bl_coefobj_all(bl_coefobj *o, const struct bl_loss_ops *ops, void *loss, const int *y,
                    size_t m, size_t k, size_t t, const double *const *out,
                    const size_t *outdim, double *scratch_Fw, double *scratch_grad);
/* The same two objectives in code space: f (m x c code scores), targets Y
 * (m x c), s / out m x sdim with sdim 1 or c.  No row fast path (row_prepare
 * is a class-space entry). */
void bl_coefobj_row_coded(bl_coefobj *o, const struct bl_loss_ops *ops, void *loss,
                          bl_loss_coded_fn coded, const double *Y, size_t m, size_t c,
                          const double *f, const double *s, size_t sdim, double *scratch_f,
                          double *scratch_grad);
void bl_coefobj_all_coded(bl_coefobj *o, const struct bl_loss_ops *ops, void *loss,
                          bl_loss_coded_fn coded, const double *Y, size_t m, size_t c, size_t t,
                          const double *const *out, const size_t *outdim, double *scratch_f,
                          double *scratch_grad);
double bl_coefobj_eval(void *ctx, const double *w, double *grad);
/* The Hessian of a row objective on the loss's fast path (row_hessian);
 * -1 when o has none. */
int bl_coefobj_hessian(void *ctx, const double *w, double *H);
/* The solver's view of o over n variables: eval bl_coefobj_eval, the given
 * bounds and nu, and hessian = bl_coefobj_hessian only when o is a row
 * objective on the fast path of a loss (plugin `loss`) that
 * provides row_hessian; NULL otherwise (eval path, totally corrective, code
 * space). */
void bl_coefobj_objective(bl_coefobj *o, const struct bl_plugin *loss, size_t n,
                          const double *lower, const double *upper, double nu,
                          struct bl_objective *obj);
void bl_coefobj_done(bl_coefobj *o);

/* F[i,:] += w ⊙ s[i] (s[i] a scalar when sdim == 1, a k-vector otherwise). */
void bl_add_term(double *F, size_t m, size_t k, const double *s, size_t sdim, const double *w);

#endif

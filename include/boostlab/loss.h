/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * boostlab plugin SDK: the loss role.  A loss is a function of the score
 * matrix F (m x k, row-major: F[i*k + r] is the score of class r for
 * example i).  Its negative gradient -dL/dF is what the engine hands the
 * weak learner as "dual weights": for the margin losses of Shen et al. it
 * equals their edge weights c_ir, so the weak learner's best answer is the
 * most violated dual constraint.  Besides eval, everything in the ops
 * table is optional: second derivatives for Newton-type weak learners, a
 * fast path for the stage-wise row problem, the loss on an output code's
 * scores (AdaBoost.MO), and pair weights and hinge targets for learned
 * codes (HingeBoost.OC, AdaBoost.ERP).
 */
#ifndef BOOSTLAB_LOSS_H
#define BOOSTLAB_LOSS_H

#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

enum bl_hess_form {
    BL_HESS_DIAG = 1,      /* out is m x k: d2L / dF_ir^2                   */
    BL_HESS_DIAG_RANK1 = 2 /* out is 2 m k: h (m x k) followed by u (m x k);
                              the whole k x k Hessian of example i is
                              H_rr = h_ir and H_rs = -u_ir u_is (r != s),
                              e.g. h = p (1 - p), u = p for the softmax
                              loss, u = 0 for a separable one            */
};

/* Types of the optional members below, for callers that keep them. */
typedef double (*bl_loss_coded_fn)(void *self, const double *Y, size_t m, size_t c,
                                   const double *f, double *grad);
typedef int (*bl_loss_row_hessian_fn)(void *row, const double *w, double *H);
typedef void (*bl_loss_pairs_fn)(void *self, const int *y, size_t m, size_t k, const double *F,
                                 double *P);
typedef int (*bl_loss_hinge_fn)(void *self, const int *y, size_t m, size_t k, const double *F,
                                const double *col, double *label, double *margin);
typedef double (*bl_loss_update_fn)(void *self, const int *y, size_t m, size_t k,
                                   const double *F, const uint32_t *moved, size_t nmoved,
                                   int hess, const double *d[3]);

struct bl_loss_ops {
    /* sizeof(struct bl_loss_ops) (plugin.h, "ops tables"). */
    size_t size;

    /* ---- lifetime -------------------------------------------------------- */
    /* New instance; params follow the descriptor's schema.  NULL on error,
     * with a message in err. */
    void *(*create)(const struct bl_host *host, const union bl_value *params,
                    char err[BL_ERR_MAX]);
    void (*destroy)(void *self);

    /* ---- class space ----------------------------------------------------- */
    /* Required.  L(F); when grad is not NULL also dL/dF (m x k).  Must stay
     * finite for any finite F (use max-shifted log-sum-exp, log1p, etc.). */
    double (*eval)(void *self, const int *y, size_t m, size_t k,
                   const double *F, double *grad);

    /* ---- second-order information for the weak learner ------------------- */
    /* Optional: second derivatives at F in the requested form (what a weak
     * learner that declares BL_NEEDS_HESSIAN gets, weak.h).  Returns 0, or
     * -1 if the form is not supported. */
    int (*hessian)(void *self, const int *y, size_t m, size_t k,
                   const double *F, enum bl_hess_form form, double *out);

    /* ---- stage-wise row problem (for coefficient solvers) ----------------- */
    /* Optional fast path for
     *     phi(w) = L(F + s w^T),  w in R^k,  s_i in {-1,+1}.
     * row_prepare returns a prepared object (or NULL to let the host use
     * eval) whose row_eval gives phi(w) and its gradient in less than
     * O(mk); row_free frees it.  row_eval and row_free are required when
     * row_prepare is there. */
    void *(*row_prepare)(void *self, const int *y, size_t m, size_t k,
                         const double *F, const double *s);
    double (*row_eval)(void *row, const double *w, double *grad);
    /* Optional: the Hessian of phi at w, k x k row-major, into H, with the
     * same normalisation as row_eval.  For a margin loss with s_i = +-1 it
     * is the weighted graph Laplacian
     *     sum_i sum_{r != y_i} l''(rho_ir) (e_{y_i} - e_r)(e_{y_i} - e_r)^T,
     * symmetric, positive semi-definite, with H 1 = 0.  Returns 0, or -1
     * when it is not available (for this row or this w): the caller then
     * does without.  Like row_eval, one caller at a time per row.  The host
     * hands it to a stage-wise solver as struct bl_objective.hessian
     * (solver.h). */
    bl_loss_row_hessian_fn row_hessian;
    void (*row_free)(void *row);

    /* ---- code space -------------------------------------------------------
     * Optional: the loss on code-space scores,
     *     L(f),  f m x c (f[i*c + l]: score of code column l on example i),
     * with targets Y (m x c, Y[i*c + l] = M[y_i][l], the code's entry of the
     * example's class: +-1 for binary codes, 0 = "ignore" for ternary ones,
     * in [-1, 1]).  When grad is not NULL also dL/df (m x c).  Must stay
     * finite for any finite f, like eval.
     *
     * An algorithm that has a coding and whose loss provides eval_coded
     * runs in code space.  The engine keeps f (m x c) instead of class
     * scores, hands the weak learner G = -dL/df as is (no G M), solves the
     * new term's coefficients (one per column; lbfgsb-line ties them to one
     * alpha) on
     *     phi(w) = L(f + h w^T),
     * and decodes linearly, class scores F = f M^T (Table VI's "coding
     * based (multi-label)" form) for errors and predictions; the curve's
     * train loss is L(f).  Because f accumulates per column, the code must
     * be fixed: the engine asks the coding for it every iteration and stops
     * with an error naming the coding and the loss if M ever changes.
     *
     * eval stays required: with no coding the loss runs in class space as
     * usual, and in code space the engine calls it once, at F = 0, for the
     * class-space dual weights it gives the coding's first code() call
     * (exactly what a class-space run passes; later calls get the code-space
     * weights pulled back to classes, -dL/df M^T).  hessian and row_* are
     * class-space only and are not used in code space. */
    bl_loss_coded_fn eval_coded;

    /* ---- learned codes and margin learners -------------------------------
     * Optional: P (m x k), how badly each pair (example i, wrong class r)
     * is handled, P[i*k + y_i] = 0: what an adaptive code colours by
     * (max-cut over classes, coding.h BL_CODING_PAIRS).  Without it the
     * host uses max(0, dL/dF_ir) for r != y_i, which for the exponential
     * margin losses is exactly their pair weight e^{F_ir - F_iy_i}/Z.  The
     * hinge loss gives its margin residuals rho_ir = cost(y_i, r) + F_ir -
     * F_iy_i instead (its gradient only sees each example's worst pair). */
    bl_loss_pairs_fn pair_weights;
    /* Optional: for a loss that is, per example, a hinge along a term whose
     * class outputs are col[r] s (col: k values), fill label[i] = +-1 and
     * margin[i] so that L_i(F + s col^T) = const_i + scale max(0, margin[i]
     * - label[i] s) for every real s (scale the same for all i).  Returns 0,
     * or -1 when that form does not hold for this column (e.g. a column
     * with zeros).  Feeds weak.h's label/margin. */
    bl_loss_hinge_fn hinge_targets;

    /* ---- lazy state --------------------------------------------------------
     * Optional: L(F), the loss keeping its own state from one call to the
     * next (the softmax keeps its shifted exps and each row's normaliser),
     * and the derivatives at F in arrays the loss owns, m x k each, valid
     * until the next update or destroy:
     *     d[0] = -dL/dF (the dual weights),
     *     d[1], d[2] = h and u of hessian's BL_HESS_DIAG_RANK1 form, when
     *                  hess is nonzero (else NULL).
     * moved (m x nmoved, padded with BL_MOVED_NONE, as weak.h's
     * bl_fit_result.moved) says where F may differ from the F of this
     * instance's previous update: only in the entries (i, moved[i nmoved +
     * j]).  moved NULL (always so in the first call): anywhere.  The loss
     * may then redo per row only what those entries change, but the value
     * and d must be bit for bit what eval and hessian give at F, and the
     * value's per-row terms summed by fixed chunks (parallel.h), so that a
     * run's curves do not depend on which path it takes nor on the thread
     * count.  The host calls it in class space, once per iteration at the
     * new scores, in place of eval and hessian (which it still calls for
     * other scores, e.g. line searches; they must not disturb this state).
     * NULL: the host calls eval and hessian as before. */
    bl_loss_update_fn update;
    /* Optional (2.2): update, with d[0..2] class-major, k x m each (d[0][q m
     * + i] = -dL/dF_iq), the very values update gives; the host calls it
     * instead of update for learners that ask for that layout (weak.h
     * BL_NEEDS_CLASS_MAJOR), each instance always through the same one.
     * NULL: the host transposes update's arrays. */
    bl_loss_update_fn update_class_major;
};

#ifdef __cplusplus
}
#endif
#endif

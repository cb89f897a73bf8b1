/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loss plugin "samme-exp": the multi-class exponential loss behind SAMME
 * (Zhu, Zou, Rosset & Hastie 2009, "Multi-class AdaBoost"; spec §7.2),
 *
 *     L(F) = sum_i exp(-(1/k) sum_r Ystar_ir F_ir),
 *     Ystar_ir = 1 if r = y_i, else -1/(k-1)
 *
 * (the label coded as a vector summing to 0).  With the exponent
 * z_i = -(1/k) sum_r Ystar_ir F_ir = -(F_{i,y_i} - mean_r F_ir)/(k-1) and
 * e_i = exp(z_i):
 *     dL/dF_ir = -(Ystar_ir / k) e_i,    d2L/dF_ir^2 = (Ystar_ir / k)^2 e_i,
 * the exact Hessian diagonal.  At F = 0, -dL/dF = Ystar_ir / k.
 *
 * SAMME's discrete algorithm is the stage-wise minimisation of this loss
 * over class outputs coded like Ystar; a line search of it along such a
 * term gives SAMME's alpha = log((1-err)/err) + log(k-1) times the constant
 * (k-1)^2/k, which leaves the argmax predictions unchanged.
 *
 * Overflow: as for mh-exp, a sum of exponentials has no shift that keeps it
 * finite, so every exponent z_i is clamped at
 *     C(m) = min(700, 709 - log m),
 * which keeps each term at most e^C and the sum at most e^709 < DBL_MAX:
 * value, gradient and Hessian are finite for any finite F.  Beyond the
 * clamp the loss saturates: value, gradient and Hessian entries are those
 * at z_i = C (the gradient does not vanish, so the weak learner still
 * weights the worst examples most); they are consistent only where no
 * exponent is clamped.
 *
 * No row fast path: the engine evaluates the row problem through eval.
 *
 * Threads (OpenMP, host->threads), with results bit-identical whatever
 * their number: fixed chunks of 2048 examples (boundaries depend on m
 * only), one slot per chunk, slots added in chunk order by one thread.
 */
#include <boostlab/boostlab.h>
#include <boostlab/parallel.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct samme {
    int nthreads; /* host->threads at create time (>= 1) */
};

static void *samme_create(const struct bl_host *host, const union bl_value *params,
                          char err[BL_ERR_MAX])
{
    (void)params;
    struct samme *L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    L->nthreads = host && host->threads > 0 ? host->threads : 1;
    return L;
}

static void samme_destroy(void *self)
{
    free(self);
}

/* The exponent clamp C(m). */
static double samme_clamp(size_t m)
{
    double c = 709.0 - log((double)m);
    return c < 700.0 ? c : 700.0;
}

/* Examples [i0, i1): returns the sum of e_i; grad (when not NULL) gets
 * -(Ystar/k) e_i, hess (when not NULL) (Ystar/k)^2 e_i. */
static double samme_chunk(const int *y, size_t k, const double *F, double *grad, double *hess,
                          double C, size_t i0, size_t i1)
{
    /* Ystar / k for r = y_i and r != y_i; for k = 1 there is no r != y_i */
    double ypos = 1.0 / (double)k;
    double yneg = k > 1 ? -1.0 / ((double)(k - 1) * (double)k) : 0.0;
    double S = 0.0;
    for (size_t i = i0; i < i1; i++) {
        const double *Fi = F + i * k;
        size_t yi = (size_t)y[i];
        double other = 0.0;
        for (size_t r = 0; r < k; r++)
            if (r != yi)
                other += Fi[r];
        double z = -(ypos * Fi[yi] + yneg * other);
        double e = exp(z < C ? z : C);
        S += e;
        if (grad)
            for (size_t r = 0; r < k; r++)
                grad[i * k + r] = -(r == yi ? ypos : yneg) * e;
        if (hess)
            for (size_t r = 0; r < k; r++) {
                double a = r == yi ? ypos : yneg;
                hess[i * k + r] = a * a * e;
            }
    }
    return S;
}

/* Chunk adapter for bl_chunked_sum (boostlab/parallel.h). */
struct samme_rows_ctx {
    const int *y;
    size_t k;
    const double *F;
    double *grad, *hess, arg;
};

static double samme_rows(void *ctx, size_t i0, size_t i1)
{
    const struct samme_rows_ctx *c = ctx;
    return samme_chunk(c->y, c->k, c->F, c->grad, c->hess, c->arg, i0, i1);
}

static double samme_pass(const struct samme *L, const int *y, size_t m, size_t k,
                         const double *F, double *grad, double *hess)
{
    if (m == 0 || k == 0)
        return 0.0;
    double C = samme_clamp(m);
    struct samme_rows_ctx ctx = {y, k, F, grad, hess, C};
    return bl_chunked_sum(m, L->nthreads, samme_rows, &ctx);
}

static double samme_eval(void *self, const int *y, size_t m, size_t k, const double *F,
                         double *grad)
{
    return samme_pass(self, y, m, k, F, grad, NULL);
}

/* Exact diagonal (Ystar_ir / k)^2 e_i, saturated at the clamp. */
static int samme_hessian(void *self, const int *y, size_t m, size_t k, const double *F,
                         enum bl_hess_form form, double *out)
{
    if (form != BL_HESS_DIAG)
        return -1;
    samme_pass(self, y, m, k, F, NULL, out);
    return 0;
}

/* ---- descriptor -------------------------------------------------------- */

static const struct bl_loss_ops samme_ops = {
    .size = sizeof(struct bl_loss_ops),
    .create = samme_create,
    .destroy = samme_destroy,
    .eval = samme_eval,
    .hessian = samme_hessian,
    .row_prepare = NULL,
    .row_eval = NULL,
    .row_free = NULL,
};

static const struct bl_plugin samme_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_LOSS,
    .name = "samme-exp",
    .doc = "SAMME's multi-class exponential loss sum_i exp(-(1/k) Ystar_i . F_i) (exponents clamped at 700)",
    .params = NULL,
    .nparams = 0,
    .ops = &samme_ops,
};

static const struct bl_plugin *const samme_plugins[] = {&samme_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return samme_plugins;
}

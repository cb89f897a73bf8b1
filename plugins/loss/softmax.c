/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loss plugin "softmax": the multi-class logistic (cross-entropy) loss
 *
 *     L(F) = sum_i [ log sum_r exp(F_ir) - F_{i,y_i} ]
 *          = sum_i log(1 + sum_{r != y_i} exp(F_ir - F_{i,y_i})),
 *
 * the loss of GradBoost (Duchi & Singer 2009) as the stage-wise spec
 * reconstructs it (spec §7.6: RECONSTRUCTION, not the authors' code; in
 * particular whether they average over the m examples is unknown, hence
 * the normalize parameter).  With p_ir = softmax_r(F_i.):
 *     dL/dF_ir = p_ir - [r = y_i],     d2L/dF_ir^2 = p_ir (1 - p_ir)
 * (exact diagonal), so -dL/dF = Y - P, which at F = 0 is Y_ir - 1/k.
 *
 * Stability: per example the log-sum-exp is shifted by the row maximum
 * F_ia (a = first argmax), e_r = exp(F_ir - F_ia) <= 1 with e_a = 1, and
 * S0 = sum_{r != a} e_r is accumulated apart, so that
 *     value_i = (F_ia - F_{i,y_i}) + log1p(S0),
 *     1 - p_a = S0 / (1 + S0),   1 - p_r = (1 + S0 - e_r) / (1 + S0) (r != a)
 * are accurate even when one class dominates (no 1 - p cancellation in the
 * gradient's r = y_i entry or in the Hessian).  Value, gradient and Hessian
 * are finite for any F whose within-row differences are finite.
 *
 * normalize = examples divides value, gradient and Hessian by m (the mean
 * over examples; GradBoost's regularisation grid 5e-7 ... 1e-1 suggests a
 * mean, since the sum's row gradients grow with m).  Default: the plain sum.
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

enum { P_NORMALIZE, P_COUNT };

static const struct bl_param_spec sm_params[P_COUNT] = {
    [P_NORMALIZE] = {"normalize", BL_PARAM_CHOICE, "none", 0, 0, "none|examples",
                     "divide the loss by 1 or by m (mean over examples); scales nu"},
};

struct sm {
    int normalize;
    int nthreads; /* host->threads at create time (>= 1) */
};

static void *sm_create(const struct bl_host *host, const union bl_value *params,
                       char err[BL_ERR_MAX])
{
    struct sm *L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    L->normalize = params ? params[P_NORMALIZE].choice : 0;
    L->nthreads = host && host->threads > 0 ? host->threads : 1;
    return L;
}

static void sm_destroy(void *self)
{
    free(self);
}

/* Examples [i0, i1), each scaled by sc: returns the sum of the values; grad
 * (when not NULL) gets p - Y, hess (when not NULL) p (1 - p). */
static double sm_chunk(const int *y, size_t k, const double *F, double *grad, double *hess,
                       double sc, size_t i0, size_t i1)
{
    double val = 0.0;
    for (size_t i = i0; i < i1; i++) {
        const double *Fi = F + i * k;
        size_t yi = (size_t)y[i], a = 0;
        for (size_t r = 1; r < k; r++)
            if (Fi[r] > Fi[a])
                a = r;
        double M = Fi[a], S0 = 0.0;
        for (size_t r = 0; r < k; r++)
            if (r != a)
                S0 += exp(Fi[r] - M);
        double S = 1.0 + S0;
        val += (M - Fi[yi]) + log1p(S0);
        if (!grad && !hess)
            continue;
        for (size_t r = 0; r < k; r++) {
            double e = r == a ? 1.0 : exp(Fi[r] - M);
            double p = e / S, q = (r == a ? S0 : S - e) / S; /* q = 1 - p */
            if (grad)
                grad[i * k + r] = sc * (r == yi ? -q : p);
            if (hess)
                hess[i * k + r] = sc * (p * q);
        }
    }
    return sc * val;
}

/* Chunk adapter for bl_chunked_sum (boostlab/parallel.h). */
struct sm_rows_ctx {
    const int *y;
    size_t k;
    const double *F;
    double *grad, *hess, arg;
};

static double sm_rows(void *ctx, size_t i0, size_t i1)
{
    const struct sm_rows_ctx *c = ctx;
    return sm_chunk(c->y, c->k, c->F, c->grad, c->hess, c->arg, i0, i1);
}

static double sm_pass(const struct sm *L, const int *y, size_t m, size_t k, const double *F,
                      double *grad, double *hess)
{
    if (m == 0 || k == 0)
        return 0.0;
    double sc = L->normalize == 1 ? 1.0 / (double)m : 1.0;
    struct sm_rows_ctx ctx = {y, k, F, grad, hess, sc};
    return bl_chunked_sum(m, L->nthreads, sm_rows, &ctx);
}

static double sm_eval(void *self, const int *y, size_t m, size_t k, const double *F,
                      double *grad)
{
    return sm_pass(self, y, m, k, F, grad, NULL);
}

/* Exact diagonal p (1 - p), with 1 - p computed without cancellation. */
static int sm_hessian(void *self, const int *y, size_t m, size_t k, const double *F,
                      enum bl_hess_form form, double *out)
{
    if (form != BL_HESS_DIAG)
        return -1;
    sm_pass(self, y, m, k, F, NULL, out);
    return 0;
}

/* ---- descriptor -------------------------------------------------------- */

static const struct bl_loss_ops sm_ops = {
    .create = sm_create,
    .destroy = sm_destroy,
    .eval = sm_eval,
    .hessian = sm_hessian,
    .row_prepare = NULL,
    .row_eval = NULL,
    .row_free = NULL,
};

static const struct bl_plugin sm_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_LOSS,
    .name = "softmax",
    .doc = "multi-class logistic (cross-entropy) loss sum_i [LSE(F_i) - F_iy] (GradBoost, reconstructed)",
    .params = sm_params,
    .nparams = P_COUNT,
    .ops = &sm_ops,
};

static const struct bl_plugin *const sm_plugins[] = {&sm_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return sm_plugins;
}

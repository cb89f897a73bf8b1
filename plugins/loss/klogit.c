/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loss plugin "klogit": the loss of K-LogitBoost (Sun, Reid & Zhou 2014,
 * §6), the logistic loss's max-entropy dual with the sum-to-one constraint
 * dropped.  With the link p_ik = exp(F_ik - 1) (their Table 1),
 *
 *     L(F) = sum_i [ sum_k exp(F_ik - 1) - F_{i,y_i} ],
 *     dL/dF_ik = p_ik - [k = y_i],     d2L/dF_ik dF_il = [k = l] p_ik,
 *
 * (spec §3.2, derived): the gradient is the logistic loss's, the Hessian is
 * exactly diagonal, so a vector tree gets exact Newton steps without any
 * pair or base-class choice.  L >= 0 and has no invariance to adding a
 * constant to a row, so the class scores are not sum-to-zero.
 *
 * Finite for any finite F: each exponent is capped at 700 - log(m k), so
 * that even the sum of all m k terms stays below ~1e304; that is far beyond
 * any score boosting with clamped leaves reaches.
 *
 * Threads (OpenMP, host->threads), bit-identical whatever their number: the
 * fixed chunks of boostlab/parallel.h.
 */
#include <boostlab/boostlab.h>
#include <boostlab/parallel.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kl {
    int nthreads;
};

static void *kl_create(const struct bl_host *host, const union bl_value *params,
                       char err[BL_ERR_MAX])
{
    (void)params;
    struct kl *L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    L->nthreads = host && host->threads > 0 ? host->threads : 1;
    return L;
}

static void kl_destroy(void *self)
{
    free(self);
}

struct kl_ctx {
    const int *y;
    size_t k;
    const double *F;
    double *grad, *hess;
    double cap; /* largest exponent used */
};

static double kl_rows(void *ctx, size_t i0, size_t i1)
{
    const struct kl_ctx *c = ctx;
    size_t k = c->k;
    double val = 0.0;
    for (size_t i = i0; i < i1; i++) {
        const double *Fi = c->F + i * k;
        size_t yi = (size_t)c->y[i];
        double s = 0.0;
        for (size_t r = 0; r < k; r++) {
            double p = exp(fmin(Fi[r] - 1.0, c->cap));
            s += p;
            if (c->grad)
                c->grad[i * k + r] = p - (r == yi);
            if (c->hess)
                c->hess[i * k + r] = p;
        }
        val += s - Fi[yi];
    }
    return val;
}

static double kl_eval(void *self, const int *y, size_t m, size_t k, const double *F,
                      double *grad)
{
    const struct kl *L = self;
    struct kl_ctx ctx = {y, k, F, grad, NULL, 700.0 - log((double)(m * k) + 1.0)};
    return m ? bl_chunked_sum(m, L->nthreads, kl_rows, &ctx) : 0.0;
}

/* Diagonal p; in the rank-one form the off-diagonal part is zero. */
static int kl_hessian(void *self, const int *y, size_t m, size_t k, const double *F,
                      enum bl_hess_form form, double *out)
{
    const struct kl *L = self;
    if (form != BL_HESS_DIAG && form != BL_HESS_DIAG_RANK1)
        return -1;
    struct kl_ctx ctx = {y, k, F, NULL, out, 700.0 - log((double)(m * k) + 1.0)};
    if (m)
        bl_chunked_sum(m, L->nthreads, kl_rows, &ctx);
    if (form == BL_HESS_DIAG_RANK1) /* no off-diagonal part */
        memset(out + m * k, 0, m * k * sizeof *out);
    return 0;
}

static const struct bl_loss_ops kl_ops = {
    .size = sizeof(struct bl_loss_ops),
    .create = kl_create,
    .destroy = kl_destroy,
    .eval = kl_eval,
    .hessian = kl_hessian,
};

static const struct bl_plugin kl_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_LOSS,
    .name = "klogit",
    .doc = "K-LogitBoost loss sum_i [sum_k exp(F_ik - 1) - F_iy]: logistic gradient, diagonal Hessian",
    .params = NULL,
    .nparams = 0,
    .ops = &kl_ops,
};

static const struct bl_plugin *const kl_plugins[] = {&kl_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return kl_plugins;
}

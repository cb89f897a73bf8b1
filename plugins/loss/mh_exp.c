/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loss plugin "mh-exp": the loss AdaBoost.MH minimises (Schapire & Singer
 * 1999; spec §7.3),
 *
 *     L(F) = sum_i sum_r exp(-Y_ir F_ir),   Y_ir = +1 if r = y_i, else -1,
 *
 * i.e. k independent one-vs-all exponential losses on the class scores.
 * With e_ir = exp(-Y_ir F_ir):
 *     dL/dF_ir = -Y_ir e_ir,      d2L/dF_ir^2 = e_ir   (exact diagonal;
 * the Hessian is diagonal, each F_ir appears in one term only),
 * so -dL/dF = Y_ir e_ir is AdaBoost.MH's weight D(i,r) times the label
 * Y_ir, up to the normalisation D = e / sum(e).  At F = 0 it is Y_ir.
 *
 * Overflow.  There is no shift that keeps a plain sum of exponentials
 * finite (the loss is not a log-sum-exp), and a value of +inf is not
 * acceptable to the engine, so every exponent -Y_ir F_ir is clamped at
 *     C(m, k) = min(700, 709 - log(m k))
 * (700 for up to about 8100 pairs): each term is then at most e^C and the
 * sum of the m k terms at most e^709 < DBL_MAX, so the value, gradient and
 * Hessian are finite for any finite F.  Beyond the clamp the loss
 * saturates: the value is that of the exponent at C, and so are the
 * gradient and Hessian entries (-Y_ir e^C and e^C, not 0), so that the
 * weak learner still gives the worst pairs the largest weight.  Value and
 * gradient are consistent only where no exponent is clamped, i.e. for
 * |F_ir| < C; boosting reaches the clamp only after it has diverged.
 *
 * No row fast path: the engine evaluates the row problem through eval
 * (AdaBoost.MH's vote stumps have one output per class anyway).
 *
 * Threads (OpenMP, host->threads), with results bit-identical whatever
 * their number: eval runs over fixed chunks of 2048 examples (boundaries
 * depend on m only), each chunk's partial sum goes to its own slot and the
 * slots are added in chunk order by one thread.
 */
#include <boostlab/boostlab.h>
#include <boostlab/parallel.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct mh {
    int nthreads; /* host->threads at create time (>= 1) */
};

static void *mh_create(const struct bl_host *host, const union bl_value *params,
                       char err[BL_ERR_MAX])
{
    (void)params;
    struct mh *L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    L->nthreads = host && host->threads > 0 ? host->threads : 1;
    return L;
}

static void mh_destroy(void *self)
{
    free(self);
}

/* The exponent clamp C(m, k) (see the header comment). */
static double mh_clamp(size_t m, size_t k)
{
    double c = 709.0 - log((double)m * (double)k);
    return c < 700.0 ? c : 700.0;
}

/* exp(min(-Y F, C)) */
static inline double mh_term(double Y, double f, double C)
{
    double z = -Y * f;
    return exp(z < C ? z : C);
}

/* Sum of the terms of examples [i0, i1); grad (when not NULL) gets
 * -Y e per pair, hess (when not NULL) e per pair. */
static double mh_chunk(const int *y, size_t k, const double *F, double *grad, double *hess,
                       double C, size_t i0, size_t i1)
{
    double S = 0.0;
    for (size_t i = i0; i < i1; i++) {
        const double *Fi = F + i * k;
        size_t yi = (size_t)y[i];
        for (size_t r = 0; r < k; r++) {
            double Y = r == yi ? 1.0 : -1.0, e = mh_term(Y, Fi[r], C);
            S += e;
            if (grad)
                grad[i * k + r] = -Y * e;
            if (hess)
                hess[i * k + r] = e;
        }
    }
    return S;
}

/* The value, and grad / hess when they are not NULL, in one chunked pass. */
/* Chunk adapter for bl_chunked_sum (boostlab/parallel.h). */
struct mh_rows_ctx {
    const int *y;
    size_t k;
    const double *F;
    double *grad, *hess, arg;
};

static double mh_rows(void *ctx, size_t i0, size_t i1)
{
    const struct mh_rows_ctx *c = ctx;
    return mh_chunk(c->y, c->k, c->F, c->grad, c->hess, c->arg, i0, i1);
}

static double mh_pass(const struct mh *L, const int *y, size_t m, size_t k, const double *F,
                      double *grad, double *hess)
{
    if (m == 0 || k == 0)
        return 0.0;
    double C = mh_clamp(m, k);
    struct mh_rows_ctx ctx = {y, k, F, grad, hess, C};
    return bl_chunked_sum(m, L->nthreads, mh_rows, &ctx);
}

static double mh_eval(void *self, const int *y, size_t m, size_t k, const double *F,
                      double *grad)
{
    return mh_pass(self, y, m, k, F, grad, NULL);
}

/* Exact diagonal (the Hessian is diagonal): e_ir, saturated at e^C. */
static int mh_hessian(void *self, const int *y, size_t m, size_t k, const double *F,
                      enum bl_hess_form form, double *out)
{
    if (form != BL_HESS_DIAG)
        return -1;
    mh_pass(self, y, m, k, F, NULL, out);
    return 0;
}

/* ---- descriptor -------------------------------------------------------- */

static const struct bl_loss_ops mh_ops = {
    .size = sizeof(struct bl_loss_ops),
    .create = mh_create,
    .destroy = mh_destroy,
    .eval = mh_eval,
    .hessian = mh_hessian,
    .row_prepare = NULL,
    .row_eval = NULL,
    .row_free = NULL,
};

static const struct bl_plugin mh_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_LOSS,
    .name = "mh-exp",
    .doc = "AdaBoost.MH's loss sum_ir exp(-Y_ir F_ir), Y_ir = +-1 one-vs-all (exponents clamped at 700)",
    .params = NULL,
    .nparams = 0,
    .ops = &mh_ops,
};

static const struct bl_plugin *const mh_plugins[] = {&mh_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return mh_plugins;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loss plugin "margin-log": the logistic multi-class margin loss of
 * Paisitkriangkrai, Shen & van den Hengel (spec §2.3, (7) and (14)):
 *
 *     L(F) = sum_i sum_r softplus(-rho_ir + o),   rho_ir = F[i,y_i] - F[i,r],
 *
 * with o = 0 by default.  The r = y_i terms (log 2 each at o = 0) are kept
 * in the value.  With q_ir = sigma(-rho_ir + o) (KKT relation (12)) the
 * gradient is dL/dF_ir = q_ir (r != y_i), dL/dF_{i,y_i} = -sum_{r != y_i} q_ir,
 * so -dL/dF is the edge weight c_ir of spec §2.4 with U = q.
 *
 * literal_init = true sets o = -log(m k): the paper's literal u^0 = 1/(mk)
 * inside (14), log(1 + u^0 exp(-rho)) = softplus(-rho - log(mk)), i.e. all
 * margins start at log(mk) instead of 0 (spec §3.3, §12.3).
 *
 * softplus and sigmoid use the stable forms of spec §3.8.  There is no
 * aggregation trick for this loss (spec §3.4), so no row fast path.
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const struct bl_host *g_host;

enum { P_LITERAL_INIT, P_COUNT };

static const struct bl_param_spec mlog_params[P_COUNT] = {
    [P_LITERAL_INIT] = {"literal_init", BL_PARAM_BOOL, "false", 0, 0, NULL,
                        "offset every margin by log(m*k): the paper's literal u0 = 1/(mk) in (14)"},
};

struct mlog {
    int literal_init;
};

static void *mlog_create(const struct bl_host *host, const union bl_value *params,
                         char err[BL_ERR_MAX])
{
    struct mlog *L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    L->literal_init = params ? params[P_LITERAL_INIT].b : 0;
    if (L->literal_init && host && host->log)
        host->log(2, "margin-log", "literal_init: every margin starts at log(m*k)");
    return L;
}

static void mlog_destroy(void *self)
{
    free(self);
}

/* log(1 + e^z) without overflow, accurate for very negative z. */
static inline double softplus(double z)
{
    return fmax(z, 0.0) + log1p(exp(-fabs(z)));
}

/* 1 / (1 + e^-z), two branches so exp never overflows. */
static inline double sigmoid(double z)
{
    if (z >= 0.0)
        return 1.0 / (1.0 + exp(-z));
    double e = exp(z);
    return e / (1.0 + e);
}

static double mlog_offset(const struct mlog *L, size_t m, size_t k)
{
    return L->literal_init ? -log((double)m * (double)k) : 0.0;
}

static double mlog_eval(void *self, const int *y, size_t m, size_t k,
                        const double *F, double *grad)
{
    const struct mlog *L = self;
    if (m == 0 || k == 0)
        return 0.0;
    double o = mlog_offset(L, m, k), val = 0.0;
    for (size_t i = 0; i < m; i++) {
        const double *Fi = F + i * k, fy = Fi[y[i]];
        size_t yi = (size_t)y[i];
        double tot = 0.0;
        for (size_t r = 0; r < k; r++) {
            double z = Fi[r] - fy + o;
            val += softplus(z);
            if (grad && r != yi) {
                double q = sigmoid(z);
                grad[i * k + r] = q;
                tot += q;
            }
        }
        if (grad)
            grad[i * k + yi] = -tot;
    }
    return val;
}

/* Exact diagonal: q_ir (1 - q_ir) for r != y_i (the r-th term alone depends
 * on F_ir) and sum_{r != y_i} q_ir (1 - q_ir) for r = y_i.  q (1 - q) is
 * computed as sigma(z) sigma(-z) so that it stays accurate in both tails. */
static int mlog_hessian(void *self, const int *y, size_t m, size_t k,
                        const double *F, enum bl_hess_form form, double *out)
{
    const struct mlog *L = self;
    if (form != BL_HESS_DIAG)
        return -1;
    double o = mlog_offset(L, m, k);
    for (size_t i = 0; i < m; i++) {
        const double *Fi = F + i * k, fy = Fi[y[i]];
        size_t yi = (size_t)y[i];
        double tot = 0.0;
        for (size_t r = 0; r < k; r++) {
            if (r == yi)
                continue;
            double z = Fi[r] - fy + o;
            double v = sigmoid(z) * sigmoid(-z);
            out[i * k + r] = v;
            tot += v;
        }
        out[i * k + yi] = tot;
    }
    return 0;
}

static const struct bl_loss_ops mlog_ops = {
    .create = mlog_create,
    .destroy = mlog_destroy,
    .eval = mlog_eval,
    .hessian = mlog_hessian,
    .row_prepare = NULL, /* O(mk) per evaluation anyway: the host uses eval */
    .row_eval = NULL,
    .row_free = NULL,
};

static const struct bl_plugin mlog_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_LOSS,
    .name = "margin-log",
    .doc = "logistic multi-class margin loss sum_ir log(1 + exp(-rho_ir)) (MCBoost-log, eq. (7)/(14))",
    .params = mlog_params,
    .nparams = P_COUNT,
    .ops = &mlog_ops,
};

static const struct bl_plugin *const mlog_plugins[] = {&mlog_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    g_host = host;
    return mlog_plugins;
}

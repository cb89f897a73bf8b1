/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loss plugin "my-loss", started from boostlab's loss template: the soft
 * hinge (logistic) multi-class margin loss
 *
 *     L(F) = sum_i sum_{r != y_i} log(1 + exp(mu - rho_ir)),
 *     rho_ir = F[i,y_i] - F[i,r]   (how far class y_i beats class r),
 *
 * with mu = the parameter `margin`: a smooth version of the hinge
 * max(0, mu - rho_ir), convex, and nearly 0 once rho_ir is well above mu.
 * With x = mu - rho_ir and sigma(x) = 1/(1 + exp(-x)) its gradient is
 *
 *     dL/dF_ir      =  sigma(x_ir)                    (r != y_i)
 *     dL/dF_{i,y_i} = -sum_{r != y_i} sigma(x_ir)
 *
 * The engine hands -dL/dF to the weak learner as its dual weights.  A loss
 * must stay finite for every finite F: both terms are computed from
 * exp(-|x|), which lies in (0, 1] and so never overflows.
 *
 * Build:  make   (or: cc -shared -fPIC $(pkg-config --cflags boostlab) my_loss.c -o my_loss.so)
 * Check:  boostlab check-plugin ./my_loss.so
 * Use:    BOOSTLAB_PLUGIN_PATH=$PWD/my_loss.so, then `loss = my-loss` in an experiment.
 * The contract of a loss is in <boostlab/loss.h> and docs/sdk.md.
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Parameters: the host parses and range-checks `loss.margin = ...` against
 * this table and hands create() the values in this order. */
enum { P_MARGIN, P_COUNT };
static const struct bl_param_spec my_loss_params[P_COUNT] = {
    [P_MARGIN] = {"margin", BL_PARAM_REAL, "1", 0, 1e6, NULL,
                  "margin mu the pairwise margins rho_ir are pushed beyond"},
};

/* One instance per training run: keep the parameters (and any buffers). */
struct my_loss {
    double margin;
};

static void *my_loss_create(const struct bl_host *host, const union bl_value *params,
                            char err[BL_ERR_MAX])
{
    (void)host; /* host->log and host->threads are there if you need them */
    struct my_loss *L = malloc(sizeof *L);
    if (!L) {
        snprintf(err, BL_ERR_MAX, "out of memory"); /* errors go back, never to stdout */
        return NULL;
    }
    L->margin = params[P_MARGIN].r;
    return L;
}

static void my_loss_destroy(void *self)
{
    free(self);
}

/* L(F) and, when grad is not NULL, dL/dF (m x k, row-major like F). */
static double my_loss_eval(void *self, const int *y, size_t m, size_t k, const double *F,
                           double *grad)
{
    const struct my_loss *L = self;
    double sum = 0.0;
    for (size_t i = 0; i < m; i++) {
        const double *Fi = F + i * k;
        size_t yi = (size_t)y[i];
        double gy = 0.0;
        for (size_t r = 0; r < k; r++) {
            if (r == yi)
                continue;
            double x = L->margin - (Fi[yi] - Fi[r]); /* mu - rho_ir */
            double e = exp(-fabs(x));
            double p = x > 0.0 ? 1.0 / (1.0 + e) : e / (1.0 + e); /* sigma(x) */
            sum += (x > 0.0 ? x : 0.0) + log1p(e);               /* log(1 + e^x) */
            if (grad)
                grad[i * k + r] = p;
            gy -= p;
        }
        if (grad)
            grad[i * k + yi] = gy;
    }
    return sum;
}

/* The ops table: size tells the host which members this build of the
 * table has (always sizeof its struct).  Members left out are NULL, "not
 * provided": here hessian and the row fast path (the engine then evaluates
 * the whole loss), the code-space form eval_coded, pair weights and hinge
 * targets. */
static const struct bl_loss_ops my_loss_ops = {
    .size = sizeof(struct bl_loss_ops),
    .create = my_loss_create,
    .destroy = my_loss_destroy,
    .eval = my_loss_eval,
};

static const struct bl_plugin my_loss_plugin = {
    .sdk_version = BL_SDK_VERSION, /* the loader refuses other majors */
    .role = BL_ROLE_LOSS,
    .name = "my-loss",             /* what experiments write: loss = my-loss */
    .doc = "soft hinge (logistic) margin loss sum_i sum_{r != y_i} log(1 + exp(mu - rho_ir))",
    .params = my_loss_params,
    .nparams = P_COUNT,
    .ops = &my_loss_ops,
};

static const struct bl_plugin *const my_loss_plugins[] = {&my_loss_plugin, NULL};

/* The one exported symbol: the list of plugins this file carries. */
BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return my_loss_plugins;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Solver plugin "eps-step" (scope BL_SOLVE_ROW, space BL_SPACE_STEP): the
 * coefficient rule of forward stage-wise ("epsilon") boosting, as the
 * stage-wise MCBoost paper uses it for its Fig. 1 (§III-B, spec §5.1):
 * "instead of solving (13) or (14), we set the weak learner's coefficient
 * of the selected class in (10) to be 0.01 and the weak learner's
 * coefficient of other classes to be 0" (after Rosset, Zhu and Hastie,
 * JMLR 5, 2004).
 *
 * It does not minimise.  From the start point w0 (0 from the engine) it
 * takes the gradient g of f + nu sum(w) there and moves ONE coordinate,
 *
 *     j* = argmax_j |g_j|  over the coordinates the bounds let descend
 *          (g_j < 0 and w0_j < upper_j, or g_j > 0 and w0_j > lower_j),
 *     w_j* = clip(w0_j* - step sign(g_j*), lower_j*, upper_j*),
 *
 * ties to the lowest j; w = w0 when no coordinate descends.  For the new
 * row of a margin loss, -g_r = sum_i G_ir h(x_i) - nu is the stump's score
 * of class r (architecture.md, step 1), so j* is exactly the class the
 * weak learner selected by rule (10) (up to ties), and with the engine's
 * bounds w >= 0 the row becomes step * e_{j*}: the l1 norm of the model
 * grows by exactly `step` each iteration.  Run it with shrinkage = 1
 * (configs/eps-boost-*.ini).
 *
 * One evaluation of f; bl_solve_info.objective is f + nu sum(w) at the
 * returned w, which costs a second one (skipped when w did not move).
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { P_STEP, P_COUNT };

static const struct bl_param_spec es_params[P_COUNT] = {
    [P_STEP] = {"step", BL_PARAM_REAL, "0.01", 1e-12, 1e6, NULL,
                "the fixed step epsilon added to the steepest coordinate"},
};

struct es {
    double step;
    size_t cap;
    double *g; /* gradient, grown to the largest n seen */
};

static void es_destroy(void *self)
{
    struct es *S = self;
    if (!S)
        return;
    free(S->g);
    free(S);
}

static void *es_create(const struct bl_host *host, const union bl_value *params,
                       char err[BL_ERR_MAX])
{
    (void)host;
    struct es *S = calloc(1, sizeof *S);
    if (!S) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    S->step = params ? params[P_STEP].r : 0.01;
    if (!(S->step > 0) || !isfinite(S->step)) {
        snprintf(err, BL_ERR_MAX, "step must be a positive finite number, not %g", S->step);
        free(S);
        return NULL;
    }
    return S;
}

static double linear_sum(const double *w, size_t n)
{
    double s = 0.0;
    for (size_t j = 0; j < n; j++)
        s += w[j];
    return s;
}

static int es_solve(void *self, const struct bl_objective *obj, double *w,
                    struct bl_solve_info *info, char err[BL_ERR_MAX])
{
    struct es *S = self;
    size_t n = obj->n;
    if (n > S->cap) {
        double *g = realloc(S->g, n * sizeof *g);
        if (!g) {
            snprintf(err, BL_ERR_MAX, "out of memory (%zu variables)", n);
            return -1;
        }
        S->g = g, S->cap = n;
    }
    double *g = S->g;
    double f = obj->eval(obj->ctx, w, g);
    if (!isfinite(f)) {
        snprintf(err, BL_ERR_MAX, "the objective is not finite at the start (%g)", f);
        return -1;
    }
    size_t best = n;
    double top = 0.0;
    for (size_t j = 0; j < n; j++) {
        double gj = g[j] + obj->nu;
        int can = gj < 0 ? w[j] < obj->upper[j] : gj > 0 ? w[j] > obj->lower[j] : 0;
        if (can && fabs(gj) > top) /* strict: ties stay with the lowest j */
            top = fabs(gj), best = j;
    }
    int evals = 1;
    if (best < n) {
        double gj = g[best] + obj->nu;
        double v = w[best] - (gj < 0 ? -S->step : S->step);
        w[best] = fmin(fmax(v, obj->lower[best]), obj->upper[best]);
        f = obj->eval(obj->ctx, w, NULL);
        evals++;
    }
    info->iterations = best < n;
    info->evaluations = evals;
    info->status = BL_SOLVE_CONVERGED;
    info->objective = f + obj->nu * linear_sum(w, n);
    return 0;
}

static const struct bl_solver_ops es_ops = {
    .size = sizeof(struct bl_solver_ops),
    .scope = BL_SOLVE_ROW,
    .space = BL_SPACE_STEP,
    .create = es_create,
    .destroy = es_destroy,
    .solve = es_solve,
};

static const struct bl_plugin es_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_SOLVER,
    .name = "eps-step",
    .doc = "forward stage-wise (epsilon-boosting) step: adds step to the steepest coordinate "
           "of the row, no minimisation (stage-wise MCBoost Fig. 1)",
    .params = es_params,
    .nparams = P_COUNT,
    .ops = &es_ops,
};

static const struct bl_plugin *const es_plugins[] = {&es_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return es_plugins;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Solver plugin "my-solver", started from boostlab's solver template:
 * projected gradient descent with backtracking for the engine's
 * coefficient step
 *
 *     min  Phi(w) = f(w) + nu * sum(w)   subject to  lower <= w <= upper.
 *
 * One iteration, from w with gradient g = grad f(w) + nu:
 *     w+ = P(w - t g)          (P clips to the bounds)
 * accepted when it decreases Phi enough (the usual test for projected
 * steps, which holds for small t whenever f is smooth):
 *     Phi(w+) <= Phi(w) + g.(w+ - w) + |w+ - w|^2 / (2t),
 * otherwise t is halved and the step retried.  After an accepted step t is
 * doubled, so the step size follows the curvature up as well as down.
 * It stops when the step's length |w+ - w|_inf / t (the projected gradient:
 * the gradient without the components the bounds block) is at most `tol`,
 * or after `max_iter` iterations.  Scope ROW: the engine hands it the
 * newest coefficient row (stage-wise boosting); with BL_SOLVE_ALL it would
 * get every row, warm-started (totally corrective boosting).
 *
 * Build:  make   (or: cc -shared -fPIC $(pkg-config --cflags boostlab) my_solver.c -o my_solver.so)
 * Check:  boostlab check-plugin ./my_solver.so
 * Use:    BOOSTLAB_PLUGIN_PATH=$PWD/my_solver.so, then `solver = my-solver` in an experiment.
 * The contract of a solver is in <boostlab/solver.h> and docs/sdk.md.
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { P_MAX_ITER, P_TOL, P_COUNT };
static const struct bl_param_spec my_solver_params[P_COUNT] = {
    [P_MAX_ITER] = {"max_iter", BL_PARAM_INT, "200", 1, 1e9, NULL,
                    "most gradient steps per solve"},
    [P_TOL] = {"tol", BL_PARAM_REAL, "1e-6", 0, 1, NULL,
               "stop when the projected gradient's largest entry is at most this"},
};

struct my_solver {
    int max_iter;
    double tol;
    size_t cap;           /* work buffers, grown to the largest n seen */
    double *g, *trial, *gtrial;
};

static void my_solver_destroy(void *self)
{
    struct my_solver *S = self;
    if (!S)
        return;
    free(S->g);
    free(S->trial);
    free(S->gtrial);
    free(S);
}

static void *my_solver_create(const struct bl_host *host, const union bl_value *params,
                              char err[BL_ERR_MAX])
{
    (void)host;
    struct my_solver *S = calloc(1, sizeof *S);
    if (!S) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    S->max_iter = (int)params[P_MAX_ITER].i;
    S->tol = params[P_TOL].r;
    return S;
}

static int my_solver_reserve(struct my_solver *S, size_t n)
{
    if (n <= S->cap)
        return 0;
    free(S->g);
    free(S->trial);
    free(S->gtrial);
    S->g = malloc(n * sizeof *S->g);
    S->trial = malloc(n * sizeof *S->trial);
    S->gtrial = malloc(n * sizeof *S->gtrial);
    S->cap = S->g && S->trial && S->gtrial ? n : 0;
    return S->cap ? 0 : -1;
}

static double clip(const struct bl_objective *obj, size_t j, double v)
{
    if (obj->lower && v < obj->lower[j])
        v = obj->lower[j];
    if (obj->upper && v > obj->upper[j])
        v = obj->upper[j];
    return v;
}

/* Phi(w) = f(w) + nu sum(w); grad (when not NULL) gets grad f + nu. */
static double phi(const struct bl_objective *obj, const double *w, double *grad)
{
    double v = obj->eval(obj->ctx, w, grad);
    for (size_t j = 0; j < obj->n; j++) {
        v += obj->nu * w[j];
        if (grad)
            grad[j] += obj->nu;
    }
    return v;
}

static int my_solver_solve(void *self, const struct bl_objective *obj, double *w,
                           struct bl_solve_info *info, char err[BL_ERR_MAX])
{
    struct my_solver *S = self;
    size_t n = obj->n;
    struct bl_solve_info unused;
    if (!info)
        info = &unused;
    *info = (struct bl_solve_info){0, 0, BL_SOLVE_MAXITER, 0.0};
    if (my_solver_reserve(S, n) < 0) {
        snprintf(err, BL_ERR_MAX, "out of memory for %zu variables", n);
        return -1;
    }
    for (size_t j = 0; j < n; j++) /* start inside the bounds */
        w[j] = clip(obj, j, w[j]);
    double F = phi(obj, w, S->g), t = 1.0;
    info->evaluations = 1;
    if (!isfinite(F)) {
        snprintf(err, BL_ERR_MAX, "the objective is %g at the start point", F);
        return -1;
    }
    while (info->iterations < S->max_iter) {
        double Ft = HUGE_VAL, step = 0.0, lin = 0.0, sq = 0.0;
        for (;;) { /* backtracking: halve t until the decrease test holds */
            step = lin = sq = 0.0;
            for (size_t j = 0; j < n; j++) {
                S->trial[j] = clip(obj, j, w[j] - t * S->g[j]);
                double dj = S->trial[j] - w[j];
                lin += S->g[j] * dj;
                sq += dj * dj;
                if (fabs(dj) > step)
                    step = fabs(dj);
            }
            if (step == 0.0)
                break; /* w is stationary: the gradient points out of the box */
            Ft = phi(obj, S->trial, S->gtrial);
            info->evaluations++;
            if (Ft <= F + lin + sq / (2.0 * t))
                break;
            if ((t *= 0.5) < 1e-20) {
                info->status = BL_SOLVE_STALLED;
                info->objective = F;
                return 0;
            }
        }
        if (step == 0.0) {
            info->status = BL_SOLVE_CONVERGED;
            break;
        }
        info->iterations++;
        memcpy(w, S->trial, n * sizeof *w);
        memcpy(S->g, S->gtrial, n * sizeof *S->g);
        F = Ft;
        if (step / t <= S->tol) {
            info->status = BL_SOLVE_CONVERGED;
            break;
        }
        t *= 2.0;
    }
    info->objective = F;
    return 0;
}

static const struct bl_solver_ops my_solver_ops = {
    .size = sizeof(struct bl_solver_ops),
    .scope = BL_SOLVE_ROW, /* BL_SOLVE_ALL for a totally corrective solver */
    .create = my_solver_create,
    .destroy = my_solver_destroy,
    .solve = my_solver_solve,
};

static const struct bl_plugin my_solver_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_SOLVER,
    .name = "my-solver", /* what experiments write: solver = my-solver */
    .doc = "projected gradient descent with backtracking on f(w) + nu*sum(w) within bounds",
    .params = my_solver_params,
    .nparams = P_COUNT,
    .ops = &my_solver_ops,
};

static const struct bl_plugin *const my_solver_plugins[] = {&my_solver_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return my_solver_plugins;
}

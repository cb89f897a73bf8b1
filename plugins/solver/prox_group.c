/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Solver plugin "prox-group" (scope BL_SOLVE_ROW): GradBoost's row step
 * (Duchi & Singer 2009, "Boosting with structural sparsity") as the
 * stage-wise spec reconstructs it (spec §7.6: RECONSTRUCTION, not the
 * authors' code).  It minimises the smooth part plus the group (l1/l2)
 * penalty on the new coefficient row,
 *
 *     min  f(w) + lambda * ||w||_2   within the bounds,
 *
 * NOTE: lambda is the objective's `nu` field.  solver.h documents nu as the
 * weight of the linear term nu * sum(w) (the l1 penalty under w >= 0); this
 * solver reads it as the group-lasso weight lambda instead and adds no
 * linear term.  The engine passes the algorithm's `nu` there, so with this
 * solver the recipe's nu is GradBoost's lambda.  bl_solve_info.objective is
 * likewise f(w) + lambda * ||w||_2.
 *
 * Method: proximal gradient (ISTA) with backtracking, from the start point
 * the engine gives (w = 0), each step
 *
 *     v = w - g / L,   w+ = P( max(0, 1 - lambda / (L ||P v||_2)) P v ),
 *
 * with g = grad f(w) and P the projection onto the bounds.  L starts at the
 * parameter `lipschitz`, or, when that is 0, at the secant estimate
 * ||grad f(w1) - grad f(w)|| / ||w1 - w|| from a first gradient step
 * w1 = P(w - g / ||g||) (1 when that is not a positive finite number); it
 * is doubled until the quadratic upper bound
 *     f(w+) <= f(w) + g.(w+ - w) + L/2 ||w+ - w||^2
 * holds (up to a rounding slack of 16 eps |f(w)|), and kept for the next
 * step.  It stops when ||w+ - w|| <= tol (1 + ||w+||) (converged), after
 * max_iter steps, or when L exceeds 1e300 without the bound holding
 * (stalled; the last accepted iterate stands).  With max_iter = 1 and
 * lipschitz = c this is exactly the spec's one closed-form step
 * w = max(0, 1 - lambda/(c ||v||)) v, v = -g/c (c = m/2 there).
 *
 * Bounds.  The engine's bounds are w >= 0 (nonneg = true) or none.  With
 * w >= 0, v is projected onto w >= 0 BEFORE the group shrink and the result
 * is projected again after it (a no-op there, since the shrink only scales):
 * shrink(P v) is the exact proximal map of lambda ||w||_2 + [w >= 0], while
 * shrink-then-project is not (on f = 1/2 ||w - b||^2 its fixed point is
 * max(0, 1 - lambda/||b||) b+ instead of the minimiser
 * max(0, 1 - lambda/||b+||) b+).  The map is exact whenever every bound is
 * 0 or infinite, so other bounds are refused (for boxes it would only be an
 * approximation of the proximal map).  The descriptor says so to checkers:
 * penalty = BL_PENALTY_GROUP_L2.
 */
#include <boostlab/boostlab.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "prox-group"

enum { P_MAX_ITER, P_TOL, P_LIPSCHITZ, P_COUNT };

static const struct bl_param_spec pg_params[P_COUNT] = {
    [P_MAX_ITER] = {"max_iter", BL_PARAM_INT, "100", 1, 1e9, NULL,
                    "maximum number of proximal gradient steps"},
    [P_TOL] = {"tol", BL_PARAM_REAL, "1e-8", 0, HUGE_VAL, NULL,
               "stop when a step moves w by at most tol * (1 + ||w||)"},
    [P_LIPSCHITZ] = {"lipschitz", BL_PARAM_REAL, "0", 0, HUGE_VAL, NULL,
                     "starting Lipschitz constant L (doubled by backtracking); 0 = estimate it"},
};

struct pg {
    const struct bl_host *host;
    int max_iter;
    double tol, lipschitz;
    /* work buffers, n each, grown to the largest n seen */
    size_t cap;
    double *lo, *up, *g, *gn, *wn, *p;
};

static void pg_destroy(void *self)
{
    struct pg *S = self;
    if (!S)
        return;
    free(S->lo); /* one block holds every buffer */
    free(S);
}

static int pg_reserve(struct pg *S, size_t n)
{
    if (n <= S->cap)
        return 0;
    double *b = malloc(6 * n * sizeof *b);
    if (!b)
        return -1;
    free(S->lo);
    S->lo = b, S->up = b + n, S->g = b + 2 * n, S->gn = b + 3 * n, S->wn = b + 4 * n;
    S->p = b + 5 * n;
    S->cap = n;
    return 0;
}

static void *pg_create(const struct bl_host *host, const union bl_value *params,
                       char err[BL_ERR_MAX])
{
    struct pg *S = calloc(1, sizeof *S);
    if (!S) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    S->host = host;
    if (params) {
        S->max_iter = (int)params[P_MAX_ITER].i;
        S->tol = params[P_TOL].r;
        S->lipschitz = params[P_LIPSCHITZ].r;
    } else { /* the schema's defaults */
        S->max_iter = 100, S->tol = 1e-8, S->lipschitz = 0.0;
    }
    if (S->max_iter < 1 || !(S->tol >= 0) || !(S->lipschitz >= 0) || !isfinite(S->lipschitz)) {
        snprintf(err, BL_ERR_MAX, "invalid parameters (max_iter %d, tol %g, lipschitz %g)",
                 S->max_iter, S->tol, S->lipschitz);
        free(S);
        return NULL;
    }
    if (pg_reserve(S, 16) < 0) { /* room for k <= 16 up front */
        snprintf(err, BL_ERR_MAX, "out of memory");
        pg_destroy(S);
        return NULL;
    }
    return S;
}

static double norm2(const double *v, size_t n)
{
    double s = 0.0;
    for (size_t j = 0; j < n; j++)
        s += v[j] * v[j];
    return sqrt(s);
}

static int all_finite(const double *v, size_t n)
{
    for (size_t j = 0; j < n; j++)
        if (!isfinite(v[j]))
            return 0;
    return 1;
}

static double clip(double x, double lo, double up)
{
    return x < lo ? lo : x > up ? up : x;
}

/* wn = P(shrink(P(w - g/L))): the proximal gradient step with step 1/L. */
static void prox_step(const struct pg *S, size_t n, const double *w, const double *g, double L,
                      double lambda, double *wn)
{
    for (size_t j = 0; j < n; j++)
        S->p[j] = clip(w[j] - g[j] / L, S->lo[j], S->up[j]);
    double np = norm2(S->p, n);
    double sh = np > 0.0 ? 1.0 - lambda / (L * np) : 0.0;
    if (!(sh > 0.0))
        sh = 0.0;
    for (size_t j = 0; j < n; j++)
        wn[j] = clip(sh * S->p[j], S->lo[j], S->up[j]);
}

static int pg_solve(void *self, const struct bl_objective *obj, double *w,
                    struct bl_solve_info *info, char err[BL_ERR_MAX])
{
    struct pg *S = self;
    size_t n = obj->n;
    double lambda = obj->nu;
    struct bl_solve_info dummy;
    if (!info)
        info = &dummy;
    memset(info, 0, sizeof *info);
    if (n == 0) {
        info->status = BL_SOLVE_CONVERGED;
        return 0;
    }
    if (!(lambda >= 0) || !isfinite(lambda)) {
        snprintf(err, BL_ERR_MAX, "the group-lasso weight lambda (the objective's nu) must be "
                 "finite and >= 0, not %g", lambda);
        return -1;
    }
    if (n > (size_t)1 << 28 || pg_reserve(S, n) < 0) {
        snprintf(err, BL_ERR_MAX, "cannot allocate work space for %zu variables", n);
        return -1;
    }
    for (size_t j = 0; j < n; j++) {
        double lo = obj->lower ? obj->lower[j] : -HUGE_VAL;
        double up = obj->upper ? obj->upper[j] : HUGE_VAL;
        if (isnan(lo) || isnan(up) || lo > up) {
            snprintf(err, BL_ERR_MAX, "empty or invalid bounds for variable %zu: [%g, %g]", j, lo, up);
            return -1;
        }
        /* the proximal map below is exact only for these (see above) */
        if ((isfinite(lo) && lo != 0.0) || (isfinite(up) && up != 0.0)) {
            snprintf(err, BL_ERR_MAX, "variable %zu has bounds [%g, %g]: the group-lasso step "
                     "supports only bounds of 0 or infinity (free or sign-constrained "
                     "coefficients)", j, lo, up);
            return -1;
        }
        S->lo[j] = lo;
        S->up[j] = up;
        w[j] = clip(isfinite(w[j]) ? w[j] : 0.0, lo, up); /* start inside the box */
    }

    double *g = S->g, *gn = S->gn, *wn = S->wn;
    int evals = 0, iters = 0;
    enum bl_solve_status status = BL_SOLVE_MAXITER;
    double f = obj->eval(obj->ctx, w, g);
    evals++;
    if (!isfinite(f) || !all_finite(g, n)) {
        snprintf(err, BL_ERR_MAX, "objective or gradient is not finite at the start point (f = %g)", f);
        return -1;
    }

    /* starting L: the parameter, or a secant estimate along a unit step */
    double L = S->lipschitz;
    if (!(L > 0.0)) {
        double gnorm = norm2(g, n);
        L = 0.0;
        if (gnorm > 0.0 && isfinite(gnorm)) {
            double dd = 0.0;
            for (size_t j = 0; j < n; j++) {
                wn[j] = clip(w[j] - g[j] / gnorm, S->lo[j], S->up[j]);
                dd += (wn[j] - w[j]) * (wn[j] - w[j]);
            }
            if (dd > 0.0) {
                double ft = obj->eval(obj->ctx, wn, gn);
                evals++;
                if (isfinite(ft) && all_finite(gn, n)) {
                    double gg = 0.0;
                    for (size_t j = 0; j < n; j++)
                        gg += (gn[j] - g[j]) * (gn[j] - g[j]);
                    L = sqrt(gg / dd);
                }
            }
        }
        if (!(L > 0.0) || !isfinite(L))
            L = 1.0;
    }

    while (iters < S->max_iter) {
        double fn = 0.0, step = 0.0;
        int ok = 0, moved = 1;
        for (;;) {
            prox_step(S, n, w, g, L, lambda, wn);
            double gd = 0.0, dd = 0.0;
            for (size_t j = 0; j < n; j++) {
                double d = wn[j] - w[j];
                gd += g[j] * d;
                dd += d * d;
            }
            if (dd == 0.0) { /* a fixed point: the bound holds trivially */
                moved = 0;
                ok = 1;
                break;
            }
            fn = obj->eval(obj->ctx, wn, gn);
            evals++;
            if (isfinite(fn) && all_finite(gn, n) &&
                fn <= f + gd + 0.5 * L * dd + 16.0 * DBL_EPSILON * fabs(f)) {
                step = sqrt(dd);
                ok = 1;
                break;
            }
            L *= 2.0;
            if (!(L <= 1e300))
                break;
        }
        if (!ok) {
            status = BL_SOLVE_STALLED;
            if (S->host && S->host->log)
                S->host->log(2, NAME, "backtracking found no Lipschitz constant below 1e300 "
                             "after %d steps", iters);
            break;
        }
        iters++;
        if (!moved) {
            status = BL_SOLVE_CONVERGED;
            break;
        }
        memcpy(w, wn, n * sizeof *w);
        memcpy(g, gn, n * sizeof *g);
        f = fn;
        if (step <= S->tol * (1.0 + norm2(w, n))) {
            status = BL_SOLVE_CONVERGED;
            break;
        }
    }
    info->iterations = iters;
    info->evaluations = evals;
    info->status = status;
    info->objective = f + lambda * norm2(w, n);
    return 0;
}

static const struct bl_solver_ops pg_ops = {
    .size = sizeof(struct bl_solver_ops),
    .scope = BL_SOLVE_ROW,
    .create = pg_create,
    .destroy = pg_destroy,
    .solve = pg_solve,
    .penalty = BL_PENALTY_GROUP_L2,
};

static const struct bl_plugin pg_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_SOLVER,
    .name = "prox-group",
    .doc = "GradBoost row step (reconstructed): proximal gradient on f(w) + nu*||w||_2, nu read as the group-lasso lambda",
    .params = pg_params,
    .nparams = P_COUNT,
    .ops = &pg_ops,
};

static const struct bl_plugin *const pg_plugins[] = {&pg_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return pg_plugins;
}

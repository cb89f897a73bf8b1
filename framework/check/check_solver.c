/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * check-plugin, solver role (solver.h, docs/sdk.md "Solvers"): random
 * convex problems of the SDK's form
 *
 *     min  f(w) + nu * sum(w)   within lower <= w <= upper,
 *
 * with f a strongly convex quadratic, a sum of softplus terms or a
 * log-sum-exp (the shape of the engine's margin-loss row problems), bounds
 * as the engine sets them ([0, inf)), boxes, free and mixed variables,
 * nu in {0, 0.05, 0.5}; n = k variables started at 0 for a stage-wise (ROW)
 * solver, n = t k started at a random feasible point for a totally
 * corrective (ALL) one, as the engine does.  Checks:
 *
 *   create       create/destroy
 *   params       every declared parameter at its bounds: create, and solve
 *                returns a finite point within the bounds
 *   kkt          the returned point satisfies the KKT conditions: the
 *                projected gradient of f + nu sum(w) is ~0
 *   bounds       lower <= w <= upper
 *   descent      f(w) + nu sum(w) is no larger than at the start
 *   info         bl_solve_info.objective is f(w) + nu sum(w) at the returned w
 *   determinism  the same problem twice (and on a fresh instance): bitwise
 *                the same w
 *
 * A solver may declare (solver.h) that it searches only
 * w = alpha * 1 (space BL_SPACE_TIED: KKT is then checked for alpha, and w
 * must be tied), or that its penalty is nu ||w||_2 (BL_PENALTY_GROUP_L2:
 * KKT of f + nu ||w||_2, with bounds of 0 or infinity only, the bounds such
 * a solver supports).  A step solver (BL_SPACE_STEP, epsilon-boosting)
 * does not minimise: kkt then checks its rule instead (one coordinate
 * moved, the steepest one the bounds let descend, against its gradient;
 * none when none descends), and descent only its bounds, since a fixed
 * step is a descent step to first order only.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/rng.h"
#include "check.h"

/* The projected gradient at the answer must be below KKT_RTOL of its size
 * at the start (plus KKT_RTOL).  The SDK leaves a solver's accuracy to it
 * (lbfgsb stops at a projected gradient of 1e-5 or an absolute decrease
 * below 1e-9); a thousandfold reduction on these well-conditioned problems
 * (condition number <= ~50) is well within any converged solver's reach,
 * while a solver that ignores nu or a bound, or stops at a wrong point,
 * leaves O(1) of it. */
#define KKT_RTOL 1e-3
/* info.objective against f(w) + nu sum(w) recomputed here. */
#define INFO_RTOL 1e-9

enum { F_QUAD, F_SOFTPLUS, F_LSE, F_KINDS };
enum { B_ENGINE, B_BOX, B_FREE, B_MIXED, B_KINDS };

#define MAXTERMS 12

struct sproblem {
    size_t n, t, k;           /* n = t k */
    int fkind, bkind;
    int tied, group;          /* the solver's declared space and penalty */
    uint64_t seed;
    double nu, mu;
    size_t p;                 /* softplus / lse terms */
    double *A;                /* quad: n x n SPD; others: p x n directions */
    double *a;                /* quad: centre (n); others: offsets (p) */
    double *lo, *up, *w0;
    long evals;
};

static void sp_free(struct sproblem *P)
{
    free(P->A), free(P->a), free(P->lo), free(P->up), free(P->w0);
    memset(P, 0, sizeof *P);
}

static double softplus(double z)
{
    return fmax(z, 0.0) + log1p(exp(-fabs(z)));
}

static double sigmoid(double z)
{
    if (z >= 0)
        return 1.0 / (1.0 + exp(-z));
    double e = exp(z);
    return e / (1.0 + e);
}

/* The smooth part f(w) and its gradient (the objective handed to the solver). */
static double sp_eval(void *ctx, const double *w, double *g)
{
    struct sproblem *P = ctx;
    size_t n = P->n;
    double f = 0.0;
    P->evals++;
    if (g)
        memset(g, 0, n * sizeof *g);
    if (P->fkind == F_QUAD) {
        for (size_t i = 0; i < n; i++) {
            double Ai = 0.0;
            for (size_t j = 0; j < n; j++)
                Ai += P->A[i * n + j] * (w[j] - P->a[j]);
            f += 0.5 * (w[i] - P->a[i]) * Ai;
            if (g)
                g[i] = Ai;
        }
        return f;
    }
    double z[MAXTERMS], zmax = -HUGE_VAL;
    for (size_t q = 0; q < P->p; q++) {
        z[q] = P->a[q];
        for (size_t j = 0; j < n; j++)
            z[q] += P->A[q * n + j] * w[j];
        zmax = fmax(zmax, z[q]);
    }
    if (P->fkind == F_SOFTPLUS) {
        for (size_t q = 0; q < P->p; q++) {
            f += softplus(z[q]);
            if (g)
                for (size_t j = 0; j < n; j++)
                    g[j] += sigmoid(z[q]) * P->A[q * n + j];
        }
    } else {
        double S = 0.0;
        for (size_t q = 0; q < P->p; q++)
            S += exp(z[q] - zmax);
        f = zmax + log(S);
        if (g)
            for (size_t q = 0; q < P->p; q++) {
                double pq = exp(z[q] - zmax) / S;
                for (size_t j = 0; j < n; j++)
                    g[j] += pq * P->A[q * n + j];
            }
    }
    for (size_t j = 0; j < n; j++) { /* + mu/2 ||w||^2: strongly convex, bounded */
        f += 0.5 * P->mu * w[j] * w[j];
        if (g)
            g[j] += P->mu * w[j];
    }
    return f;
}

static double quarter(chk_rng *r, double lo, double hi)
{
    return nearbyint(chk_range(r, lo, hi) * 4.0) / 4.0 + 0.0; /* + 0.0: no -0 in reports */
}

/* A problem of n = t k variables from seed; scope ALL starts at a random
 * feasible point, ROW at 0 (clipped into the bounds), like the engine. */
static void sp_gen(struct sproblem *P, size_t t, size_t k, int fkind, int bkind, int all,
                   int tied, int group, uint64_t seed)
{
    chk_rng r;
    chk_rng_seed(&r, seed);
    memset(P, 0, sizeof *P);
    P->tied = tied;
    P->group = group;
    size_t n = t * k;
    P->n = n, P->t = t, P->k = k, P->fkind = fkind, P->bkind = bkind, P->seed = seed;
    static const double nus[] = {0.0, 0.05, 0.5};
    P->nu = nus[chk_below(&r, 3)];
    P->lo = malloc(n * sizeof *P->lo);
    P->up = malloc(n * sizeof *P->up);
    P->w0 = malloc(n * sizeof *P->w0);
    if (fkind == F_QUAD) {
        double *B = malloc(n * n * sizeof *B);
        P->A = malloc(n * n * sizeof *P->A);
        P->a = malloc(n * sizeof *P->a);
        for (size_t j = 0; j < n * n; j++)
            B[j] = quarter(&r, -1, 1) / sqrt((double)n);
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                double s = i == j ? 0.5 : 0.0;
                for (size_t l = 0; l < n; l++)
                    s += B[i * n + l] * B[j * n + l];
                P->A[i * n + j] = s;
            }
        for (size_t j = 0; j < n; j++)
            P->a[j] = quarter(&r, -2, 2);
        free(B);
    } else {
        P->p = 2 + chk_below(&r, MAXTERMS - 1);
        P->mu = 0.25;
        P->A = malloc(P->p * n * sizeof *P->A);
        P->a = malloc(P->p * sizeof *P->a);
        for (size_t j = 0; j < P->p * n; j++)
            P->A[j] = quarter(&r, -1, 1);
        for (size_t q = 0; q < P->p; q++)
            P->a[q] = quarter(&r, -2, 2);
    }
    for (size_t j = 0; j < n; j++) {
        int b = bkind == B_MIXED ? (int)chk_below(&r, 3) : bkind;
        switch (b) {
        case B_ENGINE: P->lo[j] = 0.0, P->up[j] = HUGE_VAL; break;
        case B_BOX:
            P->lo[j] = -0.5 * (double)chk_below(&r, 3) + 0.0;
            P->up[j] = 0.5 + (double)chk_below(&r, 3) / 2;
            if (group) /* the bounds a group-lasso solver supports */
                P->lo[j] = chk_below(&r, 2) ? 0.0 : -HUGE_VAL, P->up[j] = HUGE_VAL;
            break;
        default: P->lo[j] = -HUGE_VAL, P->up[j] = HUGE_VAL; break;
        }
        double w = all ? quarter(&r, -1, 2) : 0.0;
        P->w0[j] = fmin(fmax(w, P->lo[j]), P->up[j]);
    }
}

static double l2(const double *w, size_t n)
{
    double s = 0.0;
    for (size_t j = 0; j < n; j++)
        s += w[j] * w[j];
    return sqrt(s);
}

/* f(w) + nu sum(w), or f(w) + nu ||w||_2 for a group solver (whose g is
 * then the gradient of f alone: the penalty is not smooth at 0) */
static double phi(struct sproblem *P, const double *w, double *g)
{
    double f = sp_eval(P, w, g);
    if (P->group)
        return f + P->nu * l2(w, P->n);
    for (size_t j = 0; j < P->n; j++) {
        f += P->nu * w[j];
        if (g)
            g[j] += P->nu;
    }
    return f;
}

static double clip(double x, double lo, double up)
{
    return fmin(fmax(x, lo), up);
}

/* KKT violation for the declared space and penalty (g from phi) */
static double proj_grad(const struct sproblem *P, const double *w, const double *g, size_t *at)
{
    double mx = 0.0;
    if (P->tied) {
        /* alpha within the intersection of the bounds; d phi / d alpha */
        double lo = -HUGE_VAL, up = HUGE_VAL, d = 0.0;
        for (size_t j = 0; j < P->n; j++) {
            lo = fmax(lo, P->lo[j]), up = fmin(up, P->up[j]);
            d += g[j];
            if (w[j] != w[0]) { /* not tied: report the spread as the violation */
                if (at)
                    *at = j;
                return fabs(w[j] - w[0]) + 1.0;
            }
        }
        if (at)
            *at = 0;
        return fabs(w[0] - clip(w[0] - d, lo, up));
    }
    if (P->group) {
        double nw = l2(w, P->n);
        if (nw == 0.0) {
            /* 0 is optimal iff the part of -grad f that the bounds allow
             * has norm at most nu */
            double s = 0.0;
            for (size_t j = 0; j < P->n; j++) {
                double v = clip(-g[j], P->lo[j] < 0 ? -HUGE_VAL : 0.0, P->up[j] > 0 ? HUGE_VAL : 0.0);
                s += v * v;
            }
            if (at)
                *at = 0;
            return fmax(0.0, sqrt(s) - P->nu);
        }
        for (size_t j = 0; j < P->n; j++) {
            double gj = g[j] + P->nu * w[j] / nw;
            double d = fabs(w[j] - clip(w[j] - gj, P->lo[j], P->up[j]));
            if (!(d <= mx)) {
                mx = d;
                if (at)
                    *at = j;
            }
        }
        return mx;
    }
    for (size_t j = 0; j < P->n; j++) {
        double v = fmin(fmax(w[j] - g[j], P->lo[j]), P->up[j]);
        double d = fabs(w[j] - v);
        if (!(d <= mx)) {
            mx = d;
            if (at)
                *at = j;
        }
    }
    return mx;
}

/* A step solver's rule (BL_SPACE_STEP): w differs from the start w0 in at
 * most one coordinate j, which moved against the gradient g0 of f + nu
 * sum(w) at w0, and |g0_j| is the largest over the coordinates the bounds
 * let descend (up to rounding); w = w0 when none descends.  0 when it
 * holds, else 1 with why filled. */
static int step_rule(const struct sproblem *P, const double *w, const double *g0, chk_buf *why)
{
    size_t moved = P->n, nmoved = 0, best = P->n;
    double top = 0.0;
    for (size_t j = 0; j < P->n; j++) {
        if (w[j] != P->w0[j])
            moved = j, nmoved++;
        int can = g0[j] < 0 ? P->w0[j] < P->up[j] : g0[j] > 0 ? P->w0[j] > P->lo[j] : 0;
        if (can && fabs(g0[j]) > top)
            top = fabs(g0[j]), best = j;
    }
    if (nmoved > 1) {
        chk_printf(why, "a step solver moved %zu coordinates (one at most)", nmoved);
        return 1;
    }
    if (best == P->n) {
        if (nmoved)
            chk_printf(why, "no coordinate descends at the start, yet w[%zu] moved", moved);
        return nmoved != 0;
    }
    if (!nmoved) {
        chk_printf(why, "w[%zu] descends at the start (gradient %.6g) but nothing moved", best,
                   g0[best]);
        return 1;
    }
    double d = w[moved] - P->w0[moved];
    if (!(d * g0[moved] < 0) || fabs(g0[moved]) < top * (1.0 - 1e-12)) {
        chk_printf(why, "w[%zu] moved by %.6g against a gradient of %.6g, but the steepest "
                   "coordinate the bounds let descend is w[%zu] (gradient %.6g)", moved, d,
                   g0[moved], best, g0[best]);
        return 1;
    }
    return 0;
}

/* ---- one solve ----------------------------------------------------------------- */

enum { P_KKT, P_BOUNDS, P_DESCENT, P_INFO, P_DETERMINISM, P_SMOKE };

struct sst {
    const struct bl_plugin *p;
    const struct bl_solver_ops *ops;
    const struct bl_host *host;
    const union bl_value *v;
    int prop;
    double worst;
    size_t cases;
};

static int solve_once(const struct sst *S, void *self, struct sproblem *P, double *w,
                      struct bl_solve_info *info, char err[BL_ERR_MAX])
{
    struct bl_objective obj = {P->n, sp_eval, P, P->lo, P->up, P->nu, NULL};
    memcpy(w, P->w0, P->n * sizeof *w);
    memset(info, 0, sizeof *info);
    err[0] = 0;
    return S->ops->solve(self, &obj, w, info, err);
}

static int run_case(struct sst *S, struct sproblem *P, chk_buf *why, chk_buf *more)
{
    char err[BL_ERR_MAX] = "";
    size_t n = P->n;
    S->cases++;
    void *self = S->ops->create(S->host, S->p->nparams ? S->v : NULL, err);
    if (!self) {
        chk_printf(why, "create failed: %s", err[0] ? err : "(no message)");
        return 1;
    }
    double *w = calloc(n, sizeof *w), *w2 = calloc(n, sizeof *w2);
    double *g = calloc(n, sizeof *g), *g0 = calloc(n, sizeof *g0);
    struct bl_solve_info info, info2;
    int fail = 0;
    int rc = solve_once(S, self, P, w, &info, err);
    if (rc != 0) {
        chk_printf(why, "solve returned %d on a regular problem: %s", rc, err[0] ? err : "(no message)");
        fail = 1;
        goto out;
    }
    size_t bad = 0;
    for (size_t j = 0; j < n; j++)
        if (!isfinite(w[j])) {
            chk_printf(why, "solve returned w[%zu] = %g", j, w[j]);
            fail = 1;
            goto out;
        }
    double f0 = phi(P, P->w0, g0), f = phi(P, w, g);
    int step = S->ops->space == BL_SPACE_STEP;
    switch (S->prop) {
    case P_KKT: {
        if (step) {
            fail = step_rule(P, w, g0, why);
            break;
        }
        double pg0 = proj_grad(P, P->w0, g0, NULL), pg = proj_grad(P, w, g, &bad);
        double tol = KKT_RTOL * (1.0 + pg0), ratio = pg / tol;
        if (ratio > S->worst)
            S->worst = ratio;
        if (!(ratio <= 1.0)) {
            chk_printf(why, "not a KKT point: the projected gradient of f + nu sum(w) is %.3g at "
                       "w[%zu] = %.17g (gradient %.6g, bounds [%g, %g]); it was %.3g at the start, "
                       "tolerance %.3g", pg, bad, w[bad], g[bad], P->lo[bad], P->up[bad], pg0, tol);
            fail = 1;
        }
        break;
    }
    case P_BOUNDS:
    case P_SMOKE:
    case P_DESCENT:
        for (size_t j = 0; j < n && !fail && S->prop != P_DESCENT; j++) {
            double slack = 1e-12 * fmax(1.0, fmax(fabs(P->lo[j]), fabs(P->up[j])));
            if (isinf(slack))
                slack = 1e-12;
            if (w[j] < P->lo[j] - slack || w[j] > P->up[j] + slack) {
                chk_printf(why, "w[%zu] = %.17g is outside its bounds [%g, %g]", j, w[j],
                           P->lo[j], P->up[j]);
                fail = 1;
            }
        }
        /* (not for the parameter smoke test: a parameter may narrow the
         * feasible set, like lbfgsb's max_coef, leaving a warm start outside) */
        if (!fail && S->prop == P_DESCENT && !step && !(f <= f0 + 1e-12 * (1.0 + fabs(f0)))) {
            chk_printf(why, "the answer is worse than the start: f + nu sum(w) = %.17g, at the "
                       "start %.17g", f, f0);
            fail = 1;
        }
        break;
    case P_INFO:
        if (!(fabs(info.objective - f) <= INFO_RTOL * (1.0 + fabs(f)))) {
            chk_printf(why, "info.objective is %.17g but f(w) + nu sum(w) at the returned w is "
                       "%.17g", info.objective, f);
            fail = 1;
        } else if ((unsigned)info.status > BL_SOLVE_STALLED || info.iterations < 0 ||
                   info.evaluations < 0) {
            chk_printf(why, "info holds status %d, %d iterations, %d evaluations", (int)info.status,
                       info.iterations, info.evaluations);
            fail = 1;
        }
        break;
    case P_DETERMINISM: {
        rc = solve_once(S, self, P, w2, &info2, err);
        const char *what = NULL;
        if (rc != 0 || memcmp(w, w2, n * sizeof *w))
            what = "the same instance";
        if (!what) {
            void *other = S->ops->create(S->host, S->p->nparams ? S->v : NULL, err);
            rc = other ? solve_once(S, other, P, w2, &info2, err) : -1;
            if (other)
                S->ops->destroy(other);
            if (rc != 0 || memcmp(w, w2, n * sizeof *w))
                what = "a fresh instance";
        }
        if (what) {
            chk_printf(why, "solving the same problem again on %s gave a different w", what);
            chk_vec(more, "again", w2, n);
            chk_printf(more, "\n");
            fail = 1;
        }
        break;
    }
    default:
        break;
    }
    if (fail) {
        chk_vec(more, "returned w", w, n);
        chk_printf(more, "\n");
        chk_vec(more, "gradient of f + nu sum(w) there", g, n);
        chk_printf(more, "\ninfo: status %d, %d iterations, %d evaluations, objective %.17g",
                   (int)info.status, info.iterations, info.evaluations, info.objective);
    }
out:
    free(w), free(w2), free(g), free(g0);
    S->ops->destroy(self);
    return fail;
}

/* ---- search and shrink ------------------------------------------------------------ */

static const char *fname[] = {"0.5 (w-a)^T A (w-a)", "sum_q softplus(A_q w + a_q) + mu/2 ||w||^2",
                              "log sum_q exp(A_q w + a_q) + mu/2 ||w||^2"};

static void describe(chk_buf *b, const void *p)
{
    const struct sproblem *P = p;
    chk_printf(b, "n=%zu (t=%zu rows of k=%zu), nu=%g, f(w) = %s", P->n, P->t, P->k, P->nu,
               fname[P->fkind]);
    if (P->fkind != F_QUAD)
        chk_printf(b, ", mu=%g", P->mu);
    chk_printf(b, "\n");
    if (P->fkind == F_QUAD) {
        chk_mat(b, "A", P->A, P->n, P->n);
        chk_printf(b, "\n");
        chk_vec(b, "a", P->a, P->n);
    } else {
        chk_mat(b, "A", P->A, P->p, P->n);
        chk_printf(b, "\n");
        chk_vec(b, "a", P->a, P->p);
    }
    chk_printf(b, "\n");
    chk_vec(b, "lower", P->lo, P->n);
    chk_printf(b, "\n");
    chk_vec(b, "upper", P->up, P->n);
    chk_printf(b, "\n");
    chk_vec(b, "start", P->w0, P->n);
    chk_printf(b, "\n");
}

static int all_scope(const chk_ctx *c)
{
    return ((const struct bl_solver_ops *)c->p->ops)->scope == BL_SOLVE_ALL;
}

/* The solver's declared space and penalty. */
static void declared(const chk_ctx *c, int *tied, int *group)
{
    const struct bl_solver_ops *o = c->p->ops;
    *tied = o->space == BL_SPACE_TIED;
    *group = o->penalty == BL_PENALTY_GROUP_L2;
}

static int try_case(chk_ctx *c, struct sst *S, struct sproblem *P, size_t t, size_t k, int fk,
                    int bk, uint64_t seed, chk_buf *why, chk_buf *more)
{
    chk_clear(why);
    chk_clear(more);
    int tied, group;
    declared(c, &tied, &group);
    sp_gen(P, t, k, fk, bk, all_scope(c), tied, group, seed);
    chk_case(c, "n=%zu (t=%zu k=%zu) f=%d bounds=%d nu=%g seed=%#llx", P->n, t, k, fk, bk, P->nu,
             (unsigned long long)seed);
    return run_case(S, P, why, more);
}

/* Smaller problems of the same kinds, the smallest n first. */
static void shrink(chk_ctx *c, void *S, void *p)
{
    struct sproblem *P = p;
    chk_buf why = {0}, more = {0};
    size_t T = P->t, K = P->k;
    int found = 0;
    for (size_t n = 1; n < P->n && !found; n++)
        for (size_t t = 1; t <= T && !found; t++) {
            if (n % t || n / t > K)
                continue;
            for (uint64_t q = 0; q < 4 && !found; q++) {
                struct sproblem cand;
                uint64_t seed = q ? bl_mix64(P->seed + q) : P->seed;
                if (try_case(c, S, &cand, t, n / t, P->fkind, P->bkind, seed, &why, &more)) {
                    sp_free(P);
                    *P = cand;
                    found = 1;
                } else {
                    sp_free(&cand);
                }
            }
        }
    chk_buf_free(&why);
    chk_buf_free(&more);
}

static int run(void *S, void *P, chk_buf *why, chk_buf *more)
{
    return run_case(S, P, why, more);
}

static const chk_case_ops case_ops = {run, shrink, describe};

static const size_t row_k[] = {1, 2, 3, 5, 8};
static const size_t all_tk[][2] = {{1, 3}, {2, 2}, {2, 3}, {3, 3}, {4, 5}};
#define NEL(a) (sizeof(a) / sizeof((a)[0]))

static enum chk_status search(chk_ctx *c, const union bl_value *v, int prop, const char *prefix,
                              int quick, struct sst *out)
{
    struct sst S = {c->p, c->p->ops, c->host, v, prop, 0.0, 0};
    chk_buf why = {0}, more = {0};
    int all = all_scope(c), fail = 0;
    uint64_t idx = 0;
    size_t nsizes = quick ? 2 : all ? NEL(all_tk) : NEL(row_k);
    int trials = quick ? 1 : c->trials;
    for (int tr = 0; tr < trials && !fail; tr++)
        for (size_t a = 0; a < nsizes && !fail; a++)
            for (int fk = 0; fk < F_KINDS && !fail; fk++)
                for (int bk = 0; bk < B_KINDS && !fail; bk++) {
                    if (quick && fk != F_QUAD)
                        continue;
                    size_t t = all ? all_tk[a][0] : 1, k = all ? all_tk[a][1] : row_k[a];
                    uint64_t seed = chk_seed(c, "solver", idx++);
                    struct sproblem P;
                    if (try_case(c, &S, &P, t, k, fk, bk, seed, &why, &more)) {
                        struct sproblem orig;
                        int tied, group;
                        char seen[64];
                        declared(c, &tied, &group);
                        sp_gen(&orig, t, k, fk, bk, all, tied, group, seed);
                        snprintf(seen, sizeof seen, "n=%zu", t * k);
                        chk_shrink_report(c, &case_ops, &S, &P, &orig, prefix, seen, seed, &why,
                                          &more);
                        sp_free(&orig);
                        fail = 1;
                    }
                    sp_free(&P);
                }
    chk_buf_free(&why);
    chk_buf_free(&more);
    if (out)
        *out = S;
    return fail ? CHK_FAIL : CHK_PASS;
}

/* The check of one property, c->def->prop (its pass: c->def->pass). */
static enum chk_status prop_check(chk_ctx *c)
{
    int prop = c->def->prop;
    struct sst S;
    enum chk_status st = search(c, c->v, prop, "", 0, &S);
    /* a step solver is held to its rule instead (run_case) */
    int step = ((const struct bl_solver_ops *)c->p->ops)->space == BL_SPACE_STEP;
    const char *pass = !step ? c->def->pass
                       : prop == P_KKT ? "the answer is one step on the steepest coordinate the "
                                         "bounds let descend, or the start when none does "
                                         "(BL_SPACE_STEP)"
                       : prop == P_DESCENT ? "lower <= w <= upper (a step solver's fixed step "
                                             "descends to first order only)"
                                           : c->def->pass;
    if (st == CHK_PASS)
        chk_detail(c, "%s (%zu problems; scope %s)", pass, S.cases,
                   all_scope(c) ? "ALL: n = t k up to 20, warm-started"
                                : "ROW: n = k up to 8, started at 0");
    chk_printf(&c->info, "%zu solves", S.cases);
    if (prop == P_KKT)
        chk_printf(&c->info, "; largest projected gradient was %.3g of its tolerance", S.worst);
    return st;
}

/* ---- the checks ---------------------------------------------------------------- */

static enum chk_status check_create(chk_ctx *c)
{
    const struct bl_solver_ops *o = c->p->ops;
    char err[BL_ERR_MAX] = "";
    const union bl_value *v = c->p->nparams ? c->v : NULL;
    void *a = o->create(c->host, v, err);
    void *b = a ? o->create(c->host, v, err) : NULL;
    enum chk_status st = a && b ? CHK_PASS : CHK_FAIL;
    if (st == CHK_PASS)
        chk_detail(c, "two instances created and destroyed (scope %s)",
                   o->scope == BL_SOLVE_ALL ? "ALL" : "ROW");
    else
        chk_detail(c, "create %sreturned NULL: %s", a ? "(a second instance) " : "",
                   err[0] ? err : "(and wrote no message)");
    if (b)
        o->destroy(b);
    if (a)
        o->destroy(a);
    return st;
}

static enum chk_status params_variant(chk_ctx *c, const chk_variant *var, const char *prefix)
{
    return search(c, var->v, P_SMOKE, prefix, 1, NULL);
}

static enum chk_status check_params(chk_ctx *c)
{
    return chk_params(c, params_variant, "created, and solve gives a finite point within the "
                      "bounds");
}

const chk_def chk_solver_checks[] = {
    {"create", check_create, 0, NULL},
    {"params", check_params, 0, NULL},
    {"kkt", prop_check, P_KKT, "the answer is a KKT point of f + nu sum(w) within the bounds"},
    {"bounds", prop_check, P_BOUNDS, "lower <= w <= upper"},
    {"descent", prop_check, P_DESCENT, "f + nu sum(w) is no larger than at the start point"},
    {"info", prop_check, P_INFO, "info.objective is f(w) + nu sum(w) at the returned w"},
    {"determinism", prop_check, P_DETERMINISM, "the same problem twice, and on a fresh "
     "instance, gives bitwise the same w"},
};
const size_t chk_solver_count = sizeof chk_solver_checks / sizeof chk_solver_checks[0];

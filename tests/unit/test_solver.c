/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of the row solver "lbfgsb-row": bounded convex quadratics with
 * known minimisers (active and inactive bounds, nu, max_coef, free and
 * upper-only variables), the stopping rules, failure handling, and the
 * k = 2 AdaBoost closed form of spec §5.3 with the margin-exp loss.
 */
#include <criterion/criterion.h>
#include "testutil.h"

#include <math.h>


/* ---- solver access -------------------------------------------------------- */

static const struct bl_plugin *plug(void)
{
    return test_plugin("plugins/solver/lbfgsb", "lbfgsb-row");
}

static const struct bl_solver_ops *sops(void)
{
    return plug()->ops;
}

static int param_index(const char *name)
{
    const struct bl_plugin *p = plug();
    for (size_t j = 0; j < p->nparams; j++)
        if (strcmp(p->params[j].name, name) == 0)
            return (int)j;
    cr_assert_fail("no parameter %s", name);
    return -1;
}

/* A solver with the defaults, then the given overrides (NULL-terminated
 * name / value pairs; INT parameters are given as doubles too). */
static void *solver(const char *name, ...)
{
    const struct bl_plugin *p = plug();
    union bl_value v[16];
    char err[BL_ERR_MAX] = "";
    test_defaults(p, v);
    va_list ap;
    va_start(ap, name);
    for (const char *nm = name; nm; nm = va_arg(ap, const char *)) {
        double val = va_arg(ap, double);
        int j = param_index(nm);
        if (p->params[j].type == BL_PARAM_INT)
            v[j].i = (int64_t)val;
        else
            v[j].r = val;
    }
    va_end(ap);
    void *S = sops()->create(&test_host, v, err);
    cr_assert_not_null(S, "create: %s", err);
    return S;
}

/* ---- quadratic objectives ---------------------------------------------------- */

/* f(w) = 1/2 (w - a)^T A (w - a) + q^T w */
struct quad {
    size_t n;
    double A[64 * 64], a[64], q[64];
    int evals;
};

static double quad_eval(void *ctx, const double *w, double *g)
{
    struct quad *Q = ctx;
    size_t n = Q->n;
    double f = 0;
    Q->evals++;
    for (size_t i = 0; i < n; i++) {
        double Ai = 0;
        for (size_t j = 0; j < n; j++)
            Ai += Q->A[i * n + j] * (w[j] - Q->a[j]);
        f += 0.5 * (w[i] - Q->a[i]) * Ai + Q->q[i] * w[i];
        if (g)
            g[i] = Ai + Q->q[i];
    }
    return f;
}

/* Random SPD A (B B^T + I) and a minimiser wstar of f + nu sum(w) on
 * w >= 0 with every third coordinate at the bound: a = wstar and q chosen
 * so that the gradient there is 0 on free and positive on bound ones. */
static void make_quad(struct quad *Q, size_t n, double nu, double *wstar, uint64_t seed)
{
    rng_seed(seed);
    double B[64 * 64];
    Q->n = n;
    Q->evals = 0;
    for (size_t j = 0; j < n * n; j++)
        B[j] = urand() - 0.5;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double s = i == j ? 1.0 : 0.0;
            for (size_t l = 0; l < n; l++)
                s += B[i * n + l] * B[j * n + l];
            Q->A[i * n + j] = s;
        }
    for (size_t i = 0; i < n; i++) {
        wstar[i] = i % 3 == 0 ? 0.0 : 0.2 + 2.0 * urand();
        Q->a[i] = wstar[i];
        Q->q[i] = i % 3 == 0 ? 0.1 + urand() - nu : -nu;
    }
}

static double *filled(size_t n, double v)
{
    double *p = malloc(n * sizeof *p);
    for (size_t j = 0; j < n; j++)
        p[j] = v;
    return p;
}

static double max_err(const double *a, const double *b, size_t n)
{
    double e = 0;
    for (size_t j = 0; j < n; j++)
        e = fmax(e, fabs(a[j] - b[j]));
    return e;
}

Test(solver, bounded_quadratic)
{
    /* tighter than ~1e-7 the line search can no longer see f decrease */
    void *S = solver("pgtol", 1e-7, "ftol", 0.0, NULL);
    size_t sizes[] = {1, 3, 6, 20, 40, 5}; /* 40 grows the work space, 5 reuses it */
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        size_t n = sizes[t];
        for (int k = 0; k < 2; k++) {
            double nu = k ? 0.05 : 0.0, wstar[64];
            struct quad Q;
            make_quad(&Q, n, nu, wstar, 100 + t);
            double *lo = filled(n, 0.0), *up = filled(n, HUGE_VAL), *w = filled(n, 1.0);
            struct bl_objective obj = {n, quad_eval, &Q, lo, up, nu};
            struct bl_solve_info info;
            char err[BL_ERR_MAX] = "";
            cr_assert_eq(sops()->solve(S, &obj, w, &info, err), 0, "%s", err);
            cr_assert(max_err(w, wstar, n) < 1e-6, "n=%zu nu=%g: error %g", n, nu, max_err(w, wstar, n));
            for (size_t j = 0; j < n; j++)
                cr_assert(w[j] >= 0.0);
            cr_assert_eq(info.status, BL_SOLVE_CONVERGED, "n=%zu nu=%g: status %d after %d iterations",
                         n, nu, info.status, info.iterations);
            cr_assert(info.iterations >= 1 && info.iterations <= 100);
            cr_assert(info.evaluations >= info.iterations);
            cr_assert_eq(info.evaluations, Q.evals);
            double sw = 0;
            for (size_t j = 0; j < n; j++)
                sw += w[j];
            double f = quad_eval(&Q, w, NULL) + nu * sw;
            cr_assert(fabs(info.objective - f) <= 1e-12 * (1 + fabs(f)), "objective %g vs %g",
                      info.objective, f);
            free(lo), free(up), free(w);
        }
    }
    sops()->destroy(S);
}

/* The paper's defaults still get close, and stop on their own. */
Test(solver, bounded_quadratic_defaults)
{
    void *S = solver(NULL);
    double wstar[64];
    struct quad Q;
    make_quad(&Q, 10, 1e-9, wstar, 7);
    double *lo = filled(10, 0.0), *up = filled(10, HUGE_VAL), *w = filled(10, 0.0);
    struct bl_objective obj = {10, quad_eval, &Q, lo, up, 1e-9};
    struct bl_solve_info info;
    char err[BL_ERR_MAX] = "";
    cr_assert_eq(sops()->solve(S, &obj, w, &info, err), 0, "%s", err);
    cr_assert(max_err(w, wstar, 10) < 1e-3, "error %g", max_err(w, wstar, 10));
    cr_assert_eq(info.status, BL_SOLVE_CONVERGED);
    free(lo), free(up), free(w);
    sops()->destroy(S);
}

/* Separable f = 1/2 sum (w - a)^2: the minimiser of f + nu sum w on w >= 0
 * is max(0, a - nu), so nu shifts the solution and zeroes small entries. */
Test(solver, nu_shifts_solution)
{
    void *S = solver("pgtol", 1e-12, "ftol", 0.0, NULL);
    const size_t n = 5;
    const double a[5] = {0.3, 1.0, -0.5, 2.0, 0.05};
    const double nus[4] = {0.0, 0.1, 0.5, 1.5};
    for (int t = 0; t < 4; t++) {
        struct quad Q = {.n = n};
        for (size_t i = 0; i < n; i++) {
            Q.A[i * n + i] = 1.0;
            Q.a[i] = a[i];
        }
        double *lo = filled(n, 0.0), *up = filled(n, HUGE_VAL), *w = filled(n, 0.0);
        struct bl_objective obj = {n, quad_eval, &Q, lo, up, nus[t]};
        struct bl_solve_info info;
        char err[BL_ERR_MAX] = "";
        cr_assert_eq(sops()->solve(S, &obj, w, &info, err), 0, "%s", err);
        for (size_t i = 0; i < n; i++) {
            double want = fmax(0.0, a[i] - nus[t]);
            cr_assert(fabs(w[i] - want) < 1e-8, "nu=%g w[%zu]=%.12g want %.12g", nus[t], i, w[i], want);
        }
        free(lo), free(up), free(w);
    }
    sops()->destroy(S);
}

/* max_coef caps every coefficient, also on top of the caller's bounds;
 * free and upper-only variables work too. */
Test(solver, max_coef_and_bound_kinds)
{
    const size_t n = 6;
    const double a[6] = {5.0, 1.0, -3.0, 4.0, 3.0, -1.0};
    double lo[6] = {0, 0, -HUGE_VAL, -HUGE_VAL, 0, -2};
    double up[6] = {HUGE_VAL, HUGE_VAL, HUGE_VAL, 1.5, 2.5, HUGE_VAL};
    struct quad Q = {.n = n};
    for (size_t i = 0; i < n; i++) {
        Q.A[i * n + i] = 1.0;
        Q.a[i] = a[i];
    }
    struct bl_objective obj = {n, quad_eval, &Q, lo, up, 0.0};
    char err[BL_ERR_MAX] = "";
    struct bl_solve_info info;
    /* without a cap: clamp a into [lo, up] */
    void *S = solver("pgtol", 1e-12, "ftol", 0.0, NULL);
    double w[6] = {0};
    cr_assert_eq(sops()->solve(S, &obj, w, &info, err), 0, "%s", err);
    const double want[6] = {5.0, 1.0, -3.0, 1.5, 2.5, -1.0};
    cr_assert(max_err(w, want, n) < 1e-8, "error %g", max_err(w, want, n));
    sops()->destroy(S);
    /* with max_coef = 2 */
    S = solver("pgtol", 1e-12, "ftol", 0.0, "max_coef", 2.0, NULL);
    memset(w, 0, sizeof w);
    cr_assert_eq(sops()->solve(S, &obj, w, &info, err), 0, "%s", err);
    const double want2[6] = {2.0, 1.0, -3.0, 1.5, 2.0, -1.0};
    cr_assert(max_err(w, want2, n) < 1e-8, "error %g", max_err(w, want2, n));
    for (size_t i = 0; i < n; i++)
        cr_assert(w[i] <= 2.0, "w[%zu] = %.17g exceeds max_coef", i, w[i]);
    sops()->destroy(S);
}

/* f = -sum w is unbounded below (like a stump that separates perfectly,
 * spec §3.8.4): max_coef makes it well posed. */
static double linear_eval(void *ctx, const double *w, double *g)
{
    size_t n = *(const size_t *)ctx;
    double f = 0;
    for (size_t j = 0; j < n; j++) {
        f -= (double)(j + 1) * w[j];
        if (g)
            g[j] = -(double)(j + 1);
    }
    return f;
}

Test(solver, unbounded_capped)
{
    size_t n = 3;
    double lo[3] = {0, 0, 0}, up[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, w[3] = {0, 0, 0};
    struct bl_objective obj = {n, linear_eval, &n, lo, up, 0.0};
    struct bl_solve_info info;
    char err[BL_ERR_MAX] = "";
    void *S = solver("max_coef", 10.0, NULL);
    cr_assert_eq(sops()->solve(S, &obj, w, &info, err), 0, "%s", err);
    for (int j = 0; j < 3; j++)
        cr_assert_eq(w[j], 10.0);
    cr_assert_eq(info.status, BL_SOLVE_CONVERGED);
    cr_assert_eq(info.objective, -60.0);
    sops()->destroy(S);
}

/* The iteration cap is honoured and reported. */
static double rosen_eval(void *ctx, const double *w, double *g)
{
    (void)ctx;
    double a = 1 - w[0], b = w[1] - w[0] * w[0];
    if (g) {
        g[0] = -2 * a - 400 * w[0] * b;
        g[1] = 200 * b;
    }
    return a * a + 100 * b * b;
}

Test(solver, max_iter)
{
    double lo[2] = {-HUGE_VAL, -HUGE_VAL}, up[2] = {HUGE_VAL, HUGE_VAL};
    struct bl_objective obj = {2, rosen_eval, NULL, lo, up, 0.0};
    struct bl_solve_info info;
    char err[BL_ERR_MAX] = "";
    void *S = solver("max_iter", 3.0, NULL);
    double w[2] = {-1.2, 1.0};
    cr_assert_eq(sops()->solve(S, &obj, w, &info, err), 0, "%s", err);
    cr_assert_eq(info.status, BL_SOLVE_MAXITER);
    cr_assert_eq(info.iterations, 3);
    cr_assert(rosen_eval(NULL, w, NULL) < rosen_eval(NULL, (double[]){-1.2, 1.0}, NULL));
    sops()->destroy(S);
    /* and with room, it gets to (1, 1) */
    S = solver("max_iter", 1000.0, "pgtol", 1e-10, "ftol", 0.0, NULL);
    w[0] = -1.2, w[1] = 1.0;
    cr_assert_eq(sops()->solve(S, &obj, w, &info, err), 0, "%s", err);
    cr_assert(fabs(w[0] - 1) < 1e-5 && fabs(w[1] - 1) < 1e-5, "(%g, %g)", w[0], w[1]);
    cr_assert(info.iterations > 3);
    sops()->destroy(S);
}

/* ftol: the absolute decrease per iteration.  A huge ftol stops after the
 * first iteration. */
Test(solver, ftol_stops)
{
    double wstar[64];
    struct quad Q;
    make_quad(&Q, 8, 0.0, wstar, 3);
    double *lo = filled(8, 0.0), *up = filled(8, HUGE_VAL), *w = filled(8, 3.0);
    struct bl_objective obj = {8, quad_eval, &Q, lo, up, 0.0};
    struct bl_solve_info info;
    char err[BL_ERR_MAX] = "";
    void *S = solver("ftol", 1e300, "pgtol", 0.0, NULL);
    cr_assert_eq(sops()->solve(S, &obj, w, &info, err), 0, "%s", err);
    cr_assert_eq(info.iterations, 1);
    cr_assert_eq(info.status, BL_SOLVE_CONVERGED);
    free(lo), free(up), free(w);
    sops()->destroy(S);
}

/* ---- failures ------------------------------------------------------------------ */

/* finite for w0 <= 1, then NaN or inf: an error, not a crash, and the
 * returned point is the last accepted iterate. */
static double cliff_eval(void *ctx, const double *w, double *g)
{
    int kind = *(const int *)ctx;
    if (w[0] > 1.0)
        return kind ? HUGE_VAL : NAN;
    if (g)
        g[0] = -100.0;
    return -100.0 * w[0];
}

Test(solver, non_finite_objective)
{
    for (int kind = 0; kind < 2; kind++) {
        double lo[1] = {0}, up[1] = {HUGE_VAL}, w[1] = {0};
        struct bl_objective obj = {1, cliff_eval, &kind, lo, up, 0.0};
        struct bl_solve_info info;
        char err[BL_ERR_MAX] = "";
        void *S = solver(NULL);
        cr_assert_eq(sops()->solve(S, &obj, w, &info, err), -1);
        cr_assert(strstr(err, "finite"), "message: %s", err);
        cr_assert(isfinite(w[0]) && w[0] >= 0 && w[0] <= 1.0, "w = %g", w[0]);
        sops()->destroy(S);
    }
    /* non-finite right at the start */
    double lo[1] = {0}, up[1] = {HUGE_VAL}, w[1] = {5};
    int kind = 0;
    struct bl_objective obj = {1, cliff_eval, &kind, lo, up, 0.0};
    struct bl_solve_info info;
    char err[BL_ERR_MAX] = "";
    void *S = solver(NULL);
    cr_assert_eq(sops()->solve(S, &obj, w, &info, err), -1);
    cr_assert_eq(w[0], 5.0);
    sops()->destroy(S);
}

Test(solver, invalid_bounds)
{
    double lo[2] = {0, 1}, up[2] = {1, 0}, w[2] = {0, 0};
    struct quad Q = {.n = 2};
    Q.A[0] = Q.A[3] = 1;
    struct bl_objective obj = {2, quad_eval, &Q, lo, up, 0.0};
    struct bl_solve_info info;
    char err[BL_ERR_MAX] = "";
    void *S = solver(NULL);
    cr_assert_eq(sops()->solve(S, &obj, w, &info, err), -1);
    cr_assert(strlen(err) > 0);
    sops()->destroy(S);
}

/* ---- k = 2: AdaBoost's closed form (spec §5.3) ------------------------------------ */

struct rowctx {
    const struct bl_loss_ops *L;
    void *self;
    const int *y;
    size_t m, k;
    const double *F, *s;
    double *Fw, *gF;
};

/* f(w) = L(F + s w^T), grad_r = sum_i s_i dL/dF_ir, straight from eval. */
static double row_eval(void *ctx, const double *w, double *grad)
{
    struct rowctx *C = ctx;
    size_t m = C->m, k = C->k;
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++)
            C->Fw[i * k + r] = C->F[i * k + r] + C->s[i] * w[r];
    double f = C->L->eval(C->self, C->y, m, k, C->Fw, grad ? C->gF : NULL);
    if (grad)
        for (size_t r = 0; r < k; r++) {
            grad[r] = 0;
            for (size_t i = 0; i < m; i++)
                grad[r] += C->s[i] * C->gF[i * k + r];
        }
    return f;
}

static double fast_eval(void *ctx, const double *w, double *grad)
{
    struct rowctx *C = ctx;
    return C->L->row_eval(C->self, w, grad);
}

static void check_adaboost(int use_defaults, uint64_t seed, double tol)
{
    const struct bl_plugin *lp = test_plugin("plugins/loss/margin_exp", "margin-exp");
    const struct bl_loss_ops *L = lp->ops;
    char err[BL_ERR_MAX] = "";
    void *loss = L->create(&test_host, NULL, err);
    cr_assert_not_null(loss, "%s", err);
    void *S = use_defaults ? solver(NULL) : solver("pgtol", 1e-12, "ftol", 0.0, NULL);
    rng_seed(seed);
    for (int trial = 0; trial < 10; trial++) {
        size_t m = 5 + (size_t)(urand() * 200), k = 2;
        int *y = malloc(m * sizeof *y);
        double *F = malloc(m * k * sizeof *F), *s = malloc(m * sizeof *s);
        double *Fw = malloc(m * k * sizeof *Fw), *gF = malloc(m * k * sizeof *gF);
        double sp = 0, sm = 0;
        for (size_t i = 0; i < m; i++) {
            y[i] = urand() < 0.5;
            F[2 * i] = 2 * urand() - 1;
            F[2 * i + 1] = 2 * urand() - 1;
            s[i] = urand() < 0.5 ? -1.0 : 1.0;
        }
        /* make the weighted error clearly non-trivial */
        for (size_t i = 0; i < m; i++) {
            double z = y[i] == 0 ? 1.0 : -1.0;
            size_t other = (size_t)(1 - y[i]);
            /* u~_i ∝ exp(-rho_i,other) = exp(F_i,other - F_i,y) */
            double u = exp(F[2 * i + other] - F[2 * i + (size_t)y[i]]);
            if (z * s[i] > 0)
                sp += u;
            else
                sm += u;
        }
        double alpha = 0.5 * log(sp / sm);
        struct rowctx C = {L, loss, y, m, k, F, s, Fw, gF};
        double lo[2] = {0, 0}, up[2] = {HUGE_VAL, HUGE_VAL};
        struct bl_objective obj = {2, row_eval, &C, lo, up, 0.0};
        struct bl_solve_info info;
        double w[2] = {0, 0};
        cr_assert_eq(sops()->solve(S, &obj, w, &info, err), 0, "%s", err);
        cr_assert(fabs((w[0] - w[1]) - alpha) < tol,
                  "m=%zu: w1 - w2 = %.10g, AdaBoost's alpha = %.10g (status %d, %d its)", m,
                  w[0] - w[1], alpha, info.status, info.iterations);
        cr_assert(w[0] >= 0 && w[1] >= 0 && fmin(w[0], w[1]) < 1e-6,
                  "one coefficient stays at the bound: (%g, %g)", w[0], w[1]);
        /* the same through margin-exp's row fast path */
        struct rowctx C2 = {L, L->row_prepare(loss, y, m, k, F, s), y, m, k, F, s, NULL, NULL};
        cr_assert_not_null(C2.self);
        struct bl_objective obj2 = {2, fast_eval, &C2, lo, up, 0.0};
        double w2[2] = {0, 0};
        cr_assert_eq(sops()->solve(S, &obj2, w2, &info, err), 0, "%s", err);
        cr_assert(fabs((w2[0] - w2[1]) - alpha) < tol, "fast path: %.10g vs %.10g", w2[0] - w2[1],
                  alpha);
        L->row_free(C2.self);
        free(y), free(F), free(s), free(Fw), free(gF);
    }
    sops()->destroy(S);
    L->destroy(loss);
}

Test(solver, adaboost_closed_form) { check_adaboost(0, 31, 1e-5); }
/* With the paper's tolerances (pgtol 1e-5, ftol 1e-9) the objective is
 * within ~1e-10 of its minimum, i.e. alpha to about 1e-5 only. */
Test(solver, adaboost_closed_form_paper_settings) { check_adaboost(1, 32, 1e-4); }

Test(solver, descriptor)
{
    const struct bl_plugin *p = plug();
    cr_assert_eq(p->role, BL_ROLE_SOLVER);
    cr_assert_eq(sops()->scope, BL_SOLVE_ROW);
    const char *names[] = {"max_iter", "pgtol", "ftol", "memory", "max_coef"};
    for (int j = 0; j < 5; j++)
        cr_assert(param_index(names[j]) >= 0);
    union bl_value v[8];
    test_defaults(p, v);
    cr_assert_eq(v[param_index("max_iter")].i, 100);
    cr_assert_eq(v[param_index("pgtol")].r, 1e-5);
    cr_assert_eq(v[param_index("ftol")].r, 1e-9);
    cr_assert_eq(v[param_index("memory")].i, 5);
    cr_assert(isinf(v[param_index("max_coef")].r));
}

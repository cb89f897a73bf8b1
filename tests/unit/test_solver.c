/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of the row solver "lbfgsb-row": bounded convex quadratics with
 * known minimisers (active and inactive bounds, nu, max_coef, free and
 * upper-only variables), the stopping rules, failure handling, and the
 * k = 2 AdaBoost closed form of spec §5.3 with the margin-exp loss.
 *
 * And of "newton-row" (projected Newton): the same quadratics with and
 * without the objective's Hessian, its stopping rules and failures, the
 * engine's real row objectives of margin-log (framework/engine/objective.c,
 * with the loss's row Hessian) solved to the same minimiser as lbfgsb-row,
 * and how the engine's objective passes the Hessian on.
 */
#include <criterion/criterion.h>
#include "testutil.h"

#include <math.h>

#include "engine/objective.h"


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

/* A solver of plugin p with the defaults, then the given overrides
 * (NULL-terminated name / value pairs; INT parameters are given as doubles
 * too). */
static void *vsolver(const struct bl_plugin *p, const char *name, va_list ap)
{
    union bl_value v[16];
    char err[BL_ERR_MAX] = "";
    test_defaults(p, v);
    for (const char *nm = name; nm; nm = va_arg(ap, const char *)) {
        double val = va_arg(ap, double);
        int j = test_param_index(p, nm);
        if (p->params[j].type == BL_PARAM_INT)
            v[j].i = (int64_t)val;
        else
            v[j].r = val;
    }
    void *S = ((const struct bl_solver_ops *)p->ops)->create(&test_host, v, err);
    cr_assert_not_null(S, "create: %s", err);
    return S;
}

/* lbfgsb-row with the defaults and overrides. */
static void *solver(const char *name, ...)
{
    va_list ap;
    va_start(ap, name);
    void *S = vsolver(plug(), name, ap);
    va_end(ap);
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
            struct bl_objective obj = {n, quad_eval, &Q, lo, up, nu, NULL};
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
    struct bl_objective obj = {10, quad_eval, &Q, lo, up, 1e-9, NULL};
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
        struct bl_objective obj = {n, quad_eval, &Q, lo, up, nus[t], NULL};
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
    struct bl_objective obj = {n, quad_eval, &Q, lo, up, 0.0, NULL};
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
    struct bl_objective obj = {n, linear_eval, &n, lo, up, 0.0, NULL};
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
    struct bl_objective obj = {2, rosen_eval, NULL, lo, up, 0.0, NULL};
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
    struct bl_objective obj = {8, quad_eval, &Q, lo, up, 0.0, NULL};
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
        struct bl_objective obj = {1, cliff_eval, &kind, lo, up, 0.0, NULL};
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
    struct bl_objective obj = {1, cliff_eval, &kind, lo, up, 0.0, NULL};
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
    struct bl_objective obj = {2, quad_eval, &Q, lo, up, 0.0, NULL};
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
        struct bl_objective obj = {2, row_eval, &C, lo, up, 0.0, NULL};
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
        struct bl_objective obj2 = {2, fast_eval, &C2, lo, up, 0.0, NULL};
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

/* ---- newton-row ------------------------------------------------------------------ */

static const struct bl_plugin *nplug(void)
{
    return test_plugin("plugins/solver/newton_row", "newton-row");
}

static const struct bl_solver_ops *nops(void)
{
    return nplug()->ops;
}

/* newton-row with the defaults and overrides. */
static void *nsolver(const char *name, ...)
{
    va_list ap;
    va_start(ap, name);
    void *S = vsolver(nplug(), name, ap);
    va_end(ap);
    return S;
}

/* The quadratic's Hessian, A. */
static int quad_hess(void *ctx, const double *w, double *H)
{
    const struct quad *Q = ctx;
    (void)w;
    memcpy(H, Q->A, Q->n * Q->n * sizeof *H);
    return 0;
}

Test(newton_row, descriptor)
{
    const struct bl_plugin *p = nplug();
    cr_assert_eq(p->role, BL_ROLE_SOLVER);
    cr_assert_eq(p->sdk_version, BL_SDK_VERSION);
    cr_assert_eq(nops()->scope, BL_SOLVE_ROW);
    cr_assert_eq(nops()->space, BL_SPACE_BOX);
    cr_assert_eq(nops()->penalty, BL_PENALTY_LINEAR);
    cr_assert_eq(p->nparams, 3);
    union bl_value v[8];
    test_defaults(p, v);
    cr_assert_eq(v[test_param_index(p, "max_iter")].i, 50);
    cr_assert_eq(v[test_param_index(p, "pgtol")].r, 1e-5);
    cr_assert_eq(v[test_param_index(p, "ftol")].r, 1e-9);
}

/* The quadratics of bounded_quadratic, with the exact Hessian (one Newton
 * step solves them: the model is the function) and without it (projected
 * gradient, then BFGS). */
Test(newton_row, bounded_quadratic)
{
    void *S = nsolver("pgtol", 1e-9, "ftol", 0.0, "max_iter", 500.0, NULL);
    size_t sizes[] = {1, 3, 6, 20, 40, 5}; /* 40 grows the work space, 5 reuses it */
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        size_t n = sizes[t];
        for (int c = 0; c < 4; c++) {
            double nu = c & 1 ? 0.05 : 0.0, wstar[64];
            int hess = c >> 1;
            struct quad Q;
            make_quad(&Q, n, nu, wstar, 100 + t);
            double *lo = filled(n, 0.0), *up = filled(n, HUGE_VAL), *w = filled(n, 1.0);
            struct bl_objective obj = {n, quad_eval, &Q, lo, up, nu, hess ? quad_hess : NULL};
            struct bl_solve_info info;
            char err[BL_ERR_MAX] = "";
            cr_assert_eq(nops()->solve(S, &obj, w, &info, err), 0, "%s", err);
            cr_assert(max_err(w, wstar, n) < 1e-6, "n=%zu nu=%g hess=%d: error %g", n, nu, hess,
                      max_err(w, wstar, n));
            for (size_t j = 0; j < n; j++)
                cr_assert(w[j] >= 0.0);
            cr_assert_eq(info.status, BL_SOLVE_CONVERGED, "n=%zu nu=%g hess=%d: status %d after %d "
                         "iterations", n, nu, hess, info.status, info.iterations);
            cr_assert(info.iterations >= 1 && info.iterations <= (hess ? 2 : 500),
                      "n=%zu hess=%d: %d iterations", n, hess, info.iterations);
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
    nops()->destroy(S);
}

/* max(0, a - nu) for separable f = 1/2 sum (w - a)^2, and clamping into
 * boxes, free, lower-only and upper-only bounds. */
Test(newton_row, nu_and_bound_kinds)
{
    const size_t n = 6;
    const double a[6] = {0.3, 1.0, -0.5, 2.0, 0.05, 4.0};
    const double nus[4] = {0.0, 0.1, 0.5, 1.5};
    for (int hess = 0; hess < 2; hess++) {
        void *S = nsolver("pgtol", 1e-12, "ftol", 0.0, "max_iter", 200.0, NULL);
        for (int t = 0; t < 4; t++) {
            struct quad Q = {.n = n};
            for (size_t i = 0; i < n; i++) {
                Q.A[i * n + i] = 1.0;
                Q.a[i] = a[i];
            }
            double *lo = filled(n, 0.0), *up = filled(n, HUGE_VAL), *w = filled(n, 0.0);
            struct bl_objective obj = {n, quad_eval, &Q, lo, up, nus[t], hess ? quad_hess : NULL};
            struct bl_solve_info info;
            char err[BL_ERR_MAX] = "";
            cr_assert_eq(nops()->solve(S, &obj, w, &info, err), 0, "%s", err);
            for (size_t i = 0; i < n; i++) {
                double want = fmax(0.0, a[i] - nus[t]);
                cr_assert(fabs(w[i] - want) < 1e-8, "hess=%d nu=%g w[%zu]=%.12g want %.12g", hess,
                          nus[t], i, w[i], want);
            }
            free(lo), free(up), free(w);
        }
        /* bounds of every kind, nu = 0: clamp a into [lo, up] */
        const double b[6] = {5.0, 1.0, -3.0, 4.0, 3.0, -1.0};
        double lo[6] = {0, 0, -HUGE_VAL, -HUGE_VAL, 0, -2};
        double up[6] = {HUGE_VAL, HUGE_VAL, HUGE_VAL, 1.5, 2.5, HUGE_VAL};
        struct quad Q = {.n = n};
        for (size_t i = 0; i < n; i++) {
            Q.A[i * n + i] = 1.0 + (double)i;
            Q.a[i] = b[i];
        }
        struct bl_objective obj = {n, quad_eval, &Q, lo, up, 0.0, hess ? quad_hess : NULL};
        struct bl_solve_info info;
        char err[BL_ERR_MAX] = "";
        double w[6] = {0};
        cr_assert_eq(nops()->solve(S, &obj, w, &info, err), 0, "%s", err);
        const double want[6] = {5.0, 1.0, -3.0, 1.5, 2.5, -1.0};
        cr_assert(max_err(w, want, n) < 1e-8, "hess=%d: error %g", hess, max_err(w, want, n));
        nops()->destroy(S);
    }
}

/* Rosenbrock's function and its Hessian (indefinite in places: the ridge
 * grows until the model is convex). */
static int rosen_hess(void *ctx, const double *w, double *H)
{
    (void)ctx;
    H[0] = 2 - 400 * w[1] + 1200 * w[0] * w[0];
    H[1] = H[2] = -400 * w[0];
    H[3] = 200;
    return 0;
}

Test(newton_row, max_iter_and_rosenbrock)
{
    double lo[2] = {-HUGE_VAL, -HUGE_VAL}, up[2] = {HUGE_VAL, HUGE_VAL};
    struct bl_objective obj = {2, rosen_eval, NULL, lo, up, 0.0, NULL};
    struct bl_solve_info info;
    char err[BL_ERR_MAX] = "";
    void *S = nsolver("max_iter", 3.0, NULL);
    double w[2] = {-1.2, 1.0};
    cr_assert_eq(nops()->solve(S, &obj, w, &info, err), 0, "%s", err);
    cr_assert_eq(info.status, BL_SOLVE_MAXITER);
    cr_assert_eq(info.iterations, 3);
    cr_assert(rosen_eval(NULL, w, NULL) < rosen_eval(NULL, (double[]){-1.2, 1.0}, NULL));
    nops()->destroy(S);
    /* with room it gets to (1, 1): by BFGS, and faster by Newton */
    int its[2];
    for (int hess = 0; hess < 2; hess++) {
        obj.hessian = hess ? rosen_hess : NULL;
        S = nsolver("max_iter", 1000.0, "pgtol", 1e-10, "ftol", 0.0, NULL);
        w[0] = -1.2, w[1] = 1.0;
        cr_assert_eq(nops()->solve(S, &obj, w, &info, err), 0, "%s", err);
        cr_assert(fabs(w[0] - 1) < 1e-6 && fabs(w[1] - 1) < 1e-6, "hess=%d: (%g, %g)", hess, w[0],
                  w[1]);
        its[hess] = info.iterations;
        nops()->destroy(S);
    }
    cr_assert(its[1] < its[0], "Newton %d iterations, BFGS %d", its[1], its[0]);
}

/* ftol is relative: a huge one stops after the first iteration, and an
 * unbounded problem (spec §3.8.4) runs to max_iter with finite w. */
Test(newton_row, ftol_and_unbounded)
{
    double wstar[64];
    struct quad Q;
    make_quad(&Q, 8, 0.0, wstar, 3);
    double *lo = filled(8, 0.0), *up = filled(8, HUGE_VAL), *w = filled(8, 3.0);
    struct bl_objective obj = {8, quad_eval, &Q, lo, up, 0.0, NULL};
    struct bl_solve_info info;
    char err[BL_ERR_MAX] = "";
    void *S = nsolver("ftol", 1e300, "pgtol", 0.0, NULL);
    cr_assert_eq(nops()->solve(S, &obj, w, &info, err), 0, "%s", err);
    cr_assert_eq(info.iterations, 1);
    cr_assert_eq(info.status, BL_SOLVE_CONVERGED);
    free(lo), free(up), free(w);
    nops()->destroy(S);

    size_t n = 3;
    double l3[3] = {0, 0, 0}, u3[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, w3[3] = {0, 0, 0};
    struct bl_objective lin = {n, linear_eval, &n, l3, u3, 0.0, NULL};
    S = nsolver("max_iter", 20.0, "ftol", 0.0, NULL);
    cr_assert_eq(nops()->solve(S, &lin, w3, &info, err), 0, "%s", err);
    cr_assert_eq(info.status, BL_SOLVE_MAXITER);
    for (int j = 0; j < 3; j++)
        cr_assert(isfinite(w3[j]) && w3[j] > 1.0, "w[%d] = %g", j, w3[j]);
    nops()->destroy(S);
}

Test(newton_row, failures)
{
    /* not finite past w0 = 1: an error, and the last accepted iterate */
    for (int kind = 0; kind < 2; kind++) {
        double lo[1] = {0}, up[1] = {HUGE_VAL}, w[1] = {0};
        struct bl_objective obj = {1, cliff_eval, &kind, lo, up, 0.0, NULL};
        struct bl_solve_info info;
        char err[BL_ERR_MAX] = "";
        void *S = nsolver(NULL);
        cr_assert_eq(nops()->solve(S, &obj, w, &info, err), -1);
        cr_assert(strstr(err, "finite"), "message: %s", err);
        cr_assert(isfinite(w[0]) && w[0] >= 0 && w[0] <= 1.0, "w = %g", w[0]);
        cr_assert(isfinite(info.objective));
        nops()->destroy(S);
    }
    /* ... and right at the start */
    double lo[1] = {0}, up[1] = {HUGE_VAL}, w[1] = {5};
    int kind = 0;
    struct bl_objective obj = {1, cliff_eval, &kind, lo, up, 0.0, NULL};
    struct bl_solve_info info;
    char err[BL_ERR_MAX] = "";
    void *S = nsolver(NULL);
    cr_assert_eq(nops()->solve(S, &obj, w, &info, err), -1);
    cr_assert_eq(w[0], 5.0);
    /* empty bounds */
    double l2[2] = {0, 1}, u2[2] = {1, 0}, w2[2] = {0, 0};
    struct quad Q = {.n = 2};
    Q.A[0] = Q.A[3] = 1;
    struct bl_objective bad = {2, quad_eval, &Q, l2, u2, 0.0, NULL};
    err[0] = 0;
    cr_assert_eq(nops()->solve(S, &bad, w2, &info, err), -1);
    cr_assert(strlen(err) > 0);
    nops()->destroy(S);
}

/* ---- the engine's row objectives of margin-log ----------------------------------- */

/* margin-log with normalize = none | examples | pairs. */
static void *open_mlog(const struct bl_plugin *lp, int normalize)
{
    union bl_value v[4];
    char err[BL_ERR_MAX] = "";
    test_defaults(lp, v);
    v[test_param_index(lp, "normalize")].choice = normalize;
    void *loss = ((const struct bl_loss_ops *)lp->ops)->create(&test_host, v, err);
    cr_assert_not_null(loss, "%s", err);
    return loss;
}

/* The row problem of a random F and stump s, built by the engine's
 * objective code with nu = frac times the largest |gradient| at w = 0, so
 * that some classes stay at the bound: lbfgsb-row (tight tolerances) and
 * newton-row with and without the Hessian reach the same minimiser. */
static void same_minimiser(int normalize, size_t m, size_t k, double frac, uint64_t seed)
{
    const struct bl_plugin *lp = test_plugin("plugins/loss/margin_log", "margin-log");
    const struct bl_loss_ops *L = lp->ops;
    void *loss = open_mlog(lp, normalize);
    rng_seed(seed);
    int *y = malloc(m * sizeof *y);
    double *F = malloc(m * k * sizeof *F), *s = malloc(m * sizeof *s);
    double *Fw = malloc(m * k * sizeof *Fw), *gr = malloc(m * k * sizeof *gr);
    double *lo = filled(k, 0.0), *up = filled(k, HUGE_VAL), *g0 = filled(k, 0.0);
    double *wr = filled(k, 0.0), *w = filled(k, 0.0), *zero = filled(k, 0.0);
    random_problem(m, k, 2.0, y, F);
    for (size_t i = 0; i < m; i++)
        s[i] = urand() < 0.5 ? -1.0 : 1.0;
    bl_coefobj o;
    bl_coefobj_row(&o, L, loss, y, m, k, F, s, 1, Fw, gr);
    cr_assert_not_null(o.fast, "margin-log's row fast path");
    struct bl_objective obj;
    bl_coefobj_objective(&o, lp, k, lo, up, 0.0, &obj);
    cr_assert(obj.hessian == bl_coefobj_hessian, "the engine passes margin-log's row Hessian on");
    double gmax = 0.0;
    obj.eval(obj.ctx, zero, g0);
    for (size_t r = 0; r < k; r++)
        gmax = fmax(gmax, fabs(g0[r]));
    obj.nu = frac * gmax;

    struct bl_solve_info ir, in;
    char err[BL_ERR_MAX] = "";
    void *R = solver("pgtol", 1e-9 * gmax, "ftol", 0.0, "max_iter", 10000.0, NULL);
    cr_assert_eq(sops()->solve(R, &obj, wr, &ir, err), 0, "%s", err);
    sops()->destroy(R);
    size_t nbound = 0, nfree = 0;
    for (size_t r = 0; r < k; r++) {
        nbound += wr[r] == 0.0;
        nfree += wr[r] > 1e-3;
    }
    cr_assert(nbound >= 1 && nfree >= 1, "want active and inactive bounds: %zu at 0, %zu free",
              nbound, nfree);
    for (int hess = 1; hess >= 0; hess--) {
        struct bl_objective ob = obj;
        if (!hess)
            ob.hessian = NULL;
        void *N = nsolver("pgtol", 1e-9 * gmax, "ftol", 0.0, "max_iter", 1000.0, NULL);
        memset(w, 0, k * sizeof *w);
        cr_assert_eq(nops()->solve(N, &ob, w, &in, err), 0, "%s", err);
        nops()->destroy(N);
        cr_assert(max_err(w, wr, k) < 1e-6,
                  "normalize=%d m=%zu k=%zu hess=%d: |w - w_lbfgsb| = %g (status %d/%d, %d/%d "
                  "iterations)", normalize, m, k, hess, max_err(w, wr, k), in.status, ir.status,
                  in.iterations, ir.iterations);
        cr_assert(fabs(in.objective - ir.objective) <= 1e-9 * fabs(ir.objective),
                  "objective %.17g vs lbfgsb's %.17g", in.objective, ir.objective);
        for (size_t r = 0; r < k; r++)
            cr_assert(w[r] >= 0.0 && (wr[r] == 0.0) == (w[r] == 0.0),
                      "class %zu: %g, lbfgsb %g (the same classes at the bound)", r, w[r], wr[r]);
        if (hess)
            cr_assert(in.iterations <= 15 && in.evaluations < ir.evaluations,
                      "Newton: %d iterations, %d evaluations (lbfgsb: %d, %d)", in.iterations,
                      in.evaluations, ir.iterations, ir.evaluations);
    }
    bl_coefobj_done(&o);
    L->destroy(loss);
    free(y), free(F), free(s), free(Fw), free(gr), free(lo), free(up), free(g0), free(wr), free(w);
    free(zero);
}

Test(newton_row, same_minimiser_as_lbfgsb)
{
    same_minimiser(0, 200, 5, 0.1, 70);
    same_minimiser(0, 400, 10, 0.3, 71);
    same_minimiser(1, 500, 26, 0.05, 72);
    same_minimiser(2, 300, 8, 0.2, 73);
    same_minimiser(1, 2500, 4, 0.1, 74); /* two chunks of examples */
}

/* The engine's objective carries the Hessian only for a class-space row
 * objective on the fast path of a loss that has row_hessian, and it is
 * that loss's row Hessian. */
Test(newton_row, objective_hessian_wiring)
{
    const struct bl_plugin *lp = test_plugin("plugins/loss/margin_log", "margin-log");
    const struct bl_loss_ops *L = lp->ops;
    void *loss = open_mlog(lp, 0);
    size_t m = 50, k = 4;
    int y[50];
    double F[200], s[200], Fw[200], gr[200], lo[4] = {0}, up[4], w[4], H1[16], H2[16];
    rng_seed(80);
    random_problem(m, k, 1.0, y, F);
    for (size_t j = 0; j < m * k; j++)
        s[j] = urand() < 0.5 ? -1.0 : 1.0;
    for (size_t r = 0; r < k; r++)
        up[r] = HUGE_VAL, w[r] = urange(0.0, 1.0);
    struct bl_objective obj;
    bl_coefobj o;
    /* scalar outputs: the fast path, and its Hessian */
    bl_coefobj_row(&o, L, loss, y, m, k, F, s, 1, Fw, gr);
    bl_coefobj_objective(&o, lp, k, lo, up, 0.25, &obj);
    cr_assert_not_null(obj.hessian);
    cr_assert(obj.eval == bl_coefobj_eval && obj.ctx == &o && obj.n == k && obj.nu == 0.25);
    cr_assert(obj.lower == lo && obj.upper == up);
    cr_assert_eq(obj.hessian(obj.ctx, w, H1), 0);
    cr_assert_eq(L->row_hessian(o.fast, w, H2), 0);
    cr_assert(memcmp(H1, H2, sizeof H1) == 0);
    /* not from a descriptor whose ops table is another one, nor from one
     * whose table has no row_hessian */
    const struct bl_plugin *other = test_plugin("plugins/loss/margin_exp", "margin-exp");
    bl_coefobj_objective(&o, other, k, lo, up, 0.25, &obj);
    cr_assert_null(obj.hessian);
    struct bl_plugin old = *lp;
    struct bl_loss_ops old_ops = *L;
    old_ops.row_hessian = NULL;
    old.ops = &old_ops;
    bl_coefobj_objective(&o, &old, k, lo, up, 0.25, &obj);
    cr_assert_null(obj.hessian);
    cr_assert_eq(bl_coefobj_hessian(&o, w, H1), -1);
    bl_coefobj_done(&o);
    /* vector outputs (no fast path) */
    bl_coefobj_row(&o, L, loss, y, m, k, F, s, k, Fw, gr);
    bl_coefobj_objective(&o, lp, k, lo, up, 0.25, &obj);
    cr_assert_null(obj.hessian);
    bl_coefobj_done(&o);
    /* totally corrective */
    const double *outs[1] = {s};
    size_t dims[1] = {1};
    bl_coefobj_all(&o, L, loss, y, m, k, 1, outs, dims, Fw, gr);
    bl_coefobj_objective(&o, lp, k, lo, up, 0.25, &obj);
    cr_assert_null(obj.hessian);
    bl_coefobj_done(&o);
    L->destroy(loss);
}

/* ---- eps-step --------------------------------------------------------------------- */

static const struct bl_plugin *eplug(void)
{
    return test_plugin("plugins/solver/eps_step", "eps-step");
}

static const struct bl_solver_ops *eops(void)
{
    return eplug()->ops;
}

static void *esolver(const char *name, ...)
{
    va_list ap;
    va_start(ap, name);
    void *S = vsolver(eplug(), name, ap);
    va_end(ap);
    return S;
}

/* f = 1/2 sum_j (w_j - a_j)^2: gradient w - a */
static double sep_eval(void *ctx, const double *w, double *g)
{
    struct quad *Q = ctx;
    double f = 0;
    Q->evals++;
    for (size_t j = 0; j < Q->n; j++) {
        f += 0.5 * (w[j] - Q->a[j]) * (w[j] - Q->a[j]);
        if (g)
            g[j] = w[j] - Q->a[j];
    }
    return f;
}

Test(eps_step, descriptor)
{
    const struct bl_plugin *p = eplug();
    cr_assert_eq(p->role, BL_ROLE_SOLVER);
    cr_assert_eq(eops()->scope, BL_SOLVE_ROW);
    cr_assert_eq(eops()->space, BL_SPACE_STEP);
    cr_assert_eq(eops()->penalty, BL_PENALTY_LINEAR);
    union bl_value v[4];
    test_defaults(p, v);
    cr_assert_eq(p->nparams, 1);
    cr_assert_eq(v[test_param_index(p, "step")].r, 0.01);
}

/* One coordinate moves by the step, the steepest one the bounds let
 * descend, against its gradient; nothing moves when none descends. */
Test(eps_step, steepest_coordinate_and_bounds)
{
    struct {
        double a[3], lo[3], up[3], nu, step, want[3];
    } cases[] = {
        /* w >= 0: only coordinates with a negative gradient may move (up) */
        {{0.3, -0.5, 0.2}, {0, 0, 0}, {HUGE_VAL, HUGE_VAL, HUGE_VAL}, 0, 0.01, {0.01, 0, 0}},
        /* free: the largest |gradient| wins, moving down */
        {{0.3, -0.5, 0.2}, {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, {HUGE_VAL, HUGE_VAL, HUGE_VAL}, 0,
         0.01, {0, -0.01, 0}},
        /* an upper bound clips the step */
        {{0.3, -0.5, 0.2}, {0, 0, 0}, {0.004, HUGE_VAL, HUGE_VAL}, 0, 0.01, {0.004, 0, 0}},
        /* a coordinate already at its upper bound cannot ascend: the next one */
        {{0.3, -0.5, 0.2}, {0, 0, 0}, {0, HUGE_VAL, HUGE_VAL}, 0, 0.25, {0, 0, 0.25}},
        /* nu adds to every gradient: 0.3 - 0.35 > ... none descends */
        {{0.3, -0.5, 0.2}, {0, 0, 0}, {HUGE_VAL, HUGE_VAL, HUGE_VAL}, 0.35, 0.01, {0, 0, 0}},
        /* ties go to the lowest coordinate */
        {{0.2, 0.2, 0.2}, {0, 0, 0}, {HUGE_VAL, HUGE_VAL, HUGE_VAL}, 0, 0.5, {0.5, 0, 0}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        void *S = esolver("step", cases[c].step, NULL);
        struct quad Q = {.n = 3};
        memcpy(Q.a, cases[c].a, sizeof cases[c].a);
        struct bl_objective obj = {3, sep_eval, &Q, cases[c].lo, cases[c].up, cases[c].nu, NULL};
        double w[3] = {0, 0, 0};
        struct bl_solve_info info;
        char err[BL_ERR_MAX] = "";
        cr_assert_eq(eops()->solve(S, &obj, w, &info, err), 0, "%s", err);
        for (size_t j = 0; j < 3; j++)
            cr_assert_eq(w[j], cases[c].want[j], "case %zu: w[%zu] = %.17g, expected %.17g", c, j,
                         w[j], cases[c].want[j]);
        int moved = w[0] != 0 || w[1] != 0 || w[2] != 0;
        cr_assert_eq(info.iterations, moved);
        cr_assert_eq(info.evaluations, Q.evals);
        double f = sep_eval(&Q, w, NULL) + cases[c].nu * (w[0] + w[1] + w[2]);
        cr_assert(fabs(info.objective - f) <= 1e-15 * (1 + fabs(f)), "case %zu: objective", c);
        eops()->destroy(S);
    }
}

/* On a stage-wise row of margin-exp the step goes to the class the stump
 * rule (10) selects, argmax_r sum_i G_ir s_i with G = -dL/dF, and nowhere
 * else: the row is step * e_r. */
Test(eps_step, selected_class_of_a_margin_row)
{
    const struct bl_plugin *lp = test_plugin("plugins/loss/margin_exp", "margin-exp");
    const struct bl_loss_ops *L = lp->ops;
    char err[BL_ERR_MAX] = "";
    void *loss = L->create(&test_host, NULL, err);
    cr_assert_not_null(loss, "%s", err);
    void *S = esolver("step", 0.03, NULL);
    rng_seed(77);
    for (int trial = 0; trial < 20; trial++) {
        size_t m = 10 + irand(50), k = 2 + irand(6);
        int *y = malloc(m * sizeof *y);
        double *F = malloc(m * k * sizeof *F), *s = malloc(m * sizeof *s);
        double *Fw = malloc(m * k * sizeof *Fw), *gF = malloc(m * k * sizeof *gF);
        random_problem(m, k, 1.0, y, F);
        for (size_t i = 0; i < m; i++)
            s[i] = urand() < 0.5 ? -1.0 : 1.0;
        L->eval(loss, y, m, k, F, gF);
        size_t best = 0;
        double top = -HUGE_VAL;
        for (size_t r = 0; r < k; r++) {
            double score = 0;
            for (size_t i = 0; i < m; i++)
                score -= gF[i * k + r] * s[i];
            if (score > top)
                top = score, best = r;
        }
        struct rowctx C = {L, loss, y, m, k, F, s, Fw, gF};
        double *lo = filled(k, 0.0), *up = filled(k, HUGE_VAL), *w = filled(k, 0.0);
        struct bl_objective obj = {k, row_eval, &C, lo, up, 0.0, NULL};
        struct bl_solve_info info;
        cr_assert_eq(eops()->solve(S, &obj, w, &info, err), 0, "%s", err);
        for (size_t r = 0; r < k; r++)
            cr_assert_eq(w[r], top > 0 && r == best ? 0.03 : 0.0,
                         "trial %d: w[%zu] = %g, the stump's class is %zu (score %g)", trial, r,
                         w[r], best, top);
        free(lo), free(up), free(w), free(y), free(F), free(s), free(Fw), free(gF);
    }
    eops()->destroy(S);
    L->destroy(loss);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of the solver "exp-step" (plugins/solver/exp_step.c), the
 * closed-form stage-wise step of RandomBoost (spec §2.5, eq. (8)) and of
 * discrete AdaBoost, and of margin-exp's parameter pairs (all | wrong).
 *
 * exp-step, on the engine's own row objectives (framework/engine/objective.c)
 * with class outputs of +-1 and the tied coefficient w = alpha * 1:
 *   - margin-exp (either pair set): alpha equals 1/4 ln(Q+/Q-) computed
 *     directly from the pairs, and lbfgsb-line's alpha, through the closed
 *     form (counted from its level-2 log lines) in at most 4 evaluations;
 *   - nu > 0: the minimiser of phi found by brute force (a grid, then
 *     bisection on phi'), for the log model (margin-exp), the plain sum
 *     (rate 2, a synthetic objective) and mh-exp (rate 1);
 *   - the fallback: margin-log, real-valued outputs and quadratics reach
 *     their minimisers (bounds active or not), without the closed form;
 *   - Q- = 0 gives alpha = max_step, finite, status MAXITER; Q+ = 0 gives 0;
 *   - bounds, errors, descriptor, determinism;
 *   - end to end: AdaBoost and AdaBoost.ECC trained with exp-step match
 *     lbfgsb-line's models, with 3-4 evaluations per step.
 * margin-exp: the default (pairs = all, or no parameters) gives bitwise the
 * values of the formula as computed before the parameter existed; pairs =
 * wrong gives log sum_{r != y_i} exp(-rho_ir), its gradient, Hessian
 * diagonal and row fast path.
 */
#include <criterion/criterion.h>
#include "testutil.h"

#include <boostlab/parallel.h>
#include <float.h>
#include <math.h>

#include "data/quantize.h"
#include "config/experiment.h"
#include "engine/engine.h"
#include "engine/objective.h"

/* ---- exp-step with a host that counts its log lines ------------------------------ */

static int n_closed, n_fallback, n_capped;

static void count_log(int level, const char *plugin, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    (void)level;
    if (strcmp(plugin, "exp-step") != 0)
        return;
    if (strncmp(msg, "closed form", 11) == 0)
        n_closed++;
    else if (strncmp(msg, "fallback", 8) == 0)
        n_fallback++;
    else if (strstr(msg, "max_step"))
        n_capped++;
}

static const struct bl_host count_host = {BL_SDK_VERSION, 1, count_log};

static void reset_counts(void)
{
    n_closed = n_fallback = n_capped = 0;
}

static const struct bl_plugin *es_plug(void)
{
    return test_plugin("plugins/solver/exp_step", "exp-step");
}

static const struct bl_solver_ops *es_ops(void)
{
    return es_plug()->ops;
}

/* A solver of plugin p (host h) with the defaults, then the overrides
 * (NULL-terminated name / value pairs, values as doubles). */
static void *vsolver(const struct bl_plugin *p, const struct bl_host *h, const char *name,
                     va_list ap)
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
    void *S = ((const struct bl_solver_ops *)p->ops)->create(h, v, err);
    cr_assert_not_null(S, "create: %s", err);
    return S;
}

static void *es_solver(const char *name, ...)
{
    va_list ap;
    va_start(ap, name);
    void *S = vsolver(es_plug(), &count_host, name, ap);
    va_end(ap);
    return S;
}

static const struct bl_plugin *line_plug(void)
{
    return test_plugin("plugins/solver/lbfgsb", "lbfgsb-line");
}

/* lbfgsb-line as tight as it goes */
static void *line_solver(void)
{
    union bl_value v[16];
    char err[BL_ERR_MAX] = "";
    const struct bl_plugin *p = line_plug();
    test_defaults(p, v);
    v[test_param_index(p, "pgtol")].r = 1e-12;
    v[test_param_index(p, "ftol")].r = 0.0;
    v[test_param_index(p, "max_iter")].i = 500;
    void *S = ((const struct bl_solver_ops *)p->ops)->create(&test_host, v, err);
    cr_assert_not_null(S, "create: %s", err);
    return S;
}

/* ---- losses ---------------------------------------------------------------------- */

/* margin-exp with pairs = all (0), wrong (1), or no parameters at all (-1). */
static void *open_mexp(const struct bl_plugin *lp, int pairs)
{
    union bl_value v[4];
    char err[BL_ERR_MAX] = "";
    test_defaults(lp, v);
    if (pairs >= 0)
        v[test_param_index(lp, "pairs")].choice = pairs;
    void *L = ((const struct bl_loss_ops *)lp->ops)->create(&test_host, pairs >= 0 ? v : NULL, err);
    cr_assert_not_null(L, "create: %s", err);
    return L;
}

static const struct bl_plugin *mexp_plug(void)
{
    return test_plugin("plugins/loss/margin_exp", "margin-exp");
}

/* Any loss with its default parameters. */
static void *open_default(const struct bl_plugin *lp)
{
    union bl_value v[8];
    char err[BL_ERR_MAX] = "";
    test_defaults(lp, v);
    void *L = ((const struct bl_loss_ops *)lp->ops)->create(&test_host, lp->nparams ? v : NULL, err);
    cr_assert_not_null(L, "create: %s", err);
    return L;
}

/* ---- tied row problems: the engine's objective over L(F + S diag(w)) ------------- */

struct tied {
    const struct bl_plugin *lp;
    const struct bl_loss_ops *L;
    void *loss;
    size_t m, k;
    int *y;
    double *F, *S, *Fw, *gr, *lo, *up, *w;
    bl_coefobj o;
    struct bl_objective obj;
};

/* Scores F uniform in [-fs, fs], class outputs S: +-1 at random (real in
 * [-1, 1] when real is set). */
static void tied_make(struct tied *T, const struct bl_plugin *lp, void *loss, size_t m,
                      size_t k, double fs, int real, uint64_t seed)
{
    memset(T, 0, sizeof *T);
    T->lp = lp, T->L = lp->ops, T->loss = loss, T->m = m, T->k = k;
    T->y = malloc(m * sizeof *T->y);
    T->F = malloc(m * k * sizeof *T->F);
    T->S = malloc(m * k * sizeof *T->S);
    T->Fw = malloc(m * k * sizeof *T->Fw);
    T->gr = malloc(m * k * sizeof *T->gr);
    T->lo = malloc(k * sizeof *T->lo);
    T->up = malloc(k * sizeof *T->up);
    T->w = malloc(k * sizeof *T->w);
    rng_seed(seed);
    random_problem(m, k, fs, T->y, T->F);
    for (size_t j = 0; j < m * k; j++)
        T->S[j] = real ? urange(-1.0, 1.0) : (urand() < 0.5 ? -1.0 : 1.0);
    for (size_t r = 0; r < k; r++)
        T->lo[r] = 0.0, T->up[r] = HUGE_VAL;
}

/* (Re)build the objective with nu (after changing S, bounds, ...). */
static struct bl_objective *tied_obj(struct tied *T, double nu)
{
    bl_coefobj_row(&T->o, T->L, T->loss, T->y, T->m, T->k, T->F, T->S, T->k, T->Fw, T->gr);
    bl_coefobj_objective(&T->o, T->lp, T->k, T->lo, T->up, nu, &T->obj);
    return &T->obj;
}

static void tied_free(struct tied *T)
{
    bl_coefobj_done(&T->o);
    free(T->y), free(T->F), free(T->S), free(T->Fw), free(T->gr), free(T->lo), free(T->up),
        free(T->w);
}

/* phi(alpha) = f(alpha 1) + nu n alpha and phi'(alpha). */
static double phi(const struct bl_objective *obj, double a, double *dphi)
{
    double w[64], g[64], d = 0.0;
    for (size_t r = 0; r < obj->n; r++)
        w[r] = a;
    double f = obj->eval(obj->ctx, w, g);
    for (size_t r = 0; r < obj->n; r++)
        d += g[r];
    if (dphi)
        *dphi = d + obj->nu * (double)obj->n;
    return f + obj->nu * (double)obj->n * a;
}

/* Brute force: the lowest phi on a grid of [lo, up], then bisection on the
 * sign of phi' between its neighbours (phi convex). */
static double brute_min(const struct bl_objective *obj, double lo, double up)
{
    const int G = 4000;
    int best = 0;
    double fb = HUGE_VAL;
    for (int j = 0; j <= G; j++) {
        double f = phi(obj, lo + (up - lo) * j / G, NULL);
        if (f < fb)
            fb = f, best = j;
    }
    double a = lo + (up - lo) * (best > 0 ? best - 1 : 0) / G;
    double b = lo + (up - lo) * (best < G ? best + 1 : G) / G, d;
    phi(obj, a, &d);
    if (d >= 0)
        return a; /* at the lower end */
    phi(obj, b, &d);
    if (d <= 0)
        return b;
    for (int it = 0; it < 200 && b - a > 0; it++) {
        double c = 0.5 * (a + b);
        if (c <= a || c >= b)
            break;
        phi(obj, c, &d);
        if (d > 0)
            b = c;
        else
            a = c;
    }
    return 0.5 * (a + b);
}

static double solve_alpha(void *S, const struct bl_solver_ops *ops, struct bl_objective *obj,
                          struct bl_solve_info *info)
{
    double w[64] = {0};
    char err[BL_ERR_MAX] = "";
    cr_assert_eq(ops->solve(S, obj, w, info, err), 0, "solve: %s", err);
    for (size_t r = 1; r < obj->n; r++)
        cr_assert_eq(w[r], w[0], "w is not tied: w[%zu] = %.17g, w[0] = %.17g", r, w[r], w[0]);
    cr_assert(isfinite(w[0]));
    return w[0];
}

/* Q+ and Q-: sum over the pairs r != y_i whose margin moves by +2 alpha
 * (resp. -2 alpha) of exp(-rho_ir). */
static void direct_q(const struct tied *T, double *qp, double *qm)
{
    *qp = *qm = 0.0;
    for (size_t i = 0; i < T->m; i++) {
        size_t yi = (size_t)T->y[i];
        for (size_t r = 0; r < T->k; r++) {
            if (r == yi)
                continue;
            double delta = T->S[i * T->k + yi] - T->S[i * T->k + r];
            double e = exp(T->F[i * T->k + r] - T->F[i * T->k + yi]);
            if (delta == 2.0)
                *qp += e;
            else if (delta == -2.0)
                *qm += e;
        }
    }
}

/* ---- closed form ------------------------------------------------------------------ */

/* margin-exp (both pair sets), +-1 class outputs, nu = 0: alpha is eq. (8)
 * and lbfgsb-line's answer; the closed form answers, in <= 4 evaluations. */
Test(exp_step, closed_form_is_eq8_and_lbfgsb_line)
{
    const struct bl_plugin *lp = mexp_plug();
    void *S = es_solver(NULL), *LS = line_solver();
    const struct bl_solver_ops *lops = line_plug()->ops;
    size_t ks[] = {2, 3, 5, 10};
    int cases = 0, closed = 0;
    double worst_line = 0.0;
    for (int pairs = 0; pairs < 2; pairs++)
        for (size_t a = 0; a < sizeof ks / sizeof ks[0]; a++)
            for (uint64_t seed = 0; seed < 6; seed++) {
                void *loss = open_mexp(lp, pairs);
                struct tied T;
                size_t m = 20 + 37 * seed;
                tied_make(&T, lp, loss, m, ks[a], 1.0 + (double)seed, 0, 1000 + 10 * a + seed);
                struct bl_objective *obj = tied_obj(&T, 0.0);
                double qp, qm;
                direct_q(&T, &qp, &qm);
                double want = fmax(0.0, 0.25 * log(qp / qm));
                struct bl_solve_info info, linfo;
                reset_counts();
                double al = solve_alpha(S, es_ops(), obj, &info);
                cases++;
                closed += n_closed;
                cr_assert_eq(n_closed, 1, "pairs=%d k=%zu seed=%llu: not the closed form "
                             "(fallback %d)", pairs, ks[a], (unsigned long long)seed, n_fallback);
                cr_assert(info.evaluations <= 4 && info.iterations == info.evaluations,
                          "%d evaluations", info.evaluations);
                cr_assert_eq(info.evaluations, T.o.evals);
                cr_assert_eq(info.status, BL_SOLVE_CONVERGED);
                cr_assert(fabs(al - want) <= 1e-9 * (1.0 + want),
                          "pairs=%d k=%zu seed=%llu: alpha %.17g, 1/4 ln(Q+/Q-) = %.17g", pairs,
                          ks[a], (unsigned long long)seed, al, want);
                double f = phi(obj, al, NULL);
                cr_assert(fabs(info.objective - f) <= 1e-13 * (1 + fabs(f)));
                /* lbfgsb-line's line search compares values of f, so it
                 * cannot place alpha closer than about sqrt(eps |f| / f'')
                 * (~1e-8 here): alpha to 1e-7, and exp-step's phi' at its
                 * answer is no larger than lbfgsb-line's at its own */
                double ll = solve_alpha(LS, lops, obj, &linfo), dl, de;
                worst_line = fmax(worst_line, fabs(ll - al));
                cr_assert(fabs(ll - al) <= 1e-7, "pairs=%d k=%zu: exp-step %.17g, lbfgsb-line "
                          "%.17g (%d evaluations)", pairs, ks[a], al, ll, linfo.evaluations);
                phi(obj, al, &de);
                phi(obj, ll, &dl);
                cr_assert(al == 0.0 || fabs(de) <= fabs(dl) + 1e-15,
                          "phi' %.3g at exp-step's alpha, %.3g at lbfgsb-line's", de, dl);
                tied_free(&T);
                ((const struct bl_loss_ops *)lp->ops)->destroy(loss);
            }
    cr_assert_eq(closed, cases);
    cr_log_info("closed form in %d of %d cases; largest |alpha - lbfgsb-line| %.3g", closed,
                cases, worst_line);
    es_ops()->destroy(S);
    ((const struct bl_solver_ops *)line_plug()->ops)->destroy(LS);
}

/* The k = 2 AdaBoost case: alpha = 1/2 ln((1 - err)/err) with err the
 * weighted error (spec §5.3), for the binary code's outputs (h, -h). */
Test(exp_step, discrete_adaboost_alpha)
{
    const struct bl_plugin *lp = mexp_plug();
    void *loss = open_mexp(lp, -1), *S = es_solver(NULL);
    struct tied T;
    tied_make(&T, lp, loss, 150, 2, 1.0, 0, 77);
    double e_ok = 0, e_bad = 0;
    for (size_t i = 0; i < T.m; i++) {
        double h = urand() < 0.7 ? 1.0 : -1.0; /* correct (+) about 70% of the time */
        double z = T.y[i] == 0 ? 1.0 : -1.0;
        T.S[2 * i] = z * h, T.S[2 * i + 1] = -z * h;
        size_t yi = (size_t)T.y[i];
        double u = exp(T.F[2 * i + 1 - yi] - T.F[2 * i + yi]);
        if (h > 0)
            e_ok += u;
        else
            e_bad += u;
    }
    double err = e_bad / (e_ok + e_bad), want = 0.5 * log((1 - err) / err);
    struct bl_solve_info info;
    reset_counts();
    double al = solve_alpha(S, es_ops(), tied_obj(&T, 0.0), &info);
    /* the class outputs are +-1 and the margins move by 2 alpha: the step
     * on w is AdaBoost's alpha / 2 */
    cr_assert(fabs(2.0 * al - want) <= 1e-9, "2 alpha = %.17g, AdaBoost %.17g", 2 * al, want);
    cr_assert_eq(n_closed, 1);
    cr_assert_eq(info.evaluations, 3);
    tied_free(&T);
    ((const struct bl_loss_ops *)lp->ops)->destroy(loss);
    es_ops()->destroy(S);
}

/* A synthetic plain sum of exponentials (the "lin" model, rates 2 or 1):
 * f(alpha 1) = A + sum_j q_j exp(-c_j sum_r w_r / n) with c_j in
 * {-rate, 0, rate}, and gradient entries that sum to f'. */
struct psum {
    size_t p;
    double A, rate, q[64], c[64];
};

static double psum_eval(void *ctx, const double *w, double *g)
{
    const struct psum *P = ctx;
    size_t n = 3;
    double a = (w[0] + w[1] + w[2]) / (double)n, f = P->A, d = 0;
    for (size_t j = 0; j < P->p; j++) {
        double e = P->q[j] * exp(-P->c[j] * a);
        f += e;
        d -= P->c[j] * e;
    }
    if (g)
        for (size_t r = 0; r < n; r++)
            g[r] = d / (double)n;
    return f;
}

static void psum_make(struct psum *P, double rate, uint64_t seed)
{
    rng_seed(seed);
    P->p = 40, P->A = urange(-3, 3), P->rate = rate;
    for (size_t j = 0; j < P->p; j++) {
        P->q[j] = urange(0.01, 2.0);
        double u = urand();
        P->c[j] = u < 0.5 ? rate : u < 0.8 ? -rate : 0.0;
    }
}

/* nu > 0: the brute-force minimiser, for margin-exp (log model; nu n >= 2
 * puts alpha at 0), the plain sums (rates 2 and 1) and mh-exp's one-vs-all
 * terms (rate 1), all through the closed form. */
Test(exp_step, nu_against_brute_force)
{
    const double nus[] = {0.0, 0.01, 0.05, 0.2, 0.5};
    void *S = es_solver(NULL);
    /* margin-exp, both pair sets */
    const struct bl_plugin *lp = mexp_plug();
    for (int pairs = 0; pairs < 2; pairs++)
        for (size_t j = 0; j < sizeof nus / sizeof nus[0]; j++) {
            void *loss = open_mexp(lp, pairs);
            struct tied T;
            tied_make(&T, lp, loss, 80, 4, 1.5, 0, 500 + j);
            struct bl_objective *obj = tied_obj(&T, nus[j]);
            struct bl_solve_info info;
            reset_counts();
            double al = solve_alpha(S, es_ops(), obj, &info), bf = brute_min(obj, 0.0, 10.0);
            cr_assert(fabs(al - bf) <= 1e-8, "margin-exp pairs=%d nu=%g: %.17g vs brute force "
                      "%.17g", pairs, nus[j], al, bf);
            cr_assert_eq(n_closed, 1, "margin-exp nu=%g: fallback", nus[j]);
            if (nus[j] * 4 >= 2.0)
                cr_assert_eq(al, 0.0, "nu n >= 2: phi increases from 0");
            tied_free(&T);
            ((const struct bl_loss_ops *)lp->ops)->destroy(loss);
        }
    /* the plain sums */
    for (int rate = 1; rate <= 2; rate++)
        for (size_t j = 0; j < sizeof nus / sizeof nus[0]; j++) {
            struct psum P;
            psum_make(&P, rate, 40 + j + 10 * (uint64_t)rate);
            double lo[3] = {0, 0, 0}, up[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
            struct bl_objective obj = {3, psum_eval, &P, lo, up, nus[j], NULL};
            struct bl_solve_info info;
            reset_counts();
            double al = solve_alpha(S, es_ops(), &obj, &info), bf = brute_min(&obj, 0.0, 10.0);
            cr_assert(fabs(al - bf) <= 1e-8, "plain sum rate %d nu=%g: %.17g vs %.17g", rate,
                      nus[j], al, bf);
            cr_assert_eq(n_closed, 1, "plain sum rate %d nu=%g: fallback", rate, nus[j]);
            cr_assert(info.evaluations <= 4);
        }
    /* mh-exp, +-1 class outputs: exp(-Y_ir (F_ir + alpha s_ir)), rate 1 */
    const struct bl_plugin *mh = test_plugin("plugins/loss/mh_exp", "mh-exp");
    for (size_t j = 0; j < sizeof nus / sizeof nus[0]; j++) {
        void *loss = open_default(mh);
        struct tied T;
        tied_make(&T, mh, loss, 60, 3, 1.0, 0, 700 + j);
        struct bl_objective *obj = tied_obj(&T, nus[j]);
        struct bl_solve_info info;
        reset_counts();
        double al = solve_alpha(S, es_ops(), obj, &info), bf = brute_min(obj, 0.0, 10.0);
        cr_assert(fabs(al - bf) <= 1e-8, "mh-exp nu=%g: %.17g vs %.17g", nus[j], al, bf);
        cr_assert_eq(n_closed, 1, "mh-exp nu=%g: fallback", nus[j]);
        tied_free(&T);
        ((const struct bl_loss_ops *)mh->ops)->destroy(loss);
    }
    es_ops()->destroy(S);
}

/* ---- fallback ---------------------------------------------------------------------- */

/* Not of the closed form's shape: margin-log, and margin-exp with
 * real-valued outputs (spec (9) is only a bound there).  The fallback finds
 * the minimiser. */
Test(exp_step, fallback_other_objectives)
{
    void *S = es_solver(NULL);
    const struct bl_plugin *ml = test_plugin("plugins/loss/margin_log", "margin-log");
    const struct bl_plugin *me = mexp_plug();
    const double nus[] = {0.0, 0.05};
    int most = 0;
    for (int kind = 0; kind < 2; kind++)
        for (size_t j = 0; j < 2; j++)
            for (uint64_t seed = 0; seed < 4; seed++) {
                const struct bl_plugin *lp = kind ? me : ml;
                void *loss = open_default(lp);
                struct tied T;
                tied_make(&T, lp, loss, 50 + 10 * seed, 3 + seed, 1.0, kind, 900 + seed);
                struct bl_objective *obj = tied_obj(&T, nus[j]);
                struct bl_solve_info info;
                reset_counts();
                double al = solve_alpha(S, es_ops(), obj, &info), bf = brute_min(obj, 0.0, 10.0);
                cr_assert(fabs(al - bf) <= 1e-7 * (1 + bf), "%s nu=%g seed=%llu: %.17g vs %.17g",
                          lp->name, nus[j], (unsigned long long)seed, al, bf);
                cr_assert_eq(n_closed, 0, "%s: the closed form claimed a non-exponential "
                             "objective", lp->name);
                cr_assert_eq(n_fallback, 1);
                cr_assert_eq(info.status, BL_SOLVE_CONVERGED);
                most = info.evaluations > most ? info.evaluations : most;
                cr_assert(info.evaluations <= 40, "%d evaluations", info.evaluations);
                double d;
                phi(obj, al, &d);
                cr_assert(al == 0.0 ? d >= -1e-9 : fabs(d) <= 1e-8, "phi' = %g at %g", d, al);
                tied_free(&T);
                ((const struct bl_loss_ops *)lp->ops)->destroy(loss);
            }
    cr_log_info("fallback: at most %d evaluations", most);
    es_ops()->destroy(S);
}

/* f(w) = 1/2 sum_r a_r (w_r - c_r)^2: along w = alpha 1 the minimiser of
 * phi is (sum a_r c_r - nu n) / sum a_r, clipped to the bounds. */
struct quad1 {
    size_t n;
    double a[8], c[8];
};

static double quad1_eval(void *ctx, const double *w, double *g)
{
    const struct quad1 *Q = ctx;
    double f = 0;
    for (size_t r = 0; r < Q->n; r++) {
        f += 0.5 * Q->a[r] * (w[r] - Q->c[r]) * (w[r] - Q->c[r]);
        if (g)
            g[r] = Q->a[r] * (w[r] - Q->c[r]);
    }
    return f;
}

Test(exp_step, fallback_quadratic_and_bounds)
{
    void *S = es_solver(NULL);
    struct quad1 Q = {4, {1.0, 2.0, 0.5, 3.0}, {1.5, -0.5, 4.0, 2.0}};
    double sa = 0, sac = 0;
    for (size_t r = 0; r < Q.n; r++)
        sa += Q.a[r], sac += Q.a[r] * Q.c[r];
    struct {
        double lo, up, nu;
    } cases[] = {
        {0.0, HUGE_VAL, 0.0},        /* interior: 9.5 / 6.5 */
        {0.0, HUGE_VAL, 0.3},        /* nu shifts it */
        {0.0, 1.0, 0.0},             /* upper bound active */
        {2.0, HUGE_VAL, 0.0},        /* lower bound active */
        {-HUGE_VAL, HUGE_VAL, 5.0},  /* free, negative minimiser */
        {0.0, HUGE_VAL, 5.0},        /* ... held at 0 */
        {-HUGE_VAL, HUGE_VAL, -1.0}, /* a negative nu: no closed form */
    };
    for (size_t j = 0; j < sizeof cases / sizeof cases[0]; j++) {
        double lo[4], up[4];
        for (size_t r = 0; r < 4; r++)
            lo[r] = cases[j].lo, up[r] = cases[j].up;
        struct bl_objective obj = {4, quad1_eval, &Q, lo, up, cases[j].nu, NULL};
        struct bl_solve_info info;
        reset_counts();
        double al = solve_alpha(S, es_ops(), &obj, &info);
        double want = (sac - cases[j].nu * 4) / sa;
        want = fmin(fmax(want, fmax(cases[j].lo, -10.0)), fmin(cases[j].up, 10.0));
        cr_assert(fabs(al - want) <= 1e-9, "case %zu: %.17g, want %.17g", j, al, want);
        cr_assert_eq(n_closed, 0, "case %zu: closed form on a quadratic", j);
        cr_assert(info.evaluations <= 30, "case %zu: %d evaluations", j, info.evaluations);
        cr_assert_eq(info.status, BL_SOLVE_CONVERGED);
    }
    /* variables with different bounds: their intersection (as lbfgsb-line) */
    double lo[4] = {0.0, -1.0, 0.5, -HUGE_VAL}, up[4] = {3.0, 1.2, HUGE_VAL, 5.0};
    struct bl_objective obj = {4, quad1_eval, &Q, lo, up, 0.0, NULL};
    struct bl_solve_info info;
    double al = solve_alpha(S, es_ops(), &obj, &info);
    cr_assert(fabs(al - 1.2) <= 1e-12, "%.17g", al);
    es_ops()->destroy(S);
}

/* ---- guards ------------------------------------------------------------------------ */

/* Q- = 0 (every moved pair gains): no finite minimiser; alpha = max_step,
 * finite, status MAXITER and a level-1 log line.  Q+ = 0: alpha = 0.  No
 * pair moves: phi is flat and alpha stays at the start. */
Test(exp_step, infinite_step_capped)
{
    const struct bl_plugin *lp = mexp_plug();
    for (int pairs = 0; pairs < 2; pairs++)
        for (int cap = 0; cap < 2; cap++) {
            void *loss = open_mexp(lp, pairs);
            void *S = cap ? es_solver("max_step", 3.0, NULL) : es_solver(NULL);
            double ms = cap ? 3.0 : 10.0;
            struct tied T;
            tied_make(&T, lp, loss, 40, 4, 1.0, 0, 31 + (uint64_t)cap);
            for (size_t i = 0; i < T.m; i++)
                for (size_t r = 0; r < T.k; r++)
                    T.S[i * T.k + r] = r == (size_t)T.y[i] ? 1.0 : -1.0;
            struct bl_solve_info info;
            reset_counts();
            double al = solve_alpha(S, es_ops(), tied_obj(&T, 0.0), &info);
            cr_assert_eq(al, ms, "Q- = 0: alpha %.17g, max_step %g", al, ms);
            cr_assert(isfinite(info.objective));
            cr_assert_eq(info.status, BL_SOLVE_MAXITER);
            cr_assert_eq(n_capped, 1);
            cr_assert_eq(n_closed, 1);
            cr_assert(info.evaluations <= 4, "%d evaluations", info.evaluations);
            /* Q+ = 0 */
            for (size_t j = 0; j < T.m * T.k; j++)
                T.S[j] = -T.S[j];
            reset_counts();
            al = solve_alpha(S, es_ops(), tied_obj(&T, 0.0), &info);
            cr_assert_eq(al, 0.0, "Q+ = 0: alpha %.17g (closed %d, fallback %d, %d evaluations)",
                         al, n_closed, n_fallback, info.evaluations);
            cr_assert_eq(info.status, BL_SOLVE_CONVERGED);
            cr_assert_eq(n_capped, 0);
            /* nothing moves */
            for (size_t j = 0; j < T.m * T.k; j++)
                T.S[j] = 1.0;
            reset_counts();
            al = solve_alpha(S, es_ops(), tied_obj(&T, 0.0), &info);
            cr_assert_eq(al, 0.0, "flat: alpha %.17g (closed %d, fallback %d, %d evaluations, status %d)", al, n_closed, n_fallback, info.evaluations, info.status);
            cr_assert_eq(info.status, BL_SOLVE_CONVERGED);
            /* and with free bounds the cap is symmetric: Q- = 0 the other way */
            for (size_t i = 0; i < T.m; i++)
                for (size_t r = 0; r < T.k; r++)
                    T.S[i * T.k + r] = r == (size_t)T.y[i] ? -1.0 : 1.0;
            for (size_t r = 0; r < T.k; r++)
                T.lo[r] = -HUGE_VAL;
            reset_counts();
            al = solve_alpha(S, es_ops(), tied_obj(&T, 0.0), &info);
            cr_assert_eq(al, -ms);
            cr_assert_eq(info.status, BL_SOLVE_MAXITER);
            tied_free(&T);
            ((const struct bl_loss_ops *)lp->ops)->destroy(loss);
            es_ops()->destroy(S);
        }
}

/* Nearly perfect weak learners (Q-/Q+ down to ~1e-16): Q- drowns in the
 * first fit's rounding and the step overshoots to the cap; the refit from
 * the step recovers it.  alpha is eq. (8), still in closed form. */
Test(exp_step, nearly_perfect_learner)
{
    const struct bl_plugin *lp = mexp_plug();
    const double gaps[] = {5.0, 15.0, 26.0, 33.0};
    for (int pairs = 0; pairs < 2; pairs++)
        for (size_t j = 0; j < sizeof gaps / sizeof gaps[0]; j++) {
            void *loss = open_mexp(lp, pairs), *S = es_solver(NULL);
            struct tied T;
            tied_make(&T, lp, loss, 60, 3, 0.5, 0, 5);
            for (size_t i = 0; i < T.m; i++)
                for (size_t r = 0; r < T.k; r++)
                    T.S[i * T.k + r] = r == (size_t)T.y[i] ? 1.0 : -1.0;
            /* one wrong pair, with a tiny weight (example 0's other pair
             * has delta 0) */
            size_t y0 = (size_t)T.y[0], r0 = (y0 + 1) % T.k;
            T.S[y0] = -1.0, T.S[r0] = 1.0;
            T.F[r0] = T.F[y0] - gaps[j];
            double qp, qm;
            direct_q(&T, &qp, &qm);
            double want = 0.25 * log(qp / qm);
            cr_assert(want > 1 && want < 10, "want %g", want);
            struct bl_solve_info info;
            reset_counts();
            double al = solve_alpha(S, es_ops(), tied_obj(&T, 0.0), &info);
            cr_assert(fabs(al - want) <= 1e-8, "gap %g: alpha %.17g, eq. (8) %.17g (%d "
                      "evaluations)", gaps[j], al, want, info.evaluations);
            cr_assert_eq(info.status, BL_SOLVE_CONVERGED);
            cr_assert_eq(n_closed, 1, "gap %g: fallback", gaps[j]);
            cr_assert(info.evaluations <= 4);
            tied_free(&T);
            ((const struct bl_loss_ops *)lp->ops)->destroy(loss);
            es_ops()->destroy(S);
        }
}

/* ---- errors, descriptor, determinism ------------------------------------------------ */

static double cliff_eval(void *ctx, const double *w, double *g)
{
    (void)ctx;
    if (w[0] > 0.2)
        return NAN;
    if (g)
        g[0] = -1.0;
    return -w[0];
}

Test(exp_step, errors)
{
    void *S = es_solver(NULL);
    struct quad1 Q = {2, {1.0, 1.0}, {1.0, 1.0}};
    char err[BL_ERR_MAX];
    struct bl_solve_info info;
    double w[2] = {0, 0};
    /* empty intersection of the bounds */
    double lo[2] = {0.0, 2.0}, up[2] = {1.0, 3.0};
    struct bl_objective obj = {2, quad1_eval, &Q, lo, up, 0.0, NULL};
    err[0] = 0;
    cr_assert_eq(es_ops()->solve(S, &obj, w, &info, err), -1);
    cr_assert(strstr(err, "no common coefficient"), "%s", err);
    /* bounds beyond the cap */
    double lo2[2] = {20.0, 20.0}, up2[2] = {HUGE_VAL, HUGE_VAL};
    obj.lower = lo2, obj.upper = up2;
    err[0] = 0;
    cr_assert_eq(es_ops()->solve(S, &obj, w, &info, err), -1);
    cr_assert(strstr(err, "max_step"), "%s", err);
    /* NaN bound, NaN nu */
    double lo3[2] = {NAN, 0.0};
    obj.lower = lo3, obj.upper = NULL;
    err[0] = 0;
    cr_assert_eq(es_ops()->solve(S, &obj, w, &info, err), -1);
    cr_assert(strstr(err, "invalid bounds"), "%s", err);
    obj.lower = NULL, obj.nu = NAN;
    err[0] = 0;
    cr_assert_eq(es_ops()->solve(S, &obj, w, &info, err), -1);
    cr_assert(strstr(err, "nu"), "%s", err);
    /* a non-finite objective */
    double lo4[1] = {0.0}, up4[1] = {HUGE_VAL}, w1[1] = {0.0};
    struct bl_objective cl = {1, cliff_eval, NULL, lo4, up4, 0.0, NULL};
    err[0] = 0;
    cr_assert_eq(es_ops()->solve(S, &cl, w1, &info, err), -1);
    cr_assert(strstr(err, "not finite"), "%s", err);
    /* n = 0 */
    struct bl_objective none = {0, quad1_eval, &Q, NULL, NULL, 0.0, NULL};
    cr_assert_eq(es_ops()->solve(S, &none, w, &info, err), 0);
    es_ops()->destroy(S);
}

Test(exp_step, descriptor)
{
    const struct bl_plugin *p = es_plug();
    cr_assert_eq(p->role, BL_ROLE_SOLVER);
    cr_assert_eq(p->sdk_version, BL_SDK_VERSION);
    cr_assert_eq(es_ops()->scope, BL_SOLVE_ROW);
    cr_assert_eq(es_ops()->space, BL_SPACE_TIED);
    cr_assert_eq(es_ops()->penalty, BL_PENALTY_LINEAR);
    cr_assert_eq(p->nparams, 2);
    union bl_value v[4];
    test_defaults(p, v);
    cr_assert_eq(v[test_param_index(p, "max_step")].r, 10.0);
    cr_assert_eq(v[test_param_index(p, "tol")].r, 1e-10);
    /* no parameters at all: the same defaults */
    char err[BL_ERR_MAX] = "";
    void *S = es_ops()->create(&test_host, NULL, err);
    cr_assert_not_null(S, "%s", err);
    es_ops()->destroy(S);
}

Test(exp_step, deterministic)
{
    const struct bl_plugin *lp = test_plugin("plugins/loss/margin_log", "margin-log");
    for (int kind = 0; kind < 2; kind++) {
        const struct bl_plugin *p = kind ? lp : mexp_plug();
        void *loss = open_default(p), *S1 = es_solver(NULL), *S2 = es_solver(NULL);
        struct tied T;
        tied_make(&T, p, loss, 70, 4, 1.0, 0, 3);
        struct bl_objective *obj = tied_obj(&T, 0.02);
        struct bl_solve_info info;
        double a1 = solve_alpha(S1, es_ops(), obj, &info), a2 = solve_alpha(S1, es_ops(), obj, &info);
        double a3 = solve_alpha(S2, es_ops(), obj, &info);
        cr_assert(memcmp(&a1, &a2, sizeof a1) == 0 && memcmp(&a1, &a3, sizeof a1) == 0);
        tied_free(&T);
        ((const struct bl_loss_ops *)p->ops)->destroy(loss);
        es_ops()->destroy(S1);
        es_ops()->destroy(S2);
    }
}

/* ---- margin-exp: pairs = all is the old loss, bit for bit -------------------------- */

/* The value and gradient exactly as margin-exp computed them before the
 * parameter existed: M = max(0, max F_ir - F_iy) over chunks of
 * bl_chunk_rows(m) examples, S = sum of the chunks' sums of
 * exp(F_ir - F_iy - M) in order, L = M + log S, p = e / S via * (1 / S). */
static double old_mexp(const int *y, size_t m, size_t k, const double *F, double *grad)
{
    size_t rows = bl_chunk_rows(m), nch = (m + rows - 1) / rows;
    double M = 0.0, S = 0.0;
    for (size_t c = 0; c < nch; c++) {
        double Mc = 0.0;
        for (size_t i = c * rows; i < (c + 1) * rows && i < m; i++)
            for (size_t r = 0; r < k; r++)
                if (F[i * k + r] - F[i * k + y[i]] > Mc)
                    Mc = F[i * k + r] - F[i * k + y[i]];
        if (Mc > M)
            M = Mc;
    }
    for (size_t c = 0; c < nch; c++) {
        double Sc = 0.0;
        for (size_t i = c * rows; i < (c + 1) * rows && i < m; i++)
            for (size_t r = 0; r < k; r++) {
                double e = exp(F[i * k + r] - F[i * k + y[i]] - M);
                Sc += e;
                grad[i * k + r] = e;
            }
        S += Sc;
    }
    double inv = 1.0 / S;
    for (size_t i = 0; i < m; i++) {
        double tot = 0.0;
        for (size_t r = 0; r < k; r++)
            if (r != (size_t)y[i]) {
                grad[i * k + r] *= inv;
                tot += grad[i * k + r];
            }
        grad[i * k + y[i]] = -tot;
    }
    return M + log(S);
}

Test(margin_exp_pairs, default_is_bit_identical)
{
    const struct bl_plugin *lp = mexp_plug();
    const struct bl_loss_ops *L = lp->ops;
    cr_assert_eq(lp->nparams, 1);
    union bl_value v[2];
    test_defaults(lp, v);
    cr_assert_eq(v[0].choice, 0, "the default must be pairs = all");
    void *a = open_mexp(lp, -1), *b = open_mexp(lp, 0);
    size_t shapes[][2] = {{1, 1}, {1, 2}, {7, 3}, {100, 5}, {3000, 4}, {4500, 2}};
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++)
        for (int sc = 0; sc < 3; sc++) {
            size_t m = shapes[t][0], k = shapes[t][1];
            int *y = malloc(m * sizeof *y);
            double *F = malloc(m * k * sizeof *F), *g0 = malloc(m * k * sizeof *F);
            double *g1 = malloc(m * k * sizeof *F), *g2 = malloc(m * k * sizeof *F);
            rng_seed(60 + t * 3 + (uint64_t)sc);
            random_problem(m, k, sc == 0 ? 1.0 : sc == 1 ? 30.0 : 1e4, y, F);
            double v0 = old_mexp(y, m, k, F, g0);
            double v1 = L->eval(a, y, m, k, F, g1), v2 = L->eval(b, y, m, k, F, g2);
            cr_assert(memcmp(&v0, &v1, sizeof v0) == 0 && memcmp(&v0, &v2, sizeof v0) == 0,
                      "m=%zu k=%zu: %.17g %.17g %.17g", m, k, v0, v1, v2);
            cr_assert(memcmp(g0, g1, m * k * sizeof *g0) == 0, "gradient m=%zu k=%zu", m, k);
            cr_assert(memcmp(g0, g2, m * k * sizeof *g0) == 0, "gradient m=%zu k=%zu", m, k);
            free(y), free(F), free(g0), free(g1), free(g2);
        }
    L->destroy(a);
    L->destroy(b);
}

/* ---- margin-exp: pairs = wrong ------------------------------------------------------ */

Test(margin_exp_pairs, wrong_pairs_formula)
{
    const struct bl_plugin *lp = mexp_plug();
    const struct bl_loss_ops *L = lp->ops;
    void *W = open_mexp(lp, 1);
    size_t shapes[][2] = {{1, 2}, {5, 3}, {40, 4}, {3000, 3}};
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++) {
        size_t m = shapes[t][0], k = shapes[t][1], n = m * k;
        int *y = malloc(m * sizeof *y);
        double *F = malloc(n * sizeof *F), *g = malloc(n * sizeof *g), *H = malloc(n * sizeof *H);
        double *p = malloc(n * sizeof *p);
        rng_seed(300 + t);
        random_problem(m, k, 2.0, y, F);
        /* the formula, directly (|F| <= 2: no shift needed) */
        double S = 0.0;
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < k; r++) {
                p[i * k + r] = r == (size_t)y[i] ? 0.0 : exp(F[i * k + r] - F[i * k + y[i]]);
                S += p[i * k + r];
            }
        double v = L->eval(W, y, m, k, F, g);
        cr_assert(fabs(v - log(S)) <= 1e-13 * (1 + fabs(log(S))), "value %.17g, formula %.17g",
                  v, log(S));
        cr_assert(L->hessian(W, y, m, k, F, BL_HESS_DIAG, H) == 0);
        cr_assert_eq(L->hessian(W, y, m, k, F, BL_HESS_DIAG_RANK1, H + 0), -1);
        L->hessian(W, y, m, k, F, BL_HESS_DIAG, H);
        for (size_t i = 0; i < m; i++) {
            double P = 0.0;
            for (size_t r = 0; r < k; r++)
                if (r != (size_t)y[i]) {
                    double q = p[i * k + r] / S;
                    P += q;
                    cr_assert(fabs(g[i * k + r] - q) <= 1e-14, "dL/dF[%zu][%zu]", i, r);
                    cr_assert(fabs(H[i * k + r] - q * (1 - q)) <= 1e-14);
                }
            cr_assert(fabs(g[i * k + y[i]] + P) <= 1e-14);
            cr_assert(fabs(H[i * k + y[i]] - P * (1 - P)) <= 1e-14);
        }
        /* at F = 0: log(m (k - 1)), the default's log(m k) */
        double *Z = calloc(n, sizeof *Z);
        cr_assert(fabs(L->eval(W, y, m, k, Z, NULL) - log((double)(m * (k - 1)))) <= 1e-13);
        /* finite far out */
        for (size_t j = 0; j < n; j++)
            Z[j] = (j % 3 ? 1e6 : -1e6) * (double)(j % 5);
        double ve = L->eval(W, y, m, k, Z, g);
        cr_assert(isfinite(ve));
        for (size_t j = 0; j < n; j++)
            cr_assert(isfinite(g[j]));
        free(y), free(F), free(g), free(H), free(p), free(Z);
    }
    /* k = 1: no pair; value 0, gradient 0, no row fast path */
    int y1[3] = {0, 0, 0};
    double F1[3] = {1, 2, 3}, g1[3] = {9, 9, 9}, s1[3] = {1, -1, 1};
    cr_assert_eq(L->eval(W, y1, 3, 1, F1, g1), 0.0);
    cr_assert(g1[0] == 0 && g1[1] == 0 && g1[2] == 0);
    cr_assert_null(L->row_prepare(W, y1, 3, 1, F1, s1));
    L->destroy(W);
}

/* The row fast path of pairs = wrong equals eval at F + s w^T, and its
 * Hessian matches differences of its gradient. */
Test(margin_exp_pairs, wrong_pairs_row_path)
{
    const struct bl_plugin *lp = mexp_plug();
    const struct bl_loss_ops *L = lp->ops;
    void *W = open_mexp(lp, 1);
    size_t m = 90, k = 5;
    int y[90];
    double F[450], Fw[450], gF[450], s[90], w[5], g[5], ge[5], H[25], gp[5], gm[5];
    rng_seed(11);
    random_problem(m, k, 3.0, y, F);
    for (size_t i = 0; i < m; i++)
        s[i] = urand() < 0.5 ? -1.0 : 1.0;
    void *R = L->row_prepare(W, y, m, k, F, s);
    cr_assert_not_null(R);
    for (int rep = 0; rep < 5; rep++) {
        for (size_t r = 0; r < k; r++)
            w[r] = urange(-2.0, 2.0) * rep;
        double v = L->row_eval(R, w, g);
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < k; r++)
                Fw[i * k + r] = F[i * k + r] + s[i] * w[r];
        double ve = L->eval(W, y, m, k, Fw, gF);
        for (size_t r = 0; r < k; r++) {
            ge[r] = 0;
            for (size_t i = 0; i < m; i++)
                ge[r] += s[i] * gF[i * k + r];
        }
        cr_assert(fabs(v - ve) <= 1e-12 * (1 + fabs(ve)), "row %.17g eval %.17g", v, ve);
        for (size_t r = 0; r < k; r++)
            cr_assert(fabs(g[r] - ge[r]) <= 1e-12, "grad[%zu] %.17g vs %.17g", r, g[r], ge[r]);
        cr_assert_eq(L->row_hessian(R, w, H), 0);
        for (size_t b = 0; b < k; b++) {
            const double h = 1e-5;
            double wb = w[b];
            w[b] = wb + h;
            L->row_eval(R, w, gp);
            w[b] = wb - h;
            L->row_eval(R, w, gm);
            w[b] = wb;
            for (size_t a = 0; a < k; a++)
                cr_assert(fabs(H[a * k + b] - (gp[a] - gm[a]) / (2 * h)) <= 1e-7,
                          "H[%zu][%zu] %.12g vs %.12g", a, b, H[a * k + b],
                          (gp[a] - gm[a]) / (2 * h));
        }
    }
    L->row_free(R);
    L->destroy(W);
}

/* ---- end to end: the engine's AdaBoost with exp-step -------------------------------- */

TEST_REGISTRY(reg, setup, teardown)

TestSuite(exp_step_engine, .init = setup, .fini = teardown);

/* Blobs with overlap: class c centred at (c + f) mod k along feature f. */
static void blobs(bl_dataset *ds, size_t m, size_t d, size_t k, double spread, uint64_t seed)
{
    rng_seed(seed);
    memset(ds, 0, sizeof *ds);
    ds->m = m, ds->d = d, ds->k = k;
    ds->y = calloc(m, sizeof *ds->y);
    ds->x = calloc(m * d, sizeof *ds->x);
    ds->feature_names = calloc(d, sizeof(char *));
    ds->class_names = calloc(k, sizeof(char *));
    for (size_t f = 0; f < d; f++)
        ds->feature_names[f] = strdup("f");
    for (size_t c = 0; c < k; c++)
        ds->class_names[c] = strdup("c");
    for (size_t i = 0; i < m; i++) {
        ds->y[i] = (int)(i % k);
        for (size_t f = 0; f < d; f++) {
            double u1 = fmax(urand(), 1e-300), u2 = urand();
            double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
            ds->x[f * m + i] = (float)((double)((ds->y[i] + (int)f) % (int)k) + spread * z);
        }
    }
}

static void algo(bl_algo_spec *a, const char *solver, const char *coding, const char *pairs)
{
    bl_error err;
    const char *sets[] = {"loss", "margin-exp", "weak", "stump", "weak.criterion", "max",
                          "solver", solver, "coding", coding, "nu", "0", NULL};
    bl_algo_init(a);
    a->name = strdup("test");
    for (const char *const *s = sets; *s; s += 2)
        cr_assert_eq(bl_algo_set(a, &reg, s[0], s[1], &err), 0, "%s: %s", s[0], err.msg);
    if (pairs)
        cr_assert_eq(bl_algo_set(a, &reg, "loss.pairs", pairs, &err), 0, "%s", err.msg);
    if (strcmp(solver, "lbfgsb-line") == 0) {
        cr_assert_eq(bl_algo_set(a, &reg, "solver.pgtol", "1e-12", &err), 0, "%s", err.msg);
        cr_assert_eq(bl_algo_set(a, &reg, "solver.ftol", "0", &err), 0, "%s", err.msg);
        cr_assert_eq(bl_algo_set(a, &reg, "solver.max_iter", "500", &err), 0, "%s", err.msg);
    }
}

static void run_engine(const bl_algo_spec *a, bl_dataset *ds, bl_qview *q, int T, bl_model *mo,
                       bl_curve *cv)
{
    bl_error err;
    struct bl_train tv;
    bl_train_view(ds, q, &tv);
    bl_model_init(mo, a->weak.plugin, ds->k, ds->d, ds->class_names, ds->feature_names);
    bl_boost_cfg cfg = bl_algo_boost_cfg(a, T, 1);
    struct bl_matrix X = {ds->m, ds->d, ds->x};
    cr_assert_eq(bl_boost(&cfg, &tv, &X, ds->y, mo, cv, &err), 0, "%s", err.msg);
}

/* AdaBoost (binary code, k = 2) and AdaBoost.ECC (random-half, k = 4):
 * exp-step trains the model lbfgsb-line trains (same stumps, coefficients
 * to lbfgsb-line's accuracy), each step in 3-4 evaluations. */
Test(exp_step_engine, adaboost_same_model_as_lbfgsb_line)
{
    struct {
        size_t k;
        const char *coding, *pairs;
    } runs[] = {{2, "binary", NULL}, {4, "random-half", NULL}, {4, "random-half", "wrong"}};
    for (size_t j = 0; j < sizeof runs / sizeof runs[0]; j++) {
        bl_dataset ds;
        bl_qview q;
        bl_error err;
        blobs(&ds, 150, 3, runs[j].k, 0.9, 17 + j);
        cr_assert_eq(bl_quantize(&ds, 16, &q, &err), 0, "%s", err.msg);
        bl_algo_spec a, b;
        algo(&a, "exp-step", runs[j].coding, runs[j].pairs);
        algo(&b, "lbfgsb-line", runs[j].coding, runs[j].pairs);
        bl_model ma, mb;
        bl_curve ca, cb;
        const int T = 15;
        run_engine(&a, &ds, &q, T, &ma, &ca);
        run_engine(&b, &ds, &q, T, &mb, &cb);
        cr_assert_eq(ma.t, mb.t);
        for (size_t t = 0; t < ma.t; t++) {
            for (size_t r = 0; r < ds.k; r++)
                cr_assert(fabs(ma.term[t].w[r] - mb.term[t].w[r]) <= 1e-6,
                          "%s term %zu class %zu: exp-step %.12g, lbfgsb-line %.12g",
                          runs[j].coding, t, r, ma.term[t].w[r], mb.term[t].w[r]);
            cr_assert(ca.solver_iters[t] >= 3 && ca.solver_iters[t] <= 4,
                      "term %zu: %d evaluations", t, ca.solver_iters[t]);
        }
        for (size_t t = 0; t < ca.n; t++)
            cr_assert(fabs(ca.train_loss[t] - cb.train_loss[t]) <= 1e-9 * (1 + fabs(cb.train_loss[t])));
        bl_curve_free(&ca), bl_curve_free(&cb);
        bl_model_free(&ma), bl_model_free(&mb);
        bl_algo_free(&a), bl_algo_free(&b);
        bl_qview_free(&q);
        bl_dataset_free(&ds);
    }
}

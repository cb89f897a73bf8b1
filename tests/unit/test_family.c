/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of the plugins behind the AdaBoost family and GradBoost
 * (spec stagewise-multiclass-boosting.md §7.2-7.4, §7.6):
 *   - the losses mh-exp, samme-exp and softmax: gradients and Hessian
 *     diagonals against central finite differences at random F (moderate
 *     and large |F|), -grad and the value at F = 0, finiteness and the
 *     documented clamp at extreme F, thread-count independence, softmax's
 *     normalize;
 *   - the solver lbfgsb-line: AdaBoost.MH's closed form alpha =
 *     1/2 ln((1+gamma)/(1-gamma)) with mh-exp (also with nu > 0 and with
 *     free signs), AdaBoost.ECC's alpha = 1/4 ln(U+/U-) with margin-exp and
 *     random-half colorings, SAMME's alpha (times (k-1)^2/k) with
 *     samme-exp and SAMME-coded outputs, bounds handling;
 *   - the solver prox-group (GradBoost's reconstructed row step): the group
 *     soft-threshold closed forms on quadratics (free and w >= 0), lambda
 *     large -> 0, the one-step form, a general quadratic, and the
 *     optimality conditions on a softmax row problem;
 *   - AdaBoost.MO (§7.5) in the engine's code space (suite mo):
 *     the loss mo-exp (eval_coded against finite differences, at f = 0,
 *     normalize, extremes, threads; its class-space eval is mh-exp's), the
 *     recipe against the spec's pseudo-code written out here (alpha and
 *     class scores, iteration by iteration), the 3-column code for k = 3,
 *     the dagger refusal for k = 14, a model file round trip, the refusal
 *     of a changing code, per-column coefficients (lbfgsb-row, lbfgsb-tc),
 *     and a 1.1 loss descriptor never being run in code space;
 *   - the LogitBoost family's losses: klogit against finite
 *     differences, at F = 0 and in closed form, its extremes and threads;
 *     the BL_HESS_DIAG_RANK1 forms of klogit (u = 0) and softmax (u = p,
 *     H 1 = 0, normalize).
 */
#include <criterion/criterion.h>
#include "testutil.h"

#include <float.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "data/quantize.h"
#include "config/experiment.h"
#include "engine/engine.h"

/* ---- helpers ------------------------------------------------------------ */

static double sgn(double x)
{
    return x >= 0 ? 1.0 : -1.0;
}

struct lossinst {
    const struct bl_plugin *p;
    const struct bl_loss_ops *ops;
    void *self;
};

static struct lossinst open_loss_host(const char *rel, const char *name, const char *choice_param,
                                      int choice, const struct bl_host *host)
{
    struct lossinst L;
    union bl_value v[8];
    char err[BL_ERR_MAX] = "";
    L.p = test_plugin(rel, name);
    cr_assert_eq(L.p->role, BL_ROLE_LOSS);
    cr_assert_eq(L.p->sdk_version, BL_SDK_VERSION);
    cr_assert_leq(L.p->nparams, 8);
    test_defaults(L.p, v);
    if (choice_param)
        v[test_param_index(L.p, choice_param)].choice = choice;
    L.ops = L.p->ops;
    L.self = L.ops->create(host, v, err);
    cr_assert_not_null(L.self, "create %s: %s", name, err);
    return L;
}

static struct lossinst open_loss(const char *rel, const char *name)
{
    return open_loss_host(rel, name, NULL, 0, &test_host);
}

static struct lossinst open_mh(void) { return open_loss("plugins/loss/mh_exp", "mh-exp"); }
static struct lossinst open_samme(void) { return open_loss("plugins/loss/samme_exp", "samme-exp"); }
static struct lossinst open_softmax(void) { return open_loss("plugins/loss/softmax", "softmax"); }

static const size_t shapes[][2] = {{1, 2}, {6, 2}, {5, 3}, {20, 4}, {9, 10}, {40, 7}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])
static const double scales[] = {1.0, 4.0, 30.0, 300.0};
#define NSCALES (sizeof scales / sizeof scales[0])

/* ---- gradient and Hessian against finite differences ------------------- */

/* Each loss is a sum over examples, so the differences are taken on one
 * example's term (m = 1 at F + i k): no other example's value swamps them.
 * A central difference with step h is exact up to h^2/6 |L'''| (relative
 * ~1e-11 here) plus the rounding of the term's value, about eps |L_i| / h,
 * which dominates at large |F|; the tolerance allows for both.  mean: the
 * loss is a mean over examples, so a one-example term counts 1/m. */
static void check_derivatives(struct lossinst L, uint64_t seed, int mean)
{
    rng_seed(seed);
    const double h = 1e-5;
    for (size_t sc = 0; sc < NSCALES; sc++)
        for (size_t s = 0; s < NSHAPES; s++) {
            size_t m = shapes[s][0], k = shapes[s][1], n = m * k;
            int *y = malloc(m * sizeof *y);
            double *F = malloc(n * sizeof *F), *g = malloc(n * sizeof *g);
            double *H = malloc(n * sizeof *H), *gp = malloc(k * sizeof *gp);
            double *gm = malloc(k * sizeof *gm);
            random_problem(m, k, scales[sc], y, F);
            double f = L.ops->eval(L.self, y, m, k, F, g), fsum = 0.0;
            cr_assert(isfinite(f), "%s: value %g", L.p->name, f);
            cr_assert_eq(f, L.ops->eval(L.self, y, m, k, F, NULL), "value must not depend on grad");
            cr_assert_not_null(L.ops->hessian);
            cr_assert_eq(L.ops->hessian(L.self, y, m, k, F, BL_HESS_DIAG, H), 0);
            double sc1 = mean ? 1.0 / (double)m : 1.0;
            for (size_t i = 0; i < m; i++) {
                double *Fi = F + i * k;
                double fi = sc1 * L.ops->eval(L.self, y + i, 1, k, Fi, NULL);
                fsum += fi;
                for (size_t r = 0; r < k; r++) {
                    size_t j = i * k + r;
                    double keep = Fi[r], xp = keep + h, xm = keep - h;
                    Fi[r] = xp;
                    double fp = L.ops->eval(L.self, y + i, 1, k, Fi, gp);
                    Fi[r] = xm;
                    double fm = L.ops->eval(L.self, y + i, 1, k, Fi, gm);
                    Fi[r] = keep;
                    double fd = sc1 * (fp - fm) / (xp - xm), hd = sc1 * (gp[r] - gm[r]) / (xp - xm);
                    double rnd = 16 * DBL_EPSILON * fabs(fi) / h;
                    cr_assert(isfinite(g[j]) && isfinite(H[j]));
                    cr_assert(fabs(g[j] - fd) <= 1e-7 * fabs(fd) + rnd + 1e-300,
                              "%s scale %g m=%zu k=%zu (%zu,%zu): grad %.15g, fd %.15g", L.p->name,
                              scales[sc], m, k, i, r, g[j], fd);
                    double hrnd = 16 * DBL_EPSILON * fabs(g[j]) / h;
                    cr_assert(fabs(H[j] - hd) <= 1e-6 * fabs(hd) + hrnd + 1e-300,
                              "%s scale %g m=%zu k=%zu (%zu,%zu): hess %.15g, fd %.15g", L.p->name,
                              scales[sc], m, k, i, r, H[j], hd);
                    cr_assert(H[j] >= 0.0, "convex loss: the diagonal is >= 0");
                }
            }
            cr_assert(fabs(f - fsum) <= 1e-12 * fabs(f), "%s: a sum over examples (%.17g vs %.17g)",
                      L.p->name, f, fsum);
            cr_assert_eq(L.ops->hessian(L.self, y, m, k, F, (enum bl_hess_form)99, H), -1,
                         "unknown Hessian forms must be refused");
            free(y), free(F), free(g), free(H), free(gp), free(gm);
        }
}

Test(mh, derivatives_fd) { struct lossinst L = open_mh(); check_derivatives(L, 1, 0); L.ops->destroy(L.self); }
Test(samme, derivatives_fd) { struct lossinst L = open_samme(); check_derivatives(L, 2, 0); L.ops->destroy(L.self); }
Test(softmax, derivatives_fd) { struct lossinst L = open_softmax(); check_derivatives(L, 3, 0); L.ops->destroy(L.self); }

Test(softmax, derivatives_fd_mean)
{
    struct lossinst L = open_loss_host("plugins/loss/softmax", "softmax", "normalize", 1, &test_host);
    check_derivatives(L, 4, 1);
    L.ops->destroy(L.self);
}

/* ---- F = 0 ------------------------------------------------------------------ */

/* want(y, k, r): -dL/dF_ir at F = 0; value(m, k): L(0). */
static void check_zero(struct lossinst L, double (*want)(int y, size_t k, size_t r),
                       double (*value)(size_t m, size_t k))
{
    rng_seed(7);
    for (size_t s = 0; s < NSHAPES; s++) {
        size_t m = shapes[s][0], k = shapes[s][1], n = m * k;
        int *y = malloc(m * sizeof *y);
        double *F = calloc(n, sizeof *F), *g = malloc(n * sizeof *g);
        for (size_t i = 0; i < m; i++)
            y[i] = (int)(urand() * (double)k);
        double f = L.ops->eval(L.self, y, m, k, F, g), v = value(m, k);
        cr_assert(fabs(f - v) <= 1e-13 * fabs(v), "%s value at 0: %.17g, want %.17g", L.p->name, f, v);
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < k; r++) {
                double c = want(y[i], k, r);
                cr_assert(fabs(-g[i * k + r] - c) <= 1e-15,
                          "%s m=%zu k=%zu (%zu,%zu): -grad %.17g, want %.17g", L.p->name, m, k, i,
                          r, -g[i * k + r], c);
            }
        free(y), free(F), free(g);
    }
}

static double w_mh(int y, size_t k, size_t r) { (void)k; return (int)r == y ? 1.0 : -1.0; }
static double v_mh(size_t m, size_t k) { return (double)(m * k); }
static double w_samme(int y, size_t k, size_t r)
{
    return ((int)r == y ? 1.0 : -1.0 / (double)(k - 1)) / (double)k;
}
static double v_samme(size_t m, size_t k) { (void)k; return (double)m; }
static double w_softmax(int y, size_t k, size_t r) { return ((int)r == y ? 1.0 : 0.0) - 1.0 / (double)k; }
static double v_softmax(size_t m, size_t k) { return (double)m * log((double)k); }

Test(mh, at_zero) { struct lossinst L = open_mh(); check_zero(L, w_mh, v_mh); L.ops->destroy(L.self); }
Test(samme, at_zero) { struct lossinst L = open_samme(); check_zero(L, w_samme, v_samme); L.ops->destroy(L.self); }
Test(softmax, at_zero) { struct lossinst L = open_softmax(); check_zero(L, w_softmax, v_softmax); L.ops->destroy(L.self); }

/* ---- extreme F: finite everywhere, and the documented clamp ------------ */

static void check_finite(struct lossinst L, size_t m, size_t k, double mag, int adversarial)
{
    size_t n = m * k;
    int *y = malloc(m * sizeof *y);
    double *F = malloc(n * sizeof *F), *g = malloc(n * sizeof *g), *H = malloc(n * sizeof *H);
    rng_seed(11);
    random_problem(m, k, 1.0, y, F);
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++) /* every margin as wrong as it gets, or random signs */
            F[i * k + r] = adversarial ? ((int)r == y[i] ? -mag : mag) : sgn(F[i * k + r]) * mag;
    double f = L.ops->eval(L.self, y, m, k, F, g);
    cr_assert(isfinite(f), "%s m=%zu k=%zu |F|=%g: value %g", L.p->name, m, k, mag, f);
    cr_assert_eq(L.ops->hessian(L.self, y, m, k, F, BL_HESS_DIAG, H), 0);
    for (size_t j = 0; j < n; j++)
        cr_assert(isfinite(g[j]) && isfinite(H[j]), "%s |F|=%g entry %zu: grad %g, hess %g",
                  L.p->name, mag, j, g[j], H[j]);
    free(y), free(F), free(g), free(H);
}

static void check_extremes(struct lossinst L)
{
    const double mags[] = {1e3, 1e6, 1e300};
    for (size_t a = 0; a < 3; a++)
        for (int adv = 0; adv < 2; adv++) {
            check_finite(L, 7, 3, mags[a], adv);
            check_finite(L, 1, 2, mags[a], adv);
        }
    /* many pairs at the clamp at once: the sum stays below DBL_MAX */
    check_finite(L, 30000, 10, 1e4, 1);
}

Test(mh, extremes_finite) { struct lossinst L = open_mh(); check_extremes(L); L.ops->destroy(L.self); }
Test(samme, extremes_finite) { struct lossinst L = open_samme(); check_extremes(L); L.ops->destroy(L.self); }
Test(softmax, extremes_finite) { struct lossinst L = open_softmax(); check_extremes(L); L.ops->destroy(L.self); }

/* The clamp of mh-exp / samme-exp: exponents beyond 700 count as 700 (for
 * few pairs), and gradient and Hessian saturate there instead of vanishing. */
Test(mh, clamp_saturates)
{
    struct lossinst L = open_mh();
    int y[1] = {0};
    double F[2] = {-800.0, 0.0}, g[2], H[2]; /* exponent -Y F = 800 for class 0 */
    double f = L.ops->eval(L.self, y, 1, 2, F, g);
    cr_assert(fabs(f - (exp(700.0) + 1.0)) <= 1e-15 * exp(700.0), "value %g", f);
    cr_assert(fabs(g[0] + exp(700.0)) <= 1e-15 * exp(700.0) && g[1] == 1.0, "grad %g %g", g[0], g[1]);
    L.ops->hessian(L.self, y, 1, 2, F, BL_HESS_DIAG, H);
    cr_assert(fabs(H[0] - exp(700.0)) <= 1e-15 * exp(700.0) && H[1] == 1.0);
    /* just below the clamp: exact */
    F[0] = -699.0;
    f = L.ops->eval(L.self, y, 1, 2, F, g);
    cr_assert(fabs(f - (exp(699.0) + 1.0)) <= 1e-14 * exp(699.0));
    L.ops->destroy(L.self);
}

Test(samme, clamp_saturates)
{
    struct lossinst L = open_samme();
    int y[1] = {1};
    /* k = 2: z = -(F_1 - F_0)/2 */
    double F[2] = {900.0, -900.0}, g[2];
    double f = L.ops->eval(L.self, y, 1, 2, F, g);
    cr_assert(fabs(f - exp(700.0)) <= 1e-15 * exp(700.0), "value %g", f);
    cr_assert(fabs(g[1] + 0.5 * exp(700.0)) <= 1e-15 * exp(700.0), "grad %g", g[1]);
    cr_assert(fabs(g[0] - 0.5 * exp(700.0)) <= 1e-15 * exp(700.0), "grad %g", g[0]);
    L.ops->destroy(L.self);
}

/* softmax's value at a huge margin keeps its precision: log1p, no 1 - p
 * cancellation in the y entry of the gradient. */
Test(softmax, tails_accurate)
{
    struct lossinst L = open_softmax();
    int y[1] = {0};
    double F[3] = {40.0, 0.0, 1.0}, g[3], H[3];
    double e1 = exp(-40.0), e2 = exp(-39.0), S = 1 + e1 + e2;
    double f = L.ops->eval(L.self, y, 1, 3, F, g);
    cr_assert(fabs(f - log1p(e1 + e2)) <= 1e-15 * log1p(e1 + e2), "value %.17g", f);
    cr_assert(fabs(g[0] + (e1 + e2) / S) <= 1e-15 * (e1 + e2), "grad_y %.17g", g[0]);
    L.ops->hessian(L.self, y, 1, 3, F, BL_HESS_DIAG, H);
    cr_assert(fabs(H[0] - (e1 + e2) / (S * S)) <= 1e-14 * (e1 + e2), "hess_y %.17g", H[0]);
    /* the wrong class dominating */
    y[0] = 1;
    f = L.ops->eval(L.self, y, 1, 3, F, g);
    cr_assert(fabs(f - (40.0 + log1p(e1 + e2))) <= 1e-15 * 40.0);
    cr_assert(fabs(g[1] + 1.0) <= 1e-15);
    L.ops->destroy(L.self);
}

Test(softmax, normalize_examples)
{
    struct lossinst A = open_softmax();
    struct lossinst B = open_loss_host("plugins/loss/softmax", "softmax", "normalize", 1, &test_host);
    size_t m = 37, k = 5, n = m * k;
    int y[37];
    double F[37 * 5], ga[37 * 5], gb[37 * 5], ha[37 * 5], hb[37 * 5];
    rng_seed(19);
    random_problem(m, k, 3.0, y, F);
    double fa = A.ops->eval(A.self, y, m, k, F, ga), fb = B.ops->eval(B.self, y, m, k, F, gb);
    A.ops->hessian(A.self, y, m, k, F, BL_HESS_DIAG, ha);
    B.ops->hessian(B.self, y, m, k, F, BL_HESS_DIAG, hb);
    cr_assert(fabs(fb - fa / (double)m) <= 1e-14 * fabs(fb));
    for (size_t j = 0; j < n; j++) {
        cr_assert(fabs(gb[j] - ga[j] / (double)m) <= 1e-15 * (1 + fabs(gb[j])));
        cr_assert(fabs(hb[j] - ha[j] / (double)m) <= 1e-15 * (1 + fabs(hb[j])));
    }
    A.ops->destroy(A.self);
    B.ops->destroy(B.self);
}

/* ---- threads ------------------------------------------------------------------ */

static const struct bl_host host4 = {BL_SDK_VERSION, 4, test_log};

static void check_threads(const char *rel, const char *name)
{
    struct lossinst A = open_loss_host(rel, name, NULL, 0, &test_host);
    struct lossinst B = open_loss_host(rel, name, NULL, 0, &host4);
    size_t m = 9000, k = 4, n = m * k; /* 5 chunks */
    int *y = malloc(m * sizeof *y);
    double *F = malloc(n * sizeof *F), *ga = malloc(n * sizeof *ga), *gb = malloc(n * sizeof *gb);
    rng_seed(23);
    random_problem(m, k, 3.0, y, F);
    double fa = A.ops->eval(A.self, y, m, k, F, ga), fb = B.ops->eval(B.self, y, m, k, F, gb);
    cr_assert_eq(fa, fb, "%s: %.17g with 1 thread, %.17g with 4", name, fa, fb);
    cr_assert_eq(memcmp(ga, gb, n * sizeof *ga), 0, "%s: gradients differ", name);
    A.ops->hessian(A.self, y, m, k, F, BL_HESS_DIAG, ga);
    B.ops->hessian(B.self, y, m, k, F, BL_HESS_DIAG, gb);
    cr_assert_eq(memcmp(ga, gb, n * sizeof *ga), 0, "%s: Hessians differ", name);
    free(y), free(F), free(ga), free(gb);
    A.ops->destroy(A.self);
    B.ops->destroy(B.self);
}

Test(mh, thread_independent) { check_threads("plugins/loss/mh_exp", "mh-exp"); }
Test(samme, thread_independent) { check_threads("plugins/loss/samme_exp", "samme-exp"); }
Test(softmax, thread_independent) { check_threads("plugins/loss/softmax", "softmax"); }

/* ---- solvers: access ---------------------------------------------------------- */

/* A solver with the defaults, then overrides (NULL-terminated name / value
 * pairs; INT parameters given as doubles too). */
static void *solver(const struct bl_plugin *p, const char *name, ...)
{
    union bl_value v[16];
    char err[BL_ERR_MAX] = "";
    cr_assert_eq(p->role, BL_ROLE_SOLVER);
    cr_assert_leq(p->nparams, 16);
    test_defaults(p, v);
    va_list ap;
    va_start(ap, name);
    for (const char *nm = name; nm; nm = va_arg(ap, const char *)) {
        double val = va_arg(ap, double);
        int j = test_param_index(p, nm);
        if (p->params[j].type == BL_PARAM_INT)
            v[j].i = (int64_t)val;
        else
            v[j].r = val;
    }
    va_end(ap);
    void *S = ((const struct bl_solver_ops *)p->ops)->create(&test_host, v, err);
    cr_assert_not_null(S, "create %s: %s", p->name, err);
    return S;
}

static const struct bl_plugin *line_plugin(void)
{
    return test_plugin("plugins/solver/lbfgsb", "lbfgsb-line");
}

static const struct bl_plugin *prox_plugin(void)
{
    return test_plugin("plugins/solver/prox_group", "prox-group");
}

/* f(w) = L(F + s (.) w): s is m x k (class outputs s_ir, F_ir += s_ir w_r)
 * or m x 1; grad_r = sum_i s_ir dL/dF_ir. */
struct rowctx {
    const struct bl_loss_ops *L;
    void *self;
    const int *y;
    size_t m, k, sdim;
    const double *F, *s;
    double *Fw, *gF;
};

static double row_eval(void *ctx, const double *w, double *grad)
{
    struct rowctx *C = ctx;
    size_t m = C->m, k = C->k;
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++)
            C->Fw[i * k + r] = C->F[i * k + r] + C->s[C->sdim == 1 ? i : i * k + r] * w[r];
    double f = C->L->eval(C->self, C->y, m, k, C->Fw, grad ? C->gF : NULL);
    if (grad)
        for (size_t r = 0; r < k; r++) {
            grad[r] = 0;
            for (size_t i = 0; i < m; i++)
                grad[r] += C->s[C->sdim == 1 ? i : i * k + r] * C->gF[i * k + r];
        }
    return f;
}

/* ---- lbfgsb-line ------------------------------------------------------------- */

Test(line, descriptor)
{
    const struct bl_plugin *p = line_plugin(), *row = test_plugin("plugins/solver/lbfgsb", "lbfgsb-row");
    const struct bl_solver_ops *ops = p->ops;
    cr_assert_eq(p->sdk_version, BL_SDK_VERSION);
    cr_assert_eq(ops->scope, BL_SOLVE_ROW);
    cr_assert_eq(p->nparams, row->nparams, "the same parameters as lbfgsb-row");
    for (size_t j = 0; j < p->nparams; j++)
        cr_assert_str_eq(p->params[j].name, row->params[j].name);
    /* lbfgsb-row and lbfgsb-tc are still there */
    (void)test_plugin("plugins/solver/lbfgsb", "lbfgsb-tc");
}

/* AdaBoost.MH (spec §7.3): class outputs s_ir = v_r phi_i with
 * v_r = sign(gamma_r); with mh-exp the line search must give
 * alpha = 1/2 ln((1+gamma)/(1-gamma)), gamma = sum_ir D_ir Y_ir v_r phi_i,
 * D = exp(-Y F) / sum.  With nu > 0, phi(alpha) = Z+ e^-alpha + Z- e^alpha
 * + nu k alpha has e^alpha = (-nu k + sqrt(nu^2 k^2 + 4 Z+ Z-)) / (2 Z-).
 * free_sign: v_r = -sign(gamma_r) and no lower bound, so alpha < 0. */
static void check_mh_alpha(uint64_t seed, double nu, int free_sign)
{
    struct lossinst L = open_mh();
    const struct bl_plugin *p = line_plugin();
    const struct bl_solver_ops *ops = p->ops;
    void *S = solver(p, "pgtol", 1e-12, "ftol", 0.0, "max_iter", 500.0, NULL);
    char err[BL_ERR_MAX] = "";
    rng_seed(seed);
    for (int trial = 0; trial < 12; trial++) {
        size_t m = 5 + (size_t)(urand() * 150), k = 2 + (size_t)(urand() * 8), n = m * k;
        int *y = malloc(m * sizeof *y);
        double *F = malloc(n * sizeof *F), *s = malloc(n * sizeof *s), *phi = malloc(m * sizeof *phi);
        double *D = malloc(n * sizeof *D), *Fw = malloc(n * sizeof *Fw), *gF = malloc(n * sizeof *gF);
        double *v = malloc(k * sizeof *v), *w = calloc(k, sizeof *w);
        double *lo = malloc(k * sizeof *lo), *up = malloc(k * sizeof *up);
        random_problem(m, k, trial < 6 ? 0.5 : 2.0, y, F);
        double Zs = 0;
        for (size_t i = 0; i < m; i++) {
            phi[i] = urand() < 0.5 ? -1.0 : 1.0;
            for (size_t r = 0; r < k; r++) {
                double Y = (int)r == y[i] ? 1.0 : -1.0;
                D[i * k + r] = exp(-Y * F[i * k + r]);
                Zs += D[i * k + r];
            }
        }
        for (size_t j = 0; j < n; j++)
            D[j] /= Zs;
        double gamma = 0, Zp = 0, Zm = 0;
        for (size_t r = 0; r < k; r++) {
            double gr = 0;
            for (size_t i = 0; i < m; i++)
                gr += D[i * k + r] * ((int)r == y[i] ? 1.0 : -1.0) * phi[i];
            v[r] = free_sign ? -sgn(gr) : sgn(gr);
        }
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < k; r++) {
                double Y = (int)r == y[i] ? 1.0 : -1.0, u = Y * v[r] * phi[i];
                s[i * k + r] = v[r] * phi[i];
                gamma += D[i * k + r] * u;
                if (u > 0)
                    Zp += D[i * k + r] * Zs;
                else
                    Zm += D[i * k + r] * Zs;
            }
        double want = 0.5 * log((1 + gamma) / (1 - gamma));
        if (nu > 0)
            want = log((-nu * (double)k + sqrt(nu * nu * (double)(k * k) + 4 * Zp * Zm)) / (2 * Zm));
        for (size_t r = 0; r < k; r++) {
            lo[r] = free_sign ? -HUGE_VAL : 0.0;
            up[r] = HUGE_VAL;
        }
        struct rowctx C = {L.ops, L.self, y, m, k, k, F, s, Fw, gF};
        struct bl_objective obj = {k, row_eval, &C, lo, up, nu, NULL};
        struct bl_solve_info info;
        cr_assert_eq(ops->solve(S, &obj, w, &info, err), 0, "%s", err);
        for (size_t r = 0; r < k; r++)
            cr_assert_eq(w[r], w[0], "one coefficient for every class");
        cr_assert(fabs(w[0] - want) <= 1e-5 * (1 + fabs(want)),
                  "m=%zu k=%zu nu=%g: alpha %.10g, closed form %.10g (gamma %g, status %d, %d its)",
                  m, k, nu, w[0], want, gamma, info.status, info.iterations);
        if (free_sign)
            cr_assert(w[0] < 0, "negative alpha when the votes are flipped");
        double fw = row_eval(&C, w, NULL);
        cr_assert(fabs(info.objective - (fw + nu * (double)k * w[0])) <= 1e-12 * (1 + fabs(fw)),
                  "objective %.17g vs f(w) + nu sum(w) %.17g", info.objective,
                  fw + nu * (double)k * w[0]);
        cr_assert(info.evaluations > 0 && info.iterations > 0);
        free(y), free(F), free(s), free(phi), free(D), free(Fw), free(gF), free(v), free(w);
        free(lo), free(up);
    }
    ops->destroy(S);
    L.ops->destroy(L.self);
}

Test(line, adaboost_mh_closed_form) { check_mh_alpha(41, 0.0, 0); }
Test(line, adaboost_mh_with_nu) { check_mh_alpha(42, 0.3, 0); }
Test(line, adaboost_mh_free_sign) { check_mh_alpha(43, 0.0, 1); }

/* AdaBoost.ECC (spec §7.4) with margin-exp: a random-half coloring mu,
 * h_i = +-1, class outputs s_ir = mu_r h_i.  margin-exp is the log of
 * sum_i sum_r exp(F_ir - F_iy); its r = y_i terms are constant and log is
 * monotone, so the minimiser along alpha is that of
 * sum_i sum_{l != y_i} exp(F_il - F_iy): alpha = 1/4 ln(U+/U-). */
Test(line, adaboost_ecc_closed_form)
{
    struct lossinst L = open_loss("plugins/loss/margin_exp", "margin-exp");
    const struct bl_plugin *p = line_plugin();
    const struct bl_solver_ops *ops = p->ops;
    void *S = solver(p, "pgtol", 1e-12, "ftol", 0.0, "max_iter", 500.0, NULL);
    char err[BL_ERR_MAX] = "";
    rng_seed(51);
    for (int trial = 0; trial < 12; trial++) {
        size_t m = 10 + (size_t)(urand() * 150), k = 3 + (size_t)(urand() * 7), n = m * k;
        int *y = malloc(m * sizeof *y), *perm = malloc(k * sizeof *perm);
        double *F = malloc(n * sizeof *F), *s = malloc(n * sizeof *s), *h = malloc(m * sizeof *h);
        double *Fw = malloc(n * sizeof *Fw), *gF = malloc(n * sizeof *gF);
        double *mu = malloc(k * sizeof *mu), *w = calloc(k, sizeof *w);
        double *lo = calloc(k, sizeof *lo), *up = malloc(k * sizeof *up);
        random_problem(m, k, trial < 6 ? 0.5 : 2.0, y, F);
        /* random half: permute the classes, the first floor(k/2) get +1 */
        for (size_t r = 0; r < k; r++)
            perm[r] = (int)r;
        for (size_t r = k - 1; r > 0; r--) {
            size_t j = (size_t)(urand() * (double)(r + 1));
            int t = perm[r];
            perm[r] = perm[j];
            perm[j] = t;
        }
        for (size_t r = 0; r < k; r++)
            mu[perm[r]] = r < k / 2 ? 1.0 : -1.0;
        for (size_t i = 0; i < m; i++) /* mostly right */
            h[i] = (urand() < 0.75 ? 1.0 : -1.0) * mu[y[i]];
        double Up = 0, Um = 0;
        for (size_t i = 0; i < m; i++)
            for (size_t l = 0; l < k; l++) {
                if ((int)l == y[i] || mu[l] == mu[y[i]])
                    continue;
                double d = exp(F[i * k + l] - F[i * k + (size_t)y[i]]);
                if (h[i] == mu[y[i]])
                    Up += d;
                else
                    Um += d;
            }
        if (Up < Um) { /* flip the stump so that alpha > 0 */
            for (size_t i = 0; i < m; i++)
                h[i] = -h[i];
            double t = Up;
            Up = Um;
            Um = t;
        }
        cr_assert(Um > 0, "the test needs an error on the colored problem");
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < k; r++)
                s[i * k + r] = mu[r] * h[i];
        for (size_t r = 0; r < k; r++)
            up[r] = HUGE_VAL;
        double want = 0.25 * log(Up / Um);
        struct rowctx C = {L.ops, L.self, y, m, k, k, F, s, Fw, gF};
        struct bl_objective obj = {k, row_eval, &C, lo, up, 0.0, NULL};
        struct bl_solve_info info;
        cr_assert_eq(ops->solve(S, &obj, w, &info, err), 0, "%s", err);
        cr_assert(fabs(w[0] - want) <= 1e-5 * (1 + want),
                  "m=%zu k=%zu: alpha %.10g, 1/4 ln(U+/U-) %.10g (status %d, %d its)", m, k, w[0],
                  want, info.status, info.iterations);
        for (size_t r = 1; r < k; r++)
            cr_assert_eq(w[r], w[0]);
        free(y), free(perm), free(F), free(s), free(h), free(Fw), free(gF), free(mu), free(w);
        free(lo), free(up);
    }
    ops->destroy(S);
    L.ops->destroy(L.self);
}

/* SAMME (spec §7.2) with samme-exp: a multi-class stump predicting class
 * q_i, SAMME's coded outputs s_ir = 1 (r = q_i) or -1/(k-1), give
 * Ystar_i . s_i = k/(k-1) when q_i = y_i and -k/(k-1)^2 otherwise, so the
 * line search's alpha is (k-1)^2/k (log((1-err)/err) + log(k-1)) with
 * err = sum_i D_i [q_i != y_i], D ∝ exp(z_i): SAMME's alpha up to the
 * constant factor (k-1)^2/k. */
Test(line, samme_closed_form)
{
    struct lossinst L = open_samme();
    const struct bl_plugin *p = line_plugin();
    const struct bl_solver_ops *ops = p->ops;
    void *S = solver(p, "pgtol", 1e-12, "ftol", 0.0, "max_iter", 500.0, NULL);
    char err[BL_ERR_MAX] = "";
    rng_seed(57);
    for (int trial = 0; trial < 12; trial++) {
        size_t m = 10 + (size_t)(urand() * 150), k = 2 + (size_t)(urand() * 8), n = m * k;
        int *y = malloc(m * sizeof *y);
        double *F = malloc(n * sizeof *F), *s = malloc(n * sizeof *s);
        double *Fw = malloc(n * sizeof *Fw), *gF = malloc(n * sizeof *gF);
        double *w = calloc(k, sizeof *w), *lo = calloc(k, sizeof *lo), *up = malloc(k * sizeof *up);
        random_problem(m, k, trial < 6 ? 0.5 : 2.0, y, F);
        double A = 0, B = 0, kk = (double)k;
        for (size_t i = 0; i < m; i++) {
            size_t q = urand() < 0.6 ? (size_t)y[i] : (size_t)(urand() * kk);
            double dot = 0;
            for (size_t r = 0; r < k; r++) {
                s[i * k + r] = r == q ? 1.0 : -1.0 / (kk - 1);
                dot += ((int)r == y[i] ? 1.0 : -1.0 / (kk - 1)) * F[i * k + r];
            }
            double e = exp(-dot / kk);
            if ((int)q == y[i])
                A += e;
            else
                B += e;
        }
        cr_assert(B > 0 && A * (kk - 1) > B, "the test needs err in (0, (k-1)/k)");
        for (size_t r = 0; r < k; r++)
            up[r] = HUGE_VAL;
        double errw = B / (A + B);
        double want = (kk - 1) * (kk - 1) / kk * (log((1 - errw) / errw) + log(kk - 1));
        struct rowctx C = {L.ops, L.self, y, m, k, k, F, s, Fw, gF};
        struct bl_objective obj = {k, row_eval, &C, lo, up, 0.0, NULL};
        struct bl_solve_info info;
        cr_assert_eq(ops->solve(S, &obj, w, &info, err), 0, "%s", err);
        cr_assert(fabs(w[0] - want) <= 1e-5 * (1 + want),
                  "m=%zu k=%zu: alpha %.10g, SAMME's (scaled) %.10g (status %d, %d its)", m, k,
                  w[0], want, info.status, info.iterations);
        free(y), free(F), free(s), free(Fw), free(gF), free(w), free(lo), free(up);
    }
    ops->destroy(S);
    L.ops->destroy(L.self);
}

/* A step that cannot help (gamma < 0 under w >= 0) stays at alpha = 0; the
 * classes' bounds intersect; disjoint bounds are an error. */
static double quad1(void *ctx, const double *w, double *g)
{
    const double *b = ctx; /* f = 1/2 sum_r (w_r - b_r)^2, k = 3 */
    double f = 0;
    for (size_t r = 0; r < 3; r++) {
        f += 0.5 * (w[r] - b[r]) * (w[r] - b[r]);
        if (g)
            g[r] = w[r] - b[r];
    }
    return f;
}

Test(line, bounds)
{
    const struct bl_plugin *p = line_plugin();
    const struct bl_solver_ops *ops = p->ops;
    void *S = solver(p, "pgtol", 1e-12, "ftol", 0.0, NULL);
    char err[BL_ERR_MAX] = "";
    struct bl_solve_info info;
    double b[3] = {1.0, 2.0, 6.0}; /* unconstrained alpha = mean(b) = 3 */
    double lo[3] = {0, 0, 0}, up[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, w[3] = {0, 0, 0};
    struct bl_objective obj = {3, quad1, b, lo, up, 0.0, NULL};
    cr_assert_eq(ops->solve(S, &obj, w, &info, err), 0, "%s", err);
    cr_assert(fabs(w[0] - 3.0) < 1e-9 && w[1] == w[0] && w[2] == w[0], "alpha %g", w[0]);
    /* nu: phi'(alpha) = 3 alpha - 9 + 3 nu -> alpha = 3 - nu */
    obj.nu = 0.5;
    w[0] = w[1] = w[2] = 0;
    cr_assert_eq(ops->solve(S, &obj, w, &info, err), 0, "%s", err);
    cr_assert(fabs(w[0] - 2.5) < 1e-9, "alpha %g", w[0]);
    obj.nu = 0;
    /* the tightest upper bound wins */
    up[1] = 2.0;
    w[0] = w[1] = w[2] = 0;
    cr_assert_eq(ops->solve(S, &obj, w, &info, err), 0, "%s", err);
    cr_assert(fabs(w[0] - 2.0) < 1e-12, "alpha %g", w[0]);
    /* the wrong direction: stays at 0 */
    b[0] = -1, b[1] = -2, b[2] = -6;
    w[0] = w[1] = w[2] = 0;
    cr_assert_eq(ops->solve(S, &obj, w, &info, err), 0, "%s", err);
    cr_assert(w[0] == 0.0, "alpha %g", w[0]);
    /* no common coefficient */
    lo[2] = 3.0;
    cr_assert_eq(ops->solve(S, &obj, w, &info, err), -1);
    cr_assert(strstr(err, "bounds"), "%s", err);
    ops->destroy(S);
}

/* ---- prox-group ------------------------------------------------------------------ */

/* f(w) = c/2 (w - b)^T A (w - b) with A = I unless given, n <= 8 */
struct pquad {
    size_t n;
    double c, b[8], A[64];
    int useA;
};

static double pquad_eval(void *ctx, const double *w, double *g)
{
    const struct pquad *Q = ctx;
    double f = 0;
    for (size_t i = 0; i < Q->n; i++) {
        double Ai = 0;
        for (size_t j = 0; j < Q->n; j++)
            Ai += (Q->useA ? Q->A[i * Q->n + j] : (double)(i == j)) * (w[j] - Q->b[j]);
        f += 0.5 * Q->c * (w[i] - Q->b[i]) * Ai;
        if (g)
            g[i] = Q->c * Ai;
    }
    return f;
}

static double vnorm(const double *v, size_t n)
{
    double s = 0;
    for (size_t j = 0; j < n; j++)
        s += v[j] * v[j];
    return sqrt(s);
}

Test(prox, descriptor)
{
    const struct bl_plugin *p = prox_plugin();
    const struct bl_solver_ops *ops = p->ops;
    cr_assert_eq(p->sdk_version, BL_SDK_VERSION);
    cr_assert_eq(ops->scope, BL_SOLVE_ROW);
    (void)test_param_index(p, "max_iter");
    (void)test_param_index(p, "tol");
    (void)test_param_index(p, "lipschitz");
    cr_assert_str_eq(p->params[test_param_index(p, "max_iter")].def, "100");
    cr_assert_str_eq(p->params[test_param_index(p, "tol")].def, "1e-8");
    cr_assert_str_eq(p->params[test_param_index(p, "lipschitz")].def, "0");
    cr_assert(strstr(p->doc, "lambda"), "the doc says nu is read as lambda: %s", p->doc);
}

/* The group soft-threshold: min c/2 ||w - b||^2 + lambda ||w||_2 is
 * max(0, 1 - lambda/(c ||b||)) b; under w >= 0 the same with b+ . */
static void check_group_threshold(int nonneg, uint64_t seed)
{
    const struct bl_plugin *p = prox_plugin();
    const struct bl_solver_ops *ops = p->ops;
    void *S = solver(p, "tol", 1e-12, NULL);
    char err[BL_ERR_MAX] = "";
    rng_seed(seed);
    for (int trial = 0; trial < 40; trial++) {
        struct pquad Q = {0};
        Q.n = 2 + (size_t)(urand() * 7);
        Q.c = urange(0.2, 20.0);
        double bp[8], lo[8], up[8], w[8] = {0};
        for (size_t j = 0; j < Q.n; j++) {
            Q.b[j] = urange(-3, 3);
            bp[j] = nonneg ? fmax(Q.b[j], 0.0) : Q.b[j];
            lo[j] = nonneg ? 0.0 : -HUGE_VAL;
            up[j] = HUGE_VAL;
        }
        double nb = vnorm(bp, Q.n);
        /* lambda below and above the threshold c ||b+|| */
        double lambda = urange(0.0, 1.5) * Q.c * nb;
        double sh = nb > 0 ? fmax(0.0, 1.0 - lambda / (Q.c * nb)) : 0.0;
        struct bl_objective obj = {Q.n, pquad_eval, &Q, lo, up, lambda, NULL};
        struct bl_solve_info info;
        cr_assert_eq(ops->solve(S, &obj, w, &info, err), 0, "%s", err);
        cr_assert_eq(info.status, BL_SOLVE_CONVERGED, "status %d after %d its", info.status,
                     info.iterations);
        for (size_t j = 0; j < Q.n; j++) {
            double want = sh * bp[j];
            cr_assert(fabs(w[j] - want) <= 1e-7 * (1 + fabs(want)),
                      "n=%zu c=%g lambda=%g (threshold %g) w[%zu] = %.12g, want %.12g", Q.n, Q.c,
                      lambda, Q.c * nb, j, w[j], want);
            if (nonneg)
                cr_assert(w[j] >= 0.0);
            if (sh == 0.0)
                cr_assert_eq(w[j], 0.0, "exactly 0 beyond the threshold");
        }
        double fw = pquad_eval(&Q, w, NULL);
        cr_assert(fabs(info.objective - (fw + lambda * vnorm(w, Q.n))) <= 1e-12 * (1 + fw),
                  "objective = f(w) + lambda ||w||_2");
    }
    ops->destroy(S);
}

Test(prox, group_threshold_free) { check_group_threshold(0, 61); }
Test(prox, group_threshold_nonneg) { check_group_threshold(1, 62); }

Test(prox, lambda_large_gives_zero)
{
    const struct bl_plugin *p = prox_plugin();
    const struct bl_solver_ops *ops = p->ops;
    void *S = solver(p, NULL);
    char err[BL_ERR_MAX] = "";
    struct pquad Q = {.n = 4, .c = 2.0, .b = {1, -2, 0.5, 3}};
    double lo[4] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    double up[4] = {HUGE_VAL, HUGE_VAL, HUGE_VAL, HUGE_VAL}, w[4] = {0};
    struct bl_objective obj = {4, pquad_eval, &Q, lo, up, 1e3, NULL};
    struct bl_solve_info info;
    cr_assert_eq(ops->solve(S, &obj, w, &info, err), 0, "%s", err);
    for (size_t j = 0; j < 4; j++)
        cr_assert_eq(w[j], 0.0);
    cr_assert_eq(info.status, BL_SOLVE_CONVERGED);
    cr_assert(fabs(info.objective - pquad_eval(&Q, w, NULL)) <= 1e-15);
    /* a negative lambda is refused */
    obj.nu = -1;
    cr_assert_eq(ops->solve(S, &obj, w, &info, err), -1);
    ops->destroy(S);
}

/* max_iter = 1 with lipschitz = c: the spec's single closed-form step. */
Test(prox, one_step_form)
{
    const struct bl_plugin *p = prox_plugin();
    const struct bl_solver_ops *ops = p->ops;
    struct pquad Q = {.n = 3, .c = 5.0, .b = {1, -2, 2}}; /* ||b|| = 3 */
    void *S = solver(p, "max_iter", 1.0, "lipschitz", Q.c, NULL);
    char err[BL_ERR_MAX] = "";
    double lo[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, up[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
    double w[3] = {0};
    struct bl_objective obj = {3, pquad_eval, &Q, lo, up, 5.0, NULL}; /* shrink 1 - 5/(5*3) = 2/3 */
    struct bl_solve_info info;
    cr_assert_eq(ops->solve(S, &obj, w, &info, err), 0, "%s", err);
    cr_assert_eq(info.iterations, 1);
    cr_assert_eq(info.evaluations, 2, "start and one trial, no backtracking");
    for (size_t j = 0; j < 3; j++)
        cr_assert(fabs(w[j] - Q.b[j] * 2.0 / 3.0) <= 1e-15, "w[%zu] = %.17g", j, w[j]);
    ops->destroy(S);
}

/* A general quadratic (lambda = 0: w = b; lambda > 0: the optimality
 * condition grad f(w) + lambda w/||w|| = 0), from a bad Lipschitz start. */
Test(prox, general_quadratic)
{
    const struct bl_plugin *p = prox_plugin();
    const struct bl_solver_ops *ops = p->ops;
    char err[BL_ERR_MAX] = "";
    rng_seed(71);
    for (int variant = 0; variant < 3; variant++) {
        void *S = variant == 2 ? solver(p, "max_iter", 5000.0, "tol", 1e-14, "lipschitz", 1e-3, NULL)
                               : solver(p, "max_iter", 5000.0, "tol", 1e-14, NULL);
        struct pquad Q = {.n = 5, .c = 1.0, .useA = 1};
        double B[25];
        for (size_t j = 0; j < 25; j++)
            B[j] = urange(-1, 1);
        for (size_t i = 0; i < 5; i++) { /* A = B B^T + I */
            Q.b[i] = urange(-2, 2);
            for (size_t j = 0; j < 5; j++) {
                double a = i == j ? 1.0 : 0.0;
                for (size_t t = 0; t < 5; t++)
                    a += B[i * 5 + t] * B[j * 5 + t];
                Q.A[i * 5 + j] = a;
            }
        }
        double lo[5], up[5], w[5] = {0}, g[5];
        for (size_t j = 0; j < 5; j++)
            lo[j] = -HUGE_VAL, up[j] = HUGE_VAL;
        double lambda = variant == 0 ? 0.0 : 0.5;
        struct bl_objective obj = {5, pquad_eval, &Q, lo, up, lambda, NULL};
        struct bl_solve_info info;
        cr_assert_eq(ops->solve(S, &obj, w, &info, err), 0, "%s", err);
        cr_assert_eq(info.status, BL_SOLVE_CONVERGED, "variant %d: status %d after %d its", variant,
                     info.status, info.iterations);
        pquad_eval(&Q, w, g);
        double nw = vnorm(w, 5);
        cr_assert(nw > 0, "variant %d: the answer is not 0 here", variant);
        for (size_t j = 0; j < 5; j++) {
            double kkt = g[j] + lambda * w[j] / nw;
            cr_assert(fabs(kkt) <= 1e-7, "variant %d: optimality residual %g at %zu", variant, kkt, j);
        }
        ops->destroy(S);
    }
}

/* GradBoost's row problem on the softmax loss with a stump's +-1 outputs:
 * the answer satisfies the group-lasso optimality conditions
 * (grad f(w) + lambda w/||w|| = 0, or ||grad f(0)|| <= lambda at w = 0). */
Test(prox, softmax_row_optimality)
{
    struct lossinst L = open_loss_host("plugins/loss/softmax", "softmax", "normalize", 1, &test_host);
    const struct bl_plugin *p = prox_plugin();
    const struct bl_solver_ops *ops = p->ops;
    void *S = solver(p, "max_iter", 3000.0, "tol", 1e-13, NULL);
    char err[BL_ERR_MAX] = "";
    rng_seed(81);
    for (int trial = 0; trial < 10; trial++) {
        size_t m = 20 + (size_t)(urand() * 100), k = 3 + (size_t)(urand() * 5), n = m * k;
        int *y = malloc(m * sizeof *y);
        double *F = malloc(n * sizeof *F), *s = malloc(m * sizeof *s);
        double *Fw = malloc(n * sizeof *Fw), *gF = malloc(n * sizeof *gF);
        double *w = calloc(k, sizeof *w), *g = malloc(k * sizeof *g), *lo = malloc(k * sizeof *lo);
        double *up = malloc(k * sizeof *up);
        random_problem(m, k, 1.0, y, F);
        for (size_t i = 0; i < m; i++) /* a stump correlated with class 0 */
            s[i] = (y[i] == 0) == (urand() < 0.8) ? 1.0 : -1.0;
        for (size_t r = 0; r < k; r++)
            lo[r] = -HUGE_VAL, up[r] = HUGE_VAL;
        struct rowctx C = {L.ops, L.self, y, m, k, 1, F, s, Fw, gF};
        double w0[8] = {0}, g0[8];
        row_eval(&C, w0, g0);
        double lambda = urange(0.2, 1.3) * vnorm(g0, k); /* both sides of the threshold */
        struct bl_objective obj = {k, row_eval, &C, lo, up, lambda, NULL};
        struct bl_solve_info info;
        cr_assert_eq(ops->solve(S, &obj, w, &info, err), 0, "%s", err);
        row_eval(&C, w, g);
        double nw = vnorm(w, k);
        if (lambda >= vnorm(g0, k)) {
            cr_assert(nw == 0.0, "||grad f(0)|| <= lambda: w = 0 (||w|| = %g)", nw);
        } else {
            cr_assert(nw > 0.0);
            for (size_t r = 0; r < k; r++)
                cr_assert(fabs(g[r] + lambda * w[r] / nw) <= 1e-6 * (1 + lambda),
                          "trial %d: optimality residual %g at %zu (status %d, %d its)", trial,
                          g[r] + lambda * w[r] / nw, r, info.status, info.iterations);
        }
        free(y), free(F), free(s), free(Fw), free(gF), free(w), free(g), free(lo), free(up);
    }
    ops->destroy(S);
    L.ops->destroy(L.self);
}

/* ---- AdaBoost.MO: the loss mo-exp in code space ------------------------------ */

static struct lossinst open_mo(int normalize, const struct bl_host *host)
{
    struct lossinst L = open_loss_host("plugins/loss/mo_exp", "mo-exp", "normalize", normalize, host);
    cr_assert_not_null(L.ops->eval_coded, "mo-exp has eval_coded");
    return L;
}

/* Random targets in {-1, 0, +1} (ternary codes included) and scores. */
static void random_coded(size_t m, size_t c, double scale, double *Y, double *f)
{
    for (size_t j = 0; j < m * c; j++) {
        double u = urand();
        Y[j] = u < 0.45 ? -1.0 : u < 0.9 ? 1.0 : 0.0;
        f[j] = urange(-scale, scale);
    }
}

/* dL/df against central differences, one example at a time (as above). */
Test(mo, eval_coded_derivatives_fd)
{
    for (int norm = 0; norm < 2; norm++) {
        struct lossinst L = open_mo(norm, &test_host);
        rng_seed(91 + (uint64_t)norm);
        const double h = 1e-5;
        for (size_t sc = 0; sc < 3; sc++)
            for (size_t sh = 0; sh < NSHAPES; sh++) {
                size_t m = shapes[sh][0], c = shapes[sh][1], n = m * c;
                double *Y = malloc(n * sizeof *Y), *f = malloc(n * sizeof *f);
                double *g = malloc(n * sizeof *g), *g1 = malloc(c * sizeof *g1);
                random_coded(m, c, scales[sc], Y, f);
                double v = L.ops->eval_coded(L.self, Y, m, c, f, g), vs = 0;
                cr_assert(isfinite(v));
                cr_assert_eq(v, L.ops->eval_coded(L.self, Y, m, c, f, NULL));
                double s1 = norm ? 1.0 / (double)m : 1.0;
                for (size_t i = 0; i < m; i++) {
                    double *fi = f + i * c;
                    double vi = s1 * L.ops->eval_coded(L.self, Y + i * c, 1, c, fi, NULL);
                    vs += vi;
                    for (size_t l = 0; l < c; l++) {
                        double keep = fi[l], xp = keep + h, xm = keep - h;
                        fi[l] = xp;
                        double fp = L.ops->eval_coded(L.self, Y + i * c, 1, c, fi, g1);
                        fi[l] = xm;
                        double fm = L.ops->eval_coded(L.self, Y + i * c, 1, c, fi, g1);
                        fi[l] = keep;
                        double fd = s1 * (fp - fm) / (xp - xm);
                        double rnd = 16 * DBL_EPSILON * fabs(vi) / h;
                        cr_assert(fabs(g[i * c + l] - fd) <= 1e-7 * fabs(fd) + rnd + 1e-300,
                                  "normalize %d scale %g m=%zu c=%zu (%zu,%zu): grad %.15g, fd %.15g",
                                  norm, scales[sc], m, c, i, l, g[i * c + l], fd);
                        if (Y[i * c + l] == 0.0)
                            cr_assert_eq(g[i * c + l], 0.0, "a 0 target carries no weight");
                    }
                }
                cr_assert(fabs(v - vs) <= 1e-12 * fabs(v), "a sum over examples");
                free(Y), free(f), free(g), free(g1);
            }
        L.ops->destroy(L.self);
    }
}

/* At f = 0: the value is s m c and -grad = s Y (s = 1 or 1/m). */
Test(mo, eval_coded_at_zero_and_normalize)
{
    struct lossinst A = open_mo(0, &test_host), B = open_mo(1, &test_host);
    size_t m = 23, c = 7, n = m * c;
    double Y[23 * 7], f[23 * 7], ga[23 * 7], gb[23 * 7];
    rng_seed(93);
    random_coded(m, c, 1.0, Y, f);
    for (size_t j = 0; j < n; j++)
        Y[j] = Y[j] == 0.0 ? 1.0 : Y[j], f[j] = 0.0;
    cr_assert_eq(A.ops->eval_coded(A.self, Y, m, c, f, ga), (double)n);
    for (size_t j = 0; j < n; j++)
        cr_assert_eq(-ga[j], Y[j]);
    rng_seed(94);
    random_coded(m, c, 3.0, Y, f);
    double va = A.ops->eval_coded(A.self, Y, m, c, f, ga), vb = B.ops->eval_coded(B.self, Y, m, c, f, gb);
    cr_assert(fabs(vb - va / (double)m) <= 1e-14 * vb);
    for (size_t j = 0; j < n; j++)
        cr_assert(fabs(gb[j] - ga[j] / (double)m) <= 1e-15 * (1 + fabs(gb[j])));
    A.ops->destroy(A.self);
    B.ops->destroy(B.self);
}

/* Finite for any finite f (the clamp), with 1 or 4 threads bit for bit. */
Test(mo, eval_coded_extremes_and_threads)
{
    struct lossinst A = open_mo(0, &test_host), B = open_mo(0, &host4);
    const double mags[] = {1e3, 1e6, 1e300};
    size_t m = 9000, c = 15, n = m * c;
    double *Y = malloc(n * sizeof *Y), *f = malloc(n * sizeof *f);
    double *ga = malloc(n * sizeof *ga), *gb = malloc(n * sizeof *gb);
    rng_seed(95);
    random_coded(m, c, 3.0, Y, f);
    double va = A.ops->eval_coded(A.self, Y, m, c, f, ga), vb = B.ops->eval_coded(B.self, Y, m, c, f, gb);
    cr_assert_eq(va, vb, "%.17g with 1 thread, %.17g with 4", va, vb);
    cr_assert_eq(memcmp(ga, gb, n * sizeof *ga), 0, "gradients differ with the thread count");
    for (size_t a = 0; a < 3; a++) {
        for (size_t j = 0; j < n; j++) /* every target as wrong as it gets */
            f[j] = -(Y[j] == 0.0 ? 1.0 : Y[j]) * mags[a];
        double v = A.ops->eval_coded(A.self, Y, m, c, f, ga);
        cr_assert(isfinite(v) && v < DBL_MAX, "|f| = %g: value %g", mags[a], v);
        for (size_t j = 0; j < n; j++)
            cr_assert(isfinite(ga[j]));
    }
    /* one pair just past the clamp saturates there (700 for few pairs) */
    double y1[2] = {1.0, -1.0}, f1[2] = {-800.0, 0.0}, g1[2];
    double v = A.ops->eval_coded(A.self, y1, 1, 2, f1, g1);
    cr_assert(fabs(v - (exp(700.0) + 1.0)) <= 1e-15 * exp(700.0));
    cr_assert(fabs(g1[0] + exp(700.0)) <= 1e-15 * exp(700.0) && g1[1] == 1.0);
    free(Y), free(f), free(ga), free(gb);
    A.ops->destroy(A.self);
    B.ops->destroy(B.self);
}

/* The class-space eval the SDK still requires is exactly mh-exp's. */
Test(mo, class_space_eval_is_mh_exp)
{
    struct lossinst A = open_mo(0, &test_host), H = open_mh();
    size_t m = 40, k = 5;
    int y[40];
    double F[40 * 5], ga[40 * 5], gh[40 * 5], ha[40 * 5], hh[40 * 5];
    rng_seed(96);
    random_problem(m, k, 5.0, y, F);
    cr_assert_eq(A.ops->eval(A.self, y, m, k, F, ga), H.ops->eval(H.self, y, m, k, F, gh));
    cr_assert_eq(memcmp(ga, gh, sizeof ga), 0);
    cr_assert_eq(A.ops->hessian(A.self, y, m, k, F, BL_HESS_DIAG, ha), 0);
    H.ops->hessian(H.self, y, m, k, F, BL_HESS_DIAG, hh);
    cr_assert_eq(memcmp(ha, hh, sizeof ha), 0);
    cr_assert_null(A.ops->row_prepare);
    A.ops->destroy(A.self);
    H.ops->destroy(H.self);
}

/* ---- AdaBoost.MO: the engine in code space ----------------------------------- */

static bl_registry mo_reg;

static void mo_setup(void)
{
    bl_error err;
    memset(&mo_reg, 0, sizeof mo_reg);
    cr_assert_eq(bl_registry_load_dir(&mo_reg, BL_BUILD_DIR "/plugins", 1, &err), 0, "%s", err.msg);
}

static void mo_teardown(void) { bl_registry_free(&mo_reg); }

TestSuite(moeng, .init = mo_setup, .fini = mo_teardown);

typedef struct {
    bl_dataset ds;
    bl_qview q;
    struct bl_train tv;
} moprob;

/* A tiny k-class problem on an integer grid (so every value has its own
 * bin and the quantized cuts are exact): feature f of an example of class
 * y is 2((y + f) mod k) plus noise in {-2, .., 2}, labels round-robin. */
static void mo_problem(moprob *p, size_t m, size_t d, size_t k, uint64_t seed)
{
    bl_error err;
    memset(p, 0, sizeof *p);
    rng_seed(seed);
    p->ds.m = m, p->ds.d = d, p->ds.k = k;
    p->ds.y = calloc(m, sizeof *p->ds.y);
    p->ds.x = calloc(m * d, sizeof *p->ds.x);
    p->ds.feature_names = calloc(d, sizeof(char *));
    p->ds.class_names = calloc(k, sizeof(char *));
    for (size_t f = 0; f < d; f++)
        p->ds.feature_names[f] = strdup("x");
    for (size_t c = 0; c < k; c++) {
        char nm[16];
        snprintf(nm, sizeof nm, "c%zu", c);
        p->ds.class_names[c] = strdup(nm);
    }
    for (size_t i = 0; i < m; i++) {
        p->ds.y[i] = (int)(i % k);
        for (size_t f = 0; f < d; f++)
            p->ds.x[f * m + i] = (float)(2.0 * (double)(((size_t)p->ds.y[i] + f) % k) +
                                         floor(urand() * 5.0) - 2.0);
    }
    cr_assert_eq(bl_quantize(&p->ds, 64, &p->q, &err), 0, "%s", err.msg);
    bl_train_view(&p->ds, &p->q, &p->tv);
}

static void mo_release(moprob *p)
{
    bl_qview_free(&p->q);
    bl_dataset_free(&p->ds);
}

static void mo_set(bl_algo_spec *a, const char *key, const char *value)
{
    bl_error err;
    cr_assert_eq(bl_algo_set(a, &mo_reg, key, value, &err), 0, "%s = %s: %s", key, value, err.msg);
}

/* The adaboost-mo recipe from configs/, then overrides (key, value, ...,
 * NULL). */
static void mo_recipe(bl_algo_spec *a, const char *const *sets)
{
    bl_error err;
    cr_assert_eq(bl_recipe_load("adaboost-mo", BL_TEST_DATA, &mo_reg, a, &err), 0, "%s", err.msg);
    cr_assert_str_eq(a->loss.plugin->name, "mo-exp");
    cr_assert_str_eq(a->coding.plugin->name, "exhaustive");
    cr_assert_str_eq(a->solver.plugin->name, "lbfgsb-line");
    cr_assert_str_eq(a->weak.plugin->name, "stump");
    for (; sets && *sets; sets += 2)
        mo_set(a, sets[0], sets[1]);
}

static const char *const mo_tight[] = {"solver.pgtol", "1e-12", "solver.ftol", "0",
                                       "solver.max_iter", "500", NULL};

static int mo_train(const bl_algo_spec *a, moprob *p, int T, const struct bl_matrix *Xt,
                    const int *yt, bl_model *mo, bl_curve *cv, bl_error *err)
{
    bl_model_init(mo, a->weak.plugin, p->ds.k, p->ds.d, p->ds.class_names, p->ds.feature_names);
    bl_boost_cfg cfg = bl_algo_boost_cfg(a, T, 7);
    return bl_boost(&cfg, &p->tv, Xt, yt, mo, cv, err);
}

/* One run: a problem, the adaboost-mo recipe and what training gives. */
typedef struct {
    moprob p;
    bl_algo_spec a;
    bl_model mo;
    bl_curve cv;
    bl_error err;
} morun;

/* Train the recipe with overrides sets (as mo_recipe) T iterations on
 * mo_problem(m, d, k, seed), without a test set; bl_boost's status. */
static int morun_train(morun *r, size_t m, size_t d, size_t k, uint64_t seed,
                       const char *const *sets, int T)
{
    mo_problem(&r->p, m, d, k, seed);
    mo_recipe(&r->a, sets);
    return mo_train(&r->a, &r->p, T, NULL, NULL, &r->mo, &r->cv, &r->err);
}

static void morun_free(morun *r)
{
    bl_curve_free(&r->cv);
    bl_model_free(&r->mo);
    bl_algo_free(&r->a);
    mo_release(&r->p);
}

/* The exhaustive code as spec §7.5 / exhaustive.c build it: row 0 all +1,
 * column j's rows 1..k-1 the bits of j, most significant first. */
static double exh_entry(size_t k, size_t r, size_t j)
{
    return r == 0 ? 1.0 : ((j >> (k - 1 - r)) & 1) ? 1.0 : -1.0;
}

/* (a) AdaBoost.MO written out as spec §7.5's pseudo-code: weights D(i,l)
 * on the multi-label problem Y_il = M[y_i][l], one stump per column by
 * brute force over the quantized cuts (the largest |gamma_l|, polarity
 * making it positive), gamma = sum_l gamma_l, alpha = 1/2 ln((1+gamma)/(1-gamma)),
 * D <- D exp(-alpha Y h)/Z, and the linear decoding F = f M^T.  The recipe
 * must give the same alpha and the same class scores after every iteration,
 * and its curve's train loss must be the code-space loss sum_il
 * exp(-Y_il f_il).  Early on D takes only a few values per column, so
 * different stumps often tie exactly; the test then checks that the
 * recipe's stump for the column is one of the best (within rounding) and
 * follows it, so that both runs stay on the same path. */
Test(moeng, matches_the_spec_pseudo_code)
{
    moprob p;
    mo_problem(&p, 48, 3, 4, 101);
    size_t m = p.ds.m, k = p.ds.k, d = p.ds.d, c = ((size_t)1 << (k - 1)) - 1;
    const int T = 10;
    bl_algo_spec a;
    mo_recipe(&a, mo_tight);
    bl_model mo;
    bl_curve cv;
    bl_error err;
    cr_assert_eq(mo_train(&a, &p, T, NULL, NULL, &mo, &cv, &err), 0, "%s", err.msg);
    cr_assert_eq(mo.t, (size_t)T);
    const struct bl_weak_ops *wo = mo.weak->ops;
    double *Y = malloc(m * c * sizeof *Y), *D = malloc(m * c * sizeof *D);
    double *f = calloc(m * c, sizeof *f), *h = malloc(m * c * sizeof *h);
    double *F = malloc(m * k * sizeof *F), *Fm = malloc(m * k * sizeof *Fm);
    for (size_t i = 0; i < m; i++)
        for (size_t l = 0; l < c; l++) {
            Y[i * c + l] = exh_entry(k, (size_t)p.ds.y[i], l);
            D[i * c + l] = 1.0 / (double)(m * c);
        }
    struct bl_matrix X = {m, d, p.ds.x};
    int followed = 0, same = 0;
    for (int t = 0; t < T; t++) {
        const bl_term *tm = &mo.term[t];
        cr_assert_eq(wo->outdim(tm->hyp), c, "one stump per column");
        wo->predict(tm->hyp, &X, h); /* the recipe's stumps, m x c */
        double gamma = 0;
        for (size_t l = 0; l < c; l++) {
            double best = -1, pol = 1, gr = 0;
            size_t bf = 0, bb = 0;
            for (size_t ft = 0; ft < d; ft++)
                for (size_t b = 0; b + 1 < p.q.nbins[ft]; b++) {
                    double g = 0;
                    size_t right = 0;
                    for (size_t i = 0; i < m; i++) {
                        int up = p.ds.x[ft * m + i] > p.q.cut[ft][b];
                        right += (size_t)up;
                        g += D[i * c + l] * Y[i * c + l] * (up ? 1.0 : -1.0);
                    }
                    if (right == 0 || right == m) /* constant: not a stump */
                        continue;
                    if (fabs(g) > best) {
                        best = fabs(g), bf = ft, bb = b;
                        pol = g < 0 ? -1.0 : 1.0;
                    }
                }
            int agree = 1;
            for (size_t i = 0; i < m; i++) {
                double hb = pol * (p.ds.x[bf * m + i] > p.q.cut[bf][bb] ? 1.0 : -1.0);
                agree &= hb == h[i * c + l];
                gr += D[i * c + l] * Y[i * c + l] * h[i * c + l];
            }
            cr_assert(gr >= best - 1e-12 * best,
                      "iteration %d, column %zu: the recipe's stump has gamma_l %.17g, the best "
                      "is %.17g", t + 1, l, gr, best);
            same += agree;
            followed += !agree;
            gamma += gr;
        }
        double alpha = 0.5 * log((1 + gamma) / (1 - gamma)), Z = 0, loss = 0;
        for (size_t j = 0; j < m * c; j++) {
            f[j] += alpha * h[j];
            D[j] *= exp(-alpha * Y[j] * h[j]);
            Z += D[j];
            loss += exp(-Y[j] * f[j]);
        }
        for (size_t j = 0; j < m * c; j++)
            D[j] /= Z;
        /* the recipe's term t: one alpha for every class, the code itself */
        cr_assert_not_null(tm->code);
        cr_assert_eq(tm->hdim, c);
        for (size_t r = 0; r < k; r++)
            cr_assert_eq(tm->w[r], tm->w[0], "iteration %d: one shared alpha", t + 1);
        for (size_t q = 0; q < k * c; q++)
            cr_assert_eq(tm->code[q], exh_entry(k, q / c, q % c));
        cr_assert(fabs(tm->w[0] - alpha) <= 1e-7 * (1 + alpha),
                  "iteration %d: alpha %.12g, the pseudo-code's %.12g (gamma %g)", t + 1, tm->w[0],
                  alpha, gamma);
        cr_assert(fabs(cv.train_loss[t] - loss) <= 1e-7 * loss,
                  "iteration %d: curve's train loss %.12g, code-space loss %.12g", t + 1,
                  cv.train_loss[t], loss);
        /* class scores: the model with t+1 terms against f M^T */
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < k; r++) {
                double v = 0;
                for (size_t l = 0; l < c; l++)
                    v += exh_entry(k, r, l) * f[i * c + l];
                F[i * k + r] = v;
            }
        bl_model part = mo;
        part.t = (size_t)t + 1;
        bl_model_scores(&part, &X, Fm);
        for (size_t j = 0; j < m * k; j++)
            cr_assert(fabs(Fm[j] - F[j]) <= 1e-6 * (1 + fabs(F[j])),
                      "iteration %d, score %zu: recipe %.12g, pseudo-code %.12g", t + 1, j, Fm[j],
                      F[j]);
        cr_assert(fabs(cv.train_err[t] - bl_error_rate(F, p.ds.y, m, k)) <= 1.0 / (double)m + 1e-12);
    }
    /* most columns' stumps are the brute force's own first best */
    cr_assert_gt(same, 3 * followed, "%d stumps as found, %d tied ones followed", same, followed);
    cr_assert_lt(cv.train_err[T - 1], 0.5, "it learns something");
    free(Y), free(D), free(f), free(h), free(F), free(Fm);
    bl_curve_free(&cv);
    bl_model_free(&mo);
    bl_algo_free(&a);
    mo_release(&p);
}

/* (b) k = 3: the exhaustive code has 2^2 - 1 = 3 columns, and each term is
 * one stump per column. */
Test(moeng, three_classes_three_columns)
{
    morun run;
    cr_assert_eq(morun_train(&run, 36, 2, 3, 102, NULL, 4), 0, "%s", run.err.msg);
    const bl_model *mo = &run.mo;
    cr_assert_eq(mo->t, 4);
    const struct bl_weak_ops *wo = mo->weak->ops;
    for (size_t t = 0; t < mo->t; t++) {
        cr_assert_eq(mo->term[t].hdim, 3);
        cr_assert_eq(wo->outdim(mo->term[t].hyp), 3);
        cr_assert_eq(mo->term[t].outdim, 3, "a class output per class");
        for (size_t q = 0; q < 9; q++)
            cr_assert_eq(mo->term[t].code[q], exh_entry(3, q / 3, q % 3));
    }
    /* the columns: every non-trivial coloring of 3 classes, once */
    for (size_t j = 0; j < 3; j++)
        for (size_t j2 = j + 1; j2 < 3; j2++) {
            int eq = 1, comp = 1;
            for (size_t r = 0; r < 3; r++) {
                eq &= exh_entry(3, r, j) == exh_entry(3, r, j2);
                comp &= exh_entry(3, r, j) == -exh_entry(3, r, j2);
            }
            cr_assert(!eq && !comp);
        }
    morun_free(&run);
}

/* (c) k = 14: 8191 columns is past the exhaustive code's limit of 13
 * classes; the run is refused with the paper's dagger, naming the data's
 * class count and the coding. */
Test(moeng, fourteen_classes_refused_with_dagger)
{
    morun run;
    cr_assert_eq(morun_train(&run, 56, 2, 14, 103, NULL, 3), -1);
    const char *msg = run.err.msg;
    cr_assert(strstr(msg, "coding exhaustive"), "%s", msg);
    cr_assert(strstr(msg, "k = 14 classes"), "the data's class count: %s", msg);
    cr_assert(strstr(msg, "8191 columns"), "%s", msg);
    cr_assert(strstr(msg, "\u2020"), "the paper's dagger: %s", msg);
    cr_assert_eq(run.mo.t, 0);
    morun_free(&run);
}

/* (d) A saved and reloaded MO model predicts exactly as the trained one,
 * and its test error is the one the engine tracked (F = f M^T). */
Test(moeng, model_round_trip)
{
    moprob p, q;
    mo_problem(&p, 60, 3, 4, 104);
    mo_problem(&q, 40, 3, 4, 105);
    bl_algo_spec a;
    mo_recipe(&a, NULL);
    bl_model mo, back;
    bl_curve cv;
    bl_error err;
    struct bl_matrix Xt = {q.ds.m, q.ds.d, q.ds.x};
    cr_assert_eq(mo_train(&a, &p, 12, &Xt, q.ds.y, &mo, &cv, &err), 0, "%s", err.msg);
    cr_assert_eq(mo.t, 12);
    for (size_t j = 1; j < cv.n; j++)
        cr_assert_leq(cv.train_loss[j], cv.train_loss[j - 1] * (1 + 1e-12), "the loss falls");
    char path[] = "/tmp/bl-mo-XXXXXX";
    close(mkstemp(path));
    cr_assert_eq(bl_model_save(&mo, path, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_model_load(path, &mo_reg, &back, &err), 0, "%s", err.msg);
    unlink(path);
    cr_assert_eq(back.t, mo.t);
    size_t m = q.ds.m, k = q.ds.k;
    double *F1 = malloc(m * k * sizeof *F1), *F2 = malloc(m * k * sizeof *F2);
    int *l1 = malloc(m * sizeof *l1), *l2 = malloc(m * sizeof *l2);
    bl_model_scores(&mo, &Xt, F1);
    bl_model_scores(&back, &Xt, F2);
    cr_assert_eq(memcmp(F1, F2, m * k * sizeof *F1), 0, "scores differ after reload");
    bl_argmax_rows(F1, m, k, l1);
    bl_argmax_rows(F2, m, k, l2);
    cr_assert_eq(memcmp(l1, l2, m * sizeof *l1), 0);
    cr_assert(fabs(bl_error_rate(F2, q.ds.y, m, k) - cv.test_err[cv.n - 1]) <= 1.0 / (double)m,
              "test error %g from the file, %g tracked", bl_error_rate(F2, q.ds.y, m, k),
              cv.test_err[cv.n - 1]);
    free(F1), free(F2), free(l1), free(l2);
    bl_model_free(&back);
    bl_curve_free(&cv);
    bl_model_free(&mo);
    bl_algo_free(&a);
    mo_release(&p);
    mo_release(&q);
}

/* (e) Code space needs a fixed code: random-half draws a new coloring each
 * iteration, which the engine refuses, naming both plugins. */
Test(moeng, changing_code_refused)
{
    morun run;
    const char *sets[] = {"coding", "random-half", "weak.criterion", "max", NULL};
    cr_assert_eq(morun_train(&run, 40, 2, 4, 106, sets, 10), -1);
    const char *msg = run.err.msg;
    cr_assert(strstr(msg, "coding random-half changed its code"), "%s", msg);
    cr_assert(strstr(msg, "loss mo-exp runs in code space"), "%s", msg);
    cr_assert(strstr(msg, "fixed code"), "%s", msg);
    cr_assert(strncmp(msg, "iteration ", 10) == 0 && strncmp(msg, "iteration 1:", 12) != 0,
              "found at a later iteration: %s", msg);
    morun_free(&run);
}

/* Per-column coefficients (lbfgsb-row: one per column; lbfgsb-tc: all
 * terms' columns) are folded into the stored code, M diag(w): the loss
 * falls, and the saved model's training error is the one the engine
 * tracked on f M^T. */
Test(moeng, per_column_coefficients)
{
    const char *solvers[] = {"lbfgsb-row", "lbfgsb-tc"};
    for (size_t s = 0; s < 2; s++) {
        morun run;
        const char *sets[] = {"solver", solvers[s], NULL};
        cr_assert_eq(morun_train(&run, 48, 3, 4, 107, sets, 6), 0, "%s: %s", solvers[s],
                     run.err.msg);
        const bl_curve *cv = &run.cv;
        const bl_model *mo = &run.mo;
        const bl_dataset *ds = &run.p.ds;
        for (size_t j = 1; j < cv->n; j++)
            cr_assert_leq(cv->train_loss[j], cv->train_loss[j - 1] * (1 + 1e-9), "%s", solvers[s]);
        int folded = 0;
        for (size_t t = 0; t < mo->t; t++)
            for (size_t q = 0; q < mo->k * mo->term[t].hdim; q++)
                folded |= fabs(mo->term[t].code[q]) != 1.0;
        cr_assert(folded, "%s: distinct column coefficients end up in the code", solvers[s]);
        size_t m = ds->m, k = ds->k;
        double *F = malloc(m * k * sizeof *F);
        struct bl_matrix X = {m, ds->d, ds->x};
        bl_model_scores(mo, &X, F);
        cr_assert(fabs(bl_error_rate(F, ds->y, m, k) - cv->train_err[cv->n - 1]) <= 1e-12,
                  "%s: model %g, engine %g", solvers[s], bl_error_rate(F, ds->y, m, k),
                  cv->train_err[cv->n - 1]);
        free(F);
        morun_free(&run);
    }
}

/* Without a coding mo-exp is mh-exp (class space): the same model bit for
 * bit as AdaBoost.MH's recipe. */
Test(moeng, no_coding_is_adaboost_mh)
{
    moprob p;
    mo_problem(&p, 40, 3, 4, 108);
    bl_algo_spec a, b;
    bl_error err;
    cr_assert_eq(bl_recipe_load("adaboost-mh", BL_TEST_DATA, &mo_reg, &a, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_recipe_load("adaboost-mh", BL_TEST_DATA, &mo_reg, &b, &err), 0, "%s", err.msg);
    mo_set(&b, "loss", "mo-exp");
    bl_model ma, mb;
    bl_curve ca, cb;
    cr_assert_eq(mo_train(&a, &p, 6, NULL, NULL, &ma, &ca, &err), 0, "%s", err.msg);
    cr_assert_eq(mo_train(&b, &p, 6, NULL, NULL, &mb, &cb, &err), 0, "%s", err.msg);
    cr_assert_eq(ma.t, mb.t);
    for (size_t t = 0; t < ma.t; t++)
        cr_assert_eq(memcmp(ma.term[t].w, mb.term[t].w, ma.k * sizeof(double)), 0);
    cr_assert_eq(memcmp(ca.train_loss, cb.train_loss, ca.n * sizeof(double)), 0);
    bl_curve_free(&ca), bl_curve_free(&cb);
    bl_model_free(&ma), bl_model_free(&mb);
    bl_algo_free(&a), bl_algo_free(&b);
    mo_release(&p);
}

/* A loss whose table has no eval_coded runs in class space with a coding:
 * mo-exp without it is exactly mh-exp there. */
Test(moeng, loss_without_eval_coded_stays_in_class_space)
{
    moprob p;
    mo_problem(&p, 40, 3, 4, 109);
    bl_algo_spec a, b;
    mo_recipe(&a, NULL);
    mo_recipe(&b, NULL);
    mo_set(&b, "loss", "mh-exp");
    struct bl_plugin old = *a.loss.plugin;
    struct bl_loss_ops old_ops = *(const struct bl_loss_ops *)old.ops;
    cr_assert_not_null(old_ops.eval_coded);
    old_ops.eval_coded = NULL;
    old.ops = &old_ops;
    a.loss.plugin = &old;
    bl_model ma, mb;
    bl_curve ca, cb;
    bl_error err;
    cr_assert_eq(mo_train(&a, &p, 5, NULL, NULL, &ma, &ca, &err), 0, "%s", err.msg);
    cr_assert_eq(mo_train(&b, &p, 5, NULL, NULL, &mb, &cb, &err), 0, "%s", err.msg);
    cr_assert_eq(memcmp(ca.train_loss, cb.train_loss, ca.n * sizeof(double)), 0,
                 "class space: mh-exp's loss on F");
    cr_assert_eq(ca.train_loss0, (double)(p.ds.m * p.ds.k), "class-space loss at F = 0 is m k");
    a.loss.plugin = bl_registry_find(&mo_reg, "mo-exp", BL_ROLE_LOSS);
    bl_curve_free(&ca), bl_curve_free(&cb);
    bl_model_free(&ma), bl_model_free(&mb);
    bl_algo_free(&a), bl_algo_free(&b);
    mo_release(&p);
}

/* ---- klogit and the rank-one Hessian form ----------------------------------
 * The losses of the LogitBoost family's tree learners (spec
 * aoso-logitboost.md §1.3, §3.2): klogit's derivatives, value at 0, its
 * diagonal-only BL_HESS_DIAG_RANK1 form; softmax's rank-one form, whose
 * full Hessian diag(h) - u u^T (off the diagonal) annihilates 1. */

static struct lossinst open_klogit(void) { return open_loss("plugins/loss/klogit", "klogit"); }

/* Scales up to 300 keep exp(F - 1) below the 700 cap (exp(299) ~ 1e130),
 * and the tolerances of check_derivatives scale with the value. */
Test(klogit, derivatives_fd) { struct lossinst L = open_klogit(); check_derivatives(L, 5, 0); L.ops->destroy(L.self); }

/* L(0) = m k / e and -grad = [r = y] - 1/e. */
static double w_klogit(int y, size_t k, size_t r) { (void)k; return ((int)r == y ? 1.0 : 0.0) - exp(-1.0); }
static double v_klogit(size_t m, size_t k) { return (double)(m * k) / exp(1.0); }

Test(klogit, at_zero) { struct lossinst L = open_klogit(); check_zero(L, w_klogit, v_klogit); L.ops->destroy(L.self); }

/* The closed form at random F, value and Hessian diagonal p = exp(F - 1). */
Test(klogit, closed_form)
{
    struct lossinst L = open_klogit();
    size_t m = 23, k = 6, n = m * k;
    int y[23];
    double F[23 * 6], g[23 * 6], H[23 * 6];
    rng_seed(31);
    random_problem(m, k, 3.0, y, F);
    double want = 0.0;
    for (size_t i = 0; i < m; i++) {
        for (size_t r = 0; r < k; r++)
            want += exp(F[i * k + r] - 1.0);
        want -= F[i * k + (size_t)y[i]];
    }
    double f = L.ops->eval(L.self, y, m, k, F, g);
    cr_assert(fabs(f - want) <= 1e-13 * fabs(want), "value %.17g, want %.17g", f, want);
    cr_assert_eq(L.ops->hessian(L.self, y, m, k, F, BL_HESS_DIAG, H), 0);
    for (size_t j = 0; j < n; j++) {
        double p = exp(F[j] - 1.0);
        cr_assert(fabs(H[j] - p) <= 1e-15 * p, "hess %.17g, want %.17g", H[j], p);
        cr_assert(fabs(g[j] - (p - ((int)(j % k) == y[j / k] ? 1.0 : 0.0))) <= 1e-15 * (1 + p));
    }
    L.ops->destroy(L.self);
}

/* The documented cap keeps everything finite (loss.h: finite for any finite
 * F), also summed over many examples at the cap. */
Test(klogit, extremes_finite) { struct lossinst L = open_klogit(); check_extremes(L); L.ops->destroy(L.self); }

Test(klogit, thread_independent) { check_threads("plugins/loss/klogit", "klogit"); }

/* BL_HESS_DIAG_RANK1: h is the diagonal form bit for bit and u = 0 (the
 * Hessian is diagonal). */
Test(klogit, rank1_form)
{
    struct lossinst L = open_klogit();
    size_t m = 40, k = 7, n = m * k;
    int y[40];
    double F[40 * 7], H[40 * 7], HU[2 * 40 * 7];
    rng_seed(37);
    random_problem(m, k, 4.0, y, F);
    for (size_t j = 0; j < 2 * n; j++)
        HU[j] = NAN; /* both halves must be written */
    cr_assert_eq(L.ops->hessian(L.self, y, m, k, F, BL_HESS_DIAG, H), 0);
    cr_assert_eq(L.ops->hessian(L.self, y, m, k, F, BL_HESS_DIAG_RANK1, HU), 0);
    cr_assert_eq(memcmp(H, HU, n * sizeof *H), 0, "h differs from the diagonal form");
    for (size_t j = 0; j < n; j++) {
        cr_assert_eq(HU[n + j], 0.0, "u[%zu] = %g", j, HU[n + j]);
        cr_assert(fabs(HU[j] - exp(F[j] - 1.0)) <= 1e-15 * HU[j]);
    }
    L.ops->destroy(L.self);
}

/* softmax's BL_HESS_DIAG_RANK1: h is the diagonal form bit for bit, u = p
 * (the softmax probabilities); the whole Hessian diag(h) + offdiag(-u_r u_s)
 * times 1 is 0 (invariance to adding a constant to a row); normalize =
 * examples scales h by 1/m and u by 1/sqrt(m). */
Test(softmax, rank1_form)
{
    struct lossinst A = open_softmax();
    struct lossinst B = open_loss_host("plugins/loss/softmax", "softmax", "normalize", 1, &test_host);
    const double sc[] = {1.0, 4.0, 30.0};
    for (size_t a = 0; a < 3; a++) {
        size_t m = 50, k = 6, n = m * k;
        int y[50];
        double F[50 * 6], H[50 * 6], HU[2 * 50 * 6], HN[2 * 50 * 6];
        rng_seed(41 + a);
        random_problem(m, k, sc[a], y, F);
        for (size_t j = 0; j < 2 * n; j++)
            HU[j] = NAN;
        cr_assert_eq(A.ops->hessian(A.self, y, m, k, F, BL_HESS_DIAG, H), 0);
        cr_assert_eq(A.ops->hessian(A.self, y, m, k, F, BL_HESS_DIAG_RANK1, HU), 0);
        cr_assert_eq(memcmp(H, HU, n * sizeof *H), 0, "scale %g: h differs from the diagonal form", sc[a]);
        const double *u = HU + n;
        for (size_t i = 0; i < m; i++) {
            const double *Fi = F + i * k;
            double mx = Fi[0], s = 0.0, us = 0.0;
            for (size_t r = 1; r < k; r++)
                mx = Fi[r] > mx ? Fi[r] : mx;
            for (size_t r = 0; r < k; r++)
                s += exp(Fi[r] - mx);
            for (size_t r = 0; r < k; r++) {
                double p = exp(Fi[r] - mx) / s;
                cr_assert(fabs(u[i * k + r] - p) <= 1e-14 * p + 1e-300,
                          "scale %g (%zu,%zu): u %.17g, p %.17g", sc[a], i, r, u[i * k + r], p);
                us += u[i * k + r];
            }
            for (size_t r = 0; r < k; r++) { /* row r of H times 1 */
                double row = HU[i * k + r];
                for (size_t q = 0; q < k; q++)
                    if (q != r)
                        row -= u[i * k + r] * u[i * k + q];
                cr_assert(fabs(row) <= 1e-12, "scale %g example %zu row %zu: (H 1)_r = %g", sc[a], i,
                          r, row);
            }
            cr_assert(fabs(us - 1.0) <= 1e-14);
        }
        cr_assert_eq(B.ops->hessian(B.self, y, m, k, F, BL_HESS_DIAG_RANK1, HN), 0);
        double rm = sqrt((double)m);
        for (size_t j = 0; j < n; j++) {
            cr_assert(fabs(HN[j] - HU[j] / (double)m) <= 1e-15 * HU[j] / (double)m + 1e-300,
                      "normalize: h %.17g, want %.17g", HN[j], HU[j] / (double)m);
            cr_assert(fabs(HN[n + j] - u[j] / rm) <= 1e-15 * u[j] / rm + 1e-300,
                      "normalize: u %.17g, want %.17g", HN[n + j], u[j] / rm);
        }
    }
    A.ops->destroy(A.self);
    B.ops->destroy(B.self);
}

/* The rank-one form is thread-count independent too. */
Test(softmax, rank1_thread_independent)
{
    struct lossinst A = open_loss_host("plugins/loss/softmax", "softmax", NULL, 0, &test_host);
    struct lossinst B = open_loss_host("plugins/loss/softmax", "softmax", NULL, 0, &host4);
    size_t m = 9000, k = 4, n = m * k;
    int *y = malloc(m * sizeof *y);
    double *F = malloc(n * sizeof *F), *ha = malloc(2 * n * sizeof *ha), *hb = malloc(2 * n * sizeof *hb);
    rng_seed(43);
    random_problem(m, k, 3.0, y, F);
    A.ops->hessian(A.self, y, m, k, F, BL_HESS_DIAG_RANK1, ha);
    B.ops->hessian(B.self, y, m, k, F, BL_HESS_DIAG_RANK1, hb);
    cr_assert_eq(memcmp(ha, hb, 2 * n * sizeof *ha), 0);
    free(y), free(F), free(ha), free(hb);
    A.ops->destroy(A.self);
    B.ops->destroy(B.self);
}

/* softmax's Hessian reuses its last pass only for the very same F: one
 * score changed anywhere in a large F (the threads compare chunks of it),
 * and the Hessian is a fresh instance's, bit for bit. */
Test(softmax, hessian_sees_any_change)
{
    struct lossinst A = open_loss_host("plugins/loss/softmax", "softmax", NULL, 0, &host4);
    size_t m = 20000, k = 5, n = m * k; /* n > the parallel compare's 65536 */
    int *y = malloc(m * sizeof *y);
    double *F = malloc(n * sizeof *F), *ha = malloc(2 * n * sizeof *ha), *hb = malloc(2 * n * sizeof *hb);
    rng_seed(47);
    random_problem(m, k, 3.0, y, F);
    A.ops->hessian(A.self, y, m, k, F, BL_HESS_DIAG_RANK1, ha);
    const size_t at[] = {0, n / 2 + 1, n - 1};
    for (size_t a = 0; a < 3; a++) {
        F[at[a]] += 0.25;
        struct lossinst B = open_loss_host("plugins/loss/softmax", "softmax", NULL, 0, &host4);
        A.ops->hessian(A.self, y, m, k, F, BL_HESS_DIAG_RANK1, ha);
        B.ops->hessian(B.self, y, m, k, F, BL_HESS_DIAG_RANK1, hb);
        cr_assert_eq(memcmp(ha, hb, 2 * n * sizeof *ha), 0, "F[%zu] changed, Hessian kept", at[a]);
        B.ops->destroy(B.self);
    }
    free(y), free(F), free(ha), free(hb);
    A.ops->destroy(A.self);
}

/* softmax keeps each eval's shifted exps and reuses those whose score and
 * row shift did not change (AOSO moves 2 of k scores per example): a run
 * of evals on one instance, each moving a few scores (some rows' maximum
 * among them, some by -0 for +0), gives the value, gradient and both
 * Hessian forms of a fresh instance bit for bit, with 1 and 4 threads. */
Test(softmax, kept_exps_exact)
{
    const struct bl_host *hosts[2] = {&test_host, &host4};
    for (int h = 0; h < 2; h++) {
        struct lossinst A = open_loss_host("plugins/loss/softmax", "softmax", NULL, 0, hosts[h]);
        size_t m = 5000, k = 9, n = m * k;
        int *y = malloc(m * sizeof *y);
        double *F = malloc(n * sizeof *F), *ga = malloc(n * sizeof *ga), *gb = malloc(n * sizeof *gb);
        double *ha = malloc(2 * n * sizeof *ha), *hb = malloc(2 * n * sizeof *hb);
        rng_seed(44 + (uint64_t)h);
        random_problem(m, k, 3.0, y, F);
        cr_assert_eq(A.ops->hessian(A.self, y, m, k, F, BL_HESS_DIAG_RANK1, ha), 0); /* caches on */
        for (int step = 0; step < 6; step++) {
            for (size_t i = 0; i < m; i++) {
                double *Fi = F + i * k;
                size_t r = (size_t)(urand() * (double)k) % k, s = (r + 1 + i % (k - 1)) % k;
                if (i % 3 == 0)
                    continue; /* a row left alone */
                Fi[r] += i % 5 == 0 ? 4.0 : 0.1 * (urand() - 0.5); /* may become the max */
                Fi[s] -= 0.1 * urand();
                if (i % 7 == 0)
                    Fi[(s + 1) % k] = Fi[(s + 1) % k] == 0.0 ? -0.0 : Fi[(s + 1) % k];
            }
            if (step == 2)
                F[0] = 0.0, F[1] = -0.0; /* signed zeros as scores */
            struct lossinst B = open_loss_host("plugins/loss/softmax", "softmax", NULL, 0, hosts[h]);
            cr_assert_eq(B.ops->hessian(B.self, y, m, k, F, BL_HESS_DIAG_RANK1, hb), 0);
            double va = A.ops->eval(A.self, y, m, k, F, ga), vb = B.ops->eval(B.self, y, m, k, F, gb);
            cr_assert_eq(memcmp(&va, &vb, sizeof va), 0, "step %d: value %.17g, fresh %.17g", step, va, vb);
            cr_assert_eq(memcmp(ga, gb, n * sizeof *ga), 0, "step %d: gradients differ", step);
            cr_assert_eq(A.ops->hessian(A.self, y, m, k, F, BL_HESS_DIAG_RANK1, ha), 0);
            cr_assert_eq(memcmp(ha, hb, 2 * n * sizeof *ha), 0, "step %d: Hessians differ", step);
            B.ops->destroy(B.self);
        }
        free(y), free(F), free(ga), free(gb), free(ha), free(hb);
        A.ops->destroy(A.self);
    }
}

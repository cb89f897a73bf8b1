/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of the loss plugins margin-exp and margin-log against the
 * spec (stagewise-multiclass-boosting.md §2.4, §2.6, §3.4, §3.8, §11.1-2):
 * gradients and Hessian diagonals against finite differences, the dual
 * weights at F = 0, extreme margins, margin-log's eval against the plain
 * stable formulas, the row fast paths of margin-exp and margin-log against
 * eval, the row fast paths' Hessians (row_hessian) against finite
 * differences and the Laplacian of spec §3.4, the KKT relation at w = 0
 * with U computed independently from (11)/(12), and bit-identical results
 * whatever the number of threads.
 */
#include <criterion/criterion.h>
#include "testutil.h"

#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* ---- helpers ------------------------------------------------------------ */

/* rng_seed, urand, urange, random_problem: testutil.h */
#define assert_close(a, b, tol, ...)                                            \
    do {                                                                        \
        double a_ = (a), b_ = (b);                                              \
        cr_assert(fabs(a_ - b_) <= (tol) * (1.0 + fabs(b_)), __VA_ARGS__);     \
    } while (0)

struct lossinst {
    const struct bl_plugin *p;
    const struct bl_loss_ops *ops;
    void *self;
};

/* host: the API table the instance gets (its threads field counts). */
static struct lossinst open_loss_host(const char *rel, const char *name, int literal,
                                      const struct bl_host *host)
{
    struct lossinst L;
    union bl_value v[4];
    char err[BL_ERR_MAX] = "";
    L.p = test_plugin(rel, name);
    cr_assert_eq(L.p->role, BL_ROLE_LOSS);
    cr_assert_eq(L.p->sdk_version, BL_SDK_VERSION);
    test_defaults(L.p, v);
    if (literal) {
        int j = test_param_index(L.p, "literal_init");
        cr_assert_geq(j, 0);
        v[j].b = 1;
    }
    L.ops = L.p->ops;
    L.self = L.ops->create(host, v, err);
    cr_assert_not_null(L.self, "create %s: %s", name, err);
    return L;
}

static struct lossinst open_loss(const char *rel, const char *name, int literal)
{
    return open_loss_host(rel, name, literal, &test_host);
}

static struct lossinst open_exp(void)
{
    return open_loss("plugins/loss/margin_exp", "margin-exp", 0);
}

static struct lossinst open_log(int literal)
{
    return open_loss("plugins/loss/margin_log", "margin-log", literal);
}

static const size_t shapes[][2] = {{1, 2}, {6, 2}, {5, 3}, {20, 4}, {9, 10}, {40, 7}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* ---- gradient and Hessian against finite differences ----------------- */

static void check_gradient(struct lossinst L, uint64_t seed)
{
    rng_seed(seed);
    for (size_t s = 0; s < NSHAPES; s++) {
        size_t m = shapes[s][0], k = shapes[s][1], n = m * k;
        int *y = malloc(m * sizeof *y);
        double *F = malloc(n * sizeof *F), *g = malloc(n * sizeof *g);
        random_problem(m, k, 2.0, y, F);
        double f0 = L.ops->eval(L.self, y, m, k, F, g);
        cr_assert(isfinite(f0));
        cr_assert_eq(f0, L.ops->eval(L.self, y, m, k, F, NULL), "value must not depend on grad");
        const double h = 1e-5;
        for (size_t j = 0; j < n; j++) {
            double keep = F[j];
            F[j] = keep + h;
            double fp = L.ops->eval(L.self, y, m, k, F, NULL);
            F[j] = keep - h;
            double fm = L.ops->eval(L.self, y, m, k, F, NULL);
            F[j] = keep;
            double fd = (fp - fm) / (2 * h);
            assert_close(g[j], fd, 1e-7, "%s m=%zu k=%zu entry %zu: grad %.12g, fd %.12g",
                         L.p->name, m, k, j, g[j], fd);
        }
        free(y), free(F), free(g);
    }
}

static void check_hessian(struct lossinst L, uint64_t seed)
{
    rng_seed(seed);
    for (size_t s = 0; s < NSHAPES; s++) {
        size_t m = shapes[s][0], k = shapes[s][1], n = m * k;
        int *y = malloc(m * sizeof *y);
        double *F = malloc(n * sizeof *F), *H = malloc(n * sizeof *H);
        double *gp = malloc(n * sizeof *gp), *gm = malloc(n * sizeof *gm);
        random_problem(m, k, 2.0, y, F);
        cr_assert_not_null(L.ops->hessian);
        cr_assert_eq(L.ops->hessian(L.self, y, m, k, F, BL_HESS_DIAG, H), 0);
        const double h = 1e-5;
        for (size_t j = 0; j < n; j++) {
            double keep = F[j];
            F[j] = keep + h;
            L.ops->eval(L.self, y, m, k, F, gp);
            F[j] = keep - h;
            L.ops->eval(L.self, y, m, k, F, gm);
            F[j] = keep;
            double fd = (gp[j] - gm[j]) / (2 * h);
            assert_close(H[j], fd, 1e-7, "%s m=%zu k=%zu entry %zu: hess %.12g, fd %.12g",
                         L.p->name, m, k, j, H[j], fd);
            cr_assert(H[j] >= 0.0, "convex loss: diagonal must be >= 0");
        }
        cr_assert_eq(L.ops->hessian(L.self, y, m, k, F, (enum bl_hess_form)99, H), -1,
                     "unknown Hessian forms must be refused");
        free(y), free(F), free(H), free(gp), free(gm);
    }
}

Test(losses, exp_gradient_fd) { struct lossinst L = open_exp(); check_gradient(L, 1); L.ops->destroy(L.self); }
Test(losses, log_gradient_fd) { struct lossinst L = open_log(0); check_gradient(L, 2); L.ops->destroy(L.self); }
Test(losses, log_literal_gradient_fd) { struct lossinst L = open_log(1); check_gradient(L, 3); L.ops->destroy(L.self); }
Test(losses, exp_hessian_fd) { struct lossinst L = open_exp(); check_hessian(L, 4); L.ops->destroy(L.self); }
Test(losses, log_hessian_fd) { struct lossinst L = open_log(0); check_hessian(L, 5); L.ops->destroy(L.self); }
Test(losses, log_literal_hessian_fd) { struct lossinst L = open_log(1); check_hessian(L, 6); L.ops->destroy(L.self); }

/* ---- values and dual weights at F = 0 ----------------------------------- */

/* -grad at F = 0 is c_ir of spec §2.4 with U uniform: c_{i,y_i} = (k-1) U,
 * c_ir = -U otherwise. */
static void check_zero(struct lossinst L, double (*U)(size_t m, size_t k),
                       double (*value)(size_t m, size_t k))
{
    rng_seed(7);
    for (size_t s = 0; s < NSHAPES; s++) {
        size_t m = shapes[s][0], k = shapes[s][1], n = m * k;
        int *y = malloc(m * sizeof *y);
        double *F = calloc(n, sizeof *F), *g = malloc(n * sizeof *g);
        for (size_t i = 0; i < m; i++)
            y[i] = (int)(urand() * (double)k);
        double f = L.ops->eval(L.self, y, m, k, F, g);
        assert_close(f, value(m, k), 1e-13, "%s value at 0: %.17g", L.p->name, f);
        double u = U(m, k);
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < k; r++) {
                double c = (int)r == y[i] ? (double)(k - 1) * u : -u;
                assert_close(-g[i * k + r], c, 1e-13, "%s m=%zu k=%zu (%zu,%zu): -grad %.17g, c %.17g",
                             L.p->name, m, k, i, r, -g[i * k + r], c);
            }
        free(y), free(F), free(g);
    }
}

static double u_exp(size_t m, size_t k) { return 1.0 / (double)(m * k); }
static double v_exp(size_t m, size_t k) { return log((double)(m * k)); }
static double u_log(size_t m, size_t k) { (void)m, (void)k; return 0.5; }
static double v_log(size_t m, size_t k) { return (double)(m * k) * log(2.0); }
static double u_lit(size_t m, size_t k) { return 1.0 / (1.0 + (double)(m * k)); }
static double v_lit(size_t m, size_t k) { return (double)(m * k) * log1p(1.0 / (double)(m * k)); }

Test(losses, exp_at_zero) { struct lossinst L = open_exp(); check_zero(L, u_exp, v_exp); L.ops->destroy(L.self); }
Test(losses, log_at_zero) { struct lossinst L = open_log(0); check_zero(L, u_log, v_log); L.ops->destroy(L.self); }
Test(losses, log_literal_at_zero) { struct lossinst L = open_log(1); check_zero(L, u_lit, v_lit); L.ops->destroy(L.self); }

/* ---- row sums and extreme margins --------------------------------------- */

static void check_rows_and_extremes(struct lossinst L, double scale, uint64_t seed)
{
    rng_seed(seed);
    for (size_t s = 0; s < NSHAPES; s++) {
        size_t m = shapes[s][0], k = shapes[s][1], n = m * k;
        int *y = malloc(m * sizeof *y);
        double *F = malloc(n * sizeof *F), *g = malloc(n * sizeof *g), *H = malloc(n * sizeof *H);
        random_problem(m, k, scale, y, F);
        if (scale > 1e5) /* push every entry to the extremes */
            for (size_t j = 0; j < n; j++)
                F[j] = F[j] < 0 ? -scale : scale;
        double f = L.ops->eval(L.self, y, m, k, F, g);
        cr_assert(isfinite(f), "%s: value %g at scale %g", L.p->name, f, scale);
        cr_assert_eq(L.ops->hessian(L.self, y, m, k, F, BL_HESS_DIAG, H), 0);
        for (size_t i = 0; i < m; i++) {
            double sum = 0.0, abs = 0.0;
            for (size_t r = 0; r < k; r++) {
                double gr = g[i * k + r];
                cr_assert(isfinite(gr) && isfinite(H[i * k + r]), "%s: non-finite at (%zu,%zu)",
                          L.p->name, i, r);
                if ((int)r != y[i])
                    cr_assert(gr >= 0.0, "dL/dF_ir >= 0 for r != y_i");
                sum += gr;
                abs += fabs(gr);
            }
            cr_assert(fabs(sum) <= 1e-12 * (1.0 + abs), "%s: row %zu of grad sums to %g", L.p->name,
                      i, sum);
        }
        free(y), free(F), free(g), free(H);
    }
}

Test(losses, exp_row_sums) { struct lossinst L = open_exp(); check_rows_and_extremes(L, 3.0, 8); L.ops->destroy(L.self); }
Test(losses, log_row_sums) { struct lossinst L = open_log(0); check_rows_and_extremes(L, 3.0, 9); L.ops->destroy(L.self); }
Test(losses, exp_extreme) { struct lossinst L = open_exp(); check_rows_and_extremes(L, 1e6, 10); L.ops->destroy(L.self); }
Test(losses, log_extreme) { struct lossinst L = open_log(0); check_rows_and_extremes(L, 1e6, 11); L.ops->destroy(L.self); }
Test(losses, log_literal_extreme) { struct lossinst L = open_log(1); check_rows_and_extremes(L, 1e6, 12); L.ops->destroy(L.self); }

/* The extreme values themselves: with every margin at -2e6 the exp loss is
 * 2e6 + log(#pairs at the max), the log loss is about sum of 2e6. */
Test(losses, extreme_values)
{
    struct lossinst E = open_exp(), G = open_log(0);
    int y[2] = {0, 1};
    double F[4] = {-1e6, 1e6, 1e6, -1e6}; /* both examples: rho = -2e6 for the other class */
    double g[4];
    double fe = E.ops->eval(E.self, y, 2, 2, F, g);
    assert_close(fe, 2e6 + log(2.0), 1e-15, "exp value %.17g", fe);
    assert_close(g[1], 0.5, 1e-15, "exp grad");
    assert_close(g[0], -0.5, 1e-15, "exp grad");
    double fl = G.ops->eval(G.self, y, 2, 2, F, g);
    assert_close(fl, 4e6 + 2 * log(2.0), 1e-15, "log value %.17g", fl);
    assert_close(g[1], 1.0, 1e-15, "log grad");
    E.ops->destroy(E.self);
    G.ops->destroy(G.self);
}

/* ---- row problem ------------------------------------------------------------ */

/* phi(w) = L(F + s w^T) and its gradient g_r = sum_i s_i dL/dF_ir via eval. */
static double phi_eval(struct lossinst L, const int *y, size_t m, size_t k, const double *F,
                       const double *s, const double *w, double *grad)
{
    size_t n = m * k;
    double *Fw = malloc(n * sizeof *Fw), *gF = malloc(n * sizeof *gF);
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++)
            Fw[i * k + r] = F[i * k + r] + s[i] * w[r];
    double f = L.ops->eval(L.self, y, m, k, Fw, gF);
    if (grad)
        for (size_t r = 0; r < k; r++) {
            grad[r] = 0.0;
            for (size_t i = 0; i < m; i++)
                grad[r] += s[i] * gF[i * k + r];
        }
    free(Fw), free(gF);
    return f;
}

/* Shapes for the row fast paths: the common ones, plus enough examples for
 * margin-log's exp table (k^2 <= m (k-1)) and for several chunks of 2048
 * examples, m not a multiple of 2048. */
static const size_t row_shapes[][2] = {{1, 2}, {6, 2}, {5, 3}, {20, 4}, {9, 10}, {40, 7},
                                       {300, 5}, {4500, 3}, {2049, 6}};
#define NROWSHAPES (sizeof row_shapes / sizeof row_shapes[0])

/* The fast path against eval: value and gradient at w = 0 and at random w
 * in [-wscale, wscale]^k, with F in [-fscale, fscale]. */
static void check_row_fast(struct lossinst L, double fscale, double wscale, uint64_t seed)
{
    cr_assert_not_null(L.ops->row_prepare);
    cr_assert_not_null(L.ops->row_eval);
    cr_assert_not_null(L.ops->row_free);
    rng_seed(seed);
    for (size_t sh = 0; sh < NROWSHAPES; sh++) {
        size_t m = row_shapes[sh][0], k = row_shapes[sh][1];
        int *y = malloc(m * sizeof *y);
        double *F = malloc(m * k * sizeof *F), *s = malloc(m * sizeof *s);
        double *w = malloc(k * sizeof *w), *g1 = malloc(k * sizeof *g1), *g2 = malloc(k * sizeof *g2);
        random_problem(m, k, fscale, y, F);
        for (size_t i = 0; i < m; i++)
            s[i] = urand() < 0.5 ? -1.0 : 1.0;
        void *row = L.ops->row_prepare(L.self, y, m, k, F, s);
        cr_assert_not_null(row, "row_prepare declined a +-1 stump");
        for (int trial = 0; trial < 5; trial++) {
            for (size_t r = 0; r < k; r++)
                w[r] = trial == 0 ? 0.0 : urange(-wscale, wscale);
            double fa = L.ops->row_eval(row, w, g1);
            double fb = phi_eval(L, y, m, k, F, s, w, g2);
            cr_assert(isfinite(fa));
            assert_close(fa, fb, 1e-12, "%s m=%zu k=%zu: row_eval %.17g, eval %.17g", L.p->name,
                         m, k, fa, fb);
            cr_assert_eq(fa, L.ops->row_eval(row, w, NULL));
            for (size_t r = 0; r < k; r++)
                assert_close(g1[r], g2[r], 1e-10, "%s m=%zu k=%zu grad %zu: %.17g vs %.17g",
                             L.p->name, m, k, r, g1[r], g2[r]);
        }
        L.ops->row_free(row);
        /* any s_i outside {-1,+1} must make it decline */
        s[m / 2] = 0.5;
        cr_assert_null(L.ops->row_prepare(L.self, y, m, k, F, s));
        free(y), free(F), free(s), free(w), free(g1), free(g2);
    }
    L.ops->destroy(L.self);
}

Test(losses, exp_row_fast_path) { check_row_fast(open_exp(), 2.0, 2.0, 13); }
Test(losses, exp_row_fast_path_large) { check_row_fast(open_exp(), 300.0, 400.0, 14); }

/* margin-log: moderate values (the exp table), margins beyond +-350 with a
 * small w (table, some entries through exp), w spread beyond 350 (no
 * table, some |z| > 700: the two-sided stable forms), and literal_init. */
Test(losses, log_row_fast_path) { check_row_fast(open_log(0), 2.0, 2.0, 17); }
Test(losses, log_row_fast_path_wide_F) { check_row_fast(open_log(0), 600.0, 0.5, 18); }
Test(losses, log_row_fast_path_large) { check_row_fast(open_log(0), 300.0, 400.0, 19); }
Test(losses, log_row_fast_path_huge) { check_row_fast(open_log(0), 3000.0, 3000.0, 20); }
Test(losses, log_literal_row_fast_path) { check_row_fast(open_log(1), 2.0, 2.0, 21); }
Test(losses, log_literal_row_fast_path_large) { check_row_fast(open_log(1), 300.0, 400.0, 22); }

/* ---- the row problem's Hessian (row_hessian) ----------------------------- */

/* row_hessian against central differences of row_eval's gradient, at w = 0
 * and at random w in [-wscale, wscale]^k (F in [-fscale, fscale]): column
 * b of H is (g(w + h e_b) - g(w - h e_b)) / 2h.  Also: H is symmetric
 * (exactly), H 1 = 0 (shift invariance, spec §3.4), its diagonal is >= 0,
 * and it does not change the following row_eval. */
static void check_row_hessian(struct lossinst L, double fscale, double wscale, uint64_t seed)
{
    cr_assert_not_null(L.ops->row_hessian);
    rng_seed(seed);
    for (size_t sh = 0; sh < NROWSHAPES; sh++) {
        size_t m = row_shapes[sh][0], k = row_shapes[sh][1], kk = k * k;
        int *y = malloc(m * sizeof *y);
        double *F = malloc(m * k * sizeof *F), *s = malloc(m * sizeof *s);
        double *w = malloc(k * sizeof *w), *H = malloc(kk * sizeof *H);
        double *gp = malloc(k * sizeof *gp), *gm = malloc(k * sizeof *gm);
        double *g0 = malloc(k * sizeof *g0), *g1 = malloc(k * sizeof *g1);
        random_problem(m, k, fscale, y, F);
        for (size_t i = 0; i < m; i++)
            s[i] = urand() < 0.5 ? -1.0 : 1.0;
        void *row = L.ops->row_prepare(L.self, y, m, k, F, s);
        cr_assert_not_null(row);
        for (int trial = 0; trial < 4; trial++) {
            for (size_t r = 0; r < k; r++)
                w[r] = trial == 0 ? 0.0 : urange(-wscale, wscale);
            double f0 = L.ops->row_eval(row, w, g0);
            cr_assert_eq(L.ops->row_hessian(row, w, H), 0);
            double f1 = L.ops->row_eval(row, w, g1);
            cr_assert(f0 == f1 && memcmp(g0, g1, k * sizeof *g0) == 0,
                      "row_hessian changed what row_eval gives");
            double hmax = 0.0;
            for (size_t j = 0; j < kk; j++) {
                cr_assert(isfinite(H[j]));
                hmax = fmax(hmax, fabs(H[j]));
            }
            const double h = 1e-5;
            for (size_t b = 0; b < k; b++) {
                double keep = w[b];
                w[b] = keep + h;
                L.ops->row_eval(row, w, gp);
                w[b] = keep - h;
                L.ops->row_eval(row, w, gm);
                w[b] = keep;
                double rsum = 0.0;
                for (size_t a = 0; a < k; a++) {
                    double fd = (gp[a] - gm[a]) / (2 * h);
                    cr_assert(fabs(H[a * k + b] - fd) <= 1e-6 * (1.0 + hmax),
                              "%s m=%zu k=%zu H[%zu][%zu] = %.12g, fd %.12g", L.p->name, m, k, a,
                              b, H[a * k + b], fd);
                    cr_assert_eq(H[a * k + b], H[b * k + a], "H not symmetric");
                    rsum += H[b * k + a];
                }
                cr_assert(fabs(rsum) <= 1e-12 * (1.0 + hmax) * (double)k, "H 1 = %g, not 0", rsum);
                cr_assert(H[b * k + b] >= 0.0);
            }
        }
        L.ops->row_free(row);
        free(y), free(F), free(s), free(w), free(H), free(gp), free(gm), free(g0), free(g1);
    }
    L.ops->destroy(L.self);
}

/* margin-log: the exp table, margins beyond +-350 (some entries through
 * exp), w spread beyond 350 (no table, |z| > 700), literal_init, and the
 * normalisations; margin-exp's O(k^2) one. */
Test(row_hessian, log_fd) { check_row_hessian(open_log(0), 2.0, 2.0, 60); }
Test(row_hessian, log_fd_wide_F) { check_row_hessian(open_log(0), 600.0, 0.5, 61); }
Test(row_hessian, log_fd_huge) { check_row_hessian(open_log(0), 3000.0, 3000.0, 62); }
Test(row_hessian, log_literal_fd) { check_row_hessian(open_log(1), 2.0, 2.0, 63); }
Test(row_hessian, exp_fd) { check_row_hessian(open_exp(), 2.0, 2.0, 64); }
Test(row_hessian, exp_fd_large) { check_row_hessian(open_exp(), 30.0, 20.0, 65); }

static struct lossinst open_log_normalized(int choice)
{
    struct lossinst L;
    union bl_value v[4];
    char err[BL_ERR_MAX] = "";
    L.p = test_plugin("plugins/loss/margin_log", "margin-log");
    test_defaults(L.p, v);
    v[test_param_index(L.p, "normalize")].choice = choice;
    L.ops = L.p->ops;
    L.self = L.ops->create(&test_host, v, err);
    cr_assert_not_null(L.self, "%s", err);
    return L;
}

Test(row_hessian, log_normalized_fd)
{
    check_row_hessian(open_log_normalized(1), 2.0, 2.0, 66);
    check_row_hessian(open_log_normalized(2), 2.0, 2.0, 67);
}

/* The sum of the Hessian over the row problem's pairs, written out from
 * spec §3.4 (v_ir = sigma(z) sigma(-z)), against margin-log's row_hessian:
 * a check independent of finite differences. */
Test(row_hessian, log_laplacian_formula)
{
    struct lossinst L = open_log(0);
    rng_seed(68);
    size_t m = 300, k = 6;
    int y[300];
    double F[300 * 6], s[300], w[6], H[36], R[36] = {0};
    random_problem(m, k, 3.0, y, F);
    for (size_t i = 0; i < m; i++)
        s[i] = urand() < 0.5 ? -1.0 : 1.0;
    for (size_t r = 0; r < k; r++)
        w[r] = urange(0.0, 2.0);
    for (size_t i = 0; i < m; i++) {
        size_t c = (size_t)y[i];
        for (size_t r = 0; r < k; r++) {
            if (r == c)
                continue;
            double z = F[i * k + r] - F[i * k + c] + s[i] * (w[r] - w[c]);
            double v = 1.0 / (1.0 + exp(-z)) / (1.0 + exp(z));
            R[c * k + c] += v, R[r * k + r] += v, R[c * k + r] -= v, R[r * k + c] -= v;
        }
    }
    void *row = L.ops->row_prepare(L.self, y, m, k, F, s);
    cr_assert_eq(L.ops->row_hessian(row, w, H), 0);
    for (size_t j = 0; j < k * k; j++)
        assert_close(H[j], R[j], 1e-12, "H[%zu] %.17g vs %.17g", j, H[j], R[j]);
    L.ops->row_free(row);
    L.ops->destroy(L.self);
}

/* mh-exp has no row_hessian: its table leaves the member NULL. */
Test(row_hessian, absent_member_is_null)
{
    const struct bl_plugin *p = test_plugin("plugins/loss/mh_exp", "mh-exp");
    cr_assert_null(((const struct bl_loss_ops *)p->ops)->row_hessian);
}

/* ---- margin-log's eval against the plain stable formulas ---------------- */

static void check_log_reference(int literal, double scale, uint64_t seed)
{
    struct lossinst L = open_log(literal);
    rng_seed(seed);
    for (size_t sh = 0; sh < NROWSHAPES; sh++) {
        size_t m = row_shapes[sh][0], k = row_shapes[sh][1], n = m * k;
        int *y = malloc(m * sizeof *y);
        double *F = malloc(n * sizeof *F), *g = malloc(n * sizeof *g);
        random_problem(m, k, scale, y, F);
        double o = literal ? -log((double)m * (double)k) : 0.0, ref = 0.0;
        double f = L.ops->eval(L.self, y, m, k, F, g);
        cr_assert_eq(f, L.ops->eval(L.self, y, m, k, F, NULL), "value must not depend on grad");
        for (size_t i = 0; i < m; i++) {
            double tot = 0.0;
            for (size_t r = 0; r < k; r++) {
                double z = F[i * k + r] - F[i * k + (size_t)y[i]] + o, e = exp(-fabs(z));
                ref += fmax(z, 0.0) + log1p(e);
                if ((int)r == y[i])
                    continue;
                double q = (z >= 0.0 ? 1.0 : e) / (1.0 + e);
                tot += q;
                assert_close(g[i * k + r], q, 1e-14, "scale %g (%zu,%zu): grad %.17g, ref %.17g",
                             scale, i, r, g[i * k + r], q);
            }
            assert_close(g[i * k + (size_t)y[i]], -tot, 1e-13, "scale %g row %zu: grad_y", scale, i);
        }
        assert_close(f, ref, 1e-13, "scale %g m=%zu k=%zu: value %.17g, ref %.17g", scale, m, k, f,
                     ref);
        free(y), free(F), free(g);
    }
    L.ops->destroy(L.self);
}

Test(losses, log_eval_reference)
{
    const double scales[] = {0.5, 5.0, 40.0, 400.0, 1e6};
    for (size_t j = 0; j < sizeof scales / sizeof scales[0]; j++) {
        check_log_reference(0, scales[j], 30 + j);
        check_log_reference(1, scales[j], 40 + j);
    }
}

/* ---- results do not depend on the number of threads --------------------- */

/* Everything the engine asks of a loss, on one problem, for host->threads
 * = nt: eval (value, m x k gradient) and the row fast path (value, k
 * gradient, and the k x k row Hessian).  out holds 2 + m k + k + k k
 * doubles. */
static void run_with_threads(const char *rel, const char *name, int literal, int nt,
                             const int *y, size_t m, size_t k, const double *F, const double *s,
                             const double *w, double *out)
{
    struct bl_host host = test_host;
    host.threads = nt;
#ifdef _OPENMP
    omp_set_num_threads(nt);
#endif
    struct lossinst L = open_loss_host(rel, name, literal, &host);
    out[0] = L.ops->eval(L.self, y, m, k, F, out + 2);
    void *row = L.ops->row_prepare(L.self, y, m, k, F, s);
    cr_assert_not_null(row);
    out[1] = L.ops->row_eval(row, w, out + 2 + m * k);
    cr_assert_eq(L.ops->row_hessian(row, w, out + 2 + m * k + k), 0);
    L.ops->row_free(row);
    L.ops->destroy(L.self);
}

static void check_threads(const char *rel, const char *name, int literal, uint64_t seed)
{
    static const size_t tshapes[][2] = {{5000, 7}, {10000, 7}, {6144, 4}, {2049, 3}, {700, 26}};
    rng_seed(seed);
    for (size_t sh = 0; sh < sizeof tshapes / sizeof tshapes[0]; sh++) {
        size_t m = tshapes[sh][0], k = tshapes[sh][1], nout = 2 + m * k + k + k * k;
        int *y = malloc(m * sizeof *y);
        double *F = malloc(m * k * sizeof *F), *s = malloc(m * sizeof *s), *w = malloc(k * sizeof *w);
        double *ref = malloc(nout * sizeof *ref), *out = malloc(nout * sizeof *out);
        random_problem(m, k, 4.0, y, F);
        for (size_t i = 0; i < m; i++)
            s[i] = urand() < 0.5 ? -1.0 : 1.0;
        for (size_t r = 0; r < k; r++)
            w[r] = urange(-1.0, 1.0);
        run_with_threads(rel, name, literal, 1, y, m, k, F, s, w, ref);
        for (int nt = 2; nt <= 3; nt++) {
            run_with_threads(rel, name, literal, nt, y, m, k, F, s, w, out);
            cr_assert(out[0] == ref[0], "%s m=%zu k=%zu eval, %d threads: %a vs %a", name, m, k,
                      nt, out[0], ref[0]);
            cr_assert(out[1] == ref[1], "%s m=%zu k=%zu row_eval, %d threads: %a vs %a", name, m,
                      k, nt, out[1], ref[1]);
            cr_assert(memcmp(out + 2, ref + 2, m * k * sizeof *out) == 0,
                      "%s m=%zu k=%zu: eval gradient differs with %d threads", name, m, k, nt);
            cr_assert(memcmp(out + 2 + m * k, ref + 2 + m * k, k * sizeof *out) == 0,
                      "%s m=%zu k=%zu: row_eval gradient differs with %d threads", name, m, k, nt);
            cr_assert(memcmp(out + 2 + m * k + k, ref + 2 + m * k + k, k * k * sizeof *out) == 0,
                      "%s m=%zu k=%zu: row_hessian differs with %d threads", name, m, k, nt);
        }
        free(y), free(F), free(s), free(w), free(ref), free(out);
    }
#ifdef _OPENMP
    omp_set_num_threads(1);
#endif
}

Test(losses, exp_threads_bit_identical) { check_threads("plugins/loss/margin_exp", "margin-exp", 0, 50); }
Test(losses, log_threads_bit_identical) { check_threads("plugins/loss/margin_log", "margin-log", 0, 51); }
Test(losses, log_literal_threads_bit_identical) { check_threads("plugins/loss/margin_log", "margin-log", 1, 52); }

/* ---- KKT at w = 0 (spec §3.4 / §11.2) ---------------------------------------- */

/* U from (11) (softmax over all m*k pairs of -rho) or (12) (sigma(-rho)),
 * computed here independently of the plugins. */
static void dual_weights(int exp_loss, const int *y, size_t m, size_t k, const double *F, double *U)
{
    double M = -HUGE_VAL, S = 0.0;
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++) {
            double z = F[i * k + r] - F[i * k + (size_t)y[i]]; /* -rho_ir */
            U[i * k + r] = z;
            if (z > M)
                M = z;
        }
    for (size_t j = 0; j < m * k; j++) {
        if (exp_loss) {
            U[j] = exp(U[j] - M);
            S += U[j];
        } else {
            U[j] = 1.0 / (1.0 + exp(-U[j]));
        }
    }
    if (exp_loss)
        for (size_t j = 0; j < m * k; j++)
            U[j] /= S;
}

static void check_kkt(struct lossinst L, int exp_loss, uint64_t seed)
{
    rng_seed(seed);
    for (size_t sh = 0; sh < NSHAPES; sh++) {
        size_t m = shapes[sh][0], k = shapes[sh][1];
        int *y = malloc(m * sizeof *y);
        double *F = malloc(m * k * sizeof *F), *U = malloc(m * k * sizeof *U), *s = malloc(m * sizeof *s);
        double *w = calloc(k, sizeof *w), *g = malloc(k * sizeof *g);
        random_problem(m, k, 1.5, y, F);
        for (size_t i = 0; i < m; i++)
            s[i] = urand() < 0.5 ? -1.0 : 1.0;
        dual_weights(exp_loss, y, m, k, F, U);
        phi_eval(L, y, m, k, F, s, w, g);
        for (size_t a = 0; a < k; a++) {
            double score = 0.0;
            for (size_t i = 0; i < m; i++) {
                double c = 0.0;
                if ((int)a == y[i])
                    for (size_t l = 0; l < k; l++)
                        c += l == a ? 0.0 : U[i * k + l];
                else
                    c = -U[i * k + a];
                score += c * s[i];
            }
            assert_close(g[a], -score, 1e-12, "%s m=%zu k=%zu class %zu: dphi/dw %.17g, -score %.17g",
                         L.p->name, m, k, a, g[a], -score);
            /* and by finite differences of the value alone */
            const double h = 1e-6;
            w[a] = h;
            double fp = phi_eval(L, y, m, k, F, s, w, NULL);
            w[a] = -h;
            double fm = phi_eval(L, y, m, k, F, s, w, NULL);
            w[a] = 0.0;
            assert_close((fp - fm) / (2 * h), -score, 1e-7, "%s: fd of phi vs -score", L.p->name);
        }
        { /* the fast path agrees at w = 0 too */
            void *row = L.ops->row_prepare(L.self, y, m, k, F, s);
            double *g2 = malloc(k * sizeof *g2);
            L.ops->row_eval(row, w, g2);
            for (size_t a = 0; a < k; a++)
                assert_close(g2[a], g[a], 1e-12, "fast path gradient at 0");
            L.ops->row_free(row);
            free(g2);
        }
        free(y), free(F), free(U), free(s), free(w), free(g);
    }
}

Test(losses, exp_kkt_at_zero) { struct lossinst L = open_exp(); check_kkt(L, 1, 15); L.ops->destroy(L.self); }
Test(losses, log_kkt_at_zero) { struct lossinst L = open_log(0); check_kkt(L, 0, 16); L.ops->destroy(L.self); }

/* ---- descriptors ------------------------------------------------------------- */

Test(losses, descriptors)
{
    const struct bl_plugin *e = test_plugin("plugins/loss/margin_exp", "margin-exp");
    const struct bl_plugin *l = test_plugin("plugins/loss/margin_log", "margin-log");
    cr_assert_eq(e->nparams, 1); /* pairs (tests/unit/test_expstep.c) */
    cr_assert_str_eq(e->params[0].name, "pairs");
    cr_assert_eq(e->params[0].type, BL_PARAM_CHOICE);
    cr_assert_str_eq(e->params[0].def, "all");
    cr_assert_eq(l->nparams, 2);
    cr_assert_str_eq(l->params[0].name, "literal_init");
    cr_assert_str_eq(l->params[1].name, "normalize");
    cr_assert_eq(l->params[0].type, BL_PARAM_BOOL);
    cr_assert_str_eq(l->params[0].def, "false");
    cr_assert_not_null(e->doc);
    cr_assert_not_null(l->params[0].doc);
}

/* normalize = pairs is the same loss divided by m k: value, gradient,
 * Hessian and the row fast path. */
Test(margin_log, normalize_divides_by_pairs)
{
    const struct bl_plugin *p = test_plugin("plugins/loss/margin_log", "margin-log");
    const struct bl_loss_ops *ops = p->ops;
    union bl_value v[4];
    char err[BL_ERR_MAX];
    test_defaults(p, v);
    void *plain = ops->create(&test_host, v, err);
    int j = test_param_index(p, "normalize");
    cr_assert_geq(j, 0);
    v[j].choice = 2; /* pairs */
    void *norm = ops->create(&test_host, v, err);
    size_t m = 37, k = 5, mk = m * k;
    int y[37];
    double F[37 * 5], g1[37 * 5], g2[37 * 5], h1[37 * 5], h2[37 * 5], s[37], w[5], r1[5], r2[5];
    rng_seed(99);
    random_problem(m, k, 3.0, y, F);
    for (size_t i = 0; i < m; i++)
        s[i] = urand() < 0.5 ? -1 : 1;
    for (size_t r = 0; r < k; r++)
        w[r] = urange(0, 2);
    double a = ops->eval(plain, y, m, k, F, g1), b = ops->eval(norm, y, m, k, F, g2);
    assert_close(b, a / (double)mk, 1e-14, "value");
    ops->hessian(plain, y, m, k, F, BL_HESS_DIAG, h1);
    ops->hessian(norm, y, m, k, F, BL_HESS_DIAG, h2);
    for (size_t q = 0; q < mk; q++) {
        assert_close(g2[q], g1[q] / (double)mk, 1e-14, "gradient %zu", q);
        assert_close(h2[q], h1[q] / (double)mk, 1e-14, "hessian %zu", q);
    }
    void *R1 = ops->row_prepare(plain, y, m, k, F, s), *R2 = ops->row_prepare(norm, y, m, k, F, s);
    a = ops->row_eval(R1, w, r1);
    b = ops->row_eval(R2, w, r2);
    assert_close(b, a / (double)mk, 1e-14, "row value");
    for (size_t r = 0; r < k; r++)
        assert_close(r2[r], r1[r] / (double)mk, 1e-14, "row gradient %zu", r);
    double H1[25], H2[25];
    cr_assert_eq(ops->row_hessian(R1, w, H1), 0);
    cr_assert_eq(ops->row_hessian(R2, w, H2), 0);
    for (size_t q = 0; q < k * k; q++)
        assert_close(H2[q], H1[q] / (double)mk, 1e-14, "row Hessian %zu", q);
    ops->row_free(R1);
    ops->row_free(R2);
    ops->destroy(plain);
    ops->destroy(norm);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of the weak learner "wlda" (plugins/weak/wlda.c; RandomBoost's
 * weighted Fisher LDA, spec randomboost.md §4.2):
 *   - on two Gaussian classes with unequal covariances the direction is the
 *     closed-form Fisher direction (S1 + S2)^-1 (mu1 - mu2) of the weighted
 *     classes, computed here in raw units (also with missing values, which
 *     count as the feature's mean); a singular S1 + S2 (a duplicated
 *     feature, ridge = 0) takes the pseudo-inverse's minimum-norm answer;
 *   - the edge is the recomputed sum_i g_i h(x_i) (max_r of it, or the sum
 *     over columns for criterion each), fit's outputs are predict's;
 *   - `features`: at most that many terms, all drawn from the seed (same
 *     seed, same answer; other seeds, other features); 1 and 2 threads give
 *     the same bits;
 *   - save/load round trip of every form (lda, stump, each), malformed text
 *     refused with a message naming wlda;
 *   - degenerate inputs (one-signed or zero weights, m = 1, constant
 *     features, NaN weights) give a valid answer or a message, never NaN;
 *   - criterion each: outdim c, column r answers as a fit of column r alone;
 *   - with_stumps: never below the best axis-aligned stump (the stump
 *     plugin) nor below wlda alone;
 *   - rescaling a feature (by a power of two, exact in float) changes nothing.
 */
#include <criterion/criterion.h>
#include "testutil.h"

#include <float.h>
#include <math.h>

#include "weakset.h"

static double gauss(void)
{
    double u1 = urand(), u2 = urand();
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* m x c signed weights following noisy oblique rules of the features. */
static double *random_G(const struct tset *T, size_t c, uint64_t seed)
{
    rng_seed(seed);
    size_t m = T->tr.m, d = T->tr.d;
    double *G = malloc((m * c > 0 ? m * c : 1) * sizeof *G);
    for (size_t r = 0; r < c; r++) {
        double w[8];
        for (size_t f = 0; f < 8; f++)
            w[f] = urange(-1, 1);
        for (size_t i = 0; i < m; i++) {
            double s = urange(-0.5, 0.5);
            for (size_t f = 0; f < d && f < 8; f++) {
                float v = T->tr.X.x[f * m + i];
                s += w[f] * (isnan(v) ? 0.0 : v);
            }
            G[i * c + r] = (s > 0 ? 1.0 : -1.0) * urange(0.1, 1.0);
            if (urand() < 0.05)
                G[i * c + r] = 0.0;
        }
    }
    return G;
}

struct fitted {
    int rc;
    char err[BL_ERR_MAX];
    void *hyp;
    size_t outdim;
    double edge;
    double *out;
    char text[1 << 17];
};

static const struct bl_plugin *wlda(void)
{
    return test_plugin("plugins/weak/wlda", "wlda");
}

static const struct bl_weak_ops *ops_of(const struct bl_plugin *p)
{
    return p->ops;
}

/* Parameters of a fit: NULL-terminated "name", value pairs. */
struct opt {
    const char *name;
    double val;
};

static void fit_with(const struct bl_plugin *p, const struct tset *T, const double *G, size_t c,
                     uint64_t seed, int threads, const struct opt *opts, struct fitted *F)
{
    union bl_value v[16];
    test_defaults(p, v);
    for (; opts && opts->name; opts++) {
        int j = test_param_index(p, opts->name);
        switch (p->params[j].type) {
        case BL_PARAM_INT: v[j].i = (int64_t)opts->val; break;
        case BL_PARAM_CHOICE: v[j].choice = (int)opts->val; break;
        case BL_PARAM_BOOL: v[j].b = opts->val != 0; break;
        default: v[j].r = opts->val; break;
        }
    }
    struct bl_host host = test_host;
    host.threads = threads;
    char err[BL_ERR_MAX] = "";
    void *L = ops_of(p)->create(&host, v, &T->tr, err);
    cr_assert_not_null(L, "%s: create: %s", p->name, err);
    memset(F, 0, sizeof *F);
    F->out = calloc(T->tr.m * c + 1, sizeof *F->out);
    struct bl_fit_request rq = {.G = G, .c = c, .seed = seed};
    struct bl_fit_result rs = {.out = F->out};
    F->rc = ops_of(p)->fit(L, &rq, &rs, F->err);
    F->hyp = rs.hyp;
    F->edge = rs.edge;
    F->outdim = rs.outdim;
    if (F->rc == 0) {
        cr_assert_not_null(F->hyp);
        cr_assert_eq(ops_of(p)->outdim(F->hyp), rs.outdim);
        int n = ops_of(p)->save(F->hyp, F->text, sizeof F->text);
        cr_assert(n > 0 && (size_t)n < sizeof F->text);
    }
    ops_of(p)->destroy(L);
}

static void fitted_free(const struct bl_plugin *p, struct fitted *F)
{
    if (F->hyp)
        ops_of(p)->free_hyp(F->hyp);
    free(F->out);
}

static double sum_abs(const double *u, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += fabs(u[i]);
    return s;
}

/* The edge recomputed from predict: max_r s_r (outdim 1) or sum_r s_r
 * (outdim c); fit's outputs must be predict's, every output +-1. */
static double check_edge(const struct bl_plugin *p, const struct tset *T, const double *G,
                         size_t c, const struct fitted *F)
{
    size_t m = T->tr.m, od = F->outdim;
    cr_assert(od == 1 || od == c, "outdim %zu for c = %zu", od, c);
    double *h = malloc((m * od + 1) * sizeof *h), want = od == 1 ? -HUGE_VAL : 0.0;
    ops_of(p)->predict(F->hyp, &T->tr.X, h);
    for (size_t j = 0; j < m * od; j++) {
        cr_assert(h[j] == 1.0 || h[j] == -1.0, "predict[%zu] = %g", j, h[j]);
        cr_assert_eq(h[j], F->out[j], "fit output %zu is %g, predict %g", j, F->out[j], h[j]);
    }
    for (size_t r = 0; r < c; r++) {
        double s = 0.0;
        for (size_t i = 0; i < m; i++)
            s += G[i * c + r] * h[od == 1 ? i : i * c + r];
        want = od == 1 ? fmax(want, s) : want + s;
    }
    cr_assert(isfinite(F->edge) && F->edge >= 0.0, "edge %g", F->edge);
    cr_assert(fabs(F->edge - want) <= 1e-12 * (sum_abs(G, m * c) + 1e-300),
              "edge %.17g, predict gives %.17g (%s)", F->edge, want, F->text);
    free(h);
    return want;
}

/* ---- the direction ------------------------------------------------------- */

struct lda_text {
    double t, b;
    int pol;
    size_t n, f[64];
    double v[64], mu[64], sd[64];
};

/* Parse a one-output "lda ..." text. */
static void parse_lda(const char *s, struct lda_text *L)
{
    int used = 0;
    cr_assert_eq(sscanf(s, "lda t=%lf pol=%d b=%lf terms=%zu%n", &L->t, &L->pol, &L->b, &L->n,
                        &used), 4, "not an lda hypothesis: \"%s\"", s);
    cr_assert(L->n <= 64);
    s += used;
    for (size_t j = 0; j < L->n; j++) {
        cr_assert_eq(sscanf(s, " %zu:%lf:%lf:%lf%n", &L->f[j], &L->v[j], &L->mu[j], &L->sd[j],
                            &used), 4, "term %zu of \"%s\"", j, s);
        s += used;
    }
}

/* Solve the n x n system A x = b (row-major, destroyed) by Gaussian
 * elimination with partial pivoting. */
static void gauss_solve(double *A, double *b, double *x, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        size_t piv = k;
        for (size_t i = k + 1; i < n; i++)
            if (fabs(A[i * n + k]) > fabs(A[piv * n + k]))
                piv = i;
        for (size_t j = 0; j < n; j++) {
            double t = A[k * n + j];
            A[k * n + j] = A[piv * n + j];
            A[piv * n + j] = t;
        }
        double t = b[k];
        b[k] = b[piv];
        b[piv] = t;
        for (size_t i = k + 1; i < n; i++) {
            double f = A[i * n + k] / A[k * n + k];
            for (size_t j = k; j < n; j++)
                A[i * n + j] -= f * A[k * n + j];
            b[i] -= f * b[k];
        }
    }
    for (size_t k = n; k-- > 0;) {
        double s = b[k];
        for (size_t j = k + 1; j < n; j++)
            s -= A[k * n + j] * x[j];
        x[k] = s / A[k * n + k];
    }
}

#define D3 3

/* Two Gaussian classes in 3-D, unequal covariances; g = +w (class 1) or -w
 * (class 2), w in [0.2, 1.5]; a fraction nanfrac of values missing. */
static struct tset *two_gaussians(size_t m, double nanfrac, uint64_t seed, double **Gout)
{
    static const double mu[2][D3] = {{1.0, 0.5, -0.5}, {-0.5, 0.0, 0.8}};
    static const double L[2][D3][D3] = { /* Cholesky factors of the covariances */
        {{1.0, 0, 0}, {0.8, 0.6, 0}, {-0.3, 0.2, 0.5}},
        {{0.4, 0, 0}, {-0.2, 1.5, 0}, {0.6, 0.3, 0.9}}};
    rng_seed(seed);
    float *x = malloc(m * D3 * sizeof *x);
    double *G = malloc(m * sizeof *G);
    for (size_t i = 0; i < m; i++) {
        int c = i % 2;
        double e[D3] = {gauss(), gauss(), gauss()};
        for (size_t j = 0; j < D3; j++) {
            double v = mu[c][j];
            for (size_t l = 0; l <= j; l++)
                v += L[c][j][l] * e[l];
            x[j * m + i] = urand() < nanfrac ? NAN : (float)v;
        }
        G[i] = (c == 0 ? 1.0 : -1.0) * urange(0.2, 1.5);
    }
    *Gout = G;
    return tset_new(m, D3, x);
}

/* The closed-form Fisher direction in raw units, a missing value taken as
 * its feature's mean over the non-missing training values. */
static void fisher_raw(const struct tset *T, const double *g, double *a)
{
    size_t m = T->tr.m;
    double fm[D3];
    for (size_t j = 0; j < D3; j++) {
        double s = 0.0;
        size_t n = 0;
        for (size_t i = 0; i < m; i++)
            if (!isnan(T->tr.X.x[j * m + i]))
                s += T->tr.X.x[j * m + i], n++;
        fm[j] = s / (double)n;
    }
#define XV(i, j) (isnan(T->tr.X.x[(j) * m + (i)]) ? fm[j] : (double)T->tr.X.x[(j) * m + (i)])
    double W[2] = {0, 0}, mu[2][D3] = {{0}}, S[D3 * D3] = {0};
    for (size_t i = 0; i < m; i++) {
        int c = g[i] > 0 ? 0 : 1;
        W[c] += fabs(g[i]);
        for (size_t j = 0; j < D3; j++)
            mu[c][j] += fabs(g[i]) * XV(i, j);
    }
    for (int c = 0; c < 2; c++)
        for (size_t j = 0; j < D3; j++)
            mu[c][j] /= W[c];
    for (size_t i = 0; i < m; i++) {
        int c = g[i] > 0 ? 0 : 1;
        double w = fabs(g[i]) / W[c];
        for (size_t j = 0; j < D3; j++)
            for (size_t l = 0; l < D3; l++)
                S[j * D3 + l] += w * (XV(i, j) - mu[c][j]) * (XV(i, l) - mu[c][l]);
    }
#undef XV
    double rhs[D3];
    for (size_t j = 0; j < D3; j++)
        rhs[j] = mu[0][j] - mu[1][j];
    gauss_solve(S, rhs, a, D3);
}

/* cos of the angle between the hypothesis' raw direction v_j / sd_j and a. */
static double cos_to(const struct lda_text *L, const double *a, size_t d)
{
    double r[64] = {0}, ra = 0, rr = 0, aa = 0;
    for (size_t j = 0; j < L->n; j++)
        r[L->f[j]] = L->v[j] / L->sd[j];
    for (size_t j = 0; j < d; j++)
        ra += r[j] * a[j], rr += r[j] * r[j], aa += a[j] * a[j];
    return ra / sqrt(rr * aa);
}

Test(wlda, fisher_direction_closed_form)
{
    const struct bl_plugin *p = wlda();
    for (int withnan = 0; withnan < 2; withnan++) {
        double *g;
        struct tset *T = two_gaussians(400, withnan ? 0.1 : 0.0, 11 + (uint64_t)withnan, &g);
        double a[D3];
        fisher_raw(T, g, a);
        /* ridge 0: the plain Fisher direction; the default 1e-6: close to it */
        const double ridge[2] = {0.0, 1e-6}, tol[2] = {1e-12, 1e-9};
        for (int q = 0; q < 2; q++) {
            struct opt o[] = {{"ridge", ridge[q]}, {NULL, 0}};
            struct fitted F;
            fit_with(p, T, g, 1, 1, 1, o, &F);
            cr_assert_eq(F.rc, 0, "%s", F.err);
            check_edge(p, T, g, 1, &F);
            struct lda_text L;
            parse_lda(F.text, &L);
            cr_assert_eq(L.n, D3, "%s", F.text);
            cr_assert_eq(L.b, 0.0);
            double cs = cos_to(&L, a, D3);
            cr_assert(cs >= 1.0 - tol[q], "nan %d ridge %g: cos to the Fisher direction %.17g "
                      "(%s; closed form %g %g %g)", withnan, ridge[q], cs, F.text, a[0], a[1], a[2]);
            /* class 1 (g > 0) is on the side z > t */
            cr_assert_eq(L.pol, 1, "%s", F.text);
            cr_assert(F.edge > 0.6 * sum_abs(g, 400), "edge %g of %g", F.edge, sum_abs(g, 400));
            fitted_free(p, &F);
        }
        free(g);
        tset_free(T);
    }
}

Test(wlda, singular_scatter_takes_the_pseudo_inverse)
{
    /* feature 1 duplicates feature 0: S1 + S2 is singular; with ridge 0
     * the minimum-norm solution weighs both copies equally */
    const struct bl_plugin *p = wlda();
    double *g;
    struct tset *T0 = two_gaussians(300, 0.0, 5, &g);
    size_t m = 300;
    float *x = malloc(m * 4 * sizeof *x);
    memcpy(x, T0->tr.X.x, m * sizeof *x);
    memcpy(x + m, T0->tr.X.x, m * sizeof *x);
    memcpy(x + 2 * m, T0->tr.X.x + m, 2 * m * sizeof *x);
    struct tset *T = tset_new(m, 4, x);
    for (int q = 0; q < 2; q++) {
        struct opt o[] = {{"ridge", q ? 1e-6 : 0.0}, {NULL, 0}};
        struct fitted F;
        fit_with(p, T, g, 1, 1, 1, o, &F);
        cr_assert_eq(F.rc, 0, "%s", F.err);
        check_edge(p, T, g, 1, &F);
        struct lda_text L;
        parse_lda(F.text, &L);
        cr_assert_eq(L.n, 4, "%s", F.text);
        cr_assert(fabs(L.v[0] - L.v[1]) <= 1e-6 * fabs(L.v[0]), "copies weighed %.17g and %.17g",
                  L.v[0], L.v[1]);
        /* and the same direction as without the copy */
        double a[D3], a4[4];
        fisher_raw(T0, g, a);
        a4[0] = a[0] / 2, a4[1] = a[0] / 2, a4[2] = a[1], a4[3] = a[2];
        cr_assert(cos_to(&L, a4, 4) >= 1.0 - 1e-9, "%s", F.text);
        fitted_free(p, &F);
    }
    free(g);
    tset_free(T);
    tset_free(T0);
}

/* ---- edges, columns, features, threads -------------------------------------- */

Test(wlda, edge_is_predicted_correlation)
{
    const struct bl_plugin *p = wlda();
    for (uint64_t s = 1; s <= 4; s++) {
        struct tset *T = random_set(250, 6, s % 2 ? 0.1 : 0.0, s);
        for (size_t c = 1; c <= 3; c += 2)
            for (int crit = 0; crit < 2; crit++)
                for (int ws = 0; ws < 2; ws++) {
                    double *G = random_G(T, c, s + 10 * c);
                    struct opt o[] = {{"criterion", crit}, {"with_stumps", ws},
                                      {"features", s == 3 ? 3 : 0}, {NULL, 0}};
                    struct fitted F;
                    fit_with(p, T, G, c, s, 1, o, &F);
                    cr_assert_eq(F.rc, 0, "%s", F.err);
                    cr_assert_eq(F.outdim, crit ? c : 1);
                    check_edge(p, T, G, c, &F);
                    fitted_free(p, &F);
                    free(G);
                }
        tset_free(T);
    }
}

Test(wlda, criterion_each_is_columns_alone)
{
    const struct bl_plugin *p = wlda();
    struct tset *T = random_set(200, 5, 0.05, 21);
    size_t c = 4, m = 200;
    double *G = random_G(T, c, 22), *g = malloc(m * sizeof *g);
    struct opt each[] = {{"criterion", 1}, {NULL, 0}};
    struct fitted F;
    fit_with(p, T, G, c, 7, 1, each, &F);
    cr_assert_eq(F.rc, 0, "%s", F.err);
    cr_assert_eq(F.outdim, c);
    cr_assert(strncmp(F.text, "each 4: ", 8) == 0, "%s", F.text);
    check_edge(p, T, G, c, &F);
    double sum = 0.0;
    for (size_t r = 0; r < c; r++) {
        for (size_t i = 0; i < m; i++)
            g[i] = G[i * c + r];
        struct fitted F1;
        fit_with(p, T, g, 1, 7, 1, NULL, &F1);
        cr_assert_eq(F1.rc, 0, "%s", F1.err);
        for (size_t i = 0; i < m; i++)
            cr_assert_eq(F.out[i * c + r], F1.out[i], "column %zu, example %zu", r, i);
        sum += F1.edge;
        fitted_free(p, &F1);
    }
    cr_assert(fabs(F.edge - sum) <= 1e-12 * sum_abs(G, m * c), "edge %.17g, columns %.17g",
              F.edge, sum);
    /* criterion max: the best column's answer, its edge at least that column's */
    struct fitted M;
    fit_with(p, T, G, c, 7, 1, NULL, &M);
    cr_assert_eq(M.rc, 0, "%s", M.err);
    cr_assert_eq(M.outdim, 1);
    check_edge(p, T, G, c, &M);
    fitted_free(p, &M);
    fitted_free(p, &F);
    free(G), free(g);
    tset_free(T);
}

Test(wlda, random_features_follow_the_seed)
{
    const struct bl_plugin *p = wlda();
    struct tset *T = random_set(300, 30, 0.0, 31);
    size_t m = 300;
    rng_seed(32);
    double *g = malloc(m * sizeof *g);
    for (size_t i = 0; i < m; i++) { /* a rule of all 30 features */
        double s = 0.0;
        for (size_t f = 0; f < 30; f++)
            s += (f % 2 ? 1.0 : -0.7) * T->tr.X.x[f * m + i];
        g[i] = (s > 0 ? 1.0 : -1.0) * urange(0.2, 1.0);
    }
    struct opt o[] = {{"features", 5}, {NULL, 0}};
    int differ = 0;
    char first[1 << 17];
    for (uint64_t seed = 1; seed <= 6; seed++) {
        struct fitted A, B;
        fit_with(p, T, g, 1, seed, 1, o, &A);
        fit_with(p, T, g, 1, seed, 1, o, &B);
        cr_assert_eq(A.rc, 0, "%s", A.err);
        check_edge(p, T, g, 1, &A);
        cr_assert_str_eq(A.text, B.text, "seed %llu: two answers", (unsigned long long)seed);
        cr_assert_eq(memcmp(&A.edge, &B.edge, sizeof A.edge), 0);
        struct lda_text L;
        parse_lda(A.text, &L);
        cr_assert(L.n >= 1 && L.n <= 5, "%zu terms: %s", L.n, A.text);
        if (seed == 1)
            strcpy(first, A.text);
        else
            differ += strcmp(first, A.text) != 0;
        fitted_free(p, &A);
        fitted_free(p, &B);
    }
    cr_assert(differ >= 4, "other seeds drew the same features (%d of 5 differ)", differ);
    /* features = 0 or >= d: every feature, no randomness */
    for (int q = 0; q < 2; q++) {
        struct opt all[] = {{"features", q ? 30 : 0}, {NULL, 0}};
        struct fitted A, B;
        fit_with(p, T, g, 1, 1, 1, all, &A);
        fit_with(p, T, g, 1, 99, 1, all, &B);
        cr_assert_str_eq(A.text, B.text);
        struct lda_text L;
        parse_lda(A.text, &L);
        cr_assert_eq(L.n, 30);
        fitted_free(p, &A);
        fitted_free(p, &B);
    }
    free(g);
    tset_free(T);
}

Test(wlda, thread_independent)
{
    const struct bl_plugin *p = wlda();
    /* large enough for every parallel loop: means, scatter blocks, z */
    struct tset *T = random_set(20000, 60, 0.02, 41);
    double *G = random_G(T, 2, 42);
    for (int q = 0; q < 3; q++) {
        struct opt o[] = {{"features", q == 1 ? 40 : 0}, {"with_stumps", q == 2},
                          {"criterion", q == 2}, {NULL, 0}};
        struct fitted A, C;
        fit_with(p, T, G, 2, 42, 1, o, &A);
        fit_with(p, T, G, 2, 42, 2, o, &C);
        cr_assert_eq(A.rc, 0, "%s", A.err);
        cr_assert_eq(C.rc, 0, "%s", C.err);
        check_edge(p, T, G, 2, &A);
        cr_assert_str_eq(A.text, C.text, "1 and 2 threads differ");
        cr_assert_eq(memcmp(&A.edge, &C.edge, sizeof A.edge), 0);
        cr_assert_eq(memcmp(A.out, C.out, T->tr.m * A.outdim * sizeof *A.out), 0);
        fitted_free(p, &A);
        fitted_free(p, &C);
    }
    free(G);
    tset_free(T);
}

/* ---- with_stumps ------------------------------------------------------------ */

static double stump_edge(const struct tset *T, const double *g)
{
    const struct bl_plugin *p = test_plugin("plugins/weak/stump", "stump");
    struct fitted F;
    fit_with(p, T, g, 1, 1, 1, NULL, &F);
    cr_assert_eq(F.rc, 0, "stump: %s", F.err);
    double e = F.edge;
    fitted_free(p, &F);
    return e;
}

Test(wlda, with_stumps_never_below_the_axis_stump)
{
    const struct bl_plugin *p = wlda();
    int axis_won = 0, lda_won = 0;
    for (uint64_t s = 1; s <= 8; s++) {
        struct tset *T = random_set(200, 4, s % 3 == 0 ? 0.1 : 0.0, s + 50);
        size_t m = 200;
        double *g = random_G(T, 1, s + 60);
        if (s % 2) /* an axis-aligned rule: a stump should win */
            for (size_t i = 0; i < m; i++) {
                float v = T->tr.X.x[2 * m + i];
                g[i] = ((v > 0.3f) == (urand() < 0.9) ? 1.0 : -1.0) * urange(0.5, 1.0);
            }
        double se = stump_edge(T, g), tol = 1e-12 * sum_abs(g, m);
        struct opt ws[] = {{"with_stumps", 1}, {NULL, 0}};
        struct fitted A, W;
        fit_with(p, T, g, 1, s, 1, NULL, &A);
        fit_with(p, T, g, 1, s, 1, ws, &W);
        cr_assert_eq(A.rc, 0, "%s", A.err);
        cr_assert_eq(W.rc, 0, "%s", W.err);
        check_edge(p, T, g, 1, &W);
        cr_assert(W.edge >= se - tol, "with_stumps %.17g below the stump's %.17g", W.edge, se);
        cr_assert(W.edge >= A.edge - tol, "with_stumps %.17g below wlda alone %.17g", W.edge,
                  A.edge);
        cr_assert(W.edge <= fmax(A.edge, se) + tol, "with_stumps %.17g above both", W.edge);
        if (strncmp(W.text, "stump ", 6) == 0)
            axis_won++;
        else
            lda_won++;
        fitted_free(p, &A);
        fitted_free(p, &W);
        free(g);
        tset_free(T);
    }
    cr_assert(axis_won > 0 && lda_won > 0, "axis stumps won %d times, wlda %d", axis_won, lda_won);
}

Test(wlda, rescaling_a_feature_changes_nothing)
{
    const struct bl_plugin *p = wlda();
    struct tset *T = random_set(200, 5, 0.05, 71);
    double *g = random_G(T, 1, 72);
    size_t m = 200;
    float *x = malloc(m * 5 * sizeof *x);
    memcpy(x, T->tr.X.x, m * 5 * sizeof *x);
    for (size_t i = 0; i < m; i++)
        x[3 * m + i] *= 1024.0f, x[1 * m + i] /= 64.0f;
    struct tset *U = tset_new(m, 5, x);
    struct fitted A, B;
    fit_with(p, T, g, 1, 1, 1, NULL, &A);
    fit_with(p, U, g, 1, 1, 1, NULL, &B);
    cr_assert_eq(A.rc, 0, "%s", A.err);
    cr_assert_eq(B.rc, 0, "%s", B.err);
    cr_assert_eq(memcmp(A.out, B.out, m * sizeof *A.out), 0);
    cr_assert_eq(memcmp(&A.edge, &B.edge, sizeof A.edge), 0);
    fitted_free(p, &A);
    fitted_free(p, &B);
    free(g);
    tset_free(T);
    tset_free(U);
}

/* ---- text ---------------------------------------------------------------- */

Test(wlda, save_load_round_trip)
{
    const struct bl_plugin *p = wlda();
    struct tset *T = random_set(150, 4, 0.1, 81);
    size_t m = 150, d = 4, c = 3;
    double *G = random_G(T, c, 82);
    for (size_t i = 0; i < m; i++) /* column 1 one-signed: an axis-aligned fallback */
        G[i * c + 1] = fabs(G[i * c + 1]) + 0.01;
    size_t mt = 160;
    float *xt = malloc(mt * d * sizeof *xt);
    rng_seed(83);
    for (size_t j = 0; j < mt * d; j++) {
        size_t i = j % mt;
        xt[j] = i == 0 ? NAN : i == 1 ? FLT_MAX : i == 2 ? -FLT_MAX : i == 3 ? 1e30f
                                                                    : (float)urange(-3, 3);
    }
    struct bl_matrix Xt = {mt, d, xt};
    const struct bl_weak_ops *o = ops_of(p);
    int seen_stump = 0, seen_lda = 0;
    for (int q = 0; q < 4; q++) {
        struct opt opts[] = {{"criterion", q >= 2}, {"with_stumps", q % 2}, {NULL, 0}};
        struct fitted F;
        fit_with(p, T, G, c, 5, 1, opts, &F);
        cr_assert_eq(F.rc, 0, "%s", F.err);
        cr_assert_null(strchr(F.text, '\n'));
        seen_stump += strstr(F.text, "stump f=") != NULL;
        seen_lda += strstr(F.text, "lda t=") != NULL;
        char err[BL_ERR_MAX] = "";
        void *h = o->load(F.text, d, err);
        cr_assert_not_null(h, "load \"%s\": %s", F.text, err);
        cr_assert_eq(o->outdim(h), F.outdim);
        char again[1 << 17];
        o->save(h, again, sizeof again);
        cr_assert_str_eq(again, F.text);
        size_t od = F.outdim;
        double *a = malloc(mt * od * sizeof *a), *b = malloc(mt * od * sizeof *b);
        o->predict(F.hyp, &Xt, a);
        o->predict(h, &Xt, b);
        cr_assert_eq(memcmp(a, b, mt * od * sizeof *a), 0, "loaded predicts differently");
        for (size_t j = 0; j < mt * od; j++)
            cr_assert(a[j] == 1.0 || a[j] == -1.0);
        o->predict(h, &T->tr.X, b);
        cr_assert_eq(memcmp(F.out, b, m * od * sizeof *b), 0);
        /* a short buffer: NUL-terminated, the full length returned */
        char small[16];
        memset(small, 'Z', sizeof small);
        int n = o->save(h, small, 9);
        cr_assert_eq((size_t)n, strlen(F.text));
        cr_assert_eq(small[8], 0);
        cr_assert_eq(small[9], 'Z');
        free(a), free(b);
        o->free_hyp(h);
        fitted_free(p, &F);
    }
    cr_assert(seen_stump && seen_lda, "stump forms %d, lda forms %d", seen_stump, seen_lda);
    free(xt);
    free(G);
    tset_free(T);
}

Test(wlda, malformed_text_refused)
{
    static const struct {
        const char *text, *says;
    } bad[] = {
        {"", "malformed"},
        {"%%% not a hypothesis %%%", "malformed"},
        {"lda", "malformed"},
        {"lda t= 1 pol=1 b=0 terms=0", "malformed"},
        {"lda t=nan pol=1 b=0 terms=0", "malformed"},
        {"lda t=1e999 pol=1 b=0 terms=0", "malformed"},
        {"lda t=1 pol=2 b=0 terms=0", "polarity"},
        {"lda t=1 pol=1", "malformed"},
        {"lda t=1 pol=1 b=x terms=0", "bias"},
        {"lda t=1 pol=1 b=0 terms=4 0:1:0:1", "3 features"},
        {"lda t=1 pol=1 b=0 terms=1 3:1:0:1", "out of range"},
        {"lda t=1 pol=1 b=0 terms=1 0:1:0:0", "not positive"},
        {"lda t=1 pol=1 b=0 terms=2 1:1:0:1 0:1:0:1", "increasing"},
        {"lda t=1 pol=1 b=0 terms=0 junk", "unexpected text"},
        {"stump f=0 t=1", "malformed"},
        {"stump f=3 t=1 pol=1", "out of range"},
        {"stump f=0 t=1 pol=0", "polarity"},
        {"stump f=0 t=nan pol=1", "malformed"},
        {"stump f=0 t=1 pol=1 x", "malformed"},
        {"each", "malformed"},
        {"each 0: stump f=0 t=1 pol=1", "out of range"},
        {"each 2: stump f=0 t=1 pol=1", "1 outputs, not 2"},
        {"each 1: stump f=0 t=1 pol=1; stump f=0 t=1 pol=1", "more than"},
        {"each 2: stump f=0 t=1 pol=1;stump f=0 t=1 pol=1", "separated"},
        {"each 2: stump f=0 t=1 pol=1; stump f=9 t=1 pol=1", "output 1 of 2: feature index 9"},
        {"each 2: stump f=0 t=1 pol=1; lda t=1 pol=1 b=0 terms=1 0:1:0:1:2",
         "output 1 of 2: malformed"},
        {"each x: stump f=0 t=1 pol=1", "each <c>"},
        {"f=0 t=1 pol=1", "malformed"},
    };
    const struct bl_weak_ops *o = ops_of(wlda());
    for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++) {
        char err[BL_ERR_MAX] = "";
        void *h = o->load(bad[j].text, 3, err);
        if (h)
            o->free_hyp(h);
        cr_assert_null(h, "accepted \"%s\"", bad[j].text);
        cr_assert(strstr(err, bad[j].says), "on \"%s\": message \"%s\" does not say \"%s\"",
                  bad[j].text, err, bad[j].says);
        cr_assert(strstr(err, "wlda"), "message \"%s\" does not name wlda", err);
    }
    static const char *const good[] = {
        "lda t=0 pol=-1 b=1 terms=0",
        "lda t=-inf pol=1 b=0 terms=2 0:1:0:1 2:-3e-5:0x1p-3:2.5",
        "stump f=2 t=inf pol=-1",
        "each 2: stump f=0 t=0.5 pol=1; lda t=0.25 pol=1 b=0 terms=1 1:1:0:1",
    };
    for (size_t j = 0; j < sizeof good / sizeof good[0]; j++) {
        char err[BL_ERR_MAX] = "";
        void *h = o->load(good[j], 3, err);
        cr_assert_not_null(h, "refused \"%s\": %s", good[j], err);
        char again[512];
        o->save(h, again, sizeof again);
        void *h2 = o->load(again, 3, err);
        cr_assert_not_null(h2, "refused its own \"%s\": %s", again, err);
        o->free_hyp(h2);
        o->free_hyp(h);
    }
}

/* ---- degenerate inputs ---------------------------------------------------- */

Test(wlda, degenerate_inputs)
{
    const struct bl_plugin *p = wlda();
    struct opt ws[] = {{"with_stumps", 1}, {NULL, 0}};
    struct opt each[] = {{"criterion", 1}, {"features", 2}, {NULL, 0}};
    const struct opt *variants[] = {NULL, ws, each};
    struct tset *T = random_set(60, 3, 0.1, 91);
    size_t m = 60;
    double *g = malloc(m * 2 * sizeof *g);
    for (int v = 0; v < 3; v++) {
        size_t c = v == 2 ? 2 : 1;
        /* all of one sign: no second class, an axis stump (or constant) */
        for (size_t i = 0; i < m * c; i++)
            g[i] = 0.5 + (double)(i % 7);
        struct fitted F;
        fit_with(p, T, g, c, 1, 1, variants[v], &F);
        cr_assert_eq(F.rc, 0, "%s", F.err);
        check_edge(p, T, g, c, &F);
        fitted_free(p, &F);
        /* all zero: edge 0 */
        memset(g, 0, m * c * sizeof *g);
        fit_with(p, T, g, c, 1, 1, variants[v], &F);
        cr_assert_eq(F.rc, 0, "%s", F.err);
        cr_assert_eq(F.edge, 0.0);
        check_edge(p, T, g, c, &F);
        fitted_free(p, &F);
        /* one example of each sign, the rest zero */
        g[0] = 1.0, g[c * 5] = -2.0;
        fit_with(p, T, g, c, 1, 1, variants[v], &F);
        cr_assert_eq(F.rc, 0, "%s", F.err);
        check_edge(p, T, g, c, &F);
        cr_assert(F.edge > 0.0);
        fitted_free(p, &F);
    }
    /* a NaN weight: refused with a message */
    g[3] = NAN;
    struct fitted F;
    fit_with(p, T, g, 1, 1, 1, NULL, &F);
    cr_assert_eq(F.rc, -1);
    cr_assert_null(F.hyp);
    cr_assert(strstr(F.err, "not finite"), "%s", F.err);
    fitted_free(p, &F);
    tset_free(T);

    /* constant features: the constant sign(sum g), edge |sum g| */
    float *x = malloc(40 * 2 * sizeof *x);
    for (size_t j = 0; j < 80; j++)
        x[j] = j < 40 ? 3.0f : (j % 3 ? NAN : -1.0f);
    T = tset_new(40, 2, x);
    double s = 0.0;
    for (size_t i = 0; i < 40; i++)
        s += g[i] = i % 3 ? -1.0 : 1.5;
    for (int v = 0; v < 3; v++) {
        fit_with(p, T, g, 1, 1, 1, variants[v], &F);
        cr_assert_eq(F.rc, 0, "%s", F.err);
        check_edge(p, T, g, 1, &F);
        cr_assert(fabs(F.edge - fabs(s)) <= 1e-12, "edge %g, |sum g| = %g (%s)", F.edge,
                  fabs(s), F.text);
        fitted_free(p, &F);
    }
    tset_free(T);

    /* m = 1 and m = 2 */
    for (size_t mm = 1; mm <= 2; mm++) {
        x = malloc(mm * 2 * sizeof *x);
        for (size_t j = 0; j < mm * 2; j++)
            x[j] = (float)j;
        T = tset_new(mm, 2, x);
        g[0] = 1.0, g[1] = -1.0;
        for (int v = 0; v < 3; v++) {
            fit_with(p, T, g, 1, 1, 1, variants[v], &F);
            cr_assert_eq(F.rc, 0, "m = %zu: %s", mm, F.err);
            check_edge(p, T, g, 1, &F);
            cr_assert_eq(F.edge, (double)mm, "m = %zu: edge %g (%s)", mm, F.edge, F.text);
            fitted_free(p, &F);
        }
        tset_free(T);
    }
    free(g);
}

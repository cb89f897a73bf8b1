/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of the weak learner "stump" (spec §4, §11.4): the histogram
 * scan against brute force over every (feature, cut, polarity, class) on
 * small hand-built quantized problems with tied values and empty bins, for
 * c = k, c = 1 and a wide c, with every criterion (max, l2; each, vote,
 * leafclass for the coded and AdaBoost.MH / SAMME forms of spec §7.2-§7.5);
 * tie-breaking; determinism across thread counts; save/load of every
 * hypothesis form; predict on raw values.
 *
 * Most problems use small-integer dual weights: every sum is then exact in
 * double, so exact ties happen often and must be broken exactly as the
 * plugin documents (lowest feature, then bin, then class).
 */
#include <criterion/criterion.h>
#include "testutil.h"

#include <math.h>



/* ---- a hand-built training set ------------------------------------------ */

struct prob {
    size_t m, d, k;
    int *y;
    float *x;        /* feature-major raw values       */
    uint8_t *bins;   /* feature-major                  */
    uint16_t *nbins;
    float **cut;
    struct bl_train tr;
};

/* Bin b of feature f holds the raw value cut[f][b] (the top of the bin, so
 * bins are full of ties) or something just inside it; bin 0 may hold NaN.
 * Feature nb[f] = 1 has no cut; some bins are left empty. */
static struct prob *make_prob(size_t m, size_t d, size_t k, unsigned maxbins, uint64_t seed)
{
    rng_seed(seed);
    struct prob *P = calloc(1, sizeof *P);
    P->m = m, P->d = d, P->k = k;
    P->y = malloc(m * sizeof *P->y);
    P->x = malloc(m * d * sizeof *P->x);
    P->bins = malloc(m * d);
    P->nbins = malloc(d * sizeof *P->nbins);
    P->cut = malloc(d * sizeof *P->cut);
    for (size_t i = 0; i < m; i++)
        P->y[i] = (int)irand(k);
    for (size_t f = 0; f < d; f++) {
        unsigned nb = f == 0 ? 1 : 2 + (unsigned)irand(maxbins - 1);
        P->nbins[f] = (uint16_t)nb;
        P->cut[f] = malloc((nb ? nb : 1) * sizeof(float));
        float v = (float)(urand() * 4 - 2);
        for (unsigned b = 0; b + 1 < nb; b++) {
            v += (float)(0.25 + urand());
            P->cut[f][b] = v;
        }
        unsigned empty = nb > 3 ? 1 + (unsigned)irand(nb - 2) : 999; /* one empty inner bin */
        for (size_t i = 0; i < m; i++) {
            unsigned b;
            do
                b = (unsigned)irand(nb);
            while (b == empty);
            P->bins[f * m + i] = (uint8_t)b;
            float *xv = &P->x[f * m + i];
            if (b + 1 < nb)
                *xv = urand() < 0.5 ? P->cut[f][b] : nextafterf(P->cut[f][b], -INFINITY);
            else
                *xv = nb > 1 ? P->cut[f][nb - 2] + 1.0f : 0.0f;
            if (b == 0 && f % 3 == 1 && urand() < 0.3)
                *xv = NAN;
        }
    }
    P->tr.m = m, P->tr.d = d, P->tr.k = k;
    P->tr.y = P->y;
    P->tr.X.m = m, P->tr.X.d = d, P->tr.X.x = P->x;
    P->tr.Q.m = m, P->tr.Q.d = d, P->tr.Q.bins = P->bins, P->tr.Q.nbins = P->nbins;
    P->tr.Q.cut = (const float *const *)P->cut;
    return P;
}

static void free_prob(struct prob *P)
{
    for (size_t f = 0; f < P->d; f++)
        free(P->cut[f]);
    free(P->cut), free(P->nbins), free(P->bins), free(P->x), free(P->y);
    free(P);
}

/* Small-integer weights (exact sums).  zero_sum: each row sums to 0 like the
 * c_ir of a margin loss (c_{i,y_i} = sum of the others' magnitudes). */
static double *int_weights(const struct prob *P, size_t c, int zero_sum)
{
    double *G = malloc(P->m * c * sizeof *G);
    for (size_t i = 0; i < P->m; i++) {
        double tot = 0;
        for (size_t r = 0; r < c; r++) {
            G[i * c + r] = (double)((int)irand(21) - 10);
            tot += G[i * c + r];
        }
        if (zero_sum && c > 1) {
            size_t yi = (size_t)P->y[i] % c;
            G[i * c + yi] -= tot;
        }
    }
    return G;
}

/* ---- plugin access ------------------------------------------------------- */

static const struct bl_plugin *plug(void)
{
    return test_plugin("plugins/weak/stump", "stump");
}

static void *learner(const struct bl_host *host, const struct bl_train *tr, int crit)
{
    const struct bl_plugin *p = plug();
    union bl_value v[2];
    char err[BL_ERR_MAX] = "";
    test_defaults(p, v);
    cr_assert_eq(p->nparams, 2);
    cr_assert_str_eq(p->params[0].name, "criterion");
    cr_assert_str_eq(p->params[1].name, "output"); /* default pm1: -1/+1 (test_crf tests 01) */
    cr_assert_eq(v[1].choice, 0);
    v[0].choice = crit;
    void *L = ((const struct bl_weak_ops *)p->ops)->create(host, v, tr, err);
    cr_assert_not_null(L, "create: %s", err);
    return L;
}

static const struct bl_weak_ops *ops(void)
{
    return plug()->ops;
}

struct answer {
    int ok;
    double edge;
    void *hyp;
    double *out;
    char text[4096];
};

/* A fit whose hypothesis must have od outputs. */
static struct answer fitn(void *L, const struct prob *P, const double *G, size_t c, size_t od)
{
    struct answer A = {0};
    struct bl_fit_request rq = {.G = G, .c = c, .seed = 42};
    struct bl_fit_result rs = {0};
    char err[BL_ERR_MAX] = "";
    A.out = malloc(P->m * c * sizeof *A.out);
    rs.out = A.out;
    A.ok = ops()->fit(L, &rq, &rs, err) == 0;
    if (A.ok) {
        cr_assert_eq(rs.outdim, od);
        cr_assert_eq(ops()->outdim(rs.hyp), od);
        A.edge = rs.edge;
        A.hyp = rs.hyp;
        int n = ops()->save(A.hyp, A.text, sizeof A.text);
        cr_assert(n > 0 && (size_t)n < sizeof A.text);
    } else {
        size_t n = strnlen(err, BL_ERR_MAX - 1);
        memcpy(A.text, err, n);
        A.text[n] = 0;
    }
    return A;
}

static struct answer fit(void *L, const struct prob *P, const double *G, size_t c)
{
    return fitn(L, P, G, c, 1);
}

static void drop(struct answer *A)
{
    if (A->hyp)
        ops()->free_hyp(A->hyp);
    free(A->out);
}

/* ---- brute force over raw values ----------------------------------------- */

struct brute {
    double edge;
    size_t f;
    float t;
    int pol;
    int mr; /* missing values right */
};

static int has_nan(const struct prob *P, size_t f)
{
    for (size_t i = 0; i < P->m; i++)
        if (isnan(P->x[f * P->m + i]))
            return 1;
    return 0;
}

/* Every (f, cut, missing side, class, pol) in that order, strictly better
 * wins; h from the raw values (NaN left, or right when mr), constant h
 * skipped.  A cut is a candidate when it splits with NaN left (the bin
 * test); NaN right is tried on those cuts only. */
static struct brute brute_force(const struct prob *P, const double *G, size_t c, int l2)
{
    struct brute B = {-1, 0, 0, 0, 0};
    size_t m = P->m;
    double *h = malloc(m * sizeof *h), *sc = malloc(c * sizeof *sc);
    for (size_t f = 0; f < P->d; f++)
        for (unsigned b = 0; b + 1 < P->nbins[f]; b++)
        for (int mr = 0; mr <= has_nan(P, f); mr++) {
            float t = P->cut[f][b];
            size_t nright = 0, nabove = 0;
            for (size_t i = 0; i < m; i++) {
                float xv = P->x[f * m + i];
                h[i] = xv > t || (mr && isnan(xv)) ? 1.0 : -1.0;
                nright += h[i] > 0;
                nabove += xv > t;
            }
            if (nright == 0 || nright == m || nabove == 0 || nabove == m)
                continue;
            for (size_t r = 0; r < c; r++) {
                sc[r] = 0;
                for (size_t i = 0; i < m; i++)
                    sc[r] += G[i * c + r] * h[i];
            }
            if (l2) { /* the polarity does not matter: +1 */
                double q = 0;
                for (size_t r = 0; r < c; r++)
                    q += sc[r] * sc[r];
                if (q > B.edge)
                    B = (struct brute){q, f, t, 1, mr};
            } else { /* class before polarity: ties go to the lowest class */
                for (size_t r = 0; r < c; r++)
                    for (int pol = 1; pol >= -1; pol -= 2)
                        if (pol * sc[r] > B.edge)
                            B = (struct brute){pol * sc[r], f, t, pol, mr};
            }
        }
    if (l2 && B.edge >= 0)
        B.edge = sqrt(B.edge);
    free(h), free(sc);
    return B;
}

static void expect_text(const struct brute *B, char *buf, size_t cap)
{
    snprintf(buf, cap, "f=%zu t=%.9g pol=%d%s", B->f, (double)B->t, B->pol,
             B->mr ? " miss=r" : "");
}

/* The answer's outputs: +-1, equal to predict on the raw training values. */
static void check_outputs(const struct prob *P, const struct answer *A)
{
    double *pr = malloc(P->m * sizeof *pr);
    ops()->predict(A->hyp, &P->tr.X, pr);
    for (size_t i = 0; i < P->m; i++) {
        cr_assert(A->out[i] == 1.0 || A->out[i] == -1.0, "output %zu = %g", i, A->out[i]);
        cr_assert_eq(A->out[i], pr[i], "training output %zu (%g) differs from predict (%g) [%s]", i,
                     A->out[i], pr[i], A->text);
    }
    free(pr);
}

static void check_against_brute(size_t m, size_t d, size_t k, unsigned maxbins, int crit,
                                int zero_sum, uint64_t seed)
{
    struct prob *P = make_prob(m, d, k, maxbins, seed);
    void *L = learner(&test_host, &P->tr, crit);
    size_t cs[3] = {k, 1, 17};
    for (size_t ci = 0; ci < 3; ci++) {
        size_t c = cs[ci];
        double *G = int_weights(P, c, zero_sum);
        struct brute B = brute_force(P, G, c, crit == 1);
        struct answer A = fit(L, P, G, c);
        cr_assert(A.ok, "fit failed: %s", A.text);
        char want[128];
        expect_text(&B, want, sizeof want);
        cr_assert_eq(A.edge, B.edge, "seed %llu c=%zu crit=%d: edge %.17g, brute force %.17g",
                     (unsigned long long)seed, c, crit, A.edge, B.edge);
        cr_assert_str_eq(A.text, want, "seed %llu c=%zu crit=%d: chose %s, brute force %s",
                         (unsigned long long)seed, c, crit, A.text, want);
        check_outputs(P, &A);
        /* the edge is what the outputs achieve */
        double e = crit == 1 ? 0 : -HUGE_VAL;
        for (size_t r = 0; r < c; r++) {
            double s = 0;
            for (size_t i = 0; i < m; i++)
                s += G[i * c + r] * A.out[i];
            if (crit == 1)
                e += s * s;
            else if (s > e)
                e = s;
        }
        if (crit == 1)
            e = sqrt(e);
        cr_assert_eq(e, A.edge, "outputs reach %.17g, edge says %.17g", e, A.edge);
        drop(&A);
        free(G);
    }
    ops()->destroy(L);
    free_prob(P);
}

Test(stump, brute_force_max)
{
    for (uint64_t s = 1; s <= 40; s++)
        check_against_brute(8 + (size_t)(s % 5) * 9, 5, 2 + (size_t)(s % 4), 6, 0, 0, s);
}

Test(stump, brute_force_max_zero_sum)
{
    for (uint64_t s = 100; s < 140; s++)
        check_against_brute(10 + (size_t)(s % 7) * 6, 6, 2 + (size_t)(s % 5), 5, 0, 1, s);
}

Test(stump, brute_force_l2)
{
    for (uint64_t s = 200; s < 240; s++)
        check_against_brute(8 + (size_t)(s % 5) * 9, 5, 2 + (size_t)(s % 4), 6, 1, s % 2, s);
}

Test(stump, brute_force_many_bins)
{
    for (uint64_t s = 300; s < 306; s++) {
        check_against_brute(600, 4, 3, 256, 0, 1, s);
        check_against_brute(600, 4, 10, 256, 1, 1, s);
    }
}

/* One column goes through blocks of 8 features (accumulate1_block): a
 * full block, a full block and a partial one, and few bins per feature
 * (dna's 0/1 features), where the blocks matter most. */
Test(stump, brute_force_feature_blocks)
{
    for (uint64_t s = 330; s < 340; s++) {
        check_against_brute(40 + (size_t)(s % 3) * 11, 8, 3, 2, 0, s % 2, s);
        check_against_brute(40 + (size_t)(s % 3) * 11, 19, 3, 3, 0, s % 2, s);
        check_against_brute(60, 19, 2, 7, 1, 1, s);
    }
}

/* Real-valued weights: same choice and edge to rounding. */
Test(stump, brute_force_real_weights)
{
    for (uint64_t s = 400; s < 420; s++) {
        struct prob *P = make_prob(50, 6, 4, 8, s);
        void *L = learner(&test_host, &P->tr, 0);
        double *G = malloc(P->m * 4 * sizeof *G);
        for (size_t j = 0; j < P->m * 4; j++)
            G[j] = urand() - 0.5;
        struct brute B = brute_force(P, G, 4, 0);
        struct answer A = fit(L, P, G, 4);
        cr_assert(A.ok);
        cr_assert(fabs(A.edge - B.edge) <= 1e-12, "edge %.17g vs %.17g", A.edge, B.edge);
        char want[128];
        expect_text(&B, want, sizeof want);
        cr_assert_str_eq(A.text, want);
        check_outputs(P, &A);
        drop(&A);
        free(G);
        ops()->destroy(L);
        free_prob(P);
    }
}

/* ---- tie-breaking, constants, determinism -------------------------------- */

/* Two identical features: the lower one wins. */
Test(stump, tie_lowest_feature)
{
    struct prob *P = make_prob(30, 3, 3, 5, 7);
    /* make feature 2 a copy of feature 1 */
    P->nbins[2] = P->nbins[1];
    for (unsigned b = 0; b + 1 < P->nbins[1]; b++)
        P->cut[2][b] = P->cut[1][b];
    memcpy(P->bins + 2 * P->m, P->bins + P->m, P->m);
    memcpy(P->x + 2 * P->m, P->x + P->m, P->m * sizeof(float));
    /* weights that only feature 1/2 can explain: +1 right of cut 0, -1 left */
    double *G = malloc(P->m * 3 * sizeof *G);
    for (size_t i = 0; i < P->m; i++)
        for (size_t r = 0; r < 3; r++)
            G[i * 3 + r] = (P->bins[P->m + i] > 0 ? 1.0 : -1.0) * (r == 1 ? 1.0 : 0.25);
    void *L = learner(&test_host, &P->tr, 0);
    struct answer A = fit(L, P, G, 3);
    cr_assert(A.ok);
    cr_assert_eq(strncmp(A.text, "f=1 ", 4), 0, "expected feature 1, got %s", A.text);
    cr_assert_eq(A.edge, (double)P->m);
    drop(&A);
    /* negated weights: same split, other polarity */
    for (size_t j = 0; j < P->m * 3; j++)
        G[j] = -G[j];
    A = fit(L, P, G, 3);
    cr_assert(strstr(A.text, "pol=-1") && strncmp(A.text, "f=1 ", 4) == 0, "%s", A.text);
    drop(&A);
    free(G);
    ops()->destroy(L);
    free_prob(P);
}

/* A split that leaves every training example on one side is not a stump;
 * a training set where every split is like that is an error. */
Test(stump, constant_stumps_excluded)
{
    struct prob *P = make_prob(20, 2, 2, 4, 9);
    /* feature 1: 3 bins, everything in bins 0..1 -> only the cut after bin 0 */
    P->nbins[1] = 3;
    for (size_t i = 0; i < P->m; i++) {
        P->bins[P->m + i] = (uint8_t)(i % 2);
        P->x[P->m + i] = i % 2 ? P->cut[1][0] + 0.5f : P->cut[1][0] - 0.5f;
    }
    P->cut[1][1] = P->cut[1][0] + 1.0f;
    double *G = malloc(P->m * 2 * sizeof *G);
    for (size_t i = 0; i < P->m; i++) {
        G[2 * i] = 1.0; /* all on class 0: any split with everything right scores m */
        G[2 * i + 1] = -1.0;
    }
    void *L = learner(&test_host, &P->tr, 0);
    struct answer A = fit(L, P, G, 2);
    cr_assert(A.ok, "%s", A.text);
    char want[64];
    snprintf(want, sizeof want, "f=1 t=%.9g pol=1", (double)P->cut[1][0]);
    cr_assert_str_eq(A.text, want);
    cr_assert_eq(A.edge, 0.0, "G sums to m on every side split evenly: %g", A.edge);
    drop(&A);
    ops()->destroy(L);
    /* now feature 1 all in bin 0 too: nothing splits */
    memset(P->bins + P->m, 0, P->m);
    L = learner(&test_host, &P->tr, 0);
    A = fit(L, P, G, 2);
    cr_assert(!A.ok, "a training set with only constant features must be refused");
    cr_assert(strlen(A.text) > 0);
    drop(&A);
    ops()->destroy(L);
    free(G);
    free_prob(P);
}

Test(stump, deterministic_across_threads)
{
    struct prob *P = make_prob(3000, 60, 7, 64, 11);
    double *G = malloc(P->m * 7 * sizeof *G);
    for (size_t j = 0; j < P->m * 7; j++)
        G[j] = urand() - 0.5;
    for (int crit = 0; crit < 2; crit++) {
        struct answer ref = {0};
        for (int th = 1; th <= 4; th++) {
            struct bl_host host = test_host;
            host.threads = th;
            void *L = learner(&host, &P->tr, crit);
            for (int rep = 0; rep < 2; rep++) {
                struct answer A = fit(L, P, G, 7);
                cr_assert(A.ok);
                if (!ref.hyp) {
                    ref = A;
                    continue;
                }
                cr_assert_eq(A.edge, ref.edge, "threads %d: edge %.17g vs %.17g", th, A.edge, ref.edge);
                cr_assert_str_eq(A.text, ref.text);
                cr_assert_eq(memcmp(A.out, ref.out, P->m * sizeof *A.out), 0);
                drop(&A);
            }
            ops()->destroy(L);
        }
        drop(&ref);
    }
    free(G);
    free_prob(P);
}

/* ---- hypotheses on their own ---------------------------------------------- */

Test(stump, save_load_roundtrip)
{
    struct prob *P = make_prob(200, 8, 5, 16, 21);
    void *L = learner(&test_host, &P->tr, 0);
    for (int rep = 0; rep < 5; rep++) {
        double *G = int_weights(P, 5, 1);
        struct answer A = fit(L, P, G, 5);
        char err[BL_ERR_MAX] = "";
        void *h = ops()->load(A.text, P->d, err);
        cr_assert_not_null(h, "load \"%s\": %s", A.text, err);
        char again[128];
        ops()->save(h, again, sizeof again);
        cr_assert_str_eq(again, A.text);
        double *p1 = malloc(P->m * sizeof *p1), *p2 = malloc(P->m * sizeof *p2);
        ops()->predict(A.hyp, &P->tr.X, p1);
        ops()->predict(h, &P->tr.X, p2);
        cr_assert_eq(memcmp(p1, p2, P->m * sizeof *p1), 0);
        free(p1), free(p2);
        ops()->free_hyp(h);
        drop(&A);
        free(G);
    }
    ops()->destroy(L);
    free_prob(P);
}

/* The threshold comes back bit for bit: predict flips exactly between the
 * threshold and the next float up. */
Test(stump, threshold_bit_exact)
{
    const float ts[] = {0.1f, -0.3f, 1e-30f, -1e-45f, 3.4e38f, 16777217.0f, 0.0f, -0.0f,
                        1.0f / 3.0f, 123456.789f, -2.5e-8f};
    for (size_t j = 0; j < sizeof ts / sizeof ts[0]; j++) {
        char text[64], err[BL_ERR_MAX] = "";
        snprintf(text, sizeof text, "f=1 t=%.9g pol=-1", (double)ts[j]);
        void *h = ops()->load(text, 2, err);
        cr_assert_not_null(h, "%s: %s", text, err);
        float x[6] = {0, 0, 0, ts[j], nextafterf(ts[j], INFINITY), NAN};
        x[2] = nextafterf(ts[j], -INFINITY);
        struct bl_matrix X = {3, 2, x}; /* feature 1 = x[3..5] */
        double out[3];
        ops()->predict(h, &X, out);
        cr_assert_eq(out[0], 1.0, "%s: at t, left (-pol)", text);
        cr_assert_eq(out[1], -1.0, "%s: above t, right (pol)", text);
        cr_assert_eq(out[2], 1.0, "%s: NaN goes left", text);
        char again[64];
        ops()->save(h, again, sizeof again);
        cr_assert_str_eq(again, text);
        ops()->free_hyp(h);
    }
}

Test(stump, load_refuses_malformed)
{
    const char *bad[] = {"", "f=1", "f=1 t=0.5", "f=1 t=0.5 pol=", "f=1 t=0.5 pol=0",
                         "f=1 t=0.5 pol=2", "f=1 t=0.5 pol=-2", "f=-1 t=0.5 pol=1",
                         "f=x t=0.5 pol=1", "f=1 t=abc pol=1", "f=1 t=nan pol=1",
                         "f=1 t=0.5 pol=1 x", "f=1  t=0.5 pol=1", "f=1 t= 0.5 pol=1",
                         "f=10 t=0.5 pol=1", "f=99999999999999999999999 t=0 pol=1",
                         "t=0.5 f=1 pol=1", "f=1 t=1e99 pol=1", "F=1 t=0.5 pol=1",
                         "f=1 t=0.5 pol=1.5"};
    for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++) {
        char err[BL_ERR_MAX] = "";
        void *h = ops()->load(bad[j], 10, err);
        cr_assert_null(h, "accepted \"%s\"", bad[j]);
        cr_assert(strlen(err) > 0, "no message for \"%s\"", bad[j]);
    }
    char err[BL_ERR_MAX] = "";
    void *h = ops()->load("f=10 t=0.5 pol=1", 10, err);
    cr_assert_null(h);
    cr_assert(strstr(err, "range"), "message should say the feature is out of range: %s", err);
    h = ops()->load("f=9 t=0.5 pol=1", 10, err);
    cr_assert_not_null(h, "%s", err);
    ops()->free_hyp(h);
    h = ops()->load("f=0 t=-7 pol=-1\n", 1, err);
    cr_assert_not_null(h, "a trailing newline is fine: %s", err);
    ops()->free_hyp(h);
}

Test(stump, descriptor)
{
    const struct bl_plugin *p = plug();
    cr_assert_eq(p->role, BL_ROLE_WEAK);
    cr_assert_eq(p->sdk_version, BL_SDK_VERSION);
    cr_assert_str_eq(p->params[0].def, "max");
    cr_assert_str_eq(p->params[0].choices, "max|l2|each|vote|leafclass");
    cr_assert_eq(p->params[0].type, BL_PARAM_CHOICE);
    cr_assert_eq(p->nparams, 2);
    cr_assert_str_eq(p->params[1].def, "pm1");
    cr_assert_str_eq(p->params[1].choices, "pm1|01");
    const struct bl_weak_ops *o = p->ops;
    cr_assert(o->create && o->destroy && o->fit && o->outdim && o->predict && o->save && o->load &&
              o->free_hyp);
}

/* ---- criteria each, vote, leafclass (coded, AdaBoost.MH, SAMME) ---------- */

enum { C_MAX, C_L2, C_EACH, C_VOTE, C_LEAF };

/* A growing string, snprintf-style. */
struct str {
    char s[4096];
    size_t n;
};

__attribute__((format(printf, 2, 3))) static void sadd(struct str *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
    va_end(ap);
    cr_assert(n >= 0 && (size_t)n < sizeof b->s - b->n, "expected text too long");
    b->n += (size_t)n;
}

/* Left/right sums of every column for split (f, t) on raw values (NaN
 * left, or right when mr); returns 0 when the split is constant on the
 * training set or, as brute_force, when the cut alone is. */
static int side_sums(const struct prob *P, const double *G, size_t c, size_t f, float t,
                     int mr, double *Ls, double *Rs)
{
    size_t m = P->m, nright = 0, nabove = 0;
    for (size_t r = 0; r < c; r++)
        Ls[r] = Rs[r] = 0;
    for (size_t i = 0; i < m; i++) {
        float xv = P->x[f * m + i];
        int right = xv > t || (mr && isnan(xv));
        nright += right;
        nabove += xv > t;
        for (size_t r = 0; r < c; r++)
            (right ? Rs : Ls)[r] += G[i * c + r];
    }
    return nright > 0 && nright < m && nabove > 0 && nabove < m;
}

/* Brute force for the multi-output criteria: the expected text and edge.
 * Order of the search: feature, then cut, strictly better wins (each: per
 * column; leafclass classes: the lowest of equal sums). */
static double brute_multi(const struct prob *P, const double *G, size_t c, int crit,
                          struct str *want)
{
    double *Ls = malloc(c * sizeof *Ls), *Rs = malloc(c * sizeof *Rs);
    double *be = malloc(c * sizeof *be);
    size_t *bf = malloc(c * sizeof *bf);
    float *bt = malloc(c * sizeof *bt);
    int *bp = malloc(c * sizeof *bp), *bm = calloc(c, sizeof *bm), Bm = 0;
    double best = -HUGE_VAL, edge = 0;
    size_t Bf = 0, Bl = 0, Br = 0;
    float Bt = 0;
    char votes[512] = "";
    for (size_t r = 0; r < c; r++)
        be[r] = -1;
    int found = 0;
    for (size_t f = 0; f < P->d; f++)
        for (unsigned b = 0; b + 1 < P->nbins[f]; b++)
        for (int mr = 0; mr <= has_nan(P, f); mr++) {
            float t = P->cut[f][b];
            if (!side_sums(P, G, c, f, t, mr, Ls, Rs))
                continue;
            if (crit == C_EACH) {
                for (size_t r = 0; r < c; r++) {
                    double sc = Rs[r] - Ls[r];
                    if (fabs(sc) > be[r]) {
                        be[r] = fabs(sc), bf[r] = f, bt[r] = t, bp[r] = sc < 0 ? -1 : 1;
                        bm[r] = mr;
                    }
                }
            } else if (crit == C_VOTE) {
                double q = 0;
                for (size_t r = 0; r < c; r++)
                    q += fabs(Rs[r] - Ls[r]);
                if (!found || q > best) {
                    found = 1, best = q, Bf = f, Bt = t, Bm = mr;
                    for (size_t r = 0; r < c; r++)
                        votes[r] = Rs[r] - Ls[r] < 0 ? '-' : '+';
                    votes[c] = 0;
                }
            } else {
                size_t lq = 0, rq = 0;
                for (size_t r = 1; r < c; r++) {
                    if (Ls[r] > Ls[lq])
                        lq = r;
                    if (Rs[r] > Rs[rq])
                        rq = r;
                }
                double q = Ls[lq] + Rs[rq];
                if (!found || q > best)
                    found = 1, best = q, Bf = f, Bt = t, Bl = lq, Br = rq, Bm = mr;
            }
        }
    want->n = 0;
    want->s[0] = 0;
    if (crit == C_EACH) {
        sadd(want, "each %zu:", c);
        for (size_t r = 0; r < c; r++) {
            cr_assert(be[r] >= 0, "no split at all");
            sadd(want, "%s f=%zu t=%.9g pol=%d%s", r ? ";" : "", bf[r], (double)bt[r], bp[r],
                 bm[r] ? " miss=r" : "");
            edge += be[r];
        }
    } else if (crit == C_VOTE) {
        cr_assert(found);
        sadd(want, "vote %zu: f=%zu t=%.9g v=%s%s", c, Bf, (double)Bt, votes,
             Bm ? " miss=r" : "");
        edge = best;
    } else {
        cr_assert(found);
        sadd(want, "leafclass %zu: f=%zu t=%.9g left=%zu right=%zu%s", c, Bf, (double)Bt, Bl, Br,
             Bm ? " miss=r" : "");
        double T = -HUGE_VAL;
        side_sums(P, G, c, Bf, Bt, Bm, Ls, Rs);
        for (size_t r = 0; r < c; r++)
            if (Ls[r] + Rs[r] > T)
                T = Ls[r] + Rs[r];
        edge = (best - T) * ((double)c / (double)(c - 1));
        if (edge < 0)
            edge = 0;
    }
    free(Ls), free(Rs), free(be), free(bf), free(bt), free(bp), free(bm);
    return edge;
}

/* Outputs of a multi-output answer: the right values, equal to predict on
 * the raw training values. */
static void check_outputs_multi(const struct prob *P, const struct answer *A, size_t c, int crit)
{
    double *pr = malloc(P->m * c * sizeof *pr);
    ops()->predict(A->hyp, &P->tr.X, pr);
    double off = c > 1 ? -1.0 / (double)(c - 1) : 0;
    for (size_t i = 0; i < P->m; i++) {
        size_t ones = 0;
        for (size_t r = 0; r < c; r++) {
            double o = A->out[i * c + r];
            if (crit == C_LEAF) {
                cr_assert(o == 1.0 || o == off, "output (%zu,%zu) = %g", i, r, o);
                ones += o == 1.0;
            } else {
                cr_assert(o == 1.0 || o == -1.0, "output (%zu,%zu) = %g", i, r, o);
            }
            cr_assert_eq(o, pr[i * c + r], "training output (%zu,%zu) %g, predict %g [%s]", i, r,
                         o, pr[i * c + r], A->text);
        }
        if (crit == C_LEAF)
            cr_assert_eq(ones, 1, "example %zu: %zu classes predicted", i, ones);
        if (crit == C_VOTE) /* one split: every column is +-(the same phi) */
            for (size_t r = 1; r < c; r++)
                cr_assert_eq(fabs(A->out[i * c + r]), fabs(A->out[i * c]));
    }
    free(pr);
}

/* sum_ir G_ir out_ir */
static double achieved(const double *G, const double *out, size_t m, size_t c)
{
    double s = 0;
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < c; r++)
            s += G[i * c + r] * out[i * c + r];
    return s;
}

static void check_multi(size_t m, size_t d, size_t k, unsigned maxbins, int crit, int zero_sum,
                        uint64_t seed)
{
    struct prob *P = make_prob(m, d, k, maxbins, seed);
    void *L = learner(&test_host, &P->tr, crit);
    size_t cs[3] = {k, crit == C_LEAF ? 2 : 1, 17};
    for (size_t ci = 0; ci < 3; ci++) {
        size_t c = cs[ci];
        double *G = int_weights(P, c, zero_sum);
        struct str want;
        double edge = brute_multi(P, G, c, crit, &want);
        struct answer A = fitn(L, P, G, c, c);
        cr_assert(A.ok, "fit failed: %s", A.text);
        cr_assert_str_eq(A.text, want.s, "seed %llu c=%zu crit=%d: chose\n%s\nbrute force\n%s",
                         (unsigned long long)seed, c, crit, A.text, want.s);
        cr_assert_eq(A.edge, edge, "seed %llu c=%zu crit=%d: edge %.17g, brute force %.17g",
                     (unsigned long long)seed, c, crit, A.edge, edge);
        check_outputs_multi(P, &A, c, crit);
        /* the edge is what the outputs achieve */
        double e = achieved(G, A.out, m, c);
        if (crit == C_LEAF) { /* minus the "no split" classifier's objective */
            double *T = calloc(c, sizeof *T), *o0 = malloc(m * c * sizeof *o0);
            for (size_t i = 0; i < m; i++)
                for (size_t r = 0; r < c; r++)
                    T[r] += G[i * c + r];
            size_t q = 0;
            for (size_t r = 1; r < c; r++)
                if (T[r] > T[q])
                    q = r;
            for (size_t i = 0; i < m; i++)
                for (size_t r = 0; r < c; r++)
                    o0[i * c + r] = r == q ? 1.0 : -1.0 / (double)(c - 1);
            e -= achieved(G, o0, m, c);
            free(T), free(o0);
            cr_assert(fabs(e - A.edge) <= 1e-9 * (1 + fabs(e)), "outputs reach %.17g, edge %.17g",
                      e, A.edge);
        } else {
            cr_assert_eq(e, A.edge, "outputs reach %.17g, edge says %.17g", e, A.edge);
        }
        drop(&A);
        free(G);
    }
    ops()->destroy(L);
    free_prob(P);
}

Test(stump, brute_force_each)
{
    for (uint64_t s = 500; s < 540; s++)
        check_multi(8 + (size_t)(s % 5) * 9, 5, 2 + (size_t)(s % 4), 6, C_EACH, s % 2, s);
}

Test(stump, brute_force_vote)
{
    for (uint64_t s = 600; s < 640; s++)
        check_multi(8 + (size_t)(s % 5) * 9, 5, 2 + (size_t)(s % 4), 6, C_VOTE, s % 2, s);
}

Test(stump, brute_force_leafclass)
{
    for (uint64_t s = 700; s < 740; s++)
        check_multi(8 + (size_t)(s % 5) * 9, 5, 2 + (size_t)(s % 4), 6, C_LEAF, s % 2, s);
}

Test(stump, brute_force_multi_many_bins)
{
    for (uint64_t s = 800; s < 803; s++)
        for (int crit = C_EACH; crit <= C_LEAF; crit++)
            check_multi(500, 4, 5, 256, crit, 1, s);
}

/* Real-valued weights: the same choices, edges to rounding. */
Test(stump, brute_force_multi_real_weights)
{
    for (uint64_t s = 900; s < 915; s++)
        for (int crit = C_EACH; crit <= C_LEAF; crit++) {
            struct prob *P = make_prob(60, 6, 4, 8, s);
            void *L = learner(&test_host, &P->tr, crit);
            size_t c = 4;
            double *G = malloc(P->m * c * sizeof *G);
            for (size_t j = 0; j < P->m * c; j++)
                G[j] = urand() - 0.5;
            struct str want;
            double edge = brute_multi(P, G, c, crit, &want);
            struct answer A = fitn(L, P, G, c, c);
            cr_assert(A.ok, "%s", A.text);
            cr_assert(fabs(A.edge - edge) <= 1e-12, "crit %d: edge %.17g vs %.17g", crit, A.edge,
                      edge);
            cr_assert_str_eq(A.text, want.s, "crit %d", crit);
            check_outputs_multi(P, &A, c, crit);
            drop(&A);
            free(G);
            ops()->destroy(L);
            free_prob(P);
        }
}

/* With one column, each is max (the same stump and edge) and vote is max
 * with the polarity written as the vote. */
Test(stump, one_column_each_vote_are_max)
{
    for (uint64_t s = 1000; s < 1020; s++) {
        struct prob *P = make_prob(40, 5, 3, 7, s);
        double *G = int_weights(P, 1, 0);
        void *Lm = learner(&test_host, &P->tr, C_MAX), *Le = learner(&test_host, &P->tr, C_EACH);
        void *Lv = learner(&test_host, &P->tr, C_VOTE);
        struct answer Am = fit(Lm, P, G, 1), Ae = fitn(Le, P, G, 1, 1), Av = fitn(Lv, P, G, 1, 1);
        cr_assert(Am.ok && Ae.ok && Av.ok);
        char want[4200];
        snprintf(want, sizeof want, "each 1: %s", Am.text);
        cr_assert_str_eq(Ae.text, want);
        cr_assert_eq(Ae.edge, Am.edge);
        cr_assert_eq(Av.edge, Am.edge);
        cr_assert_eq(memcmp(Am.out, Ae.out, P->m * sizeof *Am.out), 0);
        cr_assert_eq(memcmp(Am.out, Av.out, P->m * sizeof *Am.out), 0);
        drop(&Am), drop(&Ae), drop(&Av);
        ops()->destroy(Lm), ops()->destroy(Le), ops()->destroy(Lv);
        free(G);
        free_prob(P);
    }
}

/* leafclass: no split helps when every side's best class is the overall
 * best class (edge 0); one column is refused. */
Test(stump, leafclass_no_gain_and_one_column)
{
    struct prob *P = make_prob(30, 4, 3, 5, 77);
    size_t c = 3;
    double *G = malloc(P->m * c * sizeof *G);
    for (size_t i = 0; i < P->m; i++) {
        G[i * c] = 2.0; /* class 0 is the best everywhere */
        G[i * c + 1] = -1.0;
        G[i * c + 2] = (double)(i % 3) - 1.0;
    }
    void *L = learner(&test_host, &P->tr, C_LEAF);
    struct answer A = fitn(L, P, G, c, c);
    cr_assert(A.ok, "%s", A.text);
    cr_assert_eq(A.edge, 0.0, "edge %g", A.edge);
    cr_assert(strstr(A.text, " left=0 right=0"), "%s", A.text);
    drop(&A);
    A = fitn(L, P, G, 1, 1);
    cr_assert(!A.ok, "leafclass with one column must be refused");
    cr_assert(strstr(A.text, "leafclass") && strstr(A.text, "2"), "message: %s", A.text);
    drop(&A);
    ops()->destroy(L);
    free(G);
    free_prob(P);
}

Test(stump, deterministic_across_threads_multi)
{
    struct prob *P = make_prob(3000, 60, 7, 64, 13);
    size_t cs[2] = {7, 40};
    for (size_t ci = 0; ci < 2; ci++) {
        size_t c = cs[ci];
        double *G = malloc(P->m * c * sizeof *G);
        for (size_t j = 0; j < P->m * c; j++)
            G[j] = urand() - 0.5;
        for (int crit = C_EACH; crit <= C_LEAF; crit++) {
            struct answer ref = {0};
            for (int th = 1; th <= 4; th++) {
                struct bl_host host = test_host;
                host.threads = th;
                void *L = learner(&host, &P->tr, crit);
                for (int rep = 0; rep < 2; rep++) {
                    struct answer A = fitn(L, P, G, c, c);
                    cr_assert(A.ok, "%s", A.text);
                    if (!ref.hyp) {
                        ref = A;
                        continue;
                    }
                    cr_assert_eq(A.edge, ref.edge, "crit %d threads %d: edge %.17g vs %.17g", crit,
                                 th, A.edge, ref.edge);
                    cr_assert_str_eq(A.text, ref.text);
                    cr_assert_eq(memcmp(A.out, ref.out, P->m * c * sizeof *A.out), 0);
                    drop(&A);
                }
                ops()->destroy(L);
            }
            drop(&ref);
        }
        free(G);
    }
    free_prob(P);
}

/* A learner fitted with a small c, then a larger one: the buffers grow. */
Test(stump, columns_grow_between_fits)
{
    struct prob *P = make_prob(80, 5, 3, 6, 31);
    for (int crit = C_EACH; crit <= C_LEAF; crit++) {
        void *L = learner(&test_host, &P->tr, crit);
        size_t cs[3] = {2, 33, 5};
        for (size_t ci = 0; ci < 3; ci++) {
            size_t c = cs[ci];
            double *G = int_weights(P, c, 1);
            struct str want;
            double edge = brute_multi(P, G, c, crit, &want);
            struct answer A = fitn(L, P, G, c, c);
            cr_assert(A.ok, "%s", A.text);
            cr_assert_str_eq(A.text, want.s);
            cr_assert_eq(A.edge, edge);
            drop(&A);
            free(G);
        }
        ops()->destroy(L);
    }
    free_prob(P);
}

Test(stump, save_load_roundtrip_multi)
{
    struct prob *P = make_prob(200, 8, 5, 16, 23);
    for (int crit = C_MAX; crit <= C_LEAF; crit++) {
        void *L = learner(&test_host, &P->tr, crit);
        for (int rep = 0; rep < 4; rep++) {
            size_t c = rep % 2 ? 5 : 12, od = crit <= C_L2 ? 1 : c;
            double *G = int_weights(P, c, 1);
            struct answer A = fitn(L, P, G, c, od);
            cr_assert(A.ok, "%s", A.text);
            char err[BL_ERR_MAX] = "";
            void *h = ops()->load(A.text, P->d, err);
            cr_assert_not_null(h, "load \"%s\": %s", A.text, err);
            cr_assert_eq(ops()->outdim(h), od);
            char again[4096];
            int n = ops()->save(h, again, sizeof again);
            cr_assert_eq((size_t)n, strlen(A.text));
            cr_assert_str_eq(again, A.text);
            /* save reports the length it needs and never writes past cap */
            char small[9];
            memset(small, 'Z', sizeof small);
            cr_assert_eq(ops()->save(h, small, 8), n);
            cr_assert_eq(small[7], 0);
            cr_assert_eq(small[8], 'Z');
            cr_assert_eq(strncmp(small, A.text, 7), 0);
            double *p1 = malloc(P->m * od * sizeof *p1), *p2 = malloc(P->m * od * sizeof *p2);
            ops()->predict(A.hyp, &P->tr.X, p1);
            ops()->predict(h, &P->tr.X, p2);
            cr_assert_eq(memcmp(p1, p2, P->m * od * sizeof *p1), 0);
            cr_assert_eq(memcmp(p1, A.out, P->m * od * sizeof *p1), 0);
            free(p1), free(p2);
            ops()->free_hyp(h);
            /* a model for fewer features is refused */
            size_t fmax = 0;
            for (const char *q = A.text; (q = strstr(q, "f=")); q += 2) {
                size_t f = strtoul(q + 2, NULL, 10);
                if (f > fmax)
                    fmax = f;
            }
            h = ops()->load(A.text, fmax, err);
            cr_assert_null(h, "\"%s\" loaded for %zu features", A.text, fmax);
            cr_assert(strstr(err, "range"), "%s", err);
            drop(&A);
            free(G);
        }
        ops()->destroy(L);
    }
    free_prob(P);
}

/* Hand-written hypotheses predict what their text says. */
Test(stump, predict_multi_by_hand)
{
    float x[8] = {0.f, 1.f, 2.f, NAN, /* feature 0 */ 5.f, -5.f, 0.5f, 0.5f /* feature 1 */};
    struct bl_matrix X = {4, 2, x};
    char err[BL_ERR_MAX] = "";
    double out[12];

    void *h = ops()->load("each 2: f=0 t=0.5 pol=1; f=1 t=0.5 pol=-1", 2, err);
    cr_assert_not_null(h, "%s", err);
    ops()->predict(h, &X, out);
    const double we[8] = {-1, -1, 1, 1, 1, 1, -1, 1};
    for (int j = 0; j < 8; j++)
        cr_assert_eq(out[j], we[j], "each: out[%d] = %g", j, out[j]);
    ops()->free_hyp(h);

    h = ops()->load("vote 3: f=0 t=1 v=+-+", 2, err);
    cr_assert_not_null(h, "%s", err);
    cr_assert_eq(ops()->outdim(h), 3);
    ops()->predict(h, &X, out);
    const double wv[12] = {-1, 1, -1, -1, 1, -1, 1, -1, 1, -1, 1, -1};
    for (int j = 0; j < 12; j++)
        cr_assert_eq(out[j], wv[j], "vote: out[%d] = %g", j, out[j]);
    ops()->free_hyp(h);

    h = ops()->load("leafclass 3: f=0 t=1 left=2 right=0", 2, err);
    cr_assert_not_null(h, "%s", err);
    ops()->predict(h, &X, out);
    const double wl[12] = {-.5, -.5, 1, -.5, -.5, 1, 1, -.5, -.5, -.5, -.5, 1};
    for (int j = 0; j < 12; j++)
        cr_assert_eq(out[j], wl[j], "leafclass: out[%d] = %g", j, out[j]);
    ops()->free_hyp(h);
}

Test(stump, load_refuses_malformed_multi)
{
    const char *bad[] = {
        "each", "each 2:", "each 2: ", "each 2: f=1 t=0.5 pol=1", "each 2: f=1 t=0.5 pol=1;",
        "each 2: f=1 t=0.5 pol=1;f=2 t=0 pol=1", "each 2: f=1 t=0.5 pol=1 ; f=2 t=0 pol=1",
        "each 1: f=1 t=0.5 pol=1; f=2 t=0 pol=1", "each 1: f=1 t=0.5 pol=2", "each 0: ",
        "each -1: f=1 t=0.5 pol=1", "each 1 f=1 t=0.5 pol=1", "each 1:f=1 t=0.5 pol=1",
        "each x: f=1 t=0.5 pol=1", "Each 1: f=1 t=0.5 pol=1", "each 1: f=1 t=nan pol=1",
        "each 1: f=10 t=0.5 pol=1", "each 2000000: f=1 t=0.5 pol=1",
        "each 99999999999999999999999: f=1 t=0.5 pol=1",
        "vote 3: f=1 t=0.5 v=++", "vote 3: f=1 t=0.5 v=++++", "vote 3: f=1 t=0.5 v=+x+",
        "vote 3: f=1 t=0.5 pol=1", "vote 0: f=1 t=0.5 v=", "vote 2: f=1 t=0.5 v=+- x",
        "vote 2: f=1 t=0.5 v= +-", "vote 2: f=1 t=0.5", "vote 2: f=10 t=0.5 v=++",
        "vote 2 f=1 t=0.5 v=++",
        "leafclass 1: f=1 t=0.5 left=0 right=0", "leafclass 3: f=1 t=0.5 left=3 right=0",
        "leafclass 3: f=1 t=0.5 left=0 right=3", "leafclass 3: f=1 t=0.5 left=0",
        "leafclass 3: f=1 t=0.5 left=-1 right=0", "leafclass 3: f=1 t=nan left=0 right=1",
        "leafclass 3: f=10 t=0.5 left=0 right=1", "leafclass 3: f=1 t=0.5 right=0 left=1",
        "leafclass 3: f=1 t=0.5 left=0 right=1 x", "leafclass 3: f=1 t=0.5 pol=1",
        "leafclass: f=1 t=0.5 left=0 right=1", "vote", "leafclass", "each 1: ",
    };
    for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++) {
        char err[BL_ERR_MAX] = "";
        void *h = ops()->load(bad[j], 10, err);
        cr_assert_null(h, "accepted \"%s\"", bad[j]);
        cr_assert(strlen(err) > 0, "no message for \"%s\"", bad[j]);
    }
    const char *good[] = {"each 2: f=0 t=1 pol=-1; f=9 t=-2 pol=1", "vote 3: f=9 t=0.5 v=+-+\n",
                          "leafclass 3: f=2 t=0 left=2 right=0", "each 1: f=0 t=-7 pol=1",
                          "vote 1: f=0 t=1e-30 v=-", "leafclass 2: f=9 t=3 left=1 right=1"};
    const size_t od[] = {2, 3, 3, 1, 1, 2};
    for (size_t j = 0; j < sizeof good / sizeof good[0]; j++) {
        char err[BL_ERR_MAX] = "";
        void *h = ops()->load(good[j], 10, err);
        cr_assert_not_null(h, "refused \"%s\": %s", good[j], err);
        cr_assert_eq(ops()->outdim(h), od[j], "%s", good[j]);
        char again[256];
        ops()->save(h, again, sizeof again);
        size_t n = strcspn(good[j], "\n");
        cr_assert(strlen(again) == n && strncmp(again, good[j], n) == 0, "%s -> %s", good[j], again);
        ops()->free_hyp(h);
    }
    char err[BL_ERR_MAX] = "";
    cr_assert_null(ops()->load("leafclass 3: f=1 t=0.5 left=7 right=0", 10, err));
    cr_assert(strstr(err, "range"), "%s", err);
    cr_assert_null(ops()->load("each 2: f=1 t=0.5 pol=1; f=10 t=0 pol=1", 10, err));
    cr_assert(strstr(err, "range"), "%s", err);
}

/* ---- missing values: the side that gains ----------------------------------- */

/* x = 1 1 2 2 3 3 NaN NaN, classes 0 0 0 0 1 1 1 1 (G = -1/+1): the
 * missing rows belong with the large values.  In bin 0 (left) the best
 * stump x > 2.5 misclassifies them (edge 4); sent right it separates the
 * classes (edge 8), so the exponential loss after a step is strictly
 * lower.  The side is saved ("miss=r"), loaded and predicted. */
Test(stump, missing_values_go_to_the_gaining_side)
{
    float x[8] = {1, 1, 2, 2, 3, 3, NAN, NAN};
    uint8_t bins[8] = {0, 0, 1, 1, 2, 2, 0, 0};
    uint16_t nbins[1] = {3};
    float cut0[2] = {1.5f, 2.5f};
    float *cut[1] = {cut0};
    int y[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    double G[8];
    for (int i = 0; i < 8; i++)
        G[i] = y[i] ? 1.0 : -1.0;
    struct prob P = {0};
    P.m = 8, P.d = 1, P.k = 2;
    P.tr.m = 8, P.tr.d = 1, P.tr.k = 2, P.tr.y = y;
    P.tr.X.m = 8, P.tr.X.d = 1, P.tr.X.x = x;
    P.tr.Q.m = 8, P.tr.Q.d = 1, P.tr.Q.bins = bins, P.tr.Q.nbins = nbins;
    P.tr.Q.cut = (const float *const *)cut;
    for (int crit = 0; crit <= 3; crit++) { /* max, l2, each, vote */
        void *L = learner(NULL, &P.tr, crit);
        struct answer A = fitn(L, &P, G, 1, 1);
        cr_assert(A.ok, "%s", A.text);
        cr_assert(strstr(A.text, "miss=r"), "criterion %d: %s", crit, A.text);
        cr_assert_float_eq(A.edge, crit == 1 ? sqrt(64.0) : 8.0, 1e-12);
        /* exp loss after a unit step: missing right vs the same split in bin 0 */
        double right = 0.0, left = 0.0;
        for (int i = 0; i < 8; i++) {
            double h_bin0 = bins[i] > 1 ? A.out[4] : -A.out[4];
            right += exp(-G[i] * A.out[i]);
            left += exp(-G[i] * h_bin0);
        }
        cr_assert(right < left, "criterion %d: loss %g with missing right, %g in bin 0", crit,
                  right, left);
        cr_assert_eq(A.out[6], A.out[4]);
        cr_assert_eq(A.out[7], A.out[4]);
        /* save / load / predict on raw values */
        char err[BL_ERR_MAX] = "";
        void *H = ops()->load(A.text, 1, err);
        cr_assert_not_null(H, "load '%s': %s", A.text, err);
        char text2[4096];
        ops()->save(H, text2, sizeof text2);
        cr_assert_str_eq(text2, A.text);
        double out[8];
        ops()->predict(H, &P.tr.X, out);
        for (int i = 0; i < 8; i++)
            cr_assert_eq(out[i], A.out[i], "row %d of '%s'", i, A.text);
        ops()->free_hyp(H);
        drop(&A);
        ops()->destroy(L);
    }
    /* a split written without the side (older models): NaN goes left */
    char err[BL_ERR_MAX] = "";
    void *H = ops()->load("f=0 t=2.5 pol=1", 1, err);
    cr_assert_not_null(H, "%s", err);
    double out[8];
    ops()->predict(H, &P.tr.X, out);
    cr_assert_eq(out[6], -1.0);
    ops()->free_hyp(H);
    H = ops()->load("leafclass 2: f=0 t=2.5 left=0 right=1 miss=r", 1, err);
    cr_assert_not_null(H, "%s", err);
    ops()->free_hyp(H);
    cr_assert_null(ops()->load("f=0 t=2.5 pol=1 miss=x", 1, err));
}

/* A hand-built view whose bin 0 holds only missing values: after bin 0,
 * sending them right would leave nothing on the left (the constant
 * hypothesis, edge |T| = 6 here), so that side is not a candidate.  The
 * best real split is NaN | 1 1 2 2 with edge 2. */
Test(stump, missing_right_never_empties_the_left)
{
    float x[6] = {NAN, NAN, 1, 1, 2, 2};
    uint8_t bins[6] = {0, 0, 1, 1, 2, 2};
    uint16_t nbins[1] = {3};
    float cut0[2] = {0.5f, 1.5f};
    float *cut[1] = {cut0};
    int y[6] = {1, 1, 1, 1, 1, 1};
    double G[6] = {1, 1, 1, 1, 1, 1};
    struct prob P = {0};
    P.m = 6, P.d = 1, P.k = 2;
    P.tr.m = 6, P.tr.d = 1, P.tr.k = 2, P.tr.y = y;
    P.tr.X.m = 6, P.tr.X.d = 1, P.tr.X.x = x;
    P.tr.Q.m = 6, P.tr.Q.d = 1, P.tr.Q.bins = bins, P.tr.Q.nbins = nbins;
    P.tr.Q.cut = (const float *const *)cut;
    for (int crit = 0; crit <= 3; crit++) { /* max, l2, each, vote */
        void *L = learner(NULL, &P.tr, crit);
        struct answer A = fitn(L, &P, G, 1, 1);
        cr_assert(A.ok, "%s", A.text);
        cr_assert_float_eq(A.edge, 2.0, 1e-12, "criterion %d: %s", crit, A.text);
        int plus = 0;
        for (int i = 0; i < 6; i++)
            plus += A.out[i] > 0;
        cr_assert(plus > 0 && plus < 6, "criterion %d: constant outputs (%s)", crit, A.text);
        drop(&A);
        ops()->destroy(L);
    }
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of the weak learner "svm" (plugins/weak/svm/; HingeBoost.OC's
 * margin-rescaled SVM, spec hingeboost-oc.md §2.5, and AdaBoost.ERP's
 * weighted C-SVC, §3.4):
 *   - the SMO answer of a margin-rescaled problem meets the KKT conditions
 *     and its primal objective equals its dual objective (small gap), for
 *     each kernel, with and without shrinking;
 *   - a constant added to the kernel (the perceptron kernel's Delta_P)
 *     does not change s (the equality constraint cancels it);
 *   - margin mode with every margin 1 is weighted mode with |G| = 1 and
 *     C_weighted = C_margin / m (the same decision values);
 *   - linear kernel: the cached-row SMO and the on-the-fly path agree;
 *   - weighted mode: examples with G_i = 0 are left out (the same answer
 *     as training without them), c > 1 is refused; the edge is sum G out;
 *   - margin mode never flips s and reports a positive edge;
 *   - save/load round trip predicts the same bits; malformed text refused;
 *   - 1 and 2 threads give the same text.
 */
#include <criterion/criterion.h>
#include "testutil.h"

#include <math.h>

#include "weakset.h"
#include "../../plugins/weak/svm/kernel.h"
#include "../../plugins/weak/svm/smo.h"

static const struct bl_plugin *svm(void)
{
    return test_plugin("plugins/weak/svm", "svm");
}

static const struct bl_weak_ops *ops(void)
{
    return svm()->ops;
}

struct opt {
    const char *name;
    double val;
};

struct fitted {
    int rc;
    char err[BL_ERR_MAX];
    void *hyp;
    double edge;
    double *out;
};

static void *learner(const struct tset *T, const struct opt *o, int threads)
{
    const struct bl_plugin *p = svm();
    union bl_value v[16];
    test_defaults(p, v);
    for (; o && o->name; o++) {
        int j = test_param_index(p, o->name);
        switch (p->params[j].type) {
        case BL_PARAM_INT: v[j].i = (int64_t)o->val; break;
        case BL_PARAM_CHOICE: v[j].choice = (int)o->val; break;
        case BL_PARAM_BOOL: v[j].b = o->val != 0; break;
        default: v[j].r = o->val; break;
        }
    }
    static struct bl_host host;
    host = test_host;
    host.threads = threads;
    char err[BL_ERR_MAX] = "";
    void *L = ops()->create(&host, v, &T->tr, err);
    cr_assert_not_null(L, "create: %s", err);
    return L;
}

static void fit(void *L, const struct tset *T, const double *G, size_t c, const double *label,
                const double *margin, struct fitted *F)
{
    memset(F, 0, sizeof *F);
    F->out = calloc(T->tr.m * c + 1, sizeof *F->out);
    struct bl_fit_request rq = {G, c, NULL, 7, NULL, NULL, NULL, label, margin};
    struct bl_fit_result rs = {.out = F->out};
    F->rc = ops()->fit(L, &rq, &rs, F->err);
    F->hyp = rs.hyp;
    F->edge = rs.edge;
    if (F->rc == 0)
        cr_assert_eq(rs.outdim, 1);
}

static void unfit(struct fitted *F)
{
    if (F->hyp)
        ops()->free_hyp(F->hyp);
    free(F->out);
}

/* Labels from a noisy hyperplane, margins in [-0.5, 2] (a few <= 0). */
static void margin_problem(const struct tset *T, uint64_t seed, double *label, double *margin)
{
    rng_seed(seed);
    size_t m = T->tr.m, d = T->tr.d;
    for (size_t i = 0; i < m; i++) {
        double s = urange(-0.7, 0.7);
        for (size_t f = 0; f < d; f++) {
            float v = T->tr.X.x[f * m + i];
            s += (f % 2 ? 1.0 : -0.5) * (isnan(v) ? 0.0 : v);
        }
        label[i] = s > 0 ? 1.0 : -1.0;
        margin[i] = urand() < 0.2 ? urange(-0.5, 0.0) : urange(0.2, 2.0);
    }
}

/* ---- the solver on its own ---- */

struct sp {
    size_t l, d;
    float *x;
    double *sq, *p, *U, *beta, *grad;
    size_t *ex;
    signed char *y;
    struct kern K;
};

static struct sp *sp_new(size_t l, size_t d, enum kern_type type, uint64_t seed)
{
    struct sp *S = calloc(1, sizeof *S);
    S->l = l, S->d = d;
    S->x = malloc(l * d * sizeof *S->x);
    S->sq = malloc(l * sizeof *S->sq);
    S->p = malloc(l * sizeof *S->p);
    S->U = malloc(l * sizeof *S->U);
    S->beta = malloc(l * sizeof *S->beta);
    S->grad = malloc(l * sizeof *S->grad);
    S->ex = malloc(l * sizeof *S->ex);
    S->y = malloc(l);
    rng_seed(seed);
    for (size_t t = 0; t < l; t++) {
        double s = 0.0;
        for (size_t f = 0; f < d; f++) {
            S->x[t * d + f] = (float)urange(-1, 1);
            s += (f == 0 ? 1.0 : 0.3) * S->x[t * d + f];
        }
        S->y[t] = s + urange(-0.4, 0.4) > 0 ? 1 : -1;
        S->p[t] = urand() < 0.2 ? urange(0.0, 0.5) : -urange(0.2, 2.0); /* p = -margin */
        S->U[t] = 10.0 / (double)l;
        S->ex[t] = t;
    }
    S->K = (struct kern){type, 0.7, 0.0, l, d, S->x, S->sq};
    kern_norms(&S->K, S->sq);
    return S;
}

static void sp_free(struct sp *S)
{
    free(S->x), free(S->sq), free(S->p), free(S->U), free(S->beta), free(S->grad), free(S->ex);
    free(S->y), free(S);
}

static void solve_with(struct sp *S, struct kcache *cache, struct krows *rows, double eps,
                       int shrinking, struct smo_info *inf)
{
    struct smo_problem P = {S->l, S->ex, S->y, S->p, S->U, &S->K, cache, eps, 10000000,
                            shrinking, 1, rows};
    cr_assert_eq(smo_solve(&P, S->beta, S->grad, inf), 0);
    cr_assert(inf->converged, "SMO did not converge (gap %g)", inf->gap);
}

static void solve(struct sp *S, struct kcache *cache, double eps, int shrinking,
                  struct smo_info *inf)
{
    solve_with(S, cache, NULL, eps, shrinking, inf);
}

/* s_t on the training points, in double from the kernel. */
static void scores(const struct sp *S, double rho, double *s)
{
    for (size_t t = 0; t < S->l; t++) {
        double z = -rho;
        for (size_t u = 0; u < S->l; u++)
            if (S->beta[u] > 0)
                z += S->y[u] * S->beta[u] * kern_ij(&S->K, t, u);
        s[t] = z;
    }
}

Test(svm, kkt_and_duality_gap)
{
    for (int kt = 0; kt < 3; kt++)
        for (int shr = 0; shr < 2; shr++) {
            struct sp *S = sp_new(150, 3, (enum kern_type)kt, 11 + (uint64_t)kt);
            struct smo_info inf;
            solve(S, NULL, 1e-6, shr, &inf);
            double *s = malloc(S->l * sizeof *s);
            scores(S, inf.rho, s);
            double bq = 0.0, pb = 0.0, hinge = 0.0, yb = 0.0;
            for (size_t t = 0; t < S->l; t++) {
                double r = -S->p[t], ys = S->y[t] * s[t], b = S->beta[t];
                cr_assert(b >= 0.0 && b <= S->U[t], "beta %g outside [0, %g]", b, S->U[t]);
                yb += S->y[t] * b;
                bq += b * (S->grad[t] - S->p[t]);
                pb += S->p[t] * b;
                hinge += S->U[t] * fmax(0.0, r - ys);
                /* KKT: y s >= r at 0, = r when free, <= r at U */
                if (b == 0.0)
                    cr_assert(ys >= r - 1e-5, "kernel %d: beta 0 but y s %g < r %g", kt, ys, r);
                else if (b == S->U[t])
                    cr_assert(ys <= r + 1e-5, "kernel %d: beta U but y s %g > r %g", kt, ys, r);
                else
                    cr_assert(fabs(ys - r) <= 1e-5, "kernel %d: free but y s %g != r %g", kt,
                              ys, r);
            }
            cr_assert(fabs(yb) < 1e-12, "y'beta = %g", yb);
            double primal = 0.5 * bq + hinge, dual = -(0.5 * bq + pb);
            cr_assert(fabs(dual + inf.obj) < 1e-9 * (1 + fabs(dual)), "objective %g vs %g",
                      -dual, inf.obj);
            cr_assert(primal >= dual - 1e-9 && primal - dual < 1e-5 * (1 + fabs(primal)),
                      "kernel %d shrinking %d: primal %.12g dual %.12g", kt, shr, primal, dual);
            free(s);
            sp_free(S);
        }
}

Test(svm, cached_rows_give_the_same_optimum)
{
    for (int kt = 0; kt < 3; kt++) {
        struct sp *S = sp_new(120, 4, (enum kern_type)kt, 5);
        struct smo_info a, b;
        solve(S, NULL, 1e-6, 1, &a);
        struct kcache *C = kcache_new(&S->K, 8 * 120 * sizeof(float)); /* 8 rows: evictions */
        solve(S, C, 1e-6, 1, &b);
        kcache_free(C);
        cr_assert(fabs(a.obj - b.obj) < 1e-6 * (1 + fabs(a.obj)), "kernel %d: %g vs %g", kt,
                  a.obj, b.obj);
        sp_free(S);
    }
}

/* The exact double rows are kern_ij's values, so the SMO takes the same
 * path to the same bits as computing each value on the fly; variables
 * bound to examples out of order check the row indexing. */
Test(svm, exact_rows_give_the_same_bits)
{
    for (int kt = 0; kt < 3; kt++)
        for (int shr = 0; shr < 2; shr++) {
            struct sp *S = sp_new(140, 5, (enum kern_type)kt, 21 + (uint64_t)kt);
            for (size_t t = 0; t < S->l; t++)
                S->ex[t] = (t * 37) % S->l; /* 37 is prime to 140: a permutation */
            struct smo_info a, b;
            double beta[140], grad[140];
            solve(S, NULL, 1e-6, shr, &a);
            memcpy(beta, S->beta, sizeof beta), memcpy(grad, S->grad, sizeof grad);
            cr_assert_null(krows_new(&S->K, 140 * 140 * sizeof(double) - 1));
            struct krows *R = krows_new(&S->K, 140 * 140 * sizeof(double));
            cr_assert_not_null(R);
            solve_with(S, NULL, R, 1e-6, shr, &b);
            krows_free(R);
            cr_assert(a.iter == b.iter && a.rho == b.rho && a.obj == b.obj,
                      "kernel %d: %lld iterations, rho %.17g, objective %.17g vs %lld, %.17g, "
                      "%.17g", kt, a.iter, a.rho, a.obj, b.iter, b.rho, b.obj);
            cr_assert(!memcmp(beta, S->beta, sizeof beta) && !memcmp(grad, S->grad, sizeof grad),
                      "kernel %d shrinking %d: beta or gradient differ", kt, shr);
            sp_free(S);
        }
}

Test(svm, kernel_constant_cancels)
{
    for (int kt = 0; kt < 3; kt++) {
        struct sp *S = sp_new(100, 3, (enum kern_type)kt, 3);
        struct smo_info a, b;
        double s0[100], s1[100];
        solve(S, NULL, 1e-6, 1, &a);
        scores(S, a.rho, s0);
        S->K.shift = 5.0; /* e.g. Delta_P of the perceptron kernel */
        solve(S, NULL, 1e-6, 1, &b);
        double yb = 0.0;
        for (size_t t = 0; t < S->l; t++)
            yb += S->y[t] * S->beta[t];
        S->K.shift = 0.0; /* s's constant part is 5 y'beta = 0 */
        scores(S, b.rho, s1);
        for (size_t t = 0; t < S->l; t++)
            cr_assert(fabs(s0[t] - s1[t]) < 1e-6, "kernel %d: s[%zu] %.12g vs %.12g", kt, t,
                      s0[t], s1[t]);
        cr_assert(fabs(yb) < 1e-12);
        sp_free(S);
    }
}

Test(svm, one_class_gives_the_tightest_constant)
{
    struct sp *S = sp_new(20, 2, KERN_RBF, 9);
    for (size_t t = 0; t < S->l; t++)
        S->y[t] = 1, S->p[t] = -1.0;
    struct smo_info inf;
    solve(S, NULL, 1e-3, 1, &inf);
    cr_assert(fabs(inf.rho + 1.0) < 1e-12, "rho %g", inf.rho); /* s = 1 */
    sp_free(S);
}

/* ---- the plugin ---- */

Test(svm, margin_mode_equals_weighted_mode_with_unit_margins)
{
    struct tset *T = random_set(200, 3, 0.05, 21);
    size_t m = T->tr.m;
    double *lab = malloc(m * sizeof *lab), *mar = malloc(m * sizeof *mar);
    margin_problem(T, 4, lab, mar);
    for (size_t i = 0; i < m; i++)
        mar[i] = 1.0;
    for (int kt = 0; kt < 3; kt++) {
        struct opt om[] = {{"kernel", kt}, {"c", 50.0}, {NULL, 0}};
        struct opt ow[] = {{"kernel", kt}, {"c", 50.0 / (double)m}, {NULL, 0}};
        void *L1 = learner(T, om, 1), *L2 = learner(T, ow, 1);
        struct fitted a, b;
        fit(L1, T, lab, 1, lab, mar, &a);
        fit(L2, T, lab, 1, NULL, NULL, &b);
        cr_assert_eq(a.rc, 0, "%s", a.err);
        cr_assert_eq(b.rc, 0, "%s", b.err);
        for (size_t i = 0; i < m; i++)
            cr_assert(fabs(a.out[i] - b.out[i]) < 1e-9, "kernel %d: s[%zu] %g vs %g", kt, i,
                      a.out[i], b.out[i]);
        unfit(&a), unfit(&b);
        ops()->destroy(L1), ops()->destroy(L2);
    }
    free(lab), free(mar);
    tset_free(T);
}

/* solver = auto runs the linear kernel by dual coordinate descent with a
 * penalised bias (then re-fitted exactly): close to SMO's exact answer in
 * what the round needs, the hinge term and the signs, not bit for bit. */
Test(svm, linear_dcd_path_is_close_to_smo)
{
    struct tset *T = random_set(300, 4, 0.0, 8);
    size_t m = T->tr.m;
    double *lab = malloc(m * sizeof *lab), *mar = malloc(m * sizeof *mar);
    margin_problem(T, 2, lab, mar);
    struct opt oa[] = {{"solver", 0}, {"eps", 1e-6}, {"c", 30.0}, {NULL, 0}};
    struct opt os[] = {{"solver", 1}, {"eps", 1e-6}, {"c", 30.0}, {NULL, 0}};
    void *La = learner(T, oa, 1), *Ls = learner(T, os, 1);
    struct fitted a, s;
    fit(La, T, lab, 1, lab, mar, &a);
    fit(Ls, T, lab, 1, lab, mar, &s);
    cr_assert_eq(a.rc, 0, "%s", a.err);
    cr_assert_eq(s.rc, 0, "%s", s.err);
    double ha = 0.0, hs = 0.0, h0 = 0.0;
    size_t agree = 0;
    for (size_t i = 0; i < m; i++) {
        ha += fmax(0.0, mar[i] - lab[i] * a.out[i]);
        hs += fmax(0.0, mar[i] - lab[i] * s.out[i]);
        h0 += fmax(0.0, mar[i]);
        agree += (a.out[i] > 0) == (s.out[i] > 0);
    }
    cr_assert_lt(hs, 0.9 * h0, "SMO lowers the hinge term: %g from %g", hs, h0);
    cr_assert_lt(fabs(ha - hs), 0.05 * h0, "hinge terms %g (dcd) and %g (smo), %g at 0", ha, hs,
                 h0);
    cr_assert_geq(agree, m * 95 / 100, "signs agree on %zu of %zu", agree, m);
    unfit(&a), unfit(&s);
    ops()->destroy(La), ops()->destroy(Ls);
    free(lab), free(mar);
    tset_free(T);
}

Test(svm, margin_mode_keeps_its_orientation_and_a_positive_edge)
{
    struct tset *T = random_set(150, 2, 0.0, 31);
    size_t m = T->tr.m;
    double *lab = malloc(m * sizeof *lab), *mar = malloc(m * sizeof *mar);
    double *G = malloc(m * sizeof *G);
    margin_problem(T, 6, lab, mar);
    for (size_t i = 0; i < m; i++)
        G[i] = -lab[i]; /* a G that disagrees with the margins: no flip all the same */
    void *L = learner(T, NULL, 1);
    struct fitted a;
    fit(L, T, G, 1, lab, mar, &a);
    cr_assert_eq(a.rc, 0, "%s", a.err);
    double before = 0.0, after = 0.0, ys = 0.0;
    for (size_t i = 0; i < m; i++) {
        before += fmax(0.0, mar[i]);
        after += fmax(0.0, mar[i] - lab[i] * a.out[i]);
        ys += lab[i] * a.out[i];
    }
    cr_assert(ys > 0.0, "s points against the labels");
    cr_assert(a.edge > 0.0 && fabs(a.edge - (before - after)) < 1e-9 * before,
              "edge %g, hinge decrease %g", a.edge, before - after);
    unfit(&a);
    ops()->destroy(L);
    free(lab), free(mar), free(G);
    tset_free(T);
}

Test(svm, weighted_mode_leaves_out_zero_weights)
{
    size_t m = 120, d = 3, keep = 0;
    struct tset *T = random_set(m, d, 0.0, 41);
    double *G = malloc(m * sizeof *G), *Gs = malloc(m * sizeof *Gs);
    double *lab = malloc(m * sizeof *lab), *mar = malloc(m * sizeof *mar);
    margin_problem(T, 3, lab, mar);
    float *xs = malloc(m * d * sizeof *xs);
    size_t *rows = malloc(m * sizeof *rows);
    rng_seed(77);
    for (size_t i = 0; i < m; i++) {
        G[i] = urand() < 0.3 ? 0.0 : lab[i] * urange(0.2, 2.0);
        if (G[i] != 0.0)
            rows[keep++] = i;
    }
    for (size_t j = 0; j < keep; j++) {
        Gs[j] = G[rows[j]];
        for (size_t f = 0; f < d; f++)
            xs[f * keep + j] = T->tr.X.x[f * m + rows[j]];
    }
    struct tset *Ts = tset_new(keep, d, xs);
    for (int kt = 0; kt < 3; kt++) {
        struct opt o[] = {{"kernel", kt}, {"scale", 2}, {"c", 3.0}, {NULL, 0}};
        void *L = learner(T, o, 1), *Ls = learner(Ts, o, 1);
        struct fitted a, b;
        fit(L, T, G, 1, NULL, NULL, &a);
        fit(Ls, Ts, Gs, 1, NULL, NULL, &b);
        cr_assert_eq(a.rc, 0, "%s", a.err);
        cr_assert_eq(b.rc, 0, "%s", b.err);
        double e = 0.0;
        for (size_t i = 0; i < m; i++)
            e += G[i] * a.out[i];
        cr_assert(fabs(e - a.edge) <= 1e-9 * (1 + fabs(e)), "edge %g, sum G out %g", a.edge, e);
        cr_assert(a.edge >= 0.0);
        for (size_t j = 0; j < keep; j++)
            cr_assert(fabs(a.out[rows[j]] - b.out[j]) < 1e-9, "kernel %d: %g vs %g", kt,
                      a.out[rows[j]], b.out[j]);
        unfit(&a), unfit(&b);
        ops()->destroy(L), ops()->destroy(Ls);
    }
    /* several columns are refused, with a message */
    void *L = learner(T, NULL, 1);
    double *G2 = calloc(2 * m, sizeof *G2);
    struct fitted c;
    fit(L, T, G2, 2, NULL, NULL, &c);
    cr_assert_neq(c.rc, 0);
    cr_assert(strstr(c.err, "c = 1") && strstr(c.err, "2 columns"), "message: %s", c.err);
    unfit(&c);
    /* all zero: a valid constant answer, edge 0 */
    memset(G2, 0, m * sizeof *G2);
    fit(L, T, G2, 1, NULL, NULL, &c);
    cr_assert_eq(c.rc, 0, "%s", c.err);
    cr_assert(c.edge == 0.0);
    unfit(&c);
    ops()->destroy(L);
    free(G2), free(G), free(Gs), free(lab), free(mar), free(rows);
    tset_free(Ts);
    tset_free(T);
}

Test(svm, save_load_round_trip_and_malformed_text)
{
    struct tset *T = random_set(80, 3, 0.1, 51);
    size_t m = T->tr.m;
    double *lab = malloc(m * sizeof *lab), *mar = malloc(m * sizeof *mar);
    margin_problem(T, 5, lab, mar);
    static char text[1 << 20], t2[1 << 20], bad[1 << 20];
    for (int kt = 0; kt < 3; kt++)
        for (int out = 0; out < 2; out++) {
            struct opt o[] = {{"kernel", kt}, {"output", out}, {"c", 20.0}, {NULL, 0}};
            void *L = learner(T, o, 1);
            struct fitted a;
            fit(L, T, lab, 1, lab, mar, &a);
            cr_assert_eq(a.rc, 0, "%s", a.err);
            int n = ops()->save(a.hyp, text, sizeof text);
            cr_assert(n > 0 && (size_t)n < sizeof text);
            char err[BL_ERR_MAX] = "";
            void *h = ops()->load(text, 3, err);
            cr_assert_not_null(h, "load: %s\n%s", err, text);
            double *p1 = calloc(m, sizeof *p1), *p2 = calloc(m, sizeof *p2);
            ops()->predict(a.hyp, &T->tr.X, p1);
            ops()->predict(h, &T->tr.X, p2);
            cr_assert(memcmp(p1, p2, m * sizeof *p1) == 0, "kernel %d: predictions differ", kt);
            for (size_t i = 0; i < m; i++)
                cr_assert(p1[i] == a.out[i], "fit out %g, predict %g", a.out[i], p1[i]);
            cr_assert_eq(ops()->save(h, t2, sizeof t2), n);
            cr_assert_str_eq(t2, text);
            ops()->free_hyp(h);
            /* wrong d, every truncation, a few mutations: refused, never a crash */
            cr_assert_null(ops()->load(text, 4, err));
            cr_assert(strstr(err, "svm"), "%s", err);
            for (int cut = 0; cut < n; cut += 1 + n / 97) {
                memcpy(bad, text, (size_t)cut);
                bad[cut] = 0;
                err[0] = 0;
                void *hb = ops()->load(bad, 3, err);
                if (hb) /* a cut inside the last number can still parse */
                    ops()->free_hyp(hb);
                else
                    cr_assert(err[0], "no message for a cut at %d", cut);
            }
            const char *subst[][2] = {{"kernel=", "kernel=poly"}, {" rho=", " rho=nan"},
                                      {" w", " w nan"}, {" sv=", " sv=99999999999"},
                                      {" scale", " scale 1:x"}, {"gamma=", "gamma=-"}};
            for (size_t q = 0; q < sizeof subst / sizeof *subst; q++) {
                const char *at = strstr(text, subst[q][0]);
                if (!at)
                    continue;
                size_t pre = (size_t)(at - text);
                snprintf(bad, sizeof bad, "%.*s%s%s", (int)pre, text, subst[q][1],
                         at + strlen(subst[q][0]));
                err[0] = 0;
                void *hb = ops()->load(bad, 3, err);
                cr_assert_null(hb, "accepted \"%.200s\"", bad);
                cr_assert(err[0]);
            }
            memcpy(bad, text, (size_t)n);
            memcpy(bad + n, " 1", 3);
            cr_assert_null(ops()->load(bad, 3, err), "trailing text accepted");
            free(p1), free(p2);
            unfit(&a);
            ops()->destroy(L);
        }
    free(lab), free(mar);
    tset_free(T);
}

Test(svm, threads_and_refits_give_the_same_bits)
{
    struct tset *T = random_set(3000, 6, 0.02, 61);
    size_t m = T->tr.m;
    double *lab = malloc(m * sizeof *lab), *mar = malloc(m * sizeof *mar);
    margin_problem(T, 7, lab, mar);
    static char t1[1 << 22], t2[1 << 22], t3[1 << 22];
    for (int kt = 0; kt < 3; kt += 2) {
        struct opt o[] = {{"kernel", kt}, {"solver", 1}, {"c", 5.0}, {NULL, 0}};
        void *L1 = learner(T, o, 1), *L2 = learner(T, o, 2);
        struct fitted a, b, c;
        fit(L1, T, lab, 1, lab, mar, &a);
        fit(L2, T, lab, 1, lab, mar, &b);
        fit(L2, T, lab, 1, lab, mar, &c); /* warm cache */
        cr_assert_eq(a.rc + b.rc + c.rc, 0);
        ops()->save(a.hyp, t1, sizeof t1);
        ops()->save(b.hyp, t2, sizeof t2);
        ops()->save(c.hyp, t3, sizeof t3);
        cr_assert(strcmp(t1, t2) == 0 && strcmp(t2, t3) == 0, "kernel %d: texts differ", kt);
        cr_assert(memcmp(&a.edge, &b.edge, sizeof a.edge) == 0);
        unfit(&a), unfit(&b), unfit(&c);
        ops()->destroy(L1), ops()->destroy(L2);
    }
    free(lab), free(mar);
    tset_free(T);
}

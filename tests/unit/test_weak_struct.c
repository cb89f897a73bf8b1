/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of StructBoost's base weak learners "perceptron" and "linsvm"
 * (plugins/weak/perceptron.c, linsvm.c; spec structboost.md §3.2):
 *   - the edge is sum_r u_r phi(x_r) recomputed from predict, >= 0, and
 *     fit's training outputs are predict's;
 *   - the perceptron is never worse than the best decision stump (the
 *     stump plugin, criterion max) on NaN-free data, and equal to it with
 *     iterations = 0;
 *   - both separate a linearly separable 2-D set that no stump separates
 *     (edge = sum |u|);
 *   - save/load round trip (same predictions, also on NaN and huge values,
 *     same text), malformed text refused with a message;
 *   - c > 1 refused; same seed, same answer; 1 and 2 threads the same.
 * Training sets are quantized by the framework's bl_quantize, as the
 * engine does.
 */
#include <criterion/criterion.h>
#include "testutil.h"

#include <float.h>
#include <math.h>

#include "weakset.h"

/* Signed weights that follow a noisy linear rule of the first features. */
static double *random_u(const struct tset *T, uint64_t seed)
{
    rng_seed(seed);
    size_t m = T->tr.m, d = T->tr.d;
    double *u = malloc(m * sizeof *u), w[8];
    for (size_t f = 0; f < 8; f++)
        w[f] = urange(-1, 1);
    for (size_t i = 0; i < m; i++) {
        double s = urange(-0.5, 0.5);
        for (size_t f = 0; f < d && f < 8; f++) {
            float v = T->tr.X.x[f * m + i];
            s += w[f] * (isnan(v) ? 0.0 : v);
        }
        u[i] = (s > 0 ? 1.0 : -1.0) * urange(0.1, 1.0);
        if (urand() < 0.05)
            u[i] = 0.0;
    }
    return u;
}

struct fitted {
    int rc;
    char err[BL_ERR_MAX];
    void *hyp;
    double edge;
    double *out;
    char text[65536];
};

static const struct bl_weak_ops *ops_of(const struct bl_plugin *p)
{
    return p->ops;
}

/* Fit plugin p (defaults, then `name = value` overrides) with host threads. */
static void fit_with(const struct bl_plugin *p, const struct tset *T, const double *u, size_t c,
                     uint64_t seed, int threads, const char *pname, double pval, struct fitted *F)
{
    union bl_value v[16];
    test_defaults(p, v);
    if (pname) {
        int j = test_param_index(p, pname);
        if (p->params[j].type == BL_PARAM_INT)
            v[j].i = (int64_t)pval;
        else if (p->params[j].type == BL_PARAM_CHOICE)
            v[j].choice = (int)pval;
        else
            v[j].r = pval;
    }
    struct bl_host host = test_host;
    host.threads = threads;
    char err[BL_ERR_MAX] = "";
    void *L = ops_of(p)->create(&host, v, &T->tr, err);
    cr_assert_not_null(L, "%s: create: %s", p->name, err);
    memset(F, 0, sizeof *F);
    F->out = calloc(T->tr.m * c, sizeof *F->out);
    struct bl_fit_request rq = {.G = u, .c = c, .seed = seed};
    struct bl_fit_result rs = {.out = F->out};
    F->rc = ops_of(p)->fit(L, &rq, &rs, F->err);
    F->hyp = rs.hyp;
    F->edge = rs.edge;
    if (F->rc == 0) {
        cr_assert_not_null(F->hyp);
        cr_assert_eq(rs.outdim, 1);
        cr_assert_eq(ops_of(p)->outdim(F->hyp), 1);
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

static double sum_abs(const double *u, size_t m)
{
    double s = 0.0;
    for (size_t i = 0; i < m; i++)
        s += fabs(u[i]);
    return s;
}

static const struct bl_plugin *perceptron(void)
{
    return test_plugin("plugins/weak/perceptron", "perceptron");
}

static const struct bl_plugin *linsvm(void)
{
    return test_plugin("plugins/weak/linsvm", "linsvm");
}

/* The best stump's edge (stump plugin, criterion max, c = 1). */
static double stump_edge(const struct tset *T, const double *u)
{
    const struct bl_plugin *p = test_plugin("plugins/weak/stump", "stump");
    struct fitted F;
    fit_with(p, T, u, 1, 1, 1, NULL, 0, &F);
    cr_assert_eq(F.rc, 0, "stump: %s", F.err);
    double e = F.edge;
    fitted_free(p, &F);
    return e;
}

/* edge == sum u_r predict_r, >= 0, and fit's outputs are predict's. */
static void check_edge(const struct bl_plugin *p, const struct tset *T, const double *u,
                       const struct fitted *F)
{
    size_t m = T->tr.m;
    double *h = malloc(m * sizeof *h), e = 0.0;
    ops_of(p)->predict(F->hyp, &T->tr.X, h);
    for (size_t i = 0; i < m; i++) {
        cr_assert(h[i] == 1.0 || h[i] == -1.0, "%s: predict[%zu] = %g", p->name, i, h[i]);
        cr_assert_eq(h[i], F->out[i], "%s: fit output %zu is %g, predict %g", p->name, i,
                     F->out[i], h[i]);
        e += u[i] * h[i];
    }
    cr_assert(F->edge >= 0.0, "%s: edge %g < 0", p->name, F->edge);
    cr_assert(fabs(F->edge - e) <= 1e-12 * sum_abs(u, m), "%s: edge %.17g, predict gives %.17g",
              p->name, F->edge, e);
    free(h);
}

Test(weak_struct, edge_is_predicted_correlation)
{
    const struct bl_plugin *ps[2] = {perceptron(), linsvm()};
    for (int q = 0; q < 2; q++)
        for (uint64_t s = 1; s <= 4; s++) {
            struct tset *T = random_set(300, 5, s % 2 ? 0.1 : 0.0, s);
            double *u = random_u(T, s + 100);
            struct fitted F;
            fit_with(ps[q], T, u, 1, s, 1, NULL, 0, &F);
            cr_assert_eq(F.rc, 0, "%s: %s", ps[q]->name, F.err);
            check_edge(ps[q], T, u, &F);
            fitted_free(ps[q], &F);
            free(u);
            tset_free(T);
        }
}

Test(weak_struct, perceptron_never_below_best_stump)
{
    const struct bl_plugin *p = perceptron();
    int better = 0;
    for (uint64_t s = 1; s <= 6; s++) {
        struct tset *T = random_set(200, 4, 0.0, s + 10);
        double *u = random_u(T, s + 20);
        double se = stump_edge(T, u), tol = 1e-12 * sum_abs(u, T->tr.m);
        struct fitted F, F0;
        fit_with(p, T, u, 1, s, 1, NULL, 0, &F);
        fit_with(p, T, u, 1, s, 1, "iterations", 0, &F0);
        cr_assert_eq(F.rc, 0, "%s", F.err);
        cr_assert_eq(F0.rc, 0, "%s", F0.err);
        check_edge(p, T, u, &F);
        check_edge(p, T, u, &F0);
        cr_assert(F.edge >= se - tol, "perceptron edge %.17g below the best stump's %.17g", F.edge,
                  se);
        cr_assert(fabs(F0.edge - se) <= tol, "iterations = 0: edge %.17g, best stump %.17g",
                  F0.edge, se);
        better += F.edge > se + tol;
        /* init = linear keeps the stump as a candidate too */
        struct fitted F1;
        fit_with(p, T, u, 1, s, 1, "init", 1, &F1);
        cr_assert_eq(F1.rc, 0, "%s", F1.err);
        check_edge(p, T, u, &F1);
        cr_assert(F1.edge >= se - tol, "init=linear: edge %.17g below the stump's %.17g", F1.edge,
                  se);
        fitted_free(p, &F1);
        fitted_free(p, &F);
        fitted_free(p, &F0);
        free(u);
        tset_free(T);
    }
    /* the weights follow oblique rules: L-BFGS must improve on the stump */
    cr_assert(better >= 4, "the perceptron beat the stump on only %d of 6 problems", better);
}

/* Points of [-1, 1]^2 away from the line x0 + x1 = 0.2, u_r = side * weight. */
static struct tset *separable(size_t m, double **uout)
{
    rng_seed(77);
    float *x = malloc(2 * m * sizeof *x);
    double *u = malloc(m * sizeof *u);
    for (size_t i = 0; i < m;) {
        double a = urange(-1, 1), b = urange(-1, 1), s = a + b - 0.2;
        if (fabs(s) < 0.25)
            continue;
        x[i] = (float)a, x[m + i] = (float)b;
        u[i] = (s > 0 ? 1.0 : -1.0) * urange(0.5, 1.5);
        i++;
    }
    *uout = u;
    return tset_new(m, 2, x);
}

Test(weak_struct, separates_a_linearly_separable_set)
{
    double *u;
    struct tset *T = separable(200, &u);
    double total = sum_abs(u, 200), se = stump_edge(T, u);
    cr_assert(se < total - 0.5, "a stump separates the set (edge %g of %g): bad test", se, total);
    const struct bl_plugin *ps[2] = {perceptron(), linsvm()};
    for (int q = 0; q < 2; q++) {
        struct fitted F;
        fit_with(ps[q], T, u, 1, 3, 1, NULL, 0, &F);
        cr_assert_eq(F.rc, 0, "%s: %s", ps[q]->name, F.err);
        check_edge(ps[q], T, u, &F);
        cr_assert(fabs(F.edge - total) <= 1e-9 * total, "%s: edge %.17g, sum |u| = %.17g (%s)",
                  ps[q]->name, F.edge, total, F.text);
        fitted_free(ps[q], &F);
    }
    /* flipping u flips the answer: still separated, edge >= 0 */
    for (size_t i = 0; i < 200; i++)
        u[i] = -u[i];
    for (int q = 0; q < 2; q++) {
        struct fitted F;
        fit_with(ps[q], T, u, 1, 3, 1, NULL, 0, &F);
        cr_assert_eq(F.rc, 0, "%s: %s", ps[q]->name, F.err);
        check_edge(ps[q], T, u, &F);
        cr_assert(fabs(F.edge - total) <= 1e-9 * total, "%s (-u): edge %.17g, sum |u| = %.17g",
                  ps[q]->name, F.edge, total);
        fitted_free(ps[q], &F);
    }
    free(u);
    tset_free(T);
}

Test(weak_struct, save_load_round_trip)
{
    const struct bl_plugin *ps[2] = {perceptron(), linsvm()};
    struct tset *T = random_set(150, 4, 0.1, 5);
    double *u = random_u(T, 6);
    size_t mt = 160, d = 4;
    float *xt = malloc(mt * d * sizeof *xt);
    rng_seed(9);
    for (size_t j = 0; j < mt * d; j++) {
        size_t i = j % mt;
        xt[j] = i == 0 ? NAN : i == 1 ? FLT_MAX : i == 2 ? -FLT_MAX : i == 3 ? 1e30f
                                                                    : (float)urange(-3, 3);
    }
    struct bl_matrix Xt = {mt, d, xt};
    for (int q = 0; q < 2; q++) {
        const struct bl_weak_ops *o = ops_of(ps[q]);
        struct fitted F;
        fit_with(ps[q], T, u, 1, 1, 1, NULL, 0, &F);
        cr_assert_eq(F.rc, 0, "%s", F.err);
        cr_assert_null(strchr(F.text, '\n'));
        char err[BL_ERR_MAX] = "";
        void *h = o->load(F.text, d, err);
        cr_assert_not_null(h, "%s: load \"%s\": %s", ps[q]->name, F.text, err);
        char again[65536];
        o->save(h, again, sizeof again);
        cr_assert_str_eq(again, F.text);
        double *a = malloc(mt * sizeof *a), *b = malloc(mt * sizeof *b);
        o->predict(F.hyp, &Xt, a);
        o->predict(h, &Xt, b);
        cr_assert_eq(memcmp(a, b, mt * sizeof *a), 0, "%s: loaded predicts differently",
                     ps[q]->name);
        for (size_t i = 0; i < mt; i++)
            cr_assert(a[i] == 1.0 || a[i] == -1.0);
        o->predict(F.hyp, &T->tr.X, a);
        o->predict(h, &T->tr.X, b);
        cr_assert_eq(memcmp(a, b, T->tr.m * sizeof *a), 0);
        /* a short buffer: NUL-terminated, the full length returned */
        char small[10];
        memset(small, 'Z', sizeof small);
        int n = o->save(h, small, 6);
        cr_assert_eq((size_t)n, strlen(F.text));
        cr_assert_eq(small[5], 0);
        cr_assert_eq(small[6], 'Z');
        free(a), free(b);
        o->free_hyp(h);
        fitted_free(ps[q], &F);
    }
    free(xt);
    free(u);
    tset_free(T);
}

Test(weak_struct, malformed_text_refused)
{
    static const struct {
        const char *text, *says;
    } bad[] = {
        {"", "bias"},
        {"%%% not a hypothesis %%%", "bias"},
        {"b=1", "terms"},
        {"b= 1 terms=0", "bias"},
        {"b=nan terms=0", "bias"},
        {"b=inf terms=0", "bias"},
        {"b=1 terms=x", "terms"},
        {"b=1 terms=4 0:1:0:1", "3 features"},
        {"b=1 terms=2 0:1:0:1", "term 1"},
        {"b=1 terms=1 0:1:0", "term 0"},
        {"b=1 terms=1 0:1:0:1:5", "unexpected text"},
        {"b=1 terms=1 3:1:0:1", "out of range"},
        {"b=1 terms=1 0:1:0:0", "not positive"},
        {"b=1 terms=1 0:1:0:-2", "not positive"},
        {"b=1 terms=1 0:nan:0:1", "term 0"},
        {"b=1 terms=2 1:1:0:1 0:1:0:1", "increasing"},
        {"b=1 terms=2 1:1:0:1 1:1:0:1", "increasing"},
        {"b=1 terms=0 junk", "unexpected text"},
        {"b=1 terms=1  0:1:0:1", "term 0"},
    };
    const struct bl_plugin *ps[2] = {perceptron(), linsvm()};
    for (int q = 0; q < 2; q++) {
        const struct bl_weak_ops *o = ops_of(ps[q]);
        for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++) {
            char err[BL_ERR_MAX] = "";
            void *h = o->load(bad[j].text, 3, err);
            if (h)
                o->free_hyp(h);
            cr_assert_null(h, "%s accepted \"%s\"", ps[q]->name, bad[j].text);
            cr_assert(strstr(err, bad[j].says), "%s on \"%s\": message \"%s\" does not say \"%s\"",
                      ps[q]->name, bad[j].text, err, bad[j].says);
            cr_assert(strstr(err, ps[q]->name), "message \"%s\" does not name %s", err,
                      ps[q]->name);
        }
        /* and good ones load */
        char err[BL_ERR_MAX] = "";
        const char *good[] = {"b=-1 terms=0", "b=0.5 terms=2 0:1:0:1 2:-3e-5:0x1p-3:2.5 "};
        for (size_t j = 0; j < 2; j++) {
            void *h = o->load(good[j], 3, err);
            cr_assert_not_null(h, "%s refused \"%s\": %s", ps[q]->name, good[j], err);
            o->free_hyp(h);
        }
    }
}

Test(weak_struct, several_columns_refused)
{
    const struct bl_plugin *ps[2] = {perceptron(), linsvm()};
    struct tset *T = random_set(50, 3, 0.0, 3);
    double *G = malloc(50 * 3 * sizeof *G);
    for (size_t j = 0; j < 150; j++)
        G[j] = urange(-1, 1);
    for (int q = 0; q < 2; q++) {
        struct fitted F;
        fit_with(ps[q], T, G, 3, 1, 1, NULL, 0, &F);
        cr_assert_eq(F.rc, -1, "%s accepted c = 3", ps[q]->name);
        cr_assert_null(F.hyp);
        cr_assert(strstr(F.err, "one column") && strstr(F.err, "c = 3"), "%s: message \"%s\"",
                  ps[q]->name, F.err);
        fitted_free(ps[q], &F);
    }
    free(G);
    tset_free(T);
}

Test(weak_struct, deterministic_and_thread_independent)
{
    const struct bl_plugin *ps[2] = {perceptron(), linsvm()};
    /* m * d = 90000: above the threshold where the threads share the work */
    struct tset *T = random_set(3000, 30, 0.05, 8);
    double *u = random_u(T, 9);
    for (int q = 0; q < 2; q++) {
        struct fitted A, B, C;
        fit_with(ps[q], T, u, 1, 42, 1, NULL, 0, &A);
        fit_with(ps[q], T, u, 1, 42, 1, NULL, 0, &B);
        fit_with(ps[q], T, u, 1, 42, 2, NULL, 0, &C);
        cr_assert_eq(A.rc, 0, "%s", A.err);
        cr_assert_eq(B.rc, 0);
        cr_assert_eq(C.rc, 0);
        check_edge(ps[q], T, u, &A);
        cr_assert_str_eq(A.text, B.text, "%s: same seed, different answers", ps[q]->name);
        cr_assert_eq(memcmp(&A.edge, &B.edge, sizeof A.edge), 0);
        cr_assert_str_eq(A.text, C.text, "%s: 1 and 2 threads differ", ps[q]->name);
        cr_assert_eq(memcmp(&A.edge, &C.edge, sizeof A.edge), 0);
        cr_assert_eq(memcmp(A.out, C.out, T->tr.m * sizeof *A.out), 0);
        fitted_free(ps[q], &A);
        fitted_free(ps[q], &B);
        fitted_free(ps[q], &C);
    }
    free(u);
    tset_free(T);
}

Test(weak_struct, linsvm_prune_and_zero_weights)
{
    const struct bl_plugin *p = linsvm();
    double *u;
    struct tset *T = separable(100, &u);
    double total = sum_abs(u, 100);
    /* five tiny weights on the wrong side make the set inseparable; pruning
     * 10% of the non-zero weights removes them, and the SVM separates the
     * rest (edge = total - the five flipped ones) */
    double tiny = 0.0;
    for (size_t i = 0; i < 5; i++) {
        u[i] = -u[i] * 1e-3;
        tiny += fabs(u[i]);
    }
    total = sum_abs(u, 100);
    struct fitted F;
    fit_with(p, T, u, 1, 1, 1, "prune", 0.1, &F);
    cr_assert_eq(F.rc, 0, "%s", F.err);
    check_edge(p, T, u, &F);
    cr_assert(fabs(F.edge - (total - 2 * tiny)) <= 1e-9 * total,
              "prune 0.1: edge %.17g, want %.17g", F.edge, total - 2 * tiny);
    fitted_free(p, &F);
    /* all weights zero: constant answer, edge 0 */
    memset(u, 0, 100 * sizeof *u);
    fit_with(p, T, u, 1, 1, 1, NULL, 0, &F);
    cr_assert_eq(F.rc, 0, "%s", F.err);
    cr_assert_eq(F.edge, 0.0);
    check_edge(p, T, u, &F);
    fitted_free(p, &F);
    free(u);
    tset_free(T);
}

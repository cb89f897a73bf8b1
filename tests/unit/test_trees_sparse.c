/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of the tree learners (plugins/weak/trees) on sparse training
 * sets (SDK 2.1): each data set is held densely and as its sparse twin
 * (sparsify.h), and every learner boosts a few iterations on both, the
 * sparse one getting the class-major requests it asks for
 * (BL_NEEDS_CLASS_MAJOR, SDK 2.2) where the dense one gets row-major ones.
 *   - subtract = false: the sparse path sums every bin directly in example
 *     order, so hypotheses (their text), outputs and edges are the dense
 *     path's bit for bit;
 *   - subtract = true (zero bins from the node's totals, sibling
 *     subtraction): sums differ from direct ones in their last bits, and a
 *     tie between two features that split a node alike (equal gains in
 *     exact arithmetic) then goes either way; at statistics on a grid of
 *     1/8, where every sum is exact, the trees are again bit for bit the
 *     dense ones (which subtract siblings too), which checks the zero bins
 *     and the subtraction's bookkeeping;
 *   - predict_sparse equals predict on the dense matrix, bit for bit, also
 *     with columns the model never saw; exact search is refused.
 * Shapes: a few data sets with many zeros, missing values, tied values
 * and copied features, all-zero and constant features, and a very sparse
 * binary one (bag-of-words like).
 */
#include <criterion/criterion.h>
#include "testutil.h"
#include "weakset.h"
#include "sparsify.h"

/* ---- data sets -------------------------------------------------------------- */

enum shape { SH_MIXED, SH_MISSING, SH_TIES, SH_BINARY, SH_COUNT };

/* m x d values of a shape, labels in 0..k-1 from the first features plus
 * noise. */
static struct tset *make_set(enum shape sh, size_t m, size_t d, size_t k, uint64_t seed)
{
    rng_seed(seed);
    float *x = calloc(m * d, sizeof *x);
    for (size_t f = 0; f < d; f++)
        for (size_t i = 0; i < m; i++) {
            float *v = &x[f * m + i];
            switch (sh) {
            case SH_MIXED: /* 70% zeros, the rest on both sides of 0 */
            case SH_MISSING:
                *v = urand() < 0.7 ? 0.0f : (float)urange(-2, 2);
                if (sh == SH_MISSING && urand() < 0.1)
                    *v = NAN;
                break;
            case SH_TIES: /* few values; feature 1 a copy of 0, 2 twice 0 */
                *v = f == 1 ? x[i] : f == 2 ? 2.0f * x[i] : (float)irand(3) - (f % 2 ? 1.0f : 0.0f);
                break;
            case SH_BINARY:
                *v = urand() < (f < 4 ? 0.25 : 8.0 / (double)d) ? 1.0f : 0.0f;
                break;
            default:
                break;
            }
        }
    if (sh != SH_BINARY) { /* an all-zero and a constant non-zero feature */
        memset(x + (d - 2) * m, 0, m * sizeof *x);
        for (size_t i = 0; i < m; i++)
            x[(d - 1) * m + i] = 0.75f;
    }
    struct tset *T = tset_new(m, d, x);
    for (size_t i = 0; i < m; i++) {
        double s = 0.0;
        for (size_t f = 0; f < 4; f++) {
            float v = x[f * m + i];
            s += (double)(f + 1) * (isnan(v) ? 0.5 : (double)v);
        }
        size_t c = (size_t)fabs(floor(2.0 * s)) % k;
        T->ds.y[i] = (int)(urand() < 0.15 ? irand(k) : c);
    }
    T->ds.k = k;
    T->tr.k = k;
    return T;
}

/* ---- the softmax loss, as the engine hands it to the learners ---------------- */

struct sm {
    size_t m, k;
    const int *y;
    double *F, *G, *H, *U, *Fw;
};

/* G = e_y - p, H = p (1 - p), Hu = p (off-diagonal -p_r p_s) at F. */
static void sm_at(struct sm *L)
{
    size_t k = L->k;
    for (size_t i = 0; i < L->m; i++) {
        const double *f = L->F + i * k;
        double mx = f[0], z = 0.0;
        for (size_t r = 1; r < k; r++)
            mx = f[r] > mx ? f[r] : mx;
        for (size_t r = 0; r < k; r++)
            z += exp(f[r] - mx);
        for (size_t r = 0; r < k; r++) {
            double p = exp(f[r] - mx) / z;
            L->G[i * k + r] = ((int)r == L->y[i]) - p;
            L->H[i * k + r] = p * (1.0 - p);
            L->U[i * k + r] = p;
        }
    }
}

/* Loss at F + 0.1 D (ABC's exhaustive base). */
static double sm_trial(void *ctx, const double *D)
{
    struct sm *L = ctx;
    size_t k = L->k;
    double v = 0.0;
    for (size_t i = 0; i < L->m; i++) {
        const double *f = L->F + i * k;
        double mx = -HUGE_VAL, z = 0.0;
        for (size_t r = 0; r < k; r++)
            mx = fmax(mx, f[r] + 0.1 * D[i * k + r]);
        for (size_t r = 0; r < k; r++)
            z += exp(f[r] + 0.1 * D[i * k + r] - mx);
        v += log(z) + mx - (f[L->y[i]] + 0.1 * D[i * k + L->y[i]]);
    }
    return v;
}

/* Statistics on a grid of 1/8 (G in [-1, 1], H in (0, 1], Hu in [0, 1]):
 * every sum of them, and of a_i, b_i (learners.c), is exact in any order,
 * so subtraction changes no bit. */
static void sm_grid(struct sm *L)
{
    for (size_t j = 0; j < L->m * L->k; j++) {
        L->G[j] = (double)((int)irand(17) - 8) / 8.0;
        L->H[j] = (double)(1 + irand(8)) / 8.0;
        L->U[j] = (double)irand(9) / 8.0;
    }
}

static struct sm sm_new(const struct bl_train *tr)
{
    size_t n = tr->m * tr->k;
    struct sm L = {tr->m, tr->k, tr->y, calloc(n, sizeof(double)), malloc(n * sizeof(double)),
                   malloc(n * sizeof(double)), malloc(n * sizeof(double)), NULL};
    sm_at(&L);
    return L;
}

static void sm_free(struct sm *L)
{
    free(L->F), free(L->G), free(L->H), free(L->U);
}

/* ---- learners ------------------------------------------------------------- */

struct cfg {
    const char *name, *param, *choice; /* one non-default choice, or NULL */
};

static const struct cfg cfgs[] = {
    {"aoso-tree", NULL, NULL},          {"aoso-tree", "pair", "first"},
    {"aoso-tree", "fixed_pair", "true"}, {"diag-tree", NULL, NULL},
    {"class-trees", NULL, NULL},        {"class-trees", "split", "gradient"},
    {"abc-trees", NULL, NULL},          {"abc-trees", "base", "worst"},
};

struct lrn {
    const struct bl_plugin *p;
    union bl_value v[12];
};

static struct lrn lrn_of(const struct cfg *c, int subtract, long leaves)
{
    struct lrn l;
    l.p = test_plugin("plugins/weak/trees", c->name);
    cr_assert_leq(l.p->nparams, 12);
    test_defaults(l.p, l.v);
    l.v[test_param_index(l.p, "subtract")].b = subtract;
    l.v[test_param_index(l.p, "leaves")].i = leaves;
    if (c->param) {
        const struct bl_param_spec *s = &l.p->params[test_param_index(l.p, c->param)];
        if (s->type == BL_PARAM_BOOL)
            l.v[test_param_index(l.p, c->param)].b = strcmp(c->choice, "true") == 0;
        else
            l.v[test_param_index(l.p, c->param)].choice = 1; /* the second choice */
    }
    return l;
}

static const struct bl_weak_ops *ops(const struct lrn *l)
{
    return l->p->ops;
}

/* The request a learner on a sparse set gets: q itself, or, when it needs
 * class-major arrays, q with G, H and Hu transposed into buf (3 m k). */
static struct bl_fit_request sparse_request(const struct bl_weak_ops *o,
                                            const struct bl_fit_request *q, size_t m, double *buf)
{
    struct bl_fit_request r = *q;
    if (o->needs & BL_NEEDS_CLASS_MAJOR)
        bl_fit_request_class_major(&r, m, buf);
    return r;
}

static char *text_of(const struct bl_weak_ops *o, const void *hyp)
{
    int len = o->save(hyp, NULL, 0);
    cr_assert_gt(len, 0);
    char *t = malloc((size_t)len + 1);
    o->save(hyp, t, (size_t)len + 1);
    return t;
}

/* Boosts `iters` iterations of learner c on D and its twin Z side by side
 * and compares every answer bit for bit: without subtraction at the
 * softmax's statistics (F += 0.1 out), with it at fresh grid statistics
 * each iteration (sm_grid). */
static void compare(const struct cfg *c, const struct bl_train *D, const struct sset *Z,
                    int subtract, long leaves, int iters)
{
    struct lrn l = lrn_of(c, subtract, leaves);
    char err[BL_ERR_MAX] = "";
    void *Ld = ops(&l)->create(&test_host, l.v, D, err);
    cr_assert_not_null(Ld, "%s dense: %s", c->name, err);
    void *Ls = ops(&l)->create(&test_host, l.v, &Z->tr, err);
    cr_assert_not_null(Ls, "%s sparse: %s", c->name, err);
    cr_assert_not_null(ops(&l)->predict_sparse, "%s: no predict_sparse", c->name);
    struct sm L = sm_new(D);
    if (subtract)
        sm_grid(&L);
    size_t n = D->m * D->k;
    double *od = malloc(n * sizeof *od), *os = malloc(n * sizeof *os),
           *pd = malloc(n * sizeof *pd), *ps = malloc(n * sizeof *ps),
           *cm = malloc(3 * n * sizeof *cm);
    for (int it = 0; it < iters; it++) {
        struct bl_fit_request q = {.G = L.G, .c = D->k, .H = L.H, .Hu = L.U, .seed = 1,
                                   .trial_loss = sm_trial, .trial_ctx = &L};
        struct bl_fit_request qs = sparse_request(ops(&l), &q, D->m, cm);
        struct bl_fit_result rd = {.out = od}, rs = {.out = os};
        cr_assert_eq(ops(&l)->fit(Ld, &q, &rd, err), 0, "%s dense: %s", c->name, err);
        cr_assert_eq(ops(&l)->fit(Ls, &qs, &rs, err), 0, "%s sparse: %s", c->name, err);
        cr_assert_eq(!rd.moved_out, !rs.moved_out);
        bl_fit_result_expand(&rd, D->m); /* AOSO answers sparse: as the host reads it */
        bl_fit_result_expand(&rs, D->m);
        char *td = text_of(ops(&l), rd.hyp), *ts = text_of(ops(&l), rs.hyp);
        /* predict_sparse on the sparse training set: predict on the dense one */
        ops(&l)->predict(rs.hyp, &D->X, pd);
        ops(&l)->predict_sparse(rs.hyp, &Z->S, ps);
        cr_assert(memcmp(ps, pd, n * sizeof *ps) == 0, "%s: predict_sparse != predict", c->name);
        cr_assert_str_eq(ts, td, "%s (%s=%s, subtract=%d) iteration %d: sparse and dense "
                         "trees differ", c->name, c->param ? c->param : "",
                         c->choice ? c->choice : "", subtract, it);
        cr_assert(memcmp(os, od, n * sizeof *os) == 0, "%s: outputs differ", c->name);
        cr_assert(memcmp(&rs.edge, &rd.edge, sizeof rd.edge) == 0, "%s: edge %.17g vs %.17g",
                  c->name, rs.edge, rd.edge);
        cr_assert_eq(rs.trees, rd.trees);
        for (size_t j = 0; j < n; j++)
            L.F[j] += 0.1 * od[j];
        if (subtract)
            sm_grid(&L);
        else
            sm_at(&L);
        free(td), free(ts);
        ops(&l)->free_hyp(rd.hyp), ops(&l)->free_hyp(rs.hyp);
    }
    free(od), free(os), free(pd), free(ps), free(cm);
    sm_free(&L);
    ops(&l)->destroy(Ld), ops(&l)->destroy(Ls);
}

/* Every learner on every shape, J = 20 (sibling subtraction) and J = 2. */
static void check_all(int subtract)
{
    static const size_t dims[SH_COUNT][3] = {
        [SH_MIXED] = {300, 10, 3}, [SH_MISSING] = {250, 8, 4},
        [SH_TIES] = {200, 7, 3}, [SH_BINARY] = {400, 2000, 5}};
    for (int sh = 0; sh < SH_COUNT; sh++) {
        struct tset *T = make_set((enum shape)sh, dims[sh][0], dims[sh][1], dims[sh][2],
                                  40 + (uint64_t)sh);
        struct sset *Z = sparsify(&T->tr);
        cr_assert_lt(Z->S.nnz, T->tr.m * T->tr.d, "shape %d has no zeros", sh);
        for (size_t c = 0; c < sizeof cfgs / sizeof *cfgs; c++) {
            compare(&cfgs[c], &T->tr, Z, subtract, 20, 3);
            compare(&cfgs[c], &T->tr, Z, subtract, 2, 1);
        }
        sset_free(Z);
        tset_free(T);
    }
}

Test(trees_sparse, direct_sums_bit_identical) { check_all(0); }

Test(trees_sparse, zero_bin_subtraction_same_trees) { check_all(1); }

/* A matrix wider than the training set's (a test file with features the
 * model never saw): those columns are ignored. */
Test(trees_sparse, predict_ignores_unseen_columns)
{
    struct tset *T = make_set(SH_MIXED, 200, 6, 3, 7);
    struct sset *Z = sparsify(&T->tr);
    struct lrn l = lrn_of(&cfgs[0], 1, 8);
    char err[BL_ERR_MAX] = "";
    void *L = ops(&l)->create(&test_host, l.v, &Z->tr, err);
    cr_assert_not_null(L, "%s", err);
    struct sm S = sm_new(&T->tr);
    size_t n = T->tr.m * T->tr.k;
    double *out = malloc(n * sizeof *out), *pw = malloc(n * sizeof *pw),
           *cm = malloc(3 * n * sizeof *cm);
    struct bl_fit_request q0 = {.G = S.G, .c = T->tr.k, .H = S.H, .Hu = S.U, .seed = 1};
    struct bl_fit_request q = sparse_request(ops(&l), &q0, T->tr.m, cm);
    struct bl_fit_result r = {.out = out};
    cr_assert_eq(ops(&l)->fit(L, &q, &r, err), 0, "%s", err);
    bl_fit_result_expand(&r, T->tr.m);
    /* every row gets two more entries, in columns d and d + 3 */
    size_t m = T->tr.m, nnz = Z->S.nnz + 2 * m;
    size_t *rptr = malloc((m + 1) * sizeof *rptr);
    uint32_t *rcol = malloc(nnz * sizeof *rcol);
    float *rval = malloc(nnz * sizeof *rval);
    size_t e = 0;
    rptr[0] = 0;
    for (size_t i = 0; i < m; i++) {
        for (size_t k = Z->S.rptr[i]; k < Z->S.rptr[i + 1]; k++)
            rcol[e] = Z->S.rcol[k], rval[e++] = Z->S.rval[k];
        rcol[e] = (uint32_t)T->tr.d, rval[e++] = 5.0f;
        rcol[e] = (uint32_t)T->tr.d + 3, rval[e++] = -5.0f;
        rptr[i + 1] = e;
    }
    struct bl_sparse W = {m, T->tr.d + 4, nnz, rptr, rcol, rval, NULL, NULL, NULL};
    ops(&l)->predict_sparse(r.hyp, &W, pw);
    cr_assert(memcmp(pw, out, n * sizeof *out) == 0, "unseen columns changed the outputs");
    ops(&l)->free_hyp(r.hyp);
    ops(&l)->destroy(L);
    free(out), free(pw), free(cm), free(rptr), free(rcol), free(rval);
    sm_free(&S);
    sset_free(Z);
    tset_free(T);
}

Test(trees_sparse, exact_search_refused)
{
    struct tset *T = make_set(SH_BINARY, 50, 8, 2, 3);
    struct sset *Z = sparsify(&T->tr);
    struct lrn l = lrn_of(&cfgs[3], 1, 4);
    l.v[test_param_index(l.p, "search")].choice = 1; /* exact */
    char err[BL_ERR_MAX] = "";
    cr_assert_null(ops(&l)->create(&test_host, l.v, &Z->tr, err));
    cr_assert(strstr(err, "search = exact") != NULL, "message: %s", err);
    sset_free(Z);
    tset_free(T);
}

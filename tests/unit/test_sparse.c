/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sparse data sets: the LIBSVM reader's sparse form, the sparse quantized
 * view against the dense one, subsets and feature drops of sparse sets,
 * features = N, and the stump's sparse search against its dense one. */
#include <criterion/criterion.h>

#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/dataset.h"
#include "data/quantize.h"

#define TD(rel) BL_TEST_DATA "/" rel

static bl_libsvm_opts sparse_opts(size_t d_hint, int ignore, size_t *ignored)
{
    bl_libsvm_opts o = {d_hint, BL_LIBSVM_LABELED, BL_STORAGE_SPARSE, ignore, ignored};
    return o;
}

/* Dense m x d values with about a third zeros, some NaN, negatives, ties. */
static void random_dense(size_t m, size_t d, bl_dataset *ds)
{
    memset(ds, 0, sizeof *ds);
    ds->m = m;
    ds->d = d;
    ds->k = 2;
    ds->y = malloc(m * sizeof *ds->y);
    ds->x = malloc(m * d * sizeof *ds->x);
    for (size_t i = 0; i < m; i++)
        ds->y[i] = (int)(i % 2);
    for (size_t j = 0; j < m * d; j++) {
        double u = urand();
        size_t f = j / m;
        ds->x[j] = f % 5 == 4 ? 0.0f /* an all-zero feature */
                   : u < 0.35 ? 0.0f
                   : u < 0.40 ? NAN
                   : f % 3 == 0 ? (float)irand(4) - 1.5f /* few values, ties */
                                : (float)urange(-3, 5);
    }
    if (d > 1 && m > 0)
        ds->x[1 * m + 0] = -0.0f; /* -0 is the value 0 */
    ds->feature_names = calloc(d, sizeof *ds->feature_names);
    for (size_t f = 0; f < d; f++) {
        char b[32];
        ds->feature_names[f] = strdup(bl_feature_name(NULL, f, b));
    }
    ds->class_names = calloc(2, sizeof *ds->class_names);
    ds->class_names[0] = strdup("a");
    ds->class_names[1] = strdup("b");
}

/* Bins of the sparse view equal the dense view's, entry by entry, and the
 * zero bin equals the dense bin of every unstored entry. */
static void assert_same_view(const bl_dataset *dense, const bl_qview *qd, const bl_dataset *sp,
                             const bl_qview *qs)
{
    size_t m = dense->m;
    cr_assert_null(qs->bins);
    cr_assert_not_null(qs->zbin);
    for (size_t f = 0; f < dense->d; f++) {
        cr_assert_eq(qd->nbins[f], qs->nbins[f], "feature %zu: %u vs %u bins", f,
                     qd->nbins[f], qs->nbins[f]);
        for (unsigned b = 0; b + 1 < qd->nbins[f]; b++)
            cr_assert(memcmp(&qd->cut[f][b], &qs->cut[f][b], sizeof(float)) == 0,
                      "feature %zu cut %u: %.9g vs %.9g", f, b, qd->cut[f][b], qs->cut[f][b]);
        const bl_spmat *s = sp->sp;
        size_t e = s->cptr[f];
        for (size_t i = 0; i < m; i++) {
            uint8_t want = qd->bins[f * m + i];
            if (e < s->cptr[f + 1] && s->crow[e] == i)
                cr_assert_eq(qs->cbin[e++], want, "feature %zu row %zu", f, i);
            else
                cr_assert_eq(qs->zbin[f], want, "feature %zu row %zu (zero)", f, i);
        }
    }
    /* the row order holds the same bins */
    const bl_spmat *s = sp->sp;
    for (size_t i = 0; i < m; i++)
        for (size_t e = s->rptr[i]; e < s->rptr[i + 1]; e++)
            cr_assert_eq(qs->rbin[e], qd->bins[(size_t)s->rcol[e] * m + i]);
}

Test(sparse, reader_keeps_entries_not_rows_times_features)
{
    bl_dataset ds, dn;
    bl_error err;
    size_t ign = 7;
    bl_libsvm_opts o = sparse_opts(0, 0, &ign);
    cr_assert_eq(bl_read_libsvm_opts(TD("libsvm/good.svm"), &o, NULL, &ds, &err), 0, "%s",
                 err.msg);
    cr_assert_eq(ign, 0);
    cr_assert_null(ds.x);
    cr_assert_null(ds.feature_names, "names are implied, not m strings");
    cr_assert_not_null(ds.sp);
    cr_assert_eq(ds.m, 4);
    cr_assert_eq(ds.d, 4);
    cr_assert_eq(ds.sp->nnz, 9);
    /* CSC holds the same entries, rows increasing */
    cr_assert_eq(ds.sp->cptr[4], 9);
    for (size_t f = 0; f < 4; f++)
        for (size_t e = ds.sp->cptr[f] + 1; e < ds.sp->cptr[f + 1]; e++)
            cr_assert_lt(ds.sp->crow[e - 1], ds.sp->crow[e]);
    cr_assert_eq(bl_read_libsvm(TD("libsvm/good.svm"), 0, NULL, &dn, &err), 0);
    bl_dataset back;
    cr_assert_eq(bl_dataset_dense_copy(&ds, &back, &err), 0);
    cr_assert_eq(memcmp(back.x, dn.x, 16 * sizeof(float)), 0);
    for (size_t f = 0; f < 4; f++)
        cr_assert_str_eq(back.feature_names[f], dn.feature_names[f]);
    cr_assert_eq(memcmp(ds.y, dn.y, 4 * sizeof(int)), 0);
    bl_dataset_free(&back);
    bl_dataset_free(&dn);
    bl_dataset_free(&ds);
}

Test(sparse, auto_storage_by_density)
{
    cr_assert(bl_storage_sparse_pays(1000, 100000, 41000));
    cr_assert(!bl_storage_sparse_pays(100, 10, 900));
    cr_assert_eq(bl_storage_parse("auto"), BL_STORAGE_AUTO);
    cr_assert_eq(bl_storage_parse("sparse"), BL_STORAGE_SPARSE);
    cr_assert_eq(bl_storage_parse("Sparse"), -1);
    bl_dataset ds;
    bl_error err;
    /* good.svm: 9 entries in 4 x 4 cells is dense by the rule */
    bl_libsvm_opts o = {0, BL_LIBSVM_LABELED, BL_STORAGE_AUTO, 0, NULL};
    cr_assert_eq(bl_read_libsvm_opts(TD("libsvm/good.svm"), &o, NULL, &ds, &err), 0);
    cr_assert_not_null(ds.x);
    cr_assert_null(ds.sp);
    bl_dataset_free(&ds);
}

Test(sparse, errors_name_file_line_token)
{
    bl_dataset ds;
    bl_error err;
    bl_libsvm_opts o = sparse_opts(0, 0, NULL);
    cr_assert_eq(bl_read_libsvm_opts(TD("libsvm/unsorted.svm"), &o, NULL, &ds, &err), -1);
    cr_assert(strstr(err.msg, "unsorted.svm:") && strstr(err.msg, "token"), "%s", err.msg);
    cr_assert_null(ds.sp);
    cr_assert_eq(bl_read_libsvm_opts(TD("libsvm/nanvalue.svm"), &o, NULL, &ds, &err), -1);
    cr_assert(strstr(err.msg, "nanvalue.svm:"), "%s", err.msg);
}

Test(sparse, features_n_ignores_and_counts_larger_indices)
{
    bl_dataset ds;
    bl_error err;
    size_t ign = 0;
    bl_libsvm_opts o = sparse_opts(2, 1, &ign);
    cr_assert_eq(bl_read_libsvm_opts(TD("libsvm/good.svm"), &o, NULL, &ds, &err), 0, "%s",
                 err.msg);
    cr_assert_eq(ds.d, 2);
    cr_assert_eq(ign, 5, "entries of features 3 and 4: %zu", ign);
    cr_assert_eq(ds.sp->nnz, 4);
    bl_dataset_free(&ds);
    /* without ignore_beyond the same width is refused, naming the place */
    o.ignore_beyond = 0;
    cr_assert_eq(bl_read_libsvm_opts(TD("libsvm/good.svm"), &o, NULL, &ds, &err), -1);
    cr_assert(strstr(err.msg, "good.svm:2: token 3") &&
              strstr(err.msg, "exceeds the number of features (2)"), "%s", err.msg);
}

Test(sparse, bins_equal_dense_bins)
{
    rng_seed(37);
    int nbins[] = {2, 4, 16, 256};
    for (size_t t = 0; t < 4; t++) {
        bl_dataset dense, sp;
        bl_error err;
        random_dense(300, 11, &dense);
        cr_assert_eq(bl_dataset_dense_copy(&dense, &sp, &err), 0);
        cr_assert_eq(bl_dataset_sparsify(&sp, &err), 0);
        cr_assert_null(sp.x);
        bl_qview qd, qs;
        cr_assert_eq(bl_quantize(&dense, nbins[t], &qd, &err), 0);
        cr_assert_eq(bl_quantize(&sp, nbins[t], &qs, &err), 0);
        assert_same_view(&dense, &qd, &sp, &qs);
        struct bl_train tv;
        bl_train_view(&sp, &qs, &tv);
        cr_assert_not_null(tv.S);
        cr_assert_not_null(tv.SQ);
        cr_assert_null(tv.X.x);
        cr_assert_null(tv.Q.bins);
        bl_qview_free(&qd);
        bl_qview_free(&qs);
        bl_dataset_free(&dense);
        bl_dataset_free(&sp);
    }
}

Test(sparse, subset_and_drop_match_dense)
{
    rng_seed(5);
    bl_dataset dense, sp, a, b, c;
    bl_error err;
    random_dense(50, 6, &dense);
    cr_assert_eq(bl_dataset_dense_copy(&dense, &sp, &err), 0);
    cr_assert_eq(bl_dataset_sparsify(&sp, &err), 0);
    size_t rows[] = {49, 3, 3, 17, 0};
    cr_assert_eq(bl_dataset_subset(&dense, rows, 5, &a, &err), 0);
    cr_assert_eq(bl_dataset_subset(&sp, rows, 5, &b, &err), 0);
    cr_assert_not_null(b.sp);
    cr_assert_eq(bl_dataset_dense_copy(&b, &c, &err), 0);
    cr_assert_eq(memcmp(a.x, c.x, 5 * 6 * sizeof(float)), 0);
    cr_assert_eq(memcmp(a.y, c.y, 5 * sizeof(int)), 0);
    bl_dataset_free(&c);
    cr_assert_eq(bl_dataset_drop_features(&a, "f2, f5", &err), 0, "%s", err.msg);
    cr_assert_eq(bl_dataset_drop_features(&b, "f2, f5", &err), 0, "%s", err.msg);
    cr_assert_eq(b.d, 4);
    cr_assert_str_eq(b.feature_names[1], "f3", "kept features keep their names");
    cr_assert_eq(bl_dataset_dense_copy(&b, &c, &err), 0);
    cr_assert_eq(memcmp(a.x, c.x, 5 * 4 * sizeof(float)), 0);
    cr_assert_eq(bl_dataset_drop_features(&b, "f9", &err), -1);
    cr_assert(strstr(err.msg, "no feature named 'f9'"), "%s", err.msg);
    bl_dataset_free(&a);
    bl_dataset_free(&b);
    bl_dataset_free(&c);
    bl_dataset_free(&sp);
    bl_dataset_free(&dense);
}

/* random_dense and the same set held sparsely, both quantized (32 bins)
 * and viewed as training sets. */
static void random_pair(size_t m, size_t d, bl_dataset *dense, bl_dataset *sp, bl_qview *qd,
                        bl_qview *qs, struct bl_train *td, struct bl_train *ts)
{
    bl_error err;
    random_dense(m, d, dense);
    cr_assert_eq(bl_dataset_dense_copy(dense, sp, &err), 0);
    cr_assert_eq(bl_dataset_sparsify(sp, &err), 0);
    cr_assert_eq(bl_quantize(dense, 32, qd, &err), 0);
    cr_assert_eq(bl_quantize(sp, 32, qs, &err), 0);
    bl_train_view(dense, qd, td);
    bl_train_view(sp, qs, ts);
}

static void pair_free(bl_dataset *dense, bl_dataset *sp, bl_qview *qd, bl_qview *qs)
{
    bl_qview_free(qd);
    bl_qview_free(qs);
    bl_dataset_free(dense);
    bl_dataset_free(sp);
}

/* The stump on a set and on the same set held sparsely: same hypothesis
 * text and outputs, fit after fit, for every criterion; predict_sparse
 * equals predict. */
Test(sparse, stump_sparse_equals_dense)
{
    const struct bl_plugin *p = test_plugin("plugins/weak/stump", "stump");
    const struct bl_weak_ops *wo = p->ops;
    cr_assert_not_null(wo->predict_sparse);
    const char *crit[] = {"max", "l2", "each", "vote", "leafclass"};
    int ci = test_param_index(p, "criterion");
    rng_seed(11);
    for (size_t t = 0; t < 5; t++) {
        bl_dataset dense, sp;
        bl_qview qd, qs;
        struct bl_train td, ts;
        random_pair(200, 9, &dense, &sp, &qd, &qs, &td, &ts);
        union bl_value v[8];
        test_defaults(p, v);
        v[ci].choice = (int)t;
        char msg[BL_ERR_MAX];
        void *wd = wo->create(&test_host, v, &td, msg), *ws = wo->create(&test_host, v, &ts, msg);
        cr_assert(wd && ws, "%s: %s", crit[t], msg);
        size_t m = dense.m, c = 3;
        double *G = malloc(m * c * sizeof *G), *od = malloc(m * c * sizeof *od),
               *os = malloc(m * c * sizeof *os);
        for (int fit = 0; fit < 4; fit++) {
            for (size_t j = 0; j < m * c; j++) /* dyadic: every sum is exact */
                G[j] = (double)((int)irand(17) - 8) / 8.0;
            struct bl_fit_request rq = {0};
            rq.G = G;
            rq.c = c;
            struct bl_fit_result rd = {.out = od}, rs = {.out = os};
            cr_assert_eq(wo->fit(wd, &rq, &rd, msg), 0, "%s", msg);
            cr_assert_eq(wo->fit(ws, &rq, &rs, msg), 0, "%s", msg);
            char hd[4096], hs[4096];
            wo->save(rd.hyp, hd, sizeof hd);
            wo->save(rs.hyp, hs, sizeof hs);
            cr_assert_str_eq(hd, hs, "criterion %s fit %d", crit[t], fit);
            cr_assert_eq(rd.edge, rs.edge, "criterion %s fit %d", crit[t], fit);
            size_t od_n = rd.outdim * m;
            cr_assert_eq(memcmp(od, os, od_n * sizeof *od), 0, "criterion %s", crit[t]);
            struct bl_matrix X = {m, dense.d, dense.x};
            wo->predict(rd.hyp, &X, od);
            wo->predict_sparse(rs.hyp, &sp.sp->view, os);
            cr_assert_eq(memcmp(od, os, od_n * sizeof *od), 0, "criterion %s", crit[t]);
            wo->free_hyp(rd.hyp);
            wo->free_hyp(rs.hyp);
        }
        free(G);
        free(od);
        free(os);
        wo->destroy(wd);
        wo->destroy(ws);
        pair_free(&dense, &sp, &qd, &qs);
    }
}

/* A saved linear hypothesis' bias and weights v by feature (0 elsewhere). */
static void lin_parse(const char *text, size_t d, double *b, double *v)
{
    int n, used;
    cr_assert_eq(sscanf(text, "b=%lf terms=%d%n", b, &n, &used), 2, "%s", text);
    memset(v, 0, d * sizeof *v);
    const char *p = text + used;
    for (int j = 0; j < n; j++) {
        size_t f;
        double w, mu, sd;
        cr_assert_eq(sscanf(p, " %zu:%lf:%lf:%lf%n", &f, &w, &mu, &sd, &used), 4, "%s", p);
        cr_assert_lt(f, d);
        v[f] = w;
        p += used;
    }
}

/* A linear learner (linsvm, perceptron) on a set and on the same set held
 * sparsely (implicit centering, no dense copy): the same weights to
 * rounding (1e-6 of their scale), the same outputs and edge (1e-9) fit
 * after fit; predict_sparse equals predict bit for bit.  u is dyadic, so
 * the perceptron's stump sums are exact on both paths. */
static void linear_sparse_matches_dense(const struct bl_plugin *p, const union bl_value *v,
                                        unsigned seed)
{
    const struct bl_weak_ops *wo = p->ops;
    cr_assert_not_null(wo->predict_sparse);
    rng_seed(seed);
    for (int t = 0; t < 3; t++) {
        bl_dataset dense, sp;
        bl_qview qd, qs;
        struct bl_train td, ts;
        size_t m = 150, d = 12;
        random_pair(m, d, &dense, &sp, &qd, &qs, &td, &ts);
        cr_assert_not_null(ts.S);
        cr_assert_null(ts.X.x);
        char msg[BL_ERR_MAX];
        void *wd = wo->create(&test_host, v, &td, msg), *ws = wo->create(&test_host, v, &ts, msg);
        cr_assert(wd && ws, "%s: %s", p->name, msg);
        double *u = malloc(m * sizeof *u), *od = malloc(m * sizeof *od),
               *os = malloc(m * sizeof *os), *vd = malloc(d * sizeof *vd),
               *vs = malloc(d * sizeof *vs);
        for (int fit = 0; fit < 3; fit++) {
            for (size_t i = 0; i < m; i++)
                u[i] = (double)((int)irand(17) - 8 + (dense.x[i] > 0 ? 4 : 0)) / 8.0;
            struct bl_fit_request rq = {0};
            rq.G = u;
            rq.c = 1;
            rq.seed = 7 + (uint64_t)fit;
            struct bl_fit_result rd = {.out = od}, rs = {.out = os};
            cr_assert_eq(wo->fit(wd, &rq, &rd, msg), 0, "%s", msg);
            cr_assert_eq(wo->fit(ws, &rq, &rs, msg), 0, "%s", msg);
            char hd[8192], hs[8192];
            cr_assert_lt(wo->save(rd.hyp, hd, sizeof hd), (int)sizeof hd);
            cr_assert_lt(wo->save(rs.hyp, hs, sizeof hs), (int)sizeof hs);
            double bd, bs, vmax = 0.0;
            lin_parse(hd, d, &bd, vd);
            lin_parse(hs, d, &bs, vs);
            for (size_t f = 0; f < d; f++)
                vmax = fmax(vmax, fabs(vd[f]));
            vmax = fmax(vmax, fabs(bd)); /* the scale of the solution */
            cr_assert_leq(fabs(bd - bs), 1e-6 * vmax, "%s\n%s", hd, hs);
            for (size_t f = 0; f < d; f++)
                cr_assert_leq(fabs(vd[f] - vs[f]), 1e-6 * vmax, "%s t %d fit %d feature %zu:\n%s\n%s",
                              p->name, t, fit, f, hd, hs);
            cr_assert_eq(memcmp(od, os, m * sizeof *od), 0, "%s t %d fit %d", p->name, t, fit);
            cr_assert_leq(fabs(rd.edge - rs.edge), 1e-9, "%s t %d fit %d", p->name, t, fit);
            struct bl_matrix X = {m, d, dense.x};
            wo->predict(rs.hyp, &X, od);
            wo->predict_sparse(rs.hyp, &sp.sp->view, os);
            cr_assert_eq(memcmp(od, os, m * sizeof *od), 0, "%s t %d fit %d", p->name, t, fit);
            wo->free_hyp(rd.hyp);
            wo->free_hyp(rs.hyp);
        }
        free(u), free(od), free(os), free(vd), free(vs);
        wo->destroy(wd);
        wo->destroy(ws);
        pair_free(&dense, &sp, &qd, &qs);
    }
}

/* linsvm with a tight eps: both solve to the one optimum. */
Test(sparse, linsvm_sparse_matches_dense)
{
    const struct bl_plugin *p = test_plugin("plugins/weak/linsvm", "linsvm");
    union bl_value v[8];
    test_defaults(p, v);
    v[test_param_index(p, "c")].r = 1.0;
    v[test_param_index(p, "eps")].r = 1e-9;
    v[test_param_index(p, "epochs")].i = 100000;
    linear_sparse_matches_dense(p, v, 12);
}

/* perceptron from the stump and from the linear start. */
Test(sparse, perceptron_sparse_matches_dense)
{
    const struct bl_plugin *p = test_plugin("plugins/weak/perceptron", "perceptron");
    union bl_value v[8];
    test_defaults(p, v);
    linear_sparse_matches_dense(p, v, 13);
    v[test_param_index(p, "init")].choice = 1;
    linear_sparse_matches_dense(p, v, 14);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The boosting engine end to end: the k = 2 equivalence with discrete
 * AdaBoost (spec §5.3), monotone training loss, thread-count independence,
 * the dual stopping rule, and model files. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <unistd.h>

#include "data/quantize.h"
#include "config/experiment.h"
#include "engine/engine.h"
#include "testutil.h"

TEST_REGISTRY(reg, setup, teardown)

TestSuite(engine, .init = setup, .fini = teardown);
TestSuite(family, .init = setup, .fini = teardown);

static void algo(bl_algo_spec *a, const char *loss, const char *const *sets)
{
    bl_error err;
    bl_algo_init(a);
    a->name = strdup("test");
    cr_assert_eq(bl_algo_set(a, &reg, "loss", loss, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_algo_set(a, &reg, "weak", "stump", &err), 0, "%s", err.msg);
    cr_assert_eq(bl_algo_set(a, &reg, "solver", "lbfgsb-row", &err), 0, "%s", err.msg);
    for (; sets && *sets; sets += 2)
        cr_assert_eq(bl_algo_set(a, &reg, sets[0], sets[1], &err), 0, "%s: %s", sets[0], err.msg);
}

/* Gaussian blobs with overlap: class c centred at c along every feature. */
static void blobs(bl_dataset *ds, size_t m, size_t d, size_t k, double spread, unsigned long seed)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, seed);
    memset(ds, 0, sizeof *ds);
    ds->m = m;
    ds->d = d;
    ds->k = k;
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
        for (size_t f = 0; f < d; f++)
            ds->x[f * m + i] = (float)((double)((ds->y[i] + (int)f) % (int)k) +
                                       gsl_ran_gaussian(g, spread));
    }
    gsl_rng_free(g);
}

typedef struct {
    bl_dataset ds;
    bl_qview q;
    struct bl_train tv;
} problem;

static void prepare(problem *p, size_t m, size_t d, size_t k, double spread, int bins)
{
    bl_error err;
    blobs(&p->ds, m, d, k, spread, 42 + m + k);
    cr_assert_eq(bl_quantize(&p->ds, bins, &p->q, &err), 0, "%s", err.msg);
    bl_train_view(&p->ds, &p->q, &p->tv);
}

static void release(problem *p)
{
    bl_qview_free(&p->q);
    bl_dataset_free(&p->ds);
}

static void train(const bl_algo_spec *a, problem *p, int T, bl_model *mo, bl_curve *cv)
{
    bl_error err;
    bl_model_init(mo, a->weak.plugin, p->ds.k, p->ds.d, p->ds.class_names, p->ds.feature_names);
    bl_boost_cfg cfg = bl_algo_boost_cfg(a, T, 1);
    struct bl_matrix X = {p->ds.m, p->ds.d, p->ds.x};
    cr_assert_eq(bl_boost(&cfg, &p->tv, &X, p->ds.y, mo, cv, &err), 0, "%s", err.msg);
}

Test(engine, binary_mcboost_exp_is_discrete_adaboost)
{
    problem p;
    prepare(&p, 120, 3, 2, 0.9, 16);
    const char *sets[] = {"nu", "0", "solver.pgtol", "1e-12", "solver.ftol", "0", NULL};
    bl_algo_spec a;
    algo(&a, "margin-exp", sets);
    bl_model mo;
    bl_curve cv;
    const int T = 15;
    train(&a, &p, T, &mo, &cv);
    cr_assert_eq(cv.n, (size_t)T);

    /* discrete AdaBoost with stumps over the same cuts */
    size_t m = p.ds.m;
    double *D = malloc(m * sizeof *D), *f = calloc(m, sizeof *f);
    for (size_t i = 0; i < m; i++)
        D[i] = 1.0 / (double)m;
    for (int t = 0; t < T; t++) {
        double best = -1, bpol = 1;
        size_t bf = 0, bb = 0;
        for (size_t ft = 0; ft < p.ds.d; ft++)
            for (size_t b = 0; b + 1 < p.q.nbins[ft]; b++) {
                double e = 0;
                for (size_t i = 0; i < m; i++) {
                    double z = p.ds.y[i] == 0 ? 1 : -1;
                    double h = p.ds.x[ft * m + i] > p.q.cut[ft][b] ? 1 : -1;
                    e += D[i] * z * h;
                }
                if (fabs(e) > best + 1e-15) {
                    best = fabs(e);
                    bpol = e >= 0 ? 1 : -1;
                    bf = ft;
                    bb = b;
                }
            }
        double eps = (1 - best) / 2, alpha = 0.5 * log((1 - eps) / eps), Z = 0;
        for (size_t i = 0; i < m; i++) {
            double z = p.ds.y[i] == 0 ? 1 : -1;
            double h = bpol * (p.ds.x[bf * m + i] > p.q.cut[bf][bb] ? 1 : -1);
            f[i] += alpha * h;
            D[i] *= exp(-alpha * z * h);
            Z += D[i];
        }
        for (size_t i = 0; i < m; i++)
            D[i] /= Z;
    }
    double *F = malloc(m * 2 * sizeof *F);
    struct bl_matrix X = {m, p.ds.d, p.ds.x};
    bl_model_scores(&mo, &X, F);
    for (size_t i = 0; i < m; i++)
        cr_assert_float_eq(F[2 * i] - F[2 * i + 1], f[i], 1e-5 * (1 + fabs(f[i])),
                           "example %zu: MCBoost %g, AdaBoost %g", i, F[2 * i] - F[2 * i + 1], f[i]);
    free(F);
    free(D);
    free(f);
    bl_curve_free(&cv);
    bl_model_free(&mo);
    bl_algo_free(&a);
    release(&p);
}

Test(engine, training_loss_never_increases)
{
    const char *losses[] = {"margin-exp", "margin-log"};
    for (int l = 0; l < 2; l++) {
        problem p;
        prepare(&p, 300, 4, 5, 0.8, 64);
        const char *sets[] = {"shrinkage", "0.5", "nu", "1e-9", NULL};
        bl_algo_spec a;
        algo(&a, losses[l], sets);
        bl_model mo;
        bl_curve cv;
        train(&a, &p, 60, &mo, &cv);
        for (size_t j = 1; j < cv.n; j++)
            cr_assert_leq(cv.train_loss[j], cv.train_loss[j - 1] * (1 + 1e-12) + 1e-12,
                          "%s: loss rose at iteration %zu", losses[l], j + 1);
        cr_assert_lt(cv.train_err[cv.n - 1], cv.train_err[0], "%s did not learn", losses[l]);
        cr_assert(isfinite(cv.test_err[cv.n - 1]));
        bl_curve_free(&cv);
        bl_model_free(&mo);
        bl_algo_free(&a);
        release(&p);
    }
}

Test(engine, same_result_with_one_or_two_threads)
{
    problem p;
    prepare(&p, 400, 6, 4, 1.0, 256);
    bl_algo_spec a;
    algo(&a, "margin-log", NULL);
    bl_curve cv[2];
    bl_model mo[2];
    for (int t = 0; t < 2; t++) {
        omp_set_num_threads(t + 1);
        train(&a, &p, 30, &mo[t], &cv[t]);
    }
    omp_set_num_threads(2);
    cr_assert_eq(cv[0].n, cv[1].n);
    for (size_t j = 0; j < cv[0].n; j++)
        cr_assert_eq(cv[0].train_loss[j], cv[1].train_loss[j], "iteration %zu differs", j + 1);
    for (int t = 0; t < 2; t++) {
        bl_curve_free(&cv[t]);
        bl_model_free(&mo[t]);
    }
    bl_algo_free(&a);
    release(&p);
}

/* Scores the way bl_model_scores made them before it blocked rows and took
 * predict_add: each term's dense outputs on all of X, then added. */
static void scores_term_by_term(const bl_model *mo, const struct bl_matrix *X, double *F)
{
    size_t m = X->m, k = mo->k, hmax = 1;
    for (size_t j = 0; j < mo->t; j++)
        hmax = mo->term[j].hdim > hmax ? mo->term[j].hdim : hmax;
    double *out = malloc(m * k * sizeof *out), *scratch = malloc(m * hmax * sizeof *scratch);
    memset(F, 0, m * k * sizeof *F);
    for (size_t j = 0; j < mo->t; j++) {
        const bl_term *t = &mo->term[j];
        bl_term_outputs(mo, t, X, out, scratch);
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < k; r++)
                F[i * k + r] += t->w[r] * (t->outdim == 1 ? out[i] : out[i * k + r]);
    }
    free(out);
    free(scratch);
}

/* Model scores over blocks of rows on 1 and 2 threads, through the trees'
 * predict_add where it applies (AOSO, K-LogitBoost, LogitBoost; ABC's
 * shared base class; stumps and coded stumps through predict), equal the
 * term-by-term dense sum bit for bit, on sets of several blocks with a
 * short last one: 1000 x 5 (blocks of 256 rows) and 300 x 5000 (wide:
 * blocks of 52 rows, their copy kept near 1 MB); nrec recipes of the list. */
static void check_blocked_scores(size_t m0, size_t d0, size_t nrec)
{
    problem p;
    prepare(&p, m0, d0, 4, 1.2, 32);
    const char *const recipes[][8] = {
        {"softmax", "aoso-tree", "none", "shrinkage", "0.1", "weak.leaves", "8", NULL},
        {"softmax", "abc-trees", "none", "shrinkage", "0.1", "weak.leaves", "6", NULL},
        {"softmax", "class-trees", "none", "shrinkage", "0.1", "weak.leaves", "6", NULL},
        {"klogit", "diag-tree", "none", "shrinkage", "0.1", "weak.leaves", "6", NULL},
        {"margin-exp", "stump", "lbfgsb-row", NULL},
        {"margin-exp", "stump", "lbfgsb-line", "coding", "random-half", NULL},
    };
    size_t m = p.ds.m, k = p.ds.k;
    struct bl_matrix X = {m, p.ds.d, p.ds.x};
    double *want = malloc(m * k * sizeof *want), *F = malloc(m * k * sizeof *F);
    for (size_t q = 0; q < nrec && q < sizeof recipes / sizeof *recipes; q++) {
        bl_error err;
        bl_algo_spec a;
        bl_algo_init(&a);
        a.name = strdup("test");
        cr_assert_eq(bl_algo_set(&a, &reg, "loss", recipes[q][0], &err), 0, "%s", err.msg);
        cr_assert_eq(bl_algo_set(&a, &reg, "weak", recipes[q][1], &err), 0, "%s", err.msg);
        cr_assert_eq(bl_algo_set(&a, &reg, "solver", recipes[q][2], &err), 0, "%s", err.msg);
        for (const char *const *kv = recipes[q] + 3; *kv; kv += 2)
            cr_assert_eq(bl_algo_set(&a, &reg, kv[0], kv[1], &err), 0, "%s: %s", kv[0], err.msg);
        bl_model mo;
        bl_curve cv;
        train(&a, &p, 12, &mo, &cv);
        cr_assert_gt(mo.t, 0);
        scores_term_by_term(&mo, &X, want);
        for (int t = 1; t <= 2; t++) {
            omp_set_num_threads(t);
            bl_model_scores(&mo, &X, F);
            cr_assert_eq(memcmp(F, want, m * k * sizeof *F), 0, "%s + %s, %d thread(s): the "
                         "scores differ from the term-by-term sum", recipes[q][0], recipes[q][1],
                         t);
        }
        omp_set_num_threads(2);
        bl_curve_free(&cv);
        bl_model_free(&mo);
        bl_algo_free(&a);
    }
    free(want);
    free(F);
    release(&p);
}

Test(engine, model_scores_blocked_equal_term_by_term) { check_blocked_scores(1000, 5, 6); }
Test(engine, model_scores_blocked_wide_data) { check_blocked_scores(300, 5000, 2); }

Test(engine, large_nu_stops_on_the_dual_constraint)
{
    problem p;
    prepare(&p, 400, 5, 20, 0.5, 64);
    const char *sets[] = {"nu", "0.1", NULL};
    bl_algo_spec a;
    algo(&a, "margin-exp", sets);
    bl_model mo;
    bl_curve cv;
    train(&a, &p, 200, &mo, &cv);
    cr_assert_eq(cv.stop, BL_STOP_DUAL);
    cr_assert_lt(cv.n, 200);
    bl_curve_free(&cv);
    bl_model_free(&mo);
    bl_algo_free(&a);
    release(&p);
}

Test(engine, model_file_round_trip_and_refusals)
{
    problem p;
    prepare(&p, 200, 3, 3, 0.7, 32);
    bl_algo_spec a;
    algo(&a, "margin-exp", NULL);
    bl_model mo, back;
    bl_curve cv;
    train(&a, &p, 20, &mo, &cv);
    char path[] = "/tmp/bl-model-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    bl_error err;
    cr_assert_eq(bl_model_save(&mo, path, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_model_load(path, &reg, &back, &err), 0, "%s", err.msg);
    cr_assert_eq(back.t, mo.t);
    size_t m = p.ds.m, k = p.ds.k;
    double *F1 = malloc(m * k * sizeof *F1), *F2 = malloc(m * k * sizeof *F2);
    struct bl_matrix X = {m, p.ds.d, p.ds.x};
    bl_model_scores(&mo, &X, F1);
    bl_model_scores(&back, &X, F2);
    for (size_t j = 0; j < m * k; j++)
        cr_assert_eq(F1[j], F2[j], "score %zu differs after reload", j);
    bl_model_free(&back);

    /* flip one byte in the middle: the checksum catches it */
    FILE *f = fopen(path, "r+");
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, len / 2, SEEK_SET);
    int c = fgetc(f);
    fseek(f, len / 2, SEEK_SET);
    fputc(c == '1' ? '2' : '1', f);
    fclose(f);
    cr_assert_eq(bl_model_load(path, &reg, &back, &err), -1);
    cr_assert(strstr(err.msg, "checksum mismatch"), "%s", err.msg);

    /* truncate: no checksum line */
    cr_assert_eq(truncate(path, len / 3), 0);
    cr_assert_eq(bl_model_load(path, &reg, &back, &err), -1);
    cr_assert(strstr(err.msg, "truncated"), "%s", err.msg);
    unlink(path);
    free(F1);
    free(F2);
    bl_curve_free(&cv);
    bl_model_free(&mo);
    bl_algo_free(&a);
    release(&p);
}

/* Totally corrective mode: after the last iteration every coefficient of
 * every row satisfies the KKT conditions of min L(F(W)) + nu sum W, W >= 0. */
Test(engine, totally_corrective_solution_is_kkt_optimal)
{
    problem p;
    prepare(&p, 150, 3, 3, 0.9, 16);
    const char *sets[] = {"solver", "lbfgsb-tc", "nu", "1e-3", "solver.pgtol", "1e-9",
                          "solver.ftol", "0", "solver.max_iter", "1000", NULL};
    bl_algo_spec a;
    algo(&a, "margin-log", sets);
    bl_model mo;
    bl_curve cv;
    train(&a, &p, 8, &mo, &cv);
    for (size_t j = 1; j < cv.n; j++)
        cr_assert_leq(cv.train_loss[j], cv.train_loss[j - 1] + 1e-9);
    size_t m = p.ds.m, k = p.ds.k;
    double *F = malloc(m * k * sizeof *F), *G = malloc(m * k * sizeof *G);
    double *out = malloc(m * k * sizeof *out);
    struct bl_matrix X = {m, p.ds.d, p.ds.x};
    bl_model_scores(&mo, &X, F);
    const struct bl_loss_ops *lo = a.loss.plugin->ops;
    const struct bl_weak_ops *wo = a.weak.plugin->ops;
    char msg[BL_ERR_MAX];
    void *loss = lo->create(&test_host, a.loss.v, msg);
    lo->eval(loss, p.ds.y, m, k, F, G);
    for (size_t t = 0; t < mo.t; t++) {
        wo->predict(mo.term[t].hyp, &X, out);
        for (size_t r = 0; r < k; r++) {
            double g = 1e-3; /* nu */
            for (size_t i = 0; i < m; i++)
                g += out[i] * G[i * k + r];
            double w = mo.term[t].w[r];
            cr_assert_geq(w, 0);
            if (w > 1e-6)
                cr_assert_float_eq(g, 0, 1e-5, "term %zu class %zu: w %g, gradient %g", t, r, w, g);
            else
                cr_assert_geq(g, -1e-5, "term %zu class %zu at the bound: gradient %g", t, r, g);
        }
    }
    lo->destroy(loss);
    free(F);
    free(G);
    free(out);
    bl_curve_free(&cv);
    bl_model_free(&mo);
    bl_algo_free(&a);
    release(&p);
}

/* A run that stops before its first term still reports the errors of the
 * empty model (every score 0: the lowest class everywhere). */
Test(engine, empty_model_errors_are_recorded)
{
    problem p;
    prepare(&p, 90, 2, 3, 0.5, 16);
    const char *sets[] = {"nu", "5", NULL};
    bl_algo_spec a;
    algo(&a, "margin-exp", sets);
    bl_model mo;
    bl_curve cv;
    train(&a, &p, 10, &mo, &cv);
    cr_assert_eq(cv.n, 0);
    cr_assert_eq(cv.stop, BL_STOP_DUAL);
    cr_assert_float_eq(cv.train_err0, 2.0 / 3.0, 1e-12, "classes are balanced: 1/3 are class 0");
    cr_assert_float_eq(cv.test_err0, 2.0 / 3.0, 1e-12);
    cr_assert_float_eq(cv.train_loss0, log(90.0 * 3), 1e-9, "log sum of m*k ones");
    bl_curve_free(&cv);
    bl_model_free(&mo);
    bl_algo_free(&a);
    release(&p);
}

/* Numerical robustness (spec §11.8): a separable problem boosted far past
 * zero training error with eta = 1 keeps every recorded value finite. */
Test(engine, long_runs_on_separable_data_stay_finite)
{
    const char *losses[] = {"margin-exp", "margin-log"};
    for (int l = 0; l < 2; l++) {
        problem p;
        prepare(&p, 60, 2, 3, 0.05, 32); /* well separated blobs */
        const char *sets[] = {"nu", "0", NULL};
        bl_algo_spec a;
        algo(&a, losses[l], sets);
        bl_model mo;
        bl_curve cv;
        train(&a, &p, 2000, &mo, &cv);
        for (size_t j = 0; j < cv.n; j++) {
            cr_assert(isfinite(cv.train_loss[j]), "%s: loss %g at %zu", losses[l], cv.train_loss[j], j);
            cr_assert(isfinite(cv.edge[j]));
        }
        cr_assert_eq(cv.train_err[cv.n - 1], 0);
        for (size_t t = 0; t < mo.t; t++)
            for (size_t r = 0; r < p.ds.k; r++)
                cr_assert(isfinite(mo.term[t].w[r]) && mo.term[t].w[r] >= 0);
        bl_curve_free(&cv);
        bl_model_free(&mo);
        bl_algo_free(&a);
        release(&p);
    }
}

/* Constant features leave no split: the run ends with a clear error, not
 * a NaN or a crash. */
Test(engine, constant_features_are_a_clear_error)
{
    problem p;
    prepare(&p, 40, 3, 2, 0.5, 16);
    for (size_t j = 0; j < p.ds.m * p.ds.d; j++)
        p.ds.x[j] = 1.5f;
    bl_qview_free(&p.q);
    bl_error err;
    cr_assert_eq(bl_quantize(&p.ds, 16, &p.q, &err), 0, "%s", err.msg);
    bl_train_view(&p.ds, &p.q, &p.tv);
    bl_algo_spec a;
    algo(&a, "margin-log", NULL);
    bl_model mo;
    bl_curve cv;
    bl_model_init(&mo, a.weak.plugin, p.ds.k, p.ds.d, p.ds.class_names, p.ds.feature_names);
    bl_boost_cfg cfg = bl_algo_boost_cfg(&a, 10, 1);
    cr_assert_eq(bl_boost(&cfg, &p.tv, NULL, NULL, &mo, &cv, &err), -1);
    cr_assert(strstr(err.msg, "every feature is constant"), "%s", err.msg);
    cr_assert(isfinite(cv.train_loss0));
    bl_curve_free(&cv);
    bl_model_free(&mo);
    bl_algo_free(&a);
    release(&p);
}

/* Duplicating every example changes neither loss's minimisers (the
 * exponential loss's log form gains a constant, the logistic sum doubles),
 * so the same stumps and coefficients come out. */
Test(engine, duplicated_examples_give_the_same_model)
{
    const char *losses[] = {"margin-exp", "margin-log"};
    for (int l = 0; l < 2; l++) {
        problem p, q;
        prepare(&p, 80, 3, 3, 0.8, 32);
        size_t m = p.ds.m;
        size_t *rows = malloc(2 * m * sizeof *rows);
        for (size_t i = 0; i < 2 * m; i++)
            rows[i] = i % m;
        bl_error err;
        memset(&q, 0, sizeof q);
        cr_assert_eq(bl_dataset_subset(&p.ds, rows, 2 * m, &q.ds, &err), 0, "%s", err.msg);
        free(rows);
        cr_assert_eq(bl_quantize(&q.ds, 32, &q.q, &err), 0, "%s", err.msg);
        bl_train_view(&q.ds, &q.q, &q.tv);
        const char *sets[] = {"nu", "0", "solver.pgtol", "1e-10", "solver.ftol", "0", NULL};
        bl_algo_spec a;
        algo(&a, losses[l], sets);
        bl_model m1, m2;
        bl_curve c1, c2;
        train(&a, &p, 15, &m1, &c1);
        train(&a, &q, 15, &m2, &c2);
        cr_assert_eq(m1.t, m2.t);
        for (size_t t = 0; t < m1.t; t++)
            for (size_t r = 0; r < p.ds.k; r++)
                cr_assert_float_eq(m1.term[t].w[r], m2.term[t].w[r], 1e-4 * (1 + m1.term[t].w[r]),
                                   "%s: term %zu class %zu", losses[l], t, r);
        bl_curve_free(&c1);
        bl_curve_free(&c2);
        bl_model_free(&m1);
        bl_model_free(&m2);
        bl_algo_free(&a);
        release(&p);
        release(&q);
    }
}

/* ---- the coded and multi-class AdaBoost family ------------------------- */

static void algo_full(bl_algo_spec *a, const char *loss, const char *weak_criterion,
                      const char *solver, const char *coding, const char *const *sets)
{
    bl_error err;
    algo(a, loss, NULL);
    cr_assert_eq(bl_algo_set(a, &reg, "solver", solver, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_algo_set(a, &reg, "weak.criterion", weak_criterion, &err), 0, "%s", err.msg);
    if (coding)
        cr_assert_eq(bl_algo_set(a, &reg, "coding", coding, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_algo_set(a, &reg, "nu", "0", &err), 0, "%s", err.msg);
    for (; sets && *sets; sets += 2)
        cr_assert_eq(bl_algo_set(a, &reg, sets[0], sets[1], &err), 0, "%s: %s", sets[0], err.msg);
}

static const char *const tight[] = {"solver.pgtol", "1e-12", "solver.ftol", "0",
                                    "solver.max_iter", "500", NULL};

/* SAMME (spec §7.2) written out directly with a brute-force multi-class
 * stump; the engine's recipe (samme-exp + leafclass + line search) must
 * predict the same classes after every iteration. */
Test(family, samme_matches_a_direct_implementation)
{
    problem p;
    prepare(&p, 90, 3, 3, 1.0, 12);
    size_t m = p.ds.m, k = p.ds.k, d = p.ds.d;
    const int T = 8;
    bl_algo_spec a;
    algo_full(&a, "samme-exp", "leafclass", "lbfgsb-line", NULL, tight);
    bl_model mo;
    bl_curve cv;
    train(&a, &p, T, &mo, &cv);
    cr_assert_eq(mo.t, (size_t)T);
    double *D = malloc(m * sizeof *D), *vote = calloc(m * k, sizeof *vote);
    double *F = malloc(m * k * sizeof *F);
    int *lab = malloc(m * sizeof *lab);
    for (size_t i = 0; i < m; i++)
        D[i] = 1.0 / (double)m;
    struct bl_matrix X = {m, d, p.ds.x};
    for (int t = 0; t < T; t++) {
        double best = -1;
        size_t bf = 0, bb = 0;
        int bl = 0, br = 0;
        for (size_t f = 0; f < d; f++)
            for (size_t b = 0; b + 1 < p.q.nbins[f]; b++) {
                double wl[16] = {0}, wr[16] = {0};
                for (size_t i = 0; i < m; i++) {
                    if (p.ds.x[f * m + i] > p.q.cut[f][b])
                        wr[p.ds.y[i]] += D[i];
                    else
                        wl[p.ds.y[i]] += D[i];
                }
                int cl = 0, cr = 0;
                for (size_t c = 1; c < k; c++) {
                    if (wl[c] > wl[cl]) cl = (int)c;
                    if (wr[c] > wr[cr]) cr = (int)c;
                }
                if (wl[cl] + wr[cr] > best + 1e-12) {
                    best = wl[cl] + wr[cr];
                    bf = f, bb = b, bl = cl, br = cr;
                }
            }
        double err = 1 - best, alpha = log((1 - err) / err) + log((double)k - 1), Z = 0;
        for (size_t i = 0; i < m; i++) {
            int pred = p.ds.x[bf * m + i] > p.q.cut[bf][bb] ? br : bl;
            vote[i * k + (size_t)pred] += alpha;
            if (pred != p.ds.y[i])
                D[i] *= exp(alpha);
            Z += D[i];
        }
        for (size_t i = 0; i < m; i++)
            D[i] /= Z;
        /* the engine's model after t+1 terms */
        bl_model part = mo;
        part.t = (size_t)t + 1;
        bl_model_scores(&part, &X, F);
        bl_argmax_rows(F, m, k, lab);
        for (size_t i = 0; i < m; i++) {
            size_t want = 0;
            for (size_t c = 1; c < k; c++)
                if (vote[i * k + c] > vote[i * k + want] + 1e-9)
                    want = c;
            cr_assert_eq(lab[i], (int)want, "iteration %d, example %zu", t + 1, i);
        }
    }
    free(D);
    free(vote);
    free(F);
    free(lab);
    bl_curve_free(&cv);
    bl_model_free(&mo);
    bl_algo_free(&a);
    release(&p);
}

/* Discrete AdaBoost.MH (spec §7.3) written out directly: same scores,
 * term by term (alpha = 1/2 ln((1+gamma)/(1-gamma))). */
Test(family, adaboost_mh_matches_a_direct_implementation)
{
    problem p;
    prepare(&p, 90, 3, 3, 1.0, 12);
    size_t m = p.ds.m, k = p.ds.k, d = p.ds.d;
    const int T = 8;
    bl_algo_spec a;
    algo_full(&a, "mh-exp", "vote", "lbfgsb-line", NULL, tight);
    bl_model mo;
    bl_curve cv;
    train(&a, &p, T, &mo, &cv);
    double *D = malloc(m * k * sizeof *D), *f = calloc(m * k, sizeof *f);
    double *F = malloc(m * k * sizeof *F);
    for (size_t j = 0; j < m * k; j++)
        D[j] = 1.0 / (double)(m * k);
    for (int t = 0; t < T; t++) {
        double best = -1, v[16];
        size_t bf = 0, bb = 0;
        for (size_t ft = 0; ft < d; ft++)
            for (size_t b = 0; b + 1 < p.q.nbins[ft]; b++) {
                double g[16] = {0}, tot = 0;
                for (size_t i = 0; i < m; i++) {
                    double phi = p.ds.x[ft * m + i] > p.q.cut[ft][b] ? 1 : -1;
                    for (size_t r = 0; r < k; r++)
                        g[r] += D[i * k + r] * (p.ds.y[i] == (int)r ? 1 : -1) * phi;
                }
                for (size_t r = 0; r < k; r++)
                    tot += fabs(g[r]);
                if (tot > best + 1e-12) {
                    best = tot, bf = ft, bb = b;
                    for (size_t r = 0; r < k; r++)
                        v[r] = g[r] >= 0 ? 1 : -1;
                }
            }
        double alpha = 0.5 * log((1 + best) / (1 - best)), Z = 0;
        for (size_t i = 0; i < m; i++) {
            double phi = p.ds.x[bf * m + i] > p.q.cut[bf][bb] ? 1 : -1;
            for (size_t r = 0; r < k; r++) {
                double Y = p.ds.y[i] == (int)r ? 1 : -1;
                f[i * k + r] += alpha * v[r] * phi;
                D[i * k + r] *= exp(-alpha * Y * v[r] * phi);
                Z += D[i * k + r];
            }
        }
        for (size_t j = 0; j < m * k; j++)
            D[j] /= Z;
    }
    struct bl_matrix X = {m, d, p.ds.x};
    bl_model_scores(&mo, &X, F);
    for (size_t j = 0; j < m * k; j++)
        cr_assert_float_eq(F[j], f[j], 1e-5 * (1 + fabs(f[j])), "score %zu: %g vs %g", j, F[j], f[j]);
    free(D);
    free(f);
    free(F);
    bl_curve_free(&cv);
    bl_model_free(&mo);
    bl_algo_free(&a);
    release(&p);
}

/* AdaBoost.ECC (random-half codes): the loss falls, and the model, codes
 * included, survives a save/load round trip. */
Test(family, coded_model_round_trip)
{
    problem p;
    prepare(&p, 120, 3, 4, 0.8, 16);
    bl_algo_spec a;
    algo_full(&a, "margin-exp", "max", "lbfgsb-line", "random-half", NULL);
    bl_model mo, back;
    bl_curve cv;
    train(&a, &p, 12, &mo, &cv);
    cr_assert_eq(mo.t, 12);
    for (size_t j = 1; j < cv.n; j++)
        cr_assert_leq(cv.train_loss[j], cv.train_loss[j - 1] + 1e-12);
    for (size_t t = 0; t < mo.t; t++) {
        cr_assert_not_null(mo.term[t].code);
        cr_assert_eq(mo.term[t].hdim, 1);
        int pos = 0, neg = 0;
        for (size_t r = 0; r < p.ds.k; r++) {
            pos += mo.term[t].code[r] > 0;
            neg += mo.term[t].code[r] < 0;
        }
        cr_assert(pos && neg, "term %zu: a constant coloring", t);
    }
    char path[] = "/tmp/bl-coded-XXXXXX";
    close(mkstemp(path));
    bl_error err;
    cr_assert_eq(bl_model_save(&mo, path, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_model_load(path, &reg, &back, &err), 0, "%s", err.msg);
    size_t m = p.ds.m, k = p.ds.k;
    double *F1 = malloc(m * k * sizeof *F1), *F2 = malloc(m * k * sizeof *F2);
    struct bl_matrix X = {m, p.ds.d, p.ds.x};
    bl_model_scores(&mo, &X, F1);
    bl_model_scores(&back, &X, F2);
    for (size_t j = 0; j < m * k; j++)
        cr_assert_eq(F1[j], F2[j], "score %zu differs after reload", j);
    unlink(path);
    free(F1);
    free(F2);
    bl_model_free(&back);
    bl_curve_free(&cv);
    bl_model_free(&mo);
    bl_algo_free(&a);
    release(&p);
}

/* The binary code refuses a multi-class problem, and a code the weak
 * learner cannot answer column by column is refused too. */
Test(family, refusals)
{
    problem p;
    prepare(&p, 60, 2, 3, 0.8, 16);
    bl_algo_spec a;
    bl_error err;
    bl_model mo;
    bl_curve cv;
    bl_boost_cfg cfg;
    algo_full(&a, "margin-exp", "max", "lbfgsb-line", "binary", NULL);
    bl_model_init(&mo, a.weak.plugin, p.ds.k, p.ds.d, NULL, NULL);
    cfg = bl_algo_boost_cfg(&a, 5, 1);
    cr_assert_eq(bl_boost(&cfg, &p.tv, NULL, NULL, &mo, &cv, &err), -1);
    cr_assert(strstr(err.msg, "coding binary: "), "%s", err.msg);
    bl_model_free(&mo);
    bl_algo_free(&a);
    algo_full(&a, "margin-exp", "max", "lbfgsb-line", "ova", NULL);
    bl_model_init(&mo, a.weak.plugin, p.ds.k, p.ds.d, NULL, NULL);
    cr_assert_eq(bl_boost(&cfg, &p.tv, NULL, NULL, &mo, &cv, &err), -1);
    cr_assert(strstr(err.msg, "must answer every column"), "%s", err.msg);
    bl_curve_free(&cv);
    bl_model_free(&mo);
    bl_algo_free(&a);
    release(&p);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of the structured-learning engine (framework/structured/):
 *   - the GLPK wrapper bl_lp: a small LP with a known optimum and duals
 *     (strong duality, complementary slackness), warm-started re-solves
 *     after adding rows and columns against fresh LPs, row deletion;
 *   - StructBoost (spec §9): Theorem 2.1 (1-slack cutting planes and the
 *     m-slack LP reach the same objective within C eps_cp, multi-class and
 *     AUC), training error 0 on separable binary data (§9.1), objective
 *     non-increasing over CG iterations up to C eps_cp (§9.4);
 *   - the structural SVM: converges to a stable objective, training error
 *     0 on linearly separable data;
 *   - one-vs-all SVMs: the errors equal those of liblinear called directly;
 *   - 1 vs 2 threads: identical curves and metrics.
 * Algorithms are built key by key with bl_algo_set, as the config layer
 * does, with plugins from the build tree's registry; data sets are small
 * and synthetic.
 */
#include <linear.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "config/experiment.h"
#include "exec/method.h"
#include "exec/pool.h"
#include "plugin/loader.h"
#include "structured/lp.h"
#include "structured/structured.h"
#include "testutil.h"

/* ---- registry, data, algorithms ------------------------------------------- */

static bl_registry reg;

static void load_tree(void)
{
    bl_error err;
    memset(&reg, 0, sizeof reg);
    cr_assert_eq(bl_registry_load_dir(&reg, BL_BUILD_DIR "/plugins", 1, &err), 0, "%s", err.msg);
    bl_set_threads(1);
}

static void unload(void)
{
    bl_registry_free(&reg);
}

/* A run that never converges (a broken stopping rule) fails by timeout. */
TestSuite(structured, .init = load_tree, .fini = unload);

static char *const cnames[] = {"a", "b", "c", "d"};

/* A data set owning its arrays (feature-major x). */
typedef struct tdata {
    bl_dataset ds;
} tdata;

static void td_alloc(tdata *t, size_t m, size_t d, size_t k)
{
    memset(t, 0, sizeof *t);
    t->ds.m = m;
    t->ds.d = d;
    t->ds.k = k;
    t->ds.y = calloc(m, sizeof *t->ds.y);
    t->ds.x = calloc(m * d, sizeof *t->ds.x);
    t->ds.class_names = (char **)cnames;
}

static void td_free(tdata *t)
{
    free(t->ds.y);
    free(t->ds.x);
    memset(t, 0, sizeof *t);
}

#define X(t, i, f) ((t)->ds.x[(size_t)(f) * (t)->ds.m + (i)])

/* k classes in turn, each a cluster around its own centre in [0,1]^d with
 * uniform noise of half-width `noise` (clusters 1 apart: noise < 0.5 keeps
 * them linearly separable). */
static void td_clusters(tdata *t, size_t m, size_t d, size_t k, double noise, uint64_t seed)
{
    td_alloc(t, m, d, k);
    rng_seed(seed);
    for (size_t i = 0; i < m; i++) {
        int c = (int)(i % k);
        t->ds.y[i] = c;
        for (size_t f = 0; f < d; f++) {
            double centre = (double)((c >> (f % 2)) & 1) + (f == 0 ? (double)c : 0.0);
            X(t, i, f) = (float)(centre + urange(-noise, noise));
        }
    }
}

/* Binary, separable by a sum of stumps: y = majority of [x_f > 0.5] over
 * the first 3 of d features (the others are noise); class 1 positive. */
static void td_majority(tdata *t, size_t m, size_t d, uint64_t seed)
{
    td_alloc(t, m, d, 2);
    rng_seed(seed);
    for (size_t i = 0; i < m; i++) {
        int votes = 0;
        for (size_t f = 0; f < d; f++) {
            double v = urand();
            X(t, i, f) = (float)v;
            votes += f < 3 && v > 0.5;
        }
        t->ds.y[i] = votes >= 2;
    }
}

/* An algorithm from (key, value) pairs, in order (plugins before their
 * parameters), as an [algorithm] section sets them. */
static void algo(bl_algo_spec *a, const char *const *kv)
{
    bl_error err;
    bl_algo_init(a);
    a->name = strdup("t");
    for (; kv[0]; kv += 2)
        cr_assert_eq(bl_algo_set(a, &reg, kv[0], kv[1], &err), 0, "%s = %s: %s", kv[0], kv[1],
                     err.msg);
}

static void run(const bl_algo_spec *a, int T, const bl_dataset *tr, const bl_dataset *te,
                bl_curve *cv, bl_metrics *met)
{
    bl_method_cfg cfg = {a, T, 12345, NULL, NULL, 256};
    bl_method_io io = {tr, te, NULL, cv, met, NULL};
    bl_error err;
    memset(met, 0, sizeof *met);
    cr_assert_eq(bl_method_run(&cfg, &io, &err), 0, "%s", err.msg);
    cr_assert_gt(cv->n, 0);
}

static double final_f(const bl_curve *cv)
{
    return cv->train_loss[cv->n - 1];
}

/* Spec §9.4: f(w^t) non-increasing over CG iterations up to C eps_cp. */
static void assert_monotone(const bl_curve *cv, const bl_algo_spec *a, const char *what)
{
    double tol = a->C * a->eps_cp + 1e-9 * (1.0 + fabs(cv->train_loss0));
    cr_assert_leq(cv->train_loss[0], cv->train_loss0 + tol, "%s: f(w^1) %g > f(0) %g", what,
                  cv->train_loss[0], cv->train_loss0);
    for (size_t t = 1; t < cv->n; t++)
        cr_assert_leq(cv->train_loss[t], cv->train_loss[t - 1] + tol,
                      "%s: objective rose at CG iteration %zu: %.10g -> %.10g (tolerance %g)",
                      what, t + 1, cv->train_loss[t - 1], cv->train_loss[t], tol);
}

/* ---- the LP wrapper ----------------------------------------------------------- */

/* Every LP test runs on both engines (GLPK, Clp) in both modes: the engine
 * solving the LP itself, and its dual (transposed), which must give the
 * same x, duals and f.  Mode k: engine k / 2, transposed k % 2. */
#define LP_MODES 4
static void lp_mode(bl_lp *lp, int k)
{
    bl_lp_init_with(lp, k / 2 ? BL_LP_CLP : BL_LP_GLPK, k % 2);
}

/* min x1 + x2  s.t.  x1 + 2 x2 >= 4,  3 x1 + x2 >= 6,  x >= 0:
 * x* = (1.6, 1.2), f* = 2.8, duals y* = (0.4, 0.2). */
static void lp_known(int mode)
{
    bl_lp lp;
    lp_mode(&lp, mode);
    cr_assert_eq(bl_lp_add_col(&lp, 1.0, NULL), 0);
    cr_assert_eq(bl_lp_add_col(&lp, 1.0, NULL), 1);
    const double r0[] = {1, 2}, r1[] = {3, 1}, b[] = {4, 6};
    cr_assert_eq(bl_lp_add_row(&lp, r0, b[0]), 0);
    cr_assert_eq(bl_lp_add_row(&lp, r1, b[1]), 1);
    double x[2], y[2], f;
    bl_error err;
    cr_assert_eq(bl_lp_solve(&lp, x, y, &f, &err), 0, "%s", err.msg);
    cr_assert_float_eq(f, 2.8, 1e-9);
    cr_assert_float_eq(x[0], 1.6, 1e-9);
    cr_assert_float_eq(x[1], 1.2, 1e-9);
    cr_assert_float_eq(y[0], 0.4, 1e-9);
    cr_assert_float_eq(y[1], 0.2, 1e-9);
    /* strong duality b^T y = c^T x, dual feasibility A^T y <= c, y >= 0 */
    cr_assert_float_eq(b[0] * y[0] + b[1] * y[1], f, 1e-9);
    cr_assert_leq(r0[0] * y[0] + r1[0] * y[1], 1.0 + 1e-9);
    cr_assert_leq(r0[1] * y[0] + r1[1] * y[1], 1.0 + 1e-9);
    cr_assert_geq(y[0], -1e-12);
    cr_assert_geq(y[1], -1e-12);
    /* sparse rows give the same LP */
    bl_lp sp;
    lp_mode(&sp, mode);
    bl_lp_add_col(&sp, 1.0, NULL);
    bl_lp_add_col(&sp, 1.0, NULL);
    const size_t cols[] = {0, 1};
    bl_lp_add_row_sparse(&sp, cols, r0, 2, b[0]);
    const size_t c1[] = {1, 0};
    const double v1[] = {1, 3};
    bl_lp_add_row_sparse(&sp, c1, v1, 2, b[1]);
    double f2, y2[2];
    cr_assert_eq(bl_lp_solve(&sp, NULL, y2, &f2, &err), 0, "%s", err.msg);
    cr_assert_float_eq(f2, 2.8, 1e-9);
    cr_assert_float_eq(y2[1], 0.2, 1e-9);
    bl_lp_free(&sp);
    bl_lp_free(&lp);
}

Test(structured, lp_known_optimum_and_duality)
{
    for (int k = 0; k < LP_MODES; k++)
        lp_known(k);
}

/* A random LP  min c^T x, A x >= b, x >= 0  with A > 0, b > 0, c > 0
 * (feasible and bounded) of R rows and n columns, as dense arrays. */
struct rlp {
    size_t R, n;
    double A[12][12], b[12], c[12];
};

static void rlp_random(struct rlp *p, size_t R, size_t n)
{
    p->R = R;
    p->n = n;
    for (size_t r = 0; r < R; r++) {
        p->b[r] = urange(0.5, 2.0);
        for (size_t j = 0; j < n; j++)
            p->A[r][j] = urand() < 0.3 ? 0.0 : urange(0.1, 1.0);
        p->A[r][0] = urange(0.2, 1.0); /* feasible over any leading columns */
    }
    for (size_t j = 0; j < n; j++)
        p->c[j] = urange(0.5, 2.0);
}

/* The LP of the first R rows and n columns of p, built fresh. */
static double rlp_fresh(const struct rlp *p, size_t R, size_t n, const unsigned char *skip)
{
    bl_lp lp;
    bl_lp_init(&lp);
    for (size_t j = 0; j < n; j++)
        bl_lp_add_col(&lp, p->c[j], NULL);
    for (size_t r = 0; r < R; r++)
        if (!skip || !skip[r])
            bl_lp_add_row(&lp, p->A[r], p->b[r]);
    double f;
    bl_error err;
    cr_assert_eq(bl_lp_solve(&lp, NULL, NULL, &f, &err), 0, "%s", err.msg);
    bl_lp_free(&lp);
    return f;
}

/* Grow an LP by rows and columns in turn, re-solving from the kept basis
 * each time: always the optimum of the same LP built from scratch. */
Test(structured, lp_warm_start_equals_fresh)
{
    rng_seed(7);
    for (int trial = 0; trial < 80; trial++) {
        struct rlp p;
        rlp_random(&p, 12, 12);
        bl_lp lp;
        lp_mode(&lp, trial % LP_MODES);
        size_t R = 2, n = 2;
        for (size_t j = 0; j < n; j++)
            bl_lp_add_col(&lp, p.c[j], NULL);
        for (size_t r = 0; r < R; r++)
            bl_lp_add_row(&lp, p.A[r], p.b[r]);
        bl_error err;
        double f;
        cr_assert_eq(bl_lp_solve(&lp, NULL, NULL, &f, &err), 0, "%s", err.msg);
        while (R < p.R || n < p.n) {
            int addrow = n == p.n || (R < p.R && urand() < 0.5);
            if (addrow) {
                cr_assert_eq(bl_lp_add_row(&lp, p.A[R], p.b[R]), R);
                R++;
            } else {
                double col[12];
                for (size_t r = 0; r < R; r++)
                    col[r] = p.A[r][n];
                cr_assert_eq(bl_lp_add_col(&lp, p.c[n], col), n);
                n++;
            }
            cr_assert_eq(lp.rows, R);
            cr_assert_eq(lp.cols, n);
            double x[12], y[12];
            cr_assert_eq(bl_lp_solve(&lp, x, y, &f, &err), 0, "%s", err.msg);
            double fresh = rlp_fresh(&p, R, n, NULL);
            cr_assert_float_eq(f, fresh, 1e-9 * (1 + fabs(fresh)),
                               "trial %d, %zu rows x %zu cols: warm %.12g, fresh %.12g", trial,
                               R, n, f, fresh);
            /* primal feasible, and strong duality at the warm solution */
            double by = 0.0, cx = 0.0;
            for (size_t r = 0; r < R; r++) {
                double ax = 0.0;
                for (size_t j = 0; j < n; j++)
                    ax += p.A[r][j] * x[j];
                cr_assert_geq(ax, p.b[r] - 1e-9);
                cr_assert_geq(y[r], -1e-9);
                by += p.b[r] * y[r];
            }
            for (size_t j = 0; j < n; j++) {
                cr_assert_geq(x[j], -1e-12);
                cx += p.c[j] * x[j];
                double aty = 0.0;
                for (size_t r = 0; r < R; r++)
                    aty += p.A[r][j] * y[r];
                cr_assert_leq(aty, p.c[j] + 1e-9, "dual infeasible at column %zu", j);
            }
            cr_assert_float_eq(cx, f, 1e-9 * (1 + fabs(f)));
            cr_assert_float_eq(by, f, 1e-8 * (1 + fabs(f)), "b^T y %.12g != f %.12g", by, f);
        }
        bl_lp_free(&lp);
    }
}

/* Deleting rows leaves the LP of the others, in their order. */
static void lp_del(int mode)
{
    bl_lp lp;
    lp_mode(&lp, mode);
    bl_lp_add_col(&lp, 1.0, NULL);
    bl_lp_add_col(&lp, 1.0, NULL);
    const double r0[] = {1, 2}, big[] = {1, 1}, r1[] = {3, 1}, junk[] = {1, 0};
    bl_lp_add_row(&lp, r0, 4);     /* 0: kept            */
    bl_lp_add_row(&lp, big, 10);   /* 1: dominates: del  */
    bl_lp_add_row(&lp, r1, 6);     /* 2: kept            */
    bl_lp_add_row(&lp, junk, 0.5); /* 3: deleted         */
    double f, y[4];
    bl_error err;
    cr_assert_eq(bl_lp_solve(&lp, NULL, y, &f, &err), 0, "%s", err.msg);
    cr_assert_float_eq(f, 10.0, 1e-9);
    const unsigned char none[4] = {0, 0, 0, 0};
    bl_lp_del_rows(&lp, none);
    cr_assert_eq(lp.rows, 4);
    const unsigned char del[4] = {0, 1, 0, 1};
    bl_lp_del_rows(&lp, del);
    cr_assert_eq(lp.rows, 2);
    cr_assert_eq(bl_lp_solve(&lp, NULL, y, &f, &err), 0, "%s", err.msg);
    cr_assert_float_eq(f, 2.8, 1e-9);
    cr_assert_float_eq(y[0], 0.4, 1e-9, "row order after deletion: duals %g %g", y[0], y[1]);
    cr_assert_float_eq(y[1], 0.2, 1e-9);
    /* and the LP keeps growing after a deletion */
    cr_assert_eq(bl_lp_add_row(&lp, big, 3.5), 2);
    cr_assert_eq(bl_lp_solve(&lp, NULL, NULL, &f, &err), 0, "%s", err.msg);
    cr_assert_float_eq(f, 3.5, 1e-9);
    bl_lp_free(&lp);

    /* random: delete a random subset, compare with the fresh LP */
    rng_seed(11);
    for (int trial = 0; trial < 20; trial++) {
        struct rlp p;
        rlp_random(&p, 12, 6);
        lp_mode(&lp, mode);
        for (size_t j = 0; j < p.n; j++)
            bl_lp_add_col(&lp, p.c[j], NULL);
        for (size_t r = 0; r < p.R; r++)
            bl_lp_add_row(&lp, p.A[r], p.b[r]);
        cr_assert_eq(bl_lp_solve(&lp, NULL, NULL, &f, &err), 0, "%s", err.msg);
        unsigned char skip[12];
        size_t left = 0;
        for (size_t r = 0; r < p.R; r++) {
            skip[r] = urand() < 0.4;
            left += !skip[r];
        }
        bl_lp_del_rows(&lp, skip);
        cr_assert_eq(lp.rows, left);
        cr_assert_eq(bl_lp_solve(&lp, NULL, NULL, &f, &err), 0, "%s", err.msg);
        double fresh = rlp_fresh(&p, p.R, p.n, skip);
        cr_assert_float_eq(f, fresh, 1e-9 * (1 + fabs(fresh)), "trial %d: %.12g vs fresh %.12g",
                           trial, f, fresh);
        bl_lp_free(&lp);
    }
}

Test(structured, lp_del_rows)
{
    for (int k = 0; k < LP_MODES; k++)
        lp_del(k);
}

/* ---- StructBoost ------------------------------------------------------------------ */

/* Theorem 2.1 / spec §9.2: run both masters to column-generation
 * convergence; the objectives agree within C eps_cp. */
static void theorem21(const bl_dataset *ds, const char *task, const char *pos, double *f1,
                      double *fm)
{
    bl_algo_spec a1, am;
    const char *common[] = {"method", "structboost", "task", task, "weak", "stump",
                            "C", "10", "eps_cp", "0.001", "eps_cg", "1e-6"};
    const char *k1[32], *km[32];
    size_t n = sizeof common / sizeof *common;
    memcpy(k1, common, sizeof common);
    memcpy(km, common, sizeof common);
    size_t n1 = n, nm = n;
    if (pos) {
        k1[n1++] = "task.positive", k1[n1++] = pos;
        km[nm++] = "task.positive", km[nm++] = pos;
    }
    k1[n1++] = "formulation", k1[n1++] = "1-slack", k1[n1] = NULL;
    km[nm++] = "formulation", km[nm++] = "m-slack", km[nm] = NULL;
    algo(&a1, k1);
    algo(&am, km);
    cr_assert_eq(a1.mslack, 0);
    cr_assert_eq(am.mslack, 1);
    bl_curve c1, cm;
    bl_metrics m1, mm;
    run(&a1, 400, ds, NULL, &c1, &m1);
    run(&am, 400, ds, NULL, &cm, &mm);
    cr_assert_eq(c1.stop, BL_STOP_DUAL, "%s 1-slack did not converge in %zu iterations", task,
                 c1.n);
    cr_assert_eq(cm.stop, BL_STOP_DUAL, "%s m-slack did not converge in %zu iterations", task,
                 cm.n);
    *f1 = final_f(&c1);
    *fm = final_f(&cm);
    double tol = a1.C * a1.eps_cp + 1e-6 * fabs(*fm);
    cr_assert(fabs(*f1 - *fm) <= tol,
              "%s: 1-slack objective %.10g, m-slack %.10g: differ by more than C eps_cp = %g",
              task, *f1, *fm, tol);
    /* both start from the empty model's objective C * mean max hinge, and
     * learn something */
    cr_assert_float_eq(c1.train_loss0, cm.train_loss0, 1e-12);
    cr_assert_lt(*f1, c1.train_loss0);
    assert_monotone(&c1, &a1, "1-slack");
    assert_monotone(&cm, &am, "m-slack");
    /* the final metrics are the last curve entry's */
    cr_assert_float_eq(m1.train[0], c1.train_err[c1.n - 1], 1e-12);
    cr_assert(isnan(m1.test[0]));
    bl_curve_free(&c1);
    bl_curve_free(&cm);
    bl_metrics_free(&m1);
    bl_metrics_free(&mm);
    bl_algo_free(&a1);
    bl_algo_free(&am);
}

Test(structured, theorem21_multiclass, .timeout = 60)
{
    tdata t;
    td_clusters(&t, 36, 3, 3, 1.5, 3); /* overlapping: slacks matter */
    double f1, fm;
    theorem21(&t.ds, "multiclass", NULL, &f1, &fm);
    cr_assert_gt(fm, 1.0, "a degenerate problem (f = %g) proves nothing", fm);
    td_free(&t);
}

/* master = dual: GLPK solves the dual of the same master LP, so both
 * formulations reach the primal master's objective (within C eps_cp, the
 * cutting planes' own tolerance) from the same start. */
Test(structured, master_dual_same_objective, .timeout = 60)
{
    tdata t;
    td_clusters(&t, 36, 3, 3, 1.5, 3);
    const char *form[] = {"1-slack", "m-slack"};
    for (int k = 0; k < 2; k++) {
        bl_algo_spec ap, ad;
        const char *kp[] = {"method", "structboost", "task", "multiclass", "weak", "stump",
                            "C", "10", "eps_cp", "0.001", "eps_cg", "1e-6",
                            "formulation", form[k], NULL};
        const char *kd[] = {"method", "structboost", "task", "multiclass", "weak", "stump",
                            "C", "10", "eps_cp", "0.001", "eps_cg", "1e-6",
                            "formulation", form[k], "master", "dual", NULL};
        algo(&ap, kp);
        algo(&ad, kd);
        cr_assert_eq(ap.master_dual, 0);
        cr_assert_eq(ad.master_dual, 1);
        bl_curve cp, cd;
        bl_metrics mp, md;
        run(&ap, 400, &t.ds, NULL, &cp, &mp);
        run(&ad, 400, &t.ds, NULL, &cd, &md);
        cr_assert_eq(cd.stop, BL_STOP_DUAL, "%s, dual master: no convergence in %zu iterations",
                     form[k], cd.n);
        double fp = final_f(&cp), fd = final_f(&cd), tol = ap.C * ap.eps_cp + 1e-6 * fabs(fp);
        cr_assert(fabs(fp - fd) <= tol, "%s: primal master %.10g, dual master %.10g", form[k],
                  fp, fd);
        cr_assert_gt(fp, 1.0, "a degenerate problem (f = %g) proves nothing", fp);
        assert_monotone(&cd, &ad, "dual master");
        bl_curve_free(&cp);
        bl_curve_free(&cd);
        bl_metrics_free(&mp);
        bl_metrics_free(&md);
        bl_algo_free(&ap);
        bl_algo_free(&ad);
    }
    td_free(&t);
}

Test(structured, theorem21_auc, .timeout = 60)
{
    tdata t;
    td_clusters(&t, 28, 2, 2, 1.6, 5);
    double f1, fm;
    theorem21(&t.ds, "auc", "1", &f1, &fm);
    cr_assert_gt(fm, 1.0, "a degenerate problem (f = %g) proves nothing", fm);
    td_free(&t);
}

/* A 4-leaf taxonomy (tree loss up to 2) in a temporary file named path
 * (a "/tmp/bl-sbtax-XXXXXX" buffer). */
static void taxonomy4(char *path)
{
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("root: ab, cd\nab: a, b\ncd: c, d\n", f);
    fclose(f);
}

Test(structured, theorem21_hierarchy, .timeout = 60)
{
    char path[] = "/tmp/bl-sbtax-XXXXXX";
    taxonomy4(path);
    tdata t;
    td_clusters(&t, 32, 3, 4, 0.9, 9);
    bl_algo_spec a1, am;
    const char *k1[] = {"method", "structboost", "task", "hierarchy", "weak", "stump", "C", "10",
                        "eps_cp", "0.001", "eps_cg", "1e-6", "task.taxonomy", path, NULL};
    algo(&a1, k1);
    algo(&am, k1);
    bl_error err;
    cr_assert_eq(bl_algo_set(&am, &reg, "formulation", "m-slack", &err), 0, "%s", err.msg);
    bl_curve c1, cm;
    bl_metrics m1, mm;
    run(&a1, 400, &t.ds, &t.ds, &c1, &m1);
    run(&am, 400, &t.ds, &t.ds, &cm, &mm);
    cr_assert_eq(c1.stop, BL_STOP_DUAL);
    cr_assert_eq(cm.stop, BL_STOP_DUAL);
    cr_assert(fabs(final_f(&c1) - final_f(&cm)) <= a1.C * a1.eps_cp,
              "hierarchy: 1-slack %.10g, m-slack %.10g", final_f(&c1), final_f(&cm));
    assert_monotone(&c1, &a1, "hierarchy 1-slack");
    assert_monotone(&cm, &am, "hierarchy m-slack");
    cr_assert_eq(m1.n, 2);
    cr_assert_str_eq(m1.name[0], "error");
    cr_assert_str_eq(m1.name[1], "tree_loss");
    /* the test part is the training part: the same metrics; the tree loss
     * is at least the error (every mistake costs 1 or 2) and at most 2x */
    for (size_t j = 0; j < 2; j++)
        cr_assert_float_eq(m1.train[j], m1.test[j], 1e-12);
    cr_assert_geq(m1.train[1], m1.train[0] - 1e-12);
    cr_assert_leq(m1.train[1], 2 * m1.train[0] + 1e-12);
    bl_curve_free(&c1);
    bl_curve_free(&cm);
    bl_metrics_free(&m1);
    bl_metrics_free(&mm);
    bl_algo_free(&a1);
    bl_algo_free(&am);
    td_free(&t);
    unlink(path);
}

/* Issue 32: every 1-slack master (cutting planes on the primal LP or on
 * GLPK's dual, and the pairs master that keeps the cuts disaggregated, on
 * Clp) reaches the m-slack LP's optimum (GLPK) to 1e-6 relative when its
 * own tolerance is tight, on the multi-class and hierarchy tasks, and the pairs master
 * keeps the same working-set semantics (no cuts handed to a model). */
static void same_optimum(const bl_dataset *ds, const char *task, const char *tax)
{
    const char *master[] = {"primal", "dual", "pairs"};
    double f[4];
    for (int k = 0; k < 4; k++) {
        const char *kv[] = {"method", "structboost", "task", task, "weak", "stump", "C", "10",
                            "eps_cp", "1e-9", "eps_cg", "1e-9",
                            "formulation", k < 3 ? "1-slack" : "m-slack",
                            k < 3 ? "master" : "eps_cg", k < 3 ? master[k] : "1e-9",
                            tax ? "task.taxonomy" : NULL, tax, NULL};
        bl_algo_spec a;
        algo(&a, kv);
        cr_assert_eq(a.master_dual, k < 3 ? k : 0);
        bl_curve cv;
        bl_metrics met;
        run(&a, 400, ds, NULL, &cv, &met);
        cr_assert_eq(cv.stop, BL_STOP_DUAL, "%s, %s: no convergence in %zu iterations", task,
                     k < 3 ? master[k] : "m-slack", cv.n);
        f[k] = final_f(&cv);
        cr_assert_gt(f[k], 1.0, "a degenerate problem (f = %g) proves nothing", f[k]);
        assert_monotone(&cv, &a, k < 3 ? master[k] : "m-slack");
        bl_curve_free(&cv);
        bl_metrics_free(&met);
        bl_algo_free(&a);
    }
    for (int k = 0; k < 3; k++)
        cr_assert(fabs(f[k] - f[3]) <= 1e-6 * f[3],
                  "%s: 1-slack master = %s reaches %.12g, the m-slack LP %.12g (relative %.2g)",
                  task, master[k], f[k], f[3], (f[k] - f[3]) / f[3]);
}

Test(structured, masters_same_optimum_multiclass, .timeout = 120)
{
    tdata t;
    td_clusters(&t, 36, 3, 3, 1.5, 3);
    same_optimum(&t.ds, "multiclass", NULL);
    td_free(&t);
}

Test(structured, masters_same_optimum_hierarchy, .timeout = 120)
{
    char path[] = "/tmp/bl-sbtax-XXXXXX";
    taxonomy4(path);
    tdata t;
    td_clusters(&t, 32, 3, 4, 0.9, 9);
    same_optimum(&t.ds, "hierarchy", path);
    td_free(&t);
    unlink(path);
}

/* Spec §9.1: LPBoost (binary task, stumps) on data separable by a sum of
 * stumps reaches training error 0; objective non-increasing (§9.4). */
Test(structured, binary_separable_zero_error, .timeout = 60)
{
    tdata t;
    td_majority(&t, 40, 4, 21);
    /* C/m = 25 per mistake > 3 = the cost of a perfect w = (1, 1, 1): the
     * optimum makes no mistake */
    const char *kv[] = {"method", "structboost", "task", "binary-task", "weak", "stump",
                        "C", "1000", "eps_cp", "0.0001", "task.positive", "1", NULL};
    const char *fo[] = {"1-slack", "m-slack"};
    for (int v = 0; v < 2; v++) {
        bl_algo_spec a;
        algo(&a, kv);
        bl_error err;
        cr_assert_eq(bl_algo_set(&a, &reg, "formulation", fo[v], &err), 0, "%s", err.msg);
        bl_curve cv;
        bl_metrics met;
        run(&a, 200, &t.ds, NULL, &cv, &met);
        cr_assert_eq(cv.stop, BL_STOP_DUAL, "%s: no convergence in %zu iterations", fo[v], cv.n);
        cr_assert_eq(cv.train_err[cv.n - 1], 0.0, "%s: training error %g", fo[v],
                     cv.train_err[cv.n - 1]);
        cr_assert_eq(met.n, 1);
        cr_assert_str_eq(met.name[0], "error");
        cr_assert_eq(met.train[0], 0.0);
        cr_assert_float_eq(cv.train_loss0, 1000.0, 1e-9); /* C * mean hinge 1 */
        cr_assert_leq(final_f(&cv), 3.0 + a.C * a.eps_cp, "%s: f = %g above w = (1,1,1)'s 3",
                      fo[v], final_f(&cv));
        assert_monotone(&cv, &a, fo[v]);
        for (size_t i = 1; i < cv.n; i++)
            cr_assert_geq(cv.trees[i], cv.trees[i - 1]);
        bl_curve_free(&cv);
        bl_metrics_free(&met);
        bl_algo_free(&a);
    }
    td_free(&t);
}

/* Monotone objective on a harder multi-class problem with the paper's
 * defaults (C = 100, eps_cp = 0.01), over many iterations. */
Test(structured, structboost_monotone_defaults, .timeout = 60)
{
    tdata t;
    td_clusters(&t, 48, 4, 4, 1.1, 17);
    const char *kv[] = {"method", "structboost", "task", "multiclass", "weak", "stump", NULL};
    bl_algo_spec a;
    algo(&a, kv);
    bl_curve cv;
    bl_metrics met;
    run(&a, 60, &t.ds, NULL, &cv, &met);
    assert_monotone(&cv, &a, "multiclass C = 100");
    cr_assert_lt(final_f(&cv), cv.train_loss0);
    bl_curve_free(&cv);
    bl_metrics_free(&met);
    bl_algo_free(&a);
    td_free(&t);
}

/* ---- structural SVM ------------------------------------------------------------ */

Test(structured, ssvm_converges_and_separates, .timeout = 60)
{
    tdata t;
    td_clusters(&t, 45, 3, 3, 0.3, 23); /* linearly separable */
    const char *kv[] = {"method", "ssvm", "task", "multiclass", "C", "100", "eps_cp", "0.001",
                        NULL};
    bl_algo_spec a;
    algo(&a, kv);
    bl_curve cv;
    bl_metrics met;
    run(&a, 1000, &t.ds, &t.ds, &cv, &met);
    cr_assert_eq(cv.stop, BL_STOP_DUAL, "no convergence in %zu rounds", cv.n);
    double f = final_f(&cv), fmin = INFINITY;
    for (size_t i = 0; i < cv.n; i++)
        fmin = fmin < cv.train_loss[i] ? fmin : cv.train_loss[i];
    /* every curve value is >= the optimum and the last is within C eps_cp
     * of it: a stable value */
    cr_assert_leq(f, fmin + a.C * a.eps_cp + 1e-9, "final %g, best %g", f, fmin);
    cr_assert_lt(f, cv.train_loss0 / 10, "objective %g did not fall from %g", f,
                 cv.train_loss0);
    cr_assert_float_eq(cv.train_loss0, 100.0, 1e-9);
    cr_assert_eq(met.train[0], 0.0, "training error %g on separable data", met.train[0]);
    cr_assert_eq(met.test[0], 0.0);
    cr_assert_eq(cv.train_err[cv.n - 1], 0.0);
    bl_curve_free(&cv);
    bl_metrics_free(&met);
    bl_algo_free(&a);

    /* and on the binary task, separable by a hyperplane */
    tdata b;
    td_alloc(&b, 40, 2, 2);
    rng_seed(29);
    for (size_t i = 0; i < 40; i++) {
        double x0 = urand(), x1 = urand();
        X(&b, i, 0) = (float)x0;
        X(&b, i, 1) = (float)x1;
        b.ds.y[i] = x0 + 2 * x1 > 1.5;
        if (fabs(x0 + 2 * x1 - 1.5) < 0.1) { /* a margin */
            X(&b, i, 1) += b.ds.y[i] ? 0.1f : -0.1f;
        }
    }
    const char *kb[] = {"method", "ssvm", "task", "binary-task", "C", "1000", "task.positive",
                        "1", NULL};
    algo(&a, kb);
    run(&a, 1000, &b.ds, NULL, &cv, &met);
    cr_assert_eq(cv.stop, BL_STOP_DUAL);
    cr_assert_eq(met.train[0], 0.0, "binary-task: training error %g", met.train[0]);
    bl_curve_free(&cv);
    bl_metrics_free(&met);
    bl_algo_free(&a);
    td_free(&b);
    td_free(&t);
}

/* ---- one-vs-all SVMs --------------------------------------------------------- */

/* The error of liblinear's one-vs-all machines trained directly as ovasvm.c
 * documents (standardised on the training part, bias 1, L2R_L2LOSS_SVC_DUAL,
 * eps 0.1), on train and on test. */
static void direct_liblinear(const bl_dataset *tr, const bl_dataset *te, double C, double *etr,
                             double *ete)
{
    size_t m = tr->m, d = tr->d;
    double mu[8], sd[8];
    cr_assert(d <= 8);
    for (size_t f = 0; f < d; f++) {
        double s1 = 0, s2 = 0;
        for (size_t i = 0; i < m; i++) {
            s1 += tr->x[f * m + i];
            s2 += (double)tr->x[f * m + i] * tr->x[f * m + i];
        }
        mu[f] = s1 / (double)m;
        double var = s2 / (double)m - mu[f] * mu[f];
        sd[f] = var > 1e-24 ? sqrt(var) : 1.0;
    }
    const bl_dataset *parts[2] = {tr, te};
    struct feature_node *nodes[2];
    struct feature_node **rows[2];
    for (int p = 0; p < 2; p++) {
        const bl_dataset *ds = parts[p];
        nodes[p] = calloc(ds->m * (d + 2), sizeof **nodes);
        rows[p] = calloc(ds->m, sizeof **rows);
        for (size_t i = 0; i < ds->m; i++) {
            struct feature_node *n = nodes[p] + i * (d + 2);
            rows[p][i] = n;
            size_t q = 0;
            for (size_t f = 0; f < d; f++) {
                double x = ds->x[f * ds->m + i];
                if (x == mu[f])
                    continue;
                n[q].index = (int)f + 1;
                n[q++].value = (x - mu[f]) / sd[f];
            }
            n[q].index = (int)d + 1;
            n[q++].value = 1.0;
            n[q].index = -1;
        }
    }
    double *y = malloc(m * sizeof *y);
    for (size_t i = 0; i < m; i++)
        y[i] = tr->y[i];
    struct problem prob = {(int)m, (int)d + 1, y, rows[0], 1.0};
    struct parameter par;
    memset(&par, 0, sizeof par);
    par.solver_type = L2R_L2LOSS_SVC_DUAL;
    par.C = C;
    par.eps = 0.1;
    cr_assert_null(check_parameter(&prob, &par));
    srand(1);
    struct model *mo = train(&prob, &par);
    double *err[2] = {etr, ete};
    for (int p = 0; p < 2; p++) {
        size_t wrong = 0;
        for (size_t i = 0; i < parts[p]->m; i++)
            wrong += (int)predict(mo, rows[p][i]) != parts[p]->y[i];
        *err[p] = (double)wrong / (double)parts[p]->m;
        free(nodes[p]);
        free(rows[p]);
    }
    free_and_destroy_model(&mo);
    free(y);
}

Test(structured, ova_svm_matches_direct_liblinear)
{
    const double noise[] = {0.3, 1.2}; /* separable, then overlapping */
    for (int v = 0; v < 2; v++) {
        tdata tr, te;
        td_clusters(&tr, 60, 3, 3, noise[v], 31 + (uint64_t)v);
        td_clusters(&te, 45, 3, 3, noise[v], 37 + (uint64_t)v);
        const char *kv[] = {"method", "ova-svm", "task", "multiclass", "C", "1", NULL};
        bl_algo_spec a;
        algo(&a, kv);
        bl_curve cv;
        bl_metrics met;
        srand(1); /* liblinear shuffles with rand() */
        run(&a, 10, &tr.ds, &te.ds, &cv, &met);
        double etr, ete;
        direct_liblinear(&tr.ds, &te.ds, 1.0, &etr, &ete);
        cr_assert_eq(cv.n, 1);
        cr_assert_eq(met.n, 1);
        cr_assert_str_eq(met.name[0], "error");
        cr_assert_float_eq(met.train[0], etr, 1e-12, "noise %g: train error %g, direct %g",
                           noise[v], met.train[0], etr);
        cr_assert_float_eq(met.test[0], ete, 1e-12, "noise %g: test error %g, direct %g",
                           noise[v], met.test[0], ete);
        cr_assert_float_eq(cv.train_err[0], etr, 1e-12);
        cr_assert_float_eq(cv.test_err[0], ete, 1e-12);
        if (v == 0) {
            cr_assert_eq(met.train[0], 0.0, "separable: train error %g", met.train[0]);
            cr_assert_eq(met.test[0], 0.0, "separable: test error %g", met.test[0]);
        } else {
            cr_assert_gt(etr, 0.0, "the overlapping case should make mistakes");
        }
        bl_curve_free(&cv);
        bl_metrics_free(&met);
        bl_algo_free(&a);
        td_free(&tr);
        td_free(&te);
    }
}

/* ---- threads ------------------------------------------------------------------ */

static void assert_same_curve(const bl_curve *a, const bl_curve *b, const char *what)
{
    cr_assert_eq(a->n, b->n, "%s: %zu vs %zu iterations", what, a->n, b->n);
    cr_assert_eq(a->stop, b->stop, "%s", what);
    for (size_t i = 0; i < a->n; i++) {
        cr_assert_eq(a->train_loss[i], b->train_loss[i], "%s: train_loss[%zu] %.17g vs %.17g",
                     what, i, a->train_loss[i], b->train_loss[i]);
        cr_assert_eq(a->train_err[i], b->train_err[i], "%s: train_err[%zu]", what, i);
        cr_assert((isnan(a->test_err[i]) && isnan(b->test_err[i])) ||
                      a->test_err[i] == b->test_err[i], "%s: test_err[%zu]", what, i);
        cr_assert((isnan(a->edge[i]) && isnan(b->edge[i])) || a->edge[i] == b->edge[i],
                  "%s: edge[%zu] %.17g vs %.17g", what, i, a->edge[i], b->edge[i]);
        cr_assert_eq(a->solver_iters[i], b->solver_iters[i], "%s: solver_iters[%zu]", what, i);
        cr_assert_eq(a->trees[i], b->trees[i], "%s: trees[%zu]", what, i);
    }
}

/* Large enough for the parallel paths: the stump scans in parallel from
 * m * d >= 65536 cells, the separation oracle from 50000 examples (AUC
 * pairs: 260 x 260). */
Test(structured, threads_give_identical_curves, .timeout = 120)
{
    tdata t;
    size_t m = 520, d = 128;
    td_alloc(&t, m, d, 2);
    rng_seed(41);
    for (size_t i = 0; i < m; i++) {
        t.ds.y[i] = (int)(i % 2);
        for (size_t f = 0; f < d; f++)
            X(&t, i, f) = (float)(urand() + (f < 8 ? 0.15 * t.ds.y[i] : 0.0));
    }
    const char *sb_auc[] = {"method", "structboost", "task", "auc", "weak", "stump",
                            "task.positive", "1", NULL};
    const char *sb_bin[] = {"method", "structboost", "task", "binary-task", "weak", "stump",
                            NULL};
    const char *sv_auc[] = {"method", "ssvm", "task", "auc", "task.positive", "1", NULL};
    const char *const *algos[] = {sb_auc, sb_bin, sv_auc};
    const char *names[] = {"structboost auc", "structboost binary-task", "ssvm auc"};
    const int iters[] = {6, 15, 6};
    for (int k = 0; k < 3; k++) {
        bl_algo_spec a;
        algo(&a, algos[k]);
        bl_curve cv[2];
        bl_metrics met[2];
        for (int th = 0; th < 2; th++) {
            bl_set_threads(th + 1);
#ifdef _OPENMP
            cr_assert_eq(bl_host_api.threads, th + 1);
#endif
            run(&a, iters[k], &t.ds, &t.ds, &cv[th], &met[th]);
        }
        bl_set_threads(1);
        assert_same_curve(&cv[0], &cv[1], names[k]);
        cr_assert_eq(met[0].n, met[1].n);
        for (size_t j = 0; j < met[0].n; j++) {
            cr_assert_eq(met[0].train[j], met[1].train[j], "%s: metric %s", names[k],
                         met[0].name[j]);
            cr_assert_eq(met[0].test[j], met[1].test[j]);
        }
        for (int th = 0; th < 2; th++) {
            bl_curve_free(&cv[th]);
            bl_metrics_free(&met[th]);
        }
        bl_algo_free(&a);
    }
    td_free(&t);
}

/* ---- the method table (exec/method.h) ----------------------------------------- */

/* Every method has a row under its experiment-file name; only boost leaves a
 * model, and asking another method for one is refused before it trains. */
Test(structured, method_table)
{
    for (int id = 0; id < BL_NMETHODS; id++) {
        const bl_method *m = bl_method_get(id);
        cr_assert(m && m->run, "method %d has no row", id);
        cr_assert_str_eq(m->name, bl_method_names[id]);
        cr_assert_eq(m->model, id == BL_METHOD_BOOST, "%s", m->name);
    }
    cr_assert_null(bl_method_get(BL_NMETHODS));
    bl_algo_spec a;
    algo(&a, (const char *const[]){"method", "ssvm", NULL});
    bl_model mo;
    bl_curve cv;
    bl_metrics met;
    memset(&cv, 0, sizeof cv);
    memset(&met, 0, sizeof met);
    bl_method_cfg cfg = {&a, 1, 1, NULL, NULL, 256};
    bl_method_io io = {NULL, NULL, NULL, &cv, &met, &mo};
    bl_error err;
    cr_assert_eq(bl_method_run(&cfg, &io, &err), -1);
    cr_assert(strstr(err.msg, "method ssvm, whose models are not saved"), "%s", err.msg);
    bl_algo_free(&a);
}

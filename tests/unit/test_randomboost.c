/* SPDX-License-Identifier: GPL-3.0-or-later */
/* RandomBoost in the engine (projections): the gaussian plugin's
 * columns (order-free, N(0, 1/n)), RBoost-rank (shared coefficients, the
 * closed-form first step, model files that regenerate the projection) and
 * RBoost-proj (coefficients W = P^T w, w >= 0), and thread invariance. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <unistd.h>

#include "data/quantize.h"
#include "config/experiment.h"
#include "engine/engine.h"
#include "engine/project.h"
#include "util/rng.h"
#include "testutil.h"

TEST_REGISTRY(reg, setup, teardown)

TestSuite(rboost, .init = setup, .fini = teardown);

typedef struct {
    bl_dataset ds, te;
    bl_qview q;
    struct bl_train tv;
} problem;

/* k classes on a circle in 2-D plus noise features, oblique boundaries. */
static void make(bl_dataset *ds, size_t m, size_t d, size_t k, uint64_t seed)
{
    rng_seed(seed);
    memset(ds, 0, sizeof *ds);
    ds->m = m, ds->d = d, ds->k = k;
    ds->y = calloc(m, sizeof *ds->y);
    ds->x = calloc(m * d, sizeof *ds->x);
    for (size_t i = 0; i < m; i++) {
        int c = (int)(i % k);
        ds->y[i] = c;
        for (size_t f = 0; f < d; f++) {
            double g = sqrt(-2 * log(urand() + 1e-300)) * cos(6.283185307179586 * urand());
            double mean = f == 0 ? 3 * cos(6.28 * c / k) : f == 1 ? 3 * sin(6.28 * c / k) : 0;
            ds->x[f * m + i] = (float)(mean + g + (f == 2 ? 100.0 : 0.0)); /* one far offset */
        }
    }
}

static void prepare(problem *p, size_t m, size_t d, size_t k)
{
    bl_error err;
    make(&p->ds, m, d, k, 7 + m + k);
    make(&p->te, m / 2, d, k, 99 + m);
    cr_assert_eq(bl_quantize(&p->ds, 64, &p->q, &err), 0, "%s", err.msg);
    bl_train_view(&p->ds, &p->q, &p->tv);
}

static void release(problem *p)
{
    bl_qview_free(&p->q);
    free(p->ds.y), free(p->ds.x), free(p->te.y), free(p->te.x);
}

static void algo(bl_algo_spec *a, const char *const *sets)
{
    bl_error err;
    bl_algo_init(a);
    a->name = strdup("rb");
    for (; sets && *sets; sets += 2)
        cr_assert_eq(bl_algo_set(a, &reg, sets[0], sets[1], &err), 0, "%s: %s", sets[0], err.msg);
}

static const char *rank_sw[] = {"loss", "margin-exp", "weak", "stump", "solver", "lbfgsb-line",
                                "solver.pgtol", "1e-12", "solver.ftol", "0", "nu", "0",
                                "projection", "gaussian", "projection.n", "40", "project",
                                "inputs", NULL};
static const char *rank_tc[] = {"loss", "margin-exp", "weak", "stump", "solver", "lbfgsb-tc",
                                "nu", "1e-4", "projection", "gaussian", "projection.n", "40",
                                "project", "inputs", NULL};
static const char *proj[] = {"loss", "margin-log", "loss.normalize", "examples", "weak", "stump",
                             "solver", "lbfgsb-tc", "nu", "1e-4", "projection", "gaussian",
                             "projection.n", "30", "project", "outputs", NULL};

static void train(const bl_algo_spec *a, problem *p, int T, bl_model *mo, bl_curve *cv)
{
    bl_error err;
    bl_model_init(mo, a->weak.plugin, p->ds.k, p->ds.d, NULL, NULL);
    bl_boost_cfg cfg = bl_algo_boost_cfg(a, T, 5);
    cfg.max_bins = 64;
    struct bl_matrix Xt = {p->te.m, p->te.d, p->te.x};
    cr_assert_eq(bl_boost(&cfg, &p->tv, &Xt, p->te.y, mo, cv, &err), 0, "%s", err.msg);
}

Test(rboost, gaussian_columns_do_not_depend_on_call_order_and_have_variance_one_over_n)
{
    const struct bl_plugin *g = bl_registry_find(&reg, "gaussian", BL_ROLE_PROJECTION);
    cr_assert_not_null(g);
    bl_paramset ps;
    bl_error err;
    cr_assert_eq(bl_paramset_init(&ps, g, &err), 0);
    cr_assert_eq(bl_paramset_set(&ps, "n", "2001", &err), 0); /* odd: Box-Muller's last half */
    bl_proj a, b;
    cr_assert_eq(bl_proj_open(&a, &ps, 3, 11, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_proj_open(&b, &ps, 3, 11, &err), 0, "%s", err.msg);
    size_t n = a.n;
    double *x = malloc(3 * n * sizeof *x), *y = malloc(3 * n * sizeof *y);
    double *z = malloc(3 * n * sizeof *z);
    bl_proj_columns(&b, 5, z); /* b draws other columns first */
    bl_proj_columns(&b, 9, y);
    bl_proj_columns(&a, 9, x);
    cr_assert_eq(memcmp(x, y, 3 * n * sizeof *x), 0, "column 9 depends on what came before");
    double s = 0, ss = 0;
    for (size_t q = 0; q < 3 * n; q++) {
        cr_assert(isfinite(x[q]));
        s += x[q], ss += x[q] * x[q];
    }
    double mean = s / (3.0 * n), var = ss / (3.0 * n) - mean * mean;
    cr_assert_lt(fabs(mean), 4.0 / sqrt(3.0 * n) / sqrt((double)n), "mean %g", mean);
    cr_assert_lt(fabs(var * n - 1.0), 0.1, "n var = %g", var * n);
    cr_assert_neq(memcmp(x, x + n, n * sizeof *x), 0, "classes 0 and 1 share a column");
    cr_assert_neq(memcmp(x, z, n * sizeof *x), 0, "columns 5 and 9 are equal");
    bl_proj_close(&a), bl_proj_close(&b), bl_paramset_free(&ps);
    free(x), free(y), free(z);
}

Test(rboost, rank_shares_one_coefficient_and_its_first_step_is_the_closed_form)
{
    problem p;
    prepare(&p, 150, 4, 3);
    bl_algo_spec a;
    algo(&a, rank_sw);
    bl_model mo;
    bl_curve cv;
    train(&a, &p, 15, &mo, &cv);
    cr_assert_eq(mo.t, 15);
    for (size_t j = 0; j < mo.t; j++) {
        cr_assert_eq(mo.term[j].outdim, p.ds.k);
        for (size_t r = 1; r < p.ds.k; r++)
            cr_assert_eq(mo.term[j].w[r], mo.term[j].w[0], "term %zu: classes differ", j);
    }
    /* iteration 1 from F = 0: every pair weighs 1, w = 1/4 ln(Q+/Q-) (eq. 8) */
    size_t m = p.ds.m, k = p.ds.k;
    float *Z = bl_proj_inputs(mo.proj, &p.tv.X);
    struct bl_matrix ZM = {m * k, mo.proj->n, Z};
    double *h = malloc(m * k * sizeof *h);
    ((const struct bl_weak_ops *)mo.weak->ops)->predict(mo.term[0].hyp, &ZM, h);
    double qp = 0, qm = 0;
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++) {
            double dh = h[i * k + p.ds.y[i]] - h[i * k + r];
            qp += dh > 1, qm += dh < -1;
        }
    cr_assert_gt(qm, 0);
    cr_assert_float_eq(mo.term[0].w[0], 0.25 * log(qp / qm), 1e-6, "w1 %.9g vs %.9g",
                       mo.term[0].w[0], 0.25 * log(qp / qm));
    /* training error falls well below chance on this oblique problem */
    cr_assert_lt(cv.train_err[cv.n - 1], 0.2);
    free(Z), free(h);
    bl_curve_free(&cv), bl_model_free(&mo), bl_algo_free(&a), release(&p);
}

/* The engine's tracked test error equals the saved and reloaded model's:
 * the projection and the standardisation are regenerated exactly. */
static void round_trip(const char *const *sets)
{
    problem p;
    prepare(&p, 120, 5, 4);
    bl_algo_spec a;
    algo(&a, sets);
    bl_model mo, back;
    bl_curve cv;
    train(&a, &p, 12, &mo, &cv);
    char path[] = "/tmp/bl-rb-model-XXXXXX";
    close(mkstemp(path));
    bl_error err;
    cr_assert_eq(bl_model_save(&mo, path, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_model_load(path, &reg, &back, &err), 0, "%s", err.msg);
    unlink(path);
    size_t mt = p.te.m, k = p.te.k;
    double *F1 = malloc(mt * k * sizeof *F1), *F2 = malloc(mt * k * sizeof *F2);
    struct bl_matrix X = {mt, p.te.d, p.te.x};
    bl_model_scores(&mo, &X, F1);
    bl_model_scores(&back, &X, F2);
    for (size_t q = 0; q < mt * k; q++)
        cr_assert_float_eq(F1[q], F2[q], 1e-9 * (1 + fabs(F1[q])), "score %zu", q);
    cr_assert_eq(bl_error_rate(F1, p.te.y, mt, k), cv.test_err[cv.n - 1]);
    free(F1), free(F2);
    bl_curve_free(&cv), bl_model_free(&mo), bl_model_free(&back), bl_algo_free(&a), release(&p);
}

Test(rboost, rank_model_files_regenerate_the_projection) { round_trip(rank_tc); }
Test(rboost, proj_model_files_predict_what_training_tracked) { round_trip(proj); }

Test(rboost, proj_coefficients_are_the_projected_weights)
{
    problem p;
    prepare(&p, 120, 5, 4);
    bl_algo_spec a;
    algo(&a, proj);
    bl_model mo;
    bl_curve cv;
    train(&a, &p, 10, &mo, &cv);
    /* W[j][r] = sum_v P^(r)[v][j] w_v for some w >= 0: with t k = 40
     * equations in n = 30 unknowns that holds only if the engine really
     * parameterises W by w.  Regenerate P from the engine's seed and find
     * the nonnegative least-squares w by projected gradient. */
    bl_proj P;
    bl_error err;
    cr_assert_eq(bl_proj_open(&P, &a.projection, p.ds.k,
                              bl_seed_derive(5, "projection", 0), &err), 0, "%s", err.msg);
    size_t k = p.ds.k, n = P.n, t = mo.t;
    double *A = calloc(k * t * n, sizeof *A), *W = calloc(k * t, sizeof *W);
    double *M = malloc(k * n * sizeof *M);
    for (size_t j = 0; j < t; j++) {
        bl_proj_columns(&P, j, M);
        for (size_t r = 0; r < k; r++) {
            memcpy(A + (j * k + r) * n, M + r * n, n * sizeof *A);
            W[j * k + r] = mo.term[j].w[r];
        }
    }
    double *w = calloc(n, sizeof *w), *g = malloc(n * sizeof *g), res = 0;
    for (int it = 0; it < 20000; it++) {
        memset(g, 0, n * sizeof *g);
        res = 0;
        for (size_t q = 0; q < k * t; q++) {
            double e = -W[q];
            for (size_t v = 0; v < n; v++)
                e += A[q * n + v] * w[v];
            res += e * e;
            for (size_t v = 0; v < n; v++)
                g[v] += e * A[q * n + v];
        }
        for (size_t v = 0; v < n; v++)
            w[v] = fmax(0.0, w[v] - 0.05 * g[v]);
    }
    double norm = 0;
    for (size_t q = 0; q < k * t; q++)
        norm += W[q] * W[q];
    cr_assert_gt(norm, 0);
    cr_assert_lt(res, 1e-8 * norm, "W is not P^T w for any w >= 0 (residual %g of %g)", res,
                 norm);
    free(A), free(W), free(M), free(w), free(g);
    bl_proj_close(&P);
    bl_curve_free(&cv), bl_model_free(&mo), bl_algo_free(&a), release(&p);
}

Test(rboost, same_result_with_one_or_two_threads)
{
    problem p;
    prepare(&p, 200, 4, 3);
    const char *const *all[] = {rank_sw, proj};
    for (int s = 0; s < 2; s++) {
        bl_algo_spec a;
        algo(&a, all[s]);
        bl_curve cv[2];
        bl_model mo[2];
        for (int t = 0; t < 2; t++) {
            omp_set_num_threads(t + 1);
            train(&a, &p, 8, &mo[t], &cv[t]);
        }
        omp_set_num_threads(2);
        cr_assert_eq(cv[0].n, cv[1].n);
        for (size_t j = 0; j < cv[0].n; j++)
            cr_assert_eq(cv[0].train_loss[j], cv[1].train_loss[j], "%d: iteration %zu", s, j);
        for (int t = 0; t < 2; t++)
            bl_curve_free(&cv[t]), bl_model_free(&mo[t]);
        bl_algo_free(&a);
    }
    release(&p);
}

Test(rboost, rel_tol_stops_when_the_objective_stalls)
{
    problem p;
    prepare(&p, 120, 4, 3);
    bl_algo_spec a;
    algo(&a, proj);
    bl_error err;
    cr_assert_eq(bl_algo_set(&a, &reg, "rel_tol", "0.05", &err), 0, "%s", err.msg);
    bl_model mo;
    bl_curve cv;
    train(&a, &p, 200, &mo, &cv);
    cr_assert_eq(cv.stop, BL_STOP_STALL);
    cr_assert_lt(cv.n, 200);
    bl_curve_free(&cv), bl_model_free(&mo), bl_algo_free(&a), release(&p);
}

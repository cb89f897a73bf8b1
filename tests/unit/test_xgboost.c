/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Method xgboost.  Its keys (config/xgbparam.c): values as XGBoost reads
 * them, written in table order whatever the order they were set in;
 * unknown names, the keys boostlab sets itself and bad values are refused
 * saying why; an [algorithm] section is checked as a whole, naming the
 * line of the key XGBoost refuses, and without XGBoost the method itself
 * is refused with the Debian package.  Its runs (baselines/xgboost.c), on
 * separable clusters: one curve entry a round, k trees a round (one for 2
 * classes), the empty model's figures; with eta = 0 every round keeps the
 * empty model, so the recorded loss must be m log k and the error that of
 * class 0 winning every tie, which checks the loss and the tie rule; with
 * eta > 0 the training loss falls and the clusters are learnt; the same
 * seed gives the same curve, with rows and features sampled.  The runs
 * are skipped in a build without XGBoost.
 */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "baselines/xgboost.h"
#include "config/experiment.h"
#include "plugin/loader.h"
#include "testutil.h"

static char *written(const bl_xgb_params *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    bl_xgb_params_write(p, f);
    fclose(f);
    return buf;
}

Test(xgboost, keys_are_canonical_and_in_table_order)
{
    bl_xgb_params p = {0};
    bl_error err;
    const char *set[][2] = {{"one_drop", "yes"}, {"tree_method", "hist"}, {"max_leaves", "20"},
                            {"eta", "0.10"}, {"lambda", "1e-1"}, {"eta", "2.5e-1"}};
    for (size_t j = 0; j < sizeof set / sizeof *set; j++)
        cr_assert_eq(bl_xgb_param_set(&p, set[j][0], set[j][1], &err), 0, "%s", err.msg);
    char *text = written(&p);
    cr_assert_str_eq(text, "xgb.eta = 0.25\nxgb.max_leaves = 20\nxgb.tree_method = hist\n"
                           "xgb.lambda = 0.1\nxgb.one_drop = 1\n");
    cr_assert_str_eq(bl_xgb_param_get(&p, "lambda"), "0.1");
    cr_assert_null(bl_xgb_param_get(&p, "gamma"));
    free(text);
    /* a real that 15 digits do not give back keeps all 17 */
    cr_assert_eq(bl_xgb_param_set(&p, "eta", "0.30000000000000004", &err), 0);
    cr_assert_str_eq(bl_xgb_param_get(&p, "eta"), "0.30000000000000004");
    bl_xgb_params_free(&p);
}

static void refused_key(const char *name, const char *value, const char *what)
{
    bl_xgb_params p = {0};
    bl_error err;
    cr_assert_eq(bl_xgb_param_set(&p, name, value, &err), -1, "%s = %s accepted", name, value);
    cr_assert(strstr(err.msg, what), "expected '%s' in: %s", what, err.msg);
    cr_assert_eq(p.n, 0);
}

Test(xgboost, bad_keys_say_why)
{
    refused_key("etaa", "0.1", "not an XGBoost parameter boostlab passes (accepted: booster, eta,");
    refused_key("seed", "3", "derives it from the experiment's seed");
    refused_key("objective", "multi:softmax", "sets it from the data");
    refused_key("nthread", "4", "the run's threads");
    refused_key("learning_rate", "0.1", "write it xgb.eta");
    refused_key("eta", "-1", "out of range");
    refused_key("subsample", "1.5", "out of range");
    refused_key("max_depth", "abc", "expected an integer");
    refused_key("grow_policy", "best", "one of depthwise|lossguide");
    refused_key("one_drop", "maybe", "expected a boolean");
}

/* Loading an experiment whose one [algorithm] is `algo`: 0, or -1 with
 * err naming its line. */
static int load(const char *algo, bl_error *err)
{
    char dir[] = "/tmp/bl-xgb-XXXXXX", path[64], data[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(data, sizeof data, "%s/tiny.csv", dir);
    snprintf(path, sizeof path, "%s/e.ini", dir);
    FILE *f = fopen(data, "w");
    fputs("label,a,b\n0,1,2\n1,3,4\n0,5,6\n1,7,8\n", f);
    fclose(f);
    f = fopen(path, "w");
    fprintf(f, "[data tiny]\nfile = tiny.csv\n[algorithm a]\n%s", algo);
    fclose(f);
    bl_registry reg;
    memset(&reg, 0, sizeof reg);
    cr_assert_eq(bl_registry_load_dir(&reg, BL_BUILD_DIR "/plugins", 1, err), 0, "%s", err->msg);
    bl_experiment ex;
    int rc = bl_experiment_load(path, &reg, &ex, err);
    if (rc == 0)
        bl_experiment_free(&ex);
    bl_registry_free(&reg);
    unlink(data);
    unlink(path);
    rmdir(dir);
    return rc;
}

static void refused_at(const char *algo, int line, const char *what)
{
    bl_error err;
    cr_assert_eq(load(algo, &err), -1, "accepted:\n%s", algo);
    char loc[32];
    snprintf(loc, sizeof loc, "e.ini:%d: [algorithm a]", line);
    cr_assert(strstr(err.msg, loc), "expected '%s' in: %s", loc, err.msg);
    cr_assert(strstr(err.msg, what), "expected '%s' in: %s", what, err.msg);
}

Test(xgboost, sections_are_checked_as_a_whole)
{
    if (!bl_have_xgboost) {
        refused_at("method = xgboost\n", 4, "built without XGBoost (Debian: apt-get install "
                                            "libxgboost-dev");
        return;
    }
    bl_error err;
    cr_assert_eq(load("method = xgboost\nxgb.tree_method = hist\nxgb.max_depth = 0\n", &err), 0,
                 "%s", err.msg);
    /* XGBoost's own rule between keys: exact trees need a depth limit */
    refused_at("method = xgboost\nxgb.eta = 0.1\nxgb.max_depth = 0\nxgb.tree_method = exact\n", 6,
               "xgb.max_depth = 0: XGBoost: exact tree method doesn't support unlimited depth");
    refused_at("method = xgboost\nshrinkage = 0.1\n", 5, "shrinkage is not a key of method xgboost");
    refused_at("method = xgboost\nloss = softmax\n", 5, "uses no loss plugin");
    refused_at("method = svm\nxgb.eta = 0.1\n", 5, "xgb.eta is a key of method xgboost");
}

/* k well separated clusters in 2-D, feature-major, n points a class but
 * class 0 twice as many (so that a tie to the wrong class would show). */
static void clusters(size_t k, size_t n, bl_dataset *ds)
{
    memset(ds, 0, sizeof *ds);
    ds->m = k * n;
    ds->d = 2;
    ds->k = k;
    ds->x = malloc(ds->m * 2 * sizeof *ds->x);
    ds->y = malloc(ds->m * sizeof *ds->y);
    rng_seed(11);
    for (size_t i = 0; i < ds->m; i++) {
        ds->y[i] = (int)(i % (k + 1) % k);
        double ang = 2 * M_PI * (double)ds->y[i] / (double)k;
        ds->x[i] = (float)(4 * cos(ang) + urange(-0.5, 0.5));
        ds->x[ds->m + i] = (float)(4 * sin(ang) + urange(-0.5, 0.5));
    }
}

static void run(size_t k, const char *const (*keys)[2], size_t nkeys, int iters, uint64_t seed,
                bl_curve *cv)
{
    bl_algo_spec a;
    bl_algo_init(&a);
    a.method = BL_METHOD_XGBOOST;
    bl_error err;
    for (size_t j = 0; j < nkeys; j++)
        cr_assert_eq(bl_xgb_param_set(&a.xgb, keys[j][0], keys[j][1], &err), 0, "%s", err.msg);
    bl_dataset tr, te;
    clusters(k, 20, &tr);
    clusters(k, 5, &te);
    bl_method_cfg mc = {&a, iters, seed, NULL, NULL, 256};
    cr_assert_eq(bl_xgboost(&mc, &tr, &te, cv, &err), 0, "%s", err.msg);
    cr_assert_eq(cv->n, (size_t)iters);
    cr_assert_float_eq(cv->train_loss0, (double)tr.m * log((double)k), 1e-9);
    for (size_t n = 0; n < cv->n; n++) {
        size_t per = k > 2 ? k : 1;
        cr_assert_eq(cv->trees[n], (n + 1) * per, "round %zu: %zu trees", n + 1, cv->trees[n]);
        cr_assert(isnan(cv->edge[n]));
        cr_assert(cv->t_weak[n] >= 0 && cv->t_book[n] >= 0 && cv->t_coef[n] == 0);
        cr_assert(cv->test_err[n] >= 0 && cv->test_err[n] <= 1);
    }
    free(tr.x);
    free(tr.y);
    free(te.x);
    free(te.y);
    bl_algo_free(&a);
}

Test(xgboost, empty_model_and_learning)
{
    if (!bl_have_xgboost)
        cr_skip_test("built without XGBoost");
    bl_host_api.threads = 1;
    static const char *const frozen[][2] = {{"eta", "0"}, {"tree_method", "hist"}};
    for (size_t k = 2; k <= 3; k++) {
        bl_curve cv;
        run(k, frozen, 2, 3, 5, &cv);
        for (size_t n = 0; n < cv.n; n++) {
            /* margins all equal: the loss of the uniform guess, class 0 wins */
            cr_assert_float_eq(cv.train_loss[n], cv.train_loss0, 1e-9 * cv.train_loss0,
                               "k %zu round %zu: loss %.17g, m log k %.17g", k, n + 1,
                               cv.train_loss[n], cv.train_loss0);
            cr_assert_float_eq(cv.train_err[n], 1 - 2.0 / (double)(k + 1), 0.02,
                               "k %zu round %zu: error %g, not class 0's", k, n + 1,
                               cv.train_err[n]);
            cr_assert_eq(cv.train_err[n], cv.train_err0);
        }
        bl_curve_free(&cv);
        static const char *const learn[][2] = {{"eta", "0.3"}, {"max_depth", "3"}};
        run(k, learn, 2, 20, 5, &cv);
        cr_assert_lt(cv.train_loss[0], cv.train_loss0);
        /* non-increasing up to XGBoost's float margins (it stalls once the
         * Hessians fall below min_child_weight) */
        for (size_t n = 1; n < cv.n; n++)
            cr_assert_leq(cv.train_loss[n], cv.train_loss[n - 1] * (1 + 1e-6), "round %zu",
                          n + 1);
        cr_assert_lt(cv.train_loss[cv.n - 1], cv.train_loss0 / 10);
        cr_assert_eq(cv.train_err[cv.n - 1], 0.0, "separable clusters are learnt");
        cr_assert_eq(cv.test_err[cv.n - 1], 0.0);
        bl_curve_free(&cv);
    }
}

Test(xgboost, same_seed_same_curve)
{
    if (!bl_have_xgboost)
        cr_skip_test("built without XGBoost");
    bl_host_api.threads = 1;
    static const char *const sampled[][2] = {
        {"eta", "0.3"}, {"subsample", "0.5"}, {"colsample_bynode", "0.5"}};
    bl_curve a, b, c;
    run(3, sampled, 3, 10, 7, &a);
    run(3, sampled, 3, 10, 7, &b);
    run(3, sampled, 3, 10, 1234567, &c);
    int differs = 0;
    for (size_t n = 0; n < a.n; n++) {
        cr_assert_eq(a.train_loss[n], b.train_loss[n], "round %zu", n + 1);
        cr_assert_eq(a.test_err[n], b.test_err[n], "round %zu", n + 1);
        differs |= a.train_loss[n] != c.train_loss[n];
    }
    cr_assert(differs, "another seed samples other rows");
    bl_curve_free(&a);
    bl_curve_free(&b);
    bl_curve_free(&c);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* HingeBoost.OC and AdaBoost.ERP pieces: the hinge loss (value,
 * tie-split subgradient, costs, pair weights, hinge targets and spec §2.9
 * item 3), the maxcut coding (one-vs-all start, ICM ends in a local
 * minimum, the inner-fit count, the stall rule), the erp coding (the
 * re-partition rule), and in the engine: stumps plug into the hinge loss
 * unchanged, with a loss that never rises. */
#include <math.h>
#include <stdlib.h>

#include "data/quantize.h"
#include "config/experiment.h"
#include "engine/engine.h"
#include "testutil.h"

static const struct bl_loss_ops *hinge_ops(void)
{
    return test_plugin("plugins/loss/hinge", "hinge")->ops;
}

static void *hinge_new(const char *costs)
{
    union bl_value v[1] = {{.s = costs}};
    char err[BL_ERR_MAX] = "";
    void *L = hinge_ops()->create(&test_host, v, err);
    cr_assert_not_null(L, "%s", err);
    return L;
}

Test(hinge, value_and_the_subgradient_split_over_ties)
{
    const struct bl_loss_ops *o = hinge_ops();
    void *L = hinge_new("");
    /* example 0 (class 0): rho = (0, 1 + 0.5, 1 + 0.5) -> 1.5, tie of 1 and 2;
     * example 1 (class 2): rho = (1 - 3, 1 - 3, 0) -> 0, no gradient */
    int y[2] = {0, 2};
    double F[6] = {0, 0.5, 0.5, 0, 0, 3}, g[6];
    double v = o->eval(L, y, 2, 3, F, g);
    cr_assert_float_eq(v, 0.75, 1e-15);
    double want[6] = {-0.5, 0.25, 0.25, 0, 0, 0};
    for (int j = 0; j < 6; j++)
        cr_assert_float_eq(g[j], want[j], 1e-15, "grad[%d] = %g", j, g[j]);
    o->destroy(L);
}

Test(hinge, costs_per_class_and_as_a_matrix)
{
    const struct bl_loss_ops *o = hinge_ops();
    int y[1] = {1};
    double F[3] = {0, 0, 0};
    void *L = hinge_new("1, 4, 2"); /* an example of class 1 costs 4 */
    cr_assert_float_eq(o->eval(L, y, 1, 3, F, NULL), 4.0, 1e-15);
    o->destroy(L);
    L = hinge_new("0 1 1  3 0 5  1 1 0"); /* row 1: D(1,0) = 3, D(1,2) = 5 */
    double P[3];
    const struct bl_loss_ops *ho = test_plugin("plugins/loss/hinge", "hinge")->ops;
    ho->pair_weights(L, y, 1, 3, F, P);
    cr_assert(P[0] == 3 && P[1] == 0 && P[2] == 5);
    cr_assert_float_eq(o->eval(L, y, 1, 3, F, NULL), 5.0, 1e-15);
    o->destroy(L);
    L = hinge_new("1 2"); /* two costs for three classes: NaN, logged */
    cr_assert(isnan(o->eval(L, y, 1, 3, F, NULL)));
    o->destroy(L);
    char err[BL_ERR_MAX] = "";
    union bl_value bad[1] = {{.s = "1, -2"}};
    cr_assert_null(o->create(&test_host, bad, err));
    cr_assert(strstr(err, "costs") != NULL, "%s", err);
}

/* spec §2.9 item 3: at F = 0 with the 0-1 cost, r_i = 1 when y_i is alone
 * in its colour, else 0; our margins are for g = s/2, so 1/2 and 0. */
Test(hinge, round_one_margins_are_half_for_lone_classes_and_zero_otherwise)
{
    const struct bl_loss_ops *ho = test_plugin("plugins/loss/hinge", "hinge")->ops;
    bl_loss_hinge_fn ht = ho->hinge_targets;
    void *L = hinge_new("");
    int y[4] = {0, 1, 2, 3};
    double F[16] = {0}, col[4] = {1, -1, -1, 1}, lab[4], mar[4];
    cr_assert_eq(ht(L, y, 4, 4, F, col, lab, mar), 0);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(lab[i], col[y[i]]);
        cr_assert_float_eq(mar[i], 0.0, 1e-15); /* every colour has two classes */
    }
    double lone[4] = {1, -1, -1, -1};
    cr_assert_eq(ht(L, y, 4, 4, F, lone, lab, mar), 0);
    cr_assert_float_eq(mar[0], 0.5, 1e-15);
    cr_assert_float_eq(mar[1], 0.0, 1e-15);
    double constant[4] = {1, 1, 1, 1}, zero[4] = {1, 0, -1, 1};
    cr_assert_eq(ht(L, y, 4, 4, F, constant, lab, mar), -1);
    cr_assert_eq(ht(L, y, 4, 4, F, zero, lab, mar), -1);
    hinge_ops()->destroy(L);
}

/* ---- codings ---------------------------------------------------------------- */

static const struct bl_plugin *coding(const char *rel, const char *name)
{
    return test_plugin(rel, name);
}

/* The defaults, then (name, value) overrides: INT and CHOICE only. */
static void set_params(const struct bl_plugin *p, const char *const *kv, union bl_value *v)
{
    test_defaults(p, v);
    for (; kv && *kv; kv += 2) {
        size_t j = 0;
        while (j < p->nparams && strcmp(p->params[j].name, kv[0]))
            j++;
        cr_assert_lt(j, p->nparams, "%s has no parameter %s", p->name, kv[0]);
        if (p->params[j].type == BL_PARAM_INT) {
            v[j].i = atoll(kv[1]);
        } else {
            cr_assert_eq(p->params[j].type, BL_PARAM_CHOICE);
            const char *at = strstr(p->params[j].choices, kv[1]);
            cr_assert_not_null(at);
            int n = 0;
            for (const char *q = p->params[j].choices; q < at; q++)
                n += *q == '|';
            v[j].choice = n;
        }
    }
}

static void *coding_new(const struct bl_plugin *p, const char *const *kv, size_t k)
{
    union bl_value v[8];
    char err[BL_ERR_MAX] = "";
    cr_assert_leq(p->nparams, 8);
    set_params(p, kv, v);
    void *C = ((const struct bl_coding_ops *)p->ops)->create(&test_host, v, k, err);
    cr_assert_not_null(C, "%s", err);
    return C;
}

/* A trial loss with a known landscape: sum_r a_r M_r (+ a constant-free
 * pair term), minimised by flipping classes one at a time. */
static const double tw[5] = {0.7, -0.2, 0.4, -0.9, 0.1};

static double trial_lin(void *ctx, const double *M)
{
    (void)ctx;
    double v = 0;
    for (int r = 0; r < 5; r++)
        v += tw[r] * M[r];
    return v + 0.3 * M[0] * M[3];
}

Test(maxcut, icm_ends_in_a_local_minimum_and_refits_at_most_inner_times)
{
    const struct bl_plugin *p = coding("plugins/coding/maxcut", "maxcut");
    const struct bl_coding_ops *o = p->ops;
    const char *kv[] = {"inner", "2", NULL};
    void *C = coding_new(p, kv, 5);
    int y[6] = {0, 1, 2, 3, 4, 0};
    double P[30], g[6] = {1, -1, 0.5, 0.2, -0.3, 1}, M[5];
    for (int j = 0; j < 30; j++)
        P[j] = (j % 5 == y[j / 5]) ? 0 : 1 + (j % 3);
    size_t c = 0;
    char err[BL_ERR_MAX] = "";
    cr_assert_eq(o->code(C, y, 6, P, 42, M, &c, err), 0);
    cr_assert_eq(c, 1);
    int rc = o->recolor(C, y, 6, P, g, trial_lin, NULL, M, 1, err);
    cr_assert(rc == BL_RECOLOR_REFIT || rc == BL_RECOLOR_DONE);
    /* no single flip (keeping M non-constant) lowers the trial any more */
    double best = trial_lin(NULL, M);
    int npos = 0;
    for (int r = 0; r < 5; r++)
        npos += M[r] > 0;
    cr_assert(npos > 0 && npos < 5);
    for (int r = 0; r < 5; r++) {
        int np = npos + (M[r] > 0 ? -1 : 1);
        if (np == 0 || np == 5)
            continue;
        M[r] = -M[r];
        cr_assert_geq(trial_lin(NULL, M), best - 1e-12, "flipping class %d still helps", r);
        M[r] = -M[r];
    }
    /* a second fit that changes nothing: DONE; had it changed: KEEP (2 fits) */
    if (rc == BL_RECOLOR_REFIT)
        cr_assert_eq(o->recolor(C, y, 6, P, g, trial_lin, NULL, M, 1, err), BL_RECOLOR_DONE);
    o->destroy(C);
}

static double trial_zero(void *ctx, const double *M)
{
    (void)ctx, (void)M;
    return 1.0;
}

Test(maxcut, one_vs_all_start_and_the_stall_rule_over_the_classes)
{
    const struct bl_plugin *p = coding("plugins/coding/maxcut", "maxcut");
    const struct bl_coding_ops *o = p->ops;
    const char *kv[] = {"init", "ova", NULL};
    void *C = coding_new(p, kv, 4);
    int y[4] = {0, 1, 2, 3};
    double P[16] = {0}, g[4] = {0}, M[4];
    P[2 * 4 + 0] = 5; /* class 2's example carries the most loss */
    size_t c;
    char err[BL_ERR_MAX] = "";
    for (int t = 0; t < 4; t++) {
        cr_assert_eq(o->code(C, y, 4, P, (uint64_t)t, M, &c, err), 0);
        for (int r = 0; r < 4; r++)
            cr_assert_eq(M[r], r == t ? 1.0 : -1.0, "iteration %d", t + 1);
    }
    cr_assert_eq(o->code(C, y, 4, P, 9, M, &c, err), 0); /* the max-cut column */
    /* no fit lowers the loss: one-vs-all of the worst class, refit; then of
     * the next classes by hinge loss (ties to the lower class); then done */
    const int order[4] = {2, 0, 1, 3};
    for (int n = 0; n < 4; n++) {
        cr_assert_eq(o->recolor(C, y, 4, P, g, trial_zero, NULL, M, 1, err), BL_RECOLOR_REFIT);
        for (int r = 0; r < 4; r++)
            cr_assert_eq(M[r], r == order[n] ? 1.0 : -1.0, "fallback %d, class %d", n + 1, r);
    }
    cr_assert_eq(o->recolor(C, y, 4, P, g, trial_zero, NULL, M, 1, err), BL_RECOLOR_DONE);
    o->destroy(C);
}

Test(erp, max2_then_the_repartition_rule)
{
    const struct bl_plugin *p = coding("plugins/coding/erp", "erp");
    const struct bl_coding_ops *o = p->ops;
    void *C = coding_new(p, NULL, 3);
    /* pair weights: classes 0 and 2 confuse each other most */
    int y[3] = {0, 1, 2};
    double P[9] = {0, 0.1, 0.6, 0.1, 0, 0.1, 0.5, 0.1, 0}, M[3];
    size_t c;
    char err[BL_ERR_MAX] = "";
    cr_assert_eq(o->code(C, y, 3, P, 1, M, &c, err), 0);
    cr_assert(M[0] == 1 && M[1] == 0 && M[2] == -1, "M = %g %g %g", M[0], M[1], M[2]);
    /* outputs +1 on examples 0 and 1, -1 on 2:
     * mkt_c = sum_i P_ic o_i - [row of c's example] o_c's example */
    double g[3] = {0.5, 2, -1};
    double mkt[3];
    for (int r = 0; r < 3; r++) {
        mkt[r] = 0;
        for (int i = 0; i < 3; i++)
            mkt[r] += P[i * 3 + r] * (g[i] > 0 ? 1 : -1);
        double row = P[r * 3] + P[r * 3 + 1] + P[r * 3 + 2];
        mkt[r] -= row * (g[r] > 0 ? 1 : -1);
    }
    int rc = o->recolor(C, y, 3, P, g, trial_zero, NULL, M, 1, err);
    cr_assert(rc == BL_RECOLOR_KEEP || rc == BL_RECOLOR_DONE);
    for (int r = 0; r < 3; r++)
        cr_assert_eq(M[r], mkt[r] > 0 ? -1.0 : 1.0, "class %d: mkt %g, mu %g", r, mkt[r], M[r]);
    o->destroy(C);
}

/* ---- in the engine ------------------------------------------------------- */

TEST_REGISTRY(reg, setup, teardown)

TestSuite(hbengine, .init = setup, .fini = teardown);

/* k Gaussian blobs in 3-D, means on a circle. */
static void blobs(bl_dataset *ds, size_t m, size_t k, uint64_t seed)
{
    rng_seed(seed);
    memset(ds, 0, sizeof *ds);
    ds->m = m, ds->d = 3, ds->k = k;
    ds->y = calloc(m, sizeof *ds->y);
    ds->x = calloc(m * 3, sizeof *ds->x);
    for (size_t i = 0; i < m; i++) {
        int c = (int)(i % k);
        ds->y[i] = c;
        for (size_t f = 0; f < 3; f++) {
            double g = sqrt(-2 * log(urand() + 1e-300)) * cos(6.283185307179586 * urand());
            double mean = f == 0 ? 2 * cos(6.28 * c / k) : f == 1 ? 2 * sin(6.28 * c / k) : 0;
            ds->x[f * m + i] = (float)(mean + g);
        }
    }
}

/* Train sets (key, value, ...) for T iterations on blobs; the curve. */
static void run_algo(const char *const *sets, size_t k, int T, bl_curve *cv, bl_model *mo)
{
    bl_error err;
    bl_algo_spec a;
    bl_algo_init(&a);
    a.name = strdup("hb");
    for (; *sets; sets += 2)
        cr_assert_eq(bl_algo_set(&a, &reg, sets[0], sets[1], &err), 0, "%s: %s", sets[0], err.msg);
    bl_dataset ds;
    bl_qview q;
    struct bl_train tv;
    blobs(&ds, 120, k, 5 + k);
    cr_assert_eq(bl_quantize(&ds, 64, &q, &err), 0, "%s", err.msg);
    bl_train_view(&ds, &q, &tv);
    bl_model_init(mo, a.weak.plugin, k, 3, NULL, NULL);
    bl_boost_cfg cfg = bl_algo_boost_cfg(&a, T, 5);
    cfg.max_bins = 64;
    cr_assert_eq(bl_boost(&cfg, &tv, NULL, NULL, mo, cv, &err), 0, "%s", err.msg);
    bl_qview_free(&q);
    free(ds.y), free(ds.x);
    bl_algo_free(&a);
}

Test(hbengine, stumps_plug_into_the_hinge_loss_and_the_loss_never_rises)
{
    const char *sets[] = {"loss", "hinge", "coding", "maxcut", "coding.init", "ova", "weak",
                          "stump", "solver", "exp-step", "nu", "0", NULL};
    bl_curve cv;
    bl_model mo;
    run_algo(sets, 4, 20, &cv, &mo);
    cr_assert_gt(cv.n, 0);
    double prev = cv.train_loss0;
    for (size_t j = 0; j < cv.n; j++) {
        cr_assert_leq(cv.train_loss[j], prev + 1e-9, "iteration %zu: %g after %g", j + 1,
                      cv.train_loss[j], prev);
        prev = cv.train_loss[j];
    }
    bl_curve_free(&cv);
    bl_model_free(&mo);
}

Test(hbengine, erp_with_stumps_lowers_the_exponential_loss)
{
    const char *sets[] = {"loss", "margin-exp", "coding", "erp", "weak", "stump", "solver",
                          "exp-step", "nu", "0", NULL};
    bl_curve cv;
    bl_model mo;
    run_algo(sets, 5, 30, &cv, &mo);
    cr_assert_eq(cv.n, 30);
    cr_assert_lt(cv.train_loss[cv.n - 1], cv.train_loss0 - 0.1);
    cr_assert_lt(cv.train_err[cv.n - 1], 0.6);
    bl_curve_free(&cv);
    bl_model_free(&mo);
}

/* spec §2.9 item 1: with (nearly) exact SVM solves the training hinge loss
 * never rises, round after round, whatever the colorings do. */
Test(hbengine, hingeboost_with_margin_svms_never_raises_the_hinge_loss)
{
    const char *sets[] = {"loss", "hinge", "coding", "maxcut", "weak", "svm", "weak.c", "100",
                          "weak.eps", "1e-6", "solver", "none", "nu", "0", NULL};
    bl_curve cv;
    bl_model mo;
    run_algo(sets, 5, 25, &cv, &mo);
    cr_assert_gt(cv.n, 5);
    double prev = cv.train_loss0;
    for (size_t j = 0; j < cv.n; j++) {
        cr_assert_leq(cv.train_loss[j], prev + 1e-6, "round %zu: %.9g after %.9g", j + 1,
                      cv.train_loss[j], prev);
        prev = cv.train_loss[j];
    }
    cr_assert_lt(prev, 0.8 * cv.train_loss0);
    cr_assert_lt(cv.train_err[cv.n - 1], 0.5);
    bl_curve_free(&cv);
    bl_model_free(&mo);
}

/* Without the stall rule every round of this run would be empty: 4 classes,
 * F = 0, a balanced max-cut coloring gives every margin 0 (§2.9 item 3). */
Test(hbengine, the_first_round_makes_progress_with_random_colorings)
{
    const char *sets[] = {"loss", "hinge", "coding", "maxcut", "weak", "svm", "weak.c", "100",
                          "solver", "none", "nu", "0", NULL};
    bl_curve cv;
    bl_model mo;
    run_algo(sets, 4, 1, &cv, &mo);
    cr_assert_eq(cv.n, 1);
    cr_assert_lt(cv.train_loss[0], cv.train_loss0 - 1e-3);
    bl_curve_free(&cv);
    bl_model_free(&mo);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Method xgboost: XGBoost's C API driven round by round (see xgboost.h). */
#include "xgboost.h"

#include <string.h>

#ifdef HAVE_XGBOOST /* configure's XGBOOST_CFLAGS */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <xgboost/c_api.h>

#include "../plugin/loader.h"
#include "../util/clock.h"
#include "../util/fsutil.h"

/* The array interface of n values of type t (e.g. "u8") at p. */
static void vec_ai(char *buf, size_t cap, const void *p, size_t n, char order, const char *t)
{
    snprintf(buf, cap,
             "{\"data\":[%" PRIuPTR ",true],\"shape\":[%zu],\"typestr\":\"%c%s\","
             "\"version\":3}",
             (uintptr_t)p, n, order, t);
}

/* A DMatrix of ds with its labels.  Dense: ds->x is feature-major; the
 * array interface's strides let XGBoost read it by rows as it is, NaN
 * missing.  Sparse: its CSR arrays as they are, so XGBoost costs what the
 * stored entries cost; XGBoost reads an entry not stored as missing (as
 * its own LIBSVM reader and scipy's CSR input do), not as the 0 a dense
 * copy would hold, so trees on features with values on both sides of 0 can
 * differ from the dense set's (docs/reference/ini.md). */
static int dmatrix(const bl_dataset *ds, int threads, DMatrixHandle *out, bl_error *err)
{
    const uint16_t one = 1;
    char order = *(const unsigned char *)&one ? '<' : '>';
    char ai[256], conf[64];
    snprintf(conf, sizeof conf, "{\"missing\":NaN,\"nthread\":%d}", threads);
    if (ds->sp) {
        char ip[160], ix[160], t[8];
        const bl_spmat *S = ds->sp;
        snprintf(t, sizeof t, "u%zu", sizeof *S->rptr);
        vec_ai(ip, sizeof ip, S->rptr, ds->m + 1, order, t);
        vec_ai(ix, sizeof ix, S->rcol, S->nnz, order, "u4");
        vec_ai(ai, sizeof ai, S->rval, S->nnz, order, "f4");
        if (XGDMatrixCreateFromCSR(ip, ix, ai, (bst_ulong)ds->d, conf, out) != 0)
            return bl_xgb_error(err, "XGBoost, reading the sparse data");
    } else {
        snprintf(ai, sizeof ai,
                 "{\"data\":[%" PRIuPTR ",true],\"shape\":[%zu,%zu],\"strides\":[%zu,%zu],"
                 "\"typestr\":\"%cf4\",\"version\":3}",
                 (uintptr_t)ds->x, ds->m, ds->d, sizeof(float), ds->m * sizeof(float), order);
        if (XGDMatrixCreateFromDense(ai, conf, out) != 0)
            return bl_xgb_error(err, "XGBoost, reading the data");
    }
    float *y = bl_xmalloc((ds->m ? ds->m : 1) * sizeof *y);
    for (size_t i = 0; i < ds->m; i++)
        y[i] = (float)ds->y[i];
    int rc = XGDMatrixSetFloatInfo(*out, "label", y, ds->m) != 0
                 ? bl_xgb_error(err, "XGBoost, setting the labels") : 0;
    free(y);
    return rc;
}

/* What boostlab sets (objective, threads, seed, bins, quiet), then the
 * algorithm's xgb.* keys, which may override the last two. */
static int configure(BoosterHandle b, const bl_method_cfg *mc, size_t k, int threads,
                     bl_error *err)
{
    char nc[32], nt[32], seed[32], bins[32];
    snprintf(nc, sizeof nc, "%zu", k);
    snprintf(nt, sizeof nt, "%d", threads);
    snprintf(seed, sizeof seed, "%" PRIu64, mc->seed >> 1); /* XGBoost's seed is an int64 */
    snprintf(bins, sizeof bins, "%d", mc->max_bins ? mc->max_bins : 256);
    const char *kv[][2] = {{"objective", k > 2 ? "multi:softprob" : "binary:logistic"},
                           {"nthread", nt}, {"seed", seed}, {"max_bin", bins},
                           {"verbosity", "0"}, {"num_class", nc}};
    size_t n = sizeof kv / sizeof *kv - (k <= 2); /* num_class only for softprob */
    for (size_t j = 0; j < n; j++)
        if (XGBoosterSetParam(b, kv[j][0], kv[j][1]) != 0)
            return bl_xgb_error(err, kv[j][0]);
    return bl_xgb_params_apply(&mc->algo->xgb, b, err);
}

static double softplus(double z)
{
    return z > 0 ? z + log1p(exp(-z)) : log1p(exp(z));
}

/* The logistic loss summed over the rows of margins P (m x c; c = 1: the
 * binary margin of class 1) and the error rate of their argmax, ties to
 * the lower class. */
static void figures(const float *P, size_t m, size_t c, const int *y, double *loss,
                    double *error)
{
    double L = 0;
    size_t wrong = 0;
    for (size_t i = 0; i < m; i++) {
        int pred;
        if (c == 1) {
            double f = P[i];
            L += softplus(y[i] ? -f : f);
            pred = f > 0;
        } else {
            const float *row = P + i * c;
            size_t a = 0;
            for (size_t r = 1; r < c; r++)
                if (row[r] > row[a])
                    a = r;
            double s = 0;
            for (size_t r = 0; r < c; r++)
                s += exp((double)row[r] - row[a]);
            L += (double)row[a] + log(s) - row[y[i]];
            pred = (int)a;
        }
        wrong += pred != y[i];
    }
    *loss = L;
    *error = m ? (double)wrong / (double)m : NAN;
}

/* The margins of part ds (DMatrix d) after the rounds so far. */
static int margins(BoosterHandle b, DMatrixHandle d, const bl_dataset *ds, double *loss,
                   double *error, bl_error *err)
{
    static const char conf[] = "{\"type\":1,\"training\":false,\"iteration_begin\":0,"
                               "\"iteration_end\":0,\"strict_shape\":false}";
    const bst_ulong *shape;
    bst_ulong dim;
    const float *P;
    if (XGBoosterPredictFromDMatrix(b, d, conf, &shape, &dim, &P) != 0)
        return bl_xgb_error(err, "XGBoost, predicting");
    figures(P, ds->m, dim == 2 ? (size_t)shape[1] : 1, ds->y, loss, error);
    return 0;
}

/* Error rate with every score 0 (the empty model): class 0 wins the tie. */
static double error0(const bl_dataset *ds)
{
    size_t wrong = 0;
    for (size_t i = 0; i < ds->m; i++)
        wrong += ds->y[i] != 0;
    return ds->m ? (double)wrong / (double)ds->m : NAN;
}

static int boost(const bl_method_cfg *mc, BoosterHandle b, const DMatrixHandle *dm,
                 const bl_dataset *tr, const bl_dataset *te, bl_curve *cv, bl_error *err)
{
    const char *par = bl_xgb_param_get(&mc->algo->xgb, "num_parallel_tree");
    size_t per_round = (tr->k > 2 ? tr->k : 1) * (size_t)(par ? atoi(par) : 1);
    cv->train_loss0 = (double)tr->m * log((double)tr->k);
    cv->train_err0 = error0(tr);
    cv->test_err0 = te ? error0(te) : NAN;
    for (int it = 0; it < mc->iterations; it++) {
        double t0 = bl_seconds();
        if (XGBoosterUpdateOneIter(b, it, dm[0]) != 0)
            return bl_xgb_error(err, "XGBoost, boosting");
        double t1 = bl_seconds(), skip;
        bl_curve_push(cv);
        size_t n = cv->n - 1;
        if (margins(b, dm[0], tr, &cv->train_loss[n], &cv->train_err[n], err) < 0 ||
            (te && margins(b, dm[1], te, &skip, &cv->test_err[n], err) < 0))
            return -1;
        if (!te)
            cv->test_err[n] = NAN;
        cv->edge[n] = NAN;
        cv->solver_iters[n] = 0;
        cv->trees[n] = (n ? cv->trees[n - 1] : 0) + per_round;
        cv->t_weak[n] = t1 - t0;
        cv->t_coef[n] = 0;
        cv->t_book[n] = bl_seconds() - t1;
        if (mc->on_iter)
            mc->on_iter(mc->user, (size_t)it + 1, (size_t)mc->iterations);
    }
    cv->stop = BL_STOP_BUDGET;
    return 0;
}

int bl_xgboost(const bl_method_cfg *mc, const bl_dataset *tr, const bl_dataset *te,
               bl_curve *cv, bl_error *err)
{
    memset(cv, 0, sizeof *cv);
    if (tr->k < 2)
        return bl_errf(err, "method xgboost needs at least 2 classes (the data has %zu)", tr->k);
    if (te && !te->m)
        te = NULL;
    int threads = bl_host_api.threads > 0 ? bl_host_api.threads : 1;
    DMatrixHandle dm[2] = {NULL, NULL};
    BoosterHandle b = NULL;
    int rc = dmatrix(tr, threads, &dm[0], err);
    if (rc == 0 && te)
        rc = dmatrix(te, threads, &dm[1], err);
    /* both parts in the booster's cache: each round predicts only its trees */
    if (rc == 0 && XGBoosterCreate(dm, te ? 2 : 1, &b) != 0)
        rc = bl_xgb_error(err, "XGBoost");
    if (rc == 0)
        rc = configure(b, mc, tr->k, threads, err);
    if (rc == 0)
        rc = boost(mc, b, dm, tr, te, cv, err);
    if (b)
        XGBoosterFree(b);
    for (int p = 0; p < 2; p++)
        if (dm[p])
            XGDMatrixFree(dm[p]);
    if (rc < 0)
        bl_curve_free(cv);
    return rc;
}

#else /* the method is refused when the experiment is loaded (config/) */

int bl_xgboost(const bl_method_cfg *mc, const bl_dataset *tr, const bl_dataset *te,
               bl_curve *cv, bl_error *err)
{
    (void)mc, (void)tr, (void)te;
    memset(cv, 0, sizeof *cv);
    return bl_errf(err, "%s", bl_xgb_missing);
}

#endif

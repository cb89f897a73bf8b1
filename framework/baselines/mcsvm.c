/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Method svm: the multi-class SVM baselines of HingeBoost.OC (spec
 * §3.5-3.9), driven from an [algorithm] section (see mcsvm.h):
 *
 *   scale   minmax (default): each feature to [-1, 1] by the training
 *           part's min and max (spec §4.1's customary choice; constant
 *           features -> 0); zscore; none.  The test part gets the same
 *           transform; a missing value becomes 0 after it.
 *   scheme  ovo: libsvm's one-vs-one, max-wins voting, ties to the lower
 *                class index (spec §3.6);
 *           ova: k machines, class r against the rest, argmax of the
 *                scores (code 2I - 11', min Hamming distance 2; §3.5);
 *           ecoc: one machine per column of a fixed code, decoded by
 *                exponential loss (§3.7);
 *           cs: Crammer-Singer (§3.8): liblinear's MCSVM_CS when linear,
 *                kcs.c for rbf.
 *   kernel  linear, perceptron (-|x-x'|, Lin & Li 2005) or rbf
 *           (exp(-gamma |x-x'|^2)); svmlib.h says which library runs what.
 *
 * The curve has one entry (the trained machines): train_err and test_err
 * are the error rates, t_coef the training time and t_book the time to
 * predict both parts; trees counts the machines.  Metrics: "error" and,
 * for ova and ecoc, "min_hamming", the code's minimum row Hamming distance.
 */
#include "mcsvm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../config/experiment.h"
#include "../util/clock.h"
#include "../util/fsutil.h"
#include "svmlib.h"

/* Per-feature affine map x -> (x - shift) * mul from the training part. */
static void fit_scale(const bl_dataset *tr, int how, double *shift, double *mul)
{
    size_t m = tr->m;
    for (size_t f = 0; f < tr->d; f++) {
        const float *col = tr->x + f * m;
        double lo = HUGE_VAL, hi = -HUGE_VAL, s1 = 0, s2 = 0;
        size_t n = 0;
        for (size_t i = 0; i < m; i++) {
            if (isnan(col[i]))
                continue;
            double v = col[i];
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
            s1 += v;
            s2 += v * v;
            n++;
        }
        shift[f] = 0;
        mul[f] = 1;
        if (how == BL_SCALE_MINMAX) {
            shift[f] = n ? (lo + hi) / 2 : 0;
            mul[f] = n && hi > lo ? 2 / (hi - lo) : 0; /* constant -> 0 */
        } else if (how == BL_SCALE_ZSCORE) {
            double mu = n ? s1 / (double)n : 0, var = n ? s2 / (double)n - mu * mu : 0;
            shift[f] = mu;
            mul[f] = var > 1e-24 ? 1 / sqrt(var) : 0;
        }
    }
}

/* ds's rows, scaled, row-major (m x d). */
static double *scaled_rows(const bl_dataset *ds, const double *shift, const double *mul)
{
    size_t m = ds->m, d = ds->d;
    double *X = bl_xmalloc((m ? m : 1) * (d ? d : 1) * sizeof *X);
    for (size_t f = 0; f < d; f++)
        for (size_t i = 0; i < m; i++) {
            float v = ds->x[f * m + i];
            X[i * d + f] = isnan(v) ? 0.0 : ((double)v - shift[f]) * mul[f];
        }
    return X;
}

static int argmax(const double *v, size_t n)
{
    size_t b = 0;
    for (size_t r = 1; r < n; r++)
        if (v[r] > v[b]) /* strict: ties keep the lower index */
            b = r;
    return (int)b;
}

typedef struct trained {
    int scheme;
    size_t k, ncol;
    const double *M;
    bl_svmlib *L;   /* or, for kernel cs, */
    bl_kcs cs;
} trained;

/* Error rate of the trained machines on X (m rows) against y. */
static double error_rate(trained *T, const double *X, size_t m, size_t d, const int *y)
{
    size_t wrong = 0, no = T->ncol > T->k ? T->ncol : T->k;
    double *out = bl_xmalloc(no * sizeof *out);
    for (size_t i = 0; i < m; i++) {
        const double *x = X + i * d;
        if (!T->L)
            bl_kcs_scores(&T->cs, x, out);
        else
            bl_svmlib_outputs(T->L, x, out);
        int p = T->scheme == BL_SVM_ECOC ? bl_ecoc_decode(T->M, T->k, T->ncol, out)
                                         : argmax(out, T->k);
        wrong += p != y[i];
    }
    free(out);
    return m ? (double)wrong / (double)m : NAN;
}

int bl_mcsvm(const bl_method_cfg *cfg, const bl_dataset *tr, const bl_dataset *test,
             bl_curve *cv, bl_metrics *met, bl_error *err)
{
    const bl_algo_spec *a = cfg->algo;
    memset(cv, 0, sizeof *cv);
    size_t m = tr->m, d = tr->d, k = tr->k;
    if (k < 2)
        return bl_errf(err, "method svm needs at least 2 classes (the data has %zu)", k);
    double *shift = bl_xmalloc((d ? d : 1) * sizeof *shift);
    double *mul = bl_xmalloc((d ? d : 1) * sizeof *mul);
    fit_scale(tr, a->svm_scale, shift, mul);
    double *Xtr = scaled_rows(tr, shift, mul);
    double *Xte = test && test->m ? scaled_rows(test, shift, mul) : NULL;
    bl_kern kern = {a->svm_kernel, a->gamma};
    trained T;
    memset(&T, 0, sizeof T);
    T.scheme = a->svm_scheme;
    T.k = k;
    double *M = NULL;
    size_t ncol = 0, machines = 1;
    int rc = 0;
    if (a->svm_scheme == BL_SVM_OVA) {
        ncol = k;
        M = bl_xmalloc(k * k * sizeof *M);
        for (size_t r = 0; r < k; r++)
            for (size_t j = 0; j < k; j++)
                M[r * k + j] = r == j ? 1.0 : -1.0;
    } else if (a->svm_scheme == BL_SVM_ECOC) {
        rc = bl_ecoc_code(a, k, tr->y, m, &M, &ncol, err);
    }
    T.M = M;
    T.ncol = ncol;
    double t0 = bl_seconds();
    if (rc == 0 && a->svm_scheme == BL_SVM_CS && a->svm_kernel != BL_KERNEL_LINEAR) {
        /* eps: libsvm's default tolerance; the pass limit only guards */
        rc = bl_kcs_train(Xtr, m, d, tr->y, k, a->C, &kern, 1e-3, 10000, cfg->seed, 256, &T.cs,
                          err);
    } else if (rc == 0) {
        T.L = bl_svmlib_train(a->svm_scheme, &kern, a->C, Xtr, m, d, tr->y, k, M, ncol,
                              cfg->seed, err);
        rc = T.L ? 0 : -1;
    }
    if (a->svm_scheme == BL_SVM_OVO)
        machines = k * (k - 1) / 2;
    else if (ncol)
        machines = ncol;
    double t1 = bl_seconds();
    if (rc == 0) {
        double etr = error_rate(&T, Xtr, m, d, tr->y);
        double ete = Xte ? error_rate(&T, Xte, test->m, d, test->y) : NAN;
        bl_curve_push(cv);
        cv->train_loss[0] = NAN;
        cv->train_err[0] = etr;
        cv->test_err[0] = ete;
        cv->edge[0] = NAN;
        cv->solver_iters[0] = T.L ? 0 : T.cs.epochs;
        cv->trees[0] = machines;
        cv->t_weak[0] = 0.0;
        cv->t_coef[0] = t1 - t0;
        cv->t_book[0] = bl_seconds() - t1;
        cv->train_loss0 = cv->train_err0 = cv->test_err0 = NAN;
        char *names[2] = {(char *)"error", (char *)"min_hamming"};
        double vtr[2] = {etr, NAN}, vte[2] = {ete, NAN};
        size_t nm = 1;
        if (M) { /* the issue asks for the code's distance with every run */
            vtr[1] = vte[1] = (double)bl_code_min_hamming(M, k, ncol);
            nm = 2;
        }
        bl_metrics_set(met, names, nm, vtr, vte);
        if (cfg->on_iter)
            cfg->on_iter(cfg->user, 1, 1);
    }
    bl_svmlib_free(T.L);
    bl_kcs_free(&T.cs);
    free(M);
    free(Xtr);
    free(Xte);
    free(shift);
    free(mul);
    return rc;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* liblinear and libsvm machines of method svm (see svmlib.h). */
#include "svmlib.h"

#include <libsvm/svm.h>
#include <linear.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../config/experiment.h"
#include "../util/fsutil.h"

struct bl_svmlib {
    int scheme, kind;            /* BL_SVM_*, BL_KERNEL_*                    */
    int use_ll;                  /* liblinear (linear ova/ecoc/cs)          */
    size_t k, ncol, m, d;
    const double *X;             /* the training rows (precomputed rows)    */
    bl_kern kern;
    struct model **ll;           /* ncol (1 for cs)                          */
    struct svm_model **sv;       /* ncol (1 for ovo)                         */
    double *sign;                /* ncol: +1/-1 orients a binary machine; 0
                                    for a column with one side only, whose
                                    output is then constant[j]             */
    double *constant;
    /* libsvm's models point into their problem's rows, so these live on */
    struct svm_node **rows, *pool;
    struct feature_node **lrows, *lpool;
    /* scratch for one test row */
    struct feature_node *lx;
    struct svm_node *sx;
    double *dec;
    int *lab;
};

static void quiet(const char *s)
{
    (void)s;
}

/* liblinear row of x: its nonzeros, the bias feature d+1 = 1, -1. */
static size_t ll_row(const double *x, size_t d, struct feature_node *out)
{
    size_t n = 0;
    for (size_t f = 0; f < d; f++)
        if (x[f] != 0) {
            out[n].index = (int)f + 1;
            out[n++].value = x[f];
        }
    out[n].index = (int)d + 1;
    out[n++].value = 1.0;
    out[n++].index = -1;
    return n;
}

/* libsvm row of x: its nonzeros, then -1. */
static size_t sv_row(const double *x, size_t d, struct svm_node *out)
{
    size_t n = 0;
    for (size_t f = 0; f < d; f++)
        if (x[f] != 0) {
            out[n].index = (int)f + 1;
            out[n++].value = x[f];
        }
    out[n++].index = -1;
    return n;
}

/* libsvm PRECOMPUTED row of x: 0:serial (1-based; ignored for test rows),
 * then K(x, X_j) at index j+1 for every training row, then -1. */
static void pre_row(const bl_svmlib *L, const double *x, double serial, struct svm_node *out)
{
    out[0].index = 0;
    out[0].value = serial;
    for (size_t j = 0; j < L->m; j++) {
        out[j + 1].index = (int)j + 1;
        out[j + 1].value = bl_kern_eval(&L->kern, x, L->X + j * L->d, L->d);
    }
    out[L->m + 1].index = -1;
}

static int build_rows(bl_svmlib *L, bl_error *err)
{
    size_t m = L->m, d = L->d;
    if (L->use_ll) {
        L->lpool = bl_xmalloc(m * (d + 2) * sizeof *L->lpool);
        L->lrows = bl_xmalloc(m * sizeof *L->lrows);
        size_t pos = 0;
        for (size_t i = 0; i < m; i++) {
            L->lrows[i] = L->lpool + pos;
            pos += ll_row(L->X + i * d, d, L->lrows[i]);
        }
        return 0;
    }
    L->rows = bl_xmalloc(m * sizeof *L->rows);
    if (L->kind == BL_KERNEL_PERCEPTRON) {
        /* the whole kernel matrix, as libsvm wants: m (m + 2) nodes */
        if ((double)m * (double)(m + 2) > 2147483647.0 ||
            (double)m * (double)(m + 2) * sizeof(struct svm_node) > 8e9)
            return bl_errf(err, "kernel perceptron: libsvm's precomputed kernel needs the %zu x "
                           "%zu kernel matrix (%.1f GB), more than this baseline allows (8 GB); "
                           "use fewer training examples", m, m,
                           (double)m * (double)(m + 2) * sizeof(struct svm_node) / 1e9);
        L->pool = bl_xmalloc(m * (m + 2) * sizeof *L->pool);
        for (size_t i = 0; i < m; i++) {
            L->rows[i] = L->pool + i * (m + 2);
            pre_row(L, L->X + i * d, (double)(i + 1), L->rows[i]);
        }
        return 0;
    }
    L->pool = bl_xmalloc(m * (d + 1) * sizeof *L->pool);
    size_t pos = 0;
    for (size_t i = 0; i < m; i++) {
        L->rows[i] = L->pool + pos;
        pos += sv_row(L->X + i * d, d, L->rows[i]);
    }
    return 0;
}

static void svm_params(const bl_svmlib *L, double C, struct svm_parameter *p)
{
    memset(p, 0, sizeof *p);
    p->svm_type = C_SVC;
    p->kernel_type = L->kind == BL_KERNEL_LINEAR ? LINEAR
                   : L->kind == BL_KERNEL_RBF ? RBF : PRECOMPUTED;
    p->gamma = L->kern.gamma;
    p->degree = 3;
    p->C = C;
    p->cache_size = 100;
    p->eps = 1e-3;
    p->shrinking = 1;
}

/* Machine j of ova/ecoc: examples with a nonzero code entry, labelled by
 * it. */
static int train_column(bl_svmlib *L, size_t j, const int *y, const double *M, double C,
                        uint64_t seed, bl_error *err)
{
    size_t m = L->m, n = 0, npos = 0;
    double *yb = bl_xmalloc(m * sizeof *yb);
    size_t *idx = bl_xmalloc(m * sizeof *idx);
    for (size_t i = 0; i < m; i++) {
        double v = M[(size_t)y[i] * L->ncol + j];
        if (v == 0)
            continue;
        yb[n] = v > 0 ? 1.0 : -1.0;
        npos += v > 0;
        idx[n++] = i;
    }
    int rc = 0;
    if (npos == 0 || npos == n) {
        /* one side only (a class missing from a CV fold): a constant */
        L->sign[j] = 0;
        L->constant[j] = npos ? 1.0 : -1.0;
        goto done;
    }
    srand((unsigned)(seed ^ (seed >> 32)) + (unsigned)j);
    if (L->use_ll) {
        struct feature_node **x = bl_xmalloc(n * sizeof *x);
        for (size_t q = 0; q < n; q++)
            x[q] = L->lrows[idx[q]];
        struct problem prob = {(int)n, (int)L->d + 1, yb, x, 1.0};
        struct parameter par;
        memset(&par, 0, sizeof par);
        par.solver_type = L2R_L1LOSS_SVC_DUAL;
        par.C = C;
        par.eps = 0.1; /* liblinear's default for its dual solvers */
        const char *bad = check_parameter(&prob, &par);
        if (bad)
            rc = bl_errf(err, "liblinear refuses column %zu: %s", j + 1, bad);
        else
            L->ll[j] = train(&prob, &par);
        free(x);
        if (!rc) {
            int lab[2];
            get_labels(L->ll[j], lab);
            L->sign[j] = lab[0] == 1 ? 1.0 : -1.0;
        }
    } else {
        struct svm_node **x = bl_xmalloc(n * sizeof *x);
        for (size_t q = 0; q < n; q++)
            x[q] = L->rows[idx[q]];
        struct svm_problem prob = {(int)n, yb, x};
        struct svm_parameter par;
        svm_params(L, C, &par);
        const char *bad = svm_check_parameter(&prob, &par);
        if (bad) {
            rc = bl_errf(err, "libsvm refuses column %zu: %s", j + 1, bad);
        } else {
            L->sv[j] = svm_train(&prob, &par);
            int lab[2];
            svm_get_labels(L->sv[j], lab);
            L->sign[j] = lab[0] == 1 ? 1.0 : -1.0;
        }
        /* the model keeps pointers to the rows, not to x */
        free(x);
    }
done:
    free(yb);
    free(idx);
    return rc;
}

bl_svmlib *bl_svmlib_train(int scheme, const bl_kern *kern, double C, const double *X,
                           size_t m, size_t d, const int *y, size_t k, const double *M,
                           size_t ncol, uint64_t seed, bl_error *err)
{
    bl_svmlib *L = bl_xcalloc(1, sizeof *L);
    L->scheme = scheme;
    L->kind = kern->kind;
    L->kern = *kern;
    L->use_ll = kern->kind == BL_KERNEL_LINEAR && scheme != BL_SVM_OVO;
    L->k = k;
    L->m = m;
    L->d = d;
    L->X = X;
    L->ncol = scheme == BL_SVM_OVA || scheme == BL_SVM_ECOC ? ncol : 1;
    set_print_string_function(quiet);
    svm_set_print_string_function(quiet);
    L->ll = bl_xcalloc(L->ncol, sizeof *L->ll);
    L->sv = bl_xcalloc(L->ncol, sizeof *L->sv);
    L->sign = bl_xcalloc(L->ncol, sizeof *L->sign);
    L->constant = bl_xcalloc(L->ncol, sizeof *L->constant);
    L->dec = bl_xmalloc((k * k + 1) * sizeof *L->dec);
    L->lab = bl_xmalloc((k + 1) * sizeof *L->lab);
    L->lx = bl_xmalloc((d + 2) * sizeof *L->lx);
    L->sx = bl_xmalloc((L->kind == BL_KERNEL_PERCEPTRON ? m + 2 : d + 1) * sizeof *L->sx);
    int rc = build_rows(L, err);
    double *yd = bl_xmalloc((m ? m : 1) * sizeof *yd);
    for (size_t i = 0; i < m; i++)
        yd[i] = y[i];
    if (rc == 0 && (scheme == BL_SVM_OVA || scheme == BL_SVM_ECOC)) {
        for (size_t j = 0; j < L->ncol && rc == 0; j++)
            rc = train_column(L, j, y, M, C, seed, err);
    } else if (rc == 0 && scheme == BL_SVM_CS) {
        struct problem prob = {(int)m, (int)d + 1, yd, L->lrows, 1.0};
        struct parameter par;
        memset(&par, 0, sizeof par);
        par.solver_type = MCSVM_CS;
        par.C = C;
        par.eps = 0.1; /* liblinear's default */
        const char *bad = check_parameter(&prob, &par);
        srand((unsigned)(seed ^ (seed >> 32)));
        if (bad)
            rc = bl_errf(err, "liblinear refuses the problem: %s", bad);
        else
            L->ll[0] = train(&prob, &par);
    } else if (rc == 0) { /* ovo */
        struct svm_problem prob = {(int)m, yd, L->rows};
        struct svm_parameter par;
        svm_params(L, C, &par);
        const char *bad = svm_check_parameter(&prob, &par);
        srand((unsigned)(seed ^ (seed >> 32)));
        if (bad)
            rc = bl_errf(err, "libsvm refuses the problem: %s", bad);
        else
            L->sv[0] = svm_train(&prob, &par);
    }
    free(yd);
    if (rc < 0) {
        bl_svmlib_free(L);
        return NULL;
    }
    return L;
}

void bl_svmlib_outputs(bl_svmlib *L, const double *x, double *out)
{
    size_t k = L->k;
    if (L->use_ll)
        ll_row(x, L->d, L->lx);
    else if (L->kind == BL_KERNEL_PERCEPTRON)
        pre_row(L, x, 0.0, L->sx);
    else
        sv_row(x, L->d, L->sx);
    if (L->scheme == BL_SVM_CS) {
        int nc = get_nr_class(L->ll[0]);
        get_labels(L->ll[0], L->lab);
        predict_values(L->ll[0], L->lx, L->dec);
        for (size_t r = 0; r < k; r++)
            out[r] = -HUGE_VAL; /* a class the fold never saw */
        for (int c = 0; c < nc; c++)
            out[L->lab[c]] = L->dec[c];
        return;
    }
    if (L->scheme == BL_SVM_OVO) {
        int nc = svm_get_nr_class(L->sv[0]);
        svm_get_labels(L->sv[0], L->lab);
        for (size_t r = 0; r < k; r++)
            out[r] = 0;
        if (nc < 2) {
            out[L->lab[0]] = 1;
            return;
        }
        svm_predict_values(L->sv[0], L->sx, L->dec);
        /* libsvm's max-wins voting over its pairs, counted by class index
         * (so argmax ties go to the lower index, whatever the data order) */
        size_t p = 0;
        for (int a = 0; a < nc; a++)
            for (int b = a + 1; b < nc; b++, p++)
                out[L->dec[p] > 0 ? L->lab[a] : L->lab[b]] += 1;
        return;
    }
    for (size_t j = 0; j < L->ncol; j++) {
        if (L->sign[j] == 0) {
            out[j] = L->constant[j];
            continue;
        }
        double v;
        if (L->use_ll)
            predict_values(L->ll[j], L->lx, &v);
        else
            svm_predict_values(L->sv[j], L->sx, &v);
        out[j] = L->sign[j] * v;
    }
}

void bl_svmlib_free(bl_svmlib *L)
{
    if (!L)
        return;
    for (size_t j = 0; j < L->ncol; j++) {
        if (L->ll && L->ll[j])
            free_and_destroy_model(&L->ll[j]);
        if (L->sv && L->sv[j])
            svm_free_and_destroy_model(&L->sv[j]);
    }
    free(L->ll);
    free(L->sv);
    free(L->sign);
    free(L->constant);
    free(L->rows);
    free(L->pool);
    free(L->lrows);
    free(L->lpool);
    free(L->lx);
    free(L->sx);
    free(L->dec);
    free(L->lab);
    free(L);
}

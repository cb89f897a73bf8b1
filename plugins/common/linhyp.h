/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shared by the linear weak learners "perceptron" and "linsvm" (header
 * only, not part of the SDK): the hypothesis
 *
 *     phi(x) = z(x) > 0 ? +1 : -1,   z(x) = b + sum_j v_j xs_{f_j}(x),
 *     xs_f(x) = (x_f - mu_f) / sd_f, and 0 when x_f is NaN,
 *
 * i.e. a hyperplane in the space of features standardised with the
 * training points' mean and standard deviation (stored in the hypothesis,
 * per term), where a missing value sits at the feature's training mean.
 * z = 0 (and a NaN z, possible only on data outside the training range,
 * e.g. +-inf standardised values of opposite signs) gives -1.  Only terms
 * with v_j != 0 are kept, in increasing feature order.
 *
 * Scores are computed with implicit centering, so that a sparse set costs
 * its stored entries: with a_j = v_j / sd_j and k_j = a_j mu_j,
 *
 *     z(x) = (b - sum_j k_j) + sum_{j: x_{f_j} != 0} (NaN ? k_j : a_j x_{f_j}),
 *
 * the constant summed in term order, then each example's non-zero terms
 * added in term order.  The dense form (lin_scores) and the sparse one
 * (lin_scores_sparse, over the columns of the CSC) run that same sequence
 * of roundings, so predict and predict_sparse agree bit for bit, and so do
 * fit's outputs, the edge it reports and predict, with 1 or n threads
 * (threads split the examples into fixed blocks).  Against the direct
 * b + sum_j v_j (x - mu_j) / sd_j this form loses about
 * eps * sum_j |k_j| / |z| of relative precision: nothing on sparse data
 * (small mu), and it only matters for a sign on examples within that of
 * the hyperplane.
 *
 * Text (one line, what save writes and load reads):
 *     b=<b> terms=<n> <f>:<v>:<mu>:<sd> <f>:<v>:<mu>:<sd> ...   (n terms)
 * with every real printed by %.17g, which strtod reads back bit for bit.
 * load checks: b, v, mu finite; sd finite and > 0; features < d and
 * strictly increasing; exactly n terms; nothing after them.
 */
#ifndef BL_PLUGINS_LINHYP_H
#define BL_PLUGINS_LINHYP_H

#include <boostlab/boostlab.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"

struct lin_hyp {
    size_t n;        /* terms                                      */
    size_t *f;       /* n feature indices, increasing              */
    double *v;       /* n weights (non-zero in saved hypotheses)   */
    double *mu, *sd; /* n standardisation constants of f_j         */
    double b;
};

/* Examples per block of lin_scores: the unit threads share. */
#define LIN_BLOCK 1024

static inline void lin_free(struct lin_hyp *h)
{
    if (!h)
        return;
    free(h->f);
    free(h->v);
    free(h->mu);
    free(h->sd);
    free(h);
}

static inline struct lin_hyp *lin_new(size_t n)
{
    struct lin_hyp *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    size_t k = n ? n : 1;
    h->n = n;
    h->f = malloc(k * sizeof *h->f);
    h->v = malloc(k * sizeof *h->v);
    h->mu = malloc(k * sizeof *h->mu);
    h->sd = malloc(k * sizeof *h->sd);
    if (!h->f || !h->v || !h->mu || !h->sd) {
        lin_free(h);
        return NULL;
    }
    return h;
}

/* The standardised value of a raw one, as everything here computes it. */
static inline double lin_std1(float x, double mu, double sd)
{
    return isnan(x) ? 0.0 : ((double)x - mu) / sd;
}

/* Mean and standard deviation (population, two passes in double) of each
 * feature over its non-missing training values; a feature without values
 * gets mu = 0, and sd = 1 replaces a zero or non-finite deviation (a
 * constant feature then standardises to 0). */
static inline void lin_standardise(const struct bl_matrix *X, double *mu, double *sd)
{
    size_t m = X->m;
    for (size_t f = 0; f < X->d; f++) {
        const float *x = X->x + f * m;
        double s = 0.0;
        size_t cnt = 0;
        for (size_t i = 0; i < m; i++)
            if (!isnan(x[i]))
                s += x[i], cnt++;
        double mean = cnt ? s / (double)cnt : 0.0, q = 0.0;
        for (size_t i = 0; i < m; i++)
            if (!isnan(x[i]))
                q += ((double)x[i] - mean) * ((double)x[i] - mean);
        double dev = cnt ? sqrt(q / (double)cnt) : 0.0;
        mu[f] = isfinite(mean) ? mean : 0.0;
        sd[f] = isfinite(dev) && dev > 0.0 ? dev : 1.0;
    }
}

/* lin_standardise from a sparse set's columns: the entries not stored are
 * that many zeros, so the sums skip them (they are summed in another order
 * than the dense rows, so mu and sd may differ in their last bits). */
static inline void lin_standardise_sparse(const struct bl_sparse *X, double *mu, double *sd)
{
    for (size_t f = 0; f < X->d; f++) {
        size_t e0 = X->cptr[f], e1 = X->cptr[f + 1], cnt = X->m, stored = 0;
        double s = 0.0;
        for (size_t e = e0; e < e1; e++)
            if (isnan(X->cval[e]))
                cnt--;
            else
                s += X->cval[e], stored++;
        double mean = cnt ? s / (double)cnt : 0.0, q = (double)(cnt - stored) * mean * mean;
        for (size_t e = e0; e < e1; e++)
            if (!isnan(X->cval[e]))
                q += ((double)X->cval[e] - mean) * ((double)X->cval[e] - mean);
        double dev = cnt ? sqrt(q / (double)cnt) : 0.0;
        mu[f] = isfinite(mean) ? mean : 0.0;
        sd[f] = isfinite(dev) && dev > 0.0 ? dev : 1.0;
    }
}

/* The per-term factor a_j = v_j / sd_j and centering constant k_j = a_j mu_j. */
static inline double lin_a(const struct lin_hyp *h, size_t j)
{
    return h->v[j] / h->sd[j];
}

/* b - sum_j k_j in term order: every example's score starts from it. */
static inline double lin_const(const struct lin_hyp *h)
{
    double c = h->b;
    for (size_t j = 0; j < h->n; j++)
        c -= lin_a(h, j) * h->mu[j];
    return c;
}

/* What a non-zero raw value of term j adds to the constant. */
static inline double lin_term(double a, double k, float x)
{
    return isnan(x) ? k : a * (double)x;
}

/* z[i] for the m examples of X, in blocks of examples that threads share:
 * the implicit-centering form (see the top), or with direct set
 * b + sum_j v_j xs_{f_j}(x_i) term after term, for a learner that sees only
 * dense sets (wlda): more precise when |mu_j| >> sd_j, and its models keep
 * the numbers they had.  Not inlined: fit and predict must run the very
 * same code (one rounding). */
static __attribute__((noinline, unused)) void lin_scores_form(const struct lin_hyp *h,
                                                              const struct bl_matrix *X,
                                                              double *z, int nthreads, int direct)
{
    size_t m = X->m;
    double c0 = direct ? h->b : lin_const(h);
    long nb = (long)((m + LIN_BLOCK - 1) / LIN_BLOCK);
    int nt = nthreads > 1 ? nthreads : 1;
    int par = nt > 1 && nb > 1 && m * (h->n + 1) >= 65536;
    (void)nt;
#pragma omp parallel for schedule(static) num_threads(nt) if (par)
    for (long blk = 0; blk < nb; blk++) {
        size_t i0 = (size_t)blk * LIN_BLOCK, i1 = i0 + LIN_BLOCK < m ? i0 + LIN_BLOCK : m;
        for (size_t i = i0; i < i1; i++)
            z[i] = c0;
        for (size_t j = 0; j < h->n; j++) {
            const float *x = X->x + h->f[j] * m;
            double a = lin_a(h, j), k = a * h->mu[j], v = h->v[j], mu = h->mu[j], sd = h->sd[j];
            if (direct)
                for (size_t i = i0; i < i1; i++)
                    z[i] += v * lin_std1(x[i], mu, sd);
            else
                for (size_t i = i0; i < i1; i++)
                    if (x[i] != 0.0f)
                        z[i] += lin_term(a, k, x[i]);
        }
    }
}

static inline void lin_scores(const struct lin_hyp *h, const struct bl_matrix *X, double *z,
                              int nthreads)
{
    lin_scores_form(h, X, z, nthreads, 0);
}

static inline void lin_scores_direct(const struct lin_hyp *h, const struct bl_matrix *X,
                                     double *z, int nthreads)
{
    lin_scores_form(h, X, z, nthreads, 1);
}

/* The same scores from a sparse set's columns: per example the same
 * additions in the same order as lin_scores, at the cost of the stored
 * entries of the hypothesis' features.  A term whose feature the set does
 * not have (d smaller than the model's) is 0 there.  Serial: examples'
 * sums would race across columns. */
static __attribute__((noinline, unused)) void lin_scores_sparse(const struct lin_hyp *h,
                                                                const struct bl_sparse *X,
                                                                double *z)
{
    double c0 = lin_const(h);
    for (size_t i = 0; i < X->m; i++)
        z[i] = c0;
    for (size_t j = 0; j < h->n && h->f[j] < X->d; j++) {
        double a = lin_a(h, j), k = a * h->mu[j];
        for (size_t e = X->cptr[h->f[j]]; e < X->cptr[h->f[j] + 1]; e++)
            if (X->cval[e] != 0.0f)
                z[X->crow[e]] += lin_term(a, k, X->cval[e]);
    }
}

/* The training set's scores, sparse or dense. */
static inline void lin_train_scores(const struct lin_hyp *h, const struct bl_train *tr, double *z,
                                    int nthreads)
{
    if (tr->S)
        lin_scores_sparse(h, tr->S, z);
    else
        lin_scores(h, &tr->X, z, nthreads);
}

static inline double lin_sign(double z)
{
    return z > 0.0 ? 1.0 : -1.0;
}

/* sum_i u_i phi_i, in example order (the edge fit reports). */
static inline double lin_edge(const double *u, const double *z, size_t m)
{
    double e = 0.0;
    for (size_t i = 0; i < m; i++)
        e += u[i] * lin_sign(z[i]);
    return e;
}

static inline void lin_negate(struct lin_hyp *h)
{
    h->b = -h->b;
    for (size_t j = 0; j < h->n; j++)
        h->v[j] = -h->v[j];
}

/* Make h's edge on the training set non-negative and report it: negate h
 * when that helps (-z is exact, but z = 0 gives -1 either way, so the edge
 * is recomputed), and if neither sign reaches 0 (only with examples on the
 * hyperplane) use the constant hypothesis sign(sum u) (v = 0, b = +-1),
 * whose edge is |sum u|.  Writes the +-1 outputs to out (m, may be NULL)
 * and the edge; z is m of scratch.  tr may be sparse. */
static inline void lin_finish(struct lin_hyp *h, const struct bl_train *tr, const double *u,
                              int nthreads, double *z, double *out, double *edge)
{
    size_t m = tr->m;
    lin_train_scores(h, tr, z, nthreads);
    double e = lin_edge(u, z, m);
    if (e < 0.0) {
        lin_negate(h);
        lin_train_scores(h, tr, z, nthreads);
        double e2 = lin_edge(u, z, m);
        if (e2 >= e) {
            e = e2;
        } else {
            lin_negate(h);
            lin_train_scores(h, tr, z, nthreads);
        }
    }
    if (e < 0.0) {
        double s = 0.0;
        for (size_t i = 0; i < m; i++)
            s += u[i];
        h->n = 0;
        h->b = s < 0.0 ? -1.0 : 1.0;
        lin_train_scores(h, tr, z, nthreads);
        e = lin_edge(u, z, m);
    }
    if (out)
        for (size_t i = 0; i < m; i++)
            out[i] = lin_sign(z[i]);
    *edge = e;
}

/* The hypothesis of the dense weights w[0..d-1], bias w[d]: only the
 * non-zero weights become terms.  NULL when out of memory. */
static inline struct lin_hyp *lin_from_dense(const double *w, size_t d, const double *mu,
                                             const double *sd)
{
    size_t n = 0;
    for (size_t f = 0; f < d; f++)
        n += w[f] != 0.0;
    struct lin_hyp *h = lin_new(n);
    if (!h)
        return NULL;
    size_t j = 0;
    for (size_t f = 0; f < d; f++)
        if (w[f] != 0.0) {
            h->f[j] = f;
            h->v[j] = w[f];
            h->mu[j] = mu[f];
            h->sd[j] = sd[f];
            j++;
        }
    h->b = w[d];
    return h;
}

static inline void lin_predict(const void *hyp, const struct bl_matrix *X, double *out)
{
    const struct lin_hyp *h = hyp;
    lin_scores(h, X, out, 1);
    for (size_t i = 0; i < X->m; i++)
        out[i] = lin_sign(out[i]);
}

static inline void lin_predict_sparse(const void *hyp, const struct bl_sparse *X, double *out)
{
    lin_scores_sparse(hyp, X, out);
    for (size_t i = 0; i < X->m; i++)
        out[i] = lin_sign(out[i]);
}

static inline size_t lin_outdim(const void *hyp)
{
    (void)hyp;
    return 1;
}

static inline int lin_save(const void *hyp, char *buf, size_t cap)
{
    const struct lin_hyp *h = hyp;
    struct sbuf b = {buf, cap, 0};
    if (cap)
        buf[0] = 0;
    sb_printf(&b, "b=%.17g terms=%zu", h->b, h->n);
    for (size_t j = 0; j < h->n; j++)
        sb_printf(&b, " %zu:%.17g:%.17g:%.17g", h->f[j], h->v[j], h->mu[j], h->sd[j]);
    return b.len > (size_t)INT32_MAX ? -1 : (int)b.len;
}

/* A real that starts right at p (no blanks: strtod would skip them); NULL
 * when there is none or it is not finite. */
static inline const char *lin_real(const char *p, double *x)
{
    if (!*p || isspace((unsigned char)*p))
        return NULL;
    char *end;
    errno = 0;
    *x = strtod(p, &end);
    if (end == p || !isfinite(*x))
        return NULL;
    return end;
}

static inline const char *lin_uint(const char *p, unsigned long long *v)
{
    if (!isdigit((unsigned char)*p))
        return NULL;
    char *end;
    errno = 0;
    *v = strtoull(p, &end, 10);
    return errno ? NULL : end;
}

#define LIN_EXPECT "b=<b> terms=<n> <f>:<v>:<mu>:<sd> ... (n terms)"

static inline void *lin_load(const char *name, const char *text, size_t d, char err[BL_ERR_MAX])
{
    const char *p = text;
    double b;
    unsigned long long n;
    if (strncmp(p, "b=", 2) != 0 || !(p = lin_real(p + 2, &b))) {
        snprintf(err, BL_ERR_MAX, "%s: malformed hypothesis \"%.120s\": no finite bias "
                 "\"b=<real>\" at its start (expected \"%s\")", name, text, LIN_EXPECT);
        return NULL;
    }
    if (strncmp(p, " terms=", 7) != 0 || !(p = lin_uint(p + 7, &n))) {
        snprintf(err, BL_ERR_MAX, "%s: malformed hypothesis \"%.120s\": no \" terms=<count>\" "
                 "after the bias (expected \"%s\")", name, text, LIN_EXPECT);
        return NULL;
    }
    if (n > d) {
        snprintf(err, BL_ERR_MAX, "%s: hypothesis \"%.120s\" has %llu terms but the data has "
                 "%zu features", name, text, n, d);
        return NULL;
    }
    struct lin_hyp *h = lin_new((size_t)n);
    if (!h) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    h->b = b;
    for (size_t j = 0; j < n; j++) {
        unsigned long long f;
        double v, mu, sd;
        const char *q = p;
        if (*q != ' ' || !(q = lin_uint(q + 1, &f)) || *q != ':' || !(q = lin_real(q + 1, &v)) ||
            *q != ':' || !(q = lin_real(q + 1, &mu)) || *q != ':' ||
            !(q = lin_real(q + 1, &sd))) {
            snprintf(err, BL_ERR_MAX, "%s: malformed hypothesis: term %zu of %llu is not "
                     "\" <feature>:<v>:<mu>:<sd>\" with finite reals at \"%.60s\"", name, j, n, p);
            goto bad;
        }
        if (f >= d) {
            snprintf(err, BL_ERR_MAX, "%s: hypothesis term %zu: feature index %llu out of range "
                     "(the data has %zu features)", name, j, f, d);
            goto bad;
        }
        if (j > 0 && f <= h->f[j - 1]) {
            snprintf(err, BL_ERR_MAX, "%s: hypothesis term %zu: feature %llu does not follow "
                     "feature %zu (features must be strictly increasing)", name, j, f, h->f[j - 1]);
            goto bad;
        }
        if (!(sd > 0.0)) {
            snprintf(err, BL_ERR_MAX, "%s: hypothesis term %zu: standard deviation %g of feature "
                     "%llu is not positive", name, j, sd, f);
            goto bad;
        }
        h->f[j] = (size_t)f, h->v[j] = v, h->mu[j] = mu, h->sd[j] = sd;
        p = q;
    }
    while (isspace((unsigned char)*p))
        p++;
    if (*p) {
        snprintf(err, BL_ERR_MAX, "%s: malformed hypothesis: unexpected text \"%.60s\" after "
                 "its %llu terms", name, p, n);
        goto bad;
    }
    return h;
bad:
    lin_free(h);
    return NULL;
}

#endif

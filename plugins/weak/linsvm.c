/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Weak-learner plugin "linsvm": the linear-SVM base learner of StructBoost's
 * hierarchical experiments (spec structboost.md §3.2, §5.3, Table III),
 *
 *     phi(x) = sign(v' xs + b),   xs = x standardised with the training
 *                                 points' mean and std (NaN -> 0),
 *
 * for the weighted base problem of StructBoost's oracle: given one column
 * of signed weights u = req->G (c = 1), approximately maximise
 * sum_r u_r phi(x_r).  The hypothesis, its text form and the NaN rule are
 * those of plugins/common/linhyp.h (shared with "perceptron").
 *
 * How u becomes SVM training data is not in the paper (spec §3.2); the
 * natural reading is used: the points x_r with u_r != 0, labels
 * y_r = sign(u_r), and per-example costs
 *     C_r = C |u_r| / mean_r' |u_r'|     (mean over the SVM's points),
 * C = param `c`, or when c = 0 the paper's C_svm = 10^8 / n, n the number
 * of SVM points (an almost hard-margin SVM).  Before that, param `prune`
 * zeroes the floor(prune * n0) smallest non-zero |u_r| (n0 of them; ties by
 * index): the paper's "10% smallest non-zero mu set to 0" (spec §2.6 item
 * 5; prune = 0.1 reproduces it).
 *
 * Solver: dual coordinate descent for the L2-regularised L1-loss (hinge)
 * linear SVM, Hsieh, Chang, Lin, Keerthi, Sundararajan, ICML 2008
 * (Algorithm 1 with the shrinking of §3.2, as liblinear's
 * solve_l2r_l1l2_svc does it), with per-example boxes 0 <= alpha_r <= C_r:
 *     min_w  1/2 ||w||^2 + sum_r C_r max(0, 1 - y_r w' xh_r),
 * xh_r = (xs_r, 1): the bias is an extra constant feature (regularised, as
 * in liblinear with bias 1).  Each epoch visits the active examples in a
 * random order drawn from req->seed (splitmix64; deterministic); it stops
 * when the projected gradients of an epoch span at most `eps` (liblinear's
 * test, default 0.1) with every example active again, or after `epochs`
 * epochs.  The SVM reads a row-major float copy of the standardised
 * training set, made once per learner at its first fit (m x d floats; a
 * dense set only, see below).
 * The solver is serial; only the copy and the scores are split over
 * threads (per example, in a fixed order), so the answer does not depend
 * on the thread count.
 *
 * Sparse sets (bl_train.S; predict_sparse declares that the learner takes
 * them) cost their stored entries, with no dense or standardised copy:
 * with c_f = -mu_f / sd_f, every row is xs_i = s_i + c, s_i sparse
 * (x_f / sd_f on the stored entries, mu_f / sd_f on a stored NaN), and the
 * solver keeps w = p + beta c, so that a coordinate step
 * w += t xh_i is p += t s_i, beta += t (plus the bias), and
 *     w' xs_i = p's_i + beta (c's_i) + p'c + beta c'c,
 * p'c kept up to date by p'c += t (c's_i); the diagonal is
 * ||s_i||^2 + 2 c's_i + c'c + 1.  At the end w = p + beta c (every feature
 * with mu != 0 is then a term).  mu and sd are summed over the stored
 * entries, the rows are doubles where the dense path rounds the
 * standardised copy to float, and w is held in another form, so a sparse
 * fit is the dense fit's up to rounding: in tests/unit/test_sparse the
 * weights agree to 1e-6 relative with eps = 1e-9 and the outputs are the
 * same.  Scores are those of plugins/common/linhyp.h (implicit centering,
 * the same on both paths, so predict_sparse equals predict bit for bit).
 *
 * Why not liblinear: Debian's liblinear 2.3 (/usr/include/linear.h,
 * LIBLINEAR_VERSION 230) has
 *     struct problem { int l, n; double *y; struct feature_node **x;
 *                      double bias; };
 * and struct parameter only per-class weights (nr_weight, weight_label,
 * weight): no per-instance weight (the "W" field exists only in the
 * unofficial liblinear-weights fork), and the weak learner needs the
 * per-example costs |u_r|.  liblinear also shuffles with the C library's
 * global rand(), which would make the answer depend on other callers, not
 * on req->seed, and it wants a sparse row copy of the data anyway.
 *
 * Then the sign that makes the edge non-negative is returned (the family is
 * closed under negation): res->edge = sum_r u_r phi(x_r) over all training
 * points with the unpruned u, computed from the same scores predict gives.
 * With no SVM points (u = 0) the answer is the constant -1, edge 0.
 *
 * c > 1 (several weight columns) is refused: the learner takes one column.
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/linhyp.h"
#include "../common/dcd.h"
#include "../common/rawx.h"

#define NAME "linsvm"

static const struct bl_host *g_host;

enum { P_C, P_EPS, P_EPOCHS, P_PRUNE, P_SHRINKING, P_COUNT };

static const struct bl_param_spec svm_params[P_COUNT] = {
    [P_C] = {"c", BL_PARAM_REAL, "0", 0, HUGE_VAL, NULL,
             "SVM cost C (per example C |u_r| / mean |u|); 0: the paper's 1e8 / #SVM examples"},
    [P_EPS] = {"eps", BL_PARAM_REAL, "0.1", 0, HUGE_VAL, NULL,
               "stop when an epoch's projected gradients span at most this (liblinear: 0.1)"},
    [P_EPOCHS] = {"epochs", BL_PARAM_INT, "1000", 1, 1000000, NULL,
                  "maximum passes of dual coordinate descent over the examples"},
    [P_PRUNE] = {"prune", BL_PARAM_REAL, "0", 0, 0.999, NULL,
                 "fraction of the smallest non-zero |u_r| zeroed before training (paper: 0.1)"},
    [P_SHRINKING] = {"shrinking", BL_PARAM_BOOL, "true", 0, 0, NULL,
                     "shrink the active set as liblinear does (same optimum, faster)"},
};

struct svm {
    const struct bl_host *host;
    const struct bl_train *tr;
    double C, eps, prune;
    long epochs;
    int shrinking, nthreads;
    size_t m, d;
    double *mu, *sd;   /* d                                          */
    float *xr;         /* m x d row-major standardised, made lazily  */
    double *qd;        /* m: ||xh_r||^2 = ||xs_r||^2 + 1             */
    double *w;         /* d + 1                                      */
    /* sparse sets: */
    double *rs;        /* nnz: s_i's values, parallel to S->rcol     */
    double *sc, *c;    /* m: c's_i; d: c = -mu / sd                  */
    double cc, beta, pc; /* c'c; the solver's beta and p'c          */
    double *alpha, *cost, *z; /* m                                    */
    signed char *y;    /* m                                          */
    size_t *idx;       /* m                                          */
    struct aidx { double a; size_t i; } *srt; /* m: pruning order     */
};

static void svm_destroy(void *self)
{
    struct svm *S = self;
    if (!S)
        return;
    free(S->mu), free(S->sd), free(S->xr), free(S->qd), free(S->w), free(S->alpha);
    free(S->cost), free(S->z), free(S->y), free(S->idx), free(S->srt);
    free(S->rs), free(S->sc), free(S->c);
    free(S);
}

static void *svm_create(const struct bl_host *host, const union bl_value *params,
                        const struct bl_train *train, char err[BL_ERR_MAX])
{
    if (train->S ? train->d == 0 || train->S->m != train->m || train->S->d != train->d
                 : !raw_features_ok(train, err)) {
        if (train->S)
            snprintf(err, BL_ERR_MAX, "the sparse training set has no (matching) features");
        return NULL;
    }
    struct svm *S = calloc(1, sizeof *S);
    if (!S) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    size_t m = train->m, d = train->d, mm = m ? m : 1;
    S->host = host;
    S->tr = train;
    S->m = m, S->d = d;
    S->C = params ? params[P_C].r : 0.0;
    S->eps = params ? params[P_EPS].r : 0.1;
    S->epochs = params ? (long)params[P_EPOCHS].i : 1000;
    S->prune = params ? params[P_PRUNE].r : 0.0;
    S->shrinking = params ? params[P_SHRINKING].b : 1;
    if (!(S->C >= 0.0) || !isfinite(S->C) || !(S->eps >= 0.0) || S->epochs < 1 ||
        !(S->prune >= 0.0 && S->prune < 1.0)) {
        snprintf(err, BL_ERR_MAX, "invalid parameters (c %g, eps %g, epochs %ld, prune %g: need "
                 "c >= 0, eps >= 0, epochs >= 1, 0 <= prune < 1)", S->C, S->eps, S->epochs,
                 S->prune);
        svm_destroy(S);
        return NULL;
    }
    S->nthreads = host && host->threads > 0 ? host->threads : 1;
    S->mu = malloc(d * sizeof *S->mu);
    S->sd = malloc(d * sizeof *S->sd);
    S->w = malloc((d + 1) * sizeof *S->w);
    S->qd = malloc(mm * sizeof *S->qd);
    S->alpha = malloc(mm * sizeof *S->alpha);
    S->cost = malloc(mm * sizeof *S->cost);
    S->z = malloc(mm * sizeof *S->z);
    S->y = malloc(mm);
    S->idx = malloc(mm * sizeof *S->idx);
    S->srt = malloc(mm * sizeof *S->srt);
    if (!S->mu || !S->sd || !S->w || !S->qd || !S->alpha || !S->cost || !S->z || !S->y ||
        !S->idx || !S->srt) {
        svm_destroy(S);
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    if (train->S)
        lin_standardise_sparse(train->S, S->mu, S->sd);
    else
        lin_standardise(&train->X, S->mu, S->sd);
    return S;
}

/* A sparse set's s_i, c's_i, c and the diagonal of Q (see the top), once. */
static int svm_rows_sparse(struct svm *S)
{
    const struct bl_sparse *X = S->tr->S;
    size_t m = S->m, d = S->d;
    S->rs = malloc((X->nnz ? X->nnz : 1) * sizeof *S->rs);
    S->sc = malloc((m ? m : 1) * sizeof *S->sc);
    S->c = malloc(d * sizeof *S->c);
    if (!S->rs || !S->sc || !S->c) {
        free(S->rs), free(S->sc), free(S->c);
        S->rs = S->sc = S->c = NULL;
        return -1;
    }
    S->cc = 0.0;
    for (size_t f = 0; f < d; f++) {
        S->c[f] = -S->mu[f] / S->sd[f];
        S->cc += S->c[f] * S->c[f];
    }
    for (size_t i = 0; i < m; i++) {
        double ss = 0.0, sc = 0.0;
        for (size_t e = X->rptr[i]; e < X->rptr[i + 1]; e++) {
            size_t f = X->rcol[e];
            float x = X->rval[e];
            double v = isnan(x) ? S->mu[f] / S->sd[f] : (double)x / S->sd[f];
            S->rs[e] = v;
            ss += v * v;
            sc += v * S->c[f];
        }
        S->sc[i] = sc;
        S->qd[i] = ss + 2.0 * sc + S->cc + 1.0;
    }
    return 0;
}

/* w' xh_i with w = p + beta c (p in w[0..d), the bias weight in w[d]). */
static double sparse_dot(void *ctx, const double *w, size_t i)
{
    const struct svm *S = ctx;
    const struct bl_sparse *X = S->tr->S;
    double dot = w[S->d];
    for (size_t e = X->rptr[i]; e < X->rptr[i + 1]; e++)
        dot += w[X->rcol[e]] * S->rs[e];
    return dot + S->beta * S->sc[i] + S->pc + S->beta * S->cc;
}

/* w += t xh_i in that form. */
static void sparse_add(void *ctx, double *w, size_t i, double t)
{
    struct svm *S = ctx;
    const struct bl_sparse *X = S->tr->S;
    for (size_t e = X->rptr[i]; e < X->rptr[i + 1]; e++)
        w[X->rcol[e]] += t * S->rs[e];
    S->beta += t;
    S->pc += t * S->sc[i];
    w[S->d] += t;
}

/* The row-major standardised copy and the diagonal of Q, once. */
static int svm_rows(struct svm *S)
{
    if (S->xr || S->rs)
        return 0;
    if (S->tr->S)
        return svm_rows_sparse(S);
    size_t m = S->m, d = S->d;
    if (m && d > SIZE_MAX / sizeof(float) / m)
        return -1;
    S->xr = malloc((m ? m : 1) * d * sizeof *S->xr);
    if (!S->xr)
        return -1;
    const float *X = S->tr->X.x;
    long nm = (long)m;
    int par = S->nthreads > 1 && m * d >= 65536;
#pragma omp parallel for schedule(static) num_threads(S->nthreads) if (par)
    for (long il = 0; il < nm; il++) {
        size_t i = (size_t)il;
        float *r = S->xr + i * d;
        double q = 1.0; /* the bias feature */
        for (size_t f = 0; f < d; f++) {
            r[f] = (float)lin_std1(X[f * m + i], S->mu[f], S->sd[f]);
            q += (double)r[f] * (double)r[f];
        }
        S->qd[i] = q;
    }
    return 0;
}

static int cmp_aidx(const void *pa, const void *pb)
{
    const struct aidx *a = pa, *b = pb;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* Dual coordinate descent over the l examples idx[0..l-1] (common/dcd.h),
 * margins 1, per-example boxes cost[i].  Returns the epochs run. */
static long dcd(struct svm *S, size_t l, uint64_t seed, double *gap)
{
    struct dcd_problem P = {S->d, 1.0, S->xr, S->y, NULL, S->cost, S->qd, S->eps, S->epochs,
                            S->shrinking, NULL, NULL, NULL};
    if (S->tr->S) {
        P.dot = sparse_dot, P.add = sparse_add, P.ctx = S;
        S->beta = 0.0, S->pc = 0.0;
    }
    long ep = dcd_solve(&P, S->idx, l, S->alpha, S->w, seed, gap);
    if (S->tr->S) /* w = p + beta c */
        for (size_t f = 0; f < S->d; f++)
            S->w[f] += S->beta * S->c[f];
    return ep;
}

static int svm_fit(void *self, const struct bl_fit_request *req, struct bl_fit_result *res,
                   char err[BL_ERR_MAX])
{
    struct svm *S = self;
    size_t m = S->m, d = S->d;
    if (!req->G || req->c == 0) {
        snprintf(err, BL_ERR_MAX, "no dual weights (c = %zu)", req->c);
        return -1;
    }
    if (req->c != 1) {
        snprintf(err, BL_ERR_MAX, "linsvm takes one column of signed weights u (c = 1, "
                 "StructBoost's base problem max sum_r u_r phi(x_r)); got c = %zu columns", req->c);
        return -1;
    }
    const double *u = req->G;
    size_t n0 = 0;
    for (size_t i = 0; i < m; i++) {
        if (!isfinite(u[i])) {
            snprintf(err, BL_ERR_MAX, "weight u[%zu] = %g is not finite", i, u[i]);
            return -1;
        }
        if (u[i] != 0.0)
            S->srt[n0++] = (struct aidx){fabs(u[i]), i};
    }
    /* pruning: drop the floor(prune * n0) smallest |u| (ties: lower index first) */
    size_t drop = (size_t)floor(S->prune * (double)n0);
    if (drop >= n0 && n0 > 0)
        drop = n0 - 1;
    if (drop > 0)
        qsort(S->srt, n0, sizeof *S->srt, cmp_aidx);
    size_t l = n0 - drop;
    struct lin_hyp *h;
    if (l == 0) {
        h = lin_new(0);
        if (h)
            h->b = -1.0;
    } else {
        if (svm_rows(S) < 0) {
            snprintf(err, BL_ERR_MAX, "out of memory for the %zu x %zu standardised %s", m, d,
                     S->tr->S ? "sparse rows" : "copy");
            return -1;
        }
        /* the SVM's points in index order (the permutation then is the seed's) */
        for (size_t s = 0; s < l; s++)
            S->idx[s] = S->srt[drop + s].i;
        if (drop > 0) {
            for (size_t s = 0; s < l; s++) /* back to index order */
                S->srt[s] = (struct aidx){(double)S->idx[s], S->idx[s]};
            qsort(S->srt, l, sizeof *S->srt, cmp_aidx);
            for (size_t s = 0; s < l; s++)
                S->idx[s] = S->srt[s].i;
        }
        double mean = 0.0;
        for (size_t s = 0; s < l; s++)
            mean += fabs(u[S->idx[s]]);
        mean /= (double)l;
        double C = S->C > 0.0 ? S->C : 1e8 / (double)l;
        for (size_t s = 0; s < l; s++) {
            size_t i = S->idx[s];
            S->y[i] = u[i] > 0.0 ? 1 : -1;
            S->cost[i] = C * (fabs(u[i]) / mean);
        }
        double gap;
        long ep = dcd(S, l, req->seed ^ 0x6c696e73766d0000ull, &gap);
        if (S->host && S->host->log)
            S->host->log(2, NAME, "%zu SVM points (%zu pruned), C %g, %ld epochs, gap %g", l, drop,
                         C, ep, gap);
        for (size_t f = 0; f <= d; f++)
            if (!isfinite(S->w[f])) {
                snprintf(err, BL_ERR_MAX, "the SVM diverged (weight %zu is %g)", f, S->w[f]);
                return -1;
            }
        h = lin_from_dense(S->w, d, S->mu, S->sd);
    }
    if (!h) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return -1;
    }
    lin_finish(h, S->tr, u, S->nthreads, S->z, res->out, &res->edge);
    res->hyp = h;
    res->outdim = 1;
    res->trees = 1;
    return 0;
}

static void svm_free_hyp(void *hyp)
{
    lin_free(hyp);
}

static void *svm_load(const char *text, size_t d, char err[BL_ERR_MAX])
{
    return lin_load(NAME, text, d, err);
}

static const struct bl_weak_ops svm_ops = {
    .size = sizeof(struct bl_weak_ops),
    .create = svm_create,
    .destroy = svm_destroy,
    .fit = svm_fit,
    .outdim = lin_outdim,
    .predict = lin_predict,
    .save = lin_save,
    .load = svm_load,
    .free_hyp = svm_free_hyp,
    .predict_sparse = lin_predict_sparse,
};

static const struct bl_plugin svm_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_WEAK,
    .name = NAME,
    .doc = "linear SVM sign(v'x + b) on standardised features, labels sign(u_r), costs |u_r| "
           "(dual coordinate descent; StructBoost's hierarchical learner); one weight column",
    .params = svm_params,
    .nparams = P_COUNT,
    .ops = &svm_ops,
};

static const struct bl_plugin *const svm_plugins[] = {&svm_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    g_host = host;
    return svm_plugins;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Weak-learner plugin "wlda": RandomBoost's weighted Fisher LDA weak learner
 * (Paisitkriangkrai et al., TNNLS 2014, Sec. IV-C, Table VI; spec
 * randomboost.md §4.2 and §12 item 13; after Shen, Paisitkriangkrai & Zhang,
 * ICIP 2008): a linear projection followed by a decision stump on it,
 *
 *     h(x) = pol * (z(x) > t ? +1 : -1),   z(x) = b + sum_j v_j xs_{f_j}(x),
 *
 * where z is plugins/common/linhyp.h's linear function (features
 * standardised with the training mean and std; a missing value sits at the
 * feature's training mean, xs = 0) and b = 0 when fitted.  linhyp's
 * lin_scores_direct() computes z in fit and in predict, so both agree bit for
 * bit (wlda takes only dense sets; linhyp.h's sparse-ready form would move
 * its thresholds in their last bits).
 *
 * Fit, for one column g of the dual weights (the paper leaves the two
 * classes, their weights and the regularisation open; these are the spec's
 * impl. choices):
 *   1. class 1 = {i: g_i > 0}, class 2 = {i: g_i < 0} (g_i = 0: neither),
 *      example weights |g_i| normalised to sum 1 within each class;
 *   2. over p features -- every feature that is not constant on the
 *      training set, or `features` of them drawn from the request's seed
 *      (the paper samples 1000 of n = 20000 projected dims per iteration) --
 *      the weighted means mu1, mu2 and covariances S1, S2 (sum_i w_i (x_i -
 *      mu)(x_i - mu)', weights summing to 1 per class);
 *   3. a = (S1 + S2 + lambda I)^-1 (mu1 - mu2), lambda = ridge * tr(S1 +
 *      S2) / p: relative to the mean variance, so, with the features
 *      standardised, rescaling any feature changes nothing.  Solved by GSL's
 *      Cholesky; when the matrix is not numerically positive definite
 *      (ridge = 0 and dependent features: a pivot^2 <= p eps max diag) by
 *      the SVD pseudo-inverse.  S1 + S2 = 0 (each class one point, in these
 *      features) gives a = mu1 - mu2.  a is scaled to unit length;
 *   4. z_i = a'xs_i, and the best stump on z for the signed weights g:
 *      both polarities, every threshold half way between consecutive
 *      distinct z_i (a NaN z, only possible through overflow, sorts as
 *      -inf: "z > t" is false for it), max |sum_i g_i h(x_i)|, ties to the
 *      lowest threshold.
 * Cost per column: O(m p^2) for S1 + S2, O(p^3) for the solve, O(m log m)
 * for the stump on z (and O(m d) for the axis-aligned stumps).
 * with_stumps: also the best axis-aligned stump on the quantized view
 * (plugins/common/stump1.h: stump's criterion max for one column, same
 * hypothesis "x_f > cut" on raw values, NaN left) and keep the larger
 * edge, the WLDA one on ties.  The paper appends the WLDA feature to the
 * features and lets the stump search choose: the same thing.
 * Degenerate columns (g all of one sign or zero, m < 2, every feature
 * constant, a = 0 or not finite, all z equal) fall back to the best
 * axis-aligned stump, and without one to the constant sign(sum_i g_i)
 * (lda with no terms: z = b = 1 > t = 0).  Every edge is recomputed from
 * the hypothesis' own training outputs, in example order.
 *
 * Several columns (c > 1), as stump's criteria of the same names:
 *   max:  fit every column, keep the answer with the largest edge on its
 *         own column (ties to the lowest); outdim 1; its polarity and edge
 *         max_r sum_i G_ir h(x_i) (the most violated of the c constraints),
 *         choosing the sign that maximises it;
 *   each: one independent hypothesis per column, outdim c, edge = sum of
 *         the columns' edges.
 * Column r draws its features from a seed derived from (req->seed, r).
 *
 * Threads: the means, the blocks of S1 + S2 and z are computed per
 * feature (or per block of examples) in a fixed order whatever the thread
 * count, and GSL and the threshold scan run serially, so 1 and n threads
 * give the same bits.
 *
 * Hypothesis text (one line, what save writes and load reads):
 *   one output:  "lda t=<t> pol=<1|-1> <linhyp text: b=<b> terms=<n> f:v:mu:sd ...>"
 *            or  "stump f=<feature> t=<threshold> pol=<1|-1>"   (axis-aligned, as stump's)
 *   each:        "each <c>: <one output>; <one output>; ..."   (c of them)
 * t of lda by %.17g (a double), the stump's by %.9g (a float): both read
 * back bit for bit.  load refuses anything else with a message naming wlda.
 */
#include <boostlab/boostlab.h>

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "../common/linhyp.h"
#include "../common/sbuf.h"
#include "../common/splits.h"
#include "../common/stump1.h"

#define NAME "wlda"
#define MAXBINS BL_STUMP1_BINS
#define MAX_OUTDIM ((size_t)1 << 20) /* the model loader's limit on a term's code */
#define XBLOCK 2048                  /* examples per block of the covariance */

static const struct bl_host *g_host;

enum { P_CRITERION, P_RIDGE, P_FEATURES, P_WITH_STUMPS, P_COUNT };
enum { CRIT_MAX = 0, CRIT_EACH = 1 };

static const struct bl_param_spec wlda_params[P_COUNT] = {
    [P_CRITERION] = {"criterion", BL_PARAM_CHOICE, "max", 0, 0, "max|each",
                     "max: the column whose answer has the largest edge, outdim 1; each: one "
                     "hypothesis per column, outdim c"},
    [P_RIDGE] = {"ridge", BL_PARAM_REAL, "1e-6", 0, 1e6, NULL,
                 "lambda added to S1 + S2, relative to its mean variance trace / p (features "
                 "standardised); 0: plain Fisher, pseudo-inverse when singular"},
    [P_FEATURES] = {"features", BL_PARAM_INT, "0", 0, 1 << 30, NULL,
                    "features per fit, drawn from the request's seed (0 or >= d: all); the "
                    "paper uses 1000 of 20000"},
    [P_WITH_STUMPS] = {"with_stumps", BL_PARAM_BOOL, "false", 0, 0, NULL,
                       "also search axis-aligned stumps and keep the larger edge (the paper's "
                       "WLDA feature appended to the features)"},
};

/* ---- hypotheses ------------------------------------------------------------ */

enum { W_LDA, W_AXIS };

/* One output. */
struct wl1 {
    int kind;
    int pol;             /* +1 or -1                                  */
    double t;            /* W_LDA: threshold on z                     */
    struct lin_hyp *lin; /* W_LDA: z (no terms: the constant b)        */
    size_t f;            /* W_AXIS: x_f > ft                           */
    float ft;
};

struct wlda_hyp {
    size_t c; /* outputs */
    int each; /* text "each c: ..." (c may be 1)  */
    struct wl1 *o;
};

static void wl1_clear(struct wl1 *h)
{
    lin_free(h->lin);
    memset(h, 0, sizeof *h);
}

static void wlda_free_hyp(void *hyp)
{
    struct wlda_hyp *H = hyp;
    if (!H)
        return;
    if (H->o)
        for (size_t r = 0; r < H->c; r++)
            lin_free(H->o[r].lin);
    free(H->o);
    free(H);
}

static struct wlda_hyp *hyp_new(size_t c, int each)
{
    struct wlda_hyp *H = calloc(1, sizeof *H);
    if (!H)
        return NULL;
    H->c = c;
    H->each = each;
    if (!(H->o = calloc(c ? c : 1, sizeof *H->o))) {
        free(H);
        return NULL;
    }
    return H;
}

/* The outputs of h on X (m of them, contiguous).  z is m of scratch and may
 * be out itself.  Fit and predict both come here. */
static void wl1_outputs(const struct wl1 *h, const struct bl_matrix *X, double *z, double *out,
                        int nthreads)
{
    size_t m = X->m;
    double pos = (double)h->pol;
    if (h->kind == W_AXIS) {
        const float *x = X->x + h->f * m;
        for (size_t i = 0; i < m; i++)
            out[i] = x[i] > h->ft ? pos : -pos;
        return;
    }
    lin_scores_direct(h->lin, X, z, nthreads);
    for (size_t i = 0; i < m; i++)
        out[i] = z[i] > h->t ? pos : -pos;
}

static size_t wlda_outdim(const void *hyp)
{
    const struct wlda_hyp *H = hyp;
    return H->each ? H->c : 1;
}

static void wlda_predict(const void *hyp, const struct bl_matrix *X, double *out)
{
    const struct wlda_hyp *H = hyp;
    size_t m = X->m, c = wlda_outdim(H);
    if (c == 1) {
        wl1_outputs(&H->o[0], X, out, out, 1);
        return;
    }
    double *col = malloc((m ? m : 1) * sizeof *col);
    if (!col) { /* predict cannot fail */
        fputs(NAME ": out of memory\n", stderr);
        abort();
    }
    for (size_t r = 0; r < c; r++) {
        wl1_outputs(&H->o[r], X, col, col, 1);
        for (size_t i = 0; i < m; i++)
            out[i * c + r] = col[i];
    }
    free(col);
}

/* ---- the learner ------------------------------------------------------------ */

struct zkey {
    double key; /* z, NaN as -inf */
    size_t i;
};

struct wlda {
    const struct bl_host *host;
    const struct bl_train *tr;
    int criterion, with_stumps, nthreads;
    double ridge;
    size_t nfeat;          /* parameter features (0: all)               */
    size_t m, d;
    double *mu, *sd;       /* d: standardisation (linhyp.h)             */
    size_t *inf, ninf;     /* the features not constant on the training set */
    size_t *sel;           /* d: this column's features (first p)       */
    uint8_t *split_ok;     /* d * MAXBINS                               */
    double *hist;          /* nthreads * MAXBINS                        */
    struct bl_stump1 *best;/* d                                         */
    double *u, *z;         /* m: this column's weights, projections     */
    double *ha, *hb, *hc;  /* m: candidate outputs                      */
    double *hbest;         /* m: criterion max: the best column's outputs */
    struct zkey *srt;      /* m                                         */
    size_t *rows;          /* m: examples with g_i != 0 ...              */
    double *rw, *rq;       /* ... their weight w_i / W_class and its root */
    unsigned char *cls;    /* ... and class (1: g > 0)                  */
    /* per fit, grown on demand: p-sized vectors and p x p matrices */
    size_t cap_p;
    double *mu1, *mu2, *rhs, *a, *sv, *work; /* p                         */
    double *A, *A2, *V;                       /* p * p                     */
    double *Cb;                               /* p * XBLOCK                */
};

static void wlda_destroy(void *self)
{
    struct wlda *S = self;
    if (!S)
        return;
    free(S->mu), free(S->sd), free(S->inf), free(S->sel), free(S->split_ok), free(S->hist);
    free(S->best), free(S->u), free(S->z), free(S->ha), free(S->hb), free(S->hc);
    free(S->hbest), free(S->srt), free(S->rows), free(S->rw), free(S->rq), free(S->cls);
    free(S->mu1), free(S->mu2), free(S->rhs), free(S->a), free(S->sv), free(S->work);
    free(S->A), free(S->A2), free(S->V), free(S->Cb);
    free(S);
}

static void *wlda_create(const struct bl_host *host, const union bl_value *params,
                         const struct bl_train *train, char err[BL_ERR_MAX])
{
    const struct bl_quantized *Q = &train->Q;
    if (!Q->bins || !Q->nbins || !Q->cut || Q->m != train->m || Q->d != train->d ||
        train->X.m != train->m || train->X.d != train->d || !train->X.x) {
        snprintf(err, BL_ERR_MAX, "the training set has no (matching) raw and quantized views");
        return NULL;
    }
    if (train->d == 0) {
        snprintf(err, BL_ERR_MAX, "the training set has no features");
        return NULL;
    }
    for (size_t f = 0; f < Q->d; f++)
        if (Q->nbins[f] < 1 || Q->nbins[f] > MAXBINS) {
            snprintf(err, BL_ERR_MAX, "feature %zu has %u bins (need 1..%d)", f,
                     (unsigned)Q->nbins[f], MAXBINS);
            return NULL;
        }
    struct wlda *S = calloc(1, sizeof *S);
    if (!S) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    size_t m = train->m, d = train->d, mm = m ? m : 1;
    S->host = host;
    S->tr = train;
    S->m = m, S->d = d;
    S->criterion = params ? params[P_CRITERION].choice : CRIT_MAX;
    S->ridge = params ? params[P_RIDGE].r : 1e-6;
    S->nfeat = params ? (size_t)(params[P_FEATURES].i > 0 ? params[P_FEATURES].i : 0) : 0;
    S->with_stumps = params ? params[P_WITH_STUMPS].b : 0;
    if ((S->criterion != CRIT_MAX && S->criterion != CRIT_EACH) || !(S->ridge >= 0.0) ||
        !isfinite(S->ridge)) {
        snprintf(err, BL_ERR_MAX, "invalid parameters (criterion %d, ridge %g)", S->criterion,
                 S->ridge);
        wlda_destroy(S);
        return NULL;
    }
    S->nthreads = host && host->threads > 0 ? host->threads : 1;
    S->mu = malloc(d * sizeof *S->mu);
    S->sd = malloc(d * sizeof *S->sd);
    S->inf = malloc(d * sizeof *S->inf);
    S->sel = malloc(d * sizeof *S->sel);
    S->split_ok = calloc(d * MAXBINS, 1);
    S->hist = malloc((size_t)S->nthreads * MAXBINS * sizeof *S->hist);
    S->best = malloc(d * sizeof *S->best);
    S->u = malloc(mm * sizeof *S->u);
    S->z = malloc(mm * sizeof *S->z);
    S->ha = malloc(mm * sizeof *S->ha);
    S->hb = malloc(mm * sizeof *S->hb);
    S->hc = malloc(mm * sizeof *S->hc);
    S->hbest = malloc(mm * sizeof *S->hbest);
    S->srt = malloc(mm * sizeof *S->srt);
    S->rows = malloc(mm * sizeof *S->rows);
    S->rw = malloc(mm * sizeof *S->rw);
    S->rq = malloc(mm * sizeof *S->rq);
    S->cls = malloc(mm);
    if (!S->mu || !S->sd || !S->inf || !S->sel || !S->split_ok || !S->hist || !S->best ||
        !S->u || !S->z || !S->ha || !S->hb || !S->hc || !S->hbest || !S->srt || !S->rows ||
        !S->rw || !S->rq || !S->cls) {
        wlda_destroy(S);
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    lin_standardise(&train->X, S->mu, S->sd);
    /* the features whose standardised training values are not all equal */
    for (size_t f = 0; f < d; f++) {
        const float *x = train->X.x + f * m;
        int varies = 0;
        double x0 = m ? lin_std1(x[0], S->mu[f], S->sd[f]) : 0.0;
        for (size_t i = 1; i < m && !varies; i++)
            varies = lin_std1(x[i], S->mu[f], S->sd[f]) != x0;
        if (varies)
            S->inf[S->ninf++] = f;
    }
    if (bl_splits_ok(Q, S->split_ok, err, BL_ERR_MAX) < 0) {
        wlda_destroy(S);
        return NULL;
    }
    return S;
}

static int reserve_p(struct wlda *S, size_t p)
{
    if (p <= S->cap_p)
        return 0;
    double **vec[] = {&S->mu1, &S->mu2, &S->rhs, &S->a, &S->sv, &S->work};
    double **mat[] = {&S->A, &S->A2, &S->V};
    for (size_t j = 0; j < sizeof vec / sizeof vec[0]; j++) {
        free(*vec[j]);
        *vec[j] = malloc(p * sizeof **vec[j]);
    }
    for (size_t j = 0; j < sizeof mat / sizeof mat[0]; j++) {
        free(*mat[j]);
        *mat[j] = malloc(p * p * sizeof **mat[j]);
    }
    free(S->Cb);
    S->Cb = malloc(p * XBLOCK * sizeof *S->Cb);
    int ok = S->Cb != NULL;
    for (size_t j = 0; j < sizeof vec / sizeof vec[0]; j++)
        ok &= *vec[j] != NULL;
    for (size_t j = 0; j < sizeof mat / sizeof mat[0]; j++)
        ok &= *mat[j] != NULL;
    S->cap_p = ok ? p : 0;
    return ok ? 0 : -1;
}

/* splitmix64: the features drawn for one column. */
static uint64_t sm_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* This column's features in S->sel, increasing; returns p. */
static size_t draw_features(struct wlda *S, uint64_t seed)
{
    size_t n = S->ninf, p = S->nfeat > 0 && S->nfeat < n ? S->nfeat : n;
    memcpy(S->sel, S->inf, n * sizeof *S->sel);
    if (p == n)
        return p;
    uint64_t st = seed;
    for (size_t j = 0; j < p; j++) { /* partial Fisher-Yates (modulo bias < n / 2^64) */
        size_t k = j + (size_t)(sm_next(&st) % (uint64_t)(n - j));
        size_t t = S->sel[j];
        S->sel[j] = S->sel[k];
        S->sel[k] = t;
    }
    qsort(S->sel, p, sizeof *S->sel, cmp_size);
    return p;
}

/* Dot product in a fixed order (four interleaved partial sums). */
static double dot(const double *x, const double *y, size_t n)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        s0 += x[k] * y[k];
        s1 += x[k + 1] * y[k + 1];
        s2 += x[k + 2] * y[k + 2];
        s3 += x[k + 3] * y[k + 3];
    }
    for (; k < n; k++)
        s0 += x[k] * y[k];
    return (s0 + s1) + (s2 + s3);
}

/* sum_j U_jq r_j: column q of the p x p row-major U against r. */
static double dot_col(const double *U, size_t p, size_t q, const double *r)
{
    double acc = 0.0;
    for (size_t j = 0; j < p; j++)
        acc += U[j * p + q] * r[j];
    return acc;
}

/* Solve (A + lam I) a = rhs (A symmetric PSD, p x p in S->A): Cholesky, or
 * the SVD pseudo-inverse when the matrix is not numerically positive
 * definite.  0, or 1 when GSL fails. */
static int solve(struct wlda *S, size_t p, double lam)
{
    double *A = S->A, maxdiag = 0.0;
    for (size_t j = 0; j < p; j++) {
        A[j * p + j] += lam;
        if (A[j * p + j] > maxdiag)
            maxdiag = A[j * p + j];
    }
    memcpy(S->A2, A, p * p * sizeof *A);
    gsl_matrix_view Am = gsl_matrix_view_array(A, p, p);
    gsl_vector_view bv = gsl_vector_view_array(S->rhs, p);
    gsl_vector_view av = gsl_vector_view_array(S->a, p);
    /* GSL reports a matrix that is not positive definite through its error
     * handler, which aborts by default: off for these calls (fits are not
     * run concurrently in one process) */
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int rc = 1, chol = gsl_linalg_cholesky_decomp1(&Am.matrix) == GSL_SUCCESS;
    if (chol) { /* pivots L_jj^2 must stand out of the rounding */
        double tol = (double)p * DBL_EPSILON * maxdiag;
        for (size_t j = 0; j < p && chol; j++)
            chol = A[j * p + j] * A[j * p + j] > tol;
    }
    if (chol) {
        rc = gsl_linalg_cholesky_solve(&Am.matrix, &bv.vector, &av.vector) == GSL_SUCCESS ? 0 : 1;
        if (S->host && S->host->log)
            S->host->log(2, NAME, "Cholesky, p = %zu, lambda = %g", p, lam);
    } else {
        gsl_matrix_view Um = gsl_matrix_view_array(S->A2, p, p);
        gsl_matrix_view Vm = gsl_matrix_view_array(S->V, p, p);
        gsl_vector_view sv = gsl_vector_view_array(S->sv, p);
        gsl_vector_view wv = gsl_vector_view_array(S->work, p);
        if (gsl_linalg_SV_decomp(&Um.matrix, &Vm.matrix, &sv.vector, &wv.vector) == GSL_SUCCESS) {
            /* a = V diag(1 / s) U' rhs over the singular values above the cut */
            double cut = S->sv[0] * (double)p * DBL_EPSILON;
            for (size_t q = 0; q < p; q++) {
                double s = S->sv[q];
                S->work[q] = s > cut && s > 0.0 ? dot_col(S->A2, p, q, S->rhs) / s : 0.0;
            }
            for (size_t j = 0; j < p; j++) {
                double acc = 0.0;
                for (size_t q = 0; q < p; q++)
                    acc += S->V[j * p + q] * S->work[q];
                S->a[j] = acc;
            }
            rc = 0;
        }
        if (S->host && S->host->log)
            S->host->log(2, NAME, "not positive definite: SVD pseudo-inverse, p = %zu, "
                         "lambda = %g", p, lam);
    }
    gsl_set_error_handler(old);
    return rc;
}

/* Steps 1-3 for weights u: the direction, as a projection with b = 0 in
 * *out.  0, 1 when there is none (degenerate column), -1 out of memory. */
static int lda_direction(struct wlda *S, const double *u, uint64_t seed, struct lin_hyp **out)
{
    size_t m = S->m;
    const float *X = S->tr->X.x;
    double W1 = 0.0, W2 = 0.0;
    for (size_t i = 0; i < m; i++) {
        if (u[i] > 0.0)
            W1 += u[i];
        else if (u[i] < 0.0)
            W2 -= u[i];
    }
    if (!(W1 > 0.0) || !(W2 > 0.0) || !isfinite(W1) || !isfinite(W2) || S->ninf == 0)
        return 1;
    size_t mr = 0;
    for (size_t i = 0; i < m; i++)
        if (u[i] != 0.0) {
            S->rows[mr] = i;
            S->cls[mr] = u[i] > 0.0;
            S->rw[mr] = fabs(u[i]) / (u[i] > 0.0 ? W1 : W2);
            S->rq[mr] = sqrt(S->rw[mr]);
            mr++;
        }
    size_t p = draw_features(S, seed);
    if (reserve_p(S, p) < 0)
        return -1;
    const size_t *rows = S->rows, *sel = S->sel;
    const double *rw = S->rw, *rq = S->rq, *mu = S->mu, *sd = S->sd;
    const unsigned char *cls = S->cls;
    double *mu1 = S->mu1, *mu2 = S->mu2, *A = S->A, *Cb = S->Cb;
    int nt = S->nthreads;
    long lp = (long)p;
    (void)nt;
    /* class means, one feature per iteration (each sum in example order).
     * Threads only for large problems: a thread team costs more than a
     * few million multiply-adds, and much more when the cores are busy */
    int parm = nt > 1 && p > 1 && mr * p >= ((size_t)1 << 20);
#pragma omp parallel for schedule(static) num_threads(nt) if (parm)
    for (long jl = 0; jl < lp; jl++) {
        size_t j = (size_t)jl, f = sel[j];
        const float *x = X + f * m;
        double s1 = 0.0, s2 = 0.0;
        for (size_t k = 0; k < mr; k++) {
            double v = rw[k] * lin_std1(x[rows[k]], mu[f], sd[f]);
            if (cls[k])
                s1 += v;
            else
                s2 += v;
        }
        mu1[j] = s1, mu2[j] = s2;
    }
    /* S1 + S2 = sum over blocks of examples of Cb Cb', Cb_jk = sqrt(w_k)
     * (xs_k,j - mu_class(k),j): every entry summed block after block */
    memset(A, 0, p * p * sizeof *A);
    for (size_t k0 = 0; k0 < mr; k0 += XBLOCK) {
        size_t nb = mr - k0 < XBLOCK ? mr - k0 : XBLOCK;
        int par = nt > 1 && p > 1 && nb * p * p >= ((size_t)1 << 22);
#pragma omp parallel for schedule(static) num_threads(nt) if (par)
        for (long jl = 0; jl < lp; jl++) {
            size_t j = (size_t)jl, f = sel[j];
            const float *x = X + f * m;
            double *c = Cb + j * nb;
            for (size_t q = 0; q < nb; q++) {
                size_t k = k0 + q;
                c[q] = rq[k] * (lin_std1(x[rows[k]], mu[f], sd[f]) - (cls[k] ? mu1[j] : mu2[j]));
            }
        }
#pragma omp parallel for schedule(dynamic) num_threads(nt) if (par)
        for (long jl = 0; jl < lp; jl++) {
            size_t j = (size_t)jl;
            for (size_t l = 0; l <= j; l++)
                A[j * p + l] += dot(Cb + j * nb, Cb + l * nb, nb);
        }
    }
    double tr = 0.0;
    int finite = 1;
    for (size_t j = 0; j < p; j++) {
        for (size_t l = 0; l < j; l++)
            A[l * p + j] = A[j * p + l];
        tr += A[j * p + j];
        S->rhs[j] = mu1[j] - mu2[j];
        finite &= isfinite(S->rhs[j]);
    }
    if (!finite || !isfinite(tr))
        return 1;
    /* S1 + S2 = 0: a = mu1 - mu2 */
    double lam = tr > 0.0 ? S->ridge * tr / (double)p : 1.0;
    if (solve(S, p, lam) != 0)
        return 1;
    double nrm = 0.0;
    for (size_t j = 0; j < p; j++)
        nrm = hypot(nrm, S->a[j]);
    if (!(nrm > 0.0) || !isfinite(nrm))
        return 1;
    size_t n = 0;
    for (size_t j = 0; j < p; j++) {
        S->a[j] /= nrm;
        n += S->a[j] != 0.0;
    }
    if (n == 0)
        return 1;
    struct lin_hyp *h = lin_new(n);
    if (!h)
        return -1;
    for (size_t j = 0, q = 0; j < p; j++)
        if (S->a[j] != 0.0) {
            size_t f = sel[j];
            h->f[q] = f, h->v[q] = S->a[j], h->mu[q] = mu[f], h->sd[q] = sd[f];
            q++;
        }
    h->b = 0.0;
    *out = h;
    return 0;
}

static int cmp_zkey(const void *a, const void *b)
{
    const struct zkey *x = a, *y = b;
    if (x->key < y->key)
        return -1;
    if (x->key > y->key)
        return 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* sum_i u_i h_i in example order. */
static double corr(const double *u, const double *h, size_t m)
{
    double s = 0.0;
    for (size_t i = 0; i < m; i++)
        s += u[i] * h[i];
    return s;
}

/* Make h's correlation with u (*s, outputs out) non-negative. */
static void orient(struct wl1 *h, double *out, size_t m, double *s)
{
    if (*s >= 0.0)
        return;
    h->pol = -h->pol;
    for (size_t i = 0; i < m; i++)
        out[i] = -out[i];
    *s = -*s;
}

/* The WLDA candidate (step 4): 0, 1 when there is none, -1 out of memory. */
static int cand_lda(struct wlda *S, const double *u, uint64_t seed, struct wl1 *h, double *out,
                    double *s)
{
    size_t m = S->m;
    struct lin_hyp *lin = NULL;
    int rc = lda_direction(S, u, seed, &lin);
    if (rc != 0)
        return rc;
    double *z = S->z;
    lin_scores_direct(lin, &S->tr->X, z, S->nthreads);
    struct zkey *srt = S->srt;
    for (size_t i = 0; i < m; i++)
        srt[i] = (struct zkey){isnan(z[i]) ? -HUGE_VAL : z[i], i};
    qsort(srt, m, sizeof *srt, cmp_zkey);
    double T = 0.0, L = 0.0, be = -1.0;
    for (size_t i = 0; i < m; i++)
        T += u[i];
    size_t bq = 0;
    int pol = 1;
    for (size_t q = 0; q + 1 < m; q++) {
        L += u[srt[q].i];
        if (srt[q].key == srt[q + 1].key)
            continue;
        double sc = T - 2.0 * L; /* sum_i u_i (z_i > t ? 1 : -1) */
        if (fabs(sc) > be) {
            be = fabs(sc);
            bq = q;
            pol = sc < 0 ? -1 : 1;
        }
    }
    if (be < 0.0) { /* every z equal */
        lin_free(lin);
        return 1;
    }
    /* half way between the sides; the left value itself when the half is
     * not strictly between them (neighbouring doubles, infinities) */
    double lo = srt[bq].key, hi = srt[bq + 1].key, t = lo;
    if (isfinite(lo) && isfinite(hi)) {
        double mid = lo / 2.0 + hi / 2.0;
        if (mid > lo && mid < hi)
            t = mid;
    }
    *h = (struct wl1){W_LDA, pol, t, lin, 0, 0.0f};
    double pos = (double)pol;
    for (size_t i = 0; i < m; i++) /* wl1_outputs on the z just computed */
        out[i] = z[i] > t ? pos : -pos;
    *s = corr(u, out, m);
    orient(h, out, m, s);
    return 0;
}

/* The best axis-aligned stump: 0, or 1 when no feature splits the set. */
static int cand_axis(struct wlda *S, const double *u, struct wl1 *h, double *out, double *s)
{
    const struct bl_quantized *Q = &S->tr->Q;
    struct bl_stump1 b;
    long f = bl_stump1_search(Q, S->split_ok, u, S->nthreads, S->hist, S->best, &b);
    if (f < 0)
        return 1;
    *h = (struct wl1){W_AXIS, b.pol, 0.0, NULL, (size_t)f, Q->cut[f][b.b]};
    wl1_outputs(h, &S->tr->X, NULL, out, 1);
    *s = corr(u, out, S->m);
    orient(h, out, S->m, s);
    return 0;
}

/* The constant sign(sum u) (+1 on 0): -1 out of memory. */
static int cand_const(struct wlda *S, const double *u, struct wl1 *h, double *out, double *s)
{
    size_t m = S->m;
    double T = 0.0;
    for (size_t i = 0; i < m; i++)
        T += u[i];
    struct lin_hyp *lin = lin_new(0);
    if (!lin)
        return -1;
    lin->b = 1.0;
    *h = (struct wl1){W_LDA, T < 0.0 ? -1 : 1, 0.0, lin, 0, 0.0f};
    wl1_outputs(h, &S->tr->X, S->z, out, 1);
    *s = corr(u, out, m);
    orient(h, out, m, s);
    return 0;
}

/* One column u: the answer in *h, its outputs in out (m), its edge
 * sum_i u_i h(x_i) >= 0 in *s.  0 or -1 out of memory. */
static int fit_column(struct wlda *S, const double *u, uint64_t seed, struct wl1 *h, double *out,
                      double *s)
{
    size_t m = S->m;
    struct wl1 hl, hx;
    double sl = 0.0, sx = 0.0;
    memset(&hl, 0, sizeof hl);
    memset(&hx, 0, sizeof hx);
    int rl = cand_lda(S, u, seed, &hl, S->ha, &sl);
    if (rl < 0)
        return -1;
    int rx = 1;
    if (S->with_stumps || rl != 0)
        rx = cand_axis(S, u, &hx, S->hb, &sx);
    const char *what;
    if (rl == 0 && (rx != 0 || sl >= sx)) {
        *h = hl, *s = sl, what = "wlda";
        memcpy(out, S->ha, m * sizeof *out);
        wl1_clear(&hx);
    } else if (rx == 0) {
        *h = hx, *s = sx, what = rl == 0 ? "axis stump" : "axis stump (no wlda direction)";
        memcpy(out, S->hb, m * sizeof *out);
        wl1_clear(&hl);
    } else {
        if (cand_const(S, u, h, out, s) < 0)
            return -1;
        what = "constant (no direction, no split)";
    }
    if (S->host && S->host->log)
        S->host->log(2, NAME, "%s, edge %.6g (wlda %.6g, axis %.6g)", what, *s,
                     rl == 0 ? sl : -1.0, rx == 0 ? sx : -1.0);
    return 0;
}

static int wlda_fit(void *self, const struct bl_fit_request *req, struct bl_fit_result *res,
                    char err[BL_ERR_MAX])
{
    struct wlda *S = self;
    size_t m = S->m, c = req->c;
    if (!req->G || c == 0) {
        snprintf(err, BL_ERR_MAX, "no dual weights (c = %zu)", c);
        return -1;
    }
    if (S->criterion == CRIT_EACH && c > MAX_OUTDIM) {
        snprintf(err, BL_ERR_MAX, "%zu columns: at most %zu outputs per hypothesis", c,
                 MAX_OUTDIM);
        return -1;
    }
    const double *G = req->G;
    for (size_t j = 0; j < m * c; j++)
        if (!isfinite(G[j])) {
            snprintf(err, BL_ERR_MAX, "dual weight G[%zu][%zu] = %g is not finite", j / c, j % c,
                     G[j]);
            return -1;
        }
    int each = S->criterion == CRIT_EACH;
    struct wlda_hyp *H = hyp_new(each ? c : 1, each);
    if (!H) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return -1;
    }
    double edge = 0.0, bests = -1.0;
    for (size_t r = 0; r < c; r++) {
        for (size_t i = 0; i < m; i++)
            S->u[i] = G[i * c + r];
        uint64_t st = req->seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(r + 1));
        uint64_t seed = sm_next(&st);
        struct wl1 h;
        double s;
        if (fit_column(S, S->u, seed, &h, S->hc, &s) < 0) {
            wlda_free_hyp(H);
            snprintf(err, BL_ERR_MAX, "out of memory");
            return -1;
        }
        if (each) {
            H->o[r] = h;
            edge += s;
            if (res->out)
                for (size_t i = 0; i < m; i++)
                    res->out[i * c + r] = S->hc[i];
        } else if (s > bests) {
            wl1_clear(&H->o[0]);
            H->o[0] = h;
            bests = s;
            double *t = S->hbest;
            S->hbest = S->hc, S->hc = t;
        } else {
            wl1_clear(&h);
        }
    }
    if (!each) {
        /* edge = max_r sum_i G_ir h(x_i), for the better sign */
        double ep = -HUGE_VAL, en = -HUGE_VAL;
        for (size_t r = 0; r < c; r++) {
            double sr = 0.0;
            for (size_t i = 0; i < m; i++)
                sr += G[i * c + r] * S->hbest[i];
            ep = fmax(ep, sr);
            en = fmax(en, -sr);
        }
        edge = ep;
        if (en > ep) {
            H->o[0].pol = -H->o[0].pol;
            for (size_t i = 0; i < m; i++)
                S->hbest[i] = -S->hbest[i];
            edge = en;
        }
        if (res->out)
            memcpy(res->out, S->hbest, m * sizeof *res->out);
    }
    res->hyp = H;
    res->outdim = each ? c : 1;
    res->edge = edge;
    res->trees = res->outdim;
    return 0;
}

/* ---- text form --------------------------------------------------------------- */

static void save_one(struct sbuf *b, const struct wl1 *h)
{
    if (h->kind == W_AXIS) {
        sb_printf(b, "stump f=%zu t=%.9g pol=%d", h->f, (double)h->ft, h->pol);
        return;
    }
    sb_printf(b, "lda t=%.17g pol=%d ", h->t, h->pol);
    size_t room = b->len < b->cap ? b->cap - b->len : 0;
    int n = lin_save(h->lin, room ? b->buf + b->len : NULL, room);
    if (n > 0)
        b->len += (size_t)n;
}

static int wlda_save(const void *hyp, char *buf, size_t cap)
{
    const struct wlda_hyp *H = hyp;
    struct sbuf b = {buf, cap, 0};
    if (cap)
        buf[0] = 0;
    if (!H->each) {
        save_one(&b, &H->o[0]);
    } else {
        sb_printf(&b, "each %zu:", H->c);
        for (size_t r = 0; r < H->c; r++) {
            sb_printf(&b, "%s", r ? "; " : " ");
            save_one(&b, &H->o[r]);
        }
    }
    return b.len > (size_t)INT32_MAX ? -1 : (int)b.len;
}

#define EXPECT_ONE "lda t=<t> pol=<+1|-1> b=<b> terms=<n> <f>:<v>:<mu>:<sd> ...\" or \"stump " \
                   "f=<feature> t=<threshold> pol=<+1|-1>"

/* One output from s (the whole string); 0, or -1 with err set. */
static int parse_one(const char *s, size_t d, struct wl1 *h, char err[BL_ERR_MAX])
{
    memset(h, 0, sizeof *h);
    long pol;
    if (strncmp(s, "lda t=", 6) == 0) {
        const char *p = s + 6;
        char *end;
        double t = 0.0;
        if (*p && !isspace((unsigned char)*p)) {
            errno = 0;
            t = strtod(p, &end);
            p = end == p || isnan(t) || (isinf(t) && errno == ERANGE) ? NULL : end;
        } else {
            p = NULL;
        }
        if (!p || !(p = bl_stump1_parse_pol(p, &pol)) || *p != ' ') {
            snprintf(err, BL_ERR_MAX, NAME ": malformed hypothesis \"%.120s\": no \"lda t=<real> "
                     "pol=<+1|-1> \" (expected \"" EXPECT_ONE "\")", s);
            return -1;
        }
        if (pol != 1 && pol != -1) {
            snprintf(err, BL_ERR_MAX, NAME ": polarity %ld is not +1 or -1", pol);
            return -1;
        }
        struct lin_hyp *lin = lin_load(NAME, p + 1, d, err);
        if (!lin)
            return -1;
        *h = (struct wl1){W_LDA, (int)pol, t, lin, 0, 0.0f};
        return 0;
    }
    if (strncmp(s, "stump ", 6) == 0) {
        unsigned long long f;
        float t;
        const char *p = bl_stump1_parse_ft(s + 6, &f, &t);
        if (!p || !(p = bl_stump1_parse_pol(p, &pol)) || !bl_stump1_at_end(p)) {
            snprintf(err, BL_ERR_MAX, NAME ": malformed hypothesis \"%.120s\" (expected \""
                     EXPECT_ONE "\")", s);
            return -1;
        }
        if (f >= d) {
            snprintf(err, BL_ERR_MAX, NAME ": feature index %llu out of range (the data has %zu "
                     "features)", f, d);
            return -1;
        }
        if (pol != 1 && pol != -1) {
            snprintf(err, BL_ERR_MAX, NAME ": polarity %ld is not +1 or -1", pol);
            return -1;
        }
        *h = (struct wl1){W_AXIS, (int)pol, 0.0, NULL, (size_t)f, t};
        return 0;
    }
    snprintf(err, BL_ERR_MAX, NAME ": malformed hypothesis \"%.120s\" (expected \"" EXPECT_ONE
             "\", or \"each <c>: \" and c of those separated by \"; \")", s);
    return -1;
}

static void *wlda_load(const char *text, size_t d, char err[BL_ERR_MAX])
{
    struct wlda_hyp *H;
    if (strncmp(text, "each ", 5) != 0) {
        if (!(H = hyp_new(1, 0))) {
            snprintf(err, BL_ERR_MAX, "out of memory");
            return NULL;
        }
        if (parse_one(text, d, &H->o[0], err) < 0) {
            wlda_free_hyp(H);
            return NULL;
        }
        return H;
    }
    unsigned long long c;
    const char *p = bl_stump1_parse_uint(text + 5, &c);
    if (!p || strncmp(p, ": ", 2) != 0) {
        snprintf(err, BL_ERR_MAX, NAME ": malformed hypothesis \"%.120s\": no \"each <c>: \" "
                 "at its start", text);
        return NULL;
    }
    if (c < 1 || c > MAX_OUTDIM) {
        snprintf(err, BL_ERR_MAX, NAME ": %llu outputs out of range (1 to %zu)", c, MAX_OUTDIM);
        return NULL;
    }
    p += 2;
    if (!(H = hyp_new((size_t)c, 1))) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    char *seg = NULL;
    for (size_t r = 0; r < c; r++) {
        const char *semi = strchr(p, ';');
        if (r + 1 < c && !semi) {
            snprintf(err, BL_ERR_MAX, NAME ": hypothesis \"%.120s\" has %zu outputs, not %llu",
                     text, r + 1, c);
            goto bad;
        }
        if (r + 1 == c && semi) {
            snprintf(err, BL_ERR_MAX, NAME ": hypothesis \"%.120s\" has more than its %llu "
                     "outputs", text, c);
            goto bad;
        }
        size_t len = semi ? (size_t)(semi - p) : strlen(p);
        free(seg);
        if (!(seg = malloc(len + 1))) {
            snprintf(err, BL_ERR_MAX, "out of memory");
            goto bad;
        }
        memcpy(seg, p, len);
        seg[len] = 0;
        char sub[BL_ERR_MAX];
        if (parse_one(seg, d, &H->o[r], sub) < 0) {
            const char *msg = strncmp(sub, NAME ": ", sizeof NAME + 1) == 0 ? sub + sizeof NAME + 1
                                                                            : sub;
            snprintf(err, BL_ERR_MAX, NAME ": output %zu of %llu: %.400s", r, c, msg);
            goto bad;
        }
        if (semi) {
            if (semi[1] != ' ') {
                snprintf(err, BL_ERR_MAX, NAME ": malformed hypothesis: outputs must be separated "
                         "by \"; \" (after output %zu)", r);
                goto bad;
            }
            p = semi + 2;
        }
    }
    free(seg);
    return H;
bad:
    free(seg);
    wlda_free_hyp(H);
    return NULL;
}

static const struct bl_weak_ops wlda_ops = {
    .size = sizeof(struct bl_weak_ops),
    .create = wlda_create,
    .destroy = wlda_destroy,
    .fit = wlda_fit,
    .outdim = wlda_outdim,
    .predict = wlda_predict,
    .save = wlda_save,
    .load = wlda_load,
    .free_hyp = wlda_free_hyp,
};

static const struct bl_plugin wlda_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_WEAK,
    .name = NAME,
    .doc = "weighted Fisher LDA (RandomBoost): a = (S1 + S2 + ridge)^-1 (mu1 - mu2) over the "
           "sides of sign(g), then the best stump on a'x; optional random feature subsets",
    .params = wlda_params,
    .nparams = P_COUNT,
    .ops = &wlda_ops,
};

static const struct bl_plugin *const wlda_plugins[] = {&wlda_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    g_host = host;
    return wlda_plugins;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Weak-learner plugin "svm": a binary kernel SVM, the base learner of
 * HingeBoost.OC and AdaBoost.ERP (spec hingeboost-oc.md §2.5, §3.4, §3.9).
 * Plugin glue, parameters and the hypothesis (fit, predict, save, load)
 * live here; the solver in smo.c, kernels and their row cache in kernel.c.
 *
 * Two problems, chosen per request:
 *   - margin mode (req->label and req->margin given; the learner asks for
 *     them with BL_NEEDS_MARGINS): the margin-rescaled SVM of spec eq.
 *     (15)/(16) over all m examples,
 *         min 1/2 ||w||^2 + (C/m) sum_i max(0, margin_i - label_i s(x_i)),
 *     s(x) = w'phi(x) + b, b unregularised: SMO with p_i = -margin_i,
 *     box C/m.  margin_i <= 0 is allowed (met at s = 0).
 *   - weighted mode (otherwise; one column of G, c > 1 refused): the
 *     weighted C-SVC on the examples with G_i != 0, labels sign(G_i),
 *     target margins 1, boxes C |G_i| / mean |G| (mean over those).
 *
 * Outputs: s(x) (`output = real`) or sign(s(x)) with 0 -> -1 (`sign`, as
 * AdaBoost.ERP uses them).  The edge is sum_i G_i out_i over all examples,
 * from the outputs predict gives.  In weighted mode the hypothesis is
 * negated when that makes the edge larger (the family is closed under
 * negation); if both signs are negative (only with sign outputs and
 * examples on the boundary) the constant sign(sum G) is returned.  In
 * margin mode the orientation is the problem's and is kept; when the edge
 * so computed is <= 0 (G need not be the hinge's subgradient at s = 0) the
 * decrease of the hinge term, sum_i max(0, margin_i) - sum_i max(0,
 * margin_i - label_i s_i) >= 0 (0 only for s = 0 at the optimum), is
 * reported instead, so an engine's "edge <= nu" stop (nu = 0) fires only
 * when the SVM finds nothing.
 *
 * Features are scaled once per learner with the training set (`scale`:
 * minmax to [-1, 1], constant features to 0; zscore; none); the constants
 * are stored in the hypothesis, which predicts raw X.  NaN -> 0 after
 * scaling; scaled values are clamped to +-1e100 so huge inputs stay finite.
 *
 * Solvers: SMO (smo.c) with kernel rows from an LRU cache of `cache_mb`
 * megabytes (rows persist across fits: the training set is fixed) for the
 * perceptron and rbf kernels.  The linear kernel (`solver = auto`) goes by
 * dual coordinate descent (common/dcd.h; see dcd_fit for why and what it
 * measured) above DCD_MIN_M examples, else (and with `solver = smo`) by
 * the same SMO, its rows x_i'x_t kept exactly (double, kernel.h's krows)
 * when m x m doubles fit in `cache_mb`, else computed on the fly over the
 * active variables.  Both modes then re-fit the bias
 * exactly (best_rho).  The linear hypothesis stores w and b = -rho; kernel
 * hypotheses their support vectors (scaled), coefficients y_t beta_t and
 * rho.
 *
 * Text (one line): "kernel=<k> gamma=<g> output=<o> rho=<r> d=<d> scale
 * <a>:<b> ... (d pairs; xs = (x - a) b)" then for linear " w <w_1> ... <w_d>"
 * or for kernels " sv=<n>" and n groups " <coef> <x_1> ... <x_d>"; reals
 * by %.17g.
 */
#include <boostlab/boostlab.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/dcd.h"
#include "../../common/rawx.h"
#include "../../common/sbuf.h"
#include "kernel.h"
#include "smo.h"

#define NAME "svm"
#define CLAMP 1e100
/* The constant feature dual coordinate descent solves the bias with
 * (liblinear's default 1): the bias is then penalised like a weight before
 * best_rho re-fits it.  Measured on pendigits (HingeBoost.OC, 30 rounds):
 * 10 (a nearly free bias) made DCD crawl, 1.5 s a round at C = 1000 where
 * 1 takes 0.06 s with the same test error as SMO (9.9 vs 10.1 %); at
 * C = 100 the penalty costs accuracy (16.6 % against SMO's 10.9 %), so
 * small C wants solver = smo. */
#define DCD_BIAS 1.0
/* solver = auto takes DCD for the linear kernel above this many training
 * examples, SMO below: the penalised bias costs most on small sets with a
 * small box C/m (vowel, 528 examples, C = 100: DCD stopped after one round
 * at 89 % test error, SMO went on to 62 %), where SMO is cheap anyway
 * (vowel: 12 ms a round). */
#define DCD_MIN_M 3000

enum { P_C, P_KERNEL, P_GAMMA, P_EPS, P_MAX_ITER, P_CACHE_MB, P_OUTPUT, P_SCALE, P_SOLVER,
       P_SHRINKING, P_COUNT };
enum { OUT_REAL, OUT_SIGN };
enum { SC_MINMAX, SC_ZSCORE, SC_NONE };
enum { SOLVER_AUTO, SOLVER_SMO };

static const char *const kernel_names[] = {"linear", "perceptron", "rbf"};
static const char *const output_names[] = {"real", "sign"};

static const struct bl_param_spec svm_params[P_COUNT] = {
    [P_C] = {"c", BL_PARAM_REAL, "1", 1e-6, 1e12, NULL,
             "SVM cost C: box C/m (margin mode) or C |G_i| / mean |G| (weighted mode)"},
    [P_KERNEL] = {"kernel", BL_PARAM_CHOICE, "linear", 0, 0, "linear|perceptron|rbf",
                  "x'y, -||x - y||_2 (Lin & Li 2005), or exp(-gamma ||x - y||^2)"},
    [P_GAMMA] = {"gamma", BL_PARAM_REAL, "1", 1e-9, 1e9, NULL, "rbf kernel width"},
    [P_EPS] = {"eps", BL_PARAM_REAL, "1e-3", 1e-8, 1, NULL,
               "SMO stops when the maximal violating pair's gap is below this (LIBSVM: 1e-3)"},
    [P_MAX_ITER] = {"max_iter", BL_PARAM_INT, "0", 0, 1e15, NULL,
                    "SMO iteration cap; 0: max(10^7, 100 m)"},
    [P_CACHE_MB] = {"cache_mb", BL_PARAM_REAL, "200", 1, 1e6, NULL,
                    "kernel row cache, megabytes, kept across rounds (float rows; the linear "
                    "kernel's SMO keeps all m x m exact rows when they fit, else none)"},
    [P_OUTPUT] = {"output", BL_PARAM_CHOICE, "real", 0, 0, "real|sign",
                  "hypothesis output: s(x), or sign(s(x)) with 0 -> -1"},
    [P_SCALE] = {"scale", BL_PARAM_CHOICE, "minmax", 0, 0, "minmax|zscore|none",
                 "feature scaling from the training set: [-1, 1], mean 0 / sd 1, or none"},
    [P_SOLVER] = {"solver", BL_PARAM_CHOICE, "auto", 0, 0, "auto|smo",
                  "auto: dual coordinate descent for the linear kernel above 3000 examples, "
                  "SMO otherwise; smo: SMO always"},
    [P_SHRINKING] = {"shrinking", BL_PARAM_BOOL, "true", 0, 0, NULL,
                     "LIBSVM's shrinking of the active set (same optimum, faster)"},
};

struct svm_hyp {
    int kernel, output;
    double gamma, rho;
    size_t d, nsv;
    double *a, *b;     /* d: xs = (x - a) b                       */
    double *w;         /* d (linear)                              */
    double *coef, *sv; /* nsv, nsv x d (kernels)                  */
};

struct svm {
    const struct bl_host *host;
    const struct bl_train *tr;
    double C, gamma, eps, cache_mb;
    long long max_iter;
    int kernel, output, scale, solver, shrinking, nthreads;
    size_t m, d;
    double *a, *b;      /* d                                       */
    float *xr;          /* m x d scaled, row-major                 */
    double *sq;         /* m                                       */
    struct kern K;
    struct kcache *cache;
    struct krows *rows; /* linear kernel, SMO, m x m doubles within cache_mb */
    int rows_tried;
    size_t *ex;
    signed char *y;
    double *p, *U, *beta, *grad, *z;
};

static void hyp_free(struct svm_hyp *h)
{
    if (!h)
        return;
    free(h->a), free(h->b), free(h->w), free(h->coef), free(h->sv);
    free(h);
}

static struct svm_hyp *hyp_new(int kernel, size_t d, size_t nsv)
{
    struct svm_hyp *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    size_t dd = d ? d : 1, nn = nsv ? nsv : 1;
    h->kernel = kernel, h->d = d, h->nsv = nsv;
    h->a = malloc(dd * sizeof *h->a);
    h->b = malloc(dd * sizeof *h->b);
    if (kernel == KERN_LINEAR) {
        h->w = calloc(dd, sizeof *h->w);
    } else {
        h->coef = calloc(nn, sizeof *h->coef);
        h->sv = (nsv && d > SIZE_MAX / sizeof(double) / nsv) ? NULL
                                                             : calloc(nn * dd, sizeof *h->sv);
    }
    if (!h->a || !h->b || (kernel == KERN_LINEAR ? !h->w : !h->coef || !h->sv)) {
        hyp_free(h);
        return NULL;
    }
    return h;
}

static double scale1(float x, double a, double b)
{
    if (isnan(x))
        return 0.0;
    double v = ((double)x - a) * b;
    if (isnan(v))
        return 0.0;
    return v > CLAMP ? CLAMP : v < -CLAMP ? -CLAMP : v;
}

/* Real scores s(x) of the m examples of X (feature-major), in a fixed
 * order per example whatever the thread count. */
static void hyp_scores(const struct svm_hyp *h, const struct bl_matrix *X, double *z, int nthreads)
{
    size_t m = X->m, d = h->d;
    long nb = (long)((m + 255) / 256);
    int nt = nthreads > 1 ? nthreads : 1;
    int par = nt > 1 && nb > 1;
    (void)par;
#pragma omp parallel num_threads(nt) if (par)
    {
        double *xs = malloc((d ? d : 1) * sizeof *xs);
#pragma omp for schedule(static)
        for (long blk = 0; blk < nb; blk++) {
            size_t i0 = (size_t)blk * 256, i1 = i0 + 256 < m ? i0 + 256 : m;
            for (size_t i = i0; i < i1; i++) {
                double s = -h->rho;
                if (!xs) { /* out of memory: the constant part only */
                    z[i] = s;
                    continue;
                }
                for (size_t f = 0; f < d; f++)
                    xs[f] = scale1(X->x[f * m + i], h->a[f], h->b[f]);
                if (h->kernel == KERN_LINEAR) {
                    for (size_t f = 0; f < d; f++)
                        s += h->w[f] * xs[f];
                } else {
                    for (size_t k = 0; k < h->nsv; k++)
                        s += h->coef[k] * kern_pair((enum kern_type)h->kernel, h->gamma,
                                                    h->sv + k * d, xs, d);
                }
                z[i] = isfinite(s) ? s : 0.0;
            }
        }
        free(xs);
    }
}

static double out_of(const struct svm_hyp *h, double s)
{
    return h->output == OUT_SIGN ? (s > 0.0 ? 1.0 : -1.0) : s;
}

static void hyp_negate(struct svm_hyp *h)
{
    h->rho = -h->rho;
    if (h->w)
        for (size_t f = 0; f < h->d; f++)
            h->w[f] = -h->w[f];
    for (size_t k = 0; k < h->nsv; k++)
        h->coef[k] = -h->coef[k];
}

static void svm_destroy(void *self)
{
    struct svm *S = self;
    if (!S)
        return;
    kcache_free(S->cache);
    krows_free(S->rows);
    free(S->a), free(S->b), free(S->xr), free(S->sq), free(S->ex), free(S->y);
    free(S->p), free(S->U), free(S->beta), free(S->grad), free(S->z);
    free(S);
}

static void *svm_create(const struct bl_host *host, const union bl_value *params,
                        const struct bl_train *train, char err[BL_ERR_MAX])
{
    if (!raw_features_ok(train, err))
        return NULL;
    struct svm *S = calloc(1, sizeof *S);
    if (!S) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    size_t m = train->m, d = train->d, mm = m ? m : 1;
    S->host = host, S->tr = train, S->m = m, S->d = d;
    S->C = params ? params[P_C].r : 1.0;
    S->kernel = params ? params[P_KERNEL].choice : KERN_LINEAR;
    S->gamma = params ? params[P_GAMMA].r : 1.0;
    S->eps = params ? params[P_EPS].r : 1e-3;
    S->max_iter = params ? (long long)params[P_MAX_ITER].i : 0;
    S->cache_mb = params ? params[P_CACHE_MB].r : 200.0;
    S->output = params ? params[P_OUTPUT].choice : OUT_REAL;
    S->scale = params ? params[P_SCALE].choice : SC_MINMAX;
    S->solver = params ? params[P_SOLVER].choice : SOLVER_AUTO;
    S->shrinking = params ? params[P_SHRINKING].b : 1;
    if (!(S->C > 0.0) || !isfinite(S->C) || !(S->gamma > 0.0) || !isfinite(S->gamma) ||
        !(S->eps > 0.0) || S->max_iter < 0 || !(S->cache_mb >= 1.0) || S->kernel < 0 ||
        S->kernel > KERN_RBF || S->output < 0 || S->output > OUT_SIGN || S->scale < 0 ||
        S->scale > SC_NONE || S->solver < 0 || S->solver > SOLVER_SMO) {
        snprintf(err, BL_ERR_MAX, "invalid parameters (c %g, gamma %g, eps %g, max_iter %lld, "
                 "cache_mb %g: need c > 0, gamma > 0, eps > 0, max_iter >= 0, cache_mb >= 1)",
                 S->C, S->gamma, S->eps, S->max_iter, S->cache_mb);
        svm_destroy(S);
        return NULL;
    }
    if (m && d > SIZE_MAX / sizeof(float) / m) {
        snprintf(err, BL_ERR_MAX, "the training set is too large (%zu x %zu)", m, d);
        svm_destroy(S);
        return NULL;
    }
    S->nthreads = host && host->threads > 0 ? host->threads : 1;
    S->a = malloc(d * sizeof *S->a);
    S->b = malloc(d * sizeof *S->b);
    S->xr = malloc(mm * d * sizeof *S->xr);
    S->sq = malloc(mm * sizeof *S->sq);
    S->ex = malloc(mm * sizeof *S->ex);
    S->y = malloc(mm);
    S->p = malloc(mm * sizeof *S->p);
    S->U = malloc(mm * sizeof *S->U);
    S->beta = malloc(mm * sizeof *S->beta);
    S->grad = malloc(mm * sizeof *S->grad);
    S->z = malloc(mm * sizeof *S->z);
    if (!S->a || !S->b || !S->xr || !S->sq || !S->ex || !S->y || !S->p || !S->U || !S->beta ||
        !S->grad || !S->z) {
        svm_destroy(S);
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    /* scaling constants from the non-missing training values */
    const float *X = train->X.x;
    for (size_t f = 0; f < d; f++) {
        const float *x = X + f * m;
        double lo = HUGE_VAL, hi = -HUGE_VAL, s = 0.0, q = 0.0;
        size_t cnt = 0;
        for (size_t i = 0; i < m; i++)
            if (isfinite(x[i]))
                lo = fmin(lo, x[i]), hi = fmax(hi, x[i]), s += x[i], cnt++;
        double mean = cnt ? s / (double)cnt : 0.0;
        for (size_t i = 0; i < m; i++)
            if (isfinite(x[i]))
                q += ((double)x[i] - mean) * ((double)x[i] - mean);
        double sd = cnt ? sqrt(q / (double)cnt) : 0.0;
        if (S->scale == SC_MINMAX) {
            int ok = cnt && hi > lo && isfinite(2.0 / (hi - lo));
            S->a[f] = ok ? lo / 2.0 + hi / 2.0 : 0.0;
            S->b[f] = ok ? 2.0 / (hi - lo) : 0.0; /* constant feature -> 0 */
        } else if (S->scale == SC_ZSCORE) {
            int ok = cnt && sd > 0.0 && isfinite(1.0 / sd);
            S->a[f] = ok ? mean : 0.0;
            S->b[f] = ok ? 1.0 / sd : 0.0;
        } else {
            S->a[f] = 0.0, S->b[f] = 1.0;
        }
    }
    for (size_t i = 0; i < m; i++)
        for (size_t f = 0; f < d; f++)
            S->xr[i * d + f] = (float)scale1(X[f * m + i], S->a[f], S->b[f]);
    S->K = (struct kern){(enum kern_type)S->kernel, S->gamma, 0.0, m, d, S->xr, S->sq};
    kern_norms(&S->K, S->sq);
    return S;
}

static struct svm_hyp *hyp_from(const struct svm *S, size_t l, const struct smo_info *inf)
{
    size_t d = S->d, nsv = 0;
    if (S->kernel != KERN_LINEAR)
        for (size_t t = 0; t < l; t++)
            nsv += S->beta[t] > 0.0;
    struct svm_hyp *h = hyp_new(S->kernel, d, nsv);
    if (!h)
        return NULL;
    h->output = S->output, h->gamma = S->gamma, h->rho = inf->rho;
    memcpy(h->a, S->a, d * sizeof *h->a);
    memcpy(h->b, S->b, d * sizeof *h->b);
    size_t k = 0;
    for (size_t t = 0; t < l; t++) {
        if (!(S->beta[t] > 0.0))
            continue;
        double c = (double)S->y[t] * S->beta[t];
        const float *x = S->xr + S->ex[t] * d;
        if (S->kernel == KERN_LINEAR) {
            for (size_t f = 0; f < d; f++)
                h->w[f] += c * (double)x[f];
        } else {
            h->coef[k] = c;
            for (size_t f = 0; f < d; f++)
                h->sv[k * d + f] = (double)x[f];
            k++;
        }
    }
    return h;
}

/* Margin mode's bias, exactly: given w (scores z = f - rho), the b that
 * minimises sum_i max(0, margin_i - label_i (f_i + b)) (the primal's only
 * b term, b being unregularised).  The sum is convex piecewise linear in b
 * with slope -n+ + (kinks below b), n+ the examples labelled +1, so any b
 * between the n+-th and (n+ + 1)-th smallest kink is optimal; the midpoint
 * is taken.  An approximate SMO answer's calculate_rho average can be far
 * from it when few variables are free (late rounds, where margins are
 * small), and the hinge loss is what the round must lower.  Returns rho.
 * O(m log m); NAN when out of memory (rho is then left as it was). */
static int cmp_kink(const void *a, const void *b)
{
    double x = ((const double *)a)[0], y = ((const double *)b)[0];
    return (x > y) - (x < y);
}

/* The exact bias: given w (scores z = f - rho), the b that minimises
 * sum_i u_i max(0, margin_i - label_i (f_i + b)), the primal's only b term
 * (b is unregularised).  The sum is convex piecewise linear in b; its slope
 * is -W+ plus the weights of the kinks below b (W+: the weight labelled
 * +1), so b is the kink where that cumulative weight reaches W+ (the
 * midpoint to the next one on an exact tie).  An approximate solver's bias
 * (SMO's calculate_rho average, DCD's penalised b) can be far from it when
 * few variables are free, and the hinge term is what a round must lower.
 * Returns rho; NAN when out of memory (rho is then left as it was). */
static double best_rho(const double *z, double rho, const double *label, const double *margin,
                       const double *u, size_t m)
{
    double *k = malloc((m ? m : 1) * 2 * sizeof *k), wp = 0.0;
    if (!k)
        return NAN;
    for (size_t i = 0; i < m; i++) {
        double f = z[i] + rho, mi = margin ? margin[i] : 1.0;
        k[2 * i] = label[i] > 0 ? mi - f : -mi - f;
        k[2 * i + 1] = u ? u[i] : 1.0;
        if (label[i] > 0)
            wp += k[2 * i + 1];
    }
    qsort(k, m, 2 * sizeof *k, cmp_kink);
    double b = m ? k[0] : 0.0, cum = 0.0;
    for (size_t j = 0; j < m; j++) {
        cum += k[2 * j + 1];
        b = k[2 * j];
        if (cum >= wp - 1e-12 * (1.0 + wp)) {
            if (fabs(cum - wp) <= 1e-12 * (1.0 + wp) && j + 1 < m)
                b = 0.5 * (k[2 * j] + k[2 * j + 2]);
            break;
        }
    }
    free(k);
    return -b;
}

static int finish(struct svm *S, const struct bl_fit_request *req, struct bl_fit_result *res,
                  struct svm_hyp *h, int margin_mode)
{
    size_t m = S->m;
    const double *G = req->G;
    size_t c = req->c;
    /* the edge: sum_i G_i out_i, from predict's own scores (column 0 when
     * margin mode gets several columns: they agree along the term) */
    double e = 0.0;
    hyp_scores(h, &S->tr->X, S->z, S->nthreads);
    if (m > 0 && (margin_mode || (G && c == 1))) {
        double r = NAN;
        if (margin_mode) {
            r = best_rho(S->z, h->rho, req->label, req->margin, NULL, m);
        } else { /* labels sign(G_i), weights |G_i|, margins 1 */
            double *lab = malloc(2 * m * sizeof *lab);
            if (lab) {
                for (size_t i = 0; i < m; i++) {
                    lab[i] = G[i] > 0.0 ? 1.0 : -1.0;
                    lab[m + i] = fabs(G[i]);
                }
                r = best_rho(S->z, h->rho, lab, NULL, lab + m, m);
                free(lab);
            }
        }
        if (isfinite(r) && r != h->rho) {
            h->rho = r;
            hyp_scores(h, &S->tr->X, S->z, S->nthreads);
        }
    }
    if (G && c)
        for (size_t i = 0; i < m; i++)
            e += G[i * c] * out_of(h, S->z[i]);
    if (!margin_mode && e < 0.0) {
        hyp_negate(h);
        hyp_scores(h, &S->tr->X, S->z, S->nthreads);
        double e2 = 0.0;
        for (size_t i = 0; i < m; i++)
            e2 += G[i] * out_of(h, S->z[i]);
        if (e2 >= e) {
            e = e2;
        } else {
            hyp_negate(h);
            hyp_scores(h, &S->tr->X, S->z, S->nthreads);
        }
        if (e < 0.0) { /* the constant sign(sum G) */
            double sg = 0.0;
            for (size_t i = 0; i < m; i++)
                sg += G[i];
            if (h->w)
                memset(h->w, 0, h->d * sizeof *h->w);
            h->nsv = 0;
            h->rho = sg < 0.0 ? 1.0 : -1.0;
            hyp_scores(h, &S->tr->X, S->z, S->nthreads);
            e = 0.0;
            for (size_t i = 0; i < m; i++)
                e += G[i] * out_of(h, S->z[i]);
        }
    }
    if (margin_mode && !(e > 0.0)) {
        double before = 0.0, after = 0.0;
        for (size_t i = 0; i < m; i++) {
            before += fmax(0.0, req->margin[i]);
            after += fmax(0.0, req->margin[i] - req->label[i] * S->z[i]);
        }
        e = fmax(0.0, before - after);
    }
    if (res->out)
        for (size_t i = 0; i < m; i++)
            res->out[i] = out_of(h, S->z[i]);
    res->hyp = h;
    res->outdim = 1;
    res->edge = e;
    res->trees = 1;
    return 0;
}

/* The linear kernel by dual coordinate descent (common/dcd.h): O(d) per
 * step where SMO pays O(m d), so a HingeBoost.OC round on pendigits stays
 * well under a second (docs/results-hingeboost.md).  The bias is solved as
 * a lightly regularised constant feature (DCD_BIAS), then re-fitted
 * exactly (best_rho). */
static int dcd_fit(struct svm *S, const struct bl_fit_request *req, struct bl_fit_result *res,
                   size_t l, int margin_mode, char err[BL_ERR_MAX])
{
    size_t m = S->m, d = S->d, mm = m ? m : 1;
    signed char *y = calloc(mm, sizeof *y);
    double *mar = calloc(mm, sizeof *mar), *cost = calloc(mm, sizeof *cost);
    double *qd = calloc(mm, sizeof *qd), *alpha = calloc(mm, sizeof *alpha);
    double *w = calloc(d + 1, sizeof *w);
    size_t *idx = malloc((l ? l : 1) * sizeof *idx);
    struct svm_hyp *h = hyp_new(KERN_LINEAR, d, 0);
    if (!y || !mar || !cost || !qd || !alpha || !w || !idx || !h) {
        free(y), free(mar), free(cost), free(qd), free(alpha), free(w), free(idx);
        hyp_free(h);
        snprintf(err, BL_ERR_MAX, "out of memory");
        return -1;
    }
    for (size_t t = 0; t < l; t++) {
        size_t i = S->ex[t];
        idx[t] = i;
        y[i] = S->y[t];
        mar[i] = -S->p[t];
        cost[i] = S->U[t];
        qd[i] = S->sq[i] + DCD_BIAS * DCD_BIAS;
    }
    long epochs = S->max_iter ? (long)(S->max_iter < 1000000000LL ? S->max_iter : 1000000000LL)
                              : 10000;
    struct dcd_problem P = {d, DCD_BIAS, S->xr, y, mar, cost, qd, S->eps, epochs,
                            S->shrinking, NULL, NULL, NULL};
    double gap;
    long it = dcd_solve(&P, idx, l, alpha, w, req->seed, &gap);
    if (S->host && S->host->log)
        S->host->log(2, NAME, "%s mode, %zu variables, %ld DCD epochs%s, gap %g",
                     margin_mode ? "margin" : "weighted", l, it, it < epochs ? "" :
                     " (max_iter reached)", gap);
    h->output = S->output, h->gamma = S->gamma, h->rho = -w[d] * DCD_BIAS;
    memcpy(h->a, S->a, d * sizeof *h->a);
    memcpy(h->b, S->b, d * sizeof *h->b);
    memcpy(h->w, w, d * sizeof *h->w);
    free(y), free(mar), free(cost), free(qd), free(alpha), free(w), free(idx);
    return finish(S, req, res, h, margin_mode);
}

static int svm_fit(void *self, const struct bl_fit_request *req, struct bl_fit_result *res,
                   char err[BL_ERR_MAX])
{
    struct svm *S = self;
    size_t m = S->m, l = 0;
    int margin_mode = req->label && req->margin;
    if (margin_mode) {
        for (size_t i = 0; i < m; i++) {
            if (!(req->label[i] == 1.0 || req->label[i] == -1.0) || !isfinite(req->margin[i])) {
                snprintf(err, BL_ERR_MAX, "example %zu: label %g must be +-1 and margin %g "
                         "finite", i, req->label[i], req->margin[i]);
                return -1;
            }
            S->ex[i] = i;
            S->y[i] = req->label[i] > 0.0 ? 1 : -1;
            S->p[i] = -req->margin[i];
            S->U[i] = S->C / (double)m;
        }
        l = m;
    } else {
        if (!req->G || req->c == 0) {
            snprintf(err, BL_ERR_MAX, "no dual weights (c = %zu) and no labels and margins",
                     req->c);
            return -1;
        }
        if (req->c != 1) {
            snprintf(err, BL_ERR_MAX, "svm's weighted mode takes one column of signed weights "
                     "(c = 1; labels sign(G_i), costs |G_i|); got c = %zu columns (margin mode "
                     "needs the request's label and margin)", req->c);
            return -1;
        }
        double mean = 0.0;
        for (size_t i = 0; i < m; i++) {
            if (!isfinite(req->G[i])) {
                snprintf(err, BL_ERR_MAX, "weight G[%zu] = %g is not finite", i, req->G[i]);
                return -1;
            }
            if (req->G[i] != 0.0)
                S->ex[l++] = i, mean += fabs(req->G[i]);
        }
        mean = l ? mean / (double)l : 1.0;
        for (size_t t = 0; t < l; t++) {
            double g = req->G[S->ex[t]];
            S->y[t] = g > 0.0 ? 1 : -1;
            S->p[t] = -1.0;
            S->U[t] = S->C * (fabs(g) / mean);
        }
    }
    if (S->kernel == KERN_LINEAR && S->solver != SOLVER_SMO && m > DCD_MIN_M)
        return dcd_fit(S, req, res, l, margin_mode, err);
    int use_cache = S->kernel != KERN_LINEAR;
    double bytes = S->cache_mb * 1048576.0;
    size_t budget = bytes > (double)SIZE_MAX ? SIZE_MAX : (size_t)bytes;
    if (use_cache && !S->cache && l > 0) {
        S->cache = kcache_new(&S->K, budget);
        if (!S->cache) {
            snprintf(err, BL_ERR_MAX, "out of memory for the kernel cache");
            return -1;
        }
    }
    /* linear: exact rows when they fit (else each value on the fly) */
    if (!use_cache && !S->rows_tried && l > 0)
        S->rows = krows_new(&S->K, budget), S->rows_tried = 1;
    long long cap = S->max_iter ? S->max_iter : 100LL * (long long)l;
    if (!S->max_iter && cap < 10000000LL)
        cap = 10000000LL;
    struct smo_problem P = {l, S->ex, S->y, S->p, S->U, &S->K, use_cache ? S->cache : NULL,
                            S->eps, cap, S->shrinking, S->nthreads, S->rows};
    struct smo_info inf;
    if (smo_solve(&P, S->beta, S->grad, &inf) < 0) {
        snprintf(err, BL_ERR_MAX, "out of memory in the SMO solver");
        return -1;
    }
    if (!isfinite(inf.rho) || !isfinite(inf.obj)) {
        snprintf(err, BL_ERR_MAX, "the SVM diverged (rho %g, objective %g)", inf.rho, inf.obj);
        return -1;
    }
    if (S->host && S->host->log)
        S->host->log(2, NAME, "%s mode, %zu variables, %lld SMO iterations%s, gap %g, dual "
                     "objective %g", margin_mode ? "margin" : "weighted", l, inf.iter,
                     inf.converged ? "" : " (max_iter reached)", inf.gap, inf.obj);
    struct svm_hyp *h = hyp_from(S, l, &inf);
    if (!h) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return -1;
    }
    return finish(S, req, res, h, margin_mode);
}

static size_t svm_outdim(const void *hyp)
{
    (void)hyp;
    return 1;
}

static void svm_predict(const void *hyp, const struct bl_matrix *X, double *out)
{
    const struct svm_hyp *h = hyp;
    hyp_scores(h, X, out, 1);
    for (size_t i = 0; i < X->m; i++)
        out[i] = out_of(h, out[i]);
}

static int svm_save(const void *hyp, char *buf, size_t cap)
{
    const struct svm_hyp *h = hyp;
    struct sbuf b = {buf, cap, 0};
    if (cap)
        buf[0] = 0;
    sb_printf(&b, "kernel=%s gamma=%.17g output=%s rho=%.17g d=%zu scale",
              kernel_names[h->kernel], h->gamma, output_names[h->output], h->rho, h->d);
    for (size_t f = 0; f < h->d; f++)
        sb_printf(&b, " %.17g:%.17g", h->a[f], h->b[f]);
    if (h->kernel == KERN_LINEAR) {
        sb_printf(&b, " w");
        for (size_t f = 0; f < h->d; f++)
            sb_printf(&b, " %.17g", h->w[f]);
    } else {
        sb_printf(&b, " sv=%zu", h->nsv);
        for (size_t k = 0; k < h->nsv; k++) {
            sb_printf(&b, " %.17g", h->coef[k]);
            for (size_t f = 0; f < h->d; f++)
                sb_printf(&b, " %.17g", h->sv[k * h->d + f]);
        }
    }
    return b.len > (size_t)INT32_MAX ? -1 : (int)b.len;
}

/* ---- load: a cursor over the line ---- */

#define EXPECT "kernel=<linear|perceptron|rbf> gamma=<g> output=<real|sign> rho=<r> d=<d> " \
               "scale <a>:<b> ... then \"w <w_1> ... <w_d>\" or \"sv=<n>\" and n x (1 + d) reals"

/* A finite real right at *p (no blanks), then *p moved past it. */
static int get_real(const char **p, double *x)
{
    if (!**p || isspace((unsigned char)**p))
        return 0;
    char *end;
    errno = 0;
    *x = strtod(*p, &end);
    if (end == *p || !isfinite(*x))
        return 0;
    *p = end;
    return 1;
}

static int get_word(const char **p, const char *w)
{
    size_t n = strlen(w);
    if (strncmp(*p, w, n) != 0)
        return 0;
    *p += n;
    return 1;
}

static int get_choice(const char **p, const char *const *names, int n)
{
    for (int k = 0; k < n; k++) {
        size_t len = strlen(names[k]);
        if (strncmp(*p, names[k], len) == 0 && ((*p)[len] == ' ' || !(*p)[len])) {
            *p += len;
            return k;
        }
    }
    return -1;
}

static int get_count(const char **p, unsigned long long *v)
{
    if (!isdigit((unsigned char)**p))
        return 0;
    char *end;
    errno = 0;
    *v = strtoull(*p, &end, 10);
    if (errno)
        return 0;
    *p = end;
    return 1;
}

static void *svm_load(const char *text, size_t d, char err[BL_ERR_MAX])
{
    const char *p = text;
    int kernel, output;
    double gamma, rho;
    unsigned long long dd, nsv = 0;
    if (!get_word(&p, "kernel=") || (kernel = get_choice(&p, kernel_names, 3)) < 0 ||
        !get_word(&p, " gamma=") || !get_real(&p, &gamma) || !(gamma > 0.0) ||
        !get_word(&p, " output=") || (output = get_choice(&p, output_names, 2)) < 0 ||
        !get_word(&p, " rho=") || !get_real(&p, &rho) || !get_word(&p, " d=") ||
        !get_count(&p, &dd) || !get_word(&p, " scale")) {
        snprintf(err, BL_ERR_MAX, "%s: malformed hypothesis \"%.100s\": bad header near "
                 "\"%.40s\" (expected \"%s\")", NAME, text, p, EXPECT);
        return NULL;
    }
    if (dd != d) {
        snprintf(err, BL_ERR_MAX, "%s: hypothesis has d=%llu features but the data has %zu",
                 NAME, dd, d);
        return NULL;
    }
    /* the count of support vectors comes after the scale pairs: find it
     * first so the hypothesis is allocated once */
    const char *q = p;
    if (kernel != KERN_LINEAR) {
        const char *s = strstr(p, " sv=");
        if (!s || (s += 4, !get_count(&s, &nsv))) {
            snprintf(err, BL_ERR_MAX, "%s: malformed hypothesis: no \" sv=<count>\" (expected "
                     "\"%s\")", NAME, EXPECT);
            return NULL;
        }
        /* each support vector takes at least 2 (d + 1) characters */
        if (nsv > strlen(text) / (2 * (d + 1))) {
            snprintf(err, BL_ERR_MAX, "%s: hypothesis says sv=%llu but the line is too short "
                     "for that many support vectors", NAME, nsv);
            return NULL;
        }
    }
    struct svm_hyp *h = hyp_new(kernel, d, (size_t)nsv);
    if (!h) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    h->output = output, h->gamma = gamma, h->rho = rho;
    for (size_t f = 0; f < d; f++)
        if (!get_word(&q, " ") || !get_real(&q, &h->a[f]) || !get_word(&q, ":") ||
            !get_real(&q, &h->b[f])) {
            snprintf(err, BL_ERR_MAX, "%s: malformed hypothesis: scale pair %zu of %zu is not "
                     "\" <a>:<b>\" with finite reals at \"%.40s\"", NAME, f, d, q);
            goto bad;
        }
    if (kernel == KERN_LINEAR) {
        if (!get_word(&q, " w")) {
            snprintf(err, BL_ERR_MAX, "%s: malformed hypothesis: no \" w\" after the %zu scale "
                     "pairs at \"%.40s\"", NAME, d, q);
            goto bad;
        }
        for (size_t f = 0; f < d; f++)
            if (!get_word(&q, " ") || !get_real(&q, &h->w[f])) {
                snprintf(err, BL_ERR_MAX, "%s: malformed hypothesis: weight %zu of %zu is not a "
                         "finite real at \"%.40s\"", NAME, f, d, q);
                goto bad;
            }
    } else {
        unsigned long long n2;
        if (!get_word(&q, " sv=") || !get_count(&q, &n2) || n2 != nsv) {
            snprintf(err, BL_ERR_MAX, "%s: malformed hypothesis: \" sv=<count>\" does not "
                     "follow the %zu scale pairs at \"%.40s\"", NAME, d, q);
            goto bad;
        }
        for (size_t k = 0; k < h->nsv; k++)
            for (size_t f = 0; f <= d; f++) {
                double *dst = f == 0 ? &h->coef[k] : &h->sv[k * d + f - 1];
                if (!get_word(&q, " ") || !get_real(&q, dst)) {
                    snprintf(err, BL_ERR_MAX, "%s: malformed hypothesis: support vector %zu of "
                             "%zu: value %zu of %zu is not a finite real at \"%.40s\"", NAME, k,
                             h->nsv, f, d + 1, q);
                    goto bad;
                }
            }
    }
    while (isspace((unsigned char)*q))
        q++;
    if (*q) {
        snprintf(err, BL_ERR_MAX, "%s: malformed hypothesis: unexpected text \"%.40s\" at its "
                 "end", NAME, q);
        goto bad;
    }
    return h;
bad:
    hyp_free(h);
    return NULL;
}

static void svm_free_hyp(void *hyp)
{
    hyp_free(hyp);
}

static const struct bl_weak_ops svm_ops = {
    .size = sizeof(struct bl_weak_ops),
    .create = svm_create,
    .destroy = svm_destroy,
    .fit = svm_fit,
    .outdim = svm_outdim,
    .predict = svm_predict,
    .save = svm_save,
    .load = svm_load,
    .free_hyp = svm_free_hyp,
    .needs = BL_NEEDS_MARGINS,
};

static const struct bl_plugin svm_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_WEAK,
    .name = NAME,
    .doc = "binary SVM, linear, perceptron or rbf kernel (our SMO; dual coordinate descent for "
           "large linear problems): per-example target margins (HingeBoost.OC, "
           "BL_NEEDS_MARGINS) or one weight column (weighted C-SVC)",
    .params = svm_params,
    .nparams = P_COUNT,
    .ops = &svm_ops,
};

static const struct bl_plugin *const svm_plugins[] = {&svm_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return svm_plugins;
}

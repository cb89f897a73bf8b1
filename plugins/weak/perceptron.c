/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Weak-learner plugin "perceptron": StructBoost-per's base learner (spec
 * structboost.md §3.2, eq. (31); used in §5.2, Table II),
 *
 *     phi(x) = sign(v' xs + b),   xs = x standardised with the training
 *                                 points' mean and std (NaN -> 0),
 *
 * answering the weighted base problem of StructBoost's oracle: given one
 * column of signed weights u = req->G (c = 1), maximise
 * sum_r u_r phi(x_r).  The hypothesis, its text form and the NaN rule are
 * those of plugins/common/linhyp.h (shared with "linsvm").
 *
 * Fit, as in the paper: the sign is replaced by a smooth sigmoid and the
 * pricing objective is maximised with L-BFGS (Debian's liblbfgsb, called as
 * in plugins/solver/lbfgsb.c), starting from the best decision stump.
 *   1. Best stump on the quantized view: the exact histogram search of
 *      plugins/weak/stump.c (criterion max) for one column, shared in
 *      plugins/common/stump1.h; features in parallel, reduced
 *      deterministically (max |score|, ties to the lowest feature, then
 *      bin).  In standardised space the stump "pol * (x_f >
 *      theta ? 1 : -1)" is v = pol e_f, b = -pol t, with t placed half way
 *      between the largest standardised training value on the left and the
 *      smallest on the right (spec: v = s e_f, b = -s theta, up to that
 *      standardisation); so it splits the non-missing training values
 *      exactly as the stump does.  (A missing value goes left in that
 *      stump but to the side of 0 here: only on a feature with NaN can the
 *      hyperplane's edge be below the histogram's.)
 *      init = linear starts instead from v = sum_r u_r xs_r, b = 0 (the
 *      direction that maximises the linear surrogate sum_r u_r v'xs_r for
 *      ||v|| = 1); the stump is still a candidate (step 3).
 *   2. Smooth surrogate, maximised over (v, b) in R^(d+1):
 *          F(v, b) = (1 / sum|u|) sum_r u_r tanh(kappa (v'xs_r + b) / ||v||).
 *      IMPLEMENTATION CHOICE THE PAPER DOES NOT MAKE (spec §8 item 16): the
 *      scale is fixed by renormalising, i.e. the sigmoid sees the signed
 *      Euclidean distance of xs_r to the hyperplane, so F is invariant to
 *      rescaling (v, b) and cannot improve by just sharpening the sigmoid;
 *      kappa (param `steepness`) is then the sigmoid's slope per standard
 *      deviation of distance (tanh(2 * 0.5) = 0.76: points half a std from
 *      the plane count 3/4).  Dividing by sum|u| keeps F in [-1, 1], so the
 *      L-BFGS tolerances (factr 1e7, pgtol 1e-6, 5 correction pairs) do not
 *      depend on the scale of u.  L-BFGS-B runs unbounded for at most
 *      `iterations` iterations (and 20 x as many evaluations).
 *   3. The learner is the hard sign version [spec: AMBIGUOUS].  The hard
 *      edge sum_r u_r sign(v'xs_r + b) is computed at the stump and at every
 *      point L-BFGS evaluates, with the very code predict runs, and the best
 *      in absolute value wins (the stump on ties; negated when negative:
 *      the family is closed under negation).  So the perceptron is never
 *      worse on the training weights than its stump start (on a stump
 *      feature without missing values: than the best stump).
 * res->edge is recomputed from the final hypothesis' outputs in example
 * order, so it equals sum_r u_r phi(x_r) from predict exactly.
 *
 * Determinism: no randomness (the seed is not used); the scores are summed
 * per example in a fixed order by blocks of examples (threads share
 * blocks), the gradient per feature in example order (threads share
 * features), the objective serially: the same answer with any number of
 * threads.  setulb's work space is zeroed before each run (it reads some
 * before writing it, see plugins/solver/lbfgsb.c).
 *
 * Sparse sets (bl_train.S; predict_sparse declares that the learner takes
 * them) cost their stored entries, with no dense copy: the stump search
 * of step 1 is stump1.h's sparse one (the zero bin by subtraction), its
 * threshold is placed from the column's entries and the value 0, and the
 * gradient is implicitly centred: with c_f = xs_f(0) = -mu_f / sd_f,
 *     sum_i a_i xs_if = c_f sum_i a_i + sum_{stored} a_i (xs_f(x_if) - c_f),
 * the same for init = linear's sum_r u_r xs_r.  Scores are linhyp.h's (the
 * same on both paths).  mu and sd, the zero bin's sums and these gradients
 * are summed in another order than the dense path's, so a sparse fit is
 * the dense fit's up to rounding (the same stump where the weights' sums
 * are exact; L-BFGS may then wander apart in the last bits); in
 * tests/unit/test_sparse the edges agree to 1e-9 and the weights to 1e-6
 * of their scale.
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
#include "../common/splits.h"
#include "../common/stump1.h"

#define NAME "perceptron"
#define MAXBINS 256

/* liblbfgsb ships no header; see plugins/solver/lbfgsb.c for the ABI. */
#define TASK_LEN 60
extern void setulb_(const int *n, const int *m, double *x, const double *l, const double *u,
                    const int *nbd, double *f, double *g, const double *factr,
                    const double *pgtol, double *wa, int *iwa, char *task, const int *iprint,
                    char *csave, int *lsave, int *isave, double *dsave, size_t task_len,
                    size_t csave_len);

#define LB_MEM 5
#define LB_FACTR 1e7
#define LB_PGTOL 1e-6

static const struct bl_host *g_host;

enum { P_STEEPNESS, P_ITERATIONS, P_INIT, P_COUNT };
enum { INIT_STUMP = 0, INIT_LINEAR = 1 };

static const struct bl_param_spec per_params[P_COUNT] = {
    [P_STEEPNESS] = {"steepness", BL_PARAM_REAL, "2", 1e-3, 1e3, NULL,
                     "kappa of the surrogate tanh(kappa * distance to the hyperplane), distance "
                     "in standardised units (not in the paper)"},
    [P_ITERATIONS] = {"iterations", BL_PARAM_INT, "50", 0, 100000, NULL,
                      "maximum L-BFGS iterations (0: the best stump as a hyperplane)"},
    [P_INIT] = {"init", BL_PARAM_CHOICE, "stump", 0, 0, "stump|linear",
                "start point: the best decision stump (paper) or v = sum_r u_r xs_r, b = 0"},
};

struct per {
    const struct bl_host *host;
    const struct bl_train *tr;
    double kappa;
    int iters, init, nthreads;
    size_t m, d;
    double *mu, *sd;       /* d: standardisation                      */
    size_t *ident;         /* d: 0..d-1, the dense hypothesis' features */
    uint8_t *split_ok;     /* d * MAXBINS                             */
    double *hist;          /* nthreads * MAXBINS                      */
    size_t *cnt;           /* sparse sets: nthreads * MAXBINS         */
    struct bl_stump1 *best; /* d                                      */
    double *z, *a;         /* m                                       */
    double *x, *g, *xbest; /* d + 1                                   */
    double *wa, *lo, *up;  /* setulb work space; bounds (not read)     */
    int *iwa, *nbd;        /* nbd: d + 1 zeros, every variable free  */
    /* the current fit */
    const double *u;
    double usum;           /* sum |u|                                 */
    double bestedge;       /* signed hard edge of xbest               */
    int have_best;
};

static void per_destroy(void *self)
{
    struct per *S = self;
    if (!S)
        return;
    free(S->mu), free(S->sd), free(S->ident), free(S->split_ok), free(S->hist), free(S->best);
    free(S->cnt);
    free(S->z), free(S->a), free(S->x), free(S->g), free(S->xbest), free(S->wa), free(S->iwa);
    free(S->lo), free(S->up), free(S->nbd);
    free(S);
}

/* Every stored entry's bin and every zero bin below its feature's nbins;
 * -1 with err set otherwise. */
static int sparse_bins_ok(const struct bl_train *tr, char err[BL_ERR_MAX])
{
    const struct bl_sparse *X = tr->S;
    for (size_t f = 0; f < X->d; f++) {
        unsigned nb = tr->Q.nbins[f];
        if (tr->SQ->zbin[f] >= nb) {
            snprintf(err, BL_ERR_MAX, "feature %zu: zero bin %u out of its %u bins", f,
                     (unsigned)tr->SQ->zbin[f], nb);
            return -1;
        }
        for (size_t e = X->cptr[f]; e < X->cptr[f + 1]; e++)
            if (tr->SQ->cbin[e] >= nb) {
                snprintf(err, BL_ERR_MAX, "feature %zu, row %u: bin %u out of its %u bins", f,
                         (unsigned)X->crow[e], (unsigned)tr->SQ->cbin[e], nb);
                return -1;
            }
    }
    return 0;
}

static size_t lb_nwa(size_t n)
{
    return 2 * LB_MEM * n + 5 * n + 11 * LB_MEM * LB_MEM + 8 * LB_MEM;
}

static void *per_create(const struct bl_host *host, const union bl_value *params,
                        const struct bl_train *train, char err[BL_ERR_MAX])
{
    const struct bl_quantized *Q = &train->Q;
    int sparse = train->S != NULL;
    if (sparse ? !train->SQ || !Q->nbins || train->S->m != train->m || train->S->d != train->d
               : !Q->bins || !Q->nbins || !Q->cut || Q->m != train->m || Q->d != train->d ||
                     train->X.m != train->m || train->X.d != train->d || !train->X.x) {
        snprintf(err, BL_ERR_MAX, "the training set has no (matching) raw and quantized views");
        return NULL;
    }
    if (train->d == 0 || train->d > (size_t)1 << 26) {
        snprintf(err, BL_ERR_MAX, "%zu features: need 1 .. 2^26", train->d);
        return NULL;
    }
    for (size_t f = 0; f < Q->d; f++)
        if (Q->nbins[f] < 1 || Q->nbins[f] > MAXBINS) {
            snprintf(err, BL_ERR_MAX, "feature %zu has %u bins (need 1..%d)", f,
                     (unsigned)Q->nbins[f], MAXBINS);
            return NULL;
        }
    struct per *S = calloc(1, sizeof *S);
    if (!S) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    size_t m = train->m, d = train->d;
    S->host = host;
    S->tr = train;
    S->m = m, S->d = d;
    S->kappa = params ? params[P_STEEPNESS].r : 2.0;
    S->iters = params ? (int)params[P_ITERATIONS].i : 50;
    S->init = params ? params[P_INIT].choice : INIT_STUMP;
    if (!(S->kappa > 0.0) || !isfinite(S->kappa) || S->iters < 0 ||
        (S->init != INIT_STUMP && S->init != INIT_LINEAR)) {
        snprintf(err, BL_ERR_MAX, "invalid parameters (steepness %g, iterations %d, init %d)",
                 S->kappa, S->iters, S->init);
        per_destroy(S);
        return NULL;
    }
    S->nthreads = host && host->threads > 0 ? host->threads : 1;
    size_t mm = m ? m : 1;
    S->mu = malloc(d * sizeof *S->mu);
    S->sd = malloc(d * sizeof *S->sd);
    S->ident = malloc(d * sizeof *S->ident);
    /* d x 256 flags are too many for a wide sparse set: it counts per fit */
    S->split_ok = calloc(sparse ? 1 : d * MAXBINS, 1);
    S->cnt = malloc((sparse ? (size_t)S->nthreads * MAXBINS : 1) * sizeof *S->cnt);
    S->hist = malloc((size_t)S->nthreads * MAXBINS * sizeof *S->hist);
    S->best = malloc(d * sizeof *S->best);
    S->z = malloc(mm * sizeof *S->z);
    S->a = malloc(mm * sizeof *S->a);
    S->x = malloc((d + 1) * sizeof *S->x);
    S->g = malloc((d + 1) * sizeof *S->g);
    S->xbest = malloc((d + 1) * sizeof *S->xbest);
    S->wa = malloc(lb_nwa(d + 1) * sizeof *S->wa);
    S->iwa = malloc(3 * (d + 1) * sizeof *S->iwa);
    S->lo = calloc(d + 1, sizeof *S->lo);
    S->up = calloc(d + 1, sizeof *S->up);
    S->nbd = calloc(d + 1, sizeof *S->nbd);
    if (!S->mu || !S->sd || !S->ident || !S->split_ok || !S->hist || !S->best || !S->z || !S->a ||
        !S->x || !S->g || !S->xbest || !S->wa || !S->iwa || !S->lo || !S->up || !S->nbd ||
        !S->cnt) {
        per_destroy(S);
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    for (size_t f = 0; f < d; f++)
        S->ident[f] = f;
    if (sparse) {
        lin_standardise_sparse(train->S, S->mu, S->sd);
        if (sparse_bins_ok(train, err) < 0) {
            per_destroy(S);
            return NULL;
        }
        return S;
    }
    lin_standardise(&train->X, S->mu, S->sd);
    /* which splits leave both sides non-empty (as in stump.c) */
    if (bl_splits_ok(Q, S->split_ok, err, BL_ERR_MAX) < 0) {
        per_destroy(S);
        return NULL;
    }
    return S;
}

/* ---- step 1: the best stump ------------------------------------------------ */

/* One training value, standardised to t, in bin: on which side of the
 * split at bin b it falls, and whether it is the nearest there so far. */
static inline void gap_add(unsigned bin, int b, double t, double *lo, double *hi)
{
    if (bin > (unsigned)b) {
        if (t < *hi)
            *hi = t;
    } else if (t > *lo) {
        *lo = t;
    }
}

/* The largest standardised training value left of the split of feature f
 * at bin b and the smallest right of it (NaN skipped); a sparse set's
 * entries not stored are one value 0 in the zero bin. */
static void split_gap(const struct per *S, size_t f, int b, double *lo, double *hi)
{
    const struct bl_train *tr = S->tr;
    double mu = S->mu[f], sd = S->sd[f];
    *lo = -HUGE_VAL, *hi = HUGE_VAL;
    if (tr->S) {
        const struct bl_sparse *X = tr->S;
        size_t e0 = X->cptr[f], e1 = X->cptr[f + 1];
        if (e1 - e0 < S->m)
            gap_add(tr->SQ->zbin[f], b, lin_std1(0.0f, mu, sd), lo, hi);
        for (size_t e = e0; e < e1; e++)
            if (!isnan(X->cval[e]))
                gap_add(tr->SQ->cbin[e], b, lin_std1(X->cval[e], mu, sd), lo, hi);
        return;
    }
    const uint8_t *bins = tr->Q.bins + f * S->m;
    const float *xr = tr->X.x + f * S->m;
    for (size_t i = 0; i < S->m; i++)
        if (!isnan(xr[i]))
            gap_add(bins[i], b, lin_std1(xr[i], mu, sd), lo, hi);
}

/* The best stump (plugins/common/stump1.h) as the dense weights S->x
 * (v = pol e_f, b = -pol t); -1 when no feature splits the training set. */
static int stump_start(struct per *S, const double *u, double *stump_edge)
{
    const struct bl_train *tr = S->tr;
    size_t d = S->d;
    struct bl_stump1 best;
    long bfl = bl_stump1_search_any(&tr->Q, S->split_ok, tr->S, tr->SQ, u, S->nthreads, S->hist,
                                    S->cnt, S->best, &best);
    if (bfl < 0)
        return -1;
    size_t bf = (size_t)bfl;
    const struct bl_stump1 *B = &best;
    /* threshold half way between the sides' nearest standardised values */
    double lo, hi;
    split_gap(S, bf, B->b, &lo, &hi);
    double t;
    if (!isfinite(hi)) /* cannot happen: the right side holds no NaN */
        t = isfinite(lo) ? lo + 1.0 : 0.0;
    else if (!isfinite(lo))
        t = hi - 1.0;
    else
        t = lo + (hi - lo) / 2.0;
    memset(S->x, 0, (d + 1) * sizeof *S->x);
    S->x[bf] = (double)B->pol;
    S->x[d] = -(double)B->pol * t;
    *stump_edge = B->edge;
    return 0;
}

/* ---- steps 2 and 3: the smooth surrogate and the hard edge ----------------- */

/* sum_i w_i xs_if over the training set (W = sum_i w_i): on a sparse set
 * implicitly centred, c W + sum over the stored entries of w_i (xs - c),
 * c = xs_f(0), at the cost of the column's entries. */
static double col_dot(const struct per *S, size_t f, const double *w, double W)
{
    double mu = S->mu[f], sd = S->sd[f], acc = 0.0;
    if (S->tr->S) {
        const struct bl_sparse *X = S->tr->S;
        double c = lin_std1(0.0f, mu, sd);
        for (size_t e = X->cptr[f]; e < X->cptr[f + 1]; e++)
            if (w[X->crow[e]] != 0.0)
                acc += w[X->crow[e]] * (lin_std1(X->cval[e], mu, sd) - c);
        return c * W + acc;
    }
    const float *x = S->tr->X.x + f * S->m;
    for (size_t i = 0; i < S->m; i++)
        if (w[i] != 0.0)
            acc += w[i] * lin_std1(x[i], mu, sd);
    return acc;
}

static struct lin_hyp dense_view(const struct per *S, const double *w)
{
    struct lin_hyp h = {S->d, S->ident, (double *)w, S->mu, S->sd, w[S->d]};
    return h;
}

/* Keep w if its hard edge (scores in S->z) beats the best so far in
 * absolute value. */
static void consider(struct per *S, const double *w)
{
    double e = lin_edge(S->u, S->z, S->m);
    if (!S->have_best || fabs(e) > fabs(S->bestedge)) {
        S->have_best = 1;
        S->bestedge = e;
        memcpy(S->xbest, w, (S->d + 1) * sizeof *w);
    }
}

/* f = -F(v, b) and its gradient g (we minimise); w = (v, b).  Also
 * considers w for the hard edge. */
static double eval(struct per *S, const double *w, double *g)
{
    size_t m = S->m, d = S->d;
    struct lin_hyp h = dense_view(S, w);
    lin_train_scores(&h, S->tr, S->z, S->nthreads);
    consider(S, w);
    double s2 = 0.0;
    for (size_t f = 0; f < d; f++)
        s2 += w[f] * w[f];
    double s = sqrt(s2);
    if (!(s > 1e-150) || !isfinite(s)) { /* v = 0: no hyperplane; push back */
        memset(g, 0, (d + 1) * sizeof *g);
        return 2.0;
    }
    double k = S->kappa, inv = 1.0 / S->usum, F = 0.0, A = 0.0, AZ = 0.0;
    for (size_t i = 0; i < m; i++) {
        double ui = S->u[i];
        if (ui == 0.0) {
            S->a[i] = 0.0;
            continue;
        }
        double th = tanh(k * S->z[i] / s);
        F += ui * th;
        double a = -inv * ui * (1.0 - th * th); /* d(-F)/d(t_i), t_i = kappa z_i / s, over kappa */
        S->a[i] = a;
        A += a;
        AZ += a * S->z[i];
    }
    /* dt_i/dv_f = kappa (xs_if / s - z_i v_f / s^3), dt_i/db = kappa / s */
    long nf = (long)d;
    size_t cells = S->tr->S ? S->tr->S->nnz + d : m * d;
    int par = S->nthreads > 1 && d > 1 && cells >= 65536;
#pragma omp parallel for schedule(static) num_threads(S->nthreads) if (par)
    for (long fl = 0; fl < nf; fl++) {
        size_t f = (size_t)fl;
        double acc = col_dot(S, f, S->a, A);
        g[f] = k * (acc / s - w[f] * AZ / (s * s2));
    }
    g[d] = k * A / s;
    return -inv * F;
}

static void set_task(char *task, const char *s)
{
    size_t len = strlen(s);
    memcpy(task, s, len);
    memset(task + len, ' ', TASK_LEN - len);
}

/* L-BFGS-B from S->x; the best hard edge seen is kept in S->xbest. */
static void run_lbfgs(struct per *S)
{
    size_t n = S->d + 1;
    const int nn = (int)n, mm = LB_MEM, iprint = -1;
    const double factr = LB_FACTR, pgtol = LB_PGTOL;
    char task[TASK_LEN], csave[TASK_LEN];
    int lsave[4], isave[44];
    double dsave[29], f = 0.0;
    memset(S->wa, 0, lb_nwa(n) * sizeof *S->wa);
    memset(S->iwa, 0, 3 * n * sizeof *S->iwa);
    memset(csave, ' ', TASK_LEN);
    memset(lsave, 0, sizeof lsave);
    memset(isave, 0, sizeof isave);
    memset(dsave, 0, sizeof dsave);
    set_task(task, "START");
    long evals = 0, maxevals = 20L * S->iters + 20;
    for (;;) {
        setulb_(&nn, &mm, S->x, S->lo, S->up, S->nbd, &f, S->g, &factr, &pgtol, S->wa, S->iwa, task,
                &iprint, csave, lsave, isave, dsave, TASK_LEN, TASK_LEN);
        if (strncmp(task, "FG", 2) == 0) {
            if (evals++ >= maxevals)
                break;
            f = eval(S, S->x, S->g);
            int fin = isfinite(f);
            for (size_t j = 0; j < n && fin; j++)
                fin = isfinite(S->g[j]);
            if (!fin)
                break;
            continue;
        }
        if (strncmp(task, "NEW_X", 5) == 0) {
            if (isave[29] >= S->iters) /* isave(30): iterations done */
                break;
            continue;
        }
        break; /* CONVERGENCE, ABNORMAL_TERMINATION, ERROR, WARNING */
    }
    if (S->host && S->host->log)
        S->host->log(2, NAME, "L-BFGS: %d iterations, %ld evaluations, %.*s", isave[29], evals,
                     20, task);
}

static int per_fit(void *self, const struct bl_fit_request *req, struct bl_fit_result *res,
                   char err[BL_ERR_MAX])
{
    struct per *S = self;
    size_t m = S->m, d = S->d;
    if (!req->G || req->c == 0) {
        snprintf(err, BL_ERR_MAX, "no dual weights (c = %zu)", req->c);
        return -1;
    }
    if (req->c != 1) {
        snprintf(err, BL_ERR_MAX, "perceptron takes one column of signed weights u (c = 1, "
                 "StructBoost's base problem max sum_r u_r phi(x_r)); got c = %zu columns", req->c);
        return -1;
    }
    const double *u = req->G;
    double usum = 0.0;
    for (size_t i = 0; i < m; i++) {
        if (!isfinite(u[i])) {
            snprintf(err, BL_ERR_MAX, "weight u[%zu] = %g is not finite", i, u[i]);
            return -1;
        }
        usum += fabs(u[i]);
    }
    S->u = u;
    S->usum = usum;
    S->have_best = 0;
    double stump_edge = 0.0;
    if (stump_start(S, u, &stump_edge) < 0) {
        snprintf(err, BL_ERR_MAX, "every feature is constant on the training set: no stump "
                 "splits it, so there is no start point");
        return -1;
    }
    /* the stump as a hyperplane is the first candidate */
    {
        struct lin_hyp h = dense_view(S, S->x);
        lin_train_scores(&h, S->tr, S->z, S->nthreads);
        consider(S, S->x);
    }
    double start_edge = S->bestedge;
    if (S->iters > 0 && usum > 0.0) {
        if (S->init == INIT_LINEAR) {
            /* v = sum_r u_r xs_r, b = 0 (the stump stays in xbest) */
            double s2 = 0.0, U = 0.0;
            for (size_t i = 0; i < m; i++)
                U += u[i];
            for (size_t f = 0; f < d; f++) {
                double acc = col_dot(S, f, u, U);
                S->x[f] = acc;
                s2 += acc * acc;
            }
            S->x[d] = 0.0;
            if (!(s2 > 0.0)) /* no direction: back to the stump */
                memcpy(S->x, S->xbest, (d + 1) * sizeof *S->x);
        }
        run_lbfgs(S);
    }
    struct lin_hyp *h = lin_from_dense(S->xbest, d, S->mu, S->sd);
    if (!h) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return -1;
    }
    if (S->bestedge < 0.0)
        lin_negate(h);
    lin_finish(h, S->tr, u, S->nthreads, S->z, res->out, &res->edge);
    if (S->host && S->host->log)
        S->host->log(2, NAME, "stump edge %.6g (as a hyperplane %.6g), perceptron edge %.6g, "
                     "%zu of %zu features", stump_edge, fabs(start_edge), res->edge, h->n, d);
    res->hyp = h;
    res->outdim = 1;
    res->trees = 1;
    return 0;
}

static void per_free_hyp(void *hyp)
{
    lin_free(hyp);
}

static void *per_load(const char *text, size_t d, char err[BL_ERR_MAX])
{
    return lin_load(NAME, text, d, err);
}

static const struct bl_weak_ops per_ops = {
    .size = sizeof(struct bl_weak_ops),
    .create = per_create,
    .destroy = per_destroy,
    .fit = per_fit,
    .outdim = lin_outdim,
    .predict = lin_predict,
    .save = lin_save,
    .load = per_load,
    .free_hyp = per_free_hyp,
    .predict_sparse = lin_predict_sparse,
};

static const struct bl_plugin per_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_WEAK,
    .name = NAME,
    .doc = "perceptron sign(v'x + b) on standardised features: best stump, then L-BFGS on a "
           "tanh surrogate (StructBoost-per); one weight column",
    .params = per_params,
    .nparams = P_COUNT,
    .ops = &per_ops,
};

static const struct bl_plugin *const per_plugins[] = {&per_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    g_host = host;
    return per_plugins;
}

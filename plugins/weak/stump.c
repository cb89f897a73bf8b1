/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Weak-learner plugin "stump": decision stumps over the quantized view,
 *
 *     h(x) = pol * (x_f > theta ? +1 : -1),   theta = Q.cut[f][b],
 *
 * so "x_f > theta" on raw training values is exactly "bin > b" (data.h).
 *
 * Missing values (NaN) sit in bin 0 with the smallest values, so the bin
 * test sends them left.  For a feature with missing values on the training
 * set every split is also tried with them on the right: left sums L - M,
 * M the sums of G over the missing rows; that side is kept only when it
 * scores strictly higher (ties: bin, then left before right), and the
 * hypothesis records it ("miss=r"; without it NaN goes left, as in models
 * written before).  The candidates stay the splits of the present values
 * (split_ok), and the right side is not tried where it would leave the
 * left empty (below the lowest bin with a present value).  Features without
 * missing values take no extra step, so on complete data every choice and
 * number is the same as without this.
 *
 * Given dual weights G (m x c) the per-column scores of a split are
 *     score_r = sum_i G_ir h(x_i)
 * (spec §2.4; with G = -dL/dF of a margin loss, G = c_ir).  Criteria:
 *   max:  edge = max_r |score_r|, rule (10) with both polarities (spec §4:
 *         H is closed under negation), pol = sign of the winning score;
 *         one output (outdim 1).
 *   l2:   edge = sqrt(sum_r score_r^2) (GradBoost-style row selection); the
 *         sign of h does not change it, so pol = +1; outdim 1.
 *   each: one independent stump per column r, each maximising its own
 *         |score_r| with its own feature, threshold and polarity; outdim c,
 *         output r is stump r.  edge = sum_r |score_r| (the sum of the c
 *         columns' edges: the dual value of the whole c-output hypothesis).
 *         The weak learner of AdaBoost.MO (one stump per code column, spec
 *         §7.5) and of one-vs-all / one-vs-one / ECOC coded boosting.
 *   vote: discrete AdaBoost.MH's stump (spec §7.3): one split
 *         phi(x) = (x_f > theta ? +1 : -1) shared by all columns and a vote
 *         per column v_r = sign(score_r(phi)) (+1 when the score is 0);
 *         output r is v_r phi(x), outdim c; the split maximises
 *         sum_r |score_r(phi)|, which is the edge.
 *   leafclass: SAMME's multi-class stump (spec §7.2): a split and one class
 *         per side; output r is 1 for the side's class and -1/(c-1) for the
 *         others (SAMME's symmetric coding; outdim c, c >= 2 required).
 *         The split and classes maximise sum_i sum_r G_ir h_r(x_i), and on
 *         each side the best class is simply the column with the largest
 *         side sum of G: for an example whose side predicts class q,
 *             sum_r G_ir h_r = G_iq - (1/(c-1)) sum_{r != q} G_ir
 *                            = (1 + 1/(c-1)) G_iq - (1/(c-1)) sum_r G_ir,
 *         so summed over a side S it is (c/(c-1)) S_q - (1/(c-1)) sum_r S_r,
 *         whose second term does not depend on q.  With L, R the left and
 *         right sums (R = T - L) the objective is
 *             (c/(c-1)) (max_r L_r + max_r R_r) - (1/(c-1)) sum_r T_r.
 *         edge = that maximum minus the same objective for the "no split"
 *         classifier predicting the overall best class argmax_r T_r on both
 *         sides, i.e. (c/(c-1)) (max L + max R - max T), clamped at 0 (it is
 *         >= 0 up to rounding): 0 means no split helps, so the engine's
 *         `edge <= nu` stop means exactly that.
 * Output (criterion max; the other criteria ignore it): `output = pm1` (the
 * default) is the above; `output = 01` is the {0,1} stump g(x) = (1 + h(x)) / 2,
 * i.e. [x_f > t] (pol +1) or [x_f <= t or NaN] (pol -1), which the CRF
 * task's pairwise terms need (non-negative outputs keep the energy
 * submodular, spec §4.6).  Its score sum_i G_i g(x_i) = (T + pol * score) / 2,
 * T = sum_i G_i, so for one column the best {0,1} stump is the best +-1 stump:
 * same search, outputs mapped, edge the largest column score of the mapped
 * outputs.  When that is negative (every non-constant {0,1} stump
 * correlates negatively, e.g. all G < 0) the answer is the zero function,
 * written t=inf, with edge 0: StructBoost then has no column to add.
 *
 * The search is exact over every cut of the quantized view: per feature one
 * pass builds hist[b][r] = sum_{i in bin b} G_ir, then a prefix scan gives
 * L_r after bin b and score_r = T_r - 2 L_r for the split after bin b
 * (pol = +1).  Splits that leave one side empty on the training set
 * (constant stumps) are excluded.
 *
 * Features run in parallel (OpenMP) above ~64k histogram cells (below that
 * a thread team costs more than the scan); each feature's best is found
 * serially and the features are reduced deterministically, so the answer
 * does not depend on the thread count: max edge, ties to the lowest
 * feature, then the lowest bin, then (max) the lowest class; for `each`
 * per column (lowest feature, then bin); for leafclass ties between classes
 * go to the lowest class.  vote and leafclass rebuild the winning feature's
 * prefix sums serially with the same arithmetic to read off the votes or
 * classes.
 *
 * Sparse training sets (bl_train.S/SQ): a feature's histogram is built
 * from its stored entries only (CSC order, cost ~ its non-zeros), and the
 * bin of 0.0 (SQ->zbin) gets the rest by subtraction: T minus the stored
 * entries' sums.  The candidate splits and every choice are those of the
 * dense search; the zero bin's sums are rounded differently (a subtraction
 * instead of a sum in row order), so edges may differ from the dense
 * search's in their last bits and a split chosen by a margin of that size
 * could differ.  Outputs and models are otherwise the same; predict_sparse
 * scores a sparse matrix at the cost of the split features' entries.
 *
 * Hypothesis text (one line, what save writes and load reads):
 *   max, l2:   "f=<feature> t=<threshold> pol=<1|-1>" (+ " out=01" for output 01)
 *   each:      "each <c>: f=<f> t=<t> pol=<1|-1>; f=<f> t=<t> pol=<1|-1>; ..." (c stumps)
 *   vote:      "vote <c>: f=<f> t=<t> v=<c characters + or ->"
 *   leafclass: "leafclass <c>: f=<f> t=<t> left=<class> right=<class>"
 *              (left: x_f <= t or NaN; right: x_f > t; classes 0..c-1)
 * Any split may end with " miss=r" (after pol, out=01, v or right): NaN
 * goes right.
 * Thresholds are written with %.9g, which reads back bit for bit.
 */
#include <boostlab/boostlab.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/sbuf.h"
#include "../common/splits.h"
#include "../common/stump1.h"
#ifdef _OPENMP
#include <omp.h>
#endif

#define NAME "stump"
#define MAXBINS 256
#define FBLK 8 /* features accumulated together for one column of G */
#define MAX_OUTDIM ((size_t)1 << 20) /* the model loader's limit on a term's code */

static const struct bl_host *g_host;

enum { P_CRITERION, P_OUTPUT, P_COUNT };
enum { CRIT_MAX = 0, CRIT_L2 = 1, CRIT_EACH = 2, CRIT_VOTE = 3, CRIT_LEAF = 4 };

static const struct bl_param_spec stump_params[P_COUNT] = {
    [P_CRITERION] = {"criterion", BL_PARAM_CHOICE, "max", 0, 0, "max|l2|each|vote|leafclass",
                     "max: max_r |score_r| (rule (10)); l2: sqrt(sum_r score_r^2); each: a stump "
                     "per column; vote: AdaBoost.MH shared split + votes; leafclass: SAMME class per side"},
    [P_OUTPUT] = {"output", BL_PARAM_CHOICE, "pm1", 0, 0, "pm1|01",
                  "pm1: outputs -1/+1; 01: outputs 0/1, (1 + h) / 2, for criterion max (the CRF "
                  "task's submodular pairwise terms; the other criteria ignore it)"},
};

/* ---- hypotheses ---------------------------------------------------------- */

enum { H_ONE, H_EACH, H_VOTE, H_LEAF };

struct split1 {
    size_t f;
    float t;
    int pol;
    int mr;              /* missing values go right                      */
};

struct stump_hyp {
    int kind;
    size_t c;            /* outputs: 1 for H_ONE                          */
    struct split1 s;     /* H_ONE, H_VOTE, H_LEAF (pol = +1 for the last two) */
    int zo;              /* H_ONE: outputs 0/1 instead of -1/+1            */
    size_t left, right;  /* H_LEAF: class of x_f <= t (and NaN), of x_f > t */
    signed char *v;      /* H_VOTE: c votes, +1 or -1                      */
    struct split1 *e;    /* H_EACH: c stumps                               */
};

static void stump_free_hyp(void *hyp)
{
    struct stump_hyp *h = hyp;
    if (!h)
        return;
    free(h->v);
    free(h->e);
    free(h);
}

static struct stump_hyp *hyp_new(int kind, size_t c)
{
    struct stump_hyp *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->kind = kind;
    h->c = c;
    if ((kind == H_VOTE && !(h->v = malloc(c))) ||
        (kind == H_EACH && !(h->e = malloc(c * sizeof *h->e)))) {
        stump_free_hyp(h);
        return NULL;
    }
    return h;
}

/* ---- the learner ---------------------------------------------------------- */

/* Best split of one feature; b < 0 when the feature has none. */
struct fbest {
    double edge; /* |score| (max), sum of squares (l2), sum |score| (vote),
                    max L + max R (leafclass) */
    int b, r, pol;
    int mr;      /* missing values go right */
};

/* Best stump of one column (criterion each); e < 0 when none yet. */
struct cbest {
    double e;
    size_t f;
    int b, pol;
    int mr;
};

struct stump {
    const struct bl_host *host;
    const struct bl_train *tr;
    int criterion;
    int zo;                /* output = 01                                  */
    int nthreads;
    size_t cap_c;          /* columns the histograms have room for        */
    double *hist;          /* nthreads * MAXBINS * cap_c                   */
    double *hblk;          /* nthreads * FBLK * MAXBINS (one column)       */
    double *T;             /* cap_c column totals of G                     */
    struct cbest *cb;      /* nthreads * cap_c (criterion each)            */
    struct fbest *best;    /* d                                            */
    uint8_t *split_ok;     /* d * MAXBINS: split after bin b is not constant */
    size_t *moff;          /* d + 1: feature f's missing rows are         */
    uint32_t *mrow;        /*   mrow[moff[f] .. moff[f+1])                 */
    uint16_t *mlo;         /* d: lowest bin holding a present value        */
    double *mbuf;          /* nthreads * 2 * cap_c: sums M over them, L - M */
    /* sparse training set (tr->S): no split_ok table (d x 256 bytes is too
     * much for a million features); each thread's ok row is made with its
     * histogram.  A chosen feature's bins and values are expanded to m
     * entries when its outputs are written. */
    uint8_t *okbuf;        /* nthreads * MAXBINS                           */
    uint8_t *colbin;       /* m                                            */
    float *colx;           /* m                                            */
};

static void stump_destroy(void *self)
{
    struct stump *S = self;
    if (!S)
        return;
    free(S->hist);
    free(S->hblk);
    free(S->T);
    free(S->cb);
    free(S->best);
    free(S->split_ok);
    free(S->moff);
    free(S->mrow);
    free(S->mlo);
    free(S->mbuf);
    free(S->okbuf);
    free(S->colbin);
    free(S->colx);
    free(S);
}

static int stump_reserve(struct stump *S, size_t c)
{
    if (c <= S->cap_c)
        return 0;
    double *h = malloc((size_t)S->nthreads * MAXBINS * c * sizeof *h);
    double *T = malloc(c * sizeof *T);
    struct cbest *cb = S->criterion == CRIT_EACH ? malloc((size_t)S->nthreads * c * sizeof *cb)
                                                 : NULL;
    double *mb = malloc((size_t)S->nthreads * 2 * c * sizeof *mb);
    if (!h || !T || !mb || (S->criterion == CRIT_EACH && !cb)) {
        free(h);
        free(T);
        free(cb);
        free(mb);
        return -1;
    }
    free(S->hist);
    free(S->T);
    free(S->cb);
    free(S->mbuf);
    S->hist = h;
    S->T = T;
    S->cb = cb;
    S->mbuf = mb;
    S->cap_c = c;
    return 0;
}

/* find_missing on a sparse set: missing values are stored NaN entries; a
 * feature's unstored rows are zeros, in its zero bin. */
static int find_missing_sparse(struct stump *S)
{
    const struct bl_sparse *X = S->tr->S;
    const struct bl_squantized *SQ = S->tr->SQ;
    size_t n = 0;
    for (size_t f = 0; f < X->d; f++) {
        for (size_t e = X->cptr[f]; e < X->cptr[f + 1]; e++)
            n += isnan(X->cval[e]) != 0;
        S->moff[f + 1] = n;
    }
    if (n && !(S->mrow = malloc(n * sizeof *S->mrow)))
        return -1;
    for (size_t f = 0, k = 0; f < X->d; f++) {
        unsigned lo = X->cptr[f + 1] - X->cptr[f] < X->m ? SQ->zbin[f] : S->tr->Q.nbins[f];
        for (size_t e = X->cptr[f]; e < X->cptr[f + 1]; e++)
            if (isnan(X->cval[e]))
                S->mrow[k++] = X->crow[e];
            else if (SQ->cbin[e] < lo)
                lo = SQ->cbin[e];
        S->mlo[f] = (uint16_t)lo;
    }
    return 0;
}

/* The rows with a missing value, per feature, once, and the lowest bin
 * holding a present value: sending the missing rows right after bin b
 * leaves something on the left only when b >= mlo[f] (bin 0 may hold
 * nothing but missing values in a view not made by bl_quantize). */
static int find_missing(struct stump *S, char err[BL_ERR_MAX])
{
    const struct bl_train *tr = S->tr;
    size_t m = tr->m, d = tr->d, n = 0;
    S->moff = calloc(d + 1, sizeof *S->moff);
    S->mlo = calloc(d ? d : 1, sizeof *S->mlo);
    if (!S->moff || !S->mlo)
        goto oom;
    if (tr->S)
        return find_missing_sparse(S) < 0 ? (snprintf(err, BL_ERR_MAX, "out of memory"), -1) : 0;
    if (!tr->X.x)
        return 0;
    for (size_t f = 0; f < d; f++) {
        const float *x = tr->X.x + f * m;
        for (size_t i = 0; i < m; i++)
            n += isnan(x[i]) != 0;
        S->moff[f + 1] = n;
    }
    if (n && !(S->mrow = malloc(n * sizeof *S->mrow)))
        goto oom;
    for (size_t f = 0, e = 0; f < d && n; f++) {
        const float *x = tr->X.x + f * m;
        const uint8_t *bins = tr->Q.bins + f * m;
        unsigned lo = tr->Q.nbins[f];
        for (size_t i = 0; i < m; i++)
            if (isnan(x[i]))
                S->mrow[e++] = (uint32_t)i;
            else if (bins[i] < lo)
                lo = bins[i];
        S->mlo[f] = (uint16_t)lo;
    }
    return 0;
oom:
    snprintf(err, BL_ERR_MAX, "out of memory");
    return -1;
}

/* M[r] = sum of G[i][r] over feature f's missing rows; 0 when it has none. */
static int missing_sums(const struct stump *S, size_t f, const double *G, size_t c, double *M)
{
    size_t e0 = S->moff[f], e1 = S->moff[f + 1];
    if (e0 == e1)
        return 0;
    for (size_t r = 0; r < c; r++)
        M[r] = 0.0;
    for (size_t e = e0; e < e1; e++) {
        const double *g = G + (size_t)S->mrow[e] * c;
        for (size_t r = 0; r < c; r++)
            M[r] += g[r];
    }
    return 1;
}

static void *stump_create(const struct bl_host *host, const union bl_value *params,
                          const struct bl_train *train, char err[BL_ERR_MAX])
{
    const struct bl_quantized *Q = &train->Q;
    int sparse = train->S && train->SQ;
    if ((!Q->bins && !sparse) || !Q->nbins || !Q->cut || Q->m != train->m ||
        Q->d != train->d) {
        snprintf(err, BL_ERR_MAX, "the training set has no (matching) quantized view");
        return NULL;
    }
    for (size_t f = 0; f < Q->d; f++)
        if (Q->nbins[f] < 1 || Q->nbins[f] > MAXBINS) {
            snprintf(err, BL_ERR_MAX, "feature %zu has %u bins (need 1..%d)", f,
                     (unsigned)Q->nbins[f], MAXBINS);
            return NULL;
        }
    struct stump *S = calloc(1, sizeof *S);
    if (!S) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    S->host = host;
    S->tr = train;
    S->criterion = params ? params[P_CRITERION].choice : CRIT_MAX;
    if (S->criterion < CRIT_MAX || S->criterion > CRIT_LEAF) {
        snprintf(err, BL_ERR_MAX, "unknown criterion %d", S->criterion);
        stump_destroy(S);
        return NULL;
    }
    S->zo = params ? params[P_OUTPUT].choice == 1 : 0;
    S->nthreads = host && host->threads > 0 ? host->threads : 1;
    S->best = malloc((train->d ? train->d : 1) * sizeof *S->best);
    if (sparse) {
        S->okbuf = malloc((size_t)S->nthreads * MAXBINS);
        S->colbin = malloc(train->m ? train->m : 1);
        S->colx = malloc((train->m ? train->m : 1) * sizeof *S->colx);
    } else {
        S->split_ok = calloc((train->d ? train->d : 1) * MAXBINS, 1);
    }
    S->hblk = malloc((size_t)S->nthreads * FBLK * MAXBINS * sizeof *S->hblk);
    if (!S->best || !(S->split_ok || S->okbuf) || (sparse && (!S->colbin || !S->colx)) ||
        !S->hblk || stump_reserve(S, train->k ? train->k : 1) < 0) {
        stump_destroy(S);
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    /* which splits are non-constant on the training set, once */
    if ((!sparse && bl_splits_ok(Q, S->split_ok, err, BL_ERR_MAX) < 0) ||
        find_missing(S, err) < 0) {
        stump_destroy(S);
        return NULL;
    }
    return S;
}

/* hist[bin_i][.] += G[i][.] for every example.  The column count is a
 * compile-time constant in the common cases so the inner loop unrolls. */
#define ACC_LOOP(C)                                                           \
    for (size_t i = 0; i < m; i++) {                                          \
        double *h_ = hist + (size_t)bf[i] * (C);                              \
        const double *g_ = G + i * (C);                                       \
        for (size_t r_ = 0; r_ < (C); r_++)                                   \
            h_[r_] += g_[r_];                                                 \
    }
#define ACC_CASE(C) case C: ACC_LOOP(C) break;

static void accumulate(const uint8_t *bf, size_t m, const double *G, size_t c, double *hist)
{
    switch (c) {
    ACC_CASE(1) ACC_CASE(2) ACC_CASE(3) ACC_CASE(4) ACC_CASE(5) ACC_CASE(6)
    ACC_CASE(7) ACC_CASE(8) ACC_CASE(9) ACC_CASE(10) ACC_CASE(11) ACC_CASE(12)
    ACC_CASE(13) ACC_CASE(14) ACC_CASE(15) ACC_CASE(16)
    default: /* wide: fixed-size blocks of 8 columns, then the rest */
        for (size_t i = 0; i < m; i++) {
            double *h = hist + (size_t)bf[i] * c;
            const double *g = G + i * c;
            size_t r = 0;
            for (; r + 8 <= c; r += 8)
                for (size_t j = 0; j < 8; j++)
                    h[r + j] += g[r + j];
            for (; r < c; r++)
                h[r] += g[r];
        }
        break;
    }
}

/* One column of G into the histograms of nf <= FBLK features at once.
 * Each bin still sums its examples in order i = 0..m-1, so the histograms
 * are bit-identical to accumulate's; what changes is that the features'
 * chains of additions run side by side.  One feature alone waits on every
 * add to the bin it just added to, which dominates when a feature has
 * few bins (dna's 0/1 features: 96% of RBoost-proj's time, whose weak
 * learner sees one column n = 1000 times per iteration). */
static void accumulate1_block(const uint8_t *const *bf, double *const *h, size_t nf, size_t m,
                              const double *G)
{
    if (nf == FBLK) {
        const uint8_t *b0 = bf[0], *b1 = bf[1], *b2 = bf[2], *b3 = bf[3], *b4 = bf[4],
                      *b5 = bf[5], *b6 = bf[6], *b7 = bf[7];
        double *h0 = h[0], *h1 = h[1], *h2 = h[2], *h3 = h[3], *h4 = h[4], *h5 = h[5],
               *h6 = h[6], *h7 = h[7];
        for (size_t i = 0; i < m; i++) {
            double x = G[i];
            h0[b0[i]] += x;
            h1[b1[i]] += x;
            h2[b2[i]] += x;
            h3[b3[i]] += x;
            h4[b4[i]] += x;
            h5[b5[i]] += x;
            h6[b6[i]] += x;
            h7[b7[i]] += x;
        }
        return;
    }
    for (size_t i = 0; i < m; i++)
        for (size_t q = 0; q < nf; q++)
            h[q][bf[q][i]] += G[i];
}

/* Turn rows 0..b of a histogram into prefix sums in place, row b' += row
 * b'-1: the same additions in the same order as the scans below, so the
 * prefix sums read back after a fit are bit-identical to the scanned ones. */
static inline void prefix_step(double *Lb, size_t c)
{
    const double *prev = Lb - c;
    for (size_t r = 0; r < c; r++)
        Lb[r] += prev[r];
}

/* The scores the scans compare; one function so that every use rounds alike. */
static inline double split_score(double T, double L)
{
    return T - 2.0 * L;
}

/* The criterion's value of one split whose left sums are L (b unset), as
 * scan_feature computes it. */
static struct fbest eval_split(int crit, const double *T, const double *L, size_t c)
{
    struct fbest a = {-1.0, -1, 0, 1, 0};
    if (crit == CRIT_MAX) {
        for (size_t r = 0; r < c; r++) {
            double sc = split_score(T[r], L[r]);
            if (fabs(sc) > a.edge) {
                a.edge = fabs(sc);
                a.r = (int)r;
                a.pol = sc < 0 ? -1 : 1;
            }
        }
    } else if (crit == CRIT_L2 || crit == CRIT_VOTE) {
        double q = 0.0;
        for (size_t r = 0; r < c; r++) {
            double sc = split_score(T[r], L[r]);
            q += crit == CRIT_L2 ? sc * sc : fabs(sc);
        }
        a.edge = q;
    } else {
        double ml = L[0], mr = T[0] - L[0];
        for (size_t r = 1; r < c; r++) {
            if (L[r] > ml)
                ml = L[r];
            if (T[r] - L[r] > mr)
                mr = T[r] - L[r];
        }
        a.edge = ml + mr;
    }
    return a;
}

/* Best split of feature f from its histogram; the left prefix is
 * accumulated in place over hist (rows 0..b hold L after step b).
 * Criteria max, l2, vote, leafclass. */
static struct fbest scan_feature(const struct stump *S, size_t f, const uint8_t *ok,
                                 double *hist, const double *T, size_t c, const double *M,
                                 double *La)
{
    struct fbest fb = {-1.0, -1, 0, 1, 0};
    unsigned nb = S->tr->Q.nbins[f];
    unsigned lo = S->mlo[f];
    int crit = S->criterion;
    for (unsigned b = 0; b + 1 < nb; b++) {
        double *Lb = hist + (size_t)b * c;
        if (b > 0)
            prefix_step(Lb, c);
        if (!ok[b])
            continue;
        if (crit == CRIT_MAX) {
            for (size_t r = 0; r < c; r++) {
                double sc = split_score(T[r], Lb[r]);
                if (fabs(sc) > fb.edge)
                    fb = (struct fbest){fabs(sc), (int)b, (int)r, sc < 0 ? -1 : 1, 0};
            }
        } else if (crit == CRIT_L2) {
            double q = 0.0;
            for (size_t r = 0; r < c; r++) {
                double sc = split_score(T[r], Lb[r]);
                q += sc * sc;
            }
            if (q > fb.edge)
                fb = (struct fbest){q, (int)b, 0, 1, 0};
        } else if (crit == CRIT_VOTE) {
            double q = 0.0;
            for (size_t r = 0; r < c; r++)
                q += fabs(split_score(T[r], Lb[r]));
            if (q > fb.edge)
                fb = (struct fbest){q, (int)b, 0, 1, 0};
        } else { /* CRIT_LEAF: the objective can be negative, so b < 0 marks "none" */
            double ml = Lb[0], mr = T[0] - Lb[0];
            for (size_t r = 1; r < c; r++) {
                if (Lb[r] > ml)
                    ml = Lb[r];
                if (T[r] - Lb[r] > mr)
                    mr = T[r] - Lb[r];
            }
            double q = ml + mr;
            if (fb.b < 0 || q > fb.edge)
                fb = (struct fbest){q, (int)b, 0, 1, 0};
        }
        if (M && b >= lo) { /* the missing rows on the right: left sums L - M */
            for (size_t r = 0; r < c; r++)
                La[r] = Lb[r] - M[r];
            struct fbest a = eval_split(crit, T, La, c);
            if (a.edge > fb.edge) {
                a.b = (int)b;
                a.mr = 1;
                fb = a;
            }
        }
    }
    return fb;
}

/* scan_feature's max criterion for one column over the nq features of a
 * block, side by side: each feature's prefix sums are a chain of additions
 * that one scan alone waits on, as in accumulate1_block.  Per feature the
 * same additions and comparisons in the same order, so the same answer. */
static void scan_block_max1(const struct stump *S, size_t f0, size_t nq, double *const *hq,
                            double T, const int *hm, const double *Mq, struct fbest *out)
{
    const struct bl_quantized *Q = &S->tr->Q;
    double L[FBLK];
    struct fbest fb[FBLK];
    unsigned nb[FBLK], top = 0;
    const uint8_t *ok[FBLK];
    for (size_t q = 0; q < nq; q++) {
        fb[q] = (struct fbest){-1.0, -1, 0, 1, 0};
        nb[q] = Q->nbins[f0 + q];
        ok[q] = S->split_ok + (f0 + q) * MAXBINS;
        L[q] = 0.0;
        top = nb[q] > top ? nb[q] : top;
    }
    for (unsigned b = 0; b + 1 < top; b++)
        for (size_t q = 0; q < nq; q++) {
            if (b + 1 >= nb[q])
                continue;
            double l = b > 0 ? hq[q][b] + L[q] : hq[q][0];
            L[q] = l;
            if (!ok[q][b])
                continue;
            double sc = split_score(T, l);
            if (fabs(sc) > fb[q].edge)
                fb[q] = (struct fbest){fabs(sc), (int)b, 0, sc < 0 ? -1 : 1, 0};
            if (hm[q] && b >= S->mlo[f0 + q]) { /* missing rows on the right */
                double sa = split_score(T, l - Mq[q]);
                if (fabs(sa) > fb[q].edge)
                    fb[q] = (struct fbest){fabs(sa), (int)b, 0, sa < 0 ? -1 : 1, 1};
            }
        }
    memcpy(out, fb, nq * sizeof *out);
}

/* Criterion each: the best stump of every column over feature f, merged
 * into cb[] (one thread's running bests).  Better = larger |score|, then
 * lower feature; within a feature bins are scanned upwards and only a
 * strictly larger score replaces, so ties go to the lowest bin.  The order
 * is total, so the merge does not depend on which thread saw which feature. */
static void scan_each(const struct stump *S, size_t f, const uint8_t *ok, double *hist,
                      const double *T, size_t c, const double *M, struct cbest *cb)
{
    unsigned nb = S->tr->Q.nbins[f];
    unsigned lo = S->mlo[f];
    for (unsigned b = 0; b + 1 < nb; b++) {
        double *Lb = hist + (size_t)b * c;
        if (b > 0)
            prefix_step(Lb, c);
        if (!ok[b])
            continue;
        for (size_t r = 0; r < c; r++) {
            double sc = split_score(T[r], Lb[r]), e = fabs(sc);
            if (e > cb[r].e || (e == cb[r].e && f < cb[r].f)) {
                cb[r].e = e;
                cb[r].f = f;
                cb[r].b = (int)b;
                cb[r].pol = sc < 0 ? -1 : 1;
                cb[r].mr = 0;
            }
            if (M && b >= lo) { /* missing rows on the right */
                double sa = split_score(T[r], Lb[r] - M[r]), ea = fabs(sa);
                if (ea > cb[r].e || (ea == cb[r].e && f < cb[r].f))
                    cb[r] = (struct cbest){ea, f, (int)b, sa < 0 ? -1 : 1, 1};
            }
        }
    }
}

static int cbest_better(const struct cbest *a, const struct cbest *b)
{
    return a->e > b->e || (a->e == b->e && (a->f < b->f || (a->f == b->f && a->b < b->b)));
}

/* Feature f's histogram (nbins x c) from its stored entries, the zero bin
 * completed by subtraction from the totals T, and its ok row (which
 * splits leave both sides non-empty), for a sparse training set. */
static void build_sparse(const struct stump *S, size_t f, const double *G, size_t c,
                         const double *T, double *hist, uint8_t *ok)
{
    const struct bl_sparse *X = S->tr->S;
    const uint8_t *cbin = S->tr->SQ->cbin;
    unsigned nb = S->tr->Q.nbins[f], zb = S->tr->SQ->zbin[f];
    size_t cnt[MAXBINS]; /* only nb of them: most features have a few bins */
    memset(cnt, 0, nb * sizeof *cnt);
    memset(hist, 0, (size_t)nb * c * sizeof *hist);
    size_t e0 = X->cptr[f], e1 = X->cptr[f + 1];
    for (size_t e = e0; e < e1; e++) {
        double *h = hist + (size_t)cbin[e] * c;
        const double *g = G + (size_t)X->crow[e] * c;
        for (size_t r = 0; r < c; r++)
            h[r] += g[r];
        cnt[cbin[e]]++;
    }
    if (e1 - e0 < X->m) { /* the zero bin: what the stored entries leave */
        double *h = hist + (size_t)zb * c;
        for (size_t r = 0; r < c; r++) {
            double s = 0.0;
            for (unsigned b = 0; b < nb; b++)
                s += hist[(size_t)b * c + r];
            h[r] += T[r] - s;
        }
        cnt[zb] += X->m - (e1 - e0);
    }
    size_t cum = 0;
    for (unsigned b = 0; b < nb; b++) {
        cum += cnt[b];
        ok[b] = b + 1u < nb && cum > 0 && cum < X->m;
    }
}

/* Feature f's bins (and raw values) on every training row: the dense
 * view's column, or for a sparse set its entries expanded into S's
 * buffers (only for a chosen feature, once a fit). */
static const uint8_t *col_bins(struct stump *S, size_t f)
{
    const struct bl_train *tr = S->tr;
    if (!tr->S)
        return tr->Q.bins + f * tr->m;
    memset(S->colbin, tr->SQ->zbin[f], tr->m);
    for (size_t e = tr->S->cptr[f]; e < tr->S->cptr[f + 1]; e++)
        S->colbin[tr->S->crow[e]] = tr->SQ->cbin[e];
    return S->colbin;
}

static const float *col_x(struct stump *S, size_t f)
{
    const struct bl_train *tr = S->tr;
    if (!tr->S)
        return tr->X.x + f * tr->m;
    for (size_t i = 0; i < tr->m; i++)
        S->colx[i] = 0.0f;
    for (size_t e = tr->S->cptr[f]; e < tr->S->cptr[f + 1]; e++)
        S->colx[tr->S->crow[e]] = tr->S->cval[e];
    return S->colx;
}

/* Prefix sums of feature f up to bin b, rebuilt serially in hist exactly
 * as the scan built them; returns L (row b). */
static const double *prefix_at(const struct stump *S, size_t f, int b, int mr, const double *G,
                               size_t c, double *hist)
{
    const struct bl_quantized *Q = &S->tr->Q;
    if (S->tr->S) {
        build_sparse(S, f, G, c, S->T, hist, S->okbuf);
    } else {
        memset(hist, 0, (size_t)Q->nbins[f] * c * sizeof *hist);
        accumulate(Q->bins + f * Q->m, Q->m, G, c, hist);
    }
    for (int q = 1; q <= b; q++)
        prefix_step(hist + (size_t)q * c, c);
    double *Lb = hist + (size_t)b * c;
    if (mr) { /* left without the missing rows, as the scan computed it */
        double *M = S->mbuf, *La = S->mbuf + c;
        missing_sums(S, f, G, c, M);
        for (size_t r = 0; r < c; r++)
            La[r] = Lb[r] - M[r];
        return La;
    }
    return Lb;
}

/* Feature f's best stump from its histogram (ignored for a constant
 * feature): merged into thread tid's running bests (criterion each) or
 * into best[f]. */
static void scan_any(struct stump *S, size_t f, double *hist, const double *G, const double *T,
                     size_t c, int crit, int tid)
{
    if (S->tr->Q.nbins[f] < 2) {
        S->best[f] = (struct fbest){-1.0, -1, 0, 1, 0};
        return;
    }
    double *M = S->mbuf + (size_t)tid * 2 * S->cap_c;
    if (!missing_sums(S, f, G, c, M))
        M = NULL;
    const uint8_t *ok = S->split_ok ? S->split_ok + f * MAXBINS
                                    : S->okbuf + (size_t)tid * MAXBINS;
    if (crit == CRIT_EACH)
        scan_each(S, f, ok, hist, T, c, M, S->cb + (size_t)tid * c);
    else
        S->best[f] = scan_feature(S, f, ok, hist, T, c, M, M ? M + c : NULL);
}

/* After outputs were written by the bin test (missing rows left): give
 * feature f's missing rows the right side's outputs, row right[0..w). */
static void missing_to_right(const struct stump *S, size_t f, double *out, size_t stride,
                             size_t col, const double *right, size_t w)
{
    for (size_t e = S->moff[f]; e < S->moff[f + 1]; e++)
        for (size_t r = 0; r < w; r++)
            out[(size_t)S->mrow[e] * stride + col + r] = right[r];
}

static int stump_fit(void *self, const struct bl_fit_request *req, struct bl_fit_result *res,
                     char err[BL_ERR_MAX])
{
    struct stump *S = self;
    const struct bl_quantized *Q = &S->tr->Q;
    size_t m = Q->m, d = Q->d, c = req->c;
    int crit = S->criterion;
    if (c == 0 || !req->G) {
        snprintf(err, BL_ERR_MAX, "no dual weights (c = %zu)", c);
        return -1;
    }
    if (crit == CRIT_LEAF && c < 2) {
        snprintf(err, BL_ERR_MAX, "criterion leafclass (SAMME's multi-class stump) needs at least "
                 "2 columns, got c = %zu (for a binary problem use criterion max)", c);
        return -1;
    }
    if (crit >= CRIT_EACH && c > MAX_OUTDIM) {
        snprintf(err, BL_ERR_MAX, "%zu columns: at most %zu outputs per hypothesis", c, MAX_OUTDIM);
        return -1;
    }
    if (c > S->cap_c) {
        if (stump_reserve(S, c) < 0) {
            snprintf(err, BL_ERR_MAX, "out of memory for %zu-column histograms", c);
            return -1;
        }
        if (S->host && S->host->log)
            S->host->log(2, NAME, "histograms grown to %zu columns", c);
    }
    const double *G = req->G;
    double *T = S->T;
    for (size_t r = 0; r < c; r++)
        T[r] = 0.0;
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < c; r++)
            T[r] += G[i * c + r];
    if (crit == CRIT_EACH)
        for (size_t q = 0; q < (size_t)S->nthreads * c; q++)
            S->cb[q] = (struct cbest){-1.0, SIZE_MAX, -1, 1, 0};

    size_t hstride = MAXBINS * S->cap_c;
    long nf = (long)d;
    /* Waking a thread team costs more than a small problem's whole scan,
     * and far more when the cores are busy: stay serial below ~64k cells. */
    int par = d > 1 && m * d * c >= 65536;
    if (c == 1 && !S->tr->S) { /* blocks of features, accumulate1_block; the same answers */
        long nblk = (nf + FBLK - 1) / FBLK;
#pragma omp parallel for schedule(dynamic) num_threads(S->nthreads) if (par)
        for (long bl = 0; bl < nblk; bl++) {
            int tid = 0;
#ifdef _OPENMP
            tid = omp_get_thread_num();
#endif
            size_t f0 = (size_t)bl * FBLK, nq = d - f0 < FBLK ? d - f0 : FBLK;
            const uint8_t *bq[FBLK];
            double *hq[FBLK];
            for (size_t q = 0; q < nq; q++) {
                hq[q] = S->hblk + ((size_t)tid * FBLK + q) * MAXBINS;
                bq[q] = Q->bins + (f0 + q) * m;
                memset(hq[q], 0, Q->nbins[f0 + q] * sizeof *hq[q]);
            }
            accumulate1_block(bq, hq, nq, m, G);
            if (crit == CRIT_MAX) {
                int hm[FBLK];
                double Mq[FBLK];
                for (size_t q = 0; q < nq; q++)
                    hm[q] = missing_sums(S, f0 + q, G, 1, &Mq[q]);
                scan_block_max1(S, f0, nq, hq, T[0], hm, Mq, S->best + f0);
                continue;
            }
            for (size_t q = 0; q < nq; q++)
                scan_any(S, f0 + q, hq[q], G, T, c, crit, tid);
        }
    } else {
#pragma omp parallel for schedule(dynamic) num_threads(S->nthreads) if (par)
        for (long fl = 0; fl < nf; fl++) {
            size_t f = (size_t)fl;
            int tid = 0;
#ifdef _OPENMP
            tid = omp_get_thread_num();
#endif
            double *hist = S->hist + (size_t)tid * hstride;
            unsigned nb = Q->nbins[f];
            if (nb > 1 && S->tr->S) {
                build_sparse(S, f, G, c, T, hist, S->okbuf + (size_t)tid * MAXBINS);
            } else if (nb > 1) {
                memset(hist, 0, (size_t)nb * c * sizeof *hist);
                accumulate(Q->bins + f * m, m, G, c, hist);
            }
            scan_any(S, f, hist, G, T, c, crit, tid);
        }
    }

    static const char none[] = "every feature is constant on the training set: no stump splits it";
    struct stump_hyp *h;
    if (crit == CRIT_EACH) {
        struct cbest *cb = S->cb;
        for (int t = 1; t < S->nthreads; t++)
            for (size_t r = 0; r < c; r++)
                if (cbest_better(&S->cb[(size_t)t * c + r], &cb[r]))
                    cb[r] = S->cb[(size_t)t * c + r];
        if (cb[0].e < 0.0) {
            snprintf(err, BL_ERR_MAX, "%s", none);
            return -1;
        }
        if (!(h = hyp_new(H_EACH, c))) {
            snprintf(err, BL_ERR_MAX, "out of memory");
            return -1;
        }
        double edge = 0.0;
        for (size_t r = 0; r < c; r++) {
            h->e[r] = (struct split1){cb[r].f, Q->cut[cb[r].f][cb[r].b], cb[r].pol, cb[r].mr};
            edge += cb[r].e;
            if (res->out) {
                const uint8_t *bins = col_bins(S, cb[r].f);
                unsigned bb = (unsigned)cb[r].b;
                double pos = (double)cb[r].pol;
                for (size_t i = 0; i < m; i++)
                    res->out[i * c + r] = bins[i] > bb ? pos : -pos;
                if (cb[r].mr)
                    missing_to_right(S, cb[r].f, res->out, c, r, &pos, 1);
            }
        }
        res->hyp = h;
        res->outdim = c;
        res->edge = edge;
        return 0;
    }

    size_t bf = 0;
    double be = 0.0;
    int found = 0;
    for (size_t f = 0; f < d; f++)
        if (S->best[f].b >= 0 && (!found || S->best[f].edge > be)) {
            found = 1;
            be = S->best[f].edge;
            bf = f;
        }
    if (!found) {
        snprintf(err, BL_ERR_MAX, "%s", none);
        return -1;
    }
    const struct fbest *B = &S->best[bf];
    const uint8_t *bins = col_bins(S, bf);
    unsigned bb = (unsigned)B->b;
    float t = Q->cut[bf][B->b];

    if (crit == CRIT_MAX || crit == CRIT_L2) {
        if (!(h = hyp_new(H_ONE, 1))) {
            snprintf(err, BL_ERR_MAX, "out of memory");
            return -1;
        }
        h->s = (struct split1){bf, t, B->pol, B->mr};
        h->zo = S->zo && crit == CRIT_MAX;
        double pos = (double)h->s.pol, neg = -pos;
        if (h->zo) {
            /* {0,1}: score_r = (T_r + pol score_r(+-1)) / 2, the edge their
             * maximum; when it is negative the zero function (t = +inf) is
             * the best {0,1} answer, with edge 0 */
            pos = pos > 0 ? 1.0 : 0.0, neg = 1.0 - pos;
            double e = -INFINITY;
            const float *x = B->mr ? col_x(S, bf) : NULL;
            for (size_t r = 0; r < c; r++) {
                double sr = 0.0;
                for (size_t i = 0; i < m; i++)
                    sr += G[i * c + r] *
                          (bins[i] > bb || (B->mr && isnan(x[i])) ? pos : neg);
                e = sr > e ? sr : e;
            }
            if (!(e >= 0.0)) {
                h->s = (struct split1){bf, INFINITY, 1, 0};
                pos = neg = 0.0, e = 0.0;
            }
            be = e;
        }
        if (res->out) {
            for (size_t i = 0; i < m; i++)
                res->out[i] = bins[i] > bb ? pos : neg;
            if (h->s.mr)
                missing_to_right(S, bf, res->out, 1, 0, &pos, 1);
        }
        res->hyp = h;
        res->outdim = 1;
        res->edge = crit == CRIT_L2 ? sqrt(be) : be;
        return 0;
    }

    /* vote, leafclass: read the votes / classes off the winning split */
    const double *L = prefix_at(S, bf, B->b, B->mr, G, c, S->hist);
    if (!(h = hyp_new(crit == CRIT_VOTE ? H_VOTE : H_LEAF, c))) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return -1;
    }
    h->s = (struct split1){bf, t, 1, B->mr};
    const float *xf = B->mr ? col_x(S, bf) : NULL;
    if (crit == CRIT_VOTE) {
        for (size_t r = 0; r < c; r++)
            h->v[r] = split_score(T[r], L[r]) < 0 ? -1 : 1;
        if (res->out)
            for (size_t i = 0; i < m; i++) {
                double phi = bins[i] > bb || (B->mr && isnan(xf[i])) ? 1.0 : -1.0;
                for (size_t r = 0; r < c; r++)
                    res->out[i * c + r] = h->v[r] * phi;
            }
        res->edge = be;
    } else {
        size_t lq = 0, rq = 0, tq = 0;
        for (size_t r = 1; r < c; r++) {
            if (L[r] > L[lq])
                lq = r;
            if (T[r] - L[r] > T[rq] - L[rq])
                rq = r;
            if (T[r] > T[tq])
                tq = r;
        }
        h->left = lq;
        h->right = rq;
        double off = -1.0 / (double)(c - 1);
        if (res->out)
            for (size_t i = 0; i < m; i++) {
                size_t q = bins[i] > bb || (B->mr && isnan(xf[i])) ? rq : lq;
                for (size_t r = 0; r < c; r++)
                    res->out[i * c + r] = r == q ? 1.0 : off;
            }
        double gain = (be - T[tq]) * ((double)c / (double)(c - 1));
        res->edge = gain > 0.0 ? gain : 0.0;
    }
    res->hyp = h;
    res->outdim = c;
    return 0;
}

static size_t stump_outdim(const void *hyp)
{
    return ((const struct stump_hyp *)hyp)->c;
}

/* side[i] = 1 when row i goes right on split s: x > t, or NaN with mr (NaN
 * compares false, so it goes left unless mr). */
typedef void (*side_fn)(const void *X, const struct split1 *s, uint8_t *side);

static void dense_side(const void *Xv, const struct split1 *s, uint8_t *side)
{
    const struct bl_matrix *X = Xv;
    const float *x = X->x + s->f * X->m;
    for (size_t i = 0; i < X->m; i++)
        side[i] = x[i] > s->t || (s->mr && isnan(x[i]));
}

/* The same test on a sparse matrix: the rows feature s->f does not store
 * hold 0.0, so the cost is m plus the feature's entries. */
static void sparse_side(const void *Xv, const struct split1 *s, uint8_t *side)
{
    const struct bl_sparse *X = Xv;
    memset(side, 0.0f > s->t, X->m);
    if (s->f >= X->d)
        return;
    for (size_t e = X->cptr[s->f]; e < X->cptr[s->f + 1]; e++) {
        float v = X->cval[e];
        side[X->crow[e]] = v > s->t || (s->mr && isnan(v));
    }
}

/* out (m x outdim) from the sides of each of h's splits, however X holds
 * its rows: one mapping for dense and sparse prediction. */
static void predict_by_side(const struct stump_hyp *h, const void *X, size_t m, side_fn sides,
                            double *out)
{
    size_t c = h->c;
    uint8_t *side = malloc(m ? m : 1);
    if (!side) { /* nothing to report through: score what can be scored */
        for (size_t i = 0; i < m * c; i++)
            out[i] = NAN;
        return;
    }
    if (h->kind == H_EACH) {
        for (size_t r = 0; r < c; r++) {
            sides(X, &h->e[r], side);
            double pos = (double)h->e[r].pol;
            for (size_t i = 0; i < m; i++)
                out[i * c + r] = side[i] ? pos : -pos;
        }
        free(side);
        return;
    }
    sides(X, &h->s, side);
    if (h->kind == H_ONE) {
        double pos = (double)h->s.pol, neg = -pos;
        if (h->zo)
            pos = pos > 0 ? 1.0 : 0.0, neg = 1.0 - pos;
        for (size_t i = 0; i < m; i++)
            out[i] = side[i] ? pos : neg;
    } else if (h->kind == H_VOTE) {
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < c; r++)
                out[i * c + r] = h->v[r] * (side[i] ? 1.0 : -1.0);
    } else {
        double off = -1.0 / (double)(c - 1);
        for (size_t i = 0; i < m; i++) {
            size_t q = side[i] ? h->right : h->left;
            for (size_t r = 0; r < c; r++)
                out[i * c + r] = r == q ? 1.0 : off;
        }
    }
    free(side);
}

static void stump_predict(const void *hyp, const struct bl_matrix *X, double *out)
{
    predict_by_side(hyp, X, X->m, dense_side, out);
}

static void stump_predict_sparse(const void *hyp, const struct bl_sparse *X, double *out)
{
    predict_by_side(hyp, X, X->m, sparse_side, out);
}

/* ---- text form -------------------------------------------------------------- */

/* Written after a split whose missing values go right. */
#define MISS_R " miss=r"

/* An optional MISS_R at p: sets *mr, returns what follows. */
static const char *parse_miss(const char *p, int *mr)
{
    *mr = strncmp(p, MISS_R, sizeof MISS_R - 1) == 0;
    return *mr ? p + sizeof MISS_R - 1 : p;
}

/* %.9g prints any float so that strtof reads back the same bits. */
static int stump_save(const void *hyp, char *buf, size_t cap)
{
    const struct stump_hyp *h = hyp;
    struct sbuf b = {buf, cap, 0};
    if (cap)
        buf[0] = 0;
    switch (h->kind) {
    case H_ONE:
        sb_printf(&b, "f=%zu t=%.9g pol=%d%s%s", h->s.f, (double)h->s.t, h->s.pol,
                  h->zo ? " out=01" : "", h->s.mr ? MISS_R : "");
        break;
    case H_EACH:
        sb_printf(&b, "each %zu:", h->c);
        for (size_t r = 0; r < h->c; r++)
            sb_printf(&b, "%s f=%zu t=%.9g pol=%d%s", r ? ";" : "", h->e[r].f, (double)h->e[r].t,
                      h->e[r].pol, h->e[r].mr ? MISS_R : "");
        break;
    case H_VOTE:
        sb_printf(&b, "vote %zu: f=%zu t=%.9g v=", h->c, h->s.f, (double)h->s.t);
        for (size_t r = 0; r < h->c; r++)
            sb_printf(&b, "%c", h->v[r] > 0 ? '+' : '-');
        sb_printf(&b, "%s", h->s.mr ? MISS_R : "");
        break;
    case H_LEAF:
        sb_printf(&b, "leafclass %zu: f=%zu t=%.9g left=%zu right=%zu%s", h->c, h->s.f,
                  (double)h->s.t, h->left, h->right, h->s.mr ? MISS_R : "");
        break;
    }
    return b.len > (size_t)INT32_MAX ? -1 : (int)b.len;
}

/* The parsers of "f=<f> t=<t>", " pol=<p>" and counts are in
 * plugins/common/stump1.h, shared with wlda's axis-aligned stumps. */

/* Range checks of a parsed split; 0 or -1 with err set. */
static int check_split(unsigned long long f, long pol, size_t d, char err[BL_ERR_MAX])
{
    if (f >= d) {
        snprintf(err, BL_ERR_MAX, "stump: feature index %llu out of range (the data has %zu features)",
                 f, d);
        return -1;
    }
    if (pol != 1 && pol != -1) {
        snprintf(err, BL_ERR_MAX, "stump: polarity %ld is not +1 or -1", pol);
        return -1;
    }
    return 0;
}

static const char *const expect_one = "f=<feature> t=<threshold> pol=<+1|-1>";
static const char *const expect_each = "each <c>: f=<feature> t=<threshold> pol=<+1|-1>; ... (c stumps)";
static const char *const expect_vote = "vote <c>: f=<feature> t=<threshold> v=<c of + or ->";
static const char *const expect_leaf = "leafclass <c>: f=<feature> t=<threshold> left=<class> right=<class>";

static void *malformed(const char *text, const char *expect, char err[BL_ERR_MAX])
{
    snprintf(err, BL_ERR_MAX, "stump: malformed hypothesis \"%.200s\" (expected \"%s\")", text,
             expect);
    return NULL;
}

static void *oom(char err[BL_ERR_MAX])
{
    snprintf(err, BL_ERR_MAX, "out of memory");
    return NULL;
}

static void *stump_load(const char *text, size_t d, char err[BL_ERR_MAX])
{
    const char *p = text;
    unsigned long long f;
    float t;
    long pol;
    struct stump_hyp *h;

    if (strncmp(p, "f=", 2) == 0) { /* max, l2 */
        int zo = 0, mr;
        if (!(p = bl_stump1_parse_ft(p, &f, &t)) || !(p = bl_stump1_parse_pol(p, &pol)))
            return malformed(text, expect_one, err);
        if (strncmp(p, " out=01", 7) == 0)
            zo = 1, p += 7;
        p = parse_miss(p, &mr);
        if (!bl_stump1_at_end(p))
            return malformed(text, expect_one, err);
        if (check_split(f, pol, d, err) < 0)
            return NULL;
        if (!(h = hyp_new(H_ONE, 1)))
            return oom(err);
        h->s = (struct split1){(size_t)f, t, (int)pol, mr};
        h->zo = zo;
        return h;
    }

    int kind;
    const char *expect;
    if (strncmp(p, "each ", 5) == 0)
        kind = H_EACH, expect = expect_each, p += 5;
    else if (strncmp(p, "vote ", 5) == 0)
        kind = H_VOTE, expect = expect_vote, p += 5;
    else if (strncmp(p, "leafclass ", 10) == 0)
        kind = H_LEAF, expect = expect_leaf, p += 10;
    else
        return malformed(text, expect_one, err);
    unsigned long long c;
    int mr;
    if (!(p = bl_stump1_parse_uint(p, &c)) || strncmp(p, ": ", 2) != 0)
        return malformed(text, expect, err);
    p += 2;
    if (c < (kind == H_LEAF ? 2u : 1u) || c > MAX_OUTDIM) {
        snprintf(err, BL_ERR_MAX, "stump: %llu outputs out of range (%s hypotheses have %u to %zu)",
                 c, kind == H_EACH ? "each" : kind == H_VOTE ? "vote" : "leafclass",
                 kind == H_LEAF ? 2u : 1u, MAX_OUTDIM);
        return NULL;
    }
    if (!(h = hyp_new(kind, (size_t)c)))
        return oom(err);

    if (kind == H_EACH) {
        for (size_t r = 0; r < c; r++) {
            if (r > 0) {
                if (strncmp(p, "; ", 2) != 0)
                    goto bad;
                p += 2;
            }
            if (!(p = bl_stump1_parse_ft(p, &f, &t)) || !(p = bl_stump1_parse_pol(p, &pol)))
                goto bad;
            p = parse_miss(p, &mr);
            if (check_split(f, pol, d, err) < 0)
                goto range;
            h->e[r] = (struct split1){(size_t)f, t, (int)pol, mr};
        }
        if (!bl_stump1_at_end(p))
            goto bad;
        return h;
    }

    if (!(p = bl_stump1_parse_ft(p, &f, &t)))
        goto bad;
    if (check_split(f, 1, d, err) < 0)
        goto range;
    h->s = (struct split1){(size_t)f, t, 1, 0};
    if (kind == H_VOTE) {
        if (strncmp(p, " v=", 3) != 0)
            goto bad;
        p += 3;
        for (size_t r = 0; r < c; r++, p++) {
            if (*p != '+' && *p != '-')
                goto bad;
            h->v[r] = *p == '+' ? 1 : -1;
        }
        p = parse_miss(p, &h->s.mr);
        if (!bl_stump1_at_end(p))
            goto bad;
        return h;
    }
    /* leafclass */
    unsigned long long lq, rq;
    if (strncmp(p, " left=", 6) != 0 || !(p = bl_stump1_parse_uint(p + 6, &lq)) ||
        strncmp(p, " right=", 7) != 0 || !(p = bl_stump1_parse_uint(p + 7, &rq)) ||
        !bl_stump1_at_end(p = parse_miss(p, &h->s.mr)))
        goto bad;
    if (lq >= c || rq >= c) {
        snprintf(err, BL_ERR_MAX, "stump: class %llu out of range (the hypothesis has %llu classes)",
                 lq >= c ? lq : rq, c);
        goto range;
    }
    h->left = (size_t)lq;
    h->right = (size_t)rq;
    return h;

bad:
    stump_free_hyp(h);
    return malformed(text, expect, err);
range:
    stump_free_hyp(h);
    return NULL;
}

static const struct bl_weak_ops stump_ops = {
    .size = sizeof(struct bl_weak_ops),
    .create = stump_create,
    .destroy = stump_destroy,
    .fit = stump_fit,
    .outdim = stump_outdim,
    .predict = stump_predict,
    .save = stump_save,
    .load = stump_load,
    .free_hyp = stump_free_hyp,
    .predict_sparse = stump_predict_sparse,
};

static const struct bl_plugin stump_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_WEAK,
    .name = "stump",
    .doc = "decision stump pol*(x_f > t ? 1 : -1), exact search over the quantized cuts; "
           "per-column, MH-vote and SAMME multi-class forms",
    .params = stump_params,
    .nparams = P_COUNT,
    .ops = &stump_ops,
};

static const struct bl_plugin *const stump_plugins[] = {&stump_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    g_host = host;
    return stump_plugins;
}

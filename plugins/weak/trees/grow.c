/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Trees plugin: best-first tree growth and split search (see grow.h).
 *
 * Per node: the learner's statistics are gathered once into node order
 * (st, n x s with s = 2 npairs), then every feature builds its histogram of
 * st over its bins and scans it left to right (one pair: FG features per
 * pass over the examples, bins added as 4-wide vectors).  The node's
 * examples stay contiguous in `order`, partitioned stably at each split, so
 * the gather reads each feature column in increasing example order.  Every
 * bin's sums are added in example order, so the speed-ups leave the trees
 * bit-identical; only sibling subtraction (grow.h) changes sums.
 *
 * Missing values: for each feature with a missing value on the training set
 * the node's sums M over its examples missing that feature are added up
 * directly (example order, also for a subtracted sibling), and every
 * candidate is also scored with them on the right (left sums L - M); that
 * side wins only with a strictly larger gain and never where it would
 * leave the left empty.  Features without missing values take no extra
 * step, so on complete data the trees are the same bits as without this.
 *
 * Sparse training sets (grow.h): a node's histograms of all features lie in
 * one array.  With subtraction they hold the sums of the CSR entries of the
 * node's rows only, each feature's at coff[f] and only over the bins its
 * entries fall in (a binary feature: one), with the list of the features
 * those touch, and a feature's zero bin is its node's totals minus those
 * sums, filled in as the feature is scanned; a node with more entries than
 * bins is built in two halves of its rows (two threads), then added.
 * Without subtraction (hoff[f], every bin) each
 * feature's column is merged with the node's rows (increasing, as the
 * stable partition keeps them), so every bin, the zero bin too, is added
 * in the order the dense path adds it.
 */
#include "grow.h"
#include "../../common/clones.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#define MAXBINS 256
#define FG 2 /* features a histogram pass takes at once below the root */
/* Sparse sets: a pass over all features' bins runs on several threads only
 * from this many doubles of histograms on; below, a parallel region costs
 * more than the pass (much more on a loaded machine). */
#define PAR_HIST ((size_t)1 << 21)
#define PART_CHUNK ((size_t)16384) /* rows a partition chunk counts and writes */

struct fbest {
    double gain;
    float thr;
    int mr;      /* missing values go right */
};

struct grow {
    const struct bl_train *tr;
    size_t m, d, s_max, max_nodes;
    int nthreads;
    uint32_t *order, *tmp;
    size_t *pcnt;           /* partition: m / PART_CHUNK + 2 chunk counts    */
    double *st;             /* m x s_max: the current node's statistics      */
    double *hist;           /* per thread: hstride histogram scratch        */
    size_t hstride;
    double *lsum;           /* nthreads x (s_max + 1): a scan's left sums   */
    double *ntot;           /* max_nodes x s_max: each evaluated node's totals */
    unsigned char *tdirect; /* max_nodes: ntot is a direct sum (grow_totals)  */
    long *key;              /* max_nodes: each chosen node's statistics key */
    /* sibling subtraction: nslots node histograms (4 doubles a bin, feature
     * f's at hoff[f]), slot_of[node] (-1: none), a stack of free slots */
    double *slot;
    size_t slot_len, nslots, nfree, *hoff;
    int *slot_of, *freeslot;
    unsigned char *isopen;  /* max_nodes: has a split not yet taken         */
    struct fbest *fb;       /* d: each feature's best split of the node      */
    struct gnode *node;     /* 2 J - 1                                      */
    /* exact search: each feature's examples by increasing value, and the
     * position of each example in the current node (-1: not in it) */
    uint32_t *sorted;
    int32_t *where;
    int lt;                 /* the midpoint itself goes right (GROW_EXACT_LT) */
    /* missing values: the features that have some (nmf of them), whether a
     * row misses any feature, and per feature the node's sums M (s_max
     * values, then the count) over its examples missing it */
    uint32_t *mfeat;
    size_t nmf;
    unsigned char *fmiss, *rowmiss;
    double *msum;
    /* sparse training set: hw = s_max + 1 doubles a bin (the sums, then
     * the count), shist one node's histograms when no slot keeps them
     * (hoff's layout without subtraction, else coff's), zsub: zero bins by
     * subtraction */
    const struct bl_sparse *S;
    const struct bl_squantized *SQ;
    size_t hw;
    double *shist;
    int zsub;
    unsigned char *side;    /* m: partition's marks (mark_sides), else 0    */
    uint32_t *ebin;         /* nnz: where each CSR entry's bin starts       */
    /* stored-entry histograms (zsub) hold, per feature, only the bins its
     * entries fall in, clo[f] .. clo[f] + cnb[f] - 1, from coff[f] (hw
     * doubles a bin; slot_len in all): a binary feature's zero bin takes
     * no room, so a node's histograms are half as large (cache) */
    size_t *coff;
    uint8_t *clo;
    uint16_t *cnb;
    size_t full_len;        /* hoff's layout's length (the direct sums')    */
    double *sfull;          /* 2 x MAXBINS x hw: scan_range's bins of a feature */
    double *shalf;          /* slot_len: build_halves' second half, clean   */
    /* subtraction: per slot, then the scratch, the features its stored
     * entries touch (d each) and their number; fstamp: a feature's last
     * build_stored (stamp) */
    uint32_t *touch, *fstamp, stamp;
    size_t *ntouch;
    int profile;            /* BOOSTLAB_PROFILE: prof sums phase times      */
    double prof[GP_N];
};

double grow_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double *grow_profile(struct grow *g)
{
    return g->profile ? g->prof : NULL;
}

static inline double prof_start(const struct grow *g)
{
    return g->profile ? grow_now() : 0.0;
}

static inline void prof_add(struct grow *g, enum grow_phase ph, double t0)
{
    if (g->profile)
        g->prof[ph] += grow_now() - t0;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("trees: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* qsort context is not reentrant in C99: sort (value, index) pairs. */
struct vi {
    float v;
    uint32_t i;
};

/* Increasing value, NaN (missing) first, then by example. */
static int cmp_vi(const void *a, const void *b)
{
    const struct vi *x = a, *y = b;
    int nx = isnan(x->v), ny = isnan(y->v);
    if (nx != ny)
        return nx ? -1 : 1;
    if (!nx && x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Example i misses feature f: the first time, the missing-value tables. */
static void mark_missing(struct grow *g, size_t f, size_t i)
{
    if (!g->mfeat) {
        g->mfeat = xmalloc(g->d * sizeof *g->mfeat);
        g->rowmiss = xmalloc(g->m);
        memset(g->rowmiss, 0, g->m);
        g->fmiss = xmalloc(g->d);
        memset(g->fmiss, 0, g->d);
        g->msum = xmalloc(g->d * (g->s_max + 1) * sizeof *g->msum);
    }
    if (!g->fmiss[f])
        g->mfeat[g->nmf++] = (uint32_t)f;
    g->fmiss[f] = 1;
    g->rowmiss[i] = 1;
}

/* hoff: where feature f's bins (hw doubles each) start in a node's
 * histograms; slot_len: their total. */
static void hist_offsets(struct grow *g)
{
    const struct bl_quantized *Q = &g->tr->Q;
    g->hoff = xmalloc(g->d * sizeof *g->hoff);
    size_t off = 0;
    for (size_t f = 0; f < g->d; f++) {
        g->hoff[f] = off;
        off += g->hw * (size_t)Q->nbins[f];
    }
    g->slot_len = off;
}

/* coff, clo, cnb (struct grow) from the columns' stored bins; slot_len:
 * their total. */
static void stored_offsets(struct grow *g)
{
    const struct bl_sparse *S = g->tr->S;
    g->coff = xmalloc(g->d * sizeof *g->coff);
    g->clo = xmalloc(g->d * sizeof *g->clo);
    g->cnb = xmalloc(g->d * sizeof *g->cnb);
    size_t off = 0;
    for (size_t f = 0; f < g->d; f++) {
        unsigned lo = 255, hi = 0;
        for (size_t e = S->cptr[f]; e < S->cptr[f + 1]; e++) {
            unsigned b = g->tr->SQ->cbin[e];
            lo = b < lo ? b : lo;
            hi = b > hi ? b : hi;
        }
        g->coff[f] = off;
        g->clo[f] = (uint8_t)(lo <= hi ? lo : 0);
        g->cnb[f] = (uint16_t)(lo <= hi ? hi - lo + 1 : 0);
        off += g->hw * g->cnb[f];
    }
    g->slot_len = off;
}

struct grow *grow_new(const struct bl_train *tr, size_t max_pairs, size_t max_leaves,
                      int nthreads, int exact)
{
    size_t m = tr->m, d = tr->d;
    struct grow *g = xmalloc(sizeof *g);
    memset(g, 0, sizeof *g);
    g->tr = tr;
    g->m = m;
    g->d = d;
    g->s_max = 2 * max_pairs;
    g->nthreads = nthreads > 0 ? nthreads : 1;
    g->max_nodes = 2 * max_leaves - 1;
    g->profile = getenv("BOOSTLAB_PROFILE") != NULL;
    g->order = xmalloc(m * sizeof *g->order);
    g->tmp = xmalloc(m * sizeof *g->tmp);
    g->pcnt = xmalloc((m / PART_CHUNK + 2) * sizeof *g->pcnt);
    g->st = xmalloc(m * g->s_max * sizeof *g->st);
    /* one pair: 2 FG histograms of 32-byte bins (so 64-byte aligned); more
     * pairs: one of s_max sums and a count a bin */
    g->hstride = MAXBINS * (g->s_max == 2 ? 8 * FG : g->s_max + 1);
    if (posix_memalign((void **)&g->hist, 64, (size_t)g->nthreads * g->hstride * sizeof *g->hist)) {
        fputs("trees: out of memory\n", stderr);
        abort();
    }
    g->lsum = xmalloc((size_t)g->nthreads * (g->s_max + 1) * sizeof *g->lsum);
    g->ntot = xmalloc(g->max_nodes * g->s_max * sizeof *g->ntot);
    g->tdirect = xmalloc(g->max_nodes);
    g->key = xmalloc(g->max_nodes * sizeof *g->key);
    g->isopen = xmalloc(g->max_nodes);
    g->fb = xmalloc(d * sizeof *g->fb);
    g->node = xmalloc(g->max_nodes * sizeof *g->node);
    if (exact) {
        g->sorted = xmalloc(m * d * sizeof *g->sorted);
        g->where = xmalloc(m * sizeof *g->where);
        struct vi *buf = xmalloc(m * sizeof *buf);
        for (size_t f = 0; f < d; f++) {
            for (size_t i = 0; i < m; i++)
                buf[i] = (struct vi){tr->X.x[f * m + i], (uint32_t)i};
            qsort(buf, m, sizeof *buf, cmp_vi);
            for (size_t i = 0; i < m; i++)
                g->sorted[f * m + i] = buf[i].i;
        }
        free(buf);
        for (size_t i = 0; i < m; i++)
            g->where[i] = -1;
    }
    if (tr->S) {
        g->S = tr->S;
        g->SQ = tr->SQ;
        g->hw = g->s_max + 1;
        hist_offsets(g);
        g->full_len = g->slot_len;
        stored_offsets(g);
        g->shist = xmalloc(g->full_len * sizeof *g->shist);
        g->sfull = xmalloc(2 * MAXBINS * g->hw * sizeof *g->sfull); /* 2 threads' */
        g->shalf = xmalloc(g->slot_len * sizeof *g->shalf);
        memset(g->shalf, 0, g->slot_len * sizeof *g->shalf);
        g->side = xmalloc(m);
        memset(g->side, 0, m);
        memset(g->shist, 0, g->full_len * sizeof *g->shist);
        g->fstamp = xmalloc(d * sizeof *g->fstamp);
        memset(g->fstamp, 0, d * sizeof *g->fstamp);
        g->touch = xmalloc(d * sizeof *g->touch); /* the scratch's; slots_init adds */
        g->ntouch = xmalloc(sizeof *g->ntouch);
        g->ntouch[0] = 0;
        if (g->slot_len > UINT32_MAX) {
            fputs("trees: a node's histograms of this sparse set exceed 2^32 values\n", stderr);
            abort();
        }
        g->ebin = xmalloc(tr->S->nnz * sizeof *g->ebin);
        for (size_t e = 0; e < tr->S->nnz; e++)
            g->ebin[e] = (uint32_t)(g->coff[tr->S->rcol[e]] +
                                    g->hw * (size_t)(tr->SQ->rbin[e] - g->clo[tr->S->rcol[e]]));
        for (size_t i = 0; i < m; i++)
            for (size_t e = tr->S->rptr[i]; e < tr->S->rptr[i + 1]; e++)
                if (isnan(tr->S->rval[e]))
                    mark_missing(g, tr->S->rcol[e], i);
        return g;
    }
    for (size_t f = 0; f < d; f++) {
        const float *x = tr->X.x + f * m;
        for (size_t i = 0; i < m; i++)
            if (isnan(x[i]))
                mark_missing(g, f, i);
    }
    return g;
}

void grow_free(struct grow *g)
{
    if (!g)
        return;
    free(g->order);
    free(g->tmp);
    free(g->pcnt);
    free(g->st);
    free(g->hist);
    free(g->lsum);
    free(g->ntot);
    free(g->tdirect);
    free(g->key);
    free(g->slot);
    free(g->hoff);
    free(g->coff);
    free(g->clo);
    free(g->cnb);
    free(g->sfull);
    free(g->slot_of);
    free(g->freeslot);
    free(g->isopen);
    free(g->fb);
    free(g->node);
    free(g->sorted);
    free(g->where);
    free(g->mfeat);
    free(g->rowmiss);
    free(g->fmiss);
    free(g->msum);
    free(g->shist);
    free(g->shalf);
    free(g->side);
    free(g->ebin);
    free(g->touch);
    free(g->fstamp);
    free(g->ntouch);
    free(g);
}

const double *grow_totals(const struct grow *g, uint32_t node)
{
    return g->tdirect[node] ? g->ntot + (size_t)node * g->s_max : NULL;
}

const struct gnode *grow_nodes(const struct grow *g)
{
    return g->node;
}

const uint32_t *grow_order(const struct grow *g)
{
    return g->order;
}

/* A^2 / B, with B = 0 counted as 1 (the authors' guard). */
static inline double term(double A, double B)
{
    return A * A / (B == 0.0 ? 1.0 : B);
}

/* Gain of sending L (sums, s values) left and T - L right. */
static inline double split_gain(const double *L, const double *T, size_t s)
{
    double g = 0.0;
    for (size_t q = 0; q < s; q += 2)
        g += term(L[q], L[q + 1]) + term(T[q] - L[q], T[q + 1] - L[q + 1]) - term(T[q], T[q + 1]);
    return 0.5 * g;
}

/* split_gain with the left sums L - M (the missing rows sent right). */
static inline double split_gain_mr(const double *L, const double *M, const double *T, size_t s)
{
    double g = 0.0;
    for (size_t q = 0; q < s; q += 2) {
        double A = L[q] - M[q], B = L[q + 1] - M[q + 1];
        g += term(A, B) + term(T[q] - A, T[q + 1] - B) - term(T[q], T[q + 1]);
    }
    return 0.5 * g;
}

/* The node's sums M over its examples idx[0..n) (statistics st, n x s in
 * that order) missing each feature that has missing values, in example
 * order; a feature whose count M[s] is 0 has none in the node. */
static void missing_sums(struct grow *g, const uint32_t *idx, size_t n, const double *st,
                         size_t s)
{
    size_t w = g->s_max + 1;
    if (!g->nmf)
        return;
    if (g->S) { /* the rows' stored NaN entries, rows in order */
        for (size_t u = 0; u < g->nmf; u++)
            memset(g->msum + g->mfeat[u] * w, 0, (s + 1) * sizeof *g->msum);
        for (size_t j = 0; j < n; j++) {
            size_t i = idx[j];
            if (!g->rowmiss[i])
                continue;
            for (size_t e = g->S->rptr[i]; e < g->S->rptr[i + 1]; e++)
                if (isnan(g->S->rval[e])) {
                    double *M = g->msum + (size_t)g->S->rcol[e] * w;
                    for (size_t q = 0; q < s; q++)
                        M[q] += st[s * j + q];
                    M[s] += 1.0;
                }
        }
        return;
    }
    for (size_t u = 0; u < g->nmf; u++) {
        size_t f = g->mfeat[u];
        const float *x = g->tr->X.x + f * g->m;
        double *M = g->msum + f * w;
        memset(M, 0, (s + 1) * sizeof *M);
        for (size_t j = 0; j < n; j++)
            if (isnan(x[idx[j]])) {
                for (size_t q = 0; q < s; q++)
                    M[q] += st[s * j + q];
                M[s] += 1.0;
            }
    }
}

/* Feature f's sums M for the current node, or NULL when none of its
 * examples misses f. */
static const double *msum_of(const struct grow *g, size_t f, size_t s)
{
    if (!g->nmf || !g->fmiss[f])
        return NULL;
    const double *M = g->msum + f * (g->s_max + 1);
    return M[s] > 0.0 ? M : NULL;
}

/* One-pair histograms (the AOSO, ABC, LogitBoost and MART trees): a bin is
 * (sum a, sum b, count, pad), 32 bytes, updated as one 4-wide vector add
 * (one instruction with AVX; GCC builds an AVX2 clone and picks it at load
 * time; the sums are the same lane by lane).  Two histograms per feature,
 * even and odd examples, so that runs of one bin (a background pixel) do
 * not chain every add to the previous one; the caller adds them.  The
 * example is j itself (seq: the root, whose examples are 0 .. n-1) or
 * idx[j].  (A row-blocked copy of the bins, 8 features a block, so that a
 * small node reads only its own rows, was twice as slow on Fashion-MNIST:
 * 16 histograms of 8 KB do not stay in L1.) */
typedef double v4d __attribute__((vector_size(32)));


#define ROW_SEQ(j) (j)
#define ROW_IDX(j) idx[j]

/* NF features at once over idx: each example's index and statistics are
 * loaded once for all of them (the same sums, bin by bin, as one feature at
 * a time).  h[2t], h[2t + 1]: feature t's even and odd histograms. */
#define HIST_GROUP_BODY(ROW, NF)                                                 \
    v4d *H[2 * NF];                                                              \
    const uint8_t *c[NF];                                                        \
    for (int t = 0; t < NF; t++) {                                               \
        H[2 * t] = (v4d *)h[2 * t];                                              \
        H[2 * t + 1] = (v4d *)h[2 * t + 1];                                      \
        c[t] = col[t];                                                           \
    }                                                                            \
    size_t j = 0;                                                                \
    for (; j + 1 < n; j += 2) {                                                  \
        size_t i0 = ROW(j), i1 = ROW(j + 1);                                     \
        v4d v0 = {st[2 * j], st[2 * j + 1], 1.0, 0.0};                           \
        v4d v1 = {st[2 * j + 2], st[2 * j + 3], 1.0, 0.0};                       \
        for (int t = 0; t < NF; t++) {                                           \
            H[2 * t][c[t][i0]] += v0;                                            \
            H[2 * t + 1][c[t][i1]] += v1;                                        \
        }                                                                        \
    }                                                                            \
    if (j < n) {                                                                 \
        v4d v0 = {st[2 * j], st[2 * j + 1], 1.0, 0.0};                           \
        for (int t = 0; t < NF; t++)                                             \
            H[2 * t][c[t][ROW(j)]] += v0;                                        \
    }

BL_CLONES static void hist_group_seq(double *const *restrict h, const uint8_t *const *restrict col,
                                     const double *restrict st, size_t n)
{
    HIST_GROUP_BODY(ROW_SEQ, FG)
}

BL_CLONES static void hist_group_idx(double *const *restrict h, const uint8_t *const *restrict col,
                                     const uint32_t *restrict idx, const double *restrict st,
                                     size_t n)
{
    HIST_GROUP_BODY(ROW_IDX, FG)
}

/* One feature a pass: for more passes than threads when features are few. */
BL_CLONES static void hist_one_seq(double *const *restrict h, const uint8_t *const *restrict col,
                                   const double *restrict st, size_t n)
{
    HIST_GROUP_BODY(ROW_SEQ, 1)
}

BL_CLONES static void hist_one_idx(double *const *restrict h, const uint8_t *const *restrict col,
                                   const uint32_t *restrict idx, const double *restrict st,
                                   size_t n)
{
    HIST_GROUP_BODY(ROW_IDX, 1)
}

/* Scan of feature f's histogram h (nb bins of w doubles: the s sums, then
 * the count) of a node of n examples with totals T, left to right: the
 * best threshold, skipping splits with an empty side; M (or NULL): the
 * sums over the node's examples missing f, also tried on the right. */
static struct fbest scan_bins(const struct grow *g, size_t f, const double *h, size_t w,
                              size_t n, size_t s, const double *T, double *Ls, const double *M)
{
    struct fbest best = {-HUGE_VAL, 0, 0};
    const struct bl_quantized *Q = &g->tr->Q;
    size_t nb = Q->nbins[f];
    double left = 0.0, nd = (double)n;
    if (s == 2) { /* one pair: split_gain with the node's own term hoisted */
        double L0 = 0.0, L1 = 0.0, tT = term(T[0], T[1]);
        for (size_t b = 0; b + 1 < nb; b++) {
            const double *hb = h + w * b;
            if (hb[2] == 0.0)
                continue;
            L0 += hb[0];
            L1 += hb[1];
            left += hb[2];
            if (left >= nd)
                break;
            double gain = 0.5 * ((term(L0, L1) + term(T[0] - L0, T[1] - L1)) - tT);
            if (gain > best.gain)
                best = (struct fbest){gain, Q->cut[f][b], 0};
            if (M && left > M[2]) { /* missing right, a present value left */
                double A = L0 - M[0], B = L1 - M[1];
                gain = 0.5 * ((term(A, B) + term(T[0] - A, T[1] - B)) - tT);
                if (gain > best.gain)
                    best = (struct fbest){gain, Q->cut[f][b], 1};
            }
        }
        return best;
    }
    memset(Ls, 0, s * sizeof *Ls);
    for (size_t b = 0; b + 1 < nb; b++) {
        const double *hb = h + w * b;
        if (hb[s] == 0.0)
            continue;
        for (size_t q = 0; q < s; q++)
            Ls[q] += hb[q];
        left += hb[s];
        if (left >= nd)
            break;
        double gain = split_gain(Ls, T, s);
        if (gain > best.gain)
            best = (struct fbest){gain, Q->cut[f][b], 0};
        if (M && left > M[s]) {
            gain = split_gain_mr(Ls, M, T, s);
            if (gain > best.gain)
                best = (struct fbest){gain, Q->cut[f][b], 1};
        }
    }
    return best;
}

/* Histogram search of feature f over the node's n examples idx (seq: they
 * are 0 .. n-1) with statistics st (n x s, several pairs; one pair takes
 * search_group) and totals T; h is scratch for MAXBINS bins of s + 1
 * doubles (the sums of st, then the example count), Ls s + 1 scratch. */
static struct fbest search_bins(const struct grow *g, size_t f, const uint32_t *idx, size_t n,
                                int seq, const double *st, size_t s, const double *T, double *h,
                                double *Ls)
{
    const struct bl_quantized *Q = &g->tr->Q;
    size_t nb = Q->nbins[f], w = s + 1;
    if (nb < 2)
        return (struct fbest){-HUGE_VAL, 0, 0};
    const uint8_t *col = Q->bins + f * g->m;
    memset(h, 0, nb * w * sizeof *h);
    for (size_t j = 0; j < n; j++) {
        double *hb = h + w * (size_t)col[seq ? j : idx[j]];
        const double *sj = st + s * j;
        for (size_t q = 0; q < s; q++)
            hb[q] += sj[q];
        hb[s] += 1.0;
    }
    return scan_bins(g, f, h, w, n, s, T, Ls, msum_of(g, f, s));
}

/* One-pair search of the nf <= FG features f .. f + nf - 1 over idx (seq:
 * the root), into fb[f ..]; h holds 2 FG histograms.  nf = 1 takes the
 * one-feature kernel; else short of FG, the kernel's spare columns repeat
 * the last feature into histograms that are not scanned.  A constant feature (one bin) gets no candidate.  keep: the
 * merged histograms go there (at hoff); T = NULL: only that, no scan. */
static void search_group(struct grow *g, size_t f, size_t nf, const uint32_t *idx, size_t n,
                         int seq, const double *st, const double *T, double *h, double *Ls,
                         double *keep)
{
    const struct bl_quantized *Q = &g->tr->Q;
    double *hb[2 * FG];
    const uint8_t *col[FG];
    for (size_t t = 0; t < FG; t++) {
        size_t ft = f + (t < nf ? t : nf - 1);
        col[t] = Q->bins + ft * g->m;
        for (size_t e = 2 * t; e < 2 * t + 2; e++) {
            hb[e] = h + 4 * MAXBINS * e;
            memset(hb[e], 0, 4 * Q->nbins[ft] * sizeof *h);
        }
    }
    if (nf == 1 && seq)
        hist_one_seq(hb, col, st, n);
    else if (nf == 1)
        hist_one_idx(hb, col, idx, st, n);
    else if (seq)
        hist_group_seq(hb, col, st, n);
    else
        hist_group_idx(hb, col, idx, st, n);
    for (size_t t = 0; t < nf; t++) {
        double *h0 = hb[2 * t], *h1 = hb[2 * t + 1];
        size_t nb = Q->nbins[f + t];
        double *hs = keep ? keep + g->hoff[f + t] : h0; /* the merged bins */
        for (size_t q = 0; q < 4 * nb; q++)
            hs[q] = h0[q] + h1[q];
        if (T)
            g->fb[f + t] = scan_bins(g, f + t, hs, 4, n, 2, T, Ls, msum_of(g, f + t, 2));
    }
}

/* Exact search of feature f: examples of the node in increasing value
 * (missing first), a candidate between each two distinct values, threshold
 * at the midpoint (or the lower value when the midpoint rounds up to the
 * upper one; just below the upper one after missing values, which go left;
 * with lt just below the midpoint, so that a value equal to it, which the
 * node does not hold, goes right as in the authors' code's x < thr);
 * with missing values in the node (M) each also with them on the right. */
static struct fbest search_sorted(const struct grow *g, size_t f, size_t n, const double *st,
                                  size_t s, const double *T, double *Ls)
{
    struct fbest best = {-HUGE_VAL, 0, 0};
    const double *M = msum_of(g, f, s);
    const uint32_t *ord = g->sorted + f * g->m;
    const float *x = g->tr->X.x + f * g->m;
    memset(Ls, 0, s * sizeof *Ls);
    size_t seen = 0;
    float prev = 0;
    for (size_t t = 0; t < g->m && seen < n; t++) {
        uint32_t i = ord[t];
        int32_t w = g->where[i];
        if (w < 0)
            continue;
        if (seen > 0 && x[i] != prev && !isnan(x[i])) { /* NaN only follows NaN */
            float mid = (float)(0.5 * ((double)prev + (double)x[i]));
            float thr = isnan(prev) ? nextafterf(x[i], -INFINITY) : mid < x[i] ? mid : prev;
            if (g->lt && !isnan(prev) && prev < mid && mid < x[i])
                thr = nextafterf(mid, -INFINITY); /* left iff x < mid */
            double gain = split_gain(Ls, T, s);
            if (gain > best.gain)
                best = (struct fbest){gain, thr, 0};
            if (M && (double)seen > M[s]) {
                gain = split_gain_mr(Ls, M, T, s);
                if (gain > best.gain)
                    best = (struct fbest){gain, thr, 1};
            }
        }
        const double *sj = st + s * (size_t)w;
        for (size_t q = 0; q < s; q++)
            Ls[q] += sj[q];
        prev = x[i];
        seen++;
    }
    return best;
}

/* The node's best split among the features' (fb): its feat (or -1), thr
 * and gain; feature order, first best, so thread-count free. */
static void pick_best(struct grow *g, struct gnode *nd)
{
    nd->gain = -HUGE_VAL;
    nd->feat = -1;
    for (size_t f = 0; f < g->d; f++)
        if (g->fb[f].gain > nd->gain) {
            nd->gain = g->fb[f].gain;
            nd->feat = (int32_t)f;
            nd->thr = g->fb[f].thr;
            nd->mr = g->fb[f].mr;
        }
}

/* The statistics of node `as` over the n examples idx into st, and their
 * totals (s values) into T. */
static void fill_totals(struct grow *g, const struct grow_stats *gs, uint32_t as,
                        const uint32_t *idx, size_t n, size_t s, double *T)
{
    double t0 = prof_start(g);
    gs->fill(gs->ctx, as, idx, n, g->st);
    memset(T, 0, s * sizeof *T);
    for (size_t j = 0; j < n; j++)
        for (size_t q = 0; q < s; q++)
            T[q] += g->st[s * j + q];
    prof_add(g, GP_FILL, t0);
}

/* One-pair histograms of st over idx (seq: the root), FG features a pass,
 * or one when that leaves threads idle (few features), threads over the
 * passes: kept in keep (or NULL), scanned into fb with
 * totals T (or not, T = NULL). */
static void group_passes(struct grow *g, const uint32_t *idx, size_t n, int seq, const double *T,
                         double *keep)
{
    size_t d = g->d;
    int nt = g->nthreads < (int)d ? g->nthreads : (int)d;
    (void)nt;
    double t0 = prof_start(g);
    long step = nt > 1 && (d + FG - 1) / FG < (size_t)nt ? 1 : FG;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (nt > 1 && n >= 256)
#endif
    for (long f = 0; f < (long)d; f += step) {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        size_t nf = d - (size_t)f < (size_t)step ? d - (size_t)f : (size_t)step;
        search_group(g, (size_t)f, nf, idx, n, seq, g->st, T, g->hist + (size_t)tid * g->hstride,
                     g->lsum + (size_t)tid * (g->s_max + 1), keep);
    }
    prof_add(g, GP_HIST, t0);
}

/* ---- sparse training sets ------------------------------------------------ */

/* With subtraction a sparse node's histograms hold its rows' stored
 * entries only, and a list of the features they touch; the zero bins are
 * filled in when a feature is scanned.  So building costs the rows'
 * entries, scanning and subtracting the features touched.  A buffer not in
 * use is all zeros (clear_stored), whatever node last used it. */

/* The touched list of buffer h: a slot's, or the scratch's (shist). */
static uint32_t *touched(struct grow *g, const double *h, size_t **nt)
{
    if (h == g->shist) {
        *nt = &g->ntouch[g->nslots];
        return g->touch + g->nslots * g->d;
    }
    size_t q = (size_t)(h - g->slot) / g->slot_len;
    *nt = &g->ntouch[q];
    return g->touch + q * g->d;
}

static void clear_stored(struct grow *g, double *h)
{
    size_t *nt, w = g->hw;
    const uint32_t *tl = touched(g, h, &nt);
    if (*nt > g->d / 8) /* one sequential pass beats scattered ones */
        memset(h, 0, g->slot_len * sizeof *h);
    else
        for (size_t t = 0; t < *nt; t++)
            memset(h + g->coff[tl[t]], 0, w * g->cnb[tl[t]] * sizeof *h);
    *nt = 0;
}

/* One stored entry of a row with statistics sj (s values) into its bin hb:
 * the sums, then the count. */
static inline void add_entry(double *restrict hb, const double *restrict sj, size_t s)
{
    if (s == 2) { /* one pair: the common case, unrolled */
        hb[0] += sj[0];
        hb[1] += sj[1];
        hb[2] += 1.0;
        return;
    }
    for (size_t q = 0; q < s; q++)
        hb[q] += sj[q];
    hb[s] += 1.0;
}

/* The stored entries of rows idx[j0 .. j1) (seq: j itself), statistics
 * g->st, added into h; no touched list. */
static void add_entries(const struct grow *g, const uint32_t *idx, size_t j0, size_t j1, int seq,
                        size_t s, double *restrict h)
{
    const size_t *rptr = g->S->rptr;
    const uint32_t *ebin = g->ebin;
    for (size_t j = j0; j < j1; j++) {
        size_t i = seq ? j : idx[j];
        const double *sj = g->st + s * j;
        for (size_t e = rptr[i]; e < rptr[i + 1]; e++)
            add_entry(h + ebin[e], sj, s);
    }
}

/* build_stored for a node whose entries outnumber all features' bins: no
 * touched list (every feature listed), and the rows in two halves, the
 * second into the clean buffer g->shalf, on two threads when there are,
 * then added to the first: the same sums on any number of threads. */
static void build_halves(struct grow *g, const uint32_t *idx, size_t n, int seq, size_t s,
                         double *h)
{
    size_t *nt, half = n / 2;
    uint32_t *tl = touched(g, h, &nt);
    double *h2 = g->shalf;
#ifdef _OPENMP
#pragma omp parallel sections num_threads(2) if (g->nthreads > 1)
#endif
    {
#ifdef _OPENMP
#pragma omp section
#endif
        add_entries(g, idx, 0, half, seq, s, h);
#ifdef _OPENMP
#pragma omp section
#endif
        add_entries(g, idx, half, n, seq, s, h2);
    }
    for (size_t q = 0; q < g->slot_len; q++)
        h[q] += h2[q];
    memset(h2, 0, g->slot_len * sizeof *h2);
    for (size_t f = 0; f < g->d; f++)
        tl[f] = (uint32_t)f;
    *nt = g->d;
}

/* The stored entries of rows idx (seq: 0 .. n-1), statistics g->st, into
 * the clean buffer h, and the features they touch into its list. */
static void build_stored(struct grow *g, const uint32_t *idx, size_t n, int seq, size_t s,
                         double *h)
{
    const size_t *rptr = g->S->rptr;
    const uint32_t *rcol = g->S->rcol, *ebin = g->ebin;
    /* the rows' entries, estimated from the set's mean */
    if ((double)n * (double)g->S->nnz >= (double)g->m * (double)(g->slot_len / g->hw)) {
        build_halves(g, idx, n, seq, s, h);
        return;
    }
    size_t *nt;
    uint32_t *tl = touched(g, h, &nt), stamp = ++g->stamp;
    if (stamp == 0) { /* wrapped: no feature may look touched */
        memset(g->fstamp, 0, g->d * sizeof *g->fstamp);
        stamp = g->stamp = 1;
    }
    for (size_t j = 0; j < n; j++) {
        size_t i = seq ? j : idx[j];
        const double *sj = g->st + s * j;
        for (size_t e = rptr[i]; e < rptr[i + 1]; e++) {
            if (g->fstamp[rcol[e]] != stamp) {
                g->fstamp[rcol[e]] = stamp;
                tl[(*nt)++] = rcol[e];
            }
            add_entry(h + ebin[e], sj, s);
        }
    }
}

/* scan_stored's copy, zero-bin fill and scan_bins for a feature of two
 * bins, one pair and no missing values (a binary word feature): its one
 * candidate's gain, the same operations on the same values; h0, h1: the
 * stored sums of its bins, tT = term(T[0], T[1]), c: the node's rows
 * without an entry (> 0 fills the zero bin).  Its threshold, cut[f][0], is
 * left to the caller to read for the feature it keeps: a load from each
 * feature's own cut array cost half of a scan of all features. */
static struct fbest scan_two(const struct grow *g, size_t f, const double *h0, const double *h1,
                             size_t n, const double *T, double tT, double c)
{
    double b0[3] = {h0[0], h0[1], h0[2]};
    if (c > 0.0 && g->SQ->zbin[f] == 0) {
        b0[0] += T[0] - h0[0] - h1[0];
        b0[1] += T[1] - h0[1] - h1[1];
        b0[2] += c;
    }
    if (b0[2] == 0.0 || 0.0 + b0[2] >= (double)n)
        return (struct fbest){-HUGE_VAL, 0, 0};
    double L0 = 0.0 + b0[0], L1 = 0.0 + b0[1];
    double gain = 0.5 * ((term(L0, L1) + term(T[0] - L0, T[1] - L1)) - tT);
    return (struct fbest){gain > -HUGE_VAL ? gain : -HUGE_VAL, 0, 0};
}

/* The best split (gain, feat, thr, mr into b) among the features at
 * positions t0 .. t1 of the node's list (all: features t0 .. t1 - 1), of
 * stored-entry histograms h, n rows, totals T (tT = term(T[0], T[1]) with
 * one pair); scratch of thread tid.  Features in list order, the lowest
 * feature winning a tie, as pick_best. */
static void scan_range(struct grow *g, struct gnode *b, const double *h, size_t s,
                       const double *T, double tT, size_t n, int all, size_t t0, size_t t1,
                       size_t tid)
{
    size_t *nt, w = g->hw;
    const uint32_t *tl = touched(g, h, &nt);
    double *buf = g->hist + tid * g->hstride, *Ls = g->lsum + tid * (g->s_max + 1);
    b->gain = -HUGE_VAL;
    b->feat = -1;
    for (size_t t = t0; t < t1; t++) {
        size_t f = all ? t : tl[t], nb = g->tr->Q.nbins[f], cb = g->cnb[f];
        const double *hc = h + g->coff[f];
        double c = (double)n;
        for (size_t q = 0; q < cb; q++)
            c -= hc[w * q + s];
        if (nb < 2 || c == (double)n)
            continue; /* nothing stored in the node: one bin */
        const double *M = msum_of(g, f, s);
        struct fbest fb;
        int two = nb == 2 && s == 2 && !M;
        if (two) { /* binary features: one candidate */
            static const double none[3] = {0.0, 0.0, 0.0};
            const double *b0 = g->clo[f] == 0 ? hc : none;
            const double *b1 = g->clo[f] == 1 ? hc : cb == 2 ? hc + w : none;
            fb = scan_two(g, f, b0, b1, n, T, tT, c);
        } else {
            /* all bins, those no entry falls in 0 (as in a full layout) */
            double *hf = g->sfull + tid * MAXBINS * w;
            memset(hf, 0, w * nb * sizeof *hf);
            memcpy(hf + w * g->clo[f], hc, w * cb * sizeof *hf);
            memcpy(buf, hf, w * nb * sizeof *buf);
            if (c > 0.0) {
                double *z = buf + w * g->SQ->zbin[f];
                for (size_t q = 0; q < s; q++) {
                    double rest = T[q];
                    for (size_t r = 0; r < nb; r++)
                        rest -= hf[w * r + q];
                    z[q] += rest;
                }
                z[s] += c;
            }
            fb = scan_bins(g, f, buf, w, n, s, T, Ls, M);
        }
        if (fb.gain > b->gain || (fb.gain == b->gain && (int32_t)f < b->feat)) {
            b->gain = fb.gain;
            b->feat = (int32_t)f;
            b->thr = two ? g->tr->Q.cut[f][0] : fb.thr; /* taken: gain > -inf */
            b->mr = fb.mr;
        }
    }
}

/* The best split of node nd (n rows, totals T) over the features touched
 * in its stored-entry histograms h: each feature's bins with its zero bin
 * filled in (T minus the stored sums; counts exact), scanned.  A node that
 * touches many features scans all of them in order (sequential reads), in
 * two halves on two threads when there are: the first half's best unless
 * the second's is strictly better, as one pass would choose. */
static void scan_stored(struct grow *g, struct gnode *nd, double *h, size_t s, const double *T)
{
    size_t *nt, n = nd->hi - nd->lo;
    touched(g, h, &nt);
    double tT = s == 2 ? term(T[0], T[1]) : 0.0;
    int all = *nt > g->d / 8;
    size_t nf = all ? g->d : *nt;
    struct gnode b[2];
    if (!all || g->nthreads < 2 || nf < 4096) {
        scan_range(g, b, h, s, T, tT, n, all, 0, nf, 0);
    } else {
#ifdef _OPENMP
#pragma omp parallel sections num_threads(2)
#endif
        {
#ifdef _OPENMP
#pragma omp section
#endif
            scan_range(g, &b[0], h, s, T, tT, n, 1, 0, nf / 2, 0);
#ifdef _OPENMP
#pragma omp section
#endif
            scan_range(g, &b[1], h, s, T, tT, n, 1, nf / 2, nf, 1);
        }
        if (b[1].gain > b[0].gain)
            b[0] = b[1];
    }
    nd->gain = b[0].gain;
    nd->feat = b[0].feat;
    nd->thr = b[0].thr;
    nd->mr = b[0].mr;
}

static inline size_t thread_id(void)
{
#ifdef _OPENMP
    return (size_t)omp_get_thread_num();
#else
    return 0;
#endif
}

/* Without subtraction, a node's complete histograms (the zero bins too)
 * as direct sums into h (hoff layout): each feature's column
 * merged with the node's rows, which are increasing, every bin added in
 * the dense path's order (one pair: even and odd rows apart, then added,
 * as hist_group; more: rows in order, as search_bins), so the same bits.
 * O(n) a feature: a reference, not a fast path. */
static void sparse_hists_direct(struct grow *g, const uint32_t *idx, size_t n, int seq,
                                size_t s, double *h)
{
    const struct bl_sparse *S = g->S;
    const struct bl_quantized *Q = &g->tr->Q;
    size_t w = g->hw, d = g->d;
    int nt = g->nthreads < (int)d ? g->nthreads : (int)d;
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 16) num_threads(nt) if (nt > 1 && n >= 256)
#endif
    for (long f = 0; f < (long)d; f++) {
        size_t nb = Q->nbins[f], p = S->cptr[f], pe = S->cptr[f + 1];
        double *hf = h + g->hoff[f], *odd = s == 2 ? g->hist + thread_id() * g->hstride : hf;
        memset(hf, 0, w * nb * sizeof *hf);
        memset(odd, 0, w * nb * sizeof *odd);
        for (size_t j = 0; j < n; j++) {
            size_t i = seq ? j : idx[j];
            while (p < pe && S->crow[p] < i)
                p++;
            size_t b = p < pe && S->crow[p] == i ? g->SQ->cbin[p] : g->SQ->zbin[f];
            double *hb = ((j & 1) ? odd : hf) + w * b;
            for (size_t q = 0; q < s; q++)
                hb[q] += g->st[s * j + q];
            hb[s] += 1.0;
        }
        if (odd != hf)
            for (size_t q = 0; q < w * nb; q++)
                hf[q] += odd[q];
    }
}

/* The node's histograms into keep, else the scratch; with scan, its best
 * split (totals T) into nd.  With subtraction, stored entries only
 * (build_stored), the scratch cleared after the scan; without, complete
 * direct sums (sparse_hists_direct) scanned as on dense data. */
static void sparse_search(struct grow *g, struct gnode *nd, const uint32_t *idx, size_t n,
                          int seq, size_t s, const double *T, int scan, double *keep)
{
    double *h = keep ? keep : g->shist;
    if (g->zsub) {
        build_stored(g, idx, n, seq, s, h);
        if (scan)
            scan_stored(g, nd, h, s, T);
        if (!keep)
            clear_stored(g, h);
        return;
    }
    sparse_hists_direct(g, idx, n, seq, s, h);
    if (!scan)
        return;
    for (size_t f = 0; f < g->d; f++)
        g->fb[f] = g->tr->Q.nbins[f] < 2
                       ? (struct fbest){-HUGE_VAL, 0, 0}
                       : scan_bins(g, f, h + g->hoff[f], g->hw, n, s, T, g->lsum,
                                   msum_of(g, f, s));
    pick_best(g, nd);
}

/* The node's best split from its examples (chosen already): fills its
 * statistics, totals and feat (or -1), thr and gain; keep (one pair, bins):
 * where its histograms are kept for its children, or NULL. */
static void evaluate(struct grow *g, uint32_t id, const struct grow_stats *gs, int exact,
                     double *keep)
{
    struct gnode *nd = &g->node[id];
    size_t n = nd->hi - nd->lo, s = 2 * gs->npairs, d = g->d;
    const uint32_t *idx = g->order + nd->lo;
    double *Tp = g->ntot + (size_t)id * g->s_max;
    fill_totals(g, gs, id, idx, n, s, Tp);
    g->tdirect[id] = 1;
    missing_sums(g, idx, n, g->st, s);
    int seq = nd->lo == 0 && n == g->m && id == 0; /* the root: order is 0..m-1 */
    if (g->S) {
        double t0 = prof_start(g);
        sparse_search(g, nd, idx, n, seq, s, Tp, 1, keep);
        prof_add(g, GP_HIST, t0);
        return;
    }
    if (s == 2 && !exact) { /* one pair: features FG at a time */
        group_passes(g, idx, n, seq, Tp, keep);
        pick_best(g, nd);
        return;
    }
    double t0 = prof_start(g);
    if (exact)
        for (size_t j = 0; j < n; j++)
            g->where[idx[j]] = (int32_t)j;
    int nt = g->nthreads < (int)d ? g->nthreads : (int)d;
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (nt > 1 && n >= 256)
#endif
    for (long f = 0; f < (long)d; f++) {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        double *h = g->hist + (size_t)tid * g->hstride;
        double *Ls = g->lsum + (size_t)tid * (g->s_max + 1);
        g->fb[f] = exact ? search_sorted(g, (size_t)f, n, g->st, s, Tp, Ls)
                         : search_bins(g, (size_t)f, idx, n, seq, g->st, s, Tp, h, Ls);
    }
    if (exact)
        for (size_t j = 0; j < n; j++)
            g->where[idx[j]] = -1;
    prof_add(g, GP_HIST, t0);
    pick_best(g, nd);
}

/* ---- sibling subtraction (one pair, bins) ------------------------------- */

static double *slot_at(const struct grow *g, int q)
{
    return g->slot + (size_t)q * g->slot_len;
}

/* Slots for every open node, the one a split adds and a scratch one: at
 * most J + 2 (the bins of all features, 4 doubles each, per slot), made on
 * first use. */
static void slots_init(struct grow *g)
{
    if (!g->hoff) { /* a sparse set has them, 4 doubles a bin with one pair */
        g->hw = 4;
        hist_offsets(g);
    }
    g->nslots = (g->max_nodes + 1) / 2 + 2;
    /* a sparse set's slots start clean: calloc's pages, which take memory
     * only once a tree uses their slot (slot_take reuses the last freed) */
    g->slot = g->S ? calloc(g->nslots * g->slot_len, sizeof *g->slot)
                   : xmalloc(g->nslots * g->slot_len * sizeof *g->slot);
    if (!g->slot) {
        fputs("trees: out of memory\n", stderr);
        abort();
    }
    if (g->S) { /* lists for the slots and then the scratch */
        g->touch = realloc(g->touch, (g->nslots + 1) * g->d * sizeof *g->touch);
        g->ntouch = realloc(g->ntouch, (g->nslots + 1) * sizeof *g->ntouch);
        if (!g->touch || !g->ntouch) {
            fputs("trees: out of memory\n", stderr);
            abort();
        }
        memset(g->ntouch, 0, (g->nslots + 1) * sizeof *g->ntouch);
    }
    g->slot_of = xmalloc(g->max_nodes * sizeof *g->slot_of);
    g->freeslot = xmalloc(g->nslots * sizeof *g->freeslot);
}

static int slot_take(struct grow *g, uint32_t node)
{
    int q = g->freeslot[--g->nfree];
    g->slot_of[node] = q;
    return q;
}

static void slot_drop(struct grow *g, uint32_t node)
{
    if (g->slot_of[node] >= 0 && g->S)
        clear_stored(g, slot_at(g, g->slot_of[node]));
    if (g->slot_of[node] >= 0)
        g->freeslot[g->nfree++] = g->slot_of[node];
    g->slot_of[node] = -1;
}

/* The larger child B of parent v: B's histograms are v's minus hs, those
 * of the smaller child's examples in v's statistics (totals Ts), in v's
 * slot, which B takes over; its totals v's minus Ts. */
static void subtract_scan(struct grow *g, const struct grow_stats *gs, uint32_t B, uint32_t v,
                          const double *hs, const double *Ts)
{
    struct gnode *nd = &g->node[B];
    const struct bl_quantized *Q = &g->tr->Q;
    size_t n = nd->hi - nd->lo, d = g->d;
    double *T = g->ntot + (size_t)B * g->s_max;
    const double *Tv = g->ntot + (size_t)v * g->s_max;
    g->tdirect[B] = 0;
    T[0] = Tv[0] - Ts[0];
    T[1] = Tv[1] - Ts[1];
    if (g->nmf) { /* M directly: B's statistics (v's) for its rows missing a value */
        const uint32_t *idx = g->order + nd->lo;
        size_t nm = 0;
        for (size_t j = 0; j < n; j++)
            if (g->rowmiss[idx[j]])
                g->tmp[nm++] = idx[j];
        gs->fill(gs->ctx, B, g->tmp, nm, g->st);
        missing_sums(g, g->tmp, nm, g->st, 2);
    }
    double *hv = slot_at(g, g->slot_of[v]);
    g->slot_of[B] = g->slot_of[v];
    g->slot_of[v] = -1;
    if (g->S) { /* v's stored entries minus S's, where S has some */
        size_t *ns;
        const uint32_t *tl = touched(g, hs, &ns);
        for (size_t t = 0; t < *ns; t++) {
            size_t o = g->coff[tl[t]];
            for (size_t q = 0; q < g->hw * (size_t)g->cnb[tl[t]]; q++)
                hv[o + q] -= hs[o + q];
        }
        scan_stored(g, nd, hv, 2, T);
        return;
    }
    int nt = g->nthreads < (int)d ? g->nthreads : (int)d;
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 8) num_threads(nt) if (nt > 1 && d >= 16 && (!g->S || g->slot_len >= PAR_HIST))
#endif
    for (long f = 0; f < (long)d; f++) {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        size_t nb = Q->nbins[f];
        if (nb < 2) {
            g->fb[f] = (struct fbest){-HUGE_VAL, 0, 0};
            continue;
        }
        double *h = hv + g->hoff[f];
        const double *hsf = hs + g->hoff[f];
        for (size_t q = 0; q < 4 * nb; q++)
            h[q] -= hsf[q];
        g->fb[f] = scan_bins(g, (size_t)f, h, 4, n, 2, T, g->lsum + (size_t)tid * (g->s_max + 1),
                             msum_of(g, (size_t)f, 2));
    }
    pick_best(g, nd);
}

/* subtract_scan, timed */
static void evaluate_sub(struct grow *g, const struct grow_stats *gs, uint32_t B, uint32_t v,
                         const double *hs, const double *Ts)
{
    double t0 = prof_start(g);
    subtract_scan(g, gs, B, v, hs, Ts);
    prof_add(g, GP_SUB, t0);
}

/* The histograms of node S's examples in node v's statistics (fill for v
 * over S's examples), into slot q, not scanned; their totals into T. */
static void build_as(struct grow *g, const struct grow_stats *gs, uint32_t S, uint32_t v, int q,
                     double *T)
{
    const struct gnode *nd = &g->node[S];
    size_t n = nd->hi - nd->lo;
    const uint32_t *idx = g->order + nd->lo;
    fill_totals(g, gs, v, idx, n, 2, T);
    if (g->S)
        sparse_search(g, NULL, idx, n, 0, 2, T, 0, slot_at(g, q));
    else
        group_passes(g, idx, n, 0, NULL, slot_at(g, q));
}

static long choose(struct grow *g, const struct grow_stats *gs, uint32_t node,
                   uint32_t parent, uint32_t sib)
{
    const struct gnode *nd = &g->node[node];
    double t0 = prof_start(g);
    long key = gs->choose ? gs->choose(gs->ctx, node, parent, sib, g->order + nd->lo,
                                       nd->hi - nd->lo)
                          : 0;
    prof_add(g, GP_CHOOSE, t0);
    g->key[node] = key;
    return key;
}

/* choose() of S and then of B (sibling S) through the learner's choose2:
 * S's key, B's in *kB. */
static long choose_both(struct grow *g, const struct grow_stats *gs, uint32_t S, uint32_t B,
                        uint32_t v, long *kB)
{
    const struct gnode *s = &g->node[S], *b = &g->node[B];
    double t0 = prof_start(g);
    long key[2];
    gs->choose2(gs->ctx, S, B, v, g->order + s->lo, s->hi - s->lo, g->order + b->lo,
                b->hi - b->lo, key);
    prof_add(g, GP_CHOOSE, t0);
    g->key[S] = key[0];
    g->key[B] = key[1];
    *kB = key[1];
    return key[0];
}

/* Evaluates the children L, L + 1 of v that need it (need[0], need[1]),
 * subtracting where it can: the smaller child S from its examples, the
 * larger B, when it has v's key, as v minus S's examples in v's statistics:
 * S's own histograms when S has v's key too (S is then evaluated even when
 * it needs no split), else built for the purpose (AOSO, when only B keeps
 * v's pair: 2 |S| rows instead of |S| + |B|). */
static void evaluate_children(struct grow *g, const struct grow_params *p,
                              const struct grow_stats *gs, uint32_t v, uint32_t L,
                              const int need[2], int sub)
{
    if (!sub) {
        for (uint32_t c = 0; c < 2; c++)
            if (need[c]) {
                choose(g, gs, L + c, v, GROW_NONE);
                evaluate(g, L + c, gs, p->exact, NULL);
            }
        return;
    }
    size_t nL = g->node[L].hi - g->node[L].lo, nR = g->node[L + 1].hi - g->node[L + 1].lo;
    uint32_t si = nL <= nR ? 0 : 1, S = L + si, B = L + 1 - si;
    int needS = need[si], needB = need[1 - si];
    long kS = 0, kB = 0;
    if (needB && gs->choose2) {
        kS = choose_both(g, gs, S, B, v, &kB);
    } else {
        if (needS || needB)
            kS = choose(g, gs, S, v, GROW_NONE);
        if (needB)
            kB = choose(g, gs, B, v, S);
    }
    if (needB && kB == g->key[v] && g->slot_of[v] >= 0) {
        if (kS == g->key[v]) {
            evaluate(g, S, gs, 0, slot_at(g, slot_take(g, S)));
            evaluate_sub(g, gs, B, v, slot_at(g, g->slot_of[S]), g->ntot + (size_t)S * g->s_max);
            return;
        }
        double Ts[2];
        int q = g->freeslot[--g->nfree]; /* a scratch slot, back at once */
        build_as(g, gs, S, v, q, Ts);
        evaluate_sub(g, gs, B, v, slot_at(g, q), Ts);
        if (g->S)
            clear_stored(g, slot_at(g, q));
        g->freeslot[g->nfree++] = q;
        if (needS)
            evaluate(g, S, gs, 0, slot_at(g, slot_take(g, S)));
        return;
    }
    slot_drop(g, v);
    if (needS)
        evaluate(g, S, gs, 0, slot_at(g, slot_take(g, S)));
    if (needB)
        evaluate(g, B, gs, 0, slot_at(g, slot_take(g, B)));
}

/* Sparse rows' sides for a split on feature f (for partition): 2 for the
 * rows that store an entry going right, 1 for one going left (side - 1:
 * goes right), 0 for the rows without an entry, whose 0.0 goes one way;
 * O(the feature's entries), cleared by the same walk with clear. */
static void mark_sides(struct grow *g, const struct gnode *nd, int clear)
{
    const struct bl_sparse *S = g->S;
    for (size_t e = S->cptr[nd->feat]; e < S->cptr[nd->feat + 1]; e++) {
        float v = S->cval[e];
        g->side[S->crow[e]] = clear ? 0 : 1 + (v > nd->thr || (nd->mr && isnan(v)));
    }
}

/* Whether example i goes right of nd's split (x: its dense column, else
 * the sparse marks of mark_sides, zright where a row stores no entry). */
static inline int goes_right(const struct grow *g, const struct gnode *nd, const float *x,
                             uint32_t i, int zright)
{
    return x ? x[i] > nd->thr || (nd->mr && isnan(x[i]))
             : g->side[i] ? g->side[i] - 1 : zright;
}

/* Stable partition of the node's examples: left iff !(x > thr), except
 * missing values when the split sends them right.  A large node on several
 * threads: each chunk counts its left rows, then writes both sides at
 * offsets from the counts before it, into tmp; the order is the serial
 * pass's, whatever the chunks. */
static size_t partition(struct grow *g, const struct gnode *nd)
{
    const float *x = g->S ? NULL : g->tr->X.x + (size_t)nd->feat * g->m;
    uint32_t *o = g->order + nd->lo;
    size_t n = nd->hi - nd->lo, nl = 0, nr = 0;
    int zright = 0.0f > nd->thr;
    double t0 = prof_start(g);
    if (g->S)
        mark_sides(g, nd, 0);
    if (g->nthreads > 1 && n >= 2 * PART_CHUNK) {
        size_t nc = (n + PART_CHUNK - 1) / PART_CHUNK, *cnt = g->pcnt;
#ifdef _OPENMP
#pragma omp parallel num_threads(g->nthreads)
#endif
        {
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
            for (size_t c = 0; c < nc; c++) {
                size_t l = 0, hi = (c + 1) * PART_CHUNK < n ? (c + 1) * PART_CHUNK : n;
                for (size_t j = c * PART_CHUNK; j < hi; j++)
                    l += !goes_right(g, nd, x, o[j], zright);
                cnt[c + 1] = l;
            }
#ifdef _OPENMP
#pragma omp single
#endif
            {
                cnt[0] = 0;
                for (size_t c = 0; c < nc; c++)
                    cnt[c + 1] += cnt[c];
            }
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
            for (size_t c = 0; c < nc; c++) {
                size_t lo = c * PART_CHUNK, hi = lo + PART_CHUNK < n ? lo + PART_CHUNK : n;
                size_t l = cnt[c], r = cnt[nc] + lo - cnt[c];
                for (size_t j = lo; j < hi; j++) {
                    uint32_t i = o[j];
                    g->tmp[goes_right(g, nd, x, i, zright) ? r++ : l++] = i;
                }
            }
        }
        nl = cnt[nc];
        memcpy(o, g->tmp, n * sizeof *o);
    } else {
        for (size_t j = 0; j < n; j++) {
            uint32_t i = o[j];
            if (goes_right(g, nd, x, i, zright))
                g->tmp[nr++] = i;
            else
                o[nl++] = i;
        }
        memcpy(o + nl, g->tmp, nr * sizeof *o);
    }
    if (g->S)
        mark_sides(g, nd, 1);
    prof_add(g, GP_PART, t0);
    return nl;
}

size_t grow_tree(struct grow *g, const struct grow_params *p, const struct grow_stats *gs)
{
    for (size_t i = 0; i < g->m; i++)
        g->order[i] = (uint32_t)i;
    memset(g->tdirect, 0, g->max_nodes);
    size_t nn = 1, leaves = 1, J = p->leaves;
    if (J > (g->max_nodes + 1) / 2)
        J = (g->max_nodes + 1) / 2;
    int sub = p->subtract && !p->exact && gs->npairs == 1 && J > 2;
    g->lt = p->exact == GROW_EXACT_LT;
    g->zsub = p->subtract;
    if (sub) {
        if (!g->slot)
            slots_init(g);
        g->nfree = g->nslots;
        for (size_t q = 0; q < g->nslots; q++) {
            g->freeslot[q] = (int)q;
            if (g->S) /* the last tree's open nodes kept theirs */
                clear_stored(g, slot_at(g, (int)q));
        }
        for (size_t q = 0; q < g->max_nodes; q++)
            g->slot_of[q] = -1;
    }
    g->node[0] = (struct gnode){0, g->m, -1, 0, 0, 0, -HUGE_VAL, 0};
    if (J > 1 && g->m > p->node_size) {
        choose(g, gs, 0, GROW_NONE, GROW_NONE);
        evaluate(g, 0, gs, p->exact, sub ? slot_at(g, slot_take(g, 0)) : NULL);
    }
    unsigned char *isopen = g->isopen;
    isopen[0] = g->node[0].feat >= 0;
    if (sub && !isopen[0])
        slot_drop(g, 0);
    while (leaves < J) {
        size_t best = nn;
        for (size_t q = 0; q < nn; q++)
            if (isopen[q] && (best == nn || g->node[q].gain > g->node[best].gain))
                best = q;
        if (best == nn)
            break;
        struct gnode *v = &g->node[best];
        isopen[best] = 0;
        size_t nl = partition(g, v);
        uint32_t L = (uint32_t)nn, R = (uint32_t)nn + 1;
        g->node[L] = (struct gnode){v->lo, v->lo + nl, -1, 0, 0, 0, -HUGE_VAL, 0};
        g->node[R] = (struct gnode){v->lo + nl, v->hi, -1, 0, 0, 0, -HUGE_VAL, 0};
        v->left = L;
        v->right = R;
        nn += 2;
        leaves++;
        int need[2];
        for (uint32_t c = 0; c < 2; c++)
            need[c] = leaves < J && g->node[L + c].hi - g->node[L + c].lo > p->node_size;
        evaluate_children(g, p, gs, (uint32_t)best, L, need, sub);
        for (uint32_t c = 0; c < 2; c++) {
            isopen[L + c] = need[c] && g->node[L + c].feat >= 0;
            if (sub && !isopen[L + c])
                slot_drop(g, L + c);
        }
    }
    /* nodes never split are leaves (children always have ids > 0) */
    for (size_t q = 0; q < nn; q++)
        if (g->node[q].left == 0)
            g->node[q].feat = -1;
    return nn;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Trees plugin: the LogitBoost-family learners (see learners.h).  Per
 * example and class pair (r, s) the 1-D Newton statistics are (spec §2.1)
 *     a_i = G_ir - G_is,   b_i = H_ir + H_is + 2 Hu_ir Hu_is
 * (= p_r + p_s - (p_r - p_s)^2 for the logistic loss), and for a single
 * class (s < 0) a_i = G_ir, b_i = H_ir.  A node's value is A / B and its
 * loss decrease A^2 / 2B (eqs. 27-30).
 */
#include "learners.h"
#include "../../common/clones.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

struct tl {
    struct tl_opts o;
    const struct bl_train *tr;
    size_t m, k;
    struct grow *g;
    const struct bl_fit_request *req;
    int *pr, *ps;        /* AOSO: each node's pair                        */
    unsigned char *chosen; /* AOSO: pr, ps are set for this node (it was
                              evaluated; a leaf then keeps that pair,
                              chosen from the very same examples)         */
    int cls, base;       /* CLASS / ABC: the tree being grown            */
    double *gsum, *ssum;  /* k: a leaf's sums                             */
    double *ub;          /* 2 k: select_pair's bounds (one k per sibling
                            when two are chosen at once)                 */
    double *call;        /* k: select_pair's cross sums, all at once       */
    double *nsum;        /* AOSO: 2 k per node, its class sums G then H   */
    unsigned char *hassum; /* AOSO: nsum holds this node's sums          */
    double *out2;        /* ABC exhaustive: a candidate's outputs (m x k) */
    double *gn;          /* AOSO naive_residuals: G then H (2 m k) from p  */
    int naive_done;      /* ... and every 1 - p_y is 0: their loss is 0     */
    struct bl_fit_request nreq; /* ... and the request that points at them */
    int nthreads;
    double *acc;         /* class_sums: 2 k per thread, 64-byte apart      */
    uint32_t *moved;     /* AOSO: each example's leaf's classes, ascending
                            (m x 2, BL_MOVED_NONE pads a one-class leaf) */
    double *mvout;       /* ... and their outputs (m x 2, 0 at the pad):
                            AOSO never fills the dense m x k out          */
    int hu_nonneg;       /* this tree's Hu >= 0 everywhere (select_pair)   */
    size_t nfits;        /* BOOSTLAB_PROFILE: fits, for tl_free's report    */
    struct piece { uint32_t q; size_t lo, n; } *piece; /* emit_tree's: m / EMIT_CHUNK + 2 J */
    /* this fit's request has G, H and Hu class-major (k x m each; weak.h
     * BL_NEEDS_CLASS_MAJOR, which every learner but DIAG, reading all k of
     * a row, asks for): a node's statistics then read a few columns of m
     * doubles instead of streaming every row's k classes */
    int cm;
};

/* Row loops below this size stay on one thread: a parallel region costs
 * more than the work it would split. */
#define TL_PAR_ROWS 4096
/* class sums: from this many entries (rows x classes) on the threads */
#define TL_PAR_SUMS 16384
#define EMIT_CHUNK ((size_t)8192) /* examples of one leaf a thread writes at once */

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fputs("trees: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* Entry (i, q) of the request's array A (G, H or Hu) in its layout. */
static inline double at(const struct tl *L, const double *A, size_t i, size_t q)
{
    return L->cm ? A[q * L->m + i] : A[i * L->k + q];
}

struct tl *tl_new(const struct tl_opts *o, const struct bl_train *tr, int nthreads)
{
    size_t pairs = o->kind == TL_DIAG ? tr->k : 1;
    struct grow *g = grow_new(tr, pairs, o->gp.leaves, nthreads, o->gp.exact);
    struct tl *L = xcalloc(1, sizeof *L);
    L->o = *o;
    L->tr = tr;
    L->m = tr->m;
    L->k = tr->k;
    L->g = g;
    L->nthreads = nthreads > 0 ? nthreads : 1;
    L->acc = xcalloc((size_t)L->nthreads * (2 * tr->k + 8), sizeof *L->acc);
    size_t nodes = 2 * o->gp.leaves;
    L->pr = xcalloc(nodes, sizeof *L->pr);
    L->ps = xcalloc(nodes, sizeof *L->ps);
    L->chosen = xcalloc(nodes, sizeof *L->chosen);
    L->gsum = xcalloc(L->k, sizeof *L->gsum);
    L->ssum = xcalloc(L->k, sizeof *L->ssum);
    L->ub = xcalloc(2 * L->k, sizeof *L->ub);
    L->call = xcalloc(L->k, sizeof *L->call);
    L->nsum = xcalloc(nodes * 2 * L->k, sizeof *L->nsum);
    L->hassum = xcalloc(nodes, sizeof *L->hassum);
    L->piece = xcalloc(L->m / EMIT_CHUNK + nodes + 1, sizeof *L->piece);
    if (o->kind == TL_AOSO) {
        L->moved = xcalloc(2 * L->m, sizeof *L->moved);
        L->mvout = xcalloc(2 * L->m, sizeof *L->mvout);
    }
    return L;
}

/* The phase times (grow.h) per fit, on stderr. */
static void profile_report(const struct tl *L, const double *P)
{
    static const char *name[GP_TOTAL] = {"choose", "fill", "hist", "sub", "partition",
                                         "emit", "setup"};
    double per = L->nfits ? 1e3 / (double)L->nfits : 0.0, rest = P[GP_TOTAL];
    fprintf(stderr, "trees profile: %zu fits on %d threads, ms a fit: total %.3f =", L->nfits,
            L->nthreads, P[GP_TOTAL] * per);
    for (int q = 0; q < GP_TOTAL; q++) {
        fprintf(stderr, " %s %.3f +", name[q], P[q] * per);
        rest -= P[q];
    }
    fprintf(stderr, " other %.3f\n", rest * per);
}

void tl_free(struct tl *L)
{
    if (!L)
        return;
    const double *P = grow_profile(L->g);
    if (P && L->nfits)
        profile_report(L, P);
    grow_free(L->g);
    free(L->pr);
    free(L->ps);
    free(L->chosen);
    free(L->gsum);
    free(L->ssum);
    free(L->ub);
    free(L->call);
    free(L->nsum);
    free(L->hassum);
    free(L->out2);
    free(L->gn);
    free(L->acc);
    free(L->mvout);
    free(L->moved);
    free(L->piece);
    free(L);
}

/* a_i, b_i of example i for the pair (r, s), or class r alone when s < 0. */
static inline void pair_ab(const struct tl *L, size_t i, int r, int s, double *a, double *b)
{
    if (L->cm) { /* the same values, class-major */
        size_t m = L->m;
        const double *cg = L->req->G, *ch = L->req->H, *cu = L->req->Hu;
        if (s < 0) {
            *a = cg[(size_t)r * m + i];
            *b = ch[(size_t)r * m + i];
            return;
        }
        *a = cg[(size_t)r * m + i] - cg[(size_t)s * m + i];
        *b = ch[(size_t)r * m + i] + ch[(size_t)s * m + i] +
             2.0 * cu[(size_t)r * m + i] * cu[(size_t)s * m + i];
        return;
    }
    const double *G = L->req->G + i * L->k, *H = L->req->H + i * L->k;
    if (s < 0) {
        *a = G[r];
        *b = H[r];
        return;
    }
    const double *U = L->req->Hu + i * L->k;
    *a = G[r] - G[s];
    *b = H[r] + H[s] + 2.0 * U[r] * U[s];
}

/* a[q] += G_iq (and b[q] += H_iq with H) for q in [q0, q1) over the rows
 * idx[0..n), in row order: one chain of additions per class, so the
 * vectorised copy (across classes) gives the same bits. */
static BL_CLONES void add_rows(double *restrict a, double *restrict b, const double *restrict G,
                               const double *restrict H, const uint32_t *idx, size_t n, size_t k,
                               size_t q0, size_t q1)
{
    size_t w = q1 - q0;
    a += q0;
    b += q0;
    for (size_t j = 0; j < n; j++) {
        const double *g = G + (size_t)idx[j] * k + q0;
        if (!H) {
#pragma omp simd
            for (size_t q = 0; q < w; q++)
                a[q] += g[q];
            continue;
        }
        const double *h = H + (size_t)idx[j] * k + q0;
#pragma omp simd
        for (size_t q = 0; q < w; q++) {
            a[q] += g[q];
            b[q] += h[q];
        }
    }
}

/* add_rows for class-major G and H (k x m): the same chain per class,
 * four classes of both at a time so that their chains overlap. */
static void add_cols(double *restrict a, double *restrict b, const double *restrict G,
                     const double *restrict H, const uint32_t *idx, size_t n, size_t m,
                     size_t q0, size_t q1)
{
    size_t q = q0;
    for (; H && q + 4 <= q1; q += 4) { /* G and H together: eight chains */
        const double *g0 = G + q * m, *g1 = g0 + m, *g2 = g1 + m, *g3 = g2 + m;
        const double *h0 = H + q * m, *h1 = h0 + m, *h2 = h1 + m, *h3 = h2 + m;
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, t0 = 0.0, t1 = 0.0, t2 = 0.0, t3 = 0.0;
        for (size_t j = 0; j < n; j++) {
            size_t i = idx[j];
            s0 += g0[i], s1 += g1[i], s2 += g2[i], s3 += g3[i];
            t0 += h0[i], t1 += h1[i], t2 += h2[i], t3 += h3[i];
        }
        a[q] += s0, a[q + 1] += s1, a[q + 2] += s2, a[q + 3] += s3;
        b[q] += t0, b[q + 1] += t1, b[q + 2] += t2, b[q + 3] += t3;
    }
    for (; q < q1; q++) {
        const double *g = G + q * m, *h = H ? H + q * m : NULL;
        double sa = 0.0, sb = 0.0;
        for (size_t j = 0; j < n; j++) {
            sa += g[idx[j]];
            if (h)
                sb += h[idx[j]];
        }
        a[q] += sa;
        if (h)
            b[q] += sb;
    }
}

/* Inside a parallel region: this thread's range [q0, q1) of k classes, and
 * its number. */
static size_t class_share(size_t k, size_t *q0, size_t *q1)
{
    int t = 0, T = 1;
#ifdef _OPENMP
    t = omp_get_thread_num();
    T = omp_get_num_threads();
#endif
    *q0 = k * (size_t)t / (size_t)T;
    *q1 = k * (size_t)(t + 1) / (size_t)T;
    return (size_t)t;
}

/* Inside a parallel region (or alone): this thread's classes of
 * class_sums, H NULL for none. */
static void class_share_sums(struct tl *L, const uint32_t *idx, size_t n, const double *G,
                             const double *H, double *gsum, double *ssum)
{
    size_t k = L->k, q0, q1, t = class_share(k, &q0, &q1);
    /* sums in this thread's own buffer (no false sharing), copied out */
    double *a = L->acc + (2 * k + 8) * t, *b = a + k;
    for (size_t q = q0; q < q1; q++)
        a[q] = b[q] = 0.0;
    if (L->cm)
        add_cols(a, b, G, H, idx, n, L->m, q0, q1);
    else
        add_rows(a, b, G, H, idx, n, k, q0, q1);
    for (size_t q = q0; q < q1; q++) {
        gsum[q] = a[q];
        if (H)
            ssum[q] = b[q];
    }
}

/* Class sums over a node's examples: gsum_q = sum_j G_q and, with hess,
 * ssum_q = sum_j H_q.  Threads take disjoint ranges of classes and each sums
 * its classes over the examples in order, so every sum is added in the same
 * order whatever the thread count. */
static void class_sums(struct tl *L, const uint32_t *idx, size_t n, int hess, double *gsum,
                       double *ssum)
{
    size_t k = L->k;
    const double *G = L->req->G, *H = hess ? L->req->H : NULL;
    int nt = L->nthreads < (int)k ? L->nthreads : (int)k;
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt) if (nt > 1 && n * k >= TL_PAR_SUMS)
#endif
    class_share_sums(L, idx, n, G, H, gsum, ssum);
}

/* C_rq = sum_j Hu_r Hu_q over the node's examples, in order. */
static double cross_sum(const struct tl *L, const uint32_t *idx, size_t n, int r, size_t q)
{
    const double *U = L->req->Hu;
    size_t k = L->k;
    double c = 0.0;
    if (L->cm) { /* class-major: the same products, in order */
        const double *ur = U + (size_t)r * L->m, *uq = U + q * L->m;
        for (size_t j = 0; j < n; j++)
            c += ur[idx[j]] * uq[idx[j]];
        return c;
    }
    for (size_t j = 0; j < n; j++) {
        size_t i = (size_t)idx[j] * k;
        c += U[i + (size_t)r] * U[i + q];
    }
    return c;
}

/* c[q] += Hu_r Hu_q over the rows idx[0..n), q in [q0, q1), in row
 * order: each c[q] the same chain of additions as cross_sum's (no FMA in
 * either copy, clones.h). */
static BL_CLONES void cross_rows(double *restrict c, const double *restrict U, const uint32_t *idx,
                                 size_t n, size_t k, int r, size_t q0, size_t q1)
{
    for (size_t j = 0; j < n; j++) {
        const double *u = U + (size_t)idx[j] * k;
        double ur = u[r];
#pragma omp simd
        for (size_t q = q0; q < q1; q++)
            c[q] += ur * u[q];
    }
}

/* Every C_rq at once (c, k values), threads over ranges of classes as in
 * class_sums: one pass over the node instead of one per partner tried,
 * each C_rq one thread's sum in row order, cross_sum's bits. */
static void cross_all(struct tl *L, const uint32_t *idx, size_t n, int r, double *c)
{
    size_t k = L->k;
    int nt = L->nthreads < (int)k ? L->nthreads : (int)k;
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
    {
        size_t q0, q1, t = class_share(k, &q0, &q1);
        double *a = L->acc + (2 * k + 8) * t; /* own buffer: no false sharing */
        for (size_t q = q0; q < q1; q++)
            a[q] = L->cm ? cross_sum(L, idx, n, r, q) : 0.0;
        if (!L->cm)
            cross_rows(a, L->req->Hu, idx, n, k, r, q0, q1);
        for (size_t q = q0; q < q1; q++)
            c[q] = a[q];
    }
}

/* The class of the largest bound but class skip (k: none), lowest on ties;
 * k when every bound is taken (-inf). */
static size_t top_bound(const double *ub, size_t k, size_t skip)
{
    size_t q = k;
    for (size_t c = 0; c < k; c++)
        if (c != skip && ub[c] != -HUGE_VAL && (q == k || ub[c] > ub[q]))
            q = c;
    return q;
}

/* C_rq and, on two threads when the node is large and q2 < k, C_rq2 too
 * (each sum still one thread's, in row order); returns whether c2 is set. */
static int cross_sums2(const struct tl *L, const uint32_t *idx, size_t n, int r, size_t q,
                       size_t q2, int solo, double *c1, double *c2)
{
    int two = !solo && q2 < L->k && L->nthreads > 1 && n >= TL_PAR_ROWS;
    if (!two) {
        *c1 = cross_sum(L, idx, n, r, q);
        return 0;
    }
#ifdef _OPENMP
#pragma omp parallel sections num_threads(2)
#endif
    {
#ifdef _OPENMP
#pragma omp section
#endif
        *c1 = cross_sum(L, idx, n, r, q);
#ifdef _OPENMP
#pragma omp section
#endif
        *c2 = cross_sum(L, idx, n, r, q2);
    }
    return 1;
}

/* Rule (33)'s score of partner q: (G_r - G_q)^2 / (S_r + S_q + 2 C_rq). */
static double pair_score(const double *gsum, const double *ssum, int r, size_t q, double c)
{
    double num = gsum[r] - gsum[q], den = ssum[r] + ssum[q] + 2.0 * c;
    return num * num / (den == 0.0 ? 1.0 : den);
}

/* The pair of a node (examples idx[0..n), class sums gsum, ssum) by rule
 * (33), or (32): r the class of largest summed residual, s the partner of
 * largest decrease (G_r - G_s)^2 / (S_r + S_s + 2 C_rs); first index on
 * ties.
 *
 * Each C_rs is a pass over the node.  When Hu >= 0 (the softmax: Hu = p;
 * tl_fit checks once per tree) C_rs >= 0, so the score with C = 0 bounds
 * the true one from above (floating-point sums and quotients are monotone);
 * partners are then taken in decreasing bound, C computed only until the
 * next bound falls below the best score: the same s as computing every C,
 * usually after one or two passes instead of k - 1.  Without the bound
 * every partner is scored, in class order.  On more than two threads a
 * large node's C_rq are all summed at once (cross_all), in parallel, and
 * the same loop reads them: the same partner.  ub: k bounds of scratch;
 * solo: on this thread alone (a sibling's pair is chosen on the other). */
static void select_pair(struct tl *L, const uint32_t *idx, size_t n, const double *gsum,
                        const double *ssum, double *ub, int solo, int *pr, int *ps)
{
    size_t k = L->k;
    int r = 0;
    for (size_t q = 1; q < k; q++)
        if (gsum[q] > gsum[r])
            r = (int)q;
    int s = -1;
    if (L->o.first_order) {
        for (size_t q = 0; q < k; q++)
            if ((int)q != r && (s < 0 || gsum[q] < gsum[s]))
                s = (int)q;
    } else {
        /* ub: the bounds; a class taken is set to -inf */
        for (size_t q = 0; q < k; q++) {
            double d0 = ssum[r] + ssum[q], b = pair_score(gsum, ssum, r, q, 0.0);
            /* no bound (every partner scored, in class order): Hu < 0
             * somewhere, S_r + S_q = 0 (the rule's 1 in place of 0), NaN */
            ub[q] = (int)q == r ? -HUGE_VAL : !L->hu_nonneg || d0 == 0.0 || b != b ? HUGE_VAL : b;
        }
        double best = -1.0, *call = L->call;
        int all = !solo && L->nthreads > 2 && n >= TL_PAR_ROWS;
        if (all)
            cross_all(L, idx, n, r, call);
        for (;;) {
            /* the next two partners in the loop's order (largest bound,
             * lowest class); with threads both cross sums at once, each
             * one thread's sum in row order, the second used only if the
             * loop gets to it: the same partner and bits as one by one */
            size_t q = top_bound(ub, k, k), q2 = q < k ? top_bound(ub, k, q) : k;
            if (q == k || ub[q] < best)
                break;
            double c1 = all ? call[q] : 0.0, c2 = all && q2 < k ? call[q2] : 0.0;
            int got2 = all ? q2 < k : cross_sums2(L, idx, n, r, q, q2, solo, &c1, &c2);
            for (int t = 0; t < 2; t++, q = q2, c1 = c2) {
                if (t == 1 && (!got2 || ub[q2] < best))
                    break;
                ub[q] = -HUGE_VAL;
                double sc = pair_score(gsum, ssum, r, q, c1);
                if (sc > best || (sc == best && (int)q < s)) {
                    best = sc;
                    s = (int)q;
                }
            }
        }
    }
    *pr = r;
    *ps = s;
}

/* ---- statistics for the grower ----------------------------------------- */

static void fill_pair(struct tl *L, const uint32_t *idx, size_t n, double *st, int r, int s)
{
    int mart = L->o.gradient_split;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(L->nthreads) if (L->nthreads > 1 && n >= TL_PAR_ROWS)
#endif
    for (size_t j = 0; j < n; j++) {
        pair_ab(L, idx[j], r, s, &st[2 * j], &st[2 * j + 1]);
        if (mart)
            st[2 * j + 1] = 1.0;
    }
}

/* A node's class sums (nsum's): its parent's minus its sibling sib's
 * when subtracting, else summed over its examples. */
static double *node_sums(struct tl *L, uint32_t node, uint32_t parent, uint32_t sib,
                         const uint32_t *idx, size_t n)
{
    size_t k = L->k;
    double *gs = L->nsum + 2 * k * node, *ss = gs + k;
    if (L->o.gp.subtract && sib != GROW_NONE && L->hassum[parent] && L->hassum[sib]) {
        const double *gp = L->nsum + 2 * k * parent, *gb = L->nsum + 2 * k * sib;
        for (size_t q = 0; q < 2 * k; q++)
            gs[q] = gp[q] - gb[q];
    } else {
        class_sums(L, idx, n, !L->o.first_order, gs, ss);
    }
    L->hassum[node] = 1;
    return gs;
}

static long aoso_key(struct tl *L, uint32_t node)
{
    L->chosen[node] = 1;
    return (long)L->pr[node] * (long)L->k + L->ps[node];
}

/* A node's pair (grow.h's choose): the cross sums C_rs are always direct,
 * the class sums node_sums'.  Key: the pair. */
static long choose_aoso(void *ctx, uint32_t node, uint32_t parent, uint32_t sib,
                        const uint32_t *idx, size_t n)
{
    struct tl *L = ctx;
    size_t k = L->k;
    if (L->o.fixed_pair && node > 0) {
        L->pr[node] = L->pr[0];
        L->ps[node] = L->ps[0];
    } else {
        double *gs = node_sums(L, node, parent, sib, idx, n);
        select_pair(L, idx, n, gs, gs + k, L->ub, 0, &L->pr[node], &L->ps[node]);
    }
    return aoso_key(L, node);
}

/* grow.h's choose2: siblings s (from its examples) and b (by subtraction),
 * when b is below TL_PAR_ROWS (so is s), where one node's cross sums stay
 * on one thread, and the pair is worth a region (s's class sums would open
 * one, or b has 1024 rows): s's class sums, then each node's pair on a
 * thread of its own, in one parallel region.  Every sum is added as
 * choose_aoso adds it, so the pairs are the same; elsewhere it is
 * choose_aoso twice. */
static void choose2_aoso(void *ctx, uint32_t s, uint32_t b, uint32_t parent, const uint32_t *is,
                         size_t ns, const uint32_t *ib, size_t nb, long key[2])
{
    struct tl *L = ctx;
    size_t k = L->k;
    int nt = L->nthreads < (int)k ? L->nthreads : (int)k;
    if (L->o.fixed_pair || L->o.first_order || !L->o.gp.subtract || !L->hassum[parent] ||
        nt < 2 || nb >= TL_PAR_ROWS || (ns * k < TL_PAR_SUMS && nb < 1024)) {
        key[0] = choose_aoso(ctx, s, parent, GROW_NONE, is, ns);
        key[1] = choose_aoso(ctx, b, parent, s, ib, nb);
        return;
    }
    double *gs = L->nsum + 2 * k * s, *gb = L->nsum + 2 * k * b;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
    {
        class_share_sums(L, is, ns, L->req->G, L->req->H, gs, gs + k);
#ifdef _OPENMP
#pragma omp barrier
#pragma omp single
#endif
        {
            L->hassum[s] = 1;
            node_sums(L, b, parent, s, ib, nb); /* parent's minus s's */
        }
#ifdef _OPENMP
#pragma omp sections
#endif
        {
#ifdef _OPENMP
#pragma omp section
#endif
            select_pair(L, is, ns, gs, gs + k, L->ub, 1, &L->pr[s], &L->ps[s]);
#ifdef _OPENMP
#pragma omp section
#endif
            select_pair(L, ib, nb, gb, gb + k, L->ub + k, 1, &L->pr[b], &L->ps[b]);
        }
    }
    key[0] = aoso_key(L, s);
    key[1] = aoso_key(L, b);
}

static void fill_aoso(void *ctx, uint32_t node, const uint32_t *idx, size_t n, double *st)
{
    struct tl *L = ctx;
    fill_pair(L, idx, n, st, L->pr[node], L->ps[node]);
}

static void fill_scalar(void *ctx, uint32_t node, const uint32_t *idx, size_t n, double *st)
{
    struct tl *L = ctx;
    (void)node;
    fill_pair(L, idx, n, st, L->cls, L->o.kind == TL_ABC ? L->base : -1);
}

static void fill_diag(void *ctx, uint32_t node, const uint32_t *idx, size_t n, double *st)
{
    struct tl *L = ctx;
    (void)node;
    size_t k = L->k;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(L->nthreads) if (L->nthreads > 1 && n >= TL_PAR_ROWS)
#endif
    for (size_t j = 0; j < n; j++) {
        const double *g = L->req->G + (size_t)idx[j] * k, *h = L->req->H + (size_t)idx[j] * k;
        for (size_t q = 0; q < k; q++) {
            st[2 * k * j + 2 * q] = g[q];
            st[2 * k * j + 2 * q + 1] = h[q];
        }
    }
}

/* ---- leaves ---------------------------------------------------------------- */

static double clamp(double v, double lim)
{
    return v > lim ? lim : v < -lim ? -lim : v;
}

/* Newton value A / B of a leaf for (r, s), clamped.  T: the sums A, B the
 * grower already added up over the same examples in the same order (the
 * node's direct totals of these very statistics), else NULL. */
static double leaf_value(const struct tl *L, const uint32_t *idx, size_t n, int r, int s,
                         const double *T)
{
    double A = T ? T[0] : 0.0, B = T ? T[1] : 0.0;
    for (size_t j = 0; j < n && !T; j++) {
        double a, b;
        pair_ab(L, idx[j], r, s, &a, &b);
        A += a;
        B += b;
    }
    if (B == 0.0)
        B = 1.0;
    return clamp(A / B, L->o.max_step);
}

/* The pair (r, s) of leaf q, whose examples are idx[0..n): AOSO's chosen
 * pair (the root's with fixed_pair), else chosen now; the class (and base)
 * of a per-class or ABC tree.  s < 0: one class. */
static void leaf_pair(struct tl *L, size_t q, size_t nn, const uint32_t *idx, size_t n, int *r,
                      int *s)
{
    if (L->o.kind != TL_AOSO) {
        *r = L->cls;
        *s = L->o.kind == TL_ABC ? L->base : -1;
        return;
    }
    size_t from = L->chosen[q] ? q : L->o.fixed_pair && L->chosen[0] ? 0 : nn;
    if (from < nn) {
        *r = L->pr[from];
        *s = L->ps[from];
        return;
    }
    class_sums(L, idx, n, !L->o.first_order, L->gsum, L->ssum);
    select_pair(L, idx, n, L->gsum, L->ssum, L->ub, 0, r, s);
}

/* The values of leaf q's entries, whose classes emit_tree set, from its
 * examples idx[0..n). */
static void leaf_values(struct tl *L, struct tree *t, size_t q, const uint32_t *idx, size_t n)
{
    size_t k = L->k;
    uint32_t first = t->node[q].a, ne = first + t->node[q].b;
    struct tentry *e0 = t->ent + first;
    /* the grower's totals are pair_ab's sums but for MART's split counts */
    const double *T = L->o.gradient_split ? NULL : grow_totals(L->g, (uint32_t)q);
    if (L->o.kind == TL_DIAG) {
        for (size_t c = 0; c < k; c++)
            e0[c].v = leaf_value(L, idx, n, (int)c, -1, T ? T + 2 * c : NULL);
    } else {
        int two = ne - first == 2;
        double v = leaf_value(L, idx, n, (int)e0[0].cls, two ? (int)e0[1].cls : -1, T);
        if (L->o.kind == TL_CLASS && L->o.kscale)
            v *= (double)(k - 1) / (double)k;
        if (L->o.float_leaves)
            v = (double)(float)v;
        e0[0].v = v;
        if (two)
            e0[1].v = -v;
    }
}

/* Leaf q's outputs on examples idx[0..n) (some of its own): AOSO's as
 * their rows' moved lists and values (weak.h moved_out), the others added
 * to out.  Leaves own disjoint examples, entries and rows. */
static void leaf_writes(struct tl *L, const struct tree *t, size_t q, const uint32_t *idx, size_t n,
                        double *out)
{
    size_t k = L->k;
    uint32_t first = t->node[q].a, ne = first + t->node[q].b;
    if (L->moved) {
        const struct tentry *e = t->ent + first;
        int two = ne - first == 2, swap = two && e[1].cls < e[0].cls;
        uint32_t lo = e[swap].cls, hi = two ? e[!swap].cls : BL_MOVED_NONE;
        /* 0 + v: the +0 of the dense sum 0 += v, were v -0 */
        double vlo = 0.0 + e[swap].v, vhi = two ? 0.0 + e[!swap].v : 0.0;
        for (size_t j = 0; j < n; j++) {
            size_t i = idx[j];
            L->moved[2 * i] = lo, L->moved[2 * i + 1] = hi;
            L->mvout[2 * i] = vlo, L->mvout[2 * i + 1] = vhi;
        }
        return;
    }
    for (size_t j = 0; j < n; j++)
        for (uint32_t e = first; e < ne; e++)
            out[(size_t)idx[j] * k + t->ent[e].cls] += t->ent[e].v;
}

/* The tree of the grower's current shape with this learner's leaf values,
 * appended to f; its outputs on the training examples are added to out.
 * The leaves' entries and their classes first, in node order; then their
 * values, leaves in parallel (each value one thread's sum in example order:
 * the same bits on any number of threads); then the outputs, in pieces of
 * at most EMIT_CHUNK examples of one leaf, so a large leaf is shared. */
static void emit_tree(struct tl *L, struct forest *f, size_t nn, double *out)
{
    const struct gnode *gn = grow_nodes(L->g);
    const uint32_t *order = grow_order(L->g);
    size_t k = L->k, per = L->o.kind == TL_DIAG ? k : L->o.kind == TL_CLASS ? 1 : 2;
    struct tree *t = forest_add(f, (uint32_t)nn, (uint32_t)(nn * per));
    uint32_t ne = 0;
    for (size_t q = 0; q < nn; q++) {
        if (gn[q].feat >= 0) {
            t->node[q] =
                (struct tnode){gn[q].feat, gn[q].thr, gn[q].left, gn[q].right, (uint32_t)gn[q].mr};
            continue;
        }
        uint32_t first = ne;
        if (L->o.kind == TL_DIAG) {
            for (size_t c = 0; c < k; c++)
                t->ent[ne++] = (struct tentry){(uint32_t)c, 0.0};
        } else {
            int r, s;
            leaf_pair(L, q, nn, order + gn[q].lo, gn[q].hi - gn[q].lo, &r, &s);
            t->ent[ne++] = (struct tentry){(uint32_t)r, 0.0};
            if (s >= 0)
                t->ent[ne++] = (struct tentry){(uint32_t)s, 0.0};
        }
        t->node[q] = (struct tnode){-1, 0.0f, first, ne - first, 0};
    }
    t->nent = ne;
    size_t np = 0;
    for (size_t q = 0; q < nn; q++)
        for (size_t lo = gn[q].lo; gn[q].feat < 0 && lo < gn[q].hi; lo += EMIT_CHUNK)
            L->piece[np++] = (struct piece){(uint32_t)q, lo,
                                            gn[q].hi - lo < EMIT_CHUNK ? gn[q].hi - lo : EMIT_CHUNK};
    int par = L->nthreads > 1 && nn > 1 && L->m >= TL_PAR_ROWS;
    (void)par;
#ifdef _OPENMP
#pragma omp parallel num_threads(L->nthreads) if (par)
#endif
    {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
        for (long q = 0; q < (long)nn; q++)
            if (gn[q].feat < 0)
                leaf_values(L, t, (size_t)q, order + gn[q].lo, gn[q].hi - gn[q].lo);
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
        for (long p = 0; p < (long)np; p++)
            leaf_writes(L, t, L->piece[p].q, order + L->piece[p].lo, L->piece[p].n, out);
    }
}

/* emit_tree, timed */
static void emit_timed(struct tl *L, struct forest *f, size_t nn, double *out)
{
    double *P = grow_profile(L->g), t0 = P ? grow_now() : 0.0;
    emit_tree(L, f, nn, out);
    if (P)
        P[GP_EMIT] += grow_now() - t0;
}

/* ---- one iteration --------------------------------------------------------- */

/* The request with the softmax's residuals and Hessian diagonal recomputed
 * from its probabilities p = Hu as the authors' code computes them,
 * G = [r = y] - p_r and H = p_r (1 - p_r): once p_y rounds to 1, 1 - p_y
 * is 0 and the example drops out of the sums, where the loss's own
 * S0 / (1 + S0) keeps it (docs/results-logitboost.md, optdigits).  Once
 * that holds for every example their loss is 0 and their run stops; so does
 * ours then (tl_fit's edge 0), whatever our exact loss says. */
static const struct bl_fit_request *naive_request(struct tl *L, const struct bl_fit_request *req)
{
    size_t m = L->m, k = L->k;
    if (!L->gn)
        L->gn = xcalloc(2 * m * k, sizeof *L->gn);
    double *G = L->gn, *H = G + m * k;
    size_t left = 0; /* examples whose 1 - p_y is not 0 */
    for (size_t i = 0; i < m; i++) {
        for (size_t q = 0; q < k; q++) { /* in the request's layout */
            size_t e = L->cm ? q * m + i : i * k + q;
            double p = req->Hu[e];
            G[e] = ((size_t)L->tr->y[i] == q ? 1.0 : 0.0) - p;
            H[e] = p * (1.0 - p);
        }
        left += at(L, G, i, (size_t)L->tr->y[i]) != 0.0;
    }
    L->naive_done = left == 0;
    L->nreq = *req;
    L->nreq.G = G;
    L->nreq.H = H;
    return &L->nreq;
}

/* out (m x k) = 0, rows split between the threads. */
static void zero_rows(const struct tl *L, double *out)
{
    size_t m = L->m, k = L->k;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(L->nthreads) if (L->nthreads > 1 && m >= TL_PAR_ROWS)
#endif
    for (size_t i = 0; i < m; i += 256)
        memset(out + i * k, 0, (m - i < 256 ? m - i : 256) * k * sizeof *out);
}

/* ABC's k - 1 trees against base b into f and out (zeroed first). */
static void abc_trees(struct tl *L, int b, struct forest *f, double *out)
{
    zero_rows(L, out);
    L->base = b;
    struct grow_stats gs = {1, NULL, fill_scalar, L, NULL};
    for (size_t c = 0; c < L->k; c++) {
        if ((int)c == b)
            continue;
        L->cls = (int)c;
        emit_timed(L, f, grow_tree(L->g, &L->o.gp, &gs), out);
    }
}

/* The worst class: the largest summed log-loss -log p_iy over its examples.
 * For the logistic loss G_iy = c (1 - p_iy) and H_iy = c p_iy (1 - p_iy),
 * c the loss's normalisation, so p_iy = H_iy / G_iy whatever c is. */
static int worst_class(const struct tl *L)
{
    size_t k = L->k;
    double *loss = xcalloc(k, sizeof *loss);
    for (size_t i = 0; i < L->m; i++) {
        size_t y = (size_t)L->tr->y[i];
        double g = at(L, L->req->G, i, y), p = g > 0 ? at(L, L->req->H, i, y) / g : 1.0;
        loss[y] -= log(p > 1e-300 ? p : 1e-300);
    }
    int b = 0;
    for (size_t c = 1; c < k; c++)
        if (loss[c] > loss[b])
            b = (int)c;
    free(loss);
    return b;
}

/* <G, out> of an AOSO tree, whose dense out would be zero but for its
 * leaf's pair in each row: those (one or two) products per row, in the
 * order of the dense sum over all m k (row by row, classes ascending).
 * The skipped terms are G 0 = +-0 (G is finite), which leave a sum that
 * starts at +0 unchanged, so this is the dense sum bit for bit in O(m)
 * instead of a chain of m k additions. */
static double aoso_edge(const struct tl *L)
{
    const double *G = L->req->G;
    double edge = 0.0;
    for (size_t i = 0; i < L->m; i++) {
        const uint32_t *mv = L->moved + 2 * i;
        edge += at(L, G, i, mv[0]) * L->mvout[2 * i];
        if (mv[1] != BL_MOVED_NONE)
            edge += at(L, G, i, mv[1]) * L->mvout[2 * i + 1];
    }
    return edge;
}

int tl_fit(struct tl *L, const struct bl_fit_request *req, struct bl_fit_result *res,
           char *err, size_t errcap)
{
    size_t m = L->m, k = L->k;
    if (req->c != k) {
        snprintf(err, errcap, "tree learners need one column per class (%zu), got %zu: they "
                 "do not run under an output coding", k, req->c);
        return -1;
    }
    int pairs = L->o.kind == TL_AOSO || L->o.kind == TL_ABC;
    if (!req->H || (pairs && !req->Hu)) {
        snprintf(err, errcap, "the request has no Hessian%s (the host must fill it: needs)",
                 pairs ? " off-diagonal part" : "");
        return -1;
    }
    double *P = grow_profile(L->g), t0 = P ? grow_now() : 0.0;
    L->nfits++;
    L->cm = req->class_major != 0;
    L->req = L->o.kind == TL_AOSO && L->o.naive_residuals ? naive_request(L, req) : req;
    struct forest *f = forest_new(k);
    if (L->o.kind != TL_AOSO) /* AOSO answers in moved_out */
        zero_rows(L, res->out);
    switch (L->o.kind) {
    case TL_AOSO: {
        struct grow_stats gs = {1, choose_aoso, fill_aoso, L, choose2_aoso};
        size_t neg = 0; /* a count: the same on any number of threads */
        if (!L->o.first_order) { /* only rule (33) uses Hu */
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(L->nthreads) reduction(+ : neg) if (L->nthreads > 1 && m * k >= 65536)
#endif
            for (size_t q = 0; q < m * k; q++)
                neg += !(req->Hu[q] >= 0.0);
        }
        L->hu_nonneg = neg == 0;
        if (P)
            P[GP_SETUP] += grow_now() - t0;
        memset(L->chosen, 0, 2 * L->o.gp.leaves);
        memset(L->hassum, 0, 2 * L->o.gp.leaves);
        emit_timed(L, f, grow_tree(L->g, &L->o.gp, &gs), res->out);
        break;
    }
    case TL_DIAG: {
        struct grow_stats gs = {k, NULL, fill_diag, L, NULL};
        emit_timed(L, f, grow_tree(L->g, &L->o.gp, &gs), res->out);
        break;
    }
    case TL_CLASS: {
        struct grow_stats gs = {1, NULL, fill_scalar, L, NULL};
        for (size_t c = 0; c < k; c++) {
            L->cls = (int)c;
            emit_timed(L, f, grow_tree(L->g, &L->o.gp, &gs), res->out);
        }
        break;
    }
    case TL_ABC:
        if (L->o.base_worst) {
            abc_trees(L, worst_class(L), f, res->out);
            break;
        }
        if (!req->trial_loss) {
            forest_free(f);
            snprintf(err, errcap, "base = exhaustive needs the host's trial loss (req->trial_loss), "
                     "which it offers only without an output coding; use base = worst");
            return -1;
        }
        if (!L->out2)
            L->out2 = xcalloc(m * k, sizeof *L->out2);
        /* every base class, kept when its true training loss after the
         * (shrunk) step is strictly the lowest so far */
        double best = HUGE_VAL;
        for (size_t b = 0; b < k; b++) {
            struct forest *cand = forest_new(k);
            abc_trees(L, (int)b, cand, L->out2);
            double loss = req->trial_loss(req->trial_ctx, L->out2);
            if (loss < best || b == 0) {
                best = loss;
                forest_free(f);
                f = cand;
                memcpy(res->out, L->out2, m * k * sizeof *res->out);
            } else {
                forest_free(cand);
            }
        }
        break;
    }
    /* the edge of the SDK's contract, <G, h>: for Newton leaves without
     * clamping twice the second-order model's loss decrease, 0 only when
     * no tree can make progress (with naive_residuals their G, so that a
     * run goes on as the authors' code does, to the loss tolerance) */
    double edge = 0.0;
    if (L->o.kind == TL_AOSO)
        edge = aoso_edge(L);
    else
        for (size_t i = 0; i < m; i++) /* row by row, classes ascending */
            for (size_t q = 0; q < k; q++)
                edge += at(L, L->req->G, i, q) * res->out[i * k + q];
    forest_seal(f);
    res->hyp = f;
    res->outdim = k;
    /* their stop: every p_y is 1 in double, so their loss sum -log p_y is 0 */
    res->edge = edge > 0.0 && !(L->req != req && L->naive_done) ? edge : 0.0;
    res->trees = f->ntrees;
    if (L->o.kind == TL_AOSO) { /* every row's leaf wrote its lists */
        res->moved = L->moved;
        res->nmoved = 2;
        res->moved_out = L->mvout;
    }
    if (P)
        P[GP_TOTAL] += grow_now() - t0;
    return 0;
}

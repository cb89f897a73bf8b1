/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One decision stump for one column of signed weights u, shared by in-tree
 * weak learners (header only, not part of the SDK):
 *
 *     h(x) = pol * (x_f > cut[f][b] ? +1 : -1)     (NaN: x_f > cut is false)
 *
 *   - bl_stump1_search(): the exact search over the quantized view's cuts
 *     that maximises |sum_i u_i h(x_i)|, for learners that start from or
 *     compete with the best stump (perceptron, wlda).  It is stump.c's
 *     criterion max for c = 1, with the same arithmetic (per feature a
 *     histogram of u over the bins, then L += hist[b], score T - 2 L), so
 *     it finds the same stump; features run in parallel above ~64k cells
 *     and are reduced deterministically: max |score|, ties to the lowest
 *     feature, then the lowest bin.  bl_stump1_search_any() does the
 *     same on a sparse set at the cost of its stored entries (plus the
 *     bins): the zero bin gets what the stored entries leave of the
 *     weights' total, as stump.c's sparse search does, so its sums are
 *     rounded differently and an edge may differ in its last bits.
 *   - the parsers of a stump's text "f=<feature> t=<threshold>" and
 *     " pol=<+1|-1>" (stump.c's hypotheses, wlda's axis-aligned ones).
 */
#ifndef BL_PLUGINS_COMMON_STUMP1_H
#define BL_PLUGINS_COMMON_STUMP1_H

#include <boostlab/data.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define BL_STUMP1_BINS 256

/* The best split of one feature; b < 0 when it has none. */
struct bl_stump1 {
    double edge; /* |sum_i u_i h(x_i)| as the scan computes it */
    int b, pol;
};

/* Best split of feature f for weights u (T = sum_i u_i); hist is
 * BL_STUMP1_BINS of scratch, ok the feature's row of bl_splits_ok(). */
static inline struct bl_stump1 bl_stump1_feature(const struct bl_quantized *Q, const uint8_t *ok,
                                                 size_t f, const double *u, double T,
                                                 double *hist)
{
    struct bl_stump1 fb = {-1.0, -1, 1};
    unsigned nb = Q->nbins[f];
    if (nb < 2)
        return fb;
    size_t m = Q->m;
    const uint8_t *bins = Q->bins + f * m;
    memset(hist, 0, nb * sizeof *hist);
    for (size_t i = 0; i < m; i++)
        hist[bins[i]] += u[i];
    double L = 0.0;
    for (unsigned b = 0; b + 1 < nb; b++) {
        L += hist[b];
        if (!ok[b])
            continue;
        double sc = T - 2.0 * L; /* sum_i u_i (x_if > cut ? 1 : -1) */
        if (fabs(sc) > fb.edge) {
            fb.edge = fabs(sc);
            fb.b = (int)b;
            fb.pol = sc < 0 ? -1 : 1;
        }
    }
    return fb;
}

/* bl_stump1_feature on a sparse set's column f: the stored entries' weights
 * and counts into their bins, the zero bin the rest (T minus their sum, and
 * m minus their count); a split is tried when both sides hold examples, as
 * bl_splits_ok() says for a dense set.  hist and cnt: BL_STUMP1_BINS of
 * scratch each.  The caller has checked that every bin is below nbins. */
static inline struct bl_stump1 bl_stump1_feature_sparse(const struct bl_quantized *Q,
                                                        const struct bl_sparse *X,
                                                        const struct bl_squantized *SQ, size_t f,
                                                        const double *u, double T, double *hist,
                                                        size_t *cnt)
{
    struct bl_stump1 fb = {-1.0, -1, 1};
    unsigned nb = Q->nbins[f];
    if (nb < 2)
        return fb;
    memset(hist, 0, nb * sizeof *hist);
    memset(cnt, 0, nb * sizeof *cnt);
    double st = 0.0;
    size_t e0 = X->cptr[f], e1 = X->cptr[f + 1];
    for (size_t e = e0; e < e1; e++) {
        double w = u[X->crow[e]];
        hist[SQ->cbin[e]] += w;
        cnt[SQ->cbin[e]]++;
        st += w;
    }
    hist[SQ->zbin[f]] += T - st;
    cnt[SQ->zbin[f]] += X->m - (e1 - e0);
    double L = 0.0;
    size_t cum = 0;
    for (unsigned b = 0; b + 1 < nb; b++) {
        L += hist[b];
        cum += cnt[b];
        if (cum == 0 || cum == X->m)
            continue;
        double sc = T - 2.0 * L;
        if (fabs(sc) > fb.edge) {
            fb.edge = fabs(sc);
            fb.b = (int)b;
            fb.pol = sc < 0 ? -1 : 1;
        }
    }
    return fb;
}

/* The best stump over all features for weights u: its feature, or -1 when
 * no feature splits the training set; *out gets the winner.  Dense (X
 * NULL): Q's bins, split_ok bl_splits_ok()'s table (Q->d *
 * BL_STUMP1_BINS).  Sparse: X and SQ, Q for the bins per feature, cnt
 * nthreads * BL_STUMP1_BINS of scratch.  hist is nthreads *
 * BL_STUMP1_BINS of scratch, best one per feature. */
static inline long bl_stump1_search_any(const struct bl_quantized *Q, const uint8_t *split_ok,
                                        const struct bl_sparse *X,
                                        const struct bl_squantized *SQ, const double *u,
                                        int nthreads, double *hist, size_t *cnt,
                                        struct bl_stump1 *best, struct bl_stump1 *out)
{
    size_t m = X ? X->m : Q->m, d = X ? X->d : Q->d;
    double T = 0.0;
    for (size_t i = 0; i < m; i++)
        T += u[i];
    long nf = (long)d;
    int nt = nthreads > 1 ? nthreads : 1;
    size_t cells = X ? X->nnz + d * BL_STUMP1_BINS / 8 : m * d;
    int par = nt > 1 && d > 1 && cells >= 65536;
    (void)nt;
#pragma omp parallel for schedule(dynamic) num_threads(nt) if (par)
    for (long fl = 0; fl < nf; fl++) {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        double *h = hist + (size_t)tid * BL_STUMP1_BINS;
        best[fl] = X ? bl_stump1_feature_sparse(Q, X, SQ, (size_t)fl, u, T, h,
                                                cnt + (size_t)tid * BL_STUMP1_BINS)
                     : bl_stump1_feature(Q, split_ok + (size_t)fl * BL_STUMP1_BINS, (size_t)fl,
                                         u, T, h);
    }
    long bf = -1;
    for (size_t f = 0; f < d; f++)
        if (best[f].b >= 0 && (bf < 0 || best[f].edge > best[bf].edge))
            bf = (long)f;
    if (bf >= 0)
        *out = best[bf];
    return bf;
}

static inline long bl_stump1_search(const struct bl_quantized *Q, const uint8_t *split_ok,
                                    const double *u, int nthreads, double *hist,
                                    struct bl_stump1 *best, struct bl_stump1 *out)
{
    return bl_stump1_search_any(Q, split_ok, NULL, NULL, u, nthreads, hist, NULL, best, out);
}

/* ---- text ------------------------------------------------------------------ */

/* "<digits>" -> value; NULL if not there. */
static inline const char *bl_stump1_parse_uint(const char *p, unsigned long long *v)
{
    if (!isdigit((unsigned char)*p))
        return NULL;
    char *end;
    errno = 0;
    *v = strtoull(p, &end, 10);
    return errno ? NULL : end;
}

/* "f=<feature> t=<threshold>": NULL when malformed (or the threshold is not
 * a finite-or-infinite float that strtof reads without overflow). */
static inline const char *bl_stump1_parse_ft(const char *p, unsigned long long *f, float *t)
{
    if (strncmp(p, "f=", 2) != 0 || !(p = bl_stump1_parse_uint(p + 2, f)))
        return NULL;
    if (strncmp(p, " t=", 3) != 0 || p[3] == 0 || isspace((unsigned char)p[3]))
        return NULL;
    char *end;
    errno = 0;
    *t = strtof(p + 3, &end);
    if (end == p + 3 || isnan(*t) || (isinf(*t) && errno == ERANGE))
        return NULL;
    return end;
}

/* " pol=<+-1>" (the value is range-checked by the caller) */
static inline const char *bl_stump1_parse_pol(const char *p, long *pol)
{
    if (strncmp(p, " pol=", 5) != 0 ||
        !(p[5] == '-' || p[5] == '+' || isdigit((unsigned char)p[5])))
        return NULL;
    char *end;
    errno = 0;
    *pol = strtol(p + 5, &end, 10);
    if (end == p + 5 || errno)
        return NULL;
    return end;
}

/* Only blanks left. */
static inline int bl_stump1_at_end(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return *p == 0;
}

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Quantization of a data set into at most max_bins bins per feature (see
 * quantize.h).  Each feature is handled on its own (in parallel over
 * features; nothing depends on the thread count): its non-missing values are
 * radix-sorted, grouped into distinct values with counts, the distinct
 * values are grouped into bins, and every value gets its bin by a binary
 * search over the cuts, the same test that learners apply to raw values. */
#include "quantize.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"

/* Order-preserving map of a (non-NaN) float to an unsigned key. */
static uint32_t float_key(float v)
{
    uint32_t u;
    if (v == 0.0f)
        v = 0.0f; /* -0 and +0 are one value */
    memcpy(&u, &v, sizeof u);
    return (u & 0x80000000u) ? ~u : u | 0x80000000u;
}

static float key_float(uint32_t k)
{
    uint32_t u = (k & 0x80000000u) ? k & 0x7fffffffu : ~k;
    float v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* LSD radix sort of n (key << 32 | row) pairs on the key, 8 bits a pass;
 * passes where every key has the same byte are skipped (common: small
 * integers, pixels).  The result ends in a or tmp; returns which. */
static uint64_t *radix_sort(uint64_t *a, uint64_t *tmp, size_t n)
{
    size_t cnt[4][256];
    memset(cnt, 0, sizeof cnt);
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 4; b++)
            cnt[b][(a[i] >> (32 + 8 * b)) & 0xff]++;
    uint64_t *src = a, *dst = tmp;
    for (int b = 0; b < 4; b++) {
        size_t *c = cnt[b];
        int sh = 32 + 8 * b;
        if (n == 0 || c[(src[0] >> sh) & 0xff] == n)
            continue;
        size_t sum = 0;
        for (int j = 0; j < 256; j++) {
            size_t t = c[j];
            c[j] = sum;
            sum += t;
        }
        for (size_t i = 0; i < n; i++)
            dst[c[(src[i] >> sh) & 0xff]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    return src;
}

/* A cut strictly between neighbouring distinct values lo < hi: their
 * midpoint rounded to float, or lo when rounding reaches hi (adjacent
 * floats), so that lo <= cut < hi always holds. */
static float cut_between(float lo, float hi)
{
    float c = (float)((double)lo + ((double)hi - (double)lo) / 2.0);
    if (!(c >= lo && c < hi))
        c = lo;
    return c;
}

/* Group nd distinct values (with counts cnt, total n) into at most max_bins
 * bins of roughly equal frequency; end[b] = 1 + index of the last distinct
 * value in bin b.  Returns the number of bins.  A bin boundary is closed
 * where it brings the bin nearest to its share of what is left, so a value
 * more frequent than a share gets a bin of its own; a value is never split. */
static size_t group_bins(const size_t *cnt, size_t nd, size_t n, size_t max_bins, size_t *end)
{
    if (nd <= max_bins) {
        for (size_t j = 0; j < nd; j++)
            end[j] = j + 1;
        return nd;
    }
    size_t nb = 0, left = n, cur = 0;
    for (size_t j = 0; j < nd; j++) {
        cur += cnt[j];
        size_t bins_left = max_bins - nb;
        if (j == nd - 1)
            break;
        if (bins_left == 1)
            continue; /* the last bin takes the rest */
        double share = (double)left / (double)bins_left;
        int close = (double)cur >= share ||
                    /* stopping here is closer to the share than taking the next */
                    (double)cur + (double)cnt[j + 1] - share > share - (double)cur ||
                    /* as many values left as bins: one each */
                    nd - 1 - j <= bins_left - 1;
        if (close) {
            end[nb++] = j + 1;
            left -= cur;
            cur = 0;
        }
    }
    end[nb++] = nd;
    return nb;
}

/* Distinct keys (dist, cnt: nd of them) of the n sorted pairs, with z more
 * zeros merged in at their place (a sparse column's entries not stored). */
static size_t distinct(const uint64_t *sorted, size_t n, size_t z, uint32_t *dist, size_t *cnt)
{
    uint32_t kz = float_key(0.0f);
    size_t nd = 0;
    int zdone = z == 0;
    for (size_t i = 0; i <= n; i++) {
        uint32_t k = i < n ? (uint32_t)(sorted[i] >> 32) : UINT32_MAX;
        if (!zdone && (i == n || k >= kz)) {
            dist[nd] = kz;
            cnt[nd++] = z;
            zdone = 1;
            if (i < n && k == kz) {
                cnt[nd - 1]++;
                continue;
            }
        }
        if (i == n)
            break;
        if (nd > 0 && dist[nd - 1] == k) {
            cnt[nd - 1]++;
        } else {
            dist[nd] = k;
            cnt[nd++] = 1;
        }
    }
    return nd;
}

/* Cuts of feature f from its distinct values; bin of each sorted pair
 * written to bins[(uint32_t)sorted[i]].  Returns the number of bins. */
static size_t cuts_and_bins(const uint64_t *sorted, size_t n, size_t z, size_t max_bins,
                            uint32_t *dist, size_t *cnt, size_t *end, float *cut, uint8_t *bins)
{
    size_t nd = distinct(sorted, n, z, dist, cnt);
    size_t nb = nd ? group_bins(cnt, nd, n + z, max_bins, end) : 1;
    for (size_t b = 0; b + 1 < nb; b++)
        cut[b] = cut_between(key_float(dist[end[b] - 1]), key_float(dist[end[b]]));
    /* Bins in sorted order.  Since lo <= cut < hi around every cut, bin b
     * holds exactly the values v with cut[b-1] < v <= cut[b]: the same
     * answer as testing raw values against the cuts. */
    for (size_t i = 0, j = 0, b = 0; i < n; i++) {
        uint32_t k = (uint32_t)(sorted[i] >> 32);
        while (dist[j] != k)
            j++;
        while (j >= end[b])
            b++;
        bins[(uint32_t)sorted[i]] = (uint8_t)b;
    }
    return nb;
}

/* The sparse view: per feature, its stored entries as above plus m minus
 * their number zeros. */
static void quantize_sparse(const bl_spmat *s, size_t m, size_t d, size_t max_bins, bl_qview *q)
{
    size_t cmax = 0, *off = bl_xmalloc((d + 1) * sizeof *off);
    off[0] = 0;
    for (size_t f = 0; f < d; f++) {
        size_t c = s->cptr[f + 1] - s->cptr[f];
        cmax = c > cmax ? c : cmax;
        size_t nbmax = c + 1 < max_bins ? c + 1 : max_bins; /* distinct values + 0 */
        off[f + 1] = off[f] + nbmax - 1;
    }
    q->cutpool = bl_xmalloc((off[d] ? off[d] : 1) * sizeof *q->cutpool);
    q->cbin = bl_xmalloc((s->nnz ? s->nnz : 1) * sizeof *q->cbin);
    q->rbin = bl_xmalloc((s->nnz ? s->nnz : 1) * sizeof *q->rbin);
    q->zbin = bl_xmalloc((d ? d : 1) * sizeof *q->zbin);
#pragma omp parallel if (d > 1 && s->nnz > 100000)
    {
        uint64_t *keys = bl_xmalloc((cmax + 1) * sizeof *keys);
        uint64_t *tmp = bl_xmalloc((cmax + 1) * sizeof *tmp);
        uint32_t *dist = bl_xmalloc((cmax + 1) * sizeof *dist);
        size_t *cnt = bl_xmalloc((cmax + 1) * sizeof *cnt);
        size_t *end = bl_xmalloc((max_bins + 1) * sizeof *end);
#pragma omp for schedule(dynamic, 256)
        for (size_t f = 0; f < d; f++) {
            size_t a = s->cptr[f], c = s->cptr[f + 1] - a, n = 0;
            uint8_t *bins = q->cbin + a;
            for (size_t e = 0; e < c; e++) {
                if (isnan(s->cval[a + e]))
                    bins[e] = 0; /* missing: bin 0 */
                else
                    keys[n++] = (uint64_t)float_key(s->cval[a + e]) << 32 | e;
            }
            uint64_t *sorted = radix_sort(keys, tmp, n);
            float *cut = q->cutpool + off[f];
            size_t nb = cuts_and_bins(sorted, n, m - c, max_bins, dist, cnt, end, cut, bins);
            q->cut[f] = cut;
            q->nbins[f] = (uint16_t)nb;
            size_t zb = 0; /* bin of 0: the number of cuts below it */
            while (zb + 1 < nb && cut[zb] < 0.0f)
                zb++;
            q->zbin[f] = (uint8_t)zb;
        }
        free(keys);
        free(tmp);
        free(dist);
        free(cnt);
        free(end);
    }
    free(off);
    /* the same bins in row order: rows' columns increase, so walking the
     * columns in order visits each row's entries in its order */
    size_t *cur = bl_xcalloc(m ? m : 1, sizeof *cur);
    for (size_t f = 0; f < d; f++)
        for (size_t e = s->cptr[f]; e < s->cptr[f + 1]; e++) {
            uint32_t i = s->crow[e];
            q->rbin[s->rptr[i] + cur[i]++] = q->cbin[e];
        }
    free(cur);
    q->sq = (struct bl_squantized){q->rbin, q->cbin, q->zbin};
}

int bl_quantize(const bl_dataset *ds, int max_bins, bl_qview *q, bl_error *err)
{
    memset(q, 0, sizeof *q);
    if (max_bins < 2 || max_bins > 256)
        return bl_errf(err, "quantize: max_bins must be in 2..256, got %d", max_bins);
    size_t m = ds->m, d = ds->d;
    if (m > UINT32_MAX)
        return bl_errf(err, "quantize: %zu rows is more than this code handles (2^32 - 1)", m);
    q->m = m;
    q->d = d;
    q->nbins = bl_xmalloc((d ? d : 1) * sizeof *q->nbins);
    q->cut = bl_xcalloc(d ? d : 1, sizeof *q->cut);
    if (ds->sp) {
        quantize_sparse(ds->sp, m, d, (size_t)max_bins, q);
        return 0;
    }
    q->bins = bl_xmalloc(m * d * sizeof *q->bins);

#pragma omp parallel if (d > 1 && m * d > 100000)
    {
        uint64_t *keys = bl_xmalloc(m * sizeof *keys);
        uint64_t *tmp = bl_xmalloc(m * sizeof *tmp);
        uint32_t *dist = bl_xmalloc(m * sizeof *dist);
        size_t *cnt = bl_xmalloc(m * sizeof *cnt);
        size_t *end = bl_xmalloc(((size_t)max_bins + 1) * sizeof *end);
#pragma omp for schedule(dynamic, 1)
        for (size_t f = 0; f < d; f++) {
            const float *col = ds->x + f * m;
            uint8_t *bins = q->bins + f * m;
            size_t n = 0;
            for (size_t i = 0; i < m; i++) {
                if (isnan(col[i]))
                    bins[i] = 0; /* missing: bin 0 */
                else
                    keys[n++] = (uint64_t)float_key(col[i]) << 32 | i;
            }
            uint64_t *sorted = radix_sort(keys, tmp, n);
            float *cut = bl_xmalloc(((size_t)max_bins - 1) * sizeof *cut);
            size_t nb = cuts_and_bins(sorted, n, 0, (size_t)max_bins, dist, cnt, end, cut, bins);
            q->cut[f] = bl_xrealloc(cut, (nb > 1 ? nb - 1 : 1) * sizeof *cut);
            q->nbins[f] = (uint16_t)nb;
        }
        free(keys);
        free(tmp);
        free(dist);
        free(cnt);
        free(end);
    }
    return 0;
}

void bl_qview_free(bl_qview *q)
{
    if (!q)
        return;
    if (q->cut && !q->cutpool)
        for (size_t f = 0; f < q->d; f++)
            free(q->cut[f]);
    free(q->cut);
    free(q->cutpool);
    free(q->rbin);
    free(q->cbin);
    free(q->zbin);
    free(q->bins);
    free(q->nbins);
    memset(q, 0, sizeof *q);
}

void bl_train_view(const bl_dataset *ds, const bl_qview *q, struct bl_train *t)
{
    memset(t, 0, sizeof *t);
    t->m = ds->m;
    t->d = ds->d;
    t->k = ds->k;
    t->y = ds->y;
    t->X.m = ds->m;
    t->X.d = ds->d;
    t->X.x = ds->x;
    if (ds->sp)
        t->S = &ds->sp->view;
    if (q && q->cutpool)
        t->SQ = &q->sq;
    if (q) {
        t->Q.m = q->m;
        t->Q.d = q->d;
        t->Q.bins = q->bins;
        t->Q.nbins = q->nbins;
        t->Q.cut = (const float *const *)q->cut;
    }
}

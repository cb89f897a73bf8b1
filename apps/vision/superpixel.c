/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SLIC super-pixels (VLFeat) and the super-pixel graph (superpixel.h). */
#include "superpixel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <vl/slic.h>

#include "util/fsutil.h"

static double srgb_lin(double c)
{
    c /= 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

void bl_rgb_to_luv(const unsigned char *rgb, double *luv)
{
    double r = srgb_lin(rgb[0]), g = srgb_lin(rgb[1]), b = srgb_lin(rgb[2]);
    double X = 0.4124 * r + 0.3576 * g + 0.1805 * b;
    double Y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    double Z = 0.0193 * r + 0.1192 * g + 0.9505 * b;
    const double un = 0.19784, vn = 0.46832; /* D65 white */
    double L = Y > 0.008856 ? 116.0 * cbrt(Y) - 16.0 : 903.3 * Y;
    double den = X + 15.0 * Y + 3.0 * Z;
    double up = den > 0 ? 4.0 * X / den : un, vp = den > 0 ? 9.0 * Y / den : vn;
    luv[0] = L;
    luv[1] = 13.0 * L * (up - un);
    luv[2] = 13.0 * L * (vp - vn);
}

void bl_spgraph_free(bl_spgraph *g)
{
    free(g->label);
    free(g->size);
    free(g->cx);
    free(g->cy);
    free(g->luv);
    free(g->ep);
    free(g->eq);
    free(g->blen);
    memset(g, 0, sizeof *g);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int bl_spgraph_build(const bl_image *rgb, uint32_t *label, size_t n, bl_spgraph *g,
                     bl_error *err)
{
    memset(g, 0, sizeof *g);
    int w = rgb->w, h = rgb->h;
    size_t np = (size_t)w * h;
    for (size_t p = 0; p < np; p++)
        if (label[p] >= n) {
            free(label);
            return bl_errf(err, "super-pixel label %u at pixel %zu is not below %zu", label[p], p,
                           n);
        }
    g->w = w, g->h = h, g->n = n, g->label = label;
    g->size = bl_xcalloc(n, sizeof *g->size);
    g->cx = bl_xcalloc(n, sizeof *g->cx);
    g->cy = bl_xcalloc(n, sizeof *g->cy);
    g->luv = bl_xcalloc(3 * n, sizeof *g->luv);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t p = (size_t)y * w + x, s = label[p];
            double c[3];
            bl_rgb_to_luv(rgb->c == 3 ? rgb->px + 3 * p
                                      : (const unsigned char[3]){rgb->px[p], rgb->px[p],
                                                                 rgb->px[p]}, c);
            g->size[s]++;
            g->cx[s] += x;
            g->cy[s] += y;
            for (int k = 0; k < 3; k++)
                g->luv[3 * s + k] += c[k];
        }
    for (size_t s = 0; s < n; s++) {
        if (!g->size[s]) {
            bl_spgraph_free(g);
            return bl_errf(err, "super-pixel %zu has no pixel", s);
        }
        double z = (double)g->size[s];
        g->cx[s] /= z, g->cy[s] /= z;
        for (int k = 0; k < 3; k++)
            g->luv[3 * s + k] /= z;
    }
    /* every 4-neighbour pair across a boundary, as the key (p << 32 | q),
     * sorted: runs of one key are an edge and its length */
    uint64_t *key = bl_xmalloc((2 * np + 1) * sizeof *key);
    size_t nk = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t a = label[(size_t)y * w + x];
            uint32_t nb[2] = {x + 1 < w ? label[(size_t)y * w + x + 1] : a,
                              y + 1 < h ? label[(size_t)(y + 1) * w + x] : a};
            for (int k = 0; k < 2; k++)
                if (nb[k] != a) {
                    uint32_t p = a < nb[k] ? a : nb[k], q = a < nb[k] ? nb[k] : a;
                    key[nk++] = (uint64_t)p << 32 | q;
                }
        }
    qsort(key, nk, sizeof *key, cmp_u64);
    g->ep = bl_xmalloc((nk + 1) * sizeof *g->ep);
    g->eq = bl_xmalloc((nk + 1) * sizeof *g->eq);
    g->blen = bl_xmalloc((nk + 1) * sizeof *g->blen);
    for (size_t i = 0; i < nk;) {
        size_t j = i;
        while (j < nk && key[j] == key[i])
            j++;
        g->ep[g->ne] = (uint32_t)(key[i] >> 32);
        g->eq[g->ne] = (uint32_t)key[i];
        g->blen[g->ne++] = (double)(j - i);
        i = j;
    }
    free(key);
    return 0;
}

int bl_superpixels(const bl_image *rgb, int region, double regularizer, int min_region,
                   bl_spgraph *g, bl_error *err)
{
    memset(g, 0, sizeof *g);
    if (region < 2 || !(regularizer > 0) || min_region < 0)
        return bl_errf(err, "SLIC: region %d (>= 2), regularizer %g (> 0), min region %d (>= 0)",
                       region, regularizer, min_region);
    size_t np = (size_t)rgb->w * rgb->h;
    float *im = bl_xmalloc(3 * np * sizeof *im); /* planes, x fastest (VLFeat's layout) */
    for (size_t p = 0; p < np; p++) {
        double c[3];
        const unsigned char *px = rgb->c == 3 ? rgb->px + 3 * p
                                              : (const unsigned char[3]){rgb->px[p], rgb->px[p],
                                                                         rgb->px[p]};
        bl_rgb_to_luv(px, c);
        for (int k = 0; k < 3; k++)
            im[k * np + p] = (float)c[k];
    }
    uint32_t *seg = bl_xmalloc(np * sizeof *seg);
    vl_slic_segment(seg, im, (vl_size)rgb->w, (vl_size)rgb->h, 3, (vl_size)region,
                    (float)regularizer, (vl_size)min_region);
    free(im);
    /* consecutive labels in order of first appearance */
    uint32_t maxl = 0;
    for (size_t p = 0; p < np; p++)
        if (seg[p] > maxl)
            maxl = seg[p];
    uint32_t *map = bl_xmalloc(((size_t)maxl + 1) * sizeof *map);
    for (size_t j = 0; j <= maxl; j++)
        map[j] = UINT32_MAX;
    size_t n = 0;
    for (size_t p = 0; p < np; p++) {
        if (map[seg[p]] == UINT32_MAX)
            map[seg[p]] = (uint32_t)n++;
        seg[p] = map[seg[p]];
    }
    free(map);
    return bl_spgraph_build(rgb, seg, n, g, err);
}

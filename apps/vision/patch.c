/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Boxes, grey frames and the tracker's patch features (patch.h). */
#include "patch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <vl/hog.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "util/fsutil.h"

double bl_box_iou(const bl_box *a, const bl_box *b)
{
    double ix = fmin(a->x + a->w, b->x + b->w) - fmax(a->x, b->x);
    double iy = fmin(a->y + a->h, b->y + b->h) - fmax(a->y, b->y);
    if (!(ix > 0) || !(iy > 0))
        return 0.0;
    double in = ix * iy, un = a->w * a->h + b->w * b->h - in;
    return un > 0 ? in / un : 0.0;
}

double bl_box_centre_dist(const bl_box *a, const bl_box *b)
{
    double dx = (a->x + a->w / 2) - (b->x + b->w / 2), dy = (a->y + a->h / 2) - (b->y + b->h / 2);
    return sqrt(dx * dx + dy * dy);
}

int bl_fimage_from(const bl_image *img, bl_fimage *out, bl_error *err)
{
    memset(out, 0, sizeof *out);
    if (img->w <= 0 || img->h <= 0 || (img->c != 1 && img->c != 3))
        return bl_errf(err, "frame of %dx%d pixels and %d channels", img->w, img->h, img->c);
    size_t n = (size_t)img->w * (size_t)img->h;
    out->w = img->w;
    out->h = img->h;
    out->px = bl_xmalloc(n * sizeof *out->px);
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = img->px + i * (size_t)img->c;
        double v = img->c == 1 ? p[0] : 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
        out->px[i] = (float)(v / 255.0);
    }
    return 0;
}

void bl_fimage_free(bl_fimage *f)
{
    free(f->px);
    memset(f, 0, sizeof *f);
}

int bl_patch_check(const bl_patch_cfg *c, bl_error *err)
{
    if (c->patch < 8 || c->patch > 256)
        return bl_errf(err, "patch = %d: expected 8..256 pixels", c->patch);
    if (c->small < 0 || (c->small && (c->small > c->patch || c->patch % c->small)))
        return bl_errf(err, "small = %d: expected 0 or a divisor of patch = %d", c->small,
                       c->patch);
    if (c->hog_cell && (c->hog_cell < 4 || c->hog_cell > c->patch / 2))
        return bl_errf(err, "hog_cell = %d: expected 0 or 4..patch/2 = %d", c->hog_cell,
                       c->patch / 2);
    if (!c->small && !c->hog_cell)
        return bl_errf(err, "no features: small and hog_cell are both 0");
    return 0;
}

/* VLFeat's HOG grid: (side + cell/2) / cell cells per side. */
static size_t hog_cells(const bl_patch_cfg *c)
{
    if (!c->hog_cell)
        return 0;
    size_t s = (size_t)(c->patch + c->hog_cell / 2) / (size_t)c->hog_cell;
    return s * s;
}

#define HOG_ORIENT 9
#define HOG_DIM 31 /* UoCTTI: 2 * 9 contrast-sensitive + 9 insensitive + 4 texture */

size_t bl_patch_dim(const bl_patch_cfg *c)
{
    return (size_t)c->small * (size_t)c->small + hog_cells(c) * HOG_DIM;
}

struct bl_patcher {
    bl_patch_cfg c;
    float *patch, *hog;
    VlHog *vh;
};

bl_patcher *bl_patcher_new(const bl_patch_cfg *c)
{
    bl_patcher *p = bl_xcalloc(1, sizeof *p);
    p->c = *c;
    p->patch = bl_xmalloc((size_t)c->patch * (size_t)c->patch * sizeof *p->patch);
    if (c->hog_cell) {
        p->vh = vl_hog_new(VlHogVariantUoctti, HOG_ORIENT, VL_FALSE);
        p->hog = bl_xmalloc((hog_cells(c) * HOG_DIM) * sizeof *p->hog);
    }
    return p;
}

void bl_patcher_free(bl_patcher *p)
{
    if (!p)
        return;
    if (p->vh)
        vl_hog_delete(p->vh);
    free(p->patch);
    free(p->hog);
    free(p);
}

/* Bilinear sample, pixel centres at integers, clamped at the border. */
static float sample(const bl_fimage *img, double x, double y)
{
    if (x < 0)
        x = 0;
    if (y < 0)
        y = 0;
    if (x > img->w - 1)
        x = img->w - 1;
    if (y > img->h - 1)
        y = img->h - 1;
    int x0 = (int)x, y0 = (int)y;
    int x1 = x0 + 1 < img->w ? x0 + 1 : x0, y1 = y0 + 1 < img->h ? y0 + 1 : y0;
    double fx = x - x0, fy = y - y0;
    const float *r0 = img->px + (size_t)y0 * (size_t)img->w, *r1 = img->px + (size_t)y1 * (size_t)img->w;
    double top = r0[x0] + fx * (r0[x1] - r0[x0]), bot = r1[x0] + fx * (r1[x1] - r1[x0]);
    return (float)(top + fy * (bot - top));
}

void bl_patch_features(bl_patcher *p, const bl_fimage *img, const bl_box *b, float *out,
                       size_t stride)
{
    int P = p->c.patch;
    double sx = b->w / P, sy = b->h / P;
    for (int v = 0; v < P; v++)
        for (int u = 0; u < P; u++)
            p->patch[v * P + u] = sample(img, b->x + (u + 0.5) * sx - 0.5,
                                         b->y + (v + 0.5) * sy - 0.5);
    size_t f = 0;
    if (p->c.small) {
        int s = p->c.small, k = P / s;
        float inv = 1.0f / (float)(k * k);
        for (int v = 0; v < s; v++)
            for (int u = 0; u < s; u++) {
                float acc = 0;
                for (int j = 0; j < k; j++)
                    for (int i = 0; i < k; i++)
                        acc += p->patch[(v * k + j) * P + u * k + i];
                out[f++ * stride] = acc * inv;
            }
    }
    if (p->vh) {
        vl_hog_put_image(p->vh, p->patch, (vl_size)P, (vl_size)P, 1, (vl_size)p->c.hog_cell);
        vl_hog_extract(p->vh, p->hog);
        size_t n = hog_cells(&p->c) * HOG_DIM;
        for (size_t j = 0; j < n; j++)
            out[f++ * stride] = p->hog[j];
    }
}

void bl_patch_features_all(bl_patcher *const *pool, int threads, const bl_fimage *img,
                           const bl_box *boxes, size_t n, float *X, size_t ld)
{
    (void)threads;
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
    for (size_t r = 0; r < n; r++) {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        bl_patch_features(pool[tid], img, &boxes[r], X + r, ld);
    }
}

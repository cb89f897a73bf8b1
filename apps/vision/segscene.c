/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Constructed segmentation scenes: shapes, texture fill, clutter (segscene.h). */
#include "segscene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "util/rng.h"

const char *const bl_segscene_cat[BL_SEGSCENE_NCAT] = {"horse", "vehicle", "person"};

static const char *const bg_files[BL_SEGSCENE_NBG] = {"grass.png",  "gravel.png", "brick.png",
                                                      "camera.png", "coffee.png", "rocket.jpg"};
static const char *const tex_files[BL_SEGSCENE_NCAT] = {"chelsea.png", "motorcycle_left.png",
                                                        "astronaut.png"};

static int read_rgb(const char *dir, const char *name, int c, bl_image *out, bl_error *err)
{
    char *p = bl_path_join(dir, name);
    bl_image raw;
    int rc = bl_image_read(p, &raw, err);
    free(p);
    if (rc < 0)
        return -1;
    rc = bl_image_convert(&raw, c, out, err);
    bl_image_free(&raw);
    return rc;
}

int bl_segscene_load(const char *dir, bl_segscene_src *s, bl_error *err)
{
    memset(s, 0, sizeof *s);
    for (int j = 0; j < BL_SEGSCENE_NBG; j++)
        if (read_rgb(dir, bg_files[j], 3, &s->bg[j], err) < 0)
            goto fail;
    for (int j = 0; j < BL_SEGSCENE_NCAT; j++)
        if (read_rgb(dir, tex_files[j], 3, &s->tex[j], err) < 0)
            goto fail;
    if (read_rgb(dir, "horse.png", 1, &s->horse, err) < 0)
        goto fail;
    return 0;
fail:
    bl_segscene_free(s);
    return bl_errprefix(err, "scene sources in %s (python3-skimage's data images)", dir);
}

void bl_segscene_free(bl_segscene_src *s)
{
    for (int j = 0; j < BL_SEGSCENE_NBG; j++)
        bl_image_free(&s->bg[j]);
    for (int j = 0; j < BL_SEGSCENE_NCAT; j++)
        bl_image_free(&s->tex[j]);
    bl_image_free(&s->horse);
}

int bl_segscene_category(const char *name)
{
    for (int j = 0; j < BL_SEGSCENE_NCAT; j++)
        if (!strcmp(name, bl_segscene_cat[j]))
            return j;
    return -1;
}

/* ---- random numbers ------------------------------------------------------- */

static double unif(uint64_t *st)
{
    *st += 0x9e3779b97f4a7c15ULL;
    return (double)(bl_mix64(*st) >> 11) * 0x1.0p-53;
}

static double range(uint64_t *st, double lo, double hi)
{
    return lo + (hi - lo) * unif(st);
}

/* ---- shapes: inside tests in the object's box, u, v in [0, 1) ------------- */

static int in_ellipse(double u, double v, double cu, double cv, double ru, double rv)
{
    double a = (u - cu) / ru, b = (v - cv) / rv;
    return a * a + b * b <= 1.0;
}

static int in_rect(double u, double v, double u0, double v0, double u1, double v1)
{
    return u >= u0 && u < u1 && v >= v0 && v < v1;
}

/* box aspect w:h = 2:1; wheels are circles in pixels, hence rv = 2 ru */
static int in_vehicle(double u, double v)
{
    return in_rect(u, v, 0.0, 0.38, 1.0, 0.78) || in_rect(u, v, 0.22, 0.08, 0.72, 0.40) ||
           in_ellipse(u, v, 0.23, 0.78, 0.11, 0.22) || in_ellipse(u, v, 0.77, 0.78, 0.11, 0.22);
}

/* box aspect w:h = 2:5 */
static int in_person(double u, double v)
{
    return in_ellipse(u, v, 0.5, 0.1, 0.2, 0.08) ||        /* head  */
           in_ellipse(u, v, 0.5, 0.38, 0.32, 0.2) ||       /* torso */
           in_rect(u, v, 0.02, 0.24, 0.98, 0.31) ||        /* arms  */
           in_rect(u, v, 0.26, 0.5, 0.46, 1.0) || in_rect(u, v, 0.54, 0.5, 0.74, 1.0);
}

static int in_horse(const bl_image *hm, double u, double v, int flip)
{
    if (flip)
        u = 1.0 - u;
    int x = (int)(u * hm->w), y = (int)(v * hm->h);
    if (x < 0 || y < 0 || x >= hm->w || y >= hm->h)
        return 0;
    return hm->px[(size_t)y * hm->w + x] < 128;
}

/* A random crop of src, box side fractions in [lo, hi], resampled to w x h,
 * colour-scaled by a random tint (so grey photographs get colours too). */
static int texture(const bl_image *src, uint64_t *st, int w, int h, double lo, double hi,
                   double tint, bl_image *out, bl_error *err)
{
    double f = range(st, lo, hi);
    double bw = f * src->w, bh = bw * h / w;
    if (bh > src->h)
        bh = src->h, bw = bh * w / h;
    double x0 = range(st, 0, src->w - bw), y0 = range(st, 0, src->h - bh);
    if (bl_image_crop_resize(src, x0, y0, bw, bh, w, h, out, err) < 0)
        return -1;
    double t[3];
    for (int c = 0; c < 3; c++)
        t[c] = 1.0 + tint * (2 * unif(st) - 1);
    for (size_t p = 0; p < (size_t)w * h; p++)
        for (int c = 0; c < 3; c++) {
            double v = out->px[p * 3 + c] * t[c];
            out->px[p * 3 + c] = (unsigned char)(v > 255 ? 255 : v);
        }
    return 0;
}

int bl_segscene_render(const bl_segscene_src *s, int cat, uint64_t seed, uint64_t idx, int w,
                       int h, bl_image *img, bl_image *mask, bl_image *fg, bl_error *err)
{
    if (cat < 0 || cat >= BL_SEGSCENE_NCAT)
        return bl_errf(err, "scene category %d out of range", cat);
    uint64_t st = bl_seed_derive(seed, bl_segscene_cat[cat], idx);
    bl_image tex, obj;
    memset(&tex, 0, sizeof tex);
    memset(&obj, 0, sizeof obj);
    if (fg)
        memset(fg, 0, sizeof *fg);
    if (bl_image_alloc(mask, w, h, 1, err) < 0)
        return -1;
    /* background: a grey or colour photograph, tinted */
    int b = (int)(unif(&st) * BL_SEGSCENE_NBG) % BL_SEGSCENE_NBG;
    if (texture(&s->bg[b], &st, w, h, 0.3, 0.9, 0.35, img, err) < 0)
        goto fail;
    /* clutter: 2..5 blobs, about a third cut from the foreground photograph */
    int nblob = 2 + (int)(unif(&st) * 4);
    for (int k = 0; k < nblob; k++) {
        int bw = (int)(range(&st, 0.12, 0.3) * w);
        int bh = (int)(range(&st, 0.12, 0.3) * h);
        if (bw < 2 || bh < 2)
            continue;
        int own = unif(&st) < 0.35;
        const bl_image *src = own ? &s->tex[cat] : &s->bg[(int)(unif(&st) * BL_SEGSCENE_NBG) %
                                                          BL_SEGSCENE_NBG];
        if (texture(src, &st, bw, bh, 0.1, 0.4, 0.25, &tex, err) < 0)
            goto fail;
        int x0 = (int)range(&st, -bw / 3.0, w - 2 * bw / 3.0);
        int y0 = (int)range(&st, -bh / 3.0, h - 2 * bh / 3.0);
        int ell = unif(&st) < 0.5;
        for (int y = 0; y < bh; y++)
            for (int x = 0; x < bw; x++) {
                int X = x0 + x, Y = y0 + y;
                if (X < 0 || Y < 0 || X >= w || Y >= h)
                    continue;
                if (ell && !in_ellipse((x + 0.5) / bw, (y + 0.5) / bh, 0.5, 0.5, 0.5, 0.5))
                    continue;
                memcpy(img->px + ((size_t)Y * w + X) * 3, tex.px + ((size_t)y * bw + x) * 3, 3);
            }
        bl_image_free(&tex);
    }
    /* the object: box size and place, then its texture */
    double ow, oh;
    if (cat == 0) {
        oh = range(&st, 0.45, 0.75) * h;
        ow = oh * s->horse.w / s->horse.h;
    } else if (cat == 1) {
        ow = range(&st, 0.45, 0.75) * w;
        oh = ow / 2;
    } else {
        oh = range(&st, 0.55, 0.85) * h;
        ow = oh * 2 / 5;
    }
    if (ow > w - 2)
        ow = w - 2, oh = cat == 0 ? ow * s->horse.h / s->horse.w : oh;
    int OW = (int)ow, OH = (int)oh;
    int ox = (int)range(&st, 0, w - OW), oy = (int)range(&st, 0, h - OH);
    int flip = unif(&st) < 0.5;
    if (texture(&s->tex[cat], &st, OW, OH, 0.25, 0.6, 0.15, &obj, err) < 0)
        goto fail;
    if (fg && bl_image_alloc(fg, w, h, 3, err) < 0)
        goto fail;
    for (int y = 0; y < OH; y++)
        for (int x = 0; x < OW; x++) {
            double u = (x + 0.5) / OW, v = (y + 0.5) / OH;
            int in = cat == 0 ? in_horse(&s->horse, u, v, flip)
                              : cat == 1 ? in_vehicle(flip ? 1 - u : u, v) : in_person(u, v);
            if (!in)
                continue;
            size_t p = (size_t)(oy + y) * w + (ox + x);
            mask->px[p] = 255;
            memcpy(img->px + p * 3, obj.px + ((size_t)y * OW + x) * 3, 3);
            if (fg)
                memcpy(fg->px + p * 3, obj.px + ((size_t)y * OW + x) * 3, 3);
        }
    /* bounded noise over the whole composite */
    for (size_t p = 0; p < (size_t)w * h * 3; p++) {
        int v = img->px[p] + (int)floor(unif(&st) * (2 * BL_SEGSCENE_NOISE + 1)) - BL_SEGSCENE_NOISE;
        img->px[p] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    bl_image_free(&obj);
    return 0;
fail:
    bl_image_free(&tex);
    bl_image_free(&obj);
    bl_image_free(img);
    bl_image_free(mask);
    if (fg)
        bl_image_free(fg);
    return -1;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The constructed tracking scenes (track_scenes.h).  A scene's trajectory
 * is the sum of two sinusoids per axis with periods, phases and amplitude
 * shares drawn from the seed; its scale and brightness are sinusoids too.
 * Positions and sizes are rounded to whole pixels before compositing, so
 * the ground truth is exact.  Noise is integer arithmetic on a counter-
 * based generator (no libm), so it is the same bytes everywhere.
 */
#include "track_scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "util/rng.h"

const bl_scene_def bl_scenes[] = {
    {"cat-brick", "cat's face (chelsea.png) over bricks (brick.png); translation only",
     "brick.png", "chelsea.png", 90, 40, 290, 250, 48, 42, 100, 0.0, 0.10, NULL, 0, 0},
    {"face-grass", "astronaut's face (astronaut.png) over grass (grass.png); scaling 0.75-1.25",
     "grass.png", "astronaut.png", 165, 50, 100, 120, 40, 48, 90, 0.25, 0.10, NULL, 0, 0},
    {"cup-gravel", "coffee cup (coffee.png) over gravel (gravel.png); a bar of bricks passes "
     "in front of it", "gravel.png", "coffee.png", 130, 40, 330, 280, 54, 46, 90, 0.10, 0.10,
     "brick.png", 26, 90},
    {"bike-camera", "motorcycle (motorcycle_left.png) over the cameraman (camera.png); fast "
     "motion, scaling", "camera.png", "motorcycle_left.png", 60, 60, 640, 400, 64, 40, 110, 0.15,
     0.05, NULL, 0, 0},
    {"cat-astronaut", "cat's face (chelsea.png) over the astronaut photo (astronaut.png); "
     "scaling and an occluding bar of grass", "astronaut.png", "chelsea.png", 90, 40, 290, 250,
     48, 42, 90, 0.20, 0.15, "grass.png", 24, 80},
    {NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0},
};

const bl_scene_def *bl_scene_find(const char *name)
{
    for (const bl_scene_def *d = bl_scenes; d->name; d++)
        if (!strcmp(d->name, name))
            return d;
    return NULL;
}

struct bl_scene {
    const bl_scene_def *def;
    uint64_t seed;
    bl_image bg;            /* background at frame size, RGB            */
    bl_image obj;           /* the object's source image, RGB           */
    bl_image occ;           /* occluder texture at its frame size, RGB  */
    double per[4], ph[4], share[2]; /* motion: x1 x2 y1 y2              */
    double sper, sph, iper, iph;    /* scale, brightness                */
    double occ_speed, occ_y;
};

static uint64_t draw(uint64_t *st)
{
    *st += 0x9e3779b97f4a7c15ULL;
    return bl_mix64(*st);
}

/* Uniform in [lo, hi), from 53 random bits. */
static double unif(uint64_t *st, double lo, double hi)
{
    return lo + (hi - lo) * (double)(draw(st) >> 11) / 9007199254740992.0;
}

static int load_rgb(const char *dir, const char *file, bl_image *out, bl_error *err)
{
    char *p = bl_path_join(dir, file);
    bl_image raw;
    int rc = bl_image_read(p, &raw, err);
    free(p);
    if (rc < 0)
        return -1;
    rc = bl_image_convert(&raw, 3, out, err);
    bl_image_free(&raw);
    return rc;
}

void bl_scene_close(bl_scene *s)
{
    if (!s)
        return;
    bl_image_free(&s->bg);
    bl_image_free(&s->obj);
    bl_image_free(&s->occ);
    free(s);
}

int bl_scene_open(bl_scene **out, const bl_scene_def *def, const char *imgdir, uint64_t seed,
                  bl_error *err)
{
    *out = NULL;
    bl_scene *s = bl_xcalloc(1, sizeof *s);
    s->def = def;
    s->seed = seed;
    uint64_t st = bl_seed_derive(seed, def->name, 0);
    bl_image tmp;
    memset(&tmp, 0, sizeof tmp);
    int rc = load_rgb(imgdir, def->bg, &tmp, err);
    if (rc == 0) { /* a seeded 3/4-size window of the background */
        int cw = tmp.w * 3 / 4, ch = cw * BL_SCENE_H / BL_SCENE_W;
        if (ch > tmp.h)
            ch = tmp.h;
        double x0 = unif(&st, 0, tmp.w - cw), y0 = unif(&st, 0, tmp.h - ch);
        rc = bl_image_crop_resize(&tmp, floor(x0), floor(y0), cw, ch, BL_SCENE_W, BL_SCENE_H,
                                  &s->bg, err);
    }
    bl_image_free(&tmp);
    if (rc == 0)
        rc = load_rgb(imgdir, def->obj, &s->obj, err);
    if (rc == 0 && (def->ox + def->ow > s->obj.w || def->oy + def->oh > s->obj.h))
        rc = bl_errf(err, "scene %s: object rectangle outside %s (%dx%d)", def->name, def->obj,
                     s->obj.w, s->obj.h);
    if (rc == 0 && def->occ) {
        rc = load_rgb(imgdir, def->occ, &tmp, err);
        if (rc == 0)
            rc = bl_image_crop_resize(&tmp, 0, 0, def->occ_w * 3, def->occ_h * 3, def->occ_w,
                                      def->occ_h, &s->occ, err);
        bl_image_free(&tmp);
    }
    if (rc < 0) {
        bl_errprefix(err, "scene %s (images from %s)", def->name, imgdir);
        bl_scene_close(s);
        return -1;
    }
    for (int j = 0; j < 4; j++) {
        s->per[j] = unif(&st, j % 2 ? 35 : 90, j % 2 ? 60 : 150);
        s->ph[j] = unif(&st, 0, 2 * M_PI);
    }
    s->share[0] = unif(&st, 0.6, 0.8);
    s->share[1] = unif(&st, 0.5, 0.8);
    s->sper = unif(&st, 60, 100);
    s->sph = unif(&st, 0, 2 * M_PI);
    s->iper = unif(&st, 40, 80);
    s->iph = unif(&st, 0, 2 * M_PI);
    s->occ_speed = unif(&st, 2.0, 3.0);
    s->occ_y = unif(&st, 0.35, 0.65) * BL_SCENE_H;
    *out = s;
    return 0;
}

/* The object's box at frame t (whole pixels, inside the frame). */
static void box_at(const bl_scene *s, int t, int *x, int *y, int *w, int *h)
{
    const bl_scene_def *d = s->def;
    double sc = 1 + d->scale_amp * sin(2 * M_PI * t / s->sper + s->sph);
    *w = (int)lround(d->w0 * sc);
    *h = (int)lround(d->h0 * sc);
    double ax = d->amp, ay = d->amp * 0.6;
    double cx = BL_SCENE_W / 2.0 + ax * (s->share[0] * sin(2 * M_PI * t / s->per[0] + s->ph[0]) +
                                         (1 - s->share[0]) * sin(2 * M_PI * t / s->per[1] + s->ph[1]));
    double cy = BL_SCENE_H / 2.0 + ay * (s->share[1] * sin(2 * M_PI * t / s->per[2] + s->ph[2]) +
                                         (1 - s->share[1]) * sin(2 * M_PI * t / s->per[3] + s->ph[3]));
    *x = (int)lround(cx - *w / 2.0);
    *y = (int)lround(cy - *h / 2.0);
    if (*x < 1)
        *x = 1;
    if (*y < 1)
        *y = 1;
    if (*x + *w > BL_SCENE_W - 1)
        *x = BL_SCENE_W - 1 - *w;
    if (*y + *h > BL_SCENE_H - 1)
        *y = BL_SCENE_H - 1 - *h;
}

int bl_scene_frame(const bl_scene *s, int t, int omit, bl_image *out, bl_box *gt, bl_error *err)
{
    const bl_scene_def *d = s->def;
    if (bl_image_alloc(out, BL_SCENE_W, BL_SCENE_H, 3, err) < 0)
        return -1;
    memcpy(out->px, s->bg.px, (size_t)BL_SCENE_W * BL_SCENE_H * 3);
    int x, y, w, h;
    box_at(s, t, &x, &y, &w, &h);
    *gt = (bl_box){x, y, w, h};
    if (!(omit & BL_SCENE_NO_OBJECT)) {
        bl_image o;
        if (bl_image_crop_resize(&s->obj, d->ox, d->oy, d->ow, d->oh, w, h, &o, err) < 0) {
            bl_image_free(out);
            return -1;
        }
        /* brightness gain in 1/1024ths: integer compositing */
        long g = lround(1024 * (1 + d->ill_amp * sin(2 * M_PI * t / s->iper + s->iph)));
        for (int v = 0; v < h; v++)
            for (int u = 0; u < w; u++)
                for (int c = 0; c < 3; c++) {
                    long val = (long)o.px[((size_t)v * w + u) * 3 + c] * g / 1024;
                    out->px[((size_t)(y + v) * BL_SCENE_W + x + u) * 3 + c] =
                        (unsigned char)(val > 255 ? 255 : val);
                }
        bl_image_free(&o);
    }
    if (d->occ && !(omit & BL_SCENE_NO_OCCLUDER)) {
        /* a bar sliding left to right, wrapping, across the object's mean row */
        int span = BL_SCENE_W + d->occ_w;
        int ox = (int)((long)lround(t * s->occ_speed) % span) - d->occ_w;
        int oy = (int)lround(s->occ_y) - d->occ_h / 2;
        for (int v = 0; v < d->occ_h; v++)
            for (int u = 0; u < d->occ_w; u++) {
                int fx = ox + u, fy = oy + v;
                if (fx < 0 || fy < 0 || fx >= BL_SCENE_W || fy >= BL_SCENE_H)
                    continue;
                memcpy(out->px + ((size_t)fy * BL_SCENE_W + fx) * 3,
                       s->occ.px + ((size_t)v * d->occ_w + u) * 3, 3);
            }
    }
    if (!(omit & BL_SCENE_NO_NOISE)) {
        /* sum of two uniforms in -4..4 per pixel: triangular, std ~2.6 grey levels */
        uint64_t st = bl_seed_derive(s->seed, "noise", (uint64_t)t);
        size_t n = (size_t)BL_SCENE_W * BL_SCENE_H;
        for (size_t i = 0; i < n; i++) {
            uint64_t r = draw(&st);
            int e = (int)(r % 9) - 4 + (int)((r >> 32) % 9) - 4;
            for (int c = 0; c < 3; c++) {
                int v = out->px[i * 3 + c] + e;
                out->px[i * 3 + c] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
    }
    return 0;
}

int bl_scene_write(const bl_scene_def *def, const char *imgdir, uint64_t seed, int frames,
                   const char *outdir, bl_error *err)
{
    if (frames < 1)
        return bl_errf(err, "frames = %d: expected at least 1", frames);
    bl_scene *s;
    if (bl_scene_open(&s, def, imgdir, seed, err) < 0)
        return -1;
    if (bl_mkdirs(outdir, err) < 0) {
        bl_scene_close(s);
        return -1;
    }
    /* atomic: a killed run leaves no truncated ground truth behind */
    char *gtp = bl_path_join(outdir, "groundtruth.txt");
    bl_atomic ga;
    int rc = bl_atomic_open(&ga, gtp, err);
    FILE *g = rc == 0 ? ga.f : NULL;
    for (int t = 0; t < frames && rc == 0; t++) {
        bl_image im;
        bl_box b;
        rc = bl_scene_frame(s, t, 0, &im, &b, err);
        if (rc < 0)
            break;
        char name[32];
        snprintf(name, sizeof name, "%05d.png", t + 1);
        char *fp = bl_path_join(outdir, name);
        rc = bl_image_write_png(fp, &im, err);
        free(fp);
        bl_image_free(&im);
        fprintf(g, "%d %d %d %d\n", (int)b.x, (int)b.y, (int)b.w, (int)b.h);
    }
    if (g && rc == 0)
        rc = bl_atomic_commit(&ga, err);
    else if (g)
        bl_atomic_abort(&ga);
    free(gtp);
    if (rc == 0) {
        char *rp = bl_path_join(outdir, "README.txt");
        bl_atomic ra;
        rc = bl_atomic_open(&ra, rp, err);
        if (rc == 0) {
            FILE *f = ra.f;
            fprintf(f, "CONSTRUCTED tracking sequence '%s' (not a benchmark video).\n"
                    "Made by: boostlab track make %s DIR --seed %llu --frames %d\n"
                    "Content: %s.\n"
                    "Object: %s, rectangle x %d y %d w %d h %d, shown at %dx%d (scale 1).\n"
                    "Background: %s (seeded window, resized to %dx%d).\n"
                    "Motion: two sinusoids per axis (amplitude %g px), scale amplitude %g,\n"
                    "brightness amplitude %g, occluder: %s; triangular noise +-8 grey levels.\n"
                    "Images from %s (Debian python3-skimage).\n"
                    "groundtruth.txt: one line per frame, 'x y w h', 0-based top-left corner,\n"
                    "exactly the rectangle the object was pasted into.\n",
                    def->name, def->name, (unsigned long long)seed, frames, def->doc, def->obj,
                    def->ox, def->oy, def->ow, def->oh, def->w0, def->h0, def->bg, BL_SCENE_W,
                    BL_SCENE_H, def->amp, def->scale_amp, def->ill_amp,
                    def->occ ? def->occ : "none", imgdir);
            rc = bl_atomic_commit(&ra, err);
        }
        free(rp);
    }
    bl_scene_close(s);
    return rc;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Constructed tracking sequences (the paper's benchmark videos are not
 * available offline): a real object cut from one of the images Debian's
 * python3-skimage ships, composited over a real background image, moving
 * on a smooth seeded trajectory, optionally scaling, changing brightness
 * and passing behind an occluder, with sensor noise.  Every frame is
 * rendered from (scene, seed, frame index) alone, and the ground-truth
 * box is by construction the rectangle the object was pasted into.
 */
#ifndef BL_VISION_TRACK_SCENES_H
#define BL_VISION_TRACK_SCENES_H

#include <stdint.h>

#include "image.h"
#include "patch.h"

/* Where python3-skimage keeps its images on Debian. */
#define BL_SKIMAGE_DATA "/usr/lib/python3/dist-packages/skimage/data"

/* Frame size of every scene. */
#define BL_SCENE_W 320
#define BL_SCENE_H 240

typedef struct bl_scene_def {
    const char *name, *doc;
    const char *bg;            /* background image file                    */
    const char *obj;           /* object image file                        */
    int ox, oy, ow, oh;        /* the object's rectangle in it             */
    int w0, h0;                /* its size in the frames at scale 1        */
    double amp, scale_amp;     /* motion amplitude (px), scale amplitude   */
    double ill_amp;            /* brightness change (fraction)             */
    const char *occ;           /* occluder texture file, or NULL           */
    int occ_w, occ_h;          /* occluder size in the frames              */
} bl_scene_def;

/* The scenes, NULL-terminated by name == NULL. */
extern const bl_scene_def bl_scenes[];
const bl_scene_def *bl_scene_find(const char *name);

typedef struct bl_scene bl_scene;

/* Load the scene's images from imgdir and draw its trajectory from seed. */
int bl_scene_open(bl_scene **s, const bl_scene_def *def, const char *imgdir, uint64_t seed,
                  bl_error *err);
void bl_scene_close(bl_scene *s);

/* Layers to leave out of a frame (tests: the object's own pixels). */
enum { BL_SCENE_NO_OBJECT = 1, BL_SCENE_NO_OCCLUDER = 2, BL_SCENE_NO_NOISE = 4 };

/* Frame t (from 0) into out (allocated, RGB) and its ground truth. */
int bl_scene_frame(const bl_scene *s, int t, int omit, bl_image *out, bl_box *gt,
                   bl_error *err);

/* Write frames 00001.png .. as PNG, groundtruth.txt ("x y w h" per frame,
 * 0-based top-left corner) and README.txt saying the sequence is
 * constructed and how, into outdir (created). */
int bl_scene_write(const bl_scene_def *def, const char *imgdir, uint64_t seed, int frames,
                   const char *outdir, bl_error *err);
#endif

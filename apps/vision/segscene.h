/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Constructed segmentation scenes (the offline stand-in for Graz-02, spec
 * §5.5): a foreground object of a known mask, filled with texture cut from
 * a real photograph, composited over a real textured background with
 * clutter blobs (some cut from the foreground's own photograph, so colour
 * alone does not separate the classes), plus bounded uniform noise.  The
 * mask is exact by construction: a pixel is foreground iff the object's
 * shape covers it.  Everything is drawn from one seed (deterministic,
 * byte for byte).  Source images: scikit-image's data folder (Debian
 * python3-skimage).
 */
#ifndef BL_VISION_SEGSCENE_H
#define BL_VISION_SEGSCENE_H

#include <stdint.h>

#include "image.h"

#define BL_SEGSCENE_NCAT 3
#define BL_SEGSCENE_NBG 6
#define BL_SEGSCENE_NOISE 8   /* noise is uniform in [-NOISE, NOISE] per channel */

/* Category names: analogues of Graz-02's bike, car and person. */
extern const char *const bl_segscene_cat[BL_SEGSCENE_NCAT];

typedef struct bl_segscene_src {
    bl_image bg[BL_SEGSCENE_NBG]; /* background / clutter photographs (RGB)  */
    bl_image tex[BL_SEGSCENE_NCAT]; /* each category's foreground photograph */
    bl_image horse;               /* grey silhouette, dark = inside           */
} bl_segscene_src;

/* Default source folder. */
#define BL_SEGSCENE_SRCDIR "/usr/lib/python3/dist-packages/skimage/data"

/* Read the source images from dir; errors name the file. */
int bl_segscene_load(const char *dir, bl_segscene_src *s, bl_error *err);
void bl_segscene_free(bl_segscene_src *s);
/* The category index of a name, -1 if none. */
int bl_segscene_category(const char *name);
/* Image idx of category cat from seed: img (w x h RGB), mask (w x h grey,
 * 255 foreground, 0 background) and, if fg is not NULL, the foreground
 * layer before noise (RGB), for checking the mask against the composite. */
int bl_segscene_render(const bl_segscene_src *s, int cat, uint64_t seed, uint64_t idx, int w,
                       int h, bl_image *img, bl_image *mask, bl_image *fg, bl_error *err);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Boxes and the patch features of the tracker (StructBoost spec §4.5:
 * "down-scaled grey-scale raw pixels and HOG"; the sizes are ours, the
 * paper gives none).  The box of a candidate is resampled bilinearly to a
 * patch x patch grey patch; its features are the patch averaged down to
 * small x small pixels (values in [0, 1]) followed by VLFeat's HOG
 * (UoCTTI variant, 9 orientations, 31 values per cell) of the patch with
 * cells of hog_cell pixels.  With the defaults 32 / 16 / 8 that is
 * 256 + 4 * 4 * 31 = 752 features.
 */
#ifndef BL_VISION_PATCH_H
#define BL_VISION_PATCH_H

#include <stddef.h>

#include "image.h"

/* An axis-aligned box: top-left corner and size, in pixels. */
typedef struct bl_box {
    double x, y, w, h;
} bl_box;

/* Pascal overlap area(a & b) / area(a | b); 0 for disjoint or empty boxes. */
double bl_box_iou(const bl_box *a, const bl_box *b);
/* Distance between the centres. */
double bl_box_centre_dist(const bl_box *a, const bl_box *b);

/* A grey frame as floats in [0, 1], row-major. */
typedef struct bl_fimage {
    int w, h;
    float *px;
} bl_fimage;

/* Grey float copy of img (any channel count; BT.601 luma for RGB). */
int bl_fimage_from(const bl_image *img, bl_fimage *out, bl_error *err);
void bl_fimage_free(bl_fimage *f);

typedef struct bl_patch_cfg {
    int patch;     /* side of the resampled patch (multiple of small)  */
    int small;     /* side of the down-scaled pixels; 0 = none         */
    int hog_cell;  /* HOG cell side; 0 = no HOG                        */
} bl_patch_cfg;

/* Check the sizes (patch 8..256, small divides patch, 4 <= hog_cell <=
 * patch / 2). */
int bl_patch_check(const bl_patch_cfg *c, bl_error *err);
/* Features per box. */
size_t bl_patch_dim(const bl_patch_cfg *c);

/* Per-thread scratch (patch buffer and a VlHog object). */
typedef struct bl_patcher bl_patcher;
bl_patcher *bl_patcher_new(const bl_patch_cfg *c);
void bl_patcher_free(bl_patcher *p);

/* Features of box b of img, feature f written to out[f * stride]. */
void bl_patch_features(bl_patcher *p, const bl_fimage *img, const bl_box *b, float *out,
                       size_t stride);

/* Features of n boxes into the feature-major X (ld = its rows): X[f * ld
 * + r] for box r, on up to `threads` OpenMP threads, with one patcher each
 * from pool (threads of them).  Each box's features depend on the box
 * alone, so the result does not depend on the threads. */
void bl_patch_features_all(bl_patcher *const *pool, int threads, const bl_fimage *img,
                           const bl_box *boxes, size_t n, float *X, size_t ld);
#endif

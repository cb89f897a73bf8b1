/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * 8-bit images for the vision tasks (tracking, segmentation): reading PNG
 * and JPEG (libpng, libjpeg; the format is told by the file's first bytes,
 * not its name), writing PNG, and the few pixel operations the feature
 * extractors and the scene generators share.  Pixels are row-major and
 * channel-interleaved: px[(y * w + x) * c + ch], c = 1 (grey) or 3 (RGB).
 */
#ifndef BL_VISION_IMAGE_H
#define BL_VISION_IMAGE_H
#include <stddef.h>
#include "util/error.h"

typedef struct bl_image {
    int w, h, c;
    unsigned char *px;
} bl_image;

/* Largest side accepted from a file; larger images are refused as bad
 * input rather than allocated. */
#define BL_IMAGE_MAX_SIDE 16384

/* Allocate a w x h image of c channels, zero-filled.  -1 on bad size or
 * out of memory. */
int bl_image_alloc(bl_image *img, int w, int h, int c, bl_error *err);
void bl_image_free(bl_image *img);
/* Read a PNG or JPEG file into RGB (c = 3) or grey (c = 1) as stored;
 * palette, 16-bit and alpha PNGs are converted (alpha dropped).  Errors name
 * the file. */
int bl_image_read(const char *path, bl_image *img, bl_error *err);
/* Write img as PNG; written to a temporary file and renamed, so a crash
 * never leaves a truncated image under the name. */
int bl_image_write_png(const char *path, const bl_image *img, bl_error *err);
/* dst = src converted to c channels (grey: ITU-R BT.601 luma). */
int bl_image_convert(const bl_image *src, int c, bl_image *dst, bl_error *err);
/* Bilinear sample of channel ch at real coordinates (pixel centres at
 * integers; clamped at the border). */
double bl_image_sample(const bl_image *img, double x, double y, int ch);
/* dst (allocated, w x h, src's channels) = the axis-aligned box
 * [x0, x0 + bw) x [y0, y0 + bh) of src resampled bilinearly (area-averaged
 * when shrinking by more than 2, so small patches are not aliased). */
int bl_image_crop_resize(const bl_image *src, double x0, double y0, double bw, double bh, int w,
                         int h, bl_image *dst, bl_error *err);
#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Super-pixels and their graph for CRF segmentation (spec §4.6): SLIC
 * super-pixels (VLFeat's vl_slic on the CIE L*u*v* image), relabelled
 * 0..n-1; per super-pixel its size, centroid and mean L*u*v* colour; the
 * edges are the pairs of super-pixels that touch (4-neighbourhood), each
 * with its shared boundary length in pixel sides.
 */
#ifndef BL_VISION_SUPERPIXEL_H
#define BL_VISION_SUPERPIXEL_H

#include <stdint.h>

#include "image.h"

typedef struct bl_spgraph {
    int w, h;
    size_t n;             /* super-pixels                                  */
    uint32_t *label;      /* w * h, row-major, in 0..n-1                   */
    size_t *size;         /* pixels of each                                */
    double *cx, *cy;      /* centroids                                     */
    double *luv;          /* n x 3 mean L*u*v*                             */
    size_t ne;            /* edges, p < q, sorted by (p, q)                */
    uint32_t *ep, *eq;
    double *blen;         /* shared boundary length: 4-neighbour pixel pairs */
} bl_spgraph;

/* sRGB (8-bit) to CIE L*u*v* (D65). */
void bl_rgb_to_luv(const unsigned char *rgb, double *luv);
/* SLIC super-pixels of an RGB image: region size (pixels), regularizer
 * (VLFeat's, on L*u*v* values), minimum region (smaller ones merged). */
int bl_superpixels(const bl_image *rgb, int region, double regularizer, int min_region,
                   bl_spgraph *g, bl_error *err);
/* The graph (sizes, centroids, colours, edges) of a given labelling
 * (values 0..n-1, each used): what bl_superpixels ends with. */
int bl_spgraph_build(const bl_image *rgb, uint32_t *label, size_t n, bl_spgraph *g,
                     bl_error *err);
void bl_spgraph_free(bl_spgraph *g);

#endif

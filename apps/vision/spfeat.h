/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Super-pixel feature groups for the CRF task's unary classifiers (spec
 * §5.5), each a vector per super-pixel:
 *   colour       mean L*u*v* and 8-bin R, G, B histograms (27 values);
 *   lbpS, hogS   VLFeat uniform LBP (58) and UoCTTI HOG (31) on the S x S
 *                grey patch centred at the super-pixel's centroid, cell
 *                size S / 4 (the paper's "a quarter of the patch"), the
 *                cells' descriptors averaged (pooled) into one vector;
 *                S = 8, 16, 24, 32 pixels (the paper's 4 patch sizes).
 * GIST is not in VLFeat (nor in any Debian package), so it is left out:
 * 9 groups instead of the paper's 14 (visual words: see bl_spfeat_words).
 */
#ifndef BL_VISION_SPFEAT_H
#define BL_VISION_SPFEAT_H

#include "superpixel.h"

#define BL_SPFEAT_NGROUPS 9

typedef struct bl_spfeat {
    size_t n;                         /* super-pixels                    */
    size_t dim[BL_SPFEAT_NGROUPS];
    float *x[BL_SPFEAT_NGROUPS];      /* n x dim[k], row-major           */
} bl_spfeat;

extern const char *const bl_spfeat_name[BL_SPFEAT_NGROUPS];

int bl_spfeat_compute(const bl_image *rgb, const bl_spgraph *g, bl_spfeat *F, bl_error *err);
void bl_spfeat_free(bl_spfeat *F);

#endif

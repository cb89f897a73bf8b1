/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The quantized view of a feature matrix (SDK struct bl_quantized): at most
 * max_bins bins per feature.  A feature with no more distinct values than
 * bins gets one bin per value, so thresholds are exact; otherwise the cuts
 * are placed at equal-frequency positions between distinct values.  Cuts
 * are midpoints between neighbouring distinct values, so a raw-value test
 * "x > cut" agrees with the bin test on the data the view was built from.
 */
#ifndef BL_DATA_QUANTIZE_H
#define BL_DATA_QUANTIZE_H

#include <boostlab/data.h>

#include "../util/error.h"
#include "dataset.h"

typedef struct bl_qview {
    size_t m, d;
    uint8_t *bins;      /* m*d feature-major; NULL for a sparse set */
    uint16_t *nbins;    /* d */
    float **cut;        /* d arrays of nbins[f]-1 cuts */
    /* A sparse set's view: the cuts point into one pool (a million
     * features must not cost a million allocations), and the stored
     * entries' bins come in both orders with each feature's bin of 0. */
    float *cutpool;
    uint8_t *rbin, *cbin, *zbin;
    struct bl_squantized sq;
} bl_qview;

/* max_bins in 2..256.  A sparse ds gets a sparse view whose cuts and bins
 * are exactly those of the same set held densely: the entries not stored
 * count as that many zeros in the cut rule. */
int bl_quantize(const bl_dataset *ds, int max_bins, bl_qview *q, bl_error *err);
void bl_qview_free(bl_qview *q);

/* Fill an SDK view pointing into ds and q (no copies): S and SQ set for a
 * sparse set, X.x and Q.bins otherwise. */
void bl_train_view(const bl_dataset *ds, const bl_qview *q, struct bl_train *t);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * boostlab plugin SDK: how plugins see a data set.  Features are stored
 * feature-major (one contiguous column per feature) so that a full scan of
 * one feature over all examples touches consecutive memory; the quantized
 * view maps each value to a bin of at most 256 per feature and is built once
 * per training set and shared by every learner that runs on it.
 */
#ifndef BOOSTLAB_DATA_H
#define BOOSTLAB_DATA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Dense feature matrix, feature-major: value of feature f for example i is
 * x[f * m + i].  Missing values are NaN. */
struct bl_matrix {
    size_t m, d;
    const float *x;
};

/* Quantized view of a struct bl_matrix.  bins[f * m + i] is the bin of x_if;
 * bin b of feature f holds values v with cut[f][b-1] < v <= cut[f][b]
 * (cut[f][-1] = -inf).  So "x > cut[f][b]" on raw values is exactly
 * "bin > b" on the training set.  Missing values fall in bin 0, so the
 * bin test alone sends them left with the smallest values; a learner that
 * lets them go right must find them in the raw values (x is NaN). */
struct bl_quantized {
    size_t m, d;
    const uint8_t *bins;
    const uint16_t *nbins;       /* per feature, 1..256                  */
    const float *const *cut;     /* per feature, nbins[f] - 1 thresholds */
};

/* A training set as plugins see it: labels 0..k-1, raw and quantized
 * features. */
struct bl_train {
    size_t m, d, k;
    const int *y;
    struct bl_matrix X;
    struct bl_quantized Q;
};

#ifdef __cplusplus
}
#endif
#endif

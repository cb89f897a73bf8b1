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

/* Sparse feature matrix, stored both ways so that a learner can
 * walk a node's rows (CSR) or one feature's rows (CSC) at the cost of the
 * entries it touches.  Entries not stored are 0.0; a missing value is
 * stored explicitly as NaN.  Row i's entries are k in [rptr[i], rptr[i+1]),
 * feature rcol[k] (increasing within the row), value rval[k]; feature f's
 * entries are k in [cptr[f], cptr[f+1]), row crow[k] (increasing), value
 * cval[k].  Both hold the same nnz entries. */
struct bl_sparse {
    size_t m, d, nnz;
    const size_t *rptr;     /* m + 1 */
    const uint32_t *rcol;   /* nnz   */
    const float *rval;      /* nnz   */
    const size_t *cptr;     /* d + 1 */
    const uint32_t *crow;   /* nnz   */
    const float *cval;      /* nnz   */
};

/* Quantized view of a struct bl_sparse: the bins of its stored
 * entries, in the same two orders, and per feature the bin of the value 0,
 * which every entry not stored falls in.  Bins and cuts mean what they mean
 * in struct bl_quantized (whose nbins and cut a sparse training set still
 * fills).  A learner gets a zero-bin count without touching the zeros by
 * subtracting the stored entries' counts from a node's totals. */
struct bl_squantized {
    const uint8_t *rbin;    /* nnz, parallel to rcol */
    const uint8_t *cbin;    /* nnz, parallel to crow */
    const uint8_t *zbin;    /* d: bin of 0.0         */
};

/* A training set as plugins see it: labels 0..k-1, raw and quantized
 * features.  It may be sparse: then S and SQ are set while
 * X.x and Q.bins are NULL (Q.nbins and Q.cut stay valid).  The host gives a
 * sparse set only to weak learners that declare they take one
 * (bl_weak_ops.predict_sparse); every other plugin sees X.x and Q.bins. */
struct bl_train {
    size_t m, d, k;
    const int *y;
    struct bl_matrix X;
    struct bl_quantized Q;
    /* ---- 2.1 ---------------------------------------------------------------- */
    const struct bl_sparse *S;        /* NULL: dense */
    const struct bl_squantized *SQ;   /* NULL: dense */
};

#ifdef __cplusplus
}
#endif
#endif

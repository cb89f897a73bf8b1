/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `boostlab segment prepare`: from a set of images with masks (a folder
 * with images.csv, as `segment make` writes) to what the crf task reads:
 *   - SLIC super-pixels and their graph per image (superpixel.h), written
 *     as NNNN.spm (the label map, for figures);
 *   - the feature groups per super-pixel (spfeat.h);
 *   - one AdaBoost classifier per feature group (the boosting engine,
 *     recipe adaboost, decision stumps), foreground vs background
 *     super-pixels of the training images; its real-valued output is the
 *     unary potential value F'_k.  Training images get F'_k from 2-fold
 *     cross-fitting (the classifier of the other half of the training
 *     images), so the CRF learner sees unaries as unreliable as on test
 *     images; test images from the classifier of all training images;
 *   - NNNN.crf per image (plugins/task/crf/crf.c documents the format),
 *     train.csv and test.csv (the image ids of each part);
 *   - the unary-only baselines: AdaBoost and a linear SVM (liblinear) on
 *     all feature groups concatenated, each super-pixel on its own; pixel
 *     metrics into baselines.tsv and labels into pred-adaboost/ and
 *     pred-svm/ (NNNN.lab, as the crf task's pred_out writes).
 */
#ifndef BL_VISION_SEGPREP_H
#define BL_VISION_SEGPREP_H

#include <stdint.h>

#include "plugin/loader.h"
#include "util/error.h"

typedef struct bl_segprep_opts {
    int region;           /* SLIC region size (pixels)                   */
    double regularizer;   /* SLIC regularizer                            */
    int min_region;       /* SLIC minimum region                         */
    int iterations;       /* AdaBoost iterations of each unary classifier */
    int base_iterations;  /* of the unary-only AdaBoost baseline          */
    double svm_C;         /* the linear SVM baseline's C                  */
    uint64_t seed;
    int quiet;
} bl_segprep_opts;

void bl_segprep_defaults(bl_segprep_opts *o);
int bl_segprep_run(const char *setdir, const char *outdir, const bl_segprep_opts *o,
                   const bl_registry *reg, bl_error *err);

/* Pixel metrics of super-pixel labellings: accumulate per node, then
 * values[0..6] = iou_mean, iou_fg, iou_bg, acc_mean, acc_fg, acc_bg,
 * hamming is not included. */
typedef struct bl_segcount {
    double tp, fp, fn, tn;
} bl_segcount;
void bl_segcount_add(bl_segcount *c, int pred, double size, double fg);
void bl_segcount_values(const bl_segcount *c, double *v);

/* Label map files NNNN.spm: "SPM1 W H N\n" then W*H little-endian uint32. */
int bl_spm_write(const char *path, int w, int h, size_t n, const uint32_t *label, bl_error *err);
int bl_spm_read(const char *path, int *w, int *h, size_t *n, uint32_t **label, bl_error *err);

#endif

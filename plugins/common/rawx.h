/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * For weak learners that read the raw feature matrix (the SVMs) rather
 * than the quantized view: is it there and non-empty?
 */
#ifndef BL_PLUGINS_COMMON_RAWX_H
#define BL_PLUGINS_COMMON_RAWX_H

#include <stdio.h>

#include <boostlab/boostlab.h>

/* 1 when train has a raw matrix of its own shape with features; else 0
 * with err set. */
static inline int raw_features_ok(const struct bl_train *train, char err[BL_ERR_MAX])
{
    if (!train->X.x || train->X.m != train->m || train->X.d != train->d) {
        snprintf(err, BL_ERR_MAX, "the training set has no (matching) raw feature matrix");
        return 0;
    }
    if (train->d == 0) {
        snprintf(err, BL_ERR_MAX, "the training set has no features");
        return 0;
    }
    return 1;
}

#endif

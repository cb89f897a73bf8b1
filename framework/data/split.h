/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Train/test splits as the papers use them.  Every random split draws from
 * its own seed (see util/rng.h), so the same seed gives the same rows
 * whatever else runs and on however many threads.
 */
#ifndef BL_DATA_SPLIT_H
#define BL_DATA_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "../util/error.h"
#include "dataset.h"

typedef enum bl_split_kind {
    BL_SPLIT_GIVEN = 1,     /* separate test file: all rows train          */
    BL_SPLIT_FIRST = 2,     /* first `first` rows train, the rest test     */
    BL_SPLIT_RATIO = 3,     /* stratified random, test_ratio of each class */
    BL_SPLIT_PER_CLASS = 4, /* per_class random rows of each class (all of a
                               smaller class), then stratified test_ratio  */
    BL_SPLIT_KFOLD = 5      /* stratified k-fold: one fold tests, the rest
                               train (10-fold CV repeated, Li 2006)        */
} bl_split_kind;

typedef struct bl_split_spec {
    bl_split_kind kind;
    size_t first;
    double test_ratio;      /* in (0,1) */
    size_t per_class;
    size_t folds;           /* BL_SPLIT_KFOLD: k, at least 2 */
} bl_split_spec;

/* The kind's name as the experiment file spells it ("ratio", "kfold"). */
const char *bl_split_name(bl_split_kind kind);

/* Row indices (ascending) of the training and test parts of ds.  For
 * BL_SPLIT_GIVEN, train = all rows and test is empty.  The arrays are
 * malloc'ed; free them.  Errors: a split that leaves the training part
 * empty, `first` >= m, a ratio outside (0,1), per_class = 0, an empty data
 * set, and a random split whose test part comes out empty.
 *
 * Random kinds: each class's rows are shuffled (GSL mt19937 seeded from
 * `seed`, classes in index order); round(test_ratio * n_c) of them go to
 * the test part, but a class of two or more rows keeps at least one
 * training row.  BL_SPLIT_PER_CLASS first keeps min(per_class, n_c) rows of
 * each class at random (the rest are in neither part).
 *
 * BL_SPLIT_KFOLD: the seed fixes a partition into `folds` folds and `fold`
 * (< folds; ignored by the other kinds) is the one that tests.  Each class's
 * shuffled rows are dealt to the folds in turn, continuing from where the
 * previous class stopped, so every fold gets n_c / folds rows of class c
 * (give or take one) and the fold sizes differ by at most one.  The folds of
 * one seed are disjoint and cover every row once. */
int bl_split(const bl_dataset *ds, const bl_split_spec *sp, uint64_t seed, size_t fold,
             size_t **train, size_t *ntrain, size_t **test, size_t *ntest,
             bl_error *err);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * In-memory data sets and the readers that fill them (CSV, LIBSVM/SVMlight,
 * IDX, each optionally gzip-compressed).  Features are kept feature-major
 * (x[f * m + i]) so one feature's column is contiguous, matching the SDK's
 * struct bl_matrix.
 */
#ifndef BL_DATA_DATASET_H
#define BL_DATA_DATASET_H

#include <stddef.h>

#include "../util/error.h"

typedef struct bl_dataset {
    size_t m, d, k;        /* examples, features, classes                 */
    int *y;                /* m labels in 0..k-1                          */
    float *x;              /* m*d feature-major; NaN = missing            */
    char **feature_names;  /* d names                                     */
    char **class_names;    /* k names                                     */
} bl_dataset;

/* Class table shared between the files of one data set, so that a test
 * file's labels map to the same indices as its training file's. */
typedef struct bl_classes {
    size_t k;
    char **names;
    int fixed;             /* 1: unknown labels are an error (table from a
                              .classes file or a training file)           */
} bl_classes;

/* How labels become class indices when no fixed table is given: integer
 * labels >= 0 are used as the index (k = max + 1, names "0".."k-1"); any
 * other labels (negative integers such as LIBSVM's -1/+1, or words) are
 * sorted (numerically if all numbers, else by strcmp) and numbered. */

typedef struct bl_csv_opts {
    const char *label;     /* column name, or a 0-based index written as a
                              number; NULL = "label" if present, else 0   */
    char delim;            /* 0 = ',' */
} bl_csv_opts;

/* Readers.  On error they return -1 with err holding
 * "PATH:LINE: column N (NAME): expected ..., got '...'" and leave *out empty.
 * `classes` may be NULL; if not NULL and fixed, labels are mapped through
 * it; if not NULL and not fixed, it receives the table that was built. */
int bl_read_csv(const char *path, const bl_csv_opts *opts, bl_classes *classes,
                bl_dataset *out, bl_error *err);
/* d_hint: number of features to use (0 = the largest index seen); indices
 * above a nonzero d_hint are an error. */
int bl_read_libsvm(const char *path, size_t d_hint, bl_classes *classes,
                   bl_dataset *out, bl_error *err);
/* IDX images (ubyte, any number of dimensions >= 1 after the count) and
 * labels (ubyte, one dimension).  Pixel values are kept as 0..255. */
int bl_read_idx(const char *images, const char *labels, bl_classes *classes,
                bl_dataset *out, bl_error *err);

/* Read a .classes file: one class name per line. */
int bl_read_class_names(const char *path, bl_classes *out, bl_error *err);

void bl_classes_free(bl_classes *c);
void bl_dataset_free(bl_dataset *ds);

/* New data set holding rows[0..n) of src (copies; names copied too). */
int bl_dataset_subset(const bl_dataset *src, const size_t *rows, size_t n,
                      bl_dataset *out, bl_error *err);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Feature transforms of an experiment's [data] section: image-level ones
 * (moment-based deskewing, multi-level HOG through VLFeat) computed once per
 * data set when it is read, and PCA fitted on a training part and applied
 * to that part and its test part.  Images are rows of a data set whose
 * features are the pixels in row-major order (IDX files: feature j = px<j>).
 */
#ifndef BL_DATA_TRANSFORM_H
#define BL_DATA_TRANSFORM_H

#include <stddef.h>
#include <stdio.h>

#include "../util/error.h"
#include "dataset.h"

#define BL_HOG_MAX_LEVELS 8

typedef struct bl_transform_spec {
    size_t img_w, img_h;        /* 0: a square image from the feature count */
    int deskew;
    size_t hog_cell[BL_HOG_MAX_LEVELS]; /* cell sizes in pixels, one a level */
    size_t nhog;
    int hog_orient;             /* orientations (UoCTTI HOG); 0 = 9       */
    size_t pca_dim;             /* 0: not set                            */
    double pca_var;             /* 0: not set; else the variance kept      */
    /* "FILE:LINE" of each key that was set, for load-time errors */
    char *where_image, *where_deskew, *where_hog, *where_pca;
} bl_transform_spec;

/* Nonzero when key is one of the transform keys (image, deskew, hog,
 * hog_orientations, pca, pca_variance). */
int bl_transform_key(const char *key);
/* Parse one key; errors read "WHERE: KEY: ...". */
int bl_transform_parse(bl_transform_spec *t, const char *key, const char *value,
                       const char *where, bl_error *err);
/* The keys that were set, as "key = value" lines (the data set's hash). */
void bl_transform_write(const bl_transform_spec *t, FILE *f);
void bl_transform_free(bl_transform_spec *t);
/* a and b set the same transforms (where they were set aside). */
int bl_transform_same(const bl_transform_spec *a, const bl_transform_spec *b);
static inline int bl_transform_has_image(const bl_transform_spec *t)
{
    return t->deskew || t->nhog;
}
static inline int bl_transform_has_pca(const bl_transform_spec *t)
{
    return t->pca_dim || t->pca_var > 0;
}

/* Deskew and/or HOG every row of ds in place (its features and names are
 * replaced).  Errors name the key's FILE:LINE. */
int bl_transform_images(const bl_transform_spec *t, bl_dataset *ds, bl_error *err);
/* Fit PCA on train and replace the features of train and of test (which may
 * be empty: m = 0) by the components.  test never influences the basis. */
int bl_transform_pca(const bl_transform_spec *t, bl_dataset *train, bl_dataset *test,
                     bl_error *err);

/* ---- the pieces, for the tests ---------------------------------------- */

/* Shear row y of the w x h image (row-major) by alpha (y - cy) pixels, with
 * alpha = mu11 / mu02 and cy the intensity centroid's row, so that the
 * principal axis of the intensity becomes vertical; out may not alias img. */
void bl_deskew(const float *img, size_t w, size_t h, float *out);
/* Length of the concatenated UoCTTI HOG of a w x h image at the given cell
 * sizes: sum over levels of cells(w) cells(h) (4 + 3 orient). */
size_t bl_hog_dim(size_t w, size_t h, const size_t *cells, size_t ncells, int orient);
/* Per level, VLFeat's layout: component-major, then cell row, then column. */
void bl_hog(const float *img, size_t w, size_t h, const size_t *cells, size_t ncells, int orient,
            float *out);

typedef struct bl_pca {
    size_t d, D;
    double *mean;               /* d                                    */
    double *basis;              /* D x d, row j = component j (unit)     */
    double *eigval;             /* the D variances, decreasing           */
    double total;               /* the training part's total variance    */
} bl_pca;
/* Fit on the m rows of ds: D = dim if nonzero, else the fewest components
 * whose variance reaches var * total. */
int bl_pca_fit(const bl_dataset *ds, size_t dim, double var, bl_pca *p, bl_error *err);
/* Replace ds's features by its D component scores (named pc1..pcD). */
void bl_pca_apply(const bl_pca *p, bl_dataset *ds);
void bl_pca_free(bl_pca *p);

#endif

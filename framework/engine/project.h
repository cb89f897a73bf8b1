/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * RandomBoost's projections (boostlab/projection.h) as the engine
 * uses them: an open projection plugin, the stacked projected inputs of
 * RBoost-rank, and the linear maps from the variables a coefficient solver
 * sees to the engine's per-term, per-class coefficients W (t x k):
 *
 *   shared   (project = inputs):  W[j][r] = w_j, one value per term;
 *   outputs  (project = outputs): W[j][r] = sum_v P^(r)[v][j] w_v, w in R^n.
 *
 * Both are linear, so the solver's objective is the engine's coefficient
 * objective composed with the map, and its gradient the map's transpose
 * applied to the engine's.
 */
#ifndef BL_ENGINE_PROJECT_H
#define BL_ENGINE_PROJECT_H

#include <boostlab/data.h>
#include <boostlab/projection.h>
#include <boostlab/solver.h>
#include <stdint.h>

#include "../plugin/params.h"
#include "../util/error.h"
#include "objective.h"

typedef struct bl_proj {
    const struct bl_projection_ops *ops;
    void *self;
    bl_paramset ps;   /* the plugin and its parameters (model files) */
    uint64_t seed;
    size_t k, n;
    /* inputs are standardised before projecting (z-scores by the training
     * set's mean and standard deviation; spec §8.2 leaves scaling open):
     * d features, NULL until bl_proj_standardize */
    size_t d;
    double *mu, *sd;
} bl_proj;

/* Open the projection of ps for k classes; 0, or -1 with err set. */
int bl_proj_open(bl_proj *p, const bl_paramset *ps, size_t k, uint64_t seed, bl_error *err);
void bl_proj_close(bl_proj *p);
/* Fit the scaling x' = (x - mu) / sd to X (feature-major), per feature over
 * its non-missing values: the mean and standard deviation, or with minmax
 * the midpoint and half-range of the values (onto [-1, 1], as LIBSVM's
 * svm-scale); sd = 1 for a constant feature. */
void bl_proj_standardize(bl_proj *p, const struct bl_matrix *X, int minmax);
/* Set it from saved values (d each, copied). */
void bl_proj_set_scale(bl_proj *p, size_t d, const double *mu, const double *sd);
/* The m k projected points of X, feature-major (n features): point i*k + c
 * is P^(c) x_i, so a learner's outputs on them are the m x k class outputs
 * row-major.  Features are standardised first when the projection has a
 * scale; missing ones (NaN) then count as 0 (the mean).  malloc'ed. */
float *bl_proj_inputs(const bl_proj *p, const struct bl_matrix *X);
/* Column j of every class's matrix: M[c * n + v] = P^(c)[v][j]. */
void bl_proj_columns(const bl_proj *p, size_t j, double *M);

/* A linear map from solver variables w (nw) to coefficients W (t x k). */
typedef struct bl_coefmap {
    size_t nw, t, k;
    size_t n;                    /* outputs: projected dimension            */
    const double *const *P;      /* outputs: per term j its columns, k x n  */
    bl_coefobj *o;               /* the engine's objective over W           */
    double *W, *gW;              /* scratch, t x k                          */
} bl_coefmap;

/* shared: nw = t; outputs: nw = n with the terms' columns P[0..t). */
void bl_coefmap_shared(bl_coefmap *m, bl_coefobj *o, size_t t, size_t k);
void bl_coefmap_outputs(bl_coefmap *m, bl_coefobj *o, size_t t, size_t k, size_t n,
                        const double *const *P);
void bl_coefmap_expand(const bl_coefmap *m, const double *w, double *W);
/* gw = A^T gW: the gradient over w of a function of W. */
void bl_coefmap_fold(const bl_coefmap *m, const double *gW, double *gw);
/* The solver's eval: f(W(w)) and its gradient over w. */
double bl_coefmap_eval(void *ctx, const double *w, double *grad);
void bl_coefmap_free(bl_coefmap *m);

#endif

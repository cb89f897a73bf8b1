/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Synthetic 2-D data sets for the RandomBoost toy experiments (randomboost
 * spec §8.1, §9.1-9.2): every class is a mixture of bivariate normals, given
 * by a table of components {class, weight, mean, covariance}, so a new set
 * is a new table entry in synth.c.  `gauss4` is the paper's Fig. 2 recipe;
 * `synthetic1..3` are OUR reconstructions (the paper gives pictures only).
 *
 * The draws are reproducible bit for bit on any machine with IEEE double
 * arithmetic: a splitmix64 stream (bl_mix64) seeded by bl_seed_derive,
 * Gaussians by Marsaglia's polar method with a logarithm of our own (no
 * libm), every product rounded before it is added (no fused multiply-add),
 * and a Cholesky factor per component.
 */
#ifndef BL_DATA_SYNTH_H
#define BL_DATA_SYNTH_H

#include <stddef.h>
#include <stdint.h>

/* One normal component of a class: weight relative to the class's other
 * components; cov = {var x, cov xy, var y}, positive definite. */
typedef struct bl_synth_comp {
    int cls;
    double weight;
    double mean[2];
    double cov[3];
} bl_synth_comp;

typedef struct bl_synth_set {
    const char *name;
    const char *doc;                 /* what it is, whose recipe: one line
                                        of --help, at most 56 characters */
    size_t k;                        /* classes                           */
    const char *const *class_names;  /* k names, for the .classes file    */
    size_t per_class;                /* default examples per class        */
    size_t ncomp;
    const bl_synth_comp *comp;
} bl_synth_set;

/* The table: bl_synth_sets()[0 .. *n). */
const bl_synth_set *bl_synth_sets(size_t *n);
/* The set named name, or NULL. */
const bl_synth_set *bl_synth_find(const char *name);
/* "gauss4, synthetic1, ...": the names, comma-separated, in a static buffer. */
const char *bl_synth_names(void);

/* Random stream of one set and seed (seeded by bl_seed_derive(seed,
 * "synth:NAME", 0)). */
typedef struct bl_synth_rng {
    uint64_t state;
} bl_synth_rng;
void bl_synth_rng_init(bl_synth_rng *r, const bl_synth_set *s, uint64_t seed);
/* Uniform in [0, 1), a multiple of 2^-53. */
double bl_synth_uniform(bl_synth_rng *r);
/* Two independent standard normals (Marsaglia's polar method). */
void bl_synth_normal2(bl_synth_rng *r, double z[2]);
/* Natural logarithm of x > 0 (finite, normal) from +, -, *, / only: what
 * the polar method uses instead of libm's log, whose last bit may differ
 * between C libraries.  Relative error below 1e-15. */
double bl_synth_log(double x);

/* The whole set: per_class examples of each class, rows interleaved (row i
 * has class i % k), so any prefix is close to balanced.  xy holds k *
 * per_class rows of (x, y); label the class of each.  Same set, seed and
 * per_class: same bits. */
void bl_synth_generate(const bl_synth_set *s, uint64_t seed, size_t per_class, double *xy,
                       int *label);

/* Density of class c (its mixture) at (x, y); for Bayes error estimates,
 * not reproducible bit for bit (libm's exp). */
double bl_synth_density(const bl_synth_set *s, size_t c, double x, double y);

/* ---- `classification`: many features, many classes ---------------------------
 *
 * In the spirit of scikit-learn's make_classification (our own code and
 * stream, not its numbers): clusters classes x clusters_per_class sit on
 * distinct vertices of the hypercube [-sep, sep]^informative; a row of
 * cluster c is sep vertex_c + z A_c, z standard normal, A_c a random
 * informative x informative matrix of uniform(-1, 1) entries; then
 * `redundant` columns x B (B uniform(-1, 1), x the informative values),
 * then standard-normal noise columns up to `features`.  Row i belongs to
 * cluster i % clusters, class cluster % classes: classes alternate row by
 * row and are balanced within one row; then with probability `flip` a row's
 * label is replaced by a uniform class (possibly the same).  The vertices and
 * matrices are drawn first, so a smaller `rows` gives a prefix of a larger
 * one.  Same arithmetic rules as the 2-D sets: same bits on any machine. */
typedef struct bl_synth_cls_opts {
    size_t rows, features, classes, informative, redundant, clusters_per_class;
    double sep, flip;
} bl_synth_cls_opts;

/* Limits the options are checked against. */
#define BL_SYNTH_CLS_MAX_ROWS 10000000u
#define BL_SYNTH_CLS_MAX_FEATURES 10000u
#define BL_SYNTH_CLS_MAX_CLASSES 1000u
#define BL_SYNTH_CLS_MAX_INFORMATIVE 200u
#define BL_SYNTH_CLS_MAX_CLUSTERS 10000u /* classes x clusters_per_class */

/* NULL if o is consistent, else why not (written into buf). */
const char *bl_synth_cls_check(const bl_synth_cls_opts *o, char *buf, size_t n);

typedef struct bl_synth_cls bl_synth_cls;
/* A generator for checked options o: draws the vertices and matrices. */
bl_synth_cls *bl_synth_cls_new(const bl_synth_cls_opts *o, uint64_t seed);
/* The next row: o->features values into x and its class into *label.
 * Call it o->rows times, in order. */
void bl_synth_cls_row(bl_synth_cls *g, double *x, int *label);
void bl_synth_cls_free(bl_synth_cls *g);

#endif

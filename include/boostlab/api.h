/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libboostlab, the library API: train a recipe on data held in memory or
 * read from a file, predict, save and load models, from any program (the
 * `boostlab` command's train and predict, the Python package, your own C).
 * In the spirit of liblinear's linear.h: a problem, a parameter, a model.
 *
 * Errors: every call that can fail takes `char *err`, a caller buffer of
 * BOOSTLAB_ERR_MAX bytes (or NULL), fills it with a message naming what is
 * wrong, and returns -1 or NULL.  Nothing here exits or prints.  Objects
 * are not shared between threads while one of them is being changed; the
 * plugin registry (loaded at the first call that needs it) is.
 *
 * Build with `pkg-config --cflags --libs boostlab-lib`; see docs/api.md.
 */
#ifndef BOOSTLAB_API_H
#define BOOSTLAB_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BOOSTLAB_ERR_MAX 1024

/* The library's version ("0.1.0"). */
const char *boostlab_version(void);

/* ---- problems: examples, labels, optional weights ------------------------ */

typedef struct boostlab_problem boostlab_problem;

/* Dense, row-major doubles: feature f of example i is x[i * d + f]; NaN is
 * a missing value, infinities are refused.  y: m class indices 0..k-1, or
 * NULL for data to predict.  w: m example weights (finite, >= 0, not all
 * 0; a bad one is refused naming its row), or NULL.  boostlab_train drops
 * the examples of weight 0 (before the features are binned), trains the
 * unweighted model when the rest are all equal, and else minimises
 * sum_i w_i l_i (over sum_i w_i for a loss that averages, log sum_i w_i
 * e^{l_i} for margin-exp); learners that train on hinge targets
 * (hingeboost-oc's svm) refuse uneven weights.  Everything is copied
 * (into the engine's feature-major floats), so the arrays may be freed
 * at once. */
boostlab_problem *boostlab_problem_dense(size_t m, size_t d, const double *x, const int *y,
                                         const double *w, char *err);
/* The same from the engine's own layout, feature-major floats
 * (x[f * m + i], a Fortran-ordered float32 array): x is borrowed, not
 * copied, and must outlive the problem. */
boostlab_problem *boostlab_problem_colmajor(size_t m, size_t d, const float *x, const int *y,
                                            const double *w, char *err);
/* Compressed sparse rows: row i's entries are indices[indptr[i] ..
 * indptr[i+1]) (increasing 0-based feature numbers < d) and the matching
 * data; absent entries are 0 (as in LIBSVM files), not missing.  Below a
 * density of 0.1 the problem stays sparse (memory ~ the entries, never
 * m x d; learners that need dense data get a copy at training), else it
 * is copied dense. */
boostlab_problem *boostlab_problem_csr(size_t m, size_t d, const int64_t *indptr,
                                       const int32_t *indices, const double *data,
                                       const int *y, const double *w, char *err);
/* Read a data file as `boostlab train --data` does: format "csv",
 * "libsvm", "idx" or NULL (idx when idx_labels is given, else from the
 * name, else CSV); label_column: a CSV label column's name or 0-based
 * number, or NULL; idx_labels: the IDX labels file of IDX images.  A
 * LIBSVM file is held sparse below a density of 0.1. */
boostlab_problem *boostlab_problem_read(const char *path, const char *format,
                                        const char *label_column, const char *idx_labels,
                                        char *err);
/* Name the classes (k names, as the labels should read in model files and
 * predictions) and the features (d names).  Without them a problem's k is
 * 1 + its largest label, class r is named "r" and feature f "f<f+1>". */
int boostlab_problem_set_classes(boostlab_problem *p, size_t k, const char *const *names,
                                 char *err);
int boostlab_problem_set_features(boostlab_problem *p, const char *const *names, char *err);
size_t boostlab_problem_rows(const boostlab_problem *p);
size_t boostlab_problem_features(const boostlab_problem *p);
size_t boostlab_problem_classes(const boostlab_problem *p);
void boostlab_problem_free(boostlab_problem *p);

/* ---- parameters: a recipe and its overrides ------------------------------ */

typedef struct boostlab_parameter boostlab_parameter;

/* A recipe by name (configs/NAME.ini, searched as `boostlab recipes`
 * lists) or by the path of a recipe file (any name with a '/' or ending in
 * ".ini").  Then iterations = 100, max_bins = 256, seed = 1, threads = 0
 * (OMP_NUM_THREADS, else every core), as `boostlab train`. */
boostlab_parameter *boostlab_parameter_new(const char *recipe, char *err);
/* One override, as `boostlab train --set KEY=VALUE` or a line of an
 * [algorithm] section: an engine key (shrinkage, nu, ...), a plugin
 * (weak = trees) or ROLE.PARAMETER (weak.max_leaves = 8); and
 * iterations, max_bins, seed, threads. */
int boostlab_parameter_set(boostlab_parameter *p, const char *key, const char *value,
                           char *err);
/* NULL when the parameters fit together and train a model, else why not
 * (liblinear's check_parameter); the text lives until the next call on p. */
const char *boostlab_check_parameter(boostlab_parameter *p);
/* The resolved algorithm as INI lines (every plugin parameter), as model
 * files keep it; malloc'ed, free with boostlab_free. */
char *boostlab_parameter_text(const boostlab_parameter *p);
void boostlab_parameter_free(boostlab_parameter *p);

/* ---- models --------------------------------------------------------------- */

typedef struct boostlab_model boostlab_model;

/* Train on every row of prob (which needs labels). */
boostlab_model *boostlab_train(const boostlab_problem *prob, const boostlab_parameter *param,
                               char *err);
size_t boostlab_model_classes(const boostlab_model *mo);
size_t boostlab_model_features(const boostlab_model *mo);
const char *boostlab_model_class_name(const boostlab_model *mo, size_t r);
const char *boostlab_model_feature_name(const boostlab_model *mo, size_t f);
/* Terms (hypotheses with their coefficients) the model sums. */
size_t boostlab_model_terms(const boostlab_model *mo);
/* Iterations training ran (it may stop before the budget) and the final
 * training error; 0 for a loaded model. */
size_t boostlab_model_iterations(const boostlab_model *mo);
double boostlab_model_training_error(const boostlab_model *mo);
/* Nonzero when the model's loss defines class probabilities: softmax
 * (the LogitBoost family: p = softmax(F)) and klogit (K-LogitBoost's link
 * p_r = exp(F_r - 1), normalised). */
int boostlab_model_has_probability(const boostlab_model *mo);

/* Predictions for the rows of prob (whose features must number the
 * model's): labels (m class indices, ties to the lowest), and scores, the
 * model's raw outputs F (m x k, row-major; the label is the row's argmax).
 * Either may be NULL. */
int boostlab_predict_values(const boostlab_model *mo, const boostlab_problem *prob,
                            double *scores, int *labels, char *err);
int boostlab_predict(const boostlab_model *mo, const boostlab_problem *prob, int *labels,
                     char *err);
/* Class probabilities (m x k, rows sum to 1) where the model has them;
 * an error naming the loss elsewhere. */
int boostlab_predict_probability(const boostlab_model *mo, const boostlab_problem *prob,
                                 double *proba, char *err);
/* Staged scores: add the outputs of terms first..last-1 to scores (m x k).
 * From zeros, adding term t after terms 0..t-1 gives the scores of the
 * model cut after t+1 terms, and adding all of them the model's own. */
int boostlab_add_terms(const boostlab_model *mo, const boostlab_problem *prob, size_t first,
                       size_t last, double *scores, char *err);

/* Model files as `boostlab train` writes them (text, checksummed). */
int boostlab_save_model(const char *path, const boostlab_model *mo, char *err);
boostlab_model *boostlab_load_model(const char *path, char *err);
void boostlab_model_free(boostlab_model *mo);

/* ---- plugins and recipes -------------------------------------------------- */

/* Search dir (a folder of plugin .so files, or one file) too, after the
 * standard folders and BOOSTLAB_PLUGIN_PATH; at once when the registry is
 * loaded, else when it is. */
int boostlab_add_plugin_path(const char *dir, char *err);

typedef struct boostlab_info {
    const char *kind;   /* plugins: role (loss, weak, ...); recipes: "recipe" */
    const char *name;
    const char *doc;    /* one line                                         */
    const char *where;  /* the plugin's file, the recipe's file             */
} boostlab_info;

/* The plugins loaded, by role then name, and the recipes found, in search
 * order (a recipe hidden by one of the same name earlier is left out):
 * the count, or -1 with err.  The entries live until the next call of the
 * same function. */
long boostlab_plugins(const boostlab_info **out, char *err);
long boostlab_recipes(const boostlab_info **out, char *err);

/* The `boostlab` program that goes with this library (to run experiment
 * files), or NULL when there is none where it should be; static. */
const char *boostlab_program(void);

/* Free what the library malloc'ed for the caller. */
void boostlab_free(void *p);

#ifdef __cplusplus
}
#endif

#endif

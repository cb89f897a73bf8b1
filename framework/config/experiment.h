/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Experiment files: data sets, algorithms (named combinations of plugins
 * with parameters, usually a recipe from configs/ plus overrides) and the
 * protocol.  Loading is strict and all-or-nothing: every section, key,
 * plugin and value is checked, and the first problem is reported as
 * FILE:LINE with the accepted choices, before anything runs.
 *
 *   [experiment]            name, doc, seed, repeats, iterations, output,
 *                           max_bins, threads, paper, paper_table,
 *                           plugin_path
 *   [data NAME]             file, format, label, classes, labels,
 *                           test_file, test_labels, split, test_ratio,
 *                           first, per_class, folds, drop, keep_classes,
 *                           class_pick, repeats
 *   [algorithm NAME]        recipe, loss, weak, solver, coding, the
 *                           engine's keys (engine/param.c: nu, shrinkage,
 *                           ...), iterations, loss.P, weak.P, solver.P,
 *                           coding.P, cv.KEY, cv_folds, cv_iterations,
 *                           skip_data, task, task.P, method, formulation,
 *                           C, eps_cp, eps_cg, columns, master, check_mslack,
 *                           nonneg_views, projection, projection.P,
 *                           scheme, kernel, gamma, scale, xgb.P
 *
 * A recipe file configs/NAME.ini holds one [recipe] section with the
 * algorithm keys (but not `recipe`) plus `doc`.
 *
 * Values in braces sweep (config/sweep.h): the section then stands for
 * one data set or algorithm per grid point, named NAME{key=value,...}.
 */
#ifndef BL_CONFIG_EXPERIMENT_H
#define BL_CONFIG_EXPERIMENT_H

#include <stdint.h>
#include <stdio.h>

#include "../data/split.h"
#include "../data/transform.h"
#include "../engine/engine.h"
#include "../plugin/loader.h"
#include "../plugin/params.h"
#include "../util/error.h"
#include "methods.h"
#include "xgbparam.h"

typedef struct bl_data_spec {
    char *name;
    char *file, *test_file;     /* resolved against the INI's directory */
    char *labels, *test_labels; /* IDX label files                      */
    char *classes;              /* optional .classes file               */
    char *label;                /* CSV label column                     */
    char *drop;                 /* features to leave out, comma-separated */
    char *drop_where;           /* "FILE:LINE" of the drop key          */
    enum { BL_FMT_CSV = 1, BL_FMT_LIBSVM, BL_FMT_IDX } format;
    bl_split_spec split;
    size_t keep_classes;        /* 0 = all; else keep this many classes  */
    int repeats;                /* 0 = the experiment's                 */
    int class_pick;             /* BL_PICK_FIRST or BL_PICK_RANDOM      */
    int storage;                /* BL_STORAGE_* (data/dataset.h)        */
    size_t features;            /* LIBSVM: 0 = the largest index; else
                                   this many, larger indices ignored    */
    char *base, *sweep;         /* NAME and "key=value,..." of a grid
                                   point (sweep NULL when not swept)    */
    bl_transform_spec tf;       /* image, deskew, hog, pca keys           */
    char *where;                /* "FILE:LINE" of the section           */
} bl_data_spec;

enum { BL_PICK_FIRST = 0, BL_PICK_RANDOM = 1 };

/* Method names, indexed by BL_METHOD_* (bl_algo_spec.method). */
extern const char *const bl_method_names[BL_NMETHODS];

/* method = svm (baselines/mcsvm.h): scheme and kernel; feature scaling
 * is BL_SCALE_* (engine/param.h) */
enum { BL_SVM_OVO = 0, BL_SVM_OVA = 1, BL_SVM_ECOC = 2, BL_SVM_CS = 3 };
enum { BL_KERNEL_LINEAR = 0, BL_KERNEL_PERCEPTRON = 1, BL_KERNEL_RBF = 2 };

/* StructBoost's master LP (key master): primal cutting planes, the same
 * with GLPK holding the LP's dual, or the 1-slack LP disaggregated into a
 * working set of (example, label) rows (structured/structboost.c). */
enum { BL_MASTER_PRIMAL, BL_MASTER_DUAL, BL_MASTER_PAIRS };

typedef struct bl_algo_spec {
    char *name;
    char *recipe;               /* recipe it came from, or NULL         */
    char *doc;
    bl_paramset loss, weak, solver;
    bl_paramset coding;         /* optional: plugin NULL when not coded   */
    /* RandomBoost (projection.h): plugin NULL when not projected;
     * boost.project says what is projected then. */
    bl_paramset projection;
    bl_boost_param boost;       /* the engine's keys (engine/param.h)     */
    int solver_none;            /* `solver = none`: every coefficient is 1,
                                   the weak learner's outputs are the step
                                   (trees with Newton leaf values)         */
    int iterations;             /* 0 = the experiment's                 */
    char *base, *sweep;         /* as in bl_data_spec                   */
    /* Hyper-parameters chosen by cross-validation on each training part
     * (cv.KEY = {a, b, ...}): one candidate algorithm per grid point. */
    struct bl_algo_spec *cv;
    char **cv_label;            /* "key=value,..." of each candidate     */
    size_t ncv;
    char *cv_lines;             /* the cv.* lines as written (hash, write) */
    int cv_folds;               /* default 5                            */
    int cv_iterations;          /* 0 = the run's                        */
    /* Structured learning (structured/structured.h).  A method other than
     * boost runs the task's structured problem; with boost a task whose
     * labels are classes only adds its metrics (e.g. the tree loss). */
    bl_paramset task;           /* plugin NULL when there is no task      */
    int method;                 /* BL_METHOD_*                            */
    int mslack;                 /* formulation = m-slack                  */
    int per_view;               /* structboost: columns = per-view        */
    int master_dual;            /* structboost: master = BL_MASTER_*      */
    int check_mslack;           /* structboost: check_mslack = N (0: off) */
    double C, eps_cp, eps_cg;   /* spec §2.5                              */
    int C_given;                /* C was set (method svm defaults to 1)   */
    /* method = svm: the multi-class SVM baselines (hingeboost-oc §3.5-3.8).
     * coding above is the ECOC code; when none is set the run picks
     * exhaustive for k <= 7, else dense-ecoc (these two plugins, found
     * at load time). */
    int svm_scheme, svm_kernel, svm_scale;
    double gamma;               /* rbf: exp(-gamma |x - x'|^2)             */
    const struct bl_plugin *svm_exhaustive, *svm_dense;
    bl_xgb_params xgb;          /* method = xgboost: its xgb.* keys       */
    char *nonneg_views;         /* ssvm: views whose weights are >= 0 (comma-
                                   separated names; NULL = none)          */
    char *skip_data;            /* comma-separated globs of data sets this
                                   algorithm is not run on (e.g. where
                                   it is infeasible), or NULL           */
    char *where;
} bl_algo_spec;

typedef struct bl_experiment {
    char *path, *name, *doc, *output;
    char *paper;                /* CSV of the paper's numbers, or NULL  */
    char *plugin_path;          /* plugin folders or .so files searched
                                   first, colon-separated, absolute; NULL */
    char *paper_table;          /* rows of its `table` column to use, or
                                   NULL for all                          */
    uint64_t seed;
    int repeats, iterations, max_bins, threads;
    bl_data_spec *data;
    size_t ndata;
    bl_algo_spec *algo;
    size_t nalgo;
} bl_experiment;

/* Data format from a file name (.csv, .libsvm, .svm, optionally .gz), or 0. */
int bl_format_of(const char *path);

int bl_experiment_load(const char *path, const bl_registry *reg, bl_experiment *ex,
                       bl_error *err);
/* The [experiment] plugin_path of the file at path, each entry resolved
 * against the file's folder (so the registry can be loaded before the
 * experiment): *out is NULL when there is none.  Fails, naming FILE:LINE,
 * on an entry that does not exist. */
int bl_experiment_plugin_path(const char *path, char **out, bl_error *err);
void bl_experiment_free(bl_experiment *ex);

/* Find and resolve a recipe by name into an algorithm (used by
 * `boostlab train`); `from` is a directory to search first (may be NULL). */
int bl_recipe_load(const char *name, const char *from, const bl_registry *reg,
                   bl_algo_spec *out, bl_error *err);
/* The same from the recipe file at path, named after the file (NAME.ini). */
int bl_recipe_load_file(const char *path, const bl_registry *reg, bl_algo_spec *out,
                        bl_error *err);
/* Defaults: the engine's (engine/param.c), no plugins yet. */
void bl_algo_init(bl_algo_spec *a);
/* The engine's view of boosting algorithm a: its parameters and plugins,
 * the budget and the seed (no progress callback, max_bins 256). */
bl_boost_cfg bl_algo_boost_cfg(const bl_algo_spec *a, int iterations, uint64_t seed);
/* What every method runs with (exec/method.h); boost builds its
 * bl_boost_cfg from it (bl_algo_boost_cfg). */
typedef struct bl_method_cfg {
    const bl_algo_spec *algo;
    int iterations;
    uint64_t seed;
    /* Called after each iteration (may be NULL). */
    void (*on_iter)(void *user, size_t done, size_t total);
    void *user;
    int max_bins;
} bl_method_cfg;
/* Apply one algorithm key (as in an [algorithm] section) to a. */
int bl_algo_set(bl_algo_spec *a, const bl_registry *reg, const char *key, const char *value,
                bl_error *err);
void bl_algo_free(bl_algo_spec *a);
/* Repeats of data set d (its own `repeats`, else the experiment's), and
 * the most of any data set. */
int bl_data_repeats(const bl_experiment *ex, size_t d);
int bl_max_repeats(const bl_experiment *ex);
/* Nonzero when algorithm a is not run on data set d (its skip_data). */
int bl_algo_skips(const bl_algo_spec *a, const bl_data_spec *d);
/* Does name (or base, the name of its sweep section, when not NULL) match
 * one of the comma- or space-separated shell globs? */
int bl_globs_match(const char *globs, const char *name, const char *base);

/* d and e read the same files the same way, with the same image
 * transforms: bl_load_data gives the same (the split may differ). */
int bl_data_same_files(const bl_data_spec *d, const bl_data_spec *e);

/* Write the fully resolved experiment (every parameter) as INI. */
void bl_experiment_write(const bl_experiment *ex, FILE *f);
/* Write an algorithm's keys (plugins, every parameter, engine values). */
/* RandomBoost's projection keys (projection.h) and what each needs: 0 when
 * they fit together (or nothing is projected), else -1 with err set and, when
 * one key is to blame, its name in *key (else NULL). */
int bl_algo_check_projection(const bl_algo_spec *a, const char **key, bl_error *err);
void bl_algo_write(const bl_algo_spec *a, FILE *f);
/* Write a data set's keys as resolved (paths absolute). */
void bl_data_write(const bl_data_spec *d, FILE *f);
/* Stable 64-bit hashes of an algorithm's full parameters and of a data
 * set's full specification (results are keyed by them). */
uint64_t bl_algo_hash(const bl_algo_spec *a);
uint64_t bl_data_hash(const bl_data_spec *d);

#endif

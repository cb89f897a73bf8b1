/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The method table: what each method of an algorithm (config/methods.h)
 * runs and what it leaves, for jobs (job.c) and cross-validation (cv.c)
 * alike.  Every method trains through one signature, so callers look up
 * the row and never branch on the method.
 */
#ifndef BL_EXEC_METHOD_H
#define BL_EXEC_METHOD_H

#include "../config/experiment.h"
#include "../data/dataset.h"
#include "../data/quantize.h"
#include "../engine/model.h"
#include "../engine/result.h"

/* One run's data and what it fills. */
typedef struct bl_method_io {
    const bl_dataset *train;
    const bl_dataset *test;     /* tracked when not NULL                   */
    const bl_qview *q;          /* train quantized at the cfg's max_bins, or
                                   NULL (quantized here if the method needs
                                   it): callers share one across runs     */
    bl_curve *curve;            /* filled; free with bl_curve_free         */
    bl_metrics *metrics;        /* filled (n = 0 if none); bl_metrics_free */
    bl_model *keep;             /* not NULL: receives the model (methods
                                   whose row has model set only)           */
} bl_method_io;

/* Train cfg->algo on io->train; 0, or -1 with err set. */
typedef int (*bl_method_fn)(const bl_method_cfg *cfg, const bl_method_io *io, bl_error *err);

typedef struct bl_method {
    const char *name;           /* `method = NAME`                         */
    bl_method_fn run;
    int model;                  /* leaves a boosting model to save         */
} bl_method;

/* The row of method id (BL_METHOD_*). */
const bl_method *bl_method_get(int id);
/* Run algorithm cfg->algo through its method's row; refuses io->keep for a
 * method that leaves no model. */
int bl_method_run(const bl_method_cfg *cfg, const bl_method_io *io, bl_error *err);

/* The training set a boosting run of algorithm a (configured as cfg) works
 * on: ds itself when ds is dense or its weak learner takes sparse sets,
 * else a dense copy made into *dense (logged with its size).  NULL on
 * error.  Free *dense (zeroed when unused) after the run. */
const bl_dataset *bl_boost_data(const bl_algo_spec *a, const bl_boost_cfg *cfg,
                                const bl_dataset *ds, bl_dataset *dense, bl_error *err);

#endif

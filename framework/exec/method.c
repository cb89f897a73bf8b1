/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The method table (method.h) and each method's run function: adapters
 * from the one signature to the engine that trains the method.  Sparse
 * data sets reach only the weak learners that declare they take them
 * (bl_weak_ops.predict_sparse); every other method and learner gets a
 * dense copy, made once per run with a log line saying what it costs. */
#include "method.h"

#include <boostlab/weak.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../baselines/mcsvm.h"
#include "../baselines/xgboost.h"
#include "../engine/engine.h"
#include "../plugin/loader.h"
#include "../structured/structured.h"
#include "../util/fsutil.h"

/* A boosting run with a task: the task's metrics of its final predicted
 * classes on both parts. */
static int class_metrics(const bl_algo_spec *a, const bl_method_io *io, const bl_model *mo,
                         bl_metrics *met, bl_error *err)
{
    const bl_dataset *part[2] = {io->train, io->test};
    double *val[2] = {NULL, NULL};
    char **names[2] = {NULL, NULL};
    size_t n[2] = {0, 0};
    int rc = 0;
    for (int p = 0; p < 2 && rc == 0; p++) {
        const bl_dataset *ds = part[p];
        if (!ds || !ds->m)
            continue;
        double *F = bl_xmalloc(ds->m * ds->k * sizeof *F);
        int *pred = bl_xmalloc(ds->m * sizeof *pred);
        struct bl_matrix X = {ds->m, ds->d, ds->x};
        if (ds->sp)
            bl_model_scores_sparse(mo, &ds->sp->view, F);
        else
            bl_model_scores(mo, &X, F);
        bl_argmax_rows(F, ds->m, ds->k, pred);
        rc = bl_task_metrics_of_classes(&a->task, ds, pred, &val[p], &names[p], &n[p], err);
        free(F);
        free(pred);
    }
    if (rc == 0)
        bl_metrics_set(met, names[0], n[0], val[0], val[1]);
    for (int p = 0; p < 2; p++) {
        for (size_t j = 0; j < n[p]; j++)
            free(names[p][j]);
        free(names[p]);
        free(val[p]);
    }
    return rc;
}

/* Dense copies of a run's sparse parts, for a method or learner that
 * reads X.x or Q.bins: io2 then points at them (and has no quantized
 * view: the caller makes its own).  1 when copies were made, 0 when none
 * was needed, -1 on error. */
static int densify_io(const char *who, const bl_method_io *io, bl_method_io *io2,
                      bl_dataset dense[2], bl_error *err)
{
    *io2 = *io;
    memset(dense, 0, 2 * sizeof *dense);
    if (!io->train->sp && !(io->test && io->test->sp))
        return 0;
    const bl_dataset *part[2] = {io->train, io->test};
    size_t bytes = 0;
    for (int p = 0; p < 2; p++) {
        if (!part[p])
            continue;
        if (bl_dataset_dense_copy(part[p], &dense[p], err) < 0) {
            bl_dataset_free(&dense[0]);
            return bl_errprefix(err, "%s needs dense data (it does not take sparse sets)", who);
        }
        bytes += bl_dataset_dense_bytes(&dense[p]);
    }
    bl_host_api.log(1, "data", "%s does not take sparse data: densified %zu x %zu (%.1f MB)",
                    who, io->train->m + (io->test ? io->test->m : 0), io->train->d,
                    (double)bytes / 1e6);
    io2->train = &dense[0];
    io2->test = io->test ? &dense[1] : NULL;
    io2->q = NULL;
    return 1;
}

/* run on the parts of io, dense copies of them when they are sparse. */
static int run_dense(const char *who, bl_method_fn run, const bl_method_cfg *mc,
                     const bl_method_io *io, bl_error *err)
{
    bl_method_io io2;
    bl_dataset dense[2];
    int rc = densify_io(who, io, &io2, dense, err);
    if (rc >= 0)
        rc = run(mc, &io2, err);
    bl_dataset_free(&dense[0]);
    bl_dataset_free(&dense[1]);
    return rc;
}

/* Whether the boosting run of a keeps a sparse training set sparse: its
 * weak learner takes one, and no projection or task reads raw features. */
static int boost_takes_sparse(const bl_algo_spec *a, const bl_boost_cfg *cfg)
{
    const struct bl_weak_ops *wo = a->weak.plugin->ops;
    return wo->predict_sparse && !cfg->projection && !a->task.plugin;
}

static int run_boost_on(const bl_method_cfg *mc, const bl_method_io *io, bl_error *err);

const bl_dataset *bl_boost_data(const bl_algo_spec *a, const bl_boost_cfg *cfg,
                                const bl_dataset *ds, bl_dataset *dense, bl_error *err)
{
    memset(dense, 0, sizeof *dense);
    if (!ds->sp || boost_takes_sparse(a, cfg))
        return ds;
    char who[300];
    snprintf(who, sizeof who, "weak learner %s", a->weak.plugin->name);
    bl_method_io io = {ds, NULL, NULL, NULL, NULL, NULL}, io2;
    bl_dataset two[2];
    if (densify_io(who, &io, &io2, two, err) < 0)
        return NULL;
    *dense = two[0];
    return dense;
}

/* The boosting engine (engine/engine.h) on the quantized training part,
 * densified first when the learner needs it. */
static int run_boost(const bl_method_cfg *mc, const bl_method_io *io, bl_error *err)
{
    bl_boost_cfg cfg = bl_algo_boost_cfg(mc->algo, mc->iterations, mc->seed);
    if (boost_takes_sparse(mc->algo, &cfg))
        return run_boost_on(mc, io, err);
    char who[300];
    snprintf(who, sizeof who, "weak learner %s", mc->algo->weak.plugin->name);
    return run_dense(who, run_boost_on, mc, io, err);
}

static int run_boost_on(const bl_method_cfg *mc, const bl_method_io *io, bl_error *err)
{
    const bl_algo_spec *a = mc->algo;
    const bl_dataset *tr = io->train, *te = io->test;
    bl_qview own;
    memset(&own, 0, sizeof own);
    const bl_qview *q = io->q;
    if (!q) {
        if (bl_quantize(tr, mc->max_bins, &own, err) < 0)
            return -1;
        q = &own;
    }
    struct bl_train tv;
    bl_train_view(tr, q, &tv);
    struct bl_matrix Xt = {te ? te->m : 0, te ? te->d : 0, te ? te->x : NULL};
    bl_model mo;
    bl_model_init(&mo, a->weak.plugin, tr->k, tr->d, tr->class_names, tr->feature_names);
    bl_boost_cfg cfg = bl_algo_boost_cfg(a, mc->iterations, mc->seed);
    cfg.on_iter = mc->on_iter;
    cfg.user = mc->user;
    cfg.max_bins = mc->max_bins;
    cfg.test_sparse = te && te->sp ? &te->sp->view : NULL;
    int rc = bl_boost(&cfg, &tv, te ? &Xt : NULL, te ? te->y : NULL, &mo, io->curve, err);
    if (rc == 0 && a->task.plugin)
        rc = class_metrics(a, io, &mo, io->metrics, err);
    if (rc == 0 && io->keep)
        *io->keep = mo;
    else
        bl_model_free(&mo);
    bl_qview_free(&own);
    return rc;
}

static int run_structboost(const bl_method_cfg *mc, const bl_method_io *io, bl_error *err)
{
    return bl_structboost(mc, io->train, io->test, mc->max_bins, io->curve, io->metrics, err);
}

static int run_ssvm(const bl_method_cfg *mc, const bl_method_io *io, bl_error *err)
{
    return bl_ssvm(mc, io->train, io->test, io->curve, io->metrics, err);
}

static int run_ova_svm(const bl_method_cfg *mc, const bl_method_io *io, bl_error *err)
{
    return bl_ova_svm(mc, io->train, io->test, io->curve, io->metrics, err);
}

/* The multi-class SVM baselines on the data's classes (no task). */
static int run_svm(const bl_method_cfg *mc, const bl_method_io *io, bl_error *err)
{
    return bl_mcsvm(mc, io->train, io->test, io->curve, io->metrics, err);
}

/* XGBoost's trees (baselines/xgboost.h) on the data's classes. */
static int run_xgboost(const bl_method_cfg *mc, const bl_method_io *io, bl_error *err)
{
    return bl_xgboost(mc, io->train, io->test, io->curve, err);
}

#define ROW_(id, name, run, model) [BL_METHOD_##id] = {name, run, model},
static const bl_method methods[BL_NMETHODS] = {BL_METHOD_ROWS(ROW_)};
#undef ROW_

const bl_method *bl_method_get(int id)
{
    return id >= 0 && id < BL_NMETHODS ? &methods[id] : NULL;
}

int bl_method_run(const bl_method_cfg *cfg, const bl_method_io *io, bl_error *err)
{
    const bl_method *m = bl_method_get(cfg->algo->method);
    if (!m)
        return bl_errf(err, "%s: no method %d", cfg->algo->name, cfg->algo->method);
    if (io->keep && !m->model)
        return bl_errf(err, "%s is method %s, whose models are not saved", cfg->algo->name,
                       m->name);
    if (m->run == run_boost || m->run == run_xgboost) /* take sparse sets as they are */
        return m->run(cfg, io, err);
    char who[300];
    snprintf(who, sizeof who, "%s (method %s)", cfg->algo->name, m->name);
    return run_dense(who, m->run, cfg, io, err);
}

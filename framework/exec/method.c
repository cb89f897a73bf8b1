/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The method table (method.h) and each method's run function: adapters
 * from the one signature to the engine that trains the method. */
#include "method.h"

#include <stdlib.h>
#include <string.h>

#include "../baselines/mcsvm.h"
#include "../baselines/xgboost.h"
#include "../engine/engine.h"
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

/* The boosting engine (engine/engine.h) on the quantized training part. */
static int run_boost(const bl_method_cfg *mc, const bl_method_io *io, bl_error *err)
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
    return m->run(cfg, io, err);
}

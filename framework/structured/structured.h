/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Structured learning on task plugins (boostlab/task.h):
 *   - StructBoost (spec §2): column generation over lifted weak learners,
 *     the master LP solved by 1-slack cutting planes (or, for comparison,
 *     as the m-slack LP over every constraint), w >= 0, l1;
 *   - the structural SVM baseline: the same 1-slack cutting planes over a
 *     linear joint feature map (every feature of every view and block), l2;
 *   - one-vs-all linear SVMs (liblinear) for tasks whose labels are classes.
 * All three record the same per-iteration curve as the boosting engine
 * (train_loss = the primal objective, train_err/test_err = the task's
 * primary metric) and the task's metrics at the end.
 */
#ifndef BL_STRUCTURED_STRUCTURED_H
#define BL_STRUCTURED_STRUCTURED_H

#include "../data/dataset.h"
#include "../engine/engine.h"

/* Final values of a task's metrics. */
typedef struct bl_metrics {
    size_t n;
    char **name;
    double *train, *test;   /* test NaN when there is no test part */
} bl_metrics;

void bl_metrics_free(bl_metrics *m);
void bl_metrics_set(bl_metrics *m, char *const *names, size_t n, const double *train,
                    const double *test);

/* Train cfg->algo (method structboost, ssvm, ova-svm, or svm, the
 * baselines of baselines/mcsvm.h, which need no task) on train, tracking
 * the test part when test is not NULL. */
int bl_structured_run(const bl_boost_cfg *cfg, const bl_dataset *train, const bl_dataset *test,
                      int max_bins, bl_curve *curve, bl_metrics *met, bl_error *err);

/* The engines behind it (structboost.c, ssvm.c, ovasvm.c). */
int bl_structboost(const bl_boost_cfg *cfg, const bl_dataset *train, const bl_dataset *test,
                   int max_bins, bl_curve *curve, bl_metrics *met, bl_error *err);
int bl_ssvm(const bl_boost_cfg *cfg, const bl_dataset *train, const bl_dataset *test,
            bl_curve *curve, bl_metrics *met, bl_error *err);
int bl_ova_svm(const bl_boost_cfg *cfg, const bl_dataset *train, const bl_dataset *test,
               bl_curve *curve, bl_metrics *met, bl_error *err);

/* Task metrics of class predictions made by any multi-class algorithm
 * (the task's labels must be classes): used to give the boosting engine's
 * runs the same metrics (e.g. the tree loss of AdaBoost.MH). */
int bl_task_metrics_of_classes(const bl_paramset *task, const bl_dataset *ds, const int *pred,
                               double **values, char ***names, size_t *n, bl_error *err);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a finished run hands to the layers above the engine: its final
 * figures (bl_run_result, from its curve) and a structured task's final
 * metrics (bl_metrics).  The results store, the reports, the structured
 * methods and the SVM baselines all include this header, and it includes
 * nothing of theirs, so none of them needs another's header for these.
 */
#ifndef BL_ENGINE_RESULT_H
#define BL_ENGINE_RESULT_H

#include <stddef.h>

#include "engine.h"

/* Final figures of one run. */
typedef struct bl_run_result {
    double test_err, train_err, train_loss;
    double t_weak, t_coef, t_book, t_total;   /* seconds, summed over iterations */
    size_t iterations;
    size_t trees;                             /* trees added (LogitBoost's unit) */
    int stopped_early;                        /* stop != BL_STOP_BUDGET         */
    int stop;                                 /* enum bl_stop                   */
} bl_run_result;

/* The final figures of the run that recorded curve c. */
void bl_run_result_from(const bl_curve *c, bl_run_result *r);

/* Final values of a task's metrics. */
typedef struct bl_metrics {
    size_t n;
    char **name;
    double *train, *test;   /* test NaN when there is no test part */
} bl_metrics;

void bl_metrics_free(bl_metrics *m);
/* Replace m's contents by copies of the n names and values (train or test
 * NULL: NaN). */
void bl_metrics_set(bl_metrics *m, char *const *names, size_t n, const double *train,
                    const double *test);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Results of an experiment: one CSV curve per run, and a summary (CSV,
 * JSON, and a table on stdout) of the final errors and phase times per
 * data set and algorithm.  Every file is written atomically and the
 * summary is rewritten after each run, so a killed experiment keeps all
 * the runs it finished.
 */
#ifndef BL_REPORT_REPORT_H
#define BL_REPORT_REPORT_H

#include <stdio.h>

#include "../config/experiment.h"
#include "../engine/engine.h"
#include "../util/error.h"

/* Final figures of one run. */
typedef struct bl_run_result {
    double test_err, train_err, train_loss;
    double t_weak, t_coef, t_book, t_total;   /* seconds, summed over iterations */
    size_t iterations;
    int stopped_early;
} bl_run_result;

typedef struct bl_summary {
    const bl_experiment *ex;
    size_t nd, na, nr;        /* data sets, algorithms, repeats */
    bl_run_result *res;       /* [d][a][r] */
    unsigned char *done;
    char *dir;
} bl_summary;

void bl_summary_init(bl_summary *s, const bl_experiment *ex, const char *dir);
void bl_summary_free(bl_summary *s);

void bl_run_result_from(const bl_curve *c, bl_run_result *r);

/* Record one run: writes DIR/runs/DATA/ALGO/rep-R.csv and rewrites
 * DIR/summary.csv and DIR/summary.json. */
int bl_summary_add(bl_summary *s, size_t d, size_t a, size_t r, const bl_curve *c,
                   bl_error *err);

/* The summary table: mean (std) test and train error in % per data set x
 * algorithm, mean iterations, mean seconds per run in the weak-learner and
 * coefficient phases, and milliseconds per iteration in all. */
void bl_summary_print(const bl_summary *s, FILE *f);

int bl_curve_write(const bl_curve *c, const char *path, bl_error *err);

#endif

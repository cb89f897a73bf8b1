/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Summary of an experiment: the final errors and phase times per data set
 * and algorithm, as CSV, JSON and a table on stdout.  Files are written
 * atomically.  (Every run and its curve are in the results store,
 * store/store.h; the summary is rebuilt from it.)
 */
#ifndef BL_REPORT_REPORT_H
#define BL_REPORT_REPORT_H

#include <stdio.h>

#include "../config/experiment.h"
#include "../engine/engine.h"
#include "../engine/result.h"
#include "../util/error.h"

typedef struct bl_summary {
    const bl_experiment *ex;
    size_t nd, na, nr;        /* data sets, algorithms, repeats */
    bl_run_result *res;       /* [d][a][r] */
    unsigned char *done;
    char *dir;
} bl_summary;

void bl_summary_init(bl_summary *s, const bl_experiment *ex, const char *dir);
void bl_summary_free(bl_summary *s);

/* Record the result of run (d, a, r). */
void bl_summary_set(bl_summary *s, size_t d, size_t a, size_t r, const bl_run_result *res);
/* Write DIR/summary.csv and DIR/summary.json (atomically). */
int bl_summary_write(const bl_summary *s, bl_error *err);

/* The summary table: mean (std) test and train error in % per data set x
 * algorithm, mean iterations, mean seconds per run in the weak-learner and
 * coefficient phases, and milliseconds per iteration in all. */
void bl_summary_print(const bl_summary *s, FILE *f);

/* One line of that table, for callers with another source (`boostlab
 * results --summary` reads the store): means and standard deviations
 * (bl_mean, bl_std) over the runs; a NaN mean is shown as "-". */
typedef struct bl_summary_line {
    const char *experiment;     /* shown in a first column when exp_col */
    const char *data, *algo;
    size_t runs;
    double te_mean, te_std, tr_mean, tr_std, iters, t_weak, t_coef, t_total;
} bl_summary_line;

/* Print the table of lines l[0..n) (a header, then one row each), with an
 * experiment column when exp_col.  bl_summary_print uses it, so both
 * commands print the same table. */
void bl_summary_lines_print(const bl_summary_line *l, size_t n, int exp_col, FILE *f);


#endif

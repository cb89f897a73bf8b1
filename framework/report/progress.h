/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Progress of an experiment on stderr: a redrawn bar with the current run
 * and an estimate of the time left when stderr is a terminal, one line per
 * finished run otherwise (logs, CI). */
#ifndef BL_REPORT_PROGRESS_H
#define BL_REPORT_PROGRESS_H

#include <stddef.h>

typedef struct bl_progress {
    int tty, quiet;
    size_t runs_total, runs_done;
    size_t iters_total, iters_done;   /* over the whole experiment */
    size_t run_iters;                 /* iterations budget of the current run */
    double start, last_draw;
    char label[256];
} bl_progress;

void bl_progress_init(bl_progress *p, size_t runs, size_t iters_total, int quiet);
void bl_progress_run_start(bl_progress *p, const char *label, size_t iters);
/* Engine callback (bl_boost_cfg.on_iter). */
void bl_progress_iter(void *p, size_t done, size_t total);
void bl_progress_run_end(bl_progress *p, double test_err, size_t iters, double secs);
void bl_progress_finish(bl_progress *p);

#endif

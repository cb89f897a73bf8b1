/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Progress of an experiment grid on stderr: runs done, running and left,
 * and an estimate of the time left from the iterations done so far.  On a
 * terminal one status line is redrawn; otherwise (logs, CI) one line is
 * printed per finished run.  Several runs may be in flight at once, one
 * per worker slot. */
#ifndef BL_REPORT_PROGRESS_H
#define BL_REPORT_PROGRESS_H

#include <stddef.h>

typedef struct bl_progress_slot {
    char label[256];
    size_t done, total;           /* iterations of its current run */
    int busy;
    double start;
} bl_progress_slot;

typedef struct bl_progress {
    int tty, quiet;
    size_t runs_total, runs_done, runs_skipped;
    size_t iters_total, iters_done;   /* of the runs to do (not skipped) */
    double start, last_draw;
    bl_progress_slot *slot;
    int nslots;
} bl_progress;

/* runs: runs to do now; skipped: runs already in the store. */
void bl_progress_init(bl_progress *p, size_t runs, size_t skipped, size_t iters_total,
                      int slots, int quiet);
void bl_progress_start(bl_progress *p, int slot, const char *label, size_t iters);
void bl_progress_tick(bl_progress *p, int slot, size_t done);
/* A finished run (test_err NaN when there was no test part). */
void bl_progress_end(bl_progress *p, int slot, double test_err, size_t iters, double secs);
/* A failed run: clears its slot. */
void bl_progress_fail(bl_progress *p, int slot);
void bl_progress_finish(bl_progress *p);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The plots of `boostlab report`, drawn with gnuplot (plot/plot.h) into a
 * plots folder as NAME.png and NAME.svg: per data set the mean error, its
 * paired difference to the reference algorithm, and the cumulative
 * coefficient-step (step 4) time against the iterations,
 * per swept data set the error and time against the swept value, the
 * critical-difference diagram of the Friedman test, and the decision
 * boundaries of 2-D data sets (retrained from the experiment).
 */
#ifndef BL_REPORT_FIGURES_H
#define BL_REPORT_FIGURES_H

#include <stddef.h>

#include "../config/experiment.h"
#include "../store/store.h"
#include "../util/error.h"
#include "analysis.h"

typedef enum {
    BL_FIG_ERR,         /* error vs iterations, one data set */
    BL_FIG_TIME,        /* cumulative step-4 time vs iterations, one data set */
    BL_FIG_DIFF,        /* paired error difference to the reference vs iterations */
    BL_FIG_SWEEP_ERR,   /* error vs a swept value, data sets d.. of a sweep */
    BL_FIG_SWEEP_TIME,  /* step-4 time per run vs a swept value */
    BL_FIG_CD,          /* critical-difference diagram */
    BL_FIG_BOUNDARY     /* decision regions of algorithm a on data set d */
} bl_fig_kind;

typedef struct bl_fig {
    bl_fig_kind kind;
    long d, a;          /* data set and algorithm it belongs to, or -1 */
    char *name;         /* file name in the plots folder, no extension */
    char *caption;
} bl_fig;

typedef struct bl_figs {
    bl_fig *fig;
    size_t n;
    char **note;        /* plots skipped or failed, and why */
    size_t nnote;
} bl_figs;

typedef struct bl_fig_opts {
    const char *dir;             /* plots folder (exists) */
    const char *prefix;          /* prepended to file names ("" for none) */
    /* The experiment, loaded from its resolved INI, to retrain repeat 0
     * for the decision boundaries; NULL skips them with note ex_why. */
    const bl_experiment *ex;
    const char *ex_why;
} bl_fig_opts;

/* Every plot of experiment e (st: its tests, for the CD diagram).  A plot
 * gnuplot cannot draw becomes a note, not an error; -1 only when the
 * store cannot be read. */
int bl_figures_make(bl_store *s, const bl_rexp *e, const bl_rstats *st, const bl_fig_opts *o,
                    bl_figs *out, bl_error *err);
void bl_figs_free(bl_figs *f);

/* Copy of name with every character outside [A-Za-z0-9._-] replaced by
 * '_' (malloc'ed): plot file names from data set and algorithm names. */
char *bl_fig_sanitize(const char *name);

/* Data sets of a one-key numeric sweep: NAME{KEY=VALUE} with a numeric
 * VALUE, at least two points of the same NAME and KEY. */
typedef struct bl_sweep_group {
    char *base, *key;
    size_t n;
    size_t *d;          /* data set indices, by increasing value */
    double *x;          /* their values */
} bl_sweep_group;

size_t bl_sweep_groups(const bl_rexp *e, bl_sweep_group **out);
void bl_sweep_groups_free(bl_sweep_group *g, size_t n);

#endif

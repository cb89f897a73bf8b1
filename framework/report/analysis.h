/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The numbers behind `boostlab report`: the runs of a results store
 * gathered into one table of cells per experiment (data sets x algorithms,
 * each cell holding its runs over the repeats), the paper's numbers beside
 * them, the mean curves the plots draw, and the significance tests that
 * compare the algorithms (stats/stats.h).  Nothing here writes files.
 */
#ifndef BL_REPORT_ANALYSIS_H
#define BL_REPORT_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "../config/ini.h"
#include "../stats/stats.h"
#include "../store/store.h"
#include "../util/error.h"

/* The runs of one data set x algorithm, ordered by repeat.  Summaries are
 * over the runs whose value is finite (a data set without a test part has
 * NaN test errors); a summary with no such run is NaN, and a standard
 * deviation is NaN below two runs. */
typedef struct bl_rcell {
    size_t n;                   /* runs */
    int *rep;
    int64_t *id;                /* store ids, for the curves */
    double *test_err, *train_err, *t_coef, *t_total;
    size_t *m_test;
    int *stopped;               /* stopped early (dual optimality) */
    double te_mean, te_std, tr_mean, tr_std, tc_mean, tt_mean;
    size_t te_n;                /* runs with a finite test error */
    /* The paper's numbers (%), as printed in its CSV, or NULL. */
    char *paper_mean, *paper_std;
} bl_rcell;

typedef struct bl_rexp {
    char *name;
    size_t nd, na;
    char **data, **algo;        /* display order */
    size_t *feat, *classes;     /* per data set, from the store (0 unknown) */
    bl_rcell *cell;             /* cell[d * na + a] */
    size_t runs;                /* runs in the cells */
    size_t stale;               /* older runs left out (changed parameters) */
    size_t rep_min, rep_max;    /* runs per cell, over the cells with any */
    char **host;
    size_t nhost;
    double first, last;         /* earliest start, latest finish (Unix) */
    int ordered;                /* 1: order from experiment.ini */
    char **note;                /* remarks for the report */
    size_t nnote;
} bl_rexp;

typedef struct bl_rset {
    bl_rexp *exp;
    size_t n;
} bl_rset;

/* Gather rows (as bl_store_select returns them: by experiment, data, algo,
 * rep) into cells.  ini (may be NULL), the experiment's resolved INI, gives
 * the order of data sets and algorithms (its sections); names it lacks
 * follow in store order.  When a cell holds runs of several parameter
 * hashes (the experiment changed since), only the newest parameters count,
 * and of one repeat only its newest run. */
void bl_rset_build(const bl_store_row *rows, size_t n, const bl_ini *ini, bl_rset *out);
void bl_rset_free(bl_rset *s);

/* Append a remark (printf-style) to e->note. */
void bl_rexp_note(bl_rexp *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Index of an algorithm by name, or -1. */
long bl_rexp_algo(const bl_rexp *e, const char *name);

static inline bl_rcell *bl_rexp_cell(const bl_rexp *e, size_t d, size_t a)
{
    return &e->cell[d * e->na + a];
}

/* Read the paper's numbers: a CSV with a header naming the columns data,
 * algorithm, paper_mean and paper_std (other columns ignored), '#'
 * comment lines and blank lines skipped.  With table not NULL (the
 * experiment's paper_table), only rows whose `table` column equals it.  Rows whose data and
 * algorithm equal a cell's names exactly fill that cell (the first such
 * row wins).  *matched receives the number of cells filled. */
int bl_rexp_paper(bl_rexp *e, const char *path, const char *table, size_t *matched,
                  bl_error *err);

/* ---- curves ---------------------------------------------------------------- */

/* Mean curve of a cell over its runs, per iteration 1..n (n the longest
 * run's).  A run that stopped early keeps its final values for the
 * iterations after its stop (its model does not change any more), so
 * every mean is over all runs of the cell. */
typedef struct bl_rcurve {
    size_t n;
    double *iter;                  /* 1..n */
    double *trees;                 /* trees added by iteration 1..n (the runs'
                                      mean trees per iteration times i) */
    double trees_per_iter;         /* that mean: 1 for most algorithms */
    double *err, *err_lo, *err_hi; /* error %, mean and mean -+ std */
    double *tc, *tc_lo, *tc_hi;    /* cumulative coefficient-step seconds */
    size_t runs, carried;          /* runs averaged, runs carried forward */
} bl_rcurve;

/* train != 0: training error instead of test error. */
int bl_rcell_curve(bl_store *s, const bl_rcell *c, int train, bl_rcurve *out, bl_error *err);
void bl_rcurve_free(bl_rcurve *c);

/* ---- significance tests -------------------------------------------------------- */

/* Tests of the reference algorithm against algorithm a on data set d. */
typedef struct bl_rpair {
    /* paired t-test over the repeats both ran (paired by repeat index),
     * d = reference - other test error */
    int t_ok;
    char t_why[128];
    size_t t_n;
    bl_ttest t;
    /* one-sided two-proportion z-test on error counts pooled over the
     * repeats, H1: the one with the lower pooled rate is better */
    int z_ok;
    char z_why[128];
    double e_ref, n_ref, e_oth, n_oth;
    int better;                    /* 1 reference, -1 other, 0 equal rates */
    bl_ztest z;
} bl_rpair;

typedef struct bl_rwilcox {
    int ok;
    char why[128];
    size_t ndata;                  /* data sets where both have a mean */
    bl_wilcoxon w;                 /* a = reference, b = other */
} bl_rwilcox;

typedef struct bl_rstats {
    double alpha;
    size_t ref;
    /* Friedman over the data sets whose cells all have a mean */
    int fr_ok;
    char fr_why[256];
    size_t fr_n;                   /* data sets used */
    size_t *fr_data;               /* their indices */
    bl_friedman_result fr;
    size_t *cd_order;              /* algorithms by average rank */
    size_t (*cd_groups)[2];        /* positions into cd_order */
    size_t cd_ngroups;
    /* Wilcoxon over data sets, per algorithm (entry ref unused) */
    int wx_ok;
    char wx_why[256];
    bl_rwilcox *wx;
    /* per data set x algorithm: pair[d * na + a] (entries of ref unused) */
    int pair_ok;
    char pair_why[256];
    bl_rpair *pair;
} bl_rstats;

/* Run every test of e at level alpha with algorithm ref as the reference;
 * tests that cannot be run say why in their *_why.  Free with
 * bl_rstats_free. */
void bl_rstats_run(const bl_rexp *e, size_t ref, double alpha, bl_rstats *st);
void bl_rstats_free(bl_rstats *st);

#endif

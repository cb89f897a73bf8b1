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
    size_t *m_test, *m_train;
    uint64_t *seed;             /* split seeds */
    int *stopped;               /* stopped early (dual optimality) */
    double te_mean, te_std, tr_mean, tr_std, tc_mean, tt_mean;
    size_t te_n;                /* runs with a finite test error */
    /* Mean test error over the paired repeats of its data set (see
     * bl_rexp.paired), NaN when there are none: what the best value of a
     * row and the tests over data sets compare, so that every algorithm is
     * measured on the same splits. */
    double pm_mean;
    /* Repeats the experiment planned for this cell that the store lacks
     * (bl_rexp_expect), ascending. */
    int *miss;
    size_t nmiss;
    /* The paper's numbers (%), as printed in its CSV, or NULL. */
    char *paper_mean, *paper_std;
} bl_rcell;

typedef struct bl_rexp {
    char *name;
    size_t nd, na;
    char **data, **algo;        /* display order */
    size_t *feat, *classes;     /* per data set, from the store (0 unknown) */
    size_t *m_train, *m_test;   /* per data set: rows of a split (its first run) */
    char **seeds;               /* per data set: "rep: split seed, ..." */
    size_t *paired;             /* per data set: repeats with a finite test
                                   error in every cell that holds runs */
    char **recipe, **params;    /* per algorithm: recipe ("" none) and its
                                   resolved INI text, of its newest run */
    bl_rcell *cell;             /* cell[d * na + a] */
    size_t runs;                /* runs in the cells */
    size_t stale;               /* older runs left out (changed parameters) */
    size_t rep_min, rep_max;    /* runs per cell, over the cells with any */
    size_t expected, missing;   /* runs planned and not in the store
                                   (bl_rexp_expect; 0 before) */
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

/* The runs the experiment planned: repeats 0..R-1 of every data set x
 * algorithm not skipped (skip_data), R the data set's `repeats`, else the
 * experiment's, from the resolved INI (NULL: the repeats found for the
 * data set in the store).  Fills e->expected, e->missing and each cell's
 * miss list. */
void bl_rexp_expect(bl_rexp *e, const bl_ini *ini);

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

/* Paired difference curve: per iteration, the mean and mean -+ std (err,
 * err_lo, err_hi) over the repeats both cells ran of oth's error minus
 * ref's, in percentage points, each run carried forward as above.  iter
 * and trees as bl_rcell_curve (of ref); tc unused; runs = pairs.  Two
 * algorithms whose std bands overlap may still differ consistently on
 * every split: this curve shows that. */
int bl_rcell_diff_curve(bl_store *s, const bl_rcell *ref, const bl_rcell *oth, int train,
                        bl_rcurve *out, bl_error *err);
void bl_rcurve_free(bl_rcurve *c);

/* ---- significance tests -------------------------------------------------------- */

/* Tests of the reference algorithm against algorithm a on data set d. */
typedef struct bl_rpair {
    /* paired t-test over the repeats both ran (paired by repeat index),
     * d = reference - other test error: t the plain test, tc Nadeau and
     * Bengio's corrected one with test_train = n_test / n_train (the mean
     * over the pairs); tc_holm its Holm-adjusted p over the family of
     * every data set x algorithm pair of the experiment (NaN if not run) */
    int t_ok;
    char t_why[128];
    size_t t_n;
    bl_ttest t, tc;
    double test_train, tc_holm;
    /* one-sided two-proportion z-test on the error counts of one split:
     * the mean errors and test rows over the z_n repeats both ran, not
     * their sum, which would count the rows of J overlapping splits as J
     * times as many independent ones.  H1: the one with the lower rate is
     * better; z_holm as tc_holm. */
    int z_ok;
    char z_why[128];
    size_t z_n;
    double e_ref, n_ref, e_oth, n_oth;
    int better;                    /* 1 reference, -1 other, 0 equal rates */
    bl_ztest z;
    double z_holm;
} bl_rpair;

typedef struct bl_rwilcox {
    int ok;
    char why[128];
    size_t ndata;                  /* data sets where both have a mean */
    bl_wilcoxon w;                 /* a = reference, b = other */
    double p_holm;                 /* Holm over the algorithms (NaN if not run) */
    /* Over the data sets where both have a paired mean: the reference's
     * wins (lower mean), ties (equal at the 0.01 % shown) and losses, and
     * those of its wins and losses the corrected t-test finds significant
     * after Holm's adjustment. */
    size_t win, tie, loss, sig_win, sig_loss;
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

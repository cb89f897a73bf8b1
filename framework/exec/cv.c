/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Stratified k-fold cross-validation over an algorithm's candidates (see
 * cv.h). */
#include "cv.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../data/quantize.h"
#include "../util/fsutil.h"
#include "../util/rng.h"
#include "method.h"

/* fold[i] in 0..folds-1: each class's examples shuffled, then dealt out in
 * turn, so every fold holds about 1/folds of every class. */
static void assign_folds(const bl_dataset *ds, int folds, uint64_t seed, int *fold)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, (unsigned long)bl_seed_derive(seed, "cv-folds", 0));
    size_t *idx = bl_xmalloc((ds->m ? ds->m : 1) * sizeof *idx);
    int next = 0; /* continue dealing across classes so fold sizes even out */
    for (size_t c = 0; c < ds->k; c++) {
        size_t n = 0;
        for (size_t i = 0; i < ds->m; i++)
            if ((size_t)ds->y[i] == c)
                idx[n++] = i;
        gsl_ran_shuffle(r, idx, n, sizeof *idx);
        for (size_t j = 0; j < n; j++) {
            fold[idx[j]] = next;
            next = (next + 1) % folds;
        }
    }
    free(idx);
    gsl_rng_free(r);
}

int bl_cv_choose(const bl_algo_spec *a, const bl_dataset *train, int max_bins, int iterations,
                 uint64_t seed, size_t *best, double *best_err, bl_error *err)
{
    /* cv_folds = 1: hold out one third (fold 0 of 3) as a validation set */
    int folds = a->cv_folds == 1 ? 3 : a->cv_folds, used = a->cv_folds == 1 ? 1 : folds;
    if ((size_t)folds > train->m)
        return bl_errf(err, "%s: %d-fold cross-validation needs at least %d training examples, "
                       "the training part has %zu", a->where, folds, folds, train->m);
    int *fold = bl_xmalloc((train->m ? train->m : 1) * sizeof *fold);
    assign_folds(train, folds, seed, fold);
    double *wrong = bl_xcalloc(a->ncv, sizeof *wrong); /* misclassified held-out examples */
    size_t *rows = bl_xmalloc((train->m ? train->m : 1) * sizeof *rows);
    int rc = 0;
    size_t held = 0;
    for (int f = 0; f < used && rc == 0; f++) {
        size_t ntr = 0, nva;
        for (size_t i = 0; i < train->m; i++)
            if (fold[i] != f)
                rows[ntr++] = i;
        nva = ntr;
        for (size_t i = 0; i < train->m; i++)
            if (fold[i] == f)
                rows[nva++] = i;
        bl_dataset tr, va;
        bl_qview q;
        memset(&q, 0, sizeof q);
        rc = bl_dataset_subset(train, rows, ntr, &tr, err);
        if (rc == 0)
            rc = bl_dataset_subset(train, rows + ntr, nva - ntr, &va, err);
        if (rc == 0 && (rc = bl_quantize(&tr, max_bins, &q, err)) < 0)
            bl_errprefix(err, "cross-validation fold %d", f + 1);
        for (size_t c = 0; c < a->ncv && rc == 0; c++) {
            /* a candidate may set its own budget (cv.iterations = {...}) */
            int its = a->cv_iterations ? a->cv_iterations
                      : a->cv[c].iterations ? a->cv[c].iterations : iterations;
            bl_method_cfg mc = {&a->cv[c], its, bl_seed_derive(seed, a->cv_label[c], (uint64_t)f),
                                NULL, NULL, max_bins};
            bl_curve cv;
            bl_metrics met;
            memset(&cv, 0, sizeof cv);
            memset(&met, 0, sizeof met);
            bl_method_io io = {&tr, &va, &q, &cv, &met, NULL};
            rc = bl_method_run(&mc, &io, err);
            if (rc < 0)
                bl_errprefix(err, "cross-validation of %s, fold %d", a->cv_label[c], f + 1);
            else
                wrong[c] += (double)va.m * (cv.n ? cv.test_err[cv.n - 1] : cv.test_err0);
            bl_curve_free(&cv);
            bl_metrics_free(&met);
        }
        held += va.m;
        bl_qview_free(&q);
        bl_dataset_free(&tr);
        bl_dataset_free(&va);
    }
    if (rc == 0) {
        *best = 0;
        for (size_t c = 1; c < a->ncv; c++)
            if (wrong[c] < wrong[*best] - 1e-9)
                *best = c;
        *best_err = wrong[*best] / (double)(held ? held : 1);
    }
    free(wrong);
    free(rows);
    free(fold);
    return rc;
}

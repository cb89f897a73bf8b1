/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Train/test splits (see split.h).  Random kinds shuffle each class's rows
 * with one GSL Mersenne Twister seeded from the split's seed, visiting the
 * classes in index order, so a seed fixes the split completely. */
#include "split.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"
#include "../util/rng.h"

/* Stratified random split: mark[i] = 1 train, 2 test, 0 unused. */
static void split_random(const bl_dataset *ds, const bl_split_spec *sp, uint64_t seed,
                         size_t fold, unsigned char *mark)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    /* GSL's MT seeds from 32 bits only: fold all 64 bits in first. */
    uint64_t h = bl_mix64(seed);
    gsl_rng_set(r, (unsigned long)((h ^ (h >> 32)) & 0xffffffffu));

    size_t m = ds->m, k = ds->k;
    size_t *start = bl_xcalloc(k + 1, sizeof *start);
    size_t *rows = bl_xmalloc(m * sizeof *rows);
    for (size_t i = 0; i < m; i++)
        start[ds->y[i] + 1]++;
    for (size_t c = 0; c < k; c++)
        start[c + 1] += start[c];
    size_t *fill = bl_xmalloc((k ? k : 1) * sizeof *fill);
    memcpy(fill, start, k * sizeof *fill);
    for (size_t i = 0; i < m; i++)
        rows[fill[ds->y[i]]++] = i;
    free(fill);

    size_t dealt = 0; /* k-fold: rows dealt so far, over all classes */
    for (size_t c = 0; c < k; c++) {
        size_t *rc = rows + start[c], nc = start[c + 1] - start[c];
        if (nc == 0)
            continue;
        gsl_ran_shuffle(r, rc, nc, sizeof *rc);
        if (sp->kind == BL_SPLIT_KFOLD) {
            for (size_t j = 0; j < nc; j++, dealt++)
                mark[rc[j]] = dealt % sp->folds == fold ? 2 : 1;
            continue;
        }
        size_t use = nc;
        if (sp->kind == BL_SPLIT_PER_CLASS && sp->per_class < nc)
            use = sp->per_class;
        size_t ntest = (size_t)lround(sp->test_ratio * (double)use);
        if (use >= 2 && ntest >= use)
            ntest = use - 1; /* keep the class in the training part */
        for (size_t j = 0; j < use; j++)
            mark[rc[j]] = j < ntest ? 2 : 1;
    }
    free(rows);
    free(start);
    gsl_rng_free(r);
}

const char *bl_split_name(bl_split_kind kind)
{
    static const char *const names[] = {"?", "given", "first", "ratio", "per-class", "kfold"};
    return (unsigned)kind < sizeof names / sizeof *names ? names[kind] : "?";
}

int bl_split(const bl_dataset *ds, const bl_split_spec *sp, uint64_t seed, size_t fold,
             size_t **train, size_t *ntrain, size_t **test, size_t *ntest, bl_error *err)
{
    *train = *test = NULL;
    *ntrain = *ntest = 0;
    size_t m = ds->m;
    if (m == 0)
        return bl_errf(err, "split: the data set has no rows");
    int random = sp->kind == BL_SPLIT_RATIO || sp->kind == BL_SPLIT_PER_CLASS ||
                 sp->kind == BL_SPLIT_KFOLD;
    switch (sp->kind) {
    case BL_SPLIT_GIVEN:
        break;
    case BL_SPLIT_FIRST:
        if (sp->first == 0)
            return bl_errf(err, "split: first = 0 leaves the training part empty");
        if (sp->first >= m)
            return bl_errf(err, "split: first = %zu leaves the test part empty (the data set "
                           "has %zu rows; first must be below that)", sp->first, m);
        break;
    case BL_SPLIT_KFOLD:
        if (sp->folds < 2)
            return bl_errf(err, "split: folds must be at least 2, got %zu", sp->folds);
        if (fold >= sp->folds)
            return bl_errf(err, "split: fold %zu of %zu does not exist (folds are 0..%zu)", fold,
                           sp->folds, sp->folds - 1);
        if (m < sp->folds)
            return bl_errf(err, "split: %zu folds need at least %zu rows, the data set has %zu",
                           sp->folds, sp->folds, m);
        break;
    case BL_SPLIT_PER_CLASS:
        if (sp->per_class == 0)
            return bl_errf(err, "split: per_class must be at least 1, got 0");
        /* fall through */
    case BL_SPLIT_RATIO:
        if (!(sp->test_ratio > 0.0 && sp->test_ratio < 1.0))
            return bl_errf(err, "split: test_ratio must be in (0, 1), got %g", sp->test_ratio);
        break;
    default:
        return bl_errf(err, "split: unknown split kind %d", (int)sp->kind);
    }
    if (random)
        for (size_t i = 0; i < m; i++)
            if (ds->y[i] < 0 || (size_t)ds->y[i] >= ds->k)
                return bl_errf(err, "split: row %zu has label %d outside 0..%zu", i, ds->y[i],
                               ds->k ? ds->k - 1 : 0);

    unsigned char *mark = bl_xmalloc(m);
    if (sp->kind == BL_SPLIT_GIVEN)
        memset(mark, 1, m);
    else if (sp->kind == BL_SPLIT_FIRST)
        for (size_t i = 0; i < m; i++)
            mark[i] = i < sp->first ? 1 : 2;
    else {
        memset(mark, 0, m);
        split_random(ds, sp, seed, fold, mark);
    }
    size_t ntr = 0, nte = 0;
    for (size_t i = 0; i < m; i++) {
        ntr += mark[i] == 1;
        nte += mark[i] == 2;
    }
    if (random && ntr == 0) {
        free(mark);
        return bl_errf(err, "split: the training part is empty (test_ratio %g on classes of "
                       "one row each)", sp->test_ratio);
    }
    if (random && nte == 0) {
        free(mark);
        return bl_errf(err, "split: the test part is empty (test_ratio %g is too small for "
                       "classes this size: %zu rows in all)", sp->test_ratio, m);
    }
    size_t *tr = bl_xmalloc((ntr ? ntr : 1) * sizeof *tr);
    size_t *te = bl_xmalloc((nte ? nte : 1) * sizeof *te);
    for (size_t i = 0, a = 0, b = 0; i < m; i++) {
        if (mark[i] == 1)
            tr[a++] = i;
        else if (mark[i] == 2)
            te[b++] = i;
    }
    free(mark);
    *train = tr;
    *ntrain = ntr;
    *test = te;
    *ntest = nte;
    return 0;
}

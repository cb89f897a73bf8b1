/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Training sets for weak-learner unit tests: a data set with its quantized
 * view and the SDK's view of both, and random features (with NaNs) from
 * testutil.h's generator.  Include after testutil.h. */
#ifndef BL_TEST_WEAKSET_H
#define BL_TEST_WEAKSET_H

#include <math.h>

#include "data/quantize.h"

struct tset {
    bl_dataset ds;
    bl_qview q;
    struct bl_train tr;
};

/* m x d feature-major x (taken over), labels all 0. */
static inline struct tset *tset_new(size_t m, size_t d, float *x)
{
    struct tset *T = calloc(1, sizeof *T);
    T->ds.m = m, T->ds.d = d, T->ds.k = 2;
    T->ds.x = x;
    T->ds.y = calloc(m ? m : 1, sizeof(int));
    bl_error err;
    cr_assert_eq(bl_quantize(&T->ds, 256, &T->q, &err), 0, "quantize: %s", err.msg);
    bl_train_view(&T->ds, &T->q, &T->tr);
    return T;
}

static inline void tset_free(struct tset *T)
{
    bl_qview_free(&T->q);
    free(T->ds.x);
    free(T->ds.y);
    free(T);
}

/* Random features in [-2, 2] (NaN with probability nanfrac). */
static inline struct tset *random_set(size_t m, size_t d, double nanfrac, uint64_t seed)
{
    rng_seed(seed);
    float *x = malloc((m * d > 0 ? m * d : 1) * sizeof *x);
    for (size_t j = 0; j < m * d; j++)
        x[j] = nanfrac > 0 && urand() < nanfrac ? NAN : (float)urange(-2, 2);
    return tset_new(m, d, x);
}

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Coding plugin "random-half": the random-half colorings of AdaBoost.ECC
 * (Guruswami & Sahai 1999, random-half per Li 2006; stagewise spec §7.4;
 * colorings as in hingeboost-oc spec §1.2).  Each iteration a new coloring
 * mu: {0..k-1} -> {-1,+1}, one column (c = 1):
 *
 *     shuffle the classes (Fisher-Yates, driven by the seed code() gets);
 *     the first ceil(k/2) of the shuffled order -> +1, the other floor(k/2) -> -1.
 *
 * The spec leaves floor/ceil open for odd k; this plugin puts the larger
 * half on +1.  It does not matter for the boosting: the stump class is
 * closed under negation, so mu and -mu give the same fits.  Both halves are
 * non-empty for k >= 2, so the coloring is never constant.
 *
 * Deterministic: the coloring depends only on the seed (the engine derives
 * it from the run's seed and the iteration), through splitmix64 and
 * unbiased bounded draws (rejection), never on the labels or weights.
 * Needs k >= 2 classes.
 */
#include <boostlab/boostlab.h>

#include <stdio.h>
#include <stdlib.h>

#include "../common/splitmix.h"

struct rhalf {
    size_t k;
    size_t *perm; /* k scratch */
};

static void *rhalf_create(const struct bl_host *host, const union bl_value *params, size_t k,
                          char err[BL_ERR_MAX])
{
    (void)host;
    (void)params;
    if (k < 2) {
        snprintf(err, BL_ERR_MAX, "random-half colorings need at least 2 classes (this problem "
                 "has %zu)", k);
        return NULL;
    }
    struct rhalf *C = malloc(sizeof *C);
    if (!C || !(C->perm = malloc(k * sizeof *C->perm))) {
        free(C);
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    C->k = k;
    return C;
}

static void rhalf_destroy(void *self)
{
    struct rhalf *C = self;
    if (C)
        free(C->perm);
    free(C);
}

static size_t rhalf_max_columns(const void *self)
{
    (void)self;
    return 1;
}

static int rhalf_code(void *self, const int *y, size_t m, const double *G, uint64_t seed,
                      double *M, size_t *c, char err[BL_ERR_MAX])
{
    (void)y, (void)m, (void)G, (void)err;
    struct rhalf *C = self;
    size_t k = C->k, *p = C->perm;
    uint64_t s = seed;
    shuffle_index(&s, p, k);
    size_t pos = (k + 1) / 2;
    for (size_t r = 0; r < k; r++)
        M[p[r]] = r < pos ? 1.0 : -1.0;
    *c = 1;
    return 0;
}

static const struct bl_coding_ops rhalf_ops = {
    .size = sizeof(struct bl_coding_ops),
    .create = rhalf_create,
    .destroy = rhalf_destroy,
    .max_columns = rhalf_max_columns,
    .code = rhalf_code,
};

static const struct bl_plugin rhalf_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_CODING,
    .name = "random-half",
    .doc = "AdaBoost.ECC random-half coloring, a new one each iteration: ceil(k/2) random classes +1, the rest -1",
    .params = NULL,
    .nparams = 0,
    .ops = &rhalf_ops,
};

static const struct bl_plugin *const rhalf_plugins[] = {&rhalf_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return rhalf_plugins;
}

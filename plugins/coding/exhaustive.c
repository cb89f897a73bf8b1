/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Coding plugin "exhaustive": the exhaustive code of AdaBoost.MO
 * (Schapire & Singer 1999; stagewise spec §7.5) and of ECOC for 3 <= k <= 7
 * (Dietterich & Bakiri 1995; hingeboost-oc spec §3.7): every non-trivial
 * coloring of the k classes, a coloring and its complement counted once,
 *
 *     N = 2^(k-1) - 1 columns,
 *
 * built as in hingeboost-oc §3.7: row 0 (class 0) is all +1; for column
 * j = 0 .. 2^(k-1) - 2, rows 1 .. k-1 hold the (k-1)-bit binary expansion
 * of j, most significant bit in row 1, bit 1 -> +1 and bit 0 -> -1 (j =
 * 2^(k-1) - 1 would be the constant column, so it is left out).  Every
 * column is non-constant, no two are equal or complementary, and the
 * minimum Hamming distance between codewords is 2^(k-2).  The same code
 * every iteration; the seed, labels and dual weights are not used.
 *
 * The code grows exponentially, so create() refuses k > max_classes
 * (default 13, i.e. 4095 columns; the paper marks the runs it could not do
 * with a dagger, k >= 20).  max_classes itself is at most 20 (524287
 * columns): the engine keeps m x N coded dual weights.
 */
#include <boostlab/boostlab.h>

#include <stdio.h>
#include <stdlib.h>

#define NAME "exhaustive"
#define HARD_MAX 20

enum { P_MAX_CLASSES, P_COUNT };

static const struct bl_param_spec exh_params[P_COUNT] = {
    [P_MAX_CLASSES] = {"max_classes", BL_PARAM_INT, "13", 2, HARD_MAX, NULL,
                       "refuse problems with more classes (the code has 2^(k-1)-1 columns)"},
};

struct exh {
    size_t k, n;
    double *M; /* k x n */
};

static void *exh_create(const struct bl_host *host, const union bl_value *params, size_t k,
                        char err[BL_ERR_MAX])
{
    long long maxk = params ? (long long)params[P_MAX_CLASSES].i : 13;
    if (k < 2) {
        snprintf(err, BL_ERR_MAX, "the exhaustive code needs at least 2 classes (this problem "
                 "has %zu)", k);
        return NULL;
    }
    if (maxk < 2 || maxk > HARD_MAX)
        maxk = maxk < 2 ? 2 : HARD_MAX;
    if (k > (size_t)maxk) {
        if (k <= 64)
            snprintf(err, BL_ERR_MAX, "exhaustive code needs 2^(k-1)-1 = %llu columns for k = %zu "
                     "classes; more than max_classes = %lld is refused (the paper marks such "
                     "runs \u2020)", (unsigned long long)((~0ull) >> (65 - k)), k, maxk);
        else
            snprintf(err, BL_ERR_MAX, "exhaustive code needs 2^(k-1)-1 = 2^%zu-1 columns for "
                     "k = %zu classes; more than max_classes = %lld is refused (the paper marks "
                     "such runs \u2020)", k - 1, k, maxk);
        return NULL;
    }
    size_t n = ((size_t)1 << (k - 1)) - 1;
    struct exh *C = malloc(sizeof *C);
    if (!C || !(C->M = malloc(k * n * sizeof *C->M))) {
        free(C);
        snprintf(err, BL_ERR_MAX, "out of memory for a %zu x %zu code", k, n);
        return NULL;
    }
    C->k = k;
    C->n = n;
    for (size_t j = 0; j < n; j++) {
        C->M[j] = 1.0;
        for (size_t r = 1; r < k; r++)
            C->M[r * n + j] = (j >> (k - 1 - r)) & 1 ? 1.0 : -1.0;
    }
    if (host && host->log)
        host->log(1, NAME, "k = %zu classes: %zu columns, minimum Hamming distance %zu", k, n,
                  (size_t)1 << (k - 2));
    return C;
}

static void exh_destroy(void *self)
{
    struct exh *C = self;
    if (C)
        free(C->M);
    free(C);
}

static size_t exh_max_columns(const void *self)
{
    return ((const struct exh *)self)->n;
}

static int exh_code(void *self, const int *y, size_t m, const double *G, uint64_t seed,
                    double *M, size_t *c, char err[BL_ERR_MAX])
{
    (void)y, (void)m, (void)G, (void)seed, (void)err;
    const struct exh *C = self;
    for (size_t q = 0; q < C->k * C->n; q++)
        M[q] = C->M[q];
    *c = C->n;
    return 0;
}

static const struct bl_coding_ops exh_ops = {
    .size = sizeof(struct bl_coding_ops),
    .create = exh_create,
    .destroy = exh_destroy,
    .max_columns = exh_max_columns,
    .code = exh_code,
};

static const struct bl_plugin exh_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_CODING,
    .name = "exhaustive",
    .doc = "exhaustive code (AdaBoost.MO): all 2^(k-1)-1 non-trivial colorings, complements once",
    .params = exh_params,
    .nparams = P_COUNT,
    .ops = &exh_ops,
};

static const struct bl_plugin *const exh_plugins[] = {&exh_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return exh_plugins;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Coding plugin "ova": one-vs-all.  The code matrix is
 *
 *     M = 2I - 11^T   (k x k: column j is +1 for class j, -1 for the rest),
 *
 * the coding matrix of the one-vs-all baseline (hingeboost-oc spec §3.5,
 * minimum Hamming distance 2 between codewords) and of the one-vs-all coded
 * boosting runs; with the engine's decoding h_r(x) = sum_j M[r][j] h_j(x)
 * class r gets h_r - sum_{j != r} h_j.  The same code every iteration; the
 * seed, labels and dual weights are not used.  Needs k >= 2 classes.
 */
#include <boostlab/boostlab.h>

#include <stdio.h>
#include <stdlib.h>

struct ova {
    size_t k;
};

static void *ova_create(const struct bl_host *host, const union bl_value *params, size_t k,
                        char err[BL_ERR_MAX])
{
    (void)host;
    (void)params;
    if (k < 2) {
        snprintf(err, BL_ERR_MAX, "one-vs-all needs at least 2 classes (this problem has %zu)", k);
        return NULL;
    }
    struct ova *C = malloc(sizeof *C);
    if (!C) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    C->k = k;
    return C;
}

static void ova_destroy(void *self)
{
    free(self);
}

static size_t ova_max_columns(const void *self)
{
    return ((const struct ova *)self)->k;
}

static int ova_code(void *self, const int *y, size_t m, const double *G, uint64_t seed,
                    double *M, size_t *c, char err[BL_ERR_MAX])
{
    (void)y, (void)m, (void)G, (void)seed, (void)err;
    size_t k = ((const struct ova *)self)->k;
    for (size_t r = 0; r < k; r++)
        for (size_t j = 0; j < k; j++)
            M[r * k + j] = r == j ? 1.0 : -1.0;
    *c = k;
    return 0;
}

static const struct bl_coding_ops ova_ops = {
    .size = sizeof(struct bl_coding_ops),
    .create = ova_create,
    .destroy = ova_destroy,
    .max_columns = ova_max_columns,
    .code = ova_code,
};

static const struct bl_plugin ova_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_CODING,
    .name = "ova",
    .doc = "one-vs-all code M = 2I - 1 (k columns: +1 for class j, -1 for the rest)",
    .params = NULL,
    .nparams = 0,
    .ops = &ova_ops,
};

static const struct bl_plugin *const ova_plugins[] = {&ova_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return ova_plugins;
}

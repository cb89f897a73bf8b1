/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Coding plugin "binary": the binary form of a two-class problem, for
 * discrete AdaBoost (stagewise spec §5.3: the binary case of the margin
 * losses is AdaBoost).  The code is the single column
 *
 *     M = [+1; -1]   (class 0 -> +1, class 1 -> -1),
 *
 * so the weak learner sees the one binary problem G_i0 - G_i1 and answers
 * with one output h(x), which the engine maps to the class outputs
 * (h(x), -h(x)).  Same code every iteration.  Refused for k != 2.
 */
#include <boostlab/boostlab.h>

#include <stdio.h>
#include <stdlib.h>

static int token;

static void *bin_create(const struct bl_host *host, const union bl_value *params, size_t k,
                        char err[BL_ERR_MAX])
{
    (void)host;
    (void)params;
    if (k != 2) {
        snprintf(err, BL_ERR_MAX, "AdaBoost is binary: this problem has %zu classes; use a "
                 "multi-class coding (coding = ova, ovo, random-half, dense-ecoc or exhaustive) "
                 "or a multi-class recipe (e.g. samme, adaboost-mh, mcboost-exp)", k);
        return NULL;
    }
    return &token;
}

static void bin_destroy(void *self)
{
    (void)self;
}

static size_t bin_max_columns(const void *self)
{
    (void)self;
    return 1;
}

static int bin_code(void *self, const int *y, size_t m, const double *G, uint64_t seed,
                    double *M, size_t *c, char err[BL_ERR_MAX])
{
    (void)self, (void)y, (void)m, (void)G, (void)seed, (void)err;
    M[0] = 1.0;
    M[1] = -1.0;
    *c = 1;
    return 0;
}

static const struct bl_coding_ops bin_ops = {
    .size = sizeof(struct bl_coding_ops),
    .create = bin_create,
    .destroy = bin_destroy,
    .max_columns = bin_max_columns,
    .code = bin_code,
};

static const struct bl_plugin bin_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_CODING,
    .name = "binary",
    .doc = "binary code M = [+1; -1] for k = 2 (discrete AdaBoost); refused for k != 2",
    .params = NULL,
    .nparams = 0,
    .ops = &bin_ops,
};

static const struct bl_plugin *const bin_plugins[] = {&bin_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return bin_plugins;
}

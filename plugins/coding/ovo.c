/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Coding plugin "ovo": one-vs-one.  One column per pair of classes a < b,
 * k(k-1)/2 in all, ordered (0,1), (0,2), ..., (0,k-1), (1,2), ..., (k-2,k-1):
 * column (a,b) is +1 for class a, -1 for class b and 0 for every other
 * class (the one-vs-one baseline, hingeboost-oc spec §3.6; the zeros make
 * the other classes' examples irrelevant to that column, since their dual
 * weights enter G M with coefficient 0).  Same code every iteration; the
 * seed, labels and dual weights are not used.  Needs k >= 2 classes.
 */
#include <boostlab/boostlab.h>

#include <stdio.h>
#include <stdlib.h>

struct ovo {
    size_t k, c;
};

static void *ovo_create(const struct bl_host *host, const union bl_value *params, size_t k,
                        char err[BL_ERR_MAX])
{
    (void)host;
    (void)params;
    if (k < 2) {
        snprintf(err, BL_ERR_MAX, "one-vs-one needs at least 2 classes (this problem has %zu)", k);
        return NULL;
    }
    if (k > 65536) {
        snprintf(err, BL_ERR_MAX, "one-vs-one for %zu classes needs %zu columns; at most 65536 "
                 "classes are supported", k, k / 2 * (k - 1));
        return NULL;
    }
    struct ovo *C = malloc(sizeof *C);
    if (!C) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    C->k = k;
    C->c = k * (k - 1) / 2;
    return C;
}

static void ovo_destroy(void *self)
{
    free(self);
}

static size_t ovo_max_columns(const void *self)
{
    return ((const struct ovo *)self)->c;
}

static int ovo_code(void *self, const int *y, size_t m, const double *G, uint64_t seed,
                    double *M, size_t *c, char err[BL_ERR_MAX])
{
    (void)y, (void)m, (void)G, (void)seed, (void)err;
    const struct ovo *C = self;
    size_t k = C->k, n = C->c, j = 0;
    for (size_t q = 0; q < k * n; q++)
        M[q] = 0.0;
    for (size_t a = 0; a < k; a++)
        for (size_t b = a + 1; b < k; b++, j++) {
            M[a * n + j] = 1.0;
            M[b * n + j] = -1.0;
        }
    *c = n;
    return 0;
}

static const struct bl_coding_ops ovo_ops = {
    .size = sizeof(struct bl_coding_ops),
    .create = ovo_create,
    .destroy = ovo_destroy,
    .max_columns = ovo_max_columns,
    .code = ovo_code,
};

static const struct bl_plugin ovo_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_CODING,
    .name = "ovo",
    .doc = "one-vs-one code: k(k-1)/2 columns, column (a,b) is +1 for a, -1 for b, 0 elsewhere",
    .params = NULL,
    .nparams = 0,
    .ops = &ovo_ops,
};

static const struct bl_plugin *const ovo_plugins[] = {&ovo_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return ovo_plugins;
}

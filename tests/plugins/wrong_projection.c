/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * check-plugin fixtures: three random-projection plugins in one file, two
 * of them with a classic bug each, and the same plugin without it:
 *
 *   fixture-projection-order  each class has one random stream, seeded at
 *          create, and column(c, j) returns the next n numbers of class c's
 *          stream, ignoring j: right as long as the columns are asked for
 *          in the order 0, 1, 2, ... once each (as RBoost-proj does during
 *          training), wrong for prediction, which regenerates column j
 *          alone, and for any other order.  The streams are also advanced
 *          without a lock, so threads race on them.
 *   fixture-projection-scale  every column is its own stream (as it should
 *          be), but the entries are N(0, 1): the 1/sqrt(n) is forgotten, so
 *          the variance is 1 instead of 1/n and ||P x||^2 ~ n ||x||^2.
 *   fixture-projection-good  both right: entries N(0, 1)/sqrt(n), column
 *          (c, j) a function of (seed, c, j) only.  check-plugin passes it.
 *
 * Parameter n is the projected dimension (default 20).
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { P_N, P_COUNT };
enum { BUG_ORDER, BUG_SCALE, BUG_NONE };

static const struct bl_param_spec wp_params[P_COUNT] = {
    [P_N] = {"n", BL_PARAM_INT, "20", 1, 100000, NULL, "projected dimension"},
};

struct wp {
    size_t n, k;
    int bug;
    uint64_t seed;
    uint64_t *stream; /* bug = order: one state per class */
};

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double unif(uint64_t *s) /* (0, 1) */
{
    *s += 0x9E3779B97F4A7C15ull;
    return ((double)(mix(*s) >> 11) + 0.5) * 0x1.0p-53;
}

static void normals(uint64_t *s, double scale, double *col, size_t n)
{
    for (size_t v = 0; v < n; v += 2) {
        double r = sqrt(-2.0 * log(unif(s))) * scale, th = 2.0 * M_PI * unif(s);
        col[v] = r * cos(th);
        if (v + 1 < n)
            col[v + 1] = r * sin(th);
    }
}

static void *wp_create(const union bl_value *params, size_t k, uint64_t seed, int bug,
                       char err[BL_ERR_MAX])
{
    if (k < 1) {
        snprintf(err, BL_ERR_MAX, "need at least one class");
        return NULL;
    }
    struct wp *W = calloc(1, sizeof *W);
    if (!W || !(W->stream = malloc(k * sizeof *W->stream))) {
        free(W);
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    W->n = params ? (size_t)params[P_N].i : 20;
    W->bug = bug;
    W->k = k;
    W->seed = seed;
    for (size_t c = 0; c < k; c++)
        W->stream[c] = mix(seed ^ mix(c + 1));
    return W;
}

static void *order_create(const struct bl_host *host, const union bl_value *params, size_t k,
                          uint64_t seed, char err[BL_ERR_MAX])
{
    (void)host;
    return wp_create(params, k, seed, BUG_ORDER, err);
}

static void *scale_create(const struct bl_host *host, const union bl_value *params, size_t k,
                          uint64_t seed, char err[BL_ERR_MAX])
{
    (void)host;
    return wp_create(params, k, seed, BUG_SCALE, err);
}

static void *good_create(const struct bl_host *host, const union bl_value *params, size_t k,
                         uint64_t seed, char err[BL_ERR_MAX])
{
    (void)host;
    return wp_create(params, k, seed, BUG_NONE, err);
}

static void wp_destroy(void *self)
{
    struct wp *W = self;
    free(W->stream);
    free(W);
}

static size_t wp_dim(const void *self)
{
    return ((const struct wp *)self)->n;
}

static void wp_column(const void *self, size_t c, size_t j, double *col)
{
    const struct wp *W = self;
    double scale = 1.0 / sqrt((double)W->n);
    if (W->bug == BUG_ORDER) { /* the bug: the next n numbers of class c's stream */
        normals(&W->stream[c], scale, col, W->n);
        return;
    }
    uint64_t s = mix(W->seed ^ mix(0xC1A55ull + c) ^ mix(mix(j + 1)));
    normals(&s, W->bug == BUG_SCALE ? 1.0 : scale, col, W->n); /* BUG_SCALE: no 1/sqrt(n) */
}

static const struct bl_projection_ops order_ops = {sizeof(struct bl_projection_ops), order_create, wp_destroy, wp_dim, wp_column};
static const struct bl_projection_ops scale_ops = {sizeof(struct bl_projection_ops), scale_create, wp_destroy, wp_dim, wp_column};
static const struct bl_projection_ops good_ops = {sizeof(struct bl_projection_ops), good_create, wp_destroy, wp_dim, wp_column};

static const struct bl_plugin order_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_PROJECTION,
    .name = "fixture-projection-order",
    .doc = "test fixture: a projection whose columns depend on the order of the calls",
    .params = wp_params,
    .nparams = P_COUNT,
    .ops = &order_ops,
};

static const struct bl_plugin scale_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_PROJECTION,
    .name = "fixture-projection-scale",
    .doc = "test fixture: a projection whose entries have variance 1 instead of 1/n",
    .params = wp_params,
    .nparams = P_COUNT,
    .ops = &scale_ops,
};

static const struct bl_plugin good_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_PROJECTION,
    .name = "fixture-projection-good",
    .doc = "test fixture: the two projections above without their bugs",
    .params = wp_params,
    .nparams = P_COUNT,
    .ops = &good_ops,
};

static const struct bl_plugin *const wp_plugins[] = {&order_plugin, &scale_plugin, &good_plugin,
                                                     NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return wp_plugins;
}

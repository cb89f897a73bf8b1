/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Projection plugin "gaussian": RandomBoost's random projection matrices
 * (randomboost spec §1.1), one per class,
 *
 *     P^(c)[v][j] = a / sqrt(n),   a ~ N(0, 1) i.i.d.,
 *
 * or, with dist = sparse, Achlioptas' database-friendly matrices
 * a = sqrt(3) * {+1 w.p. 1/6, 0 w.p. 2/3, -1 w.p. 1/6}, which have the same
 * mean and variance (Achlioptas 2003), and dist = rademacher, a = +-1.
 *
 * Every column (c, j) is its own stream, splitmix64 seeded by a hash of
 * (seed, c, j), with Box-Muller pairs for the normals: a column never
 * depends on which other columns were asked for, so RBoost-proj can draw
 * column t at iteration t and a saved model regenerates exactly the
 * matrices it was trained with.
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { P_N, P_DIST, P_COUNT };
enum { DIST_GAUSSIAN, DIST_SPARSE, DIST_RADEMACHER };

static const struct bl_param_spec gauss_params[P_COUNT] = {
    [P_N] = {"n", BL_PARAM_INT, "1000", 1, 1e7, NULL,
             "projected dimension: rows of every class's matrix"},
    [P_DIST] = {"dist", BL_PARAM_CHOICE, "gaussian", 0, 0, "gaussian|sparse|rademacher",
                "entry distribution (all scaled to variance 1/n)"},
};

struct gauss {
    size_t n, k;
    int dist;
    uint64_t seed;
};

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t next(uint64_t *s)
{
    return mix(*s += 0x9E3779B97F4A7C15ull);
}

/* Uniform on (0, 1): 53 random bits, never 0. */
static double unif(uint64_t *s)
{
    return ((double)(next(s) >> 11) + 0.5) * 0x1.0p-53;
}

static void *gauss_create(const struct bl_host *host, const union bl_value *params, size_t k,
                          uint64_t seed, char err[BL_ERR_MAX])
{
    (void)host;
    if (k < 1) {
        snprintf(err, BL_ERR_MAX, "need at least one class");
        return NULL;
    }
    struct gauss *G = malloc(sizeof *G);
    if (!G) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    G->n = params ? (size_t)params[P_N].i : 1000;
    G->dist = params ? params[P_DIST].choice : DIST_GAUSSIAN;
    G->k = k;
    G->seed = seed;
    return G;
}

static void gauss_destroy(void *self)
{
    free(self);
}

static size_t gauss_dim(const void *self)
{
    return ((const struct gauss *)self)->n;
}

static void gauss_column(const void *self, size_t c, size_t j, double *col)
{
    const struct gauss *G = self;
    uint64_t s = mix(G->seed ^ mix(0x5EED0000ull + (uint64_t)c) ^ mix(mix((uint64_t)j + 1)));
    double scale = 1.0 / sqrt((double)G->n);
    if (G->dist == DIST_GAUSSIAN) {
        for (size_t v = 0; v < G->n; v += 2) { /* Box-Muller: a pair per two uniforms */
            double r = sqrt(-2.0 * log(unif(&s))) * scale, th = 2.0 * M_PI * unif(&s);
            col[v] = r * cos(th);
            if (v + 1 < G->n)
                col[v + 1] = r * sin(th);
        }
        return;
    }
    for (size_t v = 0; v < G->n; v++) {
        double a;
        if (G->dist == DIST_SPARSE) {
            uint64_t u = next(&s) % 6; /* bias of 2^64 mod 6 is below 1e-18 */
            a = u == 0 ? sqrt(3.0) : u == 1 ? -sqrt(3.0) : 0.0;
        } else {
            a = next(&s) >> 63 ? 1.0 : -1.0;
        }
        col[v] = a * scale;
    }
}

static const struct bl_projection_ops gauss_ops = {
    .size = sizeof(struct bl_projection_ops),
    .create = gauss_create,
    .destroy = gauss_destroy,
    .dim = gauss_dim,
    .column = gauss_column,
};

static const struct bl_plugin gauss_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_PROJECTION,
    .name = "gaussian",
    .doc = "RandomBoost's random projections: one n-row matrix per class, entries N(0,1)/sqrt(n) "
           "(or sparse / Rademacher), regenerated per column from the seed",
    .params = gauss_params,
    .nparams = P_COUNT,
    .ops = &gauss_ops,
};

static const struct bl_plugin *const gauss_plugins[] = {&gauss_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return gauss_plugins;
}

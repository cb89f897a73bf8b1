/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Coding plugin "my-coding", started from boostlab's coding template:
 * one-vs-all.  The code matrix M (k classes x k columns) has column j = +1
 * for class j and `rest` for the other classes:
 *
 *     rest = full:      -1            (M = 2I - 11^T, the classic one-vs-all)
 *     rest = balanced:  -1/(k-1)      (every column sums to 0, SAMME's coding)
 *
 * Each iteration the engine shows the weak learner the k binary problems
 * G M (the dual weights seen through the columns) and maps its k outputs
 * back to classes, h_r(x) = sum_j M[r][j] h_j(x).  The weak learner must
 * answer every column: use e.g. `weak = stump` with `weak.criterion = each`.
 * `rest` changes nothing with the margin losses (margin-exp, margin-log):
 * their dual weights sum to 0 over each example's classes, so both codes
 * show the weak learner the same problems up to a scale; it does matter
 * with losses such as mh-exp.
 * This code is the same every iteration; a random or adaptive code would
 * use the seed, the labels y or the dual weights G that code() also gets.
 *
 * Build:  make   (or: cc -shared -fPIC $(pkg-config --cflags boostlab) my_coding.c -o my_coding.so)
 * Check:  boostlab check-plugin ./my_coding.so
 * Use:    BOOSTLAB_PLUGIN_PATH=$PWD/my_coding.so, then `coding = my-coding` in an experiment.
 * The contract of a coding is in <boostlab/coding.h> and docs/sdk.md.
 */
#include <boostlab/boostlab.h>

#include <stdio.h>
#include <stdlib.h>

enum { P_REST, P_COUNT };
enum { REST_FULL, REST_BALANCED }; /* indices into the choices below */
static const struct bl_param_spec my_coding_params[P_COUNT] = {
    [P_REST] = {"rest", BL_PARAM_CHOICE, "full", 0, 0, "full|balanced",
                "entry of the other classes: full = -1, balanced = -1/(k-1)"},
};

struct my_coding {
    size_t k;
    double rest;
};

/* create() may refuse a class count the code cannot serve. */
static void *my_coding_create(const struct bl_host *host, const union bl_value *params,
                              size_t k, char err[BL_ERR_MAX])
{
    (void)host;
    if (k < 2) {
        snprintf(err, BL_ERR_MAX, "one-vs-all needs at least 2 classes (this problem has %zu)", k);
        return NULL;
    }
    struct my_coding *C = malloc(sizeof *C);
    if (!C) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    C->k = k;
    C->rest = params[P_REST].choice == REST_BALANCED ? -1.0 / (double)(k - 1) : -1.0;
    return C;
}

static void my_coding_destroy(void *self)
{
    free(self);
}

/* The engine sizes its buffers with this. */
static size_t my_coding_max_columns(const void *self)
{
    return ((const struct my_coding *)self)->k;
}

/* M is k x c, row-major: M[r * c + j] is class r's entry in column j. */
static int my_coding_code(void *self, const int *y, size_t m, const double *G, uint64_t seed,
                          double *M, size_t *c, char err[BL_ERR_MAX])
{
    (void)y, (void)m, (void)G, (void)seed, (void)err; /* a fixed code needs none of them */
    const struct my_coding *C = self;
    for (size_t r = 0; r < C->k; r++)
        for (size_t j = 0; j < C->k; j++)
            M[r * C->k + j] = r == j ? 1.0 : C->rest;
    *c = C->k;
    return 0;
}

static const struct bl_coding_ops my_coding_ops = {
    .size = sizeof(struct bl_coding_ops),
    .create = my_coding_create,
    .destroy = my_coding_destroy,
    .max_columns = my_coding_max_columns,
    .code = my_coding_code,
    /* .wants and .recolor: optional, for codes learned with the weak
     * learner (docs/sdk.md, "Learned codes and hinge targets") */
};

static const struct bl_plugin my_coding_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_CODING,
    .name = "my-coding", /* what experiments write: coding = my-coding */
    .doc = "one-vs-all code: column j is +1 for class j, -1 (or -1/(k-1)) for the others",
    .params = my_coding_params,
    .nparams = P_COUNT,
    .ops = &my_coding_ops,
};

static const struct bl_plugin *const my_coding_plugins[] = {&my_coding_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return my_coding_plugins;
}

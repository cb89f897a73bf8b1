/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Helpers shared by the structured-task plugins of plugins/task/ (task.h):
 * the view "x" over the data rows, labels read and written as
 * byte blobs, class-index checks, the k-1 wrong classes of an example, and
 * the class-name table the classification tasks format labels with.  All
 * static inline: each task stays one self-contained module.
 */
#ifndef BL_TASK_COMMON_H
#define BL_TASK_COMMON_H

#include <boostlab/boostlab.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Labels are blobs the engine stores back to back, so they are read and
 * written with memcpy (no alignment assumed). */
static inline int32_t tk_get_i32(const void *y)
{
    int32_t v;
    memcpy(&v, y, sizeof v);
    return v;
}

static inline void tk_put_i32(void *y, int32_t v)
{
    memcpy(y, &v, sizeof v);
}

/* View 0 of every task here: the data rows themselves (no copy; the data
 * outlives the task instance). */
static inline void tk_x_view(struct bl_task_view *v, const struct bl_train *data, size_t blocks)
{
    v->name = "x";
    v->points = data->X;
    v->blocks = blocks;
}

/* The `positive` parameter of the one-vs-rest tasks. */
static inline int tk_check_positive(const char *task, int64_t positive, const struct bl_train *data,
                                    char err[BL_ERR_MAX])
{
    if (data->k < 2) {
        snprintf(err, BL_ERR_MAX, "task %s: needs at least 2 classes (the data has %zu)", task,
                 data->k);
        return -1;
    }
    if (positive < 0 || (uint64_t)positive >= data->k) {
        snprintf(err, BL_ERR_MAX, "task %s: positive = %lld but the data has %zu classes", task,
                 (long long)positive, data->k);
        return -1;
    }
    return 0;
}

/* Class labels must lie in 0..k-1 (the engine guarantees it; a hand-built
 * data set may not). */
static inline int tk_check_labels(const char *task, const struct bl_train *data,
                                  char err[BL_ERR_MAX])
{
    for (size_t i = 0; i < data->m; i++)
        if (data->y[i] < 0 || (size_t)data->y[i] >= data->k) {
            snprintf(err, BL_ERR_MAX, "task %s: row %zu has label %d, outside 0..%zu", task, i,
                     data->y[i], data->k - 1);
            return -1;
        }
    return 0;
}

/* The t-th of the k-1 classes other than yi, in increasing order. */
static inline int32_t tk_other_class(size_t t, int32_t yi)
{
    return (int32_t)t < yi ? (int32_t)t : (int32_t)t + 1;
}

/* A uniformly drawn class other than yi (the modulo bias of a 64-bit draw
 * over k-1 < 2^31 classes is below 2^-32). */
static inline int32_t tk_random_other(size_t k, int32_t yi, uint64_t (*rnd)(void *), void *rng)
{
    return tk_other_class((size_t)(rnd(rng) % (k - 1)), yi);
}

/* A copy of the k class names (the instance may outlive the caller's
 * table); NULL names give NULL (labels are then formatted as numbers). */
static inline char **tk_copy_names(const char *const *names, size_t k)
{
    if (!names)
        return NULL;
    char **c = calloc(k, sizeof *c);
    if (!c)
        return NULL;
    for (size_t j = 0; j < k; j++)
        if (names[j] && !(c[j] = strdup(names[j]))) {
            while (j > 0)
                free(c[--j]);
            free(c);
            return NULL;
        }
    return c;
}

static inline void tk_free_names(char **names, size_t k)
{
    if (!names)
        return;
    for (size_t j = 0; j < k; j++)
        free(names[j]);
    free(names);
}

/* Class c as text: its name when known, else its index. */
static inline int tk_format_class(char *const *names, size_t k, int32_t c, char *buf, size_t cap)
{
    if (names && c >= 0 && (size_t)c < k && names[c])
        return snprintf(buf, cap, "%s", names[c]);
    return snprintf(buf, cap, "%d", (int)c);
}

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * boostlab plugin SDK (1.1): the output-coding role.  Each iteration a
 * coding gives a code matrix M (k classes x c columns, entries in
 * {-1, 0, +1} or any reals), and the engine turns the k-class problem into
 * c binary ones: the weak learner sees G M (the dual weights seen through
 * the columns) and its outputs are mapped back to classes through M,
 *     class output h_r(x) = sum_j M[r][j] h_j(x).
 * A fixed code (one-vs-all, ECOC) returns the same M every time; random
 * codes draw a new one from the seed; adaptive codes (max-cut) may use G.
 * (With a code-space loss, SDK 1.2 loss.h eval_coded, the engine instead
 * keeps code scores for a fixed M and the weak learner sees -dL/df; see
 * loss.h.)
 */
#ifndef BOOSTLAB_CODING_H
#define BOOSTLAB_CODING_H

#include <stddef.h>
#include <stdint.h>

#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bl_coding_ops {
    /* New instance for a k-class problem; NULL with err set when the
     * coding cannot serve k classes (e.g. exhaustive codes for large k). */
    void *(*create)(const struct bl_host *host, const union bl_value *params, size_t k,
                    char err[BL_ERR_MAX]);
    void (*destroy)(void *self);
    /* Most columns code() will ever return (sizes the engine's buffers). */
    size_t (*max_columns)(const void *self);
    /* This iteration's code: write M (k x c, row-major: M[r*c + j]) and c.
     * y (m labels) and G (m x k dual weights) are there for adaptive codes.
     * Returns 0, or -1 with err set. */
    int (*code)(void *self, const int *y, size_t m, const double *G, uint64_t seed,
                double *M, size_t *c, char err[BL_ERR_MAX]);
};

#ifdef __cplusplus
}
#endif
#endif

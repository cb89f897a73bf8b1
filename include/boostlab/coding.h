/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * boostlab plugin SDK: the output-coding role.  Each iteration a coding
 * gives a code matrix M (k classes x c columns, entries in {-1, 0, +1} or
 * any reals), and the engine turns the k-class problem into c binary ones:
 * the weak learner sees G M (the dual weights seen through the columns)
 * and its outputs are mapped back to classes through M,
 *     class output h_r(x) = sum_j M[r][j] h_j(x).
 * A fixed code (one-vs-all, ECOC) returns the same M every time; random
 * codes draw a new one from the seed; adaptive codes (max-cut) may use G.
 * (With a code-space loss, loss.h eval_coded, the engine instead keeps
 * code scores for a fixed M and the weak learner sees -dL/df; see loss.h.)
 * Learned codes alternate with the weak learner (HingeBoost.OC's max-cut +
 * ICM, AdaBoost.ERP's re-partition): such a coding may ask for the loss's
 * pair weights in place of G (BL_CODING_PAIRS) and re-colour its column
 * once the weak learner has answered (recolor).
 */
#ifndef BOOSTLAB_CODING_H
#define BOOSTLAB_CODING_H

#include <stddef.h>
#include <stdint.h>

#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*bl_coding_recolor_fn)(void *self, const int *y, size_t m, const double *P,
                                    const double *g, double (*trial)(void *ctx, const double *M),
                                    void *ctx, double *M, size_t c, char err[BL_ERR_MAX]);

struct bl_coding_ops {
    /* sizeof(struct bl_coding_ops) (plugin.h, "ops tables"). */
    size_t size;

    /* ---- lifetime -------------------------------------------------------- */
    /* New instance for a k-class problem; NULL with err set when the
     * coding cannot serve k classes (e.g. exhaustive codes for large k). */
    void *(*create)(const struct bl_host *host, const union bl_value *params, size_t k,
                    char err[BL_ERR_MAX]);
    void (*destroy)(void *self);

    /* ---- the code ---------------------------------------------------------- */
    /* Most columns code() will ever return (sizes the engine's buffers). */
    size_t (*max_columns)(const void *self);
    /* BL_CODING_* flags (0: none): what code() and recolor() are given. */
    unsigned wants;
    /* This iteration's code: write M (k x c, row-major: M[r*c + j]) and c.
     * y (m labels) and G (m x k dual weights, or pair weights with
     * BL_CODING_PAIRS) are there for adaptive codes.  Returns 0, or -1 with
     * err set. */
    int (*code)(void *self, const int *y, size_t m, const double *G, uint64_t seed,
                double *M, size_t *c, char err[BL_ERR_MAX]);

    /* ---- learned codes ------------------------------------------------------
     * Optional.  Called after each weak fit with this iteration's code M
     * (k x c, in/out), the pair weights or dual weights code() got (P,
     * m x k) and the hypothesis' training outputs g (m x c).  trial(ctx, M')
     * is the training loss after adding the term h_r(x) = sum_j M'[r][j]
     * g_j(x) at the step the engine takes without a solver (shrinkage), so
     * a coding can descend on the true loss (ICM).  Returns
     *   BL_RECOLOR_DONE  (M left as it was: keep the fit),
     *   BL_RECOLOR_KEEP  (M changed; keep the fit, e.g. ERP with lrs = 2),
     *   BL_RECOLOR_REFIT (M changed; fit again on it, then recolor again),
     * or -1 with err set.  The coding counts its own refits; the engine
     * stops asking after 64 in one iteration. */
    bl_coding_recolor_fn recolor;
};

enum bl_coding_wants {
    BL_CODING_PAIRS = 1,      /* code() and recolor() get the loss's pair
                                 weights (loss.h pair_weights; max(0, dL/dF)
                                 off the true class when it has none) as
                                 their G/P, m x k                           */
    BL_CODING_IGNORE_ZERO = 2 /* in column j, examples whose class has
                                 M[y_i][j] = 0 get weight 0 (the ternary
                                 codes' "ignore"; by default they keep their
                                 part of G M, the loss's gradient along the
                                 term)                                      */
};

enum bl_recolor { BL_RECOLOR_DONE = 0, BL_RECOLOR_KEEP = 1, BL_RECOLOR_REFIT = 2 };

#ifdef __cplusplus
}
#endif
#endif

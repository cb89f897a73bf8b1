/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * boostlab plugin SDK: the random-projection role of RandomBoost
 * (Paisitkriangkrai et al., TNNLS 2014).  A projection gives one matrix per
 * class, P^(c) with n rows and as many columns as asked for, and the engine
 * applies them:
 *
 *   project = inputs   (RBoost-rank): class c sees x through P^(c) (n x d);
 *                      the weak learner runs on the m k projected points
 *                      z_ic = P^(c) x_i and one coefficient per term is
 *                      shared by all classes,  F_c(x) = sum_t w_t h_t(P^(c) x).
 *   project = outputs  (RBoost-proj): column t of P^(c) is used from
 *                      iteration t on; F_c(x) = w^T P^(c) [h_1(x) .. h_t(x)]
 *                      with one w in R^n, w >= 0, for all classes.
 *
 * The matrices are never stored in models: they are regenerated from the
 * plugin's parameters and the run's seed, column by column, so column(c, j)
 * must depend only on (params, seed, c, j) -- not on the order or the number
 * of calls, nor on the machine.
 */
#ifndef BOOSTLAB_PROJECTION_H
#define BOOSTLAB_PROJECTION_H
#include <stddef.h>
#include <stdint.h>

#include "plugin.h"
#ifdef __cplusplus
extern "C" {
#endif

struct bl_projection_ops {
    /* sizeof(struct bl_projection_ops) (plugin.h, "ops tables"). */
    size_t size;

    /* New instance for a k-class problem, seeded; NULL with err set on
     * failure. */
    void *(*create)(const struct bl_host *host, const union bl_value *params, size_t k,
                    uint64_t seed, char err[BL_ERR_MAX]);
    void (*destroy)(void *self);
    /* n: the rows of every P^(c), the projected dimension. */
    size_t (*dim)(const void *self);
    /* Column j of class c's matrix, P^(c)[0..n-1][j], into col (n values).
     * Deterministic in (params, seed, c, j); may be called from several
     * threads at once. */
    void (*column)(const void *self, size_t c, size_t j, double *col);
};

#ifdef __cplusplus
}
#endif
#endif

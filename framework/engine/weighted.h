/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Example weights inside the engine: a loss ops table over an inner loss
 * and m weights, L_w(F) = sum_i w_i l_i(F_i) for a loss that sums over
 * examples, that over sum_i w_i for one that averages: integer weights
 * give the loss of the rows repeated w_i times, unit weights the
 * unweighted value.  Gradient, Hessian, code-space loss
 * and pair weights are scaled per row; the weak learner sees the weighted
 * dual weights without knowing.  Not a plugin: run_open (engine.c) uses it
 * only when bl_boost_cfg.weights is set.
 */
#ifndef BL_ENGINE_WEIGHTED_H
#define BL_ENGINE_WEIGHTED_H

#include <boostlab/loss.h>

#include "../util/error.h"

/* Wrap (inner, self) with the m weights w (borrowed; must outlive the
 * wrapper).  On success *ops and the returned object replace the inner
 * pair, and destroying it destroys the inner loss too.  NULL with err set
 * (the inner loss is then left to the caller) when the loss is not a sum
 * or mean over examples at F = 0. */
void *bl_weighted_open(const struct bl_loss_ops *inner, void *self, const double *w,
                       const int *y, size_t m, size_t k, const struct bl_loss_ops **ops,
                       bl_error *err);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Exact binary graph cut for the CRF task: minimise
 *     E(y) = sum_p D_p(y_p) + sum_e theta_e [y_p(e) != y_q(e)],  theta_e >= 0,
 * by an s-t min cut (Boykov-Kolmogorov max-flow, libmaxflow), the
 * construction of spec §4.6: per-node minimum subtracted, s -> p of
 * capacity D_p(1), p -> t of capacity D_p(0), p <-> q of capacity theta;
 * source side = label 0.  A thin C wrapper over the C++ library.
 */
#ifndef BL_CRF_GRAPHCUT_H
#define BL_CRF_GRAPHCUT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* d: n x 2 unary costs (d[2p + l]); edges ep/eq with theta (negative
 * values are refused: the energy would not be submodular).  Writes the
 * labels (0/1) to y; returns 0, -1 on a negative theta or out of memory. */
int bl_graphcut(size_t n, const double *d, size_t ne, const uint32_t *ep, const uint32_t *eq,
                const double *theta, uint8_t *y);

#ifdef __cplusplus
}
#endif
#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the tied-space solvers (BL_SPACE_TIED: w = alpha * 1, lbfgsb-line and
 * exp-step) share before they search alpha: room for n coefficients and
 * their gradient, alpha's bounds (the intersection of the variables'), and
 * the start point (the mean of the given one, 0 from the engine).
 * Header-only: each plugin is its own shared object.
 */
#ifndef BL_PLUGINS_TIED_H
#define BL_PLUGINS_TIED_H

#include <boostlab/solver.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Grow *w and *g (capacity *cap) to n doubles; -1 with err set. */
static inline int tied_room(double **w, double **g, size_t *cap, size_t n, char err[BL_ERR_MAX])
{
    if (n <= *cap)
        return 0;
    double *nw = malloc(n * sizeof *nw), *ng = malloc(n * sizeof *ng);
    if (!nw || !ng) {
        free(nw), free(ng);
        snprintf(err, BL_ERR_MAX, "cannot allocate work space for %zu classes", n);
        return -1;
    }
    free(*w), free(*g);
    *w = nw, *g = ng, *cap = n;
    return 0;
}

/* alpha's bounds [*lo, *up] and its start (finite) from obj and w (n >= 1);
 * -1 with err set on NaN or disjoint bounds. */
static inline int tied_bounds(const struct bl_objective *obj, const double *w, double *lo,
                              double *up, double *start, char err[BL_ERR_MAX])
{
    size_t n = obj->n;
    double s = 0;
    *lo = -HUGE_VAL, *up = HUGE_VAL;
    for (size_t r = 0; r < n; r++) {
        double l = obj->lower ? obj->lower[r] : -HUGE_VAL;
        double u = obj->upper ? obj->upper[r] : HUGE_VAL;
        if (isnan(l) || isnan(u)) {
            snprintf(err, BL_ERR_MAX, "invalid bounds for class %zu: [%g, %g]", r, l, u);
            return -1;
        }
        *lo = fmax(*lo, l);
        *up = fmin(*up, u);
        s += w[r];
    }
    if (*lo > *up) {
        snprintf(err, BL_ERR_MAX, "the classes' bounds leave no common coefficient: [%g, %g]",
                 *lo, *up);
        return -1;
    }
    s /= (double)n;
    *start = isfinite(s) ? s : 0.0;
    return 0;
}

#endif

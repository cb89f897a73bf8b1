/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Dual coordinate descent for the L2-regularised L1-loss (hinge) linear
 * SVM with per-example boxes and target margins, header-only (Hsieh,
 * Chang, Lin, Keerthi & Sundararajan, ICML 2008, Algorithm 1 with the
 * shrinking of §3.2, as liblinear's solve_l2r_l1l2_svc does it):
 *
 *     min_w  1/2 ||w||^2 + sum_i cost_i max(0, margin_i - y_i w' xh_i),
 *
 * xh_i = (x_i, B): the bias is B w[d], regularised like a feature (liblinear
 * with bias B: the larger B, the less the bias is held back).  Each coordinate step costs O(d), against O(m d) for an SMO
 * step on a linear kernel, which is why the linear learners use it.  The
 * visiting order is shuffled every epoch from `seed` (deterministic).  It
 * stops when an epoch's projected gradients span at most eps with every
 * example active again, or after `epochs` epochs.  Shared by the weak
 * learners linsvm (margins 1) and svm (HingeBoost.OC's target margins).
 * The rows are x (dense) unless the problem brings its own dot product and
 * update (linsvm on a sparse set, where x_i is implicit).
 */
#ifndef BL_PLUGINS_COMMON_DCD_H
#define BL_PLUGINS_COMMON_DCD_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "splitmix.h"

/* Everything indexed by example: x row-major (m x d floats), y = +-1,
 * margin (NULL: all 1), cost (the box), qd = ||xh_i||^2 = ||x_i||^2 + B^2;
 * bias = B.  With dot set, x is not read: dot(ctx, w, i) = w' xh_i and
 * add(ctx, w, i, s) does w += s xh_i (a representation of w of the
 * caller's, in w's d + 1 doubles and ctx). */
struct dcd_problem {
    size_t d;
    double bias;
    const float *x;
    const signed char *y;
    const double *margin, *cost, *qd;
    double eps;
    long epochs;
    int shrinking;
    double (*dot)(void *ctx, const double *w, size_t i);
    void (*add)(void *ctx, double *w, size_t i, double step);
    void *ctx;
};

static inline double dcd_dot(const struct dcd_problem *P, const double *w, size_t i)
{
    if (P->dot)
        return P->dot(P->ctx, w, i);
    const float *xi = P->x + i * P->d;
    double dot = w[P->d] * P->bias;
    for (size_t f = 0; f < P->d; f++)
        dot += w[f] * (double)xi[f];
    return dot;
}

static inline void dcd_add(const struct dcd_problem *P, double *w, size_t i, double step)
{
    if (P->add) {
        P->add(P->ctx, w, i, step);
        return;
    }
    const float *xi = P->x + i * P->d;
    for (size_t f = 0; f < P->d; f++)
        w[f] += step * (double)xi[f];
    w[P->d] += step * P->bias;
}

/* Solve over the l examples idx[0..l) (idx is permuted); alpha (by example)
 * and w (d + 1) are written.  Returns the epochs run; *gap is the last
 * epoch's projected-gradient span. */
static inline long dcd_solve(const struct dcd_problem *P, size_t *idx, size_t l, double *alpha,
                             double *w, uint64_t seed, double *gap)
{
    size_t d = P->d;
    memset(w, 0, (d + 1) * sizeof *w);
    for (size_t s = 0; s < l; s++)
        alpha[idx[s]] = 0.0;
    double PGmax_old = HUGE_VAL, PGmin_old = -HUGE_VAL;
    size_t active = l;
    long it = 0;
    uint64_t rs = seed;
    *gap = HUGE_VAL;
    while (it < P->epochs) {
        double PGmax_new = -HUGE_VAL, PGmin_new = HUGE_VAL;
        for (size_t j = 0; j + 1 < active; j++) {
            size_t k = j + (size_t)(splitmix64(&rs) % (uint64_t)(active - j));
            size_t t = idx[j];
            idx[j] = idx[k], idx[k] = t;
        }
        for (size_t s = 0; s < active; s++) {
            size_t i = idx[s];
            double yi = (double)P->y[i];
            double dot = dcd_dot(P, w, i);
            double G = yi * dot - (P->margin ? P->margin[i] : 1.0);
            double C = P->cost[i], a = alpha[i], PG = 0.0;
            if (a == 0.0) {
                if (P->shrinking && G > PGmax_old) {
                    active--;
                    idx[s] = idx[active], idx[active] = i;
                    s--;
                    continue;
                }
                if (G < 0.0)
                    PG = G;
            } else if (a == C) {
                if (P->shrinking && G < PGmin_old) {
                    active--;
                    idx[s] = idx[active], idx[active] = i;
                    s--;
                    continue;
                }
                if (G > 0.0)
                    PG = G;
            } else {
                PG = G;
            }
            if (PG > PGmax_new)
                PGmax_new = PG;
            if (PG < PGmin_new)
                PGmin_new = PG;
            if (fabs(PG) > 1e-12) {
                double an = a - G / P->qd[i];
                an = an < 0.0 ? 0.0 : an > C ? C : an;
                alpha[i] = an;
                dcd_add(P, w, i, (an - a) * yi);
            }
        }
        it++;
        if (active == 0) { /* everything shrunk: check them all again */
            active = l;
            PGmax_old = HUGE_VAL, PGmin_old = -HUGE_VAL;
            continue;
        }
        *gap = PGmax_new - PGmin_new;
        if (*gap <= P->eps) {
            if (active == l)
                break;
            active = l;
            PGmax_old = HUGE_VAL, PGmin_old = -HUGE_VAL;
            continue;
        }
        PGmax_old = PGmax_new > 0.0 ? PGmax_new : HUGE_VAL;
        PGmin_old = PGmin_new < 0.0 ? PGmin_new : -HUGE_VAL;
    }
    return it;
}

#endif

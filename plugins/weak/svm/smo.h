/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The SMO solver of the weak learner "svm" (spec hingeboost-oc.md §2.5.2):
 *
 *     min_beta  1/2 beta'Q beta + p'beta
 *     s.t.      y'beta = 0,  0 <= beta_t <= U_t,   Q_st = y_s y_t k(x_s, x_t),
 *
 * over l variables, each bound to an example ex[t] of the kernel's points.
 * The margin-rescaled SVM of HingeBoost.OC is p_t = -margin_t, U_t = C/N;
 * the weighted C-SVC is p_t = -1, U_t = C |G_t| / mean |G|.
 */
#ifndef BL_SVM_SMO_H
#define BL_SVM_SMO_H

#include <stddef.h>

#include "kernel.h"

struct smo_problem {
    size_t l;
    const size_t *ex;        /* l: the kernel point of each variable       */
    const signed char *y;    /* l: +-1                                     */
    const double *p, *U;     /* l: linear term, upper bounds (>= 0)        */
    const struct kern *K;
    /* Kernel rows from this cache; NULL: each value computed when needed,
     * over the active variables only (the linear fast path, where a value
     * costs d multiply-adds). */
    struct kcache *cache;
    double eps;              /* stop when max violation gap < eps          */
    long long max_iter;
    int shrinking, nthreads;
    /* Exact double rows (the linear kernel on small sets); used when cache
     * is NULL and this is not. */
    struct krows *rows;
};

struct smo_info {
    long long iter;
    int converged;           /* 0: stopped by max_iter                    */
    double gap;              /* the last m(beta) - M(beta)                */
    double rho;              /* s(x) = sum_t y_t beta_t k(x_t, x) - rho   */
    double obj;              /* 1/2 beta'Q beta + p'beta at the answer    */
};

/* Solve; beta (l) gets the answer, grad (l, may be NULL) the gradient
 * Q beta + p at it.  Returns 0, or -1 when out of memory. */
int smo_solve(const struct smo_problem *P, double *beta, double *grad, struct smo_info *info);

#endif

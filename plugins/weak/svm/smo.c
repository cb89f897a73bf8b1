/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * SMO for the weak learner "svm" (smo.h): LIBSVM's algorithm (Chang & Lin,
 * "LIBSVM: a library for support vector machines", §4), written anew:
 *   - working set: i = argmax over I_up of -y_t G_t, then j by the
 *     second-order rule of Fan, Chen & Lin (JMLR 2005), min -b_t^2 / a_t
 *     with a_t = k_ii + k_tt - 2 k_it (tau = 1e-12 when a_t <= 0, which the
 *     perceptron kernel's zero diagonal can give);
 *   - the pair moves along (y_i, -y_j) (keeps y'beta = 0) by b_j / a_j,
 *     clipped to both boxes; a clipped variable is set exactly to its bound;
 *   - stop when m(beta) - M(beta) < eps;
 *   - shrinking as LIBSVM does it: every min(l, 1000) iterations the bound
 *     variables that cannot enter a working set leave the active set, the
 *     first time the gap falls below 10 eps every variable comes back (its
 *     gradient rebuilt from the support vectors), and at the end too;
 *   - the bias by LIBSVM's calculate_rho (mean of y_t G_t over the free
 *     variables, else the midpoint of the bounds those at a bound give).
 * Ties go to the first variable in the active list, which starts in index
 * order and stays in relative order, so the answer is a function of the
 * problem alone (kernel rows are split over threads by value, which does
 * not change any value).
 *
 * Why not a stock library: libsvm's C-SVC fixes p_t = -1 (no per-example
 * target margin; the margin-rescaled problem needs p_t = -margin_t) and has
 * only per-class weights, not a per-example C; its generic Solver class is
 * not part of the public API (svm.h), and Debian's libsvm prints through a
 * global function and keeps global state.  liblinear (Debian 2.3) has
 * neither the bias as an unregularised variable with the equality
 * constraint nor per-instance weights (see plugins/weak/linsvm.c).
 */
#include "smo.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TAU 1e-12

struct st {
    const struct smo_problem *P;
    double *beta, *G, *QD, *ki, *kj;
    size_t *act, *tmp, na;
};

/* out[s] = k(x_i, x_act[s]) for the na active variables. */
static int get_row(struct st *S, size_t i, double *out)
{
    const struct smo_problem *P = S->P;
    const size_t *act = S->act, *ex = P->ex;
    long na = (long)S->na;
    if (P->cache) {
        const float *r = kcache_row(P->cache, ex[i], P->nthreads);
        if (!r)
            return -1;
        for (long s = 0; s < na; s++)
            out[s] = (double)r[ex[act[s]]];
        return 0;
    }
    if (P->rows) {
        const double *r = krows_row(P->rows, ex[i]);
        for (long s = 0; s < na; s++)
            out[s] = r[ex[act[s]]];
        return 0;
    }
    /* one row per SMO iteration: a parallel region per row only pays for
     * itself on long rows (and hurts a lot on a busy machine); entering
     * one with if(0) still costs libgomp's team set-up, so the serial
     * case does not go through it */
    if (P->nthreads > 1 && S->na * (P->K->d + 1) >= ((size_t)1 << 21)) {
#pragma omp parallel for schedule(static) num_threads(P->nthreads)
        for (long s = 0; s < na; s++)
            out[s] = kern_ij(P->K, ex[i], ex[act[s]]);
        return 0;
    }
    for (long s = 0; s < na; s++)
        out[s] = kern_ij(P->K, ex[i], ex[act[s]]);
    return 0;
}

static int is_up(const struct st *S, size_t t)
{
    return S->P->y[t] > 0 ? S->beta[t] < S->P->U[t] : S->beta[t] > 0.0;
}

static int is_low(const struct st *S, size_t t)
{
    return S->P->y[t] > 0 ? S->beta[t] > 0.0 : S->beta[t] < S->P->U[t];
}

/* The gradient of the inactive variables act[na..l-1], rebuilt from the
 * support vectors; then every variable is active again, in index order. */
static int reconstruct(struct st *S)
{
    const struct smo_problem *P = S->P;
    size_t l = P->l, na = S->na, d = P->K->d;
    if (na < l) {
        const size_t *ex = P->ex;
        for (size_t s = na; s < l; s++)
            S->G[S->act[s]] = 0.0;
        if (P->K->type == KERN_LINEAR && P->K->shift == 0.0) {
            /* w = sum y beta x, then one dot product per variable */
            double *w = S->kj; /* scratch here, at least d + 1 long */
            memset(w, 0, d * sizeof *w);
            for (size_t t = 0; t < l; t++)
                if (S->beta[t] > 0.0) {
                    const float *x = P->K->x + ex[t] * d;
                    double c = (double)P->y[t] * S->beta[t];
                    for (size_t f = 0; f < d; f++)
                        w[f] += c * (double)x[f];
                }
            for (size_t s = na; s < l; s++) {
                size_t t = S->act[s];
                const float *x = P->K->x + ex[t] * d;
                double z = 0.0;
                for (size_t f = 0; f < d; f++)
                    z += w[f] * (double)x[f];
                S->G[t] = z;
            }
        } else {
            for (size_t u = 0; u < l; u++) {
                if (!(S->beta[u] > 0.0))
                    continue;
                double c = (double)P->y[u] * S->beta[u];
                const float *r = P->cache ? kcache_row(P->cache, ex[u], P->nthreads) : NULL;
                if (P->cache && !r)
                    return -1;
                for (size_t s = na; s < l; s++) {
                    size_t t = S->act[s];
                    S->G[t] += c * (r ? (double)r[ex[t]] : kern_ij(P->K, ex[t], ex[u]));
                }
            }
        }
        for (size_t s = na; s < l; s++) {
            size_t t = S->act[s];
            S->G[t] = P->p[t] + (double)P->y[t] * S->G[t];
        }
    }
    for (size_t t = 0; t < l; t++)
        S->act[t] = t;
    S->na = l;
    return 0;
}

static int be_shrunk(const struct st *S, size_t t, double gmax1, double gmax2)
{
    const struct smo_problem *P = S->P;
    double G = S->G[t];
    if (S->beta[t] >= P->U[t])
        return P->y[t] > 0 ? -G > gmax1 : -G > gmax2;
    if (S->beta[t] <= 0.0)
        return P->y[t] > 0 ? G > gmax2 : G > gmax1;
    return 0;
}

static int do_shrinking(struct st *S, int *unshrunk)
{
    double gmax1 = -HUGE_VAL, gmax2 = -HUGE_VAL;
    for (size_t s = 0; s < S->na; s++) {
        size_t t = S->act[s];
        double yG = (double)S->P->y[t] * S->G[t];
        if (is_up(S, t) && -yG > gmax1)
            gmax1 = -yG;
        if (is_low(S, t) && yG > gmax2)
            gmax2 = yG;
    }
    if (!*unshrunk && gmax1 + gmax2 <= S->P->eps * 10.0) {
        *unshrunk = 1;
        if (reconstruct(S) < 0)
            return -1;
    }
    /* stable partition: the kept ones first, in their order */
    size_t k = 0, o = 0, na = S->na, l = S->P->l;
    for (size_t s = 0; s < na; s++) {
        size_t t = S->act[s];
        if (be_shrunk(S, t, gmax1, gmax2))
            S->tmp[o++] = t;
        else
            S->act[k++] = t;
    }
    memcpy(S->tmp + o, S->act + na, (l - na) * sizeof *S->tmp);
    memcpy(S->act + k, S->tmp, (o + l - na) * sizeof *S->act);
    S->na = k;
    return 0;
}

static double calc_rho(const struct st *S)
{
    const struct smo_problem *P = S->P;
    double ub = HUGE_VAL, lb = -HUGE_VAL, sum = 0.0;
    size_t nfree = 0;
    for (size_t t = 0; t < P->l; t++) {
        double yG = (double)P->y[t] * S->G[t];
        int upper = S->beta[t] >= P->U[t], lower = S->beta[t] <= 0.0;
        if (upper && !lower) {
            if (P->y[t] < 0)
                ub = fmin(ub, yG);
            else
                lb = fmax(lb, yG);
        } else if (lower) {
            if (P->y[t] > 0)
                ub = fmin(ub, yG);
            else
                lb = fmax(lb, yG);
        } else {
            nfree++, sum += yG;
        }
    }
    if (nfree)
        return sum / (double)nfree;
    /* one class only (or none): the finite side is the tightest bias */
    if (!isfinite(ub) && !isfinite(lb))
        return 0.0;
    if (!isfinite(ub))
        return lb;
    if (!isfinite(lb))
        return ub;
    return (ub + lb) / 2.0;
}

int smo_solve(const struct smo_problem *P, double *beta, double *grad, struct smo_info *info)
{
    size_t l = P->l, n = l ? l : 1, d = P->K->d;
    struct st S = {P, beta, NULL, NULL, NULL, NULL, NULL, NULL, l};
    S.G = grad ? grad : malloc(n * sizeof *S.G);
    S.QD = malloc(n * sizeof *S.QD);
    S.ki = malloc(n * sizeof *S.ki);
    S.kj = malloc((n > d ? n : d + 1) * sizeof *S.kj);
    S.act = malloc(n * sizeof *S.act);
    S.tmp = malloc(n * sizeof *S.tmp);
    int rc = -1;
    memset(info, 0, sizeof *info);
    if (!S.G || !S.QD || !S.ki || !S.kj || !S.act || !S.tmp)
        goto out;
    for (size_t t = 0; t < l; t++) {
        beta[t] = 0.0;
        S.G[t] = P->p[t];
        S.QD[t] = kern_ij(P->K, P->ex[t], P->ex[t]);
        S.act[t] = t;
    }
    int unshrunk = 0;
    size_t every = l < 1000 ? (l ? l : 1) : 1000, counter = every;
    long long iter = 0;
    info->gap = HUGE_VAL;
    while (iter < P->max_iter) {
        double gmax = -HUGE_VAL;
        size_t i = SIZE_MAX;
        for (size_t s = 0; s < S.na; s++) {
            size_t t = S.act[s];
            if (is_up(&S, t) && -(double)P->y[t] * S.G[t] > gmax)
                gmax = -(double)P->y[t] * S.G[t], i = t;
        }
        double gmax2 = -HUGE_VAL, omin = HUGE_VAL, bj = 0.0, aj = 1.0;
        size_t j = SIZE_MAX;
        if (i != SIZE_MAX) {
            if (get_row(&S, i, S.ki) < 0)
                goto out;
            for (size_t s = 0; s < S.na; s++) {
                size_t t = S.act[s];
                if (!is_low(&S, t))
                    continue;
                double v = (double)P->y[t] * S.G[t], b = gmax + v;
                if (v > gmax2)
                    gmax2 = v;
                if (b > 0.0) {
                    double a = S.QD[i] + S.QD[t] - 2.0 * S.ki[s];
                    if (a <= 0.0)
                        a = TAU;
                    if (-b * b / a < omin)
                        omin = -b * b / a, j = t, bj = b, aj = a;
                }
            }
        }
        info->gap = gmax + gmax2;
        if (j == SIZE_MAX || gmax + gmax2 < P->eps) {
            if (S.na < l) { /* optimal on the active set: check them all */
                if (reconstruct(&S) < 0)
                    goto out;
                continue;
            }
            info->converged = 1;
            break;
        }
        iter++;
        /* the i row over the active set is in ki, aligned with act */
        if (get_row(&S, j, S.kj) < 0)
            goto out;
        double dlt = bj / aj;
        double ri = P->y[i] > 0 ? P->U[i] - beta[i] : beta[i];
        double rj = P->y[j] > 0 ? beta[j] : P->U[j] - beta[j];
        int ci = 0, cj = 0;
        if (dlt >= ri)
            dlt = ri, ci = 1;
        if (dlt >= rj)
            dlt = rj, cj = 1, ci = ri == dlt;
        beta[i] = ci ? (P->y[i] > 0 ? P->U[i] : 0.0) : beta[i] + (double)P->y[i] * dlt;
        beta[j] = cj ? (P->y[j] > 0 ? 0.0 : P->U[j]) : beta[j] - (double)P->y[j] * dlt;
        for (size_t s = 0; s < S.na; s++) {
            size_t t = S.act[s];
            S.G[t] += (double)P->y[t] * dlt * (S.ki[s] - S.kj[s]);
        }
        /* after a step, not before a selection: right after the active set
         * was restored the full set must be checked first */
        if (P->shrinking && --counter == 0) {
            counter = every;
            if (do_shrinking(&S, &unshrunk) < 0)
                goto out;
        }
    }
    if (reconstruct(&S) < 0)
        goto out;
    info->iter = iter;
    info->rho = calc_rho(&S);
    double obj = 0.0;
    for (size_t t = 0; t < l; t++)
        obj += beta[t] * (S.G[t] + P->p[t]);
    info->obj = obj / 2.0;
    rc = 0;
out:
    if (!grad)
        free(S.G);
    free(S.QD), free(S.ki), free(S.kj), free(S.act), free(S.tmp);
    return rc;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Projections for the engine (see project.h). */
#include "project.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/loader.h"
#include "../util/fsutil.h"

int bl_proj_open(bl_proj *p, const bl_paramset *ps, size_t k, uint64_t seed, bl_error *err)
{
    memset(p, 0, sizeof *p);
    char msg[BL_ERR_MAX] = "";
    p->ops = ps->plugin->ops;
    if (!(p->self = p->ops->create(&bl_host_api, ps->v, k, seed, msg)))
        return bl_errf(err, "projection %s: %s", ps->plugin->name, msg);
    p->n = p->ops->dim(p->self);
    if (p->n < 1) {
        p->ops->destroy(p->self);
        p->self = NULL;
        return bl_errf(err, "projection %s: dimension 0", ps->plugin->name);
    }
    bl_paramset_copy(&p->ps, ps);
    p->seed = seed;
    p->k = k;
    return 0;
}

void bl_proj_close(bl_proj *p)
{
    if (p->self)
        p->ops->destroy(p->self);
    free(p->mu);
    free(p->sd);
    bl_paramset_free(&p->ps);
    memset(p, 0, sizeof *p);
}

void bl_proj_set_scale(bl_proj *p, size_t d, const double *mu, const double *sd)
{
    free(p->mu);
    free(p->sd);
    p->d = d;
    p->mu = bl_xmalloc((d ? d : 1) * sizeof *p->mu);
    p->sd = bl_xmalloc((d ? d : 1) * sizeof *p->sd);
    memcpy(p->mu, mu, d * sizeof *mu);
    memcpy(p->sd, sd, d * sizeof *sd);
}

void bl_proj_standardize(bl_proj *p, const struct bl_matrix *X, int minmax)
{
    size_t m = X->m, d = X->d;
    double *mu = bl_xcalloc(d ? d : 1, sizeof *mu), *sd = bl_xcalloc(d ? d : 1, sizeof *sd);
    for (size_t f = 0; f < d; f++) {
        const float *x = X->x + f * m;
        double s = 0, ss = 0, lo = HUGE_VAL, hi = -HUGE_VAL;
        size_t n = 0;
        for (size_t i = 0; i < m; i++)
            if (x[i] == x[i]) {
                s += x[i];
                n++;
                lo = x[i] < lo ? x[i] : lo;
                hi = x[i] > hi ? x[i] : hi;
            }
        if (minmax) {
            mu[f] = n ? lo / 2 + hi / 2 : 0;
            sd[f] = n && hi > lo ? hi / 2 - lo / 2 : 1.0;
            continue;
        }
        mu[f] = n ? s / (double)n : 0;
        for (size_t i = 0; i < m; i++)
            if (x[i] == x[i])
                ss += (x[i] - mu[f]) * (x[i] - mu[f]);
        sd[f] = n > 1 && ss > 0 ? sqrt(ss / (double)(n - 1)) : 1.0;
    }
    bl_proj_set_scale(p, d, mu, sd);
    free(mu);
    free(sd);
}

void bl_proj_columns(const bl_proj *p, size_t j, double *M)
{
    for (size_t c = 0; c < p->k; c++)
        p->ops->column(p->self, c, j, M + c * p->n);
}

float *bl_proj_inputs(const bl_proj *p, const struct bl_matrix *X)
{
    size_t m = X->m, d = X->d, k = p->k, n = p->n, mk = m * k;
    /* P^(c) column by column (feature f is column f), then every point */
    double *P = bl_xmalloc(k * d * n * sizeof *P); /* [f][c][v] */
    for (size_t f = 0; f < d; f++)
        bl_proj_columns(p, f, P + f * k * n);
    float *Z = bl_xmalloc(mk * n * sizeof *Z);
    double *acc = NULL;
#ifdef _OPENMP
#pragma omp parallel private(acc) if (mk * n * d > 1000000)
#endif
    {
        acc = bl_xmalloc(n * sizeof *acc);
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (size_t q = 0; q < mk; q++) { /* each point on its own: thread-count free */
            size_t i = q / k, c = q % k;
            memset(acc, 0, n * sizeof *acc);
            for (size_t f = 0; f < d; f++) {
                double x = X->x[f * m + i];
                if (x != x)
                    continue; /* missing counts as 0: the mean once standardised */
                if (p->mu && f < p->d)
                    x = (x - p->mu[f]) / p->sd[f];
                const double *col = P + (f * k + c) * n;
                for (size_t v = 0; v < n; v++)
                    acc[v] += col[v] * x;
            }
            for (size_t v = 0; v < n; v++)
                Z[v * mk + q] = (float)acc[v];
        }
        free(acc);
    }
    free(P);
    return Z;
}

/* ---- coefficient maps -------------------------------------------------- */

static void map_init(bl_coefmap *m, bl_coefobj *o, size_t nw, size_t t, size_t k)
{
    memset(m, 0, sizeof *m);
    m->o = o;
    m->nw = nw;
    m->t = t;
    m->k = k;
    m->W = bl_xmalloc(t * k * sizeof *m->W);
    m->gW = bl_xmalloc(t * k * sizeof *m->gW);
}

void bl_coefmap_shared(bl_coefmap *m, bl_coefobj *o, size_t t, size_t k)
{
    map_init(m, o, t, t, k);
}

void bl_coefmap_outputs(bl_coefmap *m, bl_coefobj *o, size_t t, size_t k, size_t n,
                        const double *const *P)
{
    map_init(m, o, n, t, k);
    m->n = n;
    m->P = P;
}

/* The solver evaluates these ~100 times per RBoost-proj iteration over
 * t k x n numbers, so they are written for speed, but every sum keeps the
 * order of the plain loops (W[q] over v = 0..n-1 from 0, gw[v] over
 * q = j k + r upwards): the same additions, bit-identical results.  Speed
 * comes from independent chains (expand: 2 BLK rows at once; one running
 * sum alone waits on each add's latency) and one pass over gw per BLK rows
 * (fold), whose loop over v has no reduction and vectorises as is. */
#define BLK 4

/* Row q of the stacked matrix: class r's columns of term q / k. */
static const double *coef_row(const bl_coefmap *m, size_t q)
{
    return m->P[q / m->k] + (q % m->k) * m->n;
}

void bl_coefmap_expand(const bl_coefmap *m, const double *w, double *W)
{
    size_t nq = m->t * m->k, n = m->n, q = 0;
    if (!m->P) {
        for (size_t j = 0; j < m->t; j++)
            for (size_t r = 0; r < m->k; r++)
                W[j * m->k + r] = w[j];
        return;
    }
    for (; q + 2 * BLK <= nq; q += 2 * BLK) {
        const double *c[2 * BLK];
        for (size_t b = 0; b < 2 * BLK; b++)
            c[b] = coef_row(m, q + b);
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
        for (size_t v = 0; v < n; v++) {
            double wv = w[v];
            s0 += c[0][v] * wv;
            s1 += c[1][v] * wv;
            s2 += c[2][v] * wv;
            s3 += c[3][v] * wv;
            s4 += c[4][v] * wv;
            s5 += c[5][v] * wv;
            s6 += c[6][v] * wv;
            s7 += c[7][v] * wv;
        }
        W[q] = s0;
        W[q + 1] = s1;
        W[q + 2] = s2;
        W[q + 3] = s3;
        W[q + 4] = s4;
        W[q + 5] = s5;
        W[q + 6] = s6;
        W[q + 7] = s7;
    }
    for (; q < nq; q++) {
        const double *col = coef_row(m, q);
        double s = 0;
        for (size_t v = 0; v < n; v++)
            s += col[v] * w[v];
        W[q] = s;
    }
}

void bl_coefmap_fold(const bl_coefmap *m, const double *gW, double *gw)
{
    size_t nq = m->t * m->k, n = m->n, q = 0;
    memset(gw, 0, m->nw * sizeof *gw);
    if (!m->P) {
        for (size_t j = 0; j < m->t; j++)
            for (size_t r = 0; r < m->k; r++)
                gw[j] += gW[j * m->k + r];
        return;
    }
    for (; q + BLK <= nq; q += BLK) {
        const double *c0 = coef_row(m, q), *c1 = coef_row(m, q + 1), *c2 = coef_row(m, q + 2),
                     *c3 = coef_row(m, q + 3);
        double g0 = gW[q], g1 = gW[q + 1], g2 = gW[q + 2], g3 = gW[q + 3];
#ifdef _OPENMP
#pragma omp simd
#endif
        for (size_t v = 0; v < n; v++) {
            double a = gw[v];
            a += c0[v] * g0;
            a += c1[v] * g1;
            a += c2[v] * g2;
            a += c3[v] * g3;
            gw[v] = a;
        }
    }
    for (; q < nq; q++) {
        const double *col = coef_row(m, q);
        double g = gW[q];
        for (size_t v = 0; v < n; v++)
            gw[v] += col[v] * g;
    }
}

double bl_coefmap_eval(void *ctx, const double *w, double *grad)
{
    bl_coefmap *m = ctx;
    bl_coefmap_expand(m, w, m->W);
    double f = bl_coefobj_eval(m->o, m->W, grad ? m->gW : NULL);
    if (grad)
        bl_coefmap_fold(m, m->gW, grad);
    return f;
}

void bl_coefmap_free(bl_coefmap *m)
{
    free(m->W);
    free(m->gW);
    memset(m, 0, sizeof *m);
}

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

void bl_proj_standardize(bl_proj *p, const struct bl_matrix *X)
{
    size_t m = X->m, d = X->d;
    double *mu = bl_xcalloc(d ? d : 1, sizeof *mu), *sd = bl_xcalloc(d ? d : 1, sizeof *sd);
    for (size_t f = 0; f < d; f++) {
        const float *x = X->x + f * m;
        double s = 0, ss = 0;
        size_t n = 0;
        for (size_t i = 0; i < m; i++)
            if (x[i] == x[i]) {
                s += x[i];
                n++;
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

void bl_coefmap_expand(const bl_coefmap *m, const double *w, double *W)
{
    size_t t = m->t, k = m->k, n = m->n;
    for (size_t j = 0; j < t; j++)
        for (size_t r = 0; r < k; r++) {
            if (!m->P) {
                W[j * k + r] = w[j];
                continue;
            }
            const double *col = m->P[j] + r * n;
            double s = 0;
            for (size_t v = 0; v < n; v++)
                s += col[v] * w[v];
            W[j * k + r] = s;
        }
}

void bl_coefmap_fold(const bl_coefmap *m, const double *gW, double *gw)
{
    size_t t = m->t, k = m->k, n = m->n;
    memset(gw, 0, m->nw * sizeof *gw);
    for (size_t j = 0; j < t; j++)
        for (size_t r = 0; r < k; r++) {
            double g = gW[j * k + r];
            if (!m->P) {
                gw[j] += g;
                continue;
            }
            const double *col = m->P[j] + r * n;
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

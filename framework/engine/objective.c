/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Coefficient-step objectives, in class space and in code space (see objective.h). */
#include "objective.h"

#include <string.h>

void bl_add_term(double *F, size_t m, size_t k, const double *s, size_t sdim, const double *w)
{
    /* elementwise: the same result on any number of threads */
    if (sdim == 1) {
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (m * k >= 65536)
#endif
        for (size_t i = 0; i < m; i++) {
            double si = s[i];
            double *Fi = F + i * k;
            for (size_t r = 0; r < k; r++)
                Fi[r] += si * w[r];
        }
    } else {
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (m * k >= 65536)
#endif
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < k; r++)
                F[i * k + r] += s[i * k + r] * w[r];
    }
}

static void init(bl_coefobj *o, const struct bl_loss_ops *ops, void *loss, const int *y,
                 size_t m, size_t k, double *scratch_Fw, double *scratch_grad)
{
    memset(o, 0, sizeof *o);
    o->ops = ops;
    o->loss = loss;
    o->y = y;
    o->m = m;
    o->k = k;
    o->Fw = scratch_Fw;
    o->grad = scratch_grad;
}

/* A row objective (init, then the scores and the new term's outputs). */
static void init_row(bl_coefobj *o, const struct bl_loss_ops *ops, void *loss, const int *y,
                     size_t m, size_t k, const double *F, const double *s, size_t sdim,
                     double *scratch_Fw, double *scratch_grad)
{
    init(o, ops, loss, y, m, k, scratch_Fw, scratch_grad);
    o->F = F;
    o->s = s;
    o->sdim = sdim;
}

void bl_coefobj_row(bl_coefobj *o, const struct bl_loss_ops *ops, void *loss, const int *y,
                    size_t m, size_t k, const double *F, const double *s, size_t sdim,
                    double *scratch_Fw, double *scratch_grad)
{
    init_row(o, ops, loss, y, m, k, F, s, sdim, scratch_Fw, scratch_grad);
    if (sdim == 1 && ops->row_prepare)
        o->fast = ops->row_prepare(loss, y, m, k, F, s);
}

void bl_coefobj_all(bl_coefobj *o, const struct bl_loss_ops *ops, void *loss, const int *y,
                    size_t m, size_t k, size_t t, const double *const *out,
                    const size_t *outdim, double *scratch_Fw, double *scratch_grad)
{
    init(o, ops, loss, y, m, k, scratch_Fw, scratch_grad);
    o->t = t;
    o->out = out;
    o->outdim = outdim;
}

void bl_coefobj_row_coded(bl_coefobj *o, const struct bl_loss_ops *ops, void *loss,
                          bl_loss_coded_fn coded, const double *Y, size_t m, size_t c,
                          const double *f, const double *s, size_t sdim, double *scratch_f,
                          double *scratch_grad)
{
    /* no row fast path: row_prepare works in class space */
    init_row(o, ops, loss, NULL, m, c, f, s, sdim, scratch_f, scratch_grad);
    o->coded = coded;
    o->Y = Y;
}

void bl_coefobj_all_coded(bl_coefobj *o, const struct bl_loss_ops *ops, void *loss,
                          bl_loss_coded_fn coded, const double *Y, size_t m, size_t c, size_t t,
                          const double *const *out, const size_t *outdim, double *scratch_f,
                          double *scratch_grad)
{
    bl_coefobj_all(o, ops, loss, NULL, m, c, t, out, outdim, scratch_f, scratch_grad);
    o->coded = coded;
    o->Y = Y;
}

/* The loss at scores S (class scores F, or code scores f in code space). */
static double loss_at(const bl_coefobj *o, const double *S, double *grad)
{
    if (o->coded)
        return o->coded(o->loss, o->Y, o->m, o->k, S, grad);
    return o->ops->eval(o->loss, o->y, o->m, o->k, S, grad);
}

/* g[r] = sum_i s_i * G[i,r]  (or s_ir * G[i,r] for vector outputs) */
static void project(const double *G, size_t m, size_t k, const double *s, size_t sdim,
                    double *g)
{
    memset(g, 0, k * sizeof *g);
    if (sdim == 1) {
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < k; r++)
                g[r] += s[i] * G[i * k + r];
        return;
    }
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++)
            g[r] += s[i * k + r] * G[i * k + r];
}

/* A totally corrective solve evaluates the t terms ~100 times per
 * iteration, so the two loops over them below take four scalar-output
 * terms per pass over the examples.  Each sum keeps the order of one
 * call per term (over j for F, over i for the gradient): the same
 * additions, bit-identical results. */
#define TBLK 4

/* How many terms from j on to take one at a time: 0 when the TBLK terms
 * from j all have scalar outputs (a block), else the scalar ones before
 * the block breaks, or 1 for a term with vector outputs. */
static size_t singles(const bl_coefobj *o, size_t j)
{
    size_t b = 0;
    while (b < TBLK && j + b < o->t && o->outdim[j + b] == 1)
        b++;
    return b == TBLK ? 0 : b ? b : 1;
}

/* Fw = sum_j out[j] (x) W[j], as t calls of bl_add_term would make it. */
static void scores_all(const bl_coefobj *o, const double *W)
{
    size_t m = o->m, k = o->k;
    double *F = o->Fw;
    memset(F, 0, m * k * sizeof *F);
    for (size_t j = 0; j < o->t;) {
        size_t n = singles(o, j); /* vector outputs, or the last few terms */
        for (size_t q = 0; q < n; q++)
            bl_add_term(F, m, k, o->out[j + q], o->outdim[j + q], W + (j + q) * k);
        if (n) {
            j += n;
            continue;
        }
        const double *s0 = o->out[j], *s1 = o->out[j + 1], *s2 = o->out[j + 2],
                     *s3 = o->out[j + 3];
        const double *w0 = W + j * k, *w1 = w0 + k, *w2 = w1 + k, *w3 = w2 + k;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (m * k >= 65536)
#endif
        for (size_t i = 0; i < m; i++) {
            double *Fi = F + i * k, a0 = s0[i], a1 = s1[i], a2 = s2[i], a3 = s3[i];
            for (size_t r = 0; r < k; r++) {
                double f = Fi[r];
                f += a0 * w0[r];
                f += a1 * w1[r];
                f += a2 * w2[r];
                f += a3 * w3[r];
                Fi[r] = f;
            }
        }
        j += TBLK;
    }
}

/* grad[j k + r] = sum_i out[j][i] G[i,r] for every term, as project. */
static void project_all(const bl_coefobj *o, const double *G, double *grad)
{
    size_t m = o->m, k = o->k;
    for (size_t j = 0; j < o->t;) {
        size_t n = singles(o, j);
        for (size_t q = 0; q < n; q++)
            project(G, m, k, o->out[j + q], o->outdim[j + q], grad + (j + q) * k);
        if (n) {
            j += n;
            continue;
        }
        const double *s0 = o->out[j], *s1 = o->out[j + 1], *s2 = o->out[j + 2],
                     *s3 = o->out[j + 3];
        double *g0 = grad + j * k, *g1 = g0 + k, *g2 = g1 + k, *g3 = g2 + k;
        size_t r = 0;
        /* two classes by four terms: eight running sums in registers */
        for (; r + 2 <= k; r += 2) {
            double e0 = 0, e1 = 0, e2 = 0, e3 = 0, f0 = 0, f1 = 0, f2 = 0, f3 = 0;
            for (size_t i = 0; i < m; i++) {
                double x = G[i * k + r], z = G[i * k + r + 1];
                double a0 = s0[i], a1 = s1[i], a2 = s2[i], a3 = s3[i];
                e0 += a0 * x;
                e1 += a1 * x;
                e2 += a2 * x;
                e3 += a3 * x;
                f0 += a0 * z;
                f1 += a1 * z;
                f2 += a2 * z;
                f3 += a3 * z;
            }
            g0[r] = e0, g1[r] = e1, g2[r] = e2, g3[r] = e3;
            g0[r + 1] = f0, g1[r + 1] = f1, g2[r + 1] = f2, g3[r + 1] = f3;
        }
        for (; r < k; r++) {
            double e0 = 0, e1 = 0, e2 = 0, e3 = 0;
            for (size_t i = 0; i < m; i++) {
                double x = G[i * k + r];
                e0 += s0[i] * x;
                e1 += s1[i] * x;
                e2 += s2[i] * x;
                e3 += s3[i] * x;
            }
            g0[r] = e0, g1[r] = e1, g2[r] = e2, g3[r] = e3;
        }
        j += TBLK;
    }
}

double bl_coefobj_eval(void *ctx, const double *w, double *grad)
{
    bl_coefobj *o = ctx;
    size_t m = o->m, k = o->k;
    o->evals++;
    if (o->fast)
        return o->ops->row_eval(o->fast, w, grad);
    if (o->t == 0) {
        memcpy(o->Fw, o->F, m * k * sizeof *o->Fw);
        bl_add_term(o->Fw, m, k, o->s, o->sdim, w);
        double L = loss_at(o, o->Fw, grad ? o->grad : NULL);
        if (grad)
            project(o->grad, m, k, o->s, o->sdim, grad);
        return L;
    }
    scores_all(o, w);
    double L = loss_at(o, o->Fw, grad ? o->grad : NULL);
    if (grad)
        project_all(o, o->grad, grad);
    return L;
}

int bl_coefobj_hessian(void *ctx, const double *w, double *H)
{
    bl_coefobj *o = ctx;
    if (!o->fast || !o->row_hessian)
        return -1;
    return o->row_hessian(o->fast, w, H);
}

void bl_coefobj_objective(bl_coefobj *o, const struct bl_plugin *loss, size_t n,
                          const double *lower, const double *upper, double nu,
                          struct bl_objective *obj)
{
    /* only the fast path has a Hessian: o->fast is set for class-space row
     * objectives alone, and its row_hessian describes exactly row_eval */
    o->row_hessian = o->fast && o->t == 0 && !o->coded && loss && loss->ops == o->ops
                         ? ((const struct bl_loss_ops *)loss->ops)->row_hessian
                         : NULL;
    memset(obj, 0, sizeof *obj);
    obj->n = n;
    obj->eval = bl_coefobj_eval;
    obj->ctx = o;
    obj->lower = lower;
    obj->upper = upper;
    obj->nu = nu;
    obj->hessian = o->row_hessian ? bl_coefobj_hessian : NULL;
}

void bl_coefobj_done(bl_coefobj *o)
{
    if (o->fast)
        o->ops->row_free(o->fast);
    o->fast = NULL;
    o->row_hessian = NULL;
}

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
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++)
            g[r] += (sdim == 1 ? s[i] : s[i * k + r]) * G[i * k + r];
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
    memset(o->Fw, 0, m * k * sizeof *o->Fw);
    for (size_t j = 0; j < o->t; j++)
        bl_add_term(o->Fw, m, k, o->out[j], o->outdim[j], w + j * k);
    double L = loss_at(o, o->Fw, grad ? o->grad : NULL);
    if (grad)
        for (size_t j = 0; j < o->t; j++)
            project(o->grad, m, k, o->out[j], o->outdim[j], grad + j * k);
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
                         ? bl_loss_row_hessian(loss)
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

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The coefficient phase that the score spaces share: calling the solver on
 * an objective (objective.h) or a map of it (project.h), stage-wise rows
 * and totally corrective refits of class-form terms, and the code maps. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"
#include "run.h"

void bl_run_reserve(bl_run *r, size_t n)
{
    if (n <= r->wcap)
        return;
    r->w = bl_xrealloc(r->w, n * sizeof *r->w);
    r->lower = bl_xrealloc(r->lower, n * sizeof *r->lower);
    r->upper = bl_xrealloc(r->upper, n * sizeof *r->upper);
    r->wcap = n;
}

int bl_run_solve(bl_run *r, bl_coefobj *o, bl_coefmap *map, size_t n, int *iters, bl_error *err)
{
    const bl_boost_cfg *cfg = r->cfg;
    for (size_t j = 0; j < n; j++) {
        r->lower[j] = cfg->param.nonneg ? 0 : -HUGE_VAL;
        r->upper[j] = HUGE_VAL;
    }
    struct bl_objective obj; /* with the loss's row Hessian when it has one */
    bl_coefobj_objective(o, cfg->loss->plugin, n, r->lower, r->upper, cfg->param.nu, &obj);
    if (map) { /* the solver sees the map's variables */
        obj.eval = bl_coefmap_eval;
        obj.ctx = map;
        obj.hessian = NULL;
    }
    struct bl_solve_info info = {0, 0, BL_SOLVE_CONVERGED, 0};
    char msg[BL_ERR_MAX] = "";
    int rc = r->so->solve(r->solver, &obj, r->w, &info, msg);
    bl_coefobj_done(o);
    if (rc < 0)
        return bl_errf(err, "solver %s: %s", cfg->solver->plugin->name, msg);
    *iters = info.iterations;
    return 0;
}

void bl_run_keep_outputs(bl_run *r, const bl_model *mo, const double *s, size_t width)
{
    size_t j = mo->t - 1;
    r->trout[j] = bl_xmalloc(r->m * width * sizeof(double));
    memcpy(r->trout[j], s, r->m * width * sizeof(double));
    r->outdim[j] = width;
}

int bl_coef_stagewise(bl_run *r, bl_model *mo, int shared, int *iters, bl_error *err)
{
    size_t k = r->k;
    double shrink = r->cfg->param.shrinkage;
    *iters = 0;
    if (!r->so) { /* solver = none: the weak outputs are the step */
        for (size_t j = 0; j < k; j++)
            r->w[j] = shrink;
    } else {
        bl_coefobj o;
        bl_coefobj_row(&o, r->lo, r->loss, r->tr->y, r->m, k, r->F, r->cls, r->tod, r->Fw,
                       r->grad);
        memset(r->w, 0, k * sizeof *r->w);
        if (shared) { /* one variable, every class's coefficient */
            bl_coefmap map;
            bl_coefmap_shared(&map, &o, 1, k);
            int rc = bl_run_solve(r, &o, &map, 1, iters, err);
            bl_coefmap_free(&map);
            if (rc < 0)
                return -1;
            for (size_t j = 1; j < k; j++)
                r->w[j] = r->w[0];
        } else if (bl_run_solve(r, &o, NULL, k, iters, err) < 0) {
            return -1;
        }
        for (size_t j = 0; j < k; j++)
            r->w[j] *= shrink;
    }
    bl_model_set_term(mo, mo->t - 1, r->w, NULL, 0);
    return 0;
}

void bl_coef_all_objective(bl_run *r, const bl_model *mo, bl_coefobj *o, size_t nvars)
{
    size_t t = mo->t, n = t * r->k;
    bl_run_keep_outputs(r, mo, r->cls, r->tod);
    bl_run_reserve(r, n > nvars ? n : nvars);
    bl_coefobj_all(o, r->lo, r->loss, r->tr->y, r->m, r->k, t, (const double *const *)r->trout,
                   r->outdim, r->Fw, r->grad);
}

int bl_coef_mapped(bl_run *r, bl_model *mo, bl_coefobj *o, bl_coefmap *map, size_t nvars,
                   int *iters, bl_error *err)
{
    size_t k = r->k, t = mo->t;
    double *W = bl_xmalloc(t * k * sizeof *W);
    int rc = bl_run_solve(r, o, map, nvars, iters, err);
    if (rc == 0) {
        bl_coefmap_expand(map, r->w, W);
        for (size_t j = 0; j < t; j++)
            bl_model_set_term(mo, j, W + j * k, NULL, 0);
    }
    bl_coefmap_free(map);
    free(W);
    return rc;
}

int bl_coef_class(bl_run *r, bl_model *mo, int *iters, bl_error *err)
{
    if (!r->tc)
        return bl_coef_stagewise(r, mo, 0, iters, err);
    /* totally corrective: every row, warm-started from the current ones */
    size_t k = r->k, t = mo->t, n = t * k;
    bl_coefobj o;
    bl_coef_all_objective(r, mo, &o, n);
    for (size_t j = 0; j < t; j++)
        memcpy(r->w + j * k, mo->term[j].w, k * sizeof *r->w);
    if (bl_run_solve(r, &o, NULL, n, iters, err) < 0)
        return -1;
    for (size_t j = 0; j < t; j++)
        bl_model_set_term(mo, j, r->w + j * k, NULL, 0);
    return 0;
}

void bl_encode(const double *G, size_t m, size_t k, const double *M, size_t c, double *Gc)
{
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < c; j++) {
            double v = 0;
            for (size_t r = 0; r < k; r++)
                v += G[i * k + r] * M[r * c + j];
            Gc[i * c + j] = v;
        }
}

void bl_decode(const double *out, size_t m, size_t k, const double *M, size_t c, double *cls)
{
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++) {
            double v = 0;
            for (size_t j = 0; j < c; j++)
                v += M[r * c + j] * out[i * c + j];
            cls[i * k + r] = v;
        }
}

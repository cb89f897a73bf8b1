/* SPDX-License-Identifier: GPL-3.0-or-later */
/* RandomBoost's two score spaces (project.h; spec randomboost §2-3).
 *
 * inputs (RBoost-rank): the learner's training set is the m k projected
 * points z_ic = P^(c) x_i, labelled 1 where c is the example's class, and
 * it answers one column of dual weights, G read as m k values (spec §2.2's
 * gamma_ic is exactly G_ic); every term has one coefficient shared by the
 * classes, and the model keeps the projection to predict.
 *
 * outputs (RBoost-proj): each iteration draws n projection columns and the
 * learner answers the n weak problems they define; the solver's variables
 * are the projected weights w in R^n, from which every term's row follows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../data/quantize.h"
#include "../plugin/loader.h"
#include "../util/fsutil.h"
#include "../util/rng.h"
#include "run.h"

/* ---- projected inputs ----------------------------------------------------- */

typedef struct inputs {
    bl_proj proj;
    bl_dataset zd;      /* the m k projected points                 */
    bl_qview zq;
    struct bl_train ztr;
    float *ztx;         /* the test set's projected points          */
    struct bl_matrix Zt;
} inputs;

static int inputs_init(bl_run *r, bl_model *mo, bl_error *err)
{
    const bl_boost_cfg *a = r->cfg;
    inputs *s = r->st = bl_xcalloc(1, sizeof *s);
    size_t m = r->m, k = r->k, mk = m * k;
    const struct bl_train *tr = r->tr;
    r->ns = r->wide = k;
    if (bl_proj_open(&s->proj, a->projection, k, bl_seed_derive(a->seed, "projection", 0), err) <
        0)
        return -1;
    s->zd.m = mk;
    s->zd.d = s->proj.n;
    s->zd.k = 2;
    s->zd.y = bl_xmalloc(mk * sizeof *s->zd.y);
    for (size_t q = 0; q < mk; q++)
        s->zd.y[q] = (int)(q % k) == tr->y[q / k];
    if (a->param.project_scale != BL_SCALE_NONE)
        bl_proj_standardize(&s->proj, &tr->X, a->param.project_scale == BL_SCALE_MINMAX);
    s->zd.x = bl_proj_inputs(&s->proj, &tr->X);
    if (bl_quantize(&s->zd, a->max_bins ? a->max_bins : 256, &s->zq, err) < 0)
        return bl_errprefix(err, "projected inputs");
    bl_train_view(&s->zd, &s->zq, &s->ztr);
    r->wtr = &s->ztr;
    if (r->mt) {
        s->ztx = bl_proj_inputs(&s->proj, r->Xt);
        s->Zt = (struct bl_matrix){r->mt * k, s->proj.n, s->ztx};
        r->Xth = &s->Zt;
    }
    if (bl_model_set_proj(mo, a->projection, s->proj.seed, err) < 0)
        return -1;
    if (s->proj.mu)
        bl_proj_set_scale(mo->proj, s->proj.d, s->proj.mu, s->proj.sd);
    return 0;
}

static int inputs_fit(bl_run *r, int it, bl_model *mo, struct bl_fit_result *res, bl_error *err)
{
    (void)mo;
    struct bl_fit_request req = {.G = r->G, .c = 1,
                                 .seed = bl_seed_derive(r->cfg->seed, "weak", (uint64_t)it)};
    if (bl_run_hessian(r, it, &req, err) < 0)
        return -1;
    return bl_run_fit(r, &req, res, err);
}

/* Its outputs on the m k points are the term's m x k class outputs. */
static int inputs_add(bl_run *r, int it, bl_model *mo, struct bl_fit_result *res, bl_error *err)
{
    (void)it;
    if (res->outdim != 1) {
        r->wo->free_hyp(res->hyp);
        return bl_errf(err, "weak learner %s gave %zu outputs per projected point; project = "
                       "inputs needs one", r->cfg->weak->plugin->name, res->outdim);
    }
    bl_model_add(mo, res->hyp, r->k);
    r->cls = r->out;
    r->tod = r->k;
    return 0;
}

/* One coefficient per term, shared by the k classes: the solver's
 * variables map to the rows through bl_coefmap_shared. */
static int inputs_coef(bl_run *r, bl_model *mo, int *iters, bl_error *err)
{
    if (!r->tc)
        return bl_coef_stagewise(r, mo, 1, iters, err);
    size_t t = mo->t;
    bl_coefobj o;
    bl_coefmap map;
    bl_coef_all_objective(r, mo, &o, t);
    for (size_t j = 0; j < t; j++)
        r->w[j] = mo->term[j].w[0];
    bl_coefmap_shared(&map, &o, t, r->k);
    return bl_coef_mapped(r, mo, &o, &map, t, iters, err);
}

static double inputs_penalty(const bl_run *r, const bl_model *mo)
{
    (void)r;
    double s = 0;
    for (size_t j = 0; j < mo->t; j++)
        s += fabs(mo->term[j].w[0]);
    return s;
}

static void inputs_free(bl_run *r)
{
    inputs *s = r->st;
    if (!s)
        return;
    free(s->zd.y);
    free(s->zd.x);
    free(s->ztx);
    bl_qview_free(&s->zq);
    bl_proj_close(&s->proj);
    free(s);
}

const bl_space bl_space_inputs = {"inputs", inputs_init, bl_run_class_loss, inputs_fit,
                                  inputs_add, inputs_coef, bl_run_class_scores, inputs_penalty,
                                  inputs_free};

/* ---- projected outputs ---------------------------------------------------- */

typedef struct outputs {
    bl_proj proj;
    double **pcols;     /* term j's projection columns (k x n)         */
    size_t pT;          /* room in pcols: the iteration budget          */
    double *pw;         /* the n projected weights                      */
    double *gcol, *pout, *pbest, *pD; /* scratch of the n weak problems */
} outputs;

static int outputs_init(bl_run *r, bl_model *mo, bl_error *err)
{
    (void)mo;
    const bl_boost_cfg *a = r->cfg;
    outputs *s = r->st = bl_xcalloc(1, sizeof *s);
    size_t m = r->m, k = r->k, T = r->T;
    r->ns = r->wide = k;
    if (bl_proj_open(&s->proj, a->projection, k, bl_seed_derive(a->seed, "projection", 0), err) <
        0)
        return -1;
    s->pcols = bl_xcalloc(T, sizeof *s->pcols);
    s->pT = T;
    s->pw = bl_xcalloc(s->proj.n, sizeof *s->pw);
    s->gcol = bl_xmalloc(m * sizeof *s->gcol);
    s->pout = bl_xmalloc(m * sizeof *s->pout);
    s->pbest = bl_xmalloc(m * sizeof *s->pbest);
    s->pD = bl_xmalloc(T * k * sizeof *s->pD);
    return 0;
}

/* What the earlier terms already give each constraint v: A = -dL/dw at
 * the current w, the map's transpose of D = H^T G. */
static double *outputs_credit(bl_run *r, outputs *s, size_t t)
{
    size_t m = r->m, k = r->k, n = s->proj.n;
    double *A = bl_xcalloc(n, sizeof *A);
    if (!t)
        return A;
    for (size_t j = 0; j < t; j++)
        for (size_t c = 0; c < k; c++) {
            double v = 0;
            for (size_t i = 0; i < m; i++)
                v += r->trout[j][i] * r->G[i * k + c];
            s->pD[j * k + c] = v;
        }
    bl_coefmap map;
    bl_coefmap_outputs(&map, NULL, t, k, n, (const double *const *)s->pcols);
    bl_coefmap_fold(&map, s->pD, A);
    bl_coefmap_free(&map);
    return A;
}

/* RBoost-proj's weak step (spec §3.3): for every projected dimension v the
 * learner answers the dual weights seen through the new columns,
 * g_i = sum_c G_ic P^(c)[v][t]; its answer scores its edge plus A_v; the
 * best (h, v) is kept, its training outputs in r->out.  The learner is
 * called n times: any weak learner works, at n times a plain iteration's
 * cost (Table I's O(nmd)). */
static int outputs_fit(bl_run *r, int it, bl_model *mo, struct bl_fit_result *best,
                       bl_error *err)
{
    outputs *s = r->st;
    size_t m = r->m, k = r->k, n = s->proj.n, t = mo->t;
    uint64_t seed = bl_seed_derive(r->cfg->seed, "weak", (uint64_t)it);
    const char *name = r->cfg->weak->plugin->name;
    double *M = s->pcols[t] = bl_xmalloc(k * n * sizeof *M);
    bl_proj_columns(&s->proj, t, M);
    double *A = outputs_credit(r, s, t);
    char msg[BL_ERR_MAX] = "";
    double top = -HUGE_VAL;
    int rc = 0;
    memset(best, 0, sizeof *best);
    for (size_t v = 0; v < n && rc == 0; v++) {
        for (size_t i = 0; i < m; i++) {
            double g = 0;
            for (size_t c = 0; c < k; c++)
                g += r->G[i * k + c] * M[c * n + v];
            s->gcol[i] = g;
        }
        struct bl_fit_request req = {.G = s->gcol, .c = 1, .seed = seed};
        struct bl_fit_result res = {.out = s->pout};
        if (r->wo->fit(r->weak, &req, &res, msg) < 0) {
            rc = bl_errf(err, "weak learner %s: %s", name, msg);
        } else if (res.outdim != 1) {
            r->wo->free_hyp(res.hyp);
            rc = bl_errf(err, "weak learner %s gave %zu outputs for one column of dual weights "
                         "(project = outputs needs one)", name, res.outdim);
        } else if (A[v] + res.edge > top) {
            if (best->hyp)
                r->wo->free_hyp(best->hyp);
            *best = res;
            best->edge = top = A[v] + res.edge;
            bl_fit_result_expand(&res, m); /* its outputs dense in pout (weak.h) */
            double *sw = s->pout; /* keep its outputs, write the next ones elsewhere */
            s->pout = s->pbest;
            s->pbest = sw;
        } else {
            r->wo->free_hyp(res.hyp);
        }
    }
    free(A);
    if (rc == 0)
        memcpy(r->out, s->pbest, m * sizeof *r->out);
    else if (best->hyp)
        r->wo->free_hyp(best->hyp);
    return rc;
}

static int outputs_add(bl_run *r, int it, bl_model *mo, struct bl_fit_result *res,
                       bl_error *err)
{
    (void)it, (void)err;
    bl_model_add(mo, res->hyp, res->outdim);
    r->cls = r->out;
    r->tod = res->outdim;
    return 0;
}

/* Totally corrective over the projected weights (the loader allows no
 * other solver scope; a row solver would fit the rows themselves). */
static int outputs_coef(bl_run *r, bl_model *mo, int *iters, bl_error *err)
{
    if (!r->tc)
        return bl_coef_class(r, mo, iters, err);
    outputs *s = r->st;
    size_t nw = s->proj.n;
    bl_coefobj o;
    bl_coefmap map;
    bl_coef_all_objective(r, mo, &o, nw);
    bl_coefmap_outputs(&map, &o, mo->t, r->k, nw, (const double *const *)s->pcols);
    memcpy(r->w, s->pw, nw * sizeof *r->w);
    int rc = bl_coef_mapped(r, mo, &o, &map, nw, iters, err);
    if (rc == 0)
        memcpy(s->pw, r->w, nw * sizeof *r->w);
    return rc;
}

static double outputs_penalty(const bl_run *r, const bl_model *mo)
{
    (void)mo;
    const outputs *s = r->st;
    double v = 0;
    for (size_t j = 0; j < s->proj.n; j++)
        v += fabs(s->pw[j]);
    return v;
}

static void outputs_free(bl_run *r)
{
    outputs *s = r->st;
    if (!s)
        return;
    for (size_t j = 0; s->pcols && j < s->pT; j++) /* the last may belong to no term */
        free(s->pcols[j]);
    free(s->pcols);
    free(s->pw);
    free(s->gcol);
    free(s->pout);
    free(s->pbest);
    free(s->pD);
    bl_proj_close(&s->proj);
    free(s);
}

const bl_space bl_space_outputs = {"outputs", outputs_init, bl_run_class_loss, outputs_fit,
                                   outputs_add, outputs_coef, bl_run_class_scores,
                                   outputs_penalty, outputs_free};

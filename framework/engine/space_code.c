/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Code space (AdaBoost.MO): a coding with a loss that has eval_coded turns
 * the k-class problem into one multi-label problem on the code's columns.
 * The code M0 (k x c) is fixed at set-up, the loss sees code scores f
 * (m x c) with targets Y_il = M0[y_i][l], each term has one coefficient
 * per column, and the class scores are the linear decoding F = f M0^T. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/loader.h"
#include "../util/fsutil.h"
#include "../util/rng.h"
#include "run.h"
#include "space_coding.h"

typedef struct code {
    bl_run_coding cd;
    bl_loss_coded_fn coded;
    size_t nc;
    double *M0, *Y;     /* the code (k x nc) and targets (m x nc)           */
    double *f, *ft;     /* code scores, train (m x nc) and test (mt x nc)  */
    double *wc;         /* every term's column coefficients (T x nc)       */
    double *scratch;    /* G M0^T (m x k), and a term's folded code (k x nc) */
} code;

/* The fixed code: the coding's first answer, asked for as a class-space
 * run asks (iteration 1's seed, the class-space dual weights at F = 0),
 * and the targets it implies. */
static int first_code(bl_run *r, code *s, bl_error *err)
{
    const bl_boost_cfg *a = r->cfg;
    size_t m = r->m, k = r->k, c = 0;
    double *F0 = bl_xcalloc(m * k, sizeof *F0), *G0 = bl_xcalloc(m * k, sizeof *G0);
    char msg[BL_ERR_MAX] = "";
    r->lo->eval(r->loss, r->tr->y, m, k, F0, G0);
    for (size_t j = 0; j < m * k; j++)
        G0[j] = -G0[j];
    int rc = s->cd.co->code(s->cd.coding, r->tr->y, m, G0, bl_seed_derive(a->seed, "code", 0),
                            s->cd.M, &c, msg);
    free(F0);
    free(G0);
    if (rc < 0)
        return bl_errf(err, "iteration 1: coding %s: %s", a->coding->plugin->name, msg);
    if (c < 1 || c > s->cd.cmax)
        return bl_errf(err, "iteration 1: coding %s gave %zu columns (at most %zu)",
                       a->coding->plugin->name, c, s->cd.cmax);
    /* eval_coded's contract: targets in [-1, 1] */
    for (size_t q = 0; q < k * c; q++)
        if (!(fabs(s->cd.M[q]) <= 1.0))
            return bl_errf(err, "coding %s: entry M[%zu][%zu] = %g, but loss %s runs in code "
                           "space, whose targets M[y_i][l] must lie in [-1, 1]",
                           a->coding->plugin->name, q / c, q % c, s->cd.M[q],
                           a->loss->plugin->name);
    s->nc = c;
    s->M0 = bl_xmalloc(k * c * sizeof *s->M0);
    memcpy(s->M0, s->cd.M, k * c * sizeof *s->M0);
    s->Y = bl_xmalloc(m * c * sizeof *s->Y);
    for (size_t i = 0; i < m; i++)
        memcpy(s->Y + i * c, s->M0 + (size_t)r->tr->y[i] * c, c * sizeof *s->Y);
    return 0;
}

static int code_init(bl_run *r, bl_model *mo, bl_error *err)
{
    (void)mo;
    const bl_boost_cfg *a = r->cfg;
    code *s = r->st = bl_xcalloc(1, sizeof *s);
    if (bl_run_coding_open(r, &s->cd, err) < 0)
        return -1;
    s->coded = r->lo->eval_coded;
    if (first_code(r, s, err) < 0)
        return -1;
    if (s->cd.co->recolor)
        return bl_errf(err, "coding %s re-colours its code (recolor), and loss %s runs in code "
                       "space (eval_coded), which needs a fixed code; use a class-space loss "
                       "such as hinge or margin-exp", a->coding->plugin->name,
                       a->loss->plugin->name);
    size_t nc = s->nc, k = r->k;
    r->ns = nc;
    s->f = bl_xcalloc(r->m * nc, sizeof *s->f);
    s->ft = bl_xcalloc(r->mt * nc, sizeof *s->ft);
    s->wc = bl_xcalloc(r->T * nc, sizeof *s->wc);
    s->scratch = bl_xcalloc(r->m * k > k * nc ? r->m * k : k * nc, sizeof *s->scratch);
    return 0;
}

static double code_loss(bl_run *r)
{
    code *s = r->st;
    return s->coded(r->loss, s->Y, r->m, s->nc, s->f, r->grad);
}

/* Every iteration's code must be the first one: f accumulates per column,
 * so a code that changes would mix columns that mean different colorings.
 * The coding sees the code-space dual weights pulled back to classes,
 * G M0^T, the class-space view its contract promises. */
static int same_code(bl_run *r, code *s, int it, bl_error *err)
{
    const bl_boost_cfg *a = r->cfg;
    size_t m = r->m, k = r->k, nc = s->nc, c = 0;
    char msg[BL_ERR_MAX] = "";
    bl_decode(r->G, m, k, s->M0, nc, s->scratch);
    if (s->cd.co->code(s->cd.coding, r->tr->y, m, s->scratch,
                       bl_seed_derive(a->seed, "code", (uint64_t)it), s->cd.M, &c, msg) < 0)
        return bl_errf(err, "coding %s: %s", a->coding->plugin->name, msg);
    int same = c == nc;
    for (size_t q = 0; same && q < k * nc; q++)
        same = s->cd.M[q] == s->M0[q];
    if (!same)
        return bl_errf(err, "coding %s changed its code (iteration 1 gave a %zu x %zu code, "
                       "this one %s); loss %s runs in code space (it has eval_coded), where "
                       "scores accumulate per code column, so it needs a fixed code, the same "
                       "M every iteration (e.g. exhaustive, ova, ovo, dense-ecoc), or use a "
                       "class-space loss such as margin-exp", a->coding->plugin->name, k, nc,
                       c == nc ? "differs" : "has a different number of columns",
                       a->loss->plugin->name);
    return 0;
}

/* The weak learner answers G = -dL/df as is, one column per code column. */
static int code_fit(bl_run *r, int it, bl_model *mo, struct bl_fit_result *res, bl_error *err)
{
    (void)mo;
    code *s = r->st;
    if (it > 0 && same_code(r, s, it, err) < 0)
        return -1;
    struct bl_fit_request req = {.G = r->G, .c = s->nc,
                                 .seed = bl_seed_derive(r->cfg->seed, "weak", (uint64_t)it)};
    return bl_run_fit(r, &req, res, err);
}

static int code_add(bl_run *r, int it, bl_model *mo, struct bl_fit_result *res, bl_error *err)
{
    (void)it;
    code *s = r->st;
    if (bl_run_check_columns(r, res, s->nc, err) < 0)
        return -1;
    bl_model_add(mo, res->hyp, res->outdim);
    r->tod = res->outdim;
    return 0;
}

/* A code-space term in the model's class-space form, so that saved models
 * predict with no format change: class r gets sum_l M_rl wc_l h_l(x).  One
 * shared coefficient (lbfgsb-line) is stored as w_r = alpha with the code
 * itself, like AdaBoost.ECC's terms; distinct ones are folded into the
 * code, M diag(wc), with w_r = 1. */
static void set_code_term(bl_run *r, code *s, bl_model *mo, size_t j)
{
    size_t k = r->k, nc = s->nc;
    const double *wc = s->wc + j * nc;
    int shared = 1;
    for (size_t l = 1; l < nc; l++)
        shared &= wc[l] == wc[0];
    double *w = r->w, *M = s->scratch;
    for (size_t q = 0; q < k; q++)
        w[q] = shared ? wc[0] : 1.0;
    for (size_t q = 0; q < k * nc; q++)
        M[q] = shared ? s->M0[q] : s->M0[q] * wc[q % nc];
    bl_model_set_term(mo, j, w, M, nc);
}

/* phi(w) = L(f + h w^T) over the new term's column coefficients, from
 * w = 0, then shrinkage (stage-wise); or all terms' (totally corrective). */
static int code_coef(bl_run *r, bl_model *mo, int *iters, bl_error *err)
{
    code *s = r->st;
    size_t nc = s->nc, t = mo->t;
    double shrink = r->cfg->param.shrinkage;
    double *wc = s->wc + (t - 1) * nc;
    bl_coefobj o;
    *iters = 0;
    if (!r->tc && !r->so) {
        for (size_t l = 0; l < nc; l++)
            wc[l] = shrink;
    } else if (!r->tc) {
        bl_run_reserve(r, nc);
        bl_coefobj_row_coded(&o, r->lo, r->loss, s->coded, s->Y, r->m, nc, s->f, r->out, nc,
                             r->Fw, r->grad);
        memset(r->w, 0, nc * sizeof *r->w);
        if (bl_run_solve(r, &o, NULL, nc, iters, err) < 0)
            return -1;
        for (size_t l = 0; l < nc; l++)
            wc[l] = r->w[l] * shrink;
    } else {
        size_t n = t * nc;
        bl_run_keep_outputs(r, mo, r->out, nc);
        bl_run_reserve(r, n);
        memcpy(r->w, s->wc, n * sizeof *r->w);
        bl_coefobj_all_coded(&o, r->lo, r->loss, s->coded, s->Y, r->m, nc, t,
                             (const double *const *)r->trout, r->outdim, r->Fw, r->grad);
        if (bl_run_solve(r, &o, NULL, n, iters, err) < 0)
            return -1;
        memcpy(s->wc, r->w, n * sizeof *r->w);
    }
    bl_run_reserve(r, r->k);
    for (size_t j = r->tc ? 0 : t - 1; j < t; j++)
        set_code_term(r, s, mo, j);
    return 0;
}

/* Code scores after the newest term (or all terms re-weighted) on train
 * and test, then the linear decoding F = f M0^T. */
static void code_scores(bl_run *r, const bl_model *mo)
{
    code *s = r->st;
    size_t m = r->m, mt = r->mt, k = r->k, nc = s->nc, t = mo->t;
    const double *wn = s->wc + (t - 1) * nc;
    if (mt) {
        if (r->Sth)
            bl_hyp_predict_sparse(r->wo, mo->term[t - 1].hyp, r->Sth, nc, r->tscratch);
        else
            r->wo->predict(mo->term[t - 1].hyp, r->Xth, r->tscratch);
        if (r->tc) {
            r->touts[t - 1] = bl_xmalloc(mt * nc * sizeof(double));
            memcpy(r->touts[t - 1], r->tscratch, mt * nc * sizeof(double));
        }
    }
    if (!r->tc) {
        bl_add_term(s->f, m, nc, r->out, nc, wn);
        if (mt)
            bl_add_term(s->ft, mt, nc, r->tscratch, nc, wn);
    } else {
        memset(s->f, 0, m * nc * sizeof *s->f);
        memset(s->ft, 0, mt * nc * sizeof *s->ft);
        for (size_t j = 0; j < t; j++) {
            bl_add_term(s->f, m, nc, r->trout[j], nc, s->wc + j * nc);
            if (mt)
                bl_add_term(s->ft, mt, nc, r->touts[j], nc, s->wc + j * nc);
        }
    }
    bl_decode(s->f, m, k, s->M0, nc, r->F);
    if (mt)
        bl_decode(s->ft, mt, k, s->M0, nc, r->Ft);
}

static void code_free(bl_run *r)
{
    code *s = r->st;
    if (!s)
        return;
    bl_run_coding_close(&s->cd);
    free(s->M0);
    free(s->Y);
    free(s->f);
    free(s->ft);
    free(s->wc);
    free(s->scratch);
    free(s);
}

const bl_space bl_space_code = {"code", code_init, code_loss, code_fit, code_add, code_coef,
                                code_scores, bl_run_class_penalty, code_free};

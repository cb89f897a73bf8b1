/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Class space: the loss sees the class scores F (m x k) and the weak
 * learner answers its dual weights G directly (MCBoost, the LogitBoost
 * family, SAMME, AdaBoost.MH, ...).  Also what the other class-form spaces
 * share: the loss on F, the score update and the second-order
 * information a learner may ask the loss for. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/loader.h"
#include "../util/fsutil.h"
#include "../util/rng.h"
#include "run.h"

double bl_run_class_loss(bl_run *r)
{
    return r->lo->eval(r->loss, r->tr->y, r->m, r->k, r->F, r->grad);
}

void bl_run_class_scores(bl_run *r, const bl_model *mo)
{
    size_t m = r->m, mt = r->mt, k = r->k, t = mo->t, tod = r->tod;
    const bl_term *term = &mo->term[t - 1];
    if (mt) {
        bl_term_outputs_any(mo, term, r->Xth, r->Sth, r->tout, r->tscratch);
        if (r->tc) {
            r->touts[t - 1] = bl_xmalloc(mt * tod * sizeof(double));
            memcpy(r->touts[t - 1], r->tout, mt * tod * sizeof(double));
        }
    }
    if (!r->tc) {
        bl_add_term(r->F, m, k, r->cls, tod, term->w);
        if (mt)
            bl_add_term(r->Ft, mt, k, r->tout, tod, term->w);
        return;
    }
    memset(r->F, 0, m * k * sizeof *r->F);
    memset(r->Ft, 0, mt * k * sizeof *r->Ft);
    for (size_t j = 0; j < t; j++) {
        bl_add_term(r->F, m, k, r->trout[j], r->outdim[j], mo->term[j].w);
        if (mt)
            bl_add_term(r->Ft, mt, k, r->touts[j], r->outdim[j], mo->term[j].w);
    }
}

double bl_run_class_penalty(const bl_run *r, const bl_model *mo)
{
    double s = 0;
    for (size_t j = 0; j < mo->t; j++)
        for (size_t q = 0; q < r->k; q++)
            s += fabs(mo->term[j].w[q]);
    return s;
}

/* The loss's Hessian at the current F, in the form the learner needs. */
static int hessian_fill(bl_run *r)
{
    enum bl_hess_form form = r->needs & BL_NEEDS_OFFDIAG ? BL_HESS_DIAG_RANK1 : BL_HESS_DIAG;
    return r->lo->hessian(r->loss, r->tr->y, r->m, r->k, r->F, form, r->hess);
}

int bl_run_needs_init(bl_run *r, bl_error *err)
{
    const bl_boost_cfg *a = r->cfg;
    r->needs = r->wo->needs;
    if (r->needs & BL_NEEDS_OFFDIAG)
        r->needs |= BL_NEEDS_HESSIAN;
    if (!(r->needs & BL_NEEDS_HESSIAN))
        return 0;
    const char *what = r->needs & BL_NEEDS_OFFDIAG ? "whole Hessian (BL_HESS_DIAG_RANK1)"
                                                   : "Hessian diagonal";
    if (a->coding)
        return bl_errf(err, "weak learner %s needs the loss's %s, which the engine gives only "
                       "without an output coding (coding %s)", a->weak->plugin->name, what,
                       a->coding->plugin->name);
    size_t mk = r->m * r->k;
    r->hess = bl_xcalloc(r->needs & BL_NEEDS_OFFDIAG ? 2 * mk : mk, sizeof *r->hess);
    if (!r->lo->hessian || hessian_fill(r) < 0)
        return bl_errf(err, "weak learner %s needs the loss's %s, and loss %s does not provide "
                       "it (e.g. softmax and klogit do)", a->weak->plugin->name, what,
                       a->loss->plugin->name);
    return 0;
}

int bl_run_hessian(bl_run *r, int it, struct bl_fit_request *req, bl_error *err)
{
    if (!(r->needs & BL_NEEDS_HESSIAN))
        return 0;
    if (it > 0 && hessian_fill(r) < 0) /* set-up filled it at F = 0 */
        return bl_errf(err, "loss %s gave no Hessian", r->cfg->loss->plugin->name);
    req->H = r->hess;
    req->Hu = r->needs & BL_NEEDS_OFFDIAG ? r->hess + r->m * r->k : NULL;
    return 0;
}

int bl_run_fit(bl_run *r, const struct bl_fit_request *req, struct bl_fit_result *res,
               bl_error *err)
{
    char msg[BL_ERR_MAX] = "";
    *res = (struct bl_fit_result){NULL, 0, 0, r->out, 0};
    if (r->wo->fit(r->weak, req, res, msg) < 0)
        return bl_errf(err, "weak learner %s: %s", r->cfg->weak->plugin->name, msg);
    return 0;
}

/* The request's trial_loss: L(F + shrinkage D), in r->Fw. */
static double trial_loss(void *ctx, const double *D)
{
    bl_run *r = ctx;
    size_t mk = r->m * r->k;
    double shrink = r->cfg->param.shrinkage;
    for (size_t j = 0; j < mk; j++)
        r->Fw[j] = r->F[j] + shrink * D[j];
    return r->lo->eval(r->loss, r->tr->y, r->m, r->k, r->Fw, NULL);
}

static int class_init(bl_run *r, bl_model *mo, bl_error *err)
{
    (void)mo, (void)err;
    r->ns = r->wide = r->k;
    return 0;
}

static int class_fit(bl_run *r, int it, bl_model *mo, struct bl_fit_result *res, bl_error *err)
{
    (void)mo;
    struct bl_fit_request req = {.G = r->G, .c = r->k,
                                 .seed = bl_seed_derive(r->cfg->seed, "weak", (uint64_t)it),
                                 .trial_loss = trial_loss, .trial_ctx = r};
    if (bl_run_hessian(r, it, &req, err) < 0)
        return -1;
    return bl_run_fit(r, &req, res, err);
}

static int class_add(bl_run *r, int it, bl_model *mo, struct bl_fit_result *res, bl_error *err)
{
    (void)it, (void)err;
    bl_model_add(mo, res->hyp, res->outdim);
    r->cls = r->out;
    r->tod = res->outdim;
    return 0;
}

static void class_free(bl_run *r)
{
    (void)r;
}

const bl_space bl_space_class = {"class", class_init, bl_run_class_loss, class_fit, class_add,
                                 bl_coef_class, bl_run_class_scores, bl_run_class_penalty,
                                 class_free};

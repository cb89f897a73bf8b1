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

/* The class-major copies (k x m each) of the m x k arrays src[0..2] (NULL:
 * none) into the host's buffer, their addresses into dst: 64 rows at a
 * time, so that a block's rows stay in L1 while each class takes its 64
 * values. */
static void cm_transpose(bl_run *r, const double *const src[3], const double *dst[3])
{
    size_t m = r->m, k = r->k;
    if (!r->cmb)
        r->cmb = bl_xcalloc(3 * m * k, sizeof *r->cmb);
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (m * k >= 65536)
#endif
    for (size_t i0 = 0; i0 < m; i0 += 64) {
        size_t i1 = m - i0 < 64 ? m : i0 + 64;
        for (int a = 0; a < 3; a++)
            if (src[a])
                for (size_t q = 0; q < k; q++)
                    for (size_t i = i0; i < i1; i++)
                        r->cmb[a * m * k + q * m + i] = src[a][i * k + q];
    }
    for (int a = 0; a < 3; a++)
        dst[a] = src[a] ? r->cmb + a * m * k : NULL;
}

double bl_run_class_loss(bl_run *r)
{
    if (!r->lazy)
        return r->lo->eval(r->loss, r->tr->y, r->m, r->k, r->F, r->grad);
    int hess = (r->needs & BL_NEEDS_HESSIAN) != 0;
    bl_loss_update_fn up = r->cm && r->lo->update_class_major ? r->lo->update_class_major
                                                              : r->lo->update;
    double L = up(r->loss, r->tr->y, r->m, r->k, r->F, r->moved, r->nmoved, hess, r->ld);
    if (r->cm && up == r->lo->update) {
        const double *src[3] = {r->ld[0], r->ld[1], r->ld[2]};
        cm_transpose(r, src, r->ld);
    }
    r->moved = NULL; /* consumed: the next scores say again what moved */
    return L;
}

double bl_run_train_error(const bl_run *r)
{
    if (!r->amax)
        return bl_error_rate(r->F, r->tr->y, r->m, r->k);
    return r->m ? (double)r->wrong / (double)r->m : 0.0;
}

/* Every row's first argmax of F afresh, and the count of misses. */
static void argmax_all(bl_run *r)
{
    size_t wrong = 0;
    bl_argmax_rows(r->F, r->m, r->k, r->amax);
    for (size_t i = 0; i < r->m; i++)
        wrong += r->amax[i] != r->tr->y[i];
    r->wrong = wrong;
}

/* F += the newest term's outputs times w on the entries it moved (weak.h
 * bl_fit_result.moved): the others add w_r 0, which leaves F as it is (F
 * is never -0: it starts at +0 and a sum that cancels rounds to +0), so
 * this is bl_add_term's F bit for bit.  Each row's first argmax follows:
 * only a moved class can take it, unless it was the argmax itself. */
static void add_moved(bl_run *r, const double *w)
{
    size_t k = r->k, nm = r->nmoved, wrong = 0;
    const double *out = r->cls, *mo = r->moved_out;
    double *F = r->F;
    const uint32_t *mv = r->moved;
    const int *y = r->tr->y;
    int *amax = r->amax;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(+ : wrong) if (r->m * nm >= 16384)
#endif
    for (size_t i = 0; i < r->m; i++) {
        double *Fi = F + i * k;
        const uint32_t *mi = mv + i * nm;
        size_t a = (size_t)amax[i];
        int rescan = 0;
        for (size_t j = 0; j < nm; j++)
            if (mi[j] != BL_MOVED_NONE) {
                Fi[mi[j]] += (mo ? mo[i * nm + j] : out[i * k + mi[j]]) * w[mi[j]];
                rescan |= mi[j] == a;
            }
        if (rescan) {
            bl_argmax_rows(Fi, 1, k, amax + i);
        } else {
            for (size_t j = 0; j < nm; j++) { /* ascending: the first of equals */
                size_t c = mi[j];
                if (c != BL_MOVED_NONE && (Fi[c] > Fi[a] || (Fi[c] == Fi[a] && c < a)))
                    a = c;
            }
            amax[i] = (int)a;
        }
        wrong += amax[i] != y[i];
    }
    r->wrong = wrong;
}

void bl_run_class_scores(bl_run *r, const bl_model *mo)
{
    size_t m = r->m, mt = r->mt, k = r->k, t = mo->t, tod = r->tod;
    const bl_term *term = &mo->term[t - 1];
    if (r->moved && !r->tc) { /* sparse outputs: both sides touch what moved */
        add_moved(r, term->w);
        if (!mt)
            return;
        if (r->wo->predict_add && !term->code && !r->Sth) { /* predict_add reads dense X */
            r->wo->predict_add(term->hyp, r->Xth, term->w, k, r->Ft);
            return;
        }
    }
    if (mt) {
        bl_term_outputs_any(mo, term, r->Xth, r->Sth, r->tout, r->tscratch);
        if (r->tc) {
            r->touts[t - 1] = bl_xmalloc(mt * tod * sizeof(double));
            memcpy(r->touts[t - 1], r->tout, mt * tod * sizeof(double));
        }
    }
    if (!r->tc) {
        if (!r->moved) { /* dense outputs (add_moved did the sparse ones) */
            bl_add_term(r->F, m, k, r->cls, tod, term->w);
            if (r->amax)
                argmax_all(r);
        }
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
    /* a 2.2 or 2.3 learner reads its layout from the set: class-major only
     * on sparse ones; a 2.4 one reads req->class_major */
    unsigned minor = BL_SDK_MINOR_OF(a->weak->plugin->sdk_version);
    r->cm = (r->needs & BL_NEEDS_CLASS_MAJOR) && r->sp == &bl_space_class &&
            (r->wtr->S || minor >= 4);
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
    if (r->lazy && r->lo->hessian) /* update gives both forms (loss.h) */
        return 0;
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
    if (r->lazy) { /* the loss's update left them at the current F */
        req->H = r->ld[1];
        req->Hu = r->needs & BL_NEEDS_OFFDIAG ? r->ld[2] : NULL;
        return 0;
    }
    if (it > 0 && hessian_fill(r) < 0) /* set-up filled it at F = 0 */
        return bl_errf(err, "loss %s gave no Hessian", r->cfg->loss->plugin->name);
    req->H = r->hess;
    req->Hu = r->needs & BL_NEEDS_OFFDIAG ? r->hess + r->m * r->k : NULL;
    return 0;
}

/* Whether the scores move by the newest term's moved entries alone (lazy
 * runs, a learner with moved lists over every class); without a solver
 * add_moved then reads its outputs from moved_out too. */
static int takes_moved(const bl_run *r, const struct bl_fit_result *res)
{
    return r->lazy && res->nmoved && res->moved && res->outdim == r->k;
}

int bl_run_fit(bl_run *r, const struct bl_fit_request *req, struct bl_fit_result *res,
               bl_error *err)
{
    char msg[BL_ERR_MAX] = "";
    *res = (struct bl_fit_result){.out = r->out};
    if (r->wo->fit(r->weak, req, res, msg) < 0)
        return bl_errf(err, "weak learner %s: %s", r->cfg->weak->plugin->name, msg);
    /* sparse output values (weak.h moved_out) go dense into out, one row
     * per point the learner trains on (m k in project = inputs), unless
     * add_moved reads them as they are */
    if (res->outdim <= req->c && !(takes_moved(r, res) && !r->so))
        bl_fit_result_expand(res, r->wtr->m);
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

/* The lazy hand-off is on unless BOOSTLAB_LAZY=0 (for comparing it with
 * the dense path, which gives the same bits). */
static int lazy_wanted(void)
{
    const char *v = getenv("BOOSTLAB_LAZY");
    return !(v && strcmp(v, "0") == 0);
}

static int class_init(bl_run *r, bl_model *mo, bl_error *err)
{
    (void)mo, (void)err;
    r->ns = r->wide = r->k;
    /* a totally corrective solver rebuilds F from every term: nothing is
     * incremental there */
    r->lazy = r->lo->update && !r->tc && lazy_wanted();
    if (r->lazy) {
        r->amax = bl_xcalloc(r->m, sizeof *r->amax); /* F = 0: class 0 (F comes later) */
        r->wrong = 0;
        for (size_t i = 0; i < r->m; i++)
            r->wrong += r->tr->y[i] != 0;
    }
    return 0;
}

static int class_fit(bl_run *r, int it, bl_model *mo, struct bl_fit_result *res, bl_error *err)
{
    (void)mo;
    struct bl_fit_request req = {.G = r->lazy ? r->ld[0] : r->G, .c = r->k,
                                 .seed = bl_seed_derive(r->cfg->seed, "weak", (uint64_t)it),
                                 .trial_loss = trial_loss, .trial_ctx = r};
    if (bl_run_hessian(r, it, &req, err) < 0)
        return -1;
    if (r->cm && !r->lazy) { /* the lazy path has them so already */
        const double *src[3] = {req.G, req.H, req.Hu}, *cm[3];
        cm_transpose(r, src, cm);
        req.G = cm[0], req.H = cm[1], req.Hu = cm[2];
    }
    req.class_major = r->cm;
    return bl_run_fit(r, &req, res, err);
}

static int class_add(bl_run *r, int it, bl_model *mo, struct bl_fit_result *res, bl_error *err)
{
    (void)it, (void)err;
    bl_model_add(mo, res->hyp, res->outdim);
    r->cls = r->out;
    r->tod = res->outdim;
    if (takes_moved(r, res)) {
        r->moved = res->moved;
        r->nmoved = res->nmoved;
        r->moved_out = r->so ? NULL : res->moved_out; /* a solver read out (bl_run_fit) */
    }
    return 0;
}

static void class_free(bl_run *r)
{
    free(r->amax);
    r->amax = NULL;
}

const bl_space bl_space_class = {"class", class_init, bl_run_class_loss, class_fit, class_add,
                                 bl_coef_class, bl_run_class_scores, bl_run_class_penalty,
                                 class_free};

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Class space through an output code: each iteration the coding plugin
 * chooses a code M (k x c), the weak learner answers the dual weights
 * seen through its columns, G M, and its column outputs become class
 * outputs out M^T (AdaBoost.ECC, AdaBoost.OC-style codes).  A learned
 * code (the coding's recolor: HingeBoost.OC, AdaBoost.ERP) re-colours a
 * column and refits until the pair settles.  Also the coding set-up the
 * code space shares. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <boostlab/coding.h>

#include "../plugin/loader.h"
#include "../util/fsutil.h"
#include "../util/rng.h"
#include "run.h"
#include "space_coding.h"

int bl_run_coding_open(bl_run *r, bl_run_coding *cd, bl_error *err)
{
    const bl_boost_cfg *a = r->cfg;
    char msg[BL_ERR_MAX] = "";
    cd->co = a->coding->plugin->ops;
    if (!(cd->coding = cd->co->create(&bl_host_api, a->coding->v, r->k, msg)))
        return bl_errf(err, "coding %s: %s", a->coding->plugin->name, msg);
    cd->cmax = cd->co->max_columns(cd->coding);
    if (cd->cmax < 1)
        return bl_errf(err, "coding %s: no columns", a->coding->plugin->name);
    cd->M = bl_xcalloc(r->k * cd->cmax, sizeof *cd->M);
    r->wide = cd->cmax > r->k ? cd->cmax : r->k;
    return 0;
}

void bl_run_coding_close(bl_run_coding *cd)
{
    if (cd->coding)
        cd->co->destroy(cd->coding);
    free(cd->M);
}

/* ---- the coded space's state --------------------------------------------- */

typedef struct coded {
    bl_run_coding cd;
    size_t c;                  /* columns of this iteration's code  */
    double *Gc;                /* G M (m x cmax)                    */
    unsigned wants;            /* BL_CODING_*                       */
    bl_coding_recolor_fn recolor;
    /* what the coding colours by: the loss's pair weights P (m x k),
     * when it wants them */
    bl_loss_pairs_fn pairs;
    double *P;
    const double *Pnow;        /* P, or G without pair weights      */
    /* hinge targets (label, margin: m each) for a BL_NEEDS_MARGINS learner */
    bl_loss_hinge_fn hinge;
    double *label, *margin;
    double *cls;               /* class outputs, m x k              */
} coded;

static int coded_init(bl_run *r, bl_model *mo, bl_error *err)
{
    (void)mo;
    coded *s = r->st = bl_xcalloc(1, sizeof *s);
    if (bl_run_coding_open(r, &s->cd, err) < 0)
        return -1;
    s->Gc = bl_xcalloc(r->m * s->cd.cmax, sizeof *s->Gc);
    s->wants = s->cd.co->wants;
    s->recolor = s->cd.co->recolor;
    if (s->wants & BL_CODING_PAIRS) {
        s->pairs = r->lo->pair_weights;
        s->P = bl_xcalloc(r->m * r->k, sizeof *s->P);
    }
    if (r->wo->needs & BL_NEEDS_MARGINS) {
        s->hinge = r->lo->hinge_targets;
        s->label = bl_xcalloc(r->m, sizeof *s->label);
        s->margin = bl_xcalloc(r->m, sizeof *s->margin);
    }
    s->cls = bl_xcalloc(r->m * r->k, sizeof *s->cls);
    r->ns = r->k;
    return 0;
}

/* What the coding colours by: the loss's pair weights, or max(0, dL/dF)
 * off the true class (the exponential margin losses' pair weights). */
static const double *pair_weights(bl_run *r, coded *s)
{
    size_t m = r->m, k = r->k;
    const int *y = r->tr->y;
    if (s->pairs) {
        s->pairs(r->loss, y, m, k, r->F, s->P);
        return s->P;
    }
    for (size_t i = 0; i < m; i++)
        for (size_t c = 0; c < k; c++)
            s->P[i * k + c] =
                (int)c == y[i] || !(r->grad[i * k + c] > 0) ? 0 : r->grad[i * k + c];
    return s->P;
}

/* The training loss after adding the term h_r = sum_j M[r][j] out_j at the
 * step taken without a solver: recolor's trial. */
static double trial_code(void *ctx, const double *M)
{
    bl_run *r = ctx;
    coded *s = r->st;
    size_t m = r->m, k = r->k, mk = m * k;
    double shrink = r->cfg->param.shrinkage;
    bl_decode(r->out, m, k, M, 1, s->cls); /* recolor is single-column */
    for (size_t j = 0; j < mk; j++)
        r->Fw[j] = r->F[j] + shrink * s->cls[j];
    return r->lo->eval(r->loss, r->tr->y, m, k, r->Fw, NULL);
}

/* One weak fit on the code M (k x c): G M, and the hinge targets when the
 * learner wants them and the loss can give them for this column. */
static int fit_code(bl_run *r, coded *s, struct bl_fit_request *req, struct bl_fit_result *res,
                    bl_error *err)
{
    size_t m = r->m, c = s->c;
    const double *M = s->cd.M;
    const int *y = r->tr->y;
    bl_encode(r->G, m, r->k, M, c, s->Gc);
    if (s->wants & BL_CODING_IGNORE_ZERO)
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < c; j++)
                if (M[(size_t)y[i] * c + j] == 0.0)
                    s->Gc[i * c + j] = 0.0;
    req->G = s->Gc;
    req->c = c;
    req->label = req->margin = NULL;
    if ((r->needs & BL_NEEDS_MARGINS) && s->hinge && c == 1 &&
        s->hinge(r->loss, y, m, r->k, r->F, s->cd.M, s->label, s->margin) == 0) {
        req->label = s->label;
        req->margin = s->margin;
    }
    return bl_run_fit(r, req, res, err);
}

/* The round's best (hypothesis, column) pair while a learned code refits. */
typedef struct best_pair {
    struct bl_fit_result res;
    double loss, *out, *M;
} best_pair;

/* Keep the current pair when its trial loss beats the best so far. */
static void keep_if_best(bl_run *r, coded *s, struct bl_fit_result *res, best_pair *b)
{
    size_t m = r->m, k = r->k;
    double L = trial_code(r, s->cd.M);
    if (!(L < b->loss))
        return;
    if (b->res.hyp)
        r->wo->free_hyp(b->res.hyp);
    if (!b->out) {
        b->out = bl_xmalloc(m * sizeof *b->out);
        b->M = bl_xmalloc(k * sizeof *b->M);
    }
    b->res = *res;
    b->loss = L;
    memcpy(b->out, r->out, m * sizeof *b->out);
    memcpy(b->M, s->cd.M, k * sizeof *b->M);
    res->hyp = NULL; /* owned by b now */
}

/* The round's answer is the best pair: its outputs and column go back to
 * r->out and M; the learner's edge was for its own column, so the pair's
 * gain L(F) - L(F + term) is the round's progress when larger (the
 * stopping rule then fires when no pair lowered the loss). */
static void take_best(bl_run *r, coded *s, struct bl_fit_result *res, best_pair *b)
{
    size_t m = r->m, k = r->k;
    if (res->hyp)
        r->wo->free_hyp(res->hyp);
    *res = b->res;
    res->out = r->out;
    memcpy(r->out, b->out, m * sizeof *b->out);
    memcpy(s->cd.M, b->M, k * sizeof *b->M);
    double *zero = bl_xcalloc(k, sizeof *zero);
    double gain = trial_code(r, zero) - b->loss;
    free(zero);
    if (gain > res->edge)
        res->edge = gain;
}

/* The coded weak step: fit on the coding's M, then let the coding
 * re-colour its column and fit again as long as it asks (HingeBoost.OC's
 * block coordinate descent, spec §2.7 lines 4-9; ERP's re-partition).
 * Without a solver the term goes in at the shrinkage step, so each (fit,
 * column) pair has a known training loss, trial_code: the round keeps the
 * best one, not necessarily the last (a refit on a re-coloured column can
 * come out worse, e.g. an SVM that finds nothing on it). */
static int fit_learned(bl_run *r, coded *s, struct bl_fit_request *req,
                       struct bl_fit_result *res, bl_error *err)
{
    if (fit_code(r, s, req, res, err) < 0)
        return -1;
    if (!s->recolor)
        return 0;
    int keep_best = !r->so && s->c == 1;
    best_pair b = {.loss = HUGE_VAL};
    char msg[BL_ERR_MAX] = "";
    int rc = 0;
    for (int refits = 0;; refits++) {
        if (res->outdim != s->c)
            break; /* add reports it */
        rc = s->recolor(s->cd.coding, r->tr->y, r->m, s->Pnow, r->out, trial_code, r, s->cd.M,
                        s->c, msg);
        if (rc < 0 || rc > BL_RECOLOR_REFIT) {
            rc = bl_errf(err, "coding %s: %s", r->cfg->coding->plugin->name,
                         rc < 0 ? msg : "recolor returned an unknown code");
            break;
        }
        if (keep_best)
            keep_if_best(r, s, res, &b);
        rc = rc == BL_RECOLOR_REFIT && refits < 64;
        if (!rc)
            break;
        if (res->hyp)
            r->wo->free_hyp(res->hyp);
        res->hyp = NULL;
        if (fit_code(r, s, req, res, err) < 0) {
            rc = -1;
            break;
        }
    }
    if (b.res.hyp && rc < 0) {
        r->wo->free_hyp(b.res.hyp);
        if (res->hyp)
            r->wo->free_hyp(res->hyp);
        res->hyp = NULL;
    } else if (b.res.hyp) {
        take_best(r, s, res, &b);
    } else if (rc < 0 && res->hyp) {
        r->wo->free_hyp(res->hyp);
        res->hyp = NULL;
    }
    free(b.out);
    free(b.M);
    return rc < 0 ? -1 : 0;
}

static int coded_fit(bl_run *r, int it, bl_model *mo, struct bl_fit_result *res, bl_error *err)
{
    (void)mo;
    coded *s = r->st;
    const char *name = r->cfg->coding->plugin->name;
    char msg[BL_ERR_MAX] = "";
    uint64_t seed = r->cfg->seed;
    s->Pnow = s->P ? pair_weights(r, s) : r->G;
    s->c = r->k;
    if (s->cd.co->code(s->cd.coding, r->tr->y, r->m, s->Pnow,
                       bl_seed_derive(seed, "code", (uint64_t)it), s->cd.M, &s->c, msg) < 0)
        return bl_errf(err, "coding %s: %s", name, msg);
    if (s->c < 1 || s->c > s->cd.cmax)
        return bl_errf(err, "coding %s gave %zu columns (at most %zu)", name, s->c, s->cd.cmax);
    struct bl_fit_request req = {.G = r->G, .c = s->c,
                                 .seed = bl_seed_derive(seed, "weak", (uint64_t)it)};
    return fit_learned(r, s, &req, res, err);
}

int bl_run_check_columns(bl_run *r, struct bl_fit_result *res, size_t c, bl_error *err)
{
    if (res->outdim == c)
        return 0;
    r->wo->free_hyp(res->hyp);
    return bl_errf(err, "weak learner %s gave %zu outputs for a %zu-column code: with a coding "
                   "it must answer every column", r->cfg->weak->plugin->name, res->outdim, c);
}

static int coded_add(bl_run *r, int it, bl_model *mo, struct bl_fit_result *res, bl_error *err)
{
    (void)it;
    coded *s = r->st;
    if (bl_run_check_columns(r, res, s->c, err) < 0)
        return -1;
    bl_model_add(mo, res->hyp, res->outdim);
    bl_decode(r->out, r->m, r->k, s->cd.M, s->c, s->cls);
    bl_model_set_term(mo, mo->t - 1, NULL, s->cd.M, s->c);
    r->cls = s->cls;
    r->tod = r->k;
    return 0;
}

static void coded_free(bl_run *r)
{
    coded *s = r->st;
    if (!s)
        return;
    bl_run_coding_close(&s->cd);
    free(s->Gc);
    free(s->P);
    free(s->label);
    free(s->margin);
    free(s->cls);
    free(s);
}

const bl_space bl_space_coded = {"coded", coded_init, bl_run_class_loss, coded_fit, coded_add,
                                 bl_coef_class, bl_run_class_scores, bl_run_class_penalty,
                                 coded_free};

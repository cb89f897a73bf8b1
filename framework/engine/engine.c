/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The boosting loop (see engine.h): set-up chooses a score space once
 * (run.h), then every iteration is the same five phases, dual weights,
 * weak step, coefficients, scores and loss, record, until the budget or a
 * stopping rule ends it. */
#include "engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/loader.h"
#include "../util/clock.h"
#include "../util/fsutil.h"
#include "run.h"
#include "weighted.h"

void bl_curve_push(bl_curve *c)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        double **cols[] = {&c->train_loss, &c->train_err, &c->test_err, &c->edge,
                           &c->t_weak, &c->t_coef, &c->t_book};
        for (size_t j = 0; j < sizeof cols / sizeof *cols; j++)
            *cols[j] = bl_xrealloc(*cols[j], c->cap * sizeof **cols[j]);
        c->solver_iters = bl_xrealloc(c->solver_iters, c->cap * sizeof *c->solver_iters);
        c->trees = bl_xrealloc(c->trees, c->cap * sizeof *c->trees);
    }
    c->n++;
}

void bl_curve_free(bl_curve *c)
{
    free(c->train_loss);
    free(c->train_err);
    free(c->test_err);
    free(c->edge);
    free(c->t_weak);
    free(c->t_coef);
    free(c->t_book);
    free(c->solver_iters);
    free(c->trees);
    memset(c, 0, sizeof *c);
}

/* The score space an algorithm runs in: a projection decides it, else a
 * coding (in code space when the loss has eval_coded), else class space. */
static const bl_space *space_of(const bl_boost_cfg *cfg)
{
    if (cfg->projection)
        return cfg->param.project == BL_PROJECT_OUTPUTS ? &bl_space_outputs : &bl_space_inputs;
    if (cfg->coding)
        return ((const struct bl_loss_ops *)cfg->loss->plugin->ops)->eval_coded ? &bl_space_code
                                                                             : &bl_space_coded;
    return &bl_space_class;
}

static void run_free(bl_run *r, size_t nterms)
{
    if (r->sp)
        r->sp->free(r);
    if (r->loss)
        r->lo->destroy(r->loss);
    if (r->weak)
        r->wo->destroy(r->weak);
    if (r->solver)
        r->so->destroy(r->solver);
    free(r->F); free(r->Ft); free(r->G); free(r->grad); free(r->Fw);
    free(r->out); free(r->tout); free(r->tscratch); free(r->hess); free(r->cmb);
    free(r->w); free(r->lower); free(r->upper);
    for (size_t j = 0; j < nterms; j++) {
        if (r->trout)
            free(r->trout[j]);
        if (r->touts)
            free(r->touts[j]);
    }
    free(r->trout); free(r->touts); free(r->outdim);
}

/* Put the example weights into the run's loss (weighted.h); the margin
 * learners' hinge targets have no per-example scale, so they refuse. */
static int weigh(bl_run *r, const bl_boost_cfg *cfg, bl_error *err)
{
    if (r->wo->needs & BL_NEEDS_MARGINS)
        return bl_errf(err, "example weights: weak learner %s trains on the loss's hinge "
                       "targets, which a per-example weight cannot scale",
                       cfg->weak->plugin->name);
    void *w = bl_weighted_open(r->lo, r->loss, cfg->weights, r->tr->y, r->m, r->k, &r->lo, err);
    if (!w)
        return bl_errprefix(err, "loss %s", cfg->loss->plugin->name);
    r->loss = w;
    return 0;
}

/* Create the plugins and the chosen space's state, and the arrays the
 * phases share. */
static int run_open(bl_run *r, const bl_boost_cfg *cfg, const struct bl_train *tr,
                    const struct bl_matrix *Xt, bl_model *mo, bl_error *err)
{
    size_t m = tr->m, k = tr->k, mt = Xt ? Xt->m : 0;
    char msg[BL_ERR_MAX] = "";
    *r = (bl_run){.cfg = cfg, .tr = tr, .Xt = Xt, .wtr = tr, .Xth = Xt, .Sth = cfg->test_sparse, .m = m, .k = k,
                  .mt = mt, .T = cfg->iterations > 0 ? (size_t)cfg->iterations : 1};
    if (k < 2 || m == 0)
        return bl_errf(err, "the training set has %zu examples and %zu classes: boosting needs "
                       "examples of at least 2 classes", m, k);
    r->lo = cfg->loss->plugin->ops;
    r->wo = cfg->weak->plugin->ops;
    r->so = cfg->solver ? cfg->solver->plugin->ops : NULL;
    r->tc = r->so && r->so->scope == BL_SOLVE_ALL;
    if (!(r->loss = r->lo->create(&bl_host_api, cfg->loss->v, msg)))
        return bl_errf(err, "loss %s: %s", cfg->loss->plugin->name, msg);
    if (cfg->weights && weigh(r, cfg, err) < 0)
        return -1;
    r->sp = space_of(cfg);
    if (r->sp->init(r, mo, err) < 0)
        return -1;
    if (!(r->weak = r->wo->create(&bl_host_api, cfg->weak->v, r->wtr, msg)))
        return bl_errf(err, "weak learner %s: %s", cfg->weak->plugin->name, msg);
    if (r->so && !(r->solver = r->so->create(&bl_host_api, cfg->solver->v, msg)))
        return bl_errf(err, "solver %s: %s", cfg->solver->plugin->name, msg);
    size_t ms = m * r->ns;
    r->F = bl_xcalloc(m * k, sizeof *r->F);
    r->Ft = bl_xcalloc(mt * k, sizeof *r->Ft);
    r->G = bl_xcalloc(ms, sizeof *r->G);
    r->grad = bl_xcalloc(ms, sizeof *r->grad);
    r->Fw = bl_xcalloc(ms, sizeof *r->Fw);
    r->out = bl_xcalloc(m * r->wide, sizeof *r->out);
    r->cls = r->out;
    r->tout = bl_xcalloc(mt * k, sizeof *r->tout);
    r->tscratch = bl_xcalloc(mt * r->wide, sizeof *r->tscratch);
    bl_run_reserve(r, r->ns > k ? r->ns : k);
    if (r->tc) {
        r->trout = bl_xcalloc(r->T, sizeof *r->trout);
        r->touts = bl_xcalloc(r->T, sizeof *r->touts);
        r->outdim = bl_xcalloc(r->T, sizeof *r->outdim);
    }
    return bl_run_needs_init(r, err);
}

/* One iteration's phases after the dual weights; 1 when a stopping rule
 * ends the run. */
static int iterate(bl_run *r, int it, double t0, const int *yt, bl_model *mo, bl_curve *cv,
                   double *L, double *prev_opt, bl_error *err)
{
    const bl_boost_cfg *cfg = r->cfg;
    const bl_space *sp = r->sp;
    double t1 = bl_seconds();
    struct bl_fit_result res = {.out = r->out};
    if (sp->fit(r, it, mo, &res, err) < 0)
        return -1;
    double t2 = bl_seconds();
    if (!(res.edge > cfg->param.nu + cfg->param.eps)) { /* optimal: spec eq. 9 */
        r->wo->free_hyp(res.hyp);
        cv->stop = BL_STOP_DUAL;
        return 1;
    }
    int iters = 0;
    if (sp->add(r, it, mo, &res, err) < 0 || sp->coef(r, mo, &iters, err) < 0)
        return -1;
    double t3 = bl_seconds();
    sp->scores(r, mo);
    *L = sp->loss(r);
    if (!isfinite(*L))
        return bl_errf(err, "loss %s became %g", cfg->loss->plugin->name, *L);
    bl_curve_push(cv);
    size_t n = cv->n - 1;
    cv->train_loss[n] = *L;
    cv->train_err[n] = bl_run_train_error(r);
    cv->test_err[n] = r->mt ? bl_error_rate(r->Ft, yt, r->mt, r->k) : NAN;
    cv->edge[n] = res.edge;
    cv->solver_iters[n] = iters;
    cv->trees[n] = (n ? cv->trees[n - 1] : 0) + (res.trees ? res.trees : 1);
    cv->t_weak[n] = t2 - t1;
    cv->t_coef[n] = t3 - t2;
    cv->t_book[n] = (t1 - t0) + (bl_seconds() - t3);
    if (cfg->on_iter)
        cfg->on_iter(cfg->user, (size_t)it + 1, (size_t)cfg->iterations);
    if (cfg->param.loss_tol >= 0 && *L <= cfg->param.loss_tol) {
        cv->stop = BL_STOP_LOSS;
        return 1;
    }
    if (cfg->param.rel_tol >= 0) { /* RBoost-proj's rule (spec §3.4): loss + nu |w|_1 */
        double opt = *L + cfg->param.nu * sp->penalty(r, mo);
        if (fabs(*prev_opt - opt) < cfg->param.rel_tol * fabs(*prev_opt)) {
            cv->stop = BL_STOP_STALL;
            return 1;
        }
        *prev_opt = opt;
    }
    return 0;
}

int bl_boost(const bl_boost_cfg *cfg, const struct bl_train *tr, const struct bl_matrix *Xt,
             const int *yt, bl_model *mo, bl_curve *cv, bl_error *err)
{
    bl_run r;
    memset(cv, 0, sizeof *cv);
    int rc = run_open(&r, cfg, tr, Xt, mo, err);
    double L = rc < 0 ? NAN : r.sp->loss(&r);
    if (rc == 0 && !isfinite(L))
        rc = bl_errf(err, "loss %s is %g at F = 0 (for %zu classes; see its message above)",
                     cfg->loss->plugin->name, L, tr->k);
    if (rc == 0) {
        cv->train_loss0 = L;
        cv->train_err0 = bl_error_rate(r.F, tr->y, r.m, r.k);
        cv->test_err0 = r.mt ? bl_error_rate(r.Ft, yt, r.mt, r.k) : NAN;
    }
    double prev_opt = L;
    size_t ms = r.lazy ? 0 : r.m * r.ns; /* a lazy loss hands its own G (run.h) */
    for (int it = 0; rc == 0 && it < cfg->iterations; it++) {
        double t0 = bl_seconds();
#pragma omp parallel for schedule(static) if (ms >= 65536)
        for (size_t j = 0; j < ms; j++) /* the dual weights: -dL/dF */
            r.G[j] = -r.grad[j];
        int s = iterate(&r, it, t0, yt, mo, cv, &L, &prev_opt, err);
        if (s > 0)
            break;
        if (s < 0)
            rc = bl_errprefix(err, "iteration %d", it + 1);
    }
    run_free(&r, mo->t);
    return rc < 0 ? -1 : 0;
}

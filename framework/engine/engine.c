/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The generic stage-wise / totally corrective boosting loop (see engine.h). */
#include "engine.h"

#include <boostlab/coding.h>
#include <boostlab/loss.h>
#include <boostlab/solver.h>
#include <boostlab/weak.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../plugin/loader.h"
#include "../util/fsutil.h"
#include "../util/rng.h"
#include "objective.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void curve_push(bl_curve *c)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        double **cols[] = {&c->train_loss, &c->train_err, &c->test_err, &c->edge,
                           &c->t_weak, &c->t_coef, &c->t_book};
        for (size_t j = 0; j < sizeof cols / sizeof *cols; j++)
            *cols[j] = bl_xrealloc(*cols[j], c->cap * sizeof **cols[j]);
        c->solver_iters = bl_xrealloc(c->solver_iters, c->cap * sizeof *c->solver_iters);
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
    memset(c, 0, sizeof *c);
}

/* Everything one training run owns, so that cleanup is in one place. */
typedef struct run {
    const struct bl_loss_ops *lo;
    const struct bl_weak_ops *wo;
    const struct bl_solver_ops *so;
    const struct bl_coding_ops *co;
    void *loss, *weak, *solver, *coding;
    double *F, *G, *Fw, *grad, *Ft, *tout, *w, *lower, *upper;
    double *out;          /* weak outputs on train, m x (hypothesis outdim) */
    double *cls;          /* class outputs on train (= out when not coded)  */
    double *M, *Gc;       /* code (k x c) and coded dual weights (m x c)    */
    double *tscratch;     /* test-set weak outputs before decoding          */
    double **trout;       /* totally corrective: training outputs per term */
    size_t *outdim;
} run;

static void run_free(run *r, size_t nterms)
{
    if (r->loss) r->lo->destroy(r->loss);
    if (r->weak) r->wo->destroy(r->weak);
    if (r->solver) r->so->destroy(r->solver);
    if (r->coding) r->co->destroy(r->coding);
    if (r->cls != r->out)
        free(r->cls);
    free(r->out); free(r->M); free(r->Gc); free(r->tscratch);
    free(r->F); free(r->G); free(r->Fw); free(r->grad); free(r->Ft); free(r->tout);
    free(r->w); free(r->lower); free(r->upper);
    if (r->trout)
        for (size_t j = 0; j < nterms; j++)
            free(r->trout[j]);
    free(r->trout);
    free(r->outdim);
}

/* Run the solver on o over r->w[0..n), from the start point in r->w, with
 * the bounds 0 <= w < inf. */
/* Gc = G M: dual weights seen through the code's columns. */
static void encode(const double *G, size_t m, size_t k, const double *M, size_t c, double *Gc)
{
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < c; j++) {
            double v = 0;
            for (size_t r = 0; r < k; r++)
                v += G[i * k + r] * M[r * c + j];
            Gc[i * c + j] = v;
        }
}

/* cls = out M^T: the columns' outputs mapped back to classes. */
static void decode(const double *out, size_t m, size_t k, const double *M, size_t c, double *cls)
{
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++) {
            double v = 0;
            for (size_t j = 0; j < c; j++)
                v += M[r * c + j] * out[i * c + j];
            cls[i * k + r] = v;
        }
}

static int call_solver(run *r, const bl_algo_spec *a, bl_coefobj *o, size_t n, int *iters,
                       bl_error *err)
{
    for (size_t j = 0; j < n; j++) {
        r->lower[j] = a->nonneg ? 0 : -HUGE_VAL;
        r->upper[j] = HUGE_VAL;
    }
    struct bl_objective obj = {n, bl_coefobj_eval, o, r->lower, r->upper, a->nu};
    struct bl_solve_info info = {0, 0, BL_SOLVE_CONVERGED, 0};
    char msg[BL_ERR_MAX] = "";
    int rc = r->so->solve(r->solver, &obj, r->w, &info, msg);
    bl_coefobj_done(o);
    if (rc < 0)
        return bl_errf(err, "solver %s: %s", a->solver.plugin->name, msg);
    *iters = info.iterations;
    return 0;
}

/* Stage-wise: the new row only, from w = 0, then shrinkage. */
static int solve_row(run *r, const bl_algo_spec *a, const struct bl_train *tr, const double *s,
                     size_t sdim, int *iters, bl_error *err)
{
    size_t k = tr->k;
    bl_coefobj o;
    bl_coefobj_row(&o, r->lo, r->loss, tr->y, tr->m, k, r->F, s, sdim, r->Fw, r->grad);
    memset(r->w, 0, k * sizeof *r->w);
    if (call_solver(r, a, &o, k, iters, err) < 0)
        return -1;
    for (size_t j = 0; j < k; j++)
        r->w[j] *= a->shrinkage;
    return 0;
}

/* Totally corrective: every row, warm-started from the current ones. */
static int solve_all(run *r, const bl_algo_spec *a, const struct bl_train *tr, bl_model *mo,
                     int *iters, bl_error *err)
{
    size_t k = tr->k, t = mo->t, n = t * k;
    r->w = bl_xrealloc(r->w, n * sizeof *r->w);
    r->lower = bl_xrealloc(r->lower, n * sizeof *r->lower);
    r->upper = bl_xrealloc(r->upper, n * sizeof *r->upper);
    for (size_t j = 0; j < t; j++)
        memcpy(r->w + j * k, mo->term[j].w, k * sizeof *r->w);
    bl_coefobj o;
    bl_coefobj_all(&o, r->lo, r->loss, tr->y, tr->m, k, t, (const double *const *)r->trout,
                   r->outdim, r->Fw, r->grad);
    if (call_solver(r, a, &o, n, iters, err) < 0)
        return -1;
    for (size_t j = 0; j < t; j++)
        memcpy(mo->term[j].w, r->w + j * k, k * sizeof *r->w);
    return 0;
}

int bl_boost(const bl_boost_cfg *cfg, const struct bl_train *tr, const struct bl_matrix *Xt,
             const int *yt, bl_model *mo, bl_curve *cv, bl_error *err)
{
    const bl_algo_spec *a = cfg->algo;
    size_t m = tr->m, k = tr->k, mt = Xt ? Xt->m : 0;
    int T = cfg->iterations;
    run r;
    memset(&r, 0, sizeof r);
    memset(cv, 0, sizeof *cv);
    if (k < 2 || m == 0)
        return bl_errf(err, "the training set has %zu examples and %zu classes: boosting needs "
                       "examples of at least 2 classes", m, k);
    r.lo = a->loss.plugin->ops;
    r.wo = a->weak.plugin->ops;
    r.so = a->solver.plugin->ops;
    int tc = r.so->scope == BL_SOLVE_ALL;
    char msg[BL_ERR_MAX] = "";
    if (!(r.loss = r.lo->create(&bl_host_api, a->loss.v, msg)))
        return bl_errf(err, "loss %s: %s", a->loss.plugin->name, msg);
    if (!(r.weak = r.wo->create(&bl_host_api, a->weak.v, tr, msg))) {
        run_free(&r, 0);
        return bl_errf(err, "weak learner %s: %s", a->weak.plugin->name, msg);
    }
    if (!(r.solver = r.so->create(&bl_host_api, a->solver.v, msg))) {
        run_free(&r, 0);
        return bl_errf(err, "solver %s: %s", a->solver.plugin->name, msg);
    }
    /* an output coding turns the k-class problem into c binary ones */
    const struct bl_coding_ops *co = a->coding.plugin ? a->coding.plugin->ops : NULL;
    size_t cmax = k;
    if (co) {
        if (!(r.coding = co->create(&bl_host_api, a->coding.v, k, msg))) {
            run_free(&r, 0);
            return bl_errf(err, "coding %s: %s", a->coding.plugin->name, msg);
        }
        r.co = co;
        cmax = co->max_columns(r.coding);
        if (cmax < 1) {
            run_free(&r, 0);
            return bl_errf(err, "coding %s: no columns", a->coding.plugin->name);
        }
        r.M = bl_xcalloc(k * cmax, sizeof *r.M);
        r.Gc = bl_xcalloc(m * cmax, sizeof *r.Gc);
    }
    size_t mk = m * k, wide = cmax > k ? cmax : k;
    r.F = bl_xcalloc(mk, sizeof *r.F);
    r.G = bl_xcalloc(mk, sizeof *r.G);
    r.Fw = bl_xcalloc(mk, sizeof *r.Fw);
    r.grad = bl_xcalloc(mk, sizeof *r.grad);
    r.Ft = bl_xcalloc(mt * k, sizeof *r.Ft);
    r.tout = bl_xcalloc(mt * k, sizeof *r.tout);
    r.tscratch = bl_xcalloc(mt * wide, sizeof *r.tscratch);
    r.w = bl_xcalloc(k, sizeof *r.w);
    r.lower = bl_xcalloc(k, sizeof *r.lower);
    r.upper = bl_xcalloc(k, sizeof *r.upper);
    r.out = bl_xcalloc(m * wide, sizeof *r.out);
    r.cls = co ? bl_xcalloc(mk, sizeof *r.cls) : r.out;
    double **touts = NULL; /* totally corrective: test outputs per term */
    if (tc) {
        r.trout = bl_xcalloc((size_t)T, sizeof *r.trout);
        r.outdim = bl_xcalloc((size_t)T, sizeof *r.outdim);
        touts = bl_xcalloc((size_t)T, sizeof *touts);
    }
    int rc = 0;
    double L = r.lo->eval(r.loss, tr->y, m, k, r.F, r.grad);
    cv->train_loss0 = L;
    cv->train_err0 = bl_error_rate(r.F, tr->y, m, k);
    cv->test_err0 = mt ? bl_error_rate(r.Ft, yt, mt, k) : NAN;
    for (int it = 0; it < T; it++) {
        double t0 = now();
        for (size_t j = 0; j < mk; j++)
            r.G[j] = -r.grad[j];
        const double *Gfit = r.G;
        size_t c = k;
        if (co) {
            if (co->code(r.coding, tr->y, m, r.G, bl_seed_derive(cfg->seed, "code", (uint64_t)it),
                         r.M, &c, msg) < 0) {
                rc = bl_errf(err, "iteration %d: coding %s: %s", it + 1, a->coding.plugin->name, msg);
                break;
            }
            if (c < 1 || c > cmax) {
                rc = bl_errf(err, "iteration %d: coding %s gave %zu columns (at most %zu)", it + 1,
                             a->coding.plugin->name, c, cmax);
                break;
            }
            encode(r.G, m, k, r.M, c, r.Gc);
            Gfit = r.Gc;
        }
        struct bl_fit_request req = {Gfit, c, NULL, bl_seed_derive(cfg->seed, "weak", (uint64_t)it)};
        struct bl_fit_result res = {NULL, 0, 0, r.out};
        double t1 = now();
        if (r.wo->fit(r.weak, &req, &res, msg) < 0) {
            rc = bl_errf(err, "iteration %d: weak learner %s: %s", it + 1, a->weak.plugin->name, msg);
            break;
        }
        double t2 = now();
        if (!(res.edge > a->nu + a->eps)) {
            r.wo->free_hyp(res.hyp);
            cv->stop = BL_STOP_DUAL;
            break;
        }
        size_t od = res.outdim, tod = od; /* hypothesis and class output sizes */
        if (co && od != c) {
            r.wo->free_hyp(res.hyp);
            rc = bl_errf(err, "iteration %d: weak learner %s gave %zu outputs for a %zu-column "
                         "code: with a coding it must answer every column", it + 1,
                         a->weak.plugin->name, od, c);
            break;
        }
        memset(r.w, 0, k * sizeof *r.w);
        bl_model_add(mo, res.hyp, od, r.w); /* the model owns the hypothesis from here */
        if (co) {
            decode(r.out, m, k, r.M, c, r.cls);
            bl_model_set_code(mo, r.M, c);
            tod = k;
        }
        bl_term *term = &mo->term[mo->t - 1];
        int iters = 0;
        if (!tc) {
            rc = solve_row(&r, a, tr, r.cls, tod, &iters, err);
            memcpy(term->w, r.w, k * sizeof *r.w);
        } else {
            r.trout[mo->t - 1] = bl_xmalloc(m * tod * sizeof(double));
            memcpy(r.trout[mo->t - 1], r.cls, m * tod * sizeof(double));
            r.outdim[mo->t - 1] = tod;
            rc = solve_all(&r, a, tr, mo, &iters, err);
        }
        if (rc < 0) {
            bl_errprefix(err, "iteration %d", it + 1);
            break;
        }
        double t3 = now();
        /* scores on train and test */
        if (mt) {
            bl_term_outputs(mo, term, Xt, r.tout, r.tscratch);
            if (tc) {
                touts[mo->t - 1] = bl_xmalloc(mt * tod * sizeof(double));
                memcpy(touts[mo->t - 1], r.tout, mt * tod * sizeof(double));
            }
        }
        if (!tc) {
            bl_add_term(r.F, m, k, r.cls, tod, r.w);
            if (mt)
                bl_add_term(r.Ft, mt, k, r.tout, tod, r.w);
        } else {
            memset(r.F, 0, mk * sizeof *r.F);
            memset(r.Ft, 0, mt * k * sizeof *r.Ft);
            for (size_t j = 0; j < mo->t; j++) {
                bl_add_term(r.F, m, k, r.trout[j], r.outdim[j], mo->term[j].w);
                if (mt)
                    bl_add_term(r.Ft, mt, k, touts[j], r.outdim[j], mo->term[j].w);
            }
        }
        L = r.lo->eval(r.loss, tr->y, m, k, r.F, r.grad);
        if (!isfinite(L)) {
            rc = bl_errf(err, "iteration %d: loss %s became %g", it + 1, a->loss.plugin->name, L);
            break;
        }
        curve_push(cv);
        size_t n = cv->n - 1;
        cv->train_loss[n] = L;
        cv->train_err[n] = bl_error_rate(r.F, tr->y, m, k);
        cv->test_err[n] = mt ? bl_error_rate(r.Ft, yt, mt, k) : NAN;
        cv->edge[n] = res.edge;
        cv->solver_iters[n] = iters;
        double t4 = now();
        cv->t_weak[n] = t2 - t1;
        cv->t_coef[n] = t3 - t2;
        cv->t_book[n] = (t1 - t0) + (t4 - t3);
        if (cfg->on_iter)
            cfg->on_iter(cfg->user, (size_t)it + 1, (size_t)T);
    }
    if (touts)
        for (size_t j = 0; j < mo->t; j++)
            free(touts[j]);
    free(touts);
    run_free(&r, mo->t);
    return rc;
}

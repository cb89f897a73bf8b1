/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The generic stage-wise / totally corrective boosting loop (see engine.h),
 * in class space (scores F, m x k) or, for a coding with a code-space loss
 * (SDK 1.2, loss.h eval_coded: AdaBoost.MO), in code space (scores f per
 * code column, m x c, decoded linearly as F = f M^T). */
#include "engine.h"

#include <boostlab/coding.h>
#include <boostlab/loss.h>
#include <boostlab/solver.h>
#include <boostlab/weak.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../data/quantize.h"
#include "../plugin/loader.h"
#include "../util/clock.h"
#include "../util/fsutil.h"
#include "../util/rng.h"
#include "objective.h"
#include "project.h"

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
    /* code space (NULL / 0 in class space): the loss's eval_coded, the fixed
     * code M0 (k x nc), targets Y (m x nc), code scores f (m x nc) and ft
     * (test, mt x nc), and every term's per-column coefficients wc (T x nc) */
    bl_loss_coded_fn coded;
    size_t nc;
    double *M0, *Y, *f, *ft, *wc;
    /* what the weak learner needs (SDK 1.3): the loss's Hessian, h then u
     * (2 m k, BL_HESS_DIAG_RANK1) or h only (m k) */
    unsigned needs;
    double *hess;
    /* learned codes (SDK 1.6): the loss's pair weights P (m x k) when the
     * coding wants them, the coding's recolor step, and the hinge targets
     * (label, margin: m each) for a learner with BL_NEEDS_MARGINS */
    bl_loss_pairs_fn pairs;
    bl_loss_hinge_fn hinge;
    bl_coding_recolor_fn recolor;
    unsigned cwants;
    double *P, *label, *margin;
    const struct bl_train *tr; /* for trial_loss */
    double shrinkage;
    /* RandomBoost (SDK 1.5, project.h): pmode is BL_PROJECT_*.  inputs:
     * the learner trains on ztr, the m k projected points (zd, zq), and
     * predicts the test set's (Zt); outputs: pcols[j] holds term j's
     * projection columns (k x n), pw the n projected weights, and gcol,
     * pout, pbest are scratch for the n weak-learning problems. */
    int pmode;
    bl_proj proj;
    bl_dataset zd;
    bl_qview zq;
    struct bl_train ztr;
    float *ztx;
    struct bl_matrix Zt;
    double **pcols, *pw, *gcol, *pout, *pbest, *pD;
    size_t pT; /* room in pcols: the iteration budget */
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
    free(r->M0); free(r->Y); free(r->f); free(r->ft); free(r->wc); free(r->hess);
    free(r->P); free(r->label); free(r->margin);
    if (r->trout)
        for (size_t j = 0; j < nterms; j++)
            free(r->trout[j]);
    free(r->trout);
    free(r->outdim);
    for (size_t j = 0; r->pcols && j < r->pT; j++) /* the last may belong to no term */
        free(r->pcols[j]);
    free(r->pcols); free(r->pw); free(r->gcol); free(r->pout); free(r->pbest); free(r->pD);
    free(r->zd.y); free(r->zd.x); free(r->ztx);
    bl_qview_free(&r->zq);
    bl_proj_close(&r->proj);
}

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

/* Run the solver on o over r->w[0..n), from the start point in r->w, with
 * the bounds 0 <= w < inf (or unbounded when the algorithm is not nonneg). */
static int call_solver(run *r, const bl_boost_cfg *a, bl_coefobj *o, bl_coefmap *map, size_t n,
                       int *iters, bl_error *err)
{
    for (size_t j = 0; j < n; j++) {
        r->lower[j] = a->param.nonneg ? 0 : -HUGE_VAL;
        r->upper[j] = HUGE_VAL;
    }
    struct bl_objective obj; /* with the loss's row Hessian when it has one */
    bl_coefobj_objective(o, a->loss->plugin, n, r->lower, r->upper, a->param.nu, &obj);
    if (map) { /* the solver sees the map's variables (project.h) */
        obj.eval = bl_coefmap_eval;
        obj.ctx = map;
        obj.hessian = NULL;
    }
    struct bl_solve_info info = {0, 0, BL_SOLVE_CONVERGED, 0};
    char msg[BL_ERR_MAX] = "";
    int rc = r->so->solve(r->solver, &obj, r->w, &info, msg);
    bl_coefobj_done(o);
    if (rc < 0)
        return bl_errf(err, "solver %s: %s", a->solver->plugin->name, msg);
    *iters = info.iterations;
    return 0;
}

/* Stage-wise: the new row only, from w = 0, then shrinkage. */
static int solve_row(run *r, const bl_boost_cfg *a, const struct bl_train *tr, const double *s,
                     size_t sdim, int *iters, bl_error *err)
{
    size_t k = tr->k;
    if (!r->so) { /* solver = none: the weak outputs are the step */
        for (size_t j = 0; j < k; j++)
            r->w[j] = a->param.shrinkage;
        *iters = 0;
        return 0;
    }
    bl_coefobj o;
    bl_coefobj_row(&o, r->lo, r->loss, tr->y, tr->m, k, r->F, s, sdim, r->Fw, r->grad);
    memset(r->w, 0, k * sizeof *r->w);
    if (r->pmode == BL_PROJECT_INPUTS) { /* one coefficient for every class */
        bl_coefmap map;
        bl_coefmap_shared(&map, &o, 1, k);
        int rc = call_solver(r, a, &o, &map, 1, iters, err);
        bl_coefmap_free(&map);
        if (rc < 0)
            return -1;
        for (size_t j = 1; j < k; j++)
            r->w[j] = r->w[0];
    } else if (call_solver(r, a, &o, NULL, k, iters, err) < 0) {
        return -1;
    }
    for (size_t j = 0; j < k; j++)
        r->w[j] *= a->param.shrinkage;
    return 0;
}

/* Totally corrective: every row, warm-started from the current ones. */
static int solve_all(run *r, const bl_boost_cfg *a, const struct bl_train *tr, bl_model *mo,
                     int *iters, bl_error *err)
{
    size_t k = tr->k, t = mo->t, n = t * k, cap = n > r->proj.n ? n : r->proj.n;
    r->w = bl_xrealloc(r->w, cap * sizeof *r->w);
    r->lower = bl_xrealloc(r->lower, cap * sizeof *r->lower);
    r->upper = bl_xrealloc(r->upper, cap * sizeof *r->upper);
    for (size_t j = 0; j < t; j++)
        memcpy(r->w + j * k, mo->term[j].w, k * sizeof *r->w);
    bl_coefobj o;
    bl_coefobj_all(&o, r->lo, r->loss, tr->y, tr->m, k, t, (const double *const *)r->trout,
                   r->outdim, r->Fw, r->grad);
    if (r->pmode) {
        /* RandomBoost: the variables are one per term (inputs) or the
         * projected weights w in R^n (outputs); W follows from them */
        bl_coefmap map;
        size_t nw = r->pmode == BL_PROJECT_INPUTS ? t : r->proj.n;
        if (r->pmode == BL_PROJECT_INPUTS) {
            bl_coefmap_shared(&map, &o, t, k);
            for (size_t j = 0; j < t; j++)
                r->w[j] = mo->term[j].w[0];
        } else {
            bl_coefmap_outputs(&map, &o, t, k, nw, (const double *const *)r->pcols);
            memcpy(r->w, r->pw, nw * sizeof *r->w);
        }
        double *W = bl_xmalloc(n * sizeof *W);
        int rc = call_solver(r, a, &o, &map, nw, iters, err);
        if (rc == 0) {
            if (r->pmode == BL_PROJECT_OUTPUTS)
                memcpy(r->pw, r->w, nw * sizeof *r->w);
            bl_coefmap_expand(&map, r->w, W);
            for (size_t j = 0; j < t; j++)
                memcpy(mo->term[j].w, W + j * k, k * sizeof *W);
        }
        bl_coefmap_free(&map);
        free(W);
        return rc;
    }
    if (call_solver(r, a, &o, NULL, n, iters, err) < 0)
        return -1;
    for (size_t j = 0; j < t; j++)
        memcpy(mo->term[j].w, r->w + j * k, k * sizeof *r->w);
    return 0;
}

/* ---- code space (SDK 1.2) ---------------------------------------------- */

/* The fixed code of a code-space run: the coding's first answer, asked for
 * as a class-space run asks (iteration 1's seed, the class-space dual
 * weights at F = 0), and the targets Y_il = M[y_i][l] it implies. */
static int code_space_init(run *r, const bl_boost_cfg *a, const struct bl_train *tr,
                           uint64_t seed, size_t cmax, bl_error *err)
{
    size_t m = tr->m, k = tr->k, c = 0;
    double *F0 = bl_xcalloc(m * k, sizeof *F0), *G0 = bl_xcalloc(m * k, sizeof *G0);
    char msg[BL_ERR_MAX] = "";
    r->lo->eval(r->loss, tr->y, m, k, F0, G0);
    for (size_t j = 0; j < m * k; j++)
        G0[j] = -G0[j];
    int rc = r->co->code(r->coding, tr->y, m, G0, bl_seed_derive(seed, "code", 0), r->M, &c, msg);
    free(F0);
    free(G0);
    if (rc < 0)
        return bl_errf(err, "iteration 1: coding %s: %s", a->coding->plugin->name, msg);
    if (c < 1 || c > cmax)
        return bl_errf(err, "iteration 1: coding %s gave %zu columns (at most %zu)",
                       a->coding->plugin->name, c, cmax);
    /* eval_coded's contract: targets in [-1, 1] */
    for (size_t q = 0; q < k * c; q++)
        if (!(fabs(r->M[q]) <= 1.0))
            return bl_errf(err, "coding %s: entry M[%zu][%zu] = %g, but loss %s runs in code "
                           "space, whose targets M[y_i][l] must lie in [-1, 1]",
                           a->coding->plugin->name, q / c, q % c, r->M[q], a->loss->plugin->name);
    r->nc = c;
    r->M0 = bl_xmalloc(k * c * sizeof *r->M0);
    memcpy(r->M0, r->M, k * c * sizeof *r->M0);
    r->Y = bl_xmalloc(m * c * sizeof *r->Y);
    for (size_t i = 0; i < m; i++)
        memcpy(r->Y + i * c, r->M0 + (size_t)tr->y[i] * c, c * sizeof *r->Y);
    return 0;
}

/* Iteration it's code must be the first one: f accumulates per column, so
 * a code that changes would mix columns that mean different colorings.
 * Gk (m x k) receives the code-space dual weights pulled back to classes,
 * G M^T, the class-space view the coding's contract promises. */
static int code_space_check(run *r, const bl_boost_cfg *a, const struct bl_train *tr,
                            uint64_t seed, int it, double *Gk, bl_error *err)
{
    size_t m = tr->m, k = tr->k, nc = r->nc, c = 0;
    char msg[BL_ERR_MAX] = "";
    decode(r->G, m, k, r->M0, nc, Gk);
    if (r->co->code(r->coding, tr->y, m, Gk, bl_seed_derive(seed, "code", (uint64_t)it), r->M,
                    &c, msg) < 0)
        return bl_errf(err, "iteration %d: coding %s: %s", it + 1, a->coding->plugin->name, msg);
    int same = c == nc;
    for (size_t q = 0; same && q < k * nc; q++)
        same = r->M[q] == r->M0[q];
    if (!same)
        return bl_errf(err, "iteration %d: coding %s changed its code (iteration 1 gave a %zu x "
                       "%zu code, this one %s); loss %s runs in code space (it has "
                       "eval_coded, SDK 1.2), where scores accumulate per code column, so it "
                       "needs a fixed code, the same M every iteration (e.g. exhaustive, ova, "
                       "ovo, dense-ecoc), or use a class-space loss such as margin-exp",
                       it + 1, a->coding->plugin->name, k, nc,
                       c == nc ? "differs" : "has a different number of columns",
                       a->loss->plugin->name);
    return 0;
}

/* Stage-wise in code space: phi(w) = L(f + h w^T) over the new term's nc
 * column coefficients, from w = 0, then shrinkage; the answer goes to wc. */
static int solve_row_code(run *r, const bl_boost_cfg *a, size_t m, double *wc, int *iters,
                          bl_error *err)
{
    size_t nc = r->nc;
    if (!r->so) { /* solver = none */
        for (size_t l = 0; l < nc; l++)
            wc[l] = a->param.shrinkage;
        *iters = 0;
        return 0;
    }
    bl_coefobj o;
    bl_coefobj_row_coded(&o, r->lo, r->loss, r->coded, r->Y, m, nc, r->f, r->out, nc, r->Fw,
                         r->grad);
    memset(r->w, 0, nc * sizeof *r->w);
    if (call_solver(r, a, &o, NULL, nc, iters, err) < 0)
        return -1;
    for (size_t l = 0; l < nc; l++)
        wc[l] = r->w[l] * a->param.shrinkage;
    return 0;
}

/* Totally corrective in code space: every term's column coefficients. */
static int solve_all_code(run *r, const bl_boost_cfg *a, size_t m, size_t t, int *iters,
                          bl_error *err)
{
    size_t nc = r->nc, n = t * nc;
    r->w = bl_xrealloc(r->w, n * sizeof *r->w);
    r->lower = bl_xrealloc(r->lower, n * sizeof *r->lower);
    r->upper = bl_xrealloc(r->upper, n * sizeof *r->upper);
    memcpy(r->w, r->wc, n * sizeof *r->w);
    bl_coefobj o;
    bl_coefobj_all_coded(&o, r->lo, r->loss, r->coded, r->Y, m, nc, t,
                         (const double *const *)r->trout, r->outdim, r->Fw, r->grad);
    if (call_solver(r, a, &o, NULL, n, iters, err) < 0)
        return -1;
    memcpy(r->wc, r->w, n * sizeof *r->w);
    return 0;
}

/* A code-space term in the model's class-space form, so that saved models
 * predict with no format change: class r gets sum_l M_rl wc_l h_l(x).  One
 * shared coefficient (lbfgsb-line) is stored as w_r = alpha with the code M
 * itself, like AdaBoost.ECC's terms; distinct ones are folded into the
 * code, M diag(wc), with w_r = 1. */
static void store_code_term(bl_term *t, const double *M, size_t k, size_t nc, const double *wc)
{
    int shared = 1;
    for (size_t l = 1; l < nc; l++)
        shared &= wc[l] == wc[0];
    for (size_t q = 0; q < k; q++)
        t->w[q] = shared ? wc[0] : 1.0;
    for (size_t q = 0; q < k * nc; q++)
        t->code[q] = shared ? M[q] : M[q] * wc[q % nc];
}

/* Code scores after the newest term (or, totally corrective, all terms
 * re-weighted) on train and test, then the linear decoding F = f M^T.
 * touts[j] keeps term j's test outputs (m_t x nc) for a totally corrective
 * solver. */
static void code_space_scores(run *r, const bl_model *mo, const struct bl_matrix *Xt,
                              double **touts, int tc, size_t m, size_t mt, size_t k)
{
    size_t nc = r->nc, nt = mo->t;
    const double *wn = r->wc + (nt - 1) * nc;
    if (mt) {
        r->wo->predict(mo->term[nt - 1].hyp, Xt, r->tscratch);
        if (tc) {
            touts[nt - 1] = bl_xmalloc(mt * nc * sizeof(double));
            memcpy(touts[nt - 1], r->tscratch, mt * nc * sizeof(double));
        }
    }
    if (!tc) {
        bl_add_term(r->f, m, nc, r->out, nc, wn);
        if (mt)
            bl_add_term(r->ft, mt, nc, r->tscratch, nc, wn);
    } else {
        memset(r->f, 0, m * nc * sizeof *r->f);
        memset(r->ft, 0, mt * nc * sizeof *r->ft);
        for (size_t j = 0; j < nt; j++) {
            bl_add_term(r->f, m, nc, r->trout[j], nc, r->wc + j * nc);
            if (mt)
                bl_add_term(r->ft, mt, nc, touts[j], nc, r->wc + j * nc);
        }
    }
    decode(r->f, m, k, r->M0, nc, r->F);
    if (mt)
        decode(r->ft, mt, k, r->M0, nc, r->Ft);
}

/* ---- second-order learners (SDK 1.3) ------------------------------------ */

/* The request's trial_loss: L(F + shrinkage D), in r->Fw. */
static double trial_loss(void *ctx, const double *D)
{
    run *r = ctx;
    size_t mk = r->tr->m * r->tr->k;
    for (size_t j = 0; j < mk; j++)
        r->Fw[j] = r->F[j] + r->shrinkage * D[j];
    return r->lo->eval(r->loss, r->tr->y, r->tr->m, r->tr->k, r->Fw, NULL);
}

/* The loss's Hessian at the current F, in the form the learner needs. */
static int hessian_fill(run *r, const struct bl_train *tr)
{
    enum bl_hess_form form = r->needs & BL_NEEDS_OFFDIAG ? BL_HESS_DIAG_RANK1 : BL_HESS_DIAG;
    return r->lo->hessian(r->loss, tr->y, tr->m, tr->k, r->F, form, r->hess);
}

/* Check once that the loss can give what the weak learner needs. */
static int needs_init(run *r, const bl_boost_cfg *a, const struct bl_train *tr, bl_error *err)
{
    r->needs = ((const struct bl_weak_ops *)a->weak->plugin->ops)->needs;
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
    size_t mk = tr->m * tr->k;
    r->hess = bl_xcalloc(r->needs & BL_NEEDS_OFFDIAG ? 2 * mk : mk, sizeof *r->hess);
    if (!r->lo->hessian || hessian_fill(r, tr) < 0)
        return bl_errf(err, "weak learner %s needs the loss's %s, and loss %s does not provide "
                       "it (e.g. softmax and klogit do)", a->weak->plugin->name, what,
                       a->loss->plugin->name);
    return 0;
}

/* ---- learned codes (SDK 1.6: HingeBoost.OC, AdaBoost.ERP) --------------- */

/* What the coding colours by: the loss's pair weights, or max(0, dL/dF)
 * off the true class (the exponential margin losses' pair weights). */
static const double *pair_weights(run *r, const struct bl_train *tr)
{
    size_t m = tr->m, k = tr->k;
    if (r->pairs) {
        r->pairs(r->loss, tr->y, m, k, r->F, r->P);
        return r->P;
    }
    for (size_t i = 0; i < m; i++)
        for (size_t c = 0; c < k; c++)
            r->P[i * k + c] = (int)c == tr->y[i] || !(r->grad[i * k + c] > 0) ? 0 : r->grad[i * k + c];
    return r->P;
}

/* The training loss after adding the term h_r = sum_j M[r][j] out_j at the
 * step taken without a solver: recolor's trial. */
static double trial_code(void *ctx, const double *M)
{
    run *r = ctx;
    size_t m = r->tr->m, k = r->tr->k, mk = m * k;
    decode(r->out, m, k, M, 1, r->cls); /* recolor is single-column */
    for (size_t j = 0; j < mk; j++)
        r->Fw[j] = r->F[j] + r->shrinkage * r->cls[j];
    return r->lo->eval(r->loss, r->tr->y, m, k, r->Fw, NULL);
}

/* One weak fit on the code M (k x c): G M, and the hinge targets when the
 * learner wants them and the loss can give them for this column. */
static int fit_code(run *r, const bl_boost_cfg *a, const struct bl_train *tr, size_t c,
                    struct bl_fit_request *req, struct bl_fit_result *res, bl_error *err)
{
    char msg[BL_ERR_MAX] = "";
    encode(r->G, tr->m, tr->k, r->M, c, r->Gc);
    if (r->cwants & BL_CODING_IGNORE_ZERO)
        for (size_t i = 0; i < tr->m; i++)
            for (size_t j = 0; j < c; j++)
                if (r->M[(size_t)tr->y[i] * c + j] == 0.0)
                    r->Gc[i * c + j] = 0.0;
    req->G = r->Gc;
    req->c = c;
    req->label = req->margin = NULL;
    if ((r->needs & BL_NEEDS_MARGINS) && r->hinge && c == 1 &&
        r->hinge(r->loss, tr->y, tr->m, tr->k, r->F, r->M, r->label, r->margin) == 0) {
        req->label = r->label;
        req->margin = r->margin;
    }
    *res = (struct bl_fit_result){NULL, 0, 0, r->out, 0};
    if (r->wo->fit(r->weak, req, res, msg) < 0)
        return bl_errf(err, "weak learner %s: %s", a->weak->plugin->name, msg);
    return 0;
}

/* The coded weak step: fit on the coding's M, then let the coding
 * re-colour its column and fit again as long as it asks (HingeBoost.OC's
 * block coordinate descent, spec §2.7 lines 4-9; ERP's re-partition).
 * Without a solver the term goes in at the shrinkage step, so each (fit,
 * column) pair has a known training loss, trial_code: the round keeps the
 * best one, not necessarily the last (a refit on a re-coloured column can
 * come out worse, e.g. an SVM that finds nothing on it). */
static int fit_learned(run *r, const bl_boost_cfg *a, const struct bl_train *tr, size_t c,
                       const double *P, struct bl_fit_request *req,
                       struct bl_fit_result *res, bl_error *err)
{
    if (fit_code(r, a, tr, c, req, res, err) < 0)
        return -1;
    if (!r->recolor)
        return 0;
    size_t m = tr->m, k = tr->k;
    int keep_best = !r->so && c == 1;
    struct bl_fit_result best = {0};
    double best_loss = HUGE_VAL, *best_out = NULL, *best_M = NULL;
    char msg[BL_ERR_MAX] = "";
    int rc = 0;
    for (int refits = 0;; refits++) {
        if (res->outdim != c)
            break; /* the caller reports it */
        rc = r->recolor(r->coding, tr->y, m, P, r->out, trial_code, r, r->M, c, msg);
        if (rc < 0 || rc > BL_RECOLOR_REFIT) {
            rc = bl_errf(err, "coding %s: %s", a->coding->plugin->name,
                         rc < 0 ? msg : "recolor returned an unknown code");
            break;
        }
        if (keep_best) {
            double L = trial_code(r, r->M);
            if (L < best_loss) { /* this pair is the best so far: keep it */
                if (best.hyp)
                    r->wo->free_hyp(best.hyp);
                if (!best_out) {
                    best_out = bl_xmalloc(m * sizeof *best_out);
                    best_M = bl_xmalloc(k * sizeof *best_M);
                }
                best = *res;
                best_loss = L;
                memcpy(best_out, r->out, m * sizeof *best_out);
                memcpy(best_M, r->M, k * sizeof *best_M);
                res->hyp = NULL; /* owned by best now */
            }
        }
        rc = rc == BL_RECOLOR_REFIT && refits < 64;
        if (!rc)
            break;
        if (res->hyp)
            r->wo->free_hyp(res->hyp);
        res->hyp = NULL;
        if (fit_code(r, a, tr, c, req, res, err) < 0) {
            rc = -1;
            break;
        }
    }
    if (best.hyp) { /* the round's answer is the best pair */
        if (res->hyp)
            r->wo->free_hyp(res->hyp);
        if (rc < 0) {
            r->wo->free_hyp(best.hyp);
        } else {
            *res = best;
            res->out = r->out;
            memcpy(r->out, best_out, m * sizeof *best_out);
            memcpy(r->M, best_M, k * sizeof *best_M);
            /* the learner's edge was for its own column; the kept pair's
             * gain, L(F) - L(F + term), is the round's progress (so the
             * stopping rule fires when no pair lowered the loss) */
            double *zero = bl_xcalloc(k, sizeof *zero);
            double gain = trial_code(r, zero) - best_loss;
            free(zero);
            if (gain > res->edge)
                res->edge = gain;
        }
    } else if (rc < 0 && res->hyp) {
        r->wo->free_hyp(res->hyp);
        res->hyp = NULL;
    }
    free(best_out);
    free(best_M);
    return rc < 0 ? -1 : 0;
}

/* ---- RandomBoost (SDK 1.5, project.h) ----------------------------------- */

/* Open the algorithm's projection.  inputs (RBoost-rank): the learner's
 * training set becomes the m k projected points z_ic = P^(c) x_i, labelled
 * 1 where c is the example's class, and it answers one column of dual
 * weights, G read as m k values (spec §2.2's gamma_ic is exactly G_ic);
 * the model keeps the projection to predict.  outputs (RBoost-proj): room
 * for the columns drawn each iteration and the projected weights. */
static int proj_init(run *r, const bl_boost_cfg *a, const bl_boost_cfg *cfg,
                     const struct bl_train *tr, const struct bl_matrix *Xt, bl_model *mo,
                     bl_error *err)
{
    size_t m = tr->m, k = tr->k, T = cfg->iterations > 0 ? (size_t)cfg->iterations : 1;
    r->pmode = a->param.project;
    if (bl_proj_open(&r->proj, a->projection, k, bl_seed_derive(cfg->seed, "projection", 0),
                     err) < 0)
        return -1;
    size_t n = r->proj.n, mk = m * k;
    if (r->pmode == BL_PROJECT_OUTPUTS) {
        r->pcols = bl_xcalloc(T, sizeof *r->pcols);
        r->pT = T;
        r->pw = bl_xcalloc(n, sizeof *r->pw);
        r->gcol = bl_xmalloc(m * sizeof *r->gcol);
        r->pout = bl_xmalloc(m * sizeof *r->pout);
        r->pbest = bl_xmalloc(m * sizeof *r->pbest);
        r->pD = bl_xmalloc(T * k * sizeof *r->pD);
        return 0;
    }
    r->zd.m = mk;
    r->zd.d = n;
    r->zd.k = 2;
    r->zd.y = bl_xmalloc(mk * sizeof *r->zd.y);
    for (size_t q = 0; q < mk; q++)
        r->zd.y[q] = (int)(q % k) == tr->y[q / k];
    if (a->param.project_scale != BL_SCALE_NONE)
        bl_proj_standardize(&r->proj, &tr->X, a->param.project_scale == BL_SCALE_MINMAX);
    r->zd.x = bl_proj_inputs(&r->proj, &tr->X);
    if (bl_quantize(&r->zd, cfg->max_bins ? cfg->max_bins : 256, &r->zq, err) < 0)
        return bl_errprefix(err, "projected inputs");
    bl_train_view(&r->zd, &r->zq, &r->ztr);
    if (Xt && Xt->m) {
        r->ztx = bl_proj_inputs(&r->proj, Xt);
        r->Zt = (struct bl_matrix){Xt->m * k, n, r->ztx};
    }
    if (bl_model_set_proj(mo, a->projection, r->proj.seed, err) < 0)
        return -1;
    if (r->proj.mu)
        bl_proj_set_scale(mo->proj, r->proj.d, r->proj.mu, r->proj.sd);
    return 0;
}

/* RBoost-proj's weak step (spec §3.3): for every projected dimension v the
 * learner answers the dual weights seen through the new columns,
 * g_i = sum_c G_ic P^(c)[v][t]; its answer scores its edge plus A_v, what
 * the earlier terms already give constraint v (A = -dL/dw at the current
 * w, the map's transpose of D = H^T G); the best (h, v) is kept, its
 * training outputs in r->out.  The learner is called n times: any weak
 * learner works, at n times a plain iteration's cost (Table I's O(nmd)). */
static int fit_outputs(run *r, const bl_boost_cfg *a, const struct bl_train *tr,
                       const bl_model *mo, uint64_t seed, struct bl_fit_result *best,
                       bl_error *err)
{
    size_t m = tr->m, k = tr->k, n = r->proj.n, t = mo->t;
    double *M = r->pcols[t] = bl_xmalloc(k * n * sizeof *M);
    bl_proj_columns(&r->proj, t, M);
    double *A = bl_xcalloc(n, sizeof *A);
    if (t) {
        for (size_t j = 0; j < t; j++)
            for (size_t c = 0; c < k; c++) {
                double s = 0;
                for (size_t i = 0; i < m; i++)
                    s += r->trout[j][i] * r->G[i * k + c];
                r->pD[j * k + c] = s;
            }
        bl_coefmap map;
        bl_coefmap_outputs(&map, NULL, t, k, n, (const double *const *)r->pcols);
        bl_coefmap_fold(&map, r->pD, A);
        bl_coefmap_free(&map);
    }
    char msg[BL_ERR_MAX] = "";
    double top = -HUGE_VAL;
    int rc = 0;
    memset(best, 0, sizeof *best);
    for (size_t v = 0; v < n && rc == 0; v++) {
        for (size_t i = 0; i < m; i++) {
            double g = 0;
            for (size_t c = 0; c < k; c++)
                g += r->G[i * k + c] * M[c * n + v];
            r->gcol[i] = g;
        }
        struct bl_fit_request req = {.G = r->gcol, .c = 1, .seed = seed};
        struct bl_fit_result res = {NULL, 0, 0, r->pout, 0};
        if (r->wo->fit(r->weak, &req, &res, msg) < 0) {
            rc = bl_errf(err, "weak learner %s: %s", a->weak->plugin->name, msg);
        } else if (res.outdim != 1) {
            r->wo->free_hyp(res.hyp);
            rc = bl_errf(err, "weak learner %s gave %zu outputs for one column of dual weights "
                         "(project = outputs needs one)", a->weak->plugin->name, res.outdim);
        } else if (A[v] + res.edge > top) {
            if (best->hyp)
                r->wo->free_hyp(best->hyp);
            *best = res;
            best->edge = top = A[v] + res.edge;
            double *sw = r->pout; /* keep its outputs, write the next ones elsewhere */
            r->pout = r->pbest;
            r->pbest = sw;
        } else {
            r->wo->free_hyp(res.hyp);
        }
    }
    free(A);
    if (rc == 0)
        memcpy(r->out, r->pbest, m * sizeof *r->out);
    else if (best->hyp)
        r->wo->free_hyp(best->hyp);
    return rc;
}

/* The objective the algorithm minimises, for rel_tol: the loss plus
 * nu times the l1 norm of the solver's variables. */
static double objective_value(const run *r, const bl_model *mo, double L, double nu)
{
    double s = 0;
    if (r->pmode == BL_PROJECT_OUTPUTS)
        for (size_t v = 0; v < r->proj.n; v++)
            s += fabs(r->pw[v]);
    else
        for (size_t j = 0; j < mo->t; j++)
            for (size_t q = 0; q < (r->pmode == BL_PROJECT_INPUTS ? 1 : mo->k); q++)
                s += fabs(mo->term[j].w[q]);
    return L + nu * s;
}

int bl_boost(const bl_boost_cfg *cfg, const struct bl_train *tr, const struct bl_matrix *Xt,
             const int *yt, bl_model *mo, bl_curve *cv, bl_error *err)
{
    const bl_boost_cfg *a = cfg;
    size_t m = tr->m, k = tr->k, mt = Xt ? Xt->m : 0;
    int T = cfg->iterations;
    run r;
    memset(&r, 0, sizeof r);
    memset(cv, 0, sizeof *cv);
    if (k < 2 || m == 0)
        return bl_errf(err, "the training set has %zu examples and %zu classes: boosting needs "
                       "examples of at least 2 classes", m, k);
    r.lo = a->loss->plugin->ops;
    r.wo = a->weak->plugin->ops;
    r.so = a->solver ? a->solver->plugin->ops : NULL; /* NULL: solver = none */
    r.tr = tr;
    r.shrinkage = a->param.shrinkage;
    int tc = r.so && r.so->scope == BL_SOLVE_ALL;
    char msg[BL_ERR_MAX] = "";
    if (!(r.loss = r.lo->create(&bl_host_api, a->loss->v, msg)))
        return bl_errf(err, "loss %s: %s", a->loss->plugin->name, msg);
    if (a->projection && proj_init(&r, a, cfg, tr, Xt, mo, err) < 0) {
        run_free(&r, 0);
        return -1;
    }
    if (!(r.weak = r.wo->create(&bl_host_api, a->weak->v,
                                r.pmode == BL_PROJECT_INPUTS ? &r.ztr : tr, msg))) {
        run_free(&r, 0);
        return bl_errf(err, "weak learner %s: %s", a->weak->plugin->name, msg);
    }
    if (r.so && !(r.solver = r.so->create(&bl_host_api, a->solver->v, msg))) {
        run_free(&r, 0);
        return bl_errf(err, "solver %s: %s", a->solver->plugin->name, msg);
    }
    /* an output coding turns the k-class problem into c binary ones */
    const struct bl_coding_ops *co = a->coding ? a->coding->plugin->ops : NULL;
    size_t cmax = k;
    if (co) {
        if (!(r.coding = co->create(&bl_host_api, a->coding->v, k, msg))) {
            run_free(&r, 0);
            return bl_errf(err, "coding %s: %s", a->coding->plugin->name, msg);
        }
        r.co = co;
        cmax = co->max_columns(r.coding);
        if (cmax < 1) {
            run_free(&r, 0);
            return bl_errf(err, "coding %s: no columns", a->coding->plugin->name);
        }
        r.M = bl_xcalloc(k * cmax, sizeof *r.M);
        /* a code-space loss (SDK 1.2) turns it into one multi-label problem
         * on the code's columns instead: AdaBoost.MO */
        r.coded = ((const struct bl_loss_ops *)a->loss->plugin->ops)->eval_coded;
        if (r.coded && code_space_init(&r, a, tr, cfg->seed, cmax, err) < 0) {
            run_free(&r, 0);
            return -1;
        }
        if (!r.coded)
            r.Gc = bl_xcalloc(m * cmax, sizeof *r.Gc);
        /* learned codes (SDK 1.6) */
        r.cwants = ((const struct bl_coding_ops *)a->coding->plugin->ops)->wants;
        r.recolor = ((const struct bl_coding_ops *)a->coding->plugin->ops)->recolor;
        if (r.coded && r.recolor) {
            run_free(&r, 0);
            return bl_errf(err, "coding %s re-colours its code (recolor, SDK 1.6), and loss %s "
                           "runs in code space (eval_coded), which needs a fixed code; use a "
                           "class-space loss such as hinge or margin-exp",
                           a->coding->plugin->name, a->loss->plugin->name);
        }
        if (r.cwants & BL_CODING_PAIRS) {
            r.pairs = ((const struct bl_loss_ops *)a->loss->plugin->ops)->pair_weights;
            r.P = bl_xcalloc(m * k, sizeof *r.P);
        }
        if (((const struct bl_weak_ops *)a->weak->plugin->ops)->needs & BL_NEEDS_MARGINS) {
            r.hinge = ((const struct bl_loss_ops *)a->loss->plugin->ops)->hinge_targets;
            r.label = bl_xcalloc(m, sizeof *r.label);
            r.margin = bl_xcalloc(m, sizeof *r.margin);
        }
    }
    int cs = r.coded != NULL;
    size_t mk = m * k, wide = cmax > k ? cmax : k;
    size_t ms = cs ? m * r.nc : mk; /* scores the loss sees: F, or f in code space */
    size_t nw = cs && r.nc > k ? r.nc : k;
    if (r.pmode == BL_PROJECT_OUTPUTS && r.proj.n > nw)
        nw = r.proj.n;
    r.F = bl_xcalloc(mk, sizeof *r.F);
    r.G = bl_xcalloc(ms, sizeof *r.G);
    r.Fw = bl_xcalloc(ms, sizeof *r.Fw);
    r.grad = bl_xcalloc(ms, sizeof *r.grad);
    r.Ft = bl_xcalloc(mt * k, sizeof *r.Ft);
    r.tout = bl_xcalloc(mt * k, sizeof *r.tout);
    r.tscratch = bl_xcalloc(mt * wide, sizeof *r.tscratch);
    r.w = bl_xcalloc(nw, sizeof *r.w);
    r.lower = bl_xcalloc(nw, sizeof *r.lower);
    r.upper = bl_xcalloc(nw, sizeof *r.upper);
    r.out = bl_xcalloc(m * wide, sizeof *r.out);
    r.cls = co ? bl_xcalloc(mk, sizeof *r.cls) : r.out;
    if (cs) {
        r.f = bl_xcalloc(ms, sizeof *r.f);
        r.ft = bl_xcalloc(mt * r.nc, sizeof *r.ft);
        r.wc = bl_xcalloc((size_t)(T > 0 ? T : 1) * r.nc, sizeof *r.wc);
    }
    if (needs_init(&r, a, tr, err) < 0) {
        run_free(&r, 0);
        return -1;
    }
    double **touts = NULL; /* totally corrective: test outputs per term */
    if (tc) {
        r.trout = bl_xcalloc((size_t)T, sizeof *r.trout);
        r.outdim = bl_xcalloc((size_t)T, sizeof *r.outdim);
        touts = bl_xcalloc((size_t)T, sizeof *touts);
    }
    int rc = 0;
    double L = cs ? r.coded(r.loss, r.Y, m, r.nc, r.f, r.grad)
                  : r.lo->eval(r.loss, tr->y, m, k, r.F, r.grad);
    if (!isfinite(L)) {
        free(touts);
        run_free(&r, 0);
        return bl_errf(err, "loss %s is %g at F = 0 (for %zu classes; see its message above)",
                       a->loss->plugin->name, L, k);
    }
    cv->train_loss0 = L;
    double prev_opt = L;
    cv->train_err0 = bl_error_rate(r.F, tr->y, m, k);
    cv->test_err0 = mt ? bl_error_rate(r.Ft, yt, mt, k) : NAN;
    for (int it = 0; it < T; it++) {
        double t0 = bl_seconds();
#pragma omp parallel for schedule(static) if (ms >= 65536)
        for (size_t j = 0; j < ms; j++)
            r.G[j] = -r.grad[j];
        const double *Gfit = r.G, *P = NULL;
        size_t c = k;
        if (cs) {
            /* G = -dL/df goes to the weak learner as is, one column per
             * code column; r.cls (m x k, unused in code space) holds G M^T */
            c = r.nc;
            if (it > 0 && code_space_check(&r, a, tr, cfg->seed, it, r.cls, err) < 0) {
                rc = -1;
                break;
            }
        } else if (co) {
            P = r.P ? pair_weights(&r, tr) : r.G;
            if (co->code(r.coding, tr->y, m, P, bl_seed_derive(cfg->seed, "code", (uint64_t)it),
                         r.M, &c, msg) < 0) {
                rc = bl_errf(err, "iteration %d: coding %s: %s", it + 1, a->coding->plugin->name, msg);
                break;
            }
            if (c < 1 || c > cmax) {
                rc = bl_errf(err, "iteration %d: coding %s gave %zu columns (at most %zu)", it + 1,
                             a->coding->plugin->name, c, cmax);
                break;
            }
        }
        if (r.pmode == BL_PROJECT_INPUTS)
            c = 1; /* G read as the m k projected points' weights */
        struct bl_fit_request req = {.G = Gfit, .c = c,
                                     .seed = bl_seed_derive(cfg->seed, "weak", (uint64_t)it),
                                     .trial_loss = co || r.pmode ? NULL : trial_loss,
                                     .trial_ctx = &r};
        if (r.needs & BL_NEEDS_HESSIAN) {
            if (it > 0 && hessian_fill(&r, tr) < 0) {
                rc = bl_errf(err, "iteration %d: loss %s gave no Hessian", it + 1,
                             a->loss->plugin->name);
                break;
            }
            req.H = r.hess;
            req.Hu = r.needs & BL_NEEDS_OFFDIAG ? r.hess + mk : NULL;
        }
        struct bl_fit_result res = {NULL, 0, 0, r.out, 0};
        double t1 = bl_seconds();
        if (r.pmode == BL_PROJECT_OUTPUTS) {
            if (fit_outputs(&r, a, tr, mo, req.seed, &res, err) < 0) {
                bl_errprefix(err, "iteration %d", it + 1);
                rc = -1;
                break;
            }
        } else if (co && !cs) {
            if (fit_learned(&r, a, tr, c, P, &req, &res, err) < 0) {
                bl_errprefix(err, "iteration %d", it + 1);
                rc = -1;
                break;
            }
        } else if (r.wo->fit(r.weak, &req, &res, msg) < 0) {
            rc = bl_errf(err, "iteration %d: weak learner %s: %s", it + 1, a->weak->plugin->name, msg);
            break;
        }
        double t2 = bl_seconds();
        if (!(res.edge > a->param.nu + a->param.eps)) {
            r.wo->free_hyp(res.hyp);
            cv->stop = BL_STOP_DUAL;
            break;
        }
        size_t od = res.outdim, tod = od; /* hypothesis and class output sizes */
        if (r.pmode == BL_PROJECT_INPUTS) {
            if (od != 1) {
                r.wo->free_hyp(res.hyp);
                rc = bl_errf(err, "iteration %d: weak learner %s gave %zu outputs per projected "
                             "point; project = inputs needs one", it + 1, a->weak->plugin->name,
                             od);
                break;
            }
            od = tod = k; /* its outputs on the m k points are the class outputs */
        }
        if (co && od != c) {
            r.wo->free_hyp(res.hyp);
            rc = bl_errf(err, "iteration %d: weak learner %s gave %zu outputs for a %zu-column "
                         "code: with a coding it must answer every column", it + 1,
                         a->weak->plugin->name, od, c);
            break;
        }
        memset(r.w, 0, k * sizeof *r.w);
        bl_model_add(mo, res.hyp, od, r.w); /* the model owns the hypothesis from here */
        if (cs) {
            bl_model_set_code(mo, r.M0, c); /* coefficients are stored below */
        } else if (co) {
            decode(r.out, m, k, r.M, c, r.cls);
            bl_model_set_code(mo, r.M, c);
            tod = k;
        }
        bl_term *term = &mo->term[mo->t - 1];
        int iters = 0;
        if (cs) {
            size_t nt = mo->t;
            if (!tc) {
                rc = solve_row_code(&r, a, m, r.wc + (nt - 1) * c, &iters, err);
            } else {
                r.trout[nt - 1] = bl_xmalloc(m * c * sizeof(double));
                memcpy(r.trout[nt - 1], r.out, m * c * sizeof(double));
                r.outdim[nt - 1] = c;
                rc = solve_all_code(&r, a, m, nt, &iters, err);
            }
            if (rc == 0)
                for (size_t j = tc ? 0 : nt - 1; j < nt; j++)
                    store_code_term(&mo->term[j], r.M0, k, c, r.wc + j * c);
        } else if (!tc) {
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
        double t3 = bl_seconds();
        /* scores on train and test */
        if (cs) {
            code_space_scores(&r, mo, Xt, touts, tc, m, mt, k);
        } else {
            if (mt) {
                bl_term_outputs(mo, term, r.pmode == BL_PROJECT_INPUTS ? &r.Zt : Xt, r.tout,
                                r.tscratch);
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
        }
        L = cs ? r.coded(r.loss, r.Y, m, c, r.f, r.grad)
               : r.lo->eval(r.loss, tr->y, m, k, r.F, r.grad);
        if (!isfinite(L)) {
            rc = bl_errf(err, "iteration %d: loss %s became %g", it + 1, a->loss->plugin->name, L);
            break;
        }
        bl_curve_push(cv);
        size_t n = cv->n - 1;
        cv->train_loss[n] = L;
        cv->train_err[n] = bl_error_rate(r.F, tr->y, m, k);
        cv->test_err[n] = mt ? bl_error_rate(r.Ft, yt, mt, k) : NAN;
        cv->edge[n] = res.edge;
        cv->solver_iters[n] = iters;
        cv->trees[n] = (n ? cv->trees[n - 1] : 0) + (res.trees ? res.trees : 1);
        double t4 = bl_seconds();
        cv->t_weak[n] = t2 - t1;
        cv->t_coef[n] = t3 - t2;
        cv->t_book[n] = (t1 - t0) + (t4 - t3);
        if (cfg->on_iter)
            cfg->on_iter(cfg->user, (size_t)it + 1, (size_t)T);
        if (a->param.loss_tol >= 0 && L <= a->param.loss_tol) {
            cv->stop = BL_STOP_LOSS;
            break;
        }
        if (a->param.rel_tol >= 0) { /* RBoost-proj's stopping rule (spec §3.4) */
            double opt = objective_value(&r, mo, L, a->param.nu);
            if (fabs(prev_opt - opt) < a->param.rel_tol * fabs(prev_opt)) {
                cv->stop = BL_STOP_STALL;
                break;
            }
            prev_opt = opt;
        }
    }
    if (touts)
        for (size_t j = 0; j < mo->t; j++)
            free(touts[j]);
    free(touts);
    run_free(&r, mo->t);
    return rc;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * StructBoost (spec §2): column generation (Algorithm 1) around a master
 * LP solved by 1-slack cutting planes (Algorithm 2), or for comparison the
 * m-slack LP over every constraint of an enumerable task (§2.7).  With
 * master = pairs the 1-slack master's cuts are kept disaggregated: a row
 * per (example, label) a round's cut counts, a slack per example, the
 * same stopping test; the same optimum in 1-2 re-solves per iteration
 * where Kelley's rounds need dozens once the columns number in the
 * hundreds (each column moves the per-example dual levels that the
 * aggregated cuts encode); its LP goes to Clp, held as its dual (lp.h).
 *
 * A column j is a base hypothesis phi_j fitted on one view of the task,
 * placed in one block of it; its outputs on the view's training and test
 * points are kept, so scores, new constraint rows and new column entries
 * are dot products (sinst.h).  Choices where the paper is silent (§8):
 *   - the initial dual weights put C/m on one random wrong label per
 *     example (the spec's recommendation, item 9), and that constraint
 *     (c = 1 for all i) is also the first row of the working set;
 *   - CG stops when the best learner's score is <= 1 + eps_cg (item 8);
 *   - the working set is kept across CG iterations (warm start), less the
 *     cuts idle for IDLE_MAX solves (SVM-struct's rule, spec §2.4
 *     optional); no arbitrary constraint is re-added on warm starts (10);
 *   - eps_cp is tightened only when column generation would stop (item 11;
 *     see the loop), so the dual stopping test sees an accurate master.
 * mu = lambda / m scaled as spec §1.5, so the score of a column with
 * w_j > 0 is 1 at the master optimum.
 *
 * columns = per-view (the CRF experiments of spec §4.6: "each iteration
 * adds one unary and one pairwise learner"): each iteration prices every
 * view on its own and adds each view's best column whose score exceeds
 * 1 + eps_cg, then solves the master once; the stopping test uses the best
 * score over the views, as with columns = best (the default: one column,
 * the best over all views and blocks).
 */
#include <boostlab/weak.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/loader.h"
#include "../util/clock.h"
#include "../util/fsutil.h"
#include "../util/rng.h"
#include "lp.h"
#include "sinst.h"
#include "structured.h"

typedef struct col {
    size_t view, block;
    void *hyp;
    double *out, *tout;   /* outputs on the view's training / test points */
} col;

/* The m-slack master's rows: one per (example, wrong label), each with the
 * terms of its dpsi. */
typedef struct mrows {
    size_t n, *start;     /* row r's terms are start[r]..start[r+1]       */
    uint32_t *view;
    uint64_t *cell;
    double *coef;
} mrows;

typedef struct sb {
    const bl_algo_spec *a;
    bl_sinst tr, te;
    int has_test;
    bl_sep sep;
    const struct bl_weak_ops *wo;
    void **learner;       /* one per view                                 */
    col *col;
    size_t ncol, capcol;
    bl_cut *cut;          /* 1-slack working set                          */
    int *idle;            /* consecutive solves each cut had no weight    */
    unsigned char **cy;   /* per cut: its m labels, then m in-flags (kept
                             only for a returned model: keep_cuts)        */
    int keep_cuts;
    size_t ncut, capcut;
    mrows mr;             /* m-slack rows, or the pairs master's pool     */
    int pairs;            /* master = pairs: 1-slack's LP disaggregated   */
    int *pidle;           /* pairs: consecutive solves each row idle      */
    size_t capr, capt;    /* rows and terms mr has room for               */
    bl_lp lp;
    double *x, *dual, *w;
    double **u;           /* pricing weights per view (cells)             */
    double *G;            /* one block's weights, gathered                */
    double *pred_scratch; /* metric values                                */
    unsigned char *pred;  /* predicted labels                             */
    uint64_t rng;
    double eps_cp;        /* the cutting-plane tolerance now (adaptive)   */
    double gap;           /* C (H - xi) at the last master solve          */
    int no_polish;        /* bl_structboost_fit without polish            */
} sb;

static uint64_t next_rnd(void *state)
{
    uint64_t *s = state;
    *s += 0x9e3779b97f4a7c15ULL;
    return bl_mix64(*s);
}

/* S = sum_j w_j out_j in each column's (view, block), on the training or
 * test points. */
static void scores(sb *b, bl_sinst *s, int test)
{
    bl_sinst_zero(s);
    /* points in chunks, each chunk adding the columns in index order: every
     * sum runs in the same order whatever the thread count (threads only
     * when the work is worth a team: once per cutting-plane round) */
    size_t work = 0, maxp = 0;
    for (size_t j = 0; j < b->ncol; j++) {
        size_t np = s->v[b->col[j].view].tv.points.m;
        work += b->w[j] != 0.0 ? np : 0;
        maxp = np > maxp ? np : maxp;
    }
    const long CH = 2048;
    long nch = (long)((maxp + (size_t)CH - 1) / (size_t)CH);
#pragma omp parallel for schedule(static) if (work > 200000 && nch > 1)
    for (long ch = 0; ch < nch; ch++) {
        for (size_t j = 0; j < b->ncol; j++) {
            const col *c = &b->col[j];
            double wj = b->w[j];
            if (wj == 0.0)
                continue;
            size_t B = s->v[c->view].tv.blocks, np = s->v[c->view].tv.points.m;
            size_t r0 = (size_t)ch * (size_t)CH, r1 = r0 + (size_t)CH < np ? r0 + (size_t)CH : np;
            double *S = s->S[c->view];
            const double *o = test ? c->tout : c->out;
            if (B == 1) { /* one block (most tasks): a contiguous, vectorised loop */
#pragma omp simd
                for (size_t r = r0; r < r1; r++)
                    S[r] += wj * o[r];
            } else {
                for (size_t r = r0; r < r1; r++)
                    S[r * B + c->block] += wj * o[r];
            }
        }
    }
}

static void ensure_pred(sb *b)
{
    size_t need = b->tr.m * b->tr.lbytes;
    if (b->has_test && b->te.m * b->te.lbytes > need)
        need = b->te.m * b->te.lbytes;
    b->pred = bl_xrealloc(b->pred, need ? need : 1);
}

/* ---- pricing (the weak learner oracle) -------------------------------- */

/* Best (view, block, phi) for the weights b->u, over every view or only
 * view `only` (SIZE_MAX: all); *edge its score S(psi) = sum_r u_r phi(z_r).
 * Returns 0, 1 when no block has a nonzero weight, -1 on error. */
static int price(sb *b, uint64_t seed, size_t only, col *best, double *edge, bl_error *err)
{
    *edge = -1.0;
    memset(best, 0, sizeof *best);
    for (size_t v = 0; v < b->tr.nviews; v++) {
        if (only != SIZE_MAX && v != only)
            continue;
        const bl_sview *sv = &b->tr.v[v];
        size_t np = sv->tv.points.m, B = sv->tv.blocks;
        for (size_t bl = 0; bl < B; bl++) {
            int any = 0;
            for (size_t r = 0; r < np; r++) {
                b->G[r] = b->u[v][r * B + bl];
                any |= b->G[r] != 0.0;
            }
            if (!any)
                continue;
            double *out = bl_xmalloc(np * sizeof *out);
            struct bl_fit_request req;
            memset(&req, 0, sizeof req);
            req.G = b->G;
            req.c = 1;
            req.seed = bl_seed_derive(seed, "block", v * 1000003u + bl);
            struct bl_fit_result res;
            memset(&res, 0, sizeof res);
            res.out = out;
            char perr[BL_ERR_MAX] = "";
            if (b->wo->fit(b->learner[v], &req, &res, perr) < 0) {
                free(out);
                return bl_errf(err, "weak learner %s on view %s, block %zu: %s",
                               b->a->weak.plugin->name, sv->tv.name, bl, perr);
            }
            if (res.outdim != 1) {
                b->wo->free_hyp(res.hyp);
                free(out);
                return bl_errf(err, "weak learner %s answered with %zu outputs per point; "
                               "StructBoost lifts single-output learners (outdim 1)",
                               b->a->weak.plugin->name, res.outdim);
            }
            bl_fit_result_expand(&res, np); /* its outputs dense in out (weak.h) */
            /* the score from the outputs themselves: what the master sees */
            double s = 0.0;
            for (size_t r = 0; r < np; r++)
                s += b->G[r] * out[r];
            if (s > *edge + 1e-12 * fabs(s)) {
                if (best->hyp) {
                    b->wo->free_hyp(best->hyp);
                    free(best->out);
                }
                *edge = s;
                best->view = v;
                best->block = bl;
                best->hyp = res.hyp;
                best->out = out;
            } else {
                b->wo->free_hyp(res.hyp);
                free(out);
            }
        }
    }
    return best->hyp ? 0 : 1;
}

/* ---- the two masters --------------------------------------------------- */

/* Column c into the master (its entries in every row) and into b->col. */
static void add_column(sb *b, const col *c)
{
    bl_lp *lp = &b->lp;
    double *a = bl_xcalloc(lp->rows ? lp->rows : 1, sizeof *a);
    if (!b->a->mslack && !b->pairs) {
        for (size_t k = 0; k < b->ncut; k++)
            a[k] = bl_cut_dot(&b->cut[k], &b->tr, c->view, c->block, c->out);
    } else {
        size_t B = b->tr.v[c->view].tv.blocks;
        for (size_t r = 0; r < b->mr.n; r++)
            for (size_t e = b->mr.start[r]; e < b->mr.start[r + 1]; e++)
                if (b->mr.view[e] == c->view && b->mr.cell[e] % B == c->block)
                    a[r] += b->mr.coef[e] * c->out[b->mr.cell[e] / B];
    }
    bl_lp_add_col(lp, 1.0, a);
    free(a);
    if (b->ncol == b->capcol) {
        b->capcol = b->capcol ? 2 * b->capcol : 64;
        b->col = bl_xrealloc(b->col, b->capcol * sizeof *b->col);
    }
    b->col[b->ncol++] = *c;
}

/* The columns grouped by (view, block): the columns of group q (view v's
 * block k is q = first[v] + k) are order[start[q] .. start[q + 1]). */
typedef struct colidx {
    size_t *first, *start, *order;
} colidx;

static void colidx_build(const sb *b, colidx *ix)
{
    size_t nvb = 0;
    ix->first = bl_xcalloc(b->tr.nviews + 1, sizeof *ix->first);
    for (size_t v = 0; v < b->tr.nviews; v++) {
        ix->first[v] = nvb;
        nvb += b->tr.v[v].tv.blocks;
    }
    ix->first[b->tr.nviews] = nvb;
    ix->start = bl_xcalloc(nvb + 1, sizeof *ix->start);
    ix->order = bl_xmalloc((b->ncol + 1) * sizeof *ix->order);
    for (size_t j = 0; j < b->ncol; j++)
        ix->start[ix->first[b->col[j].view] + b->col[j].block + 1]++;
    for (size_t q = 0; q < nvb; q++)
        ix->start[q + 1] += ix->start[q];
    size_t *fill = bl_xmalloc((nvb + 1) * sizeof *fill);
    memcpy(fill, ix->start, (nvb + 1) * sizeof *fill);
    for (size_t j = 0; j < b->ncol; j++)
        ix->order[fill[ix->first[b->col[j].view] + b->col[j].block]++] = j;
    free(fill);
}

static void colidx_free(colidx *ix)
{
    free(ix->first);
    free(ix->start);
    free(ix->order);
}

/* a[off + j] += coef * (column j's output at `point`) for every column j
 * of (view, block). */
static void add_entry(const sb *b, const colidx *ix, size_t view, size_t point, size_t block,
                      double coef, double *a, size_t off)
{
    size_t q = ix->first[view] + block;
    for (size_t o = ix->start[q]; o < ix->start[q + 1]; o++) {
        size_t j = ix->order[o];
        a[off + j] += coef * b->col[j].out[point];
    }
}

/* rec: the cut's labels and in-flags (m lbytes + m bytes; taken over), or
 * NULL when cuts are not kept. */
static void add_cut(sb *b, bl_cut *cut, unsigned char *rec)
{
    if (b->ncut == b->capcut) {
        b->capcut = b->capcut ? 2 * b->capcut : 32;
        b->cut = bl_xrealloc(b->cut, b->capcut * sizeof *b->cut);
        b->idle = bl_xrealloc(b->idle, b->capcut * sizeof *b->idle);
        b->cy = bl_xrealloc(b->cy, b->capcut * sizeof *b->cy);
    }
    b->idle[b->ncut] = 0;
    b->cy[b->ncut] = rec;
    b->cut[b->ncut++] = *cut;
    /* the cut's coefficient on every column in one pass over its entries,
     * each entry meeting only the columns of its own block */
    colidx ix;
    colidx_build(b, &ix);
    double *a = bl_xcalloc(b->ncol + 1, sizeof *a);
    a[0] = 1.0; /* xi */
    for (size_t e = 0; e < cut->nnz; e++) {
        size_t v = cut->view[e], B = b->tr.v[v].tv.blocks;
        add_entry(b, &ix, v, cut->cell[e] / B, cut->cell[e] % B, cut->coef[e], a, 1);
    }
    bl_lp_add_row(&b->lp, a, cut->b);
    free(a);
    colidx_free(&ix);
}

/* Append one row of terms to mr (the m-slack rows or the pairs pool). */
static void mr_push(sb *b, const struct bl_task_term *t, size_t n)
{
    mrows *r = &b->mr;
    if (r->n + 2 > b->capr) {
        b->capr = b->capr ? 2 * b->capr : 1024;
        r->start = bl_xrealloc(r->start, b->capr * sizeof *r->start);
        b->pidle = bl_xrealloc(b->pidle, b->capr * sizeof *b->pidle);
        r->start[0] = 0;
    }
    size_t nt = r->start[r->n];
    if (nt + n > b->capt) {
        b->capt = 2 * (nt + n);
        r->view = bl_xrealloc(r->view, b->capt * sizeof *r->view);
        r->cell = bl_xrealloc(r->cell, b->capt * sizeof *r->cell);
        r->coef = bl_xrealloc(r->coef, b->capt * sizeof *r->coef);
    }
    for (size_t e = 0; e < n; e++) {
        r->view[nt] = t[e].view;
        r->cell[nt] = t[e].point * b->tr.v[t[e].view].tv.blocks + t[e].block;
        r->coef[nt++] = t[e].coef;
    }
    b->pidle[r->n] = 0;
    r->start[++r->n] = nt;
}

/* dpsi_i(y)'s terms into b->sep.terms; returns their number. */
static size_t dpsi_terms(sb *b, size_t i, const unsigned char *y)
{
    bl_sinst *s = &b->tr;
    size_t n = s->ops->dpsi(s->inst, i, y, b->sep.terms, b->sep.tcap);
    if (n > b->sep.tcap) {
        b->sep.tcap = n;
        b->sep.terms = bl_xrealloc(b->sep.terms, n * sizeof *b->sep.terms);
        n = s->ops->dpsi(s->inst, i, y, b->sep.terms, b->sep.tcap);
    }
    return n;
}

/* Scratch for one row over the columns: its dense coefficients, then the
 * sparse form the LP takes. */
typedef struct rowbuf {
    double *a, *val;
    size_t *ci;
} rowbuf;

static void rowbuf_init(rowbuf *r, size_t ncol)
{
    r->a = bl_xmalloc((ncol + 1) * sizeof *r->a);
    r->val = bl_xmalloc((ncol + 1) * sizeof *r->val);
    r->ci = bl_xmalloc((ncol + 1) * sizeof *r->ci);
}

static void rowbuf_free(rowbuf *r)
{
    free(r->a);
    free(r->val);
    free(r->ci);
}

/* The row of (example i, label y),
 *   xi_i + dpsi_i(y)^T w >= Delta(y_i, y),
 * into lp, whose columns are the m slacks, then w; dpsi's terms stay in
 * b->sep.terms.  Returns their number. */
static size_t pair_row(sb *b, const colidx *ix, size_t i, const unsigned char *y, rowbuf *r,
                       bl_lp *lp)
{
    size_t n = dpsi_terms(b, i, y), k = 0;
    memset(r->a, 0, (b->ncol + 1) * sizeof *r->a);
    for (size_t e = 0; e < n; e++) {
        const struct bl_task_term *t = &b->sep.terms[e];
        add_entry(b, ix, t->view, t->point, t->block, t->coef, r->a, 0);
    }
    r->ci[k] = i;
    r->val[k++] = 1.0;
    for (size_t j = 0; j < b->ncol; j++)
        if (r->a[j] != 0.0) {
            r->ci[k] = b->tr.m + j;
            r->val[k++] = r->a[j];
        }
    bl_lp_add_row_sparse(lp, r->ci, r->val, k, b->tr.ops->loss(b->tr.inst, i, y));
    return n;
}

/* Pairs master: a row, in the pool and the LP, for every example whose
 * hinge at the current model (sep.h, labels sep.ybar) exceeds its slack
 * x[i]: the 1-slack cut of this round, kept disaggregated. */
static void pairs_add_violated(sb *b)
{
    colidx ix;
    colidx_build(b, &ix);
    rowbuf r;
    rowbuf_init(&r, b->ncol);
    for (size_t i = 0; i < b->tr.m; i++)
        if (b->sep.h[i] > b->x[i] + 1e-9 * (1.0 + b->sep.h[i]))
            mr_push(b, b->sep.terms,
                    pair_row(b, &ix, i, b->sep.ybar + i * b->tr.lbytes, &r, &b->lp));
    rowbuf_free(&r);
    colidx_free(&ix);
}

/* Rows (cuts or pairs) idle this many solves in a row leave the master. */
#define IDLE_MAX 50

/* Pairs master's start: the m slack columns (cost C/m) and one row per
 * example with its starting label (sep.ybar), the disaggregated first cut. */
static void pairs_init(sb *b)
{
    for (size_t i = 0; i < b->tr.m; i++)
        bl_lp_add_col(&b->lp, b->a->C / (double)b->tr.m, NULL);
    colidx ix;
    colidx_build(b, &ix);
    rowbuf r;
    rowbuf_init(&r, b->ncol);
    for (size_t i = 0; i < b->tr.m; i++)
        mr_push(b, b->sep.terms,
                pair_row(b, &ix, i, b->sep.ybar + i * b->tr.lbytes, &r, &b->lp));
    rowbuf_free(&r);
    colidx_free(&ix);
}

/* Right after a solve: count another solve for each of the n rows with
 * no dual weight (idle), flag in del those idle for IDLE_MAX solves and
 * delete them from the LP.  Returns how many. */
static size_t drop_idle(sb *b, int *idle, size_t n, unsigned char *del)
{
    size_t ndel = 0;
    for (size_t k = 0; k < n; k++) {
        idle[k] = b->dual[k] > 0.0 ? 0 : idle[k] + 1;
        del[k] = idle[k] >= IDLE_MAX;
        ndel += del[k];
    }
    if (ndel)
        bl_lp_del_rows(&b->lp, del);
    return ndel;
}

/* Pairs master: drop pool rows idle for IDLE_MAX solves, as prune_cuts. */
static void prune_pairs(sb *b)
{
    mrows *r = &b->mr;
    unsigned char *del = bl_xcalloc(r->n ? r->n : 1, 1);
    size_t keep = 0, nt = 0;
    if (drop_idle(b, b->pidle, r->n, del)) {
        for (size_t k = 0; k < r->n; k++) {
            if (del[k])
                continue;
            size_t s0 = r->start[k], s1 = r->start[k + 1];
            r->start[keep] = nt;
            memmove(r->view + nt, r->view + s0, (s1 - s0) * sizeof *r->view);
            memmove(r->cell + nt, r->cell + s0, (s1 - s0) * sizeof *r->cell);
            memmove(r->coef + nt, r->coef + s0, (s1 - s0) * sizeof *r->coef);
            nt += s1 - s0;
            b->pidle[keep] = b->pidle[k];
            b->dual[keep++] = b->dual[k];
        }
        r->start[keep] = nt;
        r->n = keep;
    }
    free(del);
}

/* Drop cuts that had no weight for IDLE_MAX solves in a row, as SVM-struct
 * does, so the master stays small: without it the working set grows by
 * every cutting-plane round of every CG iteration (thousands of rows), and
 * the re-solves dominate.  A dropped cut that matters again is simply
 * found again by the separation oracle.  Call right after a solve. */
static void prune_cuts(sb *b)
{
    unsigned char *del = bl_xcalloc(b->ncut ? b->ncut : 1, 1);
    size_t keep = 0;
    if (drop_idle(b, b->idle, b->ncut, del)) {
        for (size_t k = 0; k < b->ncut; k++) {
            if (del[k]) {
                bl_cut_free(&b->cut[k]);
                free(b->cy[k]);
                continue;
            }
            b->cut[keep] = b->cut[k];
            b->cy[keep] = b->cy[k];
            b->idle[keep] = b->idle[k];
            b->dual[keep++] = b->dual[k];
        }
        b->ncut = keep;
    }
    free(del);
}

static void grow_x(sb *b)
{
    b->x = bl_xrealloc(b->x, (b->lp.cols ? b->lp.cols : 1) * sizeof *b->x);
    b->dual = bl_xrealloc(b->dual, (b->lp.rows ? b->lp.rows : 1) * sizeof *b->dual);
    b->w = bl_xrealloc(b->w, (b->ncol ? b->ncol : 1) * sizeof *b->w);
}

/* The labels and in-flags of the cut bl_sep_cut(all) is about to make,
 * when the cuts are kept for a returned model. */
static unsigned char *cut_record(const sb *b, int all)
{
    if (!b->keep_cuts)
        return NULL;
    size_t m = b->tr.m, lb = b->tr.lbytes;
    unsigned char *rec = bl_xmalloc(m * lb + m);
    memcpy(rec, b->sep.ybar, m * lb);
    for (size_t i = 0; i < m; i++)
        rec[m * lb + i] = all || b->sep.h[i] > 0.0;
    return rec;
}

/* Solve the master over the current columns.  1-slack: cutting planes
 * until the exact average hinge H is within eps_cp of xi.  Leaves w, the
 * training scores at w, u (pricing weights) and returns the primal
 * objective f(w) = sum w + C H; *iters = cutting-plane rounds. */
static int master(sb *b, double *f, int *iters, bl_error *err)
{
    const bl_algo_spec *a = b->a;
    size_t m = b->tr.m, off = a->mslack || b->pairs ? m : 1; /* slack columns first */
    double H = 0.0, xi = 0.0;
    *iters = 0;
    for (;;) {
        grow_x(b);
        if (bl_lp_solve(&b->lp, b->x, b->dual, NULL, err) < 0)
            return -1;
        (*iters)++;
        if (b->pairs)
            prune_pairs(b);
        else if (!a->mslack)
            prune_cuts(b);
        for (size_t j = 0; j < b->ncol; j++)
            b->w[j] = b->x[off + j] > 0.0 ? b->x[off + j] : 0.0;
        scores(b, &b->tr, 0);
        H = bl_sep_run(&b->sep, &b->tr);
        /* the 1-slack slack: xi, or the mean of the pairs' slacks */
        xi = b->x[0];
        if (b->pairs) {
            xi = 0.0;
            for (size_t i = 0; i < m; i++)
                xi += b->x[i];
            xi /= (double)m;
        }
        if (a->mslack || H <= xi + b->eps_cp)
            break;
        if (*iters >= 100000)
            return bl_errf(err, "cutting planes did not reach eps_cp = %g in %d rounds "
                           "(hinge %g, slack %g)", b->eps_cp, *iters, H, xi);
        if (b->pairs) {
            pairs_add_violated(b);
            continue;
        }
        bl_cut cut;
        bl_sep_cut(&b->sep, &b->tr, 0, &cut);
        add_cut(b, &cut, cut_record(b, 0));
    }
    double sw = 0.0;
    for (size_t j = 0; j < b->ncol; j++)
        sw += b->w[j];
    *f = sw + a->C * H;
    b->gap = a->mslack ? 0.0 : a->C * (H - xi);
    /* pricing weights u = sum_k lambda_k A_k (1-slack), or the row duals
     * times their terms (m-slack, pairs) */
    for (size_t v = 0; v < b->tr.nviews; v++)
        memset(b->u[v], 0, bl_sinst_cells(&b->tr, v) * sizeof(double));
    if (!a->mslack && !b->pairs) {
        for (size_t k = 0; k < b->ncut; k++) {
            double l = b->dual[k];
            if (!(l > 0.0))
                continue;
            const bl_cut *c = &b->cut[k];
            for (size_t e = 0; e < c->nnz; e++)
                b->u[c->view[e]][c->cell[e]] += l * c->coef[e];
        }
    } else {
        for (size_t r = 0; r < b->mr.n; r++) {
            double mu = b->dual[r];
            if (!(mu > 0.0))
                continue;
            for (size_t e = b->mr.start[r]; e < b->mr.start[r + 1]; e++)
                b->u[b->mr.view[e]][b->mr.cell[e]] += mu * b->mr.coef[e];
        }
    }
    return 0;
}

/* Every (example, wrong label) as a row of the m-slack LP:
 *   dpsi_i(y)^T w + xi_i >= Delta(y_i, y),  xi_i a column of cost C/m. */
static int mslack_rows(sb *b, bl_error *err)
{
    bl_sinst *s = &b->tr;
    if (!s->ops->alternatives)
        return bl_errf(err, "task %s cannot enumerate its labels (no alternatives), which the "
                       "m-slack formulation needs; use formulation = 1-slack",
                       s->plugin->name);
    for (size_t i = 0; i < s->m; i++)
        bl_lp_add_col(&b->lp, b->a->C / (double)s->m, NULL);
    unsigned char *y = bl_xmalloc(s->lbytes);
    for (size_t i = 0; i < s->m; i++) {
        size_t na = s->ops->alternatives(s->inst, i, 0, NULL);
        for (size_t t = 0; t < na; t++) {
            s->ops->alternatives(s->inst, i, t, y);
            mr_push(b, b->sep.terms, dpsi_terms(b, i, y));
            size_t xi = i;
            double one = 1.0;
            bl_lp_add_row_sparse(&b->lp, &xi, &one, 1, s->ops->loss(s->inst, i, y));
        }
    }
    free(y);
    return 0;
}

/* check_mslack: the m-slack LP (every example and wrong label) over the
 * run's columns so far, built and solved from scratch: the optimum that
 * any master over these columns must reach.  *fm its objective. */
static int mslack_optimum(sb *b, double *fm, bl_error *err)
{
    bl_sinst *s = &b->tr;
    if (!s->ops->alternatives)
        return bl_errf(err, "check_mslack: task %s cannot enumerate its labels",
                       s->plugin->name);
    bl_lp lp;
    bl_lp_init(&lp);
    size_t m = s->m;
    for (size_t i = 0; i < m; i++)
        bl_lp_add_col(&lp, b->a->C / (double)m, NULL);
    for (size_t j = 0; j < b->ncol; j++)
        bl_lp_add_col(&lp, 1.0, NULL);
    colidx ix;
    colidx_build(b, &ix);
    unsigned char *y = bl_xmalloc(s->lbytes);
    rowbuf r;
    rowbuf_init(&r, b->ncol);
    for (size_t i = 0; i < m; i++) {
        size_t na = s->ops->alternatives(s->inst, i, 0, NULL);
        for (size_t t = 0; t < na; t++) {
            s->ops->alternatives(s->inst, i, t, y);
            pair_row(b, &ix, i, y, &r, &lp);
        }
    }
    int rc = bl_lp_solve(&lp, NULL, NULL, fm, err);
    free(y);
    rowbuf_free(&r);
    colidx_free(&ix);
    bl_lp_free(&lp);
    return rc;
}

/* ---- the run ------------------------------------------------------------- */

static void sb_free(sb *b)
{
    for (size_t j = 0; j < b->ncol; j++) {
        if (b->col[j].hyp) /* NULL once handed to a bl_sb_model */
            b->wo->free_hyp(b->col[j].hyp);
        free(b->col[j].out);
        free(b->col[j].tout);
    }
    free(b->col);
    for (size_t k = 0; k < b->ncut; k++) {
        bl_cut_free(&b->cut[k]);
        free(b->cy[k]);
    }
    free(b->cut);
    free(b->cy);
    free(b->idle);
    free(b->mr.start);
    free(b->mr.view);
    free(b->mr.cell);
    free(b->mr.coef);
    free(b->pidle);
    for (size_t v = 0; b->learner && v < b->tr.nviews; v++)
        if (b->learner[v])
            b->wo->destroy(b->learner[v]);
    free(b->learner);
    for (size_t v = 0; b->u && v < b->tr.nviews; v++)
        free(b->u[v]);
    free(b->u);
    free(b->G);
    free(b->x);
    free(b->dual);
    free(b->w);
    free(b->pred);
    free(b->pred_scratch);
    bl_lp_free(&b->lp);
    if (b->tr.inst)
        bl_sep_free(&b->sep, &b->tr);
    bl_sinst_close(&b->tr);
    if (b->has_test)
        bl_sinst_close(&b->te);
}

/* Record one curve entry at the current model. */
static void record(sb *b, bl_curve *cv, double f, double edge, int iters, double tw, double tc,
                   double t0)
{
    bl_curve_push(cv);
    size_t n = cv->n - 1;
    cv->train_loss[n] = f;
    cv->train_err[n] = bl_sinst_metrics(&b->tr, b->pred, b->pred_scratch);
    if (b->has_test) {
        scores(b, &b->te, 1);
        cv->test_err[n] = bl_sinst_metrics(&b->te, b->pred, b->pred_scratch);
    } else {
        cv->test_err[n] = NAN;
    }
    cv->edge[n] = edge;
    cv->solver_iters[n] = iters;
    cv->trees[n] = b->ncol;
    cv->t_weak[n] = tw;
    cv->t_coef[n] = tc;
    cv->t_book[n] = bl_seconds() - t0;
}

/* Final metrics on both parts. */
static void final_metrics(sb *b, bl_metrics *met)
{
    size_t n = b->tr.nmetrics;
    double *tr = bl_xmalloc(n * sizeof *tr), *te = bl_xmalloc(n * sizeof *te);
    scores(b, &b->tr, 0);
    bl_sinst_metrics(&b->tr, b->pred, tr);
    for (size_t j = 0; j < n; j++)
        te[j] = NAN;
    if (b->has_test) {
        scores(b, &b->te, 1);
        bl_sinst_metrics(&b->te, b->pred, te);
    }
    bl_metrics_set(met, b->tr.metric, n, tr, te);
    free(tr);
    free(te);
}

/* The model's working set, rebuilt on this training part (example i here
 * was example i + drop there; examples past its end add nothing).  Cuts
 * left with no example are skipped.  Before the columns: add_column fills
 * their entries in every row. */
static void carry_cuts(sb *b, const bl_sb_model *mo)
{
    size_t m = b->tr.m, lb = b->tr.lbytes, om = mo->cut_m;
    if (!b->keep_cuts || b->pairs || !mo->ncut || mo->cut_lbytes != lb || mo->drop >= om)
        return;
    for (size_t k = 0; k < mo->ncut; k++) {
        unsigned char *rec = bl_xcalloc(m * lb + m, 1);
        size_t any = 0;
        for (size_t i = 0; i < m && i + mo->drop < om; i++) {
            size_t io = i + mo->drop;
            rec[m * lb + i] = mo->cut_in[k * om + io];
            memcpy(rec + i * lb, mo->cut_y + (k * om + io) * lb, lb);
            any += rec[m * lb + i] != 0;
        }
        if (!any) {
            free(rec);
            continue;
        }
        bl_cut cut;
        bl_sep_cut_of(&b->sep, &b->tr, rec, rec + m * lb, &cut);
        add_cut(b, &cut, rec);
    }
}

/* The columns of a model given as a warm start, re-evaluated on this
 * training part and added to the master, which is then solved once so the
 * loop below prices against their duals.  The model's hypotheses move into
 * b (the model is left empty). */
static int warm_start(sb *b, bl_sb_model *mo, double *f, bl_error *err)
{
    carry_cuts(b, mo);
    for (size_t j = 0; j < mo->n; j++) {
        col c;
        memset(&c, 0, sizeof c);
        if (mo->view[j] >= b->tr.nviews ||
            mo->block[j] >= b->tr.v[mo->view[j]].tv.blocks)
            return bl_errf(err, "warm start: column %zu sits in view %zu, block %zu, which "
                           "task %s does not have", j, mo->view[j], mo->block[j],
                           b->tr.plugin->name);
        c.view = mo->view[j];
        c.block = mo->block[j];
        c.hyp = mo->hyp[j];
        mo->hyp[j] = NULL;
        const struct bl_matrix *P = &b->tr.v[c.view].tv.points;
        c.out = bl_xmalloc((P->m ? P->m : 1) * sizeof *c.out);
        b->wo->predict(c.hyp, P, c.out);
        add_column(b, &c);
    }
    bl_sb_model_free(mo);
    if (!b->ncol)
        return 0;
    int iters = 0;
    return master(b, f, &iters, err);
}

/* Hand the columns with w_j > 0 to mo (the others are dropped: an l1
 * master leaves most at 0, and a tracker retrained every few frames would
 * otherwise carry every column it ever priced). */
static void take_model(sb *b, bl_sb_model *mo)
{
    memset(mo, 0, sizeof *mo);
    mo->wo = b->wo;
    size_t n = 0;
    for (size_t j = 0; j < b->ncol; j++)
        n += b->w && b->w[j] > 0.0;
    mo->view = bl_xmalloc((n ? n : 1) * sizeof *mo->view);
    mo->block = bl_xmalloc((n ? n : 1) * sizeof *mo->block);
    mo->hyp = bl_xmalloc((n ? n : 1) * sizeof *mo->hyp);
    mo->w = bl_xmalloc((n ? n : 1) * sizeof *mo->w);
    for (size_t j = 0; j < b->ncol; j++) {
        if (!(b->w && b->w[j] > 0.0))
            continue;
        mo->view[mo->n] = b->col[j].view;
        mo->block[mo->n] = b->col[j].block;
        mo->hyp[mo->n] = b->col[j].hyp;
        mo->w[mo->n++] = b->w[j];
        b->col[j].hyp = NULL;
    }
    if (!b->keep_cuts || !b->ncut)
        return;
    size_t m = b->tr.m, lb = b->tr.lbytes;
    mo->ncut = b->ncut;
    mo->cut_m = m;
    mo->cut_lbytes = lb;
    mo->cut_y = bl_xmalloc(b->ncut * m * lb);
    mo->cut_in = bl_xmalloc(b->ncut * m);
    for (size_t k = 0; k < b->ncut; k++) {
        memcpy(mo->cut_y + k * m * lb, b->cy[k], m * lb);
        memcpy(mo->cut_in + k * m, b->cy[k] + m * lb, m);
    }
}

static int sb_run(const bl_method_cfg *cfg, const bl_dataset *train, const bl_dataset *test,
                  int max_bins, bl_curve *cv, bl_metrics *met, bl_sb_model *model, int polish,
                  bl_error *err);

int bl_structboost(const bl_method_cfg *cfg, const bl_dataset *train, const bl_dataset *test,
                   int max_bins, bl_curve *cv, bl_metrics *met, bl_error *err)
{
    return sb_run(cfg, train, test, max_bins, cv, met, NULL, 1, err);
}

int bl_structboost_fit(const bl_method_cfg *cfg, const bl_dataset *train, int max_bins,
                       int polish, bl_sb_model *model, bl_curve *cv, bl_metrics *met,
                       bl_error *err)
{
    return sb_run(cfg, train, NULL, max_bins, cv, met, model, polish, err);
}

void bl_sb_model_free(bl_sb_model *mo)
{
    for (size_t j = 0; j < mo->n; j++)
        if (mo->hyp[j])
            mo->wo->free_hyp(mo->hyp[j]);
    free(mo->view);
    free(mo->block);
    free(mo->hyp);
    free(mo->w);
    free(mo->cut_y);
    free(mo->cut_in);
    const struct bl_weak_ops *wo = mo->wo;
    memset(mo, 0, sizeof *mo);
    mo->wo = wo;
}

void bl_sb_model_scores(const bl_sb_model *mo, size_t view, size_t block,
                        const struct bl_matrix *X, double *S)
{
    memset(S, 0, X->m * sizeof *S);
    double *o = bl_xmalloc((X->m ? X->m : 1) * sizeof *o);
    for (size_t j = 0; j < mo->n; j++) {
        if (mo->view[j] != view || mo->block[j] != block)
            continue;
        mo->wo->predict(mo->hyp[j], X, o);
        for (size_t r = 0; r < X->m; r++)
            S[r] += mo->w[j] * o[r];
    }
    free(o);
}

static int sb_run(const bl_method_cfg *cfg, const bl_dataset *train, const bl_dataset *test,
                  int max_bins, bl_curve *cv, bl_metrics *met, bl_sb_model *model,
                  int do_polish, bl_error *err)
{
    const bl_algo_spec *a = cfg->algo;
    sb b;
    memset(&b, 0, sizeof b);
    memset(cv, 0, sizeof *cv);
    b.a = a;
    b.no_polish = !do_polish;
    b.keep_cuts = model != NULL;
    b.wo = a->weak.plugin->ops;
    b.pairs = a->master_dual == BL_MASTER_PAIRS && !a->mslack;
    /* the pairs master on Clp through its dual LP (a basis of one row per
     * slack and column, not per pool row): on letter (26 classes) 6x less
     * time than GLPK on the pairs LP, and no slower on the smaller sets
     * (docs/results-structboost.md, issue 32) */
    bl_lp_init_with(&b.lp, b.pairs ? BL_LP_CLP : BL_LP_GLPK,
                    a->master_dual == BL_MASTER_DUAL || b.pairs);
    int rc = bl_sinst_open(&b.tr, &a->task, train, max_bins, err);
    if (rc == 0 && test && test->m) {
        rc = bl_sinst_open(&b.te, &a->task, test, 0, err);
        b.has_test = rc == 0;
        if (rc == 0 && b.te.nviews != b.tr.nviews)
            rc = bl_errf(err, "task %s gives %zu views on the training part but %zu on the "
                         "test part", a->task.plugin->name, b.tr.nviews, b.te.nviews);
    }
    if (rc < 0) {
        sb_free(&b);
        return -1;
    }
    bl_sep_init(&b.sep, &b.tr);
    ensure_pred(&b);
    b.pred_scratch = bl_xmalloc(b.tr.nmetrics * sizeof *b.pred_scratch);
    b.learner = bl_xcalloc(b.tr.nviews, sizeof *b.learner);
    b.u = bl_xcalloc(b.tr.nviews, sizeof *b.u);
    size_t maxp = 1;
    for (size_t v = 0; v < b.tr.nviews && rc == 0; v++) {
        char perr[BL_ERR_MAX] = "";
        b.u[v] = bl_xcalloc(bl_sinst_cells(&b.tr, v), sizeof(double));
        if (b.tr.v[v].tv.points.m > maxp)
            maxp = b.tr.v[v].tv.points.m;
        b.learner[v] = b.wo->create(&bl_host_api, a->weak.v, &b.tr.v[v].train, perr);
        if (!b.learner[v])
            rc = bl_errf(err, "weak learner %s on view %s: %s", a->weak.plugin->name,
                         b.tr.v[v].tv.name, perr[0] ? perr : "create failed");
    }
    b.G = bl_xmalloc(maxp * sizeof *b.G);
    b.rng = bl_seed_derive(cfg->seed, "structboost-init", 0);

    /* the starting dual point: C/m on one random wrong label per example */
    if (rc == 0) {
        for (size_t i = 0; i < b.tr.m; i++)
            b.tr.ops->random_label(b.tr.inst, i, next_rnd, &b.rng,
                                   b.sep.ybar + i * b.tr.lbytes);
        bl_cut c0;
        bl_sep_cut(&b.sep, &b.tr, 1, &c0);
        for (size_t e = 0; e < c0.nnz; e++)
            b.u[c0.view[e]][c0.cell[e]] += a->C * c0.coef[e];
        if (a->mslack) {
            bl_cut_free(&c0);
            rc = mslack_rows(&b, err);
        } else if (b.pairs) {
            bl_cut_free(&c0);
            pairs_init(&b);
        } else {
            bl_lp_add_col(&b.lp, a->C, NULL); /* xi */
            add_cut(&b, &c0, cut_record(&b, 1));
        }
    }
    /* the empty model */
    if (rc == 0) {
        bl_sinst_zero(&b.tr);
        cv->train_loss0 = a->C * bl_sep_run(&b.sep, &b.tr);
        cv->train_err0 = bl_sinst_metrics(&b.tr, b.pred, b.pred_scratch);
        cv->test_err0 = NAN;
        if (b.has_test) {
            bl_sinst_zero(&b.te);
            cv->test_err0 = bl_sinst_metrics(&b.te, b.pred, b.pred_scratch);
        }
    }
    int T = cfg->iterations;
    double last_f = 0.0, polish = 0.0; /* polish: time of extra master solves */
    b.eps_cp = a->eps_cp;
    /* candidate columns of one iteration: one, or one per view */
    size_t ncand = 0, maxcand = a->per_view ? b.tr.nviews : 1;
    col *cand = bl_xcalloc(maxcand, sizeof *cand);
    double *cedge = bl_xcalloc(maxcand, sizeof *cedge);
    if (rc == 0 && model && model->n)
        rc = warm_start(&b, model, &last_f, err);
    for (int t = 0; t < T && rc == 0; t++) {
        double t0 = bl_seconds();
        col c;
        double edge = -1.0;
        int pr = 1;
        uint64_t pseed = bl_seed_derive(cfg->seed, "structboost", (uint64_t)t);
        ncand = 0;
        for (size_t v = 0; v < maxcand && pr >= 0; v++) {
            int r = price(&b, pseed, a->per_view ? v : SIZE_MAX, &cand[ncand], &cedge[ncand],
                          err);
            if (r < 0) {
                pr = -1;
            } else if (r == 0) {
                if (pr == 1 || cedge[ncand] > edge)
                    edge = cedge[ncand];
                pr = 0;
                ncand++;
            }
        }
        if (pr < 0) {
            for (size_t k = 0; k < ncand; k++) {
                b.wo->free_hyp(cand[k].hyp);
                free(cand[k].out);
            }
            rc = -1;
            break;
        }
        /* c: the best candidate (the only one unless per-view) */
        memset(&c, 0, sizeof c);
        for (size_t k = 0; k < ncand; k++)
            if (cedge[k] == edge) {
                c = cand[k];
                break;
            }
        double t1 = bl_seconds();
        /* Adaptive eps_cp (spec §2.5; the rule is ours): the dual test below
         * is only as good as the master's solution, whose objective may be
         * C eps_cp too high.  So before stopping, solve the master to 1e-3
         * of the objective, tightening eps_cp tenfold at a time, and price
         * again. */
        if (!b.no_polish && b.ncol && (pr == 1 || edge <= 1.0 + a->eps_cg) &&
            b.gap > 1e-3 * last_f &&
            b.eps_cp > 1e-9) {
            for (size_t k = 0; k < ncand; k++) {
                b.wo->free_hyp(cand[k].hyp);
                free(cand[k].out);
            }
            b.eps_cp /= 10.0;
            int iters = 0;
            if (master(&b, &last_f, &iters, err) < 0) {
                rc = -1;
                break;
            }
            polish += bl_seconds() - t0;
            t--;
            continue;
        }
        if (pr == 1 || edge <= 1.0 + a->eps_cg) {
            for (size_t k = 0; k < ncand; k++) {
                b.wo->free_hyp(cand[k].hyp);
                free(cand[k].out);
            }
            cv->stop = BL_STOP_DUAL;
            break;
        }
        for (size_t k = 0; k < ncand; k++) {
            c = cand[k];
            /* per-view: a view whose best column violates no dual constraint
             * adds none (the best one always does) */
            if (ncand > 1 && cedge[k] <= 1.0 + a->eps_cg) {
                b.wo->free_hyp(c.hyp);
                free(c.out);
                continue;
            }
            if (b.has_test) {
                const struct bl_matrix *P = &b.te.v[c.view].tv.points;
                c.tout = bl_xmalloc((P->m ? P->m : 1) * sizeof *c.tout);
                b.wo->predict(c.hyp, P, c.tout);
            }
            add_column(&b, &c);
        }
        double f = 0.0;
        int iters = 0;
        if (master(&b, &f, &iters, err) < 0) {
            rc = bl_errprefix(err, "iteration %d", t + 1);
            break;
        }
        double t2 = bl_seconds();
        record(&b, cv, f, edge, iters, t1 - t0, t2 - t1 + polish, t2);
        if (a->check_mslack && (t + 1) % a->check_mslack == 0 && !a->mslack) {
            /* outside the timed part: a check of the master, not the method */
            double fm = 0.0;
            if (mslack_optimum(&b, &fm, err) < 0) {
                rc = -1;
                break;
            }
            fprintf(stderr, "structboost check_mslack: iteration %d, %zu columns: objective "
                    "%.10g, m-slack LP over the same columns %.10g, relative difference "
                    "%.3g\n", t + 1, b.ncol, f, fm, (f - fm) / fabs(fm));
        }
        polish = 0.0;
        last_f = f;
        if (cfg->on_iter)
            cfg->on_iter(cfg->user, (size_t)t + 1, (size_t)T);
    }
    free(cand);
    free(cedge);
    if (rc == 0 && met)
        final_metrics(&b, met);
    if (rc == 0 && model)
        take_model(&b, model);
    sb_free(&b);
    return rc;
}

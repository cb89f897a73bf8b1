/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * check-plugin, weak-learner role (weak.h, docs/sdk.md "Weak learners"),
 * on small random training sets quantized the way the engine does it
 * (bl_quantize: ties, NaN in bin 0, a few bins or many) and random dual
 * weights G with c = 1, k or more columns:
 *
 *   create      create/destroy bound to a training set
 *   params      every declared parameter at its bounds / choices: create and fit
 *               (c = 1, k and k + 3: a learner may refuse some shapes, e.g.
 *               the single-column base learners of StructBoost refuse c > 1,
 *               but not every problem)
 *   outdim      the result's outdim is 1 or c, and outdim(hyp) says the same
 *   edge        finite, >= 0, and equal to the correlation of G with the
 *               hypothesis' own predictions, with s_r = sum_i G_ir h_r(x_i):
 *                 outdim 1: max_r s_r   (the engine gives a one-output term one
 *                           coefficient per column, so this is the most violated
 *                           of its c dual constraints sum_i G_ir h(x_i) <= nu)
 *                 outdim c: sum_r s_r   (the c-output hypothesis' dual value,
 *                           <G, H>; with a coding, the coded columns)
 *   outputs     the training outputs fit writes equal predict on the training X
 *   predict     predict is finite, also on NaN and huge feature values
 *   predict-add predict_add (optional) adds w_r times predict's outputs to
 *               F: the same numbers as predict and then adding (+-0 aside,
 *               as weak.h allows), on the training X and on X
 *   predict-sparse predict_sparse (optional) on the same rows held sparse gives
 *               bitwise what predict gives, on the training X and on X
 *   determinism same G and seed: bitwise the same edge, outputs and text, on
 *               the same learner and on a fresh one
 *   save-load   save writes one line (and never more than cap bytes, returning
 *               the length it needs), load reads it back into a hypothesis that
 *               predicts bitwise the same and saves to the same text, and
 *               malformed text is refused with a message
 *
 * A learner that declares needs also gets a Hessian in its requests, that
 * of the softmax loss at random scores (H = p(1 - p), Hu = p), and a trial
 * loss (the softmax loss of the step alone).
 *
 * A failing case is shrunk over m, d, k and c (same seed scheme), then its
 * dual weights are rounded where that keeps it failing.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../data/quantize.h"
#include "../util/rng.h"
#include "check.h"

/* Sums of m*c products in another order: they agree to this, relative to
 * sum |G_ir h_ir|. */
#define EDGE_RTOL 1e-9
/* Training outputs and predict may be computed differently (bins versus raw
 * values): equal to this relative precision. */
#define OUT_RTOL 1e-12

enum { G_REAL, G_EIGHTHS, G_ZEROSUM, G_KINDS };

struct wcase {
    size_t m, d, k, c;
    int gkind, bins;
    uint64_t seed;
    int *y;
    float *x;                 /* m x d feature-major                       */
    double *G;                /* m x c                                     */
    double *H, *Hu;           /* m x c: a softmax Hessian (for needs)   */
    size_t mt;
    float *xt;                /* mt x d: predict's other input (NaN, huge) */
    bl_dataset ds;
    bl_qview q;
    struct bl_train tr;
    int ok;                   /* quantized */
};

static void wcase_free(struct wcase *w)
{
    if (w->ok)
        bl_qview_free(&w->q);
    free(w->y), free(w->x), free(w->G), free(w->xt), free(w->H), free(w->Hu);
    memset(w, 0, sizeof *w);
}

static void gen_G(struct wcase *w, chk_rng *r)
{
    size_t m = w->m, c = w->c;
    for (size_t i = 0; i < m; i++) {
        double tot = 0.0;
        for (size_t l = 0; l < c; l++) {
            double g = w->gkind == G_REAL ? chk_range(r, -1, 1)
                                          : (double)((int)chk_below(r, 33) - 16) / 8.0;
            w->G[i * c + l] = g;
            tot += g;
        }
        if (w->gkind == G_ZEROSUM && c > 1) /* like -dL/dF of a margin loss */
            w->G[i * c + (size_t)w->y[i] % c] -= tot;
    }
    /* the softmax Hessian at random scores in [-3, 3]: H = p (1 - p), Hu = p */
    for (size_t i = 0; i < m; i++) {
        double z = 0.0, *u = w->Hu + i * c;
        for (size_t l = 0; l < c; l++)
            z += u[l] = exp(chk_range(r, -3, 3));
        for (size_t l = 0; l < c; l++) {
            u[l] /= z;
            w->H[i * c + l] = u[l] * (1.0 - u[l]);
        }
    }
}

/* A training set of m examples, d features, k classes, quantized into at
 * most `bins` bins, and dual weights of c columns, all from seed.  Feature
 * values are small numbers with ties (some features have NaN), and feature
 * 0 always has two distinct values, so a split exists. */
static int wcase_gen(struct wcase *w, size_t m, size_t d, size_t k, size_t c, int gkind, int bins,
                     uint64_t seed, chk_buf *why)
{
    chk_rng r;
    chk_rng_seed(&r, seed);
    memset(w, 0, sizeof *w);
    w->m = m, w->d = d, w->k = k, w->c = c, w->gkind = gkind, w->bins = bins, w->seed = seed;
    w->y = malloc(m * sizeof *w->y);
    w->x = malloc(m * d * sizeof *w->x);
    w->G = malloc(m * c * sizeof *w->G);
    w->H = malloc(m * c * sizeof *w->H);
    w->Hu = malloc(m * c * sizeof *w->Hu);
    w->mt = m + 6;
    w->xt = malloc(w->mt * d * sizeof *w->xt);
    for (size_t i = 0; i < m; i++)
        w->y[i] = (int)chk_below(&r, k);
    for (size_t f = 0; f < d; f++) {
        int type = (int)chk_below(&r, 3);
        int nan = f % 3 == 1;
        for (size_t i = 0; i < m; i++) {
            float v;
            if (type == 0)
                v = (float)chk_below(&r, 5);
            else if (type == 1)
                v = (float)((int)chk_below(&r, 21) - 10) / 2.0f;
            else
                v = (float)(nearbyint(chk_range(&r, -3, 3) * 1000.0) / 1000.0 + 0.0);
            if (nan && chk_unif(&r) < 0.15)
                v = NAN;
            w->x[f * m + i] = v;
        }
        if (f == 0 && m >= 2)
            w->x[0] = 0.0f, w->x[1] = 1.0f;
    }
    gen_G(w, &r);
    /* predict's other input: training values, NaN, huge and between values */
    for (size_t f = 0; f < d; f++)
        for (size_t i = 0; i < w->mt; i++) {
            float v;
            switch (i < m ? 9 : (int)(i - m)) {
            case 0: v = NAN; break;
            case 1: v = FLT_MAX; break;
            case 2: v = -FLT_MAX; break;
            case 3: v = 1e30f; break;
            case 4: v = -1e-30f; break;
            case 5: v = (float)chk_range(&r, -6, 6); break;
            default: v = w->x[f * m + chk_below(&r, m)];
            }
            w->xt[f * w->mt + i] = v;
        }
    w->ds.m = m, w->ds.d = d, w->ds.k = k, w->ds.y = w->y, w->ds.x = w->x;
    bl_error err;
    if (bl_quantize(&w->ds, bins, &w->q, &err) < 0) {
        chk_printf(why, "internal: could not quantize the random data: %s", err.msg);
        return -1;
    }
    w->ok = 1;
    bl_train_view(&w->ds, &w->q, &w->tr);
    return 0;
}

/* ---- the learner and one fit ---------------------------------------------------- */

struct wst {
    const struct bl_plugin *p;
    const struct bl_weak_ops *ops;
    const struct bl_host *host;
    const union bl_value *v;
    int prop;                 /* which property (enum below) */
    double worst;
    size_t cases, refused;    /* fits run; fits refused with a message */
    char refusal[BL_ERR_MAX]; /* the first refusal's message */
};

enum { P_OUTDIM, P_EDGE, P_OUTPUTS, P_PREDICT, P_PREDICT_ADD, P_DETERMINISM, P_SAVELOAD, P_FIT,
       P_PREDICT_SPARSE, P_CLASS_MAJOR };

struct fit {
    int rc;
    char err[BL_ERR_MAX];
    void *hyp;
    size_t outdim;
    double edge;
    double *out;              /* m x c, as the engine allocates it */
    char *text;               /* what save wrote */
    const char *moved_bad;    /* what is wrong with its sparse outputs */
};

/* NULL when the moved lists (weak.h) hold: per row ascending classes below
 * c, then only BL_MOVED_NONE, and every entry of out they leave out +0. */
static const char *moved_problem(const uint32_t *mv, size_t nm, const double *out, size_t m,
                                 size_t c)
{
    if (!mv)
        return "nmoved > 0 but moved is NULL";
    for (size_t i = 0; i < m; i++) {
        const uint32_t *mi = mv + i * nm;
        size_t next = 0; /* the lowest class an entry may name */
        for (size_t j = 0; j < nm; j++) {
            if (mi[j] == BL_MOVED_NONE) {
                next = c;
                continue;
            }
            if (mi[j] >= c || mi[j] < next)
                return "a row lists a class out of range, twice, out of order or after padding";
            next = mi[j] + 1;
        }
        for (size_t l = 0; l < c; l++) {
            int listed = 0;
            for (size_t j = 0; j < nm; j++)
                listed |= mi[j] == l;
            if (!listed && (out[i * c + l] != 0.0 || signbit(out[i * c + l])))
                return "an output of a class the row's list leaves out is not +0";
        }
    }
    return NULL;
}

/* NULL when moved_out (2.3) can stand for the outputs: moved lists to go
 * with it, and 0 at their padding (the lists themselves are moved_problem's);
 * then out = its dense form, as the host reads it. */
static const char *moved_out_problem(const struct bl_fit_result *rs, size_t m)
{
    if (!rs->moved || !rs->nmoved)
        return "moved_out is set without moved lists (nmoved 0 or moved NULL)";
    for (size_t e = 0; e < m * rs->nmoved; e++)
        if (rs->moved[e] == BL_MOVED_NONE && rs->moved_out[e] != 0.0)
            return "moved_out is not 0 at a BL_MOVED_NONE entry";
    bl_fit_result_expand(rs, m);
    return NULL;
}

static void fit_free(const struct wst *W, struct fit *f)
{
    if (f->hyp)
        W->ops->free_hyp(f->hyp);
    free(f->out);
    free(f->text);
    memset(f, 0, sizeof *f);
}

/* save into a fresh string; NULL when save failed */
static char *save_text(const struct wst *W, const void *hyp)
{
    char none[1] = "";
    int n = W->ops->save(hyp, none, 0); /* cap 0: only the length */
    if (n < 0)
        return NULL;
    char *s = calloc((size_t)n + 1, 1);
    if (s && W->ops->save(hyp, s, (size_t)n + 1) != n) {
        free(s);
        return NULL;
    }
    return s;
}

/* The request's trial loss: the softmax loss of the step D alone. */
static double trial_loss(void *ctx, const double *D)
{
    const struct wcase *w = ctx;
    double L = 0.0;
    for (size_t i = 0; i < w->m; i++) {
        const double *d = D + i * w->c;
        double mx = d[0], s = 0.0;
        for (size_t l = 1; l < w->c; l++)
            mx = fmax(mx, d[l]);
        for (size_t l = 0; l < w->c; l++)
            s += exp(d[l] - mx);
        L += mx + log(s) - d[(size_t)w->y[i] % w->c];
    }
    return L;
}

/* cmb non-NULL: the request's G, H and Hu class-major (c x m each), copied
 * into cmb (3 m c), as the engine gives them to a learner asking for that
 * layout. */
static void do_fit_in(const struct wst *W, void *L, const struct wcase *w, uint64_t seed,
                      struct fit *f, double *cmb)
{
    memset(f, 0, sizeof *f);
    f->out = calloc(w->m * w->c, sizeof *f->out);
    unsigned needs = W->ops->needs;
    struct bl_fit_request rq = {.G = w->G, .c = w->c, .H = needs & (BL_NEEDS_HESSIAN | BL_NEEDS_OFFDIAG) ? w->H : NULL, .seed = seed,
                                .Hu = needs & BL_NEEDS_OFFDIAG ? w->Hu : NULL,
                                .trial_loss = trial_loss, .trial_ctx = (void *)w};
    if (cmb)
        bl_fit_request_class_major(&rq, w->m, cmb);
    struct bl_fit_result rs = {.out = f->out};
    f->rc = W->ops->fit(L, &rq, &rs, f->err);
    f->hyp = rs.hyp;
    f->outdim = rs.outdim;
    f->edge = rs.edge;
    /* the moved lists index out's m x outdim (an outdim other than 1 or c
     * is the outdim check's to report) */
    size_t od = rs.outdim == 1 || rs.outdim == w->c ? rs.outdim : 0;
    if (f->rc == 0 && od && rs.moved_out) /* the outputs are these, as the host reads them */
        f->moved_bad = moved_out_problem(&rs, w->m);
    if (f->rc == 0 && od && rs.nmoved && !f->moved_bad)
        f->moved_bad = moved_problem(rs.moved, rs.nmoved, f->out, w->m, od);
    if (f->rc == 0 && f->hyp)
        f->text = save_text(W, f->hyp);
}

static void do_fit(const struct wst *W, void *L, const struct wcase *w, uint64_t seed,
                   struct fit *f)
{
    do_fit_in(W, L, w, seed, f, NULL);
}

/* What differs between two fits of one request (NULL: nothing, bitwise). */
static const char *fits_differ(const struct fit *f, const struct fit *g, size_t mc)
{
    if (g->rc != 0)
        return "fit failed the second time";
    if (memcmp(&g->edge, &f->edge, sizeof g->edge) || g->outdim != f->outdim)
        return "edge or outdim differ";
    if (memcmp(g->out, f->out, mc * sizeof *g->out))
        return "training outputs differ";
    if (!g->text || !f->text || strcmp(g->text, f->text))
        return "saved hypotheses differ";
    return NULL;
}

static const char *form_name(size_t od)
{
    return od == 1 ? "max_r s_r" : "sum_r s_r";
}

/* Describe a hypothesis' predictions and scores s_r for the report. */
static void show_scores(chk_buf *more, const struct wcase *w, const double *h, size_t od)
{
    size_t c = w->c;
    double *s = calloc(c, sizeof *s);
    double mx = -HUGE_VAL, sum = 0.0, l2 = 0.0;
    for (size_t l = 0; l < c; l++) {
        for (size_t i = 0; i < w->m; i++)
            s[l] += w->G[i * c + l] * h[od == 1 ? i : i * c + l];
        mx = fmax(mx, s[l]);
        sum += s[l];
        l2 += s[l] * s[l];
    }
    chk_mat(more, "predict", h, w->m, od);
    chk_printf(more, "\n");
    chk_vec(more, "s", s, c);
    chk_printf(more, "   (s_r = sum_i G_ir h_r(x_i): max_r s_r = ");
    chk_num(more, mx);
    chk_printf(more, ", sum_r s_r = ");
    chk_num(more, sum);
    chk_printf(more, ", ||s||_2 = ");
    chk_num(more, sqrt(l2));
    chk_printf(more, ")");
    free(s);
}

/* One case against property W->prop: 1 on a failure (why, more set). */
/* predict_sparse on the n x d feature-major x held sparse (every value
 * but +0 stored) against predict on x; 1 with why set on a difference. */
static int sparse_differs(const struct bl_weak_ops *o, const void *hyp, size_t n, size_t d,
                          const float *x, size_t od, const char *what, chk_buf *why)
{
    bl_dataset ds;
    bl_error err;
    memset(&ds, 0, sizeof ds);
    ds.m = n;
    ds.d = d;
    ds.x = malloc((n * d > 0 ? n * d : 1) * sizeof *ds.x);
    memcpy(ds.x, x, n * d * sizeof *ds.x);
    bl_dataset_sparsify(&ds, &err);
    double *h1 = calloc(n * od > 0 ? n * od : 1, sizeof *h1), *h2 = calloc(n * od > 0 ? n * od : 1,
                                                                       sizeof *h2);
    struct bl_matrix X = {n, d, x};
    o->predict(hyp, &X, h1);
    o->predict_sparse(hyp, &ds.sp->view, h2);
    int fail = 0;
    for (size_t j = 0; j < n * od && !fail; j++)
        if (memcmp(&h1[j], &h2[j], sizeof h1[j]) != 0) {
            chk_printf(why, "predict_sparse gave %.17g for example %zu, output %zu of %s, but "
                       "predict gave %.17g", h2[j], j / od, j % od, what, h1[j]);
            fail = 1;
        }
    free(h1);
    free(h2);
    bl_spmat_free(ds.sp);
    return fail;
}

static int run_case(struct wst *W, const struct wcase *w, chk_buf *why, chk_buf *more)
{
    char err[BL_ERR_MAX] = "";
    const struct bl_weak_ops *o = W->ops;
    size_t m = w->m, c = w->c, d = w->d;
    W->cases++;
    void *L = o->create(W->host, W->p->nparams ? W->v : NULL, &w->tr, err);
    if (!L) {
        chk_printf(why, "create refused a regular training set: %s", err[0] ? err : "(no message)");
        return 1;
    }
    int fail = 0;
    uint64_t seed = bl_mix64(w->seed ^ 0x5eed);
    struct fit f, g;
    memset(&g, 0, sizeof g);
    double *h = NULL, *h2 = NULL;
    do_fit(W, L, w, seed, &f);
    if (f.rc != 0 && f.err[0]) {
        /* "-1 with err set" is part of the API: a learner may refuse a
         * shape of problem (c = 1, say); the report counts refusals */
        if (!W->refused++)
            snprintf(W->refusal, sizeof W->refusal, "%.90s%s", f.err,
                     strlen(f.err) > 90 ? "..." : "");
        goto out;
    }
    if (f.rc != 0) {
        chk_printf(why, "fit returned %d without a message", f.rc);
        fail = 1;
        goto out;
    }
    if (!f.hyp) {
        chk_printf(why, "fit returned 0 but no hypothesis");
        fail = 1;
        goto out;
    }
    if (f.moved_bad) {
        chk_printf(why, "sparse outputs (bl_fit_result.moved): %s", f.moved_bad);
        fail = 1;
        goto out;
    }
    size_t od = f.outdim, od2 = o->outdim(f.hyp);
    if (od != 1 && od != c) {
        chk_printf(why, "fit said outdim %zu for c = %zu columns (it must be 1 or c)", od, c);
        fail = 1;
    } else if (od2 != od) {
        chk_printf(why, "fit said outdim %zu but outdim(hyp) says %zu", od, od2);
        fail = 1;
    }
    if (fail || W->prop == P_OUTDIM)
        goto out;
    h = calloc(m * od, sizeof *h);
    o->predict(f.hyp, &w->tr.X, h);
    switch (W->prop) {
    case P_EDGE: {
        double e = f.edge, want = od == 1 ? -HUGE_VAL : 0.0, mag = 0.0;
        for (size_t l = 0; l < c; l++) {
            double s = 0.0;
            for (size_t i = 0; i < m; i++) {
                double t = w->G[i * c + l] * h[od == 1 ? i : i * c + l];
                s += t;
                mag += fabs(t);
            }
            want = od == 1 ? fmax(want, s) : want + s;
        }
        double tol = EDGE_RTOL * mag + DBL_MIN, ratio = fabs(e - want) / tol;
        if (ratio > W->worst && isfinite(ratio))
            W->worst = ratio;
        if (!isfinite(e))
            chk_printf(why, "the edge is %g", e), fail = 1;
        else if (e < -tol)
            chk_printf(why, "the edge %.17g is negative (the SDK asks for >= 0)", e), fail = 1;
        else if (!(ratio <= 1.0)) {
            chk_printf(why, "fit says edge ");
            chk_num(why, e);
            chk_printf(why, " but the hypothesis' predictions give %s = ", form_name(od));
            chk_num(why, want);
            chk_printf(why, " (outdim %zu)", od);
            fail = 1;
        }
        if (fail)
            show_scores(more, w, h, od);
        break;
    }
    case P_OUTPUTS:
        for (size_t j = 0; j < m * od && !fail; j++)
            if (!(fabs(f.out[j] - h[j]) <= OUT_RTOL * (1.0 + fabs(h[j])))) {
                chk_printf(why, "fit wrote training output [%zu][%zu] = %.17g but predict on the "
                           "same example gives %.17g", j / od, j % od, f.out[j], h[j]);
                chk_mat(more, "fit out", f.out, m, od);
                chk_printf(more, "\n");
                chk_mat(more, "predict", h, m, od);
                fail = 1;
            }
        break;
    case P_PREDICT: {
        struct bl_matrix Xt = {w->mt, d, w->xt};
        h2 = calloc(w->mt * od, sizeof *h2);
        o->predict(f.hyp, &Xt, h2);
        for (size_t j = 0; j < m * od && !fail; j++)
            if (!isfinite(h[j]))
                chk_printf(why, "predict gave %g for training example %zu", h[j], j / od), fail = 1;
        for (size_t j = 0; j < w->mt * od && !fail; j++)
            if (!isfinite(h2[j])) {
                chk_printf(why, "predict gave %g for example %zu of X:", h2[j], j / od);
                for (size_t q = 0; q < d; q++)
                    chk_printf(why, " %g", (double)w->xt[q * w->mt + j / od]);
                fail = 1;
            }
        break;
    }
    case P_PREDICT_SPARSE:
        fail = sparse_differs(o, f.hyp, m, d, w->tr.X.x, od, "the training X", why) ||
               sparse_differs(o, f.hyp, w->mt, d, w->xt, od, "X with NaN and huge values", why);
        break;
    case P_PREDICT_ADD: {
        bl_weak_predict_add_fn padd = W->ops->predict_add;
        const struct bl_matrix Xs[2] = {w->tr.X, {w->mt, d, w->xt}};
        for (int q = 0; q < 2 && !fail; q++) {
            size_t n = Xs[q].m;
            double *ho = calloc(n * od, sizeof *ho), *F1 = calloc(n * c, sizeof *F1),
                   *F2 = calloc(n * c, sizeof *F2), *wt = calloc(c, sizeof *wt);
            o->predict(f.hyp, &Xs[q], ho);
            for (size_t r = 0; r < c; r++)
                wt[r] = r % 3 == 2 ? -0.75 : 0.5 + 0.25 * (double)r;
            for (size_t j = 0; j < n * c; j++) { /* F never +-0: skipped zeros leave it */
                F1[j] = F2[j] = (double)(j % 7) - 3.0 + 0.125;
                F1[j] += wt[j % c] * ho[od == 1 ? j / c : j];
            }
            padd(f.hyp, &Xs[q], wt, c, F2);
            for (size_t j = 0; j < n * c && !fail; j++)
                if (!(F1[j] == F2[j] || (isnan(F1[j]) && isnan(F2[j])))) {
                    chk_printf(why, "predict_add gave F[%zu][%zu] = %.17g on %s, but F + w_r "
                               "times predict's output is %.17g (outdim %zu, w_r = %g)", j / c,
                               j % c, F2[j], q ? "X with NaN and huge values" : "the training X",
                               F1[j], od, wt[j % c]);
                    fail = 1;
                }
            free(ho), free(F1), free(F2), free(wt);
        }
        break;
    }
    case P_DETERMINISM: {
        do_fit(W, L, w, seed, &g);
        const char *what = NULL;
        for (int round = 0; round < 2 && !what; round++) {
            if (round == 1) { /* a fresh learner */
                fit_free(W, &g);
                void *L2 = o->create(W->host, W->p->nparams ? W->v : NULL, &w->tr, err);
                if (!L2) {
                    chk_printf(why, "a second learner could not be created: %s", err);
                    fail = 1;
                    break;
                }
                do_fit(W, L2, w, seed, &g);
                o->destroy(L2);
            }
            const char *where = round ? "a fresh learner" : "the same learner";
            what = fits_differ(&f, &g, m * c);
            if (what)
                chk_printf(why, "fitting the same G with the same seed again on %s: %s (\"%s\" "
                           "edge %.17g, then \"%s\" edge %.17g)", where, what,
                           f.text ? f.text : "?", f.edge, g.text ? g.text : "?", g.edge);
        }
        if (what)
            fail = 1;
        break;
    }
    case P_CLASS_MAJOR: {
        double *cmb = calloc(3 * m * c, sizeof *cmb);
        do_fit_in(W, L, w, seed, &g, cmb);
        free(cmb);
        const char *what = fits_differ(&f, &g, m * c);
        if (what) {
            chk_printf(why, "the same request class-major (class_major = 1, G, H and Hu c x m): "
                       "%s (row-major \"%s\" edge %.17g, class-major \"%s\" edge %.17g)", what,
                       f.text ? f.text : "?", f.edge, g.text ? g.text : "?", g.edge);
            fail = 1;
        }
        break;
    }
    case P_SAVELOAD: {
        if (!f.text) {
            chk_printf(why, "save returned a negative length or not the same length twice");
            fail = 1;
            break;
        }
        size_t n = strlen(f.text);
        if (strchr(f.text, '\n')) {
            chk_printf(why, "save wrote more than one line: \"%s\"", f.text);
            fail = 1;
            break;
        }
        /* a short buffer: at most cap bytes, NUL-terminated, the full length returned */
        size_t cap = n / 2 + 1;
        char *small = malloc(cap + 8);
        memset(small, 'Z', cap + 8);
        int n2 = o->save(f.hyp, small, cap);
        int over = 0;
        for (size_t q = cap; q < cap + 8; q++)
            over |= small[q] != 'Z';
        if (over || n2 != (int)n || small[cap - 1] != 0) {
            chk_printf(why, "save into a %zu-byte buffer %s (text \"%s\")", cap,
                       over ? "wrote past its end"
                       : n2 != (int)n ? "did not return the full length"
                                      : "left it without a terminating NUL", f.text);
            fail = 1;
        }
        free(small);
        if (fail)
            break;
        void *hl = o->load(f.text, d, err);
        if (!hl) {
            chk_printf(why, "load refused what save wrote, \"%s\": %s", f.text, err);
            fail = 1;
            break;
        }
        char *again = save_text(W, hl);
        h2 = calloc(w->mt * od, sizeof *h2);
        double *h3 = calloc(w->mt * od, sizeof *h3), *hl1 = calloc(m * od, sizeof *hl1);
        struct bl_matrix Xt = {w->mt, d, w->xt};
        if (o->outdim(hl) != od) {
            chk_printf(why, "the loaded hypothesis has outdim %zu, the saved one %zu",
                       o->outdim(hl), od);
            fail = 1;
        } else {
            o->predict(hl, &w->tr.X, hl1);
            o->predict(f.hyp, &Xt, h2);
            o->predict(hl, &Xt, h3);
            if (memcmp(hl1, h, m * od * sizeof *h) || memcmp(h2, h3, w->mt * od * sizeof *h2)) {
                chk_printf(why, "the loaded hypothesis \"%s\" predicts differently", f.text);
                chk_mat(more, "saved", h, m, od);
                chk_printf(more, "\n");
                chk_mat(more, "loaded", hl1, m, od);
                fail = 1;
            } else if (!again || strcmp(again, f.text)) {
                chk_printf(why, "saving the loaded hypothesis gives \"%s\", not \"%s\"",
                           again ? again : "(error)", f.text);
                fail = 1;
            }
        }
        free(again), free(h3), free(hl1);
        o->free_hyp(hl);
        static const char *const bad[] = {"", "%%% not a hypothesis %%%"};
        for (size_t q = 0; q < 2 && !fail; q++) {
            err[0] = 0;
            void *hb = o->load(bad[q], d, err);
            if (hb) {
                o->free_hyp(hb);
                chk_printf(why, "load accepted the malformed text \"%s\"", bad[q]);
                fail = 1;
            } else if (!err[0]) {
                chk_printf(why, "load refused \"%s\" without a message", bad[q]);
                fail = 1;
            }
        }
        break;
    }
    default:
        break;
    }
out:
    if (fail && f.text)
        chk_printf(more, "%shypothesis: \"%s\", outdim %zu, edge %.17g", more->len ? "\n" : "",
                   f.text, f.outdim, f.edge);
    free(h), free(h2);
    fit_free(W, &f);
    fit_free(W, &g);
    o->destroy(L);
    return fail;
}

/* ---- search and shrink ------------------------------------------------------------ */

static const size_t wsizes[][3] = {{2, 1, 2}, {5, 2, 2}, {8, 2, 3}, {12, 3, 3},
                                   {20, 4, 4}, {40, 5, 5}, {60, 3, 6}};
static const int wbins[] = {3, 8, 256};
#define NEL(a) (sizeof(a) / sizeof((a)[0]))

/* The c of column variant q for k classes: 1, k, k + 3 (a wide code). */
static size_t cols_of(int q, size_t k)
{
    return q == 0 ? 1 : q == 1 ? k : k + 3;
}

static void describe(chk_buf *b, const void *p)
{
    const struct wcase *w = p;
    chk_printf(b, "m=%zu d=%zu k=%zu c=%zu (max_bins %d)\n", w->m, w->d, w->k, w->c, w->bins);
    chk_printf(b, "X=[");
    for (size_t f = 0; f < w->d; f++) {
        chk_printf(b, "%s[", f ? ", " : "");
        for (size_t i = 0; i < w->m; i++) {
            if (i)
                chk_printf(b, ", ");
            chk_num(b, (double)w->x[f * w->m + i]);
        }
        chk_printf(b, "]");
    }
    chk_printf(b, "]   (one row per feature)\n");
    chk_ivec(b, "y", w->y, w->m);
    chk_printf(b, "\n");
    chk_mat(b, "G", w->G, w->m, w->c);
    chk_printf(b, "\n");
}

static int try_case(chk_ctx *c, struct wst *W, struct wcase *w, size_t m, size_t d, size_t k,
                    size_t cc, int gkind, int bins, uint64_t seed, chk_buf *why, chk_buf *more)
{
    chk_clear(why);
    chk_clear(more);
    chk_case(c, "m=%zu d=%zu k=%zu c=%zu max_bins=%d seed=%#llx", m, d, k, cc, bins,
             (unsigned long long)seed);
    if (wcase_gen(w, m, d, k, cc, gkind, bins, seed, why) < 0)
        return -1;
    return run_case(W, w, why, more);
}

static void shrink(chk_ctx *c, void *W, void *p)
{
    struct wcase *w = p;
    static const size_t ms[] = {2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 30, 40, 60};
    chk_buf why = {0}, more = {0};
    size_t M = w->m, D = w->d, K = w->k, C = w->c;
    int found = 0;
    /* smallest first: by m * (d + c), then m, d, c, k */
    for (size_t cost = 1; cost < M * (D + C) && !found; cost++)
        for (size_t a = 0; a < NEL(ms) && ms[a] <= M && !found; a++)
            for (size_t d = 1; d <= D && !found; d++)
                for (size_t cc = 1; cc <= C && !found; cc++) {
                    size_t m = ms[a];
                    if (m * (d + cc) != cost)
                        continue;
                    for (size_t k = 2; k <= K && !found; k++)
                        for (uint64_t t = 0; t < 2 && !found; t++) {
                            struct wcase cand;
                            uint64_t seed = t ? bl_mix64(w->seed + t) : w->seed;
                            int r = try_case(c, W, &cand, m, d, k, cc, w->gkind, w->bins, seed,
                                             &why, &more);
                            if (r == 1) {
                                wcase_free(w);
                                *w = cand;
                                found = 1;
                            } else {
                                wcase_free(&cand);
                            }
                        }
                }
    /* rounder dual weights */
    for (size_t j = 0; j < w->m * w->c; j++) {
        double x = w->G[j], cand[3] = {0.0, nearbyint(x) + 0.0, nearbyint(x * 4.0) / 4.0 + 0.0};
        for (int q = 0; q < 3; q++) {
            if (cand[q] == x || (q > 0 && cand[q] == cand[q - 1]))
                continue;
            w->G[j] = cand[q];
            chk_clear(&why);
            chk_clear(&more);
            if (run_case(W, w, &why, &more) == 1)
                break;
            w->G[j] = x;
        }
    }
    chk_buf_free(&why);
    chk_buf_free(&more);
}

static int run(void *W, void *w, chk_buf *why, chk_buf *more)
{
    return run_case(W, w, why, more) == 1;
}

static const chk_case_ops case_ops = {run, shrink, describe};

/* Run property prop on every size, bin count, column count and kind of
 * dual weights, trials times; shrink and report the first failure. */
static enum chk_status search(chk_ctx *c, const union bl_value *v, int prop, const char *prefix,
                              int quick, struct wst *out)
{
    struct wst W;
    memset(&W, 0, sizeof W);
    W.p = c->p, W.ops = c->p->ops, W.host = c->host, W.v = v, W.prop = prop;
    chk_buf why = {0}, more = {0};
    uint64_t idx = 0;
    int fail = 0;
    int trials = quick ? 1 : c->trials;
    size_t nsizes = quick ? 3 : NEL(wsizes);
    for (int t = 0; t < trials && !fail; t++)
        for (size_t a = 0; a < nsizes && !fail; a++)
            for (int q = 0; q < 3 && !fail; q++) {
                size_t m = wsizes[a][0], d = wsizes[a][1], k = wsizes[a][2];
                size_t cc = cols_of(q, k);
                int bins = wbins[(a + (size_t)t) % NEL(wbins)];
                int gkind = (int)((a + (size_t)q + (size_t)t) % G_KINDS);
                uint64_t seed = chk_seed(c, "weak", idx++);
                struct wcase w;
                int r = try_case(c, &W, &w, m, d, k, cc, gkind, bins, seed, &why, &more);
                if (r < 0) {
                    chk_detail(c, "%s", chk_str(&why));
                    fail = 1;
                } else if (r == 1) {
                    struct wcase orig;
                    chk_buf scratch = {0};
                    char seen[128];
                    wcase_gen(&orig, m, d, k, cc, gkind, bins, seed, &scratch);
                    chk_buf_free(&scratch);
                    snprintf(seen, sizeof seen, "m=%zu d=%zu k=%zu c=%zu", m, d, k, cc);
                    chk_shrink_report(c, &case_ops, &W, &w, &orig, prefix, seen, seed, &why,
                                      &more);
                    wcase_free(&orig);
                    fail = 1;
                }
                wcase_free(&w);
            }
    chk_buf_free(&why);
    chk_buf_free(&more);
    if (!fail && W.refused == W.cases) {
        chk_detail(c, "%sfit refused every problem (%zu), e.g.: %s", prefix, W.cases, W.refusal);
        fail = 1;
    }
    if (out)
        *out = W;
    return fail ? CHK_FAIL : CHK_PASS;
}

/* The check of one property, c->def->prop (its pass: c->def->pass). */
static enum chk_status prop_check(chk_ctx *c)
{
    int prop = c->def->prop;
    struct wst W;
    enum chk_status st = search(c, c->v, prop, "", 0, &W);
    if (st == CHK_PASS) {
        chk_detail(c, "%s", c->def->pass);
        if (W.refused)
            chk_printf(&c->detail, " (%zu of %zu problems refused with a message, e.g. \"%s\")",
                       W.refused, W.cases, W.refusal);
    }
    chk_printf(&c->info, "%zu fits", W.cases);
    if (prop == P_EDGE)
        chk_printf(&c->info, "; largest edge error was %.3g of its tolerance", W.worst);
    return st;
}

/* ---- the checks ------------------------------------------------------------------ */

static enum chk_status check_create(chk_ctx *c)
{
    chk_buf why = {0};
    struct wcase w;
    const struct bl_weak_ops *o = c->p->ops;
    if (wcase_gen(&w, 12, 3, 3, 3, G_REAL, 8, chk_seed(c, "create", 0), &why) < 0) {
        chk_detail(c, "%s", chk_str(&why));
        chk_buf_free(&why);
        wcase_free(&w);
        return CHK_FAIL;
    }
    chk_buf_free(&why);
    char err[BL_ERR_MAX] = "";
    const union bl_value *v = c->p->nparams ? c->v : NULL;
    void *a = o->create(c->host, v, &w.tr, err);
    void *b = a ? o->create(c->host, v, &w.tr, err) : NULL;
    enum chk_status st = CHK_PASS;
    if (!a || !b) {
        chk_detail(c, "create %sreturned NULL on a 12 x 3 training set: %s", a ? "(a second "
                   "learner) " : "", err[0] ? err : "(and wrote no message)");
        st = CHK_FAIL;
    } else {
        chk_detail(c, "two learners created on one training set and destroyed");
    }
    if (b)
        o->destroy(b);
    if (a)
        o->destroy(a);
    wcase_free(&w);
    return st;
}

static enum chk_status check_predict_add(chk_ctx *c)
{
    if (!((const struct bl_weak_ops *)c->p->ops)->predict_add) {
        chk_detail(c, "no predict_add (optional)");
        return CHK_SKIP;
    }
    return prop_check(c);
}

static enum chk_status check_predict_sparse(chk_ctx *c)
{
    if (!((const struct bl_weak_ops *)c->p->ops)->predict_sparse) {
        chk_detail(c, "no predict_sparse (optional: the host densifies sparse data)");
        return CHK_SKIP;
    }
    return prop_check(c);
}

static enum chk_status check_class_major(chk_ctx *c)
{
    if (!(((const struct bl_weak_ops *)c->p->ops)->needs & BL_NEEDS_CLASS_MAJOR)) {
        chk_detail(c, "needs has no BL_NEEDS_CLASS_MAJOR (optional)");
        return CHK_SKIP;
    }
    return prop_check(c);
}

static enum chk_status params_variant(chk_ctx *c, const chk_variant *var, const char *prefix)
{
    return search(c, var->v, P_FIT, prefix, 1, NULL);
}

static enum chk_status check_params(chk_ctx *c)
{
    return chk_params(c, params_variant, "created and fitted (c = 1, k, k + 3)");
}

const chk_def chk_weak_checks[] = {
    {"create", check_create, 0, NULL},
    {"params", check_params, 0, NULL},
    {"outdim", prop_check, P_OUTDIM, "outdim is 1 or c (c = 1, k, k + 3) and outdim(hyp) agrees"},
    {"edge", prop_check, P_EDGE, "the edge is >= 0 and equals max_r sum_i G_ir h(x_i) (outdim "
     "1) or sum_ir G_ir h_r(x_i) (outdim c) from predict"},
    {"outputs", prop_check, P_OUTPUTS, "the training outputs fit writes equal predict on the "
     "training examples"},
    {"predict", prop_check, P_PREDICT, "predict is finite on the training X and on NaN, "
     "+-FLT_MAX, 1e30 and unseen values"},
    {"predict-add", check_predict_add, P_PREDICT_ADD, "predict_add adds w_r times predict's "
     "outputs to F, as predict and then adding does, on the training X and on NaN and huge "
     "values"},
    {"predict-sparse", check_predict_sparse, P_PREDICT_SPARSE, "predict_sparse on the rows "
     "held sparse gives bitwise predict's outputs, on the training X and on NaN and huge "
     "values"},
    {"determinism", prop_check, P_DETERMINISM, "the same G and seed give bitwise the same edge, "
     "outputs and hypothesis, on the same learner and on a fresh one"},
    {"class-major", check_class_major, P_CLASS_MAJOR, "with BL_NEEDS_CLASS_MAJOR, the same "
     "request with G, H and Hu class-major (class_major = 1) gives bitwise the same edge, "
     "outputs and hypothesis as row-major"},
    {"save-load", prop_check, P_SAVELOAD, "save writes one line (at most cap bytes, returning "
     "the length), load reads it back to the same predictions and text, malformed text is "
     "refused"},
};
const size_t chk_weak_count = sizeof chk_weak_checks / sizeof chk_weak_checks[0];

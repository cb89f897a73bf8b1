/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The structural SVM baseline (Joachims et al. 2009, 1-slack, margin
 * rescaling, l2):  min 1/2 |w|^2 + C xi  s.t. the 1-slack constraints of
 * the same task plugin StructBoost runs on (sinst.h), with the linear
 * joint feature map: in every view and block, each feature of the view's
 * points (standardised on the training points, missing values 0) and a
 * bias.  So a column of StructBoost's is here the raw feature itself, and
 * the comparison is task for task.
 *
 * Cutting planes: each round solves the dual over the working set,
 *     max_l  sum_k l_k b_k - 1/2 l^T K l,  l >= 0,  sum_k l_k <= C,
 * K_kl = a_k . a_l, then adds the most violated constraint until the exact
 * average hinge is within eps_cp of xi.  With a zero constraint l_0 added
 * (a_0 = 0, b_0 = 0) the feasible set is the simplex sum l = C, solved by
 * pairwise (SMO) steps between the most and least attractive constraints,
 * warm-started from the last round.  This small dense QP (tens to a few
 * hundred variables) is written here: GLPK solves LPs only, GSL has no QP
 * solver, and liblinear/libsvm do not expose their solvers for a given
 * Gram matrix.  One curve entry per cutting-plane round.
 *
 * nonneg_views (the CRF task's "pairwise"): the weights of those views,
 * bias included, are constrained to w >= 0, and their features are only
 * scaled (x / sd, not centred), so non-negative features give non-negative
 * scores: the CRF energy stays submodular and graph cuts exact.  Then
 * w = P(sum_k l_k a_k), P clamping those coordinates at 0, and the dual
 * max b^T l - 1/2 |P(A^T l)|^2 is no longer a QP in l; the same pairwise
 * steps with the curvature bound eta of the unconstrained case (P only
 * lowers curvature) ascend it monotonically, recomputing w and the
 * gradient after each step.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/clock.h"
#include "../util/fsutil.h"
#include "sinst.h"
#include "structured.h"

typedef struct lin {
    size_t D;             /* total weights                                */
    unsigned char *nn;    /* per view: weights >= 0, features not centred */
    unsigned char *wnn;   /* per weight: constrained >= 0                 */
    size_t *off;          /* per view: first weight of block 0            */
    float **mu, **sd;     /* per view standardisation                     */
} lin;

static size_t wdim(const bl_sinst *s, size_t v)
{
    return s->v[v].tv.points.d + 1; /* features and bias */
}

/* Mark the views named in the comma-separated list; -1 on an unknown name. */
static int lin_nonneg(lin *L, const bl_sinst *s, const char *names, bl_error *err)
{
    L->nn = bl_xcalloc(s->nviews, 1);
    for (const char *p = names; p && *p;) {
        size_t n = strcspn(p, ",");
        size_t v = 0;
        while (v < s->nviews && (strlen(s->v[v].tv.name) != n || strncmp(s->v[v].tv.name, p, n)))
            v++;
        if (v == s->nviews)
            return bl_errf(err, "nonneg_views: task %s has no view '%.*s'", s->plugin->name,
                           (int)n, p);
        L->nn[v] = 1;
        p += n + (p[n] == ',');
    }
    return 0;
}

static void lin_init(lin *L, const bl_sinst *s)
{
    L->off = bl_xmalloc(s->nviews * sizeof *L->off);
    L->mu = bl_xmalloc(s->nviews * sizeof *L->mu);
    L->sd = bl_xmalloc(s->nviews * sizeof *L->sd);
    L->D = 0;
    for (size_t v = 0; v < s->nviews; v++) {
        const struct bl_matrix *P = &s->v[v].tv.points;
        L->off[v] = L->D;
        L->D += s->v[v].tv.blocks * wdim(s, v);
        L->mu[v] = bl_xmalloc(P->d * sizeof(float));
        L->sd[v] = bl_xmalloc(P->d * sizeof(float));
        for (size_t f = 0; f < P->d; f++) {
            const float *x = P->x + f * P->m;
            double s1 = 0, s2 = 0;
            size_t n = 0;
            for (size_t r = 0; r < P->m; r++)
                if (!isnan(x[r])) {
                    s1 += x[r];
                    s2 += (double)x[r] * x[r];
                    n++;
                }
            double mean = n ? s1 / (double)n : 0.0;
            double var = n ? s2 / (double)n - mean * mean : 0.0;
            L->mu[v][f] = L->nn[v] ? 0.0f : (float)mean;
            L->sd[v][f] = var > 1e-24 ? (float)sqrt(var) : 1.0f;
        }
    }
    L->wnn = bl_xcalloc(L->D ? L->D : 1, 1);
    for (size_t v = 0; v < s->nviews; v++)
        if (L->nn[v])
            memset(L->wnn + L->off[v], 1, s->v[v].tv.blocks * wdim(s, v));
}

static void lin_free(lin *L, const bl_sinst *s)
{
    for (size_t v = 0; v < s->nviews; v++) {
        free(L->mu[v]);
        free(L->sd[v]);
    }
    free(L->mu);
    free(L->sd);
    free(L->off);
    free(L->nn);
    free(L->wnn);
}

static double feat(const lin *L, const struct bl_matrix *P, size_t v, size_t r, size_t f)
{
    if (f == P->d)
        return 1.0;
    float x = P->x[f * P->m + r];
    return isnan(x) ? 0.0 : ((double)x - L->mu[v][f]) / L->sd[v][f];
}

/* S = the linear scores of w on instance s. */
static void lin_scores(const lin *L, bl_sinst *s, const double *w)
{
    for (size_t v = 0; v < s->nviews; v++) {
        const struct bl_matrix *P = &s->v[v].tv.points;
        size_t B = s->v[v].tv.blocks, dd = P->d + 1;
        double *S = s->S[v];
        memset(S, 0, bl_sinst_cells(s, v) * sizeof *S);
        for (size_t f = 0; f < dd; f++)
            for (size_t b = 0; b < B; b++) {
                double wf = w[L->off[v] + b * dd + f];
                if (wf == 0.0)
                    continue;
                for (size_t r = 0; r < P->m; r++)
                    S[r * B + b] += wf * feat(L, P, v, r, f);
            }
    }
}

/* Dense a = the joint-feature vector of a cut. */
static void lin_cut(const lin *L, const bl_sinst *s, const bl_cut *c, double *a)
{
    memset(a, 0, L->D * sizeof *a);
    for (size_t e = 0; e < c->nnz; e++) {
        size_t v = c->view[e], B = s->v[v].tv.blocks;
        const struct bl_matrix *P = &s->v[v].tv.points;
        size_t r = c->cell[e] / B, b = c->cell[e] % B, dd = P->d + 1;
        double *ab = a + L->off[v] + b * dd;
        for (size_t f = 0; f < dd; f++)
            ab[f] += c->coef[e] * feat(L, P, v, r, f);
    }
}

/* One SMO step on the simplex {l >= 0, sum l = C} at gradient g: mass d
 * moves from the worst coordinate j still holding some (smallest g) to the
 * best i (largest g), by the exact line search on K clipped at l_j.
 * Returns 0 (nothing moved) when g_i - g_j <= tol: the KKT point. */
static int simplex_step(const double *K, const double *g, size_t n, double *l, double tol,
                        size_t *pi, size_t *pj, double *pd)
{
    size_t i = 0, j = n;
    for (size_t k = 1; k < n; k++)
        if (g[k] > g[i])
            i = k;
    for (size_t k = 0; k < n; k++)
        if (l[k] > 0.0 && (j == n || g[k] < g[j]))
            j = k;
    if (j == n || g[i] - g[j] <= tol)
        return 0;
    double eta = K[i * n + i] + K[j * n + j] - 2.0 * K[i * n + j];
    double d = eta > 1e-15 ? (g[i] - g[j]) / eta : l[j];
    if (d > l[j])
        d = l[j];
    l[i] += d;
    l[j] -= d;
    if (l[j] < 1e-300)
        l[j] = 0.0;
    *pi = i, *pj = j, *pd = d;
    return 1;
}

/* SMO on  max b^T l - 1/2 l^T K l  over {l >= 0, sum l = C}, K n x n
 * (row-major), warm-started from l.  Returns the steps taken. */
static int qp_simplex(const double *K, const double *b, size_t n, double *l, double tol)
{
    double *g = bl_xmalloc(n * sizeof *g);
    for (size_t k = 0; k < n; k++) {
        g[k] = b[k];
        for (size_t j = 0; j < n; j++)
            g[k] -= K[k * n + j] * l[j];
    }
    int steps = 0;
    for (; steps < 1000000; steps++) {
        size_t i, j;
        double d;
        if (!simplex_step(K, g, n, l, tol, &i, &j, &d))
            break;
        for (size_t k = 0; k < n; k++)
            g[k] -= d * (K[k * n + i] - K[k * n + j]);
    }
    free(g);
    return steps;
}

/* w = P(sum_k l_k A_k): the constrained coordinates clamped at 0. */
static void weights(const lin *L, double *const *A, const double *l, size_t n, double *w)
{
    memset(w, 0, L->D * sizeof *w);
    for (size_t k = 1; k < n; k++)
        if (l[k] > 0.0)
            for (size_t f = 0; f < L->D; f++)
                w[f] += l[k] * A[k][f];
    for (size_t f = 0; f < L->D; f++)
        if (L->wnn[f] && w[f] < 0.0)
            w[f] = 0.0;
}

/* The dual with constrained weights (see the top): pairwise steps of
 * length (g_i - g_j) / eta, g_k = b_k - A_k . w(l). */
static int qp_simplex_nn(const lin *L, double *const *A, const double *K, const double *b,
                         size_t n, double *l, double tol, double *w)
{
    double *g = bl_xmalloc(n * sizeof *g);
    int steps = 0;
    for (; steps < 100000; steps++) {
        weights(L, A, l, n, w);
        for (size_t k = 0; k < n; k++) {
            g[k] = b[k];
            for (size_t f = 0; f < L->D; f++)
                g[k] -= A[k][f] * w[f];
        }
        size_t i, j;
        double d;
        if (!simplex_step(K, g, n, l, tol, &i, &j, &d))
            break;
    }
    weights(L, A, l, n, w);
    free(g);
    return steps;
}

int bl_ssvm(const bl_method_cfg *cfg, const bl_dataset *train, const bl_dataset *test,
            bl_curve *cv, bl_metrics *met, bl_error *err)
{
    const bl_algo_spec *a = cfg->algo;
    memset(cv, 0, sizeof *cv);
    bl_sinst tr, te;
    memset(&te, 0, sizeof te);
    if (bl_sinst_open(&tr, &a->task, train, 0, err) < 0)
        return -1;
    int has_test = test && test->m;
    if (has_test && bl_sinst_open(&te, &a->task, test, 0, err) < 0) {
        bl_sinst_close(&tr);
        return -1;
    }
    lin L;
    memset(&L, 0, sizeof L);
    if (lin_nonneg(&L, &tr, a->nonneg_views, err) < 0) {
        free(L.nn);
        bl_sinst_close(&tr);
        if (has_test)
            bl_sinst_close(&te);
        return -1;
    }
    lin_init(&L, &tr);
    int any_nn = 0;
    for (size_t f = 0; f < L.D; f++)
        any_nn |= L.wnn[f];
    bl_sep sep;
    bl_sep_init(&sep, &tr);
    size_t pbytes = tr.m * tr.lbytes;
    if (has_test && te.m * te.lbytes > pbytes)
        pbytes = te.m * te.lbytes;
    unsigned char *pred = bl_xmalloc(pbytes ? pbytes : 1);
    double *vals = bl_xmalloc(tr.nmetrics * sizeof *vals);
    double *w = bl_xcalloc(L.D, sizeof *w);
    /* working set: a_k (dense), b_k; index 0 is the zero constraint */
    size_t n = 1, cap = 64;
    double **A = bl_xmalloc(cap * sizeof *A), *bk = bl_xmalloc(cap * sizeof *bk);
    double *K = bl_xcalloc(1, sizeof *K), *lam = bl_xmalloc(cap * sizeof *lam);
    A[0] = bl_xcalloc(L.D, sizeof(double));
    bk[0] = 0.0;
    lam[0] = a->C;

    bl_sinst_zero(&tr);
    cv->train_loss0 = a->C * bl_sep_run(&sep, &tr);
    cv->train_err0 = bl_sinst_metrics(&tr, pred, vals);
    cv->test_err0 = NAN;
    if (has_test) {
        bl_sinst_zero(&te);
        cv->test_err0 = bl_sinst_metrics(&te, pred, vals);
    }
    int T = cfg->iterations;
    for (int t = 0; t < T; t++) {
        double t0 = bl_seconds();
        /* the most violated constraint at w */
        lin_scores(&L, &tr, w);
        double H = bl_sep_run(&sep, &tr);
        double xi = 0.0;
        for (size_t k = 0; k < n; k++) {
            double m = bk[k];
            for (size_t f = 0; f < L.D; f++)
                m -= A[k][f] * w[f];
            if (m > xi)
                xi = m;
        }
        if (t > 0 && H <= xi + a->eps_cp) {
            cv->stop = BL_STOP_DUAL;
            break;
        }
        if (n == cap) {
            cap *= 2;
            A = bl_xrealloc(A, cap * sizeof *A);
            bk = bl_xrealloc(bk, cap * sizeof *bk);
            lam = bl_xrealloc(lam, cap * sizeof *lam);
        }
        bl_cut cut;
        bl_sep_cut(&sep, &tr, 0, &cut);
        A[n] = bl_xmalloc(L.D * sizeof(double));
        lin_cut(&L, &tr, &cut, A[n]);
        bk[n] = cut.b;
        bl_cut_free(&cut);
        lam[n] = 0.0;
        n++;
        /* Gram matrix, grown by one row and column */
        double *K2 = bl_xmalloc(n * n * sizeof *K2);
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j <= i; j++) {
                double kij;
                if (i < n - 1)
                    kij = K[i * (n - 1) + j];
                else {
                    kij = 0.0;
                    for (size_t f = 0; f < L.D; f++)
                        kij += A[i][f] * A[j][f];
                }
                K2[i * n + j] = K2[j * n + i] = kij;
            }
        free(K);
        K = K2;
        int steps;
        if (any_nn) {
            steps = qp_simplex_nn(&L, A, K, bk, n, lam, 1e-9, w);
        } else {
            steps = qp_simplex(K, bk, n, lam, 1e-9);
            weights(&L, A, lam, n, w);
        }
        double t1 = bl_seconds();
        /* the curve: objective and metrics at the new w */
        lin_scores(&L, &tr, w);
        H = bl_sep_run(&sep, &tr);
        double ww = 0.0;
        for (size_t f = 0; f < L.D; f++)
            ww += w[f] * w[f];
        bl_curve_push(cv);
        size_t c = cv->n - 1;
        cv->train_loss[c] = 0.5 * ww + a->C * H;
        cv->train_err[c] = bl_sinst_metrics(&tr, pred, vals);
        cv->test_err[c] = NAN;
        if (has_test) {
            lin_scores(&L, &te, w);
            cv->test_err[c] = bl_sinst_metrics(&te, pred, vals);
        }
        cv->edge[c] = H;
        cv->solver_iters[c] = steps;
        cv->trees[c] = n - 1;
        cv->t_weak[c] = 0.0;
        cv->t_coef[c] = t1 - t0;
        cv->t_book[c] = bl_seconds() - t1;
        if (cfg->on_iter)
            cfg->on_iter(cfg->user, (size_t)t + 1, (size_t)T);
    }
    /* final metrics */
    double *mtr = bl_xmalloc(tr.nmetrics * sizeof *mtr), *mte = bl_xmalloc(tr.nmetrics * sizeof *mte);
    lin_scores(&L, &tr, w);
    bl_sinst_metrics(&tr, pred, mtr);
    for (size_t j = 0; j < tr.nmetrics; j++)
        mte[j] = NAN;
    if (has_test) {
        lin_scores(&L, &te, w);
        bl_sinst_metrics(&te, pred, mte);
    }
    bl_metrics_set(met, tr.metric, tr.nmetrics, mtr, mte);
    free(mtr);
    free(mte);
    for (size_t k = 0; k < n; k++)
        free(A[k]);
    free(A);
    free(bk);
    free(K);
    free(lam);
    free(w);
    free(vals);
    free(pred);
    bl_sep_free(&sep, &tr);
    lin_free(&L, &tr);
    bl_sinst_close(&tr);
    if (has_test)
        bl_sinst_close(&te);
    return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The weighted loss wrapper (weighted.h).  The inner loss is a sum (or a
 * mean) of per-example terms, which check_loss.c verifies by calling eval
 * one row at a time; the value is therefore taken row by row and scaled by
 * w_i, and for a loss that averages (s(m) = s(1) / m, told apart from a
 * sum once at F = 0) divided by sum_i w_i instead of m: integer weights
 * then give the loss of the data with each row repeated w_i times, and
 * unit weights the unweighted one.  Derivatives come from one full call,
 * their rows scaled by w_i (and m / sum_i w_i for a mean). */
#include "weighted.h"

#include <math.h>
#include <stdlib.h>

#include "../util/fsutil.h"

typedef struct {
    const struct bl_loss_ops *in;
    void *self;
    const double *w;
    size_t m;
    double ratio;      /* 1 for a sum, 1 / sum_i w_i for a mean */
    double gscale;     /* ratio / (s(m) / s(1)): 1, or m / sum_i w_i */
    int logsum;        /* L = log sum_i e^{l_i} (margin-exp): L_w = log sum_i w_i e^{l_i} */
    double *l, *g, *h; /* log-sum scratch: l_i, dl_i/dF_i, d2l_i/dF_i^2 (m, m k, k) */
    struct bl_loss_ops ops; /* what the engine calls: freed with this */
} wloss;

static void w_destroy(void *p)
{
    wloss *L = p;
    L->in->destroy(L->self);
    free(L->l);
    free(L->g);
    free(L->h);
    free(L);
}

/* Scale each of m rows of width n by w_i (and m ratio, from the full
 * call's s(m) to the weighted normalisation). */
static void scale_rows(const wloss *L, double *a, size_t n)
{
    for (size_t i = 0; a && i < L->m; i++)
        for (size_t r = 0; r < n; r++)
            a[i * n + r] *= L->w[i] * L->gscale;
}

/* ratio * sum_i w_i l_i over rows of width n, l_i from a one-row call of
 * eval (coded = 0, targets y) or eval_coded (coded = 1, targets Y). */
static double row_sum(const wloss *L, int coded, const void *t, size_t n, const double *F,
                      const double *w)
{
    double s = 0;
    for (size_t i = 0; i < L->m; i++) {
        if (w && w[i] == 0)
            continue;
        double li = coded ? L->in->eval_coded(L->self, (const double *)t + i * n, 1, n,
                                              F + i * n, NULL)
                          : L->in->eval(L->self, (const int *)t + i, 1, n, F + i * n, NULL);
        s += (w ? w[i] : 1) * li;
    }
    return s;
}

/* The log-sum form: l_i and g_i from one-row calls, then L_w (max-shifted)
 * and the example shares p_i = w_i e^{l_i - L_w} (0 for weight 0) in l. */
static double logsum_eval(wloss *L, const int *y, size_t k, const double *F)
{
    double top = -INFINITY, z = 0;
    for (size_t i = 0; i < L->m; i++)
        if (L->w[i] > 0) {
            L->l[i] = L->in->eval(L->self, y + i, 1, k, F + i * k, L->g + i * k);
            top = fmax(top, L->l[i] + log(L->w[i]));
        }
    for (size_t i = 0; i < L->m; i++)
        z += L->w[i] > 0 ? exp(L->l[i] + log(L->w[i]) - top) : 0;
    double v = top + log(z);
    for (size_t i = 0; i < L->m; i++)
        L->l[i] = L->w[i] > 0 ? exp(L->l[i] + log(L->w[i]) - v) : 0;
    return v;
}

static double w_eval(void *p, const int *y, size_t m, size_t k, const double *F, double *grad)
{
    wloss *L = p;
    (void)m;
    if (L->logsum) { /* dL_w/dF_i = p_i g_i */
        double v = logsum_eval(L, y, k, F);
        for (size_t i = 0; grad && i < L->m; i++)
            for (size_t r = 0; r < k; r++)
                grad[i * k + r] = L->l[i] * L->g[i * k + r];
        return v;
    }
    if (grad) {
        L->in->eval(L->self, y, L->m, k, F, grad);
        scale_rows(L, grad, k);
    }
    return L->ratio * row_sum(L, 0, y, k, F, L->w);
}

static int w_hessian(void *p, const int *y, size_t m, size_t k, const double *F,
                     enum bl_hess_form form, double *out)
{
    wloss *L = p;
    if (L->logsum) { /* H_ir = p_i (h_ir + g_ir^2) - (p_i g_ir)^2; no rank-1 form */
        if (form != BL_HESS_DIAG)
            return -1;
        logsum_eval(L, y, k, F);
        for (size_t i = 0; i < m; i++) {
            if (L->in->hessian(L->self, y + i, 1, k, F + i * k, form, L->h) < 0)
                return -1;
            for (size_t r = 0; r < k; r++) {
                double g = L->g[i * k + r], q = L->l[i];
                out[i * k + r] = q * (L->h[r] + g * g) - q * q * g * g;
            }
        }
        return 0;
    }
    if (L->in->hessian(L->self, y, m, k, F, form, out) < 0)
        return -1;
    scale_rows(L, out, k); /* h, or the diagonal */
    if (form == BL_HESS_DIAG_RANK1) /* -u u^T scales by w: u by sqrt(w) */
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < k; r++)
                out[m * k + i * k + r] *= sqrt(L->w[i] * L->gscale);
    return 0;
}

static double w_coded(void *p, const double *Y, size_t m, size_t c, const double *f,
                      double *grad)
{
    wloss *L = p;
    (void)m;
    if (grad) {
        L->in->eval_coded(L->self, Y, L->m, c, f, grad);
        scale_rows(L, grad, c);
    }
    return L->ratio * row_sum(L, 1, Y, c, f, L->w);
}

static void w_pairs(void *p, const int *y, size_t m, size_t k, const double *F, double *P)
{
    wloss *L = p;
    L->in->pair_weights(L->self, y, m, k, F, P);
    scale_rows(L, P, k);
}

/* One table per inner shape: the optional members follow the inner loss's.
 * Row fast paths are left out (the host falls back to eval), and so are
 * hinge targets: a per-example weight is not a common scale. */
static const struct bl_loss_ops base = {.size = sizeof(struct bl_loss_ops),
                                        .destroy = w_destroy, .eval = w_eval};

void *bl_weighted_open(const struct bl_loss_ops *inner, void *self, const double *w,
                       const int *y, size_t m, size_t k, const struct bl_loss_ops **ops,
                       bl_error *err)
{
    double *F0 = bl_xcalloc(m * k, sizeof *F0);
    double full = inner->eval(self, y, m, k, F0, NULL);
    wloss probe = {.in = inner, .self = self, .m = m, .ratio = 1, .gscale = 1};
    double rows = row_sum(&probe, 0, y, k, F0, NULL);
    double q = rows != 0 ? full / rows : NAN, lse = -INFINITY;
    for (size_t i = 0; i < m; i++) { /* log sum_i e^{l_i}, max-shifted pairwise */
        double li = inner->eval(self, y + i, 1, k, F0, NULL), hi = fmax(lse, li);
        lse = hi + log(exp(lse - hi) + exp(li - hi));
    }
    free(F0);
    int sum = fabs(q - 1) <= 1e-9, mean = !sum && fabs(q * (double)m - 1) <= 1e-9;
    int logsum = !sum && !mean && fabs(full - lse) <= 1e-9 * (1 + fabs(full));
    if (logsum && inner->eval_coded) {
        bl_errf(err, "example weights: a log-sum loss in code space is not supported");
        return NULL;
    }
    if (!sum && !mean && !logsum) {
        bl_errf(err, "example weights need a loss that sums, averages or log-sums over "
                "examples, but this one does not (at F = 0 it is %g, its rows one by one "
                "add up to %g)", full, rows);
        return NULL;
    }
    double sw = 0;
    for (size_t i = 0; i < m; i++)
        sw += w[i];
    wloss *L = bl_xcalloc(1, sizeof *L);
    *L = (wloss){.in = inner, .self = self, .w = w, .m = m, .ratio = mean ? 1 / sw : 1,
                 .gscale = mean ? (double)m / sw : 1, .logsum = logsum, .ops = base};
    if (logsum) {
        L->l = bl_xcalloc(m, sizeof *L->l);
        L->g = bl_xcalloc(m * k, sizeof *L->g);
        L->h = bl_xcalloc(k, sizeof *L->h);
    }
    struct bl_loss_ops *t = &L->ops;
    t->hessian = inner->hessian ? w_hessian : NULL;
    t->eval_coded = inner->eval_coded ? w_coded : NULL;
    /* log-sum: the host's pair weights from the weighted gradient */
    t->pair_weights = inner->pair_weights && !logsum ? w_pairs : NULL;
    *ops = t;
    return L;
}

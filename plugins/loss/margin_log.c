/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loss plugin "margin-log": the logistic multi-class margin loss of
 * Paisitkriangkrai, Shen & van den Hengel (spec §2.3, (7) and (14)):
 *
 *     L(F) = sum_i sum_r softplus(-rho_ir + o),   rho_ir = F[i,y_i] - F[i,r],
 *
 * with o = 0 by default.  The r = y_i terms (log 2 each at o = 0) are kept
 * in the value.  With q_ir = sigma(-rho_ir + o) (KKT relation (12)) the
 * gradient is dL/dF_ir = q_ir (r != y_i), dL/dF_{i,y_i} = -sum_{r != y_i} q_ir,
 * so -dL/dF is the edge weight c_ir of spec §2.4 with U = q.
 *
 * normalize = examples | pairs divides value, gradient and Hessian by m or
 * by m k (the mean over examples or over pairs; pairs puts nu on
 * margin-exp's scale, whose dual weights sum to 1).  Eq. (7) is the plain
 * sum; the paper's Table I behaves as if its code averaged (see
 * docs/results-stagewise.md).
 * literal_init = true sets o = -log(m k): the paper's literal u^0 = 1/(mk)
 * inside (14), log(1 + u^0 exp(-rho)) = softplus(-rho - log(mk)), i.e. all
 * margins start at log(mk) instead of 0 (spec §3.3, §12.3).
 *
 * softplus and sigmoid use the stable forms of spec §3.8: through e^z while
 * |z| <= 700 (e^z is then a normal double, and log1p(e^z), e^z / (1 + e^z)
 * are exact up to rounding), max(z,0) + log1p(e^-|z|) and the two-branch
 * sigmoid beyond; every z costs one exp, and one log for the log1p.
 *
 * Row fast path for the stage-wise problem (14), phi(w) = L(F + s w^T) with
 * s_i = +-1: there is no exact aggregation for this loss (spec §3.4), so an
 * evaluation stays O(mk), but row_prepare stores the margins
 * d_ir = F_ir - F_{i,y_i} + o (r != y_i) and e^d_ir (where |d_ir| <= 350),
 * and row_eval makes one fused pass over (i, r != y_i) for value and
 * gradient, with no m x k writes and, while max w - min w <= 350, no exp
 * per element: e^z_ir is e^d_ir times an entry of a k x k table of
 * exp(+-(w_r - w_c)).  The r = y_i terms (softplus(o) = log 2 at o = 0) are
 * in the value as in eval, so row_eval(w) equals eval(F + s w^T), and its
 * gradient sum_i s_i dL/dF_i., up to rounding.  Any s_i outside {-1,+1}
 * makes row_prepare decline (the host then uses eval).
 *
 * row_hessian gives that row problem's exact Hessian in the same
 * pass structure and normalisation: the k x k graph Laplacian of spec §3.4
 * with weights softplus''(z_ir) = sigma(z) sigma(-z), O(mk) per call, for
 * Newton-type row solvers (newton-row).
 *
 * eval, row_prepare, row_eval and row_hessian run in parallel (OpenMP, host->threads)
 * over fixed chunks of 2048 examples whose boundaries depend on m only;
 * each chunk's partial value / gradient goes to its own slot and the slots
 * are added in chunk order by one thread, so the results are bit-identical
 * whatever the number of threads.
 */
#include <boostlab/boostlab.h>
#include <boostlab/parallel.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const struct bl_host *g_host;

enum { P_LITERAL_INIT, P_NORMALIZE, P_COUNT };

static const struct bl_param_spec mlog_params[P_COUNT] = {
    [P_LITERAL_INIT] = {"literal_init", BL_PARAM_BOOL, "false", 0, 0, NULL,
                        "offset every margin by log(m*k): the paper's literal u0 = 1/(mk) in (14)"},
    [P_NORMALIZE] = {"normalize", BL_PARAM_CHOICE, "none", 0, 0, "none|examples|pairs",
                     "divide the loss by 1, m (mean over examples) or m*k (mean over pairs); scales nu"},
};

struct mlog {
    int literal_init;
    int normalize;
    int nthreads; /* host->threads at create time (>= 1) */
};

static void *mlog_create(const struct bl_host *host, const union bl_value *params,
                         char err[BL_ERR_MAX])
{
    struct mlog *L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    L->literal_init = params ? params[P_LITERAL_INIT].b : 0;
    L->normalize = params ? params[P_NORMALIZE].choice : 0;
    L->nthreads = host && host->threads > 0 ? host->threads : 1;
    if (L->literal_init && host && host->log)
        host->log(2, "margin-log", "literal_init: every margin starts at log(m*k)");
    return L;
}

static void mlog_destroy(void *self)
{
    free(self);
}

/* log(1 + e^z) without overflow, accurate for very negative z. */
static inline double softplus(double z)
{
    return fmax(z, 0.0) + log1p(exp(-fabs(z)));
}

/* 1 / (1 + e^-z), two branches so exp never overflows. */
static inline double sigmoid(double z)
{
    if (z >= 0.0)
        return 1.0 / (1.0 + exp(-z));
    double e = exp(z);
    return e / (1.0 + e);
}

/* 1, 1/m or 1/(mk) by normalize: scales value, gradient and Hessian alike. */
static double mlog_scale(const struct mlog *L, size_t m, size_t k)
{
    switch (L->normalize) {
    case 1: return 1.0 / (double)m;
    case 2: return 1.0 / ((double)m * (double)k);
    default: return 1.0;
    }
}

static double mlog_offset(const struct mlog *L, size_t m, size_t k)
{
    return L->literal_init ? -log((double)m * (double)k) : 0.0;
}

/* The parallel loops hand out whole chunks of examples (boostlab/parallel.h),
 * each chunk sums into its own slot and the slots are added in chunk order
 * by one thread, so every result is bit-identical whatever the thread
 * count. */

/* |z| <= ZLIM: e^z is a normal double (e^-708 is the smallest), so softplus
 * and sigmoid can be taken from e^z itself (softplus_ez). */
#define ZLIM 700.0

/* softplus(z) = log1p(e^z) and *q = sigmoid(z) from ez = e^z, for ez a
 * normal finite double.  log1p(x) is Goldberg's x log(u) / (u - 1) with
 * u = 1 + x (x itself, correctly rounded, when u = 1; within a few ulps
 * otherwise): one log, about half the cost of glibc's log1p. */
static inline double softplus_ez(double ez, double *q)
{
    double u = 1.0 + ez;
    *q = ez / u;
    return u == 1.0 ? ez : log(u) * (ez / (u - 1.0));
}

/* softplus(z) and *q = sigmoid(z) for any z: through e^z while that is a
 * normal double, with the two-sided stable forms beyond. */
static inline double softplus_sig(double z, double *q)
{
    if (fabs(z) <= ZLIM)
        return softplus_ez(exp(z), q);
    *q = sigmoid(z);
    return softplus(z);
}

/* One chunk of eval: examples [i0, i1).  Each example's value starts with
 * sp0 = softplus(o), its r = y_i term. */
static double mlog_eval_chunk(const int *y, size_t k, const double *F, double *grad, double o,
                              double sp0, size_t i0, size_t i1)
{
    double val = 0.0;
    for (size_t i = i0; i < i1; i++) {
        const double *Fi = F + i * k, fy = Fi[y[i]];
        size_t yi = (size_t)y[i];
        double vt = sp0, tot = 0.0;
        for (size_t r = 0; r < k; r++) {
            if (r == yi)
                continue;
            double q, sp = softplus_sig(Fi[r] - fy + o, &q);
            vt += sp;
            tot += q;
            if (grad)
                grad[i * k + r] = q;
        }
        if (grad)
            grad[i * k + yi] = -tot;
        val += vt;
    }
    return val;
}

/* Chunk adapter for bl_chunked_sum. */
struct mlog_rows_ctx {
    const int *y;
    size_t k;
    const double *F;
    double *grad, o, sp0;
};

static double mlog_rows(void *ctx, size_t i0, size_t i1)
{
    const struct mlog_rows_ctx *c = ctx;
    return mlog_eval_chunk(c->y, c->k, c->F, c->grad, c->o, c->sp0, i0, i1);
}

static double mlog_eval(void *self, const int *y, size_t m, size_t k,
                        const double *F, double *grad)
{
    const struct mlog *L = self;
    if (m == 0 || k == 0)
        return 0.0;
    double o = mlog_offset(L, m, k), q0, sp0 = softplus_sig(o, &q0);
    struct mlog_rows_ctx ctx = {y, k, F, grad, o, sp0};
    double val = bl_chunked_sum(m, L->nthreads, mlog_rows, &ctx);
    double sc = mlog_scale(L, m, k);
    if (sc != 1.0) {
        if (grad)
            for (size_t j = 0; j < m * k; j++)
                grad[j] *= sc;
        val *= sc;
    }
    return val;
}

/* Exact diagonal: q_ir (1 - q_ir) for r != y_i (the r-th term alone depends
 * on F_ir) and sum_{r != y_i} q_ir (1 - q_ir) for r = y_i.  q (1 - q) is
 * computed as sigma(z) sigma(-z) so that it stays accurate in both tails. */
static int mlog_hessian(void *self, const int *y, size_t m, size_t k,
                        const double *F, enum bl_hess_form form, double *out)
{
    const struct mlog *L = self;
    if (form != BL_HESS_DIAG)
        return -1;
    double o = mlog_offset(L, m, k);
    for (size_t i = 0; i < m; i++) {
        const double *Fi = F + i * k, fy = Fi[y[i]];
        size_t yi = (size_t)y[i];
        double tot = 0.0;
        for (size_t r = 0; r < k; r++) {
            if (r == yi)
                continue;
            double z = Fi[r] - fy + o;
            double v = sigmoid(z) * sigmoid(-z);
            out[i * k + r] = v;
            tot += v;
        }
        out[i * k + yi] = tot;
    }
    double sc = mlog_scale(L, m, k);
    if (sc != 1.0)
        for (size_t j = 0; j < m * k; j++)
            out[j] *= sc;
    return 0;
}

/* ---- row fast path ------------------------------------------------------ */

/* phi(w) = L(F + s w^T) = sum_i [ softplus(o) + sum_{r != y_i} softplus(z_ir) ],
 *     z_ir = d_ir + s_i (w_r - w_{y_i}),   d_ir = F_ir - F_{i,y_i} + o,
 *     dphi/dw_r = sum_i s_i q_ir (r != y_i) - sum_{i: y_i = r} s_i sum_{l != r} q_il.
 * row_prepare stores d (m x (k-1), the r != y_i entries in increasing r) and
 * E = e^d where |d| <= ZLIM/2 (else 0).  row_eval then needs no exp per
 * element: when max w - min w <= ZLIM/2 it builds the k x k table
 * exp(+-(w_r - w_c)) (k^2 exps) and e^z_ir = E_ir * table, a normal double,
 * then softplus_ez; entries with E = 0, and every entry when w is too
 * spread out (or k^2 > m(k-1)), go through softplus_sig(z).  One fused pass
 * over (i, r != y_i), no m x k writes.  s must be +-1 (binary stump). */
struct mlog_row {
    size_t m, k, rows, nch;
    int nthreads;
    double sp0;   /* softplus(o): the r = y_i term of every example */
    double scale; /* mlog_scale */
    int *y;       /* m */
    double *s;    /* m */
    double *d;    /* m (k-1) */
    double *E;    /* m (k-1) */
    double *T;    /* 2 k k scratch (so one caller at a time): exp(w_r - w_c), exp(w_c - w_r) */
    double *slot; /* nch (k+1) scratch: per chunk value, then gradient */
    double *hslot; /* nch k k scratch for row_hessian, allocated on first use */
};

static void mlog_row_free(void *row)
{
    struct mlog_row *R = row;
    if (!R)
        return;
    free(R->y);
    free(R->s);
    free(R->d);
    free(R->E);
    free(R->T);
    free(R->slot);
    free(R->hslot);
    free(R);
}

static void mlog_row_prepare_chunk(struct mlog_row *R, const double *F, double o, size_t i0,
                                   size_t i1)
{
    size_t k = R->k, k1 = k - 1;
    for (size_t i = i0; i < i1; i++) {
        const double *Fi = F + i * k, fy = Fi[R->y[i]];
        size_t yi = (size_t)R->y[i];
        double *di = R->d + i * k1, *Ei = R->E + i * k1;
        for (size_t r = 0, j = 0; r < k; r++) {
            if (r == yi)
                continue;
            double dv = Fi[r] - fy + o;
            di[j] = dv;
            Ei[j] = fabs(dv) <= 0.5 * ZLIM ? exp(dv) : 0.0;
            j++;
        }
    }
}

static void *mlog_row_prepare(void *self, const int *y, size_t m, size_t k,
                              const double *F, const double *s)
{
    const struct mlog *L = self;
    if (m == 0 || k == 0)
        return NULL;
    for (size_t i = 0; i < m; i++)
        if (s[i] != 1.0 && s[i] != -1.0) {
            /* not a binary stump: the host falls back to eval */
            if (g_host && g_host->log)
                g_host->log(2, "margin-log", "row fast path declined: s[%zu] = %g is not +-1",
                            i, s[i]);
            return NULL;
        }
    struct mlog_row *R = calloc(1, sizeof *R);
    if (!R)
        return NULL;
    size_t n1 = m * (k - 1) + 1; /* + 1: never malloc(0) */
    R->m = m;
    R->k = k;
    R->rows = bl_chunk_rows(m);
    R->nch = (m + R->rows - 1) / R->rows;
    R->nthreads = L->nthreads < (int)R->nch ? L->nthreads : (int)R->nch;
    double q0, o = mlog_offset(L, m, k);
    R->sp0 = softplus_sig(o, &q0);
    R->scale = mlog_scale(L, m, k);
    R->y = malloc(m * sizeof *R->y);
    R->s = malloc(m * sizeof *R->s);
    R->d = malloc(n1 * sizeof *R->d);
    R->E = malloc(n1 * sizeof *R->E);
    R->T = malloc(2 * k * k * sizeof *R->T);
    R->slot = malloc(R->nch * (k + 1) * sizeof *R->slot);
    if (!R->y || !R->s || !R->d || !R->E || !R->T || !R->slot) {
        mlog_row_free(R);
        return NULL;
    }
    for (size_t i = 0; i < m; i++) {
        R->y[i] = y[i];
        R->s[i] = s[i];
    }
    long n = (long)R->nch;
    int nt = R->nthreads;
    (void)nt;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (nt > 1)
    for (long c = 0; c < n; c++) {
        size_t i0 = (size_t)c * R->rows, i1 = i0 + R->rows < m ? i0 + R->rows : m;
        mlog_row_prepare_chunk(R, F, o, i0, i1);
    }
    return R;
}

/* One chunk of row_eval into slot = (value, gradient[k]). */
static void mlog_row_chunk(const struct mlog_row *R, const double *w, int table, size_t c)
{
    size_t m = R->m, k = R->k, k1 = k - 1, kk = k * k;
    size_t i0 = c * R->rows, i1 = i0 + R->rows < m ? i0 + R->rows : m;
    double *slot = R->slot + c * (k + 1), *g = slot + 1, val = 0.0;
    for (size_t r = 0; r < k; r++)
        g[r] = 0.0;
    for (size_t i = i0; i < i1; i++) {
        size_t yi = (size_t)R->y[i];
        double si = R->s[i], wy = w[yi], vt = R->sp0, tot = 0.0;
        const double *di = R->d + i * k1, *Ei = R->E + i * k1;
        const double *Ti = table ? R->T + (si > 0 ? 0 : kk) + yi * k : NULL;
        for (size_t r = 0, j = 0; r < k; r++) {
            if (r == yi)
                continue;
            double q, sp;
            if (Ti && Ei[j] != 0.0)
                sp = softplus_ez(Ei[j] * Ti[r], &q);
            else
                sp = softplus_sig(di[j] + si * (w[r] - wy), &q);
            vt += sp;
            tot += q;
            g[r] += si * q;
            j++;
        }
        g[yi] -= si * tot;
        val += vt;
    }
    slot[0] = val;
}

/* Fill R->T with exp(+-(w_r - w_c)) when the table applies at w (see
 * mlog_row_eval); returns whether it does. */
static int mlog_row_table(struct mlog_row *R, const double *w)
{
    size_t m = R->m, k = R->k, kk = k * k;
    double wmin = w[0], wmax = w[0];
    for (size_t r = 1; r < k; r++) {
        wmin = fmin(wmin, w[r]);
        wmax = fmax(wmax, w[r]);
    }
    /* the table pays off when k^2 exps are fewer than the m (k-1) it saves;
     * a NaN or inf in w fails the spread test and takes the general path */
    int table = wmax - wmin <= 0.5 * ZLIM && kk <= m * (k - 1);
    if (table) {
        for (size_t c = 0; c < k; c++)
            for (size_t r = 0; r < k; r++)
                R->T[c * k + r] = exp(w[r] - w[c]);
        for (size_t c = 0; c < k; c++)
            for (size_t r = 0; r < k; r++)
                R->T[kk + c * k + r] = R->T[r * k + c];
    }
    return table;
}

static double mlog_row_eval(void *row, const double *w, double *grad)
{
    struct mlog_row *R = row;
    size_t k = R->k;
    int table = mlog_row_table(R, w);
    long n = (long)R->nch;
    int nt = R->nthreads;
    (void)nt;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (nt > 1)
    for (long c = 0; c < n; c++)
        mlog_row_chunk(R, w, table, (size_t)c);
    double val = 0.0;
    if (grad)
        for (size_t r = 0; r < k; r++)
            grad[r] = 0.0;
    for (size_t c = 0; c < R->nch; c++) {
        const double *slot = R->slot + c * (k + 1);
        val += slot[0];
        if (grad)
            for (size_t r = 0; r < k; r++)
                grad[r] += slot[1 + r];
    }
    if (R->scale != 1.0) {
        if (grad)
            for (size_t r = 0; r < k; r++)
                grad[r] *= R->scale;
        val *= R->scale;
    }
    return val;
}

/* ---- row Hessian --------------------------------------------------------- */

/* d z_ir / d w = s_i (e_r - e_{y_i}) and s_i^2 = 1, so
 *     H = sum_i sum_{r != y_i} v_ir (e_{y_i} - e_r)(e_{y_i} - e_r)^T,
 *     v_ir = softplus''(z_ir) = sigma(z_ir) sigma(-z_ir),
 * a weighted graph Laplacian on the classes.  A chunk accumulates only
 * A[y_i][r] += v_ir (k x k); H_cr = -(A_cr + A_rc) for c != r and
 * H_cc = sum_r (A_cr + A_rc).  v = (e^z / (1 + e^z)) / (1 + e^z), the
 * product taken left to right so that neither tail underflows early or
 * cancels, and e^z comes from the same table as in row_eval (one division,
 * no exp, per element). */
static void mlog_row_hess_chunk(const struct mlog_row *R, const double *w, int table, size_t c)
{
    size_t m = R->m, k = R->k, k1 = k - 1, kk = k * k;
    size_t i0 = c * R->rows, i1 = i0 + R->rows < m ? i0 + R->rows : m;
    double *A = R->hslot + c * kk;
    for (size_t j = 0; j < kk; j++)
        A[j] = 0.0;
    for (size_t i = i0; i < i1; i++) {
        size_t yi = (size_t)R->y[i];
        double si = R->s[i], wy = w[yi], *Ay = A + yi * k;
        const double *di = R->d + i * k1, *Ei = R->E + i * k1;
        const double *Ti = table ? R->T + (si > 0 ? 0 : kk) + yi * k : NULL;
        for (size_t r = 0, j = 0; r < k; r++) {
            if (r == yi)
                continue;
            double v;
            if (Ti && Ei[j] != 0.0) {
                double ez = Ei[j] * Ti[r], inv = 1.0 / (1.0 + ez);
                v = ez * inv * inv;
            } else {
                double z = di[j] + si * (w[r] - wy);
                if (fabs(z) <= ZLIM) {
                    double ez = exp(z), inv = 1.0 / (1.0 + ez);
                    v = ez * inv * inv;
                } else {
                    v = sigmoid(z) * sigmoid(-z);
                }
            }
            Ay[r] += v;
            j++;
        }
    }
}

static int mlog_row_hessian(void *row, const double *w, double *H)
{
    struct mlog_row *R = row;
    size_t k = R->k, kk = k * k;
    if (!R->hslot && !(R->hslot = malloc(R->nch * kk * sizeof *R->hslot)))
        return -1;
    int table = mlog_row_table(R, w);
    long n = (long)R->nch;
    int nt = R->nthreads;
    (void)nt;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (nt > 1)
    for (long c = 0; c < n; c++)
        mlog_row_hess_chunk(R, w, table, (size_t)c);
    /* the chunks in order (bit-identical whatever the thread count); A
     * goes into H's upper triangle, then H is assembled in place */
    for (size_t j = 0; j < kk; j++)
        H[j] = 0.0;
    for (size_t c = 0; c < R->nch; c++) {
        const double *A = R->hslot + c * kk;
        for (size_t j = 0; j < kk; j++)
            H[j] += A[j];
    }
    for (size_t a = 0; a < k; a++) {
        double diag = 0.0;
        for (size_t b = 0; b < k; b++)
            if (b != a)
                diag += H[a * k + b] + H[b * k + a];
        H[a * k + a] = diag;
    }
    for (size_t a = 0; a < k; a++)
        for (size_t b = a + 1; b < k; b++) {
            double v = -(H[a * k + b] + H[b * k + a]) * R->scale;
            H[a * k + b] = v;
            H[b * k + a] = v;
        }
    for (size_t a = 0; a < k; a++)
        H[a * k + a] *= R->scale;
    return 0;
}

/* ---- descriptor -------------------------------------------------------- */

static const struct bl_loss_ops mlog_ops = {
    .size = sizeof(struct bl_loss_ops),
    .create = mlog_create,
    .destroy = mlog_destroy,
    .eval = mlog_eval,
    .hessian = mlog_hessian,
    .row_prepare = mlog_row_prepare,
    .row_eval = mlog_row_eval,
    .row_free = mlog_row_free,
    .row_hessian = mlog_row_hessian,
};

static const struct bl_plugin mlog_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_LOSS,
    .name = "margin-log",
    .doc = "logistic multi-class margin loss sum_ir log(1 + exp(-rho_ir)) (MCBoost-log, eq. (7)/(14))",
    .params = mlog_params,
    .nparams = P_COUNT,
    .ops = &mlog_ops,
};

static const struct bl_plugin *const mlog_plugins[] = {&mlog_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    g_host = host;
    return mlog_plugins;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loss plugin "margin-exp": the exponential multi-class margin loss of
 * Paisitkriangkrai, Shen & van den Hengel in its log form (spec §2.2, (5)
 * and (13)):
 *
 *     L(F) = log sum_i sum_r exp(-rho_ir),   rho_ir = F[i,y_i] - F[i,r].
 *
 * The r = y_i terms (exp(0) = 1) are kept, so at F = 0 the dual weights are
 * 1/(mk) as in the paper's Algorithm 1.  With p the softmax of z_ir = -rho_ir
 * over all m*k pairs (KKT relation (11)), the gradient is
 *     dL/dF_ir = p_ir (r != y_i),   dL/dF_{i,y_i} = -sum_{r != y_i} p_ir,
 * so -dL/dF is exactly the edge weight c_ir of spec §2.4 with U = p.
 *
 * Also here: the exact Hessian diagonal and the O(k^2) fast path for the
 * stage-wise row problem (13) built on the A+/A- aggregation of spec §3.4,
 * with that row problem's full k x k Hessian (row_hessian), also
 * O(k^2).
 * Everything is computed with max-shifted log-sum-exp (spec §3.8), so any
 * finite F gives a finite value and gradient.
 *
 * pairs = wrong (parameter; default all): only the m (k-1) pairs r != y_i,
 *
 *     L(F) = log sum_i sum_{r != y_i} exp(-rho_ir),
 *
 * RandomBoost's log-sum-exp primal (2) (RandomBoost spec §2.1-§2.2, which
 * says "use r != y_i only": under the log the m constant terms exp(0) = 1
 * of the default move the minimiser once nu > 0; with nu = 0 both forms
 * have the same minimisers, the log being monotone and the constants not
 * depending on w).  p is then the softmax over those pairs only, which is
 * the KKT relation (4) u_ir of that spec; gradient, Hessian diagonal and
 * row fast path are the same formulas with the constant terms left out
 * (the diagonal of the log-sum-exp Hessian, p (1 - p), is exact in either
 * form, so BL_HESS_DIAG stays available; BL_HESS_DIAG_RANK1 cannot express
 * the coupling of all examples through the shared normaliser and is
 * refused, as before).  The max shift then starts at -inf instead of 0, so
 * the value stays finite for any finite F.  With k = 1 there is no pair:
 * the value is 0 (an empty sum taken as contributing nothing, not
 * log 0 = -inf) with a zero gradient, and the row fast path declines.
 * The default, pairs = all, runs exactly the same operations as before the
 * parameter existed (bit-identical results; tests/unit/test_expstep.c).
 *
 * Threads (OpenMP, host->threads), with results bit-identical whatever
 * their number: eval runs over fixed chunks of 2048 examples (boundaries
 * depend on m only), each chunk's partial max / sum goes to its own slot and
 * the slots are combined in chunk order by one thread (the max-shift, a
 * maximum, is exact anyway); row_prepare buckets the examples by
 * (sign, class) group and sums each group in one thread, in example order.
 */
#include <boostlab/boostlab.h>
#include <boostlab/parallel.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const struct bl_host *g_host;

enum { P_PAIRS, P_COUNT };
enum { PAIRS_ALL = 0, PAIRS_WRONG = 1 };

static const struct bl_param_spec mexp_params[P_COUNT] = {
    [P_PAIRS] = {"pairs", BL_PARAM_CHOICE, "all", 0, 0, "all|wrong",
                 "all: the m*k pairs, r = y_i included (MCBoost); wrong: only r != y_i, "
                 "RandomBoost's log-sum-exp primal (2)"},
};

struct mexp {
    int nthreads; /* host->threads at create time (>= 1) */
    int wrong;    /* pairs = wrong: leave the r = y_i terms out */
};

static void *mexp_create(const struct bl_host *host, const union bl_value *params,
                         char err[BL_ERR_MAX])
{
    struct mexp *L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    L->nthreads = host && host->threads > 0 ? host->threads : 1;
    L->wrong = params ? params[P_PAIRS].choice == PAIRS_WRONG : 0;
    return L;
}

static void mexp_destroy(void *self)
{
    free(self);
}

/* Examples per chunk.  The parallel loops hand out whole chunks, each chunk
 * writes its own slot and the slots are combined in chunk order by one
 * thread, so every result is bit-identical whatever the thread count.  The
 * chunks are those of boostlab/parallel.h: they depend on m only. */
/* max(0, max_{i,r} F_ir - F_{i,y_i}) over examples [i0, i1); with wrong
 * set, max_{i, r != y_i} (-inf when there is no such pair) */
static double mexp_chunk_max(const int *y, size_t k, const double *F, int wrong, size_t i0,
                             size_t i1)
{
    double M = wrong ? -HUGE_VAL : 0.0;
    for (size_t i = i0; i < i1; i++) {
        const double *Fi = F + i * k, fy = Fi[y[i]];
        size_t yi = (size_t)y[i];
        for (size_t r = 0; r < k; r++) {
            if (wrong && r == yi)
                continue;
            if (Fi[r] - fy > M)
                M = Fi[r] - fy;
        }
    }
    return M;
}

/* sum of exp(F_ir - F_{i,y_i} - M) over examples [i0, i1) (r != y_i only
 * with wrong set); grad (when not NULL) receives the terms (with wrong set
 * its r = y_i entries are left for mexp_chunk_norm to write) */
static double mexp_chunk_sum(const int *y, size_t k, const double *F, double *grad, double M,
                             int wrong, size_t i0, size_t i1)
{
    double S = 0.0;
    for (size_t i = i0; i < i1; i++) {
        const double *Fi = F + i * k, fy = Fi[y[i]];
        size_t yi = (size_t)y[i];
        for (size_t r = 0; r < k; r++) {
            if (wrong && r == yi)
                continue;
            double e = exp(Fi[r] - fy - M);
            S += e;
            if (grad)
                grad[i * k + r] = e;
        }
    }
    return S;
}

static void mexp_chunk_norm(const int *y, size_t k, double *grad, double inv, size_t i0,
                            size_t i1)
{
    for (size_t i = i0; i < i1; i++) {
        double *gi = grad + i * k, tot = 0.0;
        size_t yi = (size_t)y[i];
        for (size_t r = 0; r < k; r++)
            if (r != yi) {
                gi[r] *= inv;
                tot += gi[r];
            }
        gi[yi] = -tot;
    }
}

/* Value and (optionally) dL/dF.  Two passes over chunks: the maximum
 * exponent M (at least 0, the r = y_i term; a max is exact, so M is the
 * same for any chunking), then the shifted sums; grad first holds the
 * shifted exponentials and is normalised in a third pass.  With pairs =
 * wrong the r = y_i terms are skipped and M starts at -inf (it is finite
 * once k >= 2: every example has a pair). */
static double mexp_eval(void *self, const int *y, size_t m, size_t k,
                        const double *F, double *grad)
{
    const struct mexp *L = self;
    if (m == 0 || k == 0)
        return 0.0;
    const int wrong = L->wrong;
    if (wrong && k < 2) { /* no pair at all: value 0, no gradient */
        if (grad)
            for (size_t j = 0; j < m * k; j++)
                grad[j] = 0.0;
        return 0.0;
    }
    size_t rows = bl_chunk_rows(m), nch = (m + rows - 1) / rows;
    double part[BL_MAX_CHUNKS], M = wrong ? -HUGE_VAL : 0.0, S = 0.0;
    int nt = L->nthreads < (int)nch ? L->nthreads : (int)nch;
    long n = (long)nch;
    (void)nt;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
#pragma omp for schedule(dynamic, 1)
        for (long c = 0; c < n; c++) {
            size_t i0 = (size_t)c * rows, i1 = i0 + rows < m ? i0 + rows : m;
            part[c] = mexp_chunk_max(y, k, F, wrong, i0, i1);
        }
#pragma omp single
        for (size_t c = 0; c < nch; c++)
            if (part[c] > M)
                M = part[c];
#pragma omp for schedule(dynamic, 1)
        for (long c = 0; c < n; c++) {
            size_t i0 = (size_t)c * rows, i1 = i0 + rows < m ? i0 + rows : m;
            part[c] = mexp_chunk_sum(y, k, F, grad, M, wrong, i0, i1);
        }
#pragma omp single
        for (size_t c = 0; c < nch; c++)
            S += part[c];
        if (grad) {
            double inv = 1.0 / S;
#pragma omp for schedule(dynamic, 1)
            for (long c = 0; c < n; c++) {
                size_t i0 = (size_t)c * rows, i1 = i0 + rows < m ? i0 + rows : m;
                mexp_chunk_norm(y, k, grad, inv, i0, i1);
            }
        }
    }
    return M + log(S);
}

/* Exact diagonal: d2L/dF_ir^2 = p_ir (1 - p_ir) for r != y_i and
 * P_i (1 - P_i) for r = y_i, where P_i = sum_{r != y_i} p_ir (with either
 * pair set: p is what eval's gradient holds). */
static int mexp_hessian(void *self, const int *y, size_t m, size_t k,
                        const double *F, enum bl_hess_form form, double *out)
{
    if (form != BL_HESS_DIAG)
        return -1;
    if (m == 0 || k == 0)
        return 0;
    mexp_eval(self, y, m, k, F, out); /* out = gradient, i.e. p and -P */
    for (size_t i = 0; i < m; i++) {
        double *oi = out + i * k;
        size_t yi = (size_t)y[i];
        for (size_t r = 0; r < k; r++) {
            double p = r == yi ? -oi[r] : oi[r];
            oi[r] = p * (1.0 - p);
        }
    }
    return 0;
}

/* ---- row fast path (spec §3.4, "cheap evaluation") -------------------- */

/* phi(w) = L(F + s w^T) = LSE over the terms
 *     log m                                  (the m pairs r = y_i)
 *     la[0][c][r] - (w_c - w_r)              (y_i = c, r != c, s_i = +1)
 *     la[1][c][r] + (w_c - w_r)              (y_i = c, r != c, s_i = -1)
 * with la[.][c][r] = log sum_{i in group} exp(F_ir - F_{i,c}) (the spec's
 * log A+/A- with the shift M folded in).  Each group is summed with its own
 * maximum, so a group far below the others does not underflow to zero and
 * still counts when w makes it dominant.  Empty groups hold -inf.  With
 * pairs = wrong there is no log m term: logm is -inf, so it drops out of
 * the maximum and adds exp(-inf) = 0 to the sum. */
struct mexp_row {
    size_t k;
    double logm;  /* log m, or -inf for pairs = wrong */
    double *la;   /* 2 * k * k */
    double *t;    /* scratch for row_eval / row_hessian (so one caller at a
                     time), 2 * k * k + k */
};

static void mexp_row_free(void *row)
{
    struct mexp_row *R = row;
    if (!R)
        return;
    free(R->la);
    free(R->t);
    free(R);
}

/* One group g = h k + c (h = 0 for s_i = +1, 1 for -1; c = y_i): its
 * examples idx[0..n) in increasing i, row la = la + g k, scratch mx (k). */
static void mexp_row_group(const double *F, size_t k, size_t c, const size_t *idx, size_t n,
                           double *la, double *mx)
{
    for (size_t r = 0; r < k; r++) {
        mx[r] = -HUGE_VAL;
        la[r] = 0.0;
    }
    for (size_t j = 0; j < n; j++) {
        const double *Fi = F + idx[j] * k, fy = Fi[c];
        for (size_t r = 0; r < k; r++)
            if (Fi[r] - fy > mx[r])
                mx[r] = Fi[r] - fy;
    }
    for (size_t j = 0; j < n; j++) {
        const double *Fi = F + idx[j] * k, fy = Fi[c];
        for (size_t r = 0; r < k; r++)
            la[r] += exp(Fi[r] - fy - mx[r]);
    }
    /* r == c is the constant term counted in log m */
    for (size_t r = 0; r < k; r++)
        la[r] = (r == c || la[r] == 0.0) ? -HUGE_VAL : mx[r] + log(la[r]);
}

/* O(mk) once per stump.  The examples are bucketed by group (in increasing
 * i), then the 2k groups run in parallel: each group is summed by one
 * thread in example order, so la does not depend on the thread count. */
static void *mexp_row_prepare(void *self, const int *y, size_t m, size_t k,
                              const double *F, const double *s)
{
    const struct mexp *L = self;
    if (m == 0 || k == 0 || (L->wrong && k < 2)) /* (no pair: eval's value 0) */
        return NULL;
    for (size_t i = 0; i < m; i++)
        if (s[i] != 1.0 && s[i] != -1.0) {
            /* not a binary stump: the host falls back to eval */
            if (g_host && g_host->log)
                g_host->log(2, "margin-exp", "row fast path declined: s[%zu] = %g is not +-1",
                            i, s[i]);
            return NULL;
        }
    struct mexp_row *R = calloc(1, sizeof *R);
    if (!R)
        return NULL;
    size_t kk = k * k, ng = 2 * k;
    R->k = k;
    R->logm = L->wrong ? -HUGE_VAL : log((double)m);
    R->la = malloc(2 * kk * sizeof *R->la);
    /* first the groups' mx scratch; + k for row_hessian's gradient */
    R->t = malloc((2 * kk + k) * sizeof *R->t);
    size_t *idx = malloc(m * sizeof *idx), *start = calloc(ng + 1, sizeof *start);
    if (!R->la || !R->t || !idx || !start) {
        free(idx);
        free(start);
        mexp_row_free(R);
        return NULL;
    }
    for (size_t i = 0; i < m; i++)
        start[(s[i] > 0 ? 0 : k) + (size_t)y[i] + 1]++;
    for (size_t g = 0; g < ng; g++)
        start[g + 1] += start[g];
    for (size_t i = 0; i < m; i++) /* start[g] runs up to the next group's start */
        idx[start[(s[i] > 0 ? 0 : k) + (size_t)y[i]]++] = i;
    for (size_t g = ng; g > 0; g--) /* back to the groups' starts */
        start[g] = start[g - 1];
    start[0] = 0;
    int nt = L->nthreads < (int)ng ? L->nthreads : (int)ng;
    long n = (long)ng;
    (void)nt;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (nt > 1 && m * k >= 65536)
    for (long gl = 0; gl < n; gl++) {
        size_t g = (size_t)gl;
        mexp_row_group(F, k, g % k, idx + start[g], start[g + 1] - start[g], R->la + g * k,
                       R->t + g * k);
    }
    free(idx);
    free(start);
    return R;
}

/* R->t = the terms' exp(. - M) at w (0 for empty groups); returns M, with
 * *S the sum of every term (the m constant ones included, unless pairs =
 * wrong) times e^-M. */
static double mexp_row_terms(struct mexp_row *R, const double *w, double *Sp)
{
    size_t k = R->k, kk = k * k;
    double M = R->logm;
    for (size_t c = 0; c < k; c++)
        for (size_t r = 0; r < k; r++) {
            double d = w[c] - w[r];
            double tp = R->la[c * k + r] - d, tm = R->la[kk + c * k + r] + d;
            R->t[c * k + r] = tp;
            R->t[kk + c * k + r] = tm;
            if (tp > M)
                M = tp;
            if (tm > M)
                M = tm;
        }
    double S = exp(R->logm - M);
    for (size_t g = 0; g < 2 * kk; g++) {
        R->t[g] = exp(R->t[g] - M); /* exp(-inf) = 0 for empty groups */
        S += R->t[g];
    }
    *Sp = S;
    return M;
}

static double mexp_row_eval(void *row, const double *w, double *grad)
{
    struct mexp_row *R = row;
    size_t k = R->k, kk = k * k;
    double S, M = mexp_row_terms(R, w, &S);
    if (grad) {
        for (size_t a = 0; a < k; a++)
            grad[a] = 0.0;
        /* a "+" term depends on -(w_c - w_r), a "-" term on +(w_c - w_r) */
        for (size_t c = 0; c < k; c++)
            for (size_t r = 0; r < k; r++) {
                double v = (R->t[kk + c * k + r] - R->t[c * k + r]) / S;
                grad[c] += v;
                grad[r] -= v;
            }
    }
    return M + log(S);
}

/* The row problem's Hessian, O(k^2): phi is a log-sum-exp of
 * terms exp(a^T w + b) with a = -(e_c - e_r) ("+") or +(e_c - e_r) ("-"),
 * so with p their softmax weights and g = sum p a the gradient,
 *     H = sum_{c,r} (p+_cr + p-_cr) (e_c - e_r)(e_c - e_r)^T - g g^T
 * (spec §3.4): a graph Laplacian minus a rank-one term, still H 1 = 0. */
static int mexp_row_hessian(void *row, const double *w, double *H)
{
    struct mexp_row *R = row;
    size_t k = R->k, kk = k * k;
    double S, *g = R->t + 2 * kk; /* k more doubles of scratch, see row_prepare */
    mexp_row_terms(R, w, &S);
    for (size_t j = 0; j < kk; j++)
        H[j] = 0.0;
    for (size_t a = 0; a < k; a++)
        g[a] = 0.0;
    for (size_t c = 0; c < k; c++)
        for (size_t r = 0; r < k; r++) {
            if (r == c)
                continue;
            double pp = R->t[c * k + r] / S, pm = R->t[kk + c * k + r] / S, v = pp + pm;
            g[c] += pm - pp;
            g[r] -= pm - pp;
            H[c * k + c] += v;
            H[r * k + r] += v;
            H[c * k + r] -= v;
            H[r * k + c] -= v;
        }
    for (size_t a = 0; a < k; a++)
        for (size_t b = 0; b < k; b++)
            H[a * k + b] -= g[a] * g[b];
    return 0;
}

/* ---- descriptor -------------------------------------------------------- */

static const struct bl_loss_ops mexp_ops = {
    .size = sizeof(struct bl_loss_ops),
    .create = mexp_create,
    .destroy = mexp_destroy,
    .eval = mexp_eval,
    .hessian = mexp_hessian,
    .row_prepare = mexp_row_prepare,
    .row_eval = mexp_row_eval,
    .row_free = mexp_row_free,
    .row_hessian = mexp_row_hessian,
};

static const struct bl_plugin mexp_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_LOSS,
    .name = "margin-exp",
    .doc = "exponential multi-class margin loss, log form log sum_ir exp(-rho_ir) (MCBoost-exp, eq. (5)/(13))",
    .params = mexp_params,
    .nparams = P_COUNT,
    .ops = &mexp_ops,
};

static const struct bl_plugin *const mexp_plugins[] = {&mexp_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    g_host = host;
    return mexp_plugins;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loss plugin "softmax": the multi-class logistic (cross-entropy) loss
 *
 *     L(F) = sum_i [ log sum_r exp(F_ir) - F_{i,y_i} ]
 *          = sum_i log(1 + sum_{r != y_i} exp(F_ir - F_{i,y_i})),
 *
 * the loss of LogitBoost and its kin (AOSO, ABC, MART; Sun et al. 2014 eq. 3)
 * and of GradBoost (Duchi & Singer 2009) as the stage-wise spec
 * reconstructs it (spec §7.6: RECONSTRUCTION, not the authors' code; in
 * particular whether they average over the m examples is unknown, hence
 * the normalize parameter).  With p_ir = softmax_r(F_i.):
 *     dL/dF_ir = p_ir - [r = y_i],     d2L/dF_ir^2 = p_ir (1 - p_ir)
 * (exact diagonal), so -dL/dF = Y - P, which at F = 0 is Y_ir - 1/k.  The
 * whole per-example Hessian is diag(p) - p p^T, given to tree learners in the
 * BL_HESS_DIAG_RANK1 form: h = p (1 - p), u = p.  Once a Hessian
 * has been asked for, the probabilities of each eval with a gradient are
 * kept, so the Hessian at that same F (the engine's order for tree learners)
 * costs no exp; callers that never ask (solvers' line searches) pay nothing.
 * The shifted exps are kept too: the next eval computes exp only where a
 * score or its row's shift changed (an AOSO tree moves 2 of k scores per
 * example), with the same bits as computing them all.
 *
 * Stability: per example the log-sum-exp is shifted by the row maximum
 * F_ia (a = first argmax), e_r = exp(F_ir - F_ia) <= 1 with e_a = 1, and
 * S0 = sum_{r != a} e_r is accumulated apart, so that
 *     value_i = (F_ia - F_{i,y_i}) + log1p(S0),
 *     1 - p_a = S0 / (1 + S0),   1 - p_r = (1 + S0 - e_r) / (1 + S0) (r != a)
 * are accurate even when one class dominates (no 1 - p cancellation in the
 * gradient's r = y_i entry or in the Hessian).  Value, gradient and Hessian
 * are finite for any F whose within-row differences are finite.
 *
 * normalize = examples divides value, gradient and Hessian by m (the mean
 * over examples; GradBoost's regularisation grid 5e-7 ... 1e-1 suggests a
 * mean, since the sum's row gradients grow with m).  Default: the plain sum.
 *
 * No row fast path: the engine evaluates the row problem through eval.
 *
 * Threads (OpenMP, host->threads), with results bit-identical whatever
 * their number: fixed chunks of 2048 examples (boundaries depend on m
 * only), one slot per chunk, slots added in chunk order by one thread.
 */
#include <boostlab/boostlab.h>
#include <boostlab/parallel.h>

#include "../common/clones.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { P_NORMALIZE, P_COUNT };

static const struct bl_param_spec sm_params[P_COUNT] = {
    [P_NORMALIZE] = {"normalize", BL_PARAM_CHOICE, "none", 0, 0, "none|examples",
                     "divide the loss by 1 or by m (mean over examples); scales nu"},
};

struct sm {
    int normalize;
    int nthreads; /* host->threads at create time (>= 1) */
    /* The probabilities of the last eval with a gradient, p and q = 1 - p
     * (m x k each) at scores Fc: a Hessian asked for at the same F (what
     * the engine does for tree learners, once per iteration) reuses them
     * instead of computing every exp again. */
    double *Fc, *P, *Q;
    /* ... and of that eval, per example the shift Mc (row maximum), its
     * class ac, and the shifted exps E (m x k, E_ia unused): the next eval
     * reuses exp(F_ir - M) wherever F_ir and the shift are unchanged, the
     * very same bits, so a tree that moves 2 of k scores per example (AOSO)
     * costs 2 exps there, not k - 1. */
    double *Mc, *E;
    int *ac;
    size_t cm, ck;
    int valid;
    int hess_asked; /* cache only for callers that ever ask for a Hessian */
    /* update's own state (loss.h "lazy state"), apart from eval's cache so
     * that line searches at other scores leave it alone: per example the
     * shift uM and its class ua, the shifted exps uE (m x k, uE_ia = 1),
     * and the derivatives handed out, uG = -dL/dF, uH, uU (m x k each). */
    double *uM, *uE, *uG, *uH, *uU;
    int *ua;
    size_t um, uk;
};

static void *sm_create(const struct bl_host *host, const union bl_value *params,
                       char err[BL_ERR_MAX])
{
    struct sm *L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    L->normalize = params ? params[P_NORMALIZE].choice : 0;
    L->nthreads = host && host->threads > 0 ? host->threads : 1;
    return L;
}

static void sm_destroy(void *self)
{
    struct sm *L = self;
    free(L->Fc);
    free(L->P);
    free(L->Q);
    free(L->Mc);
    free(L->E);
    free(L->ac);
    free(L->uM), free(L->uE), free(L->uG), free(L->uH), free(L->uU), free(L->ua);
    free(L);
}

/* The first argmax of row Fi (k >= 1) and its value M, by selects. */
static size_t row_max(const double *Fi, size_t k, double *M)
{
    size_t a = 0;
    double v = Fi[0];
    for (size_t r = 1; r < k; r++) {
        int gt = Fi[r] > v;
        a = gt ? r : a;
        v = gt ? Fi[r] : v;
    }
    *M = v;
    return a;
}

/* The cache of the previous eval (struct sm), for sm_chunk: when prev is
 * set, Fc, Mc, ac and E hold that eval's scores, shifts and exps, and are
 * brought up to date for F as the rows are done. */
struct sm_cache {
    double *Fc, *Mc, *E;
    int *ac;
    int prev;
};

/* Examples [i0, i1), each scaled by sc: returns the sum of the values; grad
 * (when not NULL) gets sc (p - Y); P and Q (when not NULL, with the cache
 * C) get p and 1 - p. */
BL_CLONES static double sm_chunk(const int *y, size_t k, const double *F, double *grad, double *P,
                       double *Q, const struct sm_cache *C, double sc, size_t i0, size_t i1)
{
    double val = 0.0;
    for (size_t i = i0; i < i1; i++) {
        const double *Fi = F + i * k;
        size_t yi = (size_t)y[i];
        double M, S0 = 0.0;
        size_t a = row_max(Fi, k, &M);
        double *e = P ? P + i * k : NULL; /* each exp once: kept in P's row */
        if (e) {
            double *Ei = C->E + i * k, *Fci = C->Fc + i * k;
            /* the same shift as before (== on doubles: a -0 for a +0 gives
             * the same differences' exps) */
            int keep = C->prev && C->ac[i] == (int)a && C->Mc[i] == M;
            for (size_t r = 0; r < k; r++) {
                if (r == a)
                    continue;
                double er = keep && Fi[r] == Fci[r] ? Ei[r] : exp(Fi[r] - M);
                S0 += er;
                e[r] = Ei[r] = er;
            }
            memcpy(Fci, Fi, k * sizeof *Fi);
            C->Mc[i] = M;
            C->ac[i] = (int)a;
        } else {
            for (size_t r = 0; r < k; r++)
                if (r != a)
                    S0 += exp(Fi[r] - M);
        }
        double S = 1.0 + S0;
        val += (M - Fi[yi]) + log1p(S0);
        if (e) { /* branch-free, so that it vectorises: two divisions a class */
            double *Qi = Q + i * k;
            e[a] = 1.0;
#pragma omp simd
            for (size_t r = 0; r < k; r++) { /* both arms computed: selects */
                double er = e[r], d = S - er;
                e[r] = er / S;
                Qi[r] = (r == a ? S0 : d) / S; /* q = 1 - p */
            }
            if (grad) {
                double *gi = grad + i * k;
#pragma omp simd
                for (size_t r = 0; r < k; r++) {
                    double p = e[r], mq = -Qi[r];
                    gi[r] = sc * (r == yi ? mq : p);
                }
            }
        } else if (grad) {
            for (size_t r = 0; r < k; r++) {
                double er = r == a ? 1.0 : exp(Fi[r] - M);
                double p = er / S, q = (r == a ? S0 : S - er) / S;
                grad[i * k + r] = sc * (r == yi ? -q : p);
            }
        }
    }
    return sc * val;
}

/* Chunk adapter for bl_chunked_sum (boostlab/parallel.h). */
struct sm_rows_ctx {
    const int *y;
    size_t k;
    const double *F;
    double *grad, *P, *Q;
    const struct sm_cache *C;
    double arg;
};

static double sm_rows(void *ctx, size_t i0, size_t i1)
{
    const struct sm_rows_ctx *c = ctx;
    return sm_chunk(c->y, c->k, c->F, c->grad, c->P, c->Q, c->C, c->arg, i0, i1);
}

static double scale_of(const struct sm *L, size_t m)
{
    return L->normalize == 1 ? 1.0 / (double)m : 1.0;
}

/* The value; with probs also the gradient (when grad is not NULL) and the
 * probabilities, cached for F. */
static double sm_pass(struct sm *L, const int *y, size_t m, size_t k, const double *F,
                      double *grad, int probs)
{
    if (m == 0 || k == 0)
        return 0.0;
    if (probs && (L->cm != m || L->ck != k)) {
        free(L->Fc), free(L->P), free(L->Q), free(L->Mc), free(L->E), free(L->ac);
        L->Fc = malloc(m * k * sizeof *L->Fc);
        L->P = malloc(m * k * sizeof *L->P);
        L->Q = malloc(m * k * sizeof *L->Q);
        L->E = malloc(m * k * sizeof *L->E);
        L->Mc = malloc(m * sizeof *L->Mc);
        L->ac = malloc(m * sizeof *L->ac);
        L->cm = m, L->ck = k, L->valid = 0;
        if (!L->Fc || !L->P || !L->Q || !L->E || !L->Mc || !L->ac) {
            fputs("softmax: out of memory\n", stderr);
            abort();
        }
    }
    struct sm_cache C = {L->Fc, L->Mc, L->E, L->ac, L->valid};
    struct sm_rows_ctx ctx = {y, k, F, grad, probs ? L->P : NULL, probs ? L->Q : NULL, &C,
                              scale_of(L, m)};
    if (probs)
        L->valid = 0; /* until every row is done */
    double v = bl_chunked_sum(m, L->nthreads, sm_rows, &ctx);
    if (probs)
        L->valid = 1; /* Fc, Mc, ac, E and P, Q are those of F now */
    return v;
}

static double sm_eval(void *self, const int *y, size_t m, size_t k, const double *F,
                      double *grad)
{
    struct sm *L = self;
    return sm_pass(L, y, m, k, F, grad, grad != NULL && L->hess_asked);
}

/* a and b hold the same n doubles, bit for bit (memcmp, rows of them split
 * between the threads). */
static int same_doubles(const double *a, const double *b, size_t n, int nthreads)
{
    int diff = 0;
    (void)nthreads;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(nthreads) reduction(| : diff) if (nthreads > 1 && n >= 65536)
#endif
    for (size_t j = 0; j < n; j += 4096)
        diff |= memcmp(a + j, b + j, (n - j < 4096 ? n - j : 4096) * sizeof *a) != 0;
    return !diff;
}

/* Exact diagonal p (1 - p), with 1 - p computed without cancellation, and
 * in the rank-one form also u = p (off-diagonals -p_r p_s), both times the
 * normalisation. */
static int sm_hessian(void *self, const int *y, size_t m, size_t k, const double *F,
                      enum bl_hess_form form, double *out)
{
    struct sm *L = self;
    if (form != BL_HESS_DIAG && form != BL_HESS_DIAG_RANK1)
        return -1;
    if (m == 0 || k == 0)
        return 0;
    L->hess_asked = 1;
    size_t n = m * k;
    if (!(L->valid && L->cm == m && L->ck == k && same_doubles(F, L->Fc, n, L->nthreads)))
        sm_pass(L, y, m, k, F, NULL, 1);
    double sc = scale_of(L, m), su = sqrt(sc);
    int rank1 = form == BL_HESS_DIAG_RANK1;
    const double *P = L->P, *Q = L->Q;
    /* elementwise: any thread count gives the same numbers */
#ifdef _OPENMP
#pragma omp parallel for simd schedule(static) num_threads(L->nthreads) if (L->nthreads > 1 && n >= 65536)
#endif
    for (size_t j = 0; j < n; j++) {
        out[j] = sc * (P[j] * Q[j]);
        if (rank1)
            out[n + j] = su * P[j];
    }
    return 0;
}

/* ---- lazy state (loss.h update) ------------------------------------------ */

struct sm_upd_ctx {
    struct sm *L;
    const int *y;
    size_t k;
    const double *F;
    const uint32_t *moved; /* NULL: every entry */
    size_t nmoved;
    int hess;
    double sc, su;
    size_t m; /* > 0: the derivatives class-major, k x m (update_class_major) */
};

/* Brings the exps of row i up to date: only the moved entries when the
 * row's shift and its class stay, else all.  Every exp is exp(F_ir - M)
 * of the row's current F and shift, as sm_chunk computes it. */
static void upd_exps(const struct sm_upd_ctx *c, size_t i, const double *Fi, double *Ei)
{
    struct sm *L = c->L;
    size_t k = c->k, a = 0;
    double M = 0.0;
    const uint32_t *mv = c->moved ? c->moved + i * c->nmoved : NULL;
    int full = !mv;
    if (mv) { /* the shift moves when its class moved or a moved score passes it */
        a = (size_t)L->ua[i];
        M = L->uM[i];
        for (size_t j = 0; j < c->nmoved && !full; j++)
            full = mv[j] != BL_MOVED_NONE && (mv[j] == a || Fi[mv[j]] > M ||
                                              (Fi[mv[j]] == M && mv[j] < a));
    }
    if (!full) {
        for (size_t j = 0; j < c->nmoved; j++)
            if (mv[j] != BL_MOVED_NONE)
                Ei[mv[j]] = exp(Fi[mv[j]] - M);
        return;
    }
    size_t na = row_max(Fi, k, &M);
    int keep = mv && na == a && M == L->uM[i];
    for (size_t r = 0; r < k; r++)
        if (r != na && !keep)
            Ei[r] = exp(Fi[r] - M);
    if (keep)
        for (size_t j = 0; j < c->nmoved; j++)
            if (mv[j] != BL_MOVED_NONE)
                Ei[mv[j]] = exp(Fi[mv[j]] - M);
    Ei[na] = 1.0; /* exp(0): defined for upd_derivs' vector reads */
    L->uM[i] = M;
    L->ua[i] = (int)na;
}

/* One row's dual weights G (and with H, its Hessian diagonal H and the
 * rank-one factor U) from its exps E (E[a], the shift's own, is 1),
 * normaliser S = 1 + S0, element-wise: the same bits as one class at a
 * time, vectorised across classes (BL_VEC_SELECTS, as upd_derivs_cm). */
static BL_VEC_SELECTS BL_CLONES void upd_derivs(const double *restrict E, double *restrict G,
                                                double *restrict H, double *restrict U, size_t k,
                                                size_t a, size_t yi, double S, double S0,
                                                double sc, double su)
{
    if (!H) {
#pragma omp simd
        for (size_t r = 0; r < k; r++) {
            double er = r == a ? 1.0 : E[r];
            double p = er / S, q = (r == a ? S0 : S - er) / S;
            G[r] = r == yi ? sc * q : -(sc * p); /* -(sc (p - [r = y])) */
        }
        return;
    }
#pragma omp simd
    for (size_t r = 0; r < k; r++) {
        double er = r == a ? 1.0 : E[r];
        double p = er / S, q = (r == a ? S0 : S - er) / S;
        G[r] = r == yi ? sc * q : -(sc * p);
        H[r] = sc * (p * q);
        U[r] = su * p;
    }
}

/* upd_derivs for UPD_TILE rows at once, class-major: rows [i0, i0 + n)
 * with their exps E (row-major), shift classes a, labels y and normalisers
 * S = 1 + S0, into the k x m columns, class by class (upd_derivs'
 * expressions element by element: the same bits).  Written so that GCC
 * vectorises it (4 divisions at a time instead of 1): E_ia is read as
 * it is kept (1, upd_exps), both arms of each select are computed, and
 * BL_VEC_SELECTS lets it blend them.  On letter that
 * took the bookkeeping to about 0.8 of its time (bench/README.md). */
#define UPD_TILE 64

static BL_VEC_SELECTS BL_CLONES void upd_derivs_cm(const struct sm_upd_ctx *c, size_t i0,
                                                   size_t n, const size_t *a, const double *S,
                                                   const double *S0)
{
    size_t k = c->k, m = c->m;
    double sc = c->sc, su = c->su, *G = c->L->uG, *H = c->L->uH, *U = c->L->uU;
    double hs[UPD_TILE], us[UPD_TILE]; /* without a Hessian: h and u go here */
    const double *E = c->L->uE + i0 * k;
    const int *y = c->y + i0;
    for (size_t r = 0; r < k; r++) {
        double *g = G + r * m + i0, *h = c->hess ? H + r * m + i0 : hs,
               *u = c->hess ? U + r * m + i0 : us;
#pragma omp simd
        for (size_t j = 0; j < n; j++) {
            int isa = r == a[j];
            double er = E[j * k + r], s0 = S0[j], sj = S[j], rest = sj - er;
            double p = er / sj, q = (isa ? s0 : rest) / sj;
            double gq = sc * q, gp = -(sc * p);
            g[j] = (int)r == y[j] ? gq : gp;
            h[j] = sc * (p * q);
            u[j] = su * p;
        }
    }
}

/* Rows [i0, i1): their exps brought to F, then value and derivatives from
 * them with sm_chunk's expressions (the same bits as eval and hessian),
 * row-major, or class-major UPD_TILE rows at a time. */
static double upd_rows(void *ctx, size_t i0, size_t i1)
{
    const struct sm_upd_ctx *c = ctx;
    struct sm *L = c->L;
    size_t k = c->k, ta[UPD_TILE];
    double val = 0.0, sc = c->sc, su = c->su, tS[UPD_TILE], tS0[UPD_TILE];
    for (size_t i = i0; i < i1; i++) {
        const double *Fi = c->F + i * k;
        size_t t = (i - i0) % UPD_TILE;
        double *Ei = L->uE + i * k, *Gi = L->uG + i * k, *Hi = L->uH + i * k,
               *Ui = L->uU + i * k;
        upd_exps(c, i, Fi, Ei);
        size_t a = (size_t)L->ua[i], yi = (size_t)c->y[i];
        double M = L->uM[i], S0 = 0.0;
        for (size_t r = 0; r < k; r++)
            if (r != a)
                S0 += Ei[r];
        double S = 1.0 + S0;
        val += (M - Fi[yi]) + log1p(S0);
        if (!c->m) {
            upd_derivs(Ei, Gi, c->hess ? Hi : NULL, Ui, k, a, yi, S, S0, sc, su);
            continue;
        }
        ta[t] = a, tS[t] = S, tS0[t] = S0;
        if (t == UPD_TILE - 1 || i + 1 == i1)
            upd_derivs_cm(c, i - t, t + 1, ta, tS, tS0);
    }
    return sc * val;
}

static double *upd_alloc(size_t n)
{
    double *p = malloc(n * sizeof *p);
    if (!p) {
        fputs("softmax: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* update's work in either layout (cm: class-major) */
static double sm_update_in(void *self, const int *y, size_t m, size_t k, const double *F,
                           const uint32_t *moved, size_t nmoved, int hess, const double *d[3],
                           int cm)
{
    struct sm *L = self;
    if (L->um != m || L->uk != k) { /* a new shape: everything from F */
        free(L->uM), free(L->uE), free(L->uG), free(L->uH), free(L->uU), free(L->ua);
        size_t n = m * k > 0 ? m * k : 1;
        L->uE = upd_alloc(n), L->uG = upd_alloc(n), L->uH = upd_alloc(n);
        L->uU = upd_alloc(n), L->uM = upd_alloc(m ? m : 1);
        L->ua = malloc((m ? m : 1) * sizeof *L->ua);
        if (!L->ua)
            abort();
        L->um = m, L->uk = k;
        moved = NULL;
    }
    double sc = scale_of(L, m ? m : 1);
    struct sm_upd_ctx c = {L, y, k, F, moved, moved ? nmoved : 0, hess, sc, sqrt(sc), cm ? m : 0};
    double v = m && k ? bl_chunked_sum(m, L->nthreads, upd_rows, &c) : 0.0;
    d[0] = L->uG;
    d[1] = hess ? L->uH : NULL;
    d[2] = hess ? L->uU : NULL;
    return v;
}

static double sm_update(void *self, const int *y, size_t m, size_t k, const double *F,
                        const uint32_t *moved, size_t nmoved, int hess, const double *d[3])
{
    return sm_update_in(self, y, m, k, F, moved, nmoved, hess, d, 0);
}

static double sm_update_cm(void *self, const int *y, size_t m, size_t k, const double *F,
                           const uint32_t *moved, size_t nmoved, int hess, const double *d[3])
{
    return sm_update_in(self, y, m, k, F, moved, nmoved, hess, d, 1);
}

/* ---- descriptor -------------------------------------------------------- */

static const struct bl_loss_ops sm_ops = {
    .size = sizeof(struct bl_loss_ops),
    .create = sm_create,
    .destroy = sm_destroy,
    .eval = sm_eval,
    .hessian = sm_hessian,
    .row_prepare = NULL,
    .row_eval = NULL,
    .row_free = NULL,
    .update = sm_update,
    .update_class_major = sm_update_cm,
};

static const struct bl_plugin sm_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_LOSS,
    .name = "softmax",
    .doc = "multi-class logistic (cross-entropy) loss sum_i [LSE(F_i) - F_iy] (LogitBoost family, GradBoost)",
    .params = sm_params,
    .nparams = P_COUNT,
    .ops = &sm_ops,
};

static const struct bl_plugin *const sm_plugins[] = {&sm_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return sm_plugins;
}

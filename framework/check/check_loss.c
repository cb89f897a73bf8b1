/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * check-plugin, loss role (loss.h, docs/sdk.md "Losses"): create/destroy
 * with the plugin's parameters; every declared parameter at the bounds of
 * its range (and every choice); the gradient against central differences
 * at random F of several sizes and scales up to margins of +-30; the
 * Hessian diagonal (when provided) against differences of the gradient;
 * convexity along random segments; finiteness at extreme F; the stage-wise
 * row fast path (when provided) against eval at F + s w^T; the code-space
 * eval_coded (when provided): its gradient and finiteness; and
 * bitwise determinism.
 *
 * Every property runs on cases drawn from a seed; a failing case is shrunk
 * (smaller m and k with the same seed scheme, then simpler values) and the
 * smallest one that still fails is printed.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/rng.h"
#include "check.h"

/* Central differences use the step h = FD_STEP * max(1, |x|): small enough
 * that the truncation error h^2 |f'''| / 6 is ~1e-12 relative for any
 * smooth loss at margins up to +-30, large enough that rounding in the two
 * evaluations (relative DBL_EPSILON, times the loss's own condition) stays
 * far below the gradient. */
#define FD_STEP 1e-6
/* A gradient entry may differ from its difference quotient by FD_RTOL of
 * its size, plus the rounding noise of the quotient: FD_NOISE ulps of
 * 1 + |L| + sum_j |F_j dL/dF_j| (how much rounding F moves L), divided by
 * the step.  The 1 is there because a loss carries a few ulps of 1 even
 * where its value is tiny: log S with S = 1 + tiny, as in margin-exp's log
 * form, is exact to ~1e-16 absolute, not relative.  A wrong factor or sign
 * is off by O(1) relative. */
#define FD_RTOL 1e-6
#define FD_NOISE 64.0
/* The row fast path and eval compute the same function in a different
 * order: they agree to this relative precision. */
#define ROW_RTOL 1e-9

struct lst {
    const struct bl_plugin *p;
    const struct bl_loss_ops *ops;
    bl_loss_coded_fn coded;
    void *self;
    const struct bl_host *host;
    const union bl_value *v;
    double worst;             /* largest error / tolerance seen (verbose) */
    size_t cases, declined;   /* cases run; row fast path declined        */
};

static int lst_open(struct lst *L, const chk_ctx *c, const union bl_value *v, char err[BL_ERR_MAX])
{
    memset(L, 0, sizeof *L);
    L->p = c->p;
    L->ops = c->p->ops;
    L->coded = L->ops->eval_coded;
    L->host = c->host;
    L->v = v;
    err[0] = 0;
    L->self = L->ops->create(c->host, c->p->nparams ? v : NULL, err);
    return L->self ? 0 : -1;
}

static void lst_close(struct lst *L)
{
    if (L->self)
        L->ops->destroy(L->self);
    L->self = NULL;
}

/* ---- cases -------------------------------------------------------------------- */

enum { GEN_SMOOTH, GEN_EXTREME };

#define NW 4 /* w vectors per row-path case */

struct lcase {
    size_t m, k;          /* examples; classes (or code columns when coded) */
    int coded, kind;
    double scale;
    uint64_t seed;
    int *y;               /* m labels (class space)                        */
    double *Y;            /* m x k targets in [-1, 1] (code space)         */
    double *F, *F2;       /* m x k scores; F2: the other end of a segment  */
    double *s;            /* m: the row path's new output                  */
    double *W;            /* NW x k: coefficient rows, the first 0         */
};

static void lcase_free(struct lcase *cs)
{
    free(cs->y), free(cs->Y), free(cs->F), free(cs->F2), free(cs->s), free(cs->W);
    memset(cs, 0, sizeof *cs);
}

static const double extremes[] = {1e3, 1e6, 1e12, 1e100};

/* A case of size m x k drawn from seed.  Smooth cases have scores in
 * [-scale, scale], a fifth of them exactly at +-scale (the largest
 * margins); extreme ones mix 0 and +-1e3 ... +-1e100. */
static void lcase_gen(struct lcase *cs, size_t m, size_t k, double scale, uint64_t seed, int kind,
                      int coded)
{
    chk_rng r;
    chk_rng_seed(&r, seed);
    memset(cs, 0, sizeof *cs);
    cs->m = m, cs->k = k, cs->coded = coded, cs->kind = kind, cs->scale = scale, cs->seed = seed;
    size_t n = m * k;
    cs->y = malloc((m ? m : 1) * sizeof *cs->y);
    cs->Y = malloc((n ? n : 1) * sizeof *cs->Y);
    cs->F = malloc((n ? n : 1) * sizeof *cs->F);
    cs->F2 = malloc((n ? n : 1) * sizeof *cs->F2);
    cs->s = malloc((m ? m : 1) * sizeof *cs->s);
    cs->W = malloc(NW * k * sizeof *cs->W);
    for (size_t i = 0; i < m; i++)
        cs->y[i] = (int)chk_below(&r, k);
    for (size_t j = 0; j < n; j++) {
        double u = chk_unif(&r);
        cs->Y[j] = u < 0.45 ? 1.0 : u < 0.9 ? -1.0 : 0.0;
        if (chk_unif(&r) < 0.15) /* ternary codes and real targets too */
            cs->Y[j] = (double)((int)chk_below(&r, 9) - 4) / 4.0;
    }
    for (size_t j = 0; j < n; j++) {
        if (kind == GEN_EXTREME) {
            double u = chk_unif(&r);
            double mag = extremes[chk_below(&r, sizeof extremes / sizeof extremes[0])];
            cs->F[j] = u < 0.15 ? 0.0 : u < 0.575 ? mag : -mag;
        } else {
            cs->F[j] = chk_unif(&r) < 0.2 ? (chk_unif(&r) < 0.5 ? -scale : scale)
                                          : chk_range(&r, -scale, scale);
        }
    }
    /* the other end of a segment: far away, or a short step */
    int near = chk_unif(&r) < 0.5;
    for (size_t j = 0; j < n; j++)
        cs->F2[j] = near ? cs->F[j] + 0.1 * scale * chk_range(&r, -1, 1)
                         : chk_range(&r, -scale, scale);
    for (size_t i = 0; i < m; i++)
        cs->s[i] = chk_unif(&r) < 0.5 ? -1.0 : 1.0;
    for (size_t j = 0; j < NW * k; j++)
        cs->W[j] = j < k ? 0.0 : chk_range(&r, -scale, scale) / 4.0;
}

static void lcase_copy(struct lcase *dst, const struct lcase *src)
{
    lcase_gen(dst, src->m, src->k, src->scale, src->seed, src->kind, src->coded);
    size_t n = src->m * src->k;
    memcpy(dst->y, src->y, src->m * sizeof *dst->y);
    memcpy(dst->Y, src->Y, n * sizeof *dst->Y);
    memcpy(dst->F, src->F, n * sizeof *dst->F);
    memcpy(dst->F2, src->F2, n * sizeof *dst->F2);
    memcpy(dst->s, src->s, src->m * sizeof *dst->s);
    memcpy(dst->W, src->W, NW * src->k * sizeof *dst->W);
}

/* The loss at scores S of the case's shape: eval, or eval_coded in code space. */
static double leval(const struct lst *L, const struct lcase *cs, const double *S, double *g)
{
    if (cs->coded)
        return L->coded(L->self, cs->Y, cs->m, cs->k, S, g);
    return L->ops->eval(L->self, cs->y, cs->m, cs->k, S, g);
}

static int all_finite(const double *a, size_t n, size_t *bad)
{
    for (size_t j = 0; j < n; j++)
        if (!isfinite(a[j])) {
            *bad = j;
            return 0;
        }
    return 1;
}

static const char *Fname(const struct lcase *cs)
{
    return cs->coded ? "f" : "F";
}

/* A property: 1 when the case fails it, with a one-line reason in why and
 * the numbers that show it in more. */
typedef int (*lprop)(struct lst *L, const struct lcase *cs, chk_buf *why, chk_buf *more);

/* ---- properties -------------------------------------------------------------- */

/* The end of "D is ": "X but central differences[ OF] give Y (error,
 * tolerance)", X the derivative, Y its difference quotient. */
static void fd_differs(chk_buf *why, double x, const char *of, double y, double err, double tol)
{
    chk_num(why, x);
    chk_printf(why, " but central differences%s give ", of);
    chk_num(why, y);
    chk_printf(why, " (error %.3g, tolerance %.3g)", err, tol);
}

/* The m x k derivatives a (named name) above their difference quotients fd. */
static void fd_show(chk_buf *more, const char *name, const double *a, const double *fd, size_t m,
                    size_t k)
{
    chk_mat(more, name, a, m, k);
    chk_printf(more, "\n");
    chk_mat(more, "fd", fd, m, k);
}

static int prop_gradient(struct lst *L, const struct lcase *cs, chk_buf *why, chk_buf *more)
{
    size_t m = cs->m, k = cs->k, n = m * k, bad;
    double *g = calloc(n, sizeof *g), *fd = calloc(n, sizeof *fd), *Fx = malloc(n * sizeof *Fx);
    int fail = 0;
    memcpy(Fx, cs->F, n * sizeof *Fx);
    double f0 = leval(L, cs, Fx, g);
    double f1 = leval(L, cs, Fx, NULL);
    if (!isfinite(f0)) {
        chk_printf(why, "the value is %g at finite %s", f0, Fname(cs));
        fail = 1;
        goto out;
    }
    if (!all_finite(g, n, &bad)) {
        chk_printf(why, "the gradient entry [%zu][%zu] is %g at finite %s", bad / k, bad % k,
                   g[bad], Fname(cs));
        fail = 1;
        goto out;
    }
    if (!(fabs(f0 - f1) <= 1e-12 * fabs(f0) + DBL_MIN)) {
        chk_printf(why, "the value with a gradient (%.17g) differs from the value without (%.17g)",
                   f0, f1);
        fail = 1;
        goto out;
    }
    double cond = fabs(f0);
    for (size_t j = 0; j < n; j++)
        cond += fabs(cs->F[j] * g[j]);
    size_t wj = 0;
    double wratio = 0.0, werr = 0.0, wtol = 0.0;
    for (size_t j = 0; j < n; j++) {
        double x = cs->F[j], h = FD_STEP * fmax(1.0, fabs(x));
        double xp = x + h, xm = x - h;
        Fx[j] = xp;
        double fp = leval(L, cs, Fx, NULL);
        Fx[j] = xm;
        double fm = leval(L, cs, Fx, NULL);
        Fx[j] = x;
        fd[j] = (fp - fm) / (xp - xm);
        double noise = FD_NOISE * DBL_EPSILON * (1.0 + cond + fabs(fp) + fabs(fm)) / (xp - xm);
        double tol = FD_RTOL * fmax(fabs(g[j]), fabs(fd[j])) + noise + DBL_MIN;
        double err = fabs(g[j] - fd[j]);
        double ratio = err / tol;
        if (!(ratio <= wratio) || j == 0)
            wratio = ratio, wj = j, werr = err, wtol = tol;
    }
    if (wratio > L->worst)
        L->worst = wratio;
    if (!(wratio <= 1.0)) {
        chk_printf(why, "dL/d%s[%zu][%zu] is ", Fname(cs), wj / k, wj % k);
        fd_differs(why, g[wj], "", fd[wj], werr, wtol);
        fd_show(more, "grad", g, fd, m, k);
        fail = 1;
    }
out:
    free(g), free(fd), free(Fx);
    return fail;
}

/* 1 when the plugin's hessian does the diagonal form (else it may refuse). */
static int has_diag(const struct lst *L, const struct lcase *cs)
{
    if (!L->ops->hessian)
        return 0;
    double *H = malloc(cs->m * cs->k * sizeof *H);
    int ok = L->ops->hessian(L->self, cs->y, cs->m, cs->k, cs->F, BL_HESS_DIAG, H) == 0;
    free(H);
    return ok;
}

static int prop_hessian(struct lst *L, const struct lcase *cs, chk_buf *why, chk_buf *more)
{
    size_t m = cs->m, k = cs->k, n = m * k, bad;
    double *H = calloc(n, sizeof *H), *fd = calloc(n, sizeof *fd), *Fx = malloc(n * sizeof *Fx);
    double *g = calloc(n, sizeof *g), *gp = calloc(n, sizeof *gp), *gm = calloc(n, sizeof *gm);
    double *junk = calloc(n, sizeof *junk);
    int fail = 0;
    memcpy(Fx, cs->F, n * sizeof *Fx);
    if (L->ops->hessian(L->self, cs->y, m, k, Fx, (enum bl_hess_form)0x7fff, junk) != -1) {
        chk_printf(why, "hessian accepted the unknown form 0x7fff (it must return -1 for forms "
                   "it does not do)");
        fail = 1;
        goto out;
    }
    if (L->ops->hessian(L->self, cs->y, m, k, Fx, BL_HESS_DIAG, H) != 0) {
        chk_printf(why, "hessian refused the diagonal form on this case but not on others");
        fail = 1;
        goto out;
    }
    if (!all_finite(H, n, &bad)) {
        chk_printf(why, "the Hessian diagonal entry [%zu][%zu] is %g at finite F", bad / k,
                   bad % k, H[bad]);
        fail = 1;
        goto out;
    }
    leval(L, cs, Fx, g);
    size_t wj = 0;
    double wratio = 0.0, werr = 0.0, wtol = 0.0;
    int wneg = 0;
    for (size_t j = 0; j < n; j++) {
        size_t i = j / k;
        double x = cs->F[j], h = FD_STEP * fmax(1.0, fabs(x));
        double xp = x + h, xm = x - h;
        Fx[j] = xp;
        leval(L, cs, Fx, gp);
        Fx[j] = xm;
        leval(L, cs, Fx, gm);
        Fx[j] = x;
        fd[j] = (gp[j] - gm[j]) / (xp - xm);
        /* a gradient entry is computed to a few ulps of its example's row
         * (and of 1, as the value is: see FD_NOISE) */
        double row = 1.0;
        for (size_t r = 0; r < k; r++)
            row += fabs(g[i * k + r]) + fabs(gp[i * k + r]) + fabs(gm[i * k + r]);
        double noise = FD_NOISE * DBL_EPSILON * (row + fabs(x * H[j])) / (xp - xm);
        double tol = FD_RTOL * fmax(fabs(H[j]), fabs(fd[j])) + noise + DBL_MIN;
        double err = fabs(H[j] - fd[j]), ratio = err / tol;
        int neg = 0;
        if (H[j] < 0.0 && -H[j] / (noise + DBL_MIN) > ratio) /* convex: the diagonal is >= 0 */
            ratio = -H[j] / (noise + DBL_MIN), neg = 1;
        if (!(ratio <= wratio) || j == 0)
            wratio = ratio, wj = j, werr = err, wtol = tol, wneg = neg;
    }
    if (wratio > L->worst)
        L->worst = wratio;
    if (!(wratio <= 1.0)) {
        if (wneg) {
            chk_printf(why, "d2L/dF[%zu][%zu]^2 is %g < 0: a convex loss has a non-negative "
                       "diagonal", wj / k, wj % k, H[wj]);
        } else {
            chk_printf(why, "d2L/dF[%zu][%zu]^2 is ", wj / k, wj % k);
            fd_differs(why, H[wj], " of the gradient", fd[wj], werr, wtol);
        }
        fd_show(more, "hess", H, fd, m, k);
        fail = 1;
    }
out:
    free(H), free(fd), free(Fx), free(g), free(gp), free(gm), free(junk);
    return fail;
}

/* L(t A + (1-t) B) <= t L(A) + (1-t) L(B) at t = 1/4, 1/2, 3/4. */
static int prop_convex(struct lst *L, const struct lcase *cs, chk_buf *why, chk_buf *more)
{
    size_t n = cs->m * cs->k;
    double *P = malloc(n * sizeof *P);
    double la = leval(L, cs, cs->F, NULL), lb = leval(L, cs, cs->F2, NULL);
    int fail = 0;
    static const double ts[] = {0.25, 0.5, 0.75};
    for (size_t q = 0; q < 3 && !fail; q++) {
        double t = ts[q];
        for (size_t j = 0; j < n; j++)
            P[j] = t * cs->F[j] + (1 - t) * cs->F2[j];
        double lp = leval(L, cs, P, NULL), chord = t * la + (1 - t) * lb;
        double tol = FD_NOISE * DBL_EPSILON * (fabs(la) + fabs(lb) + fabs(lp)) + DBL_MIN;
        double ratio = (lp - chord) / tol;
        if (ratio > L->worst)
            L->worst = ratio;
        if (!isfinite(lp) || !isfinite(la) || !isfinite(lb) || ratio > 1.0) {
            chk_printf(why, "L at t = %g of the way is ", t);
            chk_num(why, lp);
            chk_printf(why, ", above the chord ");
            chk_num(why, chord);
            chk_printf(why, " (L(A) = %.17g, L(B) = %.17g)", la, lb);
            fail = 1;
        }
    }
    if (fail) {
        chk_mat(more, cs->coded ? "fB" : "B", cs->F2, cs->m, cs->k);
        chk_printf(more, "   (A is %s above)", Fname(cs));
    }
    free(P);
    return fail;
}

static int prop_extreme(struct lst *L, const struct lcase *cs, chk_buf *why, chk_buf *more)
{
    (void)more;
    size_t n = cs->m * cs->k, bad;
    double *g = calloc(n, sizeof *g);
    int fail = 0;
    double f = leval(L, cs, cs->F, g);
    if (!isfinite(f)) {
        chk_printf(why, "the value is %g", f);
        fail = 1;
    } else if (!all_finite(g, n, &bad)) {
        chk_printf(why, "the gradient entry [%zu][%zu] is %g", bad / cs->k, bad % cs->k, g[bad]);
        fail = 1;
    } else if (!cs->coded && L->ops->hessian &&
               L->ops->hessian(L->self, cs->y, cs->m, cs->k, cs->F, BL_HESS_DIAG, g) == 0 &&
               !all_finite(g, n, &bad)) {
        chk_printf(why, "the Hessian diagonal entry [%zu][%zu] is %g", bad / cs->k,
                   bad % cs->k, g[bad]);
        fail = 1;
    }
    free(g);
    return fail;
}

/* phi(w) = L(F + s w^T) through eval, and its gradient sum_i s_i dL/dF_i. */
static double phi_eval(struct lst *L, const struct lcase *cs, const double *w, double *grad,
                       double *gscale)
{
    size_t m = cs->m, k = cs->k;
    double *Fw = malloc(m * k * sizeof *Fw), *gF = calloc(m * k, sizeof *gF);
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++)
            Fw[i * k + r] = cs->F[i * k + r] + cs->s[i] * w[r];
    double f = L->ops->eval(L->self, cs->y, m, k, Fw, gF);
    for (size_t r = 0; r < k; r++) {
        grad[r] = 0.0, gscale[r] = 0.0;
        for (size_t i = 0; i < m; i++) {
            grad[r] += cs->s[i] * gF[i * k + r];
            gscale[r] += fabs(cs->s[i] * gF[i * k + r]);
        }
    }
    free(Fw), free(gF);
    return f;
}

static int prop_row(struct lst *L, const struct lcase *cs, chk_buf *why, chk_buf *more)
{
    size_t m = cs->m, k = cs->k;
    void *row = L->ops->row_prepare(L->self, cs->y, m, k, cs->F, cs->s);
    if (!row) {
        L->declined++;
        return 0;
    }
    double *g1 = calloc(k, sizeof *g1), *g2 = calloc(k, sizeof *g2), *gs = calloc(k, sizeof *gs);
    int fail = 0;
    for (size_t q = 0; q < NW && !fail; q++) {
        const double *w = cs->W + q * k;
        double fa = L->ops->row_eval(row, w, g1);
        double fb = phi_eval(L, cs, w, g2, gs);
        double tol = ROW_RTOL * (1.0 + fabs(fb));
        if (!(fabs(fa - fb) <= tol)) {
            chk_printf(why, "row_eval(w) is %.17g but eval(F + s w^T) is %.17g", fa, fb);
            fail = 1;
        }
        for (size_t r = 0; r < k && !fail; r++) {
            double t = ROW_RTOL * (gs[r] + fabs(g2[r])) + DBL_MIN;
            if (!(fabs(g1[r] - g2[r]) <= t)) {
                chk_printf(why, "row_eval's gradient [%zu] is %.17g but sum_i s_i dL/dF[i][%zu] "
                           "is %.17g", r, g1[r], r, g2[r]);
                fail = 1;
            }
        }
        if (fail) {
            chk_vec(more, "s", cs->s, m);
            chk_printf(more, "\n");
            chk_vec(more, "w", w, k);
            chk_printf(more, "\n");
            chk_vec(more, "row_eval grad", g1, k);
            chk_printf(more, "\n");
            chk_vec(more, "eval grad", g2, k);
        }
    }
    L->ops->row_free(row);
    free(g1), free(g2), free(gs);
    return fail;
}

/* Same input twice (and on a second instance): bitwise the same outputs. */
static int prop_determinism(struct lst *L, const struct lcase *cs, chk_buf *why, chk_buf *more)
{
    (void)more;
    size_t m = cs->m, k = cs->k, n = m * k;
    double *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
    int fail = 0;
    char err[BL_ERR_MAX] = "";
    void *other = L->ops->create(L->host, L->p->nparams ? L->v : NULL, err);
    if (!other) {
        chk_printf(why, "a second instance could not be created: %s", err);
        free(a), free(b);
        return 1;
    }
    void *keep = L->self;
    double fa = leval(L, cs, cs->F, a);
    double fb = leval(L, cs, cs->F, b);
    const char *what = NULL;
    if (memcmp(&fa, &fb, sizeof fa) || memcmp(a, b, n * sizeof *a))
        what = "eval on the same input twice";
    if (!what) {
        L->self = other;
        fb = leval(L, cs, cs->F, b);
        L->self = keep;
        if (memcmp(&fa, &fb, sizeof fa) || memcmp(a, b, n * sizeof *a))
            what = "eval on a second instance";
    }
    if (!what && !cs->coded && L->ops->hessian &&
        L->ops->hessian(L->self, cs->y, m, k, cs->F, BL_HESS_DIAG, a) == 0) {
        L->ops->hessian(L->self, cs->y, m, k, cs->F, BL_HESS_DIAG, b);
        if (memcmp(a, b, n * sizeof *a))
            what = "the Hessian diagonal on the same input twice";
    }
    if (!what && !cs->coded && L->ops->row_prepare) {
        void *r1 = L->ops->row_prepare(L->self, cs->y, m, k, cs->F, cs->s);
        void *r2 = r1 ? L->ops->row_prepare(L->self, cs->y, m, k, cs->F, cs->s) : NULL;
        if (r1 && r2) {
            const double *w = cs->W + k;
            fa = L->ops->row_eval(r1, w, a);
            fb = L->ops->row_eval(r2, w, b);
            if (memcmp(&fa, &fb, sizeof fa) || memcmp(a, b, k * sizeof *a))
                what = "row_eval of two row_prepare calls on the same input";
        } else if (r1 || r2) {
            what = "row_prepare (it declined one of two identical calls)";
        }
        if (r1)
            L->ops->row_free(r1);
        if (r2)
            L->ops->row_free(r2);
    }
    if (what) {
        chk_printf(why, "%s gave different results", what);
        fail = 1;
    }
    L->ops->destroy(other);
    free(a), free(b);
    return fail;
}

/* Whether the class-major a (k x m) is not the m x k b transposed, bit for
 * bit. */
static int cm_differs(const double *a, const double *b, size_t m, size_t k)
{
    for (size_t i = 0; i < m; i++)
        for (size_t q = 0; q < k; q++)
            if (memcmp(&a[q * m + i], &b[i * k + q], sizeof *a))
                return 1;
    return 0;
}

/* update (loss.h, lazy state): from F (moved NULL), then after at most two
 * entries per row moved to F2's values (in every other row the row's
 * largest score moves above all, so that its shift changes), value and
 * derivatives are bit for bit those of eval and hessian at the new scores;
 * update_class_major's at the same scores too, transposed. */
static int prop_update(struct lst *L, const struct lcase *cs, chk_buf *why, chk_buf *more)
{
    size_t m = cs->m, k = cs->k, n = m * k;
    int hess = L->ops->hessian != NULL;
    uint32_t *mv = malloc(2 * m * sizeof *mv);
    double *F = malloc(n * sizeof *F), *g = malloc(n * sizeof *g), *h = malloc(2 * n * sizeof *h);
    const double *d[3] = {NULL, NULL, NULL};
    memcpy(F, cs->F, n * sizeof *F);
    L->ops->update(L->self, cs->y, m, k, F, NULL, 0, hess, d);
    for (size_t i = 0; i < m; i++) {
        size_t r = (i + cs->seed) % k, q = (r + 1 + i) % k;
        double *Fi = F + i * k, top = Fi[0];
        for (size_t c = 1; c < k; c++)
            top = Fi[c] > top ? Fi[c] : top;
        Fi[r] = i % 2 ? top + 1.0 : cs->F2[i * k + r];
        mv[2 * i] = (uint32_t)(r < q ? r : q);
        mv[2 * i + 1] = q == r ? BL_MOVED_NONE : (uint32_t)(r < q ? q : r);
        if (q != r)
            Fi[q] = cs->F2[i * k + q];
    }
    double v = L->ops->update(L->self, cs->y, m, k, F, mv, 2, hess, d);
    double e = L->ops->eval(L->self, cs->y, m, k, F, g);
    if (hess && L->ops->hessian(L->self, cs->y, m, k, F, BL_HESS_DIAG_RANK1, h) < 0)
        hess = 0;
    for (size_t j = 0; j < n; j++)
        g[j] = -g[j];
    const char *what = memcmp(&v, &e, sizeof v) ? "the value"
                       : memcmp(d[0], g, n * sizeof *g) ? "-dL/dF"
                       : hess && d[1] && memcmp(d[1], h, n * sizeof *h) ? "the Hessian's h"
                       : hess && d[2] && memcmp(d[2], h + n, n * sizeof *h) ? "the Hessian's u"
                                                                            : NULL;
    const char *via = "update";
    if (!what && L->ops->update_class_major) { /* F as it is: every entry "may" differ */
        via = "update_class_major";
        v = L->ops->update_class_major(L->self, cs->y, m, k, F, NULL, 0, hess, d);
        what = memcmp(&v, &e, sizeof v)          ? "the value"
               : cm_differs(d[0], g, m, k)         ? "-dL/dF (transposed)"
               : hess && cm_differs(d[1], h, m, k) ? "the Hessian's h (transposed)"
               : hess && cm_differs(d[2], h + n, m, k) ? "the Hessian's u (transposed)"
                                                     : NULL;
    }
    if (what) {
        chk_printf(why, "%s after moving two scores a row: %s differs from eval and "
                   "hessian's at the same F", via, what);
        chk_printf(more, "update %.17g, eval %.17g\n", v, e);
        chk_vec(more, "F", F, n);
    }
    free(mv), free(F), free(g), free(h);
    return what != NULL;
}

/* ---- search and shrink ---------------------------------------------------------- */

struct lspec {
    const char *tag;
    const size_t (*shapes)[2];
    size_t nshapes;
    const double *scales;
    size_t nscales;
    int kind, coded;
    lprop prop;
    int simplify;            /* try simpler values once the size is minimal */
};

/* hinge_targets: for a two-colour column drawn from the case
 * (cs->s's signs, cycled over the classes; never constant), each example
 * alone (m = 1) must move as scale max(0, margin - label s) along s col,
 * with one scale > 0 for all examples; pair_weights: finite, 0 on the true
 * class. */
static int prop_hinge(struct lst *L, const struct lcase *cs, chk_buf *why, chk_buf *more)
{
    size_t m = cs->m, k = cs->k;
    bl_loss_hinge_fn hinge = L->ops->hinge_targets;
    bl_loss_pairs_fn pairs = L->ops->pair_weights;
    double *col = malloc(k * sizeof *col), *lab = malloc(m * sizeof *lab);
    double *mar = malloc(m * sizeof *mar), *P = malloc(m * k * sizeof *P);
    double *Fi = malloc(k * sizeof *Fi), scale = NAN;
    int fail = 0;
    for (size_t r = 0; r < k; r++)
        col[r] = cs->s[r % m] > 0 ? 1.0 : -1.0;
    if (k >= 2 && col[0] == col[1])
        col[1] = -col[0];
    if (pairs) {
        pairs(L->self, cs->y, m, k, cs->F, P);
        for (size_t i = 0; i < m && !fail; i++)
            for (size_t r = 0; r < k && !fail; r++)
                if (!isfinite(P[i * k + r]) || ((int)r == cs->y[i] && P[i * k + r] != 0.0)) {
                    chk_printf(why, "pair_weights P[%zu][%zu] = %g (the true class is %d)", i, r,
                               P[i * k + r], cs->y[i]);
                    fail = 1;
                }
    }
    if (!fail && hinge && hinge(L->self, cs->y, m, k, cs->F, col, lab, mar) == 0) {
        static const double du[] = {-2.0, -1.0, -1.5, -0.5, 0.0, 0.5, 2.0};
        for (size_t i = 0; i < m && !fail; i++) {
            if (!(lab[i] == 1.0 || lab[i] == -1.0) || !isfinite(mar[i])) {
                chk_printf(why, "hinge_targets gave label %g, margin %g for example %zu", lab[i],
                           mar[i], i);
                fail = 1;
                break;
            }
            double f[7];
            for (size_t q = 0; q < 7; q++) { /* s = label u, u = margin + du */
                double sv = lab[i] * (mar[i] + du[q]);
                for (size_t r = 0; r < k; r++)
                    Fi[r] = cs->F[i * k + r] + sv * col[r];
                f[q] = L->ops->eval(L->self, cs->y + i, 1, k, Fi, NULL);
            }
            double sc = f[0] - f[1]; /* slope -1 in u below the kink */
            if (isnan(scale))
                scale = sc;
            double tol = 1e-9 * (1.0 + fabs(f[0]) + fabs(f[6]));
            if (!(sc > 0) || fabs(sc - scale) > tol) {
                chk_printf(why, "example %zu: the loss falls by %g per unit of label*s below "
                           "the margin %g, example 0 by %g (one scale > 0 for all)", i, sc,
                           mar[i], scale);
                fail = 1;
                break;
            }
            for (size_t q = 2; q < 7 && !fail; q++) {
                double h = du[q] < 0 ? -du[q] : 0.0, want = f[6] + sc * h;
                if (fabs(f[q] - want) > tol) {
                    chk_printf(why, "example %zu: L at label*s = margin %+g is %.17g, the hinge "
                               "form says %.17g (margin %g, scale %g)", i, du[q], f[q], want,
                               mar[i], sc);
                    fail = 1;
                }
            }
        }
    }
    if (fail) {
        chk_vec(more, "column", col, k);
        chk_printf(more, "\n");
    }
    free(col), free(lab), free(mar), free(P), free(Fi);
    return fail;
}

static const size_t shapes_std[][2] = {{1, 2}, {2, 3}, {3, 2}, {4, 4}, {6, 3}, {5, 6}, {8, 5}};
static const size_t shapes_coded[][2] = {{1, 1}, {2, 3}, {3, 2}, {4, 5}, {6, 3}, {8, 7}};
static const size_t shapes_small[][2] = {{2, 2}, {4, 3}};
static const double scales_std[] = {0.5, 3.0, 30.0};
static const double scale_one[] = {1.0};
#define NEL(a) (sizeof(a) / sizeof((a)[0]))

static int run_prop(struct lst *L, const struct lspec *sp, const struct lcase *cs, chk_buf *why,
                    chk_buf *more)
{
    chk_clear(why);
    chk_clear(more);
    L->cases++;
    return sp->prop(L, cs, why, more);
}

/* What a search runs: the loss and the property. */
struct lrun {
    struct lst *L;
    const struct lspec *sp;
};

static int run(void *state, void *cs, chk_buf *why, chk_buf *more)
{
    const struct lrun *R = state;
    return run_prop(R->L, R->sp, cs, why, more);
}

/* Replace *cs (failing) by the smallest failing case: sizes in increasing
 * m*k with the same seed (and three seeds derived from it), then each score
 * replaced by 0 or a rounder value while the case still fails. */
static void shrink(chk_ctx *c, void *state, void *p)
{
    const struct lrun *R = state;
    struct lst *L = R->L;
    const struct lspec *sp = R->sp;
    struct lcase *cs = p;
    chk_buf why = {0}, more = {0};
    size_t M = cs->m, K = cs->k, kmin = sp->coded ? 1 : 2;
    int found = 0;
    for (size_t tot = 1; tot < M * K && !found; tot++)
        for (size_t m = 1; m <= M && !found; m++) {
            if (tot % m || tot / m > K || tot / m < kmin)
                continue;
            size_t k = tot / m;
            for (uint64_t t = 0; t < 4 && !found; t++) {
                struct lcase cand;
                uint64_t seed = t ? bl_mix64(cs->seed + t) : cs->seed;
                lcase_gen(&cand, m, k, cs->scale, seed, cs->kind, cs->coded);
                chk_case(c, "shrinking: m=%zu k=%zu", m, k);
                if (run_prop(L, sp, &cand, &why, &more)) {
                    lcase_free(cs);
                    *cs = cand;
                    found = 1;
                } else {
                    lcase_free(&cand);
                }
            }
        }
    if (sp->simplify) {
        size_t n = cs->m * cs->k;
        for (size_t j = 0; j < n; j++) {
            double x = cs->F[j];
            double cand[3] = {0.0, nearbyint(x) + 0.0, nearbyint(x * 10.0) / 10.0 + 0.0};
            for (int q = 0; q < 3; q++) {
                if (cand[q] == x || (q > 0 && cand[q] == cand[q - 1]))
                    continue;
                if (sp->kind == GEN_EXTREME && q > 0)
                    break; /* keep the extreme magnitudes */
                cs->F[j] = cand[q];
                if (run_prop(L, sp, cs, &why, &more))
                    break;
                cs->F[j] = x;
            }
        }
    }
    chk_buf_free(&why);
    chk_buf_free(&more);
}

static void describe(chk_buf *b, const void *p)
{
    const struct lcase *cs = p;
    chk_printf(b, "%s=%zu %s=%zu\n", "m", cs->m, cs->coded ? "c" : "k", cs->k);
    if (cs->coded)
        chk_mat(b, "Y", cs->Y, cs->m, cs->k);
    else
        chk_ivec(b, "y", cs->y, cs->m);
    chk_printf(b, "\n");
    chk_mat(b, Fname(cs), cs->F, cs->m, cs->k);
    chk_printf(b, "\n");
}

static const chk_case_ops case_ops = {run, shrink, describe};

/* Run sp's property over trials x shapes x scales; on a failure shrink it
 * and report.  Returns 1 on a failure (the report is in c), else 0. */
static int search(chk_ctx *c, struct lst *L, const struct lspec *sp, const char *prefix)
{
    chk_buf why = {0}, more = {0};
    uint64_t idx = 0;
    int fail = 0;
    for (int t = 0; t < c->trials && !fail; t++)
        for (size_t a = 0; a < sp->nshapes && !fail; a++)
            for (size_t b = 0; b < sp->nscales && !fail; b++) {
                struct lcase cs;
                size_t m = sp->shapes[a][0], k = sp->shapes[a][1];
                uint64_t seed = chk_seed(c, sp->tag, idx++);
                lcase_gen(&cs, m, k, sp->scales[b], seed, sp->kind, sp->coded);
                chk_case(c, "%s%s m=%zu k=%zu scale=%g seed=%#llx", prefix, sp->tag, m, k,
                         sp->scales[b], (unsigned long long)seed);
                if (run_prop(L, sp, &cs, &why, &more)) {
                    struct lcase orig;
                    struct lrun R = {L, sp};
                    char seen[128];
                    lcase_copy(&orig, &cs);
                    snprintf(seen, sizeof seen, "m=%zu %s=%zu, scale %g", m, cs.coded ? "c" : "k",
                             k, sp->scales[b]);
                    chk_shrink_report(c, &case_ops, &R, &cs, &orig, prefix, seen, seed, &why,
                                      &more);
                    lcase_free(&orig);
                    fail = 1;
                }
                lcase_free(&cs);
            }
    chk_buf_free(&why);
    chk_buf_free(&more);
    return fail;
}

/* Open the loss with the check's parameters, or report why not. */
static int open_or_fail(chk_ctx *c, struct lst *L)
{
    char err[BL_ERR_MAX];
    if (lst_open(L, c, c->v, err) == 0)
        return 0;
    chk_detail(c, "create failed with the parameters under test: %s", err[0] ? err : "(no message)");
    return -1;
}

static void note_worst(chk_ctx *c, const struct lst *L)
{
    chk_printf(&c->info, "%zu cases; largest error was %.3g of its tolerance", L->cases, L->worst);
}

/* ---- the checks ---------------------------------------------------------------- */

static enum chk_status check_create(chk_ctx *c)
{
    char err[BL_ERR_MAX] = "";
    const struct bl_loss_ops *o = c->p->ops;
    const union bl_value *v = c->p->nparams ? c->v : NULL;
    void *a = o->create(c->host, v, err);
    if (!a) {
        chk_detail(c, "create returned NULL: %s", err[0] ? err : "(and wrote no message)");
        return CHK_FAIL;
    }
    void *b = o->create(c->host, v, err);
    if (!b) {
        o->destroy(a);
        chk_detail(c, "a second instance could not be created while the first lives: %s", err);
        return CHK_FAIL;
    }
    /* both work: a tiny problem, finite */
    int y[2] = {0, 1};
    double F[4] = {0.5, -0.25, 0.0, 1.0}, g[4];
    double fa = o->eval(a, y, 2, 2, F, g), fb = o->eval(b, y, 2, 2, F, g);
    o->destroy(b);
    o->destroy(a);
    if (!isfinite(fa) || !isfinite(fb)) {
        chk_detail(c, "eval on m=2, k=2 gave %g and %g", fa, fb);
        return CHK_FAIL;
    }
    chk_detail(c, "created, used and destroyed two instances%s",
               c->p->nparams ? " with the parameters under test" : "");
    return CHK_PASS;
}

static enum chk_status params_variant(chk_ctx *c, const chk_variant *var, const char *prefix)
{
    struct lst L;
    char err[BL_ERR_MAX];
    if (lst_open(&L, c, var->v, err) < 0) {
        chk_detail(c, "create refused %s, a value the schema declares: %s", var->label,
                   err[0] ? err : "(no message)");
        return CHK_FAIL;
    }
    struct lspec sp = {"params/gradient", shapes_small, NEL(shapes_small), scale_one, 1,
                       GEN_SMOOTH, 0, prop_gradient, 1};
    int fail = search(c, &L, &sp, prefix);
    if (!fail && L.ops->hessian) {
        struct lcase cs;
        lcase_gen(&cs, 2, 2, 1.0, chk_seed(c, "params/hessian", var->index), GEN_SMOOTH, 0);
        int diag = has_diag(&L, &cs);
        lcase_free(&cs);
        if (diag) {
            sp.tag = "params/hessian", sp.prop = prop_hessian;
            fail = search(c, &L, &sp, prefix);
        }
    }
    if (!fail && L.coded) {
        sp.tag = "params/coded", sp.prop = prop_gradient, sp.coded = 1;
        fail = search(c, &L, &sp, prefix);
    }
    lst_close(&L);
    return fail ? CHK_FAIL : CHK_PASS;
}

static enum chk_status check_params(chk_ctx *c)
{
    return chk_params(c, params_variant, "created, gradient checked");
}

static enum chk_status simple_check(chk_ctx *c, const struct lspec *sp, const char *pass)
{
    struct lst L;
    if (open_or_fail(c, &L) < 0)
        return CHK_FAIL;
    int fail = search(c, &L, sp, "");
    if (!fail)
        chk_detail(c, "%s", pass);
    note_worst(c, &L);
    lst_close(&L);
    return fail ? CHK_FAIL : CHK_PASS;
}

static enum chk_status check_gradient(chk_ctx *c)
{
    struct lspec sp = {"gradient", shapes_std, NEL(shapes_std), scales_std, NEL(scales_std),
                       GEN_SMOOTH, 0, prop_gradient, 1};
    char pass[200];
    snprintf(pass, sizeof pass, "dL/dF matches central differences on %d random F (m 1..8, k 2..6, "
             "|F| up to 30)", c->trials * (int)(NEL(shapes_std) * NEL(scales_std)));
    return simple_check(c, &sp, pass);
}

static enum chk_status check_hessian(chk_ctx *c)
{
    const struct bl_loss_ops *o = c->p->ops;
    if (!o->hessian) {
        chk_detail(c, "no hessian (optional)");
        return CHK_SKIP;
    }
    struct lst L;
    if (open_or_fail(c, &L) < 0)
        return CHK_FAIL;
    struct lcase cs;
    lcase_gen(&cs, 2, 2, 1.0, chk_seed(c, "hessian/form", 0), GEN_SMOOTH, 0);
    int diag = has_diag(&L, &cs);
    lcase_free(&cs);
    lst_close(&L);
    if (!diag) {
        chk_detail(c, "hessian does not do the diagonal form (BL_HESS_DIAG)");
        return CHK_SKIP;
    }
    struct lspec sp = {"hessian", shapes_std, NEL(shapes_std), scales_std, NEL(scales_std),
                       GEN_SMOOTH, 0, prop_hessian, 1};
    return simple_check(c, &sp, "the Hessian diagonal matches central differences of the "
                        "gradient, is >= 0, and unknown forms are refused");
}

static enum chk_status check_convexity(chk_ctx *c)
{
    struct lspec sp = {"convexity", shapes_std, NEL(shapes_std), scales_std, NEL(scales_std),
                       GEN_SMOOTH, 0, prop_convex, 1};
    return simple_check(c, &sp, "L stays below its chords along random segments (|F| up to 30)");
}

static enum chk_status check_extreme(chk_ctx *c)
{
    struct lspec sp = {"extreme", shapes_std, NEL(shapes_std), scale_one, 1, GEN_EXTREME, 0,
                       prop_extreme, 1};
    return simple_check(c, &sp, "value, gradient (and Hessian) are finite at F = 0, +-1e3, "
                        "+-1e6, +-1e12 and +-1e100");
}

static enum chk_status check_row(chk_ctx *c)
{
    const struct bl_loss_ops *o = c->p->ops;
    if (!o->row_prepare) {
        chk_detail(c, "no row fast path (optional)");
        return CHK_SKIP;
    }
    struct lst L;
    if (open_or_fail(c, &L) < 0)
        return CHK_FAIL;
    struct lspec sp = {"row", shapes_std, NEL(shapes_std), scales_std, NEL(scales_std),
                       GEN_SMOOTH, 0, prop_row, 1};
    int fail = search(c, &L, &sp, "");
    enum chk_status st = fail ? CHK_FAIL : CHK_PASS;
    if (!fail && L.declined == L.cases) {
        chk_detail(c, "row_prepare declined every case (s_i = +-1): nothing to compare");
        st = CHK_SKIP;
    } else if (!fail) {
        chk_detail(c, "row_eval(w) equals eval(F + s w^T) in value and gradient (%zu of %zu "
                   "cases prepared)", L.cases - L.declined, L.cases);
    }
    lst_close(&L);
    return st;
}

static enum chk_status check_coded(chk_ctx *c, lprop prop, int kind, const char *tag,
                                   const char *pass)
{
    if (!((const struct bl_loss_ops *)c->p->ops)->eval_coded) {
        chk_detail(c, "no eval_coded (optional)");
        return CHK_SKIP;
    }
    struct lspec sp = {tag, shapes_coded, NEL(shapes_coded),
                       kind == GEN_EXTREME ? scale_one : scales_std,
                       kind == GEN_EXTREME ? 1 : NEL(scales_std), kind, 1, prop, 1};
    return simple_check(c, &sp, pass);
}

static enum chk_status check_coded_gradient(chk_ctx *c)
{
    return check_coded(c, prop_gradient, GEN_SMOOTH, "coded-gradient",
                       "dL/df of eval_coded matches central differences (targets in {-1, 0, 1} "
                       "and reals in [-1, 1], |f| up to 30)");
}

static enum chk_status check_coded_extreme(chk_ctx *c)
{
    return check_coded(c, prop_extreme, GEN_EXTREME, "coded-extreme",
                       "eval_coded's value and gradient are finite at f up to +-1e100");
}

static enum chk_status check_hinge(chk_ctx *c)
{
    const struct bl_loss_ops *lo = c->p->ops;
    if (!lo->hinge_targets && !lo->pair_weights) {
        chk_detail(c, "no pair_weights or hinge_targets (optional)");
        return CHK_SKIP;
    }
    struct lspec sp = {"hinge", shapes_std, NEL(shapes_std), scales_std, NEL(scales_std),
                       GEN_SMOOTH, 0, prop_hinge, 1};
    return simple_check(c, &sp, "pair weights are finite and 0 on the true class; along a "
                        "two-colour column each example's loss is scale max(0, margin - label "
                        "s) with the targets given, one scale for all");
}

static enum chk_status check_update(chk_ctx *c)
{
    if (!((const struct bl_loss_ops *)c->p->ops)->update) {
        chk_detail(c, "no update (optional)");
        return CHK_SKIP;
    }
    struct lspec sp = {"update", shapes_std, NEL(shapes_std), scales_std, NEL(scales_std),
                       GEN_SMOOTH, 0, prop_update, 1};
    char what[200];
    snprintf(what, sizeof what, "update after two scores a row moved gives eval's value and "
             "-gradient and hessian's h and u bit for bit%s",
             ((const struct bl_loss_ops *)c->p->ops)->update_class_major
                 ? "; update_class_major the same, transposed" : "");
    return simple_check(c, &sp, what);
}

static enum chk_status check_determinism(chk_ctx *c)
{
    struct lspec sp = {"determinism", shapes_std, NEL(shapes_std), scales_std, NEL(scales_std),
                       GEN_SMOOTH, 0, prop_determinism, 0};
    struct lst L;
    if (open_or_fail(c, &L) < 0)
        return CHK_FAIL;
    int fail = search(c, &L, &sp, "");
    if (!fail && L.coded) {
        sp.tag = "determinism/coded", sp.coded = 1, sp.shapes = shapes_coded;
        sp.nshapes = NEL(shapes_coded);
        fail = search(c, &L, &sp, "eval_coded: ");
    }
    if (!fail)
        chk_detail(c, "the same input twice, and on a second instance, gives bitwise the same "
                   "value, gradient%s%s%s",
                   ((const struct bl_loss_ops *)c->p->ops)->hessian ? ", Hessian" : "",
                   ((const struct bl_loss_ops *)c->p->ops)->row_prepare ? ", row path" : "",
                   L.coded ? ", eval_coded" : "");
    lst_close(&L);
    return fail ? CHK_FAIL : CHK_PASS;
}

const chk_def chk_loss_checks[] = {
    {"create", check_create, 0, NULL},
    {"params", check_params, 0, NULL},
    {"gradient", check_gradient, 0, NULL},
    {"hessian", check_hessian, 0, NULL},
    {"convexity", check_convexity, 0, NULL},
    {"extreme", check_extreme, 0, NULL},
    {"row", check_row, 0, NULL},
    {"coded-gradient", check_coded_gradient, 0, NULL},
    {"coded-extreme", check_coded_extreme, 0, NULL},
    {"hinge", check_hinge, 0, NULL},
    {"update", check_update, 0, NULL},
    {"determinism", check_determinism, 0, NULL},
};
const size_t chk_loss_count = sizeof chk_loss_checks / sizeof chk_loss_checks[0];

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Solver plugin "exp-step" (scope BL_SOLVE_ROW, space BL_SPACE_TIED): the
 * stage-wise step of RandomBoost's RBoost^rank (RandomBoost spec §2.5,
 * eq. (8), and its corrected real-valued form (9)) and of discrete
 * AdaBoost, in closed form.  Like lbfgsb-line it searches one coefficient
 * shared by every class, w = alpha * 1, and minimises
 *
 *     phi(alpha) = f(alpha * 1) + nu * n * alpha
 *     over alpha in [max_r lower_r, min_r upper_r]  and  |alpha| <= max_step,
 *
 * (the bounds are intersected as lbfgsb-line does, so that check-plugin's
 * random TIED problems, whose bounds differ per variable, are well posed;
 * the engine always gives [0, inf) to every variable).  phi'(alpha) is the
 * sum of the gradient's entries plus nu n (chain rule).
 *
 * Why a closed form.  With the exponential loss and weak outputs in
 * {-1,+1} every pairwise margin moves by delta in {-2, 0, +2} times alpha,
 * so along the tied direction
 *
 *     f(alpha) = A + Q+ e^{-2 alpha} + Q- e^{2 alpha}          (spec (6)-(7))
 *
 * EXACTLY, and with nu = 0 the minimiser is alpha = 1/4 ln(Q+/Q-), eq. (8)
 * (AdaBoost's 1/2 ln((1 - err)/err) in the k = 2 case).  Where lbfgsb-line
 * needs a dozen or more evaluations of f for that step, this solver needs
 * three: the stage-wise step ④ of Table III's timing comparison with the
 * totally corrective L-BFGS-B.
 *
 * How.  The model is not assumed, it is fitted and checked.  Four kinds are
 * tried, in this order (c is the rate, 2 for margins of +-1 outputs, 1 for
 * one-vs-all scores such as mh-exp's or mo-exp's with +-1 outputs):
 *
 *     log, c = 2:  f = f(b) + log(A + P e^{-c u} + N e^{c u})  (margin-exp,
 *                  which is the LOG of the exponential loss, either pair set)
 *     lin, c = 2:  f = A + P e^{-c u} + N e^{c u}              (plain sum)
 *     log, c = 1;  lin, c = 1
 *
 * with u = alpha - b around the start point b (0 from the engine).  Two
 * evaluations, at b and at b + a with a = 1/2 ln 2 (e^{2a} = 2; b - a or
 * the wider side when b + a is out of bounds), give f and phi' at both:
 * the two derivatives determine P and N by a 2 x 2 linear solve
 *
 *     -P + N = G(0) / c,   -P e^{-ca} + N e^{ca} = G(a) / c,
 *     N = (G(a) - G(0) e^{-ca}) / (c (e^{ca} - e^{-ca})),
 *     P = (G(a) - G(0) e^{ca})  / (c (e^{ca} - e^{-ca})),
 *
 * (G = f' for "lin"; for "log" the same on g = exp(f - f(b)), g(0) = 1,
 * G = f' g), f(b) gives A, and the fourth number, f(b + a), must then agree
 * with the model to 1e-9 of the terms' size: the first kind that does is
 * taken.  Its minimiser is closed form too.  For "lin" phi' = 0 is
 * c N x^2 + nu n x - c P = 0 in x = e^{cu},
 *     x = 2 c P / (nu n + sqrt((nu n)^2 + 4 c^2 N P)),
 * which is sqrt(P/N), alpha = b + 1/(2c) ln(P/N), eq. (8), when nu = 0; for
 * "log" phi' = g'/g + nu n = 0 is N (c + nu n) x^2 + nu n A x - P (c - nu n)
 * = 0, no positive root (phi increasing: alpha at its lower bound) when
 * nu n >= c.  The step is clipped to the bounds and to |alpha| <= max_step.
 *
 * Verification.  One more evaluation, at the step: the model must predict
 * f there to the same 1e-9, and phi' must vanish there (or point outward at
 * a bound or at the cap) to 1e-8 of its terms' size.  When it does not (a
 * nearly perfect weak learner: Q- is then lost in the rounding of the
 * first fit, made at points far from the optimum, and the step overshoots
 * to the cap), the model is refitted once from b and the step, where both
 * terms show, and checked again: four evaluations.  Otherwise, and for any
 * objective not of these forms (other losses, real-valued outputs, for
 * which spec (9) is only an upper bound; nu < 0), the solver falls back to
 * a robust 1-D minimisation of phi along the tied direction, from the
 * points already evaluated: bracket the sign change of phi' (doubling steps
 * towards the bound or the cap), then regula falsi with the Illinois
 * modification inside the bracket, with bisection whenever three steps did
 * not halve it, to a bracket narrower than tol (1 + |alpha|) (or phi' = 0
 * up to its rounding; not a tolerance relative to phi' at the start, which
 * stops far too early where phi is flat, e.g. near a large step).  That is correct for any smooth convex
 * phi, so the solver is too; the closed form only makes it fast.  The
 * fallback stops after 200 evaluations (status BL_SOLVE_MAXITER, best point
 * seen).
 *
 * max_step.  When Q- = 0 (the weak learner makes no mistake on any pair
 * it moves) f decreases for ever and eq. (8) gives alpha = inf.  The spec's
 * guard (§2.5) is 1/4 ln((Q+ + eps_s)/(Q- + eps_s)); here the step is capped
 * at |alpha| <= max_step instead (max_step = m plays the role of
 * eps_s ~ Q+ e^{-4m}), and such a capped step is reported with status
 * BL_SOLVE_MAXITER and a log line at level 1.
 *
 * Report.  info->iterations = info->evaluations = evaluations of f used
 * (3 on the usual closed-form path, 4 with the refit; the engine records
 * iterations in the run's curve); info->status is BL_SOLVE_CONVERGED
 * (a tolerance met, closed form or fallback), BL_SOLVE_MAXITER (step capped
 * at max_step, or the fallback's 200 evaluations) or BL_SOLVE_STALLED (the
 * fallback found no sign change where a convex phi must have one).  Which
 * path answered is logged at level 2 ("closed form ..." or "fallback ..."),
 * which tests/unit/test_expstep.c counts.  info->objective is
 * f(alpha 1) + nu * sum(w) at the returned w, from the evaluation there.
 *
 * A non-finite value or gradient is an error, as in lbfgsb-line.  Pure
 * arithmetic on the evaluations: the same problem gives bitwise the same
 * answer.
 */
#include <boostlab/boostlab.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/tied.h"

#define NAME "exp-step"

/* The model must reproduce a value it was not fitted to this closely
 * (relative to the size of its terms) ... */
#define VAL_RTOL 1e-9
/* ... and phi' at the closed-form step must vanish to this (relative to the
 * size of its terms) */
#define DER_RTOL 1e-8
/* the fallback's evaluation budget */
#define MAX_FALLBACK 200
/* the second point: e^{2a} = 2 */
#define STEP_A (0.5 * M_LN2)

enum { P_MAX_STEP, P_TOL, P_COUNT };

static const struct bl_param_spec es_params[P_COUNT] = {
    [P_MAX_STEP] = {"max_step", BL_PARAM_REAL, "10", 0, 100, NULL,
                    "cap on |alpha|, the guard against an infinite step when Q- = 0 (the "
                    "spec's eps_s, RandomBoost spec §2.5)"},
    [P_TOL] = {"tol", BL_PARAM_REAL, "1e-10", 0, 0.1, NULL,
               "fallback 1-D search: stop when the bracket of the minimiser is narrower than "
               "tol * (1 + |alpha|)"},
};

struct es {
    const struct bl_host *host;
    double max_step, tol;
    size_t cap;
    double *w, *g; /* w = alpha * 1 and the gradient, grown to the largest n */
};

static void es_destroy(void *self)
{
    struct es *S = self;
    if (!S)
        return;
    free(S->w);
    free(S->g);
    free(S);
}

static void *es_create(const struct bl_host *host, const union bl_value *params,
                       char err[BL_ERR_MAX])
{
    struct es *S = calloc(1, sizeof *S);
    if (!S) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    S->host = host;
    S->max_step = params ? params[P_MAX_STEP].r : 10.0;
    S->tol = params ? params[P_TOL].r : 1e-10;
    if (!(S->max_step >= 0 && S->max_step <= 100) || !(S->tol >= 0 && S->tol <= 0.1)) {
        snprintf(err, BL_ERR_MAX, "invalid parameters (max_step %g, tol %g)", S->max_step, S->tol);
        free(S);
        return NULL;
    }
    return S;
}

/* One evaluation along the tied direction. */
struct pt {
    double a;    /* alpha */
    double f;    /* f(alpha 1) */
    double d;    /* phi'(alpha) = sum_r df/dw_r + nu n */
    double gabs; /* sum_r |df/dw_r|: the size of d's rounding */
};

struct run {
    struct es *S;
    const struct bl_objective *obj;
    double mu; /* nu n */
    int evals;
    char *err;
};

static int eval_at(struct run *R, double a, struct pt *p)
{
    const struct bl_objective *obj = R->obj;
    size_t n = obj->n;
    double *w = R->S->w, *g = R->S->g;
    for (size_t r = 0; r < n; r++)
        w[r] = a;
    double f = obj->eval(obj->ctx, w, g), d = 0.0, ga = 0.0;
    R->evals++;
    for (size_t r = 0; r < n; r++) {
        d += g[r];
        ga += fabs(g[r]);
    }
    if (!isfinite(f) || !isfinite(d)) {
        snprintf(R->err, BL_ERR_MAX, "objective or gradient is not finite at alpha = %.17g "
                 "(f = %g) after %d evaluations", a, f, R->evals);
        return -1;
    }
    p->a = a;
    p->f = f;
    p->d = d + R->mu;
    p->gabs = ga;
    return 0;
}

/* ---- the closed-form models ------------------------------------------------------ */

enum { K_LOG, K_LIN };

struct model {
    int kind;     /* K_LOG or K_LIN */
    double c;     /* rate: 2 or 1 */
    double b, fb; /* base point and f there */
    double A, P, N;
};

/* The model's terms at u: e = P e^{-cu} + N e^{cu} (*em their difference
 * N e^{cu} - P e^{-cu}); returns the g-space value A + e. */
static double model_terms(const struct model *M, double u, double *e, double *em)
{
    double ep = M->P > 0 ? M->P * exp(-M->c * u) : 0.0;
    double en = M->N > 0 ? M->N * exp(M->c * u) : 0.0;
    *e = ep + en;
    *em = en - ep;
    return M->A + ep + en;
}

/* The model's f and f' at alpha, and the size of their terms (for the
 * tolerances).  Returns -1 when the model has no value there (log of a
 * non-positive number). */
static int model_predict(const struct model *M, double alpha, double *f, double *df,
                         double *fsize, double *dsize)
{
    double u = alpha - M->b, e, em, g = model_terms(M, u, &e, &em);
    if (M->kind == K_LIN) {
        *f = g;
        *df = M->c * em;
        *fsize = fabs(M->A) + e;
        *dsize = M->c * e;
    } else {
        if (!(g > 0) || !isfinite(g))
            return -1;
        *f = M->fb + log(g);
        *df = M->c * em / g;
        /* f's rounding: that of fb, and of g relative to g */
        *fsize = fabs(M->fb) + (fabs(M->A) + e) / g;
        *dsize = M->c * e / g;
    }
    return isfinite(*f) && isfinite(*df) ? 0 : -1;
}

/* Fit model (kind, c) from the base point p0 (its f and phi') and the
 * phi' of q, then check it against q's f.  0 when it fits. */
static int model_fit(struct model *M, int kind, double c, double mu, const struct pt *p0,
                     const struct pt *q)
{
    double u = q->a - p0->a;
    if (!(u != 0.0))
        return -1;
    double E = exp(c * u), Ei = exp(-c * u), den = c * (E - Ei);
    /* the derivatives (without the penalty) and the size of their rounding
     * (that of a sum of gradient entries, sum_r |df/dw_r| eps) */
    double G0 = p0->d - mu, G1 = q->d - mu, r0 = fabs(G0) + p0->gabs, r1 = fabs(G1) + q->gabs;
    if (kind == K_LOG) {
        double g1 = exp(q->f - p0->f);
        if (!isfinite(g1) || !(g1 > 0))
            return -1;
        G1 *= g1;
        r1 *= g1;
    }
    double N = (G1 - G0 * Ei) / den, P = (G1 - G0 * E) / den;
    if (!isfinite(N) || !isfinite(P) || den == 0.0)
        return -1;
    /* P or N below the rounding noise of its numerator (over den) is 0: a
     * flat direction stays flat, Q- = 0 gives the infinite step */
    double nP = 64.0 * DBL_EPSILON * ((r1 + r0 * E) / fabs(den) + fabs(P));
    double nN = 64.0 * DBL_EPSILON * ((r1 + r0 * Ei) / fabs(den) + fabs(N));
    if (P < -nP || N < -nN)
        return -1; /* not a sum of exponentials with these rates */
    if (P <= nP)
        P = 0.0;
    if (N <= nN)
        N = 0.0;
    double noise = nP + nN;
    M->kind = kind, M->c = c, M->b = p0->a, M->fb = p0->f, M->P = P, M->N = N;
    M->A = (kind == K_LIN ? p0->f : 1.0) - P - N;
    if (kind == K_LOG) {
        if (M->A < -noise - 64.0 * DBL_EPSILON)
            return -1; /* a log model's constant term is a sum of exponentials too */
        if (M->A < 0)
            M->A = 0.0;
    }
    double f, df, fs, ds;
    if (model_predict(M, q->a, &f, &df, &fs, &ds) < 0)
        return -1;
    return fabs(f - q->f) <= VAL_RTOL * (fs + fabs(q->f)) ? 0 : -1;
}

/* The model's minimiser of phi over [lo, up] (both finite: the cap). */
static double model_argmin(const struct model *M, double mu, double lo, double up)
{
    double c = M->c, P = M->P, N = M->N, u;
    if (M->kind == K_LIN) {
        if (P == 0.0 && N == 0.0)
            u = mu > 0 ? -HUGE_VAL : 0.0; /* flat: stay, unless nu pushes down */
        else if (P == 0.0)
            u = -HUGE_VAL;
        else if (N == 0.0)
            u = mu > 0 ? (log(c * P) - log(mu)) / c : HUGE_VAL;
        else if (mu == 0.0)
            u = (log(P) - log(N)) / (2.0 * c); /* eq. (8) */
        else
            u = (log(2.0 * c * P) - log(mu + hypot(mu, 2.0 * c * sqrt(N) * sqrt(P)))) / c;
    } else {
        /* N (c + mu) x^2 + mu A x - P (c - mu) = 0 */
        double a2 = N * (c + mu), a1 = mu * M->A, a0 = -P * (c - mu);
        if (a0 >= 0.0)
            u = (a2 == 0.0 && a1 == 0.0 && a0 == 0.0) ? 0.0 : -HUGE_VAL;
        else {
            double den = a1 + hypot(a1, 2.0 * sqrt(a2) * sqrt(-a0));
            u = den > 0 ? (log(-2.0 * a0) - log(den)) / c : HUGE_VAL;
        }
    }
    double a = M->b + u;
    return a < lo ? lo : a > up ? up : a;
}

/* Projected KKT test of phi' = d at alpha within [lo, up]. */
static int kkt_ok(double a, double d, double lo, double up, double tol)
{
    if (a <= lo && d >= -tol)
        return 1;
    if (a >= up && d <= tol)
        return 1;
    return fabs(d) <= tol;
}

/* ---- the fallback: 1-D root of phi' ------------------------------------------------ */

struct best {
    struct pt p;
    int status;
};

/* Regula falsi (Illinois) with bisection on phi' over the points pts[0..np)
 * (all evaluated, within [lo, up]).  Writes the answer to *out. */
static int fallback(struct run *R, struct pt *pts, int np, double lo, double up,
                    struct best *out)
{
    const double tol = R->S->tol;
    out->status = BL_SOLVE_CONVERGED;
    /* phi' = 0 up to its rounding */
#define TOLD(p) (64.0 * DBL_EPSILON * ((p).gabs + fabs(R->mu)))
    /* a point that already is KKT, the lowest phi first */
    int pick = -1;
    for (int j = 0; j < np; j++)
        if (kkt_ok(pts[j].a, pts[j].d, lo, up, TOLD(pts[j])) &&
            (pick < 0 || pts[j].f + R->mu * pts[j].a < pts[pick].f + R->mu * pts[pick].a))
            pick = j;
    if (pick >= 0) {
        out->p = pts[pick];
        return 0;
    }
    /* the bracket: L with phi' < 0 (largest such alpha), H with phi' > 0 */
    int iL = -1, iH = -1;
    for (int j = 0; j < np; j++) {
        if (pts[j].d < 0 && (iL < 0 || pts[j].a > pts[iL].a))
            iL = j;
        if (pts[j].d > 0 && (iH < 0 || pts[j].a < pts[iH].a))
            iH = j;
    }
    struct pt L, H, x;
    int budget = MAX_FALLBACK;
    if (iL < 0 || iH < 0) {
        /* every phi' has one sign: walk towards the minimiser, doubling */
        int up_dir = iL >= 0; /* phi' < 0: phi decreases to the right */
        struct pt far = pts[0];
        for (int j = 1; j < np; j++)
            if (up_dir ? pts[j].a > far.a : pts[j].a < far.a)
                far = pts[j];
        double h = STEP_A;
        for (;;) {
            if (budget-- <= 0) {
                out->p = far, out->status = BL_SOLVE_MAXITER;
                return 0;
            }
            double a = up_dir ? fmin(up, far.a + h) : fmax(lo, far.a - h);
            h *= 2.0;
            if (eval_at(R, a, &x) < 0)
                return -1;
            if (kkt_ok(x.a, x.d, lo, up, TOLD(x)) || x.d == 0.0) {
                out->p = x;
                return 0;
            }
            if (up_dir ? x.d > 0 : x.d < 0)
                break; /* bracketed */
            far = x;
            if (a == (up_dir ? up : lo)) { /* at the bound, still pointing out */
                out->p = x;
                return 0; /* (kkt_ok would have taken it: unreachable) */
            }
        }
        if (up_dir)
            L = far, H = x;
        else
            L = x, H = far;
    } else {
        L = pts[iL], H = pts[iH];
    }
    /* Illinois: the stale end's phi' is halved when the same end moves twice */
    double dL = L.d, dH = H.d, width3 = fabs(H.a - L.a);
    int side = 0, steps = 0;
    for (;;) {
        if (budget-- <= 0) {
            out->p = fabs(L.d) < fabs(H.d) ? L : H;
            out->status = BL_SOLVE_MAXITER;
            return 0;
        }
        double a, width = fabs(H.a - L.a);
        if (++steps % 3 == 0) {
            if (width > 0.5 * width3) /* three steps did not halve it */
                side = 2;
            width3 = width;
        }
        if (side == 2) {
            a = L.a + 0.5 * (H.a - L.a);
            side = 0;
        } else {
            a = H.a - dH * (H.a - L.a) / (dH - dL);
        }
        double lo2 = fmin(L.a, H.a), hi2 = fmax(L.a, H.a);
        if (!(a > lo2 && a < hi2))
            a = L.a + 0.5 * (H.a - L.a);
        if (!(a > lo2 && a < hi2) || width <= tol * (1.0 + fabs(a))) {
            /* the bracket is down to rounding or to tol */
            out->p = fabs(L.d) <= fabs(H.d) ? L : H;
            return 0;
        }
        if (eval_at(R, a, &x) < 0)
            return -1;
        if (kkt_ok(x.a, x.d, lo, up, TOLD(x)) || x.d == 0.0) {
            out->p = x;
            return 0;
        }
        if (x.d > 0) {
            H = x, dH = x.d;
            if (side == 1)
                dL *= 0.5;
            side = 1;
        } else {
            L = x, dL = x.d;
            if (side == -1)
                dH *= 0.5;
            side = -1;
        }
    }
#undef TOLD
}

/* ---- solve --------------------------------------------------------------------- */

static const char *kind_name(int kind)
{
    return kind == K_LOG ? "log" : "lin";
}

static int es_solve(void *self, const struct bl_objective *obj, double *w,
                    struct bl_solve_info *info, char err[BL_ERR_MAX])
{
    struct es *S = self;
    size_t n = obj->n;
    struct bl_solve_info dummy;
    if (!info)
        info = &dummy;
    memset(info, 0, sizeof *info);
    if (n == 0) {
        info->status = BL_SOLVE_CONVERGED;
        return 0;
    }
    double lo, up, start;
    if (tied_room(&S->w, &S->g, &S->cap, n, err) < 0 || tied_bounds(obj, w, &lo, &up, &start, err) < 0)
        return -1;
    double clo = fmax(lo, -S->max_step), cup = fmin(up, S->max_step);
    if (clo > cup) {
        snprintf(err, BL_ERR_MAX, "the coefficient's bounds [%g, %g] lie outside |alpha| <= "
                 "max_step = %g", lo, up, S->max_step);
        return -1;
    }
    if (!isfinite(obj->nu)) {
        snprintf(err, BL_ERR_MAX, "nu = %g is not finite", obj->nu);
        return -1;
    }
    start = fmin(fmax(start, clo), cup);

    struct run R = {S, obj, obj->nu * (double)n, 0, err};
    struct pt pts[4];
    int np = 0;
    struct best ans = {{0}, BL_SOLVE_CONVERGED};
    const char *how = NULL;
    struct model M = {0};
    if (eval_at(&R, start, &pts[np++]) < 0)
        goto fail;
    if (clo == cup) { /* nothing to choose */
        ans.p = pts[0];
        how = "fixed by the bounds";
        goto done;
    }
    /* the second point: b + a, b - a, or the wider side's end */
    double a2;
    if (start + STEP_A <= cup)
        a2 = start + STEP_A;
    else if (start - STEP_A >= clo)
        a2 = start - STEP_A;
    else
        a2 = cup - start >= start - clo ? cup : clo;
    if (eval_at(&R, a2, &pts[np++]) < 0)
        goto fail;

    /* the closed form: the first model kind that fits */
    static const struct { int kind; double c; } kinds[] = {
        {K_LOG, 2.0}, {K_LIN, 2.0}, {K_LOG, 1.0}, {K_LIN, 1.0}};
    int found = 0;
    if (R.mu >= 0)
        for (size_t j = 0; j < sizeof kinds / sizeof kinds[0] && !found; j++)
            found = model_fit(&M, kinds[j].kind, kinds[j].c, R.mu, &pts[0], &pts[1]) == 0;
    for (int round = 0; found && round < 2; round++) {
        double as = model_argmin(&M, R.mu, clo, cup);
        struct pt *q = NULL;
        for (int j = 0; j < np; j++)
            if (pts[j].a == as)
                q = &pts[j];
        if (!q) {
            q = &pts[np];
            if (eval_at(&R, as, q) < 0)
                goto fail;
            np++;
        }
        double f, df, fs, ds;
        if (model_predict(&M, as, &f, &df, &fs, &ds) == 0 &&
            fabs(f - q->f) <= VAL_RTOL * (fs + fabs(q->f)) &&
            kkt_ok(q->a, q->d, clo, cup, DER_RTOL * (ds + fabs(R.mu)) + 64.0 * DBL_EPSILON * q->gabs)) {
            ans.p = *q;
            how = "closed form";
            goto done;
        }
        /* An imprecise step (a term lost in the first fit's rounding, so the
         * step overshot or fell short): refit from b and the step, where
         * both terms show, once; a model of the wrong shape fails again (or
         * fails to fit) and falls back. */
        if (round > 0 || model_fit(&M, M.kind, M.c, R.mu, &pts[0], q) < 0)
            break;
    }
    if (fallback(&R, pts, np, clo, cup, &ans) < 0)
        goto fail;
    how = "fallback";

done:;
    /* a step held at the cap, with phi still decreasing beyond it */
    double a = ans.p.a;
    int capped = ((a >= cup && cup < up && ans.p.d < 0) || (a <= clo && clo > lo && ans.p.d > 0));
    double sw = 0.0;
    for (size_t r = 0; r < n; r++) {
        w[r] = a;
        sw += a;
    }
    info->iterations = info->evaluations = R.evals;
    info->objective = ans.p.f + obj->nu * sw;
    info->status = capped ? BL_SOLVE_MAXITER : (enum bl_solve_status)ans.status;
    if (S->host && S->host->log) {
        if (how && strcmp(how, "closed form") == 0)
            S->host->log(2, NAME, "closed form (%s model, rate %g): alpha = %.17g, %d evaluations",
                         kind_name(M.kind), M.c, a, R.evals);
        else
            S->host->log(2, NAME, "%s: alpha = %.17g, %d evaluations", how, a, R.evals);
        if (capped)
            S->host->log(1, NAME, "step held at max_step = %g: phi still decreases beyond it "
                         "(phi' = %g; Q- = 0, no finite minimiser?)", S->max_step, ans.p.d);
    }
    return 0;
fail:
    info->iterations = info->evaluations = R.evals;
    return -1;
}

static const struct bl_solver_ops es_ops = {
    .size = sizeof(struct bl_solver_ops),
    .scope = BL_SOLVE_ROW,
    .create = es_create,
    .destroy = es_destroy,
    .solve = es_solve,
    .space = BL_SPACE_TIED,
};

static const struct bl_plugin es_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_SOLVER,
    .name = NAME,
    .doc = "stage-wise closed-form step alpha = 1/4 ln(Q+/Q-) along w = alpha*1 (RandomBoost (8), "
           "AdaBoost), verified; 1-D search fallback",
    .params = es_params,
    .nparams = P_COUNT,
    .ops = &es_ops,
};

static const struct bl_plugin *const es_plugins[] = {&es_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return es_plugins;
}

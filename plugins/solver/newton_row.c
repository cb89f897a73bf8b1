/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Solver plugin "newton-row" (scope BL_SOLVE_ROW): the stage-wise row
 * problems (13)/(14) of spec §3.2 by projected Newton,
 *
 *     min  phi(w) = f(w) + nu * sum(w)   within lower <= w <= upper,
 *
 * the problem lbfgsb-row solves, with its stopping rules: at most max_iter
 * iterations; converged when the projected gradient's max-norm
 * max_j |P(w - g)_j - w_j| (g = grad phi, P the projection onto the box:
 * L-BFGS-B's projgr) is at most pgtol, or when an iteration decreases phi by
 * at most ftol * max(|phi|, 1) (relative, where lbfgsb's ftol is absolute).
 *
 * Method.  Each iteration minimises the quadratic model of phi over the box,
 *
 *     d = argmin { g^T d + 1/2 d^T B d : lower <= w + d <= upper },
 *
 * B = H + tau I with H the Hessian of f (tau: a tiny ridge, 1e-10 of H's
 * largest diagonal entry, raised tenfold until B factors: the margin
 * losses' Hessians are graph Laplacians, singular along 1, spec §3.4,
 * §3.8.5), then takes w + a d with the largest a in 1, 1/2, 1/4, ... that
 * passes Armijo's test phi(w + a d) <= phi(w) + 1e-4 a g^T d.  This is the
 * constrained Newton method of D. P. Bertsekas, Nonlinear Programming, 2nd
 * ed., Athena Scientific 1999, §2.3 (d is a descent direction whenever w is
 * not stationary, and a = 1 is accepted near the solution, where the
 * convergence is quadratic).  The box-constrained model is solved, exactly
 * up to rounding, by the two-metric projection method of D. P. Bertsekas,
 * "Projected Newton methods for optimization problems with simple
 * constraints", SIAM J. Control Optim. 20(2):221-246, 1982, run on the
 * model from d = 0: each inner step fixes the epsilon-active variables
 * (within eps = min(1e-3, the model's projected gradient) of a bound with
 * the gradient pushing outward) and gives them a diagonally scaled
 * gradient step, takes a Newton step on the free ones with the reduced
 * matrix B_FF (a hand-written Cholesky), and backtracks along the
 * projection arc P(d + a Delta) until Bertsekas's Armijo condition holds.
 * The inner loop costs O(k^3) per step and no evaluation of f, so
 * identifying the active set (from w = 0 most classes start at the bound)
 * takes inner steps instead of evaluations: on MCBoost-log's row problems
 * a handful of outer iterations, each one evaluation of value and gradient
 * and one of the Hessian, where L-BFGS-B takes about twenty.  (The 1982
 * method applied to phi itself, one two-metric step per evaluation, frees
 * only the classes whose gradient has turned at each step: on letter, 26
 * classes, it needed 5.2 iterations per row problem, this 2.8.)  Should a
 * Newton step make no progress, a scaled projected gradient step gets a
 * second chance before the solve is reported stalled.
 *
 * Near the solution the decrease a step promises falls below the rounding
 * noise of phi (a sum of m k terms), where Armijo's test sees only noise:
 * there a step that keeps phi level within 1e3 eps |phi| is taken when it
 * lowers the projected gradient (and is not counted for ftol).
 *
 * H is the objective's hessian (struct bl_objective), which the
 * engine fills from a loss's row_hessian.  When it is NULL (or refuses at
 * some w) the iteration is a projected gradient step, P(w - g / c) - w
 * with c = max_j |g_j| (max-norm 1) at first, and from then on B is a BFGS
 * approximation built from the iterates' gradient differences (updated only
 * when s^T y > 0, so it stays positive definite): correct for any smooth
 * objective, only slower.
 *
 * A non-finite value or gradient is an error, as in lbfgsb-row; the answer
 * is always the last accepted iterate, and bl_solve_info.objective is phi
 * there.  Evaluations count calls of eval (not of hessian).  Everything is
 * sequential and deterministic.
 */
#include <boostlab/boostlab.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "newton-row"

#define EPS_BAR 1e-3     /* largest epsilon of the epsilon-active set      */
#define SIGMA 1e-4       /* Armijo's sufficient-decrease fraction          */
#define MAX_BACKTRACK 60 /* halvings of a step before giving up            */
#define RIDGE 1e-10      /* tau's start, relative to H's largest diagonal  */
#define MAX_N 2048       /* variables (classes) at most ...                */
#define MAX_N_TEXT "2048" /* ... as text, for the message                  */

enum { P_MAX_ITER, P_PGTOL, P_FTOL, P_COUNT };

static const struct bl_param_spec nr_params[P_COUNT] = {
    [P_MAX_ITER] = {"max_iter", BL_PARAM_INT, "50", 1, 1e9, NULL,
                    "maximum number of projected Newton iterations"},
    [P_PGTOL] = {"pgtol", BL_PARAM_REAL, "1e-5", 0, HUGE_VAL, NULL,
                 "stop when the projected gradient's max norm is at most this (as lbfgsb-row)"},
    [P_FTOL] = {"ftol", BL_PARAM_REAL, "1e-9", 0, HUGE_VAL, NULL,
                "stop when an iteration decreases the objective by at most this times "
                "max(|objective|, 1)"},
};

struct nr {
    const struct bl_host *host;
    int max_iter;
    double pgtol, ftol;
    /* work space, grown to the largest n seen */
    size_t cap;
    double *lo, *up;           /* n: the bounds (open: +-HUGE_VAL)            */
    double *g, *x, *wn, *gn;   /* n: gradient, target w + d, trial, its gradient */
    double *s, *yv, *Bs;       /* n: BFGS pair, B s                          */
    double *dl, *du, *d, *r;   /* n: the model's box, its solution and gradient */
    double *dt, *rt, *dir;     /* n: the model's trial point, its gradient, step */
    double *H, *B, *Q, *A, *L; /* n x n: Hessian, BFGS matrix, the model's
                                  matrix, a free block and its Cholesky factor */
    size_t *fr;                /* n: indices of the free variables            */
    unsigned char *fixed;      /* n: epsilon-active in the model              */
};

static void nr_free_work(struct nr *S)
{
    double **v[] = {&S->lo, &S->up, &S->g,  &S->x,  &S->wn, &S->gn, &S->s, &S->yv,
                    &S->Bs, &S->dl, &S->du, &S->d,  &S->r,  &S->dt, &S->rt, &S->dir,
                    &S->H,  &S->B,  &S->Q,  &S->A,  &S->L};
    for (size_t j = 0; j < sizeof v / sizeof *v; j++) {
        free(*v[j]);
        *v[j] = NULL;
    }
    free(S->fr);
    free(S->fixed);
    S->fr = NULL;
    S->fixed = NULL;
    S->cap = 0;
}

static void nr_destroy(void *self)
{
    struct nr *S = self;
    if (!S)
        return;
    nr_free_work(S);
    free(S);
}

static int nr_reserve(struct nr *S, size_t n)
{
    if (n <= S->cap)
        return 0;
    nr_free_work(S);
    double **vec[] = {&S->lo, &S->up, &S->g,  &S->x,  &S->wn, &S->gn, &S->s, &S->yv,
                      &S->Bs, &S->dl, &S->du, &S->d,  &S->r,  &S->dt, &S->rt, &S->dir};
    double **mat[] = {&S->H, &S->B, &S->Q, &S->A, &S->L};
    int ok = 1;
    for (size_t j = 0; j < sizeof vec / sizeof *vec; j++)
        ok &= (*vec[j] = malloc(n * sizeof **vec[j])) != NULL;
    for (size_t j = 0; j < sizeof mat / sizeof *mat; j++)
        ok &= (*mat[j] = malloc(n * n * sizeof **mat[j])) != NULL;
    S->fr = malloc(n * sizeof *S->fr);
    S->fixed = malloc(n);
    if (!ok || !S->fr || !S->fixed) {
        nr_free_work(S);
        return -1;
    }
    S->cap = n;
    return 0;
}

static void *nr_create(const struct bl_host *host, const union bl_value *params,
                       char err[BL_ERR_MAX])
{
    struct nr *S = calloc(1, sizeof *S);
    if (!S) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    S->host = host;
    if (params) {
        S->max_iter = (int)params[P_MAX_ITER].i;
        S->pgtol = params[P_PGTOL].r;
        S->ftol = params[P_FTOL].r;
    } else { /* the schema's defaults */
        S->max_iter = 50, S->pgtol = 1e-5, S->ftol = 1e-9;
    }
    if (S->max_iter < 1 || !(S->pgtol >= 0) || !(S->ftol >= 0)) {
        snprintf(err, BL_ERR_MAX, "invalid parameters (max_iter %d, pgtol %g, ftol %g)",
                 S->max_iter, S->pgtol, S->ftol);
        free(S);
        return NULL;
    }
    if (nr_reserve(S, 32) < 0) { /* room for k <= 32 row problems up front */
        snprintf(err, BL_ERR_MAX, "out of memory");
        nr_destroy(S);
        return NULL;
    }
    return S;
}

static double clip(double x, double lo, double up)
{
    return x < lo ? lo : x > up ? up : x;
}

/* max_j |P(x - g)_j - x_j| over the box [lo, up] */
static double proj_grad(size_t n, const double *x, const double *g, const double *lo,
                        const double *up)
{
    double mx = 0.0;
    for (size_t j = 0; j < n; j++) {
        double v = fabs(clip(x[j] - g[j], lo[j], up[j]) - x[j]);
        if (v > mx)
            mx = v;
    }
    return mx;
}

/* phi = f + nu sum(w) and its gradient g at w; 0, or -1 when not finite. */
static int phi_eval(const struct bl_objective *obj, const double *w, double *g, double *phi)
{
    size_t n = obj->n;
    double f = obj->eval(obj->ctx, w, g), sw = 0.0;
    int ok = isfinite(f);
    for (size_t j = 0; j < n; j++) {
        sw += w[j];
        g[j] += obj->nu;
        ok &= isfinite(g[j]);
    }
    *phi = f + obj->nu * sw;
    return ok && isfinite(*phi) ? 0 : -1;
}

/* Cholesky L L^T of the nf x nf matrix A (row-major; L's lower half is
 * written); 0, or -1 when a pivot is not a finite number above tiny. */
static int cholesky(const double *A, size_t nf, double tiny, double *L)
{
    for (size_t i = 0; i < nf; i++)
        for (size_t j = 0; j <= i; j++) {
            double v = A[i * nf + j];
            for (size_t l = 0; l < j; l++)
                v -= L[i * nf + l] * L[j * nf + l];
            if (i == j) {
                if (!(v > tiny) || !isfinite(v))
                    return -1;
                L[i * nf + i] = sqrt(v);
            } else {
                L[i * nf + j] = v / L[j * nf + j];
            }
        }
    return 0;
}

/* x = (L L^T)^-1 x in place. */
static void chol_solve(const double *L, size_t nf, double *x)
{
    for (size_t i = 0; i < nf; i++) {
        double v = x[i];
        for (size_t l = 0; l < i; l++)
            v -= L[i * nf + l] * x[l];
        x[i] = v / L[i * nf + i];
    }
    for (size_t i = nf; i-- > 0;) {
        double v = x[i];
        for (size_t l = i + 1; l < nf; l++)
            v -= L[l * nf + i] * x[l];
        x[i] = v / L[i * nf + i];
    }
}

/* Q = M + tau I, positive definite: tau starts at RIDGE times M's largest
 * diagonal entry and grows tenfold until Q factors.  Returns 0, or -1 when
 * M is unusable (no positive diagonal, not finite, no tau up to 1e2 times
 * that entry works). */
static int model_matrix(struct nr *S, const double *M, size_t n)
{
    double dmax = 0.0;
    for (size_t j = 0; j < n * n; j++)
        if (!isfinite(M[j]))
            return -1;
    for (size_t j = 0; j < n; j++)
        dmax = fmax(dmax, M[j * n + j]);
    if (!(dmax > 0.0))
        return -1;
    double tau = RIDGE * dmax;
    for (int t = 0; t < 13; t++, tau *= 10.0) {
        memcpy(S->Q, M, n * n * sizeof *S->Q);
        for (size_t j = 0; j < n; j++)
            S->Q[j * n + j] += tau;
        if (cholesky(S->Q, n, 1e-14 * dmax, S->L) == 0)
            return 0;
    }
    return -1;
}

/* Q = c I */
static void model_identity(struct nr *S, size_t n, double c)
{
    memset(S->Q, 0, n * n * sizeof *S->Q);
    for (size_t j = 0; j < n; j++)
        S->Q[j * n + j] = c;
}

/* The model q(d) = g^T d + 1/2 d^T Q d at d, and its gradient r = g + Q d. */
static double model_eval(const struct nr *S, size_t n, const double *g, const double *d,
                         double *r)
{
    double q = 0.0;
    for (size_t a = 0; a < n; a++) {
        double v = g[a];
        const double *Qa = S->Q + a * n;
        for (size_t b = 0; b < n; b++)
            v += Qa[b] * d[b];
        r[a] = v;
        q += 0.5 * (g[a] + v) * d[a];
    }
    return q;
}

/* Minimise the model over the box [dl, du] (which holds 0) into S->d, by
 * Bertsekas's two-metric projection method from d = 0 (see the header);
 * stops when the model's projected gradient is at most tol, after
 * 4 n + 20 steps, or when a step makes no progress.  Every accepted step
 * lowers q below q(0) = 0, so any d it returns other than 0 is a descent
 * direction for phi. */
static void model_solve(struct nr *S, size_t n, const double *g, double tol)
{
    double *d = S->d, *r = S->r, *dir = S->dir, *A = S->A, *L = S->L;
    memset(d, 0, n * sizeof *d);
    memcpy(r, g, n * sizeof *r);
    double q = 0.0;
    for (size_t it = 0; it < 4 * n + 20; it++) {
        double pg = proj_grad(n, d, r, S->dl, S->du);
        if (pg <= tol)
            break;
        double eps = pg < EPS_BAR ? pg : EPS_BAR;
        size_t nf = 0;
        for (size_t j = 0; j < n; j++) {
            int fx = (d[j] <= S->dl[j] + eps && r[j] > 0.0) ||
                     (d[j] >= S->du[j] - eps && r[j] < 0.0);
            S->fixed[j] = (unsigned char)fx;
            if (!fx)
                S->fr[nf++] = j;
        }
        /* Newton on the free variables (Q_FF is a principal block of a
         * positive definite Q; a failed factorisation, possible only by
         * rounding, leaves them a scaled gradient step like the rest) */
        for (size_t a = 0; a < nf; a++)
            for (size_t b = 0; b < nf; b++)
                A[a * nf + b] = S->Q[S->fr[a] * n + S->fr[b]];
        int newton = nf > 0 && cholesky(A, nf, 0.0, L) == 0;
        if (newton) {
            for (size_t a = 0; a < nf; a++)
                dir[a] = -r[S->fr[a]];
            chol_solve(L, nf, dir);
            /* spread into place from the back (fr is increasing) */
            for (size_t a = nf; a-- > 0;)
                dir[S->fr[a]] = dir[a];
        }
        double slope = 0.0; /* sum over the free variables of -r_j dir_j */
        for (size_t j = 0; j < n; j++) {
            if (S->fixed[j] || !newton)
                dir[j] = -r[j] / S->Q[j * n + j];
            if (!S->fixed[j])
                slope -= r[j] * dir[j];
        }
        int accepted = 0;
        double a = 1.0, qt = q;
        for (int bt = 0; bt <= MAX_BACKTRACK && !accepted; bt++, a *= 0.5) {
            double pred = a * slope;
            int moved = 0;
            for (size_t j = 0; j < n; j++) {
                S->dt[j] = clip(d[j] + a * dir[j], S->dl[j], S->du[j]);
                moved |= S->dt[j] != d[j];
                if (S->fixed[j])
                    pred += r[j] * (d[j] - S->dt[j]);
            }
            if (!moved)
                break;
            qt = model_eval(S, n, g, S->dt, S->rt);
            accepted = q - qt >= SIGMA * pred && qt < q;
        }
        if (!accepted)
            break;
        memcpy(d, S->dt, n * sizeof *d);
        memcpy(r, S->rt, n * sizeof *r);
        q = qt;
    }
}

/* BFGS update of B with s = w_new - w, y = g_new - g; skipped unless
 * s^T y > 0 (curvature), which keeps B positive definite.  The first update
 * starts B at (y^T y / s^T y) I (Nocedal & Wright (6.20)). */
static void bfgs_update(struct nr *S, size_t n, int *have_b)
{
    double sy = 0.0, yy = 0.0, ss = 0.0;
    for (size_t j = 0; j < n; j++) {
        sy += S->s[j] * S->yv[j];
        yy += S->yv[j] * S->yv[j];
        ss += S->s[j] * S->s[j];
    }
    if (!(sy > 1e-12 * sqrt(ss * yy)) || !isfinite(yy))
        return;
    double *B = S->B;
    if (!*have_b) {
        model_identity(S, n, yy / sy);
        memcpy(B, S->Q, n * n * sizeof *B);
        *have_b = 1;
    }
    double sBs = 0.0;
    for (size_t a = 0; a < n; a++) {
        double v = 0.0;
        for (size_t b = 0; b < n; b++)
            v += B[a * n + b] * S->s[b];
        S->Bs[a] = v;
        sBs += S->s[a] * v;
    }
    if (!(sBs > 0.0))
        return;
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++)
            B[a * n + b] += S->yv[a] * S->yv[b] / sy - S->Bs[a] * S->Bs[b] / sBs;
}

/* One iteration's step with the model matrix in S->Q: solve the model,
 * then Armijo along the segment from w to the target x = w + d (inside the
 * box).  The accepted point, its phi and gradient go to S->wn, *phin,
 * S->gn.  Returns 2 when accepted by Armijo's test, 1 when accepted at the
 * rounding level of phi (see below), 0 when no step size makes progress,
 * -1 on a non-finite value (err set). */
static int step(struct nr *S, const struct bl_objective *obj, const double *w, const double *g,
                double phi, double pg, double *phin, int *evals, char err[BL_ERR_MAX])
{
    size_t n = obj->n;
    for (size_t j = 0; j < n; j++) {
        S->dl[j] = S->lo[j] - w[j];
        S->du[j] = S->up[j] - w[j];
    }
    /* the model's accuracy: well below pgtol, and near rounding level */
    model_solve(S, n, g, fmin(1e-3 * S->pgtol, 1e-6 * pg));
    /* x exactly on a bound where d is */
    double slope = 0.0;
    for (size_t j = 0; j < n; j++) {
        double dj = S->d[j];
        S->x[j] = dj == S->dl[j]   ? S->lo[j]
                  : dj == S->du[j] ? S->up[j]
                                   : clip(w[j] + dj, S->lo[j], S->up[j]);
        slope += g[j] * (S->x[j] - w[j]);
    }
    /* rounding noise of phi (see the header; observed up to ~10 eps |phi|
     * on margin-log): a step level within it is taken when it lowers the
     * projected gradient, and once the promised decrease is below it,
     * halving further cannot help */
    double noise = 1e3 * DBL_EPSILON * fmax(fabs(phi), 1.0), a = 1.0;
    for (int bt = 0; bt <= MAX_BACKTRACK && slope < 0.0; bt++, a *= 0.5) {
        int moved = 0;
        for (size_t j = 0; j < n; j++) {
            S->wn[j] = bt == 0 ? S->x[j] : clip(w[j] + a * (S->x[j] - w[j]), S->lo[j], S->up[j]);
            moved |= S->wn[j] != w[j];
        }
        if (!moved)
            return 0;
        ++*evals;
        if (phi_eval(obj, S->wn, S->gn, phin) < 0) {
            snprintf(err, BL_ERR_MAX,
                     "objective or gradient is not finite (f = %g) after %d evaluations", *phin,
                     *evals);
            return -1;
        }
        if (*phin <= phi + SIGMA * a * slope)
            return 2;
        if (*phin - phi <= noise && proj_grad(n, S->wn, S->gn, S->lo, S->up) < pg)
            return 1;
        if (-a * slope <= noise)
            return 0;
    }
    return 0;
}

static int nr_solve(void *self, const struct bl_objective *obj, double *w,
                    struct bl_solve_info *info, char err[BL_ERR_MAX])
{
    struct nr *S = self;
    size_t n = obj->n;
    struct bl_solve_info dummy;
    if (!info)
        info = &dummy;
    memset(info, 0, sizeof *info);
    if (n == 0) {
        info->status = BL_SOLVE_CONVERGED;
        return 0;
    }
    /* five n x n matrices: a row problem has one variable per class */
    if (n > MAX_N || nr_reserve(S, n) < 0) {
        snprintf(err, BL_ERR_MAX, "cannot allocate Newton work space for %zu variables%s", n,
                 n > MAX_N ? " (at most " MAX_N_TEXT ")" : "");
        return -1;
    }
    for (size_t j = 0; j < n; j++) {
        double lo = obj->lower ? obj->lower[j] : -HUGE_VAL;
        double up = obj->upper ? obj->upper[j] : HUGE_VAL;
        if (isnan(lo) || isnan(up) || lo > up) {
            snprintf(err, BL_ERR_MAX, "empty or invalid bounds for variable %zu: [%g, %g]", j,
                     lo, up);
            return -1;
        }
        S->lo[j] = lo;
        S->up[j] = up;
        w[j] = clip(w[j], lo, up); /* start inside the box */
    }

    double *g = S->g, phi, phin = 0.0;
    int evals = 1, iters = 0, rc = 0, have_b = 0;
    /* BFGS runs when there is no Hessian, or from the first time it fails */
    int bfgs = obj->hessian == NULL;
    enum bl_solve_status status = BL_SOLVE_CONVERGED;
    if (phi_eval(obj, w, g, &phi) < 0) {
        snprintf(err, BL_ERR_MAX, "objective or gradient is not finite at the start (f = %g)",
                 phi);
        info->evaluations = evals;
        return -1;
    }
    for (;;) {
        double pg = proj_grad(n, w, g, S->lo, S->up);
        if (pg <= S->pgtol) {
            status = BL_SOLVE_CONVERGED;
            break;
        }
        if (iters >= S->max_iter) {
            status = BL_SOLVE_MAXITER;
            break;
        }
        /* the model: the host's Hessian, else BFGS's B once it exists, else
         * a projected gradient step of max-norm 1 (also the second chance
         * when a Newton model's step makes no progress) */
        int model = -1, found = 0;
        if (obj->hessian && !bfgs) {
            if (obj->hessian(obj->ctx, w, S->H) == 0 && model_matrix(S, S->H, n) == 0)
                model = 0;
            else
                bfgs = 1;
        }
        if (model < 0 && have_b)
            model = model_matrix(S, S->B, n);
        for (int attempt = 0; attempt < 2 && !found; attempt++) {
            if (attempt > 0 && model < 0)
                break;
            if (attempt > 0 || model < 0) {
                double gmax = 0.0;
                for (size_t j = 0; j < n; j++)
                    gmax = fmax(gmax, fabs(g[j]));
                model_identity(S, n, gmax > 0.0 ? gmax : 1.0);
                model = -1;
            }
            found = step(S, obj, w, g, phi, pg, &phin, &evals, err);
        }
        if (found < 0) {
            rc = -1;
            break;
        }
        if (!found) {
            status = BL_SOLVE_STALLED;
            if (S->host && S->host->log)
                S->host->log(2, NAME, "line search made no progress (projected gradient %g)", pg);
            break;
        }
        iters++;
        for (size_t j = 0; j < n; j++) {
            S->s[j] = S->wn[j] - w[j];
            S->yv[j] = S->gn[j] - g[j];
            w[j] = S->wn[j];
            g[j] = S->gn[j];
        }
        if (bfgs)
            bfgs_update(S, n, &have_b);
        double dec = phi - phin;
        phi = phin;
        /* (a step taken at the rounding level says nothing about ftol) */
        if (found == 2 && dec <= S->ftol * fmax(fabs(phi), 1.0)) {
            status = BL_SOLVE_CONVERGED;
            break;
        }
    }
    info->iterations = iters;
    info->evaluations = evals;
    info->status = status;
    info->objective = phi;
    return rc;
}

static const struct bl_solver_ops nr_ops = {
    .size = sizeof(struct bl_solver_ops),
    .scope = BL_SOLVE_ROW,
    .create = nr_create,
    .destroy = nr_destroy,
    .solve = nr_solve,
};

static const struct bl_plugin nr_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_SOLVER,
    .name = NAME,
    .doc = "stage-wise row solver: projected Newton (Bertsekas) on f(w) + nu*sum(w) within "
           "bounds, with the loss's row Hessian",
    .params = nr_params,
    .nparams = P_COUNT,
    .ops = &nr_ops,
};

static const struct bl_plugin *const nr_plugins[] = {&nr_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return nr_plugins;
}

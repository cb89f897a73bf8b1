/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Solver plugins "lbfgsb-row" (scope BL_SOLVE_ROW): the stage-wise row
 * problems (13)/(14) of spec §3.2, and "lbfgsb-tc" (scope BL_SOLVE_ALL):
 * the same solver over every coefficient row, warm-started by the engine,
 * i.e. the totally corrective step of MultiBoost (spec §7.1).  Both solve
 *
 *     min  f(w) + nu * sum(w)   within the bounds (and w <= max_coef),
 *
 * solved with L-BFGS-B 3.0 (Byrd, Lu, Nocedal, Zhu; Morales & Nocedal's
 * 2011 revision) from Debian's liblbfgsb, driven through its reverse
 * communication interface.  The paper's settings (spec §3.2) are the
 * defaults: at most 100 iterations, stop when the projected gradient is
 * below 1e-5 or the objective decreases by less than 1e-9 between two
 * iterations.  The memory size is not stated in the paper (5 here); the
 * "bounded step-size" kappa of spec §3.5 is max_coef, off by default.
 *
 * Also here, "lbfgsb-line" (scope BL_SOLVE_ROW): the step of the AdaBoost
 * family, one coefficient alpha shared by every class, w = alpha * 1.  The
 * class outputs of coded (AdaBoost.ECC, spec §7.4), vote (AdaBoost.MH,
 * §7.3) and SAMME (§7.2) hypotheses already carry their signs, so the step
 * is a line search along them:
 *
 *     min  phi(alpha) = f(alpha * 1) + nu * k * alpha
 *     over alpha in [max_r lower_r, min(min_r upper_r, max_coef)],
 *
 * usually [0, inf), solved by the same L-BFGS-B machinery with n = 1 and
 * phi'(alpha) = sum_r df/dw_r + nu k (chain rule); same parameters, same
 * stopping rules.  With nu = 0 its minimiser is AdaBoost.MH's
 * alpha = 1/2 ln((1+gamma)/(1-gamma)) (with mh-exp), AdaBoost.ECC's
 * 1/4 ln(U+/U-) (with margin-exp: its log is monotone and its r = y_i
 * terms do not depend on alpha; discrete AdaBoost is the k = 2 binary-code
 * case), and SAMME's log((1-err)/err) + log(k-1) times the constant factor
 * (k-1)^2/k that samme-exp implies (tests/unit/test_family.c).  With nu = 0
 * a hypothesis with no error (gamma = 1, U- = 0) has no finite minimiser:
 * alpha then grows until max_iter (or stops at max_coef).
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/tied.h"

#define NAME "lbfgsb"

/*
 * liblbfgsb ships no header.  The Fortran routine is
 *
 *   subroutine setulb(n, m, x, l, u, nbd, f, g, factr, pgtol, wa, iwa,
 *                     task, iprint, csave, lsave, isave, dsave)
 *   character*60     task, csave
 *   logical          lsave(4)
 *   integer          n, m, iprint, nbd(n), iwa(3*n), isave(44)
 *   double precision f, factr, pgtol, x(n), l(n), u(n), g(n),
 *                    wa(2*m*n + 5*n + 11*m*m + 8*m), dsave(29)
 *
 * gfortran's ABI: the symbol gets a trailing underscore, every argument is
 * passed by reference, INTEGER and LOGICAL are 4-byte ints, and each
 * CHARACTER argument adds a hidden length argument, passed by value after
 * all the others, in order (size_t since gfortran 8).  Fortran strings are
 * blank-padded, not NUL-terminated.
 */
#define TASK_LEN 60
extern void setulb_(const int *n, const int *m, double *x, const double *l, const double *u,
                    const int *nbd, double *f, double *g, const double *factr,
                    const double *pgtol, double *wa, int *iwa, char *task, const int *iprint,
                    char *csave, int *lsave, int *isave, double *dsave, size_t task_len,
                    size_t csave_len);

enum { P_MAX_ITER, P_PGTOL, P_FTOL, P_MEMORY, P_MAX_COEF, P_COUNT };

static const struct bl_param_spec lb_params[P_COUNT] = {
    [P_MAX_ITER] = {"max_iter", BL_PARAM_INT, "100", 1, 1e9, NULL,
                    "maximum number of L-BFGS-B iterations (paper: 100)"},
    [P_PGTOL] = {"pgtol", BL_PARAM_REAL, "1e-5", 0, HUGE_VAL, NULL,
                 "stop when the projected gradient's max norm is at most this (paper: 1e-5)"},
    [P_FTOL] = {"ftol", BL_PARAM_REAL, "1e-9", 0, HUGE_VAL, NULL,
                "stop when the objective decreases by less than this in one iteration (paper: 1e-9)"},
    [P_MEMORY] = {"memory", BL_PARAM_INT, "5", 1, 100, NULL,
                  "number of L-BFGS correction pairs kept (not stated in the paper)"},
    [P_MAX_COEF] = {"max_coef", BL_PARAM_REAL, "inf", 0, HUGE_VAL, NULL,
                    "upper bound kappa on every coefficient, the paper's bounded step-size (inf = off)"},
};

struct lb {
    const struct bl_host *host;
    int max_iter, mem;
    double pgtol, ftol, max_coef;
    /* work buffers, grown to the largest n seen */
    size_t cap;
    double *lo, *up, *g, *wa, *xbest;
    int *nbd, *iwa;
    /* lbfgsb-line: w = alpha * 1 and its gradient, grown to the largest n */
    size_t lcap;
    double *lw, *lg;
};

static void lb_destroy(void *self)
{
    struct lb *S = self;
    if (!S)
        return;
    free(S->lo);
    free(S->up);
    free(S->g);
    free(S->wa);
    free(S->xbest);
    free(S->nbd);
    free(S->iwa);
    free(S->lw);
    free(S->lg);
    free(S);
}

/* Doubles of setulb's work space for n variables (L-BFGS-B 3.0). */
static size_t lb_nwa(const struct lb *S, size_t n)
{
    size_t m = (size_t)S->mem;
    return 2 * m * n + 5 * n + 11 * m * m + 8 * m;
}

static int lb_reserve(struct lb *S, size_t n)
{
    if (n <= S->cap)
        return 0;
    size_t nwa = lb_nwa(S, n);
    double *lo = malloc(n * sizeof *lo), *up = malloc(n * sizeof *up);
    double *g = malloc(n * sizeof *g), *wa = malloc(nwa * sizeof *wa);
    double *xb = malloc(n * sizeof *xb);
    int *nbd = malloc(n * sizeof *nbd), *iwa = malloc(3 * n * sizeof *iwa);
    if (!lo || !up || !g || !wa || !xb || !nbd || !iwa) {
        free(lo), free(up), free(g), free(wa), free(xb), free(nbd), free(iwa);
        return -1;
    }
    free(S->lo), free(S->up), free(S->g), free(S->wa), free(S->xbest), free(S->nbd), free(S->iwa);
    S->lo = lo, S->up = up, S->g = g, S->wa = wa, S->xbest = xb, S->nbd = nbd, S->iwa = iwa;
    S->cap = n;
    return 0;
}

static void *lb_create(const struct bl_host *host, const union bl_value *params,
                       char err[BL_ERR_MAX])
{
    struct lb *S = calloc(1, sizeof *S);
    if (!S) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    S->host = host;
    if (params) {
        S->max_iter = (int)params[P_MAX_ITER].i;
        S->pgtol = params[P_PGTOL].r;
        S->ftol = params[P_FTOL].r;
        S->mem = (int)params[P_MEMORY].i;
        S->max_coef = params[P_MAX_COEF].r;
    } else { /* the schema's defaults */
        S->max_iter = 100, S->pgtol = 1e-5, S->ftol = 1e-9, S->mem = 5, S->max_coef = HUGE_VAL;
    }
    if (S->max_iter < 1 || S->mem < 1 || !(S->pgtol >= 0) || !(S->ftol >= 0) || !(S->max_coef >= 0)) {
        snprintf(err, BL_ERR_MAX, "invalid parameters (max_iter %d, memory %d, pgtol %g, ftol %g, max_coef %g)",
                 S->max_iter, S->mem, S->pgtol, S->ftol, S->max_coef);
        free(S);
        return NULL;
    }
    if (lb_reserve(S, 16) < 0) { /* room for k <= 16 row problems up front */
        snprintf(err, BL_ERR_MAX, "out of memory");
        lb_destroy(S);
        return NULL;
    }
    return S;
}

/* The largest projected gradient component, as L-BFGS-B's own test
 * (projgr) computes it: a component pushing against an active bound counts
 * only up to the distance to that bound. */
static double proj_grad_norm(const struct lb *S, const double *w, const double *g, size_t n)
{
    double pg = 0.0;
    for (size_t j = 0; j < n; j++) {
        double gj = g[j];
        if (gj < 0 && (S->nbd[j] == 2 || S->nbd[j] == 3))
            gj = fmax(w[j] - S->up[j], gj);
        else if (gj > 0 && (S->nbd[j] == 1 || S->nbd[j] == 2))
            gj = fmin(w[j] - S->lo[j], gj);
        pg = fmax(pg, fabs(gj));
    }
    return pg;
}

static void set_task(char *task, const char *s)
{
    size_t len = strlen(s);
    memcpy(task, s, len);
    memset(task + len, ' ', TASK_LEN - len);
}

static int task_is(const char *task, const char *prefix)
{
    return strncmp(task, prefix, strlen(prefix)) == 0;
}

/* The task text without its blank padding, for messages. */
static int task_len(const char *task)
{
    int n = TASK_LEN;
    while (n > 0 && task[n - 1] == ' ')
        n--;
    return n;
}

static int all_finite(const double *v, size_t n)
{
    for (size_t j = 0; j < n; j++)
        if (!isfinite(v[j]))
            return 0;
    return 1;
}

static int lb_solve(void *self, const struct bl_objective *obj, double *w,
                    struct bl_solve_info *info, char err[BL_ERR_MAX])
{
    struct lb *S = self;
    size_t n = obj->n;
    struct bl_solve_info dummy;
    if (!info)
        info = &dummy;
    memset(info, 0, sizeof *info);
    if (n == 0) {
        info->status = BL_SOLVE_CONVERGED;
        return 0;
    }
    if (n > (size_t)1 << 28 || lb_reserve(S, n) < 0) {
        snprintf(err, BL_ERR_MAX, "cannot allocate L-BFGS-B work space for %zu variables", n);
        return -1;
    }
    /* setulb reads parts of its work space before writing them (valgrind
     * traces it to formk_/dpotrf2_), so the answer depended on whatever the
     * heap held: zeroing it makes equal problems give equal answers
     * (found by boostlab check-plugin's determinism check). */
    memset(S->wa, 0, lb_nwa(S, n) * sizeof *S->wa);
    memset(S->iwa, 0, 3 * n * sizeof *S->iwa);
    /* Bounds: nbd 0 = free, 1 = lower only, 2 = both, 3 = upper only. */
    for (size_t j = 0; j < n; j++) {
        double lo = obj->lower ? obj->lower[j] : -HUGE_VAL;
        double up = obj->upper ? obj->upper[j] : HUGE_VAL;
        if (up > S->max_coef)
            up = S->max_coef;
        if (isnan(lo) || isnan(up) || lo > up) {
            snprintf(err, BL_ERR_MAX, "empty or invalid bounds for variable %zu: [%g, %g]%s", j, lo, up,
                     up == S->max_coef ? " (upper bound from max_coef)" : "");
            return -1;
        }
        int hl = isfinite(lo), hu = isfinite(up);
        S->nbd[j] = hl ? (hu ? 2 : 1) : (hu ? 3 : 0);
        S->lo[j] = hl ? lo : 0.0;
        S->up[j] = hu ? up : 0.0;
        /* start inside the box (L-BFGS-B would project anyway) */
        if (w[j] < lo)
            w[j] = lo;
        if (w[j] > up)
            w[j] = up;
    }

    const int nn = (int)n, mm = S->mem, iprint = -1;
    const double factr = 0.0; /* the relative test is off: ftol is absolute, below */
    char task[TASK_LEN], csave[TASK_LEN];
    int lsave[4], isave[44];
    double dsave[29];
    double f = 0.0, fprev = HUGE_VAL, fbest = HUGE_VAL;
    double *g = S->g;
    int evals = 0, rc = 0;
    enum bl_solve_status status = BL_SOLVE_CONVERGED;
    memset(csave, ' ', TASK_LEN);
    memset(lsave, 0, sizeof lsave);
    memset(isave, 0, sizeof isave);
    memset(dsave, 0, sizeof dsave);
    set_task(task, "START");

    for (;;) {
        setulb_(&nn, &mm, w, S->lo, S->up, S->nbd, &f, g, &factr, &S->pgtol, S->wa, S->iwa, task,
                &iprint, csave, lsave, isave, dsave, TASK_LEN, TASK_LEN);
        if (task_is(task, "FG")) {
            f = obj->eval(obj->ctx, w, g);
            evals++;
            double sw = 0.0;
            for (size_t j = 0; j < n; j++) {
                sw += w[j];
                g[j] += obj->nu;
            }
            f += obj->nu * sw;
            if (!isfinite(f) || !all_finite(g, n)) {
                snprintf(err, BL_ERR_MAX, "objective or gradient is not finite (f = %g) after %d evaluations",
                         f, evals);
                rc = -1;
                break;
            }
            if (evals == 1) { /* the start point is the first "iterate" */
                fprev = fbest = f;
                memcpy(S->xbest, w, n * sizeof *w);
            }
            continue;
        }
        if (task_is(task, "NEW_X")) {
            /* debug (-vvv): why a solve ends where it does, e.g. RBoost-proj's
             * slow tails that run into max_iter (docs/results-randomboost.md) */
            if (S->host && S->host->log)
                S->host->log(3, NAME, "n = %zu, iteration %d: f = %.12g, projected gradient %.3g, "
                             "%d evaluations", n, isave[29], f, proj_grad_norm(S, w, g, n), evals);
            fbest = f;
            memcpy(S->xbest, w, n * sizeof *w);
            double dec = fprev - f;
            fprev = f;
            if (dec < S->ftol) {
                status = BL_SOLVE_CONVERGED;
                break;
            }
            if (isave[29] >= S->max_iter) { /* isave(30): iterations done */
                status = BL_SOLVE_MAXITER;
                break;
            }
            continue;
        }
        if (task_is(task, "CONV")) {
            status = BL_SOLVE_CONVERGED;
            break;
        }
        if (task_is(task, "ABNO") || task_is(task, "WARN")) {
            /* the line search failed: the last accepted iterate stands */
            status = BL_SOLVE_STALLED;
            if (S->host && S->host->log)
                S->host->log(2, NAME, "%.*s", task_len(task), task);
            break;
        }
        /* "ERROR: ..." (bad input) or anything unexpected */
        snprintf(err, BL_ERR_MAX, "L-BFGS-B: %.*s", task_len(task), task);
        rc = -1;
        break;
    }
    /* The answer is the last accepted iterate, never a line-search trial. */
    if (fbest < HUGE_VAL)
        memcpy(w, S->xbest, n * sizeof *w);
    info->iterations = isave[29];
    info->evaluations = evals;
    info->status = status;
    info->objective = fbest;
    return rc;
}

static const struct bl_solver_ops lb_ops = {
    .size = sizeof(struct bl_solver_ops),
    .scope = BL_SOLVE_ROW,
    .create = lb_create,
    .destroy = lb_destroy,
    .solve = lb_solve,
};

static const struct bl_plugin lb_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_SOLVER,
    .name = "lbfgsb-row",
    .doc = "stage-wise row solver: L-BFGS-B 3.0 on f(w) + nu*sum(w) within bounds (paper's settings)",
    .params = lb_params,
    .nparams = P_COUNT,
    .ops = &lb_ops,
};

static const struct bl_solver_ops lb_tc_ops = {
    .size = sizeof(struct bl_solver_ops),
    .scope = BL_SOLVE_ALL,
    .create = lb_create,
    .destroy = lb_destroy,
    .solve = lb_solve,
};

static const struct bl_plugin lb_tc_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_SOLVER,
    .name = "lbfgsb-tc",
    .doc = "totally corrective solver: L-BFGS-B 3.0 over all coefficient rows, warm-started (MultiBoost)",
    .params = lb_params,
    .nparams = P_COUNT,
    .ops = &lb_tc_ops,
};

/* ---- lbfgsb-line: one coefficient shared by every class ------------------ */

struct line_ctx {
    const struct bl_objective *obj;
    double *w, *g; /* obj->n each */
};

/* f(alpha * 1) and, by the chain rule, sum_r df/dw_r. */
static double line_eval(void *ctx, const double *alpha, double *grad)
{
    const struct line_ctx *c = ctx;
    size_t n = c->obj->n;
    for (size_t r = 0; r < n; r++)
        c->w[r] = alpha[0];
    double f = c->obj->eval(c->obj->ctx, c->w, grad ? c->g : NULL);
    if (grad) {
        double s = 0.0;
        for (size_t r = 0; r < n; r++)
            s += c->g[r];
        grad[0] = s;
    }
    return f;
}

static int ln_solve(void *self, const struct bl_objective *obj, double *w,
                    struct bl_solve_info *info, char err[BL_ERR_MAX])
{
    struct lb *S = self;
    size_t n = obj->n;
    struct bl_solve_info dummy;
    if (!info)
        info = &dummy;
    memset(info, 0, sizeof *info);
    if (n == 0) {
        info->status = BL_SOLVE_CONVERGED;
        return 0;
    }
    double lo, up, alpha;
    if (tied_room(&S->lw, &S->lg, &S->lcap, n, err) < 0 ||
        tied_bounds(obj, w, &lo, &up, &alpha, err) < 0)
        return -1;
    struct line_ctx c = {obj, S->lw, S->lg};
    struct bl_objective line = {1, line_eval, &c, &lo, &up, obj->nu * (double)n, NULL};
    int rc = lb_solve(S, &line, &alpha, info, err);
    for (size_t r = 0; r < n; r++)
        w[r] = alpha;
    return rc;
}

static const struct bl_solver_ops lb_line_ops = {
    .size = sizeof(struct bl_solver_ops),
    .scope = BL_SOLVE_ROW,
    .create = lb_create,
    .destroy = lb_destroy,
    .solve = ln_solve,
    .space = BL_SPACE_TIED,
};

static const struct bl_plugin lb_line_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_SOLVER,
    .name = "lbfgsb-line",
    .doc = "line-search row solver: one coefficient alpha for every class, w = alpha*1 (AdaBoost family step)",
    .params = lb_params,
    .nparams = P_COUNT,
    .ops = &lb_line_ops,
};

static const struct bl_plugin *const lb_plugins[] = {&lb_plugin, &lb_tc_plugin, &lb_line_plugin,
                                                     NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return lb_plugins;
}

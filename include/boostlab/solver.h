/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * boostlab plugin SDK: the coefficient-solver role.  The engine turns each
 * coefficient step into a smooth objective over n variables with bounds,
 * plus the linear term nu * sum(w), which is the l1 penalty nu*||w||_1
 * because the engine's coefficients are bounded below by 0.  A stage-wise
 * solver sees the new row (n = k); a totally corrective one sees all rows
 * (n = t*k), warm-started from the previous solution.
 */
#ifndef BOOSTLAB_SOLVER_H
#define BOOSTLAB_SOLVER_H

#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

enum bl_solver_scope {
    BL_SOLVE_ROW = 1,  /* only the newest coefficient row           */
    BL_SOLVE_ALL = 2   /* every row, each iteration                 */
};

struct bl_objective {
    size_t n;
    /* Smooth part f(w); writes grad (n) when it is not NULL. */
    double (*eval)(void *ctx, const double *w, double *grad);
    void *ctx;
    const double *lower;  /* n bounds; -HUGE_VAL / HUGE_VAL when open */
    const double *upper;
    double nu;            /* weight of the linear term nu * sum(w)   */

    /* Optional: NULL when the host has no Hessian for f.  Writes the
     * Hessian of f (the smooth part only: the linear term has none) at w
     * into H, n x n row-major, and returns 0; -1 when it is not available
     * at this w (the solver then does without).  A solver that uses it must
     * also work when it is NULL.  The engine fills it only for stage-wise
     * row problems on the fast path of a loss that provides row_hessian
     * (loss.h); totally corrective and code-space objectives leave it NULL. */
    int (*hessian)(void *ctx, const double *w, double *H);
};

enum bl_solve_status {
    BL_SOLVE_CONVERGED = 0,  /* a tolerance was met                  */
    BL_SOLVE_MAXITER = 1,    /* stopped at the iteration cap         */
    BL_SOLVE_STALLED = 2     /* line search could not make progress  */
};

struct bl_solve_info {
    int iterations;
    int evaluations;
    enum bl_solve_status status;
    double objective;     /* f(w) + nu * sum(w) at the returned w    */
};

/* What a solver searches and what it adds to f (bl_solver_ops.space and
 * .penalty; zero means the defaults of the contract above).  The engine needs
 * neither; callers that check a solver's answers do (boostlab
 * check-plugin). */
enum bl_solver_space {
    BL_SPACE_BOX = 0,        /* any w within the bounds                     */
    BL_SPACE_TIED = 1,       /* w = alpha * 1 only: one value for every
                                variable (the AdaBoost family's step)     */
    BL_SPACE_STEP = 2        /* one fixed-length step from the start on the
                                coordinate whose gradient of f + nu sum(w)
                                is steepest among those the bounds let
                                descend, against that gradient's sign; no
                                move when none descends (forward
                                stage-wise "epsilon" boosting: it does not
                                minimise, so it is checked for that rule) */
};
enum bl_solver_penalty {
    BL_PENALTY_LINEAR = 0,   /* nu * sum(w), as documented above           */
    BL_PENALTY_GROUP_L2 = 1  /* nu * ||w||_2 instead (a group lasso); such
                                a solver may refuse bounds other than
                                0 or infinite                              */
};

struct bl_solver_ops {
    /* sizeof(struct bl_solver_ops) (plugin.h, "ops tables"). */
    size_t size;

    /* ---- what the solver solves -------------------------------------------- */
    enum bl_solver_scope scope;
    /* What it searches and the penalty it minimises with f, when they
     * differ from the defaults (0); info->objective is then f(w) plus that
     * penalty. */
    enum bl_solver_space space;
    enum bl_solver_penalty penalty;

    /* ---- lifetime and solving ---------------------------------------------- */
    void *(*create)(const struct bl_host *host, const union bl_value *params,
                    char err[BL_ERR_MAX]);
    void (*destroy)(void *self);
    /* Minimise f(w) + nu*sum(w) within the bounds, from the start point
     * in w; the answer replaces it.  Returns 0, or -1 with err set. */
    int (*solve)(void *self, const struct bl_objective *obj, double *w,
                 struct bl_solve_info *info, char err[BL_ERR_MAX]);
};

#ifdef __cplusplus
}
#endif
#endif

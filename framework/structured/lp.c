/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Growing LPs on GLPK's or Clp's simplex (lp.h).  In the transposed mode
 * the engine holds the dual  max b^T y  s.t.  A^T y <= c,  y >= 0:  a
 * primal column is an engine row, a primal row (a cut) an engine column, x
 * the engine's row duals and the primal row duals its column values.
 */
#include "lp.h"

/* Clp's C header declares ClpSolve_new() without a prototype */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <Clp_C_Interface.h>
#pragma GCC diagnostic pop
#include <float.h>
#include <glpk.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"

static void reserve(bl_lp *lp, size_t n)
{
    if (n + 1 <= lp->cap)
        return;
    lp->cap = 2 * (n + 1);
    lp->ind = bl_xrealloc(lp->ind, lp->cap * sizeof *lp->ind);
    lp->val = bl_xrealloc(lp->val, lp->cap * sizeof *lp->val);
}

void bl_lp_init_with(bl_lp *lp, int engine, int transposed)
{
    memset(lp, 0, sizeof *lp);
    lp->engine = engine;
    lp->transposed = transposed;
    if (engine == BL_LP_CLP) {
        Clp_Simplex *c = Clp_newModel();
        Clp_setLogLevel(c, 0);
        /* no scaling: with Clp's scaling on, a model grown after its first
         * solve was reported optimal while its unscaled problem still had
         * dual infeasibilities (secondary status 3), and the cutting planes
         * stalled; the masters' entries are of order 1 anyway */
        Clp_scaling(c, 0);
        Clp_setOptimizationDirection(c, 1.0); /* the dual LP too: min -b^T y */
        lp->clp = c;
    } else {
        glp_term_out(GLP_OFF);
        glp_prob *p = glp_create_prob();
        glp_set_obj_dir(p, transposed ? GLP_MAX : GLP_MIN);
        lp->glp = p;
    }
    reserve(lp, 64);
}

void bl_lp_init(bl_lp *lp)
{
    bl_lp_init_with(lp, BL_LP_GLPK, 0);
}

void bl_lp_init_transposed(bl_lp *lp)
{
    bl_lp_init_with(lp, BL_LP_GLPK, 1);
}

/* GLPK's 1-based ind[1..n] as Clp's 0-based indices, in place; returns
 * ind + 1. */
static const int *zero_based(int *ind, int n)
{
    for (int k = 1; k <= n; k++)
        ind[k]--;
    return ind + 1;
}

/* An engine row: sum val x >= bound (lower) or <= bound (!lower) over the
 * n entries of ind/val (1-based, GLPK's layout). */
static void eng_row(bl_lp *lp, int lower, double bound, int n)
{
    if (lp->engine == BL_LP_CLP) {
        double lo = lower ? bound : -DBL_MAX, up = lower ? DBL_MAX : bound;
        CoinBigIndex st[2] = {0, n};
        Clp_addRows(lp->clp, 1, &lo, &up, st, zero_based(lp->ind, n), lp->val + 1);
        return;
    }
    glp_prob *p = lp->glp;
    int i = glp_add_rows(p, 1);
    glp_set_row_bnds(p, i, lower ? GLP_LO : GLP_UP, lower ? bound : 0.0, lower ? 0.0 : bound);
    if (n)
        glp_set_mat_row(p, i, n, lp->ind, lp->val);
}

/* An engine column x >= 0 of cost c (Clp minimises the transposed mode's
 * max b^T y as min -b^T y). */
static void eng_col(bl_lp *lp, double c, int n)
{
    if (lp->engine == BL_LP_CLP) {
        double lo = 0.0, up = DBL_MAX, cost = lp->transposed ? -c : c;
        CoinBigIndex st[2] = {0, n};
        Clp_addColumns(lp->clp, 1, &lo, &up, &cost, st, zero_based(lp->ind, n), lp->val + 1);
        return;
    }
    glp_prob *p = lp->glp;
    int j = glp_add_cols(p, 1);
    glp_set_col_bnds(p, j, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(p, j, c);
    if (n)
        glp_set_mat_col(p, j, n, lp->ind, lp->val);
}

/* One new primal column (cost c, entries ind/val over the primal rows):
 * in the transposed mode a dual row A_j^T y <= c, which keeps the basis
 * dual feasible. */
static void new_col(bl_lp *lp, double c, int n)
{
    if (lp->transposed) {
        eng_row(lp, 0, c, n);
        lp->grew_dual = 1;
    } else {
        eng_col(lp, c, n);
    }
    lp->cols++;
}

/* One new primal row  sum a x >= b  (entries ind/val over the columns). */
static void new_row(bl_lp *lp, double b, int n)
{
    if (lp->transposed)
        eng_col(lp, b, n);
    else
        eng_row(lp, 1, b, n);
    lp->grew_rows = 1;
    lp->rows++;
}

void bl_lp_free(bl_lp *lp)
{
    if (lp->glp)
        glp_delete_prob(lp->glp);
    if (lp->clp)
        Clp_deleteModel(lp->clp);
    free(lp->ind);
    free(lp->val);
    memset(lp, 0, sizeof *lp);
}

size_t bl_lp_add_col(bl_lp *lp, double cost, const double *a)
{
    reserve(lp, lp->rows);
    int n = 0;
    for (size_t r = 0; a && r < lp->rows; r++)
        if (a[r] != 0.0) {
            n++;
            lp->ind[n] = (int)r + 1;
            lp->val[n] = a[r];
        }
    new_col(lp, cost, n);
    return lp->cols - 1;
}

size_t bl_lp_add_row_sparse(bl_lp *lp, const size_t *col, const double *a, size_t n, double b)
{
    reserve(lp, n);
    int k = 0;
    for (size_t e = 0; e < n; e++)
        if (a[e] != 0.0) {
            k++;
            lp->ind[k] = (int)col[e] + 1;
            lp->val[k] = a[e];
        }
    new_row(lp, b, k);
    return lp->rows - 1;
}

size_t bl_lp_add_row(bl_lp *lp, const double *a, double b)
{
    reserve(lp, lp->cols);
    int k = 0;
    for (size_t j = 0; j < lp->cols; j++)
        if (a[j] != 0.0) {
            k++;
            lp->ind[k] = (int)j + 1;
            lp->val[k] = a[j];
        }
    new_row(lp, b, k);
    return lp->rows - 1;
}

void bl_lp_del_rows(bl_lp *lp, const unsigned char *flags)
{
    reserve(lp, lp->rows);
    int n = 0;
    for (size_t r = 0; r < lp->rows; r++)
        if (flags[r])
            lp->ind[++n] = (int)r + 1;
    if (!n)
        return;
    if (lp->engine == BL_LP_CLP)
        (lp->transposed ? Clp_deleteColumns : Clp_deleteRows)(lp->clp, n, zero_based(lp->ind, n));
    else
        (lp->transposed ? glp_del_cols : glp_del_rows)(lp->glp, n, lp->ind);
    lp->rows -= (size_t)n;
}

/* Clp from the kept basis: dual simplex after new rows of the LP it holds
 * (the basis stays dual feasible), primal after new columns; from scratch
 * when that fails.  x, dual (the primal LP's), *obj. */
static int clp_solve(bl_lp *lp, int rows, double *x, double *dual, double *obj, bl_error *err)
{
    Clp_Simplex *c = lp->clp;
    if (rows)
        Clp_dual(c, 0);
    else
        Clp_primal(c, 0);
    if (Clp_status(c) != 0)
        Clp_initialSolve(c);
    if (Clp_status(c) != 0)
        return bl_errf(err, "Clp failed on the master LP (%zu rows, %zu columns): status %d",
                       lp->rows, lp->cols, Clp_status(c));
    /* transposed: Clp minimised -b^T y s.t. A^T y <= c, so x = -(row prices) */
    const double *xs = lp->transposed ? Clp_getRowPrice(c) : Clp_getColSolution(c);
    const double *ys = lp->transposed ? Clp_getColSolution(c) : Clp_getRowPrice(c);
    double sx = lp->transposed ? -1.0 : 1.0;
    for (size_t j = 0; x && j < lp->cols; j++)
        x[j] = sx * xs[j];
    for (size_t r = 0; dual && r < lp->rows; r++)
        dual[r] = ys[r];
    if (obj)
        *obj = sx * Clp_getObjValue(c);
    return 0;
}

int bl_lp_solve(bl_lp *lp, double *x, double *dual, double *obj, bl_error *err)
{
    /* new rows of the LP the engine holds keep the old basis dual feasible:
     * dual simplex (it falls back to primal); new columns only keep it
     * primal feasible: primal simplex */
    int rows = lp->transposed ? lp->grew_dual : lp->grew_rows;
    lp->grew_dual = lp->grew_rows = 0;
    if (lp->engine == BL_LP_CLP)
        return clp_solve(lp, rows, x, dual, obj, err);
    glp_prob *p = lp->glp;
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.meth = rows ? GLP_DUALP : GLP_PRIMAL;
    /* the transposed masters are highly degenerate (many cuts at 0), and
     * there the textbook ratio test took a third fewer pivots than Harris's
     * (the tracker: 14990 re-solves, 323k against 428k pivots); GLPK's
     * checks still catch a bad pivot, and the fallbacks below recover */
    if (lp->transposed)
        parm.r_test = GLP_RT_STD;
    int rc = glp_simplex(p, &parm);
    if (rc == GLP_EBADB || rc == GLP_ESING || rc == GLP_ECOND) {
        /* the kept basis became unusable: start from an advanced one */
        glp_adv_basis(p, 0);
        rc = glp_simplex(p, &parm);
    }
    if (rc != 0 || glp_get_status(p) != GLP_OPT) {
        /* last resort: primal simplex from the standard basis */
        glp_std_basis(p);
        parm.meth = GLP_PRIMAL;
        rc = glp_simplex(p, &parm);
    }
    if (rc != 0 || glp_get_status(p) != GLP_OPT)
        return bl_errf(err, "GLPK simplex failed on the master LP (%zu rows, %zu columns): "
                       "return code %d, status %d", lp->rows, lp->cols, rc, glp_get_status(p));
    double (*xval)(glp_prob *, int) = lp->transposed ? glp_get_row_dual : glp_get_col_prim;
    double (*yval)(glp_prob *, int) = lp->transposed ? glp_get_col_prim : glp_get_row_dual;
    for (size_t j = 0; x && j < lp->cols; j++)
        x[j] = xval(p, (int)j + 1);
    for (size_t r = 0; dual && r < lp->rows; r++)
        dual[r] = yval(p, (int)r + 1);
    if (obj)
        *obj = glp_get_obj_val(p);
    return 0;
}

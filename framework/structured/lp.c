/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Growing LPs on GLPK's simplex (lp.h).  In the transposed mode GLPK holds
 * the dual  max b^T y  s.t.  A^T y <= c,  y >= 0:  a primal column is a
 * GLPK row, a primal row (a cut) a GLPK column, x the GLPK row duals and
 * the primal row duals the GLPK column values.
 */
#include "lp.h"

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

void bl_lp_init(bl_lp *lp)
{
    memset(lp, 0, sizeof *lp);
    glp_term_out(GLP_OFF);
    glp_prob *p = glp_create_prob();
    glp_set_obj_dir(p, GLP_MIN);
    lp->glp = p;
    reserve(lp, 64);
}

void bl_lp_init_transposed(bl_lp *lp)
{
    bl_lp_init(lp);
    lp->transposed = 1;
    glp_set_obj_dir(lp->glp, GLP_MAX);
}

/* A GLPK row (bound of the given type) or column (x >= 0 of cost c) with
 * the n entries of ind/val. */
static void glp_row(glp_prob *p, int type, double bound, int n, const int *ind,
                    const double *val)
{
    int i = glp_add_rows(p, 1);
    glp_set_row_bnds(p, i, type, type == GLP_LO ? bound : 0.0, type == GLP_UP ? bound : 0.0);
    if (n)
        glp_set_mat_row(p, i, n, ind, val);
}

static void glp_col(glp_prob *p, double c, int n, const int *ind, const double *val)
{
    int j = glp_add_cols(p, 1);
    glp_set_col_bnds(p, j, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(p, j, c);
    if (n)
        glp_set_mat_col(p, j, n, ind, val);
}

/* One new primal column (cost c, entries ind/val over the primal rows):
 * in the transposed mode a dual row A_j^T y <= c, which keeps the basis
 * dual feasible. */
static void new_col(bl_lp *lp, double c, int n)
{
    if (lp->transposed) {
        glp_row(lp->glp, GLP_UP, c, n, lp->ind, lp->val);
        lp->grew_dual = 1;
    } else {
        glp_col(lp->glp, c, n, lp->ind, lp->val);
    }
    lp->cols++;
}

/* One new primal row  sum a x >= b  (entries ind/val over the columns). */
static void new_row(bl_lp *lp, double b, int n)
{
    if (lp->transposed)
        glp_col(lp->glp, b, n, lp->ind, lp->val);
    else
        glp_row(lp->glp, GLP_LO, b, n, lp->ind, lp->val);
    lp->grew_rows = 1;
    lp->rows++;
}

void bl_lp_free(bl_lp *lp)
{
    if (lp->glp)
        glp_delete_prob(lp->glp);
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
    if (lp->transposed)
        glp_del_cols(lp->glp, n, lp->ind);
    else
        glp_del_rows(lp->glp, n, lp->ind);
    lp->rows -= (size_t)n;
}

int bl_lp_solve(bl_lp *lp, double *x, double *dual, double *obj, bl_error *err)
{
    glp_prob *p = lp->glp;
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    /* new rows of the LP GLPK holds keep the old basis dual feasible: dual
     * simplex (it falls back to primal); new columns only keep it primal
     * feasible: primal simplex */
    int rows = lp->transposed ? lp->grew_dual : lp->grew_rows;
    parm.meth = rows ? GLP_DUALP : GLP_PRIMAL;
    lp->grew_dual = lp->grew_rows = 0;
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

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Growing LPs on GLPK's simplex (lp.h). */
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
    glp_prob *p = lp->glp;
    int j = glp_add_cols(p, 1);
    glp_set_col_bnds(p, j, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(p, j, cost);
    reserve(lp, lp->rows);
    int n = 0;
    for (size_t r = 0; a && r < lp->rows; r++)
        if (a[r] != 0.0) {
            n++;
            lp->ind[n] = (int)r + 1;
            lp->val[n] = a[r];
        }
    if (n)
        glp_set_mat_col(p, j, n, lp->ind, lp->val);
    return lp->cols++;
}

size_t bl_lp_add_row_sparse(bl_lp *lp, const size_t *col, const double *a, size_t n, double b)
{
    glp_prob *p = lp->glp;
    int i = glp_add_rows(p, 1);
    glp_set_row_bnds(p, i, GLP_LO, b, 0.0);
    reserve(lp, n);
    int k = 0;
    for (size_t e = 0; e < n; e++)
        if (a[e] != 0.0) {
            k++;
            lp->ind[k] = (int)col[e] + 1;
            lp->val[k] = a[e];
        }
    if (k)
        glp_set_mat_row(p, i, k, lp->ind, lp->val);
    return lp->rows++;
}

size_t bl_lp_add_row(bl_lp *lp, const double *a, double b)
{
    glp_prob *p = lp->glp;
    int i = glp_add_rows(p, 1);
    glp_set_row_bnds(p, i, GLP_LO, b, 0.0);
    reserve(lp, lp->cols);
    int k = 0;
    for (size_t j = 0; j < lp->cols; j++)
        if (a[j] != 0.0) {
            k++;
            lp->ind[k] = (int)j + 1;
            lp->val[k] = a[j];
        }
    if (k)
        glp_set_mat_row(p, i, k, lp->ind, lp->val);
    return lp->rows++;
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
    glp_del_rows(lp->glp, n, lp->ind);
    lp->rows -= (size_t)n;
}

int bl_lp_solve(bl_lp *lp, double *x, double *dual, double *obj, bl_error *err)
{
    glp_prob *p = lp->glp;
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.meth = GLP_DUALP; /* new rows: dual simplex; else it falls back to primal */
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
    for (size_t j = 0; x && j < lp->cols; j++)
        x[j] = glp_get_col_prim(p, (int)j + 1);
    for (size_t r = 0; dual && r < lp->rows; r++)
        dual[r] = glp_get_row_dual(p, (int)r + 1);
    if (obj)
        *obj = glp_get_obj_val(p);
    return 0;
}

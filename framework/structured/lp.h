/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The master problems of StructBoost as linear programs that grow by rows
 * (cutting planes) and columns (weak learners), held by GLPK or by COIN-OR
 * Clp (the engine):
 *     min c^T x  s.t.  A x >= b,  x >= 0,
 * re-solved by the simplex method from the previous basis (warm start:
 * a new row keeps the old basis dual feasible, a new column keeps it
 * primal feasible), giving the primal x and the row duals (>= 0).
 * The transposed mode makes the engine solve the dual LP instead, whose
 * basis has one row per column of A: far smaller when cuts outnumber
 * columns.
 */
#ifndef BL_STRUCTURED_LP_H
#define BL_STRUCTURED_LP_H

#include <stddef.h>

#include "../util/error.h"

/* The engines; both give the same optimum (the vertex may differ where
 * the LP is degenerate). */
enum { BL_LP_GLPK, BL_LP_CLP };

typedef struct bl_lp {
    int engine;             /* BL_LP_GLPK or BL_LP_CLP                  */
    void *glp;              /* glp_prob * (GLPK)                        */
    void *clp;              /* Clp_Simplex * (Clp)                      */
    size_t rows, cols;
    int *ind;               /* scratch: 1-based index arrays (GLPK's)   */
    double *val;
    size_t cap;
    int transposed;         /* the engine holds the dual LP             */
    int grew_dual;          /* transposed: a column added since a solve */
    int grew_rows;          /* a primal row added since the last solve  */
} bl_lp;

/* GLPK, the LP as given. */
void bl_lp_init(bl_lp *lp);
/* The same LP, solved through its dual (same x, duals and objective). */
void bl_lp_init_transposed(bl_lp *lp);
/* Either engine, either mode. */
void bl_lp_init_with(bl_lp *lp, int engine, int transposed);
void bl_lp_free(bl_lp *lp);
/* New column x_j >= 0 with cost c; its entries in the existing rows are
 * a[0..rows) (zeros skipped).  Returns j (0-based). */
size_t bl_lp_add_col(bl_lp *lp, double cost, const double *a);
/* New row  sum_j a_j x_j >= b  over the existing columns (a[0..cols)).
 * Returns its index (0-based). */
size_t bl_lp_add_row(bl_lp *lp, const double *a, double b);
/* As bl_lp_add_row with the row given sparsely: n (column, value) pairs. */
size_t bl_lp_add_row_sparse(bl_lp *lp, const size_t *col, const double *a, size_t n, double b);
/* Delete the rows whose flag is nonzero (flags[0..rows)); the others keep
 * their order. */
void bl_lp_del_rows(bl_lp *lp, const unsigned char *flags);
/* Solve; x (cols), dual (rows) and *obj may be NULL. */
int bl_lp_solve(bl_lp *lp, double *x, double *dual, double *obj, bl_error *err);

#endif

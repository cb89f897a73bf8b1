/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A structured-task instance as the engines see it: the task plugin opened
 * on one data part, its views (with the quantized view and SDK training
 * set a base learner is created on, for the training part), one score
 * matrix per view, and the separation oracle shared by StructBoost and the
 * structural SVM: loss-augmented inference over all examples, giving the
 * most violated 1-slack constraint (spec §2.3) as a sparse weight map over
 * the views' points and blocks.
 */
#ifndef BL_STRUCTURED_SINST_H
#define BL_STRUCTURED_SINST_H

#include <boostlab/task.h>
#include <stdint.h>

#include "../data/dataset.h"
#include "../data/quantize.h"
#include "../plugin/params.h"
#include "../util/error.h"

typedef struct bl_sview {
    struct bl_task_view tv;   /* as the task gave it                    */
    bl_qview q;               /* training part only                     */
    int *zero_y;              /* labels of the learners' view (all 0)   */
    struct bl_train train;    /* what a base learner is created on      */
} bl_sview;

typedef struct bl_sinst {
    const struct bl_plugin *plugin;
    const struct bl_task_ops *ops;
    void *inst;
    size_t m, lbytes, nviews;
    bl_sview *v;
    double **S;               /* nviews score matrices, points x blocks */
    size_t nmetrics;
    char **metric;            /* the task's metric names                */
} bl_sinst;

/* Open task `ps` on ds; with max_bins > 0 also quantize every view for base
 * learners (the training part). */
int bl_sinst_open(bl_sinst *s, const bl_paramset *ps, const bl_dataset *ds, int max_bins,
                  bl_error *err);
void bl_sinst_close(bl_sinst *s);
/* Entries of view v's score matrix. */
size_t bl_sinst_cells(const bl_sinst *s, size_t v);
/* Zero every score matrix. */
void bl_sinst_zero(bl_sinst *s);
/* The task's metrics at the scores in s->S (predictions into pred, m
 * labels); returns the primary one, values[0]. */
double bl_sinst_metrics(const bl_sinst *s, unsigned char *pred, double *values);

/* A 1-slack constraint a^T w + xi >= b kept as the sparse map A over
 * (view, cell = point * blocks + block), so its coefficient on any column,
 * present or future, is a dot product with the column's outputs. */
typedef struct bl_cut {
    size_t nnz;
    uint32_t *view;
    uint64_t *cell;
    double *coef;
    double b;
} bl_cut;

void bl_cut_free(bl_cut *c);
/* Coefficient on a column of (view, block) with outputs out (points). */
double bl_cut_dot(const bl_cut *c, const bl_sinst *s, size_t view, size_t block,
                  const double *out);

/* Scratch of the separation oracle. */
typedef struct bl_sep {
    unsigned char *ybar;      /* m labels                               */
    double *h;                /* m hinges                               */
    double **acc;             /* dense per-view accumulators            */
    struct bl_task_term *terms;
    size_t tcap;
} bl_sep;

void bl_sep_init(bl_sep *sp, const bl_sinst *s);
void bl_sep_free(bl_sep *sp, const bl_sinst *s);
/* Loss-augmented inference for every example at the scores in s->S: fills
 * sp->ybar and sp->h and returns the average hinge H = (1/m) sum_i h_i
 * (the exact 1-slack slack at the current model). */
double bl_sep_run(bl_sep *sp, const bl_sinst *s);
/* The constraint of labels sp->ybar over the examples with h_i > 0 (all
 * examples when all is nonzero): A = (1/m) sum c_i dpsi_i(ybar_i),
 * b = (1/m) sum c_i Delta(y_i, ybar_i). */
void bl_sep_cut(bl_sep *sp, const bl_sinst *s, int all, bl_cut *out);
/* The same with labels y (m of them) over the examples with in[i] != 0. */
void bl_sep_cut_of(bl_sep *sp, const bl_sinst *s, const unsigned char *y,
                   const unsigned char *in, bl_cut *out);
/* Add weight * (the terms of dpsi_i(y)) into dense per-view maps. */
void bl_sep_add_terms(bl_sep *sp, const bl_sinst *s, size_t i, const void *y, double weight,
                      double **maps);

#endif

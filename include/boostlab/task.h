/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * boostlab plugin SDK: the structured-task role, for StructBoost
 * (column generation with cutting planes) and the structural SVM.
 *
 * A task turns rows of a data set into m structured examples (x_i, y_i)
 * with labels y of a fixed byte size, a loss Delta(y_i, y), and the lifting
 * that makes an ordinary weak learner phi structured.  Base learners are
 * trained on the points z_r of one of the task's views (a feature matrix:
 * for classification the rows themselves), and a column of the model is a
 * base hypothesis phi together with a view v and a block b of it (a class,
 * a taxonomy node; 1 block when the lifting needs none).  Its structured
 * learner psi(x_i, y) must be linear in phi's outputs on the view's points:
 *
 *     delta psi_i(y) = psi(x_i, y_i) - psi(x_i, y)
 *                    = sum over terms t of dpsi(i, y) with t.view = v and
 *                      t.block = b:  t.coef * phi(z_{t.point}).
 *
 * That one fact is all the engine needs: it sums the weighted outputs of
 * the columns into a score matrix per view,
 *     S[v][r * blocks + b] = sum_{j in (v, b)} w_j phi_j(z_r),
 * so that F(x_i, y) - F(x_i, y_i) = -sum_t coef * S[view][point, block],
 * and the task answers the loss-augmented argmax, prediction and metrics
 * from S.  The oracle of spec §3.1 is the engine's: it turns the dual
 * weights into per-point weights u (the same terms, weighted) and asks the
 * weak learner for the phi maximising sum_r u_r phi(z_r).  So any weak
 * learner plugin (stump, perceptron, linear SVM, trees) is liftable
 * without code in the task.  The contract is SVM-struct's: a task is one
 * file.  templates/task/ holds a commented example.
 */
#ifndef BOOSTLAB_TASK_H
#define BOOSTLAB_TASK_H

#include <stddef.h>
#include <stdint.h>

#include "data.h"
#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A set of points base learners are fitted on and evaluated at. */
struct bl_task_view {
    const char *name;        /* for messages: "x", "unary", ...           */
    struct bl_matrix points; /* feature-major, as data.h                  */
    size_t blocks;           /* blocks a column of this view can sit in   */
};

/* One term of delta psi_i(y): coef * phi(z_point) for columns in (view,
 * block). */
struct bl_task_term {
    uint32_t view, block;
    size_t point;
    double coef;
};

struct bl_task_ops {
    /* sizeof(struct bl_task_ops) (plugin.h, "ops tables"). */
    size_t size;

    /* Build the structured examples of one data part (training or test:
     * the engine opens the task once for each, with the same parameters).
     * data->y holds class indices 0..k-1 and class_names their k names
     * (data->Q is empty: the engine quantizes the views).  NULL with err
     * set on failure. */
    void *(*open)(const struct bl_host *host, const union bl_value *params,
                  const struct bl_train *data, const char *const *class_names,
                  char err[BL_ERR_MAX]);
    void (*close)(void *inst);
    size_t (*examples)(const void *inst);           /* m                   */
    size_t (*label_bytes)(const void *inst);        /* size of one label   */
    size_t (*nviews)(const void *inst);
    const struct bl_task_view *(*view)(const void *inst, size_t v);

    /* y_i, written to y (label_bytes). */
    void (*truth)(const void *inst, size_t i, void *y);
    /* Delta(y_i, y) >= 0, 0 when y is y_i. */
    double (*loss)(const void *inst, size_t i, const void *y);
    /* The terms of delta psi_i(y) (see above) into t[0..cap); returns how
     * many there are (call again with more room when it is > cap). */
    size_t (*dpsi)(const void *inst, size_t i, const void *y, struct bl_task_term *t,
                   size_t cap);
    /* Loss-augmented argmax: ybar = argmax_y Delta(y_i, y) + F(x_i, y), F
     * from the score matrices S (one per view); returns its hinge
     * h_i = Delta(y_i, ybar) + F(x_i, ybar) - F(x_i, y_i) (>= 0, as y_i is
     * a candidate).  Called for different i from several threads at once. */
    double (*argmax_aug)(const void *inst, size_t i, const double *const *S, void *ybar);
    /* Prediction argmax_y F(x_i, y). */
    void (*predict)(const void *inst, size_t i, const double *const *S, void *y);
    /* A label y != y_i drawn with the engine's random numbers (the spec's
     * initial constraint); rnd() returns uniform 64-bit integers. */
    void (*random_label)(const void *inst, size_t i, uint64_t (*rnd)(void *), void *rng,
                         void *y);
    /* The alternatives y != y_i of example i, for the m-slack master that
     * enumerates every constraint: returns their number and, if y is not
     * NULL, writes the t-th.  NULL when Y is not enumerable. */
    size_t (*alternatives)(const void *inst, size_t i, size_t t, void *y);

    /* Metrics: `metrics` names them, comma-separated; the first is the
     * primary one and must be an error (lower is better).  evaluate writes
     * one value per name from the scores S and the predictions (m labels,
     * as predict writes them). */
    const char *metrics;
    void (*evaluate)(const void *inst, const double *const *S, const void *pred,
                     double *values);
    /* Nonzero when a label is an int class index 0..k-1 (int32): then the
     * predictions of ordinary multi-class algorithms can be scored by
     * evaluate (with S NULL), e.g. the tree loss of AdaBoost.MH. */
    int label_is_class;
    /* Label as text for prediction files; like snprintf. */
    int (*format_label)(const void *inst, const void *y, char *buf, size_t cap);
};

#ifdef __cplusplus
}
#endif
#endif

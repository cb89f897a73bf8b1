/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Structured learning on task plugins (boostlab/task.h):
 *   - StructBoost (spec §2): column generation over lifted weak learners,
 *     the master LP solved by 1-slack cutting planes (or, for comparison,
 *     as the m-slack LP over every constraint), w >= 0, l1;
 *   - the structural SVM baseline: the same 1-slack cutting planes over a
 *     linear joint feature map (every feature of every view and block), l2;
 *   - one-vs-all linear SVMs (liblinear) for tasks whose labels are classes.
 * All three record the same per-iteration curve as the boosting engine
 * (train_loss = the primal objective, train_err/test_err = the task's
 * primary metric) and the task's metrics at the end.
 */
#ifndef BL_STRUCTURED_STRUCTURED_H
#define BL_STRUCTURED_STRUCTURED_H

#include "../data/dataset.h"
#include "../config/experiment.h"
#include "../engine/engine.h"
#include "../engine/result.h"

/* The three methods (structboost.c, ssvm.c, ovasvm.c; their rows of the
 * method table are in exec/method.c): train cfg->algo on train, tracking
 * the test part when test is not NULL. */
int bl_structboost(const bl_method_cfg *cfg, const bl_dataset *train, const bl_dataset *test,
                   int max_bins, bl_curve *curve, bl_metrics *met, bl_error *err);
int bl_ssvm(const bl_method_cfg *cfg, const bl_dataset *train, const bl_dataset *test,
            bl_curve *curve, bl_metrics *met, bl_error *err);
int bl_ova_svm(const bl_method_cfg *cfg, const bl_dataset *train, const bl_dataset *test,
               bl_curve *curve, bl_metrics *met, bl_error *err);

/* A StructBoost model on its own (for online use, e.g. the tracker): the
 * columns with w_j > 0, each a base hypothesis of weak plugin ops `wo` in
 * (view, block) of the task, with its weight. */
typedef struct bl_sb_model {
    const struct bl_weak_ops *wo;
    size_t n;
    size_t *view, *block;
    void **hyp;
    double *w;
    /* The master's last working set, kept for a sliding-window warm start:
     * cut k chose label cut_y[(k cut_m + i) lbytes] for example i when
     * cut_in[k cut_m + i] is nonzero.  drop (set by the caller before the
     * next fit) = examples removed from the front of the data since; the
     * others keep their order and new ones come last.  Each cut is rebuilt
     * over the examples it still has (new ones take their own label, which
     * adds nothing), which is a valid 1-slack constraint of the new data. */
    size_t ncut, cut_m, cut_lbytes, drop;
    unsigned char *cut_y, *cut_in;
} bl_sb_model;

/* StructBoost on train alone, returning the model.  When model holds
 * columns (n > 0) they are a warm start: re-evaluated on train, put in the
 * master first, and cfg->iterations more columns are generated from there
 * (the paper does not say whether a tracker's retraining restarts, spec
 * §8.15); its working set of cuts, if any (see drop), starts the master.  model->wo must be cfg's weak plugin's ops.  met may be NULL.
 * polish 0 skips the adaptive eps_cp tightening before the dual stopping
 * test (bl_structboost always polishes): an online learner retrained every
 * few frames cannot afford master solves to 1e-3 of the objective, and a
 * stop at eps_cp is what spec Alg. 2 asks for. */
int bl_structboost_fit(const bl_method_cfg *cfg, const bl_dataset *train, int max_bins,
                       int polish, bl_sb_model *model, bl_curve *curve, bl_metrics *met,
                       bl_error *err);
void bl_sb_model_free(bl_sb_model *mo);
/* S[r] = sum_j w_j phi_j(x_r) over the columns in (view, block), for the
 * points X (feature-major, the view's features). */
void bl_sb_model_scores(const bl_sb_model *mo, size_t view, size_t block,
                        const struct bl_matrix *X, double *S);

/* Task metrics of class predictions made by any multi-class algorithm
 * (the task's labels must be classes): used to give the boosting engine's
 * runs the same metrics (e.g. the tree loss of AdaBoost.MH). */
int bl_task_metrics_of_classes(const bl_paramset *task, const bl_dataset *ds, const int *pred,
                               double **values, char ***names, size_t *n, bl_error *err);

#endif

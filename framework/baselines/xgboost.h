/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The experiment method `xgboost`: XGBoost's gradient-boosted trees,
 * trained through its C API on the run's own training part, with its
 * xgb.* keys (config/xgbparam.h), so that it stands in the results store,
 * the summary, the report and the statistical tests beside the recipes.
 *
 * The objective follows the data: multi:softprob for k > 2 classes,
 * binary:logistic for 2; nthread is the run's thread count, seed derives
 * from the run's seed, max_bin is the experiment's max_bins unless
 * xgb.max_bin says otherwise, verbosity 0 unless xgb.verbosity says
 * otherwise.  One boosting round is one iteration of the curve:
 *
 *   train_loss   the multi-class logistic loss summed over the training
 *                examples (the softmax loss plugin's, normalize = none),
 *                from XGBoost's margins in double precision
 *   train_err, test_err   argmax of the margins, ties to the lower class
 *   t_weak       XGBoosterUpdateOneIter (gradients, trees; the first round
 *                also builds XGBoost's histogram index)
 *   t_book       the margins of both parts (XGBoost's prediction cache:
 *                only the new trees are evaluated) and the figures
 *   trees        k trees a round (1 for 2 classes), times num_parallel_tree
 *
 * edge is NaN, t_coef and solver_iters 0.  No model is kept.
 */
#ifndef BL_BASELINES_XGBOOST_H
#define BL_BASELINES_XGBOOST_H

#include "../config/experiment.h"
#include "../data/dataset.h"
#include "../engine/engine.h"

/* Train cfg->algo (method xgboost) on train, tracking test (may be NULL or
 * empty); cv is filled (free with bl_curve_free).  0, or -1 with err set. */
int bl_xgboost(const bl_method_cfg *cfg, const bl_dataset *train, const bl_dataset *test,
               bl_curve *cv, bl_error *err);

#endif

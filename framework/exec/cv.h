/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Hyper-parameters chosen inside a run by stratified k-fold cross-
 * validation on its training part (cv.KEY = {...} in an [algorithm]
 * section; see config/experiment.h). */
#ifndef BL_EXEC_CV_H
#define BL_EXEC_CV_H

#include <stdint.h>

#include "../config/experiment.h"
#include "../data/dataset.h"

/* Index into a->cv of the candidate with the lowest cross-validated error
 * (ties: the first listed) in *best, and that error in *best_err.  Folds
 * are stratified and drawn from seed; every candidate sees the same folds
 * and trains for a->cv_iterations iterations, else its own budget, else
 * `iterations`. */
int bl_cv_choose(const bl_algo_spec *a, const bl_dataset *train, int max_bins, int iterations,
                 uint64_t seed, size_t *best, double *best_err, bl_error *err);

#endif

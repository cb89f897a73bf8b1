/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The machines of method svm that liblinear and libsvm train (svmlib.c):
 *   ova, ecoc  one binary machine per code column, on every example
 *              relabelled by the column: linear -> liblinear
 *              L2R_L1LOSS_SVC_DUAL (the hinge loss) with bias 1; perceptron
 *              -> libsvm C-SVC on the PRECOMPUTED kernel -|x - x'|; rbf ->
 *              libsvm C-SVC with its RBF kernel;
 *   ovo        libsvm's own one-vs-one C-SVC (linear, precomputed
 *              perceptron or rbf kernel), votes counted by class index;
 *   cs         (linear only) liblinear's MCSVM_CS with bias 1.
 * Neither library is thread-safe about rand() (liblinear shuffles with
 * it): every training call seeds it with srand() from the run's seed, and
 * the machines are trained one after another (boostlab's parallel jobs are
 * forked processes, each with its own rand() state).
 */
#ifndef BL_BASELINES_SVMLIB_H
#define BL_BASELINES_SVMLIB_H

#include <stddef.h>
#include <stdint.h>

#include "../util/error.h"
#include "mcsvm.h"

typedef struct bl_svmlib bl_svmlib;

/* Train scheme's machines on X (m x d scaled rows; kept by reference
 * until bl_svmlib_free), labels y in 0..k-1; ecoc (and ova) take their
 * code M (k x ncol, entries +1/-1; 0 leaves a class out of a column). */
bl_svmlib *bl_svmlib_train(int scheme, const bl_kern *kern, double C, const double *X,
                           size_t m, size_t d, const int *y, size_t k, const double *M,
                           size_t ncol, uint64_t seed, bl_error *err);
/* Raw outputs on one scaled row x: ova/ecoc the ncol column scores
 * (positive = the +1 side), ovo the k vote counts, cs the k scores. */
void bl_svmlib_outputs(bl_svmlib *L, const double *x, double *out);
void bl_svmlib_free(bl_svmlib *L);

#endif

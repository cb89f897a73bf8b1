/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The multi-class SVM baselines of HingeBoost.OC (spec §3.5-3.9), the
 * experiment method `svm`: one-vs-one, one-vs-all, ECOC with a fixed code
 * and the Crammer-Singer multi-class SVM, with linear, perceptron or rbf
 * kernels, on plain multi-class data (no task plugin).
 *
 *   mcsvm.c   the driver: feature scaling, the schemes, decoding, the
 *             run's curve and metrics;
 *   svmlib.c  the machines liblinear and libsvm train (binary machines,
 *             libsvm's one-vs-one, liblinear's linear Crammer-Singer);
 *   kcs.c     a kernel Crammer-Singer dual solver (no Debian package
 *             has one);
 *   ecoc.c    the ECOC code (coding plugins), its minimum Hamming
 *             distance and loss-based decoding.
 */
#ifndef BL_BASELINES_MCSVM_H
#define BL_BASELINES_MCSVM_H

#include <stddef.h>
#include <stdint.h>

#include "../data/dataset.h"
#include "../config/experiment.h"
#include "../engine/engine.h"
#include "../engine/result.h"

/* Train cfg->algo (method svm) on train; score train and test (may be
 * NULL).  The curve has one entry, the metrics are "error" and, for ova
 * and ecoc, "min_hamming" (the code's minimum row Hamming distance). */
int bl_mcsvm(const bl_method_cfg *cfg, const bl_dataset *train, const bl_dataset *test,
             bl_curve *curve, bl_metrics *met, bl_error *err);

/* ---- kernels on dense rows (scaled features) --------------------------- */
typedef struct bl_kern {
    int kind;           /* BL_KERNEL_* */
    double gamma;
} bl_kern;

double bl_kern_eval(const bl_kern *kn, const double *a, const double *b, size_t d);

/* ---- kernel Crammer-Singer (kcs.c) ------------------------------------- */
typedef struct bl_kcs {
    size_t k, d, nsv;
    double *sv;         /* nsv x d: the support vectors                     */
    double *alpha;      /* nsv x k: w_r = sum_j alpha[j][r] phi(sv_j)      */
    size_t *svi;        /* nsv: each support vector's training row           */
    bl_kern kern;
    int epochs;         /* passes made                                      */
    double violation;   /* largest KKT violation in the last pass           */
} bl_kcs;

/* Solve the Crammer-Singer dual on X (m x d, row-major), labels y in
 * 0..k-1, until no example violates the KKT conditions by more than eps
 * (or max_epochs passes).  Kernel rows come from a cache of cache_mb MB. */
int bl_kcs_train(const double *X, size_t m, size_t d, const int *y, size_t k, double C,
                 const bl_kern *kern, double eps, int max_epochs, uint64_t seed,
                 size_t cache_mb, bl_kcs *out, bl_error *err);
/* The k scores w_r . phi(x). */
void bl_kcs_scores(const bl_kcs *mo, const double *x, double *f);
/* The largest KKT violation of mo's dual solution on (X, y) (mo must have
 * been trained on them), recomputed from scratch; also checks that each
 * example's alphas sum to 0 and respect their bounds (returns +inf if
 * not). */
double bl_kcs_kkt(const bl_kcs *mo, const double *X, size_t m, const int *y, double C);
void bl_kcs_free(bl_kcs *mo);

/* ---- ECOC (ecoc.c) ------------------------------------------------------- */
/* Smallest Hamming distance between two rows of M (k x n, row-major). */
size_t bl_code_min_hamming(const double *M, size_t k, size_t n);
/* Exponential loss-based decoding (Allwein et al.): the class y minimising
 * sum_j exp(-M[y][j] s[j]); ties to the lower index. */
int bl_ecoc_decode(const double *M, size_t k, size_t n, const double *s);
/* The code of algorithm a for k classes: a's coding plugin, or exhaustive
 * for k <= 7 and dense-ecoc (10,000 candidates) above; *M is k x *n,
 * malloc'ed. */
int bl_ecoc_code(const bl_algo_spec *a, size_t k, const int *y, size_t m, double **M,
                 size_t *n, bl_error *err);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Kernels of the weak learner "svm" and its LRU cache of kernel rows.
 *
 *     linear      k(a, b) = a'b
 *     perceptron  k(a, b) = shift - ||a - b||_2   (Lin & Li 2005; spec §3.9)
 *     rbf         k(a, b) = exp(-gamma ||a - b||^2)
 *
 * `shift` is 0 in the plugin: the perceptron kernel's constant cancels
 * under the SVM's equality constraint sum_i beta_i y_i = 0 (spec §2.5.2);
 * the unit tests set it (on any kernel) to check that.  Values are
 * computed in double from the points given; rows kept in the cache are
 * stored as float (LIBSVM does the same), which halves the memory.
 */
#ifndef BL_SVM_KERNEL_H
#define BL_SVM_KERNEL_H

#include <stddef.h>

enum kern_type { KERN_LINEAR, KERN_PERCEPTRON, KERN_RBF };

struct kern {
    enum kern_type type;
    double gamma, shift;
    size_t n, d;
    const float *x;    /* n x d row-major points                          */
    const double *sq;  /* n squared norms ||x_i||^2 (kern_norms fills it) */
};

/* sq[i] = ||x_i||^2 for the n rows of K. */
void kern_norms(const struct kern *K, double *sq);

/* k(x_i, x_j) for two of K's points. */
double kern_ij(const struct kern *K, size_t i, size_t j);

/* k(a, b) for two points of d doubles (what predict uses). */
double kern_pair(enum kern_type type, double gamma, const double *a, const double *b, size_t d);

/* out[t] = k(x_i, x_t), t = 0..n-1; split over threads by t (each value is
 * computed alone, so the row does not depend on the thread count). */
void kern_row(const struct kern *K, size_t i, float *out, int nthreads);

/* LRU cache of whole rows (n floats each) within a byte budget. */
struct kcache;
struct kcache *kcache_new(const struct kern *K, size_t bytes);
void kcache_free(struct kcache *C);
/* Row i, computed on a miss (evicting the least recently used row); NULL
 * when not even one row fits in memory.  The pointer is valid until the
 * next call. */
const float *kcache_row(struct kcache *C, size_t i, int nthreads);
/* Hits and misses so far (for the debug log). */
void kcache_stats(const struct kcache *C, size_t *hits, size_t *misses);

/* Whole rows in double, each computed on first use and kept (n x n
 * doubles, no eviction): the linear kernel's SMO on small sets, where
 * computing x_i'x_t anew in every iteration took most of the time (ERP on
 * vehicle: kern_ij 46 % of the run) and the float rows of kcache would
 * change the answer.  The values are kern_ij's, bit for bit. */
struct krows;
/* NULL when n x n doubles do not fit in `bytes` or in memory. */
struct krows *krows_new(const struct kern *K, size_t bytes);
void krows_free(struct krows *R);
const double *krows_row(struct krows *R, size_t i);

#endif

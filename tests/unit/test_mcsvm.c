/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of method svm's own parts (framework/baselines/):
 *   - the kernel Crammer-Singer solver (kcs.c): on separable clusters it
 *     classifies every training point, its dual solution satisfies the
 *     KKT conditions within the tolerance (recomputed from scratch), each
 *     example's alphas sum to 0 within their bounds, and a second run with
 *     the same seed gives the same solution;
 *   - exponential loss-based ECOC decoding on hand-made codes and scores,
 *     and the minimum Hamming distance of a code.
 */
#include <math.h>
#include <stdlib.h>

#include "baselines/mcsvm.h"
#include "config/experiment.h"
#include "testutil.h"

/* k Gaussian clusters far apart in d = 2 (separable), n per class. */
static void clusters(size_t k, size_t n, double *X, int *y)
{
    rng_seed(42);
    for (size_t c = 0; c < k; c++)
        for (size_t q = 0; q < n; q++) {
            size_t i = c * n + q;
            double ang = 2 * M_PI * (double)c / (double)k;
            X[2 * i] = 3 * cos(ang) + urange(-0.5, 0.5);
            X[2 * i + 1] = 3 * sin(ang) + urange(-0.5, 0.5);
            y[i] = (int)c;
        }
}

static void check_kcs(int kind, double gamma)
{
    enum { K = 4, N = 15, M = K * N };
    double X[2 * M], f[K];
    int y[M];
    clusters(K, N, X, y);
    bl_kern kn = {kind, gamma};
    bl_kcs mo, mo2;
    bl_error err;
    double C = 10, eps = 1e-4;
    cr_assert_eq(bl_kcs_train(X, M, 2, y, K, C, &kn, eps, 100000, 7, 1, &mo, &err), 0, "%s",
                 err.msg);
    cr_assert_lt(mo.violation, eps + 1e-12, "stopped at violation %g", mo.violation);
    for (size_t i = 0; i < M; i++) {
        bl_kcs_scores(&mo, X + 2 * i, f);
        size_t b = 0;
        for (size_t r = 1; r < K; r++)
            if (f[r] > f[b])
                b = r;
        cr_expect_eq((int)b, y[i], "training point %zu predicted %zu, is %d", i, b, y[i]);
    }
    double v = bl_kcs_kkt(&mo, X, M, y, C);
    cr_expect_leq(v, eps * 1.0001, "KKT violation %g recomputed (tolerance %g)", v, eps);
    cr_assert_eq(bl_kcs_train(X, M, 2, y, K, C, &kn, eps, 100000, 7, 1, &mo2, &err), 0);
    cr_assert_eq(mo.nsv, mo2.nsv);
    for (size_t q = 0; q < mo.nsv * K; q++)
        cr_assert_eq(mo.alpha[q], mo2.alpha[q], "the same seed gives the same solution");
    bl_kcs_free(&mo);
    bl_kcs_free(&mo2);
}

Test(kcs, rbf_separable_kkt)
{
    check_kcs(BL_KERNEL_RBF, 0.5);
}

Test(kcs, linear_separable_kkt)
{
    check_kcs(BL_KERNEL_LINEAR, 1);
}

Test(kcs, small_cache_same_solution)
{
    /* a cache of 2 rows (cache_mb 0) must give what a full cache gives */
    enum { K = 3, N = 10, M = K * N };
    double X[2 * M];
    int y[M];
    clusters(K, N, X, y);
    bl_kern kn = {BL_KERNEL_RBF, 1};
    bl_kcs a, b;
    bl_error err;
    cr_assert_eq(bl_kcs_train(X, M, 2, y, K, 1, &kn, 1e-6, 100000, 3, 0, &a, &err), 0);
    cr_assert_eq(bl_kcs_train(X, M, 2, y, K, 1, &kn, 1e-6, 100000, 3, 64, &b, &err), 0);
    cr_assert_eq(a.nsv, b.nsv);
    for (size_t q = 0; q < a.nsv * K; q++)
        cr_assert_float_eq(a.alpha[q], b.alpha[q], 1e-12);
    bl_kcs_free(&a);
    bl_kcs_free(&b);
}

Test(ecoc, exponential_decoding)
{
    /* the exhaustive code for k = 3 (min distance 2^(k-2) = 2) */
    const double M[3 * 3] = {1, 1, 1, -1, -1, 1, -1, 1, -1};
    cr_assert_eq(bl_code_min_hamming(M, 3, 3), 2);
    const double s0[3] = {2, 1.5, 0.5}, s1[3] = {-2, -1, 1}, s2[3] = {-1, 2, -3};
    cr_expect_eq(bl_ecoc_decode(M, 3, 3, s0), 0);
    cr_expect_eq(bl_ecoc_decode(M, 3, 3, s1), 1);
    cr_expect_eq(bl_ecoc_decode(M, 3, 3, s2), 2);
    /* loss decoding weighs margins, Hamming decoding only signs: one large
     * score outvotes two small ones of the other sign */
    const double s3[3] = {-0.1, -0.1, 3}; /* signs match class 1's row */
    /* class 0: e^.1 + e^.1 + e^-3 = 2.26; class 1: e^-.1 e^-.1 e^-3 = 1.86 */
    cr_expect_eq(bl_ecoc_decode(M, 3, 3, s3), 1);
    const double s4[3] = {-0.1, -0.1, -3}; /* by signs classes 1 and 2 tie */
    /* class 1: e^-.1 + e^-.1 + e^3 = 21.9; class 2: e^-.1 + e^.1 + e^-3 = 2.05;
     * class 0: e^.1 + e^.1 + e^3 = 22.3 */
    cr_expect_eq(bl_ecoc_decode(M, 3, 3, s4), 2);
    /* ties go to the lower index */
    const double z[3] = {0, 0, 0};
    cr_expect_eq(bl_ecoc_decode(M, 3, 3, z), 0);
}

Test(ecoc, hamming_of_one_vs_all)
{
    double M[5 * 5];
    for (size_t r = 0; r < 5; r++)
        for (size_t j = 0; j < 5; j++)
            M[r * 5 + j] = r == j ? 1 : -1;
    cr_assert_eq(bl_code_min_hamming(M, 5, 5), 2);
}

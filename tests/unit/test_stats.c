/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the significance tests in framework/stats: published numbers
 * (the stage-wise multiclass boosting paper's Wilcoxon table, Demšar 2006's
 * Table 5(a) and worked Friedman example, Wilcoxon critical-value tables),
 * brute-force enumeration of the signed-rank null distribution, and
 * closed-form t and z values. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "stats/stats.h"

#define ARRAY_LEN(x) (sizeof(x) / sizeof((x)[0]))

/* ---- Wilcoxon ----------------------------------------------------------- */

/* Table IV of the stage-wise multiclass boosting paper: mean test errors
 * (%) on iris, glass, usps, pen, news, letter, rcv1, sector. */
static const double mc_exp[8] = {6.5, 28.4, 10.4, 7.4, 55.1, 25.3, 33.4, 20.1};
static const double mc_log[8] = {6.5, 28.3, 9.9, 7.4, 55.4, 25.0, 33.7, 20.6};
static const double multiboost[8] = {6.4, 28.2, 10.5, 7.7, 57.4, 24.6, 33.7, 22.3};

/* Two-sided p by enumerating all sign patterns over integer-valued |d|,
 * ranking by counting (independent of the library's sort and DP). */
static double brute_p(const double *d, size_t n)
{
    double r[24];
    double rp = 0, rm = 0;
    for (size_t i = 0; i < n; i++) {
        double lt = 0, eq = 0;
        for (size_t j = 0; j < n; j++) {
            lt += fabs(d[j]) < fabs(d[i]);
            eq += fabs(d[j]) == fabs(d[i]);
        }
        r[i] = lt + (eq + 1) / 2;
        if (d[i] > 0)
            rp += r[i];
        else
            rm += r[i];
    }
    double t = fmin(rp, rm);
    unsigned long hits = 0, total = 1ul << n;
    for (unsigned long mask = 0; mask < total; mask++) {
        double p = 0, m = 0;
        for (size_t i = 0; i < n; i++) {
            if (mask >> i & 1)
                p += r[i];
            else
                m += r[i];
        }
        hits += fmin(p, m) <= t + 1e-9;
    }
    return (double)hits / (double)total;
}

/* brute_p on the Table IV differences in tenths (exact integers). */
static double table_brute_p(const double *a, const double *b)
{
    double d[8];
    size_t m = 0;
    for (size_t i = 0; i < 8; i++)
        if (round(10 * (a[i] - b[i])) != 0)
            d[m++] = round(10 * (a[i] - b[i]));
    return brute_p(d, m);
}

Test(wilcoxon, table4_exp_vs_multiboost)
{
    bl_wilcoxon w;
    cr_assert_eq(bl_wilcoxon_test(mc_exp, multiboost, 8, 0.05, &w), 0);
    /* |d| = 0.3 on pen and rcv1 must tie although 7.4 - 7.7 and
     * 33.4 - 33.7 differ in the last bits. */
    cr_assert_neq(fabs(7.4 - 7.7), fabs(33.4 - 33.7));
    cr_assert_eq(w.n_eff, 8);
    cr_assert_float_eq(w.r_plus, 10.5, 1e-12);
    cr_assert_float_eq(w.r_minus, 25.5, 1e-12);
    cr_assert_float_eq(w.t, 10.5, 1e-12);
    cr_assert_eq(w.t_crit, 3);
    cr_assert(w.t > w.t_crit);
    cr_assert(w.p_exact > 0.05 && w.p_exact < 1, "p = %g", w.p_exact);
    cr_assert_float_eq(w.p_exact, table_brute_p(mc_exp, multiboost), 1e-12);
    cr_assert_not(w.significant);
}

Test(wilcoxon, table4_log_vs_multiboost_drops_zero)
{
    bl_wilcoxon w;
    cr_assert_eq(bl_wilcoxon_test(mc_log, multiboost, 8, 0.05, &w), 0);
    cr_assert_eq(w.n_eff, 7); /* rcv1: 33.7 - 33.7 */
    /* iris and glass tie at |d| = 0.1 despite rounding. */
    cr_assert_neq(fabs(6.5 - 6.4), fabs(28.3 - 28.2));
    cr_assert_float_eq(w.r_plus, 7, 1e-12);
    cr_assert_float_eq(w.r_minus, 21, 1e-12);
    cr_assert_float_eq(w.t, 7, 1e-12);
    cr_assert_eq(w.t_crit, 2);
    cr_assert(w.p_exact > 0.05, "p = %g", w.p_exact);
    cr_assert_float_eq(w.p_exact, table_brute_p(mc_log, multiboost), 1e-12);
    cr_assert_not(w.significant);
    /* Swapping the algorithms swaps R+ and R- only. */
    bl_wilcoxon s;
    cr_assert_eq(bl_wilcoxon_test(multiboost, mc_log, 8, 0.05, &s), 0);
    cr_assert_float_eq(s.r_plus, 21, 1e-12);
    cr_assert_float_eq(s.r_minus, 7, 1e-12);
    cr_assert_float_eq(s.p_exact, w.p_exact, 1e-15);
}

Test(wilcoxon, critical_values_match_tables)
{
    /* Two-sided tables; also checked by enumerating all 2^n sign patterns. */
    static const size_t n[] = {5, 6, 7, 8, 9, 10, 15, 20, 25, 30};
    static const int c05[] = {-1, 0, 2, 3, 5, 8, 25, 52, 89, 137};
    static const int c01[] = {-1, -1, -1, 0, 1, 3, 15, 37, 68, 109};
    for (size_t i = 0; i < ARRAY_LEN(n); i++) {
        cr_assert_eq(bl_wilcoxon_critical(n[i], 0.05), c05[i], "N=%zu", n[i]);
        cr_assert_eq(bl_wilcoxon_critical(n[i], 0.01), c01[i], "N=%zu", n[i]);
    }
    /* P(T <= 0) = 2/32 for N = 5: accepted at exactly that alpha. */
    cr_assert_eq(bl_wilcoxon_critical(5, 0.0625), 0);
    cr_assert_eq(bl_wilcoxon_critical(8, 0), -1);
    cr_assert_eq(bl_wilcoxon_critical(0, 0.05), -1);
}

Test(wilcoxon, exact_small_cases)
{
    bl_wilcoxon w;
    /* N = 5, all a > b: T = 0, P(T <= 0) = 2 / 2^5. */
    double a5[] = {2, 3, 4, 5, 6}, b5[] = {1, 1, 1, 1, 1};
    cr_assert_eq(bl_wilcoxon_test(a5, b5, 5, 0.05, &w), 0);
    cr_assert_float_eq(w.r_plus, 15, 1e-12);
    cr_assert_float_eq(w.t, 0, 1e-12);
    cr_assert_float_eq(w.p_exact, 2.0 / 32, 1e-15);
    cr_assert_eq(w.t_crit, -1);
    cr_assert_not(w.significant);

    /* N = 6, all a < b: 2 / 2^6 is significant at 0.05. */
    double a6[] = {1, 1, 1, 1, 1, 1}, b6[] = {2, 3, 4, 5, 6, 7};
    cr_assert_eq(bl_wilcoxon_test(a6, b6, 6, 0.05, &w), 0);
    cr_assert_float_eq(w.r_minus, 21, 1e-12);
    cr_assert_float_eq(w.p_exact, 2.0 / 64, 1e-15);
    cr_assert_eq(w.t_crit, 0);
    cr_assert(w.significant);

    /* Ties: d = 1, 1, -1, 2 -> ranks 2, 2, 2, 4; R+ = 8, R- = 2.  Under H0
     * R- <= 2 only for no or one of the 2-ranks negative: 4 of 16 sign
     * patterns, two-sided 0.5. */
    double at[] = {1, 1, 0, 2}, bt[] = {0, 0, 1, 0};
    cr_assert_eq(bl_wilcoxon_test(at, bt, 4, 0.05, &w), 0);
    cr_assert_float_eq(w.r_plus, 8, 1e-12);
    cr_assert_float_eq(w.r_minus, 2, 1e-12);
    cr_assert_float_eq(w.p_exact, 0.5, 1e-15);

    /* Balanced: R+ = R- = 1.5, p clamps to 1. */
    double ab[] = {1, 0}, bb[] = {0, 1};
    cr_assert_eq(bl_wilcoxon_test(ab, bb, 2, 0.05, &w), 0);
    cr_assert_float_eq(w.p_exact, 1, 1e-15);
    cr_assert_float_eq(w.z, 0, 1e-15);
}

Test(wilcoxon, exact_matches_enumeration)
{
    /* Integer magnitudes 1..5 force many ties. */
    unsigned s = 12345;
    for (int rep = 0; rep < 20; rep++) {
        size_t n = 6 + (size_t)rep % 11; /* 6..16 */
        double a[16], b[16], d[16];
        for (size_t i = 0; i < n; i++) {
            s = s * 1103515245u + 12345u;
            int mag = 1 + (int)(s >> 16) % 5;
            s = s * 1103515245u + 12345u;
            int sign = (s >> 16) % 3 ? 1 : -1; /* lean positive */
            d[i] = sign * mag;
            b[i] = 10;
            a[i] = 10 + d[i];
        }
        bl_wilcoxon w;
        cr_assert_eq(bl_wilcoxon_test(a, b, n, 0.05, &w), 0);
        cr_assert_eq(w.n_eff, n);
        cr_assert_float_eq(w.p_exact, brute_p(d, n), 1e-12, "rep %d n %zu", rep, n);
    }
}

Test(wilcoxon, normal_approximation_n60)
{
    /* Distinct ranks 1..60, every third negative: R- = 1 + 4 + ... + 58. */
    double a[60], b[60];
    for (int i = 0; i < 60; i++) {
        b[i] = 100;
        a[i] = 100 + (i % 3 ? 1 : -1) * (i + 1) * 0.1;
    }
    bl_wilcoxon w;
    cr_assert_eq(bl_wilcoxon_test(a, b, 60, 0.05, &w), 0);
    cr_assert_eq(w.n_eff, 60);
    cr_assert_float_eq(w.r_minus, 590, 1e-9);
    double mu = 60.0 * 61 / 4, sd = sqrt(60.0 * 61 * 121 / 24);
    cr_assert_float_eq(w.z, (590 - mu + 0.5) / sd, 1e-12);
    cr_assert(w.p_normal > 0.005 && w.p_normal < 0.05, "p_normal %g", w.p_normal);
    cr_assert(fabs(w.p_exact - w.p_normal) < 0.01, "exact %g normal %g", w.p_exact,
              w.p_normal);

    /* Heavy ties (|d| in 1..6, ten of each): the tie-corrected variance
     * keeps the approximation close to the exact tied distribution. */
    for (int i = 0; i < 60; i++)
        a[i] = 100 + (i % 7 < 3 ? -1 : 1) * (i % 6 + 1);
    cr_assert_eq(bl_wilcoxon_test(a, b, 60, 0.05, &w), 0);
    /* Six tie groups of ten: sigma^2 loses 6 (10^3 - 10) / 48. */
    sd = sqrt(60.0 * 61 * 121 / 24 - 6 * 990.0 / 48);
    cr_assert_float_eq(w.z, (w.t - mu + 0.5) / sd, 1e-12);
    cr_assert(w.p_exact > 0.001 && w.p_exact < 0.5, "p_exact %g", w.p_exact);
    cr_assert(fabs(w.p_exact - w.p_normal) < 0.01, "exact %g normal %g", w.p_exact,
              w.p_normal);
}

Test(wilcoxon, large_n_and_edge_cases)
{
    /* N = 500 with ties stays fast and exact; beyond the limit p_exact = -1. */
    size_t n = 600;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    for (size_t i = 0; i < n; i++) {
        b[i] = 50;
        a[i] = 50 + (i % 5 == 0 ? -1.0 : 1.0) * (double)(i % 37 + 1);
    }
    bl_wilcoxon w;
    cr_assert_eq(bl_wilcoxon_test(a, b, 500, 0.05, &w), 0);
    cr_assert(w.p_exact >= 0 && w.p_exact < 1e-6);
    cr_assert(w.significant);
    cr_assert_eq(bl_wilcoxon_test(a, b, 600, 0.05, &w), 0);
    cr_assert_float_eq(w.p_exact, -1, 0);
    cr_assert(w.p_normal < 1e-6 && w.significant);
    free(a);
    free(b);

    /* Rounding-level differences are zeros; nothing left: p = 1. */
    double x[] = {0.1 + 0.2, 1.1 * 3}, y[] = {0.3, 3.3};
    cr_assert_eq(bl_wilcoxon_test(x, y, 2, 0.05, &w), 0);
    cr_assert_eq(w.n_eff, 0);
    cr_assert_float_eq(w.p_exact, 1, 0);
    cr_assert_float_eq(w.p_normal, 1, 0);
    cr_assert_eq(w.t_crit, -1);
    cr_assert_eq(bl_wilcoxon_test(NULL, NULL, 0, 0.05, &w), 0);

    double bad[] = {1, NAN};
    cr_assert_eq(bl_wilcoxon_test(bad, y, 2, 0.05, &w), -1);
    cr_assert_eq(bl_wilcoxon_test(x, y, 2, 0, &w), -1);
    cr_assert_eq(bl_wilcoxon_test(x, y, 2, 1, &w), -1);
    cr_assert_eq(bl_wilcoxon_test(x, y, 2, 0.05, NULL), -1);
}

/* ---- paired t and z ----------------------------------------------------- */

Test(ptests, paired_t_df4)
{
    /* d = 0.01 * (1..5): mean 0.03, sd 0.01 sqrt(2.5), t = 3 sqrt(2); for 4
     * df the CDF is 1/2 + (3/4) x (1 - x^2/3) with x = t / sqrt(4 + t^2). */
    double b[] = {0.20, 0.31, 0.18, 0.25, 0.22}, a[5];
    for (int i = 0; i < 5; i++)
        a[i] = b[i] + 0.01 * (i + 1);
    bl_ttest r;
    cr_assert_eq(bl_paired_t(a, b, 5, &r), 0);
    double t = 3 * sqrt(2.0), x = t / sqrt(4 + t * t);
    double p = 1 - 1.5 * x * (1 - x * x / 3);
    cr_assert_float_eq(r.mean_diff, 0.03, 1e-14);
    cr_assert_float_eq(r.sd_diff, 0.01 * sqrt(2.5), 1e-14);
    cr_assert_float_eq(r.df, 4, 0);
    cr_assert_float_eq(r.t, t, 1e-9);
    cr_assert_float_eq(r.p, p, 1e-9);
    cr_assert_float_eq(r.p, 0.0132356, 1e-6);
    cr_assert_float_eq(r.p_greater, p / 2, 1e-9);
    cr_assert_float_eq(r.p_less, 1 - p / 2, 1e-9);
}

Test(ptests, paired_t_df2_negative)
{
    /* d = -1, -2, -6: mean -3, sd sqrt(7), t = -3 sqrt(3) / sqrt(7); for 2
     * df the two-sided p is 1 - |t| / sqrt(2 + t^2). */
    double a[] = {4, 5, 1}, b[] = {5, 7, 7};
    bl_ttest r;
    cr_assert_eq(bl_paired_t(a, b, 3, &r), 0);
    double t = -3 * sqrt(3.0) / sqrt(7.0);
    cr_assert_float_eq(r.t, t, 1e-12);
    cr_assert_float_eq(r.p, 1 - fabs(t) / sqrt(2 + t * t), 1e-10);
    cr_assert_float_eq(r.p_less, r.p / 2, 1e-10);
}

Test(ptests, paired_t_zero_variance)
{
    bl_ttest r;
    double a[] = {0.3, 0.5, 0.7}, b[] = {0.3, 0.5, 0.7};
    cr_assert_eq(bl_paired_t(a, b, 3, &r), 0);
    cr_assert_float_eq(r.t, 0, 0);
    cr_assert_float_eq(r.p, 1, 0);
    /* Equal non-zero differences, equal only up to rounding. */
    double c[] = {1.1, 2.2, 3.3}, d[] = {0.1, 1.2, 2.3};
    cr_assert_eq(bl_paired_t(c, d, 3, &r), 0);
    cr_assert(isinf(r.t) && r.t > 0);
    cr_assert_float_eq(r.p, 0, 0);
    cr_assert_float_eq(r.p_greater, 0, 0);
    cr_assert_float_eq(r.p_less, 1, 0);
    cr_assert_eq(bl_paired_t(d, c, 3, &r), 0);
    cr_assert(isinf(r.t) && r.t < 0);
    cr_assert_not(isnan(r.p) || isnan(r.sd_diff));
    cr_assert_eq(bl_paired_t(c, d, 1, &r), -1);
    cr_assert_eq(bl_paired_t(NULL, d, 3, &r), -1);
}

/* Two-sided p of Student's t with 3 df in closed form: the CDF is
 * 1/2 + (1/pi) (x / (sqrt(3) (1 + x^2/3)) + atan(x / sqrt(3))). */
static double p_t3(double t)
{
    double x = fabs(t);
    return 1 - (2 / M_PI) * (x / (sqrt(3.0) * (1 + x * x / 3)) + atan(x / sqrt(3.0)));
}

Test(ptests, corrected_t_nadeau_bengio)
{
    /* d = 1, 2, 1, 2: mean 1.5, sample variance 1/3.  Plain: t = 1.5 /
     * sqrt(1/3 / 4) = 3 sqrt(3) = 5.196.  Corrected with 20 % test rows
     * (n_test / n_train = 1/4): variance (1/3)(1/4 + 1/4) = 1/6, t = 1.5
     * sqrt(6) = 3.674, p = 0.0349 instead of 0.0138. */
    double a[] = {10, 12, 11, 13}, b[] = {9, 10, 10, 11};
    bl_ttest r;
    cr_assert_eq(bl_paired_t(a, b, 4, &r), 0);
    cr_assert_float_eq(r.t, 3 * sqrt(3.0), 1e-12);
    cr_assert_float_eq(r.p, p_t3(3 * sqrt(3.0)), 1e-10);
    cr_assert_float_eq(r.p, 0.0138468, 1e-6);
    cr_assert_eq(bl_corrected_t(a, b, 4, 0.25, &r), 0);
    cr_assert_float_eq(r.mean_diff, 1.5, 1e-14);
    cr_assert_float_eq(r.sd_diff, sqrt(1.0 / 3), 1e-14);
    cr_assert_float_eq(r.df, 3, 0);
    cr_assert_float_eq(r.t, 1.5 * sqrt(6.0), 1e-12);
    cr_assert_float_eq(r.p, p_t3(1.5 * sqrt(6.0)), 1e-10);
    cr_assert_float_eq(r.p, 0.0348970, 1e-6);
    cr_assert_float_eq(r.p_greater, r.p / 2, 1e-12);
    /* test_train = 0 is the plain test; the sign follows the difference */
    cr_assert_eq(bl_corrected_t(b, a, 4, 0, &r), 0);
    cr_assert_float_eq(r.t, -3 * sqrt(3.0), 1e-12);
    /* zero variance as the plain test; bad input */
    double c[] = {1, 2, 3}, d[] = {1, 2, 3};
    cr_assert_eq(bl_corrected_t(c, d, 3, 0.5, &r), 0);
    cr_assert_float_eq(r.p, 1, 0);
    cr_assert_eq(bl_corrected_t(a, b, 4, -0.1, &r), -1);
    cr_assert_eq(bl_corrected_t(a, b, 4, NAN, &r), -1);
    cr_assert_eq(bl_corrected_t(a, b, 1, 0.25, &r), -1);
}

Test(ptests, holm)
{
    /* sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1
     * = 0.04, raised to the running maximum 0.06 */
    double p[] = {0.01, 0.04, 0.03, 0.005}, adj[4];
    cr_assert_eq(bl_holm(p, 4, adj), 0);
    cr_assert_float_eq(adj[0], 0.03, 1e-15);
    cr_assert_float_eq(adj[1], 0.06, 1e-15);
    cr_assert_float_eq(adj[2], 0.06, 1e-15);
    cr_assert_float_eq(adj[3], 0.02, 1e-15);
    /* NaN is no member of the family (m = 3): 0.02 x 3 = 0.06, 0.6 x 2 =
     * 1.2 capped at 1, 0.7 x 1 raised to 1; in place */
    double q[] = {0.6, NAN, 0.02, 0.7};
    cr_assert_eq(bl_holm(q, 4, q), 0);
    cr_assert_float_eq(q[0], 1, 0);
    cr_assert(isnan(q[1]));
    cr_assert_float_eq(q[2], 0.06, 1e-15);
    cr_assert_float_eq(q[3], 1, 0);
    /* ties keep their order and get the same adjusted value */
    double t[] = {0.01, 0.01}, ta[2];
    cr_assert_eq(bl_holm(t, 2, ta), 0);
    cr_assert_float_eq(ta[0], 0.02, 1e-15);
    cr_assert_float_eq(ta[1], 0.02, 1e-15);
    double bad[] = {1.5};
    cr_assert_eq(bl_holm(bad, 1, ta), -1);
    cr_assert_eq(bl_holm(NULL, 0, NULL), 0);
}

Test(ptests, ztest_errors)
{
    /* 20/200 vs 35/200: z = 0.075 / sqrt((.1 .9 + .175 .825) / 200). */
    bl_ztest z;
    cr_assert_eq(bl_ztest_errors(20, 200, 35, 200, &z), 0);
    double zz = 0.075 / sqrt((0.1 * 0.9 + 0.175 * 0.825) / 200);
    cr_assert_float_eq(z.p1, 0.1, 1e-15);
    cr_assert_float_eq(z.p2, 0.175, 1e-15);
    cr_assert_float_eq(z.pooled, 55.0 / 400, 1e-15);
    cr_assert_float_eq(z.z, zz, 1e-12);
    cr_assert_float_eq(z.p, 0.5 * erfc(zz / sqrt(2.0)), 1e-12);
    /* Other direction: same |z|, complementary p. */
    cr_assert_eq(bl_ztest_errors(35, 200, 20, 200, &z), 0);
    cr_assert_float_eq(z.z, -zz, 1e-12);
    cr_assert_float_eq(z.p, 1 - 0.5 * erfc(zz / sqrt(2.0)), 1e-12);
    /* Unequal test-set sizes. */
    cr_assert_eq(bl_ztest_errors(10, 100, 30, 150, &z), 0);
    cr_assert_float_eq(z.z, 0.1 / sqrt(0.1 * 0.9 / 100 + 0.2 * 0.8 / 150), 1e-12);
    /* The p-values of Sun, Reid & Zhou's Table 3 (AOSO errors first, ABC
     * second, same test set), printed to 4 decimals. */
    static const double t3[][4] = {
        {92, 89, 4000, 0.5892},     {1862, 2034, 18000, 0.0018}, {83, 100, 3498, 0.1014},
        {38, 55, 1797, 0.0370},     {1948, 2102, 60000, 0.0069}, {991, 1055, 16000, 0.0718},
        {31399, 37345, 500000, 0.0000}, {99, 96, 2007, 0.5872}};
    for (size_t j = 0; j < sizeof t3 / sizeof t3[0]; j++) {
        cr_assert_eq(bl_ztest_errors(t3[j][0], t3[j][2], t3[j][1], t3[j][2], &z), 0);
        cr_assert(fabs(z.p - t3[j][3]) <= 0.00005, "Table 3 row %zu: p %.5f, paper %.4f", j, z.p,
                  t3[j][3]);
    }
    /* No variance: equal rates, no evidence; different ones, certainty. */
    cr_assert_eq(bl_ztest_errors(0, 100, 0, 50, &z), 0);
    cr_assert_float_eq(z.z, 0, 0);
    cr_assert_float_eq(z.p, 1, 0);
    cr_assert_eq(bl_ztest_errors(100, 100, 50, 50, &z), 0);
    cr_assert_float_eq(z.p, 1, 0);
    cr_assert_eq(bl_ztest_errors(0, 100, 50, 50, &z), 0);
    cr_assert_float_eq(z.p, 0, 0);
    cr_assert_eq(bl_ztest_errors(1, 0, 1, 10, &z), -1);
    cr_assert_eq(bl_ztest_errors(11, 10, 1, 10, &z), -1);
    cr_assert_eq(bl_ztest_errors(-1, 10, 1, 10, &z), -1);
    cr_assert_eq(bl_ztest_errors(NAN, 10, 1, 10, &z), -1);
}

/* ---- Friedman, Nemenyi -------------------------------------------------- */

Test(friedman, nemenyi_q_table5a)
{
    /* Demšar 2006, Table 5(a), k = 2..10.  The table divides 3-digit
     * studentized range quantiles by sqrt(2), so its last digit can be off
     * by one (k = 7: 4.17 / sqrt 2 = 2.949, exact 2.94832); hence 1e-3. */
    static const double q05[] = {1.960, 2.343, 2.569, 2.728, 2.850,
                                 2.949, 3.031, 3.102, 3.164};
    static const double q10[] = {1.645, 2.052, 2.291, 2.459, 2.589,
                                 2.693, 2.780, 2.855, 2.920};
    for (size_t k = 2; k <= 10; k++) {
        double a = bl_nemenyi_q(k, 0.05), b = bl_nemenyi_q(k, 0.10);
        cr_assert(fabs(a - q05[k - 2]) < 1e-3, "k=%zu q05=%.5f", k, a);
        cr_assert(fabs(b - q10[k - 2]) < 1e-3, "k=%zu q10=%.5f", k, b);
    }
    /* Tighter anchors: studentized range q(0.05; k, inf) = 3.314, 4.474 and
     * 5.012 for k = 3, 10, 20 (before dividing by sqrt 2). */
    cr_assert(fabs(bl_nemenyi_q(3, 0.05) * sqrt(2.0) - 3.314) < 6e-4);
    cr_assert(fabs(bl_nemenyi_q(10, 0.05) * sqrt(2.0) - 4.474) < 6e-4);
    cr_assert(fabs(bl_nemenyi_q(20, 0.05) * sqrt(2.0) - 5.012) < 6e-4);
    /* k = 2: the range is |Z1 - Z2| ~ sqrt(2) |N(0,1)|, so q is z_{alpha/2}. */
    cr_assert_float_eq(bl_nemenyi_q(2, 0.05), gsl_cdf_ugaussian_Qinv(0.025), 1e-7);
    cr_assert_float_eq(bl_nemenyi_q(2, 0.01), gsl_cdf_ugaussian_Qinv(0.005), 1e-7);
    cr_assert_float_eq(bl_nemenyi_q(1, 0.05), -1, 0);
    cr_assert_float_eq(bl_nemenyi_q(4, 0), -1, 0);
}

Test(friedman, nemenyi_q_large_k)
{
    /* Increasing in k and decreasing in alpha, finite up to k = 50 and beyond. */
    double prev = 0;
    for (size_t k = 2; k <= 50; k++) {
        double q = bl_nemenyi_q(k, 0.05);
        cr_assert(isfinite(q) && q > prev, "k=%zu q=%g", k, q);
        cr_assert(bl_nemenyi_q(k, 0.10) < q && bl_nemenyi_q(k, 0.01) > q);
        prev = q;
    }
    double q = bl_nemenyi_q(200, 0.001);
    cr_assert(isfinite(q) && q > prev);
}

Test(friedman, cd_k4_n14)
{
    double cd = bl_nemenyi_cd(4, 14, 0.05);
    cr_assert_float_eq(cd, bl_nemenyi_q(4, 0.05) * sqrt(4.0 * 5 / (6 * 14)), 1e-12);
    cr_assert(fabs(cd - 1.253) < 1e-3, "cd %g", cd);
    cr_assert_float_eq(bl_nemenyi_cd(4, 0, 0.05), -1, 0);
}

Test(friedman, demsar_table6)
{
    /* Demšar 2006, Table 6: AUC of C4.5, C4.5+m, C4.5+cf, C4.5+m+cf on 14
     * data sets; negated since bl_friedman ranks lower as better.  Ranking
     * the table gives rank sums 44, 28, 41, 27 (the paper's text prints
     * 2.893 and 1.964 for the last two, half a rank off in one row, hence
     * its chi2_F = 9.28 and F_F = 3.69); the rest of the paper's analysis,
     * CD = 1.25 and the groups of its Figure 1, is unaffected. */
    static const double auc[14][4] = {
        {0.763, 0.768, 0.771, 0.798}, {0.599, 0.591, 0.590, 0.569},
        {0.954, 0.971, 0.968, 0.967}, {0.628, 0.661, 0.654, 0.657},
        {0.882, 0.888, 0.886, 0.898}, {0.936, 0.931, 0.916, 0.931},
        {0.661, 0.668, 0.609, 0.685}, {0.583, 0.583, 0.563, 0.625},
        {0.775, 0.838, 0.866, 0.875}, {1.000, 1.000, 1.000, 1.000},
        {0.940, 0.962, 0.965, 0.962}, {0.619, 0.666, 0.614, 0.669},
        {0.972, 0.981, 0.975, 0.975}, {0.957, 0.978, 0.946, 0.970}};
    double x[14 * 4];
    for (size_t i = 0; i < 14; i++)
        for (size_t j = 0; j < 4; j++)
            x[i * 4 + j] = -auc[i][j];
    bl_friedman_result f;
    cr_assert_eq(bl_friedman(x, 14, 4, 0.05, &f), 0);
    static const double rsum[4] = {44, 28, 41, 27};
    double sq = 0;
    for (size_t j = 0; j < 4; j++) {
        cr_assert_float_eq(f.avg_rank[j], rsum[j] / 14, 1e-12, "j=%zu", j);
        sq += (rsum[j] / 14) * (rsum[j] / 14);
    }
    double chi2 = 12.0 * 14 / (4 * 5) * (sq - 4 * 25 / 4.0);
    double ff = 13 * chi2 / (14 * 3 - chi2);
    cr_assert_float_eq(f.chi2, chi2, 1e-10);
    cr_assert_float_eq(f.chi2, 9.857143, 1e-6);
    cr_assert_float_eq(f.ff, ff, 1e-10);
    cr_assert_float_eq(f.ff, 3.986667, 1e-6);
    cr_assert_float_eq(f.df1, 3, 0);
    cr_assert_float_eq(f.df2, 39, 0);
    cr_assert_float_eq(f.p_ff, gsl_cdf_fdist_Q(ff, 3, 39), 1e-12);
    /* The paper's critical F(3, 39) at 0.05 is 2.85: rejected. */
    cr_assert(fabs(gsl_cdf_fdist_Qinv(0.05, 3, 39) - 2.85) < 0.01);
    cr_assert(f.p_ff < 0.05 && f.p_ff > 0.01, "p_ff %g", f.p_ff);
    cr_assert_float_eq(f.p_chi2, gsl_cdf_chisq_Q(chi2, 3), 1e-12);
    cr_assert(fabs(f.cd - 1.253) < 1e-3);

    /* alpha = 0.05: best and worst differ by 1.214 < CD, one group. */
    size_t order[4], groups[3][2];
    cr_assert_eq(bl_cd_groups(f.avg_rank, 4, f.cd, order, groups), 1);
    cr_assert(order[0] == 3 && order[1] == 1 && order[2] == 2 && order[3] == 0);
    cr_assert(groups[0][0] == 0 && groups[0][1] == 3);
    bl_friedman_free(&f);
    cr_assert_null(f.avg_rank);

    /* alpha = 0.10: CD = 1.12 separates C4.5 from C4.5+m and C4.5+m+cf;
     * C4.5+cf belongs to both groups (Demšar's Figure 1). */
    cr_assert_eq(bl_friedman(x, 14, 4, 0.10, &f), 0);
    cr_assert(fabs(f.cd - 1.118) < 1e-3, "cd %g", f.cd);
    cr_assert_eq(bl_cd_groups(f.avg_rank, 4, f.cd, order, groups), 2);
    cr_assert(groups[0][0] == 0 && groups[0][1] == 2);
    cr_assert(groups[1][0] == 2 && groups[1][1] == 3);
    bl_friedman_free(&f);
}

Test(friedman, small_matrix_with_ties)
{
    /* Ranks: (1, 2, 3), (2.5, 2.5, 1) with 0.1 + 0.2 tying 0.3, (3, 1, 2);
     * mean ranks 13/6, 11/6, 2; chi2 = 12 N / (k(k+1)) sum (R - 2)^2 = 1/6;
     * F_F = 2 chi2 / (3 * 2 - chi2) = 2/35. */
    double x[] = {0.1, 0.2, 0.3, 0.1 + 0.2, 0.3, 0.1, 0.3, 0.1, 0.2};
    bl_friedman_result f;
    cr_assert_eq(bl_friedman(x, 3, 3, 0.05, &f), 0);
    cr_assert_float_eq(f.avg_rank[0], 13.0 / 6, 1e-12);
    cr_assert_float_eq(f.avg_rank[1], 11.0 / 6, 1e-12);
    cr_assert_float_eq(f.avg_rank[2], 2, 1e-12);
    cr_assert_float_eq(f.chi2, 1.0 / 6, 1e-12);
    cr_assert_float_eq(f.ff, 2.0 / 35, 1e-12);
    cr_assert_float_eq(f.df2, 4, 0);
    cr_assert_float_eq(f.p_ff, gsl_cdf_fdist_Q(2.0 / 35, 2, 4), 1e-12);
    bl_friedman_free(&f);

    /* Every data set agrees: chi2 = N(k-1), F_F infinite, p = 0, no NaN. */
    double y[] = {1, 2, 3, 4, 5, 6};
    cr_assert_eq(bl_friedman(y, 2, 3, 0.05, &f), 0);
    cr_assert_float_eq(f.chi2, 4, 1e-12);
    cr_assert(isinf(f.ff));
    cr_assert_float_eq(f.p_ff, 0, 0);
    bl_friedman_free(&f);

    /* All tied: nothing to see. */
    double z[] = {1, 1, 1, 1, 1, 1};
    cr_assert_eq(bl_friedman(z, 2, 3, 0.05, &f), 0);
    cr_assert_float_eq(f.chi2, 0, 0);
    cr_assert_float_eq(f.ff, 0, 0);
    cr_assert_float_eq(f.p_ff, 1, 1e-12);
    bl_friedman_free(&f);

    cr_assert_eq(bl_friedman(x, 1, 3, 0.05, &f), -1);
    cr_assert_eq(bl_friedman(x, 3, 1, 0.05, &f), -1);
    x[4] = NAN;
    cr_assert_eq(bl_friedman(x, 3, 3, 0.05, &f), -1);
}

Test(friedman, cd_groups)
{
    size_t order[5], groups[4][2];
    /* Unsorted input; a chain 1, 1.5, 2, 2.5 with CD 1.01 -> two
     * overlapping groups, the last rank 4 alone (not reported). */
    double r[] = {2.0, 4.0, 1.0, 2.5, 1.5};
    cr_assert_eq(bl_cd_groups(r, 5, 1.01, order, groups), 2);
    static const size_t ord[] = {2, 4, 0, 3, 1};
    for (size_t j = 0; j < 5; j++)
        cr_assert_eq(order[j], ord[j]);
    cr_assert(groups[0][0] == 0 && groups[0][1] == 2);
    cr_assert(groups[1][0] == 1 && groups[1][1] == 3);
    /* A span equal to CD is significant (Demšar: "at least the CD"). */
    cr_assert_eq(bl_cd_groups(r, 5, 1.0, order, groups), 3);
    cr_assert(groups[0][0] == 0 && groups[0][1] == 1);
    cr_assert(groups[1][0] == 1 && groups[1][1] == 2);
    cr_assert(groups[2][0] == 2 && groups[2][1] == 3);
    /* All apart, all together. */
    double s[] = {1, 2, 3};
    cr_assert_eq(bl_cd_groups(s, 3, 0.5, order, groups), 0);
    cr_assert_eq(bl_cd_groups(s, 3, 5, order, groups), 1);
    cr_assert(groups[0][0] == 0 && groups[0][1] == 2);
    double t[] = {2, 2, 2};
    cr_assert_eq(bl_cd_groups(t, 3, 0.1, order, groups), 1);
    cr_assert(order[0] == 0 && order[1] == 1 && order[2] == 2);
    cr_assert_eq(bl_cd_groups(NULL, 3, 1, order, groups), 0);
}

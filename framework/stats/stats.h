/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Significance tests behind `boostlab report`, for comparing algorithms head
 * to head the way the boosting papers do:
 *   - Wilcoxon signed-rank test over data sets, exact and normal (wilcoxon.c);
 *   - paired t-test over splits, its Nadeau-Bengio correction for
 *     overlapping training sets, the one-sided two-proportion z-test on
 *     error counts, and Holm's step-down adjustment of a family of p-values
 *     (ptests.c);
 *   - Friedman / Iman-Davenport test over N data sets x k algorithms, the
 *     Nemenyi critical difference and the groups a CD diagram draws
 *     (friedman.c).
 * The multiple-data-set procedures follow J. Demšar, "Statistical
 * comparisons of classifiers over multiple data sets", JMLR 7:1-30, 2006.
 *
 * Conventions: functions return 0 on success and -1 on bad input (NULL
 * pointers, sizes too small, NaN or infinite values, alpha outside (0,1)),
 * leaving *out unspecified on -1.  No global state: everything is
 * thread-safe.  Results never contain NaN; degenerate cases are documented
 * per function. */
#ifndef BL_STATS_STATS_H
#define BL_STATS_STATS_H

#include <stddef.h>

/* ---- Wilcoxon signed-rank test (wilcoxon.c) ---------------------------- */

/* Largest N_eff for which the exact null distribution is computed; the
 * dynamic programme costs O(N^3) operations (about 0.1 s at this size). */
#define BL_WILCOXON_EXACT_MAX 500

typedef struct bl_wilcoxon {
    /* Rank sums over the non-zero differences d = a - b: r_plus where a > b
     * (a is worse when a and b are errors), r_minus where a < b; ties share
     * their average rank, so both are multiples of 0.5. */
    double r_plus, r_minus;
    double t;      /* min(r_plus, r_minus), the statistic Demšar tabulates */
    size_t n_eff;  /* pairs left after dropping zero differences */
    /* Exact two-sided p = P(min(R+, R-) <= t) under H0, from the null
     * distribution of the actual (possibly tied) ranks; -1 when n_eff >
     * BL_WILCOXON_EXACT_MAX; 1 when n_eff == 0. */
    double p_exact;
    /* Normal approximation, meant for n_eff > 25: z = (t - mu + 1/2) / sigma
     * with mu = N(N+1)/4 and sigma^2 = N(N+1)(2N+1)/24 - sum(t^3 - t)/48
     * over tie groups; z <= 0 and p_normal = min(1, 2 Phi(z)). */
    double z, p_normal;
    /* Exact two-sided critical value of T for N = n_eff at the requested
     * alpha, as in the published tables (no ties): the largest c with
     * P(T <= c) <= alpha, or -1 when even T = 0 is not significant. */
    int t_crit;
    /* p_exact <= alpha (p_normal when p_exact is not available). */
    int significant;
} bl_wilcoxon;

/* Wilcoxon signed-rank test on the pairs (a[i], b[i]), i < n, e.g. the mean
 * errors of two algorithms on n data sets.  Differences smaller than 1e-12
 * times the largest |a[i]|, |b[i]| count as zero (and are dropped) and
 * magnitudes that close count as tied, so that values printed with one
 * decimal, like 33.7 - 33.7 or 6.5 - 6.4 vs 10.5 - 10.4, behave as on paper.
 * n may be 0 (then n_eff = 0, p = 1). */
int bl_wilcoxon_test(const double *a, const double *b, size_t n, double alpha,
                     bl_wilcoxon *out);

/* Exact two-sided critical value of T for n untied pairs (see t_crit); -1
 * when none exists or for bad input (n > BL_WILCOXON_EXACT_MAX, alpha
 * outside (0,1)).  N=5 -> -1, 6 -> 0, 7 -> 2, 8 -> 3 at alpha = 0.05. */
int bl_wilcoxon_critical(size_t n, double alpha);

/* ---- Paired t-test and two-proportion z-test (ptests.c) ----------------- */

typedef struct bl_ttest {
    double mean_diff;  /* mean of d = a - b */
    double sd_diff;    /* sample standard deviation of d (n - 1) */
    double t;          /* mean_diff / (sd_diff / sqrt(n)) */
    double df;         /* n - 1 */
    double p;          /* two-sided */
    double p_less;     /* one-sided, H1: mean d < 0 (a smaller) */
    double p_greater;  /* one-sided, H1: mean d > 0 */
} bl_ttest;

/* Paired t-test on n >= 2 pairs, e.g. the errors of two algorithms on the
 * same splits.  Zero variance (all differences equal, up to rounding) has no
 * t distribution: all differences zero gives t = 0, p = 1 (one-sided 0.5);
 * otherwise t = +-inf, p = 0 and the one-sided p is 0 or 1. */
int bl_paired_t(const double *a, const double *b, size_t n, bl_ttest *out);

/* Corrected resampled t-test of C. Nadeau and Y. Bengio, "Inference for the
 * generalization error", Machine Learning 52:239-281, 2003: n random splits
 * of one data set share most of their training rows, so the differences
 * are correlated and the plain paired t-test is far too liberal.  The
 * variance of the mean difference sd^2 / n becomes sd^2 (1/n + test_train)
 * with test_train = n_test / n_train of a split (> 0; 0 gives the plain
 * test).  Fields as bl_paired_t (t uses the corrected variance; df = n - 1);
 * the same zero-variance cases. */
int bl_corrected_t(const double *a, const double *b, size_t n, double test_train,
                   bl_ttest *out);

/* Holm's step-down adjustment: adj[i] = max over j <= rank(i) of
 * min(1, (m - j + 1) p_(j)), p_(1) <= ... <= p_(m) the sorted p-values, so
 * rejecting every adj[i] <= alpha keeps the family-wise error rate at alpha
 * (S. Holm, Scand. J. Statist. 6:65-70, 1979).  NaN entries (tests not
 * made) are not in the family: m counts the others and their adj is NaN.
 * p and adj may be the same array.  -1 for NULL pointers or a p outside
 * [0, 1]. */
int bl_holm(const double *p, size_t n, double *adj);

typedef struct bl_ztest {
    double p1, p2;   /* error rates e1/n1, e2/n2 */
    double pooled;   /* (e1 + e2) / (n1 + n2), for reference */
    double z;        /* (p2 - p1) / sqrt(p1 (1 - p1) / n1 + p2 (1 - p2) / n2) */
    double p;        /* one-sided p for H1: p1 < p2, i.e. 1 - Phi(z) */
} bl_ztest;

/* One-sided two-proportion z-test on error counts, as used by the
 * AOSO-LogitBoost paper: algorithm 1 made e1 errors out of n1 test
 * examples, algorithm 2 e2 out of n2; H1 is that algorithm 1 has the lower
 * error rate (swap the arguments for the other direction).  Counts may be
 * fractional (averaged over runs).  Needs n1, n2 > 0 and 0 <= e <= n.  The
 * variance is each rate's own (unpooled), the paper's formula.  When both
 * rates are 0 or 1 there is no variance: equal rates give z = 0 and p = 1
 * (no evidence either way), different ones z = +-inf and p = 0 or 1. */
int bl_ztest_errors(double e1, double n1, double e2, double n2, bl_ztest *out);

/* ---- Friedman test and Nemenyi post-hoc (friedman.c) -------------------- */

typedef struct bl_friedman_result {
    size_t N, k;       /* data sets, algorithms */
    double *avg_rank;  /* k average ranks (1 = best), malloc'ed */
    double chi2;       /* Friedman chi2_F, k - 1 df (no tie correction) */
    double p_chi2;     /* its upper-tail p-value */
    /* Iman-Davenport F_F = (N-1) chi2 / (N(k-1) - chi2), F(df1, df2) with
     * df1 = k-1, df2 = (k-1)(N-1); Demšar recommends it over chi2_F as less
     * conservative.  When every data set ranks the algorithms identically,
     * F_F = +inf and p_ff = 0. */
    double ff, df1, df2, p_ff;
    double alpha;      /* as passed */
    double q_alpha;    /* bl_nemenyi_q(k, alpha) */
    double cd;         /* Nemenyi critical difference, bl_nemenyi_cd() */
} bl_friedman_result;

/* Friedman test on x, N rows (data sets) by k columns (algorithms),
 * row-major, lower is better (errors; negate accuracies or AUCs).  Each row
 * is ranked 1..k with ties sharing their average rank (values within 1e-12
 * relative count as tied).  Needs N >= 2, k >= 2.  On success free the
 * result with bl_friedman_free. */
int bl_friedman(const double *x, size_t N, size_t k, double alpha,
                bl_friedman_result *out);
void bl_friedman_free(bl_friedman_result *r);

/* q_alpha of the Nemenyi test (Demšar 2006, Table 5a): the upper-alpha
 * quantile of the studentized range of k independent standard normals at
 * infinite df, divided by sqrt(2).  Computed numerically, so any k >= 2
 * works; returns -1 for k < 2 or alpha outside (0,1). */
double bl_nemenyi_q(size_t k, double alpha);

/* Nemenyi critical difference q_alpha sqrt(k(k+1) / (6N)): two algorithms
 * whose average ranks differ by at least this much differ significantly.
 * Returns -1 on bad input (k < 2, N < 1, alpha outside (0,1)). */
double bl_nemenyi_cd(size_t k, size_t N, double alpha);

/* Groups of algorithms not significantly different, the bars of a CD
 * diagram.  order (k entries, out) receives the algorithm indices sorted by
 * increasing avg_rank (best first; equal ranks keep index order).  groups
 * (room for k - 1 entries, out) receives [first, last] positions into order,
 * inclusive: the maximal runs of consecutive sorted algorithms whose rank
 * span is below cd (Demšar: "significantly different if the average ranks
 * differ by at least the critical difference").  Runs of a single algorithm
 * are not reported.  Returns the number of groups (0 for bad input, i.e.
 * NULL pointers or a NaN rank). */
size_t bl_cd_groups(const double *avg_rank, size_t k, double cd, size_t *order,
                    size_t (*groups)[2]);

#endif

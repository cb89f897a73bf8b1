/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Parametric pairwise tests: the paired t-test over splits of one data set
 * (plain and Nadeau-Bengio corrected), the one-sided two-proportion z-test
 * on test-error counts used by the AOSO-LogitBoost paper, and Holm's
 * adjustment for a family of tests. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

/* Both t-tests: the variance of the mean difference is sd^2 * vfac. */
static int paired_t(const double *a, const double *b, size_t n, double vfac, bl_ttest *out)
{
    if (!a || !b || !out || n < 2)
        return -1;
    double scale = 0, sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(a[i]) || !isfinite(b[i]))
            return -1;
        scale = fmax(scale, fmax(fabs(a[i]), fabs(b[i])));
        sum += a[i] - b[i];
    }
    double nn = (double)n, mean = sum / nn, ss = 0;
    for (size_t i = 0; i < n; i++) {
        double e = a[i] - b[i] - mean;
        ss += e * e;
    }
    double sd = sqrt(ss / (nn - 1));
    out->mean_diff = mean;
    out->sd_diff = sd;
    out->df = nn - 1;

    /* Equal differences computed from different operands can disagree in
     * the last bits; below 1e-12 of the data scale they count as equal, and
     * there is no t distribution to consult. */
    double tol = 1e-12 * scale;
    if (sd <= tol) {
        out->sd_diff = 0;
        if (fabs(mean) <= tol) {
            out->mean_diff = 0;
            out->t = 0;
            out->p = 1;
            out->p_less = out->p_greater = 0.5;
        } else {
            out->t = copysign(INFINITY, mean);
            out->p = 0;
            out->p_less = mean < 0 ? 0 : 1;
            out->p_greater = mean > 0 ? 0 : 1;
        }
        return 0;
    }
    out->t = mean / (sd * sqrt(vfac));
    /* Upper tails (Q) rather than 1 - P keep small p-values accurate. */
    out->p = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df));
    out->p_less = gsl_cdf_tdist_P(out->t, out->df);
    out->p_greater = gsl_cdf_tdist_Q(out->t, out->df);
    return 0;
}

int bl_paired_t(const double *a, const double *b, size_t n, bl_ttest *out)
{
    return n < 2 ? -1 : paired_t(a, b, n, 1.0 / (double)n, out);
}

int bl_corrected_t(const double *a, const double *b, size_t n, double test_train, bl_ttest *out)
{
    if (n < 2 || !isfinite(test_train) || test_train < 0)
        return -1;
    return paired_t(a, b, n, 1.0 / (double)n + test_train, out);
}

int bl_holm(const double *p, size_t n, double *adj)
{
    if ((!p || !adj) && n)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(p[i]))
            continue;
        if (!(p[i] >= 0 && p[i] <= 1))
            return -1;
        m++;
    }
    /* indices of the family sorted by p (insertion sort: families are small) */
    size_t *ord = malloc((m ? m : 1) * sizeof *ord);
    double *q = malloc((n ? n : 1) * sizeof *q);
    if (!ord || !q) {
        free(ord);
        free(q);
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        q[i] = p[i];
        if (isnan(p[i]))
            continue;
        size_t at = k++;
        while (at > 0 && p[ord[at - 1]] > p[i]) {
            ord[at] = ord[at - 1];
            at--;
        }
        ord[at] = i;
    }
    double run = 0; /* the running maximum makes the adjusted p monotone */
    for (size_t j = 0; j < m; j++) {
        double v = fmin(1, (double)(m - j) * q[ord[j]]);
        run = fmax(run, v);
        adj[ord[j]] = run;
    }
    for (size_t i = 0; i < n; i++)
        if (isnan(q[i]))
            adj[i] = NAN;
    free(ord);
    free(q);
    return 0;
}

int bl_ztest_errors(double e1, double n1, double e2, double n2, bl_ztest *out)
{
    if (!out || !isfinite(e1) || !isfinite(e2) || !isfinite(n1) || !isfinite(n2))
        return -1;
    if (!(n1 > 0 && n2 > 0) || e1 < 0 || e2 < 0 || e1 > n1 || e2 > n2)
        return -1;
    out->p1 = e1 / n1;
    out->p2 = e2 / n2;
    out->pooled = (e1 + e2) / (n1 + n2);
    /* Each rate's own binomial variance (not the pooled one): the formula
     * that reproduces every p-value of Sun et al.'s Table 3 (spec §6.5). */
    double var = out->p1 * (1 - out->p1) / n1 + out->p2 * (1 - out->p2) / n2;
    if (!(var > 0)) { /* both rates 0 or 1 */
        out->z = out->p1 == out->p2 ? 0 : out->p2 > out->p1 ? HUGE_VAL : -HUGE_VAL;
        out->p = out->p2 > out->p1 ? 0 : 1;
        return 0;
    }
    out->z = (out->p2 - out->p1) / sqrt(var);
    out->p = gsl_cdf_ugaussian_Q(out->z);
    return 0;
}

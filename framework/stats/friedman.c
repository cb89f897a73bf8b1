/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Comparing k algorithms over N data sets (Demšar 2006, JMLR 7:1-30,
 * section 3.2): Friedman's chi2_F, the Iman-Davenport F_F, the Nemenyi
 * critical difference with q_alpha computed from the studentized range
 * distribution, and the non-significant groups a CD diagram draws. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>

#include "util/fsutil.h"

typedef struct ranked {
    double v;
    size_t idx;
} ranked;

/* By value, then by index so that equal values keep a stable order. */
static int cmp_ranked(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->v != b->v)
        return (a->v > b->v) - (a->v < b->v);
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* Adds the ranks (1 = smallest, ties averaged) of row[0..k) to sum. */
static void add_row_ranks(const double *row, size_t k, ranked *tmp, double *sum)
{
    double scale = 0;
    for (size_t j = 0; j < k; j++) {
        tmp[j] = (ranked){row[j], j};
        scale = fmax(scale, fabs(row[j]));
    }
    qsort(tmp, k, sizeof *tmp, cmp_ranked);
    /* Errors averaged over runs may differ in the last bits only. */
    double tol = 1e-12 * scale;
    for (size_t s = 0; s < k;) {
        size_t e = s + 1;
        while (e < k && tmp[e].v - tmp[s].v <= tol)
            e++;
        double r = (double)(s + 1 + e) / 2; /* mean of ranks s+1..e */
        for (size_t j = s; j < e; j++)
            sum[tmp[j].idx] += r;
        s = e;
    }
}

int bl_friedman(const double *x, size_t N, size_t k, double alpha,
                bl_friedman_result *out)
{
    if (!x || !out || N < 2 || k < 2 || !(alpha > 0 && alpha < 1))
        return -1;
    for (size_t i = 0; i < N * k; i++)
        if (!isfinite(x[i]))
            return -1;

    double *R = bl_xcalloc(k, sizeof *R);
    ranked *tmp = bl_xmalloc(k * sizeof *tmp);
    for (size_t i = 0; i < N; i++)
        add_row_ranks(x + i * k, k, tmp, R);
    free(tmp);

    double nn = (double)N, kk = (double)k, ss = 0;
    for (size_t j = 0; j < k; j++) {
        R[j] /= nn;
        double c = R[j] - (kk + 1) / 2;
        ss += c * c;
    }
    out->N = N;
    out->k = k;
    out->avg_rank = R;
    /* chi2_F = 12N/(k(k+1)) [sum R_j^2 - k(k+1)^2/4]; written with centred
     * ranks (sum R_j = k(k+1)/2) so that it cannot go negative by rounding. */
    out->chi2 = 12 * nn / (kk * (kk + 1)) * ss;
    out->p_chi2 = gsl_cdf_chisq_Q(out->chi2, kk - 1);

    out->df1 = kk - 1;
    out->df2 = (kk - 1) * (nn - 1);
    /* chi2_F reaches its maximum N(k-1) when all data sets agree on the
     * ranking; F_F then diverges. */
    double denom = nn * (kk - 1) - out->chi2;
    if (denom <= 1e-12 * nn * (kk - 1)) {
        out->ff = INFINITY;
        out->p_ff = 0;
    } else {
        out->ff = (nn - 1) * out->chi2 / denom;
        out->p_ff = gsl_cdf_fdist_Q(out->ff, out->df1, out->df2);
    }

    out->alpha = alpha;
    out->q_alpha = bl_nemenyi_q(k, alpha);
    out->cd = out->q_alpha * sqrt(kk * (kk + 1) / (6 * nn));
    return 0;
}

void bl_friedman_free(bl_friedman_result *r)
{
    if (!r)
        return;
    free(r->avg_rank);
    r->avg_rank = NULL;
}

typedef struct range_params {
    double q, km1;
} range_params;

/* phi(z) [Phi(z) - Phi(z - q)]^(k-1), the density of the range of k
 * standard normals integrated over the position z of the largest one. */
static double range_integrand(double z, void *vp)
{
    const range_params *p = vp;
    /* Difference of upper tails when both CDFs are near 1, to keep digits. */
    double in = z > p->q / 2 ? gsl_cdf_ugaussian_Q(z - p->q) - gsl_cdf_ugaussian_Q(z)
                             : gsl_cdf_ugaussian_P(z) - gsl_cdf_ugaussian_P(z - p->q);
    if (in <= 0)
        return 0;
    return gsl_ran_ugaussian_pdf(z) * pow(in, p->km1);
}

/* P(range of k standard normals < q) = k int phi(z) [Phi(z) - Phi(z-q)]^(k-1) dz.
 * phi is below 1e-31 beyond |z| = 12, so a finite interval loses nothing.
 * The tolerances are loose enough for qags to always meet on this smooth,
 * bounded integrand, so GSL's error handler is never reached. */
static double range_cdf(double q, size_t k, gsl_integration_workspace *ws, size_t limit)
{
    range_params p = {q, (double)k - 1};
    gsl_function f = {range_integrand, &p};
    double res = 0, err = 0;
    gsl_integration_qags(&f, -12, 12, 1e-13, 1e-11, limit, ws, &res, &err);
    return (double)k * res;
}

double bl_nemenyi_q(size_t k, double alpha)
{
    if (k < 2 || !(alpha > 0 && alpha < 1))
        return -1;
    const size_t limit = 256;
    gsl_integration_workspace *ws = gsl_integration_workspace_alloc(limit);
    if (!ws)
        abort(); /* out of memory is fatal in boostlab */
    double target = 1 - alpha, lo = 0, hi = 2;
    while (range_cdf(hi, k, ws, limit) < target && hi < 1e3) {
        lo = hi;
        hi *= 2;
    }
    /* Bisection: the CDF is monotone in q and each evaluation is cheap. */
    for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; it++) {
        double mid = (lo + hi) / 2;
        if (range_cdf(mid, k, ws, limit) < target)
            lo = mid;
        else
            hi = mid;
    }
    gsl_integration_workspace_free(ws);
    /* Demšar tabulates q / sqrt(2): the Nemenyi statistic uses the standard
     * error sqrt(k(k+1)/(6N)) of a rank difference, not of one rank. */
    return (lo + hi) / 2 / sqrt(2.0);
}

double bl_nemenyi_cd(size_t k, size_t N, double alpha)
{
    if (k < 2 || N < 1)
        return -1;
    double q = bl_nemenyi_q(k, alpha);
    if (q < 0)
        return -1;
    return q * sqrt((double)k * ((double)k + 1) / (6 * (double)N));
}

size_t bl_cd_groups(const double *avg_rank, size_t k, double cd, size_t *order,
                    size_t (*groups)[2])
{
    if (!avg_rank || !order || !groups)
        return 0;
    for (size_t j = 0; j < k; j++)
        if (isnan(avg_rank[j]))
            return 0;
    ranked *s = bl_xmalloc((k ? k : 1) * sizeof *s);
    for (size_t j = 0; j < k; j++)
        s[j] = (ranked){avg_rank[j], j};
    qsort(s, k, sizeof *s, cmp_ranked);
    for (size_t j = 0; j < k; j++)
        order[j] = s[j].idx;

    /* end(i) = last position whose rank is within cd of position i; it never
     * decreases with i, so run [i, end(i)] is maximal exactly when end grows
     * past end(i-1). */
    size_t ng = 0, end = 0;
    for (size_t i = 0; i < k; i++) {
        size_t prev = end;
        if (end < i)
            end = i;
        while (end + 1 < k && s[end + 1].v - s[i].v < cd)
            end++;
        if (end > i && (i == 0 || end > prev)) {
            groups[ng][0] = i;
            groups[ng][1] = end;
            ng++;
        }
    }
    free(s);
    return ng;
}

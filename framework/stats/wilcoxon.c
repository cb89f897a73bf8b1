/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Wilcoxon signed-rank test for two algorithms over several data sets, as
 * recommended by Demšar 2006 (JMLR 7:1-30, section 3.1.3): exact p-values
 * and critical values by dynamic programming over the ranks, plus the
 * tie-corrected normal approximation for large N. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "util/fsutil.h"

/* Absolute non-zero difference and which side it favours. */
typedef struct signed_mag {
    double mag;
    int positive;
} signed_mag;

static int cmp_mag(const void *pa, const void *pb)
{
    const signed_mag *a = pa, *b = pb;
    return (a->mag > b->mag) - (a->mag < b->mag);
}

/* P(S <= cap) where S = sum of the w[i] included independently with
 * probability 1/2, i.e. the null distribution of a signed-rank sum.  Only
 * sums up to cap matter, which bounds the table.  Working with
 * probabilities (halving at each step) rather than subset counts keeps the
 * numbers in range for large N. */
static double rank_sum_cdf(const unsigned long long *w, size_t n, unsigned long long cap)
{
    double *p = bl_xcalloc((size_t)cap + 1, sizeof *p);
    p[0] = 1;
    for (size_t i = 0; i < n; i++) {
        unsigned long long s = cap + 1;
        while (s-- > 0)
            p[s] = 0.5 * (p[s] + (s >= w[i] ? p[s - w[i]] : 0));
    }
    double c = 0;
    for (unsigned long long s = 0; s <= cap; s++)
        c += p[s];
    free(p);
    return c;
}

int bl_wilcoxon_critical(size_t n, double alpha)
{
    if (!(alpha > 0 && alpha < 1) || n == 0 || n > BL_WILCOXON_EXACT_MAX)
        return -1;
    /* Untied ranks 1..n; the critical value cannot exceed the mean n(n+1)/4
     * since the two-sided tail there already has probability >= 1/2. */
    unsigned long long cap = (unsigned long long)n * (n + 1) / 4;
    double *p = bl_xcalloc((size_t)cap + 1, sizeof *p);
    p[0] = 1;
    for (unsigned long long r = 1; r <= n; r++) {
        unsigned long long s = cap + 1;
        while (s-- > 0)
            p[s] = 0.5 * (p[s] + (s >= r ? p[s - r] : 0));
    }
    /* Slack of 1e-12 so that a tail exactly equal to alpha is accepted
     * despite rounding in the sums, as the tables do (P <= alpha). */
    int crit = -1;
    double c = 0;
    for (unsigned long long s = 0; s <= cap; s++) {
        c += p[s];
        if (2 * c > alpha * (1 + 1e-12))
            break;
        crit = (int)s;
    }
    free(p);
    return crit;
}

int bl_wilcoxon_test(const double *a, const double *b, size_t n, double alpha,
                     bl_wilcoxon *out)
{
    if (!out || (n && (!a || !b)) || !(alpha > 0 && alpha < 1))
        return -1;
    double scale = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(a[i]) || !isfinite(b[i]))
            return -1;
        scale = fmax(scale, fmax(fabs(a[i]), fabs(b[i])));
    }
    /* Rounding in a - b is a few ulps of the operands; 1e-12 of the largest
     * value is far above that and far below any real difference. */
    double tol = 1e-12 * scale;

    signed_mag *d = bl_xmalloc((n ? n : 1) * sizeof *d);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double diff = a[i] - b[i];
        if (fabs(diff) > tol)
            d[m++] = (signed_mag){fabs(diff), diff > 0};
    }
    qsort(d, m, sizeof *d, cmp_mag);

    /* Doubled ranks keep tied (half) ranks integral: a tie group of size t
     * starting at 0-based position s has average rank s + (t + 1) / 2. */
    unsigned long long *w = bl_xmalloc((m ? m : 1) * sizeof *w);
    unsigned long long rp2 = 0, rm2 = 0;
    double tie_term = 0; /* sum of t^3 - t over tie groups */
    for (size_t s = 0; s < m;) {
        size_t e = s + 1;
        while (e < m && d[e].mag - d[s].mag <= tol)
            e++;
        unsigned long long t = e - s, w2 = 2 * (unsigned long long)s + t + 1;
        for (size_t j = s; j < e; j++) {
            w[j] = w2;
            if (d[j].positive)
                rp2 += w2;
            else
                rm2 += w2;
        }
        tie_term += (double)t * (double)t * (double)t - (double)t;
        s = e;
    }
    free(d);

    unsigned long long t2 = rp2 < rm2 ? rp2 : rm2;
    out->r_plus = (double)rp2 / 2;
    out->r_minus = (double)rm2 / 2;
    out->t = (double)t2 / 2;
    out->n_eff = m;

    /* R+ and R- have the same null distribution (flipping all signs swaps
     * them), so P(min <= t) = 2 P(R+ <= t) while t is below the mean, and
     * the clamp covers t at the mean. */
    if (m == 0)
        out->p_exact = 1;
    else if (m <= BL_WILCOXON_EXACT_MAX)
        out->p_exact = fmin(1, 2 * rank_sum_cdf(w, m, t2));
    else
        out->p_exact = -1;
    free(w);

    double nn = (double)m;
    double var = nn * (nn + 1) * (2 * nn + 1) / 24 - tie_term / 48;
    if (m > 0 && var > 0) {
        double num = fmin(0, out->t - nn * (nn + 1) / 4 + 0.5);
        out->z = num / sqrt(var);
        out->p_normal = fmin(1, 2 * gsl_cdf_ugaussian_P(out->z));
    } else {
        out->z = 0;
        out->p_normal = 1;
    }

    out->t_crit = bl_wilcoxon_critical(m, alpha);
    out->significant = (out->p_exact >= 0 ? out->p_exact : out->p_normal) <= alpha;
    return 0;
}

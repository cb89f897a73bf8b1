/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Summary statistics over repeats (see stats.h). */
#include "stats.h"

#include <math.h>

double bl_mean(const double *x, size_t n)
{
    double s = 0;
    for (size_t j = 0; j < n; j++)
        s += x[j];
    return n ? s / (double)n : NAN;
}

double bl_std(const double *x, size_t n)
{
    if (n < 2)
        return 0;
    double mu = bl_mean(x, n), s = 0;
    for (size_t j = 0; j < n; j++)
        s += (x[j] - mu) * (x[j] - mu);
    return sqrt(s / (double)(n - 1));
}

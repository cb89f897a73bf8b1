/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Summary statistics over repeats. */
#ifndef BL_REPORT_STATS_H
#define BL_REPORT_STATS_H

#include <stddef.h>

double bl_mean(const double *x, size_t n);
/* Sample standard deviation (n - 1 in the denominator); 0 when n < 2. */
double bl_std(const double *x, size_t n);

#endif

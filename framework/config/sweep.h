/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Parameter sweeps in experiment files.  Any value of a [data NAME] or
 * [algorithm NAME] section written in braces is a list of values to sweep:
 *
 *   weak.leaves = {4..20..2}          integers 4, 6, ..., 20
 *   shrinkage   = {0.04, 0.06, 0.1}   a list (any values, trimmed)
 *   per_class   = {20, 50, 100, 200}
 *
 * (Keys cv.KEY are not swept: their braces list the candidates that a
 * run's own cross-validation chooses from; see experiment.h.)
 *
 * A section with swept keys stands for the Cartesian product of their
 * values, each point a variant named NAME{key=value,key=value} (keys in the
 * order of the file), loaded exactly as if the section had been written out
 * once per point.
 */
#ifndef BL_CONFIG_SWEEP_H
#define BL_CONFIG_SWEEP_H

#include <stddef.h>

#include "../util/error.h"
#include "ini.h"

/* At most this many variants per section: a typo such as {1..1000000}
 * should be an error, not an afternoon of runs. */
#define BL_SWEEP_MAX_VARIANTS 100000

/* Parse value: 0 and *n = 0 if it is not a sweep (no braces); 0 with
 * *vals (malloc'ed strings) and *n >= 1 if it is; -1 with the reason. */
int bl_sweep_parse(const char *value, char ***vals, size_t *n, bl_error *err);
void bl_sweep_vals_free(char **vals, size_t n);

/* The variants of section s: *nvar sections (deep copies with the swept
 * values substituted) and their sweep labels ("key=value,..."); a section
 * without sweeps gives one copy and label NULL.  Errors name FILE:LINE. */
int bl_sweep_expand(const char *path, const bl_ini_section *s, bl_ini_section **var,
                    char ***labels, size_t *nvar, bl_error *err);
void bl_sweep_free(bl_ini_section *var, char **labels, size_t nvar);

#endif

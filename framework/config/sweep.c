/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Expansion of swept values into section variants (see sweep.h). */
#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"
#include "../util/textio.h"

static int push(char ***vals, size_t *n, const char *v)
{
    if (*n >= BL_SWEEP_MAX_VARIANTS)
        return -1;
    *vals = bl_xrealloc(*vals, (*n + 1) * sizeof **vals);
    (*vals)[(*n)++] = bl_strdup(v);
    return 0;
}

/* "A..B" or "A..B..S": integers when all three are integers, else reals
 * (the count is rounded so that 0.1 steps do not lose the last value). */
static int parse_range(char *s, char ***vals, size_t *n, bl_error *err)
{
    char *p1 = strstr(s, "..");
    *p1 = 0;
    char *b = p1 + 2, *st = strstr(b, "..");
    if (st) {
        *st = 0;
        st += 2;
    }
    const char *parts[3] = {bl_trim(s), bl_trim(b), st ? bl_trim(st) : "1"};
    double x[3];
    int all_int = 1;
    for (int j = 0; j < 3; j++) {
        char *end;
        errno = 0;
        x[j] = strtod(parts[j], &end);
        if (end == parts[j] || *end || errno || !isfinite(x[j]))
            return bl_errf(err, "range: '%s' is not a number", parts[j]);
        if (strpbrk(parts[j], ".eE"))
            all_int = 0;
    }
    if (x[2] <= 0)
        return bl_errf(err, "range: the step must be positive, got '%s'", parts[2]);
    if (x[1] < x[0])
        return bl_errf(err, "range: %s..%s is empty (the end is below the start)", parts[0],
                       parts[1]);
    double count = floor((x[1] - x[0]) / x[2] + 1e-9) + 1;
    if (count > BL_SWEEP_MAX_VARIANTS)
        return bl_errf(err, "range: %.0f values, more than the %d allowed", count,
                       BL_SWEEP_MAX_VARIANTS);
    for (size_t j = 0; j < (size_t)count; j++) {
        char buf[64];
        double v = x[0] + (double)j * x[2];
        if (all_int)
            snprintf(buf, sizeof buf, "%.0f", v);
        else
            snprintf(buf, sizeof buf, "%.12g", v);
        push(vals, n, buf);
    }
    return 0;
}

int bl_sweep_parse(const char *value, char ***vals, size_t *n, bl_error *err)
{
    *vals = NULL;
    *n = 0;
    size_t len = strlen(value);
    if (!len || value[0] != '{')
        return 0;
    if (value[len - 1] != '}')
        return bl_errf(err, "a sweep is written {a, b, c} or {from..to..step}: missing '}'");
    char *body = bl_strdup(value + 1);
    body[len - 2] = 0;
    int rc = 0;
    char *t = bl_trim(body);
    if (!*t) {
        rc = bl_errf(err, "empty sweep {}: give at least one value");
    } else if (!strchr(t, ',') && strstr(t, "..")) {
        rc = parse_range(t, vals, n, err);
    } else {
        /* strtok would skip empty items; walk the commas to refuse them */
        for (char *p = t;;) {
            char *comma = strchr(p, ',');
            if (comma)
                *comma = 0;
            char *v = bl_trim(p);
            if (!*v) {
                rc = bl_errf(err, "empty value in the sweep '%s'", value);
                break;
            }
            if (strpbrk(v, "{}")) {
                rc = bl_errf(err, "sweeps do not nest: '%s'", value);
                break;
            }
            for (size_t j = 0; j < *n; j++)
                if (!strcmp((*vals)[j], v))
                    rc = bl_errf(err, "'%s' appears twice in the sweep", v);
            if (rc < 0)
                break;
            if (push(vals, n, v) < 0) {
                rc = bl_errf(err, "more than %d values in one sweep", BL_SWEEP_MAX_VARIANTS);
                break;
            }
            if (!comma)
                break;
            p = comma + 1;
        }
    }
    free(body);
    if (rc < 0) {
        bl_sweep_vals_free(*vals, *n);
        *vals = NULL;
        *n = 0;
    }
    return rc;
}

void bl_sweep_vals_free(char **vals, size_t n)
{
    for (size_t j = 0; j < n; j++)
        free(vals[j]);
    free(vals);
}

static void copy_section(const bl_ini_section *s, bl_ini_section *out)
{
    out->name = bl_strdup(s->name);
    out->line = s->line;
    out->n = s->n;
    out->e = bl_xcalloc(s->n ? s->n : 1, sizeof *out->e);
    for (size_t j = 0; j < s->n; j++) {
        out->e[j].key = bl_strdup(s->e[j].key);
        out->e[j].value = bl_strdup(s->e[j].value);
        out->e[j].line = s->e[j].line;
    }
}

int bl_sweep_expand(const char *path, const bl_ini_section *s, bl_ini_section **var,
                    char ***labels, size_t *nvar, bl_error *err)
{
    char ***vals = bl_xcalloc(s->n ? s->n : 1, sizeof *vals);
    size_t *cnt = bl_xcalloc(s->n ? s->n : 1, sizeof *cnt);
    size_t total = 1, swept = 0;
    int rc = 0;
    for (size_t j = 0; j < s->n && rc == 0; j++) {
        /* cv.KEY = {...} lists the candidates of a cross-validation inside
         * each run (config/experiment.c), not grid points */
        if (!strncmp(s->e[j].key, "cv.", 3))
            continue;
        if (bl_sweep_parse(s->e[j].value, &vals[j], &cnt[j], err) < 0) {
            rc = bl_errprefix(err, "%s:%d: [%s] %s", path, s->e[j].line, s->name, s->e[j].key);
            break;
        }
        if (cnt[j]) {
            swept++;
            total *= cnt[j];
            if (total > BL_SWEEP_MAX_VARIANTS)
                rc = bl_errf(err, "%s:%d: [%s]: the sweeps make more than %d variants", path,
                             s->line, s->name, BL_SWEEP_MAX_VARIANTS);
        }
    }
    *var = NULL;
    *labels = NULL;
    *nvar = 0;
    if (rc == 0) {
        *var = bl_xcalloc(total, sizeof **var);
        *labels = bl_xcalloc(total, sizeof **labels);
        *nvar = total;
        size_t *at = bl_xcalloc(s->n ? s->n : 1, sizeof *at); /* odometer, last key fastest */
        for (size_t v = 0; v < total; v++) {
            copy_section(s, &(*var)[v]);
            if (swept) {
                char *lab = NULL;
                size_t llen = 0;
                FILE *f = open_memstream(&lab, &llen);
                int first = 1;
                for (size_t j = 0; j < s->n; j++) {
                    if (!cnt[j])
                        continue;
                    free((*var)[v].e[j].value);
                    (*var)[v].e[j].value = bl_strdup(vals[j][at[j]]);
                    fprintf(f, "%s%s=%s", first ? "" : ",", s->e[j].key, vals[j][at[j]]);
                    first = 0;
                }
                fclose(f);
                (*labels)[v] = lab;
            }
            for (size_t j = s->n; j-- > 0;) {
                if (!cnt[j])
                    continue;
                if (++at[j] < cnt[j])
                    break;
                at[j] = 0;
            }
        }
        free(at);
    }
    for (size_t j = 0; j < s->n; j++)
        bl_sweep_vals_free(vals[j], cnt[j]);
    free(vals);
    free(cnt);
    return rc;
}

void bl_sweep_free(bl_ini_section *var, char **labels, size_t nvar)
{
    for (size_t v = 0; v < nvar; v++) {
        for (size_t j = 0; j < var[v].n; j++) {
            free(var[v].e[j].key);
            free(var[v].e[j].value);
        }
        free(var[v].e);
        free(var[v].name);
        free(labels[v]);
    }
    free(var);
    free(labels);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CSV reader (see dataset.h for the format).  Rows are parsed row-major into
 * one growing array and transposed once at the end into the feature-major
 * layout; every error names the file, the line, the column (number from 1
 * and name) and what was expected there. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"
#include "../util/textio.h"
#include "dataset.h"

/* A field's text for an error message, cut when long. */
#define SHOW_MAX 60
#define SHOW(s) (int)(strlen(s) > SHOW_MAX ? SHOW_MAX : strlen(s)), (s), \
    (strlen(s) > SHOW_MAX ? "..." : "")

typedef struct fields {
    char **f;
    size_t n, cap;
} fields;

static int is_blank(char c, char delim)
{
    return (c == ' ' || c == '\t') && c != delim;
}

/* Split line in place at delim into fields, each stripped of surrounding
 * blanks and of double quotes ("" inside quotes stands for one quote).
 * On a quoting error returns the 1-based column number as a negative. */
static long split_fields(char *line, char delim, fields *out, const char **why)
{
    out->n = 0;
    char *p = line;
    for (;;) {
        if (out->n == out->cap) {
            out->cap = out->cap ? 2 * out->cap : 64;
            out->f = bl_xrealloc(out->f, out->cap * sizeof *out->f);
        }
        long col = (long)out->n + 1;
        while (is_blank(*p, delim))
            p++;
        char *start = p, *end;
        if (*p == '"') {
            char *w = start;
            p++;
            for (;;) {
                if (!*p) {
                    *why = "unterminated quoted field (a field cannot span lines)";
                    return -col;
                }
                if (*p == '"') {
                    if (p[1] == '"') {
                        *w++ = '"';
                        p += 2;
                        continue;
                    }
                    p++;
                    break;
                }
                *w++ = *p++;
            }
            end = w;
            while (is_blank(*p, delim))
                p++;
            if (*p && *p != delim) {
                *why = "unexpected text after the closing quote";
                return -col;
            }
        } else {
            while (*p && *p != delim)
                p++;
            end = p;
            while (end > start && is_blank(end[-1], delim))
                end--;
        }
        char sep = *p;
        *end = '\0';
        out->f[out->n++] = start;
        if (!sep)
            return (long)out->n;
        p++;
    }
}

static int line_is_blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t')
            return 0;
    return 1;
}

/* Parse one feature value: 0 with *out set, or -1 with the reason. */
static int parse_value(const char *s, float *out, const char **why)
{
    if (!*s) {
        *out = NAN;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end) {
        *why = "expected a number";
        return -1;
    }
    if (isnan(v) || (isinf(v) && errno != ERANGE)) {
        *why = "expected a number (a missing value is an empty field, not nan or inf)";
        return -1;
    }
    float f = (float)v;
    if (isinf(f) || (errno == ERANGE && fabs(v) > 1.0)) {
        *why = "value out of range: expected a number within the float range (about "
               "+-3.4e38)";
        return -1;
    }
    if (v != 0 && fabs(v) < FLT_MIN) {
        /* stored as float it would lose its precision or become 0: say so
         * rather than quietly change the data */
        *why = "value below the smallest normal float (about 1.2e-38): write 0 or rescale the "
               "feature";
        return -1;
    }
    *out = f;
    return 0;
}

/* Whether every header column is one of the n names (a model's features):
 * then a file without a "label" column holds no label column at all. */
static int header_is_features(const fields *hdr, char *const *names, size_t n)
{
    for (size_t j = 0; j < hdr->n; j++) {
        if (strcmp(hdr->f[j], "label") == 0)
            return 0;
        size_t q = 0;
        while (q < n && strcmp(hdr->f[j], names[q]) != 0)
            q++;
        if (q == n)
            return 0;
    }
    return hdr->n > 0;
}

/* Column of the label, or -1 with err set. */
static long find_label(const char *path, size_t ln, const fields *hdr, const char *want,
                       bl_error *err)
{
    const char *name = want ? want : "label";
    for (size_t j = 0; j < hdr->n; j++)
        if (strcmp(hdr->f[j], name) == 0)
            return (long)j;
    if (!want)
        return 0;
    size_t ndig = strspn(want, "0123456789");
    if (ndig > 0 && !want[ndig]) {
        errno = 0;
        unsigned long long j = strtoull(want, NULL, 10);
        if (errno || j >= hdr->n)
            return bl_errf(err, "%s:%zu: label column index %s out of range (the header has "
                           "%zu columns, numbered from 0 for this option)", path, ln, want,
                           hdr->n);
        return (long)j;
    }
    return bl_errf(err, "%s:%zu: no column named '%s' for the label (give a column name "
                   "from the header, or a 0-based column index)", path, ln, want);
}

int bl_read_csv(const char *path, const bl_csv_opts *opts, bl_classes *classes,
                bl_dataset *out, bl_error *err)
{
    memset(out, 0, sizeof *out);
    char delim = opts && opts->delim ? opts->delim : ',';
    bl_lines *r = bl_lines_open(path, err);
    if (!r)
        return -1;

    fields hdr = {0}, row = {0};
    char **names = NULL;
    size_t ncol = 0, d = 0, m = 0, cap = 0;
    float *xr = NULL; /* row-major m x d */
    int *y = NULL;
    long lab = -1;
    bl_labels *L = bl_labels_new(classes);
    char *line;
    size_t len, ln = 0;
    int rc;
    const char *why = NULL;

    /* Header: the first line that is not blank. */
    while ((rc = bl_lines_next(r, &line, &len, err)) == 1 && line_is_blank(line))
        ;
    if (rc < 0)
        goto fail;
    if (rc == 0) {
        bl_errf(err, "%s: empty file (expected a header line naming the columns, then one "
                "row per example)", path);
        goto fail;
    }
    ln = bl_lines_lineno(r);
    if ((unsigned char)line[0] == 0xEF && (unsigned char)line[1] == 0xBB &&
        (unsigned char)line[2] == 0xBF)
        line += 3; /* UTF-8 byte order mark */
    long nf = split_fields(line, delim, &hdr, &why);
    if (nf < 0) {
        bl_errf(err, "%s:%zu: column %ld of the header: %s", path, ln, -nf, why);
        goto fail;
    }
    ncol = hdr.n;
    for (size_t j = 0; j < ncol; j++) {
        if (!*hdr.f[j]) {
            bl_errf(err, "%s:%zu: column %zu: expected a column name in the header line, "
                    "got an empty field", path, ln, j + 1);
            goto fail;
        }
        for (size_t i = 0; i < j; i++)
            if (strcmp(hdr.f[i], hdr.f[j]) == 0) {
                bl_errf(err, "%s:%zu: column %zu (%s): duplicate column name (also column "
                        "%zu)", path, ln, j + 1, hdr.f[j], i + 1);
                goto fail;
            }
    }
    int no_label = opts && opts->no_label;
    if (!no_label && opts && opts->features && !opts->label)
        no_label = header_is_features(&hdr, opts->features, opts->nfeatures);
    lab = no_label ? -1 : find_label(path, ln, &hdr, opts ? opts->label : NULL, err);
    if (lab < 0 && !no_label)
        goto fail;
    if (!no_label && ncol < 2) {
        bl_errf(err, "%s:%zu: the header has only the label column '%s' (expected feature "
                "columns too; is the delimiter '%c' right?)", path, ln, hdr.f[lab], delim);
        goto fail;
    }
    /* A word in a feature column of a file without a "label" column is
     * most likely the label: say which column was taken for it. */
    int default_label =
        !no_label && (!opts || !opts->label) && strcmp(hdr.f[lab], "label") != 0;
    char default_hint[160];
    snprintf(default_hint, sizeof default_hint, " (no column is named 'label', so column 1 "
             "'%.40s' was taken as the label; choose the label column by name or index)",
             hdr.f[no_label ? 0 : lab]);
    d = no_label ? ncol : ncol - 1;
    names = bl_xmalloc(d * sizeof *names);
    for (size_t j = 0, f = 0; j < ncol; j++)
        if ((long)j != lab)
            names[f++] = bl_strdup(hdr.f[j]);

    /* Rows. */
    while ((rc = bl_lines_next(r, &line, &len, err)) == 1) {
        if (line_is_blank(line))
            continue;
        ln = bl_lines_lineno(r);
        nf = split_fields(line, delim, &row, &why);
        if (nf < 0) {
            size_t c = (size_t)-nf;
            if (c <= ncol)
                bl_errf(err, "%s:%zu: column %zu (%s): %s", path, ln, c, hdr.f[c - 1], why);
            else
                bl_errf(err, "%s:%zu: column %zu: %s", path, ln, c, why);
            goto fail;
        }
        if (row.n < ncol) {
            bl_errf(err, "%s:%zu: column %zu (%s): expected a field, but the row ends after "
                    "%zu field%s (the header has %zu columns)", path, ln, row.n + 1,
                    hdr.f[row.n], row.n, row.n == 1 ? "" : "s", ncol);
            goto fail;
        }
        if (row.n > ncol) {
            bl_errf(err, "%s:%zu: column %zu: expected the end of the row (the header has %zu "
                    "columns), got %zu fields, the first extra one '%.*s%s'", path, ln,
                    ncol + 1, ncol, row.n, SHOW(row.f[ncol]));
            goto fail;
        }
        if (m == cap) {
            cap = cap ? 2 * cap : 1024;
            xr = bl_xrealloc(xr, cap * d * sizeof *xr);
            y = bl_xrealloc(y, cap * sizeof *y);
        }
        float *dst = xr + m * d;
        for (size_t j = 0; j < ncol; j++) {
            const char *s = row.f[j];
            if ((long)j == lab) {
                if (!*s) {
                    bl_errf(err, "%s:%zu: column %zu (%s): expected a class label, got an "
                            "empty field (rows without a label are not allowed)", path, ln,
                            j + 1, hdr.f[j]);
                    goto fail;
                }
                if (bl_labels_add(L, s, ln, &y[m], err) < 0) {
                    bl_errprefix(err, "%s:%zu: column %zu (%s)", path, ln, j + 1, hdr.f[j]);
                    if (default_label && opts && opts->features) {
                        bl_error e2 = *err;
                        bl_errf(err, "%s (no column is named 'label', so column 1 was taken "
                                "as the label; a file without labels must name only the "
                                "model's features in its header)", e2.msg);
                    }
                    goto fail;
                }
                continue;
            }
            if (parse_value(s, dst++, &why) < 0) {
                bl_errf(err, "%s:%zu: column %zu (%s): %s, got '%.*s%s'%s", path, ln, j + 1,
                        hdr.f[j], why, SHOW(s), default_label ? default_hint : "");
                goto fail;
            }
        }
        m++;
    }
    if (rc < 0)
        goto fail;
    if (m == 0) {
        bl_errf(err, "%s: no data rows after the header line (expected at least one example)",
                path);
        goto fail;
    }
    size_t bad = 0;
    if (no_label) {
        for (size_t i = 0; i < m; i++)
            y[i] = -1;
    } else if (bl_labels_finish(L, y, m, classes, out, &bad, err) < 0) {
        bl_errprefix(err, "%s:%zu: column %ld (%s)", path, bad, lab + 1, hdr.f[lab]);
        goto fail;
    }

    /* Transpose in blocks of rows so both sides stay in cache. */
    out->x = bl_xmalloc(m * d * sizeof *out->x);
    for (size_t i0 = 0; i0 < m; i0 += 256) {
        size_t i1 = i0 + 256 < m ? i0 + 256 : m;
        for (size_t f = 0; f < d; f++)
            for (size_t i = i0; i < i1; i++)
                out->x[f * m + i] = xr[i * d + f];
    }
    free(xr);
    out->m = m;
    out->d = d;
    out->y = bl_xrealloc(y, m * sizeof *y);
    out->feature_names = names;
    bl_labels_free(L);
    bl_lines_close(r);
    free(hdr.f);
    free(row.f);
    return 0;

fail:
    if (names)
        for (size_t f = 0; f < d; f++)
            free(names[f]);
    free(names);
    free(xr);
    free(y);
    bl_labels_free(L);
    bl_lines_close(r);
    free(hdr.f);
    free(row.f);
    bl_dataset_free(out); /* finish may have set class names */
    return -1;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LIBSVM / SVMlight reader (see dataset.h for the format).  Rows are kept
 * in compressed sparse form while reading, then scattered once into the
 * dense feature-major matrix, absent entries being 0. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"
#include "../util/textio.h"
#include "dataset.h"

#define BL_LIBSVM_MAX_INDEX 10000000u
/* The dense matrix must stay addressable and sane: 2^31 floats = 8 GiB. */
#define BL_DENSE_MAX ((size_t)1 << 31)

#define SHOW_MAX 60
#define SHOW(s) (int)(strlen(s) > SHOW_MAX ? SHOW_MAX : strlen(s)), (s), \
    (strlen(s) > SHOW_MAX ? "..." : "")

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Next blank-separated token of *p (NUL-terminated in place), or NULL. */
static char *next_token(char **p)
{
    char *s = *p;
    while (is_space(*s))
        s++;
    if (!*s)
        return NULL;
    char *e = s;
    while (*e && !is_space(*e))
        e++;
    if (*e)
        *e++ = '\0';
    *p = e;
    return s;
}

/* Parse "idx:val".  Returns 0, or -1 with err holding the reason. */
static int parse_pair(char *tok, size_t d_hint, uint32_t prev, uint32_t *idx, float *val,
                      bl_error *err)
{
    char *colon = strchr(tok, ':');
    if (!colon)
        return bl_errf(err, "expected INDEX:VALUE, got no ':'");
    const char *is = tok, *vs = colon + 1;
    size_t ilen = (size_t)(colon - tok);
    if (ilen == 0)
        return bl_errf(err, "expected a feature index before ':'");
    if (is[0] == '-' || is[0] == '+') {
        if (is[0] == '-')
            return bl_errf(err, "expected a feature index >= 1, got a negative index %.*s",
                           (int)ilen, is);
        is++;
        ilen--;
    }
    uint64_t v = 0;
    for (size_t j = 0; j < ilen; j++) {
        if (is[j] < '0' || is[j] > '9')
            return bl_errf(err, "expected a feature index (digits) before ':', got '%.*s'",
                           (int)(colon - tok), tok);
        if (v <= BL_LIBSVM_MAX_INDEX)
            v = v * 10 + (uint64_t)(is[j] - '0');
    }
    if (ilen == 0)
        return bl_errf(err, "expected a feature index (digits) before ':'");
    if (v == 0)
        return bl_errf(err, "expected a feature index >= 1, got 0 (indices start at 1)");
    if (v > BL_LIBSVM_MAX_INDEX)
        return bl_errf(err, "feature index %.*s too large (at most %u)", (int)ilen, is,
                       BL_LIBSVM_MAX_INDEX);
    if (d_hint && v > d_hint)
        return bl_errf(err, "feature index %llu exceeds the number of features (%zu)",
                       (unsigned long long)v, d_hint);
    if (v == prev)
        return bl_errf(err, "duplicate feature index %llu", (unsigned long long)v);
    if (v < prev)
        return bl_errf(err, "feature index %llu after index %u (indices must be increasing)",
                       (unsigned long long)v, prev);
    if (!*vs)
        return bl_errf(err, "expected a value after ':'");
    char *end;
    errno = 0;
    double x = strtod(vs, &end);
    if (end == vs || *end)
        return bl_errf(err, "expected a number after ':', got '%s'", vs);
    if (isnan(x) || (isinf(x) && errno != ERANGE))
        return bl_errf(err, "expected a number after ':', got '%s' (leave an entry out "
                       "for 0; nan and inf are not allowed)", vs);
    float f = (float)x;
    if (isinf(f) || (errno == ERANGE && fabs(x) > 1.0))
        return bl_errf(err, "value '%s' out of range (the float range is about +-3.4e38)", vs);
    if (x != 0 && fabs(x) < FLT_MIN)
        return bl_errf(err, "value '%s' is below the smallest normal float (about 1.2e-38): "
                       "leave the entry out or rescale the feature", vs);
    *idx = (uint32_t)v;
    *val = f;
    return 0;
}

int bl_read_libsvm(const char *path, size_t d_hint, bl_classes *classes, bl_dataset *out,
                   bl_error *err)
{
    return bl_read_libsvm_ex(path, d_hint, BL_LIBSVM_LABELED, classes, out, err);
}

int bl_read_libsvm_ex(const char *path, size_t d_hint, int labels, bl_classes *classes,
                      bl_dataset *out, bl_error *err)
{
    memset(out, 0, sizeof *out);
    if (d_hint > BL_LIBSVM_MAX_INDEX)
        return bl_errf(err, "%s: number of features %zu too large (at most %u)", path, d_hint,
                       BL_LIBSVM_MAX_INDEX);
    bl_lines *r = bl_lines_open(path, err);
    if (!r)
        return -1;
    size_t m = 0, mcap = 0, nnz = 0, nzcap = 0, dmax = 0;
    size_t *rowptr = bl_xmalloc(sizeof *rowptr);
    uint32_t *cols = NULL;
    float *vals = NULL;
    int *y = NULL;
    bl_labels *L = bl_labels_new(classes);
    char *line;
    size_t len;
    int rc;
    rowptr[0] = 0;
    while ((rc = bl_lines_next(r, &line, &len, err)) == 1) {
        size_t ln = bl_lines_lineno(r);
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *p = line;
        char *tok = next_token(&p);
        if (!tok)
            continue;
        if (m == mcap) {
            mcap = mcap ? 2 * mcap : 1024;
            y = bl_xrealloc(y, mcap * sizeof *y);
            rowptr = bl_xrealloc(rowptr, (mcap + 1) * sizeof *rowptr);
        }
        int feature_first = strchr(tok, ':') != NULL;
        if (labels == BL_LIBSVM_AUTO)
            labels = feature_first ? BL_LIBSVM_UNLABELED : BL_LIBSVM_LABELED;
        if (labels == BL_LIBSVM_LABELED && feature_first) {
            rc = bl_errf(err, "%s:%zu: token 1 '%.*s%s': expected a class label first, got a "
                         "feature%s", path, ln, SHOW(tok),
                         m ? " (the rows before this one are labeled)" : "");
            break;
        }
        if (labels == BL_LIBSVM_UNLABELED && !feature_first) {
            rc = bl_errf(err, "%s:%zu: token 1 '%.*s%s': expected a feature INDEX:VALUE (the "
                         "file is read as unlabeled%s), got a label", path, ln, SHOW(tok),
                         m ? ": its first row starts with a feature" : "");
            break;
        }
        size_t t = 1, t0 = 1; /* t0: the first token after the label */
        if (labels == BL_LIBSVM_UNLABELED) {
            y[m] = -1;
        } else {
            if (bl_labels_add(L, tok, ln, &y[m], err) < 0) {
                rc = bl_errprefix(err, "%s:%zu: token 1 (the label)", path, ln);
                break;
            }
            tok = next_token(&p);
            t = t0 = 2;
        }
        uint32_t prev = 0;
        for (; tok; tok = next_token(&p), t++) {
            if (t == t0 && strncmp(tok, "qid:", 4) == 0)
                continue; /* SVMlight query id: irrelevant here */
            if (nnz == nzcap) {
                nzcap = nzcap ? 2 * nzcap : 4096;
                cols = bl_xrealloc(cols, nzcap * sizeof *cols);
                vals = bl_xrealloc(vals, nzcap * sizeof *vals);
            }
            if (parse_pair(tok, d_hint, prev, &cols[nnz], &vals[nnz], err) < 0) {
                rc = bl_errprefix(err, "%s:%zu: token %zu '%.*s%s'", path, ln, t, SHOW(tok));
                goto done;
            }
            prev = cols[nnz];
            if (prev > dmax)
                dmax = prev;
            nnz++;
        }
        rowptr[++m] = nnz;
    }
done:
    bl_lines_close(r);
    size_t d = d_hint ? d_hint : dmax;
    if (rc == 0 && m == 0)
        rc = bl_errf(err, "%s: no data rows (expected lines 'label index:value ...')", path);
    if (rc == 0 && d == 0)
        rc = bl_errf(err, "%s: no features in any row (every row holds only a label)", path);
    int unlabeled = labels == BL_LIBSVM_UNLABELED;
    if (rc == 0 && m > BL_DENSE_MAX / d)
        rc = bl_errf(err, "%s: %zu rows x %zu features is too large to hold as a dense "
                     "matrix", path, m, d);
    size_t bad = 0;
    if (rc == 0 && !unlabeled && bl_labels_finish(L, y, m, classes, out, &bad, err) < 0)
        rc = bl_errprefix(err, "%s:%zu: token 1 (the label)", path, bad);
    bl_labels_free(L);
    if (rc < 0) {
        free(rowptr);
        free(cols);
        free(vals);
        free(y);
        bl_dataset_free(out);
        return -1;
    }
    out->m = m;
    out->d = d;
    out->y = bl_xrealloc(y, m * sizeof *y);
    out->x = bl_xcalloc(m * d, sizeof *out->x);
    for (size_t i = 0; i < m; i++)
        for (size_t e = rowptr[i]; e < rowptr[i + 1]; e++)
            out->x[(size_t)(cols[e] - 1) * m + i] = vals[e];
    free(rowptr);
    free(cols);
    free(vals);
    out->feature_names = bl_xmalloc(d * sizeof *out->feature_names);
    for (size_t f = 0; f < d; f++) {
        char b[32];
        snprintf(b, sizeof b, "f%zu", f + 1);
        out->feature_names[f] = bl_strdup(b);
    }
    return 0;
}

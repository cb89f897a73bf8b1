/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LIBSVM / SVMlight reader (see dataset.h for the format).  Rows are kept
 * in compressed sparse form while reading; then either they become the
 * sparse set's rows (the columns built from them), or they are scattered
 * once into the dense feature-major matrix, absent entries being 0. */
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

/* Parse "idx:val".  Returns 0, 1 for an index above d_hint that is to be
 * ignored (ignore set), or -1 with err holding the reason. */
static int parse_pair(char *tok, size_t d_hint, int ignore, uint32_t prev, uint32_t *idx,
                      float *val, bl_error *err)
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
    if (d_hint && v > d_hint && !ignore)
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
    return d_hint && v > d_hint ? 1 : 0;
}

int bl_read_libsvm(const char *path, size_t d_hint, bl_classes *classes, bl_dataset *out,
                   bl_error *err)
{
    return bl_read_libsvm_ex(path, d_hint, BL_LIBSVM_LABELED, classes, out, err);
}

int bl_read_libsvm_ex(const char *path, size_t d_hint, int labels, bl_classes *classes,
                      bl_dataset *out, bl_error *err)
{
    bl_libsvm_opts o = {d_hint, labels, BL_STORAGE_DENSE, 0, NULL};
    return bl_read_libsvm_opts(path, &o, classes, out, err);
}

/* What the row reader fills: rows in CSR form, 0-based columns. */
typedef struct rows {
    size_t m, mcap, nnz, nzcap, dmax, ignored;
    size_t *rowptr;
    uint32_t *cols;
    float *vals;
    int *y;
} rows;

/* The tokens after a row's label into r; 0 or -1 (err prefixed). */
static int read_pairs(const char *path, size_t ln, char *p, char *tok, size_t t,
                      const bl_libsvm_opts *o, rows *r, bl_error *err)
{
    size_t t0 = t; /* the first token after the label */
    uint32_t prev = 0;
    for (; tok; tok = next_token(&p), t++) {
        if (t == t0 && strncmp(tok, "qid:", 4) == 0)
            continue; /* SVMlight query id: irrelevant here */
        if (r->nnz == r->nzcap) {
            r->nzcap = r->nzcap ? 2 * r->nzcap : 4096;
            r->cols = bl_xrealloc(r->cols, r->nzcap * sizeof *r->cols);
            r->vals = bl_xrealloc(r->vals, r->nzcap * sizeof *r->vals);
        }
        uint32_t idx;
        int pr = parse_pair(tok, o->d_hint, o->ignore_beyond, prev, &idx, &r->vals[r->nnz], err);
        if (pr < 0)
            return bl_errprefix(err, "%s:%zu: token %zu '%.*s%s'", path, ln, t, SHOW(tok));
        prev = idx;
        if (pr == 1) {
            r->ignored++;
            continue;
        }
        r->cols[r->nnz++] = idx - 1;
        if (idx > r->dmax)
            r->dmax = idx;
    }
    r->rowptr[++r->m] = r->nnz;
    return 0;
}

/* Every row of the file into r and its labels through L. */
static int read_rows(const char *path, const bl_libsvm_opts *o, int labels, bl_labels *L,
                     rows *r, bl_error *err)
{
    bl_lines *lr = bl_lines_open(path, err);
    if (!lr)
        return -1;
    char *line;
    size_t len;
    int rc;
    while ((rc = bl_lines_next(lr, &line, &len, err)) == 1) {
        size_t ln = bl_lines_lineno(lr);
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *p = line;
        char *tok = next_token(&p);
        if (!tok)
            continue;
        if (r->m == r->mcap) {
            r->mcap = r->mcap ? 2 * r->mcap : 1024;
            r->y = bl_xrealloc(r->y, r->mcap * sizeof *r->y);
            r->rowptr = bl_xrealloc(r->rowptr, (r->mcap + 1) * sizeof *r->rowptr);
        }
        int feature_first = strchr(tok, ':') != NULL;
        if (labels == BL_LIBSVM_AUTO)
            labels = feature_first ? BL_LIBSVM_UNLABELED : BL_LIBSVM_LABELED;
        if (labels == BL_LIBSVM_LABELED && feature_first) {
            rc = bl_errf(err, "%s:%zu: token 1 '%.*s%s': expected a class label first, got a "
                         "feature%s", path, ln, SHOW(tok),
                         r->m ? " (the rows before this one are labeled)" : "");
            break;
        }
        if (labels == BL_LIBSVM_UNLABELED && !feature_first) {
            rc = bl_errf(err, "%s:%zu: token 1 '%.*s%s': expected a feature INDEX:VALUE (the "
                         "file is read as unlabeled%s), got a label", path, ln, SHOW(tok),
                         r->m ? ": its first row starts with a feature" : "");
            break;
        }
        size_t t = 1;
        if (labels == BL_LIBSVM_UNLABELED) {
            r->y[r->m] = -1;
        } else {
            if (bl_labels_add(L, tok, ln, &r->y[r->m], err) < 0) {
                rc = bl_errprefix(err, "%s:%zu: token 1 (the label)", path, ln);
                break;
            }
            tok = next_token(&p);
            t = 2;
        }
        if ((rc = read_pairs(path, ln, p, tok, t, o, r, err)) < 0)
            break;
    }
    bl_lines_close(lr);
    return rc < 0 ? -1 : labels;
}

int bl_read_libsvm_opts(const char *path, const bl_libsvm_opts *o, bl_classes *classes,
                        bl_dataset *out, bl_error *err)
{
    memset(out, 0, sizeof *out);
    if (o->ignored)
        *o->ignored = 0;
    if (o->d_hint > BL_LIBSVM_MAX_INDEX)
        return bl_errf(err, "%s: number of features %zu too large (at most %u)", path,
                       o->d_hint, BL_LIBSVM_MAX_INDEX);
    rows r;
    memset(&r, 0, sizeof r);
    r.rowptr = bl_xcalloc(1, sizeof *r.rowptr);
    bl_labels *L = bl_labels_new(classes);
    int labels = read_rows(path, o, o->labels, L, &r, err);
    int rc = labels < 0 ? -1 : 0;
    size_t d = o->d_hint ? o->d_hint : r.dmax;
    if (rc == 0 && r.m == 0)
        rc = bl_errf(err, "%s: no data rows (expected lines 'label index:value ...')", path);
    if (rc == 0 && d == 0)
        rc = bl_errf(err, "%s: no features in any row (every row holds only a label)", path);
    int sparse = o->storage == BL_STORAGE_SPARSE ||
                 (o->storage == BL_STORAGE_AUTO && bl_storage_sparse_pays(r.m, d, r.nnz));
    if (rc == 0 && !sparse && r.m > BL_DENSE_MAX / d)
        rc = bl_errf(err, "%s: %zu rows x %zu features is too large to hold as a dense "
                     "matrix (storage = sparse holds its %zu non-zeros)", path, r.m, d, r.nnz);
    size_t bad = 0;
    if (rc == 0 && labels != BL_LIBSVM_UNLABELED &&
        bl_labels_finish(L, r.y, r.m, classes, out, &bad, err) < 0)
        rc = bl_errprefix(err, "%s:%zu: token 1 (the label)", path, bad);
    bl_labels_free(L);
    if (rc < 0) {
        free(r.rowptr);
        free(r.cols);
        free(r.vals);
        free(r.y);
        bl_dataset_free(out);
        return -1;
    }
    if (o->ignored)
        *o->ignored = r.ignored;
    out->m = r.m;
    out->d = d;
    out->y = bl_xrealloc(r.y, r.m * sizeof *r.y);
    if (sparse) {
        r.cols = bl_xrealloc(r.cols, (r.nnz ? r.nnz : 1) * sizeof *r.cols);
        r.vals = bl_xrealloc(r.vals, (r.nnz ? r.nnz : 1) * sizeof *r.vals);
        out->sp = bl_spmat_from_csr(r.m, d, r.rowptr, r.cols, r.vals);
        return 0; /* names implied */
    }
    out->x = bl_xcalloc(r.m * d, sizeof *out->x);
    for (size_t i = 0; i < r.m; i++)
        for (size_t e = r.rowptr[i]; e < r.rowptr[i + 1]; e++)
            out->x[(size_t)r.cols[e] * r.m + i] = r.vals[e];
    free(r.rowptr);
    free(r.cols);
    free(r.vals);
    out->feature_names = bl_xmalloc(d * sizeof *out->feature_names);
    for (size_t f = 0; f < d; f++) {
        char b[32];
        out->feature_names[f] = bl_strdup(bl_feature_name(NULL, f, b));
    }
    return 0;
}

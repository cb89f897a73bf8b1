/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Data sets in memory: freeing, row subsets, .classes files, and the label
 * collector the readers share, which turns label texts into class indices
 * by the rules written down in dataset.h. */
#include "dataset.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"
#include "../util/rng.h"
#include "../util/textio.h"

#define BL_MAX_CLASS_INDEX 65535

/* ---- freeing and subsets --------------------------------------------- */

static void free_names(char **names, size_t n)
{
    if (!names)
        return;
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static char **copy_names(char *const *names, size_t n)
{
    if (!names)
        return NULL;
    char **c = bl_xmalloc((n ? n : 1) * sizeof *c);
    for (size_t i = 0; i < n; i++)
        c[i] = bl_strdup(names[i]);
    return c;
}

void bl_classes_free(bl_classes *c)
{
    if (!c)
        return;
    free_names(c->names, c->k);
    memset(c, 0, sizeof *c);
}

void bl_dataset_free(bl_dataset *ds)
{
    if (!ds)
        return;
    free(ds->y);
    free(ds->x);
    bl_spmat_free(ds->sp);
    free_names(ds->feature_names, ds->d);
    free_names(ds->class_names, ds->k);
    memset(ds, 0, sizeof *ds);
}

int bl_dataset_subset(const bl_dataset *src, const size_t *rows, size_t n,
                      bl_dataset *out, bl_error *err)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n; i++)
        if (rows[i] >= src->m)
            return bl_errf(err, "subset: row index %zu out of range (the data set has %zu rows)",
                           rows[i], src->m);
    out->m = n;
    out->d = src->d;
    out->k = src->k;
    out->y = bl_xmalloc((n ? n : 1) * sizeof *out->y);
    for (size_t i = 0; i < n; i++)
        out->y[i] = src->y[rows[i]];
    if (src->sp)
        bl_spmat_subset(src, rows, n, out);
    else
        out->x = bl_xmalloc(n * src->d * sizeof *out->x); /* bl_xmalloc(0) is fine */
    for (size_t f = 0; f < src->d && !src->sp; f++) {
        const float *col = src->x + f * src->m;
        float *dst = out->x + f * n;
        for (size_t i = 0; i < n; i++)
            dst[i] = col[rows[i]];
    }
    out->feature_names = copy_names(src->feature_names, src->d);
    out->class_names = copy_names(src->class_names, src->k);
    return 0;
}

int bl_dataset_keep_classes(const bl_dataset *src, const size_t *cls, size_t n,
                            bl_dataset *out, bl_error *err)
{
    memset(out, 0, sizeof *out);
    int *map = bl_xmalloc((src->k ? src->k : 1) * sizeof *map);
    for (size_t c = 0; c < src->k; c++)
        map[c] = -1;
    for (size_t j = 0; j < n; j++) {
        if (cls[j] >= src->k || map[cls[j]] >= 0) {
            free(map);
            return bl_errf(err, "class subset: class index %zu is out of range or repeated",
                           cls[j]);
        }
        map[cls[j]] = (int)j;
    }
    size_t *rows = bl_xmalloc((src->m ? src->m : 1) * sizeof *rows), nr = 0;
    for (size_t i = 0; i < src->m; i++)
        if (map[src->y[i]] >= 0)
            rows[nr++] = i;
    int rc = bl_dataset_subset(src, rows, nr, out, err);
    free(rows);
    if (rc == 0) {
        for (size_t i = 0; i < nr; i++)
            out->y[i] = map[out->y[i]];
        for (size_t c = 0; c < out->k; c++)
            free(out->class_names[c]);
        free(out->class_names);
        out->k = n;
        out->class_names = bl_xmalloc((n ? n : 1) * sizeof *out->class_names);
        for (size_t j = 0; j < n; j++)
            out->class_names[j] = bl_strdup(src->class_names[cls[j]]);
    }
    free(map);
    return rc;
}

/* ---- field helpers ---------------------------------------------------- */

char *bl_strip_field(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
        s[n - 1] = '\0';
        s++;
    }
    return s;
}

/* ---- .classes files --------------------------------------------------- */

int bl_read_class_names(const char *path, bl_classes *out, bl_error *err)
{
    memset(out, 0, sizeof *out);
    bl_lines *r = bl_lines_open(path, err);
    if (!r)
        return -1;
    size_t cap = 16, blank_line = 0;
    char **names = bl_xmalloc(cap * sizeof *names);
    size_t *where = bl_xmalloc(cap * sizeof *where);
    size_t k = 0;
    char *line;
    size_t len;
    int rc;
    while ((rc = bl_lines_next(r, &line, &len, err)) == 1) {
        size_t ln = bl_lines_lineno(r);
        char *s = bl_strip_field(line);
        if (!*s) {
            if (!blank_line)
                blank_line = ln;
            continue;
        }
        if (blank_line) {
            rc = bl_errf(err, "%s:%zu: empty class name (line i names class i-1, so blank "
                         "lines are only allowed at the end)", path, blank_line);
            break;
        }
        for (size_t j = 0; j < k; j++)
            if (strcmp(names[j], s) == 0) {
                rc = bl_errf(err, "%s:%zu: duplicate class name '%s' (also on line %zu)", path,
                             ln, s, where[j]);
                goto done;
            }
        if (k == cap) {
            cap *= 2;
            names = bl_xrealloc(names, cap * sizeof *names);
            where = bl_xrealloc(where, cap * sizeof *where);
        }
        where[k] = ln;
        names[k++] = bl_strdup(s);
    }
    if (rc == 0 && k == 0)
        rc = bl_errf(err, "%s: no class names (expected one name per line)", path);
done:
    bl_lines_close(r);
    free(where);
    if (rc < 0) {
        free_names(names, k);
        return -1;
    }
    out->k = k;
    out->names = names;
    out->fixed = BL_CLASSES_FILE;
    return 0;
}

/* ---- string -> int hash map (open addressing) ------------------------- */

typedef struct strmap {
    size_t cap, n;     /* cap is a power of two */
    char **keys;
    int *vals;
} strmap;

static uint64_t hash_str(const char *s)
{
    return bl_hash64(s, strlen(s));
}

static void strmap_init(strmap *m)
{
    m->cap = 16;
    m->n = 0;
    m->keys = bl_xcalloc(m->cap, sizeof *m->keys);
    m->vals = bl_xmalloc(m->cap * sizeof *m->vals);
}

static void strmap_free(strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
}

static int *strmap_get(const strmap *m, const char *key)
{
    for (size_t i = hash_str(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i])
            return NULL;
        if (strcmp(m->keys[i], key) == 0)
            return &m->vals[i];
    }
}

static void strmap_put(strmap *m, const char *key, int val);

static void strmap_grow(strmap *m)
{
    strmap old = *m;
    m->cap *= 2;
    m->n = 0;
    m->keys = bl_xcalloc(m->cap, sizeof *m->keys);
    m->vals = bl_xmalloc(m->cap * sizeof *m->vals);
    for (size_t i = 0; i < old.cap; i++)
        if (old.keys[i])
            strmap_put(m, old.keys[i], old.vals[i]);
    strmap_free(&old);
}

/* Insert a key that is not in the map yet. */
static void strmap_put(strmap *m, const char *key, int val)
{
    if (2 * (m->n + 1) > m->cap)
        strmap_grow(m);
    size_t i = hash_str(key) & (m->cap - 1);
    while (m->keys[i])
        i = (i + 1) & (m->cap - 1);
    m->keys[i] = bl_strdup(key);
    m->vals[i] = val;
    m->n++;
}

/* ---- labels ----------------------------------------------------------- */

struct bl_labels {
    const bl_classes *fixed; /* NULL: build a table                       */
    int by_index;            /* fixed table: integers >= 0 are indices    */
    strmap seen;             /* label text as written -> id               */
    /* Building: distinct labels by canonical text, in order first seen. */
    strmap canon_ids;
    size_t n, cap;
    char **canon;
    int *isnum;
    long long *val;
    size_t *where;           /* line (or item) where first seen           */
};

/* Label texts that look like numbers: [+-]digit... or [+-].digit...;
 * "nan" and "inf" are not numbers here (they would be names). */
static int looks_numeric(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    if (*s == '.')
        s++;
    return *s >= '0' && *s <= '9';
}

/* Canonical form of label s in *canon: integers as "%lld" (written to
 * numbuf), names as they are.  Returns 1 for a number (value in *v), 0 for a
 * name, -1 on error. */
static int canonical(const char *s, char numbuf[32], const char **canon, long long *v,
                     bl_error *err)
{
    *canon = s;
    if (!looks_numeric(s))
        return 0;
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (*end) { /* "3abc", "1,2": a name after all, but a suspicious one */
        if (strchr(s, ','))
            return bl_errf(err, "expected one class label, got '%s' (multi-label data "
                           "is not supported)", s);
        return 0;
    }
    if (errno == ERANGE || !isfinite(x) || fabs(x) > 1e15)
        return bl_errf(err, "expected an integer class label or a class name, got '%s' "
                       "(out of range)", s);
    if (x != floor(x))
        return bl_errf(err, "expected an integer class label or a class name, got '%s' "
                       "(class labels cannot be fractional)", s);
    *v = (long long)x;
    snprintf(numbuf, 32, "%lld", *v);
    *canon = numbuf;
    return 1;
}

/* "a, b, c, ..." listing of a table, for error messages. */
static void list_names(const bl_classes *c, char *buf, size_t bufsz)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t j = 0; j < c->k && o + 1 < bufsz; j++) {
        if (j == 12) {
            snprintf(buf + o, bufsz - o, ", ... (%zu in all)", c->k);
            return;
        }
        int w = snprintf(buf + o, bufsz - o, "%s%s", j ? ", " : "", c->names[j]);
        if (w < 0)
            return;
        o += (size_t)w;
    }
}

bl_labels *bl_labels_new(const bl_classes *fixed_or_null)
{
    bl_labels *L = bl_xcalloc(1, sizeof *L);
    L->fixed = fixed_or_null && fixed_or_null->fixed ? fixed_or_null : NULL;
    if (L->fixed && L->fixed->fixed != BL_CLASSES_BUILT) {
        /* A class named by a negative number means the names are label
         * values, not a list indexed from 0: then labels are names. */
        L->by_index = 1;
        for (size_t j = 0; j < L->fixed->k; j++) {
            char numbuf[32];
            const char *canon;
            long long v;
            if (canonical(L->fixed->names[j], numbuf, &canon, &v, NULL) == 1 && v < 0)
                L->by_index = 0;
        }
    }
    strmap_init(&L->seen);
    strmap_init(&L->canon_ids);
    return L;
}

void bl_labels_free(bl_labels *L)
{
    if (!L)
        return;
    strmap_free(&L->seen);
    strmap_free(&L->canon_ids);
    free_names(L->canon, L->n);
    free(L->isnum);
    free(L->val);
    free(L->where);
    free(L);
}

/* Class index of a label not seen before, through the fixed table. */
static int resolve_fixed(const bl_classes *c, int by_index, const char *s, const char *canon,
                         int isnum, long long v, bl_error *err)
{
    char list[512];
    if (isnum && v >= 0 && by_index) {
        if ((unsigned long long)v < c->k)
            return (int)v;
        list_names(c, list, sizeof list);
        return bl_errf(err, "class index %lld out of range: the class table has %zu "
                       "classes (%s), numbered from 0", v, c->k, list);
    }
    for (size_t j = 0; j < c->k; j++)
        if (strcmp(c->names[j], s) == 0)
            return (int)j;
    for (size_t j = 0; j < c->k; j++)
        if (strcmp(c->names[j], canon) == 0)
            return (int)j;
    list_names(c, list, sizeof list);
    return bl_errf(err, "unknown class '%s' (the class table has: %s)", s, list);
}

int bl_labels_add(bl_labels *L, const char *s, size_t where, int *id, bl_error *err)
{
    int *hit = strmap_get(&L->seen, s);
    if (hit) {
        *id = *hit;
        return 0;
    }
    if (!*s)
        return bl_errf(err, "expected a class label, got an empty field");
    char numbuf[32];
    const char *canon;
    long long v = 0;
    int isnum = canonical(s, numbuf, &canon, &v, err);
    if (isnum < 0)
        return -1;
    int r;
    if (L->fixed) {
        r = resolve_fixed(L->fixed, L->by_index, s, canon, isnum, v, err);
        if (r < 0)
            return -1;
    } else {
        int *c = strmap_get(&L->canon_ids, canon);
        if (c) {
            r = *c;
        } else {
            if (L->n == L->cap) {
                L->cap = L->cap ? 2 * L->cap : 16;
                L->canon = bl_xrealloc(L->canon, L->cap * sizeof *L->canon);
                L->isnum = bl_xrealloc(L->isnum, L->cap * sizeof *L->isnum);
                L->val = bl_xrealloc(L->val, L->cap * sizeof *L->val);
                L->where = bl_xrealloc(L->where, L->cap * sizeof *L->where);
            }
            r = (int)L->n;
            L->canon[L->n] = bl_strdup(canon);
            L->isnum[L->n] = isnum;
            L->val[L->n] = v;
            L->where[L->n] = where;
            L->n++;
            strmap_put(&L->canon_ids, canon, r);
        }
    }
    strmap_put(&L->seen, s, r);
    *id = r;
    return 0;
}

/* Sort keys for numbering the distinct labels (no global context, so
 * readers may run in several threads at once). */
typedef struct label_key {
    const char *s;
    long long v;
    int id;
} label_key;

static int cmp_num(const void *a, const void *b)
{
    long long x = ((const label_key *)a)->v, y = ((const label_key *)b)->v;
    return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(((const label_key *)a)->s, ((const label_key *)b)->s);
}

int bl_labels_finish(bl_labels *L, int *y, size_t n, bl_classes *classes, bl_dataset *ds,
                     size_t *bad_where, bl_error *err)
{
    if (L->fixed) {
        ds->k = L->fixed->k;
        ds->class_names = copy_names(L->fixed->names, L->fixed->k);
        return 0;
    }
    size_t nd = L->n;
    int all_num = 1, all_nonneg = 1;
    long long max = -1;
    size_t argmax = 0;
    for (size_t j = 0; j < nd; j++) {
        if (!L->isnum[j])
            all_num = 0;
        else if (L->val[j] < 0)
            all_nonneg = 0;
        else if (L->val[j] > max) {
            max = L->val[j];
            argmax = j;
        }
    }
    size_t k;
    char **names;
    int *map = bl_xmalloc((nd ? nd : 1) * sizeof *map);
    /* Labels 0..k-1, each present, are indices; anything else (gaps, such
     * as LIBSVM's 1..k, negative numbers, words) is numbered in sorted
     * order, so no class is ever empty. */
    if (all_num && all_nonneg && (size_t)(max + 1) == nd) {
        if (max > BL_MAX_CLASS_INDEX) {
            free(map);
            *bad_where = L->where[argmax];
            return bl_errf(err, "class label %lld is too large to be a class index (at most "
                           "%d); give a .classes table to name the classes", max,
                           BL_MAX_CLASS_INDEX);
        }
        k = nd ? (size_t)max + 1 : 0;
        names = bl_xmalloc((k ? k : 1) * sizeof *names);
        for (size_t c = 0; c < k; c++) {
            char b[32];
            snprintf(b, sizeof b, "%zu", c);
            names[c] = bl_strdup(b);
        }
        for (size_t j = 0; j < nd; j++)
            map[j] = (int)L->val[j];
    } else {
        label_key *order = bl_xmalloc((nd ? nd : 1) * sizeof *order);
        for (size_t j = 0; j < nd; j++)
            order[j] = (label_key){L->canon[j], L->val[j], (int)j};
        qsort(order, nd, sizeof *order, all_num ? cmp_num : cmp_str);
        k = nd;
        names = bl_xmalloc((k ? k : 1) * sizeof *names);
        for (size_t c = 0; c < k; c++) {
            names[c] = bl_strdup(order[c].s);
            map[order[c].id] = (int)c;
        }
        free(order);
    }
    for (size_t i = 0; i < n; i++)
        y[i] = map[y[i]];
    free(map);
    ds->k = k;
    ds->class_names = names;
    if (classes) {
        classes->k = k;
        classes->names = copy_names(names, k);
        classes->fixed = BL_CLASSES_BUILT;
    }
    return 0;
}

int bl_dataset_drop_features(bl_dataset *ds, const char *names, bl_error *err)
{
    unsigned char *drop = bl_xcalloc(ds->d ? ds->d : 1, 1);
    char *copy = bl_strdup(names), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        tok = bl_strip_field(tok);
        size_t f = 0;
        char b[32];
        while (f < ds->d && strcmp(bl_feature_name(ds->feature_names, f, b), tok) != 0)
            f++;
        if (f == ds->d) {
            bl_errf(err, "no feature named '%s'", tok);
            free(copy);
            free(drop);
            return -1;
        }
        drop[f] = 1;
    }
    free(copy);
    if (!ds->feature_names) { /* implied names would shift: write them out */
        ds->feature_names = bl_xmalloc((ds->d ? ds->d : 1) * sizeof *ds->feature_names);
        for (size_t f = 0; f < ds->d; f++) {
            char b[32];
            ds->feature_names[f] = bl_strdup(bl_feature_name(NULL, f, b));
        }
    }
    size_t keep = 0;
    size_t *map = ds->sp ? bl_xmalloc((ds->d ? ds->d : 1) * sizeof *map) : NULL;
    for (size_t f = 0; f < ds->d; f++) {
        if (map)
            map[f] = drop[f] ? (size_t)-1 : keep;
        if (drop[f]) {
            free(ds->feature_names[f]);
            continue;
        }
        /* columns are contiguous, so a kept one moves down in one piece */
        if (ds->x)
            memmove(ds->x + keep * ds->m, ds->x + f * ds->m, ds->m * sizeof *ds->x);
        ds->feature_names[keep++] = ds->feature_names[f];
    }
    if (map)
        bl_spmat_keep_features(ds, map, keep);
    free(map);
    ds->d = keep;
    free(drop);
    return 0;
}

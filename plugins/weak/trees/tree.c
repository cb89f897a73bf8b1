/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Trees plugin: the forest hypothesis (tree.h): building, prediction and the
 * one-line text form of model files,
 *
 *     forest K T  tree N NODE...  tree N NODE...
 *     NODE = s FEATURE THRESHOLD LEFT RIGHT [miss=r]  |  l COUNT CLASS VALUE ...
 *
 * miss=r: missing values go right at that split; without it, left (models
 * written before the side was learnt have none).
 *
 * Children come after their parent (LEFT, RIGHT > the node's index), which
 * the loader checks, so a loaded tree has no cycles and every walk ends.
 */
#include "tree.h"

#include "../../common/sbuf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("trees: out of memory\n", stderr);
        abort();
    }
    return q;
}

struct forest *forest_new(size_t k)
{
    struct forest *f = xrealloc(NULL, sizeof *f);
    memset(f, 0, sizeof *f);
    f->k = k;
    return f;
}

void forest_free(struct forest *f)
{
    if (!f)
        return;
    for (size_t j = 0; j < f->ntrees; j++) {
        free(f->t[j].node);
        free(f->t[j].ent);
    }
    free(f->t);
    free(f);
}

struct tree *forest_add(struct forest *f, uint32_t nnodes, uint32_t nent)
{
    if (f->ntrees == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 4;
        f->t = xrealloc(f->t, f->cap * sizeof *f->t);
    }
    f->apart = 0; /* until forest_seal looks again */
    struct tree *t = &f->t[f->ntrees++];
    t->nnodes = nnodes;
    t->nent = nent;
    t->node = xrealloc(NULL, nnodes * sizeof *t->node);
    t->ent = xrealloc(NULL, nent * sizeof *t->ent);
    return t;
}

/* The leaf example i of X (dense) or S (sparse, X NULL) falls in. */
static inline const struct tnode *leaf_of(const struct tree *t, const struct bl_matrix *X,
                                          const struct bl_sparse *S, size_t i)
{
    const struct tnode *n = t->node;
    while (n->feat >= 0) {
        float v = X ? X->x[(size_t)n->feat * X->m + i] : sparse_at(S, i, (uint32_t)n->feat);
        n = t->node + (v > n->thr || (n->mr && isnan(v)) ? n->b : n->a);
    }
    return n;
}

static void add_outputs(const struct forest *f, const struct bl_matrix *X,
                        const struct bl_sparse *S, size_t m, const double *w, double *F);

/* predict_add with every weight 1: 0 + 1 v is v (the sum never starts
 * from -0), so these are the summed outputs, bit for bit. */
static void predict_rows(const struct forest *f, const struct bl_matrix *X,
                         const struct bl_sparse *S, size_t m, double *out)
{
    size_t k = f->k;
    double *one = xrealloc(NULL, k * sizeof *one);
    for (size_t r = 0; r < k; r++)
        one[r] = 1.0;
    memset(out, 0, m * k * sizeof *out);
    add_outputs(f, X, S, m, one, out);
    free(one);
}

void forest_predict(const struct forest *f, const struct bl_matrix *X, double *out)
{
    predict_rows(f, X, NULL, X->m, out);
}

void forest_predict_sparse(const struct forest *f, const struct bl_sparse *X, double *out)
{
    predict_rows(f, NULL, X, X->m, out);
}

/* Does every class occur in at most one tree, and at most once in each
 * leaf?  Then each row's output in a class is one leaf entry, so adding
 * w_r v entry by entry is the same as adding w_r times the summed output. */
static int classes_apart(const struct forest *f, uint32_t *owner, uint32_t *inleaf)
{
    /* 1 + the tree a class is in; 1 + the last leaf (counted over the
     * forest) that holds it */
    memset(owner, 0, f->k * sizeof *owner);
    memset(inleaf, 0, f->k * sizeof *inleaf);
    uint32_t leaves = 0;
    for (size_t j = 0; j < f->ntrees; j++) {
        const struct tree *t = &f->t[j];
        for (uint32_t q = 0; q < t->nnodes; q++) {
            const struct tnode *n = &t->node[q];
            if (n->feat >= 0)
                continue;
            leaves++;
            for (uint32_t e = n->a; e < n->a + n->b; e++) {
                uint32_t c = t->ent[e].cls;
                if (inleaf[c] == leaves || (owner[c] && owner[c] != j + 1))
                    return 0;
                inleaf[c] = leaves;
                owner[c] = (uint32_t)j + 1;
            }
        }
    }
    return 1;
}

void forest_seal(struct forest *f)
{
    uint32_t *owner = xrealloc(NULL, 2 * f->k * sizeof *owner);
    f->apart = classes_apart(f, owner, owner + f->k);
    free(owner);
}

/* forest_predict_add over m rows of X or, X NULL, of S. */
static void add_outputs(const struct forest *f, const struct bl_matrix *X,
                        const struct bl_sparse *S, size_t m, const double *w, double *F)
{
    size_t k = f->k;
    if (f->apart) { /* AOSO's one tree, K-LogitBoost's, LogitBoost's k one-class trees */
        for (size_t j = 0; j < f->ntrees; j++) {
            const struct tree *t = &f->t[j];
            /* rows apart on the threads (each row's F its own): scoring a
             * test set was a serial section of every iteration */
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (m >= 4096)
#endif
            for (size_t i = 0; i < m; i++) {
                const struct tnode *n = leaf_of(t, X, S, i);
                for (uint32_t e = n->a; e < n->a + n->b; e++)
                    F[i * k + t->ent[e].cls] += w[t->ent[e].cls] * t->ent[e].v;
            }
        }
        return;
    }
    /* ABC's trees share their base class: each row's outputs summed over the
     * trees first, as forest_predict does */
    double *acc = xrealloc(NULL, k * sizeof *acc);
    for (size_t i = 0; i < m; i++) {
        memset(acc, 0, k * sizeof *acc);
        for (size_t j = 0; j < f->ntrees; j++) {
            const struct tree *t = &f->t[j];
            const struct tnode *n = leaf_of(t, X, S, i);
            for (uint32_t e = n->a; e < n->a + n->b; e++)
                acc[t->ent[e].cls] += t->ent[e].v;
        }
        for (size_t r = 0; r < k; r++)
            F[i * k + r] += w[r] * acc[r];
    }
    free(acc);
}

void forest_predict_add(const struct forest *f, const struct bl_matrix *X, const double *w,
                        double *F)
{
    add_outputs(f, X, NULL, X->m, w, F);
}

/* ---- text form ------------------------------------------------------------ */

/* %.9g reads back as the same float, %.17g as the same double. */
int forest_save(const struct forest *f, char *buf, size_t cap)
{
    struct sbuf b = {buf, cap, 0};
    if (cap)
        buf[0] = 0;
    sb_printf(&b, "forest %zu %zu", f->k, f->ntrees);
    for (size_t j = 0; j < f->ntrees; j++) {
        const struct tree *t = &f->t[j];
        sb_printf(&b, "  tree %u", t->nnodes);
        for (uint32_t q = 0; q < t->nnodes; q++) {
            const struct tnode *n = &t->node[q];
            if (n->feat >= 0) {
                sb_printf(&b, " s %d %.9g %u %u%s", n->feat, (double)n->thr, n->a, n->b,
                          n->mr ? " miss=r" : "");
                continue;
            }
            sb_printf(&b, " l %u", n->b);
            for (uint32_t e = n->a; e < n->a + n->b; e++)
                sb_printf(&b, " %u %.17g", t->ent[e].cls, t->ent[e].v);
        }
    }
    return b.len > (size_t)INT32_MAX ? -1 : (int)b.len;
}

/* A cursor over the text with the first problem it met. */
struct rd {
    const char *p;
    char *err;
    size_t errcap;
    int bad;
};

static void rd_fail(struct rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void rd_fail(struct rd *r, const char *fmt, ...)
{
    if (r->bad)
        return;
    r->bad = 1;
    int n = snprintf(r->err, r->errcap, "trees: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err + n, r->errcap - (size_t)n, fmt, ap);
    va_end(ap);
}

static void skip_ws(struct rd *r)
{
    while (*r->p == ' ' || *r->p == '\t')
        r->p++;
}

static int rd_word(struct rd *r, const char *w)
{
    skip_ws(r);
    size_t n = strlen(w);
    if (r->bad || strncmp(r->p, w, n) != 0 || (r->p[n] && r->p[n] != ' ')) {
        rd_fail(r, "expected '%s' at \"%.20s\"", w, r->p);
        return -1;
    }
    r->p += n;
    return 0;
}

static unsigned long rd_uint(struct rd *r, unsigned long max, const char *what)
{
    skip_ws(r);
    if (r->bad)
        return 0;
    char *end;
    errno = 0;
    unsigned long v = strtoul(r->p, &end, 10);
    if (end == r->p || *r->p == '-' || *r->p == '+' || errno || v > max) {
        rd_fail(r, "%s: expected a whole number <= %lu at \"%.20s\"", what, max, r->p);
        return 0;
    }
    r->p = end;
    return v;
}

static double rd_real(struct rd *r, const char *what)
{
    skip_ws(r);
    if (r->bad)
        return 0;
    char *end;
    errno = 0;
    double v = strtod(r->p, &end);
    if (end == r->p || !isfinite(v)) {
        rd_fail(r, "%s: expected a finite number at \"%.20s\"", what, r->p);
        return 0;
    }
    r->p = end;
    return v;
}

/* Trees of at most this many nodes / entries per leaf: a guard against
 * absurd counts in a damaged file, far above any J a user would ask. */
#define MAX_NODES 1000000ul

static void read_tree(struct rd *r, struct forest *f, size_t d)
{
    if (rd_word(r, "tree") < 0)
        return;
    uint32_t nn = (uint32_t)rd_uint(r, MAX_NODES, "node count");
    if (r->bad)
        return;
    if (nn == 0) {
        rd_fail(r, "a tree with no nodes");
        return;
    }
    struct tree *t = forest_add(f, nn, 0);
    size_t cap = 0;
    for (uint32_t q = 0; q < nn && !r->bad; q++) {
        struct tnode *n = &t->node[q];
        skip_ws(r);
        if (r->p[0] == 's' && r->p[1] == ' ') {
            r->p++;
            n->feat = (int32_t)rd_uint(r, d ? d - 1 : 0, "feature");
            double thr = rd_real(r, "threshold");
            n->thr = (float)thr;
            if (!r->bad && !isfinite(n->thr))
                rd_fail(r, "node %u: threshold %g is beyond the range of a float", q, thr);
            n->a = (uint32_t)rd_uint(r, nn - 1, "left child");
            n->b = (uint32_t)rd_uint(r, nn - 1, "right child");
            if (!r->bad && (n->a <= q || n->b <= q))
                rd_fail(r, "node %u: a child (%u, %u) must come after its parent", q, n->a, n->b);
            skip_ws(r);
            n->mr = strncmp(r->p, "miss=r", 6) == 0 && (r->p[6] == ' ' || !r->p[6]);
            if (n->mr)
                r->p += 6;
        } else if (r->p[0] == 'l' && r->p[1] == ' ') {
            r->p++;
            n->feat = -1;
            n->mr = 0;
            n->b = (uint32_t)rd_uint(r, f->k, "entry count");
            n->a = t->nent;
            if (t->nent + n->b > cap) {
                cap = 2 * (t->nent + n->b);
                t->ent = xrealloc(t->ent, cap * sizeof *t->ent);
            }
            for (uint32_t e = 0; e < n->b && !r->bad; e++) {
                t->ent[t->nent].cls = (uint32_t)rd_uint(r, f->k - 1, "class");
                t->ent[t->nent].v = rd_real(r, "leaf value");
                t->nent++;
            }
        } else {
            rd_fail(r, "expected a node ('s ...' or 'l ...') at \"%.20s\"", r->p);
        }
    }
}

struct forest *forest_load(const char *text, size_t d, char *err, size_t errcap)
{
    struct rd r = {text, err, errcap, 0};
    rd_word(&r, "forest");
    size_t k = rd_uint(&r, 1u << 20, "classes");
    size_t nt = rd_uint(&r, MAX_NODES, "tree count");
    if (!r.bad && k < 2)
        rd_fail(&r, "a forest needs at least 2 classes, not %zu", k);
    if (!r.bad && d == 0)
        rd_fail(&r, "the model's data has no features");
    if (r.bad)
        return NULL;
    struct forest *f = forest_new(k);
    for (size_t j = 0; j < nt && !r.bad; j++)
        read_tree(&r, f, d);
    skip_ws(&r);
    if (!r.bad && *r.p && *r.p != '\n' && *r.p != '\r')
        rd_fail(&r, "unexpected text after the last tree: \"%.20s\"", r.p);
    if (r.bad) {
        forest_free(f);
        return NULL;
    }
    forest_seal(f);
    return f;
}

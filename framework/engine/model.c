/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Models: prediction and the model file (see model.h).  Layout:
 *
 *   boostlab-model 1
 *   sdk 1.0
 *   weak stump
 *   classes K
 *   class NAME            (K lines)
 *   features D
 *   feature NAME          (D lines)
 *   algorithm LINE        (0 or more lines of resolved INI, provenance)
 *   projection NAME SEED  (format 2 only, RBoost-rank: inputs go through
 *   projection.KEY VALUE   this projection; one line per parameter)
 *   terms T
 *   term OUTDIM W1 .. WK [code HDIM M11 .. MKH] | HYPOTHESIS-TEXT  (T lines)
 *   crc32 XXXXXXXX        (CRC-32 of every byte above this line)
 */
#include "model.h"

#include <boostlab/weak.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../util/fsutil.h"
#include "project.h"

static char **copy_names(char *const *names, size_t n)
{
    char **c = bl_xcalloc(n, sizeof *c);
    for (size_t j = 0; j < n; j++)
        c[j] = bl_strdup(names ? names[j] : "");
    return c;
}

/* Point mo's d feature names at offsets off[] of its pool. */
static void pool_names(bl_model *mo, const size_t *off, size_t d)
{
    mo->feature_names = bl_xcalloc(d ? d : 1, sizeof *mo->feature_names);
    for (size_t j = 0; j < d; j++)
        mo->feature_names[j] = mo->feature_pool + off[j];
}

void bl_model_init(bl_model *mo, const struct bl_plugin *weak, size_t k, size_t d,
                   char *const *class_names, char *const *feature_names)
{
    memset(mo, 0, sizeof *mo);
    mo->weak = weak;
    mo->k = k;
    mo->d = d;
    mo->class_names = copy_names(class_names, k);
    if (feature_names) {
        mo->feature_names = copy_names(feature_names, d);
        return;
    }
    if (!d) /* nothing to name; bl_model_load reads the names later */
        return;
    /* a sparse set's implied names, f1 .. fd, in one block */
    size_t len = 0, *off = bl_xmalloc((d ? d : 1) * sizeof *off);
    char b[32];
    for (size_t j = 0; j < d; j++)
        len += (size_t)snprintf(b, sizeof b, "f%zu", j + 1) + 1;
    mo->feature_pool = bl_xmalloc(len ? len : 1);
    len = 0;
    for (size_t j = 0; j < d; j++) {
        off[j] = len;
        len += (size_t)snprintf(mo->feature_pool + len, 32, "f%zu", j + 1) + 1;
    }
    pool_names(mo, off, d);
    free(off);
}

void bl_model_add(bl_model *mo, void *hyp, size_t outdim)
{
    if (mo->t == mo->cap) {
        mo->cap = mo->cap ? 2 * mo->cap : 64;
        mo->term = bl_xrealloc(mo->term, mo->cap * sizeof *mo->term);
    }
    bl_term *t = &mo->term[mo->t++];
    t->hyp = hyp;
    t->outdim = outdim;
    t->w = bl_xcalloc(mo->k, sizeof *t->w);
    t->code = NULL;
    t->hdim = outdim;
}

void bl_model_set_term(bl_model *mo, size_t j, const double *w, const double *code, size_t hdim)
{
    bl_term *t = &mo->term[j];
    if (w)
        memcpy(t->w, w, mo->k * sizeof *t->w);
    if (!code)
        return;
    if (!t->code || t->hdim != hdim) {
        free(t->code);
        t->code = bl_xmalloc(mo->k * hdim * sizeof *t->code);
    }
    memcpy(t->code, code, mo->k * hdim * sizeof *t->code);
    t->hdim = hdim;
    t->outdim = mo->k;
}

/* Rows of S in [i0, i0+n) densified feature-major into xb (n x d). */
static void dense_rows(const struct bl_sparse *S, size_t i0, size_t n, float *xb)
{
    memset(xb, 0, n * S->d * sizeof *xb);
    for (size_t i = 0; i < n; i++)
        for (size_t e = S->rptr[i0 + i]; e < S->rptr[i0 + i + 1]; e++)
            xb[(size_t)S->rcol[e] * n + i] = S->rval[e];
}

#define DENSE_BLOCK_BYTES (1u << 20)

/* S's rows densified a block at a time (at most cap rows and about
 * DENSE_BLOCK_BYTES of features), each block Xb, starting at row i0,
 * handed to fn: for code that reads dense rows only. */
typedef void (*dense_block_fn)(void *ctx, const struct bl_matrix *Xb, size_t i0);
static void dense_blocks(const struct bl_sparse *S, size_t cap, dense_block_fn fn, void *ctx)
{
    size_t d = S->d ? S->d : 1, B = DENSE_BLOCK_BYTES / (d * sizeof(float));
    B = B < 1 ? 1 : B > cap ? cap : B;
    float *xb = bl_xmalloc(B * d * sizeof *xb);
    for (size_t i0 = 0; i0 < S->m; i0 += B) {
        size_t n = S->m - i0 < B ? S->m - i0 : B;
        dense_rows(S, i0, n, xb);
        struct bl_matrix Xb = {n, S->d, xb};
        fn(ctx, &Xb, i0);
    }
    free(xb);
}

struct hyp_block {
    const struct bl_weak_ops *wo;
    const void *hyp;
    size_t outdim;
    double *out;
};

static void predict_block(void *ctx, const struct bl_matrix *Xb, size_t i0)
{
    const struct hyp_block *b = ctx;
    b->wo->predict(b->hyp, Xb, b->out + i0 * b->outdim);
}

void bl_hyp_predict_sparse(const struct bl_weak_ops *wo, const void *hyp,
                           const struct bl_sparse *S, size_t outdim, double *out)
{
    if (wo->predict_sparse) {
        wo->predict_sparse(hyp, S, out);
        return;
    }
    struct hyp_block b = {wo, hyp, outdim, out};
    dense_blocks(S, S->m ? S->m : 1, predict_block, &b);
}

void bl_term_outputs(const bl_model *mo, const bl_term *t, const struct bl_matrix *X,
                     double *out, double *scratch)
{
    bl_term_outputs_any(mo, t, X, NULL, out, scratch);
}

void bl_term_outputs_any(const bl_model *mo, const bl_term *t, const struct bl_matrix *X,
                         const struct bl_sparse *S, double *out, double *scratch)
{
    const struct bl_weak_ops *wo = mo->weak->ops;
    size_t hdim = wo->outdim(t->hyp);
    if (!t->code) {
        if (S)
            bl_hyp_predict_sparse(wo, t->hyp, S, hdim, out);
        else
            wo->predict(t->hyp, X, out);
        return;
    }
    size_t k = mo->k, h = t->hdim;
    if (S)
        bl_hyp_predict_sparse(wo, t->hyp, S, hdim, scratch);
    else
        wo->predict(t->hyp, X, scratch);
    for (size_t i = 0; i < X->m; i++)
        for (size_t r = 0; r < k; r++) {
            double v = 0;
            for (size_t j = 0; j < h; j++)
                v += t->code[r * h + j] * scratch[i * h + j];
            out[i * k + r] = v;
        }
}

int bl_model_set_proj(bl_model *mo, const bl_paramset *ps, uint64_t seed, bl_error *err)
{
    struct bl_proj *p = bl_xcalloc(1, sizeof *p);
    if (bl_proj_open(p, ps, mo->k, seed, err) < 0) {
        free(p);
        return -1;
    }
    if (mo->proj) {
        bl_proj_close(mo->proj);
        free(mo->proj);
    }
    mo->proj = p;
    return 0;
}

void bl_model_free(bl_model *mo)
{
    const struct bl_weak_ops *wo = mo->weak ? mo->weak->ops : NULL;
    for (size_t j = 0; j < mo->t; j++) {
        if (wo)
            wo->free_hyp(mo->term[j].hyp);
        free(mo->term[j].w);
        free(mo->term[j].code);
    }
    free(mo->term);
    for (size_t j = 0; j < mo->k && mo->class_names; j++)
        free(mo->class_names[j]);
    for (size_t j = 0; j < mo->d && mo->feature_names && !mo->feature_pool; j++)
        free(mo->feature_names[j]);
    free(mo->feature_pool);
    free(mo->class_names);
    free(mo->feature_names);
    free(mo->algorithm);
    if (mo->proj) {
        bl_proj_close(mo->proj);
        free(mo->proj);
    }
    memset(mo, 0, sizeof *mo);
}

/* F (m x k) += every term's weighted outputs on the m rows of X (with a
 * projection, X is their m k projected points), terms in order: through
 * the learner's predict_add when it has one, else predict into
 * out (m x k) and add.  Each F_ir gets the same additions in the same
 * order either way (weak.h), so the scores do not depend on the path. */
static void add_terms(const bl_model *mo, const struct bl_matrix *X, const struct bl_sparse *S,
                      size_t m, double *F, double *out, double *scratch)
{
    size_t k = mo->k;
    bl_weak_predict_add_fn padd = mo->proj || S ? NULL /* it reads dense X */
                                                : ((const struct bl_weak_ops *)mo->weak->ops)->predict_add;
    for (size_t j = 0; j < mo->t; j++) {
        const bl_term *t = &mo->term[j];
        if (padd && !t->code) {
            padd(t->hyp, X, t->w, k, F);
            continue;
        }
        bl_term_outputs_any(mo, t, X, S, out, scratch);
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < k; r++)
                F[i * k + r] += t->w[r] * (t->outdim == 1 ? out[i] : out[i * k + r]);
    }
}

/* Rows scored at once: a block's features and scores stay in cache while
 * every term passes over them, and blocks go to the threads (each row's
 * scores are its own, so any thread count gives the same bits).  Fewer
 * rows when the features are many, so that a block's copy of them stays
 * near SCORE_BYTES (wide data would otherwise copy 256 of its rows a
 * thread). */
#define SCORE_ROWS 256
#define SCORE_BYTES (1u << 20)

/* The widest term's hypothesis output (1 at least): scratch rows. */
static size_t max_hdim(const bl_model *mo)
{
    size_t hmax = 1;
    for (size_t j = 0; j < mo->t; j++)
        if (mo->term[j].hdim > hmax)
            hmax = mo->term[j].hdim;
    return hmax;
}

void bl_model_scores(const bl_model *mo, const struct bl_matrix *X, double *F)
{
    size_t m = X->m, k = mo->k, d = X->d, hmax = max_hdim(mo);
    memset(F, 0, m * k * sizeof *F);
    if (mo->proj || m <= SCORE_ROWS) {
        /* projected inputs: a term's X->m = m k points give its m x k outputs */
        float *zx = mo->proj ? bl_proj_inputs(mo->proj, X) : NULL;
        struct bl_matrix Z = {m * k, mo->proj ? mo->proj->n : 0, zx};
        double *out = bl_xmalloc(m * k * sizeof *out);
        double *scratch = bl_xmalloc(m * hmax * sizeof *scratch);
        add_terms(mo, zx ? &Z : X, NULL, m, F, out, scratch);
        free(out);
        free(scratch);
        free(zx);
        return;
    }
    size_t B = SCORE_BYTES / ((d ? d : 1) * sizeof *X->x);
    B = B < 16 ? 16 : B > SCORE_ROWS ? SCORE_ROWS : B;
    size_t nb = (m + B - 1) / B;
#ifdef _OPENMP
#pragma omp parallel
#endif
    {
        float *xb = bl_xmalloc(B * (d ? d : 1) * sizeof *xb);
        double *out = bl_xmalloc(B * k * sizeof *out);
        double *scratch = bl_xmalloc(B * hmax * sizeof *scratch);
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
        for (size_t b = 0; b < nb; b++) {
            size_t i0 = b * B, n = m - i0 < B ? m - i0 : B;
            for (size_t f = 0; f < d; f++) /* the block's rows, feature-major */
                memcpy(xb + f * n, X->x + f * m + i0, n * sizeof *xb);
            struct bl_matrix Xb = {n, d, xb};
            add_terms(mo, &Xb, NULL, n, F + i0 * k, out, scratch);
        }
        free(xb);
        free(out);
        free(scratch);
    }
}

struct score_block {
    const bl_model *mo;
    double *F;
};

static void score_block(void *ctx, const struct bl_matrix *Xb, size_t i0)
{
    const struct score_block *b = ctx;
    bl_model_scores(b->mo, Xb, b->F + i0 * b->mo->k);
}

void bl_model_scores_sparse(const bl_model *mo, const struct bl_sparse *S, double *F)
{
    size_t m = S->m, k = mo->k;
    memset(F, 0, m * k * sizeof *F);
    if (mo->proj) { /* projected inputs are dense: densify blocks of rows */
        struct score_block b = {mo, F};
        dense_blocks(S, SCORE_ROWS, score_block, &b);
        return;
    }
    double *out = bl_xmalloc((m ? m : 1) * k * sizeof *out);
    double *scratch = bl_xmalloc((m ? m : 1) * max_hdim(mo) * sizeof *scratch);
    struct bl_matrix X = {m, S->d, NULL};
    add_terms(mo, &X, S, m, F, out, scratch);
    free(out);
    free(scratch);
}

/* The first index of a row's largest score (NaN never wins), with the best
 * value kept in a register and selects instead of branches: scores of an
 * unsettled model are close and the branches mispredicted often. */
static inline size_t row_argmax(const double *Fi, size_t k)
{
    size_t best = 0;
    double bv = Fi[0];
    for (size_t r = 1; r < k; r++) {
        int gt = Fi[r] > bv;
        best = gt ? r : best;
        bv = gt ? Fi[r] : bv;
    }
    return best;
}

void bl_argmax_rows(const double *F, size_t m, size_t k, int *label)
{
    for (size_t i = 0; i < m; i++)
        label[i] = (int)row_argmax(F + i * k, k);
}

double bl_error_rate(const double *F, const int *y, size_t m, size_t k)
{
    size_t wrong = 0; /* an integer count: the same on any number of threads */
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(+ : wrong) if (m * k >= 65536)
#endif
    for (size_t i = 0; i < m; i++)
        wrong += (int)row_argmax(F + i * k, k) != y[i];
    return m ? (double)wrong / (double)m : 0.0;
}

/* ---- saving ------------------------------------------------------------ */

static int has_newline(const char *s)
{
    return strchr(s, '\n') || strchr(s, '\r');
}

int bl_model_save(const bl_model *mo, const char *path, bl_error *err)
{
    const struct bl_weak_ops *wo = mo->weak->ops;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fprintf(f, "boostlab-model %d\nsdk %d.%d\nweak %s\nclasses %zu\n", mo->proj ? 2 : 1,
            BL_SDK_MAJOR, BL_SDK_MINOR, mo->weak->name, mo->k);
    for (size_t j = 0; j < mo->k; j++)
        fprintf(f, "class %s\n", has_newline(mo->class_names[j]) ? "?" : mo->class_names[j]);
    fprintf(f, "features %zu\n", mo->d);
    for (size_t j = 0; j < mo->d; j++)
        fprintf(f, "feature %s\n", has_newline(mo->feature_names[j]) ? "?" : mo->feature_names[j]);
    if (mo->algorithm) {
        char *copy = bl_strdup(mo->algorithm), *save = NULL;
        for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
            fprintf(f, "algorithm %s\n", line);
        free(copy);
    }
    if (mo->proj) {
        const bl_paramset *ps = &mo->proj->ps;
        fprintf(f, "projection %s %" PRIu64 "\n", ps->plugin->name, mo->proj->seed);
        for (size_t j = 0; j < ps->plugin->nparams; j++)
            fprintf(f, "projection.%s %s\n", ps->plugin->params[j].name, ps->text[j]);
        if (mo->proj->mu) { /* the standardisation, one mean / deviation pair per feature */
            fprintf(f, "projection-scale %zu", mo->proj->d);
            for (size_t j = 0; j < mo->proj->d; j++)
                fprintf(f, " %.17g %.17g", mo->proj->mu[j], mo->proj->sd[j]);
            fputc('\n', f);
        }
    }
    fprintf(f, "terms %zu\n", mo->t);
    char small[512];
    for (size_t j = 0; j < mo->t; j++) {
        const bl_term *t = &mo->term[j];
        fprintf(f, "term %zu", t->outdim);
        for (size_t r = 0; r < mo->k; r++)
            fprintf(f, " %.17g", t->w[r]);
        if (t->code) {
            fprintf(f, " code %zu", t->hdim);
            for (size_t q = 0; q < mo->k * t->hdim; q++)
                fprintf(f, " %.17g", t->code[q]);
        }
        int n = wo->save(t->hyp, small, sizeof small);
        char *h = small;
        if (n >= (int)sizeof small) {
            h = bl_xmalloc((size_t)n + 1);
            wo->save(t->hyp, h, (size_t)n + 1);
        }
        fprintf(f, " | %s\n", n < 0 ? "" : h);
        if (h != small)
            free(h);
    }
    fclose(f);
    uLong crc = crc32(0L, (const Bytef *)buf, (uInt)len);
    bl_atomic a;
    if (bl_atomic_open(&a, path, err) < 0) {
        free(buf);
        return -1;
    }
    fwrite(buf, 1, len, a.f);
    fprintf(a.f, "crc32 %08lx\n", (unsigned long)crc);
    free(buf);
    return bl_atomic_commit(&a, err);
}

/* ---- loading ----------------------------------------------------------- */

typedef struct {
    const char *path;
    char *p, *end;
    int line;
} cursor;

/* Next line as a NUL-terminated string (in place), or NULL at the end. */
static char *next_line(cursor *c)
{
    if (c->p >= c->end)
        return NULL;
    char *s = c->p;
    char *nl = memchr(s, '\n', (size_t)(c->end - s));
    if (!nl)
        return NULL; /* every line of a complete file ends with \n */
    *nl = 0;
    c->p = nl + 1;
    c->line++;
    return s;
}

static int expect(cursor *c, const char *key, char **rest, bl_error *err)
{
    char *s = next_line(c);
    size_t n = strlen(key);
    if (!s)
        return bl_errf(err, "%s:%d: file ends early: expected '%s'", c->path, c->line + 1, key);
    if (strncmp(s, key, n) != 0 || (s[n] != ' ' && s[n] != 0))
        return bl_errf(err, "%s:%d: expected '%s', got '%.40s'", c->path, c->line, key, s);
    *rest = s[n] ? s + n + 1 : s + n;
    return 0;
}

/* line_min: bytes each of the lines the count announces takes at least,
 * e.g. sizeof "class" for "class\n" (0: not checked). */
static int expect_count(cursor *c, const char *key, size_t max, size_t line_min, size_t *out,
                        bl_error *err)
{
    char *rest, *end;
    if (expect(c, key, &rest, err) < 0)
        return -1;
    errno = 0;
    unsigned long long v = strtoull(rest, &end, 10);
    if (end == rest || *end || errno || v > max || rest[0] == '-')
        return bl_errf(err, "%s:%d: %s: expected a count up to %zu, got '%s'", c->path, c->line,
                       key, max, rest);
    /* "features 268435456" in a 100-byte file made the loader allocate
     * 2 GiB for names that are not there (found fuzzing the loader): refuse
     * a count the rest of the file cannot hold before allocating for it. */
    if (line_min && v > (unsigned long long)(c->end - c->p) / line_min)
        return bl_errf(err, "%s:%d: %s %llu: file ends early: the rest of the file cannot hold "
                       "that many lines", c->path, c->line, key, v);
    *out = (size_t)v;
    return 0;
}


/* One "term ..." line (after the keyword): coefficients, optional code,
 * hypothesis.  Appends the term to mo. */
static int load_term(bl_model *mo, const struct bl_weak_ops *wo, char *rest, double *w,
                     const char *path, int line, size_t j, bl_error *err)
{
    size_t k = mo->k;
    char *bar = strstr(rest, " | ");
    char *end;
    errno = 0;
    unsigned long od = strtoul(rest, &end, 10);
    int bad = !bar || end == rest || (od != 1 && od != k);
    char *p = end;
    for (size_t r = 0; r < k && !bad; r++) {
        w[r] = strtod(p, &end);
        bad = end == p || !isfinite(w[r]);
        p = end;
    }
    if (bad)
        return bl_errf(err, "%s:%d: term %zu: expected 'term OUTDIM' and %zu finite coefficients "
                       "before ' | '", path, line, j, k);
    double *code = NULL;
    unsigned long hdim = od;
    if (strncmp(p, " code ", 6) == 0) {
        hdim = strtoul(p + 6, &end, 10);
        bad = end == p + 6 || hdim == 0 || hdim > (1ul << 20) || od != k;
        p = end;
        /* Each entry takes at least 2 characters (" 0"): refuse a size the
         * line cannot hold before allocating for it (as for the counts in
         * expect_count: up to 8 TiB could be asked for). */
        bad = bad || k * hdim > (size_t)(bar - p) / 2;
        if (!bad) {
            code = bl_xmalloc(k * hdim * sizeof *code);
            for (size_t q = 0; q < k * hdim && !bad; q++) {
                code[q] = strtod(p, &end);
                bad = end == p || !isfinite(code[q]);
                p = end;
            }
        }
        if (bad) {
            free(code);
            return bl_errf(err, "%s:%d: term %zu: expected 'code HDIM' and %zu x HDIM finite "
                           "code entries", path, line, j, k);
        }
    }
    if (p != bar) {
        free(code);
        return bl_errf(err, "%s:%d: term %zu: unexpected text before ' | '", path, line, j);
    }
    char msg[BL_ERR_MAX] = "";
    void *h = wo->load(bar + 3, mo->proj ? mo->proj->n : mo->d, msg); /* features it sees */
    if (!h) {
        free(code);
        return bl_errf(err, "%s:%d: term %zu: %s: %s", path, line, j, mo->weak->name, msg);
    }
    if (wo->outdim(h) != (mo->proj ? 1 : hdim)) {
        wo->free_hyp(h);
        free(code);
        return bl_errf(err, "%s:%d: term %zu: output dimension %lu does not match the hypothesis",
                       path, line, j, hdim);
    }
    bl_model_add(mo, h, code ? hdim : od);
    bl_model_set_term(mo, mo->t - 1, w, code, hdim);
    free(code);
    return 0;
}

/* The d "feature NAME" lines into one pool (a model of a million features
 * loads with two allocations, not a million). */
static int read_feature_names(cursor *c, bl_model *mo, size_t d, bl_error *err)
{
    size_t len = 0, cap = 0, *off = bl_xmalloc((d ? d : 1) * sizeof *off);
    char *pool = NULL, *rest;
    int rc = 0;
    for (size_t j = 0; j < d && rc == 0; j++) {
        if ((rc = expect(c, "feature", &rest, err)) < 0)
            break;
        size_t n = strlen(rest) + 1;
        if (len + n > cap) {
            cap = 2 * (len + n) + 4096;
            pool = bl_xrealloc(pool, cap);
        }
        memcpy(pool + len, rest, n);
        off[j] = len;
        len += n;
    }
    mo->feature_pool = rc == 0 ? bl_xrealloc(pool, len ? len : 1) : pool;
    if (rc == 0)
        pool_names(mo, off, d);
    else /* nothing points into the pool: free it with an empty list */
        mo->feature_names = bl_xcalloc(d ? d : 1, sizeof *mo->feature_names);
    free(off);
    return rc;
}

/* "projection-scale D MU1 SD1 .. MUD SDD": the inputs' standardisation. */
static int load_scale(cursor *c, bl_model *mo, bl_error *err)
{
    char *s = next_line(c) + 17, *end;
    errno = 0;
    unsigned long long d = strtoull(s, &end, 10);
    if (end == s || errno || d != mo->d)
        return bl_errf(err, "%s:%d: projection-scale: expected %zu features, got '%.20s'",
                       c->path, c->line, mo->d, s);
    double *v = bl_xmalloc((2 * d + 1) * sizeof *v);
    int bad = 0;
    for (size_t j = 0; j < 2 * d && !bad; j++) {
        s = end;
        v[j] = strtod(s, &end);
        bad = end == s || !isfinite(v[j]) || (j % 2 == 1 && !(v[j] > 0));
    }
    if (bad || *end) {
        free(v);
        return bl_errf(err, "%s:%d: projection-scale: expected %llu finite mean / positive "
                       "deviation pairs", c->path, c->line, d);
    }
    double *mu = bl_xmalloc((d + 1) * sizeof *mu), *sd = bl_xmalloc((d + 1) * sizeof *sd);
    for (size_t j = 0; j < d; j++) {
        mu[j] = v[2 * j];
        sd[j] = v[2 * j + 1];
    }
    bl_proj_set_scale(mo->proj, d, mu, sd);
    free(v);
    free(mu);
    free(sd);
    return 0;
}

/* "projection NAME SEED" and its "projection.KEY VALUE" lines. */
static int load_projection(cursor *c, const bl_registry *reg, bl_model *mo, bl_error *err)
{
    char *s = next_line(c), *sp = strchr(s + 11, ' '), *end;
    if (!sp)
        return bl_errf(err, "%s:%d: expected 'projection NAME SEED'", c->path, c->line);
    *sp = 0;
    const struct bl_plugin *p = bl_registry_find(reg, s + 11, BL_ROLE_PROJECTION);
    if (!p)
        return bl_errf(err, "%s:%d: the model needs projection plugin '%s', which is not loaded "
                       "(available: %s; %s)", c->path, c->line, s + 11,
                       bl_registry_names(reg, BL_ROLE_PROJECTION), bl_registry_hint(reg));
    errno = 0;
    uint64_t seed = strtoull(sp + 1, &end, 10);
    if (end == sp + 1 || *end || errno)
        return bl_errf(err, "%s:%d: projection: expected a seed, got '%s'", c->path, c->line,
                       sp + 1);
    bl_paramset ps;
    if (bl_paramset_init(&ps, p, err) < 0)
        return bl_errprefix(err, "%s:%d", c->path, c->line);
    int rc = 0;
    while (rc == 0 && c->p < c->end && strncmp(c->p, "projection.", 11) == 0) {
        char *l = next_line(c), *v = strchr(l, ' ');
        if (!v) {
            rc = bl_errf(err, "%s:%d: expected 'projection.KEY VALUE'", c->path, c->line);
            break;
        }
        *v = 0;
        if (bl_paramset_set(&ps, l + 11, v + 1, err) < 0)
            rc = bl_errprefix(err, "%s:%d: %s", c->path, c->line, l);
    }
    if (rc == 0 && bl_model_set_proj(mo, &ps, seed, err) < 0)
        rc = bl_errprefix(err, "%s:%d", c->path, c->line);
    bl_paramset_free(&ps);
    if (rc == 0 && c->p < c->end && strncmp(c->p, "projection-scale ", 17) == 0)
        rc = load_scale(c, mo, err);
    return rc;
}

/* Read a model file and check it whole before parsing: the magic, no NUL
 * byte, and the final crc32 line, so that a damaged file is reported as
 * such, not by the first field that happens to look wrong.  Returns the
 * text (*tail at the crc32 line), or NULL with err set. */
static char *read_checked(const char *path, char **tail_out, bl_error *err)
{
    size_t len;
    char *buf = bl_read_file(path, "model", &len, err);
    if (!buf)
        return NULL;
    if (len < 16 || memcmp(buf, "boostlab-model ", 15) != 0) {
        free(buf);
        bl_errf(err, "%s:1: not a boostlab model file", path);
        return NULL;
    }
    if (memchr(buf, 0, len)) {
        free(buf);
        bl_errf(err, "%s: model file contains a NUL byte (corrupted)", path);
        return NULL;
    }
    char *tail = NULL;
    for (char *p = buf + len - 1; p > buf; p--)
        if (p[-1] == '\n' && (size_t)(buf + len - p) >= 6) {
            if (strncmp(p, "crc32 ", 6) == 0)
                tail = p;
            break;
        }
    if (!tail) {
        free(buf);
        bl_errf(err, "%s: model file is truncated (no final crc32 line)", path);
        return NULL;
    }
    unsigned long want = strtoul(tail + 6, NULL, 16);
    uLong have = crc32(0L, (const Bytef *)buf, (uInt)(tail - buf));
    if (want != have) {
        free(buf);
        bl_errf(err, "%s: checksum mismatch (file says %08lx, contents give %08lx): the model "
                "file is corrupted or was edited", path, want, (unsigned long)have);
        return NULL;
    }
    *tail_out = tail;
    return buf;
}

int bl_model_load(const char *path, const bl_registry *reg, bl_model *mo, bl_error *err)
{
    memset(mo, 0, sizeof *mo);
    char *tail, *buf = read_checked(path, &tail, err);
    if (!buf)
        return -1;
    cursor c = {path, buf, tail, 0};
    char *rest;
    int rc = -1;
    size_t k, d, t;
    if (expect(&c, "boostlab-model", &rest, err) < 0)
        goto out;
    int format = atoi(rest);
    if (format < 1 || format > BL_MODEL_FORMAT) {
        bl_errf(err, "%s:1: model format %s; this boostlab reads formats 1 to %d", path, rest,
                BL_MODEL_FORMAT);
        goto out;
    }
    if (expect(&c, "sdk", &rest, err) < 0)
        goto out;
    if (expect(&c, "weak", &rest, err) < 0)
        goto out;
    const struct bl_plugin *wp = bl_registry_find(reg, rest, BL_ROLE_WEAK);
    if (!wp) {
        bl_errf(err, "%s:%d: the model needs weak-learner plugin '%s', which is not loaded "
                "(available: %s; %s)", path, c.line, rest, bl_registry_names(reg, BL_ROLE_WEAK),
                bl_registry_hint(reg));
        goto out;
    }
    if (expect_count(&c, "classes", 1u << 20, sizeof "class", &k, err) < 0)
        goto out;
    if (k < 2) {
        bl_errf(err, "%s:%d: a model needs at least 2 classes", path, c.line);
        goto out;
    }
    bl_model_init(mo, wp, k, 0, NULL, NULL);
    for (size_t j = 0; j < k; j++) {
        if (expect(&c, "class", &rest, err) < 0)
            goto out;
        free(mo->class_names[j]);
        mo->class_names[j] = bl_strdup(rest);
    }
    if (expect_count(&c, "features", 1u << 28, sizeof "feature", &d, err) < 0)
        goto out;
    mo->d = d;
    /* bl_model_init above was given d = 0, so it named no features */
    if (read_feature_names(&c, mo, d, err) < 0)
        goto out;
    /* provenance lines */
    size_t alen = 0;
    while (c.p < c.end && strncmp(c.p, "algorithm ", 10) == 0) {
        char *s = next_line(&c);
        size_t n = strlen(s + 10);
        mo->algorithm = bl_xrealloc(mo->algorithm, alen + n + 2);
        memcpy(mo->algorithm + alen, s + 10, n);
        alen += n;
        mo->algorithm[alen++] = '\n';
        mo->algorithm[alen] = 0;
    }
    if (format >= 2 && c.p < c.end && strncmp(c.p, "projection ", 11) == 0 &&
        load_projection(&c, reg, mo, err) < 0)
        goto out;
    if (expect_count(&c, "terms", 1u << 28, 0, &t, err) < 0)
        goto out;
    const struct bl_weak_ops *wo = wp->ops;
    double *w = bl_xmalloc(k * sizeof *w);
    for (size_t j = 0; j < t; j++) {
        if (expect(&c, "term", &rest, err) < 0) {
            free(w);
            goto out;
        }
        if (load_term(mo, wo, rest, w, path, c.line, j + 1, err) < 0) {
            free(w);
            goto out;
        }
    }
    free(w);
    if (c.p != c.end) {
        bl_errf(err, "%s:%d: unexpected text after the last term", path, c.line + 1);
        goto out;
    }
    rc = 0;
out:
    free(buf);
    if (rc < 0)
        bl_model_free(mo);
    return rc;
}

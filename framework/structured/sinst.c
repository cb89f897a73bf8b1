/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Task instances, score matrices and the separation oracle (sinst.h). */
#include "sinst.h"

#include <stdlib.h>
#include <string.h>

#include "../plugin/loader.h"
#include "../util/fsutil.h"

static void split_metrics(bl_sinst *s)
{
    const char *p = s->ops->metrics;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        s->metric = bl_xrealloc(s->metric, (s->nmetrics + 1) * sizeof *s->metric);
        s->metric[s->nmetrics] = bl_xmalloc(n + 1);
        memcpy(s->metric[s->nmetrics], p, n);
        s->metric[s->nmetrics++][n] = 0;
        p += n + (e != NULL);
    }
}

int bl_sinst_open(bl_sinst *s, const bl_paramset *ps, const bl_dataset *ds, int max_bins,
                  bl_error *err)
{
    memset(s, 0, sizeof *s);
    s->plugin = ps->plugin;
    s->ops = ps->plugin->ops;
    struct bl_train data;
    memset(&data, 0, sizeof data);
    data.m = ds->m;
    data.d = ds->d;
    data.k = ds->k;
    data.y = ds->y;
    data.X.m = ds->m;
    data.X.d = ds->d;
    data.X.x = ds->x;
    char perr[BL_ERR_MAX] = "";
    s->inst = s->ops->open(&bl_host_api, ps->v, &data, (const char *const *)ds->class_names,
                           perr);
    if (!s->inst) {
        /* the task's own messages already start with "task NAME: " */
        char pre[BL_ERR_MAX];
        int n = snprintf(pre, sizeof pre, "task %s: ", s->plugin->name);
        if (n > 0 && !strncmp(perr, pre, (size_t)n))
            return bl_errf(err, "%s", perr);
        return bl_errf(err, "task %s: %s", s->plugin->name, perr[0] ? perr : "open failed");
    }
    s->m = s->ops->examples(s->inst);
    s->lbytes = s->ops->label_bytes(s->inst);
    s->nviews = s->ops->nviews(s->inst);
    if (!s->m || !s->lbytes || !s->nviews) {
        bl_errf(err, "task %s: the data part gives %zu examples, %zu-byte labels and %zu views "
                "(each must be at least 1)", s->plugin->name, s->m, s->lbytes, s->nviews);
        bl_sinst_close(s);
        return -1;
    }
    s->v = bl_xcalloc(s->nviews, sizeof *s->v);
    s->S = bl_xcalloc(s->nviews, sizeof *s->S);
    for (size_t v = 0; v < s->nviews; v++) {
        bl_sview *sv = &s->v[v];
        sv->tv = *s->ops->view(s->inst, v);
        if (!sv->tv.blocks || !sv->tv.points.m || !sv->tv.points.d) {
            bl_errf(err, "task %s: view %zu (%s) has %zu points, %zu features and %zu blocks "
                    "(each must be at least 1)", s->plugin->name, v,
                    sv->tv.name ? sv->tv.name : "?", sv->tv.points.m, sv->tv.points.d,
                    sv->tv.blocks);
            bl_sinst_close(s);
            return -1;
        }
        s->S[v] = bl_xcalloc(bl_sinst_cells(s, v), sizeof(double));
        if (max_bins <= 0)
            continue;
        sv->zero_y = bl_xcalloc(sv->tv.points.m, sizeof *sv->zero_y);
        bl_dataset pd;
        memset(&pd, 0, sizeof pd);
        pd.m = sv->tv.points.m;
        pd.d = sv->tv.points.d;
        pd.k = 2;
        pd.y = sv->zero_y;
        pd.x = (float *)sv->tv.points.x;
        if (bl_quantize(&pd, max_bins, &sv->q, err) < 0) {
            bl_errprefix(err, "task %s, view %s", s->plugin->name, sv->tv.name);
            bl_sinst_close(s);
            return -1;
        }
        bl_train_view(&pd, &sv->q, &sv->train);
    }
    split_metrics(s);
    return 0;
}

void bl_sinst_close(bl_sinst *s)
{
    for (size_t v = 0; s->v && v < s->nviews; v++) {
        bl_qview_free(&s->v[v].q);
        free(s->v[v].zero_y);
        free(s->S[v]);
    }
    for (size_t j = 0; j < s->nmetrics; j++)
        free(s->metric[j]);
    free(s->metric);
    free(s->v);
    free(s->S);
    if (s->inst)
        s->ops->close(s->inst);
    memset(s, 0, sizeof *s);
}

size_t bl_sinst_cells(const bl_sinst *s, size_t v)
{
    return s->v[v].tv.points.m * s->v[v].tv.blocks;
}

void bl_sinst_zero(bl_sinst *s)
{
    for (size_t v = 0; v < s->nviews; v++)
        memset(s->S[v], 0, bl_sinst_cells(s, v) * sizeof(double));
}

double bl_sinst_metrics(const bl_sinst *s, unsigned char *pred, double *values)
{
    const double *const *S = (const double *const *)s->S;
    for (size_t i = 0; i < s->m; i++)
        s->ops->predict(s->inst, i, S, pred + i * s->lbytes);
    s->ops->evaluate(s->inst, S, pred, values);
    return values[0];
}

void bl_cut_free(bl_cut *c)
{
    free(c->view);
    free(c->cell);
    free(c->coef);
    memset(c, 0, sizeof *c);
}

double bl_cut_dot(const bl_cut *c, const bl_sinst *s, size_t view, size_t block,
                  const double *out)
{
    size_t B = s->v[view].tv.blocks;
    double a = 0.0;
    for (size_t e = 0; e < c->nnz; e++)
        if (c->view[e] == view && c->cell[e] % B == block)
            a += c->coef[e] * out[c->cell[e] / B];
    return a;
}

void bl_sep_init(bl_sep *sp, const bl_sinst *s)
{
    memset(sp, 0, sizeof *sp);
    sp->ybar = bl_xcalloc(s->m, s->lbytes);
    sp->h = bl_xcalloc(s->m, sizeof *sp->h);
    sp->acc = bl_xcalloc(s->nviews, sizeof *sp->acc);
    for (size_t v = 0; v < s->nviews; v++)
        sp->acc[v] = bl_xcalloc(bl_sinst_cells(s, v), sizeof(double));
    sp->tcap = 16;
    sp->terms = bl_xmalloc(sp->tcap * sizeof *sp->terms);
}

void bl_sep_free(bl_sep *sp, const bl_sinst *s)
{
    for (size_t v = 0; sp->acc && v < s->nviews; v++)
        free(sp->acc[v]);
    free(sp->acc);
    free(sp->ybar);
    free(sp->h);
    free(sp->terms);
    memset(sp, 0, sizeof *sp);
}

double bl_sep_run(bl_sep *sp, const bl_sinst *s)
{
    const double *const *S = (const double *const *)s->S;
    long m = (long)s->m;
    /* examples are independent; the sum below runs in index order, so the
     * result does not depend on the thread count.  Threads only for many
     * examples: the tasks' argmax is a few operations, and a thread team
     * per cutting-plane round cost more than it saved below ~50000. */
#pragma omp parallel for schedule(static) if (m > 50000)
    for (long i = 0; i < m; i++) {
        double h = s->ops->argmax_aug(s->inst, (size_t)i, S, sp->ybar + (size_t)i * s->lbytes);
        sp->h[i] = h > 0.0 ? h : 0.0;
    }
    double H = 0.0;
    for (long i = 0; i < m; i++)
        H += sp->h[i];
    return H / (double)s->m;
}

void bl_sep_add_terms(bl_sep *sp, const bl_sinst *s, size_t i, const void *y, double weight,
                      double **maps)
{
    size_t n = s->ops->dpsi(s->inst, i, y, sp->terms, sp->tcap);
    if (n > sp->tcap) {
        sp->tcap = n;
        sp->terms = bl_xrealloc(sp->terms, n * sizeof *sp->terms);
        n = s->ops->dpsi(s->inst, i, y, sp->terms, sp->tcap);
    }
    for (size_t t = 0; t < n; t++) {
        const struct bl_task_term *tt = &sp->terms[t];
        maps[tt->view][tt->point * s->v[tt->view].tv.blocks + tt->block] += weight * tt->coef;
    }
}

void bl_sep_cut(bl_sep *sp, const bl_sinst *s, int all, bl_cut *out)
{
    unsigned char *in = bl_xmalloc(s->m ? s->m : 1);
    for (size_t i = 0; i < s->m; i++)
        in[i] = all || sp->h[i] > 0.0;
    bl_sep_cut_of(sp, s, sp->ybar, in, out);
    free(in);
}

void bl_sep_cut_of(bl_sep *sp, const bl_sinst *s, const unsigned char *ybar,
                   const unsigned char *in, bl_cut *out)
{
    memset(out, 0, sizeof *out);
    double inv = 1.0 / (double)s->m, b = 0.0;
    for (size_t v = 0; v < s->nviews; v++)
        memset(sp->acc[v], 0, bl_sinst_cells(s, v) * sizeof(double));
    for (size_t i = 0; i < s->m; i++) {
        if (!in[i])
            continue;
        const unsigned char *y = ybar + i * s->lbytes;
        b += s->ops->loss(s->inst, i, y);
        bl_sep_add_terms(sp, s, i, y, inv, sp->acc);
    }
    out->b = b * inv;
    size_t nnz = 0;
    for (size_t v = 0; v < s->nviews; v++)
        for (size_t c = 0, n = bl_sinst_cells(s, v); c < n; c++)
            nnz += sp->acc[v][c] != 0.0;
    out->nnz = nnz;
    out->view = bl_xmalloc((nnz ? nnz : 1) * sizeof *out->view);
    out->cell = bl_xmalloc((nnz ? nnz : 1) * sizeof *out->cell);
    out->coef = bl_xmalloc((nnz ? nnz : 1) * sizeof *out->coef);
    nnz = 0;
    for (size_t v = 0; v < s->nviews; v++)
        for (size_t c = 0, n = bl_sinst_cells(s, v); c < n; c++)
            if (sp->acc[v][c] != 0.0) {
                out->view[nnz] = (uint32_t)v;
                out->cell[nnz] = c;
                out->coef[nnz++] = sp->acc[v][c];
            }
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The report's plots (see figures.h).  Curves are read from the store one
 * cell at a time and averaged over the repeats (analysis.c); decision
 * boundaries retrain repeat 0 of each algorithm through the job runner, so
 * they show exactly the split and model the experiment made.
 */
#include "figures.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/model.h"
#include "../exec/job.h"
#include "../plot/plot.h"
#include "../util/fsutil.h"

#define BOUNDARY_GRID 200
#define BOUNDARY_MARGIN 0.05

/* ---- names and bookkeeping ------------------------------------------------------ */

char *bl_fig_sanitize(const char *name)
{
    char *s = bl_strdup(name);
    for (char *p = s; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '_' || *p == '-'))
            *p = '_';
    return s;
}

static void note(bl_figs *fs, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void note(bl_figs *fs, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    char *s = bl_vstrfmt(f, ap);
    va_end(ap);
    fs->note = bl_xrealloc(fs->note, (fs->nnote + 1) * sizeof *fs->note);
    fs->note[fs->nnote++] = s;
}

static int name_used(const bl_figs *fs, const char *name)
{
    for (size_t j = 0; j < fs->n; j++)
        if (!strcmp(fs->fig[j].name, name))
            return 1;
    return 0;
}

/* A unique file name: the sanitized stem (names that sanitize alike, such
 * as "a b" and "a_b", get -2, -3, ...). */
static char *unique_name(const bl_figs *fs, const char *stem)
{
    char *base = bl_fig_sanitize(stem);
    char *name = bl_strdup(base);
    for (int k = 2; name_used(fs, name); k++) {
        free(name);
        name = bl_strfmt("%s-%d", base, k);
    }
    free(base);
    return name;
}

/* Full path of the plot (no extension). */
static char *plot_base(const bl_fig_opts *o, const char *name)
{
    return bl_path_join(o->dir, name);
}

/* Record a drawn figure, or note why it could not be drawn (rc < 0). */
static void add_fig(bl_figs *fs, int rc, const bl_error *perr, bl_fig_kind kind, long d, long a,
                    char *name, char *caption)
{
    if (rc < 0) {
        note(fs, "plot '%s' not drawn: %s", caption, perr->msg);
        free(name);
        free(caption);
        return;
    }
    fs->fig = bl_xrealloc(fs->fig, (fs->n + 1) * sizeof *fs->fig);
    fs->fig[fs->n++] = (bl_fig){kind, d, a, name, caption};
}

/* Draw the line plot p under a unique name made from stem and record it
 * with caption (stem and caption are taken). */
static void line_fig(bl_figs *fs, const bl_fig_opts *o, const bl_lineplot *p, char *stem,
                     bl_fig_kind kind, long d, char *caption)
{
    char *name = unique_name(fs, stem);
    free(stem);
    char *base = plot_base(o, name);
    bl_error perr;
    int rc = bl_plot_lines(p, base, &perr);
    free(base);
    add_fig(fs, rc, &perr, kind, d, -1, name, caption);
}

void bl_figs_free(bl_figs *f)
{
    for (size_t j = 0; j < f->n; j++) {
        free(f->fig[j].name);
        free(f->fig[j].caption);
    }
    free(f->fig);
    for (size_t j = 0; j < f->nnote; j++)
        free(f->note[j]);
    free(f->note);
    memset(f, 0, sizeof *f);
}

/* No test part in any run of data set d (e.g. all data used for
 * training): its plots show the training error instead. */
static int train_only(const bl_rexp *e, const size_t *ds, size_t nds)
{
    for (size_t j = 0; j < nds; j++)
        for (size_t a = 0; a < e->na; a++)
            if (bl_rexp_cell(e, ds[j], a)->te_n)
                return 0;
    return 1;
}

/* ---- curves against the iterations ------------------------------------------------ */

static int curve_plots(bl_store *s, const bl_rexp *e, size_t d, const bl_fig_opts *o,
                       bl_figs *fs, bl_error *err)
{
    int train = train_only(e, &d, 1);
    bl_rcurve *cv = bl_xcalloc(e->na, sizeof *cv);
    bl_series *se = bl_xcalloc(e->na, sizeof *se), *st = bl_xcalloc(e->na, sizeof *st);
    int rc = 0;
    size_t carried = 0;
    int by_trees = 0; /* LogitBoost's kin add k or k-1 trees per iteration */
    for (size_t a = 0; a < e->na && rc == 0; a++) {
        rc = bl_rcell_curve(s, bl_rexp_cell(e, d, a), train, &cv[a], err);
        carried += cv[a].carried;
        by_trees |= rc == 0 && cv[a].runs && cv[a].trees_per_iter != 1.0;
    }
    for (size_t a = 0; a < e->na && rc == 0; a++) {
        /* the std band only means something with two repeats or more */
        int band = cv[a].runs >= 2;
        se[a] = (bl_series){e->algo[a], cv[a].n, by_trees ? cv[a].trees : cv[a].iter, cv[a].err,
                            band ? cv[a].err_lo : NULL, band ? cv[a].err_hi : NULL, 0};
        st[a] = (bl_series){e->algo[a], cv[a].n, cv[a].iter, cv[a].tc,
                            band ? cv[a].tc_lo : NULL, band ? cv[a].tc_hi : NULL, 0};
    }
    if (rc == 0) {
        const char *what = train ? "training error" : "test error";
        char *title = bl_strfmt("%s: %s (mean \xc2\xb1 1 std over repeats)", e->data[d], what);
        char *ylabel = bl_strfmt("%s %%", what);
        const char *x = by_trees ? "trees added" : "iterations";
        bl_lineplot p = {title, x, ylabel, 1, 0, se, e->na};
        line_fig(fs, o, &p, bl_strfmt("%serr-%s", o->prefix, e->data[d]), BL_FIG_ERR, (long)d,
                 bl_strfmt("%s: %s vs %s (mean \xc2\xb1 1 std over repeats%s)", e->data[d], what,
                           x, train ? "; no test part" : ""));
        free(title);
        free(ylabel);

        title = bl_strfmt("%s: cumulative coefficient-step (step \xe2\x91\xa3) time", e->data[d]);
        p = (bl_lineplot){title, "iterations", "seconds", 1, 1, st, e->na};
        line_fig(fs, o, &p, bl_strfmt("%stime-%s", o->prefix, e->data[d]), BL_FIG_TIME, (long)d,
                 bl_strfmt("%s: cumulative coefficient-step (step \xe2\x91\xa3) seconds vs "
                           "iterations (mean \xc2\xb1 1 std over repeats)", e->data[d]));
        free(title);
        if (carried)
            note(fs, "%s: %zu run%s stopped before the longest one; %s carried forward at "
                 "%s final value", e->data[d], carried, carried == 1 ? "" : "s",
                 carried == 1 ? "it is" : "they are", carried == 1 ? "its" : "their");
    }
    for (size_t a = 0; a < e->na; a++)
        bl_rcurve_free(&cv[a]);
    free(cv);
    free(se);
    free(st);
    return rc;
}

/* The paired difference of each algorithm's error curve and the
 * reference's: bands of the means overlap, this shows the gap. */
static int diff_plot(bl_store *s, const bl_rexp *e, size_t ref, size_t d, const bl_fig_opts *o,
                     bl_figs *fs, bl_error *err)
{
    if (e->na < 2 || ref >= e->na || !bl_rexp_cell(e, d, ref)->n)
        return 0;
    int train = train_only(e, &d, 1);
    bl_rcurve *cv = bl_xcalloc(e->na, sizeof *cv);
    bl_series *se = bl_xcalloc(e->na + 1, sizeof *se);
    size_t ns = 0, longest = 0;
    int rc = 0;
    for (size_t a = 0; a < e->na && rc == 0; a++) {
        if (a == ref)
            continue;
        rc = bl_rcell_diff_curve(s, bl_rexp_cell(e, d, ref), bl_rexp_cell(e, d, a), train, &cv[a],
                                 err);
        if (rc < 0 || !cv[a].runs)
            continue;
        int band = cv[a].runs >= 2;
        /* the colour of algorithm a as in the other plots */
        se[a] = (bl_series){e->algo[a], cv[a].n, cv[a].iter, cv[a].err,
                            band ? cv[a].err_lo : NULL, band ? cv[a].err_hi : NULL, 0};
        longest = cv[a].n > longest ? cv[a].n : longest;
        ns++;
    }
    if (rc == 0 && ns) {
        /* the zero line, in the reference's slot (its colour unused here) */
        double zx[2] = {1, (double)(longest > 1 ? longest : 2)}, zy[2] = {0, 0};
        se[ref] = (bl_series){NULL, 2, zx, zy, NULL, NULL, 0};
        const char *what = train ? "training error" : "test error";
        char *title = bl_strfmt("%s: %s minus %s's (paired, mean \xc2\xb1 1 std)", e->data[d],
                                what, e->algo[ref]);
        char *ylabel = bl_strfmt("%s difference, pp", what);
        bl_lineplot p = {title, "iterations", ylabel, 1, 0, se, e->na};
        line_fig(fs, o, &p, bl_strfmt("%sdiff-%s", o->prefix, e->data[d]), BL_FIG_DIFF, (long)d,
                 bl_strfmt("%s: each algorithm's %s minus %s's on the same splits, in percentage "
                           "points (below 0: lower than %s), mean \xc2\xb1 1 std of the paired "
                           "difference vs iterations", e->data[d], what, e->algo[ref],
                           e->algo[ref]));
        free(title);
        free(ylabel);
    }
    for (size_t a = 0; a < e->na; a++)
        bl_rcurve_free(&cv[a]);
    free(cv);
    free(se);
    return rc;
}

/* ---- sweeps ------------------------------------------------------------------------ */

/* NAME{KEY=VALUE} with one key and a numeric value: 1 and the parts
 * (malloc'ed), else 0. */
static int parse_point(const char *name, char **base, char **key, double *value)
{
    const char *lb = strchr(name, '{');
    size_t n = strlen(name);
    if (!lb || lb == name || n < 2 || name[n - 1] != '}')
        return 0;
    const char *eq = strchr(lb, '=');
    if (!eq || eq == lb + 1 || strchr(eq + 1, '=') || memchr(lb, ',', n - (size_t)(lb - name)))
        return 0;
    char *vs = bl_xmalloc(n);
    size_t vl = (size_t)(name + n - 1 - (eq + 1));
    memcpy(vs, eq + 1, vl);
    vs[vl] = 0;
    char *end;
    double v = strtod(vs, &end);
    int ok = vl && !*end && isfinite(v);
    free(vs);
    if (!ok)
        return 0;
    *base = bl_xmalloc((size_t)(lb - name) + 1);
    memcpy(*base, name, (size_t)(lb - name));
    (*base)[lb - name] = 0;
    *key = bl_xmalloc((size_t)(eq - lb));
    memcpy(*key, lb + 1, (size_t)(eq - lb - 1));
    (*key)[eq - lb - 1] = 0;
    *value = v;
    return 1;
}

size_t bl_sweep_groups(const bl_rexp *e, bl_sweep_group **out)
{
    bl_sweep_group *g = NULL;
    size_t ng = 0;
    for (size_t d = 0; d < e->nd; d++) {
        char *base, *key;
        double v;
        if (!parse_point(e->data[d], &base, &key, &v))
            continue;
        size_t j = 0;
        while (j < ng && (strcmp(g[j].base, base) || strcmp(g[j].key, key)))
            j++;
        if (j == ng) {
            g = bl_xrealloc(g, (ng + 1) * sizeof *g);
            g[ng++] = (bl_sweep_group){base, key, 0, NULL, NULL};
        } else {
            free(base);
            free(key);
        }
        bl_sweep_group *s = &g[j];
        s->d = bl_xrealloc(s->d, (s->n + 1) * sizeof *s->d);
        s->x = bl_xrealloc(s->x, (s->n + 1) * sizeof *s->x);
        /* insertion by value */
        size_t at = s->n;
        while (at > 0 && s->x[at - 1] > v) {
            s->x[at] = s->x[at - 1];
            s->d[at] = s->d[at - 1];
            at--;
        }
        s->x[at] = v;
        s->d[at] = d;
        s->n++;
    }
    /* a single point is no sweep */
    size_t k = 0;
    for (size_t j = 0; j < ng; j++) {
        if (g[j].n >= 2)
            g[k++] = g[j];
        else
            bl_sweep_groups_free(&g[j], 1);
    }
    if (!k) {
        free(g);
        g = NULL;
    }
    *out = g;
    return k;
}

void bl_sweep_groups_free(bl_sweep_group *g, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        free(g[j].base);
        free(g[j].key);
        free(g[j].d);
        free(g[j].x);
    }
}

static void sweep_plots(const bl_rexp *e, const bl_sweep_group *g, const bl_fig_opts *o,
                        bl_figs *fs)
{
    int train = train_only(e, g->d, g->n);
    size_t na = e->na, n = g->n;
    double *y = bl_xmalloc(na * n * sizeof *y), *lo = bl_xmalloc(na * n * sizeof *lo);
    double *hi = bl_xmalloc(na * n * sizeof *hi), *t = bl_xmalloc(na * n * sizeof *t);
    bl_series *se = bl_xcalloc(na, sizeof *se), *st = bl_xcalloc(na, sizeof *st);
    int logx = g->x[0] > 0 && g->x[n - 1] / g->x[0] >= 10;
    for (size_t a = 0; a < na; a++) {
        for (size_t j = 0; j < n; j++) {
            const bl_rcell *c = bl_rexp_cell(e, g->d[j], a);
            double m = train ? c->tr_mean : c->te_mean, sd = train ? c->tr_std : c->te_std;
            y[a * n + j] = 100 * m;
            lo[a * n + j] = 100 * (isfinite(sd) ? m - sd : m);
            hi[a * n + j] = 100 * (isfinite(sd) ? m + sd : m);
            t[a * n + j] = c->tc_mean;
        }
        se[a] = (bl_series){e->algo[a], n, g->x, y + a * n, lo + a * n, hi + a * n, 1};
        st[a] = (bl_series){e->algo[a], n, g->x, t + a * n, NULL, NULL, 0};
    }
    const char *what = train ? "training error" : "test error";
    char *title = bl_strfmt("%s: %s vs %s (mean \xc2\xb1 1 std)", g->base, what, g->key);
    char *ylabel = bl_strfmt("%s %%", what);
    bl_lineplot p = {title, g->key, ylabel, logx, 0, se, na};
    line_fig(fs, o, &p, bl_strfmt("%ssweep-err-%s-%s", o->prefix, g->base, g->key),
             BL_FIG_SWEEP_ERR, (long)g->d[0],
             bl_strfmt("%s: %s vs %s (mean \xc2\xb1 1 std over repeats)", g->base, what, g->key));
    free(title);
    free(ylabel);

    title = bl_strfmt("%s: coefficient-step (step \xe2\x91\xa3) seconds per run vs %s", g->base,
                      g->key);
    p = (bl_lineplot){title, g->key, "seconds per run", 1, 1, st, na};
    line_fig(fs, o, &p, bl_strfmt("%ssweep-time-%s-%s", o->prefix, g->base, g->key),
             BL_FIG_SWEEP_TIME, (long)g->d[0],
             bl_strfmt("%s: mean coefficient-step (step \xe2\x91\xa3) seconds per run vs %s",
                       g->base, g->key));
    free(title);
    free(y);
    free(lo);
    free(hi);
    free(t);
    free(se);
    free(st);
}

/* ---- critical-difference diagram --------------------------------------------------- */

static void cd_plot(const bl_rexp *e, const bl_rstats *st, const bl_fig_opts *o, bl_figs *fs)
{
    if (!st->fr_ok)
        return;
    /* bl_cd_groups gave positions into its own order; bl_plot_cd draws
     * positions into bl_plot_cd_order's.  Both are a stable sort by rank,
     * so they agree; should they ever not, the groups would be drawn on
     * the wrong algorithms, so they are left out instead. */
    size_t *ord = bl_xmalloc(e->na * sizeof *ord);
    bl_plot_cd_order(st->fr.avg_rank, e->na, ord);
    size_t ng = st->cd_ngroups;
    if (memcmp(ord, st->cd_order, e->na * sizeof *ord) != 0) {
        note(fs, "CD diagram: the plot and the test order the algorithms differently; "
             "groups left out");
        ng = 0;
    }
    free(ord);
    char *title = bl_strfmt("Critical difference (Nemenyi, alpha = %g, %zu data sets)",
                            st->alpha, st->fr_n);
    char *stem = bl_strfmt("%scd", o->prefix);
    char *name = unique_name(fs, stem);
    free(stem);
    char *base = plot_base(o, name);
    bl_error perr;
    int rc = bl_plot_cd((const char *const *)e->algo, st->fr.avg_rank, e->na, st->fr.cd,
                        (const size_t(*)[2])st->cd_groups, ng, title, base, &perr);
    free(base);
    add_fig(fs, rc, &perr, BL_FIG_CD, -1, -1, name,
            bl_strfmt("Critical-difference diagram: average ranks (1 = best); algorithms joined "
                      "by a bar are not significantly different (Nemenyi, alpha = %g)",
                      st->alpha));
    free(title);
}

/* ---- decision boundaries ------------------------------------------------------------- */

static long ex_data(const bl_experiment *ex, const char *name)
{
    for (size_t j = 0; j < ex->ndata; j++)
        if (!strcmp(ex->data[j].name, name))
            return (long)j;
    return -1;
}

static long ex_algo(const bl_experiment *ex, const char *name)
{
    for (size_t j = 0; j < ex->nalgo; j++)
        if (!strcmp(ex->algo[j].name, name))
            return (long)j;
    return -1;
}

/* Range of feature f over the finite values, widened by the margin (a
 * constant feature gets +-0.5). */
static void feature_range(const bl_dataset *ds, size_t f, double *lo, double *hi)
{
    double a = INFINITY, b = -INFINITY;
    for (size_t i = 0; i < ds->m; i++) {
        double v = ds->x[f * ds->m + i];
        if (isfinite(v)) {
            a = v < a ? v : a;
            b = v > b ? v : b;
        }
    }
    if (!(a <= b)) {
        a = 0;
        b = 1;
    }
    double w = b - a;
    if (w <= 0) {
        a -= 0.5;
        b += 0.5;
    } else {
        a -= BOUNDARY_MARGIN * w;
        b += BOUNDARY_MARGIN * w;
    }
    *lo = a;
    *hi = b;
}

/* Classes of a model over the grid's cell centres (grid as plot.h). */
static int *classify_grid(const bl_model *mo, double x0, double x1, double y0, double y1)
{
    size_t nx = BOUNDARY_GRID, ny = BOUNDARY_GRID, m = nx * ny;
    float *x = bl_xmalloc(2 * m * sizeof *x);
    double dx = (x1 - x0) / (double)nx, dy = (y1 - y0) / (double)ny;
    for (size_t iy = 0; iy < ny; iy++)
        for (size_t ix = 0; ix < nx; ix++) {
            size_t i = iy * nx + ix;
            x[i] = (float)(x0 + ((double)ix + 0.5) * dx);     /* feature 0 */
            x[m + i] = (float)(y0 + ((double)iy + 0.5) * dy); /* feature 1 */
        }
    struct bl_matrix X = {m, 2, x};
    double *F = bl_xmalloc(m * mo->k * sizeof *F);
    bl_model_scores(mo, &X, F);
    int *grid = bl_xmalloc(m * sizeof *grid);
    bl_argmax_rows(F, m, mo->k, grid);
    free(F);
    free(x);
    return grid;
}

/* The retrained run should repeat the stored one exactly (same split,
 * seeds and parameters); say so when it does not, e.g. after the data file
 * changed, since the plot then shows another model than the tables. */
static void check_stored(const bl_rexp *e, size_t d, size_t a, const bl_curve *cv, bl_figs *fs)
{
    const bl_rcell *c = bl_rexp_cell(e, d, a);
    for (size_t r = 0; r < c->n; r++) {
        if (c->rep[r] != 0)
            continue;
        double now = cv->n ? (cv->test_err ? cv->test_err[cv->n - 1] : NAN) : cv->test_err0;
        double then = c->test_err[r];
        int same = (isnan(now) && isnan(then)) || fabs(now - then) <= 1e-9;
        if (!same)
            note(fs, "%s / %s: the retrained model of repeat 0 has test error %.2f%% where the "
                 "store holds %.2f%%: the data or the experiment changed since the run",
                 e->data[d], e->algo[a], 100 * now, 100 * then);
        return;
    }
}

static void boundary_plots(const bl_rexp *e, size_t d, const bl_fig_opts *o, bl_figs *fs)
{
    if (!o->ex) {
        note(fs, "%s: decision boundaries skipped: %s", e->data[d],
             o->ex_why ? o->ex_why : "the experiment could not be loaded");
        return;
    }
    long xd = ex_data(o->ex, e->data[d]);
    if (xd < 0) {
        note(fs, "%s: decision boundaries skipped: the experiment has no such data set",
             e->data[d]);
        return;
    }
    bl_job_cache cache;
    bl_job_cache_init(&cache);
    for (size_t a = 0; a < e->na; a++) {
        long xa = ex_algo(o->ex, e->algo[a]);
        if (xa < 0) {
            note(fs, "%s / %s: decision boundary skipped: the experiment has no such algorithm",
                 e->data[d], e->algo[a]);
            continue;
        }
        bl_job job = {(size_t)xd, (size_t)xa, 0};
        bl_model mo;
        bl_job_out out;
        bl_error err;
        if (bl_job_run(o->ex, &cache, &job, NULL, NULL, &mo, &out, &err) < 0) {
            note(fs, "%s / %s: decision boundary skipped: %s", e->data[d], e->algo[a], err.msg);
            /* the data itself failing fails every algorithm alike */
            if (cache.sd < 0)
                break;
            continue;
        }
        check_stored(e, d, a, &out.curve, fs);
        const bl_dataset *tr = &cache.train;
        if (tr->sp) { /* 2-D plots read the points densely */
            note(fs, "%s: decision boundaries skipped: the data is held sparse (set storage = "
                 "dense in its [data] section)", e->data[d]);
            bl_model_free(&mo);
            bl_job_out_free(&out);
            break;
        }
        if (tr->d != 2) {
            note(fs, "%s: decision boundaries skipped: the data has %zu features, not 2",
                 e->data[d], tr->d);
            bl_model_free(&mo);
            bl_job_out_free(&out);
            break;
        }
        double x0, x1, y0, y1;
        feature_range(tr, 0, &x0, &x1);
        feature_range(tr, 1, &y0, &y1);
        int *grid = classify_grid(&mo, x0, x1, y0, y1);
        double *px = bl_xmalloc((tr->m ? tr->m : 1) * sizeof *px);
        double *py = bl_xmalloc((tr->m ? tr->m : 1) * sizeof *py);
        for (size_t i = 0; i < tr->m; i++) {
            px[i] = tr->x[i];
            py[i] = tr->x[tr->m + i];
        }
        char *title = bl_strfmt("%s / %s: decision regions (repeat 0, %zu terms) and training "
                                "points", e->data[d], e->algo[a], mo.t);
        char *stem = bl_strfmt("%sboundary-%s-%s", o->prefix, e->data[d], e->algo[a]);
        char *name = unique_name(fs, stem);
        free(stem);
        char *base = plot_base(o, name);
        bl_error perr;
        int rc = bl_plot_boundary(grid, BOUNDARY_GRID, BOUNDARY_GRID, x0, x1, y0, y1, px, py,
                                  tr->y, tr->m, (const char *const *)tr->class_names, tr->k,
                                  title, base, &perr);
        free(base);
        add_fig(fs, rc, &perr, BL_FIG_BOUNDARY, (long)d, (long)a, name,
                bl_strfmt("%s / %s: decision regions of the model of repeat 0 (retrained, %zu "
                          "terms), with its training points", e->data[d], e->algo[a], mo.t));
        free(title);
        free(px);
        free(py);
        free(grid);
        bl_model_free(&mo);
        bl_job_out_free(&out);
    }
    bl_job_cache_free(&cache);
}

/* ---- all of them ---------------------------------------------------------------------- */

int bl_figures_make(bl_store *s, const bl_rexp *e, const bl_rstats *st, const bl_fig_opts *o,
                    bl_figs *out, bl_error *err)
{
    memset(out, 0, sizeof *out);
    for (size_t d = 0; d < e->nd; d++)
        if (curve_plots(s, e, d, o, out, err) < 0 || diff_plot(s, e, st->ref, d, o, out, err) < 0)
            return -1;
    bl_sweep_group *g;
    size_t ng = bl_sweep_groups(e, &g);
    for (size_t j = 0; j < ng; j++)
        sweep_plots(e, &g[j], o, out);
    bl_sweep_groups_free(g, ng);
    free(g);
    cd_plot(e, st, o, out);
    for (size_t d = 0; d < e->nd; d++)
        if (e->feat[d] == 2)
            boundary_plots(e, d, o, out);
    return 0;
}

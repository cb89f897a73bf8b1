/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * HTML and Markdown writers of `boostlab report` (see render.h).  The
 * report is first laid out as a list of blocks (headings, paragraphs,
 * notes, commands, label lists, tables, figures), then each writer emits
 * the blocks in its own syntax; all names are escaped on output.
 */
#include "render.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../util/fsutil.h"

#define DASH "\xe2\x80\x93"     /* en dash: a missing value */
#define MIDDOT "\xc2\xb7"
#define STEP4 "\xe2\x91\xa3"    /* circled 4: the coefficient step */
/* What step 4 is, said wherever the report first names it. */
#define STEP4_DEF "the coefficient step (step " STEP4 " of the papers' boosting iteration: " \
    "solving for the coefficients of the weak hypothesis the weak learner just added)"

/* ---- the block list ---------------------------------------------------------------- */

typedef enum { B_H, B_P, B_NOTE, B_CODE, B_LIST, B_TABLE, B_FIG } bkind;

/* A table cell: main text (bold or not) then plain tail text. */
typedef struct {
    char *main, *tail;
    int bold;
} tcell;

typedef struct {
    bkind k;
    int level;              /* B_H: 1.. */
    char *text;             /* B_H, B_P, B_NOTE, B_CODE; B_FIG caption */
    char *fig;              /* B_FIG: plot file name without extension */
    char **label, **item;   /* B_LIST: "label: item" lines */
    char **href;            /* B_LIST: a link target per item, or NULL */
    size_t nitem;
    tcell *cell;            /* B_TABLE: rows x cols, row 0 the header */
    size_t rows, cols;
    char *align;            /* B_TABLE: 'l' or 'r' per column */
} block;

typedef struct {
    block *b;
    size_t n;
} blocks;

static block *add(blocks *d, bkind k)
{
    d->b = bl_xrealloc(d->b, (d->n + 1) * sizeof *d->b);
    block *b = &d->b[d->n++];
    memset(b, 0, sizeof *b);
    b->k = k;
    return b;
}

static void text_block(blocks *d, bkind k, int level, const char *f, ...)
    __attribute__((format(printf, 4, 5)));
static void text_block(blocks *d, bkind k, int level, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    char *s = bl_vstrfmt(f, ap);
    va_end(ap);
    block *b = add(d, k);
    b->level = level;
    b->text = s;
}

#define heading(d, lv, ...) text_block(d, B_H, lv, __VA_ARGS__)
#define para(d, ...) text_block(d, B_P, 0, __VA_ARGS__)
#define notep(d, ...) text_block(d, B_NOTE, 0, __VA_ARGS__)

/* An item whose text links to href (NULL: plain text); takes text. */
static void item_link(block *b, const char *label, char *text, const char *href)
{
    b->label = bl_xrealloc(b->label, (b->nitem + 1) * sizeof *b->label);
    b->item = bl_xrealloc(b->item, (b->nitem + 1) * sizeof *b->item);
    b->href = bl_xrealloc(b->href, (b->nitem + 1) * sizeof *b->href);
    b->label[b->nitem] = bl_strdup(label);
    b->href[b->nitem] = href ? bl_strdup(href) : NULL;
    b->item[b->nitem++] = text;
}

static void item(block *b, const char *label, char *text)
{
    item_link(b, label, text, NULL);
}

/* A table; align: one 'l' or 'r' per column. */
static block *table(blocks *d, size_t rows, const char *align)
{
    block *b = add(d, B_TABLE);
    b->rows = rows;
    b->cols = strlen(align);
    b->align = bl_strdup(align);
    b->cell = bl_xcalloc(rows * b->cols, sizeof *b->cell);
    return b;
}

/* Set cell (r, c); takes main and tail (either may be NULL). */
static void cell(block *b, size_t r, size_t c, int bold, char *main, char *tail)
{
    tcell *t = &b->cell[r * b->cols + c];
    free(t->main);
    free(t->tail);
    t->main = main;
    t->tail = tail;
    t->bold = bold;
}

static void header(block *b, size_t c, const char *s)
{
    cell(b, 0, c, 0, bl_strdup(s), NULL);
}

/* A table of rows rows whose header row names its columns: h[c] for each
 * letter of align. */
static block *headed_table(blocks *d, size_t rows, const char *align, const char *const *h)
{
    block *t = table(d, rows, align);
    for (size_t c = 0; c < t->cols; c++)
        header(t, c, h[c]);
    return t;
}

static void figure(blocks *d, const bl_fig *f)
{
    block *b = add(d, B_FIG);
    b->fig = bl_strdup(f->name);
    b->text = bl_strdup(f->caption);
}

static void blocks_free(blocks *d)
{
    for (size_t j = 0; j < d->n; j++) {
        block *b = &d->b[j];
        free(b->text);
        free(b->fig);
        for (size_t i = 0; i < b->nitem; i++) {
            free(b->label[i]);
            free(b->item[i]);
            free(b->href[i]);
        }
        free(b->label);
        free(b->item);
        free(b->href);
        for (size_t i = 0; i < b->rows * b->cols; i++) {
            free(b->cell[i].main);
            free(b->cell[i].tail);
        }
        free(b->cell);
        free(b->align);
    }
    free(d->b);
}

/* ---- number formats ------------------------------------------------------------------- */

/* "mean (std)" in %, std shown as a dash below two runs */
static char *pct_ms(double m, double sd)
{
    if (!isfinite(m))
        return bl_strdup(DASH);
    if (!isfinite(sd))
        return bl_strfmt("%.2f (" DASH ")", 100 * m);
    return bl_strfmt("%.2f (%.2f)", 100 * m, 100 * sd);
}

static char *num(double v, const char *f)
{
    if (isnan(v))
        return bl_strdup(DASH);
    if (isinf(v))
        return bl_strdup(v > 0 ? "inf" : "-inf");
    return bl_strfmt(f, v);
}

static char *pval(double p)
{
    if (isnan(p) || p < 0)
        return bl_strdup(DASH);
    if (p == 0)
        return bl_strdup("0");
    if (p > 0 && p < 1e-4)
        return bl_strfmt("%.1e", p);
    return bl_strfmt("%.4f", p);
}

static char *when(double t)
{
    if (!isfinite(t))
        return bl_strdup("?");
    time_t tt = (time_t)t;
    struct tm tm;
    char buf[64];
    if (!localtime_r(&tt, &tm) || !strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", &tm))
        return bl_strdup("?");
    return bl_strdup(buf);
}

/* "a, b, c" */
static char *join(char *const *v, size_t n)
{
    size_t len = 1;
    for (size_t j = 0; j < n; j++)
        len += strlen(v[j]) + 2;
    char *s = bl_xmalloc(len);
    s[0] = 0;
    for (size_t j = 0; j < n; j++) {
        if (j)
            strcat(s, ", ");
        strcat(s, v[j]);
    }
    return s;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* ---- the report's content --------------------------------------------------------------- */

static void overview(blocks *d, const bl_report_doc *rd, const bl_report_exp *x)
{
    const bl_rexp *e = x->e;
    block *b = add(d, B_LIST);
    char *s = bl_strfmt("%zu", e->runs);
    if (e->stale) {
        char *t = bl_strfmt("%s (%zu older run%s, made with other parameters or seeds, left "
                            "out)", s, e->stale, e->stale == 1 ? "" : "s");
        free(s);
        s = t;
    }
    if (e->expected && e->missing) {
        char *t = bl_strfmt("%s of %zu planned: %zu missing, the store is incomplete", s,
                            e->expected, e->missing);
        free(s);
        s = t;
    } else if (e->expected) {
        char *t = bl_strfmt("%s (all %zu planned)", s, e->expected);
        free(s);
        s = t;
    }
    item(b, "Runs", s);
    char *names = join(e->data, e->nd);
    item(b, "Data sets", bl_strfmt("%zu: %s", e->nd, names));
    free(names);
    names = join(e->algo, e->na);
    item(b, "Algorithms", bl_strfmt("%zu: %s", e->na, names));
    free(names);
    if (e->rep_min == e->rep_max)
        item(b, "Repeats", bl_strfmt("%zu per data set and algorithm", e->rep_max));
    else
        item(b, "Repeats", bl_strfmt("%zu to %zu per data set and algorithm", e->rep_min,
                                     e->rep_max));
    names = e->nhost ? join(e->host, e->nhost) : bl_strdup("?");
    item(b, "Hosts", names);
    char *t0 = when(e->first), *t1 = when(e->last);
    item(b, "Dates", bl_strfmt("%s to %s", t0, t1));
    free(t0);
    free(t1);
    item(b, "Output folder", bl_strdup(rd->dir));
    if (!e->ordered)
        notep(d, "Data sets and algorithms are in store order: %s/experiment.ini, which "
              "gives the order of the grid, could not be read or does not list them.", rd->dir);
}

/* "0-3, 7" for ascending repeats */
static char *ranges(const int *r, size_t n)
{
    char *s = bl_strdup("");
    for (size_t j = 0; j < n;) {
        size_t k = j;
        while (k + 1 < n && r[k + 1] == r[k] + 1)
            k++;
        char *t = k > j ? bl_strfmt("%s%s%d-%d", s, j ? ", " : "", r[j], r[k])
                        : bl_strfmt("%s%s%d", s, j ? ", " : "", r[j]);
        free(s);
        s = t;
        j = k + 1;
    }
    return s;
}

/* An incomplete store (a run killed, a job failed): what is missing and
 * what the tables and tests do about it. */
static void missing_section(blocks *d, const bl_rexp *e, int lv)
{
    if (!e->missing)
        return;
    heading(d, lv, "Missing runs");
    notep(d, "The store holds %zu of the %zu runs the experiment planned: %zu are missing "
          "(the experiment was stopped, or runs failed; `boostlab run` again adds them).  Means "
          "in the tables are over the runs present, so cells may average different splits; "
          "the best value of a row (bold) and the tests over data sets therefore compare the "
          "means over the repeats every algorithm of the data set ran (\"paired repeats\" in "
          "the data set table), and the pairwise tests use only the repeats both algorithms "
          "ran.", e->expected - e->missing, e->expected, e->missing);
    size_t rows = 1;
    for (size_t c = 0; c < e->nd * e->na; c++)
        rows += e->cell[c].nmiss > 0;
    const char *h[] = {"data set", "algorithm", "runs present", "missing repeats"};
    block *t = headed_table(d, rows, "llrl", h);
    size_t r = 1;
    for (size_t dd = 0; dd < e->nd; dd++)
        for (size_t a = 0; a < e->na; a++) {
            const bl_rcell *c = bl_rexp_cell(e, dd, a);
            if (!c->nmiss)
                continue;
            cell(t, r, 0, 0, bl_strdup(e->data[dd]), NULL);
            cell(t, r, 1, 0, bl_strdup(e->algo[a]), NULL);
            cell(t, r, 2, 0, bl_strfmt("%zu of %zu", c->n, c->n + c->nmiss), NULL);
            cell(t, r, 3, 0, ranges(c->miss, c->nmiss), NULL);
            r++;
        }
}

static char *count_or_dash(size_t n)
{
    return n ? bl_strfmt("%zu", n) : bl_strdup(DASH);
}

static void data_section(blocks *d, const bl_rexp *e, int lv)
{
    heading(d, lv, "Data sets");
    para(d, "Rows of one split (training + test), features and classes as the runs recorded "
         "them; paired repeats: those with a test error for every algorithm run on the data "
         "set, over which the best values and the tests over data sets compare.");
    const char *h[] = {"data set", "rows", "training rows", "test rows", "features", "classes",
                       "paired repeats"};
    block *t = headed_table(d, e->nd + 1, "lrrrrrr", h);
    for (size_t dd = 0; dd < e->nd; dd++) {
        size_t r = dd + 1;
        cell(t, r, 0, 0, bl_strdup(e->data[dd]), NULL);
        cell(t, r, 1, 0, count_or_dash(e->m_train[dd] + e->m_test[dd]), NULL);
        cell(t, r, 2, 0, count_or_dash(e->m_train[dd]), NULL);
        cell(t, r, 3, 0, count_or_dash(e->m_test[dd]), NULL);
        cell(t, r, 4, 0, count_or_dash(e->feat[dd]), NULL);
        cell(t, r, 5, 0, count_or_dash(e->classes[dd]), NULL);
        cell(t, r, 6, 0, bl_strfmt("%zu", e->paired[dd]), NULL);
    }
}

static void provenance_section(blocks *d, const bl_report_doc *rd, const bl_rexp *e, int lv)
{
    const bl_report_prov *pv = rd->prov;
    heading(d, lv, "Provenance");
    block *b = add(d, B_LIST);
    item(b, "boostlab", bl_strdup(pv && pv->version ? pv->version : "?"));
    item(b, "Experiment seed", bl_strdup(pv && pv->seed ? pv->seed : "not recorded"));
    char *names = e->nhost ? join(e->host, e->nhost) : bl_strdup("not recorded");
    item(b, "Hosts", names);
    if (pv && pv->ini_href)
        item_link(b, "Resolved experiment", bl_strdup("experiment.ini"), pv->ini_href);
    else
        item(b, "Resolved experiment", bl_strdup("experiment.ini not found"));
    if (pv && pv->summary_href)
        item_link(b, "Summary", bl_strdup("summary.csv"), pv->summary_href);
    else
        item(b, "Summary", bl_strdup("summary.csv not found"));
    para(d, "boostlab is the program that wrote this report; the store does not record the "
         "version of the runs (plugins.tsv below, when present, names the plugins they "
         "loaded).");

    heading(d, lv + 1, "Split seeds");
    para(d, "Per data set, \"repeat: seed\" of the split each repeat used (every algorithm "
         "sees the same split of a repeat).");
    b = add(d, B_LIST);
    for (size_t dd = 0; dd < e->nd; dd++)
        item(b, e->data[dd], bl_strdup(*e->seeds[dd] ? e->seeds[dd] : "not recorded"));

    heading(d, lv + 1, "Plugins");
    if (!pv || !pv->nplugin) {
        para(d, "Plugin paths and hashes: not recorded (%s).",
             pv && pv->plugins_why ? pv->plugins_why : "no plugins.tsv in the output folder");
    } else {
        para(d, "The plugins the runs loaded (plugins.tsv of the output folder).");
        const char *h[BL_PROV_COLS] = {"role", "plugin", "file", "hash64 (FNV-1a)",
                                       "first used"};
        block *t = headed_table(d, pv->nplugin + 1, "lllll", h);
        for (size_t j = 0; j < pv->nplugin; j++)
            for (size_t c = 0; c < BL_PROV_COLS; c++)
                cell(t, j + 1, c, 0, bl_strdup(pv->plugin[j][c] ? pv->plugin[j][c] : ""), NULL);
    }

    heading(d, lv + 1, "Algorithm parameters");
    para(d, "Every parameter of each algorithm as resolved from its recipe and the experiment, "
         "as its newest run stored it.");
    for (size_t a = 0; a < e->na; a++) {
        para(d, "%s%s%s%s", e->algo[a], *e->recipe[a] ? " (recipe " : "", e->recipe[a],
             *e->recipe[a] ? ")" : "");
        block *c = add(d, B_CODE);
        c->text = bl_strdup(*e->params[a] ? e->params[a] : "(not recorded)");
        for (size_t n = strlen(c->text); n > 0 && c->text[n - 1] == '\n';)
            c->text[--n] = 0;
    }
}

static void regenerate(blocks *d, const bl_report_doc *rd)
{
    para(d, "To run the experiment again (runs the store holds are skipped) and rewrite this "
         "report:");
    block *b = add(d, B_CODE);
    if (rd->run_cmd)
        b->text = bl_strfmt("%s\n%s", rd->run_cmd, rd->report_cmd);
    else
        b->text = bl_strdup(rd->report_cmd);
}

/* Lowest paired mean of data set dd (NaN when none). */
static double row_best(const bl_rexp *e, size_t dd)
{
    double best = NAN;
    for (size_t a = 0; a < e->na; a++) {
        double m = bl_rexp_cell(e, dd, a)->pm_mean;
        if (isfinite(m) && !(m >= best))
            best = m;
    }
    return best;
}

/* "ll rrr..." for a label column and n numeric ones */
static char *aligns(size_t lead, size_t n)
{
    char *s = bl_xmalloc(lead + n + 1);
    memset(s, 'l', lead);
    memset(s + lead, 'r', n);
    s[lead + n] = 0;
    return s;
}

/* ", n=R" when a cell has fewer runs than the fullest cell */
static char *fewer(const bl_rexp *e, const bl_rcell *c)
{
    return c->n && c->n < e->rep_max ? bl_strfmt(", n=%zu", c->n) : bl_strdup("");
}

/* A table of the data sets (rows) by the algorithms (columns): the header
 * row and the data set column filled in. */
static block *data_algo_table(blocks *d, const bl_rexp *e)
{
    char *al = aligns(1, e->na);
    block *t = table(d, e->nd + 1, al);
    free(al);
    header(t, 0, "data set");
    for (size_t a = 0; a < e->na; a++)
        header(t, a + 1, e->algo[a]);
    for (size_t dd = 0; dd < e->nd; dd++)
        cell(t, dd + 1, 0, 0, bl_strdup(e->data[dd]), NULL);
    return t;
}

/* A test's heading, and when the test was omitted a note saying why;
 * returns ok (whether the section goes on). */
static int test_heading(blocks *d, int lv, const char *title, int ok, const char *test,
                        const char *why)
{
    heading(d, lv, "%s", title);
    if (!ok)
        notep(d, "%s omitted: %s.", test, why);
    return ok;
}

/* Row r of a comparison the test could not make: dashes in columns
 * [from, last), the reason in column last. */
static void omitted_row(block *t, size_t r, size_t from, size_t last, const char *why)
{
    for (size_t c = from; c < last; c++)
        cell(t, r, c, 0, bl_strdup(DASH), NULL);
    cell(t, r, last, 0, bl_strfmt("omitted: %s", why), NULL);
}

/* The "significant" column: yes (in bold) or no. */
static void significance(block *t, size_t r, size_t c, int sig)
{
    cell(t, r, c, sig, bl_strdup(sig ? "yes" : "no"), NULL);
}


static void error_table(blocks *d, const bl_report_exp *x, int lv)
{
    const bl_rexp *e = x->e;
    heading(d, lv, "Test error");
    int anypaper = 0;
    for (size_t c = 0; c < e->nd * e->na; c++)
        anypaper |= e->cell[c].paper_mean != NULL;
    para(d, "Test error in %%: mean (standard deviation) over the repeats; the lowest mean of "
         "each data set in bold.%s%s",
         e->rep_min < e->rep_max ? " \"n=R\" marks a cell with fewer repeats than the others; "
                                   "bold marks the lowest mean over the paired repeats (those "
                                   "every algorithm of the data set ran), not over n=R." : "",
         anypaper ? " \"paper\" is the number the paper printed for the same data set and "
                    "algorithm." : "");
    block *t = data_algo_table(d, e);
    for (size_t dd = 0; dd < e->nd; dd++) {
        double best = row_best(e, dd);
        for (size_t a = 0; a < e->na; a++) {
            const bl_rcell *c = bl_rexp_cell(e, dd, a);
            char *tail = fewer(e, c);
            if (c->paper_mean) {
                char *p = c->paper_std ? bl_strfmt("%s " MIDDOT " paper %s (%s)", tail,
                                                   c->paper_mean, c->paper_std)
                                       : bl_strfmt("%s " MIDDOT " paper %s", tail, c->paper_mean);
                free(tail);
                tail = p;
            }
            /* equal to the best up to rounding: averaged errors may differ
             * in their last bits only */
            int bold = isfinite(c->pm_mean) && c->pm_mean - best <= 1e-12 * fabs(best) + 1e-15;
            cell(t, dd + 1, a + 1, bold, pct_ms(c->te_mean, c->te_std), tail);
        }
    }
    if (x->paper)
        para(d, "Paper's numbers from %s.", base_name(x->paper));
}

static void time_table(blocks *d, const bl_rexp *e, int lv)
{
    heading(d, lv, "Time");
    para(d, "Mean seconds per run: in " STEP4_DEF " / in all (weak learner, coefficients and "
         "bookkeeping).");
    /* one number of decimals for the whole table, enough for two significant
     * digits of its smallest time */
    double lo = INFINITY;
    for (size_t c = 0; c < e->nd * e->na; c++) {
        if (isfinite(e->cell[c].tc_mean) && e->cell[c].tc_mean > 0)
            lo = fmin(lo, e->cell[c].tc_mean);
        if (isfinite(e->cell[c].tt_mean) && e->cell[c].tt_mean > 0)
            lo = fmin(lo, e->cell[c].tt_mean);
    }
    int dec = isfinite(lo) ? 1 - (int)floor(log10(lo)) : 3;
    dec = dec < 0 ? 0 : dec > 6 ? 6 : dec;
    char fmt[16];
    snprintf(fmt, sizeof fmt, "%%.%df", dec);
    block *t = data_algo_table(d, e);
    for (size_t dd = 0; dd < e->nd; dd++) {
        for (size_t a = 0; a < e->na; a++) {
            const bl_rcell *c = bl_rexp_cell(e, dd, a);
            char *tc = num(c->tc_mean, fmt), *tt = num(c->tt_mean, fmt);
            char *tail = fewer(e, c);
            cell(t, dd + 1, a + 1, 0, bl_strfmt("%s / %s%s", tc, tt, tail), NULL);
            free(tc);
            free(tt);
            free(tail);
        }
    }
}

static void train_table(blocks *d, const bl_rexp *e, int lv)
{
    heading(d, lv, "Training error");
    para(d, "Training error in %%: mean (standard deviation) over the repeats.");
    block *t = data_algo_table(d, e);
    for (size_t dd = 0; dd < e->nd; dd++) {
        for (size_t a = 0; a < e->na; a++) {
            const bl_rcell *c = bl_rexp_cell(e, dd, a);
            cell(t, dd + 1, a + 1, 0, pct_ms(c->tr_mean, c->tr_std), fewer(e, c));
        }
    }
}

static const bl_fig *find_fig(const bl_figs *fs, bl_fig_kind k, long dd, long a)
{
    for (size_t j = 0; fs && j < fs->n; j++)
        if (fs->fig[j].kind == k && fs->fig[j].d == dd && fs->fig[j].a == a)
            return &fs->fig[j];
    return NULL;
}

static void friedman_section(blocks *d, const bl_report_exp *x, int lv)
{
    const bl_rexp *e = x->e;
    const bl_rstats *st = x->st;
    if (!test_heading(d, lv, "Friedman test and Nemenyi critical difference", st->fr_ok,
                      "Friedman test", st->fr_why))
        return;
    const bl_friedman_result *fr = &st->fr;
    para(d, "Friedman test on the mean test errors (over the paired repeats) of %zu "
         "algorithms over %zu data sets (Dem\xc5\xa1" "ar 2006): each data set ranks the "
         "algorithms, 1 = lowest error, ties sharing their average rank.%s", e->na, st->fr_n,
         st->fr_n < e->nd ? " Data sets without a test error for every algorithm are left "
                            "out." : "");
    const char *h[] = {"position", "algorithm", "average rank"};
    block *t = headed_table(d, e->na + 1, "rlr", h);
    for (size_t j = 0; j < e->na; j++) {
        size_t a = st->cd_order[j];
        cell(t, j + 1, 0, 0, bl_strfmt("%zu", j + 1), NULL);
        cell(t, j + 1, 1, j == 0, bl_strdup(e->algo[a]), NULL);
        cell(t, j + 1, 2, 0, bl_strfmt("%.3f", fr->avg_rank[a]), NULL);
    }
    block *b = add(d, B_LIST);
    char *p = pval(fr->p_chi2);
    item(b, "Friedman chi2_F", bl_strfmt("%.4g with %zu degrees of freedom, p = %s", fr->chi2,
                                         e->na - 1, p));
    free(p);
    p = pval(fr->p_ff);
    char *ff = num(fr->ff, "%.4g");
    item(b, "Iman-Davenport F_F", bl_strfmt("%s with (%g, %g) degrees of freedom, p = %s", ff,
                                            fr->df1, fr->df2, p));
    free(ff);
    item(b, "Verdict", bl_strfmt("the algorithms %s at alpha = %g (F_F test)",
                                 fr->p_ff <= st->alpha ? "differ significantly"
                                                       : "do not differ significantly",
                                 st->alpha));
    free(p);
    item(b, "Nemenyi critical difference",
         bl_strfmt("CD = %.3f (q_alpha = %.3f, alpha = %g): two algorithms differ significantly "
                   "when their average ranks differ by at least CD", fr->cd, fr->q_alpha,
                   st->alpha));
    char *groups = bl_strdup("");
    for (size_t g = 0; g < st->cd_ngroups; g++) {
        size_t len = strlen(groups) + 8;
        for (size_t j = st->cd_groups[g][0]; j <= st->cd_groups[g][1]; j++)
            len += strlen(e->algo[st->cd_order[j]]) + 2;
        char *s = bl_xmalloc(len);
        strcpy(s, groups);
        strcat(s, g ? "; {" : "{");
        for (size_t j = st->cd_groups[g][0]; j <= st->cd_groups[g][1]; j++) {
            if (j > st->cd_groups[g][0])
                strcat(s, ", ");
            strcat(s, e->algo[st->cd_order[j]]);
        }
        strcat(s, "}");
        free(groups);
        groups = s;
    }
    item(b, "Groups not significantly different",
         st->cd_ngroups ? groups
                        : bl_strdup("none: every two algorithms' ranks differ by at least CD"));
    if (!st->cd_ngroups)
        free(groups);
    const bl_fig *f = find_fig(x->figs, BL_FIG_CD, -1, -1);
    if (f)
        figure(d, f);
}

static void wilcoxon_section(blocks *d, const bl_report_exp *x, int lv)
{
    const bl_rexp *e = x->e;
    const bl_rstats *st = x->st;
    const char *ref = e->algo[st->ref];
    if (!test_heading(d, lv, "Wilcoxon signed-rank test over data sets", st->wx_ok,
                      "Wilcoxon signed-rank test", st->wx_why))
        return;
    para(d, "%s against each other algorithm on the mean test errors of the data sets, "
         "two-sided, alpha = %g.  R+ sums the ranks of the data sets where %s has the higher "
         "error, R- those where it has the lower; T = min(R+, R-) is significant when at most "
         "the critical value (exact tables, N = data sets with a difference); p is exact "
         "(normal approximation when N > %d); the p-values of the %zu comparisons are "
         "Holm-adjusted, and with more than one \"significant\" is by the Holm p.  Data sets "
         "compare by their mean over the paired repeats.", ref, st->alpha, ref,
         BL_WILCOXON_EXACT_MAX, e->na - 1);
    const char *h[] = {"algorithm", "data sets", "R+", "R-", "T", "N", "critical T", "p",
                       "p (Holm)", "significant"};
    block *t = headed_table(d, e->na, "lrrrrrrrrl", h);
    size_t r = 1;
    for (size_t a = 0; a < e->na; a++) {
        if (a == st->ref)
            continue;
        const bl_rwilcox *w = &st->wx[a];
        cell(t, r, 0, 0, bl_strfmt("%s vs %s", ref, e->algo[a]), NULL);
        cell(t, r, 1, 0, bl_strfmt("%zu", w->ndata), NULL);
        if (!w->ok) {
            omitted_row(t, r, 2, 9, w->why);
        } else {
            cell(t, r, 2, 0, bl_strfmt("%g", w->w.r_plus), NULL);
            cell(t, r, 3, 0, bl_strfmt("%g", w->w.r_minus), NULL);
            cell(t, r, 4, 0, bl_strfmt("%g", w->w.t), NULL);
            cell(t, r, 5, 0, bl_strfmt("%zu", w->w.n_eff), NULL);
            cell(t, r, 6, 0, w->w.t_crit >= 0 ? bl_strfmt("%d", w->w.t_crit) : bl_strdup(DASH),
                 NULL);
            char *p = pval(w->w.p_exact >= 0 ? w->w.p_exact : w->w.p_normal);
            cell(t, r, 7, 0, p, bl_strdup(w->w.p_exact >= 0 ? "" : " (normal)"));
            cell(t, r, 8, 0, pval(w->p_holm), NULL);
            /* the critical value agrees with p for one comparison; with more, Holm decides */
            significance(t, r, 9, e->na > 2 ? w->p_holm <= st->alpha : w->w.significant);
        }
        r++;
    }
    para(d, "A critical value \"" DASH "\" means that no outcome with this N is significant at "
         "alpha = %g.", st->alpha);
}

/* Fills row r of a per-data-set comparison from column 2 on: algorithm a
 * against the reference, p their pair. */
typedef void (*pair_row_fn)(block *t, size_t r, const bl_report_exp *x, size_t a,
                            const bl_rpair *p);

/* The rows of a per-data-set comparison: one per data set and algorithm
 * other than the reference, named in columns 0 and 1, the rest by row. */
static void pair_rows(block *t, const bl_report_exp *x, pair_row_fn row)
{
    const bl_rexp *e = x->e;
    const bl_rstats *st = x->st;
    size_t r = 1;
    for (size_t dd = 0; dd < e->nd; dd++)
        for (size_t a = 0; a < e->na; a++) {
            if (a == st->ref)
                continue;
            cell(t, r, 0, 0, bl_strdup(e->data[dd]), NULL);
            cell(t, r, 1, 0, bl_strfmt("%s vs %s", e->algo[st->ref], e->algo[a]), NULL);
            row(t, r, x, a, &st->pair[dd * e->na + a]);
            r++;
        }
}

static void ttest_row(block *t, size_t r, const bl_report_exp *x, size_t a, const bl_rpair *p)
{
    (void)a;
    cell(t, r, 2, 0, bl_strfmt("%zu", p->t_n), NULL);
    if (!p->t_ok) {
        omitted_row(t, r, 3, 9, p->t_why);
        return;
    }
    cell(t, r, 3, 0, bl_strfmt("%+.2f", 100 * p->t.mean_diff), NULL);
    cell(t, r, 4, 0, num(p->test_train, "%.3f"), NULL);
    cell(t, r, 5, 0, num(p->tc.t, "%.3f"), NULL);
    cell(t, r, 6, 0, pval(p->tc.p), NULL);
    cell(t, r, 7, 0, pval(p->tc_holm), NULL);
    cell(t, r, 8, 0, pval(p->t.p), NULL);
    significance(t, r, 9, p->tc_holm <= x->st->alpha);
}

static void ztest_row(block *t, size_t r, const bl_report_exp *x, size_t a, const bl_rpair *p)
{
    const char *ref = x->e->algo[x->st->ref];
    cell(t, r, 2, 0, bl_strfmt("%zu", p->z_n), NULL);
    cell(t, r, 3, 0, p->z_n ? bl_strfmt("%.1f / %.1f", p->e_ref, p->n_ref) : bl_strdup(DASH),
         NULL);
    cell(t, r, 4, 0, p->z_n ? bl_strfmt("%.1f / %.1f", p->e_oth, p->n_oth) : bl_strdup(DASH),
         NULL);
    /* the AOSO paper's relative improvement of the reference (same n) */
    double R = (p->e_oth / p->n_oth - p->e_ref / p->n_ref) / (p->e_oth / p->n_oth);
    cell(t, r, 5, 0, p->z_n && isfinite(R) ? num(R, "%.4f") : bl_strdup(DASH), NULL);
    if (!p->z_ok) {
        omitted_row(t, r, 6, 10, p->z_why);
        return;
    }
    cell(t, r, 6, 0,
         bl_strdup(p->better > 0 ? ref : p->better < 0 ? x->e->algo[a] : "equal rates"), NULL);
    cell(t, r, 7, 0, num(p->z.z, "%.3f"), NULL);
    cell(t, r, 8, 0, pval(p->z.p), NULL);
    cell(t, r, 9, 0, pval(p->z_holm), NULL);
    significance(t, r, 10, p->better != 0 && p->z_holm <= x->st->alpha);
}

/* A section of per-data-set comparisons: heading (or the note that the
 * tests were omitted), the introduction intro (taken), and the table of
 * columns h (align) whose rows row fills. */
static void pair_section(blocks *d, const bl_report_exp *x, int lv, const char *title,
                         const char *test, char *intro, const char *align, const char *const *h,
                         pair_row_fn row)
{
    const bl_rexp *e = x->e;
    if (test_heading(d, lv, title, x->st->pair_ok, test, x->st->pair_why)) {
        para(d, "%s", intro);
        pair_rows(headed_table(d, e->nd * (e->na - 1) + 1, align, h), x, row);
    }
    free(intro);
}

static void ttest_section(blocks *d, const bl_report_exp *x, int lv)
{
    const char *ref = x->e->algo[x->st->ref];
    const char *h[] = {"data set", "algorithm", "pairs", "mean difference (pp)",
                       "n_test / n_train", "t (corrected)", "p (corrected)", "p (Holm)",
                       "p (plain t, too small)", "significant"};
    pair_section(d, x, lv, "Paired t-test over splits, per data set (Nadeau-Bengio corrected)",
                 "Paired t-tests",
                 bl_strfmt("Test errors of %s and each other algorithm on the same splits "
                           "(repeats paired by index, only those both ran); the difference is %s "
                           "minus the other, in percentage points (negative: %s has the lower "
                           "error).  The J random splits of a data set share most of their "
                           "training rows, so their differences are correlated and the plain "
                           "paired t-test, which takes them as independent, finds differences "
                           "far too often; the corrected resampled t-test of Nadeau and Bengio "
                           "(2003) multiplies the variance by 1/J + n_test/n_train instead of "
                           "1/J.  Two-sided p; Holm's step-down adjustment over the %zu tests "
                           "of this table keeps the chance of any false finding at alpha = %g, "
                           "and \"significant\" is by the Holm p.  The plain p is shown only for "
                           "comparison with papers that used it.",
                           ref, ref, ref, x->e->nd * (x->e->na - 1), x->st->alpha),
                 "llrrrrrrrl", h, ttest_row);
}

static void ztest_section(blocks *d, const bl_report_exp *x, int lv)
{
    const char *ref = x->e->algo[x->st->ref];
    char *h3 = bl_strfmt("%s errors / n per split", ref);
    const char *h[] = {"data set", "algorithm", "repeats", h3, "other errors / n per split",
                       "R", "better", "z", "p (one-sided)", "p (Holm)", "significant"};
    pair_section(d, x, lv, "Two-proportion z-test on error counts, per data set", "z-tests",
                 bl_strfmt("Test errors of one split (errors = test error x test examples), "
                           "averaged over the repeats both algorithms ran, for %s and each other "
                           "algorithm; R = (other's rate - %s's) / other's, %s's relative "
                           "improvement; one-sided test (unpooled variance, as Sun et al. 2014) "
                           "that the one with the lower error rate is better, Holm-adjusted over "
                           "the table, alpha = %g.  The counts are those of one split, not the "
                           "sum over the repeats: the test rows of repeated splits overlap and "
                           "the models share training rows, so pooling them would count the "
                           "same evidence J times.  Even so the test takes the test rows as "
                           "independent and ignores how the models vary with the training set: "
                           "it says whether the rates differ on a test set of this size, not "
                           "whether one algorithm is better on this data set (the corrected "
                           "t-test above answers that).",
                           ref, ref, ref, x->st->alpha),
                 "llrrrrlrrrl", h, ztest_row);
    free(h3);
}

/* Which test answers which question, said once before them. */
static void tests_intro(blocks *d, const bl_report_exp *x)
{
    para(d, "Significance level alpha = %g; reference algorithm for the pairwise tests: %s.",
         x->st->alpha, x->e->algo[x->st->ref]);
    block *b = add(d, B_LIST);
    item(b, "Over data sets", bl_strdup("Friedman with Nemenyi, and Wilcoxon signed-rank: is "
         "one algorithm better across data sets? Valid with the data sets as independent "
         "samples (the more data sets the better); they use the mean errors over the paired "
         "repeats, so each algorithm is measured on the same splits."));
    item(b, "Per data set", bl_strdup("the corrected resampled t-test: is one algorithm better "
         "on this data set, over random training sets of this size? The plain paired t-test "
         "over overlapping splits is not valid for that and is shown for comparison only."));
    item(b, "Per test set", bl_strdup("the two-proportion z-test: do the error rates differ on "
         "one test set of this size? It takes the test rows as independent and ignores the "
         "variation of the training sets, so it overstates evidence about the algorithms."));
    item(b, "Many comparisons", bl_strdup("each table of pairwise tests is one family, "
         "Holm-adjusted: \"significant\" means the adjusted p is at most alpha."));
}

/* Wins, ties and losses of the reference over the data sets. */
static void wtl_section(blocks *d, const bl_report_exp *x, int lv)
{
    const bl_rexp *e = x->e;
    const bl_rstats *st = x->st;
    if (e->na < 2)
        return;
    const char *ref = e->algo[st->ref];
    heading(d, lv, "Wins, ties and losses");
    para(d, "Data sets where %s has the lower mean test error over the paired repeats (win), "
         "the same at the two decimals shown (tie) or the higher (loss); significant: those of "
         "the wins and losses the corrected t-test finds at alpha = %g after Holm's "
         "adjustment.", ref, st->alpha);
    const char *h[] = {"comparison", "wins", "ties", "losses", "significant wins",
                       "significant losses"};
    block *t = headed_table(d, e->na, "lrrrrr", h);
    size_t r = 1;
    for (size_t a = 0; a < e->na; a++) {
        if (a == st->ref)
            continue;
        const bl_rwilcox *w = &st->wx[a];
        cell(t, r, 0, 0, bl_strfmt("%s vs %s", ref, e->algo[a]), NULL);
        cell(t, r, 1, 0, bl_strfmt("%zu", w->win), NULL);
        cell(t, r, 2, 0, bl_strfmt("%zu", w->tie), NULL);
        cell(t, r, 3, 0, bl_strfmt("%zu", w->loss), NULL);
        cell(t, r, 4, 0, bl_strfmt("%zu", w->sig_win), NULL);
        cell(t, r, 5, 0, bl_strfmt("%zu", w->sig_loss), NULL);
        r++;
    }
}

static void plots_section(blocks *d, const bl_report_doc *rd, const bl_report_exp *x, int lv)
{
    const bl_rexp *e = x->e;
    heading(d, lv, "Plots");
    if (rd->plots_note) {
        notep(d, "%s", rd->plots_note);
        return;
    }
    para(d, "Curves are means over the repeats with a light band of one standard deviation; "
         "where the bands of two algorithms overlap, the difference plot below them shows the "
         "gap: per iteration, the mean over the paired repeats of each algorithm's test error "
         "minus the reference's, with a band of one standard deviation of that paired "
         "difference.  A run that stopped before the others (no weak hypothesis left to "
         "improve the dual) is carried forward at its final value, so every point averages "
         "all repeats.  Time plots show " STEP4_DEF ".");
    for (size_t dd = 0; dd < e->nd; dd++) {
        const bl_fig *f1 = find_fig(x->figs, BL_FIG_ERR, (long)dd, -1);
        const bl_fig *f2 = find_fig(x->figs, BL_FIG_TIME, (long)dd, -1);
        const bl_fig *f3 = find_fig(x->figs, BL_FIG_DIFF, (long)dd, -1);
        int any = f1 || f2 || f3;
        for (size_t a = 0; a < e->na; a++)
            any |= find_fig(x->figs, BL_FIG_BOUNDARY, (long)dd, (long)a) != NULL;
        if (!any)
            continue;
        heading(d, lv + 1, "%s", e->data[dd]);
        if (f1)
            figure(d, f1);
        if (f3)
            figure(d, f3);
        if (f2)
            figure(d, f2);
        for (size_t a = 0; a < e->na; a++) {
            const bl_fig *f = find_fig(x->figs, BL_FIG_BOUNDARY, (long)dd, (long)a);
            if (f)
                figure(d, f);
        }
    }
    int sweeps = 0;
    for (size_t j = 0; x->figs && j < x->figs->n; j++) {
        const bl_fig *f = &x->figs->fig[j];
        if (f->kind != BL_FIG_SWEEP_ERR && f->kind != BL_FIG_SWEEP_TIME)
            continue;
        if (!sweeps++)
            heading(d, lv + 1, "Sweeps");
        figure(d, f);
    }
    if (x->figs && x->figs->nnote) {
        heading(d, lv + 1, "Plot notes");
        for (size_t j = 0; j < x->figs->nnote; j++)
            notep(d, "%s", x->figs->note[j]);
    }
}

static void build(blocks *d, const bl_report_doc *rd)
{
    int lv = 1;
    if (rd->nexp == 1) {
        heading(d, 1, "boostlab report: %s", rd->exp[0].e->name);
    } else {
        heading(d, 1, "boostlab report: %s", rd->dir);
        para(d, "The results store holds %zu experiments.", rd->nexp);
        regenerate(d, rd);
        lv = 2;
    }
    for (size_t j = 0; j < rd->nexp; j++) {
        const bl_report_exp *x = &rd->exp[j];
        if (rd->nexp > 1)
            heading(d, lv, "Experiment %s", x->e->name);
        overview(d, rd, x);
        if (rd->nexp == 1)
            regenerate(d, rd);
        for (size_t k = 0; k < x->e->nnote; k++)
            notep(d, "%s", x->e->note[k]);
        missing_section(d, x->e, lv + 1);
        heading(d, lv + 1, "Results");
        data_section(d, x->e, lv + 2);
        error_table(d, x, lv + 2);
        time_table(d, x->e, lv + 2);
        train_table(d, x->e, lv + 2);
        heading(d, lv + 1, "Statistical tests");
        tests_intro(d, x);
        wtl_section(d, x, lv + 2);
        friedman_section(d, x, lv + 2);
        wilcoxon_section(d, x, lv + 2);
        ttest_section(d, x, lv + 2);
        ztest_section(d, x, lv + 2);
        plots_section(d, rd, x, lv + 1);
        provenance_section(d, rd, x->e, lv + 1);
    }
}

/* ---- escaping ------------------------------------------------------------------------ */

void bl_html_escape(const char *s, FILE *f)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
    }
}

void bl_md_escape(const char *s, FILE *f)
{
    for (; s && *s; s++) {
        if (*s == '\n' || *s == '\r')
            fputc(' ', f); /* a line break would end a table row */
        else {
            if (strchr("\\`*_[]<>|", *s))
                fputc('\\', f);
            fputc(*s, f);
        }
    }
}

/* ---- HTML ----------------------------------------------------------------------------- */

static const char css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"
    "max-width:1150px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}"
    "h1{font-size:1.7em;border-bottom:2px solid #ddd;padding-bottom:.2em}"
    "h2{font-size:1.4em;margin-top:1.8em;border-bottom:1px solid #e5e5e5}"
    "h3{font-size:1.15em;margin-top:1.5em}h4{font-size:1em;margin-top:1.2em}"
    "table{border-collapse:collapse;margin:.5em 0 1.2em;font-size:.9em}"
    "th,td{border:1px solid #ccc;padding:.25em .6em;vertical-align:top}"
    "th{background:#f2f2f2;text-align:left}td.r{text-align:right;white-space:nowrap}"
    "tbody tr:nth-child(even){background:#fafafa}"
    "ul.kv{list-style:none;padding-left:0}ul.kv b{display:inline-block;min-width:9em}"
    ".note{background:#fff8e1;border-left:4px solid #e0a800;padding:.4em .8em}"
    "pre{background:#f4f4f4;padding:.6em 1em;overflow-x:auto}"
    "figure{margin:1em 0 1.8em}figure svg{max-width:100%;height:auto;display:block}"
    "figcaption{font-size:.9em;color:#555;margin-top:.3em}";

/* Copy an SVG file into f for inlining: from its <svg> tag on, without
 * the XML namespace attributes (HTML does not need them), and with every
 * id (and the #references to it) prefixed, since the ids of several plots
 * in one page would otherwise collide. */
static int inline_svg(FILE *f, const char *path, const char *prefix)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return -1;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    char chunk[65536];
    while ((got = fread(chunk, 1, sizeof chunk, in)) > 0) {
        if (len + got + 1 > cap) {
            cap = 2 * (len + got + 1);
            buf = bl_xrealloc(buf, cap);
        }
        memcpy(buf + len, chunk, got);
        len += got;
    }
    int bad = ferror(in);
    fclose(in);
    if (bad || !buf) {
        free(buf);
        return -1;
    }
    buf[len] = 0;
    const char *p = strstr(buf, "<svg");
    if (!p) {
        free(buf);
        return -1;
    }
    int intag = 0;
    char q = 0;
    while (*p) {
        char c = *p;
        if (!intag) {
            if (!strncmp(p, "<title>Gnuplot</title>", 22)) {
                p += 22; /* a tooltip saying "Gnuplot" helps nobody */
                continue;
            }
            if (c == '<' && !strncmp(p, "<!--", 4)) {
                const char *end = strstr(p, "-->");
                p = end ? end + 3 : p + strlen(p); /* comments dropped */
                continue;
            }
            intag = c == '<';
            fputc(c, f);
            p++;
            continue;
        }
        if (q) {
            if (c == q)
                q = 0;
            else if (!strncmp(p, "url(#", 5)) {
                fprintf(f, "url(#%s", prefix);
                p += 5;
                continue;
            }
            fputc(c, f);
            p++;
            continue;
        }
        if (c == '>') {
            intag = 0;
            fputc(c, f);
            p++;
            continue;
        }
        if (c == '"' || c == '\'') {
            q = c;
            fputc(c, f);
            p++;
            continue;
        }
        if (isspace((unsigned char)c)) {
            /* an attribute: name = quoted value */
            const char *n = p;
            while (isspace((unsigned char)*n))
                n++;
            const char *ne = n;
            while (isalnum((unsigned char)*ne) || *ne == ':' || *ne == '-' || *ne == '_')
                ne++;
            const char *v = ne;
            while (isspace((unsigned char)*v))
                v++;
            if (ne > n && *v == '=') {
                v++;
                while (isspace((unsigned char)*v))
                    v++;
                if (*v == '"' || *v == '\'') {
                    size_t nl = (size_t)(ne - n);
                    const char *ve = strchr(v + 1, *v);
                    if (ve && nl >= 5 && !strncmp(n, "xmlns", 5) && (nl == 5 || n[5] == ':')) {
                        p = ve + 1; /* dropped */
                        continue;
                    }
                    int isid = nl == 2 && !strncmp(n, "id", 2);
                    int ishref = nl >= 4 && !strncmp(ne - 4, "href", 4) && v[1] == '#';
                    if (ve && (isid || ishref)) {
                        fputc(' ', f);
                        fwrite(n, 1, nl, f);
                        fprintf(f, "=%c%s%s", *v, ishref ? "#" : "", prefix);
                        p = v + 1 + (ishref ? 1 : 0);
                        q = *v;
                        continue;
                    }
                }
            }
        }
        fputc(c, f);
        p++;
    }
    fputc('\n', f);
    free(buf);
    return 0;
}

static void html_cell(FILE *f, const tcell *c, int th, char align)
{
    fputs(th ? "<th>" : align == 'r' ? "<td class=\"r\">" : "<td>", f);
    if (c->bold)
        fputs("<strong>", f);
    bl_html_escape(c->main ? c->main : "", f);
    if (c->bold)
        fputs("</strong>", f);
    bl_html_escape(c->tail, f);
    fputs(th ? "</th>" : "</td>", f);
}

static void html_blocks(const blocks *d, const bl_report_doc *rd, FILE *f)
{
    size_t nfig = 0;
    for (size_t j = 0; j < d->n; j++) {
        const block *b = &d->b[j];
        int lv = b->level < 1 ? 1 : b->level > 6 ? 6 : b->level;
        switch (b->k) {
        case B_H:
            fprintf(f, "<h%d>", lv);
            bl_html_escape(b->text, f);
            fprintf(f, "</h%d>\n", lv);
            break;
        case B_P:
        case B_NOTE:
            fputs(b->k == B_NOTE ? "<p class=\"note\">" : "<p>", f);
            bl_html_escape(b->text, f);
            fputs("</p>\n", f);
            break;
        case B_CODE:
            fputs("<pre><code>", f);
            bl_html_escape(b->text, f);
            fputs("</code></pre>\n", f);
            break;
        case B_LIST:
            fputs("<ul class=\"kv\">\n", f);
            for (size_t i = 0; i < b->nitem; i++) {
                fputs("<li><b>", f);
                bl_html_escape(b->label[i], f);
                fputs(":</b> ", f);
                if (b->href[i]) {
                    fputs("<a href=\"", f);
                    bl_html_escape(b->href[i], f);
                    fputs("\">", f);
                }
                bl_html_escape(b->item[i], f);
                if (b->href[i])
                    fputs("</a>", f);
                fputs("</li>\n", f);
            }
            fputs("</ul>\n", f);
            break;
        case B_TABLE:
            fputs("<table>\n<thead><tr>", f);
            for (size_t c = 0; c < b->cols; c++)
                html_cell(f, &b->cell[c], 1, b->align[c]);
            fputs("</tr></thead>\n<tbody>\n", f);
            for (size_t r = 1; r < b->rows; r++) {
                fputs("<tr>", f);
                for (size_t c = 0; c < b->cols; c++)
                    html_cell(f, &b->cell[r * b->cols + c], 0, b->align[c]);
                fputs("</tr>\n", f);
            }
            fputs("</tbody>\n</table>\n", f);
            break;
        case B_FIG: {
            char *file = bl_strfmt("%s.svg", b->fig);
            char *path = bl_path_join(rd->plot_dir, file);
            char *prefix = bl_strfmt("f%zu-", ++nfig);
            fputs("<figure>\n", f);
            if (inline_svg(f, path, prefix) < 0) {
                fputs("<p class=\"note\">plot missing: ", f);
                bl_html_escape(file, f);
                fputs("</p>\n", f);
            }
            fputs("<figcaption>", f);
            bl_html_escape(b->text, f);
            fputs("</figcaption>\n</figure>\n", f);
            free(prefix);
            free(path);
            free(file);
            break;
        }
        }
    }
}

/* ---- Markdown --------------------------------------------------------------------------- */

/* A link target in Markdown: characters that would end it percent-encoded. */
static void md_href(const char *s, FILE *f)
{
    for (; *s; s++) {
        if (*s == ' ' || *s == '(' || *s == ')' || *s == '<' || *s == '>' || (unsigned char)*s < 32)
            fprintf(f, "%%%02X", (unsigned char)*s);
        else
            fputc(*s, f);
    }
}

static void md_cell(FILE *f, const tcell *c)
{
    fputs(" ", f);
    if (c->bold && c->main && *c->main)
        fputs("**", f);
    bl_md_escape(c->main ? c->main : "", f);
    if (c->bold && c->main && *c->main)
        fputs("**", f);
    bl_md_escape(c->tail, f);
    fputs(" |", f);
}

static void md_blocks(const blocks *d, const bl_report_doc *rd, FILE *f)
{
    for (size_t j = 0; j < d->n; j++) {
        const block *b = &d->b[j];
        switch (b->k) {
        case B_H:
            for (int i = 0; i < (b->level < 1 ? 1 : b->level > 6 ? 6 : b->level); i++)
                fputc('#', f);
            fputc(' ', f);
            bl_md_escape(b->text, f);
            fputs("\n\n", f);
            break;
        case B_P:
            bl_md_escape(b->text, f);
            fputs("\n\n", f);
            break;
        case B_NOTE:
            fputs("> **Note:** ", f);
            bl_md_escape(b->text, f);
            fputs("\n\n", f);
            break;
        case B_CODE:
        {
            /* a fence longer than any backtick run inside */
            size_t run = 0, longest = 0;
            for (const char *c = b->text; *c; c++) {
                run = *c == '`' ? run + 1 : 0;
                longest = run > longest ? run : longest;
            }
            size_t fence = longest < 3 ? 3 : longest + 1;
            for (size_t i = 0; i < fence; i++)
                fputc('`', f);
            fprintf(f, "sh\n%s\n", b->text);
            for (size_t i = 0; i < fence; i++)
                fputc('`', f);
            fputs("\n\n", f);
            break;
        }
        case B_LIST:
            for (size_t i = 0; i < b->nitem; i++) {
                fputs("- **", f);
                bl_md_escape(b->label[i], f);
                fputs(":** ", f);
                if (b->href[i])
                    fputc('[', f);
                bl_md_escape(b->item[i], f);
                if (b->href[i]) {
                    fputs("](", f);
                    md_href(b->href[i], f);
                    fputc(')', f);
                }
                fputc('\n', f);
            }
            fputc('\n', f);
            break;
        case B_TABLE:
            fputs("|", f);
            for (size_t c = 0; c < b->cols; c++)
                md_cell(f, &b->cell[c]);
            fputs("\n|", f);
            for (size_t c = 0; c < b->cols; c++)
                fputs(b->align[c] == 'r' ? " ---: |" : " :--- |", f);
            fputc('\n', f);
            for (size_t r = 1; r < b->rows; r++) {
                fputs("|", f);
                for (size_t c = 0; c < b->cols; c++)
                    md_cell(f, &b->cell[r * b->cols + c]);
                fputc('\n', f);
            }
            fputc('\n', f);
            break;
        case B_FIG:
            fputs("![", f);
            bl_md_escape(b->text, f);
            fprintf(f, "](%s/%s.png)\n\n*", rd->plot_rel, b->fig);
            bl_md_escape(b->text, f);
            fputs("*\n\n", f);
            break;
        }
    }
}

/* ---- the files -------------------------------------------------------------------------- */

static int write_doc(const bl_report_doc *rd, const char *path, int html, bl_error *err)
{
    blocks d = {NULL, 0};
    build(&d, rd);
    bl_atomic a;
    if (bl_atomic_open(&a, path, err) < 0) {
        blocks_free(&d);
        return -1;
    }
    if (html) {
        fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
              "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
              "<title>",
              a.f);
        bl_html_escape(d.b[0].text, a.f);
        fprintf(a.f, "</title>\n<style>%s</style>\n</head>\n<body>\n", css);
        html_blocks(&d, rd, a.f);
        fputs("<p style=\"color:#888;font-size:.85em\">Written by boostlab report.</p>\n"
              "</body>\n</html>\n",
              a.f);
    } else {
        md_blocks(&d, rd, a.f);
    }
    blocks_free(&d);
    if (ferror(a.f)) {
        bl_atomic_abort(&a);
        return bl_errf(err, "%s: write error", path);
    }
    return bl_atomic_commit(&a, err);
}

int bl_render_html(const bl_report_doc *doc, const char *path, bl_error *err)
{
    return write_doc(doc, path, 1, err);
}

int bl_render_md(const bl_report_doc *doc, const char *path, bl_error *err)
{
    return write_doc(doc, path, 0, err);
}

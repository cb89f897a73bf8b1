/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The report's analysis (see analysis.h): rows of the results store
 * grouped into cells per experiment, the paper's CSV matched to them, mean
 * curves over repeats, and the Friedman, Wilcoxon, paired t and
 * two-proportion z tests.
 */
#include "analysis.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "../config/experiment.h"
#include "../util/fsutil.h"
#include "stats.h"

/* ---- small helpers ------------------------------------------------------------ */

static long find_str(char *const *v, size_t n, const char *s)
{
    for (size_t j = 0; j < n; j++)
        if (!strcmp(v[j], s))
            return (long)j;
    return -1;
}

static void push_str(char ***v, size_t *n, const char *s)
{
    *v = bl_xrealloc(*v, (*n + 1) * sizeof **v);
    (*v)[(*n)++] = bl_strdup(s);
}

void bl_rexp_note(bl_rexp *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = bl_vstrfmt(fmt, ap);
    va_end(ap);
    e->note = bl_xrealloc(e->note, (e->nnote + 1) * sizeof *e->note);
    e->note[e->nnote++] = s;
}

long bl_rexp_algo(const bl_rexp *e, const char *name)
{
    return find_str(e->algo, e->na, name);
}

/* Mean and sample std of the finite values of x[0..n). */
static void summarise(const double *x, size_t n, double *mean, double *sd, size_t *count)
{
    double *f = bl_xmalloc((n ? n : 1) * sizeof *f);
    size_t m = 0;
    for (size_t j = 0; j < n; j++)
        if (isfinite(x[j]))
            f[m++] = x[j];
    *mean = m ? bl_mean(f, m) : NAN;
    if (sd)
        *sd = m >= 2 ? bl_std(f, m) : NAN;
    if (count)
        *count = m;
    free(f);
}

/* ---- gathering the rows ------------------------------------------------------ */

/* Names of the INI sections "KIND NAME" that rows [lo, hi) use, in INI
 * order, then the names it lacks in row order. */
static void order_names(const bl_store_row *rows, size_t lo, size_t hi, int algo,
                        const bl_ini *ini, char ***out, size_t *nout, int *from_ini)
{
    const char *kind = algo ? "algorithm " : "data ";
    size_t kl = strlen(kind);
    *out = NULL;
    *nout = 0;
    for (size_t s = 0; ini && s < ini->nsec; s++) {
        const char *sec = ini->sec[s].name;
        if (strncmp(sec, kind, kl) != 0)
            continue;
        const char *name = sec + kl;
        for (size_t j = lo; j < hi; j++)
            if (!strcmp(algo ? rows[j].algo : rows[j].data, name)) {
                if (find_str(*out, *nout, name) < 0) {
                    push_str(out, nout, name);
                    *from_ini = 1;
                }
                break;
            }
    }
    for (size_t j = lo; j < hi; j++) {
        const char *name = algo ? rows[j].algo : rows[j].data;
        if (find_str(*out, *nout, name) < 0)
            push_str(out, nout, name);
    }
}

static void cell_alloc(bl_rcell *c, size_t n)
{
    size_t m = n ? n : 1;
    c->n = n;
    c->rep = bl_xcalloc(m, sizeof *c->rep);
    c->id = bl_xcalloc(m, sizeof *c->id);
    c->test_err = bl_xcalloc(m, sizeof *c->test_err);
    c->train_err = bl_xcalloc(m, sizeof *c->train_err);
    c->t_coef = bl_xcalloc(m, sizeof *c->t_coef);
    c->t_total = bl_xcalloc(m, sizeof *c->t_total);
    c->m_test = bl_xcalloc(m, sizeof *c->m_test);
    c->m_train = bl_xcalloc(m, sizeof *c->m_train);
    c->seed = bl_xcalloc(m, sizeof *c->seed);
    c->stopped = bl_xcalloc(m, sizeof *c->stopped);
}

static void cell_free(bl_rcell *c)
{
    free(c->rep);
    free(c->id);
    free(c->test_err);
    free(c->train_err);
    free(c->t_coef);
    free(c->t_total);
    free(c->m_test);
    free(c->m_train);
    free(c->seed);
    free(c->miss);
    free(c->stopped);
    free(c->paper_mean);
    free(c->paper_std);
}

static double finished_of(const bl_store_row *r)
{
    return isfinite(r->finished) ? r->finished : -INFINITY;
}

/* Fill cell c from the rows idx[0..n) of one data set x algorithm: the
 * newest parameters only, one run per repeat (the newest).  Returns how
 * many rows were left out. */
static size_t fill_cell(bl_rcell *c, const bl_store_row *rows, const size_t *idx, size_t n,
                        bl_rexp *e)
{
    if (!n) {
        cell_alloc(c, 0);
        c->te_mean = c->te_std = c->tr_mean = c->tr_std = c->tc_mean = c->tt_mean = NAN;
        c->pm_mean = NAN;
        return 0;
    }
    size_t newest = idx[0];
    for (size_t j = 1; j < n; j++)
        if (finished_of(&rows[idx[j]]) > finished_of(&rows[newest]))
            newest = idx[j];
    size_t *keep = bl_xmalloc(n * sizeof *keep), nk = 0;
    for (size_t j = 0; j < n; j++) {
        const bl_store_row *r = &rows[idx[j]];
        if (r->data_hash != rows[newest].data_hash || r->algo_hash != rows[newest].algo_hash)
            continue;
        size_t k = 0;
        while (k < nk && rows[keep[k]].rep != r->rep)
            k++;
        if (k == nk)
            keep[nk++] = idx[j];
        else if (finished_of(r) > finished_of(&rows[keep[k]]))
            keep[k] = idx[j];
    }
    /* rows come ordered by rep within a cell, and keep preserves that */
    cell_alloc(c, nk);
    for (size_t j = 0; j < nk; j++) {
        const bl_store_row *r = &rows[keep[j]];
        c->rep[j] = r->rep;
        c->id[j] = r->id;
        c->test_err[j] = r->res.test_err;
        c->train_err[j] = r->res.train_err;
        c->t_coef[j] = r->res.t_coef;
        c->t_total[j] = r->res.t_total;
        c->m_test[j] = r->m_test;
        c->m_train[j] = r->m_train;
        c->seed[j] = r->split_seed;
        c->stopped[j] = r->res.stopped_early;
        /* where and when: of the runs reported, not of the ones left out */
        if (r->host && *r->host && find_str(e->host, e->nhost, r->host) < 0)
            push_str(&e->host, &e->nhost, r->host);
        if (isfinite(r->started) && r->started < e->first)
            e->first = r->started;
        if (isfinite(r->finished) && r->finished > e->last)
            e->last = r->finished;
    }
    free(keep);
    summarise(c->test_err, nk, &c->te_mean, &c->te_std, &c->te_n);
    summarise(c->train_err, nk, &c->tr_mean, &c->tr_std, NULL);
    summarise(c->t_coef, nk, &c->tc_mean, NULL, NULL);
    summarise(c->t_total, nk, &c->tt_mean, NULL, NULL);
    return n - nk;
}

/* Seeds per data set (of the runs kept) and parameters per algorithm (of
 * its newest run). */
static void provenance(const bl_store_row *rows, size_t lo, size_t hi, bl_rexp *e)
{
    for (size_t d = 0; d < e->nd; d++) {
        /* the splits of a repeat are the same for every algorithm */
        const bl_rcell *c = NULL;
        for (size_t a = 0; a < e->na && !c; a++)
            if (bl_rexp_cell(e, d, a)->n)
                c = bl_rexp_cell(e, d, a);
        char *s = bl_strdup("");
        for (size_t j = 0; c && j < c->n; j++) {
            char *t = bl_strfmt("%s%s%d: %llu", s, j ? ", " : "", c->rep[j],
                                (unsigned long long)c->seed[j]);
            free(s);
            s = t;
        }
        e->seeds[d] = s;
    }
    size_t *best = bl_xmalloc(e->na * sizeof *best);
    for (size_t a = 0; a < e->na; a++)
        best[a] = hi;
    for (size_t j = lo; j < hi; j++) {
        size_t a = (size_t)find_str(e->algo, e->na, rows[j].algo);
        if (best[a] == hi || finished_of(&rows[j]) > finished_of(&rows[best[a]]))
            best[a] = j;
    }
    for (size_t a = 0; a < e->na; a++) {
        const bl_store_row *r = best[a] < hi ? &rows[best[a]] : NULL;
        e->recipe[a] = bl_strdup(r && r->recipe ? r->recipe : "");
        e->params[a] = bl_strdup(r && r->params ? r->params : "");
    }
    free(best);
}

/* Test error of cell c in repeat rep, NaN when it has none. */
static double err_of(const bl_rcell *c, int rep)
{
    for (size_t j = 0; j < c->n; j++)
        if (c->rep[j] == rep)
            return c->test_err[j];
    return NAN;
}

/* The repeats of data set d with a finite test error in every cell that
 * holds runs, and each cell's mean over them. */
static void paired_means(bl_rexp *e, size_t d)
{
    const bl_rcell *first = NULL;
    for (size_t a = 0; a < e->na && !first; a++)
        if (bl_rexp_cell(e, d, a)->n)
            first = bl_rexp_cell(e, d, a);
    double *sum = bl_xcalloc(e->na, sizeof *sum);
    size_t n = 0;
    for (size_t j = 0; first && j < first->n; j++) {
        int rep = first->rep[j], all = 1;
        for (size_t a = 0; a < e->na && all; a++) {
            const bl_rcell *c = bl_rexp_cell(e, d, a);
            all = !c->n || isfinite(err_of(c, rep));
        }
        if (!all)
            continue;
        for (size_t a = 0; a < e->na; a++)
            if (bl_rexp_cell(e, d, a)->n)
                sum[a] += err_of(bl_rexp_cell(e, d, a), rep);
        n++;
    }
    e->paired[d] = n;
    for (size_t a = 0; a < e->na; a++) {
        bl_rcell *c = bl_rexp_cell(e, d, a);
        c->pm_mean = n && c->n ? sum[a] / (double)n : NAN;
    }
    free(sum);
}

static void build_exp(const bl_store_row *rows, size_t lo, size_t hi, const bl_ini *ini,
                      bl_rexp *e)
{
    memset(e, 0, sizeof *e);
    e->name = bl_strdup(rows[lo].experiment);
    int from_ini = 0;
    order_names(rows, lo, hi, 0, ini, &e->data, &e->nd, &from_ini);
    order_names(rows, lo, hi, 1, ini, &e->algo, &e->na, &from_ini);
    e->ordered = from_ini;
    e->feat = bl_xcalloc(e->nd, sizeof *e->feat);
    e->classes = bl_xcalloc(e->nd, sizeof *e->classes);
    e->m_train = bl_xcalloc(e->nd, sizeof *e->m_train);
    e->m_test = bl_xcalloc(e->nd, sizeof *e->m_test);
    e->paired = bl_xcalloc(e->nd, sizeof *e->paired);
    e->seeds = bl_xcalloc(e->nd, sizeof *e->seeds);
    e->recipe = bl_xcalloc(e->na, sizeof *e->recipe);
    e->params = bl_xcalloc(e->na, sizeof *e->params);
    e->cell = bl_xcalloc(e->nd * e->na, sizeof *e->cell);
    e->first = INFINITY;
    e->last = -INFINITY;

    /* rows of each cell */
    size_t nc = e->nd * e->na;
    size_t **idx = bl_xcalloc(nc, sizeof *idx), *cnt = bl_xcalloc(nc, sizeof *cnt);
    for (size_t j = lo; j < hi; j++) {
        const bl_store_row *r = &rows[j];
        size_t d = (size_t)find_str(e->data, e->nd, r->data);
        size_t a = (size_t)find_str(e->algo, e->na, r->algo);
        size_t c = d * e->na + a;
        idx[c] = bl_xrealloc(idx[c], (cnt[c] + 1) * sizeof **idx);
        idx[c][cnt[c]++] = j;
        if (!e->feat[d])
            e->feat[d] = r->d;
        if (!e->classes[d])
            e->classes[d] = r->k;
        if (!e->m_train[d] && !e->m_test[d]) {
            e->m_train[d] = r->m_train;
            e->m_test[d] = r->m_test;
        }
    }
    e->rep_min = (size_t)-1;
    for (size_t c = 0; c < nc; c++) {
        e->stale += fill_cell(&e->cell[c], rows, idx[c], cnt[c], e);
        e->runs += e->cell[c].n;
        if (e->cell[c].n) {
            if (e->cell[c].n < e->rep_min)
                e->rep_min = e->cell[c].n;
            if (e->cell[c].n > e->rep_max)
                e->rep_max = e->cell[c].n;
        }
        free(idx[c]);
    }
    if (e->rep_min == (size_t)-1)
        e->rep_min = 0;
    free(idx);
    free(cnt);
    provenance(rows, lo, hi, e);
    for (size_t d = 0; d < e->nd; d++)
        paired_means(e, d);
}

void bl_rset_build(const bl_store_row *rows, size_t n, const bl_ini *ini, bl_rset *out)
{
    memset(out, 0, sizeof *out);
    /* rows come grouped by experiment */
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo + 1;
        while (hi < n && !strcmp(rows[hi].experiment, rows[lo].experiment))
            hi++;
        out->exp = bl_xrealloc(out->exp, (out->n + 1) * sizeof *out->exp);
        build_exp(rows, lo, hi, ini, &out->exp[out->n++]);
        lo = hi;
    }
}

/* Value of key in INI section sec, or NULL. */
static const char *ini_value(const bl_ini *ini, const char *sec, const char *key)
{
    for (size_t s = 0; ini && s < ini->nsec; s++)
        if (!strcmp(ini->sec[s].name, sec))
            for (size_t j = 0; j < ini->sec[s].n; j++)
                if (!strcmp(ini->sec[s].e[j].key, key))
                    return ini->sec[s].e[j].value;
    return NULL;
}

/* A positive count from the INI, or 0. */
static int ini_count(const bl_ini *ini, const char *sec, const char *key)
{
    const char *v = ini_value(ini, sec, key);
    char *end;
    long x = v ? strtol(v, &end, 10) : 0;
    return v && !*end && x > 0 && x < 1000000 ? (int)x : 0;
}

void bl_rexp_expect(bl_rexp *e, const bl_ini *ini)
{
    e->expected = e->missing = 0;
    int rexp = ini_count(ini, "experiment", "repeats");
    for (size_t d = 0; d < e->nd; d++) {
        char *sec = bl_strfmt("data %s", e->data[d]);
        int R = ini_count(ini, sec, "repeats");
        free(sec);
        if (!R)
            R = rexp;
        if (!R) /* no INI: the repeats any algorithm ran */
            for (size_t a = 0; a < e->na; a++) {
                const bl_rcell *c = bl_rexp_cell(e, d, a);
                for (size_t j = 0; j < c->n; j++)
                    R = c->rep[j] + 1 > R ? c->rep[j] + 1 : R;
            }
        /* "name[..]" and "name{..}" variants match skip_data by their base too */
        char *base = bl_strdup(e->data[d]);
        base[strcspn(base, "[{")] = 0;
        for (size_t a = 0; a < e->na; a++) {
            bl_rcell *c = bl_rexp_cell(e, d, a);
            sec = bl_strfmt("algorithm %s", e->algo[a]);
            const char *skip = ini_value(ini, sec, "skip_data");
            free(sec);
            free(c->miss);
            c->miss = NULL;
            c->nmiss = 0;
            if (skip && !c->n && bl_globs_match(skip, e->data[d], base))
                continue;
            for (int r = 0; r < R; r++) {
                e->expected++;
                size_t j = 0;
                while (j < c->n && c->rep[j] != r)
                    j++;
                if (j < c->n)
                    continue;
                c->miss = bl_xrealloc(c->miss, (c->nmiss + 1) * sizeof *c->miss);
                c->miss[c->nmiss++] = r;
                e->missing++;
            }
        }
        free(base);
    }
}

static void free_strs(char **v, size_t n)
{
    for (size_t j = 0; j < n; j++)
        free(v[j]);
    free(v);
}

void bl_rset_free(bl_rset *s)
{
    for (size_t x = 0; x < s->n; x++) {
        bl_rexp *e = &s->exp[x];
        for (size_t c = 0; c < e->nd * e->na; c++)
            cell_free(&e->cell[c]);
        free(e->cell);
        free(e->name);
        free_strs(e->data, e->nd);
        free_strs(e->algo, e->na);
        free_strs(e->host, e->nhost);
        free_strs(e->note, e->nnote);
        free(e->feat);
        free(e->classes);
        free(e->m_train);
        free(e->m_test);
        free(e->paired);
        free_strs(e->seeds, e->nd);
        free_strs(e->recipe, e->na);
        free_strs(e->params, e->na);
    }
    free(s->exp);
    memset(s, 0, sizeof *s);
}

/* ---- the paper's numbers ---------------------------------------------------------- */

/* Split one CSV line into fields in place (double quotes, "" inside
 * quotes; blanks around fields stripped).  Returns the field count, at
 * most cap, or -1 for an unterminated quote. */
static int csv_fields(char *line, char **f, int cap)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        char *w = p, *start = p;
        if (*p == '"') {
            p++;
            for (;;) {
                if (!*p)
                    return -1;
                if (*p == '"' && p[1] == '"') {
                    *w++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    *w++ = *p++;
                }
            }
            while (*p && *p != ',')
                p++; /* anything after the closing quote is ignored */
        } else {
            while (*p && *p != ',')
                *w++ = *p++;
            while (w > start && (w[-1] == ' ' || w[-1] == '\t'))
                w--;
        }
        int more = *p == ',';
        *w = 0;
        if (n < cap)
            f[n++] = start;
        if (!more)
            return n;
        p++;
    }
}

static int numeric(const char *s)
{
    char *end;
    if (!*s)
        return 0;
    double v = strtod(s, &end);
    return !*end && isfinite(v);
}

int bl_rexp_paper(bl_rexp *e, const char *path, const char *table, size_t *matched,
                  bl_error *err)
{
    *matched = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return bl_errf(err, "%s: cannot read the paper's numbers", path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, col[4] = {-1, -1, -1, -1}, header = 0, rc = 0, tcol = -1;
    static const char *const want[4] = {"data", "algorithm", "paper_mean", "paper_std"};
    enum { MAXF = 64 };
    char *fld[MAXF];
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        const char *t = line + strspn(line, " \t");
        if (!*t || *t == '#')
            continue;
        int nf = csv_fields(line, fld, MAXF);
        if (nf < 0) {
            rc = bl_errf(err, "%s:%d: unterminated quote", path, lineno);
            break;
        }
        if (!header) {
            for (int j = 0; j < nf; j++) {
                for (int w = 0; w < 4; w++)
                    if (!strcmp(fld[j], want[w]) && col[w] < 0)
                        col[w] = j;
                if (!strcmp(fld[j], "table") && tcol < 0)
                    tcol = j;
            }
            if (table && tcol < 0)
                rc = bl_errf(err, "%s:%d: paper_table = %s, but the header has no column "
                             "'table'", path, lineno, table);
            for (int w = 0; w < 4 && rc == 0; w++)
                if (col[w] < 0)
                    rc = bl_errf(err, "%s:%d: the header has no column '%s' (expected data, "
                                 "algorithm, paper_mean, paper_std)", path, lineno, want[w]);
            if (rc)
                break;
            header = 1;
            continue;
        }
        int need = col[0];
        for (int w = 1; w < 4; w++)
            need = col[w] > need ? col[w] : need;
        if (nf <= need) {
            rc = bl_errf(err, "%s:%d: expected at least %d fields, got %d", path, lineno,
                         need + 1, nf);
            break;
        }
        const char *mean = fld[col[2]], *sd = fld[col[3]];
        if (!numeric(mean) || (*sd && !numeric(sd))) {
            rc = bl_errf(err, "%s:%d: paper_mean and paper_std must be numbers, got '%s', '%s' "
                         "(a field with commas, such as a grid point's name, needs quotes)",
                         path, lineno, mean, sd);
            break;
        }
        /* one CSV may hold several tables of a paper: paper_table picks one */
        if (table && (tcol >= nf || strcmp(fld[tcol], table) != 0))
            continue;
        long d = find_str(e->data, e->nd, fld[col[0]]);
        long a = find_str(e->algo, e->na, fld[col[1]]);
        if (d < 0 || a < 0)
            continue;
        bl_rcell *c = bl_rexp_cell(e, (size_t)d, (size_t)a);
        if (c->paper_mean)
            continue;
        c->paper_mean = bl_strdup(mean);
        c->paper_std = *sd ? bl_strdup(sd) : NULL;
        (*matched)++;
    }
    if (rc == 0 && !header)
        rc = bl_errf(err, "%s: no header line (data,algorithm,paper_mean,paper_std)", path);
    free(line);
    fclose(f);
    return rc;
}

/* ---- curves ---------------------------------------------------------------------- */

void bl_rcurve_free(bl_rcurve *c)
{
    free(c->iter);
    free(c->trees);
    free(c->err);
    free(c->err_lo);
    free(c->err_hi);
    free(c->tc);
    free(c->tc_lo);
    free(c->tc_hi);
    memset(c, 0, sizeof *c);
}

/* Value of run curve cv at iteration i (0-based), its last one carried
 * forward; the empty model's when the run has no iteration at all. */
static double at(const bl_curve *cv, size_t i, int train)
{
    if (!cv->n)
        return train ? cv->train_err0 : cv->test_err0;
    const double *v = train ? cv->train_err : cv->test_err;
    return v ? v[i < cv->n ? i : cv->n - 1] : NAN;
}

int bl_rcell_curve(bl_store *s, const bl_rcell *c, int train, bl_rcurve *out, bl_error *err)
{
    memset(out, 0, sizeof *out);
    bl_curve *cv = bl_xcalloc(c->n ? c->n : 1, sizeof *cv);
    size_t got = 0, n = 0;
    int rc = 0;
    for (size_t r = 0; r < c->n; r++) {
        if (bl_store_curve(s, c->id[r], &cv[got], err) < 0) {
            rc = -1;
            break;
        }
        if (cv[got].n > n)
            n = cv[got].n;
        got++;
    }
    if (rc == 0) {
        out->n = n;
        out->runs = got;
        size_t m = n ? n : 1;
        out->iter = bl_xmalloc(m * sizeof *out->iter);
        out->trees = bl_xmalloc(m * sizeof *out->trees);
        out->trees_per_iter = 0;
        for (size_t r = 0; r < got; r++)
            out->trees_per_iter += cv[r].n && cv[r].trees
                                       ? (double)cv[r].trees[cv[r].n - 1] / (double)cv[r].n : 1.0;
        out->trees_per_iter = got ? out->trees_per_iter / (double)got : 1.0;
        out->err = bl_xmalloc(m * sizeof *out->err);
        out->err_lo = bl_xmalloc(m * sizeof *out->err_lo);
        out->err_hi = bl_xmalloc(m * sizeof *out->err_hi);
        out->tc = bl_xmalloc(m * sizeof *out->tc);
        out->tc_lo = bl_xmalloc(m * sizeof *out->tc_lo);
        out->tc_hi = bl_xmalloc(m * sizeof *out->tc_hi);
        for (size_t r = 0; r < got; r++)
            out->carried += cv[r].n < n;
        double *v = bl_xmalloc((got ? got : 1) * sizeof *v);
        double *cum = bl_xcalloc(got ? got : 1, sizeof *cum);
        for (size_t i = 0; i < n; i++) {
            out->iter[i] = (double)(i + 1);
            out->trees[i] = (double)(i + 1) * out->trees_per_iter;
            for (size_t r = 0; r < got; r++)
                v[r] = 100 * at(&cv[r], i, train);
            double mu, sd;
            summarise(v, got, &mu, &sd, NULL);
            if (!isfinite(sd))
                sd = 0;
            out->err[i] = mu;
            out->err_lo[i] = mu - sd;
            out->err_hi[i] = mu + sd;
            /* cumulative time: stops growing after a run's last iteration */
            for (size_t r = 0; r < got; r++)
                if (i < cv[r].n && cv[r].t_coef && isfinite(cv[r].t_coef[i]))
                    cum[r] += cv[r].t_coef[i];
            summarise(cum, got, &mu, &sd, NULL);
            if (!isfinite(sd))
                sd = 0;
            out->tc[i] = mu;
            out->tc_lo[i] = mu - sd;
            out->tc_hi[i] = mu + sd;
        }
        free(v);
        free(cum);
    }
    for (size_t r = 0; r < got; r++)
        bl_curve_free(&cv[r]);
    free(cv);
    if (rc < 0)
        bl_rcurve_free(out);
    return rc;
}

int bl_rcell_diff_curve(bl_store *s, const bl_rcell *ref, const bl_rcell *oth, int train,
                        bl_rcurve *out, bl_error *err)
{
    memset(out, 0, sizeof *out);
    size_t cap = ref->n ? ref->n : 1;
    bl_curve *cr = bl_xcalloc(cap, sizeof *cr), *co = bl_xcalloc(cap, sizeof *co);
    size_t np = 0, n = 0;
    int rc = 0;
    for (size_t i = 0; i < ref->n && rc == 0; i++)
        for (size_t j = 0; j < oth->n; j++) {
            if (oth->rep[j] != ref->rep[i])
                continue;
            if (bl_store_curve(s, ref->id[i], &cr[np], err) < 0) {
                rc = -1;
                break;
            }
            if (bl_store_curve(s, oth->id[j], &co[np], err) < 0) {
                bl_curve_free(&cr[np]);
                rc = -1;
                break;
            }
            n = cr[np].n > n ? cr[np].n : n;
            n = co[np].n > n ? co[np].n : n;
            np++;
            break;
        }
    if (rc == 0) {
        size_t m = n ? n : 1;
        out->n = n;
        out->runs = np;
        out->trees_per_iter = 1;
        out->iter = bl_xmalloc(m * sizeof *out->iter);
        out->err = bl_xmalloc(m * sizeof *out->err);
        out->err_lo = bl_xmalloc(m * sizeof *out->err_lo);
        out->err_hi = bl_xmalloc(m * sizeof *out->err_hi);
        double *v = bl_xmalloc((np ? np : 1) * sizeof *v);
        for (size_t i = 0; i < n; i++) {
            out->iter[i] = (double)(i + 1);
            for (size_t r = 0; r < np; r++)
                v[r] = 100 * (at(&co[r], i, train) - at(&cr[r], i, train));
            double mu, sd;
            summarise(v, np, &mu, &sd, NULL);
            if (!isfinite(sd))
                sd = 0;
            out->err[i] = mu;
            out->err_lo[i] = mu - sd;
            out->err_hi[i] = mu + sd;
        }
        free(v);
    }
    for (size_t r = 0; r < np; r++) {
        bl_curve_free(&cr[r]);
        bl_curve_free(&co[r]);
    }
    free(cr);
    free(co);
    if (rc < 0)
        bl_rcurve_free(out);
    return rc;
}

/* ---- significance tests ---------------------------------------------------------------- */

static void pair_tests(const bl_rcell *ref, const bl_rcell *oth, bl_rpair *p)
{
    memset(p, 0, sizeof *p);
    p->tc_holm = p->z_holm = NAN;
    /* the repeats both ran, with finite errors: only these are compared */
    size_t cap = ref->n ? ref->n : 1;
    double *a = bl_xmalloc(cap * sizeof *a), *b = bl_xmalloc(cap * sizeof *b);
    double e[2] = {0, 0}, m[2] = {0, 0}, ratio = 0;
    size_t n = 0, nz = 0, nr = 0;
    for (size_t i = 0; i < ref->n; i++) {
        if (!isfinite(ref->test_err[i]))
            continue;
        for (size_t j = 0; j < oth->n; j++)
            if (oth->rep[j] == ref->rep[i] && isfinite(oth->test_err[j])) {
                a[n] = ref->test_err[i];
                b[n++] = oth->test_err[j];
                if (ref->m_train[i] > 0) {
                    ratio += (double)ref->m_test[i] / (double)ref->m_train[i];
                    nr++;
                }
                if (ref->m_test[i] > 0 && oth->m_test[j] > 0) {
                    e[0] += round(ref->test_err[i] * (double)ref->m_test[i]);
                    m[0] += (double)ref->m_test[i];
                    e[1] += round(oth->test_err[j] * (double)oth->m_test[j]);
                    m[1] += (double)oth->m_test[j];
                    nz++;
                }
                break;
            }
    }
    p->t_n = n;
    p->test_train = nr ? ratio / (double)nr : NAN;
    if (n < 2)
        snprintf(p->t_why, sizeof p->t_why, "%zu repeat%s with test errors of both (needs 2)",
                 n, n == 1 ? "" : "s");
    else if (!isfinite(p->test_train))
        snprintf(p->t_why, sizeof p->t_why, "the runs record no training rows");
    else if (bl_paired_t(a, b, n, &p->t) == 0 &&
             bl_corrected_t(a, b, n, p->test_train, &p->tc) == 0)
        p->t_ok = 1;
    else
        snprintf(p->t_why, sizeof p->t_why, "the test refused the values");
    free(a);
    free(b);

    /* z: the counts of one split, averaged over the paired repeats */
    p->z_n = nz;
    if (!nz) {
        int ran = ref->n && oth->n; /* cells skipped (skip_data) hold no run */
        snprintf(p->z_why, sizeof p->z_why, "%s",
                 !ran ? "not run" : n ? "no test examples" : "no repeat run by both");
        return;
    }
    for (int k = 0; k < 2; k++) {
        e[k] /= (double)nz;
        m[k] /= (double)nz;
    }
    p->e_ref = e[0];
    p->n_ref = m[0];
    p->e_oth = e[1];
    p->n_oth = m[1];
    double r0 = e[0] / m[0], r1 = e[1] / m[1];
    p->better = r0 < r1 ? 1 : r1 < r0 ? -1 : 0;
    int rc = p->better >= 0 ? bl_ztest_errors(e[0], m[0], e[1], m[1], &p->z)
                            : bl_ztest_errors(e[1], m[1], e[0], m[0], &p->z);
    if (rc == 0)
        p->z_ok = 1;
    else
        snprintf(p->z_why, sizeof p->z_why, "the test refused the counts");
}

static void friedman(const bl_rexp *e, double alpha, bl_rstats *st)
{
    if (e->na < 3) {
        snprintf(st->fr_why, sizeof st->fr_why,
                 "it compares at least 3 algorithms; this experiment has %zu", e->na);
        return;
    }
    st->fr_data = bl_xmalloc((e->nd ? e->nd : 1) * sizeof *st->fr_data);
    for (size_t d = 0; d < e->nd; d++) {
        int all = 1;
        for (size_t a = 0; a < e->na; a++)
            all &= isfinite(bl_rexp_cell(e, d, a)->pm_mean);
        if (all)
            st->fr_data[st->fr_n++] = d;
    }
    if (st->fr_n < 2) {
        snprintf(st->fr_why, sizeof st->fr_why,
                 "it needs at least 2 data sets with a test error for every algorithm; "
                 "this experiment has %zu", st->fr_n);
        return;
    }
    double *x = bl_xmalloc(st->fr_n * e->na * sizeof *x);
    for (size_t i = 0; i < st->fr_n; i++)
        for (size_t a = 0; a < e->na; a++)
            x[i * e->na + a] = bl_rexp_cell(e, st->fr_data[i], a)->pm_mean;
    int rc = bl_friedman(x, st->fr_n, e->na, alpha, &st->fr);
    free(x);
    if (rc < 0) {
        snprintf(st->fr_why, sizeof st->fr_why, "the test refused the values");
        return;
    }
    st->fr_ok = 1;
    st->cd_order = bl_xmalloc(e->na * sizeof *st->cd_order);
    st->cd_groups = bl_xmalloc(e->na * sizeof *st->cd_groups);
    st->cd_ngroups = bl_cd_groups(st->fr.avg_rank, e->na, st->fr.cd, st->cd_order,
                                  st->cd_groups);
}

static void wilcoxon(const bl_rexp *e, size_t ref, double alpha, bl_rstats *st)
{
    st->wx = bl_xcalloc(e->na, sizeof *st->wx);
    if (e->nd < 2) {
        snprintf(st->wx_why, sizeof st->wx_why,
                 "it compares algorithms over data sets and this experiment has %zu", e->nd);
        return;
    }
    st->wx_ok = 1;
    double *a = bl_xmalloc(e->nd * sizeof *a), *b = bl_xmalloc(e->nd * sizeof *b);
    for (size_t o = 0; o < e->na; o++) {
        if (o == ref)
            continue;
        bl_rwilcox *w = &st->wx[o];
        size_t n = 0;
        for (size_t d = 0; d < e->nd; d++) {
            double x = bl_rexp_cell(e, d, ref)->pm_mean, y = bl_rexp_cell(e, d, o)->pm_mean;
            if (isfinite(x) && isfinite(y)) {
                a[n] = x;
                b[n++] = y;
            }
        }
        w->ndata = n;
        if (n < 2)
            snprintf(w->why, sizeof w->why, "%zu data set%s with test errors of both (needs 2)",
                     n, n == 1 ? "" : "s");
        else if (bl_wilcoxon_test(a, b, n, alpha, &w->w) == 0)
            w->ok = 1;
        else
            snprintf(w->why, sizeof w->why, "the test refused the values");
    }
    free(a);
    free(b);
}

/* Holm's adjustment within each family the report shows: the corrected
 * t-tests, the z-tests (each over every data set x algorithm pair) and the
 * Wilcoxon tests (over the algorithms). */
static void adjust(const bl_rexp *e, bl_rstats *st)
{
    size_t n = e->nd * e->na;
    double *t = bl_xmalloc(n * sizeof *t), *z = bl_xmalloc(n * sizeof *z);
    for (size_t j = 0; j < n; j++) {
        const bl_rpair *p = &st->pair[j];
        int used = j % e->na != st->ref;
        t[j] = used && p->t_ok ? p->tc.p : NAN;
        /* the z-test is one-sided towards the lower rate: equal rates are no test */
        z[j] = used && p->z_ok && p->better ? p->z.p : NAN;
    }
    bl_holm(t, n, t);
    bl_holm(z, n, z);
    for (size_t j = 0; j < n; j++) {
        st->pair[j].tc_holm = t[j];
        st->pair[j].z_holm = z[j];
    }
    free(t);
    free(z);
    double *w = bl_xmalloc(e->na * sizeof *w);
    for (size_t a = 0; a < e->na; a++) {
        const bl_rwilcox *x = &st->wx[a];
        w[a] = st->wx_ok && a != st->ref && x->ok
                   ? (x->w.p_exact >= 0 ? x->w.p_exact : x->w.p_normal) : NAN;
    }
    bl_holm(w, e->na, w);
    for (size_t a = 0; a < e->na; a++)
        st->wx[a].p_holm = w[a];
    free(w);
}

/* Wins, ties and losses of the reference (see bl_rwilcox). */
static void wins(const bl_rexp *e, bl_rstats *st)
{
    for (size_t o = 0; o < e->na; o++) {
        if (o == st->ref)
            continue;
        bl_rwilcox *w = &st->wx[o];
        for (size_t d = 0; d < e->nd; d++) {
            double x = bl_rexp_cell(e, d, st->ref)->pm_mean;
            double y = bl_rexp_cell(e, d, o)->pm_mean;
            if (!isfinite(x) || !isfinite(y))
                continue;
            /* equal as printed (two decimals of a percentage) is a tie */
            double dx = round(1e4 * x), dy = round(1e4 * y);
            const bl_rpair *p = &st->pair[d * e->na + o];
            int sig = p->t_ok && p->tc_holm <= st->alpha &&
                      (dx < dy ? p->tc.mean_diff < 0 : p->tc.mean_diff > 0);
            if (dx < dy) {
                w->win++;
                w->sig_win += sig;
            } else if (dx > dy) {
                w->loss++;
                w->sig_loss += sig;
            } else {
                w->tie++;
            }
        }
    }
}

void bl_rstats_run(const bl_rexp *e, size_t ref, double alpha, bl_rstats *st)
{
    memset(st, 0, sizeof *st);
    st->alpha = alpha;
    st->ref = ref;
    friedman(e, alpha, st);
    if (e->na < 2) {
        snprintf(st->wx_why, sizeof st->wx_why, "there is only one algorithm");
        snprintf(st->pair_why, sizeof st->pair_why, "there is only one algorithm");
        return;
    }
    wilcoxon(e, ref, alpha, st);
    st->pair_ok = 1;
    st->pair = bl_xcalloc(e->nd * e->na, sizeof *st->pair);
    for (size_t d = 0; d < e->nd; d++)
        for (size_t o = 0; o < e->na; o++)
            if (o != ref)
                pair_tests(bl_rexp_cell(e, d, ref), bl_rexp_cell(e, d, o),
                           &st->pair[d * e->na + o]);
    adjust(e, st);
    wins(e, st);
}

void bl_rstats_free(bl_rstats *st)
{
    if (st->fr_ok)
        bl_friedman_free(&st->fr);
    free(st->fr_data);
    free(st->cd_order);
    free(st->cd_groups);
    free(st->wx);
    free(st->pair);
    memset(st, 0, sizeof *st);
}

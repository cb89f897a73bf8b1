/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `boostlab results DIR|STORE.sqlite`: list, summarise or export the runs
 * of a results store.  The store is opened read-only, so this works (and
 * never creates a file) while `boostlab run` is still writing to it. */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config/ini.h"
#include "report/report.h"
#include "report/stats.h"
#include "store/store.h"
#include "util/fsutil.h"
#include "cli.h"

static const char *const results_help =
    "Usage: boostlab results [OPTIONS] DIR|STORE.sqlite\n"
    "\n"
    "Show the runs of a results store (DIR/results.sqlite, as `boostlab run`\n"
    "writes it): one line per run, a summary per data set and algorithm, or\n"
    "an export as CSV or JSON.  Safe to use while an experiment is running.\n"
    "\n"
    "Options:\n"
    "  -d, --data GLOB        only data sets matching GLOB (e.g. 'letter*')\n"
    "  -a, --algorithm GLOB   only algorithms matching GLOB (--algo also works)\n"
    "  -w, --where KEY=VALUE  only runs of this sweep point (several pairs,\n"
    "                         comma-separated, must all hold)\n"
    "  -e, --experiment NAME  only runs of this experiment\n"
    "  -f, --format FMT       table|csv|json (default table)\n"
    "  -c, --curves           one record per run and iteration (csv, json)\n"
    "  -s, --summary          per data set x algorithm, the table `boostlab run`\n"
    "                         prints: runs, mean (std) test and train error %,\n"
    "                         mean iterations, weak-learner and coefficient-step\n"
    "                         seconds per run, milliseconds per iteration; in the\n"
    "                         order of DIR/experiment.ini when there is one\n"
    "  -o, --output FILE      write to FILE instead of stdout\n"
    "  -h, --help             this text\n";

enum { FMT_TABLE, FMT_CSV, FMT_JSON };

/* ---- the table of runs ---------------------------------------------------- */

static void pct(char *buf, size_t n, double v)
{
    if (isfinite(v))
        snprintf(buf, n, "%.2f", 100 * v);
    else
        snprintf(buf, n, "-");
}

static int width(const bl_store_row *rows, size_t n, size_t off, int least)
{
    size_t w = (size_t)least;
    for (size_t j = 0; j < n; j++) {
        const char *s = *(char *const *)((const char *)&rows[j] + off);
        if (s && strlen(s) > w)
            w = strlen(s);
    }
    return (int)w;
}

/* Several experiments in one store get a column of their own. */
static int many_experiments(const bl_store_row *rows, size_t n)
{
    for (size_t j = 1; j < n; j++)
        if (strcmp(rows[j].experiment, rows[0].experiment) != 0)
            return 1;
    return 0;
}

static void print_runs(const bl_store_row *rows, size_t n, FILE *f)
{
    int we = many_experiments(rows, n) ? width(rows, n, offsetof(bl_store_row, experiment), 10)
                                        : 0;
    int wd = width(rows, n, offsetof(bl_store_row, data), 4);
    int wa = width(rows, n, offsetof(bl_store_row, algo), 9);
    if (we)
        fprintf(f, "%-*s  ", we, "experiment");
    fprintf(f, "%-*s  %-*s  %4s  %6s  %11s  %12s  %9s  %9s  %s\n", wd, "data", wa, "algorithm",
            "rep", "iters", "test err %", "train err %", "coef s", "total s", "finished");
    for (size_t j = 0; j < n; j++) {
        const bl_store_row *r = &rows[j];
        char te[32], tr[32], fin[32] = "-";
        pct(te, sizeof te, r->res.test_err);
        pct(tr, sizeof tr, r->res.train_err);
        if (isfinite(r->finished)) {
            time_t t = (time_t)r->finished;
            struct tm tm;
            if (localtime_r(&t, &tm))
                strftime(fin, sizeof fin, "%Y-%m-%d %H:%M:%S", &tm);
        }
        if (we)
            fprintf(f, "%-*s  ", we, r->experiment);
        fprintf(f, "%-*s  %-*s  %4d  %6zu  %11s  %12s  %9.3f  %9.3f  %s\n", wd, r->data, wa,
                r->algo, r->rep, r->res.iterations, te, tr, r->res.t_coef, r->res.t_total, fin);
    }
}

/* ---- the summary ------------------------------------------------------------ */

/* Runs of one data set x algorithm: same names and same hashes, so runs
 * made before a parameter changed are not averaged with the new ones. */
typedef struct {
    size_t first, n, cap;
    size_t *idx;            /* the rows */
    char *data, *algo;      /* labels */
} cell;

static int same_names(const bl_store_row *a, const bl_store_row *b)
{
    return !strcmp(a->experiment, b->experiment) && !strcmp(a->data, b->data) &&
           !strcmp(a->algo, b->algo);
}

static char *hash_label(const char *name, uint64_t hash, int tag)
{
    if (!tag)
        return bl_strdup(name);
    size_t n = strlen(name) + 10;
    char *p = bl_xmalloc(n);
    snprintf(p, n, "%s#%08" PRIx64, name, hash >> 32);
    return p;
}

static size_t make_cells(const bl_store_row *rows, size_t n, cell **out)
{
    cell *c = bl_xcalloc(n ? n : 1, sizeof *c);
    size_t nc = 0;
    for (size_t j = 0; j < n; j++) {
        const bl_store_row *r = &rows[j];
        size_t i = 0;
        while (i < nc && !(same_names(&rows[c[i].first], r) &&
                           rows[c[i].first].data_hash == r->data_hash &&
                           rows[c[i].first].algo_hash == r->algo_hash))
            i++;
        if (i == nc)
            c[nc++].first = j;
        if (c[i].n == c[i].cap) {
            c[i].cap = c[i].cap ? 2 * c[i].cap : 8;
            c[i].idx = bl_xrealloc(c[i].idx, c[i].cap * sizeof *c[i].idx);
        }
        c[i].idx[c[i].n++] = j;
    }
    /* cells of the same names differ in a hash: label them by (the start
     * of) the hash that differs */
    for (size_t i = 0; i < nc; i++) {
        const bl_store_row *r = &rows[c[i].first];
        int dd = 0, da = 0;
        for (size_t k = 0; k < nc; k++) {
            const bl_store_row *o = &rows[c[k].first];
            if (k != i && same_names(o, r)) {
                dd |= o->data_hash != r->data_hash;
                da |= o->algo_hash != r->algo_hash;
            }
        }
        c[i].data = hash_label(r->data, r->data_hash, dd);
        c[i].algo = hash_label(r->algo, r->algo_hash, da);
    }
    *out = c;
    return nc;
}

/* Position of name among the INI sections "KIND NAME", or past them all. */
static size_t ini_rank(const bl_ini *ini, const char *kind, const char *name)
{
    size_t k = strlen(kind), r = 0;
    for (size_t j = 0; ini && j < ini->nsec; j++)
        if (!strncmp(ini->sec[j].name, kind, k) && ini->sec[j].name[k] == ' ') {
            if (!strcmp(ini->sec[j].name + k + 1, name))
                return r;
            r++;
        }
    return (size_t)-1;
}

typedef struct {
    const bl_store_row *rows;
    const cell *c;
    const bl_ini *ini;
} order_ctx;

static order_ctx octx; /* qsort has no context argument */

/* As `boostlab run` orders its table: experiment, then data sets and
 * algorithms in the order of experiment.ini, names it lacks after, in
 * store order. */
static int cell_cmp(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const bl_store_row *ra = &octx.rows[octx.c[a].first], *rb = &octx.rows[octx.c[b].first];
    int e = strcmp(ra->experiment, rb->experiment);
    if (e)
        return e;
    size_t da = ini_rank(octx.ini, "data", ra->data), db = ini_rank(octx.ini, "data", rb->data);
    if (da != db)
        return da < db ? -1 : 1;
    if (strcmp(ra->data, rb->data))
        return a < b ? -1 : 1;
    size_t aa = ini_rank(octx.ini, "algorithm", ra->algo);
    size_t ab = ini_rank(octx.ini, "algorithm", rb->algo);
    if (aa != ab)
        return aa < ab ? -1 : 1;
    return a < b ? -1 : a > b;
}

static double mean_finite(const double *x, size_t n, double *sd)
{
    *sd = n ? bl_std(x, n) : NAN;
    return n ? bl_mean(x, n) : NAN;
}

static void print_summary(const bl_store_row *rows, size_t n, const bl_ini *ini, FILE *f)
{
    cell *c;
    size_t nc = make_cells(rows, n, &c);
    size_t *ord = bl_xmalloc((nc ? nc : 1) * sizeof *ord);
    for (size_t i = 0; i < nc; i++)
        ord[i] = i;
    octx = (order_ctx){rows, c, ini};
    qsort(ord, nc, sizeof *ord, cell_cmp);
    bl_summary_line *l = bl_xcalloc(nc ? nc : 1, sizeof *l);
    double *v[6];
    for (int k = 0; k < 6; k++)
        v[k] = bl_xmalloc((n ? n : 1) * sizeof *v[k]);
    for (size_t i = 0; i < nc; i++) {
        const cell *x = &c[ord[i]];
        size_t m[6] = {0};
        for (size_t k = 0; k < x->n; k++) {
            const bl_run_result *r = &rows[x->idx[k]].res;
            const double val[6] = {r->test_err, r->train_err, (double)r->iterations, r->t_weak,
                                   r->t_coef, r->t_total};
            for (int q = 0; q < 6; q++)
                if (isfinite(val[q]))
                    v[q][m[q]++] = val[q];
        }
        double sd[6], mu[6];
        for (int q = 0; q < 6; q++)
            mu[q] = mean_finite(v[q], m[q], &sd[q]);
        l[i] = (bl_summary_line){rows[x->first].experiment, x->data, x->algo, x->n, mu[0], sd[0],
                                 mu[1], sd[1], mu[2], mu[3], mu[4], mu[5]};
    }
    bl_summary_lines_print(l, nc, many_experiments(rows, n), f);
    for (int k = 0; k < 6; k++)
        free(v[k]);
    free(l);
    free(ord);
    for (size_t i = 0; i < nc; i++) {
        free(c[i].idx);
        free(c[i].data);
        free(c[i].algo);
    }
    free(c);
}

/* ---- the command -------------------------------------------------------------- */

/* DIR means DIR/results.sqlite; a store is never created here. */
static char *store_path(const char *arg, bl_error *err)
{
    if (bl_dir_exists(arg)) {
        char *p = bl_path_join(arg, "results.sqlite");
        if (bl_file_exists(p))
            return p;
        free(p);
        bl_errf(err, "%s: no results store (results.sqlite) here", arg);
        return NULL;
    }
    if (bl_file_exists(arg))
        return bl_strdup(arg);
    bl_errf(err, "%s: no results store (no such file or directory)", arg);
    return NULL;
}

static int write_results(bl_store *s, const bl_store_filter *flt, int format, int curves,
                         int summary, const bl_ini *ini, FILE *f, bl_error *err)
{
    if (format == FMT_CSV)
        return bl_store_export_csv(s, flt, curves, f, err);
    if (format == FMT_JSON)
        return bl_store_export_json(s, flt, curves, f, err);
    bl_store_row *rows;
    size_t n;
    if (bl_store_select(s, flt, &rows, &n, err) < 0)
        return -1;
    if (n == 0)
        fprintf(stderr, "boostlab: no runs in the store match\n");
    else if (summary)
        print_summary(rows, n, ini, f);
    else
        print_runs(rows, n, f);
    bl_store_rows_free(rows, n);
    return 0;
}

int cmd_results(int argc, char **argv)
{
    static const struct option opts[] = {
        {"data", required_argument, 0, 'd'},   {"algorithm", required_argument, 0, 'a'},
        {"algo", required_argument, 0, 'a'}, /* the older spelling */
        {"where", required_argument, 0, 'w'},  {"experiment", required_argument, 0, 'e'},
        {"format", required_argument, 0, 'f'}, {"curves", no_argument, 0, 'c'},
        {"summary", no_argument, 0, 's'},      {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    bl_store_filter flt = {NULL, NULL, NULL, NULL};
    const char *output = NULL;
    int format = FMT_TABLE, curves = 0, summary = 0, o;
    optind = 1;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":d:a:w:e:f:cso:h", opts, NULL)) != -1) {
        switch (o) {
        case 'd': flt.data = optarg; break;
        case 'a': flt.algo = optarg; break;
        case 'w':
            if (!strchr(optarg, '='))
                return cli_usage("results", "--where expects KEY=VALUE");
            flt.where = optarg;
            break;
        case 'e': flt.experiment = optarg; break;
        case 'f':
            if (!strcmp(optarg, "table"))
                format = FMT_TABLE;
            else if (!strcmp(optarg, "csv"))
                format = FMT_CSV;
            else if (!strcmp(optarg, "json"))
                format = FMT_JSON;
            else
                return cli_usage("results", "--format expects table, csv or json");
            break;
        case 'c': curves = 1; break;
        case 's': summary = 1; break;
        case 'o': output = optarg; break;
        case 'h': fputs(results_help, stdout); return BL_EXIT_OK;
        case ':': return cli_usage("results", "an option is missing its value");
        default: return cli_usage("results", "unknown option");
        }
    }
    if (optind != argc - 1)
        return cli_usage("results", "expects one results folder or store file");
    if (curves && format == FMT_TABLE)
        return cli_usage("results", "--curves needs --format csv or json");
    if (summary && format != FMT_TABLE)
        return cli_usage("results", "--summary prints a table (no --format csv|json)");

    bl_error err;
    char *path = store_path(argv[optind], &err);
    if (!path)
        return cli_fail(err.msg);
    bl_store *s;
    int rc = bl_store_open_ro(path, &s, &err);
    free(path);
    if (rc < 0)
        return cli_fail(err.msg);
    /* the order of the grid, as `boostlab run` prints it */
    bl_ini ini;
    memset(&ini, 0, sizeof ini);
    int have_ini = 0;
    if (summary && bl_dir_exists(argv[optind])) {
        char *ip = bl_path_join(argv[optind], "experiment.ini");
        bl_error ierr;
        have_ini = bl_file_exists(ip) && bl_ini_read(ip, &ini, &ierr) == 0;
        free(ip);
    }
    if (output) {
        bl_atomic a;
        rc = bl_atomic_open(&a, output, &err);
        if (rc == 0) {
            rc = write_results(s, &flt, format, curves, summary, have_ini ? &ini : NULL, a.f,
                               &err);
            if (rc == 0)
                rc = bl_atomic_commit(&a, &err);
            else
                bl_atomic_abort(&a);
        }
    } else {
        rc = write_results(s, &flt, format, curves, summary, have_ini ? &ini : NULL, stdout,
                           &err);
        if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
            rc = bl_errf(&err, "writing to stdout failed");
    }
    bl_store_close(s);
    if (have_ini)
        bl_ini_free(&ini);
    return rc < 0 ? cli_fail(err.msg) : BL_EXIT_OK;
}

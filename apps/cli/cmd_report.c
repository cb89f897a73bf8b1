/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `boostlab report OUTPUT_DIR`: one self-contained HTML page and a Markdown
 * version of an experiment's results: summary tables, significance tests
 * and plots, rebuilt from the results store (read-only) and the resolved
 * experiment.ini.  The work is in report/analysis.c (cells and tests),
 * report/figures.c (plots) and report/render.c (the two writers); this
 * file handles the options and puts them together.
 */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../config.h"

#include "config/experiment.h"
#include "config/ini.h"
#include "exec/pool.h"
#include "plot/plot.h"
#include "report/analysis.h"
#include "report/figures.h"
#include "report/render.h"
#include "store/store.h"
#include "util/fsutil.h"
#include "cli.h"

static const char *const report_help =
    "Usage: boostlab report [OPTIONS] OUTPUT_DIR\n"
    "\n"
    "Write a report of the experiment in OUTPUT_DIR (its results.sqlite, as\n"
    "`boostlab run` writes it): one self-contained HTML page, report.html, and a\n"
    "Markdown version, report.md, in OUTPUT_DIR/report.  It holds the test error,\n"
    "time and training error per data set and algorithm (with the paper's numbers\n"
    "when the experiment names a 'paper' CSV), the data sets, wins/ties/losses,\n"
    "the Friedman test with the Nemenyi critical difference, Wilcoxon signed-rank\n"
    "tests over data sets, Nadeau-Bengio corrected t-tests and two-proportion\n"
    "z-tests per data set (Holm-adjusted), the runs missing from an incomplete\n"
    "store, the provenance (version, seeds, parameters, plugins.tsv), and plots\n"
    "drawn with gnuplot (error, its paired difference to the reference, and\n"
    "coefficient-step time against the iterations, against swept values, the\n"
    "critical-difference diagram, decision boundaries of 2-D data sets).  Without\n"
    "gnuplot (Debian package gnuplot-nox) the report has no plots.\n"
    "\n"
    "Options:\n"
    "  -o, --output DIR       write the report to DIR (default OUTPUT_DIR/report)\n"
    "  -r, --reference NAME   algorithm the pairwise tests compare the others with\n"
    "                         (default: the first)\n"
    "  -a, --alpha A          significance level, 0 < A < 1 (default 0.05)\n"
    "  -e, --experiment NAME  only this experiment of the store\n"
    "      --no-plots         no plots\n"
    "      --no-boundaries    no decision boundaries (they retrain repeat 0)\n"
    "  -q, --quiet            no messages on stderr\n"
    "  -h, --help             this text\n"
    "\n"
    "The plots are in DIR/plots as PNG (linked from report.md) and SVG (inlined\n"
    "in report.html).  The store is only read, so this works while `boostlab run`\n"
    "is still adding runs.\n";

enum { OPT_NO_PLOTS = 256, OPT_NO_BOUNDARIES };

typedef struct {
    const char *dir, *output, *reference, *experiment, *alpha_arg;
    double alpha;
    int plots, boundaries, quiet;
} report_opts;

/* ---- small helpers ---------------------------------------------------------------- */

/* Append word to *cmd, single-quoted for the shell when it needs it. */
static void add_word(char **cmd, const char *word)
{
    int plain = *word != 0;
    for (const char *p = word; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+-@%",
                    *p))
            plain = 0;
    size_t n = strlen(word);
    char *q = bl_xmalloc(4 * n + 4), *w = q;
    if (plain) {
        memcpy(w, word, n);
        w += n;
    } else {
        *w++ = '\'';
        for (const char *p = word; *p; p++) {
            if (*p == '\'') {
                memcpy(w, "'\\''", 4);
                w += 4;
            } else {
                *w++ = *p;
            }
        }
        *w++ = '\'';
    }
    *w = 0;
    char *t = bl_strfmt("%s%s%s", *cmd, **cmd ? " " : "", q);
    free(q);
    free(*cmd);
    *cmd = t;
}

/* Value of key in section name of ini, or NULL. */
static const char *ini_get(const bl_ini *ini, const char *section, const char *key)
{
    for (size_t s = 0; ini && s < ini->nsec; s++)
        if (!strcmp(ini->sec[s].name, section))
            for (size_t j = 0; j < ini->sec[s].n; j++)
                if (!strcmp(ini->sec[s].e[j].key, key))
                    return ini->sec[s].e[j].value;
    return NULL;
}

/* The experiment file the resolved INI came from: its first line reads
 * "; resolved from PATH: every parameter as it was used". */
static char *original_ini(const char *resolved)
{
    FILE *f = fopen(resolved, "r");
    if (!f)
        return NULL;
    char *line = NULL, *out = NULL;
    size_t cap = 0;
    static const char head[] = "; resolved from ", tail[] = ": every parameter as it was used";
    if (getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\r\n")] = 0;
        size_t n = strlen(line), hl = sizeof head - 1, tl = sizeof tail - 1;
        if (n > hl + tl && !strncmp(line, head, hl) && !strcmp(line + n - tl, tail)) {
            line[n - tl] = 0;
            out = bl_strdup(line + hl);
        }
    }
    free(line);
    fclose(f);
    return out;
}

/* A path from the resolved INI: written relative to the directory `boostlab
 * run` ran in when the experiment was named by a relative path, so it is
 * looked for from here first, then from the output folder. */
static char *find_file(const char *path, const char *dir)
{
    if (bl_file_exists(path))
        return bl_strdup(path);
    if (path[0] != '/') {
        char *p = bl_path_join(dir, path);
        if (bl_file_exists(p))
            return p;
        free(p);
    }
    return NULL;
}

/* ---- provenance ---------------------------------------------------------------------- */

/* Path of file relative to folder from (both existing), for a link from a
 * page in from; NULL when either cannot be resolved. */
static char *relative_to(const char *from, const char *file)
{
    char a[PATH_MAX], b[PATH_MAX];
    if (!realpath(from, a) || !realpath(file, b))
        return NULL;
    /* the longest common leading run of whole path components */
    size_t i = 0, cut = 0;
    while (a[i] && a[i] == b[i]) {
        if (a[i] == '/')
            cut = i;
        i++;
    }
    if (!a[i] && b[i] == '/')
        cut = i;
    char *out = bl_strdup("");
    for (const char *p = a + cut; *p; p++)
        if (*p == '/') {
            char *t = bl_strfmt("%s../", out);
            free(out);
            out = t;
        }
    char *t = bl_strfmt("%s%s", out, b + cut + 1);
    free(out);
    return t;
}

/* DIR/plugins.tsv as `boostlab run` writes it: a header line naming the
 * columns (plugin, role, hash64, file, since), then one row per plugin file
 * used.  Columns are found by their header names, so the report shows what
 * the file holds whatever the order.  Fills pv->plugin (role, plugin, file,
 * hash64, since), or pv->plugins_why. */
static void read_plugins(const char *dir, bl_report_prov *pv)
{
    static const char *const want[BL_PROV_COLS] = {"role", "plugin", "file", "hash64", "since"};
    char *path = bl_path_join(dir, "plugins.tsv");
    FILE *f = fopen(path, "r");
    free(path);
    if (!f) {
        pv->plugins_why = "no plugins.tsv in the output folder";
        return;
    }
    char *line = NULL;
    size_t cap = 0;
    int col[BL_PROV_COLS], have_head = 0;
    while (getline(&line, &cap, f) >= 0) {
        line[strcspn(line, "\r\n")] = 0;
        if (!*line || *line == '#')
            continue;
        char *field[16];
        int nf = 0;
        for (char *p = line; nf < 16;) {
            field[nf++] = p;
            size_t n = strcspn(p, "\t");
            if (!p[n])
                break;
            p[n] = 0;
            p += n + 1;
        }
        if (!have_head) { /* the header: where each column is */
            for (int c = 0; c < BL_PROV_COLS; c++) {
                col[c] = -1;
                for (int j = 0; j < nf; j++)
                    if (!strcmp(field[j], want[c]))
                        col[c] = j;
            }
            have_head = 1;
            continue;
        }
        pv->plugin = bl_xrealloc(pv->plugin, (pv->nplugin + 1) * sizeof *pv->plugin);
        char **row = pv->plugin[pv->nplugin++];
        for (int c = 0; c < BL_PROV_COLS; c++)
            row[c] = bl_strdup(col[c] >= 0 && col[c] < nf ? field[col[c]] : "");
    }
    free(line);
    fclose(f);
    if (!pv->nplugin)
        pv->plugins_why = "plugins.tsv lists none";
}

static void prov_free(bl_report_prov *pv)
{
    for (size_t j = 0; j < pv->nplugin; j++)
        for (int c = 0; c < BL_PROV_COLS; c++)
            free(pv->plugin[j][c]);
    free(pv->plugin);
    free((char *)pv->version);
    free((char *)pv->ini_href);
    free((char *)pv->summary_href);
}

/* ---- loading the experiment (decision boundaries) ------------------------------------- */

typedef struct {
    bl_registry reg;
    bl_experiment ex;
    int have_reg, have_ex;
    char why[BL_ERRMSG_MAX + 64];
} loaded_exp;

/* The experiment, from the resolved INI or else the file it came from
 * (whose relative data paths still work from the directory the run was
 * started in). */
static void load_experiment(const char *resolved, loaded_exp *L)
{
    bl_error err;
    memset(L, 0, sizeof *L);
    char *first = NULL;
    if (bl_file_exists(resolved) && bl_experiment_plugin_path(resolved, &first, &err) < 0) {
        snprintf(L->why, sizeof L->why, "%s", err.msg);
        return;
    }
    int lrc = bl_registry_load_search(&L->reg, first, &err);
    free(first);
    if (lrc < 0) {
        snprintf(L->why, sizeof L->why, "the plugins could not be loaded: %s", err.msg);
        bl_registry_free(&L->reg);
        return;
    }
    L->have_reg = 1;
    if (!bl_file_exists(resolved)) {
        snprintf(L->why, sizeof L->why, "%s is missing", resolved);
        return;
    }
    memset(&L->ex, 0, sizeof L->ex);
    if (bl_experiment_load(resolved, &L->reg, &L->ex, &err) == 0) {
        L->have_ex = 1;
        return;
    }
    snprintf(L->why, sizeof L->why, "%s", err.msg);
    char *orig = original_ini(resolved);
    if (orig && bl_file_exists(orig)) {
        bl_error e2;
        memset(&L->ex, 0, sizeof L->ex);
        if (bl_experiment_load(orig, &L->reg, &L->ex, &e2) == 0)
            L->have_ex = 1;
    }
    free(orig);
}

static void loaded_free(loaded_exp *L)
{
    if (L->have_ex)
        bl_experiment_free(&L->ex);
    if (L->have_reg)
        bl_registry_free(&L->reg);
}

/* ---- the command --------------------------------------------------------------------- */

static int parse_opts(int argc, char **argv, report_opts *o)
{
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'},     {"reference", required_argument, 0, 'r'},
        {"alpha", required_argument, 0, 'a'},      {"experiment", required_argument, 0, 'e'},
        {"no-plots", no_argument, 0, OPT_NO_PLOTS},
        {"no-boundaries", no_argument, 0, OPT_NO_BOUNDARIES},
        {"quiet", no_argument, 0, 'q'},            {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->alpha = 0.05;
    o->plots = o->boundaries = 1;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:r:a:e:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'o': o->output = optarg; break;
        case 'r': o->reference = optarg; break;
        case 'a': {
            char *end;
            o->alpha = strtod(optarg, &end);
            if (end == optarg || *end || !(o->alpha > 0 && o->alpha < 1))
                return cli_usage("report", "--alpha expects a number between 0 and 1");
            o->alpha_arg = optarg;
            break;
        }
        case 'e': o->experiment = optarg; break;
        case OPT_NO_PLOTS: o->plots = 0; break;
        case OPT_NO_BOUNDARIES: o->boundaries = 0; break;
        case 'q': o->quiet = 1; break;
        case 'h': fputs(report_help, stdout); return -1;
        case ':': return cli_usage("report", "an option is missing its value");
        default: return cli_usage("report", "unknown option");
        }
    }
    if (optind != argc - 1)
        return cli_usage("report", "expects one output folder");
    o->dir = argv[optind];
    return 0;
}

static char *report_command(const report_opts *o)
{
    char *cmd = bl_strdup("");
    add_word(&cmd, "boostlab");
    add_word(&cmd, "report");
    const char *pairs[][2] = {{"-o", o->output},
                              {"-r", o->reference},
                              {"-a", o->alpha_arg},
                              {"-e", o->experiment}};
    for (size_t j = 0; j < 4; j++)
        if (pairs[j][1]) {
            add_word(&cmd, pairs[j][0]);
            add_word(&cmd, pairs[j][1]);
        }
    if (!o->plots)
        add_word(&cmd, "--no-plots");
    if (!o->boundaries)
        add_word(&cmd, "--no-boundaries");
    add_word(&cmd, o->dir);
    return cmd;
}

static char *run_command(const report_opts *o, const char *resolved)
{
    char *orig = original_ini(resolved);
    const char *ini = orig && bl_file_exists(orig) ? orig : bl_file_exists(resolved) ? resolved
                                                                                    : NULL;
    char *cmd = NULL;
    if (ini) {
        cmd = bl_strdup("");
        /* The resolved INI's plugin_path holds the run's plugin folders,
         * BOOSTLAB_PLUGIN_PATH's included: a rerun from the original file
         * needs them in the environment. */
        bl_ini r;
        bl_error e;
        const char *pp = NULL;
        int have = ini != resolved && bl_ini_read(resolved, &r, &e) == 0;
        if (have && (pp = ini_get(&r, "experiment", "plugin_path"))) {
            char *v = bl_strdup("");
            add_word(&v, pp);
            free(cmd);
            cmd = bl_strfmt("BOOSTLAB_PLUGIN_PATH=%s", v);
            free(v);
        }
        if (have)
            bl_ini_free(&r);
        add_word(&cmd, "boostlab");
        add_word(&cmd, "run");
        add_word(&cmd, "-o");
        add_word(&cmd, o->dir);
        add_word(&cmd, ini);
    }
    free(orig);
    return cmd;
}

/* Sets the paper's numbers of e from the resolved INI's [experiment] paper. */
static void paper_numbers(bl_rexp *e, const bl_ini *ini, const char *dir, char **used)
{
    *used = NULL;
    const char *name = ini_get(ini, "experiment", "name");
    const char *paper = ini_get(ini, "experiment", "paper");
    if (!paper || (name && strcmp(name, e->name) != 0))
        return;
    char *path = find_file(paper, dir);
    if (!path) {
        bl_rexp_note(e, "The paper's numbers (%s) were not found.", paper);
        return;
    }
    size_t matched;
    bl_error err;
    if (bl_rexp_paper(e, path, ini_get(ini, "experiment", "paper_table"), &matched, &err) < 0) {
        bl_rexp_note(e, "The paper's numbers could not be read: %s", err.msg);
        free(path);
        return;
    }
    if (!matched)
        bl_rexp_note(e, "The paper's CSV %s names none of these data set and algorithm pairs.",
                     path);
    *used = path;
}

int cmd_report(int argc, char **argv)
{
    report_opts o;
    int prc = parse_opts(argc, argv, &o);
    if (prc)
        return prc < 0 ? BL_EXIT_OK : prc;

    /* nothing is created before the store is known to be there */
    char *store_path = bl_path_join(o.dir, "results.sqlite");
    if (!bl_dir_exists(o.dir) || !bl_file_exists(store_path)) {
        free(store_path);
        char msg[BL_ERRMSG_MAX];
        snprintf(msg, sizeof msg, "%s: no results store (results.sqlite) here", o.dir);
        return cli_fail(msg);
    }
    bl_error err;
    bl_store *s;
    int rc = bl_store_open_ro(store_path, &s, &err);
    free(store_path);
    if (rc < 0)
        return cli_fail(err.msg);
    bl_store_filter flt = {o.experiment, NULL, NULL, NULL};
    bl_store_row *rows;
    size_t nrows;
    if (bl_store_select(s, &flt, &rows, &nrows, &err) < 0) {
        bl_store_close(s);
        return cli_fail(err.msg);
    }
    if (!nrows) {
        bl_store_rows_free(rows, nrows);
        bl_store_close(s);
        char msg[BL_ERRMSG_MAX];
        if (o.experiment)
            snprintf(msg, sizeof msg, "%s: the results store holds no runs of experiment '%s'",
                     o.dir, o.experiment);
        else
            snprintf(msg, sizeof msg, "%s: the results store holds no runs", o.dir);
        return cli_fail(msg);
    }

    /* the resolved experiment: order of the grid, the paper's numbers */
    char *resolved = bl_path_join(o.dir, "experiment.ini");
    bl_ini ini;
    memset(&ini, 0, sizeof ini);
    bl_error ini_err;
    int have_ini = bl_ini_read(resolved, &ini, &ini_err) == 0;
    bl_rset set;
    bl_rset_build(rows, nrows, have_ini ? &ini : NULL, &set);
    bl_store_rows_free(rows, nrows);

    bl_rstats *st = bl_xcalloc(set.n, sizeof *st);
    char **paper = bl_xcalloc(set.n, sizeof *paper);
    bl_figs *figs = bl_xcalloc(set.n, sizeof *figs);
    bl_report_exp *rx = bl_xcalloc(set.n, sizeof *rx);
    char *outdir = o.output ? bl_strdup(o.output) : bl_path_join(o.dir, "report");
    char *plotdir = bl_path_join(outdir, "plots");
    char *run_cmd = NULL, *report_cmd = NULL, *plots_note = NULL;
    loaded_exp L;
    memset(&L, 0, sizeof L);
    rc = 0;

    for (size_t x = 0; x < set.n && rc == 0; x++) {
        bl_rexp *e = &set.exp[x];
        long ref = 0;
        if (o.reference && (ref = bl_rexp_algo(e, o.reference)) < 0) {
            size_t len = 64;
            for (size_t a = 0; a < e->na; a++)
                len += strlen(e->algo[a]) + 2;
            char *names = bl_xmalloc(len);
            names[0] = 0;
            for (size_t a = 0; a < e->na; a++) {
                strcat(names, a ? ", " : "");
                strcat(names, e->algo[a]);
            }
            rc = bl_errf(&err, "--reference '%s': experiment %s has no such algorithm "
                         "(algorithms: %s)", o.reference, e->name, names);
            free(names);
            break;
        }
        if (!have_ini)
            bl_rexp_note(e, "The resolved experiment could not be read (%s), so the paper's "
                         "numbers, if any, are not shown, and the runs it planned are guessed "
                         "from the store.", ini_err.msg);
        else
            paper_numbers(e, &ini, o.dir, &paper[x]);
        /* experiment.ini plans the runs of its own experiment only */
        const char *iname = have_ini ? ini_get(&ini, "experiment", "name") : NULL;
        bl_rexp_expect(e, have_ini && (!iname || !strcmp(iname, e->name)) ? &ini : NULL);
        bl_rstats_run(e, (size_t)ref, o.alpha, &st[x]);
    }

    if (rc == 0 && bl_mkdirs(outdir, &err) < 0)
        rc = -1;
    int plots = o.plots && bl_gnuplot_available();
    if (!o.plots)
        plots_note = bl_strdup("Plots were not drawn (--no-plots).");
    else if (!plots)
        plots_note = bl_strdup("Plots were skipped: gnuplot was not found.  Install the Debian "
                               "package gnuplot-nox (or set BOOSTLAB_GNUPLOT to a gnuplot "
                               "program) and run the report again.");
    if (rc == 0 && plots) {
        if (bl_mkdirs(plotdir, &err) < 0)
            rc = -1;
        else
            bl_clean_stale_tmp(plotdir);
    }
    if (rc == 0 && plots && o.boundaries) {
        int two_d = 0;
        for (size_t x = 0; x < set.n; x++)
            for (size_t d = 0; d < set.exp[x].nd; d++)
                two_d |= set.exp[x].feat[d] == 2;
        if (two_d) {
            bl_set_threads(0);
            load_experiment(resolved, &L);
        }
    }
    for (size_t x = 0; x < set.n && rc == 0 && plots; x++) {
        bl_rexp *e = &set.exp[x];
        char *prefix = set.n > 1 ? bl_strfmt("%s-", e->name) : bl_strdup("");
        const bl_experiment *ex = NULL;
        char why[BL_ERRMSG_MAX + 128];
        snprintf(why, sizeof why, "%s", L.why);
        if (!o.boundaries)
            snprintf(why, sizeof why, "not asked for (--no-boundaries)");
        else if (L.have_ex && !strcmp(L.ex.name, e->name))
            ex = &L.ex;
        else if (L.have_ex)
            snprintf(why, sizeof why, "%s describes experiment %s", resolved, L.ex.name);
        bl_fig_opts fo = {plotdir, prefix, ex, why};
        if (!o.quiet)
            fprintf(stderr, "boostlab: drawing the plots of %s\n", e->name);
        rc = bl_figures_make(s, e, &st[x], &fo, &figs[x], &err);
        free(prefix);
        for (size_t j = 0; j < figs[x].nnote && !o.quiet; j++)
            fprintf(stderr, "boostlab: note: %s\n", figs[x].note[j]);
    }

    if (rc == 0) {
        /* experiment.ini describes one experiment: no single command reruns several */
        run_cmd = set.n == 1 ? run_command(&o, resolved) : NULL;
        report_cmd = report_command(&o);
        for (size_t x = 0; x < set.n; x++)
            rx[x] = (bl_report_exp){&set.exp[x], &st[x], plots ? &figs[x] : NULL, paper[x]};
        bl_report_prov pv;
        memset(&pv, 0, sizeof pv);
        pv.version = bl_strfmt("%s, commit %s (this program, which wrote the report)",
                               PACKAGE_VERSION, BL_GIT_COMMIT);
        pv.seed = have_ini ? ini_get(&ini, "experiment", "seed") : NULL;
        char *summary = bl_path_join(o.dir, "summary.csv");
        pv.ini_href = bl_file_exists(resolved) ? relative_to(outdir, resolved) : NULL;
        pv.summary_href = bl_file_exists(summary) ? relative_to(outdir, summary) : NULL;
        free(summary);
        read_plugins(o.dir, &pv);
        bl_report_doc doc = {o.dir, run_cmd, report_cmd, rx, set.n, plots_note, plotdir, "plots",
                             &pv};
        char *html = bl_path_join(outdir, "report.html");
        char *md = bl_path_join(outdir, "report.md");
        rc = bl_render_html(&doc, html, &err);
        if (rc == 0)
            rc = bl_render_md(&doc, md, &err);
        if (rc == 0 && !o.quiet) {
            size_t nfig = 0;
            for (size_t x = 0; x < set.n; x++)
                nfig += figs[x].n;
            fprintf(stderr, "boostlab: report written to %s and %s (%zu plot%s)\n", html, md,
                    nfig, nfig == 1 ? "" : "s");
        }
        free(html);
        free(md);
        prov_free(&pv);
    }

    for (size_t x = 0; x < set.n; x++) {
        bl_rstats_free(&st[x]);
        bl_figs_free(&figs[x]);
        free(paper[x]);
    }
    free(st);
    free(figs);
    free(paper);
    free(rx);
    loaded_free(&L);
    bl_rset_free(&set);
    if (have_ini)
        bl_ini_free(&ini);
    bl_store_close(s);
    free(resolved);
    free(outdir);
    free(plotdir);
    free(run_cmd);
    free(report_cmd);
    free(plots_note);
    return rc < 0 ? cli_fail(err.msg) : BL_EXIT_OK;
}

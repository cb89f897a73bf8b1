/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the plotting module: every plot kind yields a real PNG and SVG
 * pair, hostile text and values do not break gnuplot, and every failure
 * (gnuplot missing, failing, dying early, writing nothing) is reported and
 * leaves no file behind.  Needs gnuplot (Debian gnuplot-nox) installed. */
#define _GNU_SOURCE
#define BL_PLOT_INTERNAL
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plot/plot.h"
#include "util/error.h"

static char dir[64], bindir[64];

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void setup(void)
{
    strcpy(dir, "/tmp/bl_plot_XXXXXX");
    strcpy(bindir, "/tmp/bl_plotbin_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_not_null(mkdtemp(bindir));
    unsetenv("BOOSTLAB_GNUPLOT");
}

static void teardown(void)
{
    nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
    nftw(bindir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

TestSuite(plot, .init = setup, .fini = teardown, .timeout = 60);

static char *path_in(const char *name)
{
    static char buf[4][256];
    static int i;
    i = (i + 1) % 4;
    snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
    return buf[i];
}

static size_t count_files(const char *d)
{
    DIR *dp = opendir(d);
    cr_assert_not_null(dp);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dp)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(dp);
    return n;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s missing", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return s;
}

/* BASE.png starts with the PNG signature; BASE.svg is a whole SVG without
 * scripts; nothing else (no temporaries) is in the directory. */
static void check_outputs(const char *name)
{
    char png[300], svg[300];
    snprintf(png, sizeof png, "%s/%s.png", dir, name);
    snprintf(svg, sizeof svg, "%s/%s.svg", dir, name);
    size_t n;
    char *s = slurp(png, &n);
    cr_assert_gt(n, 8, "%s is empty", png);
    cr_assert(memcmp(s, "\x89PNG\r\n\x1a\n", 8) == 0, "%s is not a PNG", png);
    free(s);
    s = slurp(svg, &n);
    cr_assert_not_null(strstr(s, "<svg"), "%s has no <svg", svg);
    cr_assert_not_null(strstr(s, "</svg>"), "%s is truncated", svg);
    cr_assert_null(strstr(s, "<script"), "%s is not static", svg);
    free(s);
}

static int svg_has(const char *name, const char *needle)
{
    char svg[300];
    size_t n;
    snprintf(svg, sizeof svg, "%s/%s.svg", dir, name);
    char *s = slurp(svg, &n);
    int found = strstr(s, needle) != NULL;
    free(s);
    return found;
}

/* An executable shell script in bindir, for fake gnuplot programs. */
static const char *fake_gnuplot(const char *body)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/fake-gnuplot", bindir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
    chmod(path, 0755);
    return path;
}

static void assert_no_children(void)
{
    errno = 0;
    cr_assert_eq(waitpid(-1, NULL, WNOHANG), -1, "a child was left unreaped");
    cr_assert_eq(errno, ECHILD);
}

/* A small error-vs-iterations plot used by several tests. */
static int simple_lines(const char *title, const char *name, bl_error *err)
{
    double x[50], y[50];
    for (int i = 0; i < 50; i++) {
        x[i] = i + 1;
        y[i] = 0.5 / sqrt(i + 1.0);
    }
    bl_series s = {.name = name, .n = 50, .x = x, .y = y};
    bl_lineplot p = {title, "iterations", "test error", 1, 0, &s, 1};
    return bl_plot_lines(&p, path_in("lines"), err);
}

/* A large boundary plot, whose script is much bigger than a pipe buffer. */
static int big_boundary(bl_error *err)
{
    enum { NX = 300, NY = 300 };
    static int grid[NX * NY];
    for (int iy = 0; iy < NY; iy++)
        for (int ix = 0; ix < NX; ix++)
            grid[iy * NX + ix] = (ix + iy) % 3;
    double px[1] = {0.5}, py[1] = {0.5};
    int pl[1] = {0};
    return bl_plot_boundary(grid, NX, NY, 0, 1, 0, 1, px, py, pl, 1, NULL, 3, "big",
                            path_in("big"), err);
}

Test(plot, gnuplot_available)
{
    cr_assert_eq(bl_gnuplot_available(), 1, "gnuplot (gnuplot-nox) must be installed");
    setenv("BOOSTLAB_GNUPLOT", "/nonexistent", 1);
    cr_assert_eq(bl_gnuplot_available(), 0);
}

Test(plot, lines_basic)
{
    enum { N = 2000 };
    static double x[N], y1[N], y2[N], lo[N], hi[N];
    for (int i = 0; i < N; i++) {
        x[i] = i + 1;
        y1[i] = 0.4 * exp(-i / 300.0) + 0.05;
        y2[i] = 0.3 / sqrt(i + 1.0) + 0.02;
        lo[i] = y2[i] * 0.8;
        hi[i] = y2[i] * 1.2;
    }
    bl_series s[2] = {{.name = "AdaBoost.MH", .n = N, .x = x, .y = y1},
                      {.name = "SAMME", .n = N, .x = x, .y = y2, .ylo = lo, .yhi = hi}};
    bl_lineplot p = {"Test error", "iterations", "test error", 1, 0, s, 2};
    bl_error err = {{0}};
    cr_assert_eq(bl_plot_lines(&p, path_in("lines"), &err), 0, "%s", err.msg);
    check_outputs("lines");
    cr_assert_eq(count_files(dir), 2);
    cr_assert(svg_has("lines", "AdaBoost.MH"));
    assert_no_children();
}

/* The report shows line plots at page width: the size, the key below the
 * plot (not on the right, where it took a third of the width), readable
 * titles and light bands, read from the script gnuplot was given. */
Test(plot, lines_layout)
{
    char script[300], body[700];
    snprintf(script, sizeof script, "%s/script.gp", bindir);
    snprintf(body, sizeof body, "tee '%s' | exec gnuplot", script);
    setenv("BOOSTLAB_GNUPLOT", fake_gnuplot(body), 1);
    bl_error err = {{0}};
    cr_assert_eq(simple_lines("Test error", "a rather long algorithm name for a key", &err), 0,
                 "%s", err.msg);
    check_outputs("lines");
    size_t n;
    char *s = slurp(script, &n);
    char want[128];
    snprintf(want, sizeof want, "set terminal svg size %d,%d", BL_LINEPLOT_WIDTH,
             BL_LINEPLOT_HEIGHT);
    cr_assert_not_null(strstr(s, want), "%s", s);
    cr_assert_geq(BL_LINEPLOT_WIDTH, 1000);
    cr_assert_not_null(strstr(s, "set key below"), "%s", s);
    cr_assert_null(strstr(s, "outside right"), "%s", s);
    cr_assert_null(strstr(s, "key right"), "%s", s);
    cr_assert_not_null(strstr(s, "'Test error' font ',16'"), "%s", s);
    cr_assert_not_null(strstr(s, "set tics font ',13'"), "%s", s);
    cr_assert_not_null(strstr(s, "transparent solid 0.1 "), "%s", s);
    free(s);
    snprintf(want, sizeof want, "width=\"%d\"", BL_LINEPLOT_WIDTH);
    cr_assert(svg_has("lines", want));
}

/* n series with 24-character names, plotted through a gnuplot that keeps
 * its script; returns the bottom margin the script sets (-1: none). */
static double key_margin(size_t n, char names[][32])
{
    enum { NMAX = 16, NP = 20 };
    static double x[NP], y[NMAX][NP];
    bl_series s[NMAX];
    cr_assert_leq(n, NMAX);
    for (size_t k = 0; k < n; k++) {
        for (int i = 0; i < NP; i++) {
            x[i] = i + 1;
            y[k][i] = 0.5 / sqrt(i + 1.0) + 0.01 * (double)k;
        }
        snprintf(names[k], 32, "algorithm %02zu, long name", k);
        s[k] = (bl_series){.name = names[k], .n = NP, .x = x, .y = y[k]};
    }
    char script[300], body[700];
    snprintf(script, sizeof script, "%s/script.gp", bindir);
    snprintf(body, sizeof body, "tee '%s' | exec gnuplot", script);
    setenv("BOOSTLAB_GNUPLOT", fake_gnuplot(body), 1);
    bl_lineplot p = {"Test error", "iterations", "test error", 0, 0, s, n};
    bl_error err = {{0}};
    cr_assert_eq(bl_plot_lines(&p, path_in("keyrows"), &err), 0, "%s", err.msg);
    size_t len;
    char *text = slurp(script, &len);
    const char *m = strstr(text, "set bmargin ");
    double margin = m ? atof(m + strlen("set bmargin ")) : -1;
    free(text);
    return margin;
}

/* The y of the SVG text element showing exactly `text` (-1: none). */
static double svg_text_y(const char *svg, const char *text)
{
    char needle[64];
    snprintf(needle, sizeof needle, "<text>%s</text>", text);
    const char *at = strstr(svg, needle), *g = NULL;
    for (const char *t = svg; at && (t = strstr(t, "translate(")) && t < at; t++)
        g = t;
    double x, y;
    return g && sscanf(g, "translate(%lf,%lf)", &x, &y) == 2 ? y : -1;
}

/* A key that wraps to several rows below the plot gets a bottom margin that
 * grows with its rows, and every row of it stays below the x label (a fixed
 * margin let the rows climb over the label). */
Test(plot, lines_key_rows)
{
    static char names[16][32];
    double one = key_margin(2, names), some = key_margin(6, names), many = key_margin(16, names);
    cr_assert_gt(one, 0);
    cr_assert_gt(some, one, "6 long names: margin %g, 2: %g", some, one);
    cr_assert_gt(many, some, "16 long names: margin %g, 6: %g", many, some);
    size_t n;
    char svg[300];
    snprintf(svg, sizeof svg, "%s/keyrows.svg", dir);
    char *s = slurp(svg, &n);
    double label = svg_text_y(s, "iterations");
    cr_assert_gt(label, 0, "no x label in %s", svg);
    for (int k = 0; k < 16; k++) {
        double y = svg_text_y(s, names[k]);
        cr_assert_gt(y, 0, "%s not in the key", names[k]);
        /* text y is the baseline: a row's glyphs reach one font size up */
        cr_assert_geq(y - label, 13.0, "key entry %d at y %g, x label at %g", k, y, label);
    }
    free(s);
}

Test(plot, lines_errorbars_loglog)
{
    double x[5] = {2, 4, 8, 16, 32}, y[5] = {0.1, 0.3, 1.1, 4.2, 17};
    double lo[5] = {0.08, 0.2, 0.9, 3.5, 15}, hi[5] = {0.12, 0.4, 1.3, 5.0, 19};
    bl_series s = {.name = "time", .n = 5, .x = x, .y = y, .ylo = lo, .yhi = hi, .errorbars = 1};
    bl_lineplot p = {"step 4 time", "classes", "seconds", 1, 1, &s, 1};
    bl_error err = {{0}};
    cr_assert_eq(bl_plot_lines(&p, path_in("ll"), &err), 0, "%s", err.msg);
    check_outputs("ll");
}

Test(plot, hostile_text_is_shown_verbatim)
{
    const char *title = "a \"quoted\" title_with_underscores \\ back\\slash {x} ^y @z &w 'single'\nnl";
    bl_error err = {{0}};
    cr_assert_eq(simple_lines(title, "name_with_underscore ^{}@&'\"\\", &err), 0, "%s", err.msg);
    check_outputs("lines");
    /* noenhanced: "_" is not turned into a subscript (text stays whole) */
    cr_assert(svg_has("lines", "title_with_underscores"));
    cr_assert(svg_has("lines", "name_with_underscore"));
    cr_assert(svg_has("lines", "back\\slash"));
    cr_assert(svg_has("lines", "&amp;w"));
}

Test(plot, log_axes_skip_bad_values)
{
    double x[8] = {0, -1, 1, 2, NAN, 4, INFINITY, 8};
    double y[8] = {1, 1, 0, 0.5, 0.2, -3, 1, 0.1};
    double xb[3] = {0, -1, NAN}, yb[3] = {1, 2, 3}; /* nothing usable on log x */
    double lo[8] = {0, 0, 0, 0.4, 0, 0, 0, 0.05}, hi[8] = {1, 1, 1, 0.6, NAN, 1, 1, 0.2};
    bl_series s[3] = {{.name = "mixed", .n = 8, .x = x, .y = y, .ylo = lo, .yhi = hi},
                      {.name = "all bad", .n = 3, .x = xb, .y = yb},
                      {.name = "empty", .n = 0, .x = NULL, .y = NULL}};
    bl_lineplot p = {"log", "x", "y", 1, 1, s, 3};
    bl_error err = {{0}};
    cr_assert_eq(bl_plot_lines(&p, path_in("log"), &err), 0, "%s", err.msg);
    check_outputs("log");
    /* only bad values: an empty "no data" frame, not an error */
    bl_lineplot q = {"none", "x", "y", 1, 1, s + 1, 2};
    cr_assert_eq(bl_plot_lines(&q, path_in("none"), &err), 0, "%s", err.msg);
    check_outputs("none");
    cr_assert(svg_has("none", "no data"));
    bl_lineplot r = {NULL, NULL, NULL, 0, 0, NULL, 0};
    cr_assert_eq(bl_plot_lines(&r, path_in("zero"), &err), 0, "%s", err.msg);
    check_outputs("zero");
}

Test(plot, cd_order_is_stable)
{
    double r[5] = {2.5, 1.0, 2.5, 4.0, 1.0};
    size_t o[5];
    bl_plot_cd_order(r, 5, o);
    size_t want[5] = {1, 4, 0, 2, 3};
    for (int i = 0; i < 5; i++)
        cr_assert_eq(o[i], want[i], "position %d", i);
}

Test(plot, cd_diagram)
{
    const char *names[7] = {"AdaBoost.MH", "SAMME", "LogitBoost_\"x\"", "GentleBoost",
                            "XGBoost {hist}", "RF", "back\\slash"};
    double r[7] = {2.1, 3.4, 1.9, 4.0, 4.0, 5.9, 6.7};
    const size_t groups[3][2] = {{0, 3}, {2, 5}, {5, 6}};
    bl_error err = {{0}};
    cr_assert_eq(bl_plot_cd(names, r, 7, 2.41, groups, 3, "Nemenyi, alpha = 0.05", path_in("cd"),
                            &err),
                 0, "%s", err.msg);
    check_outputs("cd");
    cr_assert(svg_has("cd", "GentleBoost"));
    cr_assert(svg_has("cd", "CD = 2.41"));
    /* no CD bar, no groups, two algorithms */
    cr_assert_eq(bl_plot_cd(names, r, 2, NAN, NULL, 0, NULL, path_in("cd2"), &err), 0, "%s",
                 err.msg);
    check_outputs("cd2");
    cr_assert(!svg_has("cd2", "CD ="));
}

Test(plot, cd_rejects_bad_input)
{
    const char *names[3] = {"a", "b", "c"};
    double r[3] = {1, 2, 3};
    const size_t bad[1][2] = {{1, 3}};
    bl_error err = {{0}};
    cr_assert_eq(bl_plot_cd(names, r, 3, 1.0, bad, 1, "t", path_in("cd"), &err), -1);
    cr_assert_not_null(strstr(err.msg, "group"), "%s", err.msg);
    cr_assert_eq(bl_plot_cd(names, r, 1, 1.0, NULL, 0, "t", path_in("cd"), &err), -1);
    cr_assert_eq(count_files(dir), 0);
}

Test(plot, boundary)
{
    enum { NX = 80, NY = 60, NP = 90 };
    int grid[NX * NY];
    for (int iy = 0; iy < NY; iy++)
        for (int ix = 0; ix < NX; ix++) {
            double x = -2 + 4 * (ix + 0.5) / NX, y = -1 + 2 * (iy + 0.5) / NY;
            grid[iy * NX + ix] = x * x + y * y < 1 ? 0 : x > 0 ? 1 : 2;
        }
    double px[NP], py[NP];
    int pl[NP];
    unsigned lcg = 12345;
    for (int i = 0; i < NP; i++) {
        lcg = lcg * 1103515245u + 12345u;
        px[i] = -2 + 4 * (double)(lcg >> 16 & 0x7fff) / 32768.0;
        lcg = lcg * 1103515245u + 12345u;
        py[i] = -1 + 2 * (double)(lcg >> 16 & 0x7fff) / 32768.0;
        pl[i] = px[i] * px[i] + py[i] * py[i] < 1 ? 0 : px[i] > 0 ? 1 : 2;
    }
    pl[0] = 7;     /* out of range: drawn as "other" */
    px[1] = NAN;   /* skipped */
    const char *cls[3] = {"inner_ring", NULL, "left & \"out\""};
    bl_error err = {{0}};
    cr_assert_eq(bl_plot_boundary(grid, NX, NY, -2, 2, -1, 1, px, py, pl, NP, cls, 3,
                                  "stumps, T = 100", path_in("bd"), &err),
                 0, "%s", err.msg);
    check_outputs("bd");
    cr_assert(svg_has("bd", "inner_ring"));
    cr_assert(svg_has("bd", "class 1"));
    cr_assert(svg_has("bd", "other"));
    /* a one-cell grid and no points still make a plot */
    int one = 1;
    cr_assert_eq(bl_plot_boundary(&one, 1, 1, 0, 1, 0, 1, NULL, NULL, NULL, 0, NULL, 2, NULL,
                                  path_in("bd1"), &err),
                 0, "%s", err.msg);
    check_outputs("bd1");
    cr_assert_eq(bl_plot_boundary(grid, NX, NY, 1, 0, 0, 1, NULL, NULL, NULL, 0, NULL, 3, NULL,
                                  path_in("bad"), &err),
                 -1);
    cr_assert_eq(count_files(dir), 4);
}

/* Paired paths: every panel and curve named, both line kinds in the key,
 * non-finite points skipped (a curve with none left is left out). */
Test(plot, paths)
{
    enum { NP = 2, NC = 3, N = 5 };
    double x[N] = {0, 0.5, 1, 1.5, 2}, a[NP * NC * N], b[NP * NC * N];
    for (int i = 0; i < NP * NC * N; i++)
        a[i] = 0.1 * i, b[i] = 0.1 * i + 0.01;
    a[3] = NAN;                       /* one point skipped */
    for (int i = 0; i < N; i++)
        b[(1 * NC + 2) * N + i] = NAN; /* one dashed curve with no point */
    const char *panels[NP] = {"class 'a'", "class \\b"}, *curves[NC] = {"h1", "h_2", "h{3}"};
    bl_pathplot pp = {"paths & more", "l1 norm", "coefficient", NP, NC, N, panels, curves,
                      "exact_solid", "eps_dashed", x, a, b};
    bl_error err = {{0}};
    cr_assert_eq(bl_plot_paths(&pp, path_in("paths"), &err), 0, "%s", err.msg);
    check_outputs("paths");
    cr_assert(svg_has("paths", "h{3}"));
    cr_assert(svg_has("paths", "h_2"));
    cr_assert(svg_has("paths", "exact_solid"));
    cr_assert(svg_has("paths", "eps_dashed"));
    cr_assert(svg_has("paths", "l1 norm"));
    bl_pathplot none = pp;
    none.npanels = 0;
    cr_assert_eq(bl_plot_paths(&none, path_in("none"), &err), -1);
    cr_assert_not_null(strstr(err.msg, "needs panels"), "%s", err.msg);
    cr_assert_eq(count_files(dir), 2);
}

Test(plot, big_boundary)
{
    bl_error err = {{0}};
    cr_assert_eq(big_boundary(&err), 0, "%s", err.msg);
    check_outputs("big");
}

Test(plot, missing_gnuplot)
{
    setenv("BOOSTLAB_GNUPLOT", "/nonexistent", 1);
    bl_error err = {{0}};
    cr_assert_eq(simple_lines("t", "s", &err), -1);
    cr_assert_not_null(strstr(err.msg, "gnuplot-nox"), "%s", err.msg);
    const char *names[2] = {"a", "b"};
    double r[2] = {1.2, 1.8};
    err.msg[0] = 0;
    cr_assert_eq(bl_plot_cd(names, r, 2, 1.0, NULL, 0, "t", path_in("cd"), &err), -1);
    cr_assert_not_null(strstr(err.msg, "gnuplot-nox"), "%s", err.msg);
    int grid[4] = {0, 1, 1, 0};
    err.msg[0] = 0;
    cr_assert_eq(bl_plot_boundary(grid, 2, 2, 0, 1, 0, 1, NULL, NULL, NULL, 0, NULL, 2, "t",
                                  path_in("bd"), &err),
                 -1);
    cr_assert_not_null(strstr(err.msg, "gnuplot-nox"), "%s", err.msg);
    cr_assert_eq(count_files(dir), 0);
    /* also when found on PATH rather than named */
    setenv("BOOSTLAB_GNUPLOT", "no-such-gnuplot-program", 1);
    cr_assert_eq(simple_lines("t", "s", &err), -1);
    cr_assert_not_null(strstr(err.msg, "gnuplot-nox"), "%s", err.msg);
    cr_assert_eq(count_files(dir), 0);
}

Test(plot, gnuplot_error_leaves_nothing)
{
    /* A script error after `set output` (which already created the
     * temporaries): the first gnuplot error line is reported. */
    bl_gp g;
    bl_gp_init(&g, 400, 300);
    bl_gp_cmd(&g, "plot $nosuchblock using 1:2\n");
    bl_error err = {{0}};
    cr_assert_eq(bl_gp_render(&g, path_in("bad"), &err), -1);
    bl_gp_free(&g);
    cr_assert_not_null(strstr(err.msg, "exit status"), "%s", err.msg);
    cr_assert_not_null(strstr(err.msg, "nosuchblock"), "%s", err.msg);
    cr_assert_eq(count_files(dir), 0);
    assert_no_children();
}

Test(plot, failing_gnuplot_after_output_leaves_nothing)
{
    /* Real gnuplot writes both temporaries completely, then the run fails:
     * nothing may be committed. */
    setenv("BOOSTLAB_GNUPLOT",
           fake_gnuplot("gnuplot \"$@\"\necho '         line 9: simulated failure' >&2\nexit 3"),
           1);
    bl_error err = {{0}};
    cr_assert_eq(simple_lines("t", "s", &err), -1);
    cr_assert_not_null(strstr(err.msg, "exit status 3"), "%s", err.msg);
    cr_assert_not_null(strstr(err.msg, "line 9: simulated failure"), "%s", err.msg);
    cr_assert_eq(count_files(dir), 0);
}

static int sigpipe_seen;
static void on_sigpipe(int sig)
{
    (void)sig;
    sigpipe_seen = 1;
}

Test(plot, gnuplot_dying_early_is_reported)
{
    /* It exits without reading a script larger than the pipe buffer: we
     * must get EPIPE, not SIGPIPE, and our own handler must be restored. */
    struct sigaction sa, cur;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigpipe;
    sigaction(SIGPIPE, &sa, NULL);
    setenv("BOOSTLAB_GNUPLOT", fake_gnuplot("echo 'early death' >&2\nexit 2"), 1);
    bl_error err = {{0}};
    cr_assert_eq(big_boundary(&err), -1);
    cr_assert_not_null(strstr(err.msg, "exit status 2): early death"), "%s", err.msg);
    cr_assert_eq(sigpipe_seen, 0);
    sigaction(SIGPIPE, NULL, &cur);
    cr_assert(cur.sa_handler == on_sigpipe, "SIGPIPE handler not restored");
    cr_assert_eq(count_files(dir), 0);
    assert_no_children();
}

Test(plot, no_output_is_reported)
{
    setenv("BOOSTLAB_GNUPLOT", fake_gnuplot("cat >/dev/null\nexit 0"), 1);
    bl_error err = {{0}};
    cr_assert_eq(simple_lines("t", "s", &err), -1);
    cr_assert_not_null(strstr(err.msg, "no output"), "%s", err.msg);
    cr_assert_eq(count_files(dir), 0);
}

Test(plot, killed_gnuplot_is_reported)
{
    setenv("BOOSTLAB_GNUPLOT", fake_gnuplot("kill -9 $$"), 1);
    bl_error err = {{0}};
    cr_assert_eq(simple_lines("t", "s", &err), -1);
    cr_assert_not_null(strstr(err.msg, "signal 9"), "%s", err.msg);
    cr_assert_eq(count_files(dir), 0);
    assert_no_children();
}

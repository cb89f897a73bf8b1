/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The gnuplot driver (script building, running gnuplot as a child process,
 * committing BASE.png / BASE.svg atomically) and line plots (see plot.h). */
#define _GNU_SOURCE /* pipe2 */
#define BL_PLOT_INTERNAL
#include "plot/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/fsutil.h"

extern char **environ;

/* gnuplot normally draws in well under a second; this only guards against
 * a wedged child holding the report forever. */
#define GP_TIMEOUT_MS 60000
/* Enough of gnuplot's stderr to find its error message. */
#define GP_STDERR_MAX 16384

/* ---- Growing strings ----------------------------------------------------- */

static void sb_reserve(bl_sbuf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    b->s = bl_xrealloc(b->s, cap);
    b->cap = cap;
}

static void sb_vprintf(bl_sbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n <= 0)
        return;
    sb_reserve(b, (size_t)n);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

static void sb_printf(bl_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(bl_sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

static void sb_putc(bl_sbuf *b, char c)
{
    sb_reserve(b, 1);
    b->s[b->len++] = c;
    b->s[b->len] = 0;
}

/* Single-quoted gnuplot strings take everything literally (no backslash
 * escapes, no macro expansion) except '' for one quote; a newline would end
 * the command, so control characters become spaces. */
static void sb_quote(bl_sbuf *b, const char *s)
{
    sb_putc(b, '\'');
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '\'')
            sb_putc(b, '\'');
        sb_putc(b, (*p < 32 || *p == 127) ? ' ' : (char)*p);
    }
    sb_putc(b, '\'');
}

/* ---- Script building ------------------------------------------------------ */

void bl_gp_init(bl_gp *g, int width, int height)
{
    memset(g, 0, sizeof *g);
    g->width = width;
    g->height = height;
}

void bl_gp_free(bl_gp *g)
{
    free(g->data.s);
    free(g->body.s);
    memset(g, 0, sizeof *g);
}

void bl_gp_data(bl_gp *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&g->data, fmt, ap);
    va_end(ap);
}

void bl_gp_cmd(bl_gp *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&g->body, fmt, ap);
    va_end(ap);
}

void bl_gp_str(bl_gp *g, const char *s)
{
    sb_quote(&g->body, s);
}

/* matplotlib's tab10 and its light companions (tab20): distinguishable,
 * and familiar to readers of ML papers. */
static const char *const colors[10] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                       "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
static const char *const colors_light[10] = {"#aec7e8", "#ffbb78", "#98df8a", "#ff9896",
                                             "#c5b0d5", "#c49c94", "#f7b6d2", "#c7c7c7",
                                             "#dbdb8d", "#9edae5"};

const char *bl_gp_color(size_t i)
{
    return colors[i % 10];
}

const char *bl_gp_color_light(size_t i)
{
    return colors_light[i % 10];
}

void bl_gp_style(bl_gp *g)
{
    /* Filled point types 7 5 9 11 13 15: circle, square, triangles, ... */
    static const int pts[10] = {7, 5, 9, 11, 13, 15, 7, 5, 9, 11};
    for (int i = 0; i < 10; i++)
        bl_gp_cmd(g, "set linetype %d lc rgb '%s' lw 2 pt %d ps 0.9\n", i + 1, colors[i], pts[i]);
    bl_gp_cmd(g, "set linetype cycle 10\n");
}

/* ---- Finding and running gnuplot ------------------------------------------ */

static const char *gp_program(void)
{
    const char *p = getenv("BOOSTLAB_GNUPLOT");
    return p && *p ? p : "gnuplot";
}

static int is_executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int bl_gnuplot_available(void)
{
    const char *prog = gp_program();
    if (strchr(prog, '/'))
        return is_executable(prog);
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    int found = 0;
    while (!found) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        char *dir = n ? bl_xmalloc(n + 1) : bl_strdup(".");
        if (n) {
            memcpy(dir, path, n);
            dir[n] = 0;
        }
        char *full = bl_path_join(dir, prog);
        found = is_executable(full);
        free(full);
        free(dir);
        if (!end)
            break;
        path = end + 1;
    }
    return found;
}

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The line of gnuplot's stderr worth showing: its error lines look like
 * "         line 3: undefined variable: x" after an echo of the command, so
 * prefer the first "line N:" line that is not a warning, then any "line N:"
 * line, else the first non-blank line. */
static void first_error_line(const char *s, char *out, size_t outsz)
{
    const char *pick = NULL, *warn = NULL, *first = NULL;
    for (const char *l = s; *l && !pick;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        const char *t = l;
        while (t < l + n && (*t == ' ' || *t == '\t' || *t == '\r'))
            t++;
        if (t < l + n) {
            if (!first)
                first = t;
            int d = 0;
            if (sscanf(t, "line %*d:%n", &d) >= 0 && d > 0) {
                if (strncmp(t + d, " warning:", 9) != 0)
                    pick = t;
                else if (!warn)
                    warn = t;
            }
        }
        l = e ? e + 1 : l + n;
    }
    if (!pick)
        pick = warn ? warn : first;
    if (!pick) {
        snprintf(out, outsz, "(no message)");
        return;
    }
    /* gnuplot pads its messages for a terminal: squeeze runs of blanks */
    size_t o = 0;
    for (const char *c = pick; *c && *c != '\n' && *c != '\r' && o + 1 < outsz; c++)
        if (!((*c == ' ' || *c == '\t') && (o == 0 || out[o - 1] == ' ')))
            out[o++] = *c == '\t' ? ' ' : *c;
    out[o] = 0;
}

/* Feed script to the gnuplot child on its stdin while collecting its
 * stderr (poll both, so neither side can block the other), then reap it.
 * Returns the wait status, or -1 with err (spawn failure, timeout). */
static int gp_run(const char *script, size_t len, bl_sbuf *errout, bl_error *err)
{
    const char *prog = gp_program();
    /* Look first: where posix_spawn is emulated (valgrind, some libcs), a
     * missing program is an exit status 127 of the child, not ENOENT. */
    if (!bl_gnuplot_available())
        return bl_errf(err,
                       "gnuplot not found (tried '%s'): install the Debian package "
                       "gnuplot-nox, or set BOOSTLAB_GNUPLOT to the gnuplot program",
                       prog);
    int in[2] = {-1, -1}, ep[2] = {-1, -1};
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(ep, O_CLOEXEC) != 0) {
        int e = errno;
        if (in[0] >= 0) {
            close(in[0]);
            close(in[1]);
        }
        return bl_errf(err, "cannot create pipes for gnuplot: %s", strerror(e));
    }

    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, ep[1], 2);
    posix_spawnattr_init(&attr);
    /* We may ignore SIGPIPE ourselves; gnuplot should get the defaults. */
    sigset_t def, empty;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    sigemptyset(&empty);
    posix_spawnattr_setsigdefault(&attr, &def);
    posix_spawnattr_setsigmask(&attr, &empty);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

    pid_t pid;
    char *argv[] = {(char *)prog, NULL};
    int rc = posix_spawnp(&pid, prog, &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(in[0]);
    close(ep[1]);
    if (rc != 0) {
        close(in[1]);
        close(ep[0]);
        if (rc == ENOENT)
            return bl_errf(err,
                           "gnuplot not found (tried '%s'): install the Debian package "
                           "gnuplot-nox, or set BOOSTLAB_GNUPLOT to the gnuplot program",
                           prog);
        return bl_errf(err,
                       "cannot run gnuplot '%s': %s (install the Debian package "
                       "gnuplot-nox, or set BOOSTLAB_GNUPLOT to the gnuplot program)",
                       prog, strerror(rc));
    }

    /* A gnuplot dying early must not kill us with SIGPIPE: ignore it while
     * writing (EPIPE then just ends the writing) and restore it after. */
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);

    size_t off = 0;
    int wfd = in[1], rfd = ep[0], timed_out = 0;
    long deadline = now_ms() + GP_TIMEOUT_MS;
    if (len == 0) {
        close(wfd);
        wfd = -1;
    }
    while (wfd >= 0 || rfd >= 0) {
        struct pollfd pf[2];
        int n = 0, iw = -1, ir = -1;
        if (wfd >= 0) {
            pf[n].fd = wfd;
            pf[n].events = POLLOUT;
            iw = n++;
        }
        if (rfd >= 0) {
            pf[n].fd = rfd;
            pf[n].events = POLLIN;
            ir = n++;
        }
        long left = deadline - now_ms();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        int pr = poll(pf, (nfds_t)n, (int)left);
        if (pr < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (iw >= 0 && pf[iw].revents) {
            ssize_t w = write(wfd, script + off, len - off);
            if (w > 0)
                off += (size_t)w;
            if ((w < 0 && errno != EAGAIN && errno != EINTR) || off == len) {
                close(wfd); /* EOF makes gnuplot finish; EPIPE: it is gone */
                wfd = -1;
            }
        }
        if (ir >= 0 && pf[ir].revents) {
            char buf[4096];
            ssize_t r = read(rfd, buf, sizeof buf);
            if (r > 0) {
                if (errout->len < GP_STDERR_MAX)
                    sb_printf(errout, "%.*s", (int)r, buf);
            } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
                close(rfd);
                rfd = -1;
            }
        }
    }
    if (wfd >= 0)
        close(wfd);
    if (rfd >= 0)
        close(rfd);
    sigaction(SIGPIPE, &old, NULL);

    if (timed_out)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (timed_out)
        return bl_errf(err, "gnuplot '%s' did not finish within %d s (killed)", prog,
                       GP_TIMEOUT_MS / 1000);
    return status;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (long)st.st_size : -1;
}

int bl_gp_render(const bl_gp *g, const char *base, bl_error *err)
{
    if (!base || !*base)
        return bl_errf(err, "plot: empty output name");
    static const char *const ext[2] = {"png", "svg"};
    char *final[2], *tmp[2];
    for (int t = 0; t < 2; t++) {
        size_t n = strlen(base) + 48;
        final[t] = bl_xmalloc(n);
        tmp[t] = bl_xmalloc(n);
        snprintf(final[t], n, "%s.%s", base, ext[t]);
        /* name.tmp.PID: the pattern bl_clean_stale_tmp() knows */
        snprintf(tmp[t], n, "%s.%s.tmp.%ld", base, ext[t], (long)getpid());
    }

    /* Datablocks once, then the drawing once per terminal; `reset` keeps
     * datablocks, terminal and output but clears labels/arrows/ranges. */
    bl_sbuf s = {0};
    if (g->data.len)
        sb_printf(&s, "%s", g->data.s);
    for (int t = 0; t < 2; t++) {
        if (t == 0)
            sb_printf(&s, "set terminal pngcairo size %d,%d noenhanced font 'Sans,10'\n",
                      g->width, g->height);
        else
            sb_printf(&s,
                      "set terminal svg size %d,%d fixed noenhanced font 'sans-serif,12' "
                      "background '#ffffff'\n",
                      g->width, g->height);
        sb_printf(&s, "set output ");
        sb_quote(&s, tmp[t]);
        sb_printf(&s, "\nreset\n%s\nunset output\n", g->body.len ? g->body.s : "");
    }

    bl_sbuf errout = {0};
    int rc = -1;
    int status = gp_run(s.s, s.len, &errout, err);
    if (status == -1) {
        bl_errprefix(err, "%s", base);
    } else if (WIFSIGNALED(status)) {
        char line[512];
        first_error_line(errout.s ? errout.s : "", line, sizeof line);
        bl_errf(err, "%s: gnuplot killed by signal %d: %s", base, WTERMSIG(status), line);
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char line[512];
        first_error_line(errout.s ? errout.s : "", line, sizeof line);
        bl_errf(err, "%s: gnuplot failed (exit status %d): %s", base,
                WIFEXITED(status) ? WEXITSTATUS(status) : -1, line);
    } else if (file_size(tmp[0]) <= 0 || file_size(tmp[1]) <= 0) {
        bl_errf(err, "%s: gnuplot produced no output %s", base,
                file_size(tmp[0]) <= 0 ? final[0] : final[1]);
    } else if (rename(tmp[0], final[0]) != 0) {
        bl_errf(err, "%s: cannot rename to %s: %s", tmp[0], final[0], strerror(errno));
    } else if (rename(tmp[1], final[1]) != 0) {
        bl_errf(err, "%s: cannot rename to %s: %s", tmp[1], final[1], strerror(errno));
        remove(final[0]); /* keep the pair together */
    } else {
        rc = 0;
    }
    for (int t = 0; t < 2; t++) {
        if (rc != 0)
            remove(tmp[t]);
        free(tmp[t]);
        free(final[t]);
    }
    free(s.s);
    free(errout.s);
    return rc;
}

/* ---- Line plots ------------------------------------------------------------ */

static int usable(double x, double y, int logx, int logy)
{
    return isfinite(x) && isfinite(y) && (!logx || x > 0) && (!logy || y > 0);
}

static void axis_labels(bl_gp *g, const char *title, const char *xlabel, const char *ylabel)
{
    if (title && *title) {
        bl_gp_cmd(g, "set title ");
        bl_gp_str(g, title);
        bl_gp_cmd(g, " font '," BL_PLOT_TITLE_FONT "'\n");
    }
    if (xlabel && *xlabel) {
        bl_gp_cmd(g, "set xlabel ");
        bl_gp_str(g, xlabel);
        bl_gp_cmd(g, " font '," BL_PLOT_LABEL_FONT "'\n");
    }
    if (ylabel && *ylabel) {
        bl_gp_cmd(g, "set ylabel ");
        bl_gp_str(g, ylabel);
        bl_gp_cmd(g, " font '," BL_PLOT_LABEL_FONT "'\n");
    }
}

/* gnuplot's width of key text: characters, not bytes (UTF-8). */
static size_t key_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Key geometry of a line plot, in pixels of the BL_LINEPLOT_WIDTH canvas.
 * gnuplot 5.4 makes a key column (with `reverse` and `width 3`) h_char *
 * (longest + 9) + h_tic wide, and fits as many as the plot's width holds;
 * at the key's BL_PLOT_LABEL_FONT h_char is 11 px in pngcairo and 9.1 in
 * svg (GPVAL_TERM_HCHAR), h_tic about 7.  The estimate here is wider, and
 * the plot narrower, than both terminals', so gnuplot fits at least the
 * columns chosen here (capped with maxcols): the rows are known before it
 * runs. */
#define KEY_CHAR_PX 11.25
#define KEY_TIC_PX 8.0
#define KEY_COL_EXTRA_CHARS 9 /* the sample, the gaps and `width 3` */
#define KEY_PLOT_WIDTH_PX (BL_LINEPLOT_WIDTH - 120) /* less the y tics and label */
/* Bottom margin in character heights of the terminal's own font: the x
 * tics, the x label and one key row; then for each further row, one key row
 * (20.2 px in pngcairo, 19.5 in svg) over the character height (15.5 px in
 * pngcairo at 10 pt, 18 in svg at 12 pt). */
#define KEY_MARGIN_ONE_ROW 6.0
#define KEY_MARGIN_PER_ROW 1.3

/* A key below the plot for `named` entries, the longest `longest` characters:
 * as many columns as fit, and a bottom margin that grows with the rows, so a
 * key that wraps stays clear of the x label. */
static void key_below(bl_gp *g, size_t named, size_t longest)
{
    double col_px = KEY_CHAR_PX * (double)(longest + KEY_COL_EXTRA_CHARS) + KEY_TIC_PX;
    size_t cols = (size_t)(KEY_PLOT_WIDTH_PX / col_px);
    cols = cols < 1 ? 1 : cols > named ? named : cols;
    size_t rows = (named + cols - 1) / cols;
    bl_gp_cmd(g, "set key below center horizontal reverse Left width 3 maxcols %zu\n"
                 "set bmargin %.1f\n",
              cols, KEY_MARGIN_ONE_ROW + KEY_MARGIN_PER_ROW * (double)(rows - 1));
}

int bl_plot_lines(const bl_lineplot *p, const char *base, bl_error *err)
{
    if (!p || (p->nseries && !p->series))
        return bl_errf(err, "%s: line plot without series", base ? base : "plot");
    int logx = p->logx != 0, logy = p->logy != 0;
    bl_gp g;
    bl_gp_init(&g, BL_LINEPLOT_WIDTH, BL_LINEPLOT_HEIGHT);
    bl_gp_style(&g);
    axis_labels(&g, p->title, p->xlabel, p->ylabel);
    bl_gp_cmd(&g, "set tics font '," BL_PLOT_LABEL_FONT "'\nset key font '," BL_PLOT_LABEL_FONT
                  "'\n");
    /* x fitted to the data (iterations 1..T, not 1..10^k) with a small
     * margin so that end points and their error bars are not clipped; y
     * gets gnuplot's rounded range. */
    bl_gp_cmd(&g, "set grid\nset format y '%%g'\nset format x '%%g'\nset autoscale xfix\n"
                  "set offsets graph 0.02, graph 0.02, 0, 0\n");
    if (logx)
        bl_gp_cmd(&g, "set logscale x 10\n");
    if (logy)
        bl_gp_cmd(&g, "set logscale y 10\n");
    /* light bands: the means must stay visible where bands overlap */
    bl_gp_cmd(&g, "set style fill transparent solid 0.1 noborder\n");

    /* Datablocks $bI (band/bars) and $sI (line) per series; the plot
     * clauses are collected apart so the bands go behind every line. */
    bl_sbuf bands = {0}, lines = {0};
    size_t named = 0, longest = 0;
    double xlo = INFINITY, xhi = -INFINITY;
    for (size_t i = 0; i < p->nseries; i++) {
        const bl_series *s = &p->series[i];
        if (!s->n || !s->x || !s->y)
            continue;
        int lt = (int)(i % 10) + 1;
        size_t nb = 0;
        if (s->ylo && s->yhi) {
            bl_gp_data(&g, "$b%zu << EOD\n", i);
            for (size_t j = 0; j < s->n; j++) {
                double lo = s->ylo[j], hi = s->yhi[j];
                if (!usable(s->x[j], lo, logx, logy) || !usable(s->x[j], hi, logx, logy))
                    continue;
                if (s->errorbars) {
                    if (!usable(s->x[j], s->y[j], logx, logy))
                        continue;
                    bl_gp_data(&g, "%.12g %.12g %.12g %.12g\n", s->x[j], s->y[j], lo, hi);
                } else {
                    bl_gp_data(&g, "%.12g %.12g %.12g\n", s->x[j], lo, hi);
                }
                nb++;
            }
            bl_gp_data(&g, "EOD\n");
        }
        if (nb)
            sb_printf(&bands, "%s$b%zu using 1:2:3%s with %s lc %d notitle", bands.len ? ", " : "",
                      i, s->errorbars ? ":4" : "", s->errorbars ? "yerrorbars pt -1" : "filledcurves",
                      lt);
        size_t nl = 0;
        double t0 = INFINITY, t1 = -INFINITY;
        bl_gp_data(&g, "$s%zu << EOD\n", i);
        for (size_t j = 0; j < s->n; j++)
            if (usable(s->x[j], s->y[j], logx, logy)) {
                bl_gp_data(&g, "%.12g %.12g\n", s->x[j], s->y[j]);
                double t = logx ? log10(s->x[j]) : s->x[j];
                t0 = fmin(t0, t);
                t1 = fmax(t1, t);
                xlo = fmin(xlo, s->x[j]);
                xhi = fmax(xhi, s->x[j]);
                nl++;
            }
        bl_gp_data(&g, "EOD\n");
        if (!nl)
            continue;
        /* Markers on about 15 points evenly spread along the (log) x axis,
         * so long curves stay readable and log axes are not crowded at
         * the right; short series get a marker on every point. */
        bl_gp_data(&g, "$m%zu << EOD\n", i);
        double next = -INFINITY, step = (t1 - t0) / 15;
        for (size_t j = 0; j < s->n; j++) {
            if (!usable(s->x[j], s->y[j], logx, logy))
                continue;
            double t = logx ? log10(s->x[j]) : s->x[j];
            if (nl <= 15 || t >= next) {
                bl_gp_data(&g, "%.12g %.12g\n", s->x[j], s->y[j]);
                next = t + step;
            }
        }
        bl_gp_data(&g, "EOD\n");
        sb_printf(&lines, "%s$s%zu using 1:2 with lines lt %d notitle, "
                  "$m%zu using 1:2 with points lt %d notitle",
                  lines.len ? ", " : "", i, lt, i, lt);
        if (s->name && *s->name) {
            /* the key shows line and marker together */
            sb_printf(&lines, ", keyentry with linespoints lt %d title ", lt);
            sb_quote(&lines, s->name);
            named++;
            longest = key_chars(s->name) > longest ? key_chars(s->name) : longest;
        }
    }
    /* A log x axis fitted to under two decades may show a single label:
     * label 1, 2, 5 times powers of ten inside the range too. */
    if (logx && xlo > 0 && xhi < INFINITY && xhi / xlo < 100) {
        bl_gp_cmd(&g, "set xtics add (");
        int first = 1;
        for (double e = floor(log10(xlo)); e <= ceil(log10(xhi)); e++)
            for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
                double v = m * pow(10, e);
                if (v >= xlo * (1 - 1e-9) && v <= xhi * (1 + 1e-9)) {
                    bl_gp_cmd(&g, "%s%.12g", first ? "" : ", ", v);
                    first = 0;
                }
            }
        bl_gp_cmd(&g, first ? "1e300)\n" : ")\n");
    }
    /* The key goes below the plot, in rows: a key on the right would take
     * width from the plot itself. */
    if (named)
        key_below(&g, named, longest);
    else
        bl_gp_cmd(&g, "unset key\n");
    if (!lines.len && !bands.len) {
        /* Nothing drawable: an explicit empty frame instead of gnuplot's
         * "all points undefined" error. */
        bl_gp_cmd(&g, "set xrange [%s]\nset yrange [%s]\n", logx ? "1:10" : "0:1",
                  logy ? "1:10" : "0:1");
        bl_gp_cmd(&g, "set label 'no data' at graph 0.5, 0.5 center\nplot NaN notitle\n");
    } else {
        bl_gp_cmd(&g, "plot %s%s%s\n", bands.len ? bands.s : "",
                  bands.len && lines.len ? ", " : "", lines.len ? lines.s : "");
    }
    free(bands.s);
    free(lines.s);
    int rc = bl_gp_render(&g, base, err);
    bl_gp_free(&g);
    return rc;
}

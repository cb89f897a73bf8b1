/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Experiment progress on stderr (see progress.h). */
#include "progress.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fmt_secs(double s, char *buf, size_t cap)
{
    if (!isfinite(s) || s < 0)
        snprintf(buf, cap, "?");
    else if (s < 60)
        snprintf(buf, cap, "%.0fs", s);
    else if (s < 3600)
        snprintf(buf, cap, "%dm%02ds", (int)s / 60, (int)s % 60);
    else
        snprintf(buf, cap, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

void bl_progress_init(bl_progress *p, size_t runs, size_t iters_total, int quiet)
{
    memset(p, 0, sizeof *p);
    p->tty = isatty(STDERR_FILENO);
    p->quiet = quiet;
    p->runs_total = runs;
    p->iters_total = iters_total;
    p->start = now();
}

void bl_progress_run_start(bl_progress *p, const char *label, size_t iters)
{
    snprintf(p->label, sizeof p->label, "%s", label);
    p->run_iters = iters;
}

static void draw(bl_progress *p, size_t it)
{
    double frac = p->iters_total ? (double)p->iters_done / (double)p->iters_total : 0;
    double el = now() - p->start;
    char eta[32];
    fmt_secs(frac > 0 ? el * (1 - frac) / frac : NAN, eta, sizeof eta);
    char bar[31];
    int fill = (int)(frac * 30);
    for (int j = 0; j < 30; j++)
        bar[j] = j < fill ? '#' : '.';
    bar[30] = 0;
    fprintf(stderr, "\r[%s] %3.0f%%  run %zu/%zu %s  it %zu/%zu  left %s\033[K", bar,
            100 * frac, p->runs_done + 1, p->runs_total, p->label, it, p->run_iters, eta);
    fflush(stderr);
}

void bl_progress_iter(void *user, size_t done, size_t total)
{
    bl_progress *p = user;
    (void)total;
    p->iters_done++;
    if (p->quiet || !p->tty)
        return;
    double t = now();
    if (t - p->last_draw > 0.1 || done == total) {
        p->last_draw = t;
        draw(p, done);
    }
}

void bl_progress_run_end(bl_progress *p, double test_err, size_t iters, double secs)
{
    /* iterations a run did not use (early stop) still count as done */
    if (iters < p->run_iters)
        p->iters_done += p->run_iters - iters;
    p->runs_done++;
    if (p->quiet)
        return;
    char el[32];
    fmt_secs(now() - p->start, el, sizeof el);
    if (p->tty)
        fprintf(stderr, "\r\033[K");
    if (isnan(test_err))
        fprintf(stderr, "[%zu/%zu] %s: %zu iterations, %.2fs (elapsed %s)\n", p->runs_done,
                p->runs_total, p->label, iters, secs, el);
    else
        fprintf(stderr, "[%zu/%zu] %s: test error %.2f%% after %zu iterations, %.2fs "
                "(elapsed %s)\n", p->runs_done, p->runs_total, p->label, 100 * test_err, iters,
                secs, el);
}

void bl_progress_finish(bl_progress *p)
{
    if (!p->quiet && p->tty)
        fprintf(stderr, "\r\033[K");
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Experiment progress on stderr (see progress.h). */
#include "progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/clock.h"
#include "../util/fsutil.h"

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

void bl_progress_init(bl_progress *p, size_t runs, size_t skipped, size_t iters_total,
                      int slots, int quiet)
{
    memset(p, 0, sizeof *p);
    p->tty = isatty(STDERR_FILENO);
    p->quiet = quiet;
    p->runs_total = runs;
    p->runs_skipped = skipped;
    p->iters_total = iters_total;
    p->nslots = slots > 0 ? slots : 1;
    p->slot = bl_xcalloc((size_t)p->nslots, sizeof *p->slot);
    p->start = bl_seconds();
}

/* Iterations done, counting the current runs' progress. */
static size_t iters_now(const bl_progress *p)
{
    size_t n = p->iters_done;
    for (int s = 0; s < p->nslots; s++)
        if (p->slot[s].busy)
            n += p->slot[s].done;
    return n;
}

static void draw(bl_progress *p)
{
    if (p->quiet || !p->tty)
        return;
    double frac = p->iters_total ? (double)iters_now(p) / (double)p->iters_total : 0;
    if (frac > 1)
        frac = 1;
    double el = bl_seconds() - p->start;
    char eta[32], bar[21];
    fmt_secs(frac > 0 ? el * (1 - frac) / frac : NAN, eta, sizeof eta);
    int fill = (int)(frac * 20);
    for (int j = 0; j < 20; j++)
        bar[j] = j < fill ? '#' : '.';
    bar[20] = 0;
    int running = 0, first = -1;
    for (int s = 0; s < p->nslots; s++)
        if (p->slot[s].busy && running++ == 0)
            first = s;
    size_t left = p->runs_total - p->runs_done - (size_t)running;
    fprintf(stderr, "\r[%s] %3.0f%%  %zu done, %d running, %zu left, ETA %s", bar, 100 * frac,
            p->runs_done, running, left, eta);
    if (first >= 0)
        fprintf(stderr, "  | %s it %zu/%zu%s", p->slot[first].label, p->slot[first].done,
                p->slot[first].total, running > 1 ? " ..." : "");
    fprintf(stderr, "\033[K");
    fflush(stderr);
    p->last_draw = bl_seconds();
}

void bl_progress_start(bl_progress *p, int slot, const char *label, size_t iters)
{
    bl_progress_slot *s = &p->slot[slot % p->nslots];
    snprintf(s->label, sizeof s->label, "%s", label);
    s->done = 0;
    s->total = iters;
    s->busy = 1;
    s->start = bl_seconds();
    draw(p);
}

void bl_progress_tick(bl_progress *p, int slot, size_t done)
{
    p->slot[slot % p->nslots].done = done;
    if (bl_seconds() - p->last_draw > 0.1)
        draw(p);
}

void bl_progress_end(bl_progress *p, int slot, double test_err, size_t iters, double secs)
{
    bl_progress_slot *s = &p->slot[slot % p->nslots];
    /* iterations a run did not use (early stop) still count as done */
    p->iters_done += s->total > iters ? s->total : iters;
    s->busy = 0;
    p->runs_done++;
    if (!p->quiet) {
        char el[32], eta[32];
        double t = bl_seconds() - p->start;
        double frac = p->iters_total ? (double)iters_now(p) / (double)p->iters_total : 1;
        fmt_secs(t, el, sizeof el);
        fmt_secs(frac > 0 && frac < 1 ? t * (1 - frac) / frac : 0, eta, sizeof eta);
        if (p->tty)
            fprintf(stderr, "\r\033[K");
        fprintf(stderr, "[%zu/%zu] %s: ", p->runs_done, p->runs_total, s->label);
        if (!isnan(test_err))
            fprintf(stderr, "test error %.2f%% after ", 100 * test_err);
        fprintf(stderr, "%zu iterations, %.2fs (elapsed %s, about %s left)\n", iters, secs, el,
                eta);
    }
    draw(p);
}

void bl_progress_fail(bl_progress *p, int slot)
{
    p->slot[slot % p->nslots].busy = 0;
    if (!p->quiet && p->tty)
        fprintf(stderr, "\r\033[K");
}

void bl_progress_finish(bl_progress *p)
{
    if (!p->quiet && p->tty)
        fprintf(stderr, "\r\033[K");
    free(p->slot);
    p->slot = NULL;
}

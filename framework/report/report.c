/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Run curves and experiment summaries (see report.h). */
#include "report.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"
#include "stats.h"

void bl_summary_init(bl_summary *s, const bl_experiment *ex, const char *dir)
{
    memset(s, 0, sizeof *s);
    s->ex = ex;
    s->nd = ex->ndata;
    s->na = ex->nalgo;
    s->nr = (size_t)bl_max_repeats(ex);
    s->res = bl_xcalloc(s->nd * s->na * s->nr, sizeof *s->res);
    s->done = bl_xcalloc(s->nd * s->na * s->nr, 1);
    s->dir = bl_strdup(dir);
}

void bl_summary_free(bl_summary *s)
{
    free(s->res);
    free(s->done);
    free(s->dir);
    memset(s, 0, sizeof *s);
}

/* Collect one field of the finished repeats of cell (d, a). */
static size_t cell(const bl_summary *s, size_t d, size_t a, size_t off, double *out)
{
    size_t n = 0;
    for (size_t r = 0; r < s->nr; r++) {
        size_t idx = (d * s->na + a) * s->nr + r;
        if (s->done[idx])
            out[n++] = *(const double *)((const char *)&s->res[idx] + off);
    }
    return n;
}

typedef struct {
    const char *name;
    size_t off;
    double scale;
} field;

static const field fields[] = {
    {"test_error", offsetof(bl_run_result, test_err), 100},
    {"train_error", offsetof(bl_run_result, train_err), 100},
    {"time_weak", offsetof(bl_run_result, t_weak), 1},
    {"time_coef", offsetof(bl_run_result, t_coef), 1},
    {"time_total", offsetof(bl_run_result, t_total), 1},
};
#define NFIELDS (sizeof fields / sizeof *fields)

static double mean_iters(const bl_summary *s, size_t d, size_t a, size_t *n)
{
    double sum = 0;
    *n = 0;
    for (size_t r = 0; r < s->nr; r++) {
        size_t idx = (d * s->na + a) * s->nr + r;
        if (s->done[idx]) {
            sum += (double)s->res[idx].iterations;
            (*n)++;
        }
    }
    return *n ? sum / (double)*n : 0;
}

static int write_summary_csv(const bl_summary *s, bl_error *err)
{
    char *path = bl_path_join(s->dir, "summary.csv");
    bl_atomic a;
    int rc = bl_atomic_open(&a, path, err);
    free(path);
    if (rc < 0)
        return -1;
    double *buf = bl_xmalloc((s->nr + 1) * sizeof *buf);
    fprintf(a.f, "data,algorithm,repeats");
    for (size_t f = 0; f < NFIELDS; f++)
        fprintf(a.f, ",%s_mean,%s_std", fields[f].name, fields[f].name);
    fprintf(a.f, ",iterations_mean\n");
    for (size_t d = 0; d < s->nd; d++)
        for (size_t al = 0; al < s->na; al++) {
            size_t n;
            double it = mean_iters(s, d, al, &n);
            if (!n)
                continue;
            fprintf(a.f, "%s,%s,%zu", s->ex->data[d].name, s->ex->algo[al].name, n);
            for (size_t f = 0; f < NFIELDS; f++) {
                cell(s, d, al, fields[f].off, buf);
                fprintf(a.f, ",%.6g,%.6g", fields[f].scale * bl_mean(buf, n),
                        fields[f].scale * bl_std(buf, n));
            }
            fprintf(a.f, ",%.1f\n", it);
        }
    free(buf);
    return bl_atomic_commit(&a, err);
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.10g", x);
    else
        fputs("null", f);
}

static int write_summary_json(const bl_summary *s, bl_error *err)
{
    char *path = bl_path_join(s->dir, "summary.json");
    bl_atomic a;
    int rc = bl_atomic_open(&a, path, err);
    free(path);
    if (rc < 0)
        return -1;
    FILE *f = a.f;
    fprintf(f, "{\n  \"experiment\": ");
    json_str(f, s->ex->name);
    fprintf(f, ",\n  \"seed\": %llu,\n  \"repeats\": %zu,\n  \"cells\": [",
            (unsigned long long)s->ex->seed, s->nr);
    int first = 1;
    for (size_t d = 0; d < s->nd; d++)
        for (size_t al = 0; al < s->na; al++) {
            size_t n = 0;
            for (size_t r = 0; r < s->nr; r++)
                n += s->done[(d * s->na + al) * s->nr + r];
            if (!n)
                continue;
            fprintf(f, "%s\n    {\"data\": ", first ? "" : ",");
            first = 0;
            json_str(f, s->ex->data[d].name);
            fprintf(f, ", \"algorithm\": ");
            json_str(f, s->ex->algo[al].name);
            fprintf(f, ", \"algorithm_hash\": \"%016llx\", \"runs\": [",
                    (unsigned long long)bl_algo_hash(&s->ex->algo[al]));
            int fr = 1;
            for (size_t r = 0; r < s->nr; r++) {
                size_t idx = (d * s->na + al) * s->nr + r;
                if (!s->done[idx])
                    continue;
                const bl_run_result *x = &s->res[idx];
                fprintf(f, "%s{\"repeat\": %zu, \"test_error\": ", fr ? "" : ", ", r);
                fr = 0;
                json_num(f, x->test_err);
                fprintf(f, ", \"train_error\": ");
                json_num(f, x->train_err);
                fprintf(f, ", \"train_loss\": ");
                json_num(f, x->train_loss);
                fprintf(f, ", \"iterations\": %zu, \"stopped_early\": %s, \"time_weak\": ",
                        x->iterations, x->stopped_early ? "true" : "false");
                json_num(f, x->t_weak);
                fprintf(f, ", \"time_coef\": ");
                json_num(f, x->t_coef);
                fprintf(f, ", \"time_book\": ");
                json_num(f, x->t_book);
                fprintf(f, "}");
            }
            fprintf(f, "]}");
        }
    fprintf(f, "\n  ]\n}\n");
    return bl_atomic_commit(&a, err);
}

void bl_summary_set(bl_summary *s, size_t d, size_t a, size_t r, const bl_run_result *res)
{
    size_t idx = (d * s->na + a) * s->nr + r;
    s->res[idx] = *res;
    s->done[idx] = 1;
}

int bl_summary_write(const bl_summary *s, bl_error *err)
{
    if (write_summary_csv(s, err) < 0)
        return -1;
    return write_summary_json(s, err);
}

void bl_summary_print(const bl_summary *s, FILE *f)
{
    size_t any = 0;
    for (size_t j = 0; j < s->nd * s->na * s->nr; j++)
        any += s->done[j];
    if (!any)
        return;
    double *buf = bl_xmalloc((s->nr + 1) * sizeof *buf);
    size_t wd = 8, wa = 9;
    for (size_t d = 0; d < s->nd; d++)
        if (strlen(s->ex->data[d].name) > wd)
            wd = strlen(s->ex->data[d].name);
    for (size_t a = 0; a < s->na; a++)
        if (strlen(s->ex->algo[a].name) > wa)
            wa = strlen(s->ex->algo[a].name);
    fprintf(f, "%-*s  %-*s  %4s  %-15s  %-15s  %6s  %9s  %9s  %9s\n", (int)wd, "data",
            (int)wa, "algorithm", "runs", "test error %", "train error %", "iters", "weak s",
            "coef s", "ms/iter");
    for (size_t d = 0; d < s->nd; d++)
        for (size_t a = 0; a < s->na; a++) {
            size_t n;
            double it = mean_iters(s, d, a, &n);
            if (!n)
                continue;
            char te[32], tr[32];
            cell(s, d, a, fields[0].off, buf);
            snprintf(te, sizeof te, "%.2f (%.2f)", 100 * bl_mean(buf, n), 100 * bl_std(buf, n));
            cell(s, d, a, fields[1].off, buf);
            snprintf(tr, sizeof tr, "%.2f (%.2f)", 100 * bl_mean(buf, n), 100 * bl_std(buf, n));
            cell(s, d, a, fields[2].off, buf);
            double tw = bl_mean(buf, n);
            cell(s, d, a, fields[3].off, buf);
            double tc = bl_mean(buf, n);
            cell(s, d, a, fields[4].off, buf);
            double tt = bl_mean(buf, n);
            fprintf(f, "%-*s  %-*s  %4zu  %-15s  %-15s  %6.0f  %9.3f  %9.3f  %9.3f\n", (int)wd,
                    s->ex->data[d].name, (int)wa, s->ex->algo[a].name, n, te, tr, it, tw, tc,
                    it > 0 ? 1000 * tt / it : 0.0);
        }
    free(buf);
}

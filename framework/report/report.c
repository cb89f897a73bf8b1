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

/* "m (s)" in %, "-" when m is not finite */
static void pct_ms(char *buf, size_t n, double m, double sd)
{
    if (!isfinite(m))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.2f (%.2f)", 100 * m, isfinite(sd) ? 100 * sd : 0.0);
}

static void secs(char *buf, size_t n, double v)
{
    if (isfinite(v))
        snprintf(buf, n, "%.3f", v);
    else
        snprintf(buf, n, "-");
}

void bl_summary_lines_print(const bl_summary_line *l, size_t n, int exp_col, FILE *f)
{
    if (!n)
        return;
    size_t we = 10, wd = 8, wa = 9;
    for (size_t j = 0; j < n; j++) {
        if (exp_col && l[j].experiment && strlen(l[j].experiment) > we)
            we = strlen(l[j].experiment);
        if (strlen(l[j].data) > wd)
            wd = strlen(l[j].data);
        if (strlen(l[j].algo) > wa)
            wa = strlen(l[j].algo);
    }
    if (exp_col)
        fprintf(f, "%-*s  ", (int)we, "experiment");
    fprintf(f, "%-*s  %-*s  %4s  %-15s  %-15s  %6s  %9s  %9s  %9s\n", (int)wd, "data",
            (int)wa, "algorithm", "runs", "test error %", "train error %", "iters", "weak s",
            "coef s", "ms/iter");
    for (size_t j = 0; j < n; j++) {
        const bl_summary_line *x = &l[j];
        char te[48], tr[48], tw[32], tc[32], ms[32];
        pct_ms(te, sizeof te, x->te_mean, x->te_std);
        pct_ms(tr, sizeof tr, x->tr_mean, x->tr_std);
        secs(tw, sizeof tw, x->t_weak);
        secs(tc, sizeof tc, x->t_coef);
        secs(ms, sizeof ms, isfinite(x->t_total) && x->iters > 0 ? 1000 * x->t_total / x->iters
                            : isfinite(x->t_total) ? 0.0 : NAN);
        if (exp_col)
            fprintf(f, "%-*s  ", (int)we, x->experiment ? x->experiment : "");
        fprintf(f, "%-*s  %-*s  %4zu  %-15s  %-15s  %6.0f  %9s  %9s  %9s\n", (int)wd, x->data,
                (int)wa, x->algo, x->runs, te, tr, x->iters, tw, tc, ms);
    }
}

void bl_summary_print(const bl_summary *s, FILE *f)
{
    double *buf = bl_xmalloc((s->nr + 1) * sizeof *buf);
    bl_summary_line *l = bl_xmalloc((s->nd * s->na + 1) * sizeof *l);
    size_t nl = 0;
    for (size_t d = 0; d < s->nd; d++)
        for (size_t a = 0; a < s->na; a++) {
            size_t n;
            double it = mean_iters(s, d, a, &n);
            if (!n)
                continue;
            double v[NFIELDS][2];
            for (size_t k = 0; k < NFIELDS; k++) {
                cell(s, d, a, fields[k].off, buf);
                v[k][0] = bl_mean(buf, n);
                v[k][1] = bl_std(buf, n);
            }
            l[nl++] = (bl_summary_line){s->ex->name, s->ex->data[d].name, s->ex->algo[a].name, n,
                                        v[0][0], v[0][1], v[1][0], v[1][1], it, v[2][0], v[3][0],
                                        v[4][0]};
        }
    bl_summary_lines_print(l, nl, 0, f);
    free(l);
    free(buf);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Export of the results store (see store.h) as CSV (RFC 4180 quoting, a
 * header row) or JSON (an array of objects), one record per run or, with
 * curves, the per-iteration curve too.  Hashes and seeds are written as 16
 * hex digits (JSON numbers cannot hold a uint64); NaN and infinities are
 * an empty CSV field and JSON null.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"

/* ---- CSV ---------------------------------------------------------------- */

static void csv_str(FILE *out, const char *s)
{
    if (!s)
        return;
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, out);
        return;
    }
    putc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            putc('"', out);
        putc(*s, out);
    }
    putc('"', out);
}

static void csv_num(FILE *out, const char *fmt, double v)
{
    if (isfinite(v))
        fprintf(out, fmt, v);
}

static const char csv_key_header[] = "experiment,data,data_hash,algo,algo_hash,split_seed,rep";

static void csv_key(FILE *out, const bl_store_row *r)
{
    csv_str(out, r->experiment);
    putc(',', out);
    csv_str(out, r->data);
    fprintf(out, ",%016" PRIx64 ",", r->data_hash);
    csv_str(out, r->algo);
    fprintf(out, ",%016" PRIx64 ",%016" PRIx64 ",%d", r->algo_hash, r->split_seed, r->rep);
}

/* The run's final figures and what else was stored with it; params (a
 * multi-line INI text) comes last so that the rest stays easy to read. */
static void csv_run(FILE *out, const bl_store_row *r)
{
    const bl_run_result *x = &r->res;
    csv_key(out, r);
    putc(',', out);
    csv_str(out, r->recipe);
    putc(',', out);
    csv_str(out, r->sweep);
    putc(',', out);
    csv_str(out, r->host);
    fprintf(out, ",%d,%zu,%zu,%zu,%zu,", r->threads, r->m_train, r->m_test, r->k, r->d);
    csv_num(out, "%.3f", r->started);
    putc(',', out);
    csv_num(out, "%.3f", r->finished);
    fprintf(out, ",%zu,%d,%zu", x->iterations, x->stopped_early, x->trees);
    const double fig[] = {x->test_err, x->train_err, x->train_loss, x->t_weak,
                          x->t_coef,   x->t_book,    x->t_total};
    for (size_t j = 0; j < sizeof fig / sizeof *fig; j++) {
        putc(',', out);
        csv_num(out, "%.10g", fig[j]);
    }
    putc(',', out);
    csv_str(out, r->params);
    putc('\n', out);
}

static void csv_curve(FILE *out, const bl_store_row *r, const bl_curve *c)
{
    for (size_t j = 0; j < c->n; j++) {
        csv_key(out, r);
        fprintf(out, ",%zu", j + 1);
        const double v[] = {c->train_loss[j], c->train_err[j], c->test_err[j], c->edge[j]};
        for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
            putc(',', out);
            csv_num(out, "%.10g", v[i]);
        }
        fprintf(out, ",%d", c->solver_iters[j]);
        const double t[] = {c->t_weak[j], c->t_coef[j], c->t_book[j]};
        for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
            putc(',', out);
            csv_num(out, "%.10g", t[i]);
        }
        fprintf(out, ",%zu\n", c->trees ? c->trees[j] : j + 1);
    }
}

static int write_failed(FILE *out, bl_error *err)
{
    if (ferror(out) || fflush(out) != 0)
        return bl_errf(err, "writing the export failed: %s", strerror(errno));
    return 0;
}

int bl_store_export_csv(bl_store *s, const bl_store_filter *f, int curves, FILE *out,
                        bl_error *err)
{
    bl_store_row *rows;
    size_t n;
    if (bl_store_select(s, f, &rows, &n, err) < 0)
        return -1;
    if (curves)
        fprintf(out, "%s,iteration,train_loss,train_err,test_err,edge,solver_iters,t_weak,"
                     "t_coef,t_book,trees\n", csv_key_header);
    else
        fprintf(out, "%s,recipe,sweep,host,threads,m_train,m_test,k,d,started,finished,"
                     "iterations,stopped_early,trees,test_err,train_err,train_loss,t_weak,t_coef,"
                     "t_book,t_total,params\n", csv_key_header);
    int rc = 0;
    for (size_t j = 0; j < n && rc == 0; j++) {
        if (!curves) {
            csv_run(out, &rows[j]);
            continue;
        }
        bl_curve c;
        rc = bl_store_curve(s, rows[j].id, &c, err);
        if (rc == 0)
            csv_curve(out, &rows[j], &c);
        bl_curve_free(&c);
    }
    bl_store_rows_free(rows, n);
    return rc < 0 ? -1 : write_failed(out, err);
}

/* ---- JSON --------------------------------------------------------------- */

static void json_str(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    putc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                putc(*p, out);
        }
    }
    putc('"', out);
}

static void json_num(FILE *out, const char *fmt, double v)
{
    if (isfinite(v))
        fprintf(out, fmt, v);
    else
        fputs("null", out);
}

static void json_field(FILE *out, const char *name, const char *s)
{
    fprintf(out, ", \"%s\": ", name);
    json_str(out, s);
}

static void json_dbl_field(FILE *out, const char *name, const char *fmt, double v)
{
    fprintf(out, ", \"%s\": ", name);
    json_num(out, fmt, v);
}

static void json_dbl_array(FILE *out, const char *name, const double *v, size_t n, int first)
{
    fprintf(out, "%s\"%s\": [", first ? "" : ", ", name);
    for (size_t j = 0; j < n; j++) {
        if (j)
            putc(',', out);
        json_num(out, "%.10g", v[j]);
    }
    putc(']', out);
}

static void json_curve(FILE *out, const bl_curve *c)
{
    fputs(", \"curve\": {", out);
    json_dbl_array(out, "train_loss", c->train_loss, c->n, 1);
    json_dbl_array(out, "train_err", c->train_err, c->n, 0);
    json_dbl_array(out, "test_err", c->test_err, c->n, 0);
    json_dbl_array(out, "edge", c->edge, c->n, 0);
    fputs(", \"solver_iters\": [", out);
    for (size_t j = 0; j < c->n; j++)
        fprintf(out, j ? ",%d" : "%d", c->solver_iters[j]);
    putc(']', out);
    json_dbl_array(out, "t_weak", c->t_weak, c->n, 0);
    json_dbl_array(out, "t_coef", c->t_coef, c->n, 0);
    json_dbl_array(out, "t_book", c->t_book, c->n, 0);
    fputs(", \"trees\": [", out);
    for (size_t j = 0; j < c->n; j++)
        fprintf(out, j ? ",%zu" : "%zu", c->trees ? c->trees[j] : j + 1);
    fputs("]}", out);
}

static void json_run(FILE *out, const bl_store_row *r)
{
    const bl_run_result *x = &r->res;
    fputs("{\"experiment\": ", out);
    json_str(out, r->experiment);
    json_field(out, "data", r->data);
    fprintf(out, ", \"data_hash\": \"%016" PRIx64 "\"", r->data_hash);
    json_field(out, "algo", r->algo);
    fprintf(out, ", \"algo_hash\": \"%016" PRIx64 "\", \"split_seed\": \"%016" PRIx64
                 "\", \"rep\": %d", r->algo_hash, r->split_seed, r->rep);
    json_field(out, "recipe", r->recipe);
    json_field(out, "sweep", r->sweep);
    json_field(out, "host", r->host);
    fprintf(out, ", \"threads\": %d, \"m_train\": %zu, \"m_test\": %zu, \"k\": %zu, \"d\": %zu",
            r->threads, r->m_train, r->m_test, r->k, r->d);
    json_dbl_field(out, "started", "%.3f", r->started);
    json_dbl_field(out, "finished", "%.3f", r->finished);
    fprintf(out, ", \"iterations\": %zu, \"stopped_early\": %s, \"trees\": %zu", x->iterations,
            x->stopped_early ? "true" : "false", x->trees);
    json_dbl_field(out, "test_err", "%.10g", x->test_err);
    json_dbl_field(out, "train_err", "%.10g", x->train_err);
    json_dbl_field(out, "train_loss", "%.10g", x->train_loss);
    json_dbl_field(out, "t_weak", "%.10g", x->t_weak);
    json_dbl_field(out, "t_coef", "%.10g", x->t_coef);
    json_dbl_field(out, "t_book", "%.10g", x->t_book);
    json_dbl_field(out, "t_total", "%.10g", x->t_total);
    if (r->nmetrics) {
        fputs(", \"metrics\": {", out);
        for (size_t j = 0; j < r->nmetrics; j++) {
            if (j)
                fputs(", ", out);
            json_str(out, r->metric[j]);
            fputs(": {\"train\": ", out);
            json_num(out, "%.10g", r->metric_train[j]);
            fputs(", \"test\": ", out);
            json_num(out, "%.10g", r->metric_test[j]);
            putc('}', out);
        }
        putc('}', out);
    }
    json_field(out, "params", r->params);
}

int bl_store_export_json(bl_store *s, const bl_store_filter *f, int curves, FILE *out,
                         bl_error *err)
{
    bl_store_row *rows;
    size_t n;
    if (bl_store_select(s, f, &rows, &n, err) < 0)
        return -1;
    fputs("[", out);
    int rc = 0;
    for (size_t j = 0; j < n && rc == 0; j++) {
        fputs(j ? ",\n  " : "\n  ", out);
        json_run(out, &rows[j]);
        if (curves) {
            bl_curve c;
            rc = bl_store_curve(s, rows[j].id, &c, err);
            if (rc == 0)
                json_curve(out, &c);
            bl_curve_free(&c);
        }
        putc('}', out);
    }
    fputs(n ? "\n]\n" : "]\n", out);
    bl_store_rows_free(rows, n);
    return rc < 0 ? -1 : write_failed(out, err);
}

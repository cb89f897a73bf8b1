/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `boostlab predict`: apply a saved model to a data file; the model is
 * loaded and applied through the library API (boostlab/api.h), the file
 * read here against the model's classes and features. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <boostlab/api.h>

#include "util/clock.h"
#include "util/fsutil.h"
#include "cli.h"

static const char *const predict_help =
    "Usage: boostlab predict --model FILE --data FILE [OPTIONS]\n"
    "\n"
    "Predict the class of every row of the data file: one class name per line\n"
    "on stdout (or --output), and on stderr the error rate against the file's\n"
    "labels and the time spent scoring (model evaluation and argmax, without\n"
    "reading files), in all and per example.\n"
    "\n"
    "Unlabeled data is predicted too (no error rate then): a CSV file whose\n"
    "header has no 'label' column and names only the model's features (matched\n"
    "by name, in any order), a LIBSVM file whose rows start with INDEX:VALUE,\n"
    "or any CSV or LIBSVM file read with --unlabeled.\n"
    "\n"
    "Options:\n"
    "  -m, --model FILE    model written by 'boostlab train'\n"
    "  -d, --data FILE     data (.csv, .libsvm/.svm, IDX; optionally .gz)\n"
    "  -f, --format FMT    csv|libsvm|idx (default: idx with --labels, else\n"
    "                      from the file name)\n"
    "  -l, --label COL     CSV label column, by name or 0-based index\n"
    "  -L, --labels FILE   IDX data: the IDX file of its labels\n"
    "  -u, --unlabeled     the file holds no labels: every CSV column is a\n"
    "                      feature (matched to the model's by name), every\n"
    "                      LIBSVM row is INDEX:VALUE pairs only\n"
    "  -s, --scores        also write each class's score F_r(x) (the model's raw\n"
    "                      output; the prediction is its argmax)\n"
    "  -p, --proba         also write each class's softmax of the scores,\n"
    "                      exp(F_r) / sum_s exp(F_s): a normalisation, not a\n"
    "                      calibrated probability\n"
    "  -o, --output FILE   write predictions here instead of stdout\n"
    "  -q, --quiet         do not print the error rate\n"
    "  -h, --help          this text\n"
    "\n"
    "With --scores or --proba the output is CSV: a header 'prediction' then\n"
    "'score:CLASS' and/or 'proba:CLASS' per class, and one row per example.\n";

/* The model's class and feature names, as the readers take them. */
struct names {
    size_t k, d;
    char **class_names, **feature_names;
};

static void names_of(const boostlab_model *bm, struct names *n)
{
    n->k = boostlab_model_classes(bm);
    n->d = boostlab_model_features(bm);
    n->class_names = bl_xcalloc(n->k ? n->k : 1, sizeof *n->class_names);
    n->feature_names = bl_xcalloc(n->d ? n->d : 1, sizeof *n->feature_names);
    for (size_t r = 0; r < n->k; r++)
        n->class_names[r] = (char *)boostlab_model_class_name(bm, r);
    for (size_t f = 0; f < n->d; f++)
        n->feature_names[f] = (char *)boostlab_model_feature_name(bm, f);
}

/* Put the columns of an unlabeled CSV file in the model's feature order,
 * matched by name; 0, or -1 with err naming the column. */
static int match_features(bl_dataset *ds, const struct names *mo, const char *data,
                          const char *model, bl_error *err)
{
    size_t m = ds->m, d = mo->d;
    size_t *col = bl_xmalloc((d ? d : 1) * sizeof *col);
    for (size_t j = 0; j < ds->d; j++) {
        size_t f = 0;
        while (f < d && strcmp(ds->feature_names[j], mo->feature_names[f]) != 0)
            f++;
        if (f == d) {
            free(col);
            return bl_errf(err, "%s: column %zu (%s): not a feature of the model %s (its "
                           "features are %s%s%s%s)", data, j + 1, ds->feature_names[j], model,
                           mo->feature_names[0], d > 1 ? ", " : "",
                           d > 1 ? mo->feature_names[1] : "", d > 2 ? ", ..." : "");
        }
    }
    for (size_t f = 0; f < d; f++) {
        size_t j = 0;
        while (j < ds->d && strcmp(ds->feature_names[j], mo->feature_names[f]) != 0)
            j++;
        if (j == ds->d) {
            free(col);
            return bl_errf(err, "%s: no column '%s', a feature of the model %s (an unlabeled "
                           "file needs a column for each of the model's %zu features)", data,
                           mo->feature_names[f], model, d);
        }
        col[f] = j;
    }
    float *x = bl_xmalloc((m * d > 0 ? m * d : 1) * sizeof *x);
    for (size_t f = 0; f < d; f++)
        memcpy(x + f * m, ds->x + col[f] * m, m * sizeof *x);
    free(ds->x);
    ds->x = x;
    free(col);
    return 0;
}

/* The API problem of ds's rows: borrowed columns when dense, a CSR copy
 * (memory ~ its entries) when sparse.  NULL for no rows. */
static boostlab_problem *problem_of(const bl_dataset *ds)
{
    if (!ds->sp)
        return boostlab_problem_colmajor(ds->m, ds->d, ds->x, NULL, NULL, NULL);
    const bl_spmat *s = ds->sp;
    int64_t *ptr = bl_xmalloc((ds->m + 1) * sizeof *ptr);
    int32_t *idx = bl_xmalloc((s->nnz ? s->nnz : 1) * sizeof *idx);
    double *val = bl_xmalloc((s->nnz ? s->nnz : 1) * sizeof *val);
    for (size_t i = 0; i <= ds->m; i++)
        ptr[i] = (int64_t)s->rptr[i];
    for (size_t e = 0; e < s->nnz; e++) {
        idx[e] = (int32_t)s->rcol[e];
        val[e] = s->rval[e];
    }
    boostlab_problem *p = boostlab_problem_csr(ds->m, ds->d, ptr, idx, val, NULL, NULL, NULL);
    free(ptr);
    free(idx);
    free(val);
    return p;
}

/* One output row: the class, then the scores and/or their softmax. */
static void write_row(FILE *out, const struct names *mo, const double *F, int lab, int scores,
                      int proba)
{
    fputs(mo->class_names[lab], out);
    if (scores)
        for (size_t r = 0; r < mo->k; r++)
            fprintf(out, ",%.9g", F[r]);
    if (proba) {
        /* shifted by the largest score, so exp cannot overflow */
        double top = F[lab], sum = 0.0;
        for (size_t r = 0; r < mo->k; r++)
            sum += exp(F[r] - top);
        for (size_t r = 0; r < mo->k; r++)
            fprintf(out, ",%.9g", exp(F[r] - top) / sum);
    }
    fputc('\n', out);
}

int cmd_predict(int argc, char **argv)
{
    static const struct option opts[] = {
        {"model", required_argument, 0, 'm'}, {"data", required_argument, 0, 'd'},
        {"format", required_argument, 0, 'f'}, {"label", required_argument, 0, 'l'},
        {"labels", required_argument, 0, 'L'},  {"unlabeled", no_argument, 0, 'u'},
        {"scores", no_argument, 0, 's'},      {"proba", no_argument, 0, 'p'},
        {"output", required_argument, 0, 'o'}, {"quiet", no_argument, 0, 'q'},
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    const char *model = NULL, *data = NULL, *format = NULL, *label = NULL, *labels = NULL,
               *output = NULL;
    int quiet = 0, unlabeled = 0, scores = 0, proba = 0, o;
    optind = 1;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":m:d:f:l:L:uspo:qh", opts, NULL)) != -1) {
        switch (o) {
        case 'm': model = optarg; break;
        case 'd': data = optarg; break;
        case 'f': format = optarg; break;
        case 'l': label = optarg; break;
        case 'L': labels = optarg; break;
        case 'o': output = optarg; break;
        case 'u': unlabeled = 1; break;
        case 's': scores = 1; break;
        case 'p': proba = 1; break;
        case 'q': quiet = 1; break;
        case 'h': fputs(predict_help, stdout); return BL_EXIT_OK;
        case ':': return cli_usage("predict", "an option is missing its value");
        default: return cli_usage("predict", "unknown option");
        }
    }
    if (!model || !data || optind != argc)
        return cli_usage("predict", "needs --model and --data (and nothing else)");
    bl_data_spec ds;
    const char *bad_spec = cli_file_spec(data, format, label, labels, &ds);
    if (bad_spec)
        return cli_usage("predict", bad_spec);
    if (unlabeled && ds.format == BL_FMT_IDX)
        return cli_usage("predict", "--unlabeled applies to CSV and LIBSVM data (IDX data "
                         "needs its --labels file)");
    if (unlabeled && label)
        return cli_usage("predict", "--unlabeled and --label exclude each other");
    bl_error err;
    size_t ignored = 0;
    struct names mo = {0, 0, NULL, NULL};
    bl_dataset all;
    memset(&all, 0, sizeof all);
    boostlab_model *bm = boostlab_load_model(model, err.msg);
    int rc = bm ? 0 : -1;
    bl_classes cls = {0, NULL, BL_CLASSES_BUILT};
    if (rc == 0) {
        /* map the file's labels through the model's classes, by name:
         * `boostlab train` always builds its table from the labels */
        names_of(bm, &mo);
        cls.k = mo.k;
        cls.names = mo.class_names;
        bl_csv_opts co = {label, 0, unlabeled, mo.feature_names, mo.d};
        /* features the model never saw are absent from it: ignored */
        bl_libsvm_opts lo = {mo.d, unlabeled ? BL_LIBSVM_UNLABELED : BL_LIBSVM_AUTO,
                             BL_STORAGE_AUTO, 1, &ignored};
        rc = ds.format == BL_FMT_CSV ? bl_read_csv(data, &co, &cls, &all, &err)
             : ds.format == BL_FMT_IDX ? bl_read_idx(data, labels, &cls, &all, &err)
                                       : bl_read_libsvm_opts(data, &lo, &cls, &all, &err);
    }
    if (rc == 0 && ignored && !quiet)
        fprintf(stderr, "boostlab: %s: %zu entries of features beyond the model's %zu "
                "ignored\n", data, ignored, mo.d);
    /* the readers give k = 0 for a file without labels */
    int has_labels = rc == 0 && all.k > 0;
    if (rc == 0 && !has_labels && ds.format == BL_FMT_CSV)
        rc = match_features(&all, &mo, data, model, &err);
    if (rc == 0 && all.d != mo.d)
        rc = bl_errf(&err, "%s has %zu features but the model %s was trained on %zu", data,
                     all.d, model, mo.d);
    FILE *out = stdout;
    bl_atomic a = {0};
    if (rc == 0 && output && (rc = bl_atomic_open(&a, output, &err)) == 0)
        out = a.f;
    if (rc == 0) {
        double *F = bl_xmalloc(all.m * mo.k * sizeof *F);
        int *lab = bl_xmalloc(all.m * sizeof *lab);
        boostlab_problem *X = problem_of(&all);
        double t0 = bl_seconds();
        /* X is NULL only for no rows, which have no predictions */
        if (X)
            boostlab_predict_values(bm, X, F, lab, NULL);
        double secs = bl_seconds() - t0;
        size_t wrong = 0;
        if (scores || proba) {
            fputs("prediction", out);
            for (int pass = 0; pass < 2; pass++)
                for (size_t r = 0; r < mo.k && (pass ? proba : scores); r++)
                    fprintf(out, ",%s:%s", pass ? "proba" : "score", mo.class_names[r]);
            fputc('\n', out);
        }
        for (size_t i = 0; i < all.m; i++) {
            write_row(out, &mo, F + i * mo.k, lab[i], scores, proba);
            wrong += has_labels && lab[i] != all.y[i];
        }
        if (output)
            rc = bl_atomic_commit(&a, &err);
        if (rc == 0 && !quiet && has_labels)
            fprintf(stderr, "boostlab: %zu examples, error %.2f%% (%zu wrong); scoring %.6f s "
                    "(%.6f ms per example, %zu terms)\n", all.m,
                    all.m ? 100.0 * (double)wrong / (double)all.m : 0.0, wrong, secs,
                    all.m ? 1e3 * secs / (double)all.m : 0.0, boostlab_model_terms(bm));
        else if (rc == 0 && !quiet)
            fprintf(stderr, "boostlab: %zu examples, unlabeled (no error rate); scoring %.6f s "
                    "(%.6f ms per example, %zu terms)\n", all.m, secs,
                    all.m ? 1e3 * secs / (double)all.m : 0.0, boostlab_model_terms(bm));
        boostlab_problem_free(X);
        free(F);
        free(lab);
    }
    if (rc < 0)
        cli_fail(err.msg);
    bl_dataset_free(&all);
    free(mo.class_names);
    free(mo.feature_names);
    boostlab_model_free(bm);
    return rc < 0 ? BL_EXIT_FAIL : BL_EXIT_OK;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `boostlab predict`: apply a saved model to a data file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/model.h"
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
    "Options:\n"
    "  -m, --model FILE    model written by 'boostlab train'\n"
    "  -d, --data FILE     data (.csv, .libsvm/.svm, IDX; optionally .gz)\n"
    "  -f, --format FMT    csv|libsvm|idx (default: idx with --labels, else\n"
    "                      from the file name)\n"
    "  -l, --label COL     CSV label column, by name or 0-based index\n"
    "  -L, --labels FILE   IDX data: the IDX file of its labels\n"
    "  -o, --output FILE   write predictions here instead of stdout\n"
    "  -q, --quiet         do not print the error rate\n"
    "  -h, --help          this text\n";

int cmd_predict(int argc, char **argv)
{
    static const struct option opts[] = {
        {"model", required_argument, 0, 'm'}, {"data", required_argument, 0, 'd'},
        {"format", required_argument, 0, 'f'}, {"label", required_argument, 0, 'l'},
        {"labels", required_argument, 0, 'L'},
        {"output", required_argument, 0, 'o'}, {"quiet", no_argument, 0, 'q'},
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    const char *model = NULL, *data = NULL, *format = NULL, *label = NULL, *labels = NULL,
               *output = NULL;
    int quiet = 0, o;
    optind = 1;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":m:d:f:l:L:o:qh", opts, NULL)) != -1) {
        switch (o) {
        case 'm': model = optarg; break;
        case 'd': data = optarg; break;
        case 'f': format = optarg; break;
        case 'l': label = optarg; break;
        case 'L': labels = optarg; break;
        case 'o': output = optarg; break;
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
    bl_registry reg;
    if (cli_registry(&reg))
        return BL_EXIT_FAIL;
    bl_error err;
    bl_model mo;
    bl_dataset all, none;
    memset(&all, 0, sizeof all);
    memset(&none, 0, sizeof none);
    int rc = bl_model_load(model, &reg, &mo, &err);
    bl_classes cls = {0, NULL, BL_CLASSES_BUILT};
    if (rc == 0) {
        /* map the file's labels through the model's classes, by name:
         * `boostlab train` always builds its table from the labels */
        cls.k = mo.k;
        cls.names = mo.class_names;
        bl_csv_opts co = {label, 0};
        rc = ds.format == BL_FMT_CSV   ? bl_read_csv(data, &co, &cls, &all, &err)
             : ds.format == BL_FMT_IDX ? bl_read_idx(data, labels, &cls, &all, &err)
                                       : bl_read_libsvm(data, mo.d, &cls, &all, &err);
    }
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
        struct bl_matrix X = {all.m, all.d, all.x};
        double t0 = bl_seconds();
        bl_model_scores(&mo, &X, F);
        bl_argmax_rows(F, all.m, mo.k, lab);
        double secs = bl_seconds() - t0;
        size_t wrong = 0;
        for (size_t i = 0; i < all.m; i++) {
            fprintf(out, "%s\n", mo.class_names[lab[i]]);
            wrong += lab[i] != all.y[i];
        }
        if (output)
            rc = bl_atomic_commit(&a, &err);
        if (rc == 0 && !quiet)
            fprintf(stderr, "boostlab: %zu examples, error %.2f%% (%zu wrong); scoring %.6f s "
                    "(%.6f ms per example, %zu terms)\n", all.m,
                    all.m ? 100.0 * (double)wrong / (double)all.m : 0.0, wrong, secs,
                    all.m ? 1e3 * secs / (double)all.m : 0.0, mo.t);
        free(F);
        free(lab);
    }
    if (rc < 0)
        cli_fail(err.msg);
    bl_dataset_free(&all);
    if (mo.weak)
        bl_model_free(&mo);
    bl_registry_free(&reg);
    return rc < 0 ? BL_EXIT_FAIL : BL_EXIT_OK;
}

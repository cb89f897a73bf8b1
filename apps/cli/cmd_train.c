/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `boostlab train`: one model on one data file, saved to a model file,
 * through the library API (boostlab/api.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <boostlab/api.h>

#include "util/fsutil.h"
#include "cli.h"

static const char *const train_help =
    "Usage: boostlab train --data FILE --recipe NAME --model OUT [OPTIONS]\n"
    "\n"
    "Train on every row of FILE and save the model.\n"
    "\n"
    "Options:\n"
    "  -d, --data FILE       training data (.csv, .libsvm/.svm, IDX; optionally .gz)\n"
    "  -f, --format FMT      csv|libsvm|idx (default: idx with --labels, else\n"
    "                        from the file name)\n"
    "  -l, --label COL       CSV label column, by name or 0-based index\n"
    "  -L, --labels FILE     IDX data: the IDX file of its labels\n"
    "  -r, --recipe NAME     algorithm recipe from configs/ (e.g. mcboost-exp), or\n"
    "                        a recipe file (a path with a '/' or ending in .ini)\n"
    "  -s, --set KEY=VALUE   override a recipe key (e.g. solver.max_iter=50,\n"
    "                        shrinkage=1); repeatable\n"
    "  -i, --iterations N    boosting iterations (default 100)\n"
    "  -b, --max-bins N      bins per feature of the quantized view (default 256)\n"
    "  -m, --model OUT       where to write the model\n"
    "  -t, --threads N       threads (default: OMP_NUM_THREADS, else all cores;\n"
    "                        -j N, its old spelling, still works but is\n"
    "                        deprecated: -j means parallel jobs in 'boostlab run')\n"
    "  -q, --quiet           no progress\n"
    "  -h, --help            this text\n"
    "\n"
    "Labels become class indices 0..k-1 the same way in every format: labels that\n"
    "are exactly the integers 0..k-1 are the indices; any other labels (LIBSVM's\n"
    "1..k or -1/+1, gaps, words) are sorted, numerically when all are numbers,\n"
    "and numbered from 0 in that order, so -1 is class 0 and +1 class 1.  The\n"
    "model keeps the labels as class names and predict writes them back.  An\n"
    "empty CSV field is a missing value; see docs/reference/ini.md, 'Data files'.\n";

static long int_arg(const char *s, long lo, long hi, int *bad)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi)
        *bad = 1;
    return v;
}

int cmd_train(int argc, char **argv)
{
    static const struct option opts[] = {
        {"data", required_argument, 0, 'd'},   {"format", required_argument, 0, 'f'},
        {"label", required_argument, 0, 'l'},  {"labels", required_argument, 0, 'L'},
        {"recipe", required_argument, 0, 'r'},
        {"set", required_argument, 0, 's'},    {"iterations", required_argument, 0, 'i'},
        {"max-bins", required_argument, 0, 'b'}, {"model", required_argument, 0, 'm'},
        {"threads", required_argument, 0, 't'}, {"quiet", no_argument, 0, 'q'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    const char *data = NULL, *format = NULL, *label = NULL, *labels = NULL, *recipe = NULL,
               *model = NULL;
    char **sets = bl_xcalloc((size_t)argc, sizeof *sets);
    size_t nsets = 0;
    int iters = 100, bins = 256, threads = 0, quiet = 0, o, bad = 0;
    optind = 1;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":d:f:l:L:r:s:i:b:m:t:j:qh", opts, NULL)) != -1) {
        switch (o) {
        case 'd': data = optarg; break;
        case 'f': format = optarg; break;
        case 'l': label = optarg; break;
        case 'L': labels = optarg; break;
        case 'r': recipe = optarg; break;
        case 's': sets[nsets++] = optarg; break;
        case 'i': iters = (int)int_arg(optarg, 1, 100000000, &bad); break;
        case 'b': bins = (int)int_arg(optarg, 2, 256, &bad); break;
        case 'm': model = optarg; break;
        case 'j':
            fputs("boostlab train: warning: -j is deprecated here; use -t/--threads N "
                  "(-j means parallel jobs in 'boostlab run')\n", stderr);
            /* fall through */
        case 't': threads = (int)int_arg(optarg, 1, 1024, &bad); break;
        case 'q': quiet = 1; break;
        case 'h': free(sets); fputs(train_help, stdout); return BL_EXIT_OK;
        case ':': free(sets); return cli_usage("train", "an option is missing its value");
        default: free(sets); return cli_usage("train", "unknown option");
        }
        if (bad) {
            free(sets);
            return cli_usage("train", "--iterations, --max-bins and --threads take whole "
                                      "numbers (1.., 2..256, 1..1024)");
        }
    }
    if (!data || !recipe || !model || optind != argc) {
        free(sets);
        return cli_usage("train", "needs --data, --recipe and --model (and nothing else)");
    }
    bl_data_spec ds;
    const char *bad_spec = cli_file_spec(data, format, label, labels, &ds);
    if (bad_spec) {
        free(sets);
        return cli_usage("train", bad_spec);
    }
    static const char *const fmt_name[] = {NULL, "csv", "libsvm", "idx"};
    char err[BOOSTLAB_ERR_MAX], num[3][24];
    boostlab_problem *prob = NULL;
    boostlab_model *mo = NULL;
    boostlab_parameter *par = boostlab_parameter_new(recipe, err);
    int rc = par ? 0 : -1;
    for (size_t j = 0; j < nsets && rc == 0; j++) {
        char *eq = strchr(sets[j], '=');
        if (!eq) {
            rc = -1;
            snprintf(err, sizeof err, "--set '%s': expected KEY=VALUE", sets[j]);
            break;
        }
        *eq = 0;
        char msg[BOOSTLAB_ERR_MAX];
        if ((rc = boostlab_parameter_set(par, sets[j], eq + 1, msg)) < 0)
            snprintf(err, sizeof err, "--set %.40s: %.960s", sets[j], msg);
    }
    snprintf(num[0], sizeof num[0], "%d", iters);
    snprintf(num[1], sizeof num[1], "%d", bins);
    snprintf(num[2], sizeof num[2], "%d", threads ? threads : cli_env_threads());
    const char *own[] = {"iterations", "max_bins", "threads"};
    for (int j = 0; j < 3 && rc == 0; j++)
        rc = boostlab_parameter_set(par, own[j], num[j], err);
    const char *unfit = rc == 0 ? boostlab_check_parameter(par) : NULL;
    if (unfit) {
        /* a message about the recipe as a whole names it; any other is
         * about the keys the recipe and --set gave */
        rc = -1;
        if (!strncmp(unfit, "recipe ", 7))
            snprintf(err, sizeof err, "%s", unfit);
        else
            snprintf(err, sizeof err, "recipe %s with its --set values: %s", recipe, unfit);
    }
    if (rc == 0 && !(prob = boostlab_problem_read(data, fmt_name[ds.format], label, labels, err)))
        rc = -1;
    if (rc == 0 && !(mo = boostlab_train(prob, par, err)))
        rc = -1;
    if (rc == 0)
        rc = boostlab_save_model(model, mo, err);
    if (rc == 0 && !quiet)
        fprintf(stderr, "boostlab: trained %s on %s (%zu examples, %zu features, %zu classes; "
                "%d thread%s): %zu terms, training error %.2f%%; model in %s\n", recipe, data,
                boostlab_problem_rows(prob), boostlab_problem_features(prob),
                boostlab_problem_classes(prob), bl_host_api.threads,
                bl_host_api.threads > 1 ? "s" : "", boostlab_model_terms(mo),
                boostlab_model_iterations(mo) ? 100 * boostlab_model_training_error(mo) : 0.0,
                model);
    if (rc < 0)
        cli_fail(err);
    boostlab_model_free(mo);
    boostlab_problem_free(prob);
    boostlab_parameter_free(par);
    free(sets);
    return rc < 0 ? BL_EXIT_FAIL : BL_EXIT_OK;
}

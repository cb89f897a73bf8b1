/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `boostlab train`: one model on one data file, saved to a model file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/quantize.h"
#include "engine/engine.h"
#include "util/fsutil.h"
#include "exec/job.h"
#include "exec/method.h"
#include "exec/pool.h"
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
    "  -r, --recipe NAME     algorithm recipe from configs/ (e.g. mcboost-exp)\n"
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
    bl_registry reg;
    if (cli_registry(&reg)) {
        free(sets);
        return BL_EXIT_FAIL;
    }
    bl_set_threads(threads ? threads : cli_env_threads());
    bl_error err;
    bl_algo_spec algo;
    bl_dataset all, none;
    bl_qview q;
    bl_model mo;
    bl_curve cv;
    memset(&q, 0, sizeof q);
    memset(&mo, 0, sizeof mo);
    memset(&cv, 0, sizeof cv);
    memset(&all, 0, sizeof all);
    memset(&none, 0, sizeof none);
    int rc = bl_recipe_load(recipe, NULL, &reg, &algo, &err);
    for (size_t j = 0; j < nsets && rc == 0; j++) {
        char *eq = strchr(sets[j], '=');
        if (!eq) {
            rc = bl_errf(&err, "--set '%s': expected KEY=VALUE", sets[j]);
            break;
        }
        *eq = 0;
        rc = bl_algo_set(&algo, &reg, sets[j], eq + 1, &err);
        if (rc < 0)
            bl_errprefix(&err, "--set %s", sets[j]);
    }
    const char *key;
    if (rc == 0 && (rc = bl_algo_check_projection(&algo, &key, &err)) < 0)
        bl_errprefix(&err, "recipe %s with its --set values", recipe);
    if (rc == 0 && !bl_method_get(algo.method)->model)
        rc = bl_errf(&err, "recipe %s is method %s, whose models are not saved: run it from an "
                     "experiment file (boostlab run)", recipe, bl_method_get(algo.method)->name);
    if (rc == 0) {
        algo.name = bl_strdup(recipe);
        rc = bl_load_data(&ds, &all, &none, &err);
    }
    if (rc == 0)
        rc = bl_quantize(&all, bins, &q, &err);
    if (rc == 0) {
        struct bl_train tv;
        bl_train_view(&all, &q, &tv);
        bl_model_init(&mo, algo.weak.plugin, all.k, all.d, all.class_names, all.feature_names);
        char *txt = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&txt, &len);
        fprintf(f, "recipe = %s\niterations = %d\nmax_bins = %d\n", recipe, iters, bins);
        bl_algo_write(&algo, f);
        fclose(f);
        mo.algorithm = txt;
        bl_boost_cfg cfg = bl_algo_boost_cfg(&algo, iters, 1);
        cfg.max_bins = bins;
        rc = bl_boost(&cfg, &tv, NULL, NULL, &mo, &cv, &err);
    }
    if (rc == 0)
        rc = bl_model_save(&mo, model, &err);
    if (rc == 0 && !quiet)
        fprintf(stderr, "boostlab: trained %s on %s (%zu examples, %zu features, %zu classes; "
                "%d thread%s): %zu terms, training error %.2f%%; model in %s\n", recipe, data,
                all.m, all.d, all.k, bl_host_api.threads, bl_host_api.threads > 1 ? "s" : "",
                mo.t, cv.n ? 100 * cv.train_err[cv.n - 1] : 0.0, model);
    if (rc < 0)
        cli_fail(err.msg);
    bl_curve_free(&cv);
    bl_model_free(&mo);
    bl_qview_free(&q);
    bl_dataset_free(&all);
    bl_algo_free(&algo);
    bl_registry_free(&reg);
    free(sets);
    return rc < 0 ? BL_EXIT_FAIL : BL_EXIT_OK;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `boostlab run EXPERIMENT.ini`: every data set x repeat x algorithm. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../data/quantize.h"
#include "../data/split.h"
#include "../engine/engine.h"
#include "../report/progress.h"
#include "../report/report.h"
#include "../util/fsutil.h"
#include "../util/rng.h"
#include "cli.h"

static const char *const run_help =
    "Usage: boostlab run [OPTIONS] EXPERIMENT.ini\n"
    "\n"
    "Run every algorithm of the experiment on every data set and repeat.\n"
    "Progress goes to stderr, the summary table to stdout, and to the output\n"
    "folder: experiment.ini (every parameter as used), runs/DATA/ALGO/rep-R.csv\n"
    "(per-iteration curves), summary.csv and summary.json.\n"
    "\n"
    "Options:\n"
    "  -o, --output DIR    output folder (default: the experiment's 'output',\n"
    "                      else results/NAME)\n"
    "  -j, --threads N     threads for the learners (default: experiment's, else all cores)\n"
    "  -n, --check         validate the experiment and its files, run nothing\n"
    "  -q, --quiet         no progress on stderr\n"
    "  -v, --verbose       more messages from plugins (repeat for debug)\n"
    "  -h, --help          this text\n";

typedef struct {
    bl_experiment ex;
    bl_summary sum;
    bl_progress prog;
    char *outdir;
} run_ctx;

static int write_resolved(const bl_experiment *ex, const char *dir, bl_error *err)
{
    char *path = bl_path_join(dir, "experiment.ini");
    bl_atomic a;
    int rc = bl_atomic_open(&a, path, err);
    free(path);
    if (rc < 0)
        return -1;
    bl_experiment_write(ex, a.f);
    return bl_atomic_commit(&a, err);
}

/* Every class must have training examples: a class the learners never see
 * cannot be predicted, and its test examples would silently count as
 * errors.  Names the class, the data set and how the split was made. */
static int check_classes(const bl_dataset *train, const bl_data_spec *ds, int rep, bl_error *err)
{
    size_t *count = bl_xcalloc(train->k, sizeof *count);
    for (size_t i = 0; i < train->m; i++)
        count[train->y[i]]++;
    size_t missing = train->k;
    for (size_t c = 0; c < train->k && missing == train->k; c++)
        if (!count[c])
            missing = c;
    free(count);
    if (missing == train->k)
        return 0;
    static const char *split_names[] = {"", "given", "first", "ratio", "per-class"};
    return bl_errf(err, "%s: data %s, repeat %d: class '%s' has no example in the training part "
                   "(split = %s): every class needs training examples", ds->where, ds->name, rep,
                   train->class_names[missing], split_names[ds->split.kind]);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One data set: read once, then each repeat's split and quantized view is
 * shared by all algorithms. */
static int run_data(run_ctx *c, size_t di, bl_error *err)
{
    const bl_experiment *ex = &c->ex;
    const bl_data_spec *ds = &ex->data[di];
    bl_dataset all, given_test;
    if (cli_load_data(ds, &all, &given_test, err) < 0)
        return -1;
    int rc = 0;
    for (int rep = 0; rep < ex->repeats && rc == 0; rep++) {
        size_t *tri = NULL, *tei = NULL, ntr = 0, nte = 0;
        uint64_t seed = bl_seed_derive(ex->seed, ds->name, (uint64_t)rep);
        bl_dataset train, test;
        memset(&train, 0, sizeof train);
        memset(&test, 0, sizeof test);
        rc = bl_split(&all, &ds->split, seed, &tri, &ntr, &tei, &nte, err);
        if (rc == 0)
            rc = bl_dataset_subset(&all, tri, ntr, &train, err);
        if (rc == 0 && ds->split.kind != BL_SPLIT_GIVEN)
            rc = bl_dataset_subset(&all, tei, nte, &test, err);
        free(tri);
        free(tei);
        const bl_dataset *te = ds->split.kind == BL_SPLIT_GIVEN ? &given_test : &test;
        bl_qview q;
        memset(&q, 0, sizeof q);
        if (rc == 0 && (rc = check_classes(&train, ds, rep, err)) == 0) {
            rc = bl_quantize(&train, ex->max_bins, &q, err);
            if (rc < 0)
                bl_errprefix(err, "data %s, repeat %d", ds->name, rep);
        }
        struct bl_train tv;
        if (rc == 0)
            bl_train_view(&train, &q, &tv);
        struct bl_matrix Xt = {te->m, te->d, te->x};
        for (size_t ai = 0; ai < ex->nalgo && rc == 0; ai++) {
            const bl_algo_spec *a = &ex->algo[ai];
            int iters = a->iterations ? a->iterations : ex->iterations;
            char label[512];
            snprintf(label, sizeof label, "%s/%s rep %d", ds->name, a->name, rep);
            bl_progress_run_start(&c->prog, label, (size_t)iters);
            bl_model mo;
            bl_model_init(&mo, a->weak.plugin, train.k, train.d, train.class_names,
                          train.feature_names);
            bl_curve cv;
            bl_boost_cfg cfg = {a, iters, bl_seed_derive(seed, a->name, 0), bl_progress_iter,
                                &c->prog};
            double t0 = now();
            rc = bl_boost(&cfg, &tv, te->m ? &Xt : NULL, te->y, &mo, &cv, err);
            if (rc < 0)
                bl_errprefix(err, "%s", label);
            else
                rc = bl_summary_add(&c->sum, di, ai, (size_t)rep, &cv, err);
            bl_progress_run_end(&c->prog, cv.n ? cv.test_err[cv.n - 1] : NAN, cv.n, now() - t0);
            bl_curve_free(&cv);
            bl_model_free(&mo);
        }
        bl_qview_free(&q);
        bl_dataset_free(&train);
        bl_dataset_free(&test);
    }
    bl_dataset_free(&all);
    bl_dataset_free(&given_test);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, 0, 'o'},
                                         {"threads", required_argument, 0, 'j'},
                                         {"check", no_argument, 0, 'n'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"verbose", no_argument, 0, 'v'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *output = NULL;
    int threads = -1, check = 0, quiet = 0, o;
    optind = 1;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":o:j:nqvh", opts, NULL)) != -1) {
        char *end;
        switch (o) {
        case 'o': output = optarg; break;
        case 'j':
            threads = (int)strtol(optarg, &end, 10);
            if (end == optarg || *end || threads < 1 || threads > 1024)
                return cli_usage("run", "--threads expects an integer from 1 to 1024");
            break;
        case 'n': check = 1; break;
        case 'q': quiet = 1; break;
        case 'v': bl_log_level++; break;
        case 'h': fputs(run_help, stdout); return BL_EXIT_OK;
        case ':': return cli_usage("run", "an option is missing its value");
        default: {
            char msg[128];
            snprintf(msg, sizeof msg, "unknown option '%s'", argv[optind - 1]);
            return cli_usage("run", msg);
        }
        }
    }
    if (optind != argc - 1)
        return cli_usage("run", "expected exactly one EXPERIMENT.ini");
    bl_registry reg;
    if (cli_registry(&reg))
        return BL_EXIT_FAIL;
    run_ctx c;
    memset(&c, 0, sizeof c);
    bl_error err;
    if (bl_experiment_load(argv[optind], &reg, &c.ex, &err) < 0) {
        bl_registry_free(&reg);
        return cli_fail(err.msg);
    }
    if (check) {
        printf("%s: valid (%zu data sets, %zu algorithms, %d repeats)\n", argv[optind],
               c.ex.ndata, c.ex.nalgo, c.ex.repeats);
        bl_experiment_free(&c.ex);
        bl_registry_free(&reg);
        return BL_EXIT_OK;
    }
    cli_set_threads(threads > 0 ? threads : c.ex.threads);
    c.outdir = bl_strdup(output ? output : c.ex.output);
    /* fail on an unwritable output folder before any work is spent */
    int rc = bl_mkdirs(c.outdir, &err);
    if (rc == 0 && bl_clean_stale_tmp(c.outdir) && !quiet)
        fprintf(stderr, "boostlab: removed temporary files left in %s by an interrupted run\n",
                c.outdir);
    if (rc == 0)
        rc = write_resolved(&c.ex, c.outdir, &err);
    size_t iters = 0;
    for (size_t a = 0; a < c.ex.nalgo; a++)
        iters += (size_t)(c.ex.algo[a].iterations ? c.ex.algo[a].iterations : c.ex.iterations);
    size_t runs = c.ex.ndata * c.ex.nalgo * (size_t)c.ex.repeats;
    bl_progress_init(&c.prog, runs, iters * c.ex.ndata * (size_t)c.ex.repeats, quiet);
    bl_summary_init(&c.sum, &c.ex, c.outdir);
    if (!quiet && rc == 0)
        fprintf(stderr, "boostlab: %s: %zu runs (%zu data sets x %zu algorithms x %d repeats), "
                "%d threads, output in %s\n", c.ex.name, runs, c.ex.ndata, c.ex.nalgo,
                c.ex.repeats, bl_host_api.threads, c.outdir);
    for (size_t d = 0; d < c.ex.ndata && rc == 0; d++)
        rc = run_data(&c, d, &err);
    bl_progress_finish(&c.prog);
    if (c.prog.runs_done)
        bl_summary_print(&c.sum, stdout);
    if (rc < 0)
        cli_fail(err.msg);
    else if (!quiet)
        fprintf(stderr, "boostlab: results in %s/ (summary.csv, summary.json, runs/)\n",
                c.outdir);
    bl_summary_free(&c.sum);
    bl_experiment_free(&c.ex);
    bl_registry_free(&reg);
    free(c.outdir);
    return rc < 0 ? BL_EXIT_FAIL : BL_EXIT_OK;
}

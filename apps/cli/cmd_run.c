/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `boostlab run EXPERIMENT.ini`: every data set x repeat x algorithm of the
 * grid, on local worker processes or MPI ranks, committed to the results
 * store as each run finishes; runs the store holds already are skipped.
 * The output folder also gets the resolved experiment.ini and plugins.tsv,
 * the plugin files the runs used. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/job.h"
#include "exec/mpi.h"
#include "exec/pool.h"
#include "report/progress.h"
#include "report/report.h"
#include "store/store.h"
#include "util/fsutil.h"
#include "util/rng.h"
#include "cli.h"

static const char *const run_help =
    "Usage: boostlab run [OPTIONS] EXPERIMENT.ini\n"
    "       mpirun -np N boostlab run [OPTIONS] EXPERIMENT.ini\n"
    "\n"
    "Run every algorithm of the experiment on every data set and repeat (every\n"
    "point of its sweeps).  Each finished run is committed to the results store\n"
    "OUTPUT/results.sqlite; running again resumes, skipping the runs the store\n"
    "holds.  Progress goes to stderr, the summary table to stdout, and to the\n"
    "output folder: experiment.ini (every parameter as used, with the plugin\n"
    "folders of BOOSTLAB_PLUGIN_PATH in its plugin_path), plugins.tsv (the plugin\n"
    "files used and a hash of each), summary.csv and summary.json.  See also:\n"
    "boostlab results, boostlab report.\n"
    "\n"
    "Options:\n"
    "  -o, --output DIR    output folder (default: the experiment's 'output',\n"
    "                      else results/NAME)\n"
    "  -j, --jobs N        runs at once, each in its own process (default 1)\n"
    "  -t, --threads N     threads per run (default: the experiment's 'threads',\n"
    "                      else OMP_NUM_THREADS, else the cores divided among the\n"
    "                      jobs or the MPI ranks of a node)\n"
    "  -d, --data GLOBS    only the data sets these comma-separated globs name\n"
    "                      (e.g. 'pendigits,opt*'); the rest can run later\n"
    "  -a, --algorithm GLOBS  only these algorithms (e.g. 'aoso*')\n"
    "  -n, --check         validate the experiment and read every data file\n"
    "                      (values, rows, labels, compression), run nothing\n"
    "      --quick         with --check: the experiment and its paths only,\n"
    "                      without reading the data files\n"
    "  -q, --quiet         no progress on stderr\n"
    "  -v, --verbose       more messages from plugins (repeat for debug)\n"
    "  -h, --help          this text\n"
    "\n"
    "Under MPI, rank 0 coordinates (and writes all files) and the other ranks run\n"
    "the jobs; the experiment file and data must be at the same paths on every node.\n"
    "\n"
    "A data set with split = given (a test_file) trains and tests on the same rows\n"
    "in every repeat: its repeats differ only in the algorithms' random seeds, so\n"
    "a deterministic algorithm runs the same run again (std 0).  They still run\n"
    "(a randomised algorithm's repeats differ), with a warning unless repeats = 1.\n";

typedef struct {
    bl_experiment ex;
    bl_summary sum;
    bl_progress prog;
    bl_store *store;            /* opened at the first commit: see cmd_run */
    const char *store_path;
    char host[256];
    const char *only_data, *only_algo; /* --data, --algorithm, or NULL */
} run_ctx;

/* Read data set d's files as a run would (bad values, ragged rows, binary
 * or truncated files fail here), unless a data set before it that was read
 * (done[e]) reads the same files; done[d] records the read. */
static int read_once(const bl_experiment *ex, size_t d, char *done, bl_error *err)
{
    const bl_data_spec *ds = &ex->data[d];
    for (size_t e = 0; e < d; e++)
        if (done[e] && bl_data_same_files(&ex->data[e], ds))
            return 0;
    bl_dataset all, test;
    if (bl_load_data(ds, &all, &test, err) < 0)
        return -1;
    bl_dataset_free(&all);
    bl_dataset_free(&test);
    done[d] = 1;
    return 0;
}

/* Read every data file of the experiment, each file once. */
static int check_data(const bl_experiment *ex, bl_error *err)
{
    char *done = bl_xcalloc(ex->ndata ? ex->ndata : 1, 1);
    int rc = 0;
    for (size_t d = 0; d < ex->ndata && rc == 0; d++)
        if (read_once(ex, d, done, err) < 0)
            rc = bl_errprefix(err, "%s: [data %s]", ex->data[d].where, ex->data[d].name);
    free(done);
    return rc;
}

/* split = given: the same rows in every repeat (see run_help). */
static void warn_given_repeats(const bl_experiment *ex)
{
    for (size_t d = 0; d < ex->ndata; d++) {
        const bl_data_spec *ds = &ex->data[d];
        int r = bl_data_repeats(ex, d);
        if (ds->split.kind != BL_SPLIT_GIVEN || r < 2 ||
            (ds->keep_classes && ds->class_pick == BL_PICK_RANDOM))
            continue;
        fprintf(stderr, "boostlab: warning: %s: [data %s] split = given: its %d repeats train and "
                "test on the same rows and differ only in the algorithms' seeds (a "
                "deterministic algorithm gives %d identical runs, std 0); set repeats = 1 in "
                "[data %s] unless an algorithm is randomised\n", ds->where, ds->name, r, r,
                ds->base ? ds->base : ds->name);
    }
}

/* OUTPUT/experiment.ini: every parameter as used.  An identical file is
 * left alone; a different one (the experiment changed since the folder's
 * earlier runs, which the store still holds) is kept as experiment.ini.N,
 * N one above the highest there, before the new one is written. */
static int write_resolved(const bl_experiment *ex, const char *dir, bl_error *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return bl_errf(err, "out of memory");
    bl_experiment_write(ex, mem);
    fclose(mem);
    char *path = bl_path_join(dir, "experiment.ini");
    size_t oldlen = 0;
    char *old = bl_read_file(path, "experiment.ini", &oldlen, NULL);
    int rc = 0;
    if (old && oldlen == len && !memcmp(old, text, len)) {
        free(old);
        free(text);
        free(path);
        return 0;
    }
    if (old) {
        char *keep = NULL;
        for (int n = 1; !keep; n++) {
            keep = bl_strfmt("%s.%d", path, n);
            if (bl_file_exists(keep)) {
                free(keep);
                keep = NULL;
            }
        }
        if (rename(path, keep) != 0)
            rc = bl_errf(err, "cannot keep the previous %s as %s: %s", path, keep,
                         strerror(errno));
        free(keep);
    }
    free(old);
    bl_atomic a;
    if (rc == 0)
        rc = bl_atomic_open(&a, path, err);
    free(path);
    if (rc == 0) {
        fwrite(text, 1, len, a.f);
        rc = bl_atomic_commit(&a, err);
    }
    free(text);
    return rc;
}

/* Read every data set that a run still to do needs, before anything is
 * written into an output folder that holds earlier runs: a data file that
 * does not parse must fail the rerun with the folder untouched.  The store
 * is only read here (a read-write connection, because a read-only one
 * leaves its -wal and -shm files behind); runs it holds need no data. */
static int check_pending_data(const run_ctx *c, const char *outdir, bl_error *err)
{
    const bl_experiment *ex = &c->ex;
    char *store_path = bl_path_join(outdir, "results.sqlite");
    char *ini_path = bl_path_join(outdir, "experiment.ini");
    int earlier = bl_file_exists(store_path) || bl_file_exists(ini_path);
    free(ini_path);
    bl_store *st = NULL;
    int rc = 0;
    if (earlier && bl_file_exists(store_path))
        rc = bl_store_open(store_path, &st, err);
    free(store_path);
    if (!earlier || rc < 0)
        return rc;
    char *done = bl_xcalloc(ex->ndata ? ex->ndata : 1, 1);
    for (size_t d = 0; d < ex->ndata && rc == 0; d++) {
        const bl_data_spec *ds = &ex->data[d];
        int need = 0;
        if (c->only_data && !bl_globs_match(c->only_data, ds->name, ds->base))
            continue;
        for (int r = 0; r < bl_data_repeats(ex, d) && !need && rc == 0; r++)
            for (size_t a = 0; a < ex->nalgo && !need && rc == 0; a++) {
                const bl_algo_spec *as = &ex->algo[a];
                if (bl_algo_skips(as, ds) ||
                    (c->only_algo && !bl_globs_match(c->only_algo, as->name, as->base)))
                    continue;
                bl_job j = {d, a, r};
                bl_run_key key;
                bl_job_key(ex, &j, &key);
                int have = st ? bl_store_has(st, &key, err) : 0;
                rc = have < 0 ? -1 : 0;
                need = have == 0;
            }
        /* the variants of a swept [data] section read the same files */
        if (rc == 0 && need)
            rc = read_once(ex, d, done, err);
    }
    free(done);
    if (st)
        bl_store_close(st);
    return rc;
}

/* The folders of BOOSTLAB_PLUGIN_PATH join the experiment's plugin_path in
 * the resolved INI, so that a rerun from it finds the same plugins. */
static void add_env_plugin_path(bl_experiment *ex)
{
    const char *env = getenv("BOOSTLAB_PLUGIN_PATH");
    if (!env || !*env)
        return;
    char *copy = bl_strdup(env), *save = NULL;
    for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
        size_t n = strlen(tok);
        const char *have = ex->plugin_path;
        int dup = 0;
        for (const char *p = have; p && *p && !dup; p = strchr(p, ':') ? strchr(p, ':') + 1 : "")
            dup = !strncmp(p, tok, n) && (p[n] == ':' || !p[n]);
        if (dup)
            continue;
        char *t = bl_strfmt("%s%s%s", have ? have : "", have ? ":" : "", tok);
        free(ex->plugin_path);
        ex->plugin_path = t;
    }
    free(copy);
}

/* Adds p to the n plugins of used, unless it is there. */
static void use_plugin(const struct bl_plugin **used, size_t *n, const struct bl_plugin *p)
{
    if (!p)
        return;
    for (size_t j = 0; j < *n; j++)
        if (used[j] == p)
            return;
    used[(*n)++] = p;
}

static void algo_plugins(const bl_algo_spec *a, const struct bl_plugin **used, size_t *n)
{
    use_plugin(used, n, a->loss.plugin);
    use_plugin(used, n, a->weak.plugin);
    use_plugin(used, n, a->solver.plugin);
    use_plugin(used, n, a->coding.plugin);
    use_plugin(used, n, a->projection.plugin);
    use_plugin(used, n, a->task.plugin);
    use_plugin(used, n, a->svm_exhaustive);
    use_plugin(used, n, a->svm_dense);
    for (size_t j = 0; j < a->ncv; j++)
        algo_plugins(&a->cv[j], used, n);
}

/* FNV-1a (bl_hash64) of a file's bytes, as 16 hex digits; "-" when it
 * cannot be read. */
static void file_hash(const char *path, char out[17])
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    char chunk[65536];
    size_t got;
    int ok = f && m;
    while (ok && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, got, m);
    ok = ok && !ferror(f);
    if (m)
        fclose(m);
    if (f)
        fclose(f);
    if (ok)
        snprintf(out, 17, "%016llx", (unsigned long long)bl_hash64(buf, len));
    else
        snprintf(out, 17, "-");
    free(buf);
}

/* OUTPUT/plugins.tsv: plugin, role, hash64, file and the time the row was
 * first written, one row per plugin file the experiment's algorithms use.
 * Rows of earlier invocations are kept and a row is added only for a new
 * (plugin, hash, file), so runs resumed with a rebuilt plugin show it. */
static int write_plugins(const bl_experiment *ex, const bl_registry *reg, const char *dir,
                         bl_error *err)
{
    static const char head[] = "plugin\trole\thash64\tfile\tsince\n";
    char *path = bl_path_join(dir, "plugins.tsv");
    char *old = NULL;
    size_t oldlen = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        FILE *m = open_memstream(&old, &oldlen);
        char *line = NULL;
        size_t cap = 0;
        while (getline(&line, &cap, f) > 0)
            if (strcmp(line, head) != 0)
                fputs(line, m);
        free(line);
        fclose(m);
        fclose(f);
    }
    const struct bl_plugin **used = bl_xcalloc(reg->n + 1, sizeof *used);
    size_t n = 0;
    for (size_t a = 0; a < ex->nalgo; a++)
        algo_plugins(&ex->algo[a], used, &n);
    char since[32];
    time_t now = time(NULL);
    strftime(since, sizeof since, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    bl_atomic at;
    int rc = bl_atomic_open(&at, path, err);
    if (rc == 0) {
        fputs(head, at.f);
        if (old)
            fputs(old, at.f);
        for (size_t j = 0; j < n; j++) {
            const char *file = bl_registry_file_of(reg, used[j]);
            char hash[17], *key;
            file_hash(file, hash);
            key = bl_strfmt("%s\t%s\t%s\t%s\t", used[j]->name, bl_role_name(used[j]->role),
                            hash, file);
            char *nl_key = bl_strfmt("\n%s", key);
            int seen = old && (!strncmp(old, key, strlen(key)) || strstr(old, nl_key));
            free(nl_key);
            if (!seen)
                fprintf(at.f, "%s%s\n", key, since);
            free(key);
        }
        rc = bl_atomic_commit(&at, err);
    }
    free(used);
    free(old);
    free(path);
    return rc;
}

/* ---- coordinator hooks ---------------------------------------------------- */

static void on_started(void *user, int w, const bl_job *j)
{
    run_ctx *c = user;
    char label[600];
    bl_job_label(&c->ex, j, label, sizeof label);
    bl_progress_start(&c->prog, w, label, (size_t)bl_job_iterations(&c->ex, j));
}

static void on_progress(void *user, int w, size_t done, size_t total)
{
    (void)total;
    bl_progress_tick(&((run_ctx *)user)->prog, w, done);
}

static int on_finished(void *user, int w, const bl_job *j, bl_job_out *o, bl_error *err)
{
    run_ctx *c = user;
    char *params = bl_job_params(&c->ex, j);
    if (o->cv_choice[0]) {
        /* what the run's cross-validation chose, with the run's parameters */
        size_t len = strlen(params) + strlen(o->cv_choice) + 64;
        params = bl_xrealloc(params, len);
        snprintf(params + strlen(params), len - strlen(params), "cv_chosen = %s\ncv_error = %.6g\n",
                 o->cv_choice, o->cv_error);
    }
    const bl_algo_spec *a = &c->ex.algo[j->a];
    const bl_data_spec *ds = &c->ex.data[j->d];
    char sweep[1200];
    snprintf(sweep, sizeof sweep, "%s%s%s", ds->sweep ? ds->sweep : "",
             ds->sweep && a->sweep ? "," : "", a->sweep ? a->sweep : "");
    bl_run_key key;
    bl_job_key(&c->ex, j, &key);
    bl_run_info info = {a->recipe, params, sweep, o->m_train, o->m_test, o->k, o->d,
                        o->threads, c->host, o->started, o->finished, o->metrics.n,
                        o->metrics.name, o->metrics.train, o->metrics.test};
    int rc = c->store ? 0 : bl_store_open(c->store_path, &c->store, err);
    if (rc == 0)
        rc = bl_store_commit(c->store, &key, &info, &o->curve, err);
    free(params);
    if (rc < 0)
        return -1;
    bl_run_result r;
    bl_run_result_from(&o->curve, &r);
    bl_summary_set(&c->sum, j->d, j->a, (size_t)j->rep, &r);
    bl_progress_end(&c->prog, w, o->m_test ? r.test_err : NAN, r.iterations,
                    o->finished - o->started);
    return 0;
}

static void on_failed(void *user, int w, const bl_job *j, const char *msg)
{
    (void)j;
    (void)msg;
    bl_progress_fail(&((run_ctx *)user)->prog, w);
}

/* ---- the grid ------------------------------------------------------------- */

/* Every job, data set by data set and repeat by repeat, so that a worker's
 * consecutive jobs share their data; those in the store are filled into the
 * summary and left out of *todo. */
static int plan(run_ctx *c, bl_job **todo, size_t *ntodo, size_t *iters, size_t *skipped,
                size_t *left_out, bl_error *err)
{
    const bl_experiment *ex = &c->ex;
    size_t n = ex->nalgo * (size_t)bl_max_repeats(ex) * ex->ndata;
    *todo = bl_xmalloc((n ? n : 1) * sizeof **todo);
    *ntodo = 0;
    *iters = 0;
    *skipped = 0;
    *left_out = 0;
    for (size_t d = 0; d < ex->ndata; d++)
        for (int r = 0; r < bl_data_repeats(ex, d); r++)
            for (size_t a = 0; a < ex->nalgo; a++) {
                bl_job j = {d, a, r};
                if (bl_algo_skips(&ex->algo[a], &ex->data[d])) {
                    (*skipped)++;
                    continue;
                }
                const bl_data_spec *ds = &ex->data[d];
                const bl_algo_spec *as = &ex->algo[a];
                if ((c->only_data && !bl_globs_match(c->only_data, ds->name, ds->base)) ||
                    (c->only_algo && !bl_globs_match(c->only_algo, as->name, as->base))) {
                    (*left_out)++;
                    continue;
                }
                bl_run_key key;
                bl_job_key(ex, &j, &key);
                bl_store_row row;
                int have = bl_store_get(c->store, &key, &row, err);
                if (have < 0)
                    return -1;
                if (have) {
                    bl_summary_set(&c->sum, d, a, (size_t)r, &row.res);
                    bl_store_row_free(&row);
                    continue;
                }
                (*todo)[(*ntodo)++] = j;
                *iters += (size_t)bl_job_iterations(ex, &j);
            }
    return 0;
}

/* --data / --algorithm must name something: a typo would otherwise run
 * nothing and look like success. */
static int check_filters(const run_ctx *c, bl_error *err)
{
    const bl_experiment *ex = &c->ex;
    int hit = !c->only_data;
    for (size_t d = 0; d < ex->ndata && !hit; d++)
        hit = bl_globs_match(c->only_data, ex->data[d].name, ex->data[d].base);
    if (!hit)
        return bl_errf(err, "--data '%s' names none of the experiment's data sets",
                       c->only_data);
    hit = !c->only_algo;
    for (size_t a = 0; a < ex->nalgo && !hit; a++)
        hit = bl_globs_match(c->only_algo, ex->algo[a].name, ex->algo[a].base);
    if (!hit)
        return bl_errf(err, "--algorithm '%s' names none of the experiment's algorithms",
                       c->only_algo);
    return 0;
}

/* Runs of the whole grid: every data set's repeats x algorithms. */
static size_t grid_runs(const bl_experiment *ex)
{
    size_t n = 0;
    for (size_t d = 0; d < ex->ndata; d++)
        n += (size_t)bl_data_repeats(ex, d) * ex->nalgo;
    return n;
}

static int parse_count(const char *opt, const char *v, int *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (end == v || *end || x < 1 || x > 1024) {
        char msg[128];
        snprintf(msg, sizeof msg, "--%s expects an integer from 1 to 1024", opt);
        return cli_usage("run", msg);
    }
    *out = (int)x;
    return 0;
}

int cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, 0, 'o'},
                                         {"jobs", required_argument, 0, 'j'},
                                         {"threads", required_argument, 0, 't'},
                                         {"check", no_argument, 0, 'n'},
                                         {"quick", no_argument, 0, 'Q'},
                                         {"data", required_argument, 0, 'd'},
                                         {"algorithm", required_argument, 0, 'a'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"verbose", no_argument, 0, 'v'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *output = NULL, *only_data = NULL, *only_algo = NULL;
    int threads = 0, jobs = 1, check = 0, quick = 0, quiet = 0, o;
    optind = 1;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":o:j:t:d:a:nqvh", opts, NULL)) != -1) {
        switch (o) {
        case 'o': output = optarg; break;
        case 'd': only_data = optarg; break;
        case 'a': only_algo = optarg; break;
        case 'j':
            if (parse_count("jobs", optarg, &jobs))
                return BL_EXIT_USAGE;
            break;
        case 't':
            if (parse_count("threads", optarg, &threads))
                return BL_EXIT_USAGE;
            break;
        case 'n': check = 1; break;
        case 'Q': quick = 1; break;
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
    if (quick && !check)
        return cli_usage("run", "--quick only applies with --check");

    /* Under mpirun, every rank loads the experiment; rank 0 coordinates. */
    int rank = 0, size = 1, mpi = 0;
    bl_error err;
    if (!check && bl_mpi_world_size() > 1) {
        if (bl_mpi_init(&argc, &argv, &rank, &size, &err) < 0)
            return cli_fail(err.msg);
        mpi = 1;
        quiet |= rank != 0;
    }
    /* the experiment's plugin_path is searched first, so read before the rest */
    bl_registry reg;
    char *first = NULL;
    memset(&reg, 0, sizeof reg);
    int rc = bl_experiment_plugin_path(argv[optind], &first, &err);
    if (rc == 0)
        rc = bl_registry_load_search(&reg, first, &err);
    free(first);
    if (rc < 0) {
        bl_registry_free(&reg);
        cli_fail(err.msg);
        if (mpi)
            bl_mpi_finalize();
        return BL_EXIT_FAIL;
    }
    run_ctx c;
    memset(&c, 0, sizeof c);
    rc = bl_experiment_load(argv[optind], &reg, &c.ex, &err);
    if (rc == 0 && check) {
        if (!quick)
            rc = check_data(&c.ex, &err);
        if (rc == 0) {
            warn_given_repeats(&c.ex);
            printf("%s: valid (%zu data sets, %zu algorithms, %d repeats: %zu runs)%s\n",
                   argv[optind], c.ex.ndata, c.ex.nalgo, c.ex.repeats, grid_runs(&c.ex),
                   quick ? "; data files not read (--quick)" : "; data files read");
        }
        bl_experiment_free(&c.ex);
        bl_registry_free(&reg);
        return rc < 0 ? cli_fail(err.msg) : BL_EXIT_OK;
    }
    if (!threads)
        threads = c.ex.threads;
    if (!threads)
        threads = cli_env_threads();
    if (rc < 0 && mpi) {
        /* every rank read the same file; one that cannot stops them all */
        fprintf(stderr, "boostlab: rank %d: %s\n", rank, err.msg);
        bl_mpi_abort(BL_EXIT_FAIL);
    }
    if (mpi && rank > 0) {
        rc = bl_mpi_serve(&c.ex, threads ? threads : bl_mpi_threads());
        bl_experiment_free(&c.ex);
        bl_registry_free(&reg);
        bl_mpi_finalize();
        return rc < 0 ? BL_EXIT_FAIL : BL_EXIT_OK;
    }
    if (rc < 0) {
        bl_registry_free(&reg);
        return cli_fail(err.msg);
    }
    if (!threads) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores / jobs > 0 ? (int)(cores / jobs) : 1;
    }
    gethostname(c.host, sizeof c.host - 1);
    char *outdir = bl_strdup(output ? output : c.ex.output);
    char *store_path = bl_path_join(outdir, "results.sqlite");
    size_t runs = grid_runs(&c.ex), ntodo = 0, iters = 0;
    size_t skipped = 0, left_out = 0;
    bl_job *todo = NULL;
    c.only_data = only_data;
    c.only_algo = only_algo;
    bl_summary_init(&c.sum, &c.ex, outdir);
    /* fail on a bad filter, bad data or an unwritable output folder before
     * any work, and before anything is written */
    rc = check_filters(&c, &err);
    if (rc == 0)
        rc = check_pending_data(&c, outdir, &err);
    if (rc == 0)
        rc = bl_mkdirs(outdir, &err);
    if (rc == 0 && bl_clean_stale_tmp(outdir) && !quiet)
        fprintf(stderr, "boostlab: removed temporary files left in %s by an interrupted run\n",
                outdir);
    if (rc == 0) {
        add_env_plugin_path(&c.ex);
        rc = write_resolved(&c.ex, outdir, &err);
    }
    if (rc == 0)
        rc = write_plugins(&c.ex, &reg, outdir, &err);
    if (rc == 0)
        rc = bl_store_open(store_path, &c.store, &err);
    if (rc == 0)
        rc = plan(&c, &todo, &ntodo, &iters, &skipped, &left_out, &err);
    runs -= skipped + left_out;
    /* Closed while the workers are forked (a connection must not cross a
     * fork); the first commit opens it again. */
    int planned = rc == 0;
    if (c.store) {
        bl_store_close(c.store);
        c.store = NULL;
    }
    c.store_path = store_path;
    int workers = mpi ? size - 1 : (size_t)jobs < ntodo ? jobs : (int)(ntodo ? ntodo : 1);
    if (rc == 0 && ntodo)
        warn_given_repeats(&c.ex);
    if (rc == 0 && !quiet) {
        fprintf(stderr, "boostlab: %s: %zu runs (%zu data sets x %zu algorithms x %d repeats",
                c.ex.name, runs, c.ex.ndata, c.ex.nalgo, c.ex.repeats);
        if (skipped)
            fprintf(stderr, ", less %zu skipped by skip_data", skipped);
        if (left_out)
            fprintf(stderr, ", less %zu left out by --data/--algorithm", left_out);
        fputc(')', stderr);
        if (runs > ntodo)
            fprintf(stderr, ", %zu already in the store", runs - ntodo);
        if (mpi)
            fprintf(stderr, "; %d MPI worker ranks", workers);
        else
            fprintf(stderr, "; %d job%s x %d thread%s", workers, workers > 1 ? "s" : "",
                    threads, threads > 1 ? "s" : "");
        fprintf(stderr, "; output in %s\n", outdir);
    }
    bl_pool_hooks hooks = {&c, on_started, on_progress, on_finished, on_failed};
    bl_progress_init(&c.prog, ntodo, runs - ntodo, iters, workers, quiet);
    if (mpi) {
        /* with rc < 0 this only tells the workers to quit */
        bl_error e2;
        int mrc = bl_mpi_coordinate(&c.ex, todo, rc == 0 ? ntodo : 0, &hooks, &e2);
        if (rc == 0 && mrc < 0) {
            rc = -1;
            err = e2;
        }
    } else if (rc == 0 && ntodo) {
        rc = bl_pool_run_local(&c.ex, todo, ntodo, workers, threads, &hooks, &err);
    }
    bl_progress_finish(&c.prog);
    /* the summary of every finished run, even when one failed */
    bl_error err2;
    int wrc = planned ? bl_summary_write(&c.sum, &err2) : 0;
    bl_summary_print(&c.sum, stdout);
    if (rc < 0)
        cli_fail(err.msg);
    else if (wrc < 0) {
        cli_fail(err2.msg);
        rc = -1;
    }
    else if (!quiet)
        fprintf(stderr, "boostlab: results in %s/ (results.sqlite, summary.csv, summary.json); "
                "see 'boostlab results %s' and 'boostlab report %s'\n", outdir, outdir, outdir);
    if (c.store)
        bl_store_close(c.store);
    free(todo);
    free(store_path);
    free(outdir);
    bl_summary_free(&c.sum);
    bl_experiment_free(&c.ex);
    bl_registry_free(&reg);
    if (mpi)
        bl_mpi_finalize();
    return rc < 0 ? BL_EXIT_FAIL : BL_EXIT_OK;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `boostlab check-plugin FILE.so|NAME...`: load plugins (a file on its own,
 * or a name from the standard registry, as `boostlab plugins NAME` finds
 * it) and run their role's contract on random problems (framework/check). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "data/dataset.h"
#include "plugin/params.h"
#include "util/fsutil.h"
#include "cli.h"

static const char *const check_help =
    "Usage: boostlab check-plugin [OPTIONS] FILE.so|NAME...\n"
    "\n"
    "Load each plugin (a shared object, or the name of a plugin in the standard\n"
    "search path, as `boostlab plugins NAME` shows it) and run its role's\n"
    "contract on random problems, one line per check:\n"
    "  PASS|FAIL|SKIP ROLE/CHECK: detail\n"
    "A failing check prints the smallest input that still fails: the random\n"
    "case is retried on smaller problems drawn the same way, and the smallest\n"
    "failing one is shown.  SKIP marks an optional part the plugin lacks.\n"
    "\n"
    "  loss    create, params, gradient (finite differences, margins up to 30),\n"
    "          hessian, convexity, extreme (finite at |F| up to 1e100), row fast\n"
    "          path, coded-gradient and coded-extreme (eval_coded), determinism\n"
    "  weak    create, params, outdim, edge (recomputed from predict), outputs,\n"
    "          predict (finite), determinism, save-load\n"
    "  solver  create, params, kkt, bounds, descent, info, determinism\n"
    "  coding  create, params, refusal, shape, entries, columns, determinism\n"
    "  task    open, params, loss-zero, loss-range, random-label, alternatives,\n"
    "          dpsi, dpsi-truth (no net effect), argmax-hinge (h recomputed from\n"
    "          loss and dpsi), argmax-max (against random labels and brute\n"
    "          force), predict, evaluate, class-labels, determinism, format-label\n"
    "  projection  create, params, shape (n entries written, none beyond),\n"
    "          entries (finite), determinism, order (the same columns in any call\n"
    "          order, alone or after others), threads (2 threads at once), distinct\n"
    "          (seeds, classes, columns), scale (mean 0, variance 1/n) and norm\n"
    "          (||P x||^2 ~ ||x||^2), for k = 1, 2, 3, 10, 50 classes\n"
    "A task is opened on random data sets of k = 2 .. 5 classes named c0, c1,\n"
    "...; one that matches class names (hierarchy's taxonomy) needs --classes\n"
    "and its required parameters, e.g.\n"
    "  boostlab check-plugin -p taxonomy=data/satimage.taxonomy \\\n"
    "      --classes data/satimage.classes hierarchy\n"
    "\n"
    "Options:\n"
    "  -s, --seed N            seed of the random problems (default 1)\n"
    "  -t, --trials N          random problems per size and scale (default 3)\n"
    "  -p, --param NAME=VALUE  check with this parameter value instead of the\n"
    "                          default (repeatable; every plugin named must have it)\n"
    "  -c, --classes FILE      tasks: the class names of the random data sets, one\n"
    "                          per line (a .classes file); k is then their number\n"
    "  -d, --data FILE.csv     tasks: open the task on random row subsets of this\n"
    "                          data set instead of random rows (for tasks whose\n"
    "                          rows name something, e.g. crf's image ids)\n"
    "  -l, --label NAME        the label column of --data (default: \"label\" if\n"
    "                          present, else the first column)\n"
    "  -v, --verbose           time and largest error per check\n"
    "      --timeout SECONDS   fail a check that runs longer (default 120; 0 = none)\n"
    "      --no-fork           run the checks in this process (for a debugger; a\n"
    "                          crashing plugin then ends the run)\n"
    "  -h, --help              this text\n"
    "\n"
    "Exit status: 0 when every check passes, 1 when one fails or a plugin cannot\n"
    "be loaded, 2 on a usage error.\n";

enum { OPT_TIMEOUT = 256, OPT_NO_FORK };

/* One plugin to check, and where it came from. */
typedef struct target {
    const struct bl_plugin *p;
    const char *file;
    bl_paramset ps;
    char *note;
} target;

/* An argument is a file when it has a slash or ends in ".so". */
static int is_file_arg(const char *a)
{
    size_t n = strlen(a);
    return strchr(a, '/') || (n > 3 && strcmp(a + n - 3, ".so") == 0);
}

/* The loader takes absolute paths only; a file named on the command line
 * is the user's explicit choice, so it is taken relative to the current
 * directory. */
static char *absolute(const char *a)
{
    if (a[0] == '/')
        return bl_strdup(a);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return bl_strdup(a);
    return bl_path_join(cwd, a);
}

int cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {
        {"seed", required_argument, NULL, 's'},
        {"trials", required_argument, NULL, 't'},
        {"param", required_argument, NULL, 'p'},
        {"classes", required_argument, NULL, 'c'},
        {"data", required_argument, NULL, 'd'},
        {"label", required_argument, NULL, 'l'},
        {"verbose", no_argument, NULL, 'v'},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"no-fork", no_argument, NULL, OPT_NO_FORK},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    chk_opts o = {1, 3, 0, 1, 120, NULL, 0, NULL};
    const char *classes_file = NULL, *data_file = NULL, *label = NULL;
    bl_dataset data;
    memset(&data, 0, sizeof data);
    bl_classes classes;
    memset(&classes, 0, sizeof classes);
    const char **params = NULL;
    size_t nparams = 0;
    unsigned long long v;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":s:t:p:c:d:l:vh", opts, NULL)) != -1) {
        switch (c) {
        case 's':
            if (cli_parse_count(optarg, 0, UINT64_MAX, &v) < 0) {
                free(params);
                return cli_usage("check-plugin", "--seed expects a non-negative integer");
            }
            o.seed = v;
            break;
        case 't':
            if (cli_parse_count(optarg, 10, 1000, &v) < 0 || v < 1) {
                free(params);
                return cli_usage("check-plugin", "--trials expects an integer in 1..1000");
            }
            o.trials = (int)v;
            break;
        case 'p': {
            if (!strchr(optarg, '=') || optarg[0] == '=') {
                free(params);
                return cli_usage("check-plugin", "--param expects NAME=VALUE");
            }
            const char **t = realloc(params, (nparams + 1) * sizeof *t);
            if (!t) {
                free(params);
                return cli_fail("out of memory");
            }
            params = t;
            params[nparams++] = optarg;
            break;
        }
        case 'c': classes_file = optarg; break;
        case 'd': data_file = optarg; break;
        case 'l': label = optarg; break;
        case 'v': o.verbose = 1; break;
        case OPT_TIMEOUT:
            if (cli_parse_count(optarg, 10, 86400, &v) < 0) {
                free(params);
                return cli_usage("check-plugin", "--timeout expects seconds in 0..86400");
            }
            o.timeout = (unsigned)v;
            break;
        case OPT_NO_FORK: o.fork = 0; break;
        case 'h':
            free(params);
            fputs(check_help, stdout);
            return BL_EXIT_OK;
        case ':':
            free(params);
            return cli_usage("check-plugin", "an option is missing its value");
        default:
            free(params);
            return cli_usage("check-plugin", "unknown option");
        }
    }
    if (optind >= argc) {
        free(params);
        return cli_usage("check-plugin", "expects at least one plugin file or name");
    }

    if (classes_file) {
        bl_error err;
        if (bl_read_class_names(classes_file, &classes, &err) < 0) {
            free(params);
            char msg[BL_ERRMSG_MAX + 32];
            snprintf(msg, sizeof msg, "--classes: %s", err.msg);
            return cli_usage("check-plugin", msg);
        }
        o.class_names = (const char *const *)classes.names;
        o.nclasses = classes.k;
    }
    if (data_file) {
        bl_error err = {{0}};
        bl_csv_opts co = {label, 0, 0, NULL, 0};
        bl_classes cls;
        memset(&cls, 0, sizeof cls);
        int bad = bl_read_csv(data_file, &co, classes_file ? &classes : &cls, &data, &err) < 0;
        bl_classes_free(&cls);
        if (bad || data.m == 0) {
            free(params);
            bl_classes_free(&classes);
            bl_dataset_free(&data);
            char msg[BL_ERRMSG_MAX + 32];
            if (bad)
                snprintf(msg, sizeof msg, "--data: %s", err.msg);
            else
                snprintf(msg, sizeof msg, "--data: %s: no rows", data_file);
            return cli_usage("check-plugin", msg);
        }
        o.data = &data;
        o.class_names = (const char *const *)data.class_names;
        o.nclasses = data.k;
    }

    /* Load everything first, so a usage error (a --param no plugin has)
     * comes before any report. */
    int nargs = argc - optind, rc = BL_EXIT_OK;
    bl_registry *regs = calloc((size_t)nargs + 1, sizeof *regs); /* [nargs]: the standard one */
    char **files = calloc((size_t)nargs, sizeof *files);
    target *tg = NULL;
    size_t nt = 0;
    int have_std = 0, std_failed = 0;
    for (int a = 0; a < nargs; a++) {
        const char *arg = argv[optind + a];
        const struct bl_plugin *found[64];
        size_t nf = 0;
        const char *file = NULL;
        if (is_file_arg(arg)) {
            bl_error err;
            files[a] = absolute(arg);
            if (bl_registry_load_file(&regs[a], files[a], &err) < 0) {
                cli_fail(err.msg);
                rc = BL_EXIT_FAIL;
                continue;
            }
            for (size_t j = 0; j < regs[a].n && nf < 64; j++)
                found[nf++] = regs[a].plugin[j];
            file = files[a];
        } else {
            if (!have_std && !std_failed) {
                if (cli_registry(&regs[nargs]) == 0)
                    have_std = 1;
                else
                    std_failed = 1;
            }
            if (!have_std) {
                rc = BL_EXIT_FAIL;
                continue;
            }
            const struct bl_plugin *p = bl_registry_find(&regs[nargs], arg, 0);
            if (!p) {
                fprintf(stderr, "boostlab: no plugin named '%s' (loaded: %s; %s)\n", arg,
                        bl_registry_names(&regs[nargs], 0), bl_registry_hint(&regs[nargs]));
                rc = BL_EXIT_FAIL;
                continue;
            }
            found[nf++] = p;
            file = bl_registry_file_of(&regs[nargs], p);
        }
        for (size_t j = 0; j < nf; j++) {
            tg = bl_xrealloc(tg, (nt + 1) * sizeof *tg);
            target *T = &tg[nt++];
            memset(T, 0, sizeof *T);
            T->p = found[j];
            T->file = file;
        }
    }

    /* parameter values: the defaults, then --param */
    for (size_t j = 0; j < nt && rc != BL_EXIT_USAGE; j++) {
        target *T = &tg[j];
        bl_error err;
        if (bl_paramset_init(&T->ps, T->p, &err) < 0) {
            cli_fail(err.msg);
            rc = BL_EXIT_FAIL;
            T->p = NULL;
            continue;
        }
        size_t len = 1;
        for (size_t q = 0; q < nparams; q++)
            len += strlen(params[q]) + 2;
        T->note = bl_xcalloc(len, 1);
        for (size_t q = 0; q < nparams; q++) {
            const char *eq = strchr(params[q], '=');
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(eq - params[q]), params[q]);
            if (bl_paramset_set(&T->ps, name, eq + 1, &err) < 0) {
                char msg[BL_ERRMSG_MAX + 160];
                snprintf(msg, sizeof msg, "--param %s: %s", params[q], err.msg);
                cli_usage("check-plugin", msg);
                rc = BL_EXIT_USAGE;
                break;
            }
            strcat(T->note, q ? ", " : "");
            strcat(T->note, params[q]);
        }
    }

    if (rc != BL_EXIT_USAGE) {
        chk_tally tally = {0, 0, 0, 0};
        size_t failed = 0;
        for (size_t j = 0; j < nt; j++)
            if (tg[j].p)
                failed += chk_plugin(tg[j].p, tg[j].file, tg[j].ps.v, tg[j].note, &o, stdout,
                                     &tally);
        if (nt)
            printf("check-plugin: %zu plugin%s, %zu checks passed, %zu failed, %zu skipped "
                   "(--seed %llu --trials %d)\n", tally.plugins, tally.plugins == 1 ? "" : "s",
                   tally.pass, tally.fail, tally.skip, (unsigned long long)o.seed, o.trials);
        if (failed)
            rc = BL_EXIT_FAIL;
    }

    for (size_t j = 0; j < nt; j++) {
        bl_paramset_free(&tg[j].ps);
        free(tg[j].note);
    }
    free(tg);
    for (int a = 0; a <= nargs; a++)
        bl_registry_free(&regs[a]);
    for (int a = 0; a < nargs; a++)
        free(files[a]);
    free(files);
    free(regs);
    free(params);
    bl_classes_free(&classes);
    bl_dataset_free(&data);
    return rc;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Experiment files: what a valid one resolves to, and that every kind of
 * mistake is refused with FILE:LINE and the accepted choices. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/experiment.h"
#include "config/ini.h"
#include "testutil.h"

static bl_registry reg;
static char dir[] = "/tmp/bl-config-XXXXXX";
static char path[600];

static void setup(void)
{
    bl_error err;
    memset(&reg, 0, sizeof reg);
    cr_assert_eq(bl_registry_load_dir(&reg, BL_BUILD_DIR "/plugins", 1, &err), 0, "%s", err.msg);
    strcpy(dir, "/tmp/bl-config-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char data[700];
    snprintf(data, sizeof data, "%s/tiny.csv", dir);
    FILE *f = fopen(data, "w");
    fputs("label,a,b\n0,1,2\n1,3,4\n0,5,6\n1,7,8\n", f);
    fclose(f);
}

static void teardown(void)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
    bl_registry_free(&reg);
}

TestSuite(config, .init = setup, .fini = teardown);

static const char *write_ini(const char *text)
{
    snprintf(path, sizeof path, "%s/exp.ini", dir);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

#define VALID_DATA "[data tiny]\nfile = tiny.csv\n"
#define VALID_ALGO "[algorithm a]\nrecipe = mcboost-exp\n"

/* The load must fail, naming path:line and containing `what`. */
static void refused(const char *text, int line, const char *what)
{
    bl_experiment ex;
    bl_error err;
    const char *p = write_ini(text);
    cr_assert_eq(bl_experiment_load(p, &reg, &ex, &err), -1, "accepted:\n%s", text);
    char loc[700];
    snprintf(loc, sizeof loc, "%s:%d", p, line);
    cr_assert(strstr(err.msg, loc), "expected '%s' in: %s", loc, err.msg);
    cr_assert(strstr(err.msg, what), "expected '%s' in: %s", what, err.msg);
}

Test(config, valid_experiment_with_recipe_and_overrides)
{
    bl_experiment ex;
    bl_error err;
    const char *p = write_ini("[experiment]\nname = t1\nseed = 7\nrepeats = 3\niterations = 20\n"
                              VALID_DATA "test_ratio = 0.5\n"
                              "[algorithm a]\nrecipe = mcboost-exp\nsolver.max_iter = 50\n"
                              "shrinkage = 0.25\n"
                              "[algorithm b]\nsolver.pgtol = 1e-7 ; before the plugin line\n"
                              "loss = margin-log\nweak = stump\nsolver = lbfgsb-row\n");
    cr_assert_eq(bl_experiment_load(p, &reg, &ex, &err), 0, "%s", err.msg);
    cr_assert_str_eq(ex.name, "t1");
    cr_assert_eq(ex.seed, 7);
    cr_assert_eq(ex.repeats, 3);
    cr_assert_eq(ex.nalgo, 2);
    cr_assert_str_eq(ex.output, "results/t1");
    const bl_algo_spec *a = &ex.algo[0];
    cr_assert_str_eq(a->loss.plugin->name, "margin-exp");
    cr_assert_str_eq(a->recipe, "mcboost-exp");
    cr_assert_float_eq(a->boost.nu, 1e-9, 1e-20);
    cr_assert_float_eq(a->boost.shrinkage, 0.25, 1e-15);
    int mi = bl_param_index(a->solver.plugin, "max_iter");
    cr_assert_eq(a->solver.v[mi].i, 50);
    const bl_algo_spec *b = &ex.algo[1];
    cr_assert_str_eq(b->loss.plugin->name, "margin-log");
    cr_assert_float_eq(b->boost.shrinkage, 1.0, 0);
    cr_assert_float_eq(b->solver.v[bl_param_index(b->solver.plugin, "pgtol")].r, 1e-7, 1e-20);
    cr_assert_eq(ex.data[0].split.kind, BL_SPLIT_RATIO);
    cr_assert_float_eq(ex.data[0].split.test_ratio, 0.5, 0);
    cr_assert_neq(bl_algo_hash(&ex.algo[0]), bl_algo_hash(&ex.algo[1]));
    bl_experiment_free(&ex);
}

Test(config, unknown_section) { refused(VALID_DATA VALID_ALGO "\n[algoritm x]\n", 6, "unknown section [algoritm x]"); }
Test(config, unknown_key_lists_accepted) { refused(VALID_DATA "fiel = x\n" VALID_ALGO, 3, "accepted: file, format"); }
Test(config, unknown_experiment_key) { refused("[experiment]\nrepeat = 3\n" VALID_DATA VALID_ALGO, 2, "accepted: name"); }
Test(config, unknown_plugin_lists_available) { refused(VALID_DATA "[algorithm a]\nloss = margin-xp\nweak = stump\nsolver = lbfgsb-row\n", 4, "no loss plugin named 'margin-xp' (available: "); }
Test(config, plugin_of_wrong_role) { refused(VALID_DATA "[algorithm a]\nrecipe = mcboost-exp\nweak = margin-exp\n", 5, "no weak plugin named 'margin-exp'"); }
Test(config, parameter_out_of_range) { refused(VALID_DATA VALID_ALGO "solver.max_iter = 0\n", 5, "out of range"); }
Test(config, parameter_bad_type) { refused(VALID_DATA VALID_ALGO "solver.pgtol = small\n", 5, "expected a real"); }
Test(config, unknown_parameter) { refused(VALID_DATA VALID_ALGO "solver.maxiter = 3\n", 5, "accepted: max_iter"); }
Test(config, bad_choice_lists_choices) { refused(VALID_DATA VALID_ALGO "weak.criterion = best\n", 5, "one of max|l2"); }
Test(config, engine_value_out_of_range) { refused(VALID_DATA VALID_ALGO "shrinkage = 1.5\n", 5, "out of range"); }
Test(config, missing_data_file) { refused("[data tiny]\nfile = nothere.csv\n" VALID_ALGO, 2, "not found"); }
Test(config, duplicate_section) { refused(VALID_DATA VALID_ALGO VALID_DATA, 5, "appears twice (first at line 1)"); }
Test(config, duplicate_key) { refused(VALID_DATA "file = tiny.csv\n" VALID_ALGO, 3, "set twice"); }
Test(config, syntax_error) { refused(VALID_DATA "this is not ini\n" VALID_ALGO, 3, "syntax error"); }
Test(config, key_outside_section) { refused("seed = 1\n" VALID_DATA VALID_ALGO, 1, "outside any [section]"); }
Test(config, missing_plugin_in_algorithm) { refused(VALID_DATA "[algorithm a]\nloss = margin-exp\n", 3, "no weak plugin"); }
Test(config, unknown_recipe) { refused(VALID_DATA "[algorithm a]\nrecipe = nosuch\n", 4, "no recipe named 'nosuch'"); }
Test(config, split_needs_its_key) { refused("[data tiny]\nfile = tiny.csv\nsplit = first\n" VALID_ALGO, 1, "needs 'first = N'"); }
Test(config, key_of_other_split) { refused("[data tiny]\nfile = tiny.csv\nper_class = 5\n" VALID_ALGO, 3, "only applies to split = per-class"); }
Test(config, bad_split_name) { refused("[data tiny]\nfile = tiny.csv\nsplit = random\n" VALID_ALGO, 3, "given|first|ratio|per-class|kfold"); }
Test(config, project_scale_needs_inputs) { refused(VALID_DATA "[algorithm a]\nrecipe = rboost-proj\nproject_scale = none\n", 5, "project_scale applies to projected inputs only"); }
Test(config, project_scale_choice) { refused(VALID_DATA "[algorithm a]\nrecipe = rboost-rank\nproject_scale = raw\n", 5, "expected minmax, zscore or none"); }
Test(config, folds_only_with_kfold) { refused("[data tiny]\nfile = tiny.csv\nfolds = 5\n" VALID_ALGO, 3, "'folds' only applies to split = kfold"); }
Test(config, kfold_refuses_test_ratio) { refused("[data tiny]\nfile = tiny.csv\nsplit = kfold\ntest_ratio = 0.2\n" VALID_ALGO, 4, "'test_ratio' only applies"); }
Test(config, folds_range) { refused("[data tiny]\nfile = tiny.csv\nsplit = kfold\nfolds = 1\n" VALID_ALGO, 4, "folds:"); }
Test(config, bad_section_name) { refused("[data a/b]\nfile = tiny.csv\n" VALID_ALGO, 1, "not a valid name"); }

Test(config, needs_data_and_algorithm)
{
    bl_experiment ex;
    bl_error err;
    const char *p = write_ini(VALID_DATA);
    cr_assert_eq(bl_experiment_load(p, &reg, &ex, &err), -1);
    cr_assert(strstr(err.msg, "at least one [data NAME] and one [algorithm NAME]"), "%s", err.msg);
}

Test(config, missing_file_is_an_error)
{
    bl_experiment ex;
    bl_error err;
    cr_assert_eq(bl_experiment_load("/nonexistent/x.ini", &reg, &ex, &err), -1);
    cr_assert(strstr(err.msg, "/nonexistent/x.ini"), "%s", err.msg);
}

Test(config, ini_keeps_line_numbers)
{
    bl_ini ini;
    bl_error err;
    const char *p = write_ini("; comment\n\n[a]\nx = 1 ; inline\n\n[b c]\ny = two words\n");
    cr_assert_eq(bl_ini_read(p, &ini, &err), 0, "%s", err.msg);
    cr_assert_eq(ini.nsec, 2);
    cr_assert_eq(ini.sec[0].line, 3);
    cr_assert_eq(ini.sec[0].e[0].line, 4);
    cr_assert_str_eq(ini.sec[0].e[0].value, "1");
    cr_assert_str_eq(ini.sec[1].name, "b c");
    cr_assert_str_eq(ini.sec[1].e[0].value, "two words");
    cr_assert_eq(ini.sec[1].e[0].line, 7);
    bl_ini_free(&ini);
}

Test(config, drop_key_is_kept_with_its_line)
{
    bl_experiment ex;
    bl_error err;
    const char *p = write_ini(VALID_DATA "drop = a\n" VALID_ALGO);
    cr_assert_eq(bl_experiment_load(p, &reg, &ex, &err), 0, "%s", err.msg);
    cr_assert_str_eq(ex.data[0].drop, "a");
    char loc[700];
    snprintf(loc, sizeof loc, "%s:3", p);
    cr_assert_str_eq(ex.data[0].drop_where, loc);
    bl_experiment_free(&ex);
}

/* Recipes cannot include recipes, so there are no include cycles. */
Test(config, recipe_cannot_name_a_recipe)
{
    char cfg[700], rec[800];
    snprintf(cfg, sizeof cfg, "%s/configs", dir);
    cr_assert_eq(mkdir(cfg, 0755), 0);
    snprintf(rec, sizeof rec, "%s/loop.ini", cfg);
    FILE *f = fopen(rec, "w");
    fputs("[recipe]\nloss = margin-exp\nrecipe = loop\n", f);
    fclose(f);
    refused(VALID_DATA "[algorithm a]\nrecipe = loop\n", 4, "loop.ini:3: a recipe cannot name another recipe");
}

/* ---- sweeps ----------------------------------------------------------- */

Test(config, sweep_expands_cartesian_product_in_file_order)
{
    bl_experiment ex;
    bl_error err;
    const char *p = write_ini(VALID_DATA "split = per-class\nper_class = {1, 2}\n"
                              "[algorithm a]\nrecipe = mcboost-exp\nshrinkage = {0.1..0.3..0.1}\n"
                              "solver.max_iter = {10, 20}\n"
                              "[algorithm r]\nrecipe = {mcboost-exp, mcboost-log}\n");
    cr_assert_eq(bl_experiment_load(p, &reg, &ex, &err), 0, "%s", err.msg);
    cr_assert_eq(ex.ndata, 2);
    cr_assert_str_eq(ex.data[0].name, "tiny{per_class=1}");
    cr_assert_str_eq(ex.data[1].base, "tiny");
    cr_assert_str_eq(ex.data[1].sweep, "per_class=2");
    cr_assert_eq(ex.data[1].split.per_class, 2);
    cr_assert_eq(ex.nalgo, 3 * 2 + 2);
    cr_assert_str_eq(ex.algo[0].name, "a{shrinkage=0.1,solver.max_iter=10}");
    cr_assert_str_eq(ex.algo[1].name, "a{shrinkage=0.1,solver.max_iter=20}");
    cr_assert_str_eq(ex.algo[5].name, "a{shrinkage=0.3,solver.max_iter=20}");
    cr_assert_float_eq(ex.algo[5].boost.shrinkage, 0.3, 1e-12);
    cr_assert_eq(ex.algo[5].solver.v[bl_param_index(ex.algo[5].solver.plugin, "max_iter")].i, 20);
    cr_assert_str_eq(ex.algo[7].name, "r{recipe=mcboost-log}");
    cr_assert_str_eq(ex.algo[7].loss.plugin->name, "margin-log");
    cr_assert_null(ex.algo[6].iterations ? "x" : NULL);
    for (size_t i = 0; i < ex.nalgo; i++)
        for (size_t j = i + 1; j < ex.nalgo; j++)
            cr_assert_neq(bl_algo_hash(&ex.algo[i]), bl_algo_hash(&ex.algo[j]));
    cr_assert_neq(bl_data_hash(&ex.data[0]), bl_data_hash(&ex.data[1]));
    bl_experiment_free(&ex);
}

/* The resolved file names each grid point; reading it back gives the same
 * names and the same hashes, so a rerun from it finds its results. */
Test(config, resolved_grid_reads_back_identically)
{
    bl_experiment ex, back;
    bl_error err;
    const char *p = write_ini(VALID_DATA "keep_classes = 2\nclass_pick = random\n"
                              "[algorithm a]\nrecipe = mcboost-exp\nnu = {0, 1e-4}\n");
    cr_assert_eq(bl_experiment_load(p, &reg, &ex, &err), 0, "%s", err.msg);
    char out[700];
    snprintf(out, sizeof out, "%s/resolved.ini", dir);
    FILE *f = fopen(out, "w");
    bl_experiment_write(&ex, f);
    fclose(f);
    cr_assert_eq(bl_experiment_load(out, &reg, &back, &err), 0, "%s", err.msg);
    cr_assert_eq(back.nalgo, 2);
    for (size_t a = 0; a < 2; a++) {
        cr_assert_str_eq(back.algo[a].name, ex.algo[a].name);
        cr_assert_eq(bl_algo_hash(&back.algo[a]), bl_algo_hash(&ex.algo[a]));
    }
    cr_assert_str_eq(back.algo[1].name, "a{nu=1e-4}");
    cr_assert_eq(back.data[0].keep_classes, 2);
    cr_assert_eq(back.data[0].class_pick, BL_PICK_RANDOM);
    cr_assert_eq(bl_data_hash(&back.data[0]), bl_data_hash(&ex.data[0]));
    bl_experiment_free(&ex);
    bl_experiment_free(&back);
}

/* storage, when chosen, is part of the data's hash (results can depend on
 * it); auto is the same data as no key; repeats is not. */
Test(config, storage_in_data_hash)
{
    static const char *keys[] = {"", "storage = auto\nrepeats = 3\n", "storage = sparse\n",
                                 "storage = dense\n"};
    uint64_t h[4];
    for (int t = 0; t < 4; t++) {
        bl_experiment ex;
        bl_error err;
        char text[200];
        snprintf(text, sizeof text, VALID_DATA "%s" VALID_ALGO, keys[t]);
        cr_assert_eq(bl_experiment_load(write_ini(text), &reg, &ex, &err), 0, "%s", err.msg);
        h[t] = bl_data_hash(&ex.data[0]);
        bl_experiment_free(&ex);
    }
    cr_assert_eq(h[0], h[1]);
    cr_assert_neq(h[0], h[2]);
    cr_assert_neq(h[0], h[3]);
    cr_assert_neq(h[2], h[3]);
}

Test(config, sweep_empty) { refused(VALID_DATA "[algorithm a]\nrecipe = mcboost-exp\nnu = {}\n", 5, "empty sweep"); }
Test(config, sweep_unclosed) { refused(VALID_DATA "[algorithm a]\nrecipe = mcboost-exp\nnu = {1, 2\n", 5, "missing '}'"); }
Test(config, sweep_empty_item) { refused(VALID_DATA "[algorithm a]\nrecipe = mcboost-exp\nnu = {1,,2}\n", 5, "empty value"); }
Test(config, sweep_repeated_value) { refused(VALID_DATA "[algorithm a]\nrecipe = mcboost-exp\nnu = {1, 1}\n", 5, "appears twice"); }
Test(config, sweep_bad_range) { refused(VALID_DATA "[algorithm a]\nrecipe = mcboost-exp\nnu = {3..1}\n", 5, "is empty"); }
Test(config, sweep_zero_step) { refused(VALID_DATA "[algorithm a]\nrecipe = mcboost-exp\nnu = {1..3..0}\n", 5, "step must be positive"); }
Test(config, sweep_too_many) { refused(VALID_DATA "[algorithm a]\nrecipe = mcboost-exp\nnu = {1..1000000}\n", 5, "more than"); }
Test(config, sweep_value_error_names_the_line) { refused(VALID_DATA "[algorithm a]\nrecipe = mcboost-exp\nshrinkage = {0.5, 2}\n", 5, "out of range"); }
Test(config, sweep_value_not_a_name) { refused(VALID_DATA "[algorithm a]\nrecipe = mcboost-exp\ndoc = {a b, c}\n", 3, "to name the grid point"); }
Test(config, sweep_clash_with_point_name) { refused(VALID_DATA "[algorithm a{nu=0}]\nrecipe = mcboost-exp\n[algorithm a]\nrecipe = mcboost-exp\nnu = {0, 1}\n", 5, "already defined"); }
Test(config, keep_classes_bad) { refused(VALID_DATA "keep_classes = 1\n" VALID_ALGO, 3, "out of range"); }
Test(config, class_pick_bad) { refused(VALID_DATA "class_pick = some\n" VALID_ALGO, 3, "first|random"); }

/* ---- the engine's keys (engine/param.c) --------------------------------- */

/* Errors name FILE:LINE, the section and the key, and what was expected. */
Test(config, engine_key_errors)
{
    refused(VALID_DATA VALID_ALGO "rel_tol = 2\n", 5,
            "[algorithm a] rel_tol: 2 is out of range: expected a real in [0, 1]");
    refused(VALID_DATA VALID_ALGO "nu = -1\n", 5, "[algorithm a] nu: -1 is out of range");
    refused(VALID_DATA VALID_ALGO "eps = x\n", 5, "[algorithm a] eps: expected a real in [0, inf)");
    refused(VALID_DATA VALID_ALGO "loss_tol = inf\n", 5, "[algorithm a] loss_tol: expected a real");
    refused(VALID_DATA VALID_ALGO "nonneg = yes\n", 5,
            "[algorithm a] nonneg: expected true or false, got 'yes'");
    refused(VALID_DATA "[algorithm a]\nrecipe = rboost-rank\nproject = both\n", 5,
            "[algorithm a] project: expected inputs (RBoost-rank) or outputs (RBoost-proj), got 'both'");
}

/* The unknown-key list (which tests/cli/reference.sh holds ini.md to)
 * names every row of the table. */
Test(config, unknown_key_lists_engine_keys)
{
    for (size_t j = 0; j < bl_boost_nkeys; j++) {
        char what[64];
        snprintf(what, sizeof what, ", %s,", bl_boost_keys[j].spec.name);
        refused(VALID_DATA VALID_ALGO "nu_ = 1\n", 5, what);
    }
}

/* Engine keys sweep, are chosen by CV and are written back as set. */
Test(config, engine_keys_sweep_cv_and_write)
{
    bl_experiment ex;
    bl_error err;
    const char *p = write_ini(VALID_DATA "[algorithm a]\nrecipe = mcboost-exp\n"
                              "shrinkage = {0.5, 1}\nnonneg = false\nloss_tol = 0.01\n"
                              "cv.rel_tol = {1e-5, 1e-3}\n");
    cr_assert_eq(bl_experiment_load(p, &reg, &ex, &err), 0, "%s", err.msg);
    cr_assert_eq(ex.nalgo, 2);
    cr_assert_str_eq(ex.algo[0].name, "a{shrinkage=0.5}");
    cr_assert_eq(ex.algo[0].boost.shrinkage, 0.5);
    cr_assert_eq(ex.algo[0].boost.nonneg, 0);
    cr_assert_eq(ex.algo[0].ncv, 2);
    cr_assert_eq(ex.algo[0].cv[1].boost.rel_tol, 1e-3);
    cr_assert_eq(ex.algo[0].cv[1].boost.shrinkage, 0.5);
    cr_assert_eq(ex.algo[0].boost.rel_tol, -1, "rel_tol is unset outside the candidates");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    bl_algo_write(&ex.algo[0], f);
    fclose(f);
    cr_assert(strstr(buf, "\nshrinkage = 0.5\neps = 0\nnonneg = false\n"
                          "loss_tol = 0.01\n"),
              "%s", buf);
    cr_assert_null(strstr(buf, "\nrel_tol ="), "%s", buf);
    cr_assert(strstr(buf, "cv.rel_tol = {1e-5, 1e-3}\n"), "%s", buf);
    free(buf);
    bl_experiment_free(&ex);
}

/* ---- cross-validated hyper-parameters ---------------------------------- */

Test(config, cv_candidates_are_full_algorithms)
{
    bl_experiment ex;
    bl_error err;
    const char *p = write_ini(VALID_DATA "[algorithm a]\nrecipe = multiboost-log\n"
                              "cv.nu = {1e-6, 1e-4}\ncv.solver.max_iter = {20, 40}\ncv_folds = 3\n");
    cr_assert_eq(bl_experiment_load(p, &reg, &ex, &err), 0, "%s", err.msg);
    cr_assert_eq(ex.nalgo, 1, "cv.* must not sweep");
    const bl_algo_spec *a = &ex.algo[0];
    cr_assert_eq(a->ncv, 4);
    cr_assert_eq(a->cv_folds, 3);
    cr_assert_str_eq(a->cv_label[3], "nu=1e-4,solver.max_iter=40");
    cr_assert_float_eq(a->cv[3].boost.nu, 1e-4, 1e-18);
    cr_assert_eq(a->cv[3].solver.v[bl_param_index(a->cv[3].solver.plugin, "max_iter")].i, 40);
    cr_assert_str_eq(a->cv[0].loss.plugin->name, "margin-log");
    /* the candidates are part of the algorithm's identity */
    bl_experiment ex2;
    p = write_ini(VALID_DATA "[algorithm a]\nrecipe = multiboost-log\ncv.nu = {1e-6, 1e-3}\n");
    cr_assert_eq(bl_experiment_load(p, &reg, &ex2, &err), 0, "%s", err.msg);
    cr_assert_neq(bl_algo_hash(&ex.algo[0]), bl_algo_hash(&ex2.algo[0]));
    cr_assert_eq(ex2.algo[0].cv_folds, 5);
    bl_experiment_free(&ex);
    bl_experiment_free(&ex2);
}

/* cv_folds = 1 is a held-out validation third (StructBoost's protocol), and
 * a structured algorithm's C can be chosen that way */
Test(config, cv_holdout_structured)
{
    bl_experiment ex;
    bl_error err;
    const char *p = write_ini(VALID_DATA "[algorithm a]\nrecipe = structboost-stump\n"
                              "cv.C = {10, 100}\ncv_folds = 1\n");
    cr_assert_eq(bl_experiment_load(p, &reg, &ex, &err), 0, "%s", err.msg);
    const bl_algo_spec *a = &ex.algo[0];
    cr_assert_eq(a->cv_folds, 1);
    cr_assert_eq(a->ncv, 2);
    cr_assert_eq(a->cv[1].method, BL_METHOD_STRUCTBOOST);
    cr_assert_float_eq(a->cv[1].C, 100.0, 1e-12);
    bl_experiment_free(&ex);
}

Test(config, cv_needs_braces) { refused(VALID_DATA VALID_ALGO "cv.nu = 1e-4\n", 5, "candidates in braces"); }
Test(config, cv_not_recipe) { refused(VALID_DATA VALID_ALGO "cv.recipe = {mcboost-exp}\n", 5, "other than recipe"); }
Test(config, cv_folds_alone) { refused(VALID_DATA VALID_ALGO "cv_folds = 3\n", 5, "only with cv.KEY"); }
Test(config, cv_folds_range) { refused(VALID_DATA VALID_ALGO "cv.nu = {0, 1}\ncv_folds = 0\n", 6, "out of range"); }
Test(config, cv_bad_candidate) { refused(VALID_DATA VALID_ALGO "cv.shrinkage = {0.5, 3}\n", 5, "cross-validation candidate shrinkage=3"); }

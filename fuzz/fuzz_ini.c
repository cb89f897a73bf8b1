/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer harness for the INI layer (bl_ini_read over inih) and the
 * experiment loader on top of it (bl_experiment_load: sections, data and
 * algorithm keys, recipes from configs/, plugin parameters).  The input is
 * written as exp.ini into the private temporary directory, next to a few
 * empty data files (a.csv, b.svm, img, lab, x.classes) so that relative
 * paths in the seeds resolve and the fuzzer gets past the existence checks;
 * the loader only reads.  A file that bl_ini_read accepts must keep every
 * "key = value" line (none dropped silently); a loaded experiment must
 * have unique names, and
 * the resolved INI it writes (bl_experiment_write) must load again to the
 * same algorithms; a failed load must name the file.  The input is also
 * loaded as a recipe (configs/fuzz-recipe.ini beside the experiment, found
 * by bl_recipe_load as a recipe beside an experiment would be).
 */
#include <sys/stat.h>

#include "config/experiment.h"
#include "config/ini.h"
#include "fuzz_common.h"

static char path[300], resolved[300], recipe[300];

/* "key = value" lines of the input, counted independently of inih: lines
 * that are not blank, not comments and not section headers.  (A file that
 * reads without error has no other kind of line.) */
static size_t count_pairs(const uint8_t *data, size_t size)
{
    size_t n = 0, i = 0;
    if (size >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
        i = 3; /* UTF-8 byte order mark */
    while (i < size) {
        size_t eol = i;
        while (eol < size && data[eol] != '\n')
            eol++;
        size_t j = i;
        while (j < eol && (data[j] == ' ' || data[j] == '\t' || data[j] == '\r' ||
                           data[j] == '\v' || data[j] == '\f'))
            j++;
        if (j < eol && data[j] && !strchr(";#[", data[j]))
            n++;
        i = eol + 1;
    }
    return n;
}

static void check_ini(const bl_ini *ini, const uint8_t *data, size_t size)
{
    size_t pairs = 0;
    int last = 0;
    for (size_t j = 0; j < ini->nsec; j++) {
        const bl_ini_section *s = &ini->sec[j];
        if (!s->name || s->line <= last)
            abort();
        last = s->line;
        for (size_t k = 0; k < s->n; k++)
            if (!s->e[k].key || !s->e[k].value || s->e[k].line < s->line)
                abort();
        pairs += s->n;
    }
    if (pairs != count_pairs(data, size)) {
        fprintf(stderr, "bl_ini_read kept %zu keys of %zu\n", pairs, count_pairs(data, size));
        abort();
    }
}

static void check_unique(const bl_experiment *ex)
{
    for (size_t a = 0; a < ex->ndata; a++)
        for (size_t b = 0; b < a; b++)
            if (!strcmp(ex->data[a].name, ex->data[b].name)) {
                fprintf(stderr, "two data sets named '%s'\n", ex->data[a].name);
                abort();
            }
    for (size_t a = 0; a < ex->nalgo; a++)
        for (size_t b = 0; b < a; b++)
            if (!strcmp(ex->algo[a].name, ex->algo[b].name)) {
                fprintf(stderr, "two algorithms named '%s'\n", ex->algo[a].name);
                abort();
            }
}

static void setup(void)
{
    static const char *files[] = {"a.csv", "t.csv", "b.svm", "b.libsvm", "img", "lab",
                                  "timg", "tlab", "x.classes"};
    char p[300];
    for (size_t j = 0; j < sizeof files / sizeof *files; j++) {
        fuzz_path(p, sizeof p, files[j]);
        fuzz_write(p, (const uint8_t *)"", 0);
    }
    fuzz_path(path, sizeof path, "exp.ini");
    fuzz_path(resolved, sizeof resolved, "resolved.ini");
    fuzz_path(p, sizeof p, "configs");
    if (mkdir(p, 0700) < 0)
        abort();
    fuzz_path(recipe, sizeof recipe, "configs/fuzz-recipe.ini");
}

/* Removed before the directory (fuzz_cleanup does not recurse). */
static void remove_recipe(void)
{
    char p[300];
    unlink(recipe);
    fuzz_path(p, sizeof p, "configs");
    rmdir(p);
}

static void load_recipe(const uint8_t *data, size_t size, const bl_registry *reg)
{
    fuzz_write(recipe, data, size);
    bl_algo_spec a;
    bl_error err;
    if (bl_recipe_load("fuzz-recipe", fuzz_tmpdir(), reg, &a, &err) < 0) {
        fuzz_check_msg(&err, recipe, NULL);
        return;
    }
    if (a.loss.plugin && a.weak.plugin && a.solver.plugin)
        (void)bl_algo_hash(&a); /* writes every parameter */
    bl_algo_free(&a);
}

/* Load the plugins before fuzzing starts, so libFuzzer counts their
 * instrumented code as modules from the first input on. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_registry();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const bl_registry *reg = fuzz_registry();
    if (!path[0]) {
        setup();
        atexit(remove_recipe);
    }
    fuzz_write(path, data, size);
    load_recipe(data, size, reg);

    bl_error err;
    bl_ini ini;
    if (bl_ini_read(path, &ini, &err) == 0) {
        check_ini(&ini, data, size);
        bl_ini_free(&ini);
    } else {
        fuzz_check_msg(&err, path, NULL);
    }

    bl_experiment ex;
    if (bl_experiment_load(path, reg, &ex, &err) < 0) {
        fuzz_check_msg(&err, path, "/configs/"); /* or the recipe at fault */
        return 0;
    }
    check_unique(&ex);
    FILE *f = fopen(resolved, "w");
    if (!f)
        abort();
    bl_experiment_write(&ex, f);
    fclose(f);
    bl_experiment ex2;
    if (bl_experiment_load(resolved, reg, &ex2, &err) < 0) {
        fprintf(stderr, "the resolved experiment does not load: %s\n", err.msg);
        abort();
    }
    if (ex2.ndata != ex.ndata || ex2.nalgo != ex.nalgo)
        abort();
    for (size_t j = 0; j < ex.nalgo; j++)
        if (bl_algo_hash(&ex.algo[j]) != bl_algo_hash(&ex2.algo[j])) {
            fprintf(stderr, "algorithm %s changes when written and read back\n",
                    ex.algo[j].name);
            abort();
        }
    bl_experiment_free(&ex2);
    bl_experiment_free(&ex);
    return 0;
}

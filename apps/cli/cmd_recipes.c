/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `boostlab recipes [--experiment FILE] [NAME]`: the recipes an experiment's
 * `recipe = NAME` (or `train --recipe NAME`) can name, where each was found,
 * and one recipe's keys. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ini.h"
#include "config/recipes.h"
#include "util/fsutil.h"
#include "cli.h"

static const char recipes_help[] =
    "Usage: boostlab recipes [OPTIONS] [NAME]\n"
    "\n"
    "Without NAME, list the recipes folder by folder, in the order they are\n"
    "searched: one line per recipe with its name and doc.  A recipe marked\n"
    "'(hidden)' has the name of one found earlier, which is the one used.\n"
    "With NAME, print the file of the recipe that 'recipe = NAME' and\n"
    "'train --recipe NAME' use, and its keys as written.\n"
    "\n"
    "Recipes are searched in the folders of BOOSTLAB_CONFIG_PATH (separated\n"
    "by ':'), then in configs/ beside the experiment file and in its parents,\n"
    "then in ../share/boostlab/configs from the boostlab binary's folder (a\n"
    "moved install or an unpacked bundle), then in the source tree's and the\n"
    "installed configs/.\n"
    "\n"
    "Options:\n"
    "  -e, --experiment FILE  search as FILE's 'recipe = NAME' does: also in\n"
    "                         configs/ beside FILE and in its parents\n"
    "  -h, --help             this text\n";

static int list(const char *from)
{
    size_t n;
    bl_recipe_entry *r = bl_recipe_list(from, &n);
    if (!n) {
        char *dirs = bl_recipe_dirs_text(from, 2000);
        fprintf(stderr, "boostlab recipes: no recipes (searched: %s)\n", dirs);
        free(dirs);
        bl_recipe_list_free(r, n);
        return BL_EXIT_FAIL;
    }
    for (size_t j = 0; j < n; j++) {
        if (!j || strcmp(r[j].dir, r[j - 1].dir))
            printf("%s%s:\n", j ? "\n" : "", r[j].dir);
        printf("  %-20s %s%s%s\n", r[j].name, r[j].hidden ? "(hidden) " : "",
               r[j].problem ? "cannot be read: " : r[j].doc,
               r[j].problem ? r[j].problem : "");
    }
    bl_recipe_list_free(r, n);
    return BL_EXIT_OK;
}

static int show(const char *name, const char *from)
{
    char *path = bl_recipe_find(name, from);
    bl_error err;
    if (!path) {
        bl_recipe_not_found(name, from, &err);
        fprintf(stderr, "boostlab recipes: %s\n", err.msg);
        return BL_EXIT_FAIL;
    }
    bl_ini ini;
    if (bl_ini_read(path, &ini, &err) < 0) {
        free(path);
        return cli_fail(err.msg);
    }
    printf("%s\n  file: %s\n", name, path);
    for (size_t s = 0; s < ini.nsec; s++)
        for (size_t j = 0; j < ini.sec[s].n; j++)
            if (!strcmp(ini.sec[s].e[j].key, "doc"))
                printf("  %s\n", ini.sec[s].e[j].value);
    printf("\n");
    for (size_t s = 0; s < ini.nsec; s++)
        for (size_t j = 0; j < ini.sec[s].n; j++)
            if (strcmp(ini.sec[s].e[j].key, "doc"))
                printf("  %s = %s\n", ini.sec[s].e[j].key, ini.sec[s].e[j].value);
    printf("\nUse it in an experiment's [algorithm NAME] section as 'recipe = %s'; keys\n"
           "set there too override the recipe's.  'boostlab plugins NAME' shows a\n"
           "plugin's parameters.\n", name);
    bl_ini_free(&ini);
    free(path);
    return BL_EXIT_OK;
}

int cmd_recipes(int argc, char **argv)
{
    static const struct option opts[] = {{"experiment", required_argument, 0, 'e'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *experiment = NULL;
    int o;
    optind = 1;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":e:h", opts, NULL)) != -1) {
        switch (o) {
        case 'e': experiment = optarg; break;
        case 'h': fputs(recipes_help, stdout); return BL_EXIT_OK;
        case ':': return cli_usage("recipes", "an option is missing its value");
        default: {
            char msg[128];
            snprintf(msg, sizeof msg, "unknown option '%s'", argv[optind - 1]);
            return cli_usage("recipes", msg);
        }
        }
    }
    if (argc - optind > 1)
        return cli_usage("recipes", "expected at most one recipe NAME");
    if (experiment && !bl_file_exists(experiment)) {
        char msg[600];
        snprintf(msg, sizeof msg, "--experiment: no file '%s'", experiment);
        return cli_usage("recipes", msg);
    }
    /* an experiment's recipes are searched from its folder (experiment.c) */
    char *from = experiment ? bl_path_dir(experiment) : NULL;
    int rc = optind < argc ? show(argv[optind], from) : list(from);
    free(from);
    return rc;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* boostlab: entry point and subcommand dispatch. */
#include <stdio.h>
#include <string.h>

#include "../../config.h"
#include "cli.h"
#include "config/xgbparam.h"

static void usage(FILE *f)
{
    fputs("Usage: boostlab COMMAND [OPTIONS]\n"
          "\n"
          "Plugin-based multi-class and structured boosting.\n"
          "\n"
          "Commands:\n"
          "  run EXPERIMENT.ini     run an experiment grid (--jobs N, or under mpirun):\n"
          "                         progress on stderr, summary on stdout, every run in\n"
          "                         the output folder's results store; reruns resume\n"
          "  results DIR            list, filter and export the runs a results store holds\n"
          "  report DIR             tables, statistical tests and plots of an output folder,\n"
          "                         as one HTML page and a Markdown file\n"
          "  plugins [NAME]         list plugins, or show one plugin's parameters\n"
          "  recipes [NAME]         list the recipes and where each was found, or show\n"
          "                         one recipe's keys\n"
          "  check-plugin FILE.so   run a plugin's role contract on random problems\n"
          "  new ROLE NAME [DIR]    start a plugin from the template of its role\n"
          "  train                  train one model on a data file and save it\n"
          "  predict                predict with a saved model\n"
          "  synth NAME             write a RandomBoost toy data set (2-D Gaussians)\n"
          "  segment SUBCOMMAND     CRF segmentation data: make constructed images,\n"
          "                         prepare super-pixels and unaries, draw figures\n"
          "  track make|run|list    constructed tracking sequences; StructBoost and\n"
          "                         AdaBoost trackers on them\n"
          "\n"
          "Run 'boostlab COMMAND --help' for a command's options.\n"
          "Plugins are searched in the build tree or install directory, then in\n"
          "BOOSTLAB_PLUGIN_PATH; recipes in BOOSTLAB_CONFIG_PATH, configs/ and the\n"
          "installed configs.\n",
          f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return BL_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return BL_EXIT_OK;
    }
    if (!strcmp(cmd, "--version")) {
        printf("boostlab %s (plugin SDK %d.%d%s%s)\n", PACKAGE_VERSION, BL_SDK_MAJOR, BL_SDK_MINOR,
#ifdef HAVE_MPI
               ", MPI",
#else
               "",
#endif
               bl_have_xgboost ? ", XGBoost" : "");
        return BL_EXIT_OK;
    }
    if (!strcmp(cmd, "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "plugins"))
        return cmd_plugins(argc - 1, argv + 1);
    if (!strcmp(cmd, "recipes"))
        return cmd_recipes(argc - 1, argv + 1);
    if (!strcmp(cmd, "train"))
        return cmd_train(argc - 1, argv + 1);
    if (!strcmp(cmd, "predict"))
        return cmd_predict(argc - 1, argv + 1);
    if (!strcmp(cmd, "results"))
        return cmd_results(argc - 1, argv + 1);
    if (!strcmp(cmd, "report"))
        return cmd_report(argc - 1, argv + 1);
    if (!strcmp(cmd, "check-plugin"))
        return cmd_check(argc - 1, argv + 1);
    if (!strcmp(cmd, "new"))
        return cmd_new(argc - 1, argv + 1);
    if (!strcmp(cmd, "synth"))
        return cmd_synth(argc - 1, argv + 1);
    if (!strcmp(cmd, "segment"))
        return cmd_segment(argc - 1, argv + 1);
    if (!strcmp(cmd, "track"))
        return cmd_track(argc - 1, argv + 1);
    fprintf(stderr, "boostlab: unknown command '%s' (commands: run, results, report, plugins, "
            "recipes, check-plugin, new, train, predict, synth, segment, track)\n", cmd);
    return BL_EXIT_USAGE;
}

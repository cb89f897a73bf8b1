/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The boostlab command line: one function per subcommand, and the pieces
 * they share (plugin registry, data loading, option parsing help). */
#ifndef BL_CLI_CLI_H
#define BL_CLI_CLI_H

#include "config/experiment.h"
#include "data/dataset.h"
#include "plugin/loader.h"

/* Exit statuses. */
enum { BL_EXIT_OK = 0, BL_EXIT_FAIL = 1, BL_EXIT_USAGE = 2 };

int cmd_run(int argc, char **argv);
int cmd_plugins(int argc, char **argv);
int cmd_recipes(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_results(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_new(int argc, char **argv);
int cmd_synth(int argc, char **argv);
int cmd_segment(int argc, char **argv);
int cmd_track(int argc, char **argv);

/* Print "boostlab: MSG" on stderr; returns BL_EXIT_FAIL. */
int cli_fail(const char *msg);
int cli_usage(const char *cmd, const char *msg);
/* A whole number 0..max written in digits only (no sign, no blanks; base 0
 * also takes the hex seeds reports print).  -1 when it is not. */
int cli_parse_count(const char *s, int base, unsigned long long max, unsigned long long *out);

/* OMP_NUM_THREADS as a thread count (its first entry), 0 when unset; a
 * bad value is ignored with a warning.  The default where neither
 * --threads nor an experiment's threads says. */
int cli_env_threads(void);

/* Load the standard plugin registry or print why not. */
int cli_registry(bl_registry *reg);


/* Data spec for one file named on the command line (train, predict):
 * format "csv", "libsvm", "idx" or NULL (IDX with labels, else from the
 * name, else CSV); labels: the IDX labels file.  Returns NULL, or what is
 * wrong with the options (for cli_usage).  ds points into the arguments;
 * nothing to free. */
const char *cli_file_spec(const char *path, const char *format, const char *label,
                          const char *labels, bl_data_spec *ds);


#endif

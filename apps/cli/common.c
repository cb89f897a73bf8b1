/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Pieces shared by the subcommands (see cli.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exec/pool.h"

int cli_fail(const char *msg)
{
    fprintf(stderr, "boostlab: %s\n", msg);
    return BL_EXIT_FAIL;
}

int cli_usage(const char *cmd, const char *msg)
{
    fprintf(stderr, "boostlab %s: %s\nTry 'boostlab %s --help'.\n", cmd, msg, cmd);
    return BL_EXIT_USAGE;
}

int cli_env_threads(void)
{
    const char *bad;
    int n = bl_env_threads(&bad);
    if (bad)
        fprintf(stderr, "boostlab: warning: OMP_NUM_THREADS='%s' is not a thread count from 1 "
                "to 1024; ignored\n", bad);
    return n;
}

int cli_registry(bl_registry *reg)
{
    bl_error err;
    memset(reg, 0, sizeof *reg);
    if (bl_registry_load_std(reg, &err) < 0) {
        bl_registry_free(reg);
        return cli_fail(err.msg);
    }
    return 0;
}

const char *cli_file_spec(const char *path, const char *format, const char *label,
                          const char *labels, bl_data_spec *ds)
{
    memset(ds, 0, sizeof *ds);
    ds->file = (char *)path;
    ds->label = (char *)label;
    ds->labels = (char *)labels;
    if (!format)
        ds->format = labels ? BL_FMT_IDX : bl_format_of(path) ? bl_format_of(path) : BL_FMT_CSV;
    else if (!strcmp(format, "csv"))
        ds->format = BL_FMT_CSV;
    else if (!strcmp(format, "libsvm"))
        ds->format = BL_FMT_LIBSVM;
    else if (!strcmp(format, "idx"))
        ds->format = BL_FMT_IDX;
    else
        return "--format expects csv, libsvm or idx";
    if (ds->format == BL_FMT_IDX && !labels)
        return "IDX data needs --labels FILE (the IDX file of its labels)";
    if (ds->format != BL_FMT_IDX && labels)
        return "--labels (an IDX labels file) only applies to IDX data";
    if (label && ds->format != BL_FMT_CSV)
        return "--label (the label column) only applies to CSV data";
    return NULL;
}

int cli_parse_count(const char *s, int base, unsigned long long max, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-' || *s == '+' || *s == ' ' || *s == '\t')
        return -1;
    unsigned long long v = strtoull(s, &end, base);
    if (*end || errno || v > max)
        return -1;
    *out = v;
    return 0;
}

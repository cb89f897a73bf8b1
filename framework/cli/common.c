/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Pieces shared by the subcommands (see cli.h). */
#include <stdio.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli.h"

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

int cli_load_data(const bl_data_spec *d, bl_dataset *all, bl_dataset *test, bl_error *err)
{
    bl_classes cls;
    memset(&cls, 0, sizeof cls);
    memset(all, 0, sizeof *all);
    memset(test, 0, sizeof *test);
    if (d->classes && bl_read_class_names(d->classes, &cls, err) < 0)
        return -1;
    bl_csv_opts co = {d->label, 0};
    int rc;
    switch (d->format) {
    case BL_FMT_CSV: rc = bl_read_csv(d->file, &co, &cls, all, err); break;
    case BL_FMT_LIBSVM: rc = bl_read_libsvm(d->file, 0, &cls, all, err); break;
    default: rc = bl_read_idx(d->file, d->labels, &cls, all, err); break;
    }
    if (rc == 0 && d->test_file) {
        /* cls now holds the training file's table (from .classes or built
         * from its labels): the test file is read through it */
        switch (d->format) {
        case BL_FMT_CSV: rc = bl_read_csv(d->test_file, &co, &cls, test, err); break;
        case BL_FMT_LIBSVM: rc = bl_read_libsvm(d->test_file, all->d, &cls, test, err); break;
        default: rc = bl_read_idx(d->test_file, d->test_labels, &cls, test, err); break;
        }
        if (rc == 0 && test->d != all->d)
            rc = bl_errf(err, "%s has %zu features but %s has %zu", d->test_file, test->d,
                         d->file, all->d);
    }
    bl_classes_free(&cls);
    if (rc == 0 && d->drop) {
        rc = bl_dataset_drop_features(all, d->drop, err);
        if (rc == 0 && test->x)
            rc = bl_dataset_drop_features(test, d->drop, err);
        if (rc < 0)
            bl_errprefix(err, "%s: drop", d->drop_where);
    }
    if (rc < 0) {
        bl_dataset_free(all);
        bl_dataset_free(test);
    }
    return rc;
}

int cli_file_spec(const char *path, const char *format, const char *label, bl_data_spec *ds)
{
    memset(ds, 0, sizeof *ds);
    ds->file = (char *)path;
    ds->label = (char *)label;
    if (!format)
        ds->format = bl_format_of(path) ? bl_format_of(path) : BL_FMT_CSV;
    else if (!strcmp(format, "csv"))
        ds->format = BL_FMT_CSV;
    else if (!strcmp(format, "libsvm"))
        ds->format = BL_FMT_LIBSVM;
    else
        return -1;
    return 0;
}

void cli_set_threads(int n)
{
#ifdef _OPENMP
    if (n > 0)
        omp_set_num_threads(n);
    bl_host_api.threads = omp_get_max_threads();
#else
    (void)n;
    bl_host_api.threads = 1;
#endif
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer harness for the CSV reader (bl_read_csv, and through it the
 * line reader, gzip detection and the label collector).  Each input is
 * read four ways: default options building a class table; the same file
 * again through the table it built (what a test file goes through, which
 * must then succeed too); a fixed .classes-style table with the label
 * chosen by index; and ';' as the delimiter.  The input is also read as a
 * .classes file (bl_read_class_names), and a table read that way is used
 * to read it as CSV.  A successful read must give a consistent data set; a
 * failed one a message naming the file.
 */
#include <math.h>

#include "data/dataset.h"
#include "fuzz_common.h"

static char path[300];

/* Invariants of a data set a reader returned. */
static void check_dataset(const bl_dataset *ds, size_t k_want)
{
    if (ds->m == 0 || ds->d == 0 || ds->k == 0 || !ds->x || !ds->y)
        abort();
    if (k_want && ds->k != k_want)
        abort();
    for (size_t i = 0; i < ds->m; i++)
        if (ds->y[i] < 0 || (size_t)ds->y[i] >= ds->k)
            abort();
    for (size_t j = 0; j < ds->d; j++)
        if (!ds->feature_names[j])
            abort();
    for (size_t c = 0; c < ds->k; c++)
        if (!ds->class_names[c])
            abort();
    /* Touch every value so ASan sees the whole matrix was allocated. */
    volatile float sink = 0;
    for (size_t e = 0; e < ds->m * ds->d; e++)
        if (!isnan(ds->x[e]))
            sink += ds->x[e];
    (void)sink;
}

static void read_one(const bl_csv_opts *opts, bl_classes *classes, size_t k_want, int must_pass)
{
    bl_dataset ds;
    bl_error err;
    if (bl_read_csv(path, opts, classes, &ds, &err) == 0) {
        check_dataset(&ds, k_want);
        bl_dataset_free(&ds);
    } else {
        if (must_pass) {
            fprintf(stderr, "second read failed: %s\n", err.msg);
            abort();
        }
        fuzz_check_msg(&err, path, NULL);
        if (ds.x || ds.y || ds.m) /* *out is left empty on error */
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0])
        fuzz_path(path, sizeof path, "input.csv");
    fuzz_write(path, data, size);

    /* Default options; a built table, then read again through it. */
    bl_classes built = {0};
    bl_dataset ds;
    bl_error err;
    if (bl_read_csv(path, NULL, &built, &ds, &err) == 0) {
        check_dataset(&ds, 0);
        if (built.fixed != BL_CLASSES_BUILT || built.k != ds.k)
            abort();
        bl_dataset_free(&ds);
        read_one(NULL, &built, built.k, 1);
        bl_classes_free(&built);
    } else {
        fuzz_check_msg(&err, path, NULL);
        if (built.k || built.names)
            abort();
    }

    /* A fixed table as read from a .classes file. */
    char *names[] = {"a", "b", "2", "setosa"};
    bl_classes fixed = {4, names, BL_CLASSES_FILE};
    bl_csv_opts o1 = {"1", 0, 0, NULL, 0};
    read_one(&o1, &fixed, 4, 0);
    /* Negative class names: labels are matched as names. */
    char *pm[] = {"-1", "1"};
    bl_classes pm1 = {2, pm, BL_CLASSES_FILE};
    read_one(NULL, &pm1, 2, 0);

    bl_csv_opts o2 = {"label", ';', 0, NULL, 0};
    read_one(&o2, NULL, 0, 0);

    bl_classes cls;
    if (bl_read_class_names(path, &cls, &err) == 0) {
        if (cls.fixed != BL_CLASSES_FILE || !cls.k)
            abort();
        for (size_t a = 0; a < cls.k; a++)
            for (size_t b = 0; b < a; b++)
                if (!*cls.names[a] || !strcmp(cls.names[a], cls.names[b]))
                    abort(); /* names are non-empty and unique */
        read_one(NULL, &cls, cls.k, 0);
        bl_classes_free(&cls);
    } else {
        fuzz_check_msg(&err, path, NULL);
    }
    return 0;
}

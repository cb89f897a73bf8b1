/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer harness for the LIBSVM/SVMlight reader (bl_read_libsvm).  Each
 * input is read with d_hint 0 building a class table, then again through
 * that table with d_hint = the number of features found (a test file read
 * against its training file: it must succeed too), and with d_hint 5 and a
 * fixed table.  A successful read must give a consistent data set; a
 * failed one a message naming the file.
 *
 * One token such as "1:10000000" makes a dense matrix of ten million
 * columns (and as many feature names), by design (indices up to 1e7, at
 * most 2^31 values): the d_hint 0 read is skipped for inputs that would
 * expand beyond 2^24 values or 2^20 features, which would only measure
 * the allocator.  The d_hint 5 read refuses such indices early and runs
 * on every input.
 */
#include <math.h>
#include <zlib.h>

#include "data/dataset.h"
#include "fuzz_common.h"

static char path[300];

/* Would reading with d_hint 0 expand to a huge matrix?  Scans the file as
 * the reader sees it (gzip or plain) for "digits:" tokens and counts lines. */
static int too_dense(void)
{
    gzFile gz = gzopen(path, "rb");
    if (!gz)
        return 0;
    char buf[65536];
    uint64_t v = 0, dmax = 0, rows = 1;
    int in_digits = 0, n;
    while ((n = gzread(gz, buf, sizeof buf)) > 0)
        for (int j = 0; j < n; j++) {
            char c = buf[j];
            if (c >= '0' && c <= '9') {
                v = in_digits ? (v > 1000000000 ? v : v * 10 + (uint64_t)(c - '0'))
                              : (uint64_t)(c - '0');
                in_digits = 1;
                continue;
            }
            if (c == ':' && in_digits && v > dmax)
                dmax = v;
            if (c == '\n')
                rows++;
            in_digits = 0;
        }
    gzclose(gz);
    return dmax > ((uint64_t)1 << 20) || dmax * rows > ((uint64_t)1 << 24);
}

static void check_dataset(const bl_dataset *ds, size_t d_want, size_t k_want)
{
    if (ds->m == 0 || ds->d == 0 || ds->k == 0 || !ds->x || !ds->y)
        abort();
    if ((d_want && ds->d != d_want) || (k_want && ds->k != k_want))
        abort();
    for (size_t i = 0; i < ds->m; i++)
        if (ds->y[i] < 0 || (size_t)ds->y[i] >= ds->k)
            abort();
    for (size_t j = 0; j < ds->d; j++)
        if (!ds->feature_names[j])
            abort();
    /* Absent entries are 0, present ones finite: no NaN may appear.  (Not
     * scanned when one huge index makes the matrix big: too slow.) */
    for (size_t e = 0; ds->m * ds->d <= ((size_t)1 << 22) && e < ds->m * ds->d; e++)
        if (!isfinite(ds->x[e]))
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0])
        fuzz_path(path, sizeof path, "input.svm");
    fuzz_write(path, data, size);

    bl_classes built = {0};
    bl_dataset ds;
    bl_error err;
    if (too_dense()) {
        /* skipped, see above */
    } else if (bl_read_libsvm(path, 0, &built, &ds, &err) == 0) {
        check_dataset(&ds, 0, 0);
        size_t d = ds.d;
        bl_dataset_free(&ds);
        if (built.fixed != BL_CLASSES_BUILT || !built.k)
            abort();
        if (bl_read_libsvm(path, d, &built, &ds, &err) < 0) {
            fprintf(stderr, "second read failed: %s\n", err.msg);
            abort();
        }
        check_dataset(&ds, d, built.k);
        bl_dataset_free(&ds);
        bl_classes_free(&built);
    } else {
        fuzz_check_msg(&err, path, NULL);
        if (built.k || ds.x || ds.y)
            abort();
    }

    char *names[] = {"-1", "1", "x"};
    bl_classes fixed = {3, names, BL_CLASSES_FILE};
    if (bl_read_libsvm(path, 5, &fixed, &ds, &err) == 0) {
        check_dataset(&ds, 5, 3);
        bl_dataset_free(&ds);
    } else {
        fuzz_check_msg(&err, path, NULL);
    }
    return 0;
}

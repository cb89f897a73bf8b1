/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer harness for the IDX reader (bl_read_idx), which takes two
 * files.  Input layout: byte 0 is the length L of the labels file, bytes
 * 1..L are the labels file and the rest is the images file (either may be
 * gzip-compressed; zlib tells by the content).  Both are read without a
 * class table and then with a fixed one.  A successful read must give a
 * consistent data set; a failed one a message naming one of the files.
 */
#include <math.h>

#include "data/dataset.h"
#include "fuzz_common.h"

static char images[300], labels[300];

static void check_dataset(const bl_dataset *ds, size_t k_want)
{
    if (ds->m == 0 || ds->d == 0 || ds->k == 0 || !ds->x || !ds->y)
        abort();
    if (k_want && ds->k != k_want)
        abort();
    for (size_t i = 0; i < ds->m; i++)
        if (ds->y[i] < 0 || (size_t)ds->y[i] >= ds->k)
            abort();
    for (size_t e = 0; e < ds->m * ds->d; e++)
        if (!(ds->x[e] >= 0 && ds->x[e] <= 255))
            abort();
    for (size_t j = 0; j < ds->d; j++)
        if (!ds->feature_names[j])
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!images[0]) {
        fuzz_path(images, sizeof images, "images-idx3-ubyte");
        fuzz_path(labels, sizeof labels, "labels-idx1-ubyte");
    }
    if (size < 1)
        return 0;
    size_t nl = data[0] < size - 1 ? data[0] : size - 1;
    fuzz_write(labels, data + 1, nl);
    fuzz_write(images, data + 1 + nl, size - 1 - nl);

    bl_dataset ds;
    bl_error err;
    bl_classes built = {0};
    if (bl_read_idx(images, labels, &built, &ds, &err) == 0) {
        check_dataset(&ds, 0);
        if (built.fixed != BL_CLASSES_BUILT || built.k != ds.k)
            abort();
        bl_dataset_free(&ds);
        bl_classes_free(&built);
    } else {
        fuzz_check_msg(&err, images, labels);
        if (ds.x || ds.y || ds.m || built.k || built.names) /* nothing handed out */
            abort();
    }

    char *names[] = {"zero", "one", "2"};
    bl_classes fixed = {3, names, BL_CLASSES_FILE};
    if (bl_read_idx(images, labels, &fixed, &ds, &err) == 0) {
        check_dataset(&ds, 3);
        bl_dataset_free(&ds);
    } else {
        fuzz_check_msg(&err, images, labels);
    }
    return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of the data layer: the line reader, the CSV, LIBSVM and IDX
 * readers (good input, and every kind of bad input, checking that the
 * message names the file, the line and the column or token), .classes
 * files, subsets, quantization and train/test splits.  Fixtures live in
 * tests/data/{csv,libsvm,idx}; the binary ones are made by
 * tests/data/idx/make-fixtures.py. */
#include "testutil.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "data/dataset.h"
#include "data/quantize.h"
#include "data/split.h"
#include "util/textio.h"

#define TD(rel) BL_TEST_DATA "/" rel
#define FMNIST "/usr/share/datasets/fashion-mnist/"

static bl_error err;

/* Every string in the NULL-terminated list occurs in msg. */
static void check_msg(const char *msg, const char *const *parts)
{
    for (; *parts; parts++)
        cr_assert(strstr(msg, *parts), "error message\n  %s\nlacks\n  %s", msg, *parts);
}
#define ASSERT_MSG(...) check_msg(err.msg, (const char *const[]){__VA_ARGS__, NULL})

static bl_dataset ds;

static void read_csv_ok(const char *path, const char *label, bl_classes *c)
{
    bl_csv_opts o = {label, 0, 0, NULL, 0};
    int rc = bl_read_csv(path, &o, c, &ds, &err);
    cr_assert_eq(rc, 0, "%s: %s", path, err.msg);
}

static void read_csv_bad(const char *path, const char *label, bl_classes *c)
{
    bl_csv_opts o = {label, 0, 0, NULL, 0};
    err.msg[0] = 0;
    cr_assert_eq(bl_read_csv(path, &o, c, &ds, &err), -1, "%s read without error", path);
    cr_assert_eq(ds.m, 0);
    cr_assert_null(ds.x);
    cr_assert_null(ds.y);
}

static float X(const bl_dataset *d, size_t i, size_t f)
{
    return d->x[f * d->m + i];
}

/* ==== line reader ===================================================== */

Test(textio, crlf_and_line_numbers)
{
    bl_lines *r = bl_lines_open(TD("csv/crlf.csv"), &err);
    cr_assert_not_null(r, "%s", err.msg);
    char *line;
    size_t len;
    const char *want[] = {"label,f1,f2", "0,1,2", "1,3,4", "1,5,6"};
    for (size_t i = 0; i < 4; i++) {
        cr_assert_eq(bl_lines_next(r, &line, &len, &err), 1, "%s", err.msg);
        cr_assert_str_eq(line, want[i]);
        cr_assert_eq(len, strlen(want[i]));
        cr_assert_eq(bl_lines_lineno(r), i + 1);
    }
    cr_assert_eq(bl_lines_next(r, &line, &len, &err), 0);
    cr_assert_str_eq(bl_lines_path(r), TD("csv/crlf.csv"));
    bl_lines_close(r);
}

Test(textio, long_lines_and_no_final_newline)
{
    char path[] = "/tmp/bl_test_textio_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    size_t n = 3u << 20; /* longer than the reader's buffer */
    for (size_t i = 0; i < n; i++)
        fputc('a' + (int)(i % 26), f);
    fputs("\n\nshort\nlast", f);
    fclose(f);
    bl_lines *r = bl_lines_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    char *line;
    size_t len;
    cr_assert_eq(bl_lines_next(r, &line, &len, &err), 1, "%s", err.msg);
    cr_assert_eq(len, n);
    cr_assert_eq(strlen(line), n);
    cr_assert_eq(line[n - 1], 'a' + (int)((n - 1) % 26));
    cr_assert_eq(bl_lines_next(r, &line, &len, &err), 1);
    cr_assert_eq(len, 0);
    cr_assert_eq(bl_lines_next(r, &line, &len, &err), 1);
    cr_assert_str_eq(line, "short");
    cr_assert_eq(bl_lines_next(r, &line, &len, &err), 1);
    cr_assert_str_eq(line, "last");
    cr_assert_eq(bl_lines_lineno(r), 4);
    cr_assert_eq(bl_lines_next(r, &line, &len, &err), 0);
    bl_lines_close(r);
    unlink(path);
}

Test(textio, missing_file_and_directory)
{
    cr_assert_null(bl_lines_open(TD("csv/no-such-file.csv"), &err));
    ASSERT_MSG("csv/no-such-file.csv", "No such file");
    cr_assert_null(bl_lines_open(TD("csv"), &err));
    ASSERT_MSG("csv", "directory");
}

Test(textio, nul_byte)
{
    bl_lines *r = bl_lines_open(TD("csv/nul.csv"), &err);
    char *line;
    size_t len;
    int rc;
    while ((rc = bl_lines_next(r, &line, &len, &err)) == 1)
        ;
    cr_assert_eq(rc, -1);
    ASSERT_MSG("nul.csv:3: ", "NUL byte");
    bl_lines_close(r);
}

/* Read every line; returns the last status and counts the lines. */
static int drain(const char *path, size_t *nlines)
{
    bl_lines *r = bl_lines_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    char *line;
    size_t len;
    int rc;
    *nlines = 0;
    while ((rc = bl_lines_next(r, &line, &len, &err)) == 1)
        ++*nlines;
    bl_lines_close(r);
    return rc;
}

Test(textio, gzip_truncated_corrupt)
{
    size_t n;
    cr_assert_eq(drain(TD("csv/basic.csv.gz"), &n), 0, "%s", err.msg);
    cr_assert_eq(n, 6);
    /* Stream cut in the middle: the lines before the cut are returned, then
     * the error names the line that was cut. */
    cr_assert_eq(drain(TD("csv/truncated.csv.gz"), &n), -1);
    char want[64];
    snprintf(want, sizeof want, "truncated.csv.gz:%zu: ", n + 1);
    ASSERT_MSG(want, "truncated gzip stream");
    cr_assert(n > 10 && n < 501, "%zu lines", n);
    /* All data there, gzip trailer missing. */
    cr_assert_eq(drain(TD("csv/notrailer.csv.gz"), &n), -1);
    cr_assert_eq(n, 501);
    ASSERT_MSG("notrailer.csv.gz:502: ", "truncated gzip stream");
    cr_assert_eq(drain(TD("csv/corrupt.csv.gz"), &n), -1);
    ASSERT_MSG("corrupt.csv.gz:", "corrupt gzip");
    cr_assert_eq(drain(TD("csv/badcrc.csv.gz"), &n), -1);
    ASSERT_MSG("badcrc.csv.gz:", "corrupt gzip", "incorrect data check");
}

/* ==== CSV: good input ================================================= */

static void check_basic(void)
{
    cr_assert_eq(ds.m, 5);
    cr_assert_eq(ds.d, 3);
    cr_assert_eq(ds.k, 3);
    const int y[] = {0, 1, 2, 1, 0};
    for (size_t i = 0; i < 5; i++)
        cr_assert_eq(ds.y[i], y[i]);
    cr_assert_str_eq(ds.feature_names[0], "a");
    cr_assert_str_eq(ds.feature_names[2], "c");
    cr_assert_float_eq(X(&ds, 0, 0), 1.5f, 0);
    cr_assert_float_eq(X(&ds, 0, 2), -3.0f, 0);
    cr_assert_float_eq(X(&ds, 1, 0), 4.0f, 0);
    cr_assert(isnan(X(&ds, 1, 1)), "an empty field is missing (NaN)");
    cr_assert_float_eq(X(&ds, 1, 2), 600.0f, 0);
    cr_assert_float_eq(X(&ds, 3, 0), -0.25f, 0);
    cr_assert_float_eq(X(&ds, 3, 1), 1e-3f, 0);
    cr_assert_float_eq(X(&ds, 3, 2), 10.0f, 0);
    /* feature-major: column b is contiguous */
    cr_assert_float_eq(ds.x[1 * 5 + 2], 8.0f, 0);
    cr_assert_str_eq(ds.class_names[0], "0");
    cr_assert_str_eq(ds.class_names[2], "2");
}

Test(csv, basic_plain_and_gzip)
{
    read_csv_ok(TD("csv/basic.csv"), NULL, NULL);
    check_basic();
    bl_dataset_free(&ds);
    cr_assert_null(ds.x);
    read_csv_ok(TD("csv/basic.csv.gz"), NULL, NULL);
    check_basic();
    bl_dataset_free(&ds);
}

Test(csv, label_by_name_and_by_index)
{
    const char *sel[] = {"class", "2"};
    for (int t = 0; t < 2; t++) {
        read_csv_ok(TD("csv/words.csv"), sel[t], NULL);
        cr_assert_eq(ds.m, 4);
        cr_assert_eq(ds.d, 3);
        cr_assert_eq(ds.k, 3);
        cr_assert_str_eq(ds.class_names[0], "bird");
        cr_assert_str_eq(ds.class_names[1], "cat");
        cr_assert_str_eq(ds.class_names[2], "dog");
        const int y[] = {2, 1, 0, 1};
        for (size_t i = 0; i < 4; i++)
            cr_assert_eq(ds.y[i], y[i]);
        cr_assert_str_eq(ds.feature_names[2], "x3");
        cr_assert_float_eq(X(&ds, 2, 2), 9.0f, 0);
        bl_dataset_free(&ds);
    }
    /* No column named "label": column 0 is the label. */
    read_csv_ok(TD("csv/nolabel.csv"), NULL, NULL);
    cr_assert_eq(ds.m, 3, "the blank line is skipped");
    cr_assert_eq(ds.d, 2);
    cr_assert_eq(ds.k, 3, "labels 3, 1, 5 have gaps: numbered in sorted order");
    cr_assert_eq(ds.y[2], 2);
    cr_assert_str_eq(ds.class_names[2], "5");
    cr_assert_str_eq(ds.feature_names[0], "p");
    bl_dataset_free(&ds);
}

Test(csv, crlf_quotes_negative_labels)
{
    read_csv_ok(TD("csv/crlf.csv"), NULL, NULL);
    cr_assert_eq(ds.m, 3);
    cr_assert_eq(ds.d, 2);
    cr_assert_float_eq(X(&ds, 2, 1), 6.0f, 0);
    bl_dataset_free(&ds);

    read_csv_ok(TD("csv/quoted.csv"), NULL, NULL);
    cr_assert_str_eq(ds.feature_names[0], "the, first");
    cr_assert_str_eq(ds.feature_names[1], "x \"y\"");
    cr_assert_float_eq(X(&ds, 1, 0), 3.0f, 0);
    cr_assert_str_eq(ds.class_names[1], "b");
    bl_dataset_free(&ds);

    /* -1, +1, 1, -1.0: sorted numerically, +1 = 1 and -1.0 = -1 */
    read_csv_ok(TD("csv/neg.csv"), NULL, NULL);
    cr_assert_eq(ds.k, 2);
    cr_assert_str_eq(ds.class_names[0], "-1");
    cr_assert_str_eq(ds.class_names[1], "1");
    const int y[] = {0, 1, 1, 0};
    for (size_t i = 0; i < 4; i++)
        cr_assert_eq(ds.y[i], y[i]);
    bl_dataset_free(&ds);
}

Test(csv, built_table_is_reused)
{
    bl_classes c = {0};
    read_csv_ok(TD("csv/neg.csv"), NULL, &c);
    cr_assert_eq(c.k, 2);
    cr_assert_eq(c.fixed, BL_CLASSES_BUILT);
    bl_dataset_free(&ds);
    /* The same labels through the built table: matched by name/value. */
    read_csv_ok(TD("csv/neg.csv"), NULL, &c);
    cr_assert_eq(ds.y[0], 0);
    cr_assert_eq(ds.y[1], 1);
    bl_dataset_free(&ds);
    /* Labels -1, 0, 1: class 1 is "0".  Callers that mark the built table
     * fixed = 1 still get names matched (a negative name means the names
     * are values), not 0 read as index 0. */
    bl_classes c3 = {0};
    read_csv_ok(TD("csv/neg3.csv"), NULL, &c3);
    cr_assert_eq(ds.y[0], 1);
    bl_dataset_free(&ds);
    for (int fixed = BL_CLASSES_FILE; fixed <= BL_CLASSES_BUILT; fixed++) {
        c3.fixed = fixed;
        read_csv_ok(TD("csv/neg3.csv"), NULL, &c3);
        const int y3[] = {1, 0, 2, 1};
        for (size_t i = 0; i < 4; i++)
            cr_assert_eq(ds.y[i], y3[i], "fixed %d row %zu", fixed, i);
        bl_dataset_free(&ds);
    }
    bl_classes_free(&c3);
    /* A label the training file did not have. */
    read_csv_bad(TD("csv/basic.csv"), NULL, &c);
    ASSERT_MSG("basic.csv:2: column 1 (label): ", "unknown class '0'");
    bl_classes_free(&c);
    cr_assert_eq(c.k, 0);
}

Test(csv, classes_file_table)
{
    bl_classes c;
    cr_assert_eq(bl_read_class_names(TD("csv/three.classes"), &c, &err), 0, "%s", err.msg);
    cr_assert_eq(c.k, 3);
    cr_assert_eq(c.fixed, BL_CLASSES_FILE);
    cr_assert_str_eq(c.names[1], "two");
    /* integer labels are indices into the table */
    read_csv_ok(TD("csv/basic.csv"), NULL, &c);
    cr_assert_eq(ds.k, 3);
    cr_assert_str_eq(ds.class_names[2], "three");
    cr_assert_eq(ds.y[2], 2);
    bl_dataset_free(&ds);
    bl_classes_free(&c);

    /* numeric names (like glass.classes): labels are still indices */
    cr_assert_eq(bl_read_class_names(TD("csv/numeric.classes"), &c, &err), 0, "%s", err.msg);
    read_csv_ok(TD("csv/basic.csv"), NULL, &c);
    cr_assert_eq(ds.y[2], 2);
    cr_assert_str_eq(ds.class_names[0], "10");
    bl_dataset_free(&ds);
    read_csv_bad(TD("csv/neg.csv"), NULL, &c);
    ASSERT_MSG("neg.csv:2: column 1 (label): ", "unknown class '-1'");
    bl_classes_free(&c);

    /* names */
    cr_assert_eq(bl_read_class_names(TD("csv/ab.classes"), &c, &err), 0, "%s", err.msg);
    read_csv_bad(TD("csv/unknown_label.csv"), NULL, &c);
    ASSERT_MSG("unknown_label.csv:4: column 1 (label): ", "unknown class 'zebra'", "a, b");
    read_csv_bad(TD("csv/basic.csv"), NULL, &c);
    ASSERT_MSG("basic.csv:4: column 1 (label): ", "class index 2 out of range");
    bl_classes_free(&c);
}

Test(csv, vendored_sets_read)
{
    static const char *sets[] = {"iris", "glass", "letter", "dna"};
    for (size_t s = 0; s < 4; s++) {
        char path[512], cls[512];
        snprintf(path, sizeof path, "%s/data/%s.csv", BL_SOURCE_DIR, sets[s]);
        snprintf(cls, sizeof cls, "%s/data/%s.classes", BL_SOURCE_DIR, sets[s]);
        bl_classes c;
        cr_assert_eq(bl_read_class_names(cls, &c, &err), 0, "%s", err.msg);
        read_csv_ok(path, NULL, &c);
        cr_assert_eq(ds.k, c.k);
        bl_dataset_free(&ds);
        bl_classes_free(&c);
    }
}

/* ==== CSV: bad input ================================================== */

Test(csv, empty_and_header_only)
{
    read_csv_bad(TD("csv/empty.csv"), NULL, NULL);
    ASSERT_MSG("empty.csv: ", "empty file", "header");
    read_csv_bad(TD("csv/blank.csv"), NULL, NULL);
    ASSERT_MSG("blank.csv: ", "empty file");
    read_csv_bad(TD("csv/header_only.csv"), NULL, NULL);
    ASSERT_MSG("header_only.csv: ", "no data rows");
    read_csv_bad(TD("csv/only_label.csv"), NULL, NULL);
    ASSERT_MSG("only_label.csv:1: ", "only the label column");
    read_csv_bad(TD("csv/missing.csv"), NULL, NULL);
    ASSERT_MSG("missing.csv: ", "No such file");
}

Test(csv, ragged_rows)
{
    read_csv_bad(TD("csv/short_row.csv"), NULL, NULL);
    ASSERT_MSG("short_row.csv:3: column 4 (f3): expected a field", "3 fields",
               "header has 4 columns");
    read_csv_bad(TD("csv/long_row.csv"), NULL, NULL);
    ASSERT_MSG("long_row.csv:3: column 4: expected the end of the row", "'6'");
}

Test(csv, bad_numbers)
{
    read_csv_bad(TD("csv/nonnumeric.csv"), NULL, NULL);
    ASSERT_MSG("nonnumeric.csv:4: column 3 (f2): expected a number, got 'abc'");
    /* a word where a number belongs, in a file without a "label" column */
    read_csv_bad(TD("csv/words.csv"), NULL, NULL);
    ASSERT_MSG("words.csv:2: column 3 (class): expected a number, got 'dog'",
               "no column is named 'label', so column 1 'x1' was taken as the label");
    read_csv_bad(TD("csv/nan.csv"), NULL, NULL);
    ASSERT_MSG("nan.csv:2: column 3 (f2): expected a number", "got 'nan'", "empty field");
    read_csv_bad(TD("csv/inf.csv"), NULL, NULL);
    ASSERT_MSG("inf.csv:3: column 2 (f1): expected a number", "got '-inf'");
    read_csv_bad(TD("csv/overflow.csv"), NULL, NULL);
    ASSERT_MSG("overflow.csv:3: column 3 (f2): ", "out of range", "got '1e999'");
    read_csv_bad(TD("csv/overflow_float.csv"), NULL, NULL);
    ASSERT_MSG("overflow_float.csv:2: column 2 (f1): ", "out of range", "got '1e300'");
    read_csv_bad(TD("csv/denormal.csv"), NULL, NULL);
    ASSERT_MSG("denormal.csv:2: column 2 (a): ", "below the smallest normal float", "1e-40");
}

Test(csv, bad_header)
{
    read_csv_bad(TD("csv/dup.csv"), NULL, NULL);
    ASSERT_MSG("dup.csv:1: column 4 (f1): duplicate column name (also column 2)");
    read_csv_bad(TD("csv/empty_name.csv"), NULL, NULL);
    ASSERT_MSG("empty_name.csv:1: column 3: expected a column name");
    read_csv_bad(TD("csv/basic.csv"), "nosuch", NULL);
    ASSERT_MSG("basic.csv:1: ", "no column named 'nosuch'");
    read_csv_bad(TD("csv/basic.csv"), "4", NULL);
    ASSERT_MSG("basic.csv:1: ", "label column index 4 out of range", "4 columns");
}

Test(csv, bad_labels)
{
    read_csv_bad(TD("csv/missing_label.csv"), NULL, NULL);
    ASSERT_MSG("missing_label.csv:3: column 1 (label): expected a class label", "empty");
    read_csv_bad(TD("csv/frac_label.csv"), NULL, NULL);
    ASSERT_MSG("frac_label.csv:3: column 1 (label): expected an integer class label",
               "got '1.5'");
    /* labels with gaps are numbered in sorted order, keeping their values as names */
    read_csv_ok(TD("csv/bigclass.csv"), NULL, NULL);
    cr_assert_eq(ds.k, 2);
    cr_assert_str_eq(ds.class_names[1], "70000");
    cr_assert_eq(ds.y[1], 1);
    bl_dataset_free(&ds);
}

Test(csv, quoting_nul_gzip)
{
    read_csv_bad(TD("csv/unterminated.csv"), NULL, NULL);
    ASSERT_MSG("unterminated.csv:2: column 2 (f1): unterminated quoted field");
    read_csv_bad(TD("csv/nul.csv"), NULL, NULL);
    ASSERT_MSG("nul.csv:3: ", "NUL byte");
    read_csv_bad(TD("csv/truncated.csv.gz"), NULL, NULL);
    ASSERT_MSG("truncated.csv.gz:", "truncated gzip stream");
    read_csv_bad(TD("csv/notrailer.csv.gz"), NULL, NULL);
    ASSERT_MSG("notrailer.csv.gz:502: ", "truncated gzip stream");
    read_csv_bad(TD("csv/corrupt.csv.gz"), NULL, NULL);
    ASSERT_MSG("corrupt.csv.gz:", "corrupt gzip data at or after this line");
}

/* ==== .classes files ================================================== */

Test(classes, errors)
{
    bl_classes c;
    cr_assert_eq(bl_read_class_names(TD("csv/blank_middle.classes"), &c, &err), -1);
    ASSERT_MSG("blank_middle.classes:2: ", "empty class name");
    cr_assert_eq(bl_read_class_names(TD("csv/dup.classes"), &c, &err), -1);
    ASSERT_MSG("dup.classes:3: ", "duplicate class name 'one'", "line 1");
    cr_assert_eq(bl_read_class_names(TD("csv/none.classes"), &c, &err), -1);
    ASSERT_MSG("none.classes: ", "no class names");
    cr_assert_eq(bl_read_class_names(TD("csv/nothere.classes"), &c, &err), -1);
    ASSERT_MSG("nothere.classes: ", "No such file");
    cr_assert_eq(c.k, 0);
}

/* ==== LIBSVM ========================================================== */

static void check_good_svm(size_t d)
{
    cr_assert_eq(ds.m, 4);
    cr_assert_eq(ds.d, d);
    cr_assert_eq(ds.k, 2);
    cr_assert_str_eq(ds.class_names[0], "-1");
    cr_assert_str_eq(ds.class_names[1], "1");
    const int y[] = {1, 0, 0, 1};
    const float x[4][4] = {{0.5f, 0, -2, 0}, {0, 100, 0, 7}, {1, 2, 3, 4}, {0, 0, 0, 0.25f}};
    for (size_t i = 0; i < 4; i++) {
        cr_assert_eq(ds.y[i], y[i]);
        for (size_t f = 0; f < d; f++)
            cr_assert_float_eq(X(&ds, i, f), f < 4 ? x[i][f] : 0.0f, 0, "x[%zu][%zu]", i, f);
    }
    cr_assert_str_eq(ds.feature_names[0], "f1");
    cr_assert_str_eq(ds.feature_names[3], "f4");
}

Test(libsvm, good_plain_gzip_dhint)
{
    cr_assert_eq(bl_read_libsvm(TD("libsvm/good.svm"), 0, NULL, &ds, &err), 0, "%s", err.msg);
    check_good_svm(4);
    bl_dataset_free(&ds);
    cr_assert_eq(bl_read_libsvm(TD("libsvm/good.svm.gz"), 0, NULL, &ds, &err), 0, "%s",
                 err.msg);
    check_good_svm(4);
    bl_dataset_free(&ds);
    cr_assert_eq(bl_read_libsvm(TD("libsvm/good.svm"), 6, NULL, &ds, &err), 0, "%s", err.msg);
    check_good_svm(6);
    cr_assert_str_eq(ds.feature_names[5], "f6");
    bl_dataset_free(&ds);
}

Test(libsvm, labels_and_tables)
{
    bl_classes c = {0};
    cr_assert_eq(bl_read_libsvm(TD("libsvm/multi.svm"), 0, &c, &ds, &err), 0, "%s", err.msg);
    cr_assert_eq(ds.k, 3, "labels 1..3 are numbered 0..2: no empty class");
    cr_assert_str_eq(ds.class_names[0], "1");
    cr_assert_eq(ds.d, 5);
    cr_assert_eq(ds.y[2], 2);
    cr_assert_float_eq(X(&ds, 2, 4), 2.0f, 0);
    bl_dataset_free(&ds);
    bl_classes c2 = {0};
    cr_assert_eq(bl_read_libsvm(TD("libsvm/crlf.svm"), 0, &c2, &ds, &err), 0, "%s", err.msg);
    cr_assert_eq(ds.k, 2, "labels 0 and 1 are indices");
    cr_assert_eq(ds.y[1], 1);
    bl_dataset_free(&ds);
    bl_classes_free(&c2);
    cr_assert_eq(bl_read_libsvm(TD("libsvm/good.svm"), 0, &c, &ds, &err), -1);
    /* "+1" is label 1 of that table, "-1" on line 3 is unknown */
    ASSERT_MSG("good.svm:3: token 1 (the label): ", "unknown class '-1'");
    bl_classes_free(&c);
}

#define SVM_BAD(file, dh, ...)                                                         \
    do {                                                                               \
        cr_assert_eq(bl_read_libsvm(TD("libsvm/" file), dh, NULL, &ds, &err), -1,      \
                     file " read without error");                                      \
        cr_assert_null(ds.x);                                                          \
        ASSERT_MSG(__VA_ARGS__);                                                       \
    } while (0)

Test(libsvm, bad_indices)
{
    SVM_BAD("index0.svm", 0, "index0.svm:2: token 2 '0:1.5': ", ">= 1", "start at 1");
    SVM_BAD("negative.svm", 0, "negative.svm:1: token 3 '-3:1': ", "negative");
    SVM_BAD("unsorted.svm", 0, "unsorted.svm:2: token 4 '3:1': ", "after index 5",
            "increasing");
    SVM_BAD("duplicate.svm", 0, "duplicate.svm:1: token 4 '2:5': duplicate feature index 2");
    SVM_BAD("huge.svm", 0, "huge.svm:2: token 2 '20000000:1': ", "too large", "10000000");
    SVM_BAD("good.svm", 3, "good.svm:3: token 3 '4:7': ", "exceeds the number of features (3)");
    SVM_BAD("badindex.svm", 0, "badindex.svm:1: token 2 'x1:3': ", "expected a feature index");
    SVM_BAD("nocolon.svm", 0, "nocolon.svm:1: token 3 '7': expected INDEX:VALUE");
}

Test(libsvm, bad_values_labels_empty)
{
    SVM_BAD("badvalue.svm", 0, "badvalue.svm:2: token 2 '2:abc': expected a number",
            "got 'abc'");
    SVM_BAD("nanvalue.svm", 0, "nanvalue.svm:1: token 2 '1:nan': ", "nan");
    SVM_BAD("overflow.svm", 0, "overflow.svm:1: token 2 '1:1e39': ", "out of range");
    SVM_BAD("denormal.svm", 0, "denormal.svm:1: token 2 '1:1e-39': ", "below the smallest normal float");
    SVM_BAD("fraclabel.svm", 0, "fraclabel.svm:2: token 1 (the label): ", "got '2.5'");
    SVM_BAD("nolabel.svm", 0, "nolabel.svm:1: token 1 '1:1': expected a class label");
    SVM_BAD("empty.svm", 0, "empty.svm: no data rows");
    SVM_BAD("nosuch.svm", 0, "nosuch.svm: No such file");
}

/* ==== IDX ============================================================= */

static void check_small_idx(size_t d)
{
    cr_assert_eq(ds.m, 5);
    cr_assert_eq(ds.d, d);
    cr_assert_eq(ds.k, 3);
    const int y[] = {0, 2, 1, 2, 0};
    for (size_t i = 0; i < 5; i++) {
        cr_assert_eq(ds.y[i], y[i]);
        for (size_t f = 0; f < d; f++)
            cr_assert_float_eq(X(&ds, i, f), (float)(d == 6 ? 10 * i + f : 4 * i + f), 0);
    }
    cr_assert_str_eq(ds.feature_names[0], "px0");
    cr_assert_str_eq(ds.feature_names[d - 1], d == 6 ? "px5" : "px3");
}

Test(idx, good_plain_gzip_and_1d)
{
    cr_assert_eq(bl_read_idx(TD("idx/small-images-idx3-ubyte"),
                             TD("idx/small-labels-idx1-ubyte"), NULL, &ds, &err), 0, "%s",
                 err.msg);
    check_small_idx(6);
    bl_dataset_free(&ds);
    cr_assert_eq(bl_read_idx(TD("idx/small-images-idx3-ubyte.gz"),
                             TD("idx/small-labels-idx1-ubyte.gz"), NULL, &ds, &err), 0, "%s",
                 err.msg);
    check_small_idx(6);
    bl_dataset_free(&ds);
    cr_assert_eq(bl_read_idx(TD("idx/vec-images-idx2-ubyte"),
                             TD("idx/small-labels-idx1-ubyte"), NULL, &ds, &err), 0, "%s",
                 err.msg);
    check_small_idx(4);
    bl_dataset_free(&ds);
}

#define IDX_BAD(img, lab, cls, ...)                                                    \
    do {                                                                               \
        cr_assert_eq(bl_read_idx(TD("idx/" img), TD("idx/" lab), cls, &ds, &err), -1,  \
                     img " read without error");                                       \
        cr_assert_null(ds.x);                                                          \
        cr_assert_null(ds.y);                                                          \
        ASSERT_MSG(__VA_ARGS__);                                                       \
    } while (0)

Test(idx, bad_headers_and_sizes)
{
    IDX_BAD("float-images-idx3", "small-labels-idx1-ubyte", NULL, "float-images-idx3: ",
            "0x0d (float) is not supported");
    IDX_BAD("badmagic-images", "small-labels-idx1-ubyte", NULL, "badmagic-images: ",
            "not an IDX file");
    IDX_BAD("small-images-idx3-ubyte", "four-labels-idx1-ubyte", NULL,
            "small-images-idx3-ubyte: 5 images", "four-labels-idx1-ubyte has 4 labels");
    IDX_BAD("small-images-idx3-ubyte", "labels2d-idx2-ubyte", NULL,
            "labels2d-idx2-ubyte: expected an IDX label file", "0x00000802");
    IDX_BAD("small-labels-idx1-ubyte", "small-labels-idx1-ubyte", NULL,
            "small-labels-idx1-ubyte: expected an IDX image file", "0x00000801");
    IDX_BAD("small-images-idx3-ubyte", "small-images-idx3-ubyte", NULL,
            "small-images-idx3-ubyte: expected an IDX label file");
    IDX_BAD("nosuch", "small-labels-idx1-ubyte", NULL, "idx/nosuch: No such file");
}

Test(idx, truncated_and_trailing)
{
    IDX_BAD("truncated-images-idx3-ubyte", "small-labels-idx1-ubyte", NULL,
            "truncated-images-idx3-ubyte: truncated at byte offset 38", "inside image 3");
    IDX_BAD("trailing-images-idx3-ubyte", "small-labels-idx1-ubyte", NULL,
            "trailing-images-idx3-ubyte: unexpected data at byte offset 46");
    IDX_BAD("cut-images-idx3-ubyte.gz", "cut-labels-idx1-ubyte.gz", NULL,
            "cut-images-idx3-ubyte.gz: truncated gzip stream");
    IDX_BAD("notrailer-images-idx3-ubyte.gz", "cut-labels-idx1-ubyte.gz", NULL,
            "notrailer-images-idx3-ubyte.gz: truncated gzip stream", "after 156816 bytes");
    IDX_BAD("corrupt-images-idx3-ubyte.gz", "cut-labels-idx1-ubyte.gz", NULL,
            "corrupt-images-idx3-ubyte.gz: corrupt gzip data at or after byte offset");
    IDX_BAD("small-images-idx3-ubyte", "cut-images-idx3-ubyte.gz", NULL,
            "cut-images-idx3-ubyte.gz: expected an IDX label file");
}

Test(idx, label_values_and_tables)
{
    cr_assert_eq(bl_read_idx(TD("idx/small-images-idx3-ubyte"),
                             TD("idx/label200-labels-idx1-ubyte"), NULL, &ds, &err), 0, "%s",
                 err.msg);
    cr_assert_str_eq(ds.class_names[ds.y[2]], "200");
    cr_assert_eq(ds.y[2], (int)ds.k - 1, "the largest label is the last class");
    bl_dataset_free(&ds);
    bl_classes c;
    cr_assert_eq(bl_read_class_names(TD("csv/three.classes"), &c, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_read_idx(TD("idx/small-images-idx3-ubyte"),
                             TD("idx/small-labels-idx1-ubyte"), &c, &ds, &err), 0, "%s",
                 err.msg);
    cr_assert_str_eq(ds.class_names[2], "three");
    bl_dataset_free(&ds);
    IDX_BAD("small-images-idx3-ubyte", "label200-labels-idx1-ubyte", &c,
            "label200-labels-idx1-ubyte: item 2 ", "class index 200 out of range");
    bl_classes_free(&c);
}

Test(idx, fashion_mnist_t10k, .timeout = 60)
{
    if (access(FMNIST "t10k-images-idx3-ubyte.gz", R_OK) != 0 ||
        access(FMNIST "t10k-labels-idx1-ubyte.gz", R_OK) != 0)
        cr_skip("Fashion-MNIST not installed (Debian package dataset-fashion-mnist)");
    cr_assert_eq(bl_read_idx(FMNIST "t10k-images-idx3-ubyte.gz",
                             FMNIST "t10k-labels-idx1-ubyte.gz", NULL, &ds, &err), 0, "%s",
                 err.msg);
    cr_assert_eq(ds.m, 10000);
    cr_assert_eq(ds.d, 784);
    cr_assert_eq(ds.k, 10);
    size_t count[10] = {0};
    for (size_t i = 0; i < ds.m; i++) {
        cr_assert(ds.y[i] >= 0 && ds.y[i] <= 9);
        count[ds.y[i]]++;
    }
    for (int c = 0; c < 10; c++)
        cr_assert_eq(count[c], 1000, "class %d: %zu", c, count[c]);
    float lo = 255, hi = 0;
    for (size_t j = 0; j < ds.m * ds.d; j++) {
        lo = fminf(lo, ds.x[j]);
        hi = fmaxf(hi, ds.x[j]);
    }
    cr_assert_float_eq(lo, 0.0f, 0);
    cr_assert_float_eq(hi, 255.0f, 0);
    cr_assert_str_eq(ds.feature_names[783], "px783");
    bl_dataset_free(&ds);
}

/* ==== subsets ========================================================= */

Test(subset, copies_rows)
{
    read_csv_ok(TD("csv/basic.csv"), NULL, NULL);
    const size_t rows[] = {4, 1, 1};
    bl_dataset s;
    cr_assert_eq(bl_dataset_subset(&ds, rows, 3, &s, &err), 0, "%s", err.msg);
    cr_assert_eq(s.m, 3);
    cr_assert_eq(s.d, 3);
    cr_assert_eq(s.k, 3);
    for (size_t i = 0; i < 3; i++) {
        cr_assert_eq(s.y[i], ds.y[rows[i]]);
        for (size_t f = 0; f < 3; f++) {
            float a = X(&s, i, f), b = X(&ds, rows[i], f);
            cr_assert(a == b || (isnan(a) && isnan(b)));
        }
    }
    cr_assert_str_eq(s.feature_names[1], "b");
    cr_assert_neq(s.feature_names[1], ds.feature_names[1], "names are copies");
    cr_assert_str_eq(s.class_names[2], "2");
    bl_dataset_free(&s);
    const size_t bad[] = {0, 5};
    cr_assert_eq(bl_dataset_subset(&ds, bad, 2, &s, &err), -1);
    ASSERT_MSG("row index 5 out of range", "5 rows");
    cr_assert_eq(bl_dataset_subset(&ds, rows, 0, &s, &err), 0);
    cr_assert_eq(s.m, 0);
    bl_dataset_free(&s);
    bl_dataset_free(&ds);
}

/* ==== quantization ==================================================== */

/* A data set of m rows from feature-major values (labels all 0). */
static void make_ds(bl_dataset *d, size_t m, size_t nf, const float *x)
{
    memset(d, 0, sizeof *d);
    d->m = m;
    d->d = nf;
    d->k = 1;
    d->y = calloc(m ? m : 1, sizeof *d->y);
    d->x = malloc((m * nf + 1) * sizeof *d->x);
    memcpy(d->x, x, m * nf * sizeof *d->x);
}

/* The contract of struct bl_quantized on the data it was built from:
 * "x > cut[b]" iff "bin > b" for every value and every cut, cuts strictly
 * increasing, NaN in bin 0, at most max_bins bins. */
static void check_agreement(const bl_dataset *d, const bl_qview *q, int max_bins)
{
    cr_assert_eq(q->m, d->m);
    cr_assert_eq(q->d, d->d);
    for (size_t f = 0; f < d->d; f++) {
        size_t nb = q->nbins[f];
        cr_assert(nb >= 1 && nb <= (size_t)max_bins, "feature %zu: %zu bins", f, nb);
        for (size_t b = 0; b + 2 < nb; b++)
            cr_assert(q->cut[f][b] < q->cut[f][b + 1]);
        for (size_t i = 0; i < d->m; i++) {
            float v = d->x[f * d->m + i];
            unsigned bin = q->bins[f * d->m + i];
            cr_assert(bin < nb);
            if (isnan(v)) {
                cr_assert_eq(bin, 0);
                continue;
            }
            for (size_t b = 0; b + 1 < nb; b++)
                cr_assert_eq(v > q->cut[f][b], bin > b, "f %zu row %zu v %a cut[%zu] %a bin %u",
                             f, i, (double)v, b, (double)q->cut[f][b], bin);
        }
    }
}

Test(quantize, exact_when_few_values)
{
    const float x[] = {3, 1, 2, 3, 1, 1, 2.5f, 3};
    bl_dataset d;
    make_ds(&d, 8, 1, x);
    bl_qview q;
    cr_assert_eq(bl_quantize(&d, 8, &q, &err), 0, "%s", err.msg);
    cr_assert_eq(q.nbins[0], 4);
    const unsigned want[] = {3, 0, 1, 3, 0, 0, 2, 3};
    for (size_t i = 0; i < 8; i++)
        cr_assert_eq(q.bins[i], want[i]);
    cr_assert_float_eq(q.cut[0][0], 1.5f, 0);
    cr_assert_float_eq(q.cut[0][1], 2.25f, 0);
    cr_assert_float_eq(q.cut[0][2], 2.75f, 0);
    check_agreement(&d, &q, 8);
    bl_qview_free(&q);
    /* as many distinct values as bins: still one bin each */
    cr_assert_eq(bl_quantize(&d, 4, &q, &err), 0, "%s", err.msg);
    cr_assert_eq(q.nbins[0], 4);
    bl_qview_free(&q);
    bl_dataset_free(&d);
}

Test(quantize, equal_frequency_many_values)
{
    size_t m = 10000;
    float *x = malloc(2 * m * sizeof *x);
    uint64_t s = 12345;
    for (size_t i = 0; i < m; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = (float)((s >> 11) * 0x1.0p-53) * 100.0f - 50.0f;
        /* a heavy value: 30% of the rows are 0 */
        x[m + i] = (i % 10 < 3) ? 0.0f : (float)(i % 997);
    }
    bl_dataset d;
    make_ds(&d, m, 2, x);
    free(x);
    int sizes[] = {2, 16, 255, 256};
    for (int t = 0; t < 4; t++) {
        bl_qview q;
        cr_assert_eq(bl_quantize(&d, sizes[t], &q, &err), 0, "%s", err.msg);
        check_agreement(&d, &q, sizes[t]);
        cr_assert_eq(q.nbins[0], sizes[t], "continuous feature uses all %d bins", sizes[t]);
        size_t *cnt = calloc(256, sizeof *cnt);
        for (size_t i = 0; i < m; i++)
            cnt[q.bins[i]]++;
        double share = (double)m / sizes[t];
        for (int b = 0; b < sizes[t]; b++)
            cr_assert(cnt[b] > 0.5 * share && cnt[b] < 1.5 * share,
                      "%d bins: bin %d holds %zu rows, share %.1f", sizes[t], b, cnt[b], share);
        /* the heavy value 0 sits in one bin, which holds nothing else */
        unsigned b0 = q.bins[m + 0];
        for (size_t i = 0; i < m; i++)
            if (d.x[m + i] == 0.0f)
                cr_assert_eq(q.bins[m + i], b0);
        cr_assert(q.nbins[1] <= sizes[t]);
        free(cnt);
        bl_qview_free(&q);
    }
    bl_dataset_free(&d);
}

Test(quantize, tricky_floats)
{
    float a = 1.0f, b = nextafterf(1.0f, 2.0f);
    const float x[] = {a, b, a, b, -0.0f, 0.0f, FLT_MAX, -FLT_MAX, FLT_MIN, FLT_TRUE_MIN,
                       -FLT_TRUE_MIN, 1e30f, nextafterf(1e30f, 0), 16777216.0f, 16777218.0f, 3};
    size_t m = sizeof x / sizeof *x;
    bl_dataset d;
    make_ds(&d, m, 1, x);
    bl_qview q;
    for (int mb = 2; mb <= 256; mb *= 2) {
        cr_assert_eq(bl_quantize(&d, mb, &q, &err), 0, "%s", err.msg);
        check_agreement(&d, &q, mb);
        cr_assert_eq(q.bins[4], q.bins[5], "-0 and +0 are one value");
        if (mb >= 16) {
            cr_assert_neq(q.bins[0], q.bins[1], "adjacent floats in their own bins");
            cr_assert_eq(q.nbins[0], 13);
        }
        bl_qview_free(&q);
    }
    bl_dataset_free(&d);
}

Test(quantize, constant_nan_and_errors)
{
    const float x[] = {7, 7, 7, 7, NAN, 1, 2, NAN, NAN, NAN, NAN, NAN};
    bl_dataset d;
    make_ds(&d, 4, 3, x);
    bl_qview q;
    cr_assert_eq(bl_quantize(&d, 16, &q, &err), 0, "%s", err.msg);
    cr_assert_eq(q.nbins[0], 1, "constant feature: one bin");
    for (size_t i = 0; i < 4; i++)
        cr_assert_eq(q.bins[i], 0);
    cr_assert_eq(q.nbins[1], 2, "NaN is not a value");
    cr_assert_eq(q.bins[4], 0);
    cr_assert_eq(q.bins[5], 0);
    cr_assert_eq(q.bins[6], 1);
    cr_assert_eq(q.bins[7], 0, "NaN in bin 0");
    cr_assert_eq(q.nbins[2], 1, "all missing: one bin");
    check_agreement(&d, &q, 16);

    struct bl_train t;
    bl_train_view(&d, &q, &t);
    cr_assert_eq(t.m, 4);
    cr_assert_eq(t.d, 3);
    cr_assert_eq(t.k, 1);
    cr_assert_eq(t.y, d.y);
    cr_assert_eq(t.X.x, d.x);
    cr_assert_eq(t.Q.bins, q.bins);
    cr_assert_eq(t.Q.nbins, q.nbins);
    cr_assert_eq((const void *)t.Q.cut, (const void *)q.cut);
    bl_qview_free(&q);

    cr_assert_eq(bl_quantize(&d, 1, &q, &err), -1);
    ASSERT_MSG("max_bins", "2..256", "got 1");
    cr_assert_eq(bl_quantize(&d, 257, &q, &err), -1);
    ASSERT_MSG("got 257");
    bl_dataset_free(&d);
}

Test(quantize, independent_of_threads)
{
#ifndef _OPENMP
    cr_skip("built without OpenMP");
#else
    size_t m = 3000, nf = 40;
    float *x = malloc(m * nf * sizeof *x);
    uint64_t s = 99;
    for (size_t j = 0; j < m * nf; j++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x[j] = (j % 7 == 0) ? NAN : (float)((s >> 40) % (1 + j / m * 10));
    }
    bl_dataset d;
    make_ds(&d, m, nf, x);
    free(x);
    bl_qview q1, q4;
    omp_set_num_threads(1);
    cr_assert_eq(bl_quantize(&d, 32, &q1, &err), 0);
    omp_set_num_threads(4);
    cr_assert_eq(bl_quantize(&d, 32, &q4, &err), 0);
    cr_assert_eq(memcmp(q1.bins, q4.bins, m * nf), 0);
    for (size_t f = 0; f < nf; f++) {
        cr_assert_eq(q1.nbins[f], q4.nbins[f]);
        cr_assert_eq(memcmp(q1.cut[f], q4.cut[f], (q1.nbins[f] - 1) * sizeof(float)), 0);
    }
    check_agreement(&d, &q4, 32);
    bl_qview_free(&q1);
    bl_qview_free(&q4);
    bl_dataset_free(&d);
#endif
}

/* ==== splits ========================================================== */

/* Labels only: the splits look at nothing else.  Class sizes as given. */
static void make_labels(bl_dataset *d, const size_t *sizes, size_t k)
{
    memset(d, 0, sizeof *d);
    size_t m = 0;
    for (size_t c = 0; c < k; c++)
        m += sizes[c];
    d->m = m;
    d->k = k;
    d->y = malloc((m ? m : 1) * sizeof *d->y);
    size_t left[16];
    memcpy(left, sizes, k * sizeof *sizes);
    /* interleave the classes, so that order says nothing about class */
    for (size_t i = 0, c = 0; i < m; c = (c + 1) % k)
        if (left[c]) {
            left[c]--;
            d->y[i++] = (int)c;
        }
}

typedef struct parts {
    size_t *tr, *te, ntr, nte;
} parts;

static int do_split(const bl_dataset *d, bl_split_spec sp, uint64_t seed, parts *p)
{
    return bl_split(d, &sp, seed, 0, &p->tr, &p->ntr, &p->te, &p->nte, &err);
}

static void free_parts(parts *p)
{
    free(p->tr);
    free(p->te);
}

/* Ascending, disjoint, inside 0..m-1; per-class counts in ctr/cte. */
static void check_parts(const bl_dataset *d, const parts *p, size_t *ctr, size_t *cte)
{
    unsigned char *seen = calloc(d->m, 1);
    memset(ctr, 0, d->k * sizeof *ctr);
    memset(cte, 0, d->k * sizeof *cte);
    for (size_t j = 0; j < p->ntr; j++) {
        cr_assert(p->tr[j] < d->m);
        cr_assert(j == 0 || p->tr[j - 1] < p->tr[j], "train ascending");
        seen[p->tr[j]]++;
        ctr[d->y[p->tr[j]]]++;
    }
    for (size_t j = 0; j < p->nte; j++) {
        cr_assert(p->te[j] < d->m);
        cr_assert(j == 0 || p->te[j - 1] < p->te[j], "test ascending");
        cr_assert_eq(seen[p->te[j]], 0, "row %zu in both parts", p->te[j]);
        seen[p->te[j]]++;
        cte[d->y[p->te[j]]]++;
    }
    free(seen);
}

Test(split, ratio_stratified_and_covering)
{
    const size_t sizes[] = {500, 300, 200, 2, 1};
    bl_dataset d;
    make_labels(&d, sizes, 5);
    parts p;
    bl_split_spec sp = {.kind = BL_SPLIT_RATIO, .test_ratio = 0.75};
    cr_assert_eq(do_split(&d, sp, 42, &p), 0, "%s", err.msg);
    size_t ctr[5], cte[5];
    check_parts(&d, &p, ctr, cte);
    cr_assert_eq(p.ntr + p.nte, d.m, "every row in one part");
    const size_t want_te[] = {375, 225, 150, 1, 1};
    for (size_t c = 0; c < 5; c++) {
        cr_assert_eq(cte[c], want_te[c], "class %zu: %zu test rows", c, cte[c]);
        cr_assert_eq(ctr[c] + cte[c], sizes[c]);
    }
    cr_assert_eq(ctr[3], 1, "a class of 2 keeps a training row");
    free_parts(&p);
    bl_dataset_free(&d);
}

Test(split, deterministic_per_seed)
{
    const size_t sizes[] = {100, 60, 40};
    bl_dataset d;
    make_labels(&d, sizes, 3);
    bl_split_spec sp = {.kind = BL_SPLIT_RATIO, .test_ratio = 0.3};
    parts a, b, c, e;
    cr_assert_eq(do_split(&d, sp, 7, &a), 0);
    cr_assert_eq(do_split(&d, sp, 7, &b), 0);
    cr_assert_eq(do_split(&d, sp, 8, &c), 0);
    cr_assert_eq(do_split(&d, sp, 7 + (1ULL << 32), &e), 0);
    cr_assert_eq(a.nte, 60);
    cr_assert_eq(a.nte, b.nte);
    cr_assert_eq(memcmp(a.te, b.te, a.nte * sizeof *a.te), 0, "same seed, same split");
    cr_assert_eq(memcmp(a.tr, b.tr, a.ntr * sizeof *a.tr), 0);
    cr_assert_eq(c.nte, a.nte);
    cr_assert_neq(memcmp(a.te, c.te, a.nte * sizeof *a.te), 0, "seeds 7 and 8 differ");
    cr_assert_neq(memcmp(a.te, e.te, a.nte * sizeof *a.te), 0, "high seed bits count");
    free_parts(&a);
    free_parts(&b);
    free_parts(&c);
    free_parts(&e);
    bl_dataset_free(&d);
}

Test(split, per_class)
{
    const size_t sizes[] = {500, 300, 40};
    bl_dataset d;
    make_labels(&d, sizes, 3);
    bl_split_spec sp = {.kind = BL_SPLIT_PER_CLASS, .per_class = 100, .test_ratio = 0.5};
    parts p;
    cr_assert_eq(do_split(&d, sp, 3, &p), 0, "%s", err.msg);
    size_t ctr[3], cte[3];
    check_parts(&d, &p, ctr, cte);
    cr_assert_eq(ctr[0], 50);
    cr_assert_eq(cte[0], 50);
    cr_assert_eq(ctr[1], 50);
    cr_assert_eq(cte[1], 50);
    cr_assert_eq(ctr[2], 20, "a smaller class is used whole");
    cr_assert_eq(cte[2], 20);
    cr_assert_eq(p.ntr + p.nte, 240, "rows not drawn are in neither part");
    parts p2;
    cr_assert_eq(do_split(&d, sp, 4, &p2), 0);
    cr_assert_neq(memcmp(p.tr, p2.tr, p.ntr * sizeof *p.tr), 0);
    free_parts(&p);
    free_parts(&p2);
    bl_dataset_free(&d);
}

Test(split, first_and_given)
{
    const size_t sizes[] = {6, 4};
    bl_dataset d;
    make_labels(&d, sizes, 2);
    parts p;
    cr_assert_eq(do_split(&d, (bl_split_spec){.kind = BL_SPLIT_FIRST, .first = 7}, 1, &p), 0,
                 "%s", err.msg);
    cr_assert_eq(p.ntr, 7);
    cr_assert_eq(p.nte, 3);
    for (size_t j = 0; j < 7; j++)
        cr_assert_eq(p.tr[j], j);
    for (size_t j = 0; j < 3; j++)
        cr_assert_eq(p.te[j], 7 + j);
    free_parts(&p);
    cr_assert_eq(do_split(&d, (bl_split_spec){.kind = BL_SPLIT_GIVEN}, 1, &p), 0);
    cr_assert_eq(p.ntr, 10);
    cr_assert_eq(p.nte, 0);
    for (size_t j = 0; j < 10; j++)
        cr_assert_eq(p.tr[j], j);
    free_parts(&p);
    bl_dataset_free(&d);
}

#define SPLIT_BAD(dset, ...)                                                           \
    do {                                                                               \
        parts p_ = {0};                                                                \
        cr_assert_eq(do_split(dset, (bl_split_spec){__VA_ARGS__}, 1, &p_), -1);       \
        cr_assert_null(p_.tr);                                                         \
        cr_assert_null(p_.te);                                                         \
    } while (0)

/* The k folds of one seed: each a stratified test part, disjoint, covering
 * every row once; fold sizes within one of each other; per class within one
 * of n_c / k; another seed deals differently. */
Test(split, kfold_partition)
{
    const size_t sizes[] = {53, 31, 17, 3};
    enum { K = 10 };
    bl_dataset d;
    make_labels(&d, sizes, 4);
    bl_split_spec sp = {.kind = BL_SPLIT_KFOLD, .folds = K};
    unsigned char *tested = calloc(d.m, 1);
    size_t lo = d.m, hi = 0;
    for (size_t f = 0; f < K; f++) {
        parts p;
        cr_assert_eq(bl_split(&d, &sp, 11, f, &p.tr, &p.ntr, &p.te, &p.nte, &err), 0, "%s",
                     err.msg);
        size_t ctr[4], cte[4];
        check_parts(&d, &p, ctr, cte);
        cr_assert_eq(p.ntr + p.nte, d.m, "fold %zu: every row in one part", f);
        for (size_t j = 0; j < p.nte; j++)
            tested[p.te[j]]++;
        for (size_t c = 0; c < 4; c++)
            cr_assert(cte[c] * K <= sizes[c] + K && cte[c] * K + K >= sizes[c],
                      "fold %zu, class %zu: %zu test rows of %zu", f, c, cte[c], sizes[c]);
        lo = p.nte < lo ? p.nte : lo;
        hi = p.nte > hi ? p.nte : hi;
        if (f == 0) {
            parts q;
            cr_assert_eq(bl_split(&d, &sp, 12, 0, &q.tr, &q.ntr, &q.te, &q.nte, &err), 0);
            cr_assert(q.nte != p.nte || memcmp(q.te, p.te, p.nte * sizeof *p.te),
                      "seeds 11 and 12 give the same fold");
            free_parts(&q);
        }
        free_parts(&p);
    }
    for (size_t i = 0; i < d.m; i++)
        cr_assert_eq(tested[i], 1, "row %zu tested %d times over the folds", i, tested[i]);
    cr_assert(hi - lo <= 1, "fold sizes %zu to %zu", lo, hi);
    free(tested);
    bl_dataset_free(&d);
}

Test(split, errors)
{
    const size_t sizes[] = {6, 4};
    bl_dataset d;
    make_labels(&d, sizes, 2);
    SPLIT_BAD(&d, .kind = BL_SPLIT_FIRST, .first = 10);
    ASSERT_MSG("first = 10", "test part empty", "10 rows");
    SPLIT_BAD(&d, .kind = BL_SPLIT_FIRST, .first = 0);
    ASSERT_MSG("first = 0", "training part empty");
    SPLIT_BAD(&d, .kind = BL_SPLIT_RATIO, .test_ratio = 0);
    ASSERT_MSG("test_ratio must be in (0, 1), got 0");
    SPLIT_BAD(&d, .kind = BL_SPLIT_RATIO, .test_ratio = 1);
    ASSERT_MSG("test_ratio must be in (0, 1), got 1");
    SPLIT_BAD(&d, .kind = BL_SPLIT_RATIO, .test_ratio = NAN);
    ASSERT_MSG("test_ratio");
    SPLIT_BAD(&d, .kind = BL_SPLIT_RATIO, .test_ratio = 0.01);
    ASSERT_MSG("test part is empty");
    SPLIT_BAD(&d, .kind = BL_SPLIT_PER_CLASS, .per_class = 0, .test_ratio = 0.5);
    ASSERT_MSG("per_class must be at least 1");
    SPLIT_BAD(&d, .kind = BL_SPLIT_KFOLD, .folds = 1);
    ASSERT_MSG("folds must be at least 2, got 1");
    SPLIT_BAD(&d, .kind = BL_SPLIT_KFOLD, .folds = 11);
    ASSERT_MSG("11 folds need at least 11 rows", "has 10");
    {
        parts pf = {0};
        bl_split_spec five = {.kind = BL_SPLIT_KFOLD, .folds = 5};
        cr_assert_eq(bl_split(&d, &five, 1, 5, &pf.tr, &pf.ntr, &pf.te, &pf.nte, &err), -1);
        cr_assert_null(pf.tr);
        ASSERT_MSG("fold 5 of 5 does not exist");
    }
    SPLIT_BAD(&d, .kind = 99);
    ASSERT_MSG("unknown split kind 99");
    bl_dataset_free(&d);

    const size_t ones[] = {1, 1, 1};
    make_labels(&d, ones, 3);
    SPLIT_BAD(&d, .kind = BL_SPLIT_RATIO, .test_ratio = 0.6);
    ASSERT_MSG("training part is empty");
    bl_dataset_free(&d);

    make_labels(&d, ones, 0);
    SPLIT_BAD(&d, .kind = BL_SPLIT_GIVEN);
    ASSERT_MSG("no rows");
    bl_dataset_free(&d);
}

Test(dataset, drop_features)
{
    read_csv_ok(TD("csv/nolabel.csv"), NULL, NULL);
    float q0 = X(&ds, 0, 1);
    cr_assert_eq(bl_dataset_drop_features(&ds, "nope", &err), -1);
    cr_assert(strstr(err.msg, "no feature named 'nope'"), "%s", err.msg);
    cr_assert_eq(ds.d, 2, "a failed drop changes nothing");
    cr_assert_eq(bl_dataset_drop_features(&ds, " p ", &err), 0, "%s", err.msg);
    cr_assert_eq(ds.d, 1);
    cr_assert_str_eq(ds.feature_names[0], "q");
    cr_assert_float_eq(X(&ds, 0, 0), q0, 0);
    bl_dataset_free(&ds);
}

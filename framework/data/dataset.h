/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * In-memory data sets and the readers that fill them (CSV, LIBSVM/SVMlight,
 * IDX, each optionally gzip-compressed).  Features are kept feature-major
 * (x[f * m + i]) so one feature's column is contiguous, matching the SDK's
 * struct bl_matrix.
 */
#ifndef BL_DATA_DATASET_H
#define BL_DATA_DATASET_H

#include <stddef.h>
#include <stdint.h>

#include <boostlab/data.h>

#include "../util/error.h"

/* Sparse storage of a data set: the stored entries in rows (CSR) and in
 * columns (CSC), as the SDK's struct bl_sparse describes them; `view`
 * points into these arrays. */
typedef struct bl_spmat {
    size_t nnz;
    size_t *rptr;          /* m + 1 */
    uint32_t *rcol;
    float *rval;
    size_t *cptr;          /* d + 1 */
    uint32_t *crow;
    float *cval;
    struct bl_sparse view;
} bl_spmat;

typedef struct bl_dataset {
    size_t m, d, k;        /* examples, features, classes                 */
    int *y;                /* m labels in 0..k-1                          */
    float *x;              /* m*d feature-major; NaN = missing; NULL when
                              sparse                                      */
    char **feature_names;  /* d names, or NULL: feature f is "f<f+1>" (a
                              sparse LIBSVM set: a million features must
                              not cost a million strings)                 */
    char **class_names;    /* k names                                     */
    bl_spmat *sp;          /* sparse storage (x NULL), or NULL: dense     */
} bl_dataset;

/* How a data set is held ([data] storage): dense feature-major, sparse
 * (bl_spmat), or chosen by density (bl_storage_sparse_pays). */
enum { BL_STORAGE_AUTO = 0, BL_STORAGE_DENSE = 1, BL_STORAGE_SPARSE = 2 };
/* Whether auto storage holds nnz stored entries of an m x d set sparsely:
 * below BL_SPARSE_DENSITY stored entries per cell (see docs/experiments.md
 * for the measurement behind it). */
#define BL_SPARSE_DENSITY 0.1
int bl_storage_sparse_pays(size_t m, size_t d, size_t nnz);
/* "auto", "dense", "sparse" -> BL_STORAGE_*, or -1. */
int bl_storage_parse(const char *s);

/* Feature f's name: ds->feature_names[f], or "f<f+1>" written into buf. */
const char *bl_feature_name(char *const *names, size_t f, char buf[32]);

/* Take CSR arrays (rptr m+1, rcol/rval rptr[m] entries, 0-based columns
 * increasing within a row, all < d) and build the CSC half. */
bl_spmat *bl_spmat_from_csr(size_t m, size_t d, size_t *rptr, uint32_t *rcol, float *rval);
void bl_spmat_free(bl_spmat *s);
/* Hold ds sparsely / densely, in place (no-op when it already is).  Dense
 * -> sparse keeps every non-zero (NaN included: a stored missing value).
 * Densifying refuses more than 2^31 cells. */
int bl_dataset_sparsify(bl_dataset *ds, bl_error *err);
int bl_dataset_densify(bl_dataset *ds, bl_error *err);
/* A dense copy of src (sparse or dense) in out. */
int bl_dataset_dense_copy(const bl_dataset *src, bl_dataset *out, bl_error *err);
/* Bytes a dense copy of ds takes (x only). */
size_t bl_dataset_dense_bytes(const bl_dataset *ds);

/* Class table shared between the files of one data set, so that a test
 * file's labels map to the same indices as its training file's. */
typedef struct bl_classes {
    size_t k;
    char **names;
    int fixed;             /* nonzero: unknown labels are an error:
                              BL_CLASSES_FILE or BL_CLASSES_BUILT         */
} bl_classes;

/* Values of bl_classes.fixed.  The two kinds of table differ in how they
 * read integer labels:
 * - BL_CLASSES_FILE (from bl_read_class_names; also any other nonzero
 *   value): line i of the .classes file names class i, and data files hold
 *   either that index or the name.  A label written as an integer >= 0 is
 *   the 0-based class index (it must be < k, even if some name looks like a
 *   number: glass.classes names its classes 1,2,3,5,6,7 while glass.csv
 *   holds 0..5); any other label must equal a name.  Exception: when some
 *   class is named by a negative integer (e.g. "-1" and "1"), the names are
 *   label values rather than a list numbered from 0, and every label is
 *   matched as a name.
 * - BL_CLASSES_BUILT (what a reader returns when it built the table from a
 *   training file): labels are matched against the names only.
 * Numbers are matched by value ("+1", "1" and "1.0" are the same label). */
#define BL_CLASSES_FILE 1
#define BL_CLASSES_BUILT 2

/* Labels: surrounding whitespace and double quotes are stripped; an empty
 * label is an error.  A label that reads as a number must be an integer
 * (1.5 is an error, not a class; 1.0 and +1 are read as 1); anything else
 * (e.g. "setosa") is a class name.
 *
 * How labels become class indices when no fixed table is given: when the
 * labels are exactly the integers 0..k-1 they are the indices (names
 * "0".."k-1"); otherwise (gaps such as LIBSVM's 1..k, negative integers such
 * as -1/+1, or words) the distinct labels are sorted (numerically if all are
 * numbers, else by strcmp) and numbered, with the labels as class names.
 * So no class of a training file is ever empty.  Integer labels above 65535
 * with no table are refused. */

typedef struct bl_csv_opts {
    const char *label;     /* column name, or a 0-based index written as a
                              number; NULL = "label" if present, else 0   */
    char delim;            /* 0 = ',' */
    /* Unlabeled files (boostlab predict): no_label set means the file has no
     * label column, every column is a feature.  With label NULL, a header
     * without a "label" column whose columns are all among the nfeatures
     * names in `features` is read the same way (a model's features). */
    int no_label;
    char *const *features;
    size_t nfeatures;
} bl_csv_opts;

/* Readers.  On error they return -1 with err holding
 * "PATH:LINE: column N (NAME): expected ..., got '...'" and leave *out empty
 * (zeroed).  Columns are numbered from 1 in messages, like lines.
 * A file read without labels (see bl_csv_opts.no_label and
 * bl_read_libsvm_ex) gives k = 0, no class names and y[i] = -1.
 * `classes` may be NULL; if not NULL and fixed, labels are mapped through
 * it; if not NULL and not fixed, it receives the table that was built
 * (fixed = BL_CLASSES_BUILT, ready for the matching test file; it is
 * overwritten, not freed).
 *
 * CSV: a header line naming every column is required (names non-empty and
 * unique); blank lines are skipped; fields may be double-quoted ("" is a
 * quote inside quotes) and are stripped of surrounding blanks; "\r\n"
 * line ends are fine.  An empty feature field is a missing value (NaN);
 * "nan", "inf" and numbers beyond the float range are errors. */
int bl_read_csv(const char *path, const bl_csv_opts *opts, bl_classes *classes,
                bl_dataset *out, bl_error *err);
/* LIBSVM/SVMlight: "label idx:val ..." with increasing 1-based indices
 * (at most 10,000,000), '#' starts a comment, blank lines are skipped, an
 * SVMlight "qid:N" token is ignored.  Absent entries are 0 (not missing).
 * Feature f (0-based) is named "f<f+1>", after its index in the file.
 * d_hint: number of features to use (0 = the largest index seen); indices
 * above a nonzero d_hint are an error.  Held densely (bl_read_libsvm_opts
 * chooses). */
int bl_read_libsvm(const char *path, size_t d_hint, bl_classes *classes,
                   bl_dataset *out, bl_error *err);
/* The same, for files that may hold no labels (boostlab predict):
 * BL_LIBSVM_LABELED is bl_read_libsvm; BL_LIBSVM_UNLABELED: every row is
 * "idx:val ..." only; BL_LIBSVM_AUTO: the first data row decides (a first
 * token with ':' means unlabeled), and every row must then agree. */
enum { BL_LIBSVM_LABELED, BL_LIBSVM_UNLABELED, BL_LIBSVM_AUTO };
int bl_read_libsvm_ex(const char *path, size_t d_hint, int labels, bl_classes *classes,
                      bl_dataset *out, bl_error *err);
/* The general form.  Memory while reading is proportional to the stored
 * entries; a sparse result keeps it so (never m x d), and its feature
 * names are implied (feature_names NULL). */
typedef struct bl_libsvm_opts {
    size_t d_hint;         /* as above                                    */
    int labels;            /* BL_LIBSVM_*                                 */
    int storage;           /* BL_STORAGE_*                                */
    int ignore_beyond;     /* with d_hint: indices above it are dropped
                              (counted in *ignored) instead of refused    */
    size_t *ignored;       /* entries dropped so (may be NULL)            */
} bl_libsvm_opts;
int bl_read_libsvm_opts(const char *path, const bl_libsvm_opts *o, bl_classes *classes,
                        bl_dataset *out, bl_error *err);
/* IDX images (ubyte, any number of dimensions >= 1 after the count) and
 * labels (ubyte, one dimension).  Pixel values are kept as 0..255; feature
 * j is named "px<j>".  Labels are integer labels as above. */
int bl_read_idx(const char *images, const char *labels, bl_classes *classes,
                bl_dataset *out, bl_error *err);

/* Read a .classes file: one class name per line (blanks around it
 * stripped; names non-empty and unique; blank lines only at the end).
 * Gives a table with fixed = BL_CLASSES_FILE. */
int bl_read_class_names(const char *path, bl_classes *out, bl_error *err);

void bl_classes_free(bl_classes *c);
void bl_dataset_free(bl_dataset *ds);

/* Remove the features named in `names` (comma-separated) from ds, e.g. an
 * identifier column.  Unknown names are an error; ds is unchanged then.
 * On a sparse set the remaining features keep their names (written out). */
int bl_dataset_drop_features(bl_dataset *ds, const char *names, bl_error *err);

/* New data set holding rows[0..n) of src (copies; names copied too),
 * sparse when src is. */
int bl_dataset_subset(const bl_dataset *src, const size_t *rows, size_t n,
                      bl_dataset *out, bl_error *err);

/* New data set holding the rows of classes cls[0..n) of src (distinct,
 * each < src->k), relabelled 0..n-1 in that order. */
int bl_dataset_keep_classes(const bl_dataset *src, const size_t *cls, size_t n,
                            bl_dataset *out, bl_error *err);

/* ---- shared by the readers (dataset.c); not for other callers ---------- */

/* Label collector: maps label texts to class indices, through a fixed table
 * at once or, without one, to provisional ids renumbered by
 * bl_labels_finish.  Opaque. */
typedef struct bl_labels bl_labels;
bl_labels *bl_labels_new(const bl_classes *fixed_or_null);
/* Class index (fixed table) or provisional id of label text s (already
 * stripped) in *id; -1 with the bare reason in err (the caller prefixes
 * "PATH:LINE: ...").  where: the line (or item) number, kept for finish. */
int bl_labels_add(bl_labels *L, const char *s, size_t where, int *id, bl_error *err);
/* Turn the n provisional ids in y into class indices; fill ds->k and
 * ds->class_names, and *classes (if not NULL and not fixed).  On error
 * *bad_where is the `where` of the offending label's first occurrence. */
int bl_labels_finish(bl_labels *L, int *y, size_t n, bl_classes *classes,
                     bl_dataset *ds, size_t *bad_where, bl_error *err);
void bl_labels_free(bl_labels *L);
/* Sparse halves of bl_dataset_subset and bl_dataset_drop_features
 * (sparse.c): out->sp from rows[0..n) of src; ds keeps feature f as
 * map[f] ((size_t)-1: dropped), dnew features in all. */
void bl_spmat_subset(const bl_dataset *src, const size_t *rows, size_t n, bl_dataset *out);
void bl_spmat_keep_features(bl_dataset *ds, const size_t *map, size_t dnew);
/* Strip blanks (and a pair of surrounding double quotes) in place. */
char *bl_strip_field(char *s);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Running one job of an experiment grid (see job.h). */
#include "job.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../data/split.h"
#include "../data/transform.h"
#include "../plugin/loader.h"
#include "../util/clock.h"
#include "../util/fsutil.h"
#include "../util/rng.h"
#include "cv.h"
#include "method.h"

/* A LIBSVM file of data set d: its features (d->features, or the training
 * file's width `width` for a test file) with indices beyond them ignored
 * and counted in the log, held as `storage` says. */
static int read_libsvm(const bl_data_spec *d, const char *path, size_t width, int storage,
                       bl_classes *cls, bl_dataset *out, bl_error *err)
{
    size_t ign = 0;
    bl_libsvm_opts o = {width, BL_LIBSVM_LABELED, storage, width != 0, &ign};
    int rc = bl_read_libsvm_opts(path, &o, cls, out, err);
    if (rc == 0 && ign)
        bl_host_api.log(1, "data", "%s: %zu entries of features beyond %zu ignored (%s)", path,
                        ign, width, d->features ? "features = N" : "not in the training file");
    return rc;
}

/* The storage d asks for, for a CSV or IDX set that was read densely: they
 * turn sparse on request only. */
static int hold_as_asked(const bl_data_spec *d, bl_dataset *ds, bl_error *err)
{
    if (d->storage != BL_STORAGE_SPARSE || d->format == BL_FMT_LIBSVM)
        return 0;
    return bl_dataset_sparsify(ds, err);
}

int bl_load_data(const bl_data_spec *d, bl_dataset *all, bl_dataset *test, bl_error *err)
{
    bl_classes cls;
    memset(&cls, 0, sizeof cls);
    memset(all, 0, sizeof *all);
    memset(test, 0, sizeof *test);
    if (d->classes && bl_read_class_names(d->classes, &cls, err) < 0)
        return -1;
    bl_csv_opts co = {d->label, 0, 0, NULL, 0};
    int rc;
    switch (d->format) {
    case BL_FMT_CSV: rc = bl_read_csv(d->file, &co, &cls, all, err); break;
    case BL_FMT_LIBSVM:
        rc = read_libsvm(d, d->file, d->features, d->storage, &cls, all, err);
        break;
    default: rc = bl_read_idx(d->file, d->labels, &cls, all, err); break;
    }
    if (rc == 0 && d->test_file) {
        /* cls now holds the training file's table (from .classes or built
         * from its labels): the test file is read through it */
        switch (d->format) {
        case BL_FMT_CSV: rc = bl_read_csv(d->test_file, &co, &cls, test, err); break;
        case BL_FMT_LIBSVM: /* held as the training file is */
            rc = read_libsvm(d, d->test_file, all->d,
                             all->sp ? BL_STORAGE_SPARSE : BL_STORAGE_DENSE, &cls, test, err);
            break;
        default: rc = bl_read_idx(d->test_file, d->test_labels, &cls, test, err); break;
        }
        if (rc == 0 && test->d != all->d)
            rc = bl_errf(err, "%s has %zu features but %s has %zu", d->test_file, test->d,
                         d->file, all->d);
    }
    bl_classes_free(&cls);
    if (rc == 0)
        rc = hold_as_asked(d, all, err);
    if (rc == 0 && test->m)
        rc = hold_as_asked(d, test, err);
    if (rc == 0 && d->drop) {
        rc = bl_dataset_drop_features(all, d->drop, err);
        if (rc == 0 && test->m)
            rc = bl_dataset_drop_features(test, d->drop, err);
        if (rc < 0)
            bl_errprefix(err, "%s: drop", d->drop_where);
    }
    /* image transforms here, once per data set (the job cache keeps the
     * result for every repeat and algorithm); PCA per training part */
    if (rc == 0)
        rc = bl_transform_images(&d->tf, all, err);
    if (rc == 0 && test->m)
        rc = bl_transform_images(&d->tf, test, err);
    if (rc == 0 && d->tf.pca_dim > all->d)
        rc = bl_errf(err, "%s: pca: %zu components asked for but the data set has %zu features",
                     d->tf.where_pca, d->tf.pca_dim, all->d);
    if (rc < 0) {
        bl_dataset_free(all);
        bl_dataset_free(test);
    }
    return rc;
}

void bl_job_cache_init(bl_job_cache *c)
{
    memset(c, 0, sizeof *c);
    c->d = -1;
    c->sd = -1;
}

static void drop_repeat(bl_job_cache *c)
{
    if (!c->shared) {
        bl_dataset_free(&c->train);
        bl_dataset_free(&c->test);
    }
    memset(&c->train, 0, sizeof c->train);
    memset(&c->test, 0, sizeof c->test);
    c->shared = 0;
    bl_qview_free(&c->q);
    memset(&c->q, 0, sizeof c->q);
    c->sd = -1;
}

void bl_job_cache_free(bl_job_cache *c)
{
    drop_repeat(c);
    bl_dataset_free(&c->all);
    bl_dataset_free(&c->given_test);
    free(c->class_pick);
    bl_job_cache_init(c);
}

uint64_t bl_job_split_seed(const bl_experiment *ex, size_t d, int rep)
{
    return bl_seed_derive(ex->seed, ex->data[d].name, (uint64_t)rep);
}

char *bl_job_params(const bl_experiment *ex, const bl_job *j)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    bl_algo_write(&ex->algo[j->a], f);
    if (!ex->algo[j->a].iterations)
        fprintf(f, "iterations = %d\n", ex->iterations);
    fprintf(f, "max_bins = %d\n", ex->max_bins);
    fclose(f);
    return text;
}

void bl_job_key(const bl_experiment *ex, const bl_job *j, bl_run_key *key)
{
    key->experiment = ex->name;
    key->data = ex->data[j->d].name;
    key->data_hash = bl_data_hash(&ex->data[j->d]);
    key->algo = ex->algo[j->a].name;
    char *params = bl_job_params(ex, j);
    key->algo_hash = bl_hash64(params, strlen(params));
    free(params);
    key->split_seed = bl_job_split_seed(ex, j->d, j->rep);
    key->rep = j->rep;
}

void bl_job_label(const bl_experiment *ex, const bl_job *j, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s rep %d", ex->data[j->d].name, ex->algo[j->a].name, j->rep);
}

int bl_job_iterations(const bl_experiment *ex, const bl_job *j)
{
    int it = ex->algo[j->a].iterations;
    return it ? it : ex->iterations;
}

/* Every class must have training examples: a class the learners never see
 * cannot be predicted, and its test examples would silently count as
 * errors.  Names the class, the data set and how the split was made. */
static int check_classes(const bl_dataset *train, const bl_data_spec *ds, int rep, bl_error *err)
{
    size_t *count = bl_xcalloc(train->k, sizeof *count);
    for (size_t i = 0; i < train->m; i++)
        count[train->y[i]]++;
    size_t missing = train->k;
    for (size_t c = 0; c < train->k && missing == train->k; c++)
        if (!count[c])
            missing = c;
    free(count);
    if (missing == train->k)
        return 0;
    return bl_errf(err, "%s: data %s, repeat %d: class '%s' has no example in the training part "
                   "(split = %s): every class needs training examples", ds->where, ds->name, rep,
                   train->class_names[missing], bl_split_name(ds->split.kind));
}

/* The classes a repeat keeps: the first K, or K drawn for this repeat
 * (in index order either way, so class names keep their order). */
static int pick_classes(const bl_data_spec *ds, size_t k, uint64_t seed, size_t *out,
                        bl_error *err)
{
    if (ds->keep_classes > k)
        return bl_errf(err, "%s: data %s: keep_classes = %zu but the data has %zu classes",
                       ds->where, ds->name, ds->keep_classes, k);
    size_t *all = bl_xmalloc(k * sizeof *all);
    for (size_t c = 0; c < k; c++)
        all[c] = c;
    if (ds->class_pick == BL_PICK_RANDOM) {
        gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(r, (unsigned long)bl_seed_derive(seed, "classes", 0));
        gsl_ran_choose(r, out, ds->keep_classes, all, k, sizeof *all); /* keeps order */
        gsl_rng_free(r);
    } else {
        memcpy(out, all, ds->keep_classes * sizeof *all);
    }
    free(all);
    return 0;
}

/* The training and test parts of repeat rep (fold) of data set ds, copied
 * out of all by its split (not given: a given split takes the files). */
static int split_parts(const bl_data_spec *ds, const bl_dataset *all, uint64_t seed, size_t fold,
                       int rep, bl_dataset *train, bl_dataset *test, bl_error *err)
{
    size_t *tri = NULL, *tei = NULL, ntr = 0, nte = 0;
    int rc = bl_split(all, &ds->split, seed, fold, &tri, &ntr, &tei, &nte, err);
    if (rc < 0)
        bl_errprefix(err, "%s: data %s, repeat %d", ds->where, ds->name, rep);
    if (rc == 0)
        rc = bl_dataset_subset(all, tri, ntr, train, err);
    if (rc == 0)
        rc = bl_dataset_subset(all, tei, nte, test, err);
    free(tri);
    free(tei);
    return rc;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* A copy of every row of src. */
static int copy_all(const bl_dataset *src, bl_dataset *out, bl_error *err)
{
    size_t *rows = bl_xmalloc((src->m ? src->m : 1) * sizeof *rows);
    for (size_t i = 0; i < src->m; i++)
        rows[i] = i;
    int rc = bl_dataset_subset(src, rows, src->m, out, err);
    free(rows);
    return rc;
}

/* split = first | per-class with a test file: the rows the split draws (both
 * of bl_split's parts: with a test file nothing is held out) train. */
static int draw_train(const bl_data_spec *ds, const bl_dataset *all, uint64_t seed, int rep,
                      bl_dataset *train, bl_error *err)
{
    size_t *tri = NULL, *tei = NULL, ntr = 0, nte = 0;
    int rc;
    if (ds->split.kind == BL_SPLIT_FIRST) {
        if (ds->split.first > all->m)
            return bl_errf(err, "%s: data %s: first = %zu but the file has %zu rows", ds->where,
                           ds->name, ds->split.first, all->m);
        ntr = ds->split.first;
        tri = bl_xmalloc(ntr * sizeof *tri);
        for (size_t i = 0; i < ntr; i++)
            tri[i] = i;
        rc = 0;
    } else {
        rc = bl_split(all, &ds->split, seed, 0, &tri, &ntr, &tei, &nte, err);
        if (rc < 0) {
            bl_errprefix(err, "%s: data %s, repeat %d", ds->where, ds->name, rep);
        } else {
            tri = bl_xrealloc(tri, (ntr + nte) * sizeof *tri);
            memcpy(tri + ntr, tei, nte * sizeof *tri);
            ntr += nte;
            qsort(tri, ntr, sizeof *tri, cmp_size);
        }
    }
    if (rc == 0)
        rc = bl_dataset_subset(all, tri, ntr, train, err);
    free(tri);
    free(tei);
    return rc;
}

/* Read data set d and prepare repeat rep (class subset, split, quantized
 * view) unless the cache holds them already. */
static int prepare(const bl_experiment *ex, bl_job_cache *c, size_t d, int rep, bl_error *err)
{
    const bl_data_spec *ds = &ex->data[d];
    if (c->d >= 0 && c->d != (long)d && bl_data_same_files(&ex->data[c->d], ds)) {
        drop_repeat(c); /* the loaded (and transformed) files serve d too */
        c->d = (long)d;
    }
    if (c->d != (long)d) {
        bl_job_cache_free(c);
        if (bl_load_data(ds, &c->all, &c->given_test, err) < 0)
            return -1;
        c->d = (long)d;
    }
    if (c->sd == (long)d && c->srep == rep)
        return 0;
    drop_repeat(c);
    /* k-fold: repeats 0..k-1 are the folds of one partition (one seed, also
     * for a random class pick), k..2k-1 those of the next */
    int kfold = ds->split.kind == BL_SPLIT_KFOLD;
    size_t fold = kfold ? (size_t)rep % ds->split.folds : 0;
    uint64_t seed = bl_job_split_seed(ex, d, kfold ? (int)((size_t)rep / ds->split.folds) : rep);
    bl_dataset sub_all, sub_test;
    memset(&sub_all, 0, sizeof sub_all);
    memset(&sub_test, 0, sizeof sub_test);
    const bl_dataset *all = &c->all;
    int rc = 0;
    if (ds->keep_classes) {
        free(c->class_pick);
        c->class_pick = bl_xmalloc(ds->keep_classes * sizeof *c->class_pick);
        rc = pick_classes(ds, c->all.k, seed, c->class_pick, err);
        if (rc == 0)
            rc = bl_dataset_keep_classes(&c->all, c->class_pick, ds->keep_classes, &sub_all, err);
        if (rc == 0 && c->given_test.m)
            rc = bl_dataset_keep_classes(&c->given_test, c->class_pick, ds->keep_classes,
                                         &sub_test, err);
        all = &sub_all;
    }
    if (rc == 0 && ds->split.kind == BL_SPLIT_GIVEN) {
        /* every row of both files, in order: the parts are the files as
         * read, or their class subsets, never copies of them (a copy would
         * double the data's memory: 209 MiB on Fashion-MNIST) */
        if (!all->m) {
            rc = bl_errf(err, "%s: data %s, repeat %d: split: the data set has no rows",
                         ds->where, ds->name, rep);
        } else if (ds->keep_classes) { /* the subsets move into the parts */
            c->train = sub_all;
            c->test = sub_test;
            memset(&sub_all, 0, sizeof sub_all);
            memset(&sub_test, 0, sizeof sub_test);
        } else {
            c->train = c->all;
            c->test = c->given_test;
            c->shared = 1;
        }
    } else if (rc == 0 && ds->test_file) {
        rc = draw_train(ds, all, seed, rep, &c->train, err);
        if (rc == 0) /* a copy: PCA replaces the part's features */
            rc = copy_all(ds->keep_classes ? &sub_test : &c->given_test, &c->test, err);
    } else if (rc == 0) {
        rc = split_parts(ds, all, seed, fold, rep, &c->train, &c->test, err);
    }
    bl_dataset_free(&sub_all);
    bl_dataset_free(&sub_test);
    if (rc == 0 && bl_transform_has_pca(&ds->tf)) {
        if (c->shared) { /* the parts are about to change: own them */
            bl_dataset tr = c->train, te = c->test;
            c->shared = 0;
            rc = copy_all(&tr, &c->train, err);
            if (rc == 0)
                rc = copy_all(&te, &c->test, err);
        }
        if (rc == 0 && (rc = bl_transform_pca(&ds->tf, &c->train, &c->test, err)) < 0)
            bl_errprefix(err, "data %s, repeat %d", ds->name, rep);
    }
    if (rc == 0)
        rc = check_classes(&c->train, ds, rep, err);
    if (rc == 0 && (rc = bl_quantize(&c->train, ex->max_bins, &c->q, err)) < 0)
        bl_errprefix(err, "data %s, repeat %d", ds->name, rep);
    if (rc < 0) {
        drop_repeat(c);
        return -1;
    }
    c->sd = (long)d;
    c->srep = rep;
    return 0;
}

/* What a finished job ran on. */
static void describe(const bl_job_cache *c, bl_job_out *out)
{
    out->m_train = c->train.m;
    out->m_test = c->test.m;
    out->k = c->train.k;
    out->d = c->train.d;
    out->threads = bl_host_api.threads;
}

int bl_job_run(const bl_experiment *ex, bl_job_cache *c, const bl_job *j,
               void (*on_iter)(void *, size_t, size_t), void *user, bl_model *keep,
               bl_job_out *out, bl_error *err)
{
    memset(out, 0, sizeof *out);
    char label[600];
    bl_job_label(ex, j, label, sizeof label);
    if (prepare(ex, c, j->d, j->rep, err) < 0)
        return -1;
    const bl_algo_spec *a = &ex->algo[j->a];
    uint64_t seed = bl_job_split_seed(ex, j->d, j->rep);
    if (a->ncv) {
        size_t best;
        if (bl_cv_choose(a, &c->train, ex->max_bins, bl_job_iterations(ex, j),
                         bl_seed_derive(seed, a->name, 1), &best, &out->cv_error, err) < 0)
            return bl_errprefix(err, "%s", label);
        snprintf(out->cv_choice, sizeof out->cv_choice, "%s", a->cv_label[best]);
        a = &a->cv[best];
    }
    bl_method_cfg mc = {a, a->iterations ? a->iterations : ex->iterations,
                        bl_seed_derive(seed, a->name, 0), on_iter, user, ex->max_bins};
    bl_method_io io = {&c->train, c->test.m ? &c->test : NULL, &c->q, &out->curve,
                       &out->metrics, keep};
    out->started = bl_unix_time();
    int rc = bl_method_run(&mc, &io, err);
    out->finished = bl_unix_time();
    if (rc < 0)
        return bl_errprefix(err, "%s", label);
    describe(c, out);
    return 0;
}

void bl_job_out_free(bl_job_out *o)
{
    bl_curve_free(&o->curve);
    bl_metrics_free(&o->metrics);
    memset(o, 0, sizeof *o);
}

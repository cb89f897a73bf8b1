/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The library API (include/boostlab/api.h) on the framework: problems are
 * data sets in the engine's feature-major layout, parameters an algorithm
 * (recipe plus overrides) with the settings `boostlab train` takes, models
 * the engine's bl_model.  One plugin registry per process, loaded on first
 * use; when the library is loaded into another program, the folders the
 * command searches beside itself are those beside the library.
 */
#define _GNU_SOURCE
#include <boostlab/api.h>

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "../../config.h"
#include "../config/experiment.h"
#include "../config/recipes.h"
#include "../data/quantize.h"
#include "../engine/engine.h"
#include "../exec/job.h"
#include "../exec/method.h"
#include "../exec/pool.h"
#include "../util/fsutil.h"

/* the loss's link from scores to probabilities (has_probability) */
enum { PROBA_NONE = 0, PROBA_SOFTMAX = 1, PROBA_KLOGIT = 2 };

struct boostlab_problem {
    bl_dataset ds;          /* x borrowed (not freed) when borrowed is set */
    int borrowed, has_y;
    double *w;              /* m example weights (a copy), or NULL */
};

struct boostlab_parameter {
    bl_algo_spec algo;
    char *recipe;
    int iterations, max_bins, threads;
    uint64_t seed;
    char msg[BL_ERRMSG_MAX];
};

struct boostlab_model {
    bl_model mo;
    size_t iterations;
    double train_err;
    int proba;
};

static void put(char *err, const bl_error *e)
{
    if (err)
        snprintf(err, BOOSTLAB_ERR_MAX, "%s", e->msg);
}

static void *fail(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void *fail(char *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, BOOSTLAB_ERR_MAX, fmt, ap);
        va_end(ap);
    }
    return NULL;
}

const char *boostlab_version(void)
{
    return PACKAGE_VERSION;
}

void boostlab_free(void *p)
{
    free(p);
}

/* ---- where the library lives -------------------------------------------- */

static pthread_once_t home_once = PTHREAD_ONCE_INIT;

/* Loaded into another program (Python), the library stands in for the
 * program's folder: its build tree, or PREFIX/bin for PREFIX/lib. */
static void home_init(void)
{
    Dl_info info;
    if (!dladdr((void *)boostlab_version, &info) || !info.dli_fname)
        return;
    char *lib = realpath(info.dli_fname, NULL), *exe = realpath("/proc/self/exe", NULL);
    if (lib && (!exe || strcmp(lib, exe) != 0)) {
        char *dir = bl_path_dir(lib);
        char *tree = realpath(BL_BUILD_DIR "/.libs", NULL);
        if (tree && !strcmp(dir, tree)) {
            bl_set_exe_dir(BL_BUILD_DIR);
        } else {
            char *up = bl_path_dir(dir), *bin = bl_path_join(up, "bin");
            bl_set_exe_dir(bin);
            free(up);
            free(bin);
        }
        free(tree);
        free(dir);
    }
    free(lib);
    free(exe);
}

const char *boostlab_program(void)
{
    static char path[PATH_MAX];
    pthread_once(&home_once, home_init);
    char *dir = bl_exe_dir();
    if (!dir)
        return NULL;
    snprintf(path, sizeof path, "%s/boostlab", dir);
    free(dir);
    return access(path, X_OK) == 0 ? path : NULL;
}

/* ---- the plugin registry -------------------------------------------------- */

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static bl_registry reg;
static int reg_loaded;
static char **extra;
static size_t nextra;

static int load_extra(const char *path, bl_error *e)
{
    return bl_dir_exists(path) ? bl_registry_load_dir(&reg, path, 0, e)
                               : bl_registry_load_file(&reg, path, e);
}

/* The registry, loaded on first use; NULL with e set. */
static const bl_registry *registry(bl_error *e)
{
    pthread_once(&home_once, home_init);
    pthread_mutex_lock(&reg_lock);
    int rc = 0;
    if (!reg_loaded) {
        memset(&reg, 0, sizeof reg);
        rc = bl_registry_load_std(&reg, e);
        for (size_t j = 0; j < nextra && rc == 0; j++)
            rc = load_extra(extra[j], e);
        if (rc < 0)
            bl_registry_free(&reg);
        reg_loaded = rc == 0;
    }
    pthread_mutex_unlock(&reg_lock);
    return rc == 0 ? &reg : NULL;
}

int boostlab_add_plugin_path(const char *dir, char *err)
{
    bl_error e;
    char *abs = dir ? realpath(dir, NULL) : NULL;
    if (!abs) {
        fail(err, "%s: no such plugin folder or file: %s", dir ? dir : "(null)",
             strerror(dir ? errno : EINVAL));
        return -1;
    }
    pthread_mutex_lock(&reg_lock);
    int rc = reg_loaded ? load_extra(abs, &e) : 0;
    if (rc == 0) {
        extra = bl_xrealloc(extra, (nextra + 1) * sizeof *extra);
        extra[nextra++] = abs;
    } else {
        free(abs);
        put(err, &e);
    }
    pthread_mutex_unlock(&reg_lock);
    return rc;
}

static boostlab_info *plugin_info, *recipe_info;
static bl_recipe_entry *recipe_list;
static size_t nrecipe_list;

static int by_role_name(const void *a, const void *b)
{
    const boostlab_info *x = a, *y = b;
    int c = strcmp(x->kind, y->kind);
    return c ? c : strcmp(x->name, y->name);
}

long boostlab_plugins(const boostlab_info **out, char *err)
{
    bl_error e;
    const bl_registry *r = registry(&e);
    if (!r) {
        put(err, &e);
        return -1;
    }
    free(plugin_info);
    plugin_info = bl_xcalloc(r->n ? r->n : 1, sizeof *plugin_info);
    for (size_t j = 0; j < r->n; j++) {
        const struct bl_plugin *p = r->plugin[j];
        plugin_info[j] = (boostlab_info){bl_role_name(p->role), p->name, p->doc ? p->doc : "",
                                         bl_registry_file_of(r, p)};
    }
    qsort(plugin_info, r->n, sizeof *plugin_info, by_role_name);
    *out = plugin_info;
    return (long)r->n;
}

long boostlab_recipes(const boostlab_info **out, char *err)
{
    (void)err;
    pthread_once(&home_once, home_init);
    bl_recipe_list_free(recipe_list, nrecipe_list);
    free(recipe_info);
    recipe_list = bl_recipe_list(NULL, &nrecipe_list);
    recipe_info = bl_xcalloc(nrecipe_list ? nrecipe_list : 1, sizeof *recipe_info);
    long n = 0;
    for (size_t j = 0; j < nrecipe_list; j++)
        if (!recipe_list[j].hidden)
            recipe_info[n++] = (boostlab_info){"recipe", recipe_list[j].name,
                                               recipe_list[j].doc, recipe_list[j].path};
    *out = recipe_info;
    return n;
}

/* ---- problems --------------------------------------------------------------- */

static char **numbered(const char *prefix, size_t n, size_t from)
{
    char **s = bl_xcalloc(n ? n : 1, sizeof *s);
    for (size_t j = 0; j < n; j++)
        s[j] = bl_strfmt("%s%zu", prefix, j + from);
    return s;
}

/* A problem of m x d with labels y and weights w checked; x is the caller's. */
static boostlab_problem *problem_new(size_t m, size_t d, const int *y, const double *w,
                                     char *err)
{
    if (m == 0 || d == 0)
        return fail(err, "no data: %zu examples of %zu features", m, d);
    int top = -1;
    for (size_t i = 0; y && i < m; i++) {
        if (y[i] < 0)
            return fail(err, "label of example %zu is %d: labels are class indices 0..k-1", i,
                        y[i]);
        top = y[i] > top ? y[i] : top;
    }
    double wsum = 0;
    for (size_t i = 0; w && i < m; i++) {
        if (!isfinite(w[i]) || w[i] < 0)
            return fail(err, "weight of example %zu is %g: weights are finite and "
                        "non-negative", i, w[i]);
        wsum += w[i];
    }
    if (w && !(wsum > 0))
        return fail(err, "every example weight is 0: nothing to train on");
    boostlab_problem *p = bl_xcalloc(1, sizeof *p);
    p->ds.m = m;
    p->ds.d = d;
    p->has_y = y != NULL;
    p->ds.y = bl_xmalloc(m * sizeof *p->ds.y);
    for (size_t i = 0; i < m; i++)
        p->ds.y[i] = y ? y[i] : -1;
    p->ds.k = (size_t)(top + 1);
    p->ds.class_names = numbered("", p->ds.k, 0);
    p->ds.feature_names = numbered("f", d, 1);
    if (w) {
        p->w = bl_xmalloc(m * sizeof *p->w);
        memcpy(p->w, w, m * sizeof *p->w);
    }
    return p;
}

static boostlab_problem *check_finite(boostlab_problem *p, char *err)
{
    size_t n = p->ds.m * p->ds.d;
    const bl_spmat *s = p->ds.sp;
    for (size_t e = 0; s && e < s->nnz; e++)
        if (isinf(s->rval[e])) {
            size_t i = 0;
            while (s->rptr[i + 1] <= e)
                i++;
            fail(err, "feature %u of example %zu is infinite (a missing value is NaN)",
                 s->rcol[e], i);
            boostlab_problem_free(p);
            return NULL;
        }
    for (size_t j = 0; !s && j < n; j++)
        if (isinf(p->ds.x[j])) {
            fail(err, "feature %zu of example %zu is infinite (a missing value is NaN)",
                 j / p->ds.m, j % p->ds.m);
            boostlab_problem_free(p);
            return NULL;
        }
    return p;
}

boostlab_problem *boostlab_problem_dense(size_t m, size_t d, const double *x, const int *y,
                                         const double *w, char *err)
{
    boostlab_problem *p = problem_new(m, d, y, w, err);
    if (!p)
        return NULL;
    float *fx = bl_xmalloc(m * d * sizeof *fx);
    for (size_t i = 0; i < m; i++)
        for (size_t f = 0; f < d; f++)
            fx[f * m + i] = (float)x[i * d + f];
    p->ds.x = fx;
    return check_finite(p, err);
}

boostlab_problem *boostlab_problem_colmajor(size_t m, size_t d, const float *x, const int *y,
                                            const double *w, char *err)
{
    boostlab_problem *p = problem_new(m, d, y, w, err);
    if (!p)
        return NULL;
    p->ds.x = (float *)x;
    p->borrowed = 1;
    return check_finite(p, err);
}

boostlab_problem *boostlab_problem_csr(size_t m, size_t d, const int64_t *indptr,
                                       const int32_t *indices, const double *data,
                                       const int *y, const double *w, char *err)
{
    for (size_t i = 0; i < m; i++) {
        if (indptr[i + 1] < indptr[i] || indptr[i] < 0)
            return fail(err, "CSR row %zu: indptr decreases (%lld to %lld)", i,
                        (long long)indptr[i], (long long)indptr[i + 1]);
        for (int64_t j = indptr[i]; j < indptr[i + 1]; j++)
            if (indices[j] < 0 || (size_t)indices[j] >= d ||
                (j > indptr[i] && indices[j] <= indices[j - 1]))
                return fail(err, "CSR row %zu: feature index %d out of order or not in 0..%zu",
                            i, indices[j], d - 1);
    }
    boostlab_problem *p = problem_new(m, d, y, w, err);
    if (!p)
        return NULL;
    size_t nnz = (size_t)indptr[m] - (size_t)indptr[0];
    if (bl_storage_sparse_pays(m, d, nnz)) { /* memory ~ the entries, not m x d */
        size_t *rptr = bl_xmalloc((m + 1) * sizeof *rptr);
        uint32_t *rcol = bl_xmalloc((nnz ? nnz : 1) * sizeof *rcol);
        float *rval = bl_xmalloc((nnz ? nnz : 1) * sizeof *rval);
        for (size_t i = 0; i <= m; i++)
            rptr[i] = (size_t)(indptr[i] - indptr[0]);
        for (size_t e = 0; e < nnz; e++) {
            rcol[e] = (uint32_t)indices[indptr[0] + (int64_t)e];
            rval[e] = (float)data[indptr[0] + (int64_t)e];
        }
        p->ds.sp = bl_spmat_from_csr(m, d, rptr, rcol, rval);
        return check_finite(p, err);
    }
    float *fx = bl_xcalloc(m * d, sizeof *fx);
    for (size_t i = 0; i < m; i++)
        for (int64_t j = indptr[i]; j < indptr[i + 1]; j++)
            fx[(size_t)indices[j] * m + i] = (float)data[j];
    p->ds.x = fx;
    return check_finite(p, err);
}

boostlab_problem *boostlab_problem_read(const char *path, const char *format,
                                        const char *label_column, const char *idx_labels,
                                        char *err)
{
    bl_data_spec ds;
    memset(&ds, 0, sizeof ds);
    ds.file = (char *)path;
    ds.label = (char *)label_column;
    ds.labels = (char *)idx_labels;
    if (!format)
        ds.format = idx_labels ? BL_FMT_IDX : bl_format_of(path) ? bl_format_of(path)
                                                                 : BL_FMT_CSV;
    else if (!strcmp(format, "csv") || !strcmp(format, "libsvm") || !strcmp(format, "idx"))
        ds.format = !strcmp(format, "csv") ? BL_FMT_CSV
                    : !strcmp(format, "libsvm") ? BL_FMT_LIBSVM : BL_FMT_IDX;
    else
        return fail(err, "format '%s': expected csv, libsvm or idx", format);
    if (ds.format == BL_FMT_IDX && !idx_labels)
        return fail(err, "%s: IDX data needs the IDX file of its labels", path);
    boostlab_problem *p = bl_xcalloc(1, sizeof *p);
    bl_dataset none;
    bl_error e;
    if (bl_load_data(&ds, &p->ds, &none, &e) < 0) {
        put(err, &e);
        free(p);
        return NULL;
    }
    p->has_y = p->ds.k > 0;
    return p;
}

static char **copy_names(size_t n, const char *const *names, char *err)
{
    for (size_t j = 0; j < n; j++) {
        if (!names[j] || !names[j][0])
            return fail(err, "name %zu is empty", j);
        for (size_t i = 0; i < j; i++)
            if (!strcmp(names[i], names[j]))
                return fail(err, "names %zu and %zu are both '%s'", i, j, names[j]);
        if (strchr(names[j], '\n'))
            return fail(err, "name %zu holds a line break", j);
    }
    char **s = bl_xcalloc(n ? n : 1, sizeof *s);
    for (size_t j = 0; j < n; j++)
        s[j] = bl_strdup(names[j]);
    return s;
}

static void free_names(char **s, size_t n)
{
    for (size_t j = 0; s && j < n; j++)
        free(s[j]);
    free(s);
}

int boostlab_problem_set_classes(boostlab_problem *p, size_t k, const char *const *names,
                                 char *err)
{
    for (size_t i = 0; p->has_y && i < p->ds.m; i++)
        if ((size_t)p->ds.y[i] >= k) {
            fail(err, "label of example %zu is %d, not a class of the %zu named", i,
                 p->ds.y[i], k);
            return -1;
        }
    char **s = copy_names(k, names, err);
    if (!s)
        return -1;
    free_names(p->ds.class_names, p->ds.k);
    p->ds.class_names = s;
    p->ds.k = k;
    return 0;
}

int boostlab_problem_set_features(boostlab_problem *p, const char *const *names, char *err)
{
    char **s = copy_names(p->ds.d, names, err);
    if (!s)
        return -1;
    free_names(p->ds.feature_names, p->ds.d);
    p->ds.feature_names = s;
    return 0;
}

size_t boostlab_problem_rows(const boostlab_problem *p) { return p->ds.m; }
size_t boostlab_problem_features(const boostlab_problem *p) { return p->ds.d; }
size_t boostlab_problem_classes(const boostlab_problem *p) { return p->ds.k; }

void boostlab_problem_free(boostlab_problem *p)
{
    if (!p)
        return;
    if (p->borrowed)
        p->ds.x = NULL;
    bl_dataset_free(&p->ds);
    free(p->w);
    free(p);
}

/* ---- parameters ------------------------------------------------------------- */

boostlab_parameter *boostlab_parameter_new(const char *recipe, char *err)
{
    bl_error e;
    const bl_registry *r = registry(&e);
    if (!r) {
        put(err, &e);
        return NULL;
    }
    if (!recipe || !*recipe)
        return fail(err, "no recipe named");
    boostlab_parameter *p = bl_xcalloc(1, sizeof *p);
    size_t n = strlen(recipe);
    int file = strchr(recipe, '/') || (n > 4 && !strcmp(recipe + n - 4, ".ini"));
    int rc = file ? bl_recipe_load_file(recipe, r, &p->algo, &e)
                  : bl_recipe_load(recipe, NULL, r, &p->algo, &e);
    if (rc < 0) {
        put(err, &e);
        free(p);
        return NULL;
    }
    p->recipe = bl_strdup(p->algo.recipe);
    p->algo.name = bl_strdup(p->recipe);
    p->iterations = 100;
    p->max_bins = 256;
    p->seed = 1;
    return p;
}

/* A whole number in lo..hi written in digits, else -1. */
static int whole(const char *s, unsigned long long lo, unsigned long long hi,
                 unsigned long long *v)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-' || *s == '+' || *s == ' ')
        return -1;
    *v = strtoull(s, &end, 10);
    return *end || errno || *v < lo || *v > hi ? -1 : 0;
}

int boostlab_parameter_set(boostlab_parameter *p, const char *key, const char *value,
                           char *err)
{
    static const struct {
        const char *key;
        unsigned long long lo, hi;
    } own[] = {{"iterations", 1, 100000000}, {"max_bins", 2, 256}, {"threads", 0, 1024},
               {"seed", 0, ULLONG_MAX}};
    for (size_t j = 0; j < sizeof own / sizeof *own; j++) {
        if (strcmp(key, own[j].key))
            continue;
        unsigned long long v;
        if (whole(value, own[j].lo, own[j].hi, &v) < 0) {
            fail(err, "'%s': expected a whole number from %llu to %llu", value, own[j].lo,
                 own[j].hi);
            return -1;
        }
        if (j == 0)
            p->iterations = (int)v;
        else if (j == 1)
            p->max_bins = (int)v;
        else if (j == 2)
            p->threads = (int)v;
        else
            p->seed = v;
        return 0;
    }
    bl_error e;
    const bl_registry *r = registry(&e);
    if (!r || bl_algo_set(&p->algo, r, key, value, &e) < 0) {
        put(err, &e);
        return -1;
    }
    return 0;
}

const char *boostlab_check_parameter(boostlab_parameter *p)
{
    bl_error e;
    const char *key;
    if (bl_algo_check_projection(&p->algo, &key, &e) < 0) {
        snprintf(p->msg, sizeof p->msg, "%s", e.msg);
        return p->msg;
    }
    const bl_method *me = bl_method_get(p->algo.method);
    if (!me->model) {
        snprintf(p->msg, sizeof p->msg,
                 "recipe %s is method %s, whose models are not saved: run it from an "
                 "experiment file (boostlab run)", p->recipe, me->name);
        return p->msg;
    }
    return NULL;
}

char *boostlab_parameter_text(const boostlab_parameter *p)
{
    char *txt = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&txt, &len);
    fprintf(f, "recipe = %s\niterations = %d\nmax_bins = %d\n", p->recipe, p->iterations,
            p->max_bins);
    bl_algo_write(&p->algo, f);
    fclose(f);
    return txt;
}

void boostlab_parameter_free(boostlab_parameter *p)
{
    if (!p)
        return;
    bl_algo_free(&p->algo);
    free(p->recipe);
    free(p);
}

/* ---- models ----------------------------------------------------------------- */

/* The link of the loss the model's algorithm text names. */
static int proba_of(const char *algorithm)
{
    const char *s = algorithm;
    while (s && *s) {
        char name[64];
        if (sscanf(s, "loss = %63s", name) == 1)
            return !strcmp(name, "softmax") ? PROBA_SOFTMAX
                   : !strcmp(name, "klogit") ? PROBA_KLOGIT : PROBA_NONE;
        s = strchr(s, '\n');
        s = s ? s + 1 : NULL;
    }
    return PROBA_NONE;
}

/* threads = 0: OMP_NUM_THREADS, else every core, whatever an earlier
 * training in this process set (the thread count is process-wide). */
static int default_threads(void)
{
    int n = bl_env_threads(NULL);
    if (n > 0)
        return n;
#ifdef _OPENMP
    return omp_get_num_procs();
#else
    return 1;
#endif
}

/* The rows to train on and their weights: examples of weight 0 are
 * dropped (into *sub, so they do not shape the quantization bins either),
 * and weights all equal train unweighted (*w = NULL), the same model as no
 * weights.  Returns the data set to train on. */
static const bl_dataset *weighed(const boostlab_problem *p, bl_dataset *sub, double **w,
                                 bl_error *e)
{
    *w = NULL;
    memset(sub, 0, sizeof *sub);
    if (!p->w)
        return &p->ds;
    size_t m = p->ds.m, n = 0, *rows = bl_xmalloc(m * sizeof *rows);
    double *kw = bl_xmalloc(m * sizeof *kw);
    int uneven = 0;
    for (size_t i = 0; i < m; i++)
        if (p->w[i] > 0) {
            kw[n] = p->w[i];
            uneven |= kw[n] != kw[0];
            rows[n++] = i;
        }
    const bl_dataset *ds = &p->ds;
    if (n < m)
        ds = bl_dataset_subset(&p->ds, rows, n, sub, e) < 0 ? NULL : sub;
    free(rows);
    if (uneven && ds)
        *w = kw;
    else
        free(kw);
    return ds;
}

boostlab_model *boostlab_train(const boostlab_problem *prob, const boostlab_parameter *param,
                               char *err)
{
    if (!prob->has_y)
        return fail(err, "the problem has no labels to train on");
    const char *bad = boostlab_check_parameter((boostlab_parameter *)param);
    if (bad)
        return fail(err, "%s", bad);
    bl_set_threads(param->threads ? param->threads : default_threads());
    bl_error e;
    bl_qview q;
    bl_curve cv;
    memset(&q, 0, sizeof q);
    memset(&cv, 0, sizeof cv);
    bl_dataset sub, dense;
    double *w;
    bl_boost_cfg cfg = bl_algo_boost_cfg(&param->algo, param->iterations, param->seed);
    memset(&dense, 0, sizeof dense);
    const bl_dataset *ds = weighed(prob, &sub, &w, &e);
    if (ds)
        ds = bl_boost_data(&param->algo, &cfg, ds, &dense, &e);
    if (!ds || bl_quantize(ds, param->max_bins, &q, &e) < 0) {
        put(err, &e);
        bl_dataset_free(&sub);
        bl_dataset_free(&dense);
        free(w);
        return NULL;
    }
    boostlab_model *mo = bl_xcalloc(1, sizeof *mo);
    struct bl_train tv;
    bl_train_view(ds, &q, &tv);
    bl_model_init(&mo->mo, param->algo.weak.plugin, prob->ds.k, prob->ds.d,
                  prob->ds.class_names, prob->ds.feature_names);
    mo->mo.algorithm = boostlab_parameter_text(param);
    cfg.max_bins = param->max_bins;
    cfg.weights = w;
    int rc = bl_boost(&cfg, &tv, NULL, NULL, &mo->mo, &cv, &e);
    mo->iterations = cv.n;
    mo->train_err = cv.n ? cv.train_err[cv.n - 1] : cv.train_err0;
    mo->proba = proba_of(mo->mo.algorithm);
    bl_curve_free(&cv);
    bl_qview_free(&q);
    bl_dataset_free(&sub);
    bl_dataset_free(&dense);
    free(w);
    if (rc < 0) {
        put(err, &e);
        boostlab_model_free(mo);
        return NULL;
    }
    return mo;
}

size_t boostlab_model_classes(const boostlab_model *mo) { return mo->mo.k; }
size_t boostlab_model_features(const boostlab_model *mo) { return mo->mo.d; }
size_t boostlab_model_terms(const boostlab_model *mo) { return mo->mo.t; }
size_t boostlab_model_iterations(const boostlab_model *mo) { return mo->iterations; }
double boostlab_model_training_error(const boostlab_model *mo) { return mo->train_err; }
int boostlab_model_has_probability(const boostlab_model *mo) { return mo->proba != PROBA_NONE; }

const char *boostlab_model_class_name(const boostlab_model *mo, size_t r)
{
    return r < mo->mo.k ? mo->mo.class_names[r] : NULL;
}

const char *boostlab_model_feature_name(const boostlab_model *mo, size_t f)
{
    return f < mo->mo.d ? mo->mo.feature_names[f] : NULL;
}

static int check_rows(const boostlab_model *mo, const boostlab_problem *prob, char *err)
{
    if (prob->ds.d == mo->mo.d)
        return 0;
    fail(err, "the data has %zu features but the model was trained on %zu", prob->ds.d,
         mo->mo.d);
    return -1;
}

int boostlab_predict_values(const boostlab_model *mo, const boostlab_problem *prob,
                            double *scores, int *labels, char *err)
{
    if (check_rows(mo, prob, err) < 0)
        return -1;
    size_t m = prob->ds.m, k = mo->mo.k;
    double *F = scores ? scores : bl_xmalloc(m * k * sizeof *F);
    struct bl_matrix X = {m, prob->ds.d, prob->ds.x};
    if (prob->ds.sp)
        bl_model_scores_sparse(&mo->mo, &prob->ds.sp->view, F);
    else
        bl_model_scores(&mo->mo, &X, F);
    if (labels)
        bl_argmax_rows(F, m, k, labels);
    if (!scores)
        free(F);
    return 0;
}

int boostlab_predict(const boostlab_model *mo, const boostlab_problem *prob, int *labels,
                     char *err)
{
    return boostlab_predict_values(mo, prob, NULL, labels, err);
}

int boostlab_predict_probability(const boostlab_model *mo, const boostlab_problem *prob,
                                 double *proba, char *err)
{
    if (mo->proba == PROBA_NONE) {
        fail(err, "the model's loss defines no class probabilities (softmax and klogit do)");
        return -1;
    }
    if (boostlab_predict_values(mo, prob, proba, NULL, err) < 0)
        return -1;
    size_t k = mo->mo.k;
    for (size_t i = 0; i < prob->ds.m; i++) {
        double *p = proba + i * k, top = p[0], sum = 0;
        for (size_t r = 1; r < k; r++)
            top = p[r] > top ? p[r] : top;
        /* klogit's link exp(F - 1) normalised is the softmax too: the shift
         * by the largest score only keeps exp from overflowing */
        for (size_t r = 0; r < k; r++)
            sum += p[r] = exp(p[r] - top);
        for (size_t r = 0; r < k; r++)
            p[r] /= sum;
    }
    return 0;
}

int boostlab_add_terms(const boostlab_model *mo, const boostlab_problem *prob, size_t first,
                       size_t last, double *scores, char *err)
{
    if (check_rows(mo, prob, err) < 0)
        return -1;
    if (first > last || last > mo->mo.t) {
        fail(err, "terms %zu..%zu: the model has %zu", first, last, mo->mo.t);
        return -1;
    }
    if (first == last)
        return 0;
    bl_model part = mo->mo;
    part.term = mo->mo.term + first;
    part.t = last - first;
    size_t n = prob->ds.m * mo->mo.k;
    double *F = bl_xmalloc(n * sizeof *F);
    struct bl_matrix X = {prob->ds.m, prob->ds.d, prob->ds.x};
    if (prob->ds.sp)
        bl_model_scores_sparse(&part, &prob->ds.sp->view, F);
    else
        bl_model_scores(&part, &X, F);
    for (size_t j = 0; j < n; j++)
        scores[j] += F[j];
    free(F);
    return 0;
}

int boostlab_save_model(const char *path, const boostlab_model *mo, char *err)
{
    bl_error e;
    if (bl_model_save(&mo->mo, path, &e) < 0) {
        put(err, &e);
        return -1;
    }
    return 0;
}

boostlab_model *boostlab_load_model(const char *path, char *err)
{
    bl_error e;
    const bl_registry *r = registry(&e);
    boostlab_model *mo = bl_xcalloc(1, sizeof *mo);
    if (!r || bl_model_load(path, r, &mo->mo, &e) < 0) {
        put(err, &e);
        free(mo);
        return NULL;
    }
    mo->proba = proba_of(mo->mo.algorithm);
    return mo;
}

void boostlab_model_free(boostlab_model *mo)
{
    if (!mo)
        return;
    if (mo->mo.weak)
        bl_model_free(&mo->mo);
    free(mo);
}

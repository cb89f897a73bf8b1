/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Super-pixels, features, unary classifiers and baselines for the crf task
 * (segprep.h). */
#include "segprep.h"

#include <errno.h>
#include <linear.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/experiment.h"
#include "data/dataset.h"
#include "data/quantize.h"
#include "engine/engine.h"
#include "util/fsutil.h"
#include "util/rng.h"
#include "spfeat.h"
#include "superpixel.h"

void bl_segprep_defaults(bl_segprep_opts *o)
{
    o->region = 10;
    o->regularizer = 10.0;
    o->min_region = 10;
    o->iterations = 100;
    o->base_iterations = 200;
    o->svm_C = 1.0;
    o->seed = 1;
    o->quiet = 0;
}

void bl_segcount_add(bl_segcount *c, int pred, double size, double fg)
{
    if (pred)
        c->tp += fg, c->fp += size - fg;
    else
        c->fn += fg, c->tn += size - fg;
}

void bl_segcount_values(const bl_segcount *c, double *v)
{
    double iou_fg = c->tp + c->fp + c->fn > 0 ? c->tp / (c->tp + c->fp + c->fn) : 1.0;
    double iou_bg = c->tn + c->fp + c->fn > 0 ? c->tn / (c->tn + c->fp + c->fn) : 1.0;
    double acc_fg = c->tp + c->fn > 0 ? c->tp / (c->tp + c->fn) : 1.0;
    double acc_bg = c->tn + c->fp > 0 ? c->tn / (c->tn + c->fp) : 1.0;
    v[0] = (iou_fg + iou_bg) / 2, v[1] = iou_fg, v[2] = iou_bg;
    v[3] = (acc_fg + acc_bg) / 2, v[4] = acc_fg, v[5] = acc_bg;
}

/* ---- label maps ------------------------------------------------------------ */

int bl_spm_write(const char *path, int w, int h, size_t n, const uint32_t *label, bl_error *err)
{
    bl_atomic a;
    if (bl_atomic_open(&a, path, err) < 0)
        return -1;
    fprintf(a.f, "SPM1 %d %d %zu\n", w, h, n);
    for (size_t p = 0; p < (size_t)w * h; p++) {
        unsigned char b[4] = {(unsigned char)label[p], (unsigned char)(label[p] >> 8),
                              (unsigned char)(label[p] >> 16), (unsigned char)(label[p] >> 24)};
        fwrite(b, 1, 4, a.f);
    }
    return bl_atomic_commit(&a, err);
}

int bl_spm_read(const char *path, int *w, int *h, size_t *n, uint32_t **label, bl_error *err)
{
    *label = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return bl_errf(err, "cannot open %s: %s", path, strerror(errno));
    if (fscanf(f, "SPM1 %d %d %zu", w, h, n) != 3 || fgetc(f) != '\n' || *w < 1 || *h < 1 ||
        *w > 16384 || *h > 16384 || *n < 1) {
        fclose(f);
        return bl_errf(err, "%s: not a super-pixel map (header 'SPM1 W H N')", path);
    }
    size_t np = (size_t)*w * (size_t)*h;
    uint32_t *l = bl_xmalloc(np * sizeof *l);
    for (size_t p = 0; p < np; p++) {
        unsigned char b[4];
        if (fread(b, 1, 4, f) != 4) {
            free(l);
            fclose(f);
            return bl_errf(err, "%s: truncated at pixel %zu of %zu", path, p, np);
        }
        l[p] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        if (l[p] >= *n) {
            free(l);
            fclose(f);
            return bl_errf(err, "%s: pixel %zu has label %u, not below %zu", path, p, l[p], *n);
        }
    }
    fclose(f);
    *label = l;
    return 0;
}

/* ---- one image ---------------------------------------------------------- */

typedef struct simg {
    unsigned id;
    int train;
    size_t n, ne;
    double *size, *fg;
    int *y;
    uint32_t *ep, *eq;
    double *colour, *blen;
    bl_spfeat F;
    double *U;             /* n x groups unary values */
    int fold;              /* cross-fitting half of a training image */
} simg;

static void simg_free(simg *s)
{
    free(s->size), free(s->fg), free(s->y), free(s->ep), free(s->eq);
    free(s->colour), free(s->blen), free(s->U);
    bl_spfeat_free(&s->F);
}

static int load_image(const char *setdir, const char *outdir, const char *img, const char *mask,
                      const bl_segprep_opts *o, simg *s, bl_error *err)
{
    char *pi = bl_path_join(setdir, img), *pm = bl_path_join(setdir, mask);
    bl_image raw, rgb, mk, mg;
    memset(&rgb, 0, sizeof rgb), memset(&mg, 0, sizeof mg);
    int rc = bl_image_read(pi, &raw, err);
    if (rc == 0) {
        rc = bl_image_convert(&raw, 3, &rgb, err);
        bl_image_free(&raw);
    }
    if (rc == 0 && (rc = bl_image_read(pm, &mk, err)) == 0) {
        rc = bl_image_convert(&mk, 1, &mg, err);
        bl_image_free(&mk);
    }
    if (rc == 0 && (mg.w != rgb.w || mg.h != rgb.h))
        rc = bl_errf(err, "%s is %dx%d but its image %s is %dx%d", pm, mg.w, mg.h, pi, rgb.w,
                     rgb.h);
    bl_spgraph g;
    memset(&g, 0, sizeof g);
    if (rc == 0)
        rc = bl_superpixels(&rgb, o->region, o->regularizer, o->min_region, &g, err);
    if (rc == 0 && g.ne == 0)
        rc = bl_errf(err, "%s: a single super-pixel, no edge", pi);
    if (rc == 0)
        rc = bl_spfeat_compute(&rgb, &g, &s->F, err);
    if (rc == 0) {
        char name[32];
        snprintf(name, sizeof name, "%04u.spm", s->id);
        char *p = bl_path_join(outdir, name);
        rc = bl_spm_write(p, g.w, g.h, g.n, g.label, err);
        free(p);
    }
    if (rc == 0) {
        s->n = g.n, s->ne = g.ne;
        s->size = bl_xcalloc(g.n, sizeof *s->size);
        s->fg = bl_xcalloc(g.n, sizeof *s->fg);
        s->y = bl_xcalloc(g.n, sizeof *s->y);
        for (size_t p = 0; p < (size_t)g.w * g.h; p++) {
            s->size[g.label[p]] += 1;
            s->fg[g.label[p]] += mg.px[p] >= 128;
        }
        /* a super-pixel's label: the majority of its pixels */
        for (size_t q = 0; q < g.n; q++)
            s->y[q] = 2 * s->fg[q] >= s->size[q];
        s->ep = bl_xmalloc(g.ne * sizeof *s->ep);
        s->eq = bl_xmalloc(g.ne * sizeof *s->eq);
        s->colour = bl_xmalloc(g.ne * sizeof *s->colour);
        s->blen = bl_xmalloc(g.ne * sizeof *s->blen);
        for (size_t e = 0; e < g.ne; e++) {
            size_t p = g.ep[e], q = g.eq[e];
            double d2 = 0;
            for (int k = 0; k < 3; k++) {
                double dd = g.luv[3 * p + k] - g.luv[3 * q + k];
                d2 += dd * dd;
            }
            /* exp(-|LUV_p - LUV_q|) (eq. 33), the distance in units of 10 L*u*v*
             * (else nearly every edge's value underflows to 0) */
            s->ep[e] = (uint32_t)p, s->eq[e] = (uint32_t)q;
            s->colour[e] = exp(-sqrt(d2) / 10.0);
            s->blen[e] = g.blen[e];
        }
    }
    if (rc < 0)
        bl_errprefix(err, "image %s", pi);
    bl_spgraph_free(&g);
    bl_image_free(&rgb);
    bl_image_free(&mg);
    free(pi), free(pm);
    return rc;
}

/* ---- AdaBoost through the engine ------------------------------------------ */

/* Super-pixels of the images `pick` selects, group k (k < 0: all groups
 * concatenated) as a feature-major matrix; labels into y when not NULL. */
static float *gather(const simg *im, size_t nimg, int (*pick)(const simg *, int), int arg, int k,
                     size_t *m_out, size_t *d_out, int *y)
{
    size_t m = 0, d = 0;
    for (size_t i = 0; i < nimg; i++)
        if (pick(&im[i], arg))
            m += im[i].n;
    if (k >= 0)
        d = im[0].F.dim[k];
    else
        for (int j = 0; j < BL_SPFEAT_NGROUPS; j++)
            d += im[0].F.dim[j];
    float *x = bl_xmalloc((m ? m : 1) * (d ? d : 1) * sizeof *x);
    size_t r = 0;
    for (size_t i = 0; i < nimg; i++) {
        if (!pick(&im[i], arg))
            continue;
        for (size_t p = 0; p < im[i].n; p++, r++) {
            size_t f0 = 0;
            for (int j = 0; j < BL_SPFEAT_NGROUPS; j++) {
                if (k >= 0 && j != k)
                    continue;
                size_t dj = im[i].F.dim[j];
                for (size_t f = 0; f < dj; f++)
                    x[(f0 + f) * m + r] = im[i].F.x[j][p * dj + f];
                f0 += dj;
            }
            if (y)
                y[r] = im[i].y[p];
        }
    }
    *m_out = m, *d_out = d;
    return x;
}

static int pick_train(const simg *s, int arg)
{
    (void)arg;
    return s->train;
}
static int pick_test(const simg *s, int arg)
{
    (void)arg;
    return !s->train;
}
static int pick_fold(const simg *s, int fold)
{
    return s->train && s->fold == fold;
}
static int pick_other_fold(const simg *s, int fold)
{
    return s->train && s->fold != fold;
}

static size_t rows(const simg *im, size_t nimg, int (*pick)(const simg *, int), int arg)
{
    size_t m = 0;
    for (size_t i = 0; i < nimg; i++)
        if (pick(&im[i], arg))
            m += im[i].n;
    return m;
}

/* Discrete AdaBoost (recipe adaboost) on (X, y), m x d; F'(z) = F_fg - F_bg
 * of the trained model written for the mz rows of Z. */
static int adaboost(const bl_registry *reg, const float *X, const int *y, size_t m, size_t d,
                    int iters, uint64_t seed, const float *Z, size_t mz, double *out,
                    bl_error *err)
{
    bl_algo_spec algo;
    memset(&algo, 0, sizeof algo);
    if (bl_recipe_load("adaboost", NULL, reg, &algo, err) < 0)
        return -1;
    algo.name = bl_strdup("adaboost");
    int has[2] = {0, 0};
    for (size_t i = 0; i < m; i++)
        has[y[i] != 0] = 1;
    if (!has[0] || !has[1]) {
        bl_algo_free(&algo);
        return bl_errf(err, "unary classifier: the training super-pixels are all %s",
                       has[1] ? "foreground" : "background");
    }
    char *cls[2] = {"bg", "fg"};
    bl_dataset ds;
    memset(&ds, 0, sizeof ds);
    ds.m = m, ds.d = d, ds.k = 2;
    ds.y = (int *)y;
    ds.x = (float *)X;
    ds.class_names = cls;
    bl_qview q;
    memset(&q, 0, sizeof q);
    bl_model mo;
    memset(&mo, 0, sizeof mo);
    bl_curve cv;
    memset(&cv, 0, sizeof cv);
    int rc = bl_quantize(&ds, 256, &q, err);
    if (rc == 0) {
        struct bl_train tv;
        bl_train_view(&ds, &q, &tv);
        bl_model_init(&mo, algo.weak.plugin, 2, d, cls, NULL);
        bl_boost_cfg cfg = bl_algo_boost_cfg(&algo, iters, seed);
        rc = bl_boost(&cfg, &tv, NULL, NULL, &mo, &cv, err);
    }
    if (rc == 0) {
        double *F = bl_xmalloc((mz ? mz : 1) * 2 * sizeof *F);
        struct bl_matrix Zm = {mz, d, Z};
        bl_model_scores(&mo, &Zm, F);
        for (size_t i = 0; i < mz; i++)
            out[i] = F[2 * i + 1] - F[2 * i];
        free(F);
    }
    bl_curve_free(&cv);
    bl_model_free(&mo);
    bl_qview_free(&q);
    bl_algo_free(&algo);
    return rc;
}

/* Write F' of the rows of the images `pick` selects into their U column k. */
static void scatter(simg *im, size_t nimg, int (*pick)(const simg *, int), int arg, int k,
                    const double *v)
{
    size_t r = 0;
    for (size_t i = 0; i < nimg; i++)
        if (pick(&im[i], arg))
            for (size_t p = 0; p < im[i].n; p++)
                im[i].U[p * BL_SPFEAT_NGROUPS + k] = v[r++];
}

static int unaries(const bl_registry *reg, simg *im, size_t nimg, const bl_segprep_opts *o,
                   bl_error *err)
{
    for (int k = 0; k < BL_SPFEAT_NGROUPS; k++) {
        uint64_t seed = bl_seed_derive(o->seed, "unary", (uint64_t)k);
        size_t m, d, mz, dz;
        /* each training half scored by the classifier of the other half */
        for (int fold = 0; fold < 2; fold++) {
            int *y = bl_xmalloc(rows(im, nimg, pick_other_fold, fold) * sizeof *y + 1);
            float *X = gather(im, nimg, pick_other_fold, fold, k, &m, &d, y);
            float *Z = gather(im, nimg, pick_fold, fold, k, &mz, &dz, NULL);
            double *out = bl_xmalloc((mz ? mz : 1) * sizeof *out);
            int rc = adaboost(reg, X, y, m, d, o->iterations, seed, Z, mz, out, err);
            if (rc == 0)
                scatter(im, nimg, pick_fold, fold, k, out);
            free(X), free(y), free(Z), free(out);
            if (rc < 0)
                return bl_errprefix(err, "feature group %s", bl_spfeat_name[k]);
        }
        /* test images: the classifier of every training image */
        int *y = bl_xmalloc(rows(im, nimg, pick_train, 0) * sizeof *y + 1);
        float *X = gather(im, nimg, pick_train, 0, k, &m, &d, y);
        float *Z = gather(im, nimg, pick_test, 0, k, &mz, &dz, NULL);
        double *out = bl_xmalloc((mz ? mz : 1) * sizeof *out);
        int rc = adaboost(reg, X, y, m, d, o->iterations, seed, Z, mz, out, err);
        if (rc == 0)
            scatter(im, nimg, pick_test, 0, k, out);
        free(X), free(y), free(Z), free(out);
        if (rc < 0)
            return bl_errprefix(err, "feature group %s", bl_spfeat_name[k]);
        if (!o->quiet)
            fprintf(stderr, "boostlab: unary classifier %d/%d (%s) trained\n", k + 1,
                    BL_SPFEAT_NGROUPS, bl_spfeat_name[k]);
    }
    return 0;
}

/* ---- the unary-only baselines --------------------------------------------- */

static void quiet_print(const char *s)
{
    (void)s;
}

/* Linear SVM (liblinear, L2-regularised L2-loss dual, bias 1) on
 * standardised rows; decision values of Z. */
static int linsvm(const float *X, const int *y, size_t m, size_t d, double C, uint64_t seed,
                  const float *Z, size_t mz, double *out, bl_error *err)
{
    double *mu = bl_xcalloc(d, sizeof *mu), *sd = bl_xcalloc(d, sizeof *sd);
    for (size_t f = 0; f < d; f++) {
        double s1 = 0, s2 = 0;
        for (size_t i = 0; i < m; i++)
            s1 += X[f * m + i], s2 += (double)X[f * m + i] * X[f * m + i];
        mu[f] = s1 / (double)m;
        double var = s2 / (double)m - mu[f] * mu[f];
        sd[f] = var > 1e-12 ? sqrt(var) : 1.0;
    }
    struct feature_node *pool = bl_xmalloc((m * (d + 2) + 1) * sizeof *pool);
    struct feature_node **rows = bl_xmalloc(m * sizeof *rows);
    double *yy = bl_xmalloc(m * sizeof *yy);
    for (size_t i = 0; i < m; i++) {
        rows[i] = pool + i * (d + 2);
        for (size_t f = 0; f < d; f++)
            rows[i][f] = (struct feature_node){(int)f + 1, (X[f * m + i] - mu[f]) / sd[f]};
        rows[i][d] = (struct feature_node){(int)d + 1, 1.0};
        rows[i][d + 1] = (struct feature_node){-1, 0.0};
        yy[i] = y[i] ? 1.0 : -1.0;
    }
    struct problem prob = {(int)m, (int)d + 1, yy, rows, 1.0};
    struct parameter par;
    memset(&par, 0, sizeof par);
    par.solver_type = L2R_L2LOSS_SVC_DUAL;
    par.C = C;
    par.eps = 0.1;
    set_print_string_function(quiet_print);
    srand((unsigned)seed); /* liblinear shuffles with rand() */
    int rc = 0;
    const char *bad = check_parameter(&prob, &par);
    if (bad)
        rc = bl_errf(err, "liblinear refuses the problem: %s", bad);
    struct model *mo = bad ? NULL : train(&prob, &par);
    if (mo) {
        struct feature_node *row = bl_xmalloc((d + 2) * sizeof *row);
        /* liblinear's decision value is for its first label */
        double sign = mo->label[0] == 1 ? 1.0 : -1.0;
        for (size_t i = 0; i < mz; i++) {
            for (size_t f = 0; f < d; f++)
                row[f] = (struct feature_node){(int)f + 1, (Z[f * mz + i] - mu[f]) / sd[f]};
            row[d] = (struct feature_node){(int)d + 1, 1.0};
            row[d + 1] = (struct feature_node){-1, 0.0};
            double dec;
            predict_values(mo, row, &dec);
            out[i] = sign * dec;
        }
        free(row);
        free_and_destroy_model(&mo);
    }
    free(pool), free(rows), free(yy), free(mu), free(sd);
    return rc;
}

static int write_labels(const char *dir, const simg *im, size_t nimg, int (*pick)(const simg *, int),
                        const double *score, bl_segcount *cnt, bl_error *err)
{
    if (bl_mkdirs(dir, err) < 0)
        return -1;
    size_t r = 0;
    for (size_t i = 0; i < nimg; i++) {
        if (!pick(&im[i], 0))
            continue;
        char name[32];
        snprintf(name, sizeof name, "%04u.lab", im[i].id);
        char *p = bl_path_join(dir, name);
        bl_atomic a;
        if (bl_atomic_open(&a, p, err) < 0) {
            free(p);
            return -1;
        }
        for (size_t q = 0; q < im[i].n; q++, r++) {
            int l = score[r] > 0;
            fputc(l ? '1' : '0', a.f);
            bl_segcount_add(cnt, l, im[i].size[q], im[i].fg[q]);
        }
        fputc('\n', a.f);
        free(p);
        if (bl_atomic_commit(&a, err) < 0)
            return -1;
    }
    return 0;
}

static int baselines(const bl_registry *reg, const char *outdir, const simg *im, size_t nimg,
                     const bl_segprep_opts *o, bl_error *err)
{
    size_t m, d, mz, dz;
    int *y = bl_xmalloc(rows(im, nimg, pick_train, 0) * sizeof *y + 1);
    float *X = gather(im, nimg, pick_train, 0, -1, &m, &d, y);
    float *Z = gather(im, nimg, pick_test, 0, -1, &mz, &dz, NULL);
    double *out = bl_xmalloc((mz ? mz : 1) * sizeof *out);
    const char *name[2] = {"adaboost", "svm"};
    double v[2][6];
    int rc = 0;
    for (int b = 0; b < 2 && rc == 0; b++) {
        rc = b == 0 ? adaboost(reg, X, y, m, d, o->base_iterations,
                               bl_seed_derive(o->seed, "baseline", 0), Z, mz, out, err)
                    : linsvm(X, y, m, d, o->svm_C, o->seed, Z, mz, out, err);
        bl_segcount cnt = {0, 0, 0, 0};
        char dn[32];
        snprintf(dn, sizeof dn, "pred-%s", name[b]);
        char *dir = bl_path_join(outdir, dn);
        if (rc == 0)
            rc = write_labels(dir, im, nimg, pick_test, out, &cnt, err);
        free(dir);
        bl_segcount_values(&cnt, v[b]);
        if (rc < 0)
            bl_errprefix(err, "baseline %s", name[b]);
    }
    if (rc == 0) {
        char *p = bl_path_join(outdir, "baselines.tsv");
        bl_atomic a;
        rc = bl_atomic_open(&a, p, err);
        if (rc == 0) {
            fprintf(a.f, "# unary-only super-pixel classifiers on all %zu features; test "
                    "images; pixel metrics\nmethod\tiou_mean\tiou_fg\tiou_bg\tacc_mean\tacc_fg"
                    "\tacc_bg\n", d);
            for (int b = 0; b < 2; b++)
                fprintf(a.f, "%s\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\n", name[b], v[b][0],
                        v[b][1], v[b][2], v[b][3], v[b][4], v[b][5]);
            rc = bl_atomic_commit(&a, err);
        }
        free(p);
    }
    free(X), free(y), free(Z), free(out);
    return rc;
}

/* ---- the run ------------------------------------------------------------ */

static int write_crf(const char *outdir, const simg *s, bl_error *err)
{
    char name[32];
    snprintf(name, sizeof name, "%04u.crf", s->id);
    char *p = bl_path_join(outdir, name);
    bl_atomic a;
    int rc = bl_atomic_open(&a, p, err);
    free(p);
    if (rc < 0)
        return -1;
    fprintf(a.f, "crf 1\n# groups:");
    for (int k = 0; k < BL_SPFEAT_NGROUPS; k++)
        fprintf(a.f, " %s", bl_spfeat_name[k]);
    fprintf(a.f, "\nimage %u nodes %zu edges %zu groups %d\n", s->id, s->n, s->ne,
            BL_SPFEAT_NGROUPS);
    for (size_t q = 0; q < s->n; q++) {
        fprintf(a.f, "n %.0f %.0f %d", s->size[q], s->fg[q], s->y[q]);
        for (int k = 0; k < BL_SPFEAT_NGROUPS; k++)
            fprintf(a.f, " %.9g", s->U[q * BL_SPFEAT_NGROUPS + k]);
        fputc('\n', a.f);
    }
    for (size_t e = 0; e < s->ne; e++)
        fprintf(a.f, "e %u %u %.9g %.0f\n", s->ep[e], s->eq[e], s->colour[e], s->blen[e]);
    return bl_atomic_commit(&a, err);
}

static int write_ids(const char *outdir, const char *file, const simg *im, size_t nimg, int train,
                     bl_error *err)
{
    char *p = bl_path_join(outdir, file);
    bl_atomic a;
    int rc = bl_atomic_open(&a, p, err);
    free(p);
    if (rc < 0)
        return -1;
    fprintf(a.f, "image,set\n");
    for (size_t i = 0; i < nimg; i++)
        if (im[i].train == train)
            fprintf(a.f, "%u,image\n", im[i].id);
    return bl_atomic_commit(&a, err);
}

/* images.csv: "id,part,image,mask" lines, part train or test. */
static int read_list(const char *setdir, simg **out, size_t *n, char ***img, char ***mask,
                     bl_error *err)
{
    char *p = bl_path_join(setdir, "images.csv");
    FILE *f = fopen(p, "r");
    if (!f) {
        int rc = bl_errf(err, "cannot open %s: %s (a folder written by boostlab segment make?)",
                         p, strerror(errno));
        free(p);
        return rc;
    }
    char *line = NULL;
    size_t cap = 0, ln = 0, k = 0;
    simg *im = NULL;
    char **I = NULL, **M = NULL;
    int rc = 0;
    while (getline(&line, &cap, f) >= 0) {
        ln++;
        line[strcspn(line, "\r\n")] = 0;
        if (ln == 1) {
            if (strcmp(line, "id,part,image,mask"))
                rc = bl_errf(err, "%s:1: expected the header 'id,part,image,mask'", p);
            if (rc < 0)
                break;
            continue;
        }
        if (!line[0])
            continue;
        char part[16], a[512], b[512];
        unsigned id;
        int used = 0;
        if (sscanf(line, "%u,%15[^,],%511[^,],%511[^,]%n", &id, part, a, b, &used) != 4 ||
            line[used]) {
            rc = bl_errf(err, "%s:%zu: expected 'id,part,image,mask'", p, ln);
            break;
        }
        if (strcmp(part, "train") && strcmp(part, "test")) {
            rc = bl_errf(err, "%s:%zu: field part: '%s' is neither train nor test", p, ln, part);
            break;
        }
        for (size_t j = 0; j < k; j++)
            if (im[j].id == id) {
                rc = bl_errf(err, "%s:%zu: field id: image %u listed twice", p, ln, id);
                break;
            }
        if (rc < 0)
            break;
        im = bl_xrealloc(im, (k + 1) * sizeof *im);
        I = bl_xrealloc(I, (k + 1) * sizeof *I);
        M = bl_xrealloc(M, (k + 1) * sizeof *M);
        memset(&im[k], 0, sizeof im[k]);
        im[k].id = id;
        im[k].train = !strcmp(part, "train");
        I[k] = bl_strdup(a);
        M[k] = bl_strdup(b);
        k++;
    }
    free(line);
    fclose(f);
    size_t ntr = 0;
    for (size_t j = 0; j < k; j++)
        ntr += im[j].train;
    if (rc == 0 && (ntr < 2 || ntr == k))
        rc = bl_errf(err, "%s: needs at least 2 training images and 1 test image (has %zu and "
                     "%zu)", p, ntr, k - ntr);
    free(p);
    *out = im, *n = k, *img = I, *mask = M;
    return rc;
}

int bl_segprep_run(const char *setdir, const char *outdir, const bl_segprep_opts *o,
                   const bl_registry *reg, bl_error *err)
{
    simg *im = NULL;
    size_t nimg = 0;
    char **I = NULL, **M = NULL;
    int rc = read_list(setdir, &im, &nimg, &I, &M, err);
    if (rc == 0)
        rc = bl_mkdirs(outdir, err);
    size_t ntr = 0;
    for (size_t i = 0; i < nimg && rc == 0; i++) {
        rc = load_image(setdir, outdir, I[i], M[i], o, &im[i], err);
        if (im[i].train)
            im[i].fold = (int)(ntr++ % 2);
        im[i].U = bl_xcalloc(im[i].n ? im[i].n * BL_SPFEAT_NGROUPS : 1, sizeof(double));
    }
    if (rc == 0 && !o->quiet)
        fprintf(stderr, "boostlab: %zu images: super-pixels and features done\n", nimg);
    if (rc == 0)
        rc = unaries(reg, im, nimg, o, err);
    for (size_t i = 0; i < nimg && rc == 0; i++)
        rc = write_crf(outdir, &im[i], err);
    if (rc == 0)
        rc = write_ids(outdir, "train.csv", im, nimg, 1, err);
    if (rc == 0)
        rc = write_ids(outdir, "test.csv", im, nimg, 0, err);
    if (rc == 0)
        rc = baselines(reg, outdir, im, nimg, o, err);
    for (size_t i = 0; i < nimg; i++) {
        simg_free(&im[i]);
        free(I[i]), free(M[i]);
    }
    free(im), free(I), free(M);
    return rc;
}

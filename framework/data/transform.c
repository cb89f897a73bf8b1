/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Feature transforms of the [data] section: deskew, HOG, PCA (transform.h). */
#include "transform.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <vl/hog.h>

#include "../util/fsutil.h"

/* ---- keys ------------------------------------------------------------- */

int bl_transform_key(const char *k)
{
    return !strcmp(k, "image") || !strcmp(k, "deskew") || !strcmp(k, "hog") ||
           !strcmp(k, "hog_orientations") || !strcmp(k, "pca") || !strcmp(k, "pca_variance");
}

/* A whole positive integer in [lo, hi] from s..end (end NULL: to the NUL). */
static int parse_size(const char *s, char **endp, size_t lo, size_t hi, size_t *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || v < lo || v > hi || (!endp && *end))
        return -1;
    if (endp)
        *endp = end;
    *out = (size_t)v;
    return 0;
}

static int parse_hog(bl_transform_spec *t, const char *v, const char *where, bl_error *err)
{
    t->nhog = 0;
    const char *p = v;
    for (;;) {
        while (*p == ' ')
            p++;
        char *end;
        if (t->nhog == BL_HOG_MAX_LEVELS ||
            parse_size(p, &end, 1, 4096, &t->hog_cell[t->nhog]) < 0)
            return bl_errf(err, "%s: hog: expected up to %d cell sizes in pixels, comma-separated "
                           "(e.g. hog = 4,7,14), got '%s'", where, BL_HOG_MAX_LEVELS, v);
        t->nhog++;
        while (*end == ' ')
            end++;
        if (!*end)
            return 0;
        if (*end != ',')
            return bl_errf(err, "%s: hog: expected cell sizes separated by commas, got '%s'",
                           where, v);
        p = end + 1;
    }
}

int bl_transform_parse(bl_transform_spec *t, const char *k, const char *v, const char *where,
                       bl_error *err)
{
    char *end;
    if (!strcmp(k, "image")) {
        if (parse_size(v, &end, 1, 1 << 16, &t->img_w) < 0 || *end != 'x' ||
            parse_size(end + 1, NULL, 1, 1 << 16, &t->img_h) < 0)
            return bl_errf(err, "%s: image: expected WIDTHxHEIGHT in pixels (e.g. 28x28), got '%s'",
                           where, v);
        free(t->where_image);
        t->where_image = bl_strdup(where);
    } else if (!strcmp(k, "deskew")) {
        if (strcmp(v, "true") && strcmp(v, "false"))
            return bl_errf(err, "%s: deskew: expected true|false, got '%s'", where, v);
        t->deskew = !strcmp(v, "true");
        free(t->where_deskew);
        t->where_deskew = bl_strdup(where);
    } else if (!strcmp(k, "hog")) {
        if (parse_hog(t, v, where, err) < 0)
            return -1;
        free(t->where_hog);
        t->where_hog = bl_strdup(where);
    } else if (!strcmp(k, "hog_orientations")) {
        size_t n;
        if (parse_size(v, NULL, 2, 64, &n) < 0)
            return bl_errf(err, "%s: hog_orientations: expected an integer in 2..64, got '%s'",
                           where, v);
        t->hog_orient = (int)n;
    } else if (!strcmp(k, "pca")) {
        if (t->pca_var > 0 || parse_size(v, NULL, 1, 100000000, &t->pca_dim) < 0)
            return bl_errf(err, "%s: pca: expected the number of components (a positive "
                           "integer), and not together with pca_variance; got '%s'", where, v);
        free(t->where_pca);
        t->where_pca = bl_strdup(where);
    } else if (!strcmp(k, "pca_variance")) {
        double f = strtod(v, &end);
        if (t->pca_dim || end == v || *end || !(f > 0 && f <= 1))
            return bl_errf(err, "%s: pca_variance: expected the fraction of the variance kept, "
                           "in (0, 1], and not together with pca; got '%s'", where, v);
        t->pca_var = f;
        free(t->where_pca);
        t->where_pca = bl_strdup(where);
    }
    return 0;
}

void bl_transform_write(const bl_transform_spec *t, FILE *f)
{
    if (t->img_w)
        fprintf(f, "image = %zux%zu\n", t->img_w, t->img_h);
    if (t->deskew)
        fprintf(f, "deskew = true\n");
    if (t->nhog) {
        fprintf(f, "hog = ");
        for (size_t l = 0; l < t->nhog; l++)
            fprintf(f, "%s%zu", l ? "," : "", t->hog_cell[l]);
        fprintf(f, "\nhog_orientations = %d\n", t->hog_orient ? t->hog_orient : 9);
    }
    if (t->pca_dim)
        fprintf(f, "pca = %zu\n", t->pca_dim);
    if (t->pca_var > 0)
        fprintf(f, "pca_variance = %.17g\n", t->pca_var);
}

int bl_transform_same(const bl_transform_spec *a, const bl_transform_spec *b)
{
    return a->img_w == b->img_w && a->img_h == b->img_h && a->deskew == b->deskew &&
           a->nhog == b->nhog && !memcmp(a->hog_cell, b->hog_cell, sizeof a->hog_cell) &&
           a->hog_orient == b->hog_orient && a->pca_dim == b->pca_dim && a->pca_var == b->pca_var;
}

void bl_transform_free(bl_transform_spec *t)
{
    free(t->where_image);
    free(t->where_deskew);
    free(t->where_hog);
    free(t->where_pca);
    memset(t, 0, sizeof *t);
}

/* ---- deskew ----------------------------------------------------------- */

/* The classic moment deskew (as in LeCun et al.'s MNIST preprocessing and
 * the deslanting of Meier et al. 2011 that RandomBoost cites): the
 * intensity's second moments give the slant alpha = mu11 / mu02 (x
 * change per row), and each row is shifted back by alpha (y - cy), with
 * linear interpolation along the row and zeros outside the image. */
void bl_deskew(const float *img, size_t w, size_t h, float *out)
{
    double m0 = 0, mx = 0, my = 0;
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++) {
            double v = img[y * w + x];
            m0 += v;
            mx += v * (double)x;
            my += v * (double)y;
        }
    double alpha = 0, cy = 0;
    if (m0 > 0) {
        double cx = mx / m0, mu11 = 0, mu02 = 0;
        cy = my / m0;
        for (size_t y = 0; y < h; y++)
            for (size_t x = 0; x < w; x++) {
                double v = img[y * w + x];
                mu11 += v * ((double)x - cx) * ((double)y - cy);
                mu02 += v * ((double)y - cy) * ((double)y - cy);
            }
        if (mu02 > 1e-12 * m0)
            alpha = mu11 / mu02;
    }
    for (size_t y = 0; y < h; y++) {
        double shift = alpha * ((double)y - cy);
        for (size_t x = 0; x < w; x++) {
            double sx = (double)x + shift, f = floor(sx), a = sx - f;
            long x0 = (long)f;
            double v0 = x0 >= 0 && x0 < (long)w ? img[y * w + (size_t)x0] : 0;
            double v1 = x0 + 1 >= 0 && x0 + 1 < (long)w ? img[y * w + (size_t)(x0 + 1)] : 0;
            out[y * w + x] = (float)((1 - a) * v0 + a * v1);
        }
    }
}

/* ---- HOG -------------------------------------------------------------- */

/* VLFeat's UoCTTI variant (Felzenszwalb et al. 2010): per cell 2 o directed
 * and o undirected orientation bins, each normalised over the four 2 x 2
 * blocks of cells that contain the cell (blocks overlapping by half, as the
 * papers' "50 % block overlap"), plus 4 texture energies. */
static VlHog *hog_new(int orient)
{
    return vl_hog_new(VlHogVariantUoctti, (vl_size)(orient ? orient : 9), VL_FALSE);
}

size_t bl_hog_dim(size_t w, size_t h, const size_t *cells, size_t ncells, int orient)
{
    VlHog *hog = hog_new(orient);
    float *zero = bl_xcalloc(w * h, sizeof *zero);
    size_t n = 0;
    for (size_t l = 0; l < ncells; l++) {
        vl_hog_put_image(hog, zero, w, h, 1, cells[l]);
        n += vl_hog_get_width(hog) * vl_hog_get_height(hog) * vl_hog_get_dimension(hog);
    }
    free(zero);
    vl_hog_delete(hog);
    return n;
}

void bl_hog(const float *img, size_t w, size_t h, const size_t *cells, size_t ncells, int orient,
            float *out)
{
    VlHog *hog = hog_new(orient);
    for (size_t l = 0; l < ncells; l++) {
        vl_hog_put_image(hog, img, w, h, 1, cells[l]);
        vl_hog_extract(hog, out);
        out += vl_hog_get_width(hog) * vl_hog_get_height(hog) * vl_hog_get_dimension(hog);
    }
    vl_hog_delete(hog);
}

static char **numbered_names(const char *prefix, size_t n)
{
    char **names = bl_xmalloc((n ? n : 1) * sizeof *names);
    for (size_t j = 0; j < n; j++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s%zu", prefix, j + 1);
        names[j] = bl_strdup(buf);
    }
    return names;
}

static void replace_features(bl_dataset *ds, float *x, size_t d, const char *prefix)
{
    for (size_t j = 0; j < ds->d; j++)
        free(ds->feature_names[j]);
    free(ds->feature_names);
    free(ds->x);
    ds->x = x;
    ds->d = d;
    ds->feature_names = numbered_names(prefix, d);
}

/* The image shape: image = WxH, else a square from the feature count. */
static int image_shape(const bl_transform_spec *t, const bl_dataset *ds, size_t *w, size_t *h,
                       bl_error *err)
{
    const char *key = t->where_hog ? "hog" : "deskew";
    const char *where = t->where_hog ? t->where_hog : t->where_deskew;
    if (t->img_w) {
        if (t->img_w * t->img_h != ds->d)
            return bl_errf(err, "%s: image: %zux%zu is %zu pixels but the data set has %zu "
                           "features", t->where_image, t->img_w, t->img_h, t->img_w * t->img_h,
                           ds->d);
        *w = t->img_w;
        *h = t->img_h;
        return 0;
    }
    size_t s = (size_t)llround(sqrt((double)ds->d));
    if (s * s != ds->d || s < 2)
        return bl_errf(err, "%s: %s: the data set's %zu features are not a square image: is it "
                       "an image data set? If so, give its shape with 'image = WxH'",
                       where, key, ds->d);
    *w = *h = s;
    return 0;
}

int bl_transform_images(const bl_transform_spec *t, bl_dataset *ds, bl_error *err)
{
    if (!bl_transform_has_image(t) || !ds->m)
        return 0;
    if (!ds->x) /* images are read from dense rows; a sparse set is not an image */
        return bl_errf(err, "%s: image transforms need dense data (storage = dense)",
                       t->where_hog ? t->where_hog : t->where_deskew ? t->where_deskew
                                                                     : t->where_image);
    size_t w = 0, h = 0;
    if (image_shape(t, ds, &w, &h, err) < 0)
        return -1;
    for (size_t l = 0; l < t->nhog; l++)
        if (t->hog_cell[l] > w || t->hog_cell[l] > h)
            return bl_errf(err, "%s: hog: cell size %zu is larger than the %zux%zu image",
                           t->where_hog, t->hog_cell[l], w, h);
    size_t m = ds->m, n = w * h;
    size_t dout = t->nhog ? bl_hog_dim(w, h, t->hog_cell, t->nhog, t->hog_orient) : n;
    float *img = bl_xmalloc(n * sizeof *img), *sk = bl_xmalloc(n * sizeof *sk);
    float *feat = bl_xmalloc(dout * sizeof *feat);
    float *x = bl_xmalloc(m * dout * sizeof *x);
    VlHog *hog = t->nhog ? hog_new(t->hog_orient) : NULL;
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < n; j++) {
            img[j] = ds->x[j * m + i];
            if (isnan(img[j])) {
                free(img), free(sk), free(feat), free(x);
                if (hog)
                    vl_hog_delete(hog);
                return bl_errf(err, "%s: %s: example %zu has a missing pixel (%zu)",
                               t->where_hog ? t->where_hog : t->where_deskew,
                               t->where_hog ? "hog" : "deskew", i + 1, j + 1);
            }
        }
        const float *src = img;
        if (t->deskew) {
            bl_deskew(img, w, h, sk);
            src = sk;
        }
        float *f = feat;
        for (size_t l = 0; l < t->nhog; l++) {
            vl_hog_put_image(hog, src, w, h, 1, t->hog_cell[l]);
            vl_hog_extract(hog, f);
            f += vl_hog_get_width(hog) * vl_hog_get_height(hog) * vl_hog_get_dimension(hog);
        }
        const float *row = t->nhog ? feat : src;
        for (size_t j = 0; j < dout; j++)
            x[j * m + i] = row[j];
    }
    if (hog)
        vl_hog_delete(hog);
    free(img), free(sk), free(feat);
    replace_features(ds, x, dout, t->nhog ? "hog" : "px");
    return 0;
}

/* ---- PCA -------------------------------------------------------------- */

void bl_pca_free(bl_pca *p)
{
    free(p->mean);
    free(p->basis);
    free(p->eigval);
    memset(p, 0, sizeof *p);
}

/* Eigen-decomposition of the symmetric n x n matrix S (destroyed), values
 * decreasing. */
static void eigen_desc(gsl_matrix *S, gsl_vector *val, gsl_matrix *vec)
{
    gsl_eigen_symmv_workspace *ws = gsl_eigen_symmv_alloc(S->size1);
    gsl_eigen_symmv(S, val, vec, ws);
    gsl_eigen_symmv_free(ws);
    gsl_eigen_symmv_sort(val, vec, GSL_EIGEN_SORT_VAL_DESC);
}

/* Components of the centred d x m matrix A (row f = feature f): the
 * eigenvectors of A A^T / (m-1), or, with fewer rows than features, those
 * of the m x m Gram matrix A^T A mapped back (v = A u / sqrt(lambda)),
 * which has the same nonzero spectrum at a fraction of the cost.  Fills
 * p->eigval (all min(d, m) values) and p->basis (the first `keep`). */
static void components(const gsl_matrix *A, size_t keep, bl_pca *p)
{
    size_t d = A->size1, m = A->size2, r = d < m ? d : m;
    int gram = m < d;
    size_t n = gram ? m : d;
    gsl_matrix *S = gsl_matrix_calloc(n, n), *vec = gsl_matrix_alloc(n, n);
    gsl_vector *val = gsl_vector_alloc(n);
    gsl_blas_dsyrk(CblasUpper, gram ? CblasTrans : CblasNoTrans, 1.0 / (double)(m - 1), A, 0.0,
                   S);
    for (size_t i = 0; i < n; i++) /* eigen_symmv reads the lower triangle */
        for (size_t j = i + 1; j < n; j++)
            gsl_matrix_set(S, j, i, gsl_matrix_get(S, i, j));
    eigen_desc(S, val, vec);
    p->eigval = bl_xmalloc(r * sizeof *p->eigval);
    for (size_t j = 0; j < r; j++)
        p->eigval[j] = fmax(gsl_vector_get(val, j), 0);
    p->basis = bl_xcalloc(keep * d, sizeof *p->basis);
    for (size_t j = 0; j < keep; j++) {
        double *b = p->basis + j * d, norm = 0, big = 0;
        for (size_t f = 0; f < d; f++) {
            double v = 0;
            if (gram)
                for (size_t i = 0; i < m; i++)
                    v += gsl_matrix_get(A, f, i) * gsl_matrix_get(vec, i, j);
            else
                v = gsl_matrix_get(vec, f, j);
            b[f] = v;
            norm += v * v;
        }
        norm = sqrt(norm);
        for (size_t f = 0; f < d; f++) { /* unit length; sign: largest entry > 0 */
            b[f] /= norm;
            if (fabs(b[f]) > fabs(big))
                big = b[f];
        }
        if (big < 0)
            for (size_t f = 0; f < d; f++)
                b[f] = -b[f];
    }
    gsl_matrix_free(S);
    gsl_matrix_free(vec);
    gsl_vector_free(val);
}

int bl_pca_fit(const bl_dataset *ds, size_t dim, double var, bl_pca *p, bl_error *err)
{
    memset(p, 0, sizeof *p);
    size_t m = ds->m, d = ds->d, r = d < m - 1 ? d : m - 1;
    if (m < 2)
        return bl_errf(err, "PCA needs at least 2 training rows, got %zu", m);
    if (dim > d)
        return bl_errf(err, "pca = %zu but the data set has only %zu features", dim, d);
    if (dim > r)
        return bl_errf(err, "pca = %zu but %zu training rows span at most %zu components", dim,
                       m, r);
    gsl_matrix *A = gsl_matrix_alloc(d, m);
    p->mean = bl_xcalloc(d, sizeof *p->mean);
    p->d = d;
    for (size_t f = 0; f < d; f++) {
        const float *col = ds->x + f * m;
        double s = 0;
        for (size_t i = 0; i < m; i++) {
            if (isnan(col[i])) {
                gsl_matrix_free(A);
                bl_pca_free(p);
                return bl_errf(err, "PCA: feature %s of training row %zu is missing",
                               ds->feature_names[f], i + 1);
            }
            s += col[i];
        }
        p->mean[f] = s / (double)m;
        for (size_t i = 0; i < m; i++) {
            double v = col[i] - p->mean[f];
            gsl_matrix_set(A, f, i, v);
            p->total += v * v / (double)(m - 1);
        }
    }
    /* D from the spectrum: fit all r first when choosing by variance */
    components(A, dim ? dim : r, p);
    if (!dim) {
        double cum = 0;
        dim = r;
        for (size_t j = 0; j < r; j++) {
            cum += p->eigval[j];
            if (cum >= var * p->total * (1 - 1e-12)) {
                dim = j + 1;
                break;
            }
        }
    }
    p->D = dim;
    gsl_matrix_free(A);
    return 0;
}

void bl_pca_apply(const bl_pca *p, bl_dataset *ds)
{
    size_t m = ds->m, d = p->d, D = p->D;
    float *z = bl_xmalloc((m && D ? m * D : 1) * sizeof *z);
    double *row = bl_xmalloc(d * sizeof *row);
    for (size_t i = 0; i < m; i++) {
        for (size_t f = 0; f < d; f++)
            row[f] = ds->x[f * m + i] - p->mean[f];
        for (size_t j = 0; j < D; j++) {
            const double *b = p->basis + j * d;
            double s = 0;
            for (size_t f = 0; f < d; f++)
                s += b[f] * row[f];
            z[j * m + i] = (float)s;
        }
    }
    free(row);
    replace_features(ds, z, D, "pc");
}

int bl_transform_pca(const bl_transform_spec *t, bl_dataset *train, bl_dataset *test,
                     bl_error *err)
{
    if (!bl_transform_has_pca(t))
        return 0;
    if (!train->x || (test->m && !test->x))
        return bl_errf(err, "%s: %s needs dense data (storage = dense)", t->where_pca,
                       t->pca_dim ? "pca" : "pca_variance");
    bl_pca p;
    if (bl_pca_fit(train, t->pca_dim, t->pca_var, &p, err) < 0)
        return bl_errprefix(err, "%s: %s", t->where_pca, t->pca_dim ? "pca" : "pca_variance");
    bl_pca_apply(&p, train);
    if (test->m)
        bl_pca_apply(&p, test);
    bl_pca_free(&p);
    return 0;
}

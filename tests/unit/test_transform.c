/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of the [data] section's feature transforms (data/transform.h):
 * deskewing a sheared bar, HOG's length and the orientation it finds in a
 * known gradient, PCA against data with known principal axes (and the
 * dimension a variance fraction picks), that the test part never moves the
 * basis, and the keys' error messages. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "data/transform.h"
#include "util/fsutil.h"

static bl_error err;

#define W 28

/* Least-squares slope of the rows' intensity centroids against the row. */
static double row_slope(const float *img)
{
    double sy = 0, sc = 0, syy = 0, syc = 0, n = 0;
    for (size_t y = 0; y < W; y++) {
        double m0 = 0, mx = 0;
        for (size_t x = 0; x < W; x++) {
            m0 += img[y * W + x];
            mx += img[y * W + x] * (double)x;
        }
        if (m0 <= 0)
            continue;
        double c = mx / m0;
        sy += (double)y, sc += c, syy += (double)y * y, syc += (double)y * c, n++;
    }
    return (n * syc - sy * sc) / (n * syy - sy * sy);
}

/* A bar about 3 pixels wide, with soft (linear) edges so that shearing it
 * leaves no staircase, whose centre is at x = 14 + s (y - 14), rows 4..23. */
static void sheared_bar(float *img, double s)
{
    for (size_t y = 0; y < W; y++)
        for (size_t x = 0; x < W; x++) {
            double c = 14 + s * ((double)y - 14);
            double v = fmin(fmax(2.0 - fabs((double)x - c), 0), 1);
            img[y * W + x] = y >= 4 && y < 24 ? (float)(255 * v) : 0.0f;
        }
}

Test(deskew, sheared_bar_becomes_upright)
{
    float img[W * W], out[W * W];
    for (int sign = -1; sign <= 1; sign += 2) {
        sheared_bar(img, 0.4 * sign);
        cr_assert_float_eq(row_slope(img), 0.4 * sign, 0.05);
        bl_deskew(img, W, W, out);
        cr_assert(fabs(row_slope(out)) < 0.03, "slope after deskew %g", row_slope(out));
        double before = 0, after = 0; /* the ink is kept (it stays inside) */
        for (size_t j = 0; j < W * W; j++)
            before += img[j], after += out[j];
        cr_assert_float_eq(after, before, 0.02 * before);
    }
}

Test(deskew, upright_bar_and_blank_unchanged)
{
    float img[W * W], out[W * W];
    sheared_bar(img, 0);
    bl_deskew(img, W, W, out);
    cr_assert(!memcmp(img, out, sizeof img));
    memset(img, 0, sizeof img);
    bl_deskew(img, W, W, out);
    cr_assert(!memcmp(img, out, sizeof img));
}

Test(hog, dimension_of_the_papers_levels)
{
    size_t cells[] = {4, 7, 14};
    /* 7x7 + 4x4 + 2x2 cells, 31 values each (UoCTTI, 9 orientations) */
    cr_assert_eq(bl_hog_dim(W, W, cells, 3, 9), (size_t)(49 + 16 + 4) * 31);
    cr_assert_eq(bl_hog_dim(W, W, cells, 1, 4), (size_t)49 * 16);
}

/* Argmax of the o undirected bins of the centre cell of a 4x4-cell HOG. */
static size_t undirected_peak(const float *img, int o)
{
    size_t cells[] = {7}, n = bl_hog_dim(W, W, cells, 1, o), ncell = 16, dim = 4 + 3 * (size_t)o;
    cr_assert_eq(n, ncell * dim);
    float *h = bl_xmalloc(n * sizeof *h);
    bl_hog(img, W, W, cells, 1, o, h);
    size_t cell = 1 * 4 + 1, best = 0; /* row 1, column 1: inside */
    for (size_t b = 0; b < (size_t)o; b++)
        if (h[(2 * (size_t)o + b) * ncell + cell] > h[(2 * (size_t)o + best) * ncell + cell])
            best = b;
    free(h);
    return best;
}

Test(hog, dominant_orientation_of_a_known_gradient)
{
    float img[W * W];
    for (size_t y = 0; y < W; y++) /* a horizontal gradient: 0 degrees */
        for (size_t x = 0; x < W; x++)
            img[y * W + x] = (float)(x * x);
    cr_assert_eq(undirected_peak(img, 4), 0);
    cr_assert_eq(undirected_peak(img, 9), 0);
    for (size_t y = 0; y < W; y++) /* vertical: 90 degrees, bin 2 of 4 */
        for (size_t x = 0; x < W; x++)
            img[y * W + x] = (float)(y * y);
    cr_assert_eq(undirected_peak(img, 4), 2);
}

/* n rows of a 3-d Gaussian with standard deviations 4, 2, 1 along the
 * rotated axes ax[0..2] (orthonormal), centred at (5, -3, 2). */
static void known_axes(bl_dataset *ds, size_t n, const double ax[3][3])
{
    memset(ds, 0, sizeof *ds);
    ds->m = n, ds->d = 3, ds->k = 1;
    ds->x = bl_xmalloc(3 * n * sizeof *ds->x);
    ds->y = bl_xcalloc(n, sizeof *ds->y);
    ds->feature_names = bl_xmalloc(3 * sizeof(char *));
    ds->class_names = bl_xmalloc(sizeof(char *));
    ds->class_names[0] = bl_strdup("a");
    const double sd[3] = {4, 2, 1}, c[3] = {5, -3, 2};
    for (size_t f = 0; f < 3; f++)
        ds->feature_names[f] = bl_strdup(f == 0 ? "a" : f == 1 ? "b" : "c");
    for (size_t i = 0; i < n; i++) {
        double z[3];
        for (size_t a = 0; a < 3; a++) /* Box-Muller */
            z[a] = sd[a] * sqrt(-2 * log(1 - urand())) * cos(2 * M_PI * urand());
        for (size_t f = 0; f < 3; f++)
            ds->x[f * n + i] = (float)(c[f] + z[0] * ax[0][f] + z[1] * ax[1][f] + z[2] * ax[2][f]);
    }
}

static const double AX[3][3] = {{0.6, 0.8, 0}, {-0.8, 0.6, 0}, {0, 0, 1}};

Test(pca, finds_the_known_axes_and_the_variance_dimension)
{
    rng_seed(7);
    bl_dataset ds;
    known_axes(&ds, 4000, AX);
    bl_pca p;
    cr_assert_eq(bl_pca_fit(&ds, 0, 0.9, &p, &err), 0, "%s", err.msg);
    /* variances 16, 4, 1: 16/21 = 0.76 < 0.9 <= 20/21 */
    cr_assert_eq(p.D, 2);
    cr_assert_float_eq(p.eigval[0], 16, 1.5);
    cr_assert_float_eq(p.eigval[1], 4, 0.4);
    cr_assert_float_eq(p.total, 21, 2);
    for (size_t j = 0; j < 2; j++) {
        double dot = 0;
        for (size_t f = 0; f < 3; f++)
            dot += p.basis[j * 3 + f] * AX[j][f];
        cr_assert(fabs(dot) > 0.99, "component %zu: |cos| = %g", j, fabs(dot));
    }
    bl_pca_free(&p);
    cr_assert_eq(bl_pca_fit(&ds, 0, 0.7, &p, &err), 0);
    cr_assert_eq(p.D, 1);
    bl_pca_free(&p);
    cr_assert_eq(bl_pca_fit(&ds, 0, 1.0, &p, &err), 0);
    cr_assert_eq(p.D, 3);
    bl_pca_free(&p);
    bl_dataset_free(&ds);
}

/* More features than rows (the Gram-matrix path): the scores of the
 * training rows are centred, uncorrelated, with the eigenvalues as
 * variances. */
Test(pca, few_rows_scores_are_uncorrelated)
{
    rng_seed(3);
    size_t m = 12, d = 40;
    bl_dataset ds = {0};
    ds.m = m, ds.d = d, ds.k = 1;
    ds.x = bl_xmalloc(m * d * sizeof *ds.x);
    ds.y = bl_xcalloc(m, sizeof *ds.y);
    ds.feature_names = bl_xmalloc(d * sizeof(char *));
    for (size_t f = 0; f < d; f++) {
        ds.feature_names[f] = bl_strdup("f");
        for (size_t i = 0; i < m; i++)
            ds.x[f * m + i] = (float)(urand() * (1 + (double)f / 4));
    }
    ds.class_names = bl_xmalloc(sizeof(char *));
    ds.class_names[0] = bl_strdup("a");
    bl_pca p;
    cr_assert_eq(bl_pca_fit(&ds, 5, 0, &p, &err), 0, "%s", err.msg);
    double ev[5];
    memcpy(ev, p.eigval, sizeof ev);
    bl_pca_apply(&p, &ds);
    cr_assert_eq(ds.d, 5);
    cr_assert_str_eq(ds.feature_names[4], "pc5");
    for (size_t a = 0; a < 5; a++)
        for (size_t b = 0; b <= a; b++) {
            double s = 0, ma = 0;
            for (size_t i = 0; i < m; i++)
                s += (double)ds.x[a * m + i] * ds.x[b * m + i], ma += ds.x[a * m + i];
            s /= (double)(m - 1);
            cr_assert(fabs(ma) < 1e-3, "score %zu not centred: %g", a, ma);
            cr_assert_float_eq(s, a == b ? ev[a] : 0, 1e-3 * (1 + ev[0]), "cov(%zu,%zu)", a, b);
        }
    cr_assert(ev[0] >= ev[1] && ev[1] >= ev[4] && ev[4] > 0);
    bl_pca_free(&p);
    /* 12 rows span at most 11 components */
    cr_assert_eq(bl_pca_fit(&ds, 5, 0, &p, &err), 0);
    bl_pca_free(&p);
    bl_dataset_free(&ds);
}

static bl_dataset copy_of(const bl_dataset *src, size_t extra_rows)
{
    size_t n = src->m + extra_rows, *rows = bl_xmalloc(n * sizeof *rows);
    for (size_t i = 0; i < n; i++)
        rows[i] = i % src->m;
    bl_dataset out;
    cr_assert_eq(bl_dataset_subset(src, rows, n, &out, &err), 0);
    free(rows);
    for (size_t i = src->m; i < n; i++) /* far-away rows: they would tilt any basis */
        for (size_t f = 0; f < out.d; f++)
            out.x[f * n + i] = (float)(f == 2 ? 1000.0 * (double)(i - src->m + 1) : 0);
    return out;
}

Test(pca, test_rows_do_not_change_the_basis)
{
    rng_seed(11);
    bl_dataset base, tr1, tr2, te1, te2;
    known_axes(&base, 300, AX);
    tr1 = copy_of(&base, 0), tr2 = copy_of(&base, 0);
    te1 = copy_of(&base, 0), te2 = copy_of(&base, 50);
    bl_transform_spec t = {0};
    cr_assert_eq(bl_transform_parse(&t, "pca", "2", "t.ini:4", &err), 0);
    cr_assert_eq(bl_transform_pca(&t, &tr1, &te1, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_transform_pca(&t, &tr2, &te2, &err), 0, "%s", err.msg);
    cr_assert_eq(te2.d, 2);
    cr_assert(!memcmp(tr1.x, tr2.x, 2 * 300 * sizeof(float)));
    for (size_t j = 0; j < 2; j++) /* the common test rows map alike */
        for (size_t i = 0; i < 300; i++)
            cr_assert_eq(te1.x[j * 300 + i], te2.x[j * 350 + i]);
    /* the training rows as test rows score as they did in training */
    cr_assert(!memcmp(tr1.x, te1.x, 2 * 300 * sizeof(float)));
    bl_transform_free(&t);
    bl_dataset_free(&base), bl_dataset_free(&tr1), bl_dataset_free(&tr2);
    bl_dataset_free(&te1), bl_dataset_free(&te2);
}

/* Two 28 x 28 images: an upright bar and one sheared by 0.7. */
static bl_dataset bar_pair(void)
{
    bl_dataset im = {0};
    im.m = 2, im.d = W * W, im.k = 1;
    im.x = bl_xmalloc(2 * W * W * sizeof *im.x);
    im.y = bl_xcalloc(2, sizeof *im.y);
    im.feature_names = bl_xmalloc(W * W * sizeof(char *));
    for (size_t j = 0; j < W * W; j++)
        im.feature_names[j] = bl_strdup("px");
    im.class_names = bl_xmalloc(sizeof(char *));
    im.class_names[0] = bl_strdup("a");
    float img[W * W];
    for (size_t i = 0; i < 2; i++) {
        sheared_bar(img, i ? 0.7 : 0);
        for (size_t j = 0; j < W * W; j++)
            im.x[j * 2 + i] = img[j];
    }
    return im;
}

Test(transform, images_to_hog_and_errors_name_the_key)
{
    rng_seed(5);
    bl_dataset ds;
    known_axes(&ds, 10, AX); /* 3 features: not an image */
    bl_transform_spec t = {0};
    cr_assert_eq(bl_transform_parse(&t, "hog", "4, 7,14", "e.ini:9", &err), 0, "%s", err.msg);
    cr_assert_eq(t.nhog, 3);
    cr_assert_eq(bl_transform_images(&t, &ds, &err), -1);
    cr_assert(strstr(err.msg, "e.ini:9: hog:") && strstr(err.msg, "not a square image"), "%s",
              err.msg);
    cr_assert_eq(bl_transform_parse(&t, "image", "28x28", "e.ini:8", &err), 0);
    cr_assert_eq(bl_transform_images(&t, &ds, &err), -1);
    cr_assert(strstr(err.msg, "e.ini:8: image: 28x28 is 784 pixels but the data set has 3"), "%s",
              err.msg);
    bl_dataset_free(&ds);
    bl_transform_free(&t);
    /* a sheared bar's gradients lean by atan 0.7 = 35 degrees: without
     * deskewing the 7-pixel level's strongest undirected bin (of 9, 20
     * degrees each) is not 0, with deskewing it is 0 as for an upright bar */
    for (int deskew = 0; deskew < 2; deskew++) {
        bl_dataset im = bar_pair();
        cr_assert_eq(bl_transform_parse(&t, "hog", "4,7,14", "e.ini:9", &err), 0);
        if (deskew)
            cr_assert_eq(bl_transform_parse(&t, "deskew", "true", "e.ini:10", &err), 0);
        cr_assert_eq(bl_transform_images(&t, &im, &err), 0, "%s", err.msg);
        cr_assert_eq(im.d, 2139);
        cr_assert_str_eq(im.feature_names[2138], "hog2139");
        for (size_t i = 0; i < 2; i++) {
            double bin[9] = {0};
            size_t best = 0, off = 49 * 31; /* level 2: 16 cells, component-major */
            for (size_t b = 0; b < 9; b++) {
                for (size_t cell = 0; cell < 16; cell++)
                    bin[b] += im.x[(off + (18 + b) * 16 + cell) * 2 + i];
                if (bin[b] > bin[best])
                    best = b;
            }
            if (i == 0 || deskew)
                cr_assert_eq(best, 0, "image %zu, deskew %d: peak %zu", i, deskew, best);
            else
                cr_assert_neq(best, 0, "the sheared bar's gradient peaks at 0 degrees");
        }
        bl_dataset_free(&im);
        bl_transform_free(&t);
    }
}

Test(transform, bad_values_are_refused_with_file_line_and_key)
{
    bl_transform_spec t = {0};
    cr_assert_eq(bl_transform_parse(&t, "hog", "4,x", "a.ini:3", &err), -1);
    cr_assert(strstr(err.msg, "a.ini:3: hog: expected"), "%s", err.msg);
    cr_assert_eq(bl_transform_parse(&t, "hog", "0", "a.ini:3", &err), -1);
    cr_assert_eq(bl_transform_parse(&t, "image", "28", "a.ini:4", &err), -1);
    cr_assert(strstr(err.msg, "a.ini:4: image: expected WIDTHxHEIGHT"), "%s", err.msg);
    cr_assert_eq(bl_transform_parse(&t, "deskew", "yes", "a.ini:5", &err), -1);
    cr_assert(strstr(err.msg, "a.ini:5: deskew: expected true|false"), "%s", err.msg);
    cr_assert_eq(bl_transform_parse(&t, "pca_variance", "1.5", "a.ini:6", &err), -1);
    cr_assert(strstr(err.msg, "a.ini:6: pca_variance:"), "%s", err.msg);
    cr_assert_eq(bl_transform_parse(&t, "pca", "10", "a.ini:7", &err), 0);
    cr_assert_eq(bl_transform_parse(&t, "pca_variance", "0.9", "a.ini:8", &err), -1);
    cr_assert(strstr(err.msg, "not together with pca"), "%s", err.msg);
    /* more components than features, or than the rows span */
    rng_seed(1);
    bl_dataset tr, te = {0};
    known_axes(&tr, 20, AX);
    cr_assert_eq(bl_transform_pca(&t, &tr, &te, &err), -1);
    cr_assert(strstr(err.msg, "a.ini:7: pca: pca = 10 but the data set has only 3 features"),
              "%s", err.msg);
    bl_transform_free(&t);
    bl_dataset_free(&tr);
    known_axes(&tr, 2, AX);
    cr_assert_eq(bl_transform_parse(&t, "pca", "3", "a.ini:7", &err), 0);
    cr_assert_eq(bl_transform_pca(&t, &tr, &te, &err), -1);
    cr_assert(strstr(err.msg, "span at most 1 components"), "%s", err.msg);
    bl_transform_free(&t);
    bl_dataset_free(&tr);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Super-pixel feature groups: colour, LBP and HOG via VLFeat (spfeat.h). */
#include "spfeat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <vl/hog.h>
#include <vl/lbp.h>

#include "util/fsutil.h"

const char *const bl_spfeat_name[BL_SPFEAT_NGROUPS] = {
    "colour", "lbp8", "lbp16", "lbp24", "lbp32", "hog8", "hog16", "hog24", "hog32"};

static const int patch[4] = {8, 16, 24, 32};

void bl_spfeat_free(bl_spfeat *F)
{
    for (int k = 0; k < BL_SPFEAT_NGROUPS; k++)
        free(F->x[k]);
    memset(F, 0, sizeof *F);
}

/* The S x S patch of grey values centred at (cx, cy), clamped at the border. */
static void grey_patch(const float *grey, int w, int h, double cx, double cy, int S, float *out)
{
    int x0 = (int)floor(cx - S / 2.0 + 0.5), y0 = (int)floor(cy - S / 2.0 + 0.5);
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            int X = x0 + x, Y = y0 + y;
            X = X < 0 ? 0 : X >= w ? w - 1 : X;
            Y = Y < 0 ? 0 : Y >= h ? h - 1 : Y;
            out[y * S + x] = grey[(size_t)Y * w + X];
        }
}

/* Average of the cells' descriptors (ncell x dim, cell-major planes as
 * VLFeat writes them: value of dimension k at cell c is f[k * ncell + c]). */
static void pool(const float *f, size_t ncell, size_t dim, float *out)
{
    for (size_t k = 0; k < dim; k++) {
        double s = 0;
        for (size_t c = 0; c < ncell; c++)
            s += f[k * ncell + c];
        out[k] = (float)(s / (double)(ncell ? ncell : 1));
    }
}

int bl_spfeat_compute(const bl_image *rgb, const bl_spgraph *g, bl_spfeat *F, bl_error *err)
{
    memset(F, 0, sizeof *F);
    if (rgb->c != 3 || rgb->w != g->w || rgb->h != g->h)
        return bl_errf(err, "features: image %dx%dx%d does not match the super-pixels' %dx%d",
                       rgb->w, rgb->h, rgb->c, g->w, g->h);
    size_t n = g->n, np = (size_t)g->w * g->h;
    F->n = n;
    /* colour */
    F->dim[0] = 27;
    float *c = F->x[0] = bl_xcalloc(n * 27, sizeof(float));
    for (size_t s = 0; s < n; s++)
        for (int k = 0; k < 3; k++)
            c[s * 27 + k] = (float)g->luv[3 * s + k];
    for (size_t p = 0; p < np; p++) {
        size_t s = g->label[p];
        for (int k = 0; k < 3; k++)
            c[s * 27 + 3 + k * 8 + rgb->px[3 * p + k] / 32] += 1.0f / (float)g->size[s];
    }
    /* grey image in [0, 1] for LBP and HOG */
    float *grey = bl_xmalloc(np * sizeof *grey);
    for (size_t p = 0; p < np; p++)
        grey[p] = (float)((0.299 * rgb->px[3 * p] + 0.587 * rgb->px[3 * p + 1] +
                           0.114 * rgb->px[3 * p + 2]) / 255.0);
    VlLbp *lbp = vl_lbp_new(VlLbpUniform, VL_FALSE);
    VlHog *hog = vl_hog_new(VlHogVariantUoctti, 9, VL_FALSE);
    if (!lbp || !hog) {
        if (lbp)
            vl_lbp_delete(lbp);
        if (hog)
            vl_hog_delete(hog);
        free(grey);
        bl_spfeat_free(F);
        return bl_errf(err, "features: VLFeat could not allocate LBP / HOG");
    }
    size_t dl = vl_lbp_get_dimension(lbp), dh = vl_hog_get_dimension(hog);
    float *pt = bl_xmalloc(32 * 32 * sizeof *pt);
    float *buf = bl_xmalloc(16 * 64 * (dl > dh ? dl : dh) * sizeof *buf);
    for (int j = 0; j < 4; j++) {
        int S = patch[j], cell = S / 4;
        F->dim[1 + j] = dl;
        F->dim[5 + j] = dh;
        F->x[1 + j] = bl_xcalloc(n * dl, sizeof(float));
        F->x[5 + j] = bl_xcalloc(n * dh, sizeof(float));
        for (size_t s = 0; s < n; s++) {
            grey_patch(grey, g->w, g->h, g->cx[s], g->cy[s], S, pt);
            vl_lbp_process(lbp, buf, pt, (vl_size)S, (vl_size)S, (vl_size)cell);
            size_t nc = (size_t)(S / cell) * (size_t)(S / cell);
            pool(buf, nc, dl, F->x[1 + j] + s * dl);
            vl_hog_put_image(hog, pt, (vl_size)S, (vl_size)S, 1, (vl_size)cell);
            size_t hc = vl_hog_get_width(hog) * vl_hog_get_height(hog);
            vl_hog_extract(hog, buf);
            pool(buf, hc, dh, F->x[5 + j] + s * dh);
        }
    }
    free(pt);
    free(buf);
    free(grey);
    vl_lbp_delete(lbp);
    vl_hog_delete(hog);
    return 0;
}

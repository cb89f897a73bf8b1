/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PNG (libpng's simplified API) and JPEG (libjpeg) reading, PNG writing,
 * and resampling for the vision tasks. */
#include "image.h"

#include <stdio.h> /* before jpeglib.h, which uses FILE */

#include <jpeglib.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "util/fsutil.h"

int bl_image_alloc(bl_image *img, int w, int h, int c, bl_error *err)
{
    img->w = img->h = img->c = 0;
    img->px = NULL;
    if (w <= 0 || h <= 0 || w > BL_IMAGE_MAX_SIDE || h > BL_IMAGE_MAX_SIDE || (c != 1 && c != 3))
        return bl_errf(err, "image of %d x %d x %d: size out of range (sides 1..%d, 1 or 3 "
                            "channels)",
                       w, h, c, BL_IMAGE_MAX_SIDE);
    img->px = calloc((size_t)w * (size_t)h * (size_t)c, 1);
    if (!img->px)
        return bl_errf(err, "image of %d x %d x %d: out of memory", w, h, c);
    img->w = w, img->h = h, img->c = c;
    return 0;
}

void bl_image_free(bl_image *img)
{
    free(img->px);
    img->px = NULL;
    img->w = img->h = img->c = 0;
}

static int read_png(const char *path, bl_image *img, bl_error *err)
{
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&pi, path))
        return bl_errf(err, "%s: not a readable PNG image: %s", path, pi.message);
    int grey = !(pi.format & PNG_FORMAT_FLAG_COLOR);
    if ((int)pi.width > BL_IMAGE_MAX_SIDE || (int)pi.height > BL_IMAGE_MAX_SIDE ||
        pi.width == 0 || pi.height == 0) {
        png_image_free(&pi);
        return bl_errf(err, "%s: PNG of %u x %u pixels: sides must be 1..%d", path, pi.width,
                       pi.height, BL_IMAGE_MAX_SIDE);
    }
    /* Alpha is composited on black by asking for a format without it. */
    pi.format = grey ? PNG_FORMAT_GRAY : PNG_FORMAT_RGB;
    if (bl_image_alloc(img, (int)pi.width, (int)pi.height, grey ? 1 : 3, err) < 0) {
        png_image_free(&pi);
        return bl_errprefix(err, "%s", path);
    }
    if (!png_image_finish_read(&pi, NULL, img->px, 0, NULL)) {
        bl_errf(err, "%s: damaged PNG image: %s", path, pi.message);
        bl_image_free(img);
        return -1;
    }
    return 0;
}

struct jerr {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
};

static void jpeg_fail(j_common_ptr cinfo)
{
    longjmp(((struct jerr *)cinfo->err)->jump, 1);
}

static void jpeg_quiet(j_common_ptr cinfo, int level)
{
    (void)cinfo, (void)level; /* warnings of damaged files surface as errors below */
}

static int read_jpeg(const char *path, FILE *f, bl_image *img, bl_error *err)
{
    struct jpeg_decompress_struct ci;
    struct jerr je;
    img->px = NULL;
    ci.err = jpeg_std_error(&je.pub);
    je.pub.error_exit = jpeg_fail;
    je.pub.emit_message = jpeg_quiet;
    if (setjmp(je.jump)) {
        char msg[JMSG_LENGTH_MAX];
        je.pub.format_message((j_common_ptr)&ci, msg);
        jpeg_destroy_decompress(&ci);
        bl_image_free(img);
        return bl_errf(err, "%s: damaged JPEG image: %s", path, msg);
    }
    jpeg_create_decompress(&ci);
    jpeg_stdio_src(&ci, f);
    jpeg_read_header(&ci, TRUE);
    int grey = ci.jpeg_color_space == JCS_GRAYSCALE;
    ci.out_color_space = grey ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_start_decompress(&ci);
    if (bl_image_alloc(img, (int)ci.output_width, (int)ci.output_height, grey ? 1 : 3, err) <
        0) {
        jpeg_destroy_decompress(&ci);
        return bl_errprefix(err, "%s", path);
    }
    while (ci.output_scanline < ci.output_height) {
        JSAMPROW row = img->px + (size_t)ci.output_scanline * (size_t)img->w * (size_t)img->c;
        jpeg_read_scanlines(&ci, &row, 1);
    }
    jpeg_finish_decompress(&ci);
    jpeg_destroy_decompress(&ci);
    return 0;
}

int bl_image_read(const char *path, bl_image *img, bl_error *err)
{
    img->w = img->h = img->c = 0;
    img->px = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return bl_errf(err, "%s: cannot open image: %s", path, strerror(errno));
    unsigned char magic[8] = {0};
    size_t got = fread(magic, 1, sizeof magic, f);
    int rc;
    if (got == 8 && !png_sig_cmp(magic, 0, 8)) {
        fclose(f);
        return read_png(path, img, err);
    }
    if (got >= 3 && magic[0] == 0xFF && magic[1] == 0xD8 && magic[2] == 0xFF) {
        rewind(f);
        rc = read_jpeg(path, f, img, err);
    } else {
        rc = bl_errf(err, "%s: not a PNG or JPEG image (unknown first bytes)", path);
    }
    fclose(f);
    return rc;
}

int bl_image_write_png(const char *path, const bl_image *img, bl_error *err)
{
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    pi.width = (png_uint_32)img->w;
    pi.height = (png_uint_32)img->h;
    pi.format = img->c == 1 ? PNG_FORMAT_GRAY : PNG_FORMAT_RGB;
    bl_atomic a;
    if (bl_atomic_open(&a, path, err) < 0)
        return -1;
    if (!png_image_write_to_stdio(&pi, a.f, 0, img->px, 0, NULL)) {
        bl_atomic_abort(&a);
        return bl_errf(err, "%s: cannot write PNG: %s", path, pi.message);
    }
    return bl_atomic_commit(&a, err);
}

int bl_image_convert(const bl_image *src, int c, bl_image *dst, bl_error *err)
{
    if (bl_image_alloc(dst, src->w, src->h, c, err) < 0)
        return -1;
    size_t n = (size_t)src->w * (size_t)src->h;
    for (size_t p = 0; p < n; p++) {
        const unsigned char *s = src->px + p * (size_t)src->c;
        unsigned char *d = dst->px + p * (size_t)c;
        if (src->c == c) {
            memcpy(d, s, (size_t)c);
        } else if (c == 1) {
            d[0] = (unsigned char)lround(0.299 * s[0] + 0.587 * s[1] + 0.114 * s[2]);
        } else {
            d[0] = d[1] = d[2] = s[0];
        }
    }
    return 0;
}

static inline int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

double bl_image_sample(const bl_image *img, double x, double y, int ch)
{
    double fx = floor(x), fy = floor(y);
    double ax = x - fx, ay = y - fy;
    int x0 = clampi((int)fx, 0, img->w - 1), x1 = clampi((int)fx + 1, 0, img->w - 1);
    int y0 = clampi((int)fy, 0, img->h - 1), y1 = clampi((int)fy + 1, 0, img->h - 1);
    size_t W = (size_t)img->w, C = (size_t)img->c;
#define PX(xx, yy) ((double)img->px[((size_t)(yy) * W + (size_t)(xx)) * C + (size_t)ch])
    return (1 - ay) * ((1 - ax) * PX(x0, y0) + ax * PX(x1, y0)) +
           ay * ((1 - ax) * PX(x0, y1) + ax * PX(x1, y1));
#undef PX
}

int bl_image_crop_resize(const bl_image *src, double x0, double y0, double bw, double bh, int w,
                         int h, bl_image *dst, bl_error *err)
{
    if (!(bw > 0) || !(bh > 0))
        return bl_errf(err, "crop of %g x %g pixels: sides must be positive", bw, bh);
    if (bl_image_alloc(dst, w, h, src->c, err) < 0)
        return -1;
    double sx = bw / w, sy = bh / h;
    /* Sub-samples per output pixel along each axis: area averaging when the
     * box shrinks by more than 2. */
    int nx = sx > 2 ? (int)ceil(sx / 2) : 1, ny = sy > 2 ? (int)ceil(sy / 2) : 1;
    for (int v = 0; v < h; v++)
        for (int u = 0; u < w; u++)
            for (int ch = 0; ch < src->c; ch++) {
                double acc = 0;
                for (int b = 0; b < ny; b++)
                    for (int a = 0; a < nx; a++) {
                        double px = x0 + (u + (a + 0.5) / nx) * sx - 0.5;
                        double py = y0 + (v + (b + 0.5) / ny) * sy - 0.5;
                        acc += bl_image_sample(src, px, py, ch);
                    }
                double val = acc / (nx * ny);
                dst->px[((size_t)v * (size_t)w + (size_t)u) * (size_t)src->c + (size_t)ch] =
                    (unsigned char)lround(val < 0 ? 0 : val > 255 ? 255 : val);
            }
    return 0;
}

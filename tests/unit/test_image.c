/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Image files and resampling (apps/vision/image.c): PNG round trips,
 * JPEG decoding of a real Debian image, refusal of bad files with their
 * name, and crop-resize identities. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vision/image.h"

static char *tmp_path(const char *name)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "/tmp/bl-test-image-%d-%s", (int)getpid(), name);
    return buf;
}

static void fill(bl_image *im)
{
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++)
            for (int c = 0; c < im->c; c++)
                im->px[((size_t)y * im->w + x) * im->c + c] =
                    (unsigned char)((x * 7 + y * 13 + c * 61) & 255);
}

Test(image, png_round_trip_rgb_and_grey)
{
    for (int c = 1; c <= 3; c += 2) {
        bl_image a, b;
        bl_error e;
        cr_assert_eq(bl_image_alloc(&a, 37, 21, c, &e), 0);
        fill(&a);
        const char *p = tmp_path(c == 1 ? "g.png" : "c.png");
        cr_assert_eq(bl_image_write_png(p, &a, &e), 0, "%s", e.msg);
        cr_assert_eq(bl_image_read(p, &b, &e), 0, "%s", e.msg);
        cr_assert_eq(b.w, 37);
        cr_assert_eq(b.h, 21);
        cr_assert_eq(b.c, c);
        cr_assert_eq(memcmp(a.px, b.px, (size_t)37 * 21 * c), 0);
        unlink(p);
        bl_image_free(&a);
        bl_image_free(&b);
    }
}

Test(image, reads_debian_jpeg)
{
    const char *p = "/usr/lib/python3/dist-packages/skimage/data/rocket.jpg";
    if (access(p, R_OK) != 0)
        cr_skip_test("python3-skimage not installed");
    bl_image im;
    bl_error e;
    cr_assert_eq(bl_image_read(p, &im, &e), 0, "%s", e.msg);
    cr_assert_eq(im.w, 640);
    cr_assert_eq(im.h, 427);
    cr_assert_eq(im.c, 3);
    bl_image_free(&im);
}

Test(image, bad_files_are_refused_by_name)
{
    bl_image im;
    bl_error e;
    const char *p = tmp_path("bad.png");
    FILE *f = fopen(p, "wb");
    fputs("hello, not an image", f);
    fclose(f);
    cr_assert_eq(bl_image_read(p, &im, &e), -1);
    cr_assert(strstr(e.msg, p) && strstr(e.msg, "not a PNG or JPEG"), "%s", e.msg);
    cr_assert_null(im.px);
    /* A PNG cut short keeps its signature but cannot be decoded. */
    bl_image a;
    cr_assert_eq(bl_image_alloc(&a, 64, 64, 3, &e), 0);
    fill(&a);
    cr_assert_eq(bl_image_write_png(p, &a, &e), 0);
    cr_assert_eq(truncate(p, 60), 0);
    cr_assert_eq(bl_image_read(p, &im, &e), -1);
    cr_assert(strstr(e.msg, p), "%s", e.msg);
    cr_assert_null(im.px);
    cr_assert_eq(bl_image_read(tmp_path("missing.png"), &im, &e), -1);
    cr_assert(strstr(e.msg, "cannot open"), "%s", e.msg);
    unlink(p);
    bl_image_free(&a);
}

Test(image, crop_resize_identity_and_halving)
{
    bl_image a, b;
    bl_error e;
    cr_assert_eq(bl_image_alloc(&a, 16, 12, 1, &e), 0);
    fill(&a);
    cr_assert_eq(bl_image_crop_resize(&a, 0, 0, 16, 12, 16, 12, &b, &e), 0);
    cr_assert_eq(memcmp(a.px, b.px, 16 * 12), 0);
    bl_image_free(&b);
    /* A constant image stays constant at any scale. */
    memset(a.px, 90, 16 * 12);
    cr_assert_eq(bl_image_crop_resize(&a, 2.5, 1.25, 11, 9, 3, 2, &b, &e), 0);
    for (int i = 0; i < 6; i++)
        cr_assert_eq(b.px[i], 90);
    bl_image_free(&b);
    cr_assert_eq(bl_image_crop_resize(&a, 0, 0, 0, 5, 3, 2, &b, &e), -1);
    bl_image_free(&a);
}

Test(image, grey_conversion)
{
    bl_image a, g;
    bl_error e;
    cr_assert_eq(bl_image_alloc(&a, 2, 1, 3, &e), 0);
    unsigned char px[6] = {255, 0, 0, 10, 20, 30};
    memcpy(a.px, px, 6);
    cr_assert_eq(bl_image_convert(&a, 1, &g, &e), 0);
    cr_assert_eq(g.px[0], 76);  /* 0.299 * 255 */
    cr_assert_eq(g.px[1], 18);  /* 2.99 + 11.74 + 3.42 = 18.15 */
    bl_image_free(&a);
    bl_image_free(&g);
}

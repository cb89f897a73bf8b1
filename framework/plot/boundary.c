/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Decision boundaries of a classifier on 2-D data (see plot.h): the grid of
 * predicted classes as an image with one palette step per class, the
 * training points on top. */
#define BL_PLOT_INTERNAL
#include "plot/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/fsutil.h"

int bl_plot_boundary(const int *grid, size_t nx, size_t ny, double x0, double x1,
                     double y0, double y1, const double *px, const double *py,
                     const int *pl, size_t np, const char *const *class_names, size_t k,
                     const char *title, const char *base, bl_error *err)
{
    const char *who = base ? base : "plot";
    if (!grid || nx == 0 || ny == 0)
        return bl_errf(err, "%s: decision boundary needs a non-empty grid", who);
    if (!isfinite(x0) || !isfinite(x1) || !isfinite(y0) || !isfinite(y1) || !(x1 > x0) ||
        !(y1 > y0))
        return bl_errf(err, "%s: decision boundary range [%g,%g] x [%g,%g] is not a box", who,
                       x0, x1, y0, y1);
    if (np && (!px || !py || !pl))
        return bl_errf(err, "%s: %zu points given as NULL arrays", who, np);
    if (k == 0)
        return bl_errf(err, "%s: decision boundary needs at least one class", who);

    bl_gp g;
    bl_gp_init(&g, 800, 600);

    /* gnuplot refuses images thinner than 2 pixels: repeat a lone column
     * or row, halving the cell size so the covered box stays the same. */
    size_t rx = nx == 1 ? 2 : 1, ry = ny == 1 ? 2 : 1;
    double dx = (x1 - x0) / (double)(nx * rx), dy = (y1 - y0) / (double)(ny * ry);
    bl_gp_data(&g, "$grid << EOD\n");
    for (size_t iy = 0; iy < ny * ry; iy++) {
        const int *rowp = grid + (iy / ry) * nx;
        for (size_t ix = 0; ix < nx * rx; ix++) {
            int c = rowp[ix / rx];
            bl_gp_data(&g, ix ? " %d" : "%d", c >= 0 && (size_t)c < k ? c : (int)k);
        }
        bl_gp_data(&g, "\n");
    }
    bl_gp_data(&g, "EOD\n");

    /* Points by class; bucket k collects labels outside 0..k-1. */
    size_t *count = bl_xcalloc(k + 1, sizeof *count);
    for (size_t c = 0; c <= k; c++) {
        bl_gp_data(&g, "$p%zu << EOD\n", c);
        for (size_t i = 0; i < np; i++) {
            size_t b = pl[i] >= 0 && (size_t)pl[i] < k ? (size_t)pl[i] : k;
            if (b != c || !isfinite(px[i]) || !isfinite(py[i]))
                continue;
            bl_gp_data(&g, "%.12g %.12g\n", px[i], py[i]);
            count[c]++;
        }
        bl_gp_data(&g, "EOD\n");
    }

    if (title && *title) {
        bl_gp_cmd(&g, "set title ");
        bl_gp_str(&g, title);
        bl_gp_cmd(&g, " font ',12'\n");
    }
    bl_gp_cmd(&g, "set xrange [%.12g:%.12g]\nset yrange [%.12g:%.12g]\n", x0, x1, y0, y1);
    int any = 0;
    for (size_t c = 0; c <= k; c++)
        any |= count[c] > 0;
    bl_gp_cmd(&g, "set tics out\nunset colorbox\n%s\n",
              any ? "set key outside right top" : "unset key");
    /* A step palette: class c owns gray [c, c+1), the data is c + 0.5, so
     * each class gets exactly its colour whatever gnuplot's interpolation. */
    bl_gp_cmd(&g, "set cbrange [0:%zu]\nset palette defined (", k + 1);
    for (size_t c = 0; c <= k; c++)
        bl_gp_cmd(&g, "%s%zu '%s', %zu '%s'", c ? ", " : "", c,
                  c < k ? bl_gp_color_light(c) : "#ffffff", c + 1,
                  c < k ? bl_gp_color_light(c) : "#ffffff");
    bl_gp_cmd(&g, ")\n");

    bl_gp_cmd(&g, "plot $grid matrix using (%.12g+($1+0.5)*%.12g):(%.12g+($2+0.5)*%.12g):($3+0.5) "
                  "with image notitle",
              x0, dx, y0, dy);
    /* Filled point types and their outlines: circle, square, triangle up,
     * triangle down, diamond, pentagon. */
    static const int filled[6] = {7, 5, 9, 11, 13, 15}, outline[6] = {6, 4, 8, 10, 12, 14};
    for (size_t c = 0; c <= k; c++) {
        if (!count[c])
            continue;
        char fallback[48];
        const char *name = c < k && class_names ? class_names[c] : NULL;
        if (!name) {
            if (c < k)
                snprintf(fallback, sizeof fallback, "class %zu", c);
            else
                snprintf(fallback, sizeof fallback, "other");
            name = fallback;
        }
        if (c < k) {
            bl_gp_cmd(&g, ", $p%zu using 1:2 with points pt %d ps 1.1 lc rgb '%s' title ", c,
                      filled[c % 6], bl_gp_color(c));
            bl_gp_str(&g, name);
            bl_gp_cmd(&g, ", $p%zu using 1:2 with points pt %d ps 1.1 lc rgb 'black' notitle",
                      c, outline[c % 6]);
        } else {
            bl_gp_cmd(&g, ", $p%zu using 1:2 with points pt 2 ps 1.1 lc rgb 'black' title ", c);
            bl_gp_str(&g, name);
        }
    }
    bl_gp_cmd(&g, "\n");
    free(count);

    int rc = bl_gp_render(&g, base, err);
    bl_gp_free(&g);
    return rc;
}

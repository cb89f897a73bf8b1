/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Coefficient paths (see plot.h): panels side by side, each with pairs of
 * curves over a shared x, the first of a pair solid and the second dashed
 * in the same colour, so that two paths of one coefficient read as one. */
#define BL_PLOT_INTERNAL
#include "plot/plot.h"

#include <math.h>
#include <stdio.h>

/* One datablock $dP_C_S (panel P, curve C, side S) of the finite points. */
static size_t path_block(bl_gp *g, size_t p, size_t c, int side, const double *x, const double *y,
                         size_t n)
{
    size_t kept = 0;
    bl_gp_data(g, "$d%zu_%zu_%d << EOD\n", p, c, side);
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]) && isfinite(y[i])) {
            bl_gp_data(g, "%.12g %.12g\n", x[i], y[i]);
            kept++;
        }
    bl_gp_data(g, "EOD\n");
    return kept;
}

/* The key on its own, in a blank full-width strip below the panels: a key
 * inside one panel could only be as wide as that panel. */
static void path_key(bl_gp *g, const bl_pathplot *p, double height)
{
    bl_gp_cmd(g, "set origin 0, 0\nset size 1, %.3f\nunset border\nunset tics\nunset grid\n"
                 "unset title\nunset xlabel\nunset ylabel\nset xrange [0:1]\nset yrange [0:1]\n"
                 "set key on center center horizontal maxrows 2 font ',11'\nplot ",
              height);
    for (size_t c = 0; c < p->ncurves; c++) {
        bl_gp_cmd(g, "NaN with lines lw 2.5 lc rgb '%s' title ", bl_gp_color(c));
        if (p->curve_names)
            bl_gp_str(g, p->curve_names[c]);
        else
            bl_gp_cmd(g, "'%zu'", c + 1);
        bl_gp_cmd(g, ", ");
    }
    bl_gp_cmd(g, "NaN with lines lw 2.5 dt 1 lc rgb 'black' title ");
    bl_gp_str(g, p->solid_name ? p->solid_name : "solid");
    bl_gp_cmd(g, ", NaN with lines lw 1.5 dt 2 lc rgb 'black' title ");
    bl_gp_str(g, p->dashed_name ? p->dashed_name : "dashed");
    bl_gp_cmd(g, "\n");
}

int bl_plot_paths(const bl_pathplot *p, const char *base, bl_error *err)
{
    const char *who = base ? base : "plot";
    if (!p || !p->npanels || !p->ncurves || !p->n || !p->x || !p->solid || !p->dashed)
        return bl_errf(err, "%s: a path plot needs panels, curves and points", who);
    bl_gp g;
    bl_gp_init(&g, (int)(420 * p->npanels + 80), 520);
    bl_gp_style(&g);
    bl_gp_cmd(&g, "set tics font ',11'\nset grid\nset format y '%%g'\nset format x '%%g'\n"
                  "set autoscale xfix\nset key off\nset multiplot");
    if (p->title && *p->title) {
        bl_gp_cmd(&g, " title ");
        bl_gp_str(&g, p->title);
        bl_gp_cmd(&g, " font '," BL_PLOT_TITLE_FONT "'");
    }
    bl_gp_cmd(&g, "\n");
    const double keyh = 0.14, top = p->title && *p->title ? 0.93 : 1.0;
    double w = 1.0 / (double)p->npanels;
    for (size_t q = 0; q < p->npanels; q++) {
        bl_gp_cmd(&g, "set origin %.4f, %.3f\nset size %.4f, %.3f\nset title ", w * (double)q,
                  keyh, w, top - keyh);
        bl_gp_str(&g, p->panel_titles ? p->panel_titles[q] : NULL);
        bl_gp_cmd(&g, "\nset xlabel ");
        bl_gp_str(&g, p->xlabel);
        bl_gp_cmd(&g, "\nset ylabel ");
        bl_gp_str(&g, q == 0 ? p->ylabel : NULL);
        bl_gp_cmd(&g, "\nplot ");
        int first = 1;
        for (size_t c = 0; c < p->ncurves; c++) {
            const double *ys = p->solid + (q * p->ncurves + c) * p->n;
            const double *yd = p->dashed + (q * p->ncurves + c) * p->n;
            for (int side = 0; side < 2; side++) {
                if (!path_block(&g, q, c, side, p->x, side ? yd : ys, p->n))
                    continue;
                bl_gp_cmd(&g, "%s$d%zu_%zu_%d using 1:2 with lines lw %s dt %d lc rgb '%s' notitle",
                          first ? "" : ", ", q, c, side, side ? "1.5" : "2.5", side ? 2 : 1,
                          bl_gp_color(c));
                first = 0;
            }
        }
        bl_gp_cmd(&g, "%s\n", first ? "NaN notitle" : "");
    }
    path_key(&g, p, keyh);
    bl_gp_cmd(&g, "unset multiplot\n");
    int rc = bl_gp_render(&g, base, err);
    bl_gp_free(&g);
    return rc;
}

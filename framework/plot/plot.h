/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Plotting for `boostlab report`: line plots, critical-difference diagrams
 * and 2-D decision boundaries, drawn by gnuplot run as a child process.
 *
 * Every plot function writes two files, BASE.png (pngcairo) and BASE.svg
 * (static svg, no script, suitable for inlining in HTML), and either both
 * appear or neither does: gnuplot writes BASE.png.tmp.PID and
 * BASE.svg.tmp.PID (the name pattern bl_clean_stale_tmp() removes after a
 * crash) and they are renamed only when gnuplot succeeded and produced both.
 * Data is passed inline in the script (gnuplot datablocks), never through
 * temporary data files.  All text is drawn "noenhanced", so titles, labels
 * and names are shown literally (quotes, backslashes, _ ^ { } @ & included).
 *
 * The program is $BOOSTLAB_GNUPLOT when that is set and non-empty, else
 * `gnuplot` looked up on PATH.  Functions return 0, or -1 with err filled. */
#ifndef BL_PLOT_PLOT_H
#define BL_PLOT_PLOT_H

#include <stddef.h>

#include "util/error.h"

/* 1 when a gnuplot program can be found (executable), else 0: lets the
 * report skip its plots with a note instead of failing. */
int bl_gnuplot_available(void);

/* ---- Line plots --------------------------------------------------------- */

/* One curve: n points (x[i], y[i]).  ylo/yhi (both or neither; may be NULL)
 * give an uncertainty range per point, drawn as a shaded band, or as error
 * bars when errorbars is non-zero.  Points with a non-finite coordinate, or
 * a non-positive one on a log axis, are skipped (likewise band points);
 * a series left with no point is omitted from the plot and its key. */
typedef struct bl_series {
    const char *name; /* key entry; NULL or "" for none */
    size_t n;
    const double *x, *y;
    const double *ylo, *yhi;
    int errorbars;
} bl_series;

typedef struct bl_lineplot {
    const char *title, *xlabel, *ylabel; /* each may be NULL */
    int logx, logy;                      /* non-zero: log10 scale on that axis */
    const bl_series *series;
    size_t nseries;
} bl_lineplot;

/* Size of a line plot in pixels (PNG and SVG): about the width of the
 * report page, which shows it at full width. */
#define BL_LINEPLOT_WIDTH 1100
#define BL_LINEPLOT_HEIGHT 560
/* Font sizes (points) of plot titles, and of axis labels, tics and keys. */
#define BL_PLOT_TITLE_FONT "16"
#define BL_PLOT_LABEL_FONT "13"

/* Line plot (BL_LINEPLOT_WIDTH x BL_LINEPLOT_HEIGHT) of p's series, with a
 * key below the plot when some series is named.  With nothing left to draw, an empty frame saying
 * "no data" is written rather than failing, so a report stays complete. */
int bl_plot_lines(const bl_lineplot *p, const char *base, bl_error *err);

/* ---- Coefficient paths ---------------------------------------------------- */

/* npanels panels side by side (one title each), every panel with ncurves
 * pairs of curves over the shared x (n points): solid[(p*ncurves + c)*n + i]
 * drawn solid and dashed[...] dashed, both in curve c's colour, so that two
 * paths of one coefficient (an exact solution and an approximation) are
 * compared at a glance.  The key (below the last panel) names the curves
 * and what solid and dashed stand for.  Non-finite points are skipped. */
typedef struct bl_pathplot {
    const char *title, *xlabel, *ylabel;   /* each may be NULL */
    size_t npanels, ncurves, n;
    const char *const *panel_titles;       /* npanels, or NULL */
    const char *const *curve_names;        /* ncurves, or NULL */
    const char *solid_name, *dashed_name;  /* NULL: "solid", "dashed" */
    const double *x, *solid, *dashed;
} bl_pathplot;

int bl_plot_paths(const bl_pathplot *p, const char *base, bl_error *err);

/* ---- Critical-difference diagram ----------------------------------------- */

/* Order of the algorithms used by bl_plot_cd(): order[j] is the input index
 * of the j-th algorithm by ascending average rank, ties broken by input
 * index (a stable sort).  Exposed so that whoever computes the groups uses
 * exactly the same order. */
void bl_plot_cd_order(const double *avg_rank, size_t k, size_t *order);

/* Critical-difference diagram after Demsar (2006, JMLR 7, Fig. 1).
 *
 * The rank axis runs from 1 to k with rank 1 (best) on the LEFT.  The
 * better half of the algorithms (ranks sorted ascending, the first
 * ceil(k/2)) are named on the left, the others on the right, each on a
 * leader line from its average rank, with the rank printed above the line.
 * The CD bar (length cd in rank units, value printed above it) is drawn
 * above the axis starting at rank 1; it is omitted when cd is not a
 * positive finite number.
 *
 * groups[g] = {lo, hi} is an inclusive range of positions in the order of
 * bl_plot_cd_order() (0 = best) whose algorithms are not significantly
 * different; each is drawn as a thick bar below the axis from the rank of
 * position lo to that of position hi (ranges with lo == hi are not drawn).
 * groups may be NULL when ngroups is 0.  Requires k >= 2, finite ranks and
 * lo <= hi < k; the axis is widened if a rank falls outside [1, k]. */
int bl_plot_cd(const char *const *names, const double *avg_rank, size_t k, double cd,
               const size_t (*groups)[2], size_t ngroups, const char *title,
               const char *base, bl_error *err);

/* ---- Decision boundaries -------------------------------------------------- */

/* Regions of a classifier over [x0,x1] x [y0,y1] plus the training points.
 *
 * grid holds nx*ny predicted classes, row-major with y outer:
 * grid[iy*nx + ix] is the class of the cell [x0 + ix*dx, x0 + (ix+1)*dx] x
 * [y0 + iy*dy, y0 + (iy+1)*dy], dx = (x1-x0)/nx, dy = (y1-y0)/ny, i.e. the
 * classifier evaluated at the cell centre (iy = 0 is the bottom row).
 * Classes are 0..k-1; class c always gets the c-th colour (light for its
 * region, saturated for its points, which also get their own point type
 * with a black outline), so plots of the same problem stay comparable.
 * Out-of-range classes are drawn white (regions) or as black crosses
 * named "other" (points).  Points with non-finite coordinates are skipped.
 * class_names (or any entry) may be NULL: "class C" is shown.  Colours
 * repeat after 10 classes (point types after 6). */
int bl_plot_boundary(const int *grid, size_t nx, size_t ny, double x0, double x1,
                     double y0, double y1, const double *px, const double *py,
                     const int *pl, size_t np, const char *const *class_names, size_t k,
                     const char *title, const char *base, bl_error *err);

/* ---- Internal to the plot module (gnuplot.c, cd.c, boundary.c) ----------- */
#ifdef BL_PLOT_INTERNAL

/* A growing string (aborts on OOM like the bl_x* allocators). */
typedef struct bl_sbuf {
    char *s;
    size_t len, cap;
} bl_sbuf;

/* A gnuplot job: datablocks, defined once, and the drawing commands, run
 * once per output terminal (after a `reset`, so unnumbered labels and
 * arrows do not accumulate). */
typedef struct bl_gp {
    bl_sbuf data, body;
    int width, height; /* pixels, same for PNG and SVG */
} bl_gp;

void bl_gp_init(bl_gp *g, int width, int height);
void bl_gp_free(bl_gp *g);
/* Append to the data part / the drawing commands. */
void bl_gp_data(bl_gp *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bl_gp_cmd(bl_gp *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append s (NULL = "") to the commands as a gnuplot string literal that
 * shows it verbatim (single-quoted, control characters become spaces). */
void bl_gp_str(bl_gp *g, const char *s);
/* Commands shared by all plots: fonts, colours of linetypes 1..10. */
void bl_gp_style(bl_gp *g);
/* Colour i (cycling over 10) as "#rrggbb": saturated and light variants. */
const char *bl_gp_color(size_t i);
const char *bl_gp_color_light(size_t i);
/* Run gnuplot on g and commit BASE.png / BASE.svg; g is left intact. */
int bl_gp_render(const bl_gp *g, const char *base, bl_error *err);

#endif /* BL_PLOT_INTERNAL */

#endif

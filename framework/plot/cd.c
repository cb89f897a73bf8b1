/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Critical-difference diagrams (Demsar 2006, JMLR 7, Fig. 1), see plot.h.
 * Drawn on a border-less canvas whose coordinates are pixels (y growing
 * downwards), with gnuplot arrows for lines and labels for text. */
#define BL_PLOT_INTERNAL
#include "plot/plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"

/* Layout, in pixels. */
#define CD_CHAR_W 8.0  /* average width of a character at the label font */
#define CD_PAD 20.0    /* outer margin */
#define CD_REACH 30.0  /* leader lines stick out this far beyond the axis */
#define CD_AXIS_MIN 320.0
#define CD_ROW 24.0    /* between two names on a side */
#define CD_GROUP 9.0   /* between two lines of group bars */

void bl_plot_cd_order(const double *avg_rank, size_t k, size_t *order)
{
    /* Insertion sort: stable, and k (number of algorithms) is small. */
    for (size_t i = 0; i < k; i++) {
        size_t j = i;
        while (j > 0 && avg_rank[order[j - 1]] > avg_rank[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
}

/* Displayed width in characters (UTF-8 continuation bytes do not count). */
static size_t text_len(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void line(bl_gp *g, double xa, double ya, double xb, double yb, double lw)
{
    bl_gp_cmd(g, "set arrow from %.2f,%.2f to %.2f,%.2f nohead lw %g lc rgb 'black' front\n", xa,
              ya, xb, yb, lw);
}

static void text(bl_gp *g, const char *s, double x, double y, const char *just, int size)
{
    bl_gp_cmd(g, "set label ");
    bl_gp_str(g, s);
    bl_gp_cmd(g, " at %.2f,%.2f %s font ',%d' front\n", x, y, just, size);
}

int bl_plot_cd(const char *const *names, const double *avg_rank, size_t k, double cd,
               const size_t (*groups)[2], size_t ngroups, const char *title,
               const char *base, bl_error *err)
{
    const char *who = base ? base : "plot";
    if (k < 2)
        return bl_errf(err, "%s: critical-difference diagram needs at least 2 algorithms", who);
    if (!names || !avg_rank)
        return bl_errf(err, "%s: critical-difference diagram without names or ranks", who);
    if (ngroups && !groups)
        return bl_errf(err, "%s: %zu groups given as NULL", who, ngroups);
    for (size_t i = 0; i < k; i++)
        if (!isfinite(avg_rank[i]))
            return bl_errf(err, "%s: average rank of algorithm %zu is not finite", who, i);
    for (size_t g = 0; g < ngroups; g++)
        if (groups[g][0] > groups[g][1] || groups[g][1] >= k)
            return bl_errf(err, "%s: group %zu = [%zu,%zu] is not a range within 0..%zu", who, g,
                           groups[g][0], groups[g][1], k - 1);

    size_t *ord = bl_xmalloc(k * sizeof *ord);
    bl_plot_cd_order(avg_rank, k, ord);
    size_t nleft = (k + 1) / 2, nright = k - nleft;
    double rmin = fmin(1.0, floor(avg_rank[ord[0]]));
    double rmax = fmax((double)k, ceil(avg_rank[ord[k - 1]]));

    /* Widths: the name columns decide where the axis can go. */
    size_t lmax = 0, rmaxlen = 0;
    for (size_t j = 0; j < k; j++) {
        const char *nm = names[ord[j]] ? names[ord[j]] : "?";
        size_t n = text_len(nm);
        if (j < nleft)
            lmax = n > lmax ? n : lmax;
        else
            rmaxlen = n > rmaxlen ? n : rmaxlen;
    }
    double lname = CD_PAD + CD_CHAR_W * (double)lmax; /* right end of left names */
    double rname_w = CD_PAD + CD_CHAR_W * (double)rmaxlen;
    double xa0 = lname + 6 + CD_REACH;
    double width = fmax(800.0, xa0 + CD_AXIS_MIN + CD_REACH + 6 + rname_w);
    width = fmin(width, 2400.0);
    double xa1 = width - rname_w - 6 - CD_REACH;
    double rname = xa1 + CD_REACH + 6; /* left end of right names */
#define XR(r) (xa0 + ((r) - rmin) / (rmax - rmin) * (xa1 - xa0))

    /* Pack the group bars on as few lines as possible (first fit). */
    double *gx0 = bl_xmalloc((ngroups + 1) * sizeof *gx0);
    double *gx1 = bl_xmalloc((ngroups + 1) * sizeof *gx1);
    double *lend = bl_xmalloc((ngroups + 1) * sizeof *lend);
    size_t *gline = bl_xmalloc((ngroups + 1) * sizeof *gline);
    size_t nlines = 0;
    for (size_t g = 0; g < ngroups; g++) {
        gline[g] = (size_t)-1;
        if (groups[g][0] == groups[g][1])
            continue;
        gx0[g] = XR(avg_rank[ord[groups[g][0]]]) - 4;
        gx1[g] = XR(avg_rank[ord[groups[g][1]]]) + 4;
        size_t l = 0;
        while (l < nlines && lend[l] + 6 > gx0[g])
            l++;
        if (l == nlines)
            nlines++;
        lend[l] = gx1[g];
        gline[g] = l;
    }

    int have_cd = isfinite(cd) && cd > 0;
    double top = (title && *title) ? 42 : 12;
    double cd_y = top + 24;
    double axis_y = have_cd ? top + 66 : top + 34;
    double gy0 = axis_y + 14;
    double row0 = nlines ? gy0 + (double)(nlines - 1) * CD_GROUP + 20 : axis_y + 24;
    size_t nrows = nleft > nright ? nleft : nright;
    double height = row0 + (double)(nrows - 1) * CD_ROW + 22;

    bl_gp g;
    bl_gp_init(&g, (int)width, (int)ceil(height));
    bl_gp_cmd(&g, "unset border\nunset tics\nunset key\n");
    bl_gp_cmd(&g, "set lmargin at screen 0\nset rmargin at screen 1\n"
                  "set tmargin at screen 1\nset bmargin at screen 0\n");
    bl_gp_cmd(&g, "set xrange [0:%d]\nset yrange [%d:0]\n", g.width, g.height);
    if (title && *title)
        text(&g, title, width / 2, 20, "center", 12);

    if (have_cd) {
        double x1 = fmin(XR(rmin + cd), xa1);
        line(&g, xa0, cd_y, x1, cd_y, 1.5);
        line(&g, xa0, cd_y - 5, xa0, cd_y + 5, 1.5);
        line(&g, x1, cd_y - 5, x1, cd_y + 5, 1.5);
        char lab[64];
        snprintf(lab, sizeof lab, "CD = %.3g", cd);
        text(&g, lab, (xa0 + x1) / 2, cd_y - 13, "center", 10);
    }

    /* The axis: integer ranks labelled, half ranks as short ticks. */
    line(&g, xa0, axis_y, xa1, axis_y, 1.5);
    int span = (int)(rmax - rmin);
    for (int i = 0; i <= span; i++) {
        double r = rmin + i, x = XR(r);
        line(&g, x, axis_y, x, axis_y - 8, 1);
        char lab[32];
        snprintf(lab, sizeof lab, "%d", (int)r);
        if (span <= 30 || i % 5 == 0 || i == span)
            text(&g, lab, x, axis_y - 17, "center", 10);
        if (i < span && span <= 20)
            line(&g, XR(r + 0.5), axis_y, XR(r + 0.5), axis_y - 4, 1);
    }

    /* Names: the better half on the left, best on the top row, the others
     * on the right, worst on the top row, so leader lines never cross. */
    for (size_t j = 0; j < k; j++) {
        int left = j < nleft;
        size_t row = left ? j : k - 1 - j;
        double y = row0 + (double)row * CD_ROW;
        double r = avg_rank[ord[j]], x = XR(r);
        double xend = left ? lname + 6 : rname - 6;
        line(&g, x, axis_y, x, y, 1);
        line(&g, x, y, xend, y, 1);
        const char *nm = names[ord[j]] ? names[ord[j]] : "?";
        text(&g, nm, left ? lname : rname, y, left ? "right" : "left", 10);
        char lab[32];
        snprintf(lab, sizeof lab, "%.2f", r);
        text(&g, lab, left ? xend + 3 : xend - 3, y - 7, left ? "left" : "right", 8);
    }

    for (size_t gi = 0; gi < ngroups; gi++)
        if (gline[gi] != (size_t)-1) {
            double y = gy0 + (double)gline[gi] * CD_GROUP;
            line(&g, gx0[gi], y, gx1[gi], y, 4);
        }
#undef XR

    bl_gp_cmd(&g, "plot NaN notitle\n");
    int rc = bl_gp_render(&g, base, err);
    bl_gp_free(&g);
    free(ord);
    free(gx0);
    free(gx1);
    free(lend);
    free(gline);
    return rc;
}

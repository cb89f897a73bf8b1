/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The writers of `boostlab report`: one self-contained HTML page (inline
 * CSS, the SVG plots inlined, no external reference) and a GitHub Markdown
 * version whose images link to the plots' PNG files.  Both are built from
 * the same list of blocks (headings, paragraphs, tables, figures), so they
 * always say the same thing.  Files are written atomically.
 */
#ifndef BL_REPORT_RENDER_H
#define BL_REPORT_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "../util/error.h"
#include "analysis.h"
#include "figures.h"

/* One experiment of the report. */
typedef struct bl_report_exp {
    const bl_rexp *e;
    const bl_rstats *st;
    const bl_figs *figs;        /* NULL when there are no plots */
    const char *paper;          /* the paper's CSV whose numbers are shown, or NULL */
} bl_report_exp;

/* Columns of a plugins.tsv row as the report keeps them. */
#define BL_PROV_COLS 5

/* What the report knows of where its numbers came from. */
typedef struct bl_report_prov {
    const char *version;        /* boostlab version and commit of this program */
    const char *seed;           /* the experiment's seed, or NULL */
    const char *ini_href;       /* link to experiment.ini from the report, or NULL */
    const char *summary_href;   /* link to summary.csv, or NULL */
    /* plugins.tsv of the output folder: rows of role, plugin, file,
     * hash64 and since (BL_PROV_COLS); plugins_why says why there are
     * none (NULL with rows) */
    char *(*plugin)[BL_PROV_COLS];
    size_t nplugin;
    const char *plugins_why;
} bl_report_prov;

typedef struct bl_report_doc {
    const char *dir;            /* the output folder reported on */
    const char *run_cmd;        /* command that reruns the experiment, or NULL */
    const char *report_cmd;     /* command that rewrites this report */
    const bl_report_exp *exp;
    size_t nexp;
    const char *plots_note;     /* why there are no plots, or NULL */
    const char *plot_dir;       /* folder holding the plots' .svg files */
    const char *plot_rel;       /* the same, relative to the Markdown file */
    const bl_report_prov *prov;
} bl_report_doc;

int bl_render_html(const bl_report_doc *doc, const char *path, bl_error *err);
int bl_render_md(const bl_report_doc *doc, const char *path, bl_error *err);

/* HTML-escape s (&, <, >, ", ') into f. */
void bl_html_escape(const char *s, FILE *f);
/* Markdown-escape s (\ ` * _ [ ] < > | and line breaks) into f. */
void bl_md_escape(const char *s, FILE *f);

#endif

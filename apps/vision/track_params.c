/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tracker parameters (track.h): one table of typed, range-checked keys
 * (the plugin parameter schema, parsed by bl_param_parse) giving the
 * defaults, `--set KEY=VALUE`, the [tracker] section of an INI file, and
 * writing them back. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ini.h"
#include "plugin/params.h"
#include "track.h"

/* A key: its schema (type, default, range, doc) and where its value lives.
 * The seed is the one uint64 (schema INT is int64): parsed apart. */
typedef struct key {
    struct bl_param_spec spec;
    size_t off;
} key;

#define OFF(f) offsetof(bl_track_params, f)
#define I(n, def, lo, hi, doc) {{#n, BL_PARAM_INT, def, lo, hi, NULL, doc}, OFF(n)}
#define R(n, def, lo, hi, doc) {{#n, BL_PARAM_REAL, def, lo, hi, NULL, doc}, OFF(n)}
static const key keys[] = {
    {{"method", BL_PARAM_CHOICE, "structboost", 0, 0, "structboost|adaboost", "tracker"},
     OFF(method)},
    R(C, "10", 1e-6, 1e9, "StructBoost's C"),
    I(init_iterations, "100", 1, 100000, "columns of the first training"),
    I(update_iterations, "3", 1, 100000, "new columns per update"),
    I(warm_start, "1", 0, 1, "1: updates continue the last model"),
    I(ada_iterations, "500", 1, 100000, "AdaBoost tracker's stumps"),
    R(pos_overlap, "0.8", 0, 1, "AdaBoost positives: overlap above"),
    R(neg_overlap, "0.3", 0, 1, "AdaBoost negatives: overlap at most"),
    R(eps_cp, "0.01", 1e-9, 1, "cutting-plane tolerance"),
    I(polish, "0", 0, 1, "1: tighten eps_cp before the dual stop"),
    I(init_frames, "3", 1, 1000, "labelled frames at the start"),
    I(candidates, "2000", 1, 1000000, "boxes scored per frame"),
    R(radius, "30", 0, 10000, "their radius (px)"),
    I(train_boxes, "200", 2, 100000, "boxes per training frame"),
    R(train_radius, "40", 0, 10000, "their radius (px)"),
    R(scale_step, "1.05", 1, 2, "scale factor between levels"),
    I(scale_levels, "0", 0, 10, "levels either side of 1"),
    I(buffer, "60", 1, 100000, "frames kept for training"),
    I(update_every, "2", 1, 100000, "retrain every this many frames"),
    I(max_bins, "64", 2, 256, "bins per feature for the stumps"),
    {{"patch", BL_PARAM_INT, "32", 8, 256, NULL, "resampled patch side"}, OFF(feat.patch)},
    {{"small", BL_PARAM_INT, "16", 0, 256, NULL, "down-scaled grey side (0: none)"},
     OFF(feat.small)},
    {{"hog_cell", BL_PARAM_INT, "8", 0, 128, NULL, "HOG cell side (0: no HOG)"},
     OFF(feat.hog_cell)},
    {{"seed", BL_PARAM_INT, "1", 0, 0, NULL, "random seed"}, OFF(seed)},
    I(threads, "0", 0, 1024, "threads (0: all cores)"),
};
#define NKEYS (sizeof keys / sizeof keys[0])

static int is_seed(const key *q)
{
    return q->off == OFF(seed);
}

static int set_key(bl_track_params *p, const key *q, const char *value, bl_error *err)
{
    char *at = (char *)p + q->off;
    if (is_seed(q)) {
        char *end;
        errno = 0;
        unsigned long long v = value[0] && value[0] != '-' ? strtoull(value, &end, 10) : 0;
        if (!value[0] || value[0] == '-' || *end || errno)
            return bl_errf(err, "seed: expected an integer 0..2^64-1, got '%s'", value);
        *(uint64_t *)at = v;
        return 0;
    }
    union bl_value v;
    if (bl_param_parse(&q->spec, value, &v, err) < 0)
        return bl_errprefix(err, "%s (%s)", q->spec.name, q->spec.doc);
    if (q->spec.type == BL_PARAM_REAL)
        *(double *)at = v.r;
    else if (q->spec.type == BL_PARAM_CHOICE)
        *(int *)at = v.choice;
    else
        *(int *)at = (int)v.i;
    return 0;
}

void bl_track_defaults(bl_track_params *p)
{
    memset(p, 0, sizeof *p);
    for (size_t j = 0; j < NKEYS; j++)
        set_key(p, &keys[j], keys[j].spec.def, NULL); /* the table's defaults parse */
}

int bl_track_set(bl_track_params *p, const char *k, const char *value, bl_error *err)
{
    for (size_t j = 0; j < NKEYS; j++)
        if (!strcmp(keys[j].spec.name, k))
            return set_key(p, &keys[j], value, err);
    char names[512] = "";
    for (size_t j = 0, n = 0; j < NKEYS; j++)
        n += (size_t)snprintf(names + n, n < sizeof names ? sizeof names - n : 0, "%s%s",
                              j ? ", " : "", keys[j].spec.name);
    return bl_errf(err, "unknown key '%s' (keys: %s)", k, names);
}

int bl_track_load(const char *path, bl_track_params *p, bl_error *err)
{
    bl_ini ini;
    if (bl_ini_read(path, &ini, err) < 0)
        return -1;
    int rc = 0, found = 0;
    for (size_t s = 0; s < ini.nsec && rc == 0; s++) {
        bl_ini_section *sec = &ini.sec[s];
        if (strcmp(sec->name, "tracker")) {
            rc = bl_errf(err, "%s:%d: section [%s]: a tracker file has one [tracker] section",
                         path, sec->line, sec->name);
            break;
        }
        found = 1;
        for (size_t e = 0; e < sec->n && rc == 0; e++) {
            if (!strcmp(sec->e[e].key, "doc"))
                continue;
            if (bl_track_set(p, sec->e[e].key, sec->e[e].value, err) < 0)
                rc = bl_errprefix(err, "%s:%d", path, sec->e[e].line);
        }
    }
    if (rc == 0 && !found)
        rc = bl_errf(err, "%s: no [tracker] section", path);
    if (rc == 0 && bl_patch_check(&p->feat, err) < 0)
        rc = bl_errprefix(err, "%s", path);
    bl_ini_free(&ini);
    return rc;
}

void bl_track_write(const bl_track_params *p, FILE *f)
{
    fputs("[tracker]\n", f);
    for (size_t j = 0; j < NKEYS; j++) {
        const key *q = &keys[j];
        const char *at = (const char *)p + q->off;
        if (is_seed(q))
            fprintf(f, "seed = %llu\n", (unsigned long long)*(const uint64_t *)at);
        else if (q->spec.type == BL_PARAM_CHOICE)
            fprintf(f, "method = %s\n",
                    *(const int *)at == BL_TRACK_STRUCTBOOST ? "structboost" : "adaboost");
        else if (q->spec.type == BL_PARAM_INT)
            fprintf(f, "%s = %d\n", q->spec.name, *(const int *)at);
        else
            fprintf(f, "%s = %.17g\n", q->spec.name, *(const double *)at);
    }
}

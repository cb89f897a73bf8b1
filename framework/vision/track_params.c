/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tracker parameters (track.h): defaults, one key at a time with range
 * checks, the [tracker] section of an INI file, and writing them back. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config/ini.h"
#include "track.h"

void bl_track_defaults(bl_track_params *p)
{
    memset(p, 0, sizeof *p);
    p->method = BL_TRACK_STRUCTBOOST;
    p->C = 10.0;
    p->init_iterations = 100;
    p->update_iterations = 3;
    p->warm_start = 1;
    p->ada_iterations = 500;
    p->pos_overlap = 0.8;
    p->neg_overlap = 0.3;
    p->eps_cp = 0.01;
    p->init_frames = 3;
    p->candidates = 2000;
    p->radius = 30;
    p->train_boxes = 200;
    p->train_radius = 40;
    p->scale_step = 1.05;
    p->scale_levels = 0;
    p->buffer = 60;
    p->update_every = 2;
    p->max_bins = 64;
    p->feat = (bl_patch_cfg){32, 16, 8};
    p->seed = 1;
    p->threads = 0;
}

typedef struct key {
    const char *name;
    char type;          /* d double, i int, u uint64 */
    size_t off;
    double lo, hi;
    const char *doc;
} key;

#define OFF(f) offsetof(bl_track_params, f)
static const key keys[] = {
    {"C", 'd', OFF(C), 1e-6, 1e9, "StructBoost's C"},
    {"init_iterations", 'i', OFF(init_iterations), 1, 100000, "columns of the first training"},
    {"update_iterations", 'i', OFF(update_iterations), 1, 100000, "new columns per update"},
    {"warm_start", 'i', OFF(warm_start), 0, 1, "1: updates continue the last model"},
    {"ada_iterations", 'i', OFF(ada_iterations), 1, 100000, "AdaBoost tracker's stumps"},
    {"pos_overlap", 'd', OFF(pos_overlap), 0, 1, "AdaBoost positives: overlap above"},
    {"neg_overlap", 'd', OFF(neg_overlap), 0, 1, "AdaBoost negatives: overlap at most"},
    {"eps_cp", 'd', OFF(eps_cp), 1e-9, 1, "cutting-plane tolerance"},
    {"polish", 'i', OFF(polish), 0, 1, "1: tighten eps_cp before the dual stop"},
    {"init_frames", 'i', OFF(init_frames), 1, 1000, "labelled frames at the start"},
    {"candidates", 'i', OFF(candidates), 1, 1000000, "boxes scored per frame"},
    {"radius", 'd', OFF(radius), 0, 10000, "their radius (px)"},
    {"train_boxes", 'i', OFF(train_boxes), 2, 100000, "boxes per training frame"},
    {"train_radius", 'd', OFF(train_radius), 0, 10000, "their radius (px)"},
    {"scale_step", 'd', OFF(scale_step), 1, 2, "scale factor between levels"},
    {"scale_levels", 'i', OFF(scale_levels), 0, 10, "levels either side of 1"},
    {"buffer", 'i', OFF(buffer), 1, 100000, "frames kept for training"},
    {"update_every", 'i', OFF(update_every), 1, 100000, "retrain every this many frames"},
    {"max_bins", 'i', OFF(max_bins), 2, 256, "bins per feature for the stumps"},
    {"patch", 'i', OFF(feat.patch), 8, 256, "resampled patch side"},
    {"small", 'i', OFF(feat.small), 0, 256, "down-scaled grey side (0: none)"},
    {"hog_cell", 'i', OFF(feat.hog_cell), 0, 128, "HOG cell side (0: no HOG)"},
    {"seed", 'u', OFF(seed), 0, 0, "random seed"},
    {"threads", 'i', OFF(threads), 0, 1024, "threads (0: all cores)"},
};

int bl_track_set(bl_track_params *p, const char *k, const char *value, bl_error *err)
{
    if (!strcmp(k, "method")) {
        if (!strcmp(value, "structboost"))
            p->method = BL_TRACK_STRUCTBOOST;
        else if (!strcmp(value, "adaboost"))
            p->method = BL_TRACK_ADABOOST;
        else
            return bl_errf(err, "method: expected structboost or adaboost, got '%s'", value);
        return 0;
    }
    for (size_t j = 0; j < sizeof keys / sizeof keys[0]; j++) {
        const key *q = &keys[j];
        if (strcmp(q->name, k))
            continue;
        char *end;
        errno = 0;
        if (q->type == 'u') {
            if (!value[0] || value[0] == '-')
                return bl_errf(err, "%s: expected an integer 0..2^64-1, got '%s'", k, value);
            unsigned long long v = strtoull(value, &end, 10);
            if (*end || errno)
                return bl_errf(err, "%s: expected an integer 0..2^64-1, got '%s'", k, value);
            *(uint64_t *)((char *)p + q->off) = v;
            return 0;
        }
        double v = strtod(value, &end);
        if (!value[0] || *end || errno || !(v >= q->lo && v <= q->hi) ||
            (q->type == 'i' && v != (double)(long)v))
            return bl_errf(err, "%s (%s): expected %s in %g..%g, got '%s'", k, q->doc,
                           q->type == 'i' ? "an integer" : "a number", q->lo, q->hi, value);
        if (q->type == 'i')
            *(int *)((char *)p + q->off) = (int)v;
        else
            *(double *)((char *)p + q->off) = v;
        return 0;
    }
    return bl_errf(err, "unknown key '%s' (keys: method, C, init_iterations, update_iterations, "
                   "warm_start, ada_iterations, pos_overlap, neg_overlap, eps_cp, polish, "
                   "init_frames, candidates, radius, train_boxes, train_radius, scale_step, scale_levels, "
                   "buffer, update_every, max_bins, patch, small, hog_cell, seed, threads)", k);
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
    fprintf(f, "[tracker]\nmethod = %s\n",
            p->method == BL_TRACK_STRUCTBOOST ? "structboost" : "adaboost");
    for (size_t j = 0; j < sizeof keys / sizeof keys[0]; j++) {
        const key *q = &keys[j];
        const char *at = (const char *)p + q->off;
        if (q->type == 'u')
            fprintf(f, "%s = %llu\n", q->name, (unsigned long long)*(const uint64_t *)at);
        else if (q->type == 'i')
            fprintf(f, "%s = %d\n", q->name, *(const int *)at);
        else
            fprintf(f, "%s = %.17g\n", q->name, *(const double *)at);
    }
}

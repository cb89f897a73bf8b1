/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The online trackers of StructBoost spec §4.5: the StructBoost tracker
 * (task plugin "track", column generation over stumps, Delta = 1 - IoU)
 * and the binary AdaBoost tracker baseline (positives overlap > 0.8,
 * negatives <= 0.3, 500 stumps), with the same features, box sampling and
 * update schedule, on sequences stored as frame images plus a
 * groundtruth.txt.  Parameters come from an INI file's [tracker] section
 * (or key=value overrides), so every run is reproducible.
 */
#ifndef BL_VISION_TRACK_H
#define BL_VISION_TRACK_H

#include <stdint.h>
#include <stdio.h>

#include "plugin/loader.h"
#include "image.h"
#include "patch.h"

enum { BL_TRACK_STRUCTBOOST = 0, BL_TRACK_ADABOOST = 1 };

typedef struct bl_track_params {
    int method;             /* BL_TRACK_*                                     */
    double C;               /* StructBoost's C                                 */
    int init_iterations;    /* columns of the first training                   */
    int update_iterations;  /* new columns per (warm-started) update           */
    int warm_start;         /* nonzero: updates continue from the last model   */
    int ada_iterations;     /* AdaBoost tracker: stumps per training           */
    double pos_overlap, neg_overlap; /* AdaBoost: positive > pos, negative <= neg */
    double eps_cp;
    int polish;             /* adaptive eps_cp tightening (bl_structboost_fit) */
    int init_frames;        /* labelled frames at the start                    */
    int candidates;         /* boxes scored per predicted frame                */
    double radius;          /* their translation radius (px)                   */
    int train_boxes;        /* boxes sampled per training frame                */
    double train_radius;
    double scale_step;      /* scales scale_step^k, |k| <= scale_levels        */
    int scale_levels;
    int buffer;             /* frames kept for training                        */
    int update_every;       /* retrain every this many frames                  */
    int max_bins;
    bl_patch_cfg feat;
    uint64_t seed;
    int threads;            /* 0 = all cores                                   */
} bl_track_params;

void bl_track_defaults(bl_track_params *p);
/* Set one key (names as in the INI); err names the key and the range. */
int bl_track_set(bl_track_params *p, const char *key, const char *value, bl_error *err);
/* Read the [tracker] section of path; errors are FILE:LINE: key: ... */
int bl_track_load(const char *path, bl_track_params *p, bl_error *err);
/* The parameters as INI text (for the run's provenance). */
void bl_track_write(const bl_track_params *p, FILE *f);

/* A sequence: frame files (sorted names ending .png/.jpg/.jpeg) and one
 * ground-truth box per frame. */
typedef struct bl_seq {
    char *dir;
    size_t n;
    char **frame;
    bl_box *gt;
} bl_seq;

int bl_seq_load(const char *dir, bl_seq *s, bl_error *err);
void bl_seq_free(bl_seq *s);

typedef struct bl_track_result {
    size_t n;               /* frames                                         */
    bl_box *box;            /* prediction per frame (the truth on labelled)   */
    double *overlap, *cerr; /* against the ground truth                       */
    size_t first;           /* first tracked (not labelled) frame             */
    double seconds;         /* wall time of the tracked frames                */
    double train_seconds;   /* of which retraining                            */
    double cpu_seconds;     /* process CPU time (all threads) over them       */
    size_t updates;         /* retrainings                                    */
    size_t columns;         /* terms of the final model                       */
} bl_track_result;

/* Track seq with p; plugins from reg.  progress (may be NULL) is called
 * after every frame. */
int bl_track_run(const bl_track_params *p, const bl_registry *reg, const bl_seq *seq,
                 void (*progress)(void *user, size_t done, size_t total), void *user,
                 bl_track_result *res, bl_error *err);
void bl_track_result_free(bl_track_result *r);
/* Mean and population std over the tracked frames [first, n). */
void bl_track_summary(const bl_track_result *r, double *mo, double *so, double *mc, double *sc);

/* Candidate boxes around b: box 0 is b itself, then n - 1 boxes with
 * centres uniform in the disc of the radius (prediction) or with radius
 * uniform in [0, radius] and a uniform angle (training: an even spread of
 * overlaps), and a scale step^k, k uniform in -levels..levels.  Seeded. */
void bl_track_sample(const bl_box *b, size_t n, double radius, int spread, double step,
                     int levels, uint64_t seed, bl_box *out);
#endif

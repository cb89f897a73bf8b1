/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The online trackers (track.h), spec §4.5's protocol:
 *   1. frames 0 .. init_frames-1 are labelled: their training boxes enter
 *      the buffer, then the tracker is trained;
 *   2. each later frame t: `candidates` boxes around y_{t-1} are scored,
 *      y_t = the best; `train_boxes` boxes around y_t (y_t itself first,
 *      the label) enter the buffer, which keeps the last `buffer` frames;
 *   3. every `update_every` frames the tracker is retrained on the buffer.
 * StructBoost sees one example per buffered frame: its candidate boxes
 * with their overlaps with y_t (task "track"); with warm_start the update
 * continues column generation from the last model (update_iterations new
 * columns) instead of restarting (spec §8.15 leaves it open).  The
 * AdaBoost tracker trains a binary classifier from scratch on the boxes of
 * overlap > pos_overlap (positive) and <= neg_overlap (negative).
 * GLPK solves the dual of StructBoost's master (master = dual): a few dozen
 * columns against a hundred or more cuts, and a re-solve every
 * cutting-plane round, so the smaller basis roughly halves the LP time.
 */
#include "track.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "config/experiment.h"
#include "data/quantize.h"
#include "engine/engine.h"
#include "exec/pool.h"
#include "structured/structured.h"
#include "util/clock.h"
#include "util/fsutil.h"
#include "util/rng.h"

/* ---- sampling ------------------------------------------------------------ */

static double unif01(uint64_t *st)
{
    *st += 0x9e3779b97f4a7c15ULL;
    return (double)(bl_mix64(*st) >> 11) / 9007199254740992.0;
}

void bl_track_sample(const bl_box *b, size_t n, double radius, int spread, double step,
                     int levels, uint64_t seed, bl_box *out)
{
    uint64_t st = seed;
    double cx = b->x + b->w / 2, cy = b->y + b->h / 2;
    for (size_t r = 0; r < n; r++) {
        if (r == 0) {
            out[0] = *b;
            continue;
        }
        double rho = spread ? radius * unif01(&st) : radius * sqrt(unif01(&st));
        double a = 2 * M_PI * unif01(&st);
        int k = levels ? (int)(unif01(&st) * (2 * levels + 1)) - levels : 0;
        double s = pow(step, k);
        double w = b->w * s, h = b->h * s;
        out[r] = (bl_box){cx + rho * cos(a) - w / 2, cy + rho * sin(a) - h / 2, w, h};
    }
}

/* Keep boxes inside the frame (and of a usable size). */
static void clamp_boxes(bl_box *b, size_t n, int W, int H)
{
    for (size_t r = 0; r < n; r++) {
        bl_box *q = &b[r];
        if (q->w < 8)
            q->w = 8;
        if (q->h < 8)
            q->h = 8;
        if (q->w > W)
            q->w = W;
        if (q->h > H)
            q->h = H;
        if (q->x < 0)
            q->x = 0;
        if (q->y < 0)
            q->y = 0;
        if (q->x + q->w > W)
            q->x = W - q->w;
        if (q->y + q->h > H)
            q->y = H - q->h;
    }
}

/* ---- the buffer of training frames ---------------------------------------- */

typedef struct slot {
    size_t n;        /* boxes                        */
    float *X;        /* dim x n, feature-major       */
    double *ov;      /* overlap of each with the label */
} slot;

typedef struct tracker {
    const bl_track_params *p;
    size_t dim;
    int threads;
    bl_patcher **pool;
    slot *buf;       /* ring of p->buffer slots      */
    size_t nbuf, head;
    size_t evicted;  /* frames dropped since the last training  */
    bl_algo_spec algo;
    bl_sb_model sbm;
    bl_model ada;
    int have_ada;
    size_t updates;
} tracker;

/* Add the training boxes of frame t around label y. */
static void collect(tracker *T, const bl_fimage *img, const bl_box *y, size_t t)
{
    const bl_track_params *p = T->p;
    size_t n = (size_t)p->train_boxes;
    bl_box *boxes = bl_xmalloc(n * sizeof *boxes);
    bl_track_sample(y, n, p->train_radius, 1, p->scale_step, p->scale_levels,
                    bl_seed_derive(p->seed, "track-train", t), boxes);
    clamp_boxes(boxes + 1, n - 1, img->w, img->h);
    slot *s;
    if (T->nbuf < (size_t)p->buffer) {
        s = &T->buf[(T->head + T->nbuf++) % (size_t)p->buffer];
    } else { /* overwrite the oldest */
        s = &T->buf[T->head];
        T->head = (T->head + 1) % (size_t)p->buffer;
        T->evicted++;
    }
    if (!s->X) {
        s->X = bl_xmalloc(T->dim * n * sizeof *s->X);
        s->ov = bl_xmalloc(n * sizeof *s->ov);
    }
    s->n = n;
    bl_patch_features_all(T->pool, T->threads, img, boxes, n, s->X, n);
    for (size_t r = 0; r < n; r++)
        s->ov[r] = bl_box_iou(&boxes[r], y);
    free(boxes);
}

/* The buffer as a data set.  StructBoost: every box, columns (frame,
 * overlap, features...).  AdaBoost: the positives and negatives only,
 * label 1 / 0, features only. */
static int buffer_dataset(const tracker *T, int binary, bl_dataset *ds, bl_error *err)
{
    const bl_track_params *p = T->p;
    memset(ds, 0, sizeof *ds);
    size_t m = 0;
    for (size_t q = 0; q < T->nbuf; q++) {
        const slot *s = &T->buf[(T->head + q) % (size_t)p->buffer];
        for (size_t r = 0; r < s->n; r++)
            m += !binary || s->ov[r] > p->pos_overlap || s->ov[r] <= p->neg_overlap;
    }
    size_t off = binary ? 0 : 2;
    ds->m = m;
    ds->d = T->dim + off;
    ds->k = 2;
    ds->y = bl_xcalloc(m ? m : 1, sizeof *ds->y);
    ds->x = bl_xmalloc((m ? m : 1) * ds->d * sizeof *ds->x);
    size_t at = 0, npos = 0;
    for (size_t q = 0; q < T->nbuf; q++) {
        const slot *s = &T->buf[(T->head + q) % (size_t)p->buffer];
        for (size_t r = 0; r < s->n; r++) {
            int pos = s->ov[r] > p->pos_overlap;
            if (binary && !pos && !(s->ov[r] <= p->neg_overlap))
                continue;
            if (binary) {
                ds->y[at] = pos;
                npos += (size_t)pos;
            } else {
                ds->x[at] = (float)q;
                ds->x[m + at] = (float)s->ov[r];
            }
            for (size_t f = 0; f < T->dim; f++)
                ds->x[(f + off) * m + at] = s->X[f * s->n + r];
            at++;
        }
    }
    if (binary && (npos == 0 || npos == m)) {
        free(ds->y);
        free(ds->x);
        memset(ds, 0, sizeof *ds);
        return bl_errf(err, "AdaBoost tracker: the buffer has %zu positive and %zu negative "
                       "boxes; it needs both (see pos_overlap, neg_overlap, train_radius)",
                       npos, m - npos);
    }
    return 0;
}

static void free_dataset(bl_dataset *ds)
{
    free(ds->y);
    free(ds->x);
    memset(ds, 0, sizeof *ds);
}

static char *const ada_names[2] = {"background", "object"};

/* (Re)train on the buffer; first: the first training. */
static int train(tracker *T, int first, bl_error *err)
{
    const bl_track_params *p = T->p;
    bl_dataset ds;
    int binary = p->method == BL_TRACK_ADABOOST;
    if (buffer_dataset(T, binary, &ds, err) < 0)
        return -1;
    bl_curve cv;
    memset(&cv, 0, sizeof cv);
    int rc;
    uint64_t seed = bl_seed_derive(p->seed, "track-fit", T->updates);
    if (!binary) {
        if (!p->warm_start)
            bl_sb_model_free(&T->sbm);
        int iters = first || !p->warm_start ? p->init_iterations : p->update_iterations;
        /* the buffer slid by `evicted` frames: the last working set of
         * cuts is rebuilt on what is left of it (bl_sb_model) */
        T->sbm.drop = T->evicted;
        bl_method_cfg cfg = {&T->algo, iters, seed, NULL, NULL, p->max_bins};
        rc = bl_structboost_fit(&cfg, &ds, p->max_bins, p->polish, &T->sbm, &cv, NULL, err);
    } else {
        bl_qview q;
        memset(&q, 0, sizeof q);
        rc = bl_quantize(&ds, p->max_bins, &q, err);
        if (rc == 0) {
            struct bl_train tv;
            bl_train_view(&ds, &q, &tv);
            if (T->have_ada)
                bl_model_free(&T->ada);
            bl_model_init(&T->ada, T->algo.weak.plugin, 2, T->dim, ada_names, NULL);
            T->have_ada = 1;
            bl_boost_cfg cfg = bl_algo_boost_cfg(&T->algo, p->ada_iterations, seed);
            cfg.max_bins = p->max_bins;
            rc = bl_boost(&cfg, &tv, NULL, NULL, &T->ada, &cv, err);
        }
        bl_qview_free(&q);
    }
    T->evicted = 0;
    bl_curve_free(&cv);
    free_dataset(&ds);
    T->updates++;
    return rc;
}

/* Index of the best of n candidates with features X (feature-major). */
static size_t best_candidate(const tracker *T, const float *X, size_t n, double *S)
{
    struct bl_matrix M = {n, T->dim, X};
    if (T->p->method == BL_TRACK_STRUCTBOOST) {
        bl_sb_model_scores(&T->sbm, 0, 0, &M, S);
    } else {
        double *F = bl_xmalloc(2 * n * sizeof *F);
        bl_model_scores(&T->ada, &M, F);
        for (size_t r = 0; r < n; r++)
            S[r] = F[2 * r + 1] - F[2 * r];
        free(F);
    }
    size_t best = 0;
    for (size_t r = 1; r < n; r++)
        if (S[r] > S[best])
            best = r;
    return best;
}

static int make_algo(tracker *T, const bl_registry *reg, bl_error *err)
{
    const bl_track_params *p = T->p;
    if (p->method == BL_TRACK_ADABOOST)
        return bl_recipe_load("adaboost", NULL, reg, &T->algo, err);
    bl_algo_init(&T->algo);
    char c[64], e[64];
    snprintf(c, sizeof c, "%.17g", p->C);
    snprintf(e, sizeof e, "%.17g", p->eps_cp);
    const char *kv[][2] = {{"method", "structboost"}, {"task", "track"}, {"weak", "stump"},
                           {"weak.criterion", "max"}, {"formulation", "1-slack"}, {"C", c},
                           {"eps_cp", e}, {"master", "dual"}};
    for (size_t j = 0; j < sizeof kv / sizeof kv[0]; j++)
        if (bl_algo_set(&T->algo, reg, kv[j][0], kv[j][1], err) < 0)
            return bl_errprefix(err, "StructBoost tracker, %s = %s", kv[j][0], kv[j][1]);
    T->sbm.wo = T->algo.weak.plugin->ops;
    return 0;
}

static void tracker_free(tracker *T)
{
    for (int j = 0; T->pool && j < T->threads; j++)
        bl_patcher_free(T->pool[j]);
    free(T->pool);
    for (int j = 0; T->buf && j < T->p->buffer; j++) {
        free(T->buf[j].X);
        free(T->buf[j].ov);
    }
    free(T->buf);
    bl_sb_model_free(&T->sbm);
    if (T->have_ada)
        bl_model_free(&T->ada);
    bl_algo_free(&T->algo);
}

void bl_track_result_free(bl_track_result *r)
{
    free(r->box);
    free(r->overlap);
    free(r->cerr);
    memset(r, 0, sizeof *r);
}

/* CPU time of the process, all threads: what the run cost, whatever else
 * the machine was doing. */
static double cpu_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

static int read_frame(const char *path, bl_fimage *f, bl_error *err)
{
    bl_image im;
    if (bl_image_read(path, &im, err) < 0)
        return -1;
    int rc = bl_fimage_from(&im, f, err);
    bl_image_free(&im);
    return rc < 0 ? bl_errprefix(err, "%s", path) : 0;
}

int bl_track_run(const bl_track_params *p, const bl_registry *reg, const bl_seq *seq,
                 void (*progress)(void *user, size_t done, size_t total), void *user,
                 bl_track_result *res, bl_error *err)
{
    memset(res, 0, sizeof *res);
    if (bl_patch_check(&p->feat, err) < 0)
        return -1;
    if (seq->n <= (size_t)p->init_frames)
        return bl_errf(err, "%s: %zu frames; the tracker needs more than init_frames = %d",
                       seq->dir, seq->n, p->init_frames);
    tracker T;
    memset(&T, 0, sizeof T);
    T.p = p;
    T.dim = bl_patch_dim(&p->feat);
    bl_set_threads(p->threads);
    T.threads = 1;
#ifdef _OPENMP
    T.threads = omp_get_max_threads();
#endif
    T.pool = bl_xcalloc((size_t)T.threads, sizeof *T.pool);
    for (int j = 0; j < T.threads; j++)
        T.pool[j] = bl_patcher_new(&p->feat);
    T.buf = bl_xcalloc((size_t)p->buffer, sizeof *T.buf);
    int rc = make_algo(&T, reg, err);
    size_t n = seq->n, N = (size_t)p->candidates;
    res->n = n;
    res->first = (size_t)p->init_frames;
    res->box = bl_xmalloc(n * sizeof *res->box);
    res->overlap = bl_xmalloc(n * sizeof *res->overlap);
    res->cerr = bl_xmalloc(n * sizeof *res->cerr);
    bl_box *cand = bl_xmalloc(N * sizeof *cand);
    float *X = bl_xmalloc(T.dim * N * sizeof *X);
    double *S = bl_xmalloc(N * sizeof *S);
    double t0 = 0, c0 = 0;
    for (size_t t = 0; t < n && rc == 0; t++) {
        if (t == res->first) {
            t0 = bl_seconds();
            c0 = cpu_now();
        }
        bl_fimage img;
        if (read_frame(seq->frame[t], &img, err) < 0) {
            rc = -1;
            break;
        }
        if (t < res->first) {
            res->box[t] = seq->gt[t];
        } else {
            bl_track_sample(&res->box[t - 1], N, p->radius, 0, p->scale_step, p->scale_levels,
                            bl_seed_derive(p->seed, "track-predict", t), cand);
            clamp_boxes(cand + 1, N - 1, img.w, img.h);
            bl_patch_features_all(T.pool, T.threads, &img, cand, N, X, N);
            res->box[t] = cand[best_candidate(&T, X, N, S)];
        }
        collect(&T, &img, &res->box[t], t);
        bl_fimage_free(&img);
        double t1 = bl_seconds();
        if (t + 1 == res->first)
            rc = train(&T, 1, err);
        else if (t >= res->first && (t + 1 - res->first) % (size_t)p->update_every == 0)
            rc = train(&T, 0, err);
        if (t >= res->first)
            res->train_seconds += bl_seconds() - t1;
        if (rc < 0)
            bl_errprefix(err, "%s, frame %zu", seq->dir, t + 1);
        res->overlap[t] = bl_box_iou(&res->box[t], &seq->gt[t]);
        res->cerr[t] = bl_box_centre_dist(&res->box[t], &seq->gt[t]);
        if (progress)
            progress(user, t + 1, n);
    }
    res->seconds = bl_seconds() - t0;
    res->cpu_seconds = cpu_now() - c0;
    res->updates = T.updates;
    res->columns = p->method == BL_TRACK_STRUCTBOOST ? T.sbm.n : T.ada.t;
    free(cand);
    free(X);
    free(S);
    tracker_free(&T);
    if (rc < 0)
        bl_track_result_free(res);
    return rc;
}

void bl_track_summary(const bl_track_result *r, double *mo, double *so, double *mc, double *sc)
{
    double a = 0, b = 0, c = 0, d = 0;
    size_t k = r->n - r->first;
    for (size_t t = r->first; t < r->n; t++) {
        a += r->overlap[t];
        c += r->cerr[t];
    }
    a /= (double)k;
    c /= (double)k;
    for (size_t t = r->first; t < r->n; t++) {
        b += (r->overlap[t] - a) * (r->overlap[t] - a);
        d += (r->cerr[t] - c) * (r->cerr[t] - c);
    }
    *mo = a, *so = sqrt(b / (double)k), *mc = c, *sc = sqrt(d / (double)k);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Task plugin "track": structured prediction over finite candidate sets,
 * the visual-tracking task of StructBoost spec §4.5.  Each data row is one
 * candidate box; column `group_col` holds the id of the example (frame) it
 * belongs to, column `overlap_col` its Pascal overlap (IoU) with that
 * example's label box, and the remaining columns are the patch features
 * phi is fitted on (the view "patch").  The label of an example is the
 * index of a candidate in its group (int32); the truth is the candidate of
 * largest overlap (the label box itself, overlap 1, in a tracker's data).
 *
 *     Delta(y_i, y) = o(y_i) - o(y)          (= 1 - IoU(y_i, y) when o(y_i) = 1)
 *     psi(x, y)     = phi(z_y)               (the features of box y)
 *     dpsi_i(y)     = phi(z_{y_i}) - phi(z_y): terms (+1 at y_i, -1 at y)
 *
 * Overlaps are clamped to [0, 1], so any CSV is a valid task (check-plugin
 * feeds random numbers).  Groups of one row have no wrong label and are
 * left out of the examples.  Loss-augmented inference and prediction
 * enumerate the group: the paper's sampling inference (§4.5).
 */
#include "common.h"

#include <math.h>

enum { P_GROUP, P_OVERLAP, P_COUNT };

static const struct bl_param_spec track_params[] = {
    {"group_col", BL_PARAM_INT, "0", 0, 2147483647.0, NULL,
     "feature column (from 0) holding each row's example (frame) id"},
    {"overlap_col", BL_PARAM_INT, "1", 0, 2147483647.0, NULL,
     "feature column holding each row's overlap with its example's label box"},
};

struct track {
    size_t m;            /* examples (groups of >= 2 rows)         */
    size_t *start;       /* example i's rows are row[start[i]..]   */
    size_t *row;
    size_t *truth;       /* position of y_i within its group       */
    double *ov;          /* clamped overlap per data row           */
    float *owned;        /* feature copy when the two columns are
                            not the first two                      */
    struct bl_task_view x;
};

struct keyed {
    float key;
    size_t row;
};

static int cmp_keyed(const void *a, const void *b)
{
    const struct keyed *p = a, *q = b;
    if (p->key != q->key)
        return p->key < q->key ? -1 : 1;
    return (p->row > q->row) - (p->row < q->row); /* stable: rows in file order */
}

static void track_close(void *inst)
{
    struct track *T = inst;
    if (T) {
        free(T->start), free(T->row), free(T->truth), free(T->ov), free(T->owned);
    }
    free(T);
}

static void *track_open(const struct bl_host *host, const union bl_value *params,
                        const struct bl_train *data, const char *const *class_names,
                        char err[BL_ERR_MAX])
{
    (void)host, (void)class_names;
    int64_t gc = params[P_GROUP].i, oc = params[P_OVERLAP].i;
    size_t m = data->m, d = data->d;
    if (gc == oc) {
        snprintf(err, BL_ERR_MAX, "task track: group_col and overlap_col are both %lld",
                 (long long)gc);
        return NULL;
    }
    if ((uint64_t)gc >= d || (uint64_t)oc >= d || d < 3) {
        snprintf(err, BL_ERR_MAX, "task track: needs the group column (%lld), the overlap "
                 "column (%lld) and at least one feature; the data has %zu features",
                 (long long)gc, (long long)oc, d);
        return NULL;
    }
    const float *g = data->X.x + (size_t)gc * m, *o = data->X.x + (size_t)oc * m;
    for (size_t r = 0; r < m; r++)
        if (isnan(g[r]) || isnan(o[r])) {
            snprintf(err, BL_ERR_MAX, "task track: row %zu has a missing %s", r,
                     isnan(g[r]) ? "group id" : "overlap");
            return NULL;
        }
    struct track *T = calloc(1, sizeof *T);
    struct keyed *k = malloc((m ? m : 1) * sizeof *k);
    if (!T || !k) {
        free(T), free(k);
        snprintf(err, BL_ERR_MAX, "task track: out of memory");
        return NULL;
    }
    T->start = malloc((m + 1) * sizeof *T->start);
    T->row = malloc((m ? m : 1) * sizeof *T->row);
    T->truth = malloc((m ? m : 1) * sizeof *T->truth);
    T->ov = malloc((m ? m : 1) * sizeof *T->ov);
    if (!T->start || !T->row || !T->truth || !T->ov) {
        free(k);
        track_close(T);
        snprintf(err, BL_ERR_MAX, "task track: out of memory");
        return NULL;
    }
    for (size_t r = 0; r < m; r++) {
        k[r] = (struct keyed){g[r], r};
        double v = o[r];
        T->ov[r] = v < 0 ? 0 : v > 1 ? 1 : v;
    }
    qsort(k, m, sizeof *k, cmp_keyed);
    size_t nrow = 0;
    T->start[0] = 0;
    for (size_t lo = 0; lo < m;) {
        size_t hi = lo;
        while (hi < m && k[hi].key == k[lo].key)
            hi++;
        if (hi - lo >= 2) { /* a group of one has no wrong label */
            size_t best = 0;
            for (size_t q = lo; q < hi; q++) {
                T->row[nrow + q - lo] = k[q].row;
                if (T->ov[k[q].row] > T->ov[k[lo + best].row])
                    best = q - lo;
            }
            T->truth[T->m] = best;
            nrow += hi - lo;
            T->start[++T->m] = nrow;
        }
        lo = hi;
    }
    free(k);
    if (!T->m) {
        snprintf(err, BL_ERR_MAX, "task track: no example has two or more candidate rows "
                 "(%zu rows, grouped by column %lld)", m, (long long)gc);
        track_close(T);
        return NULL;
    }
    /* the view: every column but the two, without a copy when they lead */
    T->x.name = "patch";
    T->x.blocks = 1;
    T->x.points.m = m;
    T->x.points.d = d - 2;
    if ((gc == 0 && oc == 1) || (gc == 1 && oc == 0)) {
        T->x.points.x = data->X.x + 2 * m;
    } else {
        T->owned = malloc((d - 2) * (m ? m : 1) * sizeof *T->owned);
        if (!T->owned) {
            track_close(T);
            snprintf(err, BL_ERR_MAX, "task track: out of memory");
            return NULL;
        }
        size_t f2 = 0;
        for (size_t f = 0; f < d; f++)
            if (f != (size_t)gc && f != (size_t)oc)
                memcpy(T->owned + f2++ * m, data->X.x + f * m, m * sizeof *T->owned);
        T->x.points.x = T->owned;
    }
    return T;
}

static size_t track_examples(const void *inst)
{
    return ((const struct track *)inst)->m;
}

static size_t track_label_bytes(const void *inst)
{
    (void)inst;
    return sizeof(int32_t);
}

static size_t track_nviews(const void *inst)
{
    (void)inst;
    return 1;
}

static const struct bl_task_view *track_view(const void *inst, size_t v)
{
    return v == 0 ? &((const struct track *)inst)->x : NULL;
}

static size_t gsize(const struct track *T, size_t i)
{
    return T->start[i + 1] - T->start[i];
}

/* Data row of candidate y of example i (y is trusted: labels come from
 * this task). */
static size_t row_of(const struct track *T, size_t i, int32_t y)
{
    return T->row[T->start[i] + (size_t)y];
}

static void track_truth(const void *inst, size_t i, void *y)
{
    tk_put_i32(y, (int32_t)((const struct track *)inst)->truth[i]);
}

static double loss_of(const struct track *T, size_t i, int32_t y)
{
    if ((size_t)y == T->truth[i])
        return 0.0;
    double l = T->ov[row_of(T, i, (int32_t)T->truth[i])] - T->ov[row_of(T, i, y)];
    return l > 0 ? l : 0.0; /* ties of the best overlap */
}

static double track_loss(const void *inst, size_t i, const void *y)
{
    return loss_of(inst, i, tk_get_i32(y));
}

static size_t track_dpsi(const void *inst, size_t i, const void *y, struct bl_task_term *t,
                         size_t cap)
{
    const struct track *T = inst;
    int32_t yy = tk_get_i32(y);
    if ((size_t)yy == T->truth[i])
        return 0;
    if (cap >= 2) {
        t[0] = (struct bl_task_term){.view = 0, .block = 0,
                                     .point = row_of(T, i, (int32_t)T->truth[i]), .coef = 1};
        t[1] = (struct bl_task_term){.view = 0, .block = 0, .point = row_of(T, i, yy),
                                     .coef = -1};
    }
    return 2;
}

/* argmax over the group of Delta + S (aug) or S alone; ties: first. */
static int32_t best_of(const struct track *T, size_t i, const double *S0, int aug, double *val)
{
    int32_t best = 0;
    double bv = -INFINITY;
    for (size_t q = 0; q < gsize(T, i); q++) {
        double v = S0[row_of(T, i, (int32_t)q)] + (aug ? loss_of(T, i, (int32_t)q) : 0.0);
        if (v > bv) {
            bv = v;
            best = (int32_t)q;
        }
    }
    *val = bv;
    return best;
}

static double track_argmax_aug(const void *inst, size_t i, const double *const *S, void *ybar)
{
    const struct track *T = inst;
    double v;
    int32_t y = best_of(T, i, S[0], 1, &v);
    double h = v - S[0][row_of(T, i, (int32_t)T->truth[i])];
    if (!(h > 0)) { /* the truth is as good: it is the answer, hinge 0 */
        y = (int32_t)T->truth[i];
        h = 0.0;
    }
    tk_put_i32(ybar, y);
    return h;
}

static void track_predict(const void *inst, size_t i, const double *const *S, void *y)
{
    double v;
    tk_put_i32(y, best_of(inst, i, S[0], 0, &v));
}

static void track_random_label(const void *inst, size_t i, uint64_t (*rnd)(void *), void *rng,
                               void *y)
{
    const struct track *T = inst;
    size_t q = (size_t)(rnd(rng) % (gsize(T, i) - 1));
    tk_put_i32(y, (int32_t)(q < T->truth[i] ? q : q + 1));
}

static size_t track_alternatives(const void *inst, size_t i, size_t t, void *y)
{
    const struct track *T = inst;
    if (y)
        tk_put_i32(y, (int32_t)(t < T->truth[i] ? t : t + 1));
    return gsize(T, i) - 1;
}

/* overlap_loss = mean Delta(y_i, pred_i), mean_overlap = mean o(pred_i). */
static void track_evaluate(const void *inst, const double *const *S, const void *pred,
                           double *values)
{
    (void)S;
    const struct track *T = inst;
    const unsigned char *p = pred;
    double l = 0, o = 0;
    for (size_t i = 0; i < T->m; i++) {
        int32_t y = tk_get_i32(p + i * sizeof(int32_t));
        l += loss_of(T, i, y);
        o += T->ov[row_of(T, i, y)];
    }
    values[0] = l / (double)T->m;
    values[1] = o / (double)T->m;
}

static int track_format_label(const void *inst, const void *y, char *buf, size_t cap)
{
    (void)inst;
    return snprintf(buf, cap, "candidate %d", (int)tk_get_i32(y));
}

static const struct bl_task_ops track_ops = {
    .size = sizeof(struct bl_task_ops),
    .open = track_open,
    .close = track_close,
    .examples = track_examples,
    .label_bytes = track_label_bytes,
    .nviews = track_nviews,
    .view = track_view,
    .truth = track_truth,
    .loss = track_loss,
    .dpsi = track_dpsi,
    .argmax_aug = track_argmax_aug,
    .predict = track_predict,
    .random_label = track_random_label,
    .alternatives = track_alternatives,
    .metrics = "overlap_loss,mean_overlap",
    .evaluate = track_evaluate,
    .label_is_class = 0,
    .format_label = track_format_label,
};

static const struct bl_plugin track_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_TASK,
    .name = "track",
    .doc = "Candidate sets (tracking boxes): Delta = 1 - overlap, argmax over each group's rows",
    .params = track_params,
    .nparams = P_COUNT,
    .ops = &track_ops,
};

static const struct bl_plugin *const track_plugins[] = {&track_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return track_plugins;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * check-plugin fixture: a valid structured-task plugin ("fixture-wrong-task")
 * whose loss-augmented argmax returns the wrong hinge.  It is multi-class
 * classification as the "multiclass" task (one block per class, 0/1 loss,
 * F(x_i, y) = S[i, y]), and argmax_aug picks the right ybar, but returns
 * Delta(y_i, ybar) + F(x_i, ybar) and forgets to subtract F(x_i, y_i) (a
 * classic slip).  With zero scores the two agree, so only nonzero score
 * matrices show it.  Loss, dpsi, prediction, metrics and labels are right.
 */
#include <boostlab/boostlab.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wt {
    size_t m, k;
    const int *y;
    struct bl_task_view x;
};

static int32_t get(const void *y)
{
    int32_t v;
    memcpy(&v, y, sizeof v);
    return v;
}

static void put(void *y, int32_t v)
{
    memcpy(y, &v, sizeof v);
}

static void *wt_open(const struct bl_host *host, const union bl_value *params,
                     const struct bl_train *data, const char *const *class_names,
                     char err[BL_ERR_MAX])
{
    (void)host, (void)params, (void)class_names;
    if (data->k < 2) {
        snprintf(err, BL_ERR_MAX, "needs at least 2 classes");
        return NULL;
    }
    struct wt *T = calloc(1, sizeof *T);
    if (!T) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    T->m = data->m, T->k = data->k, T->y = data->y;
    T->x.name = "x";
    T->x.points = data->X;
    T->x.blocks = data->k;
    return T;
}

static void wt_close(void *inst)
{
    free(inst);
}

static size_t wt_examples(const void *inst)
{
    return ((const struct wt *)inst)->m;
}

static size_t wt_label_bytes(const void *inst)
{
    (void)inst;
    return sizeof(int32_t);
}

static size_t wt_nviews(const void *inst)
{
    (void)inst;
    return 1;
}

static const struct bl_task_view *wt_view(const void *inst, size_t v)
{
    return v == 0 ? &((const struct wt *)inst)->x : NULL;
}

static void wt_truth(const void *inst, size_t i, void *y)
{
    put(y, ((const struct wt *)inst)->y[i]);
}

static double wt_loss(const void *inst, size_t i, const void *y)
{
    return get(y) != ((const struct wt *)inst)->y[i];
}

static size_t wt_dpsi(const void *inst, size_t i, const void *y, struct bl_task_term *t,
                      size_t cap)
{
    int32_t c = get(y), yi = ((const struct wt *)inst)->y[i];
    if (c == yi)
        return 0;
    if (cap >= 2) {
        t[0] = (struct bl_task_term){.view = 0, .block = (uint32_t)yi, .point = i, .coef = 1};
        t[1] = (struct bl_task_term){.view = 0, .block = (uint32_t)c, .point = i, .coef = -1};
    }
    return 2;
}

static double wt_argmax_aug(const void *inst, size_t i, const double *const *S, void *ybar)
{
    const struct wt *T = inst;
    const double *F = S[0] + i * T->k;
    int32_t yi = T->y[i], best = yi;
    double bestv = F[yi];
    for (size_t c = 0; c < T->k; c++)
        if ((int32_t)c != yi && 1.0 + F[c] > bestv)
            best = (int32_t)c, bestv = 1.0 + F[c];
    put(ybar, best);
    return best == yi ? 0.0 : bestv; /* the bug: should be bestv - F[yi] */
}

static void wt_predict(const void *inst, size_t i, const double *const *S, void *y)
{
    const struct wt *T = inst;
    const double *F = S[0] + i * T->k;
    size_t best = 0;
    for (size_t c = 1; c < T->k; c++)
        if (F[c] > F[best])
            best = c;
    put(y, (int32_t)best);
}

static void wt_random_label(const void *inst, size_t i, uint64_t (*rnd)(void *), void *rng,
                            void *y)
{
    const struct wt *T = inst;
    int32_t t = (int32_t)(rnd(rng) % (T->k - 1));
    put(y, t < T->y[i] ? t : t + 1);
}

static size_t wt_alternatives(const void *inst, size_t i, size_t t, void *y)
{
    const struct wt *T = inst;
    if (y)
        put(y, (int32_t)t < T->y[i] ? (int32_t)t : (int32_t)t + 1);
    return T->k - 1;
}

static void wt_evaluate(const void *inst, const double *const *S, const void *pred,
                        double *values)
{
    const struct wt *T = inst;
    const unsigned char *p = pred;
    size_t wrong = 0;
    for (size_t i = 0; i < T->m; i++) {
        int32_t c;
        if (p) {
            c = get(p + i * sizeof(int32_t));
        } else if (S) {
            int32_t b[1];
            wt_predict(inst, i, S, b);
            c = b[0];
        } else {
            c = -1;
        }
        wrong += c != T->y[i];
    }
    values[0] = (double)wrong / (double)T->m;
}

static int wt_format_label(const void *inst, const void *y, char *buf, size_t cap)
{
    (void)inst;
    return snprintf(buf, cap, "class%d", (int)get(y));
}

static const struct bl_task_ops wt_ops = {
    .size = sizeof(struct bl_task_ops),
    .open = wt_open,
    .close = wt_close,
    .examples = wt_examples,
    .label_bytes = wt_label_bytes,
    .nviews = wt_nviews,
    .view = wt_view,
    .truth = wt_truth,
    .loss = wt_loss,
    .dpsi = wt_dpsi,
    .argmax_aug = wt_argmax_aug,
    .predict = wt_predict,
    .random_label = wt_random_label,
    .alternatives = wt_alternatives,
    .metrics = "error",
    .evaluate = wt_evaluate,
    .label_is_class = 1,
    .format_label = wt_format_label,
};

static const struct bl_plugin wt_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_TASK,
    .name = "fixture-wrong-task",
    .doc = "test fixture: multi-class task whose argmax_aug forgets to subtract F(x_i, y_i)",
    .params = NULL,
    .nparams = 0,
    .ops = &wt_ops,
};

static const struct bl_plugin *const wt_plugins[] = {&wt_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *boostlab_plugin_entry(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *boostlab_plugin_entry(const struct bl_host *host)
{
    (void)host;
    return wt_plugins;
}

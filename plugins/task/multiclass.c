/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Task plugin "multiclass": multi-class classification, StructBoost spec
 * §4.3, which recovers MultiBoost (Shen & Hao).  Label: the int32 class
 * index; one block per class, psi(x, y) = phi(x) [y = c] for a column in
 * block c (orthogonal coding), Delta = 0/1.  So F(x_i, c) = S[0][i k + c]
 * and delta psi_i(y) for y != y_i is the two terms (0, y_i, i, +1),
 * (0, y, i, -1); none for y = y_i.
 *
 * Loss-augmented inference and prediction enumerate the k classes (ties:
 * the truth first, then the lowest class).  Labels are class indices
 * (label_is_class), so "error" also scores the predictions of ordinary
 * multi-class algorithms, from pred alone.
 */
#include "common.h"

#include <math.h>

struct mc {
    size_t m, k;
    const int *y;
    char **names; /* k class names (copies) or NULL */
    struct bl_task_view x;
};

static void *mc_open(const struct bl_host *host, const union bl_value *params,
                     const struct bl_train *data, const char *const *class_names,
                     char err[BL_ERR_MAX])
{
    (void)host, (void)params;
    if (data->k < 2 || data->k > INT32_MAX) {
        snprintf(err, BL_ERR_MAX, "task multiclass: needs 2..%d classes (the data has %zu)",
                 INT32_MAX, data->k);
        return NULL;
    }
    if (tk_check_labels("multiclass", data, err) < 0)
        return NULL;
    struct mc *T = calloc(1, sizeof *T);
    if (!T || (class_names && !(T->names = tk_copy_names(class_names, data->k)))) {
        free(T);
        snprintf(err, BL_ERR_MAX, "task multiclass: out of memory");
        return NULL;
    }
    T->m = data->m;
    T->k = data->k;
    T->y = data->y; /* the data outlives the instance */
    tk_x_view(&T->x, data, data->k);
    return T;
}

static void mc_close(void *inst)
{
    struct mc *T = inst;
    if (T)
        tk_free_names(T->names, T->k);
    free(T);
}

static size_t mc_examples(const void *inst)
{
    return ((const struct mc *)inst)->m;
}

static size_t mc_label_bytes(const void *inst)
{
    (void)inst;
    return sizeof(int32_t);
}

static size_t mc_nviews(const void *inst)
{
    (void)inst;
    return 1;
}

static const struct bl_task_view *mc_view(const void *inst, size_t v)
{
    return v == 0 ? &((const struct mc *)inst)->x : NULL;
}

static void mc_truth(const void *inst, size_t i, void *y)
{
    tk_put_i32(y, ((const struct mc *)inst)->y[i]);
}

static double mc_loss(const void *inst, size_t i, const void *y)
{
    return tk_get_i32(y) != ((const struct mc *)inst)->y[i];
}

static size_t mc_dpsi(const void *inst, size_t i, const void *y, struct bl_task_term *t,
                      size_t cap)
{
    int32_t c = tk_get_i32(y), yi = ((const struct mc *)inst)->y[i];
    if (c == yi)
        return 0;
    if (cap >= 2) {
        t[0] = (struct bl_task_term){.view = 0, .block = (uint32_t)yi, .point = i, .coef = 1};
        t[1] = (struct bl_task_term){.view = 0, .block = (uint32_t)c, .point = i, .coef = -1};
    }
    return 2;
}

static double mc_argmax_aug(const void *inst, size_t i, const double *const *S, void *ybar)
{
    const struct mc *T = inst;
    const double *F = S[0] + i * T->k;
    int32_t yi = T->y[i], best = yi;
    double bestv = F[yi]; /* Delta(y_i, y_i) = 0 */
    for (size_t c = 0; c < T->k; c++)
        if ((int32_t)c != yi && 1.0 + F[c] > bestv)
            best = (int32_t)c, bestv = 1.0 + F[c];
    tk_put_i32(ybar, best);
    return best == yi ? 0.0 : bestv - F[yi];
}

static int32_t mc_argmax(const struct mc *T, size_t i, const double *S0)
{
    const double *F = S0 + i * T->k;
    size_t best = 0;
    for (size_t c = 1; c < T->k; c++)
        if (F[c] > F[best])
            best = c;
    return (int32_t)best;
}

static void mc_predict(const void *inst, size_t i, const double *const *S, void *y)
{
    tk_put_i32(y, mc_argmax(inst, i, S[0]));
}

static void mc_random_label(const void *inst, size_t i, uint64_t (*rnd)(void *), void *rng,
                            void *y)
{
    const struct mc *T = inst;
    tk_put_i32(y, tk_random_other(T->k, T->y[i], rnd, rng));
}

static size_t mc_alternatives(const void *inst, size_t i, size_t t, void *y)
{
    const struct mc *T = inst;
    if (y)
        tk_put_i32(y, tk_other_class(t, T->y[i]));
    return T->k - 1;
}

/* "error" from pred (from the argmax of S when pred is NULL). */
static void mc_evaluate(const void *inst, const double *const *S, const void *pred,
                        double *values)
{
    const struct mc *T = inst;
    const unsigned char *p = pred;
    size_t wrong = 0;
    for (size_t i = 0; i < T->m; i++) {
        int32_t c = p ? tk_get_i32(p + i * sizeof(int32_t)) : (S ? mc_argmax(T, i, S[0]) : -1);
        wrong += c != T->y[i];
    }
    values[0] = (p || S) ? (double)wrong / (double)T->m : NAN;
}

static int mc_format_label(const void *inst, const void *y, char *buf, size_t cap)
{
    const struct mc *T = inst;
    return tk_format_class(T->names, T->k, tk_get_i32(y), buf, cap);
}

static const struct bl_task_ops mc_ops = {
    .size = sizeof(struct bl_task_ops),
    .open = mc_open,
    .close = mc_close,
    .examples = mc_examples,
    .label_bytes = mc_label_bytes,
    .nviews = mc_nviews,
    .view = mc_view,
    .truth = mc_truth,
    .loss = mc_loss,
    .dpsi = mc_dpsi,
    .argmax_aug = mc_argmax_aug,
    .predict = mc_predict,
    .random_label = mc_random_label,
    .alternatives = mc_alternatives,
    .metrics = "error",
    .evaluate = mc_evaluate,
    .label_is_class = 1,
    .format_label = mc_format_label,
};

static const struct bl_plugin mc_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_TASK,
    .name = "multiclass",
    .doc = "multi-class classification, one block per class, 0/1 loss (StructBoost = MultiBoost)",
    .params = NULL,
    .nparams = 0,
    .ops = &mc_ops,
};

static const struct bl_plugin *const mc_plugins[] = {&mc_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return mc_plugins;
}

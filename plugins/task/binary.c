/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Task plugin "binary-task": binary classification, StructBoost spec §4.1,
 * which recovers LPBoost.  Class `positive` is +1, every other class -1;
 * Y = {+1, -1} (label: one int8), psi(x, y) = y phi(x) / 2, Delta = 0/1,
 * one block.  So delta psi_i(-y_i) = y_i phi(x_i): one term (0, 0, i, y_i),
 * F(x_i, y) = y S_i / 2 and the constraint reads y_i F(x_i) >= 1 - xi_i.
 *
 * Named "binary-task", not "binary": plugin names are unique across roles
 * and the coding plugin "binary" (AdaBoost's one column) has that name.
 * Prediction is sign(S) with S = 0 going to +1 (the positive class): F ties
 * there and a tie has to go somewhere; +1 keeps "positive iff S >= 0".
 */
#include "common.h"

enum { P_POSITIVE, P_COUNT };

static const struct bl_param_spec bin_params[] = {
    {"positive", BL_PARAM_INT, "0", 0, 2147483647.0, NULL,
     "class index that is +1 (all other classes are -1)"},
};

struct bin {
    size_t m;
    int8_t *y; /* +1 / -1 per row */
    struct bl_task_view x;
};

static void *bin_open(const struct bl_host *host, const union bl_value *params,
                      const struct bl_train *data, const char *const *class_names,
                      char err[BL_ERR_MAX])
{
    (void)host, (void)class_names;
    if (tk_check_positive("binary-task", params[P_POSITIVE].i, data, err) < 0 ||
        tk_check_labels("binary-task", data, err) < 0)
        return NULL;
    struct bin *T = calloc(1, sizeof *T);
    if (T)
        T->y = malloc(data->m ? data->m : 1);
    if (!T || !T->y) {
        free(T);
        snprintf(err, BL_ERR_MAX, "task binary-task: out of memory");
        return NULL;
    }
    T->m = data->m;
    for (size_t i = 0; i < data->m; i++)
        T->y[i] = data->y[i] == params[P_POSITIVE].i ? 1 : -1;
    tk_x_view(&T->x, data, 1);
    return T;
}

static void bin_close(void *inst)
{
    struct bin *T = inst;
    if (T)
        free(T->y);
    free(T);
}

static size_t bin_examples(const void *inst)
{
    return ((const struct bin *)inst)->m;
}

static size_t bin_label_bytes(const void *inst)
{
    (void)inst;
    return 1;
}

static size_t bin_nviews(const void *inst)
{
    (void)inst;
    return 1;
}

static const struct bl_task_view *bin_view(const void *inst, size_t v)
{
    return v == 0 ? &((const struct bin *)inst)->x : NULL;
}

static void bin_truth(const void *inst, size_t i, void *y)
{
    *(int8_t *)y = ((const struct bin *)inst)->y[i];
}

static double bin_loss(const void *inst, size_t i, const void *y)
{
    return *(const int8_t *)y != ((const struct bin *)inst)->y[i];
}

static size_t bin_dpsi(const void *inst, size_t i, const void *y, struct bl_task_term *t,
                       size_t cap)
{
    int8_t yi = ((const struct bin *)inst)->y[i];
    if (*(const int8_t *)y == yi)
        return 0;
    if (cap >= 1)
        t[0] = (struct bl_task_term){.view = 0, .block = 0, .point = i, .coef = yi};
    return 1;
}

/* Candidates: y_i (h = 0) and -y_i (h = 1 - y_i S_i); the truth wins ties. */
static double bin_argmax_aug(const void *inst, size_t i, const double *const *S, void *ybar)
{
    int8_t yi = ((const struct bin *)inst)->y[i];
    double h = 1.0 - yi * S[0][i];
    *(int8_t *)ybar = h > 0 ? (int8_t)-yi : yi;
    return h > 0 ? h : 0.0;
}

static void bin_predict(const void *inst, size_t i, const double *const *S, void *y)
{
    (void)inst;
    *(int8_t *)y = S[0][i] >= 0 ? 1 : -1;
}

static void bin_random_label(const void *inst, size_t i, uint64_t (*rnd)(void *), void *rng,
                             void *y)
{
    (void)rnd, (void)rng;
    *(int8_t *)y = (int8_t)-((const struct bin *)inst)->y[i];
}

static size_t bin_alternatives(const void *inst, size_t i, size_t t, void *y)
{
    (void)t;
    if (y)
        *(int8_t *)y = (int8_t)-((const struct bin *)inst)->y[i];
    return 1;
}

/* "error": the 0/1 rate of pred (of sign(S) when pred is NULL). */
static void bin_evaluate(const void *inst, const double *const *S, const void *pred,
                         double *values)
{
    const struct bin *T = inst;
    const int8_t *p = pred;
    size_t wrong = 0;
    for (size_t i = 0; i < T->m; i++) {
        int8_t yp = p ? p[i] : (S[0][i] >= 0 ? 1 : -1);
        wrong += yp != T->y[i];
    }
    values[0] = (double)wrong / (double)T->m; /* NaN for an empty part */
}

static int bin_format_label(const void *inst, const void *y, char *buf, size_t cap)
{
    (void)inst;
    return snprintf(buf, cap, "%s", *(const int8_t *)y > 0 ? "+1" : "-1");
}

static const struct bl_task_ops bin_ops = {
    .size = sizeof(struct bl_task_ops),
    .open = bin_open,
    .close = bin_close,
    .examples = bin_examples,
    .label_bytes = bin_label_bytes,
    .nviews = bin_nviews,
    .view = bin_view,
    .truth = bin_truth,
    .loss = bin_loss,
    .dpsi = bin_dpsi,
    .argmax_aug = bin_argmax_aug,
    .predict = bin_predict,
    .random_label = bin_random_label,
    .alternatives = bin_alternatives,
    .metrics = "error",
    .evaluate = bin_evaluate,
    .label_is_class = 0,
    .format_label = bin_format_label,
};

static const struct bl_plugin bin_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_TASK,
    .name = "binary-task",
    .doc = "binary classification, class `positive` vs the rest (StructBoost = LPBoost)",
    .params = bin_params,
    .nparams = P_COUNT,
    .ops = &bin_ops,
};

static const struct bl_plugin *const bin_plugins[] = {&bin_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return bin_plugins;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Task plugin "auc": AUC maximisation (bipartite ranking), StructBoost spec
 * §4.2.  Class `positive` against the rest; the structured examples are all
 * P * N (positive p, negative n) pairs of the data part, pair t being
 * (pos[t / N], neg[t % N]), so nothing is stored per pair (m = |S|, the
 * spec's recommended reading).  Label: one uint8, 0 = correct order (the
 * truth), 1 = reversed, Delta(reversed) = 1.  psi(x, y) = y (phi(x_p) -
 * phi(x_n)) / 2 with y = +1 / -1 for correct / reversed, so delta
 * psi(reversed) = phi(x_p) - phi(x_n): terms (0, 0, p, +1), (0, 0, n, -1),
 * and F(correct) - F(reversed) = S_p - S_n.
 *
 * Metrics "auc_error,auc" come from the scores alone (ties count 1/2,
 * midranks after one sort: O(N log N)), never from the predicted
 * orientations.  Prediction says "correct" only when S_p > S_n strictly:
 * a tie does not order the pair.
 */
#include "common.h"

#include <math.h>

enum { P_POSITIVE, P_COUNT };

static const struct bl_param_spec auc_params[] = {
    {"positive", BL_PARAM_INT, "0", 0, 2147483647.0, NULL,
     "class index ranked above the others"},
};

struct auc {
    size_t P, N;   /* positives, negatives of the part */
    size_t *pos;   /* their row indices                */
    size_t *neg;
    struct bl_task_view x;
};

static void *auc_open(const struct bl_host *host, const union bl_value *params,
                      const struct bl_train *data, const char *const *class_names,
                      char err[BL_ERR_MAX])
{
    (void)host;
    int64_t positive = params[P_POSITIVE].i;
    if (tk_check_positive("auc", positive, data, err) < 0 ||
        tk_check_labels("auc", data, err) < 0)
        return NULL;
    size_t P = 0;
    for (size_t i = 0; i < data->m; i++)
        P += data->y[i] == positive;
    size_t N = data->m - P;
    if (P == 0 || N == 0) {
        const char *name = class_names && class_names[positive] ? class_names[positive] : "?";
        snprintf(err, BL_ERR_MAX,
                 "task auc: the data part (%zu rows) has no %s example (positive = %lld, "
                 "class '%s'); AUC needs both",
                 data->m, P == 0 ? "positive" : "negative", (long long)positive, name);
        return NULL;
    }
    if (P > SIZE_MAX / N) {
        snprintf(err, BL_ERR_MAX, "task auc: %zu x %zu pairs do not fit a size_t", P, N);
        return NULL;
    }
    struct auc *T = calloc(1, sizeof *T);
    if (T) {
        T->pos = malloc(P * sizeof *T->pos);
        T->neg = malloc(N * sizeof *T->neg);
    }
    if (!T || !T->pos || !T->neg) {
        if (T)
            free(T->pos), free(T->neg);
        free(T);
        snprintf(err, BL_ERR_MAX, "task auc: out of memory");
        return NULL;
    }
    for (size_t i = 0; i < data->m; i++) {
        if (data->y[i] == positive)
            T->pos[T->P++] = i;
        else
            T->neg[T->N++] = i;
    }
    tk_x_view(&T->x, data, 1);
    return T;
}

static void auc_close(void *inst)
{
    struct auc *T = inst;
    if (T)
        free(T->pos), free(T->neg);
    free(T);
}

static size_t auc_examples(const void *inst)
{
    const struct auc *T = inst;
    return T->P * T->N;
}

static size_t auc_label_bytes(const void *inst)
{
    (void)inst;
    return 1;
}

static size_t auc_nviews(const void *inst)
{
    (void)inst;
    return 1;
}

static const struct bl_task_view *auc_view(const void *inst, size_t v)
{
    return v == 0 ? &((const struct auc *)inst)->x : NULL;
}

static void auc_truth(const void *inst, size_t i, void *y)
{
    (void)inst, (void)i;
    *(uint8_t *)y = 0;
}

static double auc_loss(const void *inst, size_t i, const void *y)
{
    (void)inst, (void)i;
    return *(const uint8_t *)y != 0;
}

static size_t auc_dpsi(const void *inst, size_t i, const void *y, struct bl_task_term *t,
                       size_t cap)
{
    const struct auc *T = inst;
    if (*(const uint8_t *)y == 0)
        return 0;
    if (cap >= 2) {
        t[0] = (struct bl_task_term){.view = 0, .block = 0, .point = T->pos[i / T->N], .coef = 1};
        t[1] = (struct bl_task_term){.view = 0, .block = 0, .point = T->neg[i % T->N], .coef = -1};
    }
    return 2;
}

/* S_p - S_n of pair i. */
static double auc_gap(const struct auc *T, size_t i, const double *S0)
{
    return S0[T->pos[i / T->N]] - S0[T->neg[i % T->N]];
}

static double auc_argmax_aug(const void *inst, size_t i, const double *const *S, void *ybar)
{
    double h = 1.0 - auc_gap(inst, i, S[0]);
    *(uint8_t *)ybar = h > 0;
    return h > 0 ? h : 0.0;
}

static void auc_predict(const void *inst, size_t i, const double *const *S, void *y)
{
    *(uint8_t *)y = !(auc_gap(inst, i, S[0]) > 0);
}

static void auc_random_label(const void *inst, size_t i, uint64_t (*rnd)(void *), void *rng,
                             void *y)
{
    (void)inst, (void)i, (void)rnd, (void)rng;
    *(uint8_t *)y = 1;
}

static size_t auc_alternatives(const void *inst, size_t i, size_t t, void *y)
{
    (void)inst, (void)i, (void)t;
    if (y)
        *(uint8_t *)y = 1;
    return 1;
}

struct scored {
    double s;
    int positive;
};

static int cmp_scored(const void *a, const void *b)
{
    double x = ((const struct scored *)a)->s, y = ((const struct scored *)b)->s;
    return (x > y) - (x < y);
}

/* AUC = (sum of the positives' midranks - P(P+1)/2) / (P N): the share of
 * (p, n) pairs with S_p > S_n, ties counting 1/2.  NaN without scores. */
static double auc_of(const struct auc *T, const double *S0)
{
    size_t n = T->P + T->N;
    struct scored *a = S0 ? malloc(n * sizeof *a) : NULL;
    if (!a)
        return NAN;
    for (size_t j = 0; j < T->P; j++)
        a[j] = (struct scored){S0[T->pos[j]], 1};
    for (size_t j = 0; j < T->N; j++)
        a[T->P + j] = (struct scored){S0[T->neg[j]], 0};
    qsort(a, n, sizeof *a, cmp_scored);
    double ranksum = 0; /* twice the positives' midranks (1-based), exact in a double */
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo, npos = 0;
        while (hi < n && a[hi].s == a[lo].s)
            npos += (size_t)a[hi++].positive;
        ranksum += (double)npos * (double)(lo + 1 + hi); /* 2 * midrank (lo+1+hi)/2 */
        lo = hi;
    }
    free(a);
    double P = (double)T->P, N = (double)T->N;
    return (ranksum / 2 - P * (P + 1) / 2) / (P * N);
}

static void auc_evaluate(const void *inst, const double *const *S, const void *pred,
                         double *values)
{
    (void)pred;
    double a = auc_of(inst, S ? S[0] : NULL);
    values[0] = 1 - a;
    values[1] = a;
}

static int auc_format_label(const void *inst, const void *y, char *buf, size_t cap)
{
    (void)inst;
    return snprintf(buf, cap, "%s", *(const uint8_t *)y ? "reversed" : "correct");
}

static const struct bl_task_ops auc_ops = {
    .size = sizeof(struct bl_task_ops),
    .open = auc_open,
    .close = auc_close,
    .examples = auc_examples,
    .label_bytes = auc_label_bytes,
    .nviews = auc_nviews,
    .view = auc_view,
    .truth = auc_truth,
    .loss = auc_loss,
    .dpsi = auc_dpsi,
    .argmax_aug = auc_argmax_aug,
    .predict = auc_predict,
    .random_label = auc_random_label,
    .alternatives = auc_alternatives,
    .metrics = "auc_error,auc",
    .evaluate = auc_evaluate,
    .label_is_class = 0,
    .format_label = auc_format_label,
};

static const struct bl_plugin auc_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_TASK,
    .name = "auc",
    .doc = "AUC maximisation: every (positive, negative) pair ordered, class `positive` vs rest",
    .params = auc_params,
    .nparams = P_COUNT,
    .ops = &auc_ops,
};

static const struct bl_plugin *const auc_plugins[] = {&auc_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return auc_plugins;
}

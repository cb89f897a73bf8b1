/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Task plugin "my-task", started from boostlab's task template: ordinal
 * multi-class classification.  The k classes are taken to be ordered (by
 * their index: the order of the data's classes file, e.g. ratings 1..5),
 * and a mistake costs how far it lands from the truth:
 *
 *     Delta(y, y') = |y - y'|        (cost = absolute, the default)
 *     Delta(y, y') = (y - y')^2      (cost = squared)
 *
 * The model is the multi-class one (one block per class, orthogonal
 * coding: psi(x, y) = phi(x) [y = c] for a column in block c), so
 *
 *     F(x_i, c) = S[0][i * k + c]
 *
 * and only Delta differs from the in-tree task "multiclass": with margin
 * rescaling, StructBoost asks for a margin that grows with the distance to
 * the truth, so far-off classes are pushed down harder than near ones.
 *
 * What a task gives the engine (the contract is <boostlab/task.h> and
 * docs/sdk.md):
 *   - examples: one per data row, label y_i = its class, an int32 stored
 *     as a 4-byte blob (labels are opaque bytes to the engine);
 *   - views: one, "x", whose points are the data rows; the base learner
 *     (stump, perceptron, linear SVM, ...) is fitted on them;
 *   - blocks: k, one per class; a column of the model sits in one block;
 *   - dpsi: psi(x_i, y_i) - psi(x_i, y) as terms coef * phi(z_point) of the
 *     columns in (view, block): (0, y_i, i, +1) and (0, y, i, -1), none
 *     when y = y_i.  This linearity is what lets any weak learner be lifted;
 *   - argmax_aug, predict: by enumerating the k classes;
 *   - metrics "error,mean_abs_error": the first, the primary, is an error.
 *
 * Build:  make   (or: cc -shared -fPIC $(pkg-config --cflags boostlab) my_task.c -o my_task.so)
 * Check:  boostlab check-plugin ./my_task.so
 * Use:    BOOSTLAB_PLUGIN_PATH=$PWD/my_task.so, then in an experiment's
 *         [algorithm] section: recipe = structboost-stump and task = my-task
 *         (or method = structboost, task = my-task, weak = stump).
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parameters: the host parses `task.cost = ...` against this table and
 * hands open() the values in this order. */
enum { P_COST, P_COUNT };
enum { COST_ABSOLUTE, COST_SQUARED }; /* the choices, by index */
static const struct bl_param_spec my_task_params[P_COUNT] = {
    [P_COST] = {"cost", BL_PARAM_CHOICE, "absolute", 0, 0, "absolute|squared",
                "Delta(y, y') = |y - y'| or (y - y')^2 over the class indices"},
};

/* One instance per data part (the engine opens the training part and the
 * test part separately).  Nothing in it changes after open(): that is what
 * makes argmax_aug safe to call from several threads at once. */
struct my_task {
    size_t m, k;
    int cost;
    const int *y;            /* the data's labels: the data outlives us */
    char **names;            /* copies of the k class names, or NULL    */
    struct bl_task_view x;   /* view 0                                  */
};

/* ---- labels: int32 class indices as byte blobs ------------------------------ */

/* The engine stores labels back to back, so read and write them with memcpy
 * (no alignment may be assumed). */
static int32_t get_label(const void *y)
{
    int32_t c;
    memcpy(&c, y, sizeof c);
    return c;
}

static void put_label(void *y, int32_t c)
{
    memcpy(y, &c, sizeof c);
}

static double cost_of(const struct my_task *T, int32_t a, int32_t b)
{
    double d = fabs((double)a - (double)b);
    return T->cost == COST_SQUARED ? d * d : d;
}

/* The t-th of the k-1 classes other than yi, in increasing order. */
static int32_t other_class(size_t t, int32_t yi)
{
    return (int32_t)t < yi ? (int32_t)t : (int32_t)t + 1;
}

/* ---- open / close ---------------------------------------------------------- */

static char *copy_text(const char *s) /* strdup, which strict ISO C lacks */
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    return c ? memcpy(c, s, n) : NULL;
}

static void free_names(char **names, size_t k)
{
    for (size_t c = 0; names && c < k; c++)
        free(names[c]);
    free(names);
}

static void *my_task_open(const struct bl_host *host, const union bl_value *params,
                          const struct bl_train *data, const char *const *class_names,
                          char err[BL_ERR_MAX])
{
    (void)host; /* host->log and host->threads are there if you need them */
    if (data->k < 2 || data->k > INT32_MAX) {
        snprintf(err, BL_ERR_MAX, "task my-task: needs at least 2 classes (the data has %zu)",
                 data->k); /* errors go back, never to stdout */
        return NULL;
    }
    for (size_t i = 0; i < data->m; i++)
        if (data->y[i] < 0 || (size_t)data->y[i] >= data->k) {
            snprintf(err, BL_ERR_MAX, "task my-task: row %zu has class %d, outside 0..%zu", i,
                     data->y[i], data->k - 1);
            return NULL;
        }
    struct my_task *T = calloc(1, sizeof *T);
    if (!T)
        goto oom;
    T->m = data->m; /* one example per row */
    T->k = data->k;
    T->cost = params ? params[P_COST].choice : COST_ABSOLUTE;
    T->y = data->y;
    if (class_names) {
        T->names = calloc(T->k, sizeof *T->names);
        if (!T->names)
            goto oom;
        for (size_t c = 0; c < T->k; c++)
            if (class_names[c] && !(T->names[c] = copy_text(class_names[c])))
                goto oom;
    }
    /* view "x": the data rows themselves (no copy), one block per class */
    T->x.name = "x";
    T->x.points = data->X;
    T->x.blocks = T->k;
    return T;
oom:
    if (T)
        free_names(T->names, T->k);
    free(T);
    snprintf(err, BL_ERR_MAX, "task my-task: out of memory");
    return NULL;
}

static void my_task_close(void *inst)
{
    struct my_task *T = inst;
    if (T)
        free_names(T->names, T->k);
    free(T);
}

/* ---- sizes and views --------------------------------------------------------- */

static size_t my_task_examples(const void *inst)
{
    return ((const struct my_task *)inst)->m;
}

static size_t my_task_label_bytes(const void *inst)
{
    (void)inst;
    return sizeof(int32_t);
}

static size_t my_task_nviews(const void *inst)
{
    (void)inst;
    return 1;
}

static const struct bl_task_view *my_task_view(const void *inst, size_t v)
{
    return v == 0 ? &((const struct my_task *)inst)->x : NULL;
}

/* ---- labels, loss and the joint feature map ---------------------------------- */

static void my_task_truth(const void *inst, size_t i, void *y)
{
    put_label(y, ((const struct my_task *)inst)->y[i]);
}

/* Delta(y_i, y): >= 0, and exactly 0 for the truth. */
static double my_task_loss(const void *inst, size_t i, const void *y)
{
    const struct my_task *T = inst;
    return cost_of(T, T->y[i], get_label(y));
}

/* psi(x_i, y_i) - psi(x_i, y): +phi(x_i) in the truth's block, -phi(x_i) in
 * y's.  Returns how many terms there are and writes them only when they fit
 * (the engine calls again with more room otherwise). */
static size_t my_task_dpsi(const void *inst, size_t i, const void *y, struct bl_task_term *t,
                           size_t cap)
{
    int32_t c = get_label(y), yi = ((const struct my_task *)inst)->y[i];
    if (c == yi)
        return 0;
    if (cap >= 2) {
        t[0] = (struct bl_task_term){.view = 0, .block = (uint32_t)yi, .point = i, .coef = 1};
        t[1] = (struct bl_task_term){.view = 0, .block = (uint32_t)c, .point = i, .coef = -1};
    }
    return 2;
}

/* ---- inference ------------------------------------------------------------------ */

/* ybar = argmax_y Delta(y_i, y) + F(x_i, y) by enumeration, the truth first
 * (so ties keep it), then the lowest class.  Returns the hinge
 * Delta(y_i, ybar) + F(x_i, ybar) - F(x_i, y_i), which must equal what the
 * engine recomputes from loss() and dpsi().  Called for different i from
 * several threads at once: it only reads the instance and S. */
static double my_task_argmax_aug(const void *inst, size_t i, const double *const *S, void *ybar)
{
    const struct my_task *T = inst;
    const double *F = S[0] + i * T->k; /* row i of view 0: one score per block */
    int32_t yi = T->y[i], best = yi;
    double bestv = F[yi]; /* Delta(y_i, y_i) = 0 */
    for (size_t c = 0; c < T->k; c++) {
        double v = cost_of(T, yi, (int32_t)c) + F[c];
        if ((int32_t)c != yi && v > bestv)
            best = (int32_t)c, bestv = v;
    }
    put_label(ybar, best);
    return best == yi ? 0.0 : bestv - F[yi];
}

static int32_t argmax_class(const struct my_task *T, size_t i, const double *S0)
{
    const double *F = S0 + i * T->k;
    size_t best = 0;
    for (size_t c = 1; c < T->k; c++)
        if (F[c] > F[best])
            best = c;
    return (int32_t)best;
}

/* Prediction: argmax_y F(x_i, y), ties to the lowest class. */
static void my_task_predict(const void *inst, size_t i, const double *const *S, void *y)
{
    put_label(y, argmax_class(inst, i, S[0]));
}

/* A uniformly drawn class other than y_i: the cutting planes' first
 * constraint.  (The modulo bias of a 64-bit draw over k-1 classes is
 * negligible.) */
static void my_task_random_label(const void *inst, size_t i, uint64_t (*rnd)(void *),
                                 void *rng, void *y)
{
    const struct my_task *T = inst;
    put_label(y, other_class((size_t)(rnd(rng) % (T->k - 1)), T->y[i]));
}

/* The k-1 labels y != y_i, for the m-slack master (formulation = m-slack)
 * and check-plugin's brute force. */
static size_t my_task_alternatives(const void *inst, size_t i, size_t t, void *y)
{
    const struct my_task *T = inst;
    if (y)
        put_label(y, other_class(t, T->y[i]));
    return T->k - 1;
}

/* ---- metrics ---------------------------------------------------------------------- */

/* "error" (the primary metric: lower is better) and "mean_abs_error" (mean
 * |predicted class - true class|), from pred, m labels as predict wrote
 * them.  As labels are classes (label_is_class), the engine also calls this
 * with S = NULL to score the class predictions of ordinary multi-class
 * algorithms (AdaBoost.MH, ...); without pred the argmax of S is used. */
static void my_task_evaluate(const void *inst, const double *const *S, const void *pred,
                             double *values)
{
    const struct my_task *T = inst;
    const unsigned char *p = pred;
    if (!p && !S) {
        values[0] = values[1] = NAN;
        return;
    }
    size_t wrong = 0;
    double dist = 0.0;
    for (size_t i = 0; i < T->m; i++) {
        int32_t c = p ? get_label(p + i * sizeof(int32_t)) : argmax_class(T, i, S[0]);
        wrong += c != T->y[i];
        dist += fabs((double)c - (double)T->y[i]);
    }
    values[0] = (double)wrong / (double)T->m;
    values[1] = dist / (double)T->m;
}

/* A label as text for prediction files: its class name, else its index. */
static int my_task_format_label(const void *inst, const void *y, char *buf, size_t cap)
{
    const struct my_task *T = inst;
    int32_t c = get_label(y);
    if (T->names && c >= 0 && (size_t)c < T->k && T->names[c])
        return snprintf(buf, cap, "%s", T->names[c]);
    return snprintf(buf, cap, "%d", (int)c);
}

/* The op table: every op is required but alternatives (NULL when the label
 * space cannot be enumerated; the m-slack master then refuses the task). */
static const struct bl_task_ops my_task_ops = {
    .size = sizeof(struct bl_task_ops),
    .open = my_task_open,
    .close = my_task_close,
    .examples = my_task_examples,
    .label_bytes = my_task_label_bytes,
    .nviews = my_task_nviews,
    .view = my_task_view,
    .truth = my_task_truth,
    .loss = my_task_loss,
    .dpsi = my_task_dpsi,
    .argmax_aug = my_task_argmax_aug,
    .predict = my_task_predict,
    .random_label = my_task_random_label,
    .alternatives = my_task_alternatives,
    .metrics = "error,mean_abs_error",
    .evaluate = my_task_evaluate,
    .label_is_class = 1, /* labels are int32 class indices 0..k-1 */
    .format_label = my_task_format_label,
};

static const struct bl_plugin my_task_plugin = {
    .sdk_version = BL_SDK_VERSION, /* the loader refuses other majors */
    .role = BL_ROLE_TASK,
    .name = "my-task",             /* what experiments write: task = my-task */
    .doc = "ordinal multi-class classification, cost |y - y'| (or squared) over the class order",
    .params = my_task_params,
    .nparams = P_COUNT,
    .ops = &my_task_ops,
};

static const struct bl_plugin *const my_task_plugins[] = {&my_task_plugin, NULL};

/* The one exported symbol: the list of plugins this file carries. */
BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return my_task_plugins;
}

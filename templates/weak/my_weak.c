/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Weak-learner plugin "my-weak", started from boostlab's weak-learner
 * template: a one-feature threshold classifier
 *
 *     h(x) = pol * (x_f > t ? +1 : -1),   t one of the quantized view's cuts,
 *
 * chosen to answer the dual weights G (m x c, = -dL/dF) best: it maximises
 * the edge max_r |sum_i G_ir h(x_i)| over features f, cuts t and columns r,
 * and pol is the sign that makes the winning sum positive.  One output per
 * example (outdim 1); the engine spreads it over classes with a coefficient
 * row.  The parameter `min_side` keeps thresholds that leave at least that
 * many training examples on each side (at most as many as the most
 * balanced threshold of the data leaves, so that some threshold is left).
 *
 * Why the quantized view: on the training set "x_f > cut[f][b]" is exactly
 * "bin > b" (<boostlab/data.h>), so one pass per feature builds a histogram
 * of G by bin and a prefix sum over bins scores every threshold at once.
 * Missing values (NaN) sit in bin 0 and compare false: they go left.
 *
 * Build:  make   (or: cc -shared -fPIC $(pkg-config --cflags boostlab) my_weak.c -o my_weak.so)
 * Check:  boostlab check-plugin ./my_weak.so
 * Use:    BOOSTLAB_PLUGIN_PATH=$PWD/my_weak.so, then `weak = my-weak` in an experiment.
 * The contract of a weak learner is in <boostlab/weak.h> and docs/sdk.md.
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXBINS 256 /* the quantized view has at most 256 bins per feature */

enum { P_MIN_SIDE, P_COUNT };
static const struct bl_param_spec my_weak_params[P_COUNT] = {
    [P_MIN_SIDE] = {"min_side", BL_PARAM_INT, "1", 1, 1e9, NULL,
                    "fewest training examples on either side of a threshold (capped by the data)"},
};

/* A hypothesis lives on its own (predict, save, load): no learner needed. */
struct my_weak_hyp {
    size_t f;
    float t;
    int pol;
};

/* The learner is bound to one training set: everything that does not
 * depend on G is computed once in create, and fit allocates nothing
 * unless the engine asks for more columns than before. */
struct my_weak {
    const struct bl_train *tr;
    size_t min_side;
    size_t *left_count; /* d x MAXBINS: examples with bin <= b, per feature */
    size_t cap;         /* columns the buffers below have room for          */
    double *hist;       /* MAXBINS x cap: sum of G by bin                   */
    double *total, *left;
};

static void my_weak_destroy(void *self)
{
    struct my_weak *W = self;
    if (!W)
        return;
    free(W->left_count);
    free(W->hist);
    free(W->total);
    free(W->left);
    free(W);
}

static int my_weak_reserve(struct my_weak *W, size_t c)
{
    if (c <= W->cap)
        return 0;
    free(W->hist);
    free(W->total);
    free(W->left);
    W->hist = malloc(MAXBINS * c * sizeof *W->hist);
    W->total = malloc(c * sizeof *W->total);
    W->left = malloc(c * sizeof *W->left);
    W->cap = W->hist && W->total && W->left ? c : 0;
    return W->cap ? 0 : -1;
}

static void *my_weak_create(const struct bl_host *host, const union bl_value *params,
                            const struct bl_train *train, char err[BL_ERR_MAX])
{
    (void)host;
    const struct bl_quantized *Q = &train->Q;
    struct my_weak *W = calloc(1, sizeof *W);
    size_t d = train->d ? train->d : 1;
    if (!W || !(W->left_count = calloc(d * MAXBINS, sizeof *W->left_count)) ||
        my_weak_reserve(W, train->k ? train->k : 1) < 0) {
        my_weak_destroy(W);
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    W->tr = train;
    size_t balanced = 0; /* most examples any threshold leaves on its smaller side */
    for (size_t f = 0; f < train->d; f++) {
        size_t *cnt = W->left_count + f * MAXBINS;
        for (size_t i = 0; i < train->m; i++)
            cnt[Q->bins[f * train->m + i]]++;
        for (size_t b = 1; b < MAXBINS; b++)
            cnt[b] += cnt[b - 1];
        for (size_t b = 0; b + 1 < Q->nbins[f]; b++) {
            size_t side = cnt[b] < train->m - cnt[b] ? cnt[b] : train->m - cnt[b];
            if (side > balanced)
                balanced = side;
        }
    }
    W->min_side = (size_t)params[P_MIN_SIDE].i;
    if (W->min_side > balanced && balanced > 0)
        W->min_side = balanced;
    return W;
}

static int my_weak_fit(void *self, const struct bl_fit_request *req, struct bl_fit_result *res,
                       char err[BL_ERR_MAX])
{
    struct my_weak *W = self;
    const struct bl_quantized *Q = &W->tr->Q;
    size_t m = W->tr->m, c = req->c;
    const double *G = req->G;
    if (my_weak_reserve(W, c) < 0) {
        snprintf(err, BL_ERR_MAX, "out of memory for %zu columns", c);
        return -1;
    }
    for (size_t r = 0; r < c; r++)
        W->total[r] = 0.0;
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < c; r++)
            W->total[r] += G[i * c + r];

    /* score_r of the threshold after bin b (pol = +1) is
     * sum_{bin > b} G_ir - sum_{bin <= b} G_ir = total_r - 2 left_r. */
    double best = -1.0;
    size_t bf = 0, bb = 0;
    int bpol = 1;
    for (size_t f = 0; f < Q->d; f++) {
        const uint8_t *bins = Q->bins + f * m;
        const size_t *cnt = W->left_count + f * MAXBINS;
        memset(W->hist, 0, (size_t)Q->nbins[f] * c * sizeof *W->hist);
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < c; r++)
                W->hist[bins[i] * c + r] += G[i * c + r];
        for (size_t r = 0; r < c; r++)
            W->left[r] = 0.0;
        for (size_t b = 0; b + 1 < Q->nbins[f]; b++) {
            for (size_t r = 0; r < c; r++)
                W->left[r] += W->hist[b * c + r];
            if (cnt[b] < W->min_side || m - cnt[b] < W->min_side)
                continue;
            for (size_t r = 0; r < c; r++) {
                double s = W->total[r] - 2.0 * W->left[r];
                if (fabs(s) > best) { /* strict: ties go to the first found */
                    best = fabs(s);
                    bf = f, bb = b, bpol = s < 0 ? -1 : 1;
                }
            }
        }
    }
    if (best < 0.0) {
        snprintf(err, BL_ERR_MAX, "every feature is constant on the training set");
        return -1;
    }
    struct my_weak_hyp *h = malloc(sizeof *h);
    if (!h) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return -1;
    }
    *h = (struct my_weak_hyp){bf, Q->cut[bf][bb], bpol};
    const uint8_t *bins = Q->bins + bf * m;
    if (res->out) /* outputs on the training set, read off the bins */
        for (size_t i = 0; i < m; i++)
            res->out[i] = bins[i] > bb ? bpol : -bpol;
    res->hyp = h;
    res->outdim = 1;
    res->edge = best;
    return 0;
}

static size_t my_weak_outdim(const void *hyp)
{
    (void)hyp;
    return 1;
}

/* New data has raw values only: compare with the threshold (NaN: left). */
static void my_weak_predict(const void *hyp, const struct bl_matrix *X, double *out)
{
    const struct my_weak_hyp *h = hyp;
    const float *x = X->x + h->f * X->m;
    for (size_t i = 0; i < X->m; i++)
        out[i] = x[i] > h->t ? h->pol : -h->pol;
}

/* One line per hypothesis in model files; %.9g reads back bit for bit. */
static int my_weak_save(const void *hyp, char *buf, size_t cap)
{
    const struct my_weak_hyp *h = hyp;
    return snprintf(buf, cap, "f=%zu t=%.9g pol=%d", h->f, (double)h->t, h->pol);
}

static void *my_weak_load(const char *text, size_t d, char err[BL_ERR_MAX])
{
    struct my_weak_hyp h;
    int end = -1;
    if (sscanf(text, "f=%zu t=%f pol=%d%n", &h.f, &h.t, &h.pol, &end) != 3 || end < 0 ||
        text[end + strspn(text + end, " \t\r\n")] || isnan(h.t) || (h.pol != 1 && h.pol != -1)) {
        snprintf(err, BL_ERR_MAX, "malformed hypothesis \"%.200s\" (expected \"f=<feature> "
                 "t=<threshold> pol=<1|-1>\")", text);
        return NULL;
    }
    if (h.f >= d) {
        snprintf(err, BL_ERR_MAX, "feature %zu out of range (the data has %zu)", h.f, d);
        return NULL;
    }
    struct my_weak_hyp *p = malloc(sizeof *p);
    if (!p) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    *p = h;
    return p;
}

static void my_weak_free_hyp(void *hyp)
{
    free(hyp);
}

/* size tells the host which members this build of the table has (always
 * sizeof its struct); members left out are 0 / NULL, "not provided". */
static const struct bl_weak_ops my_weak_ops = {
    .size = sizeof(struct bl_weak_ops),
    .create = my_weak_create,
    .destroy = my_weak_destroy,
    /* .needs = BL_NEEDS_HESSIAN (| BL_NEEDS_OFFDIAG): ask for the loss's Hessian in
     * req->H (and req->Hu), for Newton leaf values (docs/sdk.md) */
    .fit = my_weak_fit,
    .outdim = my_weak_outdim,
    .predict = my_weak_predict,
    /* .predict_add: optional, for hypotheses whose outputs are mostly zero */
    .save = my_weak_save,
    .load = my_weak_load,
    .free_hyp = my_weak_free_hyp,
};

static const struct bl_plugin my_weak_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_WEAK,
    .name = "my-weak", /* what experiments write: weak = my-weak */
    .doc = "one-feature threshold pol*(x_f > t ? 1 : -1) maximising max_r |sum_i G_ir h(x_i)|",
    .params = my_weak_params,
    .nparams = P_COUNT,
    .ops = &my_weak_ops,
};

static const struct bl_plugin *const my_weak_plugins[] = {&my_weak_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return my_weak_plugins;
}

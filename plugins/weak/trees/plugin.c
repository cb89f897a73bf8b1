/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Weak-learner plugins "aoso-tree", "diag-tree", "class-trees" and
 * "abc-trees": the tree learners of the LogitBoost family (Sun, Reid & Zhou
 * 2014 and the baselines it quotes), one shared object with four
 * descriptors.  Their parameters, and the defaults of the authors' code
 * (spec §2.6, §2.9): J = 20 leaves, split any node of more than 1 example,
 * leaf values clamped to [-5, 5].  They need the loss's Hessian (needs),
 * so they run with softmax (or klogit for diag-tree) and `solver = none`.
 * They train and predict on sparse sets (predict_sparse) with binned search.
 */
#include <boostlab/boostlab.h>

#include <stdio.h>
#include <stdlib.h>

#include "learners.h"

/* Parameters every tree learner takes, first in each schema. */
enum { P_LEAVES, P_NODE_SIZE, P_MAX_STEP, P_SEARCH, P_SUBTRACT, P_COMMON };

#define COMMON_PARAMS                                                                        \
    [P_LEAVES] = {"leaves", BL_PARAM_INT, "20", 2, 1024, NULL,                               \
                  "J: leaves (terminal nodes) per tree, grown best-first"},                  \
    [P_NODE_SIZE] = {"node_size", BL_PARAM_INT, "1", 1, 1e9, NULL,                           \
                     "split a node only if it holds more examples than this"},               \
    [P_MAX_STEP] = {"max_step", BL_PARAM_REAL, "5", 1e-12, 1e300, NULL,                      \
                    "leaf values are clamped to [-max_step, max_step] (MAXGAMMA)"},          \
    [P_SEARCH] = {"search", BL_PARAM_CHOICE, "bins", 0, 0, "bins|exact|exact-lt",            \
                  "split search over the quantized view, or over sorted raw values with "    \
                  "midpoint thresholds (exact-lt: left iff x < midpoint, the authors' code)"}, \
    [P_SUBTRACT] = {"subtract", BL_PARAM_BOOL, "true", 0, 0, NULL,                           \
                    "bins: a larger child's histograms (AOSO: and class sums) are its parent's " \
                    "minus its sibling's (not diag-tree), and on sparse data a zero bin the " \
                    "node's totals minus the stored entries'; false: direct sums, in example " \
                    "order (sparse: O(rows x features) a node)"}

enum { PA_PAIR = P_COMMON, PA_FIXED, PA_FLOAT, PA_NAIVE, PA_COUNT };
static const struct bl_param_spec aoso_params[PA_COUNT] = {
    COMMON_PARAMS,
    [PA_PAIR] = {"pair", BL_PARAM_CHOICE, "second", 0, 0, "second|first",
                 "class pair rule: (33) second-order, or (32) largest minus smallest residual"},
    [PA_FIXED] = {"fixed_pair", BL_PARAM_BOOL, "false", 0, 0, NULL,
                  "one pair per tree, chosen at the root (the paper's ablation)"},
    [PA_FLOAT] = {"float_leaves", BL_PARAM_BOOL, "false", 0, 0, NULL,
                  "leaf values rounded to single precision, as the authors' code applies them"},
    [PA_NAIVE] = {"naive_residuals", BL_PARAM_BOOL, "false", 0, 0, NULL,
                  "softmax: residuals [r = y] - p and Hessian p (1 - p) from p as the authors' "
                  "code computes them (1 - p is 0 once p rounds to 1)"},
};

static const struct bl_param_spec diag_params[P_COMMON] = {COMMON_PARAMS};

enum { PC_SPLIT = P_COMMON, PC_KSCALE, PC_COUNT };
static const struct bl_param_spec class_params[PC_COUNT] = {
    COMMON_PARAMS,
    [PC_SPLIT] = {"split", BL_PARAM_CHOICE, "newton", 0, 0, "newton|gradient",
                  "split gain: second order (LogitBoost) or first order (MART)"},
    [PC_KSCALE] = {"kscale", BL_PARAM_BOOL, "true", 0, 0, NULL,
                   "multiply leaf values by (k - 1) / k (Friedman et al.; Li)"},
};

enum { PB_SPLIT = P_COMMON, PB_BASE, PB_COUNT };
static const struct bl_param_spec abc_params[PB_COUNT] = {
    COMMON_PARAMS,
    [PB_SPLIT] = {"split", BL_PARAM_CHOICE, "newton", 0, 0, "newton|gradient",
                  "split gain: second order (ABC-LogitBoost) or first order (ABC-MART)"},
    [PB_BASE] = {"base", BL_PARAM_CHOICE, "exhaustive", 0, 0, "exhaustive|worst",
                 "base class: try all k (lowest training loss), or the worst class"},
};

static void *create(enum tl_kind kind, const struct bl_host *host, const union bl_value *v,
                    const struct bl_train *train, char err[BL_ERR_MAX])
{
    struct tl_opts o = {0};
    o.kind = kind;
    o.gp.leaves = (size_t)v[P_LEAVES].i;
    o.gp.node_size = (size_t)v[P_NODE_SIZE].i;
    o.gp.exact = v[P_SEARCH].choice == 2 ? GROW_EXACT_LT : v[P_SEARCH].choice == 1;
    o.gp.subtract = v[P_SUBTRACT].b;
    o.max_step = v[P_MAX_STEP].r;
    if (kind == TL_AOSO) {
        o.first_order = v[PA_PAIR].choice == 1;
        o.fixed_pair = v[PA_FIXED].b;
        o.float_leaves = v[PA_FLOAT].b;
        o.naive_residuals = v[PA_NAIVE].b;
    } else if (kind == TL_CLASS) {
        o.gradient_split = v[PC_SPLIT].choice == 1;
        o.kscale = v[PC_KSCALE].b;
    } else if (kind == TL_ABC) {
        o.gradient_split = v[PB_SPLIT].choice == 1;
        o.base_worst = v[PB_BASE].choice == 1;
    }
    if (train->k < 2) {
        snprintf(err, BL_ERR_MAX, "tree learners need at least 2 classes");
        return NULL;
    }
    if (train->S && (!train->SQ || o.gp.exact)) {
        snprintf(err, BL_ERR_MAX, "%s", train->SQ ? "search = exact needs a dense training set "
                 "(it sorts every feature); use search = bins on sparse data"
                 : "sparse training set without its quantized view (bl_train.SQ)");
        return NULL;
    }
    return tl_new(&o, train, host && host->threads > 0 ? host->threads : 1);
}

static void *aoso_create(const struct bl_host *h, const union bl_value *v,
                         const struct bl_train *t, char err[BL_ERR_MAX])
{
    return create(TL_AOSO, h, v, t, err);
}

static void *diag_create(const struct bl_host *h, const union bl_value *v,
                         const struct bl_train *t, char err[BL_ERR_MAX])
{
    return create(TL_DIAG, h, v, t, err);
}

static void *class_create(const struct bl_host *h, const union bl_value *v,
                          const struct bl_train *t, char err[BL_ERR_MAX])
{
    return create(TL_CLASS, h, v, t, err);
}

static void *abc_create(const struct bl_host *h, const union bl_value *v,
                        const struct bl_train *t, char err[BL_ERR_MAX])
{
    return create(TL_ABC, h, v, t, err);
}

static void destroy(void *self)
{
    tl_free(self);
}

static int fit(void *self, const struct bl_fit_request *req, struct bl_fit_result *res,
               char err[BL_ERR_MAX])
{
    return tl_fit(self, req, res, err, BL_ERR_MAX);
}

static size_t outdim(const void *hyp)
{
    return ((const struct forest *)hyp)->k;
}

static void predict(const void *hyp, const struct bl_matrix *X, double *out)
{
    forest_predict(hyp, X, out);
}

static void predict_sparse(const void *hyp, const struct bl_sparse *X, double *out)
{
    forest_predict_sparse(hyp, X, out);
}

static void predict_add(const void *hyp, const struct bl_matrix *X, const double *w, size_t k,
                        double *F)
{
    (void)k; /* the forest's own k: outdim is always k */
    forest_predict_add(hyp, X, w, F);
}

static int save(const void *hyp, char *buf, size_t cap)
{
    return forest_save(hyp, buf, cap);
}

static void *load(const char *text, size_t d, char err[BL_ERR_MAX])
{
    return forest_load(text, d, err, BL_ERR_MAX);
}

static void free_hyp(void *hyp)
{
    forest_free(hyp);
}

#define OPS(name, create_fn, needs_flags)                                                    \
    static const struct bl_weak_ops name = {                                                 \
        .size = sizeof(struct bl_weak_ops),                                                  \
        .create = create_fn, .destroy = destroy, .fit = fit, .outdim = outdim,               \
        .predict = predict, .save = save, .load = load, .free_hyp = free_hyp,                \
        .needs = needs_flags, .predict_add = predict_add, .predict_sparse = predict_sparse}

OPS(aoso_ops, aoso_create, BL_NEEDS_HESSIAN | BL_NEEDS_OFFDIAG | BL_NEEDS_CLASS_MAJOR);
OPS(diag_ops, diag_create, BL_NEEDS_HESSIAN);
OPS(class_ops, class_create, BL_NEEDS_HESSIAN | BL_NEEDS_CLASS_MAJOR);
OPS(abc_ops, abc_create, BL_NEEDS_HESSIAN | BL_NEEDS_OFFDIAG | BL_NEEDS_CLASS_MAJOR);

static const struct bl_plugin aoso_plugin = {
    BL_SDK_VERSION, BL_ROLE_WEAK, "aoso-tree",
    "vector tree, a one-vs-one class pair per node, Newton leaves (AOSO-LogitBoost)",
    aoso_params, PA_COUNT, &aoso_ops};
static const struct bl_plugin diag_plugin = {
    BL_SDK_VERSION, BL_ROLE_WEAK, "diag-tree",
    "vector tree, all classes per leaf, diagonal Newton leaves (K-LogitBoost)",
    diag_params, P_COMMON, &diag_ops};
static const struct bl_plugin class_plugin = {
    BL_SDK_VERSION, BL_ROLE_WEAK, "class-trees",
    "k regression trees per iteration, one per class (LogitBoost, MART)",
    class_params, PC_COUNT, &class_ops};
static const struct bl_plugin abc_plugin = {
    BL_SDK_VERSION, BL_ROLE_WEAK, "abc-trees",
    "k-1 trees against an adaptive base class (ABC-LogitBoost, ABC-MART)",
    abc_params, PB_COUNT, &abc_ops};

static const struct bl_plugin *const plugins[] = {&aoso_plugin, &diag_plugin, &class_plugin,
                                                  &abc_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return plugins;
}

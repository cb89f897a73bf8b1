/* SPDX-License-Identifier: GPL-3.0-or-later */
/* XGBoost's learning parameters for method = xgboost (see xgbparam.h). */
#include "xgbparam.h"

#include <boostlab/plugin.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/params.h"
#include "../util/fsutil.h"

#ifdef HAVE_XGBOOST /* configure's XGBOOST_CFLAGS */
#include <xgboost/c_api.h>
const int bl_have_xgboost = 1;
#else
const int bl_have_xgboost = 0;
#endif

/* XGBoost 1.7's tree-booster parameters (doc/parameter.rst of XGBoost),
 * with the ranges its parameter declarations enforce.  max_bin's default
 * is the experiment's max_bins, set by the run (baselines/xgboost.c). */
const char bl_xgb_missing[] = "method xgboost: this boostlab was built without XGBoost (Debian: "
                               "apt-get install libxgboost-dev, then configure and build again)";

#define INF HUGE_VAL
static const struct bl_param_spec table[] = {
    {"booster", BL_PARAM_CHOICE, "gbtree", 0, 0, "gbtree|dart", "trees, or trees with dropout"},
    {"eta", BL_PARAM_REAL, "0.3", 0, INF, NULL, "shrinkage of each round's trees"},
    {"gamma", BL_PARAM_REAL, "0", 0, INF, NULL, "least loss reduction to split a leaf"},
    {"max_depth", BL_PARAM_INT, "6", 0, INF, NULL, "depth limit (0: none; hist or approx)"},
    {"max_leaves", BL_PARAM_INT, "0", 0, INF, NULL, "leaves per tree (0: no limit)"},
    {"grow_policy", BL_PARAM_CHOICE, "depthwise", 0, 0, "depthwise|lossguide",
     "split the nodes nearest the root, or the best split first"},
    {"tree_method", BL_PARAM_CHOICE, "auto", 0, 0, "auto|exact|approx|hist", "split finding"},
    {"max_bin", BL_PARAM_INT, "256", 2, INF, NULL, "histogram bins per feature"},
    {"min_child_weight", BL_PARAM_REAL, "1", 0, INF, NULL, "least Hessian sum in a child"},
    {"max_delta_step", BL_PARAM_REAL, "0", 0, INF, NULL, "bound on a leaf's output (0: none)"},
    {"lambda", BL_PARAM_REAL, "1", 0, INF, NULL, "L2 penalty on leaf values"},
    {"alpha", BL_PARAM_REAL, "0", 0, INF, NULL, "L1 penalty on leaf values"},
    {"subsample", BL_PARAM_REAL, "1", 0, 1, NULL, "rows sampled for each round"},
    {"colsample_bytree", BL_PARAM_REAL, "1", 0, 1, NULL, "features sampled per tree"},
    {"colsample_bylevel", BL_PARAM_REAL, "1", 0, 1, NULL, "features sampled per depth"},
    {"colsample_bynode", BL_PARAM_REAL, "1", 0, 1, NULL, "features sampled per split"},
    {"num_parallel_tree", BL_PARAM_INT, "1", 1, INF, NULL, "trees per class and round"},
    {"scale_pos_weight", BL_PARAM_REAL, "1", 0, INF, NULL, "weight of class 1 (2 classes)"},
    {"sample_type", BL_PARAM_CHOICE, "uniform", 0, 0, "uniform|weighted", "dart: drop how"},
    {"normalize_type", BL_PARAM_CHOICE, "tree", 0, 0, "tree|forest", "dart: rescale how"},
    {"rate_drop", BL_PARAM_REAL, "0", 0, 1, NULL, "dart: share of trees dropped"},
    {"one_drop", BL_PARAM_BOOL, "false", 0, 0, NULL, "dart: drop at least one tree"},
    {"skip_drop", BL_PARAM_REAL, "0", 0, 1, NULL, "dart: chance of no dropout in a round"},
    {"verbosity", BL_PARAM_INT, "0", 0, 3, NULL, "XGBoost's messages (boostlab's default 0)"},
};
#undef INF
enum { NTABLE = sizeof table / sizeof *table };

/* Names XGBoost knows that boostlab sets or that have another name here. */
static const struct {
    const char *name, *why;
} managed[] = {
    {"objective", "boostlab sets it from the data: multi:softprob, or binary:logistic for 2 "
                  "classes"},
    {"num_class", "boostlab sets it from the data"},
    {"nthread", "the run's threads set it (--threads, or threads in [experiment])"},
    {"n_jobs", "the run's threads set it (--threads, or threads in [experiment])"},
    {"seed", "boostlab derives it from the experiment's seed, as for every method"},
    {"random_state", "boostlab derives it from the experiment's seed, as for every method"},
    {"eval_metric", "boostlab records the training loss and both errors itself"},
    {"num_round", "the rounds are the algorithm's iterations (iterations = N)"},
    {"n_estimators", "the rounds are the algorithm's iterations (iterations = N)"},
    {"learning_rate", "write it xgb.eta"},
    {"min_split_loss", "write it xgb.gamma"},
    {"reg_lambda", "write it xgb.lambda"},
    {"reg_alpha", "write it xgb.alpha"},
};

static int table_index(const char *name)
{
    for (int j = 0; j < NTABLE; j++)
        if (!strcmp(table[j].name, name))
            return j;
    return -1;
}

static const char *table_names(void)
{
    static char buf[1024];
    size_t o = 0;
    for (int j = 0; j < NTABLE && o < sizeof buf; j++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", j ? ", " : "", table[j].name);
    return buf;
}

/* The value as XGBoost reads it: integers plainly, reals in the fewest
 * digits that give the same double, booleans 1 or 0, words as written. */
static char *canonical(const struct bl_param_spec *s, const union bl_value *v, const char *text)
{
    switch (s->type) {
    case BL_PARAM_INT:
        return bl_strfmt("%lld", (long long)v->i);
    case BL_PARAM_REAL: {
        char *t = bl_strfmt("%.15g", v->r);
        if (strtod(t, NULL) != v->r) {
            free(t);
            t = bl_strfmt("%.17g", v->r);
        }
        return t;
    }
    case BL_PARAM_BOOL:
        return bl_strdup(v->b ? "1" : "0");
    default:
        return bl_strdup(text);
    }
}

int bl_xgb_param_set(bl_xgb_params *p, const char *name, const char *text, bl_error *err)
{
    for (size_t j = 0; j < sizeof managed / sizeof *managed; j++)
        if (!strcmp(managed[j].name, name))
            return bl_errf(err, "XGBoost's %s is not set here: %s", name, managed[j].why);
    int t = table_index(name);
    if (t < 0)
        return bl_errf(err, "'%s' is not an XGBoost parameter boostlab passes (accepted: %s)",
                       name, table_names());
    union bl_value v;
    if (bl_param_parse(&table[t], text, &v, err) < 0)
        return -1;
    char *val = canonical(&table[t], &v, text);
    /* keep table order, so the written keys (and the run's hash) do not
     * depend on the order of the lines */
    size_t at = 0;
    while (at < p->n && table_index(p->name[at]) < t)
        at++;
    if (at < p->n && !strcmp(p->name[at], name)) {
        free(p->value[at]);
        p->value[at] = val;
        return 0;
    }
    p->name = bl_xrealloc(p->name, (p->n + 1) * sizeof *p->name);
    p->value = bl_xrealloc(p->value, (p->n + 1) * sizeof *p->value);
    memmove(p->name + at + 1, p->name + at, (p->n - at) * sizeof *p->name);
    memmove(p->value + at + 1, p->value + at, (p->n - at) * sizeof *p->value);
    p->name[at] = bl_strdup(table[t].name);
    p->value[at] = val;
    p->n++;
    return 0;
}

const char *bl_xgb_param_get(const bl_xgb_params *p, const char *name)
{
    for (size_t j = 0; j < p->n; j++)
        if (!strcmp(p->name[j], name))
            return p->value[j];
    return NULL;
}

void bl_xgb_params_write(const bl_xgb_params *p, FILE *f)
{
    for (size_t j = 0; j < p->n; j++)
        fprintf(f, "xgb.%s = %s\n", p->name[j], p->value[j]);
}

void bl_xgb_params_free(bl_xgb_params *p)
{
    for (size_t j = 0; j < p->n; j++) {
        free(p->name[j]);
        free(p->value[j]);
    }
    free(p->name);
    free(p->value);
    memset(p, 0, sizeof *p);
}

#ifdef HAVE_XGBOOST

int bl_xgb_error(bl_error *err, const char *prefix)
{
    /* "[01:02:03] ./src/x.cc:177: Check failed: cond (0 vs. 0) : reason\nStack trace:..." */
    const char *m = XGBGetLastError();
    size_t n = strcspn(m, "\n");
    if (m[0] == '[' && memchr(m, ']', n)) {
        const char *b = (const char *)memchr(m, ']', n) + 1;
        n -= (size_t)(b - m);
        m = b + (*b == ' ');
        n -= *b == ' ';
        const char *c = memchr(m, ':', n); /* a source location "FILE:LINE: " */
        const char *d = c ? memchr(c + 1, ':', n - (size_t)(c + 1 - m)) : NULL;
        if (d && d[1] == ' ' && strspn(c + 1, "0123456789") == (size_t)(d - c - 1)) {
            n -= (size_t)(d + 2 - m);
            m = d + 2;
        }
    }
    const char *why = NULL;
    if (!strncmp(m, "Check failed: ", 14))
        for (const char *q = m; q + 3 <= m + n; q++)
            if (!strncmp(q, " : ", 3))
                why = q + 3;
    if (why) {
        n -= (size_t)(why - m);
        m = why;
    }
    return bl_errf(err, "%s: %.*s", prefix, (int)n, m);
}

int bl_xgb_params_apply(const bl_xgb_params *p, void *booster, bl_error *err)
{
    for (size_t j = 0; j < p->n; j++)
        if (XGBoosterSetParam(booster, p->name[j], p->value[j]) != 0)
            return bl_xgb_error(err, p->name[j]);
    return 0;
}

/* One round on the tiny problem d with the first upto keys but key skip:
 * 0 or -1. */
static int one_round(const bl_xgb_params *p, size_t upto, size_t skip, DMatrixHandle d,
                     bl_error *err)
{
    BoosterHandle b;
    if (XGBoosterCreate(&d, 1, &b) != 0)
        return bl_xgb_error(err, "XGBoost");
    int rc = XGBoosterSetParam(b, "objective", "multi:softprob") ||
             XGBoosterSetParam(b, "num_class", "3") || XGBoosterSetParam(b, "nthread", "1");
    for (size_t j = 0; j < upto && !rc; j++)
        rc = j != skip && XGBoosterSetParam(b, p->name[j], p->value[j]);
    rc = rc || XGBoosterSetParam(b, "verbosity", "0") || XGBoosterUpdateOneIter(b, 0, d)
             ? bl_xgb_error(err, "XGBoost") : 0;
    XGBoosterFree(b);
    return rc;
}

int bl_xgb_params_try(const bl_xgb_params *p, size_t *culprit, bl_error *err)
{
    enum { M = 12, D = 2 };
    float x[M * D], y[M];
    for (int i = 0; i < M; i++) {
        y[i] = (float)(i % 3);
        x[i * D] = (float)i;
        x[i * D + 1] = (float)((i * 7) % 5);
    }
    *culprit = p->n;
    DMatrixHandle d;
    if (XGDMatrixCreateFromMat(x, M, D, NAN, &d) != 0 ||
        XGDMatrixSetFloatInfo(d, "label", y, M) != 0)
        return bl_xgb_error(err, "XGBoost");
    int rc = one_round(p, p->n, p->n, d, err);
    /* refused: to blame is the first key without which the rest pass (max_depth
     * = 0 with tree_method = exact, not exact), else the first key with which
     * the keys before it fail */
    bl_error other;
    for (size_t j = 0; rc < 0 && j < p->n && *culprit == p->n; j++)
        if (one_round(p, p->n, j, d, &other) == 0)
            *culprit = j;
    for (size_t j = 1; rc < 0 && j <= p->n && *culprit == p->n; j++)
        if (one_round(p, j, p->n, d, err) < 0)
            *culprit = j - 1;
    XGDMatrixFree(d);
    return rc;
}

#else /* no XGBoost: the method is refused when loaded, so there is nothing to try */

int bl_xgb_params_try(const bl_xgb_params *p, size_t *culprit, bl_error *err)
{
    (void)p, (void)culprit, (void)err;
    return 0;
}

#endif

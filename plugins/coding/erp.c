/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Coding plugin "erp": the coloring of AdaBoost.ERP (Li 2006, "Multiclass
 * boosting with repartitioning"; hingeboost-oc spec §3.4; the mechanics are
 * those of the author's LEMGA code as the spec describes them, not of the
 * HingeBoost.OC paper).  One column per iteration:
 *
 *   code():    a partial coloring of two classes, +1 and -1, the rest 0:
 *              init = max2: the pair (y, y') with the largest max-cut
 *              weight W(y,y') = sum_{i:y_i=y} P_iy' + sum_{i:y_i=y'} P_iy
 *              (LEMGA MAX_2), P the exponential loss's pair weights
 *              (BL_CODING_PAIRS: e^{F_ir - F_iy_i}, normalised);
 *              init = random2: two random classes (RANDOM_2);
 *              with ova = true, iterations 1..k start from the one-vs-all
 *              column of class t instead (re-partitioned all the same).
 *   recolor(): re-partition every class given the learner's outputs
 *              o_i = sign(g_i) (0 -> -1):
 *                  mkt_c = sum_i P_ic o_i - sum_{i:y_i=c} sum_r P_ir o_i,
 *              mu(c) = -1 if mkt_c > 0 else +1: the coloring that most
 *              lowers the first-order change of the exponential loss.  If
 *              that is constant, the class with the smallest |mkt_c| takes
 *              the other colour (LEMGA's handling is not in the spec).
 *              lrs = 2 (LEMGA's default): the hypothesis is kept and only
 *              its step is recomputed on the new coloring; lrs = 3: the
 *              learner is fitted once more on the full coloring.
 *
 * With the engine, the step is then the exact line search of the loss along
 * the new column (solver exp-step: AdaBoost.ECC's 1/2 ln((1-e)/e) form for
 * sign outputs, spec §3.3).  The two-class fit sees the dual weights through
 * the partial column on the two coloured classes' examples only, as LEMGA
 * trains (BL_CODING_IGNORE_ZERO).  A second descriptor, "erp-gradient",
 * is the same coding without that flag: the fit then sees G M on every
 * example, the loss's exact gradient along the partial term, where the
 * uncoloured classes' examples pull too.
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/splitmix.h"

enum { P_INIT, P_LRS, P_OVA, P_COUNT };

static const struct bl_param_spec erp_params[P_COUNT] = {
    [P_INIT] = {"init", BL_PARAM_CHOICE, "max2", 0, 0, "max2|random2",
                "the two classes coloured first: the pair with the largest max-cut weight, or "
                "two random ones"},
    [P_LRS] = {"lrs", BL_PARAM_INT, "2", 2, 3, NULL,
               "learn/re-partition cycle: 2 keeps the fit after re-partitioning, 3 fits once "
               "more on the full coloring"},
    [P_OVA] = {"ova", BL_PARAM_BOOL, "false", 0, 0, NULL,
               "iterations 1..k start from the one-vs-all column of class t"},
};

struct erp {
    size_t k, t;
    int random2, lrs, ova, fits;
    double *mkt; /* k */
};

static void erp_destroy(void *self)
{
    struct erp *C = self;
    if (C)
        free(C->mkt);
    free(C);
}

static void *erp_create(const struct bl_host *host, const union bl_value *params, size_t k,
                        char err[BL_ERR_MAX])
{
    (void)host;
    if (k < 2) {
        snprintf(err, BL_ERR_MAX, "colorings need at least 2 classes (this problem has %zu)", k);
        return NULL;
    }
    struct erp *C = calloc(1, sizeof *C);
    if (!C || !(C->mkt = calloc(k, sizeof *C->mkt))) {
        erp_destroy(C);
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    C->k = k;
    C->random2 = params ? params[P_INIT].choice == 1 : 0;
    C->lrs = params ? (int)params[P_LRS].i : 2;
    C->ova = params ? params[P_OVA].b : 0;
    return C;
}

static size_t erp_max_columns(const void *self)
{
    (void)self;
    return 1;
}

static int erp_code(void *self, const int *y, size_t m, const double *P, uint64_t seed,
                    double *M, size_t *c, char err[BL_ERR_MAX])
{
    (void)err;
    struct erp *C = self;
    size_t k = C->k, t = C->t++, a = 0, b = 1;
    C->fits = 0;
    *c = 1;
    if (C->ova && t < k) {
        for (size_t r = 0; r < k; r++)
            M[r] = r == t ? 1.0 : -1.0;
        return 0;
    }
    if (C->random2) {
        uint64_t s = seed;
        a = (size_t)bounded(&s, k);
        b = (size_t)bounded(&s, k - 1);
        b += b >= a;
    } else {
        /* W(y,y') over the upper triangle, from the per-class sums of P */
        double *A = calloc(k * k, sizeof *A);
        if (!A) {
            snprintf(err, BL_ERR_MAX, "out of memory");
            return -1;
        }
        for (size_t i = 0; i < m; i++)
            for (size_t r = 0; r < k; r++)
                if ((int)r != y[i])
                    A[(size_t)y[i] * k + r] += P[i * k + r];
        double top = -HUGE_VAL;
        for (size_t p = 0; p < k; p++)
            for (size_t q = p + 1; q < k; q++) {
                double w = A[p * k + q] + A[q * k + p];
                if (w > top) { /* ties: the first pair */
                    top = w;
                    a = p;
                    b = q;
                }
            }
        free(A);
    }
    for (size_t r = 0; r < k; r++)
        M[r] = r == a ? 1.0 : r == b ? -1.0 : 0.0;
    return 0;
}

static int erp_recolor(void *self, const int *y, size_t m, const double *P, const double *g,
                       double (*trial)(void *ctx, const double *M), void *ctx, double *M,
                       size_t c, char err[BL_ERR_MAX])
{
    (void)trial, (void)ctx;
    struct erp *C = self;
    size_t k = C->k;
    if (c != 1) {
        snprintf(err, BL_ERR_MAX, "erp re-partitions one column, got %zu", c);
        return -1;
    }
    if (C->fits++ > 0)
        return BL_RECOLOR_DONE; /* lrs = 3: the second fit is on the full coloring */
    memset(C->mkt, 0, k * sizeof *C->mkt);
    for (size_t i = 0; i < m; i++) {
        double o = g[i] > 0 ? 1.0 : -1.0, row = 0;
        for (size_t r = 0; r < k; r++) {
            C->mkt[r] += P[i * k + r] * o;
            row += P[i * k + r];
        }
        C->mkt[y[i]] -= row * o;
    }
    size_t npos = 0, weakest = 0;
    int changed = 0;
    for (size_t r = 0; r < k; r++) {
        double mu = C->mkt[r] > 0 ? -1.0 : 1.0;
        changed |= mu != M[r];
        M[r] = mu;
        npos += mu > 0;
        if (fabs(C->mkt[r]) < fabs(C->mkt[weakest]))
            weakest = r;
    }
    if (npos == 0 || npos == k) {
        M[weakest] = -M[weakest];
        changed = 1;
    }
    if (!changed)
        return BL_RECOLOR_DONE;
    return C->lrs == 3 ? BL_RECOLOR_REFIT : BL_RECOLOR_KEEP;
}

static const struct bl_coding_ops erp_ops = {
    .size = sizeof(struct bl_coding_ops),
    .create = erp_create,
    .destroy = erp_destroy,
    .max_columns = erp_max_columns,
    .code = erp_code,
    .wants = BL_CODING_PAIRS | BL_CODING_IGNORE_ZERO,
    .recolor = erp_recolor,
};

static const struct bl_coding_ops erp_gradient_ops = {
    .size = sizeof(struct bl_coding_ops),
    .create = erp_create,
    .destroy = erp_destroy,
    .max_columns = erp_max_columns,
    .code = erp_code,
    .wants = BL_CODING_PAIRS,
    .recolor = erp_recolor,
};

static const struct bl_plugin erp_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_CODING,
    .name = "erp",
    .doc = "AdaBoost.ERP coloring: two classes by max-cut (or at random), trained on those two, re-partitioned from the weak learner's outputs",
    .params = erp_params,
    .nparams = P_COUNT,
    .ops = &erp_ops,
};

static const struct bl_plugin erp_gradient_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_CODING,
    .name = "erp-gradient",
    .doc = "erp, but the two-class fit sees G M on every example (the loss's gradient along the partial column)",
    .params = erp_params,
    .nparams = P_COUNT,
    .ops = &erp_gradient_ops,
};

static const struct bl_plugin *const erp_plugins[] = {&erp_plugin, &erp_gradient_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return erp_plugins;
}

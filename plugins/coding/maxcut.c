/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Coding plugin "maxcut": HingeBoost.OC's learned coloring (Gao & Koller
 * 2011, Algorithm 1; hingeboost-oc spec §2.4, §2.6, §2.7).  One two-colour
 * column mu in {-1,+1}^k per iteration:
 *
 *   code():    the best of `candidates` random non-constant colorings by
 *              the max-cut score (eq. (11)/(12))
 *                  J(mu) = sum_{y<y'} W(y,y') [mu(y) != mu(y')],
 *                  W = A + A^T,  A[y_i][r] += P_ir  (O(mk) once, O(k^2) per
 *              candidate), P the loss's pair weights (the hinge loss's
 *              residuals rho_ir: BL_CODING_PAIRS);
 *              with init = ova, iterations 1..k use the one-vs-all column
 *              of class t instead (the paper's "one-vs-all codebook
 *              initialisation"; spec §2.4 default reading).
 *   recolor(): ICM (eq. (17)): visit the classes in order (or a random
 *              order per sweep, order = random) and flip mu(r) when that
 *              strictly lowers the training loss of the new term, trial();
 *              sweep until a sweep changes nothing.  For the hinge loss
 *              with step 1 that loss is exactly J_col / m.  Flips that
 *              would make mu constant are refused (the next SVM would have
 *              no different-colour pair).  After a change the weak learner
 *              is fitted again on the new mu, at most `inner` fits per
 *              iteration in all (the paper's 2); the last fit is kept with
 *              the last mu, which still lowers the round's objective (spec
 *              §2.7 notes).
 *
 * Stall rule (ours): at F = 0 with the 0-1 cost an example's hinge loss
 * can only fall if its class is alone in its colour (spec §2.9 item 3), so
 * a balanced max-cut coloring gives every target margin <= 0 and the SVM
 * answers g = 0; then nothing would ever change (and later rounds can
 * stall the same way).  When no fit of a round, re-coloured by ICM, has
 * lowered the training loss, the column becomes the one-vs-all column of
 * the class with the most hinge loss, and the learner is fitted again (not
 * counted in `inner`); while that gains nothing, the next class by hinge
 * loss, up to all k.  The engine keeps the round's best fit.
 *
 * Open points chosen (spec §7): candidates are i.i.d. uniform +-1 per class
 * with constant ones redrawn (sample = half: exactly floor(k/2) classes +1);
 * ties in J keep the first candidate; with freeze = true the one-vs-all
 * columns are not re-coloured.  mu and -mu score the same and give the
 * same model (g -> -g), so the sign of a drawn coloring does not matter.
 *
 * Deterministic: the candidates and the random ICM order come from the seed
 * code() gets (splitmix64, unbiased bounded draws).
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/splitmix.h"

enum { P_CANDIDATES, P_INIT, P_FREEZE, P_INNER, P_SAMPLE, P_ORDER, P_COUNT };

static const struct bl_param_spec mc_params[P_COUNT] = {
    [P_CANDIDATES] = {"candidates", BL_PARAM_INT, "1000", 1, 100000000, NULL,
                      "random colorings scored by the max-cut objective; the best is kept"},
    [P_INIT] = {"init", BL_PARAM_CHOICE, "random", 0, 0, "random|ova",
                "ova: iterations 1..k start from the one-vs-all column of class t"},
    [P_FREEZE] = {"freeze", BL_PARAM_BOOL, "false", 0, 0, NULL,
                  "with init = ova: keep the one-vs-all columns as they are (no ICM)"},
    [P_INNER] = {"inner", BL_PARAM_INT, "2", 1, 100, NULL,
                 "weak fits per iteration at most (fit, re-colour, fit, ...); 1: no re-fit"},
    [P_SAMPLE] = {"sample", BL_PARAM_CHOICE, "uniform", 0, 0, "uniform|half",
                  "candidate colorings: uniform +-1 per class (not constant), or exactly "
                  "floor(k/2) classes +1"},
    [P_ORDER] = {"order", BL_PARAM_CHOICE, "fixed", 0, 0, "fixed|random",
                 "ICM visits the classes 1..k, or in a random order per sweep"},
};

struct mc {
    size_t k, ncand, inner, fits;
    int stalled;       /* stall fallbacks this iteration (at most k) */
    double round_best; /* the lowest trial loss of this iteration's fits */
    int ova, freeze, half, rorder;
    size_t t;          /* iterations coded so far */
    uint64_t rng;      /* this iteration's stream (ICM order) */
    double *W;         /* k x k */
    double *mu, *best; /* k */
    size_t *perm;      /* k */
};

static void mc_destroy(void *self)
{
    struct mc *C = self;
    if (C) {
        free(C->W);
        free(C->mu);
        free(C->best);
        free(C->perm);
    }
    free(C);
}

static void *mc_create(const struct bl_host *host, const union bl_value *params, size_t k,
                       char err[BL_ERR_MAX])
{
    (void)host;
    if (k < 2) {
        snprintf(err, BL_ERR_MAX, "colorings need at least 2 classes (this problem has %zu)", k);
        return NULL;
    }
    struct mc *C = calloc(1, sizeof *C);
    if (!C || !(C->W = calloc(k * k, sizeof *C->W)) || !(C->mu = calloc(k, sizeof *C->mu)) ||
        !(C->best = calloc(k, sizeof *C->best)) || !(C->perm = calloc(k, sizeof *C->perm))) {
        mc_destroy(C);
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    C->k = k;
    C->ncand = params ? (size_t)params[P_CANDIDATES].i : 1000;
    C->ova = params ? params[P_INIT].choice == 1 : 0;
    C->freeze = params ? params[P_FREEZE].b : 0;
    C->inner = params ? (size_t)params[P_INNER].i : 2;
    C->half = params ? params[P_SAMPLE].choice == 1 : 0;
    C->rorder = params ? params[P_ORDER].choice == 1 : 0;
    return C;
}

static size_t mc_max_columns(const void *self)
{
    (void)self;
    return 1;
}

/* One random non-constant coloring into mu. */
static void draw(struct mc *C, uint64_t *s, double *mu)
{
    size_t k = C->k;
    if (C->half) {
        shuffle_index(s, C->perm, k);
        for (size_t r = 0; r < k; r++)
            mu[C->perm[r]] = r < k / 2 ? 1.0 : -1.0;
        return;
    }
    for (;;) {
        int pos = 0, neg = 0;
        uint64_t bits = 0;
        for (size_t r = 0; r < k; r++) {
            if (r % 64 == 0)
                bits = splitmix64(s);
            mu[r] = (bits >> (r % 64)) & 1 ? 1.0 : -1.0;
            pos |= mu[r] > 0;
            neg |= mu[r] < 0;
        }
        if (pos && neg)
            return;
    }
}

static double cut(const struct mc *C, const double *mu)
{
    double J = 0;
    for (size_t a = 0; a < C->k; a++)
        for (size_t b = a + 1; b < C->k; b++)
            if (mu[a] != mu[b])
                J += C->W[a * C->k + b];
    return J;
}

static int mc_code(void *self, const int *y, size_t m, const double *P, uint64_t seed, double *M,
                   size_t *c, char err[BL_ERR_MAX])
{
    (void)err;
    struct mc *C = self;
    size_t k = C->k, t = C->t++;
    C->fits = 0;
    C->stalled = 0;
    C->round_best = HUGE_VAL;
    C->rng = seed;
    *c = 1;
    if (C->ova && t < k) {
        for (size_t r = 0; r < k; r++)
            M[r] = r == t ? 1.0 : -1.0;
        return 0;
    }
    memset(C->W, 0, k * k * sizeof *C->W);
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++)
            if ((int)r != y[i])
                C->W[(size_t)y[i] * k + r] += P[i * k + r];
    for (size_t a = 0; a < k; a++) /* symmetrise into the upper triangle */
        for (size_t b = a + 1; b < k; b++)
            C->W[a * k + b] += C->W[b * k + a];
    uint64_t s = seed ^ 0x6d61786375743a31ull; /* its own stream, apart from ICM's */
    double top = -HUGE_VAL;
    for (size_t n = 0; n < C->ncand; n++) {
        draw(C, &s, C->mu);
        double J = cut(C, C->mu);
        if (J > top) {
            top = J;
            memcpy(C->best, C->mu, k * sizeof *C->best);
        }
    }
    memcpy(M, C->best, k * sizeof *M);
    return 0;
}

/* The stall rule's classes: the n-th (from 0) by the pair weight its
 * examples carry, sum_{i: y_i = c} max_r P_ir (for the hinge loss: their
 * hinge loss), largest first, ties to the lower class. */
static size_t worst_class(const struct mc *C, const int *y, size_t m, const double *P, size_t n)
{
    size_t k = C->k;
    double *mass = C->W; /* free after code() */
    memset(mass, 0, k * sizeof *mass);
    for (size_t i = 0; i < m; i++) {
        double top = 0;
        for (size_t r = 0; r < k; r++)
            if (P[i * k + r] > top)
                top = P[i * k + r];
        mass[y[i]] += top;
    }
    for (size_t r = 0; r < k; r++)
        C->perm[r] = r;
    for (size_t a = 0; a <= n && a < k; a++) { /* selection: the first n + 1 places */
        size_t best = a;
        for (size_t b = a + 1; b < k; b++)
            if (mass[C->perm[b]] > mass[C->perm[best]] ||
                (mass[C->perm[b]] == mass[C->perm[best]] && C->perm[b] < C->perm[best]))
                best = b;
        size_t t = C->perm[a];
        C->perm[a] = C->perm[best];
        C->perm[best] = t;
    }
    return C->perm[n < k ? n : k - 1];
}

static int mc_recolor(void *self, const int *y, size_t m, const double *P, const double *g,
                      double (*trial)(void *ctx, const double *M), void *ctx, double *M,
                      size_t c, char err[BL_ERR_MAX])
{
    (void)g;
    struct mc *C = self;
    size_t k = C->k;
    if (c != 1) {
        snprintf(err, BL_ERR_MAX, "maxcut re-colours one column, got %zu", c);
        return -1;
    }
    C->fits++;
    if (C->freeze && C->ova && C->t <= k)
        return BL_RECOLOR_DONE;
    double cur = trial(ctx, M);
    int changed = 0, swept;
    size_t npos = 0;
    for (size_t r = 0; r < k; r++)
        npos += M[r] > 0;
    do {
        swept = 0;
        if (C->rorder) {
            shuffle_index(&C->rng, C->perm, k);
        } else {
            for (size_t r = 0; r < k; r++)
                C->perm[r] = r;
        }
        for (size_t q = 0; q < k; q++) {
            size_t r = C->perm[q];
            size_t np = npos + (M[r] > 0 ? (size_t)-1 : 1);
            if (np == 0 || np == k)
                continue; /* would be constant */
            M[r] = -M[r];
            double v = trial(ctx, M);
            if (v < cur - 1e-12 * (1.0 + fabs(cur))) {
                cur = v;
                npos = np;
                swept = changed = 1;
            } else {
                M[r] = -M[r];
            }
        }
    } while (swept);
    if (cur < C->round_best)
        C->round_best = cur;
    if (changed && C->fits < C->inner)
        return BL_RECOLOR_REFIT;
    /* The round ends here.  The stall rule: when none of its fits, even
     * re-coloured, lowered the loss (HingeBoost.OC's SVM when every target
     * margin is <= 0, e.g. at F = 0 with no class alone in its colour: spec
     * §2.9 item 3; or later, when the max-cut coloring asks for nothing the
     * learner can give), the column becomes the one-vs-all column of the
     * worst-handled class, where that class's examples have margin > 0,
     * and the learner is fitted again (the engine keeps the round's best
     * fit); while that gains nothing either, the next worst class, up to
     * all k.  The loss without the term is
     * trial() of an all-zero column. */
    if ((size_t)C->stalled < k) {
        memset(C->mu, 0, k * sizeof *C->mu);
        double L0 = trial(ctx, C->mu);
        if (!(C->round_best < L0 - 1e-9 * (1.0 + fabs(L0)))) {
            size_t w = worst_class(C, y, m, P, (size_t)C->stalled++);
            for (size_t r = 0; r < k; r++)
                M[r] = r == w ? 1.0 : -1.0;
            return BL_RECOLOR_REFIT;
        }
    }
    return changed ? BL_RECOLOR_KEEP : BL_RECOLOR_DONE;
}

static const struct bl_coding_ops mc_ops = {
    .size = sizeof(struct bl_coding_ops),
    .create = mc_create,
    .destroy = mc_destroy,
    .max_columns = mc_max_columns,
    .code = mc_code,
    .wants = BL_CODING_PAIRS,
    .recolor = mc_recolor,
};

static const struct bl_plugin mc_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_CODING,
    .name = "maxcut",
    .doc = "HingeBoost.OC coloring: best of N random colorings by max-cut on the pair weights, then ICM re-coloring alternating with the weak learner",
    .params = mc_params,
    .nparams = P_COUNT,
    .ops = &mc_ops,
};

static const struct bl_plugin *const mc_plugins[] = {&mc_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return mc_plugins;
}

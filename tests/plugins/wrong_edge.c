/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * check-plugin fixture: a valid weak-learner plugin ("fixture-wrong-edge")
 * whose edge does not match its own predictions.  It is a decision stump
 * on feature 0, h(x) = pol * (x_0 > t ? 1 : -1), chosen like the stump
 * plugin's "max" criterion (the cut and polarity maximising max_r |s_r|,
 * s_r = sum_i G_ir h(x_i)), but it reports sum_r |s_r| as the edge instead
 * of max_r s_r.  With one column the two agree, so only problems with
 * c >= 2 show it.  Everything else (outputs, predict, save/load) is right.
 *
 * Built with -DWRONG_PREDICT_ADD it is "fixture-wrong-predict-add" instead:
 * the edge right (max_r |s_r|), but a predict_add that forgets the
 * coefficients w, adding the bare output to every column.
 *
 * Built with -DWRONG_MOVED_OUT it is "fixture-wrong-moved-out": the edge
 * right, but its answer sets bl_fit_result.moved_out (SDK 2.3) without the
 * moved lists that say which entries those values are.
 *
 * Built with -DIGNORES_CM it is "fixture-ignores-cm": the edge right, and
 * it asks for class-major derivatives (BL_NEEDS_CLASS_MAJOR) but reads G
 * row-major whatever req->class_major says.  With -DSDK_2_3 as well it is
 * "fixture-cm-sdk23", the same learner built for SDK 2.3, when the flag
 * promised class-major arrays on sparse sets only: right on dense ones.
 *
 * Two right ones, for comparing hosts' readings of one answer: with
 * -DMOVED_ONLY "fixture-moved-only" answers in moved / moved_out alone and
 * leaves NaN in out (a host that reads out shows it), with -DDENSE_TWIN
 * "fixture-dense-twin" the same stump answers in out.
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct we {
    const struct bl_train *tr;
    uint32_t *mv; /* MOVED_ONLY: class 0 in every row, and the outputs */
    double *mo;
};

struct we_hyp {
    float t;
    int pol;
};

static double absd(double x)
{
    return x < 0 ? -x : x;
}

static void *we_create(const struct bl_host *host, const union bl_value *params,
                       const struct bl_train *train, char err[BL_ERR_MAX])
{
    (void)host;
    (void)params;
    if (!train->Q.bins || !train->Q.nbins || !train->Q.cut || train->d < 1) {
        snprintf(err, BL_ERR_MAX, "needs a quantized view with at least one feature");
        return NULL;
    }
    struct we *W = calloc(1, sizeof *W);
    if (!W) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    W->tr = train;
    W->mv = calloc(train->Q.m ? train->Q.m : 1, sizeof *W->mv);
    W->mo = calloc(train->Q.m ? train->Q.m : 1, sizeof *W->mo);
    if (!W->mv || !W->mo) {
        free(W->mv), free(W->mo), free(W);
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    return W;
}

static void we_destroy(void *self)
{
    struct we *W = self;
    free(W->mv), free(W->mo), free(W);
}

static int we_fit(void *self, const struct bl_fit_request *req, struct bl_fit_result *res,
                  char err[BL_ERR_MAX])
{
    const struct we *W = self;
    const struct bl_quantized *Q = &W->tr->Q;
    size_t m = Q->m, c = req->c;
    const uint8_t *bins = Q->bins; /* feature 0 */
    double best = -1.0, best_sum = 0.0;
    int bb = -1, pol = 1;
    for (unsigned b = 0; b + 1 < Q->nbins[0]; b++) {
        size_t right = 0;
        for (size_t i = 0; i < m; i++)
            right += bins[i] > b;
        if (right == 0 || right == m)
            continue; /* a constant stump */
        double mx = 0.0, sum = 0.0;
        int p = 1;
        for (size_t r = 0; r < c; r++) {
            double s = 0.0;
            for (size_t i = 0; i < m; i++)
                s += req->G[i * c + r] * (bins[i] > b ? 1.0 : -1.0);
#if defined WRONG_PREDICT_ADD || defined WRONG_MOVED_OUT || defined MOVED_ONLY ||                 \
    defined DENSE_TWIN || defined IGNORES_CM
            sum = absd(s) > sum ? absd(s) : sum; /* the right edge: max_r |s_r| */
#else
            sum += absd(s); /* the deliberate mistake: this becomes the edge */
#endif
            if (absd(s) > mx) {
                mx = absd(s);
                p = s < 0 ? -1 : 1;
            }
        }
        if (mx > best) {
            best = mx;
            best_sum = sum;
            bb = (int)b;
            pol = p;
        }
    }
    if (bb < 0) {
        snprintf(err, BL_ERR_MAX, "feature 0 is constant on the training set: no stump splits it");
        return -1;
    }
    struct we_hyp *h = malloc(sizeof *h);
    if (!h) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return -1;
    }
    h->t = Q->cut[0][bb];
    h->pol = pol;
#ifdef MOVED_ONLY
    for (size_t i = 0; i < m; i++) {
        W->mv[i] = 0;
        W->mo[i] = bins[i] > (unsigned)bb ? pol : -pol;
        if (res->out)
            res->out[i] = NAN;
    }
    res->moved = W->mv;
    res->nmoved = 1;
    res->moved_out = W->mo;
#else
    if (res->out)
        for (size_t i = 0; i < m; i++)
            res->out[i] = bins[i] > (unsigned)bb ? pol : -pol;
#endif
    res->hyp = h;
    res->outdim = 1;
    res->edge = best_sum;
#ifdef WRONG_MOVED_OUT
    static const double stray[1] = {0.0}; /* the deliberate mistake */
    res->moved_out = stray;
#endif
    return 0;
}

static size_t we_outdim(const void *hyp)
{
    (void)hyp;
    return 1;
}

static void we_predict(const void *hyp, const struct bl_matrix *X, double *out)
{
    const struct we_hyp *h = hyp;
    for (size_t i = 0; i < X->m; i++)
        out[i] = X->x[i] > h->t ? h->pol : -h->pol; /* feature 0; NaN goes left */
}

#ifdef WRONG_PREDICT_ADD
static void we_predict_add(const void *hyp, const struct bl_matrix *X, const double *w, size_t k,
                           double *F)
{
    const struct we_hyp *h = hyp;
    (void)w; /* the deliberate mistake: F_ir += h(x_i), not w_r h(x_i) */
    for (size_t i = 0; i < X->m; i++)
        for (size_t r = 0; r < k; r++)
            F[i * k + r] += X->x[i] > h->t ? h->pol : -h->pol;
}
#define PREDICT_ADD we_predict_add
#define NAME "fixture-wrong-predict-add"
#define DOC "stump on feature 0 whose predict_add ignores the coefficients (test fixture)"
#elif defined MOVED_ONLY
#define PREDICT_ADD NULL
#define NAME "fixture-moved-only"
#define DOC "stump on feature 0 answering in moved_out alone (test fixture)"
#elif defined DENSE_TWIN
#define PREDICT_ADD NULL
#define NAME "fixture-dense-twin"
#define DOC "fixture-moved-only's stump answering in out (test fixture)"
#elif defined IGNORES_CM && defined SDK_2_3
#define PREDICT_ADD NULL
#define NAME "fixture-cm-sdk23"
#define DOC "stump on feature 0 of SDK 2.3 asking for class-major G on sparse sets (test fixture)"
#elif defined IGNORES_CM
#define PREDICT_ADD NULL
#define NAME "fixture-ignores-cm"
#define DOC "stump on feature 0 asking for class-major G but reading it row-major (test fixture)"
#elif defined WRONG_MOVED_OUT
#define PREDICT_ADD NULL
#define NAME "fixture-wrong-moved-out"
#define DOC "stump on feature 0 answering moved_out without moved lists (test fixture)"
#else
#define PREDICT_ADD NULL
#define NAME "fixture-wrong-edge"
#define DOC "stump on feature 0 reporting sum_r |s_r| as its edge (test fixture)"
#endif

static int we_save(const void *hyp, char *buf, size_t cap)
{
    const struct we_hyp *h = hyp;
    return snprintf(buf, cap, "t=%.9g pol=%d", (double)h->t, h->pol);
}

static void *we_load(const char *text, size_t d, char err[BL_ERR_MAX])
{
    float t;
    int pol, end = -1;
    if (d < 1 || sscanf(text, "t=%f pol=%d%n", &t, &pol, &end) != 2 || end < 0 ||
        text[end] != 0 || (pol != 1 && pol != -1)) {
        snprintf(err, BL_ERR_MAX, "malformed hypothesis \"%.100s\" (expected \"t=<threshold> "
                 "pol=<1|-1>\")", text);
        return NULL;
    }
    struct we_hyp *h = malloc(sizeof *h);
    if (!h) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    h->t = t;
    h->pol = pol;
    return h;
}

static void we_free_hyp(void *hyp)
{
    free(hyp);
}

static const struct bl_weak_ops ops = {.size = sizeof(struct bl_weak_ops),
                                       .create = we_create,
                                       .destroy = we_destroy,
#ifdef IGNORES_CM
                                       .needs = BL_NEEDS_CLASS_MAJOR, /* the mistake's */
#else
                                       .needs = 0, /* nothing beyond G */
#endif
                                       .fit = we_fit,
                                       .outdim = we_outdim,
                                       .predict = we_predict,
                                       .predict_add = PREDICT_ADD,
                                       .save = we_save,
                                       .load = we_load,
                                       .free_hyp = we_free_hyp};
#ifdef SDK_2_3
static const struct bl_plugin desc = {(2u << 16) | 3u, BL_ROLE_WEAK, NAME, DOC, NULL, 0, &ops};
#else
static const struct bl_plugin desc = {BL_SDK_VERSION, BL_ROLE_WEAK, NAME, DOC, NULL, 0, &ops};
#endif
static const struct bl_plugin *const list[] = {&desc, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);
const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return list;
}

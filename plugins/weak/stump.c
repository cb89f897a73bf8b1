/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Weak-learner plugin "stump": decision stumps over the quantized view,
 *
 *     h(x) = pol * (x_f > theta ? +1 : -1),   theta = Q.cut[f][b],
 *
 * so "x_f > theta" on raw training values is exactly "bin > b" (data.h) and
 * NaN goes left (the comparison is false; missing values sit in bin 0).
 *
 * Given dual weights G (m x c) the per-class scores are
 *     score_r = sum_i G_ir h(x_i)
 * (spec §2.4; with G = -dL/dF of a margin loss, G = c_ir).  Criteria:
 *   max: edge = max_r |score_r|, rule (10) with both polarities (spec §4:
 *        H is closed under negation), pol = sign of the winning score;
 *   l2:  edge = sqrt(sum_r score_r^2) (GradBoost-style row selection); the
 *        sign of h does not change it, so pol = +1.
 * The search is exact over every cut of the quantized view: per feature one
 * pass builds hist[b][r] = sum_{i in bin b} G_ir, then a prefix scan gives
 * score_r = T_r - 2 L_r for the split after bin b (pol = +1).  Splits that
 * leave one side empty on the training set (constant stumps) are excluded.
 *
 * Features run in parallel (OpenMP); each feature's best is found serially
 * and the features are then reduced in order, so the answer does not depend
 * on the thread count: max edge, ties to the lowest feature, then the lowest
 * bin, then (max) the lowest class.
 */
#include <boostlab/boostlab.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define NAME "stump"
#define MAXBINS 256

static const struct bl_host *g_host;

enum { P_CRITERION, P_COUNT };
enum { CRIT_MAX = 0, CRIT_L2 = 1 };

static const struct bl_param_spec stump_params[P_COUNT] = {
    [P_CRITERION] = {"criterion", BL_PARAM_CHOICE, "max", 0, 0, "max|l2",
                     "max: max_r |score_r| (rule (10), both polarities); l2: sqrt(sum_r score_r^2)"},
};

struct stump_hyp {
    size_t f;
    float t;
    int pol;
};

/* Best split of one feature; edge < 0 when the feature has none. */
struct fbest {
    double edge; /* |score| (max) or sum of squares (l2) */
    int b, r, pol;
};

struct stump {
    const struct bl_host *host;
    const struct bl_train *tr;
    int criterion;
    int nthreads;
    size_t cap_c;          /* columns the histograms have room for        */
    double *hist;          /* nthreads * MAXBINS * cap_c                   */
    double *T;             /* cap_c column totals of G                     */
    struct fbest *best;    /* d                                            */
    uint8_t *split_ok;     /* d * MAXBINS: split after bin b is not constant */
};

static void stump_destroy(void *self)
{
    struct stump *S = self;
    if (!S)
        return;
    free(S->hist);
    free(S->T);
    free(S->best);
    free(S->split_ok);
    free(S);
}

static int stump_reserve(struct stump *S, size_t c)
{
    if (c <= S->cap_c)
        return 0;
    double *h = malloc((size_t)S->nthreads * MAXBINS * c * sizeof *h);
    double *T = malloc(c * sizeof *T);
    if (!h || !T) {
        free(h);
        free(T);
        return -1;
    }
    free(S->hist);
    free(S->T);
    S->hist = h;
    S->T = T;
    S->cap_c = c;
    return 0;
}

static void *stump_create(const struct bl_host *host, const union bl_value *params,
                          const struct bl_train *train, char err[BL_ERR_MAX])
{
    const struct bl_quantized *Q = &train->Q;
    if (!Q->bins || !Q->nbins || !Q->cut || Q->m != train->m || Q->d != train->d) {
        snprintf(err, BL_ERR_MAX, "the training set has no (matching) quantized view");
        return NULL;
    }
    for (size_t f = 0; f < Q->d; f++)
        if (Q->nbins[f] < 1 || Q->nbins[f] > MAXBINS) {
            snprintf(err, BL_ERR_MAX, "feature %zu has %u bins (need 1..%d)", f,
                     (unsigned)Q->nbins[f], MAXBINS);
            return NULL;
        }
    struct stump *S = calloc(1, sizeof *S);
    if (!S) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    S->host = host;
    S->tr = train;
    S->criterion = params ? params[P_CRITERION].choice : CRIT_MAX;
    S->nthreads = host && host->threads > 0 ? host->threads : 1;
    S->best = malloc((train->d ? train->d : 1) * sizeof *S->best);
    S->split_ok = calloc((train->d ? train->d : 1) * MAXBINS, 1);
    if (!S->best || !S->split_ok || stump_reserve(S, train->k ? train->k : 1) < 0) {
        stump_destroy(S);
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    /* Bins never change between fits, so which splits are non-constant on
     * the training set is decided once here. */
    size_t m = Q->m;
    for (size_t f = 0; f < Q->d; f++) {
        size_t cnt[MAXBINS] = {0};
        const uint8_t *bf = Q->bins + f * m;
        for (size_t i = 0; i < m; i++)
            cnt[bf[i]]++;
        size_t cum = 0;
        for (unsigned b = 0; b < MAXBINS; b++) {
            if (b >= Q->nbins[f] && cnt[b]) {
                snprintf(err, BL_ERR_MAX, "feature %zu: bin %u out of range (%u bins)", f, b,
                         (unsigned)Q->nbins[f]);
                stump_destroy(S);
                return NULL;
            }
            cum += cnt[b];
            S->split_ok[f * MAXBINS + b] = b + 1u < Q->nbins[f] && cum > 0 && cum < m;
        }
    }
    return S;
}

/* hist[bin_i][.] += G[i][.] for every example.  The column count is a
 * compile-time constant in the common cases so the inner loop unrolls. */
#define ACC_LOOP(C)                                                           \
    for (size_t i = 0; i < m; i++) {                                          \
        double *h_ = hist + (size_t)bf[i] * (C);                              \
        const double *g_ = G + i * (C);                                       \
        for (size_t r_ = 0; r_ < (C); r_++)                                   \
            h_[r_] += g_[r_];                                                 \
    }
#define ACC_CASE(C) case C: ACC_LOOP(C) break;

static void accumulate(const uint8_t *bf, size_t m, const double *G, size_t c, double *hist)
{
    switch (c) {
    ACC_CASE(1) ACC_CASE(2) ACC_CASE(3) ACC_CASE(4) ACC_CASE(5) ACC_CASE(6)
    ACC_CASE(7) ACC_CASE(8) ACC_CASE(9) ACC_CASE(10) ACC_CASE(11) ACC_CASE(12)
    ACC_CASE(13) ACC_CASE(14) ACC_CASE(15) ACC_CASE(16)
    default: /* wide: fixed-size blocks of 8 columns, then the rest */
        for (size_t i = 0; i < m; i++) {
            double *h = hist + (size_t)bf[i] * c;
            const double *g = G + i * c;
            size_t r = 0;
            for (; r + 8 <= c; r += 8)
                for (size_t j = 0; j < 8; j++)
                    h[r + j] += g[r + j];
            for (; r < c; r++)
                h[r] += g[r];
        }
        break;
    }
}

/* Best split of feature f from its histogram; the left prefix is
 * accumulated in place over hist (rows 0..b hold L after step b). */
static struct fbest scan_feature(const struct stump *S, size_t f, double *hist,
                                 const double *T, size_t c)
{
    struct fbest fb = {-1.0, -1, 0, 1};
    unsigned nb = S->tr->Q.nbins[f];
    const uint8_t *ok = S->split_ok + f * MAXBINS;
    for (unsigned b = 0; b + 1 < nb; b++) {
        double *Lb = hist + (size_t)b * c;
        if (b > 0) {
            const double *prev = Lb - c;
            for (size_t r = 0; r < c; r++)
                Lb[r] += prev[r];
        }
        if (!ok[b])
            continue;
        if (S->criterion == CRIT_MAX) {
            for (size_t r = 0; r < c; r++) {
                double sc = T[r] - 2.0 * Lb[r];
                if (fabs(sc) > fb.edge) {
                    fb.edge = fabs(sc);
                    fb.b = (int)b;
                    fb.r = (int)r;
                    fb.pol = sc < 0 ? -1 : 1;
                }
            }
        } else {
            double q = 0.0;
            for (size_t r = 0; r < c; r++) {
                double sc = T[r] - 2.0 * Lb[r];
                q += sc * sc;
            }
            if (q > fb.edge) {
                fb.edge = q;
                fb.b = (int)b;
                fb.r = 0;
                fb.pol = 1;
            }
        }
    }
    return fb;
}

static int stump_fit(void *self, const struct bl_fit_request *req, struct bl_fit_result *res,
                     char err[BL_ERR_MAX])
{
    struct stump *S = self;
    const struct bl_quantized *Q = &S->tr->Q;
    size_t m = Q->m, d = Q->d, c = req->c;
    if (c == 0 || !req->G) {
        snprintf(err, BL_ERR_MAX, "no dual weights (c = %zu)", c);
        return -1;
    }
    if (c > S->cap_c) {
        if (stump_reserve(S, c) < 0) {
            snprintf(err, BL_ERR_MAX, "out of memory for %zu-column histograms", c);
            return -1;
        }
        if (S->host && S->host->log)
            S->host->log(2, NAME, "histograms grown to %zu columns", c);
    }
    const double *G = req->G;
    double *T = S->T;
    for (size_t r = 0; r < c; r++)
        T[r] = 0.0;
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < c; r++)
            T[r] += G[i * c + r];

    size_t hstride = MAXBINS * S->cap_c;
    long nf = (long)d;
    /* Waking a thread team costs more than a small problem's whole scan,
     * and far more when the cores are busy: stay serial below ~64k cells. */
    int par = d > 1 && m * d * c >= 65536;
#pragma omp parallel for schedule(dynamic) num_threads(S->nthreads) if (par)
    for (long fl = 0; fl < nf; fl++) {
        size_t f = (size_t)fl;
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        double *hist = S->hist + (size_t)tid * hstride;
        unsigned nb = Q->nbins[f];
        if (nb < 2) {
            S->best[f].edge = -1.0;
            continue;
        }
        memset(hist, 0, (size_t)nb * c * sizeof *hist);
        accumulate(Q->bins + f * m, m, G, c, hist);
        S->best[f] = scan_feature(S, f, hist, T, c);
    }

    size_t bf = 0;
    double be = -1.0;
    for (size_t f = 0; f < d; f++)
        if (S->best[f].edge > be) {
            be = S->best[f].edge;
            bf = f;
        }
    if (be < 0.0) {
        snprintf(err, BL_ERR_MAX, "every feature is constant on the training set: no stump splits it");
        return -1;
    }
    const struct fbest *B = &S->best[bf];
    struct stump_hyp *h = malloc(sizeof *h);
    if (!h) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return -1;
    }
    h->f = bf;
    h->t = Q->cut[bf][B->b];
    h->pol = B->pol;
    const uint8_t *bins = Q->bins + bf * m;
    double pos = (double)h->pol;
    if (res->out)
        for (size_t i = 0; i < m; i++)
            res->out[i] = bins[i] > (unsigned)B->b ? pos : -pos;
    res->hyp = h;
    res->outdim = 1;
    res->edge = S->criterion == CRIT_L2 ? sqrt(be) : be;
    return 0;
}

static size_t stump_outdim(const void *hyp)
{
    (void)hyp;
    return 1;
}

static void stump_predict(const void *hyp, const struct bl_matrix *X, double *out)
{
    const struct stump_hyp *h = hyp;
    const float *x = X->x + h->f * X->m;
    double pos = (double)h->pol;
    for (size_t i = 0; i < X->m; i++)
        out[i] = x[i] > h->t ? pos : -pos; /* NaN compares false: left */
}

/* %.9g prints any float so that strtof reads back the same bits. */
static int stump_save(const void *hyp, char *buf, size_t cap)
{
    const struct stump_hyp *h = hyp;
    return snprintf(buf, cap, "f=%zu t=%.9g pol=%d", h->f, (double)h->t, h->pol);
}

static void *stump_load(const char *text, size_t d, char err[BL_ERR_MAX])
{
    const char *p = text;
    char *end;
    if (strncmp(p, "f=", 2) != 0 || !isdigit((unsigned char)p[2]))
        goto malformed;
    errno = 0;
    unsigned long long f = strtoull(p + 2, &end, 10);
    if (errno)
        goto malformed;
    p = end;
    if (strncmp(p, " t=", 3) != 0 || p[3] == 0 || isspace((unsigned char)p[3]))
        goto malformed;
    errno = 0;
    float t = strtof(p + 3, &end);
    if (end == p + 3 || isnan(t) || (isinf(t) && errno == ERANGE))
        goto malformed;
    p = end;
    if (strncmp(p, " pol=", 5) != 0 || !(p[5] == '-' || p[5] == '+' || isdigit((unsigned char)p[5])))
        goto malformed;
    errno = 0;
    long pol = strtol(p + 5, &end, 10);
    if (end == p + 5 || errno)
        goto malformed;
    p = end;
    while (isspace((unsigned char)*p))
        p++;
    if (*p)
        goto malformed;
    if (f >= d) {
        snprintf(err, BL_ERR_MAX, "stump: feature index %llu out of range (the data has %zu features)",
                 f, d);
        return NULL;
    }
    if (pol != 1 && pol != -1) {
        snprintf(err, BL_ERR_MAX, "stump: polarity %ld is not +1 or -1", pol);
        return NULL;
    }
    struct stump_hyp *h = malloc(sizeof *h);
    if (!h) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    h->f = (size_t)f;
    h->t = t;
    h->pol = (int)pol;
    return h;
malformed:
    snprintf(err, BL_ERR_MAX, "stump: malformed hypothesis \"%.200s\" (expected \"f=<feature> t=<threshold> pol=<+1|-1>\")",
             text);
    return NULL;
}

static void stump_free_hyp(void *hyp)
{
    free(hyp);
}

static const struct bl_weak_ops stump_ops = {
    .create = stump_create,
    .destroy = stump_destroy,
    .fit = stump_fit,
    .outdim = stump_outdim,
    .predict = stump_predict,
    .save = stump_save,
    .load = stump_load,
    .free_hyp = stump_free_hyp,
};

static const struct bl_plugin stump_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_WEAK,
    .name = "stump",
    .doc = "decision stump pol*(x_f > t ? 1 : -1), exact search over the quantized cuts",
    .params = stump_params,
    .nparams = P_COUNT,
    .ops = &stump_ops,
};

static const struct bl_plugin *const stump_plugins[] = {&stump_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    g_host = host;
    return stump_plugins;
}

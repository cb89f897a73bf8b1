/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Synthetic 2-D Gaussian-mixture data sets (see synth.h): the table of sets
 * and a generator whose bits do not depend on the machine.
 *
 * Only gauss4 follows the paper (RandomBoost, Fig. 2; spec §8.1). The paper
 * gives no recipe for its Synthetic 1-3 (Fig. 3, Table II): synthetic1..3
 * are OUR reconstructions, designed so that the Bayes error is of the order
 * of the paper's best Table II errors (data/README.md gives our estimates).
 */
#include "synth.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../util/rng.h"

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0 && FLT_EVAL_METHOD != -1
#warning "excess floating-point precision: synthetic data may differ from other machines"
#endif

/* ---- the sets ------------------------------------------------------------ */

/* Paper, Fig. 2: four "diagonal" Gaussians sharing one covariance.  The
 * sample count is not given; 100 per class is our choice. */
static const char *const gauss4_names[] = {"upper-left", "lower-left", "upper-right",
                                           "lower-right"};
static const bl_synth_comp gauss4[] = {
    {0, 1, {-3, 2}, {2.5, 1.5, 1}},
    {1, 1, {-3, -2}, {2.5, 1.5, 1}},
    {2, 1, {3, 4}, {2.5, 1.5, 1}},
    {3, 1, {3, 0}, {2.5, 1.5, 1}},
};

/* OURS: three overlapping elongated classes, each with its own orientation
 * (about 45, 30 and -20 degrees): every Bayes boundary is oblique. */
static const char *const s1_names[] = {"bar-45", "bar-30", "bar-minus-20"};
static const bl_synth_comp s1[] = {
    {0, 1, {0, 0}, {2.1, 1.9, 2.1}},
    {1, 1, {1.6, -1.6}, {3.0, 1.6, 1.2}},
    {2, 1, {4, -5}, {3.5, -1.2, 0.75}},
};

/* OURS: four well separated classes sharing one covariance elongated at 45
 * degrees, on a grid turned by 45 degrees: near-separable, with boundaries
 * along the two diagonals. */
static const char *const s2_names[] = {"east", "north", "south", "west"};
static const bl_synth_comp s2[] = {
    {0, 1, {4, 2}, {1.25, 1.0, 1.25}},
    {1, 1, {2, 4}, {1.25, 1.0, 1.25}},
    {2, 1, {-2, -4}, {1.25, 1.0, 1.25}},
    {3, 1, {-4, -2}, {1.25, 1.0, 1.25}},
};

/* OURS: five classes, three of them mixtures of two Gaussians with
 * non-convex regions: two pairs of opposite corners and a cross (two thin
 * bars at +-45 degrees) in the middle, between a top and a bottom class. */
static const char *const s3_names[] = {"corners-a", "cross", "corners-b", "top", "bottom"};
static const bl_synth_comp s3[] = {
    {0, 1, {-5, 4}, {1.8, 0.8, 0.85}},
    {0, 1, {5, -4}, {1.8, 0.8, 0.85}},
    {1, 1, {0, 0}, {1.5, -1.2, 1.5}},
    {1, 1, {0, 0}, {1.5, 1.2, 1.5}},
    {2, 1, {-5, -4}, {1.8, -0.8, 0.85}},
    {2, 1, {5, 4}, {1.8, -0.8, 0.85}},
    {3, 1, {0, 5.5}, {2.3, -0.7, 0.6}},
    {4, 1, {0, -5.5}, {2.3, 0.7, 0.6}},
};

#define N_OF(a) (sizeof(a) / sizeof *(a))
#define SET(name, doc, names, per_class, comp) \
    {name, doc, N_OF(names), names, per_class, N_OF(comp), comp}

static const bl_synth_set sets[] = {
    SET("gauss4", "the paper's Fig. 2 recipe: 4 diagonal Gaussians", gauss4_names, 100, gauss4),
    SET("synthetic1", "OURS for Synthetic 1: elongated, oblique boundaries", s1_names, 200, s1),
    SET("synthetic2", "OURS for Synthetic 2: separated, diagonal boundaries", s2_names, 200, s2),
    SET("synthetic3", "OURS for Synthetic 3: 2-Gaussian mixtures, non-convex", s3_names, 200,
        s3),
};

const bl_synth_set *bl_synth_sets(size_t *n)
{
    *n = N_OF(sets);
    return sets;
}

const bl_synth_set *bl_synth_find(const char *name)
{
    for (size_t j = 0; j < N_OF(sets); j++)
        if (!strcmp(sets[j].name, name))
            return &sets[j];
    return NULL;
}

const char *bl_synth_names(void)
{
    static char buf[256];
    if (!buf[0])
        for (size_t j = 0; j < N_OF(sets); j++) {
            if (j)
                strcat(buf, ", ");
            strcat(buf, sets[j].name);
        }
    return buf;
}

/* ---- reproducible arithmetic ------------------------------------------------ */

/* a * b rounded to a double before anything is added to it: a compiler may
 * otherwise fuse a*b+c into one FMA (GCC does by default on arm64), whose
 * single rounding gives other bits than this machine's. */
static double mul(double a, double b)
{
    volatile double p = a * b;
    return p;
}

double bl_synth_log(double x)
{
    /* x = m 2^e, m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(t) with
     * t = (m-1)/(m+1), |t| < 0.172, summed to t^25 (the next term is below
     * 2^-56 of the sum) */
    int e;
    double m = frexp(x, &e); /* exact */
    if (m < 0.70710678118654752440) {
        m *= 2;
        e--;
    }
    double t = (m - 1) / (m + 1), t2 = mul(t, t), p = 1.0 / 25;
    for (int j = 23; j >= 1; j -= 2)
        p = mul(p, t2) + 1.0 / j;
    double logm = mul(2 * t, p);
    /* ln 2 split so that e * LN2_HI is exact (|e| < 2^11) */
    const double LN2_HI = 6.93147180369123816490e-01, LN2_LO = 1.90821492927058770002e-10;
    return mul(e, LN2_HI) + (logm + mul(e, LN2_LO));
}

void bl_synth_rng_init(bl_synth_rng *r, const bl_synth_set *s, uint64_t seed)
{
    char tag[96];
    snprintf(tag, sizeof tag, "synth:%s", s->name);
    r->state = bl_seed_derive(seed, tag, 0);
}

double bl_synth_uniform(bl_synth_rng *r)
{
    /* splitmix64: bl_mix64 adds the golden-ratio increment, then mixes */
    uint64_t v = bl_mix64(r->state);
    r->state += 0x9e3779b97f4a7c15ULL;
    return (double)(v >> 11) * 0x1p-53;
}

void bl_synth_normal2(bl_synth_rng *r, double z[2])
{
    double u, v, s;
    do {
        u = 2 * bl_synth_uniform(r) - 1; /* exact, fused or not */
        v = 2 * bl_synth_uniform(r) - 1;
        s = mul(u, u) + mul(v, v);
    } while (s >= 1 || s == 0);
    double f = sqrt(-2 * bl_synth_log(s) / s); /* sqrt is correctly rounded */
    z[0] = mul(u, f);
    z[1] = mul(v, f);
}

/* ---- drawing ------------------------------------------------------------------ */

/* One point of class c: a component by weight, then mean + L z with L the
 * Cholesky factor of its covariance. */
static void draw(const bl_synth_set *s, size_t c, bl_synth_rng *r, double out[2])
{
    double total = 0;
    const bl_synth_comp *pick = NULL;
    for (size_t j = 0; j < s->ncomp; j++)
        if ((size_t)s->comp[j].cls == c)
            total += s->comp[j].weight;
    double u = mul(bl_synth_uniform(r), total);
    for (size_t j = 0; j < s->ncomp; j++) {
        if ((size_t)s->comp[j].cls != c)
            continue;
        pick = &s->comp[j]; /* the last one takes what rounding leaves */
        if (u < s->comp[j].weight)
            break;
        u -= s->comp[j].weight;
    }
    double z[2];
    bl_synth_normal2(r, z);
    const double *C = pick->cov;
    double l00 = sqrt(C[0]), l10 = C[1] / l00, l11 = sqrt(C[2] - mul(l10, l10));
    out[0] = pick->mean[0] + mul(l00, z[0]);
    out[1] = (pick->mean[1] + mul(l10, z[0])) + mul(l11, z[1]);
}

void bl_synth_generate(const bl_synth_set *s, uint64_t seed, size_t per_class, double *xy,
                       int *label)
{
    bl_synth_rng r;
    bl_synth_rng_init(&r, s, seed);
    for (size_t i = 0; i < s->k * per_class; i++) {
        size_t c = i % s->k;
        draw(s, c, &r, xy + 2 * i);
        label[i] = (int)c;
    }
}

double bl_synth_density(const bl_synth_set *s, size_t c, double x, double y)
{
    double total = 0, p = 0;
    for (size_t j = 0; j < s->ncomp; j++) {
        const bl_synth_comp *q = &s->comp[j];
        if ((size_t)q->cls != c)
            continue;
        double a = q->cov[0], b = q->cov[1], d = q->cov[2], det = a * d - b * b;
        double dx = x - q->mean[0], dy = y - q->mean[1];
        double m2 = (d * dx * dx - 2 * b * dx * dy + a * dy * dy) / det;
        total += q->weight;
        p += q->weight * exp(-0.5 * m2) / (6.28318530717958647693 * sqrt(det));
    }
    return total > 0 ? p / total : 0;
}

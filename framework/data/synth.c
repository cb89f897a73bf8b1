/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Synthetic data sets (see synth.h): the table of 2-D Gaussian-mixture sets,
 * the many-feature `classification` generator, and the arithmetic that makes
 * their bits independent of the machine.
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
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"
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

/* ---- classification ------------------------------------------------------------ */

struct bl_synth_cls {
    bl_synth_cls_opts o;
    bl_synth_rng r;
    size_t nclus, next;  /* clusters; index of the next row        */
    signed char *vertex; /* nclus x informative, each -1 or +1      */
    double *A;           /* nclus x informative x informative       */
    double *B;           /* informative x redundant                 */
    double *z;           /* informative normals of the current row  */
    double spare;        /* the second normal of a polar pair       */
    int have_spare;
};

const char *bl_synth_cls_check(const bl_synth_cls_opts *o, char *buf, size_t n)
{
    size_t nclus = o->classes * o->clusters_per_class;
    if (o->rows < 1 || o->rows > BL_SYNTH_CLS_MAX_ROWS)
        snprintf(buf, n, "--rows must be in 1..%u", BL_SYNTH_CLS_MAX_ROWS);
    else if (o->features < 1 || o->features > BL_SYNTH_CLS_MAX_FEATURES)
        snprintf(buf, n, "--features must be in 1..%u", BL_SYNTH_CLS_MAX_FEATURES);
    else if (o->classes < 2 || o->classes > BL_SYNTH_CLS_MAX_CLASSES)
        snprintf(buf, n, "--classes must be in 2..%u", BL_SYNTH_CLS_MAX_CLASSES);
    else if (o->informative < 1 || o->informative > BL_SYNTH_CLS_MAX_INFORMATIVE)
        snprintf(buf, n, "--informative must be in 1..%u", BL_SYNTH_CLS_MAX_INFORMATIVE);
    else if (o->clusters_per_class < 1 || nclus > BL_SYNTH_CLS_MAX_CLUSTERS)
        snprintf(buf, n, "--clusters x --classes must be in 1..%u", BL_SYNTH_CLS_MAX_CLUSTERS);
    else if (o->informative + o->redundant > o->features)
        snprintf(buf, n, "--informative %zu + --redundant %zu exceed --features %zu",
                 o->informative, o->redundant, o->features);
    else if (o->informative < 8 * sizeof(size_t) - 1 && nclus > (size_t)1 << o->informative)
        snprintf(buf, n,
                 "%zu classes x %zu clusters need more hypercube vertices than "
                 "--informative %zu gives (2^%zu)",
                 o->classes, o->clusters_per_class, o->informative, o->informative);
    else if ((double)nclus * o->informative * o->informative > 16777216.0)
        snprintf(buf, n, "clusters x informative^2 = %.0f matrix entries: at most 2^24",
                 (double)nclus * o->informative * o->informative);
    else if (!(o->sep > 0 && o->sep <= 1000))
        snprintf(buf, n, "--class-sep must be in (0, 1000]");
    else if (!(o->flip >= 0 && o->flip <= 1))
        snprintf(buf, n, "--flip must be in [0, 1]");
    else
        return NULL;
    return buf;
}

static double cls_normal(bl_synth_cls *g)
{
    if (g->have_spare) {
        g->have_spare = 0;
        return g->spare;
    }
    double z[2];
    bl_synth_normal2(&g->r, z);
    g->spare = z[1];
    g->have_spare = 1;
    return z[0];
}

bl_synth_cls *bl_synth_cls_new(const bl_synth_cls_opts *o, uint64_t seed)
{
    bl_synth_cls *g = bl_xcalloc(1, sizeof *g);
    size_t I = o->informative, R = o->redundant;
    g->o = *o;
    g->nclus = o->classes * o->clusters_per_class;
    g->r.state = bl_seed_derive(seed, "synth:classification", 0);
    g->vertex = bl_xmalloc(g->nclus * I);
    g->A = bl_xmalloc(g->nclus * I * I * sizeof *g->A);
    g->B = bl_xmalloc((I * R > 0 ? I * R : 1) * sizeof *g->B);
    g->z = bl_xmalloc(I * sizeof *g->z);
    /* distinct vertices: a coin per coordinate, a repeat drawn again
     * (check() guarantees that there are enough of them) */
    for (size_t c = 0; c < g->nclus; c++) {
        signed char *v = g->vertex + c * I;
        for (int again = 1; again;) {
            for (size_t l = 0; l < I; l++)
                v[l] = bl_synth_uniform(&g->r) < 0.5 ? -1 : 1;
            again = 0;
            for (size_t d = 0; d < c && !again; d++)
                again = !memcmp(v, g->vertex + d * I, I);
        }
    }
    for (size_t j = 0; j < g->nclus * I * I; j++)
        g->A[j] = 2 * bl_synth_uniform(&g->r) - 1; /* exact */
    for (size_t j = 0; j < I * R; j++)
        g->B[j] = 2 * bl_synth_uniform(&g->r) - 1;
    return g;
}

void bl_synth_cls_row(bl_synth_cls *g, double *x, int *label)
{
    const bl_synth_cls_opts *o = &g->o;
    size_t I = o->informative, R = o->redundant;
    size_t c = g->next++ % g->nclus;
    const signed char *v = g->vertex + c * I;
    const double *A = g->A + c * I * I;
    for (size_t l = 0; l < I; l++)
        g->z[l] = cls_normal(g);
    /* x = sep v + z A, summed in the order of l: no reassociation */
    for (size_t j = 0; j < I; j++) {
        double s = mul(o->sep, v[j]);
        for (size_t l = 0; l < I; l++)
            s += mul(g->z[l], A[l * I + j]);
        x[j] = s;
    }
    for (size_t r = 0; r < R; r++) {
        double s = 0;
        for (size_t l = 0; l < I; l++)
            s += mul(x[l], g->B[l * R + r]);
        x[I + r] = s;
    }
    for (size_t j = I + R; j < o->features; j++)
        x[j] = cls_normal(g);
    size_t cls = c % o->classes;
    /* one uniform per row whatever --flip, so that the stream does not
     * depend on it; a second only for a flipped label */
    if (bl_synth_uniform(&g->r) < o->flip) {
        cls = (size_t)(bl_synth_uniform(&g->r) * (double)o->classes);
        if (cls >= o->classes) /* u < 1, but u * k may round up to k */
            cls = o->classes - 1;
    }
    *label = (int)cls;
}

void bl_synth_cls_free(bl_synth_cls *g)
{
    if (!g)
        return;
    free(g->vertex);
    free(g->A);
    free(g->B);
    free(g->z);
    free(g);
}

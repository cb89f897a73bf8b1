/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * check-plugin, structured-task role (task.h), on small random
 * data sets (k = 2 .. 5 classes, every class present, a few dozen rows, a
 * few features; or the k classes of --classes FILE, for tasks that match
 * class names, e.g. hierarchy's taxonomy; or random row subsets of the data
 * set of --data FILE, for tasks whose rows mean something, e.g. crf's image
 * ids) and random score matrices S (one
 * per view, points x blocks: uniform reals, coarse values with ties, all
 * zero).  With g(y) = sum of coef * S[view][point * blocks + block] over the
 * terms of dpsi(i, y) = F(x_i, y_i) - F(x_i, y) and hinge(y) = Delta(y_i, y)
 * - g(y):
 *
 *   open          two instances on each data set, at least one example, a
 *                 label, a view (points, features, blocks >= 1), metric names
 *   params        every declared parameter at its bounds / choices: opened
 *                 (or refused with a message), and the properties below hold
 *   loss-zero     Delta(y_i, y_i) == 0 for every example
 *   loss-range    Delta(y_i, y) finite and >= 0 for random labels and the
 *                 alternatives
 *   random-label  never the truth, among the alternatives when there are
 *                 some, and the same for the same random numbers
 *   alternatives  (when enumerable) at least one, none the truth, distinct
 *   dpsi          the "call again with more room" protocol, nothing written
 *                 beyond cap, terms inside the views
 *   dpsi-truth    dpsi(i, y_i) has zero net effect (coefficients cancel per
 *                 view, point and block)
 *   argmax-hinge  argmax_aug's h is >= 0 and equals hinge(ybar) recomputed
 *                 from loss and dpsi
 *   argmax-max    h >= hinge(y) of random labels (spec: at least as violated
 *                 as a random label), and the brute-force maximum over the
 *                 truth and the alternatives when the task enumerates them
 *   predict       g(pred) <= g(y) for the truth, random labels and (brute
 *                 force) every alternative: prediction maximises F
 *   evaluate      one finite value per declared metric, nothing written past
 *   class-labels  (label_is_class) int32 labels, truth = the row's class,
 *                 evaluate with S = NULL scores class predictions, the truth
 *                 no worse than wrong classes on the primary metric
 *   determinism   a second instance, and the same calls again: bitwise the
 *                 same answers
 *   format-label  like snprintf: a length 1 .. 1000, what it writes, cut
 *                 at cap, no control characters
 *
 * A failing case is shrunk to the smallest k and number of rows that still
 * fail with the same seed scheme; the report names the example, the labels
 * (as format_label writes them, and their bytes) and the scores used.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../data/dataset.h"
#include "../util/rng.h"
#include "check.h"

#define NEL(a) (sizeof(a) / sizeof((a)[0]))
#define DRAWS 3          /* score matrices per data set                  */
#define RANDOMS 4        /* random labels per example                    */
#define MAX_ALTS 4096    /* alternatives enumerated for brute force       */
#define CANARY 8
#define RTOL 1e-9        /* recomputed hinges agree to this, relatively   */
#define FMT_MAX 1000     /* a sane label length                          */

static const size_t ks[] = {2, 3, 4, 5};
static const char *const dflt_names[] = {"c0", "c1", "c2", "c3", "c4"};

enum {
    P_OPEN = 1 << 0,
    P_LOSS_ZERO = 1 << 1,
    P_LOSS_RANGE = 1 << 2,
    P_RANDOM = 1 << 3,
    P_ALTS = 1 << 4,
    P_DPSI = 1 << 5,
    P_DPSI_TRUTH = 1 << 6,
    P_ARGMAX_HINGE = 1 << 7,
    P_ARGMAX_MAX = 1 << 8,
    P_PREDICT = 1 << 9,
    P_EVALUATE = 1 << 10,
    P_CLASSES = 1 << 11,
    P_DETERMINISM = 1 << 12,
    P_FORMAT = 1 << 13,
};
#define P_SMOKE                                                                              \
    (P_OPEN | P_LOSS_ZERO | P_LOSS_RANGE | P_RANDOM | P_ALTS | P_DPSI | P_DPSI_TRUTH |       \
     P_ARGMAX_HINGE | P_ARGMAX_MAX | P_PREDICT | P_EVALUATE | P_CLASSES | P_FORMAT)

struct tst {
    const struct bl_plugin *p;
    const struct bl_task_ops *ops;
    const struct bl_host *host;
    const union bl_value *v;
    int props;
    const char *const *names; /* --classes, or NULL */
    size_t nnames;
    const bl_dataset *data;   /* --data, or NULL */
    size_t cases, refused, examples;
    char refusal[BL_ERR_MAX];
};

/* A data set: m rows, d features (feature-major), labels 0..k-1. */
struct tcase {
    size_t m, d, k;
    uint64_t seed;
    int *y;
    float *x;
};

static void tc_free(struct tcase *cs)
{
    free(cs->y), free(cs->x);
    memset(cs, 0, sizeof *cs);
}

/* m rows drawn without replacement from --data (all of them when it has
 * fewer), in the order drawn. */
static void tc_sample(struct tcase *cs, const bl_dataset *ds, size_t m, uint64_t seed)
{
    chk_rng r;
    chk_rng_seed(&r, seed);
    if (m > ds->m)
        m = ds->m;
    cs->k = ds->k, cs->m = m, cs->d = ds->d, cs->seed = seed;
    size_t *idx = malloc(ds->m * sizeof *idx);
    cs->y = malloc(m * sizeof *cs->y);
    cs->x = malloc((m * cs->d > 0 ? m * cs->d : 1) * sizeof *cs->x);
    for (size_t i = 0; i < ds->m; i++)
        idx[i] = i;
    for (size_t i = 0; i < m; i++) {
        size_t j = i + chk_below(&r, ds->m - i);
        size_t t = idx[i];
        idx[i] = idx[j], idx[j] = t;
        cs->y[i] = ds->y[idx[i]];
        for (size_t f = 0; f < cs->d; f++)
            cs->x[f * m + i] = ds->x[f * ds->m + idx[i]];
    }
    free(idx);
}

static void tc_gen(struct tcase *cs, const struct tst *T, size_t k, size_t m, uint64_t seed)
{
    if (T->data) {
        tc_sample(cs, T->data, m, seed);
        return;
    }
    chk_rng r;
    chk_rng_seed(&r, seed);
    cs->k = k, cs->m = m, cs->d = 3, cs->seed = seed;
    cs->y = malloc(m * sizeof *cs->y);
    cs->x = malloc(m * cs->d * sizeof *cs->x);
    for (size_t i = 0; i < m; i++)
        cs->y[i] = (int)(i < k ? i : chk_below(&r, k)); /* every class present when m >= k */
    /* shuffle, so that class c is not always row c */
    for (size_t i = m; i > 1; i--) {
        size_t j = chk_below(&r, i);
        int t = cs->y[i - 1];
        cs->y[i - 1] = cs->y[j], cs->y[j] = t;
    }
    for (size_t j = 0; j < m * cs->d; j++)
        cs->x[j] = (float)((int)chk_below(&r, 41) - 20) / 8.0f;
}

/* ---- an open instance ------------------------------------------------------------ */

struct tinst {
    void *inst;
    size_t m, lb, nv, nmetrics;
    struct bl_task_view *views;
    double **S;
    size_t *cells;
};

static void ti_close(const struct tst *T, struct tinst *ti)
{
    if (ti->inst)
        T->ops->close(ti->inst);
    for (size_t v = 0; ti->S && v < ti->nv; v++)
        free(ti->S[v]);
    free(ti->S), free(ti->views), free(ti->cells);
    memset(ti, 0, sizeof *ti);
}

static size_t count_metrics(const char *s)
{
    size_t n = 1;
    for (; *s; s++)
        n += *s == ',';
    return n;
}

/* 1 opened, 0 refused with a message, -1 a failure (why). */
static int ti_open(struct tst *T, const struct tcase *cs, struct tinst *ti, chk_buf *why)
{
    memset(ti, 0, sizeof *ti);
    struct bl_train data;
    memset(&data, 0, sizeof data);
    data.m = cs->m, data.d = cs->d, data.k = cs->k, data.y = cs->y;
    data.X.m = cs->m, data.X.d = cs->d, data.X.x = cs->x;
    const char *const *names = T->names ? T->names : dflt_names;
    char err[BL_ERR_MAX] = "";
    ti->inst = T->ops->open(T->host, T->p->nparams ? T->v : NULL, &data, names, err);
    if (!ti->inst) {
        if (!err[0]) {
            chk_printf(why, "open refused a data set of %zu rows and %zu classes without a "
                       "message", cs->m, cs->k);
            return -1;
        }
        if (!T->refused++)
            snprintf(T->refusal, sizeof T->refusal, "k = %zu, %zu rows: %.200s%s", cs->k, cs->m,
                     err, strlen(err) > 200 ? "..." : "");
        return 0;
    }
    ti->m = T->ops->examples(ti->inst);
    ti->lb = T->ops->label_bytes(ti->inst);
    ti->nv = T->ops->nviews(ti->inst);
    ti->nmetrics = count_metrics(T->ops->metrics);
    if (ti->m < 1 || ti->m > ((size_t)1 << 26) || ti->lb < 1 || ti->lb > ((size_t)1 << 20) ||
        ti->nv < 1 || ti->nv > 4096) {
        chk_printf(why, "open gave %zu examples, %zu-byte labels and %zu views on %zu rows "
                   "(each must be at least 1, and sane)", ti->m, ti->lb, ti->nv, cs->m);
        return -1;
    }
    ti->views = calloc(ti->nv, sizeof *ti->views);
    ti->S = calloc(ti->nv, sizeof *ti->S);
    ti->cells = calloc(ti->nv, sizeof *ti->cells);
    for (size_t v = 0; v < ti->nv; v++) {
        const struct bl_task_view *tv = T->ops->view(ti->inst, v);
        if (!tv) {
            chk_printf(why, "view(%zu) is NULL, but nviews says %zu", v, ti->nv);
            return -1;
        }
        ti->views[v] = *tv;
        if (!tv->points.x || tv->points.m < 1 || tv->points.d < 1 || tv->blocks < 1 ||
            tv->points.m > ((size_t)1 << 24) || tv->blocks > ((size_t)1 << 20)) {
            chk_printf(why, "view %zu (%s) has %zu points, %zu features, %zu blocks%s (each "
                       "must be at least 1)", v, tv->name ? tv->name : "no name", tv->points.m,
                       tv->points.d, tv->blocks, tv->points.x ? "" : " and no values");
            return -1;
        }
        ti->cells[v] = tv->points.m * tv->blocks;
        ti->S[v] = calloc(ti->cells[v], sizeof *ti->S[v]);
    }
    T->examples += ti->m;
    return 1;
}

/* Scores: draw 0 uniform in [-2, 2], draw 1 halves in [-2, 2] (ties), draw 2
 * zero. */
static void ti_scores(struct tinst *ti, uint64_t seed, int draw)
{
    chk_rng r;
    chk_rng_seed(&r, bl_mix64(seed + 1000u + (uint64_t)draw));
    for (size_t v = 0; v < ti->nv; v++)
        for (size_t j = 0; j < ti->cells[v]; j++)
            ti->S[v][j] = draw == 0 ? chk_range(&r, -2, 2)
                        : draw == 1 ? (double)((int)chk_below(&r, 9) - 4) / 2.0 : 0.0;
}

static uint64_t rnd_fn(void *r)
{
    return chk_next(r);
}

static void rnd_seed(chk_rng *r, uint64_t seed, size_t i, int q)
{
    chk_rng_seed(r, bl_mix64(seed ^ (0x5bd1e995u * (uint64_t)(i + 1)) ^ ((uint64_t)q << 40)));
}

/* ---- labels and terms ---------------------------------------------------------- */

static void show_label(chk_buf *b, const struct tst *T, const struct tinst *ti, const char *what,
                       const void *y)
{
    char s[128];
    int n = T->ops->format_label(ti->inst, y, s, sizeof s);
    chk_printf(b, "%s = ", what);
    if (n >= 0)
        chk_printf(b, "\"%.100s%s\" ", s, (size_t)n >= sizeof s ? "..." : "");
    chk_printf(b, "(bytes");
    const unsigned char *u = y;
    for (size_t j = 0; j < ti->lb && j < 16; j++)
        chk_printf(b, " %02x", u[j]);
    chk_printf(b, "%s)", ti->lb > 16 ? " ..." : "");
}

struct terms {
    struct bl_task_term *t;
    size_t n, cap;
};

/* The terms of dpsi(i, y) into tm (validated); 0, or -1 with why. */
static int get_terms(const struct tst *T, const struct tinst *ti, size_t i, const void *y,
                     struct terms *tm, chk_buf *why)
{
    if (!tm->t) {
        tm->cap = 16;
        tm->t = malloc(tm->cap * sizeof *tm->t);
    }
    size_t n = T->ops->dpsi(ti->inst, i, y, tm->t, tm->cap);
    if (n > tm->cap) {
        if (n > ((size_t)1 << 24)) {
            chk_printf(why, "dpsi of example %zu says it has %zu terms", i, n);
            return -1;
        }
        tm->cap = n;
        tm->t = realloc(tm->t, tm->cap * sizeof *tm->t);
        size_t n2 = T->ops->dpsi(ti->inst, i, y, tm->t, tm->cap);
        if (n2 != n) {
            chk_printf(why, "dpsi of example %zu said %zu terms, then %zu with room for them",
                       i, n, n2);
            return -1;
        }
    }
    tm->n = n;
    for (size_t j = 0; j < n; j++) {
        const struct bl_task_term *t = &tm->t[j];
        if (t->view >= ti->nv || t->block >= ti->views[t->view].blocks ||
            t->point >= ti->views[t->view].points.m || !isfinite(t->coef)) {
            chk_printf(why, "term %zu of dpsi of example %zu is (view %u, block %u, point %zu, "
                       "coef %g), outside the views (%zu of them)", j, i, t->view, t->block,
                       t->point, t->coef, ti->nv);
            return -1;
        }
    }
    return 0;
}

/* g = sum coef * S (F(x_i, y_i) - F(x_i, y)); *scale gets sum |coef * S|. */
static double gap(const struct tinst *ti, const struct terms *tm, double *scale)
{
    double g = 0, s = 0;
    for (size_t j = 0; j < tm->n; j++) {
        const struct bl_task_term *t = &tm->t[j];
        double a = t->coef * ti->S[t->view][t->point * ti->views[t->view].blocks + t->block];
        g += a;
        s += fabs(a);
    }
    if (scale)
        *scale = s;
    return g;
}

static void show_terms(chk_buf *b, const struct tinst *ti, const char *what,
                       const struct terms *tm)
{
    chk_printf(b, "dpsi(%s) = ", what);
    if (!tm->n)
        chk_printf(b, "0 (no terms)");
    for (size_t j = 0; j < tm->n && j < 24; j++) {
        const struct bl_task_term *t = &tm->t[j];
        const struct bl_task_view *tv = &ti->views[t->view];
        chk_printf(b, "%s", j ? " + " : "");
        chk_num(b, t->coef);
        chk_printf(b, " * S[%s][point %zu, block %u] (S = ", tv->name ? tv->name : "?",
                   t->point, t->block);
        chk_num(b, ti->S[t->view][t->point * tv->blocks + t->block]);
        chk_printf(b, ")");
    }
    chk_printf(b, "%s\n", tm->n > 24 ? " + ..." : "");
}

/* The scores of view 0 on the points example i's truth and y touch (at
 * most 4 points), as rows of blocks. */
static void show_scores(chk_buf *b, const struct tinst *ti, const struct terms *a,
                        const struct terms *c)
{
    size_t pts[4], np = 0;
    const struct terms *all[2] = {a, c};
    for (int q = 0; q < 2; q++)
        for (size_t j = 0; all[q] && j < all[q]->n && np < 4; j++) {
            const struct bl_task_term *t = &all[q]->t[j];
            int seen = 0;
            for (size_t p = 0; p < np; p++)
                seen |= pts[p] == (t->point << 8 | t->view);
            if (!seen && t->view < 256)
                pts[np++] = t->point << 8 | t->view;
        }
    for (size_t p = 0; p < np; p++) {
        size_t v = pts[p] & 255, pt = pts[p] >> 8;
        const struct bl_task_view *tv = &ti->views[v];
        char name[96];
        snprintf(name, sizeof name, "S[%s][point %zu]", tv->name ? tv->name : "?", pt);
        if (tv->blocks <= 64)
            chk_vec(b, name, ti->S[v] + pt * tv->blocks, tv->blocks);
        else
            chk_printf(b, "%s: %zu blocks", name, tv->blocks);
        chk_printf(b, "\n");
    }
}

/* Alternatives: their number (0 when not enumerable or too many). */
static size_t n_alts(const struct tst *T, const struct tinst *ti, size_t i)
{
    if (!T->ops->alternatives)
        return 0;
    size_t n = T->ops->alternatives(ti->inst, i, 0, NULL);
    return n <= MAX_ALTS ? n : 0;
}

/* ---- the properties, on one example --------------------------------------------- */

struct scratch {
    unsigned char *yt, *y, *y2, *yb, *yb2;
    struct terms ta, tb;
};

static int tol_ok(double a, double b, double scale)
{
    return fabs(a - b) <= RTOL * (scale + fabs(a) + fabs(b) + 1.0);
}

/* Labels example i is checked with: the truth, RANDOMS random labels and up
 * to na alternatives; label(q) writes the q-th into y (q = 0: truth). */
static void label_q(const struct tst *T, const struct tinst *ti, const struct tcase *cs,
                    size_t i, size_t q, void *y)
{
    if (q == 0) {
        T->ops->truth(ti->inst, i, y);
    } else if (q <= RANDOMS) {
        chk_rng r;
        rnd_seed(&r, cs->seed, i, (int)q);
        T->ops->random_label(ti->inst, i, rnd_fn, &r, y);
    } else {
        T->ops->alternatives(ti->inst, i, q - RANDOMS - 1, y);
    }
}

static void label_name(char *s, size_t cap, size_t q)
{
    if (q == 0)
        snprintf(s, cap, "y_i");
    else if (q <= RANDOMS)
        snprintf(s, cap, "random label %zu", q);
    else
        snprintf(s, cap, "alternative %zu", q - RANDOMS - 1);
}

static int check_example(struct tst *T, const struct tcase *cs, struct tinst *ti, size_t i,
                         int draw, struct scratch *sc, chk_buf *why, chk_buf *more)
{
    const struct bl_task_ops *o = T->ops;
    size_t lb = ti->lb, na = n_alts(T, ti, i);
    size_t nq = 1 + RANDOMS + na;
    const double *const *S = (const double *const *)ti->S;
    char nm[64];
    o->truth(ti->inst, i, sc->yt);

    if (draw == 0 && (T->props & (P_LOSS_ZERO | P_LOSS_RANGE))) {
        for (size_t q = 0; q < nq; q++) {
            if (q == 0 && !(T->props & P_LOSS_ZERO))
                continue;
            if (q > 0 && !(T->props & P_LOSS_RANGE))
                break;
            label_q(T, ti, cs, i, q, sc->y);
            double L = o->loss(ti->inst, i, sc->y);
            if (q == 0 ? L != 0.0 : !(isfinite(L) && L >= 0)) {
                label_name(nm, sizeof nm, q);
                chk_printf(why, "example %zu: Delta(y_i, %s) = %g, %s", i, nm, L,
                           q == 0 ? "not 0 (the loss of the truth must be 0)"
                                  : "not a finite number >= 0");
                show_label(more, T, ti, "y_i", sc->yt);
                chk_printf(more, "\n");
                if (q) {
                    show_label(more, T, ti, nm, sc->y);
                    chk_printf(more, "\n");
                }
                return 1;
            }
        }
    }

    if (draw == 0 && (T->props & P_RANDOM)) {
        for (int q = 1; q <= RANDOMS; q++) {
            chk_rng r;
            rnd_seed(&r, cs->seed, i, q);
            o->random_label(ti->inst, i, rnd_fn, &r, sc->y);
            rnd_seed(&r, cs->seed, i, q);
            o->random_label(ti->inst, i, rnd_fn, &r, sc->y2);
            const char *bad = NULL;
            if (!memcmp(sc->y, sc->yt, lb))
                bad = "is the truth (random_label must draw y != y_i)";
            else if (memcmp(sc->y, sc->y2, lb))
                bad = "differs when drawn again with the same random numbers";
            else if (na) {
                int found = 0;
                for (size_t t = 0; t < na && !found; t++) {
                    o->alternatives(ti->inst, i, t, sc->yb);
                    found = !memcmp(sc->yb, sc->y, lb);
                }
                if (!found)
                    bad = "is none of the alternatives (which enumerate every y != y_i)";
            }
            if (bad) {
                chk_printf(why, "example %zu: random label %d %s", i, q, bad);
                show_label(more, T, ti, "y_i", sc->yt);
                chk_printf(more, "\n");
                show_label(more, T, ti, "random label", sc->y);
                chk_printf(more, "\n");
                if (memcmp(sc->y, sc->y2, lb)) {
                    show_label(more, T, ti, "drawn again", sc->y2);
                    chk_printf(more, "\n");
                }
                return 1;
            }
        }
    }

    if (draw == 0 && (T->props & P_ALTS) && o->alternatives) {
        size_t n = o->alternatives(ti->inst, i, 0, NULL);
        if (n < 1) {
            chk_printf(why, "example %zu has no alternatives (Y must hold a label other than "
                       "y_i)", i);
            return 1;
        }
        size_t lim = n < 512 ? n : 512;
        for (size_t t = 0; t < lim; t++) {
            size_t n2 = o->alternatives(ti->inst, i, t, sc->y);
            const char *bad = NULL;
            size_t dup = 0;
            if (n2 != n)
                bad = "changes the count when asked for a label";
            else if (!memcmp(sc->y, sc->yt, lb))
                bad = "is the truth";
            else
                for (size_t u = 0; u < t && !bad; u++) {
                    o->alternatives(ti->inst, i, u, sc->y2);
                    if (!memcmp(sc->y, sc->y2, lb))
                        bad = "repeats alternative", dup = u;
                }
            if (bad) {
                chk_printf(why, "example %zu: alternative %zu of %zu %s", i, t, n, bad);
                if (dup || !strcmp(bad, "repeats alternative"))
                    chk_printf(why, " %zu", dup);
                if (n2 != n)
                    chk_printf(why, " (%zu, then %zu)", n, n2);
                show_label(more, T, ti, "y_i", sc->yt);
                chk_printf(more, "\n");
                show_label(more, T, ti, "alternative", sc->y);
                chk_printf(more, "\n");
                return 1;
            }
        }
    }

    if (draw == 0 && (T->props & P_DPSI)) {
        for (size_t q = 0; q < nq; q++) {
            label_q(T, ti, cs, i, q, sc->y);
            label_name(nm, sizeof nm, q);
            struct bl_task_term probe[1 + CANARY];
            memset(probe, 0x5a, sizeof probe);
            size_t n = o->dpsi(ti->inst, i, sc->y, probe, 0);
            unsigned char pat[sizeof probe];
            memset(pat, 0x5a, sizeof pat);
            if (memcmp(probe, pat, sizeof probe)) {
                chk_printf(why, "example %zu, %s: dpsi with cap = 0 wrote a term", i, nm);
                return 1;
            }
            if (n > ((size_t)1 << 24)) {
                chk_printf(why, "example %zu, %s: dpsi says %zu terms", i, nm, n);
                return 1;
            }
            for (int room = 0; room < 2; room++) {
                size_t cap = room ? n : (n ? n - 1 : 0);
                if (!room && !n)
                    continue;
                struct bl_task_term *t = malloc((cap + CANARY) * sizeof *t);
                memset(t, 0x5a, (cap + CANARY) * sizeof *t);
                size_t n2 = o->dpsi(ti->inst, i, sc->y, t, cap);
                int over = 0;
                for (size_t j = 0; j < CANARY * sizeof *t; j++)
                    over |= ((unsigned char *)(t + cap))[j] != 0x5a;
                free(t);
                if (n2 != n || over) {
                    chk_printf(why, "example %zu, %s: dpsi with cap = %zu %s (%zu terms)", i, nm,
                               cap, over ? "wrote beyond cap" : "changed its count", n);
                    if (n2 != n)
                        chk_printf(why, ", then %zu", n2);
                    return 1;
                }
            }
            if (get_terms(T, ti, i, sc->y, &sc->ta, why) < 0) {
                show_label(more, T, ti, nm, sc->y);
                chk_printf(more, "\n");
                return 1;
            }
        }
    }

    if (draw == 0 && (T->props & P_DPSI_TRUTH)) {
        if (get_terms(T, ti, i, sc->yt, &sc->ta, why) < 0)
            return 1;
        for (size_t j = 0; j < sc->ta.n; j++) {
            const struct bl_task_term *a = &sc->ta.t[j];
            double sum = 0, tot = 0;
            int first = 1;
            for (size_t u = 0; u < sc->ta.n; u++) {
                const struct bl_task_term *b = &sc->ta.t[u];
                if (b->view == a->view && b->block == a->block && b->point == a->point) {
                    first &= u >= j;
                    sum += b->coef;
                    tot += fabs(b->coef);
                }
            }
            if (first && fabs(sum) > 1e-12 * tot) {
                chk_printf(why, "example %zu: dpsi(i, y_i) does not cancel: its coefficients on "
                           "view %u, point %zu, block %u sum to %g (psi(x_i, y_i) - psi(x_i, "
                           "y_i) is 0)", i, a->view, a->point, a->block, sum);
                show_label(more, T, ti, "y_i", sc->yt);
                chk_printf(more, "\n");
                show_terms(more, ti, "y_i", &sc->ta);
                return 1;
            }
        }
    }

    if (T->props & (P_ARGMAX_HINGE | P_ARGMAX_MAX)) {
        memset(sc->yb, 0, lb);
        double h = o->argmax_aug(ti->inst, i, S, sc->yb);
        if (get_terms(T, ti, i, sc->yb, &sc->tb, why) < 0)
            return 1;
        double sb, gb = gap(ti, &sc->tb, &sb);
        double Lb = o->loss(ti->inst, i, sc->yb);
        double hb = Lb - gb;
        if (T->props & P_ARGMAX_HINGE) {
            const char *bad = NULL;
            if (!isfinite(h))
                bad = "is not finite";
            else if (h < 0)
                bad = "is negative (y_i is a candidate, with hinge 0)";
            else if (!tol_ok(h, hb, sb + fabs(Lb)))
                bad = "is not Delta(y_i, ybar) + F(x_i, ybar) - F(x_i, y_i) recomputed from "
                      "loss and dpsi";
            if (bad) {
                chk_printf(why, "example %zu: argmax_aug returned h = ", i);
                chk_num(why, h);
                chk_printf(why, ", which %s", bad);
                if (isfinite(h) && h >= 0) {
                    chk_printf(why, " (Delta(y_i, ybar) - dpsi(ybar) . S = ");
                    chk_num(why, Lb);
                    chk_printf(why, gb < 0 ? " - (" : " - ");
                    chk_num(why, gb);
                    chk_printf(why, gb < 0 ? ") = " : " = ");
                    chk_num(why, hb);
                    chk_printf(why, ")");
                }
                show_label(more, T, ti, "y_i", sc->yt);
                chk_printf(more, "\n");
                show_label(more, T, ti, "ybar", sc->yb);
                chk_printf(more, "\n");
                show_terms(more, ti, "ybar", &sc->tb);
                show_scores(more, ti, &sc->tb, NULL);
                return 1;
            }
        }
        if (T->props & P_ARGMAX_MAX) {
            int in_set = na == 0, worse = 0;
            double best = -INFINITY;
            size_t bq = 0;
            if (!memcmp(sc->yb, sc->yt, lb))
                in_set = 1;
            for (size_t q = RANDOMS + 1; q < nq && !in_set; q++) {
                label_q(T, ti, cs, i, q, sc->y);
                in_set = !memcmp(sc->y, sc->yb, lb);
            }
            for (size_t q = 0; q < nq; q++) {
                label_q(T, ti, cs, i, q, sc->y);
                if (get_terms(T, ti, i, sc->y, &sc->ta, why) < 0)
                    return 1;
                double s, g = gap(ti, &sc->ta, &s);
                double L = o->loss(ti->inst, i, sc->y), hq = L - g;
                if (hq > best)
                    best = hq, bq = q;
                if (hq > h && !tol_ok(h, hq, s + sb + fabs(L) + fabs(Lb))) {
                    worse = 1;
                    bq = q, best = hq;
                    break;
                }
            }
            if (worse || !in_set || (na && !tol_ok(h, best, sb + fabs(Lb)))) {
                label_name(nm, sizeof nm, bq);
                chk_printf(why, "example %zu: argmax_aug returned h = ", i);
                chk_num(why, h);
                if (!worse && !in_set)
                    chk_printf(why, " for a ybar that is neither y_i nor one of its %zu "
                               "alternatives", na);
                else {
                    chk_printf(why, ", but %s %s the hinge Delta - dpsi . S = ", nm,
                               worse ? "is more violated, with" : "(brute force over the "
                               "alternatives) is the maximum, with");
                    chk_num(why, best);
                }
                show_label(more, T, ti, "y_i", sc->yt);
                chk_printf(more, "\n");
                show_label(more, T, ti, "ybar", sc->yb);
                chk_printf(more, "\n");
                show_terms(more, ti, "ybar", &sc->tb);
                if (worse || in_set) {
                    label_q(T, ti, cs, i, bq, sc->y);
                    get_terms(T, ti, i, sc->y, &sc->ta, why);
                    show_label(more, T, ti, nm, sc->y);
                    chk_printf(more, "\n");
                    show_terms(more, ti, nm, &sc->ta);
                }
                show_scores(more, ti, &sc->tb, worse || in_set ? &sc->ta : NULL);
                return 1;
            }
        }
    }

    if (T->props & P_PREDICT) {
        memset(sc->yb, 0, lb);
        o->predict(ti->inst, i, S, sc->yb);
        if (get_terms(T, ti, i, sc->yb, &sc->tb, why) < 0)
            return 1;
        double sp, gp = gap(ti, &sc->tb, &sp);
        int in_set = na == 0 || !memcmp(sc->yb, sc->yt, lb);
        for (size_t q = 0; q < nq; q++) {
            label_q(T, ti, cs, i, q, sc->y);
            if (q > RANDOMS && !memcmp(sc->y, sc->yb, lb))
                in_set = 1;
            if (get_terms(T, ti, i, sc->y, &sc->ta, why) < 0)
                return 1;
            double s, g = gap(ti, &sc->ta, &s);
            if (g < gp && !tol_ok(g, gp, s + sp)) {
                label_name(nm, sizeof nm, q);
                chk_printf(why, "example %zu: predict gives a label with F(x_i, pred) - F(x_i, "
                           "y_i) = ", i);
                chk_num(why, -gp);
                chk_printf(why, ", but %s has ", nm);
                chk_num(why, -g);
                chk_printf(why, " (predict must maximise F)");
                show_label(more, T, ti, "y_i", sc->yt);
                chk_printf(more, "\n");
                show_label(more, T, ti, "pred", sc->yb);
                chk_printf(more, "\n");
                show_terms(more, ti, "pred", &sc->tb);
                show_label(more, T, ti, nm, sc->y);
                chk_printf(more, "\n");
                show_terms(more, ti, nm, &sc->ta);
                show_scores(more, ti, &sc->tb, &sc->ta);
                return 1;
            }
        }
        if (!in_set) {
            chk_printf(why, "example %zu: predict gives a label that is neither y_i nor one of "
                       "its %zu alternatives", i, na);
            show_label(more, T, ti, "pred", sc->yb);
            chk_printf(more, "\n");
            return 1;
        }
    }
    return 0;
}

/* ---- the properties, on the whole instance ---------------------------------------- */

static int check_evaluate(struct tst *T, struct tinst *ti, int draw, chk_buf *why)
{
    const struct bl_task_ops *o = T->ops;
    unsigned char *pred = calloc(ti->m, ti->lb);
    size_t nm = ti->nmetrics;
    double *val = malloc((nm + CANARY) * sizeof *val);
    for (size_t j = 0; j < nm + CANARY; j++)
        val[j] = -12345.0;
    for (size_t i = 0; i < ti->m; i++)
        o->predict(ti->inst, i, (const double *const *)ti->S, pred + i * ti->lb);
    o->evaluate(ti->inst, (const double *const *)ti->S, pred, val);
    int fail = 0;
    for (size_t j = nm; j < nm + CANARY; j++)
        if (val[j] != -12345.0) {
            chk_printf(why, "evaluate wrote past its %zu metric values (\"%s\")", nm, o->metrics);
            fail = 1;
            break;
        }
    for (size_t j = 0; j < nm && !fail; j++)
        if (!isfinite(val[j])) {
            chk_printf(why, "evaluate gave metric %zu of \"%s\" = %g on the predictions of "
                       "score draw %d", j, o->metrics, val[j], draw);
            fail = 1;
        }
    free(pred), free(val);
    return fail;
}

static int check_classes(struct tst *T, const struct tcase *cs, struct tinst *ti, chk_buf *why,
                         chk_buf *more)
{
    const struct bl_task_ops *o = T->ops;
    if (ti->lb != sizeof(int32_t) || ti->m != cs->m) {
        chk_printf(why, "label_is_class is set, but labels are %zu bytes (int32: 4) and there "
                   "are %zu examples for %zu rows (one per row)", ti->lb, ti->m, cs->m);
        return 1;
    }
    int32_t *p = malloc(cs->m * sizeof *p);
    size_t nm = ti->nmetrics;
    double *v0 = malloc((nm + CANARY) * sizeof *v0), *v1 = malloc((nm + CANARY) * sizeof *v1);
    int fail = 0;
    for (size_t i = 0; i < cs->m && !fail; i++) {
        int32_t t;
        o->truth(ti->inst, i, &t);
        if (t != cs->y[i]) {
            chk_printf(why, "example %zu: label_is_class is set, but its truth is %d, not the "
                       "row's class %d", i, (int)t, cs->y[i]);
            fail = 1;
        }
        p[i] = t;
    }
    for (int pass = 0; pass < 2 && !fail; pass++) {
        double *v = pass ? v1 : v0;
        if (pass) { /* every prediction wrong */
            chk_rng r;
            chk_rng_seed(&r, bl_mix64(cs->seed + 77));
            for (size_t i = 0; i < cs->m; i++)
                p[i] = (int32_t)((cs->y[i] + 1 + (int)chk_below(&r, cs->k - 1)) % (int)cs->k);
        }
        for (size_t j = 0; j < nm + CANARY; j++)
            v[j] = -12345.0;
        o->evaluate(ti->inst, NULL, p, v);
        for (size_t j = nm; j < nm + CANARY && !fail; j++)
            if (v[j] != -12345.0) {
                chk_printf(why, "evaluate (S = NULL) wrote past its %zu metric values", nm);
                fail = 1;
            }
        for (size_t j = 0; j < nm && !fail; j++)
            if (j == 0 ? !isfinite(v[j]) : isinf(v[j])) {
                chk_printf(why, "evaluate with S = NULL and %s class predictions gave metric %zu "
                           "of \"%s\" = %g (a label_is_class task scores other algorithms' "
                           "classes)", pass ? "wrong" : "the true", j, o->metrics, v[j]);
                fail = 1;
            }
    }
    if (!fail && v0[0] > v1[0]) {
        chk_printf(why, "the primary metric (an error: lower is better) is %g for the true "
                   "classes but %g when every prediction is wrong", v0[0], v1[0]);
        chk_ivec(more, "wrong predictions", (const int *)p, cs->m);
        chk_printf(more, "\n");
        fail = 1;
    }
    free(p), free(v0), free(v1);
    return fail;
}

static int check_format(struct tst *T, const struct tcase *cs, struct tinst *ti, size_t i,
                        struct scratch *sc, chk_buf *why)
{
    const struct bl_task_ops *o = T->ops;
    size_t na = n_alts(T, ti, i), nq = 1 + RANDOMS + (na < 8 ? na : 8);
    char buf[FMT_MAX + 1 + CANARY], nm[64];
    for (size_t q = 0; q < nq; q++) {
        label_q(T, ti, cs, i, q, sc->y);
        label_name(nm, sizeof nm, q);
        memset(buf, 0x5a, sizeof buf);
        int n = o->format_label(ti->inst, sc->y, buf, FMT_MAX + 1);
        const char *bad = NULL;
        if (n < 1 || n > FMT_MAX)
            bad = "a length outside 1 .. 1000";
        else if (strlen(buf) != (size_t)n)
            bad = "a length other than what it wrote";
        else
            for (int j = 0; j < n && !bad; j++)
                if ((unsigned char)buf[j] < 0x20 || buf[j] == 0x7f)
                    bad = "a control character (a label is one field of a prediction file)";
        for (size_t j = FMT_MAX + 1; j < sizeof buf && !bad; j++)
            if (buf[j] != 0x5a)
                bad = "writing beyond cap";
        if (!bad && n >= 3) { /* cut short: like snprintf */
            char small[3 + CANARY];
            memset(small, 0x5a, sizeof small);
            int n2 = o->format_label(ti->inst, sc->y, small, 3);
            int over = 0;
            for (size_t j = 3; j < sizeof small; j++)
                over |= small[j] != 0x5a;
            if (n2 != n || over || small[2] != 0 || memcmp(small, buf, 2))
                bad = "with cap = 3, not snprintf's answer (the same length returned, 2 "
                      "characters and a NUL written, nothing beyond)";
        }
        if (!bad) {
            char z[CANARY];
            memset(z, 0x5a, sizeof z);
            int n0 = o->format_label(ti->inst, sc->y, z, 0);
            int touched = 0;
            for (size_t j = 0; j < sizeof z; j++)
                touched |= z[j] != 0x5a;
            if (n0 != n || touched)
                bad = "with cap = 0, not snprintf's answer (nothing written, the length "
                      "returned)";
        }
        if (bad) {
            chk_printf(why, "example %zu, %s: format_label returned %d, %s", i, nm, n, bad);
            if (n >= 1 && n <= FMT_MAX)
                chk_printf(why, ": \"%.*s\"", n < 80 ? n : 80, buf);
            return 1;
        }
    }
    return 0;
}

/* Everything a second instance and the same calls again must reproduce. */
static void fingerprint(const struct tst *T, const struct tcase *cs, struct tinst *ti,
                        chk_buf *b, struct scratch *sc)
{
    const struct bl_task_ops *o = T->ops;
    const double *const *S = (const double *const *)ti->S;
    chk_printf(b, "m=%zu lb=%zu nv=%zu", ti->m, ti->lb, ti->nv);
    for (size_t v = 0; v < ti->nv; v++)
        chk_printf(b, " view %zu: %zu x %zu, %zu blocks", v, ti->views[v].points.m,
                   ti->views[v].points.d, ti->views[v].blocks);
    for (size_t i = 0; i < ti->m; i++) {
        size_t na = n_alts(T, ti, i), nq = 1 + RANDOMS + (na < 8 ? na : 8);
        for (size_t q = 0; q < nq; q++) {
            label_q(T, ti, cs, i, q, sc->y);
            double L = o->loss(ti->inst, i, sc->y);
            struct bl_task_term t[64];
            size_t n = o->dpsi(ti->inst, i, sc->y, t, 64);
            chk_printf(b, "|%zu.%zu:", i, q);
            for (size_t j = 0; j < ti->lb; j++)
                chk_printf(b, "%02x", sc->y[j]);
            chk_printf(b, " %a %zu", L, n);
            for (size_t j = 0; j < n && j < 64; j++)
                chk_printf(b, " %u,%u,%zu,%a", t[j].view, t[j].block, t[j].point, t[j].coef);
        }
        double h = o->argmax_aug(ti->inst, i, S, sc->yb);
        o->predict(ti->inst, i, S, sc->yb2);
        chk_printf(b, " h=%a ", h);
        for (size_t j = 0; j < ti->lb; j++)
            chk_printf(b, "%02x", sc->yb[j]);
        chk_printf(b, " p=");
        for (size_t j = 0; j < ti->lb; j++)
            chk_printf(b, "%02x", sc->yb2[j]);
    }
    unsigned char *pred = calloc(ti->m, ti->lb);
    double *val = malloc(ti->nmetrics * sizeof *val);
    for (size_t i = 0; i < ti->m; i++)
        o->predict(ti->inst, i, S, pred + i * ti->lb);
    o->evaluate(ti->inst, S, pred, val);
    for (size_t j = 0; j < ti->nmetrics; j++)
        chk_printf(b, " %a", val[j]);
    free(pred), free(val);
}

/* Run the properties of T->props on data set cs: 1 on a failure (why,
 * more), 0 otherwise (also when open refused it, counted in T). */
static int run_case(struct tst *T, const struct tcase *cs, chk_buf *why, chk_buf *more)
{
    struct tinst ti, t2;
    memset(&t2, 0, sizeof t2);
    T->cases++;
    int r = ti_open(T, cs, &ti, why);
    if (r <= 0) {
        ti_close(T, &ti);
        return r < 0;
    }
    int fail = 0;
    struct scratch sc;
    memset(&sc, 0, sizeof sc);
    sc.yt = calloc(5, ti.lb);
    sc.y = sc.yt + ti.lb, sc.y2 = sc.y + ti.lb, sc.yb = sc.y2 + ti.lb, sc.yb2 = sc.yb + ti.lb;
    if (T->props & P_OPEN) {
        const char *m = T->ops->metrics;
        if (strstr(m, ",,") || m[0] == ',' || m[strlen(m) - 1] == ',' || strpbrk(m, " \t\n")) {
            chk_printf(why, "metrics \"%s\" is not a comma-separated list of names", m);
            fail = 1;
        }
        if (!fail) {
            r = ti_open(T, cs, &t2, why); /* two at once */
            T->examples -= t2.m;
            if (r < 0)
                fail = 1;
            else if (r == 0) {
                chk_printf(why, "a second instance on the same data was refused: %s", T->refusal);
                fail = 1;
            }
        }
    }
    for (int draw = 0; draw < DRAWS && !fail; draw++) {
        ti_scores(&ti, cs->seed, draw);
        for (size_t i = 0; i < ti.m && !fail; i++) {
            fail = check_example(T, cs, &ti, i, draw, &sc, why, more);
            if (!fail && draw == 0 && (T->props & P_FORMAT))
                fail = check_format(T, cs, &ti, i, &sc, why);
        }
        if (!fail && (T->props & P_EVALUATE))
            fail = check_evaluate(T, &ti, draw, why);
    }
    if (!fail && (T->props & P_CLASSES) && T->ops->label_is_class)
        fail = check_classes(T, cs, &ti, why, more);
    if (!fail && (T->props & P_DETERMINISM)) {
        ti_close(T, &t2);
        r = ti_open(T, cs, &t2, why);
        T->examples -= t2.m;
        if (r <= 0) {
            if (r == 0)
                chk_printf(why, "a second instance on the same data was refused: %s",
                           T->refusal);
            fail = 1;
        }
        for (int draw = 0; draw < DRAWS && !fail; draw++) {
            chk_buf a = {0}, b = {0}, c2 = {0};
            ti_scores(&ti, cs->seed, draw);
            ti_scores(&t2, cs->seed, draw);
            fingerprint(T, cs, &ti, &a, &sc);
            fingerprint(T, cs, &ti, &b, &sc);
            if (t2.nv == ti.nv)
                fingerprint(T, cs, &t2, &c2, &sc);
            int same1 = !strcmp(chk_str(&a), chk_str(&b));
            int same2 = !strcmp(chk_str(&a), chk_str(&c2));
            if (!same1 || !same2) {
                const char *x = chk_str(&a), *y = same1 ? chk_str(&c2) : chk_str(&b);
                size_t at = 0;
                while (x[at] && x[at] == y[at])
                    at++;
                size_t from = at > 60 ? at - 60 : 0;
                chk_printf(why, "%s gave different answers for the same data and scores (draw "
                           "%d)", same1 ? "a second instance" : "the same calls made again",
                           draw);
                chk_printf(more, "first:  ...%.120s\nsecond: ...%.120s\n(loss, dpsi terms, "
                           "argmax_aug's h and ybar, predict, evaluate; in hex)\n", x + from,
                           y + from);
                fail = 1;
            }
            chk_buf_free(&a), chk_buf_free(&b), chk_buf_free(&c2);
        }
    }
    free(sc.yt), free(sc.ta.t), free(sc.tb.t);
    ti_close(T, &t2);
    ti_close(T, &ti);
    return fail;
}

/* ---- search, shrink, report ------------------------------------------------------- */

static void describe(chk_buf *b, const void *p)
{
    const struct tcase *cs = p;
    chk_printf(b, "k=%zu rows=%zu d=%zu\n", cs->k, cs->m, cs->d);
    chk_ivec(b, "y", cs->y, cs->m);
    chk_printf(b, "\n");
    if (cs->m * cs->d <= 60) {
        double *x = malloc(cs->m * cs->d * sizeof *x);
        for (size_t i = 0; i < cs->m; i++)
            for (size_t f = 0; f < cs->d; f++)
                x[i * cs->d + f] = cs->x[f * cs->m + i];
        chk_mat(b, "x", x, cs->m, cs->d);
        chk_printf(b, "\n");
        free(x);
    }
}

static int try_case(chk_ctx *c, struct tst *T, struct tcase *cs, size_t k, size_t m,
                    uint64_t seed, chk_buf *why, chk_buf *more)
{
    chk_clear(why);
    chk_clear(more);
    tc_gen(cs, T, k, m, seed);
    chk_case(c, "k=%zu rows=%zu seed=%#llx", k, m, (unsigned long long)seed);
    return run_case(T, cs, why, more);
}

/* The smallest k (then number of rows) that still fails, same seed. */
static void shrink(chk_ctx *c, void *state, void *p)
{
    struct tst *T = state;
    struct tcase *cs = p;
    chk_buf why = {0}, more = {0};
    size_t k0 = cs->k, m0 = cs->m;
    uint64_t seed = cs->seed;
    for (size_t k2 = T->names ? k0 : 2; k2 <= k0; k2++) {
        int found = 0;
        for (size_t m2 = k2; m2 <= m0 && !found; m2++) {
            struct tcase cand;
            if (try_case(c, T, &cand, k2, m2, seed, &why, &more)) {
                tc_free(cs);
                *cs = cand;
                found = 1;
            } else {
                tc_free(&cand);
            }
        }
        if (found || k2 == k0)
            break;
    }
    chk_buf_free(&why);
    chk_buf_free(&more);
}

static int run(void *state, void *cs, chk_buf *why, chk_buf *more)
{
    return run_case(state, cs, why, more);
}

static const chk_case_ops case_ops = {run, shrink, describe};

/* "; parameter NAME is empty: give it with -p NAME=VALUE" for the string
 * parameters left empty (likely the reason every data set was refused). */
static void empty_hint(chk_buf *b, const struct bl_plugin *p, const union bl_value *v)
{
    for (size_t j = 0; j < p->nparams; j++)
        if (p->params[j].type == BL_PARAM_STRING && (!v[j].s || !v[j].s[0]))
            chk_printf(b, "; parameter %s is empty: give it with -p %s=VALUE", p->params[j].name,
                       p->params[j].name);
}

static enum chk_status search(chk_ctx *c, const union bl_value *v, int props,
                              const char *prefix, int quick, struct tst *out)
{
    struct tst T;
    memset(&T, 0, sizeof T);
    T.p = c->p, T.ops = c->p->ops, T.host = c->host, T.v = v, T.props = props;
    T.names = c->class_names, T.nnames = c->nclasses;
    T.data = c->data;
    chk_buf why = {0}, more = {0};
    uint64_t idx = 0;
    int fail = 0;
    int trials = quick ? 1 : c->trials;
    size_t one_k[1] = {c->nclasses};
    const size_t *kl = T.names ? one_k : ks;
    size_t nk = T.names ? 1 : NEL(ks);
    for (int t = 0; t < trials && !fail; t++)
        for (size_t a = 0; a < nk && !fail; a++)
            for (int s = 0; s < (quick ? 1 : 3) && !fail; s++) {
                size_t k = kl[a];
                size_t m = s == 0 ? 16 + k : s == 1 ? k + 2 : 36 + k;
                struct tcase cs;
                uint64_t seed = chk_seed(c, "task", idx++);
                if (try_case(c, &T, &cs, k, m, seed, &why, &more)) {
                    struct tcase orig;
                    char seen[64];
                    tc_gen(&orig, &T, k, m, seed);
                    snprintf(seen, sizeof seen, "k=%zu rows=%zu", k, m);
                    chk_shrink_report(c, &case_ops, &T, &cs, &orig, prefix, seen, seed, &why,
                                      &more);
                    tc_free(&orig);
                    fail = 1;
                }
                tc_free(&cs);
            }
    chk_buf_free(&why);
    chk_buf_free(&more);
    if (out)
        *out = T;
    return fail ? CHK_FAIL : CHK_PASS;
}

static void ks_text(chk_buf *b, const chk_ctx *c)
{
    if (c->data)
        chk_printf(b, "k = %zu, rows of --data", c->nclasses);
    else if (c->class_names)
        chk_printf(b, "k = %zu (--classes)", c->nclasses);
    else
        chk_printf(b, "k = 2 .. 5");
}

/* The check of the properties c->def->prop (its pass: c->def->pass). */
static enum chk_status prop_check(chk_ctx *c)
{
    const struct bl_task_ops *o = c->p->ops;
    int props = c->def->prop;
    if (props == P_ALTS && !o->alternatives) {
        chk_detail(c, "alternatives is NULL: Y is not enumerable (no m-slack master, no brute "
                   "force)");
        return CHK_SKIP;
    }
    if (props == P_CLASSES && !o->label_is_class) {
        chk_detail(c, "label_is_class is 0: the task does not score class predictions");
        return CHK_SKIP;
    }
    struct tst T;
    enum chk_status st = search(c, c->v, props, "", 0, &T);
    if (st == CHK_PASS && T.refused == T.cases) {
        if (props == P_OPEN) {
            chk_detail(c, "open refused every data set tried (");
            ks_text(&c->detail, c);
            chk_printf(&c->detail, ", %zu of them), e.g. %s", T.cases, T.refusal);
            empty_hint(&c->detail, c->p, c->v);
            return CHK_FAIL;
        }
        chk_detail(c, "not run: open refused every data set (see task/open)");
        return CHK_SKIP;
    }
    if (st == CHK_PASS) {
        chk_detail(c, "%s (", c->def->pass);
        ks_text(&c->detail, c);
        chk_printf(&c->detail, ", %zu data sets", T.cases);
        if (T.refused)
            chk_printf(&c->detail, "; %zu refused with a message, e.g. %s", T.refused, T.refusal);
        chk_printf(&c->detail, ")");
    }
    chk_printf(&c->info, "%zu data sets, %zu examples", T.cases, T.examples);
    return st;
}

static enum chk_status params_variant(chk_ctx *c, const chk_variant *var, const char *prefix)
{
    struct tst T;
    enum chk_status st = search(c, var->v, P_SMOKE, prefix, 1, &T);
    if (st == CHK_PASS && T.refused == T.cases)
        chk_printf(&c->info, "%s: refused every data set, e.g. %s\n", var->label, T.refusal);
    return st;
}

static enum chk_status check_params(chk_ctx *c)
{
    return chk_params(c, params_variant, "opened (or refused with a message) and the task's "
                      "properties hold");
}

const chk_def chk_task_checks[] = {
    {"open", prop_check, P_OPEN, "two instances at once, with examples, labels, views and "
     "metric names"},
    {"params", check_params, 0, NULL},
    {"loss-zero", prop_check, P_LOSS_ZERO, "Delta(y_i, y_i) = 0 for every example"},
    {"loss-range", prop_check, P_LOSS_RANGE, "Delta(y_i, y) is finite and >= 0 for random "
     "labels and alternatives"},
    {"random-label", prop_check, P_RANDOM, "random_label never gives y_i, gives one of the "
     "alternatives, the same for the same random numbers"},
    {"alternatives", prop_check, P_ALTS, "at least one alternative per example, none the "
     "truth, no two the same"},
    {"dpsi", prop_check, P_DPSI, "dpsi returns its count whatever cap, writes nothing beyond "
     "cap, and its terms lie in the views"},
    {"dpsi-truth", prop_check, P_DPSI_TRUTH, "dpsi(i, y_i) has zero net effect"},
    {"argmax-hinge", prop_check, P_ARGMAX_HINGE, "argmax_aug's h >= 0 equals Delta(y_i, ybar) "
     "+ F(x_i, ybar) - F(x_i, y_i) recomputed from loss and dpsi"},
    {"argmax-max", prop_check, P_ARGMAX_MAX, "h is at least the hinge of random labels, and "
     "the brute-force maximum over the alternatives"},
    {"predict", prop_check, P_PREDICT, "predict maximises F over the truth, random labels and "
     "the alternatives"},
    {"evaluate", prop_check, P_EVALUATE, "evaluate writes one finite value per metric, nothing "
     "beyond"},
    {"class-labels", prop_check, P_CLASSES, "int32 labels, truth = the row's class, evaluate "
     "with S = NULL scores class predictions"},
    {"determinism", prop_check, P_DETERMINISM, "a second instance and the same calls again "
     "give bitwise the same answers"},
    {"format-label", prop_check, P_FORMAT, "format_label works like snprintf, 1 .. 1000 "
     "characters, no control characters"},
};
const size_t chk_task_count = sizeof chk_task_checks / sizeof chk_task_checks[0];

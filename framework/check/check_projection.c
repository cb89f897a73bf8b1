/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * check-plugin, random-projection role (projection.h, docs/sdk.md "Random
 * projections"), for class counts k = 1, 2, 3, 10, 50 and several seeds (the first case of a check uses seed 0, the others seeds
 * derived from --seed):
 *
 *   create       instances for every k and the seeds 0, 1, 2^64 - 1 and a
 *                random one, two at once; a refusal carries a message, and
 *                not every k is refused
 *   params       every declared parameter at its bounds / choices: created
 *                for some k (or refused with a message) and its columns
 *                well formed.  A value whose dim() is above DIM_CAP (100000
 *                rows, e.g. n = 1e7) is created but its columns are not
 *                computed: the report names it
 *   shape        dim() >= 1, and column(c, j) writes exactly col[0 .. n-1]:
 *                every one of them (the buffer is filled with two different
 *                patterns before two calls, and a row that keeps both was
 *                left unwritten) and nothing before or after (guards)
 *   entries      every entry is finite
 *   determinism  two fresh instances, the same parameters, k and seed:
 *                bitwise the same columns
 *   order        a column depends only on (params, seed, c, j): the columns
 *                asked for in ascending order equal those asked for in
 *                descending order, interleaved across classes with far
 *                columns (j + 1000003) in between and every column twice,
 *                and alone from a fresh instance
 *   threads      two threads asking one instance for the columns at once
 *                (pthreads, opposite orders, several rounds) get the serial
 *                columns
 *   distinct     seeds s and s + 1 (and another seed) give different
 *                matrices, so do classes c and c + 1, and columns j and
 *                j + 1; and the streams do not collide: (c, j + 1) is not
 *                (c + 1, j), seed s + 1's column j is not seed s's column
 *                j + 1, nor its class c seed s's class c + 1.  Each relation
 *                fails only when it holds for every pair tried (together at
 *                least 4096 entries), so that discrete entries (+-1/sqrt(n),
 *                0), which agree by chance, never fail it
 *   scale        the RandomBoost contract (randomboost spec §1.1; the
 *                Johnson-Lindenstrauss scaling its theorems use): entries
 *                have mean 0 and variance 1/n.  Over U = max(64, 2^18 / n)
 *                columns u (class u mod k, column u div k), so at least 2^18
 *                entries, with x = sqrt(n) P (unit variance when the plugin
 *                is right), the per-column means A_u and mean squares
 *                B_u = ||P[:, u]||^2 must satisfy
 *                  mean      |mean A| <= 6 max(sd(A) / sqrt(U), 1 / sqrt(U n))
 *                  variance  |mean B - 1| <= max(0.10, 6 sd(B) / sqrt(U))
 *                The standard errors come from the columns, which are
 *                independent, so dependence between a column's rows widens
 *                them instead of failing an honest plugin (the floor
 *                1 / sqrt(U n) is the standard error of independent entries,
 *                for a plugin whose column means do not vary).  At 6 standard
 *                errors a right plugin fails with probability about 2e-9 per
 *                test (normal approximation of a mean of >= 64 independent
 *                columns of >= 2^18 entries in all).  A Gaussian plugin at
 *                n = 1000 has sd(B) / sqrt(U) ~ 0.003, so there the 10% bound
 *                is what holds: a variance off by 10% or more fails; only a
 *                plugin with very heavy-tailed entries widens it
 *   norm         approximate norm preservation, the reason for the scaling.
 *                B blocks of 50 columns (block b: class b mod k, columns
 *                50 (b div k) .. + 49), B = 2^20 / (50 n) clamped to 1 .. 256,
 *                are independent n x 50 matrices P_b; for R random unit
 *                vectors x in R^50 (R = 128, more when B < 16: 2048 / B),
 *                q = ||P_b x||^2 must
 *                  average 1 = ||x||^2, within max(0.10, 6 s), where
 *                    s^2 = [(kappa - 1) sum_j Xb_jj^2 + 2 sum_{j != l} Xb_jl^2]
 *                          / (n B)
 *                    is its variance for independent entries of variance
 *                    1/n and kurtosis kappa (measured on the entries), given
 *                    the x (Xb = mean_x x x^T);
 *                  spread no more than independent entries make it:
 *                    mean (q - 1)^2 <= 2 D,  D = V^2 mean_x [2 + (kappa - 3)
 *                    sum_j x_j^4] / n + (V - 1)^2, its expectation for them
 *                    (V = n mean P^2 over the blocks).  Columns that are
 *                    strongly correlated (P x concentrated on few directions)
 *                    fail it.  For the in-tree gaussian plugin (each of its
 *                    three distributions at n = 1 .. 20000, 150 instances
 *                    each) the ratio stayed below 1.1 for n <= 1000 and
 *                    below 1.2 above (and the mean test below 4 standard
 *                    errors).
 *
 * A failing case is shrunk to the smallest k, then the smallest n (when a
 * parameter sets dim(): an INT parameter whose value is dim() and which
 * dim() follows), then the fewest columns that still fail, with the same
 * seed; the report names the class, column and row where columns differ.
 * Work per case is bounded (about 2^20 entries per instance, dim() above
 * DIM_CAP not computed): the contract takes under a second at n = 1000,
 * and about 15 s at the cap, n = 1e5.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../util/rng.h"
#include "check.h"

#define DIM_CAP 100000               /* rows this checker computes at most       */
#define CANARY 16                    /* guard doubles before and after a column  */
#define BUDGET ((size_t)1 << 20)     /* entries per instance in structural checks */
#define COLS 8                       /* columns 0..COLS-1 per class by default    */
#define FAR 1000003                  /* a far column, asked for in between        */
#define DISTINCT_ENTRIES 4096        /* entries compared per relation, at least   */
#define SCALE_ENTRIES ((size_t)1 << 18)
#define SCALE_MIN_COLS 64
#define NORM_D 50
#define NORM_X 128
#define NORM_BUDGET ((size_t)1 << 20) /* entries of the norm check's blocks */
#define NORM_BLOCKS 256
#define NORM_SPREAD 2.0
#define ZSCORE 6.0
#define VAR_TOL 0.10
#define THREAD_ENTRIES ((size_t)1 << 18) /* per thread */

static const size_t ks[] = {1, 2, 3, 10, 50};
#define NEL(a) (sizeof(a) / sizeof((a)[0]))

enum { P_SHAPE, P_ENTRIES, P_DETERMINISM, P_ORDER, P_THREADS, P_DISTINCT, P_SCALE, P_NORM,
       P_SMOKE };

/* The state of one check's search. */
struct pst {
    const struct bl_plugin *p;
    const struct bl_projection_ops *ops;
    const struct bl_host *host;
    const union bl_value *v;  /* the values every instance starts from */
    union bl_value *vv;       /* v with the dimension parameter set     */
    int prop;
    long dimp;                /* the parameter that sets dim(), or -1   */
    size_t cases, refused, large;
    size_t n_large, n_seen;   /* a dim() above DIM_CAP; the last dim()  */
    int no_threads;
    char refusal[BL_ERR_MAX];
    /* scale and norm: the extremes seen, for the pass detail */
    double vmin, vmax, zmax, qmin, qmax, dmax;
};

struct pcase {
    size_t k;
    int64_t nval;             /* the dimension parameter's value (dimp >= 0) */
    size_t cols;              /* columns 0..cols-1 (0: the property decides)  */
    uint64_t seed;
};

/* ---- instances and columns ------------------------------------------------ */

static const union bl_value *values(struct pst *S, const struct pcase *cs)
{
    if (!S->p->nparams)
        return NULL;
    memcpy(S->vv, S->v, S->p->nparams * sizeof *S->vv);
    if (S->dimp >= 0)
        S->vv[S->dimp].i = cs->nval;
    return S->vv;
}

/* 0: *P is an instance of dim() *n; 1: a failure (why); 2: refused with a
 * message, or too many rows to compute (counted, not a failure). */
static int open_case(struct pst *S, const struct pcase *cs, uint64_t seed, void **P, size_t *n,
                     chk_buf *why)
{
    char err[BL_ERR_MAX] = "";
    *P = S->ops->create(S->host, values(S, cs), cs->k, seed, err);
    if (!*P) {
        if (!err[0]) {
            chk_printf(why, "create refused k = %zu without a message", cs->k);
            return 1;
        }
        if (!S->refused++)
            snprintf(S->refusal, sizeof S->refusal, "k = %zu: %.90s%s", cs->k, err,
                     strlen(err) > 90 ? "..." : "");
        return 2;
    }
    *n = S->ops->dim(*P);
    if (*n < 1) {
        chk_printf(why, "dim() is 0 for k = %zu: every matrix needs at least one row", cs->k);
        S->ops->destroy(*P);
        *P = NULL;
        return 1;
    }
    S->n_seen = *n;
    if (*n > DIM_CAP) {
        S->large++;
        S->n_large = *n;
        S->ops->destroy(*P);
        *P = NULL;
        return 2;
    }
    return 0;
}

/* Another instance like the case's, with seed `seed`, of the same dim() n:
 * 0, or 1 with why set.  (Not counted among the cases.) */
static int open_second(struct pst *S, const struct pcase *cs, uint64_t seed, size_t n, void **Q,
                       chk_buf *why)
{
    char err[BL_ERR_MAX] = "";
    *Q = S->ops->create(S->host, values(S, cs), cs->k, seed, err);
    if (!*Q) {
        chk_printf(why, "another instance for k = %zu (seed %#llx) could not be created, where "
                   "one with seed %#llx was: %s", cs->k, (unsigned long long)seed,
                   (unsigned long long)cs->seed, err[0] ? err : "(no message)");
        return 1;
    }
    size_t n2 = S->ops->dim(*Q);
    if (n2 != n) {
        chk_printf(why, "instances with the same parameters and k = %zu have dim() %zu (seed "
                   "%#llx) and %zu (seed %#llx)", cs->k, n, (unsigned long long)cs->seed, n2,
                   (unsigned long long)seed);
        S->ops->destroy(*Q);
        *Q = NULL;
        return 1;
    }
    return 0;
}

/* A column buffer with guards on both sides. */
struct colbuf {
    double *raw, *col;
    size_t n;
};

static const uint64_t GUARD_BITS = 0x7ff4dead5eedbeefull; /* a NaN with a payload */
static const double FILL_A = -12345.678, FILL_B = 98765.4321;

static void cb_init(struct colbuf *b, size_t n)
{
    b->n = n;
    b->raw = malloc((n + 2 * CANARY) * sizeof *b->raw);
    b->col = b->raw + CANARY;
}

static void cb_free(struct colbuf *b)
{
    free(b->raw);
    memset(b, 0, sizeof *b);
}

static int same(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* column(c, j) into b->col, the rows filled with `fill` first; 1 with why
 * set when the call wrote outside col[0 .. n-1]. */
static int cb_call(const struct pst *S, const void *P, size_t c, size_t j, struct colbuf *b,
                   double fill, chk_buf *why)
{
    for (size_t q = 0; q < CANARY; q++) {
        memcpy(&b->raw[q], &GUARD_BITS, sizeof GUARD_BITS);
        memcpy(&b->col[b->n + q], &GUARD_BITS, sizeof GUARD_BITS);
    }
    for (size_t v = 0; v < b->n; v++)
        b->col[v] = fill;
    S->ops->column(P, c, j, b->col);
    for (size_t q = 0; q < CANARY; q++) {
        if (memcmp(&b->col[b->n + q], &GUARD_BITS, sizeof GUARD_BITS)) {
            if (why)
                chk_printf(why, "column(c = %zu, j = %zu) wrote past its n = %zu entries "
                           "(col[%zu] changed)", c, j, b->n, b->n + q);
            return 1;
        }
        if (memcmp(&b->raw[q], &GUARD_BITS, sizeof GUARD_BITS)) {
            if (why)
                chk_printf(why, "column(c = %zu, j = %zu) wrote before col[0] (col[-%zu] "
                           "changed)", c, j, (size_t)CANARY - q);
            return 1;
        }
    }
    return 0;
}

/* The classes a case looks at: all of them up to 6, else 0, 1, 2, k/2,
 * k-2, k-1. */
static size_t classes(size_t k, size_t *cl)
{
    if (k <= 6) {
        for (size_t c = 0; c < k; c++)
            cl[c] = c;
        return k;
    }
    size_t t[6] = {0, 1, 2, k / 2, k - 2, k - 1};
    memcpy(cl, t, sizeof t);
    return 6;
}

/* Columns per class: cs->cols, fewer when n is large (BUDGET entries). */
static size_t ncols(const struct pcase *cs, size_t ncl, size_t n)
{
    size_t J = cs->cols ? cs->cols : COLS, cap = BUDGET / (ncl * n);
    if (cap < 1)
        cap = 1;
    return J < cap ? J : cap;
}

/* A column in the report: all of it up to 12 rows, else its first 8. */
static void show_col(chk_buf *b, const char *name, const double *col, size_t n)
{
    if (n <= 12) {
        chk_vec(b, name, col, n);
    } else {
        char nm[96];
        snprintf(nm, sizeof nm, "%s[0..7]", name);
        chk_vec(b, nm, col, 8);
        chk_printf(b, " (of %zu)", n);
    }
    chk_printf(b, "\n");
}

static void show_pair(chk_buf *more, size_t c, size_t j, const double *a, const char *an,
                      const double *b, const char *bn, size_t n)
{
    char name[96];
    snprintf(name, sizeof name, "P^(%zu)[:, %zu] %s", c, j, an);
    show_col(more, name, a, n);
    snprintf(name, sizeof name, "P^(%zu)[:, %zu] %s", c, j, bn);
    show_col(more, name, b, n);
}

/* First row where two columns differ bitwise, or n. */
static size_t first_diff(const double *a, const double *b, size_t n)
{
    for (size_t v = 0; v < n; v++)
        if (!same(a[v], b[v]))
            return v;
    return n;
}

/* ---- the properties -------------------------------------------------------- */

static int prop_shape(struct pst *S, void *P, size_t k, size_t n, size_t J, chk_buf *why,
                      chk_buf *more)
{
    size_t cl[6], ncl = classes(k, cl);
    struct colbuf a, b;
    cb_init(&a, n);
    cb_init(&b, n);
    int fail = 0;
    for (size_t q = 0; q < ncl && !fail; q++)
        for (size_t j = 0; j < J && !fail; j++) {
            size_t c = cl[q];
            if (cb_call(S, P, c, j, &a, FILL_A, why) || cb_call(S, P, c, j, &b, FILL_B, why)) {
                fail = 1;
                break;
            }
            for (size_t v = 0; v < n && !fail; v++)
                if (a.col[v] == FILL_A && b.col[v] == FILL_B) {
                    chk_printf(why, "column(c = %zu, j = %zu) left row %zu of %zu unwritten (it "
                               "kept what the buffer held)", c, j, v, n);
                    fail = 1;
                }
            if (fail && n <= 12) {
                chk_printf(more, "filled with %g first: ", FILL_A);
                show_col(more, "col", a.col, n);
            }
        }
    cb_free(&a);
    cb_free(&b);
    return fail;
}

static int prop_entries(struct pst *S, void *P, size_t k, size_t n, size_t J, chk_buf *why,
                        chk_buf *more)
{
    size_t cl[6], ncl = classes(k, cl);
    struct colbuf a;
    cb_init(&a, n);
    int fail = 0;
    for (size_t q = 0; q < ncl && !fail; q++)
        for (size_t j = 0; j < J && !fail; j++) {
            size_t c = cl[q];
            if (cb_call(S, P, c, j, &a, 0.0, why)) {
                fail = 1;
                break;
            }
            for (size_t v = 0; v < n && !fail; v++)
                if (!isfinite(a.col[v])) {
                    chk_printf(why, "P^(%zu)[%zu][%zu] = %g (class %zu, column %zu, row %zu): "
                               "entries must be finite", c, v, j, a.col[v], c, j, v);
                    char name[64];
                    snprintf(name, sizeof name, "P^(%zu)[:, %zu]", c, j);
                    show_col(more, name, a.col, n);
                    fail = 1;
                }
        }
    cb_free(&a);
    return fail;
}

/* The columns of classes cl[0..ncl-1], j < J, of instance P in ascending
 * order into R (ncl x J x n); 1 on a guard failure. */
static int ascending(struct pst *S, void *P, const size_t *cl, size_t ncl, size_t J, size_t n,
                     double *R, chk_buf *why)
{
    struct colbuf a;
    cb_init(&a, n);
    int fail = 0;
    for (size_t q = 0; q < ncl && !fail; q++)
        for (size_t j = 0; j < J && !fail; j++) {
            fail = cb_call(S, P, cl[q], j, &a, 0.0, why);
            memcpy(R + (q * J + j) * n, a.col, n * sizeof *a.col);
        }
    cb_free(&a);
    return fail;
}

static int prop_determinism(struct pst *S, const struct pcase *cs, void *P, size_t n, size_t J,
                            chk_buf *why, chk_buf *more)
{
    size_t cl[6], ncl = classes(cs->k, cl);
    void *P2;
    if (open_second(S, cs, cs->seed, n, &P2, why))
        return 1;
    double *A = malloc(ncl * J * n * sizeof *A), *B = malloc(ncl * J * n * sizeof *B);
    int fail = ascending(S, P, cl, ncl, J, n, A, why) || ascending(S, P2, cl, ncl, J, n, B, why);
    for (size_t q = 0; q < ncl && !fail; q++)
        for (size_t j = 0; j < J && !fail; j++) {
            const double *a = A + (q * J + j) * n, *b = B + (q * J + j) * n;
            size_t v = first_diff(a, b, n);
            if (v < n) {
                chk_printf(why, "two fresh instances with the same parameters, k and seed differ "
                           "at class %zu, column %zu, row %zu: ", cl[q], j, v);
                chk_num(why, a[v]);
                chk_printf(why, ", then ");
                chk_num(why, b[v]);
                show_pair(more, cl[q], j, a, "(first instance)", b, "(second instance)", n);
                fail = 1;
            }
        }
    free(A), free(B);
    S->ops->destroy(P2);
    return fail;
}

/* One way of asking for the columns (for the order check). */
enum { O_AGAIN, O_DESC, O_INTERLEAVED, O_ALONE, O_WAYS };
static const char *const way_name[O_WAYS] = {
    "again from the same instance, after all of them",
    "in descending order (classes and columns)",
    "interleaved across classes, each after a far column (j + 1000003) and twice",
    "alone, from a fresh instance",
};

static int compare_ref(const double *R, const size_t *cl, size_t q, size_t J, size_t j, size_t n,
                       const double *got, int way, chk_buf *why, chk_buf *more)
{
    const double *ref = R + (q * J + j) * n;
    size_t v = first_diff(ref, got, n);
    if (v == n)
        return 0;
    chk_printf(why, "class %zu, column %zu, row %zu is ", cl[q], j, v);
    chk_num(why, got[v]);
    chk_printf(why, " when the columns are asked for %s, but ", way_name[way]);
    chk_num(why, ref[v]);
    chk_printf(why, " the first time, in ascending order from a fresh instance: a column must "
               "depend only on (params, seed, c, j), not on the order of the calls");
    show_pair(more, cl[q], j, ref, "(first, ascending)", got, "(then)", n);
    return 1;
}

static int prop_order(struct pst *S, const struct pcase *cs, void *P, size_t n, size_t J,
                      chk_buf *why, chk_buf *more)
{
    size_t cl[6], ncl = classes(cs->k, cl);
    double *R = malloc(ncl * J * n * sizeof *R);
    struct colbuf a;
    cb_init(&a, n);
    int fail = ascending(S, P, cl, ncl, J, n, R, why);
    for (int way = 0; way < O_WAYS && !fail; way++) {
        void *Q = NULL;
        /* O_AGAIN asks P again, after all the others; the rest a fresh instance */
        if (way != O_AGAIN && (fail = open_second(S, cs, cs->seed, n, &Q, why)))
            break;
        switch (way) {
        case O_DESC:
            for (size_t q = ncl; q-- > 0 && !fail;)
                for (size_t j = J; j-- > 0 && !fail;)
                    fail = cb_call(S, Q, cl[q], j, &a, 0.0, why) ||
                           compare_ref(R, cl, q, J, j, n, a.col, way, why, more);
            break;
        case O_INTERLEAVED:
            for (size_t j = 0; j < J && !fail; j++)
                for (size_t q = 0; q < ncl && !fail; q++) {
                    /* a far column of another class first, then this one twice */
                    fail = cb_call(S, Q, cl[(q + 1) % ncl], j + FAR, &a, 0.0, why);
                    for (int t = 0; t < 2 && !fail; t++)
                        fail = cb_call(S, Q, cl[q], j, &a, 0.0, why) ||
                               compare_ref(R, cl, q, J, j, n, a.col, way, why, more);
                }
            break;
        case O_AGAIN:
            for (size_t q = 0; q < ncl && !fail; q++)
                for (size_t j = 0; j < J && !fail; j++)
                    fail = cb_call(S, P, cl[q], j, &a, 0.0, why) ||
                           compare_ref(R, cl, q, J, j, n, a.col, way, why, more);
            break;
        case O_ALONE: {
            /* the last column asked for in ascending order, the one the
             * most calls came before */
            size_t q = ncl - 1, j = J - 1;
            fail = cb_call(S, Q, cl[q], j, &a, 0.0, why) ||
                   compare_ref(R, cl, q, J, j, n, a.col, way, why, more);
            break;
        }
        default:
            break;
        }
        if (Q)
            S->ops->destroy(Q);
    }
    cb_free(&a);
    free(R);
    return fail;
}

/* ---- threads ---------------------------------------------------------------- */

struct gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int open;
};

struct worker {
    const struct pst *S;
    const void *P;
    const double *R;          /* the serial columns, ncl x J x n */
    const size_t *cl;
    size_t ncl, J, n, rounds;
    int id;
    struct gate *g;
    /* the first difference */
    int bad, guard;
    size_t bq, bj, bv, bround;
    double got;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    pthread_mutex_lock(&w->g->mu);
    while (!w->g->open)
        pthread_cond_wait(&w->g->cv, &w->g->mu);
    pthread_mutex_unlock(&w->g->mu);
    struct colbuf a;
    cb_init(&a, w->n);
    size_t tot = w->ncl * w->J;
    for (size_t r = 0; r < w->rounds && !w->bad; r++)
        for (size_t t = 0; t < tot && !w->bad; t++) {
            /* thread 0 ascending, thread 1 descending, switching each round */
            size_t u = ((size_t)w->id + r) % 2 ? tot - 1 - t : t;
            size_t q = u / w->J, j = u % w->J;
            if (cb_call(w->S, w->P, w->cl[q], j, &a, 0.0, NULL)) {
                w->bad = w->guard = 1;
                w->bq = q, w->bj = j, w->bround = r;
                break;
            }
            const double *ref = w->R + u * w->n;
            size_t v = first_diff(ref, a.col, w->n);
            if (v < w->n) {
                w->bad = 1;
                w->bq = q, w->bj = j, w->bv = v, w->bround = r, w->got = a.col[v];
            }
        }
    cb_free(&a);
    return NULL;
}

static int prop_threads(struct pst *S, const struct pcase *cs, void *P, size_t n, size_t J,
                        chk_buf *why, chk_buf *more)
{
    size_t cl[6], ncl = classes(cs->k, cl);
    /* the serial columns, from a fresh instance */
    void *Q;
    if (open_second(S, cs, cs->seed, n, &Q, why))
        return 1;
    double *R = malloc(ncl * J * n * sizeof *R);
    int fail = ascending(S, Q, cl, ncl, J, n, R, why);
    S->ops->destroy(Q);
    if (fail) {
        free(R);
        return 1;
    }
    struct gate g;
    pthread_mutex_init(&g.mu, NULL);
    pthread_cond_init(&g.cv, NULL);
    g.open = 0;
    size_t rounds = THREAD_ENTRIES / (ncl * J * n);
    rounds = rounds < 2 ? 2 : rounds > 64 ? 64 : rounds;
    struct worker w[2];
    pthread_t th[2];
    int started = 0;
    for (int t = 0; t < 2; t++) {
        memset(&w[t], 0, sizeof w[t]);
        w[t].S = S, w[t].P = P, w[t].R = R, w[t].cl = cl, w[t].ncl = ncl, w[t].J = J, w[t].n = n;
        w[t].rounds = rounds, w[t].id = t, w[t].g = &g;
        if (pthread_create(&th[t], NULL, work, &w[t]) != 0)
            break;
        started++;
    }
    pthread_mutex_lock(&g.mu);
    g.open = 1;
    pthread_cond_broadcast(&g.cv);
    pthread_mutex_unlock(&g.mu);
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    pthread_cond_destroy(&g.cv);
    pthread_mutex_destroy(&g.mu);
    if (started < 2) {
        S->no_threads = 1;
        free(R);
        return 0;
    }
    for (int t = 0; t < 2 && !fail; t++) {
        if (!w[t].bad)
            continue;
        fail = 1;
        size_t c = cl[w[t].bq], j = w[t].bj;
        if (w[t].guard) {
            chk_printf(why, "with 2 threads at once, column(c = %zu, j = %zu) wrote outside its "
                       "n = %zu entries (thread %d, round %zu)", c, j, n, t + 1,
                       w[t].bround + 1);
            break;
        }
        const double *ref = R + (w[t].bq * J + j) * n;
        chk_printf(why, "with 2 threads asking one instance at once, class %zu, column %zu, row "
                   "%zu is ", c, j, w[t].bv);
        chk_num(why, w[t].got);
        chk_printf(why, " (thread %d, round %zu), but ", t + 1, w[t].bround + 1);
        chk_num(why, ref[w[t].bv]);
        chk_printf(why, " serially: column() must be safe to call from several threads at once");
        char name[64];
        snprintf(name, sizeof name, "P^(%zu)[:, %zu] (serial)", c, j);
        show_col(more, name, ref, n);
        chk_printf(more, "%zu class%s x %zu column%s per round, %zu rounds per thread, in "
                   "opposite orders\n", ncl, ncl == 1 ? "" : "es", J, J == 1 ? "" : "s", rounds);
    }
    free(R);
    return fail;
}

/* ---- distinct matrices ---------------------------------------------------- */

enum { R_SEED, R_SEED2, R_CLASS, R_COLUMN, R_CLASS_COLUMN, R_SEED_COLUMN, R_SEED_CLASS, R_COUNT };

/* (instance, class offset, column offset) of both sides of a relation;
 * instance 0 is seed s, 1 seed s + 1, 2 the other seed. */
static const struct {
    int ia, ca, ja, ib, cb, jb;
    int needs_class;
} rel[R_COUNT] = {
    [R_SEED] = {0, 0, 0, 1, 0, 0, 0},
    [R_SEED2] = {0, 0, 0, 2, 0, 0, 0},
    [R_CLASS] = {0, 0, 0, 0, 1, 0, 1},
    [R_COLUMN] = {0, 0, 0, 0, 0, 1, 0},
    [R_CLASS_COLUMN] = {0, 0, 1, 0, 1, 0, 1},
    [R_SEED_COLUMN] = {1, 0, 0, 0, 0, 1, 0},
    [R_SEED_CLASS] = {1, 0, 0, 0, 1, 0, 1},
};

static int prop_distinct(struct pst *S, const struct pcase *cs, void *P, size_t n, chk_buf *why,
                         chk_buf *more)
{
    size_t k = cs->k;
    uint64_t seeds[3] = {cs->seed, cs->seed + 1, bl_mix64(cs->seed ^ 0xD15C0DEull)};
    if (seeds[2] == seeds[0] || seeds[2] == seeds[1])
        seeds[2] ^= 0x5555555555555555ull;
    void *I[3] = {P, NULL, NULL};
    for (int t = 1; t < 3; t++)
        if (open_second(S, cs, seeds[t], n, &I[t], why)) {
            if (t == 2)
                S->ops->destroy(I[1]);
            return 1;
        }
    /* the classes c with c + 1 < k where a relation needs it */
    size_t cl[6], ncl = classes(k, cl), ncl1 = 0, cl1[6];
    for (size_t q = 0; q < ncl; q++)
        if (cl[q] + 1 < k)
            cl1[ncl1++] = cl[q];
    struct colbuf a, b;
    cb_init(&a, n);
    cb_init(&b, n);
    int fail = 0;
    for (int r = 0; r < R_COUNT && !fail; r++) {
        const size_t *cr = rel[r].needs_class ? cl1 : cl;
        size_t ncr = rel[r].needs_class ? ncl1 : ncl;
        if (!ncr)
            continue;
        size_t J = (DISTINCT_ENTRIES + ncr * n - 1) / (ncr * n);
        size_t pairs = 0, equal = 0;
        for (size_t j = 0; j < J && !fail; j++)
            for (size_t q = 0; q < ncr && !fail; q++) {
                size_t c = cr[q];
                fail = cb_call(S, I[rel[r].ia], c + (size_t)rel[r].ca, j + (size_t)rel[r].ja, &a,
                               0.0, why) ||
                       cb_call(S, I[rel[r].ib], c + (size_t)rel[r].cb, j + (size_t)rel[r].jb, &b,
                               0.0, why);
                pairs++;
                equal += first_diff(a.col, b.col, n) == n;
            }
        if (fail || equal < pairs)
            continue;
        fail = 1;
        unsigned long long s0 = (unsigned long long)seeds[0], s1 = (unsigned long long)seeds[1];
        switch (r) {
        case R_SEED:
        case R_SEED2:
            chk_printf(why, "seeds %#llx and %#llx give the same matrices: all %zu columns "
                       "compared (classes and columns 0..%zu) are bitwise equal; different "
                       "seeds must give different matrices", s0,
                       (unsigned long long)seeds[r == R_SEED ? 1 : 2], pairs, J - 1);
            break;
        case R_CLASS:
            chk_printf(why, "classes c and c + 1 have the same matrix: P^(c)[:, j] = P^(c + 1)[:, "
                       "j] for all %zu (c, j) compared (e.g. class 0 and class 1, column 0); "
                       "every class needs its own matrix", pairs);
            break;
        case R_COLUMN:
            chk_printf(why, "column j + 1 equals column j for all %zu (c, j) compared (e.g. class "
                       "%zu, columns 0 and 1): the columns must differ", pairs, cr[0]);
            break;
        case R_CLASS_COLUMN:
            chk_printf(why, "the streams of (c, j) collide: P^(c)[:, j + 1] = P^(c + 1)[:, j] for "
                       "all %zu (c, j) compared (e.g. class 0 column 1 and class 1 column 0)",
                       pairs);
            break;
        case R_SEED_COLUMN:
            chk_printf(why, "the streams collide across seeds: seed %#llx's column j equals seed "
                       "%#llx's column j + 1 for all %zu (c, j) compared (e.g. class %zu, column "
                       "0)", s1, s0, pairs, cr[0]);
            break;
        case R_SEED_CLASS:
            chk_printf(why, "the streams collide across seeds: seed %#llx's class c equals seed "
                       "%#llx's class c + 1 for all %zu (c, j) compared (e.g. class 0, column 0)",
                       s1, s0, pairs);
            break;
        default:
            break;
        }
        cb_call(S, I[rel[r].ia], cr[0] + (size_t)rel[r].ca, (size_t)rel[r].ja, &a, 0.0, NULL);
        show_col(more, "e.g.", a.col, n);
    }
    cb_free(&a);
    cb_free(&b);
    for (int t = 1; t < 3; t++)
        S->ops->destroy(I[t]);
    return fail;
}

/* ---- scale: mean 0, variance 1/n ------------------------------------------ */

static int prop_scale(struct pst *S, const struct pcase *cs, void *P, size_t n, chk_buf *why,
                      chk_buf *more)
{
    size_t k = cs->k, U = (SCALE_ENTRIES + n - 1) / n;
    if (U < SCALE_MIN_COLS)
        U = SCALE_MIN_COLS;
    double sa = 0, saa = 0, sb = 0, sbb = 0, rn = sqrt((double)n);
    double *cv = calloc(k, sizeof *cv); /* per class: sum of B_u */
    size_t *cu = calloc(k, sizeof *cu);
    struct colbuf a;
    cb_init(&a, n);
    int fail = 0;
    double first = 0;
    for (size_t u = 0; u < U && !fail; u++) {
        size_t c = u % k, j = u / k;
        if ((fail = cb_call(S, P, c, j, &a, 0.0, why)))
            break;
        double A = 0, B = 0;
        for (size_t v = 0; v < n; v++) {
            double x = a.col[v] * rn;
            A += x;
            B += x * x;
        }
        if (!u)
            first = a.col[0];
        A /= (double)n, B /= (double)n;
        if (!isfinite(A) || !isfinite(B)) {
            chk_printf(why, "column (c = %zu, j = %zu) has entries that are not finite", c, j);
            fail = 1;
            break;
        }
        sa += A, saa += A * A, sb += B, sbb += B * B;
        cv[c] += B;
        cu[c]++;
    }
    cb_free(&a);
    if (!fail) {
        double Ud = (double)U, M = sa / Ud, V = sb / Ud;
        double sdA = sqrt(fmax(saa / Ud - M * M, 0) * Ud / (Ud - 1));
        double sdB = sqrt(fmax(sbb / Ud - V * V, 0) * Ud / (Ud - 1));
        double seM = fmax(sdA / sqrt(Ud), 1.0 / sqrt(Ud * (double)n)), seV = sdB / sqrt(Ud);
        double z = fabs(M) / seM, tolV = fmax(VAR_TOL, ZSCORE * seV);
        if (V < S->vmin)
            S->vmin = V;
        if (V > S->vmax)
            S->vmax = V;
        if (z > S->zmax)
            S->zmax = z;
        if (z > ZSCORE) {
            chk_printf(why, "the entries' mean is %.4g = %.4g/sqrt(n), %.1f standard errors from "
                       "0 (%zu entries in %zu columns): entries must have mean 0", M / rn, M, z,
                       U * n, U);
            fail = 1;
        } else if (fabs(V - 1) > tolV) {
            chk_printf(why, "n * mean(P^2) is %.4g, not 1 (within %.3g; %zu entries in %zu "
                       "columns): the entries' variance is %.4g/n, where RandomBoost's scaling "
                       "(entries N(0, 1)/sqrt(n), Johnson-Lindenstrauss) needs 1/n", V, tolV,
                       U * n, U, V);
            fail = 1;
        }
        if (fail) {
            chk_printf(more, "n = %zu, 1/sqrt(n) = ", n);
            chk_num(more, 1 / rn);
            chk_printf(more, "; e.g. P^(0)[0][0] = ");
            chk_num(more, first);
            chk_printf(more, "\nper class, n * mean(P^2):");
            for (size_t c = 0; c < k && c < 10; c++)
                chk_printf(more, " %.4g", cu[c] ? cv[c] / (double)cu[c] : 0.0);
            chk_printf(more, "%s\n", k > 10 ? " ..." : "");
        }
    }
    free(cv);
    free(cu);
    return fail;
}

/* ---- norm: ||P x||^2 ~ ||x||^2 ----------------------------------------------- */

static int prop_norm(struct pst *S, const struct pcase *cs, void *P, size_t n, chk_buf *why,
                     chk_buf *more)
{
    size_t k = cs->k, d = NORM_D;
    /* B independent n x 50 blocks: block b is class b mod k, columns
     * 50 (b div k) .. 50 (b div k) + 49; with few blocks, more x */
    size_t B = NORM_BUDGET / (d * n);
    B = B < 1 ? 1 : B > NORM_BLOCKS ? NORM_BLOCKS : B;
    size_t R = B >= 16 ? NORM_X : NORM_X * 16 / B;
    /* R random unit vectors (rows of X), the same for every block */
    chk_rng rng;
    chk_rng_seed(&rng, cs->seed ^ 0x4E4F524Dull);
    double *X = malloc(R * d * sizeof *X), *Xb = calloc(d * d, sizeof *Xb);
    double s4 = 0; /* mean_x sum_j x_j^4 */
    for (size_t r = 0; r < R; r++) {
        double *x = X + r * d, ss = 0;
        for (size_t j = 0; j < d; j += 2) { /* Box-Muller normals, then normalised */
            double u1 = (double)((chk_next(&rng) >> 11) + 1) * 0x1.0p-53, u2 = chk_unif(&rng);
            double rad = sqrt(-2 * log(u1));
            x[j] = rad * cos(2 * M_PI * u2);
            if (j + 1 < d)
                x[j + 1] = rad * sin(2 * M_PI * u2);
        }
        for (size_t j = 0; j < d; j++)
            ss += x[j] * x[j];
        for (size_t j = 0; j < d; j++) {
            x[j] /= sqrt(ss);
            s4 += pow(x[j], 4) / (double)R;
        }
        for (size_t j = 0; j < d; j++)
            for (size_t l = 0; l < d; l++)
                Xb[j * d + l] += x[j] * x[l] / (double)R;
    }
    double *M = malloc(d * n * sizeof *M), *G = malloc(d * d * sizeof *G);
    struct colbuf a;
    cb_init(&a, n);
    double e2 = 0, e4 = 0, qs = 0, ds = 0, dworst = -1;
    size_t bworst = 0;
    int fail = 0;
    for (size_t b = 0; b < B && !fail; b++) {
        size_t c = b % k, j0 = d * (b / k);
        for (size_t j = 0; j < d && !fail; j++) {
            fail = cb_call(S, P, c, j0 + j, &a, 0.0, why);
            memcpy(M + j * n, a.col, n * sizeof *M);
            for (size_t v = 0; v < n; v++) {
                double x2 = a.col[v] * a.col[v] * (double)n;
                e2 += x2, e4 += x2 * x2;
            }
        }
        if (fail)
            break;
        for (size_t j = 0; j < d; j++)
            for (size_t l = 0; l <= j; l++) {
                double t = 0;
                for (size_t v = 0; v < n; v++)
                    t += M[j * n + v] * M[l * n + v];
                G[j * d + l] = G[l * d + j] = t;
            }
        double db = 0;
        for (size_t r = 0; r < R; r++) {
            const double *x = X + r * d;
            double q = 0;
            for (size_t j = 0; j < d; j++)
                for (size_t l = 0; l < d; l++)
                    q += x[j] * G[j * d + l] * x[l];
            qs += q;
            db += (q - 1) * (q - 1);
        }
        ds += db;
        if (!(db <= dworst)) /* NaN too */
            dworst = db, bworst = b;
    }
    cb_free(&a);
    if (!fail) {
        double N = (double)(B * d * n), V = e2 / N, kappa = V > 0 ? (e4 / N) / (V * V) : 1;
        if (!isfinite(kappa) || kappa < 1)
            kappa = 1;
        double sjj = 0, sjl = 0;
        for (size_t j = 0; j < d; j++)
            for (size_t l = 0; l < d; l++)
                *(j == l ? &sjj : &sjl) += Xb[j * d + l] * Xb[j * d + l];
        double Q = qs / (double)(B * R), D = ds / (double)(B * R);
        double s = sqrt(((kappa - 1) * sjj + 2 * sjl) / ((double)n * (double)B));
        double tolQ = fmax(VAR_TOL, ZSCORE * s);
        double Dp = V * V * (2 + (kappa - 3) * s4) / (double)n + (V - 1) * (V - 1);
        double ratio = D / Dp;
        if (Q < S->qmin)
            S->qmin = Q;
        if (Q > S->qmax)
            S->qmax = Q;
        if (ratio > S->dmax)
            S->dmax = ratio;
        if (!isfinite(Q) || fabs(Q - 1) > tolQ) {
            chk_printf(why, "||P x||^2 averages %.4g over %zu random unit vectors x in R^%zu and "
                       "%zu block%s of %zu columns, not ||x||^2 = 1 (within %.3g): the "
                       "projection does not preserve norms on average (entries need variance "
                       "1/n)", Q, R, d, B, B == 1 ? "" : "s", d, tolQ);
            fail = 1;
        } else if (!isfinite(D) || ratio > NORM_SPREAD) {
            chk_printf(why, "(||P x||^2 - 1)^2 averages %.4g over %zu random unit vectors x in "
                       "R^%zu and %zu block%s of %zu columns, %.3g times what independent "
                       "entries of variance 1/n give (%.4g; at most %g allowed): the columns are "
                       "not independent, the worst block being class %zu, columns %zu..%zu", D,
                       R, d, B, B == 1 ? "" : "s", d, ratio, Dp, (double)NORM_SPREAD,
                       bworst % k, d * (bworst / k), d * (bworst / k) + d - 1);
            fail = 1;
        }
        if (fail)
            chk_printf(more, "n = %zu; the entries: n * mean(P^2) = %.4g, kurtosis %.3g\n", n, V,
                       kappa);
    }
    free(X), free(Xb), free(M), free(G);
    return fail;
}

/* ---- the smoke test of a parameter variant ----------------------------------- */

static int prop_smoke(struct pst *S, void *P, size_t k, size_t n, chk_buf *why, chk_buf *more)
{
    size_t cl[2] = {0, k - 1};
    struct colbuf a, b;
    cb_init(&a, n);
    cb_init(&b, n);
    int fail = 0;
    for (size_t q = 0; q < (k > 1 ? 2u : 1u) && !fail; q++)
        for (size_t j = 0; j < 2 && !fail; j++) {
            size_t c = cl[q];
            fail = cb_call(S, P, c, j, &a, FILL_A, why) || cb_call(S, P, c, j, &b, FILL_B, why);
            for (size_t v = 0; v < n && !fail; v++) {
                if (a.col[v] == FILL_A && b.col[v] == FILL_B)
                    chk_printf(why, "column(c = %zu, j = %zu) left row %zu unwritten", c, j, v);
                else if (!isfinite(a.col[v]))
                    chk_printf(why, "P^(%zu)[%zu][%zu] = %g: entries must be finite", c, v, j,
                               a.col[v]);
                else
                    continue;
                fail = 1;
                char name[64];
                snprintf(name, sizeof name, "P^(%zu)[:, %zu]", c, j);
                show_col(more, name, a.col, n);
            }
        }
    cb_free(&a);
    cb_free(&b);
    return fail;
}

/* ---- cases, shrinking, the search --------------------------------------------- */

static int run_case(struct pst *S, const struct pcase *cs, chk_buf *why, chk_buf *more)
{
    void *P;
    size_t n;
    S->cases++;
    int r = open_case(S, cs, cs->seed, &P, &n, why);
    if (r)
        return r == 1;
    size_t cl[6], ncl = classes(cs->k, cl), J = ncols(cs, ncl, n);
    int fail = 0;
    switch (S->prop) {
    case P_SHAPE: fail = prop_shape(S, P, cs->k, n, J, why, more); break;
    case P_ENTRIES: fail = prop_entries(S, P, cs->k, n, J, why, more); break;
    case P_DETERMINISM: fail = prop_determinism(S, cs, P, n, J, why, more); break;
    case P_ORDER: fail = prop_order(S, cs, P, n, J, why, more); break;
    case P_THREADS: fail = prop_threads(S, cs, P, n, J, why, more); break;
    case P_DISTINCT: fail = prop_distinct(S, cs, P, n, why, more); break;
    case P_SCALE: fail = prop_scale(S, cs, P, n, why, more); break;
    case P_NORM: fail = prop_norm(S, cs, P, n, why, more); break;
    default: fail = prop_smoke(S, P, cs->k, n, why, more); break;
    }
    if (fail)
        chk_printf(more, "dim() = %zu%s", n,
                   S->prop > P_THREADS ? "\n" : J == 1 ? ", column " : ", columns ");
    if (fail && S->prop <= P_THREADS) {
        if (J == 1)
            chk_printf(more, "0");
        else
            chk_printf(more, "0..%zu", J - 1);
        chk_printf(more, " of class%s", ncl == 1 ? "" : "es");
        for (size_t q = 0; q < ncl; q++)
            chk_printf(more, "%s %zu", q ? "," : "", cl[q]);
        chk_printf(more, "\n");
    }
    S->ops->destroy(P);
    return fail;
}

static struct pst *describe_state; /* for describe(): the dimension parameter's name */

static void describe(chk_buf *b, const void *p)
{
    const struct pcase *cs = p;
    const struct pst *S = describe_state;
    chk_printf(b, "k=%zu", cs->k);
    if (S && S->dimp >= 0)
        chk_printf(b, " %s=%lld", S->p->params[S->dimp].name, (long long)cs->nval);
    if (cs->cols)
        chk_printf(b, " columns=%zu", cs->cols);
    chk_printf(b, " seed=%#llx\n", (unsigned long long)cs->seed);
}

static int try_case(chk_ctx *c, struct pst *S, const struct pcase *cs, chk_buf *why,
                    chk_buf *more)
{
    chk_clear(why);
    chk_clear(more);
    chk_buf d = {0};
    describe(&d, cs);
    if (d.len && d.s[d.len - 1] == '\n')
        d.s[--d.len] = 0;
    chk_case(c, "%s", chk_str(&d));
    chk_buf_free(&d);
    return run_case(S, cs, why, more);
}

/* The dimensions shrinking tries: 1, 2, 3, 4, 5, 6, 8, 10, 16, 32, ... */
static int64_t next_n(int64_t n)
{
    if (n < 6)
        return n + 1;
    if (n < 10)
        return n + 2;
    if (n < 16)
        return 16;
    return n * 2;
}

/* The smallest k, then n, then column count that still fails. */
static void shrink(chk_ctx *c, void *state, void *p)
{
    struct pst *S = state;
    struct pcase *cs = p;
    chk_buf why = {0}, more = {0};
    for (size_t k2 = 1; k2 < cs->k; k2++) {
        struct pcase t = *cs;
        t.k = k2;
        if (try_case(c, S, &t, &why, &more)) {
            *cs = t;
            break;
        }
    }
    if (S->dimp >= 0) {
        const struct bl_param_spec *sp = &S->p->params[S->dimp];
        for (int64_t n2 = 1; n2 < cs->nval; n2 = next_n(n2)) {
            if ((double)n2 < sp->min || (double)n2 > sp->max)
                continue;
            struct pcase t = *cs;
            t.nval = n2;
            if (try_case(c, S, &t, &why, &more)) {
                *cs = t;
                break;
            }
        }
    }
    for (size_t J = 1; J < cs->cols; J++) {
        struct pcase t = *cs;
        t.cols = J;
        if (try_case(c, S, &t, &why, &more)) {
            *cs = t;
            break;
        }
    }
    chk_buf_free(&why);
    chk_buf_free(&more);
}

static int run(void *state, void *cs, chk_buf *why, chk_buf *more)
{
    return run_case(state, cs, why, more);
}

static const chk_case_ops case_ops = {run, shrink, describe};

/* The INT parameter that sets dim(): its value is dim(), and dim() follows
 * it (checked by creating an instance with another value).  -1 if none. */
static long find_dim_param(struct pst *S)
{
    if (!S->p->nparams)
        return -1;
    char err[BL_ERR_MAX];
    size_t n = 0, k = 0;
    for (size_t a = 0; a < NEL(ks) && !k; a++) {
        void *P = S->ops->create(S->host, S->v, ks[a], 1, err);
        if (P) {
            n = S->ops->dim(P), k = ks[a];
            S->ops->destroy(P);
        }
    }
    if (!k || n < 1 || n > DIM_CAP)
        return -1;
    for (size_t j = 0; j < S->p->nparams; j++) {
        const struct bl_param_spec *sp = &S->p->params[j];
        if (sp->type != BL_PARAM_INT || S->v[j].i != (int64_t)n)
            continue;
        int64_t other = n > 1 ? (int64_t)n - 1 : 2;
        if ((double)other < sp->min || (double)other > sp->max)
            continue;
        memcpy(S->vv, S->v, S->p->nparams * sizeof *S->vv);
        S->vv[j].i = other;
        void *P = S->ops->create(S->host, S->vv, k, 1, err);
        if (!P)
            continue;
        size_t n2 = S->ops->dim(P);
        S->ops->destroy(P);
        if (n2 == (size_t)other)
            return (long)j;
    }
    return -1;
}

static void pst_init(struct pst *S, chk_ctx *c, const union bl_value *v, int prop)
{
    chk_case(c, "looking for the parameter that sets dim()");
    memset(S, 0, sizeof *S);
    S->p = c->p, S->ops = c->p->ops, S->host = c->host, S->v = v, S->prop = prop;
    S->vv = malloc((c->p->nparams ? c->p->nparams : 1) * sizeof *S->vv);
    S->vmin = S->qmin = HUGE_VAL;
    S->vmax = S->qmax = -HUGE_VAL;
    S->dimp = find_dim_param(S);
}

static enum chk_status search(chk_ctx *c, const union bl_value *v, int prop, const char *prefix,
                              int quick, struct pst *S)
{
    pst_init(S, c, v, prop);
    describe_state = S;
    chk_buf why = {0}, more = {0};
    uint64_t idx = 0;
    int fail = 0;
    int trials = quick ? 1 : c->trials;
    for (int t = 0; t < trials && !fail; t++)
        for (size_t a = 0; a < NEL(ks) && !fail; a++) {
            struct pcase cs = {ks[a], S->dimp >= 0 ? S->v[S->dimp].i : 0,
                               prop <= P_THREADS ? COLS : 0, 0};
            uint64_t n0 = idx++;
            cs.seed = n0 ? chk_seed(c, "projection", n0) : 0; /* seed 0 first */
            size_t accepted = S->cases - S->refused - S->large;
            if (try_case(c, S, &cs, &why, &more)) {
                struct pcase orig = cs;
                char seen[64];
                snprintf(seen, sizeof seen, "k=%zu", cs.k);
                chk_shrink_report(c, &case_ops, S, &cs, &orig, prefix, seen, orig.seed, &why,
                                  &more);
                fail = 1;
            }
            if (quick && S->cases - S->refused - S->large > accepted)
                break; /* one accepted k is enough for a parameter variant */
        }
    chk_buf_free(&why);
    chk_buf_free(&more);
    describe_state = NULL;
    if (!fail && S->refused == S->cases) {
        chk_detail(c, "%screate refused every k tried (1, 2, 3, 10, 50), e.g. %s", prefix,
                   S->refusal);
        fail = 1;
    }
    if (fail)
        return CHK_FAIL;
    if (S->refused + S->large == S->cases)
        return CHK_SKIP; /* every accepted instance had too many rows */
    return CHK_PASS;
}

static void pst_free(struct pst *S)
{
    free(S->vv);
    S->vv = NULL;
}

/* The check of one property, c->def->prop (its pass: c->def->pass). */
static enum chk_status prop_check(chk_ctx *c)
{
    struct pst S;
    enum chk_status st = search(c, c->v, c->def->prop, "", 0, &S);
    if (st == CHK_SKIP) {
        chk_detail(c, "not run: dim() is %zu, above the %d rows this check computes; check the "
                   "plugin with a smaller n", S.n_large, DIM_CAP);
    } else if (st == CHK_PASS && S.no_threads) {
        chk_detail(c, "not run: threads could not be started");
        st = CHK_SKIP;
    } else if (st == CHK_PASS) {
        chk_detail(c, "%s (k = 1, 2, 3, 10, 50; %d seeds; n = %zu", c->def->pass, c->trials,
                   S.n_seen);
        if (S.refused)
            chk_printf(&c->detail, "; %zu of %zu refused with a message, e.g. %s", S.refused,
                       S.cases, S.refusal);
        if (S.large)
            chk_printf(&c->detail, "; %zu with dim() above %d not computed", S.large, DIM_CAP);
        chk_printf(&c->detail, ")");
    }
    chk_printf(&c->info, "%zu instances", S.cases);
    if (c->def->prop == P_SCALE && S.vmax >= S.vmin)
        chk_printf(&c->info, "; n * mean(P^2) in [%.4f, %.4f], largest |mean| %.2f standard "
                   "errors", S.vmin, S.vmax, S.zmax);
    if (c->def->prop == P_NORM && S.qmax >= S.qmin)
        chk_printf(&c->info, "; mean ||Px||^2 in [%.4f, %.4f], distortion at most %.2f times "
                   "that of independent entries", S.qmin, S.qmax, S.dmax);
    if (S.dimp >= 0)
        chk_printf(&c->info, "; parameter %s sets dim()", c->p->params[S.dimp].name);
    pst_free(&S);
    return st;
}

/* ---- the checks ---------------------------------------------------------------- */

static enum chk_status check_create(chk_ctx *c)
{
    const struct bl_projection_ops *o = c->p->ops;
    const union bl_value *v = c->p->nparams ? c->v : NULL;
    uint64_t seeds[4] = {0, 1, UINT64_MAX, chk_seed(c, "projection-create", 0)};
    size_t made = 0, refused = 0, n = 0, two = 0;
    chk_buf which = {0};
    for (size_t a = 0; a < NEL(ks); a++) {
        int kref = 0;
        for (size_t s = 0; s < 4; s++) {
            char err[BL_ERR_MAX] = "";
            chk_case(c, "create with k = %zu, seed %#llx", ks[a], (unsigned long long)seeds[s]);
            void *x = o->create(c->host, v, ks[a], seeds[s], err);
            if (!x) {
                if (!err[0]) {
                    chk_detail(c, "create refused k = %zu (seed %#llx) without a message", ks[a],
                               (unsigned long long)seeds[s]);
                    chk_buf_free(&which);
                    return CHK_FAIL;
                }
                if (!kref++)
                    chk_printf(&which, "%s%zu (%.60s)", refused++ ? ", " : "", ks[a], err);
                continue;
            }
            size_t d = o->dim(x);
            if (d < 1) {
                o->destroy(x);
                chk_detail(c, "dim() is 0 for k = %zu: every matrix needs at least one row",
                           ks[a]);
                chk_buf_free(&which);
                return CHK_FAIL;
            }
            n = d;
            if (!two) { /* two instances at once */
                void *y = o->create(c->host, v, ks[a], seeds[s], err);
                if (!y) {
                    o->destroy(x);
                    chk_detail(c, "a second instance for k = %zu could not be created: %s",
                               ks[a], err[0] ? err : "(no message)");
                    chk_buf_free(&which);
                    return CHK_FAIL;
                }
                o->destroy(y);
                two = 1;
            }
            o->destroy(x);
            made++;
        }
    }
    if (!made) {
        chk_detail(c, "create refused every k in 1, 2, 3, 10, 50: %s", chk_str(&which));
        chk_buf_free(&which);
        return CHK_FAIL;
    }
    chk_detail(c, "%zu instances for k = 1, 2, 3, 10, 50 and seeds 0, 1, 2^64 - 1 and a random "
               "one created and destroyed, two at once (n = %zu)", made, n);
    if (refused)
        chk_printf(&c->detail, "; refused with a message: k = %s", chk_str(&which));
    chk_buf_free(&which);
    return CHK_PASS;
}

/* The variants whose dim() was above DIM_CAP (filled by params_variant). */
static chk_buf large_variants;

static enum chk_status params_variant(chk_ctx *c, const chk_variant *var, const char *prefix)
{
    struct pst S;
    enum chk_status st = search(c, var->v, P_SMOKE, prefix, 1, &S);
    if (st == CHK_SKIP) {
        chk_printf(&large_variants, "%s%s (dim() = %zu)", large_variants.len ? ", " : "",
                   var->label, S.n_large);
        st = CHK_PASS;
    }
    pst_free(&S);
    return st;
}

static enum chk_status check_params(chk_ctx *c)
{
    chk_clear(&large_variants);
    enum chk_status st = chk_params(c, params_variant, "accepted for some k, with well-formed "
                                    "columns");
    if (st == CHK_PASS && large_variants.len)
        chk_printf(&c->detail, "; created but columns not computed (dim() above %d): %s",
                   DIM_CAP, chk_str(&large_variants));
    chk_buf_free(&large_variants);
    return st;
}

const chk_def chk_projection_checks[] = {
    {"create", check_create, 0, NULL},
    {"params", check_params, 0, NULL},
    {"shape", prop_check, P_SHAPE, "dim() >= 1, and column() writes all n entries and nothing "
     "beyond them"},
    {"entries", prop_check, P_ENTRIES, "every entry is finite"},
    {"determinism", prop_check, P_DETERMINISM, "two fresh instances with the same parameters "
     "and seed give bitwise the same columns"},
    {"order", prop_check, P_ORDER, "the same columns in ascending, descending and interleaved "
     "order, asked twice and alone"},
    {"threads", prop_check, P_THREADS, "2 threads asking one instance at once get the serial "
     "columns"},
    {"distinct", prop_check, P_DISTINCT, "seeds, classes and columns give different columns, "
     "with no collisions between them"},
    {"scale", prop_check, P_SCALE, "entries have mean 0 and variance 1/n (n * mean(P^2) within "
     "10% of 1)"},
    {"norm", prop_check, P_NORM, "||P x||^2 averages ||x||^2 = 1 over random unit x in R^50, "
     "with the spread of independent entries"},
};
const size_t chk_projection_count = sizeof chk_projection_checks / sizeof chk_projection_checks[0];

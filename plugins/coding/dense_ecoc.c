/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Coding plugin "dense-ecoc": a fixed dense random ECOC code (Allwein,
 * Schapire & Singer, "Reducing multiclass to binary", JMLR 1, 2000 -- cited
 * as Allwein et al. 2001 in the specs; hingeboost-oc spec §3.7 and the
 * coloring vocabulary of its §1.2), the code of the ECOC baseline for k > 7
 * and of ECOC-coded boosting.
 *
 *   columns     n; 0 (default) means ceil(10 log2 k), Allwein et al.'s usual
 *               choice for dense random codes (34 columns for k = 10, 40 for
 *               k = 15, 87 for k = 397).
 *   seed        the code depends on this and k only (not on the run's seed:
 *               the code is chosen before seeing the data).
 *   candidates  how many random codes to draw (default 1000; the hingeboost
 *               paper used 10000); the one with the largest minimum Hamming
 *               distance between rows (codewords) is kept, the first one on
 *               ties, so candidates = N keeps a code at least as good as
 *               candidates = 1 with the same seed (the same first draw).
 *
 * Entries are in {-1,+1}.  A candidate is a uniformly random code among the
 * valid ones: no constant column and no two columns equal or complementary
 * (equal up to sign), as Allwein et al. require.  There are only
 * 2^(k-1) - 1 such columns, so for small k the default length is cut to that
 * (the exhaustive code up to column order and sign, which is then the only
 * candidate worth drawing), and an explicit `columns` beyond it is refused.
 * How a candidate is drawn (both give the uniform distribution on valid
 * codes):
 *   k <= 21: n distinct colorings out of the 2^(k-1) - 1 by a partial
 *            Fisher-Yates shuffle of their indices (numbered as in the
 *            exhaustive plugin), each with a random sign;
 *   k >= 22: each column i.i.d. uniform on {-1,+1}^k, redrawn while it is
 *            constant or a column already drawn up to sign (a hash set).
 * Random numbers: splitmix64 from the seed, unbiased bounded draws.
 *
 * The same code every iteration.  The minimum Hamming distance of the kept
 * code is logged at level 1 ("info": run boostlab with -v to see it), with a
 * warning (level 0) when two classes share a codeword; the SDK has no other
 * way to hand a number from a coding to the host.
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/splitmix.h"

#define NAME "dense-ecoc"
#define MAX_COLUMNS 65535
#define SMALL_K 21 /* up to here candidates are drawn by index */

enum { P_COLUMNS, P_SEED, P_CANDIDATES, P_COUNT };

static const struct bl_param_spec ecoc_params[P_COUNT] = {
    [P_COLUMNS] = {"columns", BL_PARAM_INT, "0", 0, MAX_COLUMNS, NULL,
                   "code length; 0 = ceil(10 log2 k) (Allwein et al.), cut to 2^(k-1)-1 for small k"},
    [P_SEED] = {"seed", BL_PARAM_INT, "1", 0, 9007199254740991.0, NULL,
                "seed of the random code (the code depends on it and k only)"},
    [P_CANDIDATES] = {"candidates", BL_PARAM_INT, "1000", 1, 1000000, NULL,
                      "random codes drawn; the one with the largest minimum Hamming distance is kept"},
};

struct ecoc {
    size_t k, n, dmin;
    double *M; /* k x n */
};

/* ceil(10 log2 k): exact for every k up to 200000 at least (checked against
 * integer arithmetic: smallest n with 2^n >= k^10). */
static size_t default_columns(size_t k)
{
    return (size_t)ceil(10.0 * log2((double)k));
}

/* Scratch for drawing candidates. */
struct draw {
    size_t k, n, W, KW;
    uint64_t *rows;     /* k x W: bit j of row r set <=> M[r][j] = +1 */
    /* k <= SMALL_K */
    uint32_t *idx;      /* the 2^(k-1) - 1 coloring indices            */
    size_t *swp;        /* n: the shuffle's swaps, to undo them          */
    /* k > SMALL_K */
    uint64_t *col;      /* KW: the column being drawn                   */
    uint64_t *norm;     /* n x KW: accepted columns, normalised (bit 0 clear) */
    int32_t *table;     /* hash set of accepted columns (indices into norm) */
    size_t tmask;
};

static void draw_free(struct draw *D)
{
    free(D->rows);
    free(D->idx);
    free(D->swp);
    free(D->col);
    free(D->norm);
    free(D->table);
}

static int draw_init(struct draw *D, size_t k, size_t n, size_t ndist)
{
    memset(D, 0, sizeof *D);
    D->k = k;
    D->n = n;
    D->W = (n + 63) / 64;
    D->KW = (k + 63) / 64;
    D->rows = calloc(k * D->W, sizeof *D->rows);
    if (!D->rows)
        return -1;
    if (k <= SMALL_K) {
        D->idx = malloc(ndist * sizeof *D->idx);
        D->swp = malloc(n * sizeof *D->swp);
        if (!D->idx || !D->swp)
            return -1;
        for (size_t u = 0; u < ndist; u++)
            D->idx[u] = (uint32_t)u;
        return 0;
    }
    size_t ts = 16;
    while (ts < 2 * n)
        ts *= 2;
    D->tmask = ts - 1;
    D->col = malloc(D->KW * sizeof *D->col);
    D->norm = malloc(n * D->KW * sizeof *D->norm);
    D->table = malloc(ts * sizeof *D->table);
    return D->col && D->norm && D->table ? 0 : -1;
}

static void set_column(struct draw *D, size_t j, size_t r, int plus)
{
    if (plus)
        D->rows[r * D->W + j / 64] |= 1ull << (j % 64);
}

/* k <= SMALL_K: n distinct coloring indices (partial Fisher-Yates, undone
 * afterwards so idx is the identity again), each with a random sign. */
static void draw_small(struct draw *D, uint64_t *s, size_t ndist)
{
    size_t k = D->k, n = D->n;
    uint32_t *idx = D->idx;
    for (size_t j = 0; j < n; j++) {
        size_t q = j + (size_t)bounded(s, ndist - j);
        D->swp[j] = q;
        uint32_t t = idx[j];
        idx[j] = idx[q];
        idx[q] = t;
        uint32_t u = idx[j];
        int neg = (int)(splitmix64(s) >> 63);
        set_column(D, j, 0, !neg);
        for (size_t r = 1; r < k; r++)
            set_column(D, j, r, (int)((u >> (k - 1 - r)) & 1u) ^ neg);
    }
    /* undo the swaps, last first: the identity again, in O(n) */
    for (size_t j = n; j-- > 0;) {
        uint32_t t = idx[j];
        idx[j] = idx[D->swp[j]];
        idx[D->swp[j]] = t;
    }
}

static uint64_t hash_words(const uint64_t *w, size_t n)
{
    uint64_t h = 0x243F6A8885A308D3ull;
    for (size_t q = 0; q < n; q++) {
        h ^= w[q];
        h *= 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    return h;
}

/* k > SMALL_K: i.i.d. columns, redrawn while constant or already there up
 * to sign. */
static void draw_large(struct draw *D, uint64_t *s)
{
    size_t k = D->k, n = D->n, KW = D->KW;
    uint64_t last = k % 64 ? (1ull << (k % 64)) - 1 : ~0ull;
    for (size_t t = 0; t <= D->tmask; t++)
        D->table[t] = -1;
    for (size_t j = 0; j < n; j++) {
        uint64_t *nc = D->norm + j * KW;
        for (;;) {
            for (size_t q = 0; q < KW; q++)
                D->col[q] = splitmix64(s);
            D->col[KW - 1] &= last;
            /* normalise: class 0 on the -1 side (bit clear) */
            uint64_t flip = D->col[0] & 1u ? ~0ull : 0;
            int zero = 1;
            for (size_t q = 0; q < KW; q++) {
                nc[q] = (D->col[q] ^ flip) & (q + 1 == KW ? last : ~0ull);
                zero &= nc[q] == 0;
            }
            if (zero) /* constant column */
                continue;
            size_t t = (size_t)hash_words(nc, KW) & D->tmask;
            int dup = 0;
            for (; D->table[t] >= 0; t = (t + 1) & D->tmask)
                if (!memcmp(D->norm + (size_t)D->table[t] * KW, nc, KW * sizeof *nc)) {
                    dup = 1;
                    break;
                }
            if (dup)
                continue;
            D->table[t] = (int32_t)j;
            break;
        }
        for (size_t r = 0; r < k; r++)
            set_column(D, j, r, (int)((D->col[r / 64] >> (r % 64)) & 1u));
    }
}

/* Minimum Hamming distance between the rows of D->rows; stops early (and
 * returns something <= floor) as soon as it is known to be <= floor. */
static size_t min_distance(const struct draw *D, size_t floor_, int use_floor)
{
    size_t k = D->k, W = D->W, best = D->n + 1;
    for (size_t r = 0; r < k; r++)
        for (size_t q = r + 1; q < k; q++) {
            const uint64_t *a = D->rows + r * W, *b = D->rows + q * W;
            size_t dist = 0;
            for (size_t w = 0; w < W; w++)
                dist += (size_t)__builtin_popcountll(a[w] ^ b[w]);
            if (dist < best) {
                best = dist;
                if (use_floor && best <= floor_)
                    return best;
            }
        }
    return best;
}

static void *ecoc_create(const struct bl_host *host, const union bl_value *params, size_t k,
                         char err[BL_ERR_MAX])
{
    long long pcols = params ? (long long)params[P_COLUMNS].i : 0;
    uint64_t seed = params ? (uint64_t)params[P_SEED].i : 1;
    long long ncand = params ? (long long)params[P_CANDIDATES].i : 1000;
    if (ncand < 1)
        ncand = 1;
    if (k < 2) {
        snprintf(err, BL_ERR_MAX, "an ECOC code needs at least 2 classes (this problem has %zu)", k);
        return NULL;
    }
    if (pcols < 0 || pcols > MAX_COLUMNS) {
        snprintf(err, BL_ERR_MAX, "columns = %lld is outside [0, %d]", pcols, MAX_COLUMNS);
        return NULL;
    }
    /* distinct non-constant columns up to sign: 2^(k-1) - 1 (huge beyond) */
    size_t ndist = k <= 40 ? ((size_t)1 << (k - 1)) - 1 : (size_t)-1;
    size_t n = pcols ? (size_t)pcols : default_columns(k);
    if (n > ndist) {
        if (pcols) {
            snprintf(err, BL_ERR_MAX, "columns = %lld, but only 2^(k-1)-1 = %zu columns for k = "
                     "%zu classes are non-constant and distinct up to sign; ask for fewer or "
                     "use the exhaustive coding", pcols, ndist, k);
            return NULL;
        }
        if (host && host->log)
            host->log(1, NAME, "k = %zu classes: ceil(10 log2 k) = %zu columns exceeds the %zu "
                      "distinct non-constant ones; using all %zu (the exhaustive code, up to "
                      "column order and sign)", k, n, ndist, ndist);
        n = ndist;
    }
    if (n == ndist && ncand > 1)
        ncand = 1; /* every valid code is the exhaustive one up to order and sign */
    struct ecoc *C = calloc(1, sizeof *C);
    struct draw D;
    uint64_t *best = NULL;
    if (!C || draw_init(&D, k, n, ndist) < 0 ||
        !(best = malloc(k * D.W * sizeof *best)) || !(C->M = malloc(k * n * sizeof *C->M))) {
        if (C)
            draw_free(&D);
        free(best);
        free(C);
        snprintf(err, BL_ERR_MAX, "out of memory for a %zu x %zu code", k, n);
        return NULL;
    }
    uint64_t s = seed ^ 0x6A09E667F3BCC909ull; /* stream of this plugin */
    size_t bestd = 0;
    for (long long t = 0; t < ncand; t++) {
        memset(D.rows, 0, k * D.W * sizeof *D.rows);
        if (k <= SMALL_K)
            draw_small(&D, &s, ndist);
        else
            draw_large(&D, &s);
        size_t dist = min_distance(&D, bestd, t > 0);
        if (t == 0 || dist > bestd) {
            bestd = dist;
            memcpy(best, D.rows, k * D.W * sizeof *best);
        }
    }
    for (size_t r = 0; r < k; r++)
        for (size_t j = 0; j < n; j++)
            C->M[r * n + j] = (best[r * D.W + j / 64] >> (j % 64)) & 1u ? 1.0 : -1.0;
    draw_free(&D);
    free(best);
    C->k = k;
    C->n = n;
    C->dmin = bestd;
    if (host && host->log) {
        host->log(1, NAME, "k = %zu classes, %zu columns, best of %lld random code%s (seed "
                  "%llu): minimum Hamming distance between codewords %zu", k, n, ncand,
                  ncand == 1 ? "" : "s", (unsigned long long)seed, bestd);
        if (bestd == 0)
            host->log(0, NAME, "two classes share a codeword (minimum Hamming distance 0): "
                      "ask for more columns");
    }
    return C;
}

static void ecoc_destroy(void *self)
{
    struct ecoc *C = self;
    if (C)
        free(C->M);
    free(C);
}

static size_t ecoc_max_columns(const void *self)
{
    return ((const struct ecoc *)self)->n;
}

static int ecoc_code(void *self, const int *y, size_t m, const double *G, uint64_t seed,
                     double *M, size_t *c, char err[BL_ERR_MAX])
{
    (void)y, (void)m, (void)G, (void)seed, (void)err;
    const struct ecoc *C = self;
    memcpy(M, C->M, C->k * C->n * sizeof *M);
    *c = C->n;
    return 0;
}

static const struct bl_coding_ops ecoc_ops = {
    .size = sizeof(struct bl_coding_ops),
    .create = ecoc_create,
    .destroy = ecoc_destroy,
    .max_columns = ecoc_max_columns,
    .code = ecoc_code,
};

static const struct bl_plugin ecoc_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_CODING,
    .name = "dense-ecoc",
    .doc = "fixed dense random {-1,+1} ECOC code, best minimum Hamming distance of many draws (-v logs it)",
    .params = ecoc_params,
    .nparams = P_COUNT,
    .ops = &ecoc_ops,
};

static const struct bl_plugin *const ecoc_plugins[] = {&ecoc_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return ecoc_plugins;
}

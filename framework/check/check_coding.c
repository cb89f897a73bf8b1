/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * check-plugin, coding role (coding.h, docs/sdk.md "Codings"), for class
 * counts k = 2 .. 30 and random labels and dual weights, several code()
 * calls per instance with different seeds (as the engine makes one per
 * iteration):
 *
 *   create       an instance for some k, two at once, destroyed
 *   params       every declared parameter at its bounds / choices: created
 *                for some k (or refused with a message) and a valid code
 *   refusal      k = 0 and 1 are refused (every column of a one-class code
 *                is constant), and every refusal comes with a message, never
 *                a crash
 *   shape        max_columns >= 1, code() succeeds with 1 <= c <= max_columns
 *                and writes nothing beyond k x max_columns
 *   entries      every entry of M is finite
 *   columns      no column is all zero, nor constant (docs/sdk.md: "no
 *                constant column")
 *   determinism  two fresh instances, the same inputs and seeds: the same c
 *                and bitwise the same M
 *   recolor      (when the coding has it) after each code(), with
 *                random weak outputs and a trial loss, recolor answers
 *                DONE, KEEP or REFIT; DONE leaves M as it was; M stays
 *                finite with no zero or constant column; a run of REFITs
 *                (each followed by new outputs, as the engine refits) ends
 *                within the engine's 64
 *
 * A failing case is shrunk to the smallest k (and number of examples) that
 * still fails, with the same seed scheme.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/rng.h"
#include "check.h"

#define CANARY 16      /* doubles after the k x max_columns buffer */
#define CALLS 3        /* code() calls per instance (iterations)   */

static const size_t ks[] = {2, 3, 4, 5, 7, 10, 13, 16, 30};
/* For parameter variants: the first k that accepts is used.  17 is there
 * for codes whose length bound needs many classes (dense-ecoc's 65535
 * columns need k >= 17, where they are the whole exhaustive code). */
static const size_t ks_params[] = {2, 3, 4, 5, 8, 13, 17, 30};
#define NEL(a) (sizeof(a) / sizeof((a)[0]))

enum { P_SHAPE, P_ENTRIES, P_COLUMNS, P_DETERMINISM, P_SMOKE, P_RECOLOR };

struct cst {
    const struct bl_plugin *p;
    const struct bl_coding_ops *ops;
    const struct bl_host *host;
    const union bl_value *v;
    int prop;
    size_t cases, refused;
    char refusal[BL_ERR_MAX];
};

struct ccase {
    size_t k, m;
    uint64_t seed;
    int *y;
    double *G;
};

static void cc_free(struct ccase *cs)
{
    free(cs->y), free(cs->G);
    memset(cs, 0, sizeof *cs);
}

static void cc_gen(struct ccase *cs, size_t k, size_t m, uint64_t seed)
{
    chk_rng r;
    chk_rng_seed(&r, seed);
    cs->k = k, cs->m = m, cs->seed = seed;
    cs->y = malloc(m * sizeof *cs->y);
    cs->G = malloc(m * k * sizeof *cs->G);
    for (size_t i = 0; i < m; i++)
        cs->y[i] = (int)(i < k ? i : chk_below(&r, k)); /* every class present when m >= k */
    for (size_t j = 0; j < m * k; j++)
        cs->G[j] = (double)((int)chk_below(&r, 17) - 8) / 8.0;
}

/* One code() call's M with its canary; the canary must stay NaN-patterned. */
static double *new_M(size_t k, size_t cmax)
{
    size_t n = k * cmax + CANARY;
    double *M = malloc(n * sizeof *M);
    for (size_t j = 0; j < n; j++)
        M[j] = -12345.0;
    return M;
}

static int canary_ok(const double *M, size_t k, size_t cmax)
{
    for (size_t j = 0; j < CANARY; j++)
        if (M[k * cmax + j] != -12345.0)
            return 0;
    return 1;
}

static void show_M(chk_buf *b, const double *M, size_t k, size_t c)
{
    if (k * c <= 400) {
        chk_mat(b, "M", M, k, c);
    } else {
        chk_printf(b, "M is %zu x %zu; first columns: ", k, c);
        double *part = malloc(k * 8 * sizeof *part);
        for (size_t r = 0; r < k; r++)
            for (size_t j = 0; j < 8; j++)
                part[r * 8 + j] = M[r * c + j];
        chk_mat(b, "M[:, 0..7]", part, k, 8);
        free(part);
    }
}

/* recolor's trial in the check: a fixed smooth function of M (weights
 * from the case), so descent has something to find. */
struct trial_ctx {
    const double *w;
    size_t n;
};

static double trial_fn(void *ctx, const double *M)
{
    const struct trial_ctx *t = ctx;
    double v = 0;
    for (size_t j = 0; j < t->n; j++)
        v += (M[j] - t->w[j]) * (M[j] - t->w[j]);
    return v;
}

/* The recolor property after one code() call: 1 on a failure. */
static int recolor_case(struct cst *S, void *C, const struct ccase *cs, uint64_t seed, double *M,
                        size_t c, chk_buf *why)
{
    bl_coding_recolor_fn rec = ((const struct bl_coding_ops *)S->p->ops)->recolor;
    size_t k = cs->k, m = cs->m;
    double *g = malloc(m * c * sizeof *g), *w = malloc(k * c * sizeof *w);
    double *before = malloc(k * c * sizeof *before);
    struct trial_ctx t = {w, k * c};
    chk_rng rg;
    chk_rng_seed(&rg, seed ^ 0x7265636f6c6f72ull);
    for (size_t j = 0; j < k * c; j++)
        w[j] = chk_range(&rg, -1.0, 1.0);
    int fail = 0;
    for (int call = 1; !fail; call++) {
        if (call > 64) {
            chk_printf(why, "recolor asked for a refit 64 times in a row (k = %zu); the engine "
                       "stops asking there, a coding must end on its own", k);
            fail = 1;
            break;
        }
        for (size_t j = 0; j < m * c; j++)
            g[j] = chk_range(&rg, -1.0, 1.0);
        memcpy(before, M, k * c * sizeof *M);
        char err[BL_ERR_MAX] = "";
        int rc = rec(C, cs->y, m, cs->G, g, trial_fn, &t, M, c, err);
        if (rc < BL_RECOLOR_DONE || rc > BL_RECOLOR_REFIT) {
            chk_printf(why, "recolor returned %d (k = %zu, call %d)%s%s", rc, k, call,
                       err[0] ? ": " : "", err);
            fail = 1;
            break;
        }
        if (rc == BL_RECOLOR_DONE && memcmp(before, M, k * c * sizeof *M)) {
            chk_printf(why, "recolor said DONE (M unchanged) but changed M (k = %zu, call %d)", k,
                       call);
            fail = 1;
            break;
        }
        for (size_t j = 0; j < c && !fail; j++) {
            int zero = 1, constant = 1;
            for (size_t r = 0; r < k; r++) {
                fail |= !isfinite(M[r * c + j]);
                zero &= M[r * c + j] == 0.0;
                constant &= M[r * c + j] == M[j];
            }
            if (fail || zero || constant) {
                chk_printf(why, "after recolor (k = %zu, call %d) column %zu of M is %s", k, call, j,
                           fail ? "not finite" : zero ? "all zero" : "constant");
                fail = 1;
            }
        }
        if (rc != BL_RECOLOR_REFIT)
            break;
    }
    free(g), free(w), free(before);
    return fail;
}

/* Run the case against S->prop: 1 on a failure, with why and more. */
static int run_case(struct cst *S, const struct ccase *cs, chk_buf *why, chk_buf *more)
{
    char err[BL_ERR_MAX] = "";
    size_t k = cs->k;
    S->cases++;
    void *C = S->ops->create(S->host, S->p->nparams ? S->v : NULL, k, err);
    if (!C) {
        if (!err[0]) {
            chk_printf(why, "create refused k = %zu without a message", k);
            return 1;
        }
        if (!S->refused++)
            snprintf(S->refusal, sizeof S->refusal, "k = %zu: %.90s%s", k, err,
                     strlen(err) > 90 ? "..." : "");
        return 0;
    }
    int fail = 0;
    size_t cmax = S->ops->max_columns(C);
    double *M = NULL, *M2 = NULL;
    void *C2 = NULL;
    if (cmax < 1 || cmax > ((size_t)1 << 24)) {
        chk_printf(why, "max_columns is %zu for k = %zu", cmax, k);
        fail = 1;
        goto out;
    }
    M = new_M(k, cmax);
    M2 = new_M(k, cmax);
    if (S->prop == P_DETERMINISM && !(C2 = S->ops->create(S->host, S->p->nparams ? S->v : NULL, k, err))) {
        chk_printf(why, "a second instance for k = %zu could not be created: %s", k, err);
        fail = 1;
        goto out;
    }
    for (int it = 0; it < CALLS && !fail; it++) {
        uint64_t seed = bl_mix64(cs->seed + (uint64_t)it);
        size_t c = 0, c2 = 0;
        err[0] = 0;
        if (S->ops->code(C, cs->y, cs->m, cs->G, seed, M, &c, err) != 0) {
            chk_printf(why, "code() failed for k = %zu (call %d): %s", k, it + 1,
                       err[0] ? err : "(no message)");
            fail = 1;
            break;
        }
        if (c < 1 || c > cmax) {
            chk_printf(why, "code() gave c = %zu columns for k = %zu, max_columns says %zu", c, k,
                       cmax);
            fail = 1;
            break;
        }
        if (!canary_ok(M, k, cmax)) {
            chk_printf(why, "code() wrote past k x max_columns = %zu x %zu entries", k, cmax);
            fail = 1;
            break;
        }
        switch (S->prop) {
        case P_ENTRIES:
        case P_SMOKE:
            for (size_t j = 0; j < k * c && !fail; j++)
                if (!isfinite(M[j])) {
                    chk_printf(why, "M[%zu][%zu] = %g (call %d)", j / c, j % c, M[j], it + 1);
                    fail = 1;
                }
            if (fail || S->prop == P_ENTRIES)
                break;
            /* the smoke test also wants the columns */
            /* FALLTHRU */
        case P_COLUMNS:
            for (size_t j = 0; j < c && !fail; j++) {
                int zero = 1, constant = 1;
                for (size_t r = 0; r < k; r++) {
                    zero &= M[r * c + j] == 0.0;
                    constant &= M[r * c + j] == M[j];
                }
                if (zero || constant) {
                    chk_printf(why, "column %zu of M (k = %zu, c = %zu, call %d) is %s", j, k, c,
                               it + 1, zero ? "all zero" : "constant");
                    fail = 1;
                }
            }
            break;
        case P_DETERMINISM:
            err[0] = 0;
            if (S->ops->code(C2, cs->y, cs->m, cs->G, seed, M2, &c2, err) != 0 || c2 != c ||
                memcmp(M, M2, k * c * sizeof *M)) {
                chk_printf(why, "a second instance gave a different code for the same k = %zu, "
                           "inputs and seed (call %d: c = %zu, then %zu)", k, it + 1, c, c2);
                if (c2 == c) {
                    show_M(more, M2, k, c);
                    chk_printf(more, "   (the second instance's)\n");
                }
                fail = 1;
            }
            break;
        case P_RECOLOR:
            fail = recolor_case(S, C, cs, seed, M, c, why);
            break;
        default:
            break;
        }
        if (fail) {
            chk_printf(more, "code() seed %#llx\n", (unsigned long long)seed);
            show_M(more, M, k, c);
        }
    }
out:
    free(M), free(M2);
    if (C2)
        S->ops->destroy(C2);
    S->ops->destroy(C);
    return fail;
}

static void describe(chk_buf *b, const void *p)
{
    const struct ccase *cs = p;
    chk_printf(b, "k=%zu m=%zu\n", cs->k, cs->m);
    chk_ivec(b, "y", cs->y, cs->m);
    chk_printf(b, "\n");
    chk_mat(b, "G", cs->G, cs->m, cs->k);
    chk_printf(b, "\n");
}

static int try_case(chk_ctx *c, struct cst *S, struct ccase *cs, size_t k, size_t m,
                    uint64_t seed, chk_buf *why, chk_buf *more)
{
    chk_clear(why);
    chk_clear(more);
    cc_gen(cs, k, m, seed);
    chk_case(c, "k=%zu m=%zu seed=%#llx", k, m, (unsigned long long)seed);
    return run_case(S, cs, why, more);
}

/* The smallest k (then m) that still fails, same seed scheme. */
static void shrink(chk_ctx *c, void *state, void *p)
{
    struct ccase *cs = p;
    chk_buf why = {0}, more = {0};
    size_t k0 = cs->k, m0 = cs->m;
    uint64_t seed = cs->seed;
    for (size_t k2 = 1; k2 <= k0; k2++) {
        int found = 0;
        for (size_t m2 = 1; m2 <= m0 && !found; m2++) {
            struct ccase cand;
            if (try_case(c, state, &cand, k2, m2, seed, &why, &more)) {
                cc_free(cs);
                *cs = cand;
                found = 1;
            } else {
                cc_free(&cand);
            }
        }
        if (found)
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

static enum chk_status search(chk_ctx *c, const union bl_value *v, int prop, const char *prefix,
                              int quick, struct cst *out)
{
    struct cst S;
    memset(&S, 0, sizeof S);
    S.p = c->p, S.ops = c->p->ops, S.host = c->host, S.v = v, S.prop = prop;
    chk_buf why = {0}, more = {0};
    uint64_t idx = 0;
    int fail = 0;
    int trials = quick ? 1 : c->trials;
    const size_t *kl = quick ? ks_params : ks;
    size_t nk = quick ? NEL(ks_params) : NEL(ks);
    for (int t = 0; t < trials && !fail; t++)
        for (size_t a = 0; a < nk && !fail; a++) {
            size_t k = kl[a], m = k + 5;
            struct ccase cs;
            uint64_t seed = chk_seed(c, "coding", idx++);
            if (try_case(c, &S, &cs, k, m, seed, &why, &more)) {
                struct ccase orig;
                char seen[64];
                cc_gen(&orig, k, m, seed);
                snprintf(seen, sizeof seen, "k=%zu", k);
                chk_shrink_report(c, &case_ops, &S, &cs, &orig, prefix, seen, seed, &why, &more);
                cc_free(&orig);
                fail = 1;
            }
            cc_free(&cs);
            if (quick && S.refused < S.cases)
                break; /* one accepted k is enough for a parameter variant */
        }
    chk_buf_free(&why);
    chk_buf_free(&more);
    if (!fail && S.refused == S.cases) {
        chk_detail(c, "%screate refused every k tried (2 .. 30), e.g. %s", prefix, S.refusal);
        fail = 1;
    }
    if (out)
        *out = S;
    return fail ? CHK_FAIL : CHK_PASS;
}

/* The check of one property, c->def->prop (its pass: c->def->pass). */
static enum chk_status prop_check(chk_ctx *c)
{
    struct cst S;
    enum chk_status st = search(c, c->v, c->def->prop, "", 0, &S);
    if (st == CHK_PASS) {
        chk_detail(c, "%s (k = 2 .. 30, %d code() calls each", c->def->pass, CALLS);
        if (S.refused)
            chk_printf(&c->detail, "; %zu of %zu refused with a message, e.g. %s", S.refused,
                       S.cases, S.refusal);
        chk_printf(&c->detail, ")");
    }
    chk_printf(&c->info, "%zu instances", S.cases);
    return st;
}

static enum chk_status check_recolor(chk_ctx *c)
{
    if (!((const struct bl_coding_ops *)c->p->ops)->recolor) {
        chk_detail(c, "no recolor (optional)");
        return CHK_SKIP;
    }
    return prop_check(c);
}

/* ---- the checks ---------------------------------------------------------------- */

static enum chk_status check_create(chk_ctx *c)
{
    const struct bl_coding_ops *o = c->p->ops;
    const union bl_value *v = c->p->nparams ? c->v : NULL;
    char err[BL_ERR_MAX] = "";
    for (size_t a = 0; a < NEL(ks); a++) {
        void *x = o->create(c->host, v, ks[a], err);
        if (!x)
            continue;
        void *y = o->create(c->host, v, ks[a], err);
        if (y)
            o->destroy(y);
        o->destroy(x);
        if (!y) {
            chk_detail(c, "a second instance for k = %zu could not be created: %s", ks[a], err);
            return CHK_FAIL;
        }
        chk_detail(c, "two instances for k = %zu created and destroyed", ks[a]);
        return CHK_PASS;
    }
    chk_detail(c, "create refused every k in 2 .. 30; the last said: %s",
               err[0] ? err : "(no message)");
    return CHK_FAIL;
}

static enum chk_status params_variant(chk_ctx *c, const chk_variant *var, const char *prefix)
{
    return search(c, var->v, P_SMOKE, prefix, 1, NULL);
}

static enum chk_status check_params(chk_ctx *c)
{
    return chk_params(c, params_variant, "accepted for some k, with a valid code");
}

static enum chk_status check_refusal(chk_ctx *c)
{
    const struct bl_coding_ops *o = c->p->ops;
    const union bl_value *v = c->p->nparams ? c->v : NULL;
    for (size_t k = 0; k < 2; k++) {
        char err[BL_ERR_MAX] = "";
        chk_case(c, "create with k = %zu", k);
        void *x = o->create(c->host, v, k, err);
        if (x) {
            o->destroy(x);
            chk_detail(c, "create accepted k = %zu (every column of a code for fewer than 2 "
                       "classes is constant)", k);
            return CHK_FAIL;
        }
        if (!err[0]) {
            chk_detail(c, "create refused k = %zu without a message", k);
            return CHK_FAIL;
        }
    }
    /* and every refusal among the usual class counts has a message */
    size_t refused = 0;
    chk_buf which = {0};
    for (size_t a = 0; a < NEL(ks); a++) {
        char err[BL_ERR_MAX] = "";
        chk_case(c, "create with k = %zu", ks[a]);
        void *x = o->create(c->host, v, ks[a], err);
        if (x) {
            o->destroy(x);
            continue;
        }
        if (!err[0]) {
            chk_detail(c, "create refused k = %zu without a message", ks[a]);
            chk_buf_free(&which);
            return CHK_FAIL;
        }
        chk_printf(&which, "%s%zu", refused++ ? ", " : "", ks[a]);
    }
    chk_detail(c, "k = 0 and 1 are refused with a message%s%s%s", refused ? "; so are k = " : "",
               chk_str(&which), refused ? ", cleanly" : "");
    chk_buf_free(&which);
    return CHK_PASS;
}

const chk_def chk_coding_checks[] = {
    {"create", check_create, 0, NULL},
    {"params", check_params, 0, NULL},
    {"refusal", check_refusal, 0, NULL},
    {"shape", prop_check, P_SHAPE, "max_columns >= 1, code() succeeds with 1 <= c <= "
     "max_columns and writes nothing beyond k x max_columns"},
    {"entries", prop_check, P_ENTRIES, "every entry of M is finite"},
    {"columns", prop_check, P_COLUMNS, "no column of M is all zero or constant"},
    {"determinism", prop_check, P_DETERMINISM, "two fresh instances given the same inputs and "
     "seeds return the same code"},
    {"recolor", check_recolor, P_RECOLOR, "recolor answers DONE (M unchanged), KEEP or REFIT, "
     "keeps M finite with no zero or constant column, and a run of refits ends"},
};
const size_t chk_coding_count = sizeof chk_coding_checks / sizeof chk_coding_checks[0];

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of the coding plugins (coding role): "ova", "ovo",
 * "random-half" (AdaBoost.ECC, stagewise spec §7.4), "dense-ecoc" (ECOC,
 * hingeboost-oc spec §3.7), "exhaustive" (AdaBoost.MO, stagewise spec §7.5)
 * and "binary" (AdaBoost, spec §5.3): shapes and entries of the code
 * matrices, no constant (or, where promised, duplicate up to sign)
 * columns, determinism per seed, fresh random-half colorings per seed,
 * dense-ecoc's minimum Hamming distance (against a single draw and against
 * a brute-force recomputation of the logged value), exhaustive's
 * 2^(k-1)-1 distinct colorings, refusals and their messages, descriptors.
 */
#include <criterion/criterion.h>
#include "testutil.h"

#include <math.h>

/* ---- plugin access ------------------------------------------------------- */

static const struct bl_plugin *cplug(const char *name)
{
    static const struct {
        const char *name, *module;
    } mods[] = {{"ova", "ova"},
                {"ovo", "ovo"},
                {"random-half", "random_half"},
                {"dense-ecoc", "dense_ecoc"},
                {"exhaustive", "exhaustive"},
                {"binary", "binary"}};
    for (size_t j = 0; j < sizeof mods / sizeof mods[0]; j++)
        if (!strcmp(mods[j].name, name)) {
            char rel[128];
            snprintf(rel, sizeof rel, "plugins/coding/%s", mods[j].module);
            return test_plugin(rel, name);
        }
    cr_assert_fail("no module for %s", name);
    return NULL;
}

static const struct bl_coding_ops *cops(const char *name)
{
    return cplug(name)->ops;
}

/* What the plugins log, for dense-ecoc's minimum Hamming distance. */
static char logbuf[8192];

static void capture_log(int level, const char *plugin, const char *fmt, ...)
{
    size_t n = strlen(logbuf);
    if (n + 1 >= sizeof logbuf)
        return;
    n += (size_t)snprintf(logbuf + n, sizeof logbuf - n, "[%d %s] ", level, plugin);
    if (n + 1 >= sizeof logbuf)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(logbuf + n, sizeof logbuf - n, fmt, ap);
    va_end(ap);
    n = strlen(logbuf);
    if (n + 1 < sizeof logbuf)
        strcat(logbuf, "\n");
}

static const struct bl_host log_host = {BL_SDK_VERSION, 1, capture_log};

/* Parameter values: the defaults, then name=value overrides (INT only). */
static void params_of(const struct bl_plugin *p, union bl_value *v, const char *name, int64_t val)
{
    test_defaults(p, v);
    if (!name)
        return;
    for (size_t j = 0; j < p->nparams; j++)
        if (!strcmp(p->params[j].name, name)) {
            cr_assert_eq(p->params[j].type, BL_PARAM_INT);
            v[j].i = val;
            return;
        }
    cr_assert_fail("%s has no parameter %s", p->name, name);
}

/* A coding instance; NULL (and err) when refused. */
static void *make2(const char *name, size_t k, const char *p1, int64_t v1, const char *p2,
                   int64_t v2, char err[BL_ERR_MAX])
{
    const struct bl_plugin *p = cplug(name);
    union bl_value v[8];
    cr_assert(p->nparams <= 8);
    params_of(p, v, p1, v1);
    if (p2)
        for (size_t j = 0; j < p->nparams; j++)
            if (!strcmp(p->params[j].name, p2))
                v[j].i = v2;
    err[0] = 0;
    logbuf[0] = 0;
    return ((const struct bl_coding_ops *)p->ops)->create(&log_host, p->nparams ? v : NULL, k, err);
}

static void *make(const char *name, size_t k)
{
    char err[BL_ERR_MAX];
    void *C = make2(name, k, NULL, 0, NULL, 0, err);
    cr_assert_not_null(C, "%s, k = %zu: %s", name, k, err);
    return C;
}

/* One code() call: M is k x max_columns, c returned. */
static double *code(const char *name, void *C, size_t k, uint64_t seed, size_t *c)
{
    const struct bl_coding_ops *o = cops(name);
    size_t cmax = o->max_columns(C);
    cr_assert(cmax >= 1);
    double *M = malloc(k * cmax * sizeof *M);
    /* labels and dual weights: the non-adaptive codes must ignore them */
    size_t m = 5;
    int y[5];
    double *G = malloc(m * k * sizeof *G);
    for (size_t i = 0; i < m; i++) {
        y[i] = (int)(i % k);
        for (size_t r = 0; r < k; r++)
            G[i * k + r] = urand() - 0.5;
    }
    char err[BL_ERR_MAX] = "";
    *c = 0;
    cr_assert_eq(o->code(C, y, m, G, seed, M, c, err), 0, "%s code: %s", name, err);
    cr_assert(*c >= 1 && *c <= cmax, "%s: %zu columns, max_columns %zu", name, *c, cmax);
    free(G);
    return M;
}

/* ---- properties ------------------------------------------------------------ */

static int entries_in(const double *M, size_t k, size_t c, int allow_zero)
{
    for (size_t q = 0; q < k * c; q++)
        if (!(M[q] == 1.0 || M[q] == -1.0 || (allow_zero && M[q] == 0.0)))
            return 0;
    return 1;
}

/* A column is constant when all its non-zero entries are equal (ignoring the
 * classes a column leaves out). */
static void assert_no_constant_columns(const double *M, size_t k, size_t c, const char *what)
{
    for (size_t j = 0; j < c; j++) {
        int pos = 0, neg = 0;
        for (size_t r = 0; r < k; r++)
            pos |= M[r * c + j] > 0, neg |= M[r * c + j] < 0;
        cr_assert(pos && neg, "%s: column %zu is constant", what, j);
    }
}

/* Columns pairwise different, also up to sign. */
static void assert_distinct_up_to_sign(const double *M, size_t k, size_t c, const char *what)
{
    for (size_t a = 0; a < c; a++)
        for (size_t b = a + 1; b < c; b++) {
            int same = 1, opp = 1;
            for (size_t r = 0; r < k; r++) {
                same &= M[r * c + a] == M[r * c + b];
                opp &= M[r * c + a] == -M[r * c + b];
            }
            cr_assert(!same && !opp, "%s: columns %zu and %zu are equal up to sign", what, a, b);
        }
}

/* Brute-force minimum Hamming distance between the rows. */
static size_t min_hamming(const double *M, size_t k, size_t c)
{
    size_t best = SIZE_MAX;
    for (size_t r = 0; r < k; r++)
        for (size_t s = r + 1; s < k; s++) {
            size_t dist = 0;
            for (size_t j = 0; j < c; j++)
                dist += M[r * c + j] != M[s * c + j];
            if (dist < best)
                best = dist;
        }
    return best;
}

/* The distance dense-ecoc logged ("... minimum Hamming distance between
 * codewords N"). */
static size_t logged_distance(void)
{
    const char *p = strstr(logbuf, "minimum Hamming distance between codewords ");
    cr_assert_not_null(p, "no distance in the log: %s", logbuf);
    return (size_t)strtoul(p + strlen("minimum Hamming distance between codewords "), NULL, 10);
}

static size_t ceil10log2(size_t k)
{
    size_t n = 0; /* smallest n with 2^n >= k^10 (doubles: exact enough here) */
    double v = 1;
    for (int j = 0; j < 10; j++)
        v *= (double)k;
    while (ldexp(1.0, (int)n) < v)
        n++;
    return n;
}

/* ---- descriptors ------------------------------------------------------------ */

Test(coding, descriptors)
{
    const char *names[] = {"ova", "ovo", "random-half", "dense-ecoc", "exhaustive", "binary"};
    const size_t np[] = {0, 0, 0, 3, 1, 0};
    for (size_t j = 0; j < 6; j++) {
        const struct bl_plugin *p = cplug(names[j]);
        cr_assert_eq(p->role, BL_ROLE_CODING, "%s", names[j]);
        cr_assert_eq(p->sdk_version, BL_SDK_VERSION);
        cr_assert_str_eq(p->name, names[j]);
        cr_assert(p->doc && strlen(p->doc) > 10);
        cr_assert_eq(p->nparams, np[j], "%s", names[j]);
        cr_assert(p->nparams == 0 || p->params);
        for (size_t q = 0; q < p->nparams; q++)
            cr_assert(p->params[q].name && p->params[q].def && p->params[q].doc &&
                      p->params[q].type == BL_PARAM_INT);
        const struct bl_coding_ops *o = p->ops;
        cr_assert(o && o->create && o->destroy && o->max_columns && o->code, "%s", names[j]);
    }
    const struct bl_plugin *e = cplug("dense-ecoc");
    cr_assert_str_eq(e->params[0].name, "columns");
    cr_assert_str_eq(e->params[0].def, "0");
    cr_assert_str_eq(e->params[1].name, "seed");
    cr_assert_str_eq(e->params[2].name, "candidates");
    cr_assert_str_eq(e->params[2].def, "1000");
    const struct bl_plugin *x = cplug("exhaustive");
    cr_assert_str_eq(x->params[0].name, "max_classes");
    cr_assert_str_eq(x->params[0].def, "13");
}

Test(coding, one_class_refused)
{
    const char *names[] = {"ova", "ovo", "random-half", "dense-ecoc", "exhaustive", "binary"};
    for (size_t j = 0; j < 6; j++) {
        char err[BL_ERR_MAX];
        void *C = make2(names[j], 1, NULL, 0, NULL, 0, err);
        cr_assert_null(C, "%s accepted k = 1", names[j]);
        cr_assert(strlen(err) > 0, "%s: no message", names[j]);
    }
}

/* ---- fixed codes --------------------------------------------------------------- */

Test(coding, ova)
{
    for (size_t k = 2; k <= 12; k++) {
        void *C = make("ova", k);
        cr_assert_eq(cops("ova")->max_columns(C), k);
        size_t c;
        double *M = code("ova", C, k, 1, &c);
        cr_assert_eq(c, k);
        for (size_t r = 0; r < k; r++)
            for (size_t j = 0; j < k; j++)
                cr_assert_eq(M[r * c + j], r == j ? 1.0 : -1.0, "k=%zu M[%zu][%zu]", k, r, j);
        assert_no_constant_columns(M, k, c, "ova");
        cr_assert_eq(min_hamming(M, k, c), 2);
        size_t c2;
        double *M2 = code("ova", C, k, 999, &c2); /* same code every iteration */
        cr_assert(c2 == c && !memcmp(M, M2, k * c * sizeof *M));
        free(M), free(M2);
        cops("ova")->destroy(C);
    }
}

Test(coding, ovo)
{
    for (size_t k = 2; k <= 12; k++) {
        void *C = make("ovo", k);
        size_t n = k * (k - 1) / 2, c;
        cr_assert_eq(cops("ovo")->max_columns(C), n);
        double *M = code("ovo", C, k, 1, &c);
        cr_assert_eq(c, n);
        cr_assert(entries_in(M, k, c, 1));
        size_t j = 0;
        for (size_t a = 0; a < k; a++)
            for (size_t b = a + 1; b < k; b++, j++)
                for (size_t r = 0; r < k; r++)
                    cr_assert_eq(M[r * c + j], r == a ? 1.0 : r == b ? -1.0 : 0.0,
                                 "k=%zu column %zu (%zu,%zu) row %zu", k, j, a, b, r);
        assert_no_constant_columns(M, k, c, "ovo");
        assert_distinct_up_to_sign(M, k, c, "ovo");
        size_t c2;
        double *M2 = code("ovo", C, k, 12345, &c2);
        cr_assert(c2 == c && !memcmp(M, M2, k * c * sizeof *M));
        free(M), free(M2);
        cops("ovo")->destroy(C);
    }
}

Test(coding, binary)
{
    void *C = make("binary", 2);
    cr_assert_eq(cops("binary")->max_columns(C), 1);
    size_t c;
    double *M = code("binary", C, 2, 7, &c);
    cr_assert_eq(c, 1);
    cr_assert(M[0] == 1.0 && M[1] == -1.0);
    free(M);
    cops("binary")->destroy(C);
    for (size_t k = 3; k <= 5; k++) {
        char err[BL_ERR_MAX], num[32];
        cr_assert_null(make2("binary", k, NULL, 0, NULL, 0, err));
        snprintf(num, sizeof num, "%zu classes", k);
        cr_assert(strstr(err, "AdaBoost is binary") && strstr(err, num) && strstr(err, "use "),
                  "message: %s", err);
    }
}

Test(coding, exhaustive)
{
    for (size_t k = 2; k <= 13; k++) {
        void *C = make("exhaustive", k);
        size_t n = ((size_t)1 << (k - 1)) - 1, c;
        cr_assert_eq(cops("exhaustive")->max_columns(C), n);
        double *M = code("exhaustive", C, k, 3, &c);
        cr_assert_eq(c, n, "k=%zu: %zu columns", k, c);
        cr_assert(entries_in(M, k, c, 0));
        assert_no_constant_columns(M, k, c, "exhaustive");
        if (k <= 10) /* O(c^2 k) */
            assert_distinct_up_to_sign(M, k, c, "exhaustive");
        else { /* distinct up to sign <=> the normalised columns (row 0 = +1) are distinct */
            size_t words = ((size_t)1 << k) / 64 + 1;
            uint64_t *seen = calloc(words, sizeof *seen);
            for (size_t j = 0; j < c; j++) {
                double s = M[j];
                size_t key = 0;
                for (size_t r = 0; r < k; r++)
                    key = key << 1 | (M[r * c + j] * s > 0);
                cr_assert(!(seen[key / 64] >> (key % 64) & 1), "k=%zu: column %zu repeats", k, j);
                seen[key / 64] |= 1ull << (key % 64);
            }
            free(seen);
        }
        for (size_t j = 0; j < c; j++) /* the construction: row 0 all +1 */
            cr_assert_eq(M[j], 1.0);
        cr_assert_eq(min_hamming(M, k, c), (size_t)1 << (k - 2), "k=%zu", k);
        size_t c2;
        double *M2 = code("exhaustive", C, k, 4, &c2);
        cr_assert(c2 == c && !memcmp(M, M2, k * c * sizeof *M));
        free(M), free(M2);
        cops("exhaustive")->destroy(C);
    }
}

Test(coding, exhaustive_refusals)
{
    char err[BL_ERR_MAX];
    cr_assert_null(make2("exhaustive", 14, NULL, 0, NULL, 0, err));
    cr_assert(strstr(err, "2^(k-1)-1 = 8191 columns for k = 14 classes") &&
                  strstr(err, "max_classes = 13") && strstr(err, "refused"),
              "message: %s", err);
    cr_assert_null(make2("exhaustive", 26, NULL, 0, NULL, 0, err));
    cr_assert(strstr(err, "33554431") && strstr(err, "k = 26"), "message: %s", err);
    cr_assert_null(make2("exhaustive", 200, NULL, 0, NULL, 0, err));
    cr_assert(strstr(err, "k = 200") && strstr(err, "max_classes"), "message: %s", err);
    cr_assert_null(make2("exhaustive", 6, "max_classes", 5, NULL, 0, err));
    cr_assert(strstr(err, "= 31 columns") && strstr(err, "max_classes = 5"), "message: %s", err);
    void *C = make2("exhaustive", 5, "max_classes", 5, NULL, 0, err);
    cr_assert_not_null(C, "%s", err);
    cops("exhaustive")->destroy(C);
    C = make2("exhaustive", 14, "max_classes", 14, NULL, 0, err);
    cr_assert_not_null(C, "%s", err);
    cr_assert_eq(cops("exhaustive")->max_columns(C), 8191);
    cops("exhaustive")->destroy(C);
}

/* ---- random-half ------------------------------------------------------------ */

Test(coding, random_half_shape)
{
    for (size_t k = 2; k <= 15; k++) {
        void *C = make("random-half", k);
        cr_assert_eq(cops("random-half")->max_columns(C), 1);
        for (uint64_t s = 0; s < 50; s++) {
            size_t c;
            double *M = code("random-half", C, k, s * 7919 + k, &c);
            cr_assert_eq(c, 1);
            cr_assert(entries_in(M, k, 1, 0));
            size_t pos = 0;
            for (size_t r = 0; r < k; r++)
                pos += M[r] > 0;
            cr_assert_eq(pos, (k + 1) / 2, "k=%zu: %zu classes on +1 (expected ceil(k/2))", k, pos);
            assert_no_constant_columns(M, k, 1, "random-half");
            free(M);
        }
        cops("random-half")->destroy(C);
    }
}

Test(coding, random_half_deterministic_and_fresh)
{
    size_t k = 9;
    void *C1 = make("random-half", k), *C2 = make("random-half", k);
    size_t distinct = 0;
    double prev[9] = {0};
    for (uint64_t s = 1; s <= 200; s++) {
        size_t c1, c2, c3;
        double *A = code("random-half", C1, k, s, &c1);
        double *B = code("random-half", C2, k, s, &c2); /* another instance */
        double *A2 = code("random-half", C1, k, s, &c3); /* the same instance again */
        cr_assert(!memcmp(A, B, k * sizeof *A) && !memcmp(A, A2, k * sizeof *A),
                  "seed %llu: not deterministic", (unsigned long long)s);
        distinct += memcmp(A, prev, k * sizeof *A) != 0;
        memcpy(prev, A, k * sizeof *A);
        free(A), free(B), free(A2);
    }
    /* C(9,5) = 126 colorings: consecutive seeds almost never repeat */
    cr_assert(distinct >= 195, "only %zu changes over 200 seeds", distinct);
    cops("random-half")->destroy(C1);
    cops("random-half")->destroy(C2);
}

/* Every class lands on +1 with probability ceil(k/2)/k, and every pair of
 * seeds tried gives many different colorings. */
Test(coding, random_half_balanced)
{
    size_t k = 6, N = 4000, on[6] = {0};
    void *C = make("random-half", k);
    char seen[64] = {0};
    for (uint64_t s = 0; s < N; s++) {
        size_t c;
        double *M = code("random-half", C, k, s ^ 0xABCDEFull, &c);
        size_t key = 0;
        for (size_t r = 0; r < k; r++) {
            on[r] += M[r] > 0;
            key = key << 1 | (M[r] > 0);
        }
        seen[key] = 1;
        free(M);
    }
    for (size_t r = 0; r < k; r++)
        cr_assert(fabs((double)on[r] / (double)N - 0.5) < 0.05, "class %zu on +1 %zu of %zu", r,
                  on[r], N);
    size_t nseen = 0;
    for (size_t j = 0; j < 64; j++)
        nseen += seen[j];
    cr_assert_eq(nseen, 20, "C(6,3) = 20 colorings, saw %zu", nseen);
    cops("random-half")->destroy(C);
}

/* ---- dense-ecoc -------------------------------------------------------------- */

static double *ecoc(size_t k, int64_t columns, int64_t seed, int64_t cand, size_t *c,
                    size_t *logged)
{
    char err[BL_ERR_MAX];
    const struct bl_plugin *p = cplug("dense-ecoc");
    union bl_value v[3];
    params_of(p, v, "columns", columns);
    v[1].i = seed;
    v[2].i = cand;
    logbuf[0] = 0;
    void *C = ((const struct bl_coding_ops *)p->ops)->create(&log_host, v, k, err);
    cr_assert_not_null(C, "dense-ecoc k=%zu columns=%lld: %s", k, (long long)columns, err);
    if (logged)
        *logged = logged_distance();
    double *M = code("dense-ecoc", C, k, 77, c);
    size_t c2;
    double *M2 = code("dense-ecoc", C, k, 78, &c2); /* the same code every iteration */
    cr_assert(c2 == *c && !memcmp(M, M2, k * *c * sizeof *M));
    free(M2);
    cops("dense-ecoc")->destroy(C);
    return M;
}

Test(coding, dense_ecoc_shape_and_validity)
{
    const size_t ks[] = {2, 3, 4, 5, 6, 7, 8, 10, 11, 15, 21, 22, 26, 40, 70, 130};
    for (size_t q = 0; q < sizeof ks / sizeof ks[0]; q++) {
        size_t k = ks[q], c, logged;
        double *M = ecoc(k, 0, 5, 200, &c, &logged);
        size_t ndist = k < 40 ? ((size_t)1 << (k - 1)) - 1 : SIZE_MAX;
        size_t want = ceil10log2(k) < ndist ? ceil10log2(k) : ndist;
        cr_assert_eq(c, want, "k=%zu: %zu columns, expected %zu", k, c, want);
        cr_assert(entries_in(M, k, c, 0));
        assert_no_constant_columns(M, k, c, "dense-ecoc");
        assert_distinct_up_to_sign(M, k, c, "dense-ecoc");
        size_t dm = min_hamming(M, k, c);
        cr_assert_eq(dm, logged, "k=%zu: logged distance %zu, recomputed %zu", k, logged, dm);
        if (c == ndist) /* the exhaustive code up to column order and sign */
            cr_assert_eq(dm, (size_t)1 << (k - 2));
        cr_assert(dm >= 1, "k=%zu: two classes share a codeword", k);
        free(M);
    }
}

Test(coding, dense_ecoc_default_lengths)
{
    /* Allwein et al.'s ceil(10 log2 k), the lengths of hingeboost-oc §3.7 */
    const size_t ks[] = {10, 11, 15, 397}, ns[] = {34, 35, 40, 87};
    for (size_t q = 0; q < 4; q++) {
        size_t c;
        double *M = ecoc(ks[q], 0, 1, q == 3 ? 50 : 1000, &c, NULL);
        cr_assert_eq(c, ns[q], "k=%zu: %zu columns", ks[q], c);
        free(M);
    }
}

Test(coding, dense_ecoc_explicit_columns)
{
    size_t c, logged;
    double *M = ecoc(10, 20, 3, 100, &c, &logged);
    cr_assert_eq(c, 20);
    assert_distinct_up_to_sign(M, 10, c, "dense-ecoc columns=20");
    cr_assert_eq(min_hamming(M, 10, c), logged);
    free(M);
    M = ecoc(4, 7, 3, 100, &c, &logged); /* all 7 colorings of 4 classes */
    cr_assert_eq(c, 7);
    cr_assert_eq(logged, 4);
    free(M);
    char err[BL_ERR_MAX];
    cr_assert_null(make2("dense-ecoc", 4, "columns", 8, NULL, 0, err));
    cr_assert(strstr(err, "7") && strstr(err, "exhaustive"), "message: %s", err);
}

Test(coding, dense_ecoc_deterministic_per_seed)
{
    for (size_t q = 0; q < 3; q++) {
        size_t k = q == 0 ? 8 : q == 1 ? 12 : 30, c1, c2, c3;
        double *A = ecoc(k, 0, 42, 100, &c1, NULL);
        double *B = ecoc(k, 0, 42, 100, &c2, NULL);
        double *D = ecoc(k, 0, 43, 100, &c3, NULL);
        cr_assert(c1 == c2 && !memcmp(A, B, k * c1 * sizeof *A), "k=%zu: same seed, other code", k);
        cr_assert(c1 == c3 && memcmp(A, D, k * c1 * sizeof *A) != 0, "k=%zu: seeds 42, 43 agree", k);
        free(A), free(B), free(D);
    }
}

/* Best of many candidates is at least as good as the first draw alone (the
 * same seed gives the same first draw), and the logged distance is the
 * recomputed one. */
Test(coding, dense_ecoc_best_of_candidates)
{
    const size_t ks[] = {8, 10, 15, 26};
    size_t strictly = 0, total = 0;
    for (size_t q = 0; q < 4; q++)
        for (int64_t seed = 1; seed <= 6; seed++) {
            size_t k = ks[q], c1, cn, l1, ln;
            double *M1 = ecoc(k, 0, seed, 1, &c1, &l1);
            double *Mn = ecoc(k, 0, seed, 1000, &cn, &ln);
            size_t d1 = min_hamming(M1, k, c1), dn = min_hamming(Mn, k, cn);
            cr_assert_eq(d1, l1);
            cr_assert_eq(dn, ln);
            cr_assert(dn >= d1, "k=%zu seed %lld: best of 1000 has distance %zu < %zu of one draw",
                      k, (long long)seed, dn, d1);
            strictly += dn > d1;
            total++;
            free(M1), free(Mn);
        }
    cr_assert(strictly >= total / 2, "the search improved only %zu of %zu codes", strictly, total);
}

Test(coding, dense_ecoc_logs_distance)
{
    size_t c;
    double *M = ecoc(12, 0, 9, 300, &c, NULL);
    cr_assert(strstr(logbuf, "[1 dense-ecoc]"), "logged at level 1 under the plugin's name: %s",
              logbuf);
    free(M);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the results store: schema creation and checks, exact round
 * trips of runs and curves, replacement, selection, export, refusal of
 * files that are not boostlab stores, and that a writer killed at random
 * moments never leaves a partial run or a damaged database. */
#define _GNU_SOURCE /* nftw, usleep */
#include <criterion/criterion.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../framework/store/store.h"
#include "../../framework/util/fsutil.h"

static char tmpdir[64];
static char dbpath[128];

static void setup(void)
{
    strcpy(tmpdir, "/tmp/bl-store-XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
    snprintf(dbpath, sizeof dbpath, "%s/results.sqlite", tmpdir);
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void teardown(void)
{
    nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(store, .init = setup, .fini = teardown);

/* ---- helpers ------------------------------------------------------------ */

static uint64_t xs;

static uint64_t next64(void)
{
    xs ^= xs << 13;
    xs ^= xs >> 7;
    xs ^= xs << 17;
    return xs;
}

/* A double using every mantissa bit, so that any rounding shows. */
static double rnd(double scale)
{
    return scale * (double)(next64() >> 11) / 9007199254740992.0 + 1e-300;
}

/* A curve built as the engine builds it (bl_xmalloc'ed columns). */
static void make_curve(bl_curve *c, size_t n, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    xs = seed * 0x9E3779B97F4A7C15ull + 1;
    c->n = c->cap = n;
    double **cols[] = {&c->train_loss, &c->train_err, &c->test_err, &c->edge,
                       &c->t_weak, &c->t_coef, &c->t_book};
    for (size_t j = 0; j < sizeof cols / sizeof *cols; j++) {
        *cols[j] = bl_xmalloc((n ? n : 1) * sizeof(double));
        for (size_t i = 0; i < n; i++)
            (*cols[j])[i] = rnd(j == 0 ? 1e3 : 1.0);
    }
    c->solver_iters = bl_xmalloc((n ? n : 1) * sizeof(int));
    for (size_t i = 0; i < n; i++)
        c->solver_iters[i] = (int)(next64() % 1000);
    c->stop = seed % 2 ? BL_STOP_DUAL : BL_STOP_BUDGET;
    c->train_loss0 = rnd(10);
    c->train_err0 = rnd(1);
    c->test_err0 = rnd(1);
}

static int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static void assert_same_curve(const bl_curve *a, const bl_curve *b)
{
    cr_assert_eq(a->n, b->n);
    cr_assert_eq(a->stop, b->stop);
    cr_assert(same_double(a->train_loss0, b->train_loss0));
    cr_assert(same_double(a->train_err0, b->train_err0));
    cr_assert(same_double(a->test_err0, b->test_err0));
    for (size_t j = 0; j < a->n; j++) {
        cr_assert(same_double(a->train_loss[j], b->train_loss[j]), "train_loss[%zu]", j);
        cr_assert(same_double(a->train_err[j], b->train_err[j]), "train_err[%zu]", j);
        cr_assert(same_double(a->test_err[j], b->test_err[j]), "test_err[%zu]", j);
        cr_assert(same_double(a->edge[j], b->edge[j]), "edge[%zu]", j);
        cr_assert(same_double(a->t_weak[j], b->t_weak[j]), "t_weak[%zu]", j);
        cr_assert(same_double(a->t_coef[j], b->t_coef[j]), "t_coef[%zu]", j);
        cr_assert(same_double(a->t_book[j], b->t_book[j]), "t_book[%zu]", j);
        cr_assert_eq(a->solver_iters[j], b->solver_iters[j]);
    }
}

static bl_store *open_store(void)
{
    bl_store *s;
    bl_error err;
    cr_assert_eq(bl_store_open(dbpath, &s, &err), 0, "%s", err.msg);
    return s;
}

static bl_run_key key_of(const char *ex, const char *data, const char *algo, int rep)
{
    bl_run_key k = {ex, data, 0xFEDCBA9876543210ull, algo, 0x8000000000000001ull, UINT64_MAX,
                    rep};
    return k;
}

static void commit(bl_store *s, const bl_run_key *k, const char *sweep, size_t n, uint64_t seed)
{
    bl_run_info in = {"mcboost-exp", "[loss]\nplugin = exp\n", sweep, 100, 50, 3, 4, 2,
                      "host-a", 1.7e9, 1.7e9 + 12.5, 0, NULL, NULL, NULL};
    bl_curve c;
    bl_error err;
    make_curve(&c, n, seed);
    cr_assert_eq(bl_store_commit(s, k, &in, &c, &err), 0, "%s", err.msg);
    bl_curve_free(&c);
}

/* Raw SQL on the store file, for what the API does not show. */
static sqlite3 *raw_open(const char *path)
{
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    return db;
}

static sqlite3_int64 raw_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s: %s", sql,
                 sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s", sql);
    sqlite3_int64 v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static char *raw_text(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s: %s", sql,
                 sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s", sql);
    char *v = bl_strdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return v;
}

static void raw_exec(const char *path, const char *sql)
{
    sqlite3 *db = raw_open(path);
    cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
    sqlite3_close(db);
}

/* ---- schema ------------------------------------------------------------- */

Test(store, creates_schema_and_reopens)
{
    bl_store *s = open_store();
    bl_store_close(s);
    sqlite3 *db = raw_open(dbpath);
    char *app = raw_text(db, "SELECT value FROM meta WHERE key = 'application'");
    char *ver = raw_text(db, "SELECT value FROM meta WHERE key = 'schema'");
    char *mode = raw_text(db, "PRAGMA journal_mode");
    cr_assert_str_eq(app, "boostlab");
    cr_assert_str_eq(ver, "2");
    cr_assert_str_eq(mode, "wal");
    cr_assert_eq(raw_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                             "name IN ('meta', 'runs', 'curves')"), 3);
    cr_assert_eq(raw_int(db, "SELECT count(*) FROM pragma_table_info('runs')"), 32);
    free(app);
    free(ver);
    free(mode);
    sqlite3_close(db);

    s = open_store(); /* reopening an existing store */
    bl_run_key k = key_of("e", "d", "a", 0);
    commit(s, &k, "", 3, 1);
    bl_store_close(s);
    s = open_store();
    bl_error err;
    cr_assert_eq(bl_store_has(s, &k, &err), 1, "%s", err.msg);
    bl_store_close(s);
}

Test(store, empty_file_becomes_a_store)
{
    FILE *f = fopen(dbpath, "w");
    fclose(f);
    bl_store *s;
    bl_error err;
    cr_assert_eq(bl_store_open_ro(dbpath, &s, &err), -1);
    cr_assert(strstr(err.msg, dbpath), "%s", err.msg);
    s = open_store();
    bl_store_close(s);
}

/* ---- round trips -------------------------------------------------------- */

Test(store, commit_get_round_trip)
{
    bl_store *s = open_store();
    bl_run_key k = key_of("exp", "letter[classes=4]", "mcboost-exp[shrinkage=0.5]", 7);
    bl_run_info in = {"mcboost-exp", "[loss]\nplugin = exp\n", "shrinkage=0.5", 12345, 678, 26,
                      16, 8, "node-17", 1712345678.25, 1712345999.75, 0, NULL, NULL, NULL};
    bl_curve c;
    make_curve(&c, 250, 42);
    c.test_err[249] = NAN; /* no test set for the last entry: final test error NaN */
    c.edge[10] = NAN;
    c.t_coef[3] = 1e300;
    c.train_loss[5] = 1e-310; /* subnormal */
    bl_error err;
    cr_assert_eq(bl_store_has(s, &k, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_store_commit(s, &k, &in, &c, &err), 0, "%s", err.msg);
    cr_assert_eq(bl_store_has(s, &k, &err), 1, "%s", err.msg);

    /* every key field counts, down to the top bit of a hash */
    bl_run_key o = k;
    o.data_hash ^= 1ull << 63;
    cr_assert_eq(bl_store_has(s, &o, &err), 0);
    o = k;
    o.split_seed = UINT64_MAX - 1;
    cr_assert_eq(bl_store_has(s, &o, &err), 0);
    o = k;
    o.rep = 6;
    cr_assert_eq(bl_store_has(s, &o, &err), 0);
    o = k;
    o.experiment = "exp2";
    cr_assert_eq(bl_store_get(s, &o, &(bl_store_row){0}, &err), 0);

    bl_store_row r;
    cr_assert_eq(bl_store_get(s, &k, &r, &err), 1, "%s", err.msg);
    cr_assert_str_eq(r.experiment, "exp");
    cr_assert_str_eq(r.data, "letter[classes=4]");
    cr_assert_str_eq(r.algo, "mcboost-exp[shrinkage=0.5]");
    cr_assert_str_eq(r.recipe, "mcboost-exp");
    cr_assert_str_eq(r.params, "[loss]\nplugin = exp\n");
    cr_assert_str_eq(r.sweep, "shrinkage=0.5");
    cr_assert_str_eq(r.host, "node-17");
    cr_assert_eq(r.data_hash, 0xFEDCBA9876543210ull);
    cr_assert_eq(r.algo_hash, 0x8000000000000001ull);
    cr_assert_eq(r.split_seed, UINT64_MAX);
    cr_assert_eq(r.rep, 7);
    cr_assert_eq(r.threads, 8);
    cr_assert_eq(r.m_train, 12345);
    cr_assert_eq(r.m_test, 678);
    cr_assert_eq(r.k, 26);
    cr_assert_eq(r.d, 16);
    cr_assert_eq(r.started, 1712345678.25);
    cr_assert_eq(r.finished, 1712345999.75);
    bl_run_result want;
    bl_run_result_from(&c, &want);
    cr_assert(isnan(r.res.test_err));
    cr_assert(same_double(r.res.train_err, want.train_err));
    cr_assert(same_double(r.res.train_loss, want.train_loss));
    cr_assert(same_double(r.res.t_weak, want.t_weak));
    cr_assert(same_double(r.res.t_coef, want.t_coef));
    cr_assert(same_double(r.res.t_book, want.t_book));
    cr_assert(same_double(r.res.t_total, want.t_total));
    cr_assert_eq(r.res.iterations, 250);
    cr_assert_eq(r.res.stopped_early, want.stopped_early);

    bl_curve back;
    cr_assert_eq(bl_store_curve(s, r.id, &back, &err), 0, "%s", err.msg);
    cr_assert_eq(back.cap, back.n);
    assert_same_curve(&c, &back);
    bl_curve_free(&back);
    cr_assert_eq(bl_store_curve(s, r.id + 1000, &back, &err), -1);
    cr_assert(strstr(err.msg, dbpath), "%s", err.msg);
    bl_store_row_free(&r);
    bl_curve_free(&c);
    bl_store_close(s);
}

Test(store, empty_curve_and_null_info)
{
    bl_store *s = open_store();
    bl_run_key k = key_of("e", "iris", "ada", 0);
    bl_run_info in = {NULL, NULL, NULL, 10, 0, 3, 4, 1, NULL, NAN, NAN, 0, NULL, NULL, NULL};
    bl_curve c;
    make_curve(&c, 0, 3);
    c.stop = BL_STOP_DUAL;
    c.test_err0 = NAN;
    bl_error err;
    cr_assert_eq(bl_store_commit(s, &k, &in, &c, &err), 0, "%s", err.msg);
    bl_store_row r;
    cr_assert_eq(bl_store_get(s, &k, &r, &err), 1, "%s", err.msg);
    cr_assert_null(r.recipe);
    cr_assert_null(r.params);
    cr_assert_null(r.host);
    cr_assert_str_eq(r.sweep, "");
    cr_assert(isnan(r.started) && isnan(r.finished));
    cr_assert_eq(r.res.iterations, 0);
    cr_assert_eq(r.res.stopped_early, 1);
    cr_assert(isnan(r.res.test_err));
    cr_assert(same_double(r.res.train_err, c.train_err0));
    cr_assert(same_double(r.res.train_loss, c.train_loss0));
    cr_assert_eq(r.res.t_total, 0);
    bl_curve back;
    cr_assert_eq(bl_store_curve(s, r.id, &back, &err), 0, "%s", err.msg);
    assert_same_curve(&c, &back);
    bl_curve_free(&back);
    bl_store_row_free(&r);
    bl_curve_free(&c);
    bl_store_close(s);
}

Test(store, replace_on_same_key)
{
    bl_store *s = open_store();
    bl_run_key k = key_of("e", "d", "a", 1);
    commit(s, &k, "x=1", 50, 1);
    commit(s, &k, "x=2", 3, 2);
    bl_error err;
    bl_store_row *rows;
    size_t n;
    cr_assert_eq(bl_store_select(s, NULL, &rows, &n, &err), 0, "%s", err.msg);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(rows[0].sweep, "x=2");
    bl_curve c, want;
    cr_assert_eq(bl_store_curve(s, rows[0].id, &c, &err), 0, "%s", err.msg);
    make_curve(&want, 3, 2);
    assert_same_curve(&want, &c);
    bl_curve_free(&c);
    bl_curve_free(&want);
    bl_store_rows_free(rows, n);
    bl_store_close(s);
    /* the first run's curve went with it */
    sqlite3 *db = raw_open(dbpath);
    cr_assert_eq(raw_int(db, "SELECT count(*) FROM curves"), 3);
    cr_assert_eq(raw_int(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0, "dangling curve rows");
    sqlite3_close(db);
}

/* ---- selection ---------------------------------------------------------- */

static size_t count_sel(bl_store *s, const char *ex, const char *data, const char *algo,
                        const char *where)
{
    bl_store_filter f = {ex, data, algo, where};
    bl_store_row *rows;
    size_t n;
    bl_error err;
    cr_assert_eq(bl_store_select(s, &f, &rows, &n, &err), 0, "%s", err.msg);
    bl_store_rows_free(rows, n);
    return n;
}

Test(store, select_globs_and_where)
{
    bl_store *s = open_store();
    bl_run_key k[] = {key_of("e2", "iris", "mcboost-log", 0),
                      key_of("e1", "letter[classes=4]", "ada", 1),
                      key_of("e1", "letter[classes=8]", "mcboost-exp", 0),
                      key_of("e1", "iris", "ada", 0),
                      key_of("e1", "letter[classes=4]", "ada", 0)};
    const char *sweep[] = {"depth=3", "shrinkage=0.5,depth=2", "shrinkage=1, depth=2", "",
                           "shrinkage=0.5,depth=2"};
    for (size_t j = 0; j < 5; j++)
        commit(s, &k[j], sweep[j], 2, j);

    bl_store_row *rows;
    size_t n;
    bl_error err;
    cr_assert_eq(bl_store_select(s, NULL, &rows, &n, &err), 0, "%s", err.msg);
    cr_assert_eq(n, 5);
    /* ordered by experiment, data, algo, rep */
    const char *order[][3] = {{"e1", "iris", "ada"},
                              {"e1", "letter[classes=4]", "ada"},
                              {"e1", "letter[classes=4]", "ada"},
                              {"e1", "letter[classes=8]", "mcboost-exp"},
                              {"e2", "iris", "mcboost-log"}};
    for (size_t j = 0; j < 5; j++) {
        cr_assert_str_eq(rows[j].experiment, order[j][0]);
        cr_assert_str_eq(rows[j].data, order[j][1]);
        cr_assert_str_eq(rows[j].algo, order[j][2]);
    }
    cr_assert_eq(rows[1].rep, 0);
    cr_assert_eq(rows[2].rep, 1);
    bl_store_rows_free(rows, n);

    cr_assert_eq(count_sel(s, NULL, "letter*", NULL, NULL), 3);
    cr_assert_eq(count_sel(s, NULL, "letter[classes=4]", NULL, NULL), 2); /* literal name */
    cr_assert_eq(count_sel(s, NULL, "*\\[classes=?]", NULL, NULL), 3);
    cr_assert_eq(count_sel(s, NULL, "iris", NULL, NULL), 2);
    cr_assert_eq(count_sel(s, NULL, "ir", NULL, NULL), 0);
    cr_assert_eq(count_sel(s, NULL, NULL, "mc*", NULL), 2);
    cr_assert_eq(count_sel(s, NULL, NULL, "*-exp", NULL), 1);
    cr_assert_eq(count_sel(s, "e1", NULL, NULL, NULL), 4);
    cr_assert_eq(count_sel(s, "e", NULL, NULL, NULL), 0);
    cr_assert_eq(count_sel(s, NULL, NULL, NULL, "depth=2"), 3);
    cr_assert_eq(count_sel(s, NULL, NULL, NULL, "depth=20"), 0);
    cr_assert_eq(count_sel(s, NULL, NULL, NULL, "pth=2"), 0);
    cr_assert_eq(count_sel(s, NULL, NULL, NULL, "depth=2,shrinkage=1"), 1);
    cr_assert_eq(count_sel(s, NULL, NULL, NULL, "shrinkage=0.5"), 2);
    cr_assert_eq(count_sel(s, "e1", "letter*", "ada", "depth=2"), 2);
    cr_assert_eq(count_sel(s, "e2", "letter*", NULL, NULL), 0);
    bl_store_close(s);
}

/* ---- export ------------------------------------------------------------- */

static char *export(bl_store *s, int json, int curves, const bl_store_filter *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    bl_error err;
    int rc = json ? bl_store_export_json(s, f, curves, out, &err)
                  : bl_store_export_csv(s, f, curves, out, &err);
    cr_assert_eq(rc, 0, "%s", err.msg);
    fclose(out);
    return buf;
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Brackets balance outside strings and strings hold no raw control
 * characters: enough to catch broken escaping or structure. */
static int json_plausible(const char *s)
{
    int depth = 0, in_str = 0;
    for (; *s; s++) {
        if (in_str) {
            if ((unsigned char)*s < 0x20)
                return 0;
            if (*s == '\\')
                s++;
            else if (*s == '"')
                in_str = 0;
        } else if (*s == '"') {
            in_str = 1;
        } else if (*s == '[' || *s == '{') {
            depth++;
        } else if (*s == ']' || *s == '}') {
            if (--depth < 0)
                return 0;
        }
    }
    return depth == 0 && !in_str;
}

static void commit_odd(bl_store *s)
{
    bl_run_key k = key_of("e", "d,1", "a\"b", 0);
    bl_run_info in = {"r", "line1\n\"q\"\x01\\", "a=1,b=2", 5, 2, 2, 3, 1, "node, \"7\"", 100.5,
                      200.25, 0, NULL, NULL, NULL};
    bl_curve c;
    make_curve(&c, 3, 9);
    c.stop = BL_STOP_BUDGET;
    c.test_err[2] = NAN;
    c.edge[1] = INFINITY;
    bl_error err;
    cr_assert_eq(bl_store_commit(s, &k, &in, &c, &err), 0, "%s", err.msg);
    bl_curve_free(&c);
}

Test(store, export_csv)
{
    bl_store *s = open_store();
    char *out = export(s, 0, 0, NULL);
    cr_assert_str_eq(out, "experiment,data,data_hash,algo,algo_hash,split_seed,rep,recipe,sweep,"
                          "host,threads,m_train,m_test,k,d,started,finished,iterations,"
                          "stopped_early,trees,test_err,train_err,train_loss,t_weak,t_coef,t_book,"
                          "t_total,params\n");
    free(out);
    commit_odd(s);
    out = export(s, 0, 0, NULL);
    cr_assert(strstr(out, "\ne,\"d,1\",fedcba9876543210,\"a\"\"b\",8000000000000001,"
                          "ffffffffffffffff,0,r,\"a=1,b=2\",\"node, \"\"7\"\"\",1,5,2,2,3,"
                          "100.500,200.250,3,0,3,,"),
              "%s", out);
    cr_assert(strstr(out, ",\"line1\n\"\"q\"\"\x01\\\"\n"), "%s", out);
    free(out);

    out = export(s, 0, 1, NULL);
    cr_assert_eq(count_lines(out), 4, "%s", out);
    static const char head[] = "experiment,data,data_hash,algo,algo_hash,split_seed,rep,"
                               "iteration,train_loss,train_err,test_err,edge,solver_iters,"
                               "t_weak,t_coef,t_book,trees\n";
    cr_assert(!strncmp(out, head, strlen(head)), "%s", out);
    cr_assert(strstr(out, "\ne,\"d,1\",fedcba9876543210,\"a\"\"b\",8000000000000001,"
                          "ffffffffffffffff,0,1,"), "%s", out);
    /* iteration 2: infinite edge -> empty; iteration 3: NaN test error -> empty */
    const char *l2 = strstr(out, "ffffffffffffffff,0,2,");
    const char *l3 = strstr(out, "ffffffffffffffff,0,3,");
    cr_assert(l2 && l3);
    int commas = 0;
    const char *p = l2;
    while (commas < 6)
        commas += *p++ == ',';
    cr_assert_eq(*p, ',', "edge of iteration 2 not empty: %s", l2);
    for (p = l3, commas = 0; commas < 5;)
        commas += *p++ == ',';
    cr_assert_eq(*p, ',', "test error of iteration 3 not empty: %s", l3);
    free(out);

    bl_store_filter none = {"nope", NULL, NULL, NULL};
    out = export(s, 0, 1, &none);
    cr_assert_eq(count_lines(out), 1);
    free(out);
    bl_store_close(s);
}

Test(store, export_json)
{
    bl_store *s = open_store();
    char *out = export(s, 1, 0, NULL);
    cr_assert_str_eq(out, "[]\n");
    free(out);
    commit_odd(s);
    bl_run_key k = key_of("e", "plain", "ada", 3);
    commit(s, &k, "", 4, 5);

    out = export(s, 1, 0, NULL);
    cr_assert(json_plausible(out), "%s", out);
    cr_assert(strstr(out, "\"data\": \"d,1\""), "%s", out);
    cr_assert(strstr(out, "\"algo\": \"a\\\"b\""), "%s", out);
    cr_assert(strstr(out, "\"data_hash\": \"fedcba9876543210\""), "%s", out);
    cr_assert(strstr(out, "\"split_seed\": \"ffffffffffffffff\""), "%s", out);
    cr_assert(strstr(out, "\"params\": \"line1\\n\\\"q\\\"\\u0001\\\\\""), "%s", out);
    cr_assert(strstr(out, "\"test_err\": null"), "%s", out);
    cr_assert(strstr(out, "\"host\": \"node, \\\"7\\\"\""), "%s", out);
    cr_assert(strstr(out, "\"iterations\": 3, \"stopped_early\": false"), "%s", out);
    cr_assert(!strstr(out, "\"curve\""), "%s", out);
    cr_assert(!strstr(out, "nan") && !strstr(out, "inf"), "%s", out);
    free(out);

    out = export(s, 1, 1, NULL);
    cr_assert(json_plausible(out), "%s", out);
    cr_assert(strstr(out, "\"curve\": {\"train_loss\": ["), "%s", out);
    cr_assert(strstr(out, ",null], \"edge\": ["), "%s", out);   /* NaN last test error */
    cr_assert(strstr(out, "\"solver_iters\": ["), "%s", out);
    cr_assert(!strstr(out, "nan") && !strstr(out, "inf"), "%s", out);
    free(out);
    bl_store_close(s);
}

/* ---- refusing other files ---------------------------------------------- */

static void assert_refused(const char *what)
{
    bl_store *s = NULL;
    bl_error err;
    cr_assert_eq(bl_store_open(dbpath, &s, &err), -1, "%s opened", what);
    cr_assert_null(s);
    cr_assert(strstr(err.msg, dbpath), "%s: message does not name the file: %s", what, err.msg);
    cr_assert_eq(bl_store_open_ro(dbpath, &s, &err), -1, "%s opened read-only", what);
    cr_assert(strstr(err.msg, dbpath), "%s: %s", what, err.msg);
}

Test(store, refuses_garbage_file)
{
    char junk[8192];
    for (size_t j = 0; j < sizeof junk; j++)
        junk[j] = "not a database\n"[j % 15];
    FILE *f = fopen(dbpath, "wb");
    fwrite(junk, 1, sizeof junk, f);
    fclose(f);
    assert_refused("a text file");
    /* and left alone */
    char back[sizeof junk + 1];
    f = fopen(dbpath, "rb");
    cr_assert_eq(fread(back, 1, sizeof back, f), sizeof junk);
    fclose(f);
    cr_assert(!memcmp(junk, back, sizeof junk));

    f = fopen(dbpath, "wb");
    fputs("hi\n", f);
    fclose(f);
    assert_refused("a tiny file");

    /* an SQLite header on garbage pages */
    f = fopen(dbpath, "wb");
    fwrite("SQLite format 3", 1, 16, f);
    fwrite(junk, 1, sizeof junk, f);
    fclose(f);
    assert_refused("a damaged database");
}

Test(store, refuses_foreign_database)
{
    raw_exec(dbpath, "CREATE TABLE t(x); INSERT INTO t VALUES(1);");
    assert_refused("a foreign database");
    sqlite3 *db = raw_open(dbpath);
    char *mode = raw_text(db, "PRAGMA journal_mode");
    cr_assert_str_eq(mode, "delete", "the foreign database was switched to %s", mode);
    free(mode);
    cr_assert_eq(raw_int(db, "SELECT count(*) FROM sqlite_master"), 1);
    sqlite3_close(db);

    remove(dbpath);
    raw_exec(dbpath, "CREATE TABLE meta(key TEXT, value TEXT);"
                     "INSERT INTO meta VALUES('application', 'other'), ('schema', '1');");
    assert_refused("another application's database");
    remove(dbpath);
    raw_exec(dbpath, "CREATE TABLE meta(a, b);");
    assert_refused("a meta table of other columns");
}

Test(store, refuses_other_schema_version)
{
    bl_store *s = open_store();
    bl_store_close(s);
    raw_exec(dbpath, "UPDATE meta SET value = '3' WHERE key = 'schema'");
    assert_refused("schema version 3");
    bl_error err;
    cr_assert_eq(bl_store_open(dbpath, &s, &err), -1);
    cr_assert(strstr(err.msg, "version 3"), "%s", err.msg);
}

/* A schema-1 store (before tree counts): read-only opens refuse it with the
 * way out, a writer upgrades it in place and keeps its runs, whose tree
 * counts read back as one per iteration. */
Test(store, upgrades_schema_1)
{
    bl_store *s = open_store();
    bl_run_key k = key_of("e", "d", "a", 0);
    commit(s, &k, "", 4, 1);
    bl_store_close(s);
    raw_exec(dbpath, "ALTER TABLE runs DROP COLUMN trees; ALTER TABLE curves DROP COLUMN trees;"
                     " UPDATE meta SET value = '1' WHERE key = 'schema'");
    bl_error err;
    cr_assert_eq(bl_store_open_ro(dbpath, &s, &err), -1);
    cr_assert(strstr(err.msg, "schema version 1") && strstr(err.msg, "boostlab run"), "%s",
              err.msg);
    cr_assert_eq(bl_store_open(dbpath, &s, &err), 0, "%s", err.msg);
    bl_store_row row;
    cr_assert_eq(bl_store_get(s, &k, &row, &err), 1, "%s", err.msg);
    cr_assert_eq(row.res.trees, 4);
    bl_curve c;
    cr_assert_eq(bl_store_curve(s, row.id, &c, &err), 0, "%s", err.msg);
    cr_assert_eq(c.n, 4);
    for (size_t j = 0; j < c.n; j++)
        cr_assert_eq(c.trees[j], j + 1);
    bl_curve_free(&c);
    bl_store_row_free(&row);
    bl_store_close(s);
    sqlite3 *db = raw_open(dbpath);
    char *ver = raw_text(db, "SELECT value FROM meta WHERE key = 'schema'");
    cr_assert_str_eq(ver, "2");
    free(ver);
    sqlite3_close(db);
}

/* ---- read-only access --------------------------------------------------- */

Test(store, read_only)
{
    bl_store *s, *r;
    bl_error err;
    cr_assert_eq(bl_store_open_ro(dbpath, &r, &err), -1);
    cr_assert(strstr(err.msg, dbpath), "%s", err.msg);
    cr_assert_neq(access(dbpath, F_OK), 0, "a read-only open created the file");

    s = open_store();
    bl_run_key k1 = key_of("e", "d", "a", 0), k2 = key_of("e", "d", "a", 1);
    commit(s, &k1, "", 10, 1);
    /* a reader beside the writer sees each commit */
    cr_assert_eq(bl_store_open_ro(dbpath, &r, &err), 0, "%s", err.msg);
    cr_assert_eq(count_sel(r, NULL, NULL, NULL, NULL), 1);
    commit(s, &k2, "", 10, 2);
    cr_assert_eq(count_sel(r, NULL, NULL, NULL, NULL), 2);
    bl_curve c;
    cr_assert_eq(bl_store_commit(r, &k1, NULL, &(bl_curve){0}, &err), -1);
    cr_assert(strstr(err.msg, "read-only"), "%s", err.msg);
    bl_store_close(r);
    bl_store_close(s);

    /* and after the writer is gone (no -wal or -shm file left) */
    cr_assert_eq(bl_store_open_ro(dbpath, &r, &err), 0, "%s", err.msg);
    bl_store_row row;
    cr_assert_eq(bl_store_get(r, &k2, &row, &err), 1, "%s", err.msg);
    cr_assert_eq(bl_store_curve(r, row.id, &c, &err), 0, "%s", err.msg);
    cr_assert_eq(c.n, 10);
    bl_curve_free(&c);
    bl_store_row_free(&row);
    bl_store_close(r);
}

/* ---- crash safety --------------------------------------------- */

static size_t crash_len(int rep)
{
    return (size_t)(rep * 37 % 400);
}

/* Commit runs until killed, telling the parent each finished commit. */
static void crash_writer(int fd, int first)
{
    bl_store *s;
    bl_error err;
    if (bl_store_open(dbpath, &s, &err) < 0)
        _exit(3);
    for (int rep = first;; rep++) {
        /* every third commit replaces the previous run, to be killed in a
         * delete + insert too */
        int r = rep % 3 == 2 ? rep - 1 : rep;
        bl_run_key k = key_of("crash", "d", "a", r);
        bl_run_info in = {"r", "p", "", 1, 1, 2, 2, 1, "h", 0, 0, 0, NULL, NULL, NULL};
        bl_curve c;
        make_curve(&c, crash_len(r), (uint64_t)r);
        if (bl_store_commit(s, &k, &in, &c, &err) < 0)
            _exit(4);
        bl_curve_free(&c);
        if (write(fd, &r, sizeof r) != sizeof r)
            _exit(5);
    }
}

Test(store, survives_kill_during_commits, .timeout = 120)
{
    bl_store_close(open_store());
    srand((unsigned)(time(NULL) ^ getpid()));
    size_t total = 0;
    for (int round = 0; round < 6; round++) {
        int fd[2];
        cr_assert_eq(pipe(fd), 0);
        pid_t pid = fork();
        cr_assert_neq(pid, -1);
        if (pid == 0) {
            close(fd[0]);
            crash_writer(fd[1], round * 100000);
        }
        close(fd[1]);
        /* the kill comes at a random time after the writer's first commit,
         * however slow the machine (valgrind, a loaded CI runner) */
        int first;
        cr_assert_eq(read(fd[0], &first, sizeof first), (ssize_t)sizeof first,
                     "the writer stopped before its first commit");
        usleep((useconds_t)(rand() % 200000));
        kill(pid, SIGKILL);
        int status;
        cr_assert_eq(waitpid(pid, &status, 0), pid);
        cr_assert(WIFSIGNALED(status), "the writer failed (exit %d)", WEXITSTATUS(status));

        bl_store *s = open_store();
        int r = first, have = 1;
        bl_error err;
        while (have || read(fd[0], &r, sizeof r) == sizeof r) {
            have = 0;
            /* every commit the writer finished is there, whole */
            bl_run_key k = key_of("crash", "d", "a", r);
            bl_store_row row;
            cr_assert_eq(bl_store_get(s, &k, &row, &err), 1, "committed run %d lost", r);
            bl_curve got, want;
            cr_assert_eq(bl_store_curve(s, row.id, &got, &err), 0, "%s", err.msg);
            make_curve(&want, crash_len(r), (uint64_t)r);
            assert_same_curve(&want, &got);
            bl_curve_free(&got);
            bl_curve_free(&want);
            bl_store_row_free(&row);
            total++;
        }
        close(fd[0]);
        bl_store_close(s);

        sqlite3 *db = raw_open(dbpath);
        char *ok = raw_text(db, "PRAGMA integrity_check");
        cr_assert_str_eq(ok, "ok");
        free(ok);
        cr_assert_eq(raw_int(db, "SELECT count(*) FROM runs r WHERE iterations != "
                                 "(SELECT count(*) FROM curves c WHERE c.run_id = r.id)"), 0,
                     "a run with a partial curve");
        cr_assert_eq(raw_int(db, "SELECT count(*) FROM curves WHERE run_id NOT IN "
                                 "(SELECT id FROM runs)"), 0, "curve rows without a run");
        sqlite3_close(db);
    }
    fprintf(stderr, "store: %zu runs committed by 6 writers killed at random, all whole\n",
            total);
    cr_assert_gt(total, 0, "the writer never committed before being killed");
}

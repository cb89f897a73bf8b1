/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The results store (see store.h): opening and checking the schema, the
 * commit of a run and its curve in one transaction, and reading runs and
 * curves back.  Hashes and seeds are kept as 16 hex digits because SQLite
 * integers are signed; NaN, which SQLite stores as NULL, is read back as
 * NaN.
 */
#include "store.h"

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../util/fsutil.h"

#define SCHEMA_VERSION "2"
/* Long enough to wait out another process's commit of a long curve. */
#define BUSY_TIMEOUT_MS 10000

struct bl_store {
    sqlite3 *db;
    char *path;
    int ro;
    /* prepared once, reused by every call (commit is on the hot path) */
    sqlite3_stmt *has, *get, *del, *ins_run, *ins_curve;
};

/* The UNIQUE key constraint's index serves every key lookup (has, get,
 * the delete before a replace); the curves primary key serves curve reads
 * and the cascade. */
/* A task's final metrics per run.  Added after schema 2 without a version
 * change: writers create it when missing, readers take its absence as no
 * metrics. */
#define METRICS_SQL                                                                      \
    "CREATE TABLE IF NOT EXISTS metrics("                                                \
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"                    \
    " name TEXT NOT NULL, train REAL, test REAL, PRIMARY KEY(run_id, name));"

static const char schema_sql[] =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "INSERT INTO meta VALUES('application', 'boostlab'), ('schema', '" SCHEMA_VERSION "');"
    "CREATE TABLE runs("
    " id INTEGER PRIMARY KEY,"
    " experiment TEXT NOT NULL, data TEXT NOT NULL, data_hash TEXT NOT NULL,"
    " algo TEXT NOT NULL, algo_hash TEXT NOT NULL, split_seed TEXT NOT NULL,"
    " rep INTEGER NOT NULL,"
    " recipe TEXT, params TEXT, sweep TEXT NOT NULL DEFAULT '', host TEXT,"
    " threads INTEGER, m_train INTEGER, m_test INTEGER, k INTEGER, d INTEGER,"
    " started REAL, finished REAL,"
    " iterations INTEGER NOT NULL, stop INTEGER NOT NULL," /* enum bl_stop */
    " test_err REAL, train_err REAL, train_loss REAL,"
    " t_weak REAL, t_coef REAL, t_book REAL, t_total REAL,"
    " loss0 REAL, train_err0 REAL, test_err0 REAL, trees INTEGER,"
    " UNIQUE(experiment, data, data_hash, algo, algo_hash, split_seed, rep));"
    "CREATE TABLE curves("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " iter INTEGER NOT NULL," /* 1-based: the model with iter terms */
    " train_loss REAL, train_err REAL, test_err REAL, edge REAL,"
    " solver_iters INTEGER, t_weak REAL, t_coef REAL, t_book REAL, trees INTEGER,"
    " PRIMARY KEY(run_id, iter)) WITHOUT ROWID;" METRICS_SQL;

#define KEY_WHERE                                                                        \
    " WHERE experiment = ?1 AND data = ?2 AND data_hash = ?3 AND algo = ?4"              \
    " AND algo_hash = ?5 AND split_seed = ?6 AND rep = ?7"

/* Columns read into a bl_store_row, in fill_row's order. */
#define ROW_COLS                                                                         \
    "id, experiment, data, data_hash, algo, algo_hash, split_seed, rep, recipe, params," \
    " sweep, host, threads, m_train, m_test, k, d, started, finished, iterations, stop,"  \
    " test_err, train_err, train_loss, t_weak, t_coef, t_book, t_total, trees"

static int dberr(const bl_store *s, bl_error *err, const char *what)
{
    /* SQLite says "disk I/O error" for a full disk or a file-size limit;
     * the system's errno says which */
    int sys = sqlite3_system_errno(s->db);
    int code = sqlite3_errcode(s->db) & 0xff;
    if (sys && (code == SQLITE_IOERR || code == SQLITE_FULL || code == SQLITE_CANTOPEN))
        return bl_errf(err, "%s: %s: %s (%s)", s->path, what, sqlite3_errmsg(s->db),
                       strerror(sys));
    int ext = sqlite3_extended_errcode(s->db);
    if (code == SQLITE_FULL || ext == SQLITE_IOERR_WRITE || ext == SQLITE_IOERR_FSYNC)
        return bl_errf(err, "%s: %s: cannot write the store (%s): is the disk full, or a quota "
                       "or file-size limit reached?", s->path, what, sqlite3_errmsg(s->db));
    return bl_errf(err, "%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

static int exec(bl_store *s, const char *sql, const char *what, bl_error *err)
{
    if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return dberr(s, err, what);
    return 0;
}

static int prep(bl_store *s, sqlite3_stmt **st, const char *sql, bl_error *err)
{
    if (*st)
        return 0;
    if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) != SQLITE_OK) {
        *st = NULL;
        return dberr(s, err, "preparing a statement");
    }
    return 0;
}

/* Step a statement that returns no rows, then make it ready for reuse. */
static int step_done(bl_store *s, sqlite3_stmt *st, const char *what, bl_error *err)
{
    int bad = sqlite3_step(st) != SQLITE_DONE;
    if (bad)
        dberr(s, err, what);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return bad ? -1 : 0;
}

static void rewind_stmt(sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

static void bind_hex64(sqlite3_stmt *st, int i, uint64_t v)
{
    char buf[17];
    snprintf(buf, sizeof buf, "%016" PRIx64, v);
    sqlite3_bind_text(st, i, buf, 16, SQLITE_TRANSIENT);
}

static void bind_key(sqlite3_stmt *st, const bl_run_key *k)
{
    sqlite3_bind_text(st, 1, k->experiment, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, k->data, -1, SQLITE_STATIC);
    bind_hex64(st, 3, k->data_hash);
    sqlite3_bind_text(st, 4, k->algo, -1, SQLITE_STATIC);
    bind_hex64(st, 5, k->algo_hash);
    bind_hex64(st, 6, k->split_seed);
    sqlite3_bind_int(st, 7, k->rep);
}

static int check_key(const bl_store *s, const bl_run_key *k, bl_error *err)
{
    if (!k->experiment || !k->data || !k->algo)
        return bl_errf(err, "%s: a run key needs experiment, data and algorithm names", s->path);
    return 0;
}

static double col_double(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static char *col_str(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? bl_strdup((const char *)t) : NULL;
}

static int col_hex64(sqlite3_stmt *st, int i, uint64_t *v)
{
    const char *t = (const char *)sqlite3_column_text(st, i);
    if (!t || strlen(t) != 16 || strspn(t, "0123456789abcdefABCDEF") != 16)
        return -1;
    *v = strtoull(t, NULL, 16);
    return 0;
}

/* ---- opening ---------------------------------------------------------- */

/* A non-empty file must start with SQLite's header: checked before SQLite
 * sees it, so that nothing is ever written into someone else's file. */
static int check_magic(const char *path, bl_error *err)
{
    static const char magic[16] = "SQLite format 3";
    char buf[16];
    FILE *f = fopen(path, "rb");
    if (!f)
        return bl_errf(err, "%s: cannot open: %s", path, strerror(errno));
    size_t got = fread(buf, 1, sizeof buf, f);
    fclose(f);
    if (got != sizeof buf || memcmp(buf, magic, sizeof buf) != 0)
        return bl_errf(err, "%s: not a boostlab results store (not an SQLite database)", path);
    return 0;
}

static int count_rows(bl_store *s, const char *sql, int *n, bl_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
        return dberr(s, err, "reading the schema");
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return dberr(s, err, "reading the schema");
    return 0;
}

/* meta value for key (malloc'ed, NULL when absent); -1 when the table is
 * not boostlab's (other columns). */
static int meta_value(bl_store *s, const char *key, char **val, bl_error *err)
{
    sqlite3_stmt *st;
    *val = NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key = ?1", -1, &st, NULL) !=
        SQLITE_OK)
        return bl_errf(err, "%s: not a boostlab results store (%s)", s->path,
                       sqlite3_errmsg(s->db));
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *val = col_str(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return dberr(s, err, "reading the meta table");
    return 0;
}

static int check_meta(bl_store *s, bl_error *err)
{
    int n = 0;
    if (count_rows(s, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
                   &n, err) < 0)
        return -1;
    if (n == 0)
        return bl_errf(err, "%s: not a boostlab results store (an SQLite database without "
                            "boostlab's meta table)", s->path);
    char *app, *ver;
    if (meta_value(s, "application", &app, err) < 0)
        return -1;
    int rc = 0;
    if (!app || strcmp(app, "boostlab") != 0)
        rc = bl_errf(err, "%s: not a boostlab results store (application '%s')", s->path,
                     app ? app : "unknown");
    free(app);
    if (rc < 0 || meta_value(s, "schema", &ver, err) < 0)
        return -1;
    if (ver && !strcmp(ver, "1") && !s->ro) {
        /* schema 1 lacked the tree counts (NULL in old runs: one tree per
         * iteration when read back); the upgrade is one transaction */
        free(ver);
        ver = bl_strdup(SCHEMA_VERSION);
        if (exec(s, "BEGIN IMMEDIATE; ALTER TABLE runs ADD COLUMN trees INTEGER;"
                    " ALTER TABLE curves ADD COLUMN trees INTEGER;"
                    " UPDATE meta SET value = '" SCHEMA_VERSION "' WHERE key = 'schema'; COMMIT;",
                 "upgrading the store from schema 1", err) < 0) {
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            free(ver);
            return -1;
        }
    } else if (ver && !strcmp(ver, "1")) {
        rc = bl_errf(err, "%s: results store of schema version 1, which this boostlab upgrades "
                          "to " SCHEMA_VERSION " when it writes to it: run `boostlab run` on "
                          "its experiment once (stored runs are kept and not rerun)", s->path);
        free(ver);
        return rc;
    }
    if (!ver || strcmp(ver, SCHEMA_VERSION) != 0)
        rc = bl_errf(err, "%s: results store of schema version %s; this boostlab reads version "
                          SCHEMA_VERSION " only", s->path, ver ? ver : "(none)");
    free(ver);
    return rc;
}

static int setup(bl_store *s, bl_error *err)
{
    int n = 0;
    /* the first read parses the header: a damaged file fails here */
    if (count_rows(s, "SELECT count(*) FROM sqlite_master", &n, err) < 0) {
        if (sqlite3_errcode(s->db) == SQLITE_NOTADB)
            bl_errf(err, "%s: not a boostlab results store (%s)", s->path,
                    sqlite3_errmsg(s->db));
        return -1;
    }
    if (n == 0 && s->ro)
        return bl_errf(err, "%s: not a boostlab results store (an empty database)", s->path);
    if (n == 0) {
        /* new file: create under the write lock and look again, since
         * another process (an MPI rank) may have created it meanwhile */
        if (exec(s, "BEGIN IMMEDIATE", "creating the schema", err) < 0)
            return -1;
        int rc = count_rows(s, "SELECT count(*) FROM sqlite_master", &n, err);
        if (rc == 0 && n == 0)
            rc = exec(s, schema_sql, "creating the schema", err);
        if (rc == 0)
            rc = exec(s, "COMMIT", "creating the schema", err);
        if (rc < 0) {
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
    }
    if (check_meta(s, err) < 0)
        return -1;
    if (s->ro)
        return 0;
    /* Only now, once the file is known to be ours: WAL lets `boostlab
     * results` read during a commit, and FULL syncs the WAL at each commit
     * so a committed run survives power loss. */
    return exec(s, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;"
                   " PRAGMA foreign_keys = ON;" METRICS_SQL, "setting up the connection", err);
}

static int store_open(const char *path, int ro, bl_store **out, bl_error *err)
{
    *out = NULL;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return bl_errf(err, "%s: not a boostlab results store (not a regular file)", path);
        if (st.st_size > 0 && check_magic(path, err) < 0)
            return -1;
    } else if (ro || errno != ENOENT) {
        return bl_errf(err, "%s: cannot open the results store: %s", path, strerror(errno));
    }
    sqlite3 *db = NULL;
    int flags = ro ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    int rc = sqlite3_open_v2(path, &db, flags, NULL);
    if (rc != SQLITE_OK) {
        bl_errf(err, "%s: cannot open the results store: %s", path,
                db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return -1;
    }
    bl_store *s = bl_xcalloc(1, sizeof *s);
    s->db = db;
    s->path = bl_strdup(path);
    s->ro = ro;
    sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
    if (setup(s, err) < 0) {
        bl_store_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

int bl_store_open(const char *path, bl_store **out, bl_error *err)
{
    return store_open(path, 0, out, err);
}

int bl_store_open_ro(const char *path, bl_store **out, bl_error *err)
{
    return store_open(path, 1, out, err);
}

void bl_store_close(bl_store *s)
{
    if (!s)
        return;
    sqlite3_finalize(s->has);
    sqlite3_finalize(s->get);
    sqlite3_finalize(s->del);
    sqlite3_finalize(s->ins_run);
    sqlite3_finalize(s->ins_curve);
    sqlite3_close(s->db);
    free(s->path);
    free(s);
}

/* ---- writing ------------------------------------------------------------ */

int bl_store_has(bl_store *s, const bl_run_key *key, bl_error *err)
{
    if (check_key(s, key, err) < 0 ||
        prep(s, &s->has, "SELECT 1 FROM runs" KEY_WHERE, err) < 0)
        return -1;
    bind_key(s->has, key);
    int rc = sqlite3_step(s->has);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        dberr(s, err, "looking up a run");
    rewind_stmt(s->has);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static void bind_double(sqlite3_stmt *st, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_double(st, i, v);
}

static void bind_run(sqlite3_stmt *st, const bl_run_key *key, const bl_run_info *in,
                     const bl_curve *c, const bl_run_result *r)
{
    bind_key(st, key);
    sqlite3_bind_text(st, 8, in->recipe, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 9, in->params, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 10, in->sweep ? in->sweep : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 11, in->host, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 12, in->threads);
    sqlite3_bind_int64(st, 13, (sqlite3_int64)in->m_train);
    sqlite3_bind_int64(st, 14, (sqlite3_int64)in->m_test);
    sqlite3_bind_int64(st, 15, (sqlite3_int64)in->k);
    sqlite3_bind_int64(st, 16, (sqlite3_int64)in->d);
    bind_double(st, 17, in->started);
    bind_double(st, 18, in->finished);
    sqlite3_bind_int64(st, 19, (sqlite3_int64)c->n);
    sqlite3_bind_int(st, 20, (int)c->stop);
    bind_double(st, 21, r->test_err);
    bind_double(st, 22, r->train_err);
    bind_double(st, 23, r->train_loss);
    bind_double(st, 24, r->t_weak);
    bind_double(st, 25, r->t_coef);
    bind_double(st, 26, r->t_book);
    bind_double(st, 27, r->t_total);
    bind_double(st, 28, c->train_loss0);
    bind_double(st, 29, c->train_err0);
    bind_double(st, 30, c->test_err0);
    sqlite3_bind_int64(st, 31, (sqlite3_int64)r->trees);
}

int bl_store_commit(bl_store *s, const bl_run_key *key, const bl_run_info *info,
                    const bl_curve *curve, bl_error *err)
{
    static const bl_run_info no_info;
    if (!info)
        info = &no_info;
    if (check_key(s, key, err) < 0)
        return -1;
    if (s->ro)
        return bl_errf(err, "%s: the results store is open read-only", s->path);
    if (prep(s, &s->del, "DELETE FROM runs" KEY_WHERE, err) < 0 ||
        prep(s, &s->ins_run,
             "INSERT INTO runs(experiment, data, data_hash, algo, algo_hash, split_seed, rep,"
             " recipe, params, sweep, host, threads, m_train, m_test, k, d, started, finished,"
             " iterations, stop, test_err, train_err, train_loss, t_weak, t_coef, t_book,"
             " t_total, loss0, train_err0, test_err0, trees) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7,"
             " ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23,"
             " ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31)", err) < 0 ||
        prep(s, &s->ins_curve,
             "INSERT INTO curves(run_id, iter, train_loss, train_err, test_err, edge,"
             " solver_iters, t_weak, t_coef, t_book, trees) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7,"
             " ?8, ?9, ?10, ?11)", err) < 0)
        return -1;
    bl_run_result res;
    bl_run_result_from(curve, &res);

    if (exec(s, "BEGIN IMMEDIATE", "starting a commit", err) < 0)
        return -1;
    /* replace: the old run's curve rows go with it (ON DELETE CASCADE) */
    bind_key(s->del, key);
    int rc = step_done(s, s->del, "replacing a run", err);
    if (rc == 0) {
        bind_run(s->ins_run, key, info, curve, &res);
        rc = step_done(s, s->ins_run, "storing a run", err);
    }
    sqlite3_int64 id = sqlite3_last_insert_rowid(s->db);
    sqlite3_stmt *ic = s->ins_curve;
    for (size_t j = 0; j < curve->n && rc == 0; j++) {
        sqlite3_bind_int64(ic, 1, id);
        sqlite3_bind_int64(ic, 2, (sqlite3_int64)j + 1);
        bind_double(ic, 3, curve->train_loss[j]);
        bind_double(ic, 4, curve->train_err[j]);
        bind_double(ic, 5, curve->test_err[j]);
        bind_double(ic, 6, curve->edge[j]);
        sqlite3_bind_int(ic, 7, curve->solver_iters[j]);
        bind_double(ic, 8, curve->t_weak[j]);
        bind_double(ic, 9, curve->t_coef[j]);
        bind_double(ic, 10, curve->t_book[j]);
        sqlite3_bind_int64(ic, 11, (sqlite3_int64)(curve->trees ? curve->trees[j] : j + 1));
        rc = step_done(s, ic, "storing a curve", err);
    }
    for (size_t j = 0; j < info->nmetrics && rc == 0; j++) {
        sqlite3_stmt *im;
        if (sqlite3_prepare_v2(s->db, "INSERT INTO metrics(run_id, name, train, test)"
                               " VALUES(?1, ?2, ?3, ?4)", -1, &im, NULL) != SQLITE_OK) {
            rc = dberr(s, err, "storing metrics");
            break;
        }
        sqlite3_bind_int64(im, 1, id);
        sqlite3_bind_text(im, 2, info->metric[j], -1, SQLITE_STATIC);
        bind_double(im, 3, info->metric_train[j]);
        bind_double(im, 4, info->metric_test[j]);
        rc = sqlite3_step(im) == SQLITE_DONE ? 0 : dberr(s, err, "storing metrics");
        sqlite3_finalize(im);
    }
    if (rc == 0)
        rc = exec(s, "COMMIT", "committing a run", err);
    if (rc < 0)
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* The metrics stored with run r (none when the store predates them). */
static int load_metrics(bl_store *s, bl_store_row *r, bl_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT name, train, test FROM metrics WHERE run_id = ?1"
                           " ORDER BY rowid", -1, &st, NULL) != SQLITE_OK)
        return 0; /* no metrics table: an older store */
    sqlite3_bind_int64(st, 1, r->id);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        size_t n = r->nmetrics + 1;
        r->metric = bl_xrealloc(r->metric, n * sizeof *r->metric);
        r->metric_train = bl_xrealloc(r->metric_train, n * sizeof *r->metric_train);
        r->metric_test = bl_xrealloc(r->metric_test, n * sizeof *r->metric_test);
        r->metric[n - 1] = col_str(st, 0);
        r->metric_train[n - 1] = col_double(st, 1);
        r->metric_test[n - 1] = col_double(st, 2);
        r->nmetrics = n;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : dberr(s, err, "reading metrics");
}

/* ---- reading ------------------------------------------------------------ */

static int fill_row(bl_store *s, sqlite3_stmt *st, bl_store_row *r, bl_error *err)
{
    memset(r, 0, sizeof *r);
    r->id = sqlite3_column_int64(st, 0);
    if (col_hex64(st, 3, &r->data_hash) < 0 || col_hex64(st, 5, &r->algo_hash) < 0 ||
        col_hex64(st, 6, &r->split_seed) < 0)
        return bl_errf(err, "%s: run %" PRId64 ": a hash or seed is not 16 hex digits",
                       s->path, r->id);
    r->experiment = col_str(st, 1);
    r->data = col_str(st, 2);
    r->algo = col_str(st, 4);
    r->rep = sqlite3_column_int(st, 7);
    r->recipe = col_str(st, 8);
    r->params = col_str(st, 9);
    r->sweep = col_str(st, 10);
    r->host = col_str(st, 11);
    r->threads = sqlite3_column_int(st, 12);
    r->m_train = (size_t)sqlite3_column_int64(st, 13);
    r->m_test = (size_t)sqlite3_column_int64(st, 14);
    r->k = (size_t)sqlite3_column_int64(st, 15);
    r->d = (size_t)sqlite3_column_int64(st, 16);
    r->started = col_double(st, 17);
    r->finished = col_double(st, 18);
    r->res.iterations = (size_t)sqlite3_column_int64(st, 19);
    r->res.stop = sqlite3_column_int(st, 20);
    r->res.stopped_early = r->res.stop != 0;
    r->res.test_err = col_double(st, 21);
    r->res.train_err = col_double(st, 22);
    r->res.train_loss = col_double(st, 23);
    r->res.t_weak = col_double(st, 24);
    r->res.t_coef = col_double(st, 25);
    r->res.t_book = col_double(st, 26);
    r->res.t_total = col_double(st, 27);
    r->res.trees = sqlite3_column_type(st, 28) == SQLITE_NULL
                       ? r->res.iterations : (size_t)sqlite3_column_int64(st, 28);
    return load_metrics(s, r, err);
}

int bl_store_get(bl_store *s, const bl_run_key *key, bl_store_row *row, bl_error *err)
{
    if (check_key(s, key, err) < 0 ||
        prep(s, &s->get, "SELECT " ROW_COLS " FROM runs" KEY_WHERE, err) < 0)
        return -1;
    bind_key(s->get, key);
    int rc = sqlite3_step(s->get);
    if (rc == SQLITE_ROW)
        rc = fill_row(s, s->get, row, err) < 0 ? -1 : 1;
    else if (rc == SQLITE_DONE)
        rc = 0;
    else
        rc = dberr(s, err, "reading a run");
    rewind_stmt(s->get);
    return rc;
}

/* Is e (e_len bytes) one element of the comma-separated list?  Blanks
 * around elements do not count. */
static int list_has(const char *list, const char *e, size_t e_len)
{
    while (e_len && (*e == ' ' || *e == '\t'))
        e++, e_len--;
    while (e_len && (e[e_len - 1] == ' ' || e[e_len - 1] == '\t'))
        e_len--;
    for (const char *p = list; p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        while (n && (*p == ' ' || *p == '\t'))
            p++, n--;
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        if (n == e_len && memcmp(p, e, n) == 0)
            return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

static int where_matches(const char *sweep, const char *where)
{
    for (const char *p = where; p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (!list_has(sweep ? sweep : "", p, n))
            return 0;
        p = end ? end + 1 : NULL;
    }
    return 1;
}

/* A glob, or the name itself: variant names carry brackets
 * ("letter[classes=4]") that fnmatch would read as a character class. */
static int name_matches(const char *pattern, const char *name)
{
    return !pattern || (name && (strcmp(pattern, name) == 0 || fnmatch(pattern, name, 0) == 0));
}

int bl_store_select(bl_store *s, const bl_store_filter *f, bl_store_row **rows, size_t *n,
                    bl_error *err)
{
    static const bl_store_filter all;
    if (!f)
        f = &all;
    *rows = NULL;
    *n = 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT " ROW_COLS " FROM runs WHERE ?1 IS NULL OR experiment = ?1"
                           " ORDER BY experiment, data, algo, rep, id",
                           -1, &st, NULL) != SQLITE_OK)
        return dberr(s, err, "selecting runs");
    sqlite3_bind_text(st, 1, f->experiment, -1, SQLITE_STATIC);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *data = (const char *)sqlite3_column_text(st, 2);
        const char *algo = (const char *)sqlite3_column_text(st, 4);
        const char *sweep = (const char *)sqlite3_column_text(st, 10);
        if (!name_matches(f->data, data) || !name_matches(f->algo, algo) ||
            (f->where && !where_matches(sweep, f->where)))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            *rows = bl_xrealloc(*rows, cap * sizeof **rows);
        }
        if (fill_row(s, st, &(*rows)[*n], err) < 0) {
            bl_store_row_free(&(*rows)[*n]);
            break;
        }
        (*n)++;
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        dberr(s, err, "selecting runs");
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        bl_store_rows_free(*rows, *n);
        *rows = NULL;
        *n = 0;
        return -1;
    }
    return 0;
}

void bl_store_row_free(bl_store_row *row)
{
    free(row->experiment);
    free(row->data);
    free(row->algo);
    free(row->recipe);
    free(row->params);
    free(row->sweep);
    free(row->host);
    for (size_t j = 0; j < row->nmetrics; j++)
        free(row->metric[j]);
    free(row->metric);
    free(row->metric_train);
    free(row->metric_test);
    memset(row, 0, sizeof *row);
}

void bl_store_rows_free(bl_store_row *rows, size_t n)
{
    for (size_t j = 0; j < n; j++)
        bl_store_row_free(&rows[j]);
    free(rows);
}

int bl_store_curve(bl_store *s, int64_t id, bl_curve *curve, bl_error *err)
{
    memset(curve, 0, sizeof *curve);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT iterations, stop, loss0, train_err0, test_err0 FROM runs"
                           " WHERE id = ?1", -1, &st, NULL) != SQLITE_OK)
        return dberr(s, err, "reading a curve");
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    sqlite3_int64 n = 0;
    if (rc == SQLITE_ROW) {
        n = sqlite3_column_int64(st, 0);
        curve->stop = (enum bl_stop)sqlite3_column_int(st, 1);
        curve->train_loss0 = col_double(st, 2);
        curve->train_err0 = col_double(st, 3);
        curve->test_err0 = col_double(st, 4);
    } else if (rc != SQLITE_DONE) {
        dberr(s, err, "reading a curve");
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        return bl_errf(err, "%s: no run with id %" PRId64, s->path, id);
    if (rc != SQLITE_ROW)
        return -1;
    if (n < 0)
        return bl_errf(err, "%s: run %" PRId64 ": negative iteration count", s->path, id);

    /* allocated as the engine does, so that bl_curve_free frees them */
    size_t m = (size_t)n;
    double **cols[] = {&curve->train_loss, &curve->train_err, &curve->test_err, &curve->edge,
                       &curve->t_weak, &curve->t_coef, &curve->t_book};
    for (size_t j = 0; j < sizeof cols / sizeof *cols; j++)
        *cols[j] = bl_xmalloc(m * sizeof **cols[j]);
    curve->solver_iters = bl_xmalloc(m * sizeof *curve->solver_iters);
    curve->trees = bl_xmalloc(m * sizeof *curve->trees);
    curve->cap = m;

    if (sqlite3_prepare_v2(s->db,
                           "SELECT iter, train_loss, train_err, test_err, edge, solver_iters,"
                           " t_weak, t_coef, t_book, trees FROM curves WHERE run_id = ?1"
                           " ORDER BY iter",
                           -1, &st, NULL) != SQLITE_OK) {
        dberr(s, err, "reading a curve");
        bl_curve_free(curve);
        return -1;
    }
    sqlite3_bind_int64(st, 1, id);
    size_t j = 0;
    int bad = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (j == m || sqlite3_column_int64(st, 0) != (sqlite3_int64)j + 1) {
            bad = 1;
            break;
        }
        curve->train_loss[j] = col_double(st, 1);
        curve->train_err[j] = col_double(st, 2);
        curve->test_err[j] = col_double(st, 3);
        curve->edge[j] = col_double(st, 4);
        curve->solver_iters[j] = sqlite3_column_int(st, 5);
        curve->t_weak[j] = col_double(st, 6);
        curve->t_coef[j] = col_double(st, 7);
        curve->t_book[j] = col_double(st, 8);
        curve->trees[j] = sqlite3_column_type(st, 9) == SQLITE_NULL
                              ? j + 1 : (size_t)sqlite3_column_int64(st, 9);
        j++;
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        dberr(s, err, "reading a curve");
    else if (bad || j != m)
        bl_errf(err, "%s: run %" PRId64 ": the curve does not hold iterations 1..%zu", s->path,
                id, m);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE || bad || j != m) {
        bl_curve_free(curve);
        return -1;
    }
    curve->n = m;
    return 0;
}

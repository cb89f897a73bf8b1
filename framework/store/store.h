/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The results store: an SQLite database (OUTPUT/results.sqlite) holding
 * every finished run of an experiment with its per-iteration curve.  A run
 * is committed in one transaction (WAL journal, synchronous = FULL), so a
 * run killed at any moment, even by power loss, leaves either the whole run
 * or nothing; `boostlab run` then skips the runs the store already holds.
 *
 * A run is identified by its key: data set (variant) name and a hash of its
 * full specification, algorithm (variant) name and a hash of its full
 * parameters, the split seed and the repeat.  Changing any parameter gives
 * a new key, so stale results are never mistaken for current ones.
 */
#ifndef BL_STORE_STORE_H
#define BL_STORE_STORE_H

#include <stdint.h>
#include <stdio.h>

#include "../engine/engine.h"
#include "../engine/result.h"
#include "../util/error.h"

typedef struct bl_store bl_store;

/* What identifies a run. */
typedef struct bl_run_key {
    const char *experiment;     /* experiment name                        */
    const char *data;           /* data set variant, e.g. letter[classes=4] */
    uint64_t data_hash;         /* hash of the data spec's full settings  */
    const char *algo;           /* algorithm variant name                 */
    uint64_t algo_hash;         /* bl_algo_hash()                         */
    uint64_t split_seed;
    int rep;
} bl_run_key;

/* What else is kept with a run. */
typedef struct bl_run_info {
    const char *recipe;         /* recipe the algorithm came from, or NULL */
    const char *params;         /* the algorithm's resolved INI text      */
    const char *sweep;          /* grid point, "key=value,key=value", or "" */
    size_t m_train, m_test, k, d;
    int threads;                /* threads the run used                   */
    const char *host;           /* machine (or MPI rank's host) that ran it */
    double started, finished;   /* Unix time, seconds                     */
    /* a task's final metrics (structured runs, or runs with a task) */
    size_t nmetrics;
    char *const *metric;
    const double *metric_train, *metric_test;
} bl_run_info;

/* One stored run, as read back (strings owned by the row). */
typedef struct bl_store_row {
    int64_t id;
    char *experiment, *data, *algo, *recipe, *params, *sweep, *host;
    uint64_t data_hash, algo_hash, split_seed;
    int rep, threads;
    size_t m_train, m_test, k, d;
    double started, finished;
    bl_run_result res;          /* final figures (engine/result.h)        */
    size_t nmetrics;            /* a task's final metrics, if stored      */
    char **metric;
    double *metric_train, *metric_test;
} bl_store_row;

/* Which rows to read: NULL fields match everything.  experiment is matched
 * exactly; data and algo are shell globs (fnmatch; a name equal to the
 * pattern always matches, so "letter[classes=4]" finds itself); where is
 * "key=value" (or several, comma-separated, all required), each matched as
 * one element of the run's comma-separated sweep. */
typedef struct bl_store_filter {
    const char *experiment, *data, *algo, *where;
} bl_store_filter;

/* Open (creating the schema if new) the store at path.  Refuses, naming the
 * file, a file that is not a boostlab store or is of another schema
 * version. */
int bl_store_open(const char *path, bl_store **out, bl_error *err);
/* Open an existing store read-only (`boostlab results`): never creates or
 * modifies the file, and reads while another process commits (WAL).  A
 * missing file is an error. */
int bl_store_open_ro(const char *path, bl_store **out, bl_error *err);
void bl_store_close(bl_store *s);

/* 1 if the store holds the run, 0 if not, -1 on error. */
int bl_store_has(bl_store *s, const bl_run_key *key, bl_error *err);

/* Commit one finished run and its curve, atomically. Committing a key that
 * is already there replaces it. */
int bl_store_commit(bl_store *s, const bl_run_key *key, const bl_run_info *info,
                    const bl_curve *curve, bl_error *err);

/* The stored run with this key: 1 and *row filled, 0 if absent, -1 on error. */
int bl_store_get(bl_store *s, const bl_run_key *key, bl_store_row *row, bl_error *err);

/* Every row matching f, ordered by experiment, data, algo, rep. */
int bl_store_select(bl_store *s, const bl_store_filter *f, bl_store_row **rows, size_t *n,
                    bl_error *err);
void bl_store_rows_free(bl_store_row *rows, size_t n);
void bl_store_row_free(bl_store_row *row);

/* The curve of run id (free with bl_curve_free). */
int bl_store_curve(bl_store *s, int64_t id, bl_curve *curve, bl_error *err);

/* Export: one line per run (CSV with a header, or a JSON array), and with
 * curves = 1 one line per run and iteration instead. */
int bl_store_export_csv(bl_store *s, const bl_store_filter *f, int curves, FILE *out,
                        bl_error *err);
int bl_store_export_json(bl_store *s, const bl_store_filter *f, int curves, FILE *out,
                         bl_error *err);

#endif

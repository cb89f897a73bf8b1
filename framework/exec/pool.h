/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Running the jobs of an experiment on workers.  One coordinator hands out
 * jobs, one at a time, to workers that ask for them, and receives progress
 * and results; only the coordinator writes results, so the store has one
 * writer.  Workers are forked processes (`--jobs N`, local cores) or MPI
 * ranks (exec/mpi.h): both speak the messages of wire.h through a
 * transport.  A worker that fails a job, or dies, stops the hand-out; the
 * jobs in flight on the other workers still finish and are kept.
 */
#ifndef BL_EXEC_POOL_H
#define BL_EXEC_POOL_H

#include "job.h"
#include "wire.h"

/* The coordinator's side of the message channel. */
typedef struct bl_transport {
    int nworkers;
    int (*send)(struct bl_transport *t, int worker, int type, const bl_buf *b, bl_error *err);
    /* Next message from any worker (blocking): the worker's index in *worker.
     * A worker that is gone gives BL_MSG_DEAD with a reason in b. */
    int (*recv)(struct bl_transport *t, int *worker, int *type, bl_buf *b, bl_error *err);
    void *ctx;
} bl_transport;

/* The worker's side. */
typedef struct bl_endpoint {
    int (*send)(struct bl_endpoint *e, int type, const bl_buf *b);
    /* 0, or -1 when the coordinator is gone */
    int (*recv)(struct bl_endpoint *e, int *type, bl_buf *b);
    void *ctx;
} bl_endpoint;

/* What the coordinator does with the messages. */
typedef struct bl_pool_hooks {
    void *user;
    void (*started)(void *user, int worker, const bl_job *j);
    void (*progress)(void *user, int worker, size_t done, size_t total);
    /* A finished job: commit it.  Returning -1 (err set) stops the hand-out. */
    int (*finished)(void *user, int worker, const bl_job *j, bl_job_out *o, bl_error *err);
    void (*failed)(void *user, int worker, const bl_job *j, const char *msg);
} bl_pool_hooks;

/* Hand out jobs[0..n) to the transport's workers until all are done or one
 * fails; jobs of the data set and repeat a worker last ran go to it first,
 * so it reuses its cached split.  Returns 0, or -1 with the first failure
 * in err once every worker has stopped. */
int bl_coordinate(bl_transport *t, const bl_experiment *ex, const bl_job *jobs, size_t n,
                  const bl_pool_hooks *h, bl_error *err);

/* A worker's life: ask for jobs, run them, report, until told to quit. */
int bl_worker_serve(bl_endpoint *e, const bl_experiment *ex);

/* Run jobs on `workers` forked processes with `threads` threads each. */
int bl_pool_run_local(const bl_experiment *ex, const bl_job *jobs, size_t n, int workers,
                      int threads, const bl_pool_hooks *h, bl_error *err);

/* The thread count OMP_NUM_THREADS asks for ("N" or OpenMP's list "N,M,...",
 * whose first entry counts here), or 0 when it is unset or empty; when it
 * is set but not a count from 1 to 1024, also 0, with *bad pointing at it
 * (bad may be NULL). */
int bl_env_threads(const char **bad);

/* Set the number of threads plugins may use (0 = all cores). */
void bl_set_threads(int n);

#endif

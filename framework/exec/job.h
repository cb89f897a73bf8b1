/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One run of an experiment grid (a job): data set d, algorithm a, repeat
 * rep.  Its split, class subset and learner seeds derive from the
 * experiment seed and the names alone, so a job gives the same result
 * whichever process, rank or thread count runs it.  A worker keeps the data
 * of its last job in a cache: jobs of the same data set and repeat share
 * one read, split and quantized view.
 */
#ifndef BL_EXEC_JOB_H
#define BL_EXEC_JOB_H

#include "../config/experiment.h"
#include "../data/dataset.h"
#include "../data/quantize.h"
#include "../engine/engine.h"
#include "../store/store.h"

typedef struct bl_job {
    size_t d, a;
    int rep;
} bl_job;

typedef struct bl_job_cache {
    long d;                        /* data set read, -1 = none          */
    bl_dataset all, given_test;
    long sd;                       /* (sd, srep): the prepared repeat   */
    int srep;
    bl_dataset train, test;        /* the repeat's parts                */
    int shared;                    /* train and test are all and
                                      given_test themselves (split =
                                      given, every class): not freed    */
    bl_qview q;
    size_t *class_pick;            /* classes kept (keep_classes)       */
} bl_job_cache;

/* What a job produced, besides its curve. */
typedef struct bl_job_out {
    bl_curve curve;
    size_t m_train, m_test, k, d;
    int threads;
    double started, finished;      /* Unix time */
    char cv_choice[256];           /* candidate chosen by CV, or ""     */
    double cv_error;               /* its cross-validated error         */
    bl_metrics metrics;            /* the task's metrics (n = 0 if none) */
} bl_job_out;

/* Read a data spec's file(s): the training file into *all and, for split =
 * given, the test file into *test (else test is left empty, m = 0). */
int bl_load_data(const bl_data_spec *d, bl_dataset *all, bl_dataset *test, bl_error *err);

void bl_job_cache_init(bl_job_cache *c);
void bl_job_cache_free(bl_job_cache *c);

uint64_t bl_job_split_seed(const bl_experiment *ex, size_t d, int rep);
/* Everything that decides job j's training (malloc'ed INI text): the
 * algorithm's resolved keys, its iteration budget and the bins. */
char *bl_job_params(const bl_experiment *ex, const bl_job *j);
/* The store key of job j; the strings point into ex.  Its algo_hash is the
 * hash of bl_job_params, so a changed budget or bin count is a new run. */
void bl_job_key(const bl_experiment *ex, const bl_job *j, bl_run_key *key);
/* "DATA/ALGO rep R" */
void bl_job_label(const bl_experiment *ex, const bl_job *j, char *buf, size_t cap);
/* Iteration budget of job j. */
int bl_job_iterations(const bl_experiment *ex, const bl_job *j);

/* Run job j.  on_iter (may be NULL) is the engine's per-iteration callback.
 * out->curve is filled on success (free with bl_job_out_free).  With keep
 * not NULL the trained model is handed over in *keep (free with
 * bl_model_free); the job's training part stays in c->train until the
 * cache is used for another data set or repeat. */
int bl_job_run(const bl_experiment *ex, bl_job_cache *c, const bl_job *j,
               void (*on_iter)(void *, size_t, size_t), void *user, bl_model *keep,
               bl_job_out *out, bl_error *err);
void bl_job_out_free(bl_job_out *o);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Messages between the coordinator of an experiment and its workers
 * (forked processes over socket pairs, or MPI ranks): a type and a byte
 * payload.  Payloads are packed in the host's byte order, so all ranks of
 * an MPI run must share one architecture (they do on any usual cluster).
 */
#ifndef BL_EXEC_WIRE_H
#define BL_EXEC_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "../util/error.h"
#include "job.h"

enum bl_msg_type {
    BL_MSG_READY = 1,    /* worker -> coordinator: give me a job          */
    BL_MSG_JOB,          /* coordinator -> worker: run this job           */
    BL_MSG_PROGRESS,     /* worker: iterations done in the current job    */
    BL_MSG_RESULT,       /* worker: the job's result                      */
    BL_MSG_ERROR,        /* worker: the job failed (payload: message)     */
    BL_MSG_QUIT,         /* coordinator -> worker: no more jobs           */
    BL_MSG_DEAD          /* synthesised by a transport: the worker died   */
};

/* A growable byte buffer with a read position. */
typedef struct bl_buf {
    unsigned char *p;
    size_t n, cap, at;
} bl_buf;

void bl_buf_reset(bl_buf *b);
void bl_buf_free(bl_buf *b);
void bl_buf_put(bl_buf *b, const void *src, size_t n);
/* 0, or -1 when fewer than n bytes are left (a malformed message). */
int bl_buf_get(bl_buf *b, void *dst, size_t n);

void bl_wire_put_job(bl_buf *b, const bl_job *j);
int bl_wire_get_job(bl_buf *b, bl_job *j);
void bl_wire_put_progress(bl_buf *b, uint64_t done, uint64_t total);
int bl_wire_get_progress(bl_buf *b, uint64_t *done, uint64_t *total);
void bl_wire_put_result(bl_buf *b, const bl_job *j, const bl_job_out *o);
/* Fills o (its curve malloc'ed; free with bl_job_out_free). */
int bl_wire_get_result(bl_buf *b, bl_job *j, bl_job_out *o);

/* Whole messages over a stream socket: [u32 type][u64 length][payload].
 * Reads return 0, 1 at a clean end of stream, or -1. */
int bl_msg_write(int fd, int type, const bl_buf *b);
int bl_msg_read(int fd, int *type, bl_buf *b);

#endif

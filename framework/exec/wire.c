/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Message packing and framing (see wire.h). */
#include "wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/fsutil.h"

/* Longest curve a message may carry: a corrupt length must not make the
 * coordinator allocate gigabytes. */
#define MAX_PAYLOAD ((uint64_t)1 << 31)

void bl_buf_reset(bl_buf *b)
{
    b->n = b->at = 0;
}

void bl_buf_free(bl_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

void bl_buf_put(bl_buf *b, const void *src, size_t n)
{
    if (!n)
        return; /* src may be NULL (an empty curve) */
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = bl_xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

int bl_buf_get(bl_buf *b, void *dst, size_t n)
{
    if (!n)
        return 0;
    if (b->n - b->at < n)
        return -1;
    memcpy(dst, b->p + b->at, n);
    b->at += n;
    return 0;
}

static void put_u64(bl_buf *b, uint64_t x)
{
    bl_buf_put(b, &x, sizeof x);
}

static int get_u64(bl_buf *b, uint64_t *x)
{
    return bl_buf_get(b, x, sizeof *x);
}

void bl_wire_put_job(bl_buf *b, const bl_job *j)
{
    put_u64(b, j->d);
    put_u64(b, j->a);
    put_u64(b, (uint64_t)j->rep);
}

int bl_wire_get_job(bl_buf *b, bl_job *j)
{
    uint64_t d, a, r;
    if (get_u64(b, &d) || get_u64(b, &a) || get_u64(b, &r))
        return -1;
    j->d = (size_t)d;
    j->a = (size_t)a;
    j->rep = (int)r;
    return 0;
}

void bl_wire_put_progress(bl_buf *b, uint64_t done, uint64_t total)
{
    put_u64(b, done);
    put_u64(b, total);
}

int bl_wire_get_progress(bl_buf *b, uint64_t *done, uint64_t *total)
{
    return get_u64(b, done) || get_u64(b, total) ? -1 : 0;
}

/* The curve's per-iteration arrays, in one order for both directions. */
#define CURVE_DOUBLES(c) \
    { (c)->train_loss, (c)->train_err, (c)->test_err, (c)->edge, (c)->t_weak, (c)->t_coef, \
      (c)->t_book }

void bl_wire_put_result(bl_buf *b, const bl_job *j, const bl_job_out *o)
{
    const bl_curve *c = &o->curve;
    bl_wire_put_job(b, j);
    uint64_t hdr[7] = {o->m_train, o->m_test, o->k, o->d, (uint64_t)o->threads, c->n,
                       (uint64_t)c->stop};
    bl_buf_put(b, hdr, sizeof hdr);
    double t[5] = {o->started, o->finished, c->train_loss0, c->train_err0, c->test_err0};
    bl_buf_put(b, t, sizeof t);
    double *arr[] = CURVE_DOUBLES(c);
    for (size_t k = 0; k < sizeof arr / sizeof *arr; k++)
        bl_buf_put(b, arr[k], c->n * sizeof(double));
    bl_buf_put(b, c->solver_iters, c->n * sizeof(int));
    bl_buf_put(b, c->trees, c->n * sizeof(size_t));
    bl_buf_put(b, o->cv_choice, sizeof o->cv_choice);
    bl_buf_put(b, &o->cv_error, sizeof o->cv_error);
    uint64_t nm = o->metrics.n;
    bl_buf_put(b, &nm, sizeof nm);
    for (size_t q = 0; q < o->metrics.n; q++) {
        uint64_t len = strlen(o->metrics.name[q]);
        bl_buf_put(b, &len, sizeof len);
        bl_buf_put(b, o->metrics.name[q], len);
        bl_buf_put(b, &o->metrics.train[q], sizeof(double));
        bl_buf_put(b, &o->metrics.test[q], sizeof(double));
    }
}

int bl_wire_get_result(bl_buf *b, bl_job *j, bl_job_out *o)
{
    memset(o, 0, sizeof *o);
    uint64_t hdr[7];
    double t[5];
    if (bl_wire_get_job(b, j) || bl_buf_get(b, hdr, sizeof hdr) || bl_buf_get(b, t, sizeof t))
        return -1;
    size_t n = (size_t)hdr[5];
    if (hdr[5] > (b->n - b->at) / sizeof(double))
        return -1;
    o->m_train = hdr[0];
    o->m_test = hdr[1];
    o->k = hdr[2];
    o->d = hdr[3];
    o->threads = (int)hdr[4];
    o->started = t[0];
    o->finished = t[1];
    bl_curve *c = &o->curve;
    c->n = c->cap = n;
    c->stop = (enum bl_stop)hdr[6];
    c->train_loss0 = t[2];
    c->train_err0 = t[3];
    c->test_err0 = t[4];
    size_t cap = n ? n : 1;
    c->train_loss = bl_xmalloc(cap * sizeof(double));
    c->train_err = bl_xmalloc(cap * sizeof(double));
    c->test_err = bl_xmalloc(cap * sizeof(double));
    c->edge = bl_xmalloc(cap * sizeof(double));
    c->t_weak = bl_xmalloc(cap * sizeof(double));
    c->t_coef = bl_xmalloc(cap * sizeof(double));
    c->t_book = bl_xmalloc(cap * sizeof(double));
    c->solver_iters = bl_xmalloc(cap * sizeof(int));
    c->trees = bl_xmalloc(cap * sizeof(size_t));
    double *arr[] = CURVE_DOUBLES(c);
    int rc = 0;
    for (size_t k = 0; k < sizeof arr / sizeof *arr && rc == 0; k++)
        rc = bl_buf_get(b, arr[k], n * sizeof(double));
    if (rc == 0)
        rc = bl_buf_get(b, c->solver_iters, n * sizeof(int));
    if (rc == 0)
        rc = bl_buf_get(b, c->trees, n * sizeof(size_t));
    if (rc == 0)
        rc = bl_buf_get(b, o->cv_choice, sizeof o->cv_choice);
    if (rc == 0)
        rc = bl_buf_get(b, &o->cv_error, sizeof o->cv_error);
    uint64_t nm = 0;
    if (rc == 0)
        rc = bl_buf_get(b, &nm, sizeof nm);
    if (rc == 0 && nm > (b->n - b->at) / (sizeof(uint64_t) + 2 * sizeof(double)))
        rc = -1;
    if (rc == 0 && nm) {
        bl_metrics *m = &o->metrics;
        m->name = bl_xcalloc(nm, sizeof *m->name);
        m->train = bl_xmalloc(nm * sizeof *m->train);
        m->test = bl_xmalloc(nm * sizeof *m->test);
        for (size_t q = 0; q < nm && rc == 0; q++) {
            uint64_t len = 0;
            rc = bl_buf_get(b, &len, sizeof len);
            if (rc == 0 && len > b->n - b->at)
                rc = -1;
            if (rc == 0) {
                m->name[q] = bl_xmalloc(len + 1);
                m->n = q + 1;
                rc = bl_buf_get(b, m->name[q], len);
                m->name[q][len] = 0;
            }
            if (rc == 0)
                rc = bl_buf_get(b, &m->train[q], sizeof(double));
            if (rc == 0)
                rc = bl_buf_get(b, &m->test[q], sizeof(double));
        }
    }
    o->cv_choice[sizeof o->cv_choice - 1] = 0;
    if (rc < 0)
        bl_job_out_free(o);
    return rc;
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *s = p;
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* 0, 1 at end of stream before any byte, -1 on error or a torn message. */
static int read_all(int fd, void *p, size_t n)
{
    char *s = p;
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, s + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            return got == 0 ? 1 : -1;
        got += (size_t)r;
    }
    return 0;
}

int bl_msg_write(int fd, int type, const bl_buf *b)
{
    uint32_t t = (uint32_t)type;
    uint64_t n = b ? b->n : 0;
    if (write_all(fd, &t, sizeof t) || write_all(fd, &n, sizeof n))
        return -1;
    return n ? write_all(fd, b->p, n) : 0;
}

int bl_msg_read(int fd, int *type, bl_buf *b)
{
    uint32_t t;
    uint64_t n;
    int rc = read_all(fd, &t, sizeof t);
    if (rc)
        return rc;
    if (read_all(fd, &n, sizeof n) || n > MAX_PAYLOAD)
        return -1;
    bl_buf_reset(b);
    if (n > b->cap) {
        b->cap = n;
        b->p = bl_xrealloc(b->p, n);
    }
    if (n && read_all(fd, b->p, n))
        return -1;
    b->n = n;
    *type = (int)t;
    return 0;
}

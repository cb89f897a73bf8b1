/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Kernel values and the LRU row cache of the weak learner "svm" (see
 * kernel.h).  The cache is a doubly linked list of the rows held, most
 * recently used first, plus an index from example to slot; rows are
 * allocated on demand up to the budget, then the least recently used one
 * is reused.
 */
#include "kernel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

void kern_norms(const struct kern *K, double *sq)
{
    for (size_t i = 0; i < K->n; i++) {
        const float *a = K->x + i * K->d;
        double s = 0.0;
        for (size_t f = 0; f < K->d; f++)
            s += (double)a[f] * (double)a[f];
        sq[i] = s;
    }
}

/* Four running sums: the SMO's inner loop is these short sums, and one
 * dependent chain of adds would be latency-bound.  The order is fixed, so
 * every call gives the same bits. */
static double dot_ff(const float *a, const float *b, size_t d)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t f = 0;
    for (; f + 4 <= d; f += 4) {
        s0 += (double)a[f] * (double)b[f];
        s1 += (double)a[f + 1] * (double)b[f + 1];
        s2 += (double)a[f + 2] * (double)b[f + 2];
        s3 += (double)a[f + 3] * (double)b[f + 3];
    }
    for (; f < d; f++)
        s0 += (double)a[f] * (double)b[f];
    return (s0 + s1) + (s2 + s3);
}

/* ||a - b||^2 summed directly (not from the norms: no cancellation, and
 * exactly 0 on the diagonal). */
static double dist2_ff(const float *a, const float *b, size_t d)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t f = 0;
    for (; f + 4 <= d; f += 4) {
        double t0 = (double)a[f] - (double)b[f], t1 = (double)a[f + 1] - (double)b[f + 1];
        double t2 = (double)a[f + 2] - (double)b[f + 2], t3 = (double)a[f + 3] - (double)b[f + 3];
        s0 += t0 * t0, s1 += t1 * t1, s2 += t2 * t2, s3 += t3 * t3;
    }
    for (; f < d; f++) {
        double t = (double)a[f] - (double)b[f];
        s0 += t * t;
    }
    return (s0 + s1) + (s2 + s3);
}

double kern_ij(const struct kern *K, size_t i, size_t j)
{
    const float *a = K->x + i * K->d, *b = K->x + j * K->d;
    switch (K->type) {
    case KERN_LINEAR:
        return K->shift + dot_ff(a, b, K->d);
    case KERN_PERCEPTRON:
        return K->shift - sqrt(dist2_ff(a, b, K->d));
    default:
        return K->shift + exp(-K->gamma * dist2_ff(a, b, K->d));
    }
}

double kern_pair(enum kern_type type, double gamma, const double *a, const double *b, size_t d)
{
    double s = 0.0;
    if (type == KERN_LINEAR) {
        for (size_t f = 0; f < d; f++)
            s += a[f] * b[f];
        return s;
    }
    for (size_t f = 0; f < d; f++) {
        double t = a[f] - b[f];
        s += t * t;
    }
    return type == KERN_PERCEPTRON ? -sqrt(s) : exp(-gamma * s);
}

void kern_row(const struct kern *K, size_t i, float *out, int nthreads)
{
    long n = (long)K->n;
    /* a parallel region per row pays only on long rows (exp and sqrt cost
     * about as much as a few features) */
    int par = nthreads > 1 && K->n * (K->d + (K->type == KERN_LINEAR ? 1 : 8)) >= ((size_t)1 << 20);
    (void)par;
#pragma omp parallel for schedule(static) num_threads(nthreads > 1 ? nthreads : 1) if (par)
    for (long t = 0; t < n; t++)
        out[t] = (float)kern_ij(K, i, (size_t)t);
}

struct kcache {
    const struct kern *K;
    size_t cap;        /* rows the budget allows                */
    size_t used;       /* rows allocated                        */
    float **row;       /* cap slots                             */
    size_t *owner;     /* cap: the example of each slot         */
    size_t *prev, *next; /* cap: LRU list, SIZE_MAX ends it     */
    size_t head, tail; /* most / least recently used slot       */
    size_t *slot;      /* n: slot of each example or SIZE_MAX   */
    size_t hits, misses;
};

struct kcache *kcache_new(const struct kern *K, size_t bytes)
{
    struct kcache *C = calloc(1, sizeof *C);
    if (!C)
        return NULL;
    size_t n = K->n ? K->n : 1, rowb = n * sizeof(float);
    C->K = K;
    C->cap = bytes / rowb;
    if (C->cap < 2)
        C->cap = 2; /* the two rows of a working pair */
    if (C->cap > n)
        C->cap = n;
    C->row = calloc(C->cap, sizeof *C->row);
    C->owner = malloc(C->cap * sizeof *C->owner);
    C->prev = malloc(C->cap * sizeof *C->prev);
    C->next = malloc(C->cap * sizeof *C->next);
    C->slot = malloc(n * sizeof *C->slot);
    if (!C->row || !C->owner || !C->prev || !C->next || !C->slot) {
        kcache_free(C);
        return NULL;
    }
    for (size_t t = 0; t < n; t++)
        C->slot[t] = SIZE_MAX;
    C->head = C->tail = SIZE_MAX;
    return C;
}

void kcache_free(struct kcache *C)
{
    if (!C)
        return;
    if (C->row)
        for (size_t s = 0; s < C->used; s++)
            free(C->row[s]);
    free(C->row), free(C->owner), free(C->prev), free(C->next), free(C->slot);
    free(C);
}

static void unlink_slot(struct kcache *C, size_t s)
{
    if (C->prev[s] != SIZE_MAX)
        C->next[C->prev[s]] = C->next[s];
    else
        C->head = C->next[s];
    if (C->next[s] != SIZE_MAX)
        C->prev[C->next[s]] = C->prev[s];
    else
        C->tail = C->prev[s];
}

static void push_front(struct kcache *C, size_t s)
{
    C->prev[s] = SIZE_MAX;
    C->next[s] = C->head;
    if (C->head != SIZE_MAX)
        C->prev[C->head] = s;
    C->head = s;
    if (C->tail == SIZE_MAX)
        C->tail = s;
}

const float *kcache_row(struct kcache *C, size_t i, int nthreads)
{
    size_t s = C->slot[i];
    if (s != SIZE_MAX) {
        C->hits++;
        if (C->head != s) {
            unlink_slot(C, s);
            push_front(C, s);
        }
        return C->row[s];
    }
    C->misses++;
    float *r = NULL;
    if (C->used < C->cap)
        r = malloc((C->K->n ? C->K->n : 1) * sizeof *r);
    if (r) {
        s = C->used++;
        C->row[s] = r;
    } else {
        if (C->tail == SIZE_MAX)
            return NULL;
        s = C->tail; /* evict the least recently used row */
        unlink_slot(C, s);
        C->slot[C->owner[s]] = SIZE_MAX;
    }
    C->owner[s] = i;
    C->slot[i] = s;
    push_front(C, s);
    kern_row(C->K, i, C->row[s], nthreads);
    return C->row[s];
}

void kcache_stats(const struct kcache *C, size_t *hits, size_t *misses)
{
    *hits = C->hits, *misses = C->misses;
}

struct krows {
    const struct kern *K;
    double *v;          /* n x n, row i valid once ok[i]  */
    unsigned char *ok;  /* n                               */
};

struct krows *krows_new(const struct kern *K, size_t bytes)
{
    size_t n = K->n ? K->n : 1;
    if (n > bytes / sizeof(double) / n)
        return NULL;
    struct krows *R = calloc(1, sizeof *R);
    if (!R)
        return NULL;
    R->K = K;
    R->v = malloc(n * n * sizeof *R->v);
    R->ok = calloc(n, 1);
    if (!R->v || !R->ok) {
        krows_free(R);
        return NULL;
    }
    return R;
}

void krows_free(struct krows *R)
{
    if (!R)
        return;
    free(R->v), free(R->ok), free(R);
}

const double *krows_row(struct krows *R, size_t i)
{
    double *r = R->v + i * R->K->n;
    if (!R->ok[i]) {
        for (size_t t = 0; t < R->K->n; t++)
            r[t] = kern_ij(R->K, i, t);
        R->ok[i] = 1;
    }
    return r;
}

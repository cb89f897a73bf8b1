/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * boostlab plugin SDK: deterministic parallel sums over examples, for
 * plugins (header only: nothing to link).  The examples are cut into fixed
 * chunks whose boundaries depend on m alone, each chunk's partial result is
 * computed by one thread, and the partials are added in chunk order by one
 * thread, so the result is bit-identical whatever the number of threads.
 * Compile the plugin with OpenMP (-fopenmp) to run chunks in parallel;
 * without it they simply run in order.
 */
#ifndef BOOSTLAB_PARALLEL_H
#define BOOSTLAB_PARALLEL_H

#include <stddef.h>

#define BL_CHUNK_ROWS 2048  /* examples per chunk ...                 */
#define BL_MAX_CHUNKS 1024  /* ... grown so there are at most this many */

/* Examples per chunk for m examples, and the number of chunks. */
static inline size_t bl_chunk_rows(size_t m)
{
    size_t c = (m + BL_MAX_CHUNKS - 1) / BL_MAX_CHUNKS;
    return c > BL_CHUNK_ROWS ? c : BL_CHUNK_ROWS;
}

static inline size_t bl_chunk_count(size_t m)
{
    size_t rows = bl_chunk_rows(m);
    return (m + rows - 1) / rows;
}

/* Partial result over examples [i0, i1). */
typedef double (*bl_rows_fn)(void *ctx, size_t i0, size_t i1);

/* sum over the chunks of fn(ctx, i0, i1), with at most nthreads threads.
 * fn may also write per-example outputs (gradients) for its rows. */
static inline double bl_chunked_sum(size_t m, int nthreads, bl_rows_fn fn, void *ctx)
{
    size_t rows = bl_chunk_rows(m), nch = bl_chunk_count(m);
    double part[BL_MAX_CHUNKS];
    long n = (long)nch;
    int nt = nthreads < (int)nch ? nthreads : (int)nch;
    (void)nt;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (nt > 1)
#endif
    for (long c = 0; c < n; c++) {
        size_t i0 = (size_t)c * rows, i1 = i0 + rows < m ? i0 + rows : m;
        part[c] = fn(ctx, i0, i1);
    }
    double s = 0.0;
    for (size_t c = 0; c < nch; c++)
        s += part[c];
    return s;
}

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MPI transport for the coordinator and workers (see mpi.h).  Compiled into
 * the tool only; without MPI (configure --without-mpi or no Open MPI) the
 * functions say so. */
#include "mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../config.h"
#include "../util/fsutil.h"

#ifdef HAVE_MPI
#include <mpi.h>
#endif

static int env_int(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : 0;
}

int bl_mpi_world_size(void)
{
    static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE",
                                 "MPI_LOCALNRANKS"};
    for (size_t j = 0; j < sizeof vars / sizeof *vars; j++)
        if (env_int(vars[j]) > 0)
            return env_int(vars[j]);
    return 1;
}

int bl_mpi_available(void)
{
#ifdef HAVE_MPI
    return 1;
#else
    return 0;
#endif
}

int bl_mpi_threads(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int local = env_int("OMPI_COMM_WORLD_LOCAL_SIZE");
    if (local <= 0)
        local = env_int("SLURM_NTASKS_PER_NODE");
    if (local <= 0)
        local = 1;
    long t = cores / local;
    return t > 0 ? (int)t : 1;
}

#ifdef HAVE_MPI

int bl_mpi_init(int *argc, char ***argv, int *rank, int *size, bl_error *err)
{
    if (MPI_Init(argc, argv) != MPI_SUCCESS)
        return bl_errf(err, "MPI_Init failed");
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    return 0;
}

void bl_mpi_finalize(void)
{
    MPI_Finalize();
}

void bl_mpi_abort(int status)
{
    MPI_Abort(MPI_COMM_WORLD, status);
    exit(status); /* not reached */
}

static int recv_from(int src, int *from, int *type, bl_buf *b, int poll_sleep)
{
    MPI_Status st;
    if (poll_sleep) {
        /* the coordinator sleeps between polls instead of spinning in
         * MPI_Probe, which would take a core from the workers */
        int flag = 0;
        struct timespec ts = {0, 2000000};
        for (;;) {
            if (MPI_Iprobe(src, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS)
                return -1;
            if (flag)
                break;
            nanosleep(&ts, NULL);
        }
    } else if (MPI_Probe(src, MPI_ANY_TAG, MPI_COMM_WORLD, &st) != MPI_SUCCESS) {
        return -1;
    }
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    bl_buf_reset(b);
    if ((size_t)count > b->cap) {
        b->cap = (size_t)count;
        b->p = bl_xrealloc(b->p, b->cap);
    }
    if (MPI_Recv(b->p, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return -1;
    b->n = (size_t)count;
    *from = st.MPI_SOURCE;
    *type = st.MPI_TAG;
    return 0;
}

static int send_to(int dst, int type, const bl_buf *b)
{
    return MPI_Send(b ? b->p : NULL, b ? (int)b->n : 0, MPI_BYTE, dst, type,
                    MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

/* Worker w is rank w + 1. */
static int t_send(bl_transport *t, int w, int type, const bl_buf *b, bl_error *err)
{
    (void)t;
    return send_to(w + 1, type, b) < 0 ? bl_errf(err, "MPI_Send to rank %d failed", w + 1) : 0;
}

static int t_recv(bl_transport *t, int *w, int *type, bl_buf *b, bl_error *err)
{
    (void)t;
    int from;
    if (recv_from(MPI_ANY_SOURCE, &from, type, b, 1) < 0)
        return bl_errf(err, "MPI receive failed");
    *w = from - 1;
    return 0;
}

int bl_mpi_coordinate(const bl_experiment *ex, const bl_job *jobs, size_t n,
                      const bl_pool_hooks *h, bl_error *err)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    bl_transport t = {size - 1, t_send, t_recv, NULL};
    return bl_coordinate(&t, ex, jobs, n, h, err);
}

static int e_send(bl_endpoint *e, int type, const bl_buf *b)
{
    (void)e;
    return send_to(0, type, b);
}

static int e_recv(bl_endpoint *e, int *type, bl_buf *b)
{
    (void)e;
    int from;
    return recv_from(0, &from, type, b, 0);
}

int bl_mpi_serve(const bl_experiment *ex, int threads)
{
    bl_set_threads(threads);
    bl_endpoint e = {e_send, e_recv, NULL};
    return bl_worker_serve(&e, ex);
}

#else /* !HAVE_MPI */

int bl_mpi_init(int *argc, char ***argv, int *rank, int *size, bl_error *err)
{
    (void)argc;
    (void)argv;
    *rank = 0;
    *size = 1;
    return bl_errf(err, "launched by mpirun with %d ranks, but this boostlab was built without "
                   "MPI: install the Debian packages libopenmpi-dev openmpi-bin and run "
                   "configure --with-mpi", bl_mpi_world_size());
}

void bl_mpi_finalize(void)
{
}

void bl_mpi_abort(int status)
{
    exit(status);
}

int bl_mpi_coordinate(const bl_experiment *ex, const bl_job *jobs, size_t n,
                      const bl_pool_hooks *h, bl_error *err)
{
    (void)ex;
    (void)jobs;
    (void)n;
    (void)h;
    return bl_errf(err, "built without MPI");
}

int bl_mpi_serve(const bl_experiment *ex, int threads)
{
    (void)ex;
    (void)threads;
    return -1;
}

#endif

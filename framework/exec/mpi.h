/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Experiments over MPI ranks: `mpirun -np N boostlab run EXP.ini`.  Rank 0
 * is the coordinator (it hands out jobs, writes the results store and the
 * summary, and mostly sleeps); ranks 1..N-1 are workers, each reading the
 * same experiment file (so it and its data must be at the same paths on
 * every node, e.g. on a shared file system).
 */
#ifndef BL_EXEC_MPI_H
#define BL_EXEC_MPI_H

#include "pool.h"

/* Ranks this process was launched with, from the launcher's environment
 * (Open MPI, PMI/PMIx, Slurm); 1 when not launched by one. */
int bl_mpi_world_size(void);
/* Nonzero when this boostlab was built with MPI. */
int bl_mpi_available(void);

/* MPI_Init; *rank and *size of MPI_COMM_WORLD. */
int bl_mpi_init(int *argc, char ***argv, int *rank, int *size, bl_error *err);
void bl_mpi_finalize(void);
/* Stop every rank (MPI_Abort) with this exit status. */
void bl_mpi_abort(int status) __attribute__((noreturn));

/* Threads for a rank: the cores of its node shared by the ranks on it. */
int bl_mpi_threads(void);

/* Rank 0: hand out jobs to ranks 1..size-1. */
int bl_mpi_coordinate(const bl_experiment *ex, const bl_job *jobs, size_t n,
                      const bl_pool_hooks *h, bl_error *err);
/* Ranks > 0: serve jobs until told to quit. */
int bl_mpi_serve(const bl_experiment *ex, int threads);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The output coding that the coded and the code space share
 * (space_coded.c, space_code.c): the plugin instance and its code. */
#ifndef BL_ENGINE_SPACE_CODING_H
#define BL_ENGINE_SPACE_CODING_H

#include <boostlab/coding.h>

#include "run.h"

typedef struct bl_run_coding {
    const struct bl_coding_ops *co;
    void *coding;
    size_t cmax; /* the most columns it gives */
    double *M;   /* its code, k x cmax        */
} bl_run_coding;

/* Create the run's coding; r->wide becomes max(cmax, k). */
int bl_run_coding_open(bl_run *r, bl_run_coding *cd, bl_error *err);
void bl_run_coding_close(bl_run_coding *cd);
/* A coded term must answer every one of the code's c columns: when res
 * does not, free its hypothesis and say so. */
int bl_run_check_columns(bl_run *r, struct bl_fit_result *res, size_t c, bl_error *err);

#endif

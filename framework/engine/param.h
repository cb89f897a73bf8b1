/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The boosting engine's own parameters, the keys of an [algorithm]
 * section that are not a plugin's: the struct bl_boost reads, beside the
 * function that trains (as liblinear keeps its `struct parameter`).
 */
#ifndef BL_ENGINE_PARAM_H
#define BL_ENGINE_PARAM_H

/* bl_boost_param.project */
enum { BL_PROJECT_NONE = 0, BL_PROJECT_INPUTS = 1, BL_PROJECT_OUTPUTS = 2 };
/* bl_boost_param.project_scale, and the SVM baselines' feature scaling */
enum { BL_SCALE_MINMAX = 0, BL_SCALE_ZSCORE = 1, BL_SCALE_NONE = 2 };

typedef struct bl_boost_param {
    double nu;          /* l1 weight of the coefficients; a hypothesis must
                           have an edge above nu + eps to be added        */
    double shrinkage;   /* scales each stage-wise step                    */
    double eps;
    double loss_tol;    /* stop once the training loss is <= this;
                           negative = never                               */
    double rel_tol;     /* stop once the objective's relative decrease is
                           below this; negative = never                   */
    int nonneg;         /* coefficients bounded below by 0                */
    int project;        /* BL_PROJECT_*: what a projection plugin projects */
    int project_scale;  /* BL_SCALE_*: inputs before projecting           */
} bl_boost_param;

#endif

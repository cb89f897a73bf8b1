/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A trained boosting model: terms (hypothesis + coefficient row) whose sum
 * F(x) = sum_j w_j ⊙ h_j(x) gives class scores, predicted by argmax (ties
 * to the lowest class).  Model files are text, versioned, and end with a
 * CRC-32 of everything before the checksum line, so a truncated or edited
 * file is refused rather than silently mispredicting.
 */
#ifndef BL_ENGINE_MODEL_H
#define BL_ENGINE_MODEL_H

#include <boostlab/plugin.h>
#include <boostlab/data.h>

#include "../plugin/loader.h"
#include "../util/error.h"

#define BL_MODEL_FORMAT 1

typedef struct bl_term {
    void *hyp;
    size_t outdim;
    double *w;            /* k coefficients */
} bl_term;

typedef struct bl_model {
    const struct bl_plugin *weak;   /* owns the hypotheses */
    size_t k, d, t, cap;
    bl_term *term;
    char **class_names;   /* k */
    char **feature_names; /* d */
    char *algorithm;      /* resolved algorithm, INI text, for provenance */
} bl_model;

void bl_model_init(bl_model *mo, const struct bl_plugin *weak, size_t k, size_t d,
                   char *const *class_names, char *const *feature_names);
/* Takes ownership of hyp; copies w. */
void bl_model_add(bl_model *mo, void *hyp, size_t outdim, const double *w);
void bl_model_free(bl_model *mo);

/* Scores F (X->m x k) and labels (X->m) of a model. */
void bl_model_scores(const bl_model *mo, const struct bl_matrix *X, double *F);
void bl_argmax_rows(const double *F, size_t m, size_t k, int *label);
/* Fraction of rows whose argmax differs from y. */
double bl_error_rate(const double *F, const int *y, size_t m, size_t k);

int bl_model_save(const bl_model *mo, const char *path, bl_error *err);
int bl_model_load(const char *path, const bl_registry *reg, bl_model *mo, bl_error *err);

#endif

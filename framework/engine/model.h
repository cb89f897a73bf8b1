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
#include "../plugin/params.h"
#include "../util/error.h"

/* Format 2 adds the projection lines (RBoost-rank's models);
 * models without a projection are still written as format 1. */
#define BL_MODEL_FORMAT 2

struct bl_proj;

typedef struct bl_term {
    void *hyp;
    size_t outdim;        /* of the term's class output: 1 or k          */
    double *w;            /* k coefficients */
    /* Coded terms: the hypothesis gives hdim outputs, mapped to the k
     * classes by code (k x hdim, row-major); NULL when not coded. */
    double *code;
    size_t hdim;
} bl_term;

typedef struct bl_model {
    const struct bl_plugin *weak;   /* owns the hypotheses */
    size_t k, d, t, cap;
    bl_term *term;
    char **class_names;   /* k */
    char **feature_names; /* d */
    char *algorithm;      /* resolved algorithm, INI text, for provenance */
    /* project = inputs (RBoost-rank): hypotheses run on the m k projected
     * points, each term's outputs on them being its m x k class outputs;
     * NULL otherwise */
    struct bl_proj *proj;
} bl_model;

void bl_model_init(bl_model *mo, const struct bl_plugin *weak, size_t k, size_t d,
                   char *const *class_names, char *const *feature_names);
/* Add a term with outdim class outputs and zero coefficients; the model
 * owns hyp from here. */
void bl_model_add(bl_model *mo, void *hyp, size_t outdim);
/* Set term j's k coefficients (w, unless NULL) and, when code is not NULL,
 * its code (k x hdim, copied), which makes its class outputs k wide.
 * Every coefficient of a model is written here. */
void bl_model_set_term(bl_model *mo, size_t j, const double *w, const double *code,
                       size_t hdim);
/* Class outputs (X->m x t->outdim) of one term; scratch holds X->m x hdim.
 * For a model with a projection (mo->proj), X is the projected points
 * (bl_proj_inputs): the term's outputs on its X->m = m k points are then
 * its m x k class outputs. */
void bl_term_outputs(const bl_model *mo, const bl_term *t, const struct bl_matrix *X,
                     double *out, double *scratch);
/* The same on inputs that may be sparse: S when not NULL (X then only
 * gives m and d), else X. */
void bl_term_outputs_any(const bl_model *mo, const bl_term *t, const struct bl_matrix *X,
                         const struct bl_sparse *S, double *out, double *scratch);
struct bl_weak_ops;
/* A hypothesis' outputs on S: the learner's predict_sparse, or predict on
 * blocks of rows densified a few at a time (memory ~ 1 MiB, not m x d). */
void bl_hyp_predict_sparse(const struct bl_weak_ops *wo, const void *hyp,
                           const struct bl_sparse *S, size_t outdim, double *out);
void bl_model_free(bl_model *mo);
/* Make the model predict through projection ps (seeded) on its inputs. */
int bl_model_set_proj(bl_model *mo, const bl_paramset *ps, uint64_t seed, bl_error *err);

/* Scores F (X->m x k) and labels (X->m) of a model. */
void bl_model_scores(const bl_model *mo, const struct bl_matrix *X, double *F);
/* The same on a sparse matrix, in memory proportional to its entries and
 * m x k (a model with a projection densifies blocks of rows). */
void bl_model_scores_sparse(const bl_model *mo, const struct bl_sparse *S, double *F);
void bl_argmax_rows(const double *F, size_t m, size_t k, int *label);
/* Fraction of rows whose argmax differs from y. */
double bl_error_rate(const double *F, const int *y, size_t m, size_t k);

int bl_model_save(const bl_model *mo, const char *path, bl_error *err);
int bl_model_load(const char *path, const bl_registry *reg, bl_model *mo, bl_error *err);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The boosting engine's own parameters, the keys of an [algorithm]
 * section that are not a plugin's: the struct bl_boost reads, beside the
 * function that trains (as liblinear keeps its `struct parameter`), and
 * the table that describes each key once (param.c): its schema row as a
 * plugin's (type, default, range or choices, doc), where it lives in the
 * struct and when it is written.  Parsing, defaults, range checks, the
 * accepted-keys list, the resolved text (and so the results store's hash)
 * all come from that table: a new engine key is one row there.
 */
#ifndef BL_ENGINE_PARAM_H
#define BL_ENGINE_PARAM_H

#include <boostlab/plugin.h>
#include <stddef.h>
#include <stdio.h>

#include "../util/error.h"

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

/* When a key is written into the resolved algorithm text.  Keys added
 * after runs were stored are written only when they differ from their
 * default, so the text (and hash) of those runs stays what it was. */
enum bl_boost_write {
    BL_WRITE_ALWAYS = 0,
    BL_WRITE_UNLESS_DEFAULT = 1
};

/* Where in the text: the engine's block after the plugins, or after the
 * projection plugin's parameters (written only when there is one). */
enum bl_boost_group {
    BL_GROUP_ENGINE = 0,
    BL_GROUP_PROJECTION = 1
};

/* One engine key.  Members are a double for BL_PARAM_REAL and an int for
 * BL_PARAM_INT, BL_PARAM_BOOL and BL_PARAM_CHOICE. */
typedef struct bl_boost_key {
    struct bl_param_spec spec; /* as a plugin's; spec.def NULL: unset     */
    size_t offset;             /* of the member in bl_boost_param         */
    double unset;              /* the member's value when spec.def is NULL */
    int first;                 /* CHOICE: the member's value for the first
                                  choice (the others follow)              */
    const char *accepted;      /* CHOICE: the words as errors say them;
                                  NULL: "a, b or c"                       */
    enum bl_boost_write write;
    enum bl_boost_group group;
} bl_boost_key;

/* The table, in the order keys are written. */
extern const bl_boost_key bl_boost_keys[];
extern const size_t bl_boost_nkeys;

/* The row of key name, or NULL when it is not an engine key. */
const bl_boost_key *bl_boost_key_find(const char *name);
/* The engine keys' names, comma-separated (static buffer). */
const char *bl_boost_key_names(void);

/* Every key at its default. */
void bl_boost_param_init(bl_boost_param *p);
/* Set key name from text; the error says what was expected ("2 is out of
 * range: expected a real in [0, 1]"), the caller adds FILE:LINE and key. */
int bl_boost_param_set(bl_boost_param *p, const char *name, const char *text, bl_error *err);
/* Write group g's keys as "key = value" lines, as their rules say. */
void bl_boost_param_write(const bl_boost_param *p, enum bl_boost_group g, FILE *f);
/* The rules between engine keys (liblinear's check_parameter): NULL when
 * they fit together, else what is wrong. */
const char *bl_boost_param_check(const bl_boost_param *p);
/* The same, and the key to blame in *key (for its line). */
const char *bl_boost_param_check_key(const bl_boost_param *p, const char **key);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * method = xgboost: the XGBoost learning parameters an algorithm sets as
 * `xgb.NAME = VALUE`.  Each name is checked against a table of XGBoost's
 * tree-booster parameters (names, types and ranges as XGBoost 1.7
 * documents them), so a typo is refused with the accepted names rather
 * than ignored (XGBoost itself only warns about unknown names, and this
 * build of it can crash on a malformed value).  The keys boostlab sets
 * itself (objective, num_class, nthread, seed, ...) are refused with what
 * sets them.  With XGBoost built in, bl_xgb_params_try then trains one round
 * on a tiny problem, so that XGBoost's own rules between keys (e.g.
 * max_depth = 0 with tree_method = exact) fail when the experiment is
 * loaded, naming the key, and not in the middle of a grid.
 */
#ifndef BL_CONFIG_XGBPARAM_H
#define BL_CONFIG_XGBPARAM_H

#include <stddef.h>
#include <stdio.h>

#include "../util/error.h"

/* The keys set, in table order; values as XGBoost is given them. */
typedef struct bl_xgb_params {
    size_t n;
    char **name, **value;
} bl_xgb_params;

/* 1 when this boostlab was built with XGBoost's C API (configure); else
 * why method xgboost is refused. */
extern const int bl_have_xgboost;
extern const char bl_xgb_missing[];

/* Check and set (or replace) parameter name. */
int bl_xgb_param_set(bl_xgb_params *p, const char *name, const char *text, bl_error *err);
/* The value of name, or NULL when it is not set. */
const char *bl_xgb_param_get(const bl_xgb_params *p, const char *name);
/* Built with XGBoost only: pass the keys to a booster (a BoosterHandle). */
int bl_xgb_params_apply(const bl_xgb_params *p, void *booster, bl_error *err);
/* Train one round with the keys on a tiny 3-class problem: 0, or -1 with
 * err XGBoost's reason and *culprit the first key with which it refuses
 * the keys before it (p->n when none alone is to blame).  0 without
 * XGBoost, which refuses the method itself. */
int bl_xgb_params_try(const bl_xgb_params *p, size_t *culprit, bl_error *err);
/* Built with XGBoost only: its last error, the first line without the
 * time and source location, into err as "PREFIX: reason"; -1. */
int bl_xgb_error(bl_error *err, const char *prefix);
/* "xgb.NAME = VALUE" lines. */
void bl_xgb_params_write(const bl_xgb_params *p, FILE *f);
void bl_xgb_params_free(bl_xgb_params *p);

#endif

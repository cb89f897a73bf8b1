/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Plugin parameters: parsing INI text against a plugin's schema, checking
 * types and ranges, and keeping the resolved values (with their text, for
 * reports and model provenance). */
#ifndef BL_PLUGIN_PARAMS_H
#define BL_PLUGIN_PARAMS_H

#include <boostlab/plugin.h>

#include "../util/error.h"

typedef struct bl_paramset {
    const struct bl_plugin *plugin;
    union bl_value *v;    /* nparams values in schema order            */
    char **text;          /* the text each value was parsed from       */
} bl_paramset;

/* Parse text for spec into *out (strings point into *owned, malloc'ed).
 * Errors say what was expected, e.g. "expected a real number in [0, 1]". */
int bl_param_parse(const struct bl_param_spec *s, const char *text,
                   union bl_value *out, bl_error *err);
/* The same, with `accepted` in the messages in place of the type's
 * description (NULL: bl_param_describe's), for the host's own keys, which
 * word their choices as prose: "expected minmax, zscore or none, got 'raw'". */
int bl_param_parse_as(const struct bl_param_spec *s, const char *text, const char *accepted,
                      union bl_value *out, bl_error *err);

/* "a, b or c" from choices "a|b|c". */
void bl_param_choice_list(const char *choices, char *buf, size_t cap);

/* Human description of the type and range: "real in [0, inf)". */
void bl_param_describe(const struct bl_param_spec *s, char *buf, size_t cap);

/* Index of parameter name in p's schema, or -1. */
int bl_param_index(const struct bl_plugin *p, const char *name);

/* Comma-separated list of p's parameter names (static buffer). */
const char *bl_param_names(const struct bl_plugin *p);

/* Start from the defaults. */
int bl_paramset_init(bl_paramset *ps, const struct bl_plugin *p, bl_error *err);
/* Set one parameter; unknown names are an error listing the accepted ones. */
int bl_paramset_set(bl_paramset *ps, const char *name, const char *text, bl_error *err);
int bl_paramset_copy(bl_paramset *dst, const bl_paramset *src);
void bl_paramset_free(bl_paramset *ps);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Plugin parameter parsing and validation (see params.h). */
#include "params.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../util/fsutil.h"

static void fmt_bound(double x, char *buf, size_t cap)
{
    if (isinf(x))
        snprintf(buf, cap, "%sinf", x < 0 ? "-" : "");
    else
        snprintf(buf, cap, "%.10g", x);
}

void bl_param_describe(const struct bl_param_spec *s, char *buf, size_t cap)
{
    char lo[32], hi[32];
    fmt_bound(s->min, lo, sizeof lo);
    fmt_bound(s->max, hi, sizeof hi);
    switch (s->type) {
    case BL_PARAM_INT:
        snprintf(buf, cap, "integer in [%s, %s]", lo, hi);
        break;
    case BL_PARAM_REAL:
        snprintf(buf, cap, "real in %s%s, %s%s", isinf(s->min) ? "(" : "[", lo, hi,
                 isinf(s->max) ? ")" : "]");
        break;
    case BL_PARAM_BOOL:
        snprintf(buf, cap, "boolean (true|false)");
        break;
    case BL_PARAM_CHOICE:
        snprintf(buf, cap, "one of %s", s->choices ? s->choices : "");
        break;
    case BL_PARAM_STRING:
        snprintf(buf, cap, "text");
        break;
    default:
        snprintf(buf, cap, "unknown type %d", (int)s->type);
    }
}

static int choice_index(const char *choices, const char *word)
{
    size_t n = strlen(word);
    int idx = 0;
    for (const char *c = choices; c && *c; idx++) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && strncmp(c, word, n) == 0)
            return idx;
        c = bar ? bar + 1 : NULL;
    }
    return -1;
}

void bl_param_choice_list(const char *choices, char *buf, size_t cap)
{
    size_t o = 0, n = 0;
    buf[0] = 0;
    for (const char *c = choices; c && *c && o < cap; n++) {
        const char *bar = strchr(c, '|');
        int len = (int)(bar ? (size_t)(bar - c) : strlen(c));
        const char *sep = !n ? "" : bar ? ", " : " or ";
        o += (size_t)snprintf(buf + o, cap - o, "%s%.*s", sep, len, c);
        c = bar ? bar + 1 : NULL;
    }
}

int bl_param_parse(const struct bl_param_spec *s, const char *text, union bl_value *out,
                   bl_error *err)
{
    return bl_param_parse_as(s, text, NULL, out, err);
}

int bl_param_parse_as(const struct bl_param_spec *s, const char *text, const char *accepted,
                      union bl_value *out, bl_error *err)
{
    char want[256];
    if (accepted)
        snprintf(want, sizeof want, "%s", accepted);
    else
        bl_param_describe(s, want, sizeof want);
    char *end;
    errno = 0;
    switch (s->type) {
    case BL_PARAM_INT: {
        long long x = strtoll(text, &end, 10);
        if (end == text || *end || errno)
            return bl_errf(err, "expected an %s, got '%s'", want, text);
        if ((double)x < s->min || (double)x > s->max)
            return bl_errf(err, "%lld is out of range: expected an %s", x, want);
        out->i = x;
        return 0;
    }
    case BL_PARAM_REAL: {
        double x = strtod(text, &end);
        if (end == text || *end || errno == ERANGE || !isfinite(x)) {
            if (!strcasecmp(text, "inf") && isinf(s->max)) {
                out->r = HUGE_VAL;
                return 0;
            }
            return bl_errf(err, "expected a %s, got '%s'", want, text);
        }
        if (x < s->min || x > s->max)
            return bl_errf(err, "%g is out of range: expected a %s", x, want);
        out->r = x;
        return 0;
    }
    case BL_PARAM_BOOL:
        if (!strcasecmp(text, "true") || !strcasecmp(text, "yes") || !strcasecmp(text, "on") ||
            !strcmp(text, "1"))
            out->b = 1;
        else if (!strcasecmp(text, "false") || !strcasecmp(text, "no") ||
                 !strcasecmp(text, "off") || !strcmp(text, "0"))
            out->b = 0;
        else
            return bl_errf(err, "expected a %s, got '%s'", want, text);
        return 0;
    case BL_PARAM_CHOICE: {
        int c = choice_index(s->choices, text);
        if (c < 0)
            return bl_errf(err, "expected %s, got '%s'", want, text);
        out->choice = c;
        return 0;
    }
    case BL_PARAM_STRING:
        out->s = text; /* the paramset keeps the text alive */
        return 0;
    }
    return bl_errf(err, "parameter type %d is not known to this host", (int)s->type);
}

int bl_param_index(const struct bl_plugin *p, const char *name)
{
    for (size_t j = 0; j < p->nparams; j++)
        if (strcmp(p->params[j].name, name) == 0)
            return (int)j;
    return -1;
}

const char *bl_param_names(const struct bl_plugin *p)
{
    static char buf[1024];
    size_t o = 0;
    buf[0] = 0;
    for (size_t j = 0; j < p->nparams && o < sizeof buf; j++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", j ? ", " : "", p->params[j].name);
    if (p->nparams == 0)
        snprintf(buf, sizeof buf, "(none)");
    return buf;
}

int bl_paramset_init(bl_paramset *ps, const struct bl_plugin *p, bl_error *err)
{
    ps->plugin = p;
    ps->v = bl_xcalloc(p->nparams, sizeof *ps->v);
    ps->text = bl_xcalloc(p->nparams, sizeof *ps->text);
    for (size_t j = 0; j < p->nparams; j++) {
        const struct bl_param_spec *s = &p->params[j];
        ps->text[j] = bl_strdup(s->def ? s->def : "");
        if (bl_param_parse(s, ps->text[j], &ps->v[j], err) < 0) {
            bl_errprefix(err, "plugin %s: default of parameter %s", p->name, s->name);
            bl_paramset_free(ps);
            return -1;
        }
    }
    return 0;
}

int bl_paramset_set(bl_paramset *ps, const char *name, const char *text, bl_error *err)
{
    const struct bl_plugin *p = ps->plugin;
    int j = bl_param_index(p, name);
    if (j < 0)
        return bl_errf(err, "%s has no parameter '%s' (accepted: %s)", p->name, name,
                       bl_param_names(p));
    char *copy = bl_strdup(text);
    union bl_value v;
    if (bl_param_parse(&p->params[j], copy, &v, err) < 0) {
        free(copy); /* the caller names the key: "[algorithm a] solver.max_iter" */
        return -1;
    }
    free(ps->text[j]);
    ps->text[j] = copy;
    ps->v[j] = v;
    return 0;
}

int bl_paramset_copy(bl_paramset *dst, const bl_paramset *src)
{
    const struct bl_plugin *p = src->plugin;
    dst->plugin = p;
    dst->v = bl_xcalloc(p->nparams, sizeof *dst->v);
    dst->text = bl_xcalloc(p->nparams, sizeof *dst->text);
    for (size_t j = 0; j < p->nparams; j++) {
        dst->text[j] = bl_strdup(src->text[j]);
        dst->v[j] = src->v[j];
        if (p->params[j].type == BL_PARAM_STRING)
            dst->v[j].s = dst->text[j];
    }
    return 0;
}

void bl_paramset_free(bl_paramset *ps)
{
    if (!ps->plugin)
        return;
    for (size_t j = 0; j < ps->plugin->nparams; j++)
        free(ps->text ? ps->text[j] : NULL);
    free(ps->text);
    free(ps->v);
    ps->text = NULL;
    ps->v = NULL;
    ps->plugin = NULL;
}

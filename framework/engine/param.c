/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine's keys, one row each, and what is done with them (param.h):
 * parsing and range checks by the plugins' own schema code, defaults, the
 * resolved text, the rules between keys. */
#include "param.h"

#include <math.h>
#include <string.h>

#include "../plugin/params.h"

#define AT(member) offsetof(bl_boost_param, member)

const bl_boost_key bl_boost_keys[] = {
    {.spec = {"nu", BL_PARAM_REAL, "0", 0, HUGE_VAL, NULL,
              "weight of the l1 term nu*sum(w); training stops when the best edge is at most "
              "nu + eps"},
     .offset = AT(nu)},
    {.spec = {"shrinkage", BL_PARAM_REAL, "1", 1e-12, 1, NULL,
              "a stage-wise solver's new coefficients are multiplied by it (1 with a totally "
              "corrective solver)"},
     .offset = AT(shrinkage)},
    {.spec = {"eps", BL_PARAM_REAL, "0", 0, HUGE_VAL, NULL, "added to nu in the stopping rule only"},
     .offset = AT(eps)},
    {.spec = {"nonneg", BL_PARAM_CHOICE, "true", 0, 0, "false|true",
              "coefficients bounded below by 0"},
     .offset = AT(nonneg), .accepted = "true or false"},
    /* unset = never; written only when set, so older runs keep their text */
    {.spec = {"loss_tol", BL_PARAM_REAL, NULL, 0, HUGE_VAL, NULL,
              "stop once the training loss is at most this (unset: never)"},
     .offset = AT(loss_tol), .unset = -1, .write = BL_WRITE_UNLESS_DEFAULT},
    {.spec = {"rel_tol", BL_PARAM_REAL, NULL, 0, 1, NULL,
              "stop once the objective falls by less than this fraction of its previous value "
              "in one iteration (unset: never)"},
     .offset = AT(rel_tol), .unset = -1, .write = BL_WRITE_UNLESS_DEFAULT},
    {.spec = {"project", BL_PARAM_CHOICE, NULL, 0, 0, "inputs|outputs",
              "with a projection: what it projects, inputs (RBoost-rank) or the weak "
              "learners' outputs (RBoost-proj)"},
     .offset = AT(project), .unset = BL_PROJECT_NONE, .first = BL_PROJECT_INPUTS,
     .accepted = "inputs (RBoost-rank) or outputs (RBoost-proj)", .group = BL_GROUP_PROJECTION},
    {.spec = {"project_scale", BL_PARAM_CHOICE, "zscore", 0, 0, "minmax|zscore|none",
              "with project = inputs: each feature's scaling before it is projected"},
     .offset = AT(project_scale), .first = BL_SCALE_MINMAX, .write = BL_WRITE_UNLESS_DEFAULT,
     .group = BL_GROUP_PROJECTION},
};
const size_t bl_boost_nkeys = sizeof bl_boost_keys / sizeof bl_boost_keys[0];

const bl_boost_key *bl_boost_key_find(const char *name)
{
    for (size_t j = 0; j < bl_boost_nkeys; j++)
        if (!strcmp(bl_boost_keys[j].spec.name, name))
            return &bl_boost_keys[j];
    return NULL;
}

const char *bl_boost_key_names(void)
{
    static char buf[512];
    size_t o = 0;
    for (size_t j = 0; j < bl_boost_nkeys && o < sizeof buf; j++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", j ? ", " : "",
                              bl_boost_keys[j].spec.name);
    return buf;
}

static double *real_at(bl_boost_param *p, const bl_boost_key *k)
{
    return (double *)((char *)p + k->offset);
}

static int *int_at(bl_boost_param *p, const bl_boost_key *k)
{
    return (int *)((char *)p + k->offset);
}

static double get_real(const bl_boost_param *p, const bl_boost_key *k)
{
    return *(const double *)((const char *)p + k->offset);
}

static int get_int(const bl_boost_param *p, const bl_boost_key *k)
{
    return *(const int *)((const char *)p + k->offset);
}

/* Parse text into k's member. */
static int store(bl_boost_param *p, const bl_boost_key *k, const char *text, bl_error *err)
{
    const struct bl_param_spec *s = &k->spec;
    char words[256];
    const char *accepted = NULL;
    if (s->type == BL_PARAM_CHOICE) {
        if (!(accepted = k->accepted)) {
            bl_param_choice_list(s->choices, words, sizeof words);
            accepted = words;
        }
    }
    union bl_value v;
    if (bl_param_parse_as(s, text, accepted, &v, err) < 0)
        return -1;
    switch (s->type) {
    case BL_PARAM_REAL:
        /* the schema takes "inf" for an open range; the engine's values are
         * finite, as "[0, inf)" says */
        if (isinf(v.r)) {
            char want[128];
            bl_param_describe(s, want, sizeof want);
            return bl_errf(err, "expected a %s, got '%s'", want, text);
        }
        *real_at(p, k) = v.r;
        return 0;
    case BL_PARAM_INT:
        *int_at(p, k) = (int)v.i;
        return 0;
    case BL_PARAM_BOOL:
        *int_at(p, k) = v.b;
        return 0;
    case BL_PARAM_CHOICE:
        *int_at(p, k) = k->first + v.choice;
        return 0;
    default:
        return bl_errf(err, "engine key %s: type %d has no member kind", s->name, (int)s->type);
    }
}

static void set_unset(bl_boost_param *p, const bl_boost_key *k)
{
    if (k->spec.type == BL_PARAM_REAL)
        *real_at(p, k) = k->unset;
    else
        *int_at(p, k) = (int)k->unset;
}

void bl_boost_param_init(bl_boost_param *p)
{
    memset(p, 0, sizeof *p);
    for (size_t j = 0; j < bl_boost_nkeys; j++) {
        const bl_boost_key *k = &bl_boost_keys[j];
        /* defaults parse (tests/unit/test_param.c), so no error here */
        if (!k->spec.def || store(p, k, k->spec.def, NULL) < 0)
            set_unset(p, k);
    }
}

int bl_boost_param_set(bl_boost_param *p, const char *name, const char *text, bl_error *err)
{
    const bl_boost_key *k = bl_boost_key_find(name);
    if (!k)
        return bl_errf(err, "unknown engine key '%s' (accepted: %s)", name, bl_boost_key_names());
    return store(p, k, text, err);
}

/* Is k's member at its default (or unset when it has none)? */
static int at_default(const bl_boost_param *p, const bl_boost_key *k)
{
    bl_boost_param d;
    bl_boost_param_init(&d);
    if (k->spec.type == BL_PARAM_REAL)
        return get_real(p, k) == get_real(&d, k);
    return get_int(p, k) == get_int(&d, k);
}

/* The word of choice n of "a|b|c" into buf, or 0 when there is none. */
static int choice_word(const char *choices, int n, char *buf, size_t cap)
{
    for (const char *c = choices; c && *c; n--) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (n == 0) {
            snprintf(buf, cap, "%.*s", (int)len, c);
            return 1;
        }
        c = bar ? bar + 1 : NULL;
    }
    return 0;
}

void bl_boost_param_write(const bl_boost_param *p, enum bl_boost_group g, FILE *f)
{
    for (size_t j = 0; j < bl_boost_nkeys; j++) {
        const bl_boost_key *k = &bl_boost_keys[j];
        if (k->group != g || (k->write == BL_WRITE_UNLESS_DEFAULT && at_default(p, k)))
            continue;
        char word[64];
        switch (k->spec.type) {
        case BL_PARAM_REAL:
            fprintf(f, "%s = %.17g\n", k->spec.name, get_real(p, k));
            break;
        case BL_PARAM_INT:
            fprintf(f, "%s = %d\n", k->spec.name, get_int(p, k));
            break;
        case BL_PARAM_BOOL:
            fprintf(f, "%s = %s\n", k->spec.name, get_int(p, k) ? "true" : "false");
            break;
        case BL_PARAM_CHOICE:
            /* an unset choice (project without a projection) is refused by
             * the checks before anything is written */
            if (choice_word(k->spec.choices, get_int(p, k) - k->first, word, sizeof word))
                fprintf(f, "%s = %s\n", k->spec.name, word);
            break;
        default:
            break;
        }
    }
}

const char *bl_boost_param_check_key(const bl_boost_param *p, const char **key)
{
    const char *k = NULL, *msg = NULL;
    if (p->project_scale != BL_SCALE_ZSCORE && p->project != BL_PROJECT_INPUTS) {
        k = "project_scale";
        msg = "project_scale applies to projected inputs only (project = inputs, RBoost-rank)";
    }
    if (key)
        *key = k;
    return msg;
}

const char *bl_boost_param_check(const bl_boost_param *p)
{
    return bl_boost_param_check_key(p, NULL);
}

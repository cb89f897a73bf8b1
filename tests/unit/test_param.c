/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine's key table (engine/param.c): every key parses, refuses a
 * value out of range with the range, is written back to the same text,
 * the cross-key rules are caught, and docs/reference/ini.md documents
 * every key with its default. */
#include <math.h>

#include "engine/param.h"
#include "plugin/params.h"
#include "testutil.h"

/* The keys' lines of group g. */
static char *written(const bl_boost_param *p, enum bl_boost_group g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    bl_boost_param_write(p, g, f);
    fclose(f);
    return buf;
}

static void set_ok(bl_boost_param *p, const char *key, const char *text)
{
    bl_error err;
    cr_assert_eq(bl_boost_param_set(p, key, text, &err), 0, "%s = %s: %s", key, text, err.msg);
}

static void set_refused(const char *key, const char *text, const char *what)
{
    bl_boost_param p;
    bl_boost_param_init(&p);
    bl_error err;
    cr_assert_eq(bl_boost_param_set(&p, key, text, &err), -1, "%s = %s was accepted", key, text);
    cr_assert(strstr(err.msg, what), "%s = %s: expected '%s' in: %s", key, text, what, err.msg);
}

Test(param, defaults)
{
    bl_boost_param p;
    bl_boost_param_init(&p);
    cr_assert_eq(p.nu, 0);
    cr_assert_eq(p.shrinkage, 1);
    cr_assert_eq(p.eps, 0);
    cr_assert_eq(p.loss_tol, -1);
    cr_assert_eq(p.rel_tol, -1);
    cr_assert_eq(p.nonneg, 1);
    cr_assert_eq(p.project, BL_PROJECT_NONE);
    cr_assert_eq(p.project_scale, BL_SCALE_ZSCORE);
    /* every default is a value of its own row */
    for (size_t j = 0; j < bl_boost_nkeys; j++) {
        const bl_boost_key *k = &bl_boost_keys[j];
        if (k->spec.def)
            set_ok(&p, k->spec.name, k->spec.def);
    }
}

Test(param, table_is_well_formed)
{
    for (size_t j = 0; j < bl_boost_nkeys; j++) {
        const bl_boost_key *k = &bl_boost_keys[j];
        cr_assert_eq(bl_boost_key_find(k->spec.name), k, "%s is not found or not unique",
                     k->spec.name);
        cr_assert(k->spec.doc && k->spec.doc[0], "%s has no doc", k->spec.name);
        cr_assert(k->spec.type == BL_PARAM_REAL || k->spec.type == BL_PARAM_CHOICE ||
                  k->spec.type == BL_PARAM_INT || k->spec.type == BL_PARAM_BOOL,
                  "%s: a type without a member kind", k->spec.name);
        cr_assert(k->offset < sizeof(bl_boost_param));
    }
    cr_assert_null(bl_boost_key_find("iterations"));
    cr_assert_null(bl_boost_key_find("loss"));
}

Test(param, each_key_parses)
{
    bl_boost_param p;
    bl_boost_param_init(&p);
    set_ok(&p, "nu", "1e-4");
    cr_assert_eq(p.nu, 1e-4);
    set_ok(&p, "shrinkage", "0.25");
    cr_assert_eq(p.shrinkage, 0.25);
    set_ok(&p, "eps", "0.5");
    cr_assert_eq(p.eps, 0.5);
    set_ok(&p, "loss_tol", "1e-16");
    cr_assert_eq(p.loss_tol, 1e-16);
    set_ok(&p, "rel_tol", "1e-5");
    cr_assert_eq(p.rel_tol, 1e-5);
    set_ok(&p, "nonneg", "false");
    cr_assert_eq(p.nonneg, 0);
    set_ok(&p, "nonneg", "true");
    cr_assert_eq(p.nonneg, 1);
    set_ok(&p, "project", "inputs");
    cr_assert_eq(p.project, BL_PROJECT_INPUTS);
    set_ok(&p, "project", "outputs");
    cr_assert_eq(p.project, BL_PROJECT_OUTPUTS);
    set_ok(&p, "project_scale", "minmax");
    cr_assert_eq(p.project_scale, BL_SCALE_MINMAX);
    set_ok(&p, "project_scale", "none");
    cr_assert_eq(p.project_scale, BL_SCALE_NONE);
    set_ok(&p, "project_scale", "zscore");
    cr_assert_eq(p.project_scale, BL_SCALE_ZSCORE);
}

Test(param, out_of_range_says_the_range)
{
    set_refused("nu", "-1", "-1 is out of range: expected a real in [0, inf)");
    set_refused("shrinkage", "1.5", "1.5 is out of range: expected a real in [1e-12, 1]");
    set_refused("shrinkage", "0", "0 is out of range: expected a real in [1e-12, 1]");
    set_refused("eps", "-0.5", "out of range: expected a real in [0, inf)");
    set_refused("loss_tol", "-1", "out of range: expected a real in [0, inf)");
    set_refused("rel_tol", "2", "2 is out of range: expected a real in [0, 1]");
    /* the engine's reals are finite, though the schema reads "inf" for an open range */
    set_refused("nu", "inf", "expected a real in [0, inf), got 'inf'");
    set_refused("eps", "1e999", "got '1e999'");
    set_refused("nu", "small", "expected a real in [0, inf), got 'small'");
}

Test(param, choices_are_worded_as_before)
{
    set_refused("project", "both",
                "expected inputs (RBoost-rank) or outputs (RBoost-proj), got 'both'");
    set_refused("project", "none", "got 'none'");
    set_refused("project_scale", "raw", "expected minmax, zscore or none, got 'raw'");
    /* exactly true or false, as the written text has it */
    set_refused("nonneg", "yes", "expected true or false, got 'yes'");
    set_refused("nonneg", "1", "expected true or false, got '1'");
    set_refused("no_such_key", "1", "accepted: nu, shrinkage, eps");
}

Test(param, default_text)
{
    bl_boost_param p;
    bl_boost_param_init(&p);
    char *e = written(&p, BL_GROUP_ENGINE), *j = written(&p, BL_GROUP_PROJECTION);
    cr_assert_str_eq(e, "nu = 0\nshrinkage = 1\neps = 0\nnonneg = true\n");
    cr_assert_str_eq(j, ""); /* no projection, nothing projected */
    free(e);
    free(j);
    set_ok(&p, "loss_tol", "1e-16");
    set_ok(&p, "rel_tol", "1e-05");
    set_ok(&p, "nonneg", "false");
    set_ok(&p, "shrinkage", "0.1");
    set_ok(&p, "project", "inputs");
    e = written(&p, BL_GROUP_ENGINE);
    j = written(&p, BL_GROUP_PROJECTION);
    cr_assert_str_eq(e, "nu = 0\nshrinkage = 0.10000000000000001\neps = 0\nnonneg = false\n"
                        "loss_tol = 9.9999999999999998e-17\nrel_tol = 1.0000000000000001e-05\n");
    cr_assert_str_eq(j, "project = inputs\n"); /* zscore, the default, is not written */
    free(e);
    free(j);
    set_ok(&p, "project_scale", "minmax");
    j = written(&p, BL_GROUP_PROJECTION);
    cr_assert_str_eq(j, "project = inputs\nproject_scale = minmax\n");
    free(j);
}

/* Set each row to each of a few values, write, read the text back into
 * defaults: the same struct, and the same text again. */
Test(param, writes_back_byte_identically)
{
    static const char *const values[][4] = {
        {"nu", "0", "1e-4", "3.25"},          {"shrinkage", "1", "1e-12", "0.3"},
        {"eps", "0", "1e-300", "7"},          {"nonneg", "true", "false", "true"},
        {"loss_tol", "0", "1e-16", "123.5"},  {"rel_tol", "0", "1", "0.1"},
        {"project", "inputs", "outputs", "inputs"},
        {"project_scale", "minmax", "none", "zscore"},
    };
    size_t nv = sizeof values / sizeof values[0];
    cr_assert_eq(nv, bl_boost_nkeys, "a row without values to test");
    for (size_t r = 0; r < nv; r++)
        for (int v = 1; v < 4; v++) {
            bl_boost_param p, q;
            bl_boost_param_init(&p);
            bl_boost_param_init(&q);
            set_ok(&p, "project", "inputs"); /* project_scale needs it */
            set_ok(&q, "project", "inputs");
            set_ok(&p, values[r][0], values[r][v]);
            char *text[2] = {written(&p, BL_GROUP_ENGINE), written(&p, BL_GROUP_PROJECTION)};
            for (int g = 0; g < 2; g++)
                for (char *line = strtok(text[g], "\n"); line; line = strtok(NULL, "\n")) {
                    char *eq = strstr(line, " = ");
                    cr_assert_not_null(eq, "%s", line);
                    *eq = 0;
                    set_ok(&q, line, eq + 3);
                }
            free(text[0]);
            free(text[1]);
            cr_assert(!memcmp(&p, &q, sizeof p), "%s = %s does not read back", values[r][0],
                      values[r][v]);
            char *a = written(&p, BL_GROUP_ENGINE), *b = written(&q, BL_GROUP_ENGINE);
            cr_assert_str_eq(a, b);
            free(a);
            free(b);
            a = written(&p, BL_GROUP_PROJECTION);
            b = written(&q, BL_GROUP_PROJECTION);
            cr_assert_str_eq(a, b);
            free(a);
            free(b);
        }
}

Test(param, check_catches_cross_key_rules)
{
    bl_boost_param p;
    bl_boost_param_init(&p);
    cr_assert_null(bl_boost_param_check(&p));
    const char *key = "x";
    set_ok(&p, "project_scale", "none");
    const char *msg = bl_boost_param_check_key(&p, &key);
    cr_assert_not_null(msg);
    cr_assert(strstr(msg, "project_scale applies to projected inputs only"), "%s", msg);
    cr_assert_str_eq(key, "project_scale");
    set_ok(&p, "project", "outputs");
    cr_assert_not_null(bl_boost_param_check(&p));
    set_ok(&p, "project", "inputs");
    cr_assert_null(bl_boost_param_check_key(&p, &key));
    cr_assert_null(key);
}

/* docs/reference/ini.md is written by hand; each engine key has its row
 * under [algorithm NAME], with its default and its choices or bounds. */
Test(param, ini_md_documents_every_key)
{
    FILE *f = fopen(BL_SOURCE_DIR "/docs/reference/ini.md", "r");
    cr_assert_not_null(f);
    char line[8192];
    int in_algo = 0;
    size_t found = 0;
    int seen[64] = {0};
    cr_assert(bl_boost_nkeys <= 64);
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "## ", 3))
            in_algo = !strcmp(line, "## `[algorithm NAME]`\n");
        if (!in_algo)
            continue;
        for (size_t j = 0; j < bl_boost_nkeys; j++) {
            const bl_boost_key *k = &bl_boost_keys[j];
            char head[128];
            snprintf(head, sizeof head, "| `%s` | ", k->spec.name);
            if (strncmp(line, head, strlen(head)))
                continue;
            /* | key | value | default | meaning | */
            char *value = line + strlen(head);
            char *def = strstr(value, " | ");
            cr_assert_not_null(def, "%s", line);
            *def = 0;
            def += 3;
            char want[128];
            if (k->spec.def)
                snprintf(want, sizeof want, "`%s`", k->spec.def);
            else
                snprintf(want, sizeof want, "none");
            cr_assert(!strncmp(def, want, strlen(want)),
                      "ini.md: %s's default should be %s: %s", k->spec.name, want, def);
            if (k->spec.type == BL_PARAM_CHOICE) {
                char choices[256];
                snprintf(choices, sizeof choices, "%s", k->spec.choices);
                for (char *w = strtok(choices, "|"); w; w = strtok(NULL, "|")) {
                    char q[80];
                    snprintf(q, sizeof q, "`%s`", w);
                    cr_assert(strstr(value, q), "ini.md: %s's values lack %s: %s", k->spec.name,
                              q, value);
                }
            } else if (k->spec.type == BL_PARAM_REAL) {
                cr_assert(strstr(value, "real"), "ini.md: %s: %s", k->spec.name, value);
                char b[32];
                snprintf(b, sizeof b, "%g", k->spec.min);
                cr_assert(strstr(value, b), "ini.md: %s's values lack the bound %s: %s",
                          k->spec.name, b, value);
                if (isfinite(k->spec.max)) {
                    snprintf(b, sizeof b, "%g]", k->spec.max);
                    cr_assert(strstr(value, b), "ini.md: %s's values lack the bound %s: %s",
                              k->spec.name, b, value);
                }
            }
            seen[j] = 1;
            found++;
        }
    }
    fclose(f);
    for (size_t j = 0; j < bl_boost_nkeys; j++)
        cr_assert(seen[j], "ini.md documents no engine key %s under [algorithm NAME]",
                  bl_boost_keys[j].spec.name);
    cr_assert_eq(found, bl_boost_nkeys);
}

/* The host's wording of choices; a plugin's stays "one of a|b". */
Test(param, choice_wording)
{
    char buf[64];
    bl_param_choice_list("a|b|c", buf, sizeof buf);
    cr_assert_str_eq(buf, "a, b or c");
    bl_param_choice_list("a|b", buf, sizeof buf);
    cr_assert_str_eq(buf, "a or b");
    bl_param_choice_list("a", buf, sizeof buf);
    cr_assert_str_eq(buf, "a");
    struct bl_param_spec s = {"c", BL_PARAM_CHOICE, "a", 0, 0, "a|b", "doc"};
    union bl_value v;
    bl_error err;
    cr_assert_eq(bl_param_parse(&s, "z", &v, &err), -1);
    cr_assert_str_eq(err.msg, "expected one of a|b, got 'z'");
    cr_assert_eq(bl_param_parse_as(&s, "z", "a or b", &v, &err), -1);
    cr_assert_str_eq(err.msg, "expected a or b, got 'z'");
    cr_assert_eq(bl_param_parse_as(&s, "b", "a or b", &v, &err), 0);
    cr_assert_eq(v.choice, 1);
}

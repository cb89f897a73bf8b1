/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Strict loading of experiment and recipe files (see experiment.h). */
#include "experiment.h"

#include <boostlab/loss.h>
#include <boostlab/solver.h>
#include <boostlab/task.h>
#include <boostlab/weak.h>

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"
#include "../util/rng.h"
#include "ini.h"
#include "recipes.h"
#include "sweep.h"

/* ---- small value parsers -------------------------------------------- */

static int parse_int(const char *v, long lo, long hi, long *out, bl_error *err)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end || errno)
        return bl_errf(err, "expected an integer in [%ld, %ld], got '%s'", lo, hi, v);
    if (x < lo || x > hi)
        return bl_errf(err, "%ld is out of range: expected an integer in [%ld, %ld]", x, lo, hi);
    *out = x;
    return 0;
}

static int parse_real(const char *v, double lo, double hi, double *out, bl_error *err)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !isfinite(x))
        return bl_errf(err, "expected a real number in [%g, %g], got '%s'", lo, hi, v);
    if (x < lo || x > hi)
        return bl_errf(err, "%g is out of range: expected a real number in [%g, %g]", x, lo, hi);
    *out = x;
    return 0;
}

static int valid_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("-_.", *s))
            return 0;
    return 1;
}

static int name_chars(const char *s, size_t n, const char *extra)
{
    if (!n)
        return 0;
    for (size_t j = 0; j < n; j++)
        if (!isalnum((unsigned char)s[j]) && !strchr(extra, s[j]))
            return 0;
    return 1;
}

/* A grid point's name: NAME{key=value,...}, NAME a valid name, keys and
 * values of name characters (values may also hold '+'). */
static int valid_variant(const char *s)
{
    const char *br = strchr(s, '{');
    if (!br)
        return valid_name(s);
    size_t n = strlen(s);
    if (!name_chars(s, (size_t)(br - s), "-_.") || s[n - 1] != '}')
        return 0;
    for (const char *p = br + 1; p < s + n;) {
        size_t item = strcspn(p, ",}");
        const char *eq = memchr(p, '=', item);
        if (!eq || !name_chars(p, (size_t)(eq - p), "-_.") ||
            !name_chars(eq + 1, item - (size_t)(eq - p) - 1, "-_.+"))
            return 0;
        p += item + 1;
    }
    return 1;
}

static char *where(const char *path, int line)
{
    char buf[4200];
    snprintf(buf, sizeof buf, "%s:%d", path, line);
    return bl_strdup(buf);
}

/* NAME of NAME{...}, and the "key=value,..." inside (NULL without braces). */
static char *variant_base(const char *name)
{
    char *b = bl_strdup(name);
    char *br = strchr(b, '{');
    if (br)
        *br = 0;
    return b;
}

static char *variant_sweep(const char *name)
{
    const char *br = strchr(name, '{');
    if (!br)
        return NULL;
    char *s = bl_strdup(br + 1);
    s[strlen(s) - 1] = 0;
    return s;
}

/* ---- algorithms and recipes ----------------------------------------- */

/* The keys an [algorithm] section accepts: these and the engine's
 * (engine/param.c). */
static const char *algo_keys(void)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             "recipe, loss, weak, solver, coding, %s, iterations, loss.*, weak.*, solver.*, "
             "coding.*, cv.*, cv_folds, cv_iterations, skip_data, task, task.*, method, "
             "formulation, C, eps_cp, eps_cg, columns, master, check_mslack, nonneg_views, "
             "projection, projection.*, scheme, kernel, gamma, scale, xgb.*",
             bl_boost_key_names());
    return buf;
}

#define NAME_(id, name, run, model) name,
const char *const bl_method_names[BL_NMETHODS] = {BL_METHOD_ROWS(NAME_)};
#undef NAME_

static const char *const svm_scheme_names[] = {"ovo", "ova", "ecoc", "cs"};
static const char *const svm_kernel_names[] = {"linear", "perceptron", "rbf"};
static const char *const svm_scale_names[] = {"minmax", "zscore", "none"}; /* BL_SCALE_* */
/* StructBoost's choices, each stored as its index (an int flag) */
static const char *const formulation_names[] = {"1-slack", "m-slack"};
static const char *const columns_names[] = {"best", "per-view"};
static const char *const master_names[] = {"primal", "dual", "pairs"}; /* BL_MASTER_* */

/* value's index among n names, or an error listing them. */
static int parse_choice(const char *value, const char *const *names, int n, int *out,
                        bl_error *err)
{
    for (int j = 0; j < n; j++)
        if (!strcmp(value, names[j])) {
            *out = j;
            return 0;
        }
    char buf[200] = "";
    for (int j = 0; j < n; j++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", j ? (j + 1 == n ? " or " : ", ") : "",
                 names[j]);
    return bl_errf(err, "expected %s, got '%s'", buf, value);
}

static bl_paramset *role_params(bl_algo_spec *a, const char *role, int *role_id)
{
    if (!strcmp(role, "loss")) {
        *role_id = BL_ROLE_LOSS;
        return &a->loss;
    }
    if (!strcmp(role, "weak")) {
        *role_id = BL_ROLE_WEAK;
        return &a->weak;
    }
    if (!strcmp(role, "solver")) {
        *role_id = BL_ROLE_SOLVER;
        return &a->solver;
    }
    if (!strcmp(role, "coding")) {
        *role_id = BL_ROLE_CODING;
        return &a->coding;
    }
    if (!strcmp(role, "task")) {
        *role_id = BL_ROLE_TASK;
        return &a->task;
    }
    if (!strcmp(role, "projection")) {
        *role_id = BL_ROLE_PROJECTION;
        return &a->projection;
    }
    return NULL;
}

int bl_algo_set(bl_algo_spec *a, const bl_registry *reg, const char *key, const char *value,
                bl_error *err)
{
    int role;
    bl_paramset *ps;
    const char *dot = strchr(key, '.');
    /* an [algorithm] section takes these before they get here (load_algo) */
    if (!strncmp(key, "cv.", 3) || !strcmp(key, "cv_folds") || !strcmp(key, "cv_iterations"))
        return bl_errf(err, "'%s': cross-validation keys belong in an experiment's [algorithm] "
                       "section, not in a recipe", key);
    if (!strncmp(key, "xgb.", 4)) /* method = xgboost: XGBoost's own keys */
        return bl_xgb_param_set(&a->xgb, key + 4, value, err);
    if (dot) {
        char head[32];
        snprintf(head, sizeof head, "%.*s", (int)(dot - key), key);
        ps = role_params(a, head, &role);
        if (!ps)
            return bl_errf(err, "unknown key '%s' (accepted: %s)", key, algo_keys());
        if (!ps->plugin)
            return bl_errf(err, "'%s' sets a parameter, but no %s plugin is chosen yet", key,
                           head);
        return bl_paramset_set(ps, dot + 1, value, err);
    }
    if (!strcmp(key, "solver") && !strcmp(value, "none")) {
        bl_paramset_free(&a->solver);
        memset(&a->solver, 0, sizeof a->solver);
        a->solver_none = 1;
        return 0;
    }
    if ((ps = role_params(a, key, &role))) {
        if (role == BL_ROLE_SOLVER)
            a->solver_none = 0;
        const struct bl_plugin *p = bl_registry_find(reg, value, role);
        if (!p)
            return bl_errf(err, "no %s plugin named '%s' (available: %s; %s)", key, value,
                           bl_registry_names(reg, role), bl_registry_hint(reg));
        if (ps->plugin == p)
            return 0; /* keep parameters already set by a recipe */
        bl_paramset_free(ps);
        return bl_paramset_init(ps, p, err);
    }
    if (bl_boost_key_find(key))
        return bl_boost_param_set(&a->boost, key, value, err);
    if (!strcmp(key, "iterations")) {
        long it;
        if (parse_int(value, 1, 100000000, &it, err) < 0)
            return -1;
        a->iterations = (int)it;
        return 0;
    }
    if (!strcmp(key, "method")) {
        if (parse_choice(value, bl_method_names, BL_NMETHODS, &a->method, err) < 0)
            return -1;
        if (a->method == BL_METHOD_XGBOOST && !bl_have_xgboost)
            return bl_errf(err, "%s", bl_xgb_missing);
        return 0;
    }
    if (!strcmp(key, "scheme"))
        return parse_choice(value, svm_scheme_names, 4, &a->svm_scheme, err);
    if (!strcmp(key, "kernel"))
        return parse_choice(value, svm_kernel_names, 3, &a->svm_kernel, err);
    if (!strcmp(key, "scale"))
        return parse_choice(value, svm_scale_names, 3, &a->svm_scale, err);
    if (!strcmp(key, "gamma"))
        return parse_real(value, 1e-300, HUGE_VAL, &a->gamma, err);
    if (!strcmp(key, "formulation"))
        return parse_choice(value, formulation_names, 2, &a->mslack, err);
    if (!strcmp(key, "C")) {
        a->C_given = 1;
        return parse_real(value, 1e-300, HUGE_VAL, &a->C, err);
    }
    if (!strcmp(key, "eps_cp"))
        return parse_real(value, 0, HUGE_VAL, &a->eps_cp, err);
    if (!strcmp(key, "eps_cg"))
        return parse_real(value, 0, HUGE_VAL, &a->eps_cg, err);
    if (!strcmp(key, "columns"))
        return parse_choice(value, columns_names, 2, &a->per_view, err);
    if (!strcmp(key, "master"))
        return parse_choice(value, master_names, 3, &a->master_dual, err);
    if (!strcmp(key, "check_mslack")) {
        long n;
        if (parse_int(value, 0, 100000000, &n, err) < 0)
            return -1;
        a->check_mslack = (int)n;
        return 0;
    }
    if (!strcmp(key, "nonneg_views")) {
        free(a->nonneg_views);
        a->nonneg_views = value[0] ? bl_strdup(value) : NULL;
        return 0;
    }
    if (!strcmp(key, "skip_data")) {
        free(a->skip_data);
        a->skip_data = bl_strdup(value);
        return 0;
    }
    if (!strcmp(key, "doc")) {
        free(a->doc);
        a->doc = bl_strdup(value);
        return 0;
    }
    return bl_errf(err, "unknown key '%s' (accepted: %s)", key, algo_keys());
}

/* Keys are applied in three passes so that a section can override a
 * recipe's plugin and then set that plugin's parameters, whatever the
 * order of lines: plugin choices first, then engine values, then params. */
static int apply_keys(bl_algo_spec *a, const bl_registry *reg, const bl_ini *ini,
                      const bl_ini_section *s, int allow_recipe, bl_error *err)
{
    for (int pass = 0; pass < 3; pass++)
        for (size_t j = 0; j < s->n; j++) {
            const char *k = s->e[j].key;
            int role;
            int is_plugin = role_params(a, k, &role) != NULL;
            int is_param = strchr(k, '.') != NULL;
            if (!strcmp(k, "recipe")) {
                if (!allow_recipe && pass == 0)
                    return bl_errf(err, "%s:%d: a recipe cannot name another recipe",
                                   ini->path, s->e[j].line);
                continue;
            }
            if ((pass == 0) != is_plugin || (pass == 2) != is_param)
                continue;
            if (bl_algo_set(a, reg, k, s->e[j].value, err) < 0)
                return bl_errprefix(err, "%s:%d: [%s] %s", ini->path, s->e[j].line, s->name, k);
        }
    return 0;
}

void bl_algo_init(bl_algo_spec *a)
{
    memset(a, 0, sizeof *a);
    bl_boost_param_init(&a->boost);
    a->C = 100.0;
    a->eps_cp = 0.01;
    a->eps_cg = 1e-4;
    a->gamma = 1.0;
}

/* Load the recipe file at path (owned here) as recipe name. */
static int load_recipe(const char *name, char *path, const bl_registry *reg,
                       bl_algo_spec *out, bl_error *err)
{
    bl_ini ini;
    if (bl_ini_read(path, &ini, err) < 0) {
        free(path);
        return -1;
    }
    int rc = 0;
    if (ini.nsec != 1 || strcmp(ini.sec[0].name, "recipe") != 0)
        rc = bl_errf(err, "%s:%d: a recipe file holds exactly one [recipe] section", path,
                     ini.nsec ? ini.sec[ini.nsec > 1].line : 1);
    if (rc == 0)
        rc = apply_keys(out, reg, &ini, &ini.sec[0], 0, err);
    if (rc == 0) {
        out->recipe = bl_strdup(name);
        out->where = where(path, ini.sec[0].line);
    }
    bl_ini_free(&ini);
    free(path);
    if (rc < 0)
        bl_algo_free(out);
    return rc;
}

int bl_recipe_load(const char *name, const char *from, const bl_registry *reg,
                   bl_algo_spec *out, bl_error *err)
{
    bl_algo_init(out);
    if (!valid_name(name))
        return bl_errf(err, "'%s' is not a valid recipe name", name);
    char *path = bl_recipe_find(name, from);
    if (!path)
        return bl_recipe_not_found(name, from, err);
    return load_recipe(name, path, reg, out, err);
}

int bl_recipe_load_file(const char *path, const bl_registry *reg, bl_algo_spec *out,
                        bl_error *err)
{
    bl_algo_init(out);
    if (!bl_file_exists(path))
        return bl_errf(err, "%s: no such recipe file", path);
    const char *base = strrchr(path, '/');
    char *name = bl_strdup(base ? base + 1 : path);
    size_t n = strlen(name);
    if (n > 4 && !strcmp(name + n - 4, ".ini"))
        name[n - 4] = 0;
    int rc = valid_name(name) ? load_recipe(name, bl_strdup(path), reg, out, err)
                              : bl_errf(err, "%s: '%s' is not a valid recipe name", path, name);
    free(name);
    return rc;
}

/* A task's text parameters that name a file or folder relative to the
 * experiment file (a taxonomy, the crf task's prepared folder) become
 * absolute paths, as data files do. */
static int task_paths(bl_algo_spec *a, const bl_ini *ini, bl_error *err)
{
    const struct bl_plugin *p = a->task.plugin;
    for (size_t j = 0; p && j < p->nparams; j++) {
        const char *v = a->task.text[j];
        if (p->params[j].type != BL_PARAM_STRING || !v[0] || v[0] == '/')
            continue;
        char *dir = bl_path_dir(ini->path);
        char *path = bl_path_join(dir, v);
        free(dir);
        char *abs = bl_file_exists(path) || bl_dir_exists(path) ? realpath(path, NULL) : NULL;
        free(path);
        int rc = abs ? bl_paramset_set(&a->task, p->params[j].name, abs, err) : 0;
        free(abs);
        if (rc < 0)
            return -1;
    }
    return 0;
}


/* The Hessian a second-order learner needs; the margins of
 * BL_NEEDS_MARGINS are given when available and never refuse. */
static unsigned hessian_needs(const struct bl_plugin *weak)
{
    const struct bl_weak_ops *wo = weak ? weak->ops : NULL;
    return wo ? wo->needs & (BL_NEEDS_HESSIAN | BL_NEEDS_OFFDIAG) : 0;
}
/* What a structured method needs: a task; StructBoost also a base learner
 * without second-order needs; the boosting engine's plugins have no
 * meaning there. */
static int check_structured(const bl_algo_spec *a, const bl_ini *ini, const bl_ini_section *s,
                            bl_error *err)
{
    const char *m = bl_method_names[a->method];
    if (!a->task.plugin)
        return bl_errf(err, "%s:%d: [%s] method %s needs a structured task: set 'task = NAME'",
                       ini->path, s->line, s->name, m);
    const char *extra = a->loss.plugin ? "loss" : a->solver.plugin ? "solver"
                      : a->coding.plugin ? "coding" : a->projection.plugin ? "projection" : NULL;
    if (extra)
        return bl_errf(err, "%s:%d: [%s] method %s does not use a %s plugin (remove '%s = ...')",
                       ini->path, s->line, s->name, m, extra, extra);
    if (a->method == BL_METHOD_STRUCTBOOST) {
        if (!a->weak.plugin)
            return bl_errf(err, "%s:%d: [%s] method structboost needs a base weak learner: set "
                           "'weak = NAME' (e.g. stump)", ini->path, s->line, s->name);
        if (hessian_needs(a->weak.plugin))
            return bl_errf(err, "%s:%d: [%s] weak learner %s needs a loss's Hessian, which "
                           "StructBoost's oracle does not give", ini->path, s->line, s->name,
                           a->weak.plugin->name);
    } else if (a->weak.plugin) {
        return bl_errf(err, "%s:%d: [%s] method %s does not use a weak learner (remove "
                       "'weak = ...')", ini->path, s->line, s->name, m);
    }
    if (a->method == BL_METHOD_OVA_SVM &&
        !((const struct bl_task_ops *)a->task.plugin->ops)->label_is_class)
        return bl_errf(err, "%s:%d: [%s] method ova-svm needs a task whose labels are classes; "
                       "task %s's are not", ini->path, s->line, s->name, a->task.plugin->name);
    return 0;
}

/* Line of key in section s, else the section's own line. */
static int key_line(const bl_ini_section *s, const char *key)
{
    for (size_t j = 0; j < s->n; j++)
        if (!strcmp(s->e[j].key, key))
            return s->e[j].line;
    return s->line;
}

int bl_algo_check_projection(const bl_algo_spec *a, const char **key, bl_error *err)
{
    const char *msg = bl_boost_param_check_key(&a->boost, key);
    if (msg)
        return bl_errf(err, "%s", msg);
    if (!a->projection.plugin && !a->boost.project)
        return 0; /* nothing projected */
    if (!a->projection.plugin)
        return bl_errf(err, "project = %s needs a projection plugin: set 'projection = NAME' "
                       "(e.g. gaussian)", a->boost.project == BL_PROJECT_OUTPUTS ? "outputs" : "inputs");
    if (!a->boost.project)
        return bl_errf(err, "projection %s: say what it projects: 'project = inputs' "
                       "(RBoost-rank) or 'project = outputs' (RBoost-proj)",
                       a->projection.plugin->name);
    if (a->coding.plugin)
        return bl_errf(err, "a projection replaces the output coding (coding %s): use one or the "
                       "other", a->coding.plugin->name);
    if (hessian_needs(a->weak.plugin))
        return bl_errf(err, "weak learner %s needs the loss's Hessian, which the engine does not "
                       "give with a projection", a->weak.plugin->name);
    const struct bl_solver_ops *so = a->solver.plugin ? a->solver.plugin->ops : NULL;
    if (a->boost.project == BL_PROJECT_OUTPUTS && (!so || so->scope != BL_SOLVE_ALL))
        return bl_errf(err, "project = outputs re-solves the projected weights w every "
                       "iteration: it needs a totally corrective solver (e.g. lbfgsb-tc), not %s",
                       so ? a->solver.plugin->name : "solver = none");
    return 0;
}

/* The same, as an error at the section's line (the offending key's). */
static int check_projection(const bl_algo_spec *a, const bl_ini *ini, const bl_ini_section *s,
                            bl_error *err)
{
    const char *key;
    if (bl_algo_check_projection(a, &key, err) == 0)
        return 0;
    if (!err)
        return -1;
    char msg[sizeof err->msg];
    memcpy(msg, err->msg, sizeof msg);
    return bl_errf(err, "%s:%d: [%s] %s", ini->path, key ? key_line(s, key) : s->line, s->name,
                   msg);
}

/* Keys that mean something only for method = svm, and the line of the
 * first one set in section s (0 when none is). */
static int svm_key_line(const bl_ini_section *s, const char **key)
{
    static const char *const keys[] = {"scheme", "kernel", "gamma", "scale"};
    for (size_t j = 0; j < s->n; j++)
        for (size_t q = 0; q < 4; q++)
            if (!strcmp(s->e[j].key, keys[q])) {
                *key = keys[q];
                return s->e[j].line;
            }
    return 0;
}


/* method = svm (baselines/mcsvm.h): plain multi-class data, no task and
 * no boosting plugins; a coding only for ECOC, and only a fixed code the
 * run can ask for once. */
static int check_svm(bl_algo_spec *a, const bl_registry *reg, const bl_ini *ini,
                     const bl_ini_section *s, bl_error *err)
{
    const char *extra = a->task.plugin ? "task" : a->loss.plugin ? "loss"
                      : a->weak.plugin ? "weak" : a->solver.plugin ? "solver"
                      : a->projection.plugin ? "projection" : NULL;
    if (extra)
        return bl_errf(err, "%s:%d: [%s] method svm trains SVMs on the data's classes and uses no "
                       "%s plugin (remove '%s = ...')", ini->path, key_line(s, extra), s->name,
                       extra, extra);
    if (a->coding.plugin && a->svm_scheme != BL_SVM_ECOC)
        return bl_errf(err, "%s:%d: [%s] coding %s: only scheme = ecoc takes a code (scheme %s "
                       "has its own)", ini->path, key_line(s, "coding"), s->name,
                       a->coding.plugin->name, svm_scheme_names[a->svm_scheme]);
    if (a->coding.plugin && strcmp(a->coding.plugin->name, "exhaustive") &&
        strcmp(a->coding.plugin->name, "dense-ecoc"))
        return bl_errf(err, "%s:%d: [%s] coding %s: ECOC takes a fixed code chosen before the "
                       "data, exhaustive or dense-ecoc (or none: exhaustive for k <= 7, else "
                       "dense-ecoc)", ini->path, key_line(s, "coding"), s->name,
                       a->coding.plugin->name);
    if (a->svm_scheme == BL_SVM_CS && a->svm_kernel == BL_KERNEL_PERCEPTRON)
        return bl_errf(err, "%s:%d: [%s] scheme cs with kernel perceptron: the perceptron kernel "
                       "-|x-x'| is only conditionally positive definite, which suffices for a "
                       "binary SVM's equality constraint but not for the Crammer-Singer dual "
                       "(no bias, so no such constraint); the paper used rbf for the "
                       "multiclass SVM (hingeboost-oc spec §3.8): set kernel = rbf or linear",
                       ini->path, key_line(s, "kernel"), s->name);
    if (a->svm_kernel != BL_KERNEL_RBF && key_line(s, "gamma") != s->line)
        return bl_errf(err, "%s:%d: [%s] gamma is the rbf kernel's width; kernel %s has none",
                       ini->path, key_line(s, "gamma"), s->name, svm_kernel_names[a->svm_kernel]);
    if (!a->C_given)
        a->C = 1.0;
    if (a->svm_scheme == BL_SVM_ECOC && !a->coding.plugin) {
        a->svm_exhaustive = bl_registry_find(reg, "exhaustive", BL_ROLE_CODING);
        a->svm_dense = bl_registry_find(reg, "dense-ecoc", BL_ROLE_CODING);
        if (!a->svm_exhaustive || !a->svm_dense)
            return bl_errf(err, "%s:%d: [%s] scheme ecoc without 'coding' picks the exhaustive or "
                           "the dense-ecoc plugin by k, and %s is not loaded", ini->path, s->line,
                           s->name, a->svm_exhaustive ? "dense-ecoc" : "exhaustive");
    }
    return 0;
}

/* Keys of the boosting engine, the structured methods or method svm: the
 * line of the first in s, or 0 when s sets none. */
static int foreign_key_line(const bl_ini_section *s, const char **key)
{
    static const char *const keys[] = {"C", "eps_cp", "eps_cg", "columns", "nonneg_views",
                                       "scheme", "kernel", "gamma", "scale"};
    for (size_t j = 0; j < s->n; j++) {
        int hit = bl_boost_key_find(s->e[j].key) != NULL;
        for (size_t q = 0; q < sizeof keys / sizeof *keys; q++)
            hit |= !strcmp(s->e[j].key, keys[q]);
        if (hit) {
            *key = s->e[j].key;
            return s->e[j].line;
        }
    }
    return 0;
}

/* method = xgboost (baselines/xgboost.h): XGBoost's trees on the data's
 * classes, so no plugin and no key of the other methods; the xgb.* keys
 * together as XGBoost takes them, tried before anything runs. */
static int check_xgboost(const bl_algo_spec *a, const bl_ini *ini, const bl_ini_section *s,
                         bl_error *err)
{
    const char *extra = a->task.plugin ? "task" : a->loss.plugin ? "loss"
                      : a->weak.plugin ? "weak" : a->solver.plugin || a->solver_none ? "solver"
                      : a->coding.plugin ? "coding" : a->projection.plugin ? "projection" : NULL;
    if (extra)
        return bl_errf(err, "%s:%d: [%s] method xgboost trains XGBoost's trees and uses no %s "
                       "plugin (remove '%s = ...')", ini->path, key_line(s, extra), s->name,
                       extra, extra);
    const char *key;
    int line = foreign_key_line(s, &key);
    if (line)
        return bl_errf(err, "%s:%d: [%s] %s is not a key of method xgboost, which takes "
                       "XGBoost's own as xgb.NAME (e.g. xgb.eta, its shrinkage)", ini->path,
                       line, s->name, key);
    size_t bad;
    bl_error why;
    if (bl_xgb_params_try(&a->xgb, &bad, &why) == 0)
        return 0;
    if (bad == a->xgb.n)
        return bl_errf(err, "%s:%d: [%s] the xgb.* keys: %s", ini->path, s->line, s->name,
                       why.msg);
    char k[64];
    snprintf(k, sizeof k, "xgb.%s", a->xgb.name[bad]);
    line = key_line(s, k);
    return bl_errf(err, "%s:%d: [%s] %s = %s%s%s: %s", ini->path, line, s->name, k,
                   a->xgb.value[bad], line == s->line && a->recipe ? ", set by recipe " : "",
                   line == s->line && a->recipe ? a->recipe : "", why.msg);
}

static int load_plain_algo(bl_algo_spec *a, const bl_registry *reg, const bl_ini *ini,
                           const bl_ini_section *s, const char *name, bl_error *err)
{
    bl_algo_init(a);
    for (size_t j = 0; j < s->n; j++)
        if (!strcmp(s->e[j].key, "recipe")) {
            char *dir = bl_path_dir(ini->path);
            int rc = bl_recipe_load(s->e[j].value, dir, reg, a, err);
            free(dir);
            if (rc < 0)
                return bl_errprefix(err, "%s:%d: [%s] recipe", ini->path, s->e[j].line, s->name);
        }
    if (apply_keys(a, reg, ini, s, 1, err) < 0)
        return -1;
    if (task_paths(a, ini, err) < 0)
        return bl_errprefix(err, "%s:%d: [%s]", ini->path, s->line, s->name);
    free(a->name);
    a->name = bl_strdup(name);
    free(a->where);
    a->where = where(ini->path, s->line);
    /* StructBoost's master options, refused where there is no such master */
    const char *sbkey = a->mslack ? "formulation" : a->master_dual ? "master"
                        : a->check_mslack ? "check_mslack" : NULL;
    char sbval[32];
    snprintf(sbval, sizeof sbval, "%s", a->mslack ? "m-slack" : a->master_dual ?
             master_names[a->master_dual] : "");
    if (!a->mslack && !a->master_dual)
        snprintf(sbval, sizeof sbval, "%d", a->check_mslack);
    if (sbkey && a->method != BL_METHOD_STRUCTBOOST)
        return bl_errf(err, "%s:%d: [%s] %s = %s is an option of StructBoost's master LP; "
                       "method %s has none", ini->path, key_line(s, sbkey), s->name, sbkey,
                       sbval, bl_method_names[a->method]);
    if (a->mslack && a->master_dual == BL_MASTER_PAIRS)
        return bl_errf(err, "%s:%d: [%s] master = pairs is a 1-slack master (the m-slack LP "
                       "holds every row from the start): drop one of formulation = m-slack "
                       "and master = pairs", ini->path, key_line(s, "master"), s->name);
    if (a->mslack && a->check_mslack)
        return bl_errf(err, "%s:%d: [%s] check_mslack compares a 1-slack master with the "
                       "m-slack LP; this algorithm is the m-slack LP", ini->path,
                       key_line(s, "check_mslack"), s->name);
    if (a->xgb.n && a->method != BL_METHOD_XGBOOST) {
        char k[64];
        snprintf(k, sizeof k, "xgb.%s", a->xgb.name[0]);
        return bl_errf(err, "%s:%d: [%s] %s is a key of method xgboost (this algorithm's method "
                       "is %s)", ini->path, key_line(s, k), s->name, k,
                       bl_method_names[a->method]);
    }
    if (a->method == BL_METHOD_XGBOOST)
        return check_xgboost(a, ini, s, err);
    if (a->method == BL_METHOD_SVM)
        return check_svm(a, reg, ini, s, err);
    const char *svmkey = NULL;
    int svmline = svm_key_line(s, &svmkey);
    if (svmline)
        return bl_errf(err, "%s:%d: [%s] %s is a key of method svm (this algorithm's method is "
                       "%s)", ini->path, svmline, s->name, svmkey, bl_method_names[a->method]);
    if (a->method != BL_METHOD_BOOST)
        return check_structured(a, ini, s, err);
    if (a->task.plugin && !((const struct bl_task_ops *)a->task.plugin->ops)->label_is_class)
        return bl_errf(err, "%s:%d: [%s] task %s does not label examples by class, so it cannot "
                       "score this boosting algorithm; set method = structboost or ssvm",
                       ini->path, s->line, s->name, a->task.plugin->name);
    const char *miss = !a->loss.plugin ? "loss" : !a->weak.plugin ? "weak"
                     : !a->solver.plugin && !a->solver_none ? "solver" : NULL;
    if (miss)
        return bl_errf(err, "%s:%d: [%s] has no %s plugin: set '%s = NAME' or 'recipe = NAME'",
                       ini->path, s->line, s->name, miss, miss);
    const struct bl_solver_ops *so = a->solver.plugin ? a->solver.plugin->ops : NULL;
    if (so && so->scope == BL_SOLVE_ALL && a->boost.shrinkage != 1.0)
        return bl_errf(err, "%s:%d: [%s] solver %s is totally corrective; shrinkage must be 1",
                       ini->path, s->line, s->name, a->solver.plugin->name);
    /* a second-order learner needs the loss's Hessian, in class space */
    if (hessian_needs(a->weak.plugin)) {
        const struct bl_loss_ops *lo = a->loss.plugin->ops;
        if (a->coding.plugin)
            return bl_errf(err, "%s:%d: [%s] weak learner %s needs the loss's Hessian, which the "
                           "engine gives only without an output coding (coding %s)", ini->path,
                           s->line, s->name, a->weak.plugin->name, a->coding.plugin->name);
        if (!lo->hessian)
            return bl_errf(err, "%s:%d: [%s] weak learner %s needs the loss's Hessian, and loss "
                           "%s has none (softmax and klogit have it)", ini->path, s->line,
                           s->name, a->weak.plugin->name, a->loss.plugin->name);
    }
    return check_projection(a, ini, s, err);
}

/* ---- hyper-parameters by cross-validation ------------------------------ */

static void section_add(bl_ini_section *s, const char *key, const char *value, int line)
{
    for (size_t j = 0; j < s->n; j++)
        if (!strcmp(s->e[j].key, key)) {
            free(s->e[j].value);
            s->e[j].value = bl_strdup(value);
            return;
        }
    s->e = bl_xrealloc(s->e, (s->n + 1) * sizeof *s->e);
    s->e[s->n].key = bl_strdup(key);
    s->e[s->n].value = bl_strdup(value);
    s->e[s->n].line = line;
    s->n++;
}

static void section_free(bl_ini_section *s)
{
    for (size_t j = 0; j < s->n; j++) {
        free(s->e[j].key);
        free(s->e[j].value);
    }
    free(s->e);
    free(s->name);
    memset(s, 0, sizeof *s);
}

/* An [algorithm] section: the algorithm itself from every key but the
 * cross-validation ones; then, when cv.KEY = {...} lines are present, one
 * candidate algorithm per point of their grid (the section with KEY set
 * to that value), which each run chooses from by k-fold CV on its
 * training part (exec/job.c). */
static int load_algo(bl_algo_spec *a, const bl_registry *reg, const bl_ini *ini,
                     const bl_ini_section *s, const char *name, bl_error *err)
{
    bl_algo_init(a);
    bl_ini_section base = {bl_strdup(s->name), s->line, NULL, 0};
    bl_ini_section grid = {bl_strdup(s->name), s->line, NULL, 0};
    int folds = 0, cv_iters = 0, folds_line = 0, iters_line = 0, rc = 0;
    char *lines = NULL;
    size_t llen = 0;
    FILE *lf = open_memstream(&lines, &llen);
    for (size_t j = 0; j < s->n && rc == 0; j++) {
        const bl_ini_entry *e = &s->e[j];
        long n;
        bl_error e2;
        if (!strncmp(e->key, "cv.", 3)) {
            if (!e->key[3] || !strncmp(e->key + 3, "cv", 2) || !strcmp(e->key + 3, "recipe"))
                rc = bl_errf(err, "%s:%d: [%s] %s: expected cv.KEY with KEY an algorithm key "
                             "other than recipe", ini->path, e->line, s->name, e->key);
            else if (e->value[0] != '{')
                rc = bl_errf(err, "%s:%d: [%s] %s: expected the candidates in braces, "
                             "e.g. {1e-6, 1e-5, 1e-4}", ini->path, e->line, s->name, e->key);
            else {
                section_add(&grid, e->key + 3, e->value, e->line);
                fprintf(lf, "%s = %s\n", e->key, e->value);
            }
        } else if (!strcmp(e->key, "cv_folds")) {
            folds_line = e->line;
            /* 1 = one held-out third of the training part (a validation set) */
            if (parse_int(e->value, 1, 100, &n, &e2) < 0)
                rc = bl_errf(err, "%s:%d: [%s] cv_folds: %s", ini->path, e->line, s->name, e2.msg);
            folds = (int)n;
        } else if (!strcmp(e->key, "cv_iterations")) {
            iters_line = e->line;
            if (parse_int(e->value, 1, 100000000, &n, &e2) < 0)
                rc = bl_errf(err, "%s:%d: [%s] cv_iterations: %s", ini->path, e->line, s->name,
                             e2.msg);
            cv_iters = (int)n;
        } else {
            section_add(&base, e->key, e->value, e->line);
        }
    }
    fclose(lf);
    if (rc == 0 && !grid.n && (folds_line || iters_line))
        rc = bl_errf(err, "%s:%d: [%s] %s applies only with cv.KEY = {...} candidates",
                     ini->path, folds_line ? folds_line : iters_line, s->name,
                     folds_line ? "cv_folds" : "cv_iterations");
    if (rc == 0)
        rc = load_plain_algo(a, reg, ini, &base, name, err);
    if (rc == 0 && grid.n) {
        bl_ini_section *var;
        char **labels;
        size_t nvar;
        rc = bl_sweep_expand(ini->path, &grid, &var, &labels, &nvar, err);
        if (rc == 0) {
            a->cv = bl_xcalloc(nvar, sizeof *a->cv);
            a->cv_label = bl_xcalloc(nvar, sizeof *a->cv_label);
            for (size_t v = 0; v < nvar && rc == 0; v++) {
                bl_ini_section cand = {bl_strdup(s->name), s->line, NULL, 0};
                for (size_t j = 0; j < base.n; j++)
                    section_add(&cand, base.e[j].key, base.e[j].value, base.e[j].line);
                for (size_t j = 0; j < var[v].n; j++)
                    section_add(&cand, var[v].e[j].key, var[v].e[j].value, var[v].e[j].line);
                rc = load_plain_algo(&a->cv[v], reg, ini, &cand, name, err);
                if (rc < 0)
                    bl_errprefix(err, "cross-validation candidate %s", labels[v]);
                a->cv_label[v] = bl_strdup(labels[v]);
                a->ncv = v + 1;
                section_free(&cand);
            }
            bl_sweep_free(var, labels, nvar);
        }
        a->cv_lines = lines;
        lines = NULL;
        a->cv_folds = folds ? folds : 5;
        a->cv_iterations = cv_iters;
    }
    free(lines);
    section_free(&base);
    section_free(&grid);
    return rc;
}

/* ---- data sets ------------------------------------------------------- */

static const char *const data_keys = "file, format, label, classes, labels, test_file, "
                                     "test_labels, split, test_ratio, first, per_class, folds, drop, "
                                     "keep_classes, class_pick, repeats, storage, features, image, "
                                     "deskew, hog, hog_orientations, pca, pca_variance";

static int data_path(const bl_ini *ini, const bl_ini_entry *e, char **out, bl_error *err)
{
    char *dir = bl_path_dir(ini->path);
    char *p = bl_path_join(dir, e->value);
    free(dir);
    if (!bl_file_exists(p)) {
        bl_errf(err, "%s:%d: %s: file '%s' not found", ini->path, e->line, e->key, p);
        free(p);
        return -1;
    }
    /* absolute, so the resolved experiment.ini reads the same files from
     * any directory (and a data set's hash does not depend on the cwd) */
    char *abs = realpath(p, NULL);
    if (abs) {
        free(p);
        p = abs;
    }
    free(*out);
    *out = p;
    return 0;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

int bl_format_of(const char *path)
{
    if (ends_with(path, ".csv") || ends_with(path, ".csv.gz"))
        return BL_FMT_CSV;
    if (ends_with(path, ".libsvm") || ends_with(path, ".svm") || ends_with(path, ".libsvm.gz") ||
        ends_with(path, ".svm.gz"))
        return BL_FMT_LIBSVM;
    return 0;
}

static int load_data(bl_data_spec *d, const bl_ini *ini, const bl_ini_section *s,
                     const char *name, bl_error *err)
{
    memset(d, 0, sizeof *d);
    d->name = bl_strdup(name);
    d->where = where(ini->path, s->line);
    d->split.test_ratio = 0.25;
    int split_line = 0, have_ratio = 0, have_first = 0, have_pc = 0, have_folds = 0;
    const char *split = NULL, *format = NULL;
    for (size_t j = 0; j < s->n; j++) {
        const bl_ini_entry *e = &s->e[j];
        const char *k = e->key;
        bl_error e2;
        int rc = 0;
        long n;
        if (!strcmp(k, "file")) rc = data_path(ini, e, &d->file, err);
        else if (!strcmp(k, "test_file")) rc = data_path(ini, e, &d->test_file, err);
        else if (!strcmp(k, "labels")) rc = data_path(ini, e, &d->labels, err);
        else if (!strcmp(k, "test_labels")) rc = data_path(ini, e, &d->test_labels, err);
        else if (!strcmp(k, "classes")) rc = data_path(ini, e, &d->classes, err);
        else if (!strcmp(k, "label")) d->label = bl_strdup(e->value);
        else if (!strcmp(k, "drop")) {
            d->drop = bl_strdup(e->value);
            d->drop_where = where(ini->path, e->line);
        }
        else if (bl_transform_key(k)) {
            char *at = where(ini->path, e->line);
            rc = bl_transform_parse(&d->tf, k, e->value, at, err);
            free(at);
        }
        else if (!strcmp(k, "format")) format = e->value;
        else if (!strcmp(k, "split")) { split = e->value; split_line = e->line; }
        else if (!strcmp(k, "test_ratio")) {
            have_ratio = e->line;
            if (parse_real(e->value, 1e-9, 1 - 1e-9, &d->split.test_ratio, &e2) < 0)
                rc = bl_errf(err, "%s:%d: [%s] test_ratio: %s", ini->path, e->line, s->name, e2.msg);
        } else if (!strcmp(k, "first")) {
            have_first = e->line;
            if (parse_int(e->value, 1, 2000000000, &n, &e2) < 0)
                rc = bl_errf(err, "%s:%d: [%s] first: %s", ini->path, e->line, s->name, e2.msg);
            d->split.first = (size_t)n;
        } else if (!strcmp(k, "per_class")) {
            have_pc = e->line;
            if (parse_int(e->value, 1, 2000000000, &n, &e2) < 0)
                rc = bl_errf(err, "%s:%d: [%s] per_class: %s", ini->path, e->line, s->name, e2.msg);
            d->split.per_class = (size_t)n;
        } else if (!strcmp(k, "folds")) {
            have_folds = e->line;
            if (parse_int(e->value, 2, 1000000, &n, &e2) < 0)
                rc = bl_errf(err, "%s:%d: [%s] folds: %s", ini->path, e->line, s->name, e2.msg);
            d->split.folds = (size_t)n;
        } else if (!strcmp(k, "keep_classes")) {
            if (parse_int(e->value, 2, 1000000, &n, &e2) < 0)
                rc = bl_errf(err, "%s:%d: [%s] keep_classes: %s", ini->path, e->line, s->name,
                             e2.msg);
            d->keep_classes = (size_t)n;
        } else if (!strcmp(k, "repeats")) {
            /* fewer (or more) repeats for one expensive data set */
            if (parse_int(e->value, 1, 100000, &n, &e2) < 0)
                rc = bl_errf(err, "%s:%d: [%s] repeats: %s", ini->path, e->line, s->name, e2.msg);
            d->repeats = (int)n;
        } else if (!strcmp(k, "storage")) {
            if ((d->storage = bl_storage_parse(e->value)) < 0)
                rc = bl_errf(err, "%s:%d: [%s] storage: expected auto|dense|sparse, got '%s'",
                             ini->path, e->line, s->name, e->value);
        } else if (!strcmp(k, "features")) {
            if (parse_int(e->value, 1, 10000000, &n, &e2) < 0)
                rc = bl_errf(err, "%s:%d: [%s] features: %s", ini->path, e->line, s->name,
                             e2.msg);
            d->features = (size_t)n;
        } else if (!strcmp(k, "class_pick")) {
            if (!strcmp(e->value, "first"))
                d->class_pick = BL_PICK_FIRST;
            else if (!strcmp(e->value, "random"))
                d->class_pick = BL_PICK_RANDOM;
            else
                rc = bl_errf(err, "%s:%d: [%s] class_pick: expected first|random, got '%s'",
                             ini->path, e->line, s->name, e->value);
        } else
            rc = bl_errf(err, "%s:%d: [%s] unknown key '%s' (accepted: %s)", ini->path, e->line,
                         s->name, k, data_keys);
        if (rc < 0)
            return -1;
    }
    if (!d->file)
        return bl_errf(err, "%s:%d: [%s] needs 'file = PATH'", ini->path, s->line, s->name);
    if (format) {
        if (!strcmp(format, "csv")) d->format = BL_FMT_CSV;
        else if (!strcmp(format, "libsvm")) d->format = BL_FMT_LIBSVM;
        else if (!strcmp(format, "idx")) d->format = BL_FMT_IDX;
        else
            return bl_errf(err, "%s: [%s] format: expected one of csv|libsvm|idx, got '%s'",
                           d->where, s->name, format);
    } else if (!(d->format = bl_format_of(d->file))) {
        return bl_errf(err, "%s: [%s] cannot tell the format of '%s' from its name: set "
                       "'format = csv|libsvm|idx'", d->where, s->name, d->file);
    }
    if (d->format == BL_FMT_IDX && (!d->labels || (d->test_file && !d->test_labels)))
        return bl_errf(err, "%s: [%s] IDX data needs 'labels = PATH' (and 'test_labels' with "
                       "test_file)", d->where, s->name);
    if (d->format != BL_FMT_IDX && (d->labels || d->test_labels))
        return bl_errf(err, "%s: [%s] 'labels'/'test_labels' only apply to format = idx",
                       d->where, s->name);
    if (d->features && d->format != BL_FMT_LIBSVM)
        return bl_errf(err, "%s: [%s] 'features' only applies to LIBSVM (CSV and IDX files "
                       "name or count their features)", d->where, s->name);
    if (d->label && d->format != BL_FMT_CSV)
        return bl_errf(err, "%s: [%s] 'label' (the label column) only applies to CSV",
                       d->where, s->name);
    if (!split)
        d->split.kind = d->test_file ? BL_SPLIT_GIVEN : BL_SPLIT_RATIO;
    else if (!strcmp(split, "given")) d->split.kind = BL_SPLIT_GIVEN;
    else if (!strcmp(split, "first")) d->split.kind = BL_SPLIT_FIRST;
    else if (!strcmp(split, "ratio")) d->split.kind = BL_SPLIT_RATIO;
    else if (!strcmp(split, "per-class")) d->split.kind = BL_SPLIT_PER_CLASS;
    else if (!strcmp(split, "kfold")) d->split.kind = BL_SPLIT_KFOLD;
    else
        return bl_errf(err, "%s:%d: [%s] split: expected one of given|first|ratio|per-class|kfold, "
                       "got '%s'", ini->path, split_line, s->name, split);
    bl_split_kind k = d->split.kind;
    if (k == BL_SPLIT_GIVEN && !d->test_file)
        return bl_errf(err, "%s: [%s] split = given needs 'test_file = PATH'", d->where, s->name);
    /* first / per-class with a test file: the drawn rows train, the test
     * file tests (the papers' few-examples-per-class protocols) */
    if (d->test_file && k != BL_SPLIT_GIVEN && k != BL_SPLIT_FIRST && k != BL_SPLIT_PER_CLASS)
        return bl_errf(err, "%s: [%s] a test_file is only used with split = given, first or "
                       "per-class", d->where, s->name);
    if (d->test_file && have_ratio)
        return bl_errf(err, "%s:%d: [%s] 'test_ratio' does not apply with a test_file (the test "
                       "file is the test part)", ini->path, have_ratio, s->name);
    if (k == BL_SPLIT_FIRST && !have_first)
        return bl_errf(err, "%s: [%s] split = first needs 'first = N'", d->where, s->name);
    if (k == BL_SPLIT_PER_CLASS && !have_pc)
        return bl_errf(err, "%s: [%s] split = per-class needs 'per_class = N'", d->where, s->name);
    if (have_first && k != BL_SPLIT_FIRST)
        return bl_errf(err, "%s:%d: [%s] 'first' only applies to split = first", ini->path,
                       have_first, s->name);
    if (have_pc && k != BL_SPLIT_PER_CLASS)
        return bl_errf(err, "%s:%d: [%s] 'per_class' only applies to split = per-class",
                       ini->path, have_pc, s->name);
    if (have_folds && k != BL_SPLIT_KFOLD)
        return bl_errf(err, "%s:%d: [%s] 'folds' only applies to split = kfold", ini->path,
                       have_folds, s->name);
    if (k == BL_SPLIT_KFOLD && !have_folds)
        d->split.folds = 10;
    if (have_ratio && (k == BL_SPLIT_GIVEN || k == BL_SPLIT_FIRST || k == BL_SPLIT_KFOLD))
        return bl_errf(err, "%s:%d: [%s] 'test_ratio' only applies to split = ratio|per-class",
                       ini->path, have_ratio, s->name);
    return 0;
}

/* ---- the experiment section ------------------------------------------ */

static const char *const exp_keys =
    "name, doc, seed, repeats, iterations, output, max_bins, threads, paper, paper_table, "
    "plugin_path";

/* plugin_path: colon-separated folders or .so files, relative to the INI's
 * folder, made absolute (the loader takes only absolute paths, and the
 * resolved INI in the output folder must find them from anywhere). */
static int resolve_plugin_path(const char *ini_path, const char *value, char **out,
                               bl_error *err)
{
    char *dir = bl_path_dir(ini_path), *copy = bl_strdup(value), *save = NULL, *res = NULL;
    int rc = 0;
    for (char *tok = strtok_r(copy, ":", &save); tok && rc == 0;
         tok = strtok_r(NULL, ":", &save)) {
        char *p = tok[0] == '/' ? bl_strdup(tok) : bl_path_join(dir, tok);
        char *abs = realpath(p, NULL);
        if (!abs)
            rc = bl_errf(err, "'%s' is neither a folder nor a file (looked for %s)", tok, p);
        else if (strchr(abs, ':'))
            rc = bl_errf(err, "'%s' has a ':' in its path, which separates the entries", abs);
        else {
            char *t = bl_strfmt("%s%s%s", res ? res : "", res ? ":" : "", abs);
            free(res);
            res = t;
        }
        free(abs);
        free(p);
    }
    if (rc == 0 && !res)
        rc = bl_errf(err, "expected folders or .so files, separated by ':'");
    free(copy);
    free(dir);
    if (rc < 0)
        free(res);
    else
        *out = res;
    return rc;
}

static int load_exp_section(bl_experiment *ex, const bl_ini *ini, const bl_ini_section *s,
                            bl_error *err)
{
    for (size_t j = 0; j < s->n; j++) {
        const bl_ini_entry *e = &s->e[j];
        const char *k = e->key;
        bl_error e2;
        long n;
        int rc = 0;
        if (!strcmp(k, "name")) {
            if (!valid_name(e->value))
                rc = bl_errf(&e2, "expected letters, digits, '-', '_' or '.', got '%s'", e->value);
            else {
                free(ex->name);
                ex->name = bl_strdup(e->value);
            }
        } else if (!strcmp(k, "doc")) {
            ex->doc = bl_strdup(e->value);
        } else if (!strcmp(k, "paper")) {
            char *dir = bl_path_dir(ini->path);
            char *pp = bl_path_join(dir, e->value);
            free(dir);
            char *abs = bl_file_exists(pp) ? realpath(pp, NULL) : NULL;
            if (abs) {
                free(pp);
                pp = abs;
            }
            if (!bl_file_exists(pp)) {
                rc = bl_errf(&e2, "file '%s' not found", pp);
                free(pp);
            } else {
                free(ex->paper);
                ex->paper = pp;
            }
        } else if (!strcmp(k, "plugin_path")) {
            char *pp = NULL;
            if ((rc = resolve_plugin_path(ini->path, e->value, &pp, &e2)) == 0) {
                free(ex->plugin_path);
                ex->plugin_path = pp;
            }
        } else if (!strcmp(k, "paper_table")) {
            free(ex->paper_table);
            ex->paper_table = bl_strdup(e->value);
        } else if (!strcmp(k, "output")) {
            ex->output = bl_strdup(e->value);
        } else if (!strcmp(k, "seed")) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(e->value, &end, 10);
            if (end == e->value || *end || errno || e->value[0] == '-')
                rc = bl_errf(&e2, "expected a non-negative integer, got '%s'", e->value);
            ex->seed = v;
        } else if (!strcmp(k, "repeats")) {
            if ((rc = parse_int(e->value, 1, 100000, &n, &e2)) == 0) ex->repeats = (int)n;
        } else if (!strcmp(k, "iterations")) {
            if ((rc = parse_int(e->value, 1, 100000000, &n, &e2)) == 0) ex->iterations = (int)n;
        } else if (!strcmp(k, "max_bins")) {
            if ((rc = parse_int(e->value, 2, 256, &n, &e2)) == 0) ex->max_bins = (int)n;
        } else if (!strcmp(k, "threads")) {
            if ((rc = parse_int(e->value, 0, 1024, &n, &e2)) == 0) ex->threads = (int)n;
        } else {
            rc = bl_errf(&e2, "unknown key (accepted: %s)", exp_keys);
        }
        if (rc < 0)
            return bl_errf(err, "%s:%d: [experiment] %s: %s", ini->path, e->line, k, e2.msg);
    }
    return 0;
}

static char *stem(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    char *s = bl_strdup(b);
    char *dot = strrchr(s, '.');
    if (dot && dot != s)
        *dot = 0;
    return s;
}

/* Where a data set or algorithm of this name was defined already, or NULL.
 * "[data a]" and "[data  a]" are different sections to inih but the same
 * data set, and results would be mixed up (found while writing the
 * fuzz_ini harness's unique-names check). */
static const char *defined_at(const bl_experiment *ex, int is_data, const char *name)
{
    for (size_t i = 0; i < ex->ndata && is_data; i++)
        if (!strcmp(ex->data[i].name, name))
            return ex->data[i].where;
    for (size_t i = 0; i < ex->nalgo && !is_data; i++)
        if (!strcmp(ex->algo[i].name, name))
            return ex->algo[i].where;
    return NULL;
}

/* One [data NAME] or [algorithm NAME] section: one spec per grid point of
 * its sweeps (one spec when nothing is swept). */
static int load_section(bl_experiment *ex, const bl_registry *reg, const bl_ini *ini,
                        const bl_ini_section *s, int is_data, const char *name, bl_error *err)
{
    bl_ini_section *var;
    char **labels;
    size_t nvar;
    if (bl_sweep_expand(ini->path, s, &var, &labels, &nvar, err) < 0)
        return -1;
    int rc = 0;
    if (labels[0] && strchr(name, '{'))
        rc = bl_errf(err, "%s:%d: [%s]: a grid point (NAME{...}) cannot sweep again", ini->path,
                     s->line, s->name);
    for (size_t v = 0; v < nvar && rc == 0; v++) {
        char *full = NULL;
        if (labels[v]) {
            size_t len = strlen(name) + strlen(labels[v]) + 3;
            full = bl_xmalloc(len);
            snprintf(full, len, "%s{%s}", name, labels[v]);
        }
        const char *nm = full ? full : name;
        const char *also = defined_at(ex, is_data, nm);
        if (full && !valid_variant(full))
            rc = bl_errf(err, "%s:%d: [%s]: swept values must be made of letters, digits, "
                         "'-', '_', '.' and '+' to name the grid point, not '%s'", ini->path,
                         s->line, s->name, labels[v]);
        else if (also)
            rc = bl_errf(err, "%s:%d: [%s]: a %s named '%s' is already defined at %s", ini->path,
                         s->line, s->name, is_data ? "data set" : "algorithm", nm, also);
        else if (is_data) {
            ex->data = bl_xrealloc(ex->data, (ex->ndata + 1) * sizeof *ex->data);
            bl_data_spec *d = &ex->data[ex->ndata++];
            rc = load_data(d, ini, &var[v], nm, err);
            d->base = variant_base(nm);
            d->sweep = variant_sweep(nm);
        } else {
            ex->algo = bl_xrealloc(ex->algo, (ex->nalgo + 1) * sizeof *ex->algo);
            bl_algo_spec *a = &ex->algo[ex->nalgo++];
            rc = load_algo(a, reg, ini, &var[v], nm, err);
            a->base = variant_base(nm);
            a->sweep = variant_sweep(nm);
        }
        free(full);
    }
    bl_sweep_free(var, labels, nvar);
    return rc;
}

int bl_experiment_load(const char *path, const bl_registry *reg, bl_experiment *ex,
                       bl_error *err)
{
    memset(ex, 0, sizeof *ex);
    ex->path = bl_strdup(path);
    ex->name = stem(path);
    ex->seed = 1;
    ex->repeats = 1;
    ex->iterations = 100;
    ex->max_bins = 256;
    bl_ini ini;
    if (bl_ini_read(path, &ini, err) < 0)
        goto fail_noini;
    for (size_t j = 0; j < ini.nsec; j++) {
        const bl_ini_section *s = &ini.sec[j];
        char kind[64] = "", name[256] = "", extra[2] = "";
        int got = sscanf(s->name, "%63s %255s %1s", kind, name, extra);
        int has_name = got >= 2;
        if (!strcmp(kind, "experiment") && !has_name) {
            if (load_exp_section(ex, &ini, s, err) < 0)
                goto fail;
        } else if ((!strcmp(kind, "data") || !strcmp(kind, "algorithm")) && has_name) {
            if (!valid_variant(name) || got > 2) { /* "[data a b]" was read as "a" */
                const char *rest = s->name + strlen(kind);
                while (isspace((unsigned char)*rest))
                    rest++;
                bl_errf(err, "%s:%d: [%s]: '%s' is not a valid name (letters, digits, '-', '_', "
                        "'.')", path, s->line, s->name, rest);
                goto fail;
            }
            if (load_section(ex, reg, &ini, s, kind[0] == 'd', name, err) < 0)
                goto fail;
        } else {
            bl_errf(err, "%s:%d: unknown section [%s] (accepted: [experiment], [data NAME], "
                    "[algorithm NAME])", path, s->line, s->name);
            goto fail;
        }
    }
    if (!ex->ndata || !ex->nalgo) {
        bl_errf(err, "%s: needs at least one [data NAME] and one [algorithm NAME] section", path);
        goto fail;
    }
    if (!ex->output) {
        char buf[600];
        snprintf(buf, sizeof buf, "results/%s", ex->name);
        ex->output = bl_strdup(buf);
    }
    bl_ini_free(&ini);
    return 0;
fail:
    bl_ini_free(&ini);
fail_noini:
    bl_experiment_free(ex);
    return -1;
}

int bl_experiment_plugin_path(const char *path, char **out, bl_error *err)
{
    *out = NULL;
    bl_ini ini;
    if (bl_ini_read(path, &ini, err) < 0)
        return -1;
    int rc = 0;
    for (size_t j = 0; j < ini.nsec && rc == 0; j++) {
        const bl_ini_section *s = &ini.sec[j];
        if (strcmp(s->name, "experiment") != 0)
            continue;
        for (size_t i = 0; i < s->n && rc == 0; i++)
            if (!strcmp(s->e[i].key, "plugin_path")) {
                bl_error e2;
                free(*out);
                *out = NULL;
                if (resolve_plugin_path(path, s->e[i].value, out, &e2) < 0)
                    rc = bl_errf(err, "%s:%d: [experiment] plugin_path: %s", path,
                                 s->e[i].line, e2.msg);
            }
    }
    bl_ini_free(&ini);
    return rc;
}

bl_boost_cfg bl_algo_boost_cfg(const bl_algo_spec *a, int iterations, uint64_t seed)
{
    bl_boost_cfg c = {.param = a->boost,
                      .loss = &a->loss,
                      .weak = &a->weak,
                      .solver = a->solver_none ? NULL : &a->solver,
                      .coding = a->coding.plugin ? &a->coding : NULL,
                      .projection = a->projection.plugin ? &a->projection : NULL,
                      .iterations = iterations,
                      .seed = seed};
    return c;
}

void bl_algo_free(bl_algo_spec *a)
{
    bl_paramset_free(&a->loss);
    bl_paramset_free(&a->weak);
    bl_paramset_free(&a->solver);
    bl_paramset_free(&a->coding);
    bl_paramset_free(&a->projection);
    bl_paramset_free(&a->task);
    free(a->name);
    free(a->recipe);
    free(a->doc);
    free(a->where);
    free(a->base);
    free(a->sweep);
    for (size_t j = 0; j < a->ncv; j++) {
        bl_algo_free(&a->cv[j]);
        free(a->cv_label[j]);
    }
    free(a->cv);
    free(a->cv_label);
    free(a->cv_lines);
    free(a->skip_data);
    free(a->nonneg_views);
    bl_xgb_params_free(&a->xgb);
    memset(a, 0, sizeof *a);
}

int bl_data_repeats(const bl_experiment *ex, size_t d)
{
    return ex->data[d].repeats ? ex->data[d].repeats : ex->repeats;
}

int bl_max_repeats(const bl_experiment *ex)
{
    int r = 0;
    for (size_t d = 0; d < ex->ndata; d++)
        if (bl_data_repeats(ex, d) > r)
            r = bl_data_repeats(ex, d);
    return r;
}

int bl_globs_match(const char *globs, const char *name, const char *base)
{
    char *list = bl_strdup(globs), *save = NULL;
    int hit = 0;
    for (char *g = strtok_r(list, ", ", &save); g && !hit; g = strtok_r(NULL, ", ", &save))
        hit = fnmatch(g, name, 0) == 0 || (base && fnmatch(g, base, 0) == 0);
    free(list);
    return hit;
}

int bl_algo_skips(const bl_algo_spec *a, const bl_data_spec *d)
{
    return a->skip_data && bl_globs_match(a->skip_data, d->name, d->base);
}

void bl_experiment_free(bl_experiment *ex)
{
    for (size_t j = 0; j < ex->ndata; j++) {
        bl_data_spec *d = &ex->data[j];
        free(d->name);
        free(d->file);
        free(d->test_file);
        free(d->labels);
        free(d->test_labels);
        free(d->classes);
        free(d->label);
        free(d->drop);
        free(d->drop_where);
        bl_transform_free(&d->tf);
        free(d->where);
        free(d->base);
        free(d->sweep);
    }
    for (size_t j = 0; j < ex->nalgo; j++)
        bl_algo_free(&ex->algo[j]);
    free(ex->data);
    free(ex->algo);
    free(ex->path);
    free(ex->name);
    free(ex->doc);
    free(ex->output);
    free(ex->paper);
    free(ex->paper_table);
    free(ex->plugin_path);
    memset(ex, 0, sizeof *ex);
}

static void write_params(FILE *f, const char *role, const bl_paramset *ps)
{
    fprintf(f, "%s = %s\n", role, ps->plugin->name);
    for (size_t j = 0; j < ps->plugin->nparams; j++)
        fprintf(f, "%s.%s = %s\n", role, ps->plugin->params[j].name, ps->text[j]);
}

/* The cv.* lines and the folds, and the CV budget where the text has
 * always held it (boost; xgboost, new): the structured methods and svm
 * never wrote it, and the hashes of their stored runs stay. */
static void write_cv(const bl_algo_spec *a, FILE *f, int iterates)
{
    if (!a->ncv)
        return;
    fputs(a->cv_lines, f);
    fprintf(f, "cv_folds = %d\n", a->cv_folds);
    if (iterates && a->cv_iterations)
        fprintf(f, "cv_iterations = %d\n", a->cv_iterations);
}

void bl_algo_write(const bl_algo_spec *a, FILE *f)
{
    /* structured keys are written only where used, so the keys (and the
     * hashes stored results are found by) of boosting runs are unchanged */
    if (a->method != BL_METHOD_BOOST) {
        fprintf(f, "method = %s\n", bl_method_names[a->method]);
        if (a->method == BL_METHOD_XGBOOST) {
            bl_xgb_params_write(&a->xgb, f);
            if (a->iterations)
                fprintf(f, "iterations = %d\n", a->iterations);
            write_cv(a, f, 1);
            return;
        }
        if (a->method == BL_METHOD_SVM) {
            /* coding is written only when chosen: none means by k */
            fprintf(f, "scheme = %s\nkernel = %s\nscale = %s\nC = %.17g\n",
                    svm_scheme_names[a->svm_scheme], svm_kernel_names[a->svm_kernel],
                    svm_scale_names[a->svm_scale], a->C);
            if (a->svm_kernel == BL_KERNEL_RBF)
                fprintf(f, "gamma = %.17g\n", a->gamma);
            if (a->coding.plugin)
                write_params(f, "coding", &a->coding);
            write_cv(a, f, 0);
            return;
        }
        write_params(f, "task", &a->task);
        if (a->weak.plugin)
            write_params(f, "weak", &a->weak);
        fprintf(f, "C = %.17g\n", a->C);
        if (a->method != BL_METHOD_OVA_SVM)
            fprintf(f, "eps_cp = %.17g\n", a->eps_cp);
        if (a->nonneg_views)
            fprintf(f, "nonneg_views = %s\n", a->nonneg_views);
        if (a->method == BL_METHOD_STRUCTBOOST)
            fprintf(f, "formulation = %s\neps_cg = %.17g\n", a->mslack ? "m-slack" : "1-slack",
                    a->eps_cg);
        if (a->method == BL_METHOD_STRUCTBOOST && a->per_view)
            fputs("columns = per-view\n", f);
        if (a->method == BL_METHOD_STRUCTBOOST && a->master_dual)
            fprintf(f, "master = %s\n", master_names[a->master_dual]);
        if (a->method == BL_METHOD_STRUCTBOOST && a->check_mslack)
            fprintf(f, "check_mslack = %d\n", a->check_mslack);
        if (a->iterations)
            fprintf(f, "iterations = %d\n", a->iterations);
        write_cv(a, f, 0);
        return;
    }
    if (a->task.plugin)
        write_params(f, "task", &a->task);
    write_params(f, "loss", &a->loss);
    write_params(f, "weak", &a->weak);
    if (a->solver_none)
        fputs("solver = none\n", f);
    else
        write_params(f, "solver", &a->solver);
    if (a->coding.plugin)
        write_params(f, "coding", &a->coding);
    bl_boost_param_write(&a->boost, BL_GROUP_ENGINE, f);
    if (a->projection.plugin) {
        write_params(f, "projection", &a->projection);
        bl_boost_param_write(&a->boost, BL_GROUP_PROJECTION, f);
    }
    if (a->iterations)
        fprintf(f, "iterations = %d\n", a->iterations);
    write_cv(a, f, 1);
}

void bl_data_write(const bl_data_spec *d, FILE *f)
{
    static const char *fmt_names[] = {"", "csv", "libsvm", "idx"};
    fprintf(f, "file = %s\nformat = %s\nsplit = %s\n", d->file, fmt_names[d->format],
            bl_split_name(d->split.kind));
    if (d->test_file) fprintf(f, "test_file = %s\n", d->test_file);
    if (d->labels) fprintf(f, "labels = %s\n", d->labels);
    if (d->test_labels) fprintf(f, "test_labels = %s\n", d->test_labels);
    if (d->classes) fprintf(f, "classes = %s\n", d->classes);
    if (d->label) fprintf(f, "label = %s\n", d->label);
    if (d->drop) fprintf(f, "drop = %s\n", d->drop);
    if (d->features) fprintf(f, "features = %zu\n", d->features);
    /* part of the data's identity when chosen, since results can depend on
     * it: the sparse trees' zero bins by subtraction add in another order
     * (ties between splits can go the other way), and method xgboost reads
     * a sparse set's absent entries as missing, a dense set's zeros as
     * values; auto's choice follows from the files */
    if (d->storage)
        fprintf(f, "storage = %s\n", d->storage == BL_STORAGE_SPARSE ? "sparse" : "dense");
    if (d->split.kind == BL_SPLIT_FIRST) fprintf(f, "first = %zu\n", d->split.first);
    if (d->split.kind == BL_SPLIT_PER_CLASS) fprintf(f, "per_class = %zu\n", d->split.per_class);
    if (d->split.kind == BL_SPLIT_RATIO || d->split.kind == BL_SPLIT_PER_CLASS)
        fprintf(f, "test_ratio = %.17g\n", d->split.test_ratio);
    if (d->split.kind == BL_SPLIT_KFOLD) fprintf(f, "folds = %zu\n", d->split.folds);
    if (d->keep_classes)
        fprintf(f, "keep_classes = %zu\nclass_pick = %s\n", d->keep_classes,
                d->class_pick == BL_PICK_RANDOM ? "random" : "first");
    bl_transform_write(&d->tf, f);
}

void bl_experiment_write(const bl_experiment *ex, FILE *f)
{
    fprintf(f, "; resolved from %s: every parameter as it was used\n", ex->path);
    fprintf(f, "[experiment]\nname = %s\nseed = %llu\nrepeats = %d\niterations = %d\n"
               "max_bins = %d\n",
            ex->name, (unsigned long long)ex->seed, ex->repeats, ex->iterations, ex->max_bins);
    if (ex->paper)
        fprintf(f, "paper = %s\n", ex->paper);
    if (ex->paper_table)
        fprintf(f, "paper_table = %s\n", ex->paper_table);
    if (ex->plugin_path)
        fprintf(f, "plugin_path = %s\n", ex->plugin_path);
    fputc('\n', f);
    for (size_t j = 0; j < ex->ndata; j++) {
        fprintf(f, "[data %s]\n", ex->data[j].name);
        bl_data_write(&ex->data[j], f);
        /* how many runs, not what each run sees: kept out of the hash */
        if (ex->data[j].repeats)
            fprintf(f, "repeats = %d\n", ex->data[j].repeats);
        fputc('\n', f);
    }
    for (size_t j = 0; j < ex->nalgo; j++) {
        fprintf(f, "[algorithm %s]\n", ex->algo[j].name);
        bl_algo_write(&ex->algo[j], f);
        /* which runs exist, not how they train: kept out of the hash */
        if (ex->algo[j].skip_data)
            fprintf(f, "skip_data = %s\n", ex->algo[j].skip_data);
        fputc('\n', f);
    }
}

uint64_t bl_algo_hash(const bl_algo_spec *a)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    bl_algo_write(a, f);
    fclose(f);
    uint64_t h = bl_hash64(buf, len);
    free(buf);
    return h;
}

static int same_str(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

int bl_data_same_files(const bl_data_spec *d, const bl_data_spec *e)
{
    return d->format == e->format && same_str(d->file, e->file) &&
           same_str(d->test_file, e->test_file) && same_str(d->labels, e->labels) &&
           same_str(d->test_labels, e->test_labels) && same_str(d->classes, e->classes) &&
           same_str(d->label, e->label) && same_str(d->drop, e->drop) &&
           bl_transform_same(&d->tf, &e->tf);
}

uint64_t bl_data_hash(const bl_data_spec *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    bl_data_write(d, f);
    fclose(f);
    uint64_t h = bl_hash64(buf, len);
    free(buf);
    return h;
}

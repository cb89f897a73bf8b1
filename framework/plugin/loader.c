/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Plugin discovery, loading and descriptor validation (see loader.h). */
#include "loader.h"

#include <boostlab/coding.h>
#include <boostlab/loss.h>
#include <boostlab/projection.h>
#include <boostlab/solver.h>
#include <boostlab/task.h>
#include <boostlab/weak.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util/fsutil.h"
#include "params.h"

int bl_log_level = 0;

static void host_log(int level, const char *plugin, const char *fmt, ...)
{
    if (level > bl_log_level)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "boostlab: %s%s: ", level == 0 ? "warning: " : "", plugin ? plugin : "?");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

struct bl_host bl_host_api = {BL_SDK_VERSION, 1, host_log};

const char *bl_role_name(enum bl_role r)
{
    switch (r) {
    case BL_ROLE_LOSS: return "loss";
    case BL_ROLE_WEAK: return "weak";
    case BL_ROLE_SOLVER: return "solver";
    case BL_ROLE_CODING: return "coding";
    case BL_ROLE_PROJECTION: return "projection";
    case BL_ROLE_TASK: return "task";
    }
    return "unknown";
}

static int valid_ident(const char *s, const char *extra)
{
    if (!s || !*s)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || strchr(extra, *s)))
            return 0;
    return 1;
}

/* Every function a role's host code calls unconditionally must be there. */
static const char *missing_function(const struct bl_plugin *p)
{
    switch (p->role) {
    case BL_ROLE_LOSS: {
        const struct bl_loss_ops *o = p->ops;
        if (!o->create) return "create";
        if (!o->destroy) return "destroy";
        if (!o->eval) return "eval";
        if (o->row_prepare && (!o->row_eval || !o->row_free)) return "row_eval/row_free";
        return NULL;
    }
    case BL_ROLE_WEAK: {
        const struct bl_weak_ops *o = p->ops;
        if (!o->create) return "create";
        if (!o->destroy) return "destroy";
        if (!o->fit) return "fit";
        if (!o->outdim) return "outdim";
        if (!o->predict) return "predict";
        if (!o->save) return "save";
        if (!o->load) return "load";
        if (!o->free_hyp) return "free_hyp";
        return NULL;
    }
    case BL_ROLE_SOLVER: {
        const struct bl_solver_ops *o = p->ops;
        if (o->scope != BL_SOLVE_ROW && o->scope != BL_SOLVE_ALL) return "scope";
        if (!o->create) return "create";
        if (!o->destroy) return "destroy";
        if (!o->solve) return "solve";
        return NULL;
    }
    case BL_ROLE_CODING: {
        const struct bl_coding_ops *o = p->ops;
        if (!o->create) return "create";
        if (!o->destroy) return "destroy";
        if (!o->max_columns) return "max_columns";
        if (!o->code) return "code";
        return NULL;
    }
    case BL_ROLE_TASK: {
        const struct bl_task_ops *o = p->ops;
        if (!o->open) return "open";
        if (!o->close) return "close";
        if (!o->examples) return "examples";
        if (!o->label_bytes) return "label_bytes";
        if (!o->nviews) return "nviews";
        if (!o->view) return "view";
        if (!o->truth) return "truth";
        if (!o->loss) return "loss";
        if (!o->dpsi) return "dpsi";
        if (!o->argmax_aug) return "argmax_aug";
        if (!o->predict) return "predict";
        if (!o->random_label) return "random_label";
        if (!o->metrics || !o->metrics[0]) return "metrics";
        if (!o->evaluate) return "evaluate";
        if (!o->format_label) return "format_label";
        return NULL;
    }
    case BL_ROLE_PROJECTION: {
        const struct bl_projection_ops *o = p->ops;
        if (!o->create) return "create";
        if (!o->destroy) return "destroy";
        if (!o->dim) return "dim";
        if (!o->column) return "column";
        return NULL;
    }
    default:
        return NULL;
    }
}

/* End of a member: offsetof plus its size. */
#define END_OF(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))

/* The least an ops table of this major holds: the end of its last member
 * in minor 0.  A minor that appends members leaves these numbers alone, so
 * a table from an older minor still passes. */
static size_t ops_size_min(enum bl_role r)
{
    switch (r) {
    case BL_ROLE_LOSS: return END_OF(struct bl_loss_ops, hinge_targets);
    case BL_ROLE_WEAK: return END_OF(struct bl_weak_ops, free_hyp);
    case BL_ROLE_SOLVER: return END_OF(struct bl_solver_ops, solve);
    case BL_ROLE_CODING: return END_OF(struct bl_coding_ops, recolor);
    case BL_ROLE_PROJECTION: return END_OF(struct bl_projection_ops, column);
    case BL_ROLE_TASK: return END_OF(struct bl_task_ops, format_label);
    }
    return 0;
}

/* The ops table as this host declares it. */
static size_t ops_size_host(enum bl_role r)
{
    switch (r) {
    case BL_ROLE_LOSS: return sizeof(struct bl_loss_ops);
    case BL_ROLE_WEAK: return sizeof(struct bl_weak_ops);
    case BL_ROLE_SOLVER: return sizeof(struct bl_solver_ops);
    case BL_ROLE_CODING: return sizeof(struct bl_coding_ops);
    case BL_ROLE_PROJECTION: return sizeof(struct bl_projection_ops);
    case BL_ROLE_TASK: return sizeof(struct bl_task_ops);
    }
    return 0;
}

static int check_descriptor(const struct bl_plugin *p, const char *file, bl_error *err)
{
    /* sdk_version, role and name sit where they did in every major, so a
     * plugin of another major can be named before it is refused. */
    unsigned maj = BL_SDK_MAJOR_OF(p->sdk_version), min = BL_SDK_MINOR_OF(p->sdk_version);
    if (maj < BL_SDK_MAJOR)
        return bl_errf(err, "%s: plugin %s was built for SDK %u.%u; this boostlab has SDK %d.%d, "
                       "whose ops tables differ: port the plugin (docs/sdk.md, \"Migrating a "
                       "%u.x plugin to %d.0\") and rebuild it against these headers",
                       file, p->name ? p->name : "?", maj, min, BL_SDK_MAJOR, BL_SDK_MINOR, maj,
                       BL_SDK_MAJOR);
    if (maj != BL_SDK_MAJOR || min > BL_SDK_MINOR)
        return bl_errf(err, "%s: plugin %s was built for SDK %u.%u; this boostlab has SDK %d.%d "
                       "(rebuild the plugin against these headers)",
                       file, p->name ? p->name : "?", maj, min, BL_SDK_MAJOR, BL_SDK_MINOR);
    if (!valid_ident(p->name, "-_"))
        return bl_errf(err, "%s: plugin name '%s' is not valid (use a-z, 0-9, '-', '_')", file,
                       p->name ? p->name : "(null)");
    if (p->role < BL_ROLE_LOSS || p->role > BL_ROLE_TASK)
        return bl_errf(err, "%s: plugin %s has role %d (%s), which this host does not run "
                       "(supported: loss, weak, solver, coding, projection, task)",
                       file, p->name, (int)p->role, bl_role_name(p->role));
    if (!p->doc)
        return bl_errf(err, "%s: plugin %s has no doc line", file, p->name);
    if (!p->ops)
        return bl_errf(err, "%s: plugin %s has no function table", file, p->name);
    size_t size = *(const size_t *)p->ops, lo = ops_size_min(p->role),
           hi = ops_size_host(p->role);
    if (size < lo || size > hi) {
        char want[64];
        if (lo < hi)
            snprintf(want, sizeof want, "%zu to %zu", lo, hi);
        else
            snprintf(want, sizeof want, "%zu", hi);
        return bl_errf(err, "%s: plugin %s: its ops table gives size %zu, where SDK %d.%d takes "
                       "%s (set its first member, size, to sizeof(struct bl_%s_ops))",
                       file, p->name, size, BL_SDK_MAJOR, BL_SDK_MINOR, want,
                       bl_role_name(p->role));
    }
    const char *miss = missing_function(p);
    if (miss)
        return bl_errf(err, "%s: plugin %s (%s) lacks the required function '%s'", file,
                       p->name, bl_role_name(p->role), miss);
    if (p->nparams && !p->params)
        return bl_errf(err, "%s: plugin %s declares %zu parameters but no schema", file,
                       p->name, p->nparams);
    for (size_t j = 0; j < p->nparams; j++) {
        const struct bl_param_spec *s = &p->params[j];
        if (!valid_ident(s->name, "_"))
            return bl_errf(err, "%s: plugin %s: parameter %zu has an invalid name", file,
                           p->name, j);
        if (bl_param_index(p, s->name) != (int)j)
            return bl_errf(err, "%s: plugin %s: parameter %s is declared twice", file, p->name,
                           s->name);
        if (!s->doc || !s->def)
            return bl_errf(err, "%s: plugin %s: parameter %s lacks a default or a doc line",
                           file, p->name, s->name);
        if (s->type == BL_PARAM_CHOICE && (!s->choices || !*s->choices))
            return bl_errf(err, "%s: plugin %s: parameter %s has no choices", file, p->name,
                           s->name);
        union bl_value v;
        bl_error e2;
        if (bl_param_parse(s, s->def, &v, &e2) < 0)
            return bl_errf(err, "%s: plugin %s: default of parameter %s: %s", file, p->name,
                           s->name, e2.msg);
    }
    return 0;
}

/* The registry keeps its own copy of each descriptor, whose ops table has
 * the host's size: the plugin's table (possibly shorter, from an older
 * minor) followed by zeros, so that members it lacks read as NULL or 0 and
 * host code needs no version checks. */
struct bl_plugin_copy {
    struct bl_plugin desc;
    max_align_t ops[];
};

static void add_plugin(bl_registry *r, const struct bl_plugin *p, const char *file)
{
    size_t host = ops_size_host(p->role), size = *(const size_t *)p->ops;
    struct bl_plugin_copy *c = bl_xcalloc(1, sizeof *c + host);
    memcpy(c->ops, p->ops, size);
    memcpy(c->ops, &host, sizeof host); /* the table's size member */
    c->desc = *p;
    c->desc.ops = c->ops;
    r->plugin = bl_xrealloc(r->plugin, (r->n + 1) * sizeof *r->plugin);
    r->file = bl_xrealloc(r->file, (r->n + 1) * sizeof *r->file);
    r->plugin[r->n] = &c->desc;
    r->file[r->n] = bl_strdup(file);
    r->n++;
}

/* A plugin is code run with the user's rights, so it is only loaded from
 * an absolute path that no other user can have written: a file of the
 * user's or root's, in a folder no one else can write to, except a sticky
 * folder of root's (like /tmp), where others cannot replace our files. */
const char *bl_plugin_distrust(uid_t uid, uid_t owner, mode_t mode, int is_dir)
{
    if (is_dir) {
        if ((mode & S_IWOTH) && !(owner == 0 && (mode & S_ISVTX)))
            return owner == 0 ? "it is writable by every user and not sticky"
                              : "it is writable by every user and not root's";
        return NULL;
    }
    if (owner != uid && owner != 0)
        return "it belongs to another user";
    if (mode & S_IWOTH)
        return "it is writable by every user";
    return NULL;
}

static int check_safe(const char *path, bl_error *err)
{
    if (path[0] != '/')
        return bl_errf(err, "%s: plugins are loaded from absolute paths only (never relative to "
                       "the current directory)", path);
    struct stat st;
    if (stat(path, &st) != 0)
        return bl_errf(err, "%s: cannot read plugin: %s", path, strerror(errno));
    uid_t me = geteuid();
    const char *why = bl_plugin_distrust(me, st.st_uid, st.st_mode, 0);
    if (why && (st.st_mode & S_IWOTH))
        return bl_errf(err, "%s: refusing a world-writable plugin file (chmod o-w it)", path);
    if (why)
        return bl_errf(err, "%s: refusing a plugin file of uid %lu: %s (only your own files "
                       "and root's are loaded)", path, (unsigned long)st.st_uid, why);
    char *dir = bl_path_dir(path);
    int rc = 0;
    if (stat(dir, &st) == 0 && (why = bl_plugin_distrust(me, st.st_uid, st.st_mode, 1)))
        rc = bl_errf(err, "%s: refusing a plugin in the world-writable directory %s: %s "
                     "(chmod o-w it, or move the plugin)", path, dir, why);
    free(dir);
    return rc;
}

/* lenient: a file that is no boostlab plugin at all (dlopen fails, or it
 * has no entry point) is skipped with a warning, returning 1: a folder may
 * hold other shared objects.  A boostlab plugin that is broken is still an
 * error. */
static int load_file(bl_registry *r, const char *path, int lenient, bl_error *err)
{
    if (check_safe(path, err) < 0)
        return -1;
    for (size_t j = 0; j < r->n; j++)
        if (strcmp(r->file[j], path) == 0)
            return 0; /* same file reached twice through the path */
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h && lenient) {
        fprintf(stderr, "boostlab: warning: %s: skipped, not a loadable plugin: %s\n", path,
                dlerror());
        return 1;
    }
    if (!h)
        return bl_errf(err, "%s: cannot load plugin: %s", path, dlerror());
    bl_plugin_entry_fn entry;
    *(void **)&entry = dlsym(h, "boostlab_plugin_entry");
    if (!entry) {
        dlclose(h);
        if (lenient) {
            fprintf(stderr, "boostlab: warning: %s: skipped, not a boostlab plugin (no entry "
                    "point 'boostlab_plugin_entry')\n", path);
            return 1;
        }
        return bl_errf(err, "%s: not a boostlab plugin: no entry point 'boostlab_plugin_entry'",
                       path);
    }
    const struct bl_plugin *const *list = entry(&bl_host_api);
    if (!list || !list[0]) {
        dlclose(h);
        return bl_errf(err, "%s: plugin entry point returned no descriptors", path);
    }
    size_t first = r->n;
    for (const struct bl_plugin *const *p = list; *p; p++) {
        if (check_descriptor(*p, path, err) < 0)
            goto fail;
        for (size_t j = 0; j < r->n; j++)
            if (strcmp(r->plugin[j]->name, (*p)->name) == 0) {
                bl_errf(err, "%s: plugin name '%s' is already taken by %s", path, (*p)->name,
                        r->file[j]);
                goto fail;
            }
        add_plugin(r, *p, path);
    }
    r->handle = bl_xrealloc(r->handle, (r->nhandles + 1) * sizeof *r->handle);
    r->handle[r->nhandles++] = h;
    return 0;
fail:
    while (r->n > first) {
        free(r->file[--r->n]);
        free((void *)r->plugin[r->n]);
    }
    dlclose(h);
    return -1;
}

int bl_registry_load_file(bl_registry *r, const char *path, bl_error *err)
{
    return load_file(r, path, 0, err) < 0 ? -1 : 0;
}

static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int bl_registry_load_dir(bl_registry *r, const char *dir, int recursive, bl_error *err)
{
    if (dir[0] != '/')
        return bl_errf(err, "%s: plugin directories must be absolute paths (never relative to the "
                       "current directory)", dir);
    DIR *d = opendir(dir);
    if (!d)
        return bl_errf(err, "%s: cannot open plugin directory", dir);
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' && strcmp(e->d_name, ".libs") != 0)
            continue;
        names = bl_xrealloc(names, (n + 1) * sizeof *names);
        names[n++] = bl_path_join(dir, e->d_name);
    }
    closedir(d);
    if (n) /* load order = name order (qsort wants a non-NULL array) */
        qsort(names, n, sizeof *names, cmp_str);
    int rc = 0;
    for (size_t j = 0; j < n; j++) {
        if (rc == 0) {
            if (bl_dir_exists(names[j])) {
                if (recursive)
                    rc = bl_registry_load_dir(r, names[j], recursive, err);
            } else if (has_suffix(names[j], ".so")) {
                rc = load_file(r, names[j], 1, err) < 0 ? -1 : 0;
            }
        }
        free(names[j]);
    }
    free(names);
    return rc;
}

static void searched(bl_registry *r, const char *what)
{
    r->searched = bl_xrealloc(r->searched, (r->nsearched + 1) * sizeof *r->searched);
    r->searched[r->nsearched++] = bl_strdup(what);
}

/* Every entry of a colon-separated list of absolute folders or .so files;
 * src names the list in messages. */
static int load_list(bl_registry *r, const char *list, const char *src, bl_error *err)
{
    char *copy = bl_strdup(list), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(copy, ":", &save); tok && rc == 0;
         tok = strtok_r(NULL, ":", &save)) {
        if (tok[0] != '/') {
            rc = bl_errf(err, "%s: '%s' is a relative path; plugins are only loaded from "
                         "absolute paths", src, tok);
            break;
        }
        searched(r, tok);
        if (bl_dir_exists(tok))
            rc = bl_registry_load_dir(r, tok, 0, err);
        else if (bl_file_exists(tok))
            rc = bl_registry_load_file(r, tok, err);
        else
            rc = bl_errf(err, "%s: '%s' is neither a directory nor a file", src, tok);
    }
    free(copy);
    return rc;
}

int bl_registry_load_search(bl_registry *r, const char *first, bl_error *err)
{
    int rc = 0;
    if (first && *first)
        rc = load_list(r, first, "plugin_path", err);
    char *exe = bl_exe_dir();
    int in_tree = exe && strcmp(exe, BL_BUILD_DIR) == 0;
    free(exe);
    if (rc == 0 && in_tree) {
        char *dir = bl_path_join(BL_BUILD_DIR, "plugins");
        searched(r, dir);
        rc = bl_registry_load_dir(r, dir, 1, err);
        free(dir);
    } else if (rc == 0) {
        /* The folder beside the binary (PREFIX/bin/../lib/boostlab) wins when
         * it exists: it came with this binary, so a moved install or an
         * unpacked bundle never mixes in another version's plugins. */
        char *rel = bl_exe_relative("lib/boostlab");
        int own = rel && strcmp(rel, BL_PLUGIN_DIR) != 0;
        if (own)
            searched(r, rel);
        if (own && bl_dir_exists(rel)) {
            rc = bl_registry_load_dir(r, rel, 0, err);
        } else {
            searched(r, BL_PLUGIN_DIR);
            if (bl_dir_exists(BL_PLUGIN_DIR))
                rc = bl_registry_load_dir(r, BL_PLUGIN_DIR, 0, err);
        }
        free(rel);
    }
    const char *env = getenv("BOOSTLAB_PLUGIN_PATH");
    if (rc == 0 && env && *env)
        rc = load_list(r, env, "BOOSTLAB_PLUGIN_PATH", err);
    if (rc == 0 && r->n == 0)
        rc = bl_errf(err, "no plugins found; searched: %s ('make install' puts boostlab's "
                     "plugins in %s, a bundle in lib/boostlab beside bin/; "
                     "BOOSTLAB_PLUGIN_PATH=DIR[:DIR] adds folders)",
                     bl_registry_searched(r), BL_PLUGIN_DIR);
    return rc;
}

int bl_registry_load_std(bl_registry *r, bl_error *err)
{
    return bl_registry_load_search(r, NULL, err);
}

const char *bl_registry_searched(const bl_registry *r)
{
    static char buf[2048];
    size_t o = 0;
    buf[0] = 0;
    for (size_t j = 0; j < r->nsearched && o < sizeof buf; j++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s%s", o ? ", " : "", r->searched[j],
                              bl_dir_exists(r->searched[j]) || bl_file_exists(r->searched[j])
                                  ? "" : " (missing)");
    if (!o)
        snprintf(buf, sizeof buf, "(nothing)");
    return buf;
}

const char *bl_registry_hint(const bl_registry *r)
{
    static char buf[2300];
    snprintf(buf, sizeof buf, "searched: %s; a plugin built elsewhere is found through "
             "BOOSTLAB_PLUGIN_PATH=/ABS/DIR or the experiment's plugin_path = DIR",
             bl_registry_searched(r));
    return buf;
}

const struct bl_plugin *bl_registry_find(const bl_registry *r, const char *name, int role)
{
    for (size_t j = 0; j < r->n; j++)
        if (strcmp(r->plugin[j]->name, name) == 0 && (!role || (int)r->plugin[j]->role == role))
            return r->plugin[j];
    return NULL;
}

const char *bl_registry_file_of(const bl_registry *r, const struct bl_plugin *p)
{
    for (size_t j = 0; j < r->n; j++)
        if (r->plugin[j] == p)
            return r->file[j];
    return NULL;
}

const char *bl_registry_names(const bl_registry *r, int role)
{
    static char buf[2048];
    size_t o = 0;
    buf[0] = 0;
    for (size_t j = 0; j < r->n && o < sizeof buf; j++)
        if (!role || (int)r->plugin[j]->role == role)
            o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", o ? ", " : "",
                                  r->plugin[j]->name);
    if (!o)
        snprintf(buf, sizeof buf, "(none loaded)");
    return buf;
}

void bl_registry_free(bl_registry *r)
{
    for (size_t j = 0; j < r->n; j++) {
        free(r->file[j]);
        free((void *)r->plugin[j]); /* the copy add_plugin made */
    }
    free(r->file);
    free(r->plugin);
    for (size_t j = 0; j < r->nhandles; j++)
        dlclose(r->handle[j]);
    free(r->handle);
    for (size_t j = 0; j < r->nsearched; j++)
        free(r->searched[j]);
    free(r->searched);
    memset(r, 0, sizeof *r);
}

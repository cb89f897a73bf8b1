/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The recipe folders and the recipes in them (see recipes.h). */
#include "recipes.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"
#include "ini.h"

static int recipe_name(const char *s, size_t n)
{
    if (!n)
        return 0;
    for (size_t j = 0; j < n; j++)
        if (!isalnum((unsigned char)s[j]) && !strchr("-_.", s[j]))
            return 0;
    return 1;
}

/* Append dir's real path to dirs unless it is not a folder or there already. */
static void add_dir(char ***dirs, size_t *n, const char *dir)
{
    char *real = realpath(dir, NULL);
    if (!real || !bl_dir_exists(real)) {
        free(real);
        return;
    }
    for (size_t j = 0; j < *n; j++)
        if (!strcmp((*dirs)[j], real)) {
            free(real);
            return;
        }
    *dirs = bl_xrealloc(*dirs, (*n + 1) * sizeof **dirs);
    (*dirs)[(*n)++] = real;
}

char **bl_recipe_dirs(const char *from, size_t *n)
{
    char **dirs = NULL;
    *n = 0;
    const char *env = getenv("BOOSTLAB_CONFIG_PATH");
    if (env && *env) {
        char *copy = bl_strdup(env), *save = NULL;
        for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save))
            add_dir(&dirs, n, tok);
        free(copy);
    }
    char *dir = from ? bl_strdup(from) : NULL;
    for (int up = 0; dir && up < 6; up++) {
        char *cfg = bl_path_join(dir, "configs");
        add_dir(&dirs, n, cfg);
        free(cfg);
        char *parent = bl_path_join(dir, "..");
        free(dir);
        dir = parent;
    }
    free(dir);
    /* an installed copy moved elsewhere, or an unpacked bundle */
    char *rel = bl_exe_relative("share/boostlab/configs");
    if (rel)
        add_dir(&dirs, n, rel);
    free(rel);
    add_dir(&dirs, n, BL_SOURCE_DIR "/configs");
    add_dir(&dirs, n, BL_DATA_DIR "/configs");
    return dirs;
}

void bl_recipe_dirs_free(char **dirs, size_t n)
{
    for (size_t j = 0; j < n; j++)
        free(dirs[j]);
    free(dirs);
}

char *bl_recipe_find(const char *name, const char *from)
{
    size_t n;
    char **dirs = bl_recipe_dirs(from, &n);
    char *file = bl_strfmt("%s.ini", name), *found = NULL;
    for (size_t j = 0; j < n && !found; j++) {
        found = bl_path_join(dirs[j], file);
        if (!bl_file_exists(found)) {
            free(found);
            found = NULL;
        }
    }
    free(file);
    bl_recipe_dirs_free(dirs, n);
    return found;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const bl_recipe_entry *)a)->name, ((const bl_recipe_entry *)b)->name);
}

/* The `doc` of a recipe file, or why it cannot be read. */
static void read_doc(bl_recipe_entry *r)
{
    bl_ini ini;
    bl_error err;
    r->doc = bl_strdup("");
    if (bl_ini_read(r->path, &ini, &err) < 0) {
        r->problem = bl_strdup(err.msg);
        return;
    }
    if (ini.nsec != 1 || strcmp(ini.sec[0].name, "recipe") != 0)
        r->problem = bl_strfmt("%s: a recipe file holds exactly one [recipe] section", r->path);
    for (size_t j = 0; ini.nsec && j < ini.sec[0].n; j++)
        if (!strcmp(ini.sec[0].e[j].key, "doc")) {
            free(r->doc);
            r->doc = bl_strdup(ini.sec[0].e[j].value);
        }
    bl_ini_free(&ini);
}

bl_recipe_entry *bl_recipe_list(const char *from, size_t *n)
{
    size_t ndirs;
    char **dirs = bl_recipe_dirs(from, &ndirs);
    bl_recipe_entry *r = NULL;
    *n = 0;
    for (size_t j = 0; j < ndirs; j++) {
        DIR *d = opendir(dirs[j]);
        if (!d)
            continue;
        size_t first = *n;
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t len = strlen(e->d_name);
            if (len < 5 || strcmp(e->d_name + len - 4, ".ini") || !recipe_name(e->d_name, len - 4))
                continue;
            char *path = bl_path_join(dirs[j], e->d_name);
            if (!bl_file_exists(path)) {
                free(path);
                continue;
            }
            r = bl_xrealloc(r, (*n + 1) * sizeof *r);
            bl_recipe_entry *x = &r[(*n)++];
            memset(x, 0, sizeof *x);
            x->name = bl_strdup(e->d_name);
            x->name[len - 4] = 0;
            x->dir = bl_strdup(dirs[j]);
            x->path = path;
        }
        closedir(d);
        if (*n > first) /* r is NULL while no recipe has been found */
            qsort(r + first, *n - first, sizeof *r, by_name);
        for (size_t k = first; k < *n; k++) {
            for (size_t p = 0; p < first && !r[k].hidden; p++)
                r[k].hidden = !strcmp(r[p].name, r[k].name);
            read_doc(&r[k]);
        }
    }
    bl_recipe_dirs_free(dirs, ndirs);
    return r;
}

void bl_recipe_list_free(bl_recipe_entry *r, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        free(r[j].name);
        free(r[j].dir);
        free(r[j].path);
        free(r[j].doc);
        free(r[j].problem);
    }
    free(r);
}

/* "a, b, c" of the n strings, or as many as fit in about max characters
 * and "... (N more)". */
static char *join(const char *const *s, size_t n, size_t max)
{
    char *out = bl_strdup("");
    size_t len = 0;
    for (size_t j = 0; j < n; j++) {
        if (j && len + strlen(s[j]) + 2 > max) {
            char *more = bl_strfmt("%s, ... (%zu more)", out, n - j);
            free(out);
            return more;
        }
        char *next = bl_strfmt("%s%s%s", out, j ? ", " : "", s[j]);
        free(out);
        out = next;
        len = strlen(out);
    }
    return out;
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *bl_recipe_names(const char *from, size_t max)
{
    size_t n, m = 0;
    bl_recipe_entry *r = bl_recipe_list(from, &n);
    const char **names = bl_xmalloc((n ? n : 1) * sizeof *names);
    for (size_t j = 0; j < n; j++)
        if (!r[j].hidden)
            names[m++] = r[j].name;
    qsort(names, m, sizeof *names, by_str);
    char *out = m ? join(names, m, max) : bl_strdup("none");
    free(names);
    bl_recipe_list_free(r, n);
    return out;
}

char *bl_recipe_dirs_text(const char *from, size_t max)
{
    size_t n;
    char **dirs = bl_recipe_dirs(from, &n);
    char *out = n ? join((const char *const *)dirs, n, max) : bl_strdup("none of them exists");
    bl_recipe_dirs_free(dirs, n);
    return out;
}

int bl_recipe_not_found(const char *name, const char *from, bl_error *err)
{
    char *names = bl_recipe_names(from, 560), *dirs = bl_recipe_dirs_text(from, 240);
    bl_errf(err, "no recipe named '%s' (available: %s; looked for %s.ini in: %s; see "
            "'boostlab recipes')", name, names, name, dirs);
    free(names);
    free(dirs);
    return -1;
}

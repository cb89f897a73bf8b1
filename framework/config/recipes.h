/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Where recipes (configs/NAME.ini, one [recipe] section) are found, and
 * which ones there are.  The folders are searched in this order, and the
 * first NAME.ini found is the recipe NAME:
 *   1. each folder of BOOSTLAB_CONFIG_PATH (separated by ':');
 *   2. configs/ beside the experiment file, then in its parent folders
 *      (five levels up), when there is an experiment file;
 *   3. share/boostlab/configs beside the binary (PREFIX/bin/boostlab finds
 *      PREFIX/share/boostlab/configs: a moved install, an unpacked bundle);
 *   4. the source tree's configs/, then the installed configs/.
 * bl_recipe_load (experiment.h) loads one.
 */
#ifndef BL_CONFIG_RECIPES_H
#define BL_CONFIG_RECIPES_H

#include <stddef.h>

#include "../util/error.h"

/* The folders searched, in order: the existing ones, each once (by their
 * real path), as real paths.  from: the experiment's folder, or NULL. */
char **bl_recipe_dirs(const char *from, size_t *n);
void bl_recipe_dirs_free(char **dirs, size_t n);

/* The file of recipe name (malloc'ed), or NULL when no folder has it. */
char *bl_recipe_find(const char *name, const char *from);

typedef struct bl_recipe_entry {
    char *name, *dir, *path;
    char *doc;                  /* its `doc`, "" when it has none       */
    char *problem;              /* why the file cannot be read, or NULL */
    int hidden;                 /* a folder searched earlier has NAME   */
} bl_recipe_entry;

/* Every NAME.ini (NAME a valid recipe name) of every folder, folder by
 * folder in search order and by name within one. */
bl_recipe_entry *bl_recipe_list(const char *from, size_t *n);
void bl_recipe_list_free(bl_recipe_entry *r, size_t n);

/* "NAME, NAME, ..." of the recipes found (each once, sorted) and "DIR,
 * DIR, ..." of the folders searched, for "no recipe named" errors:
 * malloc'ed, each shortened to about max characters. */
char *bl_recipe_names(const char *from, size_t max);
char *bl_recipe_dirs_text(const char *from, size_t max);
/* The "no recipe named NAME" error, with the recipes found and the folders
 * searched; returns -1. */
int bl_recipe_not_found(const char *name, const char *from, bl_error *err);

#endif

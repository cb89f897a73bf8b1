/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The plugin registry: finds plugin shared objects, dlopens them, checks
 * every descriptor (SDK version, role, name, ops table size, parameter
 * schema, required functions) and refuses duplicates, naming the file at
 * fault.  The registry holds copies of the descriptors whose ops tables
 * have this host's size (members an older minor's table lacks are zero),
 * valid until bl_registry_free.
 *
 * Search order: an experiment's plugin_path (when the command runs one);
 * the build tree's plugins/ (when the running program is the uninstalled
 * one), else the install directory; then every entry of
 * BOOSTLAB_PLUGIN_PATH (colon-separated directories or .so files).  A
 * search that finds no plugin at all is an error naming every folder it
 * looked in.  In a searched folder, a .so that is not a boostlab plugin
 * (dlopen fails, or no entry point) is skipped with a warning; a boostlab
 * plugin that is broken, or a file named on its own, is an error.
 *
 * A plugin is code, trusted like any library the program links: only
 * absolute paths are used, and never a file owned by another user (root
 * aside), a world-writable file, or a file in a folder others can write to
 * (unless the folder is root's and sticky, like /tmp).
 */
#ifndef BL_PLUGIN_LOADER_H
#define BL_PLUGIN_LOADER_H

#include <boostlab/plugin.h>
#include <sys/types.h>

#include "../util/error.h"

typedef struct bl_registry {
    size_t n;
    const struct bl_plugin **plugin;
    char **file;          /* file each plugin came from                */
    size_t nhandles;
    void **handle;
    char **searched;      /* folders and files searched, in order     */
    size_t nsearched;
} bl_registry;

/* The host API table handed to plugins. */
extern struct bl_host bl_host_api;
/* Verbosity for the host log (0 warnings, 1 info, 2 debug). */
extern int bl_log_level;

const char *bl_role_name(enum bl_role r);

/* Standard search (see above). */
int bl_registry_load_std(bl_registry *r, bl_error *err);
/* The same, searching first the colon-separated absolute folders or .so
 * files of first (an experiment's plugin_path; NULL for none). */
int bl_registry_load_search(bl_registry *r, const char *first, bl_error *err);
/* Every folder or file searched so far, comma-separated (static buffer). */
const char *bl_registry_searched(const bl_registry *r);
/* What to add to "no such plugin": where the search looked and how to
 * point it at a plugin elsewhere (static buffer). */
const char *bl_registry_hint(const bl_registry *r);
/* Why user uid must not load a plugin file (is_dir 0), or any plugin from
 * a folder (is_dir 1), with this owner and st_mode; NULL when it may. */
const char *bl_plugin_distrust(uid_t uid, uid_t owner, mode_t mode, int is_dir);
/* One directory (recursive: also .libs/ subfolders of a build tree). */
int bl_registry_load_dir(bl_registry *r, const char *dir, int recursive, bl_error *err);
int bl_registry_load_file(bl_registry *r, const char *path, bl_error *err);

/* Plugin by name, of the given role (0 = any role). */
const struct bl_plugin *bl_registry_find(const bl_registry *r, const char *name, int role);
const char *bl_registry_file_of(const bl_registry *r, const struct bl_plugin *p);
/* Comma-separated names of the plugins of a role (static buffer). */
const char *bl_registry_names(const bl_registry *r, int role);

void bl_registry_free(bl_registry *r);

#endif

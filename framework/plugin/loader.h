/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The plugin registry: finds plugin shared objects, dlopens them, checks
 * every descriptor (SDK version, role, name, ops table size, parameter
 * schema, required functions) and refuses duplicates, naming the file at
 * fault.  The registry holds copies of the descriptors whose ops tables
 * have this host's size (members an older minor's table lacks are zero),
 * valid until bl_registry_free.
 *
 * Search order: the build tree's plugins/ (when the running program is the
 * uninstalled one), else the install directory; then every entry of
 * BOOSTLAB_PLUGIN_PATH (colon-separated directories or .so files).  Only
 * absolute paths are used, and never a world-writable file or a file in a
 * world-writable (non-sticky) directory: a plugin is code, trusted like
 * any library the program links.
 */
#ifndef BL_PLUGIN_LOADER_H
#define BL_PLUGIN_LOADER_H

#include <boostlab/plugin.h>

#include "../util/error.h"

typedef struct bl_registry {
    size_t n;
    const struct bl_plugin **plugin;
    char **file;          /* file each plugin came from                */
    size_t nhandles;
    void **handle;
} bl_registry;

/* The host API table handed to plugins. */
extern struct bl_host bl_host_api;
/* Verbosity for the host log (0 warnings, 1 info, 2 debug). */
extern int bl_log_level;

const char *bl_role_name(enum bl_role r);

/* Standard search (see above). */
int bl_registry_load_std(bl_registry *r, bl_error *err);
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

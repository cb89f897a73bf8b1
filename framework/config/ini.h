/* SPDX-License-Identifier: GPL-3.0-or-later */
/* INI files read with inih, keeping each key's line number so every later
 * error can name FILE:LINE.  Rejects syntax errors, keys outside a section,
 * repeated sections and repeated keys within a section. */
#ifndef BL_CONFIG_INI_H
#define BL_CONFIG_INI_H

#include <stddef.h>

#include "../util/error.h"

typedef struct bl_ini_entry {
    char *key, *value;
    int line;
} bl_ini_entry;

typedef struct bl_ini_section {
    char *name;           /* full header text, e.g. "data iris"        */
    int line;
    bl_ini_entry *e;
    size_t n;
} bl_ini_section;

typedef struct bl_ini {
    char *path;
    bl_ini_section *sec;
    size_t nsec;
} bl_ini;

int bl_ini_read(const char *path, bl_ini *ini, bl_error *err);
void bl_ini_free(bl_ini *ini);

#endif

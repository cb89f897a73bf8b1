/* SPDX-License-Identifier: GPL-3.0-or-later */
/* File-system helpers: paths, directories, and atomic writes so that a
 * crash or kill never leaves a half-written result file behind. */
#ifndef BL_UTIL_FSUTIL_H
#define BL_UTIL_FSUTIL_H

#include <stdarg.h>
#include <stdio.h>

#include "error.h"

/* malloc'ed "dir/name" (name returned as is when absolute or dir empty). */
char *bl_path_join(const char *dir, const char *name);
/* malloc'ed directory part of path ("." when there is none). */
char *bl_path_dir(const char *path);
int bl_file_exists(const char *path);
int bl_dir_exists(const char *path);
/* mkdir -p; 0 or -1 with err. */
int bl_mkdirs(const char *path, bl_error *err);
/* Directory of the running executable (malloc'ed), or NULL; or the
 * folder set by bl_set_exe_dir. */
char *bl_exe_dir(void);
/* Stand dir in for the executable's folder: the library (libboostlab),
 * loaded into another program, names the bin folder of its own install or
 * its build tree, so that plugins and recipes are found beside it. */
void bl_set_exe_dir(const char *dir);
/* The whole file at path, NUL-terminated (length in *len), or NULL with
 * "PATH: cannot open WHAT: reason" or a read error in err (may be NULL). */
char *bl_read_file(const char *path, const char *what, size_t *len, bl_error *err);
/* PREFIX/rel, where PREFIX is the folder above the executable's (PREFIX/bin/
 * boostlab), malloc'ed, or NULL: what an installed or unpacked copy finds
 * beside itself wherever it was moved. */
char *bl_exe_relative(const char *rel);

/* Atomic write: open a temporary file beside path, write, then commit
 * (fflush + fsync + rename over path) or abort (remove the temporary). */
typedef struct bl_atomic {
    FILE *f;
    char *path, *tmp;
} bl_atomic;
int bl_atomic_open(bl_atomic *a, const char *path, bl_error *err);
int bl_atomic_commit(bl_atomic *a, bl_error *err);
void bl_atomic_abort(bl_atomic *a);

/* Remove, below dir, the temporary files of atomic writes whose process is
 * gone (left by a crash or a kill).  Returns how many were removed. */
int bl_clean_stale_tmp(const char *dir);

/* malloc'ed copy of a string; aborts the program when out of memory, like
 * the x* allocators below: boostlab treats OOM as fatal. */
char *bl_strdup(const char *s);
void *bl_xmalloc(size_t n);
void *bl_xcalloc(size_t n, size_t size);
void *bl_xrealloc(void *p, size_t n);
/* malloc'ed printf: the formatted text in a string of its own (aborts when
 * out of memory, like the above). */
char *bl_strfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *bl_vstrfmt(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif

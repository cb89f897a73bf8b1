/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Error reporting inside the framework: a fixed buffer filled in the form
 * "FILE:LINE: FIELD: what was expected", returned up to the command line. */
#ifndef BL_UTIL_ERROR_H
#define BL_UTIL_ERROR_H

#define BL_ERRMSG_MAX 1024

typedef struct bl_error {
    char msg[BL_ERRMSG_MAX];
} bl_error;

/* Format into e (if not NULL) and return -1, so callers can write
 * `return bl_errf(err, "%s:%zu: ...", ...);`. */
int bl_errf(bl_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prefix an existing message: "prefix: old message". Returns -1. */
int bl_errprefix(bl_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Line-by-line reading of text files that may be gzip-compressed (zlib
 * reads plain files transparently), with the line number kept for error
 * messages.  Lines of any length; a NUL byte inside a line is an error. */
#ifndef BL_UTIL_TEXTIO_H
#define BL_UTIL_TEXTIO_H

#include <stddef.h>

#include "error.h"

typedef struct bl_lines bl_lines;

/* Open path for reading; NULL with err set ("PATH: No such file ..."). */
bl_lines *bl_lines_open(const char *path, bl_error *err);

/* Next line without its "\n" or "\r\n"; *len gets its length.  Returns
 * 1 with a line, 0 at end of file, -1 on a read error, a corrupt or
 * truncated gzip stream, or a NUL byte (err names path and line). */
int bl_lines_next(bl_lines *r, char **line, size_t *len, bl_error *err);

/* 1-based number of the line last returned. */
size_t bl_lines_lineno(const bl_lines *r);
const char *bl_lines_path(const bl_lines *r);
void bl_lines_close(bl_lines *r);

/* zlib's message (gzerror) without the "PATH: " it puts in front; zerr is
 * gzerror's code (Z_ERRNO: the message comes from errno). */
const char *bl_zlib_msg(const char *path, const char *zmsg, int zerr);

/* s without its leading and trailing white space (isspace, as inih trims):
 * cuts the trailing in place and returns a pointer into s. */
char *bl_trim(char *s);

#endif

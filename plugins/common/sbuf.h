/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shared by in-tree plugins (header only, not part of the SDK): the
 * snprintf-style appender their save() functions write one line of text
 * with.  It counts every byte it is asked to write and writes what fits,
 * so save() can return the length it needs, as weak.h asks.
 */
#ifndef BL_PLUGINS_SBUF_H
#define BL_PLUGINS_SBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

struct sbuf {
    char *buf;
    size_t cap, len;
};

static inline void sb_printf(struct sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static inline void sb_printf(struct sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->len < b->cap ? b->cap - b->len : 0;
    int n = vsnprintf(room ? b->buf + b->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len += (size_t)n;
}

#endif

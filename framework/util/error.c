/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Formatting helpers for bl_error. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int bl_errf(bl_error *e, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int bl_errprefix(bl_error *e, const char *fmt, ...)
{
    if (e) {
        char prefix[BL_ERRMSG_MAX], old[BL_ERRMSG_MAX];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(prefix, sizeof prefix, fmt, ap);
        va_end(ap);
        memcpy(old, e->msg, sizeof old);
        if (snprintf(e->msg, sizeof e->msg, "%s: %s", prefix, old) >= (int)sizeof e->msg)
            e->msg[sizeof e->msg - 2] = '~'; /* mark the cut */
    }
    return -1;
}

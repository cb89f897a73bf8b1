/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Line reader over zlib (see textio.h).  gzread is used for plain files
 * too: zlib passes data that is not gzip through unchanged.  Lines are cut
 * out of one growing buffer, so a line may be of any length, and are handed
 * out in place (NUL-terminated) without a copy. */
#include "textio.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "fsutil.h"

char *bl_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

#define BL_LINES_CHUNK (256u * 1024u)

struct bl_lines {
    gzFile gz;
    char *path;
    char *buf;          /* buf[pos..end) is read but not yet handed out */
    size_t cap, pos, end;
    size_t lineno;
    int eof;            /* gzread returned 0: no more data              */
};

bl_lines *bl_lines_open(const char *path, bl_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        bl_errf(err, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        bl_errf(err, "%s: is a directory, not a data file", path);
        return NULL;
    }
    gzFile gz = gzopen(path, "rb");
    if (!gz) {
        bl_errf(err, "%s: %s", path, errno ? strerror(errno) : "cannot open");
        return NULL;
    }
    gzbuffer(gz, BL_LINES_CHUNK);
    bl_lines *r = bl_xcalloc(1, sizeof *r);
    r->gz = gz;
    r->path = bl_strdup(path);
    r->cap = BL_LINES_CHUNK;
    r->buf = bl_xmalloc(r->cap);
    return r;
}

const char *bl_zlib_msg(const char *path, const char *zmsg, int zerr)
{
    size_t n = strlen(path);
    if (zerr == Z_ERRNO)
        return strerror(errno);
    if (!zmsg || !*zmsg)
        return "unknown error";
    if (strncmp(zmsg, path, n) == 0 && zmsg[n] == ':' && zmsg[n + 1] == ' ')
        return zmsg + n + 2;
    return zmsg;
}

/* Read more data after buf[end), first moving the pending part to the front
 * and growing the buffer when the pending part fills it.  Returns the
 * number of bytes read (0 at end of file) or -1 with err set. */
static int fill(bl_lines *r, bl_error *err)
{
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->end - r->pos);
        r->end -= r->pos;
        r->pos = 0;
    }
    /* Keep one byte for the terminating NUL of a last line without "\n". */
    if (r->cap - r->end < 2) {
        r->cap *= 2;
        r->buf = bl_xrealloc(r->buf, r->cap);
    }
    size_t want = r->cap - 1 - r->end;
    if (want > INT_MAX)
        want = INT_MAX;
    int n = gzread(r->gz, r->buf + r->end, (unsigned)want);
    int zerr = Z_OK;
    const char *zmsg = gzerror(r->gz, &zerr);
    if (n < 0 || (zerr != Z_OK && zerr != Z_BUF_ERROR))
        /* zlib drops the output of a read that fails, so the fault lies
         * somewhere in the data after the lines already returned. */
        return bl_errf(err, "%s:%zu: %s at or after this line: %s", r->path, r->lineno + 1,
                       zerr == Z_ERRNO ? "read error" : "corrupt gzip data",
                       bl_zlib_msg(r->path, zmsg, zerr));
    if (n == 0) {
        /* zlib reports a gzip stream cut short (no end marker or trailer)
         * only as Z_BUF_ERROR once the input is exhausted. */
        if (zerr == Z_BUF_ERROR)
            return bl_errf(err, "%s:%zu: truncated gzip stream (unexpected end of file)",
                           r->path, r->lineno + 1);
        r->eof = 1;
        return 0;
    }
    r->end += (size_t)n;
    return n;
}

int bl_lines_next(bl_lines *r, char **line, size_t *len, bl_error *err)
{
    size_t scanned = 0; /* bytes of the pending part known to hold no '\n' */
    for (;;) {
        char *start = r->buf + r->pos;
        size_t avail = r->end - r->pos;
        char *nl = memchr(start + scanned, '\n', avail - scanned);
        size_t n;
        if (nl) {
            n = (size_t)(nl - start);
            r->pos += n + 1;
        } else if (r->eof) {
            if (avail == 0)
                return 0;
            n = avail; /* last line without "\n" */
            r->pos = r->end;
        } else {
            scanned = avail;
            if (fill(r, err) < 0)
                return -1;
            continue;
        }
        r->lineno++;
        if (n > 0 && start[n - 1] == '\r')
            n--;
        start[n] = '\0';
        if (memchr(start, '\0', n))
            return bl_errf(err, "%s:%zu: NUL byte in line (binary file, or a compressed "
                           "format other than gzip?)", r->path, r->lineno);
        *line = start;
        *len = n;
        return 1;
    }
}

size_t bl_lines_lineno(const bl_lines *r)
{
    return r->lineno;
}

const char *bl_lines_path(const bl_lines *r)
{
    return r->path;
}

void bl_lines_close(bl_lines *r)
{
    if (!r)
        return;
    gzclose(r->gz);
    free(r->buf);
    free(r->path);
    free(r);
}

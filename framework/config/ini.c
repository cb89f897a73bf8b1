/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * INI reading on top of inih (see ini.h).  Debian's inih is built without
 * line numbers in the handler, so we feed it through our own line reader
 * and count lines there; the reader also sees section headers, which lets
 * us record empty sections and where each section starts.
 */
#include "ini.h"

#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"
#include "../util/textio.h"

/* inih copies section names into a buffer of 50 bytes, cutting longer ones
 * (MAX_SECTION in its ini.c; not in its header). */
#define INIH_MAX_SECTION 49

typedef struct {
    FILE *f;
    bl_ini *ini;
    int line;
    int failed;
    bl_error *err;
} reader_state;

static bl_ini_section *find_section(bl_ini *ini, const char *name)
{
    for (size_t j = 0; j < ini->nsec; j++)
        if (strcmp(ini->sec[j].name, name) == 0)
            return &ini->sec[j];
    return NULL;
}

static void fail(reader_state *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(reader_state *st, const char *fmt, ...)
{
    if (st->failed)
        return;
    st->failed = 1;
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    bl_errf(st->err, "%s:%d: %s", st->ini->path, st->line, what);
}

/* inih calls this for each line it needs; we see the raw text first. */
static char *read_line(char *buf, int cap, void *user)
{
    reader_state *st = user;
    /* Not fgets: it hides a NUL byte, and the rest of a long line with one
     * was then read as a line of its own (fuzzing found keys made up so). */
    size_t len = 0;
    int ch, nul = 0;
    while (len + 1 < (size_t)cap && (ch = getc(st->f)) != EOF) {
        nul |= ch == 0;
        buf[len++] = (char)ch;
        if (ch == '\n')
            break;
    }
    if (len == 0)
        return NULL;
    buf[len] = 0;
    st->line++;
    if (nul)
        fail(st, "NUL byte in line (not a text file?)");
    if (len == (size_t)cap - 1 && buf[len - 1] != '\n' && (ch = getc(st->f)) != EOF) {
        ungetc(ch, st->f);
        fail(st, "line is longer than %d characters", cap - 2);
    }
    /* See the header line as inih will: after a byte order mark on line 1,
     * and however long (a header cut at 511 bytes went unrecorded, and its
     * keys were dropped without an error). */
    char *tmp = bl_strdup(buf);
    char *t = bl_trim(tmp);
    if (st->line == 1 && !strncmp(t, "\xEF\xBB\xBF", 3))
        t = bl_trim(t + 3);
    if (*t == '[') {
        char *close = strchr(t, ']');
        if (close) {
            *close = 0;
            if (strlen(t + 1) > INIH_MAX_SECTION)
                fail(st, "section name longer than %d characters", INIH_MAX_SECTION);
            char *name = bl_trim(t + 1);
            bl_ini_section *old = find_section(st->ini, name);
            if (old) {
                fail(st, "section [%s] appears twice (first at line %d)", name, old->line);
            } else {
                bl_ini *ini = st->ini;
                ini->sec = bl_xrealloc(ini->sec, (ini->nsec + 1) * sizeof *ini->sec);
                bl_ini_section *s = &ini->sec[ini->nsec++];
                memset(s, 0, sizeof *s);
                s->name = bl_strdup(name);
                s->line = st->line;
            }
        }
    }
    free(tmp);
    return buf;
}

static int on_pair(void *user, const char *section, const char *name, const char *value)
{
    reader_state *st = user;
    bl_ini *ini = st->ini;
    if (!*section) {
        fail(st, "key '%s' is outside any [section]", name);
        return 1;
    }
    /* inih passes the name untrimmed ("[ data a ]"); we record it trimmed */
    char sec[INIH_MAX_SECTION + 1];
    snprintf(sec, sizeof sec, "%s", section);
    bl_ini_section *s = ini->nsec ? &ini->sec[ini->nsec - 1] : NULL;
    if (!s || strcmp(s->name, bl_trim(sec)) != 0) {
        /* A repeated section, already reported; never drop a key silently
         * (fuzzing found sections whose keys were lost without a word). */
        fail(st, "key '%s' is in a section that could not be read", name);
        return 1;
    }
    for (size_t j = 0; j < s->n; j++)
        if (strcmp(s->e[j].key, name) == 0) {
            fail(st, "key '%s' is set twice in [%s] (first at line %d)", name, section,
                 s->e[j].line);
            return 1;
        }
    s->e = bl_xrealloc(s->e, (s->n + 1) * sizeof *s->e);
    s->e[s->n].key = bl_strdup(name);
    s->e[s->n].value = bl_strdup(value);
    s->e[s->n].line = st->line;
    s->n++;
    return 1;
}

int bl_ini_read(const char *path, bl_ini *ini, bl_error *err)
{
    memset(ini, 0, sizeof *ini);
    ini->path = bl_strdup(path);
    /* Debian's inih exposes its build options as variables. */
    ini_allow_multiline = 0;
    ini_allow_inline_comments = 1;
    ini_use_stack = 0;
    ini_max_line = 8192;
    ini_allow_realloc = 0;
    /* With the heap buffer, inih reads lines of ini_initial_alloc bytes
     * (200 by default), not ini_max_line: lines were cut at 198 characters. */
    ini_initial_alloc = 8192;
    reader_state st = {fopen(path, "r"), ini, 0, 0, err};
    if (!st.f) {
        bl_errf(err, "%s: cannot open experiment file", path);
        bl_ini_free(ini);
        return -1;
    }
    int rc = ini_parse_stream(read_line, &st, on_pair, &st);
    fclose(st.f);
    if (!st.failed && rc > 0) {
        st.line = rc;
        fail(&st, "syntax error: expected '[section]', 'key = value' or a ; comment");
    } else if (!st.failed && rc < 0) {
        bl_errf(err, "%s: cannot read", path);
        st.failed = 1;
    }
    if (st.failed) {
        bl_ini_free(ini);
        return -1;
    }
    return 0;
}

void bl_ini_free(bl_ini *ini)
{
    for (size_t j = 0; j < ini->nsec; j++) {
        for (size_t k = 0; k < ini->sec[j].n; k++) {
            free(ini->sec[j].e[k].key);
            free(ini->sec[j].e[k].value);
        }
        free(ini->sec[j].e);
        free(ini->sec[j].name);
    }
    free(ini->sec);
    free(ini->path);
    memset(ini, 0, sizeof *ini);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* File-system helpers (see fsutil.h). */
#include "fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void oom(void)
{
    fputs("boostlab: out of memory\n", stderr);
    abort();
}

void *bl_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom();
    return p;
}

void *bl_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        oom();
    return p;
}

void *bl_xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        oom();
    return p;
}

char *bl_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(bl_xmalloc(n), s, n);
}

char *bl_vstrfmt(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int len = vsnprintf(NULL, 0, fmt, ap);
    char *s = bl_xmalloc(len > 0 ? (size_t)len + 1 : 1);
    s[0] = 0;
    if (len > 0)
        vsnprintf(s, (size_t)len + 1, fmt, ap2);
    va_end(ap2);
    return s;
}

char *bl_strfmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = bl_vstrfmt(fmt, ap);
    va_end(ap);
    return s;
}

char *bl_path_join(const char *dir, const char *name)
{
    if (!dir || !*dir || name[0] == '/')
        return bl_strdup(name);
    size_t a = strlen(dir), b = strlen(name);
    char *p = bl_xmalloc(a + b + 2);
    memcpy(p, dir, a);
    size_t o = a;
    if (dir[a - 1] != '/')
        p[o++] = '/';
    memcpy(p + o, name, b + 1);
    return p;
}

char *bl_path_dir(const char *path)
{
    const char *s = strrchr(path, '/');
    if (!s)
        return bl_strdup(".");
    if (s == path)
        return bl_strdup("/");
    size_t n = (size_t)(s - path);
    char *p = bl_xmalloc(n + 1);
    memcpy(p, path, n);
    p[n] = 0;
    return p;
}

int bl_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int bl_dir_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int bl_mkdirs(const char *path, bl_error *err)
{
    char *p = bl_strdup(path);
    for (char *s = p + 1; ; s++) {
        if (*s == '/' || *s == 0) {
            char c = *s;
            *s = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                int e = errno;
                bl_errf(err, "%s: cannot create directory: %s", p, strerror(e));
                free(p);
                return -1;
            }
            if (!bl_dir_exists(p)) {
                bl_errf(err, "%s: exists and is not a directory", p);
                free(p);
                return -1;
            }
            *s = c;
            if (!c)
                break;
        }
    }
    free(p);
    return 0;
}

static char *exe_dir_set;

void bl_set_exe_dir(const char *dir)
{
    free(exe_dir_set);
    exe_dir_set = dir ? bl_strdup(dir) : NULL;
}

char *bl_exe_dir(void)
{
    if (exe_dir_set)
        return bl_strdup(exe_dir_set);
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return NULL;
    buf[n] = 0;
    return bl_path_dir(buf);
}

char *bl_read_file(const char *path, const char *what, size_t *len, bl_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        bl_errf(err, "%s: cannot open %s: %s", path, what, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = bl_xmalloc(cap + 1);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = bl_xrealloc(buf, (cap *= 2) + 1);
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        bl_errf(err, "%s: read error", path);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

char *bl_exe_relative(const char *rel)
{
    char *exe = bl_exe_dir();
    if (!exe)
        return NULL;
    char *prefix = bl_path_dir(exe);
    free(exe);
    char *path = bl_path_join(prefix, rel);
    free(prefix);
    return path;
}

int bl_atomic_open(bl_atomic *a, const char *path, bl_error *err)
{
    a->path = bl_strdup(path);
    a->tmp = bl_xmalloc(strlen(path) + 32);
    sprintf(a->tmp, "%s.tmp.%ld", path, (long)getpid());
    a->f = fopen(a->tmp, "w");
    if (!a->f) {
        bl_errf(err, "%s: cannot write: %s", a->tmp, strerror(errno));
        free(a->path);
        free(a->tmp);
        a->path = a->tmp = NULL;
        return -1;
    }
    return 0;
}

int bl_atomic_commit(bl_atomic *a, bl_error *err)
{
    int bad = ferror(a->f) || fflush(a->f) != 0 || fsync(fileno(a->f)) != 0;
    int e = errno;
    if (fclose(a->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    a->f = NULL;
    if (!bad && rename(a->tmp, a->path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        bl_errf(err, "%s: write failed: %s", a->path, strerror(e));
        remove(a->tmp);
    }
    free(a->path);
    free(a->tmp);
    a->path = a->tmp = NULL;
    return bad ? -1 : 0;
}

void bl_atomic_abort(bl_atomic *a)
{
    if (a->f)
        fclose(a->f);
    if (a->tmp)
        remove(a->tmp);
    free(a->path);
    free(a->tmp);
    a->f = NULL;
    a->path = a->tmp = NULL;
}

int bl_clean_stale_tmp(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *p = bl_path_join(dir, e->d_name);
        const char *tmp = strstr(e->d_name, ".tmp.");
        if (bl_dir_exists(p)) {
            removed += bl_clean_stale_tmp(p);
        } else if (tmp) {
            /* name.tmp.PID, as bl_atomic_open makes them */
            char *end;
            long pid = strtol(tmp + 5, &end, 10);
            if (*end == 0 && pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH &&
                remove(p) == 0)
                removed++;
        }
        free(p);
    }
    closedir(d);
    return removed;
}

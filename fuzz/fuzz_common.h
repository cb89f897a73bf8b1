/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Helpers shared by the libFuzzer harnesses in fuzz/: the readers take a
 * path, so each fuzz input is written to a file in a private temporary
 * directory (under $FUZZ_TMPDIR, else /dev/shm when there is one, to spare
 * the disk, else /tmp), created once per process and removed at exit; plus the plugin registry that the
 * experiment and model loaders need, and a check that an error message
 * names the file it is about.
 */
#ifndef BL_FUZZ_COMMON_H
#define BL_FUZZ_COMMON_H

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugin/loader.h"
#include "util/error.h"

/* Instrumented plugins built by scripts/fuzz.sh (the build folder's
 * plugins/); FUZZ_PLUGIN_DIR in the environment overrides it. */
#ifndef FUZZ_PLUGIN_DIR
#define FUZZ_PLUGIN_DIR BL_BUILD_DIR "/plugins"
#endif

static char fuzz_dir[256];

static inline void fuzz_cleanup(void)
{
    DIR *d = opendir(fuzz_dir);
    if (!d)
        return;
    struct dirent *e;
    char p[512];
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", fuzz_dir, e->d_name);
            unlink(p);
        }
    closedir(d);
    rmdir(fuzz_dir);
}

/* The private directory, created on first use. */
static inline const char *fuzz_tmpdir(void)
{
    if (fuzz_dir[0])
        return fuzz_dir;
    /* scripts/fuzz.sh gives each run its own FUZZ_TMPDIR and removes it
     * afterwards, so a crashed run leaves nothing behind either. */
    const char *base = getenv("FUZZ_TMPDIR");
    if (!base || !*base)
        base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(fuzz_dir, sizeof fuzz_dir, "%s/boostlab-fuzz-XXXXXX", base);
    if (!mkdtemp(fuzz_dir)) {
        perror("mkdtemp");
        abort();
    }
    atexit(fuzz_cleanup);
    return fuzz_dir;
}

/* Path of file `name` inside the private directory. */
static inline void fuzz_path(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", fuzz_tmpdir(), name);
}

/* Replace the contents of path with data[0..n). */
static inline void fuzz_write(const char *path, const uint8_t *data, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) {
        perror(path);
        abort();
    }
    while (n > 0) {
        ssize_t w = write(fd, data, n);
        if (w <= 0) {
            perror(path);
            abort();
        }
        data += w;
        n -= (size_t)w;
    }
    close(fd);
}

/* Every reader error must name the file it is about, or the user cannot
 * tell which input is wrong: a message without the path is a finding. */
static inline void fuzz_check_msg(const bl_error *err, const char *path, const char *path2)
{
    if (strstr(err->msg, path) || (path2 && strstr(err->msg, path2)))
        return;
    fprintf(stderr, "error message does not name %s: %s\n", path, err->msg);
    abort();
}

/* The plugin registry, loaded once (instrumented plugins from the fuzz
 * build, so their parsers are covered too).  It is never freed: unloading
 * instrumented modules while libFuzzer still holds their coverage counters
 * is asking for trouble, and a static stays reachable for LeakSanitizer. */
static bl_registry fuzz_reg;

static inline const bl_registry *fuzz_registry(void)
{
    static int loaded;
    if (loaded)
        return &fuzz_reg;
    const char *dir = getenv("FUZZ_PLUGIN_DIR");
    bl_error err;
    if (bl_registry_load_dir(&fuzz_reg, dir && *dir ? dir : FUZZ_PLUGIN_DIR, 1, &err) < 0) {
        fprintf(stderr, "fuzz: cannot load the plugins: %s\n", err.msg);
        abort();
    }
    if (!bl_registry_find(&fuzz_reg, "stump", 0)) {
        fprintf(stderr, "fuzz: no stump plugin in %s\n", dir && *dir ? dir : FUZZ_PLUGIN_DIR);
        abort();
    }
    loaded = 1;
    return &fuzz_reg;
}

#endif

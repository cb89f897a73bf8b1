/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the unit tests: opening a plugin straight from the
 * build tree (without the loader, so plugin tests do not depend on it) and
 * a tiny host API table. */
#ifndef BL_TESTUTIL_H
#define BL_TESTUTIL_H

#include <boostlab/boostlab.h>
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_log(int level, const char *plugin, const char *fmt, ...)
{
    (void)level;
    (void)plugin;
    (void)fmt;
}

/* A small deterministic generator (xorshift64) for test inputs. */
static uint64_t rng_state;

static inline void rng_seed(uint64_t s)
{
    rng_state = s * 0x9E3779B97F4A7C15ull + 1;
}

static inline double urand(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* Uniform in 0..n-1. */
static inline size_t irand(size_t n)
{
    return (size_t)(urand() * (double)n);
}

static inline double urange(double a, double b)
{
    return a + (b - a) * urand();
}

/* Random labels in 0..k-1 and scores uniform in [-scale, scale]. */
static inline void random_problem(size_t m, size_t k, double scale, int *y, double *F)
{
    for (size_t i = 0; i < m; i++) {
        y[i] = (int)(urand() * (double)k);
        for (size_t r = 0; r < k; r++)
            F[i * k + r] = urange(-scale, scale);
    }
}

static const struct bl_host test_host = {BL_SDK_VERSION, 1, test_log};

/* Descriptor `name` from build-tree module `rel` (e.g. "plugins/loss/margin_exp"). */
static inline const struct bl_plugin *test_plugin(const char *rel, const char *name)
{
    char path[4096];
    const char *slash = strrchr(rel, '/');
    snprintf(path, sizeof path, "%s/%.*s/.libs/%s.so", BL_BUILD_DIR,
             (int)(slash - rel), rel, slash + 1);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    cr_assert_not_null(h, "dlopen %s: %s", path, dlerror());
    bl_plugin_entry_fn entry = (bl_plugin_entry_fn)dlsym(h, "boostlab_plugin_entry");
    cr_assert_not_null(entry, "no entry point in %s", path);
    for (const struct bl_plugin *const *p = entry(&test_host); *p; p++)
        if (strcmp((*p)->name, name) == 0)
            return *p;
    cr_assert_fail("plugin %s not in %s", name, path);
    return NULL;
}

/* Index of parameter `name` in p's schema; fails the test when absent. */
static inline int test_param_index(const struct bl_plugin *p, const char *name)
{
    for (size_t j = 0; j < p->nparams; j++)
        if (strcmp(p->params[j].name, name) == 0)
            return (int)j;
    cr_assert_fail("%s has no parameter %s", p->name, name);
    return -1;
}

/* Default parameter values of a plugin, parsed the simple way (tests only
 * use INT/REAL/BOOL/CHOICE defaults). */
static inline void test_defaults(const struct bl_plugin *p, union bl_value *v)
{
    for (size_t j = 0; j < p->nparams; j++) {
        const struct bl_param_spec *s = &p->params[j];
        switch (s->type) {
        case BL_PARAM_INT: v[j].i = strtoll(s->def, NULL, 10); break;
        case BL_PARAM_REAL: v[j].r = strtod(s->def, NULL); break;
        case BL_PARAM_BOOL: v[j].b = !strcmp(s->def, "true") || !strcmp(s->def, "1"); break;
        case BL_PARAM_CHOICE: {
            int idx = 0;
            const char *c = s->choices;
            size_t n = strlen(s->def);
            while (c && !(strncmp(c, s->def, n) == 0 && (c[n] == '|' || c[n] == 0))) {
                c = strchr(c, '|');
                if (c) c++;
                idx++;
            }
            v[j].choice = idx;
            break;
        }
        case BL_PARAM_STRING: v[j].s = s->def; break;
        }
    }
}

/* A suite's registry of the in-tree plugins: the variable REG and the
 * suite's init and fini functions (TestSuite(name, .init = INIT, .fini =
 * FINI)).  Needs "plugin/loader.h" (or a header that includes it). */
#define TEST_REGISTRY(REG, INIT, FINI)                                                        \
    static bl_registry REG;                                                                   \
    static void INIT(void)                                                                    \
    {                                                                                         \
        bl_error err_;                                                                        \
        memset(&REG, 0, sizeof REG);                                                          \
        cr_assert_eq(bl_registry_load_dir(&REG, BL_BUILD_DIR "/plugins", 1, &err_), 0, "%s",  \
                     err_.msg);                                                               \
    }                                                                                         \
    static void FINI(void) { bl_registry_free(&REG); }

#endif

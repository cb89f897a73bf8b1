/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Placeholder while the real plugin is written: a valid, inert loss. */
#include <boostlab/boostlab.h>

static void *ph_create(const struct bl_host *h, const union bl_value *v, char *err)
{
    (void)h; (void)v; (void)err;
    static int token;
    return &token;
}
static void ph_destroy(void *s) { (void)s; }
static double ph_eval(void *s, const int *y, size_t m, size_t k, const double *F, double *g)
{
    (void)s; (void)y; (void)F;
    if (g)
        for (size_t j = 0; j < m * k; j++)
            g[j] = 0;
    return 0;
}
static const struct bl_loss_ops ops = {ph_create, ph_destroy, ph_eval, NULL, NULL, NULL, NULL};
static const struct bl_plugin desc = {BL_SDK_VERSION, BL_ROLE_LOSS, "placeholder-exhaustive",
                                      "placeholder", NULL, 0, &ops};
static const struct bl_plugin *const list[] = {&desc, NULL};
BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);
const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return list;
}

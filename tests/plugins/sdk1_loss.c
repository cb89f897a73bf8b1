/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Loader fixture: a loss built for SDK 1.7, whose ops table had no size
 * member and another order; the loader must refuse it by its version,
 * before it reads the table. */
#include "fixture_loss.h"

/* The first members of a 1.x loss table. */
struct v1_loss_ops {
    void *(*create)(const struct bl_host *host, const union bl_value *params,
                    char err[BL_ERR_MAX]);
    void (*destroy)(void *self);
    double (*eval)(void *self, const int *y, size_t m, size_t k, const double *F, double *grad);
};

static const struct v1_loss_ops ops = {fx_create, fx_destroy, fx_eval};
static const struct bl_plugin desc = {(1u << 16) | 7u, BL_ROLE_LOSS, "fixture-sdk1",
                                      "a 1.x plugin", fx_params, 1, &ops};
static const struct bl_plugin *const list[] = {&desc, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);
const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return list;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Loader fixture: a parameter whose default is outside its own range. */
#include "fixture_loss.h"

static const struct bl_param_spec params[] = {
    {"rate", BL_PARAM_REAL, "5", 0, 1, NULL, "a rate"},
};
static const struct bl_loss_ops ops = {.size = sizeof(struct bl_loss_ops),
                                       .create = fx_create,
                                       .destroy = fx_destroy,
                                       .eval = fx_eval};
static const struct bl_plugin desc = {BL_SDK_VERSION, BL_ROLE_LOSS, "fixture-baddef",
                                      "bad default", params, 1, &ops};
static const struct bl_plugin *const list[] = {&desc, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);
const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    (void)fx_params;
    return list;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Loader fixture: built for a future SDK major version. */
#include "fixture_loss.h"

static const struct bl_loss_ops ops = {.size = sizeof(struct bl_loss_ops),
                                       .create = fx_create,
                                       .destroy = fx_destroy,
                                       .eval = fx_eval};
static const struct bl_plugin desc = {(BL_SDK_MAJOR + 1) << 16, BL_ROLE_LOSS, "fixture-future",
                                      "from the future", fx_params, 1, &ops};
static const struct bl_plugin *const list[] = {&desc, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);
const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return list;
}

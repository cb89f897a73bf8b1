/* SPDX-License-Identifier: GPL-3.0-or-later */
/* check-plugin fixture: a valid loss plugin ("fixture-wrong-grad") whose
 * gradient is wrong: the squared loss of fixture_loss.h, with the sign of
 * dL/dF flipped on class 1.  The value is right, so only the gradient
 * check (central differences) can tell. */
#include "fixture_loss.h"

static double wg_eval(void *s, const int *y, size_t m, size_t k, const double *F, double *g)
{
    double L = fx_eval(s, y, m, k, F, g);
    if (g && k > 1)
        for (size_t i = 0; i < m; i++)
            g[i * k + 1] = -g[i * k + 1];
    return L;
}

static const struct bl_loss_ops ops = {.size = sizeof(struct bl_loss_ops),
                                       .create = fx_create,
                                       .destroy = fx_destroy,
                                       .eval = wg_eval};
static const struct bl_plugin desc = {BL_SDK_VERSION, BL_ROLE_LOSS, "fixture-wrong-grad",
                                      "squared error with the gradient's sign flipped on class 1 "
                                      "(test fixture)", fx_params, 1, &ops};
static const struct bl_plugin *const list[] = {&desc, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);
const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return list;
}

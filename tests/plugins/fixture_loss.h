/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A tiny valid loss (squared error on the scores against one-hot labels),
 * shared by the loader-test plugins, each of which then breaks one rule. */
#ifndef BL_FIXTURE_LOSS_H
#define BL_FIXTURE_LOSS_H

#include <boostlab/boostlab.h>

static void *fx_create(const struct bl_host *h, const union bl_value *v, char *err)
{
    (void)h; (void)v; (void)err;
    static int token;
    return &token;
}

static void fx_destroy(void *s) { (void)s; }

static double fx_eval(void *s, const int *y, size_t m, size_t k, const double *F, double *g)
{
    (void)s;
    double L = 0;
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++) {
            double e = F[i * k + r] - (y[i] == (int)r);
            L += 0.5 * e * e;
            if (g)
                g[i * k + r] = e;
        }
    return L;
}

static const struct bl_param_spec fx_params[] = {
    {"scale", BL_PARAM_REAL, "1", 0, 10, NULL, "an unused scale"},
};

#endif

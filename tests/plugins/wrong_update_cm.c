/* SPDX-License-Identifier: GPL-3.0-or-later */
/* check-plugin fixture: a valid loss plugin ("fixture-wrong-update-cm")
 * with a lazy update whose class-major variant is wrong: the squared loss
 * of fixture_loss.h (Hessian: h = 1, u = 0), update right, and
 * update_class_major handing out update's m x k arrays untransposed.  Only
 * the update check can tell, once m and k both exceed 1.  Built with
 * ROW_ONLY it is "fixture-update-rm", a right loss with update alone: the
 * host then transposes for learners that need class-major requests. */
#include "fixture_loss.h"

#include <stdlib.h>

static double *buf; /* 3 m k: -dL/dF, h, u (one instance at a time) */

static int wu_hessian(void *s, const int *y, size_t m, size_t k, const double *F,
                      enum bl_hess_form form, double *out)
{
    (void)s, (void)y, (void)F;
    size_t n = m * k;
    for (size_t j = 0; j < n; j++) {
        out[j] = 1.0;
        if (form == BL_HESS_DIAG_RANK1)
            out[n + j] = 0.0;
    }
    return 0;
}

static double wu_update(void *s, const int *y, size_t m, size_t k, const double *F,
                        const uint32_t *moved, size_t nmoved, int hess, const double *d[3])
{
    (void)moved, (void)nmoved;
    size_t n = m * k;
    free(buf);
    if (!(buf = malloc((3 * n + 1) * sizeof *buf)))
        abort();
    double L = fx_eval(s, y, m, k, F, buf);
    for (size_t j = 0; j < n; j++)
        buf[j] = -buf[j];
    wu_hessian(s, y, m, k, F, BL_HESS_DIAG_RANK1, buf + n);
    d[0] = buf;
    d[1] = hess ? buf + n : NULL;
    d[2] = hess ? buf + 2 * n : NULL;
    return L;
}

static const struct bl_loss_ops ops = {.size = sizeof(struct bl_loss_ops),
                                       .create = fx_create,
                                       .destroy = fx_destroy,
                                       .eval = fx_eval,
                                       .hessian = wu_hessian,
#ifdef ROW_ONLY
                                       .update = wu_update};
static const struct bl_plugin desc = {BL_SDK_VERSION, BL_ROLE_LOSS, "fixture-update-rm",
                                      "squared error with a row-major update only (test "
                                      "fixture)", fx_params, 1, &ops};
#else
                                       .update = wu_update,
                                       .update_class_major = wu_update};
static const struct bl_plugin desc = {BL_SDK_VERSION, BL_ROLE_LOSS, "fixture-wrong-update-cm",
                                      "squared error whose update_class_major is not "
                                      "class-major (test fixture)", fx_params, 1, &ops};
#endif
static const struct bl_plugin *const list[] = {&desc, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);
const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return list;
}

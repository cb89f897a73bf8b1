/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loss plugin "hinge": the cost-sensitive multi-class hinge loss of Crammer
 * and Singer, the loss HingeBoost.OC minimises stage-wise (Gao & Koller
 * 2011, eq. (6); hingeboost-oc spec §1.3, §2.3):
 *
 *     L(F) = 1/m sum_i max_r rho_ir,   rho_ir = D(y_i, r) + F_ir - F_iy_i,
 *
 * D the cost matrix (D(y, y) = 0).  With the 0-1 cost it is eq. (3).
 *
 * costs (parameter): empty for the 0-1 cost; k numbers, the cost of
 * mistaking an example of class y (D(y, r) = c_y for r != y); or k*k
 * numbers, D row-major with a zero diagonal.  k is not known when the loss
 * is created, so the count is checked at the first evaluation (a wrong one
 * is logged and makes the loss NaN, which the engine reports).
 *
 * Gradient: the loss is not differentiable where several classes share an
 * example's maximum, e.g. everywhere at F = 0.  The subgradient used
 * spreads the example's 1/m evenly over the tied maximisers (a convex
 * combination of the one-hot subgradients), so no class is favoured by
 * its index: dL/dF_ir = 1/(m t_i) for each of the t_i maximisers r != y_i,
 * dL/dF_iy_i = -(their sum); zero when y_i itself is the maximum.
 *
 * For learned codes (loss.h):
 *   - pair_weights: rho_ir itself (r != y_i), what HingeBoost.OC's max-cut
 *     colours by (spec §2.4, eq. (11)); not clipped, as the spec says.
 *   - hinge_targets: for a two-colour column mu (k values +-1, not
 *     constant), adding s mu_r moves rho_ir by -2 mu_y_i s for the classes
 *     of the other colour and leaves the rest, so
 *         max_r rho_ir = rho+_i + 2 max(0, (rho-_i - rho+_i)/2 - mu_y_i s),
 *     rho-_i / rho+_i the largest residual over the other / same colour
 *     (spec §2.5, eq. (14)-(15)): label mu_y_i, margin (rho- - rho+)/2.
 *     The spec's SVM output s_t is 2 g_t (§2.5.1); these margins are for
 *     g_t itself, so the term is added with step 1 (solver = none) and the
 *     residual update is exactly the one the SVM was asked for.
 */
#include <boostlab/boostlab.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct bl_host *g_host;

enum { P_COSTS, P_COUNT };

static const struct bl_param_spec hinge_params[P_COUNT] = {
    [P_COSTS] = {"costs", BL_PARAM_STRING, "", 0, 0, NULL,
                 "empty: 0-1 cost; k per-class costs; or a k*k cost matrix, row-major, zero "
                 "diagonal (numbers separated by spaces or commas)"},
};

struct hinge {
    double *cost; /* as given: n values */
    size_t n;
    int bad;      /* the count did not match k: logged once */
};

static void hinge_destroy(void *self)
{
    struct hinge *L = self;
    if (L)
        free(L->cost);
    free(L);
}

static void *hinge_create(const struct bl_host *host, const union bl_value *params,
                          char err[BL_ERR_MAX])
{
    (void)host;
    struct hinge *L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    const char *s = params && params[P_COSTS].s ? params[P_COSTS].s : "";
    size_t cap = 0;
    while (*s) {
        while (*s == ' ' || *s == ',' || *s == '\t')
            s++;
        if (!*s)
            break;
        char *end;
        double v = strtod(s, &end);
        if (end == s || !isfinite(v) || v < 0) {
            snprintf(err, BL_ERR_MAX, "costs: value %zu ('%.20s') is not a finite number >= 0",
                     L->n + 1, s);
            hinge_destroy(L);
            return NULL;
        }
        if (L->n == cap) {
            cap = cap ? 2 * cap : 16;
            double *c = realloc(L->cost, cap * sizeof *c);
            if (!c) {
                snprintf(err, BL_ERR_MAX, "out of memory");
                hinge_destroy(L);
                return NULL;
            }
            L->cost = c;
        }
        L->cost[L->n++] = v;
        s = end;
    }
    return L;
}

/* D(y, r); 0-1 when no costs were given. */
static double cost(const struct hinge *L, size_t k, int y, size_t r)
{
    if ((size_t)y == r)
        return 0.0;
    if (L->n == 0)
        return 1.0;
    return L->n == k ? L->cost[y] : L->cost[(size_t)y * k + r];
}

/* Are the costs usable for k classes?  Logs once when not. */
static int costs_ok(struct hinge *L, size_t k)
{
    int ok = L->n == 0 || L->n == k || L->n == k * k;
    for (size_t r = 0; ok && L->n == k * k && k > 1 && r < k; r++)
        ok = L->cost[r * k + r] == 0.0;
    if (!ok && !L->bad) {
        L->bad = 1;
        if (g_host && g_host->log)
            g_host->log(0, "hinge", "costs: %zu values for %zu classes; give none, %zu "
                        "(per class) or %zu (a matrix with a zero diagonal)", L->n, k, k, k * k);
    }
    return ok;
}

static double hinge_eval(void *self, const int *y, size_t m, size_t k, const double *F,
                         double *grad)
{
    struct hinge *L = self;
    if (!costs_ok(L, k))
        return NAN;
    if (grad)
        memset(grad, 0, m * k * sizeof *grad);
    double sum = 0;
    for (size_t i = 0; i < m; i++) {
        const double *f = F + i * k;
        double best = 0.0; /* r = y_i: rho = 0 */
        for (size_t r = 0; r < k; r++) {
            double v = cost(L, k, y[i], r) + f[r] - f[y[i]];
            if (v > best)
                best = v;
        }
        sum += best;
        if (!grad || !(best > 0))
            continue;
        double tol = 1e-12 * (1.0 + fabs(best)), *g = grad + i * k;
        size_t t = 0;
        for (size_t r = 0; r < k; r++)
            if ((int)r != y[i] && cost(L, k, y[i], r) + f[r] - f[y[i]] >= best - tol)
                t++;
        double share = 1.0 / ((double)m * (double)t);
        for (size_t r = 0; r < k; r++)
            if ((int)r != y[i] && cost(L, k, y[i], r) + f[r] - f[y[i]] >= best - tol)
                g[r] = share;
        g[y[i]] = -1.0 / (double)m;
    }
    return m ? sum / (double)m : 0.0;
}

static void hinge_pairs(void *self, const int *y, size_t m, size_t k, const double *F,
                        double *P)
{
    struct hinge *L = self;
    int ok = costs_ok(L, k);
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++)
            P[i * k + r] = !ok ? NAN
                         : (int)r == y[i] ? 0.0
                                          : cost(L, k, y[i], r) + F[i * k + r] - F[i * k + y[i]];
}

static int hinge_targets(void *self, const int *y, size_t m, size_t k, const double *F,
                         const double *col, double *label, double *margin)
{
    struct hinge *L = self;
    if (!costs_ok(L, k))
        return -1;
    int pos = 0, neg = 0;
    for (size_t r = 0; r < k; r++) {
        if (col[r] == 1.0)
            pos = 1;
        else if (col[r] == -1.0)
            neg = 1;
        else
            return -1; /* zeros or reals: not one hinge per example */
    }
    if (!pos || !neg)
        return -1; /* constant: no pair changes */
    for (size_t i = 0; i < m; i++) {
        const double *f = F + i * k;
        double mu = col[y[i]], same = 0.0, other = -HUGE_VAL;
        for (size_t r = 0; r < k; r++) {
            if ((int)r == y[i])
                continue;
            double v = cost(L, k, y[i], r) + f[r] - f[y[i]];
            if (col[r] == mu) {
                if (v > same)
                    same = v;
            } else if (v > other) {
                other = v;
            }
        }
        label[i] = mu;
        margin[i] = 0.5 * (other - same);
    }
    return 0;
}

static const struct bl_loss_ops hinge_ops = {
    .size = sizeof(struct bl_loss_ops),
    .create = hinge_create,
    .destroy = hinge_destroy,
    .eval = hinge_eval,
    .pair_weights = hinge_pairs,
    .hinge_targets = hinge_targets,
};

static const struct bl_plugin hinge_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_LOSS,
    .name = "hinge",
    .doc = "cost-sensitive multi-class hinge loss (Crammer-Singer), 1/m sum_i max_r rho_ir (HingeBoost.OC, eq. (6))",
    .params = hinge_params,
    .nparams = P_COUNT,
    .ops = &hinge_ops,
};

static const struct bl_plugin *const hinge_plugins[] = {&hinge_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    g_host = host;
    return hinge_plugins;
}

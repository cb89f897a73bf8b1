/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loss plugin "mo-exp": the loss AdaBoost.MO minimises (Schapire & Singer
 * 1999; stagewise spec §7.5), a code-space loss (loss.h
 * eval_coded).  With a code M (k x c) the engine keeps one score per code
 * column, f (m x c), and targets Y_il = M[y_i][l]; the loss is AdaBoost.MH's
 * on that multi-label problem,
 *
 *     L(f) = s * sum_i sum_l exp(-Y_il f_il),
 *
 * s = 1 (normalize = none) or 1/m (normalize = examples, the mean over
 * examples: same minimisers and steps, dual weights on a scale that does
 * not grow with m).  With e_il = exp(-Y_il f_il):
 *     dL/df_il = -s Y_il e_il,
 * so -dL/df = s Y e is AdaBoost.MO's weight D(i,l) times its label Y_il up
 * to the normalisation D = e / sum(e); at f = 0 it is s Y.  Entries Y_il = 0
 * (ternary codes: "class not in this dichotomy") give a constant term and
 * no weight.  For +-1 column outputs h_l and one shared step alpha,
 * L(f + alpha h) is minimised at AdaBoost's alpha = 1/2 ln((1+gamma)/(1-gamma)),
 * gamma = sum_il D(i,l) Y_il h_il, whatever s is.
 *
 * Class space.  The SDK requires eval on class scores F (m x k) too: here
 * it is exactly mh-exp's loss, s * sum_i sum_r exp(-Y_ir F_ir) with the
 * one-vs-all targets Y_ir = +1 if r = y_i else -1 (and its exact diagonal
 * Hessian), which is what a recipe with mo-exp but no coding trains
 * (AdaBoost.MH), and what the engine evaluates at F = 0 for the coding's
 * first code() call.  It is not AdaBoost.MO's loss seen through F: that
 * loss is not a function of F = f M^T.
 *
 * Overflow, as in mh-exp.  A plain sum of exponentials cannot be shifted
 * to stay finite and the engine refuses +inf, so every exponent is clamped
 * at C = min(700, 709 - log(n)), n = m c (code space) or m k (class
 * space): each term is at most e^C and their sum at most e^709 < DBL_MAX,
 * so value and gradient are finite for any finite scores.  Beyond the clamp
 * the loss saturates (value and gradient are those at the clamp, not 0, so
 * the worst pairs keep the largest weight); value and gradient agree
 * wherever no exponent is clamped, i.e. for |f_il| < C.
 *
 * Threads (OpenMP, host->threads) with results bit-identical whatever their
 * number: bl_chunked_sum's fixed chunks of examples, added in chunk order.
 */
#include <boostlab/boostlab.h>
#include <boostlab/parallel.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { P_NORMALIZE, P_COUNT };

static const struct bl_param_spec mo_params[P_COUNT] = {
    [P_NORMALIZE] = {"normalize", BL_PARAM_CHOICE, "none", 0, 0, "none|examples",
                     "none: the sum over examples and columns; examples: divided by m (the mean "
                     "over examples)"},
};

struct mo {
    int nthreads;  /* host->threads at create time (>= 1) */
    int normalize; /* 0 none, 1 examples */
};

static void *mo_create(const struct bl_host *host, const union bl_value *params,
                       char err[BL_ERR_MAX])
{
    struct mo *L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(err, BL_ERR_MAX, "out of memory");
        return NULL;
    }
    L->nthreads = host && host->threads > 0 ? host->threads : 1;
    L->normalize = params ? params[P_NORMALIZE].choice : 0;
    return L;
}

static void mo_destroy(void *self)
{
    free(self);
}

/* The exponent clamp for n terms (see the header comment). */
static double mo_clamp(size_t n)
{
    double c = 709.0 - log((double)n);
    return c < 700.0 ? c : 700.0;
}

/* exp(min(-Y s, C)) */
static inline double mo_term(double Y, double s, double C)
{
    double z = -Y * s;
    return exp(z < C ? z : C);
}

/* One pass over examples [i0, i1) of an m x n score matrix S with targets
 * given either as a matrix (Y, code space) or by labels (y: +1 for column
 * y_i, -1 elsewhere, class space).  grad (when not NULL) gets -sc Y e,
 * hess (when not NULL) sc e; returns sum e (unscaled). */
struct mo_ctx {
    const double *Y;
    const int *y;
    size_t n;
    const double *S;
    double *grad, *hess, C, sc;
};

static double mo_rows(void *ctx, size_t i0, size_t i1)
{
    const struct mo_ctx *c = ctx;
    size_t n = c->n;
    double E = 0.0;
    for (size_t i = i0; i < i1; i++) {
        const double *Si = c->S + i * n;
        const double *Yi = c->Y ? c->Y + i * n : NULL;
        size_t yi = c->y ? (size_t)c->y[i] : 0;
        for (size_t l = 0; l < n; l++) {
            double Y = Yi ? Yi[l] : (l == yi ? 1.0 : -1.0), e = mo_term(Y, Si[l], c->C);
            E += e;
            if (c->grad)
                c->grad[i * n + l] = -c->sc * Y * e;
            if (c->hess)
                c->hess[i * n + l] = c->sc * e;
        }
    }
    return E;
}

static double mo_pass(const struct mo *L, const double *Y, const int *y, size_t m, size_t n,
                      const double *S, double *grad, double *hess)
{
    if (m == 0 || n == 0)
        return 0.0;
    double sc = L->normalize == 1 ? 1.0 / (double)m : 1.0;
    struct mo_ctx ctx = {Y, y, n, S, grad, hess, mo_clamp(m * n), sc};
    return sc * bl_chunked_sum(m, L->nthreads, mo_rows, &ctx);
}

/* Code space: AdaBoost.MO's loss on f (m x c) with targets Y (m x c). */
static double mo_eval_coded(void *self, const double *Y, size_t m, size_t c, const double *f,
                            double *grad)
{
    return mo_pass(self, Y, NULL, m, c, f, grad, NULL);
}

/* Class space: mh-exp's loss (see the header comment). */
static double mo_eval(void *self, const int *y, size_t m, size_t k, const double *F,
                      double *grad)
{
    return mo_pass(self, NULL, y, m, k, F, grad, NULL);
}

/* Class space, exact diagonal: sc e_ir, saturated at sc e^C. */
static int mo_hessian(void *self, const int *y, size_t m, size_t k, const double *F,
                      enum bl_hess_form form, double *out)
{
    if (form != BL_HESS_DIAG)
        return -1;
    mo_pass(self, NULL, y, m, k, F, NULL, out);
    return 0;
}

/* ---- descriptor -------------------------------------------------------- */

static const struct bl_loss_ops mo_ops = {
    .size = sizeof(struct bl_loss_ops),
    .create = mo_create,
    .destroy = mo_destroy,
    .eval = mo_eval,
    .hessian = mo_hessian,
    .row_prepare = NULL,
    .row_eval = NULL,
    .row_free = NULL,
    .eval_coded = mo_eval_coded,
};

static const struct bl_plugin mo_plugin = {
    .sdk_version = BL_SDK_VERSION,
    .role = BL_ROLE_LOSS,
    .name = "mo-exp",
    .doc = "AdaBoost.MO's loss on code scores, sum_il exp(-M[y_i][l] f_il) (needs a fixed coding; "
           "without one: mh-exp's loss)",
    .params = mo_params,
    .nparams = P_COUNT,
    .ops = &mo_ops,
};

static const struct bl_plugin *const mo_plugins[] = {&mo_plugin, NULL};

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host);

BL_EXPORT const struct bl_plugin *const *BL_PLUGIN_ENTRY(const struct bl_host *host)
{
    (void)host;
    return mo_plugins;
}

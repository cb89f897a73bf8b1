/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The totally corrective objective's kernels are blocked for speed
 * (framework/engine/objective.c, project.c: RBoost-proj evaluates them ~100
 * times per iteration), and they promise the very bits of the plain loops,
 * so stored results stay valid.  Checked against those loops, written out
 * here as they were, with memcmp:
 *   - bl_coefobj_eval's scores and gradient over t terms, t not a multiple
 *     of the block, scalar- and vector-output terms mixed;
 *   - bl_coefmap_expand and bl_coefmap_fold (outputs and shared maps).
 */
#include <criterion/criterion.h>
#include "testutil.h"

#include "engine/objective.h"
#include "engine/project.h"

/* A loss that keeps the scores it is given and answers a fixed gradient,
 * so the test sees both halves of an evaluation. */
static double seen_F[64 * 8], fixed_grad[64 * 8];

static double fake_eval(void *self, const int *y, size_t m, size_t k, const double *F,
                        double *grad)
{
    (void)self;
    (void)y;
    memcpy(seen_F, F, m * k * sizeof *F);
    if (grad)
        memcpy(grad, fixed_grad, m * k * sizeof *grad);
    return 0.0;
}

static const struct bl_loss_ops fake_ops = {.eval = fake_eval};

/* Values with full mantissas, so that any change of order shows. */
static void fill(double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = urange(-1.0, 1.0) * (1.0 + urand() * 1e-3);
}

Test(coefkernels, objective_scores_and_gradient_are_those_of_the_plain_loops)
{
    enum { M = 37, K = 5, TMAX = 13 };
    rng_seed(7);
    static double outs[TMAX][M * K], W[TMAX * K], Fw[M * K], grad[M * K];
    const double *out[TMAX];
    size_t outdim[TMAX];
    int y[M] = {0};
    fill(fixed_grad, M * K);
    for (size_t t = 1; t <= TMAX; t++) {
        for (size_t j = 0; j < t; j++) {
            /* mostly scalar outputs, with vector ones breaking the blocks */
            outdim[j] = (j % 6 == 5 || (t == 9 && j == 0)) ? K : 1;
            fill(outs[j], M * outdim[j]);
            out[j] = outs[j];
        }
        fill(W, t * K);
        bl_coefobj o;
        bl_coefobj_all(&o, &fake_ops, NULL, y, M, K, t, out, outdim, Fw, grad);
        double g[TMAX * K];
        bl_coefobj_eval(&o, W, g);

        double F[M * K] = {0}, gref[TMAX * K] = {0};
        for (size_t j = 0; j < t; j++)
            for (size_t i = 0; i < M; i++)
                for (size_t r = 0; r < K; r++)
                    F[i * K + r] += (outdim[j] == 1 ? out[j][i] : out[j][i * K + r]) * W[j * K + r];
        for (size_t j = 0; j < t; j++)
            for (size_t i = 0; i < M; i++)
                for (size_t r = 0; r < K; r++)
                    gref[j * K + r] += (outdim[j] == 1 ? out[j][i] : out[j][i * K + r]) *
                                       fixed_grad[i * K + r];
        cr_assert(memcmp(F, seen_F, sizeof F) == 0, "scores differ at t = %zu", t);
        cr_assert(memcmp(gref, g, t * K * sizeof *g) == 0, "gradient differs at t = %zu", t);
    }
}

Test(coefkernels, map_expand_and_fold_are_those_of_the_plain_loops)
{
    enum { K = 3, N = 29, TMAX = 11 };
    rng_seed(11);
    static double cols[TMAX][K * N];
    const double *P[TMAX];
    for (size_t j = 0; j < TMAX; j++) {
        fill(cols[j], K * N);
        P[j] = cols[j];
    }
    double w[N], gW[TMAX * K];
    fill(w, N);
    fill(gW, TMAX * K);
    for (size_t t = 1; t <= TMAX; t++) {
        bl_coefmap map;
        bl_coefmap_outputs(&map, NULL, t, K, N, P);
        double W[TMAX * K], gw[N], Wref[TMAX * K], gwref[N] = {0};
        bl_coefmap_expand(&map, w, W);
        bl_coefmap_fold(&map, gW, gw);
        for (size_t j = 0; j < t; j++)
            for (size_t r = 0; r < K; r++) {
                double s = 0;
                for (size_t v = 0; v < N; v++)
                    s += P[j][r * N + v] * w[v];
                Wref[j * K + r] = s;
                for (size_t v = 0; v < N; v++)
                    gwref[v] += P[j][r * N + v] * gW[j * K + r];
            }
        cr_assert(memcmp(W, Wref, t * K * sizeof *W) == 0, "expand differs at t = %zu", t);
        cr_assert(memcmp(gw, gwref, sizeof gw) == 0, "fold differs at t = %zu", t);
        bl_coefmap_free(&map);

        /* shared: one variable per term */
        bl_coefmap_shared(&map, NULL, t, K);
        double gs[TMAX];
        bl_coefmap_expand(&map, w, W);
        bl_coefmap_fold(&map, gW, gs);
        for (size_t j = 0; j < t; j++) {
            double s = 0;
            for (size_t r = 0; r < K; r++) {
                cr_assert(W[j * K + r] == w[j]);
                s += gW[j * K + r];
            }
            cr_assert(memcmp(&s, &gs[j], sizeof s) == 0, "shared fold differs, term %zu", j);
        }
        bl_coefmap_free(&map);
    }
}

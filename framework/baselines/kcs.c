/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A kernel Crammer-Singer multi-class SVM (hingeboost-oc spec §3.8), and
 * the kernels of method svm.
 *
 * Why our own solver: liblinear's MCSVM_CS is linear only, libsvm has no
 * Crammer-Singer formulation, and Debian 12 packages no kernel one
 * (`apt-cache search` finds neither bsvm nor shogun; checked when this
 * was written).  So the rbf case is solved here, by the sequential dual
 * method of Keerthi et al. (KDD 2008), i.e. liblinear's MCSVM_CS solver
 * with kernel rows in place of w:
 *
 *   min_alpha  1/2 sum_r |w_r|^2 + sum_i sum_r e_i^r alpha_i^r,
 *   w_r = sum_i alpha_i^r phi(x_i),  sum_r alpha_i^r = 0,
 *   alpha_i^r <= C [r = y_i],  e_i^r = [r != y_i]   (no bias, as CS).
 *
 * The gradient G_i^r = w_r.phi(x_i) + e_i^r of every example is kept;
 * each step takes one example i (in a random order per pass), solves its
 * k-variable subproblem exactly by the sort-based rule and adds
 * delta_r K(x_j, x_i) to every G_j^r (one kernel row, from an LRU cache).
 * An example is optimal when max_r G_i^r - min_{r: alpha_i^r < bound}
 * G_i^r <= eps; a pass with no violation above eps stops the solver.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../config/experiment.h"
#include "../util/fsutil.h"
#include "mcsvm.h"

double bl_kern_eval(const bl_kern *kn, const double *a, const double *b, size_t d)
{
    double s = 0;
    if (kn->kind == BL_KERNEL_LINEAR) {
        for (size_t f = 0; f < d; f++)
            s += a[f] * b[f];
        return s;
    }
    for (size_t f = 0; f < d; f++) {
        double t = a[f] - b[f];
        s += t * t;
    }
    /* perceptron: Delta_P - |x - x'| with Delta_P = 0, which the binary
     * SVM's equality constraint makes irrelevant (spec §3.9) */
    return kn->kind == BL_KERNEL_RBF ? exp(-kn->gamma * s) : -sqrt(s);
}

/* LRU cache of kernel rows K(x_i, .). */
typedef struct rowcache {
    size_t m, cap, used, clock;
    long *slot;         /* m: slot of row i or -1  */
    size_t *row, *last; /* cap                      */
    double *data;       /* cap x m                  */
} rowcache;

static void cache_init(rowcache *c, size_t m, size_t mb)
{
    memset(c, 0, sizeof *c);
    c->m = m;
    size_t cap = mb * ((size_t)1 << 20) / ((m ? m : 1) * sizeof(double));
    c->cap = cap < 2 ? 2 : cap > m ? m : cap;
    c->slot = bl_xmalloc((m ? m : 1) * sizeof *c->slot);
    for (size_t i = 0; i < m; i++)
        c->slot[i] = -1;
    c->row = bl_xmalloc(c->cap * sizeof *c->row);
    c->last = bl_xmalloc(c->cap * sizeof *c->last);
    c->data = bl_xmalloc(c->cap * (m ? m : 1) * sizeof *c->data);
}

static void cache_free(rowcache *c)
{
    free(c->slot);
    free(c->row);
    free(c->last);
    free(c->data);
}

static const double *cache_row(rowcache *c, const double *X, size_t d, const bl_kern *kn,
                               size_t i)
{
    size_t s;
    if (c->slot[i] >= 0) {
        s = (size_t)c->slot[i];
    } else {
        if (c->used < c->cap) {
            s = c->used++;
        } else { /* evict the least recently used */
            s = 0;
            for (size_t q = 1; q < c->cap; q++)
                if (c->last[q] < c->last[s])
                    s = q;
            c->slot[c->row[s]] = -1;
        }
        c->row[s] = i;
        c->slot[i] = (long)s;
        double *r = c->data + s * c->m;
        for (size_t j = 0; j < c->m; j++)
            r[j] = bl_kern_eval(kn, X + i * d, X + j * d, d);
    }
    c->last[s] = ++c->clock;
    return c->data + s * c->m;
}

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x > y ? -1 : x < y;
}

/* Example i's subproblem (liblinear's solve_sub_problem): minimise
 * A/2 |a|^2 + B.a subject to sum a = 0, a_r <= bound_r (C for r = yi,
 * else 0); D is scratch of k. */
static void subproblem(double A, const double *B, size_t k, int yi, double C, double *D,
                       double *anew)
{
    memcpy(D, B, k * sizeof *D);
    D[yi] += A * C;
    qsort(D, k, sizeof *D, cmp_desc);
    double beta = D[0] - A * C;
    size_t r;
    for (r = 1; r < k && beta < (double)r * D[r]; r++)
        beta += D[r];
    beta /= (double)r;
    for (r = 0; r < k; r++) {
        double v = (beta - B[r]) / A, hi = (int)r == yi ? C : 0.0;
        anew[r] = v < hi ? v : hi;
    }
}

/* max_r G_r - min over r below its bound of G_r. */
static double violation(const double *G, const double *a, size_t k, int yi, double C)
{
    double mx = -HUGE_VAL, mn = HUGE_VAL;
    for (size_t r = 0; r < k; r++) {
        if (G[r] > mx)
            mx = G[r];
        double hi = (int)r == yi ? C : 0.0;
        if (a[r] < hi - 1e-12 * (C > 1 ? C : 1) && G[r] < mn)
            mn = G[r];
    }
    return mn == HUGE_VAL ? 0.0 : mx - mn;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int bl_kcs_train(const double *X, size_t m, size_t d, const int *y, size_t k, double C,
                 const bl_kern *kern, double eps, int max_epochs, uint64_t seed,
                 size_t cache_mb, bl_kcs *out, bl_error *err)
{
    memset(out, 0, sizeof *out);
    if (k < 2 || !m)
        return bl_errf(err, "the Crammer-Singer SVM needs examples of at least 2 classes");
    double *alpha = bl_xcalloc(m * k, sizeof *alpha), *G = bl_xmalloc(m * k * sizeof *G);
    double *diag = bl_xmalloc(m * sizeof *diag), *B = bl_xmalloc(k * sizeof *B);
    double *D = bl_xmalloc(k * sizeof *D), *anew = bl_xmalloc(k * sizeof *anew);
    double *delta = bl_xmalloc(k * sizeof *delta);
    size_t *perm = bl_xmalloc(m * sizeof *perm), *nzr = bl_xmalloc(k * sizeof *nzr);
    for (size_t i = 0; i < m; i++) {
        diag[i] = bl_kern_eval(kern, X + i * d, X + i * d, d);
        perm[i] = i;
        for (size_t r = 0; r < k; r++)
            G[i * k + r] = (int)r != y[i];
    }
    rowcache cache;
    cache_init(&cache, m, cache_mb);
    uint64_t rs = seed ^ 0x3C6EF372FE94F82Bull;
    double maxv = HUGE_VAL;
    int ep;
    for (ep = 0; ep < max_epochs && maxv > eps; ep++) {
        for (size_t i = m; i > 1; i--) { /* Fisher-Yates */
            size_t q = (size_t)(splitmix(&rs) % i), t = perm[i - 1];
            perm[i - 1] = perm[q];
            perm[q] = t;
        }
        maxv = 0;
        for (size_t t = 0; t < m; t++) {
            size_t i = perm[t];
            double *a = alpha + i * k, *g = G + i * k, A = diag[i];
            double v = violation(g, a, k, y[i], C);
            if (v > maxv)
                maxv = v;
            if (v <= eps || A <= 0)
                continue;
            for (size_t r = 0; r < k; r++)
                B[r] = g[r] - A * a[r];
            subproblem(A, B, k, y[i], C, D, anew);
            size_t nz = 0;
            for (size_t r = 0; r < k; r++) {
                delta[r] = anew[r] - a[r];
                if (fabs(delta[r]) > 1e-14)
                    nzr[nz++] = r;
            }
            if (!nz)
                continue;
            const double *row = cache_row(&cache, X, d, kern, i);
            for (size_t j = 0; j < m; j++) {
                double kij = row[j];
                double *gj = G + j * k;
                for (size_t q = 0; q < nz; q++)
                    gj[nzr[q]] += delta[nzr[q]] * kij;
            }
            memcpy(a, anew, k * sizeof *a);
        }
    }
    /* keep the support vectors */
    size_t nsv = 0;
    for (size_t i = 0; i < m; i++)
        for (size_t r = 0; r < k; r++)
            if (alpha[i * k + r] != 0) {
                nsv++;
                break;
            }
    out->k = k;
    out->d = d;
    out->nsv = nsv;
    out->kern = *kern;
    out->epochs = ep;
    out->violation = maxv;
    out->sv = bl_xmalloc((nsv ? nsv : 1) * (d ? d : 1) * sizeof *out->sv);
    out->alpha = bl_xmalloc((nsv ? nsv : 1) * k * sizeof *out->alpha);
    out->svi = bl_xmalloc((nsv ? nsv : 1) * sizeof *out->svi);
    size_t s = 0;
    for (size_t i = 0; i < m; i++) {
        int any = 0;
        for (size_t r = 0; r < k; r++)
            any |= alpha[i * k + r] != 0;
        if (!any)
            continue;
        memcpy(out->sv + s * d, X + i * d, d * sizeof *X);
        memcpy(out->alpha + s * k, alpha + i * k, k * sizeof *alpha);
        out->svi[s++] = i;
    }
    cache_free(&cache);
    free(alpha);
    free(G);
    free(diag);
    free(B);
    free(D);
    free(anew);
    free(delta);
    free(perm);
    free(nzr);
    return 0;
}

void bl_kcs_scores(const bl_kcs *mo, const double *x, double *f)
{
    for (size_t r = 0; r < mo->k; r++)
        f[r] = 0;
    for (size_t s = 0; s < mo->nsv; s++) {
        double kv = bl_kern_eval(&mo->kern, x, mo->sv + s * mo->d, mo->d);
        const double *a = mo->alpha + s * mo->k;
        for (size_t r = 0; r < mo->k; r++)
            f[r] += a[r] * kv;
    }
}

double bl_kcs_kkt(const bl_kcs *mo, const double *X, size_t m, const int *y, double C)
{
    size_t k = mo->k;
    double *a = bl_xmalloc(m * k * sizeof *a), *g = bl_xmalloc(k * sizeof *g);
    memset(a, 0, m * k * sizeof *a);
    double worst = 0;
    for (size_t s = 0; s < mo->nsv; s++)
        memcpy(a + mo->svi[s] * k, mo->alpha + s * k, k * sizeof *a);
    for (size_t i = 0; i < m && worst < HUGE_VAL; i++) {
        double sum = 0, tol = 1e-9 * (C > 1 ? C : 1);
        for (size_t r = 0; r < k; r++) {
            sum += a[i * k + r];
            if (a[i * k + r] > ((int)r == y[i] ? C : 0.0) + tol)
                worst = HUGE_VAL;
        }
        if (fabs(sum) > tol)
            worst = HUGE_VAL;
        bl_kcs_scores(mo, X + i * mo->d, g);
        for (size_t r = 0; r < k; r++)
            g[r] += (int)r != y[i];
        double v = violation(g, a + i * k, k, y[i], C);
        if (v > worst)
            worst = v;
    }
    free(a);
    free(g);
    return worst;
}

void bl_kcs_free(bl_kcs *mo)
{
    free(mo->sv);
    free(mo->alpha);
    free(mo->svi);
    memset(mo, 0, sizeof *mo);
}

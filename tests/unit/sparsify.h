/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A dense training set's sparse twin for unit tests (SDK 2.1): the stored
 * entries are its non-zero values (NaN included), their bins copied from
 * its quantized view, and each feature's zero bin the bin 0.0 falls in by
 * the cuts (checked against the bins of the dense zeros).  The twin's X.x
 * and Q.bins are NULL, as a host gives a sparse set.  Include after
 * testutil.h. */
#ifndef BL_TEST_SPARSIFY_H
#define BL_TEST_SPARSIFY_H

#include <math.h>

struct sset {
    struct bl_sparse S;
    struct bl_squantized SQ;
    struct bl_train tr;
    size_t *rptr, *cptr;
    uint32_t *rcol, *crow;
    float *rval, *cval;
    uint8_t *rbin, *cbin, *zbin;
};

/* Bin b holds cut[b-1] < v <= cut[b]: 0.0 is in the bin after the cuts
 * below it. */
static inline uint8_t zero_bin(const struct bl_quantized *Q, size_t f)
{
    size_t b = 0;
    while (b + 1 < Q->nbins[f] && Q->cut[f][b] < 0.0f)
        b++;
    return (uint8_t)b;
}

/* Sparse twin of D (dense, feature-major); D outlives it. */
static inline struct sset *sparsify(const struct bl_train *D)
{
    size_t m = D->m, d = D->d, nnz = 0;
    const float *x = D->X.x;
    for (size_t j = 0; j < m * d; j++)
        nnz += x[j] != 0.0f || isnan(x[j]);
    struct sset *T = calloc(1, sizeof *T);
    T->rptr = calloc(m + 1, sizeof *T->rptr), T->cptr = calloc(d + 1, sizeof *T->cptr);
    T->rcol = calloc(nnz + 1, sizeof *T->rcol), T->crow = calloc(nnz + 1, sizeof *T->crow);
    T->rval = calloc(nnz + 1, sizeof *T->rval), T->cval = calloc(nnz + 1, sizeof *T->cval);
    T->rbin = calloc(nnz + 1, 1), T->cbin = calloc(nnz + 1, 1), T->zbin = calloc(d + 1, 1);
    size_t e = 0;
    for (size_t i = 0; i < m; i++) {
        for (size_t f = 0; f < d; f++) {
            float v = x[f * m + i];
            if (v != 0.0f || isnan(v)) {
                T->rcol[e] = (uint32_t)f, T->rval[e] = v, T->rbin[e] = D->Q.bins[f * m + i];
                e++;
            }
        }
        T->rptr[i + 1] = e;
    }
    e = 0;
    for (size_t f = 0; f < d; f++) {
        T->zbin[f] = zero_bin(&D->Q, f);
        for (size_t i = 0; i < m; i++) {
            float v = x[f * m + i];
            if (v != 0.0f || isnan(v)) {
                T->crow[e] = (uint32_t)i, T->cval[e] = v, T->cbin[e] = D->Q.bins[f * m + i];
                e++;
            } else {
                cr_assert_eq(D->Q.bins[f * m + i], T->zbin[f], "feature %zu: 0.0 in bin %u, "
                             "the cuts say %u", f, D->Q.bins[f * m + i], T->zbin[f]);
            }
        }
        T->cptr[f + 1] = e;
    }
    T->S = (struct bl_sparse){m, d, nnz, T->rptr, T->rcol, T->rval, T->cptr, T->crow, T->cval};
    T->SQ = (struct bl_squantized){T->rbin, T->cbin, T->zbin};
    T->tr = *D;
    T->tr.X.x = NULL;
    T->tr.Q.bins = NULL;
    T->tr.S = &T->S;
    T->tr.SQ = &T->SQ;
    return T;
}

static inline void sset_free(struct sset *T)
{
    free(T->rptr), free(T->cptr), free(T->rcol), free(T->crow), free(T->rval), free(T->cval);
    free(T->rbin), free(T->cbin), free(T->zbin);
    free(T);
}

#endif

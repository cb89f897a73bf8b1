/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sparse data sets (dataset.h, struct bl_spmat): building the column half
 * from the rows, converting between dense and sparse storage, the storage
 * choice by density, and implied feature names. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"
#include "dataset.h"

/* Dense copies must stay addressable and sane: 2^31 floats = 8 GiB. */
#define BL_DENSE_MAX ((size_t)1 << 31)

int bl_storage_sparse_pays(size_t m, size_t d, size_t nnz)
{
    return (double)nnz < BL_SPARSE_DENSITY * (double)m * (double)d;
}

int bl_storage_parse(const char *s)
{
    if (!strcmp(s, "auto"))
        return BL_STORAGE_AUTO;
    if (!strcmp(s, "dense"))
        return BL_STORAGE_DENSE;
    if (!strcmp(s, "sparse"))
        return BL_STORAGE_SPARSE;
    return -1;
}

const char *bl_feature_name(char *const *names, size_t f, char buf[32])
{
    if (names)
        return names[f];
    snprintf(buf, 32, "f%zu", f + 1);
    return buf;
}

static void set_view(bl_spmat *s, size_t m, size_t d)
{
    s->view = (struct bl_sparse){m, d, s->nnz, s->rptr, s->rcol, s->rval,
                                 s->cptr, s->crow, s->cval};
}

bl_spmat *bl_spmat_from_csr(size_t m, size_t d, size_t *rptr, uint32_t *rcol, float *rval)
{
    bl_spmat *s = bl_xcalloc(1, sizeof *s);
    size_t nnz = rptr[m];
    s->nnz = nnz;
    s->rptr = rptr;
    s->rcol = rcol ? rcol : bl_xmalloc(sizeof *rcol);
    s->rval = rval ? rval : bl_xmalloc(sizeof *rval);
    s->cptr = bl_xcalloc(d + 1, sizeof *s->cptr);
    s->crow = bl_xmalloc((nnz ? nnz : 1) * sizeof *s->crow);
    s->cval = bl_xmalloc((nnz ? nnz : 1) * sizeof *s->cval);
    for (size_t e = 0; e < nnz; e++)
        s->cptr[s->rcol[e] + 1]++;
    for (size_t f = 0; f < d; f++)
        s->cptr[f + 1] += s->cptr[f];
    /* rows in increasing order, so each column's rows come out increasing */
    size_t *pos = bl_xmalloc((d ? d : 1) * sizeof *pos);
    memcpy(pos, s->cptr, d * sizeof *pos);
    for (size_t i = 0; i < m; i++)
        for (size_t e = rptr[i]; e < rptr[i + 1]; e++) {
            size_t p = pos[s->rcol[e]]++;
            s->crow[p] = (uint32_t)i;
            s->cval[p] = s->rval[e];
        }
    free(pos);
    set_view(s, m, d);
    return s;
}

void bl_spmat_free(bl_spmat *s)
{
    if (!s)
        return;
    free(s->rptr);
    free(s->rcol);
    free(s->rval);
    free(s->cptr);
    free(s->crow);
    free(s->cval);
    free(s);
}

size_t bl_dataset_dense_bytes(const bl_dataset *ds)
{
    return ds->m * ds->d * sizeof(float);
}

int bl_dataset_dense_copy(const bl_dataset *src, bl_dataset *out, bl_error *err)
{
    memset(out, 0, sizeof *out);
    if (src->d && src->m > BL_DENSE_MAX / src->d)
        return bl_errf(err, "%zu rows x %zu features is too large to hold as a dense matrix "
                       "(%.1f GB)", src->m, src->d, (double)bl_dataset_dense_bytes(src) / 1e9);
    size_t m = src->m, d = src->d;
    out->m = m;
    out->d = d;
    out->k = src->k;
    out->y = bl_xmalloc((m ? m : 1) * sizeof *out->y);
    memcpy(out->y, src->y, m * sizeof *out->y);
    if (src->sp) {
        out->x = bl_xcalloc(m * d > 0 ? m * d : 1, sizeof *out->x);
        const bl_spmat *s = src->sp;
        for (size_t f = 0; f < d; f++)
            for (size_t e = s->cptr[f]; e < s->cptr[f + 1]; e++)
                out->x[f * m + s->crow[e]] = s->cval[e];
    } else {
        out->x = bl_xmalloc((m * d > 0 ? m * d : 1) * sizeof *out->x);
        memcpy(out->x, src->x, m * d * sizeof *out->x);
    }
    out->feature_names = bl_xmalloc((d ? d : 1) * sizeof *out->feature_names);
    for (size_t f = 0; f < d; f++) {
        char b[32];
        out->feature_names[f] = bl_strdup(bl_feature_name(src->feature_names, f, b));
    }
    out->class_names = bl_xmalloc((src->k ? src->k : 1) * sizeof *out->class_names);
    for (size_t c = 0; c < src->k; c++)
        out->class_names[c] = bl_strdup(src->class_names[c]);
    return 0;
}

int bl_dataset_densify(bl_dataset *ds, bl_error *err)
{
    if (!ds->sp)
        return 0;
    bl_dataset dense;
    if (bl_dataset_dense_copy(ds, &dense, err) < 0)
        return -1;
    bl_dataset_free(ds);
    *ds = dense;
    return 0;
}

int bl_dataset_sparsify(bl_dataset *ds, bl_error *err)
{
    (void)err;
    if (ds->sp)
        return 0;
    size_t m = ds->m, d = ds->d, nnz = 0;
    size_t *rptr = bl_xmalloc((m + 1) * sizeof *rptr);
    for (size_t j = 0; j < m * d; j++)
        nnz += ds->x[j] != 0.0f; /* NaN != 0: a missing value is stored */
    uint32_t *rcol = bl_xmalloc((nnz ? nnz : 1) * sizeof *rcol);
    float *rval = bl_xmalloc((nnz ? nnz : 1) * sizeof *rval);
    size_t e = 0;
    rptr[0] = 0;
    for (size_t i = 0; i < m; i++) {
        for (size_t f = 0; f < d; f++) {
            float v = ds->x[f * m + i];
            if (v != 0.0f) {
                rcol[e] = (uint32_t)f;
                rval[e++] = v;
            }
        }
        rptr[i + 1] = e;
    }
    ds->sp = bl_spmat_from_csr(m, d, rptr, rcol, rval);
    free(ds->x);
    ds->x = NULL;
    return 0;
}

/* Rows rows[0..n) of a sparse src into out's storage (y, names: caller). */
void bl_spmat_subset(const bl_dataset *src, const size_t *rows, size_t n, bl_dataset *out)
{
    const bl_spmat *s = src->sp;
    size_t nnz = 0;
    for (size_t i = 0; i < n; i++)
        nnz += s->rptr[rows[i] + 1] - s->rptr[rows[i]];
    size_t *rptr = bl_xmalloc((n + 1) * sizeof *rptr);
    uint32_t *rcol = bl_xmalloc((nnz ? nnz : 1) * sizeof *rcol);
    float *rval = bl_xmalloc((nnz ? nnz : 1) * sizeof *rval);
    rptr[0] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t a = s->rptr[rows[i]], len = s->rptr[rows[i] + 1] - a;
        memcpy(rcol + rptr[i], s->rcol + a, len * sizeof *rcol);
        memcpy(rval + rptr[i], s->rval + a, len * sizeof *rval);
        rptr[i + 1] = rptr[i] + len;
    }
    out->sp = bl_spmat_from_csr(n, src->d, rptr, rcol, rval);
}

/* Keep the features f with keep[f] (new index map[f]) of a sparse set. */
void bl_spmat_keep_features(bl_dataset *ds, const size_t *map, size_t dnew)
{
    bl_spmat *s = ds->sp;
    size_t e = 0;
    size_t *rptr = bl_xmalloc((ds->m + 1) * sizeof *rptr);
    rptr[0] = 0;
    for (size_t i = 0; i < ds->m; i++) {
        for (size_t j = s->rptr[i]; j < s->rptr[i + 1]; j++)
            if (map[s->rcol[j]] != (size_t)-1) {
                s->rcol[e] = (uint32_t)map[s->rcol[j]];
                s->rval[e++] = s->rval[j];
            }
        rptr[i + 1] = e;
    }
    uint32_t *rcol = s->rcol;
    float *rval = s->rval;
    s->rcol = NULL;
    s->rval = NULL;
    bl_spmat_free(s);
    ds->sp = bl_spmat_from_csr(ds->m, dnew, rptr, rcol, rval);
}

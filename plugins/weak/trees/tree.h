/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Trees plugin: the hypothesis every tree learner of this plugin returns, a
 * forest of binary trees whose leaves hold sparse class vectors (AOSO: +t for
 * class r, -t for s; a per-class tree: one class; ABC: class k and its base
 * b; K-LogitBoost: all k).  The hypothesis' output on x is the sum over the
 * trees of the vector of the leaf x falls in (outdim k).
 *
 * Routing: x goes left iff !(x_f > thr), so NaN goes left, like the quantized
 * view's bin 0 where missing values sit, unless the node sends missing
 * values right (mr, learnt by the grower).
 */
#ifndef BL_TREES_TREE_H
#define BL_TREES_TREE_H

#include <boostlab/data.h>
#include <stddef.h>
#include <stdint.h>

/* A node: internal (feat >= 0; children left, right) or a leaf (feat < 0;
 * its entries ent[first .. first + count)). */
struct tnode {
    int32_t feat;
    float thr;
    uint32_t a, b;  /* internal: left, right child; leaf: first, count */
    uint32_t mr;    /* internal: NaN goes right                        */
};

struct tentry {
    uint32_t cls;
    double v;
};

struct tree {
    uint32_t nnodes, nent;
    struct tnode *node;   /* node 0 is the root */
    struct tentry *ent;
};

struct forest {
    size_t k, ntrees, cap;
    struct tree *t;
    int apart;  /* no class in two trees or twice in a leaf (forest_seal) */
};

struct forest *forest_new(size_t k);
void forest_free(struct forest *f);
/* Append an empty tree with room for nnodes nodes and nent entries. */
struct tree *forest_add(struct forest *f, uint32_t nnodes, uint32_t nent);

/* out (X->m x k) = the forest's outputs. */
void forest_predict(const struct forest *f, const struct bl_matrix *X, double *out);
/* The same on a sparse matrix, bit for bit what forest_predict gives on it
 * held densely (features past X->d read as 0). */
void forest_predict_sparse(const struct forest *f, const struct bl_sparse *X, double *out);

/* Value of feature f in row i of a sparse matrix: its stored entry (a
 * binary search of the row's increasing features), else 0. */
static inline float sparse_at(const struct bl_sparse *S, size_t i, uint32_t f)
{
    size_t lo = S->rptr[i], hi = S->rptr[i + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (S->rcol[mid] < f)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < S->rptr[i + 1] && S->rcol[lo] == f ? S->rval[lo] : 0.0f;
}
/* Set apart, once the forest is built (forest_add clears it). */
void forest_seal(struct forest *f);
/* F (X->m x k) += w_r times the forest's outputs, as forest_predict and
 * then that addition would give (weak.h predict_add): O(m) a tree when the
 * forest is apart (AOSO, K-LogitBoost, LogitBoost's k one-class trees). */
void forest_predict_add(const struct forest *f, const struct bl_matrix *X, const double *w,
                        double *F);

/* One line of text (snprintf-style length); parse it back, NULL with err. */
int forest_save(const struct forest *f, char *buf, size_t cap);
struct forest *forest_load(const char *text, size_t d, char *err, size_t errcap);

#endif

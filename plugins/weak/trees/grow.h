/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Trees plugin: best-first growth of one binary tree to at most J leaves
 * (Sun et al. 2014 §2.6, after the authors' code), shared by every tree
 * learner of the plugin.  The learner supplies per-example statistics for
 * each node it may split; the grower finds the split with the largest
 * second-order gain and keeps the examples of each node contiguous in one
 * permutation, so the learner can fit leaf values over them afterwards.
 *
 * Statistics come in pairs (a, b): the node's gain is the Newton decrement
 *     sum over pairs  (A_L^2 / B_L + A_R^2 / B_R - A^2 / B) / 2,
 * A, B the sums of a, b over an example set (B = 0 counts as 1, as in the
 * authors' code).  One pair gives the 1-D criteria of AOSO (eq. 30), ABC and
 * LogitBoost (b = count for MART's first-order split); k pairs give
 * K-LogitBoost's diagonal Newton criterion.
 *
 * Missing values (NaN) sit in the quantized view's bin 0 and go left unless
 * the split's gain is strictly larger with them on the right (mr), tried
 * for every candidate of a feature with missing values in the node.
 *
 * Split search: over the quantized view's bins (exact when a feature has
 * no more distinct values than bins), or over sorted raw values (exact,
 * midpoint thresholds, O(m) per feature per node; a value equal to the
 * midpoint, which the node does not hold, goes left, or right with
 * GROW_EXACT_LT as in the authors' code).  Features are searched
 * in parallel (OpenMP) and the winner is picked in feature order, first
 * best on ties, so results do not depend on the number of threads.
 *
 * Sibling subtraction (one pair, bins, `subtract`): when a split's two
 * children have the parent's statistics (the same key), only the smaller
 * child's histograms are built from its examples; the larger child's are
 * the parent's minus the smaller's (Ke et al. 2017, LightGBM; XGBoost's
 * hist method).  Counts stay exact, sums differ from direct ones in the
 * last bits, so the trees can too: `subtract = false` keeps every sum a
 * direct one, added in example order.
 *
 * Sparse training sets (bl_train.S, SQ; binned search only): a node costs
 * the stored entries of its rows plus the bins of all features.  Its
 * histograms come from the rows' CSR entries, each feature's zero bin (the
 * bin of 0.0, holding the rows that store no entry) as the node's totals
 * minus the stored entries' sums (Chen & Guestrin 2016, XGBoost's sparsity-
 * aware search; Ke et al. 2017), and sibling subtraction works as above.
 * With `subtract = false` every bin is a direct sum in example order, the
 * zero bin too, at O(rows x features) a node: then the trees are the dense
 * path's, bit for bit (tests/unit/test_trees_sparse.c).  A split on a
 * feature routes a row by its stored value, else 0.0.
 */
#ifndef BL_TREES_GROW_H
#define BL_TREES_GROW_H

#include <boostlab/data.h>
#include <stddef.h>
#include <stdint.h>

struct grow_params {
    size_t leaves;      /* J: at most this many leaves                   */
    size_t node_size;   /* split a node only if it holds more examples   */
    int exact;          /* search sorted raw values instead of bins (1), or
                           GROW_EXACT_LT: so, with x < midpoint going left */
    int subtract;       /* sibling subtraction (see above)               */
};

/* What a learner supplies: npairs (a, b) pairs per example; choose(),
 * called first for each node that may be split (the root first) or whose
 * histograms a sibling may need, which fixes what the node's statistics are
 * (AOSO: its class pair) and returns their key (nodes with equal keys have
 * the same per-example statistics); fill(), which writes them for the
 * node's examples idx[0..n), in that order, into st (n x 2 npairs).
 * choose() gets the node's parent (GROW_NONE for the root) and sib, a
 * sibling already chosen (else GROW_NONE), whose sums the learner may take
 * from the parent's when subtracting.  choose = NULL: one key for all. */
#define GROW_NONE UINT32_MAX
#define GROW_EXACT_LT 2

struct grow_stats {
    size_t npairs;
    long (*choose)(void *ctx, uint32_t node, uint32_t parent, uint32_t sib, const uint32_t *idx,
                   size_t n);
    void (*fill)(void *ctx, uint32_t node, const uint32_t *idx, size_t n, double *st);
    void *ctx;
    /* Optional: choose() for siblings s and b at once, the keys of
     * choose(s, parent, GROW_NONE) then choose(b, parent, s) into key[0],
     * key[1], so that the learner may overlap the two nodes' work. */
    void (*choose2)(void *ctx, uint32_t s, uint32_t b, uint32_t parent, const uint32_t *is,
                    size_t ns, const uint32_t *ib, size_t nb, long key[2]);
};

struct gnode {
    size_t lo, hi;       /* examples: grow_order()[lo .. hi)              */
    int32_t feat;        /* split feature, or -1 for a leaf               */
    float thr;           /* left iff !(x_feat > thr), but see mr          */
    uint32_t left, right;
    double gain;         /* its best split's gain, -inf when none         */
    int mr;              /* missing values (NaN) go right, not left       */
};

struct grow;

/* Scratch bound to one training set (exact: with each feature's sort). */
struct grow *grow_new(const struct bl_train *tr, size_t max_pairs, size_t max_leaves,
                      int nthreads, int exact);
void grow_free(struct grow *g);

/* Grow one tree; returns the number of nodes (>= 1).  Node 0 is the root,
 * children come after their parent. */
size_t grow_tree(struct grow *g, const struct grow_params *p, const struct grow_stats *st);

/* Wall seconds by phase, summed over the trees grown, when BOOSTLAB_PROFILE
 * is set in the environment (else grow_profile gives NULL): where an
 * iteration's time goes, on any number of threads (bench/README.md). */
enum grow_phase { GP_CHOOSE, GP_FILL, GP_HIST, GP_SUB, GP_PART, GP_EMIT, GP_SETUP, GP_TOTAL, GP_N };
double *grow_profile(struct grow *g);
double grow_now(void);
const struct gnode *grow_nodes(const struct grow *g);
const uint32_t *grow_order(const struct grow *g);
/* Node q's totals of its statistics (2 npairs sums) when they were summed
 * directly over its examples in their order (the node was evaluated, not
 * by subtraction), else NULL: a leaf's value can come from them. */
const double *grow_totals(const struct grow *g, uint32_t node);

#endif

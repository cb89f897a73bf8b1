/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * boostlab plugin SDK: the weak-learner role.  Given the dual weights (the
 * loss's negative gradient) a weak learner returns the hypothesis that best
 * answers them, i.e. the most violated dual constraint, with its "edge".
 * A hypothesis outputs either one value per example (outdim 1; the engine
 * spreads it over classes with a coefficient row) or one value per class
 * (outdim k, e.g. vector trees).  A learner may ask for more than the dual
 * weights in each request (`needs`): the loss's Hessian, for trees with
 * Newton leaf values (LogitBoost and its kin), or per-example labels and
 * target margins, for SVM learners of hinge losses (HingeBoost.OC).
 */
#ifndef BOOSTLAB_WEAK_H
#define BOOSTLAB_WEAK_H

#include "data.h"
#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the engine asks for in one boosting iteration. */
struct bl_fit_request {
    const double *G;   /* m x c dual weights (= -dL/dF), row-major unless
                          class_major (below)                             */
    size_t c;          /* columns of G: k, or 1 for a binary problem       */
    const double *H;   /* m x c Hessian diagonal, or NULL if not available */
    uint64_t seed;     /* for randomised learners; same seed, same answer  */

    /* ---- second-order learners (filled when `needs` asks for them) ------- */
    /* m x c, or NULL: the off-diagonal part of each example's Hessian,
     * d2L / dF_ir dF_is = -Hu_ir Hu_is for r != s (loss.h BL_HESS_DIAG_RANK1).
     * Filled when needs has BL_NEEDS_OFFDIAG. */
    const double *Hu;
    /* The training loss after a candidate step, L(F + shrinkage * D), D the
     * m x c outputs this learner would put in res->out; NULL when the host
     * cannot offer it (e.g. with an output coding).  Costs one loss
     * evaluation, O(mc). */
    double (*trial_loss)(void *ctx, const double *D);
    void *trial_ctx;
    /* ---- margin learners (filled when `needs` has BL_NEEDS_MARGINS) ------
     * m each, or NULL.  Set when the loss is a hinge along the new term
     * (loss.h hinge_targets; e.g. HingeBoost.OC's multi-class hinge with a
     * two-colour code column): example i's loss after adding s(x) times
     * the column is then, up to a constant and the loss's scale,
     *     max(0, margin[i] - label[i] s(x_i)),   label[i] = +-1,
     * so the weak problem is a binary SVM with a per-example target margin
     * (margin[i] may be <= 0: already met at s = 0).  G is filled as
     * always, so a learner that ignores these still works. */
    const double *label;
    const double *margin;
    /* (2.4) Nonzero: G, H and Hu are class-major, c x m each (G[q m + i]),
     * as a learner with BL_NEEDS_CLASS_MAJOR may get them; 0: m x c. */
    int class_major;
};

/* What the weak learner answers. */
struct bl_fit_result {
    void *hyp;         /* new hypothesis, freed with free_hyp              */
    size_t outdim;     /* 1 or c                                          */
    double edge;       /* value of the dual constraint (>= 0); the engine
                          stops when it is <= nu + eps                    */
    double *out;       /* host-allocated m x c: fill with the hypothesis'
                          outputs on the training examples (m x outdim)   */
    /* trees (base models) in this hypothesis, for the convergence count
     * "trees added"; 0 counts as 1 */
    size_t trees;

    /* ---- sparse outputs --------------------------------------------------
     * Optional (the host zeroes the result: nmoved 0 means dense, every
     * entry of out may be nonzero).  moved (m x nmoved, row-major) lists,
     * per example, the classes whose outputs in out may be nonzero, in
     * ascending order, padded with BL_MOVED_NONE; every other entry of out
     * is 0 (+0).  E.g. an AOSO tree's leaf moves one pair: nmoved = 2.  The
     * host then adds the term to the scores on those entries only and tells
     * a loss with `update` (loss.h) which scores moved.  The array is the
     * learner's, valid until its next fit or destroy.  Without moved_out,
     * out is still filled whole (zeros included): the host may hand a
     * fresh buffer to every fit. */
    const uint32_t *moved;
    size_t nmoved;
    /* (2.3) Optional with moved: m x nmoved, the outputs at moved's
     * entries (0 at the padding), the learner's like moved.  When set, the
     * host reads the outputs from here and never from out, which the
     * learner may leave as it found it: no m x c array to clear and fill
     * in each fit (on 41749 rows x 20 classes, 6.7 MB).  The host expands
     * them into out itself (bl_fit_result_expand) when a phase needs them
     * dense (a coefficient solver, an output coding, BOOSTLAB_LAZY=0). */
    const double *moved_out;
};

/* Padding of bl_fit_result.moved (and loss.h's update): no class. */
#define BL_MOVED_NONE UINT32_MAX

/* (2.3) For hosts and tests that read the outputs dense: res->out (m x
 * res->outdim) = what res->moved_out stands for, +0 but at moved's entries;
 * nothing when the learner filled out itself (moved_out NULL).  Entries
 * that break the contract (moved_out without moved lists, a class >=
 * outdim) are skipped; check-plugin reports them. */
static inline void bl_fit_result_expand(const struct bl_fit_result *res, size_t m)
{
    size_t c = res->outdim, nm = res->nmoved;
    if (!res->moved_out || !res->moved)
        return;
    for (size_t i = 0; i < m * c; i++)
        res->out[i] = 0.0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < nm; j++)
            if (res->moved[i * nm + j] < c)
                res->out[i * c + res->moved[i * nm + j]] = res->moved_out[i * nm + j];
}

/* (2.4) For hosts and tests that build a request by hand: r's G, H and Hu
 * (those set, m x r->c each) copied class-major into buf (3 m c doubles,
 * the caller's, alive while r is), the pointers moved there and
 * r->class_major set: what a learner with BL_NEEDS_CLASS_MAJOR may get. */
static inline void bl_fit_request_class_major(struct bl_fit_request *r, size_t m, double *buf)
{
    const double **a[3] = {&r->G, &r->H, &r->Hu};
    size_t c = r->c;
    for (size_t t = 0; t < 3; t++) {
        if (!*a[t])
            continue;
        double *d = buf + t * m * c;
        for (size_t i = 0; i < m; i++)
            for (size_t l = 0; l < c; l++)
                d[l * m + i] = (*a[t])[i * c + l];
        *a[t] = d;
    }
    r->class_major = 1;
}

/* What a learner asks the engine to put in each request (bl_weak_ops.needs). */
enum bl_weak_needs {
    BL_NEEDS_HESSIAN = 1, /* req->H: the loss's Hessian diagonal           */
    BL_NEEDS_OFFDIAG = 2, /* req->Hu too (implies BL_NEEDS_HESSIAN)        */
    BL_NEEDS_MARGINS = 4, /* req->label and req->margin whenever the loss
                             and code can give them (NULL otherwise; the
                             learner then answers G)                    */
    /* G, H and Hu class-major when the host can (req->class_major says
     * whether it did): for a learner whose nodes read a few classes of many
     * examples.  The engine does in class space, on every training set
     * (2.4; for a plugin built against 2.2 or 2.3, on sparse sets only);
     * the loss writes them so when it can (loss.h update_class_major), else
     * the host transposes. */
    BL_NEEDS_CLASS_MAJOR = 8
};

typedef void (*bl_weak_predict_add_fn)(const void *hyp, const struct bl_matrix *X,
                                       const double *w, size_t k, double *F);

struct bl_weak_ops {
    /* sizeof(struct bl_weak_ops) (plugin.h, "ops tables"). */
    size_t size;

    /* ---- learning ---------------------------------------------------------- */
    /* New learner bound to one training set; precompute what it needs
     * (sort orders, histograms).  The training set outlives the learner. */
    void *(*create)(const struct bl_host *host, const union bl_value *params,
                    const struct bl_train *train, char err[BL_ERR_MAX]);
    void (*destroy)(void *self);
    /* BL_NEEDS_* flags (0: nothing beyond G): what fit() needs in its
     * requests.  The engine refuses to run the learner with a loss that
     * cannot provide them (no hessian op, or not in the BL_HESS_DIAG_RANK1
     * form), or with an output coding. */
    unsigned needs;
    /* Solve one weak-learning problem.  Returns 0, or -1 with err set. */
    int (*fit)(void *self, const struct bl_fit_request *req,
               struct bl_fit_result *res, char err[BL_ERR_MAX]);

    /* ---- hypotheses ---------------------------------------------------------
     * They do not need the learner: they are predicted, saved and loaded on
     * their own (model files, boostlab predict). */
    size_t (*outdim)(const void *hyp);
    /* out is X->m x outdim, row-major. */
    void (*predict)(const void *hyp, const struct bl_matrix *X, double *out);
    /* Optional: F (X->m x k, row-major) += the hypothesis' outputs on X
     * times w (k coefficients): F_ir += w_r out_ir (outdim k) or w_r out_i
     * (outdim 1), each F_ir getting the product of w_r and its whole
     * output, so that F ends equal to what predict and then that addition
     * give.  Outputs that are zero may be skipped (with finite w, adding
     * w_r 0 changes F_ir only from -0 to +0).  Worth it for hypotheses whose
     * outputs are mostly zero: a vector tree's leaf holds 2 of k classes,
     * so scoring costs O(m) per tree instead of O(m k).  NULL: the host
     * calls predict and adds. */
    bl_weak_predict_add_fn predict_add;
    /* One line of text without newline; returns the length it needs (like
     * snprintf), writing at most cap bytes. */
    int (*save)(const void *hyp, char *buf, size_t cap);
    /* Parse what save wrote; NULL with err set on a malformed line.  d is
     * the number of features of the model's data. */
    void *(*load)(const char *text, size_t d, char err[BL_ERR_MAX]);
    void (*free_hyp)(void *hyp);

    /* ---- sparse data --------------------------------------------------------
     * Optional: out (X->m x outdim, row-major) = the hypothesis' outputs on
     * a sparse matrix, equal to what predict gives on the same matrix held
     * densely.  Setting it also declares that create and fit take a sparse
     * training set (bl_train.S and .SQ set, X.x and Q.bins NULL); without it
     * the host densifies sparse data for this learner. */
    void (*predict_sparse)(const void *hyp, const struct bl_sparse *X, double *out);
};

#ifdef __cplusplus
}
#endif
#endif

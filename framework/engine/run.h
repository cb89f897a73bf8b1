/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Inside the engine: the state of one training run and the score-space
 * strategies that bl_boost's loop calls (engine.c).  The loop is the same
 * for every algorithm; what differs is the space the loss sees scores in
 * and how a weak answer becomes a term:
 *
 *   class    F (m x k), the loss's eval; the weak learner answers G     space_class.c
 *   coded    class space through an output code chosen each iteration
 *            (fixed, or learned by the coding's recolor)                space_coded.c
 *   code     code space: scores f (m x c) on a fixed code, eval_coded   space_code.c
 *   inputs   projected inputs: the learner sees the m k projected points  space_project.c
 *   outputs  projected outputs: n weak problems per iteration            space_project.c
 *
 * Stage-wise or totally corrective is the solver's scope, orthogonal to
 * the space; each strategy's coefficient phase handles both (coef.c holds
 * what they share).  A strategy keeps its own state (r->st) and reads the
 * shared fields below; not a public interface.
 */
#ifndef BL_ENGINE_RUN_H
#define BL_ENGINE_RUN_H

#include <boostlab/loss.h>
#include <boostlab/solver.h>
#include <boostlab/weak.h>

#include "engine.h"
#include "objective.h"
#include "project.h"

struct bl_space;

typedef struct bl_run {
    const bl_boost_cfg *cfg;
    const struct bl_train *tr;
    const struct bl_matrix *Xt; /* test inputs, or NULL */
    /* what the weak learner trains on and the test inputs as its
     * hypotheses see them: tr and Xt, but for projected inputs */
    const struct bl_train *wtr;
    const struct bl_matrix *Xth;
    const struct bl_sparse *Sth; /* sparse test inputs (Xth: m, d only) */
    size_t m, k, mt;
    size_t T;                   /* the iteration budget (at least 1) */
    const struct bl_loss_ops *lo;
    const struct bl_weak_ops *wo;
    const struct bl_solver_ops *so; /* NULL: solver = none */
    void *loss, *weak, *solver;
    int tc;                     /* the solver re-fits every term     */
    /* the scores the loss sees are m x ns (ns = k, or a code's columns) */
    size_t ns;
    double *F, *Ft;             /* class scores: train m x k, test mt x k */
    double *G, *grad, *Fw;      /* dual weights, gradient, scratch: m x ns */
    /* the newest term: its weak outputs on train (m x wide), their class
     * form (m x tod; the same array when nothing decodes them), its class
     * outputs on test (mt x k) and test scratch (mt x wide) */
    size_t wide, tod;
    double *out, *cls, *tout, *tscratch;
    /* what the weak learner needs from the loss (BL_NEEDS_*) and the
     * Hessian it gets: h then u (2 m k) or h only (m k) */
    unsigned needs;
    double *hess;
    /* the solver's variables and bounds (room for wcap) */
    double *w, *lower, *upper;
    size_t wcap;
    /* totally corrective: every term's outputs on train and test, and
     * their width (1 or k; c in code space) */
    double **trout, **touts;
    size_t *outdim;
    const struct bl_space *sp;
    void *st;                   /* the strategy's own state */
    /* the lazy hand-off (class space, loss.h update): the loss's own
     * derivatives at F (-dL/dF, then h and u or NULL), and the entries the
     * newest term moved (weak.h bl_fit_result.moved; NULL: all of them) */
    int lazy;
    const double *ld[3];
    /* class space, a learner with BL_NEEDS_CLASS_MAJOR (one of SDK 2.2 or
     * 2.3: and a sparse set): its requests class-major; cmb: the host's
     * transposed copies (3 m k) when the loss cannot write that layout */
    int cm;
    double *cmb;
    const uint32_t *moved;
    size_t nmoved;
    /* their values (bl_fit_result.moved_out) where add_moved reads them so
     * (no solver), else NULL: out holds them */
    const double *moved_out;
    /* lazy runs: each training row's first argmax of F, and how many of
     * them miss the label (kept up to date from what moved) */
    int *amax;
    size_t wrong;
} bl_run;

/* One score space.  Every operation returns 0, or -1 with err set. */
typedef struct bl_space {
    const char *name;
    /* Set-up once the plugins exist: the strategy's state, r->ns and
     * r->wide.  May leave state behind on failure (free cleans it). */
    int (*init)(bl_run *r, bl_model *mo, bl_error *err);
    /* The loss at the current scores, its gradient in r->grad. */
    double (*loss)(bl_run *r);
    /* The weak step on the dual weights r->G: a hypothesis (res) whose
     * training outputs are in r->out. */
    int (*fit)(bl_run *r, int it, bl_model *mo, struct bl_fit_result *res, bl_error *err);
    /* Check the answer's shape and add it to the model (which owns the
     * hypothesis from then on, even on failure); r->cls and r->tod hold
     * its class-form outputs after. */
    int (*add)(bl_run *r, int it, bl_model *mo, struct bl_fit_result *res, bl_error *err);
    /* The coefficients of the newest term, or of all terms. */
    int (*coef)(bl_run *r, bl_model *mo, int *iters, bl_error *err);
    /* Scores on train and test after the coefficients. */
    void (*scores)(bl_run *r, const bl_model *mo);
    /* The l1 norm of the solver's variables (rel_tol's objective). */
    double (*penalty)(const bl_run *r, const bl_model *mo);
    void (*free)(bl_run *r);
} bl_space;

extern const bl_space bl_space_class, bl_space_coded, bl_space_code, bl_space_inputs,
    bl_space_outputs;

/* ---- shared by the strategies (space_class.c) ---------------------------- */

/* The training error rate at F (bl_error_rate's, from r->amax when kept). */
double bl_run_train_error(const bl_run *r);
/* The loss on the class scores F (class, coded, inputs, outputs). */
double bl_run_class_loss(bl_run *r);
/* Train and test class scores after the newest term's coefficients. */
void bl_run_class_scores(bl_run *r, const bl_model *mo);
/* The l1 norm of every term's k coefficients. */
double bl_run_class_penalty(const bl_run *r, const bl_model *mo);
/* The Hessian set-up for a learner with BL_NEEDS_HESSIAN, and its fill at
 * the current F before each fit after the first. */
int bl_run_needs_init(bl_run *r, bl_error *err);
int bl_run_hessian(bl_run *r, int it, struct bl_fit_request *req, bl_error *err);
/* A weak fit on the request; the learner's message becomes err. */
int bl_run_fit(bl_run *r, const struct bl_fit_request *req, struct bl_fit_result *res,
               bl_error *err);

/* ---- the coefficient phase (coef.c) -------------------------------------- */

/* Room for n solver variables. */
void bl_run_reserve(bl_run *r, size_t n);
/* Run the solver on o over r->w[0..n) from its current values (bounds
 * [0, inf) when nonneg, else free); the solver sees map's variables when
 * map is not NULL. */
int bl_run_solve(bl_run *r, bl_coefobj *o, bl_coefmap *map, size_t n, int *iters,
                 bl_error *err);
/* Keep the newest term's training outputs (m x width) for a totally
 * corrective solver. */
void bl_run_keep_outputs(bl_run *r, const bl_model *mo, const double *s, size_t width);
/* The newest term's row, stage-wise: from w = 0 then shrinkage, or the
 * shrinkage step without a solver; one coefficient for every class when
 * shared (projected inputs). */
int bl_coef_stagewise(bl_run *r, bl_model *mo, int shared, int *iters, bl_error *err);
/* The totally corrective objective over every class-form term (keeping the
 * newest term's outputs), with room for nvars solver variables. */
void bl_coef_all_objective(bl_run *r, const bl_model *mo, bl_coefobj *o, size_t nvars);
/* Solve o through map over nvars variables from r->w, then set every
 * term's row from the map's expansion; frees the map. */
int bl_coef_mapped(bl_run *r, bl_model *mo, bl_coefobj *o, bl_coefmap *map, size_t nvars,
                   int *iters, bl_error *err);
/* Stage-wise or totally corrective coefficients of class-form terms, the
 * solver's variables being the coefficient rows themselves. */
int bl_coef_class(bl_run *r, bl_model *mo, int *iters, bl_error *err);

/* Gc = G M (m x c): dual weights seen through a code's columns. */
void bl_encode(const double *G, size_t m, size_t k, const double *M, size_t c, double *Gc);
/* cls = out M^T (m x k): a code's column outputs mapped back to classes. */
void bl_decode(const double *out, size_t m, size_t k, const double *M, size_t c, double *cls);

#endif

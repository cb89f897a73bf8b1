/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `boostlab check-plugin`: run a plugin's role contract (docs/sdk.md,
 * include/boostlab/ headers) on random problems.  This header is shared by the
 * driver (check.c: picking the checks by role, running each one in a child
 * process so a crash or a hang is reported instead of ending the run,
 * printing the report) and the role files check_loss.c, check_weak.c,
 * check_solver.c, check_coding.c, check_task.c and check_projection.c,
 * which hold the checks themselves.
 *
 * A check runs its property on several sizes and random seeds.  When a
 * case fails it shrinks it: the same property is retried on successively
 * smaller problems drawn with the same seed scheme (and, where that reads
 * better, with simpler values), and the smallest case that still fails is
 * what the report prints.
 */
#ifndef BL_CHECK_CHECK_H
#define BL_CHECK_CHECK_H

#include <boostlab/boostlab.h>
#include <stdint.h>
#include <stdio.h>

/* ---- growable text ------------------------------------------------------ */

typedef struct chk_buf {
    char *s;              /* NUL-terminated; NULL while empty */
    size_t len, cap;
} chk_buf;

void chk_printf(chk_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void chk_clear(chk_buf *b);
void chk_buf_free(chk_buf *b);
const char *chk_str(const chk_buf *b); /* "" when empty */

/* A number written so that it reads back to the same double, but no
 * longer than that (0.5, not 0.50000000000000000). */
void chk_num(chk_buf *b, double x);
/* name=[a, b, c] and name=[[a, b], [c, d]] (rows x cols, row-major). */
void chk_vec(chk_buf *b, const char *name, const double *a, size_t n);
void chk_mat(chk_buf *b, const char *name, const double *a, size_t rows, size_t cols);
void chk_ivec(chk_buf *b, const char *name, const int *a, size_t n);

/* ---- random numbers (splitmix64; the same on every platform) ------------ */

typedef struct chk_rng {
    uint64_t s;
} chk_rng;

void chk_rng_seed(chk_rng *r, uint64_t seed);
uint64_t chk_next(chk_rng *r);
double chk_unif(chk_rng *r);                  /* [0, 1)         */
double chk_range(chk_rng *r, double a, double b);
size_t chk_below(chk_rng *r, size_t n);       /* 0 .. n-1 (n >= 1) */

/* ---- one check ------------------------------------------------------------ */

enum chk_status { CHK_PASS = 0, CHK_FAIL = 1, CHK_SKIP = 2 };

struct chk_def;

typedef struct chk_ctx {
    const struct chk_def *def; /* the check being run */
    const struct bl_plugin *p;
    const union bl_value *v;  /* parameter values every instance is created with */
    const struct bl_host *host;
    uint64_t seed;            /* --seed */
    int trials;               /* --trials: random problems per size */
    int verbose;
    int progress_fd;          /* where chk_case reports to (-1: nowhere) */
    /* Tasks: the class names of the data sets (--classes; their count is
     * then the only k tried), or NULL for k = 2 .. 5 named c0, c1, ... */
    const char *const *class_names;
    size_t nclasses;
    /* Tasks: a real data set (--data) whose random row subsets the task is
     * opened on instead of random rows, or NULL.  A bl_dataset. */
    const void *data;
    /* What the check reports: a one-line detail, and for a FAIL the
     * smallest failing input (several lines, printed indented). */
    chk_buf detail, input, info;
} chk_ctx;

typedef enum chk_status (*chk_fn)(chk_ctx *c);

typedef struct chk_def {
    const char *name;         /* "gradient": printed as ROLE/NAME */
    chk_fn run;
    /* For the checks that run one property of the role's search (run
     * reads them from c->def): which property, and the detail of a pass. */
    int prop;
    const char *pass;
} chk_def;

/* The checks of each role, in the order they run. */
extern const chk_def chk_loss_checks[];
extern const size_t chk_loss_count;
extern const chk_def chk_weak_checks[];
extern const size_t chk_weak_count;
extern const chk_def chk_solver_checks[];
extern const size_t chk_solver_count;
extern const chk_def chk_coding_checks[];
extern const size_t chk_coding_count;
extern const chk_def chk_task_checks[];
extern const size_t chk_task_count;
extern const chk_def chk_projection_checks[];
extern const size_t chk_projection_count;

/* Seed of case n of check `tag`, derived from --seed. */
uint64_t chk_seed(const chk_ctx *c, const char *tag, uint64_t n);
/* Announce the case about to run: if the plugin crashes or hangs in it,
 * the report names it. */
void chk_case(chk_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Set the one-line detail (replacing what was there). */
void chk_detail(chk_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- shrinking and reporting a failing case --------------------------------- */

/* What chk_shrink_report needs of a role's cases (the case type is the
 * role's own, and so is state, its search's state). */
typedef struct chk_case_ops {
    /* 1 when case cs fails: the reason in why, the numbers in more */
    int (*run)(void *state, void *cs, chk_buf *why, chk_buf *more);
    /* replace the failing case cs by the smallest case that still fails */
    void (*shrink)(chk_ctx *c, void *state, void *cs);
    /* case cs as the report shows it */
    void (*describe)(chk_buf *b, const void *cs);
} chk_case_ops;

/* Case cs has failed (why, more): shrink it, run the smallest case again
 * and report it: the detail is prefix and its reason, the input "smallest
 * failing input (first seen at SEEN, seed S):", the case and its numbers.
 * Should it pass when run again, the result varies between runs, and the
 * report is of orig (a copy of cs as it first failed) with the first
 * reason.  Leaves why and more as scratch. */
void chk_shrink_report(chk_ctx *c, const chk_case_ops *ops, void *state, void *cs,
                       const void *orig, const char *prefix, const char *seen, uint64_t seed,
                       chk_buf *why, chk_buf *more);

/* ---- parameter values ------------------------------------------------------- */

/* One parameter set to test: the base values with one parameter moved to a
 * bound of its range, to a choice or to a boolean value. */
typedef struct chk_variant {
    char label[160];          /* "max_iter=1" */
    union bl_value *v;        /* nparams values (malloc'ed) */
    size_t index;             /* its place in the list, from 0 */
} chk_variant;

/* Every variant of p's schema around base (INT/REAL: each finite bound;
 * BOOL: both values; CHOICE: every choice; STRING: none).  Returns the
 * count; free with chk_variants_free. */
size_t chk_variants(const struct bl_plugin *p, const union bl_value *base, chk_variant **out);
void chk_variants_free(chk_variant *vs, size_t n);

/* Try variant var: PASS, or FAIL with the detail set (starting with
 * prefix, "with LABEL: ", where the failure is the variant's). */
typedef enum chk_status (*chk_variant_fn)(chk_ctx *c, const chk_variant *var,
                                          const char *prefix);

/* The "params" check of every role: fn on each variant of the plugin's
 * schema around c->v until one fails; SKIP when there is none.  The detail
 * of a pass: "N parameter values at bounds or choices: PASS (LABELS)". */
enum chk_status chk_params(chk_ctx *c, chk_variant_fn fn, const char *pass);

/* ---- the driver ---------------------------------------------------------------- */

typedef struct chk_opts {
    uint64_t seed;
    int trials;
    int verbose;
    int fork;                 /* run every check in a child process */
    unsigned timeout;         /* seconds per check in a child; 0 = none */
    const char *const *class_names; /* tasks: --classes (NULL: none) */
    size_t nclasses;
    const void *data;         /* tasks: --data, a bl_dataset (NULL: none) */
} chk_opts;

typedef struct chk_tally {
    size_t plugins, pass, fail, skip;
} chk_tally;

/* Run every check of p's role with parameter values v (nparams of them;
 * note, when not NULL, says which differ from the defaults), printing one
 * line per check to out.  Adds to *t; returns the number of failed checks.
 * A role this host has no contract for (none of the roles the loader
 * accepts) is reported and counted as a failure: there is nothing the host
 * can run. */
size_t chk_plugin(const struct bl_plugin *p, const char *file, const union bl_value *v,
                  const char *note, const chk_opts *o, FILE *out, chk_tally *t);


#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * boostlab plugin SDK: the descriptor every plugin exports, the parameter
 * schema the host validates against, and the host API table handed to
 * plugins.  A plugin is a shared object exporting exactly one symbol,
 * BL_PLUGIN_ENTRY (see the bottom of this file); it never links against the
 * boostlab executable, everything it needs from the host comes through
 * struct bl_host.
 */
#ifndef BOOSTLAB_PLUGIN_H
#define BOOSTLAB_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* SDK version.  The host refuses a plugin whose major differs or whose minor
 * is newer than the host's: minors only ever add fields at struct ends (and
 * roles).  So a host of minor N loads plugins of minors 0..N, and it reads a
 * field added in minor j only from a plugin whose descriptor says minor >= j
 * (an older plugin's op table simply ends before it).  1.1 added the coding
 * role; 1.2 added bl_loss_ops.eval_coded (code-space losses) and row_hessian
 * (loss.h), and the solver fields space, penalty and bl_objective.hessian
 * (solver.h); 1.3 added the Hessian form BL_HESS_DIAG_RANK1 (loss.h) and,
 * for tree learners with Newton leaf values, the weak learner's `needs`,
 * the request's Hu and trial loss and the result's tree count (weak.h);
 * 1.4 added the structured-task role (task.h); 1.5 the random-projection
 * role (projection.h); 1.6 what HingeBoost.OC and AdaBoost.ERP need: a
 * loss's pair weights and hinge targets (loss.h), a coding's recolor step
 * (coding.h) and the request's label and margin (weak.h); 1.7 the weak
 * learner's optional predict_add (weak.h). */
#define BL_SDK_MAJOR 1
#define BL_SDK_MINOR 7
#define BL_SDK_VERSION ((BL_SDK_MAJOR << 16) | BL_SDK_MINOR)
/* Major and minor of a descriptor's sdk_version. */
#define BL_SDK_MAJOR_OF(v) ((unsigned)((v) >> 16))
#define BL_SDK_MINOR_OF(v) ((unsigned)((v) & 0xffffu))
/* Does a plugin built with sdk_version v have the fields of minor `minor`? */
#define BL_SDK_HAS(v, minor) (BL_SDK_MAJOR_OF(v) == BL_SDK_MAJOR && BL_SDK_MINOR_OF(v) >= (minor))

/* Room for a plugin's error message (including the terminating NUL). */
#define BL_ERR_MAX 512

/* ---- roles ------------------------------------------------------------ */

enum bl_role {
    BL_ROLE_LOSS = 1,   /* struct bl_loss_ops   (boostlab/loss.h)   */
    BL_ROLE_WEAK = 2,   /* struct bl_weak_ops   (boostlab/weak.h)   */
    BL_ROLE_SOLVER = 3, /* struct bl_solver_ops (boostlab/solver.h) */
    BL_ROLE_CODING = 4, /* struct bl_coding_ops (boostlab/coding.h), SDK 1.1 */
    BL_ROLE_PROJECTION = 5, /* struct bl_projection_ops (boostlab/projection.h), SDK 1.5 */
    BL_ROLE_TASK = 6    /* struct bl_task_ops   (boostlab/task.h), SDK 1.4 */
};

/* ---- parameter schema -------------------------------------------------- */

enum bl_ptype {
    BL_PARAM_INT = 1,    /* int64; range [min, max] inclusive          */
    BL_PARAM_REAL = 2,   /* double, finite; range [min, max] inclusive */
    BL_PARAM_BOOL = 3,   /* true/false, yes/no, on/off, 1/0            */
    BL_PARAM_CHOICE = 4, /* one word of `choices` ("a|b|c"); value is its index */
    BL_PARAM_STRING = 5  /* free text                                  */
};

/* One parameter a plugin accepts.  The host parses and range-checks INI
 * values against this before the plugin sees them. */
struct bl_param_spec {
    const char *name;      /* [a-z0-9_]+                                */
    enum bl_ptype type;
    const char *def;       /* default, as it would be written in an INI */
    double min, max;       /* INT/REAL only; use -HUGE_VAL/HUGE_VAL for open */
    const char *choices;   /* CHOICE only: "exp|log"                     */
    const char *doc;       /* one line                                  */
};

/* A parsed value; the host passes plugins an array of these in schema
 * order, so plugins index it with their own enum. */
union bl_value {
    int64_t i;
    double r;
    int b;
    int choice;
    const char *s;
};

/* ---- host API ---------------------------------------------------------- */

/* The table the host hands every plugin.  Plugins call back only through
 * this, so they never need symbols from the executable. */
struct bl_host {
    uint32_t sdk_version;   /* BL_SDK_VERSION of the host               */
    /* Number of threads a plugin may use for one call (>= 1). */
    int threads;
    /* Diagnostic on stderr, prefixed with the plugin name; level 0 = warning,
     * 1 = info, 2 = debug (shown with -v / -vv). */
    void (*log)(int level, const char *plugin, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
};

/* ---- descriptor -------------------------------------------------------- */

/* What a plugin says about itself.  `ops` points at the role's op table,
 * e.g. a struct bl_loss_ops for BL_ROLE_LOSS. */
struct bl_plugin {
    uint32_t sdk_version;  /* BL_SDK_VERSION the plugin was built with   */
    enum bl_role role;
    const char *name;      /* unique across all loaded plugins: [a-z0-9-]+ */
    const char *doc;       /* one line                                   */
    const struct bl_param_spec *params;
    size_t nparams;
    const void *ops;
};

/* The single exported entry point.  It returns a NULL-terminated array of
 * descriptors (one shared object may carry several related plugins) and
 * may keep `host` for later calls. */
#define BL_PLUGIN_ENTRY boostlab_plugin_entry
typedef const struct bl_plugin *const *(*bl_plugin_entry_fn)(const struct bl_host *host);

#if defined(__GNUC__)
#define BL_EXPORT __attribute__((visibility("default")))
#else
#define BL_EXPORT
#endif

#ifdef __cplusplus
}
#endif
#endif

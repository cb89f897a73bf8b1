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

/* SDK version: a plugin's descriptor says which one it was built with,
 * and the loader refuses any other major and any minor newer than its own
 * (docs/sdk.md, "Versions").  Within a major, a minor only appends:
 * optional members at the end of an ops table (NULL or 0 = not provided),
 * members at the end of a struct the host allocates and zeroes
 * (bl_fit_request, bl_fit_result, bl_objective, bl_solve_info, bl_host,
 * bl_train),
 * roles and enum values.  Every ops table starts with its own size (see
 * "ops tables" below) and the loader copies a shorter one into a
 * zero-filled table of the host's size, so host code reads every member
 * directly.  What a plugin hands over in arrays or by pointer
 * (bl_param_spec, bl_task_view, bl_task_term) and the descriptor itself
 * never change within a major. */
#define BL_SDK_MAJOR 2
#define BL_SDK_MINOR 4
#define BL_SDK_VERSION ((BL_SDK_MAJOR << 16) | BL_SDK_MINOR)
/* Major and minor of a descriptor's sdk_version. */
#define BL_SDK_MAJOR_OF(v) ((unsigned)((v) >> 16))
#define BL_SDK_MINOR_OF(v) ((unsigned)((v) & 0xffffu))

/* Room for a plugin's error message (including the terminating NUL). */
#define BL_ERR_MAX 512

/* ---- roles ------------------------------------------------------------ */

enum bl_role {
    BL_ROLE_LOSS = 1,   /* struct bl_loss_ops   (boostlab/loss.h)   */
    BL_ROLE_WEAK = 2,   /* struct bl_weak_ops   (boostlab/weak.h)   */
    BL_ROLE_SOLVER = 3, /* struct bl_solver_ops (boostlab/solver.h) */
    BL_ROLE_CODING = 4, /* struct bl_coding_ops (boostlab/coding.h) */
    BL_ROLE_PROJECTION = 5, /* struct bl_projection_ops (boostlab/projection.h) */
    BL_ROLE_TASK = 6    /* struct bl_task_ops   (boostlab/task.h)   */
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

/* ---- ops tables -------------------------------------------------------- */

/* Every role's ops table starts with `size_t size`, which the plugin sets
 * to the sizeof of the table's struct:
 *     static const struct bl_loss_ops ops = {.size = sizeof(struct bl_loss_ops), ...};
 * It tells the host which optional members the table has: one built with
 * an older minor of this major is shorter, and the host treats the members
 * past its end as not provided.  The loader refuses a size smaller than
 * the major's first table or larger than the host's. */

/* ---- descriptor -------------------------------------------------------- */

/* What a plugin says about itself.  `ops` points at the role's ops table,
 * e.g. a struct bl_loss_ops for BL_ROLE_LOSS.  sdk_version, role and name
 * keep their places in every major, so that a host can name a plugin it
 * refuses. */
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

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ECOC with a fixed code (hingeboost-oc spec §3.7) for method svm: the code
 * comes from the coding plugins (exhaustive for k <= 7, dense-ecoc above,
 * unless the algorithm names one), its minimum Hamming distance is
 * reported, and outputs are decoded by exponential loss (Allwein et al.).
 */
#include <boostlab/coding.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../config/experiment.h"
#include "../plugin/loader.h"
#include "../plugin/params.h"
#include "../util/fsutil.h"
#include "mcsvm.h"

size_t bl_code_min_hamming(const double *M, size_t k, size_t n)
{
    size_t best = n;
    for (size_t a = 0; a < k; a++)
        for (size_t b = a + 1; b < k; b++) {
            size_t dist = 0;
            for (size_t j = 0; j < n; j++)
                dist += M[a * n + j] != M[b * n + j];
            if (dist < best)
                best = dist;
        }
    return best;
}

int bl_ecoc_decode(const double *M, size_t k, size_t n, const double *s)
{
    int best = 0;
    double bl = HUGE_VAL;
    for (size_t r = 0; r < k; r++) {
        double loss = 0;
        for (size_t j = 0; j < n; j++)
            loss += exp(-M[r * n + j] * s[j]);
        if (loss < bl) { /* strict: ties keep the lower index */
            bl = loss;
            best = (int)r;
        }
    }
    return best;
}

int bl_ecoc_code(const bl_algo_spec *a, size_t k, const int *y, size_t m, double **M,
                 size_t *n, bl_error *err)
{
    bl_paramset own;
    memset(&own, 0, sizeof own);
    const bl_paramset *ps = &a->coding;
    if (!a->coding.plugin) {
        /* the spec's rule: exhaustive for 3 <= k <= 7 (k = 2 too: one
         * column), a dense random code of 10,000 candidates above */
        if (bl_paramset_init(&own, k <= 7 ? a->svm_exhaustive : a->svm_dense, err) < 0)
            return -1;
        if (k > 7 && bl_paramset_set(&own, "candidates", "10000", err) < 0) {
            bl_paramset_free(&own);
            return -1;
        }
        ps = &own;
    }
    const struct bl_coding_ops *ops = ps->plugin->ops;
    char msg[BL_ERR_MAX] = "";
    void *inst = ops->create(&bl_host_api, ps->v, k, msg);
    int rc = 0;
    if (!inst) {
        rc = bl_errf(err, "coding %s: %s", ps->plugin->name, msg);
    } else {
        size_t cap = ops->max_columns(inst);
        *M = bl_xmalloc(k * (cap ? cap : 1) * sizeof **M);
        /* a fixed code ignores the dual weights; give zeros all the same */
        double *G = bl_xcalloc((m ? m : 1) * k, sizeof *G);
        if (ops->code(inst, y, m, G, 0, *M, n, msg) < 0) {
            rc = bl_errf(err, "coding %s: %s", ps->plugin->name, msg);
            free(*M);
            *M = NULL;
        }
        free(G);
        ops->destroy(inst);
    }
    bl_paramset_free(&own);
    return rc;
}

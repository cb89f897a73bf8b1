/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Which threshold splits of the quantized view are worth trying, shared by
 * the learners that search stumps over bins (stump, perceptron's start):
 * ok[f * 256 + b] says whether "bin > b" on feature f leaves both sides of
 * the training set non-empty (a constant stump answers nothing).  Bins never
 * change between fits, so it is computed once per learner.  Header only.
 */
#ifndef BL_PLUGINS_COMMON_SPLITS_H
#define BL_PLUGINS_COMMON_SPLITS_H

#include <boostlab/data.h>
#include <stdio.h>

/* Fill ok (Q->d * 256 entries); -1 with err set when a bin is out of its
 * feature's range (a corrupt view). */
static inline int bl_splits_ok(const struct bl_quantized *Q, uint8_t *ok, char *err,
                               size_t errcap)
{
    size_t m = Q->m;
    for (size_t f = 0; f < Q->d; f++) {
        size_t cnt[256] = {0};
        const uint8_t *bf = Q->bins + f * m;
        for (size_t i = 0; i < m; i++)
            cnt[bf[i]]++;
        size_t cum = 0;
        for (unsigned b = 0; b < 256; b++) {
            if (b >= Q->nbins[f] && cnt[b]) {
                snprintf(err, errcap, "feature %zu: bin %u out of range (%u bins)", f, b,
                         (unsigned)Q->nbins[f]);
                return -1;
            }
            cum += cnt[b];
            ok[f * 256 + b] = b + 1u < Q->nbins[f] && cum > 0 && cum < m;
        }
    }
    return 0;
}

#endif

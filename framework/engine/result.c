/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Run results and task metrics (see result.h). */
#include "result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"

void bl_run_result_from(const bl_curve *c, bl_run_result *r)
{
    memset(r, 0, sizeof *r);
    r->iterations = c->n;
    r->stop = (int)c->stop;
    r->stopped_early = c->stop != BL_STOP_BUDGET;
    r->trees = !c->n ? 0 : c->trees ? c->trees[c->n - 1] : c->n; /* no count: one per iteration */
    if (c->n) {
        r->test_err = c->test_err[c->n - 1];
        r->train_err = c->train_err[c->n - 1];
        r->train_loss = c->train_loss[c->n - 1];
    } else {
        r->test_err = c->test_err0;
        r->train_err = c->train_err0;
        r->train_loss = c->train_loss0;
    }
    for (size_t j = 0; j < c->n; j++) {
        r->t_weak += c->t_weak[j];
        r->t_coef += c->t_coef[j];
        r->t_book += c->t_book[j];
    }
    r->t_total = r->t_weak + r->t_coef + r->t_book;
}

void bl_metrics_free(bl_metrics *m)
{
    for (size_t j = 0; j < m->n; j++)
        free(m->name[j]);
    free(m->name);
    free(m->train);
    free(m->test);
    memset(m, 0, sizeof *m);
}

void bl_metrics_set(bl_metrics *m, char *const *names, size_t n, const double *train,
                    const double *test)
{
    bl_metrics_free(m);
    m->n = n;
    m->name = bl_xcalloc(n ? n : 1, sizeof *m->name);
    m->train = bl_xmalloc((n ? n : 1) * sizeof *m->train);
    m->test = bl_xmalloc((n ? n : 1) * sizeof *m->test);
    for (size_t j = 0; j < n; j++) {
        m->name[j] = bl_strdup(names[j]);
        m->train[j] = train ? train[j] : NAN;
        m->test[j] = test ? test[j] : NAN;
    }
}

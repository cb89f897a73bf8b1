/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One-vs-all linear SVMs (StructBoost paper Table II's "1-vs-all SVM"),
 * trained by liblinear (Debian liblinear-dev): L2-regularised L2-loss
 * SVC in the dual, one machine per class, bias on, features standardised
 * on the training part (missing values 0).  Predictions are the class of
 * the largest decision value; the task (whose labels must be classes)
 * scores them, so the metrics are the same as StructBoost's.  The curve
 * has one entry: the trained model.
 */
#include <linear.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/clock.h"
#include "../util/fsutil.h"
#include "structured.h"

typedef struct scaled {
    struct feature_node **x;
    struct feature_node *pool;
} scaled;

/* Rows of ds as liblinear sparse vectors (standardised with mu, sd; zeros
 * kept out), each ending with the bias slot liblinear fills in. */
static void to_rows(const bl_dataset *ds, const double *mu, const double *sd, scaled *out)
{
    size_t m = ds->m, d = ds->d, nnz = 0;
    for (size_t f = 0; f < d; f++)
        for (size_t i = 0; i < m; i++) {
            float x = ds->x[f * m + i];
            nnz += !isnan(x) && (double)x != mu[f];
        }
    out->pool = bl_xmalloc((nnz + 2 * m + 1) * sizeof *out->pool);
    out->x = bl_xmalloc((m ? m : 1) * sizeof *out->x);
    size_t *len = bl_xcalloc(m ? m : 1, sizeof *len);
    for (size_t f = 0; f < d; f++)
        for (size_t i = 0; i < m; i++) {
            float x = ds->x[f * m + i];
            len[i] += !isnan(x) && (double)x != mu[f];
        }
    size_t pos = 0;
    for (size_t i = 0; i < m; i++) {
        out->x[i] = out->pool + pos;
        pos += len[i] + 2; /* bias and terminator */
        len[i] = 0;
    }
    for (size_t f = 0; f < d; f++)
        for (size_t i = 0; i < m; i++) {
            float x = ds->x[f * m + i];
            if (isnan(x) || (double)x == mu[f])
                continue;
            struct feature_node *n = &out->x[i][len[i]++];
            n->index = (int)f + 1;
            n->value = ((double)x - mu[f]) / sd[f];
        }
    for (size_t i = 0; i < m; i++) {
        out->x[i][len[i]].index = (int)d + 1; /* bias */
        out->x[i][len[i]].value = 1.0;
        out->x[i][len[i] + 1].index = -1;
    }
    free(len);
}

static void quiet(const char *s)
{
    (void)s;
}

/* Predicted classes of ds under model. */
static void predict_all(const struct model *mo, const bl_dataset *ds, const double *mu,
                        const double *sd, int *pred)
{
    scaled s;
    to_rows(ds, mu, sd, &s);
    int nc = get_nr_class(mo);
    double *dec = bl_xmalloc((size_t)(nc > 2 ? nc : 1) * sizeof *dec);
    for (size_t i = 0; i < ds->m; i++) {
        double p = predict_values(mo, s.x[i], dec);
        pred[i] = (int)p;
    }
    free(dec);
    free(s.x);
    free(s.pool);
}

int bl_ova_svm(const bl_method_cfg *cfg, const bl_dataset *tr, const bl_dataset *test,
               bl_curve *cv, bl_metrics *met, bl_error *err)
{
    const bl_algo_spec *a = cfg->algo;
    memset(cv, 0, sizeof *cv);
    size_t m = tr->m, d = tr->d;
    double *mu = bl_xmalloc((d ? d : 1) * sizeof *mu), *sd = bl_xmalloc((d ? d : 1) * sizeof *sd);
    for (size_t f = 0; f < d; f++) {
        double s1 = 0, s2 = 0;
        size_t n = 0;
        for (size_t i = 0; i < m; i++) {
            float x = tr->x[f * m + i];
            if (!isnan(x)) {
                s1 += x;
                s2 += (double)x * x;
                n++;
            }
        }
        mu[f] = n ? s1 / (double)n : 0.0;
        double var = n ? s2 / (double)n - mu[f] * mu[f] : 0.0;
        sd[f] = var > 1e-24 ? sqrt(var) : 1.0;
    }
    double t0 = bl_seconds();
    scaled s;
    to_rows(tr, mu, sd, &s);
    double *y = bl_xmalloc((m ? m : 1) * sizeof *y);
    for (size_t i = 0; i < m; i++)
        y[i] = tr->y[i];
    struct problem prob = {(int)m, (int)d + 1, y, s.x, 1.0};
    struct parameter par;
    memset(&par, 0, sizeof par);
    par.solver_type = L2R_L2LOSS_SVC_DUAL;
    par.C = a->C;
    par.eps = 0.1;
    set_print_string_function(quiet);
    const char *bad = check_parameter(&prob, &par);
    int rc = 0;
    struct model *mo = NULL;
    if (bad)
        rc = bl_errf(err, "liblinear refuses the problem: %s", bad);
    else
        mo = train(&prob, &par);
    double t1 = bl_seconds();
    int *ptr = bl_xmalloc((m ? m : 1) * sizeof *ptr);
    int *pte = bl_xmalloc((test && test->m ? test->m : 1) * sizeof *pte);
    double *vtr = NULL, *vte = NULL;
    char **names = NULL;
    size_t nm = 0;
    if (rc == 0) {
        predict_all(mo, tr, mu, sd, ptr);
        rc = bl_task_metrics_of_classes(&a->task, tr, ptr, &vtr, &names, &nm, err);
    }
    if (rc == 0 && test && test->m) {
        predict_all(mo, test, mu, sd, pte);
        char **n2 = NULL;
        size_t nm2 = 0;
        rc = bl_task_metrics_of_classes(&a->task, test, pte, &vte, &n2, &nm2, err);
        for (size_t j = 0; j < nm2; j++)
            free(n2[j]);
        free(n2);
    }
    if (rc == 0) {
        bl_curve_push(cv);
        cv->train_loss[0] = NAN;
        cv->train_err[0] = vtr[0];
        cv->test_err[0] = vte ? vte[0] : NAN;
        cv->edge[0] = NAN;
        cv->solver_iters[0] = 0;
        cv->trees[0] = tr->k;
        cv->t_weak[0] = 0.0;
        cv->t_coef[0] = t1 - t0;
        cv->t_book[0] = bl_seconds() - t1;
        cv->train_loss0 = cv->train_err0 = cv->test_err0 = NAN;
        bl_metrics_set(met, names, nm, vtr, vte);
        if (cfg->on_iter)
            cfg->on_iter(cfg->user, 1, 1);
    }
    for (size_t j = 0; j < nm; j++)
        free(names[j]);
    free(names);
    free(vtr);
    free(vte);
    free(ptr);
    free(pte);
    if (mo)
        free_and_destroy_model(&mo);
    free(y);
    free(s.x);
    free(s.pool);
    free(mu);
    free(sd);
    return rc;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * l1path: the experiment tool of the stage-wise MCBoost paper's Fig. 1
 * (spec stagewise-multiclass-boosting.md §5.1, §5.2, §8.1): the exact
 * l1-constrained coefficient path of a margin loss over a finite
 * dictionary of hypotheses, next to the path of an epsilon-boosting model
 * (configs/eps-boost-*.ini) trained on the same dictionary.
 *
 *   l1path dict --data CSV --model MODEL --count N --out CSV
 *       The first N hypotheses of MODEL that differ (up to sign) on the
 *       rows of CSV, written as a data set whose features h1..hN are their
 *       +-1 outputs.  A stump trained on such a feature has one cut, so
 *       boosting on it chooses from exactly these N hypotheses and their
 *       negations: the finite dictionary of the figure.
 *
 *   l1path path --data CSV --model MODEL [--every S] [--out CSV] [--plot BASE]
 *       MODEL is an epsilon-boosting model trained on the dictionary CSV.
 *       Its terms are matched to the dictionary's columns, which gives its
 *       coefficients W_s (2N hypotheses h and -h, x k classes, >= 0) after
 *       each step s.  Every S steps the exact solution of problem (17),
 *           min_W L(H W)  s.t.  sum(W) <= t,  W >= 0,   t = ||W_s||_1,
 *       is computed over the same 2N hypotheses and written beside W_s,
 *       with both losses, the KKT residual and the largest coefficient gap.
 *
 * How (17) is solved.  For a convex loss the constrained and the
 * penalised problem min L(H W) + lambda sum(W), W >= 0, have the same
 * solutions, with ||W(lambda)||_1 non-increasing in lambda.  The penalised
 * one is a smooth bound-constrained problem: exactly what the totally
 * corrective solver lbfgsb-tc (L-BFGS-B) minimises for MultiBoost, on the
 * engine's own objective (engine/objective.h, bl_coefobj_all) with the
 * loss plugin's eval.  lambda is found by bisection (in log lambda) until
 * the norm is within 1e-7 (1 + t) of t from below, warm-started along the
 * path; the feasible side is kept, so the exact loss at t can be compared
 * with the epsilon path's.  lambda_max = max_j -grad_j L(0), above which
 * W = 0.
 *
 * The loss is the model's (its "loss = NAME" line) with the plugin's
 * default parameters, as the eps-boost recipes use it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <boostlab/weak.h>

#include "data/dataset.h"
#include "engine/model.h"
#include "engine/objective.h"
#include "plot/plot.h"
#include "plugin/loader.h"
#include "plugin/params.h"
#include "util/fsutil.h"

#define KKT_PGTOL 1e-10
#define NORM_RTOL 1e-7

static int usage(void)
{
    fputs("usage: l1path dict --data CSV --model MODEL --count N --out CSV\n"
          "       l1path path --data CSV --model MODEL [--every S] [--out CSV] [--plot BASE]\n"
          "                   [--title TEXT]\n",
          stderr);
    return 2;
}

static int die(const bl_error *e)
{
    fprintf(stderr, "l1path: %s\n", e->msg);
    return 1;
}

/* ---- dictionary ---------------------------------------------------------- */

/* +-1 outputs of every term of mo on X (m each); -1 when a term is not a
 * single +-1 output. */
static int term_outputs(const bl_model *mo, const struct bl_matrix *X, double *out, size_t j,
                        bl_error *err)
{
    const bl_term *t = &mo->term[j];
    if (t->outdim != 1 || t->code)
        return bl_errf(err, "term %zu has %zu outputs: the paths need single-output hypotheses",
                       j + 1, t->outdim);
    double *scratch = bl_xmalloc(X->m * (t->hdim ? t->hdim : 1) * sizeof *scratch);
    bl_term_outputs(mo, t, X, out, scratch);
    free(scratch);
    for (size_t i = 0; i < X->m; i++)
        if (out[i] != 1.0 && out[i] != -1.0)
            return bl_errf(err, "term %zu outputs %g on row %zu: the paths need +-1 outputs",
                           j + 1, out[i], i + 1);
    return 0;
}

/* 1 when a equals b or -b on all m rows */
static int same_up_to_sign(const double *a, const double *b, size_t m, int *sign)
{
    int plus = 1, minus = 1;
    for (size_t i = 0; i < m; i++)
        plus &= a[i] == b[i], minus &= a[i] == -b[i];
    *sign = plus ? 1 : -1;
    return plus || minus;
}

static int cmd_dict(const bl_dataset *ds, const bl_model *mo, const char *model, size_t count,
                    const char *out, bl_error *err)
{
    struct bl_matrix X = {ds->m, ds->d, ds->x};
    size_t m = ds->m, got = 0;
    double *H = bl_xmalloc((count + 1) * m * sizeof *H);
    for (size_t j = 0; j < mo->t && got < count; j++) {
        if (term_outputs(mo, &X, H + got * m, j, err) < 0) {
            free(H);
            return bl_errprefix(err, "%s", model);
        }
        int dup = 0, sign;
        for (size_t q = 0; q < got && !dup; q++)
            dup = same_up_to_sign(H + got * m, H + q * m, m, &sign);
        if (!dup) {
            /* say which hypothesis it is, as the model file writes it */
            const struct bl_weak_ops *wo = mo->weak->ops;
            char text[256] = "";
            if (wo->save)
                wo->save(mo->term[j].hyp, text, sizeof text);
            fprintf(stderr, "h%zu = term %zu of the model: %s\n", got + 1, j + 1, text);
            got++;
        }
    }
    if (got < count) {
        free(H);
        return bl_errf(err, "%s: the model has only %zu distinct hypotheses, not %zu", model,
                       got, count);
    }
    FILE *f = fopen(out, "w");
    if (!f) {
        free(H);
        return bl_errf(err, "%s: cannot write", out);
    }
    fputs("label", f);
    for (size_t q = 0; q < count; q++)
        fprintf(f, ",h%zu", q + 1);
    fputc('\n', f);
    for (size_t i = 0; i < m; i++) {
        fputs(ds->class_names[ds->y[i]], f);
        for (size_t q = 0; q < count; q++)
            fprintf(f, ",%d", (int)H[q * m + i]);
        fputc('\n', f);
    }
    free(H);
    return fclose(f) == 0 ? 0 : bl_errf(err, "%s: write failed", out);
}

/* ---- the exact path -------------------------------------------------------- */

struct exact {
    const struct bl_solver_ops *sops;
    void *solver;
    bl_coefobj obj;
    size_t n;            /* 2N hypotheses x k classes */
    double *lo, *up, *g;
};

static double total(const double *w, size_t n)
{
    double s = 0.0;
    for (size_t j = 0; j < n; j++)
        s += w[j];
    return s;
}

/* Minimise L + lambda sum(W), W >= 0, from W (warm). */
static int solve_pen(struct exact *E, double lambda, double *W, bl_error *err)
{
    struct bl_objective o;
    struct bl_solve_info info;
    char msg[BL_ERR_MAX] = "";
    bl_coefobj_objective(&E->obj, NULL, E->n, E->lo, E->up, lambda, &o);
    if (E->sops->solve(E->solver, &o, W, &info, msg) != 0)
        return bl_errf(err, "lbfgsb-tc: %s", msg);
    return 0;
}

/* KKT residual of the penalised problem at W: max_j |W_j - max(0, W_j - g_j - lambda)| */
static double kkt(struct exact *E, double lambda, const double *W)
{
    bl_coefobj_eval(&E->obj, W, E->g);
    double r = 0.0;
    for (size_t j = 0; j < E->n; j++)
        r = fmax(r, fabs(W[j] - fmax(0.0, W[j] - E->g[j] - lambda)));
    return r;
}

/* The exact solution at budget t into W (norm <= t); *lam holds the last
 * lambda on entry (the warm start) and the chosen one on return. */
static int exact_at(struct exact *E, double t, double *W, double *lam, double lmax,
                    bl_error *err)
{
    double *Wlo = bl_xmalloc(E->n * sizeof *Wlo);
    double hi = *lam, lo = hi, nlo = -1.0;
    memcpy(Wlo, W, E->n * sizeof *Wlo);
    int rc = 0;
    /* lo: a lambda whose solution reaches the budget (or lambda ~ 0) */
    for (int it = 0; it < 200 && rc == 0; it++) {
        lo = fmax(lo / 2.0, 1e-14 * lmax);
        rc = solve_pen(E, lo, Wlo, err);
        nlo = total(Wlo, E->n);
        if (nlo >= t || lo <= 1e-14 * lmax)
            break;
    }
    if (rc == 0 && nlo <= t) { /* the budget is not binding: the minimum itself */
        memcpy(W, Wlo, E->n * sizeof *W);
        *lam = lo;
        free(Wlo);
        return 0;
    }
    double *Wm = bl_xmalloc(E->n * sizeof *Wm);
    for (int it = 0; it < 200 && rc == 0; it++) {
        double mid = sqrt(lo * hi);
        memcpy(Wm, W, E->n * sizeof *Wm);
        rc = solve_pen(E, mid, Wm, err);
        double nm = total(Wm, E->n);
        if (nm <= t) {
            hi = mid;
            memcpy(W, Wm, E->n * sizeof *W);
            if (t - nm <= NORM_RTOL * (1.0 + t))
                break;
        } else {
            lo = mid;
        }
        if (hi / lo < 1.0 + 1e-13)
            break;
    }
    *lam = hi;
    free(Wm), free(Wlo);
    return rc;
}

/* ---- the epsilon path and the comparison ------------------------------------- */

struct paths {
    size_t N, k, npts;   /* npts: the points compared, also the arrays' stride */
    double *x;           /* npts budgets: the epsilon path's l1 norms */
    double *ve, *vx;     /* k x N x npts signed coefficients, epsilon / exact */
};

/* Which dictionary hypothesis (0..2N-1: +h_q at 2q, -h_q at 2q+1) each term
 * of mo is. */
static int match_terms(const bl_model *mo, const struct bl_matrix *X, const double *H, size_t N,
                       size_t *hyp, bl_error *err)
{
    size_t m = X->m;
    double *s = bl_xmalloc(m * sizeof *s);
    int rc = 0;
    for (size_t j = 0; j < mo->t && rc == 0; j++) {
        rc = term_outputs(mo, X, s, j, err);
        size_t q = 0;
        int sign = 1;
        while (rc == 0 && q < N && !same_up_to_sign(s, H + 2 * q * m, m, &sign))
            q++;
        if (rc == 0 && q == N)
            rc = bl_errf(err, "term %zu of the model is none of the data's %zu dictionary "
                         "columns or their negations", j + 1, N);
        hyp[j] = 2 * q + (sign < 0);
    }
    free(s);
    return rc;
}

/* v[(r N + q) npts + p] = W[2q][r] - W[2q+1][r] */
static void signed_coefs(const double *W, size_t N, size_t k, double *v, size_t npts, size_t p)
{
    for (size_t r = 0; r < k; r++)
        for (size_t q = 0; q < N; q++)
            v[(r * N + q) * npts + p] = W[2 * q * k + r] - W[(2 * q + 1) * k + r];
}

static void csv_header(FILE *f, size_t N, size_t k)
{
    fputs("step,norm,eps_loss,exact_norm,exact_loss,lambda,kkt,max_gap", f);
    for (int side = 0; side < 2; side++)
        for (size_t r = 0; r < k; r++)
            for (size_t q = 0; q < N; q++)
                fprintf(f, ",%s_h%zu_c%zu", side ? "exact" : "eps", q + 1, r);
    fputc('\n', f);
}

static void csv_row(FILE *f, const struct paths *P, size_t p, size_t step, const double *num)
{
    fprintf(f, "%zu", step);
    for (int c = 0; c < 7; c++)
        fprintf(f, ",%.10g", num[c]);
    for (int side = 0; side < 2; side++)
        for (size_t c = 0; c < P->k * P->N; c++)
            fprintf(f, ",%.10g", (side ? P->vx : P->ve)[c * P->npts + p]);
    fputc('\n', f);
}

/* Walk the epsilon path every `every` steps, solve (17) at its norms. */
static int compare(struct exact *E, const bl_model *mo, const size_t *hyp, size_t every,
                   struct paths *P, FILE *csv, bl_error *err)
{
    size_t n = E->n, k = P->k;
    double *We = bl_xcalloc(n, sizeof *We), *Wx = bl_xcalloc(n, sizeof *Wx);
    double *g = bl_xmalloc(n * sizeof *g);
    double l0 = bl_coefobj_eval(&E->obj, Wx, g), lmax = 0.0;
    for (size_t j = 0; j < n; j++)
        lmax = fmax(lmax, -g[j]);
    double lam = lmax, worst_gap = 0.0, worst_kkt = 0.0, worst_rel = 0.0, worst_eps = 0.0;
    size_t p = 0, above = 0;
    int rc = 0;
    if (csv)
        csv_header(csv, P->N, k);
    for (size_t s = 0; s <= mo->t && rc == 0; s++) {
        if (s > 0)
            for (size_t r = 0; r < k; r++)
                We[hyp[s - 1] * k + r] += mo->term[s - 1].w[r];
        if (s % every && s != mo->t)
            continue;
        double t = total(We, n);
        double le = s ? bl_coefobj_eval(&E->obj, We, NULL) : l0;
        if (s > 0)
            rc = exact_at(E, t, Wx, &lam, lmax, err);
        double lx = bl_coefobj_eval(&E->obj, Wx, NULL), res = s ? kkt(E, lam, Wx) : 0.0;
        P->x[p] = t;
        signed_coefs(We, P->N, k, P->ve, P->npts, p);
        signed_coefs(Wx, P->N, k, P->vx, P->npts, p);
        double gap = 0.0;
        for (size_t c = 0; c < k * P->N; c++)
            gap = fmax(gap, fabs(P->ve[c * P->npts + p] - P->vx[c * P->npts + p]));
        worst_gap = fmax(worst_gap, gap);
        worst_kkt = fmax(worst_kkt, res);
        worst_rel = fmax(worst_rel, (lx - le) / fmax(1.0, fabs(le)));
        worst_eps = fmax(worst_eps, (le - lx) / fmax(1.0, fabs(le)));
        above += lx > le;
        double num[7] = {t, le, total(Wx, n), lx, s ? lam : lmax, res, gap};
        if (csv)
            csv_row(csv, P, p, s, num);
        p++;
    }
    printf("points %zu  final norm %.10g  max coefficient gap %.6g  max KKT residual %.3g\n"
           "exact loss above the epsilon path's at %zu of %zu budgets (largest relative excess "
           "%.3g); epsilon path's loss above the exact by at most %.3g (relative)\n",
           p, p ? P->x[p - 1] : 0.0, worst_gap, worst_kkt, above, p, worst_rel, worst_eps);
    free(We), free(Wx), free(g);
    return rc;
}

static int plot(const struct paths *P, const bl_model *mo, const char *title, const char *base,
                bl_error *err)
{
    char **pt = bl_xcalloc(P->k, sizeof *pt), **cn = bl_xcalloc(P->N, sizeof *cn);
    for (size_t r = 0; r < P->k; r++) {
        pt[r] = bl_xmalloc(64 + strlen(mo->class_names[r]));
        sprintf(pt[r], "class %s", mo->class_names[r]);
    }
    for (size_t q = 0; q < P->N; q++) {
        cn[q] = bl_xmalloc(32);
        snprintf(cn[q], 32, "h%zu", q + 1);
    }
    bl_pathplot pp = {title, "l1 norm of W", "coefficient", P->k, P->N, P->npts,
                      (const char *const *)pt, (const char *const *)cn,
                      "exact l1-constrained (17)", "epsilon-boosting", P->x, P->vx, P->ve};
    int rc = bl_plot_paths(&pp, base, err);
    for (size_t r = 0; r < P->k; r++)
        free(pt[r]);
    for (size_t q = 0; q < P->N; q++)
        free(cn[q]);
    free(pt), free(cn);
    return rc;
}

/* The dictionary columns of the data set (+-1 each) as 2N hypotheses. */
static int dictionary(const bl_dataset *ds, double *H, bl_error *err)
{
    size_t m = ds->m;
    for (size_t q = 0; q < ds->d; q++)
        for (size_t i = 0; i < m; i++) {
            double v = ds->x[q * m + i];
            if (v != 1.0 && v != -1.0)
                return bl_errf(err, "row %zu, column %s: %g is not +-1 (a dictionary data set "
                               "holds hypothesis outputs: l1path dict)", i + 1,
                               ds->feature_names[q], v);
            H[2 * q * m + i] = v;
            H[(2 * q + 1) * m + i] = -v;
        }
    return 0;
}

/* The model's "loss = NAME" line (its resolved algorithm text). */
static int model_loss(const bl_model *mo, char *name, size_t cap, bl_error *err)
{
    const char *a = mo->algorithm ? strstr(mo->algorithm, "loss = ") : NULL;
    if (!a)
        return bl_errf(err, "the model names no loss (no 'loss = ' line in its algorithm)");
    a += 7;
    size_t len = strcspn(a, "\n");
    if (len == 0 || len >= cap)
        return bl_errf(err, "the model's loss line is empty or too long");
    memcpy(name, a, len);
    name[len] = 0;
    return 0;
}

/* A plugin instance with its defaults and the given overrides (NULL-ended
 * name, value pairs). */
static void *instance(const bl_registry *reg, const char *name, int role,
                      const char *const *set, const void **ops, bl_error *err)
{
    const struct bl_plugin *p = bl_registry_find(reg, name, role);
    if (!p) {
        bl_errf(err, "no %s plugin '%s' (%s)", bl_role_name(role), name, bl_registry_hint(reg));
        return NULL;
    }
    bl_paramset ps;
    if (bl_paramset_init(&ps, p, err) < 0)
        return NULL;
    for (; set && set[0]; set += 2)
        if (bl_paramset_set(&ps, set[0], set[1], err) < 0) {
            bl_paramset_free(&ps);
            return NULL;
        }
    char msg[BL_ERR_MAX] = "";
    void *self = role == BL_ROLE_LOSS
                     ? ((const struct bl_loss_ops *)p->ops)->create(&bl_host_api, ps.v, msg)
                     : ((const struct bl_solver_ops *)p->ops)->create(&bl_host_api, ps.v, msg);
    bl_paramset_free(&ps);
    if (!self)
        bl_errf(err, "%s: %s", name, msg);
    *ops = p->ops;
    return self;
}

/* Relabel ds's rows by the model's class names. */
static int model_labels(const bl_dataset *ds, const bl_model *mo, int *y, bl_error *err)
{
    for (size_t i = 0; i < ds->m; i++) {
        const char *name = ds->class_names[ds->y[i]];
        size_t r = 0;
        while (r < mo->k && strcmp(mo->class_names[r], name) != 0)
            r++;
        if (r == mo->k)
            return bl_errf(err, "row %zu: class '%s' is not one of the model's", i + 1, name);
        y[i] = (int)r;
    }
    return 0;
}

static int cmd_path(const bl_registry *reg, const char *data, const bl_dataset *ds,
                    const bl_model *mo, size_t every, FILE *csv, const char *title,
                    const char *base, bl_error *err)
{
    size_t m = ds->m, N = ds->d, k = mo->k, nh = 2 * N;
    char lname[128];
    if (model_loss(mo, lname, sizeof lname, err) < 0)
        return -1;
    double *H = bl_xmalloc(nh * m * sizeof *H);
    int *y = bl_xmalloc(m * sizeof *y);
    size_t *hyp = bl_xcalloc(mo->t + 1, sizeof *hyp);
    struct bl_matrix X = {m, N, ds->x};
    int rc = dictionary(ds, H, err);
    if (rc == 0)
        rc = model_labels(ds, mo, y, err);
    if (rc < 0)
        bl_errprefix(err, "%s", data);
    if (rc == 0 && mo->d > N) /* its stumps would read columns X lacks */
        rc = bl_errf(err, "%s: the model was trained on %zu columns, the data has %zu dictionary "
                     "columns", data, mo->d, N);
    if (rc == 0)
        rc = match_terms(mo, &X, H, N, hyp, err);
    const struct bl_loss_ops *lops = NULL;
    const struct bl_solver_ops *sops = NULL;
    static const char *const tight[] = {"max_iter", "100000", "pgtol", "1e-10", "ftol", "0",
                                        "memory", "20", NULL};
    void *loss = rc ? NULL : instance(reg, lname, BL_ROLE_LOSS, NULL, (const void **)&lops, err);
    void *solver = loss ? instance(reg, "lbfgsb-tc", BL_ROLE_SOLVER, tight,
                                   (const void **)&sops, err) : NULL;
    if (!solver)
        rc = -1;
    struct exact E = {sops, solver, {0}, nh * k, NULL, NULL, NULL};
    const double **out = bl_xmalloc(nh * sizeof *out);
    size_t *outdim = bl_xmalloc(nh * sizeof *outdim);
    double *Fw = bl_xmalloc(m * k * sizeof *Fw), *gr = bl_xmalloc(m * k * sizeof *gr);
    E.lo = bl_xcalloc(E.n, sizeof *E.lo);
    E.up = bl_xmalloc(E.n * sizeof *E.up);
    E.g = bl_xmalloc(E.n * sizeof *E.g);
    for (size_t j = 0; j < E.n; j++)
        E.up[j] = HUGE_VAL;
    for (size_t j = 0; j < nh; j++)
        out[j] = H + j * m, outdim[j] = 1;
    struct paths P = {N, k, mo->t / every + 1 + (mo->t % every != 0), NULL, NULL, NULL};
    P.x = bl_xmalloc(P.npts * sizeof *P.x);
    P.ve = bl_xmalloc(k * N * P.npts * sizeof *P.ve);
    P.vx = bl_xmalloc(k * N * P.npts * sizeof *P.vx);
    if (rc == 0) {
        printf("loss %s, %zu rows, %zu classes, dictionary of %zu hypotheses and their "
               "negations, %zu epsilon steps\n", lname, m, k, N, mo->t);
        bl_coefobj_all(&E.obj, lops, loss, y, m, k, nh, out, outdim, Fw, gr);
        rc = compare(&E, mo, hyp, every, &P, csv, err);
        bl_coefobj_done(&E.obj);
    }
    if (rc == 0 && base)
        rc = plot(&P, mo, title, base, err);
    if (solver)
        sops->destroy(solver);
    if (loss)
        lops->destroy(loss);
    free(H), free(y), free(hyp), free(out), free(outdim), free(Fw), free(gr);
    free(E.lo), free(E.up), free(E.g), free(P.x), free(P.ve), free(P.vx);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "dict") && strcmp(argv[1], "path")))
        return usage();
    const char *data = NULL, *model = NULL, *out = NULL, *plotbase = NULL, *title = NULL;
    long count = 0, every = 1;
    for (int a = 2; a < argc; a += 2) {
        if (a + 1 >= argc)
            return usage();
        const char *o = argv[a], *v = argv[a + 1];
        if (!strcmp(o, "--data")) data = v;
        else if (!strcmp(o, "--model")) model = v;
        else if (!strcmp(o, "--out")) out = v;
        else if (!strcmp(o, "--plot")) plotbase = v;
        else if (!strcmp(o, "--title")) title = v;
        else if (!strcmp(o, "--count")) count = strtol(v, NULL, 10);
        else if (!strcmp(o, "--every")) every = strtol(v, NULL, 10);
        else return usage();
    }
    int dict = !strcmp(argv[1], "dict");
    if (!data || !model || every < 1 || (dict && (count < 1 || !out)))
        return usage();
    bl_error err = {{0}};
    bl_registry reg = {0};
    bl_dataset ds = {0};
    bl_model mo = {0};
    /* a build-tree tool: the build's plugins, then the standard search */
    int rc = bl_registry_load_dir(&reg, BL_BUILD_DIR "/plugins", 1, &err);
    if (rc == 0)
        rc = bl_read_csv(data, NULL, NULL, &ds, &err);
    if (rc == 0)
        rc = bl_model_load(model, &reg, &mo, &err);
    if (rc == 0 && dict) {
        rc = cmd_dict(&ds, &mo, model, (size_t)count, out, &err);
    } else if (rc == 0) {
        FILE *csv = out ? fopen(out, "w") : NULL;
        if (out && !csv)
            rc = bl_errf(&err, "%s: cannot write", out);
        if (rc == 0)
            rc = cmd_path(&reg, data, &ds, &mo, (size_t)every, csv, title, plotbase, &err);
        if (csv && fclose(csv) != 0 && rc == 0)
            rc = bl_errf(&err, "%s: write failed", out);
    }
    if (mo.term)
        bl_model_free(&mo);
    bl_dataset_free(&ds);
    bl_registry_free(&reg);
    return rc == 0 ? 0 : die(&err);
}

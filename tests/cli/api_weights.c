/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Example weights through the library API (run by tests/cli/api.sh on
 * data/iris.csv): integer weights against repeated rows, weights all 2
 * against none, weight-0 rows against dropped rows, and bad weights and a
 * recipe that cannot take weights refused.  Prints one line per check. */
#include <boostlab/api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXM 1000
#define D 4

static double X[MAXM * D];
static int Y[MAXM];
static size_t M;

/* Train recipe on rows (x, y, w) for `iters` iterations and put the
 * scores on the M rows of X into F (M x 3); 0, or -1 printing why. */
static int scores(const char *recipe, size_t m, const double *x, const int *y, const double *w,
                  double *F, char *err)
{
    boostlab_parameter *p = boostlab_parameter_new(recipe, err);
    boostlab_problem *tr = boostlab_problem_dense(m, D, x, y, w, err);
    boostlab_problem *te = boostlab_problem_dense(M, D, X, NULL, NULL, err);
    int rc = -1;
    if (p && tr && te && boostlab_parameter_set(p, "iterations", "20", err) == 0 &&
        boostlab_parameter_set(p, "threads", "1", err) == 0) {
        boostlab_model *mo = boostlab_train(tr, p, err);
        rc = mo ? boostlab_predict_values(mo, te, F, NULL, err) : -1;
        boostlab_model_free(mo);
    }
    boostlab_parameter_free(p);
    boostlab_problem_free(tr);
    boostlab_problem_free(te);
    return rc;
}

/* Largest |a - b| and whether every row's argmax agrees. */
static double diff(const double *a, const double *b, int *same)
{
    double d = 0;
    *same = 1;
    for (size_t i = 0; i < M; i++) {
        int ia = 0, ib = 0;
        for (int r = 0; r < 3; r++) {
            d = fmax(d, fabs(a[i * 3 + r] - b[i * 3 + r]));
            ia = a[i * 3 + r] > a[i * 3 + ia] ? r : ia;
            ib = b[i * 3 + r] > b[i * 3 + ib] ? r : ib;
        }
        *same &= ia == ib;
    }
    return d;
}

static double A[MAXM * 3], B[MAXM * 3], xr[3 * MAXM * D], wr[MAXM];
static int yr[3 * MAXM];

/* Integer weights 1 + i % 3 against each row repeated that often. */
static void repeat(const char *recipe)
{
    char err[BOOSTLAB_ERR_MAX];
    size_t n = 0;
    for (size_t i = 0; i < M; i++) {
        wr[i] = (double)(1 + i % 3);
        for (size_t c = 0; c < 1 + i % 3; c++, n++) {
            memcpy(xr + n * D, X + i * D, D * sizeof *X);
            yr[n] = Y[i];
        }
    }
    int same;
    if (scores(recipe, M, X, Y, wr, A, err) < 0 || scores(recipe, n, xr, yr, NULL, B, err) < 0)
        printf("%s repeat: error %s\n", recipe, err);
    else
        printf("%s repeat: labels %s, max score difference %.3g\n", recipe,
               (diff(A, B, &same), same) ? "equal" : "differ", diff(A, B, &same));
}

/* The same model bit for bit: all 2 against none, and weight-0 rows (the
 * last third) against dropped rows. */
static void equal(const char *recipe)
{
    char err[BOOSTLAB_ERR_MAX];
    int same;
    for (size_t i = 0; i < M; i++)
        wr[i] = 2;
    if (scores(recipe, M, X, Y, wr, A, err) < 0 || scores(recipe, M, X, Y, NULL, B, err) < 0)
        printf("%s twos: error %s\n", recipe, err);
    else
        printf("%s twos: %s\n", recipe,
               !memcmp(A, B, M * 3 * sizeof *A) ? "identical" : "differ");
    size_t n = 0;
    for (size_t i = 0; i < M; i++) {
        wr[i] = i % 3 == 2 ? 0 : 1 + (double)(i % 2);
        if (wr[i] > 0) {
            memcpy(xr + n * D, X + i * D, D * sizeof *X);
            yr[n++] = Y[i];
        }
    }
    double wk[MAXM];
    for (size_t i = 0, j = 0; i < M; i++)
        if (wr[i] > 0)
            wk[j++] = wr[i];
    if (scores(recipe, M, X, Y, wr, A, err) < 0 || scores(recipe, n, xr, yr, wk, B, err) < 0)
        printf("%s zeros: error %s\n", recipe, err);
    else
        printf("%s zeros: %s (max difference %.3g)\n", recipe,
               !memcmp(A, B, M * 3 * sizeof *A) ? "identical" : "differ", diff(A, B, &same));
}

static void refused(const char *what, const double *w, const char *recipe)
{
    char err[BOOSTLAB_ERR_MAX] = "";
    int rc = scores(recipe, M, X, Y, w, A, err);
    printf("%s: %s\n", what, rc < 0 ? err : "accepted");
}

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f || fscanf(f, "%*[^\n]\n") != 0)
        return fprintf(stderr, "usage: api_weights IRIS.csv\n"), 2;
    while (M < MAXM && fscanf(f, "%d,%lf,%lf,%lf,%lf", &Y[M], &X[M * D], &X[M * D + 1],
                              &X[M * D + 2], &X[M * D + 3]) == 5)
        M++;
    fclose(f);
    for (int a = 2; a < argc; a++) {
        repeat(argv[a]);
        equal(argv[a]);
    }
    for (size_t i = 0; i < M; i++)
        wr[i] = 1 + (double)(i % 3);
    refused("hinge", wr, "hingeboost-oc");
    wr[5] = -1;
    refused("negative", wr, "mcboost-exp");
    wr[5] = NAN;
    refused("nan", wr, "mcboost-exp");
    for (size_t i = 0; i < M; i++)
        wr[i] = 0;
    refused("zero", wr, "mcboost-exp");
    return 0;
}

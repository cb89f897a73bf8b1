/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The library API in one page (docs/api.md): train a recipe on a data
 * file, check it on a second one, predict three rows held in memory, save
 * the model and load it back.  tests/cli/api.sh builds and runs it.
 *
 *   cc api_example.c $(pkg-config --cflags --libs boostlab-lib) -o api_example
 *   ./api_example TRAIN.csv TEST.csv MODEL_OUT
 */
#include <boostlab/api.h>
#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what, const char *err)
{
    fprintf(stderr, "api_example: %s: %s\n", what, err);
    return 1;
}

int main(int argc, char **argv)
{
    char err[BOOSTLAB_ERR_MAX];
    if (argc != 4) {
        fprintf(stderr, "usage: api_example TRAIN.csv TEST.csv MODEL_OUT\n");
        return 2;
    }
    boostlab_parameter *param = boostlab_parameter_new("aoso-logitboost", err);
    if (!param)
        return fail("recipe", err);
    if (boostlab_parameter_set(param, "iterations", "20", err) < 0 ||
        boostlab_parameter_set(param, "weak.leaves", "8", err) < 0)
        return fail("parameter", err);
    const char *bad = boostlab_check_parameter(param);
    if (bad)
        return fail("check", bad);

    boostlab_problem *train = boostlab_problem_read(argv[1], NULL, NULL, NULL, err);
    if (!train)
        return fail(argv[1], err);
    boostlab_model *model = boostlab_train(train, param, err);
    if (!model)
        return fail("train", err);
    printf("trained: %zu classes, %zu features, %zu terms, training error %.4f\n",
           boostlab_model_classes(model), boostlab_model_features(model),
           boostlab_model_terms(model), boostlab_model_training_error(model));

    /* the test file's labels are read through its own classes: here both
     * files number the same classes 0..k-1 */
    boostlab_problem *test = boostlab_problem_read(argv[2], NULL, NULL, NULL, err);
    if (!test)
        return fail(argv[2], err);
    size_t m = boostlab_problem_rows(test);
    int *pred = malloc(m * sizeof *pred);
    if (boostlab_predict(model, test, pred, err) < 0)
        return fail("predict", err);
    printf("test rows: %zu, first predictions: %s %s %s\n", m,
           boostlab_model_class_name(model, (size_t)pred[0]),
           boostlab_model_class_name(model, (size_t)pred[1]),
           boostlab_model_class_name(model, (size_t)pred[2]));

    /* three rows in memory (row-major doubles) with probabilities */
    size_t d = boostlab_model_features(model), k = boostlab_model_classes(model);
    double *x = calloc(3 * d, sizeof *x), *proba = malloc(3 * k * sizeof *proba);
    for (size_t f = 0; f < d; f++)
        x[f] = 50, x[d + f] = 0, x[2 * d + f] = 100;
    boostlab_problem *rows = boostlab_problem_dense(3, d, x, NULL, NULL, err);
    if (!rows || boostlab_predict_probability(model, rows, proba, err) < 0)
        return fail("rows", err);
    for (size_t i = 0; i < 3; i++) {
        size_t best = 0;
        for (size_t r = 1; r < k; r++)
            best = proba[i * k + r] > proba[i * k + best] ? r : best;
        printf("row %zu: class %s, probability %.3f\n", i,
               boostlab_model_class_name(model, best), proba[i * k + best]);
    }

    if (boostlab_save_model(argv[3], model, err) < 0)
        return fail("save", err);
    boostlab_model *back = boostlab_load_model(argv[3], err);
    if (!back)
        return fail("load", err);
    int *pred2 = malloc(m * sizeof *pred2);
    if (boostlab_predict(back, test, pred2, err) < 0)
        return fail("predict (loaded)", err);
    size_t same = 0;
    for (size_t i = 0; i < m; i++)
        same += pred[i] == pred2[i];
    printf("loaded model agrees on %zu of %zu rows\n", same, m);

    /* errors are messages, never exits */
    if (!boostlab_parameter_new("no-such-recipe", err))
        printf("error as expected: %.40s...\n", err);

    free(pred);
    free(pred2);
    free(x);
    free(proba);
    boostlab_problem_free(rows);
    boostlab_problem_free(test);
    boostlab_problem_free(train);
    boostlab_model_free(back);
    boostlab_model_free(model);
    boostlab_parameter_free(param);
    return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The methods an algorithm can run (`method = NAME`), one row each:
 *
 *   X(ID, NAME, RUN, MODEL)
 *
 * ID gives BL_METHOD_ID (bl_algo_spec.method, in row order), NAME is the
 * word experiment files use, RUN the function of exec/method.c that trains
 * it, MODEL 1 when it leaves a boosting model that can be saved.  config/
 * reads the ids and names (it checks experiment files before anything
 * runs, below the folders that run them); exec/method.c builds the method
 * table from the same rows.  A new method is one row here and its run
 * function there.
 */
#ifndef BL_CONFIG_METHODS_H
#define BL_CONFIG_METHODS_H

#define BL_METHOD_ROWS(X)                               \
    X(BOOST,       "boost",       run_boost,       1)  \
    X(STRUCTBOOST, "structboost", run_structboost, 0)  \
    X(SSVM,        "ssvm",        run_ssvm,        0)  \
    X(OVA_SVM,     "ova-svm",     run_ova_svm,     0)  \
    X(SVM,         "svm",         run_svm,         0)  \
    X(XGBOOST,     "xgboost",     run_xgboost,     0)

#define BL_METHOD_ID_(id, name, run, model) BL_METHOD_##id,
enum { BL_METHOD_ROWS(BL_METHOD_ID_) BL_NMETHODS };
#undef BL_METHOD_ID_

#endif

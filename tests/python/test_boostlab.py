# SPDX-License-Identifier: GPL-3.0-or-later
"""The Python package on libboostlab (run by tests/cli/python.sh, which sets
BOOSTLAB_LIB, PYTHONPATH, BL (the boostlab program) and BL_SRC): the
classifier predicts what `boostlab train`/`predict` predict, passes
scikit-learn's check_estimator, works in cross_val_score and GridSearchCV,
refuses bad arguments naming them; plugins, recipes, run and results; and
the examples of docs/python.md run."""
import os
import pickle
import re
import subprocess
import tempfile
import unittest
import warnings

import numpy as np

import boostlab

SRC = os.environ["BL_SRC"]
BL = os.environ["BL"]


def load(name):
    path = os.path.join(SRC, "data", name)
    d = np.loadtxt(path, delimiter=",", skiprows=1)
    return d[:, 1:], d[:, 0].astype(int), path


def cli_labels(recipe, train, test, iterations, tmp, sets=()):
    model = os.path.join(tmp, "m.model")
    cmd = [BL, "train", "-q", "--data", train, "--recipe", recipe, "--iterations",
           str(iterations), "--model", model, "--threads", "1"]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True)
    out = subprocess.run([BL, "predict", "-q", "--model", model, "--data", test],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    return np.array([int(x) for x in out.split()])


class SameAsCommandLine(unittest.TestCase):
    def check(self, recipe, train, test, iterations, **params):
        X, y, ptrain = load(train)
        Xt, yt, ptest = load(test)
        sets = ["%s=%s" % (k.replace("__", "."), v) for k, v in params.items()]
        with tempfile.TemporaryDirectory() as tmp:
            want = cli_labels(recipe, ptrain, ptest, iterations, tmp, sets)
        clf = boostlab.Classifier(recipe=recipe, iterations=iterations, threads=1, **params)
        got = clf.fit(X, y).predict(Xt)
        self.assertEqual(len(got), len(yt))
        np.testing.assert_array_equal(got, want)
        # staged prediction ends where the model is
        last = None
        for last in clf.staged_predict(Xt):
            pass
        np.testing.assert_array_equal(last, got)
        return clf, Xt, yt

    def test_iris(self):
        clf, Xt, yt = self.check("aoso-logitboost", "iris.csv", "iris.csv", 20)
        self.assertEqual(clf.n_iter_, 20)
        self.assertEqual(clf.n_features_in_, 4)
        np.testing.assert_array_equal(clf.classes_, [0, 1, 2])
        P = clf.predict_proba(Xt)
        np.testing.assert_allclose(P.sum(axis=1), 1.0)
        np.testing.assert_array_equal(clf.classes_[P.argmax(axis=1)], clf.predict(Xt))
        self.check("mcboost-exp", "iris.csv", "iris.csv", 15)

    def test_pendigits(self):
        clf, Xt, yt = self.check("aoso-logitboost", "pendigits.train.csv",
                                 "pendigits.test.csv", 8, weak__leaves=8)
        self.assertLess(np.mean(clf.predict(Xt) != yt), 0.3)   # 8 shrunken steps

    def test_layouts_and_labels(self):
        X, y, _ = load("iris.csv")
        words = np.array(["setosa", "versicolor", "virginica"])[y]
        ref = boostlab.Classifier(iterations=10).fit(X, y).predict(X)
        # string labels, Fortran float32 (borrowed), CSR: same model
        for Xv in (X, np.asfortranarray(X, dtype=np.float32)):
            got = boostlab.Classifier(iterations=10).fit(Xv, words).predict(Xv)
            np.testing.assert_array_equal(got, np.array(["setosa", "versicolor",
                                                          "virginica"])[ref])
        import scipy.sparse as sp
        got = boostlab.Classifier(iterations=10).fit(sp.csr_matrix(X), y).predict(X)
        np.testing.assert_array_equal(got, ref)
        clf = boostlab.Classifier(iterations=10).fit(X, y)
        back = pickle.loads(pickle.dumps(clf))
        np.testing.assert_array_equal(back.decision_function(X), clf.decision_function(X))


class ScikitLearn(unittest.TestCase):
    def test_check_estimator(self):
        from sklearn.utils.estimator_checks import check_estimator
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_estimator(boostlab.Classifier(iterations=10))
            # a loss without probabilities: no predict_proba at all
            check_estimator(boostlab.Classifier(recipe="mcboost-exp", iterations=10))
        self.assertFalse(hasattr(boostlab.Classifier(recipe="mcboost-exp"), "predict_proba"))
        self.assertTrue(hasattr(boostlab.Classifier(), "predict_proba"))

    def test_cross_val_score(self):
        from sklearn.model_selection import cross_val_score
        X, y, _ = load("iris.csv")
        s = cross_val_score(boostlab.Classifier(iterations=10), X, y, cv=3)
        self.assertEqual(len(s), 3)
        self.assertGreater(s.mean(), 0.85)

    def test_grid_search(self):
        from sklearn.base import clone
        from sklearn.model_selection import GridSearchCV
        X, y, _ = load("iris.csv")
        g = GridSearchCV(boostlab.Classifier(iterations=5),
                         {"shrinkage": [0.05, 0.5], "weak__leaves": [4, 8]}, cv=3)
        g.fit(X, y)
        self.assertEqual(len(g.cv_results_["params"]), 4)
        self.assertIn(g.best_params_["shrinkage"], (0.05, 0.5))
        c = clone(boostlab.Classifier(iterations=5, weak__leaves=4))
        self.assertEqual(c.get_params()["weak__leaves"], 4)


class BadArguments(unittest.TestCase):
    def fit(self, **kw):
        X, y, _ = load("iris.csv")
        boostlab.Classifier(**kw).fit(X, y)

    def test_errors_name_the_argument(self):
        cases = [(dict(iterations=0), ValueError, "iterations"),
                 (dict(iterations="5"), TypeError, "iterations"),
                 (dict(max_bins=1), ValueError, "max_bins"),
                 (dict(threads=0), ValueError, "threads"),
                 (dict(recipe=5), TypeError, "recipe"),
                 (dict(recipe="no-such-recipe"), ValueError, "recipe='no-such-recipe'.*no recipe"),
                 (dict(weak__nope=1), ValueError, "weak__nope"),
                 (dict(shrinkage=-1), ValueError, "shrinkage")]
        for kw, exc, pat in cases:
            with self.assertRaisesRegex(exc, pat, msg=str(kw)):
                self.fit(iterations=kw.pop("iterations", 3), **kw)
        with self.assertRaisesRegex(ValueError, "jobs"):
            boostlab.run("x.ini", jobs=0)
        with self.assertRaises(FileNotFoundError):
            boostlab.results("/nonexistent/folder")
        with self.assertRaisesRegex(ValueError, "path="):
            boostlab.add_plugin_path("/nonexistent/folder")
        with self.assertRaisesRegex(ValueError, "set_params"):
            boostlab.Classifier().set_params(_x=1)


class SampleWeight(unittest.TestCase):
    # two points, three examples each; the heavy example's label wins
    X = np.array([[0.0]] * 3 + [[1.0]] * 3)
    y = np.array([0, 0, 1, 1, 1, 0])
    w = np.array([1, 1, 5, 1, 1, 5], dtype=float)

    def test_weight_flips_predictions(self):
        for recipe in ("aoso-logitboost", "logitboost", "gradboost", "mcboost-exp"):
            clf = boostlab.Classifier(recipe=recipe, iterations=10, threads=1)
            np.testing.assert_array_equal(clf.fit(self.X, self.y).predict([[0], [1]]), [0, 1],
                                          err_msg=recipe)
            np.testing.assert_array_equal(
                clf.fit(self.X, self.y, sample_weight=self.w).predict([[0], [1]]), [1, 0],
                err_msg=recipe)
            # weights all 3 are no weights; weight 0 leaves the example out
            ref = clf.fit(self.X, self.y).decision_function(self.X)
            np.testing.assert_array_equal(
                clf.fit(self.X, self.y, sample_weight=np.full(6, 3.0)).decision_function(self.X),
                ref)
            keep = [0, 1, 3, 4, 5]
            ref = clf.fit(self.X[keep], self.y[keep]).decision_function(self.X)
            np.testing.assert_array_equal(
                clf.fit(self.X, self.y, sample_weight=[1, 1, 0, 1, 1, 1]).decision_function(
                    self.X), ref)

    def test_bad_weights_are_refused(self):
        clf = boostlab.Classifier(iterations=3)
        with self.assertRaisesRegex(ValueError, "[Nn]egative"):
            clf.fit(self.X, self.y, sample_weight=[1, -1, 1, 1, 1, 1])
        with self.assertRaisesRegex(ValueError, "sample_weight: every example weight is 0"):
            clf.fit(self.X, self.y, sample_weight=np.zeros(6))
        with self.assertRaisesRegex(ValueError, "hinge targets"):
            boostlab.Classifier(recipe="hingeboost-oc", iterations=3).fit(self.X, self.y,
                                                                          sample_weight=self.w)


class Experiments(unittest.TestCase):
    def test_plugins_and_recipes(self):
        p = boostlab.plugins()
        self.assertIn("stump", set(p.name))
        self.assertEqual(set(p.role) - {"loss", "weak", "solver", "coding", "task",
                                        "projection"}, set())
        r = boostlab.recipes()
        self.assertIn("aoso-logitboost", set(r.name))
        fixture = os.path.join(os.environ["BL_BUILD"], "tests", "plugins", ".libs",
                               "good_loss.so")
        if os.path.exists(fixture):
            boostlab.add_plugin_path(fixture)
            self.assertIn("fixture-sq", set(boostlab.plugins().name))

    def test_run_and_results(self):
        with tempfile.TemporaryDirectory() as tmp:
            ini = os.path.join(tmp, "exp.ini")
            with open(ini, "w") as f:
                f.write("[experiment]\nname = py\nseed = 1\nrepeats = 2\niterations = 5\n"
                        "output = %s/out\n\n[data iris]\nfile = %s/data/iris.csv\n"
                        "split = ratio\ntest_ratio = 0.25\n\n"
                        "[algorithm a]\nrecipe = aoso-logitboost\n\n"
                        "[algorithm m]\nrecipe = mcboost-exp\n" % (tmp, SRC))
            boostlab.run(ini, jobs=2)
            res = boostlab.results(os.path.join(tmp, "out"))
            self.assertEqual(len(res.runs), 4)             # 1 data set x 2 algorithms x 2
            self.assertEqual(sorted(set(res.runs.algo)), ["a", "m"])
            self.assertEqual(len(res.curves), int(res.runs.iterations.sum()))
            self.assertTrue(set(res.curves.run_id) <= set(res.runs.id))


class Docs(unittest.TestCase):
    def test_python_md_examples(self):
        with open(os.path.join(SRC, "docs", "python.md")) as f:
            blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
        self.assertGreater(len(blocks), 0)
        here = os.getcwd()
        with tempfile.TemporaryDirectory() as tmp:
            os.chdir(tmp)
            os.symlink(os.path.join(SRC, "data"), "data")
            try:
                scope = {}
                for b in blocks:
                    exec(compile(b, "docs/python.md", "exec"), scope)
            finally:
                os.chdir(here)


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-3.0-or-later
"""boostlab.Classifier: a boostlab recipe as a scikit-learn classifier, on
libboostlab through ctypes (docs/python.md)."""
import ctypes
import numbers
import os
import tempfile

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from . import _lib
from ._lib import lib

try:
    import scipy.sparse as _sp
except ImportError:  # scikit-learn needs scipy, but keep the import soft
    _sp = None

_BASE = ("recipe", "iterations", "max_bins", "threads", "seed")


def _key(name):
    """Python name of a recipe key -> the key: weak__max_leaves -> weak.max_leaves."""
    return name.replace("__", ".")


def _value(v):
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(_value(x) for x in v)
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _whole(name, v, lo, hi=None, none_ok=False):
    if v is None and none_ok:
        return
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral):
        raise TypeError("%s must be a whole number%s, got %r" %
                        (name, " or None" if none_ok else "", v))
    if v < lo or (hi is not None and v > hi):
        raise ValueError("%s must be in %d..%s, got %r" % (name, lo, hi if hi else "", v))


class _Handle:
    """Owns one library object; frees it with the library's function."""

    def __init__(self, ptr, free):
        self.ptr, self._free = ptr, free

    def __del__(self):
        if self.ptr:
            self._free(self.ptr)
            self.ptr = None


def _problem(X, y=None, w=None):
    """A library problem over X (and class indices y, example weights w);
    the arrays it may borrow are kept with the handle."""
    err = _lib.errbuf()
    yp = wp = None
    if w is not None:
        w = np.ascontiguousarray(w, dtype=np.float64)
        wp = w.ctypes.data_as(_lib.c_dp)
    if y is not None:
        y = np.ascontiguousarray(y, dtype=np.intc)
        yp = y.ctypes.data_as(_lib.c_ip)
    if _sp is not None and _sp.issparse(X):
        X = X.tocsr()
        if not X.has_canonical_format:     # sorted, no duplicates; the caller's is kept
            X = X.copy()
            X.sum_duplicates()
        indptr = np.ascontiguousarray(X.indptr, dtype=np.int64)
        indices = np.ascontiguousarray(X.indices, dtype=np.int32)
        data = np.ascontiguousarray(X.data, dtype=np.float64)
        p = lib.boostlab_problem_csr(X.shape[0], X.shape[1],
                                     indptr.ctypes.data_as(ctypes.POINTER(ctypes.c_int64)),
                                     indices.ctypes.data_as(ctypes.POINTER(ctypes.c_int32)),
                                     data.ctypes.data_as(_lib.c_dp), yp, wp, err)
        keep = ()
    elif X.dtype == np.float32 and X.flags.f_contiguous:
        # the engine's own layout: borrowed, no copy
        p = lib.boostlab_problem_colmajor(X.shape[0], X.shape[1],
                                          X.ctypes.data_as(_lib.c_fp), yp, wp, err)
        keep = (X,)
    else:
        # row-major doubles are read in place (the library converts them
        # to its feature-major floats while it copies)
        X = np.ascontiguousarray(X, dtype=np.float64)
        p = lib.boostlab_problem_dense(X.shape[0], X.shape[1],
                                       X.ctypes.data_as(_lib.c_dp), yp, wp, err)
        keep = ()
    if not p:
        msg = _lib.text(err)
        raise ValueError(("sample_weight: " if "weight" in msg else "X: ") + msg)
    h = _Handle(p, lib.boostlab_problem_free)
    h.keep = keep
    return h


def _parameter(recipe, iterations, max_bins, threads, seed, params):
    """A checked library parameter, or ValueError/TypeError naming the argument."""
    if not isinstance(recipe, str):
        raise TypeError("recipe must be a str (a recipe name or a recipe file), got %r" %
                        (recipe,))
    _whole("iterations", iterations, 1, 100000000)
    _whole("max_bins", max_bins, 2, 256)
    _whole("threads", threads, 1, 1024, none_ok=True)
    _whole("seed", seed, 0)
    err = _lib.errbuf()
    p = lib.boostlab_parameter_new(_lib.b(recipe), err)
    if not p:
        raise ValueError("recipe=%r: %s" % (recipe, _lib.text(err)))
    h = _Handle(p, lib.boostlab_parameter_free)
    own = {"iterations": iterations, "max_bins": max_bins, "seed": seed,
           "threads": threads or 0}
    for k, v in own.items():
        if lib.boostlab_parameter_set(p, _lib.b(k), _lib.b(str(v)), err) < 0:
            raise ValueError("%s=%r: %s" % (k, v, _lib.text(err)))
    for k, v in sorted(params.items()):
        if lib.boostlab_parameter_set(p, _lib.b(_key(k)), _lib.b(_value(v)), err) < 0:
            raise ValueError("%s=%r (recipe key %s): %s" % (k, v, _key(k), _lib.text(err)))
    bad = lib.boostlab_check_parameter(p)
    if bad:
        raise ValueError("recipe=%r with %s: %s" % (
            recipe, ", ".join("%s=%r" % kv for kv in sorted(params.items())) or "its defaults",
            _lib.s(bad)))
    return h


class Classifier(ClassifierMixin, BaseEstimator):
    """A boostlab recipe as a scikit-learn classifier.

    recipe: a recipe name (boostlab.recipes()) or a recipe file;
    iterations, max_bins, seed: as `boostlab train`; threads: None for
    OMP_NUM_THREADS, else every core.  Any other keyword is a key of the
    recipe, with "__" for its dot: Classifier(shrinkage=0.5,
    weak__max_leaves=8) is `--set shrinkage=0.5 --set weak.max_leaves=8`.
    Those keys are parameters like the others (get_params, set_params,
    clone, GridSearchCV).  predict_proba exists where the recipe's loss
    defines probabilities (softmax, klogit); elsewhere hasattr(clf,
    "predict_proba") is False.
    """

    def __init__(self, recipe="aoso-logitboost", iterations=100, max_bins=256, threads=None,
                 seed=1, **params):
        self.recipe = recipe
        self.iterations = iterations
        self.max_bins = max_bins
        self.threads = threads
        self.seed = seed
        for k, v in params.items():
            setattr(self, k, v)

    # ---- parameters: the named ones and the recipe keys ----------------------
    def _recipe_params(self):
        return {k: v for k, v in vars(self).items()
                if k not in _BASE and not k.startswith("_") and not k.endswith("_")}

    def get_params(self, deep=True):
        out = super().get_params(deep=deep)
        out.update(self._recipe_params())
        return out

    def set_params(self, **params):
        for k, v in params.items():
            if k in _BASE:
                setattr(self, k, v)
            elif not k or k.startswith("_") or k.endswith("_") or not k.replace("__", "").replace("_", "").isalnum():
                raise ValueError("set_params: %r is not a recipe key (recipe keys are written "
                                 "like shrinkage or weak__max_leaves)" % k)
            else:
                setattr(self, k, v)
        return self

    def _more_tags(self):
        return {"allow_nan": True}

    def _param(self):
        return _parameter(self.recipe, self.iterations, self.max_bins, self.threads, self.seed,
                          self._recipe_params())

    # ---- training ----------------------------------------------------------------
    def fit(self, X, y, sample_weight=None):
        """Train on X, y; sample_weight (non-negative, not all 0) weighs
        each example's loss term, and examples of weight 0 are left out
        (docs/python.md says which recipes refuse uneven weights)."""
        X, y = self._validate_data(X, y, accept_sparse="csr", dtype=(np.float64, np.float32),
                                   force_all_finite="allow-nan")
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64,
                                                 only_non_negative=True)
        check_classification_targets(y)
        classes, yi = np.unique(y, return_inverse=True)
        if len(classes) < 2:
            raise ValueError("y holds one class (%r); a classifier needs at least 2 classes" %
                             (classes[0],))
        param = self._param()
        prob = _problem(X, yi, sample_weight)
        err = _lib.errbuf()
        names = [str(c) for c in classes]
        if len(set(names)) == len(names) and all(n and "\n" not in n for n in names):
            arr = (ctypes.c_char_p * len(names))(*[_lib.b(n) for n in names])
            lib.boostlab_problem_set_classes(prob.ptr, len(names), arr, err)
        fn = getattr(self, "feature_names_in_", None)
        if fn is not None:
            arr = (ctypes.c_char_p * len(fn))(*[_lib.b(str(n)) for n in fn])
            lib.boostlab_problem_set_features(prob.ptr, arr, err)
        mo = lib.boostlab_train(prob.ptr, param.ptr, err)
        if not mo:
            raise ValueError("fit: " + _lib.text(err))
        self._model = _Handle(mo, lib.boostlab_model_free)
        self.classes_ = classes
        self.n_iter_ = int(lib.boostlab_model_iterations(mo))
        return self

    # ---- prediction -------------------------------------------------------------
    def _prob(self, X):
        check_is_fitted(self)
        X = self._validate_data(X, reset=False, accept_sparse="csr",
                                dtype=(np.float64, np.float32), force_all_finite="allow-nan")
        return _problem(X), X.shape[0]

    def _scores(self, X):
        prob, m = self._prob(X)
        F = np.empty((m, len(self.classes_)))
        lab = np.empty(F.shape[0], dtype=np.intc)
        err = _lib.errbuf()
        if lib.boostlab_predict_values(self._model.ptr, prob.ptr, F.ctypes.data_as(_lib.c_dp),
                                       lab.ctypes.data_as(_lib.c_ip), err) < 0:
            raise ValueError("X: " + _lib.text(err))
        return F, lab

    def predict(self, X):
        lab = self._scores(X)[1]
        return self.classes_[lab]

    def decision_function(self, X):
        """The model's class scores F (n_samples x n_classes; the prediction
        is the argmax), or F[:, 1] - F[:, 0] for two classes."""
        F = self._scores(X)[0]
        return F[:, 1] - F[:, 0] if F.shape[1] == 2 else F

    def _has_proba(self):
        if hasattr(self, "_model"):
            return bool(lib.boostlab_model_has_probability(self._model.ptr))
        try:
            return _loss_has_proba(self._param())
        except (ValueError, TypeError):
            return False

    @available_if(_has_proba)
    def predict_proba(self, X):
        prob, m = self._prob(X)
        P = np.empty((m, len(self.classes_)))
        err = _lib.errbuf()
        if lib.boostlab_predict_probability(self._model.ptr, prob.ptr,
                                            P.ctypes.data_as(_lib.c_dp), err) < 0:
            raise ValueError(_lib.text(err))
        return P

    @available_if(_has_proba)
    def predict_log_proba(self, X):
        return np.log(self.predict_proba(X))

    def staged_decision_function(self, X):
        """The scores after each term of the model (one per iteration)."""
        prob, m = self._prob(X)
        F = np.zeros((m, len(self.classes_)))
        err = _lib.errbuf()
        for t in range(int(lib.boostlab_model_terms(self._model.ptr))):
            if lib.boostlab_add_terms(self._model.ptr, prob.ptr, t, t + 1,
                                      F.ctypes.data_as(_lib.c_dp), err) < 0:
                raise ValueError(_lib.text(err))
            yield F[:, 1] - F[:, 0] if F.shape[1] == 2 else F.copy()

    def staged_predict(self, X):
        """The predictions after each term of the model."""
        for F in self.staged_decision_function(X):
            yield self.classes_[(F > 0).astype(int) if F.ndim == 1 else np.argmax(F, axis=1)]

    # ---- model files and pickling -------------------------------------------------
    def save_model(self, path):
        """Write the model file `boostlab predict --model` reads."""
        check_is_fitted(self)
        err = _lib.errbuf()
        if lib.boostlab_save_model(_lib.b(os.fspath(path)), self._model.ptr, err) < 0:
            raise OSError(_lib.text(err))

    def __getstate__(self):
        state = dict(self.__dict__)
        if "_model" in state:
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "m.model")
                self.save_model(path)
                with open(path, "rb") as f:
                    state["_model"] = f.read()
        return state

    def __setstate__(self, state):
        blob = state.get("_model")
        if isinstance(blob, bytes):
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "m.model")
                with open(path, "wb") as f:
                    f.write(blob)
                state["_model"] = _load(path)
        self.__dict__.update(state)


def _load(path):
    err = _lib.errbuf()
    mo = lib.boostlab_load_model(_lib.b(os.fspath(path)), err)
    if not mo:
        raise ValueError(_lib.text(err))
    return _Handle(mo, lib.boostlab_model_free)


def _loss_has_proba(param):
    txt = lib.boostlab_parameter_text(param.ptr)
    try:
        for line in ctypes.string_at(txt).decode().splitlines():
            if line.startswith("loss = "):
                return line.split("=", 1)[1].strip() in ("softmax", "klogit")
        return False
    finally:
        lib.boostlab_free(txt)

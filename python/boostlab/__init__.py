# SPDX-License-Identifier: GPL-3.0-or-later
"""boostlab from Python: a recipe as a scikit-learn classifier
(Classifier), the plugins and recipes installed, experiment files run and
their results store read as pandas DataFrames.  See docs/python.md."""
from ._lib import Error, lib as _clib
from .experiments import add_plugin_path, plugins, program, recipes, results, run

__version__ = _clib.boostlab_version().decode()
__all__ = ["Classifier", "Error", "add_plugin_path", "plugins", "program", "recipes",
           "results", "run"]


def __getattr__(name):
    # scikit-learn is imported with the classifier only: it is most of the
    # package's import time, which plugins(), run() and results() do not need
    if name == "Classifier":
        from .classifier import Classifier
        return Classifier
    raise AttributeError("module 'boostlab' has no attribute %r" % name)

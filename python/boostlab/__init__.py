# SPDX-License-Identifier: GPL-3.0-or-later
"""boostlab from Python: a recipe as a scikit-learn classifier
(Classifier), the plugins and recipes installed, experiment files run and
their results store read as pandas DataFrames.  See docs/python.md."""
from ._lib import Error, lib as _clib
from .classifier import Classifier
from .experiments import add_plugin_path, plugins, program, recipes, results, run

__version__ = _clib.boostlab_version().decode()
__all__ = ["Classifier", "Error", "add_plugin_path", "plugins", "program", "recipes",
           "results", "run"]

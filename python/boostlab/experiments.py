# SPDX-License-Identifier: GPL-3.0-or-later
"""The plugins and recipes boostlab finds, experiment files run by the
`boostlab` program that goes with the library, and the results store read
as pandas DataFrames."""
import collections
import ctypes
import os
import shutil
import sqlite3
import subprocess

from . import _lib
from ._lib import lib


def _infos(fn):
    out = ctypes.POINTER(_lib.Info)()
    err = _lib.errbuf()
    n = fn(ctypes.byref(out), err)
    if n < 0:
        raise _lib.Error(_lib.text(err))
    return [tuple(_lib.s(getattr(out[j], f)) for f in ("kind", "name", "doc", "where"))
            for j in range(n)]


def plugins():
    """The plugins loaded: a DataFrame of role, name, doc and file, by role
    then name."""
    import pandas as pd
    return pd.DataFrame(_infos(lib.boostlab_plugins), columns=["role", "name", "doc", "file"])


def recipes():
    """The recipes found, in search order: a DataFrame of name, doc, file."""
    import pandas as pd
    rows = [r[1:] for r in _infos(lib.boostlab_recipes)]
    return pd.DataFrame(rows, columns=["name", "doc", "file"])


def add_plugin_path(path):
    """Load plugins from path (a folder of .so files, or one file) too,
    after the standard folders and BOOSTLAB_PLUGIN_PATH."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError("path must be a folder or file name, got %r" % (path,))
    err = _lib.errbuf()
    if lib.boostlab_add_plugin_path(_lib.b(os.fspath(path)), err) < 0:
        raise ValueError("path=%r: %s" % (path, _lib.text(err)))


def program():
    """The `boostlab` program that goes with the library: beside it (its
    build tree, PREFIX/bin for PREFIX/lib), else the one on PATH."""
    p = _lib.s(lib.boostlab_program()) or shutil.which("boostlab")
    if not p:
        raise _lib.Error("no boostlab program beside %s nor on PATH" % _lib.path)
    return p


def run(ini, jobs=1, threads=None, quiet=True, check=True):
    """Run the experiment file ini with `boostlab run --jobs JOBS`: its runs
    go to the results store of its output folder, which is returned.  The
    run machinery (worker processes, MPI) lives in the program, so this
    runs it as a subprocess.  The summary table is returned as text in
    .stdout of the CompletedProcess when check is False."""
    if not isinstance(ini, (str, os.PathLike)):
        raise TypeError("ini must be an experiment file name, got %r" % (ini,))
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError("jobs must be a whole number >= 1, got %r" % (jobs,))
    cmd = [program(), "run", "--jobs", str(jobs)]
    if threads is not None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError("threads must be a whole number >= 1 or None, got %r" % (threads,))
        cmd += ["--threads", str(threads)]
    if quiet:
        cmd.append("--quiet")
    cmd.append(os.fspath(ini))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and r.returncode != 0:
        raise _lib.Error("boostlab run %s failed (exit %d): %s" %
                         (os.fspath(ini), r.returncode, r.stderr.strip()))
    return r


Results = collections.namedtuple("Results", "runs curves metrics")


def results(folder):
    """The results store of an experiment's output folder (or the
    results.sqlite file itself) as DataFrames: runs (one row per stored
    run), curves (one row per run and iteration, run_id joins runs.id) and
    metrics (a task's final metrics per run)."""
    import pandas as pd
    if not isinstance(folder, (str, os.PathLike)):
        raise TypeError("folder must be a folder or file name, got %r" % (folder,))
    path = os.fspath(folder)
    if os.path.isdir(path):
        path = os.path.join(path, "results.sqlite")
    if not os.path.isfile(path):
        raise FileNotFoundError("%s: no results store (boostlab run writes "
                                "OUTPUT/results.sqlite)" % path)
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        try:
            meta = dict(db.execute("SELECT key, value FROM meta"))
        except sqlite3.DatabaseError as e:
            raise ValueError("%s: not a boostlab results store (%s)" % (path, e))
        if meta.get("application") != "boostlab":
            raise ValueError("%s: not a boostlab results store" % path)
        runs = pd.read_sql_query("SELECT * FROM runs ORDER BY id", db)
        curves = pd.read_sql_query("SELECT * FROM curves ORDER BY run_id, iter", db)
        have = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        metrics = (pd.read_sql_query("SELECT * FROM metrics ORDER BY run_id, name", db)
                   if "metrics" in have else
                   pd.DataFrame(columns=["run_id", "name", "train", "test"]))
    finally:
        db.close()
    return Results(runs, curves, metrics)

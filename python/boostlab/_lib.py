# SPDX-License-Identifier: GPL-3.0-or-later
"""ctypes bindings of libboostlab (include/boostlab/api.h), and where the
library is found: $BOOSTLAB_LIB; else the build tree the package sits in
(python/boostlab of an in-tree build: .libs/ two folders up); else,
installed, the library folder _paths.py names relative to this package (or
absolutely), which make writes."""
import ctypes
import os

ERR_MAX = 1024
_here = os.path.dirname(os.path.abspath(__file__))


def _candidates():
    env = os.environ.get("BOOSTLAB_LIB")
    if env:
        return [env]
    # the build tree first: a tree's package never picks an installed library
    out = [os.path.normpath(os.path.join(_here, "..", "..", ".libs", "libboostlab.so.0"))]
    try:
        from . import _paths  # written by make for the installed package
        out.append(os.path.normpath(os.path.join(_here, _paths.LIBDIR_REL, _paths.SONAME)))
        out.append(os.path.join(_paths.LIBDIR, _paths.SONAME))
    except ImportError:
        pass
    return out


def _open():
    tried = []
    for path in _candidates():
        if os.path.exists(path):
            return ctypes.CDLL(path), path
        tried.append(path)
    raise ImportError("boostlab: libboostlab not found (tried %s); set BOOSTLAB_LIB to the "
                      "library's path (e.g. BUILD/.libs/libboostlab.so.0)" % ", ".join(tried))


lib, path = _open()

c_size = ctypes.c_size_t
c_p = ctypes.c_void_p
c_str = ctypes.c_char_p
c_dp = ctypes.POINTER(ctypes.c_double)
c_ip = ctypes.POINTER(ctypes.c_int)
c_fp = ctypes.POINTER(ctypes.c_float)


class Info(ctypes.Structure):
    _fields_ = [("kind", c_str), ("name", c_str), ("doc", c_str), ("where", c_str)]


def _sig(name, res, *args):
    f = getattr(lib, name)
    f.restype = res
    f.argtypes = list(args)


_sig("boostlab_version", c_str)
_sig("boostlab_free", None, c_p)
_sig("boostlab_problem_dense", c_p, c_size, c_size, c_dp, c_ip, c_dp, c_str)
_sig("boostlab_problem_colmajor", c_p, c_size, c_size, c_fp, c_ip, c_dp, c_str)
_sig("boostlab_problem_csr", c_p, c_size, c_size, ctypes.POINTER(ctypes.c_int64),
     ctypes.POINTER(ctypes.c_int32), c_dp, c_ip, c_dp, c_str)
_sig("boostlab_problem_set_classes", ctypes.c_int, c_p, c_size, ctypes.POINTER(c_str), c_str)
_sig("boostlab_problem_set_features", ctypes.c_int, c_p, ctypes.POINTER(c_str), c_str)
_sig("boostlab_problem_free", None, c_p)
_sig("boostlab_parameter_new", c_p, c_str, c_str)
_sig("boostlab_parameter_set", ctypes.c_int, c_p, c_str, c_str, c_str)
_sig("boostlab_check_parameter", c_str, c_p)
_sig("boostlab_parameter_text", c_p, c_p)
_sig("boostlab_parameter_free", None, c_p)
_sig("boostlab_train", c_p, c_p, c_p, c_str)
for _n in ("classes", "features", "terms", "iterations"):
    _sig("boostlab_model_" + _n, c_size, c_p)
_sig("boostlab_model_has_probability", ctypes.c_int, c_p)
_sig("boostlab_predict_values", ctypes.c_int, c_p, c_p, c_dp, c_ip, c_str)
_sig("boostlab_predict_probability", ctypes.c_int, c_p, c_p, c_dp, c_str)
_sig("boostlab_add_terms", ctypes.c_int, c_p, c_p, c_size, c_size, c_dp, c_str)
_sig("boostlab_save_model", ctypes.c_int, c_str, c_p, c_str)
_sig("boostlab_load_model", c_p, c_str, c_str)
_sig("boostlab_model_free", None, c_p)
_sig("boostlab_add_plugin_path", ctypes.c_int, c_str, c_str)
_sig("boostlab_plugins", ctypes.c_long, ctypes.POINTER(ctypes.POINTER(Info)), c_str)
_sig("boostlab_recipes", ctypes.c_long, ctypes.POINTER(ctypes.POINTER(Info)), c_str)
_sig("boostlab_program", c_str)


class Error(RuntimeError):
    """A failure the library reports (its message)."""


def errbuf():
    return ctypes.create_string_buffer(ERR_MAX)


def text(err):
    return err.value.decode("utf-8", "replace")


def b(s):
    return s.encode("utf-8") if isinstance(s, str) else s


def s(v):
    return v.decode("utf-8", "replace") if v is not None else None

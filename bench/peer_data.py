# SPDX-License-Identifier: GPL-3.0-or-later
"""Data loading shared by the Python peers of the benchmarks (xgb_peer.py,
sk_peer.py), so that they read the same rows as boostlab does.

Three sources, chosen by command-line options that add_data_args() adds:
  --letter CSV [--first N]  one CSV (header, label first), the first N rows
                            train (16000), the rest test (boostlab split=first)
  --csv TRAIN TEST          two such CSV files (boostlab test_file)
  --idx DIR                 the four Fashion-MNIST IDX files in DIR
  --libsvm TRAIN TEST       two LIBSVM files (label = class index, 1-based
                            features), kept sparse (scipy CSR, float32)
Labels are class indices 0..k-1 (as in data/*.csv); features are float32.
--pred-rows N: the peers time prediction on the test rows repeated until
there are at least N (tiled()), as bench/suite.sh does for boostlab predict.
"""
import gzip
import os
import sys

import numpy as np


def read_idx(path):
    """An IDX file (gzip or not) of unsigned bytes as a numpy array of its shape."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        raw = f.read()
    if raw[:2] != b"\0\0" or raw[2] != 0x08:
        sys.exit(f"{path}: not an unsigned-byte IDX file")
    nd = raw[3]
    shape = tuple(int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(nd))
    return np.frombuffer(raw, np.uint8, offset=4 + 4 * nd).reshape(shape)


def read_csv(path):
    """A CSV with a header line and the class index in the first column."""
    a = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float32, ndmin=2)
    return a[:, 1:], a[:, 0].astype(np.int32)


def add_data_args(p):
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--letter", metavar="CSV",
                     help="one CSV (label first, header): the first --first rows train")
    src.add_argument("--csv", nargs=2, metavar=("TRAIN", "TEST"),
                     help="a training and a test CSV (label first, header)")
    src.add_argument("--idx", metavar="DIR", help="folder of the four Fashion-MNIST IDX files")
    src.add_argument("--libsvm", nargs=2, metavar=("TRAIN", "TEST"),
                     help="a training and a test LIBSVM file, kept sparse")
    p.add_argument("--first", type=int, default=16000, help="--letter: training rows (16000)")
    p.add_argument("--pred-rows", type=int, default=0, metavar="N",
                   help="time prediction on the test rows repeated to at least N rows")


def tiled(Xt, yt, n):
    """The test rows repeated as a whole until there are at least n."""
    r = max(1, -(-n // len(yt)))
    if not isinstance(Xt, np.ndarray):  # sparse
        import scipy.sparse
        return scipy.sparse.vstack([Xt] * r, format="csr"), np.tile(yt, r)
    return np.tile(Xt, (r, 1)), np.tile(yt, r)


def load(args):
    """(X, y, Xt, yt) of the source the arguments name."""
    if args.letter:
        X, y = read_csv(args.letter)
        n = args.first
        if not 0 < n < len(y):
            sys.exit(f"--first {n}: {args.letter} has {len(y)} rows")
        return X[:n], y[:n], X[n:], y[n:]
    if args.libsvm:
        from sklearn.datasets import load_svmlight_files
        X, y, Xt, yt = load_svmlight_files(args.libsvm, dtype=np.float32, zero_based=False)
        return X, y.astype(np.int32), Xt, yt.astype(np.int32)
    if args.csv:
        X, y = read_csv(args.csv[0])
        Xt, yt = read_csv(args.csv[1])
        return X, y, Xt, yt
    d = args.idx
    X = read_idx(os.path.join(d, "train-images-idx3-ubyte.gz"))
    Xt = read_idx(os.path.join(d, "t10k-images-idx3-ubyte.gz"))
    return (X.reshape(len(X), -1).astype(np.float32),
            read_idx(os.path.join(d, "train-labels-idx1-ubyte.gz")).astype(np.int32),
            Xt.reshape(len(Xt), -1).astype(np.float32),
            read_idx(os.path.join(d, "t10k-labels-idx1-ubyte.gz")).astype(np.int32))


def peak_rss_kb():
    """This process's peak resident set size in kB (VmHWM), or 0."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def median_seconds(fn, reps=5):
    """The median wall time of reps calls of fn(), and its last result."""
    import time
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2], out

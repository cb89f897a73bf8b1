# SPDX-License-Identifier: GPL-3.0-or-later
"""XGBoost peer of bench/trees-xgboost.sh: train XGBoost on letter or
Fashion-MNIST and time every boosting round.

Settings (issue 4): objective multi:softprob, tree_method=hist,
grow_policy=lossguide, max_leaves=20, max_depth=0, eta=0.1, max_bin=256,
lambda at its default, nthread=N.  The data go into QuantileDMatrix objects,
so the histogram cuts are computed at construction (timed apart, as
`dmatrix_s`), as boostlab quantizes before its first iteration.  A callback
stamps the end of each round; a round's time includes the cheap incremental
evaluation of 'merror' on the test set, as boostlab's iteration time includes
scoring the test set.

Prints key=value lines on stdout: rounds, trees_per_round (k), s_per_round
(median), s_per_tree (= s_per_round / k), s_round1, train_s (xgb.train
only), dmatrix_s, load_s, test_err (final, a fraction), peak_rss_kb (of this
process, interpreter and numpy included).  --curve FILE writes
round,seconds,cum_seconds,test_err.

  /usr/bin/python3 bench/xgb_peer.py --letter data/letter.csv --rounds 500
  /usr/bin/python3 bench/xgb_peer.py --idx /usr/share/datasets/fashion-mnist --rounds 200
"""
import argparse
import gzip
import os
import resource
import statistics
import sys
import time

import numpy as np

try:
    import xgboost as xgb
except ImportError:
    sys.exit(f"xgb_peer.py: xgboost is missing for {sys.executable}: "
             "run scripts/install-deps.sh --bench")


def read_idx(path):
    """An IDX file (gzip or not) as a numpy array of its shape."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        raw = f.read()
    if raw[:2] != b"\0\0" or raw[2] != 0x08:
        sys.exit(f"xgb_peer.py: {path}: not an unsigned-byte IDX file")
    nd = raw[3]
    shape = tuple(int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(nd))
    return np.frombuffer(raw, np.uint8, offset=4 + 4 * nd).reshape(shape)


def load(args):
    if args.letter:
        a = np.loadtxt(args.letter, delimiter=",", skiprows=1, dtype=np.float32)
        y, X = a[:, 0].astype(np.int32), a[:, 1:]
        n = args.first
        return X[:n], y[:n], X[n:], y[n:]
    d = args.idx
    X = read_idx(os.path.join(d, "train-images-idx3-ubyte.gz"))
    Xt = read_idx(os.path.join(d, "t10k-images-idx3-ubyte.gz"))
    return (X.reshape(len(X), -1).astype(np.float32),
            read_idx(os.path.join(d, "train-labels-idx1-ubyte.gz")).astype(np.int32),
            Xt.reshape(len(Xt), -1).astype(np.float32),
            read_idx(os.path.join(d, "t10k-labels-idx1-ubyte.gz")).astype(np.int32))


class Stamps(xgb.callback.TrainingCallback):
    """Wall time at the end of each round and the test error then."""

    def __init__(self):
        super().__init__()
        self.t = []
        self.err = []

    def before_training(self, model):
        self.t0 = time.perf_counter()
        return model

    def after_iteration(self, model, epoch, evals_log):
        self.t.append(time.perf_counter())
        self.err.append(evals_log["test"]["merror"][-1])
        return False


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--letter", metavar="CSV", help="letter CSV (label first, header)")
    src.add_argument("--idx", metavar="DIR", help="folder of the four Fashion-MNIST IDX files")
    p.add_argument("--first", type=int, default=16000, help="letter: training rows (16000)")
    p.add_argument("--rounds", type=int, required=True)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--curve", metavar="FILE", help="write the per-round curve as CSV")
    args = p.parse_args()

    t = time.perf_counter()
    X, y, Xt, yt = load(args)
    load_s = time.perf_counter() - t
    k = int(max(y.max(), yt.max())) + 1

    t = time.perf_counter()
    dtrain = xgb.QuantileDMatrix(X, y, max_bin=256, nthread=args.threads)
    dtest = xgb.QuantileDMatrix(Xt, yt, ref=dtrain, max_bin=256, nthread=args.threads)
    dmatrix_s = time.perf_counter() - t

    params = {"objective": "multi:softprob", "num_class": k, "tree_method": "hist",
              "grow_policy": "lossguide", "max_leaves": 20, "max_depth": 0, "eta": 0.1,
              "max_bin": 256, "nthread": args.threads, "eval_metric": "merror",
              "verbosity": 1}
    cb = Stamps()
    t = time.perf_counter()
    xgb.train(params, dtrain, num_boost_round=args.rounds, evals=[(dtest, "test")],
              verbose_eval=False, callbacks=[cb])
    train_s = time.perf_counter() - t

    ends = [cb.t0] + cb.t
    per = [b - a for a, b in zip(ends, ends[1:])]
    med = statistics.median(per)
    out = {"rounds": len(per), "trees_per_round": k, "s_per_round": med,
           "s_per_tree": med / k, "s_round1": per[0], "train_s": train_s,
           "dmatrix_s": dmatrix_s, "load_s": load_s, "test_err": cb.err[-1],
           "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
           "xgboost": xgb.__version__}
    for key, v in out.items():
        print(f"{key}={v:.6g}" if isinstance(v, float) else f"{key}={v}")
    if args.curve:
        with open(args.curve, "w") as f:
            f.write("round,seconds,cum_seconds,test_err\n")
            for i, (s, e) in enumerate(zip(per, cb.err)):
                f.write(f"{i + 1},{s:.6f},{cb.t[i] - cb.t0:.6f},{e:.6f}\n")


if __name__ == "__main__":
    main()

# SPDX-License-Identifier: GPL-3.0-or-later
"""XGBoost peer of bench/sparse.sh: depth-1 trees (stumps) on a LIBSVM file,
the first FIRST rows training and the rest testing (as [data] split = first),
objective multi:softprob, tree_method=hist, max_bin=256, eta 0.1,
nthread=N, STUMPS trees in all (STUMPS / k rounds of k trees).  The data stay
sparse (xgboost.DMatrix from scipy CSR).  Prints key=value lines: trees,
train_s, s_per_tree, test_err, peak_rss_kb (VmHWM, interpreter included).

  /usr/bin/python3 bench/sparse_xgb.py --file toy.libsvm --first 3750 --stumps 100
"""
import argparse
import os
import sys
import time

import numpy as np

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_data import peak_rss_kb  # noqa: E402

try:
    import xgboost as xgb
    from sklearn.datasets import load_svmlight_file
except ImportError:
    sys.exit(f"sparse_xgb.py: xgboost/scikit-learn missing for {sys.executable}: "
             "run scripts/install-deps.sh --bench")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", required=True)
    ap.add_argument("--first", type=int, required=True)
    ap.add_argument("--stumps", type=int, default=100)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    # scikit-learn's reader, as bench/peer_data.py uses: CSR, 1-based indices
    X, y = load_svmlight_file(a.file, dtype=np.float32, zero_based=False)
    y = y.astype(np.int32)
    k = int(y.max()) + 1
    dtr = xgb.DMatrix(X[:a.first], y[:a.first], nthread=a.threads)
    dte = xgb.DMatrix(X[a.first:], y[a.first:], nthread=a.threads)
    params = {"objective": "multi:softprob", "num_class": k, "tree_method": "hist",
              "max_depth": 1, "eta": 0.1, "max_bin": 256, "nthread": a.threads,
              "eval_metric": "merror"}
    rounds = max(1, a.stumps // k)
    ev = {}
    t0 = time.perf_counter()
    xgb.train(params, dtr, num_boost_round=rounds, evals=[(dte, "test")], evals_result=ev,
              verbose_eval=False)
    secs = time.perf_counter() - t0
    print(f"trees={rounds * k}")
    print(f"train_s={secs:.4f}")
    print(f"s_per_tree={secs / (rounds * k):.6f}")
    print(f"test_err={ev['test']['merror'][-1]:.4f}")
    print(f"peak_rss_kb={peak_rss_kb()}")


if __name__ == "__main__":
    main()

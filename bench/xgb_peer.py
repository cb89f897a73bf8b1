# SPDX-License-Identifier: GPL-3.0-or-later
"""XGBoost peer of bench/trees-xgboost.sh and bench/suite.sh: train XGBoost
on letter, a pair of CSV files or Fashion-MNIST (bench/peer_data.py) and time
every boosting round.

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
only), dmatrix_s, load_s, test_err (final, a fraction), pred_s, pred_rows
and pred_rows_per_s (classes of the test rows, repeated to --pred-rows, by
inplace_predict and argmax, median of 5), pred_err, peak_rss_kb (VmHWM of
this process when training ends, before the predictions; interpreter and
numpy included).  --curve FILE writes
round,seconds,cum_seconds,test_err.  --final-eval: no per-round evaluation
(rounds then time the training alone), the test error of the last round.

  /usr/bin/python3 bench/xgb_peer.py --letter data/letter.csv --rounds 500
  /usr/bin/python3 bench/xgb_peer.py --idx /usr/share/datasets/fashion-mnist --rounds 200
  /usr/bin/python3 bench/xgb_peer.py --csv data/pendigits.train.csv data/pendigits.test.csv --rounds 100
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree (make dist)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_data import add_data_args, load, median_seconds, peak_rss_kb, tiled  # noqa: E402

try:
    import xgboost as xgb
except ImportError:
    sys.exit(f"xgb_peer.py: xgboost is missing for {sys.executable}: "
             "run scripts/install-deps.sh --bench")


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
        if "test" in evals_log:
            self.err.append(evals_log["test"]["merror"][-1])
        return False


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_args(p)
    p.add_argument("--rounds", type=int, required=True)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--curve", metavar="FILE", help="write the per-round curve as CSV")
    p.add_argument("--final-eval", action="store_true",
                   help="test error after the last round only (no per-round evaluation, "
                        "whose cost on a sparse test set can exceed the round's; no --curve)")
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
    evals = [] if args.final_eval else [(dtest, "test")]
    bst = xgb.train(params, dtrain, num_boost_round=args.rounds, evals=evals,
                    verbose_eval=False, callbacks=[cb])
    train_s = time.perf_counter() - t
    if args.final_eval:
        cb.err = [float(np.mean(bst.predict(dtest).argmax(axis=1) != yt))]
    rss_kb = peak_rss_kb()          # before the timed predictions allocate

    # prediction throughput: classes of the test rows from the numpy array
    # (no DMatrix built by hand), median of 5
    Xp, yp = tiled(Xt, yt, args.pred_rows)
    pred_s, pred = median_seconds(lambda: bst.inplace_predict(Xp).argmax(axis=1))
    pred_err = float(np.mean(pred != yp))

    ends = [cb.t0] + cb.t
    per = [b - a for a, b in zip(ends, ends[1:])]
    med = statistics.median(per)
    out = {"rounds": len(per), "trees_per_round": k, "s_per_round": med,
           "s_per_tree": med / k, "s_round1": per[0], "train_s": train_s,
           "dmatrix_s": dmatrix_s, "load_s": load_s, "test_err": cb.err[-1],
           "pred_s": pred_s, "pred_rows": len(yp), "pred_rows_per_s": len(yp) / pred_s,
           "pred_err": pred_err,
           "peak_rss_kb": rss_kb,
           "xgboost": xgb.__version__}
    for key, v in out.items():
        print(f"{key}={v:.6g}" if isinstance(v, float) else f"{key}={v}")
    if args.curve and not args.final_eval:
        with open(args.curve, "w") as f:
            f.write("round,seconds,cum_seconds,test_err\n")
            for i, (s, e) in enumerate(zip(per, cb.err)):
                f.write(f"{i + 1},{s:.6f},{cb.t[i] - cb.t0:.6f},{e:.6f}\n")


if __name__ == "__main__":
    main()

# SPDX-License-Identifier: GPL-3.0-or-later
"""scikit-learn peer of bench/suite.sh: train one scikit-learn booster on the
data bench/peer_data.py loads and time every boosting iteration.

  --model hgb  HistGradientBoostingClassifier: max_leaf_nodes=20,
               learning_rate=0.1, max_bins=255, early_stopping=False,
               l2_regularization and min_samples_leaf at their defaults;
               k trees per iteration (one per class; 1 for two classes)
  --model ada  AdaBoostClassifier(algorithm="SAMME") of depth-1 decision
               trees (stumps), learning_rate=1, random_state=0; one stump
               per iteration

Per-iteration times without changing what is timed: the estimator is a
subclass whose only change is a time stamp, no callback or warm start.
For hgb the loss object is wrapped so that its gradient call, the first step
of every iteration, stamps the time (iteration i = stamp i+1 − stamp i; the
last ends when fit returns).  For ada, _boost (fit a stump, predict the
training rows, reweight) is wrapped.  What fit does before the first
iteration (input checks; hgb: binning the features) is `setup_s`, outside
`train_s`, as the XGBoost and boostlab figures leave out quantizing.  The
test error of every iteration comes from staged_predict after training,
outside all timings.  Threads: OMP_NUM_THREADS and threadpoolctl limit both
to --threads (AdaBoost's trees use one thread whatever the limit).

Prints key=value lines: model, sklearn, threads, iterations, trees_per_iter,
s_per_iter (median), s_per_tree, setup_s, train_s, load_s, test_err (final,
a fraction), pred_s, pred_rows and pred_rows_per_s (predict on the test rows,
repeated to --pred-rows, median of 5), pred_err, peak_rss_kb (VmHWM of this
process when training ends, before the predictions; interpreter and numpy
included).
--curve FILE writes iteration,seconds,cum_seconds,test_err (cum_seconds from
the first iteration's start).

  /usr/bin/python3 bench/sk_peer.py --model hgb --iterations 100 \\
      --csv data/pendigits.train.csv data/pendigits.test.csv
  /usr/bin/python3 bench/sk_peer.py --model ada --iterations 200 --letter data/letter.csv
"""
import argparse
import os
import statistics
import sys
import time


def positive(s):
    try:
        v = int(s)
    except ValueError:
        v = 0
    if v < 1:
        raise argparse.ArgumentTypeError(f"expects a positive integer, not '{s}'")
    return v


def main():
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree (make dist)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from peer_data import add_data_args, load, median_seconds, peak_rss_kb, tiled

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_args(p)
    p.add_argument("--model", choices=("hgb", "ada"), required=True)
    p.add_argument("--iterations", type=positive, required=True)
    p.add_argument("--threads", type=positive, default=2)
    p.add_argument("--curve", metavar="FILE", help="write the per-iteration curve as CSV")
    args = p.parse_args()

    # before OpenMP starts in scikit-learn's extension modules
    os.environ["OMP_NUM_THREADS"] = str(args.threads)
    try:
        import numpy as np
        import sklearn
        from sklearn.ensemble import AdaBoostClassifier, HistGradientBoostingClassifier
        from sklearn.tree import DecisionTreeClassifier
    except ImportError as e:
        sys.exit(f"sk_peer.py: {e} for {sys.executable}: run scripts/install-deps.sh --bench")
    try:
        from threadpoolctl import threadpool_limits
        threadpool_limits(limits=args.threads)
    except ImportError:
        pass

    stamps = []

    class StampLoss:
        """The HGB loss, stamping the time when an iteration asks for gradients."""

        def __init__(self, loss):
            self._l = loss

        def __getattr__(self, name):
            return getattr(self._l, name)

        def gradient_hessian(self, *a, **kw):
            stamps.append(time.perf_counter())
            return self._l.gradient_hessian(*a, **kw)

        def gradient(self, *a, **kw):
            stamps.append(time.perf_counter())
            return self._l.gradient(*a, **kw)

    class TimedHGB(HistGradientBoostingClassifier):
        def _get_loss(self, sample_weight):
            return StampLoss(super()._get_loss(sample_weight))

    class TimedAda(AdaBoostClassifier):
        def _boost(self, iboost, X, y, sample_weight, random_state):
            if iboost == 0:
                stamps.append(time.perf_counter())
            r = super()._boost(iboost, X, y, sample_weight, random_state)
            stamps.append(time.perf_counter())
            return r

    t = time.perf_counter()
    X, y, Xt, yt = load(args)
    load_s = time.perf_counter() - t
    k = int(max(y.max(), yt.max())) + 1

    if args.model == "hgb":
        model = TimedHGB(max_iter=args.iterations, max_leaf_nodes=20, learning_rate=0.1,
                         max_bins=255, early_stopping=False, random_state=0)
        per_iter = k if k > 2 else 1
    else:
        model = TimedAda(DecisionTreeClassifier(max_depth=1), n_estimators=args.iterations,
                         algorithm="SAMME", learning_rate=1.0, random_state=0)
        per_iter = 1
    t0 = time.perf_counter()
    model.fit(X, y)
    t1 = time.perf_counter()
    rss_kb = peak_rss_kb()          # before staged and timed predictions allocate
    if args.model == "hgb":
        ends = stamps + [t1]        # iteration i runs from stamps[i] to ends[i + 1]
    else:
        ends = stamps               # stamps[0] starts the first _boost
    per = [b - a for a, b in zip(ends, ends[1:])]
    if not per:
        sys.exit("sk_peer.py: no iteration was timed (scikit-learn changed its internals?)")
    errs = [float(np.mean(pred != yt)) for pred in model.staged_predict(Xt)]
    n = min(len(per), len(errs))

    Xp, yp = tiled(Xt, yt, args.pred_rows)
    pred_s, pred = median_seconds(lambda: model.predict(Xp))
    med = statistics.median(per[:n])
    out = {"model": args.model, "sklearn": sklearn.__version__, "threads": args.threads,
           "iterations": n, "trees_per_iter": per_iter, "s_per_iter": med,
           "s_per_tree": med / per_iter, "setup_s": ends[0] - t0,
           "train_s": ends[n] - ends[0], "load_s": load_s, "test_err": errs[n - 1],
           "pred_s": pred_s, "pred_rows": len(yp), "pred_rows_per_s": len(yp) / pred_s,
           "pred_err": float(np.mean(pred != yp)), "peak_rss_kb": rss_kb}
    for key, v in out.items():
        print(f"{key}={v:.6g}" if isinstance(v, float) else f"{key}={v}")
    if args.curve:
        with open(args.curve, "w") as f:
            f.write("iteration,seconds,cum_seconds,test_err\n")
            for i in range(n):
                f.write(f"{i + 1},{per[i]:.6f},{ends[i + 1] - ends[0]:.6f},{errs[i]:.6f}\n")


if __name__ == "__main__":
    main()

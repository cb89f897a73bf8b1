#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Would stopping earlier close MultiBoost's gap to MCBoost?  Reads the
test-error curves of a results store (table4-multiboost-stopping.ini) and
prints, per data set and algorithm, a markdown row of mean test errors (%):

  - at the last iteration (the tables' number);
  - at 50, 100 and 200 iterations;
  - at the first iteration with training error 0 (each run's own);
  - at the iteration where the mean curve is lowest (one stopping point
    for every split, chosen on the test sets: an optimistic bound);
  - at each run's own best iteration (chosen on its test set: the most
    optimistic bound any stopping rule could reach).

  stopping.py DIR
"""
import os
import sqlite3
import statistics
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = os.path.join(sys.argv[1], "results.sqlite")
    if not os.path.exists(path):
        sys.exit("stopping.py: %s not found: run the experiment first" % path)
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    curves = {}
    for data, algo, run, it, tr, te in db.execute(
            "SELECT r.data, r.algo, r.id, c.iter, c.train_err, c.test_err "
            "FROM runs r JOIN curves c ON c.run_id = r.id ORDER BY r.id, c.iter"):
        curves.setdefault((data, algo), {}).setdefault(run, []).append((it, tr, te))
    print("| data | algorithm | runs | last | @50 | @100 | @200 | at train error 0 "
          "| best mean-curve iteration | each run's best |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (data, algo), runs in curves.items():
        n = min(len(c) for c in runs.values())
        mean_curve = [statistics.mean(c[i][2] for c in runs.values()) for i in range(n)]
        best = min(range(n), key=lambda i: mean_curve[i])

        def at(i):
            return "%.1f" % (100 * statistics.mean(c[min(i, len(c)) - 1][2] for c in runs.values()))

        zero = [next((p[2] for p in c if p[1] == 0), c[-1][2]) for c in runs.values()]
        own = [min(p[2] for p in c) for c in runs.values()]
        print("| %s | %s | %d | %s | %s | %s | %s | %.1f | %.1f (it. %d) | %.1f |" % (
            data, algo, len(runs), at(10 ** 9), at(50), at(100), at(200),
            100 * statistics.mean(zero), 100 * mean_curve[best], runs[next(iter(runs))][best][0],
            100 * statistics.mean(own)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Markdown tables and the figure of the HingeBoost.OC experiments
(docs/results-hingeboost.md) from a results store, with the paper's numbers
(paper.csv) beside ours.

  tables.py table2 DIR...     Table 2 (linear base learners): test error (%)
  tables.py table3 DIR...     Table 3 (perceptron-kernel base learners)
                              (several stores: their runs together)
  tables.py fig2 DIR [PNG [DATA]]
                              Fig. 2: training loss, training and test error per
                              round of each boosting algorithm (mean over the
                              runs), a few rows of numbers, and a gnuplot figure
                              when PNG is given (of data set DATA only, if named)

Cells are mean ± std over the runs (the paper's ± on fixed splits is the
spread of the random algorithms; see the page for what it may mean), with
the number of runs in brackets.
"""
import csv
import math
import os
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORDER = ["ovo", "ova", "ecoc", "erp", "erp-gradient", "cs", "hingeboost", "hingeboost-ova"]


def paper(table):
    out = {}
    with open(os.path.join(HERE, "paper.csv")) as f:
        rows = [l for l in f if not l.startswith("#")]
    for r in csv.DictReader(rows):
        if r["table"] == table:
            sd = r["paper_std"]
            out[(r["data"], r["algorithm"])] = r["paper_mean"] + (" ± " + sd if sd else "")
    return out


def mean_sd(v):
    v = [x for x in v if x is not None and not math.isnan(x)]
    if not v:
        return None, None
    m = sum(v) / len(v)
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1)) if len(v) > 1 else 0.0
    return m, sd


def names(db, col):
    return [r[0] for r in db.execute("SELECT %s FROM runs GROUP BY %s ORDER BY MIN(id)"
                                     % (col, col))]


def table(dirs, which):
    dbs = [sqlite3.connect(os.path.join(d, "results.sqlite")) for d in dirs]
    p = paper(which)
    algos, datas = [], []
    for db in dbs:
        algos += [a for a in names(db, "algo") if a not in algos]
        datas += [x for x in names(db, "data") if x not in datas]
    algos = [a for a in ORDER if a in algos] + [a for a in algos if a not in ORDER]
    print("| data | " + " | ".join("%s (ours / paper)" % a for a in algos) + " |")
    print("|---|" + "---|" * len(algos))
    for data in datas:
        cells = []
        for a in algos:
            v = [r[0] * 100 for db in dbs for r in db.execute(
                "SELECT test_err FROM runs WHERE data = ? AND algo = ? ORDER BY rep", (data, a))]
            m, sd = mean_sd(v)
            ours = "-" if m is None else "%.2f ± %.2f (%d)" % (m, sd, len(v))
            cells.append("%s / %s" % (ours, p.get((data, a), "-")))
        print("| %s | %s |" % (data, " | ".join(cells)))


def fig2(d, png=None, only=None):
    db = sqlite3.connect(os.path.join(d, "results.sqlite"))
    series = []
    for data in names(db, "data"):
        if only and data != only:
            continue
        for a in names(db, "algo"):
            rows = db.execute(
                "SELECT c.iter, AVG(c.train_loss), AVG(c.train_err), AVG(c.test_err), COUNT(*) "
                "FROM curves c JOIN runs r ON r.id = c.run_id WHERE r.data = ? AND r.algo = ? "
                "GROUP BY c.iter ORDER BY c.iter", (data, a)).fetchall()
            if len(rows) < 2:
                continue
            series.append((data, a, rows))
            print("\n%s / %s (mean over %d runs)\n" % (data, a, rows[0][4]))
            print("| round | training loss | training error % | test error % |")
            print("|---|---|---|---|")
            marks = {1, 10, 50, 100, 200, 300, 500, len(rows)}
            for it, loss, tr, te, _ in rows:
                if it in marks:
                    print("| %d | %.4f | %.2f | %.2f |" % (it, loss, 100 * tr, 100 * te))
    if png and series:
        plot(series, png)


def plot(series, png):
    tmp = png + ".dat"
    with open(tmp, "w") as f:
        for data, a, rows in series:
            f.write("# %s %s\n" % (data, a))
            for it, loss, tr, te, _ in rows:
                f.write("%d %.10g %.10g %.10g\n" % (it, loss, 100 * tr, 100 * te))
            f.write("\n\n")
    cmds = ["set terminal pngcairo size %d,420" % (460 * len(series)), "set output '%s'" % png,
            "set multiplot layout 1,%d" % len(series), "set key top right",
            "set xlabel 'round'", "set ylabel 'error (%)'", "set y2label 'training loss'",
            "set ytics nomirror", "set y2tics"]
    for j, (data, a, _) in enumerate(series):
        cmds.append("set title '%s: %s'" % (data, a))
        cmds.append("plot '%s' index %d using 1:3 with lines title 'training error', "
                    "'' index %d using 1:4 with lines title 'test error', "
                    "'' index %d using 1:2 axes x1y2 with lines title 'training loss'"
                    % (tmp, j, j, j))
    cmds.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(cmds), text=True, check=True)
    os.remove(tmp)


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("table2", "table3", "fig2"):
        sys.exit(__doc__)
    if sys.argv[1] == "fig2":
        fig2(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None,
             sys.argv[4] if len(sys.argv) > 4 else None)
    else:
        table(sys.argv[2:], sys.argv[1])

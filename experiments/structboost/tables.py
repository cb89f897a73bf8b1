#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Markdown tables of the StructBoost experiments (docs/results-structboost.md)
from a results store, with the paper's numbers (paper.csv) beside ours.

  tables.py table1 DIR     Table I: time (s), train and test AUC, per formulation
  tables.py table2 DIR     Table II: test error (%)
  tables.py table3 DIR     Table III: 1/0 and tree loss
  tables.py chosen DIR     the C each run chose on its validation part (cv_chosen)
  tables.py times DIR      seconds of each cell's final run (weak learner + master,
                           wall; the C selection before it is not in the store)
  tables.py fig3 DIR [PNG] objective and time per iteration, 1-slack vs m-slack,
                           the time each needs to come within 1% of m-slack's
                           final objective, and a gnuplot figure when PNG is given
"""
import csv
import math
import os
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def paper(table):
    out = {}
    with open(os.path.join(HERE, "paper.csv")) as f:
        rows = [l for l in f if not l.startswith("#")]
    for r in csv.DictReader(rows):
        if r["table"] == table:
            out[(r["data"], r["algorithm"], r["metric"])] = (r["paper_mean"], r["paper_std"])
    return out


def runs(store):
    db = sqlite3.connect(os.path.join(store, "results.sqlite"))
    q = ("SELECT r.id, r.data, r.algo, r.rep, r.t_weak + r.t_coef, r.test_err, r.train_err,"
         " r.train_loss, r.iterations FROM runs r ORDER BY r.data, r.algo, r.rep")
    out = []
    for rid, data, algo, rep, t, te, tr, loss, it in db.execute(q):
        m = {}
        try:
            for name, a, b in db.execute("SELECT name, train, test FROM metrics WHERE run_id = ?",
                                         (rid,)):
                m[name] = (a, b)
        except sqlite3.OperationalError:
            pass
        out.append(dict(id=rid, data=data, algo=algo, rep=rep, time=t, test=te, train=tr,
                        loss=loss, iters=it, metrics=m))
    return db, out


def ms(v, scale=1.0, fmt="%.3f"):
    v = [x * scale for x in v if x is not None and not math.isnan(x)]
    if not v:
        return "-"
    mean = sum(v) / len(v)
    sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (len(v) - 1)) if len(v) > 1 else 0.0
    return (fmt + " ± " + fmt) % (mean, sd)


def order(rs, key):
    seen = []
    for r in rs:
        if r[key] not in seen:
            seen.append(r[key])
    return seen


def pap(p, k, fmt="%s ± %s"):
    return fmt % p[k] if k in p else "-"


def table1(store):
    _, rs = runs(store)
    p = paper("table1")
    print("| data | formulation | runs | time (s) ours | paper | AUC train ours | paper "
          "| AUC test ours | paper |")
    print("|---|---|---|---|---|---|---|---|---|")
    for d in order(rs, "data"):
        for a in order(rs, "algo"):
            g = [r for r in rs if r["data"] == d and r["algo"] == a]
            if not g:
                continue
            auc_tr = [r["metrics"].get("auc", (None, None))[0] for r in g]
            auc_te = [r["metrics"].get("auc", (None, None))[1] for r in g]
            print("| %s | %s | %d | %s | %s | %s | %s | %s | %s |" % (
                d, a, len(g), ms([r["time"] for r in g], fmt="%.2f"), pap(p, (d, a, "time")),
                ms(auc_tr), pap(p, (d, a, "auc_train")), ms(auc_te), pap(p, (d, a, "auc_test"))))


def table2(store):
    _, rs = runs(store)
    p = paper("table2")
    datas = order(rs, "data")
    print("| method | " + " | ".join(datas) + " |")
    print("|---|" + "---|" * len(datas))
    for a in order(rs, "algo"):
        cells = []
        for d in datas:
            g = [r["test"] for r in rs if r["data"] == d and r["algo"] == a]
            c = ms(g, 100.0, "%.1f") if g else "not run"
            if (d, a, "error") in p:
                c += " (%s ± %s)" % p[(d, a, "error")]
            cells.append(c)
        print("| %s | %s |" % (a, " | ".join(cells)))


def table3(store):
    _, rs = runs(store)
    algos = order(rs, "algo")
    print("| data | metric | " + " | ".join(algos) + " |")
    print("|---|---|" + "---|" * len(algos))
    for d in order(rs, "data"):
        for metric in ("error", "tree_loss"):
            cells = []
            for a in algos:
                g = [r["metrics"].get(metric, (None, None))[1] for r in rs
                     if r["data"] == d and r["algo"] == a]
                cells.append(ms(g) if g else "not run")
            print("| %s | %s | %s |" % (d, "1/0 loss" if metric == "error" else "tree loss",
                                        " | ".join(cells)))


def fig3(store, png=None):
    db, rs = runs(store)
    print("| data | m-slack final objective | its time (s) | 1-slack final objective "
          "| within 1% after (s) | time ratio m/1 |")
    print("|---|---|---|---|---|---|")
    series = []
    for d in order(rs, "data"):
        curves = {}
        for r in rs:
            if r["data"] != d:
                continue
            c = db.execute("SELECT iter, train_loss, t_weak + t_coef FROM curves WHERE run_id = ?"
                           " ORDER BY iter", (r["id"],)).fetchall()
            t, pts = 0.0, []
            for it, f, dt in c:
                t += dt
                pts.append((it, f, t))
            curves[r["algo"]] = pts
            series.append((d, r["algo"], pts))
        one = curves.get("1-slack")
        m = curves.get("m-slack")
        if not one:
            continue
        if not m:
            print("| %s | not run | - | %.4f | - | - |" % (d, one[-1][1]))
            continue
        target = 1.01 * m[-1][1]
        reach = next((t for _, f, t in one if f <= target), None)
        print("| %s | %.4f | %.2f | %.4f | %s | %s |" % (
            d, m[-1][1], m[-1][2], one[-1][1], "%.3f" % reach if reach is not None else "never",
            "%.1f" % (m[-1][2] / reach) if reach else "-"))
    if png:
        plot(series, png)


def plot(series, png):
    tmp = png + ".dat"
    datas = order([{"d": s[0]} for s in series], "d")
    with open(tmp, "w") as f:
        for d, a, pts in series:
            f.write("# %s %s\n" % (d, a))
            for it, v, t in pts:
                f.write("%d %.10g %.10g\n" % (it, v, t))
            f.write("\n\n")
    cmds = ["set terminal pngcairo size %d,640" % (420 * len(datas)),
            "set output '%s'" % png, "set multiplot layout 2,%d" % len(datas),
            "set key top right", "set logscale y", "set format y '%g'"]
    idx = {(d, a): i for i, (d, a, _) in enumerate(series)}
    for row, (col, lab) in enumerate(((2, "objective"), (3, "time (s)"))):
        for d in datas:
            cmds.append("set title '%s: %s'" % (d, lab))
            cmds.append("set xlabel 'column-generation iteration'")
            parts = ["'%s' index %d using 1:%d with lines title '%s'" % (tmp, idx[(d, a)], col, a)
                     for a in ("1-slack", "m-slack") if (d, a) in idx]
            cmds.append("plot " + ", ".join(parts))
    cmds.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(cmds), text=True, check=True)
    os.remove(tmp)


def chosen(store):
    db = sqlite3.connect(os.path.join(store, "results.sqlite"))
    cells = {}
    for data, algo, rep, params in db.execute(
            "SELECT data, algo, rep, params FROM runs ORDER BY data, algo, rep"):
        c = [l.split("=", 2)[2] for l in params.splitlines() if l.startswith("cv_chosen = ")]
        cells.setdefault((data, algo), []).append(c[0] if c else "-")
    print("| data | algorithm | C chosen per split |\n|---|---|---|")
    for (data, algo), cs in sorted(cells.items()):
        print("| %s | %s | %s |" % (data, algo, ", ".join(cs)))


def times(store):
    _, rs = runs(store)
    print("| data | algorithm | runs | final run (s) |\n|---|---|---|---|")
    for d in order(rs, "data"):
        for a in order(rs, "algo"):
            g = [r["time"] for r in rs if r["data"] == d and r["algo"] == a]
            if g:
                print("| %s | %s | %d | %s |" % (d, a, len(g), ms(g, fmt="%.1f")))


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("table1", "table2", "table3", "fig3", "chosen",
                                                "times"):
        sys.exit(__doc__)
    if sys.argv[1] == "fig3":
        fig3(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    else:
        globals()[sys.argv[1]](sys.argv[2])

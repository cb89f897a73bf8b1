#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Markdown tables of the RandomBoost experiments (docs/results-randomboost.md)
from a results store, with the paper's numbers (paper.csv) beside ours.

  tables.py table2 DIR...  Table II: test error (%) per projected dimension n
  tables.py table3 DIR...  Table III: test error (%) and step-4 seconds, TC vs SW
  tables.py table4 DIR...  Table IV: test error (%) at 50, 100 and 1000 iterations
  tables.py table5 DIR...  Table V / VI: test error (%) at the last iteration, and the
                           Wilcoxon signed-rank statistic of rank vs proj over the sets

Several stores: each (data set, algorithm) cell takes its runs from the first
store that has any, so a later store fills only the cells an earlier one lacks
(a store keys runs by the data file's path and every parameter, so runs made
from another checkout, or before a parameter was added, sit in a store of
their own).

An error "at iteration N" of a run that stopped earlier (RBoost-proj's rel_tol)
is its final model's, as the paper reports it (spec §3.4).
"""
import csv
import math
import os
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def paper(table):
    out = {}
    with open(os.path.join(HERE, "paper.csv")) as f:
        rows = [l for l in f if not l.startswith("#")]
    for r in csv.DictReader(rows):
        if r["table"] == table:
            out[(r["data"], r["algorithm"])] = "%s ± %s" % (r["paper_mean"], r["paper_std"])
    return out


def store(dirs):
    """The runs and curves of the stores in dirs, merged cell by cell (see
    the module's text) into one in-memory database with the same tables."""
    if isinstance(dirs, str):
        dirs = [dirs]
    db = sqlite3.connect(":memory:")
    for i, d in enumerate(dirs):
        db.execute("ATTACH DATABASE ? AS s", (os.path.join(d, "results.sqlite"),))
        if i == 0:
            db.execute("CREATE TABLE runs AS SELECT * FROM s.runs WHERE 0")
            db.execute("CREATE TABLE curves AS SELECT * FROM s.curves WHERE 0")
        cols = [r[1] for r in db.execute("PRAGMA s.table_info(runs)")]
        sel = ", ".join("id + %d" % (i * 10 ** 9) if c == "id" else c for c in cols)
        have = set(db.execute("SELECT DISTINCT data, algo FROM runs").fetchall())
        for data, algo in db.execute("SELECT DISTINCT data, algo FROM s.runs").fetchall():
            if (data, algo) in have:
                continue
            db.execute("INSERT INTO runs (%s) SELECT %s FROM s.runs WHERE data = ? AND algo = ?"
                       % (", ".join(cols), sel), (data, algo))
            ccols = [r[1] for r in db.execute("PRAGMA s.table_info(curves)")]
            csel = ", ".join("run_id + %d" % (i * 10 ** 9) if c == "run_id" else c for c in ccols)
            db.execute("INSERT INTO curves (%s) SELECT %s FROM s.curves WHERE run_id IN "
                       "(SELECT id FROM s.runs WHERE data = ? AND algo = ?)"
                       % (", ".join(ccols), csel), (data, algo))
        db.commit()
        db.execute("DETACH DATABASE s")
    return db


def mean_sd(v):
    v = [x for x in v if x is not None and not math.isnan(x)]
    if not v:
        return None, None
    m = sum(v) / len(v)
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1)) if len(v) > 1 else 0.0
    return m, sd


def fmt(v, scale=100.0, f="%.1f"):
    m, sd = mean_sd([x * scale for x in v])
    return "-" if m is None else (f + " ± " + f) % (m, sd)


def final(db, data, algo, col="test_err"):
    return [r[0] for r in db.execute("SELECT %s FROM runs WHERE data = ? AND algo = ? "
                                     "ORDER BY rep" % col, (data, algo))]


def at(db, data, algo, it):
    """Test error of each run's model with min(it, its length) terms."""
    q = ("SELECT c.test_err FROM runs r JOIN curves c ON c.run_id = r.id WHERE r.data = ? "
         "AND r.algo = ? AND c.iter = (SELECT MAX(iter) FROM curves WHERE run_id = r.id "
         "AND iter <= ?) ORDER BY r.rep")
    return [r[0] for r in db.execute(q, (data, algo, it))]


def names(db, col):
    return [r[0] for r in db.execute("SELECT %s FROM runs GROUP BY %s ORDER BY MIN(id)"
                                     % (col, col))]


def runs_of(db, data, algo):
    return db.execute("SELECT COUNT(*) FROM runs WHERE data = ? AND algo = ?",
                      (data, algo)).fetchone()[0]


def table2(d):
    db, p = store(d), paper("table2")
    algos = names(db, "algo")
    print("| data | " + " | ".join("%s (ours / paper)" % a for a in algos) + " |")
    print("|---|" + "---|" * len(algos))
    for data in names(db, "data"):
        cells = ["%s / %s" % (fmt(final(db, data, a)), p.get((data, a), "-")) for a in algos]
        print("| %s | %s |" % (data, " | ".join(cells)))


def table3(d):
    db, p = store(d), paper("table3")
    algos = names(db, "algo")
    print("| data | algorithm | runs | test error % (ours) | paper | step-4 s per run (ours) "
          "| TC / SW step-4 time |")
    print("|---|---|---|---|---|---|---|")
    for data in names(db, "data"):
        sw = mean_sd(final(db, data, "sw-exp", "t_coef"))[0]
        for a in algos:
            t = mean_sd(final(db, data, a, "t_coef"))[0]
            ratio = "%.0fx" % (t / sw) if sw and t and a != "sw-exp" else ""
            print("| %s | %s | %d | %s | %s | %s | %s |" % (
                data, a, runs_of(db, data, a), fmt(final(db, data, a)), p.get((data, a), "-"),
                "-" if t is None else "%.3g" % t, ratio))


def table4(d):
    db, p = store(d), paper("table4")
    algos = names(db, "algo")
    print("| data | algorithm | runs | @50 (ours / paper) | @100 | @1000 |")
    print("|---|---|---|---|---|---|")
    for data in names(db, "data"):
        for a in algos:
            cells = []
            for it, key in ((50, a + "@50"), (100, a + "@100"), (1000, a)):
                cells.append("%s / %s" % (fmt(at(db, data, a, it)), p.get((data, key), "-")))
            print("| %s | %s | %d | %s |" % (data, a, runs_of(db, data, a), " | ".join(cells)))


def wilcoxon_t(diffs):
    """Wilcoxon signed-rank statistic T = min(R+, R-): zero differences
    dropped, tied |differences| given their average rank (Demsar 2006)."""
    d = [x for x in diffs if x != 0]
    order = sorted(range(len(d)), key=lambda j: abs(d[j]))
    ranks = [0.0] * len(d)
    j = 0
    while j < len(order):
        k = j
        while k + 1 < len(order) and abs(d[order[k + 1]]) == abs(d[order[j]]):
            k += 1
        for q in range(j, k + 1):
            ranks[order[q]] = (j + k) / 2.0 + 1
        j = k + 1
    rp = sum(r for r, x in zip(ranks, d) if x > 0)
    rm = sum(r for r, x in zip(ranks, d) if x < 0)
    return min(rp, rm), len(d)


# Table V's column order (the paper's: its method first)
ORDER = ("rank", "proj", "adaboost-ecc", "adaboost-mh", "adaboost-mo", "multiboost")


def table5(d, which="table5"):
    db, p = store(d), paper(which)
    algos = sorted(names(db, "algo"),
                   key=lambda a: next((i for i, o in enumerate(ORDER) if a.startswith(o)),
                                      len(ORDER)))
    print("| data | " + " | ".join(algos) + " |")
    print("|---|" + "---|" * len(algos))
    means = {}
    for data in names(db, "data"):
        cells = []
        for a in algos:
            v = final(db, data, a)
            means[(data, a)] = mean_sd([x * 100 for x in v])[0]
            cells.append("%s (%d) / %s" % (fmt(v), len(v), p.get((data, a), "-")))
        print("| %s | %s |" % (data, " | ".join(cells)))
    r, q = [a for a in algos if a.startswith("rank")], [a for a in algos if a.startswith("proj")]
    if r and q:
        sets = [x for x in names(db, "data")
                if means.get((x, r[0])) is not None and means.get((x, q[0])) is not None]
        diffs = [round(means[(x, q[0])] - means[(x, r[0])], 1) for x in sets]
        t, n = wilcoxon_t(diffs)
        print("\nWilcoxon signed-rank, %s vs %s over %d sets (%d non-zero differences of the "
              "means at one decimal): T = %g" % (q[0], r[0], len(sets), n, t))


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("table2", "table3", "table4", "table5",
                                                "table6"):
        sys.exit(__doc__)
    cmd, d = sys.argv[1], sys.argv[2:]
    if cmd == "table6":
        table5(d, "table6")
    else:
        globals()[cmd](d)

# SPDX-License-Identifier: GPL-3.0-or-later
"""Markdown tables of bench/suite.sh from the files its runs left in DIR.

  suite_report.py tables DIR SET...    one stump and one tree table per set
  suite_report.py scaling DIR SERIES...  s per iteration against m, d, k,
      the fitted log-log slopes, and DIR/scaling/plot.gp (gnuplot; -e
      "out='FILE.png'" names the PNG)

Per trainer and run: boostlab's figures come from `boostlab results` (the
curve's t_weak + t_coef + t_book per iteration; finished − started for the
training time, which leaves out loading and quantizing; setup = that minus
the iterations), the peers' from their key=value output and curve; peak RSS
and process wall time from GNU time.  Each figure is the median over the
runs (the per-iteration ones: median over iterations, then over runs).
The target error of a table is the highest final test error in it, so that
every trainer reaches it; its time is when a trainer first got there.
Ratios are boostlab / peer: below 1 boostlab is faster (time) or smaller
(RSS); for rows per second above 1 it is faster.
"""
import csv
import glob
import math
import os
import statistics
import sys


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(x, unit=""):
    """A positive figure to 3 significant digits, without exponent."""
    if x is None:
        return "–"
    if x == 0:
        return "0"
    if x >= 1000:
        digits = int(math.floor(math.log10(x))) + 1
        return f"{round(x, 3 - digits):,.0f}" + unit
    dec = max(0, 2 - int(math.floor(math.log10(abs(x)))))
    return f"{x:.{dec}f}" + unit


def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b else "–"


def keyvals(path):
    out = {}
    with open(path) as f:
        for line in f:
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                out[k] = v
    return out


def gnu_time(path):
    """(peak RSS MB, elapsed s) from GNU time -f '%M %e'."""
    with open(path) as f:
        last = f.read().split("\n")
    line = [x for x in last if x.strip()][-1].split()
    return int(line[0]) / 1024, float(line[1])


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Run:
    """One trainer's run: per-iteration seconds, trees, cumulative seconds, errors."""

    def __init__(self, d, kind):
        self.rss, self.wall = gnu_time(os.path.join(d, "time"))
        if kind == "bl":
            cur = rows(os.path.join(d, "curve.csv"))
            run = rows(os.path.join(d, "run.csv"))[0]
            self.per = [float(r["t_weak"]) + float(r["t_coef"]) + float(r["t_book"]) for r in cur]
            t = [int(r["trees"]) if r.get("trees") not in (None, "") else i + 1
                 for i, r in enumerate(cur)]
            self.trees = [b - a for a, b in zip([0] + t, t)]
            self.err = [float(r["test_err"]) for r in cur]
            self.train_s = float(run["finished"]) - float(run["started"])
            setup = max(0.0, self.train_s - sum(self.per))
            self.cum, c = [], setup
            for s in self.per:
                c += s
                self.cum.append(c)
            self.info = {"m_train": run["m_train"], "m_test": run["m_test"],
                         "d": run["d"], "k": run["k"]}
            self.pred = None
        else:
            kv = keyvals(os.path.join(d, "out"))
            cur = rows(os.path.join(d, "curve.csv"))
            self.per = [float(r["seconds"]) for r in cur]
            tpi = int(kv.get("trees_per_iter") or kv.get("trees_per_round"))
            self.trees = [tpi] * len(cur)
            self.err = [float(r["test_err"]) for r in cur]
            self.cum = [float(r["cum_seconds"]) for r in cur]
            self.train_s = float(kv["train_s"])
            self.pred = float(kv["pred_rows_per_s"])
            if int(kv.get("peak_rss_kb") or 0) > 0:   # when training ended
                self.rss = int(kv["peak_rss_kb"]) / 1024
            self.version = kv.get("sklearn") or kv.get("xgboost")
        self.s_per_iter = statistics.median(self.per)
        self.s_per_tree = statistics.median(
            [s / n if n else s for s, n in zip(self.per, self.trees)])

    def reach(self, target):
        for i, (e, c) in enumerate(zip(self.err, self.cum)):
            if e <= target + 1e-9:
                return c, i + 1
        return None, None


class Trainer:
    """All runs of one trainer on one data set, and their medians."""

    def __init__(self, d, title):
        self.title = title
        kind = "bl" if os.path.basename(d).startswith("bl-") else "peer"
        reps = sorted(glob.glob(os.path.join(d, "rep*")))
        if not reps:
            sys.exit(f"suite_report.py: no runs in {d}")
        self.runs = [Run(r, kind) for r in reps]
        r0 = self.runs[0]
        self.iters = len(r0.per)
        self.ntrees = sum(r0.trees)
        self.s_per_iter = med(r.s_per_iter for r in self.runs)
        self.s_per_tree = med(r.s_per_tree for r in self.runs)
        self.train_s = med(r.train_s for r in self.runs)
        self.err = med(r.err[-1] for r in self.runs)
        self.rss = med(r.rss for r in self.runs)
        self.wall = med(r.wall for r in self.runs)
        self.info = getattr(r0, "info", None)
        if kind == "bl":
            p = os.path.join(d, "predict", "predict.txt")
            rates = []
            if os.path.exists(p):
                with open(p) as f:
                    for line in f:
                        n, _, s = line.split()
                        if float(s) > 0:
                            rates.append(int(n) / float(s))
            self.pred = med(rates)
        else:
            self.pred = med(r.pred for r in self.runs)

    def reach(self, target):
        got = [r.reach(target) for r in self.runs]
        if any(c is None for c, _ in got):
            return None, None
        return med(c for c, _ in got), med(i for _, i in got)


def table(w, name, meta, peers, ours, what, trees):
    """One markdown table: peers' columns, then each boostlab recipe with its ratios."""
    ts = peers + ours
    info = next(t.info for t in ours if t.info)
    target = max(t.err for t in ts)
    head = ["", *[t.title for t in peers]]
    for o in ours:
        head += [o.title] + [f"{o.title.split()[-1]} / {p.title.split()[0]}" for p in peers]
    out = [f"\n### {name}: {what}\n",
           f"{info['m_train']} training / {info['m_test']} test rows, {info['d']} features, "
           f"{info['k']} classes; {meta['threads']} threads; medians of {len(ts[0].runs)} "
           f"run{'s' if len(ts[0].runs) > 1 else ''}\n",
           "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def row(label, get, show=fmt, bold=False):
        cells = [label, *[show(get(p)) for p in peers]]
        for o in ours:
            cells.append(show(get(o)))
            cells += [ratio(get(o), get(p)) for p in peers]
        if bold:
            cells = [f"**{c}**" if c not in ("", "–") else c for c in cells]
        out.append("| " + " | ".join(cells) + " |")

    out.append("| iterations | " + " | ".join(
        [str(p.iters) for p in peers] +
        sum([[str(o.iters)] + [""] * len(peers) for o in ours], [])) + " |")
    if trees:
        row("trees added", lambda t: t.ntrees, show=lambda x: str(x))
    row("s per iteration (median)", lambda t: t.s_per_iter, bold=not trees)
    if trees:
        row("s per tree (median iteration / its trees)", lambda t: t.s_per_tree, bold=True)
    row("training wall time, s", lambda t: t.train_s)
    out.append("| final test error % | " + " | ".join(
        [f"{100 * p.err:.2f}" for p in peers] +
        sum([[f"{100 * o.err:.2f}"] + [""] * len(peers) for o in ours], [])) + " |")
    cells = [f"**wall time to {100 * target:.2f} % test error, s** (iteration)"]
    reach = {}
    for t in ts:
        reach[t] = t.reach(target)
    for p in peers:
        c, i = reach[p]
        cells.append(f"{fmt(c)} ({i:.0f})" if c is not None else "not reached")
    for o in ours:
        c, i = reach[o]
        cells.append(f"{fmt(c)} ({i:.0f})" if c is not None else "not reached")
        cells += [f"**{ratio(c, reach[p][0])}**" for p in peers]
    out.append("| " + " | ".join(cells) + " |")
    row("peak RSS, MB (boostlab run; peers: at the end of training, with Python)", lambda t: t.rss)
    row("process wall time (loading included), s", lambda t: t.wall)
    row("**prediction, test rows per s**", lambda t: t.pred)
    return "\n".join(out)


def tables(w, sets):
    for s in sets:
        meta = keyvals(os.path.join(w, s, "meta"))

        def t(sub, title):
            d = os.path.join(w, s, sub)
            return Trainer(d, title) if os.path.isdir(d) else None
        ada = t("sk-ada", f"sklearn AdaBoost SAMME stumps")
        if ada:
            ada.title = f"sklearn {ada.runs[0].version} AdaBoost (SAMME, stumps)"
            ours = [t("bl-samme", "boostlab samme"), t("bl-mcboost-exp", "boostlab mcboost-exp")]
            print(table(w, s, meta, [ada], ours, "stumps", False))
        hgb, xgb = t("sk-hgb", "HGB"), t("xgb", "XGBoost")
        if hgb and xgb:
            hgb.title = f"HGB (sklearn {hgb.runs[0].version})"
            xgb.title = f"XGBoost {xgb.runs[0].version} hist"
            ours = [t("bl-mart", "boostlab mart"),
                    t("bl-aoso-logitboost", "boostlab aoso-logitboost")]
            print(table(w, s, meta, [hgb, xgb], ours, "trees (20 leaves, learning rate 0.1)", True))


def slope(xs, ys):
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    mx, my = statistics.mean(lx), statistics.mean(ly)
    b = sum((a - mx) * (c - my) for a, c in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)
    return b, math.exp(my - b * mx)


SERIES = {"m": "training rows m (Fashion-MNIST)", "d": "features d (Fashion-MNIST pixels)",
          "k": "classes k (synthetic)"}
RECIPES = ["mcboost-exp", "aoso-logitboost"]


def scaling(w, series):
    plots = []
    for s in series:
        sd = os.path.join(w, "scaling", s)
        meta = keyvals(os.path.join(sd, "meta"))
        with open(os.path.join(sd, "points")) as f:
            vals = [int(line.split()[0]) for line in f if line.strip()]
        t = {rc: [Run(os.path.join(sd, str(v), rc), "bl") for v in vals] for rc in RECIPES}
        fixed = {"m": f"d = 784, k = 10", "d": f"m = {meta['first_m']}, k = 10",
                 "k": f"m = {meta['first_m']}, d = {meta['first_d']}"}[s]
        print(f"\n### s per iteration against {SERIES[s]}\n\n{fixed}, "
              f"{meta['test_rows']} test rows scored in each iteration; "
              f"median over {len(t[RECIPES[0]][0].per)} iterations\n")
        print(f"| {s} | " + " | ".join(RECIPES) + " |\n|---|" + "---|" * len(RECIPES))
        for i, v in enumerate(vals):
            print(f"| {v} | " + " | ".join(fmt(t[rc][i].s_per_iter) for rc in RECIPES) + " |")
        fits = {rc: slope(vals, [r.s_per_iter for r in t[rc]]) for rc in RECIPES}
        print("| **fitted slope** (log-log) | " +
              " | ".join(f"**{fits[rc][0]:.2f}**" for rc in RECIPES) + " |")
        with open(os.path.join(sd, "plot.dat"), "w") as f:
            for i, v in enumerate(vals):
                f.write(f"{v} " + " ".join(f"{t[rc][i].s_per_iter:.6g}" for rc in RECIPES) + "\n")
        plots.append((s, sd, fits))
    gp = ["set terminal pngcairo size %d,420 font 'sans,10'" % (430 * len(plots) + 40),
          "set output out", f"set multiplot layout 1,{len(plots)}",
          "set logscale xy", "set grid", "set key top left",
          "set ylabel 's per iteration (median)'"]
    for s, sd, fits in plots:
        gp.append(f"set xlabel '{SERIES[s]}'")
        parts = []
        for j, rc in enumerate(RECIPES):
            b, a = fits[rc]
            parts.append(f"'{sd}/plot.dat' using 1:{j + 2} with points pt {7 + 2 * j} lc {j + 1} "
                         f"title '{rc} (slope {b:.2f})'")
            parts.append(f"{a:.6g}*x**{b:.6g} with lines lc {j + 1} notitle")
        gp.append("plot " + ", ".join(parts))
    gp.append("unset multiplot")
    with open(os.path.join(w, "scaling", "plot.gp"), "w") as f:
        f.write("\n".join(gp) + "\n")


def main():
    a = sys.argv[1:]
    if len(a) >= 3 and a[0] == "tables":
        tables(a[1], a[2:])
    elif len(a) >= 3 and a[0] == "scaling":
        scaling(a[1], a[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

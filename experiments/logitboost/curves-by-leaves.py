#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Test error against iterations, one curve per tree size J, for one data set
and shrinkage of a results store: the paper's Figs. 6 and 7 (Sun, Reid & Zhou
2014).  `boostlab report` draws every algorithm of a data set in one plot,
which for a J x nu grid is 36 curves or more; this draws the J curves of one nu.

  curves-by-leaves.py [--algo NAME] [--boostlab BIN] STORE DATA NU OUT.png

STORE: an output folder of `boostlab run` (e.g. results/logitboost-grids);
DATA: a data set of it; NU: the shrinkage of the runs to draw (swept or
set); NAME: the algorithm section (default aoso), whose runs must differ in
weak.leaves (and shrinkage) only.  Needs gnuplot.  Prints, per J, the
iterations run and the final and lowest test error.
"""
import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def die(msg):
    sys.exit(f"curves-by-leaves.py: {msg}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--algo", default="aoso")
    ap.add_argument("--boostlab", default=os.path.join(HERE, "..", "..", "boostlab"))
    ap.add_argument("store")
    ap.add_argument("data")
    ap.add_argument("nu", type=float)
    ap.add_argument("out")
    a = ap.parse_args()
    if not a.out.endswith(".png"):
        die(f"OUT must be a .png file, not '{a.out}'")
    def results(*extra):
        cmd = [a.boostlab, "results", *extra, "-d", a.data, "-a", a.algo + "*", a.store]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            die(r.stderr.strip() or f"{' '.join(cmd)} failed")
        return r.stdout

    # J and nu of each run from its resolved parameters, whether swept or not
    leaves = {}  # algorithm (sweep point) -> J
    for run in json.loads(results("-f", "json") or "[]"):
        if run["algo"] != a.algo and not run["algo"].startswith(a.algo + "{"):
            continue
        par = dict(line.split(" = ", 1) for line in run["params"].splitlines() if " = " in line)
        if "weak.leaves" in par and abs(float(par.get("shrinkage", "nan")) - a.nu) < 1e-9:
            leaves[run["algo"]] = int(par["weak.leaves"])
    if len(set(leaves.values())) < len(leaves):
        die(f"several {a.algo} runs on {a.data} share a J at shrinkage {a.nu}: sweep only "
            "weak.leaves and shrinkage")
    curves = {}  # J -> [(iteration, test error %)]
    for row in csv.DictReader(io.StringIO(results("--curves", "-f", "csv"))):
        if row["algo"] in leaves:
            curves.setdefault(leaves[row["algo"]], []).append(
                (int(row["iteration"]), 100.0 * float(row["test_err"])))
    if not curves:
        die(f"no runs of {a.algo} with shrinkage {a.nu} and a weak.leaves sweep on "
            f"{a.data} in {a.store}")
    with tempfile.TemporaryDirectory() as tmp:
        plots, finals, lows = [], [], []
        print("| J | iterations | final test error % | lowest % (iteration) |")
        print("|---|---|---|---|")
        for j in sorted(curves):
            pts = sorted(curves[j])
            path = os.path.join(tmp, f"j{j}.dat")
            with open(path, "w") as f:
                f.writelines(f"{i} {e}\n" for i, e in pts)
            best = min(pts, key=lambda p: (p[1], p[0]))
            print(f"| {j} | {pts[-1][0]} | {pts[-1][1]:.2f} | {best[1]:.2f} ({best[0]}) |")
            dash = 1 + len(plots) // 8  # gnuplot's 8 colours, then dashed
            plots.append(f"'{path}' using 1:2 with lines lw 1.5 dt {dash} title 'J = {j}'")
            finals.append(pts[-1][1])
            lows.append(best[1])
        script = "\n".join([
            "set terminal pngcairo size 900,600 noenhanced",
            f"set output '{a.out}'",
            f"set title '{a.data}: {a.algo} test error against iterations, nu = {a.nu:g}'",
            "set xlabel 'iterations'",
            "set ylabel 'test error %'",
            # where the curves part: from below the lowest to thrice the worst final error
            f"set yrange [{0.9 * min(lows):g}:{min(100.0, 3.0 * max(finals)):g}]",
            "set grid",
            "set key top right",
            "plot " + ", ".join(plots),
        ])
        g = subprocess.run(["gnuplot"], input=script, capture_output=True, text=True)
        if g.returncode != 0:
            die("gnuplot: " + g.stderr.strip())


if __name__ == "__main__":
    main()

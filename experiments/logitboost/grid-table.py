#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The J x nu table of one data set of grids.ini (the paper's Tables 11, 12
and 15: Sun, Reid & Zhou 2014), as test error counts, ours beside the
paper's: per cell "AOSO ours / paper, abc-worst ours / ABC paper (Li's)".
A `*` marks a run that stopped at its iteration budget instead of at a
training loss of 1e-16, a `-` a cell not run (yet).  Below the table: how
our AOSO differs from the paper's, and in how many cells AOSO has fewer
errors than abc-worst (ours) and than ABC (the paper's).

  grid-table.py [--boostlab BIN] [--paper CSV] STORE DATA

STORE: the output folder of grids.ini (results/logitboost-grids); DATA:
letter, pendigits or optdigits.
"""
import argparse
import csv
import io
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CELL = re.compile(r"(aoso|abc-worst)\{weak\.leaves=(\d+),shrinkage=([\d.]+)\}$")
LEAVES = range(4, 21, 2)
NUS = (0.04, 0.06, 0.08, 0.1)


def die(msg):
    sys.exit(f"grid-table.py: {msg}")


def cell_key(name):
    m = CELL.match(name)
    return (m.group(1), int(m.group(2)), float(m.group(3))) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boostlab", default=os.path.join(HERE, "..", "..", "boostlab"))
    ap.add_argument("--paper", default=os.path.join(HERE, "paper.csv"))
    ap.add_argument("store")
    ap.add_argument("data")
    a = ap.parse_args()
    cmd = [a.boostlab, "results", "-f", "csv", "-d", a.data, a.store]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        die(r.stderr.strip() or f"{' '.join(cmd)} failed")
    ours, ntest = {}, None  # cell -> (errors, stopped at the budget)
    for row in csv.DictReader(io.StringIO(r.stdout)):
        key = cell_key(row["algo"])
        if key:
            ntest = int(row["m_test"])
            ours[key] = (round(float(row["test_err"]) * ntest), row["stopped_early"] == "0")
    if not ours:
        die(f"no grid cells of {a.data} in {a.store}")
    paper = {}  # cell -> errors; paper.csv holds percentages of the test set
    try:
        with open(a.paper) as f:
            for row in csv.reader(line for line in f if not line.startswith("#")):
                if len(row) >= 4 and row[0] == "grids" and row[1] == a.data and cell_key(row[2]):
                    paper[cell_key(row[2])] = round(float(row[3]) * ntest / 100)
    except OSError as e:
        die(f"{a.paper}: {e.strerror}")

    def show(key):
        o = f"{ours[key][0]}{'*' if ours[key][1] else ''}" if key in ours else "-"
        return f"{o} / {paper.get(key, '-')}"

    print("| J | " + " | ".join(f"ν = {nu:g}" for nu in NUS) + " |")
    print("|---" * (len(NUS) + 1) + "|")
    for j in LEAVES:
        print(f"| {j} | " + " | ".join(f"{show(('aoso', j, nu))}, {show(('abc-worst', j, nu))}"
                                       for nu in NUS) + " |")
    diff = [ours[k][0] - paper[k] for k in ours if k[0] == "aoso" and k in paper]
    if diff:
        print(f"\nAOSO ours minus the paper's: mean {sum(diff) / len(diff):+.1f} errors, "
              f"from {min(diff):+d} to {max(diff):+d}, over {len(diff)} cells")
    both = [(j, nu) for j in LEAVES for nu in NUS
            if ("aoso", j, nu) in ours and ("abc-worst", j, nu) in ours]
    if both:
        fewer = sum(ours[("aoso", j, nu)][0] < ours[("abc-worst", j, nu)][0] for j, nu in both)
        print(f"AOSO below abc-worst (ours) in {fewer} of {len(both)} cells")
    pboth = [(j, nu) for j in LEAVES for nu in NUS
             if ("aoso", j, nu) in paper and ("abc-worst", j, nu) in paper]
    if pboth:
        fewer = sum(paper[("aoso", j, nu)] < paper[("abc-worst", j, nu)] for j, nu in pboth)
        print(f"the paper's AOSO below its ABC in {fewer} of {len(pboth)} cells")


if __name__ == "__main__":
    main()

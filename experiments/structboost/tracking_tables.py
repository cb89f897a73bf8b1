#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tables IV-V analogues and Fig. 5 analogues of the tracking experiment
(experiments/structboost/tracking.sh) from its output folder:

  tracking_tables.py OUT [FIGDIR]

prints Markdown: mean +- std overlap and centre error per CONSTRUCTED
sequence, StructBoost tracker vs AdaBoost tracker, fps and retraining time,
and the validation runs that chose C (tracking-validate.sh);
with FIGDIR also draws per-frame overlap curves (gnuplot, pngcairo) as
FIGDIR/tracking-SEQ.png.  The paper's Tables IV/V are on other (real)
videos and are shown separately in the docs, never in the same row.
"""
import csv
import os
import subprocess
import sys

METHODS = ("structboost", "adaboost")


def summary(out, method, seq):
    with open(os.path.join(out, method, seq, "summary.csv")) as f:
        return next(csv.DictReader(f))


def frames(out, method, seq):
    with open(os.path.join(out, method, seq, "frames.csv")) as f:
        return list(csv.DictReader(f))


def ceiling(out, seq):
    """Mean overlap of the best fixed-size box (the size of the last labelled
    frame's box, centred on the truth) over the tracked frames: what a
    tracker that does not change scale can reach at most."""
    with open(os.path.join(out, "seq", seq, "groundtruth.txt")) as f:
        gt = [[float(v) for v in l.split()] for l in f if l.strip()]
    rows = frames(out, "structboost", seq)
    first = sum(r["labelled"] == "1" for r in rows)
    w0, h0 = gt[first - 1][2], gt[first - 1][3]
    vals = []
    for x, y, w, h in gt[first:]:
        i = min(w, w0) * min(h, h0)
        vals.append(i / (w * h + w0 * h0 - i))
    return sum(vals) / len(vals)


def plot(out, seq, png):
    data = {m: frames(out, m, seq) for m in METHODS}
    script = ["set terminal pngcairo size 800,360 noenhanced",
              "set output '%s.tmp'" % png,
              "set title 'per-frame overlap, constructed sequence %s (seed 1)'" % seq,
              "set xlabel 'frame'", "set ylabel 'Pascal overlap with the ground truth'",
              "set yrange [0:1]", "set key bottom right", "set grid"]
    for m in METHODS:
        script.append("$%s << EOD" % m)
        script += ["%s %s" % (r["frame"], r["overlap"]) for r in data[m] if r["labelled"] == "0"]
        script.append("EOD")
    script.append("plot $structboost using 1:2 with lines lw 2 title 'StructBoost tracker', "
                  "$adaboost using 1:2 with lines lw 2 dt 2 title 'AdaBoost tracker'")
    subprocess.run(["gnuplot"], input="\n".join(script) + "\n", text=True, check=True)
    os.replace(png + ".tmp", png)


def validation(out):
    """The choice of C (tracking-validate.sh): mean overlap per C and
    validation sequence (seed 2), and their mean over the sequences."""
    path = os.path.join(out, "val", "validation.csv")
    if not os.path.exists(path):
        return
    with open(path) as f:
        rows = list(csv.DictReader(f))
    grid = list(dict.fromkeys(r["C"] for r in rows))
    seqs = sorted(set(r["sequence"] for r in rows))
    ov = {(r["C"], r["sequence"]): float(r["mean_overlap"]) for r in rows}
    print("| C | " + " | ".join(seqs) + " | mean |")
    print("|---" * (len(seqs) + 2) + "|")
    for c in grid:
        vals = [ov[(c, s)] for s in seqs if (c, s) in ov]
        print("| %s | " % c + " | ".join("%.3f" % ov[(c, s)] if (c, s) in ov else "—"
                                        for s in seqs) + " | %.4f |" % (sum(vals) / len(vals)))
    with open(os.path.join(out, "val", "chosen_C")) as f:
        print()
        print("Chosen on the validation sequences: C = %s." % f.read().strip())
    print()


def main():
    out = sys.argv[1]
    figdir = sys.argv[2] if len(sys.argv) > 2 else None
    validation(out)
    if not os.path.isdir(os.path.join(out, "structboost")):
        return
    seqs = sorted(d for d in os.listdir(os.path.join(out, "structboost"))
                  if os.path.exists(os.path.join(out, "adaboost", d, "summary.csv")))
    print("| sequence (constructed) | overlap StructBoost | overlap AdaBoost | "
          "centre error StructBoost (px) | centre error AdaBoost (px) | fixed-size ceiling |")
    print("|---|---|---|---|---|---|")
    wins = 0
    for s in seqs:
        a, b = summary(out, "structboost", s), summary(out, "adaboost", s)
        wins += float(a["mean_overlap"]) > float(b["mean_overlap"])
        print("| %s | %.2f ± %.2f | %.2f ± %.2f | %.1f ± %.1f | %.1f ± %.1f | %.2f |" % (
            s, float(a["mean_overlap"]), float(a["std_overlap"]), float(b["mean_overlap"]),
            float(b["std_overlap"]), float(a["mean_centre_error"]), float(a["std_centre_error"]),
            float(b["mean_centre_error"]), float(b["std_centre_error"]), ceiling(out, s)))
    print()
    print("StructBoost's mean overlap is higher on %d of %d sequences." % (wins, len(seqs)))
    # the C = 100 runs (--set C=100, into OUT/structboost-C100), when made
    if os.path.isdir(os.path.join(out, "structboost-C100")):
        print()
        print("| sequence (constructed) | overlap StructBoost C = 100 | overlap AdaBoost | "
              "centre error StructBoost C = 100 (px) | fps (wall) | CPU s |")
        print("|---|---|---|---|---|---|")
        wins = 0
        for s in seqs:
            a, b = summary(out, "structboost-C100", s), summary(out, "adaboost", s)
            wins += float(a["mean_overlap"]) > float(b["mean_overlap"])
            print("| %s | %.3f ± %.2f | %.3f ± %.2f | %.1f ± %.1f | %.2f | %.1f |" % (
                s, float(a["mean_overlap"]), float(a["std_overlap"]),
                float(b["mean_overlap"]), float(b["std_overlap"]),
                float(a["mean_centre_error"]), float(a["std_centre_error"]), float(a["fps"]),
                float(a["cpu_seconds"])))
        print()
        print("With C = 100 StructBoost's mean overlap is higher on %d of %d sequences."
              % (wins, len(seqs)))
    print()
    print("| sequence | method | tracked frames | wall s | fps (wall) | of which retraining (s) | "
          "CPU s | updates | final columns |")
    print("|---|---|---|---|---|---|---|---|---|")
    for s in seqs:
        for m in METHODS:
            r = summary(out, m, s)
            print("| %s | %s | %s | %.1f | %.2f | %.1f | %.1f | %s | %s |" % (
                s, m, r["tracked"], float(r["seconds"]), float(r["fps"]),
                float(r["train_seconds"]), float(r["cpu_seconds"]), r["updates"], r["columns"]))
    if figdir:
        os.makedirs(figdir, exist_ok=True)
        for s in seqs:
            plot(out, s, os.path.join(figdir, "tracking-%s.png" % s))


if __name__ == "__main__":
    main()

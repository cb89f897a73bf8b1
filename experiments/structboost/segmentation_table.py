#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Table VI analogue (constructed data): pixel IoU and accuracy, mean (fg, bg)
in %, of the unary-only AdaBoost and linear SVM (segment prepare's
baselines.tsv), the SSVM and StructBoost (the results store of
segmentation.ini), per category, as Markdown.

    python3 experiments/structboost/segmentation_table.py results/structboost-segmentation
"""
import json
import os
import subprocess
import sys

CATS = ["horse", "vehicle", "person"]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "results/structboost-segmentation"
    exe = os.environ.get("BOOSTLAB", "./boostlab")
    runs = json.loads(subprocess.run([exe, "results", os.path.join(root, "runs"), "-f", "json"],
                                     check=True, capture_output=True, text=True).stdout)
    cell = {}
    for c in CATS:
        with open(os.path.join(root, "prep", c, "baselines.tsv")) as f:
            rows = [l.rstrip("\n").split("\t") for l in f if not l.startswith("#")]
        head = rows[0]
        for r in rows[1:]:
            v = dict(zip(head[1:], map(float, r[1:])))
            cell[({"adaboost": "AdaBoost", "svm": "SVM"}[r[0]], c)] = (v, "")
    for r in runs:
        algo = r["algo"]
        for name, key in (("StructBoost", "structboost-pv-"),
                          ("StructBoost, best column", "structboost-"), ("SSVM", "ssvm-")):
            if algo.startswith(key) and (key != "structboost-" or "-pv-" not in algo):
                v = {k: m["test"] for k, m in r["metrics"].items()}
                kv = dict(l.split(" = ", 1) for l in (r.get("params") or "").splitlines()
                          if " = " in l)
                info = "%s (held-out IoU error %s), %d iterations, %d columns / cuts" % (
                    kv.get("cv_chosen", "C = " + kv.get("C", "?")), kv.get("cv_error", "-"),
                    r["iterations"], r["trees"])
                cell[(name, r["data"])] = (v, info)
                break
    methods = ["AdaBoost", "SVM", "SSVM", "StructBoost, best column", "StructBoost"]
    for title, m, f, b in (("Intersection / union", "iou_mean", "iou_fg", "iou_bg"),
                           ("Pixel accuracy", "acc_mean", "acc_fg", "acc_bg")):
        print("%s, mean (foreground, background) %%, test images:\n" % title)
        print("| method | " + " | ".join(CATS) + " |")
        print("|---|" + "---|" * len(CATS))
        for meth in methods:
            row = []
            for c in CATS:
                if (meth, c) not in cell:
                    row.append("-")
                    continue
                v = cell[(meth, c)][0]
                row.append("%.1f (%.1f, %.1f)" % (100 * v[m], 100 * v[f], 100 * v[b]))
            print("| %s | %s |" % (meth, " | ".join(row)))
        print()
    print("Runs:\n")
    for (meth, c), (v, info) in sorted(cell.items()):
        if info:
            print("- %s, %s: %s" % (meth, c, info))


if __name__ == "__main__":
    main()

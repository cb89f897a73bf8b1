# SPDX-License-Identifier: GPL-3.0-or-later
"""Seeded generator of the sparse LIBSVM files of bench/sparse.sh (issue 37):
ROWS rows of FEATURES features, NNZ non-zeros a row, CLASSES classes.  Each
class owns 50 indicative features; a row draws 5 of its class's and the rest
from a heavy-headed background (index = FEATURES * u^3; with --uniform,
FEATURES * u), values uniform in (0, 1] with 3 decimals, like tf-idf weights
of a bag of words.

  /usr/bin/python3 bench/sparse_gen.py --rows 5000 --features 100000 --nnz 41 \
      --classes 4 --seed 1 OUT.libsvm
"""
import argparse

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, required=True)
    ap.add_argument("--features", type=int, required=True)
    ap.add_argument("--nnz", type=int, required=True)
    ap.add_argument("--classes", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--uniform", action="store_true",
                    help="background features uniform instead of heavy-headed")
    ap.add_argument("out")
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    own = rng.choice(a.features, size=(a.classes, 50), replace=False)
    with open(a.out, "w") as f:
        for _ in range(a.rows):
            c = int(rng.integers(a.classes))
            idx = set(rng.choice(own[c], size=5, replace=False).tolist())
            while len(idx) < a.nnz:
                u = rng.random()
                idx.add(int(a.features * (u if a.uniform else u ** 3)))
            cols = sorted(idx)
            vals = np.round(rng.random(len(cols)) * 0.999 + 0.001, 3)
            f.write(str(c) + " " + " ".join(f"{j + 1}:{v:g}" for j, v in zip(cols, vals)) + "\n")


if __name__ == "__main__":
    main()

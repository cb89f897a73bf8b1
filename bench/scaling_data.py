# SPDX-License-Identifier: GPL-3.0-or-later
"""Data files for bench/suite.sh.

  scaling_data.py series m|d|k QUICK FMNIST_DIR OUT
      writes the points of one scaling series as uncompressed IDX files (2-D
      images: rows x features) under OUT, and OUT/points with one line per
      point: "value train_images train_labels test_images test_labels".
        m: the first m Fashion-MNIST training rows, all 784 pixels, 10 classes
           (2500 .. 60000; QUICK: 1000 .. 4000)
        d: the first 10000 rows (QUICK: 2000), d pixels: the first d of a
           seeded random permutation of the 784 (49 .. 784; QUICK: 49 .. 196)
        k: a seeded synthetic set: k classes of equal size, class c's rows are
           a Gaussian centre mu_c ~ N(0, I_d) plus N(0, I_d) noise, then
           128 + 32 x, rounded and clipped to 0..255; 10000 training and 2000
           test rows, d = 50 (QUICK: 2000 / 500 rows, d = 20);
           k = 2 .. 64 (QUICK: 2 .. 8)
      Test rows: the first 2000 t10k images (QUICK: 500), the same pixels, so
      the test scoring inside an iteration costs the same at every point.
  scaling_data.py fmnist-csv FMNIST_DIR N OUT
      OUT/train.csv: the first N Fashion-MNIST training rows, OUT/test.csv:
      the 10000 t10k rows (label first, then 784 pixels), as CSV (suite.sh
      tiles the test rows into the file boostlab predict's timing reads).
"""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree (make dist)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_data import read_idx  # noqa: E402

SEED = 20261122


def write_idx(path, a):
    """Unsigned-byte IDX file of array a (its shape as the dimensions)."""
    a = np.ascontiguousarray(a, dtype=np.uint8)
    with open(path, "wb") as f:
        f.write(bytes([0, 0, 8, a.ndim]))
        for n in a.shape:
            f.write(int(n).to_bytes(4, "big"))
        f.write(a.tobytes())


def fmnist(d):
    X = read_idx(os.path.join(d, "train-images-idx3-ubyte.gz"))
    Xt = read_idx(os.path.join(d, "t10k-images-idx3-ubyte.gz"))
    return (X.reshape(len(X), -1), read_idx(os.path.join(d, "train-labels-idx1-ubyte.gz")),
            Xt.reshape(len(Xt), -1), read_idx(os.path.join(d, "t10k-labels-idx1-ubyte.gz")))


def synthetic(m, mt, d, k, seed):
    rng = np.random.default_rng(seed)
    mu = rng.normal(size=(k, d))

    def draw(n):
        y = rng.permutation(np.arange(n) % k)
        x = mu[y] + rng.normal(size=(n, d))
        return np.clip(np.rint(128 + 32 * x), 0, 255).astype(np.uint8), y.astype(np.uint8)
    X, y = draw(m)
    Xt, yt = draw(mt)
    return X, y, Xt, yt


def series(name, quick, fdir, out):
    os.makedirs(out, exist_ok=True)
    mt = 500 if quick else 2000
    points = []
    if name == "m":
        X, y, Xt, yt = fmnist(fdir)
        for m in ([1000, 2000, 4000] if quick else [2500, 5000, 10000, 20000, 40000, 60000]):
            points.append((m, X[:m], y[:m], Xt[:mt], yt[:mt]))
    elif name == "d":
        X, y, Xt, yt = fmnist(fdir)
        m = 2000 if quick else 10000
        perm = np.random.default_rng(SEED).permutation(X.shape[1])
        for d in ([49, 98, 196] if quick else [49, 98, 196, 392, 784]):
            cols = np.sort(perm[:d])
            points.append((d, X[:m, cols], y[:m], Xt[:mt, cols], yt[:mt]))
    elif name == "k":
        m, d = (2000, 20) if quick else (10000, 50)
        for k in ([2, 4, 8] if quick else [2, 4, 8, 16, 32, 64]):
            points.append((k,) + synthetic(m, mt, d, k, SEED + k))
    else:
        sys.exit(f"scaling_data.py: unknown series '{name}' (m, d or k)")
    with open(os.path.join(out, "points"), "w") as f:
        for v, X, y, Xt, yt in points:
            files = [os.path.join(out, f"{v}.{s}.idx") for s in ("train", "labels", "test", "tlabels")]
            for path, a in zip(files, (X, y, Xt, yt)):
                write_idx(path, a)
            f.write(" ".join([str(v)] + files) + "\n")
    with open(os.path.join(out, "meta"), "w") as f:
        X, Xt = points[0][1], points[0][3]
        f.write(f"series={name}\nquick={quick}\nfirst_m={len(X)}\nfirst_d={X.shape[1]}\n"
                f"test_rows={len(Xt)}\n")


def fmnist_csv(fdir, n, out):
    X, y, Xt, yt = fmnist(fdir)
    os.makedirs(out, exist_ok=True)
    header = "label," + ",".join(f"p{j}" for j in range(X.shape[1]))
    for name, A, b in (("train", X[:n], y[:n]), ("test", Xt, yt)):
        a = np.column_stack([b, A]).astype(np.int64)
        tmp = os.path.join(out, name + ".csv.tmp")
        np.savetxt(tmp, a, fmt="%d", delimiter=",", header=header, comments="")
        os.replace(tmp, os.path.join(out, name + ".csv"))


def main():
    a = sys.argv[1:]
    if len(a) == 5 and a[0] == "series" and a[2] in ("0", "1"):
        series(a[1], a[2] == "1", a[3], a[4])
    elif len(a) == 4 and a[0] == "fmnist-csv" and a[2].isdigit() and int(a[2]) > 0:
        fmnist_csv(a[1], int(a[2]), a[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

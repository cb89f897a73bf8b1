#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Training through libboostlab from Python against the command line, on
# pendigits (7494 x 16, 10 classes): `boostlab train` (a process: read the
# CSV, quantize, train, save the model) against the same recipe and settings
# from Python, timed two ways in one process per run:
#   fit      boostlab.Classifier.fit on the rows already in memory (copy
#            into the engine's layout, quantize, train);
#   process  the whole Python process: start, import boostlab (numpy,
#            scikit-learn), np.loadtxt, fit, save_model.
# Runs alternate (CLI, Python, CLI, ...); prints each run's seconds, the
# medians and the ratios Python / CLI as markdown.
# Usage: bench/python-overhead.sh [--iterations N] [--reps N] [--threads N]
#        (default 300, 5, 1); PY=... picks the Python (default /usr/bin/python3).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$ROOT/boostlab}
PY=${PY:-/usr/bin/python3}
ITERS=300 REPS=5 THREADS=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --iterations) ITERS=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    *) echo "usage: $0 [--iterations N] [--reps N] [--threads N]" >&2; exit 2 ;;
  esac
done
[[ -x $BL && -e $ROOT/.libs/libboostlab.so.0 ]] || { echo "$0: build first (make)" >&2; exit 1; }
TMP=$(mktemp -d /tmp/bl-pyover-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
DATA=$ROOT/data/pendigits.train.csv
RECIPE=aoso-logitboost

cat >"$TMP/fit.py" <<'PY'
import sys, time
t0 = time.time()
import numpy as np
import boostlab
data, iters, threads, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
d = np.loadtxt(data, delimiter=",", skiprows=1)
X, y = d[:, 1:], d[:, 0].astype(int)
clf = boostlab.Classifier(recipe="aoso-logitboost", iterations=iters, threads=threads)
t1 = time.time()
clf.fit(X, y)
t2 = time.time()
clf.save_model(out)
print("%.4f" % (t2 - t1))
PY

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# one untimed run of each first: the page cache and the plugins' files
"$BL" train -q --data "$DATA" --recipe $RECIPE --iterations 5 --threads "$THREADS" --model "$TMP/w.model"
BOOSTLAB_LIB=$ROOT/.libs/libboostlab.so.0 PYTHONPATH=$ROOT/python "$PY" "$TMP/fit.py" "$DATA" 5 "$THREADS" "$TMP/w.model" >/dev/null

echo "| run | boostlab train s | Python fit s | Python process s |"
echo "|---|---|---|---|"
: >"$TMP/cli"; : >"$TMP/fit"; : >"$TMP/proc"
for r in $(seq 1 "$REPS"); do
  t0=$(now)
  "$BL" train -q --data "$DATA" --recipe $RECIPE --iterations "$ITERS" --threads "$THREADS" \
    --model "$TMP/cli.model"
  t1=$(now)
  fit=$(BOOSTLAB_LIB=$ROOT/.libs/libboostlab.so.0 PYTHONPATH=$ROOT/python \
        "$PY" "$TMP/fit.py" "$DATA" "$ITERS" "$THREADS" "$TMP/py.model")
  t2=$(now)
  cli=$(echo "$t1 - $t0" | bc -l); proc=$(echo "$t2 - $t1" | bc -l)
  cmp -s "$TMP/cli.model" "$TMP/py.model" || echo "note: run $r: the models differ (class or feature names)" >&2
  printf '| %d | %.3f | %.3f | %.3f |\n' "$r" "$cli" "$fit" "$proc"
  echo "$cli" >>"$TMP/cli"; echo "$fit" >>"$TMP/fit"; echo "$proc" >>"$TMP/proc"
done
c=$(median <"$TMP/cli"); f=$(median <"$TMP/fit"); p=$(median <"$TMP/proc")
printf '| median | %.3f | %.3f | %.3f |\n\n' "$c" "$f" "$p"
printf 'Python fit / boostlab train: %.3fx; Python process / boostlab train: %.3fx (%s, %s iterations, %s thread(s), %s runs)\n' \
  "$(echo "$f / $c" | bc -l)" "$(echo "$p / $c" | bc -l)" "$RECIPE" "$ITERS" "$THREADS" "$REPS"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 37's sparse bars: boostlab's mcboost-exp against XGBoost stumps on
# a seeded 5000 x 100000 LIBSVM toy (41 non-zeros a row, 4 classes; the
# first 3750 rows train, the rest test), and boostlab alone loading and
# training 100 stumps on a 1000 x 1,000,000 file (50 non-zeros a row).
# Prints markdown: s per stump of each and their ratio, test error, peak
# RSS (GNU time; XGBoost's includes Python and numpy), and the wide file's
# wall time and peak RSS.  Data from bench/sparse_gen.py (seeds 1 and 2).
#
#   bench/sparse.sh [--threads N] [--stumps N] [--out DIR]
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$SRC/boostlab}
PY=${PY:-/usr/bin/python3}
THREADS=2 STUMPS=100 OUT=
while [[ $# -gt 0 ]]; do
  case $1 in
    --threads) THREADS=$2; shift 2 ;;
    --stumps) STUMPS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    *) echo "usage: bench/sparse.sh [--threads N] [--stumps N] [--out DIR]" >&2; exit 2 ;;
  esac
done
if [[ -z $OUT ]]; then
  OUT=$(mktemp -d)
  trap '[[ -n $OUT && -d $OUT ]] && rm -r -- "$OUT"' EXIT
fi
mkdir -p "$OUT"
$PY "$SRC/bench/sparse_gen.py" --rows 5000 --features 100000 --nnz 41 --classes 4 --seed 1 \
  "$OUT/toy.libsvm"
$PY "$SRC/bench/sparse_gen.py" --rows 1000 --features 1000000 --nnz 50 --classes 4 --seed 2 \
  "$OUT/wide.libsvm"

cat >"$OUT/toy.ini" <<INI
[experiment]
name = sparse-toy
seed = 1
repeats = 1
iterations = $STUMPS

[data toy]
file = toy.libsvm
split = first
first = 3750

[algorithm mcboost-exp]
recipe = mcboost-exp
INI
rss() { sed -n 's/.*Maximum resident set size (kbytes): //p' "$1"; }
wall() { sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$1"; }

/usr/bin/time -v "$BL" run -q -t "$THREADS" -o "$OUT/toy.out" "$OUT/toy.ini" \
  >"$OUT/toy.sum" 2>"$OUT/toy.time"
# summary.csv: time_total_mean (s of the iterations), iterations_mean
read -r bl_s bl_it bl_err < <(awk -F, 'NR == 2 { print $12, $14, $4 }' "$OUT/toy.out/summary.csv")
/usr/bin/time -v "$PY" "$SRC/bench/sparse_xgb.py" --file "$OUT/toy.libsvm" --first 3750 \
  --stumps "$STUMPS" --threads "$THREADS" >"$OUT/xgb.txt" 2>"$OUT/xgb.time"
xs=$(sed -n 's/^s_per_tree=//p' "$OUT/xgb.txt")
xerr=$(sed -n 's/^test_err=//p' "$OUT/xgb.txt")

/usr/bin/time -v "$BL" train -q -t "$THREADS" -d "$OUT/wide.libsvm" -r mcboost-exp \
  -i "$STUMPS" -m "$OUT/wide.model" 2>"$OUT/wide.time"
d=$(sed -n 's/^features //p' "$OUT/wide.model")

echo "bench/sparse.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $THREADS threads, load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| 5000 x 100000, 41 a row | boostlab mcboost-exp | XGBoost hist, depth 1 | boostlab / XGBoost |"
echo "|---|---|---|---|"
awk -v s="$bl_s" -v it="$bl_it" -v x="$xs" 'BEGIN { printf "| s per stump | %.5f | %.5f | %.2f |\n", s / it, x, s / it / x }'
awk -v e="$bl_err" -v x="$xerr" 'BEGIN { printf "| test error %% | %.2f | %.2f | |\n", e, 100 * x }'
awk -v a="$(rss "$OUT/toy.time")" -v b="$(rss "$OUT/xgb.time")" 'BEGIN { printf "| peak RSS, MB | %.1f | %.1f | %.2f |\n", a / 1024, b / 1024, a / b }'
echo
echo "| 1000 x $d, 50 a row | boostlab train mcboost-exp, $STUMPS stumps |"
echo "|---|---|"
echo "| wall time (load, quantize, train, save) | $(wall "$OUT/wide.time") |"
awk -v a="$(rss "$OUT/wide.time")" 'BEGIN { printf "| peak RSS, MB | %.1f |\n", a / 1024 }'

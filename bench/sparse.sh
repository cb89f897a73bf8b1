#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 37's sparse bars: boostlab's mcboost-exp against XGBoost stumps on
# a seeded 5000 x 100000 LIBSVM toy (41 non-zeros a row, 4 classes; the
# first 3750 rows train, the rest test), and boostlab alone loading and
# training 100 stumps on a 1000 x 1,000,000 file (50 non-zeros a row).
# Prints markdown: s per stump of each and their ratio, test error, peak
# RSS (GNU time; XGBoost's includes Python and numpy), and the wide file's
# wall time and peak RSS.  Data from bench/sparse_gen.py (seeds 1 and 2).
# --quick: files of 1/10 the rows and 1/100 the features, 5 stumps, no
# XGBoost (its cells n/a): checks that the script and its tables still
# work (tests/cli/bench_sparse.sh), not the bars.
#
#   bench/sparse.sh [--threads N] [--stumps N] [--out DIR] [--quick]
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$SRC/boostlab}
PY=${PY:-/usr/bin/python3}
THREADS=2 STUMPS=100 OUT= QUICK=0
usage() { echo "usage: bench/sparse.sh [--threads N] [--stumps N] [--out DIR] [--quick]" >&2; exit 2; }
posint() { [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "sparse.sh: $1 wants a positive whole number, got '$2'" >&2; exit 2; }; }
while [[ $# -gt 0 ]]; do
  case $1 in
    --threads) posint "$1" "${2-}"; THREADS=$2; shift 2 ;;
    --stumps) posint "$1" "${2-}"; STUMPS=$2; shift 2 ;;
    --out) [[ -n ${2-} ]] || usage; OUT=$2; shift 2 ;;
    --quick) QUICK=1; STUMPS=5; shift ;;
    *) usage ;;
  esac
done
# rows and features of the toy and of the wide file
R1=5000 F1=100000 FIRST=3750 R2=1000 F2=1000000
((QUICK)) && R1=500 F1=1000 FIRST=375 R2=100 F2=10000
if [[ -z $OUT ]]; then
  OUT=$(mktemp -d)
  trap '[[ -n $OUT && -d $OUT ]] && rm -r -- "$OUT"' EXIT
fi
mkdir -p "$OUT"
$PY "$SRC/bench/sparse_gen.py" --rows $R1 --features $F1 --nnz 41 --classes 4 --seed 1 \
  "$OUT/toy.libsvm"
$PY "$SRC/bench/sparse_gen.py" --rows $R2 --features $F2 --nnz 50 --classes 4 --seed 2 \
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
first = $FIRST

[algorithm mcboost-exp]
recipe = mcboost-exp
INI
rss() { sed -n 's/.*Maximum resident set size (kbytes): //p' "$1"; }
wall() { sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$1"; }

/usr/bin/time -v "$BL" run -q -t "$THREADS" -o "$OUT/toy.out" "$OUT/toy.ini" \
  >"$OUT/toy.sum" 2>"$OUT/toy.time"
# summary.csv: time_total_mean (s of the iterations), iterations_mean
read -r bl_s bl_it bl_err < <(awk -F, 'NR == 2 { print $12, $14, $4 }' "$OUT/toy.out/summary.csv")
xs=n/a xerr=n/a
: >"$OUT/xgb.time"
if ((!QUICK)); then
  /usr/bin/time -v "$PY" "$SRC/bench/sparse_xgb.py" --file "$OUT/toy.libsvm" --first $FIRST \
    --stumps "$STUMPS" --threads "$THREADS" >"$OUT/xgb.txt" 2>"$OUT/xgb.time"
  xs=$(sed -n 's/^s_per_tree=//p' "$OUT/xgb.txt")
  xerr=$(sed -n 's/^test_err=//p' "$OUT/xgb.txt")
fi

/usr/bin/time -v "$BL" train -q -t "$THREADS" -d "$OUT/wide.libsvm" -r mcboost-exp \
  -i "$STUMPS" -m "$OUT/wide.model" 2>"$OUT/wide.time"
d=$(sed -n 's/^features //p' "$OUT/wide.model")

echo "bench/sparse.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $THREADS threads, load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| $R1 x $F1, 41 a row | boostlab mcboost-exp | XGBoost hist, depth 1 | boostlab / XGBoost |"
echo "|---|---|---|---|"
# (n/a: XGBoost not run, --quick)
awk -v s="$bl_s" -v it="$bl_it" -v x="$xs" 'BEGIN { printf "| s per stump | %.5f | ", s / it
  if (x == "n/a") print "n/a | n/a |"; else printf "%.5f | %.2f |\n", x, s / it / x }'
awk -v e="$bl_err" -v x="$xerr" 'BEGIN { printf "| test error %% | %.2f | ", e
  if (x == "n/a") print "n/a | |"; else printf "%.2f | |\n", 100 * x }'
awk -v a="$(rss "$OUT/toy.time")" -v b="$(rss "$OUT/xgb.time")" 'BEGIN { printf "| peak RSS, MB | %.1f | ", a / 1024
  if (b == "") print "n/a | n/a |"; else printf "%.1f | %.2f |\n", b / 1024, a / b }'
echo
echo "| $R2 x $d, 50 a row | boostlab train mcboost-exp, $STUMPS stumps |"
echo "|---|---|"
echo "| wall time (load, quantize, train, save) | $(wall "$OUT/wide.time") |"
awk -v a="$(rss "$OUT/wide.time")" 'BEGIN { printf "| peak RSS, MB | %.1f |\n", a / 1024 }'

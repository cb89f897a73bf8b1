#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Where dense storage stops paying ([data] storage = auto's threshold):
# mcboost-exp, ITER stumps, on seeded 4000 x 500 sets (4 classes) whose
# density (stored entries / cells) runs over LIST, each held dense and
# sparse, runs alternating, REPS of each; prints a markdown table of the
# median seconds of the iterations (summary.csv's time_total) and the
# ratio sparse / dense.  Data from bench/sparse_gen.py's uniform mode.
#
#   bench/sparse-density.sh [--densities LIST] [--iterations N] [--reps N] [--threads N]
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$SRC/boostlab}
PY=${PY:-/usr/bin/python3}
DENS="0.02,0.05,0.1,0.2,0.4" ITER=30 REPS=3 THREADS=2
while [[ $# -gt 0 ]]; do
  case $1 in
    --densities) DENS=$2; shift 2 ;;
    --iterations) ITER=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    *) echo "usage: bench/sparse-density.sh [--densities LIST] [--iterations N] [--reps N] [--threads N]" >&2; exit 2 ;;
  esac
done
TMP=$(mktemp -d)
trap '[[ -n $TMP && -d $TMP ]] && rm -r -- "$TMP"' EXIT
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "bench/sparse-density.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $THREADS threads, $ITER stumps, load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| density | dense s | sparse s | sparse / dense |"
echo "|---|---|---|---|"
for p in ${DENS//,/ }; do
  nnz=$(awk -v p="$p" 'BEGIN { printf "%d", p * 500 }')
  $PY "$SRC/bench/sparse_gen.py" --rows 4000 --features 500 --nnz "$nnz" --uniform --seed 3 \
    "$TMP/d.libsvm"
  for st in dense sparse; do
    printf '[experiment]\nname = density\nseed = 1\nrepeats = 1\niterations = %s\n\n[data d]\nfile = d.libsvm\nsplit = first\nfirst = 3000\nstorage = %s\n\n[algorithm mcboost-exp]\nrecipe = mcboost-exp\n' \
      "$ITER" "$st" >"$TMP/$st.ini"
  done
  : >"$TMP/dense.t"
  : >"$TMP/sparse.t"
  for ((r = 0; r < REPS; r++)); do
    for st in dense sparse; do
      rm -rf -- "$TMP/out"
      "$BL" run -q -t "$THREADS" -o "$TMP/out" "$TMP/$st.ini" >/dev/null
      awk -F, 'NR == 2 { print $12 }' "$TMP/out/summary.csv" >>"$TMP/$st.t"
    done
  done
  a=$(median <"$TMP/dense.t")
  b=$(median <"$TMP/sparse.t")
  awk -v p="$p" -v a="$a" -v b="$b" 'BEGIN { printf "| %s | %.3f | %.3f | %.2f |\n", p, a, b, b / a }'
done

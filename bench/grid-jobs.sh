#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `boostlab run --jobs N` against --jobs 1 on a grid of many small runs
# (4 UCI sets x 4 algorithms x 10 repeats = 160 runs of 100 iterations),
# both with their default threads (all cores for one job, cores / N each
# for N jobs).  Prints the wall times, their medians over REPS runs and the
# speed-up.  Usage: bench/grid-jobs.sh [JOBS [REPS]] (default: cores, 3).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$ROOT/boostlab}
JOBS=${1:-$(nproc)}
REPS=${2:-3}
TMP=$(mktemp -d /tmp/bl-bench-XXXXXX)
trap 'rm -rf "$TMP"' EXIT

cat >"$TMP/grid.ini" <<INI
[experiment]
name = bench-grid
repeats = 10
iterations = 100
[data iris]
file = $ROOT/data/iris.csv
[data wine]
file = $ROOT/data/wine.csv
[data glass]
file = $ROOT/data/glass.csv
[data vehicle]
file = $ROOT/data/vehicle.csv
[algorithm a]
recipe = {mcboost-exp, mcboost-log, samme, adaboost-ecc}
INI

secs() { # wall seconds of one fresh run with --jobs $1
  rm -rf "$TMP/out"
  local t0 t1
  t0=$(date +%s.%N)
  "$BL" run --quiet --jobs "$1" --output "$TMP/out" "$TMP/grid.ini" >/dev/null
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "machine: $(nproc) cores; grid: 160 runs; $REPS timings each, alternating"
: >"$TMP/t1"; : >"$TMP/tn"
for r in $(seq "$REPS"); do
  a=$(secs 1); b=$(secs "$JOBS")
  printf '  run %d: --jobs 1 %.2fs   --jobs %d %.2fs\n' "$r" "$a" "$JOBS" "$b"
  echo "$a" >>"$TMP/t1"; echo "$b" >>"$TMP/tn"
done
m1=$(median <"$TMP/t1"); mn=$(median <"$TMP/tn")
printf '| jobs | median wall s | speed-up |\n|---|---|---|\n| 1 | %.2f | 1.00 |\n| %d | %.2f | %.2f |\n' \
  "$m1" "$JOBS" "$mn" "$(echo "$m1 / $mn" | bc -l)"

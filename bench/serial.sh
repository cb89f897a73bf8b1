#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The serial sections of an iteration: where only the main thread works
# while the others wait (issue 31's bar on a machine of few cores: none above
# 5 % of an iteration).  Samples every thread of a run with `perf record
# --call-graph dwarf` (Debian package linux-perf) and hands the samples to
# bench/serial_share.py, which counts a main-thread sample inside the
# engine's iteration as serial when no other thread works within a sampling
# period of it, under the innermost function of boostlab's own code on its
# stack (so a memcpy called from the grower's partition counts as the
# partition).
#   bench/serial.sh [--recipe R] [--data letter|synthetic] [--threads T]
#                   [--iterations N] [--freq HZ] [--out DIR] [--quick]
# Defaults: aoso-logitboost, letter (the first 16000 rows train), 2 threads,
# 200 iterations, 999 Hz; synthetic: bench/scaling.sh's 100000 x 60 set,
# 40 iterations.  --quick: letter's first 3000 rows, 30 iterations.
# Prints a markdown table: each serial section's share of the main thread's
# samples inside iterations, all serial time, and the largest section.
# Environment: BL (the boostlab binary), OMP_WAIT_POLICY as the run's.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$ROOT/boostlab}
RECIPE=aoso-logitboost SET=letter T=2 ITERS='' FREQ=999 OUT='' QUICK=0
usage() { echo "serial.sh: $*" >&2; exit 2; }
while (($#)); do
  case $1 in
    --recipe) RECIPE=${2:?--recipe needs a name}; shift ;;
    --data) SET=${2:?--data needs letter or synthetic}; shift ;;
    --threads) T=${2:?--threads needs a number}; shift ;;
    --iterations) ITERS=${2:?--iterations needs a number}; shift ;;
    --freq) FREQ=${2:?--freq needs a number}; shift ;;
    --out) OUT=${2:?--out needs a folder}; shift ;;
    --quick) QUICK=1 ;;
    -h|--help) sed -n '3,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) usage "unknown option '$1' (see --help)" ;;
  esac
  shift
done
[[ $SET == letter || $SET == synthetic ]] || usage "--data: unknown '$SET' (letter, synthetic)"
[[ $T =~ ^[1-9][0-9]{0,3}$ ]] || usage "--threads expects a thread count (1..9999), not '$T'"
[[ -z $ITERS || $ITERS =~ ^[1-9][0-9]{0,5}$ ]] || usage "--iterations expects a positive integer, not '$ITERS'"
[[ $FREQ =~ ^[1-9][0-9]{0,4}$ ]] || usage "--freq expects a sampling rate in Hz, not '$FREQ'"
[[ $RECIPE =~ ^[A-Za-z0-9._-]+$ ]] || usage "--recipe: '$RECIPE' is not a recipe name"
command -v perf >/dev/null || { echo "serial.sh: perf not found (Debian: apt-get install linux-perf)" >&2; exit 1; }
[[ -x $BL ]] || { echo "serial.sh: $BL not built: run ./configure && make" >&2; exit 1; }
TMP=$(mktemp -d /tmp/bl-serial-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
if [[ -n $OUT ]]; then mkdir -p "$OUT"; else OUT=$TMP; fi
if [[ $SET == letter ]]; then
  csv=$ROOT/data/letter.csv classes=$ROOT/data/letter.classes first=16000
  if ((QUICK)); then head -n 3001 "$csv" >"$TMP/letter.csv"; csv=$TMP/letter.csv first=2000; fi
  ITERS=${ITERS:-$((QUICK ? 30 : 200))}
else
  m=$((QUICK ? 2000 : 100000)) mt=$((QUICK ? 500 : 10000))
  "$BL" synth classification --rows $((m + mt)) --features 60 --classes 10 \
    --informative 20 --redundant 10 --seed 7 -o "$TMP/synthetic.csv"
  csv=$TMP/synthetic.csv classes=$TMP/synthetic.classes first=$m
  ITERS=${ITERS:-$((QUICK ? 10 : 40))}
fi
{ printf '[experiment]\nname = serial\niterations = %s\nthreads = %s\nmax_bins = 256\n' "$ITERS" "$T"
  printf 'output = %s/run\n\n[data %s]\nfile = %s\nclasses = %s\nsplit = first\nfirst = %s\n\n' "$TMP" "$SET" "$csv" "$classes" "$first"
  printf '[algorithm %s]\nrecipe = %s\n' "$RECIPE" "$RECIPE"; } >"$OUT/serial.ini"
perf record -q -F "$FREQ" --call-graph dwarf -o "$OUT/perf.data" -- \
  "$BL" run -q --jobs 1 "$OUT/serial.ini" >/dev/null 2>"$OUT/run.err" ||
  { echo "serial.sh: the profiled run failed: $(tail -3 "$OUT/run.err")" >&2; exit 1; }
perf script -i "$OUT/perf.data" -F comm,pid,tid,time,ip,sym,dso 2>/dev/null |
  python3 "$ROOT/bench/serial_share.py" "$FREQ"
echo "$RECIPE on $SET, $ITERS iterations, $T threads, perf at $FREQ Hz, OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-(default)}"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Where a tree learner's iteration goes, by phase, at several thread counts:
# the trees plugin's phase timers (BOOSTLAB_PROFILE, plugins/weak/trees/
# grow.h) and the engine's per-iteration times from the curves.
#   bench/profile.sh [--recipe R] [--data letter|synthetic] [--threads LIST]
#                    [--iterations N] [--quick] [--serial [--freq HZ]]
# R: a recipe of the trees plugin (aoso-logitboost by default); letter: the
# first 16000 rows train (--quick: 2000 of the first 3000); synthetic: as
# bench/scaling.sh, 100000 + 10000 rows of `boostlab synth classification`
# (--quick: 2000 + 500).  Prints one markdown table: ms per iteration, the
# learner's fit, its phases (grow.h: choose the node's statistics, fill
# them, build and scan histograms, sibling subtraction, partition, the
# leaves' values and outputs, the per-fit set-up, the rest), and the
# engine's bookkeeping (the loss's update and scoring the test part).
# --serial [--freq HZ]: instead, the serial sections of an iteration at each
# thread count (issue 31's bar on few cores: none above 5 %): every thread
# sampled by `perf record --call-graph dwarf` (Debian package linux-perf) at
# HZ (999 by default), and bench/serial_share.py counts a main-thread sample
# inside the engine's iteration as serial when no other thread works within
# a sampling period of it, under the innermost boostlab function on its
# stack (a memcpy called from the partition counts as the partition).  It
# prints each section's share of the iteration and their sum; default
# threads there: the cores.
# Environment: BL (the boostlab binary), OMP_WAIT_POLICY as the runs'.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$ROOT/boostlab}
RECIPE=aoso-logitboost SET=synthetic THREADS='' ITERS='' QUICK=0 SERIAL=0 FREQ=999
usage() { echo "profile.sh: $*" >&2; exit 2; }
while (($#)); do
  case $1 in
    --recipe) RECIPE=${2:?--recipe needs a name}; shift ;;
    --data) SET=${2:?--data needs letter or synthetic}; shift ;;
    --threads) THREADS=${2:?--threads needs a list}; shift ;;
    --iterations) ITERS=${2:?--iterations needs a number}; shift ;;
    --quick) QUICK=1 ;;
    --serial) SERIAL=1 ;;
    --freq) FREQ=${2:?--freq needs a sampling rate}; shift ;;
    -h|--help) sed -n '3,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) usage "unknown option '$1' (see --help)" ;;
  esac
  shift
done
[[ $SET == letter || $SET == synthetic ]] || usage "--data: unknown '$SET' (letter, synthetic)"
[[ -z $ITERS || $ITERS =~ ^[1-9][0-9]{0,5}$ ]] || usage "--iterations expects a positive integer, not '$ITERS'"
[[ $RECIPE =~ ^[A-Za-z0-9._-]+$ ]] || usage "--recipe: '$RECIPE' is not a recipe name"
[[ $FREQ =~ ^[1-9][0-9]{0,4}$ ]] || usage "--freq expects a sampling rate in Hz, not '$FREQ'"
if ((SERIAL)); then
  command -v perf >/dev/null || { echo "profile.sh: perf not found (Debian: apt-get install linux-perf)" >&2; exit 1; }
  THREADS=${THREADS:-$(nproc)}
elif [[ -z $THREADS ]]; then
  c=$(nproc); for ((t = 1; t < c; t *= 2)); do THREADS+="$t,"; done; THREADS+=$c
fi
for t in ${THREADS//,/ }; do
  [[ $t =~ ^[1-9][0-9]{0,3}$ ]] || usage "--threads: '$t' is not a thread count (1..9999)"
done
[[ -x $BL ]] || { echo "profile.sh: $BL not built: run ./configure && make" >&2; exit 1; }
TMP=$(mktemp -d /tmp/bl-profile-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
if [[ $SET == letter ]]; then
  csv=$ROOT/data/letter.csv classes=$ROOT/data/letter.classes first=16000
  if ((QUICK)); then head -n 3001 "$csv" >"$TMP/letter.csv"; csv=$TMP/letter.csv first=2000; fi
  ITERS=${ITERS:-$((QUICK ? 20 : 200))}
else
  m=$((QUICK ? 2000 : 100000)) mt=$((QUICK ? 500 : 10000))
  "$BL" synth classification --rows $((m + mt)) --features 60 --classes 10 \
    --informative 20 --redundant 10 --seed 7 -o "$TMP/synthetic.csv"
  csv=$TMP/synthetic.csv classes=$TMP/synthetic.classes first=$m
  ITERS=${ITERS:-$((QUICK ? 10 : 40))}
fi
ini() { # T: the run's INI, output under $TMP/tT
  printf '[experiment]\nname = profile\niterations = %s\nthreads = %s\nmax_bins = 256\n' "$ITERS" "$1"
  printf 'output = %s\n\n[data %s]\nfile = %s\nclasses = %s\nsplit = first\nfirst = %s\n\n' "$TMP/t$1" "$SET" "$csv" "$classes" "$first"
  printf '[algorithm %s]\nrecipe = %s\n' "$RECIPE" "$RECIPE"
}
if ((SERIAL)); then
  for T in ${THREADS//,/ }; do
    ini "$T" >"$TMP/t$T.ini"
    perf record -q -F "$FREQ" --call-graph dwarf -o "$TMP/t$T.perf" -- \
      "$BL" run -q --jobs 1 "$TMP/t$T.ini" >/dev/null 2>"$TMP/t$T.err" ||
      { echo "profile.sh: the profiled run failed: $(tail -3 "$TMP/t$T.err")" >&2; exit 1; }
    echo "#### $T threads"
    echo
    perf script -i "$TMP/t$T.perf" -F comm,pid,tid,time,ip,sym,dso 2>/dev/null |
      python3 "$ROOT/bench/serial_share.py" "$FREQ"
    echo
  done
  echo "$RECIPE on $SET, $ITERS iterations, perf at $FREQ Hz, OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-(default)}"
  exit 0
fi
printf '| threads | iteration | weak | choose | fill | hist | sub | partition | emit | setup | other | engine book |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for T in ${THREADS//,/ }; do
  d=$TMP/t$T
  ini "$T" >"$TMP/t$T.ini"
  BOOSTLAB_PROFILE=1 "$BL" run -q "$TMP/t$T.ini" >/dev/null 2>"$TMP/t$T.err" ||
    { echo "profile.sh: boostlab run failed: $(tail -3 "$TMP/t$T.err")" >&2; exit 1; }
  line=$(grep '^trees profile:' "$TMP/t$T.err" | tail -1) ||
    { echo "profile.sh: recipe $RECIPE printed no trees profile (not a trees learner?)" >&2; exit 1; }
  "$BL" results --curves -f csv -o "$TMP/t$T.csv" "$d" 2>/dev/null
  # engine: mean ms of t_weak + t_coef + t_book and of t_book, iterations 2..
  read -r it book < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    NR > 2 { s += $c["t_weak"] + $c["t_coef"] + $c["t_book"]; b += $c["t_book"]; n++ }
    END { printf "%.3f %.3f\n", n ? 1e3 * s / n : 0, n ? 1e3 * b / n : 0 }' "$TMP/t$T.csv")
  awk -v T="$T" -v it="$it" -v book="$book" '{
      for (i = 1; i <= NF; i++) if ($i == "total") tot = $(i + 1)
      printf "| %s | %s | %s |", T, it, tot
      n = split("choose fill hist sub partition emit setup other", ph, " ")
      for (p = 1; p <= n; p++) for (i = 1; i <= NF; i++) if ($i == ph[p]) printf " %s |", $(i + 1)
      printf " %s |\n", book }' <<<"$line"
done
echo
echo "ms per iteration; $RECIPE on $SET, $ITERS iterations; 'iteration' and 'engine book' leave the first iteration out, the phases (from 'weak' on) average every fit."

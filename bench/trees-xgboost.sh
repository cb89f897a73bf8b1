#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Tree boosting speed against XGBoost (issue 4), both measured in this one run
# on the same split and the same number of threads.  XGBoost (Debian's, via
# bench/xgb_peer.py): multi:softprob, tree_method=hist, grow_policy=lossguide,
# max_leaves=20, eta=0.1, max_bin=256, 500 rounds on letter (first 16000 rows
# train, last 4000 test), 200 on Fashion-MNIST (60000/10000), 100 on
# pendigits and optdigits (their train and test files).  boostlab:
# the recipe aoso-logitboost, with as many iterations as it takes to add at
# least as many trees as XGBoost (k per round).  One markdown table per data
# set: time per tree (median iteration or round / trees it adds), training
# wall time, final test error, the wall time at which each first reaches
# XGBoost's final test error, process wall time and peak RSS (GNU time).
#   bench/trees-xgboost.sh [--quick] [--threads N]
#                          [--data letter|pendigits|optdigits|fashion-mnist]
#                          [--rounds N] [--out DIR]
# --quick: 50 rounds on letter, 20 on Fashion-MNIST; --rounds N: N on each;
# --out DIR keeps the INIs, curves and logs.  Environment: BL (the boostlab
# binary), PY (a python with xgboost; /usr/bin/python3), BL_RECIPE (default
# aoso-logitboost), BL_TREES_PER_ITER (trees one iteration adds, to choose the
# iterations; 1; the figures count the trees the curves record),
# BL_SET (extra algorithm keys, ';'-separated, e.g. 'shrinkage = 0.1'),
# FMNIST (the IDX folder; /usr/share/datasets/fashion-mnist).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$ROOT/boostlab}
PY=${PY:-/usr/bin/python3}
RECIPE=${BL_RECIPE:-aoso-logitboost}
TPI=${BL_TREES_PER_ITER:-1}
FMNIST=${FMNIST:-/usr/share/datasets/fashion-mnist}
THREADS=2 QUICK=0 ROUNDS='' OUT='' SETS="letter fashion-mnist"
die() { echo "trees-xgboost.sh: $*" >&2; exit 1; }
while (($#)); do
  case $1 in
    --quick) QUICK=1 ;;
    --threads) THREADS=${2:?}; shift ;;
    --data) SETS=${2:?}; shift ;;
    --rounds) ROUNDS=${2:?}; shift ;;
    --out) OUT=${2:?}; shift ;;
    -h|--help) sed -n '3,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
  shift
done
"$PY" -c 'import xgboost, numpy' 2>/dev/null ||
  die "XGBoost/numpy missing for $PY: run scripts/install-deps.sh --bench"
[[ -x /usr/bin/time ]] || die "GNU time missing: run scripts/install-deps.sh --bench"
[[ -x $BL ]] || die "$BL not built: run ./configure && make"
TMP=$(mktemp -d /tmp/bl-trees-xgb-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export OMP_NUM_THREADS=$THREADS

# bench NAME ROUNDS TEST_ROWS PEER_ARGS INI_DATA_SECTION
bench() {
  local name=$1 rounds=$2 mt=$3 peer=$4 data=$5 d=$TMP/$1
  mkdir -p "$d"
  echo "== $name: XGBoost, $rounds rounds, $THREADS threads" >&2
  # shellcheck disable=SC2086
  /usr/bin/time -f '%M %e' -o "$d/xgb.time" \
    "$PY" "$ROOT/bench/xgb_peer.py" $peer --rounds "$rounds" --threads "$THREADS" \
    --curve "$d/xgb.csv" >"$d/xgb.out"
  local k iters
  k=$(sed -n 's/^trees_per_round=//p' "$d/xgb.out")
  iters=$(( (rounds * k + TPI - 1) / TPI ))
  echo "== $name: boostlab $RECIPE, $iters iterations, $THREADS threads" >&2
  { printf '[experiment]\nname = trees-xgboost\niterations = %s\nthreads = %s\n' "$iters" "$THREADS"
    printf 'max_bins = 256\noutput = %s\n\n[data %s]\n%s\n\n' "$d/bl" "$name" "$data"
    printf '[algorithm aoso]\nrecipe = %s\n' "$RECIPE"
    tr ';' '\n' <<<"${BL_SET:-}" | sed 's/^ *//; /^$/d'; } >"$d/bench.ini"
  /usr/bin/time -f '%M %e' -o "$d/bl.time" "$BL" run -q "$d/bench.ini" >"$d/bl.out"
  "$BL" results --curves -f csv -o "$d/bl.csv" "$d/bl"
  "$BL" results -f csv -o "$d/bl.run" "$d/bl"  # started, finished
  awk -F, -v name="$name" -v mt="$mt" -v tpi="$TPI" -v recipe="$RECIPE" -v th="$THREADS" \
      -v xtime="$(cat "$d/xgb.time")" -v btime="$(cat "$d/bl.time")" \
      -v runh="$(sed -n 1p "$d/bl.run")" -v run="$(sed -n 2p "$d/bl.run")" '
    function med(a, n,   i, j, t) {          # median of a[1..n]
      for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    function r(x, y) { return (y > 0 && x != "") ? sprintf("%.2f", x / y) : "–" }
    FILENAME ~ /xgb.out$/ { split($0, kv, "="); X[kv[1]] = kv[2]; next }
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    FILENAME ~ /xgb.csv$/ { xn++; if (xhit == "" && $c["test_err"] * mt <= X["test_err"] * mt + 1e-6) xhit = $c["cum_seconds"]; next }
    { bn++; s = $c["t_weak"] + $c["t_coef"] + $c["t_book"]; cum += s; berr = $c["test_err"]
      nt = ("trees" in c) ? $c["trees"] - ntr : tpi; ntr += nt; bt[bn] = nt > 0 ? s / nt : s
      bcum[bn] = cum; if (bhit == "" && berr * mt <= X["test_err"] * mt + 1e-6) bhit = bn }
    END {
      split(runh, h, ","); split(run, v, ","); for (i in h) R[h[i]] = v[i]
      total = R["finished"] - R["started"]; setup = total - cum; if (setup < 0) setup = 0
      bmed = med(bt, bn); split(xtime, xt, " "); split(btime, blt, " ")
      reach = bhit == "" ? "" : setup + bcum[bhit]
      printf "\n### %s (%d test rows, %d classes, %d threads)\n\n", name, mt, X["trees_per_round"], th
      printf "| | boostlab %s | XGBoost %s hist | boostlab / XGBoost |\n|---|---|---|---|\n", recipe, X["xgboost"]
      printf "| iterations or rounds | %d | %d | |\n", bn, X["rounds"]
      printf "| trees added | %d | %d (%d per round) | %s |\n", ntr, X["rounds"] * X["trees_per_round"], X["trees_per_round"], r(ntr, X["rounds"] * X["trees_per_round"])
      printf "| **s per tree** (median iteration or round / its trees) | %.5f | %.5f | **%s** |\n", bmed, X["s_per_tree"], r(bmed, X["s_per_tree"])
      printf "| training wall time, s | %.2f | %.2f | %s |\n", total, X["train_s"], r(total, X["train_s"])
      printf "| final test error %% | %.2f | %.2f | |\n", 100 * berr, 100 * X["test_err"]
      printf "| **wall time to %.2f%% test error, s** | %s | %.2f (first reached at %.2f) | **%s** |\n", \
        100 * X["test_err"], reach == "" ? "not reached" : sprintf("%.2f (iteration %d)", reach, bhit), \
        X["train_s"], xhit, r(reach, X["train_s"])
      printf "| process wall time (loading included), s | %.2f | %.2f | %s |\n", blt[2], xt[2], r(blt[2], xt[2])
      printf "| peak RSS, MB | %.0f | %.0f (python and numpy included) | %s |\n", blt[1] / 1024, xt[1] / 1024, r(blt[1], xt[1])
    }' "$d/xgb.out" "$d/xgb.csv" "$d/bl.csv"
  if [[ -n $OUT ]]; then mkdir -p "$OUT/$name"; cp -r "$d"/. "$OUT/$name/"; fi
}

for s in $SETS; do
  section=$("$ROOT/bench/data-section.sh" "$s") || exit 1
  case $s in
    letter)
      bench letter "${ROUNDS:-$((QUICK ? 50 : 500))}" 4000 \
        "--letter $ROOT/data/letter.csv --first 16000" "$section" ;;
    pendigits|optdigits)
      bench "$s" "${ROUNDS:-$((QUICK ? 50 : 100))}" "$(($(wc -l <"$ROOT/data/$s.test.csv") - 1))" \
        "--csv $ROOT/data/$s.train.csv $ROOT/data/$s.test.csv" "$section" ;;
    fashion-mnist)
      bench fashion-mnist "${ROUNDS:-$((QUICK ? 20 : 200))}" 10000 "--idx $FMNIST" "$section" ;;
  esac
done

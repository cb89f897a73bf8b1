#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sparse tree boosting against XGBoost on debsec (issue 37), both measured in
# this one run on the shared LIBSVM files (41749 training / 10504 test rows,
# 15452 binary features, 9.8 non-zeros a row), both holding them sparse.
# XGBoost: multi:softprob, hist, lossguide, 20 leaves, eta 0.1, max_bin 256,
# ROUNDS rounds of 20 trees, through its C API (--peer capi, the default:
# boostlab's method xgboost, recipe xgboost-hist, the set handed over as
# CSR; a round's time is XGBoosterUpdateOneIter, its gradients and
# prediction cache included, its test-set evaluation not) or its Python
# package (--peer python: bench/xgb_peer.py --libsvm, scipy CSR, its test
# error after the last round only, --final-eval; its rounds at 2 threads ran
# nine times slower than the C API's on the 2-core machine, see
# docs/results-sparse.md).
# boostlab: aoso-logitboost (one vector tree of 20 leaves an iteration, ν 0.1)
# for as many trees, a round's time counting its test-set scoring too.
# Prints a markdown table: s per tree (median iteration or round / its
# trees; for boostlab also its weak learner's share, t_weak, without the
# loss update and the scoring of both sets), peak RSS of each process (GNU
# time; Python included for --peer python), test error after the same number of
# trees, and the machine's load; issue
# 37's bars: AOSO per tree <= 2x XGBoost's, peak RSS <= XGBoost's, test
# error <= XGBoost's, at 2 threads each (the issue's setting).
#   bench/sparse-debsec.sh [--rounds N] [--threads N] [--peer capi|python]
#                          [--out DIR] [--quick]
# --rounds: 50 (1000 trees); --threads: 2; --out DIR keeps the INI and logs;
# --quick: boostlab alone for 2 iterations, no XGBoost and no bars (checks
# that the script and its table still work, tests/cli/bench_sparse.sh).
# On a machine loaded beyond its cores, OpenMP threads that spin while
# waiting slow both programs by much more than the load: OMP_WAIT_POLICY=
# passive (passed to both, shown in the table's heading) makes them sleep.
# Environment: BL (the boostlab binary), PY (a python with xgboost and
# scikit-learn; /usr/bin/python3), BL_RECIPE (aoso-logitboost), BL_SET
# (extra algorithm keys, ';'-separated), DATASETS (data/).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$ROOT/boostlab}
PY=${PY:-/usr/bin/python3}
RECIPE=${BL_RECIPE:-aoso-logitboost}
ROUNDS=50 THREADS=2 OUT='' QUICK=0 PEER=capi
die() { echo "sparse-debsec.sh: $*" >&2; exit 1; }
posint() { [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 wants a positive whole number, got '$2'"; }
while (($#)); do
  case $1 in
    --rounds) posint "$1" "${2-}"; ROUNDS=$2; shift ;;
    --threads) posint "$1" "${2-}"; THREADS=$2; shift ;;
    --peer) [[ ${2-} == capi || ${2-} == python ]] || die "--peer wants capi or python, got '${2-}'"
      PEER=$2; shift ;;
    --out) [[ -n ${2-} ]] || die "--out wants a folder"; OUT=$2; shift ;;
    --quick) QUICK=1 ;;
    -h|--help) sed -n '3,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
  shift
done
((QUICK)) || [[ $PEER == capi ]] || "$PY" -c 'import xgboost, sklearn' 2>/dev/null ||
  die "XGBoost/scikit-learn missing for $PY: run scripts/install-deps.sh --bench"
[[ -x /usr/bin/time ]] || die "GNU time missing: run scripts/install-deps.sh --bench"
[[ -x $BL ]] || die "$BL not built: run ./configure && make"
section=$("$ROOT/bench/data-section.sh" debsec)
TMP=$(mktemp -d /tmp/bl-sparse-debsec-XXXXXX)
trap '[[ -n $TMP && -d $TMP ]] && rm -rf "$TMP"' EXIT
export OMP_NUM_THREADS=$THREADS
# the median of a[1..n] (awk), for both tables
MED='function med(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }'
load0=$(cut -d' ' -f1-3 /proc/loadavg)

if ((QUICK)); then
  iters=2
  : >"$TMP/xgb.out"
  echo "0 0" >"$TMP/xgb.time"
elif [[ $PEER == capi ]]; then
  echo "== debsec: XGBoost (C API), $ROUNDS rounds, $THREADS threads" >&2
  { printf '[experiment]\nname = sparse-debsec-xgb\niterations = %s\nthreads = %s\n' "$ROUNDS" "$THREADS"
    printf 'max_bins = 256\noutput = %s\n\n[data debsec]\n%s\n\n' "$TMP/xgb" "$section"
    printf '[algorithm xgb]\nrecipe = xgboost-hist\n'; } >"$TMP/xgb.ini"
  /usr/bin/time -f '%M %e' -o "$TMP/xgb.time" "$BL" run -q "$TMP/xgb.ini" >/dev/null
  ver=$(dpkg-query -W -f '${Version}' libxgboost0 2>/dev/null | sed 's/-[^-]*$//') || ver=''
  "$BL" results --curves -f csv "$TMP/xgb" | awk -F, -v ver="$ver" "$MED"'
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { n++; t[n] = $c["t_weak"]; k = $c["trees"] - last; last = $c["trees"]; e = $c["test_err"] }
    END { m = med(t, n)
          printf "xgboost=%s(C API)\nrounds=%d\ntrees_per_round=%d\ns_per_tree=%.6g\ntest_err=%.6g\n", ver == "" ? "" : ver " ", n, k, m / k, e }' >"$TMP/xgb.out"
  k=$(sed -n 's/^trees_per_round=//p' "$TMP/xgb.out")
  iters=$((ROUNDS * k))
else
  echo "== debsec: XGBoost (Python), $ROUNDS rounds, $THREADS threads" >&2
  /usr/bin/time -f '%M %e' -o "$TMP/xgb.time" "$PY" "$ROOT/bench/xgb_peer.py" \
    --libsvm "$(sed -n 's/^file = //p' <<<"$section")" "$(sed -n 's/^test_file = //p' <<<"$section")" \
    --rounds "$ROUNDS" --threads "$THREADS" --final-eval >"$TMP/xgb.out"
  k=$(sed -n 's/^trees_per_round=//p' "$TMP/xgb.out")
  iters=$((ROUNDS * k))
fi
echo "== debsec: boostlab $RECIPE, $iters iterations, $THREADS threads" >&2
{ printf '[experiment]\nname = sparse-debsec\niterations = %s\nthreads = %s\n' "$iters" "$THREADS"
  printf 'max_bins = 256\noutput = %s\n\n[data debsec]\n%s\n\n' "$TMP/bl" "$section"
  printf '[algorithm aoso]\nrecipe = %s\n' "$RECIPE"
  tr ';' '\n' <<<"${BL_SET:-}" | sed 's/^ *//; /^$/d'; } >"$TMP/bench.ini"
/usr/bin/time -f '%M %e' -o "$TMP/bl.time" "$BL" run -q "$TMP/bench.ini" >"$TMP/bl.out"
"$BL" results --curves -f csv -o "$TMP/bl.csv" "$TMP/bl"
load1=$(cut -d' ' -f1-3 /proc/loadavg)
awk -F, -v recipe="$RECIPE" -v th="$THREADS" -v load="$load0 / $load1" \
    -v wait="${OMP_WAIT_POLICY:+, OMP_WAIT_POLICY=$OMP_WAIT_POLICY}" \
    -v xtime="$(cat "$TMP/xgb.time")" -v btime="$(cat "$TMP/bl.time")" '
  '"$MED"'
  function bar(ok) { return ok ? "met" : "**not met**" }
  FILENAME ~ /xgb.out$/ { split($0, kv, "="); X[kv[1]] = kv[2]; next }
  FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { bn++; s = $c["t_weak"] + $c["t_coef"] + $c["t_book"]; nt = $c["trees"] - ntr; ntr = $c["trees"]
    bt[bn] = nt > 0 ? s / nt : s; bw[bn] = nt > 0 ? $c["t_weak"] / nt : $c["t_weak"]; berr = $c["test_err"] }
  END {
    split(xtime, xt, " "); split(btime, blt, " "); bmed = med(bt, bn); wmed = med(bw, bn)
    printf "\n### debsec (%d threads%s; load average %s before / after)\n\n", th, wait, load
    if (!("rounds" in X)) { # --quick: boostlab alone
      printf "| | boostlab %s |\n|---|---|\n", recipe
      printf "| trees | %d (%d iterations) |\n| s per tree | %.5f |\n", ntr, bn, bmed
      printf "| peak RSS, MB | %.0f |\n| test error %% after the last tree | %.2f |\n", blt[1] / 1024, 100 * berr
      printf "| process wall time, s | %.2f |\n", blt[2]
      exit
    }
    xtrees = X["rounds"] * X["trees_per_round"]
    printf "| | boostlab %s | XGBoost %s hist | boostlab / XGBoost | bar |\n|---|---|---|---|---|\n", recipe, X["xgboost"]
    printf "| trees | %d (%d iterations) | %d (%d rounds) | | |\n", ntr, bn, xtrees, X["rounds"]
    printf "| **s per tree** | %.5f | %.5f | **%.2f** | <= 2: %s |\n", bmed, X["s_per_tree"], bmed / X["s_per_tree"], bar(bmed <= 2 * X["s_per_tree"])
    printf "| s per tree, boostlab'"'"'s weak learner alone (t_weak) | %.5f | | %.2f | |\n", wmed, wmed / X["s_per_tree"]
    printf "| **peak RSS, MB** | %.0f | %.0f%s | **%.2f** | <= 1: %s |\n", blt[1] / 1024, xt[1] / 1024, X["xgboost"] ~ /C API/ ? " (boostlab hosting it)" : " (Python included)", blt[1] / xt[1], bar(blt[1] <= xt[1])
    printf "| **test error %% after the last tree** | %.2f | %.2f | | <=: %s |\n", 100 * berr, 100 * X["test_err"], bar(berr <= X["test_err"] + 1e-9)
    printf "| process wall time, s | %.2f | %.2f | %.2f | |\n", blt[2], xt[2], blt[2] / xt[2]
  }' "$TMP/xgb.out" "$TMP/bl.csv"
if [[ -n $OUT ]]; then mkdir -p "$OUT"; cp -r "$TMP"/. "$OUT/"; fi

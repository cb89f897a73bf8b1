#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Thread scaling: seconds per tree of boostlab's aoso-logitboost, mart and
# mcboost-exp (stumps: s per stump) against XGBoost (hist, bench/xgb_peer.py)
# and scikit-learn's HistGradientBoosting (bench/sk_peer.py), all measured in
# this one run, at each thread count, on two data sets:
#   letter     data/letter.csv: the first 16000 rows train, the last 4000 test
#              (--quick: its first 3000 rows, 2000 train)
#   synthetic  `boostlab synth classification --features 60 --classes 10
#              --informative 20 --redundant 10 --seed 7`: 100000 training and
#              10000 test rows (--quick: 2000 and 500)
# Every method adds about the same number of trees: 10 k (--quick: 3 k; k
# the classes), so 10 rounds of k trees for mart, XGBoost and HGB and 10 k
# iterations of one tree (or stump) for aoso-logitboost and mcboost-exp.
# s per tree = the median over iterations (rounds) of its time / the trees it
# adds, as bench/trees-xgboost.sh; speed-up = s per tree at 1 thread / at T.
# Prints one markdown table per data set and, with gnuplot, a PNG plot of
# the speed-ups.  A peer whose Python module is missing is skipped, with a
# note; XGBoost then runs through boostlab's own `method = xgboost` (recipe
# xgboost-hist, XGBoost's C API) if boostlab was built with it, timing
# XGBoosterUpdateOneIter alone (--xgb boostlab forces that path), so a
# cluster node with the bundle and no Python XGBoost still has its peer.
#   bench/scaling.sh [--quick] [--threads LIST] [--data LIST] [--trees N]
#                    [--out DIR] [--plot FILE.png] [--xgb auto|python|boostlab]
# --threads 1,2,4: the thread counts (default 1, 2, 4, ... below the cores,
# then the cores; 1 is always measured, the base of the speed-ups); --data:
# letter,synthetic (both by default); --trees N: about N trees per method
# and data set; --out DIR keeps the INIs, curves, logs and results.tsv;
# --plot FILE.png (default DIR/scaling.png with --out, else scaling.png).
# Environment: BL (the boostlab binary), PY (a python with numpy, xgboost,
# scikit-learn; /usr/bin/python3).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$ROOT/boostlab}
PY=${PY:-/usr/bin/python3}
QUICK=0 THREADS='' SETS=letter,synthetic TREES='' OUT='' PLOT='' XGB=auto
RECIPES="aoso-logitboost mart mcboost-exp"
usage() { echo "scaling.sh: $*" >&2; exit 2; }
die() { echo "scaling.sh: $*" >&2; exit 1; }
while (($#)); do
  case $1 in
    --quick) QUICK=1 ;;
    --threads) THREADS=${2:?--threads needs a list}; shift ;;
    --data) SETS=${2:?--data needs a list}; shift ;;
    --trees) TREES=${2:?--trees needs a number}; shift ;;
    --out) OUT=${2:?--out needs a folder}; shift ;;
    --plot) PLOT=${2:?--plot needs a file}; shift ;;
    --xgb) XGB=${2:?--xgb needs auto, python or boostlab}; shift ;;
    -h|--help) sed -n '3,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) usage "unknown option '$1' (see --help)" ;;
  esac
  shift
done
CORES=$(nproc)
if [[ -z $THREADS ]]; then
  for ((t = 1; t < CORES; t *= 2)); do THREADS+="$t,"; done
  THREADS+=$CORES
fi
for t in ${THREADS//,/ }; do
  [[ $t =~ ^[1-9][0-9]{0,3}$ ]] || usage "--threads: '$t' is not a thread count (1..9999)"
done
THREADS=$(tr ',' '\n' <<<"1,$THREADS" | sort -n -u | tr '\n' ' ')
for s in ${SETS//,/ }; do
  [[ $s == letter || $s == synthetic ]] || usage "--data: unknown '$s' (letter, synthetic)"
done
[[ -z $TREES || $TREES =~ ^[1-9][0-9]{0,6}$ ]] || usage "--trees expects a positive integer, not '$TREES'"
[[ $XGB == auto || $XGB == python || $XGB == boostlab ]] ||
  usage "--xgb: '$XGB' is not auto, python or boostlab"
[[ -x $BL ]] || die "$BL not built: run ./configure && make"
PEERS=''
if [[ $XGB != boostlab ]] && "$PY" -c 'import numpy, xgboost' 2>/dev/null; then PEERS+=' xgboost'
elif [[ $XGB != python ]] && "$BL" --version 2>/dev/null | grep -q XGBoost; then
  PEERS+=' xgboost-c'
  [[ $XGB == boostlab ]] || echo "note: XGBoost through boostlab's method = xgboost: numpy/xgboost not importable by $PY" >&2
else echo "note: XGBoost skipped: numpy/xgboost not importable by $PY (scripts/install-deps.sh --bench)$([[ $XGB == python ]] || echo ", and $BL built without it")" >&2; fi
if "$PY" -c 'import numpy, sklearn' 2>/dev/null; then PEERS+=' hgb'
else echo "note: HGB skipped: numpy/scikit-learn not importable by $PY (scripts/install-deps.sh --bench)" >&2; fi
TMP=$(mktemp -d /tmp/bl-scaling-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
RES=$TMP/results.tsv
printf 'data\tmethod\tthreads\ts_per_tree\ttrees\n' >"$RES"

# median s per tree of a boostlab curve CSV (tpi: trees an iteration adds
# when the curve has no 'trees' column; weak = 1: t_weak alone, for the
# xgboost method, whose t_book is boostlab scoring both parts); prints
# "S TREES"
bl_per_tree() {
  awk -F, -v tpi="$2" -v weak="${3:-0}" '
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { s = $c["t_weak"] + (weak ? 0 : $c["t_coef"] + $c["t_book"])
      nt = ("trees" in c) ? $c["trees"] - ntr : tpi; ntr += nt; n++; t[n] = nt > 0 ? s / nt : s }
    END { for (i = 2; i <= n; i++) { v = t[i]; for (j = i - 1; j >= 1 && t[j] > v; j--) t[j + 1] = t[j]; t[j + 1] = v }
          printf "%.6g %d\n", n % 2 ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2, ntr }' "$1"
}

# bl_method DIR RECIPE ITERATIONS THREADS NAME CSV CLASSES FIRST TPI WEAK:
# one boostlab run of RECIPE; prints its "S TREES" (bl_per_tree)
bl_method() {
  local d=$1 r=$2 iters=$3 T=$4 name=$5 csv=$6 classes=$7 first=$8
  mkdir -p "$d"
  { printf '[experiment]\nname = scaling\niterations = %s\nthreads = %s\n' "$iters" "$T"
    printf 'max_bins = 256\noutput = %s\n\n[data %s]\n' "$d/bl" "$name"
    printf 'file = %s\nclasses = %s\nsplit = first\nfirst = %s\n\n' "$csv" "$classes" "$first"
    printf '[algorithm %s]\nrecipe = %s\n' "$r" "$r"; } >"$d/bench.ini"
  "$BL" run -q "$d/bench.ini" >"$d/bl.out" 2>"$d/bl.err" ||
    die "boostlab run $d/bench.ini failed: $(tail -3 "$d/bl.err")"
  "$BL" results --curves -f csv -o "$d/curve.csv" "$d/bl" 2>>"$d/bl.err" ||
    die "boostlab results $d/bl failed: $(tail -3 "$d/bl.err")"
  bl_per_tree "$d/curve.csv" "$9" "${10}"
}

# run_set NAME CSV CLASSES FIRST: every method at every thread count
run_set() {
  local name=$1 csv=$2 classes=$3 first=$4 k trees rounds T r iters tpi d out s n p
  k=$(wc -l <"$classes")
  trees=${TREES:-$((QUICK ? 3 * k : 10 * k))}
  rounds=$(((trees + k - 1) / k))
  for T in $THREADS; do
    export OMP_NUM_THREADS=$T
    for r in $RECIPES; do
      tpi=1; [[ $r == mart ]] && tpi=$k
      iters=$(((trees + tpi - 1) / tpi))
      echo "== $name: boostlab $r, $iters iterations, $T threads" >&2
      read -r s n < <(bl_method "$TMP/$name/$r-$T" "$r" "$iters" "$T" "$name" "$csv" "$classes" "$first" "$tpi" 0)
      printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$r" "$T" "$s" "$n" >>"$RES"
    done
    for p in $PEERS; do
      d=$TMP/$name/$p-$T
      mkdir -p "$d"
      echo "== $name: $p, $rounds rounds, $T threads" >&2
      if [[ $p == xgboost-c ]]; then
        read -r out n < <(bl_method "$d" xgboost-hist "$rounds" "$T" "$name" "$csv" "$classes" "$first" "$k" 1)
      elif [[ $p == xgboost ]]; then
        "$PY" "$ROOT/bench/xgb_peer.py" --letter "$csv" --first "$first" --rounds "$rounds" \
          --threads "$T" >"$d/out" 2>"$d/err" || die "xgb_peer.py failed: $(tail -3 "$d/err")"
        out=$(sed -n 's/^s_per_tree=//p' "$d/out")
        n=$(($(sed -n 's/^rounds=//p' "$d/out") * $(sed -n 's/^trees_per_round=//p' "$d/out")))
      else
        "$PY" "$ROOT/bench/sk_peer.py" --model hgb --letter "$csv" --first "$first" \
          --iterations "$rounds" --threads "$T" >"$d/out" 2>"$d/err" ||
          die "sk_peer.py failed: $(tail -3 "$d/err")"
        out=$(sed -n 's/^s_per_tree=//p' "$d/out")
        n=$(($(sed -n 's/^iterations=//p' "$d/out") * $(sed -n 's/^trees_per_iter=//p' "$d/out")))
      fi
      printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$p" "$T" "$out" "$n" >>"$RES"
    done
  done
}

for s in ${SETS//,/ }; do
  case $s in
    letter)
      if ((QUICK)); then
        head -n 3001 "$ROOT/data/letter.csv" >"$TMP/letter.csv"
        run_set letter "$TMP/letter.csv" "$ROOT/data/letter.classes" 2000
      else
        run_set letter "$ROOT/data/letter.csv" "$ROOT/data/letter.classes" 16000
      fi ;;
    synthetic)
      m=$((QUICK ? 2000 : 100000)) mt=$((QUICK ? 500 : 10000))
      "$BL" synth classification --rows $((m + mt)) --features 60 --classes 10 \
        --informative 20 --redundant 10 --seed 7 -o "$TMP/synthetic.csv"
      run_set synthetic "$TMP/synthetic.csv" "$TMP/synthetic.classes" "$m" ;;
  esac
done

# one table per data set: rows threads, per method its s per tree and speed-up
awk -F'\t' -v sets="${SETS//,/ }" -v methods="$RECIPES$PEERS" -v cores="$CORES" '
  NR == 1 { next }
  { S[$1, $2, $3] = $4; N[$1, $2] = $5; if (!($3 in seen)) { seen[$3] = 1; th[++nt] = $3 } }
  END {
    nm = split(methods, m, " "); ns = split(sets, st, " ")
    name["xgboost"] = "XGBoost hist"; name["xgboost-c"] = "XGBoost hist (C API)"; name["hgb"] = "HGB"
    for (i = 1; i <= nm; i++) if (!(m[i] in name)) name[m[i]] = "boostlab " m[i]
    for (a = 1; a <= ns; a++) {
      printf "\n### %s: s per tree and speed-up over 1 thread (%d cores)\n\n| threads |", st[a], cores
      for (i = 1; i <= nm; i++) printf " %s s/tree | %s speed-up |", name[m[i]], m[i]
      printf "\n|---|"; for (i = 1; i <= nm; i++) printf "---|---|"; printf "\n"
      for (j = 1; j <= nt; j++) {
        printf "| %d |", th[j]
        for (i = 1; i <= nm; i++) {
          s = S[st[a], m[i], th[j]]; b = S[st[a], m[i], 1]
          printf " %.4g | %.2f |", s, (s > 0 ? b / s : 0)
        }
        printf "\n"
      }
      printf "\ntrees (mcboost-exp: stumps) each run added:"
      for (i = 1; i <= nm; i++) printf " %s %d;", m[i], N[st[a], m[i]]
      printf "\n"
    }
  }' "$RES"

if [[ -n $OUT ]]; then mkdir -p "$OUT"; cp -r "$TMP"/. "$OUT/"; fi
PLOT=${PLOT:-${OUT:+$OUT/}scaling.png}
if command -v gnuplot >/dev/null; then
  { echo "set terminal pngcairo size $((560 * $(wc -w <<<"${SETS//,/ }"))),440"
    echo "set output '$PLOT'"
    echo "set multiplot layout 1,$(wc -w <<<"${SETS//,/ }")"
    echo "set xlabel 'threads'; set ylabel 'speed-up over 1 thread (s per tree)'"
    echo "set key top left; set grid; set logscale x 2; set logscale y 2"
    for s in ${SETS//,/ }; do
      echo "set title '$s'"
      printf "plot x title 'linear' with lines dashtype 2 lc 'gray'"
      for meth in $RECIPES $PEERS; do
        f=$TMP/plot-$s-$meth.dat
        awk -F'\t' -v s="$s" -v m="$meth" '$1 == s && $2 == m { if ($3 == 1) b = $4; t[++n] = $3; v[n] = $4 }
          END { for (i = 1; i <= n; i++) if (v[i] > 0) print t[i], b / v[i] }' "$RES" >"$f"
        printf ", '%s' using 1:2 title '%s' with linespoints" "$f" "$meth"
      done
      echo
    done
    echo "unset multiplot"; } >"$TMP/scaling.gp"
  gnuplot "$TMP/scaling.gp" && echo "plot: $PLOT" >&2
  if [[ -n $OUT ]]; then cp "$TMP/scaling.gp" "$OUT/"; fi
else
  echo "note: no gnuplot: no plot" >&2
fi

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The speed suite of issue 10: boostlab and its peers trained in this one run,
# on the same data and with the same number of threads, then markdown tables
# with each peer's figure, boostlab's figure and their ratio side by side
# (medians of --reps runs; bench/suite_report.py makes the tables).
#   stumps: sklearn AdaBoostClassifier(SAMME, depth-1 trees) against the
#           boostlab recipes samme and mcboost-exp
#   trees:  sklearn HistGradientBoostingClassifier and XGBoost hist (20
#           leaves, learning rate 0.1) against the boostlab recipes mart
#           (k trees per iteration, as the peers) and aoso-logitboost (one
#           tree per iteration, so k times as many iterations: same trees)
#   scaling: boostlab's s per iteration (mcboost-exp, aoso-logitboost)
#           against m, d and k (bench/scaling_data.py), slopes fitted in
#           log-log, and a gnuplot PNG of the three series (--plot)
# Workloads: letter (first 16000 rows train, last 4000 test), pendigits,
# optdigits (their train/test files), Fashion-MNIST (60000/10000, IDX).
#   bench/suite.sh [--quick] [--threads N] [--reps N] [--data LIST]
#                  [--parts LIST] [--series LIST] [--stumps N] [--rounds N]
#                  [--out DIR] [--plot FILE.png]
# --quick: few iterations, 1 run, small scaling series; --data: comma-separated
# among letter,pendigits,optdigits,fashion-mnist (default all); --parts among
# stumps,trees,scaling (all); --series among m,d,k (all; m and d need
# Fashion-MNIST); --stumps/--rounds: iterations of the stump and tree peers
# on every data set; --out DIR keeps the INIs, curves and logs (else a
# temporary folder); --plot FILE: where the scaling PNG goes (DIR/scaling.png).
# Environment: BL (the boostlab binary), PY (a python with numpy, scikit-learn
# and XGBoost; /usr/bin/python3), FMNIST (/usr/share/datasets/fashion-mnist).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$ROOT/boostlab}
PY=${PY:-/usr/bin/python3}
FMNIST=${FMNIST:-/usr/share/datasets/fashion-mnist}
THREADS=2 QUICK=0 REPS='' OUT='' PLOT='' STUMPS='' ROUNDS=''
SETS=letter,pendigits,optdigits,fashion-mnist PARTS=stumps,trees,scaling SERIES=m,d,k
die() { echo "suite.sh: $*" >&2; exit 2; }
posint() { [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "$1 expects a positive integer, not '${2:-}'"; }
# inlist OPTION VALUE ALLOWED...: every comma-separated item of VALUE is allowed
inlist() {
  local opt=$1 v=$2 i; shift 2
  [[ -n $v ]] || die "$opt expects a comma-separated list"
  for i in ${v//,/ }; do
    [[ " $* " == *" $i "* ]] || die "$opt: unknown '$i' (one of: $*)"
  done
}
while (($#)); do
  case $1 in
    --quick) QUICK=1 ;;
    --threads) posint "$1" "${2:-}"; THREADS=$2; shift ;;
    --reps) posint "$1" "${2:-}"; REPS=$2; shift ;;
    --stumps) posint "$1" "${2:-}"; STUMPS=$2; shift ;;
    --rounds) posint "$1" "${2:-}"; ROUNDS=$2; shift ;;
    --data) inlist "$1" "${2:-}" letter pendigits optdigits fashion-mnist; SETS=$2; shift ;;
    --parts) inlist "$1" "${2:-}" stumps trees scaling; PARTS=$2; shift ;;
    --series) inlist "$1" "${2:-}" m d k; SERIES=$2; shift ;;
    --out) [[ -n ${2:-} ]] || die "--out expects a folder"; OUT=$2; shift ;;
    --plot) [[ ${2:-} == *.png ]] || die "--plot expects a .png file name, not '${2:-}'"; PLOT=$2; shift ;;
    -h|--help) sed -n '3,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  shift
done
REPS=${REPS:-$((QUICK ? 1 : 3))}
PRED_ROWS=$((QUICK ? 10000 : 50000))  # prediction is timed on the test rows repeated to this
has() { [[ ",$2," == *",$1,"* ]]; }
has stumps "$PARTS" || has trees "$PARTS" || SETS=''
has scaling "$PARTS" || SERIES=''

"$PY" -c 'import numpy, sklearn, xgboost' 2>/dev/null ||
  die "numpy, scikit-learn or XGBoost missing for $PY: run scripts/install-deps.sh --bench"
[[ -x /usr/bin/time ]] || die "GNU time (/usr/bin/time) missing: run scripts/install-deps.sh --bench"
[[ -x $BL ]] || die "$BL not built: run ./configure && make"
if has fashion-mnist "$SETS" || { has scaling "$PARTS" && { has m "$SERIES" || has d "$SERIES"; }; }; then
  [[ -r $FMNIST/train-images-idx3-ubyte.gz ]] ||
    die "$FMNIST: no Fashion-MNIST (Debian package dataset-fashion-mnist; scripts/install-deps.sh)"
fi
if [[ -n $OUT ]]; then mkdir -p "$OUT"; W=$(cd "$OUT" && pwd); else
  W=$(mktemp -d /tmp/bl-suite-XXXXXX); trap 'rm -rf "$W"' EXIT; fi
PLOT=${PLOT:-$W/scaling.png}
export OMP_NUM_THREADS=$THREADS
log() { echo "== $*" >&2; }

# ---- boostlab ---------------------------------------------------------------
# bl_run DIR RECIPE ITERATIONS DATA_SECTION: one `boostlab run` in DIR/bl
# (a fresh store, so nothing is skipped), its curve and run rows as CSV.
bl_run() {
  local d=$1
  mkdir -p "$d"; rm -rf "$d/bl"
  { printf '[experiment]\nname = suite\niterations = %s\nthreads = %s\n' "$3" "$THREADS"
    printf 'max_bins = 256\noutput = %s\n\n[data set]\n%s\n\n' "$d/bl" "$4"
    printf '[algorithm a]\nrecipe = %s\n' "$2"; } >"$d/run.ini"
  /usr/bin/time -f '%M %e' -o "$d/time" "$BL" run -q "$d/run.ini" >"$d/log" 2>&1 ||
    { cat "$d/log" >&2; die "boostlab run $d/run.ini failed"; }
  "$BL" results --curves -f csv -o "$d/curve.csv" "$d/bl"
  "$BL" results -f csv -o "$d/run.csv" "$d/bl"
}
# bl_predict DIR RECIPE ITERATIONS PREDICT.csv TRAIN-OPTIONS...: `boostlab
# train` on the training rows (TRAIN-OPTIONS: --data FILE, and --labels FILE
# for IDX), then 5 timings of `boostlab predict` (its own scoring time: model
# evaluation and argmax, files not included), one "examples error% seconds"
# line each.
bl_predict() {
  local d=$1 rc=$2 it=$3 pred=$4 i
  shift 4
  mkdir -p "$d"
  "$BL" train -q --threads "$THREADS" "$@" --recipe "$rc" --iterations "$it" \
    --model "$d/model" 2>"$d/train.log" || { cat "$d/train.log" >&2; die "boostlab train failed"; }
  : >"$d/predict.txt"
  for i in 1 2 3 4 5; do
    "$BL" predict --model "$d/model" --data "$pred" 2>&1 >/dev/null |
      sed -n 's/.*: \([0-9]*\) examples, error \([0-9.]*\)%.*scoring \([0-9.]*\) s.*/\1 \2 \3/p' >>"$d/predict.txt"
  done
  [[ $(wc -l <"$d/predict.txt") -eq 5 ]] || die "could not read boostlab predict's timing ($d)"
}
# peer DIR SCRIPT ARGS...: a Python peer under GNU time
peer() {
  local d=$1 s=$2; shift 2
  mkdir -p "$d"
  /usr/bin/time -f '%M %e' -o "$d/time" "$PY" "$ROOT/bench/$s" "$@" --threads "$THREADS" \
    --pred-rows "$PRED_ROWS" --curve "$d/curve.csv" >"$d/out" 2>"$d/log" || { cat "$d/log" >&2; die "$s $* failed"; }
}

# ---- the workloads ----------------------------------------------------------
# workload NAME: sets INI (boostlab's data section), PEER (the peers' data
# options), TRAIN (boostlab train's data options), PRED (the test rows as CSV,
# repeated to PRED_ROWS, for boostlab predict), K, NS (stump iterations), NR
# (tree rounds).
workload() {
  local n=$1 d=$W/$1/data
  mkdir -p "$d"
  case $n in
    letter)
      INI=$(printf 'file = %s\nclasses = %s\nsplit = first\nfirst = 16000' \
        "$ROOT/data/letter.csv" "$ROOT/data/letter.classes")
      PEER=(--letter "$ROOT/data/letter.csv" --first 16000)
      head -n 16001 "$ROOT/data/letter.csv" >"$d/train.csv"
      { head -n 1 "$ROOT/data/letter.csv"; tail -n +16002 "$ROOT/data/letter.csv"; } >"$d/test.csv"
      TRAIN=(--data "$d/train.csv") TEST=$d/test.csv K=26 NS=$((QUICK ? 20 : 200)) NR=$((QUICK ? 10 : 100)) ;;
    pendigits|optdigits)
      INI=$(printf 'file = %s\ntest_file = %s\nclasses = %s' "$ROOT/data/$n.train.csv" \
        "$ROOT/data/$n.test.csv" "$ROOT/data/$n.classes")
      PEER=(--csv "$ROOT/data/$n.train.csv" "$ROOT/data/$n.test.csv")
      TRAIN=(--data "$ROOT/data/$n.train.csv") TEST=$ROOT/data/$n.test.csv
      K=10 NS=$((QUICK ? 20 : 200)) NR=$((QUICK ? 10 : 100)) ;;
    fashion-mnist)
      INI=$(printf 'format = idx\nfile = %s\nlabels = %s\ntest_file = %s\ntest_labels = %s' \
        "$FMNIST/train-images-idx3-ubyte.gz" "$FMNIST/train-labels-idx1-ubyte.gz" \
        "$FMNIST/t10k-images-idx3-ubyte.gz" "$FMNIST/t10k-labels-idx1-ubyte.gz")
      PEER=(--idx "$FMNIST")
      # the model is trained on the IDX files; the test images as CSV (of
      # scaling_data.py, whose train.csv is not used) are tiled to PRED_ROWS
      [[ -s $d/test.csv ]] || "$PY" "$ROOT/bench/scaling_data.py" fmnist-csv "$FMNIST" 1 "$d"
      TRAIN=(--data "$FMNIST/train-images-idx3-ubyte.gz" --labels "$FMNIST/train-labels-idx1-ubyte.gz")
      TEST=$d/test.csv
      K=10 NS=$((QUICK ? 3 : 30)) NR=$((QUICK ? 1 : 10)) ;;
  esac
  PRED=$d/predict.csv
  if [[ ! -s $PRED ]]; then
    local i n r
    n=$(($(wc -l <"$TEST") - 1)) r=1
    while ((r * n < PRED_ROWS)); do r=$((r + 1)); done
    { head -n 1 "$TEST"; for ((i = 0; i < r; i++)); do tail -n +2 "$TEST"; done; } >"$PRED.tmp"
    mv "$PRED.tmp" "$PRED"
  fi
  NS=${STUMPS:-$NS} NR=${ROUNDS:-$NR}
}

for s in ${SETS//,/ }; do
  workload "$s"
  printf 'name=%s\nk=%s\nreps=%s\nthreads=%s\nstumps=%s\nrounds=%s\n' \
    "$s" "$K" "$REPS" "$THREADS" "$NS" "$NR" >"$W/$s/meta"
  for r in $(seq "$REPS"); do   # runs of all trainers alternate, so drift hits all
    if has stumps "$PARTS"; then
      log "$s run $r/$REPS: stumps, $NS iterations, $THREADS threads"
      peer "$W/$s/sk-ada/rep$r" sk_peer.py --model ada --iterations "$NS" "${PEER[@]}"
      for rc in samme mcboost-exp; do bl_run "$W/$s/bl-$rc/rep$r" "$rc" "$NS" "$INI"; done
    fi
    if has trees "$PARTS"; then
      log "$s run $r/$REPS: trees, $NR rounds ($((NR * K)) AOSO iterations), $THREADS threads"
      peer "$W/$s/sk-hgb/rep$r" sk_peer.py --model hgb --iterations "$NR" "${PEER[@]}"
      peer "$W/$s/xgb/rep$r" xgb_peer.py --rounds "$NR" "${PEER[@]}"
      bl_run "$W/$s/bl-mart/rep$r" mart "$NR" "$INI"
      bl_run "$W/$s/bl-aoso-logitboost/rep$r" aoso-logitboost "$((NR * K))" "$INI"
    fi
  done
  log "$s: boostlab prediction speed"
  if has stumps "$PARTS"; then
    for rc in samme mcboost-exp; do bl_predict "$W/$s/bl-$rc/predict" "$rc" "$NS" "$PRED" "${TRAIN[@]}"; done
  fi
  if has trees "$PARTS"; then
    bl_predict "$W/$s/bl-mart/predict" mart "$NR" "$PRED" "${TRAIN[@]}"
    bl_predict "$W/$s/bl-aoso-logitboost/predict" aoso-logitboost "$((NR * K))" "$PRED" "${TRAIN[@]}"
  fi
  "$PY" "$ROOT/bench/suite_report.py" tables "$W" "$s"
done

# ---- scaling ------------------------------------------------------------------
if has scaling "$PARTS"; then
  SIT=$((QUICK ? 5 : 20))
  for ser in ${SERIES//,/ }; do
    log "scaling in $ser ($SIT iterations a point)"
    "$PY" "$ROOT/bench/scaling_data.py" series "$ser" "$QUICK" "$FMNIST" "$W/scaling/$ser"
    while read -r val train labels test tlabels; do
      for rc in mcboost-exp aoso-logitboost; do
        bl_run "$W/scaling/$ser/$val/$rc" "$rc" "$SIT" \
          "$(printf 'format = idx\nfile = %s\nlabels = %s\ntest_file = %s\ntest_labels = %s' \
             "$train" "$labels" "$test" "$tlabels")"
      done
    done <"$W/scaling/$ser/points"
  done
  "$PY" "$ROOT/bench/suite_report.py" scaling "$W" ${SERIES//,/ }
  if command -v gnuplot >/dev/null; then
    mkdir -p "$(dirname "$PLOT")"
    gnuplot -e "out='$PLOT'" "$W/scaling/plot.gp" >"$W/scaling/gnuplot.log" 2>&1 ||
      { cat "$W/scaling/gnuplot.log" >&2; die "gnuplot failed"; }
    printf '\nPlot: %s\n' "$PLOT"
  else
    printf '\n(no gnuplot: no plot)\n'
  fi
fi

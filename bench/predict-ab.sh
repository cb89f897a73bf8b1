#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A/B speed of `boostlab predict` for two builds, measured in one run: each
# recipe's model is trained once (by build B) on letter's first 16000 rows,
# then the two builds score the same rows (letter's last 4000, repeated to
# --rows) alternately, A, B, A, B, ..., so a change in the machine's load
# hits both.  Per recipe: the median of the scoring seconds `boostlab
# predict` reports (model evaluation and argmax, no file reading), rows per
# second, and B / A; the two builds' predictions must be identical.  A
# median below the microsecond boostlab predict reports reads "below 1 µs"
# (use more --rows) rather than an infinite rate.
#   bench/predict-ab.sh [--recipes LIST] [--iterations LIST] [--rows N]
#                       [--reps N] [--threads N]
# Defaults: aoso-logitboost,mart,mcboost-exp with 2600,100,200 iterations
# (2600 trees each for the trees), 52000 rows, 5 reps, 2 threads.
# Environment: BL_A and BL_B (the two boostlab binaries; default both BL, or
# the source tree's).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$ROOT/boostlab}
BL_A=${BL_A:-$BL} BL_B=${BL_B:-$BL}
RECIPES=aoso-logitboost,mart,mcboost-exp ITS=2600,100,200 ROWS=52000 REPS=5 THREADS=2
die() { echo "predict-ab.sh: $*" >&2; exit 1; }
while (($#)); do
  case $1 in
    --recipes) RECIPES=${2:?}; shift ;;
    --iterations) ITS=${2:?}; shift ;;
    --rows) ROWS=${2:?}; shift ;;
    --reps) REPS=${2:?}; shift ;;
    --threads) THREADS=${2:?}; shift ;;
    *) die "unknown option $1 (see the header of $0)" ;;
  esac
  shift
done
IFS=, read -r -a rec <<<"$RECIPES"
IFS=, read -r -a its <<<"$ITS"
((${#rec[@]} == ${#its[@]})) || die "--recipes and --iterations differ in length"
for b in "$BL_A" "$BL_B"; do
  [[ -x $b ]] || die "$b not built: run ./configure && make"
done
TMP=$(mktemp -d /tmp/bl-pab-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
L=$ROOT/data/letter.csv
head -n 16001 "$L" >"$TMP/train.csv"
awk -v n="$ROWS" 'NR == 1 { print; next } NR > 16001 { r[++k] = $0 }
  END { for (i = 0; i < n; i++) print r[i % k + 1] }' "$L" >"$TMP/predict.csv"
# med FILE: the median of the numbers in FILE's first column
med() { sort -g "$1" | awk '{ a[NR] = $1 } END { print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "| recipe | terms | A: s (median of $REPS) | B: s | A: rows per s | B: rows per s | B / A time |"
echo "|---|---|---|---|---|---|---|"
for q in "${!rec[@]}"; do
  r=${rec[q]} m=$TMP/${rec[q]}.model
  "$BL_B" train -q --threads "$THREADS" --data "$TMP/train.csv" --recipe "$r" \
    --iterations "${its[q]}" --model "$m" || die "training $r failed"
  : >"$TMP/A.t"; : >"$TMP/B.t"
  for _ in $(seq "$REPS"); do
    for ab in A B; do
      bin=$([[ $ab == A ]] && echo "$BL_A" || echo "$BL_B")
      OMP_NUM_THREADS=$THREADS "$bin" predict --model "$m" --data "$TMP/predict.csv" \
        -o "$TMP/$ab.pred" 2>&1 | sed -n 's/.*scoring \([0-9.]*\) s (.*, \([0-9]*\) terms).*/\1 \2/p' >>"$TMP/$ab.t"
    done
    cmp -s "$TMP/A.pred" "$TMP/B.pred" || die "$r: the two builds predict differently"
  done
  [[ $(wc -l <"$TMP/A.t") -eq $REPS && $(wc -l <"$TMP/B.t") -eq $REPS ]] ||
    die "$r: could not read boostlab predict's timing"
  a=$(med "$TMP/A.t") b=$(med "$TMP/B.t") terms=$(awk 'NR == 1 { print $2 }' "$TMP/A.t")
  # boostlab predict reports microseconds: a median of 0 is below that
  # resolution (a handful of rows), and has no rate or ratio
  awk -v r="$r" -v t="$terms" -v a="$a" -v b="$b" -v n="$ROWS" '
    function rate(s) { return s > 0 ? sprintf("%.0f", n / s) : "below 1 µs" }
    BEGIN {
      q = a > 0 && b > 0 ? sprintf("**%.2f**", b / a) : "n/a (below 1 µs)"
      printf "| %s | %s | %.4g | %.4g | %s | %s | %s |\n", r, t, a, b, rate(a), rate(b), q }'
done

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Table VI of the stage-wise paper: evaluation time per test instance on
# pendigits (10 classes) for each family of multi-class booster, with 1000
# boosting iterations.  Models are trained on 50 examples per class of the
# training file (evaluation cost depends on the model, not on how much data
# trained it; MultiBoost on the whole file would take hours), then each
# scores the 3498 test examples on one thread; the median of 5 timings of
# the scoring alone (`boostlab predict` reports it) is printed.
#   bench/eval-time.sh [ITERATIONS]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$ROOT/boostlab}
IT=${1:-1000}
TMP=$(mktemp -d /tmp/bl-eval-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export OMP_NUM_THREADS=1

# 50 examples of each class, the first ones in file order (a fixed sample)
awk -F, 'NR == 1 { print; next } { if (++n[$1] <= 50) print }' \
  "$ROOT/data/pendigits.train.csv" >"$TMP/train.csv"

printf '| family | recipe | terms | test error %% | ms per test instance (median of 5) |\n|---|---|---|---|---|\n'
for spec in "coding, single-label:adaboost-mh" "coding, single-label:adaboost-ecc" \
            "coding, multi-label:adaboost-mo" "matrix of coefficients:mcboost-exp" \
            "matrix of coefficients:mcboost-log" "matrix of coefficients:multiboost-log" \
            "matrix of coefficients:gradboost" "vote (SAMME):samme"; do
  fam=${spec%%:*}; recipe=${spec#*:}
  "$BL" train -q --threads 1 --data "$TMP/train.csv" \
    --recipe "$recipe" --iterations "$IT" --model "$TMP/$recipe.model"
  : >"$TMP/t"
  for _ in 1 2 3 4 5; do
    "$BL" predict --model "$TMP/$recipe.model" --data "$ROOT/data/pendigits.test.csv" \
      2>&1 >/dev/null | sed -n 's/.*error \([0-9.]*\)%.* (\([0-9.]*\) ms per example, \([0-9]*\) terms).*/\1 \2 \3/p' >>"$TMP/t"
  done
  read -r err ms terms < <(sort -k2 -g "$TMP/t" | sed -n 3p)
  printf '| %s | %s | %s | %s | %s |\n' "$fam" "$recipe" "$terms" "$err" "$ms"
done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Choose the StructBoost tracker's C on VALIDATION sequences, never on the
# test ones: the five CONSTRUCTED scenes rendered with another seed (2; the
# tables use seed 1), the tracker run with each C of the paper's grid
# (C in 10^0.5 .. 10^2), and the C of the highest mean overlap over the
# five sequences written to OUT/val/chosen_C (ties: the smaller C).
#
#   experiments/structboost/tracking-validate.sh [OUT]   (default results/structboost-tracking)
#
# tracking.sh then runs the test sequences at that C.
set -eu
BL=${BOOSTLAB:-./boostlab}
HERE=$(dirname "$0")
OUT=${1:-results/structboost-tracking}
SEED=${VAL_SEED:-2}
FRAMES=${FRAMES:-150}
GRID=${GRID:-"3.16 10 31.6 100"}
SCENES=${SCENES:-"cat-brick face-grass cup-gravel bike-camera cat-astronaut"}
export OMP_WAIT_POLICY=passive
V=$OUT/val
mkdir -p "$V"
for s in $SCENES; do
    [ -f "$V/seq/$s/groundtruth.txt" ] || $BL track make "$s" "$V/seq/$s" --seed "$SEED" --frames "$FRAMES"
done
echo "C,sequence,mean_overlap,mean_centre_error" > "$V/validation.csv"
for c in $GRID; do
    for s in $SCENES; do
        [ -f "$V/C$c/$s/summary.csv" ] ||
            $BL track run "$V/seq/$s" --config "$HERE/tracking-structboost.conf" --set C="$c" \
                --out "$V/C$c/$s" --quiet
        awk -F, -v c="$c" -v s="$s" 'NR == 2 { print c "," s "," $5 "," $7 }' \
            "$V/C$c/$s/summary.csv" >> "$V/validation.csv"
    done
done
# mean over the sequences per C; the best (first of the grid on ties)
awk -F, 'NR > 1 { if (!($1 in n)) o[++k] = $1; n[$1]++; s[$1] += $3 }
    END { for (j = 1; j <= k; j++) { c = o[j]; m = s[c] / n[c]; printf "C = %s: mean overlap %.4f\n", c, m
              if (j == 1 || m > best) { best = m; bc = c } }
          print bc > "/dev/stderr" }' "$V/validation.csv" 2> "$V/chosen_C"
echo "chosen C = $(cat "$V/chosen_C")"

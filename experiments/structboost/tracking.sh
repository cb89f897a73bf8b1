#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# StructBoost spec §5.4 analogue (Tables IV-V, Fig. 5) on CONSTRUCTED
# sequences: renders the five scenes of `boostlab track list` (seed 1, 150
# frames, 320x240), runs the StructBoost tracker and the binary AdaBoost
# tracker on each with the tracker files tracking-*.conf beside this
# script (INI syntax, one [tracker] section; not .ini, which experiments/
# reserves for experiment files), then writes the
# tables and per-frame overlap plots (tracking_tables.py).  StructBoost's C
# is the one tracking-validate.sh chose on seed-2 validation sequences
# (OUT/val/chosen_C; run it first), or C=... from the environment.
#
#   experiments/structboost/tracking.sh [OUT]     (default results/structboost-tracking)
#
# Run from the top of the build tree.  OMP_WAIT_POLICY=passive: on a
# shared machine, spinning OpenMP workers steal the cores the working
# thread needs (measured: 1.85 -> 7.1 fps on the same run).
set -eu
BL=${BOOSTLAB:-./boostlab}
HERE=$(dirname "$0")
OUT=${1:-results/structboost-tracking}
SEED=${SEED:-1}
FRAMES=${FRAMES:-150}
SCENES=${SCENES:-"cat-brick face-grass cup-gravel bike-camera cat-astronaut"}
export OMP_WAIT_POLICY=passive
C=${C:-$(cat "$OUT/val/chosen_C")}
for s in $SCENES; do
    [ -f "$OUT/seq/$s/groundtruth.txt" ] || $BL track make "$s" "$OUT/seq/$s" --seed "$SEED" --frames "$FRAMES"
    for m in structboost adaboost; do
        set --
        [ $m = structboost ] && set -- --set C="$C"
        [ -f "$OUT/$m/$s/summary.csv" ] ||
            $BL track run "$OUT/seq/$s" --config "$HERE/tracking-$m.conf" "$@" --out "$OUT/$m/$s" --quiet
    done
done
python3 "$HERE/tracking_tables.py" "$OUT" "${FIGDIR:-docs/figures/structboost}"

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Frames per second of the StructBoost tracker at the spec's counts (2000
# candidates per frame, 200 training boxes, buffer 60, update every 2
# frames) on 2 threads, on the CONSTRUCTED sequences tracking.sh made, with
# the paper's eps_cp = 0.01 (EPS="0.01 0.05" adds a looser one) and the C
# tracking-validate.sh chose (OUT/val/chosen_C; 10 without it; C=... to
# change).  Prints one CSV
# line per run: wall-clock fps (what the bar asks), retraining seconds, the
# CPU seconds the run used and the 1-minute load average before it, since
# the machine is shared (a busy machine lowers the wall-clock figure).
#
#   experiments/structboost/tracking-fps.sh [OUT]   (default results/structboost-tracking)
set -eu
BL=${BOOSTLAB:-./boostlab}
HERE=$(dirname "$0")
OUT=${1:-results/structboost-tracking}
C=${C:-$(cat "$OUT/val/chosen_C" 2>/dev/null || echo 10)}
export OMP_WAIT_POLICY=passive
echo "sequence,eps_cp,threads,load_before,fps,seconds,train_seconds,cpu_seconds,mean_overlap,mean_centre_error"
for s in ${SCENES:-cat-brick face-grass cup-gravel bike-camera cat-astronaut}; do
    for e in ${EPS:-0.01}; do
        load=$(cut -d' ' -f1 /proc/loadavg)
        $BL track run "$OUT/seq/$s" --config "$HERE/tracking-structboost.conf" --set threads=2 \
            --set C="$C" --set eps_cp=$e --out "$OUT/fps/$s-eps$e" --quiet >/dev/null
        awk -F, -v s="$s" -v e="$e" -v l="$load" 'NR == 2 {
            print s "," e ",2," l "," $10 "," $9 "," $11 "," $12 "," $5 "," $7 }' \
            "$OUT/fps/$s-eps$e/summary.csv"
    done
done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Frames per second of the StructBoost tracker at the spec's counts (2000
# candidates per frame, 200 training boxes, buffer 60, update every 2
# frames), on 2 threads and on 1, on CONSTRUCTED sequences made by
# tracking.sh.  Prints one line per run: wall-clock fps (what the bar asks),
# the CPU seconds the run used, and the load average before it, since the
# machine is shared (a busy machine lowers the wall-clock figure only).
#
#   experiments/structboost/tracking-fps.sh [OUT]   (default results/structboost-tracking)
set -eu
BL=${BOOSTLAB:-./boostlab}
HERE=$(dirname "$0")
OUT=${1:-results/structboost-tracking}
export OMP_WAIT_POLICY=passive
echo "sequence,threads,load_before,fps,seconds,cpu_seconds,train_seconds,mean_overlap"
for s in ${SCENES:-cat-brick face-grass}; do
    for th in 2 1; do
        load=$(cut -d' ' -f1 /proc/loadavg)
        $BL track run "$OUT/seq/$s" --config "$HERE/tracking-structboost.ini" --set threads=$th \
            --out "$OUT/fps/$s-t$th" --quiet >/dev/null
        awk -F, -v s="$s" -v th="$th" -v l="$load" 'NR == 2 {
            print s "," th "," l "," $10 "," $9 "," $12 "," $11 "," $5 }' "$OUT/fps/$s-t$th/summary.csv"
    done
done

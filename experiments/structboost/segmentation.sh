#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# StructBoost Table VI analogue on constructed data, end to end (run from
# the repository root; a few minutes on 2 cores):
#   make the images of the 3 categories (seed 1, 120 each at 160x120),
#   prepare super-pixels, features, unary classifiers and the unary-only
#   baselines, run StructBoost and the SSVM (segmentation.ini), print the
#   table and draw the example segmentations (docs/figures/structboost/).
# Set BOOSTLAB=path/to/boostlab to use another build; IMAGES=N for the size.
set -eu
B=${BOOSTLAB:-./boostlab}
N=${IMAGES:-120}
R=results/structboost-segmentation
for c in horse vehicle person; do
    "$B" segment make "$c" "$R/sets/$c" --seed 1 --images "$N"
    "$B" segment prepare "$R/sets/$c" "$R/prep/$c" --seed 1 -q
done
"$B" run --jobs 2 experiments/structboost/segmentation.ini
python3 experiments/structboost/segmentation_table.py "$R"
mkdir -p docs/figures/structboost
for c in horse vehicle person; do
    for id in 1 3 5; do
        "$B" segment figure "$R/prep/$c" "$R/sets/$c" "$id" \
            "docs/figures/structboost/seg-$c-$id.png" \
            AdaBoost="$R/prep/$c/pred-adaboost" SVM="$R/prep/$c/pred-svm" \
            SSVM="$R/pred/ssvm-$c" StructBoost-best="$R/pred/structboost-$c" \
            StructBoost="$R/pred/structboost-pv-$c"
    done
done

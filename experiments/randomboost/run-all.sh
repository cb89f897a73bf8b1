#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every RandomBoost experiment of docs/results-randomboost.md, cheapest first,
# each into its results store under results/ (the experiments' default), then
# the tables.  Resumable: a store keeps each finished run, so running this
# again after a kill goes on where it stopped.  Table V's RBoost-rank runs
# dominate: from 21 s (wine) to about 4 minutes (dna) each, one core each.
#   experiments/randomboost/run-all.sh            # JOBS=1 for one run at a time
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bl="$top/boostlab"
here="$top/experiments/randomboost"
jobs=${JOBS:-2}
cd "$top"
for ini in fig3-boundaries table3-tc-vs-sw table4-binary table2-synthetic table6-wlda \
           table5-proj-nu table5-vowel-speaker vowel-iterations; do
    "$bl" run --quiet --jobs "$jobs" "$here/$ini.ini" >/dev/null
done
# Table V: every set but the two costliest, then dna, then satimage
"$bl" run --quiet --jobs "$jobs" -d 'wine,glass,vehicle,pendigits,vowel' \
    "$here/table5-multiclass.ini" >/dev/null
"$bl" run --quiet --jobs "$jobs" -d dna "$here/table5-multiclass.ini" >/dev/null
"$bl" run --quiet --jobs "$jobs" "$here/table5-multiclass.ini" >/dev/null
for t in table2 table3 table4 table5 table6; do
    echo "## $t"
    python3 "$here/tables.py" "$t" "results/randomboost-$t"
done

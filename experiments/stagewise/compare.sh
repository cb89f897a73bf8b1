#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Print a markdown table of our test errors beside the paper's:
#   experiments/stagewise/compare.sh TABLE RESULTS_DIR
# e.g. compare.sh table1 results/stagewise-table1 (after boostlab run of table1-nu.ini).
set -eu
table=$1
summary=$2/summary.csv
paper=$(dirname "$0")/paper.csv
[ -f "$summary" ] || { echo "compare.sh: $summary not found: run the experiment first" >&2; exit 1; }
echo "| data | algorithm | runs | ours: test error % | paper | difference |"
echo "|---|---|---|---|---|---|"
awk -F, -v table="$table" '
  FNR == 1 { file++ }
  /^#/ { next }
  file == 1 && $1 == table { pm[$2 "," $3] = $4; ps[$2 "," $3] = $5; next }
  file == 2 && FNR > 1 {
    key = $1 "," $2
    if (key in pm)
      printf "| %s | %s | %s | %.1f (%.1f) | %s (%s) | %+.1f |\n", $1, $2, $3, $4, $5, pm[key], ps[key], $4 - pm[key]
    else
      printf "| %s | %s | %s | %.1f (%.1f) | n/a | |\n", $1, $2, $3, $4, $5
  }' "$paper" "$summary"

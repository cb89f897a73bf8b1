# SPDX-License-Identifier: GPL-3.0-or-later
# SIGKILL at random moments never leaves a torn result file: every file in
# the output folder is either absent or complete, and a rerun finishes.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/long.ini" <<INI
[experiment]
name = kill-test
repeats = 30
iterations = 300
[data glass]
file = $SRC/data/glass.csv
[data vehicle]
file = $SRC/data/vehicle.csv
[algorithm exp]
recipe = mcboost-exp
[algorithm log]
recipe = mcboost-log
INI
OUT="$TMP/out"

check_files() {
  local f
  if [[ -f $OUT/experiment.ini ]]; then
    "$BL" run --check "$OUT/experiment.ini" >/dev/null 2>"$TMP/chk" || fail "torn experiment.ini: $(cat "$TMP/chk")"
  fi
  if [[ -f $OUT/summary.csv ]]; then
    awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad }' "$OUT/summary.csv" \
      || fail "torn summary.csv"
    [[ $(tail -c 1 "$OUT/summary.csv" | od -An -c | tr -d ' ') == '\n' ]] || fail "summary.csv does not end a line"
  fi
  if [[ -f $OUT/summary.json ]]; then
    [[ $(tail -n 1 "$OUT/summary.json") == "}" ]] || fail "torn summary.json"
  fi
  for f in "$OUT"/runs/*/*/rep-*.csv; do
    [[ -f $f ]] || continue
    awk -F, 'NR == 1 && $1 != "iteration" { bad = 1 } NR > 1 && (NF != 9 || $1 != NR - 1) { bad = 1 }
             END { exit bad || NR < 2 }' "$f" || fail "torn curve $f"
  done
}

for attempt in 1 2 3 4 5 6; do
  "$BL" run --quiet --output "$OUT" "$TMP/long.ini" >/dev/null 2>&1 &
  pid=$!
  # a random moment between 0.05 and about 1.5 seconds into the run
  sleep "0.$(( (RANDOM % 9) + 1 ))$(( RANDOM % 10 ))"
  (( attempt % 2 )) && sleep 0.$(( RANDOM % 10 ))
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  check_files
done

# the files are readable after all that, and a full run completes over them
"$BL" run --quiet --output "$OUT" "$TMP/long.ini" >"$TMP/table" 2>"$TMP/err" || fail "rerun failed: $(cat "$TMP/err")"
check_files
left=$(find "$OUT" -name '*.tmp.*' | wc -l)
[[ $left -eq 0 ]] || fail "$left temporary files of killed runs are still there after a rerun"
rows=$(tail -n +2 "$OUT/summary.csv" | wc -l)
[[ $rows -eq 4 ]] || fail "summary.csv has $rows rows after the rerun, expected 4"
finish

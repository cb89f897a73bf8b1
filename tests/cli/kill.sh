# SPDX-License-Identifier: GPL-3.0-or-later
# SIGKILL mid-grid at random moments: every file in the output folder is
# either absent or complete, the results store keeps every finished run
# whole, no worker outlives the killed run, and running again finishes the
# grid with the same table as an uninterrupted run without recomputing any
# finished run.
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
TOTAL=120

"$BL" run --quiet --jobs 2 --output "$TMP/ref" "$TMP/long.ini" >"$TMP/ref_table" 2>"$TMP/ref_err" \
  || fail "uninterrupted run failed: $(cat "$TMP/ref_err")"

check_files() {
  if [[ -f $OUT/experiment.ini ]]; then
    "$BL" run --check "$OUT/experiment.ini" >/dev/null 2>"$TMP/chk" || fail "torn experiment.ini: $(cat "$TMP/chk")"
  fi
  if [[ -f $OUT/summary.csv ]]; then
    awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad }' "$OUT/summary.csv" \
      || fail "torn summary.csv"
  fi
  if [[ -f $OUT/results.sqlite ]]; then
    # every stored run has its whole curve
    "$BL" results --format csv --curves "$OUT" >"$TMP/curves.csv" 2>"$TMP/cerr" || fail "store unreadable: $(cat "$TMP/cerr")"
    python3 - "$TMP/curves.csv" <<'PY' || fail "a stored run is incomplete"
import csv, sys, collections
n = collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    n[(r["data"], r["algo"], r["rep"])] += 1
bad = [k for k, v in n.items() if v != 300]
sys.exit(1 if bad else 0)
PY
  fi
}

stored() { # runs the store holds now (0 before it exists)
  [[ -f $OUT/results.sqlite ]] || { echo 0; return; }
  "$BL" results --format csv "$OUT" 2>/dev/null |
    python3 -c 'import csv, sys; print(sum(1 for _ in csv.DictReader(sys.stdin)))'
}

# Each kill comes once the store has grown by a random 5 to 20 runs (never
# past 90 of the 120), plus a random fraction of the time one run took so
# far in this attempt (mid-run, mid-commit or between runs).  The delay is
# measured in runs, not seconds, so the kills land mid-grid however fast or
# loaded the machine is.
target=0
for attempt in 1 2 3 4 5; do
  target=$(( target + 5 + RANDOM % 16 ))
  (( target > 90 )) && target=90
  n0=$(stored) t0=$(date +%s%N); n=$n0
  "$BL" run --quiet --jobs 2 --output "$OUT" "$TMP/long.ini" >/dev/null 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null && (( (n = $(stored)) < target )); do
    sleep 0.02
  done
  # a random 0-99 % of the mean nanoseconds per run stored in this attempt
  per_run=$(( ($(date +%s%N) - t0) / (n > n0 ? n - n0 : 1) ))
  sleep "$(awk -v ns=$(( per_run * (RANDOM % 100) / 100 )) 'BEGIN { printf "%.3f", ns / 1e9 }')"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  # the workers die with their coordinator (a bound, not a timing: the loop
  # ends as soon as they are gone)
  for _ in $(seq 100); do
    pgrep -f -- "--output $OUT " >/dev/null || break
    sleep 0.2
  done
  pgrep -f -- "--output $OUT " >/dev/null && fail "workers outlived the killed run (attempt $attempt)"
  check_files
done

# what the store holds before the last run, with when each run finished
"$BL" results --format csv "$OUT" 2>/dev/null | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print(r["data"], r["algo"], r["rep"], r["finished"])' | sort >"$TMP/before"
kept=$(wc -l <"$TMP/before")

"$BL" run --jobs 2 --output "$OUT" "$TMP/long.ini" >"$TMP/table" 2>"$TMP/err" || fail "rerun failed: $(cat "$TMP/err")"
check_files
(( kept > 0 && kept < TOTAL )) || fail "the kills did not land mid-grid ($kept of $TOTAL runs stored)"
grep -q "$kept already in the store" "$TMP/err" || fail "rerun did not skip the $kept stored runs: $(head -2 "$TMP/err")"
"$BL" results --format csv "$OUT" | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print(r["data"], r["algo"], r["rep"], r["finished"])' | sort >"$TMP/after"
[[ $(wc -l <"$TMP/after") -eq $TOTAL ]] || fail "store holds $(wc -l <"$TMP/after") runs, expected $TOTAL"
# no finished run was recomputed: each keeps its finishing time
missing=$(comm -23 "$TMP/before" "$TMP/after" | wc -l)
[[ $missing -eq 0 ]] || fail "$missing runs finished before the rerun were recomputed"
# the same final table as the uninterrupted run (errors and iterations)
cut -d, -f1-7,18 "$TMP/ref/summary.csv" >"$TMP/s_ref"
cut -d, -f1-7,18 "$OUT/summary.csv" >"$TMP/s_out"
cmp -s "$TMP/s_ref" "$TMP/s_out" || fail "final table differs from the uninterrupted run: $(diff "$TMP/s_ref" "$TMP/s_out" | head -4)"
left=$(find "$OUT" -name '*.tmp.*' | wc -l)
[[ $left -eq 0 ]] || fail "$left temporary files of killed runs are still there after a rerun"
echo "kept $kept of $TOTAL runs across the kills"
finish

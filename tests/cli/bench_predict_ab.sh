# SPDX-License-Identifier: GPL-3.0-or-later
# bench/predict-ab.sh works end to end in a tiny run (two recipes, a few
# terms, 300 rows, one rep): a row per recipe with both builds' times, rows
# per second and the ratio; it refuses an unknown option, lists of different
# lengths and a missing build.  Timings are not checked: a time below the
# timer's resolution is a valid outcome and is tested as one.
. "$(dirname "$0")/lib.sh"
P=$SRC/bench/predict-ab.sh
export BL

# A cell is a rate, or says the time was below boostlab predict's
# microsecond (how fast the machine is decides which; both are fine).
RATE='([0-9]+|below 1 µs)' RATIO='(\*\*[0-9.]+\*\*|n/a \(below 1 µs\))'
bash "$P" --recipes aoso-logitboost,mcboost-exp --iterations 3,2 --rows 300 --reps 1 --threads 1 \
  >"$TMP/out" 2>"$TMP/err" || fail "predict-ab.sh exited $?: $(tail -5 "$TMP/err")"
for r in 'aoso-logitboost \| 3' 'mcboost-exp \| 2'; do
  grep -qE "^\| $r \| ([0-9.e-]+ \| ){2}$RATE \| $RATE \| $RATIO \|$" "$TMP/out" ||
    fail "no row /$r/: $(cat "$TMP/out")"
done
grep -qE 'inf|nan' "$TMP/out" && fail "an infinite or undefined cell: $(cat "$TMP/out")"

# A build whose scoring takes less than the timer shows: no inf or nan,
# the cells say so.  (A boostlab that reports a scoring time of 0.)
cat >"$TMP/fast" <<SH
#!/usr/bin/env bash
"$BL" "\$@" 2> >(sed 's/scoring [0-9.]* s/scoring 0.000000 s/' >&2)
SH
chmod +x "$TMP/fast"
BL_A=$TMP/fast bash "$P" --recipes mcboost-exp --iterations 2 --rows 300 --reps 1 --threads 1 \
  >"$TMP/out" 2>"$TMP/err" || fail "predict-ab.sh (zero time) exited $?: $(tail -5 "$TMP/err")"
grep -qE '^\| mcboost-exp \| 2 \| 0 \| [0-9.e-]+ \| below 1 µs \| ([0-9]+|below 1 µs) \| n/a \(below 1 µs\) \|$' "$TMP/out" ||
  fail "zero time: $(cat "$TMP/out")"
grep -qE 'inf|nan' "$TMP/out" && fail "zero time: an infinite or undefined cell: $(cat "$TMP/out")"

bash "$P" --bogus 1 >"$TMP/out" 2>"$TMP/err" && fail "unknown option accepted"
grep -q 'unknown option --bogus' "$TMP/err" || fail "unknown option: $(cat "$TMP/err")"
bash "$P" --recipes mart --iterations 1,2 >"$TMP/out" 2>"$TMP/err" && fail "uneven lists accepted"
grep -q 'differ in length' "$TMP/err" || fail "uneven lists: $(cat "$TMP/err")"
BL_B=$TMP/nosuch bash "$P" >"$TMP/out" 2>"$TMP/err" && fail "a missing B build accepted"
grep -q "$TMP/nosuch not built" "$TMP/err" || fail "missing B build: $(cat "$TMP/err")"
finish

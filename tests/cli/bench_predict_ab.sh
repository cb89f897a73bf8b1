# SPDX-License-Identifier: GPL-3.0-or-later
# bench/predict-ab.sh works end to end in a tiny run (two recipes, a few
# terms, 300 rows, one rep): a row per recipe with both builds' times, rows
# per second and the ratio; it refuses an unknown option, lists of different
# lengths and a missing build.  Timings are not checked.
. "$(dirname "$0")/lib.sh"
P=$SRC/bench/predict-ab.sh
export BL

bash "$P" --recipes aoso-logitboost,mcboost-exp --iterations 3,2 --rows 300 --reps 1 --threads 1 \
  >"$TMP/out" 2>"$TMP/err" || fail "predict-ab.sh exited $?: $(tail -5 "$TMP/err")"
for r in 'aoso-logitboost \| 3' 'mcboost-exp \| 2'; do
  grep -qE "^\| $r \| ([0-9.e-]+ \| ){2}[0-9]+ \| [0-9]+ \| \*\*[0-9.]+\*\* \|$" "$TMP/out" ||
    fail "no row /$r/: $(cat "$TMP/out")"
done

bash "$P" --bogus 1 >"$TMP/out" 2>"$TMP/err" && fail "unknown option accepted"
grep -q 'unknown option --bogus' "$TMP/err" || fail "unknown option: $(cat "$TMP/err")"
bash "$P" --recipes mart --iterations 1,2 >"$TMP/out" 2>"$TMP/err" && fail "uneven lists accepted"
grep -q 'differ in length' "$TMP/err" || fail "uneven lists: $(cat "$TMP/err")"
BL_B=$TMP/nosuch bash "$P" >"$TMP/out" 2>"$TMP/err" && fail "a missing B build accepted"
grep -q "$TMP/nosuch not built" "$TMP/err" || fail "missing B build: $(cat "$TMP/err")"
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# bench/ab.sh works end to end in a tiny run (letter, 2 AOSO iterations, one
# run of each setting): its table has a row per run and setting with the
# keys each ran with and the peak RSS (n/a without GNU time), and the ratio
# line (with the RSS ratio when measured); two builds compared with no keys;
# it refuses a missing key set, a missing build and an unknown option or
# data set.  Timings are not checked.
. "$(dirname "$0")/lib.sh"
A=$SRC/bench/ab.sh
export BL

bash "$A" --iterations 2 --reps 1 --threads 1 'weak.subtract = false' 'weak.leaves = 4' \
  >"$TMP/out" 2>"$TMP/err" || fail "ab.sh exited $?: $(tail -5 "$TMP/err")"
grep -qE '^\| 1 \| A: `weak.subtract = false` \| ([0-9.]+ \| ){5}([0-9]+|n/a) \|$' "$TMP/out" ||
  fail "no A row: $(cat "$TMP/out")"
grep -q '^| 1 | B: `weak.leaves = 4` | ' "$TMP/out" || fail "no B row: $(cat "$TMP/out")"
# (a ratio is n/a when A's median is below the table's resolution: how
# fast the machine is decides, and both are fine)
grep -qE '^B / A of the median t_weak over the runs: ([0-9.]+|n/a); of t_book: ([0-9.]+|n/a)(; of the peak RSS: ([0-9.]+|n/a))?$' "$TMP/out" ||
  fail "no ratio line: $(cat "$TMP/out")"

bash "$A" 'weak.subtract = false' >"$TMP/out" 2>"$TMP/err" && fail "one key set accepted"
grep -q 'want two key sets' "$TMP/err" || fail "one key set: $(cat "$TMP/err")"
bash "$A" --bogus 1 a b >"$TMP/out" 2>"$TMP/err" && fail "unknown option accepted"
grep -q 'unknown option --bogus' "$TMP/err" || fail "unknown option: $(cat "$TMP/err")"
bash "$A" --data nosuch a b >"$TMP/out" 2>"$TMP/err" && fail "unknown data set accepted"
grep -q "unknown data set 'nosuch'" "$TMP/err" || fail "unknown data set: $(cat "$TMP/err")"
# two builds (BL_A, BL_B) with no keys; a B build that is not there
BL_A=$BL BL_B=$BL bash "$A" --iterations 2 --reps 1 --threads 1 '' '' >"$TMP/out" 2>"$TMP/err" ||
  fail "two builds: ab.sh exited $?: $(tail -5 "$TMP/err")"
grep -q '^| 1 | B: `` | ' "$TMP/out" || fail "two builds, no B row: $(cat "$TMP/out")"
BL_B=$TMP/nosuch bash "$A" '' '' >"$TMP/out" 2>"$TMP/err" && fail "a missing B build accepted"
grep -q "$TMP/nosuch not built" "$TMP/err" || fail "missing B build: $(cat "$TMP/err")"
# a key the recipe does not have fails the run, with the boostlab message
bash "$A" --iterations 1 --reps 1 'weak.nosuch = 1' 'weak.leaves = 4' >"$TMP/out" 2>"$TMP/err" &&
  fail "a bad key accepted"
grep -q 'nosuch' "$TMP/err" || fail "bad key: $(cat "$TMP/err")"
finish

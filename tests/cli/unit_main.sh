# SPDX-License-Identifier: GPL-3.0-or-later
# The unit-test programs' main (tests/unit/main.c) refuses a malformed
# BL_TEST_TIMEOUT_SCALE with exit 2 and a message naming the variable, and
# runs the tests with a valid one.  (That the scale reaches Criterion's
# timeouts was checked by hand: at 0.002, a 1 s test with a 120 s guard
# times out after 0.24 s; a test of it here would depend on the clock.)
. "$(dirname "$0")/lib.sh"
U=${BL_TOP_BUILDDIR:-.}/tests/unit/test_coefkernels
[[ -x $U ]] || { echo "SKIP: $U not built"; exit 77; }
for bad in abc 0 -1 2x 1e9; do
  BL_TEST_TIMEOUT_SCALE=$bad "$U" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  [[ $rc -eq 2 ]] || fail "scale '$bad': exit $rc, expected 2"
  grep -q "^BL_TEST_TIMEOUT_SCALE: expected a positive number, not '$bad'$" "$TMP/err" ||
    fail "scale '$bad': $(head -c 300 "$TMP/err")"
done
for good in '' 1 2.5 30; do
  BL_TEST_TIMEOUT_SCALE=$good "$U" >"$TMP/out" 2>&1 || fail "scale '$good': $(tail -3 "$TMP/out")"
  grep -q 'Synthesis: Tested: [1-9][0-9]* | Passing: [1-9][0-9]* | Failing: 0 | Crashing: 0' "$TMP/out" ||
    fail "scale '$good': $(tail -3 "$TMP/out")"
done
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# Every recipe's curves are where they were: scripts/curves.sh (every recipe
# of configs/ on small data sets, every curve and final figure as hex
# floats, the resolved parameters the store hashes) gives
# tests/curves/curves.ref byte for byte.  A change that moves a number on
# purpose regenerates the file (scripts/curves.sh -o tests/curves/curves.ref)
# and explains the difference on the page it touches; every recipe in
# configs/ must be part of the workload, but XGBoost's (method = xgboost):
# their numbers are the installed libxgboost's, which another release of
# it moves with no change here, and the method is optional at build time,
# so the workload must load without it; tests/cli/xgboost.sh runs them
# and holds a seed to the same curve bit for bit.
. "$(dirname "$0")/lib.sh"

BUILD=${BL_TOP_BUILDDIR:-.}
REF=$SRC/tests/curves/curves.ref

bash "$SRC/scripts/curves.sh" -o "$TMP/now.txt" "$BUILD" 2>"$TMP/err" ||
  fail "scripts/curves.sh failed: $(head -c 600 "$TMP/err")"
if [[ -s $TMP/now.txt ]]; then
  if ! cmp -s "$REF" "$TMP/now.txt"; then
    fail "the curves differ from tests/curves/curves.ref (- reference, + this build); if the" \
      "change is meant, regenerate it with scripts/curves.sh -o tests/curves/curves.ref and" \
      "explain the difference in the docs:
$(diff -u "$REF" "$TMP/now.txt" | head -n 30)"
  fi
  # every recipe is in the workload, with a curve
  for f in "$SRC"/configs/*.ini; do
    r=$(basename "$f" .ini)
    grep -qx 'method = xgboost' "$f" && continue
    grep -q "^run [^ ]*/$r rep " "$TMP/now.txt" || fail "recipe $r is not in tests/curves (add it to recipes.ini)"
  done
  [[ $(grep -c '^  1 ' "$TMP/now.txt") -ge 80 ]] || fail "fewer than 80 runs have a curve"
fi
exit $((fails > 0))

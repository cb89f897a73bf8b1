# SPDX-License-Identifier: GPL-3.0-or-later
# The sparse benches work end to end in --quick runs without their XGBoost
# peer: bench/sparse-debsec.sh on a small debsec-like pair of LIBSVM files
# (DATASETS), bench/sparse.sh on its generated files at a tenth of the rows;
# each prints its table with a number in every boostlab cell, and each
# refuses an unknown option, a count that is not one and (debsec) a missing
# data set.  Timings are not checked.
. "$(dirname "$0")/lib.sh"
export BL
[[ -x /usr/bin/time ]] || { echo "SKIP: no GNU time"; exit 77; }

# debsec.{train,test}.libsvm: 3 classes, 40 binary features, each class's
# rows storing 3 of its own 10 features and 2 of the rest
export TMP
awk -v seed=7 'BEGIN { srand(seed)
  for (f = 0; f < 2; f++) {
    out = ENVIRON["TMP"] "/debsec." (f ? "test" : "train") ".libsvm"
    for (i = 0; i < (f ? 90 : 300); i++) {
      y = i % 3; delete on
      for (t = 0; t < 3; t++) on[1 + 10 * y + int(rand() * 10)] = 1
      for (t = 0; t < 2; t++) on[1 + int(rand() * 40)] = 1
      line = y; n = 0
      for (j = 1; j <= 40; j++) if (j in on) line = line " " j ":1"
      print line > out
    }
  } }'
D=$SRC/bench/sparse-debsec.sh
DATASETS=$TMP bash "$D" --quick --threads 1 --out "$TMP/deb" >"$TMP/out" 2>"$TMP/err" ||
  fail "sparse-debsec.sh --quick exited $?: $(tail -5 "$TMP/err")"
grep -qE '^### debsec \(1 threads; load average [0-9. ]+ / [0-9. ]+ before / after\)$' "$TMP/out" ||
  fail "debsec: no heading: $(cat "$TMP/out")"
grep -qx '| trees | 2 (2 iterations) |' "$TMP/out" || fail "debsec: no trees row: $(cat "$TMP/out")"
for row in 's per tree' 'peak RSS, MB' 'test error % after the last tree' 'process wall time, s'; do
  grep -qE "^\| $row \| [0-9]+(\.[0-9]+)? \|$" "$TMP/out" || fail "debsec: no '$row' row: $(cat "$TMP/out")"
done
grep -q 'XGBoost' "$TMP/out" && fail "debsec --quick ran the peer: $(cat "$TMP/out")"
[[ -s $TMP/deb/bench.ini && -s $TMP/deb/bl.csv ]] || fail "debsec --out kept no INI or curve"
grep -qx 'threads = 1' "$TMP/deb/bench.ini" || fail "debsec: --threads not in the INI"
# the C API peer (the default), where this boostlab has the xgboost method
if "$BL" --version | grep -q XGBoost; then
  DATASETS=$TMP bash "$D" --rounds 1 --threads 1 >"$TMP/outx" 2>"$TMP/err" ||
    fail "sparse-debsec.sh --rounds 1 exited $?: $(tail -5 "$TMP/err")"
  grep -qE '^\| \| boostlab aoso-logitboost \| XGBoost [0-9.]* ?\(C API\) hist \|' "$TMP/outx" ||
    fail "debsec: no C API peer column: $(cat "$TMP/outx")"
  for row in '\*\*s per tree\*\*' '\*\*peak RSS, MB\*\*' '\*\*test error % after the last tree\*\*'; do
    grep -qE "^\| $row \| .* \| (<= 2|<= 1|<=): (met|\*\*not met\*\*) \|$" "$TMP/outx" ||
      fail "debsec: no bar in row /$row/: $(cat "$TMP/outx")"
  done
fi
expect_fail 1 "--peer wants capi or python, got 'r'" -- bash "$D" --peer r --quick
expect_fail 1 'unknown option --bogus' -- bash "$D" --bogus
expect_fail 1 "--rounds wants a positive whole number, got '0'" -- bash "$D" --rounds 0 --quick
expect_fail 1 "--threads wants a positive whole number, got ''" -- bash "$D" --threads
DATASETS=$TMP/nosuch expect_fail 1 'no debsec.train.libsvm' -- bash "$D" --quick

S=$SRC/bench/sparse.sh
PY=${PY:-/usr/bin/python3}
if "$PY" -c 'import numpy' 2>/dev/null; then
  bash "$S" --quick --threads 1 --out "$TMP/toy" >"$TMP/out" 2>"$TMP/err" ||
    fail "sparse.sh --quick exited $?: $(tail -5 "$TMP/err")"
  grep -qx '| 500 x 1000, 41 a row | boostlab mcboost-exp | XGBoost hist, depth 1 | boostlab / XGBoost |' \
    "$TMP/out" || fail "sparse.sh: no toy heading: $(cat "$TMP/out")"
  grep -qE '^\| s per stump \| [0-9.]+ \| n/a \| n/a \|$' "$TMP/out" || fail "sparse.sh: s per stump: $(cat "$TMP/out")"
  grep -qE '^\| test error % \| [0-9.]+ \| n/a \| \|$' "$TMP/out" || fail "sparse.sh: test error: $(cat "$TMP/out")"
  grep -qE '^\| peak RSS, MB \| [0-9.]+ \| n/a \| n/a \|$' "$TMP/out" || fail "sparse.sh: RSS: $(cat "$TMP/out")"
  grep -qE '^\| 100 x [0-9]+, 50 a row \| boostlab train mcboost-exp, 5 stumps \|$' "$TMP/out" ||
    fail "sparse.sh: no wide heading: $(cat "$TMP/out")"
  grep -qE '^\| wall time \(load, quantize, train, save\) \| [0-9:.]+ \|$' "$TMP/out" ||
    fail "sparse.sh: wide wall time: $(cat "$TMP/out")"
  [[ -s $TMP/toy/wide.model ]] || fail "sparse.sh: no wide model"
else
  echo "sparse.sh not run: no numpy for $PY"
fi
expect_fail 2 'usage: bench/sparse.sh' -- bash "$S" --bogus
expect_fail 2 "--stumps wants a positive whole number, got 'x'" -- bash "$S" --stumps x
finish

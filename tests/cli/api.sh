# SPDX-License-Identifier: GPL-3.0-or-later
# The library API's example (docs/examples/api_example.c, docs/api.md),
# compiled against the built libboostlab and run: its output, a model file
# byte for byte the one `boostlab train` writes with the same recipe and
# settings, the loaded model agreeing, and an error returned as a message.
# Also that the library exports the API only.
. "$(dirname "$0")/lib.sh"
BUILD=${BL_TOP_BUILDDIR:-.}
LIB=$BUILD/.libs/libboostlab.so.0
[[ -e $LIB ]] || { echo "FAIL: $LIB is not built"; exit 1; }
command -v "${CC:-cc}" >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
flags=()
# a library built with the sanitizers needs their runtimes first in the program
ldd "$LIB" | grep -q libasan && flags=(-fsanitize=address,undefined)
"${CC:-cc}" -Wall -Wextra -Werror "${flags[@]}" -I"$SRC/include" "$SRC/docs/examples/api_example.c" \
  -L"$BUILD/.libs" -lboostlab -Wl,-rpath,"$(cd "$BUILD/.libs" && pwd)" -o "$TMP/api_example" \
  2>"$TMP/cc.err" || fail "the example does not compile: $(head -c 600 "$TMP/cc.err")"

D=$SRC/data
"$TMP/api_example" "$D/pendigits.train.csv" "$D/pendigits.test.csv" "$TMP/api.model" \
  >"$TMP/out" 2>"$TMP/err" || fail "api_example exited $?: $(cat "$TMP/err")"
grep -q '^trained: 10 classes, 16 features, 20 terms, training error 0\.' "$TMP/out" ||
  fail "no training line: $(cat "$TMP/out")"
grep -q '^test rows: 3498, first predictions: ' "$TMP/out" || fail "no test line: $(cat "$TMP/out")"
[[ $(grep -c '^row [0-2]: class [0-9], probability 0\.[0-9]*$' "$TMP/out") -eq 3 ]] ||
  fail "no three probability rows: $(cat "$TMP/out")"
grep -q '^loaded model agrees on 3498 of 3498 rows$' "$TMP/out" || fail "loaded model differs: $(cat "$TMP/out")"
grep -q "^error as expected: no recipe named 'no-such-recipe'" "$TMP/out" ||
  fail "no error message: $(cat "$TMP/out")"

# the same model as the command line's
"$BL" train -q --data "$D/pendigits.train.csv" --recipe aoso-logitboost --iterations 20 \
  --set weak.leaves=8 --model "$TMP/cli.model" || fail "boostlab train exited $?"
cmp -s "$TMP/api.model" "$TMP/cli.model" || fail "the example's model differs from boostlab train's"

# a recipe given by its file (the API's parameter, through boostlab train)
cp "$SRC/configs/mcboost-exp.ini" "$TMP/mine.ini"
"$BL" train -q --data "$D/iris.csv" --recipe "$TMP/mine.ini" --iterations 5 --model "$TMP/mine.model" ||
  fail "boostlab train --recipe FILE exited $?"
grep -q '^algorithm recipe = mine$' "$TMP/mine.model" || fail "the model does not name recipe 'mine'"
expect_fail 1 "$TMP/none.ini: no such recipe file" -- \
  "$BL" train -q --data "$D/iris.csv" --recipe "$TMP/none.ini" --model "$TMP/x.model"

# example weights (tests/cli/api_weights.c): integer weights train what the
# rows repeated that often train (to 1e-9: a sum loss, a mean one whose
# normaliser becomes sum w, and margin-exp's log-sum), weights all 2 and weight-0 rows train the
# unweighted model and the model without those rows bit for bit, and bad
# weights and a learner that cannot take them are refused by name
"${CC:-cc}" -Wall -Wextra -Werror "${flags[@]}" -I"$SRC/include" "$SRC/tests/cli/api_weights.c" \
  -L"$BUILD/.libs" -lboostlab -lm -Wl,-rpath,"$(cd "$BUILD/.libs" && pwd)" -o "$TMP/api_weights" \
  2>"$TMP/cc.err" || fail "api_weights.c does not compile: $(head -c 600 "$TMP/cc.err")"
"$TMP/api_weights" "$D/iris.csv" logitboost gradboost mcboost-exp >"$TMP/w.out" 2>"$TMP/w.err" ||
  fail "api_weights exited $?: $(cat "$TMP/w.err")"
for r in logitboost gradboost mcboost-exp; do
  awk -v r="$r" '$1 == r && $2 == "repeat:" && $4 == "equal," && $NF + 0 < 1e-9 {ok = 1}
                 END {exit !ok}' "$TMP/w.out" || fail "$r: weights differ from repeated rows: $(cat "$TMP/w.out")"
  grep -q "^$r twos: identical$" "$TMP/w.out" || fail "$r: weights all 2 differ from none: $(cat "$TMP/w.out")"
  grep -q "^$r zeros: identical " "$TMP/w.out" || fail "$r: weight-0 rows differ from dropped rows: $(cat "$TMP/w.out")"
done
grep -q '^hinge: example weights: weak learner svm trains on the loss.s hinge targets' "$TMP/w.out" ||
  fail "hingeboost-oc took weights: $(cat "$TMP/w.out")"
grep -q '^negative: weight of example 5 is -1: weights are finite and non-negative$' "$TMP/w.out" ||
  fail "a negative weight was not refused by row: $(cat "$TMP/w.out")"
grep -q '^nan: weight of example 5 is nan' "$TMP/w.out" || fail "a NaN weight was not refused: $(cat "$TMP/w.out")"
grep -q '^zero: every example weight is 0' "$TMP/w.out" || fail "all-zero weights were not refused: $(cat "$TMP/w.out")"

# only boostlab_* is exported
if command -v nm >/dev/null; then
  nm -D --defined-only "$LIB" | awk '$2 ~ /^[TDBR]$/ {print $3}' | grep -v '^boostlab_' >"$TMP/extra"
  [[ -s $TMP/extra ]] && fail "libboostlab exports more than the API: $(head -n 5 "$TMP/extra")"
  nm -D --defined-only "$LIB" | grep -q ' boostlab_train$' || fail "boostlab_train is not exported"
fi
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# The sparse, lazy hand-off between a tree and the loss (docs/sdk.md,
# "Sparse updates between a tree and the loss") gives the dense path's
# curves bit for bit: softmax recipes in class space on pendigits (7494
# training rows, several of the loss's fixed chunks), every curve and final
# figure as hex floats (scripts/curves.sh), once with BOOSTLAB_LAZY=0 on one
# thread and once lazily on two.  That the loss's update itself equals eval
# and hessian is `boostlab check`'s "update" (tests/cli/check.sh); here the
# AOSO learner's moved lists also drive the score updates.
. "$(dirname "$0")/lib.sh"

BUILD=${BL_TOP_BUILDDIR:-.}
DATA=$(cd "$SRC/data" && pwd)
mkini() { # THREADS
  cat <<INI
[experiment]
name = lazy
seed = 5
repeats = 1
iterations = 6
threads = $1
[data pendigits]
file = $DATA/pendigits.train.csv
test_file = $DATA/pendigits.test.csv
classes = $DATA/pendigits.classes
[algorithm aoso-logitboost]
recipe = aoso-logitboost
iterations = 40
[algorithm aoso-solver]
recipe = aoso-logitboost
solver = lbfgsb-line
[algorithm abc-logitboost]
recipe = abc-logitboost
iterations = 2
[algorithm abc-worst]
recipe = abc-logitboost
weak.base = worst
[algorithm logitboost]
recipe = logitboost
[algorithm mart]
recipe = mart
[algorithm gradboost]
recipe = gradboost
INI
}
mkini 2 >"$TMP/two.ini"
mkini 1 >"$TMP/one.ini"
BOOSTLAB_LAZY=0 bash "$SRC/scripts/curves.sh" --ini "$TMP/one.ini" -o "$TMP/dense.txt" "$BUILD" \
  2>"$TMP/err" || fail "curves.sh (dense): $(head -c 600 "$TMP/err")"
bash "$SRC/scripts/curves.sh" --ini "$TMP/two.ini" -o "$TMP/lazy.txt" "$BUILD" 2>"$TMP/err" ||
  fail "curves.sh (lazy): $(head -c 600 "$TMP/err")"
[[ $(grep -c '^run ' "$TMP/lazy.txt") -eq 7 ]] || fail "expected 7 runs: $(grep '^run ' "$TMP/lazy.txt")"
# the thread count is part of the resolved parameters: compare the curves
grep -v '^  *threads\|threads =' "$TMP/dense.txt" >"$TMP/d"
grep -v '^  *threads\|threads =' "$TMP/lazy.txt" >"$TMP/l"
cmp -s "$TMP/d" "$TMP/l" ||
  fail "the lazy path's curves differ from the dense path's:
$(diff -u "$TMP/d" "$TMP/l" | head -n 30)"
finish

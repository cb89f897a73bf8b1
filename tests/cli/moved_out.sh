# SPDX-License-Identifier: GPL-3.0-or-later
# Sparse output values (weak.h bl_fit_result.moved_out, SDK 2.3) read as
# the dense outputs they stand for by every host that calls a learner: the
# fixture fixture-moved-only answers in moved / moved_out alone and leaves
# NaN in out, fixture-dense-twin is the same stump answering in out.  Runs
# in class space with a coefficient solver (mcboost-exp), in RBoost-proj's
# projected outputs (rboost-proj) and in StructBoost's lifting
# (structboost-stump) give both learners the same curves, and check-plugin
# passes the sparse one (it reads its outputs as the host does).
. "$(dirname "$0")/lib.sh"

FIX="${BL_TOP_BUILDDIR:-.}/tests/plugins/.libs"
DATA=$(cd "$SRC/data" && pwd)
export BOOSTLAB_PLUGIN_PATH="$FIX/moved_only.so:$FIX/dense_twin.so"
"$BL" check-plugin "$FIX/moved_only.so" >"$TMP/check" 2>&1 ||
  fail "check-plugin fails fixture-moved-only: $(grep '^FAIL' "$TMP/check")"
mkini() { # WEAK OUT: one algorithm per host path, the same names (so the same seeds)
  cat <<INI
[experiment]
name = moved-out
iterations = 8
threads = 1
output = $2
[data iris]
file = $DATA/iris.csv
classes = $DATA/iris.classes
split = ratio
[algorithm mc]
recipe = mcboost-exp
weak = $1
[algorithm proj]
recipe = rboost-proj
weak = $1
[algorithm sb]
recipe = structboost-stump
weak = $1
INI
}
for w in moved-only dense-twin; do
  mkini "fixture-$w" "$TMP/$w" >"$TMP/$w.ini"
  run_curves "$w" 4,8-12 # algorithm, iteration, train loss and error, test error, edge
done
[[ $(wc -l <"$TMP/dense-twin.csv") -ge 10 ]] || fail "too few curve rows: $(cat "$TMP/dense-twin.csv")"
grep -qi nan "$TMP/moved-only.csv" && fail "NaN in the curves: a host read out"
cmp -s "$TMP/moved-only.csv" "$TMP/dense-twin.csv" ||
  fail "moved_out and out give different curves:
$(diff -u "$TMP/dense-twin.csv" "$TMP/moved-only.csv" | head -n 20)"
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# Which layout the engine gives a learner that asks for class-major
# derivatives (weak.h BL_NEEDS_CLASS_MAJOR) on a dense set: since SDK 2.4,
# class-major (bl_fit_request.class_major says so); to a plugin built for
# 2.3, row-major, as 2.3 promised (class-major on sparse sets only).  The
# same stump on feature 0, reading G row-major, as three plugins:
# fixture-dense-twin (no flag), fixture-cm-sdk23 (the flag, SDK 2.3) and
# fixture-ignores-cm (the flag, SDK 2.4).  In class space the first two
# must give the same curves; the third, which is handed class-major G and
# misreads it, must not (so this test sees the layout the engine chose).
. "$(dirname "$0")/lib.sh"

FIX="${BL_TOP_BUILDDIR:-.}/tests/plugins/.libs"
DATA=$(cd "$SRC/data" && pwd)
export BOOSTLAB_PLUGIN_PATH="$FIX/dense_twin.so:$FIX/cm_sdk23.so:$FIX/ignores_cm.so"
"$BL" plugins 2>&1 | grep -q 'fixture-cm-sdk23' || fail "fixture-cm-sdk23 (SDK 2.3) not loaded: $("$BL" plugins 2>&1 | tail -3)"
for w in dense-twin cm-sdk23 ignores-cm; do
  cat >"$TMP/$w.ini" <<INI
[experiment]
name = class-major
iterations = 8
threads = 1
output = $TMP/$w
[data iris]
file = $DATA/iris.csv
classes = $DATA/iris.classes
split = ratio
[algorithm mc]
recipe = mcboost-exp
weak = fixture-$w
INI
  run_curves "$w" 8-12 # iteration, train loss and error, test error, edge
done
[[ $(wc -l <"$TMP/dense-twin.csv") -ge 9 ]] || fail "too few curve rows: $(cat "$TMP/dense-twin.csv")"
cmp -s "$TMP/dense-twin.csv" "$TMP/cm-sdk23.csv" ||
  fail "an SDK 2.3 learner asking for class-major G got it on a dense set:
$(diff -u "$TMP/dense-twin.csv" "$TMP/cm-sdk23.csv" | head -n 20)"
cmp -s "$TMP/dense-twin.csv" "$TMP/ignores-cm.csv" &&
  fail "an SDK 2.4 learner asking for class-major G got row-major G on a dense set"
finish

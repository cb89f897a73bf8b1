# SPDX-License-Identifier: GPL-3.0-or-later
# Bad command lines, experiment files and plugins: a clear message and a
# non-zero exit, never a crash.
. "$(dirname "$0")/lib.sh"

expect_fail 2 "unknown command 'frobnicate'" -- "$BL" frobnicate
expect_fail 2 "expected exactly one EXPERIMENT.ini" -- "$BL" run
expect_fail 2 "unknown option '--bogus'" -- "$BL" run --bogus x.ini
expect_fail 2 "--threads expects" -- "$BL" run --threads zero x.ini
expect_fail 1 "nonexistent.ini: cannot open" -- "$BL" run "$TMP/nonexistent.ini"
expect_fail 1 "no plugin named 'nosuch'" -- "$BL" plugins nosuch

cp "$SRC/data/iris.csv" "$TMP/iris.csv"
cat >"$TMP/bad.ini" <<'INI'
[data iris]
file = iris.csv
[algorithm a]
recipe = mcboost-exp
solver.max_iter = -4
INI
expect_fail 1 "bad.ini:5: .*out of range" -- "$BL" run "$TMP/bad.ini"
[[ ! -d results/bad ]] || fail "a refused experiment created its output folder"

# a data file with a broken row: the run stops with file:line:column
printf 'label,a,b\n0,1,2\n1,x,4\n' >"$TMP/broken.csv"
cat >"$TMP/broken.ini" <<INI
[experiment]
output = $TMP/out-broken
[data broken]
file = broken.csv
[algorithm a]
recipe = mcboost-exp
INI
expect_fail 1 "broken.csv:3: column 2 \(a\)" -- "$BL" run --quiet "$TMP/broken.ini"

# a single class: nothing to learn, said clearly
printf 'label,a\n0,1\n0,2\n0,3\n' >"$TMP/one.csv"
sed 's/broken/one/g' "$TMP/broken.ini" >"$TMP/one.ini"
expect_fail 1 "one/a rep 0: the training set has 2 examples and 1 classes" -- "$BL" run --quiet "$TMP/one.ini"

# plugins from BOOSTLAB_PLUGIN_PATH: good ones are listed, bad ones named
FX="$BL_TOP_BUILDDIR/tests/plugins/.libs"
BOOSTLAB_PLUGIN_PATH="$FX/good_loss.so" "$BL" plugins >"$TMP/p" 2>&1 || fail "good fixture refused: $(cat "$TMP/p")"
grep -q '^fixture-sq ' "$TMP/p" || fail "fixture-sq not listed"
BOOSTLAB_PLUGIN_PATH="$FX/bad_version.so" expect_fail 1 "bad_version.so: .*SDK 2.0" -- "$BL" plugins
BOOSTLAB_PLUGIN_PATH="$FX/dup_name.so" expect_fail 1 "dup_name.so: plugin name 'margin-exp' is already taken" -- "$BL" plugins
BOOSTLAB_PLUGIN_PATH="$TMP/none" expect_fail 1 "neither a directory nor a file" -- "$BL" plugins
finish

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
BOOSTLAB_PLUGIN_PATH="$FX/bad_version.so" expect_fail 1 "bad_version.so: .*SDK 3.0" -- "$BL" plugins
BOOSTLAB_PLUGIN_PATH="$FX/dup_name.so" expect_fail 1 "dup_name.so: plugin name 'margin-exp' is already taken" -- "$BL" plugins
BOOSTLAB_PLUGIN_PATH="$TMP/none" expect_fail 1 "neither a directory nor a file" -- "$BL" plugins
BOOSTLAB_PLUGIN_PATH="relative/dir" expect_fail 1 "'relative/dir' is a relative path" -- "$BL" plugins
cp "$FX/good_loss.so" "$TMP/ww.so" && chmod o+w "$TMP/ww.so"
BOOSTLAB_PLUGIN_PATH="$TMP/ww.so" expect_fail 1 "ww.so: refusing a world-writable plugin file" -- "$BL" plugins
mkdir -p "$TMP/wwdir" && chmod 777 "$TMP/wwdir" && cp "$FX/good_loss.so" "$TMP/wwdir/"
BOOSTLAB_PLUGIN_PATH="$TMP/wwdir" expect_fail 1 "refusing a plugin in the world-writable directory" -- "$BL" plugins

# a split that leaves a class out of the training part
cat >"$TMP/first.ini" <<INI
[experiment]
output = $TMP/out-first
[data iris]
file = $SRC/data/iris.csv
split = first
first = 100
[algorithm a]
recipe = mcboost-exp
INI
expect_fail 1 "first.ini:3: data iris, repeat 0: class '2' has no example in the training part" -- "$BL" run --quiet "$TMP/first.ini"

# a second-order tree learner with a loss or a coding that cannot give it a
# Hessian: refused when the file is checked, or at its first iteration
printf '[experiment]\niterations = 3\n[data iris]\nfile = %s/data/iris.csv\n[algorithm a]\nrecipe = aoso-logitboost\ncoding = ova\n' \
  "$SRC" >"$TMP/tree-coding.ini"
expect_fail 1 "tree-coding.ini:5: \[algorithm a\] weak learner aoso-tree needs the loss's Hessian, which the engine gives only without an output coding" -- \
  "$BL" run --check "$TMP/tree-coding.ini"
printf '[experiment]\niterations = 3\n[data iris]\nfile = %s/data/iris.csv\n[algorithm a]\nrecipe = aoso-logitboost\nloss = margin-exp\n' \
  "$SRC" >"$TMP/tree-loss.ini"
expect_fail 1 "iris/a rep 0: weak learner aoso-tree needs the loss's whole Hessian .*loss margin-exp does not provide it" -- \
  "$BL" run --quiet --output "$TMP/tree-loss" "$TMP/tree-loss.ini"

# output that cannot be written (a file in the way; a full disk, simulated by
# a file-size limit): a clear error, and no torn file left behind
printf 'x' >"$TMP/afile"
sed "s|^output = .*|output = $TMP/afile/sub|; s|^split = first|split = ratio|; /^first = /d" "$TMP/first.ini" >"$TMP/blocked.ini"
expect_fail 1 "afile: exists and is not a directory" -- "$BL" run --quiet "$TMP/blocked.ini"
sed "s|^output = .*|output = $TMP/out-full|" "$TMP/blocked.ini" >"$TMP/full.ini"
(trap '' XFSZ; ulimit -f 2; "$BL" run --quiet "$TMP/full.ini" >/dev/null 2>"$TMP/err"; echo $? >"$TMP/rc")
[[ $(cat "$TMP/rc") -eq 1 ]] || fail "a full disk did not fail the run"
grep -qE "File too large|cannot write the store .*disk full" "$TMP/err" || fail "no clear error on a full disk: $(cat "$TMP/err")"
# nothing half-written: the store, if it exists, holds no run
if [[ -e $TMP/out-full/results.sqlite ]]; then
  n=$("$BL" results --format csv "$TMP/out-full" 2>/dev/null | tail -n +2 | wc -l)
  [[ $n -eq 0 ]] || fail "a failed write left $n runs"
fi
# run --check reads the data files (--quick does not): a NaN, a ragged row,
# binary content and a truncated gzip stream each fail with file and line
check_ini() { # $1: data file name
  printf '[experiment]\noutput = %s/out-chk\n[data d]\nfile = %s\n[algorithm a]\nrecipe = mcboost-exp\n' \
    "$TMP" "$1" >"$TMP/chk.ini"
}
printf 'label,a,b\n0,1,2\n1,nan,4\n' >"$TMP/nan.csv"
check_ini nan.csv
expect_fail 1 "nan.csv:3: column 2 \(a\)" -- "$BL" run --check "$TMP/chk.ini"
"$BL" run --check --quick "$TMP/chk.ini" | grep -q 'valid .*not read (--quick)' ||
  fail "--check --quick read the data"
printf 'label,a,b\n0,1,2\n1,3\n' >"$TMP/ragged.csv"
check_ini ragged.csv
expect_fail 1 "ragged.csv:3: column 3 \(b\): expected a field" -- "$BL" run --check "$TMP/chk.ini"
head -c 300 "$BL" >"$TMP/bin.csv"
check_ini bin.csv
expect_fail 1 "bin.csv" -- "$BL" run --check "$TMP/chk.ini"
seq 1 3000 | awk 'BEGIN { print "label,a" } { print $1 % 2 "," $1 }' | gzip -c >"$TMP/full.csv.gz"
head -c 2000 "$TMP/full.csv.gz" >"$TMP/cut.csv.gz"
check_ini cut.csv.gz
expect_fail 1 "cut.csv.gz" -- "$BL" run --check "$TMP/chk.ini"
check_ini full.csv.gz
"$BL" run --check "$TMP/chk.ini" | grep -q 'valid .*data files read' || fail "--check on good data"
expect_fail 2 "--quick only applies with --check" -- "$BL" run --quick "$TMP/chk.ini"

# split = given with repeats > 1: the same rows each repeat, said at once
cp "$SRC/data/iris.csv" "$TMP/iris-test.csv"
printf '[experiment]\nrepeats = 3\noutput = %s/out-rep\n[data iris]\nfile = iris.csv\ntest_file = iris-test.csv\n[algorithm a]\nrecipe = mcboost-exp\n' \
  "$TMP" >"$TMP/rep.ini"
"$BL" run --check "$TMP/rep.ini" 2>"$TMP/rep.err" >/dev/null || fail "rep.ini: $(cat "$TMP/rep.err")"
grep -q "warning: .*\[data iris\] split = given: its 3 repeats train and test on the same rows" \
  "$TMP/rep.err" || fail "no warning for repeats of a given split: $(cat "$TMP/rep.err")"
sed -i 's/^repeats = 3$/repeats = 1/' "$TMP/rep.ini"
"$BL" run --check "$TMP/rep.ini" 2>"$TMP/rep.err" >/dev/null
[[ ! -s $TMP/rep.err ]] || fail "a warning with repeats = 1: $(cat "$TMP/rep.err")"
finish

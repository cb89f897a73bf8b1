# SPDX-License-Identifier: GPL-3.0-or-later
# Where plugins are looked for, and what a search that goes wrong says:
# lib/boostlab beside the binary's folder comes first; the install folder compiled in is the configured one (a reconfigured
# prefix rebuilds it); finding no plugin is an error naming every folder
# searched; a stray non-plugin .so in a folder is skipped with a warning,
# a broken plugin is not; an experiment's plugin_path is searched and kept
# in the resolved experiment.ini, and plugins.tsv records the files used;
# plugin files and folders other users can write are refused.
. "$(dirname "$0")/lib.sh"
unset BOOSTLAB_PLUGIN_PATH
FX="$BL_TOP_BUILDDIR/tests/plugins/.libs"
: "${BL_PKGLIBDIR:?set by make check (Makefile.am AM_TESTS_ENVIRONMENT)}"

# ---- the compiled-in install folder, and an empty search ---------------
# A copy outside the build tree searches lib/boostlab beside its folder,
# then the install folder, not plugins/.
mkdir -p "$TMP/bin" "$TMP/empty"
cp "$BL" "$TMP/bin/boostlab"
if [[ -d $BL_PKGLIBDIR ]]; then
  # installed: the copy loads the plugins from the configured folder
  "$TMP/bin/boostlab" plugins stump >"$TMP/out" 2>&1 || fail "installed copy: $(cat "$TMP/out")"
  grep -qF "file: $BL_PKGLIBDIR/" "$TMP/out" || fail "stump not from $BL_PKGLIBDIR: $(cat "$TMP/out")"
else
  for cmd in "plugins" "train --data $SRC/data/iris.csv --recipe mcboost-exp --model $TMP/m" \
             "run $SRC/experiments/quickstart.ini"; do
    # shellcheck disable=SC2086
    expect_fail 1 "no plugins found; searched: $TMP/lib/boostlab \(missing\), $BL_PKGLIBDIR \(missing\)" \
      -- "$TMP/bin/boostlab" $cmd
  done
  BOOSTLAB_PLUGIN_PATH=$TMP/empty expect_fail 1 \
    "no plugins found; searched: $TMP/lib/boostlab \(missing\), $BL_PKGLIBDIR \(missing\), $TMP/empty" \
    -- "$TMP/bin/boostlab" plugins
fi
# lib/boostlab beside the binary's folder (a moved install, a bundle) comes
# first, and alone: found from the real path of a symbolic link too
mkdir -p "$TMP/pre/bin" "$TMP/pre/lib/boostlab"
cp "$BL" "$TMP/pre/bin/boostlab"
cp "$FX/good_loss.so" "$TMP/pre/lib/boostlab/"
ln -s "$TMP/pre/bin/boostlab" "$TMP/bin/linked"
"$TMP/bin/linked" plugins >"$TMP/out" 2>&1 || fail "a copy beside lib/boostlab: $(cat "$TMP/out")"
grep -q '^fixture-sq ' "$TMP/out" && ! grep -q '^stump ' "$TMP/out" ||
  fail "lib/boostlab beside the binary not used alone: $(cat "$TMP/out")"

# ---- stray shared objects ------------------------------------------------
mkdir -p "$TMP/mixed"
cp "$FX/good_loss.so" "$FX/no_entry.so" "$TMP/mixed/"
printf 'not an ELF file\n' >"$TMP/mixed/junk.so"
BOOSTLAB_PLUGIN_PATH=$TMP/mixed "$BL" plugins >"$TMP/out" 2>"$TMP/err" || fail "a stray .so failed 'plugins': $(cat "$TMP/err")"
grep -q '^fixture-sq ' "$TMP/out" || fail "the good plugin beside stray files was not listed"
grep -q "warning: $TMP/mixed/junk.so: skipped" "$TMP/err" || fail "junk.so not named: $(cat "$TMP/err")"
grep -q "warning: $TMP/mixed/no_entry.so: skipped, not a boostlab plugin" "$TMP/err" || fail "no_entry.so not named: $(cat "$TMP/err")"
[[ $(grep -c 'junk.so' "$TMP/err") -eq 1 ]] || fail "junk.so warned more than once"
# named on its own, or a real plugin that is broken: still an error
BOOSTLAB_PLUGIN_PATH=$TMP/mixed/no_entry.so expect_fail 1 "no_entry.so: not a boostlab plugin" -- "$BL" plugins
cp "$FX/bad_version.so" "$TMP/mixed/"
BOOSTLAB_PLUGIN_PATH=$TMP/mixed expect_fail 1 "bad_version.so: .*SDK 3.0" -- "$BL" plugins

# ---- an experiment's plugin_path ---------------------------------------
mkdir -p "$TMP/exp/myplugins" "$TMP/elsewhere"
cp "$FX/good_loss.so" "$TMP/exp/myplugins/"
cat >"$TMP/exp/sq.ini" <<INI
[experiment]
iterations = 3
output = $TMP/res
plugin_path = myplugins
[data iris]
file = $SRC/data/iris.csv
[algorithm a]
recipe = mcboost-exp
loss = fixture-sq
INI
# without it: the error names the folders searched and how to add one
sed '/^plugin_path/d' "$TMP/exp/sq.ini" >"$TMP/exp/nopath.ini"
expect_fail 1 "no loss plugin named 'fixture-sq' .*searched: $BL_TOP_BUILDDIR/plugins.*BOOSTLAB_PLUGIN_PATH.*plugin_path" \
  -- "$BL" run --check "$TMP/exp/nopath.ini"
sed 's/^plugin_path = .*/plugin_path = nowhere/' "$TMP/exp/sq.ini" >"$TMP/exp/bad.ini"
expect_fail 1 "bad.ini:4: \[experiment\] plugin_path: 'nowhere' is neither" -- "$BL" run --check "$TMP/exp/bad.ini"
# from another folder: plugin_path is relative to the experiment file
(cd "$TMP/elsewhere" && "$BL" run --quiet "$TMP/exp/sq.ini" >/dev/null 2>"$TMP/err") || fail "plugin_path run: $(cat "$TMP/err")"
grep -qx "plugin_path = $TMP/exp/myplugins" "$TMP/res/experiment.ini" || fail "resolved INI lacks the plugin folder"
# the resolved INI reruns on its own, from anywhere
rm -f "$TMP/res/results.sqlite"
(cd / && "$BL" run --quiet --output "$TMP/res2" "$TMP/res/experiment.ini" >/dev/null 2>"$TMP/err") || fail "rerun from the resolved INI: $(cat "$TMP/err")"
grep -qP "^fixture-sq\tloss\t[0-9a-f]{16}\t$TMP/exp/myplugins/good_loss.so\t" "$TMP/res/plugins.tsv" || fail "plugins.tsv: $(cat "$TMP/res/plugins.tsv")"
grep -qP "^stump\tweak\t[0-9a-f]{16}\t$BL_TOP_BUILDDIR/plugins/" "$TMP/res/plugins.tsv" || fail "plugins.tsv lacks stump"
# BOOSTLAB_PLUGIN_PATH's folders are kept too, so a rerun needs no environment
sed '/^plugin_path/d;s#/res$#/res3#' "$TMP/exp/sq.ini" >"$TMP/exp/env.ini"
BOOSTLAB_PLUGIN_PATH=$TMP/exp/myplugins "$BL" run --quiet "$TMP/exp/env.ini" >/dev/null 2>"$TMP/err" || fail "env run: $(cat "$TMP/err")"
grep -qx "plugin_path = $TMP/exp/myplugins" "$TMP/res3/experiment.ini" || fail "resolved INI lacks BOOSTLAB_PLUGIN_PATH's folder"
"$BL" report --quiet --no-plots "$TMP/res3" >/dev/null 2>"$TMP/err" || fail "report: $(cat "$TMP/err")"
grep -q "BOOSTLAB_PLUGIN_PATH=$TMP/exp/myplugins boostlab run" "$TMP/res3/report/report.md" || fail "the rerun command lacks the plugin folder: $(grep -n "boostlab run" "$TMP/res3/report/report.md")"

# ---- who may have written a plugin -------------------------------------
# world-writable, not sticky: refused (even root's)
mkdir -p "$TMP/ww" && cp "$FX/good_loss.so" "$TMP/ww/" && chmod 777 "$TMP/ww"
BOOSTLAB_PLUGIN_PATH=$TMP/ww expect_fail 1 "refusing a plugin in the world-writable directory $TMP/ww: it is writable by every user and not sticky" -- "$BL" plugins
if [[ $(id -u) -eq 0 ]]; then
  # a sticky world-writable folder of another user's: refused
  mkdir -p "$TMP/st" && cp "$FX/good_loss.so" "$TMP/st/" && chmod 1777 "$TMP/st" && chown 65534 "$TMP/st"
  BOOSTLAB_PLUGIN_PATH=$TMP/st expect_fail 1 "$TMP/st: it is writable by every user and not root's" -- "$BL" plugins
  # root's sticky folder (like /tmp): fine, but not a file another user owns
  chown 0 "$TMP/st"
  BOOSTLAB_PLUGIN_PATH=$TMP/st "$BL" plugins >/dev/null 2>"$TMP/err" || fail "root's sticky folder refused: $(cat "$TMP/err")"
  chown 65534 "$TMP/st/good_loss.so"
  BOOSTLAB_PLUGIN_PATH=$TMP/st expect_fail 1 "good_loss.so: refusing a plugin file of uid 65534: it belongs to another user" -- "$BL" plugins
fi
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# The reference documentation in docs/reference is current: the generated
# pages (plugins, commands, SDK) are what scripts/gen-reference.sh makes of
# this build, byte for byte and the same from any directory; every key the
# loader accepts (read from its own error messages) has a row in ini.md and
# every key ini.md documents is accepted; the Markdown plugin listing covers
# every plugin and parameter; every command has a working --help and a man
# page whose NAME describes it, with EXAMPLES and the ENVIRONMENT variables
# (checked on the rendered pages when man or groff is installed).
. "$(dirname "$0")/lib.sh"

BUILD=${BL_TOP_BUILDDIR:-.}
REF=$SRC/docs/reference
INI=$REF/ini.md
unset BOOSTLAB_PLUGIN_PATH BOOSTLAB_CONFIG_PATH

# ---- the generated pages are current ------------------------------------------
sh "$SRC/scripts/gen-reference.sh" -o "$TMP/ref" "$BUILD" >"$TMP/gen.out" 2>"$TMP/gen.err" ||
  fail "scripts/gen-reference.sh failed: $(head -c 600 "$TMP/gen.err")"
for f in plugins commands sdk; do
  if [[ ! -f $TMP/ref/$f.md ]]; then
    fail "scripts/gen-reference.sh wrote no $f.md"
  elif [[ ! -f $REF/$f.md ]]; then
    fail "docs/reference/$f.md is missing: run scripts/gen-reference.sh and commit the result"
  elif ! cmp -s "$TMP/ref/$f.md" "$REF/$f.md"; then
    fail "docs/reference/$f.md is out of date: run scripts/gen-reference.sh (after make) and" \
      "commit the result; the differences begin:
$(diff -u "$REF/$f.md" "$TMP/ref/$f.md" | head -n 24)"
  fi
done
# the same bytes again, from another directory (no dates, no cwd, no order of files)
(cd "$TMP" && sh "$SRC/scripts/gen-reference.sh" -o "$TMP/ref2" "$BUILD" >/dev/null 2>&1)
for f in plugins commands sdk; do
  cmp -s "$TMP/ref/$f.md" "$TMP/ref2/$f.md" 2>/dev/null ||
    fail "gen-reference.sh gives a different $f.md on a second run: it must be deterministic"
done
for d in "$(cd "$SRC" && pwd)" "$(cd "$BUILD" && pwd)" "$TMP"; do
  grep -lF "$d/" "$TMP"/ref/*.md >"$TMP/paths" &&
    fail "generated pages hold the path $d: $(cat "$TMP/paths")"
done

# ---- commands: every one has a --help, a section in commands.md, a man page -----
"$BL" --help >"$TMP/help" || fail "boostlab --help failed"
awk '/^Commands:/ { on = 1; next } on && /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }' \
  "$TMP/help" | sort >"$TMP/cmds-help"
"$BL" no-such-command >/dev/null 2>"$TMP/unknown"
sed -n 's/.*(commands: \([^)]*\)).*/\1/p' "$TMP/unknown" | tr ',' '\n' | tr -d ' ' |
  grep . | sort >"$TMP/cmds-known"
[[ -s $TMP/cmds-known ]] || fail "no command list in the unknown-command error: $(cat "$TMP/unknown")"
cmp -s "$TMP/cmds-help" "$TMP/cmds-known" ||
  fail "boostlab --help lists other commands than the dispatcher knows:" \
    "$(diff "$TMP/cmds-help" "$TMP/cmds-known" | grep '^[<>]' | tr '\n' ' ')"
for c in $(cat "$TMP/cmds-known"); do
  "$BL" "$c" --help >"$TMP/chelp" 2>"$TMP/cerr"
  rc=$?
  [[ $rc -eq 0 ]] || fail "'boostlab $c --help' exited $rc: $(head -c 200 "$TMP/cerr")"
  head -n 1 "$TMP/chelp" | grep -q "^Usage: .*boostlab $c" ||
    fail "'boostlab $c --help' does not start with 'Usage: boostlab $c': $(head -n 1 "$TMP/chelp")"
  grep -qx "## boostlab $c" "$REF/commands.md" || fail "commands.md has no section for $c"
  page=$BUILD/man/boostlab-$c.1
  if [[ ! -s $page ]]; then
    fail "no man page $page (the build makes it with help2man)"
  elif grep -q "unknown command" "$page"; then
    fail "$page is stale: it documents 'unknown command' (rebuild it: make)"
  fi
done
[[ -s $BUILD/man/boostlab.1 ]] || fail "no man page $BUILD/man/boostlab.1"

# Each man page is a useful page: a NAME line that describes the command
# (not help2man's bare "boostlab-run - boostlab run"), EXAMPLES that run
# the command, and the environment variables; and it renders.
# render PAGE: the page as text, or nothing when neither man nor groff works
render() {
  local r=
  if command -v man >/dev/null; then
    r=$(MANWIDTH=80 MANPAGER=cat PAGER=cat man -l "$1" 2>/dev/null | sed 's/.\x08//g')
    grep -q '^NAME' <<<"$r" || r= # a stub man (minimised systems): try groff
  fi
  if [[ -z $r ]] && command -v groff >/dev/null; then
    r=$(groff -man -Tascii -P-c "$1" 2>/dev/null | sed 's/.\x08//g')
  fi
  printf '%s' "$r"
}
# man_section TEXT HEADING: the lines under HEADING of a rendered page
man_section() { awk -v h="$2" '$0 == h { on = 1; next } on && /^[A-Z]/ { exit } on' <<<"$1"; }
norender=
for c in '' $(cat "$TMP/cmds-known"); do
  page=$BUILD/man/boostlab${c:+-$c}.1
  [[ -s $page ]] || continue
  text=$(render "$page")
  if [[ -z $text ]]; then
    norender=1
    continue
  fi
  name=$(man_section "$text" NAME | tr -s ' \n' '  ' | sed 's/^ *//; s/ *$//')
  desc=${name#* - }
  [[ $name == "boostlab${c:+-$c} - "* ]] || fail "$page: NAME is '$name', not 'boostlab${c:+-$c} - ...'"
  [[ $(wc -w <<<"$desc") -ge 4 && $desc != "boostlab $c" ]] ||
    fail "$page: NAME '$name' does not describe the command (docs/man/boostlab${c:+-$c}.h2m)"
  ex=$(man_section "$text" EXAMPLES)
  grep -q "^ *\(mpirun .*\)\?boostlab ${c:+$c }" <<<"$ex" ||
    fail "$page has no EXAMPLES running 'boostlab $c' (docs/man/boostlab${c:+-$c}.h2m)"
  env=$(man_section "$text" ENVIRONMENT)
  for v in BOOSTLAB_PLUGIN_PATH BOOSTLAB_CONFIG_PATH OMP_NUM_THREADS; do
    grep -q "^ *$v\$" <<<"$env" || fail "$page: ENVIRONMENT does not describe $v"
  done
  grep -q "^SEE ALSO" <<<"$text" || fail "$page has no SEE ALSO"
done
[[ -z $norender ]] || echo "SKIP: neither man nor groff renders man pages here; not checking their sections"
# every include file is a page's (a command's page that lost its command)
for f in "$SRC"/docs/man/boostlab*.h2m; do
  p=$(basename "$f" .h2m)
  [[ $p == boostlab ]] || grep -qx "${p#boostlab-}" "$TMP/cmds-known" ||
    fail "docs/man/$p.h2m is not the page of a command"
done

# ---- plugins: the Markdown listing covers every plugin and parameter ------------
"$BL" plugins >"$TMP/pl.txt" || fail "boostlab plugins failed"
"$BL" plugins --format text >"$TMP/pl2.txt" || fail "boostlab plugins --format text failed"
cmp -s "$TMP/pl.txt" "$TMP/pl2.txt" || fail "--format text differs from the default listing"
"$BL" plugins --format markdown >"$TMP/pl.md" || fail "boostlab plugins --format markdown failed"
names=$(tail -n +2 "$TMP/pl.txt" | awk '{ print $1 }')
[[ -n $names ]] || fail "boostlab plugins lists no plugin"
for p in $names; do
  grep -qx "### \`$p\`" "$TMP/pl.md" || fail "plugins --format markdown has no section for $p"
  # its parameters, as the text form lists them, are rows of its table
  "$BL" plugins "$p" | awk '/^  parameter / { on = 1; next } on && NF { print $1 }' >"$TMP/params"
  awk -v h="### \`$p\`" '$0 == h { on = 1; next } on && /^##/ { exit } on' "$TMP/pl.md" \
    >"$TMP/section"
  while read -r q; do
    grep -qF "| \`$q\` |" "$TMP/section" || fail "plugins.md: $p lacks a row for parameter $q"
  done <"$TMP/params"
  if [[ ! -s $TMP/params ]]; then
    grep -q "^No parameters\.$" "$TMP/section" || fail "plugins.md: $p should say 'No parameters.'"
  fi
done
n=$(grep -c '^### ' "$TMP/pl.md")
[[ $n -eq $(wc -w <<<"$names") ]] || fail "plugins --format markdown has $n sections for" \
  "$(wc -w <<<"$names") plugins"
expect_fail 2 "--format expects text or markdown" -- "$BL" plugins --format html

# ---- ini.md: every accepted key documented, every documented key accepted -------
# accepted keys, from the loader's own "unknown key ... (accepted: ...)" errors
accepted() { sed -n 's/.*(accepted: \([^)]*\)).*/\1/p' "$1" | tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep .; }
DATA=$SRC/data/iris.csv
printf '[experiment]\nno_such_key = 1\n[data d]\nfile = %s\n[algorithm a]\nrecipe = samme\n' \
  "$DATA" >"$TMP/k-exp.ini"
printf '[data d]\nfile = %s\nno_such_key = 1\n[algorithm a]\nrecipe = samme\n' "$DATA" >"$TMP/k-data.ini"
printf '[data d]\nfile = %s\n[algorithm a]\nrecipe = samme\nno_such_key = 1\n' "$DATA" >"$TMP/k-algo.ini"
mkdir -p "$TMP/cfg"
printf '[recipe]\nno_such_key = 1\n' >"$TMP/cfg/k-recipe.ini"
printf '[data d]\nfile = %s\n[algorithm a]\nrecipe = k-recipe\n' "$DATA" >"$TMP/k-recipe.ini"
printf '[no_such_section]\n' >"$TMP/k-section.ini"
for k in exp data algo section; do
  "$BL" run --check "$TMP/k-$k.ini" >/dev/null 2>"$TMP/e-$k"
done
BOOSTLAB_CONFIG_PATH=$TMP/cfg "$BL" run --check "$TMP/k-recipe.ini" >/dev/null 2>"$TMP/e-recipe"

# section TITLE: the text of ini.md under the heading "## TITLE"
section() { awk -v h="## $1" '$0 == h { on = 1; next } on && /^## / { exit } on' "$INI"; }
# documented HEADING KEY: a row of the section's tables starts with the key
documented() {
  local k=$2
  if [[ $k == *.\* ]]; then
    section "$1" | grep -qF "| \`${k%\*}"
  else
    section "$1" | grep -qF "| \`$k\` |"
  fi
}
check_keys() { # ERRFILE HEADING WHAT
  local keys
  keys=$(accepted "$1")
  [[ -n $keys ]] || { fail "no 'accepted:' list for $3 keys in: $(cat "$1")"; return; }
  [[ -n $(section "$2") ]] || { fail "ini.md has no section '## $2'"; return; }
  for k in $keys; do
    documented "$2" "$k" || fail "ini.md does not document the $3 key '$k' (under '## $2')"
  done
}
[[ -f $INI ]] || fail "docs/reference/ini.md is missing"
check_keys "$TMP/e-exp" '`[experiment]`' experiment
check_keys "$TMP/e-data" '`[data NAME]`' data
check_keys "$TMP/e-algo" '`[algorithm NAME]`' algorithm
check_keys "$TMP/e-recipe" '`[algorithm NAME]`' recipe
grep -q '^## .*`\[recipe\]`' "$INI" || fail "ini.md has no section on recipe files ([recipe])"
secs=$(accepted "$TMP/e-section")
[[ -n $secs ]] || fail "no 'accepted:' list of sections in: $(cat "$TMP/e-section")"
while read -r s; do
  [[ -z $s ]] || grep -qxF "## \`$s\`" "$INI" || fail "ini.md has no section '## \`$s\`'"
done <<<"$secs"

# the other way round: each key of the key tables is one the loader accepts
# (a value error is fine, "unknown key" is not)
table_keys() { # the first column of the section's "| key |" table
  section "$1" | awk '/^\| key \|/ { on = 1; next } on && !/^\|/ { exit }
                      on && /^\| `/ { split($0, c, "`"); print c[2] }'
}
try_key() { # HEADING KEY: the INI that sets it to a nonsense value
  case $1 in
    *experiment*) printf '[experiment]\n%s = @\n[data d]\nfile = %s\n[algorithm a]\nrecipe = samme\n' "$2" "$DATA" ;;
    *data*) printf '[data d]\nfile = %s\n%s = @\n[algorithm a]\nrecipe = samme\n' "$DATA" "$2" ;;
    *) printf '[data d]\nfile = %s\n[algorithm a]\nrecipe = samme\n%s = @\n' "$DATA" "$2" ;;
  esac
}
for h in '`[experiment]`' '`[data NAME]`' '`[algorithm NAME]`'; do
  keys=$(table_keys "$h")
  [[ -n $keys ]] || fail "ini.md: no key table under '## $h'"
  for k in $keys; do
    [[ $k == file ]] && continue
    try_key "$h" "$k" >"$TMP/try.ini"
    "$BL" run --check "$TMP/try.ini" >/dev/null 2>"$TMP/try.err"
    grep -q "unknown key" "$TMP/try.err" &&
      fail "ini.md documents '$k' under '## $h', but the loader does not know it: $(cat "$TMP/try.err")"
  done
done
finish

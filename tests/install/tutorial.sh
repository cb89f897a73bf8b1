# SPDX-License-Identifier: GPL-3.0-or-later
# docs/tutorial.md, run as written against an INSTALLED boostlab:
#   tests/install/tutorial.sh DESTDIR PREFIX     (make installcheck runs it)
# DESTDIR is empty for a real install (make distcheck's), else the staging
# folder of `make install DESTDIR=...`.  After the tutorial, every installed
# template (loss, weak, solver, coding, task) is built against the installed
# SDK and run through check-plugin.
#
# The tutorial is the script.  Its machine-readable parts are HTML comments
# right before a fenced block, invisible when the page is rendered:
#   <!-- tutorial.sh: run -->                   shell commands, run verbatim
#   <!-- tutorial.sh: file PATH -->             the block is saved as PATH
#   <!-- tutorial.sh: edit FILE function NAME -->  the block replaces function
#                                               NAME (and the comment above it)
#   <!-- tutorial.sh: edit FILE line PREFIX --> the block replaces the one line
#                                               of FILE that starts with PREFIX
#   <!-- tutorial.sh: prefix-env -->            the settings for a non-default
#                                               prefix: run in a subshell with
#                                               its PREFIX= line set to this
#                                               install's and PKG_CONFIG_PATH
#                                               unset, then pkg-config must find
#                                               boostlab and PATH and MANPATH
#                                               must lead to the install
#   <!-- tutorial.sh: output -->                what the last run block printed
#                                               on stdout
#   <!-- tutorial.sh: output full -->           the same, compared only at the
#                                               tutorial's sizes (BL_TUTORIAL_FULL)
#                                               and without each line's last
#                                               three columns (the times)
# They run in document order in one bash process (so `cd` and `export`
# carry over) in a fresh temporary folder; then the outputs are checked.  A
# step that stops working, a code block that no longer compiles, an edit
# that no longer finds its target or an output block that differs from what
# its commands print fails the test, naming the tutorial line.  Outputs are
# compared with the session's folder written /home/you and the installed
# data folder /usr/local/share/boostlab, as the tutorial shows them.
#
# BL_TUTORIAL_WRITE=1 writes what the commands printed into the tutorial's
# output blocks instead of comparing (scripts/gen-tutorial.sh).
#
# Besides the environment (PATH and PKG_CONFIG_PATH point at the install;
# with a DESTDIR, a sysroot for pkg-config and a boostlab wrapper that adds
# the staged plugins and templates), two things differ from a reader's
# session: the data path /usr/local/share/boostlab in saved files becomes
# the installed one, and the experiment runs 3 repeats of 40 iterations
# instead of the tutorial's.  BL_TUTORIAL_FULL=1 keeps the tutorial's sizes
# and BL_TUTORIAL_KEEP=DIR keeps the session: that is how the tutorial's
# outputs were made.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

if [[ $# -ne 2 ]]; then
  echo "usage: $0 DESTDIR PREFIX" >&2
  exit 2
fi
DESTDIR=$1
PREFIX=$2
HERE=$(cd "$(dirname "$0")" && pwd)
DOC=$HERE/../../docs/tutorial.md
ROOT=$DESTDIR$PREFIX
REAL_BL=$ROOT/bin/boostlab

die() { echo "tutorial.sh: FAIL: $*" >&2; exit 1; }

[[ -f $DOC ]] || die "no tutorial at $DOC"
[[ -x $REAL_BL ]] || die "no installed boostlab at $REAL_BL"
# The installed data and templates: $PREFIX/share/boostlab unless the
# datadir was moved at configure time.
SHARE=$ROOT/share/boostlab
if [[ ! -d $SHARE/templates ]]; then
  SHARE=$(find "$ROOT" -type d -path '*/boostlab/templates' 2>/dev/null | head -n 1)
  SHARE=${SHARE%/templates}
fi
[[ -n $SHARE && -d $SHARE/templates && -d $SHARE/data ]] \
  || die "no installed templates and data under $ROOT"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bl-tutorial-XXXXXX") || die "mktemp failed"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/bin" "$WORK/blocks" "$WORK/home"

# ---- the environment of a reader whose boostlab is the installed one -----
export PATH="$WORK/bin:$ROOT/bin:$PATH"
pcdirs=
for d in "$ROOT"/lib*/pkgconfig "$ROOT"/share/pkgconfig; do
  [[ -f $d/boostlab.pc ]] && pcdirs="$pcdirs${pcdirs:+:}$d"
done
[[ -n $pcdirs ]] || die "no installed boostlab.pc under $ROOT"
export PKG_CONFIG_PATH="$pcdirs${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
unset BOOSTLAB_PLUGIN_PATH BOOSTLAB_CONFIG_PATH BOOSTLAB_TEMPLATE_DIR
if [[ -n $DESTDIR ]]; then
  # The .pc says includedir=$PREFIX/include: the sysroot puts DESTDIR in front.
  export PKG_CONFIG_SYSROOT_DIR=$DESTDIR
  # A staged boostlab looks for its plugins in $PREFIX/lib/boostlab, where
  # they are not (yet): a wrapper adds the staged ones to whatever the
  # tutorial puts in BOOSTLAB_PLUGIN_PATH.  Templates likewise.
  plugdir=$(dirname "$(find "$ROOT" -name 'margin_exp.so' -path '*/boostlab/*' | head -n 1)")
  [[ -d $plugdir ]] || die "no installed plugins under $ROOT"
  cat >"$WORK/bin/boostlab" <<EOF
#!/bin/sh
BOOSTLAB_PLUGIN_PATH='$plugdir'\${BOOSTLAB_PLUGIN_PATH:+:\$BOOSTLAB_PLUGIN_PATH}
BOOSTLAB_TEMPLATE_DIR='$SHARE/templates'
export BOOSTLAB_PLUGIN_PATH BOOSTLAB_TEMPLATE_DIR
exec '$REAL_BL' "\$@"
EOF
  chmod +x "$WORK/bin/boostlab"
fi
if ! command -v pkg-config >/dev/null 2>&1; then
  # no pkg-config on this machine: answer the tutorial's one question
  cat >"$WORK/bin/pkg-config" <<EOF
#!/bin/sh
[ "\$*" = "--cflags boostlab" ] && echo '-I$ROOT/include' && exit 0
exit 1
EOF
  chmod +x "$WORK/bin/pkg-config"
fi
CFLAGS_SDK=$(pkg-config --cflags boostlab) || die "pkg-config --cflags boostlab failed"

# ---- the tutorial's tagged blocks, as one script --------------------------
# awk writes every tagged block to blocks/N and a step per block to
# steps.sh, each preceded by the tutorial line it comes from.
awk -v B="$WORK/blocks" '
  function q(s) { gsub(/\047/, "\047\\\047\047", s); return "\047" s "\047" }
  /^<!-- tutorial\.sh: .* -->$/ {
    tag = $0; sub(/^<!-- tutorial\.sh: /, "", tag); sub(/ -->$/, "", tag)
    tagline = NR; want = 1; next
  }
  want && /^```/ {
    want = 0; n++; f = B "/" n
    if (tag ~ /^output( full)?$/) {
      # compared after the run: "block tag-line block-line run-block mode"
      if (!lastrun) { printf "docs/tutorial.md:%d: output before any run block\n", tagline > "/dev/stderr"; bad = 1 }
      print n, tagline, NR, lastrun, (tag == "output" ? "always" : "full") > (B "/outputs")
      inout = 1; printf "" > f; next
    }
    inblk = 1; printf "" > f; next
  }
  inout && /^```/ { inout = 0; close(f); next }
  inout { print > f; next }
  want && !/^[ \t]*$/ { printf "docs/tutorial.md:%d: tag not followed by a code block\n", tagline > "/dev/stderr"; bad = 1; want = 0 }
  inblk && /^```/ {
    inblk = 0; close(f)
    print "STEP_LINE=" tagline
    print "STEP_WHAT=" (tag == "run" ? "" : q(tag))
    split(tag, w, " ")
    if (w[1] == "run") { print "tut_run " n " " q(f); lastrun = n }
    else if (w[1] == "file") print "tut_file " q(w[2]) " " q(f)
    else if (w[1] == "prefix-env") print "tut_prefix_env " q(f)
    else if (w[1] == "edit" && w[3] == "function") print "tut_edit_function " q(w[2]) " " q(w[4]) " " q(f)
    else if (w[1] == "edit" && w[3] == "line") {
      p = tag; sub(/^edit [^ ]+ line /, "", p)
      print "tut_edit_line " q(w[2]) " " q(p) " " q(f)
    } else { printf "docs/tutorial.md:%d: unknown tag \"%s\"\n", tagline, tag > "/dev/stderr"; bad = 1 }
    next
  }
  inblk { print > f }
  END { if (inblk || inout) { print "docs/tutorial.md: unterminated code block" > "/dev/stderr"; bad = 1 }
        if (!n) { print "docs/tutorial.md: no tagged blocks" > "/dev/stderr"; bad = 1 }
        exit bad }
' "$DOC" >"$WORK/steps.sh" || die "cannot read the tutorial's steps"

cat >"$WORK/prelude.sh" <<'EOF'
set -eE -o pipefail
trap 'echo "tutorial.sh: FAIL: docs/tutorial.md:$STEP_LINE: step failed: ${STEP_WHAT:-$BASH_COMMAND}" >&2' ERR
STEP_LINE=0 STEP_WHAT=
# run N FILE: run block N in this shell, its stdout kept for output blocks
tut_run() {
  . "$2" >"$TUT_OUT/$1"
  cat "$TUT_OUT/$1"
}
# file PATH: save a block (installed data path, test-sized experiment)
tut_file() {
  mkdir -p "$(dirname "$1")"
  sed "s|/usr/local/share/boostlab/|$TUT_SHARE/|g" "$2" >"$1"
  if [[ -z ${BL_TUTORIAL_FULL:-} ]] && grep -q '^\[experiment\]' "$1"; then
    sed -i -e 's/^repeats = .*/repeats = 3/' -e 's/^iterations = .*/iterations = 40/' "$1"
  fi
}
# prefix-env: the tutorial's settings for another prefix, applied to this
# install's, must be all pkg-config, the shell and man need
tut_prefix_env() (
  grep -q '^PREFIX=' "$1" || { echo "the block sets no PREFIX=" >&2; exit 1; }
  unset PKG_CONFIG_PATH MANPATH
  . <(sed "s|^PREFIX=[^ ]*|PREFIX='$TUT_ROOT'|" "$1")
  pkg-config --cflags boostlab >/dev/null || { echo "pkg-config does not find boostlab with PKG_CONFIG_PATH=$PKG_CONFIG_PATH" >&2; exit 1; }
  [[ ${PATH%%:*} == "$TUT_ROOT/bin" ]] || { echo "PATH does not start with $TUT_ROOT/bin" >&2; exit 1; }
  [[ ! -d $TUT_ROOT/share/man || :$MANPATH: == *":$TUT_ROOT/share/man:"* ]] || { echo "MANPATH lacks $TUT_ROOT/share/man" >&2; exit 1; }
)
# edit FILE function NAME: the block replaces NAME's definition, from the
# comment right above it to the closing brace in column 0
tut_edit_function() {
  awk -v fn="$2" -v blk="$3" '
    { line[NR] = $0 }
    END {
      for (i = 1; i <= NR; i++)
        if (line[i] ~ ("^[a-z].*[ *]" fn "\\(")) { start = i; break }
      if (!start) { print "no function " fn > "/dev/stderr"; exit 1 }
      c = start
      while (c > 1 && line[c - 1] ~ /^(\/\*| \*)/) c--
      for (e = start; e <= NR && line[e] != "}"; e++) ;
      if (e > NR) { print "function " fn " has no closing brace" > "/dev/stderr"; exit 1 }
      for (i = 1; i < c; i++) print line[i]
      while ((getline l < blk) > 0) print l
      for (i = e + 1; i <= NR; i++) print line[i]
    }' "$1" >"$1.new" && mv "$1.new" "$1"
}
# edit FILE line PREFIX: the block replaces the single line starting (after
# blanks) with PREFIX
tut_edit_line() {
  local n
  n=$(awk -v p="$2" '{ s = $0; sub(/^[ \t]+/, "", s) } index(s, p) == 1' "$1" | wc -l)
  [[ $n -eq 1 ]] || { echo "$1: $n lines start with '$2', expected 1" >&2; return 1; }
  awk -v p="$2" -v blk="$3" '
    { s = $0; sub(/^[ \t]+/, "", s) }
    index(s, p) == 1 { while ((getline l < blk) > 0) print l; next }
    { print }' "$1" >"$1.new" && mv "$1.new" "$1"
}
EOF

# ---- run it --------------------------------------------------------------
echo "tutorial.sh: boostlab $REAL_BL, SDK flags '$CFLAGS_SDK', in $WORK"
(
  cd "$WORK/home" || exit 1
  export TUT_SHARE=$SHARE TUT_ROOT=$ROOT TUT_OUT=$WORK/out
  mkdir -p "$TUT_OUT"
  cat "$WORK/prelude.sh" "$WORK/steps.sh" >"$WORK/all.sh"
  bash "$WORK/all.sh"
) >"$WORK/log" 2>&1
rc=$?
if [[ $rc -ne 0 ]]; then
  tail -n 40 "$WORK/log" >&2
  die "the tutorial's steps stopped (exit $rc); the lines above are the end of their output"
fi

# ---- what the tutorial promises --------------------------------------------
cd "$WORK/home" || die "no work folder"
fails=0
check() { echo "tutorial.sh: FAIL: $*" >&2; fails=$((fails + 1)); }

T=$WORK/home/sq-hinge-tutorial
P=$T/sq-hinge
[[ -f $P/sq_hinge.c && -f $P/Makefile ]] || check "boostlab new made no sq-hinge/sq_hinge.c and Makefile"
[[ -f $P/sq_hinge.so ]] || check "no sq_hinge.so was built"
grep -q 'my-loss\|my_loss' "$P/sq_hinge.c" && check "sq_hinge.c still holds the template's names"
grep -q 'log1p' "$P/sq_hinge.c" && check "sq_hinge.c still computes the template's loss"
# the edited plugin is clean with warnings as errors, as the templates are
cc -shared -fPIC -Wall -Wextra -Werror $CFLAGS_SDK "$P/sq_hinge.c" -o "$WORK/werror.so" -lm \
  2>"$WORK/cc.err" || check "sq_hinge.c does not compile with -Wall -Wextra -Werror: $(head -c 600 "$WORK/cc.err")"
out=$(BOOSTLAB_PLUGIN_PATH=$P/sq_hinge.so boostlab plugins sq-hinge 2>&1)
grep -q '^sq-hinge (loss)' <<<"$out" && grep -q 'squared hinge' <<<"$out" \
  || check "boostlab plugins sq-hinge does not show the squared hinge: $out"
grep -q '^  margin .*\[0\.01, 1000000\] *1 ' <<<"$out" \
  || check "the margin parameter is not 1 in [0.01, 1e6]: $out"

R=$T/results/sqhinge-vs-exp
for f in summary.csv results.sqlite experiment.ini report/report.md report/report.html; do
  [[ -s $R/$f ]] || check "missing $R/$f"
done
if [[ -s $R/summary.csv ]]; then
  for a in mcboost-exp mcboost-sqhinge; do
    for d in vehicle glass wine vowel; do
      grep -q "^$d,$a," "$R/summary.csv" || check "summary.csv has no row for $d / $a"
    done
  done
  # every cell ran every repeat, with a plausible test error
  reps=3
  [[ -n ${BL_TUTORIAL_FULL:-} ]] && reps=$(sed -n 's/^repeats = //p' "$R/experiment.ini" | head -n 1)
  awk -F, -v reps="$reps" 'NR > 1 && ($3 != reps || $4 < 0 || $4 > 60) { print; bad = 1 } END { exit bad }' \
    "$R/summary.csv" >"$WORK/bad" || check "implausible rows in summary.csv: $(cat "$WORK/bad")"
fi
grep -q '^vehicle  *mcboost-sqhinge ' "$WORK/log" || check "boostlab run printed no mcboost-sqhinge row"
if [[ -s $R/report/report.md ]]; then
  grep -q 'mcboost-sqhinge' "$R/report/report.md" || check "report.md does not name mcboost-sqhinge"
  grep -qi 'wilcoxon' "$R/report/report.md" || check "report.md has no Wilcoxon test"
  grep -qi 'paired t' "$R/report/report.md" || check "report.md has no paired t-test"
  grep -q '\*\*[0-9]' "$R/report/report.md" || check "report.md marks no best result in bold"
fi

# ---- the output blocks are what the commands print --------------------------
# normalised: the session's folder as /home/you, the installed data folder
# as /usr/local/share/boostlab (with a DESTDIR too), as a reader's would be
normalise() {
  sed -e "s|$WORK/home|/home/you|g" -e "s|$SHARE|/usr/local/share/boostlab|g" "$1"
}
# drop_times: each line without its last three columns (summary times)
drop_times() { awk '{ NF = NF > 3 ? NF - 3 : NF; print }'; }
: >"$WORK/write"
if [[ -f $WORK/blocks/outputs ]]; then
  while read -r blk tagline blkline run mode; do
    if [[ $mode == full && -z ${BL_TUTORIAL_FULL:-} ]]; then
      continue
    fi
    normalise "$WORK/out/$run" >"$WORK/got"
    if [[ -n ${BL_TUTORIAL_WRITE:-} ]]; then
      # a block that differs only in its times keeps them: the prose quotes them
      if [[ $mode != full ]] ||
        ! cmp -s <(drop_times <"$WORK/blocks/$blk") <(drop_times <"$WORK/got"); then
        echo "$blkline $WORK/got.$blk" >>"$WORK/write"
        cp "$WORK/got" "$WORK/got.$blk"
      fi
    elif [[ $mode == full ]]; then
      cmp -s <(drop_times <"$WORK/blocks/$blk") <(drop_times <"$WORK/got") ||
        check "docs/tutorial.md:$tagline: the output block differs from what the commands print now (times aside; rerun scripts/gen-tutorial.sh):
$(diff <(drop_times <"$WORK/blocks/$blk") <(drop_times <"$WORK/got") | head -n 20)"
    else
      cmp -s "$WORK/blocks/$blk" "$WORK/got" ||
        check "docs/tutorial.md:$tagline: the output block differs from what the commands print now (rerun scripts/gen-tutorial.sh):
$(diff "$WORK/blocks/$blk" "$WORK/got" | head -n 20)"
    fi
  done <"$WORK/blocks/outputs"
fi
if [[ -s $WORK/write ]]; then
  # each listed block (by the line of its opening fence) gets the new text
  awk -v list="$WORK/write" '
    BEGIN { while ((getline l < list) > 0) { split(l, w, " "); file[w[1]] = w[2] } }
    skip && /^```/ { skip = 0 }
    skip { next }
    { print }
    (NR in file) { while ((getline l < file[NR]) > 0) print l; skip = 1 }
  ' "$DOC" >"$WORK/tutorial.md" && cat "$WORK/tutorial.md" >"$DOC" ||
    check "cannot write the outputs into $DOC"
  echo "tutorial.sh: wrote $(wc -l <"$WORK/write") output blocks into $DOC"
fi

# ---- beyond the tutorial: every installed template builds and checks -------
# against the installed SDK (pkg-config), task.h included
[[ -f $ROOT/include/boostlab/task.h ]] || check "task.h is not installed in $ROOT/include/boostlab"
for role in loss weak solver coding task; do
  [[ -d $SHARE/templates/$role ]] || { check "no installed $role template in $SHARE/templates"; continue; }
  boostlab new "$role" "inst-$role" "$WORK/tpl/$role" >"$WORK/tpl.out" 2>&1 \
    || { check "boostlab new $role: $(cat "$WORK/tpl.out")"; continue; }
  make -s -C "$WORK/tpl/$role" all check CFLAGS="-O2 -Werror" >"$WORK/tpl.out" 2>&1 \
    || check "the installed $role template does not build or pass check-plugin: $(tail -c 600 "$WORK/tpl.out")"
done

if [[ $fails -ne 0 ]]; then
  echo "--- end of the steps' output:" >&2
  tail -n 30 "$WORK/log" >&2
  exit 1
fi
# to refresh the tutorial's outputs: BL_TUTORIAL_KEEP=DIR keeps the session
if [[ -n ${BL_TUTORIAL_KEEP:-} ]]; then
  mkdir -p "$BL_TUTORIAL_KEEP" && cp -r "$WORK/home/." "$WORK/log" "$BL_TUTORIAL_KEEP/"
fi
echo "tutorial.sh: the tutorial's steps ran and their outputs check out"
exit 0

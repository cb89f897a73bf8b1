# SPDX-License-Identifier: GPL-3.0-or-later
# Shared helpers for the command-line tests (sourced, not run).
set -u
BL="${BL_TOP_BUILDDIR:-.}/boostlab"
SRC="${BL_TOP_SRCDIR:-.}"
TMP=$(mktemp -d /tmp/bl-cli-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect_fail STATUS PATTERN -- CMD...: CMD exits with STATUS and stderr matches PATTERN
expect_fail() {
  local want=$1 pat=$2; shift 3
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  [[ $got -eq $want ]] || fail "'$*' exited $got, expected $want"
  grep -qE -- "$pat" "$TMP/err" || fail "'$*': stderr lacks /$pat/: $(head -c 400 "$TMP/err")"
}

finish() {
  [[ $fails -eq 0 ]] && echo "all checks passed" && exit 0
  exit 1
}

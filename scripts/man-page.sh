#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Write the man page of `boostlab [COMMAND]` with help2man: its --help,
# plus the NAME line, EXAMPLES (and any other sections) of
# H2M_DIR/boostlab[-COMMAND].h2m and the ENVIRONMENT and SEE ALSO of
# H2M_DIR/common.h2m:
#   man-page.sh HELP2MAN VERSION BOOSTLAB COMMAND|'' OUT H2M_DIR
set -eu
help2man=$1 version=$2 bl=$3 cmd=$4 out=$5 h2m=$6
page=boostlab${cmd:+-$cmd}
for f in "$h2m/$page.h2m" "$h2m/common.h2m"; do
  [ -f "$f" ] || { echo "$0: no $f: every man page needs its include file" >&2; exit 1; }
done
mkdir -p "$(dirname "$out")"
if [ -z "$cmd" ]; then
  exec "$help2man" --no-info --no-discard-stderr --version-string="$version" \
    --include="$h2m/$page.h2m" --include="$h2m/common.h2m" "$bl" -o "$out"
fi
# help2man runs PROGRAM --help and --version, and names the page after
# it: a wrapper called boostlab-COMMAND makes the command one program
dir=$(mktemp -d "${TMPDIR:-/tmp}/bl-man-XXXXXX")
trap 'rm -rf "$dir"' EXIT
case $bl in /*) ;; *) bl=$(pwd)/$bl ;; esac
printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$bl" "$cmd" >"$dir/$page"
chmod +x "$dir/$page"
"$help2man" --no-info --no-discard-stderr --version-string="$version" \
  --include="$h2m/$page.h2m" --include="$h2m/common.h2m" "$dir/$page" -o "$out"

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Write the man page of `boostlab [COMMAND]` from its --help with help2man:
#   man-page.sh HELP2MAN VERSION BOOSTLAB COMMAND|'' OUT
set -eu
help2man=$1 version=$2 bl=$3 cmd=$4 out=$5
mkdir -p "$(dirname "$out")"
if [ -z "$cmd" ]; then
  exec "$help2man" --no-info --no-discard-stderr --version-string="$version" \
    --name='plugin-based multi-class and structured boosting' "$bl" -o "$out"
fi
# help2man runs PROGRAM --help and --version, and names the page after
# it: a wrapper called boostlab-COMMAND makes the command one program
dir=$(mktemp -d "${TMPDIR:-/tmp}/bl-man-XXXXXX")
trap 'rm -rf "$dir"' EXIT
case $bl in /*) ;; *) bl=$(pwd)/$bl ;; esac
printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$bl" "$cmd" >"$dir/boostlab-$cmd"
chmod +x "$dir/boostlab-$cmd"
"$help2man" --no-info --no-discard-stderr --version-string="$version" \
  --name="boostlab $cmd" "$dir/boostlab-$cmd" -o "$out"

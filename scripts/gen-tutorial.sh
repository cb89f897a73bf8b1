#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Regenerate the output blocks of docs/tutorial.md (those tagged
# `<!-- tutorial.sh: output -->` or `output full`) from a run: install the
# build into a temporary staging folder, run the tutorial at its full sizes
# with tests/install/tutorial.sh, and write what each command printed into
# its block.  make installcheck (tutorial.sh) fails until the committed
# blocks are what the commands print.
#
#   scripts/gen-tutorial.sh [BUILD_DIR]
#
# BUILD_DIR holds the configured and built tree (default: the source tree).
# The prose around the blocks (numbers quoted from the summary table, the
# report's tests) is not rewritten: read the diff.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src}" && pwd)
[ -f "$build/Makefile" ] || { echo "$0: $build is not a configured build folder" >&2; exit 1; }
prefix=$(sed -n 's/^prefix = //p' "$build/Makefile" | head -n 1)
stage=$(mktemp -d "${TMPDIR:-/tmp}/bl-gen-tutorial-XXXXXX")
trap 'rm -rf "$stage"' EXIT
make -C "$build" -s install DESTDIR="$stage" >"$stage.log" 2>&1 ||
  { tail -n 20 "$stage.log" >&2; rm -f "$stage.log"; echo "$0: make install failed" >&2; exit 1; }
rm -f "$stage.log"
BL_TUTORIAL_FULL=1 BL_TUTORIAL_WRITE=1 bash "$src/tests/install/tutorial.sh" "$stage" "$prefix"

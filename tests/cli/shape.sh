# SPDX-License-Identifier: GPL-3.0-or-later
# The engine keeps the shape docs/architecture.md describes: no function in
# framework/engine/ runs past 120 lines (the loop is phases over a score
# space, not a branch per algorithm), engine/ headers include nothing from
# config/ (the engine owns its parameters, engine/param.h), and the SDK
# headers name no minor version in their declarations (history lives in
# docs/sdk.md's changelog).  Then shows on made-up files that each check
# can fail.
. "$(dirname "$0")/lib.sh"

MAX_LINES=120

# long_functions FILE...: "FILE:LINE NAME N" for each function over MAX_LINES
# (a definition starts at column 0 and ends at the first "}" in column 0)
long_functions() {
  awk -v max="$MAX_LINES" '
    FNR == 1 { start = 0 }
    /^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ && !start { start = FNR; name = $0; next }
    start && /^\}/ {
      if (FNR - start + 1 > max) printf "%s:%d %s (%d lines)\n", FILENAME, start, name, FNR - start + 1
      start = 0
    }
    start && /;[[:space:]]*$/ && FNR == start + 1 && !/^[[:space:]]/ { start = 0 }' "$@"
}

# config_includes FILE...: engine headers' includes of config/
config_includes() { grep -Hn '#include "[^"]*config/' "$@"; }

# sdk_minors FILE...: lines of the SDK headers naming a 1.x / 2.x minor
sdk_minors() { grep -HnE 'SDK [0-9]+\.[0-9]+|BL_SDK_HAS' "$@"; }

long_functions "$SRC"/framework/engine/*.c >"$TMP/long"
[[ -s $TMP/long ]] && fail "functions in framework/engine/ over $MAX_LINES lines: $(cat "$TMP/long")"
config_includes "$SRC"/framework/engine/*.h >"$TMP/inc" &&
  fail "engine headers include config/: $(cat "$TMP/inc")"
sdk_minors "$SRC"/include/boostlab/*.h >"$TMP/minor" &&
  fail "the SDK headers name a minor version: $(head -n 5 "$TMP/minor")"

# ---- each check sees its fault ------------------------------------------------
{
  echo "static int short_one(void)"
  echo "{"
  echo "    return 0;"
  echo "}"
  echo "int long_one(int x)"
  echo "{"
  for i in $(seq 1 $MAX_LINES); do echo "    x += $i;"; done
  echo "    return x;"
  echo "}"
} >"$TMP/fake.c"
long_functions "$TMP/fake.c" >"$TMP/out"
grep -q "fake.c:5 int long_one(int x) ($((MAX_LINES + 4)) lines)" "$TMP/out" ||
  fail "a $((MAX_LINES + 4))-line function was not seen: $(cat "$TMP/out")"
grep -q short_one "$TMP/out" && fail "a 4-line function was reported"
printf '#include "../config/experiment.h"\n' >"$TMP/fake.h"
config_includes "$TMP/fake.h" >/dev/null || fail "an engine header including config/ was not seen"
printf '/* optional (SDK 1.6) */\nint f(void);\n' >"$TMP/sdk.h"
sdk_minors "$TMP/sdk.h" >/dev/null || fail "an SDK minor in a header was not seen"
finish

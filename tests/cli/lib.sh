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

# build_crashy_coding OUT.so [CFLAGS...]: compile (with $CC, default cc) a
# coding plugin "crashy" whose create crashes for 4 classes (-DHANG: hangs
# there instead); its stderr goes to $TMP/cc.err.
# Fails when there is no working C compiler.
build_crashy_coding() {
  cat >"$TMP/crashy.c" <<'C'
#include <boostlab/coding.h>
#include <stdio.h>
#include <unistd.h>
static size_t K;
static void *cr(const struct bl_host *h, const union bl_value *v, size_t k, char *err)
{
    (void)h; (void)v;
    if (k < 2) { snprintf(err, BL_ERR_MAX, "k < 2"); return 0; }
#ifdef HANG
    if (k == 4) for (;;) sleep(1); /* a bug: hangs for 4 classes */
#else
    if (k == 4) { volatile int *p = 0; *p = 1; } /* a bug: crashes for 4 classes */
#endif
    K = k;
    return &K;
}
static void de(void *s) { (void)s; }
static size_t mc(const void *s) { (void)s; return 1; }
static int co(void *s, const int *y, size_t m, const double *G, uint64_t seed, double *M,
              size_t *c, char *err)
{
    (void)s; (void)y; (void)m; (void)G; (void)seed; (void)err;
    for (size_t r = 0; r < K; r++) M[r] = r ? -1 : 1;
    *c = 1;
    return 0;
}
static const struct bl_coding_ops ops = {.size = sizeof(struct bl_coding_ops), .create = cr, .destroy = de, .max_columns = mc, .code = co};
static const struct bl_plugin d = {BL_SDK_VERSION, BL_ROLE_CODING, "crashy", "crashes", 0, 0, &ops};
static const struct bl_plugin *const l[] = {&d, 0};
BL_EXPORT const struct bl_plugin *const *boostlab_plugin_entry(const struct bl_host *h);
const struct bl_plugin *const *boostlab_plugin_entry(const struct bl_host *h) { (void)h; return l; }
C
  "${CC:-cc}" -shared -fPIC -I"$SRC/include" "${@:2}" "$TMP/crashy.c" -o "$1" 2>>"$TMP/cc.err"
}

# run_curves NAME FIELDS: `boostlab run` of $TMP/NAME.ini (whose output is
# $TMP/NAME), then the curves' csv columns FIELDS (cut -f) into $TMP/NAME.csv.
run_curves() {
  "$BL" run -q "$TMP/$1.ini" >"$TMP/$1.log" 2>&1 || { fail "run $1: $(tail -3 "$TMP/$1.log")"; return 1; }
  "$BL" results --curves -f csv "$TMP/$1" | cut -d, -f"$2" >"$TMP/$1.csv"
}

finish() {
  [[ $fails -eq 0 ]] && echo "all checks passed" && exit 0
  exit 1
}

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Build the libFuzzer harnesses of fuzz/ (with the framework's reader
# sources and the plugins, instrumented: clang -fsanitize=fuzzer,address,
# undefined) and run each for a while on a copy of its seed corpus.
#
#   bash scripts/fuzz.sh [SECONDS] [READER...]
#
# SECONDS: per reader (default: $FUZZ_SECONDS, else 20); READER: any of
# csv libsvm idx ini model (default: all, one after the other).  Builds go
# to $FUZZ_BUILD_DIR (default fuzz/build, ignored by git); each run works in
# fuzz/build/run/READER/ (corpus copy, log, crash artifacts), so the
# committed corpus is never changed.  Prints one summary line per reader
# and exits non-zero if any harness crashed, leaked, hung or ran out of
# memory.  Needs clang (14 or later) with its runtime (Debian: clang-14,
# libclang-rt-14-dev), plus the project's build dependencies; no network.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

SECONDS_EACH=${FUZZ_SECONDS:-20}
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
  SECONDS_EACH=$1
  shift
fi
READERS=("$@")
[[ ${#READERS[@]} -eq 0 ]] && READERS=(csv libsvm idx ini model)
if ! [[ $SECONDS_EACH =~ ^[0-9]+$ ]] || [[ $SECONDS_EACH -lt 1 ]]; then
  echo "fuzz.sh: SECONDS must be a positive integer, got '$SECONDS_EACH'" >&2
  exit 2
fi
for r in "${READERS[@]}"; do
  [[ -f fuzz/fuzz_$r.c ]] || { echo "fuzz.sh: no harness fuzz/fuzz_$r.c" >&2; exit 2; }
done

BUILD=${FUZZ_BUILD_DIR:-$ROOT/fuzz/build}
mkdir -p "$BUILD" || exit 2
BUILD=$(cd "$BUILD" && pwd)

CC=${FUZZ_CC:-}
if [[ -z $CC ]]; then
  for c in clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do
    command -v "$c" >/dev/null 2>&1 && { CC=$c; break; }
  done
fi
CXX=${FUZZ_CXX:-${CC/clang/clang++}}
if [[ -z $CC ]]; then
  echo "fuzz.sh: clang not found (Debian: apt-get install clang-14 libclang-rt-14-dev)" >&2
  exit 2
fi

# ---- build ---------------------------------------------------------------
# Framework sources the readers need (not the CLI, the engine's training
# loop or the reports); OpenMP is left out: the readers do not use it, and so
# is XGBoost (xgbparam.c built without it refuses method = xgboost).
CORE_SRC=(framework/util/error.c framework/util/fsutil.c framework/util/textio.c
  framework/util/rng.c
  framework/data/dataset.c framework/data/csv.c framework/data/libsvm.c
  framework/data/idx.c framework/data/split.c framework/data/transform.c framework/data/sparse.c
  framework/config/ini.c framework/config/experiment.c framework/config/recipes.c
  framework/config/sweep.c framework/config/xgbparam.c
  framework/plugin/loader.c framework/plugin/params.c
  framework/engine/model.c framework/engine/project.c framework/engine/objective.c
  framework/engine/param.c)
# Every plugin of the tree (plugins/ROLE/NAME.c, or a folder
# plugins/ROLE/NAME/ of sources), as the loader finds them.
PLUGINS=()
for f in plugins/*/*.c; do PLUGINS+=("${f#plugins/}"); done
for f in plugins/*/*/; do
  [[ ${f%/} == plugins/common* ]] && continue
  compgen -G "${f}*.c" >/dev/null && PLUGINS+=("${f#plugins/}")
done

SAN=(-fsanitize=address,undefined -fno-sanitize-recover=undefined)
CFLAGS=(-g -O1 -fno-omit-frame-pointer -Wall -Wextra -Wno-unknown-pragmas
  -I"$ROOT/include" -I"$ROOT/framework"
  -DBL_BUILD_DIR="\"$BUILD\"" -DBL_SOURCE_DIR="\"$ROOT\""
  -DBL_PLUGIN_DIR="\"$BUILD/plugins\"" -DBL_DATA_DIR="\"$BUILD/share\"")
read -r -a PKG_CFLAGS <<<"$(pkg-config --cflags inih gsl zlib 2>/dev/null)"
read -r -a PKG_LIBS <<<"$(pkg-config --libs inih gsl zlib 2>/dev/null || echo -linih -lgsl -lgslcblas -lz)"
PKG_LIBS+=(-lvl) # VLFeat: the [data] section's hog (framework/data/transform.c)

# Rebuild an output when it is missing or older than any input given
# (sources and every header of the tree).
HEADERS=$(find include framework fuzz -name '*.h' -newer "$BUILD/.stamp" 2>/dev/null | head -n 1)
stale() { # out in...
  local out=$1; shift
  [[ ! -e $out || -n $HEADERS ]] && return 0
  local f
  for f in "$@"; do [[ $f -nt $out ]] && return 0; done
  return 1
}

build() {
  mkdir -p "$BUILD/obj" "$BUILD/plugins" || return 1
  # Stamp the start: a header edited while this build runs is then newer
  # than the stamp, and the next build starts over.
  touch "$BUILD/.stamp.new"
  local objs=() src obj
  for src in "${CORE_SRC[@]}"; do
    obj=$BUILD/obj/$(basename "${src%.c}").o
    objs+=("$obj")
    if stale "$obj" "$src"; then
      "$CC" "${CFLAGS[@]}" "${PKG_CFLAGS[@]}" "${SAN[@]}" -fsanitize=fuzzer-no-link \
        -c "$src" -o "$obj" || return 1
    fi
  done
  if stale "$BUILD/libcore.a" "${objs[@]}"; then
    rm -f "$BUILD/libcore.a"
    ar rcs "$BUILD/libcore.a" "${objs[@]}" || return 1
  fi
  local p so
  local srcs
  for p in "${PLUGINS[@]}"; do
    local cxx_objs=() cxx_libs=()
    if [[ $p == */ ]]; then # a folder plugin: all its sources
      so=$BUILD/plugins/${p%/}.so
      srcs=(plugins/"$p"*.c)
      # C++ shims (crf's over libmaxflow) are compiled apart and linked in
      local cc_src
      for cc_src in plugins/"$p"*.cc; do
        [[ -e $cc_src ]] || continue
        local cobj=$BUILD/obj/plugin-$(basename "${cc_src%.cc}").o
        "$CXX" -g -O1 -fno-omit-frame-pointer -fPIC "${SAN[@]}" -fsanitize=fuzzer-no-link \
          $(pkg-config --cflags maxflow) -c "$cc_src" -o "$cobj" || return 1
        cxx_objs+=("$cobj")
        read -r -a cxx_libs <<<"$(pkg-config --libs maxflow) -lstdc++"
      done
    else
      so=$BUILD/plugins/${p%.c}.so
      srcs=("plugins/$p")
    fi
    mkdir -p "$(dirname "$so")" || return 1
    if [[ ${#cxx_objs[@]} -gt 0 ]] || stale "$so" "${srcs[@]}"; then
      # Plugins are built without OpenMP here; warnings about that are noise.
      "$CC" "${CFLAGS[@]}" "${PKG_CFLAGS[@]}" -Wno-unused-variable -Wno-unknown-pragmas \
        "${SAN[@]}" -fsanitize=fuzzer-no-link -fPIC \
        -shared "${srcs[@]}" "${cxx_objs[@]}" -o "$so" -Wl,--as-needed -llbfgsb "${PKG_LIBS[@]}" \
        "${cxx_libs[@]}" -lm || return 1
    fi
  done
  # A plugin removed from the tree must not linger here (nor the flat
  # layout of earlier versions of this script).
  rm -f "$BUILD"/plugins/*.so
  for so in "$BUILD"/plugins/*/*.so; do
    [[ -e $so ]] || continue
    p=${so#"$BUILD"/plugins/}
    [[ -f plugins/${p%.so}.c || -d plugins/${p%.so} ]] || rm -f "$so"
  done
  local r
  for r in csv libsvm idx ini model; do
    if stale "$BUILD/fuzz_$r" "fuzz/fuzz_$r.c" "$BUILD/libcore.a"; then
      "$CC" "${CFLAGS[@]}" "${PKG_CFLAGS[@]}" "${SAN[@]}" -fsanitize=fuzzer \
        "fuzz/fuzz_$r.c" "$BUILD/libcore.a" -o "$BUILD/fuzz_$r" \
        "${PKG_LIBS[@]}" -ldl -lm || return 1
    fi
  done
  mv "$BUILD/.stamp.new" "$BUILD/.stamp"
}

# Two runs of this script at once (e.g. long runs side by side) share the
# build: the second waits for the first's.
exec 9>"$BUILD/.lock"
flock 9
if ! build; then
  echo "fuzz.sh: build failed" >&2
  exit 2
fi
flock -u 9

# ---- run -----------------------------------------------------------------
max_len() {
  case $1 in
    idx) echo 65536 ;;
    model) echo 16384 ;;
    *) echo 4096 ;;
  esac
}

# One allocation above the RSS limit is a finding too (a small input must
# not make a reader ask for gigabytes); libFuzzer's own -malloc_limit_mb
# does not catch large allocations that are never touched, ASan's cap does.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:max_allocation_size_mb=2048:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=0
summary=()
for r in "${READERS[@]}"; do
  work=$BUILD/run/$r
  rm -rf "$work"
  mkdir -p "$work/corpus" || exit 2
  cp -R "fuzz/corpus/$r/." "$work/corpus/" 2>/dev/null
  log=$work/fuzz.log
  echo "fuzz $r: ${SECONDS_EACH}s, log $log"
  # The harness's scratch files (in memory when /dev/shm is there).
  shm=/dev/shm
  [[ -d $shm && -w $shm ]] || shm=$work
  scratch=$(mktemp -d "$shm/boostlab-fuzz-$r.XXXXXX") || exit 2
  start=$(date +%s)
  FUZZ_TMPDIR=$scratch FUZZ_PLUGIN_DIR=$BUILD/plugins \
    "$BUILD/fuzz_$r" -max_total_time="$SECONDS_EACH" -max_len="$(max_len "$r")" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/" "$work/corpus" </dev/null >"$log" 2>&1
  rc=$?
  rm -rf "$scratch"
  took=$(( $(date +%s) - start ))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  [[ -z $runs ]] && runs=$(grep -o '^#[0-9]*' "$log" | tail -n 1 | tr -d '#')
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  crash=no
  if [[ $rc -ne 0 ]]; then
    crash=yes
    failed=1
    artifact=$(ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* \
      "$work"/slow-unit-* 2>/dev/null | head -n 1)
    echo "fuzz $r: FAILED (exit $rc); last lines of $log:"
    tail -n 40 "$log"
    [[ -n $artifact ]] && echo "fuzz $r: reproduce with: $BUILD/fuzz_$r $artifact"
  fi
  summary+=("fuzz $r: runs ${runs:-0}, cov ${cov:-?}, ft ${ft:-?}, ${took}s, crash $crash")
done
printf '%s\n' "${summary[@]}"
exit $failed

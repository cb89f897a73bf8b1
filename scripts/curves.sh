#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every recipe's curves, at full precision, from one build: the check that
# a change to the engine, a plugin or the loader leaves the documented
# numbers where they were.
#
#   scripts/curves.sh [-o FILE] [BUILD_DIR]    write the curves (stdout)
#   scripts/curves.sh --against REV [BUILD_DIR]
#                       build git revision REV in a scratch folder, write
#                       both builds' curves and compare them line by line
#   --ini FILE          the workload is experiment FILE instead (any
#                       experiment of experiments/, e.g. to hold a results
#                       page's runs to the old build's bit for bit)
#
# The workload is tests/curves/recipes.ini (every recipe of configs/ but
# XGBoost's, see tests/cli/curves.sh, on
# iris, glass and sonar, 20 iterations, one thread) plus the two CRF
# recipes on six constructed images.  Each run gives one line with its
# split seed, stop reason, iterations, trees and final figures, then one line per iteration (train loss, train and
# test error, edge, solver iterations, trees); doubles are written as C99
# hex floats, so equal text means equal bits.  Times are left out.  The
# resolved parameters of every algorithm follow, as the store keeps them
# (with this checkout's and the scratch folder's paths written SRC and
# TMP): the store keys runs by a hash of that text, so equal parameters
# mean that results stored by the other build are found again.
# tests/cli/curves.sh compares this output with tests/curves/curves.ref.
set -euo pipefail

usage() {
  echo "usage: $0 [-o FILE] [BUILD_DIR] | --against REV [BUILD_DIR]" >&2
  exit 2
}

src=$(cd "$(dirname "$0")/.." && pwd)
out= against= ini=
while [[ $# -gt 0 ]]; do
  case $1 in
    --ini) [[ $# -ge 2 ]] || usage; ini=$(cd "$(dirname "$2")" 2>/dev/null && pwd)/$(basename "$2"); shift 2 ;;
    -o | --output) [[ $# -ge 2 ]] || usage; out=$2; shift 2 ;;
    --against) [[ $# -ge 2 ]] || usage; against=$2; shift 2 ;;
    -h | --help)
      awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0"
      exit 0
      ;;
    -*) usage ;;
    *) break ;;
  esac
done
[[ $# -le 1 ]] || usage
build=$(cd "${1:-$src}" 2>/dev/null && pwd) || { echo "$0: no build folder ${1:-$src}" >&2; exit 1; }
[[ -x $build/boostlab ]] || { echo "$0: $build/boostlab is not built (make)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "$0: python3 is needed to read the results store" >&2; exit 1; }

if [[ -n $against ]]; then
  git -C "$src" rev-parse --verify -q "$against^{commit}" >/dev/null ||
    { echo "$0: $against is not a revision of $src" >&2; exit 1; }
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/bl-curves-XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  echo "building $against in $tmp/old ..." >&2
  mkdir "$tmp/old"
  git -C "$src" archive "$against" | tar -x -C "$tmp/old"
  (cd "$tmp/old" && autoreconf -fi >/dev/null 2>&1 && ./configure -q >/dev/null &&
    make -j"$(nproc)" >/dev/null 2>"$tmp/old.err") ||
    { echo "$0: building $against failed:" >&2; tail -n 20 "$tmp/old.err" >&2; exit 1; }
  # the workload is this tree's, so that both builds run the same experiment
  BL_CURVES_INI_DIR=$src/tests/curves "$0" ${ini:+--ini "$ini"} -o "$tmp/old.txt" "$tmp/old"
  "$0" ${ini:+--ini "$ini"} -o "$tmp/new.txt" "$build"
  if cmp -s "$tmp/old.txt" "$tmp/new.txt"; then
    echo "curves: $(grep -c '^run ' "$tmp/new.txt") runs, identical to $against bit for bit"
    exit 0
  fi
  echo "curves differ from $against (- $against, + this build):"
  diff -u "$tmp/old.txt" "$tmp/new.txt" | head -n 60
  exit 1
fi

ini_dir=${BL_CURVES_INI_DIR:-$src/tests/curves}
bl=$build/boostlab
unset BOOSTLAB_PLUGIN_PATH BOOSTLAB_CONFIG_PATH
export LC_ALL=C OMP_NUM_THREADS=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bl-curves-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# every recipe: recipes.ini, then the CRF recipes on six constructed images
# prepared as tests/cli/segment.sh does
recipes() {
  "$bl" run "$ini_dir/recipes.ini" -o "$tmp/runs" >/dev/null 2>"$tmp/err" ||
    { echo "$0: boostlab run recipes.ini failed:" >&2; tail -n 5 "$tmp/err" >&2; exit 1; }
  "$bl" segment make horse "$tmp/img" --seed 3 --images 6 --width 64 --height 48 >/dev/null &&
    "$bl" segment prepare "$tmp/img" "$tmp/prep" -i 10 -B 10 -q -j 1 >/dev/null ||
    { echo "$0: boostlab segment make/prepare failed" >&2; exit 1; }
  cat >"$tmp/crf.ini" <<INI
[experiment]
name = curves-crf
seed = 7
repeats = 1
iterations = 10
threads = 1
[data horse]
file = prep/train.csv
test_file = prep/test.csv
label = set
[algorithm structboost-crf]
recipe = structboost-crf
task.dir = prep
[algorithm ssvm-crf]
recipe = ssvm-crf
task.dir = prep
INI
  (cd "$tmp" && "$bl" run crf.ini -o runs >/dev/null 2>"$tmp/err") ||
    { echo "$0: boostlab run crf.ini failed:" >&2; tail -n 5 "$tmp/err" >&2; exit 1; }
}

if [[ -z $ini ]]; then
  recipes
else
  [[ -f $ini ]] || { echo "$0: no experiment file $ini" >&2; exit 1; }
  "$bl" run "$ini" -o "$tmp/runs" >/dev/null 2>"$tmp/err" ||
    { echo "$0: boostlab run $ini failed:" >&2; tail -n 5 "$tmp/err" >&2; exit 1; }
fi

python3 - "$tmp/runs/results.sqlite" "$tmp" "$src" >"$tmp/out" <<'PY'
import sqlite3, sys

db = sqlite3.connect(sys.argv[1])
def unpath(s):
    # the resolved parameters name this run's folders: write them the same
    # way from any checkout
    return s.replace(sys.argv[2], "TMP").replace(sys.argv[3], "SRC")
def h(v):
    return "nan" if v is None else float(v).hex()
runs = db.execute(
    "SELECT id, experiment, data, algo, data_hash, algo_hash, split_seed, rep, stop,"
    " iterations, trees, test_err, train_err, train_loss, loss0, train_err0, test_err0,"
    " params FROM runs ORDER BY experiment, data, algo, rep").fetchall()
params = {}
for r in runs:
    (rid, ex, data, algo, dh, ah, seed, rep, stop, iters, trees) = r[:11]
    print("run %s/%s/%s rep %d split %s stop %d iterations %d trees %s"
          % (ex, data, algo, rep, seed, stop, iters, trees))
    print("  final", " ".join(h(v) for v in r[11:17]))
    for m in db.execute("SELECT name, train, test FROM metrics WHERE run_id = ? ORDER BY name",
                        (rid,)):
        print("  metric", m[0], h(m[1]), h(m[2]))
    for c in db.execute("SELECT iter, train_loss, train_err, test_err, edge, solver_iters, trees"
                        " FROM curves WHERE run_id = ? ORDER BY iter", (rid,)):
        print("  %d" % c[0], " ".join(h(v) for v in c[1:5]), c[5], c[6])
    params.setdefault((ex, algo), r[17])
for (ex, algo), p in sorted(params.items()):
    print("params %s/%s" % (ex, algo))
    for line in (p or "").splitlines():
        print("  " + unpath(line))
PY
if [[ -n $out ]]; then
  cp "$tmp/out" "$out"
else
  cat "$tmp/out"
fi

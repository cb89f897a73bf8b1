#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's second command (and CI's): install what is missing, build,
# and run the test suite in five stages, each printing its time at its end:
#   check       make check: every test, in the normal build;
#   sanitizers  the suite again built with AddressSanitizer and
#               UndefinedBehaviorSanitizer, less the CLI tests that run
#               once (Makefile.am's CLI_TESTS_ONCE);
#   valgrind    memcheck on the command-line tool (a smoke subset) and on
#               the unit-test programs of VG_UNITS below;
#   distcheck   a release tarball builds, installs and passes the short
#               tests the sanitizer stage leaves out;
#   fuzz        every reader fuzzed for a short while (scripts/fuzz.sh).
# Ends with the stage times and one line "tests: N passed, M failed, S
# skipped".  The README says what each stage covers and why.
#
# Skip stages with BOOSTLAB_SKIP_SANITIZERS=1, BOOSTLAB_SKIP_VALGRIND=1,
# BOOSTLAB_SKIP_DISTCHECK=1, BOOSTLAB_SKIP_FUZZ=1 (all run by default).
set -uo pipefail
cd "$(dirname "$0")/.."
TOP=$PWD

# stage_end NAME: print and keep the seconds since the stage began (t0).
STAGE_TIMES=()
stage_end() {
  local s=$((SECONDS - t0))
  STAGE_TIMES+=("$1 $s s")
  echo "stage $1: $s s"
}

t0=$SECONDS
scripts/install-deps.sh --bench || exit 1  # --bench: tests/cli/bench_suite.sh runs the peers
stage_end install
t0=$SECONDS
scripts/build.sh || exit 1
stage_end build
t0=$SECONDS
make -j"$(nproc)" check
status=$?
stage_end check

passed=0 failed=0 skipped=0

# count_results DIR: add the test cases of the build tree DIR to the counts:
# Criterion's synthesis lines plus the shell tests' results.
count_results() {
  local log trs line p f c
  for log in "$1"/tests/unit/*.log; do
    [[ -f $log ]] || continue
    line=$(grep -a 'Synthesis:' "$log" | tail -n 1)
    if [[ -n $line ]]; then
      p=$(sed -n 's/.*Passing: \([0-9]*\).*/\1/p' <<<"$line")
      f=$(sed -n 's/.*Failing: \([0-9]*\).*/\1/p' <<<"$line")
      c=$(sed -n 's/.*Crashing: \([0-9]*\).*/\1/p' <<<"$line")
      passed=$((passed + p)); failed=$((failed + f + c))
      # Every case passed, yet the program failed: e.g. a sanitizer report
      # after the last case (LeakSanitizer runs at exit).
      trs=${log%.log}.trs
      if ((f + c == 0)) && [[ -f $trs ]] &&
         [[ $(sed -n 's/^:test-result: //p' "$trs") != PASS ]]; then
        failed=$((failed + 1))
      fi
    else
      failed=$((failed + 1))   # the program died before reporting
    fi
  done
  for trs in "$1"/tests/cli/*.trs; do
    [[ -f $trs ]] || continue
    case $(sed -n 's/^:test-result: //p' "$trs") in
      PASS) passed=$((passed + 1)) ;;
      SKIP) skipped=$((skipped + 1)) ;;
      *) failed=$((failed + 1)) ;;
    esac
  done
}
count_results .

# show_reports DIR WHAT: print the report files in DIR (if any); returns
# how many there are in $nreports.
show_reports() {
  local f
  nreports=0
  for f in "$1"/*; do
    [[ -s $f ]] || continue
    nreports=$((nreports + 1))
    echo "---- $2 report $f"
    head -n 60 "$f"
  done
}

# ---- sanitizers: the suite again, built with ASan + UBSan ----------------
# Every unit test and every CLI test but CLI_TESTS_ONCE (whole experiments,
# kills, MPI, the benchmark peers: their C code is reached by the tests
# that do run here).  Timeouts scaled 4x: the instrumented code is slower.
# The source tree is configured in place (scripts/build.sh), and configure
# refuses to set up a separate build folder for a configured source tree.
# So the variant is built in a copy: 'make distdir' copies exactly the
# release's files (what distcheck builds) into build-asan/src, which is
# configured in place there; the folder is made afresh each time and kept
# afterwards for inspection.  It is built without MPI: Open MPI's own
# allocations at exit would read as leaks to LeakSanitizer (the MPI run is
# tested by the normal build's make check).
if [[ ${BOOSTLAB_SKIP_SANITIZERS:-0} == 1 ]]; then
  echo "sanitizers: skipped (BOOSTLAB_SKIP_SANITIZERS=1)"
  skipped=$((skipped + 1))
else
  t0=$SECONDS
  SAN=$TOP/build-asan
  chmod -R u+w "$SAN" 2>/dev/null; rm -rf "$SAN"
  mkdir -p "$SAN/reports"
  if make distdir distdir="$SAN/src" top_distdir="$SAN/src" >"$SAN/build.log" 2>&1 &&
     (cd "$SAN/src" && ./configure --enable-sanitizers --without-mpi && make -j"$(nproc)") >>"$SAN/build.log" 2>&1; then
    # Any report stops the program with a failure status (abort), and is
    # also written to build-asan/reports/, so that a report from a command
    # whose status a test ignores is not lost either.  A single allocation
    # above 1 GiB is a report too: ASan's address space cannot be limited
    # with RLIMIT_AS (as tests/unit/test_regress.c does in a normal build).
    (export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:detect_leaks=1:max_allocation_size_mb=1024:log_path=$SAN/reports/asan"
     export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:log_path=$SAN/reports/ubsan"
     export BL_TEST_TIMEOUT_SCALE=4
     cd "$SAN/src" && make -j"$(nproc)" check 'TESTS=$(CHECK_TWICE)') >"$SAN/check.log" 2>&1
    san_status=$?
    count_results "$SAN/src"
    show_reports "$SAN/reports" sanitizer
    failed=$((failed + nreports))
    if [[ $san_status -ne 0 || $nreports -ne 0 ]]; then
      grep -aE '^(FAIL|ERROR|XPASS):' "$SAN/check.log"
      echo "sanitizers: FAILED, $nreports reports (see build-asan/check.log, build-asan/src/tests/*/*.log)"
      status=1
    else
      echo "sanitizers: the suite passes under ASan + UBSan with no reports"
    fi
  else
    tail -n 40 "$SAN/build.log"
    echo "sanitizers: the ASan + UBSan build FAILED (see build-asan/build.log)"
    status=1; failed=$((failed + 1))
  fi
  stage_end sanitizers
fi

# ---- valgrind: a smoke run of the normal build --------------------------
# The tool on a small experiment (with 2 threads), train and predict, a few
# error paths, and the unit-test programs of VG_UNITS.  Criterion runs each
# test in a child process, which valgrind follows (--trace-children); a
# child's error status does not reach the runner's, so every process writes
# its own log and any non-empty log is a report.  tests/valgrind.supp lists
# the reports that are not ours.
#
# Why not every unit-test program: memcheck costs about 1.5 s of CPU to
# start each test's process (Criterion's libraries), so with all 487 unit
# tests the stage took 1,100 s of CI's 2,000.  VG_UNITS are the programs of
# the code whose bugs only memcheck sees (reads of uninitialised memory in
# the numerical kernels: engine, losses, trees, stumps, coefficient
# kernels) and of the results store; every unit test runs under ASan + UBSan above.  Within
# them, VG_SKIP leaves out the cases that repeat a computation on 1, 2 and
# 4 threads to compare the results (valgrind runs threads one at a time, so
# they cost minutes and test nothing memcheck adds).  Set
# BOOSTLAB_VALGRIND_UNITS=all for every program and case (roughly 15
# minutes more on 2 cores).
VG_UNITS=(test_engine test_losses test_trees test_stump test_coefkernels test_store)
declare -A VG_SKIP=(
  [test_engine]='engine/model_scores_blocked_wide_data'
  [test_trees]='trees/thread_independent*'
)
if [[ ${BOOSTLAB_SKIP_VALGRIND:-0} == 1 ]]; then
  echo "valgrind: skipped (BOOSTLAB_SKIP_VALGRIND=1)"
  skipped=$((skipped + 1))
elif ! command -v valgrind >/dev/null; then
  echo "valgrind: not installed (scripts/install-deps.sh installs it), stage skipped"
  skipped=$((skipped + 1))
else
  t0=$SECONDS
  VGD=$(mktemp -d /tmp/bl-valgrind-XXXXXX)
  vg_failed=0
  # vg_run NAME WANT CMD...: run CMD under valgrind; writes NAME.result:
  # "ok" when CMD exited with status WANT and left no report.
  vg_run() {
    local name=$1 want=$2; shift 2
    mkdir -p "$VGD/log/$name"
    valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite \
      --errors-for-leak-kinds=definite --keep-debuginfo=yes --trace-children=yes \
      --trace-children-skip='*gnuplot*' \
      --suppressions="$TOP/tests/valgrind.supp" --log-file="$VGD/log/$name/vg.%p" \
      "$@" >"$VGD/log/$name.out" 2>&1
    local got=$?
    show_reports "$VGD/log/$name" "valgrind $name" >"$VGD/log/$name.reports"
    if [[ $got -ne $want || $nreports -ne 0 ]]; then
      echo "'$*' exited $got (expected $want), $nreports reports" >"$VGD/log/$name.result"
    else
      echo ok >"$VGD/log/$name.result"
    fi
  }
  # vg_count NAME: count the result of vg_run NAME, and show a failure.
  vg_count() {
    if [[ $(cat "$VGD/log/$1.result") == ok ]]; then
      passed=$((passed + 1))
    else
      cat "$VGD/log/$1.reports"
      tail -n 20 "$VGD/log/$1.out"
      echo "valgrind: FAILED: $1: $(cat "$VGD/log/$1.result")"
      failed=$((failed + 1)); vg_failed=$((vg_failed + 1)); status=1
    fi
  }
  vg() { vg_run "$@"; vg_count "$1"; }
  cat >"$VGD/smoke.ini" <<EOF
[experiment]
name = valgrind-smoke
seed = 1
repeats = 2
iterations = 15

[data iris]
file = $TOP/data/iris.csv
classes = $TOP/data/iris.classes
test_ratio = 0.25

[data glass]
file = $TOP/data/glass.csv
classes = $TOP/data/glass.classes
test_ratio = 0.25

[algorithm mcboost-exp]
recipe = mcboost-exp

[algorithm mcboost-log]
recipe = mcboost-log

[algorithm multiboost-log]
recipe = multiboost-log
EOF
  BL=$TOP/boostlab
  vg plugins 0 "$BL" plugins
  vg plugins-stump 0 "$BL" plugins stump
  vg run-check 0 "$BL" run --check "$VGD/smoke.ini"
  vg run 0 "$BL" run --quiet --threads 2 --output "$VGD/out" "$VGD/smoke.ini"
  # the same grid again on 2 worker processes (valgrind follows the forks)
  vg run-jobs 0 "$BL" run --quiet --jobs 2 --output "$VGD/out-jobs" "$VGD/smoke.ini"
  vg results 0 "$BL" results --summary "$VGD/out"
  vg results-curves 0 "$BL" results --format json --curves --output "$VGD/curves.json" "$VGD/out"
  vg report 0 "$BL" report --quiet "$VGD/out"
  vg train 0 "$BL" train -q --threads 2 --data data/iris.csv --recipe mcboost-log \
    --iterations 30 --model "$VGD/iris.model"
  vg predict 0 "$BL" predict -q --model "$VGD/iris.model" --data data/iris.csv \
    --output "$VGD/pred"
  # error paths: a truncated model, a model for other data, a missing file
  head -c 300 "$VGD/iris.model" >"$VGD/truncated.model"
  vg predict-truncated 1 "$BL" predict -q --model "$VGD/truncated.model" --data data/iris.csv
  vg predict-mismatch 1 "$BL" predict -q --model "$VGD/iris.model" --data data/wine.csv
  vg train-missing 1 "$BL" train -q --data "$VGD/missing.csv" --recipe mcboost-log \
    --model "$VGD/x.model"
  vg synth 0 "$BL" synth synthetic3 --output "$VGD/s3.csv"
  vg synth-unwritable 1 "$BL" synth gauss4 --output "$VGD/no/such/dir/g.csv"
  # the unit-test programs of VG_UNITS (all of them, unfiltered, with
  # BOOSTLAB_VALGRIND_UNITS=all)
  if [[ ${BOOSTLAB_VALGRIND_UNITS:-} == all ]]; then
    VG_SKIP=()
    VG_UNITS=()
    for t in tests/unit/test_*; do
      [[ -f $t && -x $t && $t != *.* ]] && VG_UNITS+=("${t##*/}")
    done
  fi
  units=("${VG_UNITS[@]/#/tests/unit/}")
  # the timeouts are hang guards sized for a normal build
  export BL_TEST_TIMEOUT_SCALE=30
  # as many programs at a time as there are cores, the next one starting as
  # soon as one ends
  ncpu=$(nproc)
  for t in "${units[@]}"; do
    while (($(jobs -rp | wc -l) >= ncpu)); do wait -n; done
    prog=${t##*/} filter=()
    [[ -n ${VG_SKIP[$prog]:-} ]] && filter=(--filter "!(${VG_SKIP[$prog]})")
    vg_run "$prog" 0 "$t" --jobs 1 "${filter[@]}" &
  done
  wait
  for t in "${units[@]}"; do
    vg_count "${t##*/}"
  done
  if [[ $vg_failed -eq 0 ]]; then
    echo "valgrind: 15 smoke runs and ${#units[@]} unit-test programs, no reports"
    rm -rf "$VGD"
  else
    echo "valgrind: $vg_failed FAILED (logs in $VGD)"
  fi
  unset BL_TEST_TIMEOUT_SCALE
  stage_end valgrind
fi

# ---- distcheck: the release tarball --------------------------------------
# It builds out of tree, installs, uninstalls and cleans up, and passes the
# short tests the sanitizer stage left out (Makefile.am's CLI_TESTS_DIST); the
# long ones (quickstart, kill) run once, in the check stage.
if [[ ${BOOSTLAB_SKIP_DISTCHECK:-0} == 1 ]]; then
  echo "distcheck: skipped (BOOSTLAB_SKIP_DISTCHECK=1)"
  skipped=$((skipped + 1))
elif [[ $status -ne 0 ]]; then
  echo "distcheck: not run, an earlier stage failed"
  skipped=$((skipped + 1))
else
  t0=$SECONDS
  make -j"$(nproc)" distcheck 'TESTS=$(CLI_TESTS_DIST)' >distcheck.log 2>&1
  if [[ $? -ne 0 ]]; then
    tail -n 40 distcheck.log
    echo "distcheck: FAILED (see distcheck.log)"
    status=1; failed=$((failed + 1))
  else
    echo "distcheck: a release tarball builds, installs and passes CLI_TESTS_DIST"
    passed=$((passed + 1))
  fi
  stage_end distcheck
fi
# A short fuzz run of every reader (long runs: fuzz/README.md).
t0=$SECONDS
if [[ ${BOOSTLAB_SKIP_FUZZ:-0} == 1 ]]; then
  echo "fuzz: skipped (BOOSTLAB_SKIP_FUZZ=1)"
elif ! command -v clang-14 >/dev/null && ! command -v clang >/dev/null; then
  echo "fuzz: clang not installed (scripts/install-deps.sh installs it), stage skipped"
  skipped=$((skipped + 1))
elif bash scripts/fuzz.sh "${BOOSTLAB_FUZZ_SECONDS:-20}" >fuzz.log 2>&1; then
  grep '^fuzz ' fuzz.log
  passed=$((passed + 1))
else
  tail -n 40 fuzz.log
  echo "fuzz: FAILED (see fuzz.log)"
  status=1; failed=$((failed + 1))
fi
stage_end fuzz

echo "stage times: $(IFS=,; echo "${STAGE_TIMES[*]}" | sed 's/,/, /g'); total $SECONDS s"

if [[ $status -ne 0 && $failed -eq 0 ]]; then failed=1; fi
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit $status

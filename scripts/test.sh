#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's second command (and CI's): install what is missing, build,
# run the whole test suite, then check that a release tarball builds and
# passes too (make distcheck).  Ends with one line "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh || exit 1
scripts/build.sh || exit 1
make -j"$(nproc)" check
status=$?

# Count individual test cases: Criterion's synthesis lines plus the
# shell tests' results.
passed=0 failed=0 skipped=0
for log in tests/unit/*.log; do
  [[ -f $log ]] || continue
  line=$(grep -a 'Synthesis:' "$log" | tail -n 1)
  if [[ -n $line ]]; then
    p=$(sed -n 's/.*Passing: \([0-9]*\).*/\1/p' <<<"$line")
    f=$(sed -n 's/.*Failing: \([0-9]*\).*/\1/p' <<<"$line")
    c=$(sed -n 's/.*Crashing: \([0-9]*\).*/\1/p' <<<"$line")
    passed=$((passed + p)); failed=$((failed + f + c))
  else
    failed=$((failed + 1))   # the program died before reporting
  fi
done
for trs in tests/cli/*.trs; do
  [[ -f $trs ]] || continue
  case $(sed -n 's/^:test-result: //p' "$trs") in
    PASS) passed=$((passed + 1)) ;;
    SKIP) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)) ;;
  esac
done

if [[ $status -eq 0 && ${BOOSTLAB_SKIP_DISTCHECK:-0} != 1 ]]; then
  make -j"$(nproc)" distcheck >distcheck.log 2>&1
  if [[ $? -ne 0 ]]; then
    tail -n 40 distcheck.log
    echo "distcheck: FAILED (see distcheck.log)"
    status=1; failed=$((failed + 1))
  else
    echo "distcheck: a release tarball builds, installs and passes its tests"
    passed=$((passed + 1))
  fi
fi
if [[ $status -ne 0 && $failed -eq 0 ]]; then failed=1; fi
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit $status

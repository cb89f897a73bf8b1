# SPDX-License-Identifier: GPL-3.0-or-later
# Experiment grids: sweeps expand into named grid points, --jobs gives the
# same results as one job, a rerun resumes from the results store, and
# `boostlab results` lists, filters and exports what the store holds.
. "$(dirname "$0")/lib.sh"

# iris_ini REPEATS ITERATIONS: an experiment on iris, then the sections read
# from stdin (its algorithms, more data sets).
iris_ini() {
  printf '[experiment]\nrepeats = %s\niterations = %s\n[data iris]\nfile = %s/data/iris.csv\n' \
    "$1" "$2" "$SRC"
  cat
}

cat >"$TMP/grid.ini" <<INI
[experiment]
name = grid-test
repeats = 3
iterations = 25
[data iris]
file = $SRC/data/iris.csv
[data letter]
file = $SRC/data/letter.csv
split = per-class
per_class = 20
keep_classes = {3, 5}
class_pick = random
[algorithm exp]
recipe = mcboost-exp
shrinkage = {0.5, 1}
[algorithm samme]
recipe = samme
INI

"$BL" run --check "$TMP/grid.ini" >"$TMP/chk" 2>&1 || fail "check failed: $(cat "$TMP/chk")"
grep -q "3 data sets, 3 algorithms, 3 repeats: 27 runs" "$TMP/chk" || fail "check: $(cat "$TMP/chk")"

"$BL" run --quiet --jobs 1 --output "$TMP/j1" "$TMP/grid.ini" >"$TMP/t1" 2>"$TMP/e1" || fail "jobs 1: $(cat "$TMP/e1")"
"$BL" run --quiet --jobs 2 --threads 1 --output "$TMP/j2" "$TMP/grid.ini" >"$TMP/t2" 2>"$TMP/e2" || fail "jobs 2: $(cat "$TMP/e2")"
# errors and iterations (columns 1-7 of summary.csv) agree; times may not
cut -d, -f1-7 "$TMP/j1/summary.csv" >"$TMP/s1"
cut -d, -f1-7 "$TMP/j2/summary.csv" >"$TMP/s2"
cmp -s "$TMP/s1" "$TMP/s2" || fail "--jobs 2 summary differs from --jobs 1: $(diff "$TMP/s1" "$TMP/s2" | head -5)"
rows=$(tail -n +2 "$TMP/j1/summary.csv" | wc -l)
[[ $rows -eq 9 ]] || fail "summary.csv has $rows cells, expected 9"
grep -q '^letter{keep_classes=5},exp{shrinkage=0.5},3,' "$TMP/j1/summary.csv" || fail "grid point names: $(cut -d, -f1-2 "$TMP/j1/summary.csv")"

# the store: every run, its sweep and class count
"$BL" results --format csv "$TMP/j1" >"$TMP/all.csv" || fail "results csv"
n=$(python3 -c 'import csv,sys; print(sum(1 for _ in csv.DictReader(open(sys.argv[1]))))' "$TMP/all.csv")
[[ $n -eq 27 ]] || fail "store holds $n runs, expected 27"
python3 - "$TMP/all.csv" <<'PY' || fail "store rows are wrong"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    if r["data"].startswith("letter{keep_classes=3}"):
        assert r["k"] == "3", r
        assert "keep_classes=3" in r["sweep"], r
    if r["algo"] == "exp{shrinkage=1}":
        assert "shrinkage=1" in r["sweep"], r
        assert r["recipe"] == "mcboost-exp", r
        assert "shrinkage = 1\n" in r["params"], r["params"]
# a random class pick differs between repeats (same seed, same classes otherwise)
PY
"$BL" results --format csv --where keep_classes=5 --algo 'exp*' "$TMP/j1" >"$TMP/f.csv" || fail "filtered results"
n=$(($(python3 -c 'import csv,sys; print(sum(1 for _ in csv.DictReader(open(sys.argv[1]))))' "$TMP/f.csv")))
[[ $n -eq 6 ]] || fail "--where keep_classes=5 --algo 'exp*' gave $n runs, expected 6"
"$BL" results --format json --curves --data iris --algo samme "$TMP/j1" >"$TMP/c.json" || fail "json curves"
python3 - "$TMP/c.json" <<'PY' || fail "json curves are wrong"
import json, sys
runs = json.load(open(sys.argv[1]))
assert len(runs) == 3, len(runs)
for r in runs:
    c = r["curve"]
    assert len(c["test_err"]) == 25, len(c["test_err"])
PY

# a rerun computes nothing and prints the same table
before=$("$BL" results --format csv "$TMP/j1" | md5sum)
"$BL" run --output "$TMP/j1" "$TMP/grid.ini" >"$TMP/t1b" 2>"$TMP/e1b" || fail "rerun: $(cat "$TMP/e1b")"
grep -q "27 already in the store" "$TMP/e1b" || fail "rerun did not skip: $(head -3 "$TMP/e1b")"
after=$("$BL" results --format csv "$TMP/j1" | md5sum)
[[ $before == "$after" ]] || fail "a rerun changed the store"
cmp -s "$TMP/t1" "$TMP/t1b" || fail "rerun table differs"

# a changed parameter is a new run, not a stale hit
sed 's/^iterations = 25/iterations = 26/' "$TMP/grid.ini" >"$TMP/grid26.ini"
"$BL" run --output "$TMP/j1" "$TMP/grid26.ini" >/dev/null 2>"$TMP/e26" || fail "changed run: $(cat "$TMP/e26")"
grep -q "already in the store" "$TMP/e26" && fail "changed iterations reused stored runs"

# hyper-parameters by cross-validation inside each run: one stump cannot
# tell three classes apart, so 3-fold CV must choose 40 iterations over 1
iris_ini 2 40 >"$TMP/cv.ini" <<INI
[algorithm a]
recipe = mcboost-exp
cv.iterations = {1, 40}
cv_folds = 3
[algorithm never]
recipe = samme
skip_data = wine, iri*
INI
"$BL" run --jobs 2 --output "$TMP/cv" "$TMP/cv.ini" >/dev/null 2>"$TMP/ecv" || fail "cv run: $(cat "$TMP/ecv")"
n=$("$BL" results --format csv "$TMP/cv" | grep -c '^cv_chosen = iterations=40$')
[[ $n -eq 2 ]] || fail "CV chose iterations=40 in $n of 2 runs"
grep -q "2 runs (1 data sets x 2 algorithms x 2 repeats, less 2 skipped by skip_data)" "$TMP/ecv" \
  || fail "skip_data: $(head -1 "$TMP/ecv")"
"$BL" results --format csv --algo never "$TMP/cv" | tail -n +2 | grep -q . && fail "a skipped algorithm ran"

# a data set may have its own number of repeats
iris_ini 3 10 >"$TMP/rep.ini" <<INI
[data wine]
file = $SRC/data/wine.csv
repeats = 1
[algorithm a]
recipe = mcboost-exp
INI
"$BL" run --check "$TMP/rep.ini" | grep -q ": 4 runs)" || fail "data repeats: $("$BL" run --check "$TMP/rep.ini")"
"$BL" run --quiet --output "$TMP/rep" "$TMP/rep.ini" >/dev/null 2>&1 || fail "data repeats run"
grep -q '^wine,a,1,' "$TMP/rep/summary.csv" || fail "wine should have 1 repeat: $(cat "$TMP/rep/summary.csv")"
grep -q '^iris,a,3,' "$TMP/rep/summary.csv" || fail "iris should have 3 repeats"

# a worker that crashes (a plugin that segfaults on 4-class data): the run
# is named with the signal, exit 1, and the runs the other data set
# finished are in the store
CC=${CC:-cc}
if build_crashy_coding "$TMP/crashy.so"; then
  cat >"$TMP/crash.ini" <<INI
[experiment]
repeats = 2
iterations = 10
[data iris]
file = $SRC/data/iris.csv
[data vehicle]
file = $SRC/data/vehicle.csv
[algorithm ecc]
recipe = adaboost-ecc
coding = crashy
INI
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0" BOOSTLAB_PLUGIN_PATH="$TMP/crashy.so" \
    expect_fail 1 "vehicle/ecc rep [01]: the worker running it died \(killed by signal 11" -- \
    "$BL" run --quiet --jobs 2 --output "$TMP/crash" "$TMP/crash.ini"
  # a worker asks for its next run only after sending its result, so both
  # iris runs were committed before either worker reached vehicle
  n=$("$BL" results --format csv --data iris "$TMP/crash" |
      python3 -c 'import csv, sys; print(sum(1 for _ in csv.DictReader(sys.stdin)))')
  [[ $n -eq 2 ]] || fail "the 2 runs finished before the crash were not kept ($n)"
else
  echo "note: no C compiler ($CC): the worker-crash check is skipped: $(head -c 200 "$TMP/cc.err")"
fi

# --data / --algorithm run part of a grid; the rest runs later from the store
"$BL" run --quiet --data 'letter*' --algorithm 'exp*' --output "$TMP/part" "$TMP/grid.ini" \
  >/dev/null 2>"$TMP/ep" || fail "partial run: $(cat "$TMP/ep")"
n=$("$BL" results --format csv "$TMP/part" |
    python3 -c 'import csv, sys; print(sum(1 for _ in csv.DictReader(sys.stdin)))')
[[ $n -eq 12 ]] || fail "--data 'letter*' --algorithm 'exp*' ran $n runs, expected 12"
"$BL" run --output "$TMP/part" "$TMP/grid.ini" >/dev/null 2>"$TMP/ep2" || fail "rest of the grid"
grep -q "27 runs .*12 already in the store" "$TMP/ep2" || fail "rest of the grid: $(head -2 "$TMP/ep2")"
expect_fail 1 "--data 'nosuch' names none of the experiment's data sets" -- \
  "$BL" run --data nosuch --output "$TMP/none" "$TMP/grid.ini"
[[ ! -e $TMP/none ]] || fail "a filter that names nothing created the output folder"

# k-fold: repeats 0..2 are the 3 folds of one partition (150 iris rows: 50
# test rows each, each row tested once), repeats 3..5 those of another
iris_ini 6 3 >"$TMP/kfold.ini" <<INI
split = kfold
folds = 3
[algorithm exp]
recipe = mcboost-exp
INI
"$BL" run --quiet --output "$TMP/kf" "$TMP/kfold.ini" >/dev/null 2>"$TMP/ekf" || fail "kfold: $(cat "$TMP/ekf")"
"$BL" results --format csv "$TMP/kf" >"$TMP/kf.csv" || fail "kfold results"
python3 - "$TMP/kf.csv" <<'PY' || fail "kfold runs are wrong"
import csv, sys
rows = sorted(csv.DictReader(open(sys.argv[1])), key=lambda r: int(r["rep"]))
assert len(rows) == 6, len(rows)
assert all(r["m_test"] == "50" and r["m_train"] == "100" for r in rows), rows
PY
grep -q '^folds = 3$' "$TMP/kf/experiment.ini" || fail "experiment.ini lacks folds = 3"
# more folds than rows: the data set's file and line, the repeat, the counts
sed 's/^folds = 3$/folds = 200/' "$TMP/kfold.ini" >"$TMP/kfold200.ini"
expect_fail 1 "kfold200.ini:4: data iris, repeat 0: split: 200 folds need at least 200 rows, the data set has 150" -- \
  "$BL" run --quiet --output "$TMP/kf200" "$TMP/kfold200.ini"

# bad sweeps are refused with file and line
printf '[data iris]\nfile = %s/data/iris.csv\n[algorithm a]\nrecipe = mcboost-exp\nnu = {1e-3,\n' "$SRC" >"$TMP/bad.ini"
expect_fail 1 "bad.ini:5: \[algorithm a\] nu: .*missing '}'" -- "$BL" run --check "$TMP/bad.ini"
expect_fail 2 "--jobs expects" -- "$BL" run --jobs 0 "$TMP/grid.ini"
expect_fail 1 "no results store" -- "$BL" results "$TMP/nothing"
[[ ! -e $TMP/nothing/results.sqlite ]] || fail "results created a store"
# A rerun that fails validation leaves a finished folder as it was: a bad
# [data] added to a finished experiment fails with the data file's line,
# and every file of the folder (names, bytes, times) is unchanged.
iris_ini 1 3 >"$TMP/keep.ini" <<INI
[algorithm exp]
recipe = mcboost-exp
INI
"$BL" run --quiet --output "$TMP/keep" "$TMP/keep.ini" >/dev/null 2>"$TMP/ek" || fail "keep: $(cat "$TMP/ek")"
snapshot() { (cd "$1" && find . -type f -printf '%p %s %T@\n' | sort && find . -type f -exec md5sum {} + | sort); }
snapshot "$TMP/keep" >"$TMP/keep.before"
printf 'label,a\n0,1\n1,oops\n' >"$TMP/bad-data.csv"
cp "$TMP/keep.ini" "$TMP/keep-bad.ini"
printf '[data bad]\nfile = %s/bad-data.csv\n' "$TMP" >>"$TMP/keep-bad.ini"
expect_fail 1 "bad-data.csv:3: column 2 \(a\)" -- "$BL" run --quiet --output "$TMP/keep" "$TMP/keep-bad.ini"
snapshot "$TMP/keep" >"$TMP/keep.after"
cmp -s "$TMP/keep.before" "$TMP/keep.after" ||
  fail "a rerun that failed validation changed the finished folder: $(diff "$TMP/keep.before" "$TMP/keep.after")"
# a valid change keeps the earlier experiment.ini as experiment.ini.1; an
# unchanged rerun writes nothing
cp "$TMP/keep/experiment.ini" "$TMP/keep-first.ini"
printf '[algorithm samme]\nrecipe = samme\n' >>"$TMP/keep.ini"
"$BL" run --quiet --output "$TMP/keep" "$TMP/keep.ini" >/dev/null 2>"$TMP/ek" || fail "keep 2: $(cat "$TMP/ek")"
cmp -s "$TMP/keep-first.ini" "$TMP/keep/experiment.ini.1" ||
  fail "the earlier experiment.ini was not kept as experiment.ini.1"
grep -q '^\[algorithm samme\]' "$TMP/keep/experiment.ini" || fail "experiment.ini lacks the new algorithm"
snapshot "$TMP/keep" >"$TMP/keep.before"
"$BL" run --quiet --output "$TMP/keep" "$TMP/keep.ini" >/dev/null 2>"$TMP/ek" || fail "keep 3: $(cat "$TMP/ek")"
[[ ! -e $TMP/keep/experiment.ini.2 ]] || fail "an unchanged rerun kept a copy of experiment.ini"
grep "experiment.ini" "$TMP/keep.before" >"$TMP/k1"
snapshot "$TMP/keep" | grep "experiment.ini" >"$TMP/k2"
cmp -s "$TMP/k1" "$TMP/k2" || fail "an unchanged rerun rewrote experiment.ini: $(diff "$TMP/k1" "$TMP/k2")"
finish

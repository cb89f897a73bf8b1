# SPDX-License-Identifier: GPL-3.0-or-later
# Method xgboost beside the recipes: an experiment with recipe = xgboost-hist,
# an xgb.* algorithm of its own and aoso-logitboost on three small data sets
# (one of 2 classes) runs, stores every round of XGBoost's curve, and its
# summary and report show XGBoost with the Friedman and Wilcoxon tests and
# the paired tests over splits; the same seed gives the same curves bit for
# bit, with 1 or 2 threads, and every round's test error is the one
# XGBoost's Python package gives (when installed); a run killed with SIGKILL
# mid-grid resumes and computes only the runs it lacked; cv.xgb.* chooses a
# key by cross-validation; bad xgb.* keys are refused with FILE:LINE and a
# non-zero exit, before anything runs; `boostlab train` refuses the method.
# In a build without XGBoost (`boostlab --version` does not say XGBoost)
# only the refusal of the method, naming the Debian package, is checked,
# and the test is skipped.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/x.ini" <<INI
[experiment]
name = xgb-test
seed = 5
repeats = 3
iterations = 20
[data iris]
file = $SRC/data/iris.csv
[data wine]
file = $SRC/data/wine.csv
[data sonar]
file = $SRC/data/sonar.csv
[algorithm aoso]
recipe = aoso-logitboost
[algorithm xgb]
recipe = xgboost-hist
[algorithm xgb-depth]
method = xgboost
xgb.max_depth = 3
xgb.eta = 0.3
xgb.subsample = 0.8
INI

if ! "$BL" --version | grep -q ', XGBoost)$'; then
  expect_fail 1 "x\.ini:15: \[algorithm xgb\] recipe: .*xgboost-hist\.ini:[0-9]+: \[recipe\] method: method xgboost: this boostlab was built without XGBoost \(Debian: apt-get install libxgboost-dev" \
    -- "$BL" run "$TMP/x.ini" -o "$TMP/none"
  [[ -e $TMP/none ]] && fail "a refused experiment wrote its output folder"
  ((fails)) && exit 1
  echo "SKIP: this boostlab was built without XGBoost"
  exit 77
fi

# ---- the run: XGBoost's rounds in the store, the summary and the report ----
"$BL" run --quiet --jobs 2 --threads 1 -o "$TMP/o1" "$TMP/x.ini" >"$TMP/table" 2>"$TMP/err" ||
  fail "run: $(cat "$TMP/err")"
for a in aoso xgb xgb-depth; do
  [[ $(grep -c "^[a-z]* *$a  *3 " "$TMP/table") -eq 3 ]] || fail "the summary lacks $a's 3 data sets: $(cat "$TMP/table")"
done
"$BL" results --format csv --curves "$TMP/o1" >"$TMP/c1.csv" 2>"$TMP/err" || fail "results: $(cat "$TMP/err")"
python3 - "$TMP/c1.csv" <<'PY' || fail "XGBoost's curves are wrong"
import collections, csv, math, sys
rows = collections.defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    rows[(r["data"], r["algo"], r["rep"])].append(r)
assert len(rows) == 27, len(rows)
k = {"iris": 3, "wine": 3, "sonar": 1}   # trees a round; sonar has 2 classes
for (data, algo, rep), c in rows.items():
    assert [int(r["iteration"]) for r in c] == list(range(1, 21)), (data, algo, rep)
    if not algo.startswith("xgb"):
        continue
    assert [int(r["trees"]) for r in c] == [k[data] * i for i in range(1, 21)], (data, algo)
    loss = [float(r["train_loss"]) for r in c]
    assert loss[-1] < loss[0] < math.inf, (data, algo, loss)
    for r in c:
        assert 0 <= float(r["train_err"]) <= 1 and 0 <= float(r["test_err"]) <= 1, r
        assert float(r["t_weak"]) > 0 and float(r["t_coef"]) == 0, r
    assert float(c[-1]["train_err"]) < 0.1, (data, algo, c[-1]["train_err"])
PY
"$BL" report "$TMP/o1" >/dev/null 2>"$TMP/err" || fail "report: $(cat "$TMP/err")"
R=$TMP/o1/report/report.md
for s in "Friedman test" "Nemenyi critical difference" "Wilcoxon signed-rank" "Paired t-test" \
         "| aoso vs xgb |" "| aoso vs xgb-depth |" "method = xgboost" "xgb.max_leaves = 20"; do
  grep -q -- "$s" "$R" || fail "report.md lacks '$s'"
done
[[ $(grep -c "^| sonar " "$R") -ge 1 ]] || fail "report.md has no row of sonar"

# ---- the same seed, the same curves (1 or 2 threads, 1 or 2 jobs) ---------
"$BL" run --quiet --jobs 1 --threads 2 --algorithm 'xgb*' -o "$TMP/o2" "$TMP/x.ini" >/dev/null 2>"$TMP/err" ||
  fail "second run: $(cat "$TMP/err")"
"$BL" results --format csv --curves --algorithm 'xgb*' "$TMP/o1" | cut -d, -f1-13,17 >"$TMP/a"
"$BL" results --format csv --curves --algorithm 'xgb*' "$TMP/o2" | cut -d, -f1-13,17 >"$TMP/b"
[[ $(wc -l <"$TMP/a") -eq 361 ]] || fail "expected 360 curve rows of XGBoost, got $(($(wc -l <"$TMP/a") - 1))"
cmp -s "$TMP/a" "$TMP/b" || fail "the same seed gave other curves: $(diff "$TMP/a" "$TMP/b" | head -4)"

# ---- SIGKILL mid-grid, then the rerun computes only what is missing -------
sed 's/^repeats = 3/repeats = 8/; s/^iterations = 20/iterations = 50/' "$TMP/x.ini" >"$TMP/long.ini"
OUT=$TMP/killed
stored() { # runs the store holds now: CSV records (a run's params span lines), 0 if unreadable
  local n
  n=$("$BL" results --format csv "$OUT" 2>/dev/null |
    python3 -c 'import csv, sys; print(sum(1 for _ in csv.DictReader(sys.stdin)))' 2>/dev/null)
  [[ $n =~ ^[0-9]+$ ]] && echo "$n" || echo 0
}
"$BL" run --quiet --jobs 2 --threads 1 -o "$OUT" "$TMP/long.ini" >/dev/null 2>"$TMP/killed.err" &
pid=$!
# a bound, not a timing: the loop ends once 12 runs are stored
for _ in $(seq 3000); do
  kill -0 "$pid" 2>/dev/null && (($(stored) < 12)) || break
  sleep 0.02
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
"$BL" results --format csv "$OUT" | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print(r["data"], r["algo"], r["rep"], r["finished"])' | sort >"$TMP/before"
kept=$(wc -l <"$TMP/before")
((kept > 0 && kept < 72)) || fail "the kill did not land mid-grid ($kept of 72 runs stored)"
grep -q " xgb" "$TMP/before" ||
  fail "no XGBoost run was stored before the kill: $(head -n 4 "$TMP/before"; tail -c 600 "$TMP/killed.err")"
"$BL" run --jobs 2 --threads 1 -o "$OUT" "$TMP/long.ini" >/dev/null 2>"$TMP/err" || fail "rerun: $(cat "$TMP/err")"
grep -q "$kept already in the store" "$TMP/err" || fail "the rerun did not skip the $kept stored runs: $(head -2 "$TMP/err")"
"$BL" results --format csv "$OUT" | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print(r["data"], r["algo"], r["rep"], r["finished"])' | sort >"$TMP/after"
[[ $(wc -l <"$TMP/after") -eq 72 ]] || fail "the store holds $(wc -l <"$TMP/after") runs, not 72"
[[ $(comm -23 "$TMP/before" "$TMP/after" | wc -l) -eq 0 ]] || fail "runs stored before the kill were computed again"
"$BL" results --format csv --curves --algorithm 'xgb*' "$OUT" |
  awk -F, 'NR > 1 { n[$2 "/" $4 "/" $7]++ } END { for (r in n) if (n[r] != 50) { print r, n[r]; bad = 1 } exit bad }' >"$TMP/short" ||
  fail "XGBoost runs with a partial curve: $(head -3 "$TMP/short")"

# ---- every round's test error as XGBoost's Python package gives it --------
# (bench/xgb_peer.py: the same settings, its own data matrices and metric;
# skipped where python3-xgboost is not installed)
if /usr/bin/python3 -c 'import xgboost, numpy' 2>/dev/null; then
  printf '[experiment]\niterations = 10\nthreads = 1\n[data pendigits]\nfile = %s\ntest_file = %s\n[algorithm x]\nrecipe = xgboost-hist\n' \
    "$SRC/data/pendigits.train.csv" "$SRC/data/pendigits.test.csv" >"$TMP/peer.ini"
  "$BL" run --quiet -o "$TMP/peer" "$TMP/peer.ini" >/dev/null 2>"$TMP/err" || fail "peer run: $(cat "$TMP/err")"
  /usr/bin/python3 "$SRC/bench/xgb_peer.py" --csv "$SRC/data/pendigits.train.csv" "$SRC/data/pendigits.test.csv" \
    --rounds 10 --threads 1 --curve "$TMP/peer.csv" >/dev/null 2>"$TMP/err" || fail "xgb_peer.py: $(cat "$TMP/err")"
  "$BL" results --format csv --curves "$TMP/peer" | python3 -c '
import csv, sys
ours = [round(float(r["test_err"]) * 3498) for r in csv.DictReader(sys.stdin)]
peer = [round(float(r["test_err"]) * 3498) for r in csv.DictReader(open(sys.argv[1]))]
sys.exit(0 if len(ours) == 10 and ours == peer else "test errors %s, XGBoost from Python %s" % (ours, peer))
' "$TMP/peer.csv" || fail "XGBoost's test errors differ from its Python package's"
fi

# ---- an xgb.* key chosen by cross-validation, as any key -----------------
printf '[experiment]\niterations = 10\n[data iris]\nfile = %s/data/iris.csv\n[algorithm x]\nrecipe = xgboost-hist\ncv.xgb.eta = {0.01, 0.3}\ncv_folds = 2\n' \
  "$SRC" >"$TMP/cv.ini"
"$BL" run --quiet -o "$TMP/cv" "$TMP/cv.ini" >/dev/null 2>"$TMP/err" || fail "CV run: $(cat "$TMP/err")"
"$BL" results --format json "$TMP/cv" | grep -q 'cv_chosen = xgb.eta=0' || fail "no xgb.eta chosen by CV"

# ---- bad keys: FILE:LINE and a non-zero exit, before anything runs -------
bad() { # LINE PATTERN KEY-LINES...: an [algorithm b] of these lines is refused
  local line=$1 pat=$2
  shift 2
  { printf '[data iris]\nfile = %s/data/iris.csv\n[algorithm b]\n' "$SRC"; printf '%s\n' "$@"; } >"$TMP/bad.ini"
  expect_fail 1 "bad\.ini:$line: \[algorithm b\] $pat" -- "$BL" run -o "$TMP/bad" "$TMP/bad.ini"
  [[ -e $TMP/bad ]] && fail "the refused bad.ini ($*) wrote its output folder"
}
bad 5 "xgb\.etaa: 'etaa' is not an XGBoost parameter boostlab passes \(accepted: booster, eta," \
  "method = xgboost" "xgb.etaa = 0.1"
bad 6 "xgb\.eta: -0\.1 is out of range" "recipe = xgboost-hist" "method = xgboost" "xgb.eta = -0.1"
bad 5 "xgb\.seed: XGBoost's seed is not set here: boostlab derives it from the experiment's seed" \
  "recipe = xgboost-hist" "xgb.seed = 3"
bad 5 "xgb\.max_depth = 0: XGBoost: exact tree method doesn't support unlimited depth" \
  "method = xgboost" "xgb.max_depth = 0" "xgb.tree_method = exact"
bad 5 "shrinkage is not a key of method xgboost" "recipe = xgboost-hist" "shrinkage = 0.1"
bad 5 "xgb\.eta is a key of method xgboost \(this algorithm's method is boost\)" \
  "recipe = aoso-logitboost" "xgb.eta = 0.1"
expect_fail 1 "method xgboost, whose models are not saved" \
  -- "$BL" train --data "$SRC/data/iris.csv" --recipe xgboost-hist --model "$TMP/m.model"
[[ -e $TMP/m.model ]] && fail "train wrote a model of method xgboost"
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# Structured methods from an experiment file (issue 7): StructBoost with
# both masters, the structural SVM, one-vs-all SVMs, an AUC task, a
# hierarchy task over a taxonomy file next to the INI (a relative path),
# and a boosting recipe scored by the hierarchy task.  Their task metrics
# reach the store and the JSON export, a rerun is a no-op, --jobs 2 gives
# the same numbers (metrics travel over the wire), and misconfigurations
# are refused with FILE:LINE.
. "$(dirname "$0")/lib.sh"

mkdir -p "$TMP/exp"
cp "$SRC/data/satimage.taxonomy" "$TMP/exp/sat.taxonomy"
cat >"$TMP/exp/sb.ini" <<INI
[experiment]
iterations = 8
[data wine]
file = $SRC/data/wine.csv
[data sat]
file = $SRC/data/satimage.csv
classes = $SRC/data/satimage.classes
split = per-class
per_class = 40
[algorithm sb]
recipe = structboost-stump
skip_data = sat
[algorithm sbm]
recipe = structboost-stump
formulation = m-slack
skip_data = sat
[algorithm ssvm]
recipe = ssvm
skip_data = sat
[algorithm ova]
recipe = ova-svm
skip_data = sat
[algorithm auc]
recipe = structboost-stump
task = auc
task.positive = 1
skip_data = sat
[algorithm hier]
recipe = structboost-stump
task = hierarchy
task.taxonomy = sat.taxonomy
skip_data = wine
[algorithm mh]
recipe = adaboost-mh
task = hierarchy
task.taxonomy = sat.taxonomy
skip_data = wine
INI

# run from elsewhere: the taxonomy is found next to the INI
(cd "$TMP" && "$BL" run --quiet --jobs 1 --output "$TMP/j1" exp/sb.ini) >"$TMP/t1" 2>"$TMP/e1" \
  || fail "run: $(cat "$TMP/e1")"
"$BL" results --format json "$TMP/j1" >"$TMP/j1.json" 2>"$TMP/ej" || fail "results json: $(cat "$TMP/ej")"

# metrics per algorithm: names, ranges, and the primary metric is the run's error
python3 - "$TMP/j1.json" <<'PY' || fail "metrics in the JSON export are wrong"
import json, math, sys
runs = json.load(open(sys.argv[1]))
want = {
    ("wine", "sb"): ["error"], ("wine", "sbm"): ["error"], ("wine", "ssvm"): ["error"],
    ("wine", "ova"): ["error"], ("wine", "auc"): ["auc_error", "auc"],
    ("sat", "hier"): ["error", "tree_loss"], ("sat", "mh"): ["error", "tree_loss"],
}
got = {(r["data"], r["algo"]): r for r in runs}
assert sorted(got) == sorted(want), sorted(got)
for key, names in want.items():
    r = got[key]
    met = r["metrics"]
    assert sorted(met) == sorted(names), (key, met)
    for n in names:
        for part in ("train", "test"):
            v = met[n][part]
            assert isinstance(v, (int, float)) and math.isfinite(v), (key, n, part, v)
            hi = 3.0 if n == "tree_loss" else 1.0   # the satimage root's height is 3
            assert 0.0 <= v <= hi, (key, n, part, v)
    primary = names[0]
    assert abs(met[primary]["test"] - r["test_err"]) < 1e-9, (key, met, r["test_err"])
    assert abs(met[primary]["train"] - r["train_err"]) < 1e-9, (key, met, r["train_err"])
    if "auc" in met:
        for part in ("train", "test"):
            assert abs(met["auc"][part] + met["auc_error"][part] - 1) < 1e-9, met
            assert met["auc"][part] > 0.9, (key, met)   # wine: class 1 is easy to rank
    if "tree_loss" in met:
        for part in ("train", "test"):
            e, t = met["error"][part], met["tree_loss"][part]
            # every mistake costs 1 to 3; no mistake costs nothing
            assert e - 1e-9 <= t <= 3 * e + 1e-9, (key, met)
    if key[0] == "wine" and key[1] != "auc":
        assert met["error"]["train"] < 0.2, (key, met)
    if key[0] == "sat":
        assert r["m_train"] + r["m_test"] == 240 and r["k"] == 6, r
        assert met["error"]["train"] < 0.5, (key, met)
PY

# a rerun computes nothing and keeps the results
before=$("$BL" results --format json "$TMP/j1" | md5sum)
(cd "$TMP" && "$BL" run --output "$TMP/j1" exp/sb.ini) >/dev/null 2>"$TMP/e1b" || fail "rerun: $(cat "$TMP/e1b")"
grep -q "7 already in the store" "$TMP/e1b" || fail "rerun did not skip: $(head -3 "$TMP/e1b")"
after=$("$BL" results --format json "$TMP/j1" | md5sum)
[[ $before == "$after" ]] || fail "a rerun changed the store"

# two workers: the same metrics (they come back over the wire)
"$BL" run --quiet --jobs 2 --threads 1 --output "$TMP/j2" "$TMP/exp/sb.ini" >/dev/null 2>"$TMP/e2" \
  || fail "jobs 2: $(cat "$TMP/e2")"
"$BL" results --format json "$TMP/j2" >"$TMP/j2.json" || fail "results json (jobs 2)"
python3 - "$TMP/j1.json" "$TMP/j2.json" <<'PY' || fail "--jobs 2 gives other numbers than --jobs 1"
import json, sys
def key(path):
    return {(r["data"], r["algo"]): (r["metrics"], r["train_err"], r["test_err"], r["iterations"],
                                     r["train_loss"])
            for r in json.load(open(path))}
a, b = key(sys.argv[1]), key(sys.argv[2])
assert a.keys() == b.keys(), (sorted(a), sorted(b))
for k in a:
    assert a[k] == b[k], (k, a[k], b[k])
PY

# misconfigurations: FILE:LINE of the section, a clear reason, exit 1
bad() { # bad NAME PATTERN: an [algorithm a] of the lines on stdin, checked
  { printf '[experiment]\niterations = 3\n[data wine]\nfile = %s/data/wine.csv\n[algorithm a]\n' "$SRC"
    cat; } >"$TMP/$1.ini"
  expect_fail 1 "$1.ini:$2" -- "$BL" run --check "$TMP/$1.ini"
}
printf 'method = structboost\nweak = stump\n' |
  bad notask "5: \[algorithm a\] method structboost needs a structured task: set 'task = NAME'"
printf 'recipe = adaboost-mh\ntask = auc\n' |
  bad aucboost "5: \[algorithm a\] task auc does not label examples by class, so it cannot score this boosting algorithm"
printf 'recipe = ssvm\nformulation = m-slack\n' |
  bad mslackssvm "7: \[algorithm a\] formulation = m-slack is an option of StructBoost's master LP; method ssvm has none"
printf 'recipe = adaboost-mh\nmaster = dual\n' |
  bad dualboost "7: \[algorithm a\] master = dual is an option of StructBoost's master LP; method boost has none"
printf 'recipe = structboost-stump\nmaster = simplex\n' |
  bad master "7: \[algorithm a\] master: expected primal, dual or pairs, got 'simplex'"
printf 'recipe = structboost-stump\nformulation = m-slack\nmaster = pairs\n' |
  bad pairsm "8: \[algorithm a\] master = pairs is a 1-slack master"
printf 'recipe = structboost-stump\nformulation = m-slack\ncheck_mslack = 5\n' |
  bad checkm "8: \[algorithm a\] check_mslack compares a 1-slack master with the m-slack LP"
printf 'recipe = ssvm\ncheck_mslack = 5\n' |
  bad checkssvm "7: \[algorithm a\] check_mslack = 5 is an option of StructBoost's master LP; method ssvm has none"
printf 'recipe = ssvm\nweak = stump\n' |
  bad weakssvm "5: \[algorithm a\] method ssvm does not use a weak learner \(remove 'weak = \.\.\.'\)"
printf 'recipe = structboost-stump\ntask = auc\ntask.nosuch = 1\n' |
  bad taskparam "8: \[algorithm a\] task.nosuch: auc has no parameter 'nosuch'"
printf 'recipe = ova-svm\ntask = auc\n' |
  bad ovaauc "5: \[algorithm a\] method ova-svm needs a task whose labels are classes"
printf 'recipe = structboost-stump\nformulation = 2-slack\n' |
  bad formulation "7: \[algorithm a\] formulation: expected 1-slack or m-slack, got '2-slack'"

# master = pairs (issue 32): check_mslack solves the m-slack LP over the run's
# columns every 4 iterations; with a tight eps_cp the objectives agree, on
# the multi-class and the hierarchy task
{ sed '/^\[algorithm/,$d' "$TMP/exp/sb.ini" # the same data
  cat <<INI
[algorithm p]
recipe = structboost-stump
master = pairs
eps_cp = 1e-9
check_mslack = 4
skip_data = sat
[algorithm ph]
recipe = structboost-stump
task = hierarchy
task.taxonomy = sat.taxonomy
master = pairs
eps_cp = 1e-9
check_mslack = 4
skip_data = wine
INI
} >"$TMP/exp/pairs.ini"
"$BL" run --quiet --jobs 1 --output "$TMP/pairs" "$TMP/exp/pairs.ini" >/dev/null 2>"$TMP/ep" ||
  fail "pairs master: $(cat "$TMP/ep")"
[[ $(grep -c '^structboost check_mslack: iteration [48], ' "$TMP/ep") == 4 ]] ||
  fail "pairs master: expected 4 checks: $(cat "$TMP/ep")"
awk '/check_mslack/ { d = $NF; if (d < 0) d = -d; if (d > 1e-9) bad = 1 } END { exit bad }' \
  "$TMP/ep" || fail "pairs master: the m-slack LP's optimum differs: $(grep check "$TMP/ep")"

# a taxonomy naming a class the data does not have: the taxonomy's file
# and line, once prefixed, and the run fails
sed 's/vegetation stubble$/vegetation stubble, marsh/' "$TMP/exp/sat.taxonomy" >"$TMP/exp/bad.taxonomy"
grep -q marsh "$TMP/exp/bad.taxonomy" || fail "test setup: the taxonomy was not changed"
line=$(grep -n marsh "$TMP/exp/bad.taxonomy" | cut -d: -f1)
sed 's/= sat.taxonomy/= bad.taxonomy/; s/^skip_data = wine$/skip_data = wine/' "$TMP/exp/sb.ini" >"$TMP/exp/badtax.ini"
expect_fail 1 "sat/hier rep 0: task hierarchy: [^ ]*/exp/bad.taxonomy:$line: unknown class 'marsh'" -- \
  "$BL" run --quiet --algorithm hier --output "$TMP/badtax" "$TMP/exp/badtax.ini"
grep -q "task hierarchy: task hierarchy" "$TMP/err" && fail "the task is named twice: $(cat "$TMP/err")"
# the same taxonomy breaks a boosting run scored by the task
expect_fail 1 "sat/mh rep 0: task hierarchy: [^ ]*/exp/bad.taxonomy:$line: unknown class 'marsh'" -- \
  "$BL" run --quiet --algorithm mh --output "$TMP/badtax2" "$TMP/exp/badtax.ini"
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# Method svm (framework/baselines/): every scheme x kernel runs on iris from
# the recipes and gets a sensible test error; ECOC and one-vs-all report
# their code's minimum Hamming distance (exhaustive code, k = 3: 2^(k-2) =
# 2); cv.C and cv.gamma choose by cross-validation on the training part;
# a rerun of the same seed gives the same numbers; the resolved
# experiment loads again; misconfigurations are refused with FILE:LINE;
# `boostlab train` refuses the method (it saves boosting models only).
. "$(dirname "$0")/lib.sh"

cat >"$TMP/svm.ini" <<INI
[experiment]
name = svm
seed = 3
[data iris]
file = $SRC/data/iris.csv
[algorithm ovo]
recipe = svm-ovo
kernel = {linear, perceptron, rbf}
[algorithm ova]
recipe = svm-ova
kernel = {linear, perceptron, rbf}
[algorithm ecoc]
recipe = svm-ecoc
kernel = {linear, perceptron, rbf}
[algorithm cs]
recipe = svm-cs
kernel = {linear, rbf}
[algorithm cvc]
recipe = svm-ovo
cv.C = {0.001, 1, 100}
cv_folds = 3
[algorithm cvg]
recipe = svm-cs
kernel = rbf
cv.gamma = {0.1, 1, 16}
cv.C = {1, 10}
cv_folds = 3
INI

"$BL" run --quiet --jobs 1 --output "$TMP/o1" "$TMP/svm.ini" >"$TMP/t1" 2>"$TMP/e1" \
  || fail "run: $(cat "$TMP/e1")"
"$BL" results --format json "$TMP/o1" >"$TMP/o1.json" 2>"$TMP/ej" || fail "results: $(cat "$TMP/ej")"
python3 - "$TMP/o1.json" <<'PY' || fail "method svm results are wrong"
import json, math, sys
runs = json.load(open(sys.argv[1]))
got = {r["algo"]: r for r in runs}
want = ["ovo{kernel=%s}" % k for k in ("linear", "perceptron", "rbf")] + \
       ["ova{kernel=%s}" % k for k in ("linear", "perceptron", "rbf")] + \
       ["ecoc{kernel=%s}" % k for k in ("linear", "perceptron", "rbf")] + \
       ["cs{kernel=linear}", "cs{kernel=rbf}", "cvc", "cvg"]
assert sorted(got) == sorted(want), sorted(got)
for name, r in got.items():
    # iris: < 10%, but versicolor against the rest is far from linearly
    # separable, so the linear one-vs-all codes (ova, ecoc with k = 3 being
    # ova up to sign) do worse at C = 1
    hi = 0.2 if name in ("ova{kernel=linear}", "ecoc{kernel=linear}") else 0.1
    assert r["test_err"] < hi, (name, r["test_err"])
    met = r["metrics"]
    assert abs(met["error"]["test"] - r["test_err"]) < 1e-12, (name, met)
    if name.startswith(("ecoc", "ova")):
        assert met["min_hamming"]["test"] == 2, (name, met)  # 2^(3-2)
    else:
        assert "min_hamming" not in met, (name, met)
for name, key in (("cvc", "C="), ("cvg", "gamma=")):
    assert "cv_chosen = " in got[name]["params"] and key in got[name]["params"], \
        (name, got[name]["params"])
PY

# the same seed again: the same numbers (liblinear and libsvm are seeded)
"$BL" run --quiet --jobs 2 --output "$TMP/o2" "$TMP/svm.ini" >/dev/null 2>"$TMP/e2" \
  || fail "second run: $(cat "$TMP/e2")"
"$BL" results --format json "$TMP/o2" >"$TMP/o2.json" || fail "results of the second run"
python3 - "$TMP/o1.json" "$TMP/o2.json" <<'PY' || fail "a second run differs"
import json, sys
a, b = ({r["algo"]: (r["test_err"], r["train_err"]) for r in json.load(open(p))}
        for p in sys.argv[1:])
assert a == b, (a, b)
PY

# the resolved experiment (written with the results) loads again
"$BL" run --check "$TMP/o1/experiment.ini" >/dev/null 2>"$TMP/e3" \
  || fail "resolved experiment.ini does not load: $(cat "$TMP/e3")"

# pendigits-like k = 10 from the digits data: the dense code's distance
cat >"$TMP/digits.ini" <<INI
[experiment]
name = dig
[data digits]
file = $SRC/data/digits.csv
split = per-class
per_class = 30
[algorithm ecoc]
recipe = svm-ecoc
INI
"$BL" run --quiet --jobs 1 --output "$TMP/o4" "$TMP/digits.ini" >/dev/null 2>"$TMP/e4" \
  || fail "digits run: $(cat "$TMP/e4")"
"$BL" results --format json "$TMP/o4" >"$TMP/o4.json" || fail "results of the digits run"
python3 - "$TMP/o4.json" <<'PY' || fail "dense ECOC on 10 classes is wrong"
import json, sys
r = json.load(open(sys.argv[1]))[0]
d = r["metrics"]["min_hamming"]["test"]
# 34 columns, 10 rows: at least what a good random code reaches, at most Plotkin
assert 12 <= d <= 18, d
assert r["test_err"] < 0.5, r["test_err"]
PY

# misconfigurations: FILE:LINE and a clear reason, exit 1
bad() { # bad NAME PATTERN: an [algorithm a] of the lines on stdin, checked
  { printf '[experiment]\n[data iris]\nfile = %s/data/iris.csv\n[algorithm a]\n' "$SRC"
    cat; } >"$TMP/$1.ini"
  expect_fail 1 "$1.ini:$2" -- "$BL" run --check "$TMP/$1.ini"
}
printf 'method = svm\nscheme = cs\nkernel = perceptron\n' |
  bad csperc "7: \[algorithm a\] scheme cs with kernel perceptron: the perceptron kernel"
printf 'method = svm\nscheme = ovx\n' |
  bad scheme "6: \[algorithm a\] scheme: expected ovo, ova, ecoc or cs, got 'ovx'"
printf 'method = svm\nkernel = poly\n' |
  bad kernel "6: \[algorithm a\] kernel: expected linear, perceptron or rbf, got 'poly'"
printf 'method = svm\nscale = unit\n' |
  bad scale "6: \[algorithm a\] scale: expected minmax, zscore or none, got 'unit'"
printf 'recipe = svm-ova\ngamma = 2\n' |
  bad gamma "6: \[algorithm a\] gamma is the rbf kernel's width; kernel linear has none"
printf 'recipe = svm-ovo\ntask = multiclass\n' |
  bad task "6: \[algorithm a\] method svm trains SVMs on the data's classes and uses no task plugin"
printf 'recipe = svm-ova\ncoding = exhaustive\n' |
  bad coding "6: \[algorithm a\] coding exhaustive: only scheme = ecoc takes a code"
printf 'recipe = svm-ecoc\ncoding = random-half\n' |
  bad randcode "6: \[algorithm a\] coding random-half: ECOC takes a fixed code"
printf 'recipe = adaboost-mh\nscheme = ovo\n' |
  bad notsvm "6: \[algorithm a\] scheme is a key of method svm"
printf 'recipe = svm-ovo\nC = 0\n' |
  bad czero "6: \[algorithm a\] C: 0 is out of range"
printf 'recipe = svm-ecoc\ncv.gamma = {1, 2}\n' |
  bad cvgamma "6: \[algorithm a\] gamma is the rbf kernel's width"

# `boostlab train` saves boosting models only: a clear refusal, not a crash
expect_fail 1 "recipe svm-ovo is method svm, whose models are not saved" -- \
  "$BL" train --data "$SRC/data/iris.csv" --recipe svm-ovo --model "$TMP/x.model"
expect_fail 1 "recipe ova-svm is method ova-svm, whose models are not saved" -- \
  "$BL" train --data "$SRC/data/iris.csv" --recipe ova-svm --model "$TMP/x.model"

finish

# SPDX-License-Identifier: GPL-3.0-or-later
# HingeBoost.OC and AdaBoost.ERP from the command line: the recipes train,
# save and predict (linear and perceptron-kernel SVMs, the one-vs-all
# start, ERP's sign outputs), an experiment runs them beside an SVM
# baseline, and bad hinge costs are refused with the value or the count
# named and a non-zero exit.
. "$(dirname "$0")/lib.sh"

IRIS="$SRC/data/iris.csv"

# ---- train, save, predict ------------------------------------------------------
for set in "weak.kernel=linear" "weak.kernel=perceptron" "coding.init=ova"; do
  "$BL" train -q -d "$IRIS" -r hingeboost-oc -s "$set" -i 8 -m "$TMP/hb.model" 2>"$TMP/err" ||
    fail "train hingeboost-oc $set exited $?: $(cat "$TMP/err")"
  grep -q '^weak svm$' "$TMP/hb.model" || fail "$set: the model's learner is not svm"
  grep -q '^algorithm coding = maxcut$' "$TMP/hb.model" || fail "$set: no maxcut coding line"
  "$BL" predict -m "$TMP/hb.model" -d "$IRIS" -o "$TMP/pred" 2>"$TMP/err" ||
    fail "predict ($set) exited $?: $(cat "$TMP/err")"
  [[ $(wc -l <"$TMP/pred") -eq 150 ]] || fail "$set: $(wc -l <"$TMP/pred") predictions for 150 rows"
  err=$(sed -n 's/.*error \([0-9.]*\)%.*/\1/p' "$TMP/err")
  awk -v e="$err" 'BEGIN { exit !(e != "" && e < 10) }' ||
    fail "$set: training-set error '$err' % on iris is not below 10 %: $(cat "$TMP/err")"
done
"$BL" train -q -d "$IRIS" -r adaboost-erp -i 20 -m "$TMP/erp.model" 2>"$TMP/err" ||
  fail "train adaboost-erp exited $?: $(cat "$TMP/err")"
grep -q 'output=sign' "$TMP/erp.model" || fail "ERP's SVMs do not give sign outputs"
"$BL" predict -m "$TMP/erp.model" -d "$IRIS" -o /dev/null 2>"$TMP/err" ||
  fail "predict (erp) exited $?: $(cat "$TMP/err")"

# ---- an experiment: the recipes beside a baseline -------------------------------------
cat >"$TMP/exp.ini" <<INI
[experiment]
name = hb-cli
repeats = 1
iterations = 15

[data iris]
file = $IRIS
split = ratio
test_ratio = 0.3

[algorithm hingeboost]
recipe = hingeboost-oc

[algorithm erp]
recipe = adaboost-erp

[algorithm ovo]
recipe = svm-ovo
INI
"$BL" run -q -o "$TMP/out" "$TMP/exp.ini" >"$TMP/sum" 2>"$TMP/err" ||
  fail "the experiment exited $?: $(cat "$TMP/err")"
for a in hingeboost erp ovo; do
  grep -q "^iris  *$a " "$TMP/sum" || fail "no summary row for $a: $(cat "$TMP/sum")"
done

# ---- bad costs: the value or the count, exit 1 ---------------------------------------
"$BL" train -q -d "$IRIS" -r hingeboost-oc -s 'loss.costs=1 -2 3' -m "$TMP/x.model" 2>"$TMP/err"
[[ $? -eq 1 ]] || fail "a negative cost was accepted"
grep -q "costs: value 2 ('-2 3') is not a finite number >= 0" "$TMP/err" ||
  fail "negative cost: $(cat "$TMP/err")"
"$BL" train -q -d "$IRIS" -r hingeboost-oc -s 'loss.costs=1 2' -m "$TMP/x.model" 2>"$TMP/err"
[[ $? -eq 1 ]] || fail "two costs for three classes were accepted"
grep -q 'costs: 2 values for 3 classes' "$TMP/err" || fail "cost count: $(cat "$TMP/err")"
grep -q 'loss hinge is nan at F = 0' "$TMP/err" || fail "cost count, no stop: $(cat "$TMP/err")"
[[ -e $TMP/x.model ]] && fail "a refused training wrote a model"
finish

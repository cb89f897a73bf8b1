# SPDX-License-Identifier: GPL-3.0-or-later
# boostlab train / predict with a model file, and refusal of damaged models.
. "$(dirname "$0")/lib.sh"

"$BL" train --quiet --data "$SRC/data/pendigits.train.csv" --recipe mcboost-log \
  --set shrinkage=1 --iterations 60 --model "$TMP/pen.model" 2>"$TMP/err" \
  || fail "train exited $?: $(cat "$TMP/err")"
head -1 "$TMP/pen.model" | grep -q '^boostlab-model 1$' || fail "model lacks its format line"
grep -q '^algorithm shrinkage = 1$' "$TMP/pen.model" || fail "model lacks its provenance"
"$BL" predict --model "$TMP/pen.model" --data "$SRC/data/pendigits.test.csv" \
  --output "$TMP/pred" 2>"$TMP/err" || fail "predict exited $?: $(cat "$TMP/err")"
n=$(wc -l <"$TMP/pred")
[[ $n -eq 3498 ]] || fail "$n predictions, expected 3498"
err=$(sed -n 's/.*error \([0-9.]*\)%.*/\1/p' "$TMP/err")
awk -v e="$err" 'BEGIN { exit !(e > 0 && e < 25) }' || fail "test error '$err' is implausible"

expect_fail 2 "needs --data, --recipe and --model" -- "$BL" train --data x.csv
expect_fail 1 "no recipe named 'nope'" -- "$BL" train --data "$SRC/data/iris.csv" --recipe nope --model "$TMP/m"
expect_fail 1 "--set shrinkage: .*out of range" -- "$BL" train --data "$SRC/data/iris.csv" --recipe mcboost-exp --set shrinkage=3 --model "$TMP/m"
expect_fail 1 "has 4 features but the model" -- "$BL" predict --model "$TMP/pen.model" --data "$SRC/data/iris.csv"
sed 's/^term 1 /term 7 /' "$TMP/pen.model" >"$TMP/edited.model"
expect_fail 1 "checksum mismatch" -- "$BL" predict --model "$TMP/edited.model" --data "$SRC/data/pendigits.test.csv"
head -c 2000 "$TMP/pen.model" >"$TMP/short.model"
expect_fail 1 "truncated" -- "$BL" predict --model "$TMP/short.model" --data "$SRC/data/pendigits.test.csv"
# re-sign an edited model with a correct CRC-32 (gzip's trailer holds the
# CRC-32 of its input, little-endian), so only the edit itself is judged
resign() {
  sed '$d' "$1" >"$2.body"
  crc=$(gzip -c "$2.body" | tail -c 8 | head -c 4 | od -An -tx4 | tr -d ' \n')
  { cat "$2.body"; printf 'crc32 %s\n' "$crc"; } >"$2"
}
resign "$TMP/pen.model" "$TMP/same.model"
cmp -s "$TMP/pen.model" "$TMP/same.model" || fail "the test's CRC-32 differs from boostlab's"
sed 's/^boostlab-model 1$/boostlab-model 3/' "$TMP/pen.model" >"$TMP/v3.raw"
resign "$TMP/v3.raw" "$TMP/v3.model"
expect_fail 1 "v3.model:1: model format 3; this boostlab reads formats 1 to 2" -- "$BL" predict --model "$TMP/v3.model" --data "$SRC/data/pendigits.test.csv"
# format 2 (projections) reads format 1's files
sed 's/^boostlab-model 1$/boostlab-model 2/' "$TMP/pen.model" >"$TMP/v2.raw"
resign "$TMP/v2.raw" "$TMP/v2.model"
"$BL" predict --model "$TMP/v2.model" --data "$SRC/data/pendigits.test.csv" >/dev/null 2>"$TMP/e2" \
  || fail "a format-2 header without projection lines was refused: $(cat "$TMP/e2")"
sed 's/^weak stump$/weak tree/' "$TMP/pen.model" >"$TMP/tree.raw"
resign "$TMP/tree.raw" "$TMP/tree.model"
expect_fail 1 "needs weak-learner plugin 'tree', which is not loaded" -- "$BL" predict --model "$TMP/tree.model" --data "$SRC/data/pendigits.test.csv"
sed '0,/^term 1 /s/^term 1 \([^ ]*\)/term 1 nan/' "$TMP/pen.model" >"$TMP/nan.raw"
resign "$TMP/nan.raw" "$TMP/nan.model"
expect_fail 1 "term 1: expected 'term OUTDIM' and 10 finite coefficients" -- "$BL" predict --model "$TMP/nan.model" --data "$SRC/data/pendigits.test.csv"
printf 'hello\n' >"$TMP/junk.model"
expect_fail 1 "not a boostlab model file" -- "$BL" predict --model "$TMP/junk.model" --data "$SRC/data/pendigits.test.csv"
# IDX data (--labels; --format idx is then the default): train on images and
# their labels, predict them back, gzip or not
I=$SRC/tests/data/idx
"$BL" train -q --data "$I/small-images-idx3-ubyte.gz" --labels "$I/small-labels-idx1-ubyte.gz" \
  --recipe mcboost-exp --iterations 5 --threads 1 --model "$TMP/idx.model" 2>"$TMP/e" ||
  fail "train on IDX: $(cat "$TMP/e")"
"$BL" predict --model "$TMP/idx.model" --format idx --data "$I/small-images-idx3-ubyte" \
  --labels "$I/small-labels-idx1-ubyte" >"$TMP/idx.pred" 2>"$TMP/idx.err" ||
  fail "predict on IDX: $(cat "$TMP/idx.err")"
[[ $(grep -cE '^[0-9]$' "$TMP/idx.pred") -eq 5 ]] || fail "IDX predictions: $(cat "$TMP/idx.pred")"
grep -q '^boostlab: 5 examples, error ' "$TMP/idx.err" || fail "IDX predict: $(cat "$TMP/idx.err")"
expect_fail 2 "IDX data needs --labels FILE" -- \
  "$BL" train --data "$I/small-images-idx3-ubyte" --format idx --recipe mcboost-exp --model "$TMP/x"
expect_fail 2 "--labels \(an IDX labels file\) only applies to IDX data" -- \
  "$BL" predict --model "$TMP/idx.model" --data "$SRC/data/pendigits.test.csv" --format csv --labels "$I/small-labels-idx1-ubyte"
expect_fail 2 "--label \(the label column\) only applies to CSV data" -- \
  "$BL" train --data "$I/small-images-idx3-ubyte" --labels "$I/small-labels-idx1-ubyte" --label 0 \
  --recipe mcboost-exp --model "$TMP/x"
expect_fail 2 "--format expects csv, libsvm or idx" -- \
  "$BL" predict --model "$TMP/idx.model" --data "$I/small-images-idx3-ubyte" --format arff
expect_fail 1 "four-labels-idx1-ubyte has 4 labels|counts must agree" -- \
  "$BL" predict --model "$TMP/idx.model" --data "$I/small-images-idx3-ubyte" --labels "$I/four-labels-idx1-ubyte"
[[ ! -e $TMP/x ]] || fail "a refused train wrote a model"
# unlabeled data: a CSV header of the model's features only (any order), a
# LIBSVM file of INDEX:VALUE rows, or --unlabeled; --scores and --proba
"$BL" train -q --data "$SRC/data/iris.csv" --recipe mcboost-exp --iterations 10 --threads 1 \
  --model "$TMP/iris.model" 2>"$TMP/e" || fail "train iris: $(cat "$TMP/e")"
"$BL" predict -q --model "$TMP/iris.model" --data "$SRC/data/iris.csv" >"$TMP/lab.pred" ||
  fail "predict labeled iris"
awk -F, 'NR > 1 { print $3 "," $2 "," $5 "," $4 }' "$SRC/data/iris.csv" |
  sed '1i f2,f1,f4,f3' >"$TMP/unl.csv"
"$BL" predict --model "$TMP/iris.model" --data "$TMP/unl.csv" >"$TMP/unl.pred" 2>"$TMP/e" ||
  fail "predict unlabeled CSV: $(cat "$TMP/e")"
cmp -s "$TMP/lab.pred" "$TMP/unl.pred" || fail "unlabeled CSV (columns reordered) predicts differently"
grep -q 'unlabeled (no error rate)' "$TMP/e" || fail "unlabeled predict: $(cat "$TMP/e")"
awk -F, 'NR > 1 { print "1:" $2 " 2:" $3 " 3:" $4 " 4:" $5 }' "$SRC/data/iris.csv" >"$TMP/unl.libsvm"
"$BL" predict -q --model "$TMP/iris.model" --data "$TMP/unl.libsvm" >"$TMP/unl2.pred" ||
  fail "predict unlabeled LIBSVM"
cmp -s "$TMP/lab.pred" "$TMP/unl2.pred" || fail "unlabeled LIBSVM predicts differently"
"$BL" predict -q --model "$TMP/iris.model" --data "$TMP/unl.libsvm" --unlabeled --scores --proba \
  >"$TMP/sp.csv" || fail "predict --scores --proba"
head -1 "$TMP/sp.csv" | grep -qx 'prediction,score:0,score:1,score:2,proba:0,proba:1,proba:2' ||
  fail "scores header: $(head -1 "$TMP/sp.csv")"
# the prediction is the argmax of the scores; the probabilities sum to 1
awk -F, 'NR > 1 { b = 2; for (j = 3; j <= 4; j++) if ($j > $b) b = j
  if ($1 != b - 2 || ($5 + $6 + $7) < 0.999999 || ($5 + $6 + $7) > 1.000001) bad++ }
  END { exit bad > 0 }' "$TMP/sp.csv" || fail "scores/proba rows inconsistent: $(sed -n 2p "$TMP/sp.csv")"
sed '1s/f4/zz/' "$TMP/unl.csv" >"$TMP/zz.csv"
expect_fail 1 "zz.csv: column 3 \(zz\): not a feature of the model" -- \
  "$BL" predict --model "$TMP/iris.model" --data "$TMP/zz.csv" --unlabeled
expect_fail 1 "column 1 was taken as the label; a file without labels must name only" -- \
  "$BL" predict --model "$TMP/iris.model" --data "$TMP/zz.csv"
cut -d, -f1-3 "$TMP/unl.csv" >"$TMP/three.csv"
expect_fail 1 "three.csv: no column 'f3', a feature of the model" -- \
  "$BL" predict --model "$TMP/iris.model" --data "$TMP/three.csv"
{ head -2 "$TMP/unl.libsvm"; echo "1 1:5 2:3"; } >"$TMP/mixed.libsvm"
expect_fail 1 "mixed.libsvm:3: token 1 '1': expected a feature INDEX:VALUE" -- \
  "$BL" predict --model "$TMP/iris.model" --data "$TMP/mixed.libsvm"
printf '0 1:5 2:3\n' >"$TMP/one.libsvm"
expect_fail 1 "expected a feature INDEX:VALUE \(the file is read as unlabeled\), got a label" -- \
  "$BL" predict --model "$TMP/iris.model" --data "$TMP/one.libsvm" --unlabeled
expect_fail 2 "--unlabeled and --label exclude each other" -- \
  "$BL" predict --model "$TMP/iris.model" --data "$TMP/unl.csv" --unlabeled --label f1
finish

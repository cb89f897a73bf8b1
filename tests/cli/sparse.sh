# SPDX-License-Identifier: GPL-3.0-or-later
# Sparse data end to end: a LIBSVM file held sparse and the same data as a
# dense CSV give the same stump models and predictions; test files with
# features beyond the training width are read with those entries ignored
# and counted; [data] storage and features are checked; AOSO's sparse
# trees are the same on 1 and 2 threads; method xgboost
# takes a sparse set as CSR and, on 0/1 features, learns what it learns
# from the same set held dense.
. "$(dirname "$0")/lib.sh"

# 120 rows, 3 classes, 60 features, ~6 entries a row (10%: sparse by auto),
# some negative, one row with no entries
"${PYTHON:-python3}" - "$TMP" <<'PY'
import random, sys
random.seed(7)
d = 60
rows = []
for i in range(120):
    c = i % 3
    cols = sorted(set(random.sample(range(1, d + 1), 5) + [c * 7 + 1]))
    if i == 5:
        cols = []
    rows.append((c, [(j, round(random.uniform(-2, 3), 2) or 0.5) for j in cols]))
with open(sys.argv[1] + "/s.libsvm", "w") as f:
    for c, e in rows:
        f.write(" ".join([str(c)] + [f"{j}:{v}" for j, v in e]) + "\n")
with open(sys.argv[1] + "/s.csv", "w") as f:
    f.write("label," + ",".join(f"f{j + 1}" for j in range(d)) + "\n")
    for c, e in rows:
        x = ["0"] * d
        for j, v in e:
            x[j - 1] = str(v)
        f.write(str(c) + "," + ",".join(x) + "\n")
with open(sys.argv[1] + "/wide.libsvm", "w") as f:
    for c, e in rows[:30]:
        f.write(" ".join([str(c)] + [f"{j}:{v}" for j, v in e] + ["61:1", "75:2"]) + "\n")
PY

for recipe in mcboost-exp samme; do
  "$BL" train -q -d "$TMP/s.libsvm" -r $recipe -i 25 -m "$TMP/sp.$recipe" 2>"$TMP/err" \
    || fail "train on LIBSVM exited $?: $(cat "$TMP/err")"
  "$BL" train -q -d "$TMP/s.csv" -r $recipe -i 25 -m "$TMP/de.$recipe" 2>"$TMP/err" \
    || fail "train on CSV exited $?: $(cat "$TMP/err")"
  cmp -s "$TMP/sp.$recipe" "$TMP/de.$recipe" || fail "$recipe: sparse and dense models differ"
done

"$BL" predict -m "$TMP/sp.mcboost-exp" -d "$TMP/s.libsvm" --scores >"$TMP/ps" 2>/dev/null \
  || fail "predict on LIBSVM failed"
"$BL" predict -m "$TMP/sp.mcboost-exp" -d "$TMP/s.csv" --scores >"$TMP/pd" 2>/dev/null \
  || fail "predict on CSV failed"
cmp -s "$TMP/ps" "$TMP/pd" || fail "predictions on sparse and dense input differ"
[[ $(wc -l <"$TMP/ps") -eq 121 ]] || fail "expected 120 predictions and a header"

# features beyond the model's are absent from it: ignored, counted
"$BL" predict -m "$TMP/sp.mcboost-exp" -d "$TMP/wide.libsvm" >"$TMP/pw" 2>"$TMP/err" \
  || fail "predict on a wider file exited $?: $(cat "$TMP/err")"
grep -q "wide.libsvm: 60 entries of features beyond the model's 60 ignored" "$TMP/err" \
  || fail "no count of ignored entries: $(cat "$TMP/err")"
head -30 "$TMP/ps" | tail -29 | cut -d, -f1 >"$TMP/p30"
sed -n 1,29p "$TMP/pw" | cmp -s - "$TMP/p30" || fail "ignored features changed predictions"

# experiments: storage and features keys; a given test file may be wider
cp "$TMP/s.libsvm" "$TMP/tr.libsvm"
cat >"$TMP/e.ini" <<INI
[experiment]
name = sparse
seed = 1
repeats = 1
iterations = 10

[data narrow]
file = tr.libsvm
test_file = wide.libsvm
features = 40
storage = sparse

[algorithm mcboost-exp]
recipe = mcboost-exp
INI
"$BL" run -v -q -o "$TMP/run" "$TMP/e.ini" >"$TMP/sum" 2>"$TMP/err" \
  || fail "run exited $?: $(cat "$TMP/err")"
grep -q "tr.libsvm: [0-9]* entries of features beyond 40 ignored (features = N)" "$TMP/err" \
  || fail "no count for features = 40: $(cat "$TMP/err")"
grep -q "densified" "$TMP/err" && fail "the stump (predict_sparse) got a dense copy"
grep -q "^features = 40$" "$TMP/run/experiment.ini" || fail "features not in the resolved ini"
grep -q "^storage = sparse$" "$TMP/run/experiment.ini" || fail "storage not in the resolved ini"

sed 's/^storage = sparse$/storage = thin/' "$TMP/e.ini" >"$TMP/bad.ini"
expect_fail 1 "bad.ini:[0-9]*: \[data narrow\] storage: expected auto|dense|sparse, got 'thin'" \
  -- "$BL" run -q -o "$TMP/out2" "$TMP/bad.ini"
sed 's/^file = tr.libsvm$/file = s.csv/' "$TMP/e.ini" | grep -v '^test_file' >"$TMP/bad2.ini"
expect_fail 1 "'features' only applies to LIBSVM" -- "$BL" run -q -o "$TMP/out3" "$TMP/bad2.ini"

# a learner without sparse support (WLDA) gets a dense copy, said in the log
sed 's/^recipe = mcboost-exp$/recipe = mcboost-exp\nweak = wlda/' "$TMP/e.ini" >"$TMP/wlda.ini"
"$BL" run -v -q -o "$TMP/out4" "$TMP/wlda.ini" >/dev/null 2>"$TMP/err" \
  || fail "wlda run exited $?: $(cat "$TMP/err")"
grep -q "does not take sparse data: densified .* MB)" "$TMP/err" \
  || fail "no densify line: $(cat "$TMP/err")"

# the linear learners (one column each: AdaBoost.ECC's code columns) train
# on the set held sparse (implicit centring, no dense copy) and agree with
# the same set held dense
for w in linsvm perceptron; do
  for st in sparse dense; do
    sed "s/^recipe = mcboost-exp\$/recipe = adaboost-ecc\nweak = $w/; s/^storage = sparse\$/storage = $st/" \
      "$TMP/e.ini" >"$TMP/$w.$st.ini"
    "$BL" run -v -q -o "$TMP/$w.$st" "$TMP/$w.$st.ini" >/dev/null 2>"$TMP/err" \
      || fail "$w on the set held $st exited $?: $(cat "$TMP/err")"
    [[ $st == sparse ]] && grep -q "densified" "$TMP/err" && fail "$w got a dense copy of the sparse set"
    "$BL" results "$TMP/$w.$st" | awk 'NR > 1 {print $4, $5, $6}' >"$TMP/$w.$st.err"
  done
  cmp -s "$TMP/$w.sparse.err" "$TMP/$w.dense.err" ||
    fail "$w: sparse and dense storage disagree: $(cat "$TMP/$w.sparse.err") / $(cat "$TMP/$w.dense.err")"
done

# the tree learners take the sparse set as it is, and AOSO's sparse outputs
# score the sparse test file through predict_sparse (not the dense predict_add)
sed 's/^recipe = mcboost-exp$/recipe = aoso-logitboost/' "$TMP/e.ini" >"$TMP/aoso.ini"
"$BL" run -v -q -o "$TMP/out5" "$TMP/aoso.ini" >/dev/null 2>"$TMP/err" \
  || fail "aoso run exited $?: $(cat "$TMP/err")"
grep -q "densified" "$TMP/err" && fail "aoso-tree (predict_sparse) got a dense copy"
BOOSTLAB_LAZY=0 "$BL" run -q -o "$TMP/out6" "$TMP/aoso.ini" >/dev/null 2>"$TMP/err" \
  || fail "dense hand-off aoso run exited $?: $(cat "$TMP/err")"
for o in out5 out6; do
  "$BL" results "$TMP/$o" | awk 'NR > 1 {print $5, $6}' >"$TMP/$o.err"
done
cmp -s "$TMP/out5.err" "$TMP/out6.err" \
  || fail "sparse and dense hand-offs disagree: $(cat "$TMP/out5.err") / $(cat "$TMP/out6.err")"

# a loss whose update is row-major only: the host transposes for aoso-tree's
# class-major requests; the same curves as without the lazy hand-off
FIX="${BL_TOP_BUILDDIR:-.}/tests/plugins/.libs"
printf 'loss = fixture-update-rm\n' >>"$TMP/aoso.ini"
for lazy in 1 0; do
  BOOSTLAB_LAZY=$lazy BOOSTLAB_PLUGIN_PATH="$FIX/update_rm.so" "$BL" run -q -o "$TMP/rm$lazy" \
    "$TMP/aoso.ini" >/dev/null 2>"$TMP/err" || fail "aoso on fixture-update-rm exited $?: $(cat "$TMP/err")"
  "$BL" results --curves -f csv -o "$TMP/rm$lazy.csv" "$TMP/rm$lazy" || fail "no curves"
done
cmp -s <(cut -d, -f8-13 "$TMP/rm1.csv") <(cut -d, -f8-13 "$TMP/rm0.csv") \
  || fail "row-major update, host transposed: other curves than without the lazy hand-off"

# a wide bag of words (5000 features): the sparse trees build and scan its
# large nodes in two halves, on two threads when there are; the models are
# the same bits on one thread and on two
"${PYTHON:-python3}" - "$TMP" <<'PY'
import random, sys
random.seed(5)
with open(sys.argv[1] + "/bag.libsvm", "w") as f:
    for i in range(400):
        c = i % 4
        cols = set(random.sample(range(1, 5001), 9)) | {1 + 40 * c + random.randrange(40)}
        f.write(" ".join([str(c)] + [f"{j}:1" for j in sorted(cols)]) + "\n")
PY
for t in 1 2; do
  "$BL" train -q -t $t -d "$TMP/bag.libsvm" -r aoso-logitboost -i 6 -m "$TMP/bag.$t" 2>"$TMP/err" ||
    fail "aoso on the bag, $t threads, exited $?: $(cat "$TMP/err")"
done
cmp -s "$TMP/bag.1" "$TMP/bag.2" || fail "aoso on a sparse bag: 1 and 2 threads give other models"

# method xgboost reads a sparse set as CSR (no dense copy); XGBoost takes an
# absent entry as missing, a dense 0 as a value, which on 0/1 features
# splits the rows alike: the curves of a binary set held sparse and dense
# agree (test error exactly, training loss to 1e-6: XGBoost's own sums)
if "$BL" --version | grep -q ', XGBoost)$'; then
  "${PYTHON:-python3}" - "$TMP" <<'PY'
import random, sys
random.seed(11)
for name, n in (("b", 240), ("bt", 90)):
    with open(f"{sys.argv[1]}/{name}.libsvm", "w") as f:
        for i in range(n):
            c = i % 3
            cols = set(random.sample(range(1, 41), 3)) | {1 + 10 * c + random.randrange(10)}
            f.write(" ".join([str(c)] + [f"{j}:1" for j in sorted(cols)]) + "\n")
PY
  { printf '[experiment]\nname = xs\niterations = 8\n'
    for st in sparse dense; do
      printf '[data %s]\nfile = b.libsvm\ntest_file = bt.libsvm\nstorage = %s\n' $st $st
    done
    printf '[algorithm xgb]\nrecipe = xgboost-hist\n'; } >"$TMP/xs.ini"
  "$BL" run -v -q -t 1 -o "$TMP/xs" "$TMP/xs.ini" >/dev/null 2>"$TMP/err" ||
    fail "xgboost on sparse and dense exited $?: $(tail -3 "$TMP/err")"
  grep -q "densified" "$TMP/err" && fail "method xgboost got a dense copy of the sparse set"
  "$BL" results --curves -f csv -o "$TMP/xs.csv" "$TMP/xs" || fail "no curves"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { k = $c["data"] SUBSEP $c["iteration"]; e[k] = $c["test_err"]; l[k] = $c["train_loss"]; n[$c["data"]]++ }
    END { for (i = 1; i <= 8; i++) { s = "sparse" SUBSEP i; t = "dense" SUBSEP i; d = l[s] - l[t]
            if (!(s in e) || !(t in e) || e[s] != e[t] || d * d > 1e-12 * l[t] * l[t]) bad++ }
          exit !(n["sparse"] == 8 && n["dense"] == 8 && !bad) }' "$TMP/xs.csv" ||
    fail "xgboost: sparse and dense curves differ: $(cat "$TMP/xs.csv")"
fi

finish

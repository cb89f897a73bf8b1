# SPDX-License-Identifier: GPL-3.0-or-later
# bench/suite.sh works end to end in a tiny run (optdigits, 3 stumps, 1 tree
# round, the k scaling series on 3 small synthetic sets): its tables have
# their rows and columns and its peers refuse bad arguments.  Timings are
# not checked.  Skipped (77) without a python3 with numpy, scikit-learn and
# XGBoost, or without GNU time (scripts/install-deps.sh --bench).
. "$(dirname "$0")/lib.sh"
PY=${PY:-/usr/bin/python3}
"$PY" -c 'import numpy, sklearn, xgboost' 2>/dev/null || { echo "SKIP: no scikit-learn/XGBoost for $PY"; exit 77; }
[[ -x /usr/bin/time ]] || { echo "SKIP: no GNU time"; exit 77; }
S=$SRC/bench/suite.sh
export BL PY

bash "$S" --quick --threads 2 --data optdigits --stumps 3 --rounds 1 --series k \
  --out "$TMP/s" >"$TMP/out" 2>"$TMP/err" || fail "suite exited $?: $(tail -5 "$TMP/err")"
grep -q '^### optdigits: stumps$' "$TMP/out" || fail "no stump table: $(head -c 600 "$TMP/out")"
grep -q '^### optdigits: trees ' "$TMP/out" || fail "no tree table"
grep -q '^### s per iteration against classes k' "$TMP/out" || fail "no k scaling table"
# the stump table: sklearn's column, then each boostlab recipe and its ratio
grep -q '^|  | sklearn [0-9.]* AdaBoost (SAMME, stumps) | boostlab samme | samme / sklearn | boostlab mcboost-exp | mcboost-exp / sklearn |$' \
  "$TMP/out" || fail "stump table header: $(grep -m1 '^|  | sklearn' "$TMP/out")"
grep -q '^| iterations | 3 | 3 |  | 3 |  |$' "$TMP/out" || fail "stump iterations row"
# the tree table: HGB, XGBoost, mart and aoso-logitboost (k = 10 times the rounds)
grep -q '^|  | HGB (sklearn [0-9.]*) | XGBoost [0-9.]* hist | boostlab mart | mart / HGB | mart / XGBoost | boostlab aoso-logitboost | aoso-logitboost / HGB | aoso-logitboost / XGBoost |$' \
  "$TMP/out" || fail "tree table header: $(grep -m1 '^|  | HGB' "$TMP/out")"
grep -q '^| iterations | 1 | 1 | 1 |  |  | 10 |  |  |$' "$TMP/out" || fail "tree iterations row"
grep -q '^| trees added | 10 | 10 | 10 | 1.00 | 1.00 | 10 | 1.00 | 1.00 |$' "$TMP/out" || fail "trees added row"
for r in 's per iteration \(median\)' 's per tree' 'training wall time, s' 'final test error %' \
         'wall time to [0-9.]* % test error, s' 'peak RSS, MB' 'process wall time' 'prediction, test rows per s'; do
  n=$(grep -cE "^\| (\*\*)?$r" "$TMP/out")
  want=2; [[ $r == 's per tree' ]] && want=1
  [[ $n -eq $want ]] || fail "$n rows /$r/, expected $want"
done
# every cell of the two tables is filled (a number or a label), none is '–'
awk '/^### optdigits/ { on = 1 } /^### s per/ { on = 0 } on && /^\| / && /–/' "$TMP/out" | grep -q . &&
  fail "empty cells: $(awk '/^\| / && /–/' "$TMP/out" | head -3)"
# each row has its table's number of cells
awk -F'|' '/^### optdigits: stumps/ { w = 8 } /^### optdigits: trees/ { w = 11 } /^### s per/ { w = 5 }
  /^\|/ && NF != w { print; bad = 1 } END { exit bad }' "$TMP/out" >"$TMP/bad" || fail "ragged rows: $(head -3 "$TMP/bad")"
# boostlab predict on the model `boostlab train` made: the run's final error
e_run=$(grep '^| final test error %' "$TMP/out" | head -1 | cut -d'|' -f4 | tr -d ' ')
e_pred=$(awk '{ print $2; exit }' "$TMP/s/optdigits/bl-samme/predict/predict.txt")
[[ $e_run == "$e_pred" ]] || fail "samme: run's final test error $e_run %, predict's $e_pred %"
grep -cE '^\| (2|4|8) \| [0-9.]+ \| [0-9.]+ \|$' "$TMP/out" | grep -qx 3 || fail "k series rows"
grep -qE '^\| \*\*fitted slope\*\* \(log-log\) \| \*\*-?[0-9.]+\*\* \| \*\*-?[0-9.]+\*\* \|$' "$TMP/out" || fail "slope row"
if command -v gnuplot >/dev/null; then
  head -c 4 "$TMP/s/scaling.png" | od -An -c | grep -q 'P   N   G' || fail "no PNG plot"
fi

# bad arguments: a clear message and a non-zero exit
expect_fail 2 "--threads expects a positive integer, not '0'" -- bash "$S" --threads 0
expect_fail 2 "--data: unknown 'iris'" -- bash "$S" --data iris
expect_fail 2 "--series: unknown 'x'" -- bash "$S" --series m,x
expect_fail 2 "unknown option '--fast'" -- bash "$S" --fast
expect_fail 2 "--iterations: expects a positive integer, not '-3'" -- "$PY" "$SRC/bench/sk_peer.py" \
  --model ada --iterations -3 --csv "$SRC/data/iris.csv" "$SRC/data/iris.csv"
expect_fail 2 "invalid choice: 'svm'" -- "$PY" "$SRC/bench/sk_peer.py" \
  --model svm --iterations 3 --csv "$SRC/data/iris.csv" "$SRC/data/iris.csv"
finish

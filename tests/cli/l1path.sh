# SPDX-License-Identifier: GPL-3.0-or-later
# epsilon-boosting (configs/eps-boost-*.ini, the eps-step solver) and the
# exact l1 path tool of Fig. 1 (experiments/stagewise/l1path):
#   - each epsilon step adds exactly the step to the model's l1 norm;
#   - on a one-hypothesis, two-class dictionary the exact path is known in
#     closed form (AdaBoost's alpha, clipped to the budget) and l1path's
#     exact losses must equal it;
#   - on a small digits dictionary the exact solution is a KKT point at
#     every budget, within the budget, and no worse than the epsilon path
#     there; the figure is drawn;
#   - bad input is refused with a message naming what is wrong.
. "$(dirname "$0")/lib.sh"
TOOL="${BL_TOP_BUILDDIR:-.}/experiments/stagewise/l1path"
[[ -x $TOOL ]] || { echo "FAIL: $TOOL is not built"; exit 1; }
export OMP_NUM_THREADS=1

# ---- one hypothesis, two classes: the closed form ------------------------------
# 14 rows where h agrees with the class (class 0 <-> h = +1), 6 where it does
# not: margin-exp's log sum_ir exp(-rho) is log(20 + 14 e^-a + 6 e^a) for
# the coefficient difference a, minimal at a* = 1/2 ln(14/6); the cheapest
# W with difference a has l1 norm |a|, so at budget t the loss is that at
# a = min(t, a*).
{
  echo label,h1
  for i in 1 2 3 4 5 6 7; do echo 0,1; echo 1,-1; done
  for i in 1 2 3; do echo 0,-1; echo 1,1; done
} >"$TMP/one.csv"
"$BL" train -q --data "$TMP/one.csv" --recipe eps-boost-exp --set solver.step=0.05 \
  --iterations 20 --model "$TMP/one.model" 2>"$TMP/err" || fail "train on one.csv: $(cat "$TMP/err")"
"$TOOL" path --data "$TMP/one.csv" --model "$TMP/one.model" --out "$TMP/one-path.csv" \
  >"$TMP/one.out" 2>"$TMP/err" || fail "l1path path on one.csv: $(cat "$TMP/err")"
[[ $(wc -l <"$TMP/one-path.csv") -eq 22 ]] || fail "one-path.csv: $(wc -l <"$TMP/one-path.csv") lines, expected 22"
awk -F, 'NR > 1 {
    a = $2 < 0.5 * log(14 / 6) ? $2 : 0.5 * log(14 / 6)
    want = log(20 + 14 * exp(-a) + 6 * exp(a))
    if ((($5 - want) ^ 2) ^ 0.5 > 1e-7 * want) { print "step " $1 ": exact loss " $5 " , closed form " want; bad = 1 }
    if ((($2 - 0.05 * $1) ^ 2) ^ 0.5 > 1e-12) { print "step " $1 ": l1 norm " $2 " is not 0.05 * step"; bad = 1 }
  } END { exit bad }' "$TMP/one-path.csv" >"$TMP/bad" || fail "one hypothesis: $(head -n 5 "$TMP/bad")"

# ---- digits 3/6/9, 4 stumps ---------------------------------------------------------
awk -F, 'NR == 1 { print; next } ($1 == 3 || $1 == 6 || $1 == 9) && n[$1]++ < 10' \
  "$SRC/data/digits.csv" >"$TMP/d.csv"
"$BL" train -q --data "$TMP/d.csv" --recipe eps-boost-exp --iterations 200 --model "$TMP/all.model" \
  2>"$TMP/err" || fail "train on digits: $(cat "$TMP/err")"
"$TOOL" dict --data "$TMP/d.csv" --model "$TMP/all.model" --count 4 --out "$TMP/dict.csv" \
  2>"$TMP/dict.err" || fail "l1path dict: $(cat "$TMP/dict.err")"
[[ $(head -n 1 "$TMP/dict.csv") == label,h1,h2,h3,h4 && $(wc -l <"$TMP/dict.csv") -eq 31 ]] ||
  fail "dict.csv: $(head -n 2 "$TMP/dict.csv")"
grep -q '^h1 = term 1 of the model: f=[0-9]* t=[-0-9.e]* pol=-*1$' "$TMP/dict.err" || fail "dict does not say where h1 comes from: $(cat "$TMP/dict.err")"
awk -F, 'NR > 1 { for (j = 2; j <= NF; j++) if ($j != 1 && $j != -1) bad = 1 } END { exit bad }' "$TMP/dict.csv" ||
  fail "dict.csv holds values other than +-1"
for loss in exp log; do
  "$BL" train -q --data "$TMP/dict.csv" --recipe eps-boost-$loss --set solver.step=0.02 \
    --iterations 150 --model "$TMP/$loss.model" 2>"$TMP/err" || fail "train eps-boost-$loss: $(cat "$TMP/err")"
  "$TOOL" path --data "$TMP/dict.csv" --model "$TMP/$loss.model" --every 5 --out "$TMP/$loss.csv" \
    --plot "$TMP/fig-$loss" >"$TMP/$loss.out" 2>"$TMP/err" || fail "l1path path ($loss): $(cat "$TMP/err")"
  grep -q "^loss margin-$loss, 30 rows, 3 classes, dictionary of 4 hypotheses" "$TMP/$loss.out" ||
    fail "$loss: summary: $(cat "$TMP/$loss.out")"
  [[ $(wc -l <"$TMP/$loss.csv") -eq 32 ]] || fail "$loss.csv: $(wc -l <"$TMP/$loss.csv") lines, expected 32"
  # columns: step norm eps_loss exact_norm exact_loss lambda kkt max_gap
  awk -F, 'NR > 1 {
      if ((($2 - 0.02 * $1) ^ 2) ^ 0.5 > 1e-12) { print "step " $1 ": norm " $2 " is not 0.02 * step"; bad = 1 }
      if ($4 > $2 * (1 + 1e-12)) { print "step " $1 ": exact norm " $4 " above the budget " $2; bad = 1 }
      if ($5 > $3 + 1e-6 * ($3 > 1 ? $3 : 1)) { print "step " $1 ": exact loss " $5 " above the epsilon path " $3; bad = 1 }
      if ($7 > 1e-5) { print "step " $1 ": KKT residual " $7; bad = 1 }
    } END { exit bad }' "$TMP/$loss.csv" >"$TMP/bad" || fail "$loss: $(head -n 5 "$TMP/bad")"
  [[ -s $TMP/fig-$loss.png && -s $TMP/fig-$loss.svg ]] || fail "$loss: no figure"
done

# ---- refusals -----------------------------------------------------------------------
expect_fail 1 "row 1, column f1: 0 is not \+-1" -- "$TOOL" path --data "$TMP/d.csv" --model "$TMP/exp.model"
expect_fail 1 "row 1: class '0' is not one of the model's" -- \
  "$TOOL" path --data "$TMP/one.csv" --model "$TMP/exp.model"
cut -d, -f1-3 "$TMP/dict.csv" >"$TMP/dict2.csv"
expect_fail 1 "dict2.csv: the model was trained on 4 columns, the data has 2 dictionary columns" -- \
  "$TOOL" path --data "$TMP/dict2.csv" --model "$TMP/exp.model"
expect_fail 1 "only 4 distinct hypotheses, not 9" -- \
  "$TOOL" dict --data "$TMP/dict.csv" --model "$TMP/exp.model" --count 9 --out "$TMP/x.csv"
expect_fail 2 "usage: l1path" -- "$TOOL" path --data "$TMP/d.csv"
exit $((fails > 0))

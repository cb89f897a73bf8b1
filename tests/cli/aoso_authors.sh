# SPDX-License-Identifier: GPL-3.0-or-later
# The AOSO tree's two behaviours of the authors' code for side-by-side runs
# (docs/results-logitboost.md, "Optdigits against the authors' code"):
# weak.search = exact-lt sends a value equal to a split's midpoint, one the
# node does not hold, right (x < midpoint goes left); weak.float_leaves
# rounds leaf values to single precision; weak.naive_residuals computes
# 1 - p as the authors' code does.  One tree on six examples: the root
# splits x in {0, 2} at 1, each leaf holds 2 of one class and 1 of the
# other, so its Newton value is 1/3 (spec §2.2 at F = 0).
. "$(dirname "$0")/lib.sh"

printf 'label,x\n0,0\n0,0\n1,0\n1,2\n1,2\n0,2\n' >"$TMP/tr.csv"
printf 'label,x\n0,1\n' >"$TMP/mid.csv"
train() { # NAME KEY=VALUE...: one iteration into $TMP/NAME.model, its forest line into $TMP/NAME.f
  local name=$1; shift
  local sets=()
  for kv in "$@"; do sets+=(--set "$kv"); done
  "$BL" train --quiet --data "$TMP/tr.csv" --recipe aoso-logitboost ${sets[@]+"${sets[@]}"} \
    --iterations 1 --model "$TMP/$name.model" 2>"$TMP/err" || fail "train $name exited $?: $(cat "$TMP/err")"
  grep -o 'forest .*' "$TMP/$name.model" >"$TMP/$name.f" || fail "$name: model has no forest"
}
predict_mid() { # NAME: the label predicted for x = 1
  "$BL" predict --model "$TMP/$1.model" --data "$TMP/mid.csv" --output "$TMP/$1.pred" 2>"$TMP/err" \
    || fail "predict $1 exited $?: $(cat "$TMP/err")"
  cat "$TMP/$1.pred"
}

for s in bins exact exact-lt; do train "$s" weak.search=$s; done
grep -q ' s 0 1 1 2 ' "$TMP/exact.f" || fail "exact: root threshold is not the midpoint 1: $(cat "$TMP/exact.f")"
grep -q ' s 0 0.99999994 1 2 ' "$TMP/exact-lt.f" \
  || fail "exact-lt: root threshold is not just below 1: $(cat "$TMP/exact-lt.f")"
[[ $(predict_mid bins) == 0 && $(predict_mid exact) == 0 ]] || fail "bins/exact: x = 1 did not go left"
[[ $(predict_mid exact-lt) == 1 ]] || fail "exact-lt: x = 1 did not go right"
# the leaves (and so training) are the same in all three
for s in exact exact-lt; do
  [[ $(sed 's/ s 0 [^ ]* / /' "$TMP/$s.f") == $(sed 's/ s 0 [^ ]* / /' "$TMP/bins.f") ]] \
    || fail "$s: leaves differ from bins': $(cat "$TMP/$s.f")"
done

train dbl
train flt weak.float_leaves=true
grep -q ' l 2 0 0.33333333333333331 1 -0.33333333333333331 ' "$TMP/dbl.f" \
  || fail "double leaves: not 1/3: $(cat "$TMP/dbl.f")"
grep -q ' l 2 0 0.3333333432674408 1 -0.3333333432674408 ' "$TMP/flt.f" \
  || fail "float_leaves: 1/3 not rounded to float: $(cat "$TMP/flt.f")"

# naive residuals: on a separable set (two classes, shrinkage 1) p_y rounds
# to 1 within 80 iterations; 1 - p_y, computed from p, loses its digits on
# the way (so the leaves part from the exact residuals' 1/2), and once it
# is 0 for every example the run stops, as the authors' code does when its
# loss sum -log p_y is 0; the exact residuals go on (loss_tol = 0)
printf 'label,x\n0,0\n0,0\n0,0\n1,2\n1,2\n1,2\n' >"$TMP/tr.csv"
for nv in false true; do
  "$BL" train --quiet --data "$TMP/tr.csv" --recipe aoso-logitboost --set shrinkage=1 --set loss_tol=0 \
    --set weak.naive_residuals=$nv --iterations 80 --model "$TMP/n$nv.model" 2>"$TMP/err" \
    || fail "train naive_residuals=$nv exited $?: $(cat "$TMP/err")"
  grep -o 'forest .*' "$TMP/n$nv.model" >"$TMP/n$nv.f"
done
nt=$(wc -l <"$TMP/ntrue.f")
[[ $(wc -l <"$TMP/nfalse.f") == 80 ]] || fail "exact residuals stopped before 80 iterations"
[[ $nt -gt 10 && $nt -lt 80 ]] || fail "naive residuals: $nt iterations, expected a stop before 80"
leaf() { sed -n "${nt}p" "$1" | awk '{ print $14 }'; } # tree nt's first leaf value
awk -v e="$(leaf "$TMP/nfalse.f")" -v n="$(leaf "$TMP/ntrue.f")" \
  'BEGIN { exit !(e - 0.5 < 1e-9 && 0.5 - e < 1e-9 && (n - 0.5 > 1e-6 || 0.5 - n > 1e-6)) }' \
  || fail "tree $nt's leaf: exact residuals $(leaf "$TMP/nfalse.f") (want 1/2), naive $(leaf "$TMP/ntrue.f") (want another)"

expect_fail 1 "weak.search" -- "$BL" train --data "$TMP/tr.csv" --recipe aoso-logitboost \
  --set weak.search=lt --model "$TMP/x.model"
finish

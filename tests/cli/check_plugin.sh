# SPDX-License-Identifier: GPL-3.0-or-later
# `boostlab check-plugin`: every in-tree plugin keeps its role's contract
# (structured tasks and the gaussian projection, in its three distributions,
# included),
# the fixtures that break one
# rule fail exactly that check with a small input shown, files that are not
# plugins are refused with the loader's message, a crashing plugin is
# reported instead of ending the run, and options and usage errors behave.
. "$(dirname "$0")/lib.sh"

FIX="${BL_TOP_BUILDDIR:-.}/tests/plugins/.libs"

# check-plugin's per-check timeout (default 120 s) is a hang guard; under
# ASan on a loaded 2-core machine an honest check (svm's) has taken longer,
# so these runs get a far wider guard: the test checks behaviour, not time.
# The timeout itself is tested below with a plugin that really hangs.
BLC=("$BL" check-plugin --timeout 1800)

# check_fails NAME PATTERN ARGS...: `check-plugin ARGS` exits 1 (a check
# failed) with a line matching PATTERN (grep); its report is in $TMP/NAME.
check_fails() {
  local name=$1 pat=$2; shift 2
  "${BLC[@]}" "$@" >"$TMP/$name" 2>&1
  local st=$?
  [[ $st -eq 1 ]] || fail "$name: expected exit 1, got $st"
  grep -q -- "$pat" "$TMP/$name" || fail "$name: no line /$pat/: $(cat "$TMP/$name")"
}

# shown NAME CHECK LINES PATTERN WHAT: the LINES lines after the FAIL line of
# CHECK in $TMP/NAME hold one matching PATTERN (grep -E): WHAT is shown.
shown() {
  local name=$1 check=$2 n=$3 pat=$4 what=$5
  grep -A"$n" "^FAIL $check" "$TMP/$name" | grep -qE -- "$pat" \
    || fail "$name: $what is not shown: $(grep -A"$n" "^FAIL $check" "$TMP/$name")"
}

# ---- every in-tree plugin ------------------------------------------------
# All of them pass.  (lbfgsb-line and exp-step declare that they search
# w = alpha * 1 and prox-group that its penalty is nu ||w||_2 in
# solver.h, and are checked against those contracts.)
# The structured tasks are among them; hierarchy matches its taxonomy's leaves
# to class names, so it is checked on its own below with -p taxonomy=FILE and
# --classes FILE (and, without them, must fail task/open saying so).  crf
# reads its images from a prepared folder named by the rows' image ids,
# which random rows are not: it must fail task/open saying what is missing,
# and pass on row subsets of a prepared set's image list (--data) below.
all_names=$("$BL" plugins | tail -n +2 | awk '{print $1}')
names=$(echo "$all_names" | grep -vx -e hierarchy -e crf)
[[ $(echo "$names" | wc -l) -ge 10 ]] || fail "plugins lists too few: $names"
for n in binary-task auc multiclass hierarchy perceptron linsvm wlda gaussian; do
  echo "$all_names" | grep -qx -- "$n" || fail "plugins does not list $n"
done
# shellcheck disable=SC2086
"${BLC[@]}" $names >"$TMP/all" 2>"$TMP/all.err"
st=$?
[[ $st -le 1 ]] || fail "check-plugin on every plugin exited $st: $(head -c 400 "$TMP/all.err")"
[[ -s $TMP/all.err ]] && fail "check-plugin wrote to stderr: $(head -c 400 "$TMP/all.err")"
for n in $names; do
  grep -q "^== $n (" "$TMP/all" || fail "no report for $n"
done
[[ $st -eq 0 ]] || fail "in-tree plugins failed checks: $(grep -B1 -A12 '^FAIL' "$TMP/all" | head -30)"
grep -qE "^check-plugin: [0-9]+ plugins, [0-9]+ checks passed, 0 failed, [0-9]+ skipped \(--seed 1 --trials 3\)\$" "$TMP/all" \
  || fail "summary line: $(tail -1 "$TMP/all")"
# the solvers again, over more seeds: the answers must not depend on the heap
for seed in 2 3 4; do
  "${BLC[@]}" --seed $seed --trials 4 lbfgsb-row lbfgsb-tc lbfgsb-line prox-group exp-step eps-step >"$TMP/sv" 2>&1 \
    || fail "solvers fail with --seed $seed: $(grep -A8 '^FAIL' "$TMP/sv" | head -10)"
done
# hierarchy with a taxonomy and the class names it is written for
"${BLC[@]}" -p taxonomy="$SRC/data/satimage.taxonomy" --classes "$SRC/data/satimage.classes" \
  hierarchy >"$TMP/hier" 2>&1 || fail "hierarchy with a taxonomy: $(grep -A12 '^FAIL' "$TMP/hier" | head -20)"
grep -q '^PASS task/argmax-max: .*(k = 6 (--classes), ' "$TMP/hier" || fail "hierarchy: $(cat "$TMP/hier")"
"${BLC[@]}" -p taxonomy="$SRC/data/satimage.taxonomy" -p coding=flat \
  --classes "$SRC/data/satimage.classes" hierarchy >"$TMP/hflat" 2>&1 \
  || fail "hierarchy coding=flat: $(grep -A12 '^FAIL' "$TMP/hflat" | head -20)"
# without its taxonomy: task/open says what is missing, the rest is not run
check_fails hier_none '^FAIL task/open: open refused every data set tried .*parameter taxonomy is required' hierarchy
grep -q '^FAIL task/open: .*give it with -p taxonomy=VALUE' "$TMP/hier_none" || fail "no -p hint: $(grep task/open "$TMP/hier_none")"
grep -q '^SKIP task/argmax-hinge: not run: open refused every data set' "$TMP/hier_none" \
  || fail "hierarchy without taxonomy: $(cat "$TMP/hier_none")"
[[ $(grep -c '^FAIL' "$TMP/hier_none") -eq 1 ]] || fail "hierarchy without taxonomy: one failure expected: $(grep '^FAIL' "$TMP/hier_none")"
check_fails crf_none '^FAIL task/open: open refused every data set tried .*parameter dir is required' crf
[[ $(grep -c '^FAIL' "$TMP/crf_none") -eq 1 ]] || fail "crf without dir: one failure expected: $(grep '^FAIL' "$TMP/crf_none")"
check_fails crf_rows '^FAIL task/open: .*not an image id' -p dir="$TMP" crf
if [[ -f /usr/lib/python3/dist-packages/skimage/data/horse.png ]]; then
  "$BL" segment make horse "$TMP/seg" --seed 3 --images 12 --width 96 --height 72 >/dev/null &&
    "$BL" segment prepare "$TMP/seg" "$TMP/segp" -i 10 -B 10 -q -t 1 >/dev/null ||
    fail "segment make/prepare for the crf check"
  "${BLC[@]}" -p dir="$TMP/segp" --data "$TMP/segp/train.csv" -l set crf >"$TMP/crf" 2>&1 ||
    fail "crf on a prepared set: $(grep -A12 '^FAIL' "$TMP/crf" | head -20)"
  grep -q '^PASS task/argmax-max: .*rows of --data' "$TMP/crf" || fail "crf: $(cat "$TMP/crf")"
  expect_fail 2 "--data: .*nope.csv" -- "${BLC[@]}" --data "$TMP/nope.csv" crf
else
  echo "note: python3-skimage's images missing; crf's contract on a prepared set not run"
fi
expect_fail 2 "--classes: .*nope.classes" -- "${BLC[@]}" --classes "$TMP/nope.classes" multiclass
# the others pass alone, exit 0
for n in margin-exp mo-exp softmax stump dense-ecoc ova multiclass auc perceptron linsvm wlda exp-step gaussian; do
  "${BLC[@]}" "$n" >"$TMP/one" 2>&1 || fail "$n does not pass: $(grep -A8 '^FAIL' "$TMP/one" | head -10)"
done
# svm with each kernel (weighted mode: check-plugin gives no margins)
for k in linear perceptron rbf; do
  "${BLC[@]}" -p kernel=$k svm >"$TMP/svm" 2>&1 \
    || fail "svm kernel=$k: $(grep -A8 '^FAIL' "$TMP/svm" | head -10)"
done
# wlda's variants: a hypothesis per column, axis-aligned rivals, random
# feature subsets, no ridge (the pseudo-inverse when singular)
"${BLC[@]}" --trials 4 -p criterion=each -p with_stumps=true -p features=2 -p ridge=0 wlda \
  >"$TMP/wlda" 2>&1 || fail "wlda variant: $(grep -A8 '^FAIL' "$TMP/wlda" | head -10)"
# margin-exp with RandomBoost's pair set (r != y_i only): the whole loss
# contract, not only the params check's gradient
"${BLC[@]}" -p pairs=wrong margin-exp >"$TMP/mexpw" 2>&1 \
  || fail "margin-exp pairs=wrong: $(grep -A8 '^FAIL' "$TMP/mexpw" | head -10)"
grep -q '^   parameters: pairs=wrong$' "$TMP/mexpw" || fail "margin-exp pairs=wrong: the variant is not named"
for c in gradient hessian convexity extreme row determinism; do
  grep -q "^PASS loss/$c: " "$TMP/mexpw" || fail "margin-exp pairs=wrong: loss/$c: $(grep "loss/$c" "$TMP/mexpw")"
done
grep -A3 '^== exp-step (' "$TMP/all" | grep -q '^PASS solver/kkt: ' || fail "exp-step: no solver/kkt line in the full run"
# the projection's other distributions, and a small n
for p in dist=sparse dist=rademacher n=3; do
  "${BLC[@]}" -p "$p" gaussian >"$TMP/proj" 2>&1 \
    || fail "gaussian $p does not pass: $(grep -A8 '^FAIL' "$TMP/proj" | head -10)"
  grep -q "^   parameters: $p\$" "$TMP/proj" || fail "gaussian $p: the variant is not named"
done
# n's bound 1e7 is created but its columns are not computed
grep -A3 '^== gaussian (' "$TMP/all" | grep -q '^PASS projection/params: .*not computed (dim() above 100000): n=10000000' \
  || fail "gaussian params: $(grep projection/params "$TMP/all")"
# every role's checks are there
for c in loss/gradient loss/hessian loss/convexity loss/extreme loss/row loss/coded-gradient \
  loss/determinism loss/params weak/edge weak/save-load weak/determinism weak/outdim \
  weak/predict weak/predict-add solver/kkt solver/bounds solver/descent coding/shape coding/columns \
  coding/refusal coding/determinism task/open task/params task/loss-zero task/loss-range \
  task/random-label task/alternatives task/dpsi task/dpsi-truth task/argmax-hinge \
  task/argmax-max task/predict task/evaluate task/class-labels task/determinism \
  task/format-label projection/create projection/params projection/shape projection/entries \
  projection/determinism projection/order projection/threads projection/distinct \
  projection/scale projection/norm; do
  grep -qE "^(PASS|FAIL|SKIP) $c: " "$TMP/all" || fail "no line for $c"
done
grep -q '^PASS loss/row: ' "$TMP/all" || fail "no loss checked its row fast path"
grep -q '^PASS loss/coded-gradient: ' "$TMP/all" || fail "mo-exp's eval_coded was not checked"
grep -q '^SKIP loss/row: no row fast path' "$TMP/all" || fail "a loss without row path is not a SKIP"
# the single-column base learners are fitted in the params check (c = 1)
for n in perceptron linsvm; do
  grep -A2 "^== $n (" "$TMP/all" | grep -q '^PASS weak/params: .*(c = 1, k, k + 3)' \
    || fail "$n params: $(grep -A2 "^== $n (" "$TMP/all")"
done
for n in aoso-tree diag-tree class-trees abc-trees; do
  grep -A12 "^== $n (" "$TMP/all" | grep -q '^PASS weak/predict-add: ' \
    || fail "$n: predict_add not checked: $(grep -A12 "^== $n (" "$TMP/all" | grep predict-add)"
done
grep -q '^PASS task/class-labels: ' "$TMP/all" || fail "no task's class labels were checked"
grep -q '^SKIP task/class-labels: label_is_class is 0' "$TMP/all" || fail "auc's class-labels is not a SKIP"

# ---- the fixtures ---------------------------------------------------------
"${BLC[@]}" "$FIX/good_loss.so" >"$TMP/good" 2>&1 || fail "good_loss fails: $(cat "$TMP/good")"
grep -q '^PASS loss/gradient: ' "$TMP/good" || fail "good_loss: $(cat "$TMP/good")"
grep -q '^PASS loss/params: .*scale=0, scale=10' "$TMP/good" || fail "good_loss params: $(grep params "$TMP/good")"

check_fails wrong_grad '^FAIL loss/gradient: dL/dF\[0\]\[1\] is .* but central differences give ' \
  "$FIX/wrong_grad.so"
shown wrong_grad loss/gradient 6 '^    m=1 k=2$' "the input shrunk to m=1 k=2"
shown wrong_grad loss/gradient 6 '^    F=\[\[[^]]*\]\]$' "F"
shown wrong_grad loss/gradient 8 '^    fd=' "the differences"
grep -q '^PASS loss/convexity' "$TMP/wrong_grad" || fail "wrong_grad: its value is right, convexity must pass"
check_fails wrong_update_cm '^FAIL loss/update: update_class_major after moving two scores a row: -dL/dF (transposed) differs' \
  "$FIX/wrong_update_cm.so"
grep -q '^PASS loss/gradient' "$TMP/wrong_update_cm" || fail "wrong_update_cm: its gradient is right"

check_fails wrong_edge "^FAIL weak/edge: fit says edge .* but the hypothesis' predictions give max_r s_r = " \
  "$FIX/wrong_edge.so"
shown wrong_edge weak/edge 4 '^    m=[0-9]+ d=1 k=[0-9]+ c=2 ' "the input shrunk to d=1, c=2"
shown wrong_edge weak/edge 10 '^    hypothesis: "t=' "the hypothesis"
[[ $(grep -c '^FAIL' "$TMP/wrong_edge") -eq 1 ]] || fail "wrong_edge: only the edge is wrong: $(grep '^FAIL' "$TMP/wrong_edge")"
grep -q '^SKIP weak/predict-add: no predict_add' "$TMP/wrong_edge" || fail "wrong_edge: a learner without predict_add is not a SKIP"

check_fails wrong_padd "^FAIL weak/predict-add: predict_add gave F\[[0-9]*\]\[[0-9]*\] = .* on the training X, but F + w_r times predict's output is " \
  "$FIX/wrong_predict_add.so"
[[ $(grep -c '^FAIL' "$TMP/wrong_padd") -eq 1 ]] || fail "wrong_predict_add: only predict_add is wrong: $(grep '^FAIL' "$TMP/wrong_padd")"

check_fails wrong_mvout '^FAIL weak/[a-z-]*: sparse outputs (bl_fit_result.moved): moved_out is set without moved lists' \
  "$FIX/wrong_moved_out.so"

check_fails ignores_cm '^FAIL weak/class-major: the same request class-major (class_major = 1, G, H and Hu c x m): ' \
  "$FIX/ignores_cm.so"
[[ $(grep -c '^FAIL' "$TMP/ignores_cm") -eq 1 ]] || fail "ignores_cm: only class-major is wrong: $(grep '^FAIL' "$TMP/ignores_cm")"

check_fails wrong_task '^FAIL task/argmax-hinge: example [0-9]*: argmax_aug returned h = .*, which is not Delta(y_i, ybar) + F(x_i, ybar) - F(x_i, y_i) recomputed' \
  "$FIX/wrong_task.so"
grep -qE '^FAIL task/argmax-hinge: example [0-9]+: argmax_aug returned h = ' "$TMP/wrong_task" || fail "wrong_task: $(cat "$TMP/wrong_task")"
shown wrong_task task/argmax-hinge 3 '^    k=2 rows=2 d=3$' "the input shrunk to k=2 rows=2"
shown wrong_task task/argmax-hinge 8 '^    ybar = "class[0-9]" \(bytes ' "ybar"
shown wrong_task task/argmax-hinge 9 '^    dpsi\(ybar\) = .*S\[x\]\[point [0-9]+, block [0-9]+\]' "the terms and scores"
grep -q '^FAIL task/argmax-max: .* is more violated' "$TMP/wrong_task" || fail "wrong_task: argmax-max: $(grep -A3 argmax-max "$TMP/wrong_task")"
for c in loss-zero dpsi-truth predict evaluate class-labels determinism format-label; do
  grep -q "^PASS task/$c: " "$TMP/wrong_task" || fail "wrong_task: only its hinge is wrong, $c must pass: $(grep "task/$c" "$TMP/wrong_task")"
done

# three projections in one file: one whose columns depend on the call order,
# one without the 1/sqrt(n) (variance 1, not 1/n), and the two done right
check_fails wrong_proj '^FAIL projection/order: class 0, column 0, row 0 is .* when the columns are asked for again from the same instance, after all of them, but .* the first time, in ascending order from a fresh instance: a column must depend only on (params, seed, c, j)' \
  "$FIX/wrong_projection.so"
[[ $(grep -c '^== fixture-projection-' "$TMP/wrong_proj") -eq 3 ]] || fail "wrong_projection.so: not 3 plugins checked: $(grep '^==' "$TMP/wrong_proj")"
# each plugin's report: from its == line to the next
section() { awk -v p="== $2 (" 'index($0, p) == 1 {on = 1; print; next} /^== / {on = 0} on' "$TMP/$1"; }
section wrong_proj fixture-projection-order >"$TMP/p_order"
section wrong_proj fixture-projection-scale >"$TMP/p_scale"
section wrong_proj fixture-projection-good >"$TMP/p_good"
shown p_order projection/order 3 '^    k=1 n=1 columns=1 seed=0$' "the input shrunk to k=1 n=1, one column"
shown p_order projection/order 5 '^    P\^\(0\)\[:, 0\] \(then\)=\[' "the column as asked for again"
grep -q '^FAIL projection/threads: with 2 threads asking one instance at once, class ' "$TMP/p_order" \
  || fail "order fixture: threads: $(grep projection/threads "$TMP/p_order")"
for c in create params shape entries determinism distinct scale norm; do
  grep -q "^PASS projection/$c: " "$TMP/p_order" || fail "order fixture: only the call order is wrong, $c must pass: $(grep "projection/$c" "$TMP/p_order")"
done
grep -q '^FAIL projection/scale: n \* mean(P^2) is [0-9.]*, not 1 (within 0\.1; .*): the entries.* variance is [0-9.]*/n, where RandomBoost.s scaling .* needs 1/n' "$TMP/p_scale" \
  || fail "scale fixture: $(cat "$TMP/p_scale")"
shown p_scale projection/scale 3 '^    k=1 n=2 seed=0$' "the input shrunk to k=1 n=2"
grep -q '^FAIL projection/norm: ||P x||^2 averages [0-9.]* over .*, not ||x||^2 = 1' "$TMP/p_scale" \
  || fail "scale fixture: norm: $(grep projection/norm "$TMP/p_scale")"
for c in create params shape entries determinism order threads distinct; do
  grep -q "^PASS projection/$c: " "$TMP/p_scale" || fail "scale fixture: only the variance is wrong, $c must pass: $(grep "projection/$c" "$TMP/p_scale")"
done
grep -q '^FAIL' "$TMP/p_good" && fail "the right projection fixture fails: $(grep -A6 '^FAIL' "$TMP/p_good")"
[[ $(grep -c '^PASS projection/' "$TMP/p_good") -eq 10 ]] || fail "good projection: $(cat "$TMP/p_good")"
grep -q '^check-plugin: 3 plugins, [0-9]* checks passed, 4 failed, 0 skipped' "$TMP/wrong_proj" \
  || fail "wrong_projection.so: $(tail -1 "$TMP/wrong_proj")"
# one by name, with another n: it still fails, shrunk the same way
BOOSTLAB_PLUGIN_PATH="$FIX/wrong_projection.so" "${BLC[@]}" -p n=7 fixture-projection-scale >"$TMP/p_env" 2>&1
[[ $? -eq 1 ]] && grep -q '^FAIL projection/scale: n \* mean(P^2) is [0-9.]*, not 1' "$TMP/p_env" \
  || fail "scale fixture with n=7: $(grep -A4 projection/scale "$TMP/p_env")"
shown p_env projection/scale 3 '^    k=1 n=2 seed=0$' "the input shrunk from n=7 to n=2"

# ---- files that are not plugins ----------------------------------------
expect_fail 1 "good_loss.c: cannot load plugin" -- "${BLC[@]}" "$SRC/tests/plugins/good_loss.c"
expect_fail 1 "nope.so: cannot read plugin: No such file" -- "${BLC[@]}" "$TMP/nope.so"
expect_fail 1 "no entry point 'boostlab_plugin_entry'" -- "${BLC[@]}" "$FIX/no_entry.so"
expect_fail 1 "built for SDK 3.0" -- "${BLC[@]}" "$FIX/bad_version.so"
expect_fail 1 "no plugin named 'no-such-plugin'" -- "${BLC[@]}" no-such-plugin
# a name from BOOSTLAB_PLUGIN_PATH; a file with several plugins checks them all
BOOSTLAB_PLUGIN_PATH="$FIX/wrong_grad.so" "${BLC[@]}" fixture-wrong-grad >"$TMP/env" 2>&1
[[ $? -eq 1 ]] && grep -q '^FAIL loss/gradient' "$TMP/env" || fail "fixture by name: $(head -5 "$TMP/env")"
"${BLC[@]}" "${BL_TOP_BUILDDIR:-.}/plugins/solver/.libs/lbfgsb.so" >"$TMP/lb" 2>&1
[[ $(grep -c '^== lbfgsb-' "$TMP/lb") -eq 3 ]] || fail "lbfgsb.so: not 3 plugins checked: $(grep '^==' "$TMP/lb")"
# a relative path is taken from the current directory
(cd "$FIX" && "${BLC[@]}" ./good_loss.so >/dev/null 2>&1) || fail "relative path refused"

# ---- usage ------------------------------------------------------------------
"${BLC[@]}" --help | grep -q '^Usage: boostlab check-plugin' || fail "--help"
expect_fail 2 "expects at least one plugin" -- "${BLC[@]}"
expect_fail 2 "--trials expects" -- "${BLC[@]}" --trials 0 margin-exp
expect_fail 2 "--seed expects" -- "${BLC[@]}" --seed x margin-exp
expect_fail 2 "unknown option" -- "${BLC[@]}" --bogus margin-exp
expect_fail 2 "missing its value" -- "${BLC[@]}" margin-exp --trials
expect_fail 2 "--param expects NAME=VALUE" -- "${BLC[@]}" -p criterion stump
expect_fail 2 "stump has no parameter 'nosuch'" -- "${BLC[@]}" -p nosuch=1 stump
expect_fail 2 "criterion=best: expected one of" -- "${BLC[@]}" -p criterion=best stump

# options: a variant, reproducible seeds, no fork, verbose
"${BLC[@]}" -p criterion=vote stump >"$TMP/vote" 2>&1 || fail "stump criterion=vote: $(grep -A6 FAIL "$TMP/vote")"
grep -q '^   parameters: criterion=vote$' "$TMP/vote" || fail "the variant is not named"
"${BLC[@]}" --seed 7 --trials 2 "$FIX/wrong_grad.so" >"$TMP/s1" 2>&1
"${BLC[@]}" --seed 7 --trials 2 "$FIX/wrong_grad.so" >"$TMP/s2" 2>&1
cmp -s "$TMP/s1" "$TMP/s2" || fail "the same seed gave different reports"
"${BLC[@]}" --no-fork -v softmax >"$TMP/nf" 2>&1 || fail "--no-fork: $(cat "$TMP/nf")"
grep -q 'note: .* of its tolerance' "$TMP/nf" || fail "--verbose notes missing"

# ---- plugins compiled here: incomplete and outdated tasks, a crash ----------
CC=${CC:-cc}
# a task without its functions, one built for SDK 1.7 and a projection
# whose ops table does not give its size: the loader refuses each, naming
# what to do
cat >"$TMP/task.c" <<'C'
#include <boostlab/task.h>
#ifndef VERSION
#define VERSION BL_SDK_VERSION
#endif
static const struct bl_task_ops ops = {.size = sizeof(struct bl_task_ops)};
static const struct bl_plugin d = {VERSION, BL_ROLE_TASK, "my-task", "a task", 0, 0, &ops};
static const struct bl_plugin *const l[] = {&d, 0};
BL_EXPORT const struct bl_plugin *const *boostlab_plugin_entry(const struct bl_host *h);
const struct bl_plugin *const *boostlab_plugin_entry(const struct bl_host *h) { (void)h; return l; }
C
if "$CC" -shared -fPIC -I"$SRC/include" "$TMP/task.c" -o "$TMP/task.so" 2>"$TMP/cc.err" &&
   "$CC" -shared -fPIC -DVERSION='((1 << 16) | 7)' -I"$SRC/include" "$TMP/task.c" -o "$TMP/task17.so" 2>>"$TMP/cc.err" &&
   build_crashy_coding "$TMP/crash.so"; then
  expect_fail 1 "plugin my-task \(task\) lacks the required function 'open'" -- \
    "${BLC[@]}" "$TMP/task.so"
  expect_fail 1 "plugin my-task was built for SDK 1\.7; this boostlab has SDK 2\.[0-9]+, whose ops tables differ: port the plugin \(docs/sdk\.md, \"Migrating a 1\.x plugin to 2\.0\"\)" -- \
    "${BLC[@]}" "$TMP/task17.so"
  cat >"$TMP/proj.c" <<'C'
#include <boostlab/projection.h>
static void *cr(const struct bl_host *h, const union bl_value *v, size_t k, uint64_t s, char *e)
{ (void)h; (void)v; (void)k; (void)s; (void)e; return 0; }
static void de(void *x) { (void)x; }
static size_t di(const void *x) { (void)x; return 1; }
static void co(const void *x, size_t c, size_t j, double *col) { (void)x; (void)c; (void)j; col[0] = 1; }
static const struct bl_projection_ops ops = {.create = cr, .destroy = de, .dim = di, .column = co};
static const struct bl_plugin d = {BL_SDK_VERSION, BL_ROLE_PROJECTION, "no-size", "a projection", 0, 0, &ops};
static const struct bl_plugin *const l[] = {&d, 0};
BL_EXPORT const struct bl_plugin *const *boostlab_plugin_entry(const struct bl_host *h);
const struct bl_plugin *const *boostlab_plugin_entry(const struct bl_host *h) { (void)h; return l; }
C
  if "$CC" -shared -fPIC -I"$SRC/include" "$TMP/proj.c" -o "$TMP/nosize.so" 2>>"$TMP/cc.err"; then
    expect_fail 1 "plugin no-size: its ops table gives size 0, where SDK 2\.[0-9]+ takes [0-9]+ \(set its first member, size, to sizeof\(struct bl_projection_ops\)\)" -- \
      "${BLC[@]}" "$TMP/nosize.so"
  else
    fail "the projection without a size did not compile: $(tail -5 "$TMP/cc.err")"
  fi
  # a step solver (BL_SPACE_STEP) is held to its rule: this one always moves
  # w[0] up, the steepest coordinate or not
  cat >"$TMP/step.c" <<'C'
#include <boostlab/solver.h>
static int K;
static void *cr(const struct bl_host *h, const union bl_value *v, char *e) { (void)h; (void)v; (void)e; return &K; }
static void de(void *s) { (void)s; }
static int so(void *s, const struct bl_objective *o, double *w, struct bl_solve_info *info, char *e)
{
    (void)s; (void)e;
    if (w[0] + 0.01 <= o->upper[0]) w[0] += 0.01;
    info->objective = o->eval(o->ctx, w, 0);
    for (size_t j = 0; j < o->n; j++) info->objective += o->nu * w[j];
    info->iterations = info->evaluations = 1;
    info->status = BL_SOLVE_CONVERGED;
    return 0;
}
static const struct bl_solver_ops ops = {.size = sizeof(struct bl_solver_ops), .scope = BL_SOLVE_ROW,
                                         .space = BL_SPACE_STEP, .create = cr, .destroy = de, .solve = so};
static const struct bl_plugin d = {BL_SDK_VERSION, BL_ROLE_SOLVER, "wrong-step", "w[0] += 0.01", 0, 0, &ops};
static const struct bl_plugin *const l[] = {&d, 0};
BL_EXPORT const struct bl_plugin *const *boostlab_plugin_entry(const struct bl_host *h);
const struct bl_plugin *const *boostlab_plugin_entry(const struct bl_host *h) { (void)h; return l; }
C
  if "$CC" -shared -fPIC -I"$SRC/include" "$TMP/step.c" -o "$TMP/wstep.so" 2>>"$TMP/cc.err"; then
    check_fails wstep '^FAIL solver/kkt: ' "$TMP/wstep.so"
    shown wstep solver/kkt 1 'steepest coordinate|descends at the start|no coordinate descends' "the step rule it broke"
    grep -q '^PASS solver/bounds' "$TMP/wstep" || fail "wrong-step: bounds should pass: $(cat "$TMP/wstep")"
  else
    fail "the wrong step solver did not compile: $(tail -5 "$TMP/cc.err")"
  fi
  # (in the sanitizer build, ASan would catch the SEGV itself, report it as
  # its own error and abort: let it through as the plain signal it is)
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0" \
    check_fails crash '^FAIL coding/refusal: the plugin crashed: signal 11' "$TMP/crash.so"
  shown crash coding/refusal 1 'while running: create with k = 4' "the crashing case"
  grep -q '^check-plugin: 1 plugin, ' "$TMP/crash" || fail "the run did not go on after the crash"
  # a plugin that hangs: each check it hangs in fails at --timeout, and the
  # run goes on to the next check
  if build_crashy_coding "$TMP/hang.so" -DHANG; then
    "$BL" check-plugin --timeout 3 "$TMP/hang.so" >"$TMP/hang" 2>&1
    [[ $? -eq 1 ]] || fail "hang: expected exit 1: $(cat "$TMP/hang")"
    grep -q '^FAIL coding/refusal: timed out after 3 s' "$TMP/hang" || fail "hang: no timeout: $(cat "$TMP/hang")"
    grep -q '^check-plugin: 1 plugin, 1 checks passed, 5 failed' "$TMP/hang" \
      || fail "hang: the run did not go on after the timeouts: $(tail -3 "$TMP/hang")"
  else
    fail "the hanging coding plugin did not compile: $(tail -5 "$TMP/cc.err")"
  fi
else
  echo "note: no C compiler ($CC): task-loader and crash checks skipped: $(head -c 200 "$TMP/cc.err")"
fi
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# `boostlab new ROLE NAME [DIR]` from the build tree: for every role the
# generated plugin compiles warning-free against the source tree's headers
# (by hand and with its Makefile), passes check-plugin, loads, and runs in a
# small experiment of a recipe that suits its role (the task: StructBoost
# with stumps, from its recipe and spelled out, scored by the task's own
# metrics); and the refusals.
. "$(dirname "$0")/lib.sh"

command -v cc >/dev/null 2>&1 || { echo "no C compiler: skipped"; exit 77; }
command -v make >/dev/null 2>&1 || { echo "no make: skipped"; exit 77; }
INC=$SRC/include
unset BOOSTLAB_PLUGIN_PATH BOOSTLAB_TEMPLATE_DIR

# ---- one plugin per role ---------------------------------------------------
# name (with a '-' to see it become '_' in C), then the INI lines that use it
declare -A NAME=([loss]=t-loss [weak]=t-weak [solver]=t-solver [coding]=t-coding [task]=t-task)
declare -A USE=(
  [loss]=$'recipe = mcboost-exp\nloss = t-loss'
  [weak]=$'recipe = mcboost-exp\nweak = t-weak'
  [solver]=$'recipe = mcboost-exp\nsolver = t-solver'
  [coding]=$'recipe = adaboost-ecc\ncoding = t-coding\nweak.criterion = each'
  [task]=$'recipe = structboost-stump\ntask = t-task'
)
ROLES="loss weak solver coding task"
sos=
for role in $ROLES; do
  name=${NAME[$role]} id=${NAME[$role]//-/_} dir=$TMP/$role
  "$BL" new "$role" "$name" "$dir" >"$TMP/out" 2>"$TMP/err" \
    || { fail "new $role $name exited $?: $(cat "$TMP/err")"; continue; }
  [[ -f $dir/$id.c && -f $dir/Makefile ]] || fail "new $role: no $id.c and Makefile in $dir: $(ls "$dir")"
  [[ $(ls "$dir" | wc -l) -eq 2 ]] || fail "new $role: unexpected files in $dir: $(ls "$dir")"
  grep -q "from $SRC/templates/$role" "$TMP/out" || fail "new $role: not from the source tree: $(cat "$TMP/out")"
  grep -q "$dir/$id.c" "$TMP/out" || fail "new $role: output does not list $id.c"
  grep -q "check-plugin ./$id.so" "$TMP/out" || fail "new $role: output lacks the check-plugin step"
  grep -q "make BOOSTLAB_INCLUDE=" "$TMP/out" || fail "new $role: output lacks the make step"
  grep -q "^  $role = $name\$\|^  coding = $name\$" "$TMP/out" || fail "new $role: output lacks the INI line"
  grep -q "my-$role\|my_$role" "$dir/$id.c" "$dir/Makefile" && fail "new $role: template names left in $dir"
  grep -q "\"$name\"" "$dir/$id.c" || fail "new $role: $id.c does not name the plugin $name"
  grep -q "^PLUGIN = $id\$" "$dir/Makefile" || fail "new $role: Makefile does not build $id"
  # by hand, warnings as errors ...
  cc -shared -fPIC -Wall -Wextra -Werror -I"$INC" "$dir/$id.c" -o "$dir/$id.so" -lm 2>"$TMP/err" \
    || fail "new $role: $id.c does not compile with -Wall -Wextra -Werror: $(cat "$TMP/err")"
  # ... and with its Makefile (clean, all, check)
  make -s -C "$dir" clean all BOOSTLAB_INCLUDE="$INC" CFLAGS="-O2 -Werror" >"$TMP/out" 2>&1 \
    || fail "new $role: make failed: $(cat "$TMP/out")"
  [[ -f $dir/$id.so ]] || fail "new $role: make built no $id.so"
  make -s -C "$dir" check BOOSTLAB_INCLUDE="$INC" BOOSTLAB="$BL" >"$TMP/out" 2>&1 \
    || fail "new $role: make check (check-plugin) failed: $(cat "$TMP/out")"
  grep -q "FAIL" "$TMP/out" && fail "new $role: check-plugin reports a failure: $(cat "$TMP/out")"
  # it loads, under its name and role
  BOOSTLAB_PLUGIN_PATH=$dir/$id.so "$BL" plugins "$name" >"$TMP/out" 2>&1 \
    || fail "new $role: boostlab plugins $name exited $?: $(cat "$TMP/out")"
  grep -q "^$name ($role)" "$TMP/out" || fail "new $role: plugins does not show it: $(cat "$TMP/out")"
  sos=$sos${sos:+:}$dir/$id.so
done

# ---- each in a small experiment ------------------------------------------------
{
  printf '[experiment]\nname = new-roles\nseed = 3\nrepeats = 1\niterations = 15\n\n'
  printf '[data iris]\nfile = %s/data/iris.csv\nclasses = %s/data/iris.classes\ntest_ratio = 0.3\n' "$SRC" "$SRC"
  for role in $ROLES; do
    printf '\n[algorithm with-%s]\n%s\n' "$role" "${USE[$role]}"
  done
} >"$TMP/exp.ini"
BOOSTLAB_PLUGIN_PATH=$sos "$BL" run --quiet --output "$TMP/res" "$TMP/exp.ini" >"$TMP/table" 2>"$TMP/err" \
  || fail "experiment with the new plugins exited $?: $(cat "$TMP/err")"
for role in $ROLES; do
  grep -q "^iris,with-$role,1," "$TMP/res/summary.csv" 2>/dev/null \
    || fail "no result for the $role plugin: $(cat "$TMP/table")"
done
awk -F, 'NR > 1 && ($4 < 0 || $4 > 40) { print; bad = 1 } END { exit bad }' "$TMP/res/summary.csv" \
  >"$TMP/bad" 2>&1 || fail "implausible test errors: $(cat "$TMP/bad")"

# ---- the task in a StructBoost experiment of its own -------------------------------
# method, task and weak spelled out (and the task's parameter) on wine; the
# task's metrics reach the store and the JSON export, the primary one being
# the run's error
cat >"$TMP/task.ini" <<INI
[experiment]
name = new-task
seed = 5
iterations = 6
[data wine]
file = $SRC/data/wine.csv
test_ratio = 0.3
[algorithm sb-abs]
method = structboost
task = t-task
weak = stump
[algorithm sb-sq]
method = structboost
task = t-task
task.cost = squared
weak = stump
formulation = m-slack
INI
BOOSTLAB_PLUGIN_PATH=$TMP/task/t_task.so "$BL" run --quiet --output "$TMP/tres" "$TMP/task.ini" \
  >"$TMP/table" 2>"$TMP/err" || fail "StructBoost with the new task exited $?: $(cat "$TMP/err")"
"$BL" results --format json "$TMP/tres" >"$TMP/tres.json" 2>"$TMP/err" \
  || fail "results of the task experiment: $(cat "$TMP/err")"
python3 - "$TMP/tres.json" <<'PY' || fail "the new task's metrics are wrong: $(cat "$TMP/tres.json")"
import json, math, sys
runs = {r["algo"]: r for r in json.load(open(sys.argv[1]))}
assert sorted(runs) == ["sb-abs", "sb-sq"], sorted(runs)
for algo, r in runs.items():
    met = r["metrics"]
    assert sorted(met) == ["error", "mean_abs_error"], (algo, met)
    for part in ("train", "test"):
        e, d = met["error"][part], met["mean_abs_error"][part]
        assert math.isfinite(e) and math.isfinite(d), (algo, met)
        assert 0 <= e <= d <= 2 * e + 1e-12, (algo, met)   # wine: 3 classes, |y - y'| <= 2
        assert abs(met["error"][part] - r[part + "_err"]) < 1e-9, (algo, met, r)
    assert met["error"]["train"] < 0.3, (algo, met)
PY

# ---- the default DIR is ./NAME ----------------------------------------------------
mkdir "$TMP/cwd"
(cd "$TMP/cwd" && "$BL" new solver pgd-2 >/dev/null 2>"$TMP/err") || fail "new without DIR exited $?: $(cat "$TMP/err")"
[[ -f $TMP/cwd/pgd-2/pgd_2.c ]] || fail "new without DIR did not create ./pgd-2/pgd_2.c"

# ---- refusals -----------------------------------------------------------------------
sum=$(cat "$TMP/loss/t_loss.c" | cksum)
expect_fail 1 'already exists.*never overwrites' -- "$BL" new loss other "$TMP/loss"
[[ $(cat "$TMP/loss/t_loss.c" | cksum) == "$sum" && ! -e $TMP/loss/other.c ]] \
  || fail "a refused new touched the existing folder"
touch "$TMP/afile"
expect_fail 1 'already exists' -- "$BL" new loss other "$TMP/afile"
expect_fail 2 'unknown role .bogus.' -- "$BL" new bogus other "$TMP/n1"
expect_fail 2 'unknown role .projection.' -- "$BL" new projection other "$TMP/n2"
expect_fail 2 'lowercase' -- "$BL" new loss Other "$TMP/n3"
expect_fail 2 'start with a letter' -- "$BL" new loss 2fast "$TMP/n4"
expect_fail 2 "letters, digits, '-' and '_'" -- "$BL" new loss 'a.b' "$TMP/n5"
expect_fail 2 'empty' -- "$BL" new loss '' "$TMP/n6"
expect_fail 2 'longer than 64' -- "$BL" new loss "$(printf 'a%.0s' {1..65})" "$TMP/n7"
expect_fail 2 'weak plugin named .stump. already exists' -- "$BL" new weak stump "$TMP/n8"
expect_fail 2 'task plugin named .multiclass. already exists' -- "$BL" new task multiclass "$TMP/n12"
expect_fail 2 'missing ROLE and NAME' -- "$BL" new
expect_fail 2 'missing NAME' -- "$BL" new loss
expect_fail 2 'too many arguments' -- "$BL" new loss a "$TMP/n9" extra
expect_fail 2 "unknown option '--force'" -- "$BL" new --force loss a "$TMP/n10"
for n in 1 2 3 4 5 6 7 8 9 10 12; do
  [[ -e $TMP/n$n ]] && fail "a refused new created $TMP/n$n"
done
BOOSTLAB_TEMPLATE_DIR=$TMP/none expect_fail 1 'no loss template in' -- "$BL" new loss a "$TMP/n11"
[[ -e $TMP/n11 ]] && fail "new without a template created $TMP/n11"
"$BL" new --help >"$TMP/out" 2>&1 || fail "new --help exited $?"
grep -q '^Usage: boostlab new ROLE NAME \[DIR\]' "$TMP/out" || fail "new --help: $(head -3 "$TMP/out")"

# ---- a boostlab outside its build tree reads share/boostlab/templates beside bin/ ----
# (unless an installed templates folder exists, which comes first)
data_dir=$(sed -n 's/.*installed templates folder (\(.*\)\/templates).*/\1/p' "$TMP/out")
if [[ -n $data_dir && ! -d $data_dir/templates ]]; then
  mkdir -p "$TMP/reloc/bin" "$TMP/reloc/share/boostlab/templates"
  cp "$BL" "$TMP/reloc/bin/boostlab"
  cp -r "$SRC/templates/loss" "$TMP/reloc/share/boostlab/templates/"
  "$TMP/reloc/bin/boostlab" new loss moved "$TMP/moved" >"$TMP/out" 2>"$TMP/err" \
    || fail "relocated new exited $?: $(cat "$TMP/err")"
  grep -q "from $TMP/reloc/bin/../share/boostlab/templates/loss" "$TMP/out" \
    || fail "relocated new did not use the templates beside bin/: $(cat "$TMP/out")"
  [[ -f $TMP/moved/moved.c ]] || fail "relocated new made no moved.c"
fi
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# Recipes can be found: `boostlab recipes` lists every recipe of every
# folder searched with its doc, in search order, marking the ones an
# earlier folder hides; `boostlab recipes NAME` shows the file and keys of
# the one used; and a recipe name that matches none (an experiment's
# `recipe =`, `train --recipe`) is refused with the available names and the
# folders searched.
. "$(dirname "$0")/lib.sh"
unset BOOSTLAB_CONFIG_PATH
CFG=$(cd "$SRC/configs" && pwd -P)

# ---- the list: every recipe of configs/, with its doc, under its folder -------
"$BL" recipes >"$TMP/list" 2>"$TMP/err" || fail "boostlab recipes failed: $(cat "$TMP/err")"
grep -qx "$CFG:" "$TMP/list" || fail "the list has no heading for $CFG: $(head -n 3 "$TMP/list")"
n=0
for f in "$SRC"/configs/*.ini; do
  name=$(basename "$f" .ini)
  doc=$(sed -n 's/^doc = //p' "$f")
  grep -qxF "  $(printf '%-20s' "$name") $doc" "$TMP/list" ||
    fail "boostlab recipes lacks the line of $name with its doc '$doc'"
  n=$((n + 1))
done
[[ $n -gt 20 ]] || fail "only $n recipes in configs/"
[[ $(grep -c '^  ' "$TMP/list") -eq $n ]] ||
  fail "boostlab recipes lists $(grep -c '^  ' "$TMP/list") recipes, configs/ has $n"

# ---- BOOSTLAB_CONFIG_PATH comes first and hides a recipe of the same name ------
mkdir -p "$TMP/mine" "$TMP/exp/configs"
printf '[recipe]\ndoc = my own samme\nloss = samme-exp\nweak = stump\nweak.criterion = leafclass\nsolver = lbfgsb-line\n' \
  >"$TMP/mine/samme.ini"
printf '[recipe]\ndoc = a recipe of mine\nloss = margin-exp\nweak = stump\nsolver = lbfgsb-row\n' \
  >"$TMP/mine/my-exp.ini"
printf 'not an ini file\n' >"$TMP/mine/broken.ini"
MINE=$(cd "$TMP/mine" && pwd -P)
BOOSTLAB_CONFIG_PATH=$TMP/mine "$BL" recipes >"$TMP/list2" 2>"$TMP/err" ||
  fail "recipes with BOOSTLAB_CONFIG_PATH failed: $(cat "$TMP/err")"
[[ $(head -n 1 "$TMP/list2") == "$MINE:" ]] ||
  fail "BOOSTLAB_CONFIG_PATH's folder is not listed first: $(head -n 1 "$TMP/list2")"
grep -qx "  $(printf '%-20s' my-exp) a recipe of mine" "$TMP/list2" || fail "my-exp is not listed"
grep -q "^  broken  *cannot be read: .*broken.ini:1: " "$TMP/list2" ||
  fail "an unreadable recipe is not listed with its problem: $(grep broken "$TMP/list2")"
awk -v h="$CFG:" '$0 == h { on = 1 } on && $1 == "samme" { print }' "$TMP/list2" | grep -q '(hidden)' ||
  fail "the samme of configs/ is not marked hidden by the one in BOOSTLAB_CONFIG_PATH"
BOOSTLAB_CONFIG_PATH=$TMP/mine "$BL" recipes samme >"$TMP/show" 2>&1 || fail "recipes samme: $(cat "$TMP/show")"
grep -qx "  file: $MINE/samme.ini" "$TMP/show" || fail "recipes samme does not show the file used: $(cat "$TMP/show")"

# ---- one recipe: its file, doc and keys --------------------------------------
"$BL" recipes mcboost-exp >"$TMP/show" 2>&1 || fail "recipes mcboost-exp: $(cat "$TMP/show")"
grep -qx "  file: $CFG/mcboost-exp.ini" "$TMP/show" || fail "no file line: $(cat "$TMP/show")"
grep -qxF "  $(sed -n 's/^doc = //p' "$SRC/configs/mcboost-exp.ini")" "$TMP/show" || fail "no doc line"
while IFS= read -r line; do
  [[ $line == *=* && $line != doc* && $line != \;* ]] || continue
  grep -qxF "  $line" "$TMP/show" || fail "recipes mcboost-exp lacks the key line '$line'"
done <"$SRC/configs/mcboost-exp.ini"

# ---- --experiment: configs/ beside the experiment file -----------------------
cp "$TMP/mine/my-exp.ini" "$TMP/exp/configs/beside.ini"
printf '[data iris]\nfile = %s/data/iris.csv\n[algorithm a]\nrecipe = beside\n' "$SRC" >"$TMP/exp/e.ini"
"$BL" recipes --experiment "$TMP/exp/e.ini" beside >"$TMP/show" 2>&1 ||
  fail "recipes --experiment does not find configs/ beside the experiment: $(cat "$TMP/show")"
"$BL" run --check "$TMP/exp/e.ini" >/dev/null 2>&1 || fail "the experiment does not find the recipe beside it"
expect_fail 1 "no recipe named 'beside'" -- "$BL" recipes beside
expect_fail 2 "at most one recipe NAME" -- "$BL" recipes a b
expect_fail 2 "--experiment: no file" -- "$BL" recipes --experiment "$TMP/nothere.ini"

# ---- a wrong name lists the available recipes and the folders searched -------
printf '[data iris]\nfile = %s/data/iris.csv\n[algorithm a]\nrecipe = mcboost-xp\n' "$SRC" >"$TMP/typo.ini"
expect_fail 1 "typo.ini:4: \[algorithm a\] recipe: no recipe named 'mcboost-xp' \(available: .*mcboost-exp, mcboost-log.*; looked for mcboost-xp.ini in: .*$CFG" \
  -- "$BL" run --check "$TMP/typo.ini"
BOOSTLAB_CONFIG_PATH=$TMP/mine expect_fail 1 "available: .*my-exp.*looked for mcboost-xp.ini in: $MINE, .*$CFG" \
  -- "$BL" run --check "$TMP/typo.ini"
expect_fail 1 "no recipe named 'nosuch' \(available: .*samme.*; looked for nosuch.ini in: .*$CFG" \
  -- "$BL" train --data "$SRC/data/iris.csv" --recipe nosuch --model "$TMP/m.model"
[[ ! -e $TMP/m.model ]] || fail "train with an unknown recipe wrote a model"
expect_fail 1 "no recipe named 'nosuch' \(available: .*samme" -- "$BL" recipes nosuch
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# The quickstart experiment runs end to end and writes its result files.
. "$(dirname "$0")/lib.sh"

"$BL" run --quiet --output "$TMP/qs" "$SRC/experiments/quickstart.ini" >"$TMP/table" 2>"$TMP/err" \
  || fail "quickstart exited $?: $(cat "$TMP/err")"
for f in experiment.ini summary.csv summary.json results.sqlite; do
  [[ -s $TMP/qs/$f ]] || fail "missing $f"
done
grep -q '^iris  *mcboost-exp  *5 ' "$TMP/table" || fail "summary table lacks iris/mcboost-exp: $(cat "$TMP/table")"
# every (data, algorithm) cell in the CSV summary, with a test error below 50%
rows=$(tail -n +2 "$TMP/qs/summary.csv" | wc -l)
[[ $rows -eq 10 ]] || fail "summary.csv has $rows rows, expected 10"
awk -F, 'NR > 1 && ($4 < 0 || $4 > 50) { bad = 1 } END { exit bad }' "$TMP/qs/summary.csv" \
  || fail "implausible test error in summary.csv"
# the curve has one row per iteration
n=$("$BL" results --format csv --curves --data wine --algo mcboost-log "$TMP/qs" | grep -c ',4,[0-9]*,')
[[ $n -eq 200 ]] || fail "curve has $n rows, expected 200"
# the resolved experiment is itself a valid experiment with the same settings
grep -q '^solver.max_iter = 100$' "$TMP/qs/experiment.ini" || fail "resolved INI lacks solver.max_iter"
# same seed, same numbers
"$BL" run --quiet --threads 1 --output "$TMP/qs2" "$SRC/experiments/quickstart.ini" >/dev/null 2>&1
cut -d, -f1-6 "$TMP/qs/summary.csv" >"$TMP/a"; cut -d, -f1-6 "$TMP/qs2/summary.csv" >"$TMP/b"
cmp -s "$TMP/a" "$TMP/b" || fail "results differ between 2 threads and 1 thread"

# every shipped experiment file is valid (plugins, recipes, keys, data files)
while IFS= read -r f; do
  [[ $f == */structboost/segmentation.ini ]] && continue # below
  "$BL" run --check "$f" >/dev/null 2>"$TMP/chk" || fail "$f: $(cat "$TMP/chk")"
done < <(find "$SRC/experiments" -name '*.ini' | sort)
# segmentation.ini reads the image lists segmentation.sh prepares under
# results/: checked beside stand-in lists at the paths it names
mkdir -p "$TMP/tree/experiments/structboost"
cp "$SRC/experiments/structboost/segmentation.ini" "$TMP/tree/experiments/structboost/"
for c in horse vehicle person; do
  d=$TMP/tree/results/structboost-segmentation/prep/$c
  mkdir -p "$d"
  printf 'image,set\n0,image\n2,image\n' >"$d/train.csv"
  printf 'image,set\n1,image\n' >"$d/test.csv"
done
"$BL" run --check "$TMP/tree/experiments/structboost/segmentation.ini" >/dev/null 2>"$TMP/chk" ||
  fail "segmentation.ini: $(cat "$TMP/chk")"
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# `boostlab synth NAME`: regenerating each committed data/NAME.csv (and its
# .classes) gives the same bytes, to a file or to stdout; seeds and sizes
# change the sample as documented; `synth classification` (same seed, same
# bytes; its shape, labels and --flip; a pinned digest; mart learns it; its
# refusals); the refusals (unknown set, bad counts and seeds, unwritable
# output); and the output trains with `boostlab train` and runs as an
# experiment's [data] section.
. "$(dirname "$0")/lib.sh"

SETS="gauss4 synthetic1 synthetic2 synthetic3"
declare -A K=([gauss4]=4 [synthetic1]=3 [synthetic2]=4 [synthetic3]=5)
declare -A PER=([gauss4]=100 [synthetic1]=200 [synthetic2]=200 [synthetic3]=200)

# ---- the committed files, byte for byte ------------------------------------------
for s in $SETS; do
  # the command data/README.md gives, into another folder
  "$BL" synth "$s" -o "$TMP/$s.csv" 2>"$TMP/err" || fail "synth $s -o exited $?: $(cat "$TMP/err")"
  [[ -s $TMP/err ]] && fail "synth $s -o printed on stderr: $(cat "$TMP/err")"
  cmp -s "$TMP/$s.csv" "$SRC/data/$s.csv" ||
    fail "synth $s differs from data/$s.csv: $(cmp "$TMP/$s.csv" "$SRC/data/$s.csv" 2>&1)"
  cmp -s "$TMP/$s.classes" "$SRC/data/$s.classes" ||
    fail "synth $s: $s.classes differs from data/$s.classes"
  [[ $(wc -l <"$TMP/$s.classes") -eq ${K[$s]} ]] || fail "$s.classes does not have ${K[$s]} lines"
  # stdout: the same CSV, no .classes anywhere
  (cd "$TMP" && "$BL" synth "$s" >"$TMP/stdout.csv") || fail "synth $s to stdout exited $?"
  cmp -s "$TMP/stdout.csv" "$SRC/data/$s.csv" || fail "synth $s on stdout differs from data/$s.csv"
  "$BL" synth "$s" --seed 1 --per-class "${PER[$s]}" -o - | cmp -s - "$SRC/data/$s.csv" ||
    fail "synth $s: the defaults are not --seed 1 --per-class ${PER[$s]}"
  # the format: header, k * per-class rows, labels cycling 0..k-1, two finite numbers
  awk -F, -v k="${K[$s]}" -v n="${PER[$s]}" '
    NR == 1 { if ($0 != "label,x,y") { print "header: " $0; bad = 1 }; next }
    NF != 3 || $1 != (NR - 2) % k || $2 !~ /^-?[0-9.e+-]+$/ || $3 !~ /^-?[0-9.e+-]+$/ {
      print "line " NR ": " $0; bad = 1; exit }
    END { if (NR - 1 != k * n) { print NR - 1 " rows"; bad = 1 }; exit bad }' \
    "$TMP/$s.csv" >"$TMP/bad" || fail "data/$s.csv is malformed: $(cat "$TMP/bad")"
done
[[ -z $(ls "$TMP" | grep -v '\.csv$\|\.classes$\|^err$\|^bad$') ]] ||
  fail "synth to stdout left files behind: $(ls "$TMP")"

# ---- seeds and sizes ------------------------------------------------------------------
"$BL" synth synthetic1 --seed 2 >"$TMP/s2.csv" || fail "synth --seed 2 exited $?"
"$BL" synth synthetic1 -s 3 >"$TMP/s3.csv" || fail "synth -s 3 exited $?"
cmp -s "$TMP/s2.csv" "$SRC/data/synthetic1.csv" && fail "seeds 1 and 2 give the same data"
cmp -s "$TMP/s2.csv" "$TMP/s3.csv" && fail "seeds 2 and 3 give the same data"
same=$(paste -d' ' "$TMP/s2.csv" "$TMP/s3.csv" | awk '{ split($1, a, ","); split($2, b, ",")
                                                       n += a[2] == b[2] } END { print n }')
[[ $same -le 1 ]] || fail "seeds 2 and 3 share $same x values"
[[ $(wc -l <"$TMP/s2.csv") -eq 601 ]] || fail "synth --seed 2 wrote $(wc -l <"$TMP/s2.csv") lines"
"$BL" synth synthetic1 --seed 2 | cmp -s - "$TMP/s2.csv" || fail "synth --seed 2 twice differs"
"$BL" synth synthetic1 --seed 18446744073709551615 --per-class 1 >"$TMP/big.csv" ||
  fail "synth --seed 2^64-1 exited $?"
[[ $(wc -l <"$TMP/big.csv") -eq 4 ]] || fail "--per-class 1: $(wc -l <"$TMP/big.csv") lines, expected 4"
# a smaller size is a prefix of a larger one
"$BL" synth synthetic3 --per-class 7 >"$TMP/p7.csv" || fail "synth --per-class 7 exited $?"
[[ $(wc -l <"$TMP/p7.csv") -eq 36 ]] || fail "--per-class 7 of 5 classes: $(wc -l <"$TMP/p7.csv") lines"
head -n 36 "$SRC/data/synthetic3.csv" | cmp -s - "$TMP/p7.csv" ||
  fail "--per-class 7 is not the start of the default sample"
# names that do not end in .csv get .classes appended
"$BL" synth gauss4 --per-class 3 --output "$TMP/g4.txt" || fail "synth -o g4.txt exited $?"
cmp -s "$TMP/g4.txt.classes" "$SRC/data/gauss4.classes" || fail "no g4.txt.classes beside g4.txt"
# an existing file is replaced
"$BL" synth gauss4 --per-class 2 --output "$TMP/g4.txt" || fail "synth over an existing file exited $?"
[[ $(wc -l <"$TMP/g4.txt") -eq 9 ]] || fail "synth did not replace the existing g4.txt"

# ---- refusals -----------------------------------------------------------------------
expect_fail 2 "unknown data set 'gauss5' \(known: gauss4, synthetic1, synthetic2, synthetic3, classification\)" -- \
  "$BL" synth gauss5
[[ -s $TMP/out ]] && fail "unknown set: something on stdout"
expect_fail 2 "missing NAME \(one of: gauss4, synthetic1" -- "$BL" synth
expect_fail 2 "too many arguments" -- "$BL" synth gauss4 synthetic1
expect_fail 2 "unknown option" -- "$BL" synth gauss4 --bogus
expect_fail 2 "missing its value" -- "$BL" synth gauss4 --per-class
for n in 0 -1 x 1.5 '' 1000001 ' 5'; do
  expect_fail 2 "--per-class '$n': expected a whole number in 1\.\.1000000" -- \
    "$BL" synth gauss4 --per-class "$n"
  [[ -s $TMP/out ]] && fail "--per-class '$n': something on stdout"
done
for v in x -1 1e3 18446744073709551616; do
  expect_fail 2 "--seed '$v': expected a whole number" -- "$BL" synth gauss4 --seed "$v"
done
expect_fail 2 "--output needs a file name" -- "$BL" synth gauss4 -o ''
expect_fail 1 "cannot write $TMP/no/such/dir/x\.csv: No such file or directory" -- \
  "$BL" synth gauss4 -o "$TMP/no/such/dir/x.csv"
touch "$TMP/plain"
expect_fail 1 "cannot write $TMP/plain/x\.csv: Not a directory" -- "$BL" synth gauss4 -o "$TMP/plain/x.csv"
if [[ -w /dev/full ]]; then
  "$BL" synth gauss4 >/dev/full 2>"$TMP/err" && fail "synth to a full disk exited 0"
  grep -q "write error on standard output" "$TMP/err" || fail "synth to /dev/full: $(cat "$TMP/err")"
fi
# a refused write leaves nothing behind, not even its temporary files
mkdir "$TMP/dirout"
expect_fail 1 "synth: .*dirout" -- "$BL" synth gauss4 -o "$TMP/dirout"
[[ -z $(ls "$TMP/dirout") && ! -e $TMP/dirout.classes && -z $(ls "$TMP" | grep '\.tmp\.') ]] ||
  fail "a failed synth left files: $(ls "$TMP" "$TMP/dirout")"

"$BL" synth --help >"$TMP/help" || fail "synth --help exited $?"
grep -q '^Usage: boostlab synth NAME' "$TMP/help" || fail "synth --help: $(head -n 1 "$TMP/help")"
for s in $SETS; do
  grep -q "^  $s  *${K[$s]} x ${PER[$s]} " "$TMP/help" || fail "synth --help does not list $s"
done
[[ $(grep -c '^  synthetic[123] .* OURS for Synthetic [123]' "$TMP/help") -eq 3 ]] ||
  fail "synth --help does not mark synthetic1-3 as our reconstructions"
grep -q "^      --informative I " "$TMP/help" && grep -q "classification" "$TMP/help" ||
  fail "synth --help does not document classification"

# ---- classification: many features and classes -----------------------------------------
C="$BL synth classification"
$C --rows 1000 --features 12 --classes 4 --seed 9 -o "$TMP/c.csv" 2>"$TMP/err" ||
  fail "synth classification -o exited $?: $(cat "$TMP/err")"
$C --rows 1000 --features 12 --classes 4 --seed 9 | cmp -s - "$TMP/c.csv" ||
  fail "classification: the same seed twice (stdout, file) differs"
$C --rows 1000 --features 12 --classes 4 --seed 10 | cmp -s - "$TMP/c.csv" &&
  fail "classification: seeds 9 and 10 give the same data"
# shape: header label,f1..f12, 1000 rows of 13 finite numbers, labels in 0..3
awk -F, 'NR == 1 { h = "label"; for (j = 1; j <= 12; j++) h = h ",f" j
                   if ($0 != h) { print "header: " $0; bad = 1 }; next }
  NF != 13 || $1 !~ /^[0-3]$/ { print "line " NR ": " $0; bad = 1; exit }
  { for (j = 2; j <= 13; j++) if ($j !~ /^-?[0-9.]+(e[+-][0-9]+)?$/) { print "line " NR ": " $j; bad = 1; exit } }
  END { if (NR != 1001) { print NR - 1 " rows"; bad = 1 }; exit bad }' "$TMP/c.csv" >"$TMP/bad" ||
  fail "classification CSV malformed: $(cat "$TMP/bad")"
printf 'class0\nclass1\nclass2\nclass3\n' | cmp -s - "$TMP/c.classes" ||
  fail "classification .classes: $(cat "$TMP/c.classes")"
# without --flip, classes alternate row by row (so balanced); with it, about
# the documented fraction is redrawn (3/4 of them to another class)
$C --rows 1000 --features 12 --classes 4 --flip 0 --seed 9 | awk -F, 'NR > 1 && $1 != (NR - 2) % 4 { bad = 1 }
  END { exit bad }' || fail "classification --flip 0: labels do not cycle 0..3"
moved=$(awk -F, 'NR > 1 && $1 != (NR - 2) % 4 { n++ } END { print n + 0 }' "$TMP/c.csv")
[[ $moved -ge 1 && $moved -le 25 ]] || fail "classification --flip 0.01: $moved of 1000 labels moved"
moved=$($C --rows 1000 --features 12 --classes 4 --flip 0.4 --seed 9 |
        awk -F, 'NR > 1 && $1 != (NR - 2) % 4 { n++ } END { print n + 0 }')
[[ $moved -ge 240 && $moved -le 360 ]] || fail "classification --flip 0.4: $moved of 1000 labels moved"
# fewer rows are a prefix of more
$C --rows 50 --features 12 --classes 4 --seed 9 | cmp -s - <(head -n 51 "$TMP/c.csv") ||
  fail "classification --rows 50 is not the start of --rows 1000"
# the same bytes on any machine: a digest pinned on x86-64
sum=$($C --rows 300 --features 8 --classes 3 --flip 0.2 --seed 5 | md5sum | cut -d' ' -f1)
[[ $sum == 'eefa60e98fddd93869cc5f638993a3cb' ]] || fail "classification --seed 5: digest $sum, not the pinned one"
# it learns: mart on 2000 rows, tested on the next 1000 (chance: 75 % error)
$C --rows 3000 --features 20 --classes 4 --informative 6 --seed 3 -o "$TMP/cl.csv" ||
  fail "synth classification 3000 rows exited $?"
head -n 2001 "$TMP/cl.csv" >"$TMP/cl-train.csv"
{ head -n 1 "$TMP/cl.csv"; tail -n 1000 "$TMP/cl.csv"; } >"$TMP/cl-test.csv"
"$BL" train -q --data "$TMP/cl-train.csv" --recipe mart --iterations 30 --threads 1 \
  --model "$TMP/cl.model" 2>"$TMP/err" || fail "train on classification exited $?: $(cat "$TMP/err")"
"$BL" predict --model "$TMP/cl.model" --data "$TMP/cl-test.csv" >/dev/null 2>"$TMP/err" ||
  fail "predict on classification exited $?: $(cat "$TMP/err")"
err=$(sed -n 's/.*error \([0-9.]*\)%.*/\1/p' "$TMP/err")
awk -v e="$err" 'BEGIN { exit !(e != "" && e < 40) }' ||
  fail "mart on classification: test error '$err' %, expected well below chance (75 %)"
# refusals
for a in "--rows 0|--rows must be in 1\.\.10000000" "--rows x|--rows 'x': expected a whole number" \
         "--features 0|--features must be in 1\.\.10000" "--classes 1|--classes must be in 2\.\.1000" \
         "--classes 10 --informative 3|10 classes x 2 clusters need more hypercube vertices than --informative 3" \
         "--features 5 --informative 4 --redundant 2|--informative 4 \+ --redundant 2 exceed --features 5" \
         "--informative 0|--informative must be in 1\.\.200" "--clusters 0|--clusters x --classes must be in" \
         "--flip 1.5|--flip must be in \[0, 1\]" "--flip x|--flip 'x': expected a number" \
         "--class-sep 0|--class-sep must be in \(0, 1000\]" "--class-sep nan|--class-sep 'nan': expected a number" \
         "--per-class 5|--per-class only applies to the 2-D sets"; do
  # shellcheck disable=SC2086
  expect_fail 2 "${a#*|}" -- $C ${a%%|*}
  [[ -s $TMP/out ]] && fail "classification ${a%%|*}: something on stdout"
done
expect_fail 2 "--rows only applies to classification" -- "$BL" synth gauss4 --rows 5
expect_fail 2 "--flip only applies to classification" -- "$BL" synth gauss4 --flip 0

# ---- the output trains, predicts, and runs as an experiment -----------------------------
for s in $SETS; do
  "$BL" train -q --data "$TMP/$s.csv" --recipe mcboost-exp --iterations 20 --threads 1 \
    --model "$TMP/$s.model" 2>"$TMP/err" || fail "train on synth $s exited $?: $(cat "$TMP/err")"
  "$BL" predict --model "$TMP/$s.model" --data "$TMP/$s.csv" >"$TMP/pred" 2>"$TMP/err" ||
    fail "predict on synth $s exited $?: $(cat "$TMP/err")"
  [[ $(wc -l <"$TMP/pred") -eq $((K[$s] * PER[$s])) ]] || fail "predict on $s: wrong number of lines"
done
cat >"$TMP/exp.ini" <<INI
[experiment]
name = synth
seed = 4
repeats = 1
iterations = 20

[data synthetic2]
file = $TMP/synthetic2.csv
classes = $TMP/synthetic2.classes
test_ratio = 0.25

[algorithm mcboost-exp]
recipe = mcboost-exp
INI
"$BL" run --quiet --jobs 1 --output "$TMP/res" "$TMP/exp.ini" >"$TMP/table" 2>"$TMP/err" ||
  fail "an experiment on synth's output exited $?: $(cat "$TMP/err")"
awk -F, 'NR > 1 && $1 == "synthetic2" && $4 >= 0 && $4 < 10 { ok = 1 } END { exit !ok }' \
  "$TMP/res/summary.csv" 2>/dev/null ||
  fail "no plausible result on synthetic2: $(cat "$TMP/res/summary.csv" "$TMP/table" 2>&1)"
finish

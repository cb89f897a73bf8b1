# SPDX-License-Identifier: GPL-3.0-or-later
# RandomBoost from the command line (issue 6): the rboost recipes run from an
# experiment file, a trained RBoost-rank model predicts from its file with
# the error the training run reported, a tampered projection line is
# refused, and misconfigured projections are refused with FILE:LINE.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/rb.ini" <<INI
[experiment]
iterations = 6
[data wine]
file = $SRC/data/wine.csv
[algorithm rank]
recipe = rboost-rank
projection.n = 60
[algorithm rank-tc]
recipe = rboost-rank-tc
projection.n = 60
[algorithm proj]
recipe = rboost-proj
projection.n = 20
INI
"$BL" run --quiet --output "$TMP/res" "$TMP/rb.ini" >"$TMP/o" 2>"$TMP/e" || fail "run: $(cat "$TMP/e")"
for a in rank rank-tc proj; do
  grep -qE "^wine +$a +1 " "$TMP/o" || fail "no summary row for $a: $(cat "$TMP/o")"
done

# a model file carries the projection: predictions on the training file
# reproduce the model's training error
"$BL" train --quiet -d "$SRC/data/wine.csv" -r rboost-rank -s projection.n=50 -i 20 \
  -m "$TMP/rank.model" 2>"$TMP/e" || fail "train: $(cat "$TMP/e")"
grep -q "^projection gaussian " "$TMP/rank.model" || fail "the model has no projection line"
grep -q "^projection-scale 13 " "$TMP/rank.model" || fail "the model has no standardisation"
"$BL" predict -m "$TMP/rank.model" -d "$SRC/data/wine.csv" -o "$TMP/pred" 2>"$TMP/e" \
  || fail "predict: $(cat "$TMP/e")"
[[ $(wc -l <"$TMP/pred") -eq 178 ]] || fail "predict wrote $(wc -l <"$TMP/pred") lines"
grep -qE "error [0-9.]+%" "$TMP/e" || fail "predict reported no error: $(cat "$TMP/e")"
err=$(grep -oE "error [0-9.]+%" "$TMP/e" | grep -oE "[0-9.]+")
python3 -c "import sys; sys.exit(0 if float('$err') < 10 else 1)" \
  || fail "training-set error $err% after 20 RBoost-rank iterations on wine"
# project_scale = none projects the raw inputs: no standardisation in the
# model, and (wine's features span 0.1 to 1680) other predictions
"$BL" train --quiet -d "$SRC/data/wine.csv" -r rboost-rank -s projection.n=50 -i 20 \
  -s project_scale=none -m "$TMP/raw.model" 2>"$TMP/e" || fail "train raw: $(cat "$TMP/e")"
grep -q "^projection-scale" "$TMP/raw.model" && fail "project_scale = none kept a standardisation"
grep -q "project_scale = none" "$TMP/raw.model" || fail "the raw model does not say project_scale"
"$BL" predict -m "$TMP/raw.model" -d "$SRC/data/wine.csv" -o "$TMP/pred-raw" 2>"$TMP/e" \
  || fail "predict raw: $(cat "$TMP/e")"
cmp -s "$TMP/pred" "$TMP/pred-raw" && fail "raw and standardised inputs predict alike"
# train checks the projection keys as an experiment file does: nothing written
expect_fail 1 "recipe mcboost-exp with its --set values: project_scale applies to projected inputs only" -- \
  "$BL" train --quiet -d "$SRC/data/wine.csv" -r mcboost-exp -i 5 -s project_scale=none -m "$TMP/no.model"
expect_fail 1 "project = outputs re-solves the projected weights w every iteration" -- \
  "$BL" train --quiet -d "$SRC/data/wine.csv" -r rboost-rank -i 5 -s project=outputs -m "$TMP/no.model"
[[ ! -e $TMP/no.model ]] || fail "a refused train wrote a model"
# project_scale = minmax keeps each feature's midpoint and half-range
"$BL" train --quiet -d "$SRC/data/wine.csv" -r rboost-rank -s projection.n=50 -i 5 \
  -s project_scale=minmax -m "$TMP/mm.model" 2>"$TMP/e" || fail "train minmax: $(cat "$TMP/e")"
python3 - "$SRC/data/wine.csv" "$TMP/mm.model" <<'PY' || fail "minmax scaling is not midpoint / half-range"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
lab = rows[0].index("label") if "label" in rows[0] else 0
cols = [j for j in range(len(rows[0])) if j != lab]
line = next(l for l in open(sys.argv[2]) if l.startswith("projection-scale "))
v = [float(t) for t in line.split()[2:]]
assert len(v) == 2 * len(cols), len(v)
for q, j in enumerate(cols):
    x = [float(r[j]) for r in rows[1:]]
    lo, hi = min(x), max(x)
    assert abs(v[2 * q] - (lo + hi) / 2) < 1e-6 * (1 + abs(hi)), (j, v[2 * q], lo, hi)
    assert abs(v[2 * q + 1] - (hi - lo) / 2) < 1e-6 * (1 + abs(hi)), (j, v[2 * q + 1], lo, hi)
PY
# an edited projection is caught by the checksum; a well-formed file naming
# a projection plugin that is not there names the plugin and the line
sed 's/^projection.n 50$/projection.n 51/' "$TMP/rank.model" >"$TMP/edited.model"
expect_fail 1 "checksum mismatch" -- "$BL" predict -m "$TMP/edited.model" -d "$SRC/data/wine.csv"
python3 - "$TMP/rank.model" "$TMP/noplug.model" <<'PY'
import sys, zlib
text = open(sys.argv[1]).read().replace("projection gaussian ", "projection nosuch ")
body = text[:text.rindex("crc32 ")]
open(sys.argv[2], "w").write(body + "crc32 %08x\n" % (zlib.crc32(body.encode()) & 0xffffffff))
PY
expect_fail 1 "noplug.model:[0-9]+: the model needs projection plugin 'nosuch'" -- \
  "$BL" predict -m "$TMP/noplug.model" -d "$SRC/data/wine.csv"

# misconfigurations: FILE:LINE of the section, a clear reason, exit 1
bad() { # bad NAME PATTERN: an [algorithm a] of the lines on stdin, checked
  { printf '[experiment]\niterations = 3\n[data wine]\nfile = %s/data/wine.csv\n[algorithm a]\n' "$SRC"
    cat; } >"$TMP/$1.ini"
  expect_fail 1 "$1.ini:$2" -- "$BL" run --check "$TMP/$1.ini"
}
printf 'recipe = mcboost-exp\nprojection = gaussian\n' |
  bad noproject "5: \[algorithm a\] projection gaussian: say what it projects: 'project = inputs'"
printf 'recipe = mcboost-exp\nproject = inputs\n' |
  bad noplugin "5: \[algorithm a\] project = inputs needs a projection plugin"
printf 'recipe = rboost-proj\nsolver = lbfgsb-line\n' |
  bad rowsolver "5: \[algorithm a\] project = outputs re-solves the projected weights w every iteration: it needs a totally corrective solver"
printf 'recipe = rboost-rank\ncoding = ova\n' |
  bad coding "5: \[algorithm a\] a projection replaces the output coding \(coding ova\)"
printf 'recipe = rboost-rank\nproject = both\n' |
  bad project "7: \[algorithm a\] project: expected inputs \(RBoost-rank\) or outputs \(RBoost-proj\), got 'both'"
printf 'recipe = rboost-rank\nprojection.n = 0\n' |
  bad dim "7: \[algorithm a\] projection.n"
printf 'recipe = rboost-proj\nrel_tol = 2\n' |
  bad reltol "7: \[algorithm a\] rel_tol"

[[ $fails -eq 0 ]] && echo "randomboost: all checks passed"
exit $((fails > 0))

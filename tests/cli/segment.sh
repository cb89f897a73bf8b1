# SPDX-License-Identifier: GPL-3.0-or-later
# CRF segmentation end to end (StructBoost spec §4.6): `boostlab segment
# make` gives the same bytes for the same seed; `segment prepare` writes the
# crf task's files and the unary-only baselines; StructBoost ({0,1} stumps)
# and the structural SVM run on the crf task from an experiment file, and
# StructBoost's test IoU beats the all-background labelling with no
# non-submodular edge; `segment figure` draws a strip; and the refusals
# (unknown category, missing folders, a malformed per-image file with
# FILE:LINE, an unknown task parameter) exit non-zero with a message.
. "$(dirname "$0")/lib.sh"

SKD=/usr/lib/python3/dist-packages/skimage/data
if [[ ! -f $SKD/horse.png ]]; then
  echo "SKIP: python3-skimage's data images are not installed"
  exit 77
fi

"$BL" segment make horse "$TMP/a" --seed 3 --images 16 --width 96 --height 72 ||
  fail "segment make"
"$BL" segment make horse "$TMP/b" --seed 3 --images 16 --width 96 --height 72 ||
  fail "segment make (again)"
for f in images.csv img/0000.png mask/0000.png img/0015.png mask/0015.png; do
  cmp -s "$TMP/a/$f" "$TMP/b/$f" || fail "$f differs for the same seed"
done
"$BL" segment make horse "$TMP/c" --seed 4 --images 2 --width 96 --height 72
cmp -s "$TMP/a/img/0000.png" "$TMP/c/img/0000.png" && fail "seeds 3 and 4 give the same image"
grep -q "CONSTRUCTED DATA" "$TMP/a/README.txt" || fail "README.txt does not say constructed"

"$BL" segment prepare "$TMP/a" "$TMP/p" -i 20 -B 20 -q -t 1 || fail "segment prepare"
for f in train.csv test.csv 0000.crf 0000.spm baselines.tsv pred-svm/0001.lab pred-adaboost/0001.lab; do
  [[ -s $TMP/p/$f ]] || fail "prepare wrote no $f"
done
[[ $(($(wc -l <"$TMP/p/train.csv") - 1)) -eq 8 ]] || fail "train.csv: not 8 images"

cat >"$TMP/seg.ini" <<INI
[experiment]
iterations = 15
output = $TMP/res
[data horse]
file = $TMP/p/train.csv
test_file = $TMP/p/test.csv
label = set
[algorithm sb]
recipe = structboost-crf
task.dir = p
task.pred_out = $TMP/pred-sb
[algorithm sbpv]
recipe = structboost-crf
columns = per-view
task.dir = p
[algorithm ssvm]
recipe = ssvm-crf
iterations = 200
task.dir = p
INI
# task.dir is relative to the INI: run from elsewhere
(cd / && "$BL" run "$TMP/seg.ini" >"$TMP/run.out" 2>"$TMP/run.err") ||
  fail "run: $(tail -3 "$TMP/run.err")"
"$BL" results "$TMP/res" -f json >"$TMP/runs.json" || fail "results"
# all-background labelling: IoU fg 0, IoU bg = background share of the test pixels
python3 - "$TMP/p" "$TMP/runs.json" <<'PY' || fail "StructBoost does not beat all-background"
import json, sys
prep, runs = sys.argv[1], json.load(open(sys.argv[2]))
tot = fg = 0
for line in open(prep + "/test.csv").readlines()[1:]:
    for l in open("%s/%04d.crf" % (prep, int(line.split(",")[0]))):
        if l.startswith("n "):
            f = l.split()
            tot += float(f[1]); fg += float(f[2])
trivial = (tot - fg) / tot / 2
m = {r["algo"]: r["metrics"] for r in runs}
sb = m["sb"]["iou_mean"]["test"]
print("all-background %.3f, StructBoost %.3f, SSVM %.3f" % (trivial, sb, m["ssvm"]["iou_mean"]["test"]))
assert sb > trivial + 0.05, (sb, trivial)
assert m["sbpv"]["iou_mean"]["test"] > trivial + 0.05
for a in ("sb", "sbpv", "ssvm"):
    assert m[a]["nonsubmodular"]["test"] == 0 and m[a]["nonsubmodular"]["train"] == 0, a
# per-view adds up to one column per view and iteration
n = {r["algo"]: (r["iterations"], r["trees"]) for r in runs}
assert n["sb"][1] == n["sb"][0] and n["sbpv"][0] < n["sbpv"][1] <= 2 * n["sbpv"][0], n
PY
[[ -s $TMP/pred-sb/0001.lab ]] || fail "pred_out wrote no labels"
"$BL" segment figure "$TMP/p" "$TMP/a" 1 "$TMP/fig.png" SB="$TMP/pred-sb" >/dev/null ||
  fail "segment figure"
[[ -s $TMP/fig.png ]] || fail "no figure"

# refusals
expect_fail 2 "NAME is horse, vehicle or person" -- "$BL" segment make bike "$TMP/x"
expect_fail 2 "unknown subcommand" -- "$BL" segment frobnicate
expect_fail 1 "images.csv" -- "$BL" segment prepare "$TMP/nowhere" "$TMP/y"
expect_fail 1 "nowhere/0001.lab" -- "$BL" segment figure "$TMP/p" "$TMP/a" 1 "$TMP/f2.png" X="$TMP/nowhere"
cp -r "$TMP/p" "$TMP/bad"
sed -i '5s/^n \([0-9]*\) .*/n \1 0 0 zz/' "$TMP/bad/0000.crf"
sed -e "s#task.dir = p#task.dir = bad#" -e "s#output = .*#output = $TMP/out2#" \
  "$TMP/seg.ini" >"$TMP/bad.ini"
expect_fail 1 "0000.crf:5: field F1" -- "$BL" run "$TMP/bad.ini"
sed -e "s#task.dir = p#task.dirx = p#" -e "s#output = .*#output = $TMP/out3#" \
  "$TMP/seg.ini" >"$TMP/badkey.ini"
expect_fail 1 "dirx" -- "$BL" run "$TMP/badkey.ini"
sed -e "s#^iterations = 200#nonneg_views = nosuch#" -e "s#output = .*#output = $TMP/out4#" \
  "$TMP/seg.ini" >"$TMP/badview.ini"
expect_fail 1 "has no view 'nosuch'" -- "$BL" run "$TMP/badview.ini"
sed -e "s#^columns = per-view#columns = sometimes#" -e "s#output = .*#output = $TMP/out5#" \
  "$TMP/seg.ini" >"$TMP/badcols.ini"
expect_fail 1 "expected best or per-view" -- "$BL" run "$TMP/badcols.ini"
finish

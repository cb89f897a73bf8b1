# SPDX-License-Identifier: GPL-3.0-or-later
# `boostlab track` (StructBoost spec §4.5): make writes a constructed
# sequence byte-identically for one seed; a short StructBoost run follows
# the object (mean overlap above 0.5) and writes its CSVs; the AdaBoost
# tracker runs; the task plugin passes check-plugin and trains from a CSV
# with `boostlab run`; bad sequence folders, short ground truth and bad
# INI keys are refused with FILE:LINE and a non-zero exit.
. "$(dirname "$0")/lib.sh"
export OMP_WAIT_POLICY=passive
IMG=/usr/lib/python3/dist-packages/skimage/data

# ---- the task plugin on its own -----------------------------------------------
"$BL" check-plugin "$BL_TOP_BUILDDIR/plugins/task/.libs/task_track.so" >"$TMP/chk" 2>&1 ||
  fail "check-plugin track: $(tail -20 "$TMP/chk")"

# candidate sets as a CSV: 6 frames x 5 boxes, feature f1 = overlap + noise
awk 'BEGIN { srand(3); print "label,frame,overlap,f1,f2";
  for (g = 0; g < 6; g++) for (q = 0; q < 5; q++) {
    ov = q == 0 ? 1 : 0.8 * rand(); printf "0,%d,%.4f,%.4f,%.4f\n", g, ov, ov + 0.01 * rand(), rand() } }' \
  >"$TMP/cands.csv"
cat >"$TMP/cands.ini" <<INI
[experiment]
iterations = 10
output = $TMP/cands-out
[data cands]
file = $TMP/cands.csv
[algorithm sb]
method = structboost
task = track
weak = stump
weak.criterion = max
C = 10
INI
"$BL" run "$TMP/cands.ini" >"$TMP/run.out" 2>&1 || fail "run with task track: $(tail -5 "$TMP/run.out")"

if [[ ! -r $IMG/chelsea.png ]]; then
  echo "python3-skimage images missing: sequence checks skipped"
  finish
fi

# ---- make: deterministic, documented ----------------------------------------
"$BL" track list | grep -q '^cat-brick ' || fail "track list lacks cat-brick"
"$BL" track make cat-brick "$TMP/a" --seed 4 --frames 24 || fail "track make exited $?"
"$BL" track make cat-brick "$TMP/b" --seed 4 --frames 24 || fail "track make (again) exited $?"
"$BL" track make cat-brick "$TMP/c" --seed 5 --frames 24 || fail "track make --seed 5 exited $?"
for f in 00001.png 00024.png groundtruth.txt README.txt; do
  cmp -s "$TMP/a/$f" "$TMP/b/$f" || fail "same seed, $f differs"
done
cmp -s "$TMP/a/00010.png" "$TMP/c/00010.png" && fail "seeds 4 and 5 give the same frame"
[[ $(wc -l <"$TMP/a/groundtruth.txt") -eq 24 ]] || fail "groundtruth.txt has not 24 lines"
grep -q CONSTRUCTED "$TMP/a/README.txt" || fail "README.txt does not say the sequence is constructed"

# ---- a short run: StructBoost follows the object --------------------------------
"$BL" track run "$TMP/a" --out "$TMP/sb" --quiet --set candidates=400 --set train_boxes=80 \
  --set init_iterations=30 --set threads=2 >"$TMP/sb.out" 2>"$TMP/sb.err" ||
  fail "track run exited $?: $(cat "$TMP/sb.err")"
[[ $(wc -l <"$TMP/sb/frames.csv") -eq 25 ]] || fail "frames.csv has not 24 rows"
awk -F, 'NR == 2 { ok = $5 > 0.5 } END { exit !ok }' "$TMP/sb/summary.csv" ||
  fail "StructBoost's mean overlap is not above 0.5: $(cat "$TMP/sb/summary.csv")"
grep -q '^method = structboost' "$TMP/sb/tracker.ini" || fail "tracker.ini lacks the method"
# the same run again: the same boxes (threads do not change results)
"$BL" track run "$TMP/a" --out "$TMP/sb1" --quiet --set candidates=400 --set train_boxes=80 \
  --set init_iterations=30 --set threads=1 >/dev/null 2>&1 || fail "track run (1 thread) exited $?"
cmp -s "$TMP/sb/frames.csv" "$TMP/sb1/frames.csv" || fail "1 and 2 threads track differently"
"$BL" track run "$TMP/a" --out "$TMP/ada" --quiet --method adaboost --set candidates=400 \
  --set train_boxes=80 --set ada_iterations=20 >/dev/null 2>"$TMP/ada.err" ||
  fail "adaboost tracker exited $?: $(cat "$TMP/ada.err")"

# ---- refusals ----------------------------------------------------------------
expect_fail 1 "$TMP/none: not a readable sequence" -- "$BL" track run "$TMP/none" --out "$TMP/x"
mkdir -p "$TMP/short" && cp "$TMP/a/0000"[1-5].png "$TMP/short/" && head -3 "$TMP/a/groundtruth.txt" >"$TMP/short/groundtruth.txt"
expect_fail 1 "groundtruth.txt:3: 3 boxes for 5 frames" -- "$BL" track run "$TMP/short" --out "$TMP/x"
printf '1 2 3 4\n1 2 x 4\n' >"$TMP/short/groundtruth.txt"
expect_fail 1 "groundtruth.txt:2: field 3 \(w\)" -- "$BL" track run "$TMP/short" --out "$TMP/x"
printf '[tracker]\nC = 10\nradiuss = 3\n' >"$TMP/bad.ini"
expect_fail 1 "bad.ini:3: unknown key 'radiuss'" -- "$BL" track run "$TMP/a" --config "$TMP/bad.ini" --out "$TMP/x"
printf '[tracker]\ncandidates = -4\n' >"$TMP/bad2.ini"
expect_fail 1 "bad2.ini:2: candidates" -- "$BL" track run "$TMP/a" --config "$TMP/bad2.ini" --out "$TMP/x"
expect_fail 2 "unknown scene 'nope'" -- "$BL" track make nope "$TMP/x"
expect_fail 2 "frames" -- "$BL" track make cat-brick "$TMP/x" --frames 0
expect_fail 2 "apply to make, not run" -- "$BL" track run "$TMP/a" --out "$TMP/x" --frames 5
expect_fail 1 "none/brick.png: cannot open" -- "$BL" track make cat-brick "$TMP/x" --images "$TMP/none"
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# The [data] section's feature transforms from the command line: a run with
# deskew + HOG + PCA on small synthetic images (per-class draws tested on a
# test file), and every bad key or value refused with file:line and key.
. "$(dirname "$0")/lib.sh"

# 8x8 images of two classes: a bright left half (class 0) or top half (1),
# with noise; 30 training and 10 test rows
images() { # N SEED
  awk -v n="$1" -v seed="$2" 'BEGIN {
    srand(seed); printf "label"; for (j = 0; j < 64; j++) printf ",p%d", j; print ""
    for (i = 0; i < n; i++) {
      c = i % 2; printf "%d", c
      for (j = 0; j < 64; j++) {
        r = int(j / 8); x = j % 8
        on = c == 0 ? x < 4 : r < 4
        printf ",%d", (on ? 200 : 20) + int(rand() * 40)
      }
      print ""
    } }'
}
images 30 1 >"$TMP/img.csv"
images 10 2 >"$TMP/img-test.csv"
cp "$SRC/data/wine.csv" "$TMP/wine.csv"

cat >"$TMP/ok.ini" <<INI
[experiment]
output = $TMP/out-ok
iterations = 5
[data img]
file = img.csv
test_file = img-test.csv
split = per-class
per_class = 10
deskew = true
hog = 4
pca_variance = 0.9
[algorithm a]
recipe = mcboost-exp
INI
"$BL" run --quiet "$TMP/ok.ini" >"$TMP/ok.out" || fail "the transformed run failed"
grep -q '^hog = 4$' "$TMP/out-ok/experiment.ini" || fail "experiment.ini lacks hog"
grep -q '^pca_variance = 0.9' "$TMP/out-ok/experiment.ini" || fail "experiment.ini lacks pca_variance"
grep -q '^deskew = true$' "$TMP/out-ok/experiment.ini" || fail "experiment.ini lacks deskew"

# one bad line at a time in a wine data section (13 features: no image)
bad() { # PATTERN KEY-LINES...
  local pat=$1
  shift
  { printf '[experiment]\noutput = %s/out-bad\n[data wine]\nfile = wine.csv\n' "$TMP"
    printf '%s\n' "$@"
    printf '[algorithm a]\nrecipe = mcboost-exp\n'; } >"$TMP/bad.ini"
  expect_fail 1 "$pat" -- "$BL" run --quiet "$TMP/bad.ini"
}
bad "bad.ini:5: hog: the data set's 13 features are not a square image" "hog = 4,7"
bad "bad.ini:5: image: 28x28 is 784 pixels but the data set has 13 features" "image = 28x28" "hog = 7"
bad "bad.ini:5: deskew: the data set's 13 features" "deskew = true"
bad "bad.ini:5: hog: expected up to 8 cell sizes" "hog = 4,x"
bad "bad.ini:5: pca: 20 components asked for but the data set has 13 features" "pca = 20"
bad "bad.ini:6: pca_variance: .*not together with pca" "pca = 2" "pca_variance = 0.9"
bad "bad.ini:5: image: expected WIDTHxHEIGHT" "image = 28"
bad "bad.ini:3: \[data wine\] a test_file is only used with split = given, first or per-class" \
  "test_file = wine.csv" "split = ratio"
# a HOG cell larger than the image
cat >"$TMP/big.ini" <<INI
[experiment]
output = $TMP/out-big
[data img]
file = img.csv
hog = 4,16
[algorithm a]
recipe = mcboost-exp
INI
expect_fail 1 "big.ini:5: hog: cell size 16 is larger than the 8x8 image" -- "$BL" run --quiet "$TMP/big.ini"
# transforms read dense rows: a set held sparse is refused, not read as NULL
printf '0 1:1 3:2\n1 2:1\n0 1:3 4:1\n1 2:2 3:1\n0 1:1\n1 2:1 4:2\n0 1:2 3:1\n1 2:3\n' >"$TMP/s.libsvm"
for t in "pca = 2:pca needs dense data" "hog = 2:image transforms need dense data"; do
  cat >"$TMP/sp.ini" <<INI
[experiment]
output = $TMP/out-sp
iterations = 3
[data s]
file = s.libsvm
storage = sparse
${t%%:*}
[algorithm a]
recipe = mcboost-exp
INI
  expect_fail 1 "sp.ini:7: ${t#*:} \(storage = dense\)" -- "$BL" run --quiet "$TMP/sp.ini"
done
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# Models do not depend on the thread count: `boostlab train` with 1 and 2
# threads writes byte-identical model files (and the same predictions) for
# the AOSO-LogitBoost vector trees, MART's class trees and the stump learner
# in both its forms (mcboost-exp: per-column stumps, samme: SAMME stumps),
# and AOSO on a set large enough for every parallel path of the grower.
. "$(dirname "$0")/lib.sh"

for spec in aoso-logitboost:25 mart:8 mcboost-exp:25 samme:25; do
  r=${spec%:*} it=${spec#*:}
  for t in 1 2; do
    "$BL" train --quiet --threads "$t" --data "$SRC/data/optdigits.train.csv" --recipe "$r" \
      --iterations "$it" --model "$TMP/$r.$t.model" 2>"$TMP/err" ||
      fail "$r, $t threads: train exited $?: $(cat "$TMP/err")"
    "$BL" predict --quiet --model "$TMP/$r.$t.model" --data "$SRC/data/optdigits.test.csv" \
      --output "$TMP/$r.$t.pred" 2>"$TMP/err" || fail "$r, $t threads: predict exited $?: $(cat "$TMP/err")"
  done
  cmp -s "$TMP/$r.1.model" "$TMP/$r.2.model" || fail "$r: the model with 2 threads differs from 1 thread's"
  cmp -s "$TMP/$r.1.pred" "$TMP/$r.2.pred" || fail "$r: predictions with 2 threads differ"
  n=$(grep -c '^term ' "$TMP/$r.1.model")
  [[ $n -eq $it ]] || fail "$r: the model has $n terms, expected $it"
done

# A node large enough for the chunked partition (2 x 16384 rows), few
# features (one a histogram pass on 3 threads) and every cross sum at once:
# AOSO's model on 3 threads is 1 thread's, byte for byte.
"$BL" synth classification --rows 40000 --features 4 --classes 4 --informative 3 --redundant 1 \
  --seed 3 -o "$TMP/big.csv" 2>"$TMP/err" || fail "synth: $(cat "$TMP/err")"
for t in 1 3; do
  "$BL" train --quiet --threads "$t" --data "$TMP/big.csv" \
    --recipe aoso-logitboost --iterations 3 --model "$TMP/big.$t.model" 2>"$TMP/err" ||
    fail "aoso on 40000 rows, $t threads: $(cat "$TMP/err")"
done
cmp -s "$TMP/big.1.model" "$TMP/big.3.model" || fail "aoso on 40000 rows: 3 threads' model differs from 1 thread's"

# How many threads, the same way in every command: -t/--threads, else the
# experiment's threads (run), else OMP_NUM_THREADS, else the cores; -j/--jobs
# counts processes.  train's old -j still works, with a warning.  (A build
# without OpenMP runs 1 thread whatever is asked: nothing to check there.)
TR=(train --data "$SRC/data/iris.csv" --recipe mcboost-exp --iterations 2 --model "$TMP/t.model")
"$BL" "${TR[@]}" -t 2 2>"$TMP/err" || fail "train -t 2: $(cat "$TMP/err")"
if grep -q '; 2 threads)' "$TMP/err"; then
  OMP_NUM_THREADS=3 "$BL" "${TR[@]}" 2>"$TMP/err" || fail "train: $(cat "$TMP/err")"
  grep -q '; 3 threads)' "$TMP/err" || fail "train ignored OMP_NUM_THREADS=3: $(cat "$TMP/err")"
  OMP_NUM_THREADS=3 "$BL" "${TR[@]}" --threads 2 2>"$TMP/err" || fail "train -t: $(cat "$TMP/err")"
  grep -q '; 2 threads)' "$TMP/err" || fail "--threads 2 did not win over OMP_NUM_THREADS: $(cat "$TMP/err")"
  "$BL" "${TR[@]}" -t 2 2>"$TMP/err"
  ! grep -q deprecated "$TMP/err" || fail "train -t warned"
  "$BL" "${TR[@]}" -j 2 2>"$TMP/err" || fail "train -j: $(cat "$TMP/err")"
  grep -q "warning: -j is deprecated here; use -t/--threads" "$TMP/err" || fail "train -j: no deprecation note: $(cat "$TMP/err")"
  grep -q '; 2 threads)' "$TMP/err" || fail "train -j 2 did not set 2 threads"
  OMP_NUM_THREADS=lots "$BL" "${TR[@]}" 2>"$TMP/err" || fail "train with a bad OMP_NUM_THREADS failed"
  grep -q "OMP_NUM_THREADS='lots' is not a thread count" "$TMP/err" || fail "bad OMP_NUM_THREADS not named"
  printf '[experiment]\niterations = 2\noutput = %s/r\n[data iris]\nfile = %s/data/iris.csv\n[algorithm a]\nrecipe = mcboost-exp\n' \
    "$TMP" "$SRC" >"$TMP/t.ini"
  OMP_NUM_THREADS=3 "$BL" run --output "$TMP/r1" "$TMP/t.ini" >/dev/null 2>"$TMP/err" || fail "run: $(cat "$TMP/err")"
  grep -q '1 job x 3 threads' "$TMP/err" || fail "run ignored OMP_NUM_THREADS=3: $(grep runs "$TMP/err")"
  OMP_NUM_THREADS=3 "$BL" run -t 2 --output "$TMP/r2" "$TMP/t.ini" >/dev/null 2>"$TMP/err" || fail "run -t: $(cat "$TMP/err")"
  grep -q '1 job x 2 threads' "$TMP/err" || fail "run -t 2 did not win: $(grep runs "$TMP/err")"
  sed -i 's/^iterations = 2/iterations = 2\nthreads = 1/' "$TMP/t.ini"
  OMP_NUM_THREADS=3 "$BL" run --output "$TMP/r3" "$TMP/t.ini" >/dev/null 2>"$TMP/err" || fail "run threads=1: $(cat "$TMP/err")"
  grep -q '1 job x 1 thread;' "$TMP/err" || fail "the experiment's threads did not win over OMP_NUM_THREADS: $(grep runs "$TMP/err")"
fi
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# Models do not depend on the thread count: `boostlab train` with 1 and 2
# threads writes byte-identical model files (and the same predictions) for
# the AOSO-LogitBoost vector trees, MART's class trees and the stump learner
# in both its forms (mcboost-exp: per-column stumps, samme: SAMME stumps).
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
finish

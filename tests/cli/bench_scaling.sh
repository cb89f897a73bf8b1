# SPDX-License-Identifier: GPL-3.0-or-later
# bench/scaling.sh works end to end in a tiny run (--quick, 1 and 2 threads,
# letter and the synthetic set): a table per data set with a row per thread
# count and an s per tree and speed-up per method, the peers present when
# importable and skipped with a note when not (PY=false), XGBoost through
# boostlab's own method when boostlab has it, a PNG plot with gnuplot, and
# clear refusals of bad options.  bench/profile.sh too: a row of phase times
# per thread count.  Timings are not checked.
. "$(dirname "$0")/lib.sh"
PY=${PY:-/usr/bin/python3}
S=$SRC/bench/scaling.sh
export BL

# table_ok FILE SET METHODS...: the table of SET has the columns of METHODS
# and rows for threads 1 and 2, every cell a number, speed-up 1.00 at 1
table_ok() {
  local f=$1 set=$2; shift 2
  local n=$# want="| threads |" l
  for m in "$@"; do
    case $m in xgboost) l="XGBoost hist" ;; xgboost-c) l="XGBoost hist (C API)" ;;
      hgb) l=HGB ;; *) l="boostlab $m" ;; esac
    want+=" $l s/tree | $m speed-up |"
  done
  awk -v set="$set" 'index($0, "### " set ": ") == 1 { on = 1; next } /^### / { on = 0 } on' "$f" >"$TMP/t"
  [[ $(grep -m1 '^| threads' "$TMP/t") == "$want" ]] ||
    fail "$set: header $(grep -m1 '^| threads' "$TMP/t"), expected $want"
  awk -F'|' -v n="$n" '/^\| [0-9]+ \|/ {
      rows = rows " " $2 + 0
      if (NF != 2 * n + 3) { print "cells: " $0; bad = 1 }
      # s per tree positive; a speed-up may print as 0.00 on a loaded machine
      for (i = 3; i < NF; i++) if ($i !~ /^ [0-9]+(\.[0-9]+)?(e-[0-9]+)? $/ || (i % 2 && $i + 0 <= 0)) {
        print "cell " i ": " $0; bad = 1 }
      if ($2 + 0 == 1) for (i = 4; i < NF; i += 2) if ($i + 0 != 1) { print "speed-up at 1: " $0; bad = 1 } }
    END { if (rows != " 1 2") { print "rows:" rows; bad = 1 }; exit bad }' "$TMP/t" >"$TMP/bad" ||
    fail "$set table: $(cat "$TMP/bad")"
}

peers=() blx=0
"$BL" --version | grep -q XGBoost && blx=1
if "$PY" -c 'import numpy, xgboost' 2>/dev/null; then peers+=(xgboost)
elif ((blx)); then peers+=(xgboost-c); fi
"$PY" -c 'import numpy, sklearn' 2>/dev/null && peers+=(hgb)
PY=$PY bash "$S" --quick --threads 1,2 --out "$TMP/s" >"$TMP/out" 2>"$TMP/err" ||
  fail "scaling.sh --quick exited $?: $(tail -5 "$TMP/err")"
[[ $(grep -c '^### ' "$TMP/out") -eq 2 ]] || fail "not two tables: $(grep '^### ' "$TMP/out")"
table_ok "$TMP/out" letter aoso-logitboost mart mcboost-exp "${peers[@]}"
table_ok "$TMP/out" synthetic aoso-logitboost mart mcboost-exp "${peers[@]}"
# --quick: 3 k trees per method (26 and 10 classes)
grep -q '^trees (mcboost-exp: stumps) each run added: aoso-logitboost 78; mart 78; mcboost-exp 78;' "$TMP/out" ||
  fail "letter trees line: $(grep -m1 '^trees' "$TMP/out")"
[[ $(awk -F'\t' 'NR > 1' "$TMP/s/results.tsv" | wc -l) -eq $((2 * 2 * (3 + ${#peers[@]}))) ]] ||
  fail "results.tsv: $(wc -l <"$TMP/s/results.tsv") lines"
if command -v gnuplot >/dev/null; then
  head -c 4 "$TMP/s/scaling.png" | od -An -c | grep -q 'P   N   G' || fail "no PNG plot"
fi

# no peers: skipped with a note, boostlab's columns only
PY=false bash "$S" --quick --threads 2 --data synthetic --trees 1 --plot "$TMP/p.png" --xgb python \
  >"$TMP/out" 2>"$TMP/err" || fail "scaling.sh without peers exited $?: $(tail -5 "$TMP/err")"
grep -q '^note: XGBoost skipped' "$TMP/err" && grep -q '^note: HGB skipped' "$TMP/err" ||
  fail "no notes of skipped peers: $(cat "$TMP/err")"
table_ok "$TMP/out" synthetic aoso-logitboost mart mcboost-exp
if ((blx)); then # XGBoost through boostlab, as on a node with the bundle alone
  PY=false bash "$S" --quick --threads 2 --data synthetic --trees 1 --plot "$TMP/p.png" --xgb boostlab \
    >"$TMP/out" 2>"$TMP/err" || fail "scaling.sh --xgb boostlab exited $?: $(tail -5 "$TMP/err")"
  table_ok "$TMP/out" synthetic aoso-logitboost mart mcboost-exp xgboost-c
fi

# profile.sh: a row per thread count, every phase a number of ms
P=$SRC/bench/profile.sh
bash "$P" --quick --data letter --threads 1,2 >"$TMP/out" 2>"$TMP/err" ||
  fail "profile.sh --quick exited $?: $(tail -5 "$TMP/err")"
grep -q '^| threads | iteration | weak | choose | fill | hist | sub | partition | emit | setup | other | engine book |$' \
  "$TMP/out" || fail "profile.sh header: $(head -1 "$TMP/out")"
awk -F'|' '/^\| [0-9]+ \|/ { rows = rows " " $2 + 0
    for (i = 3; i < NF; i++) if ($i !~ /^ [0-9]+\.[0-9]+ $/) { print "cell " i ": " $0; bad = 1 } }
  END { if (rows != " 1 2") { print "rows:" rows; bad = 1 }; exit bad }' "$TMP/out" >"$TMP/bad" ||
  fail "profile.sh table: $(cat "$TMP/bad")"
expect_fail 1 "printed no trees profile" -- bash "$P" --quick --data letter --threads 1 --recipe mcboost-exp
expect_fail 2 "--data: unknown 'iris'" -- bash "$P" --data iris
expect_fail 2 "--threads: '0' is not a thread count" -- bash "$P" --threads 0

expect_fail 2 "--threads: '0' is not a thread count" -- bash "$S" --threads 0,2
expect_fail 2 "--threads: 'x' is not a thread count" -- bash "$S" --threads 1,x
expect_fail 2 "--data: unknown 'iris'" -- bash "$S" --data letter,iris
expect_fail 2 "--trees expects a positive integer, not '0'" -- bash "$S" --trees 0
expect_fail 2 "unknown option '--fast'" -- bash "$S" --fast
expect_fail 2 "--xgb: 'c' is not auto, python or boostlab" -- bash "$S" --xgb c
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A/B speed of two settings of one recipe, measured in one run: the runs of
# A and B alternate (A, B, A, B, ...), so a change in the machine's load
# hits both.  Per run: the median seconds of an iteration's weak learner
# (t_weak: the trees) and of its bookkeeping (t_book), their sums over the
# run, the final test error and the peak RSS of the run (GNU time, Debian
# package time; "n/a" without it); then B / A of the medians over the runs.
#   bench/ab.sh [--data letter|fashion-mnist] [--recipe NAME] [--iterations N]
#               [--reps N] [--threads N] 'KEYS A' 'KEYS B'
# KEYS: algorithm keys, ';'-separated (e.g. 'weak.subtract = false'; may
# be empty, '', to compare two builds).
# Defaults: letter, aoso-logitboost, 1000 iterations, 2 reps, 2 threads.
# Environment: BL (the boostlab binary), BL_A and BL_B (A's and B's, both
# BL by default: two builds of the same keys, e.g. before and after a
# change), FMNIST (see data-section.sh).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$ROOT/boostlab}
BL_A=${BL_A:-$BL} BL_B=${BL_B:-$BL}
DATA=letter RECIPE=aoso-logitboost IT=1000 REPS=2 THREADS=2
die() { echo "ab.sh: $*" >&2; exit 1; }
while (($# > 2)); do
  case $1 in
    --data) DATA=${2:?}; shift ;;
    --recipe) RECIPE=${2:?}; shift ;;
    --iterations) IT=${2:?}; shift ;;
    --reps) REPS=${2:?}; shift ;;
    --threads) THREADS=${2:?}; shift ;;
    *) die "unknown option $1 (see the header of $0)" ;;
  esac
  shift
done
(($# == 2)) || die "want two key sets, A and B (see the header of $0)"
for b in "$BL_A" "$BL_B"; do
  [[ -x $b ]] || die "$b not built: run ./configure && make"
done
section=$("$ROOT/bench/data-section.sh" "$DATA")
TMP=$(mktemp -d /tmp/bl-ab-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export OMP_NUM_THREADS=$THREADS
# awk: the median of a[1..n] (sorted in place)
MED='function med(a, n,   t, i, j) {
  for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
'
echo "| run | setting | median t_weak, s | median t_book, s | sum t_weak, s | sum t_book, s | test error % | peak RSS, MB |"
echo "|---|---|---|---|---|---|---|---|"
# each run under GNU time when there is one, its peak RSS (KB) to $o.rss
GTIME=()
[[ -x /usr/bin/time ]] && GTIME=(/usr/bin/time -f %M -o)
for rep in $(seq "$REPS"); do
  for ab in A B; do
    keys=$([[ $ab == A ]] && echo "$1" || echo "$2") o=$TMP/$ab$rep
    bin=$([[ $ab == A ]] && echo "$BL_A" || echo "$BL_B")
    { printf '[experiment]\nname = ab\niterations = %s\nthreads = %s\nmax_bins = 256\n' "$IT" "$THREADS"
      printf 'output = %s\n\n[data %s]\n%s\n\n[algorithm %s]\nrecipe = %s\n' "$o" "$DATA" "$section" "$ab" "$RECIPE"
      tr ';' '\n' <<<"$keys" | sed 's/^ *//; /^$/d'; } >"$o.ini"
    "${GTIME[@]}" ${GTIME:+"$o.rss"} "$bin" run -q "$o.ini" >/dev/null
    rss=$([[ -s $o.rss ]] && awk '{ printf "%.0f", $1 / 1024 }' "$o.rss" || echo n/a)
    "$bin" results --curves -f csv -o "$o.csv" "$o" >/dev/null
    awk -F, -v run="$rep" -v ab="$ab" -v keys="$keys" -v rss="$rss" "$MED"'
      NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
      { w[++n] = $col["t_weak"]; b[n] = $col["t_book"]; sw += w[n]; sb += b[n]; e = $col["test_err"] }
      END { printf "| %s | %s: `%s` | %.5f | %.5f | %.2f | %.2f | %.2f | %s |\n", run, ab, keys, med(w, n), med(b, n), sw, sb, 100 * e, rss }' "$o.csv"
  done
done | tee "$TMP/rows"
awk -F'|' "$MED"'{ split($3, s, ":"); k = s[1]; gsub(/ /, "", k); n[k]++
    if (k == "A") { wa[n[k]] = $4; ba[n[k]] = $5; ra[n[k]] = $9 }
    else { wb[n[k]] = $4; bb[n[k]] = $5; rb[n[k]] = $9 }
    norss += $9 !~ /[0-9]/ }
  # a median shown as 0.00000 (below 10 µs) has no ratio: n/a
  function q(x, y) { return y > 0 ? sprintf("%.2f", x / y) : "n/a" }
  END { printf "\nB / A of the median t_weak over the runs: %s; of t_book: %s",
        q(med(wb, n["B"]), med(wa, n["A"])), q(med(bb, n["B"]), med(ba, n["A"]))
        if (!norss) printf "; of the peak RSS: %s", q(med(rb, n["B"]), med(ra, n["A"]))
        printf "\n" }' "$TMP/rows"

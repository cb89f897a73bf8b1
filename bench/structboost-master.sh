#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# StructBoost's 1-slack master against the m-slack LP (issue 32), one thread:
# recipe structboost-stump (multi-class task, stumps, C = 100) with the
# 1-slack master (master = pairs by default; --master primal or dual for
# the classic cutting planes) and with formulation = m-slack, on the same
# split of glass, vowel, satimage (300 per class), pendigits (a 2000-row
# sample: 200 per class of its training file) and letter (200 per class,
# 5200 rows, 26 classes), 200 iterations, and glass at 500.  75/25 splits.
#
#   bench/structboost-master.sh [--eps LIST] [--master M] [--data LIST] [--check N]
#                               [--no-mslack] [--cpu] [--out DIR]
#
# Prints one markdown row per data set and eps_cp: the training time of
# each run (weak learner + master + bookkeeping, summed over iterations, as
# the results store records it), their ratio, the master's own seconds, the
# relative difference of the final objectives (each run picks its own
# columns, so this is not a test of the master), and the check that is:
# check_mslack = 50 solves the m-slack LP from scratch over the 1-slack
# run's columns at every 50th iteration (outside the timed part), and the
# largest |relative difference| of the objectives is printed (--check N:
# every N iterations instead, 0: no check; on letter one from-scratch
# m-slack solve takes minutes; --no-mslack: the 1-slack run only, for
# letter, whose m-slack LP of 97,500 rows did not finish in 19 minutes).
# --cpu: also run each algorithm once more in a process of its own, without
# the check, under GNU time, and print their CPU seconds (user + system of
# the whole process) and ratio: on a shared machine the load inflates wall
# time far more than CPU time.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BL=${BL:-$ROOT/boostlab}
EPS=0.01 MASTER=pairs DATA=glass,vowel,satimage,pendigits,letter,glass500 OUT= CHECK=50 MSLACK=1 CPU=0
usage() { sed -n '2,29s/^# \{0,1\}//p' "$0" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
  case $1 in
    --eps) [[ $# -ge 2 ]] || usage; EPS=$2; shift 2 ;;
    --master) [[ $# -ge 2 ]] || usage; MASTER=$2; shift 2 ;;
    --data) [[ $# -ge 2 ]] || usage; DATA=$2; shift 2 ;;
    --check) [[ $# -ge 2 ]] || usage; CHECK=$2; shift 2 ;;
    --no-mslack) MSLACK=0; shift ;;
    --cpu) CPU=1; shift ;;
    --out) [[ $# -ge 2 ]] || usage; OUT=$2; shift 2 ;;
    *) usage ;;
  esac
done
[[ -x $BL ]] || { echo "$0: $BL is not built (make)" >&2; exit 1; }
if [[ -n $OUT ]]; then
  mkdir -p "$OUT"; TMP=$(cd "$OUT" && pwd)
else
  TMP=$(mktemp -d /tmp/bl-sbmaster-XXXXXX)
  trap '[[ -n $TMP && -d $TMP ]] && rm -rf "$TMP"' EXIT
fi
export OMP_NUM_THREADS=1

data_keys() { # the [data] keys of a set
  case $1 in
    glass | glass500) printf 'file = %s/data/glass.csv\nclasses = %s/data/glass.classes\nsplit = ratio\n' "$ROOT" "$ROOT" ;;
    vowel) printf 'file = %s/data/vowel.csv\nclasses = %s/data/vowel.classes\nsplit = ratio\n' "$ROOT" "$ROOT" ;;
    satimage) printf 'file = %s/data/satimage.csv\nclasses = %s/data/satimage.classes\nsplit = per-class\nper_class = 300\n' "$ROOT" "$ROOT" ;;
    pendigits) printf 'file = %s/data/pendigits.train.csv\nclasses = %s/data/pendigits.classes\nsplit = per-class\nper_class = 200\n' "$ROOT" "$ROOT" ;;
    letter) printf 'file = %s/data/letter.csv\nclasses = %s/data/letter.classes\nsplit = per-class\nper_class = 200\n' "$ROOT" "$ROOT" ;;
    *) echo "$0: unknown data set $1" >&2; exit 2 ;;
  esac
  printf 'test_ratio = 0.25\n'
}

cpu_cols=; cpu_rule=
((CPU)) && cpu_cols=' 1-slack CPU s | m-slack CPU s | CPU ratio 1/m |' cpu_rule='---|---|---|'
printf '| data | iterations | eps_cp | 1-slack s | m-slack s | ratio 1/m | 1-slack master s | m-slack master s | final objective rel. diff. | same columns, every %sth: max rel. diff. |%s\n' "$CHECK" "$cpu_cols"
printf '|---|---|---|---|---|---|---|---|---|---|%s\n' "$cpu_rule"

# write_ini SET EPS OUT ALGOS CHECK: the experiment of data set SET at
# eps_cp EPS into store OUT, ALGOS "one", "m" or "one m" (1-slack with
# check_mslack = CHECK, m-slack)
write_ini() {
  local name=$1 it=200
  [[ $1 == glass500 ]] && it=500 name=glass
  printf '[experiment]\nname = sbmaster\nrepeats = 1\niterations = %s\nthreads = 1\noutput = %s\n\n' "$it" "$3"
  printf '[data %s]\n' "$name"; data_keys "$1"
  [[ $4 == *one* ]] && printf '\n[algorithm one]\nrecipe = structboost-stump\nmaster = %s\neps_cp = %s\ncheck_mslack = %s\n' "$MASTER" "$2" "$5"
  [[ $4 == *m ]] && printf '\n[algorithm m]\nrecipe = structboost-stump\nformulation = m-slack\n'
  return 0
}

# CPU seconds (user + system) of one run of algorithm $3 ("one" or "m") of
# the data set $1 at eps_cp $2, alone in its process, without the check
cpu_run() {
  local ini=$TMP/$1-$2-cpu-$3.ini
  write_ini "$1" "$2" "$TMP/cpu-$1-$2-$3" "$3" 0 >"$ini"
  /usr/bin/time -f '%U %S' -o "$ini.time" "$BL" run --jobs 1 "$ini" >"$ini.out" 2>"$ini.log" ||
    { echo "$0: $1 ($3) failed:" >&2; tail -n 5 "$ini.log" >&2; exit 1; }
  awk 'END { printf "%.2f", $1 + $2 }' "$ini.time"
}
IFS=, read -ra sets <<<"$DATA"
IFS=, read -ra epss <<<"$EPS"
for e in "${epss[@]}"; do
  for d in "${sets[@]}"; do
    it=200
    [[ $d == glass500 ]] && it=500
    ini=$TMP/$d-$e.ini
    algos=one
    ((MSLACK)) && algos='one m'
    write_ini "$d" "$e" "$TMP/out-$d-$e" "$algos" "$CHECK" >"$ini"
    "$BL" run --jobs 1 "$ini" >"$TMP/$d-$e.out" 2>"$TMP/$d-$e.log" ||
      { echo "$0: $d failed:" >&2; tail -n 5 "$TMP/$d-$e.log" >&2; exit 1; }
    "$BL" results -c -f csv "$TMP/out-$d-$e" >"$TMP/$d-$e.csv"
    c1=- cm=-
    if ((CPU)); then
      c1=$(cpu_run "$d" "$e" one)
      ((MSLACK)) && cm=$(cpu_run "$d" "$e" m)
    fi
    python3 - "$TMP/$d-$e.csv" "$TMP/$d-$e.log" "$d" "$it" "$e" "$CPU" "$c1" "$cm" <<'EOF'
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
t, tc, f = {}, {}, {}
for r in rows:
    a = r["algo"]
    t[a] = t.get(a, 0.0) + float(r["t_weak"]) + float(r["t_coef"]) + float(r["t_book"])
    tc[a] = tc.get(a, 0.0) + float(r["t_coef"])
    f[a] = float(r["train_loss"])  # rows come in iteration order
chk = [abs(float(x)) for x in re.findall(r"relative difference (\S+)", open(sys.argv[2]).read())]
m = "m" in t  # --no-mslack: no peer
print("| %s | %s | %s | %.2f | %s | %s | %.2f | %s | %s | %s |" % (
    sys.argv[3], sys.argv[4], sys.argv[5], t["one"], "%.2f" % t["m"] if m else "-",
    "%.2f" % (t["one"] / t["m"]) if m else "-", tc["one"], "%.2f" % tc["m"] if m else "-",
    "%.2e" % ((f["one"] - f["m"]) / f["m"]) if m else "-",
    "%.1e (%d checks)" % (max(chk), len(chk)) if chk else "-"), end="")
if sys.argv[6] == "1":
    c1, cm = sys.argv[7], sys.argv[8]
    print(" %s | %s | %s |" % (c1, cm, "%.2f" % (float(c1) / float(cm)) if cm != "-" else "-"), end="")
print()
EOF
  done
done

# SPDX-License-Identifier: GPL-3.0-or-later
# `mpirun -np 2 boostlab run` on one machine gives the same results store
# as a local run of the same file (rank 0 coordinates, rank 1 works).
. "$(dirname "$0")/lib.sh"

if ! "$BL" --version | grep -q MPI; then
  echo "SKIP: this boostlab was built without MPI (configure found no Open MPI)"
  exit 77
fi
MPIRUN=$(command -v mpirun) || { echo "SKIP: mpirun not found (Debian openmpi-bin)"; exit 77; }
# Open MPI refuses root unless told; CI containers run as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# No network between machines is needed: keep Open MPI on this host.
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none

cat >"$TMP/mpi.ini" <<INI
[experiment]
name = mpi-test
repeats = 2
iterations = 30
[data iris]
file = $SRC/data/iris.csv
[data glass]
file = $SRC/data/glass.csv
[algorithm exp]
recipe = mcboost-exp
[algorithm log]
recipe = mcboost-log
nu = {0, 1e-4}
INI

"$BL" run --quiet --output "$TMP/local" "$TMP/mpi.ini" >"$TMP/t_local" 2>"$TMP/e_local" \
  || fail "local run: $(cat "$TMP/e_local")"
timeout 300 "$MPIRUN" -np 2 --oversubscribe "$BL" run --output "$TMP/mpi" "$TMP/mpi.ini" \
  >"$TMP/t_mpi" 2>"$TMP/e_mpi" || fail "mpirun run: $(tail -5 "$TMP/e_mpi")"
grep -q "1 MPI worker rank" "$TMP/e_mpi" || fail "not run over MPI ranks: $(head -3 "$TMP/e_mpi")"

# The same runs with the same figures, apart from times and host.
strip() {
  "$BL" results --format csv --curves "$1" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
drop = {"host", "threads", "started", "finished", "t_weak", "t_coef", "t_book", "t_total"}
keys = [k for k in rows[0] if k not in drop]
for r in sorted(rows, key=lambda r: (r["data"], r["algo"], int(r["rep"]), int(r["iteration"]))):
    print(",".join(r[k] for k in keys))'
}
strip "$TMP/local" >"$TMP/s_local" || fail "export local"
strip "$TMP/mpi" >"$TMP/s_mpi" || fail "export mpi"
[[ -s $TMP/s_local ]] || fail "empty export"
cmp -s "$TMP/s_local" "$TMP/s_mpi" || fail "stores differ: $(diff "$TMP/s_local" "$TMP/s_mpi" | head -4)"
n=$(wc -l <"$TMP/s_mpi")
[[ $n -eq $((2 * 3 * 2 * 30)) ]] || fail "MPI store has $n curve rows, expected 360"

# Resuming under MPI: nothing left to do, the workers are told to quit.
timeout 120 "$MPIRUN" -np 2 --oversubscribe "$BL" run --output "$TMP/mpi" "$TMP/mpi.ini" \
  >/dev/null 2>"$TMP/e_mpi2" || fail "mpirun rerun: $(tail -3 "$TMP/e_mpi2")"
grep -q "12 already in the store" "$TMP/e_mpi2" || fail "MPI rerun did not resume: $(head -2 "$TMP/e_mpi2")"

# A bad experiment stops every rank with the error, not a hang.
printf '[data x]\nfile = nothere.csv\n' >"$TMP/bad.ini"
timeout 120 "$MPIRUN" -np 2 --oversubscribe "$BL" run "$TMP/bad.ini" >/dev/null 2>"$TMP/e_bad"
rc=$?
[[ $rc -ne 0 && $rc -ne 124 ]] || fail "bad experiment under MPI exited $rc"
grep -q "bad.ini:2: file: file .*not found" "$TMP/e_bad" || fail "MPI error: $(head -3 "$TMP/e_bad")"
finish

# SPDX-License-Identifier: GPL-3.0-or-later
# The Python package (python/boostlab) on the built libboostlab:
# tests/python/test_boostlab.py under unittest, with Debian's python3 (or
# $PYTHON, configure's choice, when it has numpy, scikit-learn and pandas).
# Skipped, saying why, when no such Python is there, or when the library is
# built with AddressSanitizer (Python cannot load it: the ASan runtime must
# be the first library of the process).
. "$(dirname "$0")/lib.sh"
BUILD=${BL_TOP_BUILDDIR:-.}
LIB=$BUILD/.libs/libboostlab.so.0
[[ -e $LIB ]] || { echo "FAIL: $LIB is not built"; exit 1; }
if ldd "$LIB" | grep -q 'libasan'; then
  echo "SKIP: libboostlab is built with AddressSanitizer, which Python cannot load"
  exit 77
fi
PY=
for p in ${PYTHON:-} /usr/bin/python3 python3; do
  [[ $p == : ]] && continue
  if "$p" -c 'import numpy, sklearn, pandas, scipy' 2>/dev/null; then PY=$p; break; fi
done
if [[ -z $PY ]]; then
  echo "SKIP: no python3 with numpy, scikit-learn and pandas (scripts/install-deps.sh installs them)"
  exit 77
fi
BOOSTLAB_LIB=$LIB PYTHONPATH=$SRC/python BL=$BL BL_SRC=$SRC BL_BUILD=$BUILD TMPDIR=$TMP \
  PYTHONDONTWRITEBYTECODE=1 OMP_NUM_THREADS=2 \
  "$PY" "$SRC/tests/python/test_boostlab.py" -v 2>"$TMP/py.err"
rc=$?
cat "$TMP/py.err"
[[ $rc -eq 0 ]] || fail "the Python tests failed (exit $rc)"
finish

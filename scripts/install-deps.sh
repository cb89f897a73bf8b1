#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Install the Debian 12 packages boostlab needs to build, test and run its
# experiments; only the missing ones, and nothing when all are there.
# With --bench also the peers the benchmarks in bench/ measure against.
set -euo pipefail

PACKAGES=(
  build-essential autoconf automake libtool pkg-config  # toolchain, autotools
  libinih-dev       # INI experiment files
  libgsl-dev        # random numbers, statistics
  zlib1g-dev        # gzip-compressed data, model checksums
  liblbfgsb-dev     # L-BFGS-B coefficient solver
  libsqlite3-dev    # the results store of `boostlab run`
  libglpk-dev       # StructBoost's master linear programs
  coinor-libclp-dev # StructBoost's 1-slack master (master = pairs): Clp's simplex
  liblinear-dev     # linear SVM baselines (ova-svm, method svm)
  libsvm-dev        # kernel SVM baselines (method svm: one-vs-one, kernels)
  libxgboost-dev    # optional: method xgboost (XGBoost's C API) in experiments
  libpng-dev libjpeg-dev  # vision tasks: image files
  libvlfeat-dev     # vision tasks: HOG, LBP, SLIC super-pixels
  libmaxflow-dev g++  # CRF segmentation: Boykov-Kolmogorov graph cuts (C++)
  python3-skimage   # vision tasks: the real images the benchmark scenes are built from
  libopenmpi-dev openmpi-bin  # optional: `mpirun boostlab run` over ranks
  gnuplot-nox       # plots of `boostlab report`
  help2man          # man pages from --help
  python3           # command-line tests check CSV and JSON output with it
  python3-numpy python3-sklearn python3-pandas  # the Python package (python/boostlab)
  libcriterion-dev  # unit tests
  valgrind          # scripts/test.sh: memcheck smoke run
  libasan8 libubsan1  # scripts/test.sh: the --enable-sanitizers build (gcc 12)
  clang-14 libclang-rt-14-dev  # scripts/fuzz.sh: libFuzzer harnesses
  dataset-fashion-mnist  # the large benchmark (IDX files)
)
if [[ ${1:-} == --bench ]]; then
  PACKAGES+=(
    xgboost python3-xgboost  # bench/: the tree-boosting peer (tree_method=hist)
    python3-sklearn          # bench/: HistGradientBoosting and AdaBoost peers
    time                     # bench/: peak memory (GNU time's maximum RSS)
    linux-perf               # bench/profile.sh --serial: the serial sections of an iteration
  )
elif [[ -n ${1:-} ]]; then
  echo "usage: scripts/install-deps.sh [--bench]" >&2
  exit 2
fi

missing=()
for p in "${PACKAGES[@]}"; do
  [[ $p == \#* ]] && continue
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Build the authors' AOSO-LogitBoost (pengsun/AOSOLogitBoost) with driver.cpp
# in a scratch folder outside the repository and run it on optdigits with
# the paper's J = 20, nu = 0.1, node_size = 1 (docs/results-logitboost.md,
# "Optdigits against the authors' code").  Needs git, g++ and Debian's
# OpenCV (apt-get install libopencv-dev).
#   experiments/logitboost/authors/run.sh SCRATCH [REPO_URL_OR_PATH]
# writes SCRATCH/curve.txt (t, loss, test errors) and SCRATCH/trees.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
scratch=${1:?usage: run.sh SCRATCH [REPO]}
repo=${2:-https://github.com/pengsun/AOSOLogitBoost}
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
case "$scratch/" in "$top"/*) echo "run.sh: $scratch is inside the repository" >&2; exit 2 ;; esac
[[ -d $scratch/aoso ]] || git clone -q "$repo" "$scratch/aoso"
cd "$scratch"
# their sources use FLT_MAX and USHRT_MAX without including the headers
g++ -O2 -std=c++11 -include cfloat -include climits -I aoso/src $(pkg-config --cflags opencv4) \
  "$here/driver.cpp" aoso/src/AOSOLogitBoost.cpp aoso/src/MLData.cpp -o run_aoso -lopencv_core
data=$top/data
./run_aoso "$data/optdigits.train.csv" "$data/optdigits.test.csv" 3000 0.1 20 1 trees.txt >curve.txt
tail -n 1 curve.txt

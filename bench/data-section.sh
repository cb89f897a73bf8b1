#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The INI data keys of a benchmark workload, shared by the bench scripts:
# letter (the first 16000 rows train, the last 4000 test), pendigits or
# optdigits (their train and test files), fashion-mnist (the IDX files of
# Debian's dataset-fashion-mnist, 60000 / 10000) or debsec (the vendored LIBSVM
# files, 41749 / 10504 rows, read sparse).
#   bench/data-section.sh letter|pendigits|optdigits|fashion-mnist|debsec
# Environment: FMNIST (the IDX folder; /usr/share/datasets/fashion-mnist),
# DATASETS (the folder of debsec's files; data/).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FMNIST=${FMNIST:-/usr/share/datasets/fashion-mnist}
DATASETS=${DATASETS:-$ROOT/data}
case ${1:-} in
  letter)
    printf 'file = %s\nclasses = %s\nsplit = first\nfirst = 16000\n' \
      "$ROOT/data/letter.csv" "$ROOT/data/letter.classes" ;;
  pendigits|optdigits)
    printf 'file = %s\ntest_file = %s\nclasses = %s\n' "$ROOT/data/$1.train.csv" \
      "$ROOT/data/$1.test.csv" "$ROOT/data/$1.classes" ;;
  fashion-mnist)
    [[ -r $FMNIST/train-images-idx3-ubyte.gz ]] || {
      echo "data-section.sh: $FMNIST: no Fashion-MNIST: run scripts/install-deps.sh" >&2; exit 1; }
    printf 'format = idx\nfile = %s\nlabels = %s\ntest_file = %s\ntest_labels = %s\n' \
      "$FMNIST/train-images-idx3-ubyte.gz" "$FMNIST/train-labels-idx1-ubyte.gz" \
      "$FMNIST/t10k-images-idx3-ubyte.gz" "$FMNIST/t10k-labels-idx1-ubyte.gz" ;;
  debsec)
    [[ -r $DATASETS/debsec.train.libsvm ]] || {
      echo "data-section.sh: $DATASETS: no debsec.train.libsvm (set DATASETS)" >&2; exit 1; }
    printf 'file = %s\ntest_file = %s\nstorage = sparse\n' \
      "$DATASETS/debsec.train.libsvm" "$DATASETS/debsec.test.libsvm" ;;
  *) echo "data-section.sh: unknown data set '${1:-}' (letter, pendigits, optdigits, fashion-mnist or debsec)" >&2; exit 1 ;;
esac

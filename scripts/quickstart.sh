#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's first command: install what is missing, build, and run the
# quickstart experiment (MCBoost-exp/-log on iris, wine, glass).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
./boostlab run experiments/quickstart.ini

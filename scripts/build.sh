#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Configure (once) and build boostlab in the source tree.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -x configure || configure.ac -nt configure ]]; then
  autoreconf -fi
fi
if [[ ! -f Makefile ]]; then
  ./configure ${BOOSTLAB_CONFIGURE_FLAGS:-}
fi
make -j"$(nproc)"

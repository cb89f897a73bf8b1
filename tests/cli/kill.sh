# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
finish

# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the task_diag scripts. Source it; do not run it.

TD_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TD_BUILD=${TASK_DIAG_BUILD:-$TD_SRC/build}
TD_CACHE=${TASK_DIAG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/task_diag}

td_die() {
	echo "$(basename "$0"): $*" >&2
	exit 1
}

td_log() {
	echo "[$(basename "$0")] $*" >&2
}

# The Debian 6.1 kernel ABI the VM boots (e.g. 6.1.0-57-amd64). An explicit
# TASK_DIAG_KVER wins; otherwise the value scripts/setup resolved and cached.
td_kver() {
	if [ -n "${TASK_DIAG_KVER:-}" ]; then
		echo "$TASK_DIAG_KVER"
	elif [ -s "$TD_CACHE/kver" ]; then
		cat "$TD_CACHE/kver"
	else
		return 1
	fi
}

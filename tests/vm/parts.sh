# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest commands of test_debug_ci.sh and test_in_tree_ci.sh,
# which run several tests in one boot: `part TITLE CMD [ARG...]` runs one,
# between "===" lines with its time, and counts it in $fails if it fails.
fails=0
part() {
	local s
	s=$(date +%s)
	echo "=== $1"
	shift
	"$@" || { echo "FAIL: $*"; fails=$((fails + 1)); }
	echo "=== $(($(date +%s) - s)) s"
}

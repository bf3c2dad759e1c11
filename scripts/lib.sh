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

# Build the benchmark programs PROGRAM... (benchmarks/CMakeLists.txt) in
# BUILD/bench, and copy them into DIR when DIR is another folder.
td_bench_build() {
	local dir=$1 p
	shift
	cmake --build "$TD_BUILD" --target "$@" >/dev/null ||
		td_die "the benchmark programs ($*) do not build: cmake --build $TD_BUILD --target $*"
	mkdir -p "$dir"
	[ "$(cd "$dir" && pwd -P)" = "$(cd "$TD_BUILD/bench" && pwd -P)" ] && return 0
	for p in "$@"; do
		cp "$TD_BUILD/bench/$p" "$dir/$p" || td_die "cannot copy $p into $dir"
	done
}

# apt-get install (after apt-get update, through sudo unless root) each
# Debian PACKAGE of the host that is not installed yet; a no-op once they are.
td_install_missing() {
	local missing=() p sudo=
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	td_log "installing: ${missing[*]}"
	$sudo apt-get update -q >/dev/null || td_die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >/dev/null || td_die "could not install: ${missing[*]}"
}

# The lines of config FRAGMENT (CONFIG_X=... or "# CONFIG_X is not set")
# that the kernel .config CONFIG does not have: an option a missing
# dependency dropped. Empty when every one survived.
td_config_missing() {
	local frag=$1 config=$2 l o
	grep -E '^(CONFIG_[A-Z0-9_]+=|# CONFIG_[A-Z0-9_]+ is not set)' "$frag" | while read -r l; do
		case "$l" in
		"# "*) o=${l#\# }; o=${o%% *}; ! grep -q "^$o=" "$config" || echo "$l" ;;
		*) grep -qxF -- "$l" "$config" || echo "$l" ;;
		esac
	done
}

# Guest kernels are named by a label, SERIES[-FLAVOUR]: 6.1, 6.12, 6.1-rt,
# 6.12-rt, 6.1-cloud, 6.12-cloud (Debian 12's), 7.3, 7.3-rt, 7.3-cloud, 7.2, 7.2-rt, 7.2-cloud
# (Debian 13's trixie-backports). Each is resolved, as Debian's meta-package
# resolves it, to a kernel ABI (e.g. 6.12.117+deb12-rt-amd64); 7.2, which has
# no meta-package, to the highest 7.2.N build. The 7.x headers need trixie's
# compiler: their modules are built inside a trixie build root in the cache
# (scripts/trixie-root), where their headers are installed.
TD_DEFAULT_KERNEL=6.1
# What scripts/setup fetches and the build and CI test by default: the whole
# suite on 6.1 and 7.3, the correctness tests on 6.12, 6.12-rt, 7.2, 7.3-rt
# and 7.3-cloud (CMakeLists.txt's TASK_DIAG_KERNELS, in the same order).
TD_KERNELS_TESTED="6.1 7.3 6.12 6.12-rt 7.2 7.3-rt 7.3-cloud"
# Every label the scripts accept. "debug" is the kernel scripts/debug-kernel
# builds (6.1 with KASAN, lockdep and the other checkers), "in-tree" the one
# scripts/in-tree-kernel builds (7.3 with task_diag built in): not Debian's.
TD_KERNELS_KNOWN="6.1 6.12 6.1-rt 6.12-rt 6.1-cloud 6.12-cloud 7.3 7.3-rt 7.3-cloud 7.2 7.2-rt 7.2-cloud debug in-tree"

# The Debian meta-package that names LABEL's image (and, with -headers-,
# its headers): Debian 12's for 6.x, trixie-backports' for 7.3 (resolved in
# the trixie root). 7.2 has none (empty): the highest 7.2.N build of the
# flavour is taken.
td_kernel_meta() {
	case "$1" in
	6.1 | 7.3) echo linux-image-amd64 ;;
	6.1-rt | 6.1-cloud) echo "linux-image-${1#6.1-}-amd64" ;;
	7.3-rt | 7.3-cloud) echo "linux-image-${1#7.3-}-amd64" ;;
	6.12) echo linux-image-6.12-amd64 ;;
	6.12-rt | 6.12-cloud) echo "linux-image-6.12-${1#6.12-}-amd64" ;;
	7.2 | 7.2-rt | 7.2-cloud) echo ;;
	*) return 1 ;;
	esac
}

# Is LABEL (or a kernel release) a kernel whose headers live in the trixie
# build root, and whose module is built there (scripts/trixie-root run)?
td_kernel_in_root() {
	case "$1" in
	7.*) return 0 ;;
	*) return 1 ;;
	esac
}

# The trixie build root (scripts/trixie-root makes it).
td_troot() {
	echo "$TD_CACHE/trixie-root"
}

# Is ABI (a kernel release, uname -r) one of LABEL's builds?
td_kernel_matches() {
	local label=$1 abi=$2 series=${1%%-*} flavour=
	case "$label" in *-*) flavour=${label#*-}- ;; esac
	case "$series" in
	debug) [[ $abi =~ ^6\.1\.[0-9]+-td-debug$ ]] ;;
	in) [[ $abi =~ ^7\.3\.[0-9]+-td-in-tree$ ]] ;;
	6.1) [[ $abi =~ ^6\.1\.[0-9]+-[0-9]+-${flavour}amd64$ ]] ;;
	6.12) [[ $abi =~ ^6\.12\.[0-9]+\+deb[0-9]+-${flavour}amd64$ ]] ;;
	7.2 | 7.3) [[ $abi =~ ^${series//./\\.}\.[0-9]+\+deb[0-9]+-${flavour}amd64$ ]] ;;
	*) return 1 ;;
	esac
}

# Is the kernel release one task_diag is built and tested for? The list is
# DKMS's BUILD_EXCLUSIVE_KERNEL (kernel/dkms.conf): one definition for all.
td_kernel_supported() {
	local re
	re=$(sed -n 's/^BUILD_EXCLUSIVE_KERNEL="\(.*\)"$/\1/p' "$TD_SRC/kernel/dkms.conf")
	[ -n "$re" ] && [[ $1 =~ $re ]]
}

# The first line to print when the running kernel is not supported.
td_kernel_unsupported_msg() {
	echo "the running kernel, $1, is not one task_diag supports (Debian's 6.1 and" \
		"6.12 kernels, 6.12 also -rt; trixie-backports' 7.2 and 7.3: README," \
		"\"Supported kernels\"); the guest kernels that scripts/vm-run boots are used instead"
}

# The label of a kernel release scripts/vm-run can boot, or nothing.
td_kernel_label() {
	local l
	for l in $TD_KERNELS_KNOWN; do
		td_kernel_matches "$l" "$1" && { echo "$l"; return 0; }
	done
	return 1
}

# The kernel ABI of LABEL (default 6.1) that scripts/setup resolved and
# cached; an ABI given instead of a label is echoed back. TASK_DIAG_KVER
# overrides the default kernel's.
td_kver() {
	local label=${1:-$TD_DEFAULT_KERNEL}
	case " $TD_KERNELS_KNOWN " in
	*" $label "*) ;;
	*)
		td_kernel_label "$label" >/dev/null || return 1
		echo "$label"
		return 0
		;;
	esac
	if [ "$label" = "$TD_DEFAULT_KERNEL" ] && [ -n "${TASK_DIAG_KVER:-}" ]; then
		echo "$TASK_DIAG_KVER"
	elif [ -s "$TD_CACHE/kver-$label" ]; then
		cat "$TD_CACHE/kver-$label"
	elif [ "$label" = "$TD_DEFAULT_KERNEL" ] && [ -s "$TD_CACHE/kver" ]; then
		cat "$TD_CACHE/kver"
	else
		return 1
	fi
}

# Build the external module in DIR for LABEL (make -C KDIR M=DIR ARG...
# modules), as kernel/CMakeLists.txt does: for a kernel whose headers are
# in the trixie root, make runs there, with DIR and include/ bound at their
# own paths. For the benchmarks' patched copies of the module.
td_kmake() {
	local label=$1 dir=$2 kdir
	shift 2
	kdir=$(td_kdir "$label") || return 1
	case "$label" in
	debug | in-tree) ;;
	*)
		if td_kernel_in_root "$(td_kver "$label")"; then
			"$TD_SRC/scripts/trixie-root" run --bind "$dir" --ro "$TD_SRC/include" -- \
				make -C "${kdir#"$(td_troot)"}" M="$dir" TD_INCLUDE="$TD_SRC/include" \
				"$@" modules
			return
		fi
		;;
	esac
	make -C "$kdir" M="$dir" TD_INCLUDE="$TD_SRC/include" "$@" modules
}

# td_patched_module LABEL DIR FILE: this tree's kernel/ copied to DIR (made
# afresh), patched by the edits read from stdin, a Python list of (anchor,
# replacement) pairs, for FILE, or (file, anchor, replacement) triples, for
# the file they name; edits apply in order and each anchor must occur
# exactly once when its turn comes. Then built for LABEL with td_kmake (the
# log in DIR/build.log). For the benchmarks' floors, never a module to
# ship. Returns 2 if an anchor is not found once (the code it patches has
# changed: the message says which), 1 if the build fails.
td_patched_module() {
	local label=$1 dir=$2 file=$3
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$TD_SRC"/kernel/*.c "$TD_SRC"/kernel/*.h "$TD_SRC"/kernel/Kbuild "$TD_SRC"/kernel/probe "$dir"/
	python3 -c '
import ast, os, sys
srcs = {}
for edit in ast.literal_eval(sys.stdin.read()):
    name, old, new = edit if len(edit) == 3 else (sys.argv[2],) + tuple(edit)
    path = os.path.join(sys.argv[1], name)
    src = srcs.get(path)
    if src is None:
        src = open(path).read()
    if src.count(old) != 1:
        sys.exit("%s: anchor not found once: %r" % (path, old[:70]))
    srcs[path] = src.replace(old, new)
for path, src in srcs.items():
    open(path, "w").write(src)' "$dir" "$file" || return 2
	td_kmake "$label" "$dir" -s >"$dir/build.log" 2>&1 || return 1
}

# The kernel build tree that external modules for LABEL are built against:
# Debian's headers package (for 7.x: inside the trixie root, where it is built
# with scripts/trixie-root run, at /usr/src/... as the root sees it), or the
# debug kernel's own build folder.
td_kdir() {
	local label=$1 kver
	if [ "$label" = debug ] || [ "$label" = in-tree ]; then
		[ -s "$TD_CACHE/kdir-$label" ] || return 1
		cat "$TD_CACHE/kdir-$label"
		return 0
	fi
	kver=$(td_kver "$label") || return 1
	if td_kernel_in_root "$kver"; then
		echo "$(td_troot)/usr/src/linux-headers-$kver"
	else
		echo "/usr/src/linux-headers-$kver"
	fi
}

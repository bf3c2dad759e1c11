#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the Debian packages (scripts/package: dpkg-buildpackage, then lintian,
# which must report no error) and check what they hold: the version of
# project() in CMakeLists.txt everywhere, the files of each package, the
# dependencies dpkg-shlibdeps derived from what the binaries link, the
# library's shlibs, the DKMS maintainer scripts.
#
#   test_package.sh PACKAGES_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../scripts/lib.sh"

out=$1
version=$("$TD_SRC/packaging/version")
arch=$(dpkg --print-architecture)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
errors=0

fail() {
	echo "FAIL: $*" >&2
	errors=$((errors + 1))
}

t0=$SECONDS
"$TD_SRC/scripts/package" --out "$out" || { echo "FAIL: scripts/package" >&2; exit 1; }
echo "scripts/package: $((SECONDS - t0)) s"
! grep -q '^E: ' "$out/lintian.txt" || fail "lintian reports errors"

deb() { # PACKAGE ARCH
	local f="$out/${1}_${version}_$2.deb"
	[ -f "$f" ] || { fail "no $(basename "$f")"; return 1; }
	echo "$f"
}
has() { # DEB PATH...
	local d=$1 p list
	shift
	list=$(dpkg-deb -c "$d" | awk '{ print $6 }' | sed 's|^\./|/|; s|/$||')
	for p in "$@"; do
		grep -qx -- "$p" <<<"$list" || fail "$(basename "$d") lacks $p"
	done
}
depends() { # DEB REGEX...
	local d=$1 r deps
	shift
	deps=$(dpkg-deb -f "$d" Depends | tr ',' '\n' | sed 's/^ *//')
	for r in "$@"; do
		grep -qE -- "^($r)( |$)" <<<"$deps" || fail "$(basename "$d") does not depend on $r (Depends: $(echo $deps))"
	done
}
# The package every NEEDED library of the package's ELF files must depend on.
check_shlibdeps() { # DEB
	local d=$1 x tmp so
	tmp=$(mktemp -d)
	dpkg-deb -x "$d" "$tmp"
	while read -r x; do
		for so in $(objdump -p "$x" | awk '$1 == "NEEDED" { print $2 }'); do
			case $so in
			libnl-3.so.200) depends "$d" libnl-3-200 ;;
			libnl-genl-3.so.200) depends "$d" libnl-genl-3-200 ;;
			libtaskdiag.so.0) depends "$d" libtaskdiag0 ;;
			libc.so.6) depends "$d" libc6 ;;
			esac
		done
	done < <(find "$tmp" -type f -exec sh -c 'head -c4 "$1" | grep -q ELF' sh {} \; -print)
	rm -rf "$tmp"
}

for d in "$out"/*.deb; do
	v=$(dpkg-deb -f "$d" Version)
	[ "$v" = "$version" ] || fail "$(basename "$d"): version $v, not $version (project() in CMakeLists.txt)"
done

# task-diag-dkms: the source tree DKMS builds from, and its scripts.
if d=$(deb task-diag-dkms all); then
	src=/usr/src/task-diag-$version
	has "$d" "$src/dkms.conf" "$src/Kbuild" "$src/probe" "$src/main.c" "$src/task_diag.h" \
		"$src/include/uapi/linux/task_diag.h" /usr/lib/modules-load.d/task_diag.conf \
		/usr/share/doc/task-diag-dkms/copyright
	depends "$d" dkms
	tmp=$(mktemp -d)
	dpkg-deb -x "$d" "$tmp"
	dpkg-deb -e "$d" "$tmp/DEBIAN"
	grep -qx "PACKAGE_VERSION=\"$version\"" "$tmp$src/dkms.conf" ||
		fail "dkms.conf does not carry version $version"
	grep -qx 'PACKAGE_NAME="task-diag"' "$tmp$src/dkms.conf" || fail "dkms.conf: PACKAGE_NAME"
	for f in "$here"/../../kernel/*.c "$here"/../../kernel/*.h; do
		cmp -s "$f" "$tmp$src/$(basename "$f")" || fail "$src/$(basename "$f") differs from kernel/"
	done
	grep -qx 'DKMS_NAME=task-diag' "$tmp/DEBIAN/postinst" &&
		grep -qx "DKMS_VERSION=$version" "$tmp/DEBIAN/postinst" &&
		grep -q '/usr/lib/dkms/common.postinst' "$tmp/DEBIAN/postinst" || fail "no DKMS postinst"
	grep -q 'dkms remove' "$tmp/DEBIAN/prerm" || fail "no DKMS prerm"
	grep -qx 'task_diag' "$tmp/usr/lib/modules-load.d/task_diag.conf" ||
		fail "modules-load.d entry does not name task_diag"
	rm -rf "$tmp"
fi

# libtaskdiag0: the shared library, its SONAME, its shlibs.
if d=$(deb libtaskdiag0 "$arch"); then
	has "$d" "/usr/lib/$ma/libtaskdiag.so.0" "/usr/lib/$ma/libtaskdiag.so.$version"
	depends "$d" libnl-3-200 libnl-genl-3-200 libc6
	check_shlibdeps "$d"
	tmp=$(mktemp -d)
	dpkg-deb -x "$d" "$tmp"
	dpkg-deb -e "$d" "$tmp/DEBIAN"
	dyn=$(objdump -p "$tmp/usr/lib/$ma/libtaskdiag.so.$version")
	grep -qE 'SONAME +libtaskdiag\.so\.0$' <<<"$dyn" || fail "SONAME is not libtaskdiag.so.0"
	grep -qx "libtaskdiag 0 libtaskdiag0 (>= $version)" "$tmp/DEBIAN/shlibs" ||
		fail "shlibs: $(cat "$tmp/DEBIAN/shlibs" 2>/dev/null)"
	[ -f "$tmp/DEBIAN/triggers" ] || fail "no ldconfig trigger"
	rm -rf "$tmp"
fi

# libtaskdiag-dev: what a program needs to build against the library.
if d=$(deb libtaskdiag-dev "$arch"); then
	has "$d" /usr/include/taskdiag/taskdiag.h /usr/include/taskdiag/linux/task_diag.h \
		"/usr/lib/$ma/libtaskdiag.so" "/usr/lib/$ma/pkgconfig/taskdiag.pc" \
		"/usr/lib/$ma/cmake/taskdiag/taskdiagConfig.cmake" \
		"/usr/lib/$ma/cmake/taskdiag/taskdiagConfigVersion.cmake"
	depends "$d" "libtaskdiag0 \\(= $version\\)" libnl-3-dev libnl-genl-3-dev
fi

# task-diag-tools: the programs and their man pages.
if d=$(deb task-diag-tools "$arch"); then
	for t in task_diag_all tdps tdtop; do
		has "$d" "/usr/bin/$t"
		has "$d" "/usr/share/man/man1/$t.1.gz"
	done
	check_shlibdeps "$d"
	echo "task-diag-tools Depends: $(dpkg-deb -f "$d" Depends)"
fi

[ $errors -eq 0 ] || { echo "FAIL: $errors problems" >&2; exit 1; }
echo "PASS: packages $version built, lintian without errors, contents and dependencies" \
	"as designed ($((SECONDS - t0)) s)"

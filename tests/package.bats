#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# package.bats: the ways ltruss is installed work where they are unpacked:
# the relocatable bundle (make bundle) and the Debian package (make deb).

load helpers

VERSION=$(sed -n 's/^PACKAGE_VERSION = //p' "$LTRUSS_TOP_BUILDDIR/Makefile")
DEB="$LTRUSS_TOP_BUILDDIR/ltruss_${VERSION}_amd64.deb"
# read before helpers' setup unsets every LTRUSS_* variable
INSTALL_DEB=${LTRUSS_TEST_INSTALL_DEB:-}

# glibc_needed FILE...: the newest GLIBC_ symbol version the files need.
glibc_needed() {
	local f
	for f in "$@"; do
		readelf -V -W "$f" | sed -n '/\.gnu\.version_r/,$p' | grep -o 'GLIBC_2\.[0-9.]*'
	done | sed 's/^GLIBC_//' | sort -V | tail -n 1
}

# traces_with LTRUSS: an unpacked ltruss traces typed calls and counts with
# -c, with its tree's own prototypes, default config and filters.
traces_with() {
	local ltruss=$1

	run_split timeout 60 "$ltruss" -u 'libc:strrchr' /bin/echo hi </dev/null
	[ "$status" -eq 0 ]
	[ "$out" = hi ]
	assert_equal "$err" "$(printf '%s\n' 'libc:strrchr("/bin/echo", 47) = "/echo"' '+++ exited (status 0) +++')"
	run_split timeout 60 "$ltruss" -c ls / </dev/null
	[ "$status" -eq 0 ]
	[ "$out" = "$(ls /)" ]
	grep -Eq ' libc:readdir$' <<<"$err"
	run_split timeout 60 "$ltruss" /bin/echo hi </dev/null
	[ "$status" -eq 0 ]
	grep -q '^libc:setlocale(' <<<"$err"
	run_split timeout 60 "$ltruss" -F malloc ls / </dev/null
	[ "$status" -eq 0 ]
	grep -q '^libc:malloc(' <<<"$err"
}

# The glibc a bundle promises: 2.34, but a sanitizer build (maint/check-asan)
# carries libasan, which needs this system's.
if grep -q '^BIN_CFLAGS = .*-fsanitize' "$LTRUSS_TOP_BUILDDIR/Makefile"; then
	GLIBC=$(ldd --version | sed -n '1s/.* //p')
else
	GLIBC=2.34
fi

@test "make bundle: unpacked elsewhere, ltruss runs on its own libraries, the traced program on its own" {
	run make -s -C "$LTRUSS_TOP_BUILDDIR" bundle BUNDLE_DIR="$BATS_TEST_TMPDIR" BUNDLE_GLIBC="$GLIBC"
	assert_success
	tarball=${lines[-1]}
	[ "$tarball" = "$BATS_TEST_TMPDIR/ltruss-$VERSION-x86_64-linux.tar.gz" ]
	mkdir elsewhere
	tar -C elsewhere -xzf "$tarball"
	B="$BATS_TEST_TMPDIR/elsewhere/ltruss-$VERSION"
	run_split "$B/bin/ltruss" -V
	[ "$status" -eq 0 ]
	assert_equal "$(sed -n 2p <<<"$out")" "interposer: $B/lib/ltruss/libltruss.so (bundle)"
	grep -qx "default config: $B/etc/ltruss/ltruss.yaml" <<<"$out"
	grep -qx "bundled libraries: $B/lib/ltruss/bundled" <<<"$out"
	# ltruss's own libraries come from the bundle, glibc from the system
	[ -f "$B/lib/ltruss/bundled/libdw.so.1" ]
	[ -f "$B/lib/ltruss/bundled/libyaml-0.so.2" ]
	[ ! -e "$B/lib/ltruss/bundled/libc.so.6" ]
	run ldd "$B/bin/ltruss"
	assert_success
	refute_line --regexp '=> /(usr/)?lib/.*(libdw|libelf|libyaml|libreadline|libtinfo)'
	# libdw, libelf, libyaml and readline, opened at their first use (-k,
	# a filter, the console), come from the bundle too, with what they need
	[ -f "$B/lib/ltruss/bundled/libreadline.so.8" ]
	[ -f "$B/lib/ltruss/bundled/libtinfo.so.6" ]
	LD_DEBUG=libs "$B/bin/ltruss" -k -o /dev/null -F malloc -u 'libc:*' /bin/true 2>ld.txt
	for lib in libdw.so.1 libelf.so.1 libyaml-0.so.2; do
		grep -q "calling init: $B/bin/../lib/ltruss/bundled/$lib\$" ld.txt ||
			{ grep "calling init" ld.txt; false; }
	done
	refute grep -q 'calling init: /(usr/)?lib/.*libdw' ld.txt
	# the oldest glibc it runs on
	need=$(glibc_needed "$B/bin/ltruss" "$B/lib/ltruss/libltruss.so" "$B"/lib/ltruss/bundled/*)
	[ "$(printf '%s\n' "$need" "$GLIBC" | sort -V | tail -n 1)" = "$GLIBC" ]
	traces_with "$B/bin/ltruss"
	# a traced bash loads the system's libtinfo, never the bundle's, and
	# sees the environment an untraced one sees
	script='grep -o "/[^ ]*libtinfo[^ ]*" /proc/$$/maps | sort -u; env | grep -v "^_=" | sort'
	plain=$(bash -c "$script")
	run_split timeout 60 "$B/bin/ltruss" -u 'libc:setlocale' bash -c "$script" </dev/null
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	grep -q '^/.*/libtinfo\.so\.6' <<<"$out"
	not grep -q "$B/lib/ltruss/bundled" <<<"$out"
	grep -q '^libc:setlocale(' <<<"$err"
}

@test "make bundle refuses to need a newer glibc than it promises: one error line" {
	run make -s -C "$LTRUSS_TOP_BUILDDIR" bundle BUNDLE_DIR="$BATS_TEST_TMPDIR" BUNDLE_GLIBC=2.2
	[ "$status" -eq 2 ]
	assert_line --regexp "^ltruss: error: the bundle needs glibc 2\.[0-9]+, newer than the 2\.2 it promises; build it on a system with glibc 2\.2\$"
	[ "$(grep -c '^ltruss:' <<<"$output")" -eq 1 ]
	[ ! -e "$BATS_TEST_TMPDIR/ltruss-$VERSION-x86_64-linux.tar.gz" ]
}

@test "the Debian package: extracted into a scratch root, its ltruss runs with the package's files" {
	[ -f "$DEB" ] || skip "no $DEB: run make deb"
	run dpkg-deb -f "$DEB" Package Version Architecture
	assert_success
	assert_output "$(printf 'Package: ltruss\nVersion: %s\nArchitecture: amd64' "$VERSION")"
	grep -q 'libdw1' <<<"$(dpkg-deb -f "$DEB" Depends)"
	grep -q 'libyaml-0-2' <<<"$(dpkg-deb -f "$DEB" Depends)"
	dpkg-deb -x "$DEB" root
	R="$BATS_TEST_TMPDIR/root"
	for f in usr/bin/ltruss usr/lib/x86_64-linux-gnu/ltruss/libltruss.so etc/ltruss/ltruss.yaml \
		usr/share/ltruss/prototypes.tbl usr/share/ltruss/filters/malloc.yaml \
		usr/share/man/man1/ltruss.1.gz usr/share/man/man5/ltruss.yaml.5.gz \
		usr/share/man/man5/ltruss-trace.5.gz usr/share/doc/ltruss/copyright; do
		[ -f "$R/$f" ] || { echo "missing $f"; false; }
	done
	# a conffile, as dpkg keeps an edited one across upgrades
	dpkg-deb -e "$DEB" control
	grep -qx /etc/ltruss/ltruss.yaml control/conffiles
	run_split "$R/usr/bin/ltruss" --version
	[ "$status" -eq 0 ]
	assert_equal "$(sed -n 1p <<<"$out")" "ltruss $VERSION"
	assert_equal "$(sed -n 2p <<<"$out")" "interposer: $R/usr/lib/x86_64-linux-gnu/ltruss/libltruss.so (installed)"
	grep -qx "prototypes: $R/usr/share/ltruss/prototypes" <<<"$out"
	grep -qx "compiled prototypes: $R/usr/share/ltruss/prototypes.tbl" <<<"$out"
	grep -qx "default config: $R/etc/ltruss/ltruss.yaml" <<<"$out"
	traces_with "$R/usr/bin/ltruss"
	# the interposer lives in the traced program: Debian's hardening flags
	# must not have given it stack-protector or fortified calls
	run nm -D --undefined-only "$R/usr/lib/x86_64-linux-gnu/ltruss/libltruss.so"
	assert_success
	refute_output --regexp '__stack_chk_fail|__[a-z_]+_chk'
	zcat "$R/usr/share/man/man1/ltruss.1.gz" | groff -ww -man -Tutf8 >/dev/null
}

# the opt-in test's package is removed however the test ends
teardown() {
	if [ -e "$BATS_TEST_TMPDIR/installed" ]; then
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq ltruss >/dev/null
	fi
}

@test "the Debian package: apt-get install, then purge (opt-in: LTRUSS_TEST_INSTALL_DEB=1)" {
	[ -n "$INSTALL_DEB" ] || skip "installs on this machine: set LTRUSS_TEST_INSTALL_DEB=1"
	[ -f "$DEB" ] || skip "no $DEB: run make deb"
	not dpkg-query -W ltruss 2>/dev/null || skip "ltruss is installed already: not replacing it"
	touch "$BATS_TEST_TMPDIR/installed"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$DEB" >/dev/null
	run_split /usr/bin/ltruss --version
	[ "$status" -eq 0 ]
	assert_equal "$(sed -n 2p <<<"$out")" "interposer: /usr/lib/x86_64-linux-gnu/ltruss/libltruss.so (installed)"
	grep -qx "default config: /etc/ltruss/ltruss.yaml" <<<"$out"
	traces_with /usr/bin/ltruss
	man -w ltruss | grep -qx /usr/share/man/man1/ltruss.1.gz
	rm "$BATS_TEST_TMPDIR/installed"
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq ltruss >/dev/null
	[ ! -e /usr/bin/ltruss ]
	[ ! -e /etc/ltruss/ltruss.yaml ]
}

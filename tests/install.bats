#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# install.bats: an installed ltruss finds its installed interposer, default
# config and filters, no environment needed.

load helpers

@test "make install: ltruss runs from the prefix with the interposer from pkglibdir" {
	# a copy of the sources: the tracked files and the generated build system
	mkdir build
	(cd "$SRCDIR" && { git ls-files --cached --others --exclude-standard 2>/dev/null || find . -type f; } |
		tar -cf - -T - configure Makefile.in aclocal.m4 config.h.in build-aux) |
		tar -C build -xf -
	cd build
	# without git the copy holds the build too (objects made for another
	# prefix, or with --enable-asan): start from the sources
	if [ -f Makefile ]; then make -s distclean >/dev/null 2>&1; fi
	./configure -q --prefix="$BATS_TEST_TMPDIR/prefix" >/dev/null
	make -s -j2 install >/dev/null 2>&1
	[ -x "$BATS_TEST_TMPDIR/prefix/bin/ltruss" ]
	[ -f "$BATS_TEST_TMPDIR/prefix/lib/ltruss/libltruss.so" ]
	cd "$BATS_TEST_TMPDIR"
	# the build tree's interposer must not be the one used
	rm -rf build
	run_split timeout 60 "$BATS_TEST_TMPDIR/prefix/bin/ltruss" -u 'libc:strrchr' /bin/echo hi
	[ "$status" -eq 0 ]
	[ "$out" = "hi" ]
	grep -q '^libc:strrchr(' <<<"$err"
	# the installed default config, shipped filters and man pages
	[ -f "$BATS_TEST_TMPDIR/prefix/etc/ltruss/ltruss.yaml" ]
	[ -f "$BATS_TEST_TMPDIR/prefix/share/ltruss/filters/malloc.yaml" ]
	[ -f "$BATS_TEST_TMPDIR/prefix/share/man/man5/ltruss.yaml.5" ]
	run_split timeout 60 "$BATS_TEST_TMPDIR/prefix/bin/ltruss" /bin/echo hi
	[ "$status" -eq 0 ]
	grep -q '^libc:setlocale(' <<<"$err"
	run_split timeout 60 "$BATS_TEST_TMPDIR/prefix/bin/ltruss" -F malloc ls /
	[ "$status" -eq 0 ]
	grep -q '^libc:malloc(' <<<"$err"
}

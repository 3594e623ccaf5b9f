#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# install.bats: an installed ltruss finds its installed interposer, default
# config, prototypes and filters beside itself, also once the installed tree
# is moved elsewhere, no environment needed.

load helpers

@test "make install DESTDIR=, moved elsewhere: ltruss traces with its own interposer and typed arguments" {
	# a copy of the sources: the tracked files and the generated build system
	mkdir build
	# (git's list only at the top of a checkout: make distcheck unpacks
	# the tarball inside one, where git would list nothing)
	(cd "$SRCDIR" && { { [ -e .git ] && git ls-files --cached --others --exclude-standard 2>/dev/null; } || find . -type f; } |
		tar -cf - -T - configure Makefile.in aclocal.m4 config.h.in build-aux) |
		tar -C build -xf -
	cd build
	# without git the copy holds the build too (objects made for another
	# prefix, or with --enable-asan): start from the sources
	if [ -f Makefile ]; then make -s distclean >/dev/null 2>&1; fi
	# the configured prefix never exists: only the tree beside ltruss can serve
	./configure -q --prefix=/nonexistent/ltruss-prefix >/dev/null
	make -s -j2 install DESTDIR="$BATS_TEST_TMPDIR/dest" >/dev/null 2>&1
	mv "$BATS_TEST_TMPDIR/dest/nonexistent/ltruss-prefix" "$BATS_TEST_TMPDIR/moved"
	P="$BATS_TEST_TMPDIR/moved"
	[ -x "$P/bin/ltruss" ]
	[ -f "$P/lib/ltruss/libltruss.so" ]
	cd "$BATS_TEST_TMPDIR"
	# the build tree's interposer must not be the one used
	rm -rf build dest
	run_split timeout 60 "$P/bin/ltruss" --version
	[ "$status" -eq 0 ]
	grep -qx "interposer: $P/lib/ltruss/libltruss.so (installed)" <<<"$out"
	grep -qx "prototypes: $P/share/ltruss/prototypes" <<<"$out"
	grep -qx "default config: $P/etc/ltruss/ltruss.yaml" <<<"$out"
	# the compiled prototypes are installed, and match their installed sources
	grep -qx "compiled prototypes: $P/share/ltruss/prototypes.tbl" <<<"$out"
	[ -f "$P/share/ltruss/prototypes.tbl" ]
	# typed: the installed prototypes were found
	run_split timeout 60 "$P/bin/ltruss" -u 'libc:strrchr' /bin/echo hi
	[ "$status" -eq 0 ]
	[ "$out" = "hi" ]
	assert_equal "$(grep '^libc:strrchr(' <<<"$err")" 'libc:strrchr("/bin/echo", 47) = "/echo"'
	assert_equal "$(grep -c '^ltruss:' <<<"$err")" 0
	# the installed default config, shipped filters and man pages
	[ -f "$P/share/ltruss/filters/malloc.yaml" ]
	[ -f "$P/share/man/man5/ltruss.yaml.5" ]
	run_split timeout 60 "$P/bin/ltruss" /bin/echo hi
	[ "$status" -eq 0 ]
	grep -q '^libc:setlocale(' <<<"$err"
	run_split timeout 60 "$P/bin/ltruss" -F malloc ls /
	[ "$status" -eq 0 ]
	grep -q '^libc:malloc(' <<<"$err"
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# source.bats: the source tree keeps the house rules that HACKING.md
# states and a review checks by hand otherwise.

load helpers

@test "bin/'s files call each other in no circle (maint/file-cycles)" {
	run "$SRCDIR/maint/file-cycles" "$LTRUSS_TOP_BUILDDIR"
	assert_success
	assert_output ""
}

@test "bin/'s folders call each other in no circle (maint/file-cycles --folders)" {
	run "$SRCDIR/maint/file-cycles" --folders "$LTRUSS_TOP_BUILDDIR"
	assert_success
	assert_output ""
}

@test "maint/file-cycles finds a circle: two files that call each other" {
	mkdir -p fake/bin
	printf 'int b(void);\nint a(void) { return b(); }\n' >a.c
	printf 'int a(void);\nint b(void) { return a() + 1; }\n' >b.c
	printf 'int a(void);\nint c(void) { return a(); }\n' >c.c
	for f in a b c; do
		cc -c "$f.c" -o "fake/bin/ltruss-$f.o"
	done
	run "$SRCDIR/maint/file-cycles" fake
	assert_failure 1
	assert_output "$(printf 'circle: a b\n  a -> b: b\n  b -> a: a')"
	# The same in two folders, and c in a third: a circle of folders.
	mkdir -p fake/bin/x fake/bin/y fake/bin/z
	mv fake/bin/ltruss-a.o fake/bin/x/
	mv fake/bin/ltruss-b.o fake/bin/y/
	mv fake/bin/ltruss-c.o fake/bin/z/
	run "$SRCDIR/maint/file-cycles" --folders fake
	assert_failure 1
	assert_output "$(printf 'circle: x y\n  x -> y: b\n  y -> x: a')"
}

@test "no C file is over 800 lines, and every header's include guard is its own" {
	cd "$SRCDIR"
	long=$(wc -l $(find bin lib common -name '*.c') | awk '$2 != "total" && $1 > 800')
	[ -z "$long" ] || { echo "$long"; false; }
	guards=$(for f in $(find bin lib common -name '*.h'); do
		awk -v f="$f" '/^#ifndef / && !g { g = $2 } END { print g, f }' "$f"
	done | awk '$1 != "" { n[$1]++; w[$1] = w[$1] " " $2 } END { for (k in n) if (n[k] > 1) print k, w[k] }')
	[ -z "$guards" ] || { echo "$guards"; false; }
}

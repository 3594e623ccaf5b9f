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
}

@test "no C file is over 800 lines, and every header's include guard is its own" {
	cd "$SRCDIR"
	long=$(wc -l bin/*.c lib/*.c common/*.c | awk '$2 != "total" && $1 > 800')
	[ -z "$long" ] || { echo "$long"; false; }
	guards=$(for f in bin/*.h lib/*.h common/*.h; do
		awk -v f="$f" '/^#ifndef / && !g { g = $2 } END { print g, f }' "$f"
	done | awk '$1 != "" { n[$1]++; w[$1] = w[$1] " " $2 } END { for (k in n) if (n[k] > 1) print k, w[k] }')
	[ -z "$guards" ] || { echo "$guards"; false; }
}

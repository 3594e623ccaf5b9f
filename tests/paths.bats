#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# paths.bats: ltruss finds its interposer and data beside its executable,
# and never lets a program run untraced without saying so.

load helpers

# tree: a copy of the build tree's ltruss, interposer and compiled
# prototypes in $TREE, and of the source tree's data in $TSRC, where the
# build tree's ltruss looks for it: $TREE itself, or beside it for a build
# made out of tree (make distcheck: ../..).  Under BASE if given.
copy_tree() {
	local top i

	top=$(sed -n 's/^top_srcdir = //p' "$LTRUSS_TOP_BUILDDIR/Makefile")
	TREE="${1:-$BATS_TEST_TMPDIR}/moved"
	for i in $(tr / '\n' <<<"$top" | grep -x '\.\.'); do TREE="$TREE/b"; done
	TSRC=$(realpath -m "$TREE/$top")
	mkdir -p "$TREE/bin" "$TREE/lib" "$TREE/conf" "$TSRC"
	cp "$LTRUSS" "$TREE/bin/"
	cp "$LTRUSS_TOP_BUILDDIR/lib/libltruss.so" "$TREE/lib/"
	cp -r "$SRCDIR/conf" "$SRCDIR/filters" "$TSRC/"
	cp "$LTRUSS_TOP_BUILDDIR/conf/prototypes.tbl" "$TREE/conf/"
}

# run_tree ARGS...: run the copy's ltruss, split output.
run_tree() {
	run_split timeout -k 5 60 "$TREE/bin/ltruss" "$@" </dev/null
}

@test "a copy of the build tree elsewhere traces with its own interposer and data" {
	copy_tree
	run_tree -u 'libc:strrchr' /bin/echo hi
	[ "$status" -eq 0 ]
	[ "$out" = "hi" ]
	# typed: the copy's prototypes were found
	assert_equal "$(grep '^libc:strrchr(' <<<"$err")" 'libc:strrchr("/bin/echo", 47) = "/echo"'
	run_tree --version
	[ "$status" -eq 0 ]
	grep -qx "interposer: $TREE/lib/libltruss.so (build tree)" <<<"$out"
	grep -qx "prototypes: $TSRC/conf/prototypes" <<<"$out"
	grep -qx "default config: $TSRC/conf/ltruss.yaml" <<<"$out"
	# the copy's default config and filters
	run_tree /bin/echo hi
	[ "$status" -eq 0 ]
	grep -q '^libc:setlocale(' <<<"$err"
	run_tree -F malloc ls /
	[ "$status" -eq 0 ]
	grep -q '^libc:malloc(' <<<"$err"
}

@test "--version names the build tree's interposer and data" {
	run_split ltruss --version
	[ "$status" -eq 0 ]
	grep -qx "interposer: $(realpath "$LTRUSS_TOP_BUILDDIR/lib/libltruss.so") (build tree)" <<<"$out"
	grep -qx "filters: $(realpath "$SRCDIR/filters")" <<<"$out"
}

@test "no interposer: one error line, exit 2, the command never runs" {
	copy_tree
	rm "$TREE/lib/libltruss.so"
	run_tree -o trace.out -u 'libc:strrchr' sh -c 'touch ran'
	[ "$status" -eq 2 ]
	[ ! -e ran ]
	[ ! -e trace.out ]
	# last, the configured prefix (/usr/local by default)
	prefix=$(sed -n 's/^prefix = //p' "$LTRUSS_TOP_BUILDDIR/Makefile")
	assert_equal "$err" "ltruss: error: cannot find the interposer libltruss.so (looked for $TREE/lib/libltruss.so, $TREE/bin/../lib/ltruss/libltruss.so, $prefix/lib/ltruss/libltruss.so); run 'make install', or run ltruss from its build tree"
}

@test "an interposer that is not an x86_64 shared object: error, exit 2, nothing run" {
	copy_tree
	echo 'not a library' >"$TREE/lib/libltruss.so"
	run_tree sh -c 'touch ran'
	[ "$status" -eq 2 ]
	[ ! -e ran ]
	assert_equal "$err" "ltruss: error: cannot use the interposer '$TREE/lib/libltruss.so': not an ELF file; run 'make install', or run ltruss from its build tree"
	# an ELF file that is not a shared object: an object file
	printf 'int f(void) { return 0; }\n' >f.c
	cc -c -o "$TREE/lib/libltruss.so" f.c
	run_tree sh -c 'touch ran'
	[ "$status" -eq 2 ]
	[ ! -e ran ]
	assert_equal "$err" "ltruss: error: cannot use the interposer '$TREE/lib/libltruss.so': not a shared object; run 'make install', or run ltruss from its build tree"
}

@test "an unreadable interposer: error, exit 2, nothing run" {
	# root reads any file: run the copy as nobody, from a directory nobody reaches
	SHARED=$(mktemp -d /tmp/ltruss-paths-test.XXXXXX)
	chmod 0755 "$SHARED"
	copy_tree "$SHARED"
	chmod 000 "$TREE/lib/libltruss.so"
	as=()
	[ "$(id -u)" -ne 0 ] || as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	run_split "${as[@]}" timeout 60 "$TREE/bin/ltruss" -u 'libc:strrchr' /bin/true </dev/null
	rm -rf "$SHARED"
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: cannot read the interposer '$TREE/lib/libltruss.so'; run 'make install', or run ltruss from its build tree, or check its permissions: Permission denied"
}

@test "an interposer the loader refuses: the program runs, ltruss says why and exits 2" {
	copy_tree
	# an x86_64 shared object, but no audit interface
	cp "$PROGS/libfix.so" "$TREE/lib/libltruss.so"
	run_tree -u 'libc:strrchr' sh -c 'echo hi; exit 3'
	[ "$status" -eq 2 ]
	[ "$out" = "hi" ]
	grep -qx '+++ exited (status 3) +++' <<<"$err"
	assert_equal "$(grep '^ltruss:' <<<"$err")" "ltruss: error: nothing was traced: the loader refused the interposer '$TREE/lib/libltruss.so' for '/usr/bin/sh' (undefined symbol: la_version); run 'make install', or run ltruss from its build tree"
	# a file cut short after its ELF header, with -c
	head -c 64 "$LTRUSS_TOP_BUILDDIR/lib/libltruss.so" >"$TREE/lib/libltruss.so"
	run_tree -c /bin/true
	[ "$status" -eq 2 ]
	assert_equal "$(grep -c '^ltruss:' <<<"$err")" 1
	grep -qx "ltruss: error: nothing was traced: the loader refused the interposer '$TREE/lib/libltruss.so' for '/bin/true' (cannot read file data); run 'make install', or run ltruss from its build tree" <<<"$err"
}

@test "missing shipped prototypes, types or annotations: an error naming the file" {
	copy_tree
	rm "$TSRC/conf/types.yaml"
	run_tree -u 'libc:strrchr' sh -c 'touch ran'
	[ "$status" -eq 2 ]
	[ ! -e ran ]
	assert_equal "$err" "ltruss: error: cannot read the shipped prototypes '$TSRC/conf/types.yaml': No such file or directory; reinstall ltruss"
	copy_tree
	rm "$TSRC/conf/annotations.yaml"
	run_tree -u 'libc:strrchr' /bin/true
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: cannot read the shipped prototypes '$TSRC/conf/annotations.yaml': No such file or directory; reinstall ltruss"
	copy_tree
	rm -r "$TSRC/conf/prototypes"
	run_tree -u 'libc:strrchr' /bin/true
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: cannot read the shipped prototypes '$TSRC/conf/prototypes': No such file or directory; reinstall ltruss, or run it from its build tree"
}

@test "a missing default config: an error naming the file" {
	copy_tree
	rm "$TSRC/conf/ltruss.yaml"
	run_tree sh -c 'touch ran'
	[ "$status" -eq 2 ]
	[ ! -e ran ]
	assert_equal "$err" "ltruss: error: cannot read the default config '$TSRC/conf/ltruss.yaml': No such file or directory; reinstall ltruss, or say what to trace with -u or -F"
}

# The functions of the trace lines in FILE, in order.
traced_names() {
	sed -n 's/^\([^ (]*\)(.*/\1/p' "$1"
}

@test "the compiled default config traces what the parsed one traces, and an edited one is parsed: its rules apply, its errors name file:line:column" {
	copy_tree
	# Unchanged: the table compiled in (no libyaml), the same lines as the build tree's.
	run_tree -c sh -c 'grep -q libyaml /proc/$PPID/maps && echo loaded || echo none'
	assert_equal "$out" none
	run_tree -o same.txt /bin/echo hi
	[ "$status" -eq 0 ]
	grep -q '^libc:setlocale(' same.txt
	# One more comment: the text differs, so it is parsed (libyaml is
	# loaded for it) and selects what the table selects.
	echo '# edited' >>"$TSRC/conf/ltruss.yaml"
	run_tree -c sh -c 'grep -q libyaml /proc/$PPID/maps && echo loaded || echo none'
	assert_equal "$out" loaded
	run_tree -o parsed.txt /bin/echo hi
	[ "$status" -eq 0 ]
	assert_equal "$(traced_names parsed.txt)" "$(traced_names same.txt)"
	# An edit that changes the selection takes effect.
	sed -i 's/"!__stack_chk_fail"/"!setlocale"/' "$TSRC/conf/ltruss.yaml"
	run_tree -o edited.txt /bin/echo hi
	[ "$status" -eq 0 ]
	not grep -q '^libc:setlocale(' edited.txt
	grep -q '^libc:getenv(' edited.txt
	# And a mistake in it is the parser's error, where it is.
	printf 'trace:\n  - lib: libc\n    funtions: [x]\n' >"$TSRC/conf/ltruss.yaml"
	run_tree sh -c 'touch ran'
	[ "$status" -eq 2 ]
	[ ! -e ran ]
	assert_equal "$err" "ltruss: error: $TSRC/conf/ltruss.yaml:3:5: unknown key 'funtions' in a trace rule; did you mean 'functions'?"
}

# The warning ltruss gives when it cannot use the copy's compiled prototypes.
stale_warning() {
	echo "ltruss: warning: cannot use the compiled prototypes '$TREE/conf/prototypes.tbl' ($1): read their sources instead, which is slower; run make (or make install)"
}

@test "the compiled prototypes are used when fresh: typed arguments, no warning" {
	copy_tree
	[ -f "$TREE/conf/prototypes.tbl" ]
	run_tree --version
	grep -qx "compiled prototypes: $TREE/conf/prototypes.tbl" <<<"$out"
	run_tree -u 'libc:strrchr,open' cat /dev/null
	[ "$status" -eq 0 ]
	assert_equal "$(grep -c '^ltruss:' <<<"$err")" 0
	grep -Eqx 'libc:open\("/dev/null", O_RDONLY\) = [0-9]+' <<<"$err"
	# a source touched but unchanged (an install, a checkout) still matches
	touch "$TSRC/conf/annotations.yaml"
	run_tree -u 'libc:open' cat /dev/null
	assert_equal "$(grep -c '^ltruss:' <<<"$err")" 0
	grep -Eqx 'libc:open\("/dev/null", O_RDONLY\) = [0-9]+' <<<"$err"
}

@test "an edited shipped annotation is never silently ignored: its sources are read, with a warning" {
	copy_tree
	# strrchr's string argument, now declared a plain pointer
	printf '  - "void *strrchr(void *s, int c)"\n' >>"$TSRC/conf/annotations.yaml"
	run_tree -u 'libc:strrchr' /bin/echo hi
	[ "$status" -eq 0 ]
	[ "$out" = "hi" ]
	assert_equal "$(grep '^ltruss:' <<<"$err")" "$(stale_warning "'$TSRC/conf/annotations.yaml' changed since it was made")"
	grep -q '^libc:strrchr(0x[0-9a-f]*, 47) = 0x' <<<"$err"
}

@test "a prototypes file added to the shipped ones makes the compiled table stale" {
	copy_tree
	printf 'version: 1\nprototypes:\n  - "void *strrchr(void *s, int c)"\n' >"$TSRC/conf/prototypes/zz-new.yaml"
	run_tree -u 'libc:strrchr' /bin/echo hi
	[ "$status" -eq 0 ]
	assert_equal "$(grep '^ltruss:' <<<"$err")" "$(stale_warning "a file was added to or removed from '$TSRC/conf/prototypes'")"
	grep -q '^libc:strrchr(0x[0-9a-f]*, 47) = 0x' <<<"$err"
}

@test "a missing or damaged compiled table: a warning, and the same typed trace" {
	copy_tree
	rm "$TREE/conf/prototypes.tbl"
	run_tree -u 'libc:strrchr' /bin/echo hi
	[ "$status" -eq 0 ]
	assert_equal "$(grep '^ltruss:' <<<"$err")" "$(stale_warning "No such file or directory")"
	grep -qx 'libc:strrchr("/bin/echo", 47) = "/echo"' <<<"$err"
	echo 'not a table' >"$TREE/conf/prototypes.tbl"
	run_tree -u 'libc:strrchr' /bin/echo hi
	[ "$status" -eq 0 ]
	assert_equal "$(grep '^ltruss:' <<<"$err")" "$(stale_warning "not a table of prototypes")"
	grep -qx 'libc:strrchr("/bin/echo", 47) = "/echo"' <<<"$err"
	# cut short: the header is whole, its sections are not
	head -c 4096 "$LTRUSS_TOP_BUILDDIR/conf/prototypes.tbl" >"$TREE/conf/prototypes.tbl"
	run_tree -u 'libc:strrchr' /bin/echo hi
	[ "$status" -eq 0 ]
	assert_equal "$(grep '^ltruss:' <<<"$err")" "$(stale_warning "damaged (a section is out of bounds)")"
	grep -qx 'libc:strrchr("/bin/echo", 47) = "/echo"' <<<"$err"
}

# put_u32 FILE OFFSET VALUE: write VALUE as 4 little-endian bytes at OFFSET of FILE.
put_u32() {
	printf "$(printf '\\%03o' $(($3 & 255)) $(($3 >> 8 & 255)) $(($3 >> 16 & 255)) $(($3 >> 24 & 255)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

@test "a compiled table whose index is damaged: a warning, and the same typed trace" {
	copy_tree
	local tbl="$TREE/conf/prototypes.tbl" index at
	# The header's index offset (struct shipped_header), then its first used bucket.
	index=$(od -An -tu4 -j76 -N4 "$tbl" | tr -d ' ')
	at=$(od -An -v -tu4 -w4 -j"$index" -N131072 "$tbl" | awk '$1 != 0 { print NR - 1; exit }')
	[ -n "$at" ]
	cp "$tbl" good.tbl
	put_u32 "$tbl" $((index + 4 * at)) 4294967295
	run_tree -u 'libc:strrchr' /bin/echo hi
	[ "$status" -eq 0 ]
	assert_equal "$(grep '^ltruss:' <<<"$err")" "$(stale_warning "damaged (its index is out of bounds)")"
	grep -qx 'libc:strrchr("/bin/echo", 47) = "/echo"' <<<"$err"
	cp good.tbl "$tbl"
	put_u32 "$tbl" $((index + 4 * at)) 0
	run_tree -u 'libc:strrchr' /bin/echo hi
	[ "$status" -eq 0 ]
	assert_equal "$(grep '^ltruss:' <<<"$err")" "$(stale_warning "damaged (its index does not match)")"
	grep -qx 'libc:strrchr("/bin/echo", 47) = "/echo"' <<<"$err"
}

@test "a filter's prototype wins over the compiled shipped one" {
	cat >f.yaml <<'EOF2'
trace:
  - lib: "libc.so*"
    functions: [strrchr, open]
prototypes:
  - "void *strrchr(void *s, int c)"
EOF2
	run_split ltruss -F ./f.yaml cat /dev/null
	[ "$status" -eq 0 ]
	grep -q '^libc:strrchr(0x[0-9a-f]*, 47) = NULL$' <<<"$err"
	# the shipped prototype of open is still there
	grep -Eqx 'libc:open\("/dev/null", O_RDONLY\) = [0-9]+' <<<"$err"
}

@test "a compiled declaration that does not parse: one warning, the function traced untyped" {
	copy_tree
	# damage strrchr's declaration in the table, keeping its length and layout
	/usr/bin/python3 - "$TREE/conf/prototypes.tbl" <<'PY'
import sys
p = sys.argv[1]
b = open(p, 'rb').read()
old = b'char *strrchr(const char *, int)'
assert b.count(old) == 1
open(p, 'wb').write(b.replace(old, b'char *strrchr(const char *, int@'))
PY
	run_tree -f -u 'libc:strrchr' sh -c '/bin/echo a; /bin/echo b'
	[ "$status" -eq 0 ]
	[ "$out" = "$(printf 'a\nb')" ]
	assert_equal "$(grep '^ltruss:' <<<"$err")" "ltruss: warning: the compiled prototypes are damaged: 'char *strrchr(const char *, int@' does not parse (expected ',' or ')'); run make"
	assert_equal "$(grep -c 'libc:strrchr(0x[0-9a-f]*, 0x2f, ' <<<"$err")" 2
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# filters.bats: each shipped filter (filters/*.yaml, -F NAME) loads and
# traces what it is about in a real program, which prints what it prints
# untraced.

load helpers

# with_filter NAME CMD...: run CMD untraced ($plain), then under -F NAME
# ($out, $err, $status), and check the program's own output is untouched.
with_filter() {
	local name=$1
	shift
	plain=$("$@" 2>/dev/null)
	run_split ltruss -F "$name" "$@"
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
}

@test "every shipped filter loads, and is installed" {
	names=$(cd "$SRCDIR/filters" && ls *.yaml | sed 's/\.yaml$//')
	[ "$names" = "$(printf '%s\n' dl files libxml2 malloc pthread sqlite3 stdio strings zlib)" ]
	for name in $names; do
		run ltruss -F "$name" true
		assert_success
		grep -q "filters/$name.yaml" "$SRCDIR/Makefile.am"
	done
}

@test "-F malloc: ls allocates and frees" {
	with_filter malloc ls -l /usr
	grep -q '^libc:malloc(' <<<"$err"
	grep -q '^libc:free(' <<<"$err"
	not grep -v '^libc:\(malloc\|calloc\|realloc\|reallocarray\|free\|posix_memalign\|aligned_alloc\|memalign\|valloc\|pvalloc\)(\|^+++ exited' <<<"$err"
}

@test "-F stdio: printf and the streams of sort" {
	with_filter stdio "$PROGS/bhv-printf"
	grep -q '^libc:printf(' <<<"$err"
	grep -q '^libc:snprintf(' <<<"$err"
	printf 'b\na\n' > in.txt
	with_filter stdio sort in.txt
	grep -q '^libc:fclose(' <<<"$err"
	not grep -q '^libc:\(malloc\|open\|read\)(' <<<"$err"
}

@test "-F strings: grep compares and copies strings" {
	printf 'root:x\nuser:y\n' > in.txt
	with_filter strings grep -c root in.txt
	[ "$out" = 1 ]
	grep -q '^libc:str' <<<"$err"
	grep -q '^libc:mem' <<<"$err"
	not grep -q '^libc:memalign(' <<<"$err"
}

@test "-F files: head opens, reads, seeks and closes" {
	printf 'hello\nworld\n' > in.txt
	with_filter files head -n 1 in.txt
	[ "$out" = hello ]
	# typed by the shipped prototypes: flags, the bytes read, whence, errno
	fd=$(sed -n 's/^libc:open("in.txt", O_RDONLY) = \([0-9]*\)$/\1/p' <<<"$err")
	[ -n "$fd" ]
	grep -qx "libc:read($fd, \"hello\\\\nworld\\\\n\", [0-9]*) = 12" <<<"$err"
	grep -qx "libc:lseek($fd, -6, SEEK_CUR) = 6" <<<"$err"
	grep -qx "libc:close($fd) = 0" <<<"$err"
	not grep -v '^libc:\(open\|read\|lseek\|close\|fstat\|write\)(\|^+++ exited' <<<"$err"
}

@test "-F pthread: threads created and joined" {
	# once a second thread runs, lines may carry a [pid N] prefix
	local pid='^\(\[pid [0-9]*\] \)\?'
	with_filter pthread "$PROGS/bhv-threads"
	[ "$(grep -c "${pid}libc:pthread_create(" <<<"$err")" -eq 8 ]
	[ "$(grep -c "${pid}libc:pthread_join(" <<<"$err")" -eq 8 ]
	with_filter pthread /usr/bin/python3 -c 'import threading; t = threading.Thread(target=print, args=("x",)); t.start(); t.join()'
	[ "$out" = x ]
	grep -q "${pid}libc:pthread_create(" <<<"$err"
}

@test "-F dl: python3 opens a C extension with dlopen" {
	with_filter dl /usr/bin/python3 -c 'import _json; print("ok")'
	[ "$out" = ok ]
	grep -q '^libc:dlopen(' <<<"$err"
	grep -q '^libc:dlsym(' <<<"$err"
}

@test "-F zlib: python3 compresses" {
	with_filter zlib /usr/bin/python3 -c 'import zlib; print(len(zlib.decompress(zlib.compress(b"x" * 100))))'
	[ "$out" = 100 ]
	grep -q '^libz:deflate(' <<<"$err"
	grep -q '^libz:inflate(' <<<"$err"
	not grep -q '^libc:' <<<"$err"
}

@test "-F sqlite3: the shell prepares and steps a statement" {
	with_filter sqlite3 sqlite3 :memory: 'select 1'
	[ "$out" = 1 ]
	grep -q '^libsqlite3:sqlite3_open' <<<"$err"
	grep -q '^libsqlite3:sqlite3_prepare' <<<"$err"
	grep -q '^libsqlite3:sqlite3_step(' <<<"$err"
	not grep -v '^libsqlite3:sqlite3_\|^+++ exited' <<<"$err"
}

@test "-F libxml2: xmllint reads and writes a document" {
	printf '<a><b>text</b></a>\n' > a.xml
	with_filter libxml2 xmllint a.xml
	grep -q '^libxml2:xmlReadFile(\|^libxml2:xmlCtxtReadFile(' <<<"$err"
	grep -q '^libxml2:xml' <<<"$err"
	not grep -q '^libxml2:__xml' <<<"$err"
	not grep -v '^libxml2:\(xml\|html\)\|^+++ exited' <<<"$err"
}

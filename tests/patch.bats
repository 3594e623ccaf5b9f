#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# patch.bats: entry patching traces the functions the loader never binds
# (-u 'LIB::FUNC'), counts every call exactly once, says each function it
# refuses, and never changes what the program does.

load helpers

# The calls column of -c's row for FUNC (LIB:NAME) in $err; empty if none.
calls_of() {
	awk -v f="$1" '$NF == f { print $(NF - 2) }' <<<"$err"
}

# What the program itself counted of NAME (its "NAME N" lines) in $out.
own_count() {
	awk -v f="$1" '$1 == f { print $2 }' <<<"$out"
}

# Run fixture PROG with ARGS untraced, then under ltruss OPTIONS: the
# traced run succeeds and prints what the untraced one printed.
# Usage: same_output PROG ARGS -- OPTIONS
same_output() {
	local prog=$1 args=()
	shift
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	plain=$("$PROGS/$prog" "${args[@]}")
	run_split ltruss "$@" "$PROGS/$prog" "${args[@]}"
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
}

# Trace fixture PROG's own functions with -c; its output must be untraced's.
# Usage: own_counts PROG ARGS...
own_counts() {
	local prog=$1
	shift
	same_output "$prog" "$@" -- -c -u 'a.out::sq,depth,hop,fact'
	for f in sq depth hop fact; do
		[ -n "$(own_count $f)" ]
		[ "$(calls_of a.out:$f)" = "$(own_count $f)" ]
	done
}

@test "the program's own static and global functions, -O2 PIE: exact counts, recursion, tail call, pointer" {
	own_counts patch-own 7
	# 7 direct calls and 7 through hop's tail call; depth(7) recursed 8 times
	[ "$(calls_of a.out:sq)" -eq 14 ]
	[ "$(calls_of a.out:depth)" -eq 8 ]
}

@test "the program's own functions with -fcf-protection=full (endbr64 kept first)" {
	own_counts patch-own-cet 7
}

@test "the program's own functions, non-PIE" {
	own_counts patch-own-nopie 7
}

@test "patched calls nest and return like bound ones: recursion and a tail call" {
	same_output patch-own 1 -- -u 'a.out::sq,hop,depth'
	expected='a.out:sq(0, ...) = 0
a.out:hop(0, ...) {
  a.out:sq(0x1, ...) = 0x1
} a.out:hop = 0x1
a.out:depth(0x1, ...) {
  a.out:depth(0, ...) = 0
} a.out:depth = 0x1
+++ exited (status 0) +++'
	[ "$(sed 's/(\(0x[0-9a-f]*\|0\), [^)]*)/(\1, ...)/' <<<"$err")" = "$expected" ]
}

@test "a one-colon selection sees only calls from other objects, and says what it missed" {
	run_split ltruss -c -u 'a.out:sq' "$PROGS/patch-own" 3
	[ "$status" -eq 0 ]
	[ "$(calls_of a.out:sq)" = "" ]
	# main calls sq, hop jumps to it
	[ "$(tail -n 1 <<<"$err")" = "ltruss: warning: a.out:sq is also called from inside a.out (2 call sites), which -u 'a.out:sq' does not trace: -u 'a.out::sq' does" ]
	# said only when the calls are missed
	run_split ltruss -c -u 'a.out:sq' -u 'a.out::sq' "$PROGS/patch-own" 3
	not grep -q 'also called' <<<"$err"
	[ "$(calls_of a.out:sq)" -eq 6 ]
}

@test "a library's function called from inside it: one colon says what it missed, '::' counts them" {
	# patch_twice calls itself directly once (protected visibility)
	same_output patch-lib 4 -- -c -u 'libpatch:patch_twice'
	[ "$(calls_of libpatch:patch_twice)" -eq 4 ]
	[ "$(grep -c '^ltruss: warning: ' <<<"$err")" -eq 1 ]
	[ "$(tail -n 1 <<<"$err")" = "ltruss: warning: libpatch:patch_twice is also called from inside libpatch (1 call site), which -u 'libpatch:patch_twice' does not trace: -u 'libpatch::patch_twice' does" ]
	same_output patch-lib 4 -- -c -u 'libpatch::patch_twice'
	not grep -q 'also called' <<<"$err"
	[ "$(calls_of libpatch:patch_twice)" = "$(own_count patch_twice)" ]
	# selfplt_leaf: 2 calls through the library's own PLT, the loader's
	# binding of the library to itself, which one colon does not trace
	same_output patch-selfplt 4 -- -c -u 'libpatch:selfplt_leaf'
	[ "$(calls_of libpatch:selfplt_leaf)" -eq 4 ]
	[ "$(tail -n 1 <<<"$err")" = "ltruss: warning: libpatch:selfplt_leaf is also called from inside libpatch (2 call sites), which -u 'libpatch:selfplt_leaf' does not trace: -u 'libpatch::selfplt_leaf' does" ]
	same_output patch-selfplt 4 -- -c -u 'libpatch::selfplt_leaf'
	not grep -q 'also called' <<<"$err"
	[ "$(calls_of libpatch:selfplt_leaf)" -eq 12 ]
	[ "$(own_count selfplt_leaf)" -eq 12 ]
}

@test "the library hint: for a dlopen'ed library, under -f, by soname; never for a glob or an excluded function" {
	local hint="ltruss: warning: libpatch:patch_twice is also called from inside libpatch (1 call site), which -u 'libpatch:patch_twice' does not trace: -u 'libpatch::patch_twice' does"
	# globs name no object on purpose: nothing scanned, nothing said
	for u in 'libpatch:patch_tw*' '*:patch_twice' 'libpatch*:patch_twice'; do
		same_output patch-lib 4 -- -c -u "$u"
		[ "$(calls_of libpatch:patch_twice)" -eq 4 ]
		! grep -q warning <<<"$err"
	done
	[ ! -e "$HOME/.cache/ltruss" ]
	run_split ltruss -c -u 'libpatch:patch_twice' "$PROGS/patch-dlopen" 3
	[ "$status" -eq 0 ]
	[ "$(calls_of libpatch:patch_twice)" -eq 3 ]
	[ "$(tail -n 1 <<<"$err")" = "$hint" ]
	run_split ltruss -f -c -u 'libpatch:patch_twice' sh -c "$PROGS/patch-lib 4"
	[ "$status" -eq 0 ]
	[ "$(tail -n 1 <<<"$err")" = "$hint" ]
	# the rule's own spelling of the library is the one suggested
	run_split ltruss -c -u 'libpatch.so:patch_twice' "$PROGS/patch-lib" 4
	[ "$(tail -n 1 <<<"$err")" = "ltruss: warning: libpatch:patch_twice is also called from inside libpatch (1 call site), which -u 'libpatch.so:patch_twice' does not trace: -u 'libpatch.so::patch_twice' does" ]
	# only -c's text: a trace shows what it has, JSON and CSV are for programs
	run_split ltruss -u 'libpatch:patch_twice' "$PROGS/patch-lib" 4
	[ "$(grep -c '^libpatch:patch_twice(' <<<"$err")" -eq 4 ]
	! grep -q warning <<<"$err"
	for opt in -C '-c --summary-format json' '-c --summary-format csv'; do
		run_split ltruss $opt -u 'libpatch:patch_twice' "$PROGS/patch-lib" 4
		[ "$status" -eq 0 ]
		! grep -q warning <<<"$err"
	done
	# excluded by a later rule, or patched by a '::' rule: nothing to say
	run_split ltruss -c -u 'libpatch:patch_twice' -u '!libpatch:patch_twice' "$PROGS/patch-lib" 4
	! grep -q warning <<<"$err"
	run_split ltruss -c -u 'libpatch:patch_twice' -u 'libpatch::patch_*' "$PROGS/patch-lib" 4
	! grep -q warning <<<"$err"
	[ "$(calls_of libpatch:patch_twice)" -eq 5 ]
}

@test "the library hint after a run that loaded more objects than the session's ring holds, twice over" {
	# 17000 dlopen cycles of a plugin and libfix: 34000 object records,
	# read at the end from a ring of 16384 that -c lets processes write over
	run_split ltruss -c -u 'libfix:fix_add' "$PROGS/dlcycle" 17000
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/dlcycle" 17000)" ]
	[ "$(calls_of libfix:fix_add)" -eq 34000 ]
	[ "$(tail -n 1 <<<"$err")" = "ltruss: warning: libfix:fix_add is also called from inside libfix (1 call site), which -u 'libfix:fix_add' does not trace: -u 'libfix::fix_add' does" ]
}

@test "the library hint reads and fills the scan cache by build ID" {
	local id file twice
	id=$(readelf -n "$PROGS/libpatch.so" | awk '/Build ID/ { print $3 }')
	file="$HOME/.cache/ltruss/patch/$id"
	run_split ltruss -c -u 'libpatch:patch_twice' "$PROGS/patch-lib" 4
	grep -q '(1 call site)' <<<"$err"
	[ "$(head -c 8 "$file")" = LTRPSCN2 ]
	# A forged cache: 7 calls onto patch_twice's entry.  Read, not decoded.
	twice=$(nm "$PROGS/libpatch.so" | awk '$3 == "patch_twice" { print $1 }')
	python3 -c 'import struct, sys
sys.stdout.buffer.write(b"LTRPSCN2" + struct.pack("<QQ", 0, 1) + struct.pack("<QQ", int(sys.argv[1], 16), 7))' "$twice" > "$file"
	run_split ltruss -c -u 'libpatch:patch_twice' "$PROGS/patch-lib" 4
	[ "$(tail -n 1 <<<"$err")" = "ltruss: warning: libpatch:patch_twice is also called from inside libpatch (7 call sites), which -u 'libpatch:patch_twice' does not trace: -u 'libpatch::patch_twice' does" ]
}

@test "functions that cannot be patched are named once, with the reason" {
	same_output patch-own 3 -- -c -u 'a.out::sq,zero,spin,landing'
	[ "$(grep -c 'warning: a.out::' <<<"$err")" -eq 3 ]
	grep -qx 'ltruss: warning: a.out::zero is not traced: it is 3 bytes long, too short to patch (5 bytes are needed)' <<<"$err"
	grep -qx 'ltruss: warning: a.out::spin is not traced: its loop jumps back to its entry (at 0x[0-9a-f]*)' <<<"$err"
	grep -qx 'ltruss: warning: a.out::landing is not traced: a branch at 0x[0-9a-f]* lands inside its first 6 bytes' <<<"$err"
	[ "$(calls_of a.out:sq)" -eq 6 ]
}

@test "a glob patches what it can, leaves the C runtime's code alone, and --list names the rest" {
	same_output patch-own 3 -- -c -u 'a.out::*'
	not grep -q 'warning' <<<"$err"
	[ "$(calls_of a.out:sq)" -eq 6 ]
	[ "$(calls_of a.out:main)" -eq 1 ]
	[ "$(calls_of a.out:_init)" = "" ]
	[ "$(calls_of a.out:__do_global_dtors_aux)" = "" ]
	run_split ltruss --list -u 'a.out::*' "$PROGS/patch-own"
	grep -qx 'a.out::zero  refused: .*' <<<"$out"
}

@test "--from with '::': the entries are not patched (a patched call's caller is not known)" {
	run_split ltruss -c --from libpatch -u 'libpatch::patch_twice' "$PROGS/patch-lib" 4
	[ "$status" -eq 0 ]
	# patch_twice calls itself directly: seen only by patching
	[ "$(calls_of libpatch:patch_twice)" = "" ]
	run_split ltruss -c --from a.out -u 'libpatch::patch_twice' "$PROGS/patch-lib" 4
	[ "$(calls_of libpatch:patch_twice)" -eq 4 ]
}

@test "the entry point is refused: nothing calls it" {
	same_output patch-own 3 -- -u 'a.out::_start'
	grep -qx "ltruss: warning: a.out::_start is not traced: it is the entry point: nothing calls it, it never returns" <<<"$err"
}

@test "a library's hidden helper and its self-calls: counted once, reached both ways" {
	plain=$("$PROGS/patch-lib" 4)
	run_split ltruss -c -u 'libpatch::patch_helper,patch_twice' "$PROGS/patch-lib" 4
	[ "$status" -eq 0 ]
	# the helper leaves %ecx alone, and gcc -O2 (-fipa-ra) counts on it
	[ "$out" = "$plain" ]
	# helper: 4 through a pointer from the program, 4 calls inside;
	# patch_twice: 4 through the PLT, 1 from itself
	[ "$(calls_of libpatch:patch_helper)" = "$(own_count patch_helper)" ]
	[ "$(calls_of libpatch:patch_twice)" = "$(own_count patch_twice)" ]
	[ "$(calls_of libpatch:patch_helper)" -eq 8 ]
	[ "$(calls_of libpatch:patch_twice)" -eq 5 ]
	# one colon: the program's calls only, through the PLT
	run_split ltruss -c -u 'libpatch:patch_twice' "$PROGS/patch-lib" 4
	[ "$(calls_of libpatch:patch_twice)" -eq 4 ]
}

@test "--list says which functions a '::' rule patches and which it refuses, and why" {
	run_split ltruss --list -u 'a.out::sq,zero,spin' "$PROGS/patch-own"
	[ "$status" -eq 0 ]
	grep -qx "entry patching (the calls '::' selects inside an object):" <<<"$out"
	grep -qx 'a.out::sq  patched ([0-9]* bytes moved)' <<<"$out"
	grep -qx 'a.out::zero  refused: it is 3 bytes long, too short to patch (5 bytes are needed)' <<<"$out"
	grep -qx 'a.out::spin  refused: its loop jumps back to its entry (at 0x[0-9a-f]*)' <<<"$out"
	run_split ltruss --list --json -u 'a.out::zero' "$PROGS/patch-own"
	[ "$out" = '{"lib":"a.out","symbol":"zero","entry_patch":"refused","why":"it is 3 bytes long, too short to patch (5 bytes are needed)"}' ]
}

@test "static programs stay refused, with today's message" {
	run_split ltruss -u 'a.out::main' "$PROGS/static-hello"
	[ "$status" -eq 2 ]
	[ "$err" = "ltruss: error: cannot trace '$PROGS/static-hello': it is statically linked, so it loads no shared libraries to trace" ]
}

@test "a library opened with dlopen is patched while 4 threads run patched calls" {
	plain=$("$PROGS/patch-dlopen" 5 | grep -v '^work ')
	run_split ltruss -c -u 'a.out::work' -u 'libpatch::patch_twice,patch_helper' "$PROGS/patch-dlopen" 5
	[ "$status" -eq 0 ]
	[ "$(grep -v '^work ' <<<"$out")" = "$plain" ]
	[ "$(calls_of a.out:work)" = "$(own_count work)" ]
	[ "$(calls_of a.out:work)" -ge 400 ]
	# 5 calls from the program through dlsym, 2 more from itself
	[ "$(calls_of libpatch:patch_twice)" -eq 7 ]
	[ "$(calls_of libpatch:patch_helper)" = "$(own_count patch_helper)" ]
}

@test "a C++ exception and a longjmp through patched functions, and a fork under -f" {
	same_output patch-unwind 6 -- -f -u 'a.out::thrower,middle,jumper,jmiddle,twin'
	for f in thrower middle jumper jmiddle; do
		[ "$(grep -c "a.out:$f(" <<<"$err")" -eq "$(own_count $f)" ]
	done
	# the odd rounds: thrown through, each call shown unwound
	[ "$(grep -c 'a.out:thrower(.*) = ? <unwound>$' <<<"$err")" -eq 3 ]
	[ "$(grep -c '} a.out:middle = ? <unwound>$' <<<"$err")" -eq 3 ]
	[ "$(grep -c 'a.out:middle = 0x' <<<"$err")" -eq 3 ]
	[ "$(grep -c 'a.out:jmiddle = 0x\|a.out:jmiddle = 0$' <<<"$err")" -eq 3 ]
	# both sides of the fork: 3 calls in the child, 1 in the parent
	[ "$(grep -c '^\[pid [0-9]*\] a.out:twin(' <<<"$err")" -eq 4 ]
	[ "$(own_count twin)" -eq 1 ]
	grep -qx 'child twin 3' <<<"$out"
	# the same with -c: the calls that returned
	run_split ltruss -f -c -u 'a.out::thrower,twin' "$PROGS/patch-unwind" 6
	[ "$out" = "$plain" ]
	[ "$(calls_of a.out:thrower)" -eq 3 ]
	[ "$(calls_of a.out:twin)" -eq 4 ]
}

@test "-f: a program that a traced shell starts is patched too, each time, and the libraries only it loads" {
	plain=$("$PROGS/patch-own" 7; "$PROGS/patch-own" 5)
	run_split ltruss -f -c -u 'a.out::sq,depth' sh -c "$PROGS/patch-own 7; $PROGS/patch-own 5"
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	# Its own counts, summed over the two runs.
	[ "$(calls_of a.out:sq)" -eq $(($(awk '$1 == "sq" { n += $2 } END { print n }' <<<"$out"))) ]
	[ "$(calls_of a.out:depth)" -eq $(($(awk '$1 == "depth" { n += $2 } END { print n }' <<<"$out"))) ]
	[ "$(calls_of a.out:sq)" -gt 0 ]
	# A library only that program loads: its hidden helper and self-calls.
	plain=$("$PROGS/patch-lib" 4)
	run_split ltruss -f -c -u 'libpatch::patch_helper,patch_twice' sh -c "$PROGS/patch-lib 4"
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$(calls_of libpatch:patch_helper)" -eq 8 ]
	[ "$(calls_of libpatch:patch_twice)" -eq 5 ]
}

@test "the scan is cached by build ID: a second run reads it instead of decoding" {
	local id file sq
	run_split ltruss -c -u 'a.out::sq' "$PROGS/patch-own" 3
	[ "$status" -eq 0 ]
	id=$(readelf -n "$PROGS/patch-own" | awk '/Build ID/ { print $3 }')
	file="$HOME/.cache/ltruss/patch/$id"
	[ -s "$file" ]
	# A forged cache: one branch into sq's first bytes.  Read, it refuses sq.
	sq=$(nm "$PROGS/patch-own" | awk '$3 == "sq" { print $1 }')
	python3 -c 'import struct, sys
sys.stdout.buffer.write(b"LTRPSCN2" + struct.pack("<QQ", 1, 0) + struct.pack("<QQQ", int(sys.argv[1], 16) + 2, 0x1234, 0))' "$sq" > "$file"
	run_split ltruss -c -u 'a.out::sq' "$PROGS/patch-own" 3
	[ "$status" -eq 0 ]
	grep -qx 'ltruss: warning: a.out::sq is not traced: a branch at 0x1234 lands inside its first [0-9]* bytes' <<<"$err"
	# A damaged one is decoded again, and written anew
	echo damaged > "$file"
	run_split ltruss -c -u 'a.out::sq' "$PROGS/patch-own" 3
	[ "$(calls_of a.out:sq)" -eq 6 ]
	[ "$(head -c 8 "$file")" = LTRPSCN2 ]
}

@test "patched calls in every view: -w and --read, --json, --caller, --tree" {
	run_split ltruss -w trace.ltr -u 'a.out::sq,hop' "$PROGS/patch-own" 2
	[ "$status" -eq 0 ]
	run_split ltruss --read trace.ltr -c
	err=$out # --read: the trace is the output
	[ "$(calls_of a.out:sq)" -eq 4 ]
	[ "$(calls_of a.out:hop)" -eq 2 ]
	run_split ltruss --json -u 'a.out::hop' "$PROGS/patch-own" 2
	[ "$(jq -r 'select(.func == "hop") | .lib' <<<"$err" | sort -u)" = a.out ]
	[ "$(jq -r 'select(.func == "hop") | .type' <<<"$err" | sort | uniq -c | awk '{ print $1 $2 }')" = 2call ]
	run_split ltruss --caller -u 'a.out::sq' "$PROGS/patch-own" 1
	# sq called by main, and jumped to by hop's tail call: from main too
	[ "$(grep -c '^a.out:sq(.*) = .* \[from main+0x[0-9a-f]*\]$' <<<"$err")" -eq 2 ]
	run_split ltruss -c --tree -u 'a.out::sq,hop' "$PROGS/patch-own" 2
	grep -Eq '^ +2 +[0-9.]+ +[0-9.]+ +a\.out:hop$' <<<"$err"
	grep -Eq '^ +2 +[0-9.]+ +[0-9.]+ +  a\.out:sq$' <<<"$err"
}

# Real programs nobody here built: the '::' form counts the calls a
# library or the program makes inside itself, where the one-colon form
# counts only those from other objects, and the output stays the same.

@test "Debian's python3.11 (libpython linked in, stripped, non-PIE): a.out::PyObject_Malloc counted, output unchanged" {
	local script='import json; print(json.dumps({"a": [1, 2, 3]}))'
	plain=$(/usr/bin/python3.11 -c "$script")
	run_split ltruss -c -u 'a.out::PyObject_Malloc' /usr/bin/python3.11 -c "$script"
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$(calls_of a.out:PyObject_Malloc)" -gt 0 ]
	! grep -q warning <<<"$err"
	# The program never calls it through the loader: one colon counts none.
	run_split ltruss -c -u 'a.out:PyObject_Malloc' /usr/bin/python3.11 -c "$script"
	[ "$out" = "$plain" ]
	[ -z "$(calls_of a.out:PyObject_Malloc)" ]
	# A static function of the stripped program: not found, and said.
	run_split ltruss -c -u 'a.out::_PyObject_Malloc' /usr/bin/python3.11 -c "$script"
	[ "$out" = "$plain" ]
	[ "$(grep -c '^ltruss: warning: ' <<<"$err")" -eq 1 ]
	grep -qx "ltruss: warning: -u 'a.out::_PyObject_Malloc' traced nothing: /usr/bin/python3.11 has no function of that name among those it exports (it has no symbol table of its own: its debug file would name its static functions)" <<<"$err"
}

@test "a '::' name that no object of its library has: said once at the end, the rest traced" {
	same_output patch-own 7 -- -c -u 'a.out::sq,nosuch'
	[ "$(calls_of a.out:sq)" -eq 14 ]
	[ "$(grep -c '^ltruss: warning: ' <<<"$err")" -eq 1 ]
	grep -qx "ltruss: warning: -u 'a.out::nosuch' traced nothing: $PROGS/patch-own has no function of that name" <<<"$err"
	# Found in the program an exec starts (-f): nothing to say.
	run_split ltruss -f -c -u 'a.out::sq' sh -c "$PROGS/patch-own 7"
	[ "$status" -eq 0 ]
	! grep -q warning <<<"$err"
}

@test "tclsh8.6: libtcl's calls of its own Tcl_ListObjAppendElement counted, output unchanged" {
	printf 'proc f {x} {return [expr {$x*2}]}\nset s 0\nfor {set i 0} {$i < 100} {incr i} {incr s [f $i]}\nputs $s\n' >t.tcl
	plain=$(tclsh8.6 t.tcl)
	[ "$plain" = 9900 ]
	run_split ltruss -c -u 'libtcl8.6::Tcl_ListObjAppendElement' tclsh8.6 t.tcl
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$(calls_of libtcl8.6:Tcl_ListObjAppendElement)" -gt 0 ]
	run_split ltruss -c -u 'libtcl8.6:Tcl_ListObjAppendElement' tclsh8.6 t.tcl
	[ "$out" = "$plain" ]
	[ -z "$(calls_of libtcl8.6:Tcl_ListObjAppendElement)" ]
}

@test "sqlite3: libsqlite3::sqlite3_step counts the shell's calls and the library's own, output unchanged" {
	local sql='create table t(a); insert into t values (1), (2); select count(*) from t;'
	plain=$(sqlite3 :memory: "$sql")
	[ "$plain" = 2 ]
	run_split ltruss -c -u 'libsqlite3:sqlite3_step' sqlite3 :memory: "$sql"
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	outside=$(calls_of libsqlite3:sqlite3_step)
	# the library calls it through its own PLT: one colon says so
	grep -Eqx "ltruss: warning: libsqlite3:sqlite3_step is also called from inside libsqlite3 \([0-9]+ call sites\), which -u 'libsqlite3:sqlite3_step' does not trace: -u 'libsqlite3::sqlite3_step' does" <<<"$err"
	run_split ltruss -c -u 'libsqlite3::sqlite3_step' sqlite3 :memory: "$sql"
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	not grep -q 'also called' <<<"$err"
	[ "$outside" -gt 0 ]
	[ "$(calls_of libsqlite3:sqlite3_step)" -gt "$outside" ]
}

@test "libc: libc:free misses libc's own calls of free, says so, and libc::free counts them" {
	plain=$(ls -l /usr)
	run_split ltruss -c -u 'libc:free' ls -l /usr
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	outside=$(calls_of libc:free)
	[ "$(grep -c '^ltruss: warning: ' <<<"$err")" -eq 1 ]
	grep -Eqx "ltruss: warning: libc:free is also called from inside libc \([0-9]+ call sites\), which -u 'libc:free' does not trace: -u 'libc::free' does" <<<"$err"
	run_split ltruss -c -u 'libc::free' ls -l /usr
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	not grep -q 'also called' <<<"$err"
	[ "$(calls_of libc:free)" -gt "$outside" ]
}

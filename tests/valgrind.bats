#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# valgrind.bats: the interposer under valgrind's memcheck, inside fixture
# programs, tracing what the other suites trace.
#
# How: "ltruss -f ... valgrind PROG".  /usr/bin/valgrind is a script that
# execs valgrind.bin, which execs the (static) memcheck tool; -f keeps
# LD_AUDIT and LTRUSS_SESSION in the environment across those execs (and
# the session fd open), and the tool runs PROG on its simulated CPU with
# PROG's own ld.so, which loads the interposer as PROG's audit module.  So
# the interposer's code -- binding, stubs, capture, rings -- runs under
# memcheck, in the process it traces, and its events reach ltruss.
#
# What memcheck sees there, and what it does not (valgrind 3.19):
# * --run-libc-freeres=no: at exit valgrind calls __libc_freeres, which
#   with any audit module (an empty one too) frees memory the loader took
#   with its own early malloc (_dl_find_object_freeres): a false "Invalid
#   free" unrelated to ltruss, which brings no libc of its own.
# * The interposer maps its tables (~900 MB, mostly untouched) before the
#   program's libraries load; after such a mapping valgrind reads no
#   symbols of the objects loaded later (an empty audit module with one
#   big mmap shows the same), so it cannot replace their malloc: heap
#   errors of the program go unseen, and reports name no functions.  What
#   is checked: uninitialised values in registers and on the stack
#   reaching a branch, an address or a system call, and accesses outside
#   memory valgrind knows (below the stack pointer included) -- the
#   interposer allocates nothing with malloc, so that is its whole state.
# The first test shows that such an error in a traced process fails the
# run; the others that the interposer makes none, and traces as without
# valgrind.

load helpers

# memcheck LTRUSS-OPTIONS... -- PROG ARGS...: trace PROG under memcheck
# and natively; fail on any memcheck error (exit 9 and its report on
# stderr), and unless both traces count the same calls of each function.
memcheck() {
	local opts=()

	while [ "$1" != "--" ]; do
		opts+=("$1")
		shift
	done
	shift
	run_split ltruss -f -o valgrind.txt "${opts[@]}" valgrind -q \
		--run-libc-freeres=no --error-exitcode=9 "$PROGS/$1" "${@:2}"
	[ "$status" -eq 0 ] || fail "memcheck: status $status: $err"
	# valgrind's tool is a static program: ltruss says it is not traced itself.
	tool='^ltruss: statically linked, not traced itself (what it runs or loads still is): /.*/memcheck-amd64-linux$'
	[ "$(grep -c "$tool" <<<"$err")" -eq 1 ] || fail "memcheck: $err"
	[ -z "$(grep -v "$tool" <<<"$err")" ] || fail "memcheck: $err"
	run_split ltruss -f -o native.txt "${opts[@]}" "$PROGS/$1" "${@:2}"
	[ "$status" -eq 0 ]
	calls valgrind.txt > valgrind.calls
	calls native.txt > native.calls
	[ -s native.calls ] || fail "nothing traced"
	diff -u native.calls valgrind.calls >&2 || fail "the traces differ"
}

# calls FILE: how many calls of each function FILE traces.
calls() {
	sed -n 's/^\(\[pid [0-9]*\] \)\{0,1\} *\([a-z0-9_+]*:[A-Za-z0-9_]*\)(.*/\2/p' "$1" |
		sort | uniq -c
}

@test "memcheck's errors in a traced process fail the run (the check can fail)" {
	run_split ltruss -f -o trace.txt -u 'libfix:fix_add' valgrind -q \
		--run-libc-freeres=no --error-exitcode=9 "$PROGS/uninit"
	[ "$status" -eq 9 ]
	[ "$out" = 3 ]
	grep -q 'Conditional jump or move depends on uninitialised value' <<<"$err"
	grep -qx 'libfix:fix_add(0x1, 0x2, .*) = 0x3' trace.txt
}

@test "memcheck: binding lazy, immediate, -fno-plt and IBT" {
	# (Not libc's functions: valgrind's launcher calls them too.)
	for prog in fix-lazy fix-now fix-noplt fix-ibt; do
		memcheck -u 'libfix:*' -- "$prog" 3
	done
}

@test "memcheck: typed arguments, strings read from bad pointers, printf varargs" {
	memcheck -F "$SRCDIR/tests/progs/typed/typed.yaml" -- typed
	memcheck -u 'libc:printf,snprintf' -- bhv-printf
}

@test "memcheck: threads, fork, longjmp and C++ exceptions through traced calls" {
	memcheck -u 'libbhv:bhv_add3' -- bhv-threads
	memcheck -u 'libbhv:*' -- bhv-fork
	memcheck -u 'libbhv:*' -- bhv-longjmp
	memcheck -u 'libbhvxx:*' -- bhv-exceptions
}

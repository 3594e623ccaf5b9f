#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# strings.bats: string arguments copied from every kind of memory, with a
# plain copy that survives a fault (lib/fault-copy.c): bad pointers never
# fault the program, and its own SIGSEGV and SIGBUS handling is unchanged.

load helpers

TYPED_YAML="$SRCDIR/tests/progs/typed/typed.yaml"

# The build of strmem.c the tests run: strmem, or strmem-noplt, whose
# signal calls go through the GOT (-fno-plt -z now).
STRMEM=strmem

# strmem MODE [ARGS]: trace the strmem fixture; the trace in $err.
strmem() {
	run_split ltruss -F "$TYPED_YAML" "$PROGS/$STRMEM" "$@"
}

# syscalls_of MODE: how many process_vm_readv calls the traced strmem makes.
# (LeakSanitizer cannot run under ptrace: maint/check-asan's ltruss leaves
# leak checking out of this run, and keeps the rest.)
syscalls_of() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -e trace=process_vm_readv -o strace.txt \
		"$LTRUSS" -F "$TYPED_YAML" -o trace.txt "$PROGS/$STRMEM" "$1" \
		>/dev/null 2>&1 </dev/null
	grep -c 'process_vm_readv(' strace.txt || true
}

@test "strings from read-only data, the stack, the heap, a malloc'd mapping and a file, without a system call" {
	strmem regions
	[ "$status" -eq 0 ]
	[ "$err" = 'libtyped:ty_string("region-rodata") = 1
libtyped:ty_string("region-stack") = 1
libtyped:ty_string("region-heap") = 1
libtyped:ty_string("region-mmap-chunk") = 1
libtyped:ty_string("region-file") = 1
+++ exited (status 0) +++' ]
	[ "$(syscalls_of regions)" -eq 0 ]
}

@test "bad pointers of every kind print as today, and the program runs on" {
	strmem bad
	[ "$status" -eq 0 ]
	lines=$(sed -E 's/0x7[0-9a-f]{11}/ADDR/' <<<"$err")
	[ "$lines" = 'libtyped:ty_string(NULL) = 0
libtyped:ty_string(0x10) = 1
libtyped:ty_string(ADDR) = 1
libtyped:ty_string(ADDR) = 1
libtyped:ty_string(ADDR) = 1
libtyped:ty_string(ADDR) = 1
libtyped:ty_string(0xffff800000001000) = 1
libtyped:ty_string(0x8000000000000000) = 1
libtyped:ty_string("abc"...) = 1
+++ exited (status 0) +++' ]
	# the faults were taken by the copy itself, not by a system call
	[ "$(syscalls_of bad)" -eq 0 ]
}

@test "a page unmapped and mprotected by another thread while the calls are traced" {
	strmem stress 100000
	[ "$status" -eq 0 ]
	[ "$out" = "100000 calls" ]
	# the string, or part of it (read while the other thread writes or
	# mprotects it, then cut with ...), or the address
	run grep -cE '^libtyped:ty_string\(("[stre]{0,6}"(\.\.\.)?|0x[0-9a-f]+)\) = 1$' <<<"$err"
	[ "$output" -eq 100000 ]
}

@test "the program's own SIGSEGV handler gets its own fault; strings still print" {
	for STRMEM in strmem strmem-noplt; do
		strmem handler
		[ "$status" -eq 0 ]
		[ "$out" = "caught SIGSEGV" ]
		grep -qx 'libtyped:ty_string("after-handler") = 1' <<<"$err"
		grep -qx 'libtyped:ty_string(0x7[0-9a-f]*) = 1' <<<"$err"
		# from then on strings go through the system call
		[ "$(syscalls_of handler)" -gt 0 ]
	done
}

@test "the program takes SIGSEGV while another thread copies strings: its handler gets its fault, no string is lost" {
	for STRMEM in strmem strmem-noplt; do
		strmem busy
		[ "$status" -eq 0 ]
		[ "$(head -1 <<<"$out")" = "caught SIGSEGV" ]
		# A call the other thread's lines interrupt shows its entry unfinished.
		ends='( = 1| <unfinished \.\.\.>)$'
		for who in main busy; do
			n=$(sed -n "s/^$who //p" <<<"$out")
			[ "$n" -ge 1000 ]
			[ "$(grep -cE "^(\[pid [0-9]+\] )?libtyped:ty_string\(\"$who\"\)$ends" <<<"$err")" -eq "$n" ]
		done
		grep -qE "^(\[pid [0-9]+\] )?libtyped:ty_string\(\"after-handler\"\)$ends" <<<"$err"
		grep -qE "^(\[pid [0-9]+\] )?libtyped:ty_string\(0x7[0-9a-f]*\)$ends" <<<"$err"
	done
}

@test "the program finds SIGSEGV and SIGBUS at SIG_DFL, and sigaction is traced in full" {
	for STRMEM in strmem strmem-noplt; do
		strmem query
		[ "$out" = "$("$PROGS/$STRMEM" query)" ]
		[ "$out" = $'SIGSEGV SIG_DFL\nSIGBUS SIG_DFL' ]
		run_split ltruss -u libc:sigaction "$PROGS/$STRMEM" query
		[ "$status" -eq 0 ]
		grep -qx 'libc:sigaction(SIGSEGV, NULL, 0x7ff[0-9a-f]*) = 0' <<<"$err"
		grep -qx 'libc:sigaction(SIGBUS, NULL, 0x7ff[0-9a-f]*) = 0' <<<"$err"
	done
}

@test "a bad pointer in a thread that blocks SIGSEGV does not kill the program" {
	for STRMEM in strmem strmem-noplt; do
		strmem blocked
		[ "$status" -eq 0 ]
		[ "$out" = "survived" ]
		grep -qx 'libtyped:ty_string("blocked") = 1' <<<"$err"
	done
}

@test "the program's own SIGSEGV kills it as without ltruss" {
	run "$PROGS/strmem" crash
	native=$status
	strmem crash
	[ "$status" -eq "$native" ]
	[ "$(tail -1 <<<"$err")" = "+++ killed by SIGSEGV +++" ]
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# footprint.bats: the room ltruss takes from a program: address space, stack, time.

load helpers

# untraced PROGRAM ARGS...: the program's stdout without ltruss, in $plain.
untraced() {
	plain=$(timeout -k 5 60 "$@" </dev/null 2>/dev/null)
}

# A pool of 16 000 threads, started one after another, each making one
# traced call: a thread start used to ask the kernel about every thread
# state of the process (12 000 threads: 39 s, 1.4 s now; untraced 0.8 s),
# past the suite's timeout here.  Every call is counted.
@test "16000 threads started one after another are all counted, in time" {
	untraced "$PROGS/foot-seqthreads" 16000
	run_split ltruss -c -u 'libbhv:bhv_add3' "$PROGS/foot-seqthreads" 16000
	assert_equal "$status" 0
	assert_equal "$out" "$plain"
	assert_equal "$out" "16000 threads, sum 16000"
	grep -Eq ' 16000 +0 libbhv:bhv_add3$' <<<"$err"
}

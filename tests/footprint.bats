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

# altstack_used STDERR: the N of the fixture's "altstack used: N" line.
altstack_used() {
	sed -n 's/^altstack used: \([0-9]*\)$/\1/p' <<<"$1"
}

# The exec hooks kept an environment list of 8 KiB and a path of 4 KiB on
# the program's stack, and the exec check 4 KiB more: an exec from a
# thread of 16 KiB, or from a handler on an 8 KiB sigaltstack, died.
@test "execvp from a thread with a 16 KiB stack runs the program" {
	untraced "$PROGS/foot-smallstack" thread-execvp echo hi
	run_split ltruss -f -o trace "$PROGS/foot-smallstack" thread-execvp echo hi
	assert_equal "$status" 0
	assert_equal "$out" "$plain"
	assert_equal "$out" "hi"
	grep -q 'execvp(' trace
}

@test "execve from a handler on an 8 KiB sigaltstack runs the program" {
	untraced "$PROGS/foot-smallstack" handler-execve /bin/echo hi
	run_split ltruss -f -o trace "$PROGS/foot-smallstack" handler-execve /bin/echo hi
	assert_equal "$status" 0
	assert_equal "$out" "$plain"
	assert_equal "$out" "hi"
	grep -q 'execve(' trace
}

# An execve that fails (a file that is no program: the exec check reads
# it) returns to the handler: the interposer took at most 2 KiB more of the
# alternate stack than the untraced program did.
@test "a failed execve from a handler takes at most 2 KiB more of its stack" {
	local plain_used used

	run_split "$PROGS/foot-smallstack" handler-execve /etc/passwd
	assert_equal "$status" 127
	plain_used=$(altstack_used "$err")
	run_split ltruss -f -o trace "$PROGS/foot-smallstack" handler-execve /etc/passwd
	assert_equal "$status" 127
	used=$(altstack_used "$err")
	[ -n "$plain_used" ]
	[ -n "$used" ]
	echo "untraced $plain_used traced $used"
	[ "$used" -le $((plain_used + 2048)) ]
}

# The first call of a lazily bound function in a handler: the loader
# binds it there, and the interposer decides whether to trace it (fnmatch
# took 4.5 KiB) and makes the thread's state: under 1 KiB more than the
# untraced program's own needs (lazy binding saves every register).
@test "a first lazily bound call in a handler takes under 1 KiB more of its stack" {
	local plain_used used

	run_split "$PROGS/foot-smallstack" handler-lazy
	assert_equal "$status" 0
	assert_equal "$out" 6
	plain_used=$(altstack_used "$err")
	run_split ltruss -u 'libbhv*:bhv_*' -o trace "$PROGS/foot-smallstack" handler-lazy
	assert_equal "$status" 0
	assert_equal "$out" 6
	used=$(altstack_used "$err")
	[ -n "$plain_used" ]
	[ -n "$used" ]
	echo "untraced $plain_used traced $used"
	[ "$used" -le $((plain_used + 1024)) ]
	grep -q 'bhv_add3(0x1, 0x2, 0x3) = 0x6' trace
}

# The session was mapped whole (512 thread slots: ~900 MB) by ltruss and
# by every traced process: under `ulimit -v` (batch systems, containers)
# ltruss could not start, and a program lost what the session took.  Now
# each maps the header and the slots its threads take.

# under_limit: the tests below run ltruss under `ulimit -v`, where an
# ASan build of it (maint/check-asan) cannot reserve its shadow memory and
# aborts before main; make check runs them on the release build.
under_limit() {
	if ldd "$LTRUSS" | grep -q libasan; then
		skip "an ASan build of ltruss cannot run under ulimit -v"
	fi
}
@test "ltruss -c runs under an address space limit of 300 MB" {
	under_limit
	run_split bash -c "ulimit -v 300000 && exec \"$LTRUSS\" -c true"
	assert_equal "$status" 0
	grep -Eq '^100\.00 .* [1-9][0-9]* +0 total$' <<<"$err"
	not grep -q '^ltruss:' <<<"$err"
}

@test "a program allocating 800 MB within a 1.6 GB limit does so traced" {
	under_limit
	untraced bash -c "ulimit -v 1600000 && exec \"$PROGS/foot-allocate\" 800"
	assert_equal "$plain" "allocated 800 MiB"
	run_split bash -c "ulimit -v 1600000 && exec \"$LTRUSS\" -c \"$PROGS/foot-allocate\" 800"
	assert_equal "$status" 0
	assert_equal "$out" "$plain"
}

@test "--read of a small trace file runs under an address space limit of 60 MB" {
	under_limit
	run_split ltruss -w rec.ltr -u 'libbhv:bhv_add3' "$PROGS/foot-seqthreads" 100
	assert_equal "$status" 0
	run_split bash -c "ulimit -v 60000 && exec \"$LTRUSS\" --read rec.ltr -c"
	assert_equal "$status" 0
	grep -Eq ' 100 +0 libbhv:bhv_add3$' <<<"$err$out"
}

# A ring the program has no room for (256 MB under a 200 MB limit): its
# thread is counted without events, and the interposer says why.
@test "a thread whose ring does not fit is counted, and ENOMEM is named" {
	under_limit
	run_split bash -c "ulimit -v 200000 && exec \"$LTRUSS\" -c --buffer 256M -u 'libbhv:bhv_add3' \"$PROGS/foot-seqthreads\" 3"
	assert_equal "$status" 0
	assert_equal "$out" "3 threads, sum 3"
	grep -Eq ' 3 +0 libbhv:bhv_add3$' <<<"$err"
	grep -q "ltruss: warning: no address space left for a thread's ring (ENOMEM)" <<<"$err"
}

# ---- ltruss's own memory under -f -----------------------------------------

# peak ARGS...: run ltruss ARGS under /usr/bin/time, as run_split does;
# $kib: the peak RSS of ltruss and of the processes it waited for (KiB).
# An ASan build (maint/check-asan) keeps what ltruss frees in a quarantine
# of up to 256 MB, which its RSS would count as ltruss's: 1 MB here.
peak() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=1" \
		run_split /usr/bin/time -f %M -o peak.txt \
		timeout -k 5 120 "$LTRUSS" "$@" </dev/null
	kib=$(tail -n 1 peak.txt)
	echo "ltruss $*: peak $kib KiB"
}

# The most KiB the 400 processes may take: 64 MB, and four times that for
# an ASan build, whose allocator and shadow memory count in its RSS and
# which, slower, drains the processes' rings later, by as much as the
# machine's load holds it back: -f -o took 25 to 88 MB in three runs on a
# quiet machine, 133 MB in a CI run beside other work, where the build
# without ASan takes 5 to 10 MB.  The bug this guards against kept every
# ring ever read: 278 MB without ASan.
limit_kib() {
	if ldd "$LTRUSS" | grep -q libasan; then
		echo 262144
	else
		echo 65536
	fi
}

# The thread slots of ended processes were handed back only once all 511
# had been taken, so every process took a fresh one: each ring ltruss read
# stayed in its memory (400 processes one after another: 278 MB, 130 MB
# here).  A freed slot is now taken first, and ltruss's memory follows the
# processes that run at once.  Every call is still traced: the events a
# process left in its ring are read before its slot is handed back.
@test "-f -w: 400 short processes one after another keep ltruss under 64 MB, every call recorded" {
	untraced "$PROGS/foot-seqprocs" 400 2000
	assert_equal "$plain" "400 processes, statuses 32000"
	peak -f -w rec.ltr -u 'libbhv:bhv_add3' "$PROGS/foot-seqprocs" 400 2000
	assert_equal "$status" 0
	assert_equal "$out" "$plain"
	[ "$kib" -lt "$(limit_kib)" ]
	run_split ltruss --read rec.ltr -c
	assert_equal "$status" 0
	grep -Eq ' 800000 +0 libbhv:bhv_add3$' <<<"$out$err"
}

@test "-f -o: 400 short processes one after another keep ltruss under 64 MB, every call traced" {
	untraced "$PROGS/foot-seqprocs" 400 2000
	peak -f -o trace -u 'libbhv:bhv_add3' "$PROGS/foot-seqprocs" 400 2000
	assert_equal "$status" 0
	assert_equal "$out" "$plain"
	[ "$kib" -lt "$(limit_kib)" ]
	assert_equal "$(grep -c 'bhv_add3(' trace)" 800000
	assert_equal "$(grep -c '+++ exited (status 80) +++$' trace)" 400
	rm -f trace
}

# The same number of calls made by 400 processes or by 40: ltruss's memory
# is within 1.2 times (small rings, so that the slots in use at a time
# weigh little).  It was 3.8 times for -w and -o, 3.2 times for -c, whose
# slots were never handed back.  An ASan build is compared with itself,
# within 1.5 times: its allocator keeps more of what ltruss frees (-c:
# 1.34 times, 13.6 and 18.3 MB; the others 1.14 at most).
@test "-f: 400 processes take ltruss at most 1.2 times the memory of 40 making as many calls" {
	local -a modes=("-w rec.ltr" "-o /dev/null" "--json -o /dev/null" "-c")
	local mode few tenths=12

	if ldd "$LTRUSS" | grep -q libasan; then
		tenths=15
	fi

	for mode in "${modes[@]}"; do
		# shellcheck disable=SC2086 # the mode is words
		peak --buffer 64K -f $mode -u 'libbhv:bhv_add3' "$PROGS/foot-seqprocs" 40 10000
		assert_equal "$status" 0
		assert_equal "$out" "40 processes, statuses 640"
		few=$kib
		# shellcheck disable=SC2086
		peak --buffer 64K -f $mode -u 'libbhv:bhv_add3' "$PROGS/foot-seqprocs" 400 1000
		assert_equal "$status" 0
		assert_equal "$out" "400 processes, statuses 41600"
		[ $((kib * 10)) -lt $((few * tenths)) ]
	done
}

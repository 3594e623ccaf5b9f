#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# forged.bats: a traced program writes over its own trace session (rings,
# heads, blobs, names, the object table, process entries, counters);
# ltruss never crashes, hangs or prints what is not so (docs/FAULTS.md,
# "What a traced program can do to ltruss").  The fixture is
# tests/progs/forge/forge.c.

load helpers
bats_require_minimum_version 1.5.0

FORGE="$PROGS/forge"
SEL='libc:getenv,getppid,snprintf,read'
CORRUPT='(did the program write over its trace session?)'

# no_raw_controls FILE: FILE has no control byte but newline and tab, nor
# a byte above 0x7e.
no_raw_controls() {
	! LC_ALL=C grep -q -P '[\x00-\x08\x0b-\x1f\x7f-\xff]' "$1"
}

# last_line FILE: the last line of FILE.
last_line() {
	tail -n 1 "$1"
}

@test "a blob 0xfffffff9 bytes long (a string, an output): skipped with a warning, ltruss unharmed" {
	run_split ltruss -o trace -u "$SEL" "$FORGE" blob-len
	[ "$status" -eq 7 ]
	assert_equal "$(last_line trace)" "+++ exited (status 7) +++"
	[[ "$err" =~ ^"ltruss: warning: a corrupt event in the ring of thread "[0-9]+"; skipping it $CORRUPT"$ ]]
	# The forged calls are not shown, nor anything past their copies.
	run ! grep -q 'HOMEHOME' trace
	[ "$(grep -c '^libc:read([0-9]*, "\\0\\0\\0\\0", 4) = 4$' trace)" -eq 2 ]
}

@test "a record of no kind that says it is 0 bytes long: skipped with a warning, never read again and again (-o, --json, -w)" {
	for opts in "-o trace" "--json -o trace" "-w t.ltr"; do
		# shellcheck disable=SC2086
		run_split timeout -k 2 20 "$LTRUSS" $opts -u "$SEL" "$FORGE" zero-size </dev/null
		[ "$status" -eq 7 ]
		[[ "$err" =~ ^"ltruss: warning: a corrupt event in the ring of thread "[0-9]+"; skipping the rest of it $CORRUPT" ]]
	done
	ltruss --read t.ltr -o trace
	assert_equal "$(last_line trace)" "+++ exited (status 7) +++"
}

@test "a ring head 2^62 ahead: ltruss neither spins nor replays; the program finishes" {
	run_split timeout -k 2 20 "$LTRUSS" -o trace -u "$SEL" "$FORGE" head </dev/null
	[ "$status" -eq 7 ]
	assert_equal "$(last_line trace)" "+++ exited (status 7) +++"
	[[ "$err" == *"skipping what it holds $CORRUPT" ]]
	# The ring's worth the program forged (64K / 128 bytes, and one), once.
	calls=$(grep -c '^libc:getenv(.*) <no return \.\.\.>$' trace)
	[ "$calls" -le $((1048576 / 128 + 1)) ]
}

@test "a thread's slot taken past a thread count written down before ltruss read it: its ring is drained, nothing waits for ever" {
	run_split timeout -k 2 20 "$LTRUSS" --buffer 64K -o trace -u "$SEL" "$FORGE" hidden-thread </dev/null
	[ "$status" -eq 7 ]
	assert_equal "$(last_line trace)" "+++ exited (status 7) +++"
	# The thread's 2000 calls of getppid, and the main thread's 2.  (On
	# 176b43e this timed out, unless ltruss happened to read the count in
	# the microseconds it said 301: 6 runs of 6 on a quiet machine.)
	[ "$(grep -c 'libc:getppid() = ' trace)" -eq 2002 ]
}

@test "-c: the same thread's calls are counted" {
	run_split timeout -k 2 20 "$LTRUSS" -c -o summary -u "$SEL" "$FORGE" hidden-thread </dev/null
	[ "$status" -eq 7 ]
	# 2000 + 2 calls of getppid, as above (on 176b43e: 2, the thread's missing).
	grep -Eq ' 2002 +0 libc:getppid$' summary
}

@test "a ring tail written back to 0 once ltruss drained the ring: ltruss hands its own back, nothing waits for ever" {
	run_split timeout -k 2 20 "$LTRUSS" --buffer 64K -o trace -u "$SEL" "$FORGE" tail </dev/null
	[ "$status" -eq 7 ]
	assert_equal "$(last_line trace)" "+++ exited (status 7) +++"
	# The two calls() after the forged tail, shown like the others.
	[ "$(grep -c '^libc:getppid() = ' trace)" -ge 2 ]
}

# signal_forged_head MODE SIG...: run forge head MODE in the background,
# send ltruss each SIG once it has read the forged head (the program
# ignores them by then); ltruss's status in $status.
signal_forged_head() {
	local mode=$1 sig ltruss_pid

	shift
	timeout -k 5 60 "$LTRUSS" -o trace -u "$SEL" "$FORGE" head "$mode" \
		</dev/null 2>err 3>&- &
	pid=$!
	for i in $(seq 1 300); do
		grep -q 'skipping what it holds' err 2>/dev/null && break
		sleep 0.1
	done
	ltruss_pid=$(pgrep -P "$pid")
	for sig in "$@"; do
		kill -"$sig" "$ltruss_pid"
		sleep 0.3
	done
	status=0
	wait "$pid" || status=$?
}

@test "SIGTERM to ltruss after a forged head: passed on, and ltruss ends with the program" {
	signal_forged_head wait TERM
	[ "$status" -eq 143 ]
	assert_equal "$(last_line trace)" "+++ killed by SIGTERM +++"
}

@test "a program that ignores SIGINT and SIGTERM: the second one stops ltruss, the program runs on untraced" {
	signal_forged_head ignore TERM INT
	[ "$status" -eq 130 ]
	line=$(grep 'interrupted twice' err)
	[[ "$line" =~ ^"ltruss: warning: interrupted twice (SIGINT): ltruss stops, and the program (pid "([0-9]+)") runs on untraced"$ ]]
	prog=${BASH_REMATCH[1]}
	kill -KILL "$prog"
	run ! grep -q '+++' trace
}

@test "strings_used near 2^32: the interposer writes no name outside the session (dlopen)" {
	run_split ltruss -o trace -u "$SEL" "$FORGE" strings-used
	[ "$status" -eq 7 ]
	assert_equal "$(last_line trace)" "+++ exited (status 7) +++"
	[ "$(grep -c '^libc:getppid() = ' trace)" -eq 3 ]
}

@test "control characters and bad UTF-8 in names: escaped in lines, the summary and --json" {
	forged='lib\x1b[31m:f\x0a+++\x20exited\x20(status\x200)\x20+++\x0a\xff\xfe'
	run_split ltruss -o trace -u "$SEL" "$FORGE" names
	[ "$status" -eq 7 ]
	no_raw_controls trace
	[ "$(grep -c '^+++ exited' trace)" -eq 1 ]
	assert_equal "$(last_line trace)" "+++ exited (status 7) +++"
	grep -qF "$forged(" trace
	run_split ltruss -c -o summary -u "$SEL" "$FORGE" names
	[ "$status" -eq 7 ]
	no_raw_controls summary
	grep -qE " 1 +0 $(sed 's/[][\\.()+]/\\&/g' <<<"$forged")\$" summary
	run_split ltruss --json -o trace.json -u "$SEL" "$FORGE" names
	[ "$status" -eq 7 ]
	/usr/bin/python3 -c '
import json, sys
funcs = []
with open(sys.argv[1], "rb") as f:
    for line in f:
        funcs.append(json.loads(line.decode("utf-8", "strict")).get("func"))
assert "f\\x0a+++\\x20exited\\x20(status\\x200)\\x20+++\\x0a\\xff\\xfe" in funcs, funcs
' trace.json
}

@test "--chrome: a program path with bad UTF-8 in the object table is valid JSON" {
	cp "$FORGE" $'prog\xff\xfe\x1b'
	run_split ltruss --chrome trace.json -o trace -u "$SEL" ./$'prog\xff\xfe\x1b' caller /nonexistent/lib
	[ "$status" -eq 7 ]
	/usr/bin/python3 -c '
import json, sys
names = [e["args"]["name"] for e in json.load(open(sys.argv[1], encoding="utf-8"))["traceEvents"] if e["ph"] == "M"]
assert names == ["prog\\xff\\xfe\x1b"], names
' trace.json
}

@test "a thread id beyond pid_max in a forged thread event: refused, never printed" {
	run_split ltruss -o trace -u "$SEL" "$FORGE" pids
	[ "$status" -eq 7 ]
	[[ "$err" == *"skipping it $CORRUPT" ]]
	run ! grep -q '18446744072375762944' trace
	run ! grep -q '^\[pid' trace
	assert_equal "$(last_line trace)" "+++ exited (status 7) +++"
}

@test "a ring's count of dropped events forged: left out with a warning, never printed" {
	run_split ltruss -o trace -u "$SEL" "$FORGE" dropped
	[ "$status" -eq 7 ]
	assert_equal "$(last_line trace)" "+++ exited (status 7) +++"
	assert_equal "$err" "ltruss: warning: 1 thread slot says it dropped more events than the run lasted nanoseconds; left out of the count of dropped events $CORRUPT"
	# Recorded, the file carries no forged count either.
	run_split ltruss -w t.ltr -u "$SEL" "$FORGE" dropped
	[ "$status" -eq 7 ]
	run_split ltruss --read t.ltr -o trace
	[ "$status" -eq 0 ]
	[[ "$err" != *6139169733415101650* ]]
	[ "$(grep -c 'events were dropped' <<<"$err")" -eq 0 ]
}

@test "a process that records 'exited 0' and is then killed: the exit line is the kernel's" {
	run_split ltruss -o trace -u "$SEL" "$FORGE" exited-killed
	[ "$status" -eq 137 ]
	assert_equal "$(grep '^+++' trace)" "+++ killed by SIGKILL +++"
}

@test "-f: a reported child's process entry rewritten with the parent's pid: the parent's end still shows" {
	run_split ltruss -f -o trace -u "$SEL" "$FORGE" rewrite-reported
	[ "$status" -eq 7 ]
	[ "$(grep -c '+++ exited (status 3) +++$' trace)" -eq 1 ]
	[[ "$(last_line trace)" =~ ^"[pid "[0-9]+"] +++ exited (status 7) +++"$ ]]
}

@test "a process entry that keeps naming new pid namespaces costs ltruss a few /proc scans, not one a look" {
	# LeakSanitizer (maint/check-asan) cannot run under ptrace.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run strace -f -qq -o st.log -e trace=openat "$LTRUSS" -o trace -u "$SEL" "$FORGE" pidns-flip 1
	[ "$status" -eq 7 ]
	[ "$(last_line trace)" = "+++ exited (status 7) +++" ]
	scans=$(grep -c 'openat(AT_FDCWD, "/proc", ' st.log)
	[ "$scans" -le 8 ] || { echo "$scans scans of /proc"; false; }
}

@test "a blocking call popped by a hidden call's return, then a forged exec: the partial line ends once" {
	run_split ltruss -o trace -u "$SEL" "$FORGE" partial
	[ "$status" -eq 7 ]
	assert_equal "$(last_line trace)" "+++ exited (status 7) +++"
	[ "$(grep -c 'libc:getenv(NULL) <unfinished \.\.\.>$' trace)" -eq 1 ]
	[ "$(grep -c '^libc:getenv(NULL) <no return \.\.\.>$' trace)" -eq 2 ]
}

@test "--caller: an object path naming a FIFO is never opened" {
	mkfifo fifo
	# A writer that opens the FIFO only once something opens it to read.
	(timeout 3 sh -c 'exec 3>fifo; touch opened' || true) &
	writer=$!
	run_split ltruss --caller -o trace -u "$SEL" "$FORGE" caller "$PWD/fifo"
	wait "$writer"
	[ "$status" -eq 7 ]
	[ ! -e opened ]
	grep -q '^libc:getppid() = [0-9]* \[from fifo+0x[0-9a-f]*\]$' trace
}

@test "--caller: ltruss opens no device and no empty /proc file the object table names" {
	# LeakSanitizer (maint/check-asan) cannot run under ptrace.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	for path in /dev/zero /proc/kmsg; do
		run_split strace -o opens -e trace=open,openat "$LTRUSS" --caller \
			-o trace -u "$SEL" "$FORGE" caller "$path" </dev/null
		[ "$status" -eq 7 ]
		run ! grep -F "\"$path\"" opens
		grep -q "^libc:getppid() = [0-9]* \[from ${path##*/}+0x[0-9a-f]*\]\$" trace
	done
}

@test "-c's hints (what one colon misses inside an object) open no FIFO nor device the object table names" {
	mkfifo fifo
	(timeout 3 sh -c 'exec 3>fifo; touch opened' || true) &
	writer=$!
	run_split ltruss -c -o summary -u "$SEL" "$FORGE" caller "$PWD/fifo"
	wait "$writer"
	[ "$status" -eq 7 ]
	[ ! -e opened ]
	grep -Eq ' libc:getppid$' summary
	# the objects ltruss does read, libc among them: said
	grep -q "^ltruss: warning: libc:snprintf is also called from inside libc (" <<<"$err"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run_split strace -o opens -e trace=open,openat "$LTRUSS" -c -o summary \
		-u "$SEL" "$FORGE" caller /dev/zero </dev/null
	[ "$status" -eq 7 ]
	run ! grep -F '"/dev/zero"' opens
}

@test "--caller: an object record mapped at a time to come counts as mapped since the start, live and read" {
	# Live, ltruss copies the record after the process wrote it: a later
	# time is forged.  Taken at its word, it would hide the object from
	# every call, and a file recorded with it from --read.
	run_split ltruss --caller -o trace -u "$SEL" "$FORGE" caller /nonexistent/later 0xfffffffffffffff0
	[ "$status" -eq 7 ]
	[ "$(grep -c '^libc:getppid() = [0-9]* \[from later+0x[0-9a-f]*\]$' trace)" -ge 2 ]
	run_split ltruss -w t.ltr -u "$SEL" "$FORGE" caller /nonexistent/later 0xfffffffffffffff0
	[ "$status" -eq 7 ]
	ltruss --read t.ltr --caller -o read
	[ "$(grep -c '^libc:getppid() = [0-9]* \[from later+0x[0-9a-f]*\]$' read)" -ge 2 ]
}

@test "--caller: an object path with control characters prints escaped" {
	run_split ltruss --caller -o trace -u "$SEL" "$FORGE" caller $'/nonexistent/a\nb\x1b'
	[ "$status" -eq 7 ]
	no_raw_controls trace
	grep -q '^libc:getppid() = [0-9]* \[from a\\x0ab\\x1b+0x[0-9a-f]*\]$' trace
}

@test "--folded and --tree keep at most 65536 call paths and say how many calls they summed" {
	run_split ltruss --folded folded --tree -o trace -u "$SEL" "$FORGE" paths 300
	[ "$status" -eq 7 ]
	# 300 outer paths, 90000 inner ones, and the 4 of the program's own calls.
	cut=$((300 + 300 * 300 + 4 - 65536))
	assert_equal "$err" "ltruss: warning: $cut calls on call paths past the first 65536 were summed as '[other paths]' (--tree, --folded)"
	[ "$(wc -l < folded)" -eq 65537 ]
	grep -q '^\[other paths\] [0-9]*$' folded
	[ "$(grep -c ' \[other paths\]$' trace)" -eq 1 ]
}

# fuzz SEED SECS [OPTIONS...]: forge fuzz for SECS under ltruss, checked
# by tests/fuzz/forge-run (the checks make fuzz runs for minutes).
fuzz() {
	"$SRCDIR/tests/fuzz/forge-run" "$LTRUSS" "$FORGE" "$BATS_TEST_TMPDIR" "$@"
}

@test "fuzz: random writes over the whole session for 2 s (seeds 1-3): no crash, no hang, no absurd value" {
	for seed in 1 2 3; do
		fuzz "$seed" 2
	done
}

@test "fuzz: the same with --json -C (seed 4), and with -f --caller -T (seed 5)" {
	fuzz 4 2 --json -C
	fuzz 5 2 -f --caller -T
}

@test "fuzz: the same with -k (seed 6), and -k --json --folded (seed 7): stack blobs and object records forged too" {
	fuzz 6 2 -k
	fuzz 7 2 -k --json --folded "$BATS_TEST_TMPDIR/folded"
}

@test "fuzz: two busy threads, forged records of calls formatted on workers (rounds apart forced), text and --json (seeds 9, 11): no crash, no hang" {
	local apart=0 n seed
	for seed in 9 11; do
		LTRUSS_DEBUG_APART=1 LTRUSS_DEBUG_SEGMENTS=1 FORGE_BUSY=1 fuzz "$seed" 2
		n=$(sed -n 's/.* \([0-9]*\) rounds apart of .*/\1/p' "$BATS_TEST_TMPDIR/err")
		apart=$((apart + n))
	done
	LTRUSS_DEBUG_APART=1 LTRUSS_DEBUG_SEGMENTS=1 FORGE_BUSY=1 fuzz 9 2 --json
	n=$(sed -n 's/.* \([0-9]*\) rounds apart of .*/\1/p' "$BATS_TEST_TMPDIR/err")
	apart=$((apart + n))
	# The workers did take forged rings (their timing decides how many
	# rounds: 50 to 67 a run here, an AddressSanitizer build included,
	# which formats them on workers as the sanitizer watches: the forge
	# pauses its forging 56 ms in 64 so that some rounds hold calls alone).
	[ "$apart" -gt 0 ]
}

@test "fuzz: seed 14 with --caller -C: a thread count written down before ltruss read it hides no ring, nothing waits for ever" {
	# On 176b43e the program's only thread waited for room in a ring that
	# ltruss never drained, and forge-run timed out.
	fuzz 14 4 --caller -C
}

@test "the same forged partial line and exec, ltruss under memcheck: no access to freed memory" {
	# An ASan build (maint/check-asan) checks that itself, and cannot run under valgrind.
	memcheck="timeout -k 5 120 valgrind -q --error-exitcode=9"
	ldd "$LTRUSS" | grep -q libasan && memcheck=
	run_split $memcheck "$LTRUSS" -o trace -u "$SEL" "$FORGE" partial </dev/null
	[ "$status" -eq 7 ] || { echo "$err"; false; }
	assert_equal "$(last_line trace)" "+++ exited (status 7) +++"
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# trace-lines.bats: the event transport and the line formats (ltruss(1),
# OUTPUT FORMAT, and --json).

load helpers

@test "a full trace to a file has every line, in order" {
	run_split ltruss -o trace.txt -u 'libfix:fix_add' "$PROGS/fix-lazy" 200000
	[ "$status" -eq 0 ]
	[ -z "$err" ]
	[ "$(head -1 <<<"$out")" = "add 1000000" ]
	[ "$(grep -c '^libfix:fix_add(0x2, 0x3, .*) = 0x5$' trace.txt)" -eq 200000 ]
	[ "$(tail -1 trace.txt)" = "+++ exited (status 0) +++" ]
}

@test "-T appends the time spent in the call" {
	run_split ltruss -T -u 'libc:usleep' /bin/sh -c 'sleep 0.05'
	run_split ltruss -T -u 'libfix:fix_add' "$PROGS/fix-lazy" 1
	[ "$status" -eq 0 ]
	grep -Eqx 'libfix:fix_add\(0x2, 0x3, .*\) = 0x5 <0\.[0-9]{6}>' <<<"$err"
}

@test "a call's time starts once ltruss has copied its arguments (-T, --json)" {
	run_split ltruss --json -F "$SRCDIR/tests/progs/typed/typed.yaml" \
		-u 'libtyped:ty_string' "$PROGS/stk-slowcopy"
	[ "$status" -ne 77 ] || skip "this system gives no userfaultfd"
	[ "$status" -eq 0 ]
	[ "$out" = "1 from the page" ]
	# The string's page arrives only after the server thread's call has
	# returned: the traced call cannot have started before that.
	run jq -rs '(map(select(.args == ["\"from the server\""]))[0] | .ts + .dur_ns) as $served |
		map(select(.args == ["\"from the page\""]))[0].ts >= $served' <<<"$err"
	[ "$output" = "true" ] || fail "the call started while its argument was copied: $err"
}

@test "-T measures a blocking call" {
	run_split ltruss -T -u 'libc:usleep' "$PROGS/blocker"
	[ "$status" -eq 0 ]
	# usleep(400 ms): between 0.39 and 2 seconds
	grep -Eq 'libc:usleep resumed> = 0 <(0\.(39|[4-9])|1\.)[0-9]*>$|libc:usleep\(400000\) = 0 <(0\.(39|[4-9])|1\.)[0-9]*>$' <<<"$err"
}

@test "-t, -tt and -ttt prefix the time of day or the epoch" {
	run_split ltruss -t -u 'libfix:fix_add' "$PROGS/fix-lazy" 1
	grep -Eqx '[0-2][0-9]:[0-5][0-9]:[0-6][0-9] libfix:fix_add\(0x2, 0x3, .*\) = 0x5' <<<"$err"
	grep -Eqx '[0-2][0-9]:[0-5][0-9]:[0-6][0-9] \+\+\+ exited \(status 0\) \+\+\+' <<<"$err"
	run_split ltruss -tt -u 'libfix:fix_add' "$PROGS/fix-lazy" 1
	grep -Eqx '[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{6} libfix:fix_add\(0x2, 0x3, .*\) = 0x5' <<<"$err"
	before=$(date +%s)
	run_split ltruss -ttt -u 'libfix:fix_add' "$PROGS/fix-lazy" 1
	after=$(date +%s)
	line=$(grep 'fix_add(0x2' <<<"$err" | head -1)
	[[ "$line" =~ ^([0-9]+)\.[0-9]{6}\ libfix:fix_add ]]
	[ "${BASH_REMATCH[1]}" -ge "$before" ]
	[ "${BASH_REMATCH[1]}" -le "$after" ]
}

@test "-r prefixes the time since the previous line" {
	run_split ltruss -r -u 'libc:usleep,getppid' "$PROGS/blocker"
	[ "$status" -eq 0 ]
	grep -Eq '^[0-9]+\.[0-9]{6} ' <<<"$err"
	# the resumed usleep comes about 0.25 s after the last getppid
	grep -Eq '^\[pid [0-9]+\] 0\.(2[0-9]|[3-9][0-9])[0-9]{4} <\.\.\. libc:usleep resumed> = 0$' <<<"$err"
}

@test "a blocking call is shown at once, and interleaving threads get unfinished/resumed" {
	run_split ltruss -u 'libc:usleep,getppid' "$PROGS/blocker"
	[ "$status" -eq 0 ]
	[ "$out" = "done" ]
	main=$(grep -o '^\[pid [0-9]*\] <\.\.\. libc:usleep' <<<"$err" | grep -o '[0-9]*')
	run sed -E 's/\[pid [0-9]+\]/[pid N]/; s/getppid\(\) = [0-9]+$/getppid() = PPID/' <<<"$err"
	assert_line --index 0 'libc:usleep(400000) <unfinished ...>'
	assert_line --index 1 --regexp '^\[pid N\] libc:getppid\(.*\) = PPID$'
	assert_line --index 3 --regexp '^\[pid N\] libc:getppid\(.*\) = PPID$'
	assert_line --index 4 '[pid N] <... libc:usleep resumed> = 0'
	assert_line --index 5 '+++ exited (status 0) +++'
	[ -n "$main" ]
}

@test "a blocking call's entry reaches the output before it returns" {
	# cat's read of a FIFO returns only once the test closes its end:
	# no timing decides whether the entry came out first (a fixed
	# 300 ms wait failed at load 19).
	mkfifo in
	"$LTRUSS" -o live.txt -u 'libc:read' cat <in >/dev/null &
	pid=$!
	exec 7>in
	for i in $(seq 1 400); do
		[ -s live.txt ] && break
		sleep 0.05
	done
	live=$(cat live.txt)
	exec 7>&-
	wait "$pid"
	# The entry as far as it prints before the call ends (the buffer is
	# shown at the return).
	[ "$live" = "libc:read(0, " ]
	grep -Eqx 'libc:read\(0, "", [0-9]+\) = 0' live.txt
}

@test "a program whose calls never pause for long: its lines reach -o FILE while it runs" {
	# a call about every 20 us: each pass over the rings finds one or two
	"$LTRUSS" -o live.txt -u 'libfix:fix_add' "$PROGS/trickle" stop 20 </dev/null >prog.out 2>ltruss.err &
	pid=$!
	for ((i = 0; i < 500; i++)); do
		[ -s live.txt ] && break
		sleep 0.02
	done
	touch stop
	wait "$pid"
	calls=$(sed -n 's/^calls \([0-9]*\) .*/\1/p' prog.out)
	# out as they come, not once ltruss's 512 KiB block is full (20 000 lines)
	[ "$calls" -lt 10000 ]
	[ "$(grep -c '^libfix:fix_add(' live.txt)" -eq "$calls" ]
}

@test "ltruss waits for its program without a system call at each pass over the rings" {
	command -v strace >/dev/null || fail "strace is needed"
	# LeakSanitizer (maint/check-asan) cannot run under ptrace.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	# 200 calls spread over ~200 ms: hundreds of passes that find a call or two
	run_split timeout 60 strace -o sys -e trace=wait4,waitid,sched_yield \
		"$LTRUSS" -o trace -u 'libfix:fix_add' "$PROGS/slow" 200 200 slow.out
	[ "$status" -eq 0 ]
	[ "$(grep -c 'fix_add(' trace)" -eq 200 ]
	[ "$(cat slow.out)" = "done 20100" ]
	# one wait4 for the program's end (and one more that finds nothing), no spinning
	[ "$(grep -c '^wait4(' sys)" -le 3 ]
	[ "$(grep -c '^sched_yield(' sys || true)" -eq 0 ]
}

@test "-o FILE: the trace reaches the file in blocks of 384 KiB or more, text and --json alike" {
	command -v strace >/dev/null || fail "strace is needed"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run_split ltruss -w rec.ltr -u 'libfix:fix_add' "$PROGS/fix-lazy" 200000
	[ "$status" -eq 0 ]
	for json in "" --json; do
		# --read writes only whole blocks: no pause of a program to flush at
		run_split timeout 120 strace -f -qq -P "$PWD/trace" -e trace=write -o sys \
			"$LTRUSS" --read rec.ltr $json -o trace
		[ "$status" -eq 0 ]
		[ "$(grep -c 'fix_add' trace)" -gt 200000 ]
		writes=$(grep -c 'write(' sys)
		bytes=$(stat -c %s trace)
		# each write(2) hands the file a block, not a stdio buffer of 256 KiB
		[ "$writes" -ge 2 ]
		[ "$((bytes / (writes - 1)))" -ge $((384 * 1024)) ]
	done
}

@test "-o FILE of a long trace: the file holds what stdout would, and no blocks reserved past its end" {
	# ltruss reserves the file's blocks 16 MiB ahead of its writes once
	# it passes 1 MiB (output.c), and releases the rest when done.
	run_split ltruss -w rec.ltr -u 'libfix:fix_add' "$PROGS/fix-lazy" 200000
	[ "$status" -eq 0 ]
	for json in "" --json; do
		run_split ltruss --read rec.ltr $json
		[ "$status" -eq 0 ]
		printf '%s\n' "$out" >expected$json
		run_split ltruss --read rec.ltr $json -o trace
		[ "$status" -eq 0 ]
		cmp expected$json trace
		bytes=$(stat -c %s trace)
		[ "$bytes" -gt $((4 << 20)) ]
		# what the file holds, and less than a reservation past it
		[ "$(($(stat -c '%b * %B' trace)))" -lt $((bytes + (4 << 20))) ]
	done
	# and live, as the program runs
	run_split ltruss -o live -u 'libfix:fix_add' "$PROGS/fix-lazy" 200000
	[ "$status" -eq 0 ]
	bytes=$(stat -c %s live)
	[ "$bytes" -gt $((4 << 20)) ]
	[ "$(($(stat -c '%b * %B' live)))" -lt $((bytes + (4 << 20))) ]
	[ "$(grep -c '^libfix:fix_add(' live)" -eq "$(grep -c '^libfix:fix_add(' expected)" ]
}

@test "-o FILE holds what stdout would (--read): -k's frames under their call, -C's summary after the lines, text and --json" {
	run_split ltruss -w rec.ltr -k -u 'libc:puts' -u 'libfix:fix_add' "$PROGS/stacks-chain"
	[ "$status" -eq 0 ]
	for json in "" --json; do
		run_split ltruss --read rec.ltr -k -C $json -o trace
		[ "$status" -eq 0 ]
		[ -z "$err" ]
		[ -z "$out" ]
		run_split ltruss --read rec.ltr -k -C $json
		[ "$status" -eq 0 ]
		[ -z "$err" ]
		[ "$out" = "$(cat trace)" ]
		grep -q ' > \|"stack":\[{' trace
		grep -q '^------' trace
	done
}

@test "--json: one valid object a line, with the keys ltruss(1) lists under --json" {
	command -v jq >/dev/null || fail "jq is needed"
	run_split ltruss --json -u 'libfix::*' "$PROGS/fix-lazy" 1
	[ "$status" -eq 0 ]
	run jq -c 'select(.type != "exited") | [has("type","pid","tid","ts","lib","func","depth","args","ret","errno","dur_ns")] | all' <<<"$err"
	assert_success
	[ "${#lines[@]}" -eq 6 ]
	refute_output --partial false
	run jq -r '[.type, .func // "-", (.ret // "-")] | join(" ")' <<<"$err"
	assert_output "call fix_add 0x5
call fix_add 0x2a
enter fix_twice -
call fix_add 0x2a
exit fix_twice 0x2a
call fix_pick 0x46
exited - -"
	run jq -r 'select(.func == "fix_add") | .args | join(",")' <<<"$err"
	assert_line --index 0 --regexp '^0x2,0x3,'
	run jq -e 'select(.type == "exited") | .status == 0' <<<"$err"
	assert_success
}

# The times of REC's lines, one a line: --read --json's "ts" cut to
# seconds.microseconds (cut as text: jq's numbers have 17 digits), then
# -ttt's, each in its line's order.
json_ts_and_ttt() {
	ltruss --read "$1" --json |
		sed -n 's/^{"type":"[a-z]*","pid":[0-9]*,"tid":[0-9]*,"ts":\([0-9]*\),.*/\1/p' |
		awk '{ n = length($0); print substr($0, 1, n - 9) "." substr($0, n - 8, 6) }' >json.ts
	ltruss --read "$1" -ttt | awk '{ print $1 == "[pid" ? $3 : $1 }' >ttt.ts
}

@test "--json's ts, whose digits each formatting thread keeps from one object to the next, is -ttt's time: many calls a microsecond, 1 ms apart, across seconds, busy threads" {
	# Bursts of 25 calls 1 ms apart, over 1.2 s: objects of the same
	# microsecond (the last 3 digits written), of another microsecond of
	# the same second (the 9 below the seconds) and of the next second
	# (all of them).
	run_split ltruss -w slow.ltr -u 'libfix:fix_add' "$PROGS/slow" 30000 1200 slow.out
	[ "$status" -eq 0 ]
	json_ts_and_ttt slow.ltr
	[ "$(wc -l <json.ts)" -eq 30001 ]
	cmp json.ts ttt.ts
	[ "$(cut -d. -f1 json.ts | uniq | wc -l)" -ge 2 ]
	[ "$(uniq json.ts | wc -l)" -lt 30000 ]
	[ "$(uniq json.ts | wc -l)" -ge 1000 ]
	# Four threads' rings merged: a time may follow a later one.
	run_split ltruss -w busy.ltr -u 'libfix:fix_add' "$PROGS/busythreads" 4 20000
	[ "$status" -eq 0 ]
	json_ts_and_ttt busy.ltr
	[ "$(wc -l <json.ts)" -eq 80001 ]
	cmp json.ts ttt.ts
}

@test "--json for a killed program and for calls that never return" {
	run_split ltruss --json -u 'libfix:*' "$PROGS/die" 3 kill
	[ "$status" -eq 137 ]
	run jq -r 'select(.type == "killed") | .signal' <<<"$err"
	assert_output SIGKILL
	run jq -s 'map(select(.type == "call")) | length' <<<"$err"
	assert_output 3
}

@test "killed by SIGKILL mid-trace: every call completed before is printed" {
	run_split ltruss -u 'libfix:*' "$PROGS/die" 50000 kill
	[ "$status" -eq 137 ]
	[ "$(grep -c '^libfix:fix_add(' <<<"$err")" -eq 50000 ]
	grep -qx 'libfix:fix_add(0xc34f, 0x1, .*) = 0xc350' <<<"$err"
	[ "$(tail -1 <<<"$err")" = "+++ killed by SIGKILL +++" ]
}

# kill_tracer PID: SIGKILL ltruss PID (tracing the slow fixture into
# slow.out) after 0.2 s; its orphaned program must then finish on its own.
kill_tracer() {
	sleep 0.2
	kill -KILL "$1"
	wait "$1" || true
	for i in $(seq 1 100); do
		[ -s slow.out ] && break
		sleep 0.1
	done
	[ "$(cat slow.out)" = "done 4500001500000" ]
}

@test "ltruss killed: the program goes on untraced and finishes" {
	"$LTRUSS" -o trace.txt -u 'libfix:*' "$PROGS/slow" 3000000 400 "$PWD/slow.out" </dev/null 2>ltruss.err &
	kill_tracer $!
	[ "$(grep -c '^libfix:fix_add' trace.txt)" -gt 0 ]
}

@test "the trace's reader goes away (| head): ltruss ends quietly, the program runs on unharmed" {
	plain=$("$PROGS/spin" 1 200000)
	"$LTRUSS" -u 'libfix:fix_add' "$PROGS/spin" 1 200000 2>&1 >out.txt </dev/null | head -1 >first.txt
	statuses=("${PIPESTATUS[@]}")
	# The program's own status and all of its output: it was never signalled.
	[ "${statuses[0]}" -eq 0 ]
	[ "$(cat out.txt)" = "$plain" ]
	[ "$(cat first.txt)" = "libfix:fix_add(0, 0x1, 0) = 0x1" ]
}

@test "ltruss killed while the program's stderr is a pipe nobody reads: the program still finishes" {
	mkfifo gone
	# The pipe's only reader closes it at once; the program inherits it as stderr.
	(exec 3<gone; exec 3<&-) &
	reader=$!
	"$LTRUSS" -o trace.txt -u 'libfix:*' "$PROGS/slow" 3000000 400 "$PWD/slow.out" </dev/null 2>gone &
	pid=$!
	wait "$reader"
	# No "ltruss has gone away" written into the dead pipe, no SIGPIPE.
	kill_tracer "$pid"
}

@test "seccomp, strict or a filter: ltruss's own system calls never kill the program, every call is traced" {
	for mode in strict filter; do
		plain=$("$PROGS/sandboxed" "$mode" 200000)
		# Small rings: the program waits for ltruss again and again.
		run_split ltruss --buffer 64K -o trace.txt -u 'libfix:fix_add' "$PROGS/sandboxed" "$mode" 200000
		[ "$status" -eq 0 ]
		[ "$out" = "$plain" ]
		[ -z "$err" ]
		[ "$(grep -c '^libfix:fix_add(' trace.txt)" -eq 200001 ]
		[ "$(tail -1 trace.txt)" = "+++ exited (status 0) +++" ]
	done
}

@test "ltruss killed and never reaped (a zombie): the program goes on untraced and finishes" {
	# python starts ltruss and does not reap it: bash would, on SIGCHLD
	run /usr/bin/python3 - "$LTRUSS" "$PROGS/slow" "$PWD" <<'EOF'
import os, signal, subprocess, sys, time
ltruss, slow, d = sys.argv[1:4]
p = subprocess.Popen([ltruss, "--buffer", "64K", "-o", d + "/trace.txt",
                      "-u", "libfix:*", slow, "3000000", "400",
                      d + "/slow.out"], stdin=subprocess.DEVNULL,
                     stderr=open(d + "/ltruss.err", "w"))
time.sleep(0.3)
children = open("/proc/%d/task/%d/children" % (p.pid, p.pid)).read().split()
os.kill(p.pid, signal.SIGSTOP)   # the program fills its small ring and waits
time.sleep(0.3)
os.kill(p.pid, signal.SIGKILL)   # ltruss dies, and stays a zombie
for i in range(150):
    if os.path.exists(d + "/slow.out") and os.path.getsize(d + "/slow.out"):
        break
    time.sleep(0.1)
stat = open("/proc/%d/stat" % p.pid).read()
print("ltruss state", stat[stat.rindex(")") + 2])
for pid in children:             # a program still waiting: do not leave it
    try:
        os.kill(int(pid), signal.SIGKILL)
    except ProcessLookupError:
        pass
p.wait()
EOF
	assert_output "ltruss state Z"
	[ "$(cat slow.out)" = "done 4500001500000" ]
	[ "$(grep -c '^libfix:fix_add' trace.txt)" -gt 0 ]
	grep -qx 'ltruss: ltruss has gone away: the program runs on untraced' ltruss.err
}

# run_stalled OPTIONS...: trace the slow fixture (200000 calls over 400 ms)
# to trace.txt while ltruss is stopped for 0.6 s; its stderr in ltruss.err.
run_stalled() {
	"$LTRUSS" "$@" -o trace.txt -u 'libfix:fix_add' "$PROGS/slow" 200000 400 "$PWD/slow.out" </dev/null 2>ltruss.err &
	pid=$!
	# Stop ltruss once the program runs (a slow start, as under ASan, would
	# otherwise stop it before it has started the program at all).
	for _ in $(seq 100); do
		[ -n "$(cat "/proc/$pid/task/$pid/children" 2>/dev/null)" ] && break
		sleep 0.05
	done
	kill -STOP "$pid"
	sleep 0.6
	kill -CONT "$pid"
	wait "$pid"
}

@test "a stalled ltruss makes the program wait: nothing is lost" {
	run_stalled
	[ "$(cat slow.out)" = "done 20000100000" ]
	[ "$(grep -c '^libfix:fix_add(' trace.txt)" -eq 200000 ]
	grep -qx 'libfix:fix_add(0x30d3f, 0x1, .*) = 0x30d40' trace.txt
	[ ! -s ltruss.err ]
}

@test "--buffer 64K: a stalled ltruss makes the program wait on the small ring, nothing is lost" {
	run_stalled --buffer 64K
	[ "$(cat slow.out)" = "done 20000100000" ]
	[ "$(grep -c '^libfix:fix_add(' trace.txt)" -eq 200000 ]
	grep -qx 'libfix:fix_add(0x30d3f, 0x1, .*) = 0x30d40' trace.txt
	[ ! -s ltruss.err ]
}

@test "--buffer 64K -s 4096: printf's worst-case event fits however full the ring is" {
	# a printf event may take 60 KB: a PAD and the event at once would not fit
	plain=$("$PROGS/printfs" 3000)
	run_split ltruss --buffer 64K -s 4096 -u 'libc:printf' "$PROGS/printfs" 3000
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$(grep -c '^libc:printf("line %d of %s\\n", [0-9]*, "printfs") = ' <<<"$err")" -eq 3000 ]
	grep -qx 'libc:printf("line %d of %s\\n", 2999, "printfs") = 21' <<<"$err"
}

# spin_complete FILE THREADS CALLS: the JSON Lines trace FILE of the spin
# fixture holds, for each of its THREADS threads, its CALLS calls of
# fix_add in the order made (the first argument counts 0, 1, 2... mod
# 65536), each with its return; "complete", or what is wrong.
spin_complete() {
	/usr/bin/python3 - "$@" <<'EOF'
import json, sys
path, threads, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
made, entered = {}, {}
for line in open(path):
    e = json.loads(line)
    if e.get("func") != "fix_add":
        continue
    # A call is one "call", or an "enter" then its "exit" (split by a wait).
    tid, n = e["tid"], made.get(e["tid"], 0)
    arg, ret = hex(n % 65536) if n % 65536 else "0", hex(n % 65536 + 1)
    if e["type"] != "exit" and (e["args"][:1] != [arg] or tid in entered):
        sys.exit("thread %d: call %d is %s" % (tid, n, line.strip()))
    if e["type"] == "enter":
        entered[tid] = True
        continue
    if e["ret"] != ret or (e["type"] == "exit") != entered.pop(tid, False):
        sys.exit("thread %d: call %d is %s" % (tid, n, line.strip()))
    made[tid] = n + 1
if len(made) != threads or set(made.values()) != {calls} or entered:
    sys.exit("calls made by each thread: %s" % made)
print("complete")
EOF
}

# A thread that finds its ring full waits until a quarter of it is free
# (lib/events.c): with 64K rings that four threads fill at once, and ltruss
# formatting JSON (slower than they call), they wait again and again.
@test "--buffer 64K, four threads keeping their rings full: every call of each, in order, live and recorded" {
	plain=$("$PROGS/spin" 4 50000)
	run_split ltruss --buffer 64K --json -o live.json -u 'libfix:fix_add' "$PROGS/spin" 4 50000
	assert_equal "$status" 0
	assert_equal "$out" "$plain"
	assert_equal "$err" ""
	run spin_complete live.json 4 50000
	assert_output complete

	run_split ltruss --buffer 64K -w rec.ltr -u 'libfix:fix_add' "$PROGS/spin" 4 50000
	assert_equal "$status" 0
	assert_equal "$out" "$plain"
	run_split ltruss --read rec.ltr --json -o read.json
	assert_equal "$status" 0
	run spin_complete read.json 4 50000
	assert_output complete
}

# The waits themselves: each one sleeps on the ring's futex (shared: the
# session is a shared mapping) until ltruss has freed a quarter of the ring,
# some 180 calls here; no sched_yield, no nanosleep from either side.
@test "--buffer 64K, rings kept full: the program sleeps on a futex until a quarter is free, never spins" {
	command -v strace >/dev/null || fail "strace is needed"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	plain=$("$PROGS/spin" 2 100000)
	run_split timeout 120 strace -f -qq -o sys -e trace=sched_yield,nanosleep,clock_nanosleep,futex,execve,clone,clone3 \
		"$LTRUSS" --buffer 64K --json -o live.json -u 'libfix:fix_add' "$PROGS/spin" 2 100000
	assert_equal "$status" 0
	assert_equal "$out" "$plain"
	run spin_complete live.json 2 100000
	assert_output complete
	# The program's threads: the one that exec'd spin, and those it cloned.
	prog=$(awk '/execve\("[^"]*\/spin"/ && / = 0$/ { p[$1] = 1 }
		/clone3?\(|clone3? resumed>/ && ($1 in p) && $NF ~ /^[0-9]+$/ { p[$NF] = 1 }
		END { for (t in p) print t }' sys)
	[ "$(wc -w <<<"$prog")" -eq 3 ] || fail "the program's threads not found: $prog"
	assert_equal "$(grep -E '(sched_yield|nanosleep)\(' sys | awk -v p=" $(echo $prog) " 'index(p, " " $1 " ")' | wc -l)" 0
	# ltruss's side too, but for AddressSanitizer's allocator, whose lock
	# yields when ltruss's threads contend for it.
	if ! ldd "$LTRUSS" | grep -q libasan; then
		assert_equal "$(grep -Ec '(sched_yield|nanosleep)\(' sys)" 0
	fi
	waits=$(grep -c 'futex(0x[0-9a-f]*, FUTEX_WAIT, ' sys || true)
	[ "$waits" -ge 1 ] || fail "the rings never filled: nothing tested"
	# 200000 calls, one wait or two a quarter of a ring
	[ "$waits" -le 2500 ] || fail "$waits futex waits"
}

# No lockstep: a thread that went on as soon as its next event fitted would
# write, a few events behind ltruss, the lines ltruss had just read.  One
# that finds its ring full goes on only once a quarter of it is free, so it
# stops once a quarter-ring at most.  LTRUSS_DEBUG_RINGS prints, for each
# ring, the times its thread stopped and the least room it went on with
# after one (on main's way: 6960 bytes of 65536).
@test "--buffer 64K, rings kept full: a thread that finds its ring full goes on only once a quarter of it is free" {
	plain=$("$PROGS/spin" 2 100000)
	LTRUSS_DEBUG_RINGS=1 run_split ltruss --buffer 64K --json -o live.json -u 'libfix:fix_add' "$PROGS/spin" 2 100000
	assert_equal "$status" 0
	assert_equal "$out" "$plain"
	run spin_complete live.json 2 100000
	assert_output complete
	rings=$(grep '^ltruss: debug: ring [0-9]*: ' <<<"$err") || fail "no ring stats: $err"
	# The two spinning threads' rings at least, each 100000 calls of 72 bytes.
	[ "$(awk '$5 >= 7200000' <<<"$rings" | wc -l)" -ge 2 ] || fail "$rings"
	stops=$(awk '{ s += $7 } END { print s }' <<<"$rings")
	[ "$stops" -ge 1 ] || fail "the rings never filled: nothing tested"
	# Never more stops than quarter-rings written.
	assert_equal "$(awk '$7 > $5 / 16384 + 1' <<<"$rings")" ""
	# Each ring that stopped went on with a quarter of it free, at least.
	assert_equal "$(awk '$7 > 0 && ($16 < 16384 || $18 != 65536)' <<<"$rings")" ""
}

# Without -o the trace and the interposer's warnings share stderr.  stdio
# wrote its buffer whenever the next bytes did not fit, cut inside a line,
# and a warning written then landed inside it: one --json -k run in five
# of calls nesting past 1024 was not JSON.  Each write of ltruss's ends a
# line now (a line under 64 KiB), so the warning stands on its own line.
@test "--json to stderr: every write ends a line, so the interposer's warning never lands inside one" {
	command -v strace >/dev/null || fail "strace is needed"
	# LeakSanitizer cannot run under ptrace (maint/check-asan).
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	plain=$("$PROGS/stk-deep" 1100)
	run_split timeout 120 strace -f -qq -s 1048576 -o sys -e trace=write \
		"$LTRUSS" --json -k -u 'libbhv:*' "$PROGS/stk-deep" 1100
	assert_equal "$status" 0
	assert_equal "$out" "$plain"
	writes=$(grep -c '^[0-9]* *write(2, ' sys)
	[ "$writes" -ge 4 ] || fail "$writes writes to stderr: too few to cut a line"
	# A write strace saw begin while another process wrote ends "<unfinished ...>".
	cut=$(grep '^[0-9]* *write(2, ' sys | grep -vEc '\\n", [0-9]+(\) = | <unfinished)' || true)
	assert_equal "$cut writes cut a line" "0 writes cut a line"
	assert_equal "$(grep -c '^ltruss: warning: more than 1024 traced calls in progress' <<<"$err")" 1
	grep -v '^ltruss: ' <<<"$err" | jq -c . >/dev/null || fail "a line of the trace is not JSON"
}

@test "--buffer 64K -f: processes one after another, each filling a ring another had, lose no call" {
	run_split ltruss --buffer 64K -f -o trace.txt -u 'libbhv:bhv_add3' "$PROGS/foot-seqprocs" 30 20000
	assert_equal "$status" 0
	assert_equal "$out" "30 processes, statuses 960"
	assert_equal "$(grep -c 'libbhv:bhv_add3(' trace.txt)" 600000
	assert_equal "$(grep -c '^\[pid [0-9]*\] +++ exited (status 32) +++$' trace.txt)" 30
}

# peak_rss_kib BUFFER THREADS CALLS: ltruss's peak RSS tracing spin with --buffer BUFFER.
peak_rss_kib() {
	# An ASan build (maint/check-asan) keeps freed memory in a quarantine
	# and frames on heap stacks: measure ltruss's memory, not those.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:detect_stack_use_after_return=0 \
		/usr/bin/time -o rss -f %M "$LTRUSS" --buffer "$1" -o trace.txt \
		-u 'libfix:fix_add' "$PROGS/spin" "$2" "$3" >/dev/null
	[ "$(grep -c '^libfix:fix_add(' trace.txt)" -eq $(($2 * $3)) ]
	cat rss
}

@test "--buffer sizes ltruss's memory: rings it chose, not the length of the trace" {
	small=$(peak_rss_kib 64K 4 300000)
	short=$(peak_rss_kib 64K 4 30000)
	big=$(peak_rss_kib 16M 4 300000)
	# Four rings of 16M, cycled through, against four of 64K.
	[ $((big - small)) -gt $((4 * 12 * 1024)) ]
	# Ten times the calls on the same rings: no more memory to speak of
	# (1.08 million more events: 2 bytes an event would show).  An ASan
	# build's own allocator grows by up to ~3 MiB, in steps, whatever the
	# code under test does (the same with builds of earlier commits), so
	# there the bound is 4 bytes an event.
	limit=2048
	[ -z "${ASAN_OPTIONS:-}" ] || limit=4096
	[ $((small - short)) -lt $limit ]
}

@test "--drop: a stalled ltruss makes events drop, and says how many" {
	run_stalled --drop
	[ "$(cat slow.out)" = "done 20000100000" ]
	grep -Eq '^ltruss: warning: [0-9]+ events were dropped \(--drop\): ltruss could not keep up$' ltruss.err
	[ "$(grep -c '^libfix:fix_add(' trace.txt)" -lt 200000 ]
}

@test "--buffer 64K --drop: a call of three integers takes 72 bytes of ring, so 900 calls fit while ltruss is stopped" {
	# stall stops ltruss, makes 2000 calls, then lets it go on: what the
	# trace shows is what one ring held.  An ENTER of three registers and
	# the return address, and an EXIT of %rax, each with a 16-byte header
	# (lib/session.h, struct ltr_rec): 72 bytes a call; 65536 / 72 = 910
	# (88 bytes a call with 24-byte headers: 744).
	"$LTRUSS" --drop --buffer 64K -o trace.txt -u 'libfix:fix_add' "$PROGS/stall" 2000 >stall.out 2>ltruss.err </dev/null
	[ "$(cat stall.out)" = "done 2001000" ]
	grep -qx 'libfix:fix_add(0, 0x1, .*) = 0x1' trace.txt
	entered=$(grep -c '^libfix:fix_add(' trace.txt)
	returned=$(grep -c ' = 0x[0-9a-f]*$' trace.txt)
	[ "$returned" -ge 900 ]
	# Every event is shown or counted dropped: two a call.
	dropped=$(sed -n 's/^ltruss: warning: \([0-9]*\) events were dropped (--drop): ltruss could not keep up$/\1/p' ltruss.err)
	[ $((entered + returned + dropped)) -eq 4000 ]
}

@test "C++ names are demangled, and printed raw with --no-demangle" {
	run_split ltruss -u 'libstdc++:_Znwm,_ZdlPvm' "$PROGS/cxx"
	[ "$status" -eq 0 ]
	[ "$out" = "32" ]
	grep -Eq '^libstdc\+\+:operator new\(unsigned long\)\(0x20, .*\) = 0x[0-9a-f]+$' <<<"$err"
	grep -Eq '^libstdc\+\+:operator delete\(void\*, unsigned long\)\(0x[0-9a-f]+, 0x20, .*\) = ' <<<"$err"
	run_split ltruss --no-demangle -u 'libstdc++:_Znwm' "$PROGS/cxx"
	grep -Eq '^libstdc\+\+:_Znwm\(0x20, .*\) = 0x[0-9a-f]+$' <<<"$err"
	run_split ltruss --json -u 'libstdc++:_Znwm' "$PROGS/cxx"
	run jq -r 'select(.type == "call") | .func' <<<"$err"
	assert_line 'operator new(unsigned long)'
}

@test "--caller names the call site, also a static function of the program" {
	run_split ltruss --caller -u 'libfix:fix_add' "$PROGS/caller"
	[ "$status" -eq 0 ]
	[ "$out" = "3 8" ]
	grep -Eqx 'libfix:fix_add\(0x1, 0x2, .*\) = 0x3 \[from main\+0x[0-9a-f]+\]' <<<"$err"
	grep -Eqx 'libfix:fix_add\(0x3, 0x1, .*\) = 0x4 \[from helper\+0x[0-9a-f]+\]' <<<"$err"
	run_split ltruss --caller --json -u 'libfix:fix_add' "$PROGS/caller"
	run jq -r 'select(.type == "call") | .caller' <<<"$err"
	assert_line --regexp '^main\+0x[0-9a-f]+$'
	assert_line --regexp '^helper\+0x[0-9a-f]+$'
}

@test "--caller: a tail call returns to the caller's caller; a stripped program" {
	# fix_twice ends with "jmp fix_add@plt": fix_add returns into main
	run_split ltruss --caller -u 'libfix::fix_add' "$PROGS/fix-lazy" 1
	grep -Eqx 'libfix:fix_add\(0x15, 0x15, .*\) = 0x2a \[from main\+0x[0-9a-f]+\]' <<<"$err"
	cp "$PROGS/caller" ./stripped
	strip ./stripped
	cp "$PROGS/libfix.so" .
	run_split ltruss --caller -u 'libfix:fix_add' ./stripped
	[ "$out" = "3 8" ]
	grep -Eqx 'libfix:fix_add\(0x1, 0x2, .*\) = 0x3 \[from stripped\+0x[0-9a-f]+\]' <<<"$err"
}

@test "a signal handler binding a traced function while dlsym binds another: no deadlock" {
	# Several at once: the race (a handler arriving while the lock is being
	# released) needs the load to show up.
	for i in 1 2 3 4; do
		ltruss -c -u 'libmanyf:*' "$PROGS/sigbind" >"out.$i" 2>"err.$i" &
	done
	for i in 1 2 3 4; do
		wait %$i || { cat "err.$i"; false; }
		[ "$(cat "out.$i")" = "done" ]
	done
	run_split ltruss -c -u 'libmanyf:*' "$PROGS/sigbind"
	[ "$status" -eq 0 ]
	[ "$out" = "done" ]
}

@test "a signal handler on an alternate stack above the thread's stack" {
	run_split ltruss -u 'libc:pause,getpid' "$PROGS/altstack"
	[ "$status" -eq 0 ]
	[ "$out" = "thread returned 42" ]
	grep -Eq '^(\[pid [0-9]+\] )?  libc:getpid\(\) = [0-9]+$' <<<"$err"
	grep -Eq 'libc:pause resumed> = -1 EINTR \(Interrupted system call\)$|libc:pause\(\) = -1 EINTR \(Interrupted system call\)$' <<<"$err"
}

@test "a signal handler on an SS_AUTODISARM alternate stack, which the kernel does not report" {
	run_split ltruss -u 'libc:pause,getpid' "$PROGS/altstack" autodisarm
	[ "$status" -eq 0 ]
	[ "$out" = "thread returned 42" ]
	grep -Eq '^(\[pid [0-9]+\] )?  libc:getpid\(\) = [0-9]+$' <<<"$err"
	grep -Eq 'libc:pause resumed> = -1 EINTR \(Interrupted system call\)$' <<<"$err"
	not grep -Eq 'fatal|unwound' <<<"$err"
}

@test "more threads than slots: all counted, the later ones untraced, no hang" {
	run_split ltruss -o trace.txt -C -u 'libfix:fix_add' "$PROGS/manythreads" 600
	[ "$status" -eq 0 ]
	[ "$out" = "600000" ]
	grep -qx 'ltruss: warning: more than 511 threads at a time: the later ones are counted but not traced' <<<"$err"
	[ "$(awk '$NF == "libfix:fix_add" { print $(NF-2) }' trace.txt)" -eq 600000 ]
	# 511 threads have rings of their own, 89 share the last slot
	[ "$(grep -c 'libfix:fix_add(' trace.txt)" -eq 511000 ]
}

@test "the main thread calls pthread_exit while another runs on: the real exit status, after every call" {
	for follow in "" -f; do
		run_split ltruss $follow -o trace.txt -u 'libc:getppid' "$PROGS/leader-exit"
		[ "$status" -eq 7 ]
		# The zombie leader is not the process's end: one exit line, last.
		[ "$(grep -c '+++' trace.txt)" -eq 1 ]
		assert_equal "$(tail -n 1 trace.txt)" "+++ exited (status 7) +++"
		[ "$(grep -c 'libc:getppid() = ' trace.txt)" -eq 6 ]
	done
}

# A plain entry or exit (no blob) goes from its ring straight onto its
# thread's stack of calls and into the line (trace-plain.c), without being
# unpacked into the whole event layout and taken through the general state
# machine.  callgrind counts ltruss's own instructions (the command runs on
# its own); two lengths of the loop, so that what is counted is a call's
# share alone.  (--json takes the same way; its timestamps' instructions
# depend on how far apart the calls come, which callgrind changes.)
@test "-o: a plain call costs ltruss under 800 instructions (callgrind; 900 when every entry and exit was unpacked whole for the general state machine)" {
	command -v valgrind >/dev/null || fail "valgrind is needed (apt-get install valgrind)"
	if ldd "$LTRUSS" | grep -q libasan; then
		skip "an AddressSanitizer build of ltruss: no instruction bound holds"
	fi
	local k per
	declare -A n
	for k in 20000 60000; do
		run_split valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			"$LTRUSS" -o "trace.$k" -u 'libfix:fix_add' "$PROGS/spin" 1 "$k"
		assert_equal "$status" 0
		assert_equal "$out" "$("$PROGS/spin" 1 "$k")"
		[ "$(grep -c '^libfix:fix_add(' "trace.$k")" -eq "$k" ]
		n[$k]=$(awk '/Collected :/ { print $NF }' <<<"$err")
		[ -n "${n[$k]}" ]
	done
	per=$(((n[60000] - n[20000]) / 40000))
	[ "$per" -lt 800 ] || fail "$per instructions a call"
}

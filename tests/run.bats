#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# run.bats: running the command: exit status, signals, stdout untouched, refusals.

load helpers

@test "the command's exit status is passed through" {
	run ltruss -c sh -c 'exit 7'
	assert_failure 7
	run ltruss -c true
	assert_success
}

@test "exited line in trace mode" {
	run_split ltruss -u 'nolib:nothing' sh -c 'exit 3'
	[ "$status" -eq 3 ]
	[ "$err" = "+++ exited (status 3) +++" ]
}

@test "killed by a signal: 128+N and a killed line" {
	run_split ltruss -u 'nolib:nothing' sh -c 'kill -SEGV $$'
	[ "$status" -eq 139 ]
	[[ "$err" == "+++ killed by SIGSEGV"*"+++" ]]
	run_split ltruss -c sh -c 'kill -TERM $$'
	[ "$status" -eq 143 ]
	[[ "$err" == *"+++ killed by SIGTERM +++"* ]]
}

@test "stdout of the program is untouched" {
	run_split ltruss -c ls /
	[ "$status" -eq 0 ]
	[ "$out" = "$(ls /)" ]
}

@test "a script runs through its interpreter" {
	printf '#!/bin/sh\necho "script $1"\n' > s.sh
	chmod +x s.sh
	run_split ltruss -c ./s.sh arg
	[ "$status" -eq 0 ]
	[ "$out" = "script arg" ]
}

@test "non-ELF executable is refused" {
	printf '\x7fNOTELF garbage' > fake
	chmod +x fake
	run ltruss ./fake
	assert_failure 2
	assert_output "ltruss: error: cannot trace './fake': not an ELF program nor a '#!' script; give the path of a program"
}

@test "a FIFO, a directory or a device as COMMAND is refused at once, not waited on" {
	mkfifo fifo
	chmod +x fifo
	run ltruss ./fifo
	assert_failure 2
	assert_output "ltruss: error: cannot trace './fifo': it is a FIFO, not a program file; give the path of a program"
	# A '#!' line naming one is refused the same way.
	printf '#!%s\n' "$PWD/fifo" > s.sh
	chmod +x s.sh
	run ltruss ./s.sh
	assert_failure 2
	assert_output "ltruss: error: cannot trace '$PWD/fifo': it is a FIFO, not a program file; give the path of a program"
	printf '#!/dev/null\n' > s.sh
	run ltruss ./s.sh
	assert_failure 2
	assert_output "ltruss: error: cannot trace '/dev/null': it is a character device, not a program file; give the path of a program"
}

@test "script with a missing interpreter is refused" {
	printf '#!/no/such/interp\n' > s.sh
	chmod +x s.sh
	run ltruss ./s.sh
	assert_failure 2
	assert_output "ltruss: error: cannot open '/no/such/interp': No such file or directory"
}

@test "statically linked program is refused" {
	[ -x "$PROGS/static-hello" ] || fail "fixture static-hello was not built"
	run ltruss "$PROGS/static-hello"
	assert_failure 2
	assert_output --partial "is statically linked"
}

@test "program for another architecture is refused" {
	# An ELF header for 32-bit ARM: class 1, machine 40.
	printf '\x7fELF\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x28\x00\x01\x00\x00\x00' > arm
	head -c 64 /dev/zero >> arm
	chmod +x arm
	run ltruss ./arm
	assert_failure 2
	assert_output --partial "is built for another architecture"
}

@test "set-uid program owned by another user is refused" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to chown"
	cp /bin/true ./suid-true
	chown nobody ./suid-true
	chmod 4755 ./suid-true
	run ltruss ./suid-true
	assert_failure 2
	assert_output --partial "it is set-uid"
}

@test "set-gid program of another group is refused" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to chgrp"
	cp /bin/true ./sgid-true
	chgrp nogroup ./sgid-true
	chmod 2755 ./sgid-true
	run ltruss ./sgid-true
	assert_failure 2
	assert_output --partial "it is set-gid"
}

@test "-o writes the trace to a file, stderr stays quiet" {
	run_split ltruss -o trace.txt -u 'nolib:x' sh -c 'echo hi'
	[ "$status" -eq 0 ]
	[ "$out" = "hi" ]
	[ -z "$err" ]
	grep -qx '+++ exited (status 0) +++' trace.txt
}

@test "an ELF object that is not an executable is refused" {
	printf 'int f(void) { return 1; }\n' > f.c
	gcc -c -o f.o f.c
	chmod +x f.o
	run ltruss ./f.o
	assert_failure 2
	assert_output "ltruss: error: cannot trace './f.o': not an executable (ELF type 1)"
}

@test "a '#!' line without an interpreter is refused" {
	printf '#!   \necho hi\n' > s.sh
	chmod +x s.sh
	run ltruss ./s.sh
	assert_failure 2
	assert_output "ltruss: error: cannot trace './s.sh': its '#!' line names no interpreter"
}

@test "a loop of '#!' interpreters is refused" {
	printf '#!%s/loop.sh\n' "$PWD" > loop.sh
	chmod +x loop.sh
	run ltruss ./loop.sh
	assert_failure 2
	assert_output --partial "too many levels of '#!' interpreters"
}

@test "a program whose loader is missing: exec fails, exit 2" {
	run ltruss "$PROGS/bad-interp"
	assert_failure 2
	assert_output "ltruss: error: cannot run '$PROGS/bad-interp': No such file or directory"
}

# wait_file FILE: wait (up to 10 s) until FILE exists.
wait_file() {
	local i

	for i in $(seq 1 100); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	fail "$1 never appeared"
}

# wait_exit PID: wait (up to 20 s) for the background job PID; its status
# in $status.  (Background jobs close fd 3, or bats waits for them.)
wait_exit() {
	local i

	for i in $(seq 1 200); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$1" 2>/dev/null; then
		pkill -KILL -P "$1" || true
		kill -KILL "$1"
		fail "process $1 did not end"
	fi
	status=0
	wait "$1" || status=$?
}

# passed_on SIG N: trace die's 5000 calls with -c to trace.txt, and when it
# waits for its end, send SIG (number N) to ltruss alone, not to the
# program: the program must end by it, with every call counted.
passed_on() {
	env --default-signal=INT "$LTRUSS" -c -o trace.txt -u 'libfix:fix_add' "$PROGS/die" 5000 wait ready </dev/null 2>ltruss.err 3>&- &
	pid=$!
	wait_file ready
	kill "-$1" "$pid"
	wait_exit "$pid"
	[ "$status" -eq $((128 + $2)) ]
	[ "$(head -1 trace.txt)" = "+++ killed by SIG$1 +++" ]
	grep -Eqx '100\.00 +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6} +[0-9.]+ +[0-9.]+ +[0-9.]+ +5000 +0 libfix:fix_add' trace.txt
	[ ! -s ltruss.err ]
}

@test "SIGINT sent to ltruss is passed on: the program ends by it, -c counts every call" {
	passed_on INT 2
}

@test "SIGTERM sent to ltruss is passed on: the program ends by it, -c counts every call" {
	passed_on TERM 15
}

# once_through SIG MODE: die 3 MODE (count or terms) under ltruss; SIG sent
# to ltruss alone once the program is ready; its 3 calls traced, status 0.
once_through() {
	env --default-signal=INT "$LTRUSS" -o trace.txt -u 'libfix:fix_add' "$PROGS/die" 3 "$2" ready </dev/null >out.txt 2>ltruss.err 3>&- &
	pid=$!
	wait_file ready
	kill "-$1" "$pid"
	wait_exit "$pid"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^libfix:fix_add(' trace.txt)" -eq 3 ]
	[ "$(tail -1 trace.txt)" = "+++ exited (status 0) +++" ]
}

@test "SIGINT from kill reaches a program that handles it exactly once" {
	once_through INT count
	[ "$(cat out.txt)" = "interrupts 1" ]
}

@test "SIGTERM the program sends to its own process group reaches it once, not again through ltruss" {
	# setsid: the group is ltruss and the program, not bats
	for how in group pgid; do
		rm -f ready
		setsid --wait "$PROGS/die" 3 terms ready $how >plain.txt
		[ "$(cat plain.txt)" = "sigterms 1" ]
		for i in 1 2 3 4 5; do
			rm -f ready
			status=0
			setsid --wait "$LTRUSS" -o trace.txt -u 'libfix:fix_add' "$PROGS/die" 3 terms ready $how </dev/null >out.txt 2>ltruss.err || status=$?
			[ "$status" -eq 0 ] || { echo "$how run $i: status $status: $(cat out.txt)"; false; }
			[ "$(cat out.txt)" = "$(cat plain.txt)" ]
			[ "$(grep -c '^libfix:fix_add(' trace.txt)" -eq 3 ]
			[ "$(tail -1 trace.txt)" = "+++ exited (status 0) +++" ]
			[ ! -s ltruss.err ]
		done
	done
}

@test "SIGTERM sent to ltruss alone reaches a program that counts them exactly once" {
	once_through TERM terms
	[ "$(cat out.txt)" = "sigterms 1" ]
	[ ! -s ltruss.err ]
}

@test "SIGTERM GNU timeout sends to ltruss and to its group reaches the program once; ltruss goes on tracing" {
	# timeout signals its child (ltruss), then its own process group (the
	# program too): one request, "sigterms 1" untraced, unless the program
	# handled the first before the second was sent.  Traced: exactly one.
	for i in 1 2 3 4 5; do
		status=0
		timeout -s TERM 1 "$LTRUSS" -o trace.txt -u 'libfix:fix_add' "$PROGS/die" 3 terms ready </dev/null >out.txt 2>ltruss.err || status=$?
		[ "$(cat out.txt)" = "sigterms 1" ] || { echo "run $i: status $status: $(cat out.txt)"; false; }
		[ "$status" -eq 124 ]
		[ "$(grep -c '^libfix:fix_add(' trace.txt)" -eq 3 ]
		# two sends, one request: ltruss does not stop as if interrupted twice
		[ "$(tail -1 trace.txt)" = "+++ exited (status 0) +++" ]
		[ ! -s ltruss.err ]
		rm -f ready
	done
}

# outside_kill TARGET HOW [LTRUSS-OPTION...]: onesig HOW ready, in a process
# group of its own (setsid), traced when an option is given, untraced
# otherwise; once ready, a shell outside sends SIGTERM to the group (TARGET
# "group") or to the group's leader alone (ltruss, or the program
# untraced).  out.txt gets onesig's lines, the sender's pid replaced by
# SENDER.
outside_kill() {
	local target=$1 how=$2 pid pgid sender
	shift 2
	rm -f ready ready.sent sender.txt
	if [ $# -gt 0 ]; then
		setsid "$LTRUSS" "$@" -o trace.txt -u 'libfix:fix_add' "$PROGS/onesig" "$how" ready </dev/null >raw.txt 2>ltruss.err 3>&- &
	else
		setsid "$PROGS/onesig" "$how" ready </dev/null >raw.txt 3>&- &
	fi
	pid=$!
	wait_file ready
	pgid=$(ps -o pgid= -p "$pid" | tr -d ' ')
	[ "$pgid" = "$pid" ]
	[ "$target" = group ] && target=-$pid || target=$pid
	sh -c 'echo $$ >sender.txt; exec kill -TERM -- "$1"' sh "$target"
	: >ready.sent
	wait_exit "$pid"
	sender=$(cat sender.txt)
	sed "s/ from $sender / from SENDER /" raw.txt >out.txt
}

@test "SIGTERM sent to the process group from outside reaches each kind of handler once, as untraced" {
	for how in signal sigaction siginfo resethand sysv sigset ignore blocked exec fork; do
		outside_kill group "$how"
		[ "$status" -eq 0 ]
		cp out.txt plain.txt
		grep -q 'sigterms [01] ' plain.txt
		for i in 1 2 3; do
			outside_kill group "$how" -f
			[ "$status" -eq 0 ] || { echo "$how run $i: status $status: $(cat out.txt)"; false; }
			diff -u plain.txt out.txt || { echo "$how run $i"; false; }
			[ "$(grep -c '^libfix:fix_add(' trace.txt)" -eq 3 ]
			[ ! -s ltruss.err ]
		done
	done
}

@test "SIGTERM sent to ltruss alone reaches the program once, as sent by its sender" {
	for how in siginfo resethand signal; do
		outside_kill leader "$how"
		cp out.txt plain.txt
		grep -q '^[a-z]*: sigterms 1 ' plain.txt
		outside_kill leader "$how" -u 'libfix:fix_add'
		[ "$status" -eq 0 ] || { echo "$how: status $status: $(cat out.txt)"; false; }
		diff -u plain.txt out.txt
		[ "$(tail -1 trace.txt)" = "+++ exited (status 0) +++" ]
	done
}

@test "python3's SIGINT handler, under GNU timeout -s INT, runs once, as untraced" {
	command -v python3 >/dev/null
	# Counts the SIGINTs its handler runs for, until 1 s after the first.
	cat >count.py <<'PY'
import signal, time
n = 0
def h(s, f):
    global n
    n += 1
signal.signal(signal.SIGINT, h)
t = time.time()
while time.time() - t < 20 and (n == 0 or time.time() - first < 1):
    if n == 0:
        first = time.time()
    time.sleep(0.02)
print("sigints", n)
PY
	# Untraced, timeout's two sends are one SIGINT for Python, unless its
	# handler ran between them: one of a few runs shows the usual result.
	for i in 1 2 3; do
		plain=$(timeout -s INT 3 python3 count.py) || [ $? -eq 124 ]
		[ "$plain" = "sigints 1" ] && break
	done
	[ "$plain" = "sigints 1" ]
	for i in 1 2 3 4 5; do
		status=0
		timeout -s INT 3 "$LTRUSS" -o trace.txt -u 'libc:getpid' python3 count.py >out.txt 2>ltruss.err || status=$?
		[ "$(cat out.txt)" = "$plain" ] || { echo "run $i: status $status: $(cat out.txt)"; false; }
		[ "$status" -eq 124 ]
		[ "$(tail -1 trace.txt)" = "+++ exited (status 0) +++" ]
	done
}

@test "Ctrl-C in a terminal reaches the program once, not again through ltruss" {
	TMUX_SOCK="$BATS_TEST_TMPDIR/tmux.sock"
	tmux -S "$TMUX_SOCK" -f /dev/null new-session -d -x 120 -y 20 \
		"'$LTRUSS' -o trace.txt -u 'libfix:fix_add' '$PROGS/die' 3 count ready; echo \"[exit \$?]\"; sleep 60"
	wait_file ready
	tmux -S "$TMUX_SOCK" send-keys C-c
	for i in $(seq 1 100); do
		tmux -S "$TMUX_SOCK" capture-pane -p | grep -q '^\[exit' && break
		sleep 0.1
	done
	run tmux -S "$TMUX_SOCK" capture-pane -p
	tmux -S "$TMUX_SOCK" kill-server
	assert_line --regexp '^(\^C)?interrupts 1$'
	assert_line '[exit 0]'
	[ "$(grep -c '^libfix:fix_add(' trace.txt)" -eq 3 ]
}

@test "SIGINT ignored when ltruss starts stays ignored in the program; SIGTERM still ends it" {
	(trap '' INT; exec "$LTRUSS" -o trace.txt -u 'libfix:fix_add' "$PROGS/die" 1 wait ready </dev/null 2>ltruss.err 3>&-) &
	pid=$!
	wait_file ready
	child=$(pgrep -P "$pid")
	# SigIgn is a hex mask of ignored signals: SIGINT is bit 1.
	ignored=$(awk '/^SigIgn:/ { print $2 }' "/proc/$child/status")
	[ $((0x$ignored & 2)) -eq 2 ]
	kill -INT "$pid"
	sleep 0.3
	kill -0 "$child"
	kill -TERM "$pid"
	wait_exit "$pid"
	[ "$status" -eq 143 ]
	[ "$(tail -1 trace.txt)" = "+++ killed by SIGTERM +++" ]
}

@test "-o /dev/full: a clear error, the program unharmed and its exit status kept" {
	plain=$("$PROGS/fix-lazy" 3)
	run_split ltruss -o /dev/full -u 'libfix:*' sh -c '"$0" 3; exit 7' "$PROGS/fix-lazy"
	[ "$status" -eq 7 ]
	[ "$out" = "$plain" ]
	assert_equal "$err" "ltruss: error: cannot write the trace to '/dev/full' (-o): No space left on device"
	run_split ltruss -c -o /dev/full -u 'libfix:*' "$PROGS/fix-lazy" 3
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	assert_equal "$err" "ltruss: error: cannot write the trace to '/dev/full' (-o): No space left on device"
}

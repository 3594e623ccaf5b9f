#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# security.bats: what the interposer trusts (docs/FAULTS.md, "Security
# review"): the session is private to its user, and a garbage, foreign or
# stale LTRUSS_SESSION leaves the program untraced and unharmed.

load helpers

INTERPOSER="$LTRUSS_TOP_BUILDDIR/lib/libltruss.so"
NOT_TRACING="ltruss: not tracing: the session in LTRUSS_SESSION is gone or not this user's"

# with_session VALUE CMD...: run CMD with the interposer and LTRUSS_SESSION=VALUE.
with_session() {
	local value=$1

	shift
	run_split env LD_AUDIT="$INTERPOSER" LTRUSS_SESSION="$value" "$@"
}

@test "the session memfd and the registry entry are the user's alone (0600, dir 0700)" {
	"$LTRUSS" -o trace.txt -u 'libfix:fix_add' "$PROGS/die" 1 wait ready </dev/null 2>ltruss.err 3>&- &
	pid=$!
	for i in $(seq 1 100); do [ -e ready ] && break; sleep 0.1; done
	entry=$(cat "$XDG_RUNTIME_DIR/ltruss/$pid")
	fd=${entry%%:*}
	session=$(stat -L -c '%a %u' "/proc/$pid/fd/$fd")
	registry=$(stat -c '%a %u' "$XDG_RUNTIME_DIR/ltruss" "$XDG_RUNTIME_DIR/ltruss/$pid")
	kill -TERM "$pid"
	wait "$pid" || true
	[ "$session" = "600 $(id -u)" ]
	[ "$registry" = "700 $(id -u)"$'\n'"600 $(id -u)" ]
}

@test "without XDG_RUNTIME_DIR the registry entry is in memory, /dev/shm/ltruss-UID (0700), not on /tmp's disk, and gone at exit" {
	[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm on this machine"
	unset XDG_RUNTIME_DIR
	# $PPID, in the traced shell, is ltruss.
	run_split ltruss -u 'libc:getpid' sh -c 'dir=/dev/shm/ltruss-$(id -u); echo "$PPID $(cat "$dir/$PPID") $(stat -c "%a %u" "$dir")"'
	[ "$status" -eq 0 ]
	read -r pid entry mode uid <<<"$out"
	# FD:PID:INODE, this ltruss's.
	[[ "$entry" =~ ^[0-9]+:$pid:[0-9]+$ ]]
	[ "$mode $uid" = "700 $(id -u)" ]
	[ ! -e "/dev/shm/ltruss-$(id -u)/$pid" ]
	[ ! -e "/tmp/ltruss-$(id -u)/$pid" ]
}

@test "garbage in LTRUSS_SESSION: one line on stderr, the program untraced and unharmed" {
	plain=$("$PROGS/fix-lazy" 1)
	long=$(printf '9%.0s' $(seq 1 5000))
	for value in '' x : :: '1:2' '1:2:' '-1:-1:-1' '0:0:0' "$long:1:1" \
		"1:$long:1" '3:1:1:junk' ' 3:1:1' '3:1:1 ' $'3\n:1:1' '1000001:1:1' \
		'%s%s%n:1:1' '2147483648:1:1'; do
		with_session "$value" "$PROGS/fix-lazy" 1
		[ "$status" -eq 0 ] || fail "LTRUSS_SESSION='$value': status $status"
		[ "$out" = "$plain" ] || fail "LTRUSS_SESSION='$value': stdout differs"
		[ "$err" = "$NOT_TRACING" ] || fail "LTRUSS_SESSION='$value': stderr: $err"
	done
}

@test "a garbage LTRUSS_SESSION and ltruss's LD_AUDIT are taken out of the environment" {
	with_session 'junk' env
	[ "$status" -eq 0 ]
	[ "$err" = "$NOT_TRACING" ]
	[ "$(grep -c '^LTRUSS_SESSION=\|^LD_AUDIT=' <<<"$out")" -eq 0 ]
	# A user's own LD_AUDIT, saved by ltruss, is put back.
	run_split env LD_AUDIT="$INTERPOSER:/nonexistent-audit.so" \
		LTRUSS_SAVED_LD_AUDIT=/nonexistent-audit.so LTRUSS_SESSION=junk env
	grep -qx 'LD_AUDIT=/nonexistent-audit.so' <<<"$out"
	[ "$(grep -c '^LTRUSS_SESSION=\|^LTRUSS_SAVED' <<<"$out")" -eq 0 ]
}

@test "a user's own LD_AUDIT reaches the traced program as it was" {
	run_split env LD_AUDIT=/nonexistent-audit.so "$LTRUSS" -u 'libc:getenv' env </dev/null
	[ "$status" -eq 0 ]
	[ "$(grep -c '^LD_AUDIT=' <<<"$out")" -eq 1 ]
	grep -qx 'LD_AUDIT=/nonexistent-audit.so' <<<"$out"
	[ "$(grep -c '^LTRUSS_SESSION=\|^LTRUSS_SAVED' <<<"$out")" -eq 0 ]
	# ld.so tried to load it (and said so), and the program was traced.
	grep -q "object '/nonexistent-audit.so' cannot be loaded as audit interface" <<<"$err"
	[ "$(tail -1 <<<"$err")" = "+++ exited (status 0) +++" ]
}

@test "a file of the user's that is not a session (right inode, size, mode) is refused by its header" {
	truncate -s 2G not-a-session
	chmod 0600 not-a-session
	ino=$(stat -c %i not-a-session)
	plain=$("$PROGS/fix-lazy" 1)
	run_split env LD_AUDIT="$INTERPOSER" LTRUSS_SESSION="5:$$:$ino" "$PROGS/fix-lazy" 1 5<>not-a-session
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$err" = "ltruss: not tracing: the session was made by another ltruss version or user" ]
	# The same file open to others is not even mapped.
	chmod 0644 not-a-session
	run_split env LD_AUDIT="$INTERPOSER" LTRUSS_SESSION="5:$$:$ino" "$PROGS/fix-lazy" 1 5<>not-a-session
	[ "$status" -eq 0 ]
	[ "$err" = "$NOT_TRACING" ]
}

@test "a traced process that becomes another user does not use the session (-f)" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run as another user"
	chmod 0755 "$BATS_TEST_TMPDIR"
	plain=$("$PROGS/fix-lazy" 1)
	run_split ltruss -f -o trace.txt -u 'libfix:*' setpriv --reuid=65534 --regid=65534 --clear-groups "$PROGS/fix-lazy" 1
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	# setpriv leaves the session at its first credential change, and the
	# program it executes as nobody is not given it (lib/exec.c).
	[ -z "$err" ]
	[ "$(cat trace.txt)" = "+++ capset changes the credentials: untraced from here on +++
+++ exited (status 0) +++" ]
}

# dropper_run BUILD HOW [-f]: trace a root parent (the dropper fixture's
# BUILD) whose worker drops to nobody by HOW, then reads a 0600 secret; the
# worker's findings are in $out.
dropper_run() {
	local prog=$1 how=$2

	shift 2
	chmod 0755 "$BATS_TEST_TMPDIR"
	secret="TOPSECRET-$RANDOM$RANDOM"
	printf '%s' "$secret" > secret
	chmod 0600 secret
	run_split ltruss "$@" -o trace.txt -u 'libc:strlen' "$PROGS/$prog" secret "$how"
	[ "$status" -eq 0 ]
	[ -z "$err" ]
	# The worker has nothing of the session left, and cannot open it again.
	[ "$(grep '^worker' <<<"$out")" = "worker: 0 session mappings, secret not seen, 0 written
worker: 0 sessions opened through /proc" ] || { echo "$prog $how: $out"; false; }
	# The root parent is still traced, its secret included.
	grep -q "libc:strlen(\"$secret\") = ${#secret}\$" trace.txt
}

@test "a root worker that drops to nobody without exec cannot read or write the session (no -f)" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run as another user"
	# dropper-noplt calls the credential functions through the GOT (-fno-plt)
	for prog in dropper dropper-noplt; do
		for how in libc setresuid syscall; do
			dropper_run "$prog" "$how"
			# Not traced without -f: nothing to say about it.
			run grep -c 'credentials' trace.txt
			[ "$output" = 0 ]
		done
	done
}

@test "-f: a worker that drops to nobody without exec leaves the session, and the trace says so" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run as another user"
	# dropper-noplt calls the credential functions through the GOT (-fno-plt)
	for prog in dropper dropper-noplt; do
		for how in libc:setgroups setresuid:setgroups syscall:syscall; do
			dropper_run "$prog" "${how%%:*}" -f
			run grep 'credentials' trace.txt
			[[ "$output" =~ ^(\[pid\ [0-9]+\]\ )?"+++ ${how#*:} changes the credentials: untraced from here on +++"$ ]]
			[ "${#lines[@]}" -eq 1 ]
			# Both processes' ends are reported: the worker's by its parent's wait.
			[ "$(grep -c '+++ exited (status 0) +++$' trace.txt)" -eq 2 ]
		done
	done
}

@test "a vfork child that drops to nobody before it execs leaves its parent traced, and what it execs untraced" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run as another user"
	run_split ltruss -f -u 'libc:getpid,getppid,vfork' "$PROGS/vforks" drop
	[ "$status" -eq 0 ]
	[ "$out" = "status 0" ]
	child=$(sed -nE 's/^\[pid ([0-9]+)\] <\.\.\. libc:vfork resumed> = 0$/\1/p' <<<"$err")
	[ -n "$child" ] || { echo "$err"; false; }
	grep -qx "\[pid $child\] +++ setgroups changes the credentials: untraced from here on +++" <<<"$err" || { echo "$err"; false; }
	# the parent goes on traced; the leaf, run as nobody, is not
	grep -Eqx "\[pid [0-9]+\] <\.\.\. libc:vfork resumed> = $child" <<<"$err" || { echo "$err"; false; }
	grep -Eqx '\[pid [0-9]+\] libc:getpid\(\) = [0-9]+' <<<"$err" || { echo "$err"; false; }
	[ "$(grep -c 'getppid' <<<"$err")" -eq 1 ] || { echo "$err"; false; }
	# without -f the child is not traced, and says nothing
	run_split ltruss -u 'libc:getpid,getppid,vfork' "$PROGS/vforks" drop
	[ "$status" -eq 0 ]
	grep -Eqx '<\.\.\. libc:vfork resumed> = [0-9]+' <<<"$err" || { echo "$err"; false; }
	grep -Eqx 'libc:getpid\(\) = [0-9]+' <<<"$err" || { echo "$err"; false; }
	[ "$(grep -c 'getppid\|credentials' <<<"$err")" -eq 0 ] || { echo "$err"; false; }
}

@test "a non-root program whose setgroups and setuid(0) fail stays traced" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run as another user"
	# (The test's directory is not nobody's to read: the script is inline.)
	try='import os
for attempt in (lambda: os.setgroups([]), lambda: os.setuid(0), lambda: os.setgid(0)):
    try:
        attempt()
    except PermissionError:
        print("refused")
os.getppid()'
	run_split setpriv --reuid=65534 --regid=65534 --clear-groups "$LTRUSS" -u 'libc:getppid' /usr/bin/python3 -c "$try"
	[ "$status" -eq 0 ]
	[ "$out" = "refused
refused
refused" ]
	# Traced to its end: the failed calls changed nothing.
	[[ "$err" =~ ^"libc:getppid() = "[0-9]+$'\n'"+++ exited (status 0) +++"$ ]]
}

@test "a session whose rings do not fit its file is refused, never mapped past the end" {
	"$LTRUSS" -o trace.txt -u 'libfix:*' "$PROGS/until" "$BATS_TEST_TMPDIR/stop" \
		</dev/null >/dev/null 2>ltruss.err 3>&- &
	tracer=$!
	# Copied once the program traces into it: the memfd shows in /proc
	# before ltruss has sized and filled it in.
	for ((i = 0; i < 250; i++)); do
		fd=$(find "/proc/$tracer/fd" -lname '/memfd:ltruss-session*' -printf '%f\n' 2>/dev/null | head -1)
		[ -z "$fd" ] || ! grep -q '^libfix:fix_add(' trace.txt 2>/dev/null || break
		sleep 0.02
	done
	cp --sparse=always "/proc/$tracer/fd/$fd" session
	touch "$BATS_TEST_TMPDIR/stop"
	wait "$tracer"
	# A whole copy is a session the interposer takes (and traces into).
	chmod 0600 session
	ino=$(stat -c %i session)
	plain=$("$PROGS/fix-lazy" 1)
	run_split env LD_AUDIT="$INTERPOSER" LTRUSS_SESSION="5:$$:$ino" "$PROGS/fix-lazy" 1 5<>session
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ -z "$err" ]
	# Without its last ring, the header promises more than the file holds.
	truncate -s -64K session
	run_split env LD_AUDIT="$INTERPOSER" LTRUSS_SESSION="5:$$:$ino" "$PROGS/fix-lazy" 1 5<>session
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$err" = "ltruss: not tracing: the session was made by another ltruss version or user" ]
}

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
	assert_output --partial "cannot trace './fake': not an ELF program"
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

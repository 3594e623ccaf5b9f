#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# follow.bats: -f traces children and the programs they exec, each process
# gets its own exit line, and without -f children run untraced.

load helpers

@test "without -f, children and exec'd programs are untraced" {
	run_split ltruss -u 'libc:getpid,fork,open*' sh -c '(cat /etc/hostname >/dev/null); /bin/true'
	[ "$status" -eq 0 ]
	[ "$(grep -c '^+++ exited' <<<"$err")" -eq 1 ]
	[ "$(grep -c '\[pid' <<<"$err")" -eq 0 ]
	[ "$(grep -c 'open' <<<"$err")" -eq 0 ]
}

@test "-f: a forked child's calls, the fork returning in both, one exit line each" {
	run_split ltruss -f -u 'libc:fork,getpid' sh -c '(sh -c "exit 5"); exit 4'
	[ "$status" -eq 4 ]
	parent=$(sed -nE 's/^(\[pid ([0-9]+)\] )?libc:fork\(\) = ([0-9]+)$/\2 \3/p' <<<"$err" | head -1)
	[ -n "$parent" ]
	child=${parent#* }
	grep -qx "\[pid $child\] <... libc:fork resumed> = 0" <<<"$err"
	grep -qx "\[pid $child\] +++ exited (status 5) +++" <<<"$err"
	grep -Eq "^\[pid [0-9]+\] \+\+\+ exited \(status 4\) \+\+\+$" <<<"$err"
	# every process has exactly one exit line
	run sed -nE 's/^\[pid ([0-9]+)\] \+\+\+ .*/\1/p' <<<"$err"
	[ "$(sort <<<"$output" | uniq -d)" = "" ]
}

@test "-f: exec'd programs are traced, grandchildren too" {
	run_split ltruss -f -u 'libc:open*,fopen*' sh -c 'cat /etc/hostname; sh -c "cat /etc/hostname"'
	[ "$status" -eq 0 ]
	[ "$out" = "$(cat /etc/hostname; cat /etc/hostname)" ]
	# two cat processes each opened the file
	[ "$(grep -Ec '^(\[pid [0-9]+\] )?libc:open(64)?\(' <<<"$err")" -ge 2 ]
	[ "$(grep -c '+++ exited (status 0) +++' <<<"$err")" -ge 3 ]
}

@test "-f: a process's last calls (its destructors, __cxa_finalize) come before its exit line" {
	# ls's __cxa_finalize runs after the exit handler that records the
	# exit: the line used to follow "+++ exited" in most runs, when ltruss
	# was still behind on ls's many calls as ls ended.
	for i in 1 2 3 4 5; do
		run_split ltruss -f sh -c 'ls -l /usr/bin >/dev/null; echo done'
		[ "$status" -eq 0 ]
		[ "$out" = done ]
		grep -Eq '^\[pid [0-9]+\] (libc:__cxa_finalize\(|<\.\.\. libc:__cxa_finalize resumed)' <<<"$err"
		# no line of a process after its exit line
		awk '/^\[pid [0-9]+\] \+\+\+ exited/ { gone[$2] = 1; next }
		     /^\[pid / && ($2 in gone) { print "after its exit: " $0; bad = 1 }
		     END { exit bad }' <<<"$err"
	done
}

@test "-f: a child killed by a signal is reported as killed" {
	run_split ltruss -f -u 'libc:getpid' sh -c '(sh -c "kill -KILL \$\$"); exit 0'
	[ "$status" -eq 0 ]
	grep -Eq '^\[pid [0-9]+\] \+\+\+ killed by SIGKILL \+\+\+$' <<<"$err"
}

@test "-f: 20 short-lived processes, all accounted for" {
	run_split ltruss -f -u 'libc:getpid' sh -c 'for i in $(seq 1 20); do /bin/true; done'
	[ "$status" -eq 0 ]
	# the shell, seq, and 20 children
	[ "$(grep -c '+++ exited (status 0) +++' <<<"$err")" -eq 22 ]
}

@test "-f: 200 short-lived traced processes, every one and every call accounted for" {
	run_split ltruss -f -C -o trace.txt -u 'libfix:fix_add' sh -c 'for i in $(seq 1 200); do "$0" 1 >/dev/null; done' "$PROGS/fix-lazy"
	[ "$status" -eq 0 ]
	[ -z "$err" ]
	# the shell, seq, and 200 children, each ended once
	[ "$(grep -c '+++ exited (status 0) +++' trace.txt)" -eq 202 ]
	# fix-lazy 1 calls fix_add twice: 400 lines from 200 different processes
	[ "$(grep -c '^\[pid [0-9]*\] libfix:fix_add(' trace.txt)" -eq 400 ]
	[ "$(sed -n 's/^\[pid \([0-9]*\)\] libfix:fix_add(.*/\1/p' trace.txt | sort -u | wc -l)" -eq 200 ]
	grep -Eqx '100\.00 +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6} +[0-9.]+ +[0-9.]+ +[0-9.]+ +400 +0 libfix:fix_add' trace.txt
}

@test "-f: the program keeps its own environment and descriptors" {
	run_split ltruss -f -u 'libc:getpid' sh -c 'env | grep -c "^LTRUSS_\|^LD_AUDIT" ; ls /proc/self/fd | wc -l'
	plain=$(sh -c 'ls /proc/self/fd | wc -l')
	[ "$(sed -n 2p <<<"$out")" = "$plain" ]
}

@test "-f with the JSON format: exited objects per process" {
	run_split ltruss -f --json -u 'libc:getpid' sh -c '(exit 2); exit 1'
	[ "$status" -eq 1 ]
	run jq -r 'select(.type == "exited") | .status' <<<"$err"
	assert_line 1
}

@test "-f: processes binding different functions at once each reach their own" {
	for i in 1 2 3; do
		run_split ltruss -f -c -u 'libmanyf:*' "$PROGS/xproc"
		[ "$status" -eq 0 ]
		[ "$out" = "children failing: 0" ]
	done
}

@test "a child forked before any traced call is not the parent" {
	for f in "" -f; do
		run_split ltruss $f -u 'libc:getpid' "$PROGS/procs" early-fork
		[ "$status" -eq 0 ]
		[ "$out" = "child status 3" ]
		grep -Eqx '(\[pid [0-9]+\] )?\+\+\+ exited \(status 0\) \+\+\+' <<<"$err"
	done
	# without -f the child is not traced at all
	run_split ltruss -u 'libc:getpid' "$PROGS/procs" early-fork
	[ "$(grep -c '^+++' <<<"$err")" -eq 1 ]
	[ "$(grep -c 'getpid' <<<"$err")" -eq 1 ]
}

@test "a vfork child whose exec fails does not end the parent" {
	for f in "" -f; do
		run_split ltruss $f -u 'libc:getpid' "$PROGS/procs" vfork-fail
		[ "$status" -eq 0 ]
		[ "$out" = "child status 127" ]
		[ "$(tail -1 <<<"$err" | sed -E 's/^\[pid [0-9]+\] //')" = "+++ exited (status 0) +++" ]
	done
}

@test "-f: a stopped and continued child is not reported as ended" {
	run_split ltruss -f -u 'libc:getpid' "$PROGS/procs" stop
	[ "$status" -eq 0 ]
	[ "$out" = "child status 5" ]
	grep -Eqx '\[pid [0-9]+\] \+\+\+ exited \(status 5\) \+\+\+' <<<"$err"
	[ "$(grep -c '+++' <<<"$err")" -eq 2 ]
}

@test "-f: 600 children of a multithreaded program, each traced: slots of ended processes are reused" {
	# two threads keep the loader busy (dlopen/dlclose, dlsym) while the
	# main thread forks; each child makes one first call, a lazy binding
	plain=$("$PROGS/forkthreads")
	run_split ltruss -f -C -u 'libfix:*' -u 'libmanyf:*' "$PROGS/forkthreads"
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$out" = "children ok 600 of 600" ]
	[ "$(grep -c '^ltruss: ' <<<"$err")" -eq 0 ]
	# one call line per child (the first may come before the [pid] prefix)
	[ "$(grep -Ec '^(\[pid [0-9]+\] )?libmanyf:f[0-9]+\(.*\) = 0x[0-9a-f]+$' <<<"$err")" -eq 600 ]
	[ "$(sed -nE 's/^\[pid ([0-9]+)\] libmanyf:f[0-9]+\(.*/\1/p' <<<"$err" | sort -u | wc -l)" -ge 599 ]
	[ "$(grep -Ec '^(\[pid [0-9]+\] )?\+\+\+ exited \(status 0\) \+\+\+$' <<<"$err")" -eq 601 ]
	# the summary counts the calls of the slots handed back too
	grep -Eq '^100\.00 .* 600 +0 total$' <<<"$err"
	# counting alone: past 511 slots the shared one counts, and says nothing
	run_split ltruss -f -c -u 'libmanyf:*' "$PROGS/forkthreads"
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$(grep -c '^ltruss: ' <<<"$err")" -eq 0 ]
	grep -Eq '^100\.00 .* 600 +0 total$' <<<"$err"
}

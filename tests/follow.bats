#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# follow.bats: -f traces children and the programs they exec, each process
# gets its own exit line, and without -f children run untraced.

load helpers

@test "without -f, children and the programs they exec are untraced" {
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
	run_split ltruss -f -u 'libc:getpid' sh -c 'env | grep -c "^LTRUSS_S\|^LD_AUDIT" ; ls /proc/self/fd | wc -l'
	plain=$(sh -c 'ls /proc/self/fd | wc -l')
	[ "$(sed -n 1p <<<"$out")" = 0 ]
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

@test "-f: processes that bind the same functions one after another share their entries, so a long run does not run out of them" {
	# Each xproc forks 8 children that bind libmanyf's 900 functions:
	# 7200 entries a run when every process took its own, and the
	# session has 16384.  Four runs: every call counted, none left out.
	run_split ltruss -f -c --summary-format csv -u 'libmanyf:*' sh -c \
		"$PROGS/xproc && $PROGS/xproc && $PROGS/xproc && $PROGS/xproc"
	[ "$status" -eq 0 ]
	[ "$(grep -c 'children failing: 0' <<<"$out")" -eq 4 ]
	! grep -q "left untraced" <<<"$err"
	[ "$(grep -c '^libmanyf,f' <<<"$err")" -eq 900 ]
	[ -z "$(grep '^libmanyf,f' <<<"$err" | awk -F, '$3 != 32')" ]
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

@test "a vfork child whose exec fails does not end the parent; with -f its _exit is reported" {
	# procs-noplt calls _exit and waitpid through the GOT (-fno-plt)
	for prog in procs procs-noplt; do
		for f in "" -f; do
			run_split ltruss $f -u 'libc:getpid' "$PROGS/$prog" vfork-fail
			[ "$status" -eq 0 ]
			[ "$out" = "child status 127" ]
			[ "$(tail -1 <<<"$err" | sed -E 's/^\[pid [0-9]+\] //')" = "+++ exited (status 0) +++" ]
			[ -z "$f" ] || grep -Eqx '\[pid [0-9]+\] \+\+\+ exited \(status 127\) \+\+\+' <<<"$err" || { echo "$prog: $err"; false; }
		done
	done
}

@test "-f: a stopped and continued child is not reported as ended" {
	run_split ltruss -f -u 'libc:getpid' "$PROGS/procs" stop
	[ "$status" -eq 0 ]
	[ "$out" = "child status 5" ]
	grep -Eqx '\[pid [0-9]+\] \+\+\+ exited \(status 5\) \+\+\+' <<<"$err"
	[ "$(grep -c '+++' <<<"$err")" -eq 2 ]
}

@test "-f: processes in a new pid namespace are named by the pids ltruss sees, and their ends reported" {
	[ "$(id -u)" -eq 0 ] || skip "needs root for a pid namespace"
	# Inside, fix-lazy is pid 2; it says its pid outside (the first of
	# NSpid in the host's /proc) before it is exec'd.
	cat > inner.sh <<-EOF
		#!/bin/sh
		while read -r key value rest; do
			[ "\$key" = NSpid: ] && echo "outer \$value"
		done </proc/self/status
		exec "$PROGS/fix-lazy" 1
	EOF
	chmod +x inner.sh
	run_split ltruss -f -o trace.txt -u 'libfix:fix_add' unshare -pf sh -c "./inner.sh & wait; exit 3"
	[ "$status" -eq 3 ]
	outer=$(sed -n 's/^outer //p' <<<"$out")
	[ "$outer" -gt 2 ]
	# Its end carries that pid; no line names a pid of the namespace.
	[ "$(grep -c '^libfix:fix_add(' trace.txt)" -eq 2 ]
	grep -qx "\[pid $outer\] +++ exited (status 0) +++" trace.txt
	[ "$(grep -c '+++ exited (status 3) +++$' trace.txt)" -eq 2 ]
	[ "$(grep -c '+++ exited' trace.txt)" -eq 3 ]
	not grep -q '^\[pid [12]\]' trace.txt
}

@test "-f: processes asleep are looked for ended ones at most every 50 ms, not at each idle moment" {
	command -v strace >/dev/null || fail "strace is needed"
	# LeakSanitizer (maint/check-asan) cannot run under ptrace.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	# 30 processes asleep for a second: ltruss's own /proc/PID/stat reads
	run_split timeout 60 strace -o sys -e trace=openat \
		"$LTRUSS" -f -o trace -u 'libc:getpid' \
		sh -c 'i=0; while [ $i -lt 30 ]; do sleep 1 & i=$((i + 1)); done; wait'
	[ "$status" -eq 0 ]
	[ "$(grep -c '+++ exited (status 0) +++' trace)" -eq 31 ] || { cat trace; false; }
	stats=$(grep -c '"/proc/[0-9]*/stat"' sys)
	# 30 processes x 20 looks a second, and the looks at their ends (the
	# last build before made 14 548: one look at each idle moment)
	[ "$stats" -le 2000 ] || { echo "$stats reads of /proc/PID/stat"; false; }
}

@test "a process in another user or pid namespace says which, and runs untraced" {
	[ "$(id -u)" -eq 0 ] || skip "needs root for a pid namespace"
	plain=$("$PROGS/fix-lazy" 1)
	ours_user=$(stat -L -c %i /proc/self/ns/user)
	ours_pid=$(stat -L -c %i /proc/self/ns/pid)
	run_split ltruss -f -o trace.txt -u 'libfix:*' unshare -r "$PROGS/fix-lazy" 1
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[[ "$err" =~ ^"ltruss: not tracing: this process is in another user namespace (user:["[0-9]+"]) than ltruss (user:[$ours_user]), which may not open its session"$ ]]
	run_split ltruss -f -o trace.txt -u 'libfix:*' unshare -pf --mount-proc "$PROGS/fix-lazy" 1
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[[ "$err" =~ ^"ltruss: not tracing: this process is in another pid namespace (pid:["[0-9]+"]) than ltruss (pid:[$ours_pid]), whose /proc does not show ltruss's pid "[0-9]+$ ]]
	# Exit lines name the pids ltruss sees: unshare's, and its child's
	# (which could only learn its own pid, 1, inside the namespace) if
	# ltruss found it before it was gone, never pid 1.
	grep -q '+++ exited (status 0) +++$' trace.txt || { cat trace.txt; false; }
	not grep -q '^\[pid 1\]' trace.txt
	for pid in $(sed -nE 's/^\[pid ([0-9]+)\] \+\+\+ exited.*/\1/p' trace.txt); do
		[ "$pid" -gt 1 ]
		[ "$pid" -ne "$$" ]
	done
}

@test "-f: a process in a new pid namespace waits for a stalled ltruss, and never takes it for gone" {
	[ "$(id -u)" -eq 0 ] || skip "needs root for a pid namespace"
	# There ltruss's pid names nothing: its passes over the rings tell it lives.
	"$LTRUSS" -f --buffer 64K -o trace.txt -u 'libfix:fix_add' unshare -pf \
		"$PROGS/slow" 200000 400 "$PWD/slow.out" </dev/null 2>ltruss.err &
	pid=$!
	sleep 0.1
	kill -STOP "$pid"
	sleep 0.6
	kill -CONT "$pid"
	wait "$pid"
	[ "$(cat slow.out)" = "done 20000100000" ]
	[ ! -s ltruss.err ]
	[ "$(grep -c 'libfix:fix_add(' trace.txt)" -eq 200000 ]
}

# The builds of execs.c: through the PLT, and through the GOT (-fno-plt -z now).
EXECS_BUILDS="execs execs-noplt"

# execs MODE [BUILD]: the untraced run's output, for comparison.
plain_execs() {
	"$PROGS/${2:-execs}" "$1" "$PROGS"
}

@test "an exec'd program is traced with or without -f, and sees exactly its own environment" {
	for prog in $EXECS_BUILDS; do
		for how in execve execv execvp execvpe execl execlp execle fexecve execveat; do
			for f in "" -f; do
				run_split ltruss $f -u 'libc:getsid' "$PROGS/$prog" $how "$PROGS"
				[ "$status" -eq 0 ]
				[ "$out" = "$(plain_execs $how $prog)" ] || { echo "$prog $how $f: $out"; false; }
				[ "$(grep -c '^libc:getsid(0) = [0-9]*$' <<<"$err")" -eq 1 ] || { echo "$prog $how $f: $err"; false; }
				# the same process: one exit line, no [pid N] prefix
				[ "$(grep -c '+++' <<<"$err")" -eq 1 ]
				[ "$(grep -c '\[pid' <<<"$err")" -eq 0 ]
			done
		done
	done
}

# exec_line HOW [-f]: the line execs HOW prints for its exec or spawn call,
# selected, addresses normalized and the [pid N] prefix dropped.
exec_line() {
	run_split ltruss $2 -u 'libc:exec*,fexecve,posix_spawn*,open' "$PROGS/execs" $1 "$PROGS"
	[ "$status" -eq 0 ]
	[ "$out" = "$(plain_execs $1)" ]
	grep -E 'exec|spawn' <<<"$err" | sed -E 's/^\[pid [0-9]+\] //' | normalize
}

@test "the exec family and posix_spawn show their typed arguments, as their prototypes say" {
	local f
	# the hooks report these calls: with or without -f the same lines
	for f in "" -f; do
		[ "$(exec_line execve $f)" = 'libc:execve("/proc/self/exe", ADDR, ADDR) <no return ...>' ]
		[ "$(exec_line execv $f)" = 'libc:execv("/proc/self/exe", ADDR) <no return ...>' ]
		[ "$(exec_line execvp $f)" = 'libc:execvp("execs", ADDR) <no return ...>' ]
		[ "$(exec_line execvpe $f)" = 'libc:execvpe("execs", ADDR, ADDR) <no return ...>' ]
		[ "$(exec_line execl $f)" = 'libc:execl("/proc/self/exe", "execs") <no return ...>' ]
		[ "$(exec_line execlp $f)" = 'libc:execlp("execs", "execs") <no return ...>' ]
		[ "$(exec_line execle $f)" = 'libc:execle("/proc/self/exe", "execs") <no return ...>' ]
		[ "$(exec_line execveat $f)" = 'libc:execveat(AT_FDCWD, "/proc/self/exe", ADDR, ADDR, 0) <no return ...>' ]
		[ "$(exec_line spawn $f)" = 'libc:posix_spawn(ADDR, "/proc/self/exe", NULL, NULL, ADDR, ADDR) <no return ...>' ]
		[ "$(exec_line spawnp $f)" = 'libc:posix_spawnp(ADDR, "execs", NULL, NULL, ADDR, ADDR) <no return ...>' ]
		# fexecve gets the descriptor open returned
		run_split ltruss $f -u 'libc:fexecve,open' "$PROGS/execs" fexecve "$PROGS"
		fd=$(sed -nE 's|^libc:open\("/proc/self/exe", O_RDONLY\) = ([0-9]+)$|\1|p' <<<"$err")
		[ -n "$fd" ] || { echo "$err"; false; }
		grep -qx "libc:fexecve($fd, 0x[0-9a-f]*, 0x[0-9a-f]*) <no return ...>" <<<"$err" || { echo "$err"; false; }
	done
}

@test "exec through wrappers without -f: sh -c 'exec ...', env, a pyenv-like shim, with -c" {
	printf '#!/usr/bin/env bash\nset -e\nexec "%s" "$@"\n' "$PROGS/execs" >shim
	chmod +x shim
	for cmd in "sh -c 'exec \"\$0\" leaf' $PROGS/execs" "env X=1 $PROGS/execs leaf" "./shim leaf"; do
		eval "run_split ltruss -u libc:getsid $cmd"
		[ "$status" -eq 0 ]
		[ "$out" = "leaf 1" ] || { echo "$cmd: $out"; false; }
		grep -qx 'libc:getsid(0) = [0-9]*' <<<"$err" || { echo "$cmd: $err"; false; }
		eval "run_split ltruss -c -u libc:getsid $cmd"
		grep -Eqx '100\.00 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +1 +0 libc:getsid' <<<"$err" || { echo "$cmd: $err"; false; }
	done
}

@test "without -f, a child that execs stays untraced, whatever starts it" {
	for prog in $EXECS_BUILDS; do
		for how in fork-execve vfork-execve fork-execv spawn spawnp system popen; do
			run_split ltruss -u 'libc:getsid' "$PROGS/$prog" $how "$PROGS"
			[ "$status" -eq 0 ]
			[ "$out" = "$(plain_execs $how $prog)" ] || { echo "$prog $how: $out"; false; }
			[ "$(grep -c 'getsid' <<<"$err")" -eq 0 ] || { echo "$prog $how: $err"; false; }
			[ "$(grep -c '+++' <<<"$err")" -eq 1 ]
		done
	done
}

@test "-f: children started with an environment of their own are traced, and see exactly it" {
	for prog in $EXECS_BUILDS; do
		for how in fork-execve vfork-execve fork-execv spawn spawnp system popen; do
			run_split ltruss -f -u 'libc:getsid' "$PROGS/$prog" $how "$PROGS"
			[ "$status" -eq 0 ]
			[ "$out" = "$(plain_execs $how $prog)" ] || { echo "$prog $how: $out"; false; }
			grep -Eqx '(\[pid [0-9]+\] )?libc:getsid\(0\) = [0-9]+' <<<"$err" || { echo "$prog $how: $err"; false; }
			[ "$(grep -c '+++ exited (status 0) +++' <<<"$err")" -ge 2 ]
		done
	done
}

@test "a failing exec leaves the process, its errno and its environment as they were" {
	for prog in $EXECS_BUILDS; do
		for f in "" -f; do
			run_split ltruss $f -u 'libc:getsid' "$PROGS/$prog" fail "$PROGS"
			[ "$status" -eq 0 ]
			[ "$out" = "$(plain_execs fail $prog)" ]
			[ "$(sed -n 1p <<<"$out")" = "execve -1 No such file or directory" ]
			grep -qx 'libc:getsid(0) = [0-9]*' <<<"$err"
		done
	done
}

@test "an exec'd program gets the user's own LD_AUDIT back, exactly" {
	export LD_AUDIT="$LTRUSS_TOP_BUILDDIR/lib/libltruss.so"
	for how in execv spawn; do
		run_split ltruss -f -u 'libc:getsid' "$PROGS/execs" $how "$PROGS"
		[ "$status" -eq 0 ]
		[ "$out" = "$(plain_execs $how)" ]
		grep -Eq 'libc:getsid\(0\) = [0-9]+$' <<<"$err"
	done
	run_split ltruss -u 'libc:getsid' "$PROGS/execs" execv "$PROGS"
	[ "$(sed -n 1p <<<"$out")" = "LD_AUDIT=$LD_AUDIT" ]
}

@test "-T -f: a forked child's '<... libc:fork resumed>' time lies within the run, text and JSON" {
	start=$(date +%s%N)
	run_split ltruss -T -f -u 'libc:fork' sh -c '(exit 5); exit 4'
	run_ns=$(( $(date +%s%N) - start ))
	[ "$status" -eq 4 ]
	t=$(sed -nE 's/^\[pid [0-9]+\] <\.\.\. libc:fork resumed> = 0 <([0-9]+)\.([0-9]{6})>$/\1\2/p' <<<"$err")
	[ -n "$t" ] || { echo "$err"; false; }
	[ $((10#$t * 1000)) -le "$run_ns" ] || { echo "$err"; false; }
	run_split ltruss -T -f --json -u 'libc:fork' sh -c '(exit 5); exit 4'
	ns=$(jq -r 'select(.type == "exit" and .func == "fork" and .ret == "0") | .dur_ns' <<<"$err")
	[ -n "$ns" ] && [ "$ns" -gt 0 ] && [ "$ns" -le "$run_ns" ] || { echo "$err"; false; }
}

@test "system and popen, selected, are traced whole, with and without -f" {
	for f in "" -f; do
		run_split ltruss $f -u 'libc:system' "$PROGS/execs" system "$PROGS"
		[ "$out" = "$(plain_execs system)" ]
		grep -Eqx '(\[pid [0-9]+\] )?libc:system\(".*"\.\.\.\) = 0' <<<"$err" || { echo "$f: $err"; false; }
		run_split ltruss $f -u 'libc:popen' "$PROGS/execs" popen "$PROGS"
		[ "$out" = "$(plain_execs popen)" ]
		grep -Eqx '(\[pid [0-9]+\] )?libc:popen\(".*"\.\.\., "r"\) = 0x[0-9a-f]+' <<<"$err" || { echo "$f: $err"; false; }
	done
}

@test "-f: a vfork child that exits without exec gets its own exit line, with its pid" {
	run_split ltruss -f -u 'libc:getpid' "$PROGS/procs" vfork-fail
	[ "$status" -eq 0 ]
	[ "$out" = "child status 127" ]
	parent=$(sed -nE 's/^(\[pid [0-9]+\] )?libc:getpid\(\) = ([0-9]+)$/\2/p' <<<"$err" | head -1)
	[ -n "$parent" ]
	grep -Eqx "\[pid [0-9]+\] \+\+\+ exited \(status 127\) \+\+\+" <<<"$err" || { echo "$err"; false; }
	[ "$(grep -c "^\[pid $parent\] +++ exited (status 127) +++" <<<"$err")" -eq 0 ]
	grep -qx "\[pid $parent\] +++ exited (status 0) +++" <<<"$err"
}

# vfork_run FUNCS: procs vfork-fail traced with -f -u FUNCS, as natively;
# sets $child and $parent from the trace.
vfork_run() {
	run_split ltruss -f -u "$1" "$PROGS/procs" vfork-fail
	[ "$status" -eq 0 ]
	[ "$out" = "child status 127" ]
	child=$(sed -nE 's/^\[pid ([0-9]+)\] \+\+\+ exited \(status 127\) \+\+\+$/\1/p' <<<"$err")
	parent=$(sed -nE 's/^(\[pid [0-9]+\] )?libc:getpid\(\) = ([0-9]+)$/\2/p' <<<"$err" | head -1)
	[ -n "$child" ] && [ -n "$parent" ] || { echo "$err"; false; }
}

@test "vfork's second return, in the parent, shows the child's pid" {
	vfork_run 'libc:getpid,vfork'
	grep -qx "\[pid $parent\] <... libc:vfork resumed> = $child" <<<"$err" || { echo "$err"; false; }
	# without -f, the same line, the child untraced
	run_split ltruss -u 'libc:getpid,vfork' "$PROGS/procs" vfork-fail
	grep -Eqx '<\.\.\. libc:vfork resumed> = [0-9]+' <<<"$err"
	[ "$(grep -c '+++' <<<"$err")" -eq 1 ]
}

@test "-f: vfork's return in the child shows = 0 under the child's pid, and the child's calls are its own" {
	vfork_run 'libc:getpid,vfork,execl,_exit'
	# the child's own return, then its calls, then the parent's return
	grep -E "^\[pid ($child|$parent)\] (<\.\.\. libc:vfork resumed>|libc:execl|libc:_exit)" <<<"$err" >lines
	[ "$(sed -n 1p lines)" = "[pid $child] <... libc:vfork resumed> = 0" ] || { echo "$err"; false; }
	grep -Eqx "\[pid $child\] libc:execl\(.*\) <no return \.\.\.>" <(sed -n 2p lines) || { echo "$err"; false; }
	[ "$(sed -n 3p lines)" = "[pid $child] libc:_exit(127) <no return ...>" ] || { echo "$err"; false; }
	[ "$(sed -n 4p lines)" = "[pid $parent] <... libc:vfork resumed> = $child" ] || { echo "$err"; false; }
	[ "$(wc -l <lines)" -eq 4 ]
	# a child that execs: the program it runs is the child too
	run_split ltruss -f -u 'libc:getsid,vfork,execve' "$PROGS/execs" vfork-execve "$PROGS"
	[ "$status" -eq 0 ]
	child=$(sed -nE 's/^\[pid ([0-9]+)\] <\.\.\. libc:vfork resumed> = 0$/\1/p' <<<"$err")
	[ -n "$child" ] || { echo "$err"; false; }
	grep -Eqx "\[pid $child\] libc:execve\(.*\) <no return \.\.\.>" <<<"$err" || { echo "$err"; false; }
	grep -Eqx "\[pid $child\] libc:getsid\(0\) = [0-9]+" <<<"$err" || { echo "$err"; false; }
}

@test "an untraced vfork whose child execs: the parent's calls stay the parent's, the child's exec the child's" {
	# the child's exec hook used to give the parent's thread a state with
	# the child's pid: the parent's trace was lost, and the program blamed
	run_split ltruss -u 'libc:execve,waitpid' "$PROGS/execs" vfork-execve "$PROGS"
	[ "$status" -eq 0 ]
	[ "$out" = "$(plain_execs vfork-execve)" ]
	child=$(sed -nE 's/^libc:waitpid\(([0-9]+), \[0\], 0\) = \1$/\1/p' <<<"$err")
	[ -n "$child" ] || { echo "$err"; false; }
	[ "$(grep -vc '^+++ exited (status 0) +++$' <<<"$err")" -eq 1 ] || { echo "$err"; false; }
	# a parent with calls traced before: the child's exec is not its own
	for f in "" -f; do
		# -s 4096: $PROGS is printed whole, however long the checkout's path
		run_split ltruss $f -s 4096 -u 'libc:execve,setenv' "$PROGS/execs" vfork-execve "$PROGS"
		[ "$status" -eq 0 ]
		[ "$out" = "$(plain_execs vfork-execve)" ]
		[ "$(grep -c '^\(\[pid [0-9]*\] \)\?libc:setenv("PATH", "'"$PROGS"'", 1) = 0$' <<<"$err")" -eq 1 ] || { echo "$err"; false; }
		if [ -z "$f" ]; then
			[ "$(grep -c 'execve\|ltruss:' <<<"$err")" -eq 0 ] || { echo "$err"; false; }
			continue
		fi
		child=$(sed -nE 's/^\[pid ([0-9]+)\] libc:execve\("\/proc\/self\/exe", 0x[0-9a-f]+, 0x[0-9a-f]+\) <no return \.\.\.>$/\1/p' <<<"$err")
		[ -n "$child" ] || { echo "$err"; false; }
		grep -qx "\[pid $child\] libc:setenv(\"PATH\", \"/nonexistent\", 1) = 0" <<<"$err" || { echo "$err"; false; }
		# the parent's call and exit are not the child's
		[ "$(grep -c "^\[pid $child\] libc:setenv(\"PATH\", \"$PROGS\"" <<<"$err")" -eq 0 ] || { echo "$err"; false; }
		[ "$(grep -c '+++ exited (status 0) +++$' <<<"$err")" -eq 2 ] || { echo "$err"; false; }
		[ "$(grep -c "^\[pid $child\] +++ exited" <<<"$err")" -eq 1 ] || { echo "$err"; false; }
	done
}

@test "sh -c 'CMD; exec CMD' with execve selected: the shell's exec is traced, no warning" {
	run_split ltruss -s 4096 -u 'libc:execve' sh -c '"$0" leaf >/dev/null; exec "$0" leaf' "$PROGS/execs"
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/execs" leaf)" ]
	[ "$(normalize <<<"$err")" = "libc:execve(\"$PROGS/execs\", ADDR, ADDR) <no return ...>
+++ exited (status 0) +++" ] || { echo "$err"; false; }
}

@test "without -f, a vfork child is not traced: no return of its own, none of its calls" {
	run_split ltruss -u 'libc:getpid,vfork,execl,_exit' "$PROGS/procs" vfork-fail
	[ "$status" -eq 0 ]
	[ "$out" = "child status 127" ]
	grep -Eqx '<\.\.\. libc:vfork resumed> = [0-9]+' <<<"$err" || { echo "$err"; false; }
	[ "$(grep -c 'resumed> = 0$\|execl\|_exit' <<<"$err")" -eq 0 ] || { echo "$err"; false; }
	[ "$(grep -c '^libc:getpid() = ' <<<"$err")" -eq 2 ]
	# -c counts the parent's calls only
	run_split ltruss -c -u 'libc:getpid,vfork,execl,_exit' "$PROGS/procs" vfork-fail
	[ "$(grep -cE ' libc:(execl|_exit)$' <<<"$err")" -eq 0 ] || { echo "$err"; false; }
}

@test "a vfork child killed before any hook, its thread gone: later threads are traced, as themselves" {
	run_split ltruss -u 'libc:getpid,getppid,vfork' "$PROGS/vforks" thread-killed
	[ "$status" -eq 0 ]
	[ "$out" = "status 0x9" ]
	[ "$(grep -c 'libc:getppid() = ' <<<"$err")" -eq 2 ] || { echo "$err"; false; }
	grep -Eq '^(\[pid [0-9]+\] )?libc:getpid\(\) = [0-9]+$' <<<"$err" || { echo "$err"; false; }
	run_split ltruss -f -u 'libc:getpid,getppid,vfork' "$PROGS/vforks" thread-killed
	[ "$status" -eq 0 ]
	child=$(sed -nE 's/^\[pid ([0-9]+)\] <\.\.\. libc:vfork resumed> = 0$/\1/p' <<<"$err")
	[ -n "$child" ] || { echo "$err"; false; }
	# the child's one call; the later thread's two under its own id
	[ "$(grep -c "^\[pid $child\] libc:getppid() = " <<<"$err")" -eq 1 ] || { echo "$err"; false; }
	[ "$(grep -c 'libc:getppid() = ' <<<"$err")" -eq 3 ] || { echo "$err"; false; }
}

@test "a vfork child that vforks in turn: the parent's return and calls stay traced" {
	run_split ltruss -u 'libc:getpid,getppid,vfork' "$PROGS/vforks" nested
	[ "$status" -eq 0 ]
	[ "$out" = "status 0x400" ]
	grep -Eqx '<\.\.\. libc:vfork resumed> = [0-9]+' <<<"$err" || { echo "$err"; false; }
	grep -Eqx 'libc:getpid\(\) = [0-9]+' <<<"$err" || { echo "$err"; false; }
	[ "$(grep -c 'getppid' <<<"$err")" -eq 0 ] || { echo "$err"; false; }
	run_split ltruss -f -u 'libc:getpid,getppid,vfork' "$PROGS/vforks" nested
	[ "$status" -eq 0 ]
	child=$(sed -nE 's/^\[pid ([0-9]+)\] <\.\.\. libc:vfork resumed> = 0$/\1/p' <<<"$err" | head -1)
	[ -n "$child" ] || { echo "$err"; false; }
	grep -Eqx "\[pid [0-9]+\] <\.\.\. libc:vfork resumed> = $child" <<<"$err" || { echo "$err"; false; }
	grep -qx "\[pid $child\] +++ exited (status 4) +++" <<<"$err" || { echo "$err"; false; }
	grep -Eqx '\[pid [0-9]+\] libc:getpid\(\) = [0-9]+' <<<"$err" || { echo "$err"; false; }
}

@test "-f -w: a vfork child's lines read back as they were live, and --pid picks the child" {
	ltruss -f -w trace.ltr -u 'libc:getpid,vfork,execl,_exit' "$PROGS/procs" vfork-fail >/dev/null 2>&1
	run_split ltruss --read trace.ltr
	[ "$status" -eq 0 ]
	child=$(sed -nE 's/^\[pid ([0-9]+)\] <\.\.\. libc:vfork resumed> = 0$/\1/p' <<<"$out")
	[ -n "$child" ] || { echo "$out"; false; }
	run_split ltruss --read trace.ltr --pid "$child"
	[ "$status" -eq 0 ]
	grep -vE '^\[pid [0-9]+\] \+\+\+' <<<"$out" >child
	grep -qx "\[pid $child\] <... libc:vfork resumed> = 0" child || { echo "$out"; false; }
	grep -q "\[pid $child\] libc:_exit(127) <no return ...>" child || { echo "$out"; false; }
	[ "$(grep -c "^\[pid $child\]" child)" -eq "$(wc -l <child)" ] || { echo "$out"; false; }
	run_split ltruss --read trace.ltr -u 'libc:_exit'
	grep -qx "\[pid $child\] libc:_exit(127) <no return ...>" <<<"$out" || { echo "$out"; false; }
	[ "$(grep -c 'vfork\|getpid' <<<"$out")" -eq 0 ] || { echo "$out"; false; }
}

@test "an exec'd set-group-ID program runs untraced, and ltruss says so once" {
	prog=/usr/bin/chage
	[ -g "$prog" ] || skip "$prog is not set-group-ID here"
	plain_status=0
	sh -c "exec $prog -l root" >/dev/null 2>&1 || plain_status=$?
	run_split ltruss -u 'libc:getsid' sh -c "exec $prog -l root"
	[ "$status" -eq "$plain_status" ]
	[ "$(grep -c '^ltruss: not tracing a set-user-ID or set-group-ID program: /usr/bin/chage$' <<<"$err")" -eq 1 ]
}

@test "an exec'd statically linked program runs untraced, and ltruss says so once" {
	plain=$("$PROGS/static-hello")
	run_split ltruss -u 'libc:getsid' sh -c "exec '$PROGS/static-hello'"
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$(grep -c "^ltruss: statically linked, not traced itself (what it runs or loads still is): $PROGS/static-hello\$" <<<"$err")" -eq 1 ] || { echo "$err"; false; }
	[ "$(grep -c '^ltruss: ' <<<"$err")" -eq 1 ]
}

@test "-f: a child that execs a static program found on PATH, or a script it interprets: said once each" {
	printf '#!%s\n' "$PROGS/static-hello" >script
	chmod +x script
	run_split ltruss -f -u 'libc:getsid' sh -c "env PATH='$PROGS' static-hello; ./script"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^hello' <<<"$out")" -eq 2 ]
	# Said by each child, as its trace lines are: with its [pid N].
	[ "$(grep -c "^\[pid [0-9]*\] ltruss: statically linked, not traced itself (what it runs or loads still is): $PROGS/static-hello\$" <<<"$err")" -eq 1 ] || { echo "$err"; false; }
	[ "$(grep -c '^\[pid [0-9]*\] ltruss: statically linked, not traced itself (what it runs or loads still is): ./script$' <<<"$err")" -eq 1 ] || { echo "$err"; false; }
	[ "$(grep -c '^\[pid [0-9]*\] ltruss: ' <<<"$err")" -eq 2 ]
	# Two children: two pids.
	[ "$(sed -n 's/^\[pid \([0-9]*\)\] ltruss: .*/\1/p' <<<"$err" | sort -u | wc -l)" -eq 2 ]
}

@test "-f: posix_spawnp of a static program found on PATH: said once" {
	mkdir d
	cp "$PROGS/static-hello" d/execs
	run_split ltruss -f -u 'libc:getsid' "$PROGS/execs" spawnp "$PWD/d"
	[ "$(grep -c '^hello$' <<<"$out")" -eq 1 ] || { echo "$out"; false; }
	[ "$(grep -c "^ltruss: statically linked, not traced itself (what it runs or loads still is): $PWD/d/execs\$" <<<"$err")" -eq 1 ] || { echo "$err"; false; }
}

@test "an exec of a FIFO or a device fails as untraced, and ltruss opens neither" {
	mkfifo fifo
	chmod +x fifo
	plain_status=0
	sh -c 'exec ./fifo' 2>/dev/null || plain_status=$?
	run_split timeout 20 "$LTRUSS" -u 'libc:getsid' sh -c 'exec ./fifo'
	[ "$status" -eq "$plain_status" ]
	run_split timeout 20 "$LTRUSS" -u 'libc:getsid' sh -c 'exec /dev/null'
	[ "$status" -ne 124 ]
	[ "$(grep -c '^ltruss: ' <<<"$err")" -eq 0 ]
}

@test "an exec'd program for another architecture: ltruss says so and carries nothing into it" {
	printf '.globl _start\n_start:\n\tmovl $1, %%eax\n\tmovl $7, %%ebx\n\tint $0x80\n' >x32.s
	as --32 -o x32.o x32.s
	ld -m elf_i386 -o x32 x32.o
	plain_status=0
	sh -c 'exec ./x32' 2>plain.err || plain_status=$?
	run_split ltruss -u 'libc:getsid' sh -c 'exec ./x32'
	[ "$status" -eq "$plain_status" ]
	[ "$(grep -c '^ltruss: not tracing a program for another architecture: ./x32$' <<<"$err")" -eq 1 ] || { echo "$err"; false; }
	[ "$(grep -c 'ld.so\|ERROR' <<<"$err")" -eq "$(grep -c 'ld.so\|ERROR' plain.err)" ]
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

@test "-f: a child forked while another thread is in system() sees the program's own environment" {
	# the thread's system() holds its shell while the main thread forks
	plain=$("$PROGS/forkenv" system)
	[ "$plain" = "3 children, 0 saw ltruss's variables" ]
	run_split ltruss -f -u 'libc:getsid' "$PROGS/forkenv" system
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ] || { echo "$out"; false; }
	# the shells are followed all the same, the children's own too
	[ "$(grep -Ec '^\[pid [0-9]+\] \+\+\+ exited \(status 0\) \+\+\+$' <<<"$err")" -eq 8 ] || { echo "$err"; false; }
}

@test "-f: a child forked while another thread starts popen() sees its own environment, and runs a shell itself" {
	# a big environment makes the copy long to build: forks land while
	# exec.c holds its lock, and each child then takes it for system()
	for i in $(seq 10000); do export "V$i=x"; done
	plain=$("$PROGS/forkenv" popen 20)
	[ "$plain" = "20 children, 0 saw ltruss's variables" ]
	run_split ltruss -f -o /dev/null -u 'libc:getsid' "$PROGS/forkenv" popen 20
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	# a usual environment: a fork often lands while environ is the copy
	for i in $(seq 10000); do unset "V$i"; done
	plain=$("$PROGS/forkenv" popen 200)
	run_split ltruss -f -o /dev/null -u 'libc:getsid' "$PROGS/forkenv" popen 200
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ] || { echo "$out"; false; }
}

@test "-f: a variable set while another thread is in system(): the program and its children keep their own environment" {
	# setenv replaces environ while it is the copy system() carries
	plain=$("$PROGS/forkenv" setenv)
	[ "$(sed -n 2p <<<"$plain")" = "after system: FORKENV set, sees ltruss's variables: no" ]
	run_split ltruss -f -u 'libc:getsid' "$PROGS/forkenv" setenv
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ] || { echo "$out"; false; }
	grep -Eqx '\[pid [0-9]+\] \+\+\+ exited \(status 0\) \+\+\+' <<<"$err"
	[ "$(grep -c 'killed' <<<"$err")" -eq 0 ] || { echo "$err"; false; }
}

@test "-f: 600 short processes while ltruss is stopped: each waits for an ended one's slot and is traced, none goes untraced" {
	# 511 slots; an ended process keeps its own until ltruss, stopped
	# here, drains and reports it.  Before, the 510th process on went
	# untraced ("more than 511 threads at a time") though one ran at a time.
	"$LTRUSS" -f -o trace -u 'libfix:fix_twice' sh -c 'touch started
		while [ ! -e go ]; do sleep 0.01; done
		for i in $(seq 600); do echo $i >progress; "$1" 1 >/dev/null; done' sh "$PROGS/fix-lazy" 2>err &
	ltruss_pid=$!
	for i in $(seq 1 200); do [ -e started ] && break; sleep 0.05; done
	kill -STOP "$ltruss_pid"
	touch go
	# Until the loop is done (as before) or has not moved for 2 s (waiting).
	last= same=0
	for i in $(seq 1 600); do
		sleep 0.1
		now=$(cat progress 2>/dev/null || true)
		[ "$now" = 600 ] && break
		if [ "$now" = "$last" ]; then
			same=$((same + 1))
			[ "$same" -lt 20 ] || break
		else
			same=0
		fi
		last=$now
	done
	# The processes waited for ltruss, with fewer than 511 started.
	[ "$(cat progress)" -lt 512 ]
	kill -CONT "$ltruss_pid"
	wait "$ltruss_pid"
	[ "$(grep -c '^\[pid [0-9]*\] libfix:fix_twice(' trace)" -eq 600 ]
	# The shell, its sleeps and the 600 ended well.
	[ "$(grep -c '+++' trace)" -eq "$(grep -c '^\[pid [0-9]*\] +++ exited (status 0) +++$' trace)" ]
	[ "$(grep -c '+++' trace)" -gt 600 ]
	[ ! -s err ]
}

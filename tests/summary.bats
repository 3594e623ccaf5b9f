#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# summary.bats: -c/-C summaries, their formats, and exact counts however the program ends.

load helpers

# calls_of FUNC: the calls column of FUNC's row in a text summary in $err.
calls_of() {
	awk -v f="$1" '$NF == f { print $(NF-2) }' <<<"$err"
}

@test "-c: the summary table (% time ... function, a total row), no trace lines" {
	run_split ltruss -c -u 'libfix:*' "$PROGS/fix-lazy" 10
	[ "$status" -eq 0 ]
	run head -2 <<<"$err"
	assert_line --index 0 '% time     total s      self s   avg us   min us   max us      calls   errors function'
	assert_line --index 1 '------ ----------- ----------- -------- -------- -------- ---------- -------- ----------------'
	[ "$(calls_of libfix:fix_add)" -eq 11 ]
	[ "$(calls_of libfix:fix_twice)" -eq 1 ]
	[ "$(calls_of total)" -eq 13 ]
	grep -Eqx '100\.00 +[0-9]+\.[0-9]{6} +13 +0 total' <<<"$err"
	[ "$(grep -c '^libfix:' <<<"$err")" -eq 0 ]
	[ "$(grep -c '+++ exited' <<<"$err")" -eq 0 ]
}

# aligned FILE: every line of the text summary in FILE has its numeric
# cells right-aligned in the columns its rules draw, blank or whole.
aligned() {
	awk '
	/^-/ && !n { for (i = 1; i <= length($0); i++)
			if (substr($0, i, 1) == "-" && substr($0, i + 1, 1) != "-")
				ends[++n] = i
		start = 1
		for (k = 1; k < n; k++) { starts[k] = start; start = ends[k] + 2 }
		next }
	!n || /^-/ { next }
	{ for (k = 1; k < n; k++) {
		cell = substr($0, starts[k], ends[k] - starts[k] + 1)
		if (substr($0, ends[k] + 1, 1) != " " ||
		    (cell !~ /^ *[^ ]+$/ && cell !~ /^ *$/ && cell != "% time")) {
			print "misaligned: " $0; bad = 1 } } }
	END { exit bad || !n }' "$1"
}

@test "-c: columns stay aligned past 100 ms a call, and past 1000 s (a recording's clock slowed 10000 times)" {
	run_split ltruss -c -o summary -u 'libc:usleep,getppid' "$PROGS/blocker"
	[ "$status" -eq 0 ]
	# usleep(400000): 0.4 s, more on a loaded machine (under 1 s).
	grep -Eq '^100\.00 +0\.[4-9][0-9]{5} +0\.[4-9][0-9]{5} +[4-9][0-9]{5}\.[0-9]{3} .* 1 +0 libc:usleep$' summary
	aligned summary
	run_split ltruss -w b.ltr -u 'libc:usleep,getppid' "$PROGS/blocker"
	"$PROGS/ltr-mutate" b.ltr slow.ltr slow-clock
	run_split ltruss --read slow.ltr -c -o summary
	[ "$status" -eq 0 ]
	grep -Eq '^100\.00 +[4-9][0-9]{3}\.[0-9]{6} +[4-9][0-9]{3}\.[0-9]{6} +[4-9][0-9]{9}\.[0-9]{3} .* 1 +0 libc:usleep$' summary
	aligned summary
}

@test "-C: trace lines and the table" {
	run_split ltruss -C -u 'libfix:fix_pick' "$PROGS/fix-lazy" 1
	grep -Eqx 'libfix:fix_pick\(0x7, .*\) = 0x46' <<<"$err"
	[ "$(calls_of libfix:fix_pick)" -eq 1 ]
}

@test "-S sorts by calls, by name, and the percentages add up" {
	run_split ltruss -c -S calls -u 'libfix:*' "$PROGS/fix-lazy" 10
	[ "$(sed -n 3p <<<"$err" | awk '{ print $NF }')" = "libfix:fix_add" ]
	run_split ltruss -c -S name -u 'libfix:*' "$PROGS/fix-lazy" 10
	run sed -n '3,5p' <<<"$err"
	[ "$(awk '{ print $NF }' <<<"$output" | tr '\n' ' ')" = "libfix:fix_add libfix:fix_pick libfix:fix_twice " ]
	run awk 'NR > 2 && $NF ~ /^libfix/ { s += $1 } END { printf "%.0f", s }' <<<"$err"
	assert_output 100
}

@test "--summary-format json: per function, per library, per process" {
	run_split ltruss -c --summary-format json -u 'libfix:*' -u 'libc:strlen' "$PROGS/fix-lazy" 10
	[ "$status" -eq 0 ]
	run jq -r '.functions[] | "\(.lib):\(.function) \(.calls)"' <<<"$err"
	assert_line 'libfix:fix_add 11'
	assert_line 'libc:strlen 1'
	run jq -r '.libraries[] | "\(.lib) \(.calls)"' <<<"$err"
	assert_line 'libfix 13'
	assert_line 'libc 1'
	run jq -r '[.total.calls, ([.functions[].calls] | add), (.processes | length), .processes[0].calls] | join(" ")' <<<"$err"
	assert_output '14 14 1 14'
}

@test "--summary-format csv: a header and one row per function" {
	run_split ltruss -c --summary-format csv -u 'libfix:*' "$PROGS/fix-lazy" 10
	run head -1 <<<"$err"
	assert_output 'lib,function,calls,errors,total_ns,self_ns,avg_ns,min_ns,max_ns,percent_self'
	grep -Eqx 'libfix,fix_add,11,0,[0-9]+,[0-9]+,[0-9]+,[0-9]+,[0-9]+,[0-9.]+' <<<"$err"
	[ "$(wc -l <<<"$err")" -eq 4 ]
}

@test "--summary-format rejects an unknown format" {
	run ltruss -c --summary-format xml true
	assert_failure 2
	assert_output "ltruss: error: unknown summary format 'xml' (use text, json or csv); see 'ltruss --help'"
}

@test "self time excludes traced callees" {
	run_split ltruss -c --summary-format json -u 'libfix::*' "$PROGS/fix-lazy" 1
	run jq -r '.functions[] | select(.function == "fix_twice") | (.self_ns < .total_ns)' <<<"$err"
	assert_output true
}

@test "exact counts when the program is killed: SIGKILL, SIGSEGV, abort" {
	for how in kill segv abort; do
		run_split ltruss -c -u 'libfix:fix_add' "$PROGS/die" 123456 "$how"
		[ "$status" -gt 128 ]
		[ "$(calls_of libfix:fix_add)" -eq 123456 ]
		grep -q '^+++ killed by SIG' <<<"$err"
	done
}

@test "exact counts with _exit from a thread" {
	run_split ltruss -c -u 'libfix:fix_add' "$PROGS/die" 1000 thread-exit
	[ "$status" -eq 7 ]
	[ "$(calls_of libfix:fix_add)" -eq 1000 ]
}

@test "-f: a fork() both processes return from is counted once, live and read back" {
	run_split ltruss -f -c -u 'libc:fork,getpid' "$PROGS/procs" early-fork
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/procs" early-fork)" ]
	[ "$(calls_of libc:fork)" -eq 1 ]
	[ "$(calls_of libc:getpid)" -eq 2 ]
	# bhv-fork forks twice, once inside a traced call (bhv_apply).
	run_split ltruss -f -c -u 'libc:fork' -u 'libbhv:*' "$PROGS/bhv-fork"
	[ "$(calls_of libc:fork)" -eq 2 ]
	[ "$(calls_of libbhv:bhv_apply)" -eq 1 ]
	# Narrowed, --read counts from the events: the child's copy too.
	run_split ltruss -f -w t.ltr -u 'libc:fork' -u 'libbhv:*' "$PROGS/bhv-fork"
	run_split ltruss --read t.ltr -c -u 'libc:fork' -u 'libbhv:*' -o summary
	err=$(cat summary)
	[ "$(calls_of libc:fork)" -eq 2 ]
	[ "$(calls_of libbhv:bhv_apply)" -eq 1 ]
	run_split ltruss --read t.ltr --tree -o tree -u 'libc:fork' -u 'libbhv:*'
	grep -Eq '^ +1 +[0-9.]+ +[0-9.]+  libbhv:bhv_apply$' tree
}

@test "counts with threads still calling at exit: every completed call, none twice" {
	run_split ltruss -c --summary-format json -u 'libfix:fix_add' "$PROGS/die" 1000 running
	[ "$status" -eq 3 ]
	run jq -r '.functions[0].calls >= 1000' <<<"$err"
	assert_output true
}

@test "-f: the summary covers every process" {
	run_split ltruss -f -c --summary-format json -u 'libc:getpid' sh -c 'for i in 1 2 3; do sh -c "true"; done'
	[ "$status" -eq 0 ]
	run jq -r '.processes | length >= 1' <<<"$err"
	assert_output true
	run_split ltruss -f -c -u 'libfix:fix_add' sh -c "'$PROGS/fix-lazy' 1000 >/dev/null; '$PROGS/fix-lazy' 500 >/dev/null"
	[ "$(calls_of libfix:fix_add)" -eq 1502 ]
}

@test "-f -c: the command killed after a child ran: its +++ line says whose it is, as the trace's does" {
	run_split ltruss -f -u 'libc:getpid' sh -c '/bin/true; kill -SEGV $$'
	[ "$status" -eq 139 ]
	live=$(grep -x '\[pid [0-9]*\] +++ killed by SIGSEGV +++' <<<"$err")
	run_split ltruss -f -c -u 'libc:getpid' sh -c '/bin/true; kill -SEGV $$'
	[ "$status" -eq 139 ]
	[ "$(head -1 <<<"$err" | sed 's/[0-9][0-9]*/N/')" = "$(sed 's/[0-9][0-9]*/N/' <<<"$live")" ]
	# One process: no [pid N].
	run_split ltruss -c -u 'libc:getpid' sh -c 'kill -SEGV $$'
	[ "$(head -1 <<<"$err")" = "+++ killed by SIGSEGV +++" ]
}

@test "--tree: call paths with calls, inclusive and self time" {
	run_split ltruss -c --tree -u 'libfix::*' "$PROGS/fix-lazy" 3
	[ "$status" -eq 0 ]
	run sed -n '/call tree$/,$p' <<<"$err"
	assert_line --index 0 '     calls     total us      self us  call tree'
	assert_line --regexp '^ +4 +[0-9.]+ +[0-9.]+  libfix:fix_add$'
	assert_line --regexp '^ +1 +[0-9.]+ +[0-9.]+  libfix:fix_twice$'
	assert_line --regexp '^ +1 +[0-9.]+ +[0-9.]+    libfix:fix_add$'
}

@test "--folded: collapsed stacks a flame graph reads" {
	run_split ltruss --folded stacks.txt -u 'libfix::*' "$PROGS/fix-lazy" 3
	[ "$status" -eq 0 ]
	# trace lines are still printed without -c
	grep -q '^libfix:fix_twice' <<<"$err"
	run cat stacks.txt
	assert_line --regexp '^libfix:fix_twice;libfix:fix_add [0-9]+$'
	assert_line --regexp '^libfix:fix_add [0-9]+$'
	[ "${#lines[@]}" -eq 4 ]
}

@test "--chrome: trace-event JSON with one event per call and process names" {
	run_split ltruss -c --chrome trace.json -u 'libfix::*' "$PROGS/fix-lazy" 3
	[ "$status" -eq 0 ]
	run jq -r '[.traceEvents[] | select(.ph == "X")] | length' trace.json
	assert_output 7
	run jq -r '.traceEvents[] | select(.ph == "M") | .args.name' trace.json
	assert_output fix-lazy
	run jq -e '[.traceEvents[] | select(.ph == "X") | (.dur >= 0 and .ts > 0 and .tid > 0)] | all' trace.json
	assert_success
}

@test "--folded and --chrome to unwritable paths fail before the program runs" {
	run ltruss --folded /nonexistent/x -c touch ran
	assert_failure 2
	assert_output "ltruss: error: cannot write '/nonexistent/x' (--folded): No such file or directory"
	run ltruss --chrome /nonexistent/x -c touch ran
	assert_failure 2
	assert_output "ltruss: error: cannot write '/nonexistent/x' (--chrome): No such file or directory"
	[ ! -e ran ]
}

@test "8 threads x 1M calls: exact counts, same output" {
	plain=$("$PROGS/spin" 8 1000000)
	run_split ltruss -c -u 'libfix:fix_add' "$PROGS/spin" 8 1000000
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$(calls_of libfix:fix_add)" -eq 8000000 ]
}

@test "64 threads x 100k calls: exact counts" {
	run_split ltruss -c -u 'libfix:fix_add' "$PROGS/spin" 64 100000
	[ "$status" -eq 0 ]
	[ "$(calls_of libfix:fix_add)" -eq 6400000 ]
}

@test "8 threads traced in full: every call has its line" {
	run_split ltruss -o trace.txt -u 'libfix:fix_add' "$PROGS/spin" 8 20000
	[ "$status" -eq 0 ]
	[ "$(grep -c 'libfix:fix_add(' trace.txt)" -eq 160000 ]
	# each thread's lines carry its own id once there are several (the
	# first thread's earliest lines come before there are several)
	[ "$(grep -o '^\[pid [0-9]*\]' trace.txt | sort -u | wc -l)" -ge 7 ]
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# behaviour.bats: traced programs behave exactly as untraced ones.

load helpers

# Each test runs a fixture from tests/progs/behaviour/ untraced and traced,
# requires the same stdout and exit status, and checks the trace lines.

# untraced PROGRAM ARGS...: run PROGRAM without ltruss; stdout in $plain,
# exit status in $plain_status.
untraced() {
	local o="$BATS_TEST_TMPDIR/plain.out"

	plain_status=0
	timeout -k 5 60 "$@" </dev/null >"$o" 2>"$BATS_TEST_TMPDIR/plain.err" ||
		plain_status=$?
	plain=$(cat "$o")
}

# compare_traced LTRUSS-OPTIONS... -- PROGRAM ARGS...: run PROGRAM untraced
# and under ltruss (stdout in $out, trace in $err, status in $status); fail
# unless both runs print the same stdout and end with the same status.
compare_traced() {
	local opts=()

	while [ "$1" != "--" ]; do
		opts+=("$1")
		shift
	done
	shift
	[ -x "$1" ] || fail "fixture $1 was not built"
	untraced "$@"
	run_split ltruss "${opts[@]}" "$@"
	if [ "$out" != "$plain" ]; then
		diff -u <(printf '%s\n' "$plain") <(printf '%s\n' "$out") |
			head -40 >&2 || true
		printf 'trace (first lines):\n%s\n' "$(head -20 <<<"$err")" >&2
		fail "stdout differs under ltruss ${opts[*]}"
	fi
	[ "$status" -eq "$plain_status" ] ||
		fail "exit status $status under ltruss, $plain_status without (trace: $(tail -3 <<<"$err"))"
}

# An address or any other register value in a trace line, for regexes.
X='(0x[0-9a-f]+|0)'

# trace_has LINE: the trace has LINE, whole (as printed, or after normalize).
trace_has() {
	grep -Fxq -- "$1" <<<"$err" || normalize <<<"$err" | grep -Fxq -- "$1" ||
		fail "no trace line '$1' in: $(head -30 <<<"$err")"
}

# trace_count REGEX: the number of trace lines matching REGEX.
trace_count() {
	grep -cE -- "$1" <<<"$err" || true
}

# expect_count N REGEX: exactly N trace lines match REGEX.
expect_count() {
	local n

	n=$(trace_count "$2")
	[ "$n" -eq "$1" ] ||
		fail "$n trace lines match '$2', expected $1 (trace: $(head -20 <<<"$err"))"
}

# summary_calls FUNC: the calls column of FUNC's row in the -c summary.
summary_calls() {
	awk -v f="$1" '$NF == f { print $7 }' <<<"$err"
}

# bad_sums LIB:FUNC K [ADD]: print "checked bad" for the trace lines of FUNC
# whose return value should be the sum of the K first arguments shown, + ADD.
bad_sums() {
	sed -nE "s/^(\[pid [0-9]+\] )? *$1\(([0-9a-fx]+), ([0-9a-fx]+), ([0-9a-fx]+)\) = ([0-9a-fx]+)\$/\2 \3 \4 \5/p" <<<"$err" |
		awk -v k="$2" -v add="${3:-0}" '
		# hex("0x1f") = 31; "0" = 0.
		function hex(s,   n, i) {
			n = 0
			sub(/^0x/, "", s)
			for (i = 1; i <= length(s); i++)
				n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return n
		}
		{
			want = add
			for (i = 1; i <= k; i++)
				want += hex($i)
			n++
			if (hex($4) != want) {
				if (bad++ < 5)
					print "wrong: " $0 > "/dev/stderr"
			}
		}
		END { print n + 0, bad + 0 }'
}

# expect_good_sums LIB:FUNC K MIN [ADD]: at least MIN lines of FUNC, all
# with the sum of their K first arguments (+ ADD) as return value.
expect_good_sums() {
	local checked bad

	read -r checked bad < <(bad_sums "$1" "$2" "${4:-0}")
	[ "$bad" -eq 0 ] || fail "$bad calls of $1 returned a wrong value"
	[ "$checked" -ge "$3" ] || fail "only $checked calls of $1 traced, expected at least $3"
}

@test "8 threads calling one traced function: same output, exact counts" {
	compare_traced -c -u 'libbhv:bhv_add3' -- "$PROGS/bhv-threads"
	assert_equal "$(tail -1 <<<"$out")" "total: 400320000"
	assert_equal "$(summary_calls libbhv:bhv_add3)" 80000

	# Line by line: every call, 10000 for each thread, each right.
	compare_traced -u 'libbhv:bhv_add3' -- "$PROGS/bhv-threads"
	expect_count 80000 '^(\[pid [0-9]+\] )?libbhv:bhv_add3\(.*\) = '
	expect_count 0 '\{$|<unwound>'
	for t in 0 0x1 0x2 0x3 0x4 0x5 0x6 0x7; do
		expect_count 10000 ", $t, 0x1\) = "
	done
	expect_good_sums libbhv:bhv_add3 3 80000
	expect_count 1 '^\+\+\+ exited \(status 0\) \+\+\+$'
}

# count_rows: "calls errors function" of each function row of the summary in $err.
count_rows() {
	awk 'NF == 9 && $1 ~ /^[0-9.]+$/ && $7 ~ /^[0-9]+$/ { print $7, $8, $9 }' <<<"$err" | sort
}

@test "-c counts what a trace counts: longjmp, exceptions, coroutines, fork, threads, calls nested 1100 deep" {
	local args rows sel=(-u 'libbhv:*' -u 'libbhvxx:*' -u 'libcoro:*')

	# -c alone takes the interposer's plain path (capture.c); with a trace
	# (-C) the calls take the traced one, which writes events: the counts
	# must not differ.
	for args in bhv-longjmp "bhv-longjmp 20000" bhv-exceptions stk-coro \
		"stk-copystack 34" bhv-fork bhv-threads "stk-deep 1100"; do
		# shellcheck disable=SC2086
		set -- "$PROGS/"$args
		compare_traced -c "${sel[@]}" -- "$@"
		rows=$(count_rows)
		[ -n "$rows" ] || fail "$args: no summary: $err"
		compare_traced -C "${sel[@]}" -- "$@"
		assert_equal "$(count_rows)" "$rows"
	done
	# Nested calls: the time of the callees is not the caller's own.
	run_split ltruss -c --summary-format json -u 'libbhv:bhv_apply' "$PROGS/stk-deep" 1000
	run jq -r '.functions[] | select(.function == "bhv_apply") | (.self_ns < .total_ns / 2)' <<<"$err"
	assert_output true
}

# json_calls: the events of the --json trace in file $1, each thread's on a
# line in its order, without what differs from run to run (times, ids,
# addresses) or with -k (stacks); the threads sorted.  A call shown whole
# is its entry and its exit: a thread descheduled in a call (a loaded
# machine) has it shown in two pieces, the entry at once.
json_calls() {
	sed -E 's/0x[0-9a-f]{6,}/ADDR/g' "$1" |
		jq -sc '[.[] | select(.tid) |
			if .type == "call" then
				(del(.end) + {type: "enter", ret: null, errno: null}), (. + {type: "exit"})
			else . end] | group_by(.tid) |
			map(map(del(.ts, .dur_ns, .pid, .tid, .stack, .stack_end))) | sort | .[]'
}

# json_nested: every thread's events in file $1 (--json) nest: an entry at
# the depth of the calls in progress, a return (or an unwound call) at the
# depth of one of them, the same function; none left at the end.
json_nested() {
	jq -r 'select(.type == "enter" or .type == "exit" or .type == "call") |
			[.tid, .type, .depth, .func] | @tsv' "$1" |
		awk -F'\t' '
			function bad(why) { print NR ": " why ": " $0; exit 1 }
			$2 == "enter" { if ($3 != n[$1] + 0) bad("entry depth"); f[$1, $3] = $4; n[$1]++ }
			$2 == "call" { if ($3 != n[$1] + 0) bad("call depth") }
			$2 == "exit" {
				if ($3 >= n[$1] + 0 || f[$1, $3] != $4) bad("return depth")
				for (i = $3; i < n[$1] - 1; i++) f[$1, i] = f[$1, i + 1]
				n[$1]--
			}
			END { for (t in n) if (n[t]) { print "thread " t ": " n[t] " calls open"; exit 1 } }'
}

@test "a trace's plain calls print what the general path prints: longjmp, exceptions, coroutines, fork, threads, calls nested 1100 deep, hidden ones" {
	local args calls t=$BATS_TEST_TMPDIR/trace.json
	local sel=(-u 'libbhv:*' -u 'libbhvxx:*' -u 'libcoro:*')

	# Without -k the calls that copy only registers write their events
	# inline (capture.c's short path); -k sends every entry the general way
	# (events-now.h: entry_plain).  The events must be the same and nest
	# as the calls did.  (-c's counts against -C's: the test above.)  To a
	# file: the interposer's warnings cut into lines on stderr.
	for args in bhv-longjmp "bhv-longjmp 20000" bhv-exceptions stk-coro \
		"stk-copystack 34" bhv-fork bhv-threads "stk-deep 1100" \
		"-D 3 stk-deep 20"; do
		# shellcheck disable=SC2086
		set -- $args
		local opts=()
		while [ "${1#-}" != "$1" ]; do opts+=("$1" "$2"); shift 2; done
		set -- "$PROGS/$@"
		compare_traced --json -o "$t" "${opts[@]}" "${sel[@]}" -- "$@"
		calls=$(json_calls "$t")
		[ -n "$calls" ] || fail "$args: no trace: $err"
		json_nested "$t" || fail "$args: the events do not nest"
		compare_traced --json -o "$t" -k "${opts[@]}" "${sel[@]}" -- "$@"
		if [ "$(json_calls "$t")" != "$calls" ]; then
			diff <(jq -c '.[]' <<<"$calls") <(json_calls "$t" | jq -c '.[]') | head -20 >&2 || true
			fail "$args: the trace differs with -k (the general path)"
		fi
	done
}

@test "fork: the child runs untraced, the parent's trace and output are unchanged" {
	compare_traced -u 'libbhv:*' -- "$PROGS/bhv-fork"
	assert_equal "$out" "parent before: 6
child: 96
child status: 0
parent between: 24
child inside: 240
parent inside: 16
parent after: 15"
	trace_has 'libbhv:bhv_add3(0x1, 0x2, 0x3) = 0x6'
	trace_has 'libbhv:bhv_add3(0x7, 0x8, 0x9) = 0x18'
	expect_count 1 "^libbhv:bhv_apply\\($X, 0x7, $X\\) = 0x10\$"
	trace_has 'libbhv:bhv_add3(0x4, 0x5, 0x6) = 0xf'
	# The children's calls are not traced without -f.
	expect_count 0 '0x10, 0x20, 0x30|0x40, 0x50, 0x60'
	expect_count 5 '.'
	trace_has '+++ exited (status 0) +++'
}

@test "vfork and exec of /bin/echo: output unchanged" {
	compare_traced -u 'libbhv:*' -u 'libc:vfork' -- "$PROGS/bhv-vfork"
	assert_equal "$out" "before: 6
from the child
child status: 0
after: 15"
	trace_has 'libbhv:bhv_add3(0x1, 0x2, 0x3) = 0x6'
	expect_count 1 '^libc:vfork\(.*\) <no return \.\.\.>$'
	trace_has 'libbhv:bhv_add3(0x4, 0x5, 0x6) = 0xf'
	trace_has '+++ exited (status 0) +++'
}

@test "exec: the call before exec is traced, the new program's output appears" {
	compare_traced -u 'libbhv:*' -- "$PROGS/bhv-exec"
	assert_equal "$out" "before exec: 6
echo after exec"
	assert_equal "$err" "libbhv:bhv_add3(0x1, 0x2, 0x3) = 0x6
+++ exited (status 0) +++"
}

@test "setjmp's second return, made by longjmp, is shown with its value (text and --json)" {
	# the -fno-plt -z now build calls the hooked functions through the GOT
	for prog in bhv-longjmp bhv-longjmp-noplt; do
		compare_traced -u 'libbhv:*' -u 'libc:_setjmp' -- "$PROGS/$prog"
		jumps=$(sed -nE 's/^jumps: ([0-9]+), sum: ([0-9]+)$/\1/p' <<<"$out")
		sum=$(sed -nE 's/^jumps: ([0-9]+), sum: ([0-9]+)$/\2/p' <<<"$out")
		expect_count "$jumps" '^<\.\.\. libc:_setjmp resumed> = [1-9][0-9]*$'
		# the values setjmp returned again are the ones the program added up
		total=0
		for v in $(sed -nE 's/^<\.\.\. libc:_setjmp resumed> = ([0-9]+)$/\1/p' <<<"$err"); do
			total=$((total + v))
		done
		[ "$total" -eq "$sum" ]
		# each comes after the calls the jump skipped have ended
		[ -z "$(grep -B1 '_setjmp resumed' <<<"$err" | grep -v '_setjmp resumed\|^--$' | grep -v '^} libbhv:bhv_apply = ? <unwound>$\|^libbhv:bhv_apply(.*) = ? <unwound>$')" ]
		run_split ltruss --json -u 'libbhv:*' -u 'libc:_setjmp' "$PROGS/$prog"
		[ "$(jq -r 'select(.type == "exit" and .func == "_setjmp" and .depth == 0) | .ret' <<<"$err" | wc -l)" -eq "$jumps" ]
	done
}

@test "setjmp's second return is shown when longjmp makes it, also with no traced call after it" {
	# the -fno-plt -z now build calls the hooked functions through the GOT
	for prog in bhv-longjmp bhv-longjmp-noplt; do
		compare_traced -u 'libbhv:*' -u 'libc:_setjmp' -- "$PROGS/$prog" 3 end
		assert_equal "$out" "jumps: 3, sum: 6"
		# Once shown only at the thread's next traced call: the last, never.
		assert_equal "$(tail -3 <<<"$err" | sed -E "s/^(libbhv:bhv_apply\\()$X, 0x2, $X\\)/\\1F, 0x2, ?)/")" \
			"libbhv:bhv_apply(F, 0x2, ?) = ? <unwound>
<... libc:_setjmp resumed> = 3
+++ exited (status 0) +++"
		expect_count 3 '^<\.\.\. libc:_setjmp resumed> = [123]$'
	done
}

@test "setjmp returns = 0 first, then the longjmp's value as an int, as uftrace shows them" {
	# the -fno-plt -z now build calls the hooked functions through the GOT
	for prog in bhv-longjmp bhv-longjmp-noplt; do
		compare_traced -u 'libc:_setjmp,longjmp' -- "$PROGS/$prog" 3 end
		assert_equal "$out" "jumps: 3, sum: 6"
		assert_equal "$(normalize <<<"$err")" "libc:_setjmp(ADDR) = 0
libc:longjmp(ADDR, 1) <no return ...>
<... libc:_setjmp resumed> = 1
libc:_setjmp(ADDR) = 0
libc:longjmp(ADDR, 2) <no return ...>
<... libc:_setjmp resumed> = 2
libc:_setjmp(ADDR) = 0
libc:longjmp(ADDR, 3) <no return ...>
<... libc:_setjmp resumed> = 3
+++ exited (status 0) +++"
		run_split ltruss --json -u 'libc:_setjmp' "$PROGS/$prog" 3 end
		[ "$(jq -r 'select(.func == "_setjmp") | .type + " " + .ret' <<<"$err" | sort | uniq -c | sed 's/^ *//')" = "3 call 0
1 exit 1
1 exit 2
1 exit 3" ] || { echo "$err"; false; }
	done
	# sigsetjmp, left by siglongjmp(env, SIGPROF) from a handler
	run_split ltruss -u 'libc:__sigsetjmp,siglongjmp' "$PROGS/stk-jumpout" 1000
	[ "$status" -eq 0 ]
	sig=$(kill -l PROF)
	[ "$(grep -c '^libc:__sigsetjmp(0x[0-9a-f]*, 1) = 0$' <<<"$err")" -ge 1000 ] || { echo "$err" | tail; false; }
	[ "$(grep -c "^<\.\.\. libc:__sigsetjmp resumed> = $sig\$" <<<"$err")" -ge 1 ] || { echo "$err" | tail; false; }
	[ "$(grep -c "^libc:siglongjmp(0x[0-9a-f]*, $sig) <no return \.\.\.>\$" <<<"$err")" -ge 1 ] || { echo "$err" | tail; false; }
	[ "$(grep -vc '^libc:__sigsetjmp(.*) = 0$\|^<\.\.\. libc:__sigsetjmp resumed> = '"$sig"'$\|^libc:siglongjmp(.*, '"$sig"') <no return \.\.\.>$\|^+++ exited (status 0) +++$' <<<"$err")" -eq 0 ] || { echo "$err" | tail; false; }
}

@test "signal handlers calling a traced function, inside and between traced calls" {
	compare_traced -u 'libbhv:*' -- "$PROGS/bhv-signal"
	assert_equal "$out" "loop: ok, handled 1
inside: 42, handled 2
handler sum: 1556
timer loop: ok, ticks 20"
	# raise() between two traced calls of the loop.
	expect_count 1 '^libbhv:bhv_add3\(0x100, 0x200, 0xa\) = 0x30a$'
	# raise() inside bhv_apply: the handler's call is nested in it.
	assert_equal "$(grep -A2 -E "^libbhv:bhv_apply\\($X, 0x29, $X\\) \\{\$" <<<"$err" | tail -2)" \
		"  libbhv:bhv_add3(0x100, 0x200, 0xa) = 0x30a
} libbhv:bhv_apply = 0x2a"
	expect_count 1000 "^libbhv:bhv_add3\\($X, 0x1, 0x2\\) = "
	# The timer's handler interrupts anywhere (its calls made while
	# ltruss itself runs are not traced): every traced call returned
	# the right value, nothing was unwound.
	expect_good_sums libbhv:bhv_add3 3 1002
	expect_count 0 '<unwound>|does not know'
	trace_has '+++ exited (status 0) +++'
}

@test "longjmp out of callbacks of traced calls, 1000 times, then traced calls work" {
	compare_traced -u 'libbhv:*' -- "$PROGS/bhv-longjmp"
	assert_equal "$out" "jumps: 1000, sum: 500500
after: 24
apply: 41"
	# Even rounds: one call unwound; odd rounds: two nested calls unwound.
	expect_count 500 "^libbhv:bhv_apply\\($X, (0x[0-9a-f]*[02468ace]|0), $X\\) = \\? <unwound>\$"
	expect_count 500 "^libbhv:bhv_apply\\($X, 0x[0-9a-f]*[13579bdf], $X\\) \\{\$"
	expect_count 500 "^  libbhv:bhv_apply\\($X, 0x[0-9a-f]*[13579bdf], $X\\) = \\? <unwound>\$"
	expect_count 500 '^\} libbhv:bhv_apply = \? <unwound>$'
	expect_count 1500 '<unwound>'
	trace_has 'libbhv:bhv_add3(0x7, 0x8, 0x9) = 0x18'
	assert_equal "$(tail -4 <<<"$err" | sed -E "s/^(libbhv:bhv_apply\\()$X, 0x14, $X\\)/\\1F, 0x14, ?)/")" \
		"libbhv:bhv_apply(F, 0x14, ?) {
  libbhv:bhv_add3(0x14, 0x14, 0) = 0x28
} libbhv:bhv_apply = 0x29
+++ exited (status 0) +++"
}

@test "longjmp out of traced calls 20000 times: the returns of the 30000 frames skipped are reclaimed" {
	# Each skipped frame keeps its return until a reclaim finds it nowhere
	# in memory: without reclaims, calls past 2048 would be entry-only.
	compare_traced -u 'libbhv:*' -- "$PROGS/bhv-longjmp" 20000
	assert_equal "$(head -1 <<<"$out")" "jumps: 20000, sum: 200010000"
	expect_count 0 'ltruss: (warning|fatal)'
	expect_count 30000 '<unwound>'
	expect_count 0 '<no return'
	# The 20000 outer calls that jumped, and the one after: an entry line
	# that ltruss printed before the call ended (under load) is unfinished.
	expect_count 20001 "^libbhv:bhv_apply\\($X, $X, $X\\)( \\{| = \\? <unwound>| <unfinished \\.\\.\\.>)\$"
	assert_equal "$(tail -4 <<<"$err" | sed -E "s/^(libbhv:bhv_apply\\()$X, 0x14, $X\\)/\\1F, 0x14, ?)/")" \
		"libbhv:bhv_apply(F, 0x14, ?) {
  libbhv:bhv_add3(0x14, 0x14, 0) = 0x28
} libbhv:bhv_apply = 0x29
+++ exited (status 0) +++"
}

@test "C++ exceptions thrown through traced calls, 1000 times, no terminate" {
	# the -fno-plt -z now build calls the hooked functions through the GOT
	for prog in bhv-exceptions bhv-exceptions-noplt; do
		compare_traced -u 'libbhvxx:*' -- "$PROGS/$prog"
		assert_equal "$out" "caught from callback: 1000, from library: 500, sum: 749500
after: 4097
invoke after: -6"
		expect_count 0 'terminate|does not know'
		# The program's callback threw through bhvxx_invoke.
		expect_count 1000 '^libbhvxx:bhvxx_invoke\(.*\) = \? <unwound>$'
		# The library threw for odd arguments, returned x + 1 for even ones.
		expect_count 500 '^libbhvxx:bhvxx_check\(0x[0-9a-f]*[13579bdf], .*\) = \? <unwound>$'
		expect_count 501 '^libbhvxx:bhvxx_check\((0x[0-9a-f]*[02468ace]|0), .*\) = 0x[0-9a-f]+$'
		# Caught inside a callback: the outer traced call still returns.
		expect_count 501 '^  libbhvxx:bhvxx_check\(.*\) = \? <unwound>$'
		expect_count 1001 "^\\} libbhvxx:bhvxx_invoke = $X\$"
		expect_count 2001 '<unwound>'
		expect_good_sums libbhvxx:bhvxx_check 1 1000 1
		expect_count 1 "^libbhvxx:bhvxx_check\\(0x1000, $X, $X\\) = 0x1001\$"
		assert_equal "$(tail -2 <<<"$err")" "} libbhvxx:bhvxx_invoke = 0xfffffffffffffffa
+++ exited (status 0) +++"
	done
}

@test "a caught exception's __cxa_begin_catch is at the catcher's depth, after the unwound calls end (text and --json)" {
	# the -fno-plt -z now build calls the hooked functions through the GOT
	for prog in bhv-exceptions bhv-exceptions-noplt; do
		compare_traced -u 'libbhvxx:*' -u 'libstdc++:__cxa_begin_catch' -- "$PROGS/$prog"
		# main catches what its calls threw; catch_inner, inside bhvxx_invoke, the rest
		in_main=$(sed -nE 's/^caught from callback: ([0-9]+), from library: ([0-9]+),.*/\1 + \2/p' <<<"$out")
		expect_count $((in_main)) '^libstdc\+\+:__cxa_begin_catch\('
		expect_count 501 '^  libstdc\+\+:__cxa_begin_catch\('
		expect_count 0 '^    libstdc'
		# each catch follows the end of the call it caught
		[ -z "$(grep -B1 '__cxa_begin_catch' <<<"$err" | grep -v '__cxa_begin_catch\|^--$' | grep -v '= ? <unwound>$')" ]
		run_split ltruss --json -u 'libbhvxx:*' -u 'libstdc++:__cxa_begin_catch' "$PROGS/$prog"
		[ "$(jq -r 'select(.func == "__cxa_begin_catch") | .depth' <<<"$err" | sort | uniq -c | awk '{ print $2 ":" $1 }' | paste -sd' ')" = "0:$((in_main)) 1:501" ]
	done
}

@test "pthread_exit inside a traced call: threads end, exit status and output unchanged" {
	compare_traced -u 'libbhv:*' -- "$PROGS/bhv-pthread-exit"
	[ "$status" -eq 5 ]
	assert_equal "$out" "cleanup 1
thread 1 returned 0x41
cleanup 2
thread 2 returned 0x42
cleanup 3
thread 3 returned 0x43
cleanup 4
thread 4 returned 0x44
main: 6"
	# the workers run one after another: each line names its own thread
	for t in 1 2 3 4; do
		expect_count 1 "^(\[pid [0-9]+\] )?libbhv:bhv_add3\(0x$t, 0x40, 0\) = 0x4$t\$"
	done
	run sed -nE 's/^\[pid ([0-9]+)\] libbhv:bhv_add3\(0x[234], 0x40.*/\1/p' <<<"$err"
	[ "$(sort -u <<<"$output" | wc -l)" -eq 3 ]
	expect_count 1 '^(\[pid [0-9]+\] )?libbhv:bhv_add3\(0x1, 0x2, 0x3\) = 0x6$'
	expect_count 1 '^\+\+\+ exited \(status 5\) \+\+\+$'
}

@test "pthread_exit inside a traced call: the call is reported as not returning" {
	compare_traced -u 'libbhv:*' -- "$PROGS/bhv-pthread-exit"
	for t in 1 2 3 4; do
		expect_count 1 "^(\[pid [0-9]+\] )?libbhv:bhv_thread_exit\(0x4$t, .*\) = \? <pthread_exit>\$"
	done
}

@test "a selected pthread_exit is shown on entry, nested in the call it ends" {
	compare_traced -u 'libbhv:*' -u 'libc:pthread_exit' -- "$PROGS/bhv-pthread-exit"
	for t in 1 2 3 4; do
		expect_count 1 "^(\[pid [0-9]+\] )?libbhv:bhv_thread_exit\(0x4$t, .*\) \{\$"
	done
	expect_count 4 '^(\[pid [0-9]+\] )?  libc:pthread_exit\(.*\) <no return \.\.\.>$'
	expect_count 4 '^(\[pid [0-9]+\] )?\} libbhv:bhv_thread_exit = \? <pthread_exit>$'
}

@test "exit() inside a traced call: atexit handlers run, exit status and output unchanged" {
	compare_traced -u 'libbhv:*' -- "$PROGS/bhv-exit"
	[ "$status" -eq 3 ]
	assert_equal "$out" "before: 6
atexit: 102"
	assert_equal "$(normalize <<<"$err" | sed -E 's/^(libbhv:bhv_exit\(0x3), .*\) \{$/\1, ...) {/')" \
		"libbhv:bhv_add3(0x1, 0x2, 0x3) = 0x6
libbhv:bhv_exit(0x3, ...) {
  libbhv:bhv_add3(0x11, 0x22, 0x33) = 0x66
} libbhv:bhv_exit = ? <exited>
+++ exited (status 3) +++"
}

@test "stack arguments, float, double, struct and long double returns: callee and caller see the same" {
	compare_traced -u 'libbhv:*' -- "$PROGS/bhv-abi"
	assert_equal "$out" "sum10: 11108380
dsum10: 9.0000000000000011e+300
scale: -0x1.cp+1
fmix: 0x1.2eec3p+99
make24: 8738 -26214 65535
pair: 0x1.99b3d07c84b5ep-4 0x1.997f62b6ae7d6p-4
ldmul: 0x8.618618618618618p-4
ldmul2: 0xcp+0"
	trace_has 'libbhv:bhv_sum10(0x1, 0xfffffffffffffffe, 0x3) = 0xa9801c'
	for f in dsum10 scale fmix pair; do
		expect_count 1 "^libbhv:bhv_$f\(.*\) = (0x[0-9a-f]+|0)\$"
	done
	expect_count 3 '^libbhv:bhv_ldmul\(.*\) = (0x[0-9a-f]+|0)$'
	# A struct returned in memory: %rax is the hidden pointer from %rdi.
	expect_count 1 '^libbhv:bhv_make24\((0x[0-9a-f]+), 0x1111, 0xffffffffffffddde\) = \1$'
	expect_count 10 '.'
}

@test "variadic printf and snprintf with many arguments: output unchanged" {
	compare_traced -u 'libc:printf,snprintf' -- "$PROGS/bhv-printf"
	assert_equal "$out" "-42 alpha 3.142 1234567890123 Z beef 2.5e-07 omega 4000000000 6.022141e+23 -9000000000000 0.3333333333|
printf returned 104
snprintf returned 68: 0.500000 1 1.500000 2 2.500000 3 3.500000 4 4.500000 5 six 6.500000|"
	# the varargs are decoded from the format: stack ones and doubles too
	expect_count 1 '^libc:printf\("%d %s %.3f %ld %c %x %g %s %u %e"\.\.\., -42, "alpha", 3\.14159, 1234567890123, '"'Z'"', 0xbeef, 2\.5e-07, "omega", 4000000000, 6\.02214076e\+23, -9000000000000, 0\.33333333333333331\) = 104$'
	expect_count 1 '^libc:snprintf\("0\.500000 1 1\.500000 2 2\.500000 3"\.\.\., 512, "%f %d %f %d %f %d %f %d %f %d %s"\.\.\., 0\.5, 1, 1\.5, 2, 2\.5, 3, 3\.5, 4, 4\.5, 5, "six", 6\.5\) = 68$'
	expect_count 1 '^libc:printf\("printf returned %d\\n", 104\) = 20$'
	expect_count 1 '^libc:printf\("snprintf returned %d: %s\\n", 68, "0\.500000 1 1\.500000 2 2\.500000 3"\.\.\.\) = 91$'
	expect_count 5 '.'
}

@test "qsort calling back into the program and into a traced library comparator" {
	compare_traced -u 'libc:qsort' -- "$PROGS/bhv-qsort"
	assert_equal "$(head -1 <<<"$out")" "apple banana cherry date fig grape kiwi pear"
	assert_equal "$(sed -n 2p <<<"$out" | tr ' ' '\n' | sort -n -c && echo sorted)" sorted
	assert_equal "$(normalize <<<"$err")" "libc:qsort(ADDR, 8, 8, cmp_str) = <void>
libc:qsort(ADDR, 64, 8, bhv_cmp_long) = <void>
+++ exited (status 0) +++"

	# The comparators' own calls, made from inside qsort, nest in it.
	compare_traced -u 'libc:qsort,strcmp' -u 'libbhv:bhv_cmp_long' -- "$PROGS/bhv-qsort"
	ncmp=$(sed -n 's/^string comparisons: //p' <<<"$out")
	[ "$ncmp" -ge 7 ]
	expect_count 2 "^libc:qsort\\($X, (8|64), 8, (cmp_str|bhv_cmp_long)\\) \\{\$"
	expect_count 2 '^\} libc:qsort = <void>$'
	expect_count "$ncmp" '^  libc:strcmp\("[a-z]+", "[a-z]+"\) = -?[0-9]+$'
	# bhv_cmp_long reaches qsort as a pointer: its calls are traced too.
	n=$(trace_count "^  libbhv:bhv_cmp_long\\($X, $X, $X\\) = (0x1|0|0xffffffff)\$")
	[ "$n" -ge 63 ] || fail "only $n comparator calls traced"
	expect_count "$((ncmp + n + 5))" '.'
}

@test "tracing libc malloc, free, strlen, memcpy 2 million times: exact counts" {
	compare_traced -c --from a.out -u 'libc:malloc,free,strlen,memcpy' -- "$PROGS/bhv-alloc" 2000000
	assert_equal "$out" "loops: 2000000, checksum: 188800000"
	for f in malloc free strlen memcpy; do
		assert_equal "$(summary_calls "libc:$f")" 2000000
	done
	# From every object, libc's own calls included.
	compare_traced -c -u 'libc:malloc,free,strlen,memcpy' -- "$PROGS/bhv-alloc" 2000000
	for f in malloc free strlen memcpy; do
		n=$(summary_calls "libc:$f")
		[ "${n:-0}" -ge 2000000 ] || fail "libc:$f counted ${n:-0} times"
	done
}

# end_lines FUNC: the trace lines that end a call of LIB:FUNC with a value
# (whole, "} LIB:FUNC = ", or "<... LIB:FUNC resumed> = ").
end_lines() {
	trace_count "^(\\[pid [0-9]+\\] )? *($1\\(.*\\) = |\\} $1 = |<\\.\\.\\. $1 resumed> = )"
}

@test "coroutines (swapcontext) suspended inside traced calls: every call ends once" {
	compare_traced -u 'libcoro:*' -u 'libbhv:*' -- "$PROGS/stk-coro"
	assert_equal "$out" "generator 1000: sum 151275
generator 2000: sum 301275
total 1677150"
	expect_count 0 'fatal|does not know|<unwound>'
	# 2 coroutines of 50 rounds: a yield, and a bhv_apply that yields.
	assert_equal "$(end_lines libcoro:coro_yield)" 200
	assert_equal "$(end_lines libbhv:bhv_apply)" 100
	assert_equal "$(end_lines libbhv:bhv_add3)" 200
	assert_equal "$(end_lines libcoro:coro_resume)" 202
	# A call suspended on another stack shows as unfinished, then resumed.
	expect_count 200 '^ *libcoro:coro_yield\(.*\) <unfinished \.\.\.>$'
	expect_count 200 '^ *<\.\.\. libcoro:coro_yield resumed> = '
	trace_has '+++ exited (status 0) +++'
	# The default config traces the program's calls into libcoro and libc.
	compare_traced -- "$PROGS/stk-coro"
	expect_count 0 'fatal|does not know'
}

@test "coroutine stacks mapped next to the thread's stack, only the calls inside them traced" {
	compare_traced -u 'libbhv:*' -- "$PROGS/stk-coro" near
	expect_count 0 'fatal|does not know|<unwound>'
	assert_equal "$(end_lines libbhv:bhv_apply)" 100
	assert_equal "$(end_lines libbhv:bhv_add3)" 200
	expect_good_sums libbhv:bhv_add3 3 200
}

@test "coroutines sharing one stack area, copied in and out, inside traced calls: run as natively, one warning" {
	local lost unwound

	compare_traced -u 'libbhv:*' -- "$PROGS/stk-copystack"
	expect_count 0 'fatal'
	expect_count 1 '^ltruss: warning: '
	expect_count 1 '^ltruss: warning: [0-9]+ traced calls returned through frames ltruss had dropped \(a coroutine library that copies stacks\?\): they are shown as <unwound>$'
	lost=$(sed -nE 's/^ltruss: warning: ([0-9]+) traced calls returned through frames.*/\1/p' <<<"$err")
	# 3 coroutines of 40 rounds: a bhv_add3, a bhv_apply that yields;
	# the scheduler's bhv_add3 after each of the 240 yields.
	assert_equal "$(end_lines libbhv:bhv_add3)" 360
	expect_good_sums libbhv:bhv_add3 3 360
	# Each bhv_apply ends once: returned, or dropped while its stack was
	# away (<unwound>) and then counted in the warning when it returned.
	unwound=$(trace_count '^ *\} libbhv:bhv_apply = \? <unwound>$')
	[ "$lost" -ge 1 ] && [ "$lost" -eq "$unwound" ] ||
		fail "$lost returns through dropped frames, $unwound shown <unwound>"
	assert_equal "$(( $(end_lines libbhv:bhv_apply) - unwound ))" $((120 - lost))
	trace_has '+++ exited (status 0) +++'
	# The default config traces the program's calls into libc too.
	compare_traced -- "$PROGS/stk-copystack"
	expect_count 0 'fatal'
}

@test "coroutines copied out and back in, 34 and 2100 of them: run as natively, every call counted" {
	# 34: each frame comes back after 33 others were dropped (once
	# fatal, exit 127: only the last 32 dropped frames were remembered).
	compare_traced -c -u 'libbhv:*' -- "$PROGS/stk-copystack" 34
	expect_count 0 'fatal'
	# Counted too when they return through a frame dropped while away.
	assert_equal "$(summary_calls libbhv:bhv_apply)" $((34 * 40))
	assert_equal "$(summary_calls libbhv:bhv_add3)" $((34 * 120))
	# 2100: more suspended at once than a thread keeps returns for; the
	# calls past that are seen on entry only, still counted.
	compare_traced -c -u 'libbhv:*' -- "$PROGS/stk-copystack" 2100
	expect_count 0 'fatal'
	expect_count 1 '^ltruss: warning: more than 2048 traced calls of a thread in progress or suspended at once \(coroutines\?\): the others are shown on entry only, as <no return \.\.\.>$'
	assert_equal "$(summary_calls libbhv:bhv_apply)" $((2100 * 40))
	assert_equal "$(summary_calls libbhv:bhv_add3)" $((2100 * 120))
}

@test "siglongjmp out of signal handlers that interrupted the interposer: every call still counted" {
	local done jumps calls

	run_split ltruss -c -u 'libbhv:bhv_add3' "$PROGS/stk-jumpout" 500000
	[ "$status" -eq 0 ]
	read -r _ done _ jumps <<<"$out"
	[ "$jumps" -ge 20 ]
	calls=$(summary_calls libbhv:bhv_add3)
	# Counted: every call that returned, and at most one more per jump
	# (one that returned through ltruss just before the handler ran).
	[ "$calls" -ge "$done" ] && [ "$calls" -le $((done + jumps)) ] ||
		fail "$calls calls counted, $done returned, $jumps jumps"
}

@test "traced calls nested 1100 deep: the 76 past 1024 on entry only, after one warning" {
	compare_traced -u 'libbhv:*' -- "$PROGS/stk-deep" 1100
	assert_equal "$out" "depth 1100: 1100"
	expect_count 1 '^ltruss: warning: more than 1024 traced calls in progress in a thread: the deeper ones are shown on entry only, as <no return \.\.\.>$'
	expect_count 76 '^ +libbhv:bhv_apply\(.*\) <no return \.\.\.>$'
	expect_count 1024 '^ *(\} libbhv:bhv_apply|libbhv:bhv_apply\(.*\)) = 0x'
}

@test "glibc backtrace() from inside traced calls finds the frames it finds untraced" {
	# the -fno-plt -z now build calls the hooked functions through the GOT
	for prog in stk-backtrace stk-backtrace-noplt; do
		compare_traced -u 'libbhv:*' -- "$PROGS/$prog"
		assert_equal "$(sed -n 2p <<<"$out")" "2: 6 frames: $prog libbhv.so $prog libc.so.6 libc.so.6 $prog"
		expect_count 2 "^libbhv:bhv_apply\\($X, 0x[23], 0\\) = 0x7\$"
		# The default config traces backtrace itself, on entry.
		compare_traced -- "$PROGS/$prog"
		expect_count 3 '^ *libc:backtrace\(.*\) <no return \.\.\.>$'
	done
}

@test "the interposer's C code never touches a vector register: only the trampolines save them" {
	# The program's float arguments and results are in %xmm0-7 while the
	# interposer runs (lib/ is built with -mgeneral-regs-only for that).
	objdump -d --no-show-raw-insn "$LTRUSS_TOP_BUILDDIR/lib/libltruss.so" >dis.txt
	run awk '/^[0-9a-f]+ <.*>:$/ { fn = $2 }
		/%([xyz]?mm[0-9]|k[0-7][^0-9])/ { print fn }' dis.txt
	[ "$status" -eq 0 ]
	assert_equal "$(sort -u <<<"$output")" "<ltr_entry_common>:
<ltr_return_common>:"
}

@test "the trampolines keep the CPU's return predictor in step: every call they make is returned from" {
	# A call never returned from shifts the processor's stack of
	# predicted returns: every ret of the program's callers after it is
	# then mispredicted (bench/loop N 1 4 shows the cost).  So the return
	# path is entered by jumps and leaves by a ret, and the only call
	# into it is the one that enters a hijacked function
	# (lib/arch/x86_64/trampoline.S): the function's own ret returns it.
	objdump -d --no-show-raw-insn "$LTRUSS_TOP_BUILDDIR/lib/libltruss.so" >dis.txt
	run awk '/^[0-9a-f]+ <.*>:$/ { fn = $2; next }
		{ sub(/^ *[0-9a-f]+:[ \t]*/, ""); sub(/ +[0-9a-f]+ </, " <"); gsub(/ +/, " ") }
		/<ltr_(return_common|enter_thunk)>/ ||
		(fn ~ /^<ltr_(return_common|enter_thunk)>:$/ && /^(call|ret|jmp)/) { print fn, $0 }' dis.txt
	[ "$status" -eq 0 ]
	assert_equal "$(sort -u <<<"$output")" "<ltr_enter_thunk>: jmp *%r11
<ltr_return_common>: call <ltr_on_exit>
<ltr_return_common>: ret
<ltr_tramp_blocks>: call <ltr_enter_thunk>
<ltr_tramp_blocks>: jmp <ltr_return_common>"
}

@test "a thread made by clone() without CLONE_SETTLS runs untraced, its creator traced, after one warning" {
	local stack

	for stack in static local; do
		compare_traced -u 'libbhv:*' -- "$PROGS/stk-rawclone" "$stack"
		assert_equal "$out" "parent 5000450000 child 5000250006 status 0"
		expect_count 1 "^ltruss: warning: a thread made by clone\\(\\) without CLONE_SETTLS shares its creator's thread-local storage: it is not traced\$"
		# The creator's calls, every one; none of the child's.
		expect_count 100000 '^libbhv:bhv_add3\(.*, 0x2, 0x3\) = '
		expect_good_sums libbhv:bhv_add3 3 100000
		expect_count 100002 '.'
	done
}

@test "pthread_cancel of a thread blocked inside traced calls: its destructors run, its lock guard is released" {
	# the -fno-plt -z now build calls the hooked functions through the GOT
	for prog in stk-cancel stk-cancel-noplt; do
		compare_traced -u 'libbhv:*' -- "$PROGS/$prog"
		assert_equal "$out" "destructor ran
cancelled: yes
lock free: yes"
		# The default config traces sleep itself, and pthread_cancel on entry.
		compare_traced -- "$PROGS/$prog"
		expect_count 1 '^(\[pid [0-9]+\] )?libc:pthread_cancel\(.*\) <no return \.\.\.>$'
	done
}

@test "C++ exceptions of a program with its own static runtime: every call on entry only, after one warning" {
	compare_traced -u 'libbhv:*' -- "$PROGS/stk-static-throw"
	assert_equal "$out" "caught 5 sum 25"
	expect_count 1 '^ltruss: warning: the program has its own C\+\+ runtime \(-static-libstdc\+\+ or -static-libgcc\), whose exceptions cannot pass a traced return: calls are traced on entry only, without return values or times$'
	expect_count 10 "^libbhv:bhv_apply\\($X, $X, $X\\) <no return \\.\\.\\.>\$"
	# A program that shares libstdc++: its calls are hijacked as ever.
	compare_traced -u 'libbhvxx:*' -- "$PROGS/bhv-exceptions"
	expect_count 0 'own C\+\+ runtime|no return'
	expect_count 1001 "^\\} libbhvxx:bhvxx_invoke = $X\$"
}

# The warning for a library with its own C++ runtime, once, naming it.
own_runtime_warning() {
	expect_count 1 "^ltruss: warning: $PROGS/libplug\\.so has its own C\\+\\+ runtime \\(-static-libstdc\\+\\+ or -static-libgcc\\), whose exceptions cannot pass a traced return: calls into it and from it are traced on entry only, without return values or times\$"
	expect_count 1 'own C\+\+ runtime'
}

@test "a library with its own static C++ runtime, linked at start or dlopened: its throws pass traced calls into it and from it, traced on entry only" {
	local prog

	for prog in stk-plug stk-plug-dl; do
		# A callback of the library throws through bhv_apply.
		compare_traced -u 'libbhv:*' -- "$PROGS/$prog"
		assert_equal "$out" "plug_outer: caught 5 sum 20
plug_roundtrip: caught 5 sum 25
main: 21"
		own_runtime_warning
		expect_count 10 "^libbhv:bhv_apply\\($X, $X, $X\\) <no return \\.\\.\\.>\$"
		# The program's own calls keep their returns.
		expect_count 2 '^libbhv:bhv_add3\(.*\) = '
		expect_good_sums libbhv:bhv_add3 3 2
		# Its exported function throws out to its caller in the library.
		compare_traced -u 'libplug::*' -- "$PROGS/$prog"
		own_runtime_warning
		# plug_check: 10 calls through the PLT, 10 through bhv_apply.
		expect_count 20 "^libplug:plug_check\\($X, $X, $X\\) <no return \\.\\.\\.>\$"
		expect_count 1 "^libplug:plug_outer\\($X, $X, $X\\) <no return \\.\\.\\.>\$"
		expect_count 0 ' = |\{$'
		# Every call the library makes, throws included, on entry only.
		compare_traced --from libplug -- "$PROGS/$prog"
		own_runtime_warning
		expect_count 10 "^libbhv:bhv_apply\\($X, $X, $X\\) <no return \\.\\.\\.>\$"
		expect_count 0 ' = |\{$'
		[ "$(trace_count '<no return \.\.\.>$')" -ge 40 ]
		# The default config: the program's calls into the library on
		# entry only, all its others whole.
		compare_traced -- "$PROGS/$prog"
		own_runtime_warning
		expect_count 1 "^libplug:plug_roundtrip\\($X, $X, $X\\) <no return \\.\\.\\.>\$"
		expect_count 3 '^libc:printf\(.*\) = [0-9]+$'
		expect_count 2 '^libbhv:bhv_add3\(.*\) = '
	done
}

@test "a library with its own static C++ runtime, its runtime hidden, dlopened and dlclosed 40 times: one warning, and only its calls on entry only" {
	compare_traced -u 'libbhv:*' -- "$PROGS/stk-plug-dl" cycle
	assert_equal "$out" "cycle: 1200
main: 21"
	expect_count 1 "^ltruss: warning: $PROGS/libplugx\\.so has its own C\\+\\+ runtime "
	expect_count 1 'own C\+\+ runtime'
	expect_count 400 "^libbhv:bhv_apply\\($X, $X, $X\\) <no return \\.\\.\\.>\$"
	# Each unloaded copy is forgotten: more than ltruss tracks at once
	# would put every call on entry only.
	expect_count 2 '^libbhv:bhv_add3\(.*\) = '
	expect_good_sums libbhv:bhv_add3 3 2
}

@test "a library with its own static C++ runtime throwing through a third library's traced call: the limit, and --from that avoids it" {
	local prog

	# libplug calls libplughost, whose traced call of bhv_apply calls
	# libplug back: a frame seen from neither end (BUGS).  --from leaves
	# libplughost's calls out; libplug's own are on entry only.
	for prog in stk-plug stk-plug-dl; do
		compare_traced -u 'libbhv:*' --from libplug -- "$PROGS/$prog" host
		assert_equal "$(sed -n 3p <<<"$out")" "plug_via_host: caught 5 sum 50"
		own_runtime_warning
		expect_count 10 "^libbhv:bhv_apply\\($X, $X, $X\\) <no return \\.\\.\\.>\$"
		expect_count 0 ' = |\{$'
	done
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# console.bats: ltruss --console and -i, driven through a pipe and through a terminal (tmux).

load helpers

STOP="stop"

# wait_until CMD...: run CMD every 20 ms until it succeeds; fail after 5 s.
wait_until() {
	local i
	for ((i = 0; i < 250; i++)); do
		"$@" && return 0
		sleep 0.02
	done
	echo "timed out waiting for: $*" >&2
	return 1
}

# start_until [OPTION...]: run ltruss OPTIONS on the until fixture in the
# background, tracing libfix; $TRACER is ltruss's pid, once it is registered.
start_until() {
	"$LTRUSS" "$@" -u 'libfix:*' "$PROGS/until" "$BATS_TEST_TMPDIR/$STOP" \
		</dev/null >prog.out 2>ltruss.err 3>&- &
	TRACER=$!
	wait_until test -e "$XDG_RUNTIME_DIR/ltruss/$TRACER"
}

# console [ARG...]: ltruss --console with a timeout; commands on stdin.
console() {
	timeout -k 5 20 "$LTRUSS" --console "$@"
}

# calls_of FUNC: the calls column of FUNC's row in the stats or list output $out.
calls_of() {
	awk -v f="$1" '$NF == f { print ($1 ~ /^[0-9]+$/ && NF == 3) ? $1 : $(NF-2) }' <<<"$out"
}

# lines_of FUNC: trace lines of FUNC (at any depth) in the -o file trace.
lines_of() {
	grep -c "^ *libfix:$1(" trace || true
}

# stats_calls FUNC: FUNC's calls as a console's stats says now.
stats_calls() {
	out=$(console <<<stats)
	calls_of "libfix:$1"
}

# grown_by FUNC N FROM: has FUNC made N more calls than FROM?
grown_by() {
	[ "$(stats_calls "$1")" -ge $(($3 + $2)) ]
}

# trace_grows FUNC: do FUNC's trace lines in trace increase?
trace_grows() {
	local before
	before=$(lines_of "$1")
	wait_until eval '[ "$(lines_of '"$1"')" -gt '"$before"' ]'
}

# lines_stay FUNC CMD...: while FUNC makes more calls, the count CMD prints
# stays the same (once the calls under way when asked have ended).
lines_stay() {
	local calls lines
	calls=$(stats_calls "$1")
	wait_until grown_by "$1" 30 "$calls"
	lines=$("${@:2}")
	calls=$(stats_calls "$1")
	wait_until grown_by "$1" 30 "$calls"
	sleep 0.05 # what ltruss has drained gets written
	[ "$("${@:2}")" -eq "$lines" ]
}

# nested_adds: fix_add lines inside a block in trace.
nested_adds() {
	grep -c '^  libfix:fix_add(' trace || true
}

teardown() {
	touch "$BATS_TEST_TMPDIR/$STOP"
	if [ -n "${TRACER:-}" ]; then
		wait_until eval '! kill -0 '"$TRACER"' 2>/dev/null' || kill -9 "$TRACER"
	fi
	[ -z "${TMUX_SOCK:-}" ] || tmux -S "$TMUX_SOCK" kill-server 2>/dev/null || true
	[ -z "${SHARED:-}" ] || rm -rf "$SHARED"
}

@test "stats: the columns of -c, with counts that grow while the program runs" {
	start_until -o trace
	wait_until grown_by fix_add 1 0
	run_split console <<<stats
	[ "$status" -eq 0 ]
	[ -z "$err" ]
	run head -2 <<<"$out"
	assert_line --index 0 '% time     total s      self s   avg us   min us   max us      calls   errors function'
	assert_line --index 1 '------ ----------- ----------- -------- -------- -------- ---------- -------- ----------------'
	first=$(calls_of libfix:fix_add)
	[ "$first" -gt 0 ]
	grep -Eq '^100\.00 +[0-9.]+ +[0-9]+ +0 total$' <<<"$out"
	wait_until grown_by fix_add 20 "$first"
}

@test "stats N, sort KEY, GLOB; reset counts from zero, not the summary on exit" {
	start_until -c -o summary
	wait_until grown_by fix_add 50 0
	run_split console <<<'stats 1 sort name'
	[ "$(grep -c '^ *[0-9.]\+ .* libfix:' <<<"$out")" -eq 1 ]
	assert_equal "$(sed -n 3p <<<"$out" | awk '{ print $NF }')" libfix:fix_add
	run_split console <<<'stats libfix:fix_p*'
	[ "$(calls_of libfix:fix_pick)" -gt 0 ]
	[ -z "$(calls_of libfix:fix_add)" ]
	before=$(stats_calls fix_add)
	run_split console <<<$'reset\nstats\nlist fix_add'
	[ "$status" -eq 0 ]
	grep -q '^counting from zero' <<<"$out"
	since=$(awk '$NF == "libfix:fix_add" { print $1 }' <<<"$out" | tail -1)
	[ "$since" -lt "$before" ]
	touch "$STOP"
	wait "$TRACER"
	rounds=$(awk '{ print $2 }' prog.out)
	out=$(cat summary)
	[ "$(calls_of libfix:fix_add)" -eq "$rounds" ]
}

@test "pause stops trace lines while counting goes on; resume brings them back" {
	start_until -o trace
	wait_until trace_grows fix_add
	run_split console <<<pause
	assert_equal "$out" 'paused: no trace lines; counting goes on'
	lines_stay fix_add lines_of fix_add
	run_split console <<<resume
	assert_equal "$out" 'resumed: trace lines again'
	wait_until trace_grows fix_add
}

@test "disable stops one function's lines, enable brings them back; list shows the state" {
	start_until -o trace
	wait_until trace_grows fix_pick
	run_split console <<<'disable fix_pick'
	assert_equal "$out" 'disabled 1 function'
	lines_stay fix_pick lines_of fix_pick
	wait_until trace_grows fix_add
	run_split console <<<list
	assert_equal "$(head -1 <<<"$out")" '     calls state    function'
	grep -Eqx ' +[0-9]+ enabled  libfix:fix_add' <<<"$out"
	grep -Eqx ' +[0-9]+ disabled libfix:fix_pick' <<<"$out"
	[ "$(calls_of libfix:fix_pick)" -gt 0 ]
	run_split console <<<'enable libfix:fix_*'
	assert_equal "$out" 'enabled 3 functions'
	wait_until trace_grows fix_pick
	run_split console <<<'disable nothing_like_it'
	assert_equal "$out" "no traced function matches 'nothing_like_it' yet"
}

@test "disable reaches a function bound after the console has gone, from its first call" {
	"$LTRUSS" -C -o trace -u 'libfix:*' "$PROGS/until" "$BATS_TEST_TMPDIR/$STOP" \
		"$BATS_TEST_TMPDIR/late" </dev/null >prog.out 2>ltruss.err 3>&- &
	TRACER=$!
	wait_until test -e "$XDG_RUNTIME_DIR/ltruss/$TRACER"
	wait_until trace_grows fix_add
	run_split console <<<'disable libfix:fix_v*'
	assert_equal "$out" "no traced function matches 'libfix:fix_v*' yet"
	# The console has detached; fix_ver is bound (lazily) only now.
	touch late
	wait_until grown_by fix_ver 50 0
	[ "$(lines_of fix_ver)" -eq 0 ]
	run_split console <<<'enable fix_ver'
	assert_equal "$out" 'enabled 1 function'
	wait_until trace_grows fix_ver
	touch "$STOP"
	wait "$TRACER"
	late=$(awk '/^late/ { print $2 }' prog.out)
	out=$(cat trace)
	[ "$(calls_of libfix:fix_ver)" -eq "$late" ]
	[ "$(lines_of fix_ver)" -lt "$late" ]
	run grep -c 'resumed>\|unfinished' trace
	assert_output 0
}

@test "depth N hides nested calls, depth 0 shows them again" {
	"$LTRUSS" -o trace -u 'libfix::*' "$PROGS/until" "$BATS_TEST_TMPDIR/stop" \
		</dev/null >prog.out 2>ltruss.err 3>&- &
	TRACER=$!
	wait_until test -e "$XDG_RUNTIME_DIR/ltruss/$TRACER"
	wait_until grep -q '^  libfix:fix_add(' trace
	run_split console <<<'depth 1'
	assert_equal "$out" 'depth 1: calls nested deeper are not shown'
	run_split console <<<depth
	assert_equal "$out" 'depth 1: calls nested deeper are not shown'
	lines_stay fix_twice nested_adds
	wait_until trace_grows fix_twice
	nested=$(nested_adds)
	run_split console <<<'depth 0'
	assert_equal "$out" 'depth 0: calls are shown however deep'
	wait_until eval '[ "$(nested_adds)" -gt '"$nested"' ]'
}

@test "disable an outer function: the calls inside it are still whole lines" {
	"$LTRUSS" -o trace -u 'libfix::*' "$PROGS/until" "$BATS_TEST_TMPDIR/stop" \
		</dev/null >prog.out 2>ltruss.err 3>&- &
	TRACER=$!
	wait_until test -e "$XDG_RUNTIME_DIR/ltruss/$TRACER"
	wait_until trace_grows fix_twice
	run_split console <<<'disable fix_twice'
	assert_equal "$out" 'disabled 1 function'
	lines_stay fix_twice lines_of fix_twice
	wait_until eval '[ "$(nested_adds)" -gt 50 ]'
	touch stop
	wait "$TRACER"
	run grep -c 'resumed>\|unfinished' trace
	assert_output 0
	grep -Eq '^  libfix:fix_add\(0x1, 0x1, .*\) = 0x2$' trace
}

@test "sessions lists pid, start and command; the newest is the default" {
	start_until -o trace1
	first=$TRACER
	start_until -o trace2
	run_split console <<<sessions
	[ "$status" -eq 0 ]
	assert_equal "$(head -1 <<<"$out")" '      PID  STARTED              COMMAND'
	grep -Eqx "  +$first  [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}  $PROGS/until $BATS_TEST_TMPDIR/stop" <<<"$out"
	grep -Eqx "\* +$TRACER  [0-9-]{10} [0-9:]{8}  $PROGS/until $BATS_TEST_TMPDIR/stop" <<<"$out"
	run_split console "--console=$first" <<<sessions
	grep -Eq "^\* +$first " <<<"$out"
	touch "$STOP"
	wait "$first"
}

@test "sessions escapes every byte of a command line past 0x7e: a UTF-8 C1 control (CSI 0xc2 0x9b) never reaches the terminal" {
	STOP=$'stop\xc2\x9b31m\xc2\x9d0;title\x07\\'
	start_until -o trace
	run_split console <<<sessions
	[ "$status" -eq 0 ]
	# The stop file's name, escaped as a trace line escapes a name.
	line=$(grep "^\* *$TRACER " <<<"$out")
	[ "${line##*  }" = "$PROGS/until $BATS_TEST_TMPDIR/stop\xc2\x9b31m\xc2\x9d0;title\x07\x5c" ] || { echo "$out"; false; }
	! env LC_ALL=C grep -q -P '[\x00-\x08\x0b-\x1f\x7f-\xff]' <<<"$out"
	touch "$STOP"
	wait "$TRACER"
}

@test "quit detaches and the program keeps running; so does the end of a script" {
	start_until -o trace
	run_split console <<<$'quit\nstats'
	[ "$status" -eq 0 ]
	assert_equal "$out" ''
	kill -0 "$TRACER"
	wait_until trace_grows fix_add
	run_split console </dev/null
	[ "$status" -eq 0 ]
	kill -0 "$TRACER"
	wait_until trace_grows fix_add
	touch "$STOP"
	wait "$TRACER"
	grep -q '^rounds [0-9]* sum' prog.out
}

@test "help lists the commands; a bad command is reported and the script goes on (exit 2)" {
	start_until -o trace
	run_split console <<<$'help\nfrobnicate\nstats 1 sort speed\ns\ndepth x\nenable\nhelp quit'
	[ "$status" -eq 2 ]
	for c in stats reset pause resume depth enable disable list sessions help quit; do
		grep -q "^  $c " <<<"$out"
	done
	[ "$(grep -c '^  quit ' <<<"$out")" -eq 2 ]
	run cat <<<"$err"
	assert_line --index 0 "ltruss: error: unknown command 'frobnicate' (stdin:2); 'help' lists the commands"
	assert_line --index 1 "ltruss: error: stats: sort needs a key, not 'speed' (stdin:3); use time, self, calls, avg, max, errors or name"
	assert_line --index 2 "ltruss: error: ambiguous command 's' (stdin:4); 'help' lists the commands"
	assert_line --index 3 "ltruss: error: depth needs a number, not 'x' (stdin:5); see 'help'"
	assert_line --index 4 "ltruss: error: usage: enable GLOB (stdin:6); see 'help'"
}

@test "a stale session (its ltruss died) is reported and removed, not attached to" {
	start_until -o trace
	stale=$TRACER
	kill -9 "$stale"
	wait "$stale" || true
	TRACER=
	[ -e "$XDG_RUNTIME_DIR/ltruss/$stale" ]
	run_split console "--console=$stale" <<<stats
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: session $stale is stale (ltruss exited): its entry is removed"
	[ ! -e "$XDG_RUNTIME_DIR/ltruss/$stale" ]
	# Among others, the default skips it with a warning.
	start_until -o trace2
	cp "$XDG_RUNTIME_DIR/ltruss/$TRACER" "$XDG_RUNTIME_DIR/ltruss/$stale"
	sed -i "s/:$TRACER:/:$stale:/" "$XDG_RUNTIME_DIR/ltruss/$stale"
	run_split console <<<sessions
	[ "$status" -eq 0 ]
	assert_equal "$err" "ltruss: warning: session $stale is stale (ltruss exited): its entry is removed"
	grep -Eq "^\* +$TRACER " <<<"$out"
	[ ! -e "$XDG_RUNTIME_DIR/ltruss/$stale" ]
	# ltruss removes its own entry when it ends.
	touch "$STOP"
	wait "$TRACER"
	[ -z "$(ls "$XDG_RUNTIME_DIR/ltruss")" ]
	run_split console <<<stats
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: no running ltruss session of yours (in $XDG_RUNTIME_DIR/ltruss): start one, e.g. 'ltruss -o FILE COMMAND'"
}

@test "a FIFO named like a pid in the registry is removed, never opened and waited on" {
	mkdir -m 0700 -p "$XDG_RUNTIME_DIR/ltruss"
	mkfifo -m 0600 "$XDG_RUNTIME_DIR/ltruss/4242"
	run_split console <<<stats
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: warning: removing $XDG_RUNTIME_DIR/ltruss/4242: not a session entry
ltruss: error: no running ltruss session of yours (in $XDG_RUNTIME_DIR/ltruss): start one, e.g. 'ltruss -o FILE COMMAND'"
	[ ! -e "$XDG_RUNTIME_DIR/ltruss/4242" ]
	mkfifo -m 0600 "$XDG_RUNTIME_DIR/ltruss/4242"
	run_split console --console=4242 <<<stats
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: no ltruss session 4242 in $XDG_RUNTIME_DIR/ltruss: 'sessions' in the console lists them"
}

# as_nobody CMD...: run CMD as the user nobody.
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

@test "only the session's owner can attach: another uid is refused" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run as another user"
	SHARED=$(mktemp -d /tmp/ltruss-console-test.XXXXXX)
	chmod 0755 "$SHARED"
	mkdir -m 0700 "$SHARED/nobody-run"
	chown nobody "$SHARED/nobody-run"
	start_until -o trace
	entry=$(cat "$XDG_RUNTIME_DIR/ltruss/$TRACER")
	fd=${entry%%:*}
	# The memfd itself: the kernel refuses another user.
	run as_nobody cat "/proc/$TRACER/fd/$fd"
	[ "$status" -ne 0 ]
	# nobody, with root's entry in its own registry: refused.
	as_nobody env XDG_RUNTIME_DIR="$SHARED/nobody-run" sh -c \
		"mkdir -m 0700 \"\$XDG_RUNTIME_DIR/ltruss\" && echo '$entry' > \"\$XDG_RUNTIME_DIR/ltruss/$TRACER\""
	run_split as_nobody env XDG_RUNTIME_DIR="$SHARED/nobody-run" "$LTRUSS" --console="$TRACER" </dev/null
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: session $TRACER is not yours: only the user who runs an ltruss can attach to it"
	# nobody, whose registry directory is not its own.
	mkdir -m 0700 "$SHARED/nobody-run2"
	mkdir -m 0755 "$SHARED/nobody-run2/ltruss"
	chown nobody "$SHARED/nobody-run2"
	run_split as_nobody env XDG_RUNTIME_DIR="$SHARED/nobody-run2" "$LTRUSS" --console </dev/null
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: cannot look for sessions: $SHARED/nobody-run2/ltruss belongs to uid 0, not to you: remove it"
	# root, with nobody's session in its registry: the session's uid says no.
	touch "$SHARED/nobody-run/stop"
	chmod 0777 "$SHARED"
	as_nobody env XDG_RUNTIME_DIR="$SHARED/nobody-run" "$LTRUSS" -o "$SHARED/nobody-run/trace" \
		-u 'libfix:*' "$PROGS/until" "$SHARED/nobody-run/stop2" </dev/null >/dev/null 2>&1 3>&- &
	theirs=$!
	wait_until eval 'ls "$SHARED/nobody-run/ltruss" | grep -qv "^$TRACER\$"'
	other=$(ls "$SHARED/nobody-run/ltruss" | grep -v "^$TRACER\$")
	cp "$SHARED/nobody-run/ltruss/$other" "$XDG_RUNTIME_DIR/ltruss/$other"
	run_split console --console="$other" </dev/null
	touch "$SHARED/nobody-run/stop2"
	wait "$theirs"
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: session $other is not yours: only the user who runs an ltruss can attach to it"
}

@test "the registry directory is trusted only if it is the user's own, not a link" {
	mkdir elsewhere
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$XDG_RUNTIME_DIR/ltruss"
	run_split console </dev/null
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: cannot look for sessions: $XDG_RUNTIME_DIR/ltruss is not a directory (a link?): remove it"
	# ltruss itself still traces, and says the console will not find it.
	run_split ltruss -u 'libfix:fix_add' "$PROGS/fix-lazy" 1
	[ "$status" -eq 0 ]
	grep -q '^libfix:fix_add(0x2, 0x3' <<<"$err"
	grep -qx "ltruss: warning: the console will not find this session: $XDG_RUNTIME_DIR/ltruss is not a directory (a link?): remove it" <<<"$err"
	[ -z "$(ls elsewhere)" ]
}

@test "--console: a bad SESSION, a command, or -i is an error (exit 2)" {
	run_split ltruss --console=abc
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: --console needs a number, not 'abc'; see 'ltruss --help'"
	run_split ltruss --console=0
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: --console needs the pid of a running ltruss, not 0; see 'ltruss --help'"
	run_split ltruss --console=999999
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: no ltruss session 999999 in $XDG_RUNTIME_DIR/ltruss: 'sessions' in the console lists them"
	run_split ltruss --console ls
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: --console attaches to a running ltruss: it takes no command; see 'ltruss --help'"
	run_split ltruss --console -i
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: --console and -i cannot be used together; see 'ltruss --help'"
}

@test "an attached console reports the end of its session" {
	start_until -o trace
	mkfifo cmds
	exec 5<>cmds
	"$LTRUSS" --console <cmds >console.out 2>console.err 3>&- &
	cons=$!
	echo stats >&5
	wait_until grep -q ' total$' console.out
	touch "$STOP"
	wait "$TRACER"
	wait "$cons"
	exec 5>&-
	run tail -1 console.out
	assert_output "session $TRACER ended (ltruss exited)"
	[ ! -s console.err ]
}

@test "-i through a pipe: the console runs the script, the program goes on, the summary follows" {
	mkfifo cmds
	exec 5<>cmds
	"$LTRUSS" -i -c -u 'libfix:*' "$PROGS/until" "$BATS_TEST_TMPDIR/stop" \
		<cmds >out 2>err 3>&- &
	TRACER=$!
	# stats until it lists fix_pick: the program has bound it by then
	# (a slow start, under ASan say, leaves the first stats empty)
	stats_lists_pick() {
		echo stats >&5
		sleep 0.1
		grep -q 'libfix:fix_pick$' out
	}
	wait_until stats_lists_pick
	printf 'disable fix_pick\nquit\n' >&5
	wait_until grep -q '^disabled 1 function$' out || { cat out err; false; }
	kill -0 "$TRACER"
	exec 5>&-
	touch stop
	wait "$TRACER"
	rounds=$(awk '/^rounds/ { print $2 }' out)
	out=$(cat err)
	[ "$(calls_of libfix:fix_add)" -eq "$rounds" ]
	[ "$(calls_of libfix:fix_pick)" -eq "$rounds" ]
}

@test "-i -f: a console still waiting for commands lets ltruss finish when the program ends" {
	mkfifo cmds
	exec 5<>cmds
	"$LTRUSS" -i -f -c -u 'libfix:*' "$PROGS/until" "$BATS_TEST_TMPDIR/stop" \
		<cmds >out 2>err 3>&- &
	TRACER=$!
	# Ask until the program has called fix_add: a console quicker than a
	# slow start (ASan, a loaded machine) would see nothing yet, and the
	# program, told to stop, would make no calls at all.
	wait_until eval "echo 'stats fix_add' >&5; grep -q ' libfix:fix_add\$' out"
	touch stop
	wait "$TRACER"
	exec 5>&-
	rounds=$(awk '/^rounds/ { print $2 }' out)
	out=$(cat err)
	[ "$rounds" -gt 0 ]
	[ "$(calls_of libfix:fix_add)" -eq "$rounds" ] || { cat err; false; }
}

@test "-i will not mix trace lines with the console on a terminal" {
	run script -qec "'$LTRUSS' -i -u 'libfix:*' '$PROGS/until' stop" /dev/null </dev/null
	[ "$status" -eq 2 ]
	assert_output --partial "ltruss: error: -i would mix the trace with the console in this terminal: write it to a file with -o FILE, or count only with -c; see 'ltruss --help'"
}

# tmux_start CMD: run CMD in a detached tmux terminal; it stays when CMD ends.
# Each terminal has its own server: a server just killed may still hold
# its socket, and a new one on it exits at once.
tmux_start() {
	TMUX_N=$((${TMUX_N:-0} + 1))
	TMUX_SOCK="$BATS_TEST_TMPDIR/tmux.$TMUX_N.sock"
	tmux -S "$TMUX_SOCK" -f /dev/null new-session -d -x 160 -y 50 \
		"$1; echo \"[exit \$?]\"; sleep 60"
}

# screen: what the tmux terminal shows.
screen() {
	tmux -S "$TMUX_SOCK" capture-pane -p
}

# keys KEY...: type into the tmux terminal.
keys() {
	tmux -S "$TMUX_SOCK" send-keys "$@"
}

@test "terminal: the prompt, Tab completes commands and function names, Ctrl-C, history" {
	start_until -o trace
	wait_until grown_by fix_pick 1 0
	tmux_start "'$LTRUSS' --console"
	wait_until eval 'screen | grep -qx "ltruss>"'
	screen | grep -qx "attached to session $TRACER: $PROGS/until $BATS_TEST_TMPDIR/stop"
	keys 'disa' Tab 'fix_p' Tab
	wait_until eval 'screen | grep -qx "ltruss> disable fix_pick"'
	keys Enter
	wait_until eval 'screen | grep -qx "disabled 1 function"'
	keys 'list' Enter
	wait_until eval 'screen | grep -Eq " disabled libfix:fix_pick$"'
	keys 'list libfix:fix_t' Tab Enter
	wait_until eval '[ "$(screen | grep -c " enabled  libfix:fix_twice$")" -eq 2 ]'
	[ "$(screen | grep -c "libfix:fix_add$")" -eq 1 ]
	keys 'stats so' Tab 'ca' Tab '1' Enter
	wait_until eval 'screen | grep -q " total$"'
	keys 'reset junk'
	wait_until eval 'screen | grep -qx "ltruss> reset junk"'
	keys C-c
	wait_until eval 'screen | sed "/^$/d" | tail -1 | grep -qx "ltruss>"'
	screen | not grep -q 'counting from zero'
	keys C-d
	wait_until eval 'screen | grep -qx "\[exit 0\]"'
	screen | grep -qx "detached from session $TRACER: the program goes on"
	kill -0 "$TRACER"
	run cat "$HOME/.local/state/ltruss/history"
	assert_output $'disable fix_pick\nlist\nlist libfix:fix_twice\nstats sort calls 1'
	# The next console starts with it.
	tmux -S "$TMUX_SOCK" kill-server
	tmux_start "'$LTRUSS' --console"
	wait_until eval 'screen | grep -qx "ltruss>"'
	keys Up Up
	wait_until eval 'screen | grep -qx "ltruss> list libfix:fix_twice"'
}

@test "terminal: -i opens the console beside the program; it lets go when the program ends" {
	tmux_start "'$LTRUSS' -i -c -u 'libfix:*' '$PROGS/until' stop"
	wait_until eval 'screen | grep -qx "ltruss>"'
	# stats until the program has called fix_add (see "-i -f: a console
	# still waiting..."): told to stop before, it would make no calls.
	stats_lists_add() {
		keys 'stats fix_add' Enter
		sleep 0.1
		screen | grep -q " libfix:fix_add$"
	}
	wait_until stats_lists_add
	keys 'paus'
	# Typed before the program ends, not only sent (a loaded machine).
	wait_until eval 'screen | grep -q "^ltruss> paus"'
	touch stop
	wait_until eval 'screen | grep -qx "\[exit 0\]"'
	run screen
	assert_line --regexp '^ltruss> paus'
	# The summary comes after the console: a table of its own.
	out=$(sed -n '/^ltruss> paus/,$p' <<<"$output")
	[ "$(grep -c '^% time' <<<"$out")" -eq 1 ]
	rounds=$(grep -o 'rounds [0-9]*' <<<"$output" | awk '{ print $2 }')
	[ "$rounds" -gt 0 ]
	[ "$(calls_of libfix:fix_add)" -eq "$rounds" ]
}

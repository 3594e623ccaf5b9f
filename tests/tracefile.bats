#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tracefile.bats: -w records a trace file, --read prints it as the live trace would have.

load helpers

TYPED_YAML="$SRCDIR/tests/progs/typed/typed.yaml"

# ids: pids, tids, timestamps and durations of JSON lines and [pid N] prefixes as N.
ids() {
	normalize | sed -E -e 's/"(pid|tid|ts|dur_ns)":[0-9]+/"\1":N/g' \
		-e 's/\[pid +[0-9]+\]/[pid N]/g' -e 's/getpid\(\) = [0-9]+/getpid() = N/' -e 's/,"pid":[0-9]+/,"pid":N/g'
}

# record FILE ARGS...: record ARGS into FILE; it must succeed.
record() {
	local file=$1
	shift
	run_split ltruss -w "$file" "$@"
	[ "$status" -eq 0 ]
}

# typed_both ARGS...: the typed fixture traced live with ARGS ($live), and
# recorded then read with ARGS ($read), both normalized.
typed_both() {
	run_split ltruss -F "$TYPED_YAML" "$@" "$PROGS/typed"
	[ "$status" -eq 0 ]
	live=$(ids <<<"$err")
	record t.ltr -F "$TYPED_YAML" "$PROGS/typed"
	[ "$err" = "+++ exited (status 0) +++" ]
	[ "$out" = "$("$PROGS/typed")" ]
	run_split ltruss --read t.ltr "$@"
	[ "$status" -eq 0 ]
	[ -z "$err" ]
	read=$(ids <<<"$out")
	[ -n "$live" ]
}

@test "-w prints only how the program ended; --read prints the lines of the live trace, byte for byte" {
	typed_both
	[ "$read" = "$live" ]
	grep -qx 'libtyped:ty_flags(TY_WRONLY|TY_CREAT|TY_APPEND) = 1089' <<<"$read"
	grep -qxF 'libtyped:ty_fail(2) = -1 ENOENT (No such file or directory)' <<<"$read"
}

@test "--read prints to stdout (as uftrace replay and perf script do), -c's summary too; its warnings stay on stderr" {
	run_split ltruss -w t.ltr -u 'libfix:fix_add' "$PROGS/die" 50 segv
	[ "$status" -eq 139 ]
	size=$(stat -c %s t.ltr)
	head -c $((size - 30)) t.ltr >cut.ltr
	for opt in "" -C; do
		ltruss --read cut.ltr $opt >out.txt 2>err.txt
		[ "$(grep -c '^libfix:fix_add(' out.txt)" -eq 50 ]
		[ "$(wc -l <err.txt)" -eq 1 ]
		grep -q "^ltruss: warning: the trace file 'cut.ltr' was cut at byte " err.txt
	done
	grep -Eq '^100\.00 .* 50 +0 libfix:fix_add$' out.txt
}

@test "--read --json gives the live JSON Lines" {
	typed_both --json
	[ "$read" = "$live" ]
	[ "$(wc -l <<<"$read")" -gt 20 ]
}

@test "--read -s cuts strings as the live -s does" {
	typed_both -s 5
	[ "$read" = "$live" ]
	grep -qxF 'libtyped:ty_string("01234"...) = 1' <<<"$read"
}

@test "--read -c: the summary counts every call the live -c counts" {
	typed_both -c
	# Times differ from run to run; calls, errors and names do not.
	[ "$(awk '{ print $(NF-2), $(NF-1), $NF }' <<<"$read" | sort)" = \
	  "$(awk '{ print $(NF-2), $(NF-1), $NF }' <<<"$live" | sort)" ]
	grep -Eq ' 1 +1 libtyped:ty_fail$' <<<"$read"
}

@test "--read --tree and --folded give the live call paths and counts" {
	typed_both --tree
	[ "$(awk '{ print $1, $NF }' <<<"$read")" = "$(awk '{ print $1, $NF }' <<<"$live")" ]
	run_split ltruss -F "$TYPED_YAML" --folded live.folded "$PROGS/typed"
	run_split ltruss --read t.ltr --folded read.folded
	[ "$status" -eq 0 ]
	[ "$(sed 's/ [0-9]*$//' read.folded)" = "$(sed 's/ [0-9]*$//' live.folded)" ]
	[ -s read.folded ]
}

@test "-w -f: parent and child in one file, read as the live -f trace; --pid picks one" {
	run_split ltruss -f -u 'libc:getpid' "$PROGS/procs" early-fork
	live=$(ids <<<"$err")
	record t.ltr -f -u 'libc:getpid' "$PROGS/procs" early-fork
	[ "$(ids <<<"$err")" = "$(grep '+++' <<<"$live")" ]
	run_split ltruss --read t.ltr
	[ "$status" -eq 0 ]
	[ "$(ids <<<"$out")" = "$live" ]
	# Two processes: pick the child (it exited 3) by its pid.
	child=$(sed -nE 's/^\[pid +([0-9]+)\] \+\+\+ exited \(status 3\) \+\+\+$/\1/p' <<<"$out")
	[ -n "$child" ]
	run_split ltruss --read t.ltr --pid "$child"
	[ "$status" -eq 0 ]
	# The child's own lines, whose they are said from the first one.
	[ "$out" = "$(printf '[pid %s] libc:getpid() = %s\n[pid %s] +++ exited (status 3) +++' "$child" "$child" "$child")" ]
	not grep -q 'status 0' <<<"$out"
}

@test "--pid and -u together: a narrowed --read shows the picked process's selected calls only" {
	record t.ltr -f -u 'libc:getpid' "$PROGS/procs" early-fork
	child=$(ltruss --read t.ltr | sed -nE 's/^\[pid +([0-9]+)\] \+\+\+ exited \(status 3\) \+\+\+$/\1/p')
	[ -n "$child" ]
	run_split ltruss --read t.ltr --pid "$child" -u 'libc:getpid'
	[ "$status" -eq 0 ]
	# -u selects what was recorded: the same lines as --pid alone, the parent's left out.
	[ "$out" = "$(ltruss --read t.ltr --pid "$child")" ]
	[ "$(grep -c 'getpid' <<<"$out")" -eq 1 ]
	not grep -q 'status 0' <<<"$out"
}

@test "a vfork child's calls in its parent's ring: -u selecting every call reads as the file unnarrowed" {
	record t.ltr -f -u 'libc:getpid,getppid,vfork' "$PROGS/vforks" nested
	whole=$(ltruss --read t.ltr)
	grep -Eq '<\.\.\. libc:vfork resumed> = [1-9][0-9]*$' <<<"$whole" || { echo "$whole"; false; }
	grep -q 'getppid' <<<"$whole" || { echo "$whole"; false; }
	# The child's calls keep their own depths, and the parent's vfork stays open for its return.
	run_split ltruss --read t.ltr -u 'libc:*'
	[ "$status" -eq 0 ]
	[ "$out" = "$whole" ] || { diff <(echo "$whole") <(echo "$out"); false; }
	run_split ltruss --read t.ltr -D 5
	[ "$out" = "$whole" ] || { diff <(echo "$whole") <(echo "$out"); false; }
}

@test "-u and -D narrow what --read prints, with depths as a live trace of the narrower selection" {
	record t.ltr -F "$TYPED_YAML" "$PROGS/typed"
	run_split ltruss --read t.ltr -u 'libtyped:ty_string'
	[ "$status" -eq 0 ]
	[ "$out" = "$(ltruss --read t.ltr | grep '^libtyped:ty_string(' ; echo '+++ exited (status 0) +++')" ]
	[ "$(grep -c 'ty_string' <<<"$out")" -ge 3 ]
	# As the live trace of the narrower selection, lines and counts.
	narrower=(-u '!libtyped:*' -u 'libtyped:ty_str*' -u 'libtyped:ty_fill*')
	run_split ltruss --read t.ltr -u 'libtyped:ty_str*' -u 'libtyped:ty_fill*'
	read=$(normalize <<<"$out")
	run_split ltruss -F "$TYPED_YAML" "${narrower[@]}" "$PROGS/typed"
	[ "$read" = "$(normalize <<<"$err")" ]
	run_split ltruss --read t.ltr -c -u 'libtyped:ty_str*' -u 'libtyped:ty_fill*'
	read=$(awk '{ print $(NF-2), $(NF-1), $NF }' <<<"$out" | sort)
	run_split ltruss -F "$TYPED_YAML" -c "${narrower[@]}" "$PROGS/typed"
	[ "$read" = "$(awk '{ print $(NF-2), $(NF-1), $NF }' <<<"$err" | sort)" ]
	grep -qx '6 0 total' <<<"$read"
	# ty_fill_nested calls ty_fill: -D 1 shows it whole, as live -D 1 does.
	run_split ltruss --read t.ltr -D 1
	read=$(normalize <<<"$out")
	run_split ltruss -F "$TYPED_YAML" -D 1 "$PROGS/typed"
	[ "$read" = "$(normalize <<<"$err")" ]
	not grep -q '^ ' <<<"$read"
}

@test "-F narrows what --read prints as the live trace of that filter, a rule's depth included" {
	cat >narrow.yaml <<-'EOF'
	version: 1
	trace:
	  - lib: libtyped
	    functions: ["ty_str*", "ty_fill*"]
	  - lib: "libc.so*"
	    functions: ["getpid"]
	    depth: 1
	EOF
	record t.ltr -F "$TYPED_YAML" -u 'libc:getpid' "$PROGS/typed"
	# ty_fill_nested calls getpid, one level deep: recorded, and its rule hides it.
	run_split ltruss --read t.ltr
	grep -q '^  libc:getpid() = ' <<<"$out" || { echo "$out"; false; }
	run_split ltruss --read t.ltr -F ./narrow.yaml
	[ "$status" -eq 0 ]
	read=$(normalize <<<"$out")
	run_split ltruss -F "$TYPED_YAML" -u '!libtyped:*' -F ./narrow.yaml "$PROGS/typed"
	[ "$read" = "$(normalize <<<"$err")" ] || { diff <(echo "$read") <(normalize <<<"$err"); false; }
	grep -q '^libtyped:ty_fill_nested(' <<<"$read"
	not grep -q 'getpid' <<<"$read"
	not grep -q 'ty_flags' <<<"$read"
}

@test "a narrowed --read -c of a recording of many blocks counts as the live -c of the narrower selection: threads, calls in calls, errors" {
	# 8 threads of calls inside calls, close(-1) failing in each round:
	# hundreds of blocks, most events decoded the fast way, passed on with
	# their depths as recorded or renumbered, counted by function.
	record t.ltr -u 'libbhv:*' -u 'libc:close,qsort' "$PROGS/bhv-threads" nested
	[ "$out" = "$("$PROGS/bhv-threads" nested)" ]
	[ "$(stat -c %s t.ltr)" -gt 1000000 ]
	for sel in 'libbhv:*' 'libc:close libbhv:bhv_cmp_long' 'libc:qsort,close'; do
		args=()
		for s in $sel; do args+=(-u "$s"); done
		run_split ltruss -c "${args[@]}" "$PROGS/bhv-threads" nested
		[ "$status" -eq 0 ]
		# The table only: a live -c also says what '::' would add.
		live=$(grep -v '^ltruss: warning: ' <<<"$err" |
			awk '{ print $(NF-2), $(NF-1), $NF }' | sort)
		run_split ltruss --read t.ltr -c "${args[@]}"
		[ "$status" -eq 0 ]
		read=$(awk '{ print $(NF-2), $(NF-1), $NF }' <<<"$out" | sort)
		[ "$read" = "$live" ] || { echo "$sel"; diff <(echo "$live") <(echo "$read"); false; }
	done
	grep -qx '16000 16000 libc:close' <<<"$read"
}

@test "a narrowed --read -c, whose calls go straight to the counts, agrees with -C's general way to the digit: threads, calls in calls, errors, forks, exec, vfork, a blocking call, longjmp, exceptions, coroutines" {
	local bhv=(-u 'libbhv:*' -u 'libbhvxx:*' -u 'libcoro:*')

	# -c makes no line: its entries and exits skip the lines' state
	# machine (trace.c's counted_call()); -C's take it.  Times included.
	record threads.ltr -u 'libbhv:*' -u 'libc:close,qsort' "$PROGS/bhv-threads" nested
	record procs.ltr -f -u 'libc:getpid,getppid,exit,_exit,fork' "$PROGS/procs" early-fork
	record execs.ltr -f -u 'libc:getsid,getppid,fork,execve,waitpid' "$PROGS/execs" fork-execve
	record vforks.ltr -f -u 'libc:getpid,getppid,vfork' "$PROGS/vforks" nested
	# usleep blocks while the other thread calls: a partial line is open.
	record blocker.ltr -u 'libc:usleep,getppid' "$PROGS/blocker"
	# Calls left by longjmp and exceptions, ended on other stacks.
	record longjmp.ltr "${bhv[@]}" "$PROGS/bhv-longjmp"
	record exceptions.ltr "${bhv[@]}" "$PROGS/bhv-exceptions"
	record coro.ltr "${bhv[@]}" "$PROGS/stk-coro"
	calls=0
	for f in threads procs execs vforks blocker longjmp exceptions coro; do
		for sel in '-u libbhv:* -u libc:close' '-u libc:close -u libbhv:bhv_cmp_long' \
			'-u libc:* -u libbhvxx:* -u libcoro:*' '-u libc:getppid,fork,vfork,usleep' '-D 1'; do
			read -ra args <<<"$sel"
			run_split ltruss --read "$f.ltr" -c "${args[@]}"
			[ "$status" -eq 0 ]
			counted=$(sed -n '/^% time/,$p' <<<"$out")
			run_split ltruss --read "$f.ltr" -C "${args[@]}" -o lines.txt
			[ "$status" -eq 0 ]
			traced=$(sed -n '/^% time/,$p' lines.txt)
			[ "$counted" = "$traced" ] || { echo "$f $sel"; diff <(echo "$traced") <(echo "$counted"); false; }
			calls=$((calls + $(awk '$NF == "total" { print $(NF - 2) }' <<<"$counted")))
		done
	done
	[ "$calls" -gt 40000 ] || { echo "$calls"; false; }
}

@test "a narrowed --read -c counts the calls seen on entry only (exit) as the live -c does" {
	sel='libc:getpid,exit,_exit,fork'
	run_split ltruss -f -c -u "$sel" "$PROGS/procs" early-fork
	# the table, without the hints (libc calls exit, fork... itself)
	live=$(grep -v '^ltruss: warning: ' <<<"$err" | awk '{ print $(NF-2), $(NF-1), $NF }' | sort)
	grep -qx '1 0 libc:exit' <<<"$live" || { echo "$live"; false; }
	record t.ltr -f -u "$sel,getppid" "$PROGS/procs" early-fork
	run_split ltruss --read t.ltr -c -u "$sel"
	[ "$status" -eq 0 ]
	[ "$(awk '{ print $(NF-2), $(NF-1), $NF }' <<<"$out" | sort)" = "$live" ]
}

@test "--read cannot narrow by the calling object: --from, or a filter's from:, is an error" {
	record t.ltr -F "$TYPED_YAML" "$PROGS/typed"
	run ltruss --read t.ltr --from 'a.out'
	[ "$status" -eq 2 ]
	assert_output "ltruss: error: --read narrows a trace by function and depth, not by the calling object: --from 'a.out' cannot be used with it; see 'ltruss --help'"
	printf 'version: 1\nfrom: ["libtyped"]\n' >from.yaml
	run ltruss --read t.ltr -F ./from.yaml
	[ "$status" -eq 2 ]
	assert_output "ltruss: error: --read narrows a trace by function and depth, not by the calling object: --from 'libtyped' (or a filter's 'from:') cannot be used with it; see 'ltruss --help'"
	# from: ["*"] is every caller: nothing to narrow.
	printf 'version: 1\nfrom: ["*"]\n' >all.yaml
	run ltruss --read t.ltr -F ./all.yaml
	[ "$status" -eq 0 ]
}

@test "a program killed by SIGSEGV: every completed call is in the file, and how it ended" {
	run_split ltruss -w t.ltr -u 'libfix:fix_add' "$PROGS/die" 50 segv
	[ "$status" -eq 139 ]
	[ "$err" = "+++ killed by SIGSEGV +++" ]
	run_split ltruss --read t.ltr
	[ "$status" -eq 0 ]
	[ "$(grep -c '^libfix:fix_add(' <<<"$out")" -eq 50 ]
	[ "$(tail -1 <<<"$out")" = "+++ killed by SIGSEGV +++" ]
	run_split ltruss --read t.ltr -c
	[ "$(head -1 <<<"$out")" = "+++ killed by SIGSEGV +++" ]
	grep -Eq ' 50 +0 libfix:fix_add$' <<<"$out"
}

# record_killed FILE WANT ARGS...: record ARGS (a program that waits for a
# signal once it created ./ready) into FILE until --read FILE -o prints
# the line WANT, then SIGKILL ltruss and end the program.
record_killed() {
	local file=$1 want=$2 pid prog i
	shift 2
	"$LTRUSS" -w "$file" "$@" </dev/null >/dev/null 2>ltruss.err 3>&- &
	pid=$!
	for i in $(seq 1 100); do
		[ -e ready ] && "$LTRUSS" --read "$file" -o lines 2>/dev/null &&
			grep -qxF -- "$want" lines && break
		sleep 0.1
	done
	prog=$(pgrep -P "$pid")
	kill -KILL "$pid"
	wait "$pid" || true
	kill -TERM "$prog"
}

@test "ltruss SIGKILLed while recording: the file reads up to its last block and says it was cut" {
	record_killed t.ltr 'libfix:fix_add(0x1f3, 0x1, 0x1f3) = 0x1f4' \
		-u 'libfix:fix_add' "$PROGS/die" 500 wait ready
	run_split ltruss --read t.ltr
	[ "$status" -eq 0 ]
	[ "$(grep -c '^libfix:fix_add(' <<<"$out")" -eq 500 ]
	grep -Eqx "ltruss: warning: the trace file 't.ltr' was cut at byte [0-9]+ \(the recording ltruss was killed, or the disk was full\): what it holds is shown" <<<"$err"
}

@test "ltruss SIGKILLed while recording: every view shows what the file holds, the call open at the cut as unfinished" {
	record_killed t.ltr 'libc:pause() <unfinished ...>' \
		-k -u 'libfix:fix_add' -u 'libc:pause' "$PROGS/die" 500 wait ready
	cut="ltruss: warning: the trace file 't.ltr' was cut at byte"
	run_split ltruss --read t.ltr -o lines
	[ "$status" -eq 0 ]
	[[ "$err" == "$cut "* ]]
	[ "$(grep -c '^libfix:fix_add(' lines)" -eq 500 ]
	[ "$(tail -1 lines)" = 'libc:pause() <unfinished ...>' ]
	# The summary counts the 500 completed calls, not the open one.
	for opt in -c -C; do
		run_split ltruss --read t.ltr "$opt" -o summary
		[ "$status" -eq 0 ]
		[[ "$err" == "$cut "* ]]
		grep -Eq '^100\.00 .* 500 +0 libfix:fix_add$' summary
		grep -Eq '^100\.00 .* 500 +0 total$' summary
		[ "$(grep -Ec ' libc:pause$' summary)" -eq 0 ]
	done
	[ "$(grep -c '^libfix:fix_add(' summary)" -eq 500 ]
	run_split ltruss --read t.ltr --json -o json
	[ "$(grep -c '^{"type":"call",.*"func":"fix_add"' json)" -eq 500 ]
	[ "$(grep -c '^{"type":"enter",.*"func":"pause"' json)" -eq 1 ]
	run_split ltruss --read t.ltr -k -o stacks
	[ "$(grep -c '^ > main+0x[0-9a-f]* (.*/die)$' stacks)" -ge 501 ]
	run_split ltruss --read t.ltr --tree -o tree --folded folded --chrome chrome.json
	[ "$status" -eq 0 ]
	grep -Eq '^ +500 +[0-9.]+ +[0-9.]+  libfix:fix_add$' tree
	grep -Eq '^libfix:fix_add [0-9]+$' folded
	# 500 complete calls, and the one open at the cut begun only ("B").
	/usr/bin/python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
assert sum(1 for e in ev if e.get("name") == "libfix:fix_add" and e["ph"] == "X") == 500
assert [e["name"] for e in ev if e.get("ph") == "B"] == ["libc:pause"], ev[-3:]
' chrome.json
}

@test "a full disk: one message, the program runs on with its own output and status, the file still reads" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs"
	mkdir disk
	mount -t tmpfs -o size=256k tmpfs disk || skip "cannot mount a tmpfs here"
	# Some 16 MB of trace: more than the writer's 8 MiB buffer, so the
	# disk fills while the program runs.
	run_split ltruss -w disk/t.ltr -u 'libfix:fix_add' "$PROGS/spin" 1 1000000
	cp disk/t.ltr t.ltr || true
	umount disk
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/spin" 1 1000000)" ]
	[ "$(grep -c "cannot write the trace file 'disk/t.ltr' (-w); recording stopped there, the program runs on and the file reads up to it: No space left on device" <<<"$err")" -eq 1 ]
	[ "$(tail -1 <<<"$err")" = "+++ exited (status 0) +++" ]
	run_split ltruss --read t.ltr
	[ "$status" -eq 0 ]
	[ "$(grep -c '^libfix:fix_add(' <<<"$out")" -gt 100 ]
	grep -q "was cut at byte" <<<"$err"
}

@test "a file that is not a trace: one error line, exit 2" {
	echo "hello, not a trace" >junk
	run ltruss --read junk
	assert_failure 2
	assert_output "ltruss: error: cannot read the trace file 'junk': no trace file magic (\"LTRUSS\") at byte 0; it is not a trace ltruss -w wrote, or it was damaged"
	: >empty
	run ltruss --read empty
	assert_failure 2
	assert_output --partial "the file is empty at byte 0"
	run ltruss --read nonexistent
	assert_failure 2
	assert_output "ltruss: error: cannot read the trace file 'nonexistent' (--read): No such file or directory"
}

@test "a truncated file: its header cut is an error; cut after it, what it holds is read" {
	record t.ltr -F "$TYPED_YAML" "$PROGS/typed"
	head -c 100 t.ltr >short
	run ltruss --read short
	assert_failure 2
	assert_output "ltruss: error: cannot read the trace file 'short': the header is cut at byte 100; it is not a trace ltruss -w wrote, or it was damaged"
	size=$(stat -c %s t.ltr)
	head -c $((size - 30)) t.ltr >cut
	run_split ltruss --read cut
	[ "$status" -eq 0 ]
	grep -q '^libtyped:ty_string(' <<<"$out"
	grep -Eq "^ltruss: warning: the trace file 'cut' was cut at byte [0-9]+ " <<<"$err"
}

@test "bit flips anywhere: one error line, exit 2, never a crash" {
	record t.ltr -F "$TYPED_YAML" "$PROGS/typed"
	size=$(stat -c %s t.ltr)
	for at in 20 500 $((size / 3)) $((size / 2)) $((size - 40)); do
		cp t.ltr flipped
		byte=$(od -An -tu1 -j "$at" -N1 flipped | tr -d ' ')
		printf "$(printf '\\%03o' $((byte ^ 0x10)))" |
			dd of=flipped bs=1 seek="$at" conv=notrunc status=none
		run ltruss --read flipped
		assert_failure 2
		[ "${#lines[@]}" -eq 1 ] || [ "$(grep -c '^ltruss: error: ' <<<"$output")" -eq 1 ]
		assert_line --regexp "^ltruss: error: cannot read the trace file 'flipped': .* at byte [0-9]+; it is not a trace ltruss -w wrote, or it was damaged$"
	done
}

@test "--read -o FILE of a file damaged midway: FILE holds every line printed before the error, as stdout does" {
	record t.ltr -u 'libfix:fix_add' "$PROGS/fix-lazy" 200000
	cut=0
	# Which block a seed damages depends on how many the recording has
	# (its rounds: the machine's load); seeds until one cut midway.
	for seed in $(seq 1 40); do
		[ "$cut" -ge 1 ] && [ "$seed" -gt 3 ] && break
		"$PROGS/ltr-mutate" t.ltr m.ltr "$seed"
		want=0
		ltruss --read m.ltr >expected 2>/dev/null || want=$?
		# A file found corrupt before a line is printed leaves -o unmade.
		rm -f trace
		run_split ltruss --read m.ltr -o trace
		[ "$status" -eq "$want" ]
		[ -e trace ] || : >trace
		cmp expected trace
		if [ "$want" -eq 2 ] && [ "$(wc -l <trace)" -gt 1000 ]; then
			cut=$((cut + 1))
		fi
	done
	# a seed damaged a block past the first: lines, then the error
	[ "$cut" -ge 1 ]
}

@test "a block with a gigantic length: an error, no allocation" {
	record t.ltr -u 'libc:getpid' "$PROGS/procs" early-fork
	# The first block's length field, at byte 400 + 4.
	printf '\377\377\377\177' | dd of=t.ltr bs=1 seek=404 conv=notrunc status=none
	run ltruss --read t.ltr
	assert_failure 2
	assert_output "ltruss: error: cannot read the trace file 't.ltr': a block header no writer makes at byte 400; it is not a trace ltruss -w wrote, or it was damaged"
}

@test "options that do not go with -w or --read: exit 2 with the reason" {
	run ltruss -w t.ltr -c true
	assert_failure 2
	assert_output --partial "ltruss: error: -w records and prints no trace: give -c or -C to --read FILE instead"
	[ ! -e t.ltr ]
	run ltruss --read t.ltr true
	assert_failure 2
	assert_output --partial "ltruss: error: --read prints a recorded trace and runs nothing: it takes no command ('true')"
	run ltruss --read t.ltr -f
	assert_failure 2
	assert_output --partial "--read prints a recorded trace and runs nothing: -f cannot be used with it"
	run ltruss --pid 3 true
	assert_failure 2
	assert_output --partial "ltruss: error: --pid narrows what --read FILE prints: give it with --read"
	run ltruss -w /nonexistent/dir/t.ltr true
	assert_failure 2
	assert_output "ltruss: error: cannot write the trace file '/nonexistent/dir/t.ltr' (-w): No such file or directory"
}

@test "--read: exit lines carry the time the process ended, not the time the file is read (-ttt, --json)" {
	record t.ltr -u 'libc:getpid' "$PROGS/procs" early-fork
	sleep 2
	run_split ltruss --read t.ltr -ttt
	[ "$status" -eq 0 ]
	call=$(sed -nE 's/^([0-9]+\.[0-9]+) libc:getpid\(\) = [0-9]+$/\1/p' <<<"$out" | tail -1)
	exited=$(sed -nE 's/^([0-9]+\.[0-9]+) \+\+\+ exited \(status 0\) \+\+\+$/\1/p' <<<"$out")
	[ -n "$call" ] && [ -n "$exited" ] || { echo "$out"; false; }
	awk -v c="$call" -v e="$exited" 'BEGIN { exit !(e >= c && e - c < 1) }' || { echo "$out"; false; }
	ltruss --read t.ltr --json >t.json
	call=$(jq -s 'map(select(.type == "call")) | last | .ts' t.json)
	exited=$(jq -s 'map(select(.type == "exited")) | last | .ts' t.json)
	[ "$exited" -ge "$call" ] && [ $((exited - call)) -lt 1000000000 ] || { cat t.json; false; }
}

@test "a file starts as ltruss-trace(5) says: magic, version, header size, then a block" {
	record t.ltr -u 'libc:getpid' "$PROGS/procs" early-fork
	[ "$(head -c 8 t.ltr | od -An -c | tr -s ' ')" = " L T R U S S \0 001" ]
	version=$(sed -nE 's/^This page describes format version ([0-9]+), .*/\1/p' "$SRCDIR/man/ltruss-trace.5.in")
	[ -n "$version" ]
	[ "$(od -An -tu4 -j 8 -N 8 t.ltr | tr -s ' ')" = " $version 400" ]
	# The first block: TABLES (1), its length within the file.
	[ "$(od -An -tu4 -j 400 -N 4 t.ltr | tr -d ' ')" -eq 1 ]
	len=$(od -An -tu4 -j 404 -N 4 t.ltr | tr -d ' ')
	[ $((400 + 16 + len)) -le "$(stat -c %s t.ltr)" ]
	grep -q '^[.]B 1 TABLES$' "$SRCDIR/man/ltruss-trace.5.in"
}

@test "--read -c of a whole file reads its events' blocks once, to check them, and decodes none; narrowed, it decodes them" {
	record t.ltr -u 'libfix:fix_add' "$PROGS/fix-lazy" 200000
	size=$(stat -c %s t.ltr)
	# LeakSanitizer (maint/check-asan) cannot run under ptrace.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	# Bytes read: the first pass checks every block; -c's second pass
	# steps over the events (the summary is the recorded counters).
	strace -e trace=pread64 -o st.txt "$LTRUSS" --read t.ltr -c -o c.txt
	read_c=$(awk -F'= ' '/^pread64/ { s += $NF } END { print s }' st.txt)
	[ "$read_c" -lt $((size + size / 10)) ] || { echo "read $read_c of $size"; false; }
	strace -e trace=pread64 -o st.txt "$LTRUSS" --read t.ltr -c -u 'libfix:*' -o cu.txt
	read_cu=$(awk -F'= ' '/^pread64/ { s += $NF } END { print s }' st.txt)
	[ "$read_cu" -gt $((2 * size - size / 10)) ]
	# The same summary either way.
	grep -Eq ' 200001 +0 libfix:fix_add$' c.txt
	grep -Eq ' 200001 +0 libfix:fix_add$' cu.txt
}

@test "--read of a big file reads a block at a time: its memory does not grow with the file" {
	[ -x /usr/bin/time ] || skip "needs /usr/bin/time (apt-get install time)"
	record big.ltr -u 'libfix:fix_add' "$PROGS/spin" 1 1000000
	record small.ltr -u 'libfix:fix_add' "$PROGS/spin" 1 100000
	# (11 MB: the calls' junk argument registers, what a traced call left
	# in them, are no longer the interposer's pointers but the callee's
	# small values, whose varints are shorter)
	[ "$(stat -c %s big.ltr)" -gt 11000000 ]
	/usr/bin/time -f %M -o rss.txt "$LTRUSS" --read big.ltr -o lines.txt
	[ "$(grep -c '^libfix:fix_add(' lines.txt)" -eq 1000000 ]
	/usr/bin/time -f %M -o rss-small.txt "$LTRUSS" --read small.ltr -o lines.txt
	# KiB: ten times the file (some 14 MB more) takes no more memory to speak
	# of; a file read or mapped whole would add its size.  (Compared with
	# a small file rather than a fixed bound: an ASan build is bigger.)
	[ $(($(tail -1 rss.txt) - $(tail -1 rss-small.txt))) -lt 4096 ]
}

@test "--read maps no image of the session: nothing it allocates is bigger than its block buffer" {
	if ldd "$LTRUSS" | grep -q libasan; then
		skip "an ASan build maps its shadow memory"
	fi
	# The names, objects and prototypes of a recording of sqlite3, read
	# into tables of what the file holds (bin/catalog.c).  Before, an
	# image of the session's header (13 MiB: its tables at their largest)
	# was mapped to hold them; now the largest mapping made is the buffer
	# of one block (TF_BLOCK_MAX, 4 MiB).
	strace -f -e trace=mmap -o st.txt "$LTRUSS" --read "$SRCDIR/tests/data/v8-sqlite3.ltr" -C -o out.txt
	grep -q 'sqlite3' out.txt
	biggest=$(awk -F', ' '/MAP_ANONYMOUS/ && $2 > m { m = $2 } END { print m + 0 }' st.txt)
	[ "$biggest" -gt 0 ]
	[ "$biggest" -le $((4 * 1048576 + 65536)) ] || { echo "a mapping of $biggest bytes"; false; }
}

@test "--read takes time close to linear in the file: 16384 objects with build IDs, 16384 libraries, -u rules (ltr-gen)" {
	# 4 MiB: each object's build ID in a block of its own, long before the
	# objects' table; each function of a library of its own.  Before, the
	# IDs were walked at every block and compared with every earlier one
	# (5 s), and each -u library glob was matched against every object
	# for each library (80 s with these rules); now well under a second.
	"$PROGS/ltr-gen" big.ltr 16384
	run timeout 30 "$LTRUSS" --read big.ltr -o lines.txt
	[ "$status" -eq 0 ]
	[ "$(grep -c '^lib[0-9]*:f[0-9]*(0x1, 0x2, 0x3) <no return ...>$' lines.txt)" -eq 16384 ]
	run timeout 30 "$LTRUSS" --read big.ltr -o lines.txt -u 'libnone*:*' \
		-u 'libnada*' -u 'libzip*' -u 'lib1*:*' -u 'lib0*:f0000*'
	[ "$status" -eq 0 ]
	# lib10000 to lib16383, and f00000 to f00009.
	[ "$(grep -c '^lib' lines.txt)" -eq 6394 ]
	[ "$(grep -c '^lib0000[0-9]:f0000[0-9](' lines.txt)" -eq 10 ]
}

# rounds_read [signal]: 40 programs taking turns at 25 calls each
# (stacks-rounds), recorded with -f -k, each call's process another than
# the last one's, more of them than the 16 unwinders libdw's walk keeps;
# read back with -k into lines.txt, the files opened listed in st.log
# (strace); $frames: "COUNT FUNC (OBJECT)" of the stack lines.
rounds_read() {
	record r.ltr -f -k -u 'libc:getppid' "$PROGS/stacks-rounds" 40 25 "$@"
	[ "$out" = "40 25" ]
	# LeakSanitizer (maint/check-asan) cannot run under ptrace.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run strace -f -qq -e trace=open,openat -o st.log \
		timeout 60 "$LTRUSS" --read r.ltr -k -o lines.txt
	[ "$status" -eq 0 ]
	[ "$(grep -c '^\(\[pid [0-9]*\] \)\?libc:getppid() = [0-9]*$' lines.txt)" -eq 1000 ]
	# take_turn may be a clone (take_turn.isra.0).
	frames=$(sed -nE 's/^(\[pid [0-9]+\] )? > ([^ ]*)\+0x[0-9a-f]+ \(.*\/([^/]*)\)$/\2 (\3)/p' lines.txt |
		sed 's/^take_turn[.][^ ]*/take_turn/' | sort | uniq -c | awk '{ print $1, $2, $3 }')
}

@test "--read -k of forty programs taking turns at calls opens each file once, and shows every call's stack (stacks-rounds)" {
	# Before, each call built its process's unwinder again, every file of
	# it opened anew.
	rounds_read
	[ "$frames" = "$(printf '%s\n' '1000 main (stacks-rounds)' '1000 take_turn (stacks-rounds)')" ] ||
		{ echo "$frames"; false; }
	[ "$(grep -c ' > ' lines.txt)" -eq 2000 ]
	# The program's file: for its build ID, symbols, unwind tables; not 1000 times.
	opens=$(grep -c '/stacks-rounds"' st.log)
	[ "$opens" -le 5 ] || { echo "$opens opens"; false; }
}

@test "--read -k of forty programs taking turns at calls from signal handlers: libdw's walk opens only the files of its frames (stacks-rounds signal)" {
	# Through a signal frame, libdw unwinds itself, with the objects where
	# each process had them.  Before, each call reported every object of
	# its process (the loader, the interposer...) to it, all opened anew.
	rounds_read signal
	[ "$frames" = "$(printf '%s\n' \
		'2000 libc.so.6 (libc.so.6)' '1000 main (stacks-rounds)' \
		'1000 on_usr1 (stacks-rounds)' '1000 raise (libc.so.6)' \
		'1000 take_turn (stacks-rounds)')" ] || { echo "$frames"; false; }
	[ "$(grep -c ' > ' lines.txt)" -eq 6000 ]
	# The loader holds no frame: its file is never opened.
	[ "$(grep -c '/ld-linux[^/]*"' st.log)" -eq 0 ] || { grep 'ld-linux' st.log | head -3; false; }
}

@test "--read -k takes time and memory close to linear: 20 processes taking turns, 800 objects each (ltr-gen stacks)" {
	[ -x /usr/bin/time ] || skip "needs /usr/bin/time (apt-get install time)"
	off=0x$(nm -D "$PROGS/libfix.so" | awk '$3 ~ /^fix_add@/ { print $1 }')
	[ "$off" != 0x ]
	# 100 names of one library, more than the files kept open at a time.
	for i in $(seq 0 99); do
		ln -s "$PROGS/libfix.so" "lib.so.$i"
	done
	"$PROGS/ltr-gen" big.ltr stacks 20 800 4000 "$PWD/lib.so" "$off" 100
	"$PROGS/ltr-gen" small.ltr stacks 20 800 400 "$PWD/lib.so" "$off" 100
	# Before: each call built its process's unwinder again (800 files
	# opened) and compared each object with every later one, minutes.
	/usr/bin/time -f %M -o rss.txt timeout 30 "$LTRUSS" --read big.ltr -k -o lines.txt
	[ "$(grep -c '^libgen:f(0x1, 0x2, 0x3) <no return ...>$' lines.txt)" -eq 4000 ]
	[ "$(grep -c "^ > fix_add+0x1 ($PWD/lib\.so\.[0-9]*)\$" lines.txt)" -eq 4000 ]
	[ "$(grep -c ' > ' lines.txt)" -eq 4000 ]
	/usr/bin/time -f %M -o rss-small.txt timeout 30 "$LTRUSS" --read small.ltr -k -o lines.txt
	[ "$(grep -c ' > fix_add+0x1 ' lines.txt)" -eq 400 ]
	# KiB: ten times the calls take no more memory to speak of.
	[ $(($(tail -1 rss.txt) - $(tail -1 rss-small.txt))) -lt 4096 ]
}

@test "--read -k: an object record claimed and never written (its process killed) holds up no object after it (ltr-gen stacks dead)" {
	off=0x$(nm -D "$PROGS/libfix.so" | awk '$3 ~ /^fix_add@/ { print $1 }')
	[ "$off" != 0x ]
	"$PROGS/ltr-gen" dead.ltr stacks 2 3 12 "$PROGS/libfix.so" "$off" 0 dead
	run_split ltruss --read dead.ltr -k
	[ "$status" -eq 0 ]
	# Before, every record after the dead one waited for it: no frame named.
	[ "$(grep -c "^\(\[pid 100[01]\] \)\? > fix_add+0x1 ($PROGS/libfix\.so)\$" <<<"$out")" -eq 12 ] ||
		{ echo "$out" | head; false; }
}

@test "a named type's names with control bytes, checksum right: printed escaped, never raw" {
	record t.ltr -F "$TYPED_YAML" "$PROGS/typed"
	"$PROGS/ltr-mutate" t.ltr damaged.ltr type-name
	run_split ltruss --read damaged.ltr
	[ "$status" -eq 0 ]
	grep -qxF 'libtyped:ty_flags(\x0e\xa0_RDONLY) = 0' <<<"$out"
	not env LC_ALL=C grep -q -P '[\x00-\x08\x0b-\x1f\x7f-\xff]' <<<"$out"
}

@test "-w: a string that comes back is written once a block, and --read prints it as live" {
	a=$(seq -s , 1000 1039)
	b=$(seq -s , 2000 2039)
	# Two calls' strings swap places at each call, as sort's do.
	record t.ltr -s 256 -u 'libc:strcmp' "$PROGS/swaps" 2000 "$a" "$b"
	# Less than one string's bytes a call, where each call passes two.
	[ "$(stat -c %s t.ltr)" -lt $((2000 * ${#a})) ]
	run_split ltruss --read t.ltr
	[ "$status" -eq 0 ]
	read_out=$out
	run_split ltruss -s 256 -u 'libc:strcmp' "$PROGS/swaps" 2000 "$a" "$b"
	[ "$status" -eq 0 ]
	[ "$(grep -c "^libc:strcmp(\"$a\", \"$b\") = " <<<"$err")" -eq 1000 ]
	[ "$read_out" = "$err" ]
}

@test "-w: calls whose words repeat, creep or jump, a level down or seen on entry only: --read prints the live trace, byte for byte (bhv-words)" {
	local sel=(-u 'libbhv:*' -u 'libc:_setjmp' -u 'libc:longjmp')
	# No address randomization: the callback and jmp_buf passed are the same in both runs.
	run_split setarch -R timeout -k 5 60 "$LTRUSS" -o live.txt "${sel[@]}" "$PROGS/bhv-words" 3000
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/bhv-words" 3000)" ]
	run_split setarch -R timeout -k 5 60 "$LTRUSS" -w t.ltr "${sel[@]}" "$PROGS/bhv-words" 3000
	[ "$status" -eq 0 ]
	[ "$err" = "+++ exited (status 0) +++" ]
	ltruss --read t.ltr -o read.txt
	# Each kind of call is there: at the top, a level down, on entry only;
	# arguments and returns of all 64 bits.
	[ "$(grep -c '^libbhv:bhv_add3(' live.txt)" -eq 3000 ]
	[ "$(grep -c '^  libbhv:bhv_add3(' live.txt)" -eq 600 ]
	[ "$(grep -c '^libc:longjmp(.* <no return ...>$' live.txt)" -eq 429 ]
	grep -qE '^libbhv:bhv_add3\(0x[89a-f][0-9a-f]{15}, .* = 0x[0-9a-f]{16}$' live.txt
	cmp live.txt read.txt
}

# lying MODE WHAT: the typed fixture recorded, made to lie by ltr-mutate
# MODE (checksum right), read: the lines before the lie, then one error
# line saying WHAT, exit 2.
lying() {
	record t.ltr -F "$TYPED_YAML" "$PROGS/typed"
	"$PROGS/ltr-mutate" t.ltr lying.ltr "$1"
	run_split ltruss --read lying.ltr
	[ "$status" -eq 2 ]
	# The lines before the damage on stdout, the error last on stderr.
	[ "$(grep -c '^ltruss: error: ' <<<"$err")" -eq 1 ]
	[[ $(tail -1 <<<"$err") =~ ^"ltruss: error: cannot read the trace file 'lying.ltr': $2 at byte "[0-9]+"; it is not a trace ltruss -w wrote, or it was damaged"$ ]]
}

@test "an event whose word runs past its block, checksum right: one error line, exit 2" {
	lying word-past "a word that runs past its event"
}

@test "a string that repeats one before the block's first, checksum right: one error line, exit 2" {
	lying string-ref "a reference to no earlier string"
}

@test "a second prototype for a function whose calls were shown, checksum right: one error line, exit 2, no use after free" {
	# ltr-mutate puts it, and a TYPE record to take the freed memory,
	# between the first events block and a copy of it (issue 29).
	lying proto-again "a second prototype for one function"
}

@test "no record changes what an earlier one wrote: a second soname, build ID, function or object record is corruption" {
	for mode in soname-again:"a second soname for one object" \
		build-id-again:"a second build ID for one object" \
		func-again:"a table record that does not append" \
		object-again:"a table record that does not append"; do
		lying "${mode%%:*}" "${mode#*:}"
	done
}

@test "damaged files (20 seeds, checksums kept right): --read exits 0 or 2 with one line, never a crash" {
	record t.ltr -f -F "$TYPED_YAML" "$PROGS/typed"
	mkdir fuzz
	for seed in $(seq 1 20); do
		"$SRCDIR/tests/fuzz/tracefile-run" "$LTRUSS" "$PROGS/ltr-mutate" t.ltr fuzz "$seed"
	done
}

@test "a clock in the last second a uint64_t holds (checksum right): --read --json writes every timestamp whole, valid JSON" {
	# The JSON timestamps' cache of the last second took the first one
	# for a kept one and wrote its digits before it (make fuzz found it).
	record t.ltr -F "$TYPED_YAML" "$PROGS/typed"
	"$PROGS/ltr-mutate" t.ltr late.ltr last-second
	run_split ltruss --read late.ltr --json
	[ "$status" -eq 0 ]
	[ "$(grep -c '"type":"call"' <<<"$out")" -gt 10 ]
	/usr/bin/python3 -c '
import json, sys
for line in sys.stdin:
    o = json.loads(line)
    if o["type"] == "call":
        assert str(o["ts"]).startswith("18446744073"), o["ts"]
' <<<"$out"
}

@test "a call that blocked: --read shows it unfinished and resumed where the live trace did" {
	run_split ltruss -u 'libc:usleep,getppid' "$PROGS/blocker"
	live=$(sed -E 's/\[pid [0-9]+\]/[pid N]/; s/getppid\(\) = [0-9]+$/getppid() = PPID/' <<<"$err")
	record t.ltr -u 'libc:usleep,getppid' "$PROGS/blocker"
	run_split ltruss --read t.ltr
	[ "$status" -eq 0 ]
	read=$(sed -E 's/\[pid [0-9]+\]/[pid N]/; s/getppid\(\) = [0-9]+$/getppid() = PPID/' <<<"$out")
	[ "$read" = "$live" ]
	[ "$(head -1 <<<"$read")" = 'libc:usleep(400000) <unfinished ...>' ]
}

@test "--console works while recording: stats counts the calls so far" {
	console_stats_of_die -w t.ltr
	run_split ltruss --read t.ltr
	[ "$(grep -c '^libfix:fix_add(' <<<"$out")" -eq 100 ]
	[ "$(tail -1 <<<"$out")" = "+++ killed by SIGTERM +++" ]
}

@test "--read --caller and -k on a file replaced since the recording: one warning that it is not the file that ran" {
	cp "$PROGS/procs" ./prog
	record t.ltr -k -u 'libc:getpid' ./prog early-fork
	run_split ltruss --read t.ltr --caller -k
	[ "$status" -eq 0 ]
	[ "$(grep -c 'warning' <<<"$err")" -eq 0 ] || { echo "$err"; false; }
	grep -Eq '^libc:getpid\(\) = [0-9]+ \[from main\+0x[0-9a-f]+\]$' <<<"$out" || { echo "$out"; false; }
	cp "$PROGS/execs" ./prog
	run_split ltruss --read t.ltr --caller -k
	[ "$status" -eq 0 ]
	grep -qxF "ltruss: warning: '$PWD/prog' is not the file that ran (its build ID differs): names and stacks from it may be wrong" <<<"$err" || { echo "$err"; false; }
	[ "$(grep -c 'warning' <<<"$err")" -eq 1 ] || { echo "$err"; false; }
}

@test "--read -k --json of a program rebuilt since: the warning is a line of its own, every other line a whole JSON object" {
	cp "$PROGS/procs" ./prog
	record t.ltr -k -u 'libc:getpid' ./prog early-fork
	cp "$PROGS/execs" ./prog
	run_split ltruss --read t.ltr -k --json
	[ "$status" -eq 0 ]
	grep -qxF "ltruss: warning: '$PWD/prog' is not the file that ran (its build ID differs): names and stacks from it may be wrong" <<<"$err" || { echo "$err"; false; }
	[ "$(grep -c 'warning' <<<"$err")" -eq 1 ] || { echo "$err"; false; }
	# The warning on stderr, the JSON on stdout: every line a whole object.
	[ "$(wc -l <<<"$err")" -eq 1 ] || { echo "$err"; false; }
	/usr/bin/python3 -c '
import json, sys
n = 0
for line in sys.stdin:
    json.loads(line)
    n += 1
assert n >= 2, n
' <<<"$out" || { echo "$out"; false; }
	# Both to one file (2>&1): the warning still a line of its own.
	ltruss --read t.ltr -k --json >both 2>&1
	[ "$(grep -c '^ltruss: warning: ' both)" -eq 1 ]
	grep -v '^ltruss: warning: ' both | /usr/bin/python3 -c '
import json, sys
for line in sys.stdin:
    json.loads(line)
' || { cat both; false; }
}

@test "the file records each loaded object's path and build ID, for unwinding it later" {
	record t.ltr -u 'libc:getpid' "$PROGS/procs" early-fork
	id=$(readelf -n "$PROGS/procs" | awk '/Build ID:/ { print $3 }')
	[ -n "$id" ]
	hex=$(od -An -tx1 -v t.ltr | tr -d ' \n')
	grep -q "$id" <<<"$hex"
	grep -qF "$(printf '%s' "$PROGS/procs" | od -An -tx1 -v | tr -d ' \n')" <<<"$hex"
}

@test "-w: the file is written by a thread of its own, so the reader never waits for write(2)" {
	timeout -k 5 60 "$LTRUSS" -w t.ltr -u 'libfix:fix_add' "$PROGS/until" stop \
		</dev/null >/dev/null 2>&1 &
	pid=$!
	# The header is written at the start; ltruss is timeout's child.
	for _ in $(seq 200); do [ -s t.ltr ] && break; sleep 0.05; done
	# The thread starts with the first block, flushed within a second.
	for _ in $(seq 200); do
		comms=$(cat /proc/"$(pgrep -P "$pid" -x ltruss)"/task/*/comm)
		grep -qx ltruss-writer <<<"$comms" && break
		sleep 0.05
	done
	touch stop
	wait "$pid"
	grep -qx ltruss-writer <<<"$comms"
	run_split ltruss --read t.ltr
	[ "$status" -eq 0 ]
	[ "$(grep -c '^libfix:fix_add(' <<<"$out")" -gt 0 ]
}

# mask_free: the lines normalized, and the free pages sysconf(86) says, which change from run to run.
mask_free() {
	normalize | sed -E 's/^(libc:sysconf\(86\) = )[0-9]+$/\1N/'
}

# by_thread: JSON Lines of calls as THREAD<tab>FUNC ARGS, each thread
# named by the arguments of its first call; sorted by thread, each
# thread's calls in the order they came.  A call held up past the idle
# pass (a loaded machine) is an "enter" and an "exit": its enter counts
# as the call (its return follows from its arguments in these tests).
by_thread() {
	awk '/"type":"(call|enter)"/ {
		match($0, /"tid":[0-9]+/)
		tid = substr($0, RSTART, RLENGTH)
		match($0, /"func":"[^"]*"/)
		func = substr($0, RSTART, RLENGTH)
		match($0, /"args":\[[^]]*\]/)
		args = substr($0, RSTART, RLENGTH)
		if (!(tid in name))
			name[tid] = args
		print name[tid] "\t" func " " args
	}' | sort -s -t "$(printf '\t')" -k1,1
}

# calls_in FILE.json: its calls, an "enter" split from its "exit" counted as one (by_thread).
calls_in() {
	grep -cE '"type":"(call|enter)"' "$1"
}

@test "-w with several busy threads: workers encode the blocks, and --read gives each thread's calls as the live trace, in order" {
	[ "$(nproc)" -ge 2 ] || skip "one core: no core for a worker"
	# Two arguments: a third would print what %rdx held, which varies.
	cat >fix.yaml <<-'EOF'
	version: 1
	trace:
	  - lib: libfix
	    functions: [fix_add]
	prototypes:
	  - "int fix_add(int a, int b)"
	EOF
	LTRUSS_DEBUG_SEGMENTS=1 run_split ltruss -w t.ltr -F ./fix.yaml "$PROGS/busythreads" 4 100000
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/busythreads" 4 100000)" ]
	# The workers took part: segments were encoded off the reader's thread.
	grep -Eq '^ltruss: debug: [1-9][0-9]* encoding workers, [1-9][0-9]* segments,' <<<"$err"
	run_split ltruss --json -o live.json -F ./fix.yaml "$PROGS/busythreads" 4 100000
	[ "$status" -eq 0 ]
	ltruss --read t.ltr --json >read.json
	[ "$(calls_in read.json)" -eq 400000 ]
	by_thread <live.json >live.txt
	by_thread <read.json >read.txt
	cmp live.txt read.txt
	# What the reader checks: 4 threads, 100000 calls each, in their order.
	[ "$(cut -f1 read.txt | uniq | wc -l)" -eq 4 ]
	[ "$(cut -f1 read.txt | uniq -c | awk '{ print $1 }' | sort -u)" = 100000 ]
}

# busy_record FILE THREADS CALLS: record busythreads' fix_add calls (two
# arguments: a third would print what %rdx held, which varies) into FILE,
# the debug lines in err.
busy_record() {
	printf '%s\n' 'version: 1' 'trace: [{ lib: libfix, functions: [fix_add] }]' \
		'prototypes: ["int fix_add(int a, int b)"]' >fix.yaml
	LTRUSS_DEBUG_SEGMENTS=1 run_split ltruss -w "$1" -F ./fix.yaml "$PROGS/busythreads" "$2" "$3"
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/busythreads" "$2" "$3")" ]
}

# rounds BLOCKS: the rounds of a list of blocks (ltr-mutate list-blocks),
# a line each: the offset of its first block, then each block's slot; a
# round is its EVENTS blocks with flag 1 up to one with flag 2 too.
rounds() {
	awk '$2 == 2 && $5 % 2 == 1 { if (!r) r = $1; r = r " " $4
		if ($5 >= 2) { print r; r = "" } next }
	     { if (r) print r; r = "" }
	     END { if (r) print r }' "$1"
}

@test "-w of sort with every libc call: a ring's blocks outgrow their buffer mid-block, no crash, --read gives the live trace" {
	# A ring of strings drained in one round encodes past the first 256
	# KiB of its buffer: the buffer grows while a block of string
	# back-references into it is open.
	seq 1 8000 | shuf --random-source=<(yes) | sed 's/^/line /' >in.txt
	export LC_ALL=C.UTF-8 # strcoll, of strings
	run_split ltruss -w t.ltr -u 'libc:*' -u '-libc:__*' sort --parallel=1 in.txt
	[ "$status" -eq 0 ]
	[ "$out" = "$(sort --parallel=1 in.txt)" ]
	ltruss --read t.ltr 2>&1 | mask_free >read.txt
	run_split ltruss -u 'libc:*' -u '-libc:__*' sort --parallel=1 in.txt
	mask_free <<<"$err" >live.txt
	[ "$(grep -c '^libc:strcoll(' read.txt)" -gt 50000 ]
	cmp live.txt read.txt
}

@test "-w with busy threads: each ring drained, checked and encoded apart by workers, in rounds of blocks a slot each; --read merges them by time" {
	[ "$(nproc)" -ge 2 ] || skip "one core: no core for a worker"
	busy_record t.ltr 4 100000
	# Workers drained rings: the reader's thread only copied the blocks.
	grep -Eq '; [1-9][0-9]* rings drained by workers, [0-9]+ by the reader.s thread; [0-9]+ events, the workers. CPU [0-9.]+ ns an event, the reader.s thread.s [0-9.]+ ns, [0-9.]+ ns of it not draining$' <<<"$err"
	"$PROGS/ltr-mutate" t.ltr blocks list-blocks
	# Every EVENTS block is of a round, every round ends with a block
	# that says so.
	[ "$(awk '$2 == 2 && $5 != 1 && $5 != 3' blocks | wc -l)" -eq 0 ]
	[ "$(awk '$2 == 2 && $5 == 3' blocks | wc -l)" -eq "$(rounds blocks | wc -l)" ]
	# In a round, a slot's blocks are together; some rounds hold several.
	[ "$(rounds blocks | awk '{ delete seen; runs = 0; prev = ""
		for (i = 2; i <= NF; i++) {
			if ($i != prev) { if ($i in seen) bad++; seen[$i]; runs++ }
			prev = $i
		}
		if (runs > 1) several++ } END { print bad + 0, (several > 0) }')" = "0 1" ]
	# Each thread's calls as live: the test before, on the same files.
	ltruss --read t.ltr --json >read.json
	[ "$(calls_in read.json)" -eq 400000 ]
	# Merged by time: a call ends no earlier than the one before it but
	# where an event published late waited for the next round, as live
	# (the times in ns are doubles: 256 ns apart at today's dates).
	late=$(sed -nE 's/.*"ts":([0-9]+).*"dur_ns":([0-9]+).*/\1 \2/p' read.json |
		awk '{ e = $1 + $2; if (e + 512 < last) n++; last = e } END { print n + 0 }')
	[ "$late" -le "$(rounds blocks | wc -l)" ]
}

@test "-w with busy threads: a file cut in the middle of a round reads the round's blocks it has, each thread's calls in order" {
	[ "$(nproc)" -ge 2 ] || skip "one core: no core for a worker"
	busy_record t.ltr 4 50000
	"$PROGS/ltr-mutate" t.ltr blocks list-blocks
	# A round of several slots: cut after its second slot's first block.
	read -r start at < <(awk '$2 == 2 && $5 % 2 == 1 { if (!r) { r = $1; s = $4 }
		else if ($4 != s) { print r, $1 + 16 + int(($3 + 7) / 8) * 8; exit }
		if ($5 >= 2) r = ""; next }
		{ r = "" }' blocks)
	[ -n "$at" ]
	head -c "$start" t.ltr >before.ltr
	head -c "$at" t.ltr >cut.ltr
	run_split ltruss --read cut.ltr --json -o cut.json
	[ "$status" -eq 0 ]
	grep -Eqx "ltruss: warning: the trace file 'cut.ltr' was cut at byte $at \(the recording ltruss was killed, or the disk was full\): what it holds is shown" <<<"$err"
	ltruss --read before.ltr --json -o before.json 2>/dev/null
	# More calls than the rounds before it: the cut round's are read.
	[ "$(grep -c '"type":"call"' cut.json)" -gt "$(grep -c '"type":"call"' before.json)" ]
	# Each thread's calls are fix_add(0, t), fix_add(1, t)... with none left out.
	[ "$(sed -nE 's/.*"type":"call".*"args":\["([0-9]+)","([0-9]+)"\].*/\2 \1/p' cut.json |
		awk '{ if ($2 != next_i[$1] + 0) bad++; next_i[$1] = $2 + 1 } END { print bad + 0 }')" -eq 0 ]
}

@test "-w with busy threads: a round whose blocks are damaged stops --read with one error line, exit 2, before the round" {
	[ "$(nproc)" -ge 2 ] || skip "one core: no core for a worker"
	busy_record t.ltr 4 50000
	# A block of a round's second slot made a block of no slot, CRC right.
	"$PROGS/ltr-mutate" t.ltr slot.ltr round-slot
	run_split ltruss --read slot.ltr
	[ "$status" -eq 2 ]
	# What the rounds before it hold, none of that round's.
	"$PROGS/ltr-mutate" t.ltr blocks list-blocks
	at=$(sed -nE 's/.* at byte ([0-9]+);.*/\1/p' <<<"$err")
	start=$(awk -v at="$at" '$2 == 2 && $5 % 2 == 1 { if (!r) r = $1; if ($1 == at) { print r; exit }
		if ($5 >= 2) r = ""; next } { r = "" }' blocks)
	head -c "$start" t.ltr >before.ltr
	# (a call open where the file before it is cut says so at its end).
	[ "$out" = "$(ltruss --read before.ltr 2>/dev/null | grep -v ' <unfinished \.\.\.>$')" ]
	[[ "$err" =~ ^"ltruss: error: cannot read the trace file 'slot.ltr': an events block of no thread slot at byte "[0-9]+"; it is not a trace ltruss -w wrote, or it was damaged"$ ]]
	# A bit of a round's block flipped: its checksum fails.
	"$PROGS/ltr-mutate" t.ltr blocks list-blocks
	at=$(awk '$2 == 2 && $5 == 1 { print $1 + 40; exit }' blocks)
	cp t.ltr flipped.ltr
	printf '\x55' | dd of=flipped.ltr bs=1 seek="$at" conv=notrunc status=none
	not cmp -s t.ltr flipped.ltr
	run_split ltruss --read flipped.ltr
	[ "$status" -eq 2 ]
	[ -z "$out" ]
	[ "$err" = "ltruss: error: cannot read the trace file 'flipped.ltr': a block fails its checksum at byte $((at - 40)); it is not a trace ltruss -w wrote, or it was damaged" ]
}

# by_index: the calls of a busythreads trace, text or --json, a line
# each: the thread's index (fix_add's second argument), then the first,
# each thread's in their order.  From the entries (a call shown whole or
# unfinished, a JSON "call" or "enter"): a call that blocked for a while
# under load prints in two pieces, when the trace says "[pid N]" depends
# on when the threads started, the results follow from the arguments.
by_index() {
	sed -nE -e '/"type":"(call|enter)"/s/.*"args":\["([0-9]+)","([0-9]+)"\].*/\2\t\1/p' \
		-e 's/^(\[pid [0-9]+\] )?libfix:fix_add\(([0-9]+), ([0-9]+)\).*/\3\t\2/p' |
		sort -s -t "$(printf '\t')" -k1,1n
}

# late_ends FILE.json: calls of a --json trace that end before the call
# before them (the times in ns are doubles: 256 ns apart at today's dates).
late_ends() {
	sed -nE 's/.*"ts":([0-9]+).*"dur_ns":([0-9]+).*/\1 \2/p' "$1" |
		awk '{ e = $1 + $2; if (e + 512 < last) n++; last = e } END { print n + 0 }'
}

# rounds_apart ERR: the rounds of a live trace and those formatted apart
# by workers, from its LTRUSS_DEBUG_SEGMENTS line.
rounds_apart() {
	sed -nE 's/^ltruss: debug: [0-9]+ formatting workers, ([0-9]+) rounds apart of ([0-9]+),.*/\1 \2/p' <<<"$1"
}

@test "-o, --json, stderr and -C -o with busy threads, rounds apart forced (LTRUSS_DEBUG_APART): workers format each ring's lines, put in the merge's order; each thread's calls as recorded" {
	[ "$(nproc)" -ge 2 ] || skip "one core: no core for a worker"
	busy_record t.ltr 4 100000
	ltruss --read t.ltr --json >read.json
	ltruss --read t.ltr -o read.txt
	by_index <read.txt >read.idx
	[ "$(cut -f1 read.idx | uniq -c | awk '{ print $1 }' | sort -u)" = 100000 ]
	LTRUSS_DEBUG_APART=1 LTRUSS_DEBUG_SEGMENTS=1 run_split ltruss --json -o live.json -F ./fix.yaml "$PROGS/busythreads" 4 100000
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/busythreads" 4 100000)" ]
	# Workers formatted rings, in rounds apart.
	grep -Eq '^ltruss: debug: [1-9][0-9]* formatting workers, [1-9][0-9]* rounds apart of [0-9]+, [0-9]+ busy ones merged for their records, [0-9]+ probes found idle cores; [1-9][0-9]* rings formatted by workers, [0-9]+ by the reader.s thread; [1-9][0-9]* events apart,' <<<"$err"
	read -r apart all < <(rounds_apart "$err")
	# Each thread's calls as recorded, in their order.
	by_index <live.json | cmp - read.idx
	by_index <read.json | cmp - read.idx
	# In the merge's order: calls end in time but where an event
	# published late waited for the next round.
	[ "$(late_ends live.json)" -le "$all" ]
	# Text, to a file, to stderr, and with -C's summary after it.
	LTRUSS_DEBUG_APART=1 LTRUSS_DEBUG_SEGMENTS=1 run_split ltruss -o live.txt -F ./fix.yaml "$PROGS/busythreads" 4 100000
	[ "$status" -eq 0 ]
	read -r apart all < <(rounds_apart "$err")
	[ "$apart" -ge 1 ]
	by_index <live.txt | cmp - read.idx
	LTRUSS_DEBUG_APART=1 LTRUSS_DEBUG_SEGMENTS=1 run_split ltruss -F ./fix.yaml "$PROGS/busythreads" 4 100000
	[ "$status" -eq 0 ]
	read -r apart all < <(rounds_apart "$err")
	[ "$apart" -ge 1 ]
	grep -v '^ltruss: debug:' <<<"$err" | by_index | cmp - read.idx
	LTRUSS_DEBUG_APART=1 LTRUSS_DEBUG_SEGMENTS=1 run_split ltruss -C -o live.txt -F ./fix.yaml "$PROGS/busythreads" 4 100000
	[ "$status" -eq 0 ]
	read -r apart all < <(rounds_apart "$err")
	[ "$apart" -ge 1 ]
	by_index <live.txt | cmp - read.idx
	grep -Eq ' 400000 +(0 +)?libfix:fix_add$' live.txt
}

@test "busy threads whose every call prints a symbol's name (a function pointer): the workers' scan refuses each round, every round is merged and every call shown, none skipped" {
	[ "$(nproc)" -ge 2 ] || skip "one core: no core for a worker"
	# A function pointer is symbolized (caches of one thread): never apart.
	printf '%s\n' 'version: 1' 'trace: [{ lib: libfix, functions: [fix_add] }]' \
		'prototypes: ["int fix_add(int a, void (*f)(void))"]' >fptr.yaml
	LTRUSS_DEBUG_APART=1 LTRUSS_DEBUG_SEGMENTS=1 run_split ltruss -o live.txt -F ./fptr.yaml "$PROGS/busythreads" 4 50000
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/busythreads" 4 50000)" ]
	read -r apart all < <(rounds_apart "$err")
	[ "$apart" -eq 0 ]
	[ "$all" -ge 1 ]
	grep -Eq '^ltruss: debug: [0-9]+ formatting workers, 0 rounds apart of [0-9]+, [1-9][0-9]* busy ones merged for their records,' <<<"$err"
	! grep -v '^ltruss: debug:' <<<"$err" | grep .
	[ "$(grep -Ec '^(\[pid [0-9]+\] )?libfix:fix_add\([0-9]+, (NULL|0x[1-3])\) = [0-9]+$' live.txt)" -eq 200000 ]
}

# turns_both OUT OPTION...: trace turns (4 threads taking 200 turns of 100
# calls) with rounds apart forced and with every round merged, into
# OUT.apart and OUT.merged, pids and times masked, the debug lines in
# OUT.err; again (3 tries) while a call blocked for a while under load
# printed in two pieces in one of them (when is timing's).
turns_both() {
	local out=$1 try mode
	shift
	printf '%s\n' 'version: 1' 'trace: [{ lib: libfix, functions: [fix_add] }]' \
		'prototypes: ["int fix_add(int a, int b)"]' >fix.yaml
	for try in 1 2 3; do
		: >"$out.err"
		for mode in APART SERIAL; do
			env "LTRUSS_DEBUG_$mode=1" LTRUSS_DEBUG_SEGMENTS=1 \
				"$LTRUSS" "$@" -o "$out.raw" -F ./fix.yaml "$PROGS/turns" 4 200 100 >/dev/null 2>>"$out.err"
			sed -E 's/\[pid [0-9]+\]/[pid]/; s/"(pid|tid|ts|dur_ns)":[0-9]+/"\1":0/g' "$out.raw" \
				>"$out.$([ $mode = APART ] && echo apart || echo merged)"
		done
		cmp -s "$out.apart" "$out.merged" && return 0
		grep -q 'resumed>\|"type":"enter"' "$out.apart" "$out.merged" || return 0
	done
}

@test "turns of 4 threads, whose order is the program's: the lines formatted apart by workers are the merged ones byte for byte, text and --json" {
	[ "$(nproc)" -ge 2 ] || skip "one core: no core for a worker"
	for format in "" --json; do
		turns_both t $format
		# Rounds went apart, several rings each, the other run merged them all.
		sed -nE 's/^ltruss: debug: [0-9]+ formatting workers, ([0-9]+) rounds apart of [0-9]+, .* ([0-9]+) rings formatted by workers, ([0-9]+) by the reader.s thread;.*/\1 \2 \3/p' t.err >rounds
		[ "$(wc -l <rounds)" -eq 2 ]
		read -r apart by_workers by_reader <rounds
		[ "$apart" -ge 1 ]
		[ $((by_workers + by_reader)) -gt "$apart" ]
		[ "$(sed -n 2p rounds)" = "0 0 0" ]
		[ "$(grep -c 'fix_add' t.apart)" -eq 80000 ]
		cmp t.apart t.merged
	done
}

@test "LTRUSS_DEBUG_SERIAL: busy threads' lines merged on the reader's thread alone, as before; the same calls" {
	[ "$(nproc)" -ge 2 ] || skip "one core: no core for a worker"
	busy_record t.ltr 4 50000
	ltruss --read t.ltr -o read.txt
	LTRUSS_DEBUG_SERIAL=1 LTRUSS_DEBUG_APART=1 LTRUSS_DEBUG_SEGMENTS=1 run_split ltruss -o live.txt -F ./fix.yaml "$PROGS/busythreads" 4 50000
	[ "$status" -eq 0 ]
	read -r apart all < <(rounds_apart "$err")
	[ "$apart" -eq 0 ]
	[ "$all" -ge 1 ]
	grep -q '^ltruss: debug: 0 formatting workers, 0 rounds apart of ' <<<"$err"
	by_index <live.txt >live.idx
	by_index <read.txt | cmp - live.idx
}

# quota_cgroup US: a new cgroup whose CPU quota is US microseconds every
# 100 ms (v1's cpu hierarchy, or v2's), its directory in $cg; false where
# none can be made (not root, no cpu controller, a read-only cgroupfs).
quota_cgroup() {
	cg=
	if [ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
		cg=/sys/fs/cgroup/cpu/ltruss-test-$$
		mkdir "$cg" 2>/dev/null && echo 100000 >"$cg/cpu.cfs_period_us" &&
			echo "$1" >"$cg/cpu.cfs_quota_us"
	elif grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		cg=/sys/fs/cgroup/ltruss-test-$$
		mkdir "$cg" 2>/dev/null && echo "$1 100000" >"$cg/cpu.max"
	else
		return 1
	fi
}

# in_cgroup CMD...: run CMD (ltruss's timeout and stdin) inside $cg.
in_cgroup() {
	timeout -k 5 60 sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@" </dev/null
}

@test "a cgroup's CPU quota of one core on two: -w and -o start no worker (their CPU would come out of the program's quota), and every call is traced" {
	[ "$(nproc)" -ge 2 ] || skip "one core: no worker either way"
	quota_cgroup 100000 || skip "no cgroup with a CPU quota can be made here (not root, or no cpu controller)"
	busy_record t.ltr 4 50000
	# Outside the cgroup, -w used a worker for these busy threads.
	grep -Eq '^ltruss: debug: [1-9][0-9]* encoding workers, ' <<<"$err"
	LTRUSS_DEBUG_SEGMENTS=1 in_cgroup "$LTRUSS" -w q.ltr -F ./fix.yaml "$PROGS/busythreads" 4 50000 >out 2>err
	LTRUSS_DEBUG_APART=1 LTRUSS_DEBUG_SEGMENTS=1 in_cgroup "$LTRUSS" -o q.txt -F ./fix.yaml "$PROGS/busythreads" 4 50000 >out2 2>err2
	rmdir "$cg"
	grep -Eq '^ltruss: debug: 0 encoding workers, [1-9][0-9]* segments,' err
	grep -q '^ltruss: debug: 0 formatting workers, 0 rounds apart of ' err2
	cmp out out2 && [ "$(cat out)" = "$("$PROGS/busythreads" 4 50000)" ]
	ltruss --read q.ltr -o read.txt
	[ "$(grep -c 'fix_add' read.txt)" -eq 200000 ]
	by_index <read.txt >read.idx
	by_index <q.txt | cmp - read.idx
}

@test "--read -u matches a library by soname, file name and path, as live -u does" {
	record t.ltr -F "$TYPED_YAML" -u 'libc:printf' "$PROGS/typed"
	for lib in 'libc.so.6' 'libc.so*' 'libtyped.so' "$PROGS/libtyped.so" "$PROGS/lib*.so" "${PROGS%/*}/*/libtyped.so" 'libc' 'nolib.so.1'; do
		run_split ltruss --read t.ltr -u "$lib:printf,ty_str*"
		[ "$status" -eq 0 ]
		read=$(normalize <<<"$out")
		run_split ltruss -F "$TYPED_YAML" -u '!*:*' -u "$lib:printf,ty_str*" "$PROGS/typed"
		[ "$read" = "$(normalize <<<"$err")" ]
		case $lib in
		libc*) grep -q '^libc:printf(' <<<"$read" ;;
		nolib*) not grep -q '^lib' <<<"$read" ;;
		*) grep -q '^libtyped:ty_string(' <<<"$read" ;;
		esac
	done
}

@test "a file of an older format version: one error line naming both versions, exit 2" {
	record t.ltr -u 'libc:getpid' "$PROGS/procs" early-fork
	version=$(od -An -tu4 -j 8 -N 4 t.ltr | tr -d ' ')
	old=5 # versions 1 to 5 came before the promise that every later ltruss reads a file
	printf "\\x$(printf %02x "$old")" | dd of=t.ltr bs=1 seek=8 conv=notrunc status=none
	run ltruss --read t.ltr
	assert_failure 2
	assert_output "ltruss: error: cannot read the trace file 't.ltr': it is format version $old, this ltruss reads versions 6 to $version; read it with the ltruss that wrote it"
}

@test "--read --caller on a file gone since the recording: one warning that it cannot be read, not that it differs" {
	cp "$PROGS/procs" ./prog
	record t.ltr -u 'libc:getpid' ./prog early-fork
	rm ./prog
	run_split ltruss --read t.ltr --caller
	[ "$status" -eq 0 ]
	grep -qxF "ltruss: warning: '$PWD/prog' cannot be read: no names or stacks from it" <<<"$err" || { echo "$err"; false; }
	[ "$(grep -c 'warning' <<<"$err")" -eq 1 ] || { echo "$err"; false; }
	grep -Eq '^libc:getpid\(\) = [0-9]+ \[from prog\+0x[0-9a-f]+\]$' <<<"$out" || { echo "$out"; false; }
}

@test "--read --caller, -k on a program replaced by a file that is not ELF: one warning, the calls without names, no sanitizer report" {
	cp "$PROGS/procs" ./prog
	record t.ltr -k -u 'libc:getpid' ./prog early-fork
	# Past an ELF header's size, so that libelf takes it (as ELF_K_NONE).
	seq 1 100 >./prog
	# Under maint/check-asan, UBSan reported qsort(NULL, 0) here.
	run_split ltruss --read t.ltr --caller -k
	[ "$status" -eq 0 ]
	grep -qxF "ltruss: warning: '$PWD/prog' is not the file that ran (its build ID differs): names and stacks from it may be wrong" <<<"$err" || { echo "$err"; false; }
	[ "$(grep -c 'warning' <<<"$err")" -eq 1 ] || { echo "$err"; false; }
	grep -Eq '^libc:getpid\(\) = [0-9]+ \[from prog\+0x[0-9a-f]+\]$' <<<"$out" || { echo "$out"; false; }
	! grep -q 'runtime error' <<<"$err"
}

@test "a program replaced during a -f recording: the file holds each process's build ID, --read warns once" {
	cp "$PROGS/procs" ./prog
	record t.ltr -f -u 'libc:getpid' sh -c "./prog early-fork; cp '$PROGS/execs' ./prog; ./prog"
	hex=$(od -An -tx1 -v t.ltr | tr -d ' \n')
	for p in procs execs; do
		id=$(readelf -n "$PROGS/$p" | awk '/Build ID:/ { print $3 }')
		[ -n "$id" ]
		grep -q "$id" <<<"$hex" || { echo "no build ID of $p"; false; }
	done
	run_split ltruss --read t.ltr --caller
	[ "$status" -eq 0 ]
	grep -qxF "ltruss: warning: '$PWD/prog' is not the file that ran (its build ID differs): names and stacks from it may be wrong" <<<"$err" || { echo "$err"; false; }
	[ "$(grep -c 'warning' <<<"$err")" -eq 1 ] || { echo "$err"; false; }
}

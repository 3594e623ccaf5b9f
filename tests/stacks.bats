#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# stacks.bats: -k / --stack[=N], the program's frames under each call, unwound from a copy with DWARF call-frame information.

load helpers

# return_offsets PROG FUNC: the offsets from FUNC's start of the
# instructions that follow its calls (the return addresses its frames
# can show), as objdump disassembles PROG: "0x9 0x1b ...".
return_offsets() {
	local start addr insn after=''

	start=$(nm "$1" | awk -v f="$2" '$3 == f { print $1 }')
	objdump -d --no-show-raw-insn "$1" |
		awk -v f="<$2>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' |
		while read -r addr insn; do
			addr=${addr%:}
			if [ -n "$after" ]; then
				printf '0x%x\n' $((16#$addr - 16#$start))
			fi
			after=''
			case $insn in
			call*) after=1 ;;
			esac
		done
}

# frames: the " > " lines of the trace in $err, as "func (object basename)".
frames() {
	printf '%s\n' "$err" | sed -nE 's/^ *> ([^ ].*)\+0x[0-9a-f]+ \((.*\/)?([^/]*)\)$/\1 (\3)/p'
}

@test "a chain of static functions built without frame pointers shows every frame by name, innermost first, ending at main" {
	run_split ltruss -k -u libc:puts "$PROGS/stacks-chain"
	[ "$status" -eq 0 ]
	[ "$out" = chain ]
	[ "$(frames)" = "$(printf '%s\n' 'leaf (stacks-chain)' 'middle (stacks-chain)' 'top (stacks-chain)' 'main (stacks-chain)')" ]
	# Each offset is a return address: the instruction after a call.
	for f in leaf middle top main; do
		off=$(printf '%s\n' "$err" | sed -nE "s/^ > $f\+(0x[0-9a-f]+) .*/\1/p")
		return_offsets "$PROGS/stacks-chain" "$f" | grep -qx "$off"
	done
	# The line right after the call line is its innermost frame.
	printf '%s\n' "$err" | grep -A1 -x 'libc:puts("chain") = 6' | tail -1 | grep -q '^ > leaf+0x'
	not grep -q '\.\.\.' <<<"$err"
}

@test "--stack=N shows at most N frames" {
	run_split ltruss --stack=2 -u libc:puts "$PROGS/stacks-chain"
	[ "$status" -eq 0 ]
	[ "$(frames)" = "$(printf '%s\n' 'leaf (stacks-chain)' 'middle (stacks-chain)')" ]
}

@test "a qsort comparator calling a traced function shows the comparator, libc's sorting frames and main" {
	run_split ltruss -k -u libc:strcmp "$PROGS/stacks-sort"
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/stacks-sort")" ]
	# The first call's stack: by_name, then libc (qsort_r among them), then main.
	stack=$(printf '%s\n' "$err" | sed -n '2,/^libc:/p' | grep '^ > ' )
	[ "$(sed -n 1p <<<"$stack" | sed -E 's/\+.*//')" = " > by_name" ]
	[ "$(sed -n '$p' <<<"$stack" | sed -E 's/\+.*//')" = " > main" ]
	sed '1d;$d' <<<"$stack" | grep -q 'libc\.so\.6)$'
	sed '1d;$d' <<<"$stack" | grep -q '^ > qsort_r+0x'
	# Every frame between is libc's.
	not grep -v 'libc\.so\.6)$' <<<"$(sed '1d;$d' <<<"$stack")"
}

# repeat_frames: each isatty call of stacks-repeat in $err as "WAY FRAMES...", counted.
repeat_frames() {
	printf '%s\n' "$err" | awk '
		/^libc:isatty\(/ { if (l != "") print l; l = substr($0, 13, 3); next }
		/^ > / { f = $2; sub(/\+0x.*/, "", f); l = l " " f }
		/^ > \.\.\./ { l = l " (cut)" }
		END { if (l != "") print l }' | sort | uniq -c | sed 's/^ *//'
}

@test "a stack seen before is not taken for another: the same call site and stack pointer under another caller, the same return addresses one frame deeper" {
	run_split ltruss -k -u libc:isatty "$PROGS/stacks-repeat" 50
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/stacks-repeat" 50)" ]
	[ "$(repeat_frames)" = "$(printf '%s\n' '50 101 leaf via_a main' '50 102 leaf via_b main' \
		'50 103 leaf via_a deeper main' '50 104 leaf main' '50 105 leaf down down down down way_down main')" ]
}

@test "a stack the same as the call's before is shown again, one that is not under the same return address is not: runs of each way, the same frames as without kept walks (LTRUSS_NO_STACK_CACHE)" {
	run_split ltruss -k -u libc:isatty -o kept.txt "$PROGS/stacks-repeat" 20 7
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/stacks-repeat" 20 7)" ]
	err=$(cat kept.txt)
	[ "$(repeat_frames)" = "$(printf '%s\n' '140 101 leaf via_a main' '140 102 leaf via_b main' \
		'140 103 leaf via_a deeper main' '140 104 leaf main' '140 105 leaf down down down down way_down main')" ]
	LTRUSS_NO_STACK_CACHE=1 run_split ltruss -k -u libc:isatty -o fresh.txt "$PROGS/stacks-repeat" 20 7
	[ "$status" -eq 0 ]
	cmp kept.txt fresh.txt
}

@test "an object closed and another loaded at its addresses, its frame at the same return address of another size: every call's frames as without kept hints (LTRUSS_NO_STACK_CACHE)" {
	local libs=("$PROGS/libstacks-laya.so" "$PROGS/libstacks-layb.so" "$PROGS/libstacks-laya.so")

	run_split ltruss -k -u libc:isatty -o kept.txt "$PROGS/stacks-relayout" 3000 "${libs[@]}"
	[ "$status" -eq 0 ]
	# Each took the addresses of the one before: the case tested.
	[ "$(printf '%s\n' "$out" | cut -d' ' -f2 | sort -u | wc -l)" -eq 1 ]
	[ "$(grep -c '^ > main+' kept.txt)" -eq 9000 ]
	LTRUSS_NO_STACK_CACHE=1 run_split ltruss -k -u libc:isatty -o fresh.txt "$PROGS/stacks-relayout" 3000 "${libs[@]}"
	[ "$status" -eq 0 ]
	cmp kept.txt fresh.txt
}

@test "a library opened by a relative path (dlopen(\"./lib.so\")): -k names its frames, from the working directory it was opened in" {
	# The loader keeps such a name as given: the interposer recorded no
	# file for it, and its frames were "0x... (?)", their callers lost.
	(cd "$PROGS" && timeout -k 5 60 "$LTRUSS" -k -u libc:isatty -o "$BATS_TEST_TMPDIR/rel.txt" \
		./stacks-relayout 10 ./libstacks-laya.so ./libstacks-layb.so) </dev/null >/dev/null
	[ "$(grep -c '^ > through+0x[0-9a-f]* (.*/libstacks-laya\.so)$' rel.txt)" -eq 10 ]
	[ "$(grep -c '^ > through+0x[0-9a-f]* (.*/libstacks-layb\.so)$' rel.txt)" -eq 10 ]
	[ "$(grep -c '^ > main+0x[0-9a-f]* (.*/stacks-relayout)$' rel.txt)" -eq 20 ]
	not grep -q '(?)' rel.txt
}

# walks_frames N: each isatty call of stacks-walks in $err as "WAY FRAME...",
# its first N frames outside libc, counted.
walks_frames() {
	printf '%s\n' "$err" | awk -v max="$1" '
		/libc:isatty\(/ { if (l != "") print l; s = $0; sub(/.*isatty\(/, "", s); l = substr(s, 1, 3); n = 0; on = 1; next }
		/libc:/ { on = 0 }
		on && /^ *> / && !/libc\.so\.6\)$/ && ++n <= max { f = $2; sub(/\+0x.*/, "", f); l = l " " f }
		END { if (l != "") print l }' | sort | uniq -c | sed 's/^ *//'
}

@test "thousands of stacks, each seen twice, more than -k keeps the walks and names of at a time: each call shows its own frames" {
	run_split ltruss -k -u libc:isatty "$PROGS/stacks-walks" 5000 2
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/stacks-walks" 5000 2)" ]
	[ "$(walks_frames 3)" = "$(printf '%s\n' '3334 100 tip to_tip via_a' '3334 101 tip to_tip via_b' '3332 102 tip to_tip via_c')" ]
}

@test "a stack through a traced call in progress (lfind's, whose return slot holds the trampoline), thousands of times: every call shows the real frames" {
	run_split ltruss -k -u libc:isatty -u libc:lfind "$PROGS/stacks-walks" 30 100 found
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/stacks-walks" 30 100 found)" ]
	[ "$(walks_frames 5)" = "$(printf '%s\n' '1000 100 tip by_way to_tip via_a rec_0' \
		'1000 101 tip by_way to_tip via_b rec_0' '1000 102 tip by_way to_tip via_c rec_0')" ]
}

@test "-k's sparse copies and kept walks give the frames of whole copies walked afresh: sort(1)'s strcoll calls with them and without them (LTRUSS_NO_STACK_CACHE)" {
	"$SRCDIR/bench/gen-lines.sh" 3000 >lines.txt
	export LC_ALL=C.UTF-8
	# The same environment's size, so that the stacks lie at the same places.
	LTRUSS_NO_STACK_CACHX=1 run_split ltruss -k -u libc:strcoll -o kept.txt sort lines.txt
	[ "$status" -eq 0 ]
	[ "$out" = "$(sort lines.txt)" ]
	LTRUSS_NO_STACK_CACHE=1 run_split ltruss -k -u libc:strcoll -o fresh.txt sort lines.txt
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ > sort+' kept.txt)" -gt 100000 ]
	cmp kept.txt fresh.txt
}

@test "a stack deeper than -k N shows its N frames on every call: the copy goes as far as the walk reads" {
	# Frames of 1.4 KiB: the copy's first 512 bytes hold the first only.
	for n in 1 2 3 5; do
		run_split ltruss --stack=$n -u libc:isatty "$PROGS/stacks-repeat" 20
		[ "$status" -eq 0 ]
		[ "$(repeat_frames | grep '^20 105 ')" = "20 105 $(printf '%s\n' leaf down down down down |
			head -n $n | tr '\n' ' ' | sed 's/ $//')" ]
	done
}

@test "C++ frames are demangled, and raw with --no-demangle" {
	run_split ltruss -k -u libc:strlen "$PROGS/stacks-shapes"
	[ "$status" -eq 0 ]
	[ "$out" = 16 ]
	[ "$(frames)" = "$(printf '%s\n' 'shapes::Box::measure(char const*) const (stacks-shapes)' \
		'unsigned long shapes::twice<shapes::Box>(shapes::Box const&, char const*) (stacks-shapes)' \
		'main (stacks-shapes)')" ]
	run_split ltruss -k --no-demangle -u libc:strlen "$PROGS/stacks-shapes"
	[ "$(frames | head -1)" = "_ZNK6shapes3Box7measureEPKc (stacks-shapes)" ]
}

@test "a thread's stack ends at its start routine" {
	run_split ltruss -k -u libc:puts "$PROGS/stacks-thread"
	[ "$status" -eq 0 ]
	[ "$out" = "from the thread" ]
	[ "$(frames)" = "$(printf '%s\n' 'report (stacks-thread)' 'worker (stacks-thread)')" ]
	not grep -q '\.\.\.' <<<"$err"
}

@test "a signal handler's stack goes through the signal frame into the interrupted code, down to main" {
	run_split ltruss -k -u libc:strlen "$PROGS/stacks-signal"
	[ "$status" -eq 0 ]
	[ "$out" = 7 ]
	f=$(frames)
	[ "$(head -1 <<<"$f")" = "on_usr1 (stacks-signal)" ]
	[ "$(tail -2 <<<"$f")" = "$(printf '%s\n' 'interrupted (stacks-signal)' 'main (stacks-signal)')" ]
	grep -qx 'raise (libc.so.6)' <<<"$f"
	not grep -q '\.\.\.' <<<"$err"
}

@test "a stack through a function without unwind information stops there with a marker" {
	run_split ltruss -k -u libc:puts "$PROGS/stacks-nocfi"
	[ "$status" -eq 0 ]
	[ "$out" = "no unwind tables" ]
	[ "$(printf '%s\n' "$err" | grep '^ > ')" = "$(printf '%s\n' \
		"$(printf '%s\n' "$err" | grep -m1 '^ > nocfi_call+0x[0-9a-f]* (.*/libnocfi.so)$')" \
		' > ... (no unwind information past here)')" ]
}

@test "a call on a stack the program switched to (as Go's asmcgocall does): the frames up to the switch, then a clean end, no garbage frame" {
	for mode in "" deep expr; do
		run_split ltruss -k -u libc:getppid "$PROGS/stacks-switch" $mode
		[ "$status" -eq 0 ]
		[ "$out" = "$("$PROGS/stacks-switch" $mode)" ]
		# The call on the new stack: its frames up to the switch, then the end.
		stack=$(printf '%s\n' "$err" | awk '/^libc:getppid/ { n++ } n == 1 && /^ > /' |
			sed -E 's/\+0x[0-9a-f]+ \(.*\/stacks-switch\)$//')
		want=' > on_new_stack'
		[ "$mode" = deep ] && want=" > nested
 > nested
 > nested
 > nested
$want"
		run_on=run_on
		[ "$mode" = expr ] && run_on=run_on_expr
		[ "$stack" = "$want
 > $run_on
 > ... (no reliable frame past here: a stack switch?)" ] || { echo "$err"; false; }
		not grep -q '^ > 0x' <<<"$err"
	done
	run_split ltruss -k --json -u libc:getppid "$PROGS/stacks-switch"
	line=$(printf '%s\n' "$err" | grep -m1 '"func":"getppid"')
	/usr/bin/python3 -c '
import json, sys
ev = json.loads(sys.argv[1])
assert [f["func"] for f in ev["stack"]] == ["on_new_stack", "run_on"], ev
assert ev["stack_end"] == "no reliable frame past here: a stack switch?", ev
' "$line"
}

@test "-f: a forked child's calls show the child's stack" {
	run_split ltruss -f -k -u libc:puts "$PROGS/stacks-forks"
	[ "$status" -eq 0 ]
	[ "$out" = child ]
	printf '%s\n' "$err" | grep -A2 'libc:puts("child") = 6' | sed -n 2p | grep -q '> in_child[.a-z0-9]*+0x'
	printf '%s\n' "$err" | grep -A2 'libc:puts("child") = 6' | sed -n 3p | grep -q '> main+0x'
}

@test "threads: stack lines carry the thread's [pid N] prefix, indented under a nested call" {
	run_split ltruss -k -u 'libc:pthread_create,puts' "$PROGS/stacks-thread"
	[ "$status" -eq 0 ]
	tid=$(printf '%s\n' "$err" | sed -nE 's/^\[pid ([0-9]+)\] libc:puts.*/\1/p')
	[ -n "$tid" ]
	printf '%s\n' "$err" | grep -qx "\[pid $tid\]  > worker+0x[0-9a-f]* (.*/stacks-thread)"
	# main's call of pthread_create has its own stack: main.
	printf '%s\n' "$err" | grep -q '^\(\[pid [0-9]*\] \)\? > main+0x'
}

@test "--json: a stack array of {func, off, object, file, line}, innermost first" {
	run_split ltruss -k --json -u libc:puts "$PROGS/stacks-chain"
	[ "$status" -eq 0 ]
	line=$(printf '%s\n' "$err" | grep '"func":"puts"')
	/usr/bin/python3 -c '
import json, sys
ev = json.loads(sys.argv[1])
assert [f["func"] for f in ev["stack"]] == ["leaf", "middle", "top", "main"], ev
assert all(f["object"].endswith("/stacks-chain") and f["off"] > 0 for f in ev["stack"]), ev
assert "stack_end" not in ev, ev
# The fixture has debug information: the call in each frame, by file and line.
src = open(sys.argv[2]).read().split("\n")
calls = {"leaf": "int r = puts(s);", "middle": "int r = leaf(s);", "top": "int r = middle(s);"}
for f in ev["stack"][:3]:
    assert f["file"].endswith("tests/progs/stacks/chain.c"), f
    assert src[f["line"] - 1].strip() == calls[f["func"]], (f, src[f["line"] - 1])
' "$line" "$SRCDIR/tests/progs/stacks/chain.c"
	run_split ltruss -k --json -u libc:puts "$PROGS/stacks-nocfi"
	line=$(printf '%s\n' "$err" | grep '"func":"puts"')
	/usr/bin/python3 -c '
import json, sys
ev = json.loads(sys.argv[1])
assert [f["func"] for f in ev["stack"]] == ["nocfi_call"], ev
assert ev["stack_end"] == "no unwind information past here", ev
' "$line"
}

@test "real programs run unchanged under -k, and their calls get stacks" {
	command -v sqlite3 xmllint jq >/dev/null
	printf '<a><b>x</b></a>\n' >doc.xml
	printf '{"a": [1, 2]}\n' >doc.json
	for cmd in "ls -la /usr" "sqlite3 :memory: select\ 1+1;" "xmllint --format doc.xml" "jq .a doc.json"; do
		eval "set -- $cmd"
		expected=$("$@" 2>/dev/null)
		run_split ltruss -k -o trace.txt "$@"
		[ "$status" -eq 0 ]
		[ "$out" = "$expected" ]
		grep -q '^ *> ' trace.txt
		not grep -q 'unreadable frame' trace.txt
	done
}

@test "a bad --stack=N is an error: exit 2, one line" {
	for n in 0 257 abc -3 ""; do
		run ltruss "--stack=$n" true
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[ "${lines[0]}" = "ltruss: error: --stack needs a number of frames from 1 to 256, such as --stack=32, not '$n'; see 'ltruss --help'" ]
	done
}

@test "the interposer links no library (not even libc), ltruss opens libdw when -k needs it" {
	[ -z "$(readelf -d "$LTRUSS_TOP_BUILDDIR/lib/libltruss.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')" ]
	run readelf -d "$LTRUSS"
	assert_success
	refute_output --partial '[libdw.so'
}

@test "--folded with -k: paths start with the program's frames, main;top;middle;leaf;libc:puts" {
	run_split ltruss -k -c --folded folded.txt -u libc:puts "$PROGS/stacks-chain"
	[ "$status" -eq 0 ]
	[ "$(sed -E 's/ [0-9]+$//' folded.txt)" = "main;top;middle;leaf;libc:puts" ]
	# Without -k, the traced calls only.
	run_split ltruss -c --folded folded.txt -u libc:puts "$PROGS/stacks-chain"
	[ "$(sed -E 's/ [0-9]+$//' folded.txt)" = "libc:puts" ]
}

@test "--tree with -k: the program's frames above the first traced call, indented" {
	run_split ltruss -k -c --tree -u 'libc:puts,strcmp' "$PROGS/stacks-sort"
	[ "$status" -eq 0 ]
	tree=$(printf '%s\n' "$err" | sed -n '/call tree$/,$p' | sed -E 's/^ *[0-9]+ +[0-9.]+ +[0-9.]+  //')
	# main holds every call; puts is called from main itself.
	[ "$(sed -n 2p <<<"$tree")" = "main" ]
	[ "$(printf '%s\n' "$err" | sed -n '/call tree$/,$p' | sed -n 2p | awk '{ print $1 }')" = 9 ]
	grep -qx '  libc:puts' <<<"$tree"
	grep -qx '  qsort_r' <<<"$tree"
	grep -qx ' *by_name' <<<"$tree"
	grep -qx ' *libc:strcmp' <<<"$tree"
}

@test "--chrome with -k: each call's event names its program frames in stackFrames" {
	run_split ltruss -k -c --chrome trace.json -u libc:puts "$PROGS/stacks-chain"
	[ "$status" -eq 0 ]
	/usr/bin/python3 -c '
import json
d = json.load(open("trace.json"))
ev = [e for e in d["traceEvents"] if e.get("ph") == "X"]
assert len(ev) == 1 and "sf" in ev[0], ev
names, f = [], ev[0]["sf"]
while f:
    names.append(d["stackFrames"][f]["name"])
    f = d["stackFrames"][f].get("parent")
assert names == ["leaf", "middle", "top", "main"], names
'
}

@test "-c -k: the summary is followed by the call sites of the busiest functions" {
	run_split ltruss -c -k -u 'libc:puts,strcmp' "$PROGS/stacks-sort"
	[ "$status" -eq 0 ]
	sites=$(printf '%s\n' "$err" | sed -n '/^call sites (-k)/,$p')
	[ "$(printf '%s\n' "$sites" | grep -A2 -x 'libc:puts' | tail -1 | awk '{ print $1, $3 }')" = "4 main" ]
	# strcmp's sites: every one from by_name through qsort_r, their calls summing to the summary's.
	calls=$(printf '%s\n' "$err" | awk 'NF > 5 && $NF == "libc:strcmp" { print $(NF - 2) }')
	[ "$(printf '%s\n' "$sites" | sed -n '/^libc:strcmp$/,/^[a-z]/p' | awk '$3 == "by_name" { n += $1 } END { print n }')" = "$calls" ]
	printf '%s\n' "$sites" | sed -n '/^libc:strcmp$/,$p' | grep -q 'by_name < .* < qsort_r < main$'
	# Without -k, no call sites.
	run_split ltruss -c -u 'libc:puts,strcmp' "$PROGS/stacks-sort"
	not grep -q '^call sites' <<<"$err"
}

@test "-f -k: forty programs, more than the unwinders kept at a time, each call with its own program's stack" {
	run_split ltruss -f -k -o trace.txt -u 'libc:opendir' sh -c 'for i in $(seq 40); do ls / >/dev/null; done'
	[ "$status" -eq 0 ]
	[ "$(grep -c 'libc:opendir("/")' trace.txt)" -eq 40 ]
	[ "$(grep -A1 'libc:opendir("/")' trace.txt | grep -c '^\[pid [0-9]*\]  > [^ ]*+0x[0-9a-f]* (/usr/bin/ls)$')" -eq 40 ]
}

@test "-w records the stacks, --read -k unwinds them later: the lines of the live trace, also --json and --folded" {
	ltruss -k -u 'libc:strcmp,puts' "$PROGS/stacks-sort" >/dev/null 2>live.txt
	ltruss -k --json -u 'libc:strcmp,puts' "$PROGS/stacks-sort" >/dev/null 2>live.json
	ltruss -k -c --folded live.folded -u 'libc:strcmp,puts' "$PROGS/stacks-sort" >/dev/null 2>/dev/null
	run_split ltruss -k -w trace.ltr -u 'libc:strcmp,puts' "$PROGS/stacks-sort"
	[ "$status" -eq 0 ]
	grep -q '^ > by_name+0x[0-9a-f]* (' live.txt
	run_split ltruss --read trace.ltr -k
	[ "$status" -eq 0 ]
	[ "$out" = "$(cat live.txt)" ]
	ltruss --read trace.ltr -k --json >read.json
	# The same run, live and read back: only the clock's readings differ.
	[ "$(jq -c 'del(.ts, .dur_ns, .pid, .tid)' read.json)" = "$(jq -c 'del(.ts, .dur_ns, .pid, .tid)' live.json)" ]
	jq -s -e 'map(select(.func == "strcmp")) | length > 0 and all(.stack[0].func == "by_name")' read.json >/dev/null
	ltruss --read trace.ltr -k -c --folded read.folded >/dev/null
	# The paths; their weights are times, which differ between runs.
	[ "$(sed 's/ [0-9]*$//' read.folded)" = "$(sed 's/ [0-9]*$//' live.folded)" ]
	# Without -k, the stacks recorded are not shown.
	run_split ltruss --read trace.ltr
	not grep -q '^ > ' <<<"$out"
}

@test "--console attaches to a -k run: stats counts the calls, every call line keeps its stack" {
	console_stats_of_die -k -o trace.txt
	[ "$(grep -c '^libfix:fix_add(' trace.txt)" -eq 100 ]
	# Each call is followed by its stack, down to main.
	[ "$(grep -A1 '^libfix:fix_add(' trace.txt | grep -c '^ > ')" -eq 100 ]
	[ "$(grep -c '^ > main+0x' trace.txt)" -eq 100 ]
}

@test "-k -o FILE: writing a call's frames into the file makes no system call per frame" {
	# LeakSanitizer (maint/check-asan) cannot run under ptrace.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run strace -f -qq -e trace=getpid -o st.log "$LTRUSS" -k -o trace \
		-u 'libfix:fix_add' "$PROGS/die" 300 kill
	[ "$(grep -c '^libfix:fix_add(' trace)" -eq 300 ]
	[ "$(grep -c '^ > ' trace)" -eq 300 ]
	# Per process: a few at start-up, none for each of the 300 frames.
	most=$(awk '{ print $1 }' st.log | sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }')
	[ "${most:-0}" -le 50 ] || { echo "$most getpid calls"; false; }
}

@test "a frame in generated code is named from the process's perf map (/tmp/perf-PID.map), not as an address" {
	run_split ltruss -k -u libc:puts "$PROGS/stacks-jit"
	map=$(sed -n 2p <<<"$out")
	rm -f "$map"
	[ "$status" -eq 0 ]
	[ "$(sed -n 1p <<<"$out")" = jit ]
	[[ $map == /tmp/perf-[0-9]*.map ]]
	printf '%s\n' "$err" | grep -A1 -x 'libc:puts("jit") = 4' | tail -1 | grep -qx " > jitted_hello+0x17 ($map)"
	# Without a map, the address as before.
	run_split ltruss -k -u libc:puts "$PROGS/stacks-jit" nomap
	[ "$status" -eq 0 ]
	printf '%s\n' "$err" | grep -A1 -x 'libc:puts("jit") = 4' | tail -1 | grep -Eqx ' > 0x[0-9a-f]+ \(\?\)'
}

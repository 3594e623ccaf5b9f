#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# startup.bats: a short run costs only what it uses: no writer thread, no libdw, libelf, readline,
# Zydis, no copy of the shipped prototypes, no wakes of ltruss while the program pauses.

load helpers

# The traced command is ltruss's own child: /proc/$PPID is ltruss.

@test "a run without -k, the console, '::' or a YAML file to parse has neither libyaml, libdw, libelf, readline nor Zydis loaded" {
	# The default config comes compiled in (bin/config/config-default.c).
	run_split ltruss -c sh -c 'cat /proc/$PPID/maps'
	[ "$status" -eq 0 ]
	# ltruss itself is there, with the libraries it uses at every start.
	[[ "$out" == *"/ltruss"* ]]
	[[ "$out" == *"/libc.so"* ]]
	[[ "$out" != *"libyaml"* ]]
	[[ "$out" != *"libdw"* ]]
	[[ "$out" != *"libelf"* ]]
	[[ "$out" != *"libreadline"* ]]
	[[ "$out" != *"liblzma"* ]]
	[[ "$out" != *"libZydis"* ]]
}

@test "libyaml is loaded when a filter is read, and a filter's YAML error still names file:line:column" {
	run_split ltruss -F malloc -c sh -c 'cat /proc/$PPID/maps'
	[ "$status" -eq 0 ]
	[[ "$out" == *"/libyaml"* ]]
	grep -Eq ' libc:malloc$' <<<"$err"
	printf 'trace:\n  - lib: libc\n    functions: [malloc\n' > bad.yaml
	run_split ltruss -F ./bad.yaml true
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: ./bad.yaml:4:1: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at 3:16); fix the YAML"
}

@test "the interposer needs no libc: a traced process loads and maps one libc, not a second for the audit namespace" {
	# The interposer's own dynamic section needs no library.
	run readelf -d "$LTRUSS_TOP_BUILDDIR/lib/libltruss.so"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(SONAME)"* ]]
	[[ "$output" != *"(NEEDED)"* ]]
	# One libc mapped from its start (offset 0) in the traced shell.
	run_split ltruss -c sh -c 'cat /proc/$$/maps'
	[ "$status" -eq 0 ]
	[[ "$out" == *"/libltruss.so"* ]]
	[ "$(printf '%s\n' "$out" | awk '$6 ~ /\/libc\.so\.6$/ && $3 == "00000000"' | wc -l)" -eq 1 ]
	# The loader loads libc once: for the program (namespace [0]), never for namespace [1].
	LD_DEBUG=files "$LTRUSS" -c /bin/true 2>ld.txt
	grep -q 'file=libc\.so\.6 \[0\];  needed by /bin/true' ld.txt
	not grep -q 'file=libc\.so\.6 \[1\]' ld.txt
}

@test "the interposer adds under 160 000 instructions to a traced true (475 000 with a second libc, each symbol looked up one by one, the dynamic section read at each lookup)" {
	command -v valgrind >/dev/null || fail "valgrind is needed (apt-get install valgrind)"
	skip_under_asan
	run_split valgrind --tool=callgrind --callgrind-out-file=native.cg /bin/true
	[ "$status" -eq 0 ]
	native=$(awk '/^summary:/ { print $2 }' native.cg)
	# ltruss and the command each write their own file; the command's says "cmd: /bin/true".
	run_split valgrind --tool=callgrind --trace-children=yes --run-libc-freeres=no \
		--callgrind-out-file="$BATS_TEST_TMPDIR/cg.%p" "$LTRUSS" -c /bin/true
	[ "$status" -eq 0 ]
	traced=$(awk '/^cmd: +\/bin\/true$/ { f = 1 } f && /^summary:/ { print $2; exit }' "$BATS_TEST_TMPDIR"/cg.*)
	[ -n "$native" ]
	[ -n "$traced" ]
	[ $((traced - native)) -lt 160000 ] || { echo "$native native, $traced traced"; false; }
}

@test "-c -o FILE: no writer thread for a short run, the summary still written" {
	run_split ltruss -c -o trace.txt -u libc:getpid sh -c 'ls /proc/$PPID/task | wc -l'
	[ "$status" -eq 0 ]
	[ "$out" = 1 ]
	grep -Eq ' total$' trace.txt
}

@test "-w FILE: no writer thread before the first block, the recording reads back" {
	run_split ltruss -w rec.ltr -u libc:getpid sh -c 'ls /proc/$PPID/task | wc -l'
	[ "$status" -eq 0 ]
	[ "$out" = 1 ]
	run_split ltruss --read rec.ltr
	[ "$status" -eq 0 ]
	[[ "$out" == *"+++ exited (status 0) +++"* ]]
}

@test "-o FILE: a trace of many blocks is written whole, in order, by the writer thread" {
	run_split ltruss -o trace.txt -u libfix:fix_add "$PROGS/fix-lazy" 60000
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/fix-lazy" 60000)" ]
	# About 2 MiB: the thread started at the first block of 512 KiB.
	[ "$(grep -c '^libfix:fix_add(0x2, 0x3, 0) = 0x5$' trace.txt)" -eq 60000 ]
	[ "$(sed -n '$p' trace.txt)" = "+++ exited (status 0) +++" ]
}

@test "-o FILE: lines flushed while the program pauses, without a writer thread" {
	# -f: the fixture is the shell's child.  $PPID is ltruss.
	run_split ltruss -f -o trace.txt -u libfix:fix_add sh -c \
		'"$1" 3 1000 slow.out; sleep 0.05; grep -c fix_add trace.txt; ls /proc/$PPID/task | wc -l' \
		sh "$PROGS/slow"
	[ "$status" -eq 0 ]
	[ "$out" = "3
1" ]
	[ "$(grep -c '^libfix:fix_add(' trace.txt)" -eq 3 ]
}

@test "-o FILE: a call every millisecond wakes ltruss about once a call, not at every pace" {
	# 40 calls 1 ms apart: 320 to 620 wakes (5 runs) when ltruss slept a
	# pace (65 us) at a time for 64 idle rounds after each call, 150 to 190
	# with sleeps doubling.
	run_split ltruss -f -o trace.txt -u libfix:fix_add sh -c \
		'"$1" 40 1000 slow.out; grep "^voluntary_ctxt_switches:" /proc/$PPID/status' \
		sh "$PROGS/slow"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^libfix:fix_add(' trace.txt)" -eq 40 ]
	[ "$(awk '{ print $2 }' <<<"$out")" -lt 260 ]
}

# The 512-byte blocks of ltruss's session in use (its memfd's st_blocks),
# as a shell traced by ltruss sees them through ltruss's descriptors.
SESSION_BLOCKS='for f in /proc/$PPID/fd/*; do case $(readlink "$f") in *ltruss-session*) stat -L -c %b "$f";; esac; done'

@test "the session holds no copy of the shipped prototypes: a short run uses under 128 KiB of it" {
	run_split ltruss -u libc:getpid sh -c "$SESSION_BLOCKS"
	[ "$status" -eq 0 ]
	# The copy of the compiled captures, their index and names was 440 KiB.
	[ -n "$out" ]
	[ "$out" -lt 256 ]
}

@test "a short run's session: under 84 blocks (88 when the thread slots' states straddled two pages, ltruss marking the last and the process taking the first)" {
	run_split ltruss -u libc:getpid sh -c "$SESSION_BLOCKS"
	[ "$status" -eq 0 ]
	[ -n "$out" ]
	[ "$out" -lt 84 ] || { echo "$out blocks"; false; }
}

@test "shipped prototypes, mapped from the table, type the calls of the command and of a program it execs (-f)" {
	run_split ltruss -f -u 'libc:open' sh -c 'cat /etc/hostname; exec cat /etc/hostname'
	[ "$status" -eq 0 ]
	[ "$out" = "$(cat /etc/hostname; cat /etc/hostname)" ]
	[ "$(grep -Ec '^(\[pid [0-9]+\] )?libc:open\("/etc/hostname", O_RDONLY\) = [0-9]+$' <<<"$err")" -eq 2 ]
}

@test "the command does not inherit the table of prototypes: its descriptors are its own" {
	run_split ltruss -u libc:getpid sh -c 'ls /proc/$$/fd'
	[ "$status" -eq 0 ]
	[ "$out" = "$(sh -c 'ls /proc/$$/fd' </dev/null)" ]
}

@test "the command's start reads no /proc/self/maps: whether RELRO is read-only is asked of the page itself" {
	command -v strace >/dev/null || fail "strace is needed"
	# LeakSanitizer cannot run under ptrace (maint/check-asan's ltruss).
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run_split strace -f -qq -e trace=open,openat,execve -o start.strace "$LTRUSS" -c -u 'libfix:fix_add' "$PROGS/fix-noplt"
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/fix-noplt")" ]
	# The -fno-plt program's calls go through GOT slots in RELRO, patched
	# at its start: counted, as many as without strace.
	calls=$(awk '$NF == "libfix:fix_add" { print $(NF - 2) }' <<<"$err")
	[ "$calls" -gt 0 ]
	run_split ltruss -c -u 'libfix:fix_add' "$PROGS/fix-noplt"
	[ "$(awk '$NF == "libfix:fix_add" { print $(NF - 2) }' <<<"$err")" = "$calls" ]
	# The program's own lines (an ASan build of ltruss reads its maps itself).
	pid=$(awk '/execve\(".*\/fix-noplt"/ { print $1; exit }' start.strace)
	[ -n "$pid" ]
	grep -q "^$pid .*libltruss.so" start.strace
	not grep -q "^$pid .*/proc/self/maps" start.strace
}

@test "a process that cannot map the compiled prototypes traces on without them, and ltruss says so" {
	# forge names a descriptor of the table that ltruss does not hold, then execs cat /dev/null.
	run_split ltruss -f -u 'libc:getenv,getppid,snprintf,read,open' "$PROGS/forge" table-fd
	[ "$status" -eq 0 ]
	[ -z "$out" ]
	# forge's own open, typed; cat's, with the registers only.
	grep -q '^libc:open("/dev/zero", O_RDONLY) = ' <<<"$err"
	grep -Eq '^libc:open\(0x[0-9a-f]+, 0, 0x[0-9a-f]+\) = 0x[0-9a-f]+$' <<<"$err"
	[ "$(grep '^ltruss:' <<<"$err")" = "ltruss: warning: 1 traced processes could not map ltruss's compiled prototypes: their calls are shown without the shipped prototypes" ]
}

@test "ltruss -c true and its command take under 450 page faults together (over 600 when ltruss copied the prototypes and cleared tables it never used at exit)" {
	command -v /usr/bin/time >/dev/null || fail "/usr/bin/time is needed (apt-get install time)"
	# An AddressSanitizer build (maint/check-asan) maps its shadow memory: no bound holds.
	if ldd "$LTRUSS" | grep -q libasan; then
		skip "an AddressSanitizer build of ltruss"
	fi
	run_split /usr/bin/time -f '%R' "$LTRUSS" -c true
	[ "$status" -eq 0 ]
	faults=$(tail -n 1 <<<"$err")
	[ "$faults" -lt 450 ] || { echo "$faults page faults"; false; }
}

# An AddressSanitizer build (maint/check-asan) maps its shadow memory: no fault bound holds.
skip_under_asan() {
	if ldd "$LTRUSS" | grep -q libasan; then
		skip "an AddressSanitizer build of ltruss"
	fi
}

@test "ltruss -o FILE true and its command take under 350 page faults together (over 375 with struct options cleared on the stack and exit reading every stack level)" {
	command -v /usr/bin/time >/dev/null || fail "/usr/bin/time is needed (apt-get install time)"
	skip_under_asan
	run_split /usr/bin/time -f '%R' "$LTRUSS" -o trace.txt true
	[ "$status" -eq 0 ]
	[ "$(sed -n '$p' trace.txt)" = "+++ exited (status 0) +++" ]
	faults=$(tail -n 1 <<<"$err")
	[ "$faults" -lt 350 ] || { echo "$faults page faults"; false; }
}

@test "ltruss's own stack stays under 96 kB resident: its 60 KiB of options are not cleared there" {
	skip_under_asan
	run_split ltruss -c sh -c 'awk "/\[stack\]/ { s = 1 } s && /^Rss:/ { print \$2; exit }" /proc/$PPID/smaps'
	[ "$status" -eq 0 ]
	[ -n "$out" ]
	[ "$out" -lt 96 ] || { echo "$out kB"; false; }
}

@test "400 traced functions cost the program and ltruss under 80 page faults more than one (the stubs' index is one page until 512)" {
	command -v /usr/bin/time >/dev/null || fail "/usr/bin/time is needed (apt-get install time)"
	skip_under_asan
	local one all
	run_split /usr/bin/time -f '%R' "$LTRUSS" -c -u 'libmanyf:f100' "$PROGS/manycalls"
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/manycalls")" ]
	one=$(tail -n 1 <<<"$err")
	run_split /usr/bin/time -f '%R' "$LTRUSS" -c -u 'libmanyf:*' "$PROGS/manycalls"
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/manycalls")" ]
	# Every one of the 400 counted.
	[ "$(grep -Ec ' libmanyf:f[0-9]+$' <<<"$err")" -eq 400 ]
	all=$(tail -n 1 <<<"$err")
	[ $((all - one)) -lt 80 ] || { echo "$one, $all page faults"; false; }
}

@test "the command's start opens its RELRO page once for all the slots patched there, not once a slot" {
	# true's RELRO page holds two slots ltruss patches (each made writable and read-only again before).
	# LeakSanitizer cannot run under ptrace (maint/check-asan's ltruss).
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run_split strace -f -qq -e trace=mprotect,execve -o start.strace "$LTRUSS" -c true
	[ "$status" -eq 0 ]
	pid=$(awk '/execve\(".*\/true"/ { print $1; exit }' start.strace)
	[ -n "$pid" ]
	[ "$(grep -c "^$pid .*mprotect(.*PROT_READ|PROT_WRITE)" start.strace)" -eq 1 ]
	[ "$(grep -c "^$pid .*mprotect(.*PROT_READ)" start.strace)" -ge 1 ]
	# Its calls are still counted.
	grep -Eq ' libc:__cxa_finalize$' <<<"$err"
}

@test "ltruss resolves its conf directory once at start, not once for each file it finds there" {
	# The prototypes, ltruss.yaml and the compiled table are all in the build tree's conf/:
	# realpath read each component's link three times.  (Twice in a
	# build outside the source tree: the source's conf/ and the build's.)
	# LeakSanitizer cannot run under ptrace (maint/check-asan's ltruss).
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run_split strace -qq -e trace=readlink -o start.strace "$LTRUSS" -c true
	[ "$status" -eq 0 ]
	[ "$(grep -c '^readlink(".*/conf",' start.strace)" -le 2 ]
	# And it finds them.
	run_split ltruss --version
	[[ "$out" == *"compiled prototypes: $LTRUSS_TOP_BUILDDIR/conf/prototypes.tbl"* ]] ||
		[[ "$out" == *"compiled prototypes: $(realpath "$LTRUSS_TOP_BUILDDIR")/conf/prototypes.tbl"* ]]
}

@test "ltruss -c true and its command take under 265 page faults together (over 275 when ltruss cleared an unused cache at exit and made its paths in PATH_MAX buffers; 337 before options, exit scans and ltruss's small variables spread among its tables)" {
	command -v /usr/bin/time >/dev/null || fail "/usr/bin/time is needed (apt-get install time)"
	skip_under_asan
	run_split /usr/bin/time -f '%R' "$LTRUSS" -c true
	[ "$status" -eq 0 ]
	faults=$(tail -n 1 <<<"$err")
	[ "$faults" -lt 265 ] || { echo "$faults page faults"; false; }
}

@test "ltruss -c true runs under 500 000 instructions of its own (over 610 000 when it parsed the default config with libyaml, loaded at every start; over 700 000 when it cleared, walked and freed caches of all 2 500 shipped prototypes it never used; 1.1 million when it cleared its options twice and checked the prototypes' index a bucket at a time)" {
	command -v valgrind >/dev/null || fail "valgrind is needed (apt-get install valgrind)"
	skip_under_asan
	# callgrind counts ltruss's instructions only: the command runs on its own.
	run_split valgrind --tool=callgrind --callgrind-out-file=/dev/null "$LTRUSS" -c true
	[ "$status" -eq 0 ]
	grep -q ' total$' <<<"$err"
	n=$(awk '/Collected :/ { print $NF }' <<<"$err")
	[ -n "$n" ]
	[ "$n" -lt 500000 ] || { echo "$n instructions"; false; }
}

@test "400 traced functions take under 32 pages more of the session than one (over 70 more when they were spread by name over the whole function index and read the whole empty prototype index)" {
	# -f: manycalls is the shell's child; $PPID, in the shell, is ltruss.
	local one all
	run_split ltruss -f -c -u 'libmanyf:f100' sh -c '"$1" >/dev/null; '"$SESSION_BLOCKS" sh "$PROGS/manycalls"
	[ "$status" -eq 0 ]
	one=$out
	run_split ltruss -f -c -u 'libmanyf:*' sh -c '"$1" >/dev/null; '"$SESSION_BLOCKS" sh "$PROGS/manycalls"
	[ "$status" -eq 0 ]
	all=$out
	# Every one of the 400 counted.
	[ "$(grep -Ec ' libmanyf:f[0-9]+$' <<<"$err")" -eq 400 ]
	[ -n "$one" ]
	[ -n "$all" ]
	# st_blocks: 512-byte blocks, 8 a page.  What remains is the counters of
	# 400 functions (the thread's and, once it ended, the retired ones).
	[ $((all - one)) -lt 256 ] || { echo "$one, $all blocks"; false; }
}

@test "jq -n 1, traced with the default selection, binds its 660 functions in under 190 000 instructions of la_symbind64 (215 600 when a new stub looked up again the rule that had just selected the call; 221 300 when a binding's name was hashed again for the hooks, the stubs and the captures; 367 000 when each name was compared with every hook's and entry-only function's)" {
	command -v valgrind >/dev/null || fail "valgrind is needed (apt-get install valgrind)"
	command -v jq >/dev/null || fail "jq is needed (apt-get install jq)"
	skip_under_asan
	# Only what runs inside la_symbind64 is counted, in each process.
	run_split valgrind --tool=callgrind --trace-children=yes --run-libc-freeres=no \
		--toggle-collect=la_symbind64 --callgrind-out-file="$BATS_TEST_TMPDIR/cg.%p" \
		"$LTRUSS" -o trace.txt jq -n 1
	[ "$status" -eq 0 ]
	[ "$out" = "$(jq -n 1)" ]
	[ "$(sed -n '$p' trace.txt)" = "+++ exited (status 0) +++" ]
	# The command's file: its cmd line does not name ltruss.
	n=$(awk '/^cmd: / { f = ($0 !~ /ltruss/) } f && /^summary:/ { print $2; exit }' "$BATS_TEST_TMPDIR"/cg.*)
	[ -n "$n" ]
	[ "$n" -gt 0 ]
	[ "$n" -lt 190000 ] || { echo "$n instructions"; false; }
}

@test "ltruss -o FILE jq -n 1 takes under 250 page faults more than jq alone (over 280 when the session's indexes were touched a page a function and ltruss faulted in tables it never used)" {
	command -v /usr/bin/time >/dev/null || fail "/usr/bin/time is needed (apt-get install time)"
	command -v jq >/dev/null || fail "jq is needed (apt-get install jq)"
	skip_under_asan
	run_split /usr/bin/time -f '%R' jq -n 1
	[ "$status" -eq 0 ]
	native=$(tail -n 1 <<<"$err")
	run_split /usr/bin/time -f '%R' "$LTRUSS" -o trace.txt jq -n 1
	[ "$status" -eq 0 ]
	[ "$out" = 1 ]
	[ "$(sed -n '$p' trace.txt)" = "+++ exited (status 0) +++" ]
	traced=$(tail -n 1 <<<"$err")
	[ $((traced - native)) -lt 250 ] || { echo "$native native, $traced traced"; false; }
}

@test "the session's registry entry is written while the command starts, not before: after its exec" {
	command -v strace >/dev/null || fail "strace is needed"
	# LeakSanitizer cannot run under ptrace (maint/check-asan's ltruss).
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	# The entry appears for a console while the command runs ($PPID: ltruss).
	run_split strace -f -qq -e trace=execve,renameat -o start.strace "$LTRUSS" -c -u 'libc:getpid' sh -c \
		'while [ ! -e "$XDG_RUNTIME_DIR/ltruss/$PPID" ]; do sleep 0.01; done; echo "$PPID"'
	[ "$status" -eq 0 ]
	ltruss_pid=$(awk 'NR == 1 { print $1 }' start.strace)
	[ "$out" = "$ltruss_pid" ]
	# Renamed into place by ltruss after the command's exec (vfork: ltruss waits for it).
	exec_line=$(grep -n -E 'execve\("[^"]*/sh", \["sh"' start.strace | head -n 1 | cut -d: -f1)
	# (strace pads a short pid with spaces.)
	rename_line=$(awk -v p="$ltruss_pid" '$1 == p && $2 ~ /^renameat\(/ { print NR; exit }' start.strace)
	[ -n "$exec_line" ] && [ -n "$rename_line" ] || { cat start.strace; false; }
	[ "$rename_line" -gt "$exec_line" ] || { cat start.strace; false; }
}

@test "the command starts before ltruss reads its default config and opens -o FILE: they overlap its exec and loading" {
	command -v strace >/dev/null || fail "strace is needed"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run_split strace -f -qq -e trace=execve,openat -o start.strace "$LTRUSS" -o trace.txt sh -c 'echo ran'
	[ "$status" -eq 0 ]
	[ "$out" = ran ]
	grep -q '^+++ exited (status 0) +++$' trace.txt
	ltruss_pid=$(awk 'NR == 1 { print $1 }' start.strace)
	exec_line=$(grep -n -E 'execve\("[^"]*/sh", \["sh"' start.strace | head -n 1 | cut -d: -f1)
	config_line=$(awk -v p="$ltruss_pid" '$1 == p && /openat\(.*\/ltruss\.yaml"/ { print NR; exit }' start.strace)
	output_line=$(awk -v p="$ltruss_pid" '$1 == p && /openat\(.*"trace\.txt"/ { print NR; exit }' start.strace)
	[ -n "$exec_line" ] && [ -n "$config_line" ] && [ -n "$output_line" ] || { cat start.strace; false; }
	[ "$config_line" -gt "$exec_line" ] && [ "$output_line" -gt "$exec_line" ] || { cat start.strace; false; }
}

@test "an error in the default config, found once the command has started, kills it before any of its code runs: one line, exit 2" {
	command -v strace >/dev/null || fail "strace is needed"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	mkdir -p "$HOME/.config/ltruss"
	printf 'trace:\n  - bad: 1\n' >"$HOME/.config/ltruss/ltruss.yaml"
	run_split strace -f -qq -e trace=execve,kill -o start.strace "$LTRUSS" sh -c 'touch ran; echo ran'
	[ "$status" -eq 2 ]
	[ -z "$out" ]
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]
	[[ "$err" == "ltruss: error: $HOME/.config/ltruss/ltruss.yaml:"*"unknown key 'bad'"* ]]
	[ ! -e ran ]
	# It was started (the early start), then killed, not let run.
	grep -q -E 'execve\("[^"]*/sh", \["sh"' start.strace || { cat start.strace; false; }
	grep -q 'kill(.*SIGKILL)' start.strace
	grep -q '+++ killed by SIGKILL +++' start.strace
	# Without strace too: nothing of the command ran.
	run_split "$LTRUSS" -o trace.txt sh -c 'touch ran; echo ran'
	[ "$status" -eq 2 ]
	[ -z "$out" ]
	[ ! -e ran ]
}

@test "-o FILE that cannot be written, found once the command has started: it is killed before any of its code runs, exit 2" {
	command -v strace >/dev/null || fail "strace is needed"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run_split strace -f -qq -e trace=execve,kill -o start.strace "$LTRUSS" -o no/such/dir/trace.txt sh -c 'touch ran; echo ran'
	[ "$status" -eq 2 ]
	[ -z "$out" ]
	[[ "$err" == "ltruss: error: cannot write the trace to 'no/such/dir/trace.txt' (-o)"* ]]
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]
	[ ! -e ran ]
	grep -q -E 'execve\("[^"]*/sh", \["sh"' start.strace || { cat start.strace; false; }
	grep -q '+++ killed by SIGKILL +++' start.strace
}

@test "ltruss killed while the command waits for its session: the command does not hang, runs none of its code, and says why" {
	mkfifo fifo
	# ltruss blocks opening the FIFO (no reader) after it started the command.
	"$LTRUSS" -o fifo sh -c 'touch ran; echo ran' >out.txt 2>err.txt &
	lt=$!
	child=
	for _ in $(seq 200); do
		child=$(cat "/proc/$lt/task/$lt/children" 2>/dev/null) || true
		[ -n "$child" ] && break
		sleep 0.02
	done
	[ -n "$child" ] || { kill -9 "$lt"; fail "ltruss started no command"; }
	child=${child%% *}
	# Give it time to reach the wait, then kill ltruss.
	sleep 0.1
	[ -e "/proc/$child" ]
	kill -9 "$lt"
	wait "$lt" || true
	# Within a second the command is gone (or a zombie waiting for its new parent).
	for _ in $(seq 100); do
		[ -e "/proc/$child" ] && [ "$(awk '{ print $3 }' "/proc/$child/stat" 2>/dev/null)" != Z ] || break
		sleep 0.01
	done
	if [ -e "/proc/$child" ]; then
		[ "$(awk '{ print $3 }' "/proc/$child/stat" 2>/dev/null)" = Z ]
	fi
	[ ! -e ran ]
	[ ! -s out.txt ]
	[ "$(cat err.txt)" = "ltruss: not tracing: ltruss ended before the command's session was ready: the command was not run" ]
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# binding.bats: every way a call reaches a library function is traced, and
# the traced program prints exactly what it prints untraced.

load helpers

# Run fixture PROG (args after it) untraced, then under ltruss with the
# remaining options; $out/$err/$status are the traced run's, $plain the untraced stdout.
# Usage: traced_vs_plain PROG ARGS -- LTRUSS-OPTIONS
traced_vs_plain() {
	local prog=$1 args=() opts=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	opts=("$@")
	plain=$("$PROGS/$prog" "${args[@]}")
	run_split ltruss "${opts[@]}" "$PROGS/$prog" "${args[@]}"
}

# The calls every build of calls.c makes, with their return values.
assert_fixture_calls() {
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$(grep -c '^libfix:fix_add(0x2, 0x3, .*) = 0x5$' <<<"$err")" -eq 3 ]
	grep -qx 'libfix:fix_add(0x28, 0x2, .*) = 0x2a' <<<"$err"
	grep -qx 'libfix:fix_twice(0x15, .*) = 0x2a' <<<"$err"
	grep -qx 'libfix:fix_pick(0x7, .*) = 0x46' <<<"$err"
	# libc's functions print by their shipped prototypes
	grep -qx 'libc:memcpy(0x[0-9a-f]*, 0x[0-9a-f]*, 6) = 0x[0-9a-f]*' <<<"$err"
	grep -qx 'libc:strlen("ifunc") = 5' <<<"$err"
	# Every traced call is shown exactly once: 3 + pointer + twice + pick + 2 libc.
	[ "$(grep -c '^lib' <<<"$err")" -eq 8 ]
}

@test "lazy binding (PIE, -z lazy)" {
	traced_vs_plain fix-lazy 3 -- -u 'libfix:*' -u 'libc:strlen,memcpy'
	assert_fixture_calls
}

@test "immediate binding (-z now, full RELRO)" {
	readelf -d "$PROGS/fix-now" | grep -q 'BIND_NOW\|FLAGS.*NOW'
	traced_vs_plain fix-now 3 -- -u 'libfix:*' -u 'libc:strlen,memcpy'
	assert_fixture_calls
}

@test "non-PIE program: a function pointer through the canonical PLT counts once" {
	readelf -h "$PROGS/fix-nopie" | grep -q 'EXEC'
	traced_vs_plain fix-nopie 3 -- -u 'libfix:*' -u 'libc:strlen,memcpy'
	assert_fixture_calls
}

@test "-fno-plt calls go through patched GLOB_DAT slots (PIE)" {
	readelf -r "$PROGS/fix-noplt" | grep -q 'GLOB_DAT.*fix_add'
	traced_vs_plain fix-noplt 3 -- -u 'libfix:*' -u 'libc:strlen,memcpy'
	assert_fixture_calls
}

@test "-fno-plt calls in a non-PIE program" {
	traced_vs_plain fix-noplt-nopie 3 -- -u 'libfix:*' -u 'libc:strlen,memcpy'
	assert_fixture_calls
}

@test "IBT layout (.plt.sec, -fcf-protection)" {
	readelf -S "$PROGS/fix-ibt" | grep -q '\.plt\.sec'
	traced_vs_plain fix-ibt 3 -- -u 'libfix:*' -u 'libc:strlen,memcpy'
	assert_fixture_calls
}

@test "'::' also traces a library's calls to itself (a tail call here)" {
	traced_vs_plain fix-lazy 1 -- -u 'libfix::*'
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	run grep -A2 '^libfix:fix_twice' <<<"$err"
	assert_line --index 0 --regexp '^libfix:fix_twice\(0x15, .*\) \{$'
	assert_line --index 1 --regexp '^  libfix:fix_add\(0x15, 0x15, .*\) = 0x2a$'
	assert_line --index 2 '} libfix:fix_twice = 0x2a'
}

@test "':' leaves a library's calls to itself untraced" {
	traced_vs_plain fix-lazy 1 -- -u 'libfix:*'
	[ "$(grep -c 'fix_add(0x15, 0x15' <<<"$err")" -eq 0 ]
}

@test "function globs and exclusions, later rules win" {
	traced_vs_plain fix-lazy 1 -- -u 'libfix:fix_*' -u 'libfix:!fix_add'
	[ "$out" = "$plain" ]
	[ "$(grep -c 'fix_add' <<<"$err")" -eq 0 ]
	grep -q '^libfix:fix_twice' <<<"$err"
	grep -q '^libfix:fix_pick' <<<"$err"
	traced_vs_plain fix-lazy 1 -- -u '!libfix' -u 'libfix:fix_pick'
	[ "$(grep -c '^libfix:' <<<"$err")" -eq 1 ]
	grep -q '^libfix:fix_pick' <<<"$err"
}

@test "a library matches by soname, file name or glob" {
	for lib in libfix libfix.so 'libf*' "$PROGS/libfix.so"; do
		traced_vs_plain fix-lazy 1 -- -u "$lib:fix_pick"
		[ "$(grep -c '^libfix:fix_pick(0x7' <<<"$err")" -eq 1 ]
	done
}

@test "versioned symbols: a caller bound to fix_ver@VER_1 reaches VER_1" {
	traced_vs_plain fix-ver-old -- -u 'libfix:*'
	[ "$status" -eq 0 ]
	[ "$out" = "ver 1" ]
	[ "$out" = "$plain" ]
	grep -qx 'libfix:fix_ver(.*) = 0x1' <<<"$err"
	traced_vs_plain fix-ver-new -- -u 'libfix:*'
	[ "$out" = "ver 2" ]
	grep -qx 'libfix:fix_ver(.*) = 0x2' <<<"$err"
}

@test "IFUNC: libc's strlen and memcpy, and a library's own IFUNC" {
	traced_vs_plain fix-now 1 -- -u 'libc:strlen,memcpy' -u 'libfix:fix_pick'
	[ "$out" = "$plain" ]
	grep -qx 'libc:strlen(.*) = 5' <<<"$err"
	grep -qx 'libfix:fix_pick(0x7, .*) = 0x46' <<<"$err"
}

@test "dlopen through RUNPATH \$ORIGIN, dlsym pointers, -fno-plt plugin" {
	traced_vs_plain fix-dlopen -- -u 'libfix:*' -u 'libplugin:*'
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$(printf '%s\n' "$out" | head -1)" = "plugin 105" ]
	# pointer identity holds: the plugin's GOT slot and dlsym agree
	grep -qx 'same pointer 1' <<<"$out"
	grep -qx 'libplugin:plugin_run(0x5, .*) {' <<<"$err"
	grep -qx '  libfix:fix_add(0x5, 0x64, .*) = 0x69' <<<"$err"
	grep -qx '} libplugin:plugin_run = 0x69' <<<"$err"
	grep -qx 'libfix:fix_add(0x6, 0x7, .*) = 0xd' <<<"$err"
}

@test "function pointers compare equal by every path (code, data table, dlsym), also of hooked functions, and dladdr names the real library" {
	# ptrid-noplt calls dlsym and dladdr through the GOT (-fno-plt -z now)
	for prog in ptrid ptrid-noplt; do
		for sel in "-u libfix:*" "-u libc:free,malloc" ""; do
			# shellcheck disable=SC2086
			traced_vs_plain $prog -- $sel
			[ "$status" -eq 0 ]
			[ "$out" = "$plain" ] || { echo "$prog $sel: $out"; false; }
		done
		for line in 'table == code: 1' 'destructor == free: 1' \
			'fix_add: in libfix.so, symbol fix_add, exact 1' \
			'exit table == _exit: 1' 'dlsym _exit == _exit: 1' \
			'_exit: in libc.so.6, symbol _exit, exact 1'; do
			grep -qx "$line" <<<"$out"
		done
		# the default config traces calls through the tables too
		for line in 'libfix:fix_add\(0x2, 0x3, .*\) = 0x5' \
			'libfix:fix_add\(0x4, 0x5, .*\) = 0x9' \
			'libc:free\(0x[0-9a-f]+\) = <void>'; do
			grep -Eqx "$line" <<<"$err"
		done
	done
}

@test "a -fno-plt plugin's posix_spawn reaches the hook: the child is followed, from a PIE, a non-PIE program, outside --from" {
	for prog in dlspawn dlspawn-nopie; do
		for from in "" "--from a.out"; do
			# shellcheck disable=SC2086
			traced_vs_plain $prog "$PROGS/execs" -- -f -u libc:getsid $from
			[ "$status" -eq 0 ]
			[ "$out" = "$plain" ]
			[ "$out" = $'leaf 1\nchild status 0' ]
			# only the child, execs leaf, calls getsid
			grep -Eqx '(\[pid [0-9]+\] )?libc:getsid\(0\) = [0-9]+' <<<"$err" || { echo "$prog $from: $err"; false; }
			[ "$(grep -c '+++ exited (status 0) +++' <<<"$err")" -eq 2 ]
		done
	done
}

@test "a library with text relocations to a traced function runs as untraced" {
	readelf -d "$PROGS/libtextrel.so" | grep -q TEXTREL
	traced_vs_plain textrel -- -u 'libfix:*'
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$out" = "textrel 5" ]
}

# dlrace's trace: every plugin_run call has its fix_add, every first call of libmanyf is seen.
assert_dlrace_traced() {
	local calls
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	calls=$(grep -c 'libplugin:plugin_run(' <<<"$err")
	[ "$calls" -ge 200 ]
	[ "$(grep -c 'libfix:fix_add(' <<<"$err")" -eq "$calls" ]
	[ "$(grep -c 'libmanyf:f[0-9]*(' <<<"$err")" -eq 900 ]
}

@test "a -fno-plt plugin loaded and unloaded in a loop while another thread binds: no crash" {
	for i in 1 2 3 4 5; do
		traced_vs_plain dlrace -- -u 'libfix:*' -u 'libplugin:*' -u 'libmanyf:*'
		assert_dlrace_traced
	done
}

@test "a -fno-plt plugin is patched before its first call, also under LD_BIND_NOW" {
	LD_BIND_NOW=1 traced_vs_plain dlcycle -- -u 'libfix:*'
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	grep -qx 'libfix:fix_add(0x1, 0x64, .*) = 0x65' <<<"$err"
	grep -qx 'libfix:fix_add(0x2, 0x64, .*) = 0x66' <<<"$err"
	LD_BIND_NOW=1 traced_vs_plain dlrace -- -u 'libfix:*' -u 'libplugin:*' -u 'libmanyf:*'
	assert_dlrace_traced
}

@test "a -fno-plt plugin is traced from its constructor on, also under LD_BIND_NOW" {
	for now in "" 1; do
		LD_BIND_NOW=$now traced_vs_plain dlctor -- -u 'libfix:*'
		[ "$status" -eq 0 ]
		[ "$out" = "$plain" ]
		[ "$out" = "constructor 42, run 2" ]
		grep -qx 'libfix:fix_add(0x28, 0x2, .*) = 0x2a' <<<"$err"
		grep -qx 'libfix:fix_add(0x1, 0x1, .*) = 0x2' <<<"$err"
	done
}

@test "dlopen/dlclose cycles reuse the stubs of unloaded objects: 10000 cycles, every call counted" {
	# 10000 cycles bind plugin_run and fix_add anew each: 20000 > 16384 stubs
	traced_vs_plain dlcycle 10000 -- -c -u 'libfix:*' -u 'libplugin:*'
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$out" = "10000 cycles, 0 wrong results" ]
	grep -Eq ' 20000 +0 libplugin:plugin_run$' <<<"$err"
	grep -Eq ' 20000 +0 libfix:fix_add$' <<<"$err"
	[ "$(grep -c 'left untraced' <<<"$err")" -eq 0 ]
	# 20000 objects loaded, more than the session holds at once: no word.
	[ "$(grep -c 'ltruss: warning' <<<"$err")" -eq 0 ]
}

@test "a run that loads more objects than the session holds at once names every frame in them, live and recorded" {
	# Each cycle records the plugin and one more object, 16600 > 16384
	# records, and no load lands where an earlier one was ("move"): each
	# frame in the plugin needs its own cycle's record.  Before, the
	# records past the 16384th were not kept: their frames were "(?)".
	plain=$("$PROGS/dlcycle" 8300 move)
	[ "$plain" = "8300 cycles, 0 wrong results" ]
	run_split ltruss -k -o live.txt -u 'libfix:fix_add' "$PROGS/dlcycle" 8300 move
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ -z "$err" ]
	[ "$(grep -c '^ > plugin_run+0x[0-9a-f]* (.*/libplugin\.so)$' live.txt)" -eq 16600 ]
	[ "$(grep -c '(?)' live.txt)" -eq 0 ]
	run_split ltruss -k -w dl.ltr -u 'libfix:fix_add' "$PROGS/dlcycle" 8300 move
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	[ "$err" = "+++ exited (status 0) +++" ]
	ltruss --read dl.ltr -k -o read.txt
	[ "$(grep -c '^ > plugin_run+0x[0-9a-f]* (.*/libplugin\.so)$' read.txt)" -eq 16600 ]
	[ "$(grep -c '(?)' read.txt)" -eq 0 ]
}

# Run dlswap under ltruss ARGS..., ltruss stopped from before the first
# load to after the last call: it formats (or records) libswapa.so's calls
# once libswapb.so has taken its addresses.
dlswap_behind() {
	# ltruss itself, not the helper's timeout, is the process stopped.
	"$LTRUSS" "$@" "$PROGS/dlswap" "$PWD" </dev/null >out.txt 2>err.txt &
	local pid=$! i
	for i in $(seq 1 200); do [ -e started ] && break; sleep 0.05; done
	kill -STOP "$pid"
	touch go
	for i in $(seq 1 200); do [ -e loaded ] && break; sleep 0.05; done
	kill -CONT "$pid"
	wait "$pid"
}

# The frames of trace file or text $1: each of the six fix_add calls'
# first two, on one line.
dlswap_frames() {
	grep -A2 '^libfix:fix_add(' "$1" | grep '^ > ' | sed -E 's/\+0x[0-9a-f]+//; s/ \(.*\/(lib[a-z]+\.so)\)$/ \1/' | paste -d' ' - -
}

@test "-k names a frame by the object mapped there when the call was made, not by one loaded there later" {
	plain=$("$PROGS/dlswap")
	# The test needs libswapb.so where libswapa.so was.
	[ "$plain" = "sum 612, same addresses" ]
	expected=$(printf ' > swapa_inner libswapa.so  > swapa_run libswapa.so\n%.0s' 1 2 3
		printf ' > swapb_inner libswapb.so  > swapb_run libswapb.so\n%.0s' 1 2 3)
	dlswap_behind -k -o live.txt -u 'libfix:fix_add'
	[ "$(cat out.txt)" = "$plain" ]
	[ ! -s err.txt ]
	[ "$(dlswap_frames live.txt)" = "$expected" ]
	rm started go loaded
	dlswap_behind -k -w swap.ltr -u 'libfix:fix_add'
	[ "$(cat out.txt)" = "$plain" ]
	ltruss --read swap.ltr -k -o read.txt
	[ "$(dlswap_frames read.txt)" = "$expected" ]
	# --json -k names them (and their lines) the same way.
	ltruss --read swap.ltr --json -k -o read.json
	[ "$(grep -o '"stack":\[{"func":"[a-z_]*","off":[0-9]*,"object":"[^"]*/lib[a-z]*\.so","file":"[^"]*swaplib\.c"' read.json |
		sed -E 's/.*"func":"([a-z_]*)".*\/(lib[a-z]*\.so)".*/\1 \2/')" = "$(printf 'swapa_inner libswapa.so\n%.0s' 1 2 3; printf 'swapb_inner libswapb.so\n%.0s' 1 2 3)" ]
	# --caller names the call site the same way.
	rm started go loaded
	dlswap_behind --caller -o caller.txt -u 'libfix:fix_add'
	[ "$(grep -c '^libfix:fix_add(.* \[from swapa_inner+0x[0-9a-f]*\]$' caller.txt)" -eq 3 ]
	[ "$(grep -c '^libfix:fix_add(.* \[from swapb_inner+0x[0-9a-f]*\]$' caller.txt)" -eq 3 ]
}

@test "dlopen and dlsym themselves traced (entry only) still find the caller's RUNPATH" {
	traced_vs_plain fix-dlopen -- -u 'libc:dlopen,dlsym'
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	grep -q '^libc:dlopen(.*) <no return ...>$' <<<"$err"
	[ "$(grep -c '^libc:dlsym(' <<<"$err")" -eq 3 ]
}

@test "a program using dlsym(RTLD_NEXT) reaches the library's function" {
	traced_vs_plain fix-rtld-next -- -u 'libfix:*'
	[ "$status" -eq 0 ]
	[ "$out" = "wrapped 1003" ]
	grep -qx 'libfix:fix_add(0x1, 0x2, .*) = 0x3' <<<"$err"
}

@test "pointers from dlsym(RTLD_NEXT) taken in .preinit_array and a constructor are traced, as in main" {
	run_split ltruss -u 'libc:getpid,malloc' "$PROGS/ctor-dlsym"
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/ctor-dlsym")" ]
	# preinit, constructor and main: one getpid line each
	[ "$(grep -c '^libc:getpid() = [0-9]*$' <<<"$err")" -eq 3 ]
	grep -Eqx 'libc:malloc\(1234\) = 0x[0-9a-f]+' <<<"$err"
	[ "$(grep -c malloc <<<"$err")" -eq 1 ]
}

@test "aliases: each call is printed under the name its caller bound" {
	run_split ltruss -u 'libc:wcsto*,getwc,fgetwc' "$PROGS/aliases"
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/aliases" </dev/null)" ]
	[ "$(sed -n 2p <<<"$out")" = "same pointer: 1" ]
	run sed -nE 's/^libc:([a-z]+)\(.*/\1/p' <<<"$err"
	[ "$output" = "$(printf '%s\n' wcstoll wcstol wcstoull wcstoul fgetwc getwc)" ]
}

@test "--from narrows the callers" {
	traced_vs_plain fix-lazy 1 -- -u 'libfix::*' --from libfix
	[ "$out" = "$plain" ]
	[ "$(grep -c '^libfix:' <<<"$err")" -eq 1 ]
	grep -qx 'libfix:fix_add(0x15, 0x15, .*) = 0x2a' <<<"$err"
}

@test "-D limits the nesting shown" {
	traced_vs_plain fix-lazy 1 -- -u 'libfix::*' -D 1
	[ "$out" = "$plain" ]
	grep -qx 'libfix:fix_twice(0x15, .*) = 0x2a' <<<"$err"
	[ "$(grep -c '0x15, 0x15' <<<"$err")" -eq 0 ]
}

@test "-c counts every call exactly" {
	traced_vs_plain fix-noplt 100000 -- -c -u 'libfix:*'
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	run awk '$NF == "libfix:fix_add" { print $(NF-2) }' <<<"$err"
	assert_output 100001
	run awk '$NF == "total" { print $(NF-2) }' <<<"$err"
	assert_output 100003
}

@test "sqlite3 under -u 'libsqlite3:*' prints what it prints untraced" {
	printf 'create table t(a);\ninsert into t values(1),(2),(40);\nselect sum(a) from t;\n' > q.sql
	plain=$(sqlite3 :memory: < q.sql)
	out=$(timeout 60 "$LTRUSS" -u 'libsqlite3:*' sqlite3 :memory: < q.sql 2>err.txt)
	[ "$out" = "$plain" ]
	[ "$out" = "43" ]
	grep -q '^libsqlite3:sqlite3_open' err.txt
	grep -q '^libsqlite3:sqlite3_prepare_v2(' err.txt
	grep -qx '+++ exited (status 0) +++' err.txt
}

@test "xmllint under -u 'libxml2:*' and '-u libc:*'" {
	printf '<a><b>x</b><c y="1"/></a>\n' > a.xml
	plain=$(xmllint --format a.xml)
	run_split ltruss -u 'libxml2:*' xmllint --format a.xml
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	grep -q '^libxml2:xmlReadFile(\|^libxml2:xmlCtxtReadFile(\|^libxml2:xmlReadFd(' <<<"$err"
	run_split ltruss -c -u 'libc:*' xmllint --format a.xml
	[ "$out" = "$plain" ]
	grep -q ' libc:malloc$' <<<"$err"
}

@test "jq under -u 'libjq:*'" {
	plain=$(echo '{"a":[1,2,{"b":null}]}' | jq -c '.a')
	out=$(echo '{"a":[1,2,{"b":null}]}' | timeout 60 "$LTRUSS" -u 'libjq:*' jq -c '.a' 2>err.txt)
	[ "$out" = "$plain" ]
	grep -q '^libjq:jq_init(' err.txt
	grep -q '^libjq:jv_parse' err.txt
}

@test "ls with every libc call counted" {
	plain=$(ls -la /usr)
	run_split ltruss -c -u 'libc:*' ls -la /usr
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	grep -q ' libc:opendir$' <<<"$err"
	grep -q ' libc:readdir\(64\)\?$' <<<"$err"
}

@test "sh -c with a pipeline: children run untraced and unharmed" {
	plain=$(sh -c 'echo hi; ls / | wc -l')
	run_split ltruss -u 'libc:*' sh -c 'echo hi; ls / | wc -l'
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	grep -q '^libc:fork(\|^libc:_Fork(\|^libc:vfork(' <<<"$err"
}

@test "python3 -c under '-u libc:*'" {
	plain=$(/usr/bin/python3 -c 'import json; print(json.dumps(sorted({"b": 1, "a": [1, 2]})))')
	run_split ltruss -c -u 'libc:*' /usr/bin/python3 -c 'import json; print(json.dumps(sorted({"b": 1, "a": [1, 2]})))'
	[ "$status" -eq 0 ]
	[ "$out" = "$plain" ]
	grep -q ' libc:malloc$' <<<"$err"
}

@test "the default selection shows what the program itself calls" {
	run_split ltruss /bin/echo hello
	[ "$status" -eq 0 ]
	[ "$out" = "hello" ]
	grep -q '^libc:setlocale(' <<<"$err"
	# calls libc makes to itself are not shown by default
	[ "$(grep -c '^  ' <<<"$err")" -eq 0 ]
	grep -qx '+++ exited (status 0) +++' <<<"$err"
}

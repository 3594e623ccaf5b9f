#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# list.bats: --list prints the functions a selection resolves to, without running the command.

load helpers

# The noisy functions the default selection leaves out (bin/config/selection.c).
NOISY='^(__errno_location|__ctype_b_loc|__ctype_tolower_loc|__ctype_toupper_loc|__ctype_get_mb_cur_max|__stack_chk_fail|__tls_get_addr)$'

# libc_path: the libc.so.6 that ls loads, as ldd(1) finds it.
libc_path() {
	ldd "$(command -v ls)" | awk '$1 == "libc.so.6" { print $3 }'
}

# symbols: the SYMBOL column of a --list table ($out), sorted.
symbols() {
	echo "$out" | sed '/^entry patching/,$d' | sed '1d;$d' | awk '{ print $2 }' | sort
}

# bound_imports FILE: the functions FILE imports and binds through a GOT
# slot (PLT or GLOB_DAT: what the interposer sees), but the noisy ones.
bound_imports() {
	comm -12 <(objdump -R "$1" |
			awk '$2 == "R_X86_64_JUMP_SLOT" || $2 == "R_X86_64_GLOB_DAT" { sub(/@.*/, "", $3); print $3 }' |
			sort -u) \
		<(objdump -T "$1" | awk '/ DF \*UND\*/ { print $NF }' | sort -u) |
		grep -Ev "$NOISY"
}

@test "--list ls: what ls calls, with the version libc defines" {
	run_split ltruss --list ls
	[ "$status" -eq 0 ]
	[ -z "$err" ]
	echo "$out" | head -1 | grep -Eq '^LIB +SYMBOL +VERSION +ADDRESS +PROTO$'
	# opendir, at the address and default version libc.so.6 gives it.
	def=$(nm -D --defined-only "$(libc_path)" | awk '$3 ~ /^opendir@@/ { print $1, $3 }')
	[ -n "$def" ]
	addr=0x$(echo "$def" | cut -d' ' -f1 | sed 's/^0*//')
	ver=${def#*opendir}
	echo "$out" | grep -Eq "^libc +opendir +$ver +$addr +yes\$"
	# The functions listed are exactly the functions ls imports, but the noisy ones.
	want=$(bound_imports "$(command -v ls)")
	[ -n "$want" ]
	diff <(echo "$want") <(symbols)
	n=$(echo "$want" | wc -l)
	echo "$out" | tail -1 | grep -Eq "^$n functions in [0-9]+ libraries\$"
}

@test "--list leaves out the noisy functions ls does call" {
	objdump -T "$(command -v ls)" | grep -q ' __errno_location$'
	run_split ltruss --list ls
	[ "$status" -eq 0 ]
	[ "$(echo "$out" | grep -c '__errno_location')" -eq 0 ]
}

@test "--list -u 'libc:str*': every str* function libc defines, and only those" {
	run_split ltruss --list -u 'libc:str*' ls
	[ "$status" -eq 0 ]
	want=$(nm -D --defined-only "$(libc_path)" | awk '$2 ~ /^[TWi]$/ && $3 ~ /^str/ { print $3 }' | sort)
	[ -n "$want" ]
	got=$(echo "$out" | sed '1d;$d' | awk '{ print $2 $3 }' | sort)
	diff <(echo "$want") <(echo "$got")
	[ "$(echo "$out" | sed '1d;$d' | awk '{ print $1 }' | sort -u)" = libc ]
}

@test "--list: '!' excludes functions and libraries, the last rule wins" {
	run_split ltruss --list -u 'libc:str*' -u 'libc:!strc*' ls
	[ "$status" -eq 0 ]
	symbols | grep -qx strlen
	[ "$(symbols | grep -c '^strc')" -eq 0 ]
	# A later rule brings one back.
	run_split ltruss --list -u 'libc:str*' -u 'libc:!strc*' -u 'libc:strcmp' ls
	symbols | grep -qx strcmp
	[ "$(symbols | grep -cx strchr)" -eq 0 ]
	# A whole library out.
	run_split ltruss --list -u 'libfix:' -u 'libc:strlen' -u '!libfix' "$PROGS/fix-lazy"
	[ "$status" -eq 0 ]
	[ "$(symbols)" = strlen ]
}

@test "--list -u libz: on a program without libz lists nothing and says so" {
	run_split ltruss --list -u libz: "$PROGS/fix-lazy"
	[ "$status" -eq 0 ]
	[ "$out" = "0 functions in 0 libraries" ]
	[ "$err" = "ltruss: warning: no library that '$PROGS/fix-lazy' loads at start matches 'libz'" ]
}

@test "--list prints versions: default @@, older @, as the library defines them" {
	nm -D --defined-only "$PROGS/libfix.so" | grep -q ' fix_ver@VER_1$'
	nm -D --defined-only "$PROGS/libfix.so" | grep -q ' fix_ver@@VER_2$'
	run_split ltruss --list -u 'libfix:fix_ver' "$PROGS/fix-lazy"
	[ "$status" -eq 0 ]
	echo "$out" | grep -Eq '^libfix +fix_ver +@VER_1 +0x[0-9a-f]+ +-$'
	echo "$out" | grep -Eq '^libfix +fix_ver +@@VER_2 +0x[0-9a-f]+ +-$'
	[ "$(echo "$out" | tail -1)" = "2 functions in 1 library" ]
	# What a program binds: the old version for one built against it.
	run_split ltruss --list -u 'libfix:' --from a.out "$PROGS/fix-ver-old"
	[ "$(echo "$out" | awk 'NR == 2 { print $2, $3 }')" = "fix_ver @VER_1" ]
	run_split ltruss --list -u 'libfix:' --from a.out "$PROGS/fix-ver-new"
	[ "$(echo "$out" | awk 'NR == 2 { print $2, $3 }')" = "fix_ver @@VER_2" ]
}

@test "--list with --from lists what those objects bind, IFUNCs too" {
	run_split ltruss --list -u 'libfix:' --from a.out "$PROGS/fix-lazy"
	[ "$status" -eq 0 ]
	want=$(nm -D --undefined-only "$PROGS/fix-lazy" | awk '$2 ~ /@VER_/ { sub(/@.*/, "", $2); print $2 }' | sort)
	[ "$want" = "$(printf 'fix_add\nfix_pick\nfix_twice')" ]
	[ "$(symbols)" = "$want" ]
}

@test "--list: '::' adds the calls a library makes to itself" {
	objdump -R "$PROGS/libfix.so" | grep -q 'JUMP_SLOT *fix_add'
	run_split ltruss --list --from libfix -u 'libfix:' "$PROGS/fix-lazy"
	[ "$out" = "0 functions in 0 libraries" ]
	run_split ltruss --list --from libfix -u 'libfix::' "$PROGS/fix-lazy"
	[ "$(symbols)" = fix_add ]
}

@test "--list does not run the command" {
	run_split ltruss --list touch "$BATS_TEST_TMPDIR/created"
	[ "$status" -eq 0 ]
	[ ! -e "$BATS_TEST_TMPDIR/created" ]
	echo "$out" | grep -Eq '^libc +__libc_start_main '
	# A script: its interpreter is what runs, and is what is listed.
	printf '#!/bin/sh\ntouch "%s"\n' "$BATS_TEST_TMPDIR/created" > s.sh
	chmod +x s.sh
	run_split ltruss --list ./s.sh
	[ "$status" -eq 0 ]
	[ ! -e "$BATS_TEST_TMPDIR/created" ]
	want=$(bound_imports "$(realpath /bin/sh)")
	diff <(echo "$want") <(symbols)
}

@test "--list honours LD_PRELOAD, as the loader does" {
	run_split env LD_PRELOAD="$PROGS/libmanyf.so" "$LTRUSS" --list -u 'libmanyf:' ls
	[ "$status" -eq 0 ]
	want=$(nm -D --defined-only "$PROGS/libmanyf.so" | awk '$2 == "T" { print $3 }' | sort)
	[ -n "$want" ]
	[ "$(symbols)" = "$want" ]
}

@test "--list warns about a library the loader does not find, and lists the rest" {
	cp "$PROGS/fix-lazy" .
	run_split ltruss --list ./fix-lazy
	[ "$status" -eq 0 ]
	[ "$err" = "ltruss: warning: './fix-lazy' needs libfix.so, which the loader does not find: the program would not start" ]
	echo "$out" | grep -Eq '^libc +strlen '
	[ "$(echo "$out" | grep -c libfix)" -eq 0 ]
}

@test "--list lists a library the program links by path (DT_NEEDED with a '/'), as a run traces it" {
	cd "$LTRUSS_TOP_BUILDDIR"
	run_split ltruss --list -u 'libbypath:*' tests/progs/bin/bypath
	[ "$status" -eq 0 ]
	[ -z "$err" ]
	echo "$out" | grep -Eq '^libbypath +bypath_add +- +0x[0-9a-f]+ '
	[ "$(tail -1 <<<"$out")" = "1 function in 1 library" ]
	run_split ltruss -u 'libbypath:*' tests/progs/bin/bypath
	[ "$out" = 5 ]
	[ -z "$(grep -v '^libbypath:bypath_add(\|^+++ exited' <<<"$err")" ]
	grep -q '^libbypath:bypath_add(' <<<"$err"
}

@test "--list: a library the loader cannot load is an error, as in a run" {
	cp "$PROGS/fix-lazy" .
	echo junk > libfix.so
	run_split ltruss --list ./fix-lazy
	[ "$status" -eq 2 ]
	[ -z "$out" ]
	[[ "$err" == *"libfix.so: file too short"* ]]
	[[ "$err" == *"ltruss: error: cannot list the libraries of './fix-lazy': its loader '"*"' failed (status 127), so running it would fail too" ]]
}

@test "--list --json: one object a line with stable keys" {
	run_split ltruss --list --json -u 'libc:opendir' -u 'libfix:fix_ver' "$PROGS/fix-lazy"
	[ "$status" -eq 0 ]
	[ "$(echo "$out" | wc -l)" -eq 3 ]
	[ "$(echo "$out" | jq -c 'keys_unsorted' | sort -u)" = '["lib","soname","path","symbol","version","hidden","address","prototype"]' ]
	[ "$(echo "$out" | jq -r 'select(.symbol == "fix_ver") | "\(.lib) \(.soname) \(.version) \(.hidden) \(.prototype)"')" = \
	  "$(printf 'libfix libfix.so VER_1 true false\nlibfix libfix.so VER_2 false false')" ]
	[ "$(echo "$out" | jq -r 'select(.symbol == "opendir") | .path')" = "$(libc_path)" ]
	echo "$out" | jq -e 'select(.symbol == "opendir") | .address | test("^0x[0-9a-f]+$")'
}

@test "--list errors: the messages and exit status of a run" {
	for cmd in no-such-command-xyz ./fake "$PROGS/static-hello" "$PROGS/bad-interp"; do
		printf 'not elf\n' > fake
		chmod +x fake
		run_split ltruss "$cmd"
		want_status=$status want_err=$err
		[ "$want_status" -eq 2 ]
		run_split ltruss --list "$cmd"
		[ "$status" -eq 2 ]
		[ "$err" = "$want_err" ]
		[ -z "$out" ]
	done
	run ltruss --list
	assert_failure 2
	assert_output "ltruss: error: no command to trace; see 'ltruss --help'"
}

@test "--list predicts a run: what a run traces is listed" {
	for sel in "" "-u libfix:: --from libfix" "-u libc:str* -u libfix:"; do
		# shellcheck disable=SC2086
		run_split ltruss -c --summary-format json $sel "$PROGS/fix-lazy" 5
		[ "$status" -eq 0 ]
		# (the loader's own lookup of libc's malloc family, reported as a
		# dlsym by the program, is not traced: it is not the program's call)
		traced=$(echo "$err" | jq -r '.functions[] | "\(.lib):\(.function)"' | sort)
		[ -n "$traced" ]
		# shellcheck disable=SC2086
		run_split ltruss --list --json $sel "$PROGS/fix-lazy" 5
		listed=$(echo "$out" | jq -r '"\(.lib):\(.symbol)"' | sort -u)
		[ -z "$(comm -23 <(echo "$traced") <(echo "$listed"))" ]
	done
	run_split ltruss -c --summary-format json ls -l /
	traced=$(echo "$err" | jq -r '.functions[] | "\(.lib):\(.function)"' | sort)
	run_split ltruss --list --json ls -l /
	listed=$(echo "$out" | jq -r '"\(.lib):\(.symbol)"' | sort -u)
	[ -z "$(comm -23 <(echo "$traced") <(echo "$listed"))" ]
}

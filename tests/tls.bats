#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tls.bats: libraries with initial-exec TLS load as natively, GLIBC_TUNABLES
# stays the program's own, and a refusal by the loader is explained.
#
# The fixtures: libtls-start.so (1024 bytes of initial-exec TLS, linked at
# start) and plugin/libtls-plugin.so (1024 bytes, dlopened) by tls-dlopen.
# Natively the first goes into the static TLS block and the second fits
# in glibc's surplus; under an audit module both must come out of the
# surplus (glibc bug 31991), which ltruss raises (lib/tunables.c).
# libtls-huge.so (1 MiB, linked at start by tls-huge) fits in no surplus
# ltruss gives.

load helpers
bats_require_minimum_version 1.5.0

# The exact error ltruss prints for tls-huge run as PATH, suggesting BYTES.
huge_error() {
	echo "ltruss: error: the loader could not start '$1': the initial-exec TLS of '$PROGS/libtls-huge.so' does not fit in the static TLS an audit module leaves (cannot allocate memory in static TLS block, glibc bug 31991); run again with GLIBC_TUNABLES=glibc.rtld.optional_static_tls=$2 (ltruss adds 1536 bytes to it)"
}

@test "a library with initial-exec TLS linked at start, another dlopened: both load, as natively" {
	run "$PROGS/tls-dlopen"
	assert_success
	native=$output
	[ "$native" = "linked at start: 1024 bytes
dlopened: 1024 bytes" ]
	run_split ltruss -c -o trace "$PROGS/tls-dlopen"
	[ "$status" -eq 0 ]
	[ "$out" = "$native" ]
	[ -z "$err" ]
	grep -q ' total$' trace
	# Started by a traced program: exec'd, and spawned with -f.
	run_split ltruss -u 'libtls*:*' sh -c "exec '$PROGS/tls-dlopen'"
	[ "$status" -eq 0 ]
	[ "$out" = "$native" ]
	grep -qx 'libtls-start:tls_start(.*) = 0x400' <<<"$err"
	grep -qx 'libtls-plugin:tls_plugin(.*) = 0x400' <<<"$err"
	run_split ltruss -f -u 'libtls*:*' sh -c "'$PROGS/tls-dlopen'; echo \$?"
	[ "$status" -eq 0 ]
	[ "$out" = "$native
0" ]
	grep -q 'libtls-plugin:tls_plugin(.*) = 0x400$' <<<"$err"
	grep -q '^\[pid [0-9]*\] +++ exited (status 0) +++$' <<<"$err"
}

@test "GLIBC_TUNABLES: the program sees its own, set, empty or unset, no variable of ltruss's, and the TLS it needs" {
	cmd="'$PROGS/tls-env'; exec '$PROGS/tls-dlopen'"
	for v in unset '' glibc.malloc.check=0 \
		'glibc.malloc.check=0:glibc.rtld.optional_static_tls=100:glibc.malloc.tcache_count=3'; do
		if [ "$v" = unset ]; then
			native=$(env -u GLIBC_TUNABLES sh -c "$cmd")
			run_split env -u GLIBC_TUNABLES "$LTRUSS" -c -o /dev/null sh -c "$cmd"
		else
			native=$(GLIBC_TUNABLES=$v sh -c "$cmd")
			run_split env GLIBC_TUNABLES="$v" "$LTRUSS" -c -o /dev/null sh -c "$cmd"
		fi
		[ "$status" -eq 0 ]
		[ "$out" = "$native" ]
		[ -z "$err" ]
	done
	[ "$native" = "GLIBC_TUNABLES=$v
linked at start: 1024 bytes
dlopened: 1024 bytes" ]
}

@test "the user's own optional_static_tls: the program sees it, the loader gets ltruss's share on top" {
	# 100 is enough without ltruss: 1252 bytes left for the plugin.
	export GLIBC_TUNABLES=glibc.rtld.optional_static_tls=100
	run "$PROGS/tls-dlopen"
	assert_success
	native=$output
	run_split ltruss -c -o /dev/null sh -c "'$PROGS/tls-env'; exec '$PROGS/tls-dlopen'"
	[ "$status" -eq 0 ]
	[ "$out" = "GLIBC_TUNABLES=$GLIBC_TUNABLES
$native" ]
	# Too little even natively: the plugin fails as it would without ltruss.
	export GLIBC_TUNABLES=glibc.rtld.optional_static_tls=0
	run "$PROGS/tls-dlopen"
	native=$output
	run_split ltruss -c -o /dev/null "$PROGS/tls-dlopen"
	[ "$out" = "$native" ]
}

@test "a program that sets GLIBC_TUNABLES for the program it execs: that one sees its own value, traced" {
	for how in exec execve; do
		native=$("$PROGS/tls-env" $how glibc.malloc.check=0)
		run_split ltruss -u 'libc:getenv' "$PROGS/tls-env" $how glibc.malloc.check=0
		[ "$status" -eq 0 ]
		[ "$out" = "$native" ]
		[ "$(grep -c '^libc:getenv("GLIBC_TUNABLES")' <<<"$err")" -eq 2 ]
	done
	[ "$out" = "GLIBC_TUNABLES unset
GLIBC_TUNABLES=glibc.malloc.check=0" ]
	GLIBC_TUNABLES=glibc.malloc.check=0 run_split "$LTRUSS" -c -o /dev/null "$PROGS/tls-env" exec -
	[ "$out" = "GLIBC_TUNABLES=glibc.malloc.check=0
GLIBC_TUNABLES unset" ]
	# What the exec'd program's loader gets is raised all the same.
	run_split ltruss -f -c -o /dev/null sh -c "GLIBC_TUNABLES=glibc.malloc.check=0 '$PROGS/tls-dlopen'"
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/tls-dlopen")" ]
	# And through system(), whose shell gets environ as a copy (-f).
	cmd="import os; os.system(\"'$PROGS/tls-env'; '$PROGS/tls-dlopen'\")"
	native=$(GLIBC_TUNABLES=glibc.malloc.check=0 /usr/bin/python3 -c "$cmd")
	GLIBC_TUNABLES=glibc.malloc.check=0 run_split "$LTRUSS" -f -c -o /dev/null /usr/bin/python3 -c "$cmd"
	[ "$status" -eq 0 ]
	[ "$out" = "$native" ]
	[ "$(head -n 1 <<<"$out")" = GLIBC_TUNABLES=glibc.malloc.check=0 ]
}

@test "initial-exec TLS no surplus holds: ltruss names the object and the tunable to set, exit 2" {
	run "$PROGS/tls-huge"
	assert_success
	native=$output
	run_split ltruss -c -o /dev/null "$PROGS/tls-huge"
	[ "$status" -eq 2 ]
	[ -z "$out" ]
	[ "$err" = "$PROGS/tls-huge: error while loading shared libraries: $PROGS/libtls-huge.so: cannot allocate memory in static TLS block
$(huge_error "$PROGS/tls-huge" 1049600)" ]
	# What it says to do works: 512 (glibc's) + 1048576 + 8, in whole KiB.
	GLIBC_TUNABLES=glibc.rtld.optional_static_tls=1049600 run_split "$LTRUSS" -c -o /dev/null "$PROGS/tls-huge"
	[ "$status" -eq 0 ]
	[ "$out" = "$native" ]
	# The user's own value counts in what it suggests.
	GLIBC_TUNABLES=glibc.malloc.check=0:glibc.rtld.optional_static_tls=0x800 run_split "$LTRUSS" -c -o /dev/null "$PROGS/tls-huge"
	[ "$status" -eq 2 ]
	[ "$(tail -n 1 <<<"$err")" = "$(huge_error "$PROGS/tls-huge" 1051648)" ]
}

@test "a program exec'd or spawned that the loader stops for its TLS: a warning, the status kept" {
	run_split ltruss -c -o /dev/null sh -c "exec '$PROGS/tls-huge'"
	[ "$status" -eq 127 ]
	grep -qx "ltruss: warning: process [0-9]*: the loader stopped a program before it started (status 127); if its message says 'cannot allocate memory in static TLS block', run again with GLIBC_TUNABLES=glibc.rtld.optional_static_tls=BYTES over 512 (ltruss adds 1536 bytes to it)" <<<"$err"
	run_split ltruss -f -c -o /dev/null sh -c "'$PROGS/tls-huge'; echo \$?"
	[ "$status" -eq 0 ]
	[ "$out" = 127 ]
	[ "$(grep -c '^ltruss: warning: process [0-9]*: the loader stopped a program before it started' <<<"$err")" -eq 1 ]
}

@test "status 127 for other reasons: the loader's own message, no word about TLS" {
	mkdir alone
	cp "$PROGS/tls-huge" alone/
	run -127 alone/tls-huge
	native=$output
	run_split ltruss -c -o /dev/null alone/tls-huge
	[ "$status" -eq 127 ]
	[ "$err" = "$native" ]
	run_split ltruss -f -c -o /dev/null sh -c 'exit 127'
	[ "$status" -eq 127 ]
	[ -z "$err" ]
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rust.bats: a Rust program, all of whose calls go through the GOT, runs
# as natively: panics caught, children followed, its own stack overflow report.

load helpers

RUST_PROG=rust-panic-spawn

# rust_run LTRUSS-OPTIONS... -- ARGS...: the fixture untraced ($plain,
# $plain_status) and traced ($out, $err, $status).
rust_run() {
	local opts=()

	while [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	shift
	[ -x "$PROGS/$RUST_PROG" ] || fail "fixture $RUST_PROG was not built (make check builds it with rustc)"
	plain_status=0
	plain=$("$PROGS/$RUST_PROG" "$@") || plain_status=$?
	run_split ltruss "${opts[@]}" "$PROGS/$RUST_PROG" "$@"
}

@test "Rust: catch_unwind catches its panics and Command's child is followed, with the default selection and a narrow one" {
	for sel in "" "-u libc:getppid"; do
		# shellcheck disable=SC2086
		rust_run -f $sel --
		[ "$status" -eq "$plain_status" ] || { echo "$sel: status $status: $(tail -5 <<<"$err")"; false; }
		[ "$out" = "$plain" ]
		[ "$out" = $'caught 3\nchild: leaf true\nchild status 0' ]
		# the child, spawned by posix_spawn through the GOT, is traced:
		# its getppid names the traced program, both exits are reported
		parent=$(sed -nE 's/^\[pid [0-9]+\] libc:getppid\(\) = ([0-9]+)$/\1/p' <<<"$err")
		[ -n "$parent" ] || { echo "$sel: $(tail <<<"$err")"; false; }
		grep -qx "\[pid $parent\] +++ exited (status 0) +++" <<<"$err"
		[ "$(grep -c '+++ exited (status 0) +++' <<<"$err")" -eq 2 ]
	done
	# the panics are raised through the hook, the raise itself traced on entry
	rust_run -u 'libgcc_s:_Unwind_RaiseException' --
	[ "$status" -eq 0 ]
	[ "$(grep -c '^libgcc_s:_Unwind_RaiseException(.*) <no return \.\.\.>$' <<<"$err")" -eq 3 ]
}

@test "Rust: a stack overflow is reported by Rust's own handler, as untraced" {
	rust_run -u libc:getppid -- overflow
	[ "$plain_status" -eq 134 ]
	[ "$status" -eq "$plain_status" ]
	grep -Eqx "thread 'main' (\\([0-9]+\\) )?has overflowed its stack" <<<"$err"
	grep -qx '+++ killed by SIGABRT +++' <<<"$err"
}

@test "Rust: hello under -c, output unchanged, its calls counted" {
	rust_run -c -- hello
	[ "$status" -eq 0 ]
	[ "$out" = hello ]
	awk '$NF == "libc:write" && $(NF-2) >= 1 { found = 1 } END { exit !found }' <<<"$err" || { echo "$err"; false; }
	grep -Eq '^100\.00 .* total$' <<<"$err"
}

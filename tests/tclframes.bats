#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tclframes.bats: -k in Tcl 8.6: the procs that ran, "name (tcl)", in place of the run of libtcl frames.

load helpers

TCLSH=/usr/bin/tclsh8.6
SCRIPT="$SRCDIR/tests/tcl/frames.tcl"

setup() {
	setup_hermetic
	[ -x "$TCLSH" ] || skip "no $TCLSH (tcl8.6)"
}

# tclframes STACK: its lines, the Tcl frames as "name", the native ones as "native".
tclframes() {
	sed -E 's/^ *> (.*) \(tcl\)$/\1/; t; s/^ *> .*/native/' <<<"$1"
}

# run_frames [OPTIONS]: frames.tcl under ltruss -k OPTIONS, checked to print what it prints untraced.
run_frames() {
	run_split ltruss --stack=64 "$@" -u libc:access "$TCLSH" "$SCRIPT"
	[ "$status" -eq 0 ]
	[ "$out" = "$("$TCLSH" "$SCRIPT")" ]
}

# lines...: its arguments, one a line.
lines() {
	printf '%s\n' "$@"
}

@test "procs calling procs: each proc innermost first, in place of the libtcl frames, the program's own after" {
	run_frames
	stack=$(first_stack outer)
	[ "$(tclframes "$stack")" = "$(lines probe middle outer native)" ]
	! grep -q 'libtcl8\.6\.so' <<<"$stack"
	grep -q '^ > .*(/usr/bin/tclsh8\.6)$' <<<"$stack"
}

@test "apply: the lambda's frame is apply's" {
	run_frames
	[ "$(tclframes "$(first_stack apply)")" = "$(lines probe apply native)" ]
}

@test "uplevel: the proc that ran uplevel, not the level whose variables it used" {
	run_frames
	[ "$(tclframes "$(first_stack up)")" = "$(lines probe up native)" ]
}

@test "lsort -command: the comparison proc, called back by lsort" {
	run_frames
	[ "$(tclframes "$(first_stack lsort)")" = "$(lines probe cmp native)" ]
}

@test "a coroutine: the procs it runs, then its lambda" {
	run_frames
	[ "$(tclframes "$(first_stack coroutine)")" = "$(lines probe middle outer apply native)" ]
}

@test "a proc of a sourced file: its name, like any other" {
	run_frames
	[ "$(tclframes "$(first_stack sourced)")" = "$(lines probe loaded native)" ]
}

@test "--json: each Tcl frame is {func, tcl: its kind} in the stack array" {
	run_frames --json
	line=$(grep '"/nonexistent/apply' <<<"$err")
	jq -e '.stack[0] == {"func":"probe","tcl":"proc"} and .stack[1] == {"func":"apply","tcl":"lambda"} and (.stack[2].object | endswith("tclsh8.6"))' <<<"$line"
}

@test "--folded: the Tcl frames in the path, outermost first" {
	run_split ltruss -k -c --folded folded.txt -u libc:access "$TCLSH" "$SCRIPT"
	[ "$status" -eq 0 ]
	grep -q ';outer (tcl);middle (tcl);probe (tcl);libc:access [0-9]*$' folded.txt
}

@test "-w then --read on its own: the same Tcl frames as the live trace" {
	run_frames
	live=$err
	run_frames -w rec.ltr
	run_split ltruss --read rec.ltr -k
	[ "$status" -eq 0 ]
	for s in outer apply up lsort coroutine sourced; do
		[ "$(tclframes "$(first_stack "$s" "$out")")" = "$(tclframes "$(first_stack "$s" "$live")")" ]
	done
	[ "$(tclframes "$(first_stack coroutine "$out")")" = "$(lines probe middle outer apply native)" ]
}

@test "Tcl_CreateInterp selected with -k: traced whole through the hook, and its interpreter's procs still shown" {
	run_frames -u 'libtcl8.6:Tcl_CreateInterp'
	grep -Eq '^libtcl8\.6:Tcl_CreateInterp\(.*\) = 0x[0-9a-f]+$' <<<"$err"
	[ "$(tclframes "$(first_stack outer)")" = "$(lines probe middle outer native)" ]
}

@test "the offsets the interposer reads are those of the installed Tcl 8.6 headers" {
	inc=/usr/include/tcl8.6/tcl-private
	[ -f "$inc/generic/tclInt.h" ] || skip "no Tcl internal headers (tcl8.6-dev)"
	gcc -w -I"$inc/generic" -I"$inc/unix" -I"$SRCDIR/lib" \
		"$SRCDIR/tests/tcl/tcllayout-check.c" -o tcllayout-check
	run ./tcllayout-check
	assert_success
	assert_output --regexp '^8\.6\.[0-9]+: as the headers say$'
}

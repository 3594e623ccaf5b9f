#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tclframes.bats: -k in Tcl 8.6: the procs that ran, "name (file.tcl:line)", in place of the run of libtcl frames.

load helpers

TCLSH=/usr/bin/tclsh8.6
SCRIPT="$SRCDIR/tests/tcl/frames.tcl"

setup() {
	setup_hermetic
	[ -x "$TCLSH" ] || skip "no $TCLSH (tcl8.6)"
}

# tclframes STACK: its lines, a Tcl frame as "name (file.tcl:line)" or "name (tcl)", a native one as "native".
tclframes() {
	sed -E 's/^ *> (.*) \((.*\/)?([^/]+\.tcl:[0-9]+)\)$/\1 (\3)/; t; s/^ *> (.*) \(tcl\)$/\1 (tcl)/; t; s/^ *> .*/native/' <<<"$1"
}

# frames_of SCENARIO [TEXT]: the Tcl frames of SCENARIO's first call in TEXT ($err), as tclframes says.
frames_of() {
	tclframes "$(first_stack "$@")"
}

# at FUNC TAG [FILE]: "FUNC (FILE:N)", N the line of FILE (frames.tcl) marked "# @TAG".
at() {
	local file=${3:-frames.tcl}
	printf '%s (%s:%s)\n' "$1" "$file" "$(grep -n "# @$2\$" "$SRCDIR/tests/tcl/$file" | cut -d: -f1)"
}

# run_frames [OPTIONS]: frames.tcl under ltruss -k OPTIONS, checked to print what it prints untraced.
run_frames() {
	run_split ltruss --stack=64 "$@" -u libc:access "$TCLSH" "$SCRIPT"
	[ "$status" -eq 0 ]
	[ "$out" = "$("$TCLSH" "$SCRIPT")" ]
}

@test "procs calling procs: each proc at its line, innermost first, then the script's line, in place of the libtcl frames" {
	run_frames
	stack=$(first_stack outer)
	[ "$(tclframes "$stack")" = "$(at probe probe; at middle middle; at outer outer; at '<script>' top-outer; echo native)" ]
	! grep -q 'libtcl8\.6\.so' <<<"$stack"
	grep -q '^ > .*(/usr/bin/tclsh8\.6)$' <<<"$stack"
}

@test "apply: the lambda's frame is apply's, at the line of its body" {
	run_frames
	[ "$(frames_of apply)" = "$(at probe probe; at apply top-apply; at '<script>' top-apply; echo native)" ]
}

@test "uplevel: the proc that ran uplevel, at the uplevel, not the level whose variables it used" {
	run_frames
	[ "$(frames_of up)" = "$(at probe probe; at up up; at '<script>' top-up; echo native)" ]
}

@test "lsort -command: the comparison proc, called back by lsort" {
	run_frames
	[ "$(frames_of lsort)" = "$(at probe probe; at cmp cmp; at '<script>' top-lsort; echo native)" ]
}

@test "a coroutine: the procs it runs, then its lambda (no file: a string)" {
	run_frames
	[ "$(frames_of coroutine)" = "$(at probe probe; at middle middle; at outer outer; echo 'apply (tcl)'; echo native)" ]
}

@test "a sourced file: its top level and its procs at their lines in it, under the line that sourced it" {
	run_frames
	[ "$(frames_of sourced-top)" = "$(at probe probe; at '<script>' sourced-top sourced.tcl; at '<script>' top-source; echo native)" ]
	[ "$(frames_of sourced)" = "$(at probe probe; at loaded loaded sourced.tcl; at '<script>' top-loaded; echo native)" ]
}

@test "a file sourced from a proc: its own frame, above the proc's" {
	run_frames
	[ "$(frames_of loaded)" = "$(at probe probe; at '<script>' loaded-top loaded.tcl; at loader loader; at '<script>' top-loader; echo native)" ]
}

@test "--json: each Tcl frame is {func, tcl: its kind, file, line} in the stack array" {
	run_frames --json
	line=$(grep '"/nonexistent/apply' <<<"$err")
	jq -e --arg file "$SCRIPT" --argjson probe "$(grep -n '# @probe$' "$SCRIPT" | cut -d: -f1)" \
		'.stack[0] == {"func":"probe","tcl":"proc","file":$file,"line":$probe} and .stack[1].func == "apply" and .stack[1].tcl == "lambda" and .stack[2].tcl == "script" and (.stack[3].object | endswith("tclsh8.6"))' <<<"$line"
}

@test "--folded: the Tcl frames in the path, outermost first" {
	run_split ltruss -k -c --folded folded.txt -u libc:access "$TCLSH" "$SCRIPT"
	[ "$status" -eq 0 ]
	grep -q ";<script> ([^;]*frames.tcl:[0-9]*);outer ([^;]*frames.tcl:[0-9]*);middle ([^;]*);probe ([^;]*);libc:access [0-9]*\$" folded.txt
}

@test "-w then --read on its own: the same Tcl frames as the live trace" {
	run_frames
	live=$err
	run_frames -w rec.ltr
	run_split ltruss --read rec.ltr -k
	[ "$status" -eq 0 ]
	for s in outer apply up lsort coroutine sourced-top sourced loaded; do
		[ "$(frames_of "$s" "$out")" = "$(frames_of "$s" "$live")" ]
	done
	[ "$(frames_of outer "$out")" = "$(at probe probe; at middle middle; at outer outer; at '<script>' top-outer; echo native)" ]
}

@test "every libc call of a whole run under -k (start-up, exit): Tcl frames only of files that exist, at lines they have" {
	run_split ltruss -k -o trace -u 'libc:*' "$TCLSH" "$SCRIPT"
	[ "$status" -eq 0 ]
	[ "$out" = "$("$TCLSH" "$SCRIPT")" ]
	[ "$(grep -c '^libc:' trace)" -gt 1000 ]
	# Each Tcl frame with a line: a file of the run, within its lines.
	sed -nE 's/^ *> [^ ]+ \((\/[^:]+\.tcl):([0-9]+)\)$/\1 \2/p' trace | sort -u >where
	[ "$(wc -l <where)" -gt 10 ]
	while read -r file line; do
		[ -f "$file" ] && [ "$line" -ge 1 ] && [ "$line" -le "$(wc -l <"$file")" ] || { echo "$file:$line"; false; }
	done <where
}

@test "Tcl_CreateInterp selected with -k: traced whole through the hook, and its interpreter's procs still shown" {
	run_frames -u 'libtcl8.6:Tcl_CreateInterp'
	grep -Eq '^libtcl8\.6:Tcl_CreateInterp\(.*\) = 0x[0-9a-f]+$' <<<"$err"
	[ "$(frames_of outer)" = "$(at probe probe; at middle middle; at outer outer; at '<script>' top-outer; echo native)" ]
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

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# select.bats: one selection engine: a live trace, --list and --read -u pick the same calls.

load helpers

# The longnames fixture: a library whose soname has 70 characters (a short
# name of 67) and functions of 70, two alike in their first 63 bytes.
LIB=libltruss_fixture_whose_short_name_runs_past_sixty_three_bytes_long
SONAME=$LIB.so
F1=a_function_named_by_seventy_characters_to_run_past_the_63_byte_cut_one
F2=a_function_named_by_seventy_characters_to_run_past_the_63_byte_cut_two

# calls_of TEXT: the "lib:func" of each trace line in TEXT, sorted.
calls_of() {
	sed -n 's/^\([^:( ]*\):\([^(]*\)(.*/\1:\2/p' <<<"$1" | sort -u
}

# listed_of TEXT: the "lib:symbol" of each line of --list --json in TEXT, sorted.
listed_of() {
	sed -n 's/^{"lib":"\([^"]*\)".*"symbol":"\([^"]*\)".*/\1:\2/p' <<<"$1" | sort -u
}

# same_answers WANT RULE...: the live trace, --list and --read -u of a
# recording of everything the program calls, each with --from a.out and
# the rules, pick the calls WANT names (lib:func, one a line, sorted).
same_answers() {
	local want=$1 live listed read
	shift
	run_split ltruss --from a.out "$@" "$PROGS/longnames"
	[ "$status" -eq 0 ]
	[ "$out" = 12 ]
	live=$(calls_of "$err")
	run_split ltruss --list --json --from a.out "$@" "$PROGS/longnames"
	[ "$status" -eq 0 ]
	listed=$(listed_of "$out")
	run_split ltruss --read all.ltr "$@"
	[ "$status" -eq 0 ]
	read=$(calls_of "$out")
	echo "rules: $*"
	echo "live:"; echo "$live"
	echo "--list:"; echo "$listed"
	echo "--read -u:"; echo "$read"
	[ "$live" = "$want" ]
	[ "$listed" = "$want" ]
	[ "$read" = "$want" ]
}

@test "select: the live trace, --list and --read -u agree on names of 63 bytes and more" {
	local p63=${F1:0:63} l63=${LIB:0:63} all one
	[ ${#SONAME} -eq 70 ]
	[ ${#F1} -eq 70 ]
	[ ${#LIB} -gt 63 ]
	run_split ltruss -w all.ltr --from a.out -u '*' "$PROGS/longnames"
	[ "$status" -eq 0 ]
	[ "$out" = 12 ]
	all=$(printf '%s\n' "$LIB:$F1" "$LIB:$F2" "$LIB:short_one" | sort)
	one=$(printf '%s\n' "$LIB:$F1" "$LIB:short_one" | sort)
	# The whole short name, the soname, a glob on the first 63 bytes.
	same_answers "$all" -u "$LIB:*"
	same_answers "$all" -u "$SONAME:*"
	same_answers "$all" -u "$l63*:*"
	# The first 63 bytes alone are another name.
	same_answers "" -u "$l63:*"
	# The whole function name; its first 63 bytes as a glob, or alone.
	same_answers "$LIB:$F1" -u "*:$F1"
	same_answers "$(printf '%s\n' "$LIB:$F1" "$LIB:$F2" | sort)" -u "*:$p63*"
	same_answers "" -u "*:$p63"
	# The last rule that matches decides; '!' excludes.
	same_answers "$one" -u "$LIB:*" -u "!*:*_two"
	same_answers "$one" -u "!$l63*:*" -u "$LIB:*_one"
	same_answers "$LIB:short_one" -u "$LIB:*" -u "!$LIB:$p63*"
	# The path, as FNM_PATHNAME matches it.
	same_answers "$LIB:short_one" -u "$PROGS/$SONAME:short*"
	same_answers "" -u "/*/$SONAME:short*"
}

@test "select: names past 63 bytes are printed whole, live and read" {
	run_split ltruss -u "$LIB:$F1" "$PROGS/longnames"
	[ "$status" -eq 0 ]
	[ "$out" = 12 ]
	[ "$(normalize <<<"$err")" = "$LIB:$F1(0x1, ADDR, ADDR) = 0x2
+++ exited (status 0) +++" ]
	run_split ltruss -w f.ltr -u "$LIB:*" "$PROGS/longnames"
	[ "$status" -eq 0 ]
	run_split ltruss --read f.ltr -c -S name
	[ "$status" -eq 0 ]
	grep -q " 1 \+0 $LIB:$F1\$" <<<"$out"
	grep -q " 1 \+0 $LIB:short_one\$" <<<"$out"
}

@test "select: the interposer links the engine hidden, and exports the audit entry points only" {
	local so="$LTRUSS_TOP_BUILDDIR/lib/libltruss.so"
	nm "$so" | grep -q ' t sel_glob_match$'
	nm "$so" | grep -q ' t sel_rule_for$'
	run nm -D --defined-only "$so"
	[ "$status" -eq 0 ]
	[ "$(awk '{ print $3 }' <<<"$output" | sort | tr '\n' ' ')" = \
		"la_activity la_objclose la_objopen la_preinit la_symbind64 la_version " ]
}

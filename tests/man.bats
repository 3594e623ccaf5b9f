#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# man.bats: the man page renders without warnings and documents every option of --help.

load helpers

MANPAGE="$LTRUSS_TOP_BUILDDIR/man/ltruss.1"

@test "ltruss.1 renders with groff -ww without a warning" {
	run bash -c "groff -ww -man -Tutf8 '$MANPAGE' 2>&1 >/dev/null"
	assert_success
	assert_output ""
}

@test "ltruss.1 passes mandoc -Tlint" {
	run mandoc -Tlint -Wwarning "$MANPAGE"
	assert_success
	assert_output ""
}

@test "every option of --help is in ltruss.1, and the reverse" {
	help_opts=$("$LTRUSS" --help | grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' ,' | sort -u)
	man_opts=$(groff -man -Tascii -P-c -P-b -P-u "$MANPAGE" 2>/dev/null |
		sed -n '/^OPTIONS/,/^OUTPUT FORMAT/p' |
		grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' ,' | sort -u)
	[ -n "$help_opts" ]
	run diff <(echo "$help_opts") <(echo "$man_opts")
	assert_success
}

@test "ltruss.1 names the installed interposer and the version" {
	run grep -c '%[A-Z]*%' "$MANPAGE"
	assert_output 0
	grep -q "ltruss $("$LTRUSS" --version | cut -d' ' -f2)" "$MANPAGE"
}

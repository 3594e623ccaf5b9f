#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# man.bats: the man pages render without warnings, are installed, and document every option of --help and every key of a filter.

load helpers

MANPAGE="$LTRUSS_TOP_BUILDDIR/man/ltruss.1"
YAMLPAGE="$LTRUSS_TOP_BUILDDIR/man/ltruss.yaml.5"
TRACEPAGE="$LTRUSS_TOP_BUILDDIR/man/ltruss-trace.5"

# render PAGE: the page as plain text, without bold, underline or colour.
render() {
	groff -man -Tascii -P-c -P-b -P-u "$1" 2>/dev/null
}

# section PAGE FROM TO: the rendered lines from heading FROM to heading TO.
section() {
	render "$1" | sed -n "/^$2\$/,/^$3\$/p"
}

# config_keys: the keys the filter loader accepts, from the key tables of
# bin/config/config.c (static const char *const ...keys[] = { "...", ... };).
config_keys() {
	awk '/static const char \*const [a-z_]*keys\[\] = \{/, /\};/' \
		"$SRCDIR/bin/config/config.c" | grep -oE '"[a-z_]+"' | tr -d '"' | sort -u
}

@test "ltruss.1, ltruss.yaml.5 and ltruss-trace.5 render with groff -ww without a warning" {
	for page in "$MANPAGE" "$YAMLPAGE" "$TRACEPAGE"; do
		run bash -c "groff -ww -man -Tutf8 '$page' 2>&1 >/dev/null"
		assert_success
		assert_output ""
	done
}

@test "ltruss.1, ltruss.yaml.5 and ltruss-trace.5 pass mandoc -Tlint" {
	for page in "$MANPAGE" "$YAMLPAGE" "$TRACEPAGE"; do
		run mandoc -Tlint -Wwarning "$page"
		assert_success
		assert_output ""
	done
}

@test "every option of --help is in ltruss.1, and the reverse" {
	help_opts=$("$LTRUSS" --help | grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' ,' | sort -u)
	man_opts=$(section "$MANPAGE" OPTIONS 'OUTPUT FORMAT' |
		grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' ,' | sort -u)
	[ -n "$help_opts" ]
	run diff <(echo "$help_opts") <(echo "$man_opts")
	assert_success
}

@test "every key the filter loader accepts is in ltruss.yaml.5, and the reverse" {
	src_keys=$(config_keys)
	# The tables hold the top-level keys, a trace rule's and a type's:
	# fewer means they moved and config_keys must follow them.
	[ "$(wc -l <<<"$src_keys")" -ge 14 ]
	grep -qx trace <<<"$src_keys"
	grep -qx functions <<<"$src_keys"
	grep -qx mask <<<"$src_keys"
	# Each key has an entry "KEY: ..." of its own in KEYS.
	man_keys=$(section "$YAMLPAGE" KEYS PROTOTYPES |
		sed -nE 's/^ +([a-z_]+):.*/\1/p' | sort -u)
	run diff <(echo "$src_keys") <(echo "$man_keys")
	assert_success
}

@test "every page has its paths and the version filled in" {
	run grep -cE '%[A-Z_]+%' "$MANPAGE" "$YAMLPAGE" "$TRACEPAGE"
	assert_output "$MANPAGE:0
$YAMLPAGE:0
$TRACEPAGE:0"
	version=$("$LTRUSS" --version | cut -d' ' -f2)
	grep -q "ltruss $version" "$MANPAGE"
	grep -q "ltruss $version" "$YAMLPAGE"
	grep -q "ltruss $version" "$TRACEPAGE"
}

@test "make install puts the pages where man finds them, and man -l renders them" {
	run make -s -C "$LTRUSS_TOP_BUILDDIR" install-man DESTDIR="$BATS_TEST_TMPDIR/dest"
	assert_success
	man1=$(find "$BATS_TEST_TMPDIR/dest" -path '*/man1/ltruss.1')
	man5=$(find "$BATS_TEST_TMPDIR/dest" -path '*/man5/ltruss.yaml.5')
	[ -f "$man1" ]
	[ -f "$man5" ]
	run_split env MANWIDTH=80 man -l "$man1"
	[ "$status" -eq 0 ]
	[ -z "$err" ]
	grep -q '^NAME' <<<"$out"
	grep -q 'ltruss - trace the calls a program makes into shared libraries' <<<"$out"
	run_split env MANWIDTH=80 man -l "$man5"
	[ "$status" -eq 0 ]
	[ -z "$err" ]
	grep -q '^PROTOTYPES' <<<"$out"
	trace5=$(find "$BATS_TEST_TMPDIR/dest" -path '*/man5/ltruss-trace.5')
	run_split env MANWIDTH=80 man -l "$trace5"
	[ "$status" -eq 0 ]
	[ -z "$err" ]
	grep -q '^ *1 TABLES' <<<"$out"
}

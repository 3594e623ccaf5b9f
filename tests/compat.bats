#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# compat.bats: every ltruss reads every trace file of format version 6 and
# later (ltruss-trace(5)).  tests/data/ keeps recordings of each version
# (maint/trace-corpus made them with the ltruss of that version) and what
# --read printed of them then, with several option sets.

load helpers

DATA="$SRCDIR/tests/data"

# read_as LTRUSS EXPECTED: --read of EXPECTED's trace with each option set
# of EXPECTED ("### SET" lines) by LTRUSS, into the same form.
read_as() {
	local ltruss=$1 expected=$2 file set
	file=$(basename "${expected%.expected}.ltr")
	sed -n 's/^### //p' "$expected" | while IFS= read -r set; do
		echo "### $set"
		(set -f; cd "$DATA" &&
			{ "$ltruss" --read "$file" $set 2>&1 && s=0 || s=$?; } &&
			echo "status $s")
	done
}

# check_corpus LTRUSS: every file of tests/data/ reads as it did.
check_corpus() {
	local expected n=0
	export TZ=UTC
	for expected in "$DATA"/v*.expected; do
		[ -f "${expected%.expected}.ltr" ]
		diff -u "$expected" <(read_as "$1" "$expected") || return 1
		n=$((n + 1))
	done
	# One of each version from 6 on, three recordings of version 6.
	[ "$n" -ge 3 ]
}

@test "the trace files of every format version from 6 on read as they did when they were recorded" {
	check_corpus "$LTRUSS"
	# Each file is of the version its name says.
	for f in "$DATA"/v*.ltr; do
		v=${f##*/v}
		[ "$(od -An -tu4 -j 8 -N 4 "$f" | tr -d ' ')" = "${v%%-*}" ]
	done
}

@test "an ltruss whose session has another layout and version reads them the same (LTR_SESSION_RELAYOUT)" {
	make -s -C "$LTRUSS_TOP_BUILDDIR" tests/progs/bin/ltruss-relayout >/dev/null
	relayout="$PROGS/ltruss-relayout"
	# Another session version than ours, and the layout that goes with it.
	mine=$("$LTRUSS" --version | sed -n 's/^session version: //p')
	[ -n "$mine" ]
	[ "$("$relayout" --version | sed -n 's/^session version: //p')" = $((mine + 1000)) ]
	check_corpus "$relayout"
}

@test "a record of a kind this ltruss does not know is skipped with one warning, the rest read" {
	# A TABLES block with a record of type 200 put before the first block
	# of the typed recording (ltr-mutate unknown-record).
	"$PROGS/ltr-mutate" "$DATA/v6-typed.ltr" u.ltr unknown-record
	run_split ltruss --read u.ltr
	[ "$status" -eq 0 ]
	# The warning, then what a read of the file as recorded says (that the
	# program it recorded is gone: see maint/trace-corpus).
	assert_equal "$err" "ltruss: warning: the trace file 'u.ltr' has records of a kind this ltruss does not know (type 200 at byte 416, maybe more): skipped; a newer ltruss may show more
$(cd "$DATA" && "$LTRUSS" --read v6-typed.ltr 2>&1 >/dev/null)"
	assert_equal "$out" "$(cd "$DATA" && "$LTRUSS" --read v6-typed.ltr 2>/dev/null)"
}

@test "a file of a later format version: one error line naming the versions this ltruss reads, exit 2" {
	cp "$DATA/v6-procs.ltr" t.ltr
	printf '\x63' | dd of=t.ltr bs=1 seek=8 conv=notrunc status=none
	run ltruss --read t.ltr
	assert_failure 2
	version=$(sed -nE 's/^This page describes format version ([0-9]+), .*/\1/p' "$SRCDIR/man/ltruss-trace.5.in")
	assert_output "ltruss: error: cannot read the trace file 't.ltr': it is format version 99, this ltruss reads versions 6 to $version; read it with a newer ltruss"
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# playback.bats: --read FILE --playback OUT.c writes a program that makes
# the recorded library calls again and checks their results (ltruss(1)).

load helpers

SQL=(-u 'libsqlite3*')

# play NAME ARGS...: record ARGS whole (-w --whole) into NAME.ltr, write
# its playback of $SQL's library into NAME.c ($pb_err: what --playback
# said) and build it.
play() {
	local name=$1
	shift
	run_split ltruss -w "$name.ltr" --whole "$@"
	[ "$status" -eq 0 ] || { echo "$err"; false; }
	run_split ltruss --read "$name.ltr" "${SQL[@]}" --playback "$name.c"
	[ "$status" -eq 0 ] || { echo "$err"; false; }
	pb_err=$err
	"${CC:-cc}" -Wall -Werror -o "$name" "$name.c" -lsqlite3 -lz
}

# record FILE ARGS...: record ARGS into FILE; it must succeed.
record() {
	local file=$1
	shift
	run_split ltruss -w "$file" "$@"
	[ "$status" -eq 0 ]
}

# runs_as_recorded NAME: the playback NAME ends well, and is traced again
# into again.ltr.
runs_as_recorded() {
	local n
	run_split "./$1"
	[ "$status" -eq 0 ]
	n=$(ltruss --read "$1.ltr" "${SQL[@]}" --json | grep -c '^{"type":"call"')
	assert_equal "$err" "playback: $n calls, every result as recorded"
	run_split ltruss -w again.ltr "${SQL[@]}" "./$1"
	[ "$status" -eq 0 ]
}

# calls FILE: the recorded calls of $SQL's library in FILE, addresses out.
calls() {
	ltruss --read "$1" "${SQL[@]}" | normalize
}

@test "a sqlite3 client played back makes the same calls with the same values and results" {
	play client "${SQL[@]}" "$PROGS/sqlite-client"
	[ -z "$pb_err" ]
	grep -q '^ \* Every call is played as recorded\.$' client.c
	grep -q '^ \* Build: cc client.c -lsqlite3$' client.c
	runs_as_recorded client
	# Traced again: the same calls, arguments and results, but for the addresses.
	diff -u <(calls client.ltr) <(calls again.ltr)
	# What the calls were about: text, doubles, a blob with NULs, columns.
	calls client.ltr | grep -qxF 'libsqlite3:sqlite3_bind_blob(ADDR, 3, "\0\1\2\377\"\0\a", 7, NULL) = 0'
	calls client.ltr | grep -qxF 'libsqlite3:sqlite3_column_text(ADDR, 1) = "name-2"'
	calls client.ltr | grep -qxF 'libsqlite3:sqlite3_bind_double(ADDR, 2, 1.5) = 0'
}

@test "a zlib stream played back: deflate in chunks, inflate back, the same calls, values and results" {
	SQL=(-u 'libz*')
	run_split "$PROGS/zlib-stream"
	assert_equal "$out" "20000 bytes -> 11615 bytes -> 20000 bytes, the same"
	play z "${SQL[@]}" "$PROGS/zlib-stream"
	[ -z "$pb_err" ]
	grep -q '^ \* Build: cc z.c -lz$' z.c
	# Several chunks each way, each call's z_stream checked on return.
	[ "$(calls z.ltr | grep -c '^libz:deflate(')" -gt 3 ]
	[ "$(calls z.ltr | grep -c '^libz:inflate(')" -gt 3 ]
	grep -q 'ltr_check_word([0-9]*, "inflate", 1, 40, ' z.c
	runs_as_recorded z
	diff -u <(calls z.ltr) <(calls again.ltr)
	# Against a zlib that compresses otherwise: the first deflate that shows it.
	run_split env LD_PRELOAD="$PROGS/libpbshim.so" ./z
	[ "$status" -eq 1 ]
	[[ "$err" =~ ^"playback: call "[0-9]+", deflate: "(expected|argument\ 1\ at\ byte\ [0-9]+:\ expected)\ [0-9]+", got "[0-9]+$ ]] || { echo "$err"; false; }
}

@test "a playback against a library that returns something else names the first difference and exits 1" {
	play client "${SQL[@]}" "$PROGS/sqlite-client"
	# The shim adds 1000 to column 0: the first such call, by its number.
	n=$(calls client.ltr | grep -n 'sqlite3_column_int(ADDR, 0)' | head -1 | cut -d: -f1)
	[ -n "$n" ]
	run_split env LD_PRELOAD="$PROGS/libpbshim.so" ./client
	[ "$status" -eq 1 ]
	assert_equal "$err" "playback: call $n, sqlite3_column_int: expected 1, got 1001"
}

@test "a callback into the program is said in the file and on stderr, and played as a stub" {
	play cb "${SQL[@]}" "$PROGS/sqlite-client" callback
	n=$(calls cb.ltr | grep -n 'sqlite3_exec(ADDR, "SELECT name FROM t"' | cut -d: -f1)
	[ -n "$n" ]
	line="call $n sqlite3_exec: argument 3 is a callback into the program (row): played as a stub that returns 0"
	assert_equal "$pb_err" "ltruss: warning: playback: $line"
	grep -qxF " *   $line" cb.c
	grep -qxF "	/* $line */" cb.c
	run_split ./cb
	[ "$status" -eq 0 ]
	assert_equal "$err" "playback: $(calls cb.ltr | grep -c '^libsqlite3:') calls, every result as recorded"
}

@test "each recorded thread's calls are a function of the playback, the threads played one after the other" {
	play th "${SQL[@]}" "$PROGS/sqlite-client" thread
	[ -z "$pb_err" ]
	[ "$(grep -c '^static void thread_[0-9]*(void)$' th.c)" -eq 2 ]
	runs_as_recorded th
	# Traced again (one thread): each recorded thread's calls in their
	# order, the threads in the order of their first calls.
	by_thread() {
		ltruss --read "$1" "${SQL[@]}" --json |
			jq -r 'select(.type == "call") | "\(.tid) \(.func)(\(.args | map(tostring) | join(", "))) = \(.ret)"' |
			normalize | awk '{ if (!($1 in rank)) rank[$1] = n++; print rank[$1] "\t" $0 }' |
			sort -s -n -k1,1 | cut -f2- | cut -d' ' -f2-
	}
	diff -u <(by_thread th.ltr) <(by_thread again.ltr)
	[ "$(by_thread th.ltr | grep -c 'count(\*)')" -eq 1 ]
}

@test "a [format] call is played with its varargs; what cannot be played is left out, said and counted" {
	typed=(-u 'libtyped:*,!ty_callback')
	record ty.ltr --whole -F "$SRCDIR/tests/progs/typed/typed.yaml" "${typed[@]}" "$PROGS/typed"
	ltruss --read ty.ltr | grep -qF 'libtyped:ty_print("%d|%s|%5.2f|%c|%lu|%x|%p|%%|%s|%"..., -42, "str", 3.14159'
	run_split ltruss --read ty.ltr "${typed[@]}" --playback ty.c
	[ "$status" -eq 0 ]
	assert_equal "$err" "ltruss: warning: playback: call 1 ty_string: argument 1 points to memory the recording does not hold: left out
ltruss: warning: playback: call 6 ty_ldouble: argument 1 is a long double: left out"
	grep -q '^ \* Build: cc ty.c -ltyped$' ty.c
	grep -q 'ltr_check_int([0-9]*, "ty_print", (int32_t)INT64_C(42), ty_print(a[0-9_]*, INT64_C([0-9]*), a' ty.c
	"${CC:-cc}" -Wall -Werror -o ty ty.c -L"$PROGS" -Wl,-rpath,"$PROGS" -ltyped
	run_split ./ty
	[ "$status" -eq 0 ]
	n=$(ltruss --read ty.ltr "${typed[@]}" | grep -c '^libtyped:')
	assert_equal "$err" "playback: $n calls, 2 of them left out (see ty.c), every result of the others as recorded"
	# A path that C comments and strings would take for their own.
	mkdir 'odd*'
	ltruss --read ty.ltr "${typed[@]}" --playback 'odd*/a%s"b.c' 2>/dev/null
	"${CC:-cc}" -Wall -Werror -o odd 'odd*/a%s"b.c' -L"$PROGS" -Wl,-rpath,"$PROGS" -ltyped
	run_split ./odd
	assert_equal "$err" "playback: $n calls, 2 of them left out (see odd*/a%s\"b.c), every result of the others as recorded"
}

@test "without --whole, a string cut at -s is played cut and said so" {
	record cut.ltr "${SQL[@]}" "$PROGS/sqlite-client"
	run_split ltruss --read cut.ltr "${SQL[@]}" --playback cut.c
	[ "$status" -eq 0 ]
	cut="a string was cut at 32 bytes when recorded (record with -w FILE --whole): played cut"
	assert_equal "$err" "ltruss: warning: playback: call 2 sqlite3_exec: $cut
ltruss: warning: playback: call 3 sqlite3_prepare_v2 (and later calls): $cut"
	grep -qF 'call 2 sqlite3_exec: a string was cut at 32 bytes' cut.c
}

@test "-w --whole copies strings whole but --read prints them at -s, as without it" {
	record whole.ltr --whole "${SQL[@]}" "$PROGS/sqlite-client"
	record plain.ltr "${SQL[@]}" "$PROGS/sqlite-client"
	diff -u <(calls plain.ltr) <(calls whole.ltr)
	calls whole.ltr | grep -qxF 'libsqlite3:sqlite3_exec(ADDR, "CREATE TABLE t(id INTEGER PRIMAR"..., NULL, NULL, NULL) = 0'
	# Whole in the program played back from it.
	run_split ltruss --read whole.ltr "${SQL[@]}" --playback whole.c
	grep -qF '"CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, da"' whole.c
}

@test "--playback needs --read and no trace option, --whole needs -w, an unwritable OUT.c: one error line, exit 2" {
	run ltruss --playback x.c "$PROGS/sqlite-client"
	assert_failure 2
	assert_output "ltruss: error: --playback writes a program from a recording: give it with --read FILE; see 'ltruss --help'"
	run ltruss --whole "$PROGS/sqlite-client"
	assert_failure 2
	assert_output "ltruss: error: --whole copies strings and buffers whole into a trace file: give it with -w FILE; see 'ltruss --help'"
	record t.ltr "${SQL[@]}" "$PROGS/sqlite-client"
	run ltruss --read t.ltr --playback x.c --json
	assert_failure 2
	assert_output "ltruss: error: --playback writes a program, not a trace: --json cannot be used with it; see 'ltruss --help'"
	[ ! -e x.c ]
	run ltruss --read t.ltr --playback nodir/x.c
	assert_failure 2
	assert_output "ltruss: error: cannot write the playback program 'nodir/x.c' (--playback): No such file or directory"
}

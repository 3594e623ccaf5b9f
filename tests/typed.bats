#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# typed.bats: arguments and return values printed by their prototypes
# (ltruss.yaml(5), PROTOTYPES): strings, floats, flags, errno, output
# arguments, printf varargs, on a fixture library of every kind and on real
# programs.

load helpers

TYPED_YAML="$SRCDIR/tests/progs/typed/typed.yaml"

# typed_trace [OPTIONS]: trace the typed fixture; its lines in $err.
typed_trace() {
	run_split ltruss -F "$TYPED_YAML" "$@" "$PROGS/typed"
	[ "$status" -eq 0 ]
	# the program's own output is unchanged by tracing
	[ "$out" = "$("$PROGS/typed")" ]
}

@test "strings are quoted and escaped; NULL and bad pointers do not crash" {
	typed_trace
	grep -qxF 'libtyped:ty_string("tab\there \"q\" \\ nl\n\1") = 1' <<<"$err"
	run grep -c '^libtyped:ty_string(NULL) = 0$' <<<"$err"
	[ "$output" -eq 1 ]
	grep -qx 'libtyped:ty_string(0x10) = 1' <<<"$err"
}

@test "every byte value, at every place of a word and before a digit, escapes as strace does" {
	# Bytes 1 to 255 at shifting offsets, each also before '1' and 'a',
	# and runs of plain bytes between: strchr(argv[1], '=') of printenv.
	/usr/bin/python3 - >s.bin <<-'EOF'
	import sys
	s = bytearray()
	for c in range(1, 256):
	    if c == ord('='):
	        continue
	    s += b'plain'[:c % 6] + bytes([c]) + b'1' + bytes([c]) + b'a'
	    s += b'0123456789abcdef'[:c % 17]
	sys.stdout.buffer.write(s)
	EOF
	/usr/bin/python3 - >want <<-'EOF'
	s = open('s.bin', 'rb').read()
	names = {7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r',
	         34: '"', 92: '\\'}
	out = ''
	for i, c in enumerate(s):
	    digit = i + 1 < len(s) and 0x30 <= s[i + 1] <= 0x37
	    if c in names:
	        out += '\\' + names[c]
	    elif 0x20 <= c < 0x7f:
	        out += chr(c)
	    elif c >= 0o100 or digit:
	        out += '\\%03o' % c
	    elif c >= 0o10:
	        out += '\\%02o' % c
	    else:
	        out += '\\%o' % c
	print('libc:strchr("%s", 61) = NULL' % out)
	EOF
	run_split ltruss -s 4096 -u libc:strchr printenv "$(cat s.bin)"
	[ "$status" -eq 1 ]
	[ "$(grep '^libc:strchr("p' <<<"$err")" = "$(cat want)" ]
}

@test "-s cuts strings and marks the cut" {
	typed_trace
	grep -qx 'libtyped:ty_string("01234567890123456789012345678901"...) = 1' <<<"$err"
	typed_trace -s 5
	grep -qx 'libtyped:ty_string("01234"...) = 1' <<<"$err"
	typed_trace -s 100
	grep -qx 'libtyped:ty_string("0123456789012345678901234567890123456789") = 1' <<<"$err"
}

@test "floats, doubles, long doubles and doubles past the registers" {
	typed_trace
	grep -qx 'libtyped:ty_floats(1.5, 0.25, 3) = 4.75' <<<"$err"
	grep -qx 'libtyped:ty_ldouble(1.25) = 2.5' <<<"$err"
	grep -qx 'libtyped:ty_many_doubles(1, 2, 3, 4, 5, 6, 7, 8, 9.5) = 45.5' <<<"$err"
}

@test "integers of every width, bool, char, and arguments on the stack" {
	typed_trace
	grep -qx "libtyped:ty_small(-1, 65535, 1099511627776) = 65534" <<<"$err"
	grep -qx 'libtyped:ty_bool(true) = false' <<<"$err"
	grep -qx "libtyped:ty_char('a') = 'b'" <<<"$err"
	grep -qx 'libtyped:ty_many(1, 2, 3, 4, 5, 6, 7, "eight") = 33' <<<"$err"
}

@test "output arguments are printed on return" {
	typed_trace
	grep -qx 'libtyped:ty_out_int(\[42\]) = 0' <<<"$err"
	grep -qxF 'libtyped:ty_fill("filled\tin\n", 64) = 10' <<<"$err"
}

@test "a call shown before it returns, its arguments before the output one all hidden by [if:]: no stray comma" {
	run_split ltruss -F "$TYPED_YAML" "$PROGS/typed" wait
	[ "$status" -eq 0 ]
	assert_equal "$out" "$(printf '0 5\n0 6')"
	assert_equal "$err" "$(printf '%s\n' 'libtyped:ty_wait_out([5], 0) = 0' \
		'libtyped:ty_wait_out(5, [6], TY_SHOW) = 0' '+++ exited (status 0) +++')"
}

@test "output arguments of a call with traced calls nested inside are in its closing line" {
	typed_trace -u 'libc:getpid'
	grep -A2 -x 'libtyped:ty_fill_nested(0x[0-9a-f]*, 64) {' <<<"$err" >nested
	sed -n 2p nested | grep -Eqx '  libc:getpid\(\) = [0-9]+'
	[ "$(sed -n 3p nested)" = '} libtyped:ty_fill_nested("filled\tin\n", 64) = 10' ]
}

@test "a char * without const is a buffer: shown as the call left it, a const char * as it came in" {
	# Python's os.getcwd() hands getcwd a buffer that holds nothing yet.
	cd "$BATS_TEST_TMPDIR"
	run_split ltruss -u libc:getcwd /usr/bin/python3 -c 'import os; print(os.getcwd())'
	[ "$status" -eq 0 ]
	[ "$out" = "$BATS_TEST_TMPDIR" ]
	grep -qxF "libc:getcwd(\"$BATS_TEST_TMPDIR\", 1024) = \"$BATS_TEST_TMPDIR\"" <<<"$err"
	run_split ltruss -u libc:gethostname hostname
	[ "$status" -eq 0 ]
	[ "$out" = "$(hostname)" ]
	[[ "$err" == "libc:gethostname(\"$(hostname)\", "[0-9]*") = 0"$'\n'* ]]
	# An input string is read at entry: the same program's chdir.
	run_split ltruss -u libc:chdir /usr/bin/python3 -c 'import os; os.chdir("/")'
	grep -qxF 'libc:chdir("/") = 0' <<<"$err"
}

@test "a flags value of 0 has its name where the headers give one: F_OK, PROT_NONE" {
	script='import os, mmap
print(os.access("/", os.F_OK), os.access("/nonexistent", os.R_OK | os.W_OK))
mmap.mmap(-1, 4096, prot=0)'
	run_split ltruss -u 'libc:access,mmap*' /usr/bin/python3 -c "$script"
	[ "$status" -eq 0 ]
	[ "$out" = "$(/usr/bin/python3 -c "$script")" ]
	grep -qxF 'libc:access("/", F_OK) = 0' <<<"$err"
	grep -qxF 'libc:access("/nonexistent", R_OK|W_OK) = -1 ENOENT (No such file or directory)' <<<"$err"
	grep -Eqx 'libc:mmap(64)?\(NULL, 4096, PROT_NONE, MAP_SHARED\|MAP_ANONYMOUS, -1, 0\) = 0x[0-9a-f]+' <<<"$err"
}

@test "file modes print in octal: umask, mkdir, chmod, fchmod, open with O_CREAT" {
	script='import os
old = os.umask(0o22)
os.mkdir("d", 0o755)
os.chmod("d", 0o700)
fd = os.open("f", os.O_WRONLY | os.O_CREAT, 0o640)
os.close(os.open("/", os.O_RDONLY))
os.fchmod(fd, 0o4711)
os.umask(old)
print(oct(os.stat("d").st_mode & 0o7777), oct(os.stat("f").st_mode & 0o7777))'
	run_split ltruss -u 'libc:umask,mkdir,chmod,fchmod,open*' /usr/bin/python3 -c "$script"
	[ "$status" -eq 0 ]
	[ "$out" = "0o700 0o4711" ]
	grep -Eqx 'libc:umask\(022\) = 0[0-7]+' <<<"$err"
	grep -qxF 'libc:mkdir("d", 0755) = 0' <<<"$err"
	grep -qxF 'libc:chmod("d", 0700) = 0' <<<"$err"
	grep -Eqx 'libc:fchmod\([0-9]+, 04711\) = 0' <<<"$err"
	grep -Eqx 'libc:umask\([0-7]+\) = 022' <<<"$err"
	# open's mode, only when the flags make the call use it
	grep -Eqx 'libc:open(64)?\("f", O_WRONLY\|O_CREAT\|O_CLOEXEC, 0640\) = [0-9]+' <<<"$err"
	grep -Eqx 'libc:open(64)?\("/", O_RDONLY\|O_CLOEXEC\) = [0-9]+' <<<"$err"
}

@test "openat's mode in octal, only when its flags use it" {
	script='import os
d = os.open(".", os.O_RDONLY)
os.close(os.open("g", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=d))
os.close(os.open("g", os.O_RDONLY, dir_fd=d))
print(oct(os.stat("g").st_mode & 0o777))'
	run_split ltruss -u 'libc:openat*' /usr/bin/python3 -c "$script"
	[ "$status" -eq 0 ]
	[ "$out" = "0o600" ]
	grep -Eqx 'libc:openat(64)?\([0-9]+, "g", O_WRONLY\|O_CREAT\|O_CLOEXEC, 0600\) = [0-9]+' <<<"$err"
	grep -Eqx 'libc:openat(64)?\([0-9]+, "g", O_RDONLY\|O_CLOEXEC\) = [0-9]+' <<<"$err"
}

@test "ls -ld: statx with its flags and mask by name, and errno when it fails; -c counts the error" {
	# The trace to a file: ls writes its "cannot access" message in
	# pieces to the stderr the trace would share, and a line may land
	# between them.
	run_split ltruss -o trace -u 'libc:statx' ls -ld /nonexistent / /usr
	[ "$status" -eq 2 ]
	[ "$out" = "$(ls -ld /nonexistent / /usr 2>/dev/null)" ]
	grep -Eqx 'libc:statx\(AT_FDCWD, "/nonexistent", AT_SYMLINK_NOFOLLOW\|AT_NO_AUTOMOUNT, STATX_[A-Z|_]+, 0x[0-9a-f]+\) = -1 ENOENT \(No such file or directory\)' trace
	grep -Eqx 'libc:statx\(AT_FDCWD, "/", AT_SYMLINK_NOFOLLOW\|AT_NO_AUTOMOUNT, STATX_[A-Z|_]+, 0x[0-9a-f]+\) = 0' trace
	run_split ltruss -c -u 'libc:statx' ls -ld /nonexistent / /usr
	grep -Eq ' 3 +1 libc:statx$' <<<"$err"
}

@test "flags and enums by named type" {
	typed_trace
	grep -qx 'libtyped:ty_flags(TY_WRONLY|TY_CREAT|TY_APPEND) = 1089' <<<"$err"
	grep -qx 'libtyped:ty_flags(TY_RDONLY) = 0' <<<"$err"
}

@test "errno of a failed call, and error numbers returned (pthread style)" {
	typed_trace
	grep -qx 'libtyped:ty_fail(2) = -1 ENOENT (No such file or directory)' <<<"$err"
	grep -qx 'libtyped:ty_errnum(11) = 11 EAGAIN (Resource temporarily unavailable)' <<<"$err"
	# and the summary counts them as errors
	run_split ltruss -c -F "$TYPED_YAML" "$PROGS/typed"
	grep -Eq ' 1 +1 libtyped:ty_fail$' <<<"$err"
	grep -Eq ' 1 +0 libtyped:ty_string$|  4 +0 libtyped:ty_string$' <<<"$err"
}

@test "function pointers print as symbol names; strings returned are copied" {
	typed_trace
	grep -qx 'libtyped:ty_callback(twice, 21) = 42' <<<"$err"
	grep -qxF 'libtyped:ty_name(1) = "one\1"' <<<"$err"
	grep -qx 'libtyped:ty_name(0) = NULL' <<<"$err"
}

@test "printf varargs are decoded from the format" {
	typed_trace
	grep -qxF 'libtyped:ty_print("%d|%s|%5.2f|%c|%lu|%x|%p|%%|%s|%"..., -42, "str", 3.14159, '"'z'"', 10, 0xff, NULL, NULL, 4, 7) = 42' <<<"$err"
}

@test "--json carries the printed values, ret and errno" {
	run_split ltruss --json -F "$TYPED_YAML" "$PROGS/typed"
	[ "$status" -eq 0 ]
	line=$(grep '"func":"ty_fail"' <<<"$err")
	[ "$(jq -c '[.args, .ret, .errno]' <<<"$line")" = '[["2"],"-1","ENOENT"]' ]
	run jq -r 'select(.func == "ty_string") | .args[0]' <<<"$err"
	assert_line --index 2 '"tab\there \"q\" \\ nl\n\1"'
	assert_line --index 1 'NULL'
	assert_line --index 0 '0x10'
}

@test "--json: an object longer than ltruss's 64 KiB line buffer is written whole" {
	# printf with five strings of 4096 bytes 0xff at -s 4096: each shows
	# as 16384 characters of \377, one object of about 100 KB.
	run_split ltruss --json -s 4096 -o trace.json -u 'libc:printf' \
		/usr/bin/python3 -c 'import ctypes; s = b"\xff" * 4096
ctypes.CDLL(None).printf(b"%s%s%s%s%s\n", s, s, s, s, s)'
	[ "$status" -eq 0 ]
	run jq -c 'select(.func == "printf") | [(.args[1:][] | length), (.args[1] | test("^\"(\\\\377){4096}\"$"))]' trace.json
	[ "$output" = '[16386,16386,16386,16386,16386,true]' ]
}

NUMBERS_YAML="$SRCDIR/tests/progs/typed/numbers.yaml"

@test "integers and pointers at their limits print as printf prints them, text and --json" {
	# numbers prints each call it makes as it should show: every integer
	# size signed and unsigned (registers holding bits above the type),
	# INT64_MIN, UINT64_MAX, 0, digit-count and hex-word boundaries.
	run_split ltruss -F "$NUMBERS_YAML" "$PROGS/numbers"
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PROGS/numbers")" ]
	diff <(grep -v '^+++' <<<"$err" | sed 's/^libnumbers://') - <<<"$out"
	run_split ltruss --json -F "$NUMBERS_YAML" "$PROGS/numbers"
	[ "$status" -eq 0 ]
	diff <(jq -r 'select(.type == "call") | "\(.func)(\(.args | join(", "))) = \(.ret)"' <<<"$err") - <<<"$out"
}

@test "--json strings hold the text's value, whatever it escapes, at every -s" {
	# Strings of quotes, backslashes, control bytes (one before a digit),
	# UTF-8 and DEL in runs of every length: a --json value is the text
	# line's value as a JSON string, which jq must read back.
	for s in 32 5 4096; do
		run_split ltruss -s "$s" -F "$NUMBERS_YAML" "$PROGS/numbers" strings
		[ "$status" -eq 0 ]
		sed -n 's/^libnumbers:num_str(\(.*\)) = [0-9]*$/\1/p' <<<"$err" >text.$s
		[ "$(wc -l <text.$s)" -eq 130 ]
		run_split ltruss -s "$s" --json -F "$NUMBERS_YAML" "$PROGS/numbers" strings
		[ "$status" -eq 0 ]
		jq -r 'select(.func == "num_str") | .args[0]' <<<"$err" >json.$s
		diff text.$s json.$s
	done
	# cut strings, and values with few and with many bytes to escape
	grep -q '"\.\.\.$' text.32
	# (a --json value escapes up to 16 where it is printed: both sides)
	read -r few many < <(awk '{ n = gsub(/["\\]/, "&"); if (NR == 1 || n < lo) lo = n; if (n > hi) hi = n } END { print lo, hi }' text.4096)
	[ "$few" -le 16 ]
	[ "$many" -gt 17 ]
}

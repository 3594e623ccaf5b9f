#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# cli.bats: --help, --version and command-line errors (exit 2, one clear line).

load helpers

@test "--version prints the package version" {
	run ltruss --version
	assert_success
	# build-aux/git-version-gen's, as configure took it: a release
	# (0.1.0), or between releases (0.1.0~436.g3677258, 0.1.0+5.gabc1234)
	assert_line --index 0 "ltruss $(sed -n 's/^PACKAGE_VERSION = //p' "$LTRUSS_TOP_BUILDDIR/Makefile")"
	assert_line --index 0 --regexp '^ltruss [0-9]+\.[0-9]+\.[0-9]+([~+][0-9]+\.g[0-9a-f]+)?(\.dirty)?$'
}

@test "-V is --version" {
	run ltruss -V
	assert_success
	assert_output --partial 'ltruss '
}

@test "--help shows usage on stdout and exits 0" {
	run_split ltruss --help
	[ "$status" -eq 0 ]
	[[ "$out" == Usage:\ ltruss* ]]
	[[ "$out" == *"-u [!]LIB"* ]]
	[ -z "$err" ]
}

@test "no command is an error" {
	run ltruss
	assert_failure 2
	assert_output "ltruss: error: no command to trace; see 'ltruss --help'"
}

@test "unknown short option is an error" {
	run ltruss -Q true
	assert_failure 2
	assert_output "ltruss: error: unknown option '-Q'; see 'ltruss --help'"
}

@test "unknown long option is an error" {
	run ltruss --frobnicate true
	assert_failure 2
	assert_output "ltruss: error: unknown option '--frobnicate'; see 'ltruss --help'"
}

@test "missing option argument is an error" {
	run ltruss true -u
	# options stop at the command: '-u' is the command's argument here
	assert_success
	run ltruss -u
	assert_failure 2
	assert_output "ltruss: error: option '-u' needs an argument; see 'ltruss --help'"
}

@test "-D needs a positive number" {
	run ltruss -D x true
	assert_failure 2
	assert_output "ltruss: error: -D needs a number, not 'x'; see 'ltruss --help'"
	run ltruss -D 0 true
	assert_failure 2
	assert_output "ltruss: error: -D needs a depth of at least 1; see 'ltruss --help'"
	run ltruss --depth -3 true
	assert_failure 2
	assert_output --partial "-D needs a number, not '-3'"
}

@test "-S rejects an unknown key" {
	run ltruss -S speed -c true
	assert_failure 2
	assert_output --partial "unknown sort key 'speed' for -S"
}

@test "-c and -C together are an error" {
	run ltruss -c -C true
	assert_failure 2
	assert_output "ltruss: error: -c and -C cannot be used together; see 'ltruss --help'"
}

@test "bad -u arguments are errors" {
	run ltruss -u ':malloc' true
	assert_failure 2
	assert_output "ltruss: error: bad -u ':malloc': missing library name before ':'; see 'ltruss --help'"
	run ltruss -u 'libc:mal[loc' true
	assert_failure 2
	assert_output --partial "unterminated '[' in glob"
	run ltruss -u 'libc:malloc,,free' true
	assert_failure 2
	assert_output --partial "empty function name in list"
	run ltruss -u '!libc:!malloc' true
	assert_failure 2
	assert_output --partial "cannot be excluded from an excluded library"
}

@test "bad --from glob is an error" {
	run ltruss --from '[a' true
	assert_failure 2
	assert_output --partial "bad --from '[a'"
}

@test "command not found" {
	run ltruss no-such-command-ltruss
	assert_failure 2
	assert_output "ltruss: error: command not found: 'no-such-command-ltruss' (not in PATH)"
}

@test "a path that does not exist" {
	run ltruss ./nope
	assert_failure 2
	assert_output "ltruss: error: cannot run './nope': No such file or directory"
}

@test "a file that is not executable" {
	echo hi > plain
	run ltruss ./plain
	assert_failure 2
	assert_output "ltruss: error: cannot run './plain': Permission denied"
}

@test "the command's exec fails (text file busy): exit 2, and why" {
	cp "$PROGS/fix-lazy" busy
	exec 4>>busy
	run ltruss ./busy
	exec 4>&-
	assert_failure 2
	assert_output "ltruss: error: cannot run './busy': Text file busy"
}

@test "-o to an unwritable path fails before the program runs" {
	run ltruss -o /nonexistent/dir/trace touch ran
	assert_failure 2
	assert_output "ltruss: error: cannot write the trace to '/nonexistent/dir/trace' (-o): No such file or directory"
	[ ! -e ran ]
}

# Found by fuzzing (make fuzz; the inputs are in tests/fuzz/corpus/).

@test "error messages stay one line: control characters from a config or an argument print as '?'" {
	printf '"ver\\nsion": 1\n' > key.yaml
	run ltruss -F ./key.yaml true
	assert_failure 2
	assert_output "ltruss: error: ./key.yaml:1:1: unknown key 'ver?sion' in a filter; did you mean 'version'?"
	printf 'prototypes:\n  - "int f([\\e[1mout] int *x)"\n' > annotation.yaml
	run ltruss -F ./annotation.yaml true
	assert_failure 2
	assert_output "ltruss: error: ./annotation.yaml:2:12: bad prototype: unknown annotation [?[1mout]; write it as the C header declares it"
	run ltruss -u $'libc:mal\033[1m[loc' true
	assert_failure 2
	assert_output "ltruss: error: bad -u 'libc:mal?[1m[loc': unterminated '[' in glob; see 'ltruss --help'"
}

@test "a prototype nested 100000 parentheses deep is an error, not a stack overflow" {
	printf 'prototypes:\n  - "void f(int %s)"\n' "$(printf '%*s' 100000 '' | tr ' ' '(')" > deep.yaml
	run ltruss -F ./deep.yaml true
	assert_failure 2
	assert_output "ltruss: error: ./deep.yaml:2:48: bad prototype: declarator nested too deep; write it as the C header declares it"
	printf 'prototypes:\n  - "void f(%s)"\n' "$(for i in $(seq 1 5000); do printf 'void (*)('; done)" > params.yaml
	run ltruss -F ./params.yaml true
	assert_failure 2
	assert_output "ltruss: error: ./params.yaml:2:289: bad prototype: declarator nested too deep; write it as the C header declares it"
}

@test "--buffer takes a power of two from 64K to 256M; anything else is an error" {
	for bad in 3M 32K 512M 0 -1M 1X ''; do
		run_split ltruss --buffer "$bad" -c /bin/ls /
		[ "$status" -eq 2 ]
		assert_equal "$err" "ltruss: error: --buffer needs a power of two from 64K to 256M, such as 4M, not '$bad'; see 'ltruss --help'"
		[ -z "$out" ]
	done
	run_split ltruss --buffer 256M -u 'libc:strlen' /bin/ls /
	[ "$status" -eq 0 ]
	[ "$out" = "$(/bin/ls /)" ]
	grep -q '^libc:strlen("' <<<"$err"
}

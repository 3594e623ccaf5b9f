#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# config.bats: YAML filters (-F, include, the default config), -s, and every
# config error: exit 2 and one line naming file:line:column.

load helpers

# fails CONFIG-TEXT MESSAGE: loading CONFIG-TEXT as ./f.yaml fails with MESSAGE.
fails() {
	printf '%b' "$1" > f.yaml
	run ltruss -F ./f.yaml /bin/echo hi
	assert_failure 2
	assert_output "ltruss: error: ./f.yaml:$2"
}

# fix_with CONFIG-TEXT [OPTIONS...]: trace fix-lazy (fix_twice(21) calls
# fix_add(21, 21) inside libfix) with OPTIONS, then -F CONFIG-TEXT.
fix_with() {
	printf '%b' "$1" > f.yaml
	shift
	run_split ltruss "$@" -F ./f.yaml "$PROGS/fix-lazy" 1
}

# The libc functions in the trace ($err), one of each, sorted.
libc_funcs() {
	grep '^libc:' <<<"$err" | sed 's/(.*//' | sort -u
}

# ---- keys: each changes what is traced ------------------------------------

@test "trace: lib and functions select calls, like -u" {
	cat > f.yaml <<-'EOF'
	version: 1
	trace:
	  - lib: "libc.so*"
	    functions: [strrchr, "getenv"]
	EOF
	run_split ltruss -F ./f.yaml /bin/echo hi
	[ "$status" -eq 0 ]
	[ "$out" = hi ]
	grep -q '^libc:strrchr(' <<<"$err"
	grep -q '^libc:getenv(' <<<"$err"
	[ "$(grep -c '^libc:' <<<"$err")" -eq 2 ]
}

@test "trace: a '!' function excludes, later globs win" {
	cat > f.yaml <<-'EOF'
	trace:
	  - lib: libc
	    functions: ["*", "!strrchr", "!f*"]
	EOF
	run_split ltruss -F ./f.yaml --from a.out /bin/echo hi
	[ "$status" -eq 0 ]
	grep -q '^libc:setlocale(' <<<"$err"
	not grep -q '^libc:strrchr(' <<<"$err"
	not grep -q '^libc:f' <<<"$err"
}

@test "trace: no functions key means every function of lib" {
	fix_with 'trace:\n  - lib: libfix\n'
	[ "$status" -eq 0 ]
	grep -qx 'libfix:fix_twice(0x15, .*) = 0x2a' <<<"$err"
	grep -q '^libfix:fix_pick(' <<<"$err"
	not grep -q '^libc:' <<<"$err"
}

@test "trace: a '!' lib excludes the library" {
	fix_with 'trace:\n  - lib: "*"\n  - lib: "!libc.so*"\n'
	[ "$status" -eq 0 ]
	grep -q '^libfix:fix_twice(' <<<"$err"
	not grep -q '^libc:' <<<"$err"
}

@test "inner: true traces the library's calls to itself, like '::'" {
	fix_with 'trace:\n  - lib: libfix\n    inner: true\n'
	[ "$status" -eq 0 ]
	grep -q '^  libfix:fix_add(0x15, 0x15, .*) = 0x2a' <<<"$err"
	fix_with 'trace:\n  - lib: libfix\n    inner: false\n'
	[ "$status" -eq 0 ]
	not grep -q '0x15, 0x15' <<<"$err"
}

@test "depth: like -D" {
	fix_with 'depth: 1\ntrace:\n  - lib: libfix\n    inner: yes\n'
	[ "$status" -eq 0 ]
	grep -qx 'libfix:fix_twice(0x15, .*) = 0x2a' <<<"$err"
	not grep -q '0x15, 0x15' <<<"$err"
}

@test "depth: -D after the filter wins, a filter after -D wins" {
	printf 'depth: 1\ntrace:\n  - lib: libfix\n    inner: true\n' > f.yaml
	run_split ltruss -F ./f.yaml -D 2 "$PROGS/fix-lazy" 1
	grep -q '0x15, 0x15' <<<"$err"
	fix_with 'depth: 1\ntrace:\n  - lib: libfix\n    inner: true\n' -D 2
	not grep -q '0x15, 0x15' <<<"$err"
}

@test "depth in a trace rule limits that rule's calls" {
	fix_with 'trace:\n  - lib: libfix\n    inner: true\n    depth: 1\n'
	[ "$status" -eq 0 ]
	grep -qx 'libfix:fix_twice(0x15, .*) = 0x2a' <<<"$err"
	not grep -q '0x15, 0x15' <<<"$err"
}

@test "from: only calls made by the matching objects, like --from" {
	fix_with 'from: [libfix]\ntrace:\n  - lib: libfix\n    inner: true\n'
	[ "$status" -eq 0 ]
	[ "$(grep -c '^libfix:' <<<"$err")" -eq 1 ]
	grep -qx 'libfix:fix_add(0x15, 0x15, .*) = 0x2a' <<<"$err"
}

@test "strsize: and -s cut printed strings" {
	printf 'strsize: 3\ntrace:\n  - lib: libc\n    functions: [getenv]\nprototypes:\n  - "char *getenv(const char *name)"\n' > f.yaml
	run_split ltruss -F ./f.yaml /bin/echo hi
	[ "$status" -eq 0 ]
	grep -q '^libc:getenv("POS' <<<"$err"
	not grep -q 'POSIXLY_CORRECT' <<<"$err"
	run_split ltruss -F ./f.yaml -s 32 /bin/echo hi
	grep -q '^libc:getenv("POSIXLY_CORRECT")' <<<"$err"
}

@test "prototypes: a filter's prototype types the arguments" {
	printf 'trace:\n  - lib: libc\n    functions: [getenv]\nprototypes:\n  - "char *getenv(const char *name)"\n' > f.yaml
	run_split ltruss -F ./f.yaml /bin/echo hi
	[ "$status" -eq 0 ]
	grep -q '^libc:getenv("POSIXLY_CORRECT") = NULL' <<<"$err"
}

@test "types: a named enum prints its names" {
	cat > f.yaml <<-'EOF'
	trace:
	  - lib: libfix
	    functions: [fix_twice]
	prototypes:
	  - "int fix_twice(fix_num a)"
	types:
	  fix_num:
	    enum: {FIX_TWENTY_ONE: 0x15}
	EOF
	run_split ltruss -F ./f.yaml "$PROGS/fix-lazy" 1
	[ "$status" -eq 0 ]
	grep -q '^libfix:fix_twice(FIX_TWENTY_ONE) = 42' <<<"$err"
}

EMPTY="the filter is empty; write its 'trace:' rules, or leave out -F to trace the default selection"

@test "an empty filter is an error, never the default silently: empty, comments, null, /dev/null" {
	fails '' "1:1: $EMPTY"
	fails '# nothing\n' "2:1: $EMPTY"
	fails '# nothing\n---\n' "3:1: $EMPTY"
	fails '~\n' "1:1: $EMPTY"
	run ltruss -F /dev/null /bin/echo hi
	assert_failure 2
	assert_output "ltruss: error: /dev/null:1:1: $EMPTY"
	# An empty file named by an include is one too, at the include's file.
	printf 'include: [./e.yaml]\n' > f.yaml
	: > e.yaml
	run ltruss -F ./f.yaml /bin/echo hi
	assert_failure 2
	assert_output "ltruss: error: ./e.yaml:1:1: $EMPTY"
}

# traced_by FILTER-ARGS...: the trace of fix-lazy 1 with -F FILTER-ARGS, stdin kept.
traced_by() {
	timeout -k 5 60 "$LTRUSS" -F "$@" "$PROGS/fix-lazy" 1 2>&1 >/dev/null
}

@test "-F /dev/stdin and -F <(...) read the pipe to its end, even a slow writer" {
	printf 'trace:\n  - lib: "libfix*"\n    functions: [fix_add]\n' > f.yaml
	want=$(traced_by ./f.yaml)
	[ "$(grep -c '^libfix:fix_add(' <<<"$want")" -eq 2 ]
	[ "$(traced_by /dev/stdin <f.yaml)" = "$want" ]
	[ "$(cat f.yaml | traced_by /dev/stdin)" = "$want" ]
	[ "$(traced_by <(cat f.yaml))" = "$want" ]
	[ "$(traced_by <(sleep 0.2; cat f.yaml))" = "$want" ]
	# An empty pipe is an empty filter.
	run traced_by <(true)
	[ "$status" -eq 2 ]
	[[ "$output" == "ltruss: error: /dev/fd/"*":1:1: $EMPTY" ]]
}

@test "-F a FIFO that nobody writes to: an empty filter, not a hang in open()" {
	mkfifo fifo.yaml
	run ltruss -F ./fifo.yaml /bin/echo hi
	assert_failure 2
	assert_output "ltruss: error: ./fifo.yaml:1:1: $EMPTY"
}

@test "an empty trace list selects nothing" {
	printf 'trace: []\n' > f.yaml
	run_split ltruss -F ./f.yaml /bin/echo hi
	[ "$status" -eq 0 ]
	[ "$out" = hi ]
	[ "$err" = "+++ exited (status 0) +++" ]
}

@test "integers: hex, octal, binary and negative values load" {
	cat > f.yaml <<-'EOF'
	version: 0x1
	depth: 0
	types:
	  t: {flags: {A: 0x40, B: 0100, C: 0b1, D: 0o7}, mask: 3, enum: {E: -1}, size: 1}
	trace: [{lib: libfix, functions: [fix_twice]}]
	EOF
	run_split ltruss -F ./f.yaml "$PROGS/fix-lazy" 1
	[ "$status" -eq 0 ]
	grep -q '^libfix:fix_twice(' <<<"$err"
}

# ---- include ---------------------------------------------------------------

@test "include: a path relative to the including file, and a name" {
	mkdir -p d filters
	printf 'trace: [{lib: libc, functions: [strrchr]}]\n' > d/b.yaml
	printf 'include: [b.yaml, named]\ntrace: [{lib: libc, functions: [setlocale]}]\n' > d/a.yaml
	printf 'trace: [{lib: libc, functions: [getenv]}]\n' > filters/named.yaml
	LTRUSS_FILTER_PATH=$PWD/filters run_split ltruss -F d/a.yaml /bin/echo hi
	[ "$status" -eq 0 ]
	grep -q '^libc:strrchr(' <<<"$err"
	grep -q '^libc:setlocale(' <<<"$err"
	grep -q '^libc:getenv(' <<<"$err"
}

@test "include: the including file's later rules win" {
	printf 'trace: [{lib: libc, functions: [strrchr, setlocale]}]\n' > b.yaml
	printf 'include: [./b.yaml]\ntrace: [{lib: libc, functions: ["!strrchr"]}]\n' > a.yaml
	run_split ltruss -F ./a.yaml /bin/echo hi
	[ "$status" -eq 0 ]
	grep -q '^libc:setlocale(' <<<"$err"
	not grep -q '^libc:strrchr(' <<<"$err"
}

@test "include cycle is an error naming the cycle" {
	printf 'include: [./b.yaml]\n' > a.yaml
	printf '# b\ninclude: [./c.yaml]\n' > b.yaml
	printf 'include:\n  - ./a.yaml\n' > c.yaml
	run ltruss -F ./a.yaml true
	assert_failure 2
	assert_output "ltruss: error: ./c.yaml:2:5: include cycle: ./a.yaml -> ./b.yaml -> ./c.yaml -> ./a.yaml; remove one of these includes"
	printf 'include: [./self.yaml]\n' > self.yaml
	run ltruss -F ./self.yaml true
	assert_failure 2
	assert_output "ltruss: error: ./self.yaml:1:11: include cycle: ./self.yaml -> ./self.yaml; remove one of these includes"
}

@test "include of a missing file or name is an error at the include" {
	fails 'version: 1\ninclude: [./nope.yaml]\n' "2:11: cannot read './nope.yaml': No such file or directory; check the name"
	fails 'include:\n  - nope\n' "2:5: no filter named 'nope' in $HOME/.config/ltruss/filters, $SRCDIR/filters; give a path to a .yaml file, or a filter's name (shipped: dl, files, libxml2, malloc, pthread, sqlite3, stdio, strings, zlib)"
}

# ---- -F lookup -------------------------------------------------------------

@test "-F NAME: LTRUSS_FILTER_PATH first, then ~/.config/ltruss/filters, then the shipped ones" {
	mkdir -p p1 p2 "$HOME/.config/ltruss/filters"
	printf 'trace: [{lib: libc, functions: [strrchr]}]\n' > "$HOME/.config/ltruss/filters/malloc.yaml"
	printf 'trace: [{lib: libc, functions: [setlocale]}]\n' > p2/malloc.yaml
	# the shipped malloc filter
	rm -rf "$HOME/.config"
	run_split ltruss -F malloc ls /
	grep -q '^libc:malloc([0-9]*) = 0x' <<<"$err"
	# ~/.config/ltruss/filters before the shipped one
	mkdir -p "$HOME/.config/ltruss/filters"
	printf 'trace: [{lib: libc, functions: [strrchr]}]\n' > "$HOME/.config/ltruss/filters/malloc.yaml"
	run_split ltruss -F malloc /bin/echo hi
	[ "$(libc_funcs)" = libc:strrchr ]
	# LTRUSS_FILTER_PATH before both, its directories in order, empty ones skipped
	LTRUSS_FILTER_PATH="::$PWD/p1:$PWD/p2" run_split ltruss -F malloc /bin/echo hi
	[ "$(libc_funcs)" = libc:setlocale ]
	printf 'trace: [{lib: libc, functions: [getenv]}]\n' > p1/malloc.yaml
	LTRUSS_FILTER_PATH="$PWD/p1:$PWD/p2" run_split ltruss -F malloc /bin/echo hi
	[ "$(libc_funcs)" = libc:getenv ]
}

@test "-F with a '/' or a .yaml suffix is a path, not a name" {
	printf 'trace: [{lib: libc, functions: [strrchr]}]\n' > malloc.yaml
	run_split ltruss -F malloc.yaml /bin/echo hi
	[ "$(libc_funcs)" = libc:strrchr ]
	run ltruss -F nope.yaml true
	assert_failure 2
	assert_output "ltruss: error: cannot read the filter 'nope.yaml': No such file or directory; check the path given to -F"
}

@test "-F with an unknown name lists where it looked and the shipped filters" {
	LTRUSS_FILTER_PATH=/nowhere run ltruss --filter mallco true
	assert_failure 2
	assert_output "ltruss: error: no filter named 'mallco' (-F) in LTRUSS_FILTER_PATH (/nowhere), $HOME/.config/ltruss/filters, $SRCDIR/filters; give a path to a .yaml file, or a filter's name (shipped: dl, files, libxml2, malloc, pthread, sqlite3, stdio, strings, zlib)"
}

@test "-F of a directory is an error" {
	mkdir d.yaml
	run ltruss -F ./d.yaml true
	assert_failure 2
	assert_output "ltruss: error: cannot read the filter './d.yaml': Is a directory; check the path given to -F"
}

# ---- left to right ---------------------------------------------------------

@test "-u and -F rules apply left to right: later rules win" {
	printf 'trace: [{lib: libc, functions: [strrchr, setlocale]}]\n' > f.yaml
	run_split ltruss -u 'libc:!strrchr' -F ./f.yaml /bin/echo hi
	grep -q '^libc:strrchr(' <<<"$err"
	run_split ltruss -F ./f.yaml -u 'libc:!strrchr' /bin/echo hi
	not grep -q '^libc:strrchr(' <<<"$err"
	grep -q '^libc:setlocale(' <<<"$err"
}

@test "a filter with a trace key is a selection: the default config is not used" {
	printf 'trace: [{lib: libc, functions: [strrchr]}]\n' > f.yaml
	run_split ltruss -F ./f.yaml /bin/echo hi
	not grep -q '^libc:setlocale(' <<<"$err"
}

# ---- the default config ----------------------------------------------------

@test "the default config comes from conf/ltruss.yaml" {
	run_split ltruss /bin/echo hi
	[ "$status" -eq 0 ]
	grep -q '^libc:setlocale(' <<<"$err"
	# its exclusions: every isalpha() goes through __ctype_b_loc
	run_split ltruss /bin/grep -c x /etc/passwd
	not grep -q '__ctype_b_loc' <<<"$err"
	run_split ltruss -u 'libc:__ctype_b_loc' /bin/grep -c x /etc/passwd
	grep -q '^libc:__ctype_b_loc(' <<<"$err"
}

@test "~/.config/ltruss/ltruss.yaml replaces the default config" {
	mkdir -p "$HOME/.config/ltruss"
	printf 'trace: [{lib: libc, functions: [strrchr]}]\n' > "$HOME/.config/ltruss/ltruss.yaml"
	run_split ltruss /bin/echo hi
	[ "$status" -eq 0 ]
	[ "$out" = hi ]
	[ "$(libc_funcs)" = libc:strrchr ]
	# not used when the command line selects
	run_split ltruss -u 'libc:getenv' /bin/echo hi
	[ "$(libc_funcs)" = libc:getenv ]
}

@test "a broken ~/.config/ltruss/ltruss.yaml is an error naming it" {
	mkdir -p "$HOME/.config/ltruss"
	printf 'trace:\n  - lib: libc\n    funtions: [x]\n' > "$HOME/.config/ltruss/ltruss.yaml"
	run ltruss true
	assert_failure 2
	assert_output "ltruss: error: $HOME/.config/ltruss/ltruss.yaml:3:5: unknown key 'funtions' in a trace rule; did you mean 'functions'?"
}

@test "the command line's depth and --from win over the default config's" {
	mkdir -p "$HOME/.config/ltruss"
	printf 'depth: 1\ntrace: [{lib: libfix, inner: true}]\n' > "$HOME/.config/ltruss/ltruss.yaml"
	run_split ltruss "$PROGS/fix-lazy" 1
	not grep -q '0x15, 0x15' <<<"$err"
	run_split ltruss -D 2 "$PROGS/fix-lazy" 1
	grep -q '0x15, 0x15' <<<"$err"
	# --from alone narrows the default config's rules
	run_split ltruss --from libfix "$PROGS/fix-lazy" 1
	[ "$(grep -c '^libfix:' <<<"$err")" -eq 1 ]
}

# ---- -s ----------------------------------------------------------------------

@test "-s takes a size from 1 to 4096" {
	run ltruss -s 0 true
	assert_failure 2
	assert_output "ltruss: error: -s needs a string size from 1 to 4096, not '0'; see 'ltruss --help'"
	run ltruss -s 4097 true
	assert_failure 2
	assert_output "ltruss: error: -s needs a string size from 1 to 4096, not '4097'; see 'ltruss --help'"
	run ltruss -s x true
	assert_failure 2
	assert_output "ltruss: error: -s needs a number, not 'x'; see 'ltruss --help'"
	run_split ltruss -s 4096 -u 'libc:strrchr' /bin/echo hi
	[ "$status" -eq 0 ]
	grep -q '^libc:strrchr(' <<<"$err"
}

# ---- errors: one line, file:line:column, exit 2 ------------------------------

@test "unknown keys, with the closest valid key" {
	fails 'tracee: []\n' "1:1: unknown key 'tracee' in a filter; did you mean 'trace'?"
	fails 'trace:\n  - lib: libc\n    function: [malloc]\n' "3:5: unknown key 'function' in a trace rule; did you mean 'functions'?"
	fails 'bogus: 1\n' "1:1: unknown key 'bogus' in a filter; use version, include, depth, strsize, from, trace, prototypes or types"
	fails 'types:\n  t:\n    enums: {A: 1}\n' "3:5: unknown key 'enums' in type 't'; did you mean 'enum'?"
}

@test "wrong types" {
	fails 'depth: -1\n' "1:8: 'depth' must be a non-negative integer, not '-1'"
	fails 'depth: [1]\n' "1:8: 'depth' must be a non-negative integer, not a list"
	fails 'strsize: 0\n' "1:10: 'strsize' must be an integer from 1 to 4096, not '0'"
	fails 'strsize: "12"\n' "1:10: 'strsize' must be an integer from 1 to 4096, not '12'"
	fails 'from: a.out\n' "1:7: 'from' must be a list of globs of calling objects, such as [a.out], not 'a.out'"
	fails 'trace:\n  lib: libc\n' "2:3: 'trace' must be a list of rules, such as [{lib: \"libc.so*\", functions: [malloc]}], not a map"
	fails 'trace:\n  - libc\n' "2:5: a trace rule must be a map of lib, functions, inner and depth, such as {lib: \"libc.so*\"}, not 'libc'"
	fails 'trace:\n  - lib: libc\n    inner: maybe\n' "3:12: 'inner' must be true or false, not 'maybe'"
	fails 'trace:\n  - lib:\n' "2:9: 'lib' must be a library glob, such as \"libc.so*\", not empty"
	fails 'prototypes:\n  - [errno] int f(void)\n' "2:5: a prototype must be a C declaration in quotes, not a list"
	fails 'types:\n  t: {enum: {A: 1x}}\n' "2:17: a value must be an integer (such as 64, -1, 0x40 or 0100), not '1x'"
	fails 'types:\n  t: {enum: {A: 1}, size: 3}\n' "2:27: 'size' must be 1, 2, 4 or 8 (bytes)"
	fails 'hello\n' "1:1: a filter must be a map of keys such as 'trace:' and 'prototypes:', not 'hello'"
}

@test "rules that make no sense" {
	fails 'trace:\n  - functions: [malloc]\n' "2:5: a trace rule needs 'lib', the library glob; add one, such as lib: \"libc.so*\""
	fails 'trace:\n  - lib: libc\n    functions: []\n' "3:17: 'functions' is empty; leave it out to trace every function of 'lib'"
	fails 'trace:\n  - lib: "!libc"\n    functions: ["!malloc"]\n' "2:5: 'malloc' cannot be excluded from an excluded library; drop one of the '!'"
	fails 'depth: 1\ndepth: 2\n' "2:1: 'depth' is given twice in a filter; keep one"
	fails 'types:\n  t: {enum: {A: 1}, mask: 3}\n' "2:3: type 't' has a 'mask' but no 'flags'; the mask says which bits of the flags are the enum"
	fails 'types:\n  t: {flags: {A: 1}, enum: {B: 2}}\n' "2:3: type 't' has 'flags' and 'enum' but no 'mask'; add the bits the enum is in, such as mask: 3"
	fails 'types:\n  t: {size: 1, enum: {A: 256}}\n' "2:3: A = 256 does not fit in type 't' of 1 bytes; fix the value or 'size'"
	fails 'types:\n  t: {}\n' "2:3: type 't' has neither 'enum' nor 'flags'; give its names and values"
	fails 'types:\n  "a b": {enum: {A: 1}}\n' "2:3: type name 'a b' is not a C identifier; name it as the C header does"
}

@test "bad globs" {
	fails 'trace:\n  - lib: "lib[c"\n' "2:10: bad glob 'lib[c' in 'lib': unterminated '[' in glob; fix the glob"
	fails 'trace:\n  - lib: libc\n    functions: [malloc, "f[oo"]\n' "3:25: bad glob 'f[oo' in 'functions': unterminated '[' in glob; fix the glob"
	fails 'from: ["[x"]\n' "1:8: bad glob '[x' in 'from': unterminated '[' in glob; fix the glob"
}

@test "unknown version" {
	fails 'version: 2\n' "1:10: unknown version 2; this ltruss reads version 1 (or leave 'version' out)"
}

@test "a prototype that does not parse points at the column in the declaration" {
	fails 'prototypes:\n  - "int close(int fd)"\n  - "int broken"\n' "3:16: bad prototype: expected '(' and the parameters after the function's name; write it as the C header declares it"
	fails 'prototypes:\n  - int broken\n' "2:15: bad prototype: expected '(' and the parameters after the function's name; write it as the C header declares it"
}

@test "a named type no 'types:' declares is an error at the prototype" {
	fails 'prototypes:\n  - "int open(const char *path, openflags flags)"\n' "2:33: type 'openflags' in the prototype of open is not declared; declare it under 'types:', or use a C type"
}

@test "[if:argN:NAMES] names values of parameter N's named type, or it is an error" {
	fails 'prototypes:\n  - "int myopen(const char *p, open_flags flags, [if:arg2:O_NOPE] mode_t mode)"\n' "2:50: 'O_NOPE' in [if:arg2:...] of myopen is not a value of type 'open_flags'; name one of its values"
	fails 'prototypes:\n  - "int myopen(const char *p, int flags, [if:arg2:O_CREAT] mode_t mode)"\n' "2:43: bad prototype: [if:arg2:...] needs another parameter of a named flags or enum type; write it as the C header declares it"
}

@test "YAML syntax errors, with libyaml's words and where" {
	fails 'trace: [\n' "2:1: YAML syntax error: did not find expected node content (while parsing a flow node at 2:1); fix the YAML"
	fails 'trace:\n\t- lib: libc\n' "2:1: YAML syntax error: found character that cannot start any token; indent with spaces, not tabs"
	fails 'a: 1\n---\nb: 2\n' "1:1: unknown key 'a' in a filter; use version, include, depth, strsize, from, trace, prototypes or types"
	fails 'version: 1\n---\nversion: 1\n' "2:1: a second YAML document; keep one document in a file"
}

@test "unquoted '*' and '!' globs get a hint" {
	fails 'trace:\n  - lib: libc\n    functions: [*alloc]\n' "3:17: '*alloc' is a YAML alias, which filters do not support; if it is a glob, quote it: \"*alloc\""
	fails 'trace:\n  - lib: libc\n    functions:\n      - !free\n' "4:9: '!free' is a YAML tag, which filters do not support; if it is a glob, quote it: \"!free\""
	fails 'trace:\n  - lib: libc\n    functions: [!free]\n' "3:22: YAML syntax error: did not find expected whitespace or line break (while scanning a tag at 3:17); quote names and globs that start with '!' (\"!malloc\")"
}

@test "binary garbage, NUL bytes and bad UTF-8 are errors, not crashes" {
	printf 'trace:\n  - lib: libc\n\0\n' > f.yaml
	run ltruss -F ./f.yaml true
	assert_failure 2
	assert_output "ltruss: error: ./f.yaml:3:1: not YAML text: control characters are not allowed (byte 0x00); save the file as UTF-8 text"
	printf 'trace: \xff\n' > f.yaml
	run ltruss -F ./f.yaml true
	assert_failure 2
	assert_output "ltruss: error: ./f.yaml:1:8: not YAML text: invalid leading UTF-8 octet (byte 0xff); save the file as UTF-8 text"
	for seed in 1 2 3 4 5 6 7 8; do
		head -c 4096 /dev/urandom > f.yaml
		run ltruss -F ./f.yaml true
		# random bytes almost never make a valid filter; never a crash
		[ "$status" -eq 2 ] || [ "$status" -eq 0 ]
		[[ "$output" == "ltruss: error: ./f.yaml:"* ]] || [ "$status" -eq 0 ]
	done
}

@test "10000 levels of nesting give an error at once" {
	awk 'BEGIN { s = "trace: "; for (i = 0; i < 10000; i++) s = s "["; for (i = 0; i < 10000; i++) s = s "]"; print s }' > f.yaml
	run timeout 10 "$LTRUSS" -F ./f.yaml true
	assert_failure 2
	assert_output "ltruss: error: ./f.yaml:1:9: a trace rule must be a map of lib, functions, inner and depth, such as {lib: \"libc.so*\"}, not a list"
	awk 'BEGIN { s = "types: {t: {enum: {A: "; for (i = 0; i < 10000; i++) s = s "{"; for (i = 0; i < 10000; i++) s = s "}"; print s "}}}" }' > f.yaml
	run timeout 10 "$LTRUSS" -F ./f.yaml true
	assert_failure 2
	assert_output --partial "ltruss: error: ./f.yaml:1:23: a value must be an integer"
}

@test "a 10 MB filter loads in well under a second" {
	awk 'BEGIN { print "types:\n  big:\n    enum:"; for (i = 0; i < 400000; i++) printf "      NAME_%d: %d\n", i, i; print "trace: [{lib: libfix, functions: [fix_twice]}]" }' > f.yaml
	[ "$(stat -c %s f.yaml)" -gt 10000000 ]
	# CPU time (user + system, ltruss and the program), not wall time:
	# a loaded machine (or CI's ASan build beside other jobs) stretches
	# the latter, and a parser gone quadratic takes minutes of the former.
	TIMEFORMAT='%3U %3S'
	cpu=$( { time "$LTRUSS" -F ./f.yaml "$PROGS/fix-lazy" 1 >out 2>err; } 2>&1 )
	grep -q '^libfix:fix_twice(' err
	grep -qx '+++ exited (status 0) +++' err
	read -r user sys <<<"$cpu"
	[ $(( 10#${user/./} + 10#${sys/./} )) -lt 3000 ] || { echo "CPU: $cpu"; false; }
}

@test "ltruss.yaml.5 renders without warnings and passes mandoc -Tlint" {
	run bash -c "groff -ww -man -Tutf8 '$LTRUSS_TOP_BUILDDIR/man/ltruss.yaml.5' 2>&1 >/dev/null"
	assert_success
	assert_output ""
	run mandoc -Tlint -Wwarning "$LTRUSS_TOP_BUILDDIR/man/ltruss.yaml.5"
	assert_success
	assert_output ""
}

@test "maint/compile-default: odd globs come out as C strings that say the same; a config with prototypes, types or includes is left to the parser, with a warning" {
	gen="$LTRUSS_TOP_BUILDDIR/maint/compile-default"
	cat >d.yaml <<-'EOF2'
	from: ["a.out", "main"]
	depth: 3
	trace:
	  - lib: "lib\"q\\uote?"
	    functions: ["a??=b", "!t\tab", "é*"]
	EOF2
	run_split "$gen" d.yaml d.c
	[ "$status" -eq 0 ]
	[ -z "$err" ]
	# Compiled with the table's header, its strings are the loader's own.
	cat >dump.c <<-'EOF2'
	#include <stdio.h>
	#include "default-table.h"
	int main(void)
	{
		size_t i;
		printf("%zu %d %d %u\n", default_table.size, default_table.selected,
		       default_table.depth_set, default_table.depth);
		for (i = 0; i < default_table.nrules; i++)
			printf("%#x %s %s\n", default_table.rules[i].flags,
			       default_table.rules[i].lib, default_table.rules[i].func);
		for (i = 0; i < default_table.nfrom; i++)
			printf("from %s\n", default_table.from[i]);
		fwrite(default_table.text, 1, default_table.size, stdout);
		return 0;
	}
	EOF2
	gcc -std=gnu11 -trigraphs -Wall -Werror -include "$LTRUSS_TOP_BUILDDIR/config.h" \
		-I"$SRCDIR" -I"$SRCDIR/bin/config" -o dump dump.c d.c
	./dump >out.txt
	assert_equal "$(head -n 6 out.txt)" "$(printf '%s\n' "$(stat -c %s d.yaml) 1 1 3" \
		'0 lib"q\uote? a??=b' "0x1 lib\"q\\uote? t	ab" '0 lib"q\uote? é*' \
		'from a.out' 'from a.out')"
	cmp <(tail -n +7 out.txt) d.yaml
	# Prototypes, types and includes mean what other files say: no text, always parsed.
	printf 'prototypes: ["int f(int)"]\ntrace: [{lib: libc}]\n' >p.yaml
	run_split "$gen" p.yaml p.c
	[ "$status" -eq 0 ]
	assert_equal "$err" "$gen: warning: p.yaml is not compiled in: it has prototypes or types; ltruss will parse it at every start"
	grep -q '^	\.text = NULL,$' p.c
	printf 'include: [malloc]\n' >i.yaml
	run_split "$gen" i.yaml i.c
	[ "$status" -eq 0 ]
	assert_equal "$err" "$gen: warning: i.yaml is not compiled in: it includes other files; ltruss will parse it at every start"
	grep -q '^	\.text = NULL,$' i.c
	# A config the loader refuses is the loader's error, where it is: the build stops.
	printf 'trace:\n  - lib: libc\n    funtions: [x]\n' >bad.yaml
	run_split "$gen" bad.yaml bad.c
	[ "$status" -eq 2 ]
	assert_equal "$err" "ltruss: error: bad.yaml:3:5: unknown key 'funtions' in a trace rule; did you mean 'functions'?"
}

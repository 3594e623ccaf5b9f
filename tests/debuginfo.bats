#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# debuginfo.bats: where -k looks for separate debug files (only fixed places, only regular files), and debuginfod only with --debuginfod.

load helpers

# split_debug NAME: a copy of stacks-chain at NAME without its debug
# information, which goes to NAME.debug, named by its .gnu_debuglink.
split_debug() {
	cp "$PROGS/stacks-chain" "$1"
	objcopy --only-keep-debug "$1" "$1.debug"
	objcopy --strip-debug --add-gnu-debuglink="$1.debug" "$1"
}

# set_debuglink FILE NAME: FILE's .gnu_debuglink names NAME, as is (objcopy
# --add-gnu-debuglink keeps only a base name): NAME, NULs to a multiple
# of 4 bytes, a CRC (0: the build ID is what is checked).
set_debuglink() {
	python3 -c '
import sys
name = sys.argv[1].encode() + b"\0"
sys.stdout.buffer.write(name + b"\0" * (-len(name) % 4) + b"\0\0\0\0")' "$2" >link.sec
	objcopy --remove-section .gnu_debuglink --add-section .gnu_debuglink=link.sec "$1"
}

# frames: the " > " lines of the trace in $err, as "func (object basename)".
frames() {
	printf '%s\n' "$err" | sed -nE 's/^ *> ([^ ].*)\+0x[0-9a-f]+ \((.*\/)?([^/]*)\)$/\1 (\3)/p'
}

# source_of PROG: the source files the first call's frames name (--json).
source_of() {
	timeout -k 2 20 "$LTRUSS" -k --json -u libc:puts "$1" 2>&1 >/dev/null </dev/null |
		jq -r 'select(.func == "puts") | .stack[] | .file // "none"'
}

teardown() {
	if [ -n "${BY_ID:-}" ]; then
		rm -f "$BY_ID"
	fi
	if [ -n "${SERVER:-}" ]; then
		kill "$SERVER" 2>/dev/null || true
		wait "$SERVER" 2>/dev/null || true
	fi
}

# serve: a web server on a free loopback port that answers 404 to every
# request and writes each path to the file requests; DEBUGINFOD_URLS names it.
serve() {
	python3 -c '
import http.server, os, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open("requests", "a") as f:
            f.write(self.path + "\n")
        self.send_error(404)
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
with open("port.tmp", "w") as f:
    f.write(str(s.server_port))
os.rename("port.tmp", "port")
s.serve_forever()' </dev/null >/dev/null 2>&1 3>&- &
	SERVER=$!
	for _ in $(seq 1 100); do [ -e port ] && break; sleep 0.1; done
	export DEBUGINFOD_URLS="http://127.0.0.1:$(cat port)"
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
	: >requests
}

expected_frames='leaf (chain)
middle (chain)
top (chain)
main (chain)'

@test "a .gnu_debuglink naming a FIFO beside the program: -k and --read -k end as usual, with every frame" {
	split_debug chain
	rm chain.debug
	mkfifo chain.debug
	# Before: ltruss opened the FIFO and waited for a writer, SIGTERM or not.
	run_split timeout -k 2 20 "$LTRUSS" -k -u libc:puts ./chain </dev/null
	[ "$status" -eq 0 ]
	[ "$out" = chain ]
	[ "$(frames)" = "$expected_frames" ]
	run_split timeout -k 2 20 "$LTRUSS" -k -w trace.ltr -u libc:puts ./chain </dev/null
	[ "$status" -eq 0 ]
	run_split timeout -k 2 20 "$LTRUSS" --read trace.ltr -k </dev/null
	[ "$status" -eq 0 ]
	# --read prints to stdout.
	[ "$(err=$out frames)" = "$expected_frames" ]
}

@test "-k's text lines, which show no file and line, read no debug file; --json, which does, reads it" {
	command -v strace >/dev/null
	split_debug chain
	# LeakSanitizer cannot run under ptrace (maint/check-asan).
	asan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run_split env ASAN_OPTIONS="$asan" strace -f -qq -e trace=open,openat -o opens.txt "$LTRUSS" -k -u libc:puts ./chain
	[ "$status" -eq 0 ]
	[ "$(frames)" = "$expected_frames" ]
	grep -q '/chain"' opens.txt
	not grep 'chain\.debug"' opens.txt
	run_split env ASAN_OPTIONS="$asan" strace -f -qq -e trace=open,openat -o opens.txt "$LTRUSS" -k --json -u libc:puts ./chain
	[ "$status" -eq 0 ]
	grep -q '"file":"tests/progs/stacks/chain.c","line":' <<<"$err"
	grep -q 'chain\.debug"' opens.txt
}

@test "a debug file beside the object, in its .debug/ or under /usr/lib/debug by build ID gives file and line; a link name with '/' is never followed" {
	split_debug chain
	source_of ./chain | grep -q 'tests/progs/stacks/chain.c$'
	mkdir .debug
	mv chain.debug .debug/
	source_of ./chain | grep -q 'tests/progs/stacks/chain.c$'
	# Found by build ID: the fixed directory of the convention.
	id=$(readelf -n chain | sed -n 's/.*Build ID: //p')
	mkdir -p "/usr/lib/debug/.build-id/${id:0:2}"
	BY_ID="/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
	mv .debug/chain.debug "$BY_ID"
	source_of ./chain | grep -q 'tests/progs/stacks/chain.c$'
	rm "$BY_ID"
	# The same debug file named by ../elsewhere/ (libdw followed it): refused.
	mkdir elsewhere
	split_debug elsewhere/chain
	mkdir dir
	mv elsewhere/chain dir/chain
	set_debuglink dir/chain ../elsewhere/chain.debug
	[ "$(source_of dir/chain | sort -u)" = none ]
	# What a '/' name was refused for: a file or device anywhere.
	set_debuglink dir/chain ../../../../../../dev/zero
	[ "$(source_of dir/chain | sort -u)" = none ]
}

@test "a dwz alternate file beside the program gives file and line; one with another build ID, or a FIFO, does not, and -k ends" {
	cp "$PROGS/stacks-chain" chain
	cp "$PROGS/stacks-chain" twin
	# The DWARF the two share goes to common.dwz, which both name.
	dwz -m common.dwz -M common.dwz chain twin
	source_of ./chain | grep -q 'tests/progs/stacks/chain.c$'
	mv common.dwz common.real
	cp "$PROGS/stacks-sort" common.dwz
	[ "$(source_of ./chain | sort -u)" = none ]
	rm common.dwz
	mkfifo common.dwz
	# Before: libdw opened the name the file gives itself, and waited.
	run_split timeout -k 2 20 "$LTRUSS" -k --json -u libc:puts ./chain </dev/null
	[ "$status" -eq 0 ]
	[ "$out" = chain ]
	[ "$(jq -r 'select(.func == "puts") | .stack | map(.func) | join(" ")' <<<"$err")" = "leaf middle top main" ]
}

@test "DEBUGINFOD_URLS set: -k asks no server, the program still sees the variable; --debuginfod asks for the objects' build IDs" {
	command -v python3 >/dev/null
	serve
	run_split ltruss -k -o trace.txt env
	[ "$status" -eq 0 ]
	grep -qx "DEBUGINFOD_URLS=$DEBUGINFOD_URLS" <<<"$out"
	grep -q '^ *> ' trace.txt
	[ ! -s requests ]
	# --read -k neither.
	ltruss -k -w trace.ltr env >/dev/null
	run_split ltruss --read trace.ltr -k
	[ "$status" -eq 0 ]
	grep -q '^ *> ' <<<"$out"
	[ ! -s requests ]
	# Asked for: a request for each object of a frame, by its build ID.
	run_split ltruss -k --debuginfod -o trace.txt env
	[ "$status" -eq 0 ]
	grep -qx "DEBUGINFOD_URLS=$DEBUGINFOD_URLS" <<<"$out"
	# The frames are env's (a stack ends at main).
	env_id=$(readelf -n "$(command -v env)" | sed -n 's/.*Build ID: //p')
	grep -qx "/buildid/$env_id/debuginfo" requests
	# The client remembers a server's 404 for a while: forget it.
	rm -rf "$HOME/.cache/debuginfod_client"
	: >requests
	run_split ltruss --read trace.ltr -k --debuginfod
	[ "$status" -eq 0 ]
	grep -qx "/buildid/$env_id/debuginfo" requests
}

@test "--debuginfod without -k, without DEBUGINFOD_URLS, or with -w: exit 2, one line" {
	DEBUGINFOD_URLS=http://127.0.0.1:9 run ltruss --debuginfod true
	[ "$status" -eq 2 ]
	[ "$output" = "ltruss: error: --debuginfod fetches debug files for the stacks of -k: give it with -k; see 'ltruss --help'" ]
	for empty in unset ''; do
		if [ "$empty" = unset ]; then unset DEBUGINFOD_URLS; else export DEBUGINFOD_URLS=; fi
		run ltruss -k --debuginfod true
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == "ltruss: error: --debuginfod asks the servers DEBUGINFOD_URLS names, and it is not set: set it"* ]]
	done
	DEBUGINFOD_URLS=http://127.0.0.1:9 run ltruss -k --debuginfod -w t.ltr true
	[ "$status" -eq 2 ]
	[ "$output" = "ltruss: error: -w records and prints no trace: give --debuginfod to --read FILE instead; see 'ltruss --help'" ]
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# pyframes.bats: -k in CPython 3.11: the Python frames each evaluation loop ran, "function (file.py:line)", after its native frame.

load helpers

PY=/usr/bin/python3.11
SCRIPT="$SRCDIR/tests/python/frames.py"

setup() {
	setup_hermetic
	[ -x "$PY" ] || skip "no $PY (Debian's python3.11)"
}

# line TAG: the line of frames.py marked "# @TAG".
line() {
	grep -n "# @$1\$" "$SCRIPT" | cut -d: -f1
}

# expect TAG...: the frames "func (frames.py:N)" of the marks, one a line.
expect() {
	local tag func
	for tag in "$@"; do
		func=${tag%%=*}
		printf '%s (frames.py:%s)\n' "$func" "$(line "${tag#*=}")"
	done
}

# pyframes TEXT: the Python frames of the stack lines in TEXT, as "func (file.py:line)".
pyframes() {
	sed -nE 's/^ *> ([^ ]+) \((.*\/)?([^/]+\.py):([0-9]+)\)$/\1 (\3:\4)/p' <<<"$1"
}

# run_frames SCENARIO [ARGS]: frames.py SCENARIO under ltruss -k, checked to print what it prints untraced.
run_frames() {
	run_split ltruss --stack=64 -u libc:access "$PY" "$SCRIPT" "$@"
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PY" "$SCRIPT" "$@")" ]
}

@test "a method's frames: co_qualname, file and line of each, innermost first, after the native frame of the evaluation loop" {
	run_frames method
	stack=$(first_stack method)
	[ "$(pyframes "$stack")" = "$(expect mark=mark Shelf.load=method run=run-method '<module>=module')" ]
	# The Python frames come right after _PyEval_EvalFrameDefault, and native frames follow them.
	grep -B1 '^ > mark (' <<<"$stack" | head -1 | grep -q '^ > _PyEval_EvalFrameDefault+0x'
	grep -A1 '^ > <module> (' <<<"$stack" | tail -1 | grep -q '^ > [A-Za-z_].*+0x'
}

@test "a generator's frame sits above the frame that iterates it" {
	run_frames generator
	[ "$(pyframes "$(first_stack generator)")" = "$(expect mark=mark numbers=generator run=run-generator '<module>=module')" ]
}

@test "a sorted(key=) callback: the key function, then the caller of sorted, each after its own evaluation loop" {
	run_frames key
	stack=$(first_stack key)
	[ "$(pyframes "$stack")" = "$(expect mark=mark by_key=key run=run-key '<module>=module')" ]
	# Two activations of the loop: by_key's and run's are separated by native frames (sorted's).
	[ "$(grep -c '^ > _PyEval_EvalFrameDefault+' <<<"$stack")" -ge 2 ]
	sed -n '/^ > by_key (/,/^ > run (/p' <<<"$stack" | grep -q '^ > _PyEval_EvalFrameDefault+'
	# Each of the three calls has the frames.
	[ "$(grep -c '^ > by_key (.*frames.py' <<<"$err")" -eq 3 ]
}

@test "an exception raised and caught above the traced call leaves no frame of its own" {
	run_frames caught
	[ "$(pyframes "$(first_stack caught)")" = "$(expect mark=mark catcher=caught run=run-caught '<module>=module')" ]
}

# per_call TEXT: for each access() of TEXT, "TAG: func (file.py:line) < ..." of its Python frames, innermost first.
per_call() {
	awk '
		function flush() { if (tag != "") print tag ": " s; tag = s = "" }
		index($0, "libc:access(\"/nonexistent/") == 1 {
			flush(); tag = substr($0, 27); sub(/".*/, "", tag); next
		}
		tag != "" && /^ *> / {
			if ($0 ~ /^ *> [^ ]+ \((.*\/)?[^\/]+\.py:[0-9]+\)$/) {
				f = $0; sub(/^ *> /, "", f); sub(/\(.*\//, "(", f)
				s = s == "" ? f : s " < " f
			}
			next
		}
		{ flush() }
		END { flush() }' <<<"$1"
}

@test "calls whose outer frames change from one to the next (another line, generators in turn, depth, an exception, a callback, a chain cut short): each has the frames Python reports, live and read back narrowed" {
	# The interposer sends only the frames that differ from the call
	# before's: a wrong reuse shows a frame of another call.
	run_frames changes
	reported=$(grep ': ' <<<"$out")
	[ "$(wc -l <<<"$reported")" -eq 21 ]
	[ "$(per_call "$err")" = "$reported" ] || { diff <(per_call "$err") - <<<"$reported"; false; }
	# Each access() follows a getppid() with the same frames: read back
	# without them, the frames access() reuses are still there.
	run_split ltruss -k -w rec.ltr -u libc:access,getppid "$PY" "$SCRIPT" changes
	[ "$status" -eq 0 ]
	run_split ltruss --read rec.ltr -k -u libc:access
	[ "$status" -eq 0 ]
	not grep -q '^libc:getppid' <<<"$out"
	[ "$(per_call "$out")" = "$reported" ] || { diff <(per_call "$out") - <<<"$reported"; false; }
}

@test "a thread's frames end at its bootstrap, not the main thread's" {
	run_frames thread
	frames=$(pyframes "$(first_stack thread)")
	[ "$(sed -n 1,2p <<<"$frames")" = "$(expect mark=mark worker=worker)" ]
	sed -n 3p <<<"$frames" | grep -q '^Thread.run (threading.py:[0-9]*)$'
	not grep -q '<module>' <<<"$frames"
}

@test "recursion deeper than the stack copy: every Python frame, those past the copy after the line that says it ends" {
	run_frames deep 60
	stack=$(first_stack deep)
	frames=$(pyframes "$stack")
	[ "$(sed -n 1,2p <<<"$frames")" = "$(expect mark=mark deep=deep-leaf)" ]
	[ "$(grep -c "^deep (frames.py:$(line deep))\$" <<<"$frames")" -eq 60 ]
	[ "$(tail -2 <<<"$frames")" = "$(expect run=run-deep '<module>=module')" ]
	grep -q '^ > \.\.\. (the copy of the stack ends here)$' <<<"$stack"
	# Python frames on both sides of it.
	grep -B1 '^ > \.\.\. (the copy' <<<"$stack" | head -1 | grep -q '^ > deep ('
	grep -A1 '^ > \.\.\. (the copy' <<<"$stack" | tail -1 | grep -q '^ > deep ('
}

@test "--json: each Python frame is {func, python, file, line} in the stack array" {
	run_split ltruss -k --json -u libc:access "$PY" "$SCRIPT" method
	[ "$status" -eq 0 ]
	got=$(printf '%s\n' "$err" | grep -F '/nonexistent/method' |
		jq -r '.stack[] | select(.python) | "\(.func) (\(.file | sub(".*/"; "")):\(.line))"')
	[ "$got" = "$(expect mark=mark Shelf.load=method run=run-method '<module>=module')" ]
	# Native frames keep their shape.
	printf '%s\n' "$err" | grep -F '/nonexistent/method' | jq -e '[.stack[] | select(.python | not) | .func] | index("_PyEval_EvalFrameDefault") != null' >/dev/null
}

@test "--folded: the Python frames in the path, outermost first, between the native frames" {
	run_split ltruss -k -c --folded folded.txt -u libc:access "$PY" "$SCRIPT" key
	[ "$status" -eq 0 ]
	path=$(grep 'libc:access' folded.txt | sed -E 's/ [0-9]+$//' | tr ';' '\n')
	got=$(sed -nE 's/^([^ ]+) \((.*\/)?([^/]+\.py):([0-9]+)\)$/\1 (\3:\4)/p' <<<"$path")
	[ "$got" = "$(expect '<module>=module' run=run-key by_key=key mark=mark)" ]
	[ "$(tail -1 <<<"$path")" = libc:access ]
}

@test "-w then --read on its own: the same Python frames as the live trace" {
	run_split ltruss -k -w rec.ltr -u libc:access "$PY" "$SCRIPT" key
	[ "$status" -eq 0 ]
	run_split ltruss -k -o live.txt -u libc:access "$PY" "$SCRIPT" key
	run_split ltruss --read rec.ltr -k
	[ "$status" -eq 0 ]
	[ "$(pyframes "$out")" = "$(pyframes "$(cat live.txt)")" ]
	[ "$(pyframes "$out" | grep -c '^by_key (frames.py')" -eq 3 ]
	[ "$(pyframes "$(first_stack key "$out")")" = "$(expect mark=mark by_key=key run=run-key '<module>=module')" ]
}

@test "a thread that released the GIL (time.sleep) while another runs Python: its own frames" {
	run_split ltruss -k -u libc:clock_nanosleep "$PY" "$SCRIPT" released
	[ "$status" -eq 0 ]
	[ "$out" = "$("$PY" "$SCRIPT" released)" ]
	frames=$(pyframes "$(printf '%s\n' "$err" | awk '/^libc:clock_nanosleep/ { on = 1; next } on && /^ *> / { print; next } on { exit }')")
	[ "$(sed -n 1p <<<"$frames")" = "$(expect sleeper=sleeper)" ]
	not grep -q '^spin ' <<<"$frames"
}

@test "a frame whose previous frame is unreadable (a load there faults): the frames down to it, the program unharmed" {
	run_frames unreadable
	[ "$(pyframes "$(first_stack unreadable)")" = "$(expect mark=mark cut=cut run=run-unreadable)" ]
}

@test "-f: a forked child's frames, its code objects described again in its own ring" {
	run_split ltruss -f -k -u libc:access "$PY" "$SCRIPT" fork
	[ "$status" -eq 0 ]
	[ "$(pyframes "$(first_stack fork)")" = "$(expect mark=mark run=child '<module>=module')" ]
}

# other_pythons: interpreters besides Debian's found on PATH (3.12; 3.11 with a shared libpython), one a line.
other_pythons() {
	local v exe
	for v in 3.12 3.11; do
		exe=$(command -v "python$v" 2>/dev/null) || continue
		exe=$("$exe" -c 'import sys; print(sys.executable)' 2>/dev/null) || continue
		[ "$exe" != "$PY" ] && printf '%s\n' "$exe"
	done
}

@test "Python 3.12, and 3.11 with a shared libpython, where installed: the same frames, in the same places, and an unreadable frame survived" {
	pythons=$(other_pythons)
	[ -n "$pythons" ] || skip "no Python 3.12 nor another 3.11 on PATH"
	while read -r py; do
		run_split ltruss --stack=64 -u libc:access "$py" "$SCRIPT" key
		[ "$status" -eq 0 ]
		[ "$out" = "$("$py" "$SCRIPT" key)" ]
		stack=$(first_stack key)
		[ "$(pyframes "$stack")" = "$(expect mark=mark by_key=key run=run-key '<module>=module')" ]
		grep -B1 '^ > mark (' <<<"$stack" | head -1 | grep -q '^ > _PyEval_EvalFrameDefault+0x'
		sed -n '/^ > by_key (/,/^ > run (/p' <<<"$stack" | grep -q '^ > _PyEval_EvalFrameDefault+'
		run_split ltruss --stack=128 -u libc:access "$py" "$SCRIPT" deep 40
		[ "$status" -eq 0 ]
		[ "$(pyframes "$(first_stack deep)" | grep -c "^deep (frames.py:$(line deep))\$")" -eq 40 ]
		run_split ltruss --stack=64 -u libc:access "$py" "$SCRIPT" unreadable
		[ "$status" -eq 0 ]
		[ "$out" = "$("$py" "$SCRIPT" unreadable)" ]
		[ "$(pyframes "$(first_stack unreadable)")" = "$(expect mark=mark cut=cut run=run-unreadable)" ]
	done <<<"$pythons"
}

@test "the offsets the interposer reads are those of the installed CPython headers (3.11; 3.12 where installed)" {
	n=0
	for inc in /usr/include/python3.11 $(python3.12-config --includes 2>/dev/null | tr ' ' '\n' | sed -n 's/^-I//p' | head -1); do
		[ -f "$inc/internal/pycore_frame.h" ] || continue
		gcc -I"$inc" -I"$SRCDIR/lib" "$SRCDIR/tests/python/pylayout-check.c" \
			"$SRCDIR/lib/pyframes-layout.c" -o pylayout-check
		run ./pylayout-check
		assert_success
		assert_output --regexp '^3\.1[12]\.[0-9]+: as the headers say$'
		n=$((n + 1))
	done
	[ "$n" -ge 1 ] || skip "no CPython internal headers (python3.11-dev)"
}

@test "-k in Python reads the stack and the interpreter's frames without a system call a call (CPython's start-up asks for every signal's action)" {
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run strace -f -qq -e trace=process_vm_readv -o st.log "$LTRUSS" --stack=64 -o trace \
		-u libc:access "$PY" "$SCRIPT" loop 100
	[ "$status" -eq 0 ]
	# 100 calls, 20 + 1 deep each.
	[ "$(grep -c '^libc:access(' trace)" -eq 100 ]
	[ "$(grep -c "^deep (.*frames.py:$(line deep))\$" <<<"$(pyframes "$(cat trace)")")" -eq 2000 ]
	# Not one read through the kernel for each call, nor each frame.
	[ "$(grep -c process_vm_readv st.log)" -le 20 ] || { grep -c process_vm_readv st.log; false; }
}

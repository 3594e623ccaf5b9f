#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# outfiles.bats: the files ltruss writes (-o, -w, --folded, --chrome) refuse another user's symbolic link in a sticky world-writable directory, as the kernel's protected_symlinks would; -w files are the user's alone.

load helpers

# The fs.protected_symlinks sysctl may be 0 here (as in many containers):
# ltruss must not count on it.  These tests run as root, as make check does.
setup() {
	setup_hermetic
	[ "$(id -u)" -eq 0 ]
	mkdir -m 1777 shared
	echo precious >target
	ln -s "$PWD/target" shared/link
	chown -h nobody shared/link
}

# refused OPTION...: ltruss with OPTION writing through shared/link (the
# OPTION's file argument is shared/link) exits 2 with the one-line
# refusal, and the target is untouched.
refused() {
	local option=$1

	run ltruss "$@" -u libc:puts "$PROGS/stacks-chain"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "ltruss: error: refusing to write '"*"' ($option): '"*"' is a symbolic link of uid $(id -u nobody) in the sticky world-writable directory '"*"', whose owner is uid 0 (the kernel's protected_symlinks rule): remove the link, or write elsewhere" ]]
	[ "$(cat target)" = precious ]
}

@test "-o, -w, --folded, --chrome: another user's link in a sticky world-writable directory is refused, exit 2, its target untouched" {
	refused -o shared/link
	refused -w shared/link
	refused --folded shared/link
	refused --chrome shared/link
	# A link to a directory on the way, and a link reached by "..".
	mkdir -p shared/dir
	ln -s "$PWD" shared/dirlink
	chown -h nobody shared/dirlink
	refused -o shared/dirlink/target
	refused -o shared/dir/../link
	refused -o "$PWD/shared/link"
	# The link's target is never created either.
	rm target
	run ltruss -o shared/link true
	[ "$status" -eq 2 ]
	[ ! -e target ]
}

@test "links ltruss may follow are followed: the caller's or the directory owner's in a sticky directory, any in another directory, /dev/stderr, /proc/self/fd/N" {
	# Root's own link in the sticky directory (the kernel follows it too).
	ln -s "$PWD/target" shared/mine
	run_split ltruss -o shared/mine -u libc:puts "$PROGS/stacks-chain"
	[ "$status" -eq 0 ]
	grep -qx 'libc:puts("chain") = 6' target
	# Another user's link in a directory that is not sticky.
	mkdir plain
	chmod 0777 plain
	ln -s "$PWD/other" plain/link
	chown -h nobody plain/link
	run_split ltruss -o plain/link -u libc:puts "$PROGS/stacks-chain"
	[ "$status" -eq 0 ]
	grep -qx 'libc:puts("chain") = 6' other
	# The special files users name.
	run_split ltruss -o /dev/stderr -u libc:puts "$PROGS/stacks-chain"
	[ "$status" -eq 0 ]
	[ "$out" = chain ]
	grep -qx 'libc:puts("chain") = 6' <<<"$err"
	run_split ltruss -o /dev/null -u libc:puts "$PROGS/stacks-chain"
	[ "$status" -eq 0 ]
	[ -z "$err" ]
	run_split ltruss -o /proc/self/fd/5 -u libc:puts "$PROGS/stacks-chain" 5>fd5.txt
	[ "$status" -eq 0 ]
	grep -qx 'libc:puts("chain") = 6' fd5.txt
	run_split ltruss -c --folded /dev/stdout -u libc:puts "$PROGS/stacks-chain"
	[ "$status" -eq 0 ]
	grep -Eqx 'libc:puts [0-9]+' <<<"$out"
}

@test "-w creates its file 0600 whatever the umask; -o, --folded and --chrome keep the umask's mode" {
	umask 022
	run_split ltruss -k -w trace.ltr -u libc:puts "$PROGS/stacks-chain"
	[ "$status" -eq 0 ]
	[ "$(stat -c %a trace.ltr)" = 600 ]
	run_split ltruss --read trace.ltr -k
	[ "$status" -eq 0 ]
	grep -q '^ > leaf+0x' <<<"$out"
	umask 0
	run_split ltruss -k -w open.ltr -u libc:puts "$PROGS/stacks-chain"
	[ "$(stat -c %a open.ltr)" = 600 ]
	umask 022
	run_split ltruss -o trace.txt -c --folded f.txt --chrome c.json -u libc:puts "$PROGS/stacks-chain"
	[ "$status" -eq 0 ]
	[ "$(stat -c %a trace.txt f.txt c.json | sort -u)" = 644 ]
}

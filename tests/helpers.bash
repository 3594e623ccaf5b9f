# SPDX-License-Identifier: GPL-2.0-or-later
# helpers.bash: shared set-up for the bats suites: hermetic environment,
# paths to ltruss and the fixture programs, and a timeout around every run.

load "$BATS_LIB_DIR/bats-support/load.bash"
load "$BATS_LIB_DIR/bats-assert/load.bash"

LTRUSS="$LTRUSS_TOP_BUILDDIR/bin/ltruss"
PROGS="$LTRUSS_TOP_BUILDDIR/tests/progs/bin"
# canonical, as ltruss prints it (out of tree, make gives BUILDDIR/../SRC)
SRCDIR=$(cd "$LTRUSS_TOP_SRCDIR" && pwd -P)

# Hermetic: own HOME, C locale, no LTRUSS_* variables from outside.
setup_hermetic() {
	export HOME="$BATS_TEST_TMPDIR/home"
	mkdir -p "$HOME"
	export LC_ALL=C
	# Sessions register here (bin/console/registry.c): each test sees only its own.
	export XDG_RUNTIME_DIR="$BATS_TEST_TMPDIR/run"
	mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
	unset XDG_STATE_HOME
	unset $(env | sed -n 's/^\(LTRUSS_[A-Z_]*\)=.*/\1/p' | grep -v '^LTRUSS_TOP_') 2>/dev/null || true
	unset LD_AUDIT LD_PRELOAD
	cd "$BATS_TEST_TMPDIR"
}

setup() {
	setup_hermetic
}

# ltruss ARGS...: run ltruss with a timeout and stdin from /dev/null.
ltruss() {
	timeout -k 5 60 "$LTRUSS" "$@" </dev/null
}

# run_split CMD...: run CMD, with its stdout in $out and stderr in $err, status in $status.
run_split() {
	local o="$BATS_TEST_TMPDIR/stdout.$$" e="$BATS_TEST_TMPDIR/stderr.$$"
	status=0
	"$@" >"$o" 2>"$e" || status=$?
	out=$(cat "$o")
	err=$(cat "$e")
}

# not CMD...: succeed only if CMD fails.  A bare "! CMD" never fails a
# bats test (set -e ignores it); a function returning its status does.
not() {
	! "$@"
}

# Strip addresses so that lines can be compared: 0x55d1c2a3b000 -> ADDR.
normalize() {
	sed -E 's/0x[0-9a-f]{6,}/ADDR/g'
}

# console_stats_of_die LTRUSS_OPTION...: run ltruss with the options on the
# die fixture (100 fix_add calls, then it waits), attach a console that
# asks for "stats" (its output in $out and $err), then stop the program
# with SIGTERM and wait for ltruss.  The console must count all 100 calls.
console_stats_of_die() {
	local pid prog i

	"$LTRUSS" "$@" -u 'libfix:fix_add' "$PROGS/die" 100 wait ready </dev/null >/dev/null 2>ltruss.err 3>&- &
	pid=$!
	for i in $(seq 1 100); do [ -e ready ] && break; sleep 0.1; done
	run_split timeout 60 "$LTRUSS" --console="$pid" <<<'stats'
	prog=$(pgrep -P "$pid")
	kill -TERM "$prog"
	wait "$pid" || true
	grep -Eq ' 100 +0 libfix:fix_add$' <<<"$out$err"
}

# first_stack SCENARIO [TEXT]: the stack lines of the first access() of SCENARIO in TEXT ($err).
first_stack() {
	printf '%s\n' "${2-$err}" | awk -v call="libc:access(\"/nonexistent/$1\"" '
		index($0, call) == 1 { if (on) exit; on = 1; next }
		on && /^ *> / { print; next }
		on { exit }'
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# linkers.bats: objects linked by bfd, gold, lld and mold, and rewritten by
# patchelf, whatever their section order, are traced as any other.

load helpers

# The fixture variants (tests/progs/linkers/build): one directory each.
LINKERS="$PROGS/linkers"

# The calls ln makes into libln.so, and libln.so into libdep.so.
declare -A CALLS=([libln:ln_add]=3 [libln:ln_greet]=2 [libln:ln_apply]=1)
DEP_CALLS=4

# each_run CHECK LTRUSS-OPTIONS...: for every variant, its program linked
# with libln.so at start and the one that dlopens it: run it untraced, then
# under ltruss with the options ($out, $err, $status, $plain, $dir set),
# then CHECK, which prints what is wrong.  Fails naming every run that did.
each_run() {
	local check=$1 d run why failed=""
	shift
	for d in "$LINKERS"/*/; do
		dir=${d%/}
		for run in ln "ln-dl libln.so"; do
			# shellcheck disable=SC2086
			plain=$("$dir"/$run)
			# shellcheck disable=SC2086
			run_split ltruss "$@" "$dir"/$run
			why=$("$check" "$run")
			if [ "$status" -ne 0 ] || [ "$out" != "$plain" ]; then
				why="status $status, output '$out', untraced '$plain'; $why"
			fi
			if [ -n "$why" ]; then
				failed+="${dir##*/} ${run%% *}: $why"$'\n'
				failed+="$(tail -n 5 <<<"$err")"$'\n'
			fi
		done
	done
	[ -z "$failed" ] || {
		echo "$failed"
		return 1
	}
}

# count_of FUNC: the calls -c's summary in $err counts for FUNC (lib:name).
count_of() {
	awk -v f="$1" '$NF == f { print $(NF - 2) }' <<<"$err"
}

# Check -c's counts of the calls the program makes (and libln's into libdep with $1 = dep).
check_counts() {
	local f
	for f in "${!CALLS[@]}"; do
		[ "$(count_of "$f")" = "${CALLS[$f]}" ] ||
			echo "$f counted '$(count_of "$f")', not ${CALLS[$f]}"
	done
	if [ "${DEP:-}" ]; then
		f=$(awk '$NF ~ /^libdep[^:]*:dep_twice$/ { print $(NF - 2) }' <<<"$err")
		[ "$f" = "$DEP_CALLS" ] || echo "dep_twice counted '$f', not $DEP_CALLS"
	fi
	check_runtime
}

# A C++ library with its own runtime is recognised: its exceptions must not meet a hijacked return.
check_runtime() {
	case $dir in
	*cxx) grep -q "^ltruss: warning: $dir/libln.so has its own C++ runtime" <<<"$err" ||
		echo "libln.so's own C++ runtime not recognised" ;;
	esac
}

# Check the plain trace: one line per call the program makes.
check_lines() {
	local f n
	for f in "${!CALLS[@]}"; do
		n=$(grep -c "^$f(" <<<"$err")
		[ "$n" = "${CALLS[$f]}" ] || echo "$n lines of $f, not ${CALLS[$f]}"
	done
	check_runtime
}

@test "-c counts every call into objects of every linker and patchelf, linked at start and dlopened" {
	each_run check_counts -c
}

@test "a plain trace shows every call into objects of every linker and patchelf" {
	each_run check_lines
}

@test "-u lib:func selects the functions of objects of every linker and patchelf, and calls between them" {
	DEP=1 each_run check_counts -c -u 'libln:ln_*' -u 'libdep*:dep_*'
}

@test "--list reads the objects of every linker and patchelf" {
	local d dir f addr failed=""
	for d in "$LINKERS"/*/; do
		dir=${d%/}
		run_split ltruss --list -u 'libln:ln_*' -u 'libdep*:dep_*' "$dir/ln"
		[ "$status" -eq 0 ] || failed+="${dir##*/}: status $status: $err"$'\n'
		for f in ln_add ln_greet ln_apply; do
			addr=$(nm -D --defined-only "$dir/libln.so" | awk -v f="$f" '$3 == f { print $1 }')
			grep -Eq "^libln +$f +- +0x0*${addr#"${addr%%[1-9a-f]*}"} " <<<"$out" ||
				failed+="${dir##*/}: no row 'libln $f 0x$addr' in: $out"$'\n'
		done
		grep -Eq '^libdep[^ ]* +dep_twice ' <<<"$out" ||
			failed+="${dir##*/}: no row of dep_twice in: $out"$'\n'
	done
	[ -z "$failed" ] || {
		echo "$failed"
		return 1
	}
}

@test "python3 loads patchelf'ed and lld-linked libraries with ctypes" {
	local v failed="" script='import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.ln_greet(b"python")
print(lib.ln_apply(20))'
	for v in pe-rpath pe-replace pe-cxx pe-lld lld-gnu mold-gnu; do
		plain=$(/usr/bin/python3 -c "$script" "$LINKERS/$v/libln.so")
		run_split ltruss -c -u 'libln:ln_*' -u 'libdep*:dep_*' \
			/usr/bin/python3 -c "$script" "$LINKERS/$v/libln.so"
		if [ "$status" -ne 0 ] || [ "$out" != "$plain" ] ||
			[ "$(count_of libln:ln_greet)" != 1 ] ||
			[ "$(count_of libln:ln_apply)" != 1 ] ||
			not grep -Eq ' 1 +0 libdep[^:]*:dep_twice$' <<<"$err"; then
			failed+="$v: status $status, output '$out', untraced '$plain': $err"$'\n'
		fi
	done
	[ -z "$failed" ] || {
		echo "$failed"
		return 1
	}
}

@test "chromium (lld) dumps a page's DOM under -c and -f -c as it does untraced" {
	local page="$BATS_TEST_TMPDIR/page.html" m failed=""
	local cmd=(chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$page")
	echo '<p id="x">static</p><script>document.getElementById("x").textContent = "ran"</script>' >"$page"
	plain=$("${cmd[@]}" 2>/dev/null)
	grep -q '<p id="x">ran</p>' <<<"$plain"
	for m in "-c" "-f -c"; do
		# shellcheck disable=SC2086
		run_split ltruss $m -o "$BATS_TEST_TMPDIR/summary" "${cmd[@]}"
		if [ "$status" -ne 0 ] || [ "$out" != "$plain" ] ||
			grep -q 'killed by' "$BATS_TEST_TMPDIR/summary" ||
			not grep -Eq '^100\.00 +[0-9.]+ +[1-9][0-9]* +[0-9]+ total$' "$BATS_TEST_TMPDIR/summary"; then
			failed+="$m: status $status, output '$out', untraced '$plain': $(tail -n 3 "$BATS_TEST_TMPDIR/summary")"$'\n'
		fi
	done
	[ -z "$failed" ] || {
		echo "$failed"
		return 1
	}
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# heap.bats: --heap, live bytes by allocation stack at the peak and at exit, on fixtures with known allocations and on real programs.

load helpers

# offsets: the report in $err with its frames' offsets as +OFF and the time of its peak as +T.
offsets() {
	printf '%s\n' "$err" | sed -E 's/\+0x[0-9a-f]+ \(/+OFF (/g; s/ at \+[0-9]+\.[0-9]{3} s;/ at +T s;/; s/^\[pid [0-9]+\]/[pid PID]/'
}

@test "--heap: the exact peak with the stacks holding it, and every block still allocated at exit" {
	run_split ltruss --heap "$PROGS/heapfix" basic
	[ "$status" -eq 0 ]
	[ -z "$out" ]
	# heapfix.c: 99 x 10000 kept, 5 x 1000000 freed, then a realloc chain
	# (100, 1000, 100000: kept), memalign 1000, posix_memalign 2000,
	# aligned_alloc 4096, valloc 3000 kept, reallocarray 10 x 30 freed.
	[ "$(offsets)" = "heap: peak 5.7 MiB (5990000 bytes in 104 blocks) at +T s; at exit 1.0 MiB (1100096 bytes in 104 blocks); 112 allocations, 8 frees
at the peak           bytes  blocks  allocated at
                    5000000       5  calloc < peak_b+OFF (heapfix) < main+OFF (heapfix)
                     990000      99  malloc < leak_a+OFF (heapfix) < main+OFF (heapfix)
still allocated at exit
                     990000      99  malloc < leak_a+OFF (heapfix) < main+OFF (heapfix)
                     100000       1  realloc < grow+OFF (heapfix) < main+OFF (heapfix)
                       4096       1  aligned_alloc < aligned+OFF (heapfix) < main+OFF (heapfix)
                       3000       1  valloc < aligned+OFF (heapfix) < main+OFF (heapfix)
                       2000       1  posix_memalign < aligned+OFF (heapfix) < main+OFF (heapfix)
                       1000       1  memalign < aligned+OFF (heapfix) < main+OFF (heapfix)" ]
}

@test "--heap --summary-format json: the totals, then one object per stack at the peak and at exit" {
	run_split ltruss --heap --summary-format json "$PROGS/heapfix" basic
	[ "$status" -eq 0 ]
	[ "$(jq -c 'select(.type == "heap-total") | del(.pid, .peak_ts)' <<<"$err")" = \
	  '{"type":"heap-total","peak_bytes":5990000,"peak_blocks":104,"exit_bytes":1100096,"exit_blocks":104,"allocs":112,"frees":8,"unknown_frees":0}' ]
	[ "$(jq -r 'select(.type == "heap") | [.when, .bytes, .blocks, .stack[0], (.stack[1:] | map(sub("\\+0x[0-9a-f]+"; "")) | join(" < "))] | join(" ")' <<<"$err")" = \
	  "peak 5000000 5 calloc peak_b (heapfix) < main (heapfix)
peak 990000 99 malloc leak_a (heapfix) < main (heapfix)
exit 990000 99 malloc leak_a (heapfix) < main (heapfix)
exit 100000 1 realloc grow (heapfix) < main (heapfix)
exit 4096 1 aligned_alloc aligned (heapfix) < main (heapfix)
exit 3000 1 valloc aligned (heapfix) < main (heapfix)
exit 2000 1 posix_memalign aligned (heapfix) < main (heapfix)
exit 1000 1 memalign aligned (heapfix) < main (heapfix)" ]
	# The peak's time is within the run: after the start, in ns.
	ts=$(jq 'select(.type == "heap-total") | .peak_ts' <<<"$err")
	[ "$ts" -gt 0 ]
	[ "$ts" -lt 60000000000 ]
}

@test "--heap copies the stacks of allocations only: -C shows frees without frames" {
	run_split ltruss --heap -C "$PROGS/heapfix" basic
	[ "$status" -eq 0 ]
	# Each calloc of peak_b has its frames; the frees of its blocks none.
	[ "$(printf '%s\n' "$err" | grep -A1 '^libc:calloc(1000, 1000) = ' | grep -c '^ > peak_b+0x')" -eq 5 ]
	[ "$(printf '%s\n' "$err" | grep -c '^libc:free(0x')" -ge 5 ]
	[ "$(printf '%s\n' "$err" | grep -A1 '^libc:free(0x' | grep -c '^ > ')" -eq 0 ]
	# The report is the same as without -C.
	[[ "$err" == *"heap: peak 5.7 MiB (5990000 bytes in 104 blocks) at +"* ]]
}

@test "--heap --folded FILE: the live bytes at the peak by path of functions, outermost first" {
	run_split ltruss --heap --folded heap.folded "$PROGS/heapfix" basic
	[ "$status" -eq 0 ]
	[ "$(cat heap.folded)" = "main;leak_a;malloc 990000
main;peak_b;calloc 5000000" ]
	# The report is printed as ever.
	[[ "${err%%$'\n'*}" == "heap: peak 5.7 MiB (5990000 bytes in 104 blocks) at +"* ]]
}

@test "--heap counts operator new and delete once, at the program's call, not again as libstdc++'s malloc" {
	run_split ltruss --heap --summary-format json "$PROGS/heapfix-cxx"
	[ "$status" -eq 0 ]
	# heapfix-cxx.cc: 10 x 48 kept, 5 x 48 deleted, 2 x new[1000] kept,
	# new[4000] deleted, one 64-aligned 256 deleted.
	[ "$(jq -r 'select(.type == "heap" and .when == "exit" and (.stack[0] | startswith("operator new"))) | [.bytes, .blocks, .stack[0], (.stack[1] | sub("\\+0x[0-9a-f]+"; ""))] | join(" ")' <<<"$err")" = \
	  "1000 1 operator new[](unsigned long) make_arrays() (heapfix-cxx)
1000 1 operator new[](unsigned long) make_arrays() (heapfix-cxx)
480 10 operator new(unsigned long) make_objs() (heapfix-cxx)" ]
	[ "$(jq -r 'select(.type == "heap" and .when == "peak" and .stack[0] == "operator new[](unsigned long)") | .bytes' <<<"$err" | paste -sd' ')" = "4000 1000 1000" ]
	# No block is counted twice: never a malloc made by operator new.
	[ "$(jq -r 'select(.type == "heap") | .stack[1:][] | select(test("operator new"))' <<<"$err")" = "" ]
	# 19 news and 7 deletes, whatever libstdc++ itself allocates with malloc.
	others=$(jq -s '[.[] | select(.type == "heap" and .when == "exit" and (.stack[0] | startswith("operator") | not)) | .blocks] | add // 0' <<<"$err")
	[ "$(jq -c "select(.type == \"heap-total\") | [.allocs - $others, .frees, .unknown_frees]" <<<"$err")" = "[19,7,0]" ]
}

@test "--heap: blocks two threads allocate and the other one frees, addresses reused at once, are all matched" {
	run_split ltruss --heap "$PROGS/heapfix" threads
	[ "$status" -eq 0 ]
	# 2 x 2000 blocks exchanged and freed, 2 x 10 x 300 kept.
	[[ "${err%%$'\n'*}" =~ \;\ at\ exit\ 5\.9\ KiB\ \(6000\ bytes\ in\ 20\ blocks\)\;\ 4020\ allocations,\ 4000\ frees$ ]]
	[ "$(offsets | sed -n '/^still allocated at exit/,$p')" = "still allocated at exit
                       6000      20  malloc < exchange+OFF (heapfix)" ]
}

@test "--heap after a crash: the blocks allocated until the signal, and how the program ended" {
	run_split ltruss --heap "$PROGS/heapfix" crash
	[ "$status" -eq $((128 + 11)) ]
	[[ "$err" == *"+++ killed by SIGSEGV"* ]]
	[[ "$err" == *"; at exit 3.6 KiB (3702 bytes in 3 blocks); 3 allocations, 0 frees"* ]]
	[ "$(offsets | sed -n '/^still allocated at exit/,$p' | sort | uniq -c | sed 's/^ *//')" = "3                        1234       1  malloc < crash_leak+OFF (heapfix) < main+OFF (heapfix)
1 still allocated at exit" ]
}

@test "--heap -f: one report per process; a free of a block the process never allocated is counted apart" {
	run_split ltruss -f --heap --summary-format json "$PROGS/heapfix" fork
	[ "$status" -eq 0 ]
	[ "$(jq -c 'select(.type == "heap-total") | [.allocs, .frees, .unknown_frees, .exit_bytes, .exit_blocks]' <<<"$err")" = "[1,1,0,0,0]
[1,0,1,555,1]" ]
	[ "$(jq -r 'select(.type == "heap-total") | .pid' <<<"$err" | sort -u | wc -l)" -eq 2 ]
	run_split ltruss -f --heap "$PROGS/heapfix" fork
	[[ "$err" == *"heap: peak 555 B (555 bytes in 1 blocks) at +"*"; at exit 555 B (555 bytes in 1 blocks); 1 allocations, 0 frees; 1 frees of blocks never seen allocated (allocated before tracing, or by an untraced path)"* ]]
	[ "$(printf '%s\n' "$err" | grep -c '^\[pid [0-9]*\] heap: peak ')" -eq 2 ]
}

@test "--heap across an exec: the first program's blocks are reported as held at the exec, not as the second one's leaks" {
	run_split ltruss --heap "$PROGS/heapfix" exec
	[ "$status" -eq 0 ]
	[ "$(offsets | grep -v '^ ')" = "[pid PID] heap: peak 4.2 KiB (4321 bytes in 1 blocks) at +T s; at exec 4.2 KiB (4321 bytes in 1 blocks); 1 allocations, 0 frees
at the peak           bytes  blocks  allocated at
still allocated at exec
[pid PID] heap: peak 5.7 MiB (5990000 bytes in 104 blocks) at +T s; at exit 1.0 MiB (1100096 bytes in 104 blocks); 112 allocations, 8 frees
at the peak           bytes  blocks  allocated at
still allocated at exit" ]
	[ "$(printf '%s\n' "$err" | grep -c '^\[pid '"$(printf '%s\n' "$err" | sed -nE '1s/^\[pid ([0-9]+)\].*/\1/p')"'\] heap:')" -eq 2 ]
}

@test "-w FILE --heap, then --read FILE --heap: the same report as live" {
	run_split ltruss --heap "$PROGS/heapfix" basic
	[ "$status" -eq 0 ]
	live=$(offsets)
	run_split ltruss -w heap.ltr --heap "$PROGS/heapfix" basic
	[ "$status" -eq 0 ]
	[ -z "$err" ]
	run_split ltruss --read heap.ltr --heap
	[ "$status" -eq 0 ]
	err=$out
	[ "$(offsets)" = "$live" ]
	# Threads: where the peak falls depends on the run; what is left does not.
	run_split ltruss -w threads.ltr --heap "$PROGS/heapfix" threads
	[ "$status" -eq 0 ]
	run_split ltruss --read threads.ltr --heap --summary-format json
	[ "$status" -eq 0 ]
	[ "$(jq -c 'select(.type == "heap-total") | [.allocs, .frees, .unknown_frees, .exit_bytes, .exit_blocks]' <<<"$out")" = "[4020,4000,0,6000,20]" ]
}

@test "--read FILE --heap of a trace without allocator calls says so" {
	run_split ltruss -w fix.ltr -u libfix:fix_add "$PROGS/fix-lazy"
	[ "$status" -eq 0 ]
	run_split ltruss --read fix.ltr --heap
	[ "$status" -eq 0 ]
	[ "$out" = "heap: no allocator call was traced" ]
}

@test "--heap on sort: its output unchanged, its buffer the biggest block at the peak" {
	seq 1 20000 | sort -R --random-source=/dev/zero >in.txt
	sort in.txt >want.txt
	run_split ltruss --heap sort in.txt
	[ "$status" -eq 0 ]
	[ "$out" = "$(cat want.txt)" ]
	[[ "${err%%$'\n'*}" =~ ^heap:\ peak\ [0-9.]+\ [KMG]iB\ \([0-9]+\ bytes\ in\ [0-9]+\ blocks\)\ at\ \+[0-9.]+\ s\;\ at\ exit ]]
	# The line buffer sort sized for its input, allocated by sort itself.
	[[ "$(printf '%s\n' "$err" | sed -n 3p)" =~ ^\ +[0-9]{6,}\ +1\ \ malloc\ \<\ .*\(sort\) ]]
}

@test "--heap on python3 -c: its output unchanged, every free matched" {
	code='import json; d = {str(i): [i] * 10 for i in range(20000)}; print(len(json.dumps(d)))'
	# The interpreter itself, not a wrapper script (pyenv's) that execs it.
	py=$(python3 -c 'import sys; print(sys.executable)')
	want=$("$py" -c "$code")
	run_split ltruss --heap --summary-format json "$py" -c "$code"
	[ "$status" -eq 0 ]
	[ "$out" = "$want" ]
	[ "$(jq -c 'select(.type == "heap-total") | [.allocs > 1000, .unknown_frees, .allocs - .frees == .exit_blocks, .peak_bytes > 1000000]' <<<"$err")" = "[true,0,true,true]" ]
}

@test "--heap with more -u rules than the session holds: an error that says so" {
	args=()
	for i in $(seq 1 256); do args+=(-u "libfix:f$i"); done
	run_split ltruss "${args[@]}" --heap "$PROGS/fix-lazy"
	[ "$status" -eq 2 ]
	[[ "$err" == "ltruss: error: --heap cannot select the allocator: "* ]]
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * heap-test.c: TAP unit tests of --heap's accounting (bin/report/heap.c,
 * bin/report/heap-blocks.c) on made-up allocator calls, for what a real program
 * cannot be made to do on demand: a free whose block another thread is
 * given again before the free returns, the peak kept exactly however
 * the stacks change after it, and a block table under heavy churn.
 * The names and frames of calls come from the stubs below.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bin/session/catalog.h"
#include "bin/util/error.h"
#include "bin/format/format-stack.h"
#include "bin/report/heap-blocks.h"
#include "bin/report/heap-state.h"
#include "bin/report/heap.h"
#include "bin/symbols/objmap.h"
#include "bin/util/outfile.h"
#include "bin/config/selection.h"
#include "tests/unit/tap.h"


/* ---- stubs of what heap.c asks of the rest of ltruss -------------------- */

enum { MALLOC, FREE, REALLOC, NEW, CALLOC };
static const char *const names[] = { "malloc", "free", "realloc", "_Znwm",
				     "calloc" };

/* A frame is a struct named ltruss never made: its address is its identity. */
static char frames[8];

const char *format_func_raw(uint32_t fn)
{
	return fn < 5 ? names[fn] : "other";
}

/* No session and no file: no function's library, no objects (catalog.h). */
const char *catalog_func_string(uint32_t fn, bool lib)
{
	(void)fn;
	(void)lib;
	return NULL;
}

/* No objects recorded (objmap.h), at any time. */
const struct stack_objects *objmap_sync_at(uint64_t when)
{
	static const struct stack_objects none;

	(void)when;
	return &none;
}

const struct stack_object *objmap_own(const struct stack_objects *objs,
				      int pid, uint64_t addr)
{
	(void)objs;
	(void)pid;
	(void)addr;
	return NULL;
}

/* The stack of a call is frames[args[5]], one frame (args[5] < 8). */
int stack_names(const struct who *w, const struct call *c,
		const struct named **out)
{
	(void)w;
	out[0] = (const struct named *)&frames[c->args[5] % 8];
	return 1;
}

FILE *outfile_stream(const char *file, const char *option)
{
	(void)file;
	(void)option;
	return NULL;
}

const char *selection_add_u(struct selection *sel, const char *arg)
{
	(void)sel;
	(void)arg;
	return NULL;
}

void error_msg_and_die(const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	vfprintf(stderr, format, ap);
	va_end(ap);
	exit(2);
}

/* ---- making calls --------------------------------------------------------- */

/*
 * Function fn of pid, with arguments a0 and a1, from stack st, entered at
 * tsc enter, returned rax at tsc exit; inside: the allocator call it is
 * nested in (-1: none).
 */
static void call(int pid, uint32_t fn, uint64_t a0, uint64_t a1, unsigned st,
		 uint64_t enter, uint64_t exit_, uint64_t rax, int inside)
{
	struct who w = { .pid = pid, .tid = pid };
	struct call c = { .fn = fn, .args = { a0, a1, 0, 0, 0, st },
			  .ts_enter = enter };
	struct call outer = { .fn = inside >= 0 ? (uint32_t)inside : 0 };
	const struct call *stack[1] = { &outer };
	struct result r = { .returned = true, .rax = rax, .ts_exit = exit_ };

	heap_call(&w, stack, inside >= 0 ? 1 : 0, &c, &r);
}

/* The one process's totals. */
static const struct heap_proc *proc(void)
{
	size_t n;
	struct heap_proc *const *p = heap_procs(&n);

	return n ? p[n - 1] : NULL;
}

/* The bytes stack st held at the peak (peak) or now. */
static uint64_t stack_bytes(unsigned st, bool peak)
{
	size_t n, i;
	struct heap_stack *const *all = heap_stacks(&n);
	uint64_t bytes = 0, b, blocks;

	for (i = 0; i < n; i++) {
		if (all[i]->frames[0] != (const struct named *)&frames[st])
			continue;
		if (peak)
			heap_stack_at_peak(all[i], &b, &blocks);
		else
			b = all[i]->bytes;
		bytes += b;
	}
	return bytes;
}

/* ---- the cases -------------------------------------------------------------- */

static void test_peak(void)
{
	heap_init(true, NULL);
	call(1, MALLOC, 100, 0, 1, 1, 2, 0x1000, -1);
	call(1, MALLOC, 200, 0, 2, 3, 4, 0x2000, -1);
	call(1, FREE, 0x1000, 0, 0, 5, 6, 0, -1);
	call(1, MALLOC, 50, 0, 1, 7, 8, 0x3000, -1);
	tap(proc()->peak_bytes == 300 && proc()->peak_blocks == 2 &&
	    proc()->peak_ts == 4, "the peak: 300 bytes in 2 blocks, when the second block came");
	tap(stack_bytes(1, true) == 100 && stack_bytes(2, true) == 200,
	    "the stacks at the peak: as they were then, not as they are");
	tap(stack_bytes(1, false) == 50 && stack_bytes(2, false) == 200 &&
	    proc()->bytes == 250, "the stacks now");
	call(1, MALLOC, 1000, 0, 3, 9, 10, 0x4000, -1);
	call(1, FREE, 0x2000, 0, 0, 11, 12, 0, -1);
	tap(proc()->peak_bytes == 1250 && stack_bytes(1, true) == 50 &&
	    stack_bytes(2, true) == 200 && stack_bytes(3, true) == 1000,
	    "a higher peak: every stack as it was at that one");
	tap(proc()->allocs == 4 && proc()->frees == 2 && proc()->blocks == 2,
	    "allocations less frees are the blocks left");
	heap_done();
}

static void test_reused_before_free_returns(void)
{
	heap_init(true, NULL);
	call(1, MALLOC, 64, 0, 1, 1, 2, 0x1000, -1);
	/* Thread A frees 0x1000 from tsc 10 to 30; thread B is given it at 20. */
	call(1, MALLOC, 32, 0, 2, 15, 20, 0x1000, -1);
	call(1, FREE, 0x1000, 0, 0, 10, 30, 0, -1);
	tap(proc()->bytes == 32 && proc()->blocks == 1 && stack_bytes(2, false) == 32,
	    "a block handed out again before its free returned: the new one lives");
	tap(proc()->frees == 1 && proc()->unknown_frees == 0,
	    "the old one is freed once, and its free is no unknown one");
	call(1, FREE, 0x1000, 0, 0, 40, 41, 0, -1);
	tap(proc()->bytes == 0 && proc()->frees == 2 && proc()->unknown_frees == 0,
	    "the new one's own free frees it");
	call(1, FREE, 0x9000, 0, 0, 50, 51, 0, -1);
	tap(proc()->unknown_frees == 1 && proc()->frees == 2,
	    "a free of a block never seen is counted apart");
	heap_done();
}

static void test_realloc_and_nesting(void)
{
	heap_init(true, NULL);
	call(1, REALLOC, 0, 100, 1, 1, 2, 0x1000, -1);
	call(1, MALLOC, 100, 0, 5, 1, 2, 0x1000, REALLOC); /* its inner malloc */
	call(1, REALLOC, 0x1000, 500, 2, 3, 4, 0x2000, -1);
	tap(proc()->allocs == 2 && proc()->frees == 1 && proc()->bytes == 500 &&
	    stack_bytes(2, false) == 500 && stack_bytes(5, false) == 0,
	    "realloc moves the block to its stack; the malloc inside it is not counted");
	call(1, REALLOC, 0x2000, 1 << 30, 2, 5, 6, 0, -1);
	tap(proc()->bytes == 500 && proc()->blocks == 1,
	    "a failed realloc keeps the block");
	call(1, REALLOC, 0x2000, 0, 2, 7, 8, 0, -1);
	tap(proc()->bytes == 0 && proc()->blocks == 0 && proc()->frees == 2,
	    "realloc(p, 0) frees it");
	call(1, NEW, 48, 0, 3, 9, 12, 0x3000, -1);
	call(1, MALLOC, 48, 0, 4, 10, 11, 0x3000, NEW);
	call(1, CALLOC, 1ull << 62, 8, 4, 13, 14, 0x4000, -1);
	tap(proc()->allocs == 3 && proc()->bytes == 48 && stack_bytes(3, false) == 48,
	    "operator new counted once, not its malloc; calloc whose size overflows is not a block");
	heap_done();
}

static void test_churn(void)
{
	uint64_t i, live = 0, ok = 1;

	heap_init(true, NULL);
	/* 200000 blocks, every other one freed at once, the rest at the end. */
	for (i = 1; i <= 200000; i++) {
		call(7, MALLOC, i % 100, 0, (unsigned)(i % 7), 2 * i, 2 * i + 1,
		     0x10000 + 16 * i, -1);
		if (i % 2) {
			call(7, FREE, 0x10000 + 16 * i, 0, 0, 2 * i + 1, 2 * i + 1, 0, -1);
		} else {
			live += i % 100;
		}
	}
	ok = proc()->bytes == live && proc()->blocks == 100000;
	for (i = 2; i <= 200000; i += 2)
		call(7, FREE, 0x10000 + 16 * i, 0, 0, 500000 + i, 500000 + i, 0, -1);
	tap(ok && proc()->bytes == 0 && proc()->blocks == 0 &&
	    proc()->unknown_frees == 0 && proc()->frees == 200000,
	    "200000 blocks in and out of the table, every one found");
	heap_done();
}

int main(void)
{
	test_peak();
	test_reused_before_free_returns();
	test_realloc_and_nesting();
	test_churn();
	printf("1..%u\n", tap_tests);
	return tap_failures ? 1 : 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tcllayout-check.c: the offsets lib/tclframes.h holds, against offsetof()
 * in the installed Tcl 8.6 headers (tcl8.6-dev's tclInt.h; built by
 * tests/tclframes.bats).  Prints each field that differs; exit 1 if one
 * does.
 */
#include <stddef.h>
#include <stdio.h>
#include <tclInt.h>

#include "tclframes.h"

static int bad;

/* Does field name hold want? */
static void check(const char *name, size_t got, size_t want)
{
	if (got == want)
		return;
	printf("%s: %zu in tclframes.h, %zu in the headers\n", name, got, want);
	bad = 1;
}

#define CHECK(field, type, member) check(#field, field, offsetof(type, member))

int main(void)
{
	CHECK(IP_NUM_LEVELS, Interp, numLevels);
	CHECK(IP_FRAME, Interp, framePtr);
	CHECK(IP_FLAGS, Interp, flags);
	check("IP_DELETED", IP_DELETED, DELETED);
	CHECK(CF_KIND, CallFrame, isProcCallFrame);
	CHECK(CF_OBJC, CallFrame, objc);
	CHECK(CF_OBJV, CallFrame, objv);
	CHECK(CF_CALLER, CallFrame, callerPtr);
	CHECK(CF_LEVEL, CallFrame, level);
	CHECK(OBJ_BYTES, Tcl_Obj, bytes);
	CHECK(OBJ_LENGTH, Tcl_Obj, length);
	/* Two ints read as one word: isProcCallFrame, then objc. */
	check("CF_OBJC - CF_KIND", CF_OBJC - CF_KIND, sizeof(int));
	check("sizeof objc", sizeof(((CallFrame *)0)->objc), 4);
	if (!bad)
		printf("%s: as the headers say\n", TCL_PATCH_LEVEL);
	return bad;
}

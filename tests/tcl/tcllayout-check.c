/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tcllayout-check.c: the offsets lib/tclframes.h holds, against offsetof()
 * in the installed Tcl 8.6 headers (tcl8.6-dev's tclInt.h, tclCompile.h; built by
 * tests/tclframes.bats).  Prints each field that differs; exit 1 if one
 * does.
 */
#include <stddef.h>
#include <stdio.h>
#include <tclInt.h>
#include <tclCompile.h>

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
	CHECK(CF_PROC, CallFrame, procPtr);
	CHECK(PROC_BODY, Proc, bodyPtr);
	CHECK(OBJ_PTR1, Tcl_Obj, internalRep.twoPtrValue.ptr1);
	CHECK(OBJ_BYTES, Tcl_Obj, bytes);
	CHECK(OBJ_LENGTH, Tcl_Obj, length);
	CHECK(IP_CMD_FRAME, Interp, cmdFramePtr);
	CHECK(IP_LINE_BC, Interp, lineBCPtr);
	CHECK(CMD_TYPE, CmdFrame, type);
	CHECK(CMD_LINE, CmdFrame, line);
	CHECK(CMD_NLINE, CmdFrame, nline);
	CHECK(CMD_FRAME, CmdFrame, framePtr);
	CHECK(CMD_NEXT, CmdFrame, nextPtr);
	CHECK(CMD_CODE, CmdFrame, data.tebc.codePtr);
	CHECK(CMD_PC, CmdFrame, data.tebc.pc);
	CHECK(CMD_PATH, CmdFrame, data.eval.path);
	check("LOCATION_BC", LOCATION_BC, TCL_LOCATION_BC);
	check("LOCATION_SOURCE", LOCATION_SOURCE, TCL_LOCATION_SOURCE);
	CHECK(BC_SOURCE, ByteCode, source);
	CHECK(BC_NUM_COMMANDS, ByteCode, numCommands);
	CHECK(BC_CODE_START, ByteCode, codeStart);
	CHECK(BC_CODE_DELTA, ByteCode, codeDeltaStart);
	CHECK(BC_CODE_LENGTH, ByteCode, codeLengthStart);
	CHECK(BC_SRC_DELTA, ByteCode, srcDeltaStart);
	CHECK(BC_SRC_LENGTH, ByteCode, srcLengthStart);
	CHECK(HT_BUCKETS, Tcl_HashTable, buckets);
	CHECK(HT_DOWN_SHIFT, Tcl_HashTable, downShift);
	CHECK(HT_MASK, Tcl_HashTable, mask);
	CHECK(HE_NEXT, Tcl_HashEntry, nextPtr);
	CHECK(HE_VALUE, Tcl_HashEntry, clientData);
	CHECK(HE_KEY, Tcl_HashEntry, key);
	CHECK(ECL_TYPE, ExtCmdLoc, type);
	CHECK(ECL_PATH, ExtCmdLoc, path);
	CHECK(ECL_LOC, ExtCmdLoc, loc);
	CHECK(ECL_NULOC, ExtCmdLoc, nuloc);
	CHECK(LOC_SRC_OFFSET, ECL, srcOffset);
	CHECK(LOC_LINE, ECL, line);
	check("LOC_SIZE", LOC_SIZE, sizeof(ECL));
	/* Two ints read as one word: isProcCallFrame, then objc. */
	check("CF_OBJC - CF_KIND", CF_OBJC - CF_KIND, sizeof(int));
	check("sizeof objc", sizeof(((CallFrame *)0)->objc), 4);
	if (!bad)
		printf("%s: as the headers say\n", TCL_PATCH_LEVEL);
	return bad;
}

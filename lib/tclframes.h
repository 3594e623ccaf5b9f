/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tclframes.h: where -k reads a Tcl 8.6 interpreter's frames: offsetof()
 * of each field in Tcl 8.6.13's tclInt.h, tclCompile.h and tcl.h on
 * x86_64; tests/tcl/tcllayout-check.c checks them against the installed
 * headers.
 */
#ifndef LTRUSS_TCLFRAMES_H
#define LTRUSS_TCLFRAMES_H

#define IP_NUM_LEVELS 152 /* Interp.numLevels */
#define IP_FRAME 160      /* Interp.framePtr */
#define IP_FLAGS 424      /* Interp.flags */
#define IP_DELETED 0x1    /* DELETED */
#define IP_CMD_FRAME 952  /* Interp.cmdFramePtr */
#define IP_LINE_BC 984    /* Interp.lineBCPtr: ByteCode -> ExtCmdLoc */
#define CF_KIND 8         /* CallFrame.isProcCallFrame */
#define CF_OBJC 12        /* CallFrame.objc, the int after isProcCallFrame */
#define CF_OBJV 16        /* CallFrame.objv */
#define CF_CALLER 24      /* CallFrame.callerPtr */
#define CF_LEVEL 40       /* CallFrame.level */
#define CF_PROC 48        /* CallFrame.procPtr */
#define PROC_BODY 24      /* Proc.bodyPtr */
#define OBJ_PTR1 32       /* Tcl_Obj.internalRep.twoPtrValue.ptr1: a ByteCode's */
#define OBJ_BYTES 8       /* Tcl_Obj.bytes */
#define OBJ_LENGTH 16     /* Tcl_Obj.length */
#define CMD_TYPE 0        /* CmdFrame.type */
#define CMD_LINE 8        /* CmdFrame.line: each word's line */
#define CMD_NLINE 16      /* CmdFrame.nline */
#define CMD_FRAME 24      /* CmdFrame.framePtr */
#define CMD_NEXT 32       /* CmdFrame.nextPtr */
#define CMD_CODE 40       /* CmdFrame.data.tebc.codePtr */
#define CMD_PATH 40       /* CmdFrame.data.eval.path */
#define CMD_PC 48         /* CmdFrame.data.tebc.pc */
#define LOCATION_BC 2     /* TCL_LOCATION_BC */
#define LOCATION_SOURCE 4 /* TCL_LOCATION_SOURCE */
#define BC_SOURCE 40      /* ByteCode.source */
#define BC_NUM_COMMANDS 64 /* ByteCode.numCommands */
#define BC_CODE_START 104 /* ByteCode.codeStart */
#define BC_CODE_DELTA 136 /* ByteCode.codeDeltaStart */
#define BC_CODE_LENGTH 144 /* ByteCode.codeLengthStart */
#define BC_SRC_DELTA 152  /* ByteCode.srcDeltaStart */
#define BC_SRC_LENGTH 160 /* ByteCode.srcLengthStart */
#define HT_BUCKETS 0      /* Tcl_HashTable.buckets */
#define HT_DOWN_SHIFT 52  /* Tcl_HashTable.downShift */
#define HT_MASK 56        /* Tcl_HashTable.mask */
#define HE_NEXT 0         /* Tcl_HashEntry.nextPtr */
#define HE_VALUE 24       /* Tcl_HashEntry.clientData */
#define HE_KEY 32         /* Tcl_HashEntry.key */
#define ECL_TYPE 0        /* ExtCmdLoc.type */
#define ECL_PATH 8        /* ExtCmdLoc.path */
#define ECL_LOC 16        /* ExtCmdLoc.loc */
#define ECL_NULOC 28      /* ExtCmdLoc.nuloc */
#define LOC_SRC_OFFSET 0  /* ECL.srcOffset */
#define LOC_LINE 8        /* ECL.line */
#define LOC_SIZE 24       /* sizeof(ECL) */

#endif

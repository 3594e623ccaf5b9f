/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tclframes.h: where -k reads a Tcl 8.6 interpreter's frames: offsetof()
 * of each field in Tcl 8.6.13's tclInt.h and tcl.h on x86_64 (fields
 * near the start of Interp and CallFrame, which extensions read too);
 * tests/tcl/tcllayout-check.c checks them against the installed headers.
 */
#ifndef LTRUSS_TCLFRAMES_H
#define LTRUSS_TCLFRAMES_H

#define IP_NUM_LEVELS 152 /* Interp.numLevels */
#define IP_FRAME 160      /* Interp.framePtr */
#define IP_FLAGS 424      /* Interp.flags */
#define IP_DELETED 0x1    /* DELETED */
#define CF_KIND 8         /* CallFrame.isProcCallFrame */
#define CF_OBJC 12        /* CallFrame.objc, the int after isProcCallFrame */
#define CF_OBJV 16        /* CallFrame.objv */
#define CF_CALLER 24      /* CallFrame.callerPtr */
#define CF_LEVEL 40       /* CallFrame.level */
#define OBJ_BYTES 8       /* Tcl_Obj.bytes */
#define OBJ_LENGTH 16     /* Tcl_Obj.length */

#endif

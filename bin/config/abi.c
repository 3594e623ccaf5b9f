/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * abi.c: the System V x86_64 rules for where arguments go, as far as
 * ltruss needs them: integers and pointers take %rdi %rsi %rdx %rcx %r8 %r9
 * in order, float and double take %xmm0-7, and what does not fit, and
 * every long double, goes on the stack in order, one 8-byte word each
 * (long double: two, 16-byte aligned).  Structs by value are refused by
 * the prototype parser, so these rules are complete for what it accepts.
 */
#include "config.h"

#include "abi.h"

unsigned abi_locate(const struct proto *p, struct arg_loc *locs,
		    unsigned *ngp, unsigned *nxmm)
{
	unsigned gp = 0, xmm = 0, stack = 0;
	size_t i;

	for (i = 0; i < p->nargs; i++) {
		enum ctype k = p->args[i].type.kind;

		if (k == CT_LDOUBLE) {
			stack = (stack + 1) & ~1u;
			locs[i] = (struct arg_loc){ AT_STACK, (uint8_t)stack };
			stack += 2;
		} else if (k == CT_FLOAT || k == CT_DOUBLE) {
			if (xmm < 8)
				locs[i] = (struct arg_loc){ AT_XMM, (uint8_t)xmm++ };
			else
				locs[i] = (struct arg_loc){ AT_STACK, (uint8_t)stack++ };
		} else if (gp < 6) {
			locs[i] = (struct arg_loc){ AT_GP, (uint8_t)gp++ };
		} else {
			locs[i] = (struct arg_loc){ AT_STACK, (uint8_t)stack++ };
		}
	}
	*ngp = gp;
	*nxmm = xmm;
	return stack;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* abi.h: where the x86_64 calling convention puts a prototype's arguments. */
#ifndef LTRUSS_ABI_H
#define LTRUSS_ABI_H

#include <stdint.h>

#include "prototype.h"

/* Where one argument is at the call. */
enum arg_where {
	AT_GP = 1, /* integer register index (argument number index) */
	AT_XMM,    /* %xmm register index */
	AT_STACK,  /* stack word index (argument number 6 + index) */
};

struct arg_loc {
	uint8_t where; /* enum arg_where */
	uint8_t index;
};

/*
 * Place p's fixed parameters: locs[i] for parameter i.  Returns how many
 * stack words they take; *nxmm and *ngp tell how many registers of each
 * kind they use (the varargs that follow start after them).
 */
unsigned abi_locate(const struct proto *p, struct arg_loc *locs,
		    unsigned *ngp, unsigned *nxmm);

/* The capture argument number of an argument at loc (0-5 registers, 6... stack). */
static inline unsigned abi_argno(struct arg_loc loc)
{
	return loc.where == AT_STACK ? 6u + loc.index : loc.index;
}

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* zydis-lazy.c: the Zydis functions entry patching ('::') calls, loaded at the first (lazylib.c). */
#include "config.h"

#include <Zydis/Zydis.h>

#include "lazylib.h"

static struct lazylib zydis = { ZYDIS_SONAME,
				"entry patching ('::' rules)", "libzydis4.0",
				NULL };

LAZYLIB_FN(zydis, ZyanStatus, ZydisDecoderInit,
	   (ZydisDecoder *decoder, ZydisMachineMode machine_mode,
	    ZydisStackWidth stack_width),
	   (decoder, machine_mode, stack_width))
LAZYLIB_FN(zydis, ZyanStatus, ZydisDecoderDecodeInstruction,
	   (const ZydisDecoder *decoder, ZydisDecoderContext *context,
	    const void *buffer, ZyanUSize length,
	    ZydisDecodedInstruction *instruction),
	   (decoder, context, buffer, length, instruction))

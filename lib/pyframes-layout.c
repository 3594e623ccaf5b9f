/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pyframes-layout.c: the CPython layouts pyframes.c reads, per minor
 * version.  Each figure is offsetof() of the field in that version's
 * headers (Include/internal/pycore_runtime.h, pycore_interp.h,
 * pycore_frame.h, cpython/pystate.h, cpython/code.h, cpython/unicodeobject.h)
 * on x86_64, release builds; tests/unit/pylayout-check.c checks them
 * against the installed headers.
 */
#include <stddef.h>

#include "pyframes.h"

static const struct ltr_py_layout layouts[] = {
	{
		.version = 0x030b0000, /* 3.11 */
		.rt_tstate_current = 576, .rt_interp_head = 40,
		.interp_next = 0, .interp_threads = 16,
		.ts_next = 8, .ts_thread_id = 152, .ts_cframe = 56,
		.cf_current = 8, .cf_previous = 16,
		.fr_code = LTR_PY311_FR_CODE,
		.fr_previous = LTR_PY311_FR_PREVIOUS,
		.fr_prev_instr = LTR_PY311_FR_PREV_INSTR,
		.fr_is_entry = LTR_PY311_FR_IS_ENTRY, .fr_owner = 0,
		.co_firstlineno = 72, .co_filename = 112, .co_qualname = 128,
		.co_linetable = 136, .co_code = 184,
		.str_length = 16, .str_state = 32, .str_ascii_data = 48,
		.str_data = 72, .bytes_size = 16, .bytes_data = 32,
	},
	{
		.version = 0x030c0000, /* 3.12 (tstate_current is a C thread-local) */
		.rt_tstate_current = 0, .rt_interp_head = 40,
		.interp_next = 0, .interp_threads = 72,
		.ts_next = 8, .ts_thread_id = 136, .ts_cframe = 56,
		.cf_current = 0, .cf_previous = 8,
		.fr_code = LTR_PY312_FR_CODE,
		.fr_previous = LTR_PY312_FR_PREVIOUS,
		.fr_prev_instr = LTR_PY312_FR_PREV_INSTR,
		.fr_is_entry = 0, .fr_owner = LTR_PY312_FR_OWNER,
		.owner_cstack = 3,
		.co_firstlineno = 68, .co_filename = 112, .co_qualname = 128,
		.co_linetable = 136, .co_code = 192,
		.str_length = 16, .str_state = 32, .str_ascii_data = 40,
		.str_data = 56, .bytes_size = 16, .bytes_data = 32,
	},
};

const struct ltr_py_layout *ltr_py_layout_of(uint32_t version)
{
	size_t i;

	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (layouts[i].version == (version & 0xffff0000u))
			return &layouts[i];
	return NULL;
}

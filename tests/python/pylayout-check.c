/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pylayout-check.c: the offsets lib/pyframes-layout.c holds for the
 * CPython version whose headers this is built with, against offsetof()
 * in those headers (tests/pyframes.bats builds it with each version's
 * headers that are installed).  Prints each field that differs; exit 1
 * if one does.
 */
#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_interp.h>
#include <internal/pycore_runtime.h>
#include <stddef.h>
#include <stdio.h>

#include "pyframes.h"

static int bad;

/* Does field name hold want? */
static void check(const char *name, unsigned got, size_t want)
{
	if (got == want)
		return;
	printf("%s: %u in pyframes-layout.c, %zu in the headers\n", name, got,
	       want);
	bad = 1;
}

#define CHECK(field, type, member) \
	check(#field, L->field, offsetof(type, member))

int main(void)
{
	const struct ltr_py_layout *L = ltr_py_layout_of(PY_VERSION_HEX);

	if (!L) {
		printf("no layout for %s\n", PY_VERSION);
		return 1;
	}
#if PY_VERSION_HEX < 0x030c0000
	CHECK(rt_tstate_current, _PyRuntimeState, gilstate.tstate_current);
	CHECK(fr_is_entry, _PyInterpreterFrame, is_entry);
#else
	CHECK(fr_owner, _PyInterpreterFrame, owner);
	check("owner_cstack", L->owner_cstack, FRAME_OWNED_BY_CSTACK);
#endif
	CHECK(rt_interp_head, _PyRuntimeState, interpreters.head);
	CHECK(interp_next, PyInterpreterState, next);
	CHECK(interp_threads, PyInterpreterState, threads.head);
	CHECK(ts_next, PyThreadState, next);
	CHECK(ts_thread_id, PyThreadState, thread_id);
	CHECK(ts_cframe, PyThreadState, cframe);
	CHECK(cf_current, _PyCFrame, current_frame);
	CHECK(cf_previous, _PyCFrame, previous);
	CHECK(fr_code, _PyInterpreterFrame, f_code);
	CHECK(fr_previous, _PyInterpreterFrame, previous);
	CHECK(fr_prev_instr, _PyInterpreterFrame, prev_instr);
	CHECK(co_firstlineno, PyCodeObject, co_firstlineno);
	CHECK(co_filename, PyCodeObject, co_filename);
	CHECK(co_qualname, PyCodeObject, co_qualname);
	CHECK(co_linetable, PyCodeObject, co_linetable);
	CHECK(co_code, PyCodeObject, co_code_adaptive);
	CHECK(str_length, PyASCIIObject, length);
	CHECK(str_state, PyASCIIObject, state);
	check("str_ascii_data", L->str_ascii_data, sizeof(PyASCIIObject));
	check("str_data", L->str_data, sizeof(PyCompactUnicodeObject));
	CHECK(bytes_size, PyVarObject, ob_size);
	CHECK(bytes_data, PyBytesObject, ob_sval);
	printf("%s: %s\n", PY_VERSION, bad ? "differs" : "as the headers say");
	return bad;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pyframes.h: -k in a CPython process, where the interpreter keeps its frames. */
#ifndef LTRUSS_PYFRAMES_H
#define LTRUSS_PYFRAMES_H

#include <stdint.h>

/*
 * Byte offsets in the structures of one CPython minor version, from its
 * internal headers (tests/unit/pylayout-check.c compares them with
 * offsetof where the headers are installed).  0: the field is absent.
 */
/*
 * The words of a _PyInterpreterFrame the walk reads, per version: the
 * layouts' table says them, and the walk (pyframes.c) loads them at these
 * offsets, known when it is compiled.
 */
#define LTR_PY311_FR_CODE 32
#define LTR_PY311_FR_PREVIOUS 48
#define LTR_PY311_FR_PREV_INSTR 56
#define LTR_PY311_FR_IS_ENTRY 68
#define LTR_PY312_FR_CODE 0
#define LTR_PY312_FR_PREVIOUS 8
#define LTR_PY312_FR_PREV_INSTR 56
#define LTR_PY312_FR_OWNER 70

struct ltr_py_layout {
	uint32_t version;           /* 0x030b0000: major, minor */
	uint16_t rt_tstate_current; /* _PyRuntime.gilstate.tstate_current */
	uint16_t rt_interp_head;    /* _PyRuntime.interpreters.head */
	uint16_t interp_next;       /* PyInterpreterState.next */
	uint16_t interp_threads;    /* PyInterpreterState.threads.head */
	uint16_t ts_next;           /* PyThreadState.next */
	uint16_t ts_thread_id;      /* PyThreadState.thread_id */
	uint16_t ts_cframe;         /* PyThreadState.cframe */
	uint16_t cf_current;        /* _PyCFrame.current_frame */
	uint16_t cf_previous;       /* _PyCFrame.previous */
	uint16_t fr_code;           /* _PyInterpreterFrame.f_code */
	uint16_t fr_previous;       /* _PyInterpreterFrame.previous */
	uint16_t fr_prev_instr;     /* _PyInterpreterFrame.prev_instr */
	uint16_t fr_is_entry;       /* 3.11: _PyInterpreterFrame.is_entry */
	uint16_t fr_owner;          /* 3.12: _PyInterpreterFrame.owner */
	uint8_t owner_cstack;       /* 3.12: FRAME_OWNED_BY_CSTACK */
	uint16_t co_firstlineno;    /* PyCodeObject.co_firstlineno */
	uint16_t co_filename;
	uint16_t co_qualname;
	uint16_t co_linetable;
	uint16_t co_code;           /* PyCodeObject.co_code_adaptive */
	uint16_t str_length;        /* PyASCIIObject.length */
	uint16_t str_state;         /* PyASCIIObject.state */
	uint16_t str_ascii_data;    /* sizeof(PyASCIIObject) */
	uint16_t str_data;          /* sizeof(PyCompactUnicodeObject) */
	uint16_t bytes_size;        /* PyVarObject.ob_size */
	uint16_t bytes_data;        /* PyBytesObject.ob_sval */
};

/* The layout of Py_Version version, or NULL: not one we know. */
const struct ltr_py_layout *ltr_py_layout_of(uint32_t version);

#endif

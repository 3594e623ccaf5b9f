/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * frames.h: -k: the stack copy of a call, and the Python and Tcl frames walked
 * at it.
 * (lib/interposer.h says what every internal declaration shares.)
 */
#ifndef LTR_LIB_FRAMES_H
#define LTR_LIB_FRAMES_H

#include "interposer.h"
#include "objects.h"
#include "process.h"

/* ---- call stacks, -k (stack-copy.c) ------------------------------------- */

/* Bytes of the stack copied per call; 0 without -k. */
extern uint32_t ltr_stack_size;

/* Read the session's stack size; note where the main thread's stack ends (at attach). */
void ltr_stack_init(void);

/* Bytes of the CALLSTACK blob an entry may need (0 without -k). */
size_t ltr_stack_blob_max(void);

/*
 * Write the CALLSTACK blob of a call entered with regs (ret: its real
 * return address) by thread ts into dst, at most room bytes; returns its
 * size, 0 when there is none (no -k, no room, a hook's call).
 */
size_t ltr_stack_copy(void *dst, size_t room, struct ltr_tstate *ts,
		      const struct ltr_regs *regs, uint64_t ret);

/* -k: frames ltruss's walk reads at most; 0: copy stack_size bytes (stack-hints.c). */
extern uint32_t ltr_stack_frames;

/*
 * Copy the stack at sp of a call returning to ret into copy, at most len
 * bytes, as far as ltruss's walk will read by the session's stack hints;
 * returns how many bytes, *faulted if it stopped at an unreadable page.
 */
size_t ltr_stack_hinted_copy(const struct ltr_tstate *ts, unsigned char *copy,
			     uintptr_t sp, uint64_t ret, size_t len,
			     bool *faulted);

/*
 * The sparse copy (LTR_BLOBF_SPARSE) of the stack at sp of a call
 * returning to ret, if the session's stack hints describe every frame
 * ltruss's walk follows within len bytes: into copy, at most room bytes;
 * returns its size, 0 if there is none (then copy it, as above).
 */
size_t ltr_stack_sparse_copy(struct ltr_tstate *ts, unsigned char *copy,
			     size_t room, uintptr_t sp, uint64_t ret,
			     size_t len);

/* At la_objclose: forget the stack hints of obj's addresses. */
void ltr_stack_hints_forget(const struct ltr_object *obj);

/* ---- Python frames, -k (pyframes.c) ----------------------------------- */

/*
 * Set (to anything) in the traced program's environment: -k without
 * Python and Tcl frames, the baseline against which bench/run measures
 * what they cost.  For the bench only: the program sees it too.
 */
#define LTR_ENV_BENCH_NO_FRAMES "LTRUSS_BENCH_NO_FRAMES"

/* At an object's load: is it CPython (its _PyRuntime, its Py_Version)? */
void ltr_py_object(const struct ltr_object *obj);

/* Bytes the PYFRAMES and PYCODE blobs of an entry may take (0: no Python). */
size_t ltr_py_blob_max(void);

/*
 * Write the PYFRAMES blob of thread ts's Python frames into dst, then a
 * PYCODE blob for each code object its ring has not described, at most
 * room bytes; returns their size, 0 when there is none.
 */
size_t ltr_py_frames(void *dst, size_t room, struct ltr_tstate *ts);

/* Forget the code objects ts's ring described and the frames it sent (a new process or thread). */
void ltr_py_forget(struct ltr_tstate *ts);

/* ---- Tcl frames, -k (tclframes.c) -------------------------------------- */

/* Is obj Tcl 8.6's library, whose Tcl_CreateInterp -k hooks? */
bool ltr_tcl_object(const struct ltr_object *obj);

/* Bytes the TCLFRAMES blob of an entry may take (0: no interpreter yet). */
size_t ltr_tcl_blob_max(void);

/*
 * Write the TCLFRAMES blob of the procs thread ts's interpreters run into
 * dst, at most room bytes; returns its size, 0 when there is none.
 */
size_t ltr_tcl_frames(void *dst, size_t room, struct ltr_tstate *ts);

/* Forget the ByteCodes ts's ring described, and with interps the interpreters it made. */
void ltr_tcl_forget(struct ltr_tstate *ts, bool interps);

#endif

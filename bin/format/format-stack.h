/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format-stack.h: -k, the stack of a call as text lines, JSON, or a path of frames. */
#ifndef LTRUSS_FORMAT_STACK_H
#define LTRUSS_FORMAT_STACK_H

#include <stddef.h>

#include "format.h"

#define STACK_FRAMES_DEFAULT 16 /* -k without N */
#define STACK_FRAMES_MAX 256    /* the largest N of --stack=N */
#define STACK_START_FRAMES 3    /* the most frames of a thread's start left out */
/* Frames of a call: native ones, the Python ones, one gap between. */
#define STACK_NAMES_MAX \
	(STACK_FRAMES_MAX + LTR_PY_FRAMES_MAX + LTR_TCL_FRAMES_MAX + 1)

/* With -k, write the lines " > func+0xOFF (object)" of call c of w, innermost first. */
void stack_text(const struct who *w, const struct call *c);

/* With -k, write ',"stack":[{"func":...,"off":...,"object":...}...]' of call c. */
void stack_json(const struct who *w, const struct call *c);

/*
 * With -k, the frames of call c as a path, outermost first, separated by
 * ';' ("main;parse"), into buf; returns its length (0: none).
 */
size_t stack_path(char *buf, size_t size, const struct who *w,
		  const struct call *c);

/* A frame's names, made once per return address: they live until stack_done_names(). */
struct named;

/*
 * With -k, the named frames of call c of w (at most -k's), innermost
 * first, into out[STACK_NAMES_MAX]; returns how many, -1 without a
 * stack copy.  The same return address of the same object gives the
 * same pointer, in every process: a stack's frames are its identity.
 */
int stack_names(const struct who *w, const struct call *c,
		const struct named **out);

/* Frame n as "func+0xOFF (object's file name)". */
const char *stack_name_label(const struct named *n);

/* The function of frame n ("??" when it has no name). */
const char *stack_name_func(const struct named *n);

/* Free the object map and the unwinders. */
void stack_done_names(void);

#endif

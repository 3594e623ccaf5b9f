/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format-stack.h: -k, the stack of a call as text lines, JSON, or a path of frames. */
#ifndef LTRUSS_FORMAT_STACK_H
#define LTRUSS_FORMAT_STACK_H

#include <stddef.h>

#include "format.h"

#define STACK_FRAMES_DEFAULT 16 /* -k without N */
#define STACK_FRAMES_MAX 256    /* the largest N of --stack=N */

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

/* Free the object map and the unwinders. */
void stack_done_names(void);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* playback-internal.h: what playback.c (the calls) and playback-write.c (the file) share. */
#ifndef LTRUSS_PLAYBACK_INTERNAL_H
#define LTRUSS_PLAYBACK_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "prototype.h"

/* A recorded thread: its calls, the body of a function of the program. */
struct pb_thread {
	int pid, tid;
	FILE *body;
	char *text;
	size_t len;
};

/* Something not played as recorded: said in the file and on stderr. */
struct pb_note {
	uint32_t fn;
	unsigned long first; /* the first call it concerns */
	unsigned long count; /* how many */
	char *text;
};

struct playback {
	const char *path;           /* OUT.c */
	const char *file;           /* the recording */
	FILE *out;                  /* OUT.c, written at the end */
	FILE *data;                 /* the arrays, at file scope */
	char *data_text;
	size_t data_len;
	struct pb_thread *threads;  /* in the order they first called */
	size_t nthreads;
	struct pb_thread *t;        /* the current call's */
	struct pb_note *notes;
	size_t nnotes;
	unsigned long ncalls;       /* calls numbered so far */
	unsigned nhandles;          /* h1... */
};

extern struct playback pb;

/* Bytes data[0..len) as a C string literal, lines cut and indented by indent. */
void playback_write_bytes(FILE *o, const unsigned char *data, size_t len,
			  const char *indent);

/* The C type the program declares for t ("int32_t", "void *"). */
void playback_ctype(const struct ptype *t, char *buf, size_t size);

/* Double d as an exact C literal (hex float), after prefix ("(float)"). */
void playback_double(char *buf, size_t size, double d, const char *prefix);

/* Declare function fn (prototype p) in the program, once. */
void playback_declare(uint32_t fn, const struct proto *p);

/* Free the names of recorded memory (playback.c). */
void playback_bindings_free(void);

#endif

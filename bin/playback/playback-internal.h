/* SPDX-License-Identifier: GPL-2.0-or-later */
/* playback-internal.h: what the files of --playback share (playback*.c). */
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
	/* In the order they first called; each its own allocation: its stream writes through &text. */
	struct pb_thread **threads;
	size_t nthreads;
	struct pb_thread *t;        /* the current call's */
	struct pb_note *notes;
	size_t nnotes;
	unsigned long ncalls;       /* calls numbered so far */
	unsigned long nleft;        /* of them, left out */
	unsigned nhandles;          /* h1... */
};

extern struct playback pb;

/* Bytes data[0..len) as a C string literal, lines cut and indented by indent. */
void playback_write_bytes(FILE *o, const unsigned char *data, size_t len,
			  const char *indent);

/* text into a C comment of o, as it is but for a "*" "/" that would end it. */
void playback_comment(FILE *o, const char *text);

/* The C type the program declares for t ("int32_t", "void *"). */
void playback_ctype(const struct ptype *t, char *buf, size_t size);

/* Double d as an exact C literal (hex float), after prefix ("(float)"). */
void playback_double(char *buf, size_t size, double d, const char *prefix);

/* Declare function fn (prototype p) in the program, once. */
void playback_declare(uint32_t fn, const struct proto *p);

/*
 * What one call becomes: its arrays (at file scope), the statements
 * before it (a struct filled), its argument list, and the statements
 * after it (handles from [out] arguments, checks), each a memory stream.
 */
struct stmt {
	FILE *pre, *before, *args, *post;
	char *pre_s, *before_s, *args_s, *post_s;
	size_t pre_n, before_n, args_n, post_n;
	unsigned arrays; /* a number for each array of the call */
};

/* Name recorded memory [addr, addr + len) (len 0: a handle) as name. */
void playback_bind(uint64_t addr, uint64_t len, const char *name);

/* The expression for recorded pointer v ("h3", "(a7_0 + 12)"), or false. */
bool playback_bound(uint64_t v, char *buf, size_t size);

/* The names of recorded memory so far; forget those made after mark. */
size_t playback_bindings_mark(void);
void playback_bindings_forget(size_t mark);

/* A new handle variable's name into buf ("h4"). */
void playback_handle_new(char *buf, size_t size);

/* Say in place, in the header and on stderr what the current call of fn does not play as recorded. */
void playback_note(uint32_t fn, const char *fmt_text, ...)
	__attribute__((format(printf, 2, 3)));

/* A fresh array name for the current call ("a12_0"). */
void playback_array_name(struct stmt *s, char *buf, size_t size);

/* Bytes data[0..len) as a static array named name (NUL-ended when str). */
void playback_array(struct stmt *s, const char *name,
		    const unsigned char *data, size_t len, bool str);

struct call;
struct result;
struct parg;

/*
 * A [struct:...] argument (argno) of c at recorded address v: the
 * program's own struct, filled as the program had it (s->before), checked
 * on return against r (s->post); its name into buf.  false: left out.
 */
bool playback_struct(struct stmt *s, const struct call *c,
		     const struct result *r, const struct parg *a,
		     unsigned argno, uint64_t v, char *buf, size_t size);

/* The current call was played (its structs' states hold) or left out (they go). */
void playback_structs_commit(bool played);

/* Forget the structs (playback_finish). */
void playback_structs_free(void);

/* Free the names of recorded memory (playback.c). */
void playback_bindings_free(void);

#endif

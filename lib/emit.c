/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * emit.c: trace lines written directly by the traced thread.
 *
 * This is the interim output path: the event rings of the session will
 * replace it, moving all formatting into ltruss.  Until then each thread
 * builds its lines in its own buffer, with integer code only, and writes
 * each line whole with one write(2) (raw syscall: the program's errno is
 * untouched).  A call is printed when it returns, "LIB:FUNC(args) = ret",
 * unless a traced call starts inside it first: then it is printed at once
 * as "LIB:FUNC(args) {" and closed by "} LIB:FUNC = ret".  Arguments are
 * the first integer argument registers in hex, as truss -u prints calls
 * without a prototype.
 */
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "interposer.h"

#define ARGS_SHOWN 3

/* A line under construction in the thread's buffer. */
struct line {
	char *buf;
	size_t len, cap;
};

static void put_str(struct line *l, const char *s)
{
	while (*s && l->len < l->cap)
		l->buf[l->len++] = *s++;
}

static void put_char(struct line *l, char c)
{
	if (l->len < l->cap)
		l->buf[l->len++] = c;
}

static void put_dec(struct line *l, uint64_t v)
{
	char tmp[24];
	int n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n)
		put_char(l, tmp[--n]);
}

/* A register value: "0", or hex with 0x. */
static void put_hex(struct line *l, uint64_t v)
{
	char tmp[16];
	int n = 0;

	if (v == 0) {
		put_char(l, '0');
		return;
	}
	while (v) {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	}
	put_str(l, "0x");
	while (n)
		put_char(l, tmp[--n]);
}

/* Start a line: [pid N] prefix once there are several threads, then the indent. */
static void line_start(struct line *l, struct ltr_tstate *ts, uint32_t level)
{
	l->buf = ts->line;
	l->len = 0;
	l->cap = sizeof(ts->line) - 1;
	if (ltr_thread_count() > 1) {
		put_str(l, "[pid ");
		put_dec(l, (uint64_t)ts->tid);
		put_str(l, "] ");
	}
	while (level--)
		put_str(l, "  ");
}

/* "lib:func" of function fn. */
static void put_name(struct line *l, uint32_t fn)
{
	const struct ltr_func *f = &ltr_session->funcs[fn];

	put_str(l, ltr_session->strings + f->lib);
	put_char(l, ':');
	put_str(l, ltr_session->strings + f->name);
}

static void put_args(struct line *l, const uint64_t *args)
{
	int i;

	put_char(l, '(');
	for (i = 0; i < ARGS_SHOWN; i++) {
		if (i)
			put_str(l, ", ");
		put_hex(l, args[i]);
	}
	put_char(l, ')');
}

/* End the line and write it whole. */
static void line_write(struct line *l)
{
	const char *p = l->buf;
	size_t left;

	l->buf[l->len++] = '\n';
	left = l->len;
	while (left) {
		long n = ltr_syscall3(SYS_write, ltr_session->out_fd, (long)p,
				      (long)left);

		if (n == -4 /* EINTR */)
			continue;
		if (n <= 0)
			return;
		p += n;
		left -= (size_t)n;
	}
}

/* Level of frame fr on its thread's stack (0 = outermost). */
static uint32_t level_of(const struct ltr_tstate *ts, const struct ltr_frame *fr)
{
	return (uint32_t)(fr - ts->frames);
}

/* A call starts inside the frame below level: print that frame's opening. */
static void open_parent(struct ltr_tstate *ts, uint32_t level)
{
	struct ltr_frame *parent;
	struct line l;

	if (level == 0)
		return;
	parent = &ts->frames[level - 1];
	if (parent->flags & (LTR_FR_OPENED | LTR_FR_HIDDEN))
		return;
	parent->flags |= LTR_FR_OPENED;
	line_start(&l, ts, level - 1);
	put_name(&l, parent->fn);
	put_args(&l, parent->args);
	put_str(&l, " {");
	line_write(&l);
}

/* The head of a finished call: "} LIB:FUNC" if opened, else "LIB:FUNC(args)". */
static void put_call_head(struct line *l, const struct ltr_frame *fr)
{
	if (fr->flags & LTR_FR_OPENED) {
		put_str(l, "} ");
		put_name(l, fr->fn);
	} else {
		put_name(l, fr->fn);
		put_args(l, fr->args);
	}
}

void ltr_emit_entry(struct ltr_tstate *ts, struct ltr_frame *fr)
{
	open_parent(ts, level_of(ts, fr));
}

void ltr_emit_exit(struct ltr_tstate *ts, struct ltr_frame *fr, uint64_t ret)
{
	struct line l;

	line_start(&l, ts, level_of(ts, fr));
	put_call_head(&l, fr);
	put_str(&l, " = ");
	put_hex(&l, ret);
	line_write(&l);
}

void ltr_emit_entry_only(struct ltr_tstate *ts, uint32_t fn,
			 const struct ltr_regs *regs)
{
	uint64_t args[ARGS_SHOWN] = { regs->rdi, regs->rsi, regs->rdx };
	struct line l;

	open_parent(ts, ts->depth);
	line_start(&l, ts, ts->depth);
	put_name(&l, fn);
	put_args(&l, args);
	put_str(&l, " <no return ...>");
	line_write(&l);
}

void ltr_emit_unfinished(struct ltr_tstate *ts, struct ltr_frame *fr,
			 const char *why)
{
	struct line l;

	line_start(&l, ts, level_of(ts, fr));
	put_call_head(&l, fr);
	put_str(&l, " = ? <");
	put_str(&l, why);
	put_char(&l, '>');
	line_write(&l);
}

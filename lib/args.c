/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * args.c: copy what a call's arguments point to, while the call happens.
 *
 * ltruss prints a string argument long after the call: by then the buffer
 * may have been reused or freed.  So for functions with a prototype the
 * interposer copies, into the event itself, the strings the prototype
 * names (cut at -s), the float registers, the stack words of arguments
 * past the registers, the varargs of a printf format, and on return the
 * output buffers.  Each copy is a blob (session.h) after the event's fixed
 * words; every read goes through ltr_read_mem, so a bad pointer yields a
 * FAULT blob, never a crash.  Nothing is copied for calls that will not be
 * printed (-c, deeper than -D, paused): the caller only calls in here when
 * the event is sent.
 */
#include "capture.h"
#include "interposer.h"
#include "printf-walk.h"
#include "process.h"

#define FORMAT_MAX 1024 /* bytes of a printf format read to follow it */

/* Where blobs are written: the rest of a reserved event. */
struct blobs {
	unsigned char *p;
	size_t room;
	size_t used;
};

/* Start a blob of up to max data bytes; NULL if not even a header fits. */
static struct ltr_blob *blob_begin(struct blobs *b, uint8_t type,
				   uint8_t index, size_t *max)
{
	struct ltr_blob *blob;
	size_t left = b->room - b->used;

	if (left < sizeof(*blob) + 8)
		return NULL;
	if (*max > left - sizeof(*blob))
		*max = (left - sizeof(*blob)) & ~(size_t)7u;
	blob = (struct ltr_blob *)(b->p + b->used);
	blob->type = type;
	blob->index = index;
	blob->flags = 0;
	blob->reserved = 0;
	blob->len = 0;
	return blob;
}

/* Close a blob holding len bytes. */
static void blob_end(struct blobs *b, struct ltr_blob *blob, size_t len)
{
	blob->len = (uint32_t)len;
	b->used += sizeof(*blob) + ROUND8(len);
}

/* A blob of len bytes copied from our own memory (registers, stack). */
static void blob_words(struct blobs *b, uint8_t type, const void *src,
		       size_t len)
{
	size_t max = len;
	struct ltr_blob *blob = blob_begin(b, type, 0, &max);

	if (!blob || max < len)
		return;
	__builtin_memcpy(blob->data, src, len);
	blob_end(b, blob, len);
}

/* A blob with the C string at addr, cut at max bytes; returns its data or NULL. */
static const char *blob_string(struct blobs *b, int pid, uint8_t type,
			       uint8_t index, uintptr_t addr, size_t max)
{
	struct ltr_blob *blob;
	bool cut;
	long n;

	if (!addr)
		return NULL; /* printed as NULL, nothing to copy */
	max = max + 1; /* room for the byte that shows it was cut */
	if (!(blob = blob_begin(b, type, index, &max)) || max < 2)
		return NULL;
	n = ltr_read_string(pid, (char *)blob->data, addr, max - 1, &cut);
	if (n < 0) {
		blob->flags = LTR_BLOBF_FAULT;
		n = 0;
	} else if (cut) {
		blob->flags = LTR_BLOBF_TRUNCATED;
	}
	blob->data[n] = '\0';
	blob_end(b, blob, (size_t)n + 1);
	return blob->flags & LTR_BLOBF_FAULT ? NULL : (const char *)blob->data;
}

/*
 * A blob of up to max of the len bytes at addr: cut (TRUNCATED) when
 * fewer were copied, FAULT when none could be.
 */
static void blob_mem(struct blobs *b, int pid, uint8_t type, uint8_t index,
		     uint64_t addr, uint64_t len, size_t max)
{
	struct ltr_blob *blob;
	size_t got;

	if (!(blob = blob_begin(b, type, index, &max)))
		return;
	got = ltr_read_mem(pid, blob->data, addr, max);
	if (got < max && got < len)
		blob->flags = got ? LTR_BLOBF_TRUNCATED : LTR_BLOBF_FAULT;
	else if (len > got)
		blob->flags = LTR_BLOBF_TRUNCATED;
	blob_end(b, blob, got);
}

/* Argument n of a call: registers 0-5, then the caller's stack words. */
static uint64_t arg_word(const struct ltr_regs *regs, unsigned n)
{
	const uint64_t gp[6] = { regs->rdi, regs->rsi, regs->rdx,
				 regs->rcx, regs->r8, regs->r9 };

	return n < 6 ? gp[n] : (&regs->ret)[1 + n - 6];
}

size_t ltr_args_entry_max(const struct ltr_capture *cap)
{
	size_t str = sizeof(struct ltr_blob) + ROUND8(ltr_session->strsize + 1);
	size_t max = 0;
	unsigned left;

	/* A string a bit set (popcount would be a libgcc call here). */
	for (left = cap->strings; left; left &= left - 1)
		max += str;
	if (cap->flags & LTR_CAP_IN)
		max += str;
	if (cap->flags & LTR_CAP_STRUCT)
		max += sizeof(struct ltr_blob) + ROUND8(cap->st_size) +
		       cap->st_nin * str;
	if (unlikely(cap->flags & (LTR_CAP_XMM | LTR_CAP_PRINTF) ||
		     cap->nstack)) {
		if (cap->flags & LTR_CAP_XMM)
			max += sizeof(struct ltr_blob) + 64;
		if (cap->nstack)
			max += sizeof(struct ltr_blob) + 8 * cap->nstack;
		if (cap->flags & LTR_CAP_PRINTF)
			max += sizeof(struct ltr_blob) + FORMAT_MAX + 8 +
			       sizeof(struct ltr_blob) + LTR_VARARGS_MAX * 17 +
			       LTR_VARARGS_MAX * str;
	}
	return max > LTR_PAYLOAD_MAX ? LTR_PAYLOAD_MAX : max;
}

/* The state of va_arg over a call's registers and stack. */
struct va_walk {
	const struct ltr_regs *regs;
	unsigned gp;    /* next integer argument number (past 5: the stack) */
	unsigned fp;    /* next %xmm register */
	unsigned stack; /* next stack word */
};

/* The next integer-class vararg. */
static uint64_t va_int(struct va_walk *va)
{
	if (va->gp < 6)
		return arg_word(va->regs, va->gp++);
	return (&va->regs->ret)[1 + va->stack++];
}

/* The next double vararg, as its bits. */
static uint64_t va_double(struct va_walk *va)
{
	if (va->fp < 8)
		return va->regs->xmm[va->fp++];
	return (&va->regs->ret)[1 + va->stack++];
}

/* The varargs of a printf call whose format is fmt: values, and %s strings. */
static void blob_varargs(struct blobs *b, int pid, const struct ltr_regs *regs,
			 unsigned format_arg, unsigned nstack, const char *fmt)
{
	/* Integer varargs follow the fixed registers, then the fixed stack words. */
	struct va_walk va = { regs, format_arg + 1 < 6 ? format_arg + 1 : 6, 0,
			      nstack };
	unsigned char cls[LTR_VARARGS_MAX];
	uint64_t words[2 * LTR_VARARGS_MAX];
	uintptr_t strings[LTR_VARARGS_MAX];
	unsigned n = 0, nw = 0, i;
	struct ltr_conv c;
	size_t pos = 0, max, len;
	struct ltr_blob *blob;

	while (n < LTR_VARARGS_MAX &&
	       ltr_printf_next(fmt, FORMAT_MAX, &pos, &c)) {
		for (i = 0; i < c.stars && n < LTR_VARARGS_MAX; i++) {
			cls[n] = LTR_VA_INT;
			strings[n++] = 0;
			words[nw++] = va_int(&va);
		}
		if (!c.cls || n >= LTR_VARARGS_MAX)
			continue;
		cls[n] = c.cls;
		strings[n] = 0;
		if (c.cls == LTR_VA_DOUBLE) {
			words[nw++] = va_double(&va);
		} else if (c.cls == LTR_VA_LDOUBLE) {
			va.stack = (va.stack + 1) & ~1u; /* 16-byte aligned */
			words[nw++] = (&regs->ret)[1 + va.stack++];
			words[nw++] = (&regs->ret)[1 + va.stack++];
		} else {
			words[nw] = va_int(&va);
			if (c.cls == LTR_VA_STRING)
				strings[n] = (uintptr_t)words[nw];
			nw++;
		}
		n++;
	}
	if (!n)
		return;
	len = ROUND8(n) + 8 * nw;
	max = len;
	if (!(blob = blob_begin(b, LTR_BLOB_VARARGS, (uint8_t)n, &max)) ||
	    max < len)
		return;
	__builtin_memcpy(blob->data, cls, n);
	__builtin_memset(blob->data + n, 0, ROUND8(n) - n);
	__builtin_memcpy(blob->data + ROUND8(n), words, 8 * nw);
	blob_end(b, blob, len);
	for (i = 0; i < n; i++)
		if (strings[i])
			blob_string(b, pid, LTR_BLOB_VASTRING, (uint8_t)i,
				    strings[i], ltr_session->strsize);
}

/*
 * An [in:argN] buffer, in a STRING blob of its argument's number: as many
 * bytes as its length argument says, cut at -s (at --whole's limit when
 * recorded for --playback).  A negative length copies nothing.
 */
static void blob_in(struct blobs *b, int pid, const struct ltr_capture *cap,
		    const struct ltr_regs *regs)
{
	uint64_t addr = arg_word(regs, cap->in_arg);
	uint64_t len = arg_word(regs, cap->in_len_arg);

	if (cap->flags & LTR_CAP_IN_LEN32)
		len = (uint64_t)(int64_t)(int32_t)len;
	if (!addr)
		return;
	if ((int64_t)len < 0)
		len = 0;
	blob_mem(b, pid, LTR_BLOB_STRING, cap->in_arg, addr, len,
		 len > ltr_session->strsize ? ltr_session->strsize : len);
}

/*
 * A [struct:...] at addr (zlib's z_stream): its bytes, then each in
 * buffer it points to, as many bytes as its 32-bit length says (cut as
 * strings are), read from the copy just made: one read of the struct.
 */
static void blob_struct(struct blobs *b, int pid,
			const struct ltr_capture *cap, uint64_t addr)
{
	const struct ltr_blob *st = (const void *)(b->p + b->used);
	uint64_t ptr;
	uint32_t len;
	unsigned k;

	if (!addr)
		return;
	blob_mem(b, pid, LTR_BLOB_STRING, cap->st_arg, addr, cap->st_size,
		 cap->st_size);
	if ((const unsigned char *)st == b->p + b->used || st->flags ||
	    st->len < cap->st_size)
		return;
	for (k = 0; k < cap->st_nin && k < LTR_STRUCT_IN; k++) {
		if ((unsigned)cap->st_in[k].ptr + 8 > cap->st_size ||
		    (unsigned)cap->st_in[k].len + 4 > cap->st_size)
			continue;
		__builtin_memcpy(&ptr, st->data + cap->st_in[k].ptr, 8);
		__builtin_memcpy(&len, st->data + cap->st_in[k].len, 4);
		if (ptr)
			blob_mem(b, pid, LTR_BLOB_STRING,
				 (uint8_t)(LTR_STRUCT_BUF + k), ptr, len,
				 len > ltr_session->strsize
					 ? ltr_session->strsize : len);
	}
}

size_t ltr_args_entry(void *dst, size_t room, int pid,
		      const struct ltr_capture *cap, const struct ltr_regs *regs)
{
	struct blobs b = { dst, room, 0 };
	const char *fmt = NULL;
	unsigned n, left;

	if (cap->flags & LTR_CAP_XMM)
		blob_words(&b, LTR_BLOB_XMM, regs->xmm, sizeof(regs->xmm));
	if (cap->nstack)
		blob_words(&b, LTR_BLOB_STACK, &regs->ret + 1, 8 * cap->nstack);
	/* The string arguments, lowest first: only the bits set are visited. */
	for (left = cap->strings; left; left &= left - 1) {
		bool is_format;
		const char *s;

		n = (unsigned)__builtin_ctz(left);
		is_format = (cap->flags & LTR_CAP_PRINTF) && n == cap->format;
		s = blob_string(&b, pid, LTR_BLOB_STRING, (uint8_t)n,
				arg_word(regs, n),
				is_format ? FORMAT_MAX - 1 : ltr_session->strsize);
		if (is_format)
			fmt = s;
	}
	if (fmt)
		blob_varargs(&b, pid, regs, cap->format, cap->nstack, fmt);
	if (cap->flags & LTR_CAP_IN)
		blob_in(&b, pid, cap, regs);
	if (cap->flags & LTR_CAP_STRUCT)
		blob_struct(&b, pid, cap, arg_word(regs, cap->st_arg));
	return b.used;
}

void ltr_args_keep(struct ltr_frame *fr, const struct ltr_capture *cap,
		   const struct ltr_regs *regs)
{
	unsigned i;

	for (i = 0; i < LTR_MAX_OUT; i++) {
		fr->out_addr[i] = cap->out[i].mode && cap->out[i].arg != LTR_ARG_RET
					  ? arg_word(regs, cap->out[i].arg) : 0;
		fr->out_len[i] = cap->out[i].mode == LTR_OUT_ARG
					 ? arg_word(regs, cap->out[i].len_arg)
					 : cap->out[i].size;
	}
}

size_t ltr_args_exit_max(const struct ltr_capture *cap)
{
	size_t max = sizeof(struct ltr_blob) + 16, i;

	for (i = 0; i < LTR_MAX_OUT; i++)
		if (cap->out[i].mode)
			max += sizeof(struct ltr_blob) +
			       ROUND8(cap->out[i].size > ltr_session->strsize
					      ? cap->out[i].size
					      : ltr_session->strsize + 1);
	return max;
}

size_t ltr_args_exit(void *dst, size_t room, int pid,
		     const struct ltr_frame *fr, uint64_t rax,
		     const void *x87)
{
	const struct ltr_capture *cap = fr->cap;
	struct blobs b = { dst, room, 0 };
	unsigned i;

	if (x87)
		blob_words(&b, LTR_BLOB_X87, x87, 16);
	for (i = 0; i < LTR_MAX_OUT; i++) {
		uint64_t len = fr->out_len[i], max;
		uint64_t addr = cap->out[i].arg == LTR_ARG_RET ? rax
							       : fr->out_addr[i];

		if (!cap->out[i].mode || !addr)
			continue;
		if (cap->out[i].mode == LTR_OUT_STRING) {
			blob_string(&b, pid, LTR_BLOB_OUT, cap->out[i].arg,
				    addr, ltr_session->strsize);
			continue;
		}
		if (cap->out[i].mode == LTR_OUT_RET)
			len = (int64_t)rax > 0 ? rax : 0;
		max = len > ltr_session->strsize && cap->out[i].mode != LTR_OUT_FIXED
			      ? ltr_session->strsize : len;
		blob_mem(&b, pid, LTR_BLOB_OUT, cap->out[i].arg, addr, len, max);
	}
	return b.used;
}

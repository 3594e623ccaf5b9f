/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format.h: how trace lines are written (text or JSON), one interface. */
#ifndef LTRUSS_FORMAT_H
#define LTRUSS_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/session.h"

/* A traced call as the formatters see it. */
struct call {
	uint32_t fn;
	uint32_t depth;
	uint64_t args[6];
	uint64_t caller;   /* return address */
	uint64_t ts_enter; /* TSC */
	const unsigned char *blobs; /* what the interposer copied (lib/session.h) */
	uint32_t blobs_len;
};

/* How a call ended. */
struct result {
	bool returned;     /* false: why says how it ended */
	enum ltr_end why;
	uint64_t rax, rdx, xmm0;
	uint64_t ts_exit;  /* TSC */
	bool failed;       /* by its prototype's error convention */
	int errnum;        /* then: errno */
	const unsigned char *blobs; /* output arguments copied on return */
	uint32_t blobs_len;
};

/* Who made the call. */
struct who {
	int pid, tid;
};

/* What warming a function's caches gave (struct format's warm). */
enum format_warm {
	WARM_LATER, /* its entry is not filled in yet */
	WARM_READY, /* its lines may be printed on several threads at once */
	WARM_NEVER, /* its lines read more than its caches (a symbol named) */
};

/* One output format: every callback writes whole lines, except partial. */
struct format {
	/* "LIB:FUNC(args) = ret": a call seen whole. */
	void (*whole)(const struct who *w, const struct call *c,
		      const struct result *r);
	/* "LIB:FUNC(args) {": a call with traced calls inside. */
	void (*open)(const struct who *w, const struct call *c);
	/* "} LIB:FUNC = ret": the end of an opened call. */
	void (*close)(const struct who *w, const struct call *c,
		      const struct result *r);
	/* "LIB:FUNC(args)" without a newline: a call that blocks. */
	void (*partial)(const struct who *w, const struct call *c);
	/* " = ret": the end of the partial line. */
	void (*partial_end)(const struct who *w, const struct call *c,
			    const struct result *r);
	/* " <unfinished ...>": something else must be printed first. */
	void (*unfinished)(const struct who *w, const struct call *c);
	/* "<... LIB:FUNC resumed> = ret". */
	void (*resumed)(const struct who *w, const struct call *c,
			const struct result *r);
	/* "LIB:FUNC(args) <no return ...>": seen on entry only. */
	void (*entry_only)(const struct who *w, const struct call *c);
	/* "+++ exited (status N) +++" / "+++ killed by SIG +++". */
	void (*exited)(int pid, uint64_t tsc, int status);
	void (*killed)(int pid, uint64_t tsc, int sig, bool core);
	/* "+++ setuid changes the credentials: untraced from here on +++". */
	void (*untraced)(const struct who *w, uint64_t tsc, const char *func);
	/*
	 * Build what the lines of function fn read from the caches kept by
	 * function (its names' pieces, its prototype's view), so that threads
	 * may then print its calls at once (trace-rounds.c); NULL: a format
	 * that prints no lines.
	 */
	enum format_warm (*warm)(uint32_t fn);
};

/* Options that shape every line. */
struct format_options {
	FILE *out;
	int timestamps;   /* -t: 1, -tt: 2, -ttt: 3 */
	bool relative;    /* -r */
	bool durations;   /* -T */
	bool demangle;    /* C++ names demangled (not --no-demangle) */
	bool caller;      /* --caller */
	unsigned stack;   /* -k: frames shown under each call; 0 = none */
};

extern struct format_options fmt;

/*
 * What the run has seen that changes how lines look, apart from the
 * options (fmt), which are set once: written only by format_seen_*().
 */
struct format_seen {
	bool pid_prefix;  /* a second thread or process: lines say "[pid N]" */
	bool processes;   /* a second process: "+++" lines say whose too */
};
extern struct format_seen fmt_seen;

/* A second thread was seen: lines say whose they are from now on. */
void format_seen_thread(void);

/* A second process was seen (or a file says there were several). */
void format_seen_process(void);
extern const struct format format_text, format_json;

/* Why a call ended without returning, as a word: "unwound", "exited"... */
const char *format_end_name(enum ltr_end why);

/* "lib" and "func" names of function fn (never NULL), func as displayed. */
const char *format_lib(uint32_t fn);
const char *format_func(uint32_t fn);

/* The symbol name of function fn as in the symbol table (never NULL). */
const char *format_func_raw(uint32_t fn);

/* A raw symbol name as displayed: demangled unless --no-demangle. */
const char *format_func_display(const char *raw);

/* Room for any uint64_t in decimal, with a sign. */
#define FORMAT_DECIMAL_MAX 24

/* How many decimal digits v has (1 to 20). */
static inline unsigned format_decimal_digits(uint64_t v)
{
	uint64_t ten = 10;
	unsigned n = 1;

	/* Timestamps have 19 digits: count with compares, not divisions. */
	while (n < 20 && v >= ten) {
		n++;
		if (n < 20)
			ten *= 10;
	}
	return n;
}

/* "00" to "99": two digits of a decimal, looked up at once. */
static const char format_pairs[] =
	"00010203040506070809101112131415161718192021222324"
	"25262728293031323334353637383940414243444546474849"
	"50515253545556575859606162636465666768697071727374"
	"75767778798081828384858687888990919293949596979899";

/*
 * v in decimal as exactly n digits at dst (zero-padded on the left; n at
 * least format_decimal_digits(v)), two digits a division, each written
 * straight to its place.  The one decimal writer of every output: most
 * values of every line go through it.
 */
static inline void format_decimal_at(char *dst, uint64_t v, unsigned n)
{
	char *p = dst + n;

	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		*--p = format_pairs[2 * r + 1];
		*--p = format_pairs[2 * r];
	}
	if (v >= 10) {
		*--p = format_pairs[2 * v + 1];
		*--p = format_pairs[2 * v];
	} else {
		*--p = (char)('0' + v);
	}
	while (p > dst)
		*--p = '0';
}

/*
 * v (below 1000) as exactly 3 digits at dst, without a loop: its
 * hundreds by a multiplication (v * 41 >> 12 is v / 100 below 1000),
 * the rest a pair.
 */
static inline void format_digits3_at(char *dst, unsigned v)
{
	unsigned h = v * 41 >> 12;

	dst[0] = (char)('0' + h);
	__builtin_memcpy(dst + 1, format_pairs + 2 * (v - 100 * h), 2);
}

/*
 * The 8 hex digits of h as ASCII, the first in the lowest byte (the order
 * a little-endian store puts them in): each nibble spread to a byte of
 * its own, then made a digit, all eight at once.  Pointers are most
 * values of a trace: a digit at a time, this was the reader's most
 * expensive function.
 */
static inline uint64_t format_hex8(uint32_t h)
{
	const uint64_t ones = 0x0101010101010101ull;
	uint64_t t = h, letters;

	t = (t | t << 16) & 0x0000ffff0000ffffull;
	t = (t | t << 8) & 0x00ff00ff00ff00ffull;
	t = (t | t << 4) & 0x0f0f0f0f0f0f0f0full; /* lowest nibble in byte 0 */
	letters = ((t + 6 * ones) >> 4) & ones;   /* 1 in each byte >= 10 */
	t += '0' * ones + ('a' - '0' - 10) * letters;
	return __builtin_bswap64(t);
}

/* Room format_hex_at needs: "0x" and 16 digits, stored 8 at a time. */
#define FORMAT_HEX_ROOM 18

/*
 * v as 0x and lowercase hex digits at dst ("0" is "0x0"), with room for
 * FORMAT_HEX_ROOM bytes: the digits stored straight to their place, 8 at
 * a time, the first word shifted so that its leading zeros fall off, the
 * last one over its tail.  Returns the length.
 */
static inline size_t format_hex_at(char *dst, uint64_t v)
{
	size_t digits = v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1;
	uint64_t hi, lo = format_hex8((uint32_t)v);

	dst[0] = '0';
	dst[1] = 'x';
	if (digits <= 8) {
		/* The zeros shifted in end the text. */
		lo >>= 8 * (8 - digits);
		__builtin_memcpy(dst + 2, &lo, 8);
	} else {
		hi = format_hex8((uint32_t)(v >> 32)) >> 8 * (16 - digits);
		__builtin_memcpy(dst + 2, &hi, 8);
		__builtin_memcpy(dst + 2 + digits - 8, &lo, 8);
	}
	return 2 + digits;
}

/* n rounded up to whole pieces of format_copy: the room its both sides need. */
#define FORMAT_COPY_ROOM(n) (((n) + 31) & ~(size_t)31)

/*
 * Copy n bytes of s to dst in whole 32-byte pieces, each a constant copy
 * the compiler writes inline (a name, a cached head: a few pieces), where
 * a call of memcpy for so few bytes cost more than the copy: s and dst
 * must both have FORMAT_COPY_ROOM(n) bytes, the bytes past n are
 * overwritten; n is at least 1.  Returns dst + n.
 */
static inline char *format_copy(char *dst, const char *s, size_t n)
{
	size_t i;

	/*
	 * The first piece unasked: n is never 0; the second without the
	 * loop's counting: most are one or two pieces (a JSON object's head
	 * and names are two).
	 */
	__builtin_memcpy(dst, s, 32);
	if (n > 32) {
		__builtin_memcpy(dst + 32, s + 32, 32);
		for (i = 64; i < n; i += 32)
			__builtin_memcpy(dst + i, s + i, 32);
	}
	return dst + n;
}

/*
 * A mask with the high bit set in the bytes of x (8 bytes of a string)
 * that a quoted string, text or JSON, cannot hold as they are: control
 * characters, '"', '\\', and DEL and above (escaped in text, checked for
 * UTF-8 in JSON).  Exact in the lowest such byte (the first in memory);
 * bytes after it may be marked too (a borrow or a carry); 0 when none is.
 * Most strings need no escape at all: they are looked at 8 bytes at a time.
 */
static inline uint64_t format_special8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t quote = x ^ ('"' * ones), backslash = x ^ ('\\' * ones);

	return ((x - 0x20 * ones) & ~x & high) |           /* < 0x20 */
	       ((quote - ones) & ~quote & high) |          /* '"' */
	       ((backslash - ones) & ~backslash & high) |  /* '\\' */
	       (((x + ones) | x) & high);                 /* >= 0x7f */
}

/* How many of the 16 bytes at s come before the first format_special8() one (16: none). */
static inline unsigned format_plain16(const unsigned char *s)
{
	typedef unsigned char v16u __attribute__((vector_size(16)));
	typedef signed char v16s __attribute__((vector_size(16)));
	v16u x;
	v16s m;
	uint64_t w[2];

	__builtin_memcpy(&x, s, 16);
	/* Signed, DEL's successors (0x80 and above) are below 0x20 too. */
	m = ((v16s)x < 0x20) | (v16s)(x == '"') | (v16s)(x == '\\') |
	    (v16s)(x == 0x7f);
	__builtin_memcpy(w, &m, 16);
	if (w[0])
		return (unsigned)__builtin_ctzll(w[0]) >> 3;
	if (w[1])
		return 8 + ((unsigned)__builtin_ctzll(w[1]) >> 3);
	return 16;
}

/*
 * Bytes of s[0..n) before the first that a quoted string must escape
 * (format_special8), 16 at a time, then 8, then one: most strings, and
 * long runs of most others, need none.  Copied to dst as they are looked
 * at, unless dst is NULL: whole words are stored, of which only the plain
 * bytes count, never past dst[n - 1].
 */
static inline __attribute__((always_inline)) size_t
format_plain_copy(char *dst, const unsigned char *s, size_t n)
{
	size_t i = 0;
	uint64_t x, m;
	unsigned k;

	while (n - i >= 16) {
		k = format_plain16(s + i);
		if (dst)
			__builtin_memcpy(dst + i, s + i, 16);
		i += k;
		if (k < 16)
			return i;
	}
	if (n - i >= 8) {
		__builtin_memcpy(&x, s + i, 8);
		if (dst)
			__builtin_memcpy(dst + i, &x, 8);
		if ((m = format_special8(x)) != 0)
			return i + ((unsigned)__builtin_ctzll(m) >> 3);
		i += 8;
	}
	for (; i < n && s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' &&
	       s[i] != '\\'; i++)
		if (dst)
			dst[i] = (char)s[i];
	return i;
}

/* Bytes of s[0..n) before the first that a quoted string must escape. */
static inline size_t format_plain(const unsigned char *s, size_t n)
{
	return format_plain_copy(NULL, s, n);
}

#endif

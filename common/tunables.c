/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tunables.c: the static TLS surplus a program needs under an audit module.
 *
 * Without an audit module, the loader sizes the static TLS block for the
 * initial-exec TLS of every object loaded at start, and adds a surplus
 * (glibc.rtld.optional_static_tls, 512 bytes, and 1664 in all on glibc
 * 2.36) for objects dlopened later.  With one, it must set up TLS to load
 * the audit module before it knows the program's objects (glibc bug
 * 31991), so their initial-exec TLS comes out of the surplus too: measured
 * on glibc 2.36, an object loaded at start gets at most 1680 bytes, where
 * libjemalloc.so.2 (redis-server) has 2632, and the loader stops the
 * program with "cannot allocate memory in static TLS block" (exit 127).
 *
 * So the program starts with LTR_TLS_EXTRA (1536) bytes more of optional
 * surplus than it would have had: the user's own value of the tunable if
 * GLIBC_TUNABLES sets it (what they wanted left for dlopen), glibc's 512
 * otherwise.  1536 covers jemalloc (redis-server needs 936 more than the
 * default) with 600 bytes to spare for the smaller users loaded with it
 * (libgomp 136, libasan 84, libEGL_mesa 64, Mesa's drivers 32).  Every
 * thread pays it out of its stack, which matters for small ones: a thread
 * with a 16 KiB stack keeps 10.4 of its 11.9 KiB (with 3584 more, 8.3).
 * Larger blocks (liblsan 56 KiB, libtsan 767 KiB) are the user's to ask
 * for, with the same tunable (ltruss says so when the loader refuses).
 *
 * ltruss's entry comes first: glibc 2.36 stops reading GLIBC_TUNABLES at
 * an entry without '=', and the user's own setting of the tunable is left
 * out, replaced by the sum.  The program itself sees its own value back
 * (lib/attach.c); the user's is carried, whole, in LTRUSS_SAVED_GLIBC_
 * TUNABLES, whose "LTRUSS_SAVED_" prefix left out is "GLIBC_TUNABLES=...".
 *
 * Shared by ltruss and the interposer: no libc here.
 */
#include "tunables.h"

#define PREFIX LTR_TUNABLES "=" LTR_TLS_TUNABLE "="
/* Largest value taken from the user; ltruss's share is added to it. */
#define TLS_MAX (1ULL << 40)

/* Does the entry at s (up to ':' or the end) set the tunable name? */
static int entry_is(const char *s, const char *name)
{
	while (*name && *s == *name)
		s++, name++;
	return !*name && *s == '=';
}

/* The value of an entry's number at s, read as glibc's _dl_strtoul does. */
static unsigned long long number(const char *s, int *found)
{
	unsigned long long v = 0, base = 10, d;

	*found = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	else if (s[0] == '0')
		base = 8;
	for (;; s++) {
		if (*s >= '0' && *s <= '9')
			d = (unsigned long long)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned long long)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned long long)(*s - 'A' + 10);
		else
			break;
		if (d >= base)
			break;
		*found = 1;
		v = v * base + d;
		if (v > TLS_MAX)
			v = TLS_MAX;
	}
	return v;
}

/* The end of the entry at s: its ':' or the NUL. */
static const char *entry_end(const char *s)
{
	while (*s && *s != ':')
		s++;
	return s;
}

unsigned long long ltr_tunables_tls(const char *user)
{
	unsigned long long v = LTR_TLS_DEFAULT, n;
	const char *s, *e;
	int found;

	/* The last setting counts, as in glibc. */
	for (s = user; s && *s; s = *e ? e + 1 : e) {
		e = entry_end(s);
		if (!entry_is(s, LTR_TLS_TUNABLE))
			continue;
		n = number(s + sizeof(LTR_TLS_TUNABLE), &found);
		if (found)
			v = n;
	}
	return v + LTR_TLS_EXTRA;
}

size_t ltr_tunables_size(const char *user)
{
	size_t n = 0;

	while (user && user[n])
		n++;
	/* The prefix, 20 digits, a ':' and the NUL. */
	return sizeof(PREFIX) + 20 + 1 + n;
}

char *ltr_tunables_merge(char *d, const char *user)
{
	char digits[24];
	unsigned long long v = ltr_tunables_tls(user);
	const char *s, *e, *p = PREFIX;
	int k = 0;

	while (*p)
		*d++ = *p++;
	do
		digits[k++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (k)
		*d++ = digits[--k];
	/* The user's other entries, in their order; empty ones dropped. */
	for (s = user; s && *s; s = *e ? e + 1 : e) {
		e = entry_end(s);
		if (e == s || entry_is(s, LTR_TLS_TUNABLE))
			continue;
		*d++ = ':';
		while (s < e)
			*d++ = *s++;
	}
	*d++ = '\0';
	return d;
}

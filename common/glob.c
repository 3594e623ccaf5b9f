/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * glob.c: shell glob matching of the selection's names, on little stack,
 * the one matcher of both programs (the interposer, and ltruss's --list,
 * --read narrowing and console), so that a glob means one thing whoever
 * applies it.
 *
 * What fnmatch(3) does with flags 0 or FNM_PATHNAME in the C locale (the
 * audit module's libc never sets another): '*', '?', brackets with ranges,
 * '!' or '^' and [:classes:], '\' quoting (tests/unit/select-test compares
 * the two).  fnmatch itself takes some 4.5 KiB of stack (glibc 2.36), and
 * it runs when the loader binds a function lazily: the first call may come
 * from a signal handler on an alternate stack of 8 KiB.  This takes no
 * more than its few locals, and no recursion: a '*' is retried from the
 * last one (a later star can only cover what an earlier one would have).
 * It calls nothing, so that it builds with the interposer's flags
 * (HACKING.md, common/).
 */
#include "glob.h"

/* Is the word w (NUL-terminated) the len bytes at name? */
static bool word_is(const char *w, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (w[i] != name[i] || !w[i])
			return false;
	return !w[i];
}

/* Is c in the character class name (len bytes), as the C locale says? */
static bool class_has(const char *name, size_t len, unsigned char c)
{
	bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
	bool digit = c >= '0' && c <= '9', alpha = upper || lower;
	bool graph = c > ' ' && c < 0x7f;
	static const struct {
		const char *name;
		int id;
	} classes[] = {
		{ "alpha", 0 }, { "digit", 1 }, { "alnum", 2 }, { "upper", 3 },
		{ "lower", 4 }, { "space", 5 }, { "xdigit", 6 }, { "punct", 7 },
		{ "print", 8 }, { "graph", 9 }, { "cntrl", 10 }, { "blank", 11 },
	};
	size_t i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		if (!word_is(classes[i].name, name, len))
			continue;
		switch (classes[i].id) {
		case 0: return alpha;
		case 1: return digit;
		case 2: return alpha || digit;
		case 3: return upper;
		case 4: return lower;
		case 5: return c == ' ' || (c >= '\t' && c <= '\r');
		case 6: return digit || (c >= 'a' && c <= 'f') ||
			       (c >= 'A' && c <= 'F');
		case 7: return graph && !alpha && !digit;
		case 8: return graph || c == ' ';
		case 9: return graph;
		case 10: return c < ' ' || c == 0x7f;
		default: return c == ' ' || c == '\t';
		}
	}
	return false;
}

/*
 * Does the bracket expression at p ('[' ...) match c?  1 or 0, with *len
 * its length; -1 if it has no closing ']' (the '[' is then a plain one);
 * -2 if it has a collating symbol or an equivalence class other than of
 * one character ("[.a.]", "[=a=]"), which fnmatch takes for an error.
 */
static int bracket(const char *p, unsigned char c, size_t *len)
{
	const char *q = p + 1;
	bool neg = *q == '!' || *q == '^', hit = false, first = true;

	if (neg)
		q++;
	for (; *q && (*q != ']' || first); first = false) {
		unsigned char lo, hi;

		if (q[0] == '[' && q[1] == ':') {
			const char *end = q + 2;

			while (*end && !(end[0] == ':' && end[1] == ']'))
				end++;
			if (*end) {
				hit |= class_has(q + 2, (size_t)(end - q - 2), c);
				q = end + 2;
				continue;
			}
		}
		if (q[0] == '[' && (q[1] == '.' || q[1] == '=')) {
			if (!q[2] || q[3] != q[1] || q[4] != ']')
				return -2;
			lo = (unsigned char)q[2];
			q += 5;
		} else {
			if (*q == '\\' && q[1])
				q++;
			lo = (unsigned char)*q++;
		}
		hi = lo;
		if (q[0] == '-' && q[1] && q[1] != ']') {
			q++;
			if (*q == '\\' && q[1])
				q++;
			hi = (unsigned char)*q++;
		}
		hit |= lo <= c && c <= hi;
	}
	if (!*q)
		return -1;
	*len = (size_t)(q + 1 - p);
	return hit != neg;
}

/* How much of the pattern at p matches the character c: 0 if it does not. */
static size_t one(const char *p, unsigned char c, bool pathname)
{
	size_t len;
	int r;

	switch (*p) {
	case '\0':
		return 0;
	case '?':
		return pathname && c == '/' ? 0 : 1;
	case '[':
		r = bracket(p, c, &len);
		if (r == -1)
			return c == '[';
		return r > 0 && !(pathname && c == '/') ? len : 0;
	case '\\':
		/* As glibc's: a '\' that quotes nothing matches nothing. */
		return p[1] && (unsigned char)p[1] == c ? 2 : 0;
	default:
		return (unsigned char)*p == c;
	}
}

/* Is there only '?' from star_p (just past a '*'; or NULL) up to p? */
static bool star_after(const char *star_p, const char *p)
{
	if (!star_p)
		return false;
	while (star_p < p && *star_p == '?')
		star_p++;
	return star_p == p;
}

bool sel_glob_match(const char *glob, const char *s, bool pathname)
{
	const char *star_p = NULL, *star_s = NULL;
	size_t n;

	for (;;) {
		if (*glob == '*') {
			while (*glob == '*')
				glob++;
			star_p = glob;
			star_s = s;
			continue;
		}
		if (!*s)
			return !*glob;
		/*
		 * As glibc's: with FNM_PATHNAME, what follows a '*' (and the
		 * '?' after it) is tried at a '/' only if it is a '/' itself,
		 * not a quoted one.
		 */
		if (pathname && *s == '/' && *glob == '\\' && star_after(star_p, glob))
			n = 0;
		else
			n = one(glob, (unsigned char)*s, pathname);
		if (n) {
			glob += n;
			s++;
			continue;
		}
		if (!star_p || (pathname && *star_s == '/'))
			return false;
		s = ++star_s;
		glob = star_p;
	}
}

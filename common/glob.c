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

/*
 * Is c in the character class name (len bytes), as the C locale says?
 * 1 or 0; -1 if there is no such class.
 */
static int class_has(const char *name, size_t len, unsigned char c)
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
	return -1;
}

/*
 * Bracket expressions are parsed as glibc's fnmatch parses them in the C
 * locale, quirks included, since ltruss used fnmatch itself before: items
 * are read until one matches, then the rest is skipped by looser rules.
 * What glibc takes for an error fails the match at this place (FAIL).
 */
#define FAIL (-2)

/* The symbol of "[.c.]" at p (just past its '.'), p moved past it; FAIL unless one character. */
static int collating(const char **pp)
{
	const char *p = *pp, *start = p;

	while (!(p[0] == '.' && p[1] == ']')) {
		if (!*p)
			return FAIL;
		p++;
	}
	*pp = p + 2;
	return p - start == 1 ? (unsigned char)*start : FAIL;
}

/*
 * "[:name:]" at p (just past its ':'): 1 or 0, is c in it, with p moved
 * past it; FAIL for a class that does not exist; -1 if it is no class (a
 * character outside 'a' to 'y' before ":]": the '[' is a plain one).
 */
static int class_at(const char **pp, unsigned char c)
{
	const char *p = *pp + 1, *name = p;
	int in;

	while (!(p[0] == ':' && p[1] == ']')) {
		if (*p < 'a' || *p >= 'z')
			return -1;
		p++;
	}
	*pp = p + 2;
	in = class_has(name, (size_t)(p - name), c);
	return in < 0 ? FAIL : in;
}

/*
 * Skip the rest of a bracket whose item matched, from *pp, up to just
 * past its ']': 1; -1 if it has none (the '[' is then a plain one); FAIL
 * for a quoted NUL, an unterminated "[.", or a "[=" not of the form
 * "[=c=]".
 */
static int skip_rest(const char **pp)
{
	const char *p = *pp, *start;
	char ch;

	while ((ch = *p++) != ']') {
		if (!ch)
			return -1;
		if (ch == '\\') {
			if (!*p++)
				return FAIL;
		} else if (ch == '[' && *p == ':') {
			for (start = p++; !(p[0] == ':' && p[1] == ']'); p++)
				if (*p < 'a' || *p >= 'z')
					break;
			p = p[0] == ':' && p[1] == ']' ? p + 2 : start;
		} else if (ch == '[' && *p == '=') {
			if (!p[1] || p[2] != '=' || p[3] != ']')
				return FAIL;
			p += 4;
		} else if (ch == '[' && *p == '.') {
			for (p++; !(p[0] == '.' && p[1] == ']'); p++)
				if (!*p)
					return FAIL;
			p += 2;
		}
	}
	*pp = p;
	return 1;
}

/*
 * Does the bracket expression at p ('[' ...) match c?  1 or 0, with *len
 * its length; -1 if it has no closing ']' (the '[' is then a plain one);
 * FAIL where glibc's fnmatch fails the match: a class that does not
 * exist, a collating symbol of more than one character (the C locale has
 * none) or without its ".]", before an item matched; after one, what
 * skip_rest says.
 */
static int bracket(const char *p0, unsigned char c, size_t *len)
{
	const char *p = p0 + 1;
	bool neg = *p == '!' || *p == '^', range, quoted;
	unsigned char ch, lo, hi;
	int r;

	if (neg)
		p++;
	ch = (unsigned char)*p++;
	for (;;) {
		quoted = ch == '\\';
		if (quoted) {
			if (!*p)
				return FAIL;
			ch = (unsigned char)*p++;
		} else if (ch == '[' && *p == ':') {
			r = class_at(&p, c);
			if (r == 1)
				goto matched;
			if (r == FAIL)
				return FAIL;
			if (r == 0) {
				ch = (unsigned char)*p++;
				if (ch == ']')
					break;
				continue;
			}
		} else if (ch == '[' && *p == '=' && p[1] && p[2] == '=' &&
			   p[3] == ']') {
			p += 4;
			if (c == (unsigned char)p[-3])
				goto matched;
			ch = (unsigned char)*p++;
			if (ch == ']')
				break;
			continue;
		} else if (!ch) {
			return -1;
		}
		/* A character or "[.c.]", alone or starting a range. */
		if (!quoted && ch == '[' && *p == '.') {
			p++;
			if ((r = collating(&p)) == FAIL)
				return FAIL;
			lo = (unsigned char)r;
			range = *p == '-' && p[1];
		} else {
			lo = ch;
			range = *p == '-' && p[1] && p[1] != ']';
		}
		if (!range && c == lo)
			goto matched;
		ch = (unsigned char)*p++;
		if (ch == '-' && *p != ']') {
			hi = (unsigned char)*p++;
			if (hi == '[' && *p == '.') {
				p++;
				if ((r = collating(&p)) == FAIL)
					return FAIL;
				hi = (unsigned char)r;
			} else if (hi == '\\') {
				hi = (unsigned char)*p++;
			}
			if (!hi)
				return FAIL;
			if (lo <= c && c <= hi)
				goto matched;
			ch = (unsigned char)*p++;
		}
		if (ch == ']')
			break;
	}
	*len = (size_t)(p - p0);
	return neg;

matched:
	r = skip_rest(&p);
	if (r < 0)
		return r;
	*len = (size_t)(p - p0);
	return !neg;
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

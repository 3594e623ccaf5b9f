/* SPDX-License-Identifier: GPL-2.0-or-later */
/* prototype-lex.c: the tokens of a C declaration, and the first error of a
 * parse. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "prototype-parser.h"

/* Words that change nothing for ltruss: qualifiers, storage classes. */
static const char *const ignored_words[] = {
    "const",	     "__const",	     "__const__",      "volatile",
    "__volatile",    "__volatile__", "restrict",       "__restrict",
    "__restrict__",  "_Atomic",	     "extern",	       "static",
    "inline",	     "__inline",     "__inline__",     "register",
    "__extension__", "_Noreturn",    "__restrict_arr",
};

/* The qualifier that tells an input string from a buffer. */
static const char *const const_words[] = {"const", "__const", "__const__"};

/* Words that may be followed by a parenthesized argument, all skipped. */
static const char *const attribute_words[] = {
    "__attribute__",  "__attribute",
    "__nonnull",      "__wur",
    "__THROW",	      "__THROWNL",
    "__LEAF",	      "__asm__",
    "__asm",	      "asm",
    "__attr_access",  "__fortified_attr_access",
    "__attr_dealloc", "__attr_dealloc_free",
};

/* Messages that quote the declaration are built here (one parse at a time). */
static char message[128];

/* Record the first error, at offset pos of the declaration; returns false. */
bool proto_fail(struct parser *p, size_t pos, const char *msg)
{
	if (!p->err) {
		p->err = msg;
		p->errcol = (unsigned)pos + 1;
	}
	return false;
}

/* proto_fail() with a formatted message. */
bool proto_failf(struct parser *p, size_t pos, const char *fmt, ...)
{
	va_list ap;

	if (p->err)
		return false;
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	return proto_fail(p, pos, message);
}

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* Scan the token that starts at or after pos. */
struct token proto_lex_at(const char *s, size_t pos)
{
	struct token t = {TK_END, pos, 0};

	while (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\n' ||
	       s[pos] == '\r')
		pos++;
	t.start = pos;
	if (s[pos] == '\0')
		return t;
	if (is_ident_start(s[pos]) || (s[pos] >= '0' && s[pos] <= '9')) {
		t.kind = is_ident_start(s[pos]) ? TK_IDENT : TK_NUMBER;
		while (is_ident_char(s[pos]))
			pos++;
	} else if (strncmp(s + pos, "...", 3) == 0) {
		t.kind = TK_ELLIPSIS;
		pos += 3;
	} else {
		t.kind = strchr("()[]*,;", s[pos]) ? TK_PUNCT : TK_BAD;
		pos++;
	}
	t.len = pos - t.start;
	return t;
}

/* Move to the next token. */
void proto_lex_next(struct parser *p)
{
	p->t = proto_lex_at(p->s, p->next);
	p->next = p->t.start + p->t.len;
}

/* The token after the current one, without moving. */
struct token proto_lex_peek(const struct parser *p)
{
	return proto_lex_at(p->s, p->next);
}

bool proto_tok_punct(const struct parser *p, char c)
{
	return p->t.kind == TK_PUNCT && p->s[p->t.start] == c;
}

/*
 * Whether token t of s is the identifier word.  Thousands of shipped
 * declarations are parsed at every start, each token against dozens of
 * words: comparing stops at the first differing byte (usually the first),
 * where strlen() and memcmp() of every word would walk it whole.
 */
bool proto_token_is(const char *s, struct token t, const char *word)
{
	size_t i;

	if (t.kind != TK_IDENT)
		return false;
	for (i = 0; i < t.len; i++)
		if (s[t.start + i] != word[i]) /* also stops at word's end */
			return false;
	return word[t.len] == '\0';
}

bool proto_tok_is(const struct parser *p, const char *word)
{
	return proto_token_is(p->s, p->t, word);
}

/* Whether token t of s is one of the n words. */
bool proto_token_in(const char *s, struct token t, const char *const *words,
		    size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (proto_token_is(s, t, words[i]))
			return true;
	return false;
}

bool proto_tok_in(const struct parser *p, const char *const *words, size_t n)
{
	return proto_token_in(p->s, p->t, words, n);
}

/* Whether token t of s is a qualifier or storage class (ignored). */
bool proto_token_ignored(const char *s, struct token t)
{
	return proto_token_in(s, t, ignored_words,
			      sizeof(ignored_words) / sizeof(*ignored_words));
}

/* Expect the punctuation c and step over it. */
bool proto_expect(struct parser *p, char c)
{
	if (!proto_tok_punct(p, c))
		return proto_failf(p, p->t.start, "expected '%c'", c);
	proto_lex_next(p);
	return true;
}

/* Skip a balanced (...) group; the current token is its '('. */
static bool skip_group(struct parser *p)
{
	size_t open = p->t.start;
	unsigned depth = 0;

	do {
		if (p->t.kind == TK_END)
			return proto_fail(p, open, "unbalanced '('");
		if (proto_tok_punct(p, '('))
			depth++;
		else if (proto_tok_punct(p, ')'))
			depth--;
		proto_lex_next(p);
	} while (depth > 0);
	return true;
}

/*
 * Whether the current token could be a qualifier or an attribute, by its
 * first character: most tokens are punctuation or type names, and this
 * spares them the comparison with every word of both lists.
 */
static bool may_be_ignored(const struct parser *p)
{
	static bool first[256], built;
	size_t i;

	if (!built) {
		for (i = 0; i < sizeof(ignored_words) / sizeof(*ignored_words); i++)
			first[(unsigned char)ignored_words[i][0]] = true;
		for (i = 0; i < sizeof(attribute_words) / sizeof(*attribute_words); i++)
			first[(unsigned char)attribute_words[i][0]] = true;
		built = true;
	}
	return p->t.kind == TK_IDENT && first[(unsigned char)p->s[p->t.start]];
}

/* Skip qualifiers and attributes; false on an unbalanced attribute. */
bool proto_skip_ignored(struct parser *p)
{
	for (;;) {
		if (!may_be_ignored(p))
			return true;
		if (proto_tok_in(p, ignored_words,
				 sizeof(ignored_words) /
				     sizeof(*ignored_words))) {
			if (proto_tok_in(p, const_words,
					 sizeof(const_words) /
					     sizeof(*const_words)))
				p->consts++;
			proto_lex_next(p);
		} else if (proto_tok_in(p, attribute_words,
					sizeof(attribute_words) /
					    sizeof(*attribute_words)) ||
			   (p->t.kind == TK_IDENT && p->t.len > 12 &&
			    memcmp(p->s + p->t.start, "__attribute_", 12) ==
				0)) {
			proto_lex_next(p);
			if (proto_tok_punct(p, '(') && !skip_group(p))
				return false;
		} else {
			return true;
		}
	}
}

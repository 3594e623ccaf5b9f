/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prototype-stub.c: TEMPORARY stand-in for bin/prototype.c (written on
 * another branch), so that the config branch links.  It only finds the
 * function name in "RET NAME(ARGS)".  Delete this file, and its line in
 * Makefile.am, when the real parser is merged.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "prototype.h"

bool proto_parse(const char *decl, struct proto *p, unsigned *errcol,
		 const char **err)
{
	const char *open, *end, *start;

	memset(p, 0, sizeof(*p));
	/* The name is the first identifier followed by '(' ("(*f(" too). */
	for (open = strchr(decl, '('); open; open = strchr(open + 1, '(')) {
		end = open;
		while (end > decl && end[-1] == ' ')
			end--;
		start = end;
		while (start > decl && (isalnum((unsigned char)start[-1]) ||
					start[-1] == '_'))
			start--;
		if (start < end)
			break;
	}
	if (!strchr(decl, '(')) {
		*errcol = (unsigned)strlen(decl) + 1;
		*err = "expected '(' after the function name";
		return false;
	}
	if (!open) {
		*errcol = (unsigned)(strchr(decl, '(') - decl) + 1;
		*err = "expected the function name before '('";
		return false;
	}
	if (!strchr(open, ')')) {
		*errcol = (unsigned)strlen(decl) + 1;
		*err = "expected ')'";
		return false;
	}
	p->name = strndup(start, (size_t)(end - start));
	p->ret.kind = CT_POINTER;
	p->ret.size = 8;
	p->ret_col = 1;
	return p->name != NULL;
}

void proto_free(struct proto *p)
{
	free(p->name);
	p->name = NULL;
}

const char *ptype_name(const struct ptype *t, char *buf, size_t size)
{
	(void)t;
	(void)size;
	buf[0] = '\0';
	return buf;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* prototype-name.c: the C spelling of a parsed type, for --list and messages.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "prototype.h"

/* The spelling of an integer of size bytes. */
static const char *integer_name(bool is_signed, unsigned size)
{
	switch (size) {
	case 1:
		return is_signed ? "signed char" : "unsigned char";
	case 2:
		return is_signed ? "short" : "unsigned short";
	case 8:
		return is_signed ? "long" : "unsigned long";
	default:
		return is_signed ? "int" : "unsigned int";
	}
}

/* The spelling of a value of kind (pointers: only that it is one). */
static const char *kind_name(enum ctype kind, unsigned size, const char *named)
{
	switch (kind) {
	case CT_VOID:
		return "void";
	case CT_INT:
	case CT_UINT:
		return integer_name(kind == CT_INT, size);
	case CT_BOOL:
		return "bool";
	case CT_CHAR:
		return "char";
	case CT_FLOAT:
		return "float";
	case CT_DOUBLE:
		return "double";
	case CT_LDOUBLE:
		return "long double";
	case CT_POINTER:
		return "void *";
	case CT_STRING:
		return "char *";
	case CT_FUNCPTR:
		return "void (*)()";
	case CT_FILE:
		return "FILE *";
	case CT_NAMED:
		return named ? named : "?";
	case CT_VALIST:
		return "va_list";
	}
	return "?";
}

/*
 * A pointer is spelled from what it points to: "int *", "char **", and
 * "void **" for a pointer to any other pointer (its own target is not
 * recorded).  Function pointers have no parameter list: "void (*)()".
 */
const char *ptype_name(const struct ptype *t, char *buf, size_t size)
{
	const char *to;
	size_t n;

	if (t->kind == CT_STRING) {
		snprintf(buf, size, "%s", t->writable ? "char *" : "const char *");
		return buf;
	}
	if (t->kind != CT_POINTER || t->target == CT_VOID) {
		snprintf(buf, size, "%s",
			 kind_name(t->kind, t->size, t->named));
		return buf;
	}
	if (t->target == CT_FUNCPTR) {
		snprintf(buf, size, "void (**)()");
		return buf;
	}
	to = kind_name(t->target, t->target_size, NULL);
	n = strlen(to);
	snprintf(buf, size, "%s%s*", to, n > 0 && to[n - 1] == '*' ? "" : " ");
	return buf;
}

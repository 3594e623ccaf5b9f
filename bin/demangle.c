/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * demangle.c: demangle C++ names with the C++ ABI's own demangler.
 *
 * __cxa_demangle is part of the Itanium C++ ABI, which libstdc++ exports
 * with C linkage; it understands every name g++ and clang++ produce.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>

#include "demangle.h"

char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *demangle(const char *name)
{
	int status = -1;
	char *out;

	if (name[0] != '_' || name[1] != 'Z')
		return NULL;
	out = __cxa_demangle(name, NULL, NULL, &status);
	if (status != 0) {
		free(out);
		return NULL;
	}
	return out;
}

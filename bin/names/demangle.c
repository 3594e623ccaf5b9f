/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * demangle.c: demangle C++ names with the C++ ABI's own demangler.
 *
 * __cxa_demangle is part of the Itanium C++ ABI, which libstdc++ exports
 * with C linkage; it understands every name g++ and clang++ produce.
 * libstdc++ is loaded on the first C++ name, not linked: linked, it (with
 * libgcc_s and libm) made every start of ltruss pay for its relocations
 * and constructors, about a third of the loader's work, for programs
 * that mostly have no C++ name at all.
 */
#include "config.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "demangle.h"
#include "error.h"

typedef char *demangler(const char *mangled, char *buf, size_t *len,
			int *status);

/* __cxa_demangle, from libstdc++ loaded on first use; NULL if it cannot be. */
static demangler *demangler_get(void)
{
	static demangler *fn;
	static bool tried;
	void *lib;

	if (tried)
		return fn;
	tried = true;
	lib = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
	if (lib)
		fn = (demangler *)dlsym(lib, "__cxa_demangle");
	if (!fn)
		warning_msg("cannot load libstdc++.so.6 to demangle C++ names (%s): they print as they are",
			    dlerror());
	return fn;
}

char *demangle(const char *name)
{
	demangler *fn;
	int status = -1;
	char *out;

	if (name[0] != '_' || name[1] != 'Z' || !(fn = demangler_get()))
		return NULL;
	out = fn(name, NULL, NULL, &status);
	if (status != 0) {
		free(out);
		return NULL;
	}
	return out;
}

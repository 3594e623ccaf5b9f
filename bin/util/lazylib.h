/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lazylib.h: a library loaded at the first call into it, not at start-up. */
#ifndef LTRUSS_LAZYLIB_H
#define LTRUSS_LAZYLIB_H

/* A library ltruss opens with dlopen when a feature first needs it. */
struct lazylib {
	const char *soname;  /* as configure found it: "libreadline.so.8" */
	const char *feature; /* what needs it, for the message: "the console" */
	const char *package; /* the Debian package that has it */
	void *handle;        /* NULL until loaded */
};

/* The address of symbol name in lib, loading lib first; dies if it cannot. */
void *lazylib_sym(struct lazylib *lib, const char *name);

/*
 * A wrapper of the library's function NAME, of the same name and type,
 * so that callers are written as if the library were linked: RET NAME
 * PARAMS calls the library's NAME with ARGS, found at the first call.
 */
#define LAZYLIB_FN(lib, ret, name, params, args)                         \
	ret name params                                                  \
	{                                                                \
		static ret(*fn) params;                                  \
		if (!fn)                                                 \
			fn = (ret(*) params)lazylib_sym(&lib, #name);    \
		return fn args;                                          \
	}

/* The same for a function that returns nothing. */
#define LAZYLIB_VOID(lib, name, params, args)                            \
	void name params                                                 \
	{                                                                \
		static void(*fn) params;                                 \
		if (!fn)                                                 \
			fn = (void(*) params)lazylib_sym(&lib, #name);   \
		fn args;                                                 \
	}

#endif

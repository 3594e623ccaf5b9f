/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lazylib.c: a library loaded at the first call into it, not at start-up.
 *
 * Every library an executable is linked to is mapped and relocated before
 * main, whether the run uses it or not.  readline (with libtinfo) serves
 * only the console, libdw (with liblzma and libbz2) only -k and source
 * lines: five of ltruss's nine libraries, about 0.3 ms of each start (the
 * loader's mmaps, relocations and page faults; more on a busy machine),
 * and each start of `ltruss -c true` is the whole run.  libelf (with libz)
 * serves only what reads symbols (--list, -k, --caller, function
 * pointers): a program's headers are read by hand (target.c).  Zydis
 * (640 KiB, 2 500 relocations) serves only entry patching ('::'), and
 * libyaml only a filter or a config to parse: the default config comes
 * compiled in (bin/config/config-default.c).  So
 * ltruss is not linked to them: a wrapper of the same name and type as each
 * function it calls (LAZYLIB_FN, in readline-lazy.c, libdw-lazy.c,
 * libelf-lazy.c, zydis-lazy.c and yaml-lazy.c) opens the library at the first call, by the soname configure found, and calls
 * through.  A library that cannot be opened then is an error that names
 * the feature and the package, as a missing one was before ltruss ran.
 */
#include "config.h"

#include <dlfcn.h>

#include "error.h"
#include "lazylib.h"

void *lazylib_sym(struct lazylib *lib, const char *name)
{
	void *sym;

	if (!lib->handle) {
		lib->handle = dlopen(lib->soname, RTLD_NOW | RTLD_GLOBAL);
		if (!lib->handle)
			error_msg_and_die("cannot load %s, which %s needs (%s): install the Debian package '%s'",
					  lib->soname, lib->feature, dlerror(),
					  lib->package);
	}
	sym = dlsym(lib->handle, name);
	if (!sym)
		error_msg_and_die("cannot find %s in %s, which %s needs (%s): install the Debian package '%s'",
				  name, lib->soname, lib->feature, dlerror(),
				  lib->package);
	return sym;
}

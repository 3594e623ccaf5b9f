/* SPDX-License-Identifier: GPL-2.0-or-later */
/* program-errno.c: read the traced program's errno after a call that failed. */
#include "capture.h"
#include "interposer.h"
#include "objects.h"

/*
 * errno is thread-local in the program's libc, which is not ours (the
 * interposer, an audit module, has a libc of its own in its own namespace):
 * the program's __errno_location tells where the calling thread's is.  It
 * only reads %fs, touching no vector register.
 */
static int *(*program_errno_location)(void);

void ltr_errno_init(void)
{
	program_errno_location = ltr_libc_function("__errno_location");
}

int ltr_program_errno(void)
{
	/* Library constructors may fail calls before la_preinit looked it up. */
	if (!program_errno_location)
		ltr_errno_init();
	return program_errno_location ? *program_errno_location() : 0;
}

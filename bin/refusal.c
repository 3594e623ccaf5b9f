/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * refusal.c: say why the loader stopped a traced program before it started.
 *
 * A process registers while the loader is still loading its program
 * (la_version) and marks it started once the loader is done (la_preinit,
 * lib/process.c).  One that ends with status 127 in between was stopped by
 * the loader, which printed its reason on the program's stderr, where
 * ltruss cannot read it.  So ltruss asks the loader again, by its dry run
 * of the same program in the same environment (launch_dry_run), which
 * loads and relocates every object and runs none of the program's code.
 *
 * The one reason ltruss itself causes is static TLS: an object with
 * initial-exec TLS larger than what the audit module leaves of the
 * surplus (common/tunables.c).  That is ltruss's error (exit 2), with the
 * value of glibc.rtld.optional_static_tls that makes room for it.  Any
 * other reason (a missing library) stops the program without ltruss too:
 * the loader's own message says it, and the program's status is kept.
 */
#include "config.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/tunables.h"
#include "error.h"
#include "launch.h"
#include "refusal.h"

#define TLS_FAILURE "cannot allocate memory in static TLS block"
#define LOADER_PREFIX "error while loading shared libraries: "

/* The TLS block of the ELF object at path, with its alignment; 0 if none. */
static unsigned long long tls_size(const char *path)
{
	unsigned long long size = 0;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	unsigned i;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &eh, sizeof(eh), 0) == (ssize_t)sizeof(eh) &&
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64 &&
	    eh.e_phentsize == sizeof(ph))
		for (i = 0; i < eh.e_phnum && i < 256; i++)
			if (pread(fd, &ph, sizeof(ph),
				  (off_t)(eh.e_phoff + i * sizeof(ph))) ==
				    (ssize_t)sizeof(ph) &&
			    ph.p_type == PT_TLS) {
				size = ph.p_memsz + ph.p_align;
				break;
			}
	close(fd);
	return size;
}

/*
 * The object the loader named in msg ("...: error while loading shared
 * libraries: OBJECT: cannot allocate memory in static TLS block"), into
 * obj; false if msg is not about static TLS.
 */
static bool tls_object(const char *msg, char *obj, size_t size)
{
	const char *p = strstr(msg, LOADER_PREFIX), *end;

	if (!p || !(end = strstr(p, ": " TLS_FAILURE)))
		return false;
	p += sizeof(LOADER_PREFIX) - 1;
	snprintf(obj, size, "%.*s", (int)(end - p), p);
	return true;
}

bool refusal_explain(const char *path)
{
	char msg[4096], obj[4096];
	unsigned long long now = ltr_tunables_tls(getenv(LTR_TUNABLES)) -
				 LTR_TLS_EXTRA,
			   need;

	launch_dry_run(path, msg, sizeof(msg));
	if (!tls_object(msg, obj, sizeof(obj)))
		return false;
	/* The user's value (or glibc's) and the block, in whole KiB. */
	need = (now + tls_size(obj) + 1023) / 1024 * 1024;
	error_msg("the loader could not start '%s': the initial-exec TLS of '%s' does not fit in the static TLS an audit module leaves (" TLS_FAILURE ", glibc bug 31991); run again with GLIBC_TUNABLES=" LTR_TLS_TUNABLE "=%llu (ltruss adds %d bytes to it)",
		  path, obj, need, LTR_TLS_EXTRA);
	return true;
}

void refusal_warn(pid_t pid)
{
	warning_msg("process %d: the loader stopped a program before it started (status 127); if its message says '" TLS_FAILURE "', run again with GLIBC_TUNABLES=" LTR_TLS_TUNABLE "=BYTES over %llu (ltruss adds %d bytes to it)",
		    (int)pid,
		    ltr_tunables_tls(getenv(LTR_TUNABLES)) - LTR_TLS_EXTRA,
		    LTR_TLS_EXTRA);
}

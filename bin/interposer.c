/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * interposer.c: never let a program run untraced without a word.
 *
 * The loader treats an LD_AUDIT module it cannot load as a detail: it
 * prints one line on the program's stderr and runs the program anyway.
 * So before the start, ltruss checks the file it will name (there, readable,
 * an x86_64 ELF shared object) and refuses to run anything otherwise.
 * After the fact, a process that never registered in the session ran
 * untraced (the loader refused the module for a reason the check cannot
 * see: a truncated file, a module without la_version, a program the
 * loader handles differently); ltruss then asks the loader why by a dry
 * run of its own executable with the same LD_AUDIT and
 * LD_TRACE_LOADED_OBJECTS=1, in which the loader loads the audit modules,
 * lists the objects and exits without running any program code.
 */
#include "config.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "interposer.h"
#include "launch.h"
#include "paths.h"

#define TODO "run 'make install', or run ltruss from its build tree"

void interposer_check(void)
{
	const char *path = paths_interposer(), *why = NULL;
	Elf64_Ehdr eh;
	ssize_t n;
	int fd;

	/* LD_AUDIT is a ':'-separated list: such a path would name two files. */
	if (strchr(path, ':'))
		error_msg_and_die("cannot use the interposer '%s': the loader cannot be given a path with ':'; move ltruss to a directory without ':'",
				  path);
	paths_require();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		perror_msg_and_die("cannot read the interposer '%s'; " TODO
				   ", or check its permissions", path);
	n = pread(fd, &eh, sizeof(eh), 0);
	close(fd);
	if (n != (ssize_t)sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
		why = "not an ELF file";
	else if (eh.e_ident[EI_CLASS] != ELFCLASS64 ||
		 eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != EM_X86_64)
		why = "not built for x86_64";
	else if (eh.e_type != ET_DYN)
		why = "not a shared object";
	if (why)
		error_msg_and_die("cannot use the interposer '%s': %s; " TODO,
				  path, why);
}

/*
 * The loader's reason for refusing the interposer, copied to reason
 * ("" when it gives none): its "ERROR: ld.so: object '...' cannot be
 * loaded as audit interface: REASON; ignored." line, or its line about
 * an audit interface version.
 */
static void probe_reason(char *reason, size_t size)
{
	static const char tag[] = "cannot be loaded as audit interface: ";
	char audit[4096 + 16], buf[4096], *p, *end;
	char *argv[] = { (char *)"ltruss", NULL };
	char *env[] = { (char *)"LD_TRACE_LOADED_OBJECTS=1", audit, NULL };

	reason[0] = '\0';
	snprintf(audit, sizeof(audit), "LD_AUDIT=%s", paths_interposer());
	/* The loader's dry run of ltruss itself. */
	launch_capture("/proc/self/exe", argv, env, buf, sizeof(buf));
	p = strstr(buf, tag);
	if (p) {
		p += sizeof(tag) - 1;
		end = strstr(p, "; ignored.");
	} else {
		p = strstr(buf, "audit interface '");
		end = p ? strchr(p, '\n') : NULL;
	}
	if (p && end)
		snprintf(reason, size, "%.*s", (int)(end - p), p);
}

void interposer_untraced(pid_t pid, const char *path, bool nothing_traced,
			 bool enomem)
{
	char reason[1024];

	if (enomem && nothing_traced) {
		error_msg("nothing was traced: the interposer could not map ltruss's session into '%s': no address space left (ENOMEM); raise the address space limit (ulimit -v), or make rings smaller (--buffer)",
			  path);
		return;
	}
	if (enomem) {
		warning_msg("process %d ('%s') ran untraced: the interposer could not map ltruss's session: no address space left (ENOMEM)",
			    (int)pid, path);
		return;
	}
	probe_reason(reason, sizeof(reason));
	if (nothing_traced && reason[0])
		error_msg("nothing was traced: the loader refused the interposer '%s' for '%s' (%s); " TODO,
			  paths_interposer(), path, reason);
	else if (nothing_traced)
		error_msg("nothing was traced: the interposer '%s' never attached to '%s', and the loader gave no reason; check the messages above, or " TODO,
			  paths_interposer(), path);
	else if (reason[0])
		warning_msg("process %d ('%s') ran untraced: the loader refused the interposer '%s' (%s)",
			    (int)pid, path, paths_interposer(), reason);
	else
		warning_msg("process %d ('%s') ran untraced: the interposer '%s' never attached to it",
			    (int)pid, path, paths_interposer());
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sys.c: the interposer's system calls, environment and auxiliary vector,
 * without libc.
 *
 * libltruss.so is loaded by LD_AUDIT into a namespace of its own.  Had it
 * needed libc, the loader would load and initialise a second libc there,
 * in every traced process (~30 page faults, ~0.13 ms).  So it links no
 * library at all (no DT_NEEDED): what it used from libc is here, as raw
 * system calls (the same ones glibc 2.36 makes, so that a seccomp filter
 * sees what it saw before) that never touch errno, the program's or any
 * other; memcpy, memset and memcmp, which the compiler may call, are in
 * mem.c.  The functions it wraps in the program (fork, dlopen, exec...)
 * are the program's libc's, found through the loader (objects.c).
 *
 * The environment and the auxiliary vector come from the loader: it calls
 * each object's constructors with argc, argv and envp, the audit modules'
 * too, before la_version; the auxiliary vector follows envp's NULL on the
 * initial stack.
 */
#include <elf.h>
#include <fcntl.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "sys.h"

char **ltr_environ;
static const unsigned long *auxv;

/* Keep the environment and the auxiliary vector the loader gives (a constructor). */
__attribute__((constructor)) static void sys_start(int argc, char **argv,
						   char **envp)
{
	char **e = envp;

	(void)argc;
	(void)argv;
	ltr_environ = envp;
	while (e && *e)
		e++;
	auxv = e ? (const unsigned long *)(e + 1) : NULL;
}

unsigned long ltr_getauxval(unsigned long type)
{
	const unsigned long *a;

	for (a = auxv; a && a[0] != AT_NULL; a += 2)
		if (a[0] == type)
			return a[1];
	return 0;
}

int ltr_open(const char *path, int flags)
{
	return (int)ltr_syscall6(SYS_openat, AT_FDCWD, (long)path, flags, 0, 0,
				 0);
}

int ltr_close(int fd)
{
	return (int)ltr_syscall3(SYS_close, fd, 0, 0);
}

int ltr_fstat(int fd, struct stat *st)
{
	return (int)ltr_syscall6(SYS_newfstatat, fd, (long)"", (long)st,
				 AT_EMPTY_PATH, 0, 0);
}

void *ltr_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return (void *)ltr_syscall6(SYS_mmap, (long)addr, (long)len, prot,
				    flags, fd, (long)off);
}

int ltr_munmap(void *addr, size_t len)
{
	return (int)ltr_syscall3(SYS_munmap, (long)addr, (long)len, 0);
}

int ltr_mprotect(void *addr, size_t len, int prot)
{
	return (int)ltr_syscall3(SYS_mprotect, (long)addr, (long)len, prot);
}

int ltr_madvise(void *addr, size_t len, int advice)
{
	return (int)ltr_syscall3(SYS_madvise, (long)addr, (long)len, advice);
}

ssize_t ltr_write(int fd, const void *buf, size_t n)
{
	return ltr_syscall3(SYS_write, fd, (long)buf, (long)n);
}

ssize_t ltr_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return ltr_syscall6(SYS_pwrite64, fd, (long)buf, (long)n, (long)off, 0,
			    0);
}

ssize_t ltr_readlink(const char *path, char *buf, size_t size)
{
	return ltr_syscall3(SYS_readlink, (long)path, (long)buf, (long)size);
}

long ltr_getcwd(char *buf, size_t size)
{
	return ltr_syscall3(SYS_getcwd, (long)buf, (long)size, 0);
}

int ltr_memfd_create(const char *name, unsigned flags)
{
	return (int)ltr_syscall3(SYS_memfd_create, (long)name, flags, 0);
}

int ltr_getpid(void)
{
	return (int)ltr_syscall3(SYS_getpid, 0, 0, 0);
}

uid_t ltr_geteuid(void)
{
	return (uid_t)ltr_syscall3(SYS_geteuid, 0, 0, 0);
}

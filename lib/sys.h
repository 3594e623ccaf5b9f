/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sys.h: what the interposer would otherwise take from libc (lib/sys.c):
 * system calls, the environment and the auxiliary vector.
 *
 * Every wrapper returns what the kernel returns: a result, or -errno on
 * failure (no errno is set, neither ours nor the program's).  Only
 * ltr_mmap returns a pointer: ltr_map_error tells whether it failed.
 */
#ifndef LTRUSS_SYS_H
#define LTRUSS_SYS_H

#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

int ltr_open(const char *path, int flags);
int ltr_close(int fd);
int ltr_fstat(int fd, struct stat *st);
void *ltr_mmap(void *addr, size_t len, int prot, int flags, int fd,
	       off_t off);
int ltr_munmap(void *addr, size_t len);
int ltr_mprotect(void *addr, size_t len, int prot);
int ltr_madvise(void *addr, size_t len, int advice);
ssize_t ltr_write(int fd, const void *buf, size_t n);
ssize_t ltr_pwrite(int fd, const void *buf, size_t n, off_t off);
ssize_t ltr_readlink(const char *path, char *buf, size_t size);
/* The working directory into buf (NUL-terminated); its length with the NUL, or -errno. */
long ltr_getcwd(char *buf, size_t size);
int ltr_memfd_create(const char *name, unsigned flags);
int ltr_getpid(void);
uid_t ltr_geteuid(void);

/* The errno of an ltr_mmap that failed (p), 0 if it mapped. */
static inline int ltr_map_error(const void *p)
{
	return (uintptr_t)p >= (uintptr_t)-4095 ? (int)-(intptr_t)p : 0;
}

/* The environment the process started with (the array itself: edits show). */
extern char **ltr_environ;

/* The auxiliary vector's value for type (AT_PHDR...), 0 if absent. */
unsigned long ltr_getauxval(unsigned long type);

#endif

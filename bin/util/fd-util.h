/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fd-util.h: file descriptor helpers. */
#ifndef LTRUSS_FD_UTIL_H
#define LTRUSS_FD_UTIL_H

#include <libelf.h>

/* Write all len bytes of buf to fd; 0, or the errno of the failure (ENOSPC for none written). */
int fd_write_all(int fd, const void *buf, size_t len);

/*
 * Move fd to a high number, close-on-exec, out of the way of the numbers
 * programs expect to be free; returns the new fd (the old one is closed).
 */
int fd_move_high(int fd);

/*
 * A descriptor of path, a file named by a traced program: only if it is
 * a regular file that can hold an ELF header, opened without blocking or
 * taking a terminal, and the very file checked; else -1.
 */
int fd_open_regular(const char *path);

/*
 * The ELF file at path, read with libelf, its descriptor in *fd; NULL
 * unless fd_open_regular() gives a descriptor of path.
 */
Elf *fd_elf_open(const char *path, int *fd);

/* Done with elf and its descriptor fd. */
void fd_elf_close(Elf *elf, int fd);

#endif

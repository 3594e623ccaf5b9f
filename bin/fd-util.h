/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fd-util.h: file descriptor helpers. */
#ifndef LTRUSS_FD_UTIL_H
#define LTRUSS_FD_UTIL_H

#include <libelf.h>

/*
 * Move fd to a high number, close-on-exec, out of the way of the numbers
 * programs expect to be free; returns the new fd (the old one is closed).
 */
int fd_move_high(int fd);

/*
 * The ELF file at path, read with libelf, its descriptor in *fd; NULL
 * unless path is a regular file that can hold an ELF header (checked
 * before it is opened: /proc files such as kmsg say they are regular and
 * empty, and reading them is not harmless) and the same file once open.
 * The paths come from the traced program (its object records).
 */
Elf *fd_elf_open(const char *path, int *fd);

/* Done with elf and its descriptor fd. */
void fd_elf_close(Elf *elf, int fd);

#endif

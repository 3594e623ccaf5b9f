/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fd-util.c: file descriptor helpers. */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "fd-util.h"

int fd_write_all(int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return ENOSPC;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int fd_move_high(int fd)
{
	static const int floors[] = { 700, 200, 64, 10 };
	size_t i;

	for (i = 0; i < sizeof(floors) / sizeof(floors[0]); i++) {
		int nfd = fcntl(fd, F_DUPFD_CLOEXEC, floors[i]);

		if (nfd >= 0) {
			close(fd);
			return nfd;
		}
	}
	return fd;
}

/*
 * A descriptor of path if it is a regular file that can hold an ELF
 * header (checked before it is opened: /proc files such as kmsg say they
 * are regular and empty, and reading them is not harmless), or -1.
 */
int fd_open_regular(const char *path)
{
	struct stat before, st;
	int fd;

	if (stat(path, &before) < 0 || !S_ISREG(before.st_mode) ||
	    before.st_size < (off_t)sizeof(Elf64_Ehdr))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_dev != before.st_dev || st.st_ino != before.st_ino) {
		close(fd);
		return -1;
	}
	return fd;
}

Elf *fd_elf_open(const char *path, int *fd)
{
	Elf *elf;

	*fd = fd_open_regular(path);
	if (*fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	elf = elf_begin(*fd, ELF_C_READ, NULL);
	if (!elf) {
		close(*fd);
		*fd = -1;
	}
	return elf;
}

void fd_elf_close(Elf *elf, int fd)
{
	elf_end(elf);
	close(fd);
}

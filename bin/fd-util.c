/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fd-util.c: file descriptor helpers. */
#include "config.h"

#include <fcntl.h>
#include <unistd.h>

#include "error.h"
#include "fd-util.h"

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

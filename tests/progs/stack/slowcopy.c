/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slowcopy.c: a traced call whose string argument is in a page that only
 * arrives (userfaultfd) once another thread has made a traced call of its
 * own: copying the argument for the trace takes as long as that.  Exit
 * status 77 when this system gives no userfaultfd.
 */
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../typed/libtyped.h"

static int uffd;
static char *page;

/* Wait for the fault on page, make a traced call, then fill the page. */
static void *serve(void *arg)
{
	static char text[4096] = "from the page";
	struct uffdio_copy copy = { .dst = (unsigned long)page,
				    .src = (unsigned long)text, .len = 4096 };
	struct pollfd p = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	(void)arg;
	if (poll(&p, 1, -1) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg))
		return NULL;
	ty_string("from the server");
	ioctl(uffd, UFFDIO_COPY, &copy);
	return NULL;
}

int main(void)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	pthread_t t;
	int r;

	uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api) != 0) {
		printf("no userfaultfd\n");
		return 77;
	}
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	reg.range.start = (unsigned long)page;
	reg.range.len = 4096;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (page == MAP_FAILED || ioctl(uffd, UFFDIO_REGISTER, &reg) != 0) {
		printf("no userfaultfd\n");
		return 77;
	}
	pthread_create(&t, NULL, serve, NULL);
	r = ty_string(page);
	/* Untraced, this is the first touch of the page. */
	printf("%d %s\n", r, page);
	pthread_join(t, NULL);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exec.c: make a traced call, then replace the process with /bin/echo. */
#include <stdio.h>
#include <unistd.h>

#include "libbhv.h"

int main(void)
{
	printf("before exec: %ld\n", bhv_add3(1, 2, 3));
	fflush(stdout);
	execl("/bin/echo", "echo", "echo", "after", "exec", (char *)NULL);
	perror("execl");
	return 127;
}

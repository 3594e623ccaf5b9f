/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exit.c: exit() called inside a traced call, with atexit handlers that make traced calls. */
#include <stdio.h>
#include <stdlib.h>

#include "libbhv.h"

/* Runs inside bhv_exit's call to exit(). */
static void at_exit(void)
{
	printf("atexit: %ld\n", bhv_add3(0x11, 0x22, 0x33));
}

int main(void)
{
	atexit(at_exit);
	printf("before: %ld\n", bhv_add3(1, 2, 3));
	bhv_exit(3);
	printf("not reached\n");
	return 0;
}

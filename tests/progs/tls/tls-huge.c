/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tls-huge.c: a program linked with 1 MiB of initial-exec TLS (libtls-huge.so). */
#include <stdio.h>

int tls_huge(int seed);

int main(void)
{
	printf("linked at start: %d bytes\n", tls_huge(1));
	return 0;
}

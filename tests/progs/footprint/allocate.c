/* SPDX-License-Identifier: GPL-2.0-or-later */
/* allocate.c: allocate argv[1] MiB and touch each page, as a big program would. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 1, i;
	char *p = malloc(mib << 20);

	if (!p) {
		printf("cannot allocate %zu MiB\n", mib);
		return 1;
	}
	for (i = 0; i < mib << 20; i += 4096)
		p[i] = 1;
	printf("allocated %zu MiB\n", mib);
	free(p);
	return 0;
}

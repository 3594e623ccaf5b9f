/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jit.c: a program that generates code, names it in /tmp/perf-PID.map as
 * a JIT runtime does (Node's --perf-basic-prof, Python 3.12's -X perf),
 * and runs it: the generated function calls puts("jit") (tests/stacks.bats).
 * It leaves the file (as runtimes do: a profiler reads it afterwards) and
 * prints its path; argument "nomap": the same without the map file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	/* sub $8,%rsp; lea msg(%rip),%rdi; movabs $puts,%rax; call *%rax; add $8,%rsp; ret; msg */
	static const unsigned char code[] = {
		0x48, 0x83, 0xec, 0x08,
		0x48, 0x8d, 0x3d, 0x11, 0x00, 0x00, 0x00,
		0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0,
		0xff, 0xd0,
		0x48, 0x83, 0xc4, 0x08,
		0xc3,
		'j', 'i', 't', 0,
	};
	int (*putsp)(const char *) = puts;
	unsigned char *p;
	char path[64];
	FILE *map;

	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	memcpy(p, code, sizeof(code));
	memcpy(p + 13, &putsp, sizeof(putsp));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	if (!(argc > 1 && strcmp(argv[1], "nomap") == 0)) {
		map = fopen(path, "w");
		if (!map)
			return 1;
		fprintf(map, "%lx %zx jitted_hello\n", (unsigned long)(uintptr_t)p,
			sizeof(code) - 4);
		fclose(map);
	}
	((void (*)(void))p)();
	fflush(stdout);
	if (!(argc > 1 && strcmp(argv[1], "nomap") == 0))
		printf("%s\n", path);
	return 0;
}

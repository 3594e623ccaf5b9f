/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * aliases.c: call libc functions that share an address with another name
 * (wcstol and wcstoll, wcstoul and wcstoull, getwc and fgetwc), in an
 * order where the alias comes first, and check that a pointer to one of
 * them still equals what dlsym gives for the same name.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

int main(void)
{
	long long ll = wcstoll(L"14", NULL, 10);
	long l = wcstol(L"12", NULL, 10);
	unsigned long long ull = wcstoull(L"15", NULL, 10);
	unsigned long ul = wcstoul(L"13", NULL, 10);
	wint_t a = fgetwc(stdin), b = getwc(stdin);

	printf("%ld %lu %lld %llu %d %d\n", l, ul, ll, ull, a == WEOF,
	       b == WEOF);
	printf("same pointer: %d\n",
	       (void *)wcstol == dlsym(RTLD_DEFAULT, "wcstol"));
	return 0;
}

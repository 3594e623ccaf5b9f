/* SPDX-License-Identifier: GPL-2.0-or-later */
/* printf.c: variadic printf and snprintf with many mixed arguments through traced calls. */
#include <stdio.h>

int main(void)
{
	char buf[512];
	int n, m;

	n = printf("%d %s %.3f %ld %c %x %g %s %u %e %lld %.10f|\n", -42,
		   "alpha", 3.14159, 1234567890123L, 'Z', 0xbeef, 2.5e-7,
		   "omega", 4000000000u, 6.02214076e23, -9000000000000LL,
		   1.0 / 3.0);
	m = snprintf(buf, sizeof(buf),
		     "%f %d %f %d %f %d %f %d %f %d %s %f|", 0.5, 1, 1.5, 2,
		     2.5, 3, 3.5, 4, 4.5, 5, "six", 6.5);
	printf("printf returned %d\n", n);
	printf("snprintf returned %d: %s\n", m, buf);
	return 0;
}

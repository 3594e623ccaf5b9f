/* SPDX-License-Identifier: GPL-2.0-or-later */
/* abi.c: stack, float, double, struct and long double arguments and returns through traced calls. */
#include <stdio.h>

#include "libbhv.h"

int main(void)
{
	struct bhv_s24 s;
	struct bhv_pair p;
	long double ld;

	printf("sum10: %ld\n", bhv_sum10(1, -2, 3, -4, 5, -6, 7, 0x1000, 0x10000,
					 0x100000));
	printf("dsum10: %.17g\n", bhv_dsum10(0.5, 1.25, -2.5, 3.75, 1e10, -1e-10,
					      7.125, 8.5, 1e300, -0.0625));
	printf("scale: %a\n", bhv_scale(1.0 / 3.0, 1.5f, -7));
	printf("fmix: %a\n", (double)bhv_fmix(0.1f, 1e30f));
	s = bhv_make24(0x1111, -0x2222, 0x3333);
	printf("make24: %ld %ld %ld\n", s.a, s.b, s.c);
	p = bhv_pair(0.1, 2.5e-5);
	printf("pair: %a %a\n", p.x, p.y);
	ld = bhv_ldmul(1.0L / 7.0L, 11);
	printf("ldmul: %La\n", ld);
	/* Twice in one expression: the x87 stack must stay balanced. */
	printf("ldmul2: %La\n", bhv_ldmul(2.0L, 3) + bhv_ldmul(5.0L, 6));
	return 0;
}

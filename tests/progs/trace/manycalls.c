/* SPDX-License-Identifier: GPL-2.0-or-later */
/* manycalls.c: call f100 to f499 of libmanyf once each, and print their sum. */
#include <stdio.h>

#define F(n) int f##n(void);
#define D(p) F(p##0) F(p##1) F(p##2) F(p##3) F(p##4) F(p##5) F(p##6) F(p##7) F(p##8) F(p##9)
#define H(p) D(p##0) D(p##1) D(p##2) D(p##3) D(p##4) D(p##5) D(p##6) D(p##7) D(p##8) D(p##9)
H(1) H(2) H(3) H(4)
#undef F

int main(void)
{
	long sum = 0;

#define F(n) sum += f##n();
	H(1) H(2) H(3) H(4)
#undef F
	printf("%ld\n", sum);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libmanyf.c: 900 functions, f100 to f999, each returning its own number. */

#define F(n) int f##n(void); int f##n(void) { return n; }
#define D(p) F(p##0) F(p##1) F(p##2) F(p##3) F(p##4) F(p##5) F(p##6) F(p##7) F(p##8) F(p##9)
#define H(p) D(p##0) D(p##1) D(p##2) D(p##3) D(p##4) D(p##5) D(p##6) D(p##7) D(p##8) D(p##9)
H(1) H(2) H(3) H(4) H(5) H(6) H(7) H(8) H(9)

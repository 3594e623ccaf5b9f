/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libbhv.h: the fixture library whose calls the behaviour suite traces. */
#ifndef LTRUSS_LIBBHV_H
#define LTRUSS_LIBBHV_H

struct bhv_s24 {
	long a, b, c;
};

struct bhv_pair {
	double x, y;
};

typedef long (*bhv_cb)(long x);

long bhv_add3(long a, long b, long c);
long bhv_apply(bhv_cb cb, long x);
long bhv_sum10(long a1, long a2, long a3, long a4, long a5, long a6,
	       long a7, long a8, long a9, long a10);
double bhv_dsum10(double d1, double d2, double d3, double d4, double d5,
		  double d6, double d7, double d8, double d9, double d10);
double bhv_scale(double x, float y, int n);
float bhv_fmix(float a, float b);
struct bhv_s24 bhv_make24(long a, long b, long c);
struct bhv_pair bhv_pair(double x, double y);
long double bhv_ldmul(long double x, int n);
int bhv_cmp_long(const void *a, const void *b);
void bhv_exit(int status);
void bhv_thread_exit(long value);

#endif

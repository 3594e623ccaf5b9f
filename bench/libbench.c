/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libbench.c: the one-line library function the benchmarks call. */
int bench_nop(int x);

int bench_nop(int x)
{
	return x + 1;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exceptions.cc: C++ exceptions thrown through traced calls and caught by the caller, many times over. */
#include <cstdio>
#include <stdexcept>

#include "libbhvxx.h"

#define LOOPS 1000

/* Thrown by the program's callback, through bhvxx_invoke. */
struct bhv_error {
	long value;
};

/* Throw through the library's frame. */
static long throw_back(long x)
{
	throw bhv_error{ x };
}

/* Catch an exception of an inner traced call, then return normally. */
static long catch_inner(long x)
{
	try {
		return bhvxx_check(x);
	} catch (const std::invalid_argument &) {
		return -x;
	}
}

int main()
{
	long caught_cb = 0, caught_lib = 0, sum = 0, i;

	for (i = 0; i < LOOPS; i++) {
		try {
			bhvxx_invoke(throw_back, i);
			std::printf("not reached: %ld\n", i);
		} catch (const bhv_error &e) {
			caught_cb++;
			sum += e.value;
		}
		try {
			sum += bhvxx_check(i);
		} catch (const std::invalid_argument &e) {
			caught_lib++;
		}
		sum += bhvxx_invoke(catch_inner, i);
	}
	std::printf("caught from callback: %ld, from library: %ld, sum: %ld\n",
		    caught_cb, caught_lib, sum);
	std::printf("after: %ld\n", bhvxx_check(0x1000));
	std::printf("invoke after: %ld\n", bhvxx_invoke(catch_inner, 3));
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
// libplug.cc: built with -static-libstdc++ -static-libgcc, so it throws and
// catches with its own copy of the unwinder, which the loader never binds.
#include <stdexcept>

#include "libplug.h"

extern "C" {
#include "../behaviour/libbhv.h"
#include "libplughost.h"
}

long plug_check(long x)
{
	if (x % 2)
		throw std::runtime_error("odd");
	return x;
}

/* Call through with each of 0..n-1: the sum of what returned, the throws. */
static long each(long (*call)(long), long n, long *caught)
{
	long sum = 0, i;

	*caught = 0;
	for (i = 0; i < n; i++) {
		try {
			sum += call(i);
		} catch (std::exception &e) {
			++*caught;
		}
	}
	return sum;
}

/* plug_check, called through its PLT slot (it may be interposed). */
static long direct(long x)
{
	return plug_check(x);
}

/* bhv_apply calls back plug_check, which throws through it. */
static long apply(long x)
{
	return bhv_apply(plug_check, x);
}

/* Through a third library: host_apply calls bhv_apply, which calls back. */
static long via_host(long x)
{
	return host_apply(plug_check, x);
}

long plug_outer(long n, long *caught)
{
	return each(direct, n, caught);
}

long plug_roundtrip(long n, long *caught)
{
	return each(apply, n, caught);
}

long plug_via_host(long n, long *caught)
{
	return each(via_host, n, caught);
}

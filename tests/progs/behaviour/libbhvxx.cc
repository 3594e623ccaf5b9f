/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libbhvxx.cc: a C++ fixture library whose calls throw, or let a callback's exception through. */
#include <stdexcept>

#include "libbhvxx.h"

/* cb(x) * 2; an exception from cb passes through this frame. */
long bhvxx_invoke(bhvxx_cb cb, long x)
{
	return cb(x) * 2;
}

/* x + 1 for even x; throws std::invalid_argument for odd x. */
long bhvxx_check(long x)
{
	if (x & 1)
		throw std::invalid_argument("odd");
	return x + 1;
}

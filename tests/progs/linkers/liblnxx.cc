// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * liblnxx.cc: libln's functions in C++, linked with -static-libstdc++
 * -static-libgcc: std::string, and an exception thrown and caught inside,
 * by its own copy of libgcc's unwinder.
 */
#include <cstdio>
#include <stdexcept>
#include <string>

#include "ln.h"

extern "C" int dep_twice(int v);

// Throw when v is odd, to be caught by the caller inside the library.
static int checked(int v)
{
	if (v % 2)
		throw std::runtime_error("odd " + std::to_string(v));
	return v;
}

int ln_add(int a, int b)
{
	try {
		return checked(dep_twice(a) + b);
	} catch (const std::exception &e) {
		return static_cast<int>(std::string(e.what()).size()) + b;
	}
}

void ln_greet(const char *who)
{
	std::string line = std::string("hello, ") + who;

	std::puts(line.c_str());
}

int ln_apply(int v)
{
	int (*volatile f)(int) = dep_twice;

	return checked(f(v)) + 1;
}

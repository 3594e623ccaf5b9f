// SPDX-License-Identifier: GPL-2.0-or-later
// cxx.cc: a C++ program whose allocations go through libstdc++'s operator new and delete.
#include <cstdio>
#include <string>

int main()
{
	std::string *s = new std::string("a string long enough to allocate");

	std::printf("%zu\n", s->size());
	delete s;
	return 0;
}

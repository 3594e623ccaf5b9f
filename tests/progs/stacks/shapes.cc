// SPDX-License-Identifier: GPL-2.0-or-later
// shapes.cc: C++ frames (a const member function, a function template in
// a namespace) above a library call, for demangled stacks (tests/stacks.bats).
#include <cstdio>
#include <cstring>
#include <string>

namespace shapes {
struct Box {
	std::string name;
	__attribute__((noinline)) size_t measure(const char *s) const
	{
		size_t n = std::strlen(s);

		asm volatile("" ::: "memory");
		return n + name.size();
	}
};

template <typename T>
__attribute__((noinline)) size_t twice(const T &t, const char *s)
{
	size_t n = t.measure(s);

	asm volatile("" ::: "memory");
	return 2 * n;
}
} // namespace shapes

int main()
{
	shapes::Box b{ "box" };

	std::printf("%zu\n", shapes::twice(b, "hello"));
	return 0;
}

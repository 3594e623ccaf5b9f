// SPDX-License-Identifier: GPL-2.0-or-later
// heapfix-cxx.cc: operator new and delete for --heap (tests/heap.bats):
// 10 objects of 48 bytes kept and 5 deleted (make_objs), two arrays of
// 1000 kept and one of 4000 deleted (make_arrays), one 64-aligned object
// of 256 bytes deleted (make_aligned).
#include <cstdint>
#include <new>

#define NOINLINE __attribute__((noinline))

struct Obj {
	char b[48];
};

struct alignas(64) Big {
	char b[256];
};

static void *keep[64];
static unsigned nkeep;

static NOINLINE void hold(void *p)
{
	keep[nkeep++] = p;
	__asm__ volatile("" : : "r"(p) : "memory");
}

NOINLINE void make_objs()
{
	Obj *gone[5];

	for (int i = 0; i < 10; i++)
		hold(new Obj);
	for (int i = 0; i < 5; i++)
		gone[i] = new Obj;
	for (int i = 0; i < 5; i++) {
		__asm__ volatile("" : : "r"(gone[i]) : "memory");
		delete gone[i];
	}
}

NOINLINE void make_arrays()
{
	char *a = new char[4000];

	hold(new char[1000]);
	hold(new char[1000]);
	__asm__ volatile("" : : "r"(a) : "memory");
	delete[] a;
}

NOINLINE void make_aligned()
{
	Big *b = new Big;

	__asm__ volatile("" : : "r"(b) : "memory");
	delete b;
}

int main()
{
	make_objs();
	make_arrays();
	make_aligned();
	return 0;
}

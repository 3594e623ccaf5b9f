/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nocfi.c: calls into libnocfi.so's function without unwind tables (tests/stacks.bats). */
int nocfi_call(const char *s);

static __attribute__((noinline)) int outer(const char *s)
{
	int r = nocfi_call(s);

	__asm__ volatile("" ::: "memory");
	return r * 2;
}

int main(void)
{
	return outer("no unwind tables") < 0;
}

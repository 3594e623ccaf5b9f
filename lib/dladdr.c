/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dladdr.c: dladdr and dladdr1 name the real function of a stub or hook.
 *
 * A traced function's address, as the program sees it, is its stub in
 * this library's .text, and a hooked function's is its hook (every path
 * agrees: see bind.c).  Asked about either, the loader would name
 * libltruss.so; the hooks ask it about the function it leads to instead,
 * and give the program back its own pointer as the symbol's address when
 * that is the function itself, so that dli_saddr == f still holds as it
 * does without ltruss.
 */
#include <dlfcn.h>

#include "hooks.h"
#include "interposer.h"
#include "objects.h"

#define REAL(h, type) ((type)ltr_hook_real[h])

/* The function stub or hook addr leads to, or addr itself. */
static const void *unstub(const void *addr)
{
	uintptr_t a = ltr_unhook((uintptr_t)addr);

	return (const void *)(ltr_is_stub(a) ? ltr_targets[ltr_stub_index(a)].addr
					      : a);
}

/* If info's symbol is real (what addr led to), show it as addr. */
static void restub(Dl_info *info, const void *addr, const void *real)
{
	if (real != addr && info && info->dli_saddr == real)
		info->dli_saddr = (void *)addr;
}

int ltr_hook_dladdr(const void *addr, void *info)
{
	const void *real = unstub(addr);
	int r;

	ltr_hook_note(LTR_H_DLADDR, (uint64_t)addr, (uint64_t)info, 0);
	r = REAL(LTR_H_DLADDR, int (*)(const void *, void *))(real, info);
	if (r)
		restub(info, addr, real);
	return r;
}

int ltr_hook_dladdr1(const void *addr, void *info, void **extra, int flags)
{
	const void *real = unstub(addr);
	int r;

	ltr_hook_note(LTR_H_DLADDR1, (uint64_t)addr, (uint64_t)info,
		      (uint64_t)extra);
	r = REAL(LTR_H_DLADDR1, int (*)(const void *, void *, void **, int))(
		real, info, extra, flags);
	if (r)
		restub(info, addr, real);
	return r;
}

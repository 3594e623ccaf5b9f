/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctor-dlsym.c: the classic wrapper, pointers from dlsym(RTLD_NEXT, ...)
 * taken before main (in .preinit_array and in a constructor) and in main,
 * each called once: getpid through all three, malloc(1234) through the
 * constructor's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pid_t (*preinit_getpid)(void);
static pid_t (*ctor_getpid)(void);
static void *(*real_malloc)(size_t);

/* Runs before the constructors, from .preinit_array. */
static void preinit(void)
{
	preinit_getpid = (pid_t (*)(void))dlsym(RTLD_NEXT, "getpid");
}

__attribute__((section(".preinit_array"), used))
static void (*preinit_entry)(void) = preinit;

__attribute__((constructor)) static void init(void)
{
	ctor_getpid = (pid_t (*)(void))dlsym(RTLD_NEXT, "getpid");
	real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
}

int main(void)
{
	pid_t (*main_getpid)(void) = (pid_t (*)(void))dlsym(RTLD_NEXT, "getpid");
	void *p = real_malloc(1234);

	printf("%d %d %d %d\n", preinit_getpid() > 0, ctor_getpid() > 0,
	       main_getpid() > 0, p != NULL);
	free(p);
	return 0;
}

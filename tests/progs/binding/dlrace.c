/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dlrace.c: one thread loads, calls and unloads the -fno-plt plugin in a
 * loop while the main thread makes first calls into libmanyf (each binds
 * lazily through the PLT): loader work and bindings on two threads at once.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define F(n) int f##n(void);
#define D(p) F(p##0) F(p##1) F(p##2) F(p##3) F(p##4) F(p##5) F(p##6) F(p##7) F(p##8) F(p##9)
#define H(p) D(p##0) D(p##1) D(p##2) D(p##3) D(p##4) D(p##5) D(p##6) D(p##7) D(p##8) D(p##9)
H(1) H(2) H(3) H(4) H(5) H(6) H(7) H(8) H(9)
#undef F

static int cycles;
static volatile int binding = 1;

/* Load, call and unload the plugin until the main thread is done binding. */
static void *loader(void *arg)
{
	long wrong = 0;

	(void)arg;
	while ((binding && cycles < 20000) || cycles < 200) {
		void *h = dlopen("libplugin.so", RTLD_NOW);
		int (*run)(int);

		if (!h) {
			printf("dlopen failed: %s\n", dlerror());
			exit(1);
		}
		run = (int (*)(int))dlsym(h, "plugin_run");
		wrong += run(cycles % 7) != cycles % 7 + 100;
		dlclose(h);
		cycles++;
	}
	return (void *)wrong;
}

int main(void)
{
	pthread_t t;
	void *ret;
	long sum = 0;

	if (pthread_create(&t, NULL, loader, NULL))
		return 1;
#define F(n) sum += f##n(); sched_yield();
	H(1) H(2) H(3) H(4) H(5) H(6) H(7) H(8) H(9)
#undef F
	binding = 0;
	pthread_join(t, &ret);
	printf("bound %ld\n", sum);
	printf("plugin calls %s\n", ret ? "wrong" : "right");
	return 0;
}

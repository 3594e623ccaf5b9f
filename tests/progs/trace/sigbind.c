/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sigbind.c: a signal handler binds libmanyf functions lazily (first
 * calls through the PLT) while the main loop binds others with dlsym:
 * two bindings of selected functions on one thread, one inside the other.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#define F(n) int f##n(void);
#define D(p) F(p##0) F(p##1) F(p##2) F(p##3) F(p##4) F(p##5) F(p##6) F(p##7) F(p##8) F(p##9)
D(10) D(11) D(12) D(13) D(14) D(15) D(16) D(17) D(18) D(19)
#undef F

static volatile int next = 100;
static volatile long sum;

/* Call the next function through the PLT: its first call binds it. */
static void handler(int sig)
{
#define F(n) case n: sum += f##n(); break;
	switch (next) {
	D(10) D(11) D(12) D(13) D(14) D(15) D(16) D(17) D(18) D(19)
	}
#undef F
	if (next < 199)
		next++;
}

int main(void)
{
	struct itimerval it = { { 0, 200 }, { 0, 200 } };
	void *h = dlopen("libmanyf.so", RTLD_NOW);
	int round, n;

	if (!h)
		return 1;
	signal(SIGALRM, handler);
	setitimer(ITIMER_REAL, &it, NULL);
	for (round = 0; round < 40; round++)
		for (n = 200; n < 1000; n++) {
			char name[16];

			snprintf(name, sizeof(name), "f%d", n);
			sum += dlsym(h, name) != NULL;
		}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	printf("done\n");
	return 0;
}

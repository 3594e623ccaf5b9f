/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * strmem.c: pass ty_string strings from every kind of memory, and bad
 * pointers of every kind, for the copy of string arguments (typed.bats).
 *
 * strmem regions      a string in each region: read-only data, the stack,
 *                     the brk heap, an mmap'd malloc chunk, a file mapping
 * strmem bad          NULL, small integers, freed, unmapped, PROT_NONE,
 *                     past a file's end (SIGBUS), kernel and non-canonical
 *                     addresses, a string that runs into PROT_NONE
 * strmem stress N     N calls on a page that another thread maps, unmaps
 *                     and mprotects all the while
 * strmem handler      installs its own SIGSEGV handler, which must get the
 *                     program's own fault, then passes strings again
 * strmem busy         the same while another thread passes strings all
 *                     the while; prints how many it passed
 * strmem query        prints whether the SIGSEGV action it finds is SIG_DFL
 * strmem blocked      blocks SIGSEGV in a thread, then passes a bad pointer
 * strmem crash        dies of its own SIGSEGV
 */
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libtyped.h"

#define PAGE 4096

static volatile int stop;
static char *volatile shared;
static sigjmp_buf env;

/* A page of its own, holding s at its start. */
static char *page_with(const char *s)
{
	char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		exit(1);
	strcpy(p, s);
	return p;
}

/* Strings that live in each kind of region. */
static void regions(void)
{
	char stack[32] = "region-stack";
	char *brk_heap = malloc(32), *chunk = malloc(1 << 20), *file;
	FILE *f = tmpfile();

	strcpy(brk_heap, "region-heap");
	strcpy(chunk, "region-mmap-chunk");
	fputs("region-file", f);
	fputc('\0', f);
	fflush(f);
	file = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fileno(f), 0);
	ty_string("region-rodata");
	ty_string(stack);
	ty_string(brk_heap);
	ty_string(chunk);
	ty_string(file);
	free(chunk);
	free(brk_heap);
}

/* Pointers that cannot be read, each of another kind. */
static void bad(void)
{
	char *chunk = malloc(1 << 20), *gone = page_with("gone");
	char *none = page_with("none"), *edge = mmap(NULL, 2 * PAGE,
		PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *past;
	FILE *f = tmpfile();

	/*
	 * The first traced call, before anything is unmapped: it maps this
	 * thread's ring (lib/slot-map.c), which could otherwise land in a
	 * hole made below and make that pointer readable.
	 */
	ty_string(NULL);
	fputs("x", f);
	fflush(f);
	/* The second page of a one-byte file: SIGBUS when touched. */
	past = mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE, fileno(f), 0);
	free(chunk); /* an mmap'd chunk: unmapped by free */
	munmap(gone, PAGE);
	mprotect(none, PAGE, PROT_NONE);
	memcpy(edge + PAGE - 3, "abc", 3);
	mprotect(edge + PAGE, PAGE, PROT_NONE);
	ty_string((const char *)16);
	ty_string(chunk);
	ty_string(gone);
	ty_string(none);
	ty_string(past + PAGE);
	ty_string((const char *)0xffff800000001000ul);
	ty_string((const char *)0x8000000000000000ul);
	ty_string(edge + PAGE - 3);
}

/* The other thread of stress: change the shared page without a pause. */
static void *churn(void *arg)
{
	unsigned i;

	(void)arg;
	for (i = 0; !stop; i++) {
		char *p = shared;

		switch (i % 3) {
		case 0:
			munmap(p, PAGE);
			shared = page_with("stress");
			break;
		case 1:
			mprotect(p, PAGE, PROT_NONE);
			break;
		default:
			mprotect(p, PAGE, PROT_READ);
			break;
		}
	}
	return NULL;
}

/* n calls with a pointer into the churned page. */
static void stress(long n)
{
	pthread_t t;
	long i;

	shared = page_with("stress");
	pthread_create(&t, NULL, churn, NULL);
	for (i = 0; i < n; i++)
		ty_string(shared);
	stop = 1;
	pthread_join(t, NULL);
	printf("%ld calls\n", n);
}

/* The program's own SIGSEGV handler. */
static void on_segv(int sig)
{
	siglongjmp(env, sig);
}

/* A handler of our own gets our own fault, and strings still print. */
static void handler(void)
{
	struct sigaction sa;
	char *none = page_with("none");

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sigaction(SIGSEGV, &sa, NULL);
	mprotect(none, PAGE, PROT_NONE);
	if (sigsetjmp(env, 1) == 0)
		printf("read %d\n", *(volatile char *)none);
	else
		printf("caught SIGSEGV\n");
	ty_string("after-handler");
	ty_string(none);
}

static volatile long busy_calls;

/* The other thread of busy: strings until told to stop. */
static void *busy_thread(void *arg)
{
	(void)arg;
	while (!stop) {
		ty_string("busy");
		busy_calls++;
	}
	return NULL;
}

/* handler(), while another thread is busy copying strings. */
static void busy(void)
{
	pthread_t t;
	long before, i;

	pthread_create(&t, NULL, busy_thread, NULL);
	for (before = 0; before < 1000 || busy_calls < 1000; before++)
		ty_string("main");
	handler();
	for (i = 0; i < 1000; i++)
		ty_string("main");
	stop = 1;
	pthread_join(t, NULL);
	printf("main %ld\nbusy %ld\n", before + i, busy_calls);
}

/* In a thread that blocks SIGSEGV, a bad pointer. */
static void *blocked_thread(void *arg)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGSEGV);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	ty_string(arg);
	ty_string("blocked");
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "regions";
	struct sigaction old;

	if (!strcmp(mode, "regions")) {
		regions();
	} else if (!strcmp(mode, "bad")) {
		bad();
	} else if (!strcmp(mode, "stress")) {
		stress(argc > 2 ? atol(argv[2]) : 100000);
	} else if (!strcmp(mode, "handler")) {
		handler();
	} else if (!strcmp(mode, "busy")) {
		busy();
	} else if (!strcmp(mode, "query")) {
		sigaction(SIGSEGV, NULL, &old);
		printf("SIGSEGV %s\n", old.sa_handler == SIG_DFL ? "SIG_DFL"
								 : "other");
		sigaction(SIGBUS, NULL, &old);
		printf("SIGBUS %s\n", old.sa_handler == SIG_DFL ? "SIG_DFL"
								: "other");
	} else if (!strcmp(mode, "blocked")) {
		pthread_t t;
		char *none = page_with("none");

		mprotect(none, PAGE, PROT_NONE);
		pthread_create(&t, NULL, blocked_thread, none);
		pthread_join(t, NULL);
		printf("survived\n");
	} else if (!strcmp(mode, "crash")) {
		fflush(stdout);
		*(volatile char *)16 = 1;
	}
	return 0;
}

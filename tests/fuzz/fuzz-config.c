/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-config.c: libFuzzer harness for the YAML config loader
 * (config_load_filter() and config_check() of bin/config*.c).
 *
 * An input is a filter file: it is written to a private directory and
 * loaded as "-F DIR/fuzz.yaml" would load it, so includes by name find
 * the shipped filters, relative includes look next to it (itself: a
 * cycle), and the whole loader runs as in ltruss, with bin/util/error.c.
 * Errors come back here through fuzz-die.c's longjmp instead of exit(2),
 * and their messages are checked there.
 *
 * Leaks.  ltruss dies on the first mistake with the loader's frames
 * still on the stack, so what they hold is reachable at exit and LSan in
 * an ASan build of ltruss says nothing.  After a longjmp those frames are
 * gone, and libFuzzer's leak check would report the file text, libyaml's
 * parser and a half-read rule of every bad input: false positives.  So
 * the harness watches the allocator through the sanitizer's malloc and
 * free hooks while the loader runs, and after an error frees whatever
 * the load allocated and did not free, like an arena reset.  A load that
 * succeeds is freed by config_free() alone, so leaks on the success path
 * are still found.
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <sanitizer/allocator_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bin/config/conf.h"
#include "tests/fuzz/fuzz.h"

/* Live allocations of one load: more than any input of max_len makes. */
#define LIVE_BITS 20
#define LIVE_SIZE (1u << LIVE_BITS)
#define LIVE_LOG (LIVE_SIZE / 2)

/*
 * An open-addressing set of the pointers allocated during the current
 * load, and a log of them in order.  A slot belongs to the current load
 * when its gen matches, so starting a load is one increment; a freed
 * pointer stays as a tombstone (freed set) for the probes to pass over.
 */
struct live_slot {
	const volatile void *ptr;
	unsigned gen;
	bool freed;
};
static struct live_slot live[LIVE_SIZE];
static const volatile void *live_log[LIVE_LOG];
static size_t live_logged;
static unsigned live_gen;
static bool live_overflow;
/* Set in the fuzzing thread during a load: libFuzzer's own threads allocate too. */
static __thread bool live_on;

/* The slot of ptr in the current load, or the empty slot it would take. */
static struct live_slot *live_slot(const volatile void *ptr)
{
	size_t i = ((uintptr_t)ptr >> 4) * 0x9e3779b97f4a7c15ull >>
		   (64 - LIVE_BITS);

	while (live[i].gen == live_gen && live[i].ptr != ptr)
		i = (i + 1) & (LIVE_SIZE - 1);
	return &live[i];
}

/* Sanitizer malloc hook: remember a block the loader allocated. */
static void live_malloc(const volatile void *ptr, size_t size)
{
	struct live_slot *s;

	if (!live_on || !ptr)
		return;
	if (live_logged == LIVE_LOG) {
		live_overflow = true;
		return;
	}
	s = live_slot(ptr);
	s->ptr = ptr;
	s->gen = live_gen;
	s->freed = false;
	live_log[live_logged++] = ptr;
}

/* Sanitizer free hook: forget it again. */
static void live_free(const volatile void *ptr)
{
	struct live_slot *s;

	if (!live_on || !ptr)
		return;
	s = live_slot(ptr);
	if (s->gen == live_gen)
		s->freed = true;
}

/* After an error: free what the load allocated and still holds. */
static void live_release(void)
{
	size_t i;

	if (live_overflow) {
		fprintf(stderr, "fuzz: more than %u allocations in one load; raise LIVE_BITS\n",
			LIVE_LOG);
		abort();
	}
	for (i = 0; i < live_logged; i++) {
		struct live_slot *s = live_slot(live_log[i]);

		if (s->gen == live_gen && !s->freed) {
			s->freed = true;
			free((void *)live_log[i]);
		}
	}
}

static char path[PATH_MAX];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char dir[] = "/tmp/ltruss-fuzz-XXXXXX";
	struct config cfg;

	if (!mkdtemp(dir)) {
		perror("fuzz: mkdtemp");
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/fuzz.yaml", dir);
	/* Hermetic, as the tests: only the shipped filters are found. */
	setenv("HOME", dir, 1);
	unsetenv("LTRUSS_FILTER_PATH");
	fuzz_die_init();
	/* Warm up what libc and ltruss allocate once and keep. */
	config_init(&cfg);
	config_free(&cfg);
	__sanitizer_install_malloc_and_free_hooks(live_malloc, live_free);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct config cfg;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		perror("fuzz: writing the input");
		abort();
	}
	close(fd);
	config_init(&cfg);
	live_gen++;
	live_logged = 0;
	live_overflow = false;
	if (setjmp(fuzz_die_env) == 0) {
		fuzz_die_armed = true;
		live_on = true;
		config_load_filter(&cfg, path);
		config_check(&cfg);
		live_on = false;
		fuzz_die_armed = false;
		config_find_proto(&cfg, "malloc");
		config_find_type(&cfg, "open_flags");
		config_free(&cfg);
	} else {
		live_on = false;
		live_release();
		config_init(&cfg);
	}
	return 0;
}

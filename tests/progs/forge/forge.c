/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forge.c: a traced program that writes over its own trace session.
 *
 * Every traced process maps the session read-write; this one finds its
 * mapping in /proc/self/maps and forges what ltruss reads: events in its
 * ring, the ring's head, blob lengths, names, the object table, process
 * entries, counters.  ltruss must neither crash, nor hang, nor print
 * what is not so (tests/security.bats, maint/fuzz).
 *
 * Usage: forge MODE [ARG]; it ends with exit status 7 unless MODE says.
 *   blob-len        a getenv() whose string and a read() whose output
 *                   blobs say they are 0xfffffff9 bytes long
 *   head [wait|ignore]  its ring filled with valid events, then its head
 *                   moved 2^62 ahead (then pause(); ignore: with SIGINT
 *                   and SIGTERM ignored)
 *   hidden-thread   a thread started with the thread count written up to
 *                   300 (it takes slot 300), then the count put back: its
 *                   2000 * 4 calls fill its ring
 *   tail            its ring gone round once and drained, then its tail
 *                   written back to 0 (every later call waits for room)
 *   strings-used    strings_used near 2^32, then a dlopen (new names)
 *   names           a function named with a newline, an escape and bad UTF-8
 *   caller PATH [TIME]  its object records name PATH (a FIFO, a device),
 *                   mapped at TIME (a TSC reading) if given
 *   exited-killed   records "exited 0", then is killed by SIGKILL
 *   pids            a thread event naming tid 18446744072375762944
 *   partial         a call shown as blocking, popped by the return of a
 *                   hidden call, then a second slot for its thread (an
 *                   "exec")
 *   rewrite-reported  (-f) a child ends (status 3) and is reported, then
 *                   its process entry is rewritten with this pid
 *   pidns-flip SECS  its process entry names another pid namespace and
 *                   pid every millisecond for SECS seconds, then its own
 *   paths N         N functions of its own, each called inside each: N * N
 *                   distinct call paths
 *   zero-size       a record of no kind that says it is 0 bytes long, then
 *                   calls
 *   dropped         its ring says it dropped 6139169733415101650 events
 *   fuzz SEED SECS  random writes over everything, and calls, for SECS
 *                   (busy after SECS: a second thread calls all along, and
 *                   only calls and records of calls are forged, in the
 *                   first 8 ms of every 64)
 *   table-fd        the session names a descriptor of the compiled
 *                   prototypes that ltruss does not hold, then it execs
 *                   cat /dev/null (-f: traced, without them)
 *
 * The traced calls it makes are getenv(), getppid(), snprintf() and
 * read(): the tests select them with -u 'libc:getenv,getppid,snprintf,read'.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../../lib/session.h"

static struct ltr_session *S;
static struct ltr_thread *slot;
static unsigned char *ring;
static uint64_t rng = 88172645463325252ull;

/* The next pseudo-random number (xorshift64). */
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Die with a message that is not the status the tests expect. */
static void fail(const char *what)
{
	fprintf(stderr, "forge: %s\n", what);
	exit(3);
}

/* Thread slot i of the session (mapped whole by map_whole). */
static struct ltr_thread *slot_of(uint32_t i)
{
	return (struct ltr_thread *)((unsigned char *)S +
				     ltr_slot_offset(i, S->ring_size));
}

/* The ring of slot i. */
static unsigned char *ring_of(uint32_t i)
{
	return (unsigned char *)slot_of(i) + ltr_page_up(sizeof(struct ltr_thread));
}

/*
 * Map the whole session, slots included, as S: the interposer maps only
 * the slots of this process's threads, and closed its descriptor; ltruss,
 * the parent, still has one (/proc/PPID/fd).
 */
static void map_whole(void)
{
	char path[64], link[128];
	uint32_t ring_bytes = S->ring_size;
	int parent = (int)syscall(SYS_getppid); /* getppid() is traced */
	int fd;

	for (fd = 0; fd < 4096; fd++) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/%d/fd/%d", parent, fd);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (!strstr(link, "ltruss-session"))
			continue;
		n = open(path, O_RDWR | O_CLOEXEC);
		if (n < 0)
			continue;
		S = mmap(NULL, ltr_session_size(ring_bytes), PROT_READ | PROT_WRITE,
			 MAP_SHARED, (int)n, 0);
		close((int)n);
		if (S == MAP_FAILED)
			fail("cannot map the session whole");
		return;
	}
	fail("no session descriptor in the parent");
}

/* Find the session mapping and this thread's slot (after a traced call). */
static void find_session(void)
{
	char line[512];
	unsigned long lo, hi, best = 0, off;
	FILE *f = fopen("/proc/self/maps", "r");
	pid_t tid = (pid_t)syscall(SYS_gettid);
	uint32_t i;

	if (!f)
		fail("no /proc/self/maps");
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "ltruss-session") ||
		    sscanf(line, "%lx-%lx %*s %lx", &lo, &hi, &off) != 3 || off)
			continue;
		if (hi - lo > best) {
			best = hi - lo;
			S = (struct ltr_session *)lo;
		}
	}
	fclose(f);
	if (!S || S->magic != LTR_SESSION_MAGIC)
		fail("no session mapped: run me under ltruss");
	map_whole();
	for (i = 0; i < LTR_MAX_THREADS && i < S->nthreads; i++)
		if (slot_of(i)->tid == tid && slot_of(i)->pid == getpid())
			break;
	if (i == LTR_MAX_THREADS || i >= S->nthreads)
		fail("no thread slot: no traced call made yet");
	slot = slot_of(i);
	ring = ring_of(i);
}

/* Function index of traced function name, or fail. */
static uint32_t fn_of(const char *name)
{
	uint32_t i;

	for (i = 0; i < S->nfuncs && i < LTR_MAX_FUNCS; i++)
		if (S->funcs[i].name < LTR_STRINGS_SIZE &&
		    strcmp(S->strings + S->funcs[i].name, name) == 0)
			return i;
	fail("function not traced");
	return 0;
}

/* Append ev (size bytes) to this thread's ring as the interposer would. */
static void ring_put(const void *ev, uint32_t size)
{
	uint32_t rs = S->ring_size;
	uint64_t head = slot->ring.head;
	uint32_t off = (uint32_t)(head & (rs - 1));
	uint32_t pad = off + size > rs ? rs - off : 0;
	int waited;

	for (waited = 0; head + pad + size - slot->ring.tail > rs; waited++) {
		if (waited > 20000)
			return; /* ltruss does not read: forge nothing */
		usleep(1000);
	}
	if (pad) {
		struct ltr_rec *p = (void *)(ring + off);

		p->size = 0;
		p->kind = LTR_EV_PAD;
		head += pad;
		off = 0;
	}
	memcpy(ring + off, ev, size);
	__atomic_store_n(&slot->ring.head, head + size, __ATOMIC_RELEASE);
}

/* A room for one forged event and its blobs. */
struct forged {
	struct ltr_rec e; /* as a ring holds it */
	uint64_t w[64];
};

/* A forged event of type for fn at depth, with words words, no blobs. */
static uint32_t forge_event(struct forged *f, uint8_t type, uint32_t fn,
			    uint16_t depth, unsigned words)
{
	struct timespec now;

	memset(f, 0, sizeof(*f));
	clock_gettime(CLOCK_MONOTONIC, &now);
	f->e.kind = type; /* all its fixed words */
	f->e.fn = (uint16_t)fn;
	f->e.depth = depth;
	f->e.ts = __builtin_ia32_rdtsc();
	f->e.size = (uint16_t)(sizeof(f->e) + 8 * words);
	return f->e.size;
}

/* Add a blob of type, index and claimed length len, holding n bytes of data. */
static void forge_blob(struct forged *f, uint8_t type, uint8_t index,
		       uint32_t len, const void *data, uint32_t n)
{
	struct ltr_blob *b = (void *)((unsigned char *)f + f->e.size);

	b->type = type;
	b->index = index;
	b->len = len;
	memcpy(b->data, data, n);
	f->e.size = (uint16_t)(f->e.size + sizeof(*b) + ((n + 7) & ~7u));
}

/*
 * A call of fn, entry and exit, with a string blob (argument 0, ENTER) and
 * an output blob (argument 1, EXIT) of claimed length len, holding arg
 * without its NUL.
 */
static void forge_call(uint32_t fn, uint32_t len, const char *arg)
{
	static const char home[] = "HOME";
	struct forged f;

	forge_event(&f, LTR_EV_ENTER, fn, 0, LTR_ENTER_WORDS);
	f.w[0] = (uint64_t)(uintptr_t)home;
	f.w[1] = (uint64_t)(uintptr_t)home;
	f.w[2] = 4;
	forge_blob(&f, LTR_BLOB_STRING, 0, len, arg, (uint32_t)strlen(arg));
	ring_put(&f, f.e.size);
	forge_event(&f, LTR_EV_EXIT, fn, 0, LTR_EXIT_WORDS);
	f.w[0] = 4;
	forge_blob(&f, LTR_BLOB_OUT, 1, len, arg, (uint32_t)strlen(arg));
	ring_put(&f, f.e.size);
}

/*
 * Fill the whole ring with valid 128-byte CALL events of fn, aligned so
 * that a reader at the head's offset finds one: a head moved a multiple
 * of the ring ahead then replays them for as long as the reader follows.
 */
static void fill_ring(uint32_t fn)
{
	uint32_t rs = S->ring_size, i;
	unsigned char stack[48] = { 0 };
	struct forged f;

	forge_event(&f, LTR_EV_CALL, fn, 0, LTR_ENTER_WORDS);
	forge_blob(&f, LTR_BLOB_STACK, 0, sizeof(stack), stack, sizeof(stack));
	if (f.e.size != 128)
		fail("a forged event is not 128 bytes");
	/* Through the ring's end (a PAD), then to an offset of 128 * k. */
	for (i = 0; i <= rs / 128; i++)
		ring_put(&f, f.e.size);
	for (i = 0; i < 20000 && slot->ring.tail != slot->ring.head; i++)
		usleep(1000);
	if (slot->ring.tail != slot->ring.head)
		fail("ltruss does not read");
	for (i = 0; i < rs; i += 128)
		memcpy(ring + i, &f, 128);
}

/* A string of ours in strings[], past what the interposer used. */
static uint32_t forge_string(const char *s)
{
	uint32_t off = S->strings_used + 64;

	if (off + strlen(s) + 1 > LTR_STRINGS_SIZE)
		fail("strings full");
	memcpy(S->strings + off, s, strlen(s) + 1);
	S->strings_used = off + (uint32_t)strlen(s) + 1;
	return off;
}

/*
 * An object record of ours, appended as the interposer appends one: the
 * program's own, at its addresses, under the path at offset path, mapped
 * when the program's was, or at time mapped if not 0.  ltruss names the
 * latest object at an address mapped by a call's time.
 */
int main(int argc, char **argv);

static void forge_object(uint32_t path, uint64_t mapped)
{
	uintptr_t here = (uintptr_t)&main;
	struct ltr_objrec o;
	uint32_t i, n = S->nobjects;

	for (i = n - (n < LTR_MAX_OBJECTS ? n : LTR_MAX_OBJECTS); i < n; i++) {
		o = S->objects[i % LTR_MAX_OBJECTS];
		if (o.seq == i + 1 && o.start <= here && here < o.end)
			break;
	}
	if (i == n)
		fail("no object record holds main");
	o.path = path;
	if (mapped)
		o.mapped = mapped;
	n = __atomic_fetch_add(&S->nobjects, 1, __ATOMIC_ACQ_REL);
	o.seq = n + 1;
	S->objects[n % LTR_MAX_OBJECTS] = o;
}

/* A function entry of ours named lib:name; returns its index. */
static uint32_t forge_func(const char *lib, const char *name)
{
	uint32_t fn = S->nfuncs;

	if (fn >= LTR_MAX_FUNCS)
		fail("funcs full");
	S->funcs[fn].name = forge_string(name);
	S->funcs[fn].lib = forge_string(lib);
	S->funcs[fn].capture = -1;
	S->funcs[fn].flags = LTR_FN_READY;
	S->nfuncs = fn + 1;
	return fn;
}

/* Make the traced calls the tests select. */
static void calls(void)
{
	static int zero = -1;
	char buf[64];

	if (zero < 0)
		zero = open("/dev/zero", O_RDONLY);
	if (!getenv("HOME"))
		setenv("HOME", "/", 0);
	getppid();
	snprintf(buf, sizeof(buf), "%s %d %f", "x", 42, 1.5);
	if (read(zero, buf, 4) != 4)
		fail("cannot read /dev/zero");
}

static int go; /* hidden-thread: the thread may make its first call */

/* A thread's body: once told to go, 2000 rounds of calls(). */
static void *calls_2000(void *unused)
{
	int i;

	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		;
	for (i = 0; i < 2000; i++)
		calls();
	return unused;
}

/* Write random bytes over n bytes at p. */
static void scribble(void *p, size_t n)
{
	unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++)
		c[i] = (unsigned char)rnd();
}

/* A random value, often one near a boundary. */
static uint64_t edgy(void)
{
	static const uint64_t edges[] = {
		0, 1, 7, 8, 0x7f, 0xff, 0xffff, 0x7fffffff, 0x80000000,
		0xfffffff9, 0xffffffff, 1ull << 62, UINT64_MAX, UINT64_MAX - 7,
	};

	if (rnd() % 2)
		return edges[rnd() % (sizeof(edges) / sizeof(edges[0]))];
	return rnd() >> (rnd() % 64);
}

/* fuzz_beside(): forge only the records of calls, which rounds apart take. */
static bool calls_only;
static const uint8_t call_types[4] = { LTR_EV_ENTER, LTR_EV_EXIT,
				       LTR_EV_CALL, LTR_EV_UNWOUND };

/* One random forged event: sometimes well framed, with odd blobs. */
static void fuzz_event(void)
{
	struct forged f;
	unsigned words = (unsigned)(rnd() % 9), nblobs = (unsigned)(rnd() % 4), i;
	uint32_t nf = S->nfuncs;
	uint8_t type = (uint8_t)(rnd() % 8);

	if (calls_only)
		type = call_types[type % 4];

	/* Type 0 is no type: a GUEST instead (the same random sequence). */
	forge_event(&f, type ? type : LTR_EV_GUEST,
		    (uint32_t)(rnd() % 4 ? rnd() % ((uint64_t)nf + 2) : edgy()),
		    (uint16_t)(rnd() % 4 ? rnd() % 4 : edgy()), words);
	f.e.flags = (uint8_t)(rnd() % 3 ? rnd() % 8 : rnd());
	for (i = 0; i < words; i++)
		f.w[i] = edgy();
	for (i = 0; i < nblobs; i++) {
		unsigned char data[64];
		uint32_t n = (uint32_t)(rnd() % 48);

		scribble(data, n);
		if (rnd() % 2)
			data[0] = (unsigned char)(rnd() % 40); /* a class count */
		forge_blob(&f, (uint8_t)(rnd() % 9), (uint8_t)(rnd() % 4 ? rnd() % 8 : rnd()),
			   rnd() % 3 ? n : (uint32_t)edgy(), data, n);
	}
	if (rnd() % 8 == 0)
		f.e.size = (uint16_t)edgy();
	ring_put(&f, f.e.size <= sizeof(f) && f.e.size >= 8 ? f.e.size & ~7u : 8);
}

/* One random write over some part of the session ltruss reads. */
static void fuzz_step(void)
{
	uint32_t n;

	switch (rnd() % (calls_only ? 5 : 14)) {
	case 0: case 1: case 2:
		calls();
		break;
	case 3: case 4:
		fuzz_event();
		break;
	case 5:
		if (rnd() % 4 == 0)
			slot->ring.head += rnd() % 2 ? edgy() : S->ring_size + 8;
		break;
	case 6:
		n = S->strings_used < LTR_STRINGS_SIZE ? S->strings_used : 64;
		scribble(S->strings + rnd() % ((uint64_t)n + 1) % (LTR_STRINGS_SIZE - 8), 1 + rnd() % 8);
		break;
	case 7:
		n = (uint32_t)(rnd() % ((uint64_t)S->nfuncs + 1) % LTR_MAX_FUNCS);
		if (rnd() % 2)
			S->funcs[n].name = (uint32_t)edgy();
		else
			S->funcs[n].lib = (uint32_t)edgy();
		break;
	case 8:
		n = (uint32_t)(rnd() % ((uint64_t)S->nobjects + 1) % LTR_MAX_OBJECTS);
		scribble(&S->objects[n], sizeof(S->objects[n]));
		if (rnd() % 2)
			S->objects[n].path = (uint32_t)(rnd() % ((uint64_t)S->strings_used + 1));
		break;
	case 9:
		n = (uint32_t)(rnd() % ((uint64_t)S->nprocs + 2) % LTR_MAX_PROCS);
		S->procs[n].pid = rnd() % 2 ? (int32_t)edgy() : getpid();
		S->procs[n].state = (uint32_t)(rnd() % 5);
		S->procs[n].status = (int32_t)edgy();
		break;
	case 10:
		n = (uint32_t)(rnd() % ((uint64_t)S->nfuncs + 1) % LTR_MAX_FUNCS);
		scribble(&slot->counts[n], sizeof(slot->counts[n]));
		break;
	case 11:
		switch (rnd() % 4) {
		case 0: S->nfuncs = (uint32_t)edgy(); break;
		case 1: S->nobjects = (uint32_t)edgy(); break;
		case 2: S->nprocs = (uint32_t)edgy(); break;
		default: S->nthreads = (uint32_t)edgy(); break;
		}
		break;
	case 12:
		n = (uint32_t)(rnd() % LTR_MAX_THREADS);
		if (rnd() % 2)
			slot_of(n)->pid = (int32_t)edgy();
		else
			slot_of(n)->tid = (int32_t)edgy();
		break;
	case 13:
		S->strings_used = (uint32_t)edgy();
		break;
	}
}

/*
 * Make this process's entry name another namespace and pid every
 * millisecond for secs seconds, then put it back.
 */
static void pidns_flip(unsigned secs)
{
	struct ltr_process *p = NULL, saved;
	uint32_t i, k;

	for (i = 0; i < S->nprocs && i < LTR_MAX_PROCS && !p; i++)
		if (S->procs[i].pid == getpid())
			p = &S->procs[i];
	if (!p)
		fail("no process entry");
	saved = *p;
	for (k = 0; k < secs * 1000; k++) {
		p->pidns = 4000000000u - k;
		p->pid = p->local_pid = (int32_t)(100000 + k);
		usleep(1000);
	}
	*p = saved;
}

/*
 * fuzz_beside()'s pauses: forged records only in the first 8 ms of every
 * 64, plain calls the rest.  A round with one record the scan refuses is
 * merged; a slow ltruss (an AddressSanitizer build) gathers so many
 * records a round that, forging all along, every round held one, and no
 * ring reached the workers at all.
 */
static bool forging_pause(const struct timespec *start, const struct timespec *now)
{
	long long ms = (now->tv_sec - start->tv_sec) * 1000ll +
		       (now->tv_nsec - start->tv_nsec) / 1000000;

	return ms % 64 >= 8;
}

/* Random writes and calls for secs seconds (the session's counts kept sane enough to end). */
static void fuzz(uint64_t seed, unsigned secs)
{
	struct timespec start, now;
	uint32_t nfuncs = S->nfuncs, nthreads = S->nthreads;

	rng ^= seed * 0x9e3779b97f4a7c15ull;
	if (!rng)
		rng = 1;
	clock_gettime(CLOCK_MONOTONIC, &start);
	now = start;
	do {
		if (calls_only && forging_pause(&start, &now))
			calls();
		else
			fuzz_step();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000000000ll +
		 (now.tv_nsec - start.tv_nsec) < secs * 1000000000ll);
	/* Put back what the interposer needs to finish the run. */
	S->nfuncs = nfuncs;
	S->nthreads = nthreads;
}

static int fuzzing; /* fuzz_beside(): the busy thread calls while it is set */
static int busy_started; /* its first call made: its slot taken before the writes */

/* A busy thread's body: calls until fuzzing ends. */
static void *calls_while_fuzzing(void *unused)
{
	getppid();
	__atomic_store_n(&busy_started, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&fuzzing, __ATOMIC_ACQUIRE)) {
		getppid();
		getppid();
	}
	return NULL;
}

/*
 * fuzz(), or when busy, with a second thread calling getppid() all along
 * and only calls and forged records of calls written: two rings busy at
 * once with what rounds apart take, so a live trace formats them on
 * workers (bin/events/trace-rounds.c; LTRUSS_DEBUG_APART) from forged
 * records.
 */
static void fuzz_beside(uint64_t seed, unsigned secs, bool busy)
{
	pthread_t t;

	fuzzing = 1;
	calls_only = busy;
	if (busy && pthread_create(&t, NULL, calls_while_fuzzing, NULL))
		fail("cannot start a thread");
	while (busy && !__atomic_load_n(&busy_started, __ATOMIC_ACQUIRE))
		;
	fuzz(seed, secs);
	__atomic_store_n(&fuzzing, 0, __ATOMIC_RELEASE);
	if (busy)
		pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	uint32_t fn;

	calls();
	find_session();
	fn = fn_of("getenv");
	if (strcmp(mode, "blob-len") == 0) {
		forge_call(fn, 0xfffffff9u, "HOMEHOMEHOMEHOMEHOMEHOMEHOMEHOMEHOMEHOME");
		forge_call(fn_of("read"), 0xfffffff9u, "HOME");
	} else if (strcmp(mode, "head") == 0) {
		if (argc > 2 && strcmp(argv[2], "ignore") == 0) {
			signal(SIGTERM, SIG_IGN);
			signal(SIGINT, SIG_IGN);
		}
		fill_ring(fn);
		slot->ring.head += 1ull << 62;
		calls();
		if (argc > 2)
			pause();
	} else if (strcmp(mode, "zero-size") == 0) {
		struct forged f;

		forge_event(&f, 0xff, fn, 0, 1);
		f.e.size = 0;
		ring_put(&f, 16);
		calls();
	} else if (strcmp(mode, "dropped") == 0) {
		slot->ring.dropped = 6139169733415101650ull;
	} else if (strcmp(mode, "hidden-thread") == 0) {
		uint32_t n = S->nthreads;
		pthread_t t;

		if (pthread_create(&t, NULL, calls_2000, NULL))
			fail("pthread_create");
		/* ltruss asleep, and the count written up for microseconds. */
		usleep(100000);
		S->nthreads = 300;
		__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
		while (__atomic_load_n(&S->nthreads, __ATOMIC_ACQUIRE) == 300)
			;
		S->nthreads = n;
		pthread_join(t, NULL);
	} else if (strcmp(mode, "tail") == 0) {
		int i;

		while (slot->ring.head <= S->ring_size)
			calls();
		for (i = 0; i < 20000 && slot->ring.tail != slot->ring.head; i++)
			usleep(1000);
		slot->ring.tail = 0;
		calls();
	} else if (strcmp(mode, "strings-used") == 0) {
		S->strings_used = 0xffffffe0u;
		if (!dlopen("libm.so.6", RTLD_NOW) && !dlopen("libz.so.1", RTLD_NOW))
			fail("no library to dlopen");
		calls();
	} else if (strcmp(mode, "names") == 0) {
		uint32_t f = forge_func("lib\x1b[31m", "f\n+++ exited (status 0) +++\n\xff\xfe");

		slot->counts[f].calls = 1;
		forge_call(f, 4, "HOME");
	} else if (strcmp(mode, "caller") == 0 && argc > 2) {
		/* A third argument: the time it says it was mapped. */
		forge_object(forge_string(argv[2]),
			     argc > 3 ? strtoull(argv[3], NULL, 0) : 0);
		calls();
	} else if (strcmp(mode, "exited-killed") == 0) {
		uint32_t i;

		for (i = 0; i < S->nprocs && i < LTR_MAX_PROCS; i++) {
			if (S->procs[i].pid == getpid()) {
				S->procs[i].status = 0;
				__atomic_store_n(&S->procs[i].state, LTR_PROC_EXITED,
						 __ATOMIC_RELEASE);
			}
		}
		usleep(200000);
		raise(SIGKILL);
	} else if (strcmp(mode, "pids") == 0) {
		struct forged f;

		forge_event(&f, LTR_EV_THREAD, 0, 0, 1);
		f.w[0] = 18446744072375762944ull;
		ring_put(&f, f.e.size);
		calls();
	} else if (strcmp(mode, "partial") == 0) {
		struct forged f;
		uint32_t i = S->nthreads, hidden = forge_func("libc", "hidden");

		/* A call that blocks long enough to be shown as blocking... */
		forge_event(&f, LTR_EV_ENTER, fn, 1, LTR_ENTER_WORDS);
		ring_put(&f, f.e.size);
		usleep(300000);
		/* ...popped by the return of a hidden (disabled) outer call... */
		S->funcs[hidden].flags |= LTR_FN_DISABLED;
		forge_event(&f, LTR_EV_EXIT, hidden, 0, LTR_EXIT_WORDS);
		ring_put(&f, f.e.size);
		/* ...and a second slot for this thread: an "exec". */
		if (i >= LTR_MAX_THREADS - 1)
			fail("no free slot");
		slot_of(i)->pid = slot->pid;
		slot_of(i)->tid = slot->tid;
		S->slot_used[i] = LTR_SLOT_TAKEN;
		slot = slot_of(i);
		ring = ring_of(i);
		S->nthreads = i + 1;
		forge_event(&f, LTR_EV_CALL, fn, 0, LTR_ENTER_WORDS);
		ring_put(&f, f.e.size);
		usleep(100000);
		forge_event(&f, LTR_EV_CALL, fn, 0, LTR_ENTER_WORDS);
		ring_put(&f, f.e.size);
	} else if (strcmp(mode, "rewrite-reported") == 0) {
		pid_t child = fork();
		uint32_t i;

		if (child == 0) {
			calls();
			_exit(3);
		}
		if (child < 0 || waitpid(child, NULL, 0) != child)
			fail("fork");
		usleep(300000); /* ltruss reports it meanwhile */
		for (i = 0; i < S->nprocs && i < LTR_MAX_PROCS; i++)
			if (S->procs[i].pid == child)
				S->procs[i].pid = getpid();
	} else if (strcmp(mode, "pidns-flip") == 0 && argc > 2) {
		pidns_flip((unsigned)atoi(argv[2]));
	} else if (strcmp(mode, "paths") == 0 && argc > 2) {
		uint32_t n = (uint32_t)atoi(argv[2]), first = S->nfuncs, i, j;
		struct forged f;
		char name[32];

		for (i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "f%u", i);
			forge_func("paths", name);
		}
		for (i = 0; i < n; i++) {
			forge_event(&f, LTR_EV_ENTER, first + i, 0, LTR_ENTER_WORDS);
			ring_put(&f, f.e.size);
			for (j = 0; j < n; j++) {
				forge_event(&f, LTR_EV_ENTER, first + j, 1, LTR_ENTER_WORDS);
				ring_put(&f, f.e.size);
				forge_event(&f, LTR_EV_EXIT, first + j, 1, LTR_EXIT_WORDS);
				ring_put(&f, f.e.size);
			}
			forge_event(&f, LTR_EV_EXIT, first + i, 0, LTR_EXIT_WORDS);
			ring_put(&f, f.e.size);
		}
	} else if (strcmp(mode, "table-fd") == 0) {
		S->shipped.fd = 999;
		execl("/bin/cat", "cat", "/dev/null", (char *)NULL);
		fail("cannot run cat");
	} else if (strcmp(mode, "fuzz") == 0 && argc > 3) {
		fuzz_beside(strtoull(argv[2], NULL, 0), (unsigned)atoi(argv[3]),
			    argc > 4 && strcmp(argv[4], "busy") == 0);
	} else {
		fail("usage: forge MODE [ARG]");
	}
	calls();
	return 7;
}

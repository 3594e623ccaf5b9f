/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * entry-patch.c: apply ltruss's entry patching plans to an object as the
 * loader opens it.
 *
 * ltruss decoded everything (bin/patch/patch-plan.c, where the rules and the
 * reason for this split are); here the plans of the object are only
 * applied, in la_objopen: the object is mapped but none of its code has
 * run yet (its constructors, and the program's, run later), so no thread
 * can be inside the bytes that change.
 *
 * The code area.  One per patched object, within 2 GiB of it (a jmp rel32
 * reaches it, and it reaches the object's RIP-relative data), below the
 * object when there is room (above the program lies its brk heap).  Each
 * function has ISLAND bytes there:
 *
 *     +0   jmp *0(%rip); .quad stub      where the patched entry jumps
 *     +16  endbr64; the moved instructions, relocated;
 *          jmp *0(%rip); .quad function + moved bytes
 *
 * and +16 is "the function" for the stub (ltr_stub_for): what a traced
 * call runs after its entry was seen, so every view of the trace works
 * on patched calls unchanged.  W^X: the area is filled in a private
 * anonymous scratch mapping, written into a memfd and mapped from it
 * read-execute only; the 5 bytes of each jmp are written through
 * /proc/self/mem, which writes into the text's private copy without
 * making it writable (nothing calls mprotect).  Where any step is refused,
 * the plan's failed field tells ltruss, which says so; the rest is traced.
 *
 * A patched function's bindings (the PLT, function pointers the loader
 * writes) lead to a stub of the copy, past the patch: a call through the
 * PLT is counted once, under the name it was bound by, and --from still
 * narrows it.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "capture.h"
#include "interposer.h"
#include "objects.h"
#include "sys.h"

#define ISLAND 96      /* bytes of one function's part of the code area */
#define COPY_AT 16     /* where the relocated copy starts in it */
#define JMP_ABS 14     /* jmp *0(%rip); .quad address */
#define REACH ((1ll << 31) - (1 << 20)) /* a rel32's reach, with room */
#define LOWEST 0x100000 /* no code area below this address */
#define USER_TOP 0x7ffffffff000ull

_Static_assert(COPY_AT + 4 + LTR_PATCH_CODE + JMP_ABS <= ISLAND,
	       "a function's part of the code area is too small");

/* The entries (after endbr64) of the patched functions and their copies, for ltr_bind. */
static uintptr_t patched[LTR_MAX_PATCHES], copies[LTR_MAX_PATCHES];
static uint32_t npatched;
/* The dynamic loader's segments: its calls are its own (ltr_entry_from_loader). */
uintptr_t ltr_loader_start, ltr_loader_end;
/* The plans of the object being patched (la_objopen runs one at a time). */
static uint32_t mine[LTR_MAX_PATCHES];

/* Where a code area of size bytes can go near [lo, hi): the walk's state. */
struct gap_search {
	uintptr_t lo, hi, size;
	uintptr_t prev_hi;
	uintptr_t below, above; /* the best found, 0: none */
	bool main;
};

/* Consider the free range [from, to) for the code area. */
static void gap_consider(struct gap_search *g, uintptr_t from, uintptr_t to)
{
	uintptr_t a, top, bottom;

	top = to < g->lo ? to : g->lo;
	if (top >= from + g->size) {
		a = (top - g->size) & ~(uintptr_t)4095;
		if (a >= from && a >= LOWEST && g->hi - a < (uintptr_t)REACH &&
		    a > g->below)
			g->below = a;
	}
	/* Above the program is its brk heap: leave it 1 GiB. */
	bottom = g->hi + (g->main ? (1ul << 30) : 0);
	bottom = (bottom + 4095) & ~(uintptr_t)4095;
	if (bottom < from)
		bottom = (from + 4095) & ~(uintptr_t)4095;
	if (!g->above && bottom + g->size <= to &&
	    bottom + g->size - g->lo < (uintptr_t)REACH)
		g->above = bottom;
}

/* One mapping of the walk: the gap before it is free. */
static bool gap_walk(const struct ltr_mapping *m, void *arg)
{
	struct gap_search *g = arg;

	if (m->lo > g->prev_hi)
		gap_consider(g, g->prev_hi, m->lo);
	if (m->hi > g->prev_hi)
		g->prev_hi = m->hi;
	return true;
}

/* An address for size bytes within reach of obj, or 0. */
static uintptr_t area_place(const struct ltr_object *obj, size_t size)
{
	struct gap_search g = { .lo = obj->start, .hi = obj->end,
				.size = size,
				.main = obj->flags & LTR_OBJ_MAIN };
	char buf[4096];

	if (!ltr_maps_walk(gap_walk, &g, buf, sizeof(buf)))
		return 0;
	gap_consider(&g, g.prev_hi, USER_TOP);
	return g.below ? g.below : g.above;
}

/* The plans in the session, as many as it has room for (a forged count). */
static uint32_t plans_count(void)
{
	uint32_t n = __atomic_load_n(&ltr_session->npatches, __ATOMIC_ACQUIRE);

	return n < LTR_MAX_PATCHES ? n : LTR_MAX_PATCHES;
}

/* Is plan p for the object at path? */
static bool plan_names(const struct ltr_patch *p, const char *path)
{
	return p->object < LTR_STRINGS_SIZE &&
	       ltr_strcmp(ltr_session->strings + p->object, path) == 0;
}

/* Does plan p belong to the object at path, and are its bytes there? */
static bool plan_fits(const struct ltr_patch *p, const char *path,
		      const struct ltr_object *obj)
{
	uintptr_t at = obj->bias + p->vaddr;

	if (!plan_names(p, path) || p->name >= LTR_STRINGS_SIZE ||
	    p->len < 5 || p->len > LTR_PATCH_ORIG ||
	    p->code_len > LTR_PATCH_CODE || p->nfixups > LTR_PATCH_FIXUPS)
		return false;
	if (at < obj->start || at + p->len > obj->end ||
	    __builtin_memcmp((const void *)at, p->orig, p->len) != 0) {
		__atomic_store_n(&((struct ltr_patch *)p)->failed,
				 LTR_PATCH_EBYTES, __ATOMIC_RELAXED);
		return false;
	}
	return true;
}

/* Write "jmp *0(%rip); .quad to" at at. */
static void jmp_abs(uint8_t *at, uintptr_t to)
{
	static const uint8_t op[6] = { 0xff, 0x25, 0, 0, 0, 0 };

	__builtin_memcpy(at, op, sizeof(op));
	__builtin_memcpy(at + 6, &to, 8);
}

/*
 * Fill the island of plan p at scratch (to run at area) for the stub;
 * false if a relocated field does not reach its target.
 */
static bool island_fill(uint8_t *scratch, uintptr_t area,
			const struct ltr_patch *p, uintptr_t bias,
			uintptr_t stub)
{
	static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	uint8_t *copy = scratch + COPY_AT + 4;
	uintptr_t run = area + COPY_AT + 4;
	uint32_t i;

	jmp_abs(scratch, stub);
	__builtin_memcpy(scratch + COPY_AT, endbr64, 4);
	__builtin_memcpy(copy, p->code, p->code_len);
	for (i = 0; i < p->nfixups; i++) {
		const struct ltr_patch_fixup *f = &p->fixups[i];
		int64_t rel = (int64_t)(bias + f->target) - (int64_t)(run + f->end);
		int32_t v = (int32_t)rel;

		if (rel != v || f->at + 4u > p->code_len || f->end > p->code_len)
			return false;
		__builtin_memcpy(copy + f->at, &v, 4);
	}
	jmp_abs(copy + p->code_len, bias + p->vaddr + p->len);
	return true;
}

/* Map size bytes of scratch read-execute at area, through a memfd; false if refused. */
static bool area_map(const void *scratch, uintptr_t area, size_t size)
{
	int fd = ltr_memfd_create("ltruss-patch", MFD_CLOEXEC);
	void *m = MAP_FAILED;

	if (fd < 0)
		return false;
	if (ltr_write(fd, scratch, size) == (ssize_t)size)
		m = ltr_mmap((void *)area, size, PROT_READ | PROT_EXEC,
			 MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0);
	ltr_close(fd);
	if (!ltr_map_error(m) && (uintptr_t)m != area) {
		ltr_munmap(m, size); /* a kernel that took the address as a hint */
		m = MAP_FAILED;
	}
	return !ltr_map_error(m);
}

/* Mark the n plans of mine[] failed for why. */
static void plans_failed(uint32_t n, uint32_t why)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		__atomic_store_n(&ltr_session->patches[mine[i]].failed, why,
				 __ATOMIC_RELAXED);
}

/* Write the jmp of plan p to its island at island; false if refused. */
static bool entry_write(int mem, const struct ltr_patch *p, uintptr_t bias,
			uintptr_t island)
{
	uintptr_t at = bias + p->vaddr;
	int32_t rel = (int32_t)((int64_t)island - (int64_t)(at + 5));
	uint8_t jmp[5] = { 0xe9 };

	__builtin_memcpy(jmp + 1, &rel, 4);
	return ltr_pwrite(mem, jmp, 5, (off_t)at) == 5;
}

/* The path plans name obj by: its l_name, the program's /proc/self/exe. */
static const char *object_path(const struct ltr_object *obj, char *buf,
			       size_t size)
{
	ssize_t n;

	if (!(obj->flags & LTR_OBJ_MAIN))
		return obj->path;
	n = ltr_readlink("/proc/self/exe", buf, size - 1);
	if (n <= 0)
		return "";
	buf[n] = '\0';
	return buf;
}

/* Build, map and enter the code area of the n plans of mine[] for obj. */
static void area_apply(struct ltr_object *obj, uint32_t n)
{
	size_t size = ((size_t)n * ISLAND + 4095) & ~(size_t)4095;
	uintptr_t area;
	uint8_t *scratch;
	uint32_t i;
	int mem;

	/* The scratch first: the kernel may put it where the area would go. */
	scratch = ltr_mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ltr_map_error(scratch)) {
		plans_failed(n, LTR_PATCH_EAREA);
		return;
	}
	area = area_place(obj, size);
	if (!area) {
		ltr_munmap(scratch, size);
		plans_failed(n, LTR_PATCH_EAREA);
		return;
	}
	__builtin_memset(scratch, 0xcc, size); /* int3 between the pieces */
	for (i = 0; i < n; i++) {
		struct ltr_patch *p = &ltr_session->patches[mine[i]];
		uintptr_t island = area + (uintptr_t)i * ISLAND;
		const char *name = ltr_session->strings + p->name;
		uintptr_t stub = ltr_stub_for(island + COPY_AT, name,
					      ltr_name_hash(name), obj, NULL);

		if (!stub || !island_fill(scratch + (size_t)i * ISLAND, island,
					  p, obj->bias, stub)) {
			__atomic_store_n(&p->failed, LTR_PATCH_ESTUB,
					 __ATOMIC_RELAXED);
			mine[i] = UINT32_MAX;
			continue;
		}
		/* before any call can reach it: the patch is not written yet */
		ltr_targets[ltr_stub_index(stub)].flags |= LTR_FN_PATCHED;
	}
	if (!area_map(scratch, area, size)) {
		ltr_munmap(scratch, size);
		plans_failed(n, LTR_PATCH_EAREA);
		return;
	}
	ltr_munmap(scratch, size);
	mem = ltr_open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	for (i = 0; i < n; i++) {
		struct ltr_patch *p;

		if (mine[i] == UINT32_MAX)
			continue;
		p = &ltr_session->patches[mine[i]];
		if (mem < 0 || !entry_write(mem, p, obj->bias,
					    area + (uintptr_t)i * ISLAND)) {
			__atomic_store_n(&p->failed, LTR_PATCH_EMEM,
					 __ATOMIC_RELAXED);
			continue;
		}
		__atomic_fetch_add(&p->applied, 1, __ATOMIC_RELAXED);
		if (npatched < LTR_MAX_PATCHES) {
			copies[npatched] = area + (uintptr_t)i * ISLAND + COPY_AT;
			patched[npatched++] = obj->bias + p->vaddr;
		}
	}
	if (mem >= 0)
		ltr_close(mem);
}

/* Does a plan in the session name the object at path? */
static bool plans_name(const char *path)
{
	uint32_t total = plans_count(), i;

	for (i = 0; i < total; i++)
		if (plan_names(&ltr_session->patches[i], path))
			return true;
	return false;
}

/*
 * Ask ltruss to plan the object at path (main: the program), opened after
 * the start or by a program an exec started: the loader holds its lock
 * meanwhile (other threads' dlopen and lazy bindings wait), but none of
 * the object's code runs until it is patched.  One process asks at a
 * time; ltruss answers from its pass over the rings.  Gives up if ltruss
 * is gone.
 */
static void plans_ask(const char *path, bool main)
{
	struct ltr_session *s = ltr_session;
	unsigned still = 0, spins = 0;
	uint32_t beat = 0, free_ = 0;

	while (!__atomic_compare_exchange_n(&s->patch_req_lock, &free_, 1, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		free_ = 0;
		if (!ltr_reader_nap(&beat, &still, &spins))
			return;
	}
	s->patch_req_path = ltr_session_string(path);
	s->patch_req_main = main;
	__atomic_store_n(&s->patch_req, LTR_PATCH_REQ_ASKED, __ATOMIC_RELEASE);
	while (__atomic_load_n(&s->patch_req, __ATOMIC_ACQUIRE) !=
	       LTR_PATCH_REQ_ANSWERED)
		if (!ltr_reader_nap(&beat, &still, &spins))
			break;
	__atomic_store_n(&s->patch_req, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->patch_req_lock, 0, __ATOMIC_RELEASE);
}

void ltr_entry_patch(struct ltr_object *obj, bool late)
{
	uint32_t total;
	char buf[4096];
	const char *path;
	uint32_t i, n = 0;
	bool inner;

	if (obj->soname && ltr_strncmp(obj->soname, "ld-linux", 8) == 0) {
		ltr_loader_start = obj->start;
		ltr_loader_end = obj->end;
	}
	inner = ltr_select_inner(obj);
	/* Nothing to ask, nothing planned: no system call (readlink) either. */
	if (!inner && !plans_count())
		return;
	path = object_path(obj, buf, sizeof(buf));
	/*
	 * ltruss planned the first program and its libraries before it
	 * started; a program an exec started (a child under -f), and the
	 * libraries only it loads, were not: each asks for itself, unless
	 * plans name it already (ltruss answers at once for an object it
	 * planned and found nothing to patch in).
	 */
	if (inner && path[0] == '/' && (late || !plans_name(path)))
		plans_ask(path, obj->flags & LTR_OBJ_MAIN);
	total = plans_count();
	for (i = 0; i < total; i++)
		if (plan_fits(&ltr_session->patches[i], path, obj))
			mine[n++] = i;
	if (n)
		area_apply(obj, n);
}

uintptr_t ltr_entry_copy(uintptr_t addr)
{
	static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	uint32_t i;

	/* addr is the symbol's: the jmp follows its endbr64, if any */
	for (i = 0; i < npatched; i++)
		if (patched[i] == addr ||
		    (patched[i] == addr + 4 &&
		     __builtin_memcmp((const void *)addr, endbr64, 4) == 0))
			return copies[i];
	return 0;
}

uintptr_t ltr_entry_original(uintptr_t copy)
{
	uint32_t i;

	for (i = 0; i < npatched; i++)
		if (copies[i] == copy)
			return patched[i];
	return 0;
}

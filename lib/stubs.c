/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stubs.c: one stub per traced target address and name.
 *
 * Stub i (lib/arch/x86_64/trampoline.S) carries index i into the common
 * entry; targets[i] says where the real function is and which entry of the
 * session's function table (names, counters) it is.  The stub table is this
 * process's own: with -f, processes that load different things at the same
 * addresses must never share it.  The session's funcs[] is shared and only
 * appended to, each entry claimed with an atomic add.
 *
 * Keying stubs by target address and name makes every binding, every
 * dlsym result and every patched slot (GOT or data pointer, got-patch.c)
 * of one function get the same stub, so that the addresses a traced object
 * sees compare equal (what remains is in man ltruss, BUGS).  The name is
 * part of the key because aliases (getwc and fgetwc, wcstoll and wcstol)
 * share an address: each call is reported under the name its caller
 * bound.  The price: &getwc != &fgetwc in a traced program.  Lookups
 * take no lock (entries are published with release stores and never
 * emptied), so a signal handler that triggers a binding cannot deadlock;
 * allocations take a spinlock, and a thread that re-enters while holding
 * it (a signal handler again) leaves that one binding untraced.
 *
 * Stubs of unloaded objects are reused, so that dlopen/dlclose cycles do
 * not use them all up: a function of the same name in a library of the
 * same name gets its old stub and function entry back (one row in the
 * summary, and funcs[] does not grow), and when no fresh stub is left any
 * forgotten one is taken.  A reused stub gets a new hash entry; its old
 * one, and those of forgotten targets, are dead and may be overwritten.
 */
#include <string.h>

#include "interposer.h"
#include "lock.h"
#include "objects.h"

#define HASH_SIZE (2 * LTR_NSTUBS) /* a power of two */
#define HASH_SMALL 1024 /* the first index's buckets: one page */
#define STUB_SIZE 16

/*
 * The hash index of stubs starts as one page and moves to the whole
 * table at HASH_SMALL / 2 targets.  A program binds a few dozen
 * functions; their buckets spread over the whole 128 KiB table cost two
 * page faults each (read, then written), ~50 for jq, at every start.
 * Buckets hold stub index + 1, 0 = empty.  The move happens under the
 * lock and publishes the new index with a release store; the old one is
 * never written again, so a lookup that read the old one finds what it
 * held, and misses only targets added since: those it finds again under
 * the lock (ltr_stub_for).
 */
struct hash_index {
	uint32_t *buckets;
	uint32_t size; /* a power of two */
};

struct ltr_target ltr_targets[LTR_NSTUBS];
static uint32_t ntargets;
static uint32_t nforgotten; /* targets of unloaded objects */
static uint32_t buckets_small[HASH_SMALL];
static uint32_t buckets_whole[HASH_SIZE];
static const struct hash_index index_small = { buckets_small, HASH_SMALL };
static const struct hash_index index_whole = { buckets_whole, HASH_SIZE };
static const struct hash_index *hash_index = &index_small;
static int lock;
static __thread int holding_lock __attribute__((tls_model("initial-exec")));

#define EO LTR_FN_ENTRY_ONLY

/*
 * Functions that look at their own return address or never return the
 * ordinary way: traced on entry only, their return is never hijacked.
 * The setjmp family and vfork return a second time (lib/returns.c).
 */
static const struct {
	const char *name;
	uint32_t flags;
} entry_only[] = {
	{ "dlopen", EO }, { "dlmopen", EO }, { "dlsym", EO }, { "dlvsym", EO },
	{ "vfork", EO | LTR_FN_VFORK }, { "clone", EO }, { "clone3", EO },
	{ "setjmp", EO | LTR_FN_SETJMP }, { "_setjmp", EO | LTR_FN_SETJMP },
	{ "sigsetjmp", EO | LTR_FN_SETJMP },
	{ "__sigsetjmp", EO | LTR_FN_SETJMP },
	{ "getcontext", EO }, { "swapcontext", EO }, { "setcontext", EO },
	{ "makecontext", EO }, { "longjmp", EO }, { "_longjmp", EO },
	{ "siglongjmp", EO }, { "__longjmp_chk", EO }, { "exit", EO },
	{ "_exit", EO }, { "_Exit", EO }, { "quick_exit", EO }, { "abort", EO },
	{ "pthread_exit", EO }, { "__libc_start_main", EO },
	{ "__cxa_throw", EO }, { "__cxa_rethrow", EO },
	{ "_Unwind_Resume", EO }, { "execve", EO }, { "execv", EO },
	{ "execvp", EO }, { "execvpe", EO }, { "execl", EO }, { "execlp", EO },
	{ "execle", EO }, { "fexecve", EO }, { "posix_spawn", EO },
	{ "posix_spawnp", EO },
};

/*
 * Take the allocation lock; false if this thread holds it already.  The
 * thread marks itself before it takes the lock and unmarks itself after
 * it released it, so that a signal handler interrupting it anywhere in
 * between sees the mark and never spins on a lock its own thread holds.
 */
static bool spin_lock(void)
{
	if (holding_lock)
		return false;
	holding_lock = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	ltr_lock(&lock);
	return true;
}

static void spin_unlock(void)
{
	ltr_unlock(&lock);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	holding_lock = 0;
}

void ltr_stubs_after_fork(void)
{
	/* Only the forking thread exists in the child: nobody holds it. */
	lock = 0;
	holding_lock = 0;
}

/* The bucket of index x for addr bound by a name of hash name_hash. */
static uint32_t hash_of(const struct hash_index *x, uintptr_t addr,
			uint32_t name_hash)
{
	return (uint32_t)(((addr ^ name_hash) * 0x9e3779b97f4a7c15ull) >> 40) &
	       (x->size - 1);
}

/* Was target t bound by name (of hash name_hash)? */
static bool target_named(const struct ltr_target *t, const char *name,
			 uint32_t name_hash)
{
	uint32_t off;

	if (t->name_hash != name_hash || t->fn >= LTR_MAX_FUNCS)
		return false;
	off = ltr_session->funcs[t->fn].name;
	return off < LTR_STRINGS_SIZE &&
	       ltr_strcmp(ltr_session->strings + off, name) == 0;
}

/* entry_only[] by name (nameset.c), filled at la_version as the hooks' are. */
static struct ltr_nameset entry_names;
_Static_assert(sizeof(entry_only) / sizeof(entry_only[0]) <= LTR_NAMESET_SIZE / 2,
	       "a nameset holds every entry-only function");

void ltr_entry_only_init(void)
{
	ltr_nameset_init(&entry_names, &entry_only[0].name,
			 sizeof(entry_only[0]),
			 sizeof(entry_only) / sizeof(entry_only[0]));
}

/* The LTR_FN_* flags entry_only[] gives name (0 if it is not there). */
static uint32_t entry_flags(const char *name, uint32_t name_hash)
{
	uint32_t i;

	return ltr_nameset_find(&entry_names, name, name_hash, &i) ?
		       entry_only[i].flags :
		       0;
}

bool ltr_is_stub(uintptr_t addr)
{
	return addr >= (uintptr_t)ltr_stubs && addr < (uintptr_t)ltr_stubs_end;
}

/* The stub of addr bound as name if it has one (a lock-free lookup), else 0. */
static uintptr_t stub_find(uintptr_t addr, const char *name,
			   uint32_t name_hash)
{
	const struct hash_index *x = __atomic_load_n(&hash_index,
						     __ATOMIC_ACQUIRE);
	uint32_t h, idx, probes;

	for (h = hash_of(x, addr, name_hash), probes = 0; probes < x->size &&
	     (idx = __atomic_load_n(&x->buckets[h], __ATOMIC_ACQUIRE)) != 0;
	     h = (h + 1) & (x->size - 1), probes++) {
		const struct ltr_target *t = &ltr_targets[idx - 1];

		/* forgotten first: a reused target clears it after its addr is set */
		if (!__atomic_load_n(&t->forgotten, __ATOMIC_ACQUIRE) &&
		    t->addr == addr && target_named(t, name, name_hash))
			return (uintptr_t)ltr_stubs + STUB_SIZE * (idx - 1);
	}
	return 0;
}

/* Can bucket h of x be overwritten (empty, or its target forgotten or moved)? */
static bool hash_entry_dead(const struct hash_index *x, uint32_t h)
{
	uint32_t idx = x->buckets[h];

	return idx == 0 || ltr_targets[idx - 1].forgotten ||
	       ltr_targets[idx - 1].hpos != h;
}

/* Put target idx into a free bucket of x (the lock held): its hpos. */
static void hash_put(const struct hash_index *x, uint32_t idx)
{
	const struct ltr_target *t = &ltr_targets[idx];
	uint32_t h;

	for (h = hash_of(x, t->addr, t->name_hash); !hash_entry_dead(x, h);
	     h = (h + 1) & (x->size - 1))
		;
	ltr_targets[idx].hpos = h;
	__atomic_store_n(&x->buckets[h], idx + 1, __ATOMIC_RELEASE);
}

/* Move to the whole index before the small one is half full (the lock held). */
static void hash_grow(void)
{
	uint32_t idx;

	if (hash_index != &index_small || ntargets < HASH_SMALL / 2)
		return;
	for (idx = 0; idx < ntargets; idx++)
		if (!ltr_targets[idx].forgotten)
			hash_put(&index_whole, idx);
	__atomic_store_n(&hash_index, &index_whole, __ATOMIC_RELEASE);
}

/* Is function entry f one of obj's library (by its short name)? */
static bool func_of(const struct ltr_func *f, const struct ltr_object *obj)
{
	return f->lib < LTR_STRINGS_SIZE &&
	       ltr_strcmp(ltr_session->strings + f->lib, obj->short_name) == 0;
}

/*
 * The forgotten target of the same function as name (of hash name_hash) of
 * obj, to reuse with its function entry; -1 if none.  *other: the first
 * forgotten target, for when no fresh stub is left (-1 if none).
 */
static int64_t target_reuse(const char *name, uint32_t name_hash,
			    const struct ltr_object *obj, uint32_t depth,
			    int64_t *other)
{
	const struct ltr_session *s = ltr_session;
	uint32_t idx;

	*other = -1;
	if (!nforgotten)
		return -1;
	for (idx = 0; idx < ntargets; idx++) {
		const struct ltr_target *t = &ltr_targets[idx];

		if (!t->forgotten)
			continue;
		if (*other < 0)
			*other = idx;
		if (t->depth != depth || !target_named(t, name, name_hash))
			continue;
		if (func_of(&s->funcs[t->fn], obj))
			return idx;
	}
	return -1;
}

/*
 * The captures ltruss compiled from name's prototype, or NULL; *number:
 * its capture index (funcs[].capture).  The session's (a filter's
 * prototypes, captures after the shipped table's) win over the table's
 * (lib/shipped.c).
 */
static const struct ltr_capture *capture_find(const char *name, uint32_t hash,
					      int32_t *number)
{
	const struct ltr_session *s = ltr_session;
	uint32_t h, idx, nshipped = ltr_shipped_count();

	*number = -1;
	/* No filter prototypes: their index, never written, is not read (its pages never faulted). */
	if (!__atomic_load_n(&s->ncaptures, __ATOMIC_RELAXED))
		return ltr_shipped_find(name, hash, number);
	for (h = hash & (LTR_CAPTURE_HASH - 1);
	     (idx = s->capture_index[h]) != 0; h = (h + 1) & (LTR_CAPTURE_HASH - 1)) {
		const struct ltr_capture *c;

		if (idx > s->ncaptures || idx > LTR_MAX_CAPTURES - nshipped)
			return NULL;
		c = &s->captures[idx - 1];
		if (c->name < LTR_STRINGS_SIZE &&
		    ltr_strcmp(s->strings + c->name, name) == 0) {
			*number = (int32_t)(nshipped + idx - 1);
			return c;
		}
	}
	return ltr_shipped_find(name, hash, number);
}

/*
 * Functions are the session's, targets each process's own.  A process
 * that execs, or each child of a build traced with -f, binds the same
 * functions again: each once took a new entry of funcs[], and a few
 * hundred compiler runs used up all 16384 (later functions untraced).  So
 * a function is looked up first in func_index (by name hash; open
 * addressing, entries only ever added): the entry an earlier process made
 * for the same name, library, capture, depth and flags is taken again.
 * Two processes adding one function at once may make two entries: ltruss
 * sums a function's entries by name, as it did before this index.  The
 * index is in the session, which the program can write: an entry that
 * names no function entry, or another function, is passed over.
 *
 * The index is 128 KiB of the shared session, and each page of it a
 * process first touches is a page fault of shared memory (8 us each on a
 * virtual machine): spread by name hash, jq's 300 functions touched all
 * 32 pages at every start.  So a function goes first into its short
 * chain, in one page of FUNC_SMALL buckets, probed from name_hash's, and into
 * the whole index only when FUNC_SMALL_PROBES of those are taken.
 * Buckets are only ever filled: a function looked up whose short chain
 * still has an empty bucket before FUNC_SMALL_PROBES was never put into
 * the whole index (that bucket was empty when it was put), so the lookup
 * stops there; only a function whose short chain is full looks further.
 */
#define FUNC_SMALL 1024 /* buckets of a page of func_index */
#define FUNC_SMALL_PROBES 16
/* The short chains' page: func_index's first whole one (the session is mapped page-aligned). */
#define FUNC_SMALL_START                                                     \
	((4096 - offsetof(struct ltr_session, func_index) % 4096) % 4096 / 4)
_Static_assert(FUNC_SMALL_START + FUNC_SMALL <= LTR_FUNC_HASH &&
		       offsetof(struct ltr_session, func_index) % 4 == 0,
	       "the short chains' page lies within func_index");

/* Does funcs[fn] stand for name of obj, with these flags, capture and depth? */
static bool func_is(uint32_t fn, const char *name, const struct ltr_object *obj,
		    uint32_t flags, int32_t cap, uint32_t depth)
{
	const struct ltr_session *s = ltr_session;
	const struct ltr_func *f = &s->funcs[fn];
	uint32_t used = __atomic_load_n(&s->nfuncs, __ATOMIC_ACQUIRE);

	return fn < used && fn < LTR_MAX_FUNCS &&
	       (__atomic_load_n(&f->flags, __ATOMIC_ACQUIRE) &
		~LTR_FN_DISABLED) == (flags | LTR_FN_READY) &&
	       f->capture == cap && f->depth == depth &&
	       f->name < LTR_STRINGS_SIZE &&
	       ltr_strcmp(s->strings + f->name, name) == 0 && func_of(f, obj);
}

/* The n-th bucket of name_hash's chain: its short one (FUNC_SMALL_PROBES), then its whole one. */
static uint32_t func_bucket(uint32_t name_hash, uint32_t n)
{
	if (n < FUNC_SMALL_PROBES)
		return FUNC_SMALL_START + ((name_hash + n) & (FUNC_SMALL - 1));
	return (name_hash + n - FUNC_SMALL_PROBES) & (LTR_FUNC_HASH - 1);
}

/* The entry of funcs[] an earlier process made for this function; -1 if none. */
static int64_t func_find(const char *name, uint32_t name_hash,
			 const struct ltr_object *obj, uint32_t flags,
			 int32_t cap, uint32_t depth)
{
	const uint32_t *index = ltr_session->func_index;
	uint32_t n, v;

	for (n = 0; n < FUNC_SMALL_PROBES + LTR_FUNC_HASH; n++) {
		v = __atomic_load_n(&index[func_bucket(name_hash, n)],
				    __ATOMIC_ACQUIRE);
		if (!v)
			break;
		if (func_is(v - 1, name, obj, flags, cap, depth))
			return v - 1;
	}
	return -1;
}

/* Put funcs[fn] into func_index, in the first empty bucket of name_hash's chain. */
static void func_index_add(uint32_t fn, uint32_t name_hash)
{
	uint32_t *index = ltr_session->func_index;
	uint32_t n, empty;

	for (n = 0; n < FUNC_SMALL_PROBES + LTR_FUNC_HASH; n++) {
		empty = 0;
		if (__atomic_compare_exchange_n(&index[func_bucket(name_hash, n)],
						&empty, fn + 1, false,
						__ATOMIC_RELEASE,
						__ATOMIC_RELAXED))
			return;
	}
}

/* Claim and fill an entry of the session's function table; -1 if full. */
static int64_t func_new(const char *name, uint32_t name_hash,
			const struct ltr_object *obj, uint32_t flags,
			int32_t capture, uint32_t depth)
{
	struct ltr_session *s = ltr_session;
	int64_t found = func_find(name, name_hash, obj, flags, capture, depth);
	uint32_t fn;

	if (found >= 0)
		return found;
	fn = __atomic_fetch_add(&s->nfuncs, 1, __ATOMIC_ACQ_REL);
	if (fn >= LTR_MAX_FUNCS) {
		__atomic_store_n(&s->nfuncs, LTR_MAX_FUNCS, __ATOMIC_RELAXED);
		return -1;
	}
	s->funcs[fn].name = ltr_session_string(name);
	s->funcs[fn].lib = obj->name_off;
	s->funcs[fn].capture = capture;
	s->funcs[fn].depth = depth;
	__atomic_store_n(&s->funcs[fn].flags, flags | LTR_FN_READY,
			 __ATOMIC_RELEASE);
	func_index_add(fn, name_hash);
	return fn;
}

uintptr_t ltr_stub_for(uintptr_t addr, const char *name, uint32_t name_hash,
		       const struct ltr_object *obj,
		       const struct ltr_rule *rule)
{
	const struct ltr_capture *cap;
	int32_t capture;
	uint32_t flags, depth;
	int64_t idx, other, fn = -1;
	uintptr_t stub;

	if (ltr_is_stub(addr))
		return addr;
	if ((stub = stub_find(addr, name, name_hash)) != 0)
		return stub;
	if (!spin_lock())
		return 0;
	if ((stub = stub_find(addr, name, name_hash)) != 0) {
		spin_unlock();
		return stub;
	}
	if (!rule)
		rule = ltr_select_rule(obj, name);
	flags = entry_flags(name, name_hash) | (ltr_no_hijack ? LTR_FN_ENTRY_ONLY : 0) |
		(rule && (rule->flags & LTR_RULE_NOSTACK) ? LTR_FN_NOSTACK : 0);
	cap = capture_find(name, name_hash, &capture);
	depth = rule ? rule->depth : 0;
	idx = target_reuse(name, name_hash, obj, depth, &other);
	if (idx >= 0)
		fn = ltr_targets[idx].fn; /* the same function: its entry too */
	else if ((idx = ntargets) >= LTR_NSTUBS)
		idx = other;
	if (idx >= 0 && fn < 0)
		fn = func_new(name, name_hash, obj, flags, capture, depth);
	if (idx < 0 || fn < 0) {
		__atomic_fetch_add(&ltr_session->stubs_exhausted, 1,
				   __ATOMIC_RELAXED);
		spin_unlock();
		return 0;
	}
	hash_grow(); /* before idx changes: a reused one is forgotten still */
	ltr_targets[idx].addr = addr;
	ltr_targets[idx].fn = (uint32_t)fn;
	ltr_targets[idx].flags = flags;
	ltr_targets[idx].cap = cap;
	ltr_targets[idx].depth = depth;
	ltr_targets[idx].name_hash = name_hash;
	if (idx == ntargets)
		ntargets = (uint32_t)idx + 1;
	else
		nforgotten--;
	__atomic_store_n(&ltr_targets[idx].forgotten, 0, __ATOMIC_RELEASE);
	hash_put(hash_index, (uint32_t)idx);
	spin_unlock();
	return (uintptr_t)ltr_stubs + STUB_SIZE * (uint32_t)idx;
}

/*
 * Forget the targets of an unloaded object: a library loaded later at the
 * same address gets stubs of its own.  The targets keep leading to where
 * they led (la_objclose also runs at exit, while other threads may still
 * be calling through these stubs) until a new binding reuses them.
 */
void ltr_stubs_forget(uintptr_t start, uintptr_t end)
{
	uint32_t idx;

	if (!spin_lock())
		return;
	for (idx = 0; idx < ntargets; idx++)
		if (!ltr_targets[idx].forgotten &&
		    ltr_targets[idx].addr >= start && ltr_targets[idx].addr < end) {
			ltr_targets[idx].forgotten = 1;
			nforgotten++;
		}
	spin_unlock();
}

uint32_t ltr_stub_index(uintptr_t stub)
{
	return (uint32_t)((stub - (uintptr_t)ltr_stubs) / STUB_SIZE);
}

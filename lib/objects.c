/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * objects.c: the loaded objects, as the loader reports them (la_objopen).
 *
 * For each object we keep its names (path, soname, short name), the address
 * range of its segments (to tell which object a GLOB_DAT slot points into)
 * and its RELRO range (to patch read-only slots).  Objects are never freed:
 * a closed object is unlinked, and lookups made by a concurrent lazy binding
 * may still read it safely.  Their memory comes from mmap, not the audit
 * namespace's malloc, whose lock a forked child may find held forever.
 */
#include <elf.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "../common/select.h"
#include "capture.h"
#include "interposer.h"
#include "objects.h"
#include "sys.h"

static struct ltr_object *objects;
static struct ltr_object *main_object;

/* Find the DT_SONAME of obj, or NULL. */
static const char *soname_of(const struct ltr_object *obj)
{
	struct ltr_dynamic t;

	ltr_dynamic_read(obj, &t);
	return t.have_soname ? ltr_dynamic_str(&t, t.soname) : NULL;
}

/*
 * Zeroed memory for an object record or its short name.  The loader calls
 * la_objopen with its lock held, one object at a time: the bump pointer
 * needs no lock.
 */
static void *object_mem(size_t size)
{
	static unsigned char *next, *end;
	void *mem;

	size = (size + 15) & ~(size_t)15;
	if (size > 65536)
		return NULL;
	if (!next || (size_t)(end - next) < size) {
		void *p = ltr_mmap(NULL, 65536, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (ltr_map_error(p))
			return NULL;
		next = p;
		end = next + 65536;
	}
	mem = next;
	next += size;
	return mem;
}

/*
 * Set short_name (common/select.c's rule), whole however long: --list and
 * --read name the library as the trace does, and its glob matches it.
 */
static void short_name_of(struct ltr_object *obj)
{
	size_t len;
	const char *name = sel_short_name(obj->soname, obj->path,
					  obj->flags & LTR_OBJ_MAIN, &len);
	char *copy = object_mem(len + 1);

	if (!copy) {
		obj->short_name = "?";
		return;
	}
	ltr_strlcpy(copy, name, len + 1);
	obj->short_name = copy;
}

/* Record the segment and RELRO ranges of obj from its program headers. */
static void ranges_of(struct ltr_object *obj)
{
	const ElfW(Phdr) *ph = NULL;
	size_t i, n = 0;
	uintptr_t lo = UINTPTR_MAX, hi = 0, base = obj->map->l_addr;

	if (obj->flags & LTR_OBJ_MAIN) {
		ph = (const ElfW(Phdr) *)ltr_getauxval(AT_PHDR);
		n = ltr_getauxval(AT_PHNUM);
		/* The load bias of a PIE program: where its PT_PHDR landed. */
		for (i = 0; ph && i < n; i++)
			if (ph[i].p_type == PT_PHDR)
				base = (uintptr_t)ph - ph[i].p_vaddr;
		if (base == 0)
			obj->flags |= LTR_OBJ_NONPIE;
	} else {
		const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)obj->map->l_addr;

		if (eh && eh->e_ident[EI_MAG0] == ELFMAG0 &&
		    eh->e_ident[EI_MAG1] == ELFMAG1 &&
		    eh->e_ident[EI_MAG2] == ELFMAG2 &&
		    eh->e_ident[EI_MAG3] == ELFMAG3) {
			ph = (const ElfW(Phdr) *)((const char *)eh + eh->e_phoff);
			n = eh->e_phnum;
		}
	}
	for (i = 0; ph && i < n; i++) {
		if (ph[i].p_type == PT_LOAD) {
			if (base + ph[i].p_vaddr < lo)
				lo = base + ph[i].p_vaddr;
			if (base + ph[i].p_vaddr + ph[i].p_memsz > hi)
				hi = base + ph[i].p_vaddr + ph[i].p_memsz;
		} else if (ph[i].p_type == PT_GNU_RELRO) {
			/* The pages the loader protects: a partial last page stays writable. */
			obj->relro_start = (base + ph[i].p_vaddr) & ~4095ul;
			obj->relro_end = (base + ph[i].p_vaddr + ph[i].p_memsz) & ~4095ul;
		}
	}
	if (hi > lo) {
		obj->start = lo;
		obj->end = hi;
	}
	obj->bias = base;
	obj->phdr = ph;
	obj->phnum = n;
}

/*
 * Room for s in strings[], taken with a compare-and-swap that never moves
 * strings_used past the end: the traced program can write strings_used
 * (it maps the session), so an offset near 2^32 must not wrap the bound
 * check, and a full table stays full rather than wrapping back to 0.
 */
uint32_t ltr_session_string(const char *s)
{
	size_t n = ltr_strlen(s) + 1;
	uint32_t len, off;

	if (n > LTR_STRINGS_SIZE)
		return 0;
	len = (uint32_t)n;
	off = __atomic_load_n(&ltr_session->strings_used, __ATOMIC_RELAXED);
	do {
		if (off > LTR_STRINGS_SIZE - len)
			return 0;
	} while (!__atomic_compare_exchange_n(&ltr_session->strings_used, &off,
					      off + len, false,
					      __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	ltr_strlcpy(ltr_session->strings + off, s, len);
	return off;
}

/*
 * Claim the next object record into *i.  The records are a ring: when
 * ltruss keeps them (a view that names addresses: -k, --caller, --heap,
 * -w), the slot of claim n holds claim n - LTR_MAX_OBJECTS until ltruss
 * has copied it, and the process waits for that before it claims, as for
 * room in its ring of events; so a claimed record is always being written,
 * and ltruss never waits long at one.  Otherwise nobody reads them and
 * the slot is taken at once.  False: not stored (ltruss gone, tracing
 * stopped, --drop), counted in objects_lost.
 */
static bool object_claim(uint32_t *i)
{
	struct ltr_session *s = ltr_session;
	unsigned still = 0, spins = 0;
	uint32_t beat = 0, n = __atomic_load_n(&s->nobjects, __ATOMIC_RELAXED);

	for (;;) {
		/* Signed: the copied mark is ltruss's, the claims anybody's. */
		if (__atomic_load_n(&s->objects_kept, __ATOMIC_RELAXED) &&
		    (int32_t)(n - __atomic_load_n(&s->objects_copied,
						  __ATOMIC_ACQUIRE)) >=
			    LTR_MAX_OBJECTS) {
			if (!ltr_may_wait() || !ltr_sys_ok(SYS_nanosleep) ||
			    !ltr_reader_nap(&beat, &still, &spins)) {
				__atomic_fetch_add(&s->objects_lost, 1,
						   __ATOMIC_RELAXED);
				return false;
			}
			n = __atomic_load_n(&s->nobjects, __ATOMIC_RELAXED);
		} else if (__atomic_compare_exchange_n(&s->nobjects, &n, n + 1,
						       false, __ATOMIC_ACQ_REL,
						       __ATOMIC_RELAXED)) {
			*i = n;
			return true;
		}
	}
}

/*
 * A path the loader kept as it was given, relative: dlopen("./x.so") (a
 * name with a slash is opened as it stands, not searched), or a
 * DT_NEEDED with a slash.  The loader opened it from the working
 * directory of that moment, which is still this thread's as the object
 * is reported (mapped, not yet run).  Made absolute into buf; false if
 * the directory is unknown or it does not fit.  The vDSO's name has no
 * slash: it has no file.
 */
static bool absolute_path(const char *path, char *buf, size_t size)
{
	size_t k, n = ltr_strlen(path);
	long len;

	for (k = 0; k < n && path[k] != '/'; k++)
		;
	if (k == n || (len = ltr_getcwd(buf, size)) <= 1 || buf[0] != '/')
		return false;
	len--; /* the NUL counted */
	while (path[0] == '.' && path[1] == '/') {
		path += 2;
		n -= 2;
	}
	if ((size_t)len + 1 + n + 1 > size)
		return false;
	if (buf[len - 1] != '/') /* "/" alone ends in one */
		buf[len++] = '/';
	ltr_strlcpy(buf + len, path, size - (size_t)len);
	return true;
}

/* Record obj in the session, so that ltruss can symbolize addresses in it. */
static void object_record(const struct ltr_object *obj)
{
	char exe[4096];
	const char *path = obj->path;
	struct ltr_objrec *rec;
	uint32_t i, path_off;
	int32_t pid;
	uint64_t mapped;
	ssize_t n;

	if (!obj->end)
		return;
	if (obj->flags & LTR_OBJ_MAIN) {
		n = ltr_readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			return;
		exe[n] = '\0';
		path = exe;
	} else if (*path && path[0] != '/') {
		if (!absolute_path(path, exe, sizeof(exe)))
			return; /* the vDSO: no file */
		path = exe;
	}
	if (!*path)
		return;
	/*
	 * ltruss reads the records in order and waits at one claimed but not
	 * written (its seq not yet the claim's): what goes before the claim
	 * (a system call, the path's copy) is done first, so that a process
	 * preempted or killed holds up the records after its own for a few
	 * stores at most (a second at most: then ltruss goes past it).  seq
	 * is written last, released.
	 */
	pid = (int32_t)ltr_getpid();
	/*
	 * Mapped, not yet relocated nor run: every call made in it, from
	 * its constructors on, is stamped later; read before the claim, so
	 * that one process's records are in the order of their times.
	 */
	mapped = ltr_now();
	path_off = ltr_session_string(path);
	if (!object_claim(&i))
		return;
	rec = &ltr_session->objects[i % LTR_MAX_OBJECTS];
	rec->pid = pid;
	rec->path = path_off;
	rec->start = obj->start;
	rec->end = obj->end;
	rec->bias = obj->bias;
	rec->mapped = mapped;
	__atomic_store_n(&rec->seq, i + 1, __ATOMIC_RELEASE);
}

struct ltr_object *ltr_object_add(struct link_map *map, Lmid_t lmid)
{
	struct ltr_object *obj = object_mem(sizeof(*obj));

	if (!obj)
		return NULL;
	obj->map = map;
	obj->lmid = lmid;
	obj->path = map->l_name ? map->l_name : "";
	if (!main_object && lmid == LM_ID_BASE && obj->path[0] == '\0') {
		obj->flags |= LTR_OBJ_MAIN;
		main_object = obj;
	}
	ranges_of(obj); /* first: the dynamic data is read only inside its segments */
	ltr_dynamic_load(obj);
	obj->soname = soname_of(obj);
	short_name_of(obj);
	obj->name_off = ltr_session_string(obj->short_name);
	object_record(obj);
	if (ltr_select_lib(obj))
		obj->flags |= LTR_OBJ_TO;
	if (ltr_select_from(obj))
		obj->flags |= LTR_OBJ_FROM;
	__atomic_fetch_add(&ltr_session->objects_seen, 1, __ATOMIC_RELAXED);
	obj->next = objects;
	__atomic_store_n(&objects, obj, __ATOMIC_RELEASE);
	return obj;
}

void ltr_object_remove(struct ltr_object *obj)
{
	struct ltr_object **p;

	for (p = &objects; *p; p = &(*p)->next) {
		if (*p == obj) {
			__atomic_store_n(p, obj->next, __ATOMIC_RELEASE);
			return;
		}
	}
}

struct ltr_object *ltr_object_at(uintptr_t addr)
{
	struct ltr_object *obj;

	for (obj = __atomic_load_n(&objects, __ATOMIC_ACQUIRE); obj;
	     obj = obj->next)
		if (addr >= obj->start && addr < obj->end)
			return obj;
	return NULL;
}

bool ltr_object_main_nonpie(void)
{
	return main_object && (main_object->flags & LTR_OBJ_NONPIE);
}

struct ltr_object *ltr_object_libc(void)
{
	struct ltr_object *obj;

	for (obj = __atomic_load_n(&objects, __ATOMIC_ACQUIRE); obj;
	     obj = obj->next)
		if (obj->lmid == LM_ID_BASE &&
		    ltr_strcmp(obj->short_name, "libc") == 0)
			return obj;
	return NULL;
}

/* The address of the defined symbol name of type in obj, or NULL. */
static void *object_symbol(const struct ltr_object *obj, const char *name,
			   int type)
{
	const ElfW(Sym) *sym = obj ? ltr_dynamic_find(obj, name, type) : NULL;

	return sym ? (void *)(obj->map->l_addr + sym->st_value) : NULL;
}

void *ltr_libc_function(const char *name)
{
	return object_symbol(ltr_object_libc(), name, STT_FUNC);
}

void *ltr_libc_data(const char *name)
{
	void *p;

	/* A copy relocation puts the variable in the program: look there first. */
	p = object_symbol(main_object, name, STT_OBJECT);
	if (p)
		return p;
	return object_symbol(ltr_object_libc(), name, STT_OBJECT);
}

const ElfW(Phdr) *ltr_object_segment(const struct ltr_object *obj,
				     uintptr_t addr)
{
	const ElfW(Phdr) *ph = obj->phdr;
	size_t i;

	for (i = 0; ph && i < obj->phnum; i++) {
		uintptr_t lo = obj->bias + ph[i].p_vaddr;

		if (ph[i].p_type == PT_LOAD && addr >= lo &&
		    addr - lo < ph[i].p_memsz)
			return &ph[i];
	}
	return NULL;
}

void ltr_object_each(void (*fn)(struct ltr_object *obj))
{
	struct ltr_object *obj;

	for (obj = __atomic_load_n(&objects, __ATOMIC_ACQUIRE); obj;
	     obj = obj->next)
		fn(obj);
}

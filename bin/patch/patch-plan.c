/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * patch-plan.c: which selected functions entry patching can take, and the
 * plan of each that the interposer applies (lib/entry-patch.c).
 *
 * A '::' rule selects the calls an object makes to itself; most of them
 * never pass through the loader (direct calls, static functions), so the
 * function's entry is patched: a 5-byte jmp (after endbr64) to a code area
 * near the object, where a per-function jump reaches the function's stub,
 * and a relocated copy of the displaced instructions, then a jmp back,
 * stands for the function itself.  Every view of the trace works on it as
 * on a bound call: the stub and everything behind it are the same.
 *
 * Who does what.  The interposer must stay libc-only and small, so all the
 * decoding is done here, with Zydis: ltruss reads the symbols (.symtab,
 * else .dynsym), decodes the whole executable part of the object once to
 * collect every direct branch target, and for each selected function
 * decides.  It refuses a function when its first bytes end it (ret, jmp,
 * ud2, int3, hlt), when a call or system call is among them (its return
 * address would lie in the moved bytes), when an instruction among them
 * cannot move (loop, jrcxz, xbegin), when the function is shorter than
 * the 5 bytes, or when ANY direct branch of the object lands inside them
 * (other functions jump into libc's prologues) or the function's own loop
 * jumps back to its entry (each turn would count as a call).  Otherwise
 * the plan holds the moved bytes re-encoded (jcc rel8 as rel32), with the
 * RIP-relative fields expressed as ELF virtual addresses: the interposer
 * only copies, adds the load bias, and writes.
 *
 * How the plan reaches the interposer.  ltruss knows before the start what
 * the program loads (deps.c asks the loader), so it plans the program and
 * its start-up libraries then, into the session (patches[]), keyed by the
 * object's path and checked by the bytes expected at each function: the
 * interposer applies them in la_objopen, before any code of the object
 * runs, and no start-up waits on ltruss.  A library opened later with
 * dlopen cannot be known before: its la_objopen asks ltruss (a request in
 * the session, patch_serve answers it from the passes over the rings) and
 * waits.  That dlopen holds the loader's lock meanwhile, so other threads'
 * dlopen and lazy bindings wait too, once per library; the threads that
 * only run code go on.  Planning in the interposer instead would put a
 * decoder and ELF reader into every traced process.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/select.h"
#include "captures.h"
#include "deps.h"
#include "error.h"
#include "patch-image.h"
#include "patch-plan.h"
#include "target.h"
#include "xmalloc.h"

/* Why a branch into [start, start + len) of f forbids patching it, or NULL. */
static const char *branches_check(const struct image *im, const struct fn *f,
				  uint64_t start, size_t len, char *why,
				  size_t size)
{
	size_t i;

	for (i = branch_from(im, f->vaddr); i < im->scan.nbranches &&
					     im->scan.branches[i].target < start + len;
	     i++) {
		const struct patch_branch *b = &im->scan.branches[i];
		bool own = b->from >= f->vaddr && b->from < f->vaddr + f->size;

		if (b->target > start) {
			snprintf(why, size,
				 "a branch at 0x%llx lands inside its first %zu bytes",
				 (unsigned long long)b->from, len);
			return why;
		}
		if (own && !b->call) {
			snprintf(why, size,
				 "its loop jumps back to its entry (at 0x%llx)",
				 (unsigned long long)b->from);
			return why;
		}
	}
	return NULL;
}

/* Add a fixup of the 32-bit field at code[at] of an instruction ending at code[end]. */
static bool fixup_add(struct ltr_patch *p, size_t at, size_t end,
		      uint64_t target)
{
	if (p->nfixups >= LTR_PATCH_FIXUPS)
		return false;
	p->fixups[p->nfixups++] = (struct ltr_patch_fixup){
		.at = (uint8_t)at, .end = (uint8_t)end, .target = target
	};
	return true;
}

/* Why the instruction in cannot be moved out of a function's entry, or NULL. */
static const char *unmovable(const ZydisDecodedInstruction *in)
{
	switch (in->meta.category) {
	case ZYDIS_CATEGORY_RET:
		return "its first bytes end it (ret)";
	case ZYDIS_CATEGORY_UNCOND_BR:
		return "its first bytes end it (jmp)";
	case ZYDIS_CATEGORY_INTERRUPT:
		return "its first bytes end it (int3)";
	case ZYDIS_CATEGORY_CALL:
		return "a call is among its first bytes";
	case ZYDIS_CATEGORY_SYSCALL:
		return "a system call is among its first bytes";
	default:
		break;
	}
	if (in->mnemonic == ZYDIS_MNEMONIC_UD2 || in->mnemonic == ZYDIS_MNEMONIC_UD0 ||
	    in->mnemonic == ZYDIS_MNEMONIC_UD1)
		return "its first bytes end it (ud2)";
	if (in->mnemonic == ZYDIS_MNEMONIC_HLT)
		return "its first bytes end it (hlt)";
	if (in->raw.imm[0].is_relative && in->meta.category != ZYDIS_CATEGORY_COND_BR)
		return "an instruction among its first bytes cannot move (loop, jrcxz, xbegin)";
	if (in->meta.category == ZYDIS_CATEGORY_COND_BR &&
	    in->raw.imm[0].size == 8 && (in->opcode & 0xf0) != 0x70)
		return "an instruction among its first bytes cannot move (loop, jrcxz)";
	return NULL;
}

/* Move one instruction in, decoded at vaddr from bytes, into p's code; NULL or why not. */
static const char *move_insn(struct ltr_patch *p,
			     const ZydisDecodedInstruction *in,
			     const uint8_t *bytes, uint64_t vaddr)
{
	size_t at = p->code_len;
	const char *why;

	if ((why = unmovable(in)) != NULL)
		return why;
	if (at + in->length + 4 > LTR_PATCH_CODE)
		return "its first instructions are too long to move";
	if (in->meta.category == ZYDIS_CATEGORY_COND_BR && in->raw.imm[0].size == 8) {
		/* jcc rel8 becomes jcc rel32: 0f 80+cc */
		p->code[at] = 0x0f;
		p->code[at + 1] = (uint8_t)(0x80 | (in->opcode & 0x0f));
		p->code_len = (uint8_t)(at + 6);
		return fixup_add(p, at + 2, at + 6, rel_target(in, vaddr)) ?
			       NULL : "too many relative fields to move";
	}
	memcpy(p->code + at, bytes, in->length);
	p->code_len = (uint8_t)(at + in->length);
	if (in->raw.imm[0].is_relative) {
		if (in->raw.imm[0].size != 32)
			return "an instruction among its first bytes cannot move";
		return fixup_add(p, at + in->raw.imm[0].offset, at + in->length,
				 rel_target(in, vaddr)) ?
			       NULL : "too many relative fields to move";
	}
	if ((in->attributes & ZYDIS_ATTRIB_HAS_MODRM) && in->raw.modrm.mod == 0 &&
	    in->raw.modrm.rm == 5) {
		if (in->raw.disp.size != 32)
			return "an instruction among its first bytes cannot move";
		return fixup_add(p, at + in->raw.disp.offset, at + in->length,
				 rel_target(in, vaddr)) ?
			       NULL : "too many relative fields to move";
	}
	return NULL;
}

/* Plan f of im into p; NULL, or why it cannot be patched (in why, or static). */
static const char *plan_one(const struct image *im, const struct fn *f,
			    struct ltr_patch *p, char *why, size_t size)
{
	static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	uint64_t avail, start, off = 0;
	const uint8_t *bytes = text_at(im, f->vaddr, &avail);
	const char *err;
	size_t skip;

	if (!bytes)
		return "its code is not in the file";
	if (f->vaddr == im->entry)
		return "it is the entry point: nothing calls it, it never returns";
	if (avail > f->size && f->size)
		avail = f->size;
	skip = avail >= 4 && memcmp(bytes, endbr64, 4) == 0 ? 4 : 0;
	start = f->vaddr + skip;
	if (avail < skip + 5) {
		snprintf(why, size,
			 "it is %llu bytes long, too short to patch (%zu bytes are needed)",
			 (unsigned long long)avail, skip + 5);
		return why;
	}
	memset(p, 0, sizeof(*p));
	while (off < 5) {
		ZydisDecodedInstruction in;

		if (!image_decode(bytes + skip + off, avail - skip - off, &in))
			return "its first bytes do not decode";
		if ((err = move_insn(p, &in, bytes + skip + off, start + off)) != NULL)
			return err;
		off += in.length;
	}
	if (off > LTR_PATCH_ORIG)
		return "its first instructions are too long to move";
	if ((err = branches_check(im, f, start, off, why, size)) != NULL)
		return err;
	p->vaddr = start;
	p->len = (uint8_t)off;
	memcpy(p->orig, bytes + skip, off);
	return NULL;
}

bool patch_glob_exact(const char *glob)
{
	return !strpbrk(glob, "*?[");
}

/* The include rule with '::' that decides for f in im, or NULL. */
static const struct ltr_rule *rule_of(const struct image *im,
				      const struct fn *f,
				      const struct selection *sel)
{
	size_t i = sel_rule_of(sel->rules, sel->nrules, f->name, SEL_SELF,
			       &im->names);

	return i < sel->nrules ? &sel->rules[i] : NULL;
}

/*
 * The C runtime's start-up and exit code the compiler links into every
 * object, and IFUNC resolvers: the program never calls them (the loader
 * does), so a glob does not patch them, only their exact name.
 */
static bool crt_function(const struct image *im, const struct fn *f)
{
	static const char *const names[] = {
		"_init", "_fini", "_start", "frame_dummy",
		"register_tm_clones", "deregister_tm_clones",
		"__do_global_dtors_aux", "_dl_relocate_static_pie",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(f->name, names[i]) == 0)
			return true;
	for (i = 0; i < im->nresolvers; i++)
		if (im->resolvers[i] == f->vaddr)
			return true;
	return false;
}

size_t patch_mark_selected(struct image *im, const struct selection *sel)
{
	uint64_t taken = 0;
	size_t i, n = 0;

	for (i = 0; i < im->nfns; i++) {
		struct fn *f = &im->fns[i];

		if (n && f->vaddr == taken)
			continue;
		f->selected = sel_selected(sel->rules, sel->nrules, f->name,
					   SEL_SELF, &im->names) &&
			      (!crt_function(im, f) ||
			       patch_glob_exact(rule_of(im, f, sel)->func));
		if (f->selected) {
			taken = f->vaddr;
			n++;
		}
	}
	return n;
}

/* Plan the selected functions of im into s; say those refused. */
static void image_plan(struct image *im, struct ltr_session *s,
		       const struct selection *sel, struct patch_report *rep)
{
	uint32_t path_off = 0;
	char why[160];
	size_t i;

	for (i = 0; i < im->nfns; i++) {
		const struct fn *f = &im->fns[i];
		const struct ltr_rule *r;
		struct ltr_patch p;
		const char *err;

		if (!f->selected)
			continue;
		err = plan_one(im, f, &p, why, sizeof(why));
		if (!err && s && s->npatches >= LTR_MAX_PATCHES)
			err = "more functions were selected than can be patched";
		if (rep) {
			rep->fn(rep->ctx, im->short_name, f->name, err,
				err ? 0 : p.len);
			continue;
		}
		if (err) {
			/* A glob's refusals: --list names them */
			r = rule_of(im, f, sel);
			if (r && patch_glob_exact(r->func))
				warning_msg("%s::%s is not traced: %s",
					    im->short_name, f->name, err);
			continue;
		}
		if (!s)
			continue;
		if (!path_off)
			path_off = session_intern(s, im->path);
		p.object = path_off;
		p.name = session_intern(s, f->name);
		s->patches[s->npatches] = p;
		/* processes may be reading: the entry first */
		__atomic_store_n(&s->npatches, s->npatches + 1, __ATOMIC_RELEASE);
	}
}

/* The rule's library is only the program: "a.out" or "main". */
static bool rule_main_only(const struct ltr_rule *r)
{
	return strcmp(r->lib, "a.out") == 0 || strcmp(r->lib, "main") == 0;
}

/*
 * Do some include rules have '::' (1; 2 when one may select functions of
 * a library)?
 */
static int wants_patching(const struct selection *sel)
{
	size_t i;
	int want = 0;

	for (i = 0; i < sel->nrules; i++)
		if ((sel->rules[i].flags & LTR_RULE_INNER) &&
		    !(sel->rules[i].flags & LTR_RULE_EXCLUDE))
			want = rule_main_only(&sel->rules[i]) && want < 2 ? 1 : 2;
	return want;
}

/*
 * The '::' rules that name one function exactly, and what the objects
 * planned said of each: a name no object of the rule's library has
 * (a static function of a stripped program, a typo) traces nothing, and
 * the end of the run says so rather than show a silent zero.
 */
static struct {
	const char *path; /* an object of the rule's library, or NULL: none seen */
	bool stripped;    /* ... that has no .symtab */
	bool found;       /* some object of the library has the function */
} *named;
static size_t nnamed;

/* Is rule r an include rule with '::' that names one function? */
static bool rule_names_one(const struct ltr_rule *r)
{
	return (r->flags & LTR_RULE_INNER) && !(r->flags & LTR_RULE_EXCLUDE) &&
	       patch_glob_exact(r->func);
}

/* Note, for each rule_names_one() rule of im's library, whether im has its function. */
static void named_note(const struct image *im, const struct selection *sel)
{
	size_t i, j;

	if (!named) {
		nnamed = sel->nrules;
		named = xcalloc(nnamed ? nnamed : 1, sizeof(*named));
	}
	for (i = 0; i < sel->nrules && i < nnamed; i++) {
		const struct ltr_rule *r = &sel->rules[i];

		if (!rule_names_one(r) || !sel_lib_matches(r->lib, &im->names))
			continue;
		if (!named[i].path) {
			named[i].path = xstrdup(im->path);
			named[i].stripped = im->stripped;
		}
		for (j = 0; j < im->nfns && !named[i].found; j++)
			named[i].found = strcmp(im->fns[j].name, r->func) == 0;
	}
}

/* Say each rule_names_one() rule whose function no object of its library had. */
static void named_report(const struct selection *sel)
{
	size_t i;

	for (i = 0; i < nnamed && i < sel->nrules; i++) {
		const struct ltr_rule *r = &sel->rules[i];

		if (named[i].path && !named[i].found)
			warning_msg("-u '%s::%s' traced nothing: %s has no function of that name%s",
				    r->lib, r->func, named[i].path,
				    named[i].stripped ? " among those it exports (it has no symbol table of its own: its debug file would name its static functions)" : "");
		free((char *)named[i].path);
	}
	free(named);
	named = NULL;
	nnamed = 0;
}

/* Plan (or report) the object at path, if a '::' rule may select its functions. */
static void object_plan(const char *path, bool main, struct ltr_session *s,
			const struct selection *sel, struct patch_report *rep)
{
	struct image im;

	if (!image_open(&im, path, main ? IMAGE_MAIN : 0))
		return;
	if (sel_lib_wanted(sel->rules, sel->nrules, &im.names) &&
	    image_read(&im)) {
		if (!rep)
			named_note(&im, sel);
		if (patch_mark_selected(&im, sel)) {
			image_scan(&im, NULL);
			image_plan(&im, s, sel, rep);
		}
	}
	image_close(&im);
}

/* The run's selection, and the paths planned, for the requests of patch_serve. */
static const struct selection *run_sel;
static char **planned;
static size_t nplanned;

/* Remember that path was planned. */
static void planned_add(const char *path)
{
	planned = xrealloc(planned, (nplanned + 1) * sizeof(*planned));
	planned[nplanned++] = xstrdup(path);
}

/* Was path planned already? */
static bool planned_has(const char *path)
{
	size_t i;

	for (i = 0; i < nplanned; i++)
		if (strcmp(planned[i], path) == 0)
			return true;
	return false;
}

bool patch_serving(void)
{
	return run_sel != NULL;
}

void patch_serve(struct ltr_session *s)
{
	uint32_t off;
	const char *path;

	if (!run_sel ||
	    __atomic_load_n(&s->patch_req, __ATOMIC_ACQUIRE) != LTR_PATCH_REQ_ASKED)
		return;
	/* Written by the traced program: a path within the strings, or none. */
	off = s->patch_req_path;
	path = off < LTR_STRINGS_SIZE &&
			       memchr(s->strings + off, '\0', LTR_STRINGS_SIZE - off) ?
		       s->strings + off : NULL;
	if (path && path[0] == '/' && !planned_has(path)) {
		planned_add(path);
		object_plan(path, s->patch_req_main == 1, s, run_sel, NULL);
	}
	__atomic_store_n(&s->patch_req, LTR_PATCH_REQ_ANSWERED, __ATOMIC_RELEASE);
}

void patch_plan(struct ltr_session *s, const char *command,
		const struct selection *sel, struct patch_report *rep)
{
	int want = wants_patching(sel);
	struct target t;
	struct dep *deps;
	size_t n, i;
	char *exe;

	/* A patched call's caller is not known: --from cannot narrow it. */
	if (sel->nfrom)
		return;
	if (!want)
		return;
	elf_version(EV_CURRENT);
	image_decoder_init();
	target_locate(command, &t);
	/* The interposer knows the program by /proc/self/exe: no link in it */
	exe = realpath(t.elf, NULL);
	object_plan(exe ? exe : t.elf, true, s, sel, rep);
	free(exe);
	n = want == 2 ? deps_list(t.loader, t.elf, &deps) : 0;
	for (i = 0; i < n; i++) {
		if (!deps[i].path)
			continue;
		object_plan(deps[i].path, false, s, sel, rep);
		if (!rep)
			planned_add(deps[i].path);
	}
	/* Libraries opened later are planned when the program asks. */
	if (!rep)
		run_sel = sel;
	if (want == 2)
		deps_free(deps, n);
	free(t.path);
	free(t.elf);
	free(t.loader);
}

/* Why the interposer did not apply a plan (LTR_PATCH_E*). */
static const char *failure_text(uint32_t why)
{
	switch (why) {
	case LTR_PATCH_EBYTES:
		return "its first bytes in the process are not those of the file ltruss read";
	case LTR_PATCH_EAREA:
		return "no code area could be mapped within 2 GiB of it";
	case LTR_PATCH_EMEM:
		return "the system refused the write through /proc/self/mem";
	default:
		return "no stub was left for it";
	}
}

void patch_failures(const struct ltr_session *s)
{
	uint32_t i, n = s->npatches < LTR_MAX_PATCHES ? s->npatches : LTR_MAX_PATCHES;

	for (i = 0; i < n; i++) {
		const struct ltr_patch *p = &s->patches[i];
		uint32_t why = __atomic_load_n(&p->failed, __ATOMIC_RELAXED);

		if (why && !__atomic_load_n(&p->applied, __ATOMIC_RELAXED))
			warning_msg("%s is not traced in '%s': %s",
				    s->strings + p->name, s->strings + p->object,
				    failure_text(why));
	}
	for (i = 0; i < nplanned; i++)
		free(planned[i]);
	free(planned);
	planned = NULL;
	nplanned = 0;
	if (run_sel)
		named_report(run_sel);
	run_sel = NULL;
}

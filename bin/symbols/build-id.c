/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * build-id.c: what a trace file says of the objects a traced process
 * loaded, read from their files: the GNU build ID (the NT_GNU_BUILD_ID
 * note the linker writes), so that an unwinder reading a file later (-k)
 * can tell whether the library on disk is still the one that ran, and
 * the soname, so that --read -u matches a library by it as live -u does.
 * Each path is read once while its file stays the same (with -f, every
 * process loads the same libraries).  Reading a file (--read), the IDs
 * it recorded are expected; a file whose ID differs, or that is gone,
 * gets one warning when its names or unwind information are first
 * looked at.
 */
#include "config.h"

#include <sys/stat.h>

#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "build-id.h"
#include "error.h"
#include "fd-util.h"
#include "session-check.h"
#include "strmap.h"
#include "xmalloc.h"

struct known {
	struct stat st; /* the file as it was read: a new one is read again */
	size_t len;
	unsigned char id[BUILD_ID_MAX];
	char *soname; /* DT_SONAME, or NULL */
	bool unreadable; /* its file could not be opened as ELF */
};

/* A build ID a trace file recorded. */
struct id {
	size_t len;
	unsigned char id[BUILD_ID_MAX];
};

/* The build IDs recorded for one path (a file replaced during -f: several). */
struct expected {
	bool checked; /* looked at already */
	size_t n;
	struct id *v;
};

/*
 * Files read (path: struct known), and IDs expected (path: struct
 * expected): a trace file names up to CATALOG_MAX_OBJECTS objects, and each
 * lookup costs the same however many there are.
 */
static struct strmap known, expected;

/* The build ID note among the notes of section scn, into k. */
static void notes_read(Elf_Scn *scn, struct known *k)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr note;

	while (data && (off = gelf_getnote(data, off, &note, &name_off,
					   &desc_off)) > 0) {
		if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
		    memcmp((char *)data->d_buf + name_off, "GNU", 4) == 0 &&
		    note.n_descsz && note.n_descsz <= BUILD_ID_MAX) {
			memcpy(k->id, (char *)data->d_buf + desc_off,
			       note.n_descsz);
			k->len = note.n_descsz;
			return;
		}
	}
}

/* The DT_SONAME of the dynamic section scn (its header sh), into k. */
static void soname_read(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			struct known *k)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	const char *name;
	GElf_Dyn dyn;
	size_t i;

	for (i = 0; data && sh->sh_entsize &&
		    i < sh->sh_size / sh->sh_entsize &&
		    gelf_getdyn(data, (int)i, &dyn); i++) {
		if (dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag != DT_SONAME)
			continue;
		name = elf_strptr(elf, sh->sh_link, dyn.d_un.d_val);
		if (name && *name)
			k->soname = xstrdup(name);
		return;
	}
}

/* Is the file a and the file b the same, unchanged? */
static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Read path's build ID and soname into k. */
static void known_read(struct known *k, const char *path)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;
	int fd;

	elf = fd_elf_open(path, &fd);
	if (!elf) {
		k->unreadable = true;
		return;
	}
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_NOTE && !k->len)
			notes_read(scn, k);
		else if (sh.sh_type == SHT_DYNAMIC && !k->soname)
			soname_read(elf, scn, &sh, k);
	}
	fd_elf_close(elf, fd);
}

/*
 * What path says of itself: read once, and again when the file has
 * changed since (a library or program replaced during a -f recording).
 */
static const struct known *known_of(const char *path)
{
	struct known **kp = (struct known **)strmap_slot(&known, path), *k;
	struct stat st;

	if (stat(path, &st) != 0)
		memset(&st, 0, sizeof(st));
	if (*kp && same_file(&(*kp)->st, &st))
		return *kp;
	if (!*kp)
		*kp = xcalloc(1, sizeof(**kp));
	k = *kp;
	free(k->soname);
	k->soname = NULL;
	k->len = 0;
	k->unreadable = false;
	k->st = st;
	known_read(k, path);
	return k;
}

size_t build_id_read(const char *path, unsigned char *id, const char **soname)
{
	const struct known *k = known_of(path);

	memcpy(id, k->id, k->len);
	*soname = k->soname;
	return k->len;
}

void build_id_expect(const char *path, const unsigned char *id, size_t n)
{
	struct expected **ep = (struct expected **)strmap_slot(&expected, path);
	struct expected *e;

	if (!*ep)
		*ep = xcalloc(1, sizeof(**ep));
	e = *ep;
	/* At most one per object recorded (tracefile-read.c): no search. */
	e->v = xrealloc(e->v, (e->n + 1) * sizeof(*e->v));
	e->v[e->n].len = n < BUILD_ID_MAX ? n : BUILD_ID_MAX;
	memcpy(e->v[e->n].id, id, e->v[e->n].len);
	e->n++;
}

/*
 * Say once what is wrong with path's file against the IDs the trace
 * recorded for it so far: gone or unreadable, or none of them (a program
 * replaced during a -f recording has two, one a process).
 */
void build_id_check(const char *path)
{
	struct expected *e = strmap_get(&expected, path);
	const struct known *k;
	char printable[1024];
	bool match = false;
	size_t i;

	if (!e || e->checked)
		return;
	e->checked = true;
	k = known_of(path);
	for (i = 0; i < e->n && !match; i++)
		match = k->len == e->v[i].len &&
			memcmp(k->id, e->v[i].id, k->len) == 0;
	if (match)
		return;
	check_name(printable, sizeof(printable), path);
	if (k->unreadable)
		warning_msg("'%s' cannot be read: no names or stacks from it",
			    printable);
	else
		warning_msg("'%s' is not the file that ran (its build ID differs): names and stacks from it may be wrong",
			    printable);
}

/* Free a struct known. */
static void known_free(void *p)
{
	struct known *k = p;

	free(k->soname);
	free(k);
}

/* Free a struct expected. */
static void expected_free(void *p)
{
	struct expected *e = p;

	free(e->v);
	free(e);
}

void build_id_done(void)
{
	strmap_clear(&known, known_free);
	strmap_clear(&expected, expected_free);
}

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
#include "xmalloc.h"

struct known {
	struct known *next;
	char *path;
	struct stat st; /* (known) the file as it was read: a new one is read again */
	size_t len;
	unsigned char id[BUILD_ID_MAX];
	bool checked; /* (expected) looked at already */
	char *soname; /* DT_SONAME, or NULL */
	bool unreadable; /* (known) its file could not be opened as ELF */
};

static struct known *known, *expected;

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
	struct stat st;
	struct known *k;

	if (stat(path, &st) != 0)
		memset(&st, 0, sizeof(st));
	for (k = known; k; k = k->next)
		if (strcmp(k->path, path) == 0)
			break;
	if (k && same_file(&k->st, &st))
		return k;
	if (!k) {
		k = xcalloc(1, sizeof(*k));
		k->path = xstrdup(path);
		k->next = known;
		known = k;
	}
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
	struct known *e;

	for (e = expected; e; e = e->next)
		if (strcmp(e->path, path) == 0 && e->len == n &&
		    memcmp(e->id, id, n) == 0)
			return;
	e = xcalloc(1, sizeof(*e));
	e->path = xstrdup(path);
	e->len = n < BUILD_ID_MAX ? n : BUILD_ID_MAX;
	memcpy(e->id, id, e->len);
	e->next = expected;
	expected = e;
}

/*
 * Say once what is wrong with path's file against the IDs the trace
 * recorded for it so far: gone or unreadable, or none of them (a program
 * replaced during a -f recording has two, one a process).
 */
void build_id_check(const char *path)
{
	const struct known *k = NULL;
	char printable[1024];
	bool match = false;
	struct known *e;

	for (e = expected; e; e = e->next) {
		if (strcmp(e->path, path) != 0)
			continue;
		if (e->checked)
			return;
		e->checked = true;
		if (!k)
			k = known_of(path);
		match |= k->len == e->len && memcmp(k->id, e->id, e->len) == 0;
	}
	if (!k || match)
		return;
	check_name(printable, sizeof(printable), path);
	if (k->unreadable)
		warning_msg("'%s' cannot be read: no names or stacks from it",
			    printable);
	else
		warning_msg("'%s' is not the file that ran (its build ID differs): names and stacks from it may be wrong",
			    printable);
}

/* Free the list at *list. */
static void known_free(struct known **list)
{
	while (*list) {
		struct known *next = (*list)->next;

		free((*list)->path);
		free((*list)->soname);
		free(*list);
		*list = next;
	}
}

void build_id_done(void)
{
	known_free(&known);
	known_free(&expected);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * build-id.c: what a trace file says of the objects a traced process
 * loaded, read from their files: the GNU build ID (the NT_GNU_BUILD_ID
 * note the linker writes), so that an unwinder reading a file later (-k)
 * can tell whether the library on disk is still the one that ran, and
 * the soname, so that --read -u matches a library by it as live -u does.
 * Each path is read once; with -f, every process loads the same
 * libraries.  Reading a file (--read), the IDs it recorded are expected;
 * a file whose ID differs gets one warning when its names or unwind
 * information are first looked at.
 */
#include "config.h"

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
	size_t len;
	unsigned char id[BUILD_ID_MAX];
	bool checked; /* (expected) looked at already */
	char *soname; /* DT_SONAME, or NULL */
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

/* What path says of itself (read once). */
static const struct known *known_of(const char *path)
{
	Elf_Scn *scn = NULL;
	struct known *k;
	GElf_Shdr sh;
	Elf *elf;
	int fd;

	for (k = known; k; k = k->next)
		if (strcmp(k->path, path) == 0)
			return k;
	k = xcalloc(1, sizeof(*k));
	k->path = xstrdup(path);
	k->next = known;
	known = k;
	elf = fd_elf_open(path, &fd);
	if (!elf)
		return k;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_NOTE && !k->len)
			notes_read(scn, k);
		else if (sh.sh_type == SHT_DYNAMIC && !k->soname)
			soname_read(elf, scn, &sh, k);
	}
	fd_elf_close(elf, fd);
	return k;
}

size_t build_id_read(const char *path, unsigned char *id)
{
	const struct known *k = known_of(path);

	memcpy(id, k->id, k->len);
	return k->len;
}

const char *build_id_soname(const char *path)
{
	return known_of(path)->soname;
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

void build_id_check(const char *path)
{
	unsigned char id[BUILD_ID_MAX];
	struct known *e;
	size_t n;

	for (e = expected; e; e = e->next) {
		if (e->checked || strcmp(e->path, path) != 0)
			continue;
		e->checked = true;
		n = build_id_read(path, id);
		if (n != e->len || memcmp(id, e->id, n) != 0) {
			char printable[1024];

			warning_msg("'%s' is not the file that ran (its build ID differs): names and stacks from it may be wrong",
				    check_name(printable, sizeof(printable),
					       path));
		}
	}
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

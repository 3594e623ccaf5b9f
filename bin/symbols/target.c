/* SPDX-License-Identifier: GPL-2.0-or-later */
/* target.c: find the command and refuse what the interposer cannot enter. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <elf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "error.h"
#include "target.h"
#include "xmalloc.h"

/* Search PATH for name; returns a malloc'd path or NULL (errno set). */
static char *path_search(const char *name)
{
	const char *path = getenv("PATH");
	int saved = ENOENT;

	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *end = strchrnul(path, ':');
		size_t dirlen = (size_t)(end - path);
		char *full = xasprintf("%.*s%s%s", (int)dirlen, path,
				       dirlen ? "/" : "", name);

		if (access(full, X_OK) == 0) {
			struct stat st;

			if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
				return full;
		} else if (errno == EACCES) {
			saved = EACCES;
		}
		free(full);
		path = *end ? end + 1 : end;
	}
	errno = saved;
	return NULL;
}

/* Refuse programs run with other credentials: the loader drops LD_AUDIT. */
static void check_credentials(const char *path, const struct stat *st)
{
	if ((st->st_mode & S_ISUID) && st->st_uid != geteuid())
		error_msg_and_die("cannot trace '%s': it is set-uid, so the loader would ignore the interposer; run it as its owner or copy it without the set-uid bit",
				  path);
	if ((st->st_mode & S_ISGID) && st->st_gid != getegid())
		error_msg_and_die("cannot trace '%s': it is set-gid, so the loader would ignore the interposer; run it with its group or copy it without the set-gid bit",
				  path);
	if (getxattr(path, "security.capability", NULL, 0) > 0)
		error_msg_and_die("cannot trace '%s': it has file capabilities, so the loader would ignore the interposer; trace a copy without them",
				  path);
}

/* Read the PT_INTERP string of ph into a malloc'd string, or die. */
static char *read_interp(const char *path, int fd, const Elf64_Phdr *ph)
{
	char *s;

	if (ph->p_filesz == 0 || ph->p_filesz > 4096)
		error_msg_and_die("cannot trace '%s': bad loader name in its program headers",
				  path);
	s = xmalloc(ph->p_filesz + 1);
	if (pread(fd, s, ph->p_filesz, (off_t)ph->p_offset) !=
	    (ssize_t)ph->p_filesz)
		perror_msg_and_die("cannot read '%s'", path);
	s[ph->p_filesz] = '\0';
	return s;
}

/* A 16-bit field of an ELF header in the file's byte order (data). */
static unsigned elf_half(const unsigned char *p, unsigned char data)
{
	return data == ELFDATA2MSB ? (unsigned)p[0] << 8 | p[1] :
				     (unsigned)p[1] << 8 | p[0];
}

/*
 * Check an ELF file: x86_64, dynamically linked; note it and its loader.
 * Read by hand, not with libelf: the headers are all it needs, and
 * libelf (with libz) loaded at every start only for them cost more than
 * reading them (ltruss opens it when --list or a symbol needs it).
 */
static void check_elf(const char *path, int fd, struct target *t)
{
	unsigned char raw[sizeof(Elf64_Ehdr)];
	unsigned char *id = raw;
	unsigned type, machine;
	char *interp = NULL;
	Elf64_Phdr *phs;
	Elf64_Ehdr eh;
	ssize_t n;
	size_t i;

	n = pread(fd, raw, sizeof(raw), 0);
	if (n < EI_NIDENT || memcmp(id, ELFMAG, SELFMAG) != 0 ||
	    (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64) ||
	    (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB))
		error_msg_and_die("cannot trace '%s': not an ELF program nor a '#!' script; give the path of a program",
				  path);
	if (n < (ssize_t)(id[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr) :
						       sizeof(Elf32_Ehdr)))
		error_msg_and_die("cannot trace '%s': its ELF header is bad (the file ends inside it)",
				  path);
	/* e_type and e_machine sit at the same offsets in both classes. */
	type = elf_half(raw + offsetof(Elf64_Ehdr, e_type), id[EI_DATA]);
	machine = elf_half(raw + offsetof(Elf64_Ehdr, e_machine), id[EI_DATA]);
	if (id[EI_CLASS] != ELFCLASS64 || machine != EM_X86_64 ||
	    id[EI_DATA] != ELFDATA2LSB)
		error_msg_and_die("cannot trace '%s': it is built for another architecture (ELF class %d, machine %u); ltruss traces x86_64 programs",
				  path, id[EI_CLASS], machine);
	if (type != ET_EXEC && type != ET_DYN)
		error_msg_and_die("cannot trace '%s': not an executable (ELF type %u)",
				  path, type);
	memcpy(&eh, raw, sizeof(eh));
	if (eh.e_phnum && eh.e_phentsize != sizeof(Elf64_Phdr))
		error_msg_and_die("cannot trace '%s': bad ELF program headers (entries of %u bytes)",
				  path, eh.e_phentsize);
	/* The headers at once: one read, not one each. */
	phs = xcalloc(eh.e_phnum ? eh.e_phnum : 1, sizeof(*phs));
	if (pread(fd, phs, eh.e_phnum * sizeof(*phs), (off_t)eh.e_phoff) !=
	    (ssize_t)(eh.e_phnum * sizeof(*phs)))
		error_msg_and_die("cannot trace '%s': bad ELF program headers (the file ends inside them)",
				  path);
	for (i = 0; i < eh.e_phnum && !interp; i++)
		if (phs[i].p_type == PT_INTERP)
			interp = read_interp(path, fd, &phs[i]);
	free(phs);
	if (!interp)
		error_msg_and_die("cannot trace '%s': it is statically linked, so it loads no shared libraries to trace",
				  path);
	t->elf = xstrdup(path);
	t->loader = interp;
}

/* What a file of mode is, if it is not a regular file ("a FIFO"); NULL if it is. */
static const char *not_regular(mode_t mode)
{
	if (S_ISREG(mode))
		return NULL;
	return S_ISFIFO(mode) ? "a FIFO" : S_ISDIR(mode) ? "a directory" :
	       S_ISCHR(mode) ? "a character device" :
	       S_ISBLK(mode) ? "a block device" :
	       S_ISSOCK(mode) ? "a socket" : "not a regular file";
}

/* Check path (a program or a script's interpreter, depth levels deep). */
static void check_program(const char *path, int depth, struct target *t)
{
	const char *kind;
	char head[256];
	struct stat st;
	ssize_t n;
	int fd;

	/* O_NONBLOCK: the open of a FIFO must not wait for a writer. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		perror_msg_and_die("cannot open '%s'", path);
	if (fstat(fd, &st) < 0)
		perror_msg_and_die("cannot stat '%s'", path);
	if ((kind = not_regular(st.st_mode)))
		error_msg_and_die("cannot trace '%s': it is %s, not a program file; give the path of a program",
				  path, kind);
	check_credentials(path, &st);
	n = pread(fd, head, sizeof(head) - 1, 0);
	if (n < 0)
		perror_msg_and_die("cannot read '%s'", path);
	head[n] = '\0';
	if (n >= 2 && head[0] == '#' && head[1] == '!') {
		char *interp = head + 2, *end;

		close(fd);
		if (depth > 4)
			error_msg_and_die("cannot trace '%s': too many levels of '#!' interpreters",
					  path);
		interp += strspn(interp, " \t");
		end = interp + strcspn(interp, " \t\n");
		*end = '\0';
		if (*interp == '\0')
			error_msg_and_die("cannot trace '%s': its '#!' line names no interpreter",
					  path);
		check_program(interp, depth + 1, t);
		return;
	}
	check_elf(path, fd, t);
	close(fd);
}

void target_locate(const char *name, struct target *t)
{
	char *path;

	if (strchr(name, '/')) {
		path = xstrdup(name);
		if (access(path, X_OK) < 0)
			perror_msg_and_die("cannot run '%s'", name);
	} else {
		path = path_search(name);
		if (!path) {
			if (errno == EACCES)
				error_msg_and_die("cannot run '%s': permission denied",
						  name);
			error_msg_and_die("command not found: '%s' (not in PATH)",
					  name);
		}
	}
	t->path = path;
	check_program(path, 0, t);
}

char *target_resolve(const char *name)
{
	struct target t;

	target_locate(name, &t);
	free(t.elf);
	free(t.loader);
	return t.path;
}
